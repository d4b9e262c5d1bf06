"""The fast tallies (cardmc.kernels.tally, one per game) give exactly the
tables of ``aggregate(frame(rows))``: cell for cell, dtypes and index, for
every game, policy mix, player count and rule option, whatever the blocks
and threads; a block they cannot place goes through ``aggregate`` instead."""

from __future__ import annotations

import numba
import numpy as np
import pandas as pd
import pytest

from cardmc import aggregate as agg
from cardmc import api, registry
from cardmc.chunks import set_threads
from cardmc.registry import join_spans
from tests.helpers import assert_same_tables

CASES = [  # game, policy, players, settings, games
    ("differenzler", "random", None, {}, 800),
    ("differenzler", "calibrated", None, {"open_declarations": True}, 800),
    (
        "differenzler",
        "heuristic:random,random:calibrated,heuristic,calibrated",
        None,
        {"max_extra_deals": 0},
        800,
    ),
    ("schieber", "random", None, {}, 200),
    ("schieber", "heuristic", None, {"target": 1000}, 200),
    ("schieber", "heuristic,random,random,heuristic", None, {"forehand_push": "always"}, 200),
    ("schieber", "heuristic", None, {"contract": "obenabe", "forehand_push": "never"}, 150),
    ("schieber", "random,heuristic,heuristic,random", None, {"contract": "S"}, 150),
    ("english_jazz", "random", None, {}, 400),
    ("english_jazz", "heuristic", None, {}, 400),
    ("english_jazz", "random,heuristic,heuristic", None, {}, 400),
    ("norwegian_jazz", "heuristic", 3, {}, 400),
    ("norwegian_jazz", "random,heuristic,random,heuristic", 4, {"first_out_bonus": 80}, 400),
    ("norwegian_jazz", "heuristic,random,random,heuristic,heuristic", 5, {"play_out": True}, 300),
    ("norwegian_jazz", "random", 7, {"rotate_dealer": True, "stop_early": False}, 300),
    (
        "norwegian_jazz",
        "heuristic,random,heuristic,random,heuristic,random,heuristic",
        7,
        {"first_out_bonus": 0},
        300,
    ),
]


def _rows(game, policy, players, settings, games, block):
    spec = registry.get(game)
    players = spec.check_players(players)
    params = spec.params(spec.settings(settings))
    policies = spec.parse_policy(policy, players)
    blocks = [
        spec.simulate_block(7, first, min(block, games - first), players, params, policies)
        for first in range(0, games, block)
    ]
    return spec, players, params, blocks


@pytest.mark.parametrize("game,policy,players,settings,games", CASES)
def test_tally_equals_aggregate_of_the_frame(game, policy, players, settings, games):
    spec, players, params, blocks = _rows(game, policy, players, settings, games, block=games // 3 + 1)
    aggregate = agg.require(spec)[0]
    want = aggregate(spec.frame(np.concatenate(blocks)))
    assert spec.tally is not None
    for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
        set_threads(threads)
        acc = agg.tally(spec, players, params)
        for rows in blocks:
            acc.add(rows)
        assert acc.rows == sum(len(r) for r in blocks) and acc.spilled == 0
        assert_same_tables(acc.result(), want)
    set_threads(None)


def test_tally_is_the_driver_path_and_analyze_agrees():
    """simulate(aggregate=True) goes through the game's tally and gives the row analysis' tables."""
    for game, policy, players, settings, games in CASES[::3]:
        kw = dict(games=games, seed=5, policy=policy, players=players, threads=1, **settings)
        aggs = api.simulate(game, aggregate=True, **kw)
        rows = api.simulate(game, **kw)
        assert_same_tables(dict(aggs), agg.require(registry.get(game))[0](rows))
        assert_same_tables(api.analyze(game, aggs), api.analyze(game, rows))


def test_a_block_out_of_the_grid_goes_through_aggregate():
    """Rows the kernel cannot place (here: deals cut apart) are aggregated from their frame instead."""
    for game, policy, players, settings, games in (CASES[3], CASES[12]):
        spec, players, params, blocks = _rows(game, policy, players, settings, games, block=games)
        rows = blocks[0]
        aggregate = agg.require(spec)[0]
        acc = agg.tally(spec, players, params)
        cut = 6 * players * 10 + 1  # inside a deal
        acc.add(rows[:cut])
        acc.add(rows[cut:])
        assert acc.spilled == len(rows)
        want = agg.merge(aggregate(spec.frame(rows[:cut])), aggregate(spec.frame(rows[cut:])))
        assert_same_tables(acc.result(), want)


@pytest.mark.parametrize("threads", [1, 2])
def test_blocks_out_of_the_grid_between_blocks_in_it_drop_only_their_own_cells(threads):
    """Blocks that fit, then ones the kernel cannot place, then ones that fit
    again, on one or two threads (each thread keeps its share's cells of the
    block before until the next block): the tables are those of the fitting
    blocks' cells and the others' frames."""
    for game, policy, players, settings, games in (CASES[3], CASES[12]):
        spec, players, params, blocks = _rows(game, policy, players, settings, games * 8, block=games * 8)
        rows = blocks[0]
        aggregate = agg.require(spec)[0]
        games_of = rows[:, 0]
        half = int(np.searchsorted(games_of, games_of[len(rows) // 2]))  # whole games before
        cut = half + 6 * players * 10 + 1  # inside a deal
        assert half > 2 * 4096  # two shares a block on two threads
        # forty whole deals, then one that starts at its second seat: cells added before the kernel stops
        torn = np.concatenate([rows[half : half + 40 * players], rows[half + 1 : half + 1 + players]])
        parts = [rows[:half], torn, rows[cut:], rows[:half], rows[: 64 * players]]
        set_threads(threads)
        try:
            acc = agg.tally(spec, players, params)
            for part in parts:
                acc.add(part)
        finally:
            set_threads(None)
        assert acc.rows == sum(len(p) for p in parts) and acc.spilled == len(torn) + len(rows) - cut
        want = agg.merge(*(aggregate(spec.frame(p)) for p in parts))
        assert_same_tables(acc.result(), want)


def test_grid_tables_equal_moments():
    rnd = np.random.default_rng(8)
    n = 3000
    cats = pd.CategoricalDtype(["x", "a", "m"])
    df = pd.DataFrame(
        {
            "c": pd.Categorical.from_codes(rnd.integers(0, 3, n), dtype=cats),
            "b": rnd.integers(0, 2, n).astype(bool),
            "v": rnd.integers(-3, 4, n).astype(np.int8),
            "w": rnd.integers(-50, 50, n).astype(np.int16),
        }
    )
    grid = agg.Grid(
        [("t", [("c", cats, 0, 3), ("b", np.dtype(bool), 0, 2), ("v", np.dtype(np.int8), -5, 12)], ["w"])]
    )
    cell = (df["c"].cat.codes.to_numpy() * 2 + df["b"].to_numpy()) * 12 + df["v"].to_numpy() + 5
    w = df["w"].to_numpy(np.int64)
    acc = np.concatenate(
        [
            np.bincount(cell, minlength=72),
            np.bincount(cell, w, 72).astype(np.int64),
            np.bincount(cell, w * w, 72).astype(np.int64),
        ]
    )
    pd.testing.assert_frame_equal(
        grid.frames(acc)["t"], agg.moments(df, ["c", "b", "v"], ["w"]), check_exact=True
    )


@pytest.mark.parametrize("game,policy,players,settings,games", CASES[1::3])
def test_analyze_of_a_frame_goes_through_the_tally_and_equals_pandas(game, policy, players, settings, games):
    spec = registry.get(game)
    module = __import__(f"cardmc.{game}", fromlist=["aggregate"])
    df = api.simulate(game, games=games, seed=9, policy=policy, players=players, threads=1, **settings)
    n = spec.check_players(players)
    fast = agg.tally_frame(spec, module._COLUMNS, df, n)
    assert fast is not None
    assert_same_tables(fast, module.aggregate(df))
    assert_same_tables(api.analyze(game, df), module.summarise(module.aggregate(df)))
    # frames the tally does not take: games out of order, another dtype; analyze still agrees with pandas
    shuffled = df.iloc[::-1].reset_index(drop=True)
    assert agg.tally_frame(spec, module._COLUMNS, shuffled, n) is None
    wider = df.astype({"seat": "int32"})
    assert agg.tally_frame(spec, module._COLUMNS, wider, n) is None
    assert_same_tables(module.analyze(shuffled), module.summarise(module.aggregate(shuffled)))


def test_a_frame_is_tallied_in_pieces_of_whole_games(monkeypatch):
    game, policy, players, settings, games = CASES[14]
    module = __import__(f"cardmc.{game}", fromlist=["aggregate"])
    df = api.simulate(game, games=games, seed=2, policy=policy, players=players, threads=1, **settings)
    monkeypatch.setattr(agg, "FRAME_PIECE", 1000)  # not a multiple of a game's rows
    fast = agg.tally_frame(registry.get(game), module._COLUMNS, df, players)
    assert fast is not None
    assert_same_tables(fast, module.aggregate(df))


@pytest.mark.parametrize("game", ["differenzler", "schieber", "english_jazz", "norwegian_jazz"])
def test_a_block_tallied_slice_by_slice_is_the_block_tallied_after(game):
    """A block whose slices were tallied as the kernel wrote them (``block``)
    gives the tables of its rows; when those slices did not hold all its rows
    (the search player's blocks) or did not fit the grid, ``add`` drops
    them and tallies the block itself."""
    spec = registry.get(game)
    players = spec.default_players
    params, codes = spec.params(spec.settings({})), spec.parse_policy("random", players)
    aggregate = agg.require(spec)[0]
    for threads in (1, 2):
        set_threads(threads)
        try:
            acc = agg.tally(spec, players, params)
            after = acc.block(threads)
            rows, spans = spec.simulate_spans(9, 0, 700, players, params, codes, after=after)
            rows = rows.copy()
            acc.add(rows, spans)
            want = [aggregate(spec.frame(join_spans(rows.copy(), spans)))]
            for broken in ("part", "misfit"):
                after = acc.block(threads)
                lo, hi = int(spans[0, 0]), int(spans[0, 0] + spans[0, 1])
                if broken == "part":
                    after(0, rows, lo, lo + (hi - lo) // players // 2 * players)  # half a span's deals
                else:  # one slice's last row out of the grid: the kernel stops there, rows before it tallied
                    bad = rows.copy()
                    bad[hi - 1, list(spec.columns).index("penalty" if game == "differenzler" else "seat")] = (
                        9999
                    )
                    after(0, bad, lo, hi)
                    for first, n in spans[1:].tolist():
                        after(0, rows, first, first + n)
                    assert acc.fused[1][0, 1] > 0
                acc.add(rows, spans)
                want.append(want[0])
        finally:
            set_threads(None)
        assert acc.rows == 3 * int(spans[:, 1].sum()) and acc.spilled == 0
        assert_same_tables(acc.result(), agg.merge(*want))
