"""Runs on a Dask cluster (two local worker processes on loopback) give
exactly the rows and aggregates of a run in this process."""

from __future__ import annotations

import json
import subprocess
import sys

import pandas as pd
import pytest

from cardmc import api, distributed
from cardmc.registry import UsageError

KEY = ["game", "deal", "seat"]
KW = dict(games=900, seed=21, policy="heuristic,random,calibrated,heuristic:random", max_extra_deals=2)


@pytest.fixture(scope="module")
def cluster():
    with distributed.local_cluster(2) as c:
        yield c.scheduler_address


@pytest.fixture(scope="module")
def local() -> pd.DataFrame:
    return api.simulate("differenzler", threads=1, **KW)


def same_rows(a: pd.DataFrame, b: pd.DataFrame) -> None:
    a = a.sort_values(KEY).reset_index(drop=True)
    b = b.sort_values(KEY).reset_index(drop=True)
    pd.testing.assert_frame_equal(a, b, check_exact=True)


def test_cluster_rows_equal_local_rows(cluster, local, tmp_path):
    assert cluster.startswith("tcp://127.0.0.1:")
    df = api.simulate("differenzler", scheduler=cluster, chunk_games=200, **KW)
    pd.testing.assert_frame_equal(df, local, check_exact=True)  # in game order, not only after sorting
    folder = api.simulate("differenzler", scheduler=cluster, chunk_games=250, out=tmp_path / "run", **KW)
    assert len(list(folder.glob("part-*.parquet"))) == 4
    same_rows(api.read(folder), local)
    single = api.simulate(
        "differenzler", scheduler=cluster, chunk_games=250, out=tmp_path / "one.parquet", **KW
    )
    same_rows(api.read(single), local)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.parquet", "run"]  # no hidden chunks left


def test_solved_rows_on_the_cluster_equal_solved_rows_here(cluster):
    here = api.simulate("english_jazz", games=3, seed=4, threads=1, solve=True)
    there = api.simulate("english_jazz", games=3, seed=4, scheduler=cluster, chunk_games=1, solve=True)
    pd.testing.assert_frame_equal(there, here, check_exact=True)
    assert "solved_tricks" in there and here["solved_tricks"].notna().all()


def test_cluster_aggregates_equal_local_analysis(cluster, local):
    aggs = api.simulate("differenzler", scheduler=cluster, chunk_games=150, aggregate=True, **KW)
    want = api.analyze("differenzler", local)
    got = api.analyze("differenzler", aggs)
    assert list(got) == list(want)
    for name in want:
        pd.testing.assert_frame_equal(got[name], want[name], check_exact=True)


def test_cli_on_a_cluster_resumes_a_local_run(cluster, local, tmp_path):
    """A run begun here (one chunk of three done, as if interrupted) is
    finished on the cluster from the command line: the same rows."""
    folder = api.simulate("differenzler", chunk_games=300, out=tmp_path / "run", **KW)
    m = json.loads((folder / "manifest.json").read_text())
    for index in ("0", "2"):
        (folder / m["chunks"].pop(index)["file"]).unlink()
    m["complete"] = False
    (folder / "manifest.json").write_text(json.dumps(m))
    args = [
        "simulate",
        "differenzler",
        "--games",
        "900",
        "--seed",
        "21",
        "--policy",
        KW["policy"],
        "--set",
        "max_extra_deals=2",
        "--out",
        "run/",
        "--no-progress",
        "--scheduler",
        cluster,
    ]
    done = subprocess.run(
        [sys.executable, "-m", "cardmc.cli", *args], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "resuming" in done.stderr and "1 of 3 chunks done" in done.stderr
    same_rows(api.read(folder), local)


def test_local_cluster_from_the_api_and_bad_options(local):
    df = api.simulate("differenzler", workers=2, chunk_games=300, **KW)
    pd.testing.assert_frame_equal(df, local, check_exact=True)
    with pytest.raises(UsageError, match="not both"):
        api.simulate("differenzler", games=10, workers=2, scheduler="tcp://127.0.0.1:1")
    with pytest.raises(UsageError, match="nthreads"):
        api.simulate("differenzler", games=10, threads=2, scheduler="tcp://127.0.0.1:1")
    with pytest.raises(UsageError, match="workers must be"):
        api.simulate("differenzler", games=10, workers=0)


@pytest.mark.parametrize("game, games", [("schieber", 60), ("english_jazz", 300), ("norwegian_jazz", 400)])
def test_every_game_aggregates_on_the_cluster_as_here(cluster, game, games):
    kw = dict(games=games, seed=3, policy="heuristic")
    want = api.analyze(game, api.simulate(game, threads=1, **kw))
    got = api.analyze(
        game, api.simulate(game, scheduler=cluster, chunk_games=games // 3 + 1, aggregate=True, **kw)
    )
    assert list(got) == list(want)
    for name in want:
        pd.testing.assert_frame_equal(got[name], want[name], check_exact=True)


def test_a_local_run_does_not_load_dask():
    # loading dask.distributed takes most of a second: a run on this machine must not pay it
    code = (
        "import sys, cardmc\n"
        "cardmc.simulate('differenzler', games=20, seed=1)\n"
        "cardmc.simulate('schieber', games=4, seed=1, aggregate=True)\n"
        "print('distributed' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "False"
