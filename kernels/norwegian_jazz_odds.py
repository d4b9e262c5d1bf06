"""Norwegian Jazz hand odds: one deal played again and again with some cards fixed.

``odds_deals`` plays deal ``number`` (1..6) of a game with ``players`` seats
and dealer ``dealer``: the fixed cards of each seat stay, the rest of the
deal's deck (the adjusted deck of deals 1-5, all 52 cards for sevens) is
dealt uniformly by ``cardmc.kernels.condition.deal_given`` from stream
``(seed, i, number - 1, DEAL)``, and the deal is played by the game kernel's
own per-deal functions (``trick_deal_from``, ``sevens_from``) with the random
choices from stream ``(seed, i, number - 1, PLAY)``, as deal ``number`` of a
game draws them. Sample deal i is the same cards under every rule option and
policy, so options are compared on the same deals. ``odds_deal_pimc`` plays
one sample deal traced, with the search player's seats scripted
(``cardmc.pimc``).
"""

from __future__ import annotations

import numpy as np

from cardmc.kernels import rng
from cardmc.kernels.bits import ZERO
from cardmc.kernels.condition import deal_given
from cardmc.kernels.events import EV_DEAL, EV_HAND
from cardmc.kernels.jit import in_shares, jit
from cardmc.kernels.norwegian_jazz import (
    POLICY_LEARNED,
    POLICY_SCRIPTED,
    UNIT_SCORE,
    heuristic_seats,
    learned_seats,
    trick_deal_from,
)
from cardmc.kernels.norwegian_jazz_learned import SEVENS_AT
from cardmc.kernels.script import start as start_script
from cardmc.kernels.sevens import record, sevens_from

# output columns, one row per sample deal
O_SCORE, O_TRICKS, O_TAKEN, O_PASSES, O_FIRST_OUT, O_SIZE = range(6)
SLICE = 1024  # sample deals a slice


def odds_deals(
    seed,
    start,
    count,
    players,
    number,
    dealer,
    seat,
    deck,
    fixed,
    sizes,
    bonus,
    play_out,
    stop_early,
    policies,
    weights=None,
):
    """Sample deals start..start+count-1 of deal ``number`` with the seats'
    cards ``fixed`` (masks, ``sizes[s]`` cards each, drawn from mask ``deck``);
    ``policies`` as for ``play_games``, the learned seats by ``weights``
    (default: the shipped ones, ``cardmc.norwegian_jazz_learned``). Returns int16 (count, O_SIZE): the
    score of ``seat`` in the deal, its tricks and penalty units (deals 1-5),
    its passes and whether it went out first (deal 6). Slices of ``SLICE``
    deals run side by side."""
    if weights is None:
        weights = np.zeros(0, np.int64)
        if (np.asarray(policies)[:, 0] == POLICY_LEARNED).any():
            from cardmc.norwegian_jazz_learned import shipped_weights

            weights = shipped_weights()
    out = np.zeros((count, O_SIZE), np.int16)
    in_shares(
        lambda lo, hi: _odds_deals_slices(
            seed,
            start,
            count,
            players,
            number,
            dealer,
            seat,
            deck,
            fixed,
            sizes,
            bonus,
            play_out,
            stop_early,
            policies,
            np.asarray(weights, np.int64),
            out,
            lo,
            hi,
        ),
        (count + SLICE - 1) // SLICE,
    )
    return out


@jit(inline="always")
def odds_row(out, j, number, seat, bonus, tally0, tally1, first):
    """Row ``j`` of ``odds_deals``: ``seat``'s score in deal ``number``, with
    its tricks and penalty units (deals 1-5: the tallies), or its passes and
    whether it went out first (sevens: passes, the first seat out)."""
    if number <= 5:
        out[j, O_SCORE] = tally1[seat] * UNIT_SCORE[number]
        out[j, O_TRICKS] = tally0[seat]
        out[j, O_TAKEN] = tally1[seat]
    else:
        out[j, O_SCORE] = -tally0[seat] + (bonus if first == seat else 0)
        out[j, O_PASSES] = tally0[seat]
        out[j, O_FIRST_OUT] = 1 if first == seat else 0


@jit
def _odds_deals_slices(
    seed,
    start,
    count,
    players,
    number,
    dealer,
    seat,
    deck,
    fixed,
    sizes,
    bonus,
    play_out,
    stop_early,
    policies,
    weights,
    out,
    lo,
    hi,
):
    """Slices lo..hi-1 of ``odds_deals``."""
    n = players
    k = number - 1
    leader = dealer + 1 if dealer + 1 < n else 0
    heuristic = heuristic_seats(policies, n)
    learned = learned_seats(policies, n, weights)
    for sl in range(lo, hi):
        buf = np.empty(64, np.int64)
        hands = np.empty(n, np.uint64)
        st = np.empty(1, np.uint64)
        tally0 = np.zeros(n, np.int64)
        tally1 = np.zeros(n, np.int64)
        holder = np.zeros(64, np.int64)
        events = np.zeros((0, 4), np.int64)
        for j in range(sl * SLICE, min(count, (sl + 1) * SLICE)):
            i = start + j
            st[0] = rng.key(seed, i, k, rng.DEAL)
            deal_given(deck, fixed, sizes, n, st, buf, hands)
            z = rng.key(seed, i, k, rng.PLAY)
            for s in range(n):
                tally0[s] = 0
                tally1[s] = 0
            if number <= 5:  # tallies: tricks, penalty units
                trick_deal_from(
                    hands, leader, number, n, stop_early, heuristic, z, tally0, tally1, holder, events, 0, None,
                    learned, weights,
                )  # fmt: skip
                odds_row(out, j, number, seat, bonus, tally0, tally1, -1)
            else:  # tallies: passes, out order
                _, first, _, _ = sevens_from(
                    hands, ZERO, leader, n, play_out, heuristic, z, tally0, tally1, events, 0, None, 0, learned,
                    weights[SEVENS_AT:],
                )  # fmt: skip
                odds_row(out, j, number, seat, bonus, tally0, tally1, first)


@jit
def odds_deal_pimc(
    seed,
    i,
    players,
    number,
    dealer,
    seat,
    deck,
    fixed,
    sizes,
    bonus,
    play_out,
    stop_early,
    policies,
    sevens_cards,
    pimc,
    events,
):
    """Sample deal ``i`` of ``odds_deals`` (the same hands, dealer, leader and
    random stream) played with the ``policies`` per seat, the search
    player's seats (``POLICY_SCRIPTED``) from ``pimc``
    (``cardmc.kernels.script``; in sevens once ``sevens_cards`` or fewer
    cards are left in all hands, 0: never), traced into ``events`` (EV_DEAL
    with ``number - 1``, dealer and leader; the hands; the plays) for
    ``cardmc.pimc``. Returns (``odds_deals``' row for deal i, events
    written)."""
    n = players
    k = number - 1
    leader = dealer + 1 if dealer + 1 < n else 0
    heuristic = heuristic_seats(policies, n)
    hands = np.empty(n, np.uint64)
    st = np.empty(1, np.uint64)
    st[0] = rng.key(seed, i, k, rng.DEAL)
    deal_given(deck, fixed, sizes, n, st, np.empty(64, np.int64), hands)
    z = rng.key(seed, i, k, rng.PLAY)
    start_script(pimc, policies, n, POLICY_SCRIPTED)
    ne = record(events, 0, EV_DEAL, k, dealer, leader)
    for s in range(n):
        ne = record(events, ne, EV_HAND, s, np.int64(hands[s]), 0)
    tally0 = np.zeros(n, np.int64)
    tally1 = np.zeros(n, np.int64)
    out = np.zeros((1, O_SIZE), np.int64)
    first = -1
    if number <= 5:  # tallies: tricks, penalty units
        _, _, ne = trick_deal_from(
            hands,
            leader,
            number,
            n,
            stop_early,
            heuristic,
            z,
            tally0,
            tally1,
            np.zeros(64, np.int64),
            events,
            ne,
            pimc,
        )
    else:  # tallies: passes, out order
        _, first, _, ne = sevens_from(
            hands, ZERO, leader, n, play_out, heuristic, z, tally0, tally1, events, ne, pimc, sevens_cards
        )
    odds_row(out, 0, number, seat, bonus, tally0, tally1, first)
    return out[0], ne
