"""The English Jazz report section: runs small, charts draw, every estimate has a CI, reproducible."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from cardmc import english_jazz as ej  # noqa: E402
from cardmc.api import simulate  # noqa: E402
from cardmc.experiments import english_jazz as xe  # noqa: E402
from cardmc.registry import UsageError  # noqa: E402
from cardmc.reports import english_jazz as rj
from cardmc.reports import english_jazz_charts as ec  # noqa: E402
from cardmc.reports import strong_play  # noqa: E402
from tests.helpers import check_cis, error_bar_points, study_twice  # noqa: E402

GAMES, SEED = 300, 8  # seed 8 has a sweep in its first 300 games under random play
NOT_ESTIMATES = {"se", "ci_low", "ci_high", "exact"}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    return study_twice(rj.study, "english_jazz", GAMES, SEED, tmp_path_factory)


def test_section_shape(runs):
    folder, s = runs[0]
    assert s.game == "english_jazz" and s.title == "English Jazz"
    assert s.question == "How likely is one hand to take every trick in English Jazz?"
    assert s.answer.count("[") >= 5 and s.answer.endswith(".")
    assert f"{GAMES * 12:,} deals" in s.answer and "Wilson" in s.answer
    assert f"seed {SEED}" in s.sample and f"{GAMES}" in s.sample
    names = {
        "all_tricks",
        "by_position",
        "solved",
        "by_feature",
        "hand_odds",
        "rules",
        "trump_setter",
        "trump_never_set",
        "seat_advantage",
        "pimc",
        "strong_sweeps",
    }
    assert {n for n, _, _ in s.tables} == names
    assert len(s.charts) >= 2
    for _, caption, files in s.charts:
        assert caption and [f.rsplit(".", 1)[1] for f in files] == ["png", "svg"]
        assert all((folder / f).stat().st_size > 1000 for f in files)
    text = "\n".join(s.commands)
    for p in rj.POLICIES:
        assert f"cardmc simulate english_jazz --games {GAMES} --seed {SEED} --policy {p} --out" in text
        assert f"cardmc analyze english_jazz english_jazz_{p}.parquet" in text
    assert f'--hand "{rj.STRONG_HAND}" --seat 1 --dealer 0 --games {GAMES} --seed {SEED}' in text
    assert f"sweep_study(seed={SEED}, games={GAMES})" in text
    assert f"sweeps_solved(seed={SEED}, games={GAMES})" in text
    strong = strong_play.strong_games("english_jazz", GAMES)
    assert f"english_jazz(seed={SEED}, games={strong})" in text and "Under strong play" in s.answer
    sweeps = s.data["english_jazz_strong_sweeps"]
    assert list(sweeps["n"]) == [strong * 12, strong]
    assert all(name.startswith("english_jazz_") for name in s.data)
    assert set(s.frames) == {"english_jazz_sweep_deals"}


def test_the_search_player_table_pairs_pimc_with_the_heuristic_on_the_same_deals(runs):
    _, s = runs[0]
    t = dict((n, t) for n, _, t in s.tables)["pimc"]
    games = rj.pimc_games(GAMES)
    assert list(t.index) == [(m, a) for m in ("score per deal", "wins") for a in rj.PIMC_ARMS]
    assert (t["n"] == games).all() and (t["diff_n"] == games).all()
    first = t.xs(rj.PIMC_ARMS[0], level="arm")
    assert (first["diff"] == 0).all()
    searched = t.xs(rj.PIMC_ARMS[1], level="arm")
    assert searched["diff"].to_numpy() == pytest.approx((searched["estimate"] - first["estimate"]).to_numpy())
    assert (searched["diff_ci_low"] <= searched["diff"]).all() and (
        searched["diff"] <= searched["diff_ci_high"]
    ).all()
    text = "\n".join(s.commands)
    assert (
        f'cardmc compare english_jazz --arm heuristic --arm "{rj.PIMC_ARMS[1]}" --games {games} --seed {SEED}'
        in text
    )


def test_the_solved_table_pairs_the_solver_with_play_on_the_same_deals(runs):
    _, s = runs[0]
    solved = dict((n, t) for n, _, t in s.tables)["solved"]
    at = dict((n, t) for n, _, t in s.tables)["all_tricks"].loc["per deal"]
    assert list(solved.index) == ["some hand", "leader", "second", "dealer"]
    assert (solved["n"] == GAMES * 12).all()
    for p in rj.POLICIES:  # the same deals as the sweep study's
        assert solved.loc["some hand", f"{p}_events"] == at[f"{p}_events"]
    some = solved.loc["some hand"]
    assert some["solved_events"] - some["only_solved"] == some["heuristic_events"] - some["only_heuristic"]


def test_counts_agree_with_the_rows(runs):
    """The streamed counts are those of the whole run, read straight from ``cardmc simulate`` rows,
    and the paired counts are deal by deal."""
    _, s = runs[0]
    flags = {}
    for p in rj.POLICIES:
        df = simulate("english_jazz", games=GAMES, seed=SEED, policy=p)
        deals = df[df["seat"] == 0]
        flags[p] = (df.groupby(["game", "deal"])["all_tricks"].max() == 1).to_numpy()
        at = s.data["english_jazz_all_tricks"].loc["per deal"]
        assert at[f"{p}_events"] == int(df["all_tricks"].sum()) == int((deals["rule"] == "A").sum())
        assert at["n"] == len(deals) == GAMES * 12
        assert at[p] == pytest.approx(1e6 * df["all_tricks"].sum() / len(deals))
        rules = s.data["english_jazz_rules"]
        counts = deals["rule"].value_counts().reindex(list("ABCDE"), fill_value=0).to_numpy()
        assert (rules[f"{p}_events"].to_numpy() == counts).all()
        never = s.data["english_jazz_trump_never_set"].loc[p, "events"]
        assert never == int(deals["trump"].isna().sum())
        # by feature: the n of every feature adds up to all hands
        f = s.data["english_jazz_by_feature"]
        for feature in xe.FEATURES:
            assert f.loc[feature, "n"].sum() == len(df)
            assert f.loc[feature, f"{p}_events"].sum() == int(df["all_tricks"].sum())
        seats = s.data["english_jazz_seat_advantage"].xs(p, level="policy")
        mean = df.assign(pos=df["position"].map(ej.POSITIONS)).groupby("pos")["score"].mean()
        for name in xe.POSITIONS:
            assert seats.loc[name, "deal_score"] == pytest.approx(mean[name])
        sweeps = s.frames["english_jazz_sweep_deals"]
        assert len(sweeps[sweeps["policy"] == p]) == 3 * int(flags[p].sum())
    # a sweeper leads every trick after the first: it must be dealt a void (for the first trick) or
    # trump is never set (all hands 3-3-3-3); the leader cannot be void in the suit it leads
    sweepers = s.frames["english_jazz_sweep_deals"].query("all_tricks == 1")
    assert len(sweepers) and ((sweepers["voids"] > 0) | sweepers["trump"].isna()).all()
    assert ((sweepers["position"] != 1) | sweepers["trump"].isna()).all()
    at = s.data["english_jazz_all_tricks"].loc["per deal"]
    r, h = flags["random"], flags["heuristic"]
    paired = (at["only_random"], at["only_heuristic"], at["both"])
    assert paired == ((r & ~h).sum(), (~r & h).sum(), (r & h).sum())
    assert at["random_events"] > 0, "the test seed should give the tables some sweeps"
    d = r.astype(float) - h.astype(float)
    assert at["random_minus_heuristic"] == pytest.approx(1e6 * d.mean())
    assert at["random_minus_heuristic_se"] == pytest.approx(1e6 * d.std(ddof=1) / np.sqrt(len(d)))


def test_block_size_does_not_change_the_tables():
    a = xe.sweep_study(seed=SEED, games=70, block=70)
    b = xe.sweep_study(seed=SEED, games=70, block=16)
    for name in a:
        pd.testing.assert_frame_equal(a[name], b[name], check_exact=True)


def test_every_estimate_has_its_ci(runs):
    _, s = runs[0]
    for shown in check_cis(s, NOT_ESTIMATES):
        for c in shown.columns:  # every other number is a whole count or the exact value
            if c != "exact" and pd.api.types.is_float_dtype(shown[c]):
                raise AssertionError(f"bare decimal column {c}")


def test_exact_never_set_and_headline(runs):
    _, s = runs[0]
    assert xe.trump_never_set_exact() == pytest.approx(0.0023534927784)
    t = s.data["english_jazz_trump_never_set"]
    assert (t["exact"] == 100 * xe.trump_never_set_exact()).all()
    # trump setting does not depend on the play: the same deals give the same count
    assert t.loc["random", "events"] == t.loc["heuristic", "events"]
    at = s.data["english_jazz_all_tricks"].loc["per deal"]
    assert f"{int(at['heuristic_events']):,} sweep" in s.answer
    assert rj.STRONG_HAND in s.answer
    odds = s.data["english_jazz_hand_odds"]
    assert (odds["deals"] == GAMES).all() and len(odds) == 6
    lead = odds.xs(rj.STRONG_HAND, level="hand").iloc[0]
    assert lead["all_12_pct"] == 0  # the leader cannot sweep with a 6-3-3-0 hand


def test_same_seed_same_data_other_seed_other_data(runs, tmp_path):
    (a, sa), (b, sb) = runs
    files = sorted(p.name for p in (a / "data").iterdir())
    assert files == sorted(p.name for p in (b / "data").iterdir())
    assert any(f.endswith(".parquet") for f in files) and any(f.endswith(".csv") for f in files)
    for f in files:
        assert (a / "data" / f).read_bytes() == (b / "data" / f).read_bytes(), f
    assert sa.answer == sb.answer
    other = xe.sweep_study(seed=SEED + 1, games=GAMES)
    assert not other["rules"].equals(sa.data["english_jazz_rules"])


def test_charts_draw_with_labels_and_error_bars(runs):
    _, s = runs[0]
    d = s.data
    cases = [
        (ec.plot_sweeps_by_feature, d["english_jazz_by_feature"], 2),
        (ec.plot_rules, d["english_jazz_rules"], 2),
        (ec.plot_sweeps_by_position, d["english_jazz_by_position"], 2),
        (ec.plot_trump_setter, d["english_jazz_trump_setter"], 2),
        (ec.plot_seat_advantage, d["english_jazz_seat_advantage"], 2),
    ]
    for plot, table, per_row in cases:
        ax = plot(table)
        assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title(), plot.__name__
        assert error_bar_points(ax) == per_row * len(table), plot.__name__
        fig, own = plt.subplots()
        assert plot(table, ax=own) is own
        plt.close("all")
    assert "per million" in ec.plot_sweeps_by_feature(d["english_jazz_by_feature"]).get_ylabel()
    plt.close("all")


def test_charts_reject_wrong_tables():
    with pytest.raises(UsageError, match="random"):
        ec.plot_sweeps_by_feature(pd.DataFrame({"x": [1.0]}))
    with pytest.raises(UsageError, match="random_pct"):
        ec.plot_rules(pd.DataFrame({"random": [1.0]}))
    with pytest.raises(UsageError, match="DataFrame"):
        ec.plot_seat_advantage([1, 2, 3])
    with pytest.raises(UsageError, match="empty"):
        ec.plot_trump_setter(
            pd.DataFrame(
                columns=[f"{p}_pct{e}" for p in ("random", "heuristic") for e in ("", "_ci_low", "_ci_high")]
            )
        )


def test_bad_input_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match="games"):
        rj.study(tmp_path, games=0, seed=1)
    with pytest.raises(UsageError, match="seed"):
        rj.study(tmp_path, games=10, seed=-1)
    with pytest.raises(UsageError, match="nowhere"):
        rj.study(tmp_path / "nowhere", games=10, seed=1)
    with pytest.raises(UsageError, match="block"):
        xe.sweep_study(seed=1, games=10, block=0)
    with pytest.raises(UsageError, match="36 a game"):
        xe.deal_sweeps(pd.DataFrame({"game": [0]}), 0)
