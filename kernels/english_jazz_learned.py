"""The ``learned`` English Jazz player's card: a linear score over features of each legal card.

The features see what the seat has seen only: its hand, the cards played
(``unseen``: the cards neither played nor in hand), the trick so far (the led
suit ``led``, the top strength ``top``, its card points ``trick_pts``, the
seat winning it ``win_seat``), the trump (-1 until the play sets it), the
tricks and card points each seat took so far this deal, the tricks left, the
seats shown void in a suit (``voids``: bit 4 * seat + suit, set when a seat
did not follow that led suit) and the card the heuristic plays there
(``hc``). What the rules A-E reward is in them: a trick while the seat has
none (B), every trick so far (A), more than 100 points (C), the seat's points
against the others' (E, the middle scores -2). ``FEATURES`` names them;
``card_features`` computes one card's.

The seat plays the legal card of the highest score, the weights times the
features (ties: the lowest card code). The weights are integers (the fitted
ones times ``cardmc.learning.SCALE``) and reach the kernel as data: the tail
of the game's ``params`` from ``P_WEIGHTS`` (``cardmc.english_jazz``'s spec
appends them from ``data/learned_english_jazz.csv``; ``cardmc.train`` fits
them).
"""

from __future__ import annotations

import numpy as np

from cardmc.kernels.bits import ONE, ZERO, bit, lowest, popcount
from cardmc.kernels.cards import JACK, NINE
from cardmc.kernels.jit import jit
from cardmc.kernels.tricks import JASS_PLAIN, JASS_TRUMP, SUIT16, TRUMP_BASE, TRUMP_STRENGTH, TRUMPS_ABOVE

TRICKS = 12
OVER = 100  # rule C: more than this many card points

FEATURES = (
    "heuristic",  # the heuristic's card
    "wins",  # following: the card wins the trick so far (a card that sets trump does)
    "wins_last",  # wins at the last seat: the trick is the seat's
    "wins_no_trick",  # wins while the seat has no trick yet (rule B)
    "wins_every_trick",  # wins while the seat has taken every trick so far, one at least (rule A)
    "wins_over_100",  # winning the trick so far would put the seat over 100 card points (rule C)
    "wins_points_top",  # the trick's points with the card, won while the seat has more than both others
    "wins_points_middle",  # ... while it has neither more nor less than both (rule E's middle, or a tie)
    "wins_points_bottom",  # ... while it has less than both
    "wins_to_middle",  # won, the seat's points would lie strictly between the others'
    "wins_to_top",  # won, they would be more than both others'
    "wins_from_no_trick",  # wins a trick that a seat without a trick is winning (keeps it at none, rule B)
    "wins_trump",
    "wins_rank",  # winning: the card's rank in its suit (0 lowest .. 8 highest; trump order for trumps)
    "wins_tricks_left",
    "loses_points",  # following without winning: the card's points
    "loses_points_last",  # the same at the last seat (the points go to the trick's winner)
    "loses_to_no_trick",  # following without winning while a seat without a trick wins the trick so far
    "loses_over_100",  # ... and the trick so far with the card would put its winner over 100
    "sets_trump",  # the card would set trump (the seat cannot follow, trump is not set)
    "sets_length",  # ... times the length in hand of the suit it would make trump
    "sets_jack_nine",  # ... times that suit's J and 9 in hand
    "sets_rank",  # ... times the card's rank in trump order
    "lead_master",  # leading: no unseen card of its suit beats the card
    "lead_master_points",
    "lead_points",
    "lead_length",  # leading: the suit's length in hand
    "lead_rank",
    "lead_trump",
    "lead_next_void",  # leading a suit one of the other two is shown void in
    "lead_suit_out",  # leading: the unseen cards of its suit
    "lead_master_no_trick",  # leading a master while the seat has no trick
    "lead_master_top",  # leading a master while the seat has more points than both others
    "lead_trumps_out",  # leading a trump while trumps are unseen
    "points",  # the card's points (the trump column for a trump, or for the suit it would make trump)
    "trump",  # the card is a trump once played
    "master",
    "rank",
    "length",
    "lowest",  # the lowest card of its suit in hand
    "highest",
    "discard",  # following, neither the led suit nor a trump
    "discard_points",
    "discard_length",
    "trump_tricks_left",  # a trump, times the tricks left
    "wins_points",  # winning: the trick's points with the card
    "wins_no_trick_tricks_left",  # wins while the seat has no trick, times the tricks left
)
NF = len(FEATURES)


@jit(inline="always")
def _rank(card, trump):
    """The card's rank in its suit, 0 lowest .. 8 highest (trump order when its suit is ``trump``)."""
    r = card & 15
    return TRUMP_STRENGTH[r] if card >> 4 == trump else r - 4


@jit(inline="always")
def _above(card, trump):
    """The cards of the card's suit that beat it (trump order when its suit is ``trump``)."""
    r = card & 15
    sh = np.uint64(16 * (card >> 4))
    if card >> 4 == trump:
        return TRUMPS_ABOVE[r] << sh
    return (SUIT16 & ~((ONE << np.uint64(r + 1)) - ONE)) << sh


@jit(inline="always")
def card_features(
    card, hand, unseen, voids, seat, k, led, trump, top, trick_pts, win_seat, win_tricks, win_pts, taken, mine,
    lo, hi, left, hc,
):  # fmt: skip
    """The features of ``card``, a tuple in ``FEATURES``' order (not an array: nothing to allocate). ``k``:
    the seat's place in the trick (0 leads); ``win_seat``, ``win_tricks``, ``win_pts``: the seat winning the
    trick so far, its tricks and card points (-1, 0, 0 on the lead); ``taken`` and ``mine`` the seat's tricks
    and points, ``lo`` and ``hi`` the others' fewer and more points."""
    suit = card >> 4
    lead_ = 1 if k == 0 else 0
    follow = 1 - lead_
    sets = 1 if follow == 1 and trump < 0 and suit != led else 0
    tn = suit if sets == 1 else trump  # the trump once the card is played
    t = 1 if suit == tn else 0
    r = card & 15
    p = JASS_TRUMP[r] if t == 1 else JASS_PLAIN[r]
    smask = SUIT16 << np.uint64(16 * suit)
    above = _above(card, tn)
    rank = _rank(card, tn)
    master = 1 if above & unseen == ZERO else 0
    length = popcount(hand & smask)
    low = 1 if hand & smask & ~above & ~bit(card) == ZERO else 0
    high = 1 if hand & above == ZERO else 0
    strength = TRUMP_BASE + TRUMP_STRENGTH[r] if t == 1 else (r if suit == led else -1)
    w = 1 if follow == 1 and strength > top else 0
    last = 1 if k == 2 else 0
    gain = trick_pts + p
    after = mine + gain
    no_trick = 1 if taken == 0 else 0
    done = TRICKS - left
    sweeping = 1 if taken == done and done > 0 else 0
    top_ = 1 if mine > hi else 0
    bottom = 1 if mine < lo else 0
    middle = 1 - top_ - bottom
    winner_none = 1 if follow == 1 and win_tricks == 0 and win_seat != seat else 0
    lose = follow * (1 - w)
    disc = 1 if follow == 1 and suit != led and t == 0 else 0
    nj = popcount(hand & (bit(16 * suit + JACK) | bit(16 * suit + NINE))) if sets == 1 else 0
    next_void = 0
    for o in range(1, 3):
        s = seat + o
        s = s - 3 if s >= 3 else s
        next_void |= (voids >> (4 * s + suit)) & 1
    f0 = 1 if card == hc else 0
    f1 = w
    f2 = w * last
    f3 = w * no_trick
    f4 = w * sweeping
    f5 = w * (1 if after > OVER else 0)
    f6 = w * gain * top_
    f7 = w * gain * middle
    f8 = w * gain * bottom
    f9 = w * (1 if lo < after < hi else 0)
    f10 = w * (1 if after > hi else 0)
    f11 = w * winner_none
    f12 = w * t
    f13 = w * rank
    f14 = w * left
    f15 = lose * p
    f16 = lose * last * p
    f17 = lose * winner_none
    f18 = lose * (1 if win_pts + gain > OVER else 0)
    f19 = sets
    f20 = sets * length
    f21 = sets * nj
    f22 = sets * rank
    f23 = lead_ * master
    f24 = lead_ * master * p
    f25 = lead_ * p
    f26 = lead_ * length
    f27 = lead_ * rank
    f28 = lead_ * t
    f29 = lead_ * next_void
    f30 = lead_ * popcount(unseen & smask)
    f31 = lead_ * master * no_trick
    f32 = lead_ * master * top_
    f33 = lead_ * t * (1 if unseen & smask != ZERO else 0)
    f34 = p
    f35 = t
    f36 = master
    f37 = rank
    f38 = length
    f39 = low
    f40 = high
    f41 = disc
    f42 = disc * p
    f43 = disc * length
    f44 = t * left
    f45 = w * gain
    f46 = w * no_trick * left
    return (
        f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
        f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41,
        f42, f43, f44, f45, f46,
    )  # fmt: skip


@jit(inline="always")
def score(w, f):
    """The weights ``w`` times the features ``f`` (``card_features``' tuple), written out: a loop would index
    the tuple at run time, which costs most of the player's time."""
    return (
        w[0] * f[0] + w[1] * f[1] + w[2] * f[2] + w[3] * f[3] + w[4] * f[4] + w[5] * f[5] + w[6] * f[6]
        + w[7] * f[7] + w[8] * f[8] + w[9] * f[9] + w[10] * f[10] + w[11] * f[11] + w[12] * f[12] +
        w[13] * f[13] + w[14] * f[14] + w[15] * f[15] + w[16] * f[16] + w[17] * f[17] + w[18] * f[18] +
        w[19] * f[19] + w[20] * f[20] + w[21] * f[21] + w[22] * f[22] + w[23] * f[23] + w[24] * f[24] +
        w[25] * f[25] + w[26] * f[26] + w[27] * f[27] + w[28] * f[28] + w[29] * f[29] + w[30] * f[30] +
        w[31] * f[31] + w[32] * f[32] + w[33] * f[33] + w[34] * f[34] + w[35] * f[35] + w[36] * f[36] +
        w[37] * f[37] + w[38] * f[38] + w[39] * f[39] + w[40] * f[40] + w[41] * f[41] + w[42] * f[42] +
        w[43] * f[43] + w[44] * f[44] + w[45] * f[45] + w[46] * f[46]
    )  # fmt: skip


@jit(inline="always")
def learned_card(
    hand, legal, unseen, voids, seat, k, led, trump, top, trick_pts, win_seat, win_tricks, win_pts, taken, mine,
    lo, hi, left, hc, weights,
):  # fmt: skip
    """The legal card of the highest score ``weights`` . ``card_features`` (ties: the lowest code)."""
    if legal & (legal - ONE) == ZERO:
        return lowest(legal)
    best, best_v = -1, np.int64(0)
    m = legal
    while m != ZERO:
        c = lowest(m)
        m &= m - ONE
        f = card_features(
            c, hand, unseen, voids, seat, k, led, trump, top, trick_pts, win_seat, win_tricks, win_pts, taken,
            mine, lo, hi, left, hc,
        )  # fmt: skip
        v = score(weights, f)
        if best < 0 or v > best_v:
            best, best_v = c, v
    return best
