"""The Schieber report section: runs small, charts draw, every estimate has a CI, reproducible."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.collections import LineCollection, PolyCollection  # noqa: E402

from cardmc.experiments import schieber as xs  # noqa: E402
from cardmc.registry import UsageError  # noqa: E402
from cardmc.reports import schieber as rs  # noqa: E402
from cardmc.reports import schieber_charts as sc  # noqa: E402
from tests.helpers import check_cis, study_twice  # noqa: E402

GAMES, SEED = 40, 7
NOT_ESTIMATES = {"exact", "se", "ci_low", "ci_high"}  # exact: enumerated probabilities, no sampling error


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    return study_twice(rs.study, "schieber", GAMES, SEED, tmp_path_factory)


def test_section_shape(runs):
    folder, s = runs[0]
    assert s.game == "schieber"
    assert s.question == "When should the forehand push, and what is each contract worth?"
    assert s.answer.count("[") >= 5 and s.answer.endswith(".")
    assert f"seed {SEED}" in s.sample and f"{GAMES}" in s.sample
    assert len(s.charts) >= 2
    for _, caption, files in s.charts:
        assert caption and [f.rsplit(".", 1)[1] for f in files] == ["png", "svg"]
        assert all((folder / f).stat().st_size > 1000 for f in files)
    stored = s.data["schieber_solved_contracts"].attrs  # the solved table's run is stored, with its own seed
    own, (make, read) = s.commands[:-2], s.commands[-2:]
    assert all(
        f"--seed {SEED}" in c
        or f"seed={SEED}" in c
        or "weis_odds" in c
        or "analyze" in c
        or f"({SEED}, {GAMES}," in c
        for c in own
    )
    assert any(f"--games {GAMES}" in c for c in own)
    assert make.startswith(stored["command"]) and "--out schieber_solved.parquet" in make
    assert "read_parquet('schieber_solved.parquet')" in read and "contracts_solved" in read
    assert f"--seed {stored['seed']}" in stored["command"] and "--solve" in stored["command"]
    assert {n for n, _, _ in s.tables} >= {
        "contract_value",
        "push",
        "weis",
        "results",
        "contract_by_hand",
        "solved_contracts",
    }
    assert "every hand seen" in s.answer and f"{stored['deals']:,} deals" in s.sample


def test_every_estimate_has_its_ci(runs):
    _, s = runs[0]
    for shown in check_cis(s, NOT_ESTIMATES):
        assert any("[95% CI]" in str(c) for c in shown.columns)


def test_tables_agree_with_each_other(runs):
    _, s = runs[0]
    value, push = s.data["schieber_contract_value"], s.data["schieber_push"]
    results = s.data["schieber_results"]
    six = value.iloc[:6]
    assert six["n"].sum() == value.loc["all contracts", "n"]
    assert np.isclose(six["share_chosen"].sum(), 1.0)
    assert push.loc["all deals", "n"] == push.drop(index="all deals")["n"].sum()
    assert (value["card_points"].dropna().between(0, 257)).all()
    weis = s.data["schieber_weis"]
    shares = weis[weis["unit"] == "share of hands"]
    assert (shares["exact"].between(0, 1)).all() and (shares["simulated"].between(0, 1)).all()
    assert results.loc["deals per match", "estimate"] >= 1
    # under strong play: the heuristic's columns are the heuristic's own tables, its solved choice the stored one
    strong, solved = s.data["schieber_strong_contracts"], s.data["schieber_solved_contracts"]
    assert np.allclose(strong["heuristic_net_score"], value.loc[strong.index, "net_score"], equal_nan=True)
    stored = s.data["schieber_strong_solved"].loc["heuristic: best contract chosen"]
    assert stored["estimate"] == solved.loc[("all deals", "best contract chosen"), "estimate"]
    assert "Under strong play" in s.answer


def test_data_identical_across_runs(runs):
    (a, sa), (b, sb) = runs
    assert sa.answer == sb.answer
    files = sorted(p.name for p in (a / "data").iterdir())
    assert files == sorted(p.name for p in (b / "data").iterdir()) and len(files) >= 6
    for name in files:
        assert (a / "data" / name).read_bytes() == (b / "data" / name).read_bytes(), name


def _has_uncertainty(ax) -> bool:
    return any(isinstance(c, (LineCollection, PolyCollection)) for c in ax.collections)


@pytest.mark.parametrize(
    "plot,table,kwargs",
    [
        (sc.plot_push_gain, "schieber_push", {"threshold": 60}),
        (sc.plot_contract_worth, "schieber_contract_value", {}),
        (sc.plot_weis, "schieber_weis", {}),
        (sc.plot_contract_choice, "schieber_contract_by_hand", {"feature": "sixes"}),
        (sc.plot_push_rules, "schieber_house_push", {}),
    ],
)
def test_charts_draw_with_labels_and_uncertainty(runs, plot, table, kwargs):
    _, s = runs[0]
    t = s.data[table]
    if table == "schieber_contract_value":
        t = t.iloc[:6]
    fig, given = plt.subplots()
    ax = plot(t, ax=given, **kwargs)
    assert ax is given
    assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title()
    assert _has_uncertainty(ax), "no error bars or CI band"
    fig.canvas.draw()
    plt.close(fig)


def test_charts_reject_bad_tables():
    for plot in (
        sc.plot_push_gain,
        sc.plot_contract_worth,
        sc.plot_weis,
        sc.plot_contract_choice,
        sc.plot_push_rules,
    ):
        with pytest.raises(UsageError):
            plot(pd.DataFrame({"x": [1.0]}))
        with pytest.raises(UsageError):
            plot([1, 2, 3])


def test_push_threshold_interpolates_the_sign_change():
    push = pd.DataFrame(
        {
            "push_minus_choose": [9.0, 50, 20, 5, -10, -30],
            "verdict": ["either", "push", "push", "either", "either", "choose"],
            "from_points": pd.array([pd.NA, 0, 10, 20, 30, 40], dtype="Int64"),
            "to_points": pd.array([pd.NA, 10, 20, 30, 40, 50], dtype="Int64"),
        },
        index=["all deals", "0 to 10", "10 to 20", "20 to 30", "30 to 40", "40 to 50"],
    )
    # centres 25 (+5) and 35 (-10): zero at 25 + 10 * 5 / 15 = 28.3 -> 30
    assert xs.push_threshold(push) == (30, "10 to 20", "40 to 50")
    always = push.assign(push_minus_choose=[1.0, 5, 4, 3, 2, 1])
    assert xs.push_threshold(always) == (None, "40 to 50", None)
    never = push.assign(push_minus_choose=[-1.0, -5, -4, -3, -2, -1])
    assert xs.push_threshold(never) == (None, None, "0 to 10")


def test_study_rejects_bad_input(tmp_path):
    with pytest.raises(UsageError, match="games"):
        rs.study(tmp_path, games=0, seed=1)
    with pytest.raises(UsageError, match="seed"):
        rs.study(tmp_path, games=5, seed=-1)
    with pytest.raises(UsageError, match="folder"):
        rs.study(tmp_path / "missing", games=5, seed=1)
    with pytest.raises(UsageError):
        xs.push_rule(1, 5, pd.DataFrame())
