"""The ``learned`` Norwegian Jazz player's card: a linear score over features of each legal card.

Deals 1-5 (the trick deals): the features see what the seat has seen only:
its hand, the cards still in the other hands (``unseen``: the deal's cards
neither played nor its own), the seats shown void in a suit (``voids``: bit
4 * seat + suit, set when a seat did not follow the led suit), the trick so
far (its cards ``trick``, the winning card ``best``, the seat's place
``pos``), the tricks left, the deal's penalty cards ``pen`` and the card the
heuristic plays there (``heur``). ``TRICK_FEATURES`` names them, and
``trick_features`` computes one card's; each deal has its own weights for
them (``FEATURES``: ``deal1_wins`` ... ``deal5_lowest``), so one feature
weighs as the deal's penalty makes it.

Deal 6 (sevens): ``SEVENS_FEATURES`` of ``cardmc.kernels.sevens``
(``sevens_features``), with weights of their own (``sevens_*``).

The seat plays the legal card of the highest score, the weights times the
features (ties: the heuristic's card if it is among them, else the lowest
card code; with all of a deal's weights 0 the seat plays that deal as the
heuristic). The weights are integers (the fitted ones times
``cardmc.learning.SCALE``) and reach the kernel as data: the tail of the
game's ``params`` from ``P_WEIGHTS`` (``cardmc.norwegian_jazz``'s spec
appends them from ``data/learned_norwegian_jazz.csv``; ``cardmc.train``
fits them).
"""

from __future__ import annotations

import numpy as np

from cardmc.kernels.bits import ONE, ZERO, bit, lowest, popcount
from cardmc.kernels.jit import jit
from cardmc.kernels.sevens import SEVENS_FEATURES

SUIT16 = np.uint64(0xFFFF)

TRICK_FEATURES = (
    "heuristic",  # the heuristic's card
    "wins",  # following: the card would win the trick now
    "wins_last",  # wins at the last seat: the trick is taken
    "wins_penalty",  # wins, times the penalty units of the trick with the card
    "penalty",  # the card's own penalty units
    "discard_penalty",  # not following the led suit: the card's penalty units
    "discard_rank",  # not following: the card's rank (0 the two .. 12 the ace)
    "duck_rank",  # following under the winning card: its rank
    "wins_rank",  # winning: its rank
    "lead_rank",
    "lead_above",  # leading: the unseen cards of its suit above it
    "lead_below",  # leading: the unseen cards of its suit below it
    "catch_risk",  # the unseen penalty cards of its suit below it
    "lead_length",  # leading: the suit's length in hand
    "lead_voids",  # leading: the other seats shown void in its suit
    "rank_end",  # its rank, with two tricks left or fewer
    "master",  # no unseen card of its suit above it
    "wins_overtaken",  # wins with seats still to play: the unseen cards of its suit above it
    "singleton",  # the only card of its suit in hand
    "lowest",  # the lowest card of its suit in hand
)
NB = len(TRICK_FEATURES)
TRICK_DEALS = 5
FEATURES = tuple(f"deal{d}_{name}" for d in range(1, TRICK_DEALS + 1) for name in TRICK_FEATURES) + tuple(
    f"sevens_{name}" for name in SEVENS_FEATURES
)
NF = len(FEATURES)
SEVENS_AT = TRICK_DEALS * NB  # the sevens weights' place in the weights


@jit(inline="always")
def trick_features(card, heur, hand, unseen, voids, seat, n, number, pen, trick, best, pos, left, f):
    """Write the trick features of ``card`` into ``f`` (``TRICK_FEATURES``' order); ``best``: the winning card
    of the trick so far (any when leading)."""
    suit = card >> 4
    rank = card & 15
    b = bit(card)
    smask = SUIT16 << np.uint64(16 * suit)
    above = smask & ~((b << ONE) - ONE)
    below = smask & (b - ONE)
    lead_ = 1 if pos == 0 else 0
    led = best >> 4
    follow = 1 if pos > 0 and suit == led else 0
    void = 1 if pos > 0 and suit != led else 0
    w = 1 if follow == 1 and card > best else 0
    p = 1 if b & pen != ZERO else 0
    if number == 1:
        taken = 1
    elif number == 5:
        taken = 1 if left == 1 else 0
    else:
        taken = popcount((trick | b) & pen)
    above_out = popcount(unseen & above)
    length = popcount(hand & smask)
    shown = 0
    for o in range(n):
        shown += (voids >> (4 * o + suit)) & 1 if o != seat else 0
    f[0] = 1 if card == heur else 0
    f[1] = w
    f[2] = w * (1 if pos == n - 1 else 0)
    f[3] = w * taken
    f[4] = p
    f[5] = void * p
    f[6] = void * rank
    f[7] = follow * (1 - w) * rank
    f[8] = w * rank
    f[9] = lead_ * rank
    f[10] = lead_ * above_out
    f[11] = lead_ * popcount(unseen & below)
    f[12] = popcount(unseen & below & pen)
    f[13] = lead_ * length
    f[14] = lead_ * shown
    f[15] = rank if left <= 2 else 0
    f[16] = 1 if above_out == 0 else 0
    f[17] = w * above_out * (1 if pos < n - 1 else 0)
    f[18] = 1 if length == 1 else 0
    f[19] = 1 if hand & below == ZERO else 0


@jit(inline="always")
def learned_trick_card(
    hand, legal, heur, unseen, voids, seat, n, number, pen, trick, best, pos, left, weights
):
    """The legal card of the highest score, deal ``number``'s ``weights`` . ``trick_features`` (ties: ``heur``,
    the heuristic's card, if it is among them, else the lowest code)."""
    if legal & (legal - ONE) == ZERO:
        return lowest(legal)
    at = (number - 1) * NB
    best_c, best_v, heur_v = -1, np.int64(0), np.int64(0)
    f = np.empty(NB, np.int64)
    m = legal
    while m != ZERO:
        c = lowest(m)
        m &= m - ONE
        trick_features(c, heur, hand, unseen, voids, seat, n, number, pen, trick, best, pos, left, f)
        v = np.int64(0)
        for i in range(NB):
            v += weights[at + i] * f[i]
        if c == heur:
            heur_v = v
        if best_c < 0 or v > best_v:
            best_c, best_v = c, v
    return heur if heur_v == best_v and legal & bit(heur) != ZERO else best_c
