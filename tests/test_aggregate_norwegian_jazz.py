"""Norwegian Jazz aggregates: additive over any split into whole games, the
summary equal to direct computations on the rows, and aggregate mode giving
exactly the tables of the row analysis."""
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
from analysis import norwegian_jazz as A

GAMES = 900
SEED = 7
PLAYERS = 5
POLICY = "heuristic,random,heuristic,random,random"
GAME = "norwegian_jazz"
ROOT = Path(__file__).resolve().parents[1]  # the command line runs this checkout, installed or not


@pytest.fixture(scope="module")
def rows() -> pd.DataFrame:
    return api.simulate(GAME, games=GAMES, seed=SEED, players=PLAYERS, policy=POLICY, threads=1)


@pytest.fixture(scope="module")
def row_tables(rows) -> dict:
    return api.analyze(GAME, rows)


@pytest.fixture(scope="module")
def mixed(rows) -> pd.DataFrame:
    """Rows of three player counts (game numbers repeat across them)."""
    more = [api.simulate(GAME, games=300, seed=SEED, players=n, threads=1) for n in (3, 7)]
    return pd.concat([rows, *more], ignore_index=True)


def assert_same_tables(a: dict, b: dict) -> None:
    assert list(a) == list(b)
    for name in a:
        pd.testing.assert_frame_equal(a[name], b[name], check_exact=True)


def test_aggregates_are_additive_over_whole_games(mixed):
    whole = A.aggregate(mixed)
    assert all((t.dtypes == np.int64).all() for t in whole.values())
    games = mixed["game"].to_numpy()
    parts = [A.aggregate(mixed[(games >= a) & (games < b)]) for a, b in [(0, 2), (2, 250), (250, GAMES)]]
    merged = agg.merge(*parts[::-1])
    assert list(merged) == list(whole)
    for name in whole:
        pd.testing.assert_frame_equal(merged[name], whole[name], check_exact=True)
    assert_same_tables(A.summarise(merged), A.analyze(mixed))


def per_game(df: pd.DataFrame) -> pd.DataFrame:
    """Sixth-deal flags and tau-b per (players, game), straight from the rows."""
    last = df[df["deal"] == 6].sort_values(["players", "game", "seat"])
    g = last.groupby(["players", "game"], observed=True)
    lead5 = last["total5"] == g["total5"].transform("max")
    win = last["total"] == g["total"].transform("max")
    out = last.assign(diff=lead5 != win).groupby(["players", "game"], observed=True)["diff"].any()
    out = out.rename("changed").reset_index()
    out["tau"] = np.concatenate([
        A.kendall_tau_b(t["total5"].to_numpy().reshape(-1, n), t["total"].to_numpy().reshape(-1, n))
        for n, t in last.groupby("players", observed=True)])  # fmt: skip
    return out


def test_summary_matches_direct_row_computations(mixed):
    tables = A.analyze(mixed)
    games = per_game(mixed)
    changed = stats.grouped_proportion(games.astype({"players": np.int64}), ["players"], "changed")
    pd.testing.assert_frame_equal(tables["sixth_deal_changed"], changed, check_exact=False, rtol=1e-12)
    tau = stats.grouped_mean(games.dropna(subset=["tau"]).astype({"players": np.int64}), ["players"], "tau")
    pd.testing.assert_frame_equal(tables["rank_correlation"], tau, check_exact=False, rtol=1e-12)
    assert tables["games"]["games"].tolist() == [300, GAMES, 300]
    quant = mixed.groupby(["players", "deal"], observed=True)["score"].apply(stats.quantiles).unstack()
    pd.testing.assert_frame_equal(tables["deal_score_quantiles"], quant, check_exact=False, rtol=1e-12)
    mean = mixed.groupby(["players", "game", "deal"], observed=True)["score"].transform("mean")
    effect = stats.grouped_mean(mixed.assign(effect=mixed["score"] - mean), ["players", "deal", "rel_seat"], "effect")
    pd.testing.assert_frame_equal(tables["seat_effect"], effect, check_exact=False, rtol=1e-12)
    six = mixed[mixed["deal"] == 6]
    passes = stats.grouped_mean(six, ["players", "rel_seat"], "passes")
    pd.testing.assert_frame_equal(tables["sevens_passes_by_seat"], passes, check_exact=False, rtol=1e-12)
    first = mixed[mixed["deal"] == 1]
    wins = stats.grouped_proportion(first.assign(win=first["winner"] == 1), ["players", "rel_seat"], "win")
    pd.testing.assert_frame_equal(tables["wins_by_seat"], wins, check_exact=False, rtol=1e-12)


def test_aggregate_mode_equals_row_analysis(tmp_path, row_tables):
    kw = dict(games=GAMES, seed=SEED, players=PLAYERS, policy=POLICY, threads=1)
    aggs = api.simulate(GAME, aggregate=True, chunk_games=250, **kw)
    assert isinstance(aggs, agg.Aggregates) and aggs.attrs["game"] == GAME
    assert_same_tables(api.analyze(GAME, aggs), row_tables)
    folder = api.simulate(GAME, aggregate=True, chunk_games=400, out=tmp_path / "run", **kw)
    assert len(list(folder.glob("agg-*.parquet"))) == 3
    assert_same_tables(api.analyze(GAME, folder), row_tables)
    single = api.simulate(GAME, aggregate=True, out=tmp_path / "a.parquet", **kw)
    assert_same_tables(api.analyze(GAME, single), row_tables)
    rows_file = api.simulate(GAME, out=tmp_path / "rows.parquet", **kw)  # analysed part by part
    assert_same_tables(api.analyze(GAME, rows_file), row_tables)


def test_cli_aggregate_folder_analysis_equals_row_analysis(tmp_path):
    base = ["simulate", GAME, "--games", "500", "--seed", "4", "--players", "4", "--no-progress"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    for args in (["--out", "rows.parquet"], ["--out", "aggs/", "--aggregate", "--chunk-games", "200"]):
        done = subprocess.run([sys.executable, "-m", "analysis.cli", *base, *args], cwd=tmp_path,
                              env=env, capture_output=True, text=True)  # fmt: skip
        assert done.returncode == 0, done.stderr
    for source in ("rows.parquet", "aggs"):
        done = subprocess.run([sys.executable, "-m", "analysis.cli", "analyze", GAME, source],
                              cwd=tmp_path, env=env, capture_output=True, text=True)  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert "500 games, seed 4" in done.stdout
    names = sorted(p.name for p in (tmp_path / "rows-analysis").iterdir())
    assert names and names == sorted(p.name for p in (tmp_path / "aggs-analysis").iterdir())
    for name in names:
        assert (tmp_path / "rows-analysis" / name).read_text() == (tmp_path / "aggs-analysis" / name).read_text()
