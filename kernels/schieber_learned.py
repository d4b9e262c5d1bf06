"""The ``learned`` Schieber player's card: a linear score over features of each legal card.

The features see what the seat has seen only: its hand, the cards played
(``played``), the trick so far (its first card ``lead``, the winning card
``win_card`` at ``win_pos`` with strength ``win_str``, its points
``trick_pts``), the seat's place ``pos`` in it, the contract and whether the
seat's team chose it, the tricks left, and the seats shown void in a suit
(``voids``: bit 4 * seat + suit, set when a seat played neither the led suit
nor a trump). ``FEATURES`` names them; ``card_features`` computes one card's.

The seat plays the legal card of the highest score, the weights times the
features (ties: the lowest card code). The weights are integers (the fitted
ones times ``cardmc.learning.SCALE``) and reach the kernel as data: the tail of the game's
``params`` from ``P_WEIGHTS`` (``cardmc.schieber``'s spec appends them from
``data/learned_schieber.csv``; ``cardmc.train`` fits them).
"""

from __future__ import annotations

import numpy as np

from cardmc.kernels.bits import ONE, ZERO, lowest, popcount
from cardmc.kernels.cards import FULL36, JACK, NINE
from cardmc.kernels.jit import jit
from cardmc.kernels.tricks import SUIT16, strength

FEATURES = (
    "lead_master",  # leading: the card is the highest of its suit still out
    "lead_master_points",
    "lead_trump",
    "lead_trump_chose",  # leading a trump, the seat's team chose the contract
    "lead_trump_out",  # leading a trump while trumps are still out
    "lead_points",
    "lead_length",  # leading: the card's suit's length in hand
    "lead_opponent_void",  # leading a suit an opponent is shown void in
    "lead_partner_void",
    "lead_rank",  # leading: the card's rank in its suit (0 lowest .. 8 highest)
    "lead_trump_jack_nine",
    "wins",  # following: the card would win the trick now
    "wins_opponent",  # wins a trick an opponent is winning
    "wins_opponent_points",  # the same times the points on the table
    "wins_trump",
    "wins_last_seat",
    "wins_master",
    "wins_points",  # a winning card's own points
    "points_partner",  # the card's points while the partner wins the trick
    "points_partner_safe",  # the same while the partner's card is sure to win (or the seat is last)
    "points_opponent",  # the card's points on a trick it does not win from an opponent
    "points_opponent_last",  # the same at the last seat (the trick is lost)
    "overtakes_partner",
    "follow_trump",
    "follow_master",
    "follow_rank",
    "points",
    "trump_jack_nine",
    "lowest",  # the lowest card of its suit in hand
    "highest",
    "length",
    "trump_trumps_held",  # a trump, times the trumps in hand
    "trump_tricks_left",
    "wins_last_trick",  # wins the ninth trick (5 points more)
    "master_no_trumps_out",  # a side suit's master when no trump is out
    "discard",  # neither the led suit nor a trump
    "discard_points",
    "discard_length",
    "follow_loses_rank",  # following without winning: the card's rank
    "wins_rank",  # winning: the card's rank (win cheaply)
    "lead_master_no_trump",  # leading a master in Obenabe or Undenufe
    "lead_suit_out",  # leading: the cards of its suit still out
    "lead_singleton",  # leading a single side card while holding trumps
    "wins_second_seat",
    "trumps_partner",  # a trump on the partner's trick
    "ruffs",  # wins a plain lead with a trump
    "wins_before_void",  # wins at the second or third seat, the next seat shown void in the led suit
    "lead_length_no_trump",  # leading in Obenabe or Undenufe: the suit's length in hand
    "discard_length_no_trump",
    "lead_trump_majority",  # leading a trump while holding more trumps than are out
    "lead_master_trumps_out",  # leading a side suit's master while trumps are out
)
NF = len(FEATURES)


@jit(inline="always")
def card_features(
    card, hand, played, voids, seat, lead, win_card, pos, win_pos, win_str, trick_pts, left, contract, chose,
    stronger, points, f,
):  # fmt: skip
    """Write the features of ``card`` into ``f`` (``FEATURES``' order); ``stronger`` and ``points`` are the
    contract's rows of ``STRONGER`` and ``POINTS`` (the count in force)."""
    trump = contract if contract < 4 else -1
    order = 1 if contract == 5 else 0  # tricks.REVERSED in Undenufe
    suit = card >> 4
    b = ONE << np.uint64(card)
    smask = SUIT16 << np.uint64(16 * suit)
    tmask = SUIT16 << np.uint64(16 * trump) if trump >= 0 else ZERO
    unseen = np.uint64(FULL36) & ~played & ~hand
    trumps_out = popcount(unseen & tmask)
    above = stronger[card]
    p = points[card]
    t = 1 if suit == trump else 0
    master = 1 if above & unseen == ZERO else 0
    rank = 8 - popcount(above)
    length = popcount(hand & smask)
    low = 1 if hand & smask & ~above & ~b == ZERO else 0
    high = 1 if hand & above == ZERO else 0
    jn = 1 if t == 1 and ((card & 15) == JACK or (card & 15) == NINE) else 0
    lead_ = 1 if pos == 0 else 0
    follow = 1 - lead_
    opp_void = (voids >> (4 * ((seat + 1) & 3) + suit) | voids >> (4 * ((seat + 3) & 3) + suit)) & 1
    partner_void = (voids >> (4 * (seat ^ 2) + suit)) & 1
    led = lead >> 4
    w = 1 if pos > 0 and strength(card, led, trump, order) > win_str else 0
    pw = 1 if pos >= 2 and win_pos == pos - 2 else 0
    ow = follow - pw
    last = 1 if pos == 3 else 0
    safe = 0
    if pw == 1:
        wsuit = win_card >> 4
        sure = stronger[win_card] & unseen == ZERO and (trump < 0 or wsuit == trump or trumps_out == 0)
        safe = 1 if last == 1 or sure else 0
    disc = 1 if follow == 1 and suit != led and t == 0 else 0
    f[0] = lead_ * master
    f[1] = lead_ * master * p
    f[2] = lead_ * t
    f[3] = lead_ * t * (1 if chose else 0)
    f[4] = lead_ * t * (1 if trumps_out > 0 else 0)
    f[5] = lead_ * p
    f[6] = lead_ * length
    f[7] = lead_ * opp_void
    f[8] = lead_ * partner_void
    f[9] = lead_ * rank
    f[10] = lead_ * jn
    f[11] = w
    f[12] = w * ow
    f[13] = w * ow * trick_pts
    f[14] = w * t
    f[15] = w * last
    f[16] = w * master
    f[17] = w * p
    f[18] = pw * p
    f[19] = safe * p
    f[20] = ow * (1 - w) * p
    f[21] = ow * (1 - w) * last * p
    f[22] = pw * w
    f[23] = follow * t
    f[24] = follow * master
    f[25] = follow * rank
    f[26] = p
    f[27] = jn
    f[28] = low
    f[29] = high
    f[30] = length
    f[31] = t * popcount(hand & tmask)
    f[32] = t * left
    f[33] = w * (1 if left == 1 else 0)
    f[34] = (1 - t) * master * (1 if trumps_out == 0 else 0)
    f[35] = disc
    f[36] = disc * p
    f[37] = disc * length
    f[38] = follow * (1 - w) * rank
    f[39] = w * rank
    f[40] = lead_ * master * (1 if trump < 0 else 0)
    f[41] = lead_ * popcount(unseen & smask)
    f[42] = lead_ * (1 - t) * (1 if length == 1 and hand & tmask != ZERO else 0)
    f[43] = w * (1 if pos == 1 else 0)
    f[44] = pw * t
    f[45] = w * t * (1 if led != trump else 0)
    f[46] = w * (1 if (pos == 1 or pos == 2) and voids >> (4 * ((seat + 1) & 3) + led) & 1 else 0)
    no_trump = 1 if trump < 0 else 0
    f[47] = lead_ * length * no_trump
    f[48] = disc * length * no_trump
    f[49] = lead_ * t * (1 if popcount(hand & tmask) > trumps_out else 0)
    f[50] = lead_ * (1 - t) * master * (1 if trumps_out > 0 else 0)


@jit(inline="always")
def learned_card(
    hand, legal, played, voids, seat, lead, win_card, pos, win_pos, win_str, trick_pts, left, contract, chose,
    stronger, points, weights,
):  # fmt: skip
    """The legal card of the highest score ``weights`` . ``card_features`` (ties: the lowest code)."""
    if legal & (legal - ONE) == ZERO:
        return lowest(legal)
    best, best_v = -1, np.int64(0)
    f = np.empty(NF, np.int64)
    m = legal
    while m != ZERO:
        c = lowest(m)
        m &= m - ONE
        card_features(
            c, hand, played, voids, seat, lead, win_card, pos, win_pos, win_str, trick_pts, left, contract,
            chose, stronger, points, f,
        )  # fmt: skip
        v = np.int64(0)
        for i in range(NF):
            v += weights[i] * f[i]
        if best < 0 or v > best_v:
            best, best_v = c, v
    return best


# ------------------------------------------------------------------ contracts
# The learned player's contract: the heuristic's hand features (``schieber.contract_features``: rows of
# ``schieber.SUIT_FEATURES`` summed over the suits), weighed by weights fitted to the chooser team's card
# points under the learned player's own play, a row of NCONTRACT_ROW per family (trump, Obenabe, Undenufe,
# Undenufe with the six count), each the fitted weight times CONTRACT_SCALE; after them the push threshold.
NCONTRACT_ROW = 10  # schieber.NFEAT
NCONTRACT = 4 * NCONTRACT_ROW
CONTRACT_SCALE = 10
NLEARNED = NF + NCONTRACT + 1  # the learned block of ``params``: cards, contracts, push threshold


@jit(inline="always")
def contract_estimate(hand, row, trump, suit_features, cw):
    """The chooser team's card points the contract weights ``cw`` estimate for ``hand`` (``row`` of the
    family: 0 a trump contract with ``trump`` its suit, 1 Obenabe, 2 Undenufe, 3 Undenufe with the six
    count)."""
    e = np.int64(0)
    for s in range(4):
        p = int(hand >> np.uint64(16 * s + 4)) & 0x1FF
        mode = (0 if s == trump else 1) if row == 0 else (2 if row == 1 else 3)
        for i in range(1, NCONTRACT_ROW):
            e += cw[row * NCONTRACT_ROW + i] * np.int64(suit_features[mode, p, i])
    return (e + cw[row * NCONTRACT_ROW]) / CONTRACT_SCALE
