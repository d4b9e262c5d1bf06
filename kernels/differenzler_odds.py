"""Differenzler advice for one hand: the points it makes under each declaration.

Sample deal ``i`` of ``seed`` deals the unseen cards with stream
``(seed, i, 0, DEAL)`` around the fixed cards (``condition.deal_given``); the
face-up trump card is the given one, else a uniformly chosen card of the
dealer's hand. The other seats declare by their policies, then the deal is
played once per candidate declaration of the asking seat, each time from the
same hands and the same players' stream ``(seed, i, 0, PLAY)``: the candidates
are compared on identical deals. A candidate is a declaration 0..157, or
``RULE_HEURISTIC`` / ``RULE_CALIBRATED``: what that rule declares for the
hand as dealt.
"""
from __future__ import annotations

import numpy as np

from cardmc.kernels import rng
from cardmc.kernels.cards import FULL36
from cardmc.kernels.condition import deal_given, face_up_card
from cardmc.kernels.differenzler import (DECLARE_CALIBRATED, DECLARE_HEURISTIC, PLAYERS, W_DECLARED, W_MADE, W_SIZE,
                                         declare, play_tricks)
from cardmc.kernels.jit import in_parts, jit

RULE_HEURISTIC, RULE_CALIBRATED = -1, -2
CHUNK = 1024
DECK_MASK = np.uint64(FULL36)
SIZES = np.full(PLAYERS, 9, np.int64)


def points_made(seed, start, count, seat, dealer, fixed, trump_card, candidates, policies, table, params):
    """Deals start..start+count-1: ``made[i, j]`` the points the asking seat
    makes when it declares candidate ``j``, ``declared[i, j]`` that
    declaration (it differs from deal to deal only for a rule). ``params``:
    the game's rule options (``SPEC.params``); none of today's changes the
    play of a single deal. Chunks of ``CHUNK`` deals run side by side."""
    n_cand = candidates.shape[0]
    made = np.empty((count, n_cand), np.uint8)
    declared = np.empty((count, n_cand), np.uint8)
    chunks = (count + CHUNK - 1) // CHUNK
    in_parts(lambda lo, hi: _points_made_chunks(seed, start, count, seat, dealer, fixed, trump_card, candidates,
                                                policies, table, params, made, declared, lo, hi), chunks)  # fmt: skip
    return made, declared


@jit
def _points_made_chunks(seed, start, count, seat, dealer, fixed, trump_card, candidates, policies, table, params,
                        made, declared, lo, hi):  # fmt: skip
    """Chunks lo..hi-1 of ``points_made``."""
    n_cand = candidates.shape[0]
    for c in range(lo, hi):
        dealt = np.empty(PLAYERS, np.uint64)
        hands = np.empty(PLAYERS, np.uint64)
        buf = np.empty(64, np.int64)
        st = np.empty(1, np.uint64)
        work = np.zeros(W_SIZE, np.int64)
        events = np.zeros((0, 4), np.int64)
        for i in range(c * CHUNK, min(count, (c + 1) * CHUNK)):
            st[0] = rng.key(seed, start + i, 0, rng.DEAL)
            deal_given(DECK_MASK, fixed, SIZES, PLAYERS, st, buf, dealt)
            trump = face_up_card(dealt[dealer], trump_card, st) >> 4
            leader = (dealer + 1) % PLAYERS
            z0 = rng.key(seed, start + i, 0, rng.PLAY)
            for j in range(PLAYERS):  # declaration order: from the seat after the dealer
                s = (dealer + 1 + j) % PLAYERS
                if s != seat:
                    rel = (s - dealer) % PLAYERS
                    z0, work[W_DECLARED + s] = declare(policies[s, 1], rel, dealt[s], trump, z0, table)
            rel = (seat - dealer) % PLAYERS
            for j in range(n_cand):
                d = candidates[j]
                if d == RULE_HEURISTIC:
                    _, d = declare(DECLARE_HEURISTIC, rel, dealt[seat], trump, z0, table)
                elif d == RULE_CALIBRATED:
                    _, d = declare(DECLARE_CALIBRATED, rel, dealt[seat], trump, z0, table)
                work[W_DECLARED + seat] = d
                for s in range(PLAYERS):
                    hands[s] = dealt[s]
                play_tricks(hands, leader, trump, policies, work, z0, events, 0)
                made[i, j] = work[W_MADE + seat]
                declared[i, j] = d
