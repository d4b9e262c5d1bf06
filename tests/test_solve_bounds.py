"""The solver's pruning against the plain-Python minimax on many more random
positions of the point games (Schieber, Differenzler), where cards of one run
are dominated by the run's most (or least) valuable card when the trick's
winning side cannot change (``solve_search.order_moves``)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cardmc.kernels import solve_rules as SR
from cardmc.kernels import solve_search as S
from cardmc.kernels.cards import mask_of
from cardmc.solve import solve
from tests.solve_positions import api_args, random_position
from tests.test_solve_reference import expected

POSITIONS = 400  # per game, beside the thousands of test_solve_reference, which the same pruning searches too
SIZES = (2, 3, 3, 4)


@pytest.mark.parametrize("game", ["schieber", "differenzler"])
def test_pruned_search_matches_exhaustive_minimax(game):
    rng = random.Random(f"bounds-{game}")
    for i in range(POSITIONS):
        pos = random_position(game, rng, rng.choice(SIZES))
        declared = rng.randint(0, 60) if game == "differenzler" else None
        got = solve(game, **api_args(pos), declared=declared)
        for name, (value, each) in expected(pos, declared).items():
            where = f"{game} position {i} {name}: {pos}"
            assert got.value[name] == value, where
            assert got.cards[name].to_dict() == each, where


def _moves(hands, trick, leader, param, max_side, counted, game=SR.SCHIEBER):
    R = np.zeros(SR.R_SIZE, np.int64)
    R[SR.GAME], R[SR.PLAYERS], R[SR.PARAM] = game, 4, param
    R[SR.MAX_SIDE], R[SR.COUNTED] = max_side, counted
    h = np.array([mask_of(x) for x in hands], np.uint64)
    line = np.zeros(S.LINE, np.int64)
    line[: len(trick)] = trick
    k = len(trick)
    p = (leader + k) % 4
    present = np.uint64(0)
    for x in h:
        present |= x
    for c in trick:
        present |= np.uint64(1) << np.uint64(c)
    lg = S.legal_mask(R, h[p], line[:4], k)
    moves, scores = (
        np.zeros((S.MAX_DEPTH, S.MAX_MOVES), np.int64),
        np.zeros((S.MAX_DEPTH, S.MAX_MOVES), np.int64),
    )
    m = S.order_moves(R, h, line, k, leader, -1, lg, present, moves, scores, 0)
    return sorted(int(c) for c in moves[0, :m])


def test_a_run_is_searched_by_its_best_card_only_when_the_trick_is_decided():
    # Obenabe (contract 4); seat 0 holds the 10 (10 points) and J (2) of
    # clubs, one run: the clubs Q, K and A are played or elsewhere.
    seven, ten, jack, queen, ace = 5, 8, 9, 10, 12  # clubs
    d6, h6 = 16 + 4, 32 + 4  # the 6 of diamonds and of hearts
    team0 = 0b0101
    # seat 0 plays last; seat 1 (team 1) wins with the ace: the least, the J
    assert _moves([[ten, jack], [], [], []], [ace, d6, h6], 1, 4, team0, team0) == [jack]
    # seat 2 (its partner) wins with the ace: the most, the 10
    assert _moves([[ten, jack], [], [], []], [seven, ace, h6], 1, 4, team0, team0) == [ten]
    # the minimising side gives the other way round
    assert _moves([[ten, jack], [], [], []], [seven, ace, h6], 1, 4, team0 ^ 0b1111, team0) == [jack]
    # seat 0 plays third and beats the 7; seat 1 after it cannot beat the 10 or the J: decided
    assert _moves([[ten, jack], [d6], [], []], [seven, h6], 2, 4, team0, team0) == [ten]
    # ... but it holds the queen: both are searched
    assert _moves([[ten, jack], [queen], [], []], [seven, h6], 2, 4, team0, team0) == [ten, jack]
    # Undenufe (contract 5): seat 1 wins with the diamond 6; the clubs 8, still out, splits the
    # 7 (0 points) from the run of the 10 and the J: each run gives its least
    eight = 6
    assert _moves([[ten, jack, seven], [eight], [], []], [d6, h6, 32 + 5], 1, 5, team0, team0) == [
        seven,
        jack,
    ]
