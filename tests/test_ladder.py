"""Ladders (cardmc ladder): duplicate pairs on the same deals, exact zeros, signs, threads, files, bad input."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import cardmc
from cardmc import ladder as L
from cardmc import registry
from cardmc.cli import main
from cardmc.registry import UsageError

FIGURE = ["estimate", "se", "ci_low", "ci_high", "n", "stopped_by"]
JAZZ = ["score per deal", "wins"]


@pytest.mark.parametrize(
    "game, lineup, options, measures",
    [
        ("differenzler", ["calibrated", "heuristic:calibrated"], {}, ["penalty"]),  # one player, two names
        (
            "schieber",
            ["pimc", "pimc@2"],  # pimc at the run's depth
            {"pimc_tricks": 2, "target": 500},
            ["card points share", "points per deal", "wins"],
        ),
        ("english_jazz", ["pimc@2", "pimc"], {"pimc_tricks": 2}, JAZZ),
        ("norwegian_jazz", ["pimc", "pimc@1"], {"pimc_tricks": 1}, JAZZ),
    ],
)
def test_a_player_against_itself_differs_by_exactly_zero(game, lineup, options, measures):
    t = cardmc.ladder(game, lineup, games=300, search_games=3, seed=2, timed=False, **options)
    assert list(t.index.get_level_values("measure")) == measures and t.attrs["unpaired"] == []
    for _, row in t.iterrows():
        assert row["estimate"] == 0 and row["se"] == 0 and row["ci_low"] == 0 and row["ci_high"] == 0
        assert not np.signbit(row["estimate"])
    assert (t["n"] == (3 if "pimc" in lineup else 300)).all()


def _seat_penalty(policy: str, games: int, seed: int, seats) -> pd.Series:
    df = cardmc.simulate("differenzler", games=games, seed=seed, policy=policy)
    r = df[(df["extra"] == 0) & df["seat"].isin(seats)]
    return r.groupby("game")["penalty"].mean()


def test_the_figure_is_x_minus_y_averaged_over_the_two_seatings():
    t = cardmc.ladder("differenzler", ["random", "heuristic"], games=500, seed=5, timed=False)
    row = t.loc[("penalty", "heuristic", "random")]
    even, odd = (0, 2), (1, 3)
    first, second = "heuristic,random,heuristic,random", "random,heuristic,random,heuristic"
    per_game = (
        _seat_penalty(first, 500, 5, even)
        - _seat_penalty(first, 500, 5, odd)
        + _seat_penalty(second, 500, 5, odd)
        - _seat_penalty(second, 500, 5, even)
    ) / 2
    assert row["n"] == 500
    assert row["estimate"] == pytest.approx(per_game.mean(), abs=1e-9)
    assert row["se"] == pytest.approx(per_game.std(ddof=1) / np.sqrt(500), rel=1e-9)
    assert row["estimate"] < -30 and row["ci_high"] < 0  # heuristic play and declarations: far less penalty


def test_swapping_the_seats_changes_the_sign():
    a = cardmc.ladder("schieber", ["random", "heuristic"], games=200, seed=7, timed=False, target=1000)
    b = cardmc.ladder("schieber", ["heuristic", "random"], games=200, seed=7, timed=False, target=1000)
    assert a.index.get_level_values("x")[0] == "heuristic" and b.index.get_level_values("x")[0] == "random"
    a, b = a.droplevel(["x", "y"]), b.droplevel(["x", "y"])
    assert (a["estimate"] > 0).all()
    assert (b["estimate"] == -a["estimate"]).all() and (b["se"] == a["se"]).all()
    assert (b["ci_low"] == -a["ci_high"]).all() and (b["ci_high"] == -a["ci_low"]).all()


def test_reproducible_across_threads_and_rounds(monkeypatch):
    searched = [
        cardmc.ladder(
            "english_jazz", ["heuristic", "pimc@1"], search_games=3, seed=3, timed=False, threads=threads
        )[FIGURE]
        for threads in (1, 2)
    ]
    pd.testing.assert_frame_equal(*searched)
    plain = cardmc.ladder("norwegian_jazz", ["random", "heuristic"], games=700, seed=3, timed=False)
    monkeypatch.setattr(L, "BLOCK", 256)  # three rounds instead of one: the same games, the same figures
    again = cardmc.ladder(
        "norwegian_jazz", ["random", "heuristic"], games=700, seed=3, timed=False, threads=1
    )
    pd.testing.assert_frame_equal(plain[FIGURE], again[FIGURE], check_exact=False, rtol=1e-12)


def test_search_players_at_two_depths_are_not_paired():
    t = cardmc.ladder(
        "norwegian_jazz", ["heuristic", "pimc@1", "pimc@2"], search_games=2, seed=1, timed=False
    )
    assert t.attrs["unpaired"] == [
        ("pimc@2", "pimc@1", "the search depth (pimc_tricks) is one for the whole table")
    ]
    pairs = set(zip(t.index.get_level_values("x"), t.index.get_level_values("y")))
    assert pairs == {("pimc@1", "heuristic"), ("pimc@2", "heuristic")}


def test_the_default_lineup_is_the_games_and_takes_its_own_players():
    assert registry.get("english_jazz").ladder.lineup == registry.LINEUP
    assert "learned" in registry.LINEUP  # every game's strong fast player
    for game in registry.GAMES:  # a game's own players join the common ones, each once
        lineup = registry.get(game).ladder.lineup
        assert set(registry.LINEUP) <= set(lineup) and len(set(lineup)) == len(lineup)
    assert "calibrated" in registry.get("differenzler").ladder.lineup
    spec = registry.get("differenzler")
    names = [p.name for p in L.check_lineup(spec, None, 4, {})]
    assert names == list(spec.ladder.lineup)
    p = L.player(spec, "pimc:heuristic@3", 4, {})
    assert p.policy == "pimc:heuristic" and p.settings == (("pimc_tricks", 3),) and p.search
    assert L.player(spec, "pimc", 4, {"pimc_tricks": 4}).settings == (("pimc_tricks", 4),)


@pytest.mark.parametrize("game", registry.GAMES)
def test_decisions_are_the_plays_of_the_games(game):
    """The timing's decisions: every card played (and pass) of the games' traces; a Schieber match that
    ends in the middle of a trick leaves that trick's cards out."""
    spec = registry.get(game)
    players = spec.default_players
    rows = cardmc.simulate(game, games=6, seed=9, policy="heuristic")
    plays = sum(
        len(d["plays"])
        for line in cardmc.trace(game, games=6, seed=9, policy="heuristic")
        for d in line["deals"]
    )
    made = L.decisions(spec, rows, players)
    assert plays - 3 * 6 <= made <= plays if game == "schieber" else made == plays


def test_ladder_on_the_command_line_writes_its_table(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(L, "TIMING_SECONDS", 0.01)
    out = tmp_path / "l.csv"
    argv = [
        "ladder",
        "differenzler",
        "random",
        "heuristic",
        "--games",
        "400",
        "--seed",
        "4",
        "--out",
        str(out),
    ]
    assert main([*argv, "--no-progress", "--set", "max_extra_deals=2"]) == 0
    printed = capsys.readouterr().out
    assert "penalty: X minus Y" in printed and "seconds a decision" in printed and "wrote" in printed
    table = pd.read_csv(out, index_col=["measure", "x", "y"], keep_default_na=False)
    api = cardmc.ladder(
        "differenzler", ["random", "heuristic"], games=400, seed=4, timed=False, max_extra_deals=2
    )
    pd.testing.assert_frame_equal(table[FIGURE], api[FIGURE], check_dtype=False)
    assert (table[["x_seconds", "y_seconds"]] > 0).all().all()
    assert list(tmp_path.iterdir()) == [out]


@pytest.mark.parametrize(
    "lineup, extra, named",
    [
        (["random", "bogus"], [], "bogus"),
        (["random"], [], "two players or more"),
        (["random", "random"], [], "twice"),
        (["heuristic@2", "random"], [], "does not search"),
        (["pimc@99", "random"], [], "pimc_tricks"),
        (["random", "heuristic,random"], [], "one policy name"),
        (["pimc@1", "pimc@2"], [], "one table"),
        (["random", "heuristic"], ["--set", "colour=red"], "colour"),
        (["random", "heuristic"], ["--target-se", "-1"], "target_se"),
    ],
)
def test_bad_input_exits_2_with_one_line_and_no_file(tmp_path, capsys, lineup, extra, named):
    out = tmp_path / "l.csv"
    argv = ["ladder", "differenzler", *lineup, "--games", "50", "--out", str(out), "--no-progress", *extra]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and named in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_a_bad_game_is_one_line_too(capsys):
    with pytest.raises(SystemExit) as exit:
        main(["ladder", "poker", "random", "heuristic"])
    assert exit.value.code == 2 and capsys.readouterr().err.count("\n") == 1
    with pytest.raises(UsageError, match="poker"):
        cardmc.ladder("poker")


def test_the_report_has_a_ladder_section(tmp_path, monkeypatch):
    from cardmc.reports import build
    from cardmc.reports import ladder as section

    assert "ladder" in [s.module for s in build.studies()]
    monkeypatch.setattr(registry, "GAMES", ("norwegian_jazz",))
    s = section.study(tmp_path, games=300, seed=6)
    assert s.game == "ladder" and [name for name, _, _ in s.tables] == ["norwegian_jazz_ladder"]
    table = s.data["ladder_norwegian_jazz"]
    assert not {"seconds", "x_seconds", "y_seconds"} & set(table.columns)  # the seed fixes every figure
    assert "seed 6" in s.tables[0][1]
    pairs = set(zip(table.index.get_level_values("x"), table.index.get_level_values("y")))
    assert ("pimc", "heuristic") in pairs and ("pimc", "random") not in pairs  # the deep search: one pair
    assert ("pimc@2", "random") in pairs and ("pimc@2", "heuristic") in pairs
    assert s.commands == [
        "cardmc ladder norwegian_jazz random heuristic learned pimc@2 --games 300 --search-games 2 "
        "--set pimc_samples=1 --seed 6 --no-timing",
        "cardmc ladder norwegian_jazz heuristic pimc --games 300 --search-games 2 "
        "--set pimc_samples=1 --seed 6 --no-timing",
    ]
    assert "minus heuristic" in s.answer and "[" in s.answer
    for files in (f for _, _, f in s.charts):
        assert all((tmp_path / f).is_file() for f in files)
