"""The solver's values deeper than the reference minimax reaches (five or six
tricks left), against values stored from an earlier, plainer version of the
search (bisection on boolean probes, only the top trumps as sure points, one
slot a table entry), which the reference checks on small endgames: bounds,
table and endgame shortcuts must not change a value."""

from __future__ import annotations

import pytest

from cardmc.bench_search import bench_solver

# (game, players, seed, tricks left, contract, values of bench_solver's positions)
STORED = [
    ("differenzler", 4, 3, 6, None, [64, 0, 0, 0, 19, 14, 0, 15, 0, 0, 18, 0, 0, 55, 0, 0, 0, 0, 0, 26]),
    ("english_jazz", 3, 3, 6, None, [1, 1, 2, 1, 1, 0, 0, 2, 0, 0, 0, 0, 1, 0, 3, 1, 0, 1, 2, 0]),
    ("norwegian_jazz", 4, 3, 5, None, [0, 1, 2, 1, 0, 0, 5, 0, 2, 0, 4, 0, 1, 0, 0, 0, 0, 1, 3, 2]),
    ("norwegian_jazz", 3, 4, 5, None, [0, 0, 4, 1, 2, 4, 3, 0, 0, 0, 1, 2, 0, 0, 1, 1, 0, 0, 0, 4]),
    (
        "schieber",
        4,
        3,
        6,
        None,
        [110, 62, 93, 14, 46, 14, 19, 22, 13, 40, 60, 72, 121, 80, 32, 0, 104, 7, 11, 60],
    ),
    (
        "schieber",
        4,
        1,
        5,
        "S",
        [
            32,
            24,
            43,
            24,
            30,
            0,
            102,
            43,
            65,
            0,
            95,
            62,
            45,
            86,
            54,
            97,
            49,
            64,
            79,
            13,
            13,
            20,
            54,
            76,
            57,
            37,
            0,
            90,
            27,
            21,
            30,
            0,
            21,
            0,
            58,
            61,
            65,
            86,
            104,
            0,
            35,
            48,
            44,
            0,
            18,
            -100,
            84,
            75,
            13,
            9,
            52,
            0,
            37,
            13,
            27,
            35,
            7,
            21,
            12,
            39,
        ],
    ),
]


@pytest.mark.parametrize(
    "game, players, seed, left, contract, values", STORED, ids=[f"{s[0]}-{s[1]}-{s[3]}" for s in STORED]
)
def test_values_deeper_than_the_reference_are_unchanged(game, players, seed, left, contract, values):
    df = bench_solver(game, len(values), seed, left, contract, players)
    assert df["value"].tolist() == values
