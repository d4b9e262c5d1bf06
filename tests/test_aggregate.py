"""Mergeable aggregates: exact against pandas, additive over any split, a
lossless Parquet round trip, the summaries (means, shares, events) agreeing
with cardmc.stats, Differenzler's aggregate mode giving exactly the tables
of its row analysis, and for every game the command line giving the same
CSV tables from a rows file as from an aggregate run folder."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from cardmc import aggregate as agg
from cardmc import api, registry, stats
from cardmc import differenzler as D
from cardmc.registry import UsageError
from tests.helpers import assert_same_tables, check_aggregate_routes, merged_parts, run_cli

GAME = "differenzler"
GAMES = 1500
SEED = 11
POLICY = "calibrated,random,heuristic:random,heuristic"
RUN = dict(games=GAMES, seed=SEED, policy=POLICY, threads=1)  # the rows and row_tables of conftest.py


def random_frame(n: int, rnd: np.random.Generator) -> pd.DataFrame:
    suit = pd.Categorical.from_codes(rnd.integers(-1, 4, n), categories=list("CDHS"))  # -1: missing
    return pd.DataFrame(
        {
            "suit": suit,
            "small": rnd.integers(-3, 5, n).astype(np.int8),
            "flag": rnd.integers(0, 2, n).astype(bool),
            "name": np.array(["ann", "bob", "cy"])[rnd.integers(0, 3, n)],
            "big": rnd.integers(0, 10**12, n),
            "x": rnd.integers(-50, 200, n).astype(np.int16),
            "y": rnd.normal(size=n),
        }
    )


def test_moments_equal_pandas_groupby():
    rnd = np.random.default_rng(1)
    df = random_frame(5000, rnd)
    where = rnd.random(len(df)) < 0.7
    for by in (["suit"], ["small", "flag"], ["name", "suit", "small"], ["big"]):
        got = agg.moments(df, by, ["x", "y"], where=where)
        sub = df[where]
        g = sub.groupby(by, observed=True, dropna=True)
        want_n = g.size()
        assert got["n"].tolist() == want_n.tolist() and got["n"].sum() == want_n.sum()
        assert got.index.tolist() == want_n.index.tolist()
        assert (
            got["x_sum"].dtype == np.int64 and got["x_sum"].tolist() == g["x"].sum().astype(np.int64).tolist()
        )
        sq = sub.assign(xx=sub["x"].astype(np.int64) ** 2, yy=sub["y"] ** 2).groupby(by, observed=True)
        assert got["x_sumsq"].tolist() == sq["xx"].sum().tolist()
        np.testing.assert_allclose(got["y_sum"], g["y"].sum(), rtol=1e-12)
        np.testing.assert_allclose(got["y_sumsq"], sq["yy"].sum(), rtol=1e-12)
    keyless = agg.moments(df, [], ["x"])
    assert keyless["n"].tolist() == [len(df)] and keyless["x_sum"].tolist() == [
        int(df["x"].astype(int).sum())
    ]


def test_mean_and_quantiles_equal_stats_module():
    rnd = np.random.default_rng(2)
    df = random_frame(3000, rnd)
    table = agg.mean_table(agg.moments(df, ["name", "small"], ["x"]), "x")
    want = stats.grouped_mean(df, ["name", "small"], "x")
    pd.testing.assert_frame_equal(table, want, check_exact=False, rtol=1e-12)
    hist = agg.counts(df, ["x"])
    got = agg.histogram_quantiles(hist.index.to_numpy(), hist["n"].to_numpy())
    pd.testing.assert_series_equal(got, stats.quantiles(df["x"]), check_exact=False, rtol=1e-12)


def test_events_and_share_equal_pandas():
    rnd = np.random.default_rng(4)
    df = random_frame(5000, rnd)
    where = rnd.random(len(df)) < 0.8
    table = agg.counts(df, ["name", "suit", "small", "flag"], where=where)
    cells = table.reset_index()
    rows = df[where & df["suit"].notna()]  # rows with a missing key are not counted
    for t in (table, cells):  # keys as index levels or as columns
        assert agg.events(t, "flag") == rows["flag"].sum() and isinstance(agg.events(t, "flag"), int)
        assert agg.events(t, "small", 2) == (rows["small"] == 2).sum()
        assert agg.events(t, "name", "bob") == (rows["name"] == "bob").sum()
    assert (
        agg.events(cells, (cells["small"] > 0) & ~cells["flag"])
        == ((rows["small"] > 0) & ~rows["flag"]).sum()
    )
    assert agg.events(table.iloc[:0], "flag") == 0
    cases = [(["name"], "flag", True), (["small", "name"], "flag", True), (["name", "flag"], "small", 2)]
    for by, key, value in cases:
        want = stats.grouped_proportion(rows.assign(hit=rows[key] == value), by, "hit")
        for t in (table, cells):
            got = agg.share(t, by, key, value)
            pd.testing.assert_frame_equal(got, want, check_exact=False, rtol=1e-12)
            assert (
                got["n"].tolist() == want["n"].tolist() and got["events"].tolist() == want["events"].tolist()
            )
    want = stats.grouped_proportion(rows.assign(hit=rows["small"] < 0), ["name"], "hit")
    pd.testing.assert_frame_equal(
        agg.share(cells, ["name"], cells["small"] < 0), want, check_exact=False, rtol=1e-12
    )


def test_histogram_mean_equals_stats_module():
    rnd = np.random.default_rng(5)
    df = random_frame(4000, rnd)
    df["r"] = rnd.choice(rnd.normal(3.0, 2.0, 40), len(df))  # real values, each many times
    df.loc[0, "name"] = "dee"  # a group of one row: no standard error
    hist = agg.counts(df, ["name", "small", "r"]).reset_index()
    for by in (["name"], ["name", "small"], ["small"]):
        got = agg.histogram_mean(hist, "r", by)
        pd.testing.assert_frame_equal(got, stats.grouped_mean(df, by, "r"), check_exact=False, rtol=1e-12)
    assert np.isnan(agg.histogram_mean(hist, "r", ["name"]).loc["dee", "se"])
    whole = agg.histogram_mean(hist, "r", []).to_dict("records")[0]
    want = stats.mean(df["r"])
    assert whole["n"] == want["n"] == len(df) and isinstance(whole["n"], int)
    for c in ("estimate", "se", "ci_low", "ci_high"):
        assert whole[c] == pytest.approx(want[c], rel=1e-12)
    halves = agg.merge_tables(agg.counts(df.iloc[:1000], ["r"]), agg.counts(df.iloc[1000:], ["r"]))
    pd.testing.assert_frame_equal(
        agg.histogram_mean(halves.reset_index(), "r", []),
        agg.histogram_mean(agg.counts(df, ["r"]).reset_index(), "r", []),
        check_exact=True,
    )


def test_merge_is_exact_over_any_split_and_save_load_round_trips(tmp_path):
    rnd = np.random.default_rng(3)
    df = random_frame(4000, rnd)

    def tables(d):
        return {
            "a": agg.moments(d, ["suit", "small"], ["x"]),
            "b": agg.counts(d, ["name", "flag", "x"]),
            "c": agg.moments(d, [], ["x", "y"]),
        }

    whole = tables(df)
    cuts = [0, 1, 700, 701, 2500, 4000]
    parts = [tables(df.iloc[a:b]) for a, b in zip(cuts, cuts[1:])]
    merged = agg.merge(*parts[::-1])
    for name in ("a", "b"):
        pd.testing.assert_frame_equal(merged[name], whole[name], check_exact=True)
    np.testing.assert_allclose(merged["c"].to_numpy(float), whole["c"].to_numpy(float), rtol=1e-12)
    path = agg.save(whole, tmp_path / "a.parquet", {"game": "test"})
    back = agg.load(path)
    assert back.attrs["game"] == "test" and list(back) == list(whole)
    for name in whole:
        pd.testing.assert_frame_equal(back[name], whole[name], check_exact=True)


def test_differenzler_aggregates_are_additive(rows):
    whole = D.aggregate(rows)
    assert_same_tables(merged_parts(D.aggregate, rows, [0, 7, 900, GAMES]), whole)
    # additive over any split of the rows, not only whole games
    assert_same_tables(agg.merge(D.aggregate(rows.iloc[::2]), D.aggregate(rows.iloc[1::2])), whole)


def test_differenzler_summary_matches_direct_row_computations(rows, row_tables):
    """The aggregate route gives the figures a direct pandas computation gives."""
    df = rows.assign(policy=rows["play_policy"].astype(str) + ":" + rows["declare_policy"].astype(str))
    pd.testing.assert_frame_equal(
        row_tables["penalty_by_policy"],
        stats.grouped_mean(df, ["policy"], "penalty"),
        check_exact=False,
        rtol=1e-12,
    )
    made = stats.grouped_mean(df, ["policy", "trumps"], "made")
    pd.testing.assert_frame_equal(row_tables["made_by_trumps"], made, check_exact=False, rtol=1e-12)
    bins = pd.cut(df["declared"], np.arange(-1, 170, 10))
    cal = stats.grouped_mean(df.assign(declared_bin=bins), ["policy", "declared_bin"], "made")
    pd.testing.assert_frame_equal(row_tables["calibration"], cal, check_exact=False, rtol=1e-12)
    quant = df.groupby("policy", observed=True)["penalty"].apply(stats.quantiles).unstack()
    pd.testing.assert_frame_equal(
        row_tables["penalty_quantiles"], quant, check_exact=False, rtol=1e-12, check_names=False
    )
    first = df[df["deal"] == 0]
    wins = stats.grouped_proportion(first.assign(win=first["winner"] == 1), ["policy"], "win")
    pd.testing.assert_frame_equal(row_tables["wins_by_policy"], wins, check_exact=False, rtol=1e-12)
    games = row_tables["games"].iloc[0]
    assert games["games"] == GAMES == df["game"].nunique() and games["deals"] == len(df) // 4
    assert games["tie_break_share"] == pytest.approx(first["tied"].mean())


def test_aggregate_mode_equals_row_analysis(tmp_path, row_tables):
    check_aggregate_routes(GAME, tmp_path, row_tables, chunk_games=(400, 700), **RUN)


CLI_RUNS = {  # game: games, further simulate options, games a chunk of the aggregate run
    "differenzler": (600, [], 250),
    "schieber": (300, [], 120),
    "english_jazz": (500, ["--policy", "random"], 170),
    "norwegian_jazz": (500, ["--players", "4"], 200),
}


@pytest.mark.parametrize("game", CLI_RUNS)
def test_cli_aggregate_folder_analysis_equals_row_analysis(tmp_path, game):
    games, options, chunk_games = CLI_RUNS[game]
    base = ["simulate", game, "--games", str(games), "--seed", "4", *options, "--no-progress"]
    run_cli(tmp_path, *base, "--out", "rows.parquet")
    run_cli(tmp_path, *base, "--out", "aggs/", "--aggregate", "--chunk-games", str(chunk_games))
    for source in ("rows.parquet", "aggs"):
        assert f"{games} games, seed 4" in run_cli(tmp_path, "analyze", game, source)
    assert len(list((tmp_path / "aggs").glob("agg-*.parquet"))) == -(-games // chunk_games) > 1
    rows_csv, aggs_csv = tmp_path / "rows-analysis", tmp_path / "aggs-analysis"
    names = sorted(p.name for p in rows_csv.iterdir())
    assert names and names == sorted(p.name for p in aggs_csv.iterdir())
    for name in names:
        assert (rows_csv / name).read_bytes() == (aggs_csv / name).read_bytes(), name


def test_aggregate_refused_for_a_game_without_it(monkeypatch):
    spec = dataclasses.replace(
        registry.get("differenzler"), name="whist", tally=None, aggregate=None, summarise=None
    )
    monkeypatch.setattr(registry, "get", lambda name: spec)
    with pytest.raises(UsageError, match="whist has no aggregate analysis"):
        api.simulate("whist", games=10, aggregate=True)


def test_a_file_is_aggregated_whole_game_by_whole_game(tmp_path, rows):
    """Row groups that end inside a game still give each aggregate call whole games."""
    import pyarrow.parquet as pq

    path = api.simulate("differenzler", games=60, seed=SEED, policy=POLICY, out=tmp_path / "rows.parquet")
    table = pq.read_table(path)
    small = tmp_path / "small.parquet"
    pq.write_table(table, small, row_group_size=7)  # 7 rows: groups end mid-deal and mid-game
    assert pq.ParquetFile(small).num_row_groups > 60
    seen: list[pd.DataFrame] = []

    def aggregate(df):
        seen.append(df)
        return {"rows": agg.counts(df, ["game"])}

    total = api._aggregate_parts(registry.get("differenzler"), "differenzler", [small], aggregate)
    whole = table.to_pandas()
    assert total["rows"]["n"].tolist() == whole.groupby("game").size().tolist()
    games = [set(df["game"]) for df in seen]
    assert sum(len(g) for g in games) == len(set().union(*games)) == 60  # no game split between calls


@pytest.mark.parametrize("game", registry.GAMES)
def test_one_thread_s_smaller_blocks_give_the_tables_of_the_rows(game):
    """On one thread an aggregate run tallies blocks of at most
    AGGREGATE_BLOCK_ONE_THREAD games, on two of at most AGGREGATE_BLOCK: a
    run over several blocks gives, on either, exactly the tables of its rows."""
    from cardmc import chunks

    games = 2 * chunks.AGGREGATE_BLOCK_ONE_THREAD + 77
    kw = dict(games=games, seed=5, chunk_games=games)
    want = api.analyze(game, api.simulate(game, threads=1, **kw))
    for threads in (1, 2):
        aggs = api.simulate(game, threads=threads, aggregate=True, **kw)
        assert aggs.attrs["games"] == games
        assert_same_tables(api.analyze(game, aggs), want)


def test_aggregate_blocks_follow_the_game_and_its_players():
    """Several threads take the game's own aggregate block, which may depend
    on the players (Norwegian Jazz: 2048 games from 5 players, 4096 below);
    one thread always the smallest."""
    from cardmc import chunks

    nj, ej, dz = (registry.get(g) for g in ("norwegian_jazz", "english_jazz", "differenzler"))
    assert [chunks.aggregate_block(nj, n, 2) for n in (3, 4, 5, 7)] == [4096, 4096, 2048, 2048]
    assert chunks.aggregate_block(ej, 3, 2) == 2048
    assert chunks.aggregate_block(dz, 4, 2) == registry.AGGREGATE_BLOCK
    assert {chunks.aggregate_block(s, 5, 1) for s in (nj, ej, dz)} == {chunks.AGGREGATE_BLOCK_ONE_THREAD}


def test_norwegian_jazz_blocks_of_seven_players_give_the_tables_of_the_rows():
    """A two-thread aggregate run of 7 players over several of its blocks
    (2048 games) gives exactly the tables of its rows."""
    games = 2 * 2048 + 77
    kw = dict(games=games, seed=3, players=7, chunk_games=games)
    want = api.analyze("norwegian_jazz", api.simulate("norwegian_jazz", threads=1, **kw))
    aggs = api.simulate("norwegian_jazz", threads=2, aggregate=True, **kw)
    assert aggs.attrs["games"] == games
    assert_same_tables(api.analyze("norwegian_jazz", aggs), want)
