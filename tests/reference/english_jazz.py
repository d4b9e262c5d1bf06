"""English Jazz in plain Python, from RULES.md section 3 alone (slow, obvious).

Cards are two-character codes ("7H"). Nothing here imports the kernel; the
counter-based random streams of ARCHITECTURE.md ("Randomness and pairing")
are re-implemented so that an audit can check the deals and the first dealer
of a trace from its seed and index.
"""

from __future__ import annotations

PLAYERS = 3
PLAIN_ORDER = "6789TJQKA"  # low to high
TRUMP_ORDER = "678TQKA9J"  # low to high
SUITS = "CDHS"
PLAIN_POINTS = {"A": 11, "K": 4, "Q": 3, "J": 2, "T": 10, "9": 0, "8": 0, "7": 0, "6": 0}
TRUMP_POINTS = {**PLAIN_POINTS, "J": 20, "9": 14}
DECK = [r + s for s in SUITS for r in PLAIN_ORDER]  # the kernel's deck order: suit, then rank
RULES = "ABCDE"

# ------------------------------------------------------------ random streams

MASK64 = (1 << 64) - 1
GAMMA, M1, M2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
DEAL, PLAY, SETUP = 1, 2, 3


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * M1) & MASK64
    z = ((z ^ (z >> 27)) * M2) & MASK64
    return z ^ (z >> 31)


class Stream:
    """SplitMix64 keyed by (seed, game, deal, purpose)."""

    def __init__(self, seed: int, game: int, deal: int, purpose: int):
        z = _mix((seed + GAMMA) & MASK64)
        z = _mix(z ^ ((game + GAMMA) & MASK64))
        self.state = _mix(z ^ ((deal * M1 + purpose) & MASK64))

    def below(self, n: int) -> int:
        self.state = (self.state + GAMMA) & MASK64
        return ((_mix(self.state) >> 32) * n) >> 32

    def shuffled(self, cards: list) -> list:
        cards = list(cards)
        for i in range(len(cards) - 1, 0, -1):
            j = self.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return cards


def card_order(card: str) -> tuple[int, int]:
    """The kernel's card order (suit CDHS, then rank): used only to replay
    random choices, never by the rules."""
    return SUITS.index(card[1]), PLAIN_ORDER.index(card[0])


# -------------------------------------------------------------------- rules


def legal(hand, trick) -> set[str]:
    """Follow the led suit if you can, else any card; the lead is free."""
    if not trick:
        return set(hand)
    follow = {c for c in hand if c[1] == trick[0][1]}
    return follow or set(hand)


def play_trick(trick, trump):
    """(winner position, trump after the trick, position that set trump or None).

    Trump is set by the first card of the deal that does not follow suit, and
    that card is already a trump in this trick."""
    led = trick[0][1]
    setter = None
    for k, card in enumerate(trick):
        if trump is None and card[1] != led:
            trump, setter = card[1], k
    best = 0
    for k, card in enumerate(trick):
        if beats(card, trick[best], led, trump):
            best = k
    return best, trump, setter


def beats(card, other, led, trump) -> bool:
    if card[1] == trump:
        return other[1] != trump or TRUMP_ORDER.index(card[0]) > TRUMP_ORDER.index(other[0])
    if other[1] == trump or card[1] != led:
        return False
    return PLAIN_ORDER.index(card[0]) > PLAIN_ORDER.index(other[0])


def card_points(cards, trump) -> int:
    return sum(TRUMP_POINTS[c[0]] if c[1] == trump else PLAIN_POINTS[c[0]] for c in cards)


def deal_score(tricks, points) -> tuple[str, list[int]]:
    """The first of rules A-E that applies: (letter, score per seat)."""
    n = PLAYERS
    for s in range(n):
        if tricks[s] == 12:
            return "A", [2 if o == s else -1 for o in range(n)]
    for s in range(n):
        if tricks[s] == 0:
            return "B", [-2 if o == s else 1 for o in range(n)]
    for s in range(n):
        if points[s] > 100:
            return "C", [-2 if o == s else 1 for o in range(n)]
    distinct = len(set(points))
    if distinct == 1:
        return "D", [0] * n
    if distinct == 2:
        return "D", [-1 if points.count(points[s]) == 2 else 2 for s in range(n)]
    middle = sorted(points)[1]
    return "E", [-2 if points[s] == middle else 1 for s in range(n)]


def face_up_dealer(order) -> tuple[int, int]:
    """Cards go face up to seats 1, 2, 0, 1, ... until a J: (its seat, cards shown)."""
    for t, card in enumerate(order):
        if card[0] == "J":
            return (1 + t) % PLAYERS, t + 1
    raise ValueError("no jack in the deck")


def deal_hands(order, dealer) -> list[list[str]]:
    """Packets of three, starting with the seat after the dealer."""
    hands = [[] for _ in range(PLAYERS)]
    pos = 0
    for _ in range(4):
        for j in range(PLAYERS):
            hands[(dealer + 1 + j) % PLAYERS] += order[pos : pos + 3]
            pos += 3
    return hands


def play_deal(hands, dealer, choose) -> dict:
    """Play a deal; ``choose(seat, legal, hand, trick, trump)`` picks each card."""
    hands = [list(h) for h in hands]
    leader = (dealer + 1) % PLAYERS
    trump = setter = None
    tricks, taken, plays = [0] * PLAYERS, [[] for _ in range(PLAYERS)], []
    for _ in range(12):
        trick, before = [], trump
        for j in range(PLAYERS):
            seat = (leader + j) % PLAYERS
            ok = legal(hands[seat], trick)
            card = choose(seat, ok, hands[seat], trick, trump)
            assert card in ok, (card, ok)
            plays.append({"seat": seat, "legal": sorted(ok), "card": card})
            hands[seat].remove(card)
            trick.append(card)
            if trump is None and j > 0 and card[1] != trick[0][1]:
                trump, setter = card[1], seat
        best, after, _ = play_trick(trick, before)
        assert after == trump
        leader = (leader + best) % PLAYERS
        tricks[leader] += 1
        taken[leader] += trick
    points = [card_points(taken[s], trump) for s in range(PLAYERS)]
    rule, score = deal_score(tricks, points)
    return {
        "trump": trump,
        "trump_set_by": setter,
        "tricks": tricks,
        "card_points": points,
        "rule": rule,
        "score": score,
        "plays": plays,
    }


# -------------------------------------------------------------------- audit


def audit(line: dict) -> list[str]:
    """Every way a TRACE.md english_jazz line departs from the rules."""
    errs: list[str] = []
    if line.get("game") != "english_jazz":
        errs.append(f"game is {line.get('game')!r}")
    if line.get("players") != PLAYERS:
        errs.append(f"players is {line.get('players')!r}, not 3")
    deals = line.get("deals", [])
    if len(deals) != 12:
        errs.append(f"{len(deals)} deals, not 12")
    seed, index = line["seed"], line["index"]
    order = Stream(seed, index, 0, SETUP).shuffled(DECK)
    first, shown = face_up_dealer(order)
    if "first_dealer_cards" in line and line["first_dealer_cards"] != order[:shown]:
        errs.append(f"face-up cards {line['first_dealer_cards']} should be {order[:shown]}")
    totals = [0] * PLAYERS
    for k, deal in enumerate(deals):
        errs += [f"deal {k}: {e}" for e in _audit_deal(deal, seed, index, k, (first + k) % PLAYERS)]
        totals = [a + b for a, b in zip(totals, deal["score"])]
    if line.get("totals") != totals:
        errs.append(f"totals {line.get('totals')} should be {totals}")
    winners = [s for s in range(PLAYERS) if totals[s] == max(totals)]
    if sorted(line.get("winners", [])) != winners:
        errs.append(f"winners {line.get('winners')} should be {winners}")
    return errs


def _audit_deal(deal, seed, index, k, dealer) -> list[str]:
    errs = []
    if deal["dealer"] != dealer:
        errs.append(f"dealer {deal['dealer']} should be {dealer}")
    if deal["leader"] != (dealer + 1) % PLAYERS:
        errs.append(f"leader {deal['leader']} should be {(dealer + 1) % PLAYERS}")
    dealt = deal_hands(Stream(seed, index, k, DEAL).shuffled(DECK), dealer)
    for s in range(PLAYERS):
        if sorted(deal["hands"][s]) != sorted(dealt[s]):
            errs.append(f"hand {s} is not the deal of the seed: {deal['hands'][s]} vs {dealt[s]}")
    hands = [list(h) for h in deal["hands"]]
    plays = deal["plays"]
    if len(plays) != 36:
        return errs + [f"{len(plays)} plays, not 36"]
    leader = (dealer + 1) % PLAYERS
    trump = setter = None
    tricks, taken = [0] * PLAYERS, [[] for _ in range(PLAYERS)]
    for t in range(12):
        trick = []
        for j in range(PLAYERS):
            seat = (leader + j) % PLAYERS
            p = plays[3 * t + j]
            where = f"trick {t} card {j}"
            if p["seat"] != seat:
                return errs + [f"{where}: seat {p['seat']} plays, should be {seat}"]
            ok = legal(hands[seat], trick)
            if sorted(p["legal"]) != sorted(ok):
                errs.append(f"{where}: legal {sorted(p['legal'])} should be {sorted(ok)}")
            card = p["card"]
            if card not in ok:
                return errs + [f"{where}: seat {seat} may not play {card}"]
            hands[seat].remove(card)
            trick.append(card)
        before = trump
        best, trump, pos = play_trick(trick, trump)
        if pos is not None:
            setter = (leader + pos) % PLAYERS
        if before is not None and trump != before:
            errs.append(f"trick {t}: trump changed")
        leader = (leader + best) % PLAYERS
        tricks[leader] += 1
        taken[leader] += trick
    points = [card_points(taken[s], trump) for s in range(PLAYERS)]
    if sum(points) != (152 if trump else 120):
        errs.append(f"card points add up to {sum(points)}")
    rule, score = deal_score(tricks, points)
    want = {
        "trump": trump,
        "trump_set_by": setter,
        "tricks": tricks,
        "card_points": points,
        "rule": rule,
        "score": score,
    }
    for key, value in want.items():
        if deal.get(key) != value:
            errs.append(f"{key} {deal.get(key)} should be {value}")
    return errs


def random_choice_errors(line: dict) -> list[str]:
    """For a ``random`` policy line: each card must be the legal card (in the
    kernel's card order) drawn by stream(seed, index, 0, PLAY) at that turn."""
    st = Stream(line["seed"], line["index"], 0, PLAY)
    errs = []
    for k, deal in enumerate(line["deals"]):
        for j, p in enumerate(deal["plays"]):
            ok = sorted(p["legal"], key=card_order)
            want = ok[st.below(len(ok))]
            if p["card"] != want:
                errs.append(f"deal {k} play {j}: {p['card']} should be {want}")
    return errs
