"""The ``learned`` Differenzler player's card: a linear score over features of each legal card.

The features see what the seat has seen only: its hand, the cards not in it
nor played (``unseen``), the trick so far (its led suit ``led``, the cards
``beat`` that would beat its winning card, its points ``pot`` with the last
trick's 5), the seat's place ``n`` in it, the trump, the tricks left, the
seat's declaration and the points it has made this deal (``need``: declared
minus made), and the card the heuristic would play there (``heur``). The
points a card takes with the trick, and how much nearer that brings the seat
to its declaration (``gain``: |need| - |need - taken|), carry the objective:
the penalty |declared - made|. ``FEATURES`` names them; ``card_features``
computes one card's.

The seat plays the legal card of the highest score, the weights times the
features (ties: the lowest card code), at every trick: its labels come from
the last five (the search player's default depth), the tricks before are
the model's extrapolation. Measured against seats declaring as
``calibrated``, scoring only the last five tricks (the heuristic's card
before, as the search player plays) kept the seat's own penalty lower but
widened the paired gap less: the learned play of the first tricks costs the
other seats more than the seat. The weights are integers (the fitted
ones times ``cardmc.learning.SCALE``) and reach the kernel as data: the tail
of the game's ``params`` from ``P_WEIGHTS`` (``cardmc.differenzler``'s spec
appends them from ``data/learned_differenzler.csv``; ``cardmc.train`` fits
them), followed there by the learned player's declaration table.
"""

from __future__ import annotations

import numpy as np

from cardmc.kernels.bits import ONE, ZERO, lowest, popcount
from cardmc.kernels.cards import ACE, FULL36, JACK, KING, NINE, QUEEN, TEN
from cardmc.kernels.jit import jit
from cardmc.kernels.tricks import SUIT16

FEATURES = (
    "heuristic",  # the card the heuristic plays here
    "heuristic_left",  # the same times the tricks left after this one
    "lead",
    "wins",  # following: the card would win the trick now
    "sure",  # the card takes the trick whatever the later seats hold (leading or winning)
    "sure_gain",  # sure: how much nearer the declaration the trick's points bring the seat
    "wins_gain",  # winning now but not surely: the same
    "wins_need",  # winning: the points the seat still needs
    "lead_need",
    "trump_need",
    "points",  # the card's points
    "points_reached",  # the card's points once the declaration is reached (need <= 0)
    "points_given",  # following without winning: the card's points (to another seat)
    "points_given_short",  # the same while the seat is short of its declaration
    "trump",
    "lead_trump",
    "beaters_out",  # the unseen cards that would beat the card winning a trick
    "higher_out",  # the unseen cards of its suit above it
    "lead_beaters_out",
    "wins_last_seat",
    "wins_last_trick",  # wins the ninth trick (5 points more)
    "length",  # the card's suit's length in hand
    "lowest",  # the lowest card of its suit in hand
    "highest",
    "discard",  # neither the led suit nor a trump
    "discard_points",
    "trump_trumps_held",  # a trump, times the trumps in hand
    "wins_left",  # winning, times the tricks left
    "sure_pot",  # sure: the points already on the table
    "wins_taken_reached",  # winning once the declaration is reached: the trick's points with the card
    "loses_rank",  # following without winning: the card's rank (0 lowest .. 8 highest)
    "wins_rank",  # winning: the card's rank
    "trump_left",  # a trump, times the tricks left
    "lead_short_gain",  # leading while short: what a sure trick of the card's own points would bring
    "wins_short",  # winning: the points the seat still needs, while short
    "wins_over",  # winning: the points the seat is past its declaration
    "sure_short_after",  # sure: the points still needed after the trick
    "sure_over_after",  # sure: the points past the declaration after the trick
    "master",  # no unseen card would beat the card winning a trick
    "master_short",  # the same while short
    "master_points_short",  # the same, times the card's points
    "sure_gain_left",  # sure_gain times the tricks left
    "wins_hungry",  # winning: four times the points still needed less the points still to be taken this deal
    "lead_master_hungry",  # leading a card no unseen card beats: the same
)
NF = len(FEATURES)
LAST_TRICK = 5
ACES, TENS, KINGS, QUEENS, JACKS, NINES = (
    np.uint64(sum(1 << (16 * s + r) for s in range(4))) for r in (ACE, TEN, KING, QUEEN, JACK, NINE)
)


@jit(inline="always")
def points_of(cards, trump):
    """The card points of ``cards`` (a mask) under ``trump``, counted by rank with a few popcounts."""
    tmask = SUIT16 << np.uint64(16 * trump)
    plain = 11 * popcount(cards & ACES) + 10 * popcount(cards & TENS) + 4 * popcount(cards & KINGS)
    plain += 3 * popcount(cards & QUEENS) + 2 * popcount(cards & JACKS & ~tmask)
    return plain + 20 * popcount(cards & JACKS & tmask) + 14 * popcount(cards & NINES & tmask)


DECK = np.uint64(FULL36)


@jit(inline="always")
def card_features(card, hand, n, led, beat, pot, trump, need, left, unseen, heur, beaters, higher, points, f):
    """Write the features of ``card`` into ``f`` (``FEATURES``' order); ``beaters``, ``higher`` and ``points``
    are the trump's rows of ``differenzler.BEATERS``, ``HIGHER`` and ``POINTS`` (indexed by the card)."""
    suit = card >> 4
    b = ONE << np.uint64(card)
    out = unseen & DECK
    smask = SUIT16 << np.uint64(16 * suit)
    t = 1 if suit == trump else 0
    p = points[card]
    lead_ = 1 if n == 0 else 0
    follow = 1 - lead_
    w = 1 if n > 0 and beat & b != ZERO else 0
    bo = popcount(beaters[card] & out)
    ho = popcount(higher[card] & out)
    rank = 8 - popcount(higher[card] & DECK)
    sure = 1 if (lead_ == 1 or w == 1) and (n == 3 or bo == 0) else 0
    taken = pot + p
    gain = abs(need) - abs(need - taken)
    short = 1 if need > 0 else 0
    length = popcount(hand & smask)
    above = higher[card] & hand
    low = 1 if hand & smask & ~higher[card] & ~b == ZERO else 0
    disc = 1 if follow == 1 and suit != led and t == 0 else 0
    h = 1 if card == heur else 0
    f[0] = h
    f[1] = h * (left - 1)
    f[2] = lead_
    f[3] = w
    f[4] = sure
    f[5] = sure * gain
    f[6] = w * (1 - sure) * gain
    f[7] = w * need
    f[8] = lead_ * need
    f[9] = t * need
    f[10] = p
    f[11] = p * (1 - short)
    f[12] = follow * (1 - w) * p
    f[13] = follow * (1 - w) * p * short
    f[14] = t
    f[15] = lead_ * t
    f[16] = bo
    f[17] = ho
    f[18] = lead_ * bo
    f[19] = w * (1 if n == 3 else 0)
    f[20] = w * (1 if left == 1 else 0)
    f[21] = length
    f[22] = low
    f[23] = 1 if above == ZERO else 0
    f[24] = disc
    f[25] = disc * p
    f[26] = t * popcount(hand & (SUIT16 << np.uint64(16 * trump)))
    f[27] = w * left
    f[28] = sure * pot
    f[29] = w * (1 - short) * taken
    f[30] = follow * (1 - w) * rank
    f[31] = w * rank
    f[32] = t * left
    f[33] = lead_ * short * (abs(need) - abs(need - taken))
    f[34] = w * short * need
    f[35] = w * (1 - short) * -need
    f[36] = sure * max(need - taken, 0)
    f[37] = sure * max(taken - need, 0)
    ms = 1 if bo == 0 else 0
    f[38] = ms
    f[39] = ms * short
    f[40] = ms * short * p
    f[41] = sure * gain * left
    rest = (LAST_TRICK if left > 1 else 0) + points_of((out | hand) & DECK, trump)
    hungry = 4 * need - rest - pot
    f[42] = w * hungry
    f[43] = lead_ * ms * hungry


@jit(inline="always")
def learned_card(
    hand, legal, n, led, beat, pot, trump, need, left, unseen, heur, beaters, higher, points, weights
):
    """The legal card of the highest score ``weights`` . ``card_features`` (ties: the lowest code)."""
    if legal & (legal - ONE) == ZERO:
        return lowest(legal)
    best, best_v = -1, np.int64(0)
    f = np.empty(NF, np.int64)
    m = legal
    while m != ZERO:
        c = lowest(m)
        m &= m - ONE
        card_features(c, hand, n, led, beat, pot, trump, need, left, unseen, heur, beaters, higher, points, f)
        v = np.int64(0)
        for i in range(NF):
            v += weights[i] * f[i]
        if best < 0 or v > best_v:
            best, best_v = c, v
    return best
