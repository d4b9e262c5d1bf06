"""English Jazz (docs/RULES.md section 3): rules, policies and batch drivers.

Three players, 36 cards, 12 each in packets of three. Trump is unknown until
the first player who cannot follow suit: the card that player plays makes its
suit trump, already in that trick. Follow suit if you can, else any card.
Deal score: the first of rules A-E that applies. A game is 12 deals; the first
dealer is whoever receives the first J of a face-up deal.

``params`` (``P_*``) = [pimc_samples, pimc_tricks, weights...]: the search
player's options, then from ``P_WEIGHTS`` on the ``learned`` player's weights
(``cardmc.kernels.english_jazz_learned``), which the spec appends.
"""

from __future__ import annotations

import numpy as np

from cardmc.kernels import condition, rng
from cardmc.kernels.bits import ONE, ZERO, bit, highest, lowest, nth, popcount
from cardmc.kernels.cards import ACE, FULL36, JACK, KING, NINE, QUEEN, TEN, deal36, deck
from cardmc.kernels.columns import new_rows
from cardmc.kernels.condition import deal_given
from cardmc.kernels.english_jazz_learned import NF as NWEIGHTS
from cardmc.kernels.english_jazz_learned import card_features, learned_card
from cardmc.kernels.events import (  # EV_FACE_UP: finding the first dealer
    EV_DEAL,
    EV_FACE_UP,
    EV_HAND,
    EV_PLAY,
)
from cardmc.kernels.jit import in_shares, jit
from cardmc.kernels.script import scripted_card
from cardmc.kernels.script import start as start_script
from cardmc.kernels.tricks import (
    JASS_PLAIN,
    JASS_TRUMP,
    SUIT16,
    TRUMP_BASE,
    TRUMP_STRENGTH,
    TRUMPS_ABOVE,
    suit_cards,
)

PLAYERS = 3
TRICKS = 12
DEALS = 12  # deals in a game
OVER = 100  # rule C: more than this many card points
JACK_BONUS, NINE_BONUS = 18, 14  # trump column minus plain column

# rule letters A..E as codes
RULE_A, RULE_B, RULE_C, RULE_D, RULE_E = 0, 1, 2, 3, 4
RULE_LETTERS = "ABCDE"

# policies (column 0 of the policies array); SCRIPTED is for tests only; PIMC, the search player, plays
# from ``play_games``'s ``script`` (``cardmc.kernels.script``) once ``script[SC_TRICKS]`` tricks or fewer are
# left and as HEURISTIC before (its cards come from ``cardmc.pimc``); LEARNED plays by the weights of
# ``params[P_WEIGHTS:]`` (``english_jazz_learned``), as HEURISTIC when they are not there
RANDOM, HEURISTIC, SCRIPTED, PIMC, LEARNED = 0, 1, 2, 3, 4
P_PIMC_SAMPLES, P_PIMC_TRICKS = 0, 1  # read by cardmc.pimc, not here
P_WEIGHTS = 2  # the learned player's weights, NWEIGHTS of them, when the spec appends them

COLUMNS = (
    "game", "deal", "seat", "dealer", "position", "trump", "trump_set_by", "tricks", "card_points",
    "rule", "score", "all_tricks", "aces", "jacks", "nines", "points_held", "longest", "voids",
    "len_c", "len_d", "len_h", "len_s", "trumps_held", "total", "winner", "shared_win",
)  # fmt: skip
(
    C_GAME, C_DEAL, C_SEAT, C_DEALER, C_POSITION, C_TRUMP, C_TRUMP_SET_BY, C_TRICKS, C_CARD_POINTS,
    C_RULE, C_SCORE, C_ALL_TRICKS, C_ACES, C_JACKS, C_NINES, C_POINTS_HELD, C_LONGEST, C_VOIDS,
    C_LEN_C, C_LEN_D, C_LEN_H, C_LEN_S, C_TRUMPS_HELD, C_TOTAL, C_WINNER, C_SHARED_WIN,
) = range(len(COLUMNS))  # fmt: skip

MAX_EVENTS = 36 + DEALS * (1 + PLAYERS + 36)

DECK = deck(36)
FULL = np.uint64(FULL36)
ROWS_PER_GAME = DEALS * PLAYERS
LOSE_AT = 65  # the heuristic ducks once it holds more card points than this
LEAD_GAP = 20  # ... and keeps winning tricks only this far ahead of both others

RANK_MASKS = np.zeros(16, np.uint64)  # every card of a rank
for _r in range(16):
    RANK_MASKS[_r] = np.uint64(sum(1 << (_s * 16 + _r) for _s in range(4)))

# Follow-suit tables over the 9-bit rank sets of one suit (bit i = rank i + 4):
# kind 0 = a plain suit, 1 = the trump suit. CHEAPEST[kind, set] is the rank of
# least (points * 20 + strength in the suit), CHEAPEST_R[kind, set] of least
# (points * 20 + rank); PTS_AT_MOST[kind, x + 1] the ranks worth at most x points.
TRUMP_RANK = np.zeros(9, np.int64)  # rank of each trump strength 0..8
CHEAPEST = np.zeros((2, 512), np.int64)
CHEAPEST_R = np.zeros((2, 512), np.int64)
PTS_AT_MOST = np.zeros((2, 23), np.uint64)
for _kind, _table in ((0, JASS_PLAIN), (1, JASS_TRUMP)):
    _strength = [(TRUMP_STRENGTH[_r] if _kind else _r) for _r in range(16)]
    for _set in range(1, 512):
        _ranks = [_b + 4 for _b in range(9) if _set >> _b & 1]
        CHEAPEST[_kind, _set] = min(_ranks, key=lambda r: _table[r] * 20 + _strength[r])
        CHEAPEST_R[_kind, _set] = min(_ranks, key=lambda r: _table[r] * 20 + r)
    for _x in range(-1, 22):
        PTS_AT_MOST[_kind, _x + 1] = np.uint64(sum(1 << _r for _r in range(4, 13) if _table[_r] <= _x))
for _r in range(16):
    if TRUMP_STRENGTH[_r] >= 0:
        TRUMP_RANK[TRUMP_STRENGTH[_r]] = _r

# POINTS[trump + 1, card]: card points of a card with trump suit ``trump`` (-1: none)
POINTS = np.zeros((5, 64), np.int64)
for _t in range(-1, 4):
    for _c in DECK:
        POINTS[_t + 1, _c] = (JASS_TRUMP if _c >> 4 == _t else JASS_PLAIN)[_c & 15]
SLICE = 64  # games (or odds deals / 16) a slice


def max_rows(players: int, params: np.ndarray) -> int:
    return ROWS_PER_GAME


# --------------------------------------------------------------------- rules


@jit(inline="always")
def legal_cards(hand, led):
    """Follow suit ``led`` if you can, else any card (``led`` = -1 on the lead)."""
    if led < 0:
        return hand
    follow = suit_cards(hand, led)
    return follow if follow != ZERO else hand


@jit(inline="always")
def trump_after(card, k, led, trump):
    """Trump once ``card`` is the ``k``-th card of a trick led in ``led``: the
    first card in the deal that does not follow suit makes its suit trump."""
    sets = (trump < 0) & (k > 0) & ((card >> 4) != led)
    return (card >> 4) if sets else trump


@jit(inline="always")
def card_strength(card, led, trump):
    """``tricks.strength(card, led, trump, PLAIN)`` without branches: trumps
    100 + trump order, the led suit its rank, any other card -1."""
    s = card >> 4
    r = card & 15
    ts = TRUMP_BASE + TRUMP_STRENGTH[r]
    plain = r if s == led else -1
    return ts if s == trump else plain


@jit(inline="always")
def settle(c, k, s, led, trump, setter, top, best):
    """The rules after seat ``s`` plays ``c`` as the ``k``-th card of a trick:
    returns the new (led suit, trump, trump_set_by, top strength, best position)."""
    led = (c >> 4) if k == 0 else led
    tn = trump_after(c, k, led, trump)
    setter = s if tn != trump else setter
    sc = card_strength(c, led, tn)
    better = sc > top
    return led, tn, setter, (sc if better else top), (k if better else best)


@jit
def trick_outcome(cards, trump):
    """(winner position, trump after, position that set trump or -1) of a
    three-card trick played with ``trump`` (-1 = not yet set) before it."""
    led, top, best, setter = -1, -1, 0, -1
    for k in range(PLAYERS):
        led, trump, setter, top, best = settle(cards[k], k, k, led, trump, setter, top, best)
    return best, trump, setter


@jit(inline="always")
def card_points(plain, won, trump):
    """Card points of the cards ``won`` whose plain-column sum is ``plain``:
    with trump set, its J and 9 add 18 and 14 (the trump column)."""
    if trump < 0:
        return plain
    base = np.uint64(trump * 16)
    jack = int((won >> (base + np.uint64(JACK))) & ONE)
    nine = int((won >> (base + np.uint64(NINE))) & ONE)
    return plain + JACK_BONUS * jack + NINE_BONUS * nine


@jit
def deal_score(tricks, points, score):
    """Writes the deal score per seat; returns the rule code (A..E = 0..4)."""
    for s in range(PLAYERS):
        score[s] = 1
    for s in range(PLAYERS):
        if tricks[s] == TRICKS:
            for o in range(PLAYERS):
                score[o] = -1
            score[s] = 2
            return RULE_A
    for s in range(PLAYERS):
        if tricks[s] == 0:
            score[s] = -2
            return RULE_B
    for s in range(PLAYERS):
        if points[s] > OVER:
            score[s] = -2
            return RULE_C
    a, b, c = points[0], points[1], points[2]
    if a == b and b == c:
        for s in range(PLAYERS):
            score[s] = 0
        return RULE_D
    if a == b or b == c or a == c:
        for s in range(PLAYERS):
            score[s] = -1
            if points[s] != points[(s + 1) % 3] and points[s] != points[(s + 2) % 3]:
                score[s] = 2
        return RULE_D
    for s in range(PLAYERS):
        lo = min(points[(s + 1) % 3], points[(s + 2) % 3])
        hi = max(points[(s + 1) % 3], points[(s + 2) % 3])
        if lo < points[s] < hi:
            score[s] = -2
    return RULE_E


@jit
def face_up_dealer(order):
    """The first dealer: cards of ``order`` go face up to seats 1, 2, 0, 1, ...
    until a J appears; returns (its receiver, how many cards were dealt)."""
    t = 0
    while (order[t] & 15) != JACK:
        t += 1
    return (1 + t) % PLAYERS, t + 1


# ------------------------------------------------------------------ policies


@jit(inline="always")
def top_trump(m, s):
    """Strongest card of suit ``s`` in ``m`` in trump order (J 9 A K Q T 8 7 6)."""
    if m & bit(s * 16 + JACK):
        return s * 16 + JACK
    if m & bit(s * 16 + NINE):
        return s * 16 + NINE
    return highest(m)


@jit(inline="always")
def low_trump(m, s):
    """Weakest card of suit ``s`` in ``m`` in trump order."""
    rest = m & ~(bit(s * 16 + JACK) | bit(s * 16 + NINE))
    if rest != ZERO:
        return lowest(rest)
    if m & bit(s * 16 + NINE):
        return s * 16 + NINE
    return s * 16 + JACK


@jit
def trump_choice(hand):
    """The suit a void player makes trump: its longest, strongest in trump order."""
    best, key = -1, -1
    for s in range(4):
        m = suit_cards(hand, s)
        if m == ZERO:
            continue
        sc = 4 * popcount(m)
        if m & bit(s * 16 + JACK):
            sc += 6
        if m & bit(s * 16 + NINE):
            sc += 4
        if m & bit(s * 16 + ACE):
            sc += 2
        if sc > key:
            key, best = sc, s
    return best


@jit(inline="always")
def fold(mask):
    """The ranks present in ``mask``, whatever the suit (a 16-bit rank set)."""
    return (mask | (mask >> np.uint64(16)) | (mask >> np.uint64(32)) | (mask >> np.uint64(48))) & SUIT16


@jit
def masters(hand, unseen, trump):
    """The cards of ``hand`` that no unseen card of their suit beats."""
    out = ZERO
    for s in range(4):
        sh = np.uint64(16 * s)
        my = (hand >> sh) & SUIT16
        u = (unseen >> sh) & SUIT16
        if s == trump:
            r = JACK if u & bit(JACK) else (NINE if u & bit(NINE) else highest(u | ONE))
            mine = my if u == ZERO else my & TRUMPS_ABOVE[r]
        else:
            mine = my & ~((ONE << np.uint64(highest(u | ONE) + 1)) - ONE)
        out |= mine << sh
    return out


@jit
def can_sweep(hand, unseen, trump):
    """Every card of ``hand`` is a master and opponents' trumps can be drawn."""
    if masters(hand, unseen, trump) != hand:
        return False
    if trump >= 0:
        theirs = popcount(suit_cards(unseen, trump))
        if theirs > 0 and popcount(suit_cards(hand, trump)) < theirs:
            return False
    return True


@jit
def short_suit(hand):
    """The suit with the fewest cards (at least one) in ``hand``."""
    best, n = -1, 99
    for s in range(4):
        c = popcount(suit_cards(hand, s))
        if 0 < c < n:
            n, best = c, s
    return best


@jit(inline="always")
def follow_card(legal, led, trump, top, aim, last, room):
    """``heuristic_card``'s choice when following suit, from rank-set tables:
    the same keys as its loop over the cards (see there)."""
    sh = np.uint64(16 * led)
    my = (legal >> sh) & SUIT16
    kind = 1 if led == trump else 0
    if kind == 1:
        win = my & TRUMPS_ABOVE[TRUMP_RANK[top - TRUMP_BASE]]
    elif top >= TRUMP_BASE:
        win = ZERO  # the trick is trumped
    else:
        win = my & ~((ONE << np.uint64(top + 1)) - ONE)
    lose = my & ~win
    nine = np.uint64(0x1FF)
    if aim == 1:
        ok = win & PTS_AT_MOST[kind, min(max(room, -1), 21) + 1]
        if ok != ZERO:
            if last:
                r = CHEAPEST[kind, (ok >> np.uint64(4)) & nine]
            else:
                r = top_trump(ok, 0) if kind == 1 else highest(ok)
        elif lose != ZERO:
            r = CHEAPEST_R[kind, (lose >> np.uint64(4)) & nine]
        else:
            r = CHEAPEST[kind, (win >> np.uint64(4)) & nine]
    else:
        r = highest(lose) if lose != ZERO else CHEAPEST[kind, (win >> np.uint64(4)) & nine]
    return led * 16 + r


@jit
def heuristic_card(k, hand, legal, led, trump, top, trick_plain, trick_mask, played, taken, mine, hi, t):
    """A cheap player that knows the scoring: take a trick, stay at or under
    100, keep out of the middle, sweep when every card is a master. ``taken``
    is how many tricks the player has taken, ``mine`` its card points so far
    and ``hi`` the most of the others' (scalars: an array argument costs
    reference counting on every card). Compiled once and called, not inlined:
    inlined, it was a third of the game's cold compile, for no speed."""
    unseen = ~(hand | played) & FULL
    last = k == PLAYERS - 1
    void_setter = k > 0 and trump < 0 and suit_cards(hand, led) == ZERO
    # sweep: won every trick so far and every card is a master
    if taken == t:
        cand = trump_choice(hand) if void_setter else trump
        if can_sweep(hand, unseen, cand):
            if void_setter:
                m = suit_cards(hand, cand)
                return low_trump(m, cand) if last else top_trump(m, cand)
            if k == 0:
                if trump >= 0 and suit_cards(unseen, trump) != ZERO and suit_cards(hand, trump) != ZERO:
                    return top_trump(suit_cards(hand, trump), trump)
                best, most = -1, -1
                for s in range(4):
                    m = suit_cards(hand, s)
                    if m != ZERO and popcount(suit_cards(unseen, s)) > most:
                        most = popcount(suit_cards(unseen, s))
                        best = top_trump(m, s) if s == trump else highest(m)
                return best
            pick, key = -1, -1000
            m = legal
            while m != ZERO:
                c = lowest(m)
                m &= m - ONE
                st = card_strength(c, led, trump)
                kk = (-st if last else st) if st > top else -1000
                better = kk > key
                key = kk if better else key
                pick = c if better else pick
            if key > -1000:
                return pick
    # aim: win this trick (1) or lose it (0). Take a trick first (rule B);
    # then keep out of the middle (rule E) by ducking to be lowest, unless well
    # ahead of both others, and duck anyway once near 100 (rule C)
    if taken == 0:
        aim = 1
    elif mine > LOSE_AT:
        aim = 0
    else:
        aim = 1 if mine >= hi + LEAD_GAP else 0
    if void_setter:
        if aim == 1:
            s = trump_choice(hand)
            m = suit_cards(hand, s)
            return low_trump(m, s) if last else top_trump(m, s)
        s = short_suit(hand)
        return low_trump(suit_cards(hand, s), s)
    if k == 0:
        # lead the highest master (else the highest card) to win; the lowest
        # card outside trumps to lose; ties go to the lowest suit
        if aim == 1:
            top_cards = masters(hand, unseen, trump)
            src = top_cards if top_cards != ZERO else legal
            return lowest(src & RANK_MASKS[highest(fold(src))])
        plain_cards = legal & ~(suit_cards(FULL, trump) if trump >= 0 else ZERO)
        src = plain_cards if plain_cards != ZERO else legal
        return lowest(src & RANK_MASKS[lowest(fold(src))])
    room = OVER - mine - card_points(trick_plain, trick_mask, trump)
    if suit_cards(legal, led) == legal:
        return follow_card(legal, led, trump, top, aim, last, room)
    pick, key = -1, -(1 << 30)
    m = legal
    trump_mask = suit_cards(FULL, trump) if trump >= 0 else ZERO
    while m != ZERO:
        c = lowest(m)
        m &= m - ONE
        st = card_strength(c, led, trump)
        r = c & 15
        pts = POINTS[trump + 1, c]
        wins = st > top
        if aim == 1:
            # a winner that keeps me at or under 100 (the strongest, or the
            # cheapest when last); else the cheapest loser; else the cheapest
            kw = (30000 - pts * 20 - st) if last else (30000 + st)
            kx = -pts * 20 - st
            kl = 10000 - pts * 20 - r
            kk = (kw if pts <= room else kx) if wins else kl
        else:
            # the highest loser (a trump last); else the weakest winner
            kl = 20000 + r - (20 if bit(c) & trump_mask else 0)
            kk = -(pts * 20 + st) if wins else kl
        better = kk > key
        key = kk if better else key
        pick = c if better else pick
    return pick


# ---------------------------------------------------------------- game play


@jit(inline="always")
def heuristic_play(
    k, s, hand, legal, led, trump, top, trick_plain, trick_mask, played, won, tricks, plain, t
):
    """``heuristic_card`` for seat ``s`` with the card points taken so far."""
    hi = -1
    for o in range(PLAYERS):
        if o != s:
            hi = max(hi, card_points(plain[o], won[o], trump))
    return heuristic_card(
        k,
        hand,
        legal,
        led,
        trump,
        top,
        trick_plain,
        trick_mask,
        played,
        tricks[s],
        card_points(plain[s], won[s], trump),
        hi,
        t,
    )


@jit(inline="always")
def others_points(s, won, plain, trump):
    """The fewer and the more card points of the two seats other than ``s`` so far."""
    a = card_points(plain[s - 2 if s >= 2 else s + 1], won[s - 2 if s >= 2 else s + 1], trump)
    b = card_points(plain[s - 1 if s >= 1 else s + 2], won[s - 1 if s >= 1 else s + 2], trump)
    return min(a, b), max(a, b)


@jit(inline="always")
def learned_context(
    k, s, hand, legal, led, trump, top, trick_plain, trick_mask, played, won, tricks, plain, t, leader, best
):  # fmt: skip
    """What ``english_jazz_learned.card_features`` reads of the deal so far beyond the card, the hand, the
    voids and the trick's led suit, trump and top strength: (unseen cards, the trick's card points, the seat
    winning it, its tricks and points, the seat's tricks and points, the others' fewer and more points, the
    tricks left, the heuristic's card)."""
    hc = heuristic_play(
        k, s, hand, legal, led, trump, top, trick_plain, trick_mask, played, won, tricks, plain, t
    )
    ws = -1
    wt = wp = 0
    if k > 0:
        ws = leader + best
        ws = ws - PLAYERS if ws >= PLAYERS else ws
        wt, wp = tricks[ws], card_points(plain[ws], won[ws], trump)
    lo, hi = others_points(s, won, plain, trump)
    unseen = FULL & ~(hand | played | trick_mask)
    pts = card_points(trick_plain, trick_mask, trump)
    return unseen, pts, ws, wt, wp, tricks[s], card_points(plain[s], won[s], trump), lo, hi, TRICKS - t, hc


@jit(inline="always")
def learned_play(
    k, s, hand, legal, led, trump, top, trick_plain, trick_mask, played, won, tricks, plain, t, leader, best,
    voids, weights,
):  # fmt: skip
    """The learned card of seat ``s`` (``english_jazz_learned.learned_card``) from the deal so far: the
    trick led by ``leader``, its best card at place ``best``, the seats shown void ``voids``. Inlined: its
    arrays passed to a call would cost reference counting at every card."""
    unseen, pts, ws, wt, wp, taken, mine, lo, hi, left, hc = learned_context(
        k, s, hand, legal, led, trump, top, trick_plain, trick_mask, played, won, tricks, plain, t, leader, best
    )  # fmt: skip
    return learned_card(
        hand, legal, unseen, voids, s, k, led, trump, top, pts, ws, wt, wp, taken, mine, lo, hi, left, hc,
        weights,
    )  # fmt: skip


@jit(inline="always")
def close_trick(leader, best, trick_mask, trick_plain, won, tricks, plain):
    """The trick goes to the best card's seat, who leads next; returns that seat."""
    w = leader + best
    w = w - PLAYERS if w >= PLAYERS else w
    won[w] |= trick_mask
    tricks[w] += 1
    plain[w] += trick_plain
    return w


@jit
def play_deal(hands, dealer, pol, st, script, won, tricks, plain, events, ne, weights, pimc=None):
    """Play one deal from ``hands`` (emptied as cards are played). Fills
    ``won`` (cards taken), ``tricks`` and ``plain`` (plain-column points) per
    seat; returns (trump, trump_set_by, new event count). ``pol[s]`` is the
    policy of seat s; ``script`` the cards of SCRIPTED play (-1: lowest legal);
    ``pimc`` those of PIMC play (``cardmc.kernels.script``: a seat with a
    single legal card plays it without the script), or None; LEARNED seats
    play by ``weights`` (all ``NWEIGHTS`` of them; else as HEURISTIC)."""
    for s in range(PLAYERS):
        won[s] = ZERO
        tricks[s] = 0
        plain[s] = 0
    rec = events.shape[0] > 0
    leader = (dealer + 1) % PLAYERS
    trump, setter = -1, -1
    played = ZERO
    voids = 0  # bit 4 * seat + suit: the seat did not follow that led suit (for learned seats)
    learning = weights.shape[0] >= NWEIGHTS
    n = 0
    for t in range(TRICKS):
        led, top, best = -1, -1, 0
        trick_mask = ZERO
        trick_plain = 0
        s = leader
        for k in range(PLAYERS):
            hand = hands[s]
            legal = legal_cards(hand, led)
            p = pol[s]
            if p == LEARNED and learning:
                if legal & (legal - ONE) == ZERO:
                    c = lowest(legal)
                else:
                    c = learned_play(
                        k, s, hand, legal, led, trump, top, trick_plain, trick_mask, played, won, tricks, plain,
                        t, leader, best, voids, weights,
                    )  # fmt: skip
            elif p == RANDOM:
                c = nth(legal, rng.below(st, popcount(legal)))
            elif p == HEURISTIC or p == LEARNED:
                if legal & (legal - ONE) == ZERO:
                    c = lowest(legal)
                else:
                    c = heuristic_play(
                        k,
                        s,
                        hand,
                        legal,
                        led,
                        trump,
                        top,
                        trick_plain,
                        trick_mask,
                        played,
                        won,
                        tricks,
                        plain,
                        t,
                    )
            elif pimc is not None:  # PIMC (runs without such seats compile without this)
                c = lowest(legal) if legal & (legal - ONE) == ZERO else scripted_card(pimc, s, TRICKS - t, ne)
                if c < 0:
                    c = heuristic_play(
                        k,
                        s,
                        hand,
                        legal,
                        led,
                        trump,
                        top,
                        trick_plain,
                        trick_mask,
                        played,
                        won,
                        tricks,
                        plain,
                        t,
                    )
            else:
                c = script[n] if n < script.size and script[n] >= 0 else lowest(legal)
            n += 1
            if rec:
                events[ne, 0], events[ne, 1], events[ne, 2], events[ne, 3] = EV_PLAY, s, c, np.int64(legal)
                ne += 1
            if k > 0 and c >> 4 != led:
                voids |= 1 << (4 * s + led)
            led, trump, setter, top, best = settle(c, k, s, led, trump, setter, top, best)
            b = bit(c)
            hands[s] = hand & ~b
            trick_mask |= b
            trick_plain += JASS_PLAIN[c & 15]
            s = s + 1 if s < PLAYERS - 1 else 0
        played |= trick_mask
        leader = close_trick(leader, best, trick_mask, trick_plain, won, tricks, plain)
    return trump, setter, ne


ACES, KINGS, QUEENS, JACKS, TENS, NINES = (RANK_MASKS[r] for r in (ACE, KING, QUEEN, JACK, TEN, NINE))


@jit(inline="always")
def hand_row(rows, r, hand):
    """Features of a hand as dealt into row ``r``: aces, jacks, nines, plain
    points, suit lengths (the row by index: a row view costs reference counting)."""
    aces, jacks = popcount(hand & ACES), popcount(hand & JACKS)
    rows[r, C_ACES], rows[r, C_JACKS], rows[r, C_NINES] = aces, jacks, popcount(hand & NINES)
    rows[r, C_POINTS_HELD] = (
        11 * aces
        + 10 * popcount(hand & TENS)
        + 4 * popcount(hand & KINGS)
        + 3 * popcount(hand & QUEENS)
        + 2 * jacks
    )
    longest = voids = 0
    for s in range(4):
        n = popcount(suit_cards(hand, s))
        rows[r, C_LEN_C + s] = n
        longest = max(longest, n)
        voids += n == 0
    rows[r, C_LONGEST], rows[r, C_VOIDS] = longest, voids


def play_game(seed, index, players, params, policies, rows, events, cond=None, script=None):
    """Play game ``index`` of ``seed`` (12 deals); returns (rows, events) written. ``script``: the cards of
    the PIMC seats (``cardmc.kernels.script``)."""
    order, st, play, hands, dealt, won, tricks, plain, points, score, totals, pol, empty = new_scratch()
    if script is None:  # (not passed: Numba compiles a passed None as another kind of call)
        ne = play_games(
            seed,
            index,
            1,
            policies,
            rows,
            0,
            events,
            order,
            st,
            play,
            hands,
            dealt,
            won,
            tricks,
            plain,
            points,
            score,
            totals,
            pol,
            empty,
            params[P_WEIGHTS:],
            cond,
        )
    else:
        ne = play_games(
            seed,
            index,
            1,
            policies,
            rows,
            0,
            events,
            order,
            st,
            play,
            hands,
            dealt,
            won,
            tricks,
            plain,
            points,
            score,
            totals,
            pol,
            empty,
            params[P_WEIGHTS:],
            cond,
            script,
        )
    return ROWS_PER_GAME, ne


@jit
def new_scratch():
    """Work arrays of a batch's games: the deck, the shuffle and play streams,
    and per seat: hands, hands as dealt, cards won, tricks, plain points,
    card points, deal score, game total, policy."""
    u = np.uint64
    return (
        np.empty(36, np.int64),
        np.empty(1, u),
        np.empty(1, u),
        np.empty(PLAYERS, u),
        np.empty(PLAYERS, u),
        np.empty(PLAYERS, u),
        np.empty(PLAYERS, np.int64),
        np.empty(PLAYERS, np.int64),
        np.empty(PLAYERS, np.int64),
        np.empty(PLAYERS, np.int64),
        np.empty(PLAYERS, np.int64),
        np.empty(PLAYERS, np.int64),
        np.empty(0, np.int64),
    )


@jit
def play_games(
    seed,
    start,
    count,
    policies,
    rows,
    r0,
    events,
    order,
    st,
    play,
    hands,
    dealt,
    won,
    tricks,
    plain,
    points,
    score,
    totals,
    pol,
    script,
    weights,
    cond=None,
    pimc=None,
):
    """Games start..start+count-1 as ``play_game`` plays them, their rows from
    ``rows[r0]`` on, with the work arrays of ``new_scratch`` passed one by one
    (one call per slice: their reference counts are taken once, not per
    game); ``weights``: the learned seats' (``play_deal``); ``cond`` a
    condition on every deal (``cardmc.kernels.condition``) or None;
    ``pimc``: the script of the PIMC seats (``play_game``), or None.
    Returns the events written (tracing is for one game)."""
    rec = events.shape[0] > 0
    ne = 0
    for s in range(PLAYERS):
        pol[s] = policies[s, 0]
    for g in range(count):
        index = start + g
        if pimc is not None:  # PIMC seats: one game, traced
            start_script(pimc, policies, PLAYERS, PIMC)
        base = r0 + g * ROWS_PER_GAME
        for i in range(36):
            order[i] = DECK[i]
        st[0] = rng.key(seed, index, 0, rng.SETUP)
        rng.shuffle(st, order)
        first, shown = face_up_dealer(order)
        if rec:
            for t in range(shown):
                events[ne, 0], events[ne, 1], events[ne, 2], events[ne, 3] = (
                    EV_FACE_UP,
                    t,
                    order[t],
                    (1 + t) % 3,
                )
                ne += 1
        play[0] = rng.key(seed, index, 0, rng.PLAY)
        for s in range(PLAYERS):
            totals[s] = 0
        for d in range(DEALS):
            dealer = (first + d) % PLAYERS
            if cond is None or cond[condition.CT_DEAL] < 0:  # plain (condition.PLAIN)
                deal36(rng.key(seed, index, d, rng.DEAL), dealer + 1, PLAYERS, hands, order.view(np.uint8))
            else:
                condition.deal_condition(
                    cond, condition.DECK36, PLAYERS, 0, -1, rng.key(seed, index, d, rng.DEAL), order, hands
                )
            for s in range(PLAYERS):
                dealt[s] = hands[s]
            if rec:
                events[ne, 0], events[ne, 1], events[ne, 2], events[ne, 3] = (
                    EV_DEAL,
                    d,
                    dealer,
                    (dealer + 1) % 3,
                )
                ne += 1
                for s in range(PLAYERS):
                    events[ne, 0], events[ne, 1], events[ne, 2], events[ne, 3] = (
                        EV_HAND,
                        s,
                        np.int64(dealt[s]),
                        0,
                    )
                    ne += 1
            trump, setter, ne = play_deal(
                hands, dealer, pol, play, script, won, tricks, plain, events, ne, weights, pimc
            )
            for s in range(PLAYERS):
                points[s] = card_points(plain[s], won[s], trump)
            rule = deal_score(tricks, points, score)
            for s in range(PLAYERS):
                r = base + d * PLAYERS + s
                rows[r, C_GAME], rows[r, C_DEAL], rows[r, C_SEAT], rows[r, C_DEALER] = index, d, s, dealer
                rows[r, C_POSITION] = (s - dealer) % PLAYERS
                rows[r, C_TRUMP], rows[r, C_TRUMP_SET_BY] = trump, setter
                rows[r, C_TRICKS], rows[r, C_CARD_POINTS] = tricks[s], points[s]
                rows[r, C_RULE], rows[r, C_SCORE] = rule, score[s]
                rows[r, C_ALL_TRICKS] = 1 if tricks[s] == TRICKS else 0
                hand_row(rows, r, dealt[s])
                rows[r, C_TRUMPS_HELD] = popcount(suit_cards(dealt[s], trump)) if trump >= 0 else -1
                totals[s] += score[s]
        best = max(totals[0], max(totals[1], totals[2]))
        nbest = 0
        for s in range(PLAYERS):
            nbest += 1 if totals[s] == best else 0
        for r in range(base, base + ROWS_PER_GAME):
            s = rows[r, C_SEAT]
            rows[r, C_TOTAL] = totals[s]
            rows[r, C_WINNER] = 1 if totals[s] == best else 0
            rows[r, C_SHARED_WIN] = 1 if nbest > 1 else 0
    return ne


def simulate(seed, start, count, players, params, policies, cond=None, out=None, after=None):
    """Play games start..start+count-1, slices of ``SLICE`` games side by side;
    game j writes rows[j*36 : j*36+nrows[j]]; ``after(p, rows, lo, hi)``, if given,
    reads each slice's rows lo..hi-1 on the thread that wrote them, right
    after (``jit.in_shares``)."""
    m = ROWS_PER_GAME
    rows = new_rows(out, count * m, len(COLUMNS))
    nrows = np.zeros(count, np.int64)
    in_shares(
        lambda lo, hi: play_slices(
            seed, start, count, policies, params[P_WEIGHTS:], cond, rows, nrows, lo, hi
        ),
        (count + SLICE - 1) // SLICE,
        after and (lambda p, s: after(p, rows, s * SLICE * m, min(count, (s + 1) * SLICE) * m)),
    )
    return rows, nrows


@jit
def play_slices(seed, start, count, policies, weights, cond, rows, nrows, lo, hi):
    """Slices lo..hi-1 of ``simulate``."""
    m = ROWS_PER_GAME
    events = np.zeros((0, 4), np.int64)
    order, st, play, hands, dealt, won, tricks, plain, points, score, totals, pol, script = new_scratch()
    for sl in range(lo, hi):
        first = sl * SLICE
        last = min(count, first + SLICE)
        play_games(
            seed,
            start + first,
            last - first,
            policies,
            rows,
            first * m,
            events,
            order,
            st,
            play,
            hands,
            dealt,
            won,
            tricks,
            plain,
            points,
            score,
            totals,
            pol,
            script,
            weights,
            cond,
        )
        for j in range(first, last):
            nrows[j] = m


@jit
def scripted_deal(hands_in, dealer, script):
    """Tests: play one deal with SCRIPTED policy. Returns (trump, setter, rule,
    out[3, 3] = tricks, points, score per seat, events)."""
    hands = hands_in.copy()
    pol = np.full(PLAYERS, SCRIPTED, np.int64)
    st = np.zeros(1, np.uint64)
    won = np.empty(PLAYERS, np.uint64)
    tricks = np.empty(PLAYERS, np.int64)
    plain = np.empty(PLAYERS, np.int64)
    events = np.zeros((36, 4), np.int64)
    trump, setter, _ = play_deal(
        hands, dealer, pol, st, script, won, tricks, plain, events, 0, np.empty(0, np.int64)
    )
    out = np.empty((3, PLAYERS), np.int64)
    for s in range(PLAYERS):
        out[0, s] = tricks[s]
        out[1, s] = card_points(plain[s], won[s], trump)
    rule = deal_score(tricks, out[1], out[2])
    return trump, setter, rule, out, events


# ------------------------------------------------------------- hand odds


@jit
def packet_condition(fixed, dealer):
    """The deal's twelve packets of three in dealing order (packet ``3 * r + q``
    goes to seat ``(dealer + 1 + q) % 3`` in round ``r``), each with the fixed
    cards it holds: a seat's fixed cards fill its last packets, three to a
    packet, so a seat's free places are its first packets. Returns (fixed
    cards per packet, 3s); ``deal_given`` fills the free places in packet
    order, so a whole fixed hand skips its packets and the others are dealt
    as a plain deal deals them."""
    pfixed = np.zeros(4 * PLAYERS, np.uint64)
    sizes = np.full(4 * PLAYERS, 3, np.int64)
    for q in range(PLAYERS):
        rest = fixed[(dealer + 1 + q) % PLAYERS]
        for r in range(3, -1, -1):
            for _ in range(3):
                if rest != ZERO:
                    b = rest & (~rest + ONE)
                    pfixed[3 * r + q] |= b
                    rest ^= b
    return pfixed, sizes


def odds_deals(seed, start, count, hand, seat, dealer, policy, weights=None):
    """``odds_given`` with only ``seat``'s whole 12-card ``hand`` fixed."""
    fixed = np.zeros(PLAYERS, np.uint64)
    fixed[seat] = hand
    return odds_given(seed, start, count, fixed, seat, dealer, policy, weights)


def odds_given(seed, start, count, fixed, seat, dealer, policy, weights=None):
    """Deals start..start+count-1 with the cards ``fixed`` per seat (checked:
    disjoint, at most 12 a seat): the other cards are shuffled by
    stream(seed, i, 0, DEAL) and dealt in packets of three in dealing order
    into the places the fixed cards leave free (``packet_condition``,
    ``deal_given``); every seat plays ``policy``. Returns int16 (count, 4):
    tricks, card points, rule code and deal score of ``seat``. Slices of
    ``SLICE * 16`` deals run side by side. ``weights``: the learned player's
    (``params[P_WEIGHTS:]``; default: the shipped ones)."""
    if weights is None:
        weights = np.empty(0, np.int64)
        if policy == LEARNED:
            from cardmc.english_jazz_learned import shipped_weights

            weights = shipped_weights()
    out = np.empty((count, 4), np.int16)
    slices = (count + SLICE * 16 - 1) // (SLICE * 16)
    in_shares(
        lambda lo, hi: _odds_given_slices(
            seed, start, count, fixed, seat, dealer, policy, weights, out, lo, hi
        ),
        slices,
    )
    return out


@jit(inline="always")
def odds_hands(seed, i, pfixed, psizes, dealer, st, buf, packets, hands):
    """The hands of deal ``i`` of ``odds_given`` (``packet_condition``'s packets)."""
    st[0] = rng.key(seed, i, 0, rng.DEAL)
    deal_given(FULL, pfixed, psizes, 4 * PLAYERS, st, buf, packets)
    for s in range(PLAYERS):
        hands[s] = ZERO
    for p in range(4 * PLAYERS):
        hands[(dealer + 1 + p % PLAYERS) % PLAYERS] |= packets[p]


@jit
def _odds_given_slices(seed, start, count, fixed, seat, dealer, policy, weights, out, lo, hi):
    """Slices lo..hi-1 of ``odds_given``."""
    pfixed, psizes = packet_condition(fixed, dealer)
    size = SLICE * 16
    for sl in range(lo, hi):
        buf = np.empty(36, np.int64)
        packets = np.empty(4 * PLAYERS, np.uint64)
        st = np.empty(1, np.uint64)
        play = np.empty(1, np.uint64)
        hands = np.empty(PLAYERS, np.uint64)
        won = np.empty(PLAYERS, np.uint64)
        tricks = np.empty(PLAYERS, np.int64)
        plain = np.empty(PLAYERS, np.int64)
        points = np.empty(PLAYERS, np.int64)
        score = np.empty(PLAYERS, np.int64)
        pol = np.full(PLAYERS, policy, np.int64)
        script = np.empty(0, np.int64)
        events = np.zeros((0, 4), np.int64)
        for j in range(sl * size, min(count, (sl + 1) * size)):
            i = start + j
            odds_hands(seed, i, pfixed, psizes, dealer, st, buf, packets, hands)
            play[0] = rng.key(seed, i, 0, rng.PLAY)
            trump, _, _ = play_deal(hands, dealer, pol, play, script, won, tricks, plain, events, 0, weights)
            for s in range(PLAYERS):
                points[s] = card_points(plain[s], won[s], trump)
            rule = deal_score(tricks, points, score)
            out[j, 0] = tricks[seat]
            out[j, 1] = points[seat]
            out[j, 2] = rule
            out[j, 3] = score[seat]


@jit
def odds_deal_pimc(seed, i, fixed, dealer, policies, pimc, events):
    """Deal ``i`` of ``odds_given`` (the same hands) played with the
    ``policies`` per seat, the PIMC seats from ``pimc`` (``cardmc.kernels.script``),
    traced into ``events`` (EV_DEAL 0, the hands, the plays) for
    ``cardmc.pimc``. Returns (per seat: tricks, card points, score; the rule
    code; events written)."""
    pfixed, psizes = packet_condition(fixed, dealer)
    hands = np.empty(PLAYERS, np.uint64)
    odds_hands(
        seed,
        i,
        pfixed,
        psizes,
        dealer,
        np.empty(1, np.uint64),
        np.empty(36, np.int64),
        np.empty(4 * PLAYERS, np.uint64),
        hands,
    )
    play = np.empty(1, np.uint64)
    play[0] = rng.key(seed, i, 0, rng.PLAY)
    pol = np.empty(PLAYERS, np.int64)
    for s in range(PLAYERS):
        pol[s] = policies[s, 0]
    start_script(pimc, policies, PLAYERS, PIMC)
    events[0, 0], events[0, 1], events[0, 2], events[0, 3] = EV_DEAL, 0, dealer, (dealer + 1) % PLAYERS
    for s in range(PLAYERS):
        events[1 + s, 0], events[1 + s, 1], events[1 + s, 2], events[1 + s, 3] = (
            EV_HAND,
            s,
            np.int64(hands[s]),
            0,
        )
    won = np.empty(PLAYERS, np.uint64)
    tricks = np.empty(PLAYERS, np.int64)
    plain = np.empty(PLAYERS, np.int64)
    trump, _, ne = play_deal(
        hands, dealer, pol, play, np.empty(0, np.int64), won, tricks, plain, events, 1 + PLAYERS,
        np.empty(0, np.int64), pimc,
    )  # fmt: skip
    out = np.empty((3, PLAYERS), np.int64)
    for s in range(PLAYERS):
        out[0, s] = tricks[s]
        out[1, s] = card_points(plain[s], won[s], trump)
    rule = deal_score(tricks, out[1], out[2])
    return out, rule, ne


# ------------------------------------------------------------ advice from a view
# One decision of the heuristic player from a seat's view (``cardmc.advise``): the seat's hand
# now and the deal's plays so far in order, replayed with this kernel's own bookkeeping, then its
# own heuristic card function: what a heuristic seat would play there, from nothing it did not see.


@jit(inline="always")
def view_deal(plays, seats, count, won, tricks, plain):
    """The deal so far of a view (``plays[:count]`` the deal's cards in order, ``seats`` who played them),
    replayed with this kernel's own bookkeeping into ``won``, ``tricks`` and ``plain``: (trump, the cards of
    the tricks done, the trick in progress's led suit, top strength, best place, cards and plain points, the
    seat's place in it, the tricks done, its leader, the seats shown void as ``play_deal`` keeps them)."""
    trump, setter, played, voids = -1, -1, ZERO, 0
    led, top, best, trick_mask, trick_plain, k, t, leader = -1, -1, 0, ZERO, 0, 0, 0, 0
    for j in range(count):
        if k == 0:
            led, top, best, trick_mask, trick_plain, leader = -1, -1, 0, ZERO, 0, seats[j]
        c = plays[j]
        if k > 0 and c >> 4 != led:
            voids |= 1 << (4 * seats[j] + led)
        led, trump, setter, top, best = settle(c, k, seats[j], led, trump, setter, top, best)
        trick_mask |= bit(c)
        trick_plain += JASS_PLAIN[c & 15]
        k += 1
        if k == PLAYERS:
            played |= trick_mask
            close_trick(leader, best, trick_mask, trick_plain, won, tricks, plain)
            k, t = 0, t + 1
    if k == 0:
        led, top, best, trick_mask, trick_plain = -1, -1, 0, ZERO, 0
    return trump, played, led, top, best, trick_mask, trick_plain, k, t, leader, voids


@jit
def view_card(hand, plays, seats, count, me):
    """English Jazz: the heuristic's card, with the tricks and card points the
    seats took so far this deal and the trump the play set."""
    won = np.zeros(PLAYERS, np.uint64)
    tricks = np.zeros(PLAYERS, np.int64)
    plain = np.zeros(PLAYERS, np.int64)
    trump, played, led, top, best, trick_mask, trick_plain, k, t, leader, _ = view_deal(
        plays, seats, count, won, tricks, plain
    )
    legal = legal_cards(hand, led)
    if legal & (legal - ONE) == ZERO:
        return lowest(legal)
    return heuristic_play(
        k, me, hand, legal, led, trump, top, trick_plain, trick_mask, played, won, tricks, plain, t
    )


@jit
def view_learned(hand, plays, seats, count, me, weights, feats):
    """The learned player from the view of ``me``: fills ``feats`` (a row per legal card, lowest code
    first) with ``english_jazz_learned.card_features`` and returns (legal cards as a mask, the card
    ``weights`` play)."""
    won = np.zeros(PLAYERS, np.uint64)
    tricks = np.zeros(PLAYERS, np.int64)
    plain = np.zeros(PLAYERS, np.int64)
    trump, played, led, top, best, trick_mask, trick_plain, k, t, leader, voids = view_deal(
        plays, seats, count, won, tricks, plain
    )
    legal = legal_cards(hand, led)
    unseen, pts, ws, wt, wp, taken, mine, lo, hi, left, hc = learned_context(
        k, me, hand, legal, led, trump, top, trick_plain, trick_mask, played, won, tricks, plain, t, leader,
        best,
    )  # fmt: skip
    m = legal
    i = 0
    while m != ZERO:
        c = lowest(m)
        m &= m - ONE
        f = card_features(
            c, hand, unseen, voids, me, k, led, trump, top, pts, ws, wt, wp, taken, mine, lo, hi, left, hc
        )
        for j in range(NWEIGHTS):
            feats[i, j] = f[j]
        i += 1
    card = learned_card(
        hand, legal, unseen, voids, me, k, led, trump, top, pts, ws, wt, wp, taken, mine, lo, hi, left, hc,
        weights,
    )  # fmt: skip
    return np.int64(legal), card
