"""Could an English Jazz hand take all 12 tricks with every hand seen?

``sweeps(seed, start, count, R, table..., out)`` deals games
start..start+count-1 exactly as ``english_jazz.play_games`` deals them (the
first dealer from the face-up cards of the game's SETUP stream, deal d from
its own DEAL stream, packets from the dealer's left) and asks the solver, for
each seat of each deal, whether it can take every trick against the other
two playing together, trump still to be set by the play: one null-window
probe at 12 tricks (``solve_search.search``), which the sure-trick bounds
mostly answer at once. ``out[g, d, s]`` is 1 when seat s of deal d of game
start+g can (``can_take_all``), ``dealt[g, d, s]`` its hand. ``R`` is the
solver's rules array of English Jazz (its seat fields are set here); the
table is the caller's (one per thread).
"""

from __future__ import annotations

import numpy as np

from cardmc.kernels import rng
from cardmc.kernels.bits import popcount
from cardmc.kernels.cards import deal36
from cardmc.kernels.english_jazz import DEALS, DECK, PLAYERS, face_up_dealer
from cardmc.kernels.jit import jit
from cardmc.kernels.solve_rules import COUNTED, MAX_SIDE, SALT
from cardmc.kernels.solve_rules import PLAYERS as R_PLAYERS
from cardmc.kernels.solve_search import BIG, LINE, mix, search


@jit
def can_take_all(
    R, keys, lows, highs, bests, ages, moves, scores, fr, fk, hands, leader, seat, salt, probe, line
):
    """Can ``seat`` take every trick left from a trick boundary (``hands``,
    ``leader`` to lead, trump not set) against the other seats playing
    together? ``salt``: the probe's own key space in the table; ``probe``
    and ``line``: scratch (``hands`` is left as it is)."""
    R[MAX_SIDE], R[COUNTED] = 1 << seat, 1 << seat
    R[SALT] = salt
    n = R[R_PLAYERS]
    for t in range(n):
        probe[t] = hands[t]
    left = popcount(hands[leader])
    v = search(
        R, keys, lows, highs, bests, ages, probe, line, 0, leader, -1, 0, left, BIG, moves, scores, fr, fk
    )
    return v >= left


@jit
def sweeps(seed, start, count, R, keys, lows, highs, bests, ages, moves, scores, fr, fk, out, dealt):
    """``out[g, d, s]`` (see the module notes) and ``dealt[g, d, s]``, the hand as dealt."""
    order = np.empty(36, np.int64)
    st = np.empty(1, np.uint64)
    hands = np.empty(PLAYERS, np.uint64)
    probe = np.empty(PLAYERS, np.uint64)
    line = np.zeros(LINE, np.int64)
    for g in range(count):
        index = start + g
        for i in range(36):
            order[i] = DECK[i]
        st[0] = rng.key(seed, index, 0, rng.SETUP)
        rng.shuffle(st, order)
        first, _ = face_up_dealer(order)
        for d in range(DEALS):
            dealer = (first + d) % PLAYERS
            deal36(rng.key(seed, index, d, rng.DEAL), dealer + 1, PLAYERS, hands, order.view(np.uint8))
            for s in range(PLAYERS):
                dealt[g, d, s] = hands[s]
                # a key space of its own (the salt's high bits): another seat's entries never match
                salt = np.int64(mix(np.uint64(index * 64 + d * 4 + s) ^ np.uint64(seed)) >> np.uint64(1))
                yes = can_take_all(
                    R,
                    keys,
                    lows,
                    highs,
                    bests,
                    ages,
                    moves,
                    scores,
                    fr,
                    fk,
                    hands,
                    (dealer + 1) % PLAYERS,
                    s,
                    salt,
                    probe,
                    line,
                )
                out[g, d, s] = 1 if yes else 0
