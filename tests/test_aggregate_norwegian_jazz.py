"""Norwegian Jazz aggregates: additive over any split into whole games, the
summary equal to direct computations on the rows, and aggregate mode giving
exactly the tables of the row analysis."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cardmc import api, stats
from cardmc import norwegian_jazz as A
from tests.helpers import assert_same_tables, check_aggregate_routes, merged_parts

GAME = "norwegian_jazz"
GAMES = 900
SEED = 7
RUN = dict(games=GAMES, seed=SEED, players=5, policy="heuristic,random,heuristic,random,random", threads=1)


@pytest.fixture(scope="module")
def mixed(rows) -> pd.DataFrame:
    """Rows of three player counts (game numbers repeat across them)."""
    more = [api.simulate(GAME, games=300, seed=SEED, players=n, threads=1) for n in (3, 7)]
    return pd.concat([rows, *more], ignore_index=True)


def test_aggregates_are_additive_over_whole_games(mixed):
    whole = A.aggregate(mixed)
    assert all((t.dtypes == np.int64).all() for t in whole.values())
    merged = merged_parts(A.aggregate, mixed, [0, 2, 250, GAMES])
    assert_same_tables(merged, whole)
    assert_same_tables(A.summarise(merged), A.analyze(mixed))


def per_game(df: pd.DataFrame) -> pd.DataFrame:
    """Sixth-deal flags and tau-b per (players, game), straight from the rows."""
    last = df[df["deal"] == 6].sort_values(["players", "game", "seat"])
    g = last.groupby(["players", "game"], observed=True)
    lead5 = last["total5"] == g["total5"].transform("max")
    win = last["total"] == g["total"].transform("max")
    out = last.assign(diff=lead5 != win).groupby(["players", "game"], observed=True)["diff"].any()
    out = out.rename("changed").reset_index()
    out["tau"] = np.concatenate(
        [
            A.kendall_tau_b(t["total5"].to_numpy().reshape(-1, n), t["total"].to_numpy().reshape(-1, n))
            for n, t in last.groupby("players", observed=True)
        ]
    )
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
    effect = stats.grouped_mean(
        mixed.assign(effect=mixed["score"] - mean), ["players", "deal", "rel_seat"], "effect"
    )
    pd.testing.assert_frame_equal(tables["seat_effect"], effect, check_exact=False, rtol=1e-12)
    six = mixed[mixed["deal"] == 6]
    passes = stats.grouped_mean(six, ["players", "rel_seat"], "passes")
    pd.testing.assert_frame_equal(tables["sevens_passes_by_seat"], passes, check_exact=False, rtol=1e-12)
    first = mixed[mixed["deal"] == 1]
    wins = stats.grouped_proportion(first.assign(win=first["winner"] == 1), ["players", "rel_seat"], "win")
    pd.testing.assert_frame_equal(tables["wins_by_seat"], wins, check_exact=False, rtol=1e-12)


def test_aggregate_mode_equals_row_analysis(tmp_path, row_tables):
    check_aggregate_routes(GAME, tmp_path, row_tables, chunk_games=(250, 400), **RUN)
