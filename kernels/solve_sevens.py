"""Exact search of sevens (Norwegian Jazz deal 6) with every hand seen.

The deal ends when the first player goes out (the default rules). The value
is one seat's score from here on: ``bonus`` if it goes out first, minus
``pass_cost`` for each of its passes; that seat maximises it, the others
together minimise it (``bonus`` 1, ``pass_cost`` 0: can it go out first?).
The table is every card not in a hand, so the hands and the seat to play
are the whole position; the legal cards come from ``sevens.playable_of`` and
``sevens.after_play``. A null-window search ("at least ``lo``?") with an
explicit stack and a transposition table of bounds, and ``value`` bisects.
"""

from __future__ import annotations

import numpy as np

from cardmc.kernels.bits import ONE, ZERO, bit, lowest
from cardmc.kernels.jit import jit
from cardmc.kernels.sevens import FULL52, playable_of
from cardmc.kernels.solve_search import mix

MAX_PLIES = 400  # 52 cards and the passes between them (a card at least every n turns)
S_SEAT, S_LO, S_LEFT, S_CARD, S_SLOT, S_MAX = range(6)
LOWEST = -200  # values below are reported as this


def new_frames():
    return np.zeros((MAX_PLIES, 6), np.int64), np.zeros(MAX_PLIES, np.uint64)


@jit(inline="always")
def _key(salt, hands, n, p):
    h = np.uint64(salt)
    for s in range(n):
        h = mix(h ^ hands[s]) + np.uint64(s + 1)
    return mix(h ^ np.uint64(p))


@jit(inline="always")
def _enter(hands, n, seat, bonus, keys, lows, highs, mask, salt, fr, fk, d):
    """0 or 1 when node ``d`` is decided at once, else 2 with its moves set up
    (``S_LEFT``: the legal cards still to try, 0 for a pass)."""
    p, lo = fr[d, S_SEAT], fr[d, S_LO]
    if lo > bonus:
        return 0
    key = _key(salt, hands, n, p)
    slot = np.int64(key & np.uint64(mask))
    if keys[slot] == key:
        if lows[slot] >= lo:
            return 1
        if highs[slot] < lo:
            return 0
    fk[d] = key
    fr[d, S_SLOT] = slot
    rest = ZERO
    for s in range(n):
        rest |= hands[s]
    fr[d, S_LEFT] = np.int64(hands[p] & playable_of(FULL52 ^ rest))
    fr[d, S_CARD] = -1
    fr[d, S_MAX] = 1 if p == seat else 0
    return 2


@jit(inline="always")
def _store(keys, lows, highs, fr, fk, d, result):
    slot, key, lo = fr[d, S_SLOT], fk[d], fr[d, S_LO]
    if keys[slot] != key:
        keys[slot] = key
        lows[slot] = -32000
        highs[slot] = 32000
    if result == 1:
        lows[slot] = max(lows[slot], lo)
    else:
        highs[slot] = min(highs[slot], lo - 1)


@jit
def search(hands, n, to_play, seat, bonus, pass_cost, lo, keys, lows, highs, mask, salt, fr, fk):
    """Can ``seat`` make its score from here at least ``lo``? ``res`` is 2
    while node ``d`` has a move to try, else the node's result."""
    fr[0, S_SEAT], fr[0, S_LO] = to_play, lo
    d = 0
    res = _enter(hands, n, seat, bonus, keys, lows, highs, mask, salt, fr, fk, 0)
    while True:
        if res == 2:
            p = fr[d, S_SEAT]
            left = np.uint64(fr[d, S_LEFT])
            if left == ZERO:  # no legal card: pass (the node's only move)
                fr[d, S_CARD] = 64
                fr[d + 1, S_SEAT], fr[d + 1, S_LO] = (
                    (p + 1) % n,
                    fr[d, S_LO] + (pass_cost if p == seat else 0),
                )
                d += 1
                res = _enter(hands, n, seat, bonus, keys, lows, highs, mask, salt, fr, fk, d)
                continue
            c = lowest(left)
            fr[d, S_LEFT] = np.int64(left & (left - ONE))
            fr[d, S_CARD] = c
            hands[p] ^= bit(c)
            if hands[p] == ZERO:  # out first: the deal ends
                gain = bonus if p == seat else 0
                res = _back(hands, fr, d, 1 if fr[d, S_LO] - gain <= 0 else 0)
                if res != 2:
                    _store(keys, lows, highs, fr, fk, d, res)
                continue
            fr[d + 1, S_SEAT], fr[d + 1, S_LO] = (p + 1) % n, fr[d, S_LO]
            d += 1
            res = _enter(hands, n, seat, bonus, keys, lows, highs, mask, salt, fr, fk, d)
            continue
        if d == 0:
            return res == 1
        d -= 1
        res = _back(hands, fr, d, res)
        if res != 2:
            _store(keys, lows, highs, fr, fk, d, res)


@jit(inline="always")
def _back(hands, fr, d, res):
    """Node ``d`` hears its child's result: undo the move; 2 to try the next
    move, else the node's result (not yet stored)."""
    c = fr[d, S_CARD]
    if c < 64:
        hands[fr[d, S_SEAT]] ^= bit(c)
    if res == fr[d, S_MAX]:
        return res
    if c < 64 and fr[d, S_LEFT] != 0:
        return 2
    return 1 - fr[d, S_MAX]


@jit
def value(hands, n, to_play, seat, bonus, pass_cost, keys, lows, highs, mask, salt, fr, fk):
    """The score ``seat`` can be sure of from here (at least LOWEST)."""
    a, b = LOWEST, bonus
    while a < b:
        mid = (a + b + 1) // 2
        if search(hands, n, to_play, seat, bonus, pass_cost, mid, keys, lows, highs, mask, salt, fr, fk):
            a = mid
        else:
            b = mid - 1
    return a
