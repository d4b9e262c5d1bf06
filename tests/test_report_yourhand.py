"""The "Your hand" report section: one decision table per game with hand odds, each with its
seed, deals and command; every estimate with its CI; reproducible; the commands give the same figures."""

from __future__ import annotations

import subprocess
import sys

import pandas as pd
import pytest

from cardmc.reports import yourhand as y
from tests.helpers import check_cis, study_twice

DEALS, SEED = 1_000, 5
NOT_ESTIMATES = {"se", "ci_low", "ci_high", "minus_best_se"}  # the CI of "estimate" by its plain names


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    return study_twice(y.study, "yourhand", DEALS, SEED, tmp_path_factory)


def test_section_shape(runs):
    _, s = runs[0]
    games = [g for g, *_ in y.EXAMPLES if y.has_odds(g)]
    assert {"differenzler", "norwegian_jazz", "english_jazz"} <= set(games)
    assert s.game == "yourhand" and s.title == "Your hand"
    assert [n for n, _, _ in s.tables] == [f"yourhand_{g}" for g in games] == list(s.data)
    for _, caption, table in s.tables:
        assert f"seed {SEED}" in caption and f"{DEALS:,} deals" in caption and "cardmc odds " in caption
        assert (table["n"] == DEALS).all()
    assert all(f"--games {DEALS} --seed {SEED}" in c for c in s.commands)
    assert len(s.commands) == len(games) + 2  # Norwegian Jazz: three rule variants
    assert s.answer.count("[") >= 2 and "English Jazz: all_tricks" in s.answer
    nj = s.data["yourhand_norwegian_jazz"]
    p = nj.loc[("bonus 10", "first_out"), "estimate"]
    assert nj.loc[("bonus 80", "first_out"), "estimate"] == p  # the same deals under each rule
    assert nj.loc[("bonus 80", "expected_score"), "estimate"] == pytest.approx(
        nj.loc[("bonus 10", "expected_score"), "estimate"] + 70 * p
    )


def test_every_estimate_has_its_ci(runs):
    check_cis(runs[0][1], NOT_ESTIMATES)


def test_same_seed_same_data(runs):
    (a, _), (b, _) = runs
    files = sorted((a / "data").iterdir())
    assert files
    for f in files:
        assert f.read_bytes() == (b / "data" / f.name).read_bytes(), f.name


def test_a_command_gives_the_figures_of_its_table(runs, tmp_path):
    _, s = runs[0]
    cmd = next(c for c in s.commands if " english_jazz " in c)
    out = tmp_path / "ej.csv"
    import shlex

    args = shlex.split(cmd)[1:]
    done = subprocess.run(
        [sys.executable, "-m", "cardmc.cli", *args, "--out", str(out), "--no-progress"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    got = pd.read_csv(out)
    got = got[got["table"] == "summary"].set_index("figure")
    want = s.data["yourhand_english_jazz"]
    assert got.loc["all_tricks", "estimate"] == pytest.approx(want.loc["all_tricks", "estimate"])
    assert got.loc["expected_score", "ci_high"] == pytest.approx(want.loc["expected_score", "ci_high"])


def test_a_game_without_hand_odds_is_left_out(tmp_path, monkeypatch):
    monkeypatch.setattr(y, "has_odds", lambda game: game == "english_jazz")
    s = y.study(tmp_path, games=500, seed=1)
    assert [n for n, _, _ in s.tables] == ["yourhand_english_jazz"]
    assert "Differenzler, Schieber, Norwegian Jazz: no hand odds in this version" in s.answer


def test_the_sample_is_capped(tmp_path, monkeypatch):
    monkeypatch.setattr(y, "CAP", 700)
    monkeypatch.setattr(y, "has_odds", lambda game: game == "norwegian_jazz")
    s = y.study(tmp_path, games=10**9, seed=1)
    assert (s.data["yourhand_norwegian_jazz"]["n"] == 700).all()
