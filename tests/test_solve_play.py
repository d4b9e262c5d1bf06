"""The solver on larger positions: the best card's value is the position's
value, and playing solver moves for every seat reaches the solved value."""

from __future__ import annotations

import random

import pytest

from cardmc.solve import solve
from tests.reference import minimax as M
from tests.reference import norwegian_jazz as N
from tests.solve_positions import api_args, random_position

# objective -> does the seat to play maximise it? (seat: the position's seat)
SIDES = {
    "team0": lambda p, seat: p in (0, 2),
    "sure_at_least": lambda p, seat: p == seat,
    "sure_at_most": lambda p, seat: p != seat,
    "least_penalty": lambda p, seat: p != seat,
    "most_tricks": lambda p, seat: p == seat,
    "held_to": lambda p, seat: p == seat,
    "escape": lambda p, seat: True,
}
MAIN = {
    "schieber": "team0",
    "differenzler": "sure_at_least",
    "english_jazz": "most_tricks",
    "norwegian_jazz": "held_to",
}
GAMES = list(MAIN)


@pytest.mark.parametrize("game", GAMES)
def test_best_card_value_is_the_position_value(game):
    rng = random.Random(f"solve-best-{game}")
    for i in range(40):
        pos = random_position(
            game, rng, rng.randint(4, 6), n=rng.randint(3, 5) if game == "norwegian_jazz" else None
        )
        declared = rng.randint(0, 80) if game == "differenzler" else None
        got = solve(game, **api_args(pos), declared=declared)
        for name, col in got.cards.items():
            if name not in SIDES:
                continue
            best = col.max() if SIDES[name](pos["to_play"], pos["seat"]) else col.min()
            assert best == got.value[name], f"{game} {i} {name}: {got.value} {got.cards}"


def _play_out(game: str, pos: dict, objective: str) -> tuple[int, int]:
    """Plays solver moves for every seat (each side picking its best card for
    ``objective``); returns (the value solved at the start, the value reached)."""
    args = api_args(pos)
    start = solve(game, **args).value[objective]
    hands = [set(h) for h in pos["hands"]]
    trick, leader, trump = list(pos["trick"]), pos["leader"], pos["trump"]
    taken, points = list(pos["taken"]), list(pos["points"])
    n = pos["n"]
    _, end = M.rules(game, pos["param"])
    while any(hands):
        p = (leader + len(trick)) % n
        contract = trump if game == "english_jazz" else pos["param"]
        got = solve(
            game,
            hands=[" ".join(sorted(h)) for h in hands],
            trick=trick,
            to_play=p,
            contract=contract,
            seat=None if game == "schieber" else pos["seat"],
            taken=taken,
            points=points,
        )
        col = got.cards[objective]
        want = col.max() if SIDES[objective](p, pos["seat"]) else col.min()
        assert want == got.value[objective]
        c = sorted(col[col == want].index)[0]
        hands[p].remove(c)
        trick.append(c)
        if len(trick) == n:
            last = not any(hands)
            w, v, trump = end(trick, trump, last)
            ws = (leader + w) % n
            taken[ws] += 1
            points[ws] += v
            trick, leader = [], ws
    if game == "schieber":
        p0 = points[0] + points[2]
        return start, p0 + 100 if taken[1] + taken[3] == 0 else p0
    if game == "english_jazz":
        return start, taken[pos["seat"]]
    if game == "norwegian_jazz":
        return start, N.UNIT_SCORE[pos["param"]] * points[pos["seat"]]
    return start, points[pos["seat"]]


@pytest.mark.parametrize("game", GAMES)
def test_playing_solver_moves_reaches_the_solved_value(game):
    rng = random.Random(f"solve-play-{game}")
    for i in range(6):
        pos = random_position(game, rng, 5, n=3 if game == "norwegian_jazz" else None)
        start, reached = _play_out(game, pos, MAIN[game])
        assert start == reached, f"{game} {i}: {pos}"
