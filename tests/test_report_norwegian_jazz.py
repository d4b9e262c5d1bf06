"""The Norwegian Jazz report section: runs small, charts draw, every estimate has a CI, reproducible."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from cardmc.api import simulate  # noqa: E402
from cardmc.display import cell  # noqa: E402
from cardmc.experiments import norwegian_jazz as xn  # noqa: E402
from cardmc.registry import UsageError  # noqa: E402
from cardmc.reports import norwegian_jazz as rn  # noqa: E402
from cardmc.reports import norwegian_jazz_charts as nc  # noqa: E402
from cardmc.reports import strong_play  # noqa: E402
from tests.helpers import check_cis, error_bar_points, study_twice  # noqa: E402

GAMES, SEED = 40, 5
NOT_ESTIMATES = {"se", "ci_low", "ci_high"}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    return study_twice(rn.study, "norwegian_jazz", GAMES, SEED, tmp_path_factory)


def test_section_shape(runs):
    folder, s = runs[0]
    assert s.game == "norwegian_jazz"
    assert s.question == (
        "What does the sixth deal do to a game of Norwegian Jazz — and what if it paid 80 instead of 10?"
    )
    assert s.answer.count("[") >= 5 and s.answer.endswith(".")
    assert f"seed {SEED}" in s.sample and f"{GAMES}" in s.sample
    names = {
        "sixth_deal",
        "bonus_80_vs_10",
        "deal_cost_by_seat",
        "heuristic_edge",
        "pimc",
        "strong_sixth_deal",
    }
    assert {n for n, _, _ in s.tables} == names
    strong = s.data["norwegian_jazz_strong_sixth_deal"]
    assert list(strong.index) == [3, 4, 5, 6, 7] and "Under strong play" in s.answer
    assert (strong["n"] == strong_play.strong_games("norwegian_jazz", GAMES)).all()
    assert len(s.charts) >= 2
    for _, caption, files in s.charts:
        assert caption and [f.rsplit(".", 1)[1] for f in files] == ["png", "svg"]
        assert all((folder / f).stat().st_size > 1000 for f in files)
    text = "\n".join(s.commands)
    assert f"--games {GAMES} --seed {SEED}" in text
    assert f"sixth_deal_study(seed={SEED}, games={GAMES})" in text
    assert f"heuristic_edge(seed={SEED}, games={GAMES // xn.EDGE_SHARE}" in text
    for name in s.data:
        assert name.startswith("norwegian_jazz_")
    assert set(s.frames) == {"norwegian_jazz_4p_games"}
    assert len(s.frames["norwegian_jazz_4p_games"]) == GAMES * 6 * 4


def test_headline_quotes_the_tables(runs):
    _, s = runs[0]
    t, p = s.data["norwegian_jazz_sixth_deal"], s.data["norwegian_jazz_bonus_80_vs_10"]
    for rule in ("bonus 10", "bonus 80"):
        row = t.loc[(4, rule)]
        assert cell(row, "winner_changed", 100, "%") in s.answer
        assert cell(row, "tau") in s.answer
    assert cell(p.loc[(4, "bonus 80 - bonus 10")], "winner_changed", 100) in s.answer
    # the paired difference is the difference of the two shares on the same games
    d = t.loc[(4, "bonus 80"), "winner_changed"] - t.loc[(4, "bonus 10"), "winner_changed"]
    assert p.loc[(4, "bonus 80 - bonus 10"), "winner_changed"] == pytest.approx(d)
    assert list(t.index.get_level_values("players").unique()) == [3, 4, 5, 6, 7]
    assert (t["games"] == GAMES).all()


def test_every_estimate_has_its_ci(runs):
    _, s = runs[0]
    check_cis(s, NOT_ESTIMATES)


def test_same_seed_same_data_other_seed_other_data(runs, tmp_path):
    (a, sa), (b, sb) = runs
    files = sorted(p.name for p in (a / "data").iterdir())
    assert files == sorted(p.name for p in (b / "data").iterdir())
    assert any(f.endswith(".parquet") for f in files) and any(f.endswith(".csv") for f in files)
    for f in files:
        assert (a / "data" / f).read_bytes() == (b / "data" / f).read_bytes(), f
    assert sa.answer == sb.answer
    other = rn.study(tmp_path, games=GAMES, seed=SEED + 1)
    assert not other.data["norwegian_jazz_sixth_deal"].equals(sa.data["norwegian_jazz_sixth_deal"])


def test_charts_draw_with_labels_and_error_bars(runs):
    _, s = runs[0]
    seat = s.data["norwegian_jazz_seat_effect"]
    default_seat = seat[seat.index.get_level_values("deal") != xn.SEVENS_80]
    sevens = xn.sevens_by_bonus(seat)
    cases = [
        (nc.plot_winner_change, s.data["norwegian_jazz_sixth_deal"]),
        (nc.plot_rank_correlation, s.data["norwegian_jazz_sixth_deal"]),
        (nc.plot_seat_effect, default_seat),
        (nc.plot_sevens_by_seat, sevens),
        (nc.plot_heuristic_edge, s.data["norwegian_jazz_heuristic_edge_by_deal"]),
    ]
    assert len(default_seat) == 6 * (3 + 4 + 5 + 6 + 7) and len(sevens) == 2 * 25
    for plot, table in cases:
        ax = plot(table)
        assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title(), plot.__name__
        assert error_bar_points(ax) == len(table), plot.__name__
        fig, own = plt.subplots()
        assert plot(table, ax=own) is own
        plt.close("all")
    ax = nc.plot_winner_change(s.data["norwegian_jazz_sixth_deal"], measure="leader_overtaken")
    assert "overtaken" in ax.get_ylabel()
    plt.close("all")


def test_charts_reject_wrong_tables():
    with pytest.raises(UsageError, match="winner_changed"):
        nc.plot_winner_change(pd.DataFrame({"x": [1.0]}))
    with pytest.raises(UsageError, match="rel_seat"):
        nc.plot_seat_effect(pd.DataFrame({"estimate": [1.0], "ci_low": [0.0], "ci_high": [2.0]}))
    with pytest.raises(UsageError, match="DataFrame"):
        nc.plot_heuristic_edge([1, 2, 3])


def _rows(players, game, deal, rel_seat, score, passes=0, first_out=0, cards_dealt=17):
    return {
        "players": players,
        "game": game,
        "deal": deal,
        "rel_seat": rel_seat,
        "score": score,
        "passes": passes,
        "first_out": first_out,
        "cards_dealt": cards_dealt,
    }


def test_seat_study_by_hand():
    # two 3-player games; deal 1 then sevens (the leader, rel seat 1, has the 18th card)
    rows = []
    for g, (d1, passes, first) in enumerate((((-2, -5, -10), (3, 1, 4), 1), ((-7, -4, -6), (0, 2, 5), 0))):
        for r in range(3):
            rows.append(_rows(3, g, 1, r, d1[r]))
            bonus = 10 if r == first else 0
            cards = 18 if r == 1 else 17
            rows.append(_rows(3, g, 6, r, bonus - passes[r], passes[r], int(r == first), cards))
    out = xn.seat_study(pd.DataFrame(rows))
    cost, seat = out["deal_cost"], out["seat_effect"]
    assert cost.loc[(3, "1 tricks"), "table_mean"] == pytest.approx(-17 / 3)
    assert cost.loc[(3, "1 tricks"), "dealer"] == pytest.approx(np.mean([-2 + 17 / 3, -7 + 17 / 3]))
    assert np.isnan(cost.loc[(3, "1 tricks"), "extra_card"])
    # sevens as played: game 0 scores (-3, 9, -4), game 1 (10, -2, -5)
    assert cost.loc[(3, "6 sevens"), "table_mean"] == pytest.approx(np.mean([2 / 3, 1]))
    assert cost.loc[(3, "6 sevens"), "leader"] == pytest.approx(np.mean([9 - 2 / 3, -2 - 1]))
    assert cost.loc[(3, "6 sevens"), "extra_card"] == cost.loc[(3, "6 sevens"), "leader"]
    # rescored with 80: game 0 (-3, 79, -4), game 1 (80, -2, -5)
    assert cost.loc[(3, xn.SEVENS_80), "dealer"] == pytest.approx(np.mean([-3 - 24, 80 - 73 / 3]))
    assert seat.loc[(3, xn.SEVENS_80, 1), "estimate"] == pytest.approx(np.mean([79 - 24, -2 - 73 / 3]))
    assert (cost["n"] == 2).all()


def test_rescored_sevens_match_a_real_80_point_run():
    """The players' choices do not depend on the bonus: rescoring the 10-point run
    gives exactly the 80-point run's sevens."""
    for n in (3, 5):
        ten = xn.seat_study(simulate("norwegian_jazz", games=60, seed=2, players=n))
        eighty = xn.seat_study(simulate("norwegian_jazz", games=60, seed=2, players=n, first_out_bonus=80))
        for key in ("deal_cost", "seat_effect"):
            a = ten[key].xs(xn.SEVENS_80, level="deal")
            b = eighty[key].xs("6 sevens", level="deal")
            pd.testing.assert_frame_equal(a, b)
            assert not ten[key].xs("6 sevens", level="deal").equals(b)


def test_bad_input_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match="games"):
        rn.study(tmp_path, games=0, seed=1)
    with pytest.raises(UsageError, match="seed"):
        rn.study(tmp_path, games=10, seed=-1)
    with pytest.raises(UsageError, match="nowhere"):
        rn.study(tmp_path / "nowhere", games=10, seed=1)
    with pytest.raises(UsageError, match="missing columns"):
        xn.seat_study(pd.DataFrame({"score": [1]}))
    with pytest.raises(UsageError, match="bonus"):
        xn.seat_study(pd.DataFrame([_rows(3, 0, 1, 0, -1)]), bonus=-5)
    mixed = pd.DataFrame([_rows(3, 0, 6, 0, 9, 1, 1), _rows(3, 1, 6, 0, 78, 2, 1)])
    with pytest.raises(UsageError, match="mix first-out bonuses"):
        xn.seat_study(mixed)
