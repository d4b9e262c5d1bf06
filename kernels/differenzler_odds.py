"""Differenzler advice for one hand: the points it makes under each declaration.

Sample deal ``i`` of ``seed`` deals the unseen cards with stream
``(seed, i, 0, DEAL)`` around the fixed cards (``condition.deal_given``); the
face-up trump card is the given one, else a uniformly chosen card of the
dealer's hand. The other seats declare by their policies, then the deal is
played once per candidate declaration of the asking seat, each time from the
same hands and the same players' stream ``(seed, i, 0, PLAY)``: the candidates
are compared on identical deals. A candidate is a declaration 0..157, or
``RULE_HEURISTIC`` / ``RULE_CALIBRATED`` / ``RULE_LEARNED``: what that rule
declares for the hand as dealt (the learned one from the tail of ``params``). ``odds_deal_pimc`` plays one such deal for one declaration
traced, with the search player's seats scripted (``cardmc.pimc``).
"""

from __future__ import annotations

import numpy as np

from cardmc.kernels import rng
from cardmc.kernels.cards import FULL36
from cardmc.kernels.condition import deal_given, face_up_card
from cardmc.kernels.differenzler import (
    C_TRUMP,
    C_TRUMP_CARD,
    DECLARE_CALIBRATED,
    DECLARE_HEURISTIC,
    DECLARE_LEARNED,
    PLAY_SCRIPTED,
    PLAYERS,
    W_DECLARED,
    W_MADE,
    W_SIZE,
    declare,
    play_tricks,
)
from cardmc.kernels.events import EV_DEAL, EV_DECLARE, EV_HAND
from cardmc.kernels.jit import in_shares, jit
from cardmc.kernels.script import start as start_script

RULE_HEURISTIC, RULE_CALIBRATED, RULE_LEARNED = -1, -2, -3
SLICE = 1024
DECK_MASK = np.uint64(FULL36)
SIZES = np.full(PLAYERS, 9, np.int64)


def points_made(seed, start, count, seat, dealer, fixed, trump_card, candidates, policies, table, params):
    """Deals start..start+count-1: ``made[i, j]`` the points the asking seat
    makes when it declares candidate ``j``, ``declared[i, j]`` that
    declaration (it differs from deal to deal only for a rule). ``params``:
    the game's (``SPEC.params``: its tail the learned seats' weights and
    declarations); none of today's rule options changes the
    play of a single deal. Slices of ``SLICE`` deals run side by side."""
    n_cand = candidates.shape[0]
    made = np.empty((count, n_cand), np.uint8)
    declared = np.empty((count, n_cand), np.uint8)
    slices = (count + SLICE - 1) // SLICE
    in_shares(
        lambda lo, hi: _points_made_slices(
            seed,
            start,
            count,
            seat,
            dealer,
            fixed,
            trump_card,
            candidates,
            policies,
            table,
            params,
            made,
            declared,
            lo,
            hi,
        ),
        slices,
    )
    return made, declared


@jit(inline="always")
def odds_deal(seed, i, seat, dealer, fixed, trump_card, policies, table, params, st, buf, dealt, work):
    """Deal ``i`` of ``points_made``: the hands into ``dealt``, the other
    seats' declarations into ``work``; returns (the face-up trump card, the
    players' stream after those declarations)."""
    st[0] = rng.key(seed, i, 0, rng.DEAL)
    deal_given(DECK_MASK, fixed, SIZES, PLAYERS, st, buf, dealt)
    card = face_up_card(dealt[dealer], trump_card, st)
    trump = card >> 4
    z0 = rng.key(seed, i, 0, rng.PLAY)
    for j in range(PLAYERS):  # declaration order: from the seat after the dealer
        s = (dealer + 1 + j) % PLAYERS
        if s != seat:
            rel = (s - dealer) % PLAYERS
            z0, work[W_DECLARED + s] = declare(policies[s, 1], rel, dealt[s], trump, z0, table, params)
    return card, z0


@jit
def _points_made_slices(
    seed,
    start,
    count,
    seat,
    dealer,
    fixed,
    trump_card,
    candidates,
    policies,
    table,
    params,
    made,
    declared,
    lo,
    hi,
):
    """Slices lo..hi-1 of ``points_made``."""
    n_cand = candidates.shape[0]
    for sl in range(lo, hi):
        dealt = np.empty(PLAYERS, np.uint64)
        hands = np.empty(PLAYERS, np.uint64)
        buf = np.empty(64, np.int64)
        st = np.empty(1, np.uint64)
        work = np.zeros(W_SIZE, np.int64)
        events = np.zeros((0, 4), np.int64)
        for i in range(sl * SLICE, min(count, (sl + 1) * SLICE)):
            card, z0 = odds_deal(
                seed,
                start + i,
                seat,
                dealer,
                fixed,
                trump_card,
                policies,
                table,
                params,
                st,
                buf,
                dealt,
                work,
            )
            trump = card >> 4
            leader = (dealer + 1) % PLAYERS
            rel = (seat - dealer) % PLAYERS
            for j in range(n_cand):
                d = candidates[j]
                if d == RULE_HEURISTIC:
                    _, d = declare(DECLARE_HEURISTIC, rel, dealt[seat], trump, z0, table, params)
                elif d == RULE_CALIBRATED:
                    _, d = declare(DECLARE_CALIBRATED, rel, dealt[seat], trump, z0, table, params)
                elif d == RULE_LEARNED:
                    _, d = declare(DECLARE_LEARNED, rel, dealt[seat], trump, z0, table, params)
                work[W_DECLARED + seat] = d
                for s in range(PLAYERS):
                    hands[s] = dealt[s]
                play_tricks(hands, leader, trump, policies, work, z0, events, 0, None, True, True, params)
                made[i, j] = work[W_MADE + seat]
                declared[i, j] = d


@jit
def odds_deal_pimc(
    seed, i, seat, dealer, fixed, trump_card, declared, policies, table, script, events, rows, params=None
):
    """Deal ``i`` of ``points_made`` (the same hands, trump card and
    declarations of the other seats), the asking seat declaring ``declared``
    (a declaration 0..157: a rule's as ``points_made`` reports it), played
    with the ``policies`` per seat, the ``pimc`` seats from ``script``
    (``cardmc.kernels.script``), traced for ``cardmc.pimc``: into ``events``
    (EV_DEAL 0, the hands, the declarations, the plays; ``MAX_EVENTS_PER_DEAL``
    rows) and the face-up trump card into ``rows[0..3]`` (the game's columns).
    ``params``: the game's, whose tail gives the learned seats their weights
    and declarations (None: they play and declare as the heuristic).
    Returns (the points each seat made, events written)."""
    if params is None:
        tail = np.zeros(0, np.int64)
    else:
        tail = params
    dealt = np.empty(PLAYERS, np.uint64)
    work = np.zeros(W_SIZE, np.int64)
    card, z0 = odds_deal(
        seed,
        i,
        seat,
        dealer,
        fixed,
        trump_card,
        policies,
        table,
        tail,
        np.empty(1, np.uint64),
        np.empty(64, np.int64),
        dealt,
        work,
    )
    work[W_DECLARED + seat] = declared
    trump = card >> 4
    leader = (dealer + 1) % PLAYERS
    start_script(script, policies, PLAYERS, PLAY_SCRIPTED)
    events[0, 0], events[0, 1], events[0, 2], events[0, 3] = EV_DEAL, 0, dealer, leader
    for s in range(PLAYERS):
        events[1 + s, 0], events[1 + s, 1], events[1 + s, 2], events[1 + s, 3] = (
            EV_HAND,
            s,
            np.int64(dealt[s]),
            0,
        )
        rows[s, C_TRUMP_CARD], rows[s, C_TRUMP] = card, trump
    for j in range(PLAYERS):  # declaration order: from the seat after the dealer
        s = (dealer + 1 + j) % PLAYERS
        e = 1 + PLAYERS + j
        events[e, 0], events[e, 1], events[e, 2], events[e, 3] = EV_DECLARE, s, work[W_DECLARED + s], 0
    _, ne = play_tricks(
        dealt, leader, trump, policies, work, z0, events, 1 + 2 * PLAYERS, script, True, True, tail
    )
    made = np.empty(PLAYERS, np.int64)
    for s in range(PLAYERS):
        made[s] = work[W_MADE + s]
    return made, ne
