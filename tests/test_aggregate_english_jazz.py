"""English Jazz aggregates: additive over any split into whole games, the tables of the former row
analysis, and aggregate runs giving exactly the tables of the row analysis."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis import aggregate as agg
from analysis import api, stats
from analysis import english_jazz as E
from kernels import english_jazz as k

GAMES = 3000
SEED = 4  # random play: three deals of these games are swept (rule A)
POLICY = "random"
# the command line runs this source tree, not an installed copy of the package
ROOT = str(Path(__file__).resolve().parents[1])
SOURCE_ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [ROOT, os.environ.get("PYTHONPATH")]))}


@pytest.fixture(scope="module")
def rows() -> pd.DataFrame:
    return api.simulate("english_jazz", games=GAMES, seed=SEED, policy=POLICY, threads=1)


@pytest.fixture(scope="module")
def row_tables(rows) -> dict:
    return api.analyze("english_jazz", rows)


def row_analysis(df: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The analysis as it was computed from the rows before aggregates, kept to compare."""
    out: dict[str, pd.DataFrame] = {}
    row = E._row
    names = pd.Categorical(df["position"].map(E.POSITIONS), categories=list(E.POSITIONS.values()))
    df = df.assign(position_name=names)
    deals = df[df["seat"] == 0]
    n_games = int(df["game"].nunique())
    game_sweep = df.groupby("game")["all_tricks"].max()
    out["all_tricks"] = pd.concat([
        row("per deal", stats.proportion(int((deals["rule"] == "A").sum()), len(deals))),
        row("per hand", stats.proportion(int(df["all_tricks"].sum()), len(df))),
        row("per game of 12 deals", stats.proportion(int(game_sweep.sum()), n_games)),
    ])  # fmt: skip
    out["all_tricks_by_position"] = stats.grouped_proportion(df, ["position_name"], "all_tricks")
    features = df.assign(points_held_bin=pd.cut(df["points_held"], [-1, 19, 29, 39, 49, 59, 69, 120]))
    parts = []
    for feature in ("aces", "jacks", "nines", "longest", "voids", "points_held_bin", "trumps_held"):
        g = stats.grouped_proportion(features, [feature], "all_tricks")
        g.index = pd.MultiIndex.from_product([[feature], g.index.astype(str)], names=["feature", "value"])
        parts.append(g)
    out["all_tricks_by_feature"] = pd.concat(parts)
    n = len(deals)
    rules = deals["rule"].value_counts().reindex(list(k.RULE_LETTERS), fill_value=0)
    out["rules"] = pd.concat([row(r, stats.proportion(int(rules[r]), n)) for r in k.RULE_LETTERS])
    out["trump_never_set"] = row("trump never set", stats.proportion(int(deals["trump"].isna().sum()), n))
    setter_pos = np.where(deals["trump_set_by"] < 0, -1, (deals["trump_set_by"] - deals["dealer"]) % 3)
    names = {**E.POSITIONS, -1: "never"}
    out["trump_set_by"] = pd.concat(
        [row(names[p], stats.proportion(int((setter_pos == p).sum()), n)) for p in (1, 2, 0, -1)]
    )
    out["score_by_position"] = stats.grouped_mean(df, ["position_name"], "score")
    rule_parts = []
    for r in k.RULE_LETTERS:
        g = stats.grouped_mean(df[df["rule"] == r], ["position_name"], "score")
        g.index = pd.MultiIndex.from_product([[r], g.index], names=["rule", "position"])
        rule_parts.append(g)
    out["score_by_rule_and_position"] = pd.concat(rule_parts)
    games = df[df["deal"] == 0]
    games = games.assign(first_position=games["position_name"], win=games["winner"] == 1,
                         sole_win=(games["winner"] == 1) & (games["shared_win"] == 0))  # fmt: skip
    totals = games["total"]
    out["game_totals"] = row("total", {**stats.mean(totals), **stats.quantiles(totals).to_dict()})
    counts = games["total"].value_counts().sort_index()
    lo, hi = stats.wilson(counts.to_numpy(), len(games))
    out["game_total_distribution"] = pd.DataFrame(
        {"share": counts.to_numpy() / len(games), "ci_low": lo, "ci_high": hi, "n": len(games),
         "events": counts.to_numpy()}, index=pd.Index(counts.index, name="total"))  # fmt: skip
    out["wins_by_first_position"] = stats.grouped_proportion(games, ["first_position"], "win")
    out["sole_wins_by_first_position"] = stats.grouped_proportion(games, ["first_position"], "sole_win")
    out["total_by_first_position"] = stats.grouped_mean(games, ["first_position"], "total")
    one = games[games["seat"] == 0]
    out["shared_wins"] = row("games with a shared win", stats.proportion(int(one["shared_win"].sum()), len(one)))
    return out


def assert_same_tables(a: dict, b: dict, exact: bool = True) -> None:
    assert list(a) == list(b)
    tol = {"check_exact": True} if exact else {"check_exact": False, "rtol": 1e-12}
    for name in a:
        pd.testing.assert_frame_equal(a[name], b[name], obj=name, **tol)


def test_aggregates_are_additive_over_whole_games(rows):
    whole = E.aggregate(rows)
    assert all(c == "n" or c.startswith("score_") for t in whole.values() for c in t.columns)
    assert all(t[c].dtype == np.int64 for t in whole.values() for c in t.columns)
    games = rows["game"].to_numpy()
    parts = [E.aggregate(rows[(games >= a) & (games < b)]) for a, b in [(0, 2), (2, 1900), (1900, GAMES)]]
    merged = agg.merge(*parts[::-1])
    assert list(merged) == list(whole)
    for name in whole:
        pd.testing.assert_frame_equal(merged[name], whole[name], check_exact=True, obj=name)


@pytest.mark.parametrize("games, seed, policy", [(GAMES, SEED, POLICY), (300, 2, "heuristic")])
def test_tables_equal_the_former_row_analysis(games, seed, policy):
    """Same names, index, columns and dtypes; counts exact, floats to 1e-12 (with and without sweeps)."""
    df = api.simulate("english_jazz", games=games, seed=seed, policy=policy, threads=1)
    new, old = E.analyze(df), row_analysis(df)
    assert_same_tables(new, old, exact=False)
    for name, table in new.items():
        for c in {"n", "events"} & set(table.columns):
            assert table[c].tolist() == old[name][c].tolist(), (name, c)


def test_summary_matches_direct_row_computations(rows, row_tables):
    """The aggregate route gives the figures a direct pandas computation gives."""
    deals = rows[rows["seat"] == 0]
    sweeps = row_tables["all_tricks"]
    assert sweeps.loc["per deal", "events"] == (deals["rule"] == "A").sum() == 3
    per_game = rows.groupby("game")["all_tricks"].any()
    assert sweeps.loc["per game of 12 deals", ["events", "n"]].tolist() == [per_game.sum(), GAMES]
    assert sweeps.loc["per game of 12 deals", "ci_high"] == pytest.approx(stats.wilson(3, GAMES)[1], rel=1e-12)
    first = rows[rows["deal"] == 0]
    pd.testing.assert_series_equal(row_tables["game_totals"].loc["total", "q05":"q95"],
                                   stats.quantiles(first["total"]), check_names=False)  # fmt: skip
    assert row_tables["game_totals"].loc["total", "estimate"] == pytest.approx(first["total"].mean(), abs=1e-12)
    setter = (deals["trump_set_by"] - deals["dealer"]) % 3
    assert row_tables["trump_set_by"].loc["dealer", "events"] == ((deals["trump_set_by"] >= 0) & (setter == 0)).sum()
    assert row_tables["trump_never_set"]["events"].item() == deals["trump"].isna().sum()
    leader = rows[rows["position"] == 1]["score"]
    means = row_tables["score_by_position"].loc["leader"]
    assert means["estimate"] == pytest.approx(leader.mean(), rel=1e-12) and means["n"] == len(leader)
    assert means["se"] == pytest.approx(leader.std() / np.sqrt(len(leader)), rel=1e-12)
    aces = row_tables["all_tricks_by_feature"].loc["aces"]
    assert aces["n"].tolist() == rows["aces"].value_counts().sort_index().tolist()
    counts = first["total"].value_counts().sort_index()
    distribution = row_tables["game_total_distribution"]
    assert distribution.index.tolist() == counts.index.tolist() and distribution["events"].tolist() == counts.tolist()
    shared = first[first["seat"] == 0]["shared_win"]
    assert row_tables["shared_wins"][["events", "n"]].iloc[0].tolist() == [shared.sum(), GAMES]


def test_aggregate_mode_equals_row_analysis(tmp_path, row_tables):
    kw = dict(games=GAMES, seed=SEED, policy=POLICY, threads=1)
    aggs = api.simulate("english_jazz", aggregate=True, chunk_games=700, **kw)
    assert isinstance(aggs, agg.Aggregates) and aggs.attrs["game"] == "english_jazz"
    assert_same_tables(api.analyze("english_jazz", aggs), row_tables)
    folder = api.simulate("english_jazz", aggregate=True, chunk_games=1100, out=tmp_path / "run", **kw)
    assert len(list(folder.glob("agg-*.parquet"))) == 3
    assert_same_tables(api.analyze("english_jazz", folder), row_tables)
    single = api.simulate("english_jazz", aggregate=True, out=tmp_path / "a.parquet", **kw)
    assert_same_tables(api.analyze("english_jazz", single), row_tables)
    rows_file = api.simulate("english_jazz", out=tmp_path / "rows.parquet", **kw)  # analysed part by part
    assert_same_tables(api.analyze("english_jazz", rows_file), row_tables)


def test_cli_aggregate_folder_analysis_equals_row_analysis(tmp_path):
    base = ["simulate", "english_jazz", "--games", "500", "--seed", "4", "--policy", "random", "--no-progress"]
    for args in (["--out", "rows.parquet"], ["--out", "aggs/", "--aggregate", "--chunk-games", "170"]):
        done = subprocess.run([sys.executable, "-m", "analysis.cli", *base, *args], cwd=tmp_path,
                              env=SOURCE_ENV, capture_output=True, text=True)  # fmt: skip
        assert done.returncode == 0, done.stderr
    for source in ("rows.parquet", "aggs"):
        done = subprocess.run([sys.executable, "-m", "analysis.cli", "analyze", "english_jazz", source],
                              cwd=tmp_path, env=SOURCE_ENV, capture_output=True, text=True)  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert "500 games, seed 4" in done.stdout
    names = sorted(p.name for p in (tmp_path / "rows-analysis").iterdir())
    assert names and names == sorted(p.name for p in (tmp_path / "aggs-analysis").iterdir())
    for name in names:
        assert (tmp_path / "rows-analysis" / name).read_text() == (tmp_path / "aggs-analysis" / name).read_text()
