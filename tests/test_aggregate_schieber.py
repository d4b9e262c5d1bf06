"""Schieber's mergeable aggregates: additive over any split into whole matches, the summary agreeing
with direct computations on the rows, and aggregate mode giving exactly the tables of the row analysis."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cardmc import schieber as S
from cardmc import stats
from tests.helpers import assert_same_tables, check_aggregate_routes, merged_parts

GAME = "schieber"
GAMES = 400
RUN = dict(games=GAMES, seed=11, policy="heuristic,random,heuristic,random", threads=1)  # for conftest.py


def test_schieber_aggregates_are_additive(rows):
    whole = S.aggregate(rows)
    for name, table in whole.items():
        assert (table.dtypes == np.int64).all(), name
    assert_same_tables(merged_parts(S.aggregate, rows, [0, 3, 250, GAMES]), whole)


def test_schieber_summary_matches_direct_row_computations(rows, row_tables):
    """The aggregate route gives the figures a direct pandas computation gives."""
    df = rows
    chooser = df[df["seat"] == df["chooser"]]
    played = chooser[chooser["match_end"] == 0]
    points = row_tables["points_by_contract"].xs("chooser team deal score (after)", level="measure")
    pd.testing.assert_frame_equal(
        points, stats.grouped_mean(played, ["contract"], "score"), check_exact=False, rtol=1e-12
    )
    # per match: its length, with quantiles, and Schneider
    games = df[(df["deal"] == 0) & (df["seat"] == 0)]
    length = row_tables["match_length"].iloc[0]
    want = {**stats.mean(games["deals"]), **stats.quantiles(games["deals"]).to_dict()}
    assert length.to_dict() == pytest.approx(want, rel=1e-12)
    assert row_tables["schneider"].iloc[0]["events"] == games["schneider"].sum()
    first = games["winner"] == games["forehand"] % 2
    advantage = row_tables["forehand_advantage"]
    assert advantage.loc["first forehand's team wins the match", "events"] == first.sum()
    # per deal: the forehand team's share of the card points and a team taking all nine tricks
    complete = df[df["match_end"] == 0]
    team_points = complete.pivot_table(
        index=["game", "deal"], columns="team", values="card_points", aggfunc="first"
    )
    forehand = complete[complete["seat"] == 0].set_index(["game", "deal"])["forehand"] % 2
    own = np.where(forehand == 0, team_points[0], team_points[1])
    share = stats.mean(own / (team_points[0] + team_points[1]))
    got = advantage.loc["forehand team share of card points", ["estimate", "se", "ci_low", "ci_high", "n"]]
    assert got.to_dict() == pytest.approx(share, rel=1e-12)
    tricks = complete.groupby(["game", "deal", "team"])["tricks"].sum()
    deals = complete[complete["seat"] == 0].set_index(["game", "deal"])[["contract"]]
    deals["match"] = (tricks == 9).groupby(level=["game", "deal"]).any()
    want = stats.grouped_proportion(deals, ["contract"], "match")
    pd.testing.assert_frame_equal(row_tables["match_by_contract"], want, check_exact=False, rtol=1e-12)
    # per hand: Weis declared, and per deal: who scored it
    weis = row_tables["weis_per_hand"]
    assert weis.loc["any", "events"] == (df["weis_kinds"] != 0).sum() and weis.loc["any", "n"] == len(df)
    assert row_tables["weis_team"]["estimate"].sum() == pytest.approx(1.0)
    forehands = df[df["seat"] == df["forehand"]]
    assert row_tables["weis_team"].loc["forehand team", "events"] == forehands["weis_scored"].sum()
    trump = df[df["contract"].isin(["C", "D", "H", "S"])].groupby(["game", "deal"])["stoeck"].max()
    assert row_tables["stoeck"].iloc[0][["n", "events"]].tolist() == [len(trump), trump.sum()]
    # per chooser: the contract chosen, by push and by hand
    contracts = row_tables["contracts"]
    want = stats.grouped_proportion(chooser.assign(c=chooser["contract"] == "obenabe"), ["pushed"], "c")
    got = contracts.xs("obenabe", level="contract_name")
    pd.testing.assert_frame_equal(got, want, check_exact=False, rtol=1e-12)
    counts = chooser.loc[chooser["tens"] == 1, "contract"].value_counts()
    by_hand = row_tables["contract_by_chooser_hand"].reset_index()
    got = by_hand[(by_hand["feature"] == "tens") & (by_hand["value"] == 1)]
    assert got["contract"].tolist() == counts.index.tolist()  # most chosen first
    assert (got["estimate"] * got["n"]).round().astype(int).tolist() == counts.tolist()


def test_aggregate_mode_equals_row_analysis(tmp_path, row_tables):
    check_aggregate_routes(GAME, tmp_path, row_tables, chunk_games=(150, 170), **RUN)
