"""Paired comparisons (cardmc compare): exact zeros, known differences, pairing, stopping, bad arms."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import cardmc
from cardmc import compare as C
from cardmc.cli import main
from cardmc.registry import UsageError


@pytest.mark.parametrize(
    "game, arms",
    [
        ("differenzler", ["calibrated", "same=calibrated", "; max_extra_deals=4"]),
        ("schieber", ["heuristic,random,heuristic,random", "again=heuristic,random,heuristic,random"]),
        ("english_jazz", ["random", "again=random"]),
        ("norwegian_jazz", ["heuristic", "again=heuristic; first_out_bonus=10"]),
    ],
)
def test_an_arm_against_itself_differs_by_exactly_zero(game, arms):
    t = cardmc.compare(game, arms, games=300, seed=4, block=128)
    assert len(t) == len(arms) * t.index.get_level_values("measure").nunique()
    for (measure, arm), row in t.iterrows():
        assert row["diff"] == 0 and row["diff_se"] == 0, (measure, arm)
        assert row["diff_ci_low"] == 0 and row["diff_ci_high"] == 0
        assert row["diff_n"] == row["n"] == 300
    assert t.attrs["games"] == 300 and t.attrs["stopped_by"] == "games"


def _per_game_penalty(policy: str, games: int, seed: int, seats) -> pd.Series:
    df = cardmc.simulate("differenzler", games=games, seed=seed, policy=policy)
    r = df[(df["extra"] == 0) & df["seat"].isin(seats)]
    return r.groupby("game")["penalty"].mean()


def test_heuristic_beats_random_in_differenzler_paired_per_game():
    t = cardmc.compare("differenzler", ["heuristic", "random"], games=1500, seed=7, block=500)
    row = t.loc[("penalty", "random")]
    assert row["diff"] > 0 and row["diff_ci_low"] > 0  # random declares worse: a higher penalty
    # the figures are those of the per-game differences, computed here independently
    h, r = (_per_game_penalty(p, 1500, 7, range(4)) for p in ("heuristic", "random"))
    d = (r - h).to_numpy()
    assert row["diff"] == pytest.approx(d.mean(), rel=1e-12)
    assert row["diff_se"] == pytest.approx(d.std(ddof=1) / np.sqrt(d.size), rel=1e-9)
    assert t.loc[("penalty", "heuristic"), "estimate"] == pytest.approx(h.mean(), rel=1e-12)
    assert row["unpaired_se"] == pytest.approx(
        np.hypot(h.std(ddof=1), r.std(ddof=1)) / np.sqrt(1500), rel=1e-9
    )


def test_paired_is_tighter_than_unpaired_on_the_same_deals():
    # heuristic play, heuristic or calibrated declarations: the same deals make much the same points
    t = cardmc.compare("differenzler", ["heuristic", "calibrated"], games=1500, seed=7)
    row = t.loc[("penalty", "calibrated")]
    assert row["diff_se"] < 0.95 * row["unpaired_se"], row
    assert row["diff_ci_high"] < 0


def test_only_the_seats_whose_policy_differs_are_measured():
    t = cardmc.compare(
        "differenzler", ["heuristic", "random,heuristic,heuristic,heuristic"], games=400, seed=2
    )
    assert t.attrs["seats"] == [0]
    base = _per_game_penalty("heuristic", 400, 2, [0])
    assert t.loc[("penalty", "heuristic"), "estimate"] == pytest.approx(base.mean(), rel=1e-12)
    s = cardmc.compare("schieber", ["heuristic", "heuristic,random,heuristic,random"], games=200, seed=1)
    assert s.attrs["seats"] == [1, 3]
    wins = s.loc[("wins", "heuristic,random,heuristic,random")]
    assert wins["diff_ci_high"] < 0 and 0 <= wins["ci_low"] <= wins["estimate"] <= wins["ci_high"] <= 1
    both = cardmc.compare("schieber", ["heuristic", "random"], games=50, seed=1)
    assert set(both.index.get_level_values("measure")) == {
        "points per deal"
    }  # no team's wins when both differ


def test_reproducible_across_threads_and_however_it_stopped():
    arms = ["heuristic", "random", "calibrated"]
    one = cardmc.compare("differenzler", arms, games=900, seed=5, block=300, threads=1)
    two = cardmc.compare("differenzler", arms, games=900, seed=5, block=300, threads=2)
    pd.testing.assert_frame_equal(one, two, check_exact=True)
    stopped = cardmc.compare("differenzler", arms, games=100_000, seed=5, block=300, target_se=0.5)
    assert stopped.attrs["stopped_by"] == "target_se" and stopped.attrs["games"] < 100_000
    assert (stopped["diff_se"] < 0.5).all()
    again = cardmc.compare("differenzler", arms, games=stopped.attrs["games"], seed=5, block=300)
    pd.testing.assert_frame_equal(stopped, again, check_exact=True)
    timed = cardmc.compare("differenzler", arms, games=100_000, seed=5, block=300, max_seconds=1e-9)
    assert timed.attrs["stopped_by"] == "max_seconds" and timed.attrs["games"] == 300


def test_where_selects_the_same_hands_in_every_arm():
    text = "trumps >= 4 and aces >= 1"
    t = cardmc.compare("differenzler", ["heuristic", "random"], games=600, seed=3, where=text)
    assert t.attrs["where"] == text
    assert (t["diff_n"] == t["n"]).all()  # hand features of the same deals: the same games in both arms
    df = cardmc.simulate("differenzler", games=600, seed=3, policy="heuristic")
    r = df[(df["extra"] == 0) & (df["trumps"] >= 4) & (df["aces"] >= 1)]
    per_game = r.groupby("game")["penalty"].mean()
    assert t.loc[("penalty", "heuristic"), "n"] == len(per_game)
    assert t.loc[("penalty", "heuristic"), "estimate"] == pytest.approx(per_game.mean(), rel=1e-12)


def test_a_column_or_a_function_as_the_measure():
    t = cardmc.compare("differenzler", ["heuristic", "random"], games=300, seed=1, measure="made")
    assert list(t.index.get_level_values("measure").unique()) == ["made"]

    def declared_exactly(rows):  # one value per row, in the rows' order: a share
        return (rows["declared"] == rows["made"]).to_numpy()

    def mean_tricks(rows):  # one value per game
        return rows.groupby("game")["tricks"].mean()

    s = cardmc.compare("differenzler", ["heuristic", "random"], games=300, seed=1, measure=declared_exactly)
    row = s.loc[("declared_exactly", "heuristic")]
    df = cardmc.simulate("differenzler", games=300, seed=1, policy="heuristic")
    exact = (df["declared"] == df["made"]).to_numpy()
    assert row["n"] == len(df) and row["estimate"] == pytest.approx(exact.mean())
    from cardmc import stats

    lo, hi = stats.wilson(exact.sum(), exact.size)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((float(lo), float(hi)))
    g = cardmc.compare("differenzler", ["heuristic", "random"], games=300, seed=1, measure=mean_tricks)
    assert g.loc[("tricks", "heuristic"), "n"] == 300
    with pytest.raises(UsageError, match="values for"):
        cardmc.compare("differenzler", ["heuristic", "random"], games=10, measure=lambda rows: [1.0, 2.0])


def test_conditions_pass_unchanged_to_every_run(monkeypatch):
    from cardmc import api

    seen = []
    real = api.simulate

    def spy(
        game, games, seed=0, policy=None, players=None, threads=None, *, hands=None, trump_card=None, **kw
    ):
        seen.append((policy, hands, trump_card, kw.get("max_extra_deals")))
        return real(game, games, seed, policy, players, threads, **kw)

    monkeypatch.setattr(api, "simulate", spy)
    cardmc.compare(
        "differenzler",
        ["heuristic", "random; max_extra_deals=1"],
        games=20,
        block=10,
        hands={1: "JS 9S AS"},
        trump_card="6H",
        max_extra_deals=2,
    )
    assert seen == [("heuristic", {1: "JS 9S AS"}, "6H", 2), ("random", {1: "JS 9S AS"}, "6H", "1")] * 2


def test_arms_are_parsed_plainly():
    assert C.parse_arm("heuristic") == C.Arm("heuristic", "heuristic", ())
    assert C.parse_arm("swiss=heuristic; undenufe_points=six") == C.Arm(
        "swiss", "heuristic", (("undenufe_points", "six"),)
    )
    assert C.parse_arm("; max_extra_deals=2") == C.Arm("max_extra_deals=2", None, (("max_extra_deals", "2"),))
    assert C.parse_arm({"policy": "random", "max_extra_deals": 2}).name == "random; max_extra_deals=2"


def test_compare_on_the_command_line_writes_its_table(tmp_path, capsys):
    out = tmp_path / "c.csv"
    assert (
        main(
            [
                "compare",
                "differenzler",
                "--arm",
                "heuristic",
                "--arm",
                "rnd=random",
                "--games",
                "400",
                "--block",
                "200",
                "--out",
                str(out),
                "--no-progress",
                "--set",
                "max_extra_deals=2",
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out
    assert "400 games (stopped by games)" in printed and "rnd" in printed
    table = pd.read_csv(out, index_col=["measure", "arm"], keep_default_na=False)
    api = cardmc.compare("differenzler", ["heuristic", "rnd=random"], games=400, block=200, max_extra_deals=2)
    pd.testing.assert_frame_equal(table, api, check_dtype=False)
    assert list(tmp_path.iterdir()) == [out]


def test_conditions_on_the_command_line_are_the_apis(tmp_path, capsys):
    out = tmp_path / "c.csv"
    assert (
        main(
            [
                "compare",
                "differenzler",
                "--arm",
                "heuristic",
                "--arm",
                "random",
                "--games",
                "200",
                "--block",
                "100",
                "--out",
                str(out),
                "--no-progress",
                "--hand",
                "1:JS 9S AS",
                "--trump-card",
                "6H",
            ]
        )
        == 0
    )
    table = pd.read_csv(out, index_col=["measure", "arm"], keep_default_na=False)
    api = cardmc.compare(
        "differenzler", ["heuristic", "random"], games=200, block=100, hands=["1:JS 9S AS"], trump_card="6H"
    )
    pd.testing.assert_frame_equal(table, api, check_dtype=False)
    plain = cardmc.compare("differenzler", ["heuristic", "random"], games=200, block=100)
    assert not np.allclose(plain["estimate"].to_numpy(float), api["estimate"].to_numpy(float))
    capsys.readouterr()
    bad = tmp_path / "bad.csv"
    assert (
        main(
            [
                "compare",
                "differenzler",
                "--arm",
                "heuristic",
                "--arm",
                "random",
                "--games",
                "200",
                "--out",
                str(bad),
                "--no-progress",
                "--hand",
                "1:JS ZZ",
            ]
        )
        == 2
    )
    assert "ZZ" in capsys.readouterr().err and not bad.exists()


@pytest.mark.parametrize(
    "arms, named",
    [
        (["heuristic", "bogus"], "bogus"),
        (["heuristic", "heuristic; max_extra_deals=99"], "max_extra_deals"),
        (["heuristic", "heuristic; nope"], "nope"),
        (["heuristic", "heuristic; colour=red"], "colour"),
        (["heuristic", "=random"], "name"),
        (["heuristic", "heuristic,random"], "heuristic,random"),
        (["heuristic", "heuristic"], "twice"),
        (["heuristic"], "two or more"),
    ],
)
def test_bad_arms_exit_2_with_one_line_and_no_file(tmp_path, capsys, arms, named):
    out = tmp_path / "c.csv"
    argv = [
        "compare",
        "differenzler",
        *(x for a in arms for x in ("--arm", a)),
        "--games",
        "50",
        "--out",
        str(out),
    ]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and named in err
    assert not out.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "extra, named",
    [
        (["--where", "aces.real > 1"], "attribute"),
        (["--where", "sum(aces) > 1"], "call"),
        (["--measure", "nothing"], "nothing"),
        (["--target-se", "-1"], "target_se"),
        (["--where", "trumps > 9"], "no rows pass"),
    ],
)
def test_bad_filters_and_measures_exit_2_with_no_file(tmp_path, capsys, extra, named):
    out = tmp_path / "c.csv"
    argv = [
        "compare",
        "differenzler",
        "--arm",
        "heuristic",
        "--arm",
        "random",
        "--games",
        "50",
        "--out",
        str(out),
        "--no-progress",
    ]
    assert main(argv + extra) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and named in err
    assert not out.exists()
