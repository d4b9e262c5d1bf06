"""Schieber Jass in plain Python, written from RULES.md section 1 (slow, obvious).

Cards are the codes of RULES.md ("7H", "JS"). Nothing here imports the kernel:
the tests compare the kernel with these functions, and ``audit`` replays a
TRACE.md line under the rules.

The rule options (docs/RULES.md) arrive as a dict by their names, as a
trace's ``rules`` holds them; ``None`` or a missing name is the default:
``undenufe_points`` (ace / six), ``four_nines`` (0 / 150), ``long_runs``
(flat / scaled), ``multipliers`` ("1,1,2,2,3,4": acorns, roses, bells,
shields, Obenabe, Undenufe), ``weis`` (on / off: off, nobody declares a
Weis and none scores) and ``stoeck`` (on / off: off, nobody holds Stöck).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction
from math import comb

RANKS = "6789TJQKA"  # plain order, low to high
SUITS = "CDHS"
TRUMP_ORDER = "678TQKA9J"  # trump order, low to high
CONTRACTS = ("C", "D", "H", "S", "obenabe", "undenufe")
MULTIPLIER = {"C": 1, "H": 1, "D": 2, "S": 2, "obenabe": 3, "undenufe": 4}
RULE_DEFAULTS = {
    "target": 3000,
    "undenufe_points": "ace",
    "four_nines": "0",
    "long_runs": "flat",
    "multipliers": "1,1,2,2,3,4",
    "weis": "on",
    "stoeck": "on",
}
MULTIPLIER_ORDER = ("C", "H", "D", "S", "obenabe", "undenufe")  # as the multipliers option lists them
PLAIN_POINTS = {"A": 11, "K": 4, "Q": 3, "J": 2, "T": 10, "9": 0, "8": 0, "7": 0, "6": 0}
TRUMP_POINTS = {**PLAIN_POINTS, "J": 20, "9": 14}
DECK = [r + s for s in SUITS for r in RANKS]
QUARTET_POINTS = {"A": 100, "K": 100, "Q": 100, "T": 100, "J": 200}  # 9 8 7 6: nothing (by default)
KINDS = ("run3", "run4", "run5", "quartet_T", "quartet_J", "quartet_Q", "quartet_K", "quartet_A", "quartet_9")


def rule(rules: dict | None, name: str):
    """The value of rule option ``name`` (its default when ``rules`` does not name it)."""
    return (rules or {}).get(name, RULE_DEFAULTS[name])


def multipliers(rules: dict | None = None) -> dict[str, int]:
    """Each contract's multiplier under ``rules``."""
    value = rule(rules, "multipliers")
    items = value.split(",") if isinstance(value, str) else value
    return {c: int(m) for c, m in zip(MULTIPLIER_ORDER, items, strict=True)}


def quartet_points(rules: dict | None = None) -> dict[str, int]:
    """The four-of-a-kinds that count, by rank, and their points."""
    nines = int(rule(rules, "four_nines"))
    return {**QUARTET_POINTS, "9": nines} if nines else QUARTET_POINTS


def trump_of(contract: str) -> str | None:
    return contract if contract in SUITS else None


def team(seat: int) -> int:
    return seat % 2


# ------------------------------------------------------------------ tricks
def card_points(card: str, contract: str, rules: dict | None = None) -> int:
    rank, suit = card
    if suit == trump_of(contract):
        return TRUMP_POINTS[rank]
    if contract in ("obenabe", "undenufe") and rank == "8":
        return 8
    if contract == "undenufe" and rule(rules, "undenufe_points") == "six" and rank in "6A":
        return 11 if rank == "6" else 0
    return PLAIN_POINTS[rank]


def power(card: str, led: str, contract: str) -> tuple:
    """How strongly a card bids for a trick led in ``led`` (larger wins)."""
    rank, suit = card
    if suit == trump_of(contract):
        return (2, TRUMP_ORDER.index(rank))
    if suit == led:
        i = RANKS.index(rank)
        return (1, -i if contract == "undenufe" else i)
    return (0, 0)


def trick_winner(trick: list[str], contract: str) -> int:
    """Position in the trick of the winning card."""
    led = trick[0][1]
    powers = [power(c, led, contract) for c in trick]
    return powers.index(max(powers))


def legal(hand, trick: list[str], contract: str) -> set[str]:
    """Every card of ``hand`` the rules allow on ``trick`` (cards played so far)."""
    hand = set(hand)
    if not trick:
        return hand
    led = trick[0][1]
    follow = {c for c in hand if c[1] == led}
    trump = trump_of(contract)
    if trump is None:
        return follow or hand
    trumps = {c for c in hand if c[1] == trump}
    if led == trump:
        if not trumps or trumps == {"J" + trump}:
            return hand  # no trump, or the lone trump Under held back
        return trumps
    # a plain suit led: follow, or trump; void: anything. No undertrumping.
    in_trick = [TRUMP_ORDER.index(c[0]) for c in trick if c[1] == trump]
    only_trumps = trumps == hand
    out = set()
    for c in hand:
        if c[1] == trump:
            if in_trick and not only_trumps and TRUMP_ORDER.index(c[0]) < max(in_trick):
                continue
            out.add(c)
        elif not follow or c[1] == led:
            out.add(c)
    return out


# -------------------------------------------------------------------- Weis
def run_points(n: int, rules: dict | None = None) -> int:
    if n >= 5 and rule(rules, "long_runs") == "scaled":
        return {5: 100, 6: 150, 7: 200, 8: 250, 9: 300}[n]
    return 100 if n >= 5 else 50 if n == 4 else 20 if n == 3 else 0


def maximal_runs(cards) -> list[list[str]]:
    """Maximal sequences (3+ cards) of one suit in plain order."""
    out = []
    for suit in SUITS:
        idx = sorted(RANKS.index(c[0]) for c in cards if c[1] == suit)
        run: list[int] = []
        for i in idx + [99]:
            if run and i == run[-1] + 1:
                run.append(i)
                continue
            if len(run) >= 3:
                out.append([RANKS[j] + suit for j in run])
            run = [i]
    return out


def combo_key(cards: list[str], points: int, contract: str) -> tuple:
    """RULES.md comparison steps (1)-(5) as a tuple: larger is stronger."""
    ranks = {c[0] for c in cards}
    if len(ranks) == 1:  # four of a kind
        r = RANKS.index(cards[0][0])
        return (points, 1, 4, -r if contract == "undenufe" else r, 0)
    top = max(RANKS.index(c[0]) for c in cards)
    in_trump = 1 if cards[0][1] == trump_of(contract) else 0
    return (points, 0, len(cards), -top if contract == "undenufe" else top, in_trump)


def declaration(hand, contract: str, rules: dict | None = None) -> list[tuple[list[str], int]]:
    """The Weis a hand declares: [(cards, points)], maximising the total, ties by best combination
    (nothing without Weis)."""
    if rule(rules, "weis") == "off":
        return []
    hand = list(hand)
    qpoints = quartet_points(rules)
    quartets = [r for r in qpoints if all(r + s in hand for s in SUITS)]
    best, best_rank = [], None
    for n in range(len(quartets) + 1):
        for claimed in itertools.combinations(quartets, n):
            combos = [([r + s for s in SUITS], qpoints[r]) for r in claimed]
            rest = [c for c in hand if c[0] not in claimed]
            combos += [(run, run_points(len(run), rules)) for run in maximal_runs(rest)]
            total = sum(p for _, p in combos)
            strongest = max((combo_key(c, p, contract) for c, p in combos), default=())
            if best_rank is None or (total, strongest) > best_rank:
                best, best_rank = combos, (total, strongest)
    return best


def kinds_of(combos) -> set[str]:
    out = set()
    for cards, _ in combos:
        if len({c[0] for c in cards}) == 1:
            out.add("quartet_" + cards[0][0])
        else:
            out.add("run5" if len(cards) >= 5 else "run4" if len(cards) == 4 else "run3")
    return out


def weis_winner(hands, contract: str, forehand: int, rules: dict | None = None) -> int | None:
    """Seat with the strongest single combination, the earlier player on ties; None if none."""
    best, seat = None, None
    for pos in range(4):
        s = (forehand + pos) % 4
        combos = declaration(hands[s], contract, rules)
        if not combos:
            continue
        key = max(combo_key(c, p, contract) for c, p in combos)
        if best is None or key > best:
            best, seat = key, s
    return seat


def stoeck_seat(hands, contract: str, rules: dict | None = None) -> int | None:
    """The seat dealt trump K and Q (None in Obenabe and Undenufe, and without Stöck)."""
    trump = trump_of(contract)
    if trump is None or rule(rules, "stoeck") == "off":
        return None
    for s, h in enumerate(hands):
        if "K" + trump in h and "Q" + trump in h:
            return s
    return None


# -------------------------------------------------- exact Weis probabilities
def _suit_runs(mask: int, rules: dict | None = None) -> tuple[int, int, int]:
    """(run points, kind bits, longest run) of a 9-bit suit (bit i = RANKS[i])."""
    cards = [RANKS[i] + "C" for i in range(9) if mask >> i & 1]
    pts, kinds, longest = 0, 0, 0
    for run in maximal_runs(cards):
        pts += run_points(len(run), rules)
        kinds |= 1 << KINDS.index("run5" if len(run) >= 5 else "run4" if len(run) == 4 else "run3")
        longest = max(longest, len(run))
    return pts, kinds, longest


def weis_distribution(rules: dict | None = None) -> tuple[dict, int]:
    """Exact count of 9-card hands per (declared total, kind bits), and unresolved ties.

    A hand is four 9-bit suits. The declaration depends on the set I of
    four-of-a-kind ranks (T J Q K A) held and on the runs left in each suit
    after each claim choice S of I. For each I, inclusion-exclusion over the
    sets J >= I that every suit must contain turns "exactly I" into sums of
    products over suits, which a convolution over the four suits counts.
    Without Weis every hand declares nothing.
    """
    if rule(rules, "weis") == "off":
        return {(0, 0): comb(36, 9)}, 0
    qpoints = {RANKS.index(r): p for r, p in quartet_points(rules).items()}
    quartet_bits = sorted(qpoints)
    runs = [_suit_runs(m, rules) for m in range(512)]
    out: dict = defaultdict(int)
    unresolved = 0
    for ni in range(3):
        for I in itertools.combinations(quartet_bits, ni):  # noqa: E741 - I within J, as in inclusion-exclusion
            subsets = [S for n in range(ni + 1) for S in itertools.combinations(I, n)]
            for nj in range(ni, 3):
                for J in itertools.combinations(quartet_bits, nj):
                    if not set(I) <= set(J):
                        continue
                    sign = (-1) ** (nj - ni)
                    jmask = sum(1 << b for b in J)
                    suit: dict = defaultdict(int)
                    for m in range(512):
                        if m & jmask != jmask:
                            continue
                        state = tuple(runs[m & ~sum(1 << b for b in S)] for S in subsets)
                        suit[(bin(m).count("1"), state)] += 1
                    acc: dict = {(0, tuple((0, 0, 0) for _ in subsets)): 1}
                    for _ in range(4):
                        nxt: dict = defaultdict(int)
                        for (n1, s1), c1 in acc.items():
                            for (n2, s2), c2 in suit.items():
                                if n1 + n2 > 9:
                                    continue
                                st = tuple(
                                    (a[0] + b[0], a[1] | b[1], max(a[2], b[2])) for a, b in zip(s1, s2)
                                )
                                nxt[(n1 + n2, st)] += c1 * c2
                        acc = nxt
                    for (n, st), count in acc.items():
                        if n != 9:
                            continue
                        options = []
                        for S, (rpts, rkinds, longest) in zip(subsets, st):
                            total = rpts + sum(qpoints[b] for b in S)
                            best_run = (run_points(longest, rules), 0) if rkinds else (0, 0)
                            best_q = max(((qpoints[b], 1) for b in S), default=(0, 0))
                            kinds = rkinds | sum(1 << KINDS.index("quartet_" + RANKS[b]) for b in S)
                            options.append(((total, max(best_run, best_q)), total, kinds))
                        options.sort(reverse=True)
                        tie = len(options) > 1 and options[0][0] == options[1][0]
                        if tie and options[0][2] != options[1][2]:
                            unresolved += count
                        out[(options[0][1], options[0][2])] += sign * count
    return {k: v for k, v in out.items() if v}, unresolved


def weis_probabilities(rules: dict | None = None) -> dict[str, Fraction]:
    """Exact probability that a random 9-card hand declares each kind (and any Weis)."""
    dist, unresolved = weis_distribution(rules)
    if unresolved:
        raise AssertionError(f"{unresolved} hands with an undecided declaration")
    hands = comb(36, 9)
    assert sum(dist.values()) == hands
    out = {
        k: Fraction(sum(c for (t, kinds), c in dist.items() if kinds >> i & 1), hands)
        for i, k in enumerate(KINDS)
    }
    out["any"] = Fraction(sum(c for (t, _), c in dist.items() if t > 0), hands)
    out["mean_points"] = Fraction(sum(t * c for (t, _), c in dist.items()), hands)
    return out


# ------------------------------------------------------------------- audit
def _combo_set(combos) -> list:
    return sorted((tuple(sorted(c)), p) for c, p in combos)


def audit(line: dict, start: tuple[int, int] = (0, 0)) -> list[str]:
    """Replay one TRACE.md line under RULES.md; every discrepancy found, as text.

    ``start`` is the match score before the line's first deal (hand-built
    positions late in a match); a trace always starts from (0, 0).
    """
    errs: list[str] = []
    err = errs.append
    if line.get("game") != "schieber":
        err(f"game {line.get('game')!r}")
    if line.get("players") != 4:
        err(f"players {line.get('players')!r}")
    rules = line.get("rules", {})
    if "target" not in rules or set(rules) - set(RULE_DEFAULTS):
        err(f"rules should name target and only options of {sorted(RULE_DEFAULTS)}, got {sorted(rules)}")
    allowed = {
        "undenufe_points": ("ace", "six"),
        "four_nines": ("0", "150"),
        "long_runs": ("flat", "scaled"),
        "weis": ("on", "off"),
        "stoeck": ("on", "off"),
    }
    for name, values in allowed.items():
        if str(rule(rules, name)) not in values:
            err(f"rule {name} is {rule(rules, name)!r}, not one of {values}")
    mult = multipliers(rules)
    target = rules.get("target", 3000)
    totals = list(start)
    winner = None
    forehand = None
    deals = line["deals"]
    for k, deal in enumerate(deals):
        where = f"deal {k}"
        if winner is not None:
            err(f"{where}: played after the match was won")
            break
        hands = [list(h) for h in deal["hands"]]
        if sorted(c for h in hands for c in h) != sorted(DECK) or any(len(h) != 9 for h in hands):
            err(f"{where}: hands are not the 36 cards, 9 each")
            continue
        expected_f = next(s for s in range(4) if "7H" in hands[s]) if k == 0 else (forehand + 1) % 4
        forehand = deal["forehand"]
        if forehand != expected_f:
            err(f"{where}: forehand {forehand}, rules say {expected_f}")
        if deal["leader"] != forehand:
            err(f"{where}: leader {deal['leader']} is not the forehand {forehand}")
        if deal["dealer"] not in (None, (forehand + 3) % 4):
            err(f"{where}: dealer {deal['dealer']}")
        partner = (forehand + 2) % 4
        chooser = partner if deal["pushed"] else forehand
        if deal["chooser"] != chooser:
            err(f"{where}: chooser {deal['chooser']}, pushed={deal['pushed']} means {chooser}")
        contract = deal["contract"]
        if contract not in CONTRACTS:
            err(f"{where}: contract {contract!r}")
            continue
        m = mult[contract]
        declared = [declaration(h, contract, rules) for h in hands]
        for s in range(4):
            got = _combo_set((c["cards"], c["points"]) for c in deal["weis"][s])
            if got != _combo_set(declared[s]):
                err(f"{where}: seat {s} Weis {got}, rules say {_combo_set(declared[s])}")
        w_seat = weis_winner(hands, contract, forehand, rules)
        st_seat = stoeck_seat(hands, contract, rules)
        if deal["stoeck_seat"] != st_seat:
            err(f"{where}: stoeck_seat {deal['stoeck_seat']}, rules say {st_seat}")
        score = [0, 0]
        cp = [0, 0]

        def credit(t: int, pts: int) -> None:
            nonlocal winner
            totals[t] += pts
            score[t] += pts
            if winner is None and totals[t] >= target:
                winner = t

        stoeck_done = False
        weis_team = None
        if st_seat is not None and totals[team(st_seat)] + 20 * m >= target:
            credit(team(st_seat), 20 * m)
            stoeck_done = True
        if winner is None and w_seat is not None:
            weis_team = team(w_seat)
            credit(weis_team, sum(p for c, p in declared[w_seat] + declared[(w_seat + 2) % 4]) * m)
        if deal["weis_team"] != weis_team:
            err(f"{where}: weis_team {deal['weis_team']}, rules say {weis_team}")
        held = [set(h) for h in hands]
        plays = deal["plays"]
        i = 0
        leader = forehand
        tricks_won = [0, 0]
        for t in range(9):
            if winner is not None:
                break
            trick: list[str] = []
            for pos in range(4):
                if i >= len(plays):
                    err(f"{where}: plays stop at trick {t} card {pos} before the match was won")
                    break
                seat = (leader + pos) % 4
                p = plays[i]
                i += 1
                if p["seat"] != seat:
                    err(f"{where} trick {t}: seat {p['seat']} played, {seat} was to play")
                rule_set = legal(held[seat], trick, contract)
                if set(p["legal"]) != rule_set or len(p["legal"]) != len(rule_set):
                    err(
                        f"{where} trick {t}: seat {seat} legal {sorted(p['legal'])}, "
                        f"rules say {sorted(rule_set)}"
                    )
                card = p["card"]
                if card not in rule_set:
                    err(f"{where} trick {t}: seat {seat} plays {card}, not allowed")
                    return errs
                held[seat].discard(card)
                trick.append(card)
                trump = trump_of(contract)
                if (
                    seat == st_seat
                    and not stoeck_done
                    and card in ("K" + str(trump), "Q" + str(trump))
                    and not ({"K" + trump, "Q" + trump} & held[seat])
                ):
                    stoeck_done = True
                    credit(team(seat), 20 * m)
                    if winner is not None:
                        break
            if winner is not None or len(trick) < 4:
                break
            w = (leader + trick_winner(trick, contract)) % 4
            pts = sum(card_points(c, contract, rules) for c in trick)
            tricks_won[team(w)] += 1
            if t == 8:
                pts += 5 + (100 if tricks_won[team(w)] == 9 else 0)
            cp[team(w)] += pts
            credit(team(w), pts * m)
            leader = w
        if i != len(plays):
            err(f"{where}: {len(plays)} plays, the rules stop after {i}")
        ended = winner is not None
        if deal["match_ended"] != ended:
            err(f"{where}: match_ended {deal['match_ended']}, rules say {ended}")
        if list(deal["score"]) != score:
            err(f"{where}: score {deal['score']}, rules say {score}")
        if list(deal["card_points"]) != cp:
            err(f"{where}: card_points {deal['card_points']}, rules say {cp}")
    if winner is None:
        err("the match ends before a team reached the target")
    if list(line["totals"]) != totals:
        err(f"totals {line['totals']}, rules say {totals}")
    if winner is not None and list(line["winners"]) != [winner]:
        err(f"winners {line['winners']}, rules say [{winner}]")
    if winner is not None and line.get("schneider") != (2 * totals[1 - winner] < target):
        err(f"schneider {line.get('schneider')}, rules say {2 * totals[1 - winner] < target}")
    return errs
