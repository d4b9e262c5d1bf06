"""The English Jazz deal score with every hand seen: the search player's solver.

From a position of a deal, given as the hands now and the deal's cards
played so far in order, the deal score (rules A-E) that one seat, ``me``,
can make sure of when the other two play together against it: ``me``
maximises its score, the others minimise it. Trump is set by the play
exactly as in the game (the first card that does not follow suit), and the
card points of every seat are counted at the end of the deal with the trump
the deal ends with.

Every line of play is searched, with alpha-beta cut-offs and no table: the
score lies in -2..2, so windows close early, and the search player calls it
only a few tricks before the end of the deal (``pimc_tricks``). The rules
are the game kernel's own (``legal_cards``, ``settle``, ``card_points``,
``deal_score``).
"""

from __future__ import annotations

import numpy as np

from cardmc.kernels.bits import ONE, ZERO, bit, lowest
from cardmc.kernels.english_jazz import PLAYERS, card_points, deal_score, legal_cards, settle
from cardmc.kernels.jit import jit, recursive
from cardmc.kernels.tricks import JASS_PLAIN

WORST, BEST = -3, 3  # beyond every deal score
NO, NONE = np.int64(0), np.int64(-1)  # typed constants: the recursive calls must not pass literals


@recursive
def _search(
    hands, k, led, trump, top, best, leader, tmask, tplain, won, tricks, plain, me, alpha, beta, work
):
    """The score ``me`` can make sure of from here (the ``k``-th card of the
    trick led by ``leader`` is next), within the window (alpha, beta)."""
    if k == PLAYERS:
        w = leader + best
        w = w - PLAYERS if w >= PLAYERS else w
        won[w] |= tmask
        tricks[w] += 1
        plain[w] += tplain
        if hands[w] == ZERO:  # every hand is empty: the deal is over
            for s in range(PLAYERS):
                work[0, s] = card_points(plain[s], won[s], trump)
            deal_score(tricks, work[0], work[1])
            v = work[1, me]
        else:
            v = _search(
                hands, NO, NONE, trump, NONE, NO, w, ZERO, NO, won, tricks, plain, me, alpha, beta, work
            )
        won[w] &= ~tmask
        tricks[w] -= 1
        plain[w] -= tplain
        return v
    s = leader + k
    s = s - PLAYERS if s >= PLAYERS else s
    rest = legal_cards(hands[s], led)
    mine = s == me
    v = WORST if mine else BEST
    while rest != ZERO:
        c = lowest(rest)
        b = bit(c)
        rest &= rest - ONE
        led2, trump2, _, top2, best2 = settle(c, k, s, led, trump, -1, top, best)
        hands[s] &= ~b
        x = _search(
            hands,
            k + 1,
            led2,
            trump2,
            top2,
            best2,
            leader,
            tmask | b,
            tplain + JASS_PLAIN[c & 15],
            won,
            tricks,
            plain,
            me,
            alpha,
            beta,
            work,
        )
        hands[s] |= b
        if mine:
            v = max(v, x)
            alpha = max(alpha, v)
        else:
            v = min(v, x)
            beta = min(beta, v)
        if alpha >= beta:
            break
    return v


@jit
def card_values(hands, plays, nplays, first_leader, me, out_c, out_v):
    """The score ``me`` (to play) can make sure of after each of its legal
    cards: the deal's first ``nplays`` cards of ``plays`` were played from
    ``first_leader`` on, and ``hands`` are the hands now. Writes the cards
    (lowest first) and their values to ``out_c`` and ``out_v``; returns how
    many."""
    won = np.zeros(PLAYERS, np.uint64)
    tricks = np.zeros(PLAYERS, np.int64)
    plain = np.zeros(PLAYERS, np.int64)
    work = np.zeros((2, PLAYERS), np.int64)
    leader, trump = first_leader, -1
    led, top, best, tmask, tplain = -1, -1, 0, ZERO, 0
    for i in range(nplays):  # the deal so far: who won what, the trump, the trick in progress
        c = plays[i]
        k = i % PLAYERS
        s = (leader + k) % PLAYERS
        led, trump, _, top, best = settle(c, k, s, led, trump, -1, top, best)
        tmask |= bit(c)
        tplain += JASS_PLAIN[c & 15]
        if k == PLAYERS - 1:
            w = (leader + best) % PLAYERS
            won[w] |= tmask
            tricks[w] += 1
            plain[w] += tplain
            leader, led, top, best, tmask, tplain = w, -1, -1, 0, ZERO, 0
    k = nplays % PLAYERS
    rest = legal_cards(hands[me], led)
    m = 0
    while rest != ZERO:
        c = lowest(rest)
        b = bit(c)
        rest &= rest - ONE
        led2, trump2, _, top2, best2 = settle(c, k, me, led, trump, -1, top, best)
        hands[me] &= ~b
        out_c[m] = c
        out_v[m] = _search(
            hands,
            k + 1,
            led2,
            trump2,
            top2,
            best2,
            leader,
            tmask | b,
            tplain + JASS_PLAIN[c & 15],
            won,
            tricks,
            plain,
            me,
            np.int64(WORST),
            np.int64(BEST),
            work,
        )
        hands[me] |= b
        m += 1
    return m
