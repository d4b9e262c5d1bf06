"""English Jazz aggregates: additive over any split into whole games, the tables of the former row
analysis, and aggregate runs giving exactly the tables of the row analysis."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cardmc import api, stats
from cardmc import english_jazz as E
from cardmc.kernels import english_jazz as k
from tests.helpers import assert_same_tables, check_aggregate_routes, merged_parts

GAME = "english_jazz"
GAMES = 3000
SEED = 4  # random play: three deals of these games are swept (rule A)
POLICY = "random"
RUN = dict(games=GAMES, seed=SEED, policy=POLICY, threads=1)  # the rows and row_tables of conftest.py


def row_analysis(df: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The analysis as it was computed from the rows before aggregates, kept to compare."""
    out: dict[str, pd.DataFrame] = {}
    row = stats.row
    names = pd.Categorical(df["position"].map(E.POSITIONS), categories=list(E.POSITIONS.values()))
    df = df.assign(position_name=names)
    deals = df[df["seat"] == 0]
    n_games = int(df["game"].nunique())
    game_sweep = df.groupby("game")["all_tricks"].max()
    out["all_tricks"] = pd.concat(
        [
            row("per deal", stats.proportion(int((deals["rule"] == "A").sum()), len(deals))),
            row("per hand", stats.proportion(int(df["all_tricks"].sum()), len(df))),
            row("per game of 12 deals", stats.proportion(int(game_sweep.sum()), n_games)),
        ]
    )
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
    games = games.assign(
        first_position=games["position_name"],
        win=games["winner"] == 1,
        sole_win=(games["winner"] == 1) & (games["shared_win"] == 0),
    )
    totals = games["total"]
    out["game_totals"] = row("total", {**stats.mean(totals), **stats.quantiles(totals).to_dict()})
    counts = games["total"].value_counts().sort_index()
    lo, hi = stats.wilson(counts.to_numpy(), len(games))
    out["game_total_distribution"] = pd.DataFrame(
        {
            "share": counts.to_numpy() / len(games),
            "ci_low": lo,
            "ci_high": hi,
            "n": len(games),
            "events": counts.to_numpy(),
        },
        index=pd.Index(counts.index, name="total"),
    )
    out["wins_by_first_position"] = stats.grouped_proportion(games, ["first_position"], "win")
    out["sole_wins_by_first_position"] = stats.grouped_proportion(games, ["first_position"], "sole_win")
    out["total_by_first_position"] = stats.grouped_mean(games, ["first_position"], "total")
    one = games[games["seat"] == 0]
    out["shared_wins"] = row(
        "games with a shared win", stats.proportion(int(one["shared_win"].sum()), len(one))
    )
    return out


def test_aggregates_are_additive_over_whole_games(rows):
    whole = E.aggregate(rows)
    assert all(c == "n" or c.startswith("score_") for t in whole.values() for c in t.columns)
    assert all(t[c].dtype == np.int64 for t in whole.values() for c in t.columns)
    assert_same_tables(merged_parts(E.aggregate, rows, [0, 2, 1900, GAMES]), whole)


@pytest.mark.parametrize("games, seed, policy", [(GAMES, SEED, POLICY), (300, 2, "heuristic")])
def test_tables_equal_the_former_row_analysis(games, seed, policy):
    """Same names, index, columns and dtypes; counts exact, floats to 1e-12 (with and without sweeps)."""
    df = api.simulate(GAME, games=games, seed=seed, policy=policy, threads=1)
    new, old = E.analyze(df), row_analysis(df)
    assert_same_tables(new, old, rtol=1e-12)
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
    assert sweeps.loc["per game of 12 deals", "ci_high"] == pytest.approx(
        stats.wilson(3, GAMES)[1], rel=1e-12
    )
    first = rows[rows["deal"] == 0]
    pd.testing.assert_series_equal(
        row_tables["game_totals"].loc["total", "q05":"q95"],
        stats.quantiles(first["total"]),
        check_names=False,
    )
    assert row_tables["game_totals"].loc["total", "estimate"] == pytest.approx(
        first["total"].mean(), abs=1e-12
    )
    setter = (deals["trump_set_by"] - deals["dealer"]) % 3
    assert (
        row_tables["trump_set_by"].loc["dealer", "events"]
        == ((deals["trump_set_by"] >= 0) & (setter == 0)).sum()
    )
    assert row_tables["trump_never_set"]["events"].item() == deals["trump"].isna().sum()
    leader = rows[rows["position"] == 1]["score"]
    means = row_tables["score_by_position"].loc["leader"]
    assert means["estimate"] == pytest.approx(leader.mean(), rel=1e-12) and means["n"] == len(leader)
    assert means["se"] == pytest.approx(leader.std() / np.sqrt(len(leader)), rel=1e-12)
    aces = row_tables["all_tricks_by_feature"].loc["aces"]
    assert aces["n"].tolist() == rows["aces"].value_counts().sort_index().tolist()
    counts = first["total"].value_counts().sort_index()
    distribution = row_tables["game_total_distribution"]
    assert (
        distribution.index.tolist() == counts.index.tolist()
        and distribution["events"].tolist() == counts.tolist()
    )
    shared = first[first["seat"] == 0]["shared_win"]
    assert row_tables["shared_wins"][["events", "n"]].iloc[0].tolist() == [shared.sum(), GAMES]


def test_aggregate_mode_equals_row_analysis(tmp_path, row_tables):
    check_aggregate_routes(GAME, tmp_path, row_tables, chunk_games=(700, 1100), **RUN)
