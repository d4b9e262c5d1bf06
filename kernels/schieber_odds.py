"""Schieber advice for one hand: each contract and pushing, on the same deals.

Sample deal ``i`` of ``seed`` deals the unseen cards with stream
``(seed, i, 0, DEAL)`` around the fixed cards (``condition.deal_given``).
The deal is then played once per choice from the same hands and the same
players' stream ``(seed, i, 0, PLAY)``: choices 0..5 are the contracts
(C D H S obenabe undenufe) chosen by the chooser, choice ``PUSH_CHOICE`` is
pushing, after which the forehand's partner chooses by its policy (as in a
match). A deal is scored alone (from 0:0, no match end): each team's deal
score after the multiplier with Weis, Stöck and the match bonus.
"""

from __future__ import annotations

import numpy as np

from cardmc.kernels import rng
from cardmc.kernels.cards import FULL36
from cardmc.kernels.condition import deal_given
from cardmc.kernels.events import EV_CONTRACT, EV_DEAL, EV_HAND
from cardmc.kernels.jit import in_shares, jit
from cardmc.kernels.schieber import (
    O_SCORE,
    O_TRICKS,
    OUT_SIZE,
    P_PUSH_BELOW,
    P_WEIGHTS,
    RANDOM,
    S_HANDS,
    S_OUT,
    SCRIPTED,
    STATE_SIZE,
    _choose,
    _heuristic_seats,
    _learned_seats,
    _play_deal,
    play_deal,
    rules_of,
    weis_of,
)
from cardmc.kernels.schieber_weis import OBENABE, declare
from cardmc.kernels.script import start as start_script

PUSH_CHOICE = 6
SLICE = 1024
NO_END = 1 << 40  # a target no deal reaches: the deal is scored alone
DECK_MASK = np.uint64(FULL36)
SIZES = np.full(4, 9, np.int64)


def deal_scores(seed, start, count, forehand, chooser, fixed, choices, policies, params):
    """Deals start..start+count-1, each choice ``j`` of ``choices`` (a contract
    0..5 made by ``chooser``, or ``PUSH_CHOICE``): ``own[i, j]`` and
    ``other[i, j]`` the deal scores of the forehand's team and the other team,
    ``match[i, j]`` 1 when the forehand's team took all nine tricks,
    ``contract[i, j]`` the contract played. ``params``: the game's options
    (``SPEC.params``); the target plays no part in a deal scored alone.
    Slices of ``SLICE`` deals run side by side."""
    n_choice = choices.shape[0]
    own = np.empty((count, n_choice), np.int32)
    other = np.empty((count, n_choice), np.int32)
    match = np.empty((count, n_choice), np.uint8)
    contract = np.empty((count, n_choice), np.uint8)
    slices = (count + SLICE - 1) // SLICE
    in_shares(
        lambda lo, hi: _deal_scores_slices(
            seed,
            start,
            count,
            forehand,
            chooser,
            fixed,
            choices,
            policies,
            params,
            own,
            other,
            match,
            contract,
            lo,
            hi,
        ),
        slices,
    )
    return own, other, match, contract


@jit(inline="always")
def _chosen(forehand, chooser, choice, dealt, policies, z, wr, rules, push_below, weights):
    """(stream state, chooser, contract) of a choice: a contract made by
    ``chooser``, or ``PUSH_CHOICE``, after which the partner must choose, as
    its policy does in a match (``push_below``: the rules' push threshold,
    which a partner who must choose never reads)."""
    who, con = chooser, choice
    if choice == PUSH_CHOICE:
        partner = (forehand + 2) & 3
        w = declare(dealt[partner], OBENABE, wr)[1] if policies[partner, 0] != RANDOM else 0
        z, who, _, con = _choose(
            forehand,
            (policies[forehand, 0], dealt[forehand], 0),
            (policies[partner, 0], dealt[partner], w),
            z,
            -1,
            1,
            rules,
            push_below,
            weights,
        )
    return z, who, con


@jit
def _deal_scores_slices(
    seed,
    start,
    count,
    forehand,
    chooser,
    fixed,
    choices,
    policies,
    params,
    own,
    other,
    match,
    contract,
    lo,
    hi,
):
    """Slices lo..hi-1 of ``deal_scores``."""
    n_choice = choices.shape[0]
    team = forehand & 1
    rules = rules_of(params)
    wr = weis_of(rules)
    for sl in range(lo, hi):
        dealt = np.empty(4, np.uint64)
        hands = np.empty(4, np.uint64)
        buf = np.empty(64, np.int64)
        st = np.empty(1, np.uint64)
        totals = np.zeros(2, np.int64)
        weis = np.zeros(4, np.int64)
        kinds = np.zeros(4, np.int64)
        out = np.zeros(OUT_SIZE, np.int64)
        work = np.zeros(12, np.int64)
        masks = np.zeros(4, np.uint64)
        events = np.zeros((0, 4), np.int64)
        for i in range(sl * SLICE, min(count, (sl + 1) * SLICE)):
            st[0] = rng.key(seed, start + i, 0, rng.DEAL)
            deal_given(DECK_MASK, fixed, SIZES, 4, st, buf, dealt)
            z0 = rng.key(seed, start + i, 0, rng.PLAY)
            for j in range(n_choice):
                z, who, con = _chosen(
                    forehand,
                    chooser,
                    choices[j],
                    dealt,
                    policies,
                    z0,
                    wr,
                    rules,
                    params[P_PUSH_BELOW],
                    params[P_WEIGHTS:],
                )
                for s in range(4):
                    hands[s] = dealt[s]
                totals[0] = totals[1] = 0
                st[0] = z
                play_deal(
                    hands,
                    forehand,
                    who,
                    con,
                    totals,
                    NO_END,
                    policies,
                    st,
                    weis,
                    kinds,
                    out,
                    work,
                    masks,
                    events,
                    0,
                    rules,
                    params[P_WEIGHTS:],
                )
                own[i, j] = out[O_SCORE + team]
                other[i, j] = out[O_SCORE + 1 - team]
                match[i, j] = 1 if out[O_TRICKS + team] + out[O_TRICKS + team + 2] == 9 else 0
                contract[i, j] = con


@jit
def odds_deal_pimc(seed, i, forehand, chooser, fixed, choice, policies, params, script, events):
    """Choice ``choice`` of deal ``i`` of ``deal_scores`` (the same hands,
    stream and choosing), the SCRIPTED (``pimc``) seats playing the cards of
    ``script`` (``cardmc.kernels.script``), traced into ``events`` for
    ``cardmc.pimc`` (the deal, the hands, the contract, the plays). Returns
    (own, other, match, contract, events written) as ``deal_scores`` has them."""
    rules = rules_of(params)
    dealt = np.empty(4, np.uint64)
    st = np.empty(1, np.uint64)
    st[0] = rng.key(seed, i, 0, rng.DEAL)
    deal_given(DECK_MASK, fixed, SIZES, 4, st, np.empty(64, np.int64), dealt)
    z, who, con = _chosen(
        forehand,
        chooser,
        choice,
        dealt,
        policies,
        rng.key(seed, i, 0, rng.PLAY),
        weis_of(rules),
        rules,
        params[P_PUSH_BELOW],
        params[P_WEIGHTS:],
    )
    pushed = 1 if choice == PUSH_CHOICE else 0
    start_script(script, policies, 4, SCRIPTED)
    events[0, 0], events[0, 1], events[0, 2], events[0, 3] = EV_DEAL, 0, (forehand + 3) & 3, forehand
    state = np.zeros(STATE_SIZE, np.int64)
    for s in range(4):
        events[1 + s, 0], events[1 + s, 1], events[1 + s, 2], events[1 + s, 3] = (
            EV_HAND,
            s,
            np.int64(dealt[s]),
            0,
        )
        state[S_HANDS + s] = np.int64(dealt[s])
    events[5, 0], events[5, 1], events[5, 2], events[5, 3] = EV_CONTRACT, who, pushed, con
    weights = params[P_WEIGHTS:]
    seats = _heuristic_seats(policies) | _learned_seats(weights, policies)
    _, nev = _play_deal(state, events, forehand, who, con, NO_END, seats, z, 6, rules, script, weights)
    team = forehand & 1
    match = 1 if state[S_OUT + O_TRICKS + team] + state[S_OUT + O_TRICKS + team + 2] == 9 else 0
    return state[S_OUT + O_SCORE + team], state[S_OUT + O_SCORE + 1 - team], match, con, nev
