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


# ------------------------------------------------ sure points: drawing trumps


def _sure_points(game, contract, hands, leader, max_side, counted, flags=0):
    """``solve_search``'s (lowest, highest) value at a trick boundary, ``leader`` to lead."""
    from cardmc import solve as SV
    from cardmc.kernels.cards import parse

    param, trump = SV.spec_of(game).solver.contract(contract)
    R = SV.rules_array(game, 4, param, max_side, counted)
    R[SR.MODE] = SR.THRESHOLD
    masks = np.array([mask_of([parse(c, 36) for c in h]) for h in hands], np.uint64)
    return S.root_bounds(R, masks, np.zeros(S.LINE, np.int64), 0, leader, trump, flags)


def test_the_leader_draws_trumps_then_cashes():
    # spades trump (J 20, 9 14, A 11, 10 10); seat 0 holds J and 9, seat 1 the 10: two leads
    # draw it, so the 10 falls to team 0 as well (44 points), which the run of J and 9 alone
    # (34) does not see
    team0, won = 0b0101, S.COUNTED_WON | S.OTHER_WON
    hands = [["JS", "9S", "6H"], ["TS", "7H", "8H"], ["6C", "7C", "8C"], ["6D", "7D", "AH"]]
    assert _sure_points("schieber", "S", hands, 0, team0, team0, won)[0] == 44
    # with the A of hearts instead of the 6, seat 0 takes every trick: all 55 points and the last 5
    hands = [["JS", "9S", "AH"], ["TS", "7H", "8H"], ["6C", "7C", "8C"], ["6D", "7D", "6H"]]
    assert _sure_points("schieber", "S", hands, 0, team0, team0, won) == (60, 60)
    # seat 1 holds two trumps, as many as seat 0's run: both are drawn (20 + 14 + 3 + 10)
    hands = [["JS", "9S", "6H"], ["TS", "QS", "8H"], ["6C", "7C", "8C"], ["6D", "7D", "AH"]]
    assert _sure_points("schieber", "S", hands, 0, team0, team0, won)[0] == 47
    # three, more than the run: the run's 34 only
    hands = [["JS", "9S", "6H"], ["TS", "QS", "8S"], ["6C", "7C", "8C"], ["6D", "7D", "AH"]]
    assert _sure_points("schieber", "S", hands, 0, team0, team0, won)[0] == 34
    # the minimising side leads with the same cards: what it draws bounds team 0 from above
    hands = [["6C", "7C", "8C"], ["JS", "9S", "6H"], ["6D", "7D", "AH"], ["TS", "7H", "8H"]]
    total = 20 + 14 + 10 + 11 + 5
    assert _sure_points("schieber", "S", hands, 1, team0, team0, won)[1] == total - 44


@pytest.mark.parametrize("game", ["schieber", "differenzler"])
def test_sure_points_hold_the_minimax_value(game):
    """Boundary positions where the leader often holds the top trumps: the
    bounds never cut the minimax value, and the drawing rule raises them
    above the top trump run's points in many of them."""
    from tests.reference import schieber as RS
    from tests.solve_positions import DECK36, reference

    rng = random.Random(f"draw-{game}")
    raised = 0
    for i in range(300):
        m = rng.choice((2, 3, 3))
        suit = rng.choice("CDHS")
        contract = suit if game == "differenzler" else rng.choice([suit, suit, suit, "obenabe"])
        cards = rng.sample(DECK36, 4 * m)
        hands = [set(cards[s * m : (s + 1) * m]) for s in range(4)]
        leader = rng.randrange(4)
        order = [r + suit for r in "J9AKQT876"]
        out = [c for c in order if any(c in h for h in hands)]
        for c in out[: rng.randint(0, 2)]:  # the leader gets the top trumps still out (swapped in)
            owner = next(s for s in range(4) if c in hands[s])
            if owner != leader:
                give = rng.choice(sorted(hands[leader] - set(out[:2])) or sorted(hands[leader]))
                hands[owner].remove(c), hands[leader].remove(give)
                hands[owner].add(give), hands[leader].add(c)
        if game == "schieber":
            sides = [({0, 2}, {0, 2}), ({1, 3}, {0, 2})]
        else:
            seat = rng.randrange(4)
            sides = [({seat}, {seat}), (set(range(4)) - {seat}, {seat})]
        max_side, counted = sides[rng.randrange(2)]
        pos = dict(
            game=game,
            n=4,
            param=contract,
            trump=None,
            hands=hands,
            trick=[],
            leader=leader,
            taken=[1, 1, 1, 1],
        )
        v, _ = reference(pos, max_side, counted)
        bits = lambda seats: sum(1 << s for s in seats)  # noqa: E731
        lo, hi = _sure_points(
            game,
            contract,
            [sorted(h) for h in hands],
            leader,
            bits(max_side),
            bits(counted),
            S.COUNTED_WON | S.OTHER_WON,
        )
        assert lo <= v <= hi, (
            f"{game} position {i}: {pos} {sorted(max_side)} {sorted(counted)}: {lo} {v} {hi}"
        )
        if contract == suit:  # the run alone: the top trumps one side holds
            run, side = 0, None
            for c in out:
                owner = next(s for s in range(4) if c in hands[s])
                if side is None:
                    side = owner in counted
                elif (owner in counted) != side:
                    break
                run += RS.card_points(c, suit)
            raised += side is True and (leader in counted) == (leader in max_side) and lo > run
    assert raised >= 10, raised
