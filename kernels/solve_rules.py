"""The rules the solver needs, one entry point per question, for every trick game.

The solver (``solve.py``) asks the same few questions of any trick game:
which cards may be played, who wins a complete trick and what it is worth,
what the cards still out are worth, and which cards play alike. Each answer
here only calls the game's own kernel (``schieber``, ``differenzler``,
``english_jazz``, ``norwegian_jazz``, ``tricks``); the thin adapters below
turn the solver's trick array into the arguments those functions take.

The rules array ``R`` (int64) carries the game and the objective:
``R[GAME]``, ``R[PLAYERS]``, ``R[PARAM]`` (Schieber contract, Differenzler
trump, Norwegian Jazz deal number), ``R[MAX_SIDE]`` (seats that maximise, a
bit mask), ``R[COUNTED]`` (seats whose tricks count), ``R[BONUS]`` (added when
the counted seats take every trick of the deal, subtracted when they take
none: Schieber's match), ``R[LAST_BONUS]`` (the last trick's extra).
Another thread may set ``R[STOP]`` to stop a search in progress: it returns
at once, its value meaningless, and records nothing in the table.
"""

from __future__ import annotations

import numpy as np

from cardmc.kernels import differenzler, english_jazz, norwegian_jazz, schieber
from cardmc.kernels.bits import ZERO, bit
from cardmc.kernels.jit import jit
from cardmc.kernels.tricks import (
    JASS_PLAIN,
    JASS_TRUMP,
    PLAIN,
    REVERSED,
    SUIT16,
    TRUMP_STRENGTH,
    jass_points,
    strength,
    trick_winner,
)

SCHIEBER, DIFFERENZLER, ENGLISH_JAZZ, NORWEGIAN_JAZZ = 0, 1, 2, 3
GAME, PLAYERS, PARAM, MAX_SIDE, COUNTED, BONUS, LAST_BONUS, MODE, TT_MASK, SALT, NODES, STOP = range(12)
CUTS = 12  # R[CUTS + cut_slot(k, left, first)]: the search's cut nodes, counted (``cut_slot``)
TRICK_SEATS, MOST_TRICKS = 8, 18  # a trick's seats, a hand's tricks: at most
R_SIZE = CUTS + TRICK_SEATS * MOST_TRICKS * 2
THRESHOLD, INTERVAL = 0, 1  # R[MODE]: "at least lo" searches, or "within [lo, hi]"

# BETWEEN[kind, a, b]: 16-bit rank set strictly between ranks a and b in the
# plain (kind 0) or trump (kind 1) order, whichever comes first
BETWEEN = np.zeros((2, 16, 16), np.uint64)
for _a in range(16):
    for _b in range(16):
        for _r in range(16):
            if min(_a, _b) < _r < max(_a, _b):
                BETWEEN[0, _a, _b] |= np.uint64(1 << _r)
            ta, tb, tr = TRUMP_STRENGTH[_a], TRUMP_STRENGTH[_b], TRUMP_STRENGTH[_r]
            if ta >= 0 and tb >= 0 and tr >= 0 and min(ta, tb) < tr < max(ta, tb):
                BETWEEN[1, _a, _b] |= np.uint64(1 << _r)


def _suit_points(columns):
    """SUIT_POINTS[kind, m]: Jass points of the cards of one suit whose ranks
    6..A are the bits of ``m`` (bit 0: the 6), for each kind of suit: plain,
    trump, and a suit of Obenabe or Undenufe (whose 8 counts 8)."""
    t = np.zeros((len(columns), 512), np.int64)
    for kind, col in enumerate(columns):
        for m in range(512):
            t[kind, m] = sum(int(col[4 + r]) for r in range(9) if (m >> r) & 1)
    return t


SUIT_PLAIN, SUIT_TRUMP, SUIT_NO_TRUMP = 0, 1, 2
SUIT_POINTS = _suit_points([JASS_PLAIN, JASS_TRUMP, schieber.POINTS[4, 0:16]])
assert all(
    (schieber.POINTS[p, 16 * s : 16 * s + 16] == (JASS_TRUMP if s == p else JASS_PLAIN)).all()
    for p in range(4)
    for s in range(4)
)
assert (schieber.POINTS[4] == schieber.POINTS[5]).all()


# ranks of a trump suit from the lowest trump to the highest
TRUMP_RANKS = np.array(
    sorted((r for r in range(16) if TRUMP_STRENGTH[r] >= 0), key=lambda r: TRUMP_STRENGTH[r]), np.int64
)


@jit(inline="always")
def ordered_trump(R, trump):
    """The suit whose cards rank in trump order (-1: none), for the table keys."""
    g = R[GAME]
    if g == SCHIEBER:
        return R[PARAM] if R[PARAM] < 4 else -1
    if g == DIFFERENZLER:
        return R[PARAM]
    if g == ENGLISH_JAZZ:
        return trump
    return -1


@jit(inline="always")
def card_token(R, c, trump):
    """What the table key must know of a card besides its owner and its place
    in its suit's order: its value and, in English Jazz before trump is set,
    whether it is a J or a 9 (whose place changes if its suit becomes trump)."""
    t = 8 * card_value(R, c, trump)
    if R[GAME] == ENGLISH_JAZZ and trump < 0:
        r = c & 15
        t += 256 if r == 9 else (512 if r == 7 else 0)
    return t


@jit(inline="always")
def _schieber_top_trump(trick, k, contract):
    """Rank of the highest trump in the first ``k`` cards of a trick (-1: none),
    the argument ``schieber.legal_cards`` takes."""
    top, best = -1, -1
    for i in range(k):
        c = trick[i]
        if contract < 4 and c >> 4 == contract and TRUMP_STRENGTH[c & 15] > best:
            best, top = TRUMP_STRENGTH[c & 15], c & 15
    return top


@jit(inline="always")
def legal(R, hand, trick, k):
    """Cards of ``hand`` the game allows after the first ``k`` cards of ``trick``."""
    g = R[GAME]
    led = trick[0] >> 4 if k > 0 else -1
    if g == SCHIEBER:
        return schieber.legal_cards(hand, led, R[PARAM], _schieber_top_trump(trick, k, R[PARAM]))
    if g == DIFFERENZLER:
        return differenzler.legal_for_trick(hand, trick, k, R[PARAM])
    if g == ENGLISH_JAZZ:
        return english_jazz.legal_cards(hand, led)
    led_mask = SUIT16 << np.uint64(16 * led) if k > 0 else ZERO
    return norwegian_jazz.trick_legal(hand, led_mask)


@jit(inline="always")
def card_value(R, c, trump):
    """What one card adds to the trick that holds it (for equivalent cards)."""
    g = R[GAME]
    if g == SCHIEBER:
        return schieber.POINTS[R[PARAM], c]
    if g == DIFFERENZLER:
        return jass_points(c, R[PARAM])
    if g == ENGLISH_JAZZ:
        return 0
    return norwegian_jazz.trick_units(R[PARAM], bit(c), False)


@jit(_nrt=False)  # no reference counting: the solver's hot path (see solve_search)
def trick_end(R, trick, trump, last):
    """(winner position, value, trump after) of a complete trick; ``last``: the deal's last trick."""
    g = R[GAME]
    n = R[PLAYERS]
    if g == ENGLISH_JAZZ:
        w, after, _ = english_jazz.trick_outcome(trick, trump)
        return w, 1, after
    if g == NORWEGIAN_JAZZ:
        m = ZERO
        for i in range(n):
            m |= bit(trick[i])
        return norwegian_jazz.trick_winner_pos(trick, n), norwegian_jazz.trick_units(R[PARAM], m, last), trump
    v = R[LAST_BONUS] if last else 0
    if g == SCHIEBER:
        for i in range(n):
            v += schieber.POINTS[R[PARAM], trick[i]]
        return schieber.trick_winner_pos(trick, R[PARAM]), v, trump
    for i in range(n):
        v += jass_points(trick[i], R[PARAM])
    return trick_winner(trick, n, R[PARAM], PLAIN), v, trump


@jit(_nrt=False)  # no reference counting: the solver's hot path (see solve_search)
def remaining_value(R, rest, tricks_left, trump):
    """The value of all tricks still to be won, ``rest`` the cards not yet in a
    complete trick (without the match bonus)."""
    g = R[GAME]
    if g == ENGLISH_JAZZ:
        return tricks_left
    if g == NORWEGIAN_JAZZ:
        d = R[PARAM]
        if d == 1:
            return tricks_left
        if d == 5:
            return 1 if tricks_left > 0 else 0
        return norwegian_jazz.trick_units(d, rest, False)
    v = R[LAST_BONUS] if tricks_left > 0 else 0
    p = R[PARAM]
    for suit in range(4):
        kind = SUIT_NO_TRUMP if p >= 4 else (SUIT_TRUMP if suit == p else SUIT_PLAIN)
        v += SUIT_POINTS[kind, (rest >> np.uint64(16 * suit + 4)) & np.uint64(511)]
    return v


@jit(inline="always")
def order_between(R, c, d, trump):
    """Cards of the suit of ``c`` and ``d`` strictly between them in every order
    the suit may still be played in (English Jazz before trump is set: both)."""
    g = R[GAME]
    s = c >> 4
    a, b = c & 15, d & 15
    if g == SCHIEBER:
        kind = 1 if s == R[PARAM] else 0
    elif g == DIFFERENZLER:
        kind = 1 if s == R[PARAM] else 0
    elif g == ENGLISH_JAZZ:
        if trump < 0:
            return (BETWEEN[0, a, b] | BETWEEN[1, a, b]) << np.uint64(16 * s)
        kind = 1 if s == trump else 0
    else:
        kind = 0
    return BETWEEN[kind, a, b] << np.uint64(16 * s)


@jit(inline="always")
def card_strength(R, c, led, trump):
    """How strongly ``c`` bids for the trick so far (for move ordering only)."""
    g = R[GAME]
    if g == SCHIEBER:
        p = R[PARAM]
        return strength(c, led, p if p < 4 else -1, REVERSED if p == 5 else PLAIN)
    if g == DIFFERENZLER:
        return strength(c, led, R[PARAM], PLAIN)
    if g == ENGLISH_JAZZ:
        return english_jazz.card_strength(c, led, trump)
    return (c & 15) if c >> 4 == led else -1
