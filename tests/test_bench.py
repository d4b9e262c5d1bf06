"""``cardmc bench`` times the kernel, the DataFrame path and the aggregate path
of every case, each against the kernel at the same thread count."""

from __future__ import annotations

import numba
import pytest

import cardmc.bench as B
from cardmc import cli, registry
from cardmc.bench import PATHS, bench
from cardmc.registry import UsageError


def test_bench_reports_three_paths_against_the_kernel(capsys):
    df = bench("norwegian_jazz", games=128, repeat=1, players=3)
    lines = capsys.readouterr().out.strip().splitlines()
    threads = sorted({1, numba.config.NUMBA_NUM_THREADS})
    cases = len(registry.get("norwegian_jazz").bench)  # random, heuristic, learned
    assert (
        len(df) == len(lines) == cases * len(PATHS) * len(threads)
    )  # one line per case, path and thread count
    assert set(df["path"]) == set(PATHS) and set(df["threads"]) == set(threads)
    assert (df["deals_per_s"] > 0).all() and (df["games_per_s"] * 6).to_numpy() == pytest.approx(
        df["deals_per_s"].to_numpy()
    )
    for _, row in df.iterrows():
        same = df[(df["case"] == row["case"]) & (df["threads"] == row["threads"])]
        kernel = same[same["path"] == "kernel"]["deals_per_s"].iat[0]
        assert row["of_kernel"] == pytest.approx(row["deals_per_s"] / kernel)
        one = df[(df["case"] == row["case"]) & (df["path"] == row["path"]) & (df["threads"] == 1)]
        assert row["speedup"] == one["seconds"].iat[0] / row["seconds"]
    assert all(
        f"{row['path']:9s} threads={row['threads']}" in line for line, (_, row) in zip(lines, df.iterrows())
    )


def test_bench_paths_can_be_chosen():
    df = bench("english_jazz", games=64, repeat=1, echo=False, paths=("kernel", "aggregate"))
    assert list(df["path"].unique()) == ["kernel", "aggregate"]
    with pytest.raises(UsageError, match="bench paths"):
        bench("english_jazz", games=64, repeat=1, echo=False, paths=("rows",))


def test_bench_takes_every_cell_in_turn(monkeypatch):
    # round after round, each path at one thread and at all threads, so that drift weighs on every cell alike
    calls = []
    monkeypatch.setattr(
        B,
        "_kernel",
        lambda spec, players, params, policies, count, block=None: (
            calls.append(("kernel", numba.get_num_threads(), count)) or 1.0,
            6 * count * players,
        ),
    )
    monkeypatch.setattr(
        B,
        "_api",
        lambda game, policy, settings, players, count, threads, aggregate: (
            calls.append(("aggregate" if aggregate else "frame", threads, count)) or 1.0
        ),
    )
    monkeypatch.setattr(B.numba.config, "NUMBA_NUM_THREADS", 2)
    B.bench("norwegian_jazz", games=100, repeat=3, players=3, echo=False)
    timed = [c[:2] for c in calls if c[2] == 100]  # not the first calls (64 games: compile)
    one_round = [(p, t) for t in (1, 2) for p in PATHS]
    case = [("kernel", 1)] + one_round * 3  # the deals counted, then three rounds
    assert timed == case * 3  # three cases: random, heuristic and learned


def test_bench_times_the_solver_and_the_search_player(capsys):
    assert (
        cli.main(["bench", "schieber", "--solver", "--tricks-left", "3", "--positions", "4", "--seed", "2"])
        == 0
    )
    out = capsys.readouterr().out.strip()
    line = out.splitlines()[0]
    assert line.startswith("schieber team0 (3 tricks left, contract random, seed 2): 4 positions, median ")
    assert " ms, p99 " in line and "M nodes/s" in line
    assert "by contract family:" in out and "share of cut nodes cut by their first move (%):" in out
    assert (
        cli.main(["bench", "english_jazz", "--pimc", "--games", "1", "--tricks", "1", "--samples", "2"]) == 0
    )
    line = capsys.readouterr().out.strip()
    assert line.startswith(
        "english_jazz: every seat pimc, 2 samples, from 1 tricks left, seed 1: 1 games, 12 deals"
    )


def test_the_search_benches_show_where_the_work_goes():
    from cardmc.bench_search import bench_pimc, bench_solver, cut_rates, decision_table, probe_nodes

    df = bench_solver("schieber", 12, 4, 4, probes=(-5, 0, 5))
    assert set(df["family"]) <= {"trump", "obenabe", "undenufe"} and (df["tricks_left"] == 4).all()
    cuts = df.attrs["cuts"]
    assert 0 < cuts.sum() <= df["nodes"].sum()
    rates = cut_rates(cuts)
    assert list(rates.columns) == [3, 4]  # the last two tricks are played without a search
    assert ((rates.fillna(0) >= 0) & (rates.fillna(0) <= 100)).all().all()
    probes = probe_nodes(df.attrs["probes"])
    assert list(probes.index) == [-5, 0, 5] and (probes["probes"] == 12).all()
    decisions, seconds, deals = bench_pimc("schieber", 1, 4, 2)
    assert seconds > 0 and deals > 0 and len(decisions) > 10
    assert set(decisions["tricks_left"]) <= {1, 2, 3, 4} and (decisions["nodes"] > 0).all()
    assert set(decisions["family"]) <= {"trump", "obenabe", "undenufe"}
    table = decision_table(decisions)
    families = table.xs("all", level="family")
    assert table["decisions"].sum() == 2 * len(decisions)  # each decision in its family and in "all"
    by_left = decisions.groupby("tricks_left")
    assert families["decisions"].sort_index().tolist() == by_left.size().sort_index().tolist()
    medians = (by_left["seconds"].median() * 1000).round(1).sort_index()
    assert families["median_ms"].sort_index().tolist() == medians.tolist()


def test_the_solver_bench_solves_the_objective_asked(capsys):
    from cardmc.bench_search import bench_solver

    at_least = bench_solver("differenzler", 30, 3, 3)
    at_most = bench_solver("differenzler", 30, 3, 3, objective="sure_at_most")
    assert (at_most["value"] != at_least["value"]).any()  # the same positions, another game
    last = [
        bench_solver("differenzler", 30, 3, 1, objective=o)["value"]
        for o in ("sure_at_least", "sure_at_most")
    ]
    assert (last[0] == last[1]).all()  # the last trick plays itself
    held = bench_solver("norwegian_jazz", 20, 3, 3)["value"]
    escape = bench_solver("norwegian_jazz", 20, 3, 3, objective="escape")["value"]
    assert (escape <= held).all() and (escape < held).any()  # help from every seat is never worse
    assert (
        cli.main(
            [
                "bench",
                "differenzler",
                "--solver",
                "--objective",
                "sure_at_most",
                "--tricks-left",
                "2",
                "--positions",
                "3",
            ]
        )
        == 0
    )
    line = capsys.readouterr().out.strip()
    assert line.startswith("differenzler sure_at_most (2 tricks left, contract random, seed 1): 3 positions")


@pytest.mark.parametrize(
    "args, says",
    [
        (
            ["--solver", "--objective", "sure_at_most"],
            "objective 'sure_at_most' is not one of schieber's: team0",
        ),
        (["--objective", "team0"], "--objective is not for the kernel bench: use it with --solver"),
        (["--solver", "--pimc"], "give one"),
        (["--tricks-left", "3"], "--tricks-left is not for the kernel bench: use it with --solver"),
        (["--pimc", "--positions", "9"], "--positions is not for --pimc: use it with --solver"),
        (["--solver", "--samples", "4"], "--samples is not for --solver: use it with --pimc"),
        (["--solver", "--cold"], "--cold is not for --solver"),
        (["--solver", "--hand", "0:JS"], "conditions"),
        (["--solver", "--tricks-left", "10"], "tricks_left must be 1..9, not 10"),
    ],
)
def test_bench_refuses_options_of_another_mode_in_one_line(capsys, args, says):
    assert cli.main(["bench", "schieber", *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and says in err[0]


@pytest.mark.parametrize(
    "args, says",
    [
        (["--solver", "--games", "3"], "--games is not for --solver"),
        (["--seed", "3"], "--seed is not for the kernel bench: use it with --solver"),
        (["--pimc", "--tricks", "5", "--repeat", "5"], "--repeat is not for --pimc"),
        (
            ["--tricks", "5"],
            "--tricks is not for the kernel bench: use it with --pimc",
        ),  # the default value too
    ],
)
def test_bench_refuses_every_option_of_another_mode(capsys, args, says):
    assert cli.main(["bench", "schieber", *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and says in err[0]
