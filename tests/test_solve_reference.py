"""The solver against the plain-Python exhaustive minimax on small endgames
(up to 4 cards a hand, every contract and trump state, tricks in progress):
the position's values and the value after each legal card."""

from __future__ import annotations

import os
import random

import pytest

from cardmc.solve import solve
from tests.reference import norwegian_jazz as N
from tests.reference import schieber as RS
from tests.solve_positions import api_args, random_position, reference

POSITIONS = 200  # per game; the slow run checks 2000
SIZES = (1, 2, 2, 3, 3, 3, 4)  # cards a hand: four-card endgames are the slow ones for the reference


def expected(pos: dict, declared: int | None = None) -> dict[str, tuple]:
    """For each objective: (reference value, reference value after each card)."""
    g, n, seat = pos["game"], pos["n"], pos["seat"]
    out = {}
    if g == "schieber":
        team0 = {0, 2}
        rest = sum(RS.card_points(c, pos["param"]) for h in pos["hands"] for c in h)
        rest += sum(RS.card_points(c, pos["param"]) for c in pos["trick"]) + 5
        p0, p1 = pos["points"][0] + pos["points"][2], pos["points"][1] + pos["points"][3]

        def teams(x):  # team 0's future (match +100, the other's match -100) -> both teams' totals
            return (p0 + max(x, 0), p1 + (rest + 100 if x < 0 else 0 if x > rest else rest - x))

        v, each = reference(pos, team0, team0, bonus=100)
        out["team0"] = (teams(v)[0], {c: teams(x)[0] for c, x in each.items()})
        out["team1"] = (teams(v)[1], {c: teams(x)[1] for c, x in each.items()})
        return out
    me, others = {seat}, set(range(n)) - {seat}
    if g == "differenzler":
        so_far = pos["points"][seat]

        def shift(x):
            return so_far + x

        for name, side in (("sure_at_least", me), ("sure_at_most", others)):
            v, each = reference(pos, side, me)
            out[name] = (shift(v), {c: shift(x) for c, x in each.items()})
        if declared is not None:

            def utility(x):
                return -abs(declared - so_far - x)

            v, each = reference(pos, me, me, utility)
            out["least_penalty"] = (-v, {c: -x for c, x in each.items()})
        return out
    if g == "english_jazz":
        t = pos["taken"][seat]
        v, each = reference(pos, me, me)
        out["most_tricks"] = (t + v, {c: t + x for c, x in each.items()})
        out["all_tricks"] = (int(t + v == 12), {c: int(t + x == 12) for c, x in each.items()})
        return out
    unit = N.UNIT_SCORE[pos["param"]]
    u = pos["points"][seat]
    for name, side in (("held_to", others), ("escape", set())):
        v, each = reference(pos, side, me)
        out[name] = (unit * (u + v), {c: unit * (u + x) for c, x in each.items()})
    return out


GAMES = ["schieber", "differenzler", "english_jazz", "norwegian_jazz"]


def check_against_minimax(game: str, positions: int, seed: str) -> None:
    rng = random.Random(f"{seed}-{game}")
    for i in range(positions):
        pos = random_position(game, rng, rng.choice(SIZES[:-1] if game == "norwegian_jazz" else SIZES))
        declared = rng.randint(0, 60) if game == "differenzler" else None
        got = solve(game, **api_args(pos), declared=declared)
        want = expected(pos, declared)
        for name, (value, each) in want.items():
            where = f"{game} position {i} {name}: {pos}"
            assert got.value[name] == value, where
            assert got.cards[name].to_dict() == each, where


@pytest.mark.parametrize("game", GAMES)
def test_solver_matches_exhaustive_minimax(game):
    check_against_minimax(game, POSITIONS, "solve")


@pytest.mark.slow
@pytest.mark.skipif("CARDMC_SLOW" not in os.environ, reason="long (half an hour): set CARDMC_SLOW=1")
@pytest.mark.parametrize("game", GAMES)
def test_solver_matches_exhaustive_minimax_on_many_positions(game):
    check_against_minimax(game, 2000, "solve-many")


def test_every_schieber_contract_and_english_jazz_trump_state_is_drawn():
    rng = random.Random("solve-schieber")
    contracts = {random_position("schieber", rng, 2)["param"] for _ in range(200)}
    assert contracts == {"C", "D", "H", "S", "obenabe", "undenufe"}
    rng = random.Random("solve-english_jazz")
    trumps = {random_position("english_jazz", rng, 2)["trump"] for _ in range(200)}
    assert trumps == {None, "C", "D", "H", "S"}


# sha256 of the reference minimax's values (every objective, and after each
# card) of CHECKSUM_POSITIONS seeded positions per game, computed once with
# ``checksum(game, expected)``: a change of any value the solver returns fails
# here without running the slow reference.
CHECKSUM_POSITIONS = 300
REFERENCE_CHECKSUMS = {
    "schieber": "6187556fbadbffc9f3f65c4732ebaa98cd3b3ea50fbb254c3bba3a797afeb4fa",
    "differenzler": "3fd8478126ddfc213bf3c8bd95897b6d9b292f233693aff11ce39a3b388a4545",
    "english_jazz": "524b401144f5ad7345939236624ae59e0fc7a1c0d21bd1de2b7cb91195ce8e6d",
    "norwegian_jazz": "33f81abe5f43517116c6bfd79d5da52a70a907316ea90d71b7ead2bf00ab7006",
}


def checksum(game: str, values) -> str:
    """sha256 of ``values(pos, declared)`` (objective -> (value, {card: value}))
    over the seeded positions of ``game``."""
    import hashlib
    import json

    rng = random.Random(f"solve-checksum-{game}")
    h = hashlib.sha256()
    for _ in range(CHECKSUM_POSITIONS):
        pos = random_position(
            game, rng, rng.choice(SIZES), n=rng.randint(3, 5) if game == "norwegian_jazz" else None
        )
        declared = rng.randint(0, 60) if game == "differenzler" else None
        got = values(pos, declared)
        h.update(json.dumps({k: [v, sorted(each.items())] for k, (v, each) in sorted(got.items())}).encode())
    return h.hexdigest()


def _solver_values(pos: dict, declared: int | None) -> dict[str, tuple]:
    s = solve(pos["game"], **api_args(pos), declared=declared)
    return {k: (v, s.cards[k].to_dict()) for k, v in s.value.items()}


@pytest.mark.parametrize("game", GAMES)
def test_solver_values_match_the_stored_reference_checksum(game):
    assert checksum(game, _solver_values) == REFERENCE_CHECKSUMS[game]
