"""Norwegian Jazz in plain Python, straight from RULES.md section 4.

Slow and obvious on purpose: cards are their text codes (``"7H"``), hands
and tables are sets. Nothing here imports the kernel. ``audit(line)``
replays one TRACE.md line and lists every way it breaks the rules.
"""

from __future__ import annotations

RANKS = "23456789TJQKA"
SUITS = "CDHS"
FULL_DECK = frozenset(r + s for s in SUITS for r in RANKS)

REMOVED_TWOS = {
    3: frozenset({"2D"}),
    4: frozenset(),
    5: frozenset({"2D", "2H"}),
    6: frozenset({"2C", "2D", "2H", "2S"}),
    7: frozenset({"2D", "2H", "2S"}),
}
HAND_SIZE = {3: 17, 4: 13, 5: 10, 6: 8, 7: 7}

# score of one penalty unit in deals 1..5
UNIT_SCORE = {1: -1, 2: -1, 3: -5, 4: -15, 5: -20}
# cards whose absence from every hand lets deals 2-4 end early
PENALTY_CARDS = {
    2: frozenset(r + "C" for r in RANKS),
    3: frozenset("Q" + s for s in SUITS),
    4: frozenset({"KC"}),
}


def rank(card: str) -> int:
    return RANKS.index(card[0])


def suit(card: str) -> str:
    return card[1]


def adjusted_deck(players: int) -> frozenset:
    """The deck of deals 1-5 for ``players`` players."""
    return FULL_DECK - REMOVED_TWOS[players]


# ------------------------------------------------------------ deals 1 to 5


def trick_legal(hand, trick) -> set:
    """Follow suit if you can, otherwise any card; leading: any card."""
    hand = set(hand)
    if not trick:
        return hand
    follow = {c for c in hand if suit(c) == suit(trick[0])}
    return follow or hand


def trick_winner(trick) -> int:
    """Index in ``trick`` of the highest card of the led suit."""
    led = suit(trick[0])
    best = 0
    for i, c in enumerate(trick):
        if suit(c) == led and rank(c) > rank(trick[best]):
            best = i
    return best


def penalty_units(number: int, trick, last: bool) -> int:
    """What one trick costs its winner in deal ``number``, in units."""
    if number == 1:
        return 1
    if number == 2:
        return sum(1 for c in trick if suit(c) == "C")
    if number == 3:
        return sum(1 for c in trick if c[0] == "Q")
    if number == 4:
        return 1 if "KC" in trick else 0
    return 1 if last else 0


# ---------------------------------------------------------------- sevens


def sevens_legal(hand, table) -> set:
    """Any 7; in a suit whose 7 is down, the card next above the row's top
    or next below its bottom."""
    ok = set()
    for s in SUITS:
        row = sorted(rank(c) for c in table if suit(c) == s)
        if "7" + s not in table:
            ok.add("7" + s)
            continue
        if row[-1] < 12:
            ok.add(RANKS[row[-1] + 1] + s)
        if row[0] > 0:
            ok.add(RANKS[row[0] - 1] + s)
    return ok & set(hand)


def sevens_hand_sizes(players: int, dealer: int) -> list[int]:
    """52 cards one at a time from the seat after the dealer."""
    sizes = [0] * players
    for j in range(52):
        sizes[(dealer + 1 + j) % players] += 1
    return sizes


# ----------------------------------------------------------------- audit


def _scores_equal(got, want) -> bool:
    return isinstance(got, list) and list(got) == list(want)


def _audit_trick_deal(deal, number, n, errs, where) -> list[int]:
    hands = [set(h) for h in deal["hands"]]
    size = HAND_SIZE[n]
    for s, h in enumerate(deal["hands"]):
        if len(h) != size or len(set(h)) != size:
            errs.append(f"{where}: seat {s} holds {len(h)} cards, not {size} distinct")
    if set().union(*hands) != adjusted_deck(n) or sum(len(h) for h in hands) != len(adjusted_deck(n)):
        errs.append(f"{where}: the hands are not the adjusted deck for {n} players")
    plays = deal["plays"]
    tricks = [0] * n
    units = [0] * n
    leader = deal["leader"]
    full = len(plays) // n
    if len(plays) % n:
        errs.append(f"{where}: play stops inside a trick ({len(plays)} plays)")
    for t in range(full):
        trick = []
        for i in range(n):
            p = plays[t * n + i]
            seat = (leader + i) % n
            if p["seat"] != seat:
                errs.append(f"{where} trick {t}: seat {p['seat']} plays, seat {seat} should")
                return tricks
            want = trick_legal(hands[seat], trick)
            if set(p["legal"]) != want or len(p["legal"]) != len(want):
                errs.append(f"{where} trick {t}: legal {sorted(p['legal'])} != rules {sorted(want)}")
            if p["card"] not in want:
                errs.append(f"{where} trick {t}: seat {seat} may not play {p['card']}")
                return tricks
            hands[seat].discard(p["card"])
            trick.append(p["card"])
        w = (leader + trick_winner(trick)) % n
        tricks[w] += 1
        units[w] += penalty_units(number, trick, t == size - 1)
        leader = w
    if full < size:
        left = set().union(*hands)
        if number not in PENALTY_CARDS:
            errs.append(f"{where}: deal {number} must be played to the end, stops after {full} tricks")
        elif left & PENALTY_CARDS[number]:
            still = sorted(left & PENALTY_CARDS[number])
            errs.append(f"{where}: stops after {full} tricks with {still} in hand")
    if deal.get("tricks") != tricks:
        errs.append(f"{where}: tricks {deal.get('tricks')} != replay {tricks}")
    if "taken" in deal and deal["taken"] != units:
        errs.append(f"{where}: taken {deal['taken']} != replay {units}")
    return [u * UNIT_SCORE[number] for u in units]


def _audit_sevens(deal, n, rules, errs, where) -> list[int]:
    hands = [set(h) for h in deal["hands"]]
    sizes = sevens_hand_sizes(n, deal["dealer"])
    if [len(h) for h in deal["hands"]] != sizes:
        errs.append(f"{where}: hand sizes {[len(h) for h in deal['hands']]} != {sizes}")
    if set().union(*hands) != FULL_DECK or sum(len(h) for h in hands) != 52:
        errs.append(f"{where}: the hands are not the 52-card deck")
    table: set = set()
    passes = [0] * n
    order = [0] * n
    first = None
    seat = deal["leader"]
    ended = False
    for j, p in enumerate(deal["plays"]):
        if ended:
            errs.append(f"{where} turn {j}: play goes on after the deal ended")
            break
        while not hands[seat]:  # players who are out are skipped
            seat = (seat + 1) % n
        if p["seat"] != seat:
            errs.append(f"{where} turn {j}: seat {p['seat']} plays, seat {seat} should")
            break
        want = sevens_legal(hands[seat], table)
        if set(p["legal"]) != want or len(p["legal"]) != len(want):
            errs.append(f"{where} turn {j}: legal {sorted(p['legal'])} != rules {sorted(want)}")
        if not want:
            if p["card"] is not None:
                errs.append(f"{where} turn {j}: seat {seat} plays {p['card']} with no legal card")
                break
            passes[seat] += 1
        else:
            if p["card"] not in want:
                errs.append(f"{where} turn {j}: seat {seat} must play one of {sorted(want)}, not {p['card']}")
                break
            hands[seat].discard(p["card"])
            table.add(p["card"])
            if not hands[seat]:
                order[seat] = max(order) + 1
                if first is None:
                    first = seat
                    ended = not rules["play_out"]
                if rules["play_out"] and not any(hands):
                    ended = True
        seat = (seat + 1) % n
    if not ended:
        errs.append(f"{where}: sevens stops before its end")
    if deal.get("passes") != passes:
        errs.append(f"{where}: passes {deal.get('passes')} != replay {passes}")
    if deal.get("first_out") != first:
        errs.append(f"{where}: first_out {deal.get('first_out')} != replay {first}")
    if "out_order" in deal and deal["out_order"] != order:
        errs.append(f"{where}: out_order {deal['out_order']} != replay {order}")
    return [-passes[s] + (rules["first_out_bonus"] if s == first else 0) for s in range(n)]


def audit(line: dict) -> list[str]:
    """Every discrepancy between a TRACE.md line and RULES.md section 4."""
    errs: list[str] = []
    n = line.get("players")
    if n not in HAND_SIZE:
        return [f"players {n!r} is not 3..7"]
    rules = line.get("rules", {})
    for name in ("rotate_dealer", "first_out_bonus", "play_out"):
        if name not in rules:
            errs.append(f"rule {name} missing from rules")
    if errs:
        return errs
    deals = line.get("deals", [])
    if len(deals) != 6:
        return [f"{len(deals)} deals, not 6"]
    first_dealer = deals[0]["dealer"]
    if not (isinstance(first_dealer, int) and 0 <= first_dealer < n):
        return [f"dealer {first_dealer!r}"]
    totals = [0] * n
    totals5: list[int] = []
    for k, deal in enumerate(deals):
        number = k + 1
        where = f"deal {number}"
        if deal.get("number") != number:
            errs.append(f"{where}: number {deal.get('number')!r}")
        dealer = (first_dealer + k) % n if rules["rotate_dealer"] else first_dealer
        if deal["dealer"] != dealer:
            errs.append(f"{where}: dealer {deal['dealer']} != {dealer}")
        if deal["leader"] != (dealer + 1) % n:
            errs.append(f"{where}: leader {deal['leader']} is not the seat after the dealer {dealer}")
        if number <= 5:
            score = _audit_trick_deal(deal, number, n, errs, where)
        else:
            score = _audit_sevens(deal, n, rules, errs, where)
        if not _scores_equal(deal.get("score"), score):
            errs.append(f"{where}: score {deal.get('score')} != rules {score}")
        totals = [a + b for a, b in zip(totals, score)]
        if number == 5:
            totals5 = list(totals)
    if line.get("totals") != totals:
        errs.append(f"totals {line.get('totals')} != {totals}")
    best = max(totals)
    winners = [s for s in range(n) if totals[s] == best]
    if sorted(line.get("winners", [])) != winners:
        errs.append(f"winners {line.get('winners')} != {winners}")
    if "totals5" in line and line["totals5"] != totals5:
        errs.append(f"totals5 {line['totals5']} != {totals5}")
    return errs
