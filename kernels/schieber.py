"""Schieber Jass (docs/RULES.md section 1): rules, policies, whole matches, batch driver.

Seats 0..3 in playing order, team = seat & 1 (partners opposite). Contract
codes: 0..3 trump C D H S (the suit code), 4 Obenabe, 5 Undenufe. A simulated
game is a whole match to ``target`` with live counting, so it may stop in
the middle of a deal. Weis live in ``cardmc.kernels.schieber_weis``; the policies
(``random``, ``heuristic``) further down this module.

``params`` (``P_*``) = [target, undenufe_points, four_nines, long_runs,
six multipliers, weis, stoeck, contract, forehand_push, pimc_samples,
pimc_tricks, push_below, weights...]: the rule options in the spec's order
(undenufe_points 0 = ace, 1 = six; four_nines 0 or 150; long_runs 0 = flat,
1 = scaled; multipliers of acorns, roses, bells, shields, Obenabe, Undenufe;
weis and stoeck 1 = on, 0 = off), then the simulation options (contract -1 =
chosen, else fixed; forehand_push 0 = as the policy says, 1 = always push,
2 = never push), then what the spec derives from the rules: the heuristic
forehand pushes when no contract is worth ``push_below``
(``cardmc.kernels.schieber_push.push_below``), then from ``P_WEIGHTS`` on the
``learned`` player's weights (``cardmc.kernels.schieber_learned``).
The kernels carry the rule options other than the target as one int, the
*rules word* (``rules_of``, ``DEFAULT_RULES``).
``policies[seat, 0]``: 0 random, 1 heuristic, 2 pimc (scripted), 3 learned.
"""

from __future__ import annotations

import numpy as np

from cardmc.kernels import condition, rng
from cardmc.kernels.bits import ONE, ZERO, lowest, nth, popcount
from cardmc.kernels.cards import (
    ACE,
    EIGHT,
    FULL36,
    HEARTS,
    JACK,
    KING,
    NINE,
    QUEEN,
    SEVEN,
    SIX,
    TEN,
    deal36,
    deck,
)
from cardmc.kernels.columns import new_rows
from cardmc.kernels.events import (
    EV_CARD_POINTS,
    EV_CONTRACT,
    EV_DEAL,
    EV_DEAL_END,
    EV_HAND,
    EV_PLAY,
    EV_STOECK,
    EV_WEIS,
    EV_WEIS_TEAM,
)
from cardmc.kernels.jit import in_shares, jit
from cardmc.kernels.schieber_learned import (
    NCONTRACT,
    NLEARNED,
    card_features,
    contract_estimate,
    learned_card,
)
from cardmc.kernels.schieber_learned import NF as NWEIGHTS
from cardmc.kernels.schieber_weis import (
    FOUR_NINES,
    NO_WEIS,
    OBENABE,
    SCALED_RUNS,
    UNDENUFE,
    combinations,
    declare,
    strongest,
)
from cardmc.kernels.script import scripted_card
from cardmc.kernels.script import start as start_script
from cardmc.kernels.tricks import (
    JASS_PLAIN,
    JASS_TRUMP,
    NO_TRUMP,
    PLAIN,
    REVERSED,
    SUIT16,
    TRUMP_STRENGTH,
    TRUMPS_ABOVE,
    strength,
)

CONTRACT_NAMES = ("C", "D", "H", "S", "obenabe", "undenufe")
MULTIPLIER = np.array([1, 2, 1, 2, 3, 4], dtype=np.int64)  # C D H S obenabe undenufe (the default)
# params: the rule options in the spec's order, then the simulation options
P_TARGET, P_UNDENUFE_POINTS, P_FOUR_NINES, P_LONG_RUNS, P_MULTIPLIERS = 0, 1, 2, 3, 4
P_WEIS, P_STOECK = 10, 11
P_CONTRACT, P_FOREHAND_PUSH = 12, 13
P_PIMC_SAMPLES, P_PIMC_TRICKS = 14, 15  # read by cardmc.pimc, not here
P_PUSH_BELOW = 16  # derived from the rules by the spec, not an option
NPARAMS = 17
P_WEIGHTS = NPARAMS  # the learned player's weights, NWEIGHTS of them, when the spec appends them
MULTIPLIER_ORDER = (0, 2, 1, 3, 4, 5)  # the option's order (acorns roses bells shields ...) by contract code
# the rules word: bit 0 Undenufe six count, bits 1-3 the Weis options of ``schieber_weis``
# (FOUR_NINES, SCALED_RUNS, NO_WEIS), bit 4 no Stöck, 4 bits from bit 8 + 4 c the multiplier of contract c
SIX_COUNT, WEIS_SHIFT, NO_STOECK, MULT_SHIFT = 1, 1, 16, 8
MAX_MULTIPLIER = 15
PUSH = -1
DECK = deck(36)
SEVEN_OF_ROSES = HEARTS * 16 + SEVEN
ACES, TENS, SIXES = (sum(1 << (16 * s + r) for s in range(4)) for r in (ACE, TEN, SIX))

COLUMNS = (
    "game", "deal", "seat", "team", "forehand", "chooser", "pushed", "contract", "multiplier",
    "weis", "weis_kinds", "weis_scored", "stoeck", "card_points", "score", "tricks",
    "trumps", "trump_jack", "trump_nine", "aces", "tens", "sixes", "longest",
    "best_contract", "best_value",
    "winner", "total0", "total1", "schneider", "deals", "match_end",
)  # fmt: skip
(C_GAME, C_DEAL, C_SEAT, C_TEAM, C_FOREHAND, C_CHOOSER, C_PUSHED, C_CONTRACT, C_MULTIPLIER,
 C_WEIS, C_WEIS_KINDS, C_WEIS_SCORED, C_STOECK, C_CARD_POINTS, C_SCORE, C_TRICKS,
 C_TRUMPS, C_TRUMP_JACK, C_TRUMP_NINE, C_ACES, C_TENS, C_SIXES, C_LONGEST,
 C_BEST_CONTRACT, C_BEST_VALUE,
 C_WINNER, C_TOTAL0, C_TOTAL1, C_SCHNEIDER, C_DEALS, C_MATCH_END) = range(len(COLUMNS))  # fmt: skip
NCOL = len(COLUMNS)

EVENTS_PER_DEAL = 64


def pack_rules(six_count: bool, weis: int, multipliers, stoeck: bool = True) -> int:
    """The rules word of the options (``weis``: the bits of ``schieber_weis``, ``multipliers`` by contract
    code C D H S Obenabe Undenufe)."""
    word = (SIX_COUNT if six_count else 0) | weis << WEIS_SHIFT | (0 if stoeck else NO_STOECK)
    for c, m in enumerate(multipliers):
        word |= int(m) << (MULT_SHIFT + 4 * c)
    return word


DEFAULT_RULES = pack_rules(False, 0, MULTIPLIER.tolist())


@jit
def rules_of(params):
    """The rules word of a ``params`` array."""
    weis = (FOUR_NINES if params[P_FOUR_NINES] != 0 else 0) | (SCALED_RUNS if params[P_LONG_RUNS] != 0 else 0)
    weis |= NO_WEIS if params[P_WEIS] == 0 else 0
    word = (
        (SIX_COUNT if params[P_UNDENUFE_POINTS] != 0 else 0)
        | weis << WEIS_SHIFT
        | (NO_STOECK if params[P_STOECK] == 0 else 0)
    )
    for c in range(6):
        word |= params[P_MULTIPLIERS + MULTIPLIER_ORDER[c]] << (MULT_SHIFT + 4 * c)
    return word


@jit(inline="always")
def multiplier_of(rules, contract):
    return (rules >> (MULT_SHIFT + 4 * contract)) & MAX_MULTIPLIER


@jit(inline="always")
def weis_of(rules):
    """The Weis options (``schieber_weis.declare``'s ``weis``) of a rules word."""
    return (rules >> WEIS_SHIFT) & 7


@jit(inline="always")
def points_row(rules, contract):
    """The row of ``POINTS`` that scores ``contract``: Undenufe with the six count is row 6."""
    return UNDENUFE_SIX if contract == UNDENUFE and rules & SIX_COUNT else contract


@jit
def max_deals(target):
    """Deals a match can last: every complete deal credits at least 157 points."""
    return (2 * target - 2) // 157 + 1


def max_rows(players: int, params: np.ndarray) -> int:
    return 4 * int(max_deals(int(params[P_TARGET])))


@jit(inline="always")
def trump_of(contract):
    return contract if contract < 4 else NO_TRUMP


@jit(inline="always")
def order_of(contract):
    return REVERSED if contract == UNDENUFE else PLAIN


@jit(inline="always")
def trump_masks(contract):
    """(all trumps, trump J) of ``contract`` as masks; both empty in Obenabe and Undenufe."""
    shift = np.uint64((16 * contract) & 63)
    trump = contract < 4
    return (SUIT16 << shift) if trump else ZERO, (ONE << (shift + np.uint64(JACK))) if trump else ZERO


@jit(inline="always")
def follow_rule(hand, follow, tmask, jack, beat, trump_led):
    """Cards ``hand`` may play on a started trick: ``follow`` the led suit's mask, ``tmask`` and ``jack``
    from ``trump_masks``, ``beat`` the trumps above the highest trump in the trick (all trumps while
    none lies in it), ``trump_led`` whether trumps were led. Selects, not branches (random play)."""
    same = hand & follow
    trumps = hand & tmask
    allowed = trumps & beat
    others = hand & ~tmask
    plain = (same | allowed) if same != ZERO else ((others | allowed) if others != ZERO else hand)
    on_trump = hand if (trumps == ZERO) | (trumps == jack) else trumps
    return on_trump if trump_led else plain


@jit
def legal_cards(hand, led, contract, top_trump):
    """Cards ``hand`` may play on a trick led in ``led`` (-1: ``hand`` leads).

    ``top_trump`` is the rank of the highest trump in the trick (-1: none).
    """
    if led < 0:
        return hand
    tmask, jack = trump_masks(contract)
    beat = tmask if top_trump < 0 else (TRUMPS_ABOVE[top_trump] << np.uint64((16 * contract) & 63)) & tmask
    return follow_rule(hand, SUIT16 << np.uint64(16 * led), tmask, jack, beat, led == contract)


@jit
def trick_winner_pos(trick, contract):
    """Position (0..3) of the card that wins a full trick under ``contract``."""
    led = trick[0] >> 4
    trump, order = trump_of(contract), order_of(contract)
    best, top = 0, strength(trick[0], led, trump, order)
    for i in range(1, 4):
        s = strength(trick[i], led, trump, order)
        if s > top:
            top, best = s, i
    return best


def _strength_table():
    """STRENGTH[contract, card]: ``strength`` of a card of the led suit or of trumps."""
    t = np.full((6, 64), -1, dtype=np.int64)
    for c in range(6):
        for card in DECK:
            t[c, card] = strength(
                card, card >> 4, c if c < 4 else NO_TRUMP, REVERSED if c == UNDENUFE else PLAIN
            )
    return t


STRENGTH = _strength_table()


@jit(inline="always")
def deal_into(seed, index, k, start, cards, hands):
    """Deal k of game ``index`` into ``hands``: shuffle, then packets of three from seat ``start``
    on (``cards.deal36``, ``cards``: 36 int64 as its work bytes). Returns the deal stream's final state."""
    z = rng.key(seed, index, k, rng.DEAL)
    deal36(z, start, 4, hands, cards.view(np.uint8))
    return rng.skip(z, 35)


@jit
def deal_hands(seed, index, k, start, cards, hands, st):
    """Deal k of game ``index``: shuffle, then packets of three from seat ``start`` on.

    ``st`` is a one-element stream state array, reused (set to the deal's key here).
    """
    st[0] = deal_into(seed, index, k, start, cards, hands)


@jit(inline="always")
def _event(events, n, kind, a, b, c):
    """Write one trace event; callers test ``events.shape[0] > 0`` first (an array into an inlined
    function costs a reference count, so only when tracing)."""
    events[n, 0] = kind
    events[n, 1] = a
    events[n, 2] = b
    events[n, 3] = c
    return n + 1


@jit(inline="always")
def _suit_len(hand, s):
    return popcount(hand & (SUIT16 << np.uint64(16 * s)))


@jit(inline="always")
def hand_features(hand, tmask, jack):
    """(trumps, trump J, trump 9) under the contract (masks from ``trump_masks``), (aces, tens, sixes,
    longest suit)."""
    longest = max(
        max(popcount(hand & SUIT16), popcount(hand & (SUIT16 << np.uint64(16)))),
        max(popcount(hand & (SUIT16 << np.uint64(32))), popcount(hand & (SUIT16 << np.uint64(48)))),
    )
    return (
        (
            popcount(hand & tmask),
            1 if hand & jack != ZERO else 0,
            1 if hand & (jack >> np.uint64(JACK - NINE)) != ZERO else 0,
        ),
        (
            popcount(hand & np.uint64(ACES)),
            popcount(hand & np.uint64(TENS)),
            popcount(hand & np.uint64(SIXES)),
            longest,
        ),
    )


# ---------------------------------------------------------------- policies
RANDOM, HEURISTIC, SCRIPTED, LEARNED = 0, 1, 2, 3
POLICY_NAMES = ("random", "heuristic", "pimc", "learned")  # pimc: SCRIPTED here, its cards from cardmc.pimc
# learned: its cards from ``schieber_learned`` with the weights of ``params``; its contract and push the heuristic's

# the scripted seats play from ``play_match``'s ``script`` (``cardmc.kernels.script``); runs without them pass
# none, and Numba compiles them without its code (an array more per deal cost plain runs 7-12%)


UNDENUFE_SIX = 6  # the POINTS row of Undenufe with undenufe_points=six


def _tables():
    points = np.zeros((7, 64), dtype=np.int64)
    stronger = np.zeros((6, 64), dtype=np.uint64)
    for c in range(6):
        for card in DECK:
            s, r = card >> 4, card & 15
            if c < 4:
                points[c, card] = JASS_TRUMP[r] if s == c else JASS_PLAIN[r]
            else:
                points[c, card] = 8 if r == EIGHT else JASS_PLAIN[r]
            m = 0
            for q in range(SIX, ACE + 1):
                if c < 4 and s == c:
                    better = TRUMP_STRENGTH[q] > TRUMP_STRENGTH[r]
                elif c == UNDENUFE:
                    better = q < r
                else:
                    better = q > r
                if better:
                    m |= 1 << (16 * s + q)
            stronger[c, card] = m
            if c == UNDENUFE:  # the six count: the 6 scores 11, the A nothing, the 8 still 8
                points[UNDENUFE_SIX, card] = 11 if r == SIX else 0 if r == ACE else points[c, card]
    return points, stronger


# card points per contract (row 6: Undenufe with the six count) and the same-suit cards that beat a card
POINTS, STRONGER = _tables()
FULL = np.uint64(FULL36)

# contract evaluation: estimated card points of the chooser's team = weights . features
NFEAT = 10
EVAL_WEIGHTS = np.array(
    [  # cardmc.schieber.fit_evaluation(3, 1500, contract), rounded
        # trump: 1, trumps, J, 9, A, K+Q, side aces, side tens, side kings, voids
        [39.0, 9.0, 20.5, 13.5, 7.5, 2.0, 3.5, 0.0, 3.0, 2.5],
        # obenabe: 1, aces, kings, queens, jacks, tens, sure tricks, long, weak suits, 0
        [66.5, 3.0, 4.5, 2.5, 1.0, 0.0, 6.5, 7.0, -3.5, 0.0],
        # undenufe: 1, sixes, sevens, eights, nines, 0, sure tricks (from the 6 up), long, weak suits, 0
        [61.5, -5.0, 7.0, 6.5, 1.5, 0.0, 12.5, 11.5, -4.0, 0.0],
        # undenufe with the six count (undenufe_points=six): the same features,
        # fit_evaluation(3, 1500, "undenufe", undenufe_points="six"), rounded
        [62.5, 3.5, 4.5, 3.5, 1.5, 0.0, 7.0, 6.5, -3.0, 0.0],
    ]
)
WEIS_SHARE = 0.5  # part of the own Weis counted in a contract's value (none is declared with weis=off)


def _suit_features(p: int, mode: int) -> list[float]:
    """Features one 9-bit suit adds: mode 0 the trump suit, 1 a side suit, 2 Obenabe, 3 Undenufe."""
    f = [0.0] * NFEAT
    n = bin(p).count("1")
    if mode == 0:
        f[1:6] = [n, p >> 5 & 1, p >> 3 & 1, p >> 8 & 1, (p >> 7 & 1) + (p >> 6 & 1)]
        return f
    if mode == 1:
        f[6:10] = [p >> 8 & 1, p >> 4 & 1, p >> 7 & 1, 1 if p == 0 else 0]
        return f
    if mode == 3:  # mirror: the 6 becomes the top
        p = sum((p >> b & 1) << (8 - b) for b in range(9))
    sure = 0
    while sure < 9 and p >> (8 - sure) & 1:
        sure += 1
    f[1:9] = [
        p >> 8 & 1,
        p >> 7 & 1,
        p >> 6 & 1,
        p >> 5 & 1,
        (p >> 4 & 1) if mode == 2 else 0,
        sure,
        n - 3 if sure > 0 and n > 3 else 0,
        1 if sure == 0 and n > 0 else 0,
    ]
    return f


SUIT_FEATURES = np.array([[_suit_features(p, mode) for p in range(512)] for mode in range(4)])
# the same weighted: a contract's estimate is a sum of four table entries
# (mode 4: Undenufe features weighed for the six count)
SUIT_VALUE = np.stack([SUIT_FEATURES[min(m, 3)] @ EVAL_WEIGHTS[(0, 0, 1, 2, 3)[m]] for m in range(5)])


@jit
def contract_features(hand, contract, f):
    """Hand features the heuristic weighs for ``contract`` (f: float array of NFEAT)."""
    for i in range(NFEAT):
        f[i] = 0.0
    f[0] = 1.0
    for s in range(4):
        p = int(hand >> np.uint64(16 * s + 4)) & 0x1FF
        mode = (0 if s == contract else 1) if contract < 4 else contract - 2
        for i in range(1, NFEAT):
            f[i] += SUIT_FEATURES[mode, p, i]


@jit(inline="always")
def _suit_patterns(hand):
    return (
        int(hand >> np.uint64(4)) & 0x1FF,
        int(hand >> np.uint64(20)) & 0x1FF,
        int(hand >> np.uint64(36)) & 0x1FF,
        int(hand >> np.uint64(52)) & 0x1FF,
    )


@jit(inline="always")
def _contract_value(c, p0, p1, p2, p3, side, extra, rules):
    """Worth of contract ``c`` for a hand of suit patterns p0..p3 (``contract_values``) under the rules
    word ``rules``: the estimated card points of the contract's count, times its multiplier."""
    if c < 4:
        p = p0 if c == 0 else p1 if c == 1 else p2 if c == 2 else p3
        e = EVAL_WEIGHTS[0, 0] + SUIT_VALUE[0, p] + side - SUIT_VALUE[1, p]
    else:
        row = c - 3 + (1 if c == UNDENUFE and rules & SIX_COUNT else 0)  # of EVAL_WEIGHTS; SUIT_VALUE's + 1
        m = row + 1
        e = (
            EVAL_WEIGHTS[row, 0]
            + SUIT_VALUE[m, p0]
            + SUIT_VALUE[m, p1]
            + SUIT_VALUE[m, p2]
            + SUIT_VALUE[m, p3]
        )
    return int(multiplier_of(rules, c) * (e + extra))


@jit
def best_contract(hand, weis_total, rules):
    """(best contract, its worth) for the hand under the rules word ``rules`` (the first of equal worth)."""
    p0, p1, p2, p3 = _suit_patterns(hand)
    side = SUIT_VALUE[1, p0] + SUIT_VALUE[1, p1] + SUIT_VALUE[1, p2] + SUIT_VALUE[1, p3]
    extra = WEIS_SHARE * weis_total - 78.5
    best, best_v = 0, _contract_value(0, p0, p1, p2, p3, side, extra, rules)
    for c in range(1, 6):
        v = _contract_value(c, p0, p1, p2, p3, side, extra, rules)
        if v > best_v:
            best, best_v = c, v
    return best, best_v


@jit
def contract_values(hand, weis_total, values, rules=DEFAULT_RULES):
    """Fill ``values`` (6) with each contract's worth for the hand; return the best contract."""
    p0, p1, p2, p3 = _suit_patterns(hand)
    side = SUIT_VALUE[1, p0] + SUIT_VALUE[1, p1] + SUIT_VALUE[1, p2] + SUIT_VALUE[1, p3]
    extra = WEIS_SHARE * weis_total - 78.5
    best = 0
    for c in range(6):
        values[c] = _contract_value(c, p0, p1, p2, p3, side, extra, rules)
        if values[c] > values[best]:
            best = c
    return best


@jit(inline="always")
def _push_or(best, value, may_push, push_below):
    return PUSH if may_push and value < push_below else best


@jit
def heuristic_contract(hand, weis_total, may_push, push_below, values, rules=DEFAULT_RULES):
    """The heuristic's contract, or PUSH when ``may_push`` and no contract is worth ``push_below`` (the
    threshold of the rules in force: ``params[P_PUSH_BELOW]``)."""
    best = contract_values(hand, weis_total, values, rules)
    return _push_or(best, values[best], may_push, push_below)


@jit(inline="always")
def _within(card, contract):
    """Strength of a card within its own suit (trumps 100 and up)."""
    return strength(card, card >> 4, trump_of(contract), order_of(contract))


@jit
def _discard(legal, unseen, contract, tmask, pts):
    """The cheapest card to give away: few points (row ``pts`` of ``POINTS``), low, no trump, no master."""
    best, best_v = -1, 1 << 30
    m = legal
    while m != ZERO:
        c = lowest(m)
        m &= m - ONE
        v = POINTS[pts, c] * 8 + _within(c, contract)
        if (ONE << np.uint64(c)) & tmask != ZERO:
            v += 200
        if STRONGER[contract, c] & unseen == ZERO:
            v += 40
        if v < best_v:
            best, best_v = c, v
    return best


@jit
def heuristic_card(
    hand, legal, played, trick, pos, win_pos, win_str, trick_pts, contract, chose, rules=DEFAULT_RULES
):
    """Partner-aware card play: draw trumps when strong, cash masters, give points to a winning
    partner, never overtake it, win cheaply, keep the trump J, discard from the weakest suit.
    ``trick`` holds the cards played so far in the trick, ``win_pos`` the position of the winning one;
    card points as the rules word ``rules`` counts them."""
    return choose_card(
        hand,
        legal,
        played,
        trick[0],
        trick[win_pos],
        pos,
        win_pos,
        win_str,
        trick_pts,
        contract,
        chose,
        points_row(rules, contract),
    )


@jit
def choose_card(hand, legal, played, lead, win_card, pos, win_pos, win_str, trick_pts, contract, chose, pts):
    """``heuristic_card`` with the trick's first card ``lead`` and winning card ``win_card`` as scalars and
    ``pts`` the row of ``POINTS`` that counts the cards (``points_row``)."""
    if legal & (legal - ONE) == ZERO:
        return lowest(legal)
    trump, order = trump_of(contract), order_of(contract)
    tmask = SUIT16 << np.uint64(16 * trump) if trump >= 0 else ZERO
    unseen = FULL & ~played & ~hand
    if pos == 0:
        if trump >= 0 and chose and hand & tmask != ZERO and unseen & tmask != ZERO:
            top, top_s = -1, -1
            m = hand & tmask
            while m != ZERO:
                c = lowest(m)
                m &= m - ONE
                if TRUMP_STRENGTH[c & 15] > top_s:
                    top, top_s = c, TRUMP_STRENGTH[c & 15]
            if STRONGER[contract, top] & unseen == ZERO:
                return top
        best, best_v = -1, -1
        m = hand & ~tmask
        while m != ZERO:
            c = lowest(m)
            m &= m - ONE
            if STRONGER[contract, c] & unseen == ZERO and POINTS[pts, c] > best_v:
                best, best_v = c, POINTS[pts, c]
        if best >= 0:
            return best
        m = hand & ~tmask
        if m == ZERO:
            m = hand
        best_v = 1 << 30
        while m != ZERO:
            c = lowest(m)
            m &= m - ONE
            v = POINTS[pts, c] * 8 + _within(c, contract) - 2 * _suit_len(hand, c >> 4)
            if v < best_v:
                best, best_v = c, v
        return best
    led = lead >> 4
    if win_pos == pos - 2:  # partner wins the trick so far
        wc = win_card
        safe = pos == 3 or (
            STRONGER[contract, wc] & unseen == ZERO
            and (trump < 0 or wc >> 4 == trump or unseen & tmask == ZERO)
        )
        if safe:
            best, best_v = -1, -(1 << 30)
            m = legal
            while m != ZERO:
                c = lowest(m)
                m &= m - ONE
                if strength(c, led, trump, order) > win_str:
                    continue
                v = POINTS[pts, c] * 4
                if c >> 4 == trump:
                    v -= 60
                if c >> 4 != led and STRONGER[contract, c] & unseen == ZERO:
                    v -= 40
                if v > best_v:
                    best, best_v = c, v
            if best >= 0:
                return best
        return _discard(legal, unseen, contract, tmask, pts)
    cand, cand_s = -1, 1 << 30
    m = legal
    while m != ZERO:
        c = lowest(m)
        m &= m - ONE
        s = strength(c, led, trump, order)
        if s > win_str and s < cand_s:
            cand, cand_s = c, s
    if cand >= 0:
        if cand >> 4 != trump or led == trump:
            if pos == 3:
                return cand
            if STRONGER[contract, cand] & unseen == ZERO and (
                trump < 0 or led == trump or unseen & tmask == ZERO
            ):
                return cand
        else:
            r = cand & 15
            if trick_pts >= 10 or (pos == 3 and trick_pts > 0 and r != JACK and r != NINE):
                return cand
    return _discard(legal, unseen, contract, tmask, pts)


@jit
def learned_contract(hand, weis_total, rules, weights):
    """(best contract, its worth) for the learned player (``weights``: the learned block of ``params``,
    ``schieber_learned.NLEARNED`` long): as ``best_contract``, the card points estimated by the contract
    weights fitted to the learned player's own play (the first of equal worth)."""
    cw = weights[NWEIGHTS : NWEIGHTS + NCONTRACT]
    extra = WEIS_SHARE * weis_total - 78.5
    best, best_v = 0, 0
    for c in range(6):
        row = 0 if c < 4 else c - 3 + (1 if c == UNDENUFE and rules & SIX_COUNT else 0)
        v = int(multiplier_of(rules, c) * (contract_estimate(hand, row, c, SUIT_FEATURES, cw) + extra))
        if c == 0 or v > best_v:
            best, best_v = c, v
    return best, best_v


@jit(inline="always")
def _contract_decision(policy, z, hand, weis_total, may_push, rules, push_below, weights):
    """(stream state, a contract 0..5 or PUSH (only when ``may_push``)) under the rules word ``rules``;
    a learned seat by ``learned_contract`` and its own threshold (the last of ``weights``) when ``weights``
    hold the whole learned block, else as the heuristic."""
    if policy == RANDOM:
        z, r = rng.below_from(z, 7 if may_push else 6)
        return z, PUSH if r == 6 else r
    if policy == LEARNED and weights.shape[0] >= NLEARNED:
        best, value = learned_contract(hand, weis_total, rules, weights)
        return z, _push_or(best, value, may_push, weights[NLEARNED - 1])
    best, value = best_contract(hand, weis_total, rules)
    return z, _push_or(best, value, may_push, push_below)


@jit(inline="always")
def _choose(forehand, fore, partner, z, fixed, push_mode, rules, push_below, weights):
    """``choose_contract`` on scalars: ``fore`` and ``partner`` are (policy, hand, Weis total) of the
    forehand and the partner, ``rules`` the rules word, ``push_below`` the heuristic forehand's push
    threshold, ``weights`` the learned block of ``params`` (``params[P_WEIGHTS:]``). Returns (stream state,
    chooser, pushed, contract)."""
    pushed = push_mode == 1
    c = fixed
    if fixed < 0:
        if push_mode != 1:
            z, c = _contract_decision(
                fore[0], z, fore[1], fore[2], push_mode == 0, rules, push_below, weights
            )
            pushed = c == PUSH
        if pushed:
            z, c = _contract_decision(
                partner[0], z, partner[1], partner[2], False, rules, push_below, weights
            )
    return z, (forehand + 2) & 3 if pushed else forehand, pushed, c


# what ``play_deal`` reports in its ``out`` array
O_SCORE, O_CARD_POINTS, O_TRICKS, O_WEIS_TEAM, O_STOECK, O_WINNER = 0, 2, 4, 8, 9, 10
OUT_SIZE = 11
# a match's state in one int64 array, so that a deal passes one array, not eight (each a reference count):
# hands (uint64 bits), match totals, Weis totals and kinds per seat, then ``out``
S_HANDS, S_TOTALS, S_WEIS, S_KINDS, S_OUT = 0, 4, 6, 10, 14
STATE_SIZE = S_OUT + OUT_SIZE


@jit
def play_deal(
    hands,
    forehand,
    chooser,
    contract,
    totals,
    target,
    policies,
    st,
    weis,
    kinds,
    out,
    work,
    masks,
    events,
    nev,
    rules=DEFAULT_RULES,
    weights=None,
):
    """Play one deal with live counting from the match score ``totals`` (updated), under the rules word
    ``rules`` (``rules_of``; default: the rulebook's count); the learned seats play by ``weights``
    (``params[P_WEIGHTS:]``; without them, as the heuristic).

    ``hands`` are the dealt hands (cards are removed as played). Fills ``weis``
    and ``kinds`` (declared points and kinds per seat) and ``out``: score and
    card points per team, tricks per seat, the team credited with Weis, the
    Stöck seat, the match winner (-1 while the match goes on). ``work``
    (int64, 12) and ``masks`` (uint64, 4) are no longer used (kept so that
    callers need not change). Returns the event count.
    """
    state = np.zeros(STATE_SIZE, np.int64)
    for s in range(4):
        state[S_HANDS + s] = np.int64(hands[s])
    state[S_TOTALS], state[S_TOTALS + 1] = totals[0], totals[1]
    seats = _heuristic_seats(policies) | (0 if weights is None else _learned_seats(weights, policies))
    st[0], nev = _play_deal(
        state, events, forehand, chooser, contract, target, seats, st[0], nev, rules, None, weights
    )
    for s in range(4):
        hands[s] = np.uint64(state[S_HANDS + s])
        weis[s], kinds[s] = state[S_WEIS + s], state[S_KINDS + s]
    totals[0], totals[1] = state[S_TOTALS], state[S_TOTALS + 1]
    for i in range(OUT_SIZE):
        out[i] = state[S_OUT + i]
    return nev


@jit(inline="always")
def _heuristic_seats(policies):
    """Bit s set: seat s plays by the heuristic."""
    bits = 0
    for s in range(4):
        bits |= (1 if policies[s, 0] != RANDOM else 0) << s
    return bits


LEARNED_BITS = 4  # ``_play_deal``'s seat bits from here on: the learned seats


@jit(inline="always")
def _learned_seats(weights, policies):
    """Bit 4 + s set: seat s plays by the learned ``weights`` (when there are all of them: ``params[P_WEIGHTS:]``
    of a spec's ``params``)."""
    bits = 0
    if weights.shape[0] >= NWEIGHTS:
        for s in range(4):
            bits |= (1 if policies[s, 0] == LEARNED else 0) << (s + LEARNED_BITS)
    return bits


@jit
def _play_deal(
    state, events, forehand, chooser, contract, target, heuristic, z, nev, rules, script=None, weights=None
):
    """``play_deal`` on a match ``state`` (``S_*``), with the players' stream state ``z`` in a register,
    the heuristic seats as bits (``_heuristic_seats``; bits 4..7: the learned seats among them, which play
    by ``weights``) and the rules word ``rules``; the scripted seats play the cards of ``script``
    (``cardmc.kernels.script``). Returns (z, nev)."""
    m = multiplier_of(rules, contract)
    prow = points_row(rules, contract)  # the POINTS row of the contract's count
    wr = weis_of(rules)
    trump = trump_of(contract)
    tmask, jack = trump_masks(contract)
    rec = events.shape[0] > 0
    learning = weights is not None and heuristic >> LEARNED_BITS != 0
    voids = 0  # bit 4 * seat + suit: the seat played neither that led suit nor a trump (for learned seats)
    for i in range(OUT_SIZE):
        state[S_OUT + i] = 0
    k0 = k1 = k2 = k3 = 0  # the seats' best Weis keys
    for s in range(4):
        hand = np.uint64(state[S_HANDS + s])
        claim, total, key, kind = declare(hand, contract, wr)
        state[S_WEIS + s], state[S_KINDS + s] = total, kind
        k0, k1, k2, k3 = (
            (key if s == 0 else k0),
            (key if s == 1 else k1),
            (key if s == 2 else k2),
            (key if s == 3 else k3),
        )
        if rec:
            masks, points = np.zeros(4, np.uint64), np.zeros(4, np.int64)
            for i in range(combinations(hand, claim, masks, points, wr)):
                nev = _event(events, nev, EV_WEIS, s, points[i], np.int64(masks[i]))
    weis_seat = strongest(k0, k1, k2, k3, forehand)
    stoeck_seat = -1
    kq = ZERO  # trump K and Q while their Stöck is still to be credited
    stoeck = rules & NO_STOECK == 0
    if trump >= 0 and stoeck:
        kq = (ONE << np.uint64(16 * trump + KING)) | (ONE << np.uint64(16 * trump + QUEEN))
        for s in range(4):
            if np.uint64(state[S_HANDS + s]) & kq == kq:
                stoeck_seat = s
        if stoeck_seat < 0:
            kq = ZERO
    if rec and stoeck:
        nev = _event(events, nev, EV_STOECK, stoeck_seat, 0, 0)
    winner = -1
    weis_team = -1
    # before the first card: Stöck only if it wins the match, then Weis
    if stoeck_seat >= 0 and state[S_TOTALS + (stoeck_seat & 1)] + 20 * m >= target:
        state[S_TOTALS + (stoeck_seat & 1)] += 20 * m
        state[S_OUT + O_SCORE + (stoeck_seat & 1)] += 20 * m
        kq = ZERO
        winner = stoeck_seat & 1
    if winner < 0 and weis_seat >= 0:
        weis_team = weis_seat & 1
        gain = (state[S_WEIS + weis_seat] + state[S_WEIS + (weis_seat ^ 2)]) * m
        state[S_TOTALS + weis_team] += gain
        state[S_OUT + O_SCORE + weis_team] += gain
        if state[S_TOTALS + weis_team] >= target:
            winner = weis_team
    if rec and wr & NO_WEIS == 0:
        nev = _event(events, nev, EV_WEIS_TEAM, weis_team, 0, 0)
    leader = forehand
    played = ZERO
    t = 0
    while t < 9 and winner < 0:
        follow = ZERO
        beat = tmask  # the trumps that beat the trick so far
        trump_led = False
        lead = win_card = 0
        win_seat = leader
        win_pos = 0
        win_str = -1
        trick_pts = 0
        seat = leader
        for pos in range(4):
            hand = np.uint64(state[S_HANDS + seat])
            legal = hand if pos == 0 else follow_rule(hand, follow, tmask, jack, beat, trump_led)
            if heuristic >> seat & 1:  # a scripted seat is a heuristic one too
                card = -1 if script is None else scripted_card(script, seat, 9 - t, nev)
                if card < 0 and learning and heuristic >> (seat + LEARNED_BITS) & 1:
                    card = learned_card(
                        hand, legal, played, voids, seat, lead, win_card, pos, win_pos, win_str, trick_pts,
                        9 - t, contract, (seat & 1) == (chooser & 1), STRONGER[contract], POINTS[prow], weights,
                    )  # fmt: skip
                if card < 0:
                    card = choose_card(
                        hand,
                        legal,
                        played,
                        lead,
                        win_card,
                        pos,
                        win_pos,
                        win_str,
                        trick_pts,
                        contract,
                        (seat & 1) == (chooser & 1),
                        prow,
                    )
            else:
                z, pick = rng.below_from(z, popcount(legal))
                card = nth(legal, pick)
            if rec:  # written out: an array into an inlined function costs a reference count
                events[nev, 0], events[nev, 1], events[nev, 2], events[nev, 3] = (
                    EV_PLAY,
                    seat,
                    card,
                    np.int64(legal),
                )
                nev += 1
            b = ONE << np.uint64(card)
            state[S_HANDS + seat] = np.int64(hand ^ b)
            played |= b
            # the trick's bookkeeping with selects, not branches
            suit = card >> 4
            if pos == 0:
                lead = card
                follow = SUIT16 << np.uint64(16 * suit)
                trump_led = suit == trump
            elif learning and suit != lead >> 4 and suit != trump:
                voids |= 1 << (4 * seat + (lead >> 4))
            # masks, not selects: x86 code generation turns a select fed by a table load into a branch
            s_ = STRENGTH[contract, card] | (np.int64(b & (follow | tmask) != ZERO) - 1)  # -1: cannot win
            wins = -np.int64(s_ > win_str)  # all ones when the card wins the trick so far
            win_card ^= (card ^ win_card) & wins
            win_pos ^= (pos ^ win_pos) & wins
            win_seat ^= (seat ^ win_seat) & wins
            above = TRUMPS_ABOVE[card & 15] << np.uint64(16 * suit)
            beat ^= (above ^ beat) & (np.uint64(wins) & (ZERO - np.uint64(b & tmask != ZERO)))
            win_str ^= (s_ ^ win_str) & wins
            trick_pts += POINTS[prow, card]
            if b & kq != ZERO and (hand ^ b) & kq == ZERO:  # Stöck the moment its second card is played
                kq = ZERO
                state[S_TOTALS + (seat & 1)] += 20 * m
                state[S_OUT + O_SCORE + (seat & 1)] += 20 * m
                if state[S_TOTALS + (seat & 1)] >= target:
                    winner = seat & 1
                    break
            seat = (seat + 1) & 3
        if winner >= 0:
            break
        w = win_seat
        state[S_OUT + O_TRICKS + w] += 1
        pts = trick_pts
        if t == 8:
            pts += 5
            if state[S_OUT + O_TRICKS + w] + state[S_OUT + O_TRICKS + (w ^ 2)] == 9:
                pts += 100
        state[S_OUT + O_CARD_POINTS + (w & 1)] += pts
        state[S_TOTALS + (w & 1)] += pts * m
        state[S_OUT + O_SCORE + (w & 1)] += pts * m
        if state[S_TOTALS + (w & 1)] >= target:
            winner = w & 1
        leader = w
        t += 1
    state[S_OUT + O_WEIS_TEAM] = weis_team
    state[S_OUT + O_STOECK] = stoeck_seat
    state[S_OUT + O_WINNER] = winner
    if rec:
        nev = _event(
            events, nev, EV_CARD_POINTS, state[S_OUT + O_CARD_POINTS], state[S_OUT + O_CARD_POINTS + 1], 0
        )
        nev = _event(
            events,
            nev,
            EV_DEAL_END,
            state[S_OUT + O_SCORE],
            state[S_OUT + O_SCORE + 1],
            1 if winner >= 0 else 0,
        )
    return z, nev


@jit
def choose_contract(
    forehand,
    hands,
    weis,
    policies,
    st,
    fixed,
    push_mode,
    values,
    push_below,
    rules=DEFAULT_RULES,
    weights=None,
):
    """(chooser, pushed, contract): the forehand chooses or pushes (a heuristic one when no contract is
    worth ``push_below``; a learned one by the learned block ``weights``, ``params[P_WEIGHTS:]``); the
    partner must choose."""
    learned = np.zeros(0, np.int64) if weights is None else weights
    p = (forehand + 2) & 3
    z, chooser, pushed, c = _choose(
        forehand,
        (policies[forehand, 0], hands[forehand], weis[forehand]),
        (policies[p, 0], hands[p], weis[p]),
        st[0],
        fixed,
        push_mode,
        rules,
        push_below,
        learned,
    )
    st[0] = z
    return chooser, pushed, c


@jit
def new_scratch():
    """The work arrays of one match (``play_match``), reused match after match."""
    return np.empty(36, np.int64), np.zeros(4, np.uint64), np.zeros(STATE_SIZE, np.int64)


@jit
def play_match(seed, index, params, policies, rows, r0, events, scratch, cond=None, script=None):
    """Play match ``index`` of ``seed`` to the target; write its rows from ``rows[r0]`` (none when ``rows``
    is empty) and its events. ``scratch`` is from ``new_scratch``; ``cond`` a condition on every deal
    (``cardmc.kernels.condition``) or None. Returns (rows, events) written."""
    cards, dealt, state = scratch
    target, fixed, push_mode, push_below = (
        params[P_TARGET],
        params[P_CONTRACT],
        params[P_FOREHAND_PUSH],
        params[P_PUSH_BELOW],
    )
    rules = rules_of(params)
    wr = weis_of(rules)
    write = rows.shape[0] > 0
    rec = events.shape[0] > 0
    z = rng.key(seed, index, 0, rng.PLAY)  # the players' stream, in a register
    weights = params[P_WEIGHTS:]
    heuristic = _heuristic_seats(policies) | _learned_seats(weights, policies)
    if script is not None:
        start_script(script, policies, 4, SCRIPTED)
    state[S_TOTALS] = state[S_TOTALS + 1] = 0
    nrows = nev = 0
    forehand = 0
    winner = -1
    k = 0
    while winner < 0:
        if cond is None or cond[condition.CT_DEAL] < 0:  # plain (condition.PLAIN)
            deal_into(seed, index, k, 0 if k == 0 else forehand, cards, dealt)
        else:
            condition.deal_condition(
                cond, condition.DECK36, 4, 0, -1, rng.key(seed, index, k, rng.DEAL), cards, dealt
            )
        if k == 0:
            for s in range(4):
                if dealt[s] >> np.uint64(SEVEN_OF_ROSES) & ONE:
                    forehand = s
        if rec:
            nev = _event(events, nev, EV_DEAL, k, -1 if k == 0 else (forehand + 3) & 3, forehand)
        for s in range(4):
            state[S_HANDS + s] = np.int64(dealt[s])
            if rec:
                nev = _event(events, nev, EV_HAND, s, np.int64(dealt[s]), 0)
        partner = (forehand + 2) & 3
        w_fore = w_partner = 0  # the heuristic weighs the Weis of who may choose (any contract: same total)
        if fixed < 0 and heuristic >> forehand & 1:
            w_fore = declare(dealt[forehand], OBENABE, wr)[1]
        if fixed < 0 and heuristic >> partner & 1:
            w_partner = declare(dealt[partner], OBENABE, wr)[1]
        z, chooser, pushed, contract = _choose(
            forehand,
            (policies[forehand, 0], dealt[forehand], w_fore),
            (policies[partner, 0], dealt[partner], w_partner),
            z,
            fixed,
            push_mode,
            rules,
            push_below,
            weights,
        )
        if rec:
            nev = _event(events, nev, EV_CONTRACT, chooser, 1 if pushed else 0, contract)
        z, nev = _play_deal(
            state, events, forehand, chooser, contract, target, heuristic, z, nev, rules, script, weights
        )
        winner = state[S_OUT + O_WINNER]
        if write:
            tmask, jack = trump_masks(contract)
            for s in range(4):
                r = r0 + nrows + s
                team = s & 1
                rows[r, C_GAME] = index
                rows[r, C_DEAL] = k
                rows[r, C_SEAT] = s
                rows[r, C_TEAM] = team
                rows[r, C_FOREHAND] = forehand
                rows[r, C_CHOOSER] = chooser
                rows[r, C_PUSHED] = 1 if pushed else 0
                rows[r, C_CONTRACT] = contract
                rows[r, C_MULTIPLIER] = multiplier_of(rules, contract)
                rows[r, C_WEIS] = state[S_WEIS + s]
                rows[r, C_WEIS_KINDS] = state[S_KINDS + s]
                rows[r, C_WEIS_SCORED] = 1 if state[S_OUT + O_WEIS_TEAM] == team else 0
                rows[r, C_STOECK] = 1 if state[S_OUT + O_STOECK] == s else 0
                rows[r, C_CARD_POINTS] = state[S_OUT + O_CARD_POINTS + team]
                rows[r, C_SCORE] = state[S_OUT + O_SCORE + team]
                rows[r, C_TRICKS] = state[S_OUT + O_TRICKS + s]
                (
                    (rows[r, C_TRUMPS], rows[r, C_TRUMP_JACK], rows[r, C_TRUMP_NINE]),
                    (rows[r, C_ACES], rows[r, C_TENS], rows[r, C_SIXES], rows[r, C_LONGEST]),
                ) = hand_features(dealt[s], tmask, jack)
                rows[r, C_BEST_CONTRACT], rows[r, C_BEST_VALUE] = best_contract(
                    dealt[s], state[S_WEIS + s], rules
                )
            nrows += 4
        k += 1
        forehand = (forehand + 1) & 3
    total0, total1 = state[S_TOTALS], state[S_TOTALS + 1]
    schneider = 1 if 2 * (total1 if winner == 0 else total0) < target else 0
    for r in range(r0, r0 + nrows):
        rows[r, C_WINNER] = winner
        rows[r, C_TOTAL0] = total0
        rows[r, C_TOTAL1] = total1
        rows[r, C_SCHNEIDER] = schneider
        rows[r, C_DEALS] = k
        rows[r, C_MATCH_END] = 1 if rows[r, C_DEAL] == k - 1 else 0
    return nrows, nev


def play_game(seed, index, players, params, policies, rows, events, cond=None, script=None):
    """Play match ``index`` of ``seed`` to the target; write its rows (and events). ``script``: the cards of
    the scripted (``pimc``) seats (``cardmc.kernels.script``)."""
    if script is None:  # (not passed: Numba compiles a passed None as another kind of call)
        return play_match(seed, index, params, policies, rows, 0, events, new_scratch(), cond)
    return play_match(seed, index, params, policies, rows, 0, events, new_scratch(), cond, script)


def simulate(seed, start, count, players, params, policies, slices=64, cond=None, out=None, after=None):
    """Matches start..start+count-1 in ``slices`` slices of consecutive matches (one per thread moves the
    fewest rows afterwards), side by side; slice s writes its matches' rows one after another from row
    ``spans[s, 0]``, in all ``spans[s, 1]`` rows (``cardmc.registry.join_spans`` packs them).
    ``after(p, rows, lo, hi)``, if given, reads each slice's rows lo..hi-1 on the thread that wrote
    them, right after (``jit.in_shares``)."""
    per = 4 * max_deals(params[P_TARGET])
    rows = new_rows(out, count * per, NCOL)  # only written rows are read
    slices = max(1, min(count, slices))
    spans = np.zeros((slices, 2), np.int64)
    in_shares(
        lambda lo, hi: play_slices(seed, start, count, params, policies, cond, rows, spans, lo, hi),
        slices,
        after and (lambda p, s: after(p, rows, spans[s, 0], spans[s, 0] + spans[s, 1])),
    )
    return rows, spans


@jit
def play_slices(seed, start, count, params, policies, cond, rows, spans, lo, hi):
    """Slices lo..hi-1 of ``simulate``."""
    per = 4 * max_deals(params[P_TARGET])
    slices = len(spans)
    scratch = new_scratch()
    events = np.zeros((0, 4), np.int64)
    for s in range(lo, hi):
        first = s * count // slices
        r = first * per
        for j in range(first, (s + 1) * count // slices):
            n, _ = play_match(seed, start + j, params, policies, rows, r, events, scratch, cond)
            r += n
        spans[s, 0], spans[s, 1] = first * per, r - first * per


# ------------------------------------------------------------ advice from a view
# One decision of the heuristic player from a seat's view (``cardmc.advise``): the seat's hand
# now and the deal's plays so far in order, replayed with this kernel's own bookkeeping, then its
# own heuristic card function: what a heuristic seat would play there, from nothing it did not see.


@jit(inline="always")
def view_trick(hand, plays, count, contract, prow):
    """The trick in progress of a view (``plays[:count]``, the deal's cards in order), replayed with this
    kernel's own bookkeeping: (its first card, the winning card, its place and strength, the trick's points
    counted by row ``prow`` of ``POINTS``, the legal cards of ``hand``)."""
    tmask, jack = trump_masks(contract)
    trump = trump_of(contract)
    k = count % 4
    lead = win_card = win_pos = pts = 0
    win_str = -1
    follow = ZERO
    beat = tmask
    trump_led = False
    for pos in range(k):
        card = plays[count - k + pos]
        b = ONE << np.uint64(card)
        suit = card >> 4
        if pos == 0:
            lead = card
            follow = SUIT16 << np.uint64(16 * suit)
            trump_led = suit == trump
        s = STRENGTH[contract, card] if b & (follow | tmask) != ZERO else -1
        if s > win_str:
            win_card, win_pos, win_str = card, pos, s
            if b & tmask != ZERO:
                beat = TRUMPS_ABOVE[card & 15] << np.uint64(16 * suit)
        pts += POINTS[prow, card]
    legal = hand if k == 0 else follow_rule(hand, follow, tmask, jack, beat, trump_led)
    return lead, win_card, win_pos, win_str, pts, legal


@jit
def view_card(hand, plays, count, contract, chose, rules):
    """Schieber: the heuristic's card (``chose``: the seat's team chose the
    contract; ``rules``: the rules word of ``schieber.rules_of``)."""
    prow = points_row(rules, contract)
    played = ZERO
    for j in range(count):
        played |= ONE << np.uint64(plays[j])
    k = count % 4
    lead, win_card, win_pos, win_str, pts, legal = view_trick(hand, plays, count, contract, prow)
    return choose_card(hand, legal, played, lead, win_card, k, win_pos, win_str, pts, contract, chose, prow)


@jit
def view_learned(hand, seat, plays, seats, count, contract, chose, rules, weights, feats):
    """The learned player from the view of ``seat``: ``plays[:count]`` the deal's cards in order and
    ``seats`` who played them. Fills ``feats`` (a row per legal card, lowest code first)
    with ``schieber_learned.card_features`` and returns (legal cards as a mask, the card ``weights`` play)."""
    prow = points_row(rules, contract)
    trump = trump_of(contract)
    played = ZERO
    voids = 0
    for j in range(count):
        played |= ONE << np.uint64(plays[j])
        led = plays[j - j % 4] >> 4
        suit = plays[j] >> 4
        if j % 4 > 0 and suit != led and suit != trump:
            voids |= 1 << (4 * seats[j] + led)
    k = count % 4
    lead, win_card, win_pos, win_str, pts, legal = view_trick(hand, plays, count, contract, prow)
    left = 9 - count // 4
    stronger, points = STRONGER[contract], POINTS[prow]
    m = legal
    i = 0
    while m != ZERO:
        c = lowest(m)
        m &= m - ONE
        card_features(
            c, hand, played, voids, seat, lead, win_card, k, win_pos, win_str, pts, left, contract, chose,
            stronger, points, feats[i],
        )  # fmt: skip
        i += 1
    card = learned_card(
        hand, legal, played, voids, seat, lead, win_card, k, win_pos, win_str, pts, left, contract, chose,
        stronger, points, weights,
    )  # fmt: skip
    return np.int64(legal), card
