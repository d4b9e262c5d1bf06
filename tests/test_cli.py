"""The cardmc command line: round trips and bad input (one line, exit 2, no file)."""

from __future__ import annotations

import json
import subprocess
import sys

import pandas as pd
import pytest

from cardmc.cli import main


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cardmc.cli", *args], capture_output=True, text=True)


def test_simulate_then_analyze(tmp_path, capsys):
    out = tmp_path / "diff.parquet"
    assert (
        main(
            ["simulate", "differenzler", "--games", "2000", "--seed", "1", "--out", str(out), "--no-progress"]
        )
        == 0
    )
    df = pd.read_parquet(out)
    assert df["game"].nunique() == 2000 and df["deal"].min() == 0
    assert main(["analyze", "differenzler", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "2000 games, seed 1" in printed and "penalty_by_policy" in printed
    tables = tmp_path / "diff-analysis"
    penalty = pd.read_csv(tables / "penalty_by_policy.csv")
    assert {"estimate", "ci_low", "ci_high", "n"} <= set(penalty.columns)


def test_simulate_csv_and_trace(tmp_path):
    out = tmp_path / "d.csv"
    assert (
        main(
            [
                "simulate",
                "differenzler",
                "--games",
                "50",
                "--out",
                str(out),
                "--no-progress",
                "--policy",
                "random",
                "--set",
                "max_extra_deals=1",
            ]
        )
        == 0
    )
    assert pd.read_csv(out)["game"].nunique() == 50
    trace = tmp_path / "t.jsonl"
    assert (
        main(
            [
                "trace",
                "differenzler",
                "--games",
                "3",
                "--seed",
                "4",
                "--policy",
                "heuristic",
                "--out",
                str(trace),
            ]
        )
        == 0
    )
    lines = [json.loads(x) for x in trace.read_text().splitlines()]
    assert [x["index"] for x in lines] == [0, 1, 2] and lines[0]["seed"] == 4


@pytest.mark.parametrize(
    "args,named",
    [
        (["simulate", "whist", "--games", "10"], "whist"),
        (["simulate", "differenzler", "--games", "0"], "'0'"),
        (["simulate", "differenzler", "--games", "ten"], "'ten'"),
        (["simulate", "differenzler", "--games", "5", "--policy", "clever"], "clever"),
        (["simulate", "differenzler", "--games", "5", "--set", "bogus=1"], "bogus"),
        (["simulate", "differenzler", "--games", "5", "--set", "max_extra_deals=-3"], "-3"),
        (["simulate", "differenzler", "--games", "5", "--set", "open_declarations=maybe"], "maybe"),
        (["simulate", "differenzler", "--games", "5", "--seed", "-1"], "-1"),
        (
            ["simulate", "differenzler", "--games", "5", "--out", "/nonexistent/dir/x.parquet"],
            "/nonexistent/dir",
        ),
        (["simulate", "differenzler", "--games", "5", "--out", "x.txt"], "x.txt"),
        (["trace", "differenzler", "--policy", "bogus"], "bogus"),
        (["analyze", "differenzler", "missing.parquet"], "missing.parquet"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path, args, named):
    if "--out" not in args and args[0] in ("simulate", "trace"):
        args = args + ["--out", str(tmp_path / "out.parquet")]
    before = set(tmp_path.iterdir())
    done = subprocess.run(
        [sys.executable, "-m", "cardmc.cli", *args], capture_output=True, text=True, cwd=tmp_path
    )
    assert done.returncode == 2, done.stderr
    assert named in done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert set(tmp_path.iterdir()) == before


def test_existing_output_needs_force(tmp_path):
    out = tmp_path / "d.parquet"
    out.write_text("keep me")
    done = run("simulate", "differenzler", "--games", "5", "--out", str(out), "--no-progress")
    assert done.returncode == 2 and "already exists" in done.stderr
    assert out.read_text() == "keep me"
    done = run("simulate", "differenzler", "--games", "5", "--out", str(out), "--no-progress", "--force")
    assert done.returncode == 0 and pd.read_parquet(out)["game"].nunique() == 5


def test_analyze_refuses_another_games_file(tmp_path):
    out = tmp_path / "x.parquet"
    pd.DataFrame({"a": [1, 2]}).to_parquet(out)
    done = run("analyze", "differenzler", str(out))
    assert done.returncode == 2 and "not differenzler results" in done.stderr


def test_help_explains_every_command():
    done = run("--help")
    for command in ("simulate", "analyze", "trace", "bench", "calibrate", "report"):
        assert command in done.stdout
    done = run("simulate", "--help")
    assert "--set NAME=VALUE" in done.stdout and "--games" in done.stdout


def test_odds_for_a_hand(tmp_path):
    done = run(
        "odds",
        "english_jazz",
        "--hand",
        "JS 9S AS KS QS TS AH KH QH AD KD QD",
        "--seat",
        "2",
        "--dealer",
        "0",
        "--games",
        "3000",
        "--seed",
        "1",
        "--out",
        str(tmp_path / "o"),
    )
    assert done.returncode == 0, done.stderr
    assert "3,000 deals" in done.stdout and "all_tricks" in done.stdout
    summary = pd.read_csv(tmp_path / "o" / "summary.csv", index_col=0)
    assert summary.loc["all_tricks", "estimate"] > 0.8  # the top six trumps-to-be and a void, as second


@pytest.mark.parametrize(
    "hand,named",
    [
        ("JS 9S AS KS QS TS AH KH QH AD KD", "got 11"),
        ("JS 9S AS KS QS TS AH KH QH AD KD JS", "'JS' appears twice"),
        ("JS 9S AS KS QS TS AH KH QH AD KD 2D", "'2D'"),
        ("JS 9S AS KS QS TS AH KH QH AD KD XX", "'XX'"),
    ],
)
def test_odds_names_a_bad_hand(hand, named):
    done = run("odds", "english_jazz", "--hand", hand, "--games", "100")
    assert done.returncode == 2 and named in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_odds_names_a_bad_seat():
    done = run("odds", "english_jazz", "--hand", "JS 9S AS KS QS TS AH KH QH AD KD QD", "--seat", "3")
    assert done.returncode == 2 and "seat" in done.stderr and "3" in done.stderr


def test_game_indices_past_the_int32_rows_are_refused(tmp_path):
    done = run("simulate", "differenzler", "--games", "3000000000", "--out", str(tmp_path / "x.parquet"))
    assert done.returncode == 2 and "2147483647" in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_bench_reports_rates_and_the_speed_up_over_one_thread():
    from cardmc.bench import bench

    df = bench("differenzler", games=256, repeat=1, echo=False)
    assert set(df["case"]) == {"random", "heuristic+calibrated", "learned"} and (df["deals_per_s"] > 0).all()
    one = df[df["threads"] == 1]
    assert (one["speedup"] == 1.0).all()
    for _, row in df.iterrows():
        base = one[(one["case"] == row["case"]) & (one["path"] == row["path"])]["seconds"].iat[0]
        assert row["speedup"] == base / row["seconds"]


def test_help_texts_show_percent_signs_once():
    from cardmc.cli import build_parser

    commands = list(build_parser()._subparsers._group_actions[0].choices)
    assert {"simulate", "analyze", "trace", "odds", "calibrate"} <= set(commands)
    texts = {"": run("--help").stdout}
    texts.update({c: run(c, "--help").stdout for c in commands})
    for command, text in texts.items():
        assert text.strip() and "%%" not in text, command
    assert "95% CIs" in texts[""] and "95% CIs" in texts["odds"]


def test_simulate_and_trace_take_a_calibration_table(tmp_path):
    for command in ("simulate", "trace"):
        done = run(
            command,
            "differenzler",
            "--games",
            "5",
            "--calibration",
            str(tmp_path / "none.csv"),
            "--out",
            str(tmp_path / ("x.parquet" if command == "simulate" else "x.jsonl")),
        )
        assert done.returncode == 2 and "none.csv" in done.stderr and "Traceback" not in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_the_command_line_and_the_api_make_the_same_job():
    import pickle

    from cardmc.cli import _job, build_parser
    from cardmc.job import make

    args = build_parser().parse_args(
        [
            "simulate",
            "differenzler",
            "--games",
            "7",
            "--seed",
            "3",
            "--policy",
            "random,heuristic,calibrated,heuristic:random",
            "--set",
            "max_extra_deals=2",
            "--out",
            "x.parquet",
        ]
    )
    job = _job(args)
    assert job == make(
        "differenzler", 7, 3, "random,heuristic,calibrated,heuristic:random", settings={"max_extra_deals": 2}
    )
    assert pickle.loads(pickle.dumps(job)) == job and job.options["max_extra_deals"] == 2
    assert job.policy_codes[3] == (1, 0) and job.calibration is not None
