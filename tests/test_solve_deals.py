"""``simulate(..., solve=True)``: each deal's solver values beside the run's rows."""

from __future__ import annotations

import pandas as pd
import pytest

import cardmc
from cardmc import cli, solve_deals
from cardmc.registry import UsageError

RUN = {"games": 2, "seed": 7}


@pytest.fixture(scope="module")
def english_jazz():
    return cardmc.simulate("english_jazz", **RUN, threads=1, solve=True)


def test_the_solved_columns_sit_beside_every_row(english_jazz):
    plain = cardmc.simulate("english_jazz", **RUN)
    pd.testing.assert_frame_equal(english_jazz[plain.columns], plain)
    assert english_jazz["solved_tricks"].between(0, 12).all()
    assert (english_jazz["solved_sweep"] == (english_jazz["solved_tricks"] == 12)).all()


def test_the_columns_are_the_solver_s_values_of_the_deal_as_dealt(english_jazz):
    line = cardmc.trace("english_jazz", **RUN)[1]
    deal = line["deals"][5]
    for seat in range(3):
        v = cardmc.solve(
            "english_jazz", hands=[" ".join(h) for h in deal["hands"]], to_play=deal["leader"], seat=seat
        ).value
        row = english_jazz.query(f"game == 1 and deal == 5 and seat == {seat}").iloc[0]
        assert (row["solved_tricks"], row["solved_sweep"]) == (v["most_tricks"], v["all_tricks"])


def test_the_columns_do_not_depend_on_the_threads(english_jazz):
    two = cardmc.simulate("english_jazz", **RUN, threads=2, solve=True)
    pd.testing.assert_frame_equal(two, english_jazz)


def test_norwegian_jazz_solves_the_penalty_deals_and_sevens(monkeypatch):
    calls = []

    def fake_solve(game, hands, to_play, contract, seat, tt_mib, points=None, cards=True, stop=None):
        calls.append((contract, seat, points, cards))
        if contract == 6:
            return type("S", (), {"value": {"out_first": seat % 2, "score": 10 - seat}})
        return type("S", (), {"value": {"held_to": -contract - seat, "escape": -seat}})

    monkeypatch.setattr(solve_deals, "solve", fake_solve)
    hands = [["2C"], ["3C"], ["4C"]]
    line = {
        "index": 0,
        "players": 3,
        "deals": [{"number": k, "hands": hands, "leader": 1} for k in (1, 5, 6)],
    }
    df = pd.DataFrame(solve_deals.deal_values("norwegian_jazz", line))
    assert df["deal"].tolist() == [1, 1, 1, 5, 5, 5, 6, 6, 6]
    assert df["solved_held_to"].tolist()[:6] == [-1, -2, -3, -5, -6, -7]
    assert df["solved_escape"].tolist()[:6] == [0, -1, -2, 0, -1, -2]
    assert df["solved_out_first"].tolist()[6:] == [0, 1, 0] and df["solved_score"].tolist()[6:] == [10, 9, 8]
    assert df.loc[df["deal"] == 6, "solved_held_to"].isna().all()
    assert [c for c in calls if c[0] == 6] == [(6, s, [0, 0, 0], True) for s in range(3)]
    assert all(not cards for contract, _, _, cards in calls if contract != 6)


def test_schieber_gives_each_seat_its_team_s_points_under_every_contract(monkeypatch):
    calls = []

    def fake_solve(game, hands, to_play, contract, tt_mib, cards, stop=None):
        calls.append((contract, to_play, cards))
        points = 10 * len(calls)
        return type("S", (), {"value": {"team0": points, "team1": 157 - points}})

    monkeypatch.setattr(solve_deals, "solve", fake_solve)
    line = {"index": 4, "players": 4, "deals": [{"hands": [["6C"]] * 4, "leader": 2, "contract": "H"}]}
    rows = solve_deals.deal_values("schieber", line)
    assert [c for c, _, _ in calls] == ["C", "D", "H", "S", "obenabe", "undenufe"]
    assert {to_play for _, to_play, _ in calls} == {2} and not any(cards for _, _, cards in calls)
    assert [(r["game"], r["deal"], r["seat"]) for r in rows] == [(4, 0, s) for s in range(4)]
    assert [r["solved_H"] for r in rows] == [30, 127, 30, 127]
    assert [r["solved_points"] for r in rows] == [30, 127, 30, 127]
    assert [r["solved_undenufe"] for r in rows] == [60, 97, 60, 97]


def test_aggregate_runs_carry_the_solved_table_of_the_rows(english_jazz, tmp_path):
    rows_tables = cardmc.analyze("english_jazz", english_jazz)
    aggs = cardmc.simulate("english_jazz", **RUN, threads=1, aggregate=True, solve=True)
    tables = cardmc.analyze("english_jazz", aggs)
    assert list(tables) == list(rows_tables) and "solved_sweeps" in tables
    for name in tables:
        pd.testing.assert_frame_equal(tables[name], rows_tables[name])
    plain = cardmc.analyze("english_jazz", cardmc.simulate("english_jazz", **RUN, aggregate=True))
    assert list(plain) == [name for name in tables if name != "solved_sweeps"]
    folder = tmp_path / "run"
    cardmc.simulate("english_jazz", **RUN, out=folder, chunk_games=1, threads=2, aggregate=True, solve=True)
    pd.testing.assert_frame_equal(
        cardmc.analyze("english_jazz", folder)["solved_sweeps"], tables["solved_sweeps"]
    )
    rows_file, rows_folder = tmp_path / "rows.parquet", tmp_path / "rows"  # solved rows, read piece by piece
    cardmc.simulate("english_jazz", **RUN, out=rows_file, solve=True)
    cardmc.simulate("english_jazz", **RUN, out=rows_folder, chunk_games=1, solve=True)
    for source in (rows_file, rows_folder):
        pd.testing.assert_frame_equal(
            cardmc.analyze("english_jazz", source)["solved_sweeps"], tables["solved_sweeps"]
        )


def test_the_command_line_aggregates_solved_runs(tmp_path, capsys):
    out = tmp_path / "a.parquet"
    assert (
        cli.main(
            [
                "simulate",
                "english_jazz",
                "--games",
                "1",
                "--seed",
                "2",
                "--solve",
                "--aggregate",
                "--out",
                str(out),
                "--no-progress",
            ]
        )
        == 0
    )
    assert cli.main(["analyze", "english_jazz", str(out)]) == 0
    assert "== solved_sweeps" in capsys.readouterr().out
    assert (tmp_path / "a-analysis" / "solved_sweeps.csv").is_file()


def test_files_and_run_folders_in_any_chunks_carry_the_same_solved_rows(english_jazz, tmp_path):
    folder = tmp_path / "run/"
    cardmc.simulate("english_jazz", **RUN, out=folder, chunk_games=1, solve=True)
    pd.testing.assert_frame_equal(cardmc.read(folder), english_jazz, check_dtype=False)
    assert cardmc.run_info(folder)["solve"] in (True, "True")
    csv = tmp_path / "ej.csv"
    cardmc.simulate("english_jazz", **RUN, out=csv, solve=True)
    assert pd.read_csv(csv)["solved_tricks"].tolist() == english_jazz["solved_tricks"].tolist()
    with pytest.raises(UsageError):  # a folder of solved rows is not resumed as a plain run
        cardmc.simulate("english_jazz", **RUN, out=folder, chunk_games=1)


def test_the_command_line_writes_the_solved_rows(tmp_path):
    out = tmp_path / "ej.parquet"
    assert (
        cli.main(
            [
                "simulate",
                "english_jazz",
                "--games",
                "1",
                "--seed",
                "2",
                "--solve",
                "--out",
                str(out),
                "--no-progress",
            ]
        )
        == 0
    )
    df = pd.read_parquet(out)
    assert {"solved_tricks", "solved_sweep"} <= set(df.columns) and len(df) == 36


def test_differenzler_gives_each_seat_its_two_values_under_the_deal_s_trump(monkeypatch):
    calls = []

    def fake_solve(game, hands, to_play, contract, seat, tt_mib, cards, stop=None):
        calls.append((contract, to_play, seat, cards))
        return type("S", (), {"value": {"sure_at_least": seat, "sure_at_most": 100 + seat}})

    monkeypatch.setattr(solve_deals, "solve", fake_solve)
    line = {"index": 2, "players": 4, "deals": [{"hands": [["6C"]] * 4, "leader": 3, "trump": "D"}] * 2}
    rows = solve_deals.deal_values("differenzler", line)
    assert calls == [("D", 3, s, False) for s in range(4)] * 2
    assert [(r["deal"], r["seat"], r["solved_at_least"], r["solved_at_most"]) for r in rows] == [
        (d, s, s, 100 + s) for d in range(2) for s in range(4)
    ]


def test_analyze_filters_rows_on_the_solved_columns(english_jazz, tmp_path):
    kept = english_jazz.query("solved_tricks >= 2")
    assert 0 < len(kept) < len(english_jazz)
    tables = cardmc.analyze("english_jazz", english_jazz, where="solved_tricks >= 2")
    direct = cardmc.analyze("english_jazz", kept.reset_index(drop=True))
    assert list(tables) == list(direct) and all(tables[k].equals(direct[k]) for k in tables)
    out = tmp_path / "ej.parquet"
    english_jazz.to_parquet(out)
    from_file = cardmc.analyze("english_jazz", out, where="solved_tricks >= 2")
    assert all(a.equals(b) for a, b in zip(from_file.values(), tables.values()))
    plain = tmp_path / "plain.parquet"
    cardmc.simulate("english_jazz", **RUN, out=plain)
    with pytest.raises(UsageError, match="unknown column 'solved_tricks'"):
        cardmc.analyze("english_jazz", plain, where="solved_tricks >= 2")


def test_the_schieber_contract_study_reads_the_chooser_s_rows():
    from cardmc.experiments.solved import contracts_solved

    base = {
        "solved_C": 50,
        "solved_D": 60,
        "solved_H": 70,
        "solved_S": 40,
        "solved_obenabe": 30,
        "solved_undenufe": 20,
    }
    rows = pd.DataFrame(
        [
            {"deal": 0, "seat": 1, "chooser": 1, "pushed": 0, "solved_points": 70, **base},  # the best: H
            {"deal": 0, "seat": 2, "chooser": 1, "pushed": 0, "solved_points": 0, **base},  # not the chooser
            {"deal": 1, "seat": 3, "chooser": 3, "pushed": 1, "solved_points": 40, **base},  # S: 30 left
        ]
    )
    t = contracts_solved(rows)
    assert t.loc[("all deals", "best contract chosen"), "estimate"] == 0.5
    assert t.loc[("all deals", "points left (best minus chosen)"), "estimate"] == 15
    assert t.loc[("pushed", "points left (best minus chosen)"), "estimate"] == 30
    assert t.loc[("kept", "best contract chosen"), "n"] == 1
    with pytest.raises(UsageError, match="simulate with solve=True"):
        contracts_solved(rows.drop(columns="solved_C"))


def test_the_differenzler_declaration_study_places_each_declaration():
    from cardmc.experiments.solved import declarations_solved

    rows = pd.DataFrame(
        {
            "declare_policy": ["calibrated"] * 4,
            "declared": [10, 50, 80, 30],
            "solved_at_least": [20, 20, 20, 30],
            "solved_at_most": [60, 60, 60, 40],
        }
    )
    t = declarations_solved(rows).loc["calibrated"]
    assert t.loc["below sure at least", "estimate"] == 0.25
    assert t.loc["above sure at most", "estimate"] == 0.25
    assert t.loc["between", "estimate"] == 0.5
    assert t.loc["declared minus sure at least", "estimate"] == (-10 + 30 + 60 + 0) / 4
