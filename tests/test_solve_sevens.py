"""The sevens solver (Norwegian Jazz deal 6) against the reference minimax on small endgames."""

from __future__ import annotations

import random

import pytest

from cardmc.registry import UsageError
from cardmc.solve import solve
from tests.reference import minimax as M
from tests.reference import norwegian_jazz as N


def endgame(rng: random.Random, n: int, left: int):
    """A deal played at random until at most ``left`` cards are in hands (nobody out)."""
    deck = sorted(N.FULL_DECK)
    rng.shuffle(deck)
    hands = [set(deck[s::n]) for s in range(n)]
    table: set = set()
    p = rng.randrange(n)
    passes = [0] * n
    while sum(map(len, hands)) > left:
        legal = sorted(N.sevens_legal(hands[p], table))
        if legal:
            c = rng.choice(legal)
            if len(hands[p]) == 1:
                break
            hands[p].remove(c)
            table.add(c)
        else:
            passes[p] += 1
        p = (p + 1) % n
    return hands, table, p, passes


@pytest.mark.parametrize("n", [3, 4, 5])
def test_sevens_solver_matches_exhaustive_minimax(n):
    rng = random.Random(f"sevens-{n}")
    for i in range(150):
        hands, table, p, passes = endgame(rng, n, rng.randint(n, 9))
        seat = rng.randrange(n)
        bonus = rng.choice([10, 80])
        got = solve(
            "norwegian_jazz",
            hands=[" ".join(sorted(h)) for h in hands],
            to_play=p,
            seat=seat,
            contract=6,
            points=passes,
            first_out_bonus=bonus,
        )
        for name, b, cost, shift in (("out_first", 1, 0, 0), ("score", bonus, 1, -passes[seat])):
            v, each = M.sevens_minimax(hands, table, p, seat, b, cost)
            where = f"{n} players, endgame {i}, {name}: {hands} to play {p} seat {seat}"
            assert got.value[name] == shift + v, where
            assert got.cards[name].to_dict() == {c: shift + x for c, x in each.items()}, where


def test_sevens_positions_that_cannot_occur():
    with pytest.raises(UsageError, match="not a row through the 7"):
        solve("norwegian_jazz", hands=["AS", "8S", "2C"], to_play=0, seat=0, contract=6)
    with pytest.raises(UsageError, match="holds no card"):
        solve("norwegian_jazz", hands=["AS", "", "2C"], to_play=0, seat=0, contract=6)
