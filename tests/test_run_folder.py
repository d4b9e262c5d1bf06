"""Run folders: killed at any moment and resumed with the same command, a run
ends with exactly the rows of an uninterrupted one; damaged chunks are redone;
a folder holding another run is refused."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from cardmc import api, run_folder
from cardmc.registry import UsageError
from tests.helpers import start_then_stop

KEY = ["game", "deal", "seat"]


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "cardmc.cli", *args], cwd=cwd, capture_output=True, text=True
    )


def manifest(folder: Path) -> dict:
    return json.loads((folder / run_folder.MANIFEST).read_text())


def same_rows(a: pd.DataFrame, b: pd.DataFrame) -> None:
    a = a.sort_values(KEY).reset_index(drop=True)
    b = b.sort_values(KEY).reset_index(drop=True)
    pd.testing.assert_frame_equal(a, b, check_exact=True)


GAMES = 120_000  # 30 chunks of tens of milliseconds each: the run cannot end between two polls (10 ms)
RUN = [
    "simulate",
    "differenzler",
    "--games",
    str(GAMES),
    "--seed",
    "3",
    "--policy",
    "heuristic",
    "--chunk-games",
    str(GAMES // 30),
    "--out",
    "run/",
    "--no-progress",
]


def test_sigkill_then_resume_gives_the_uninterrupted_result(tmp_path):
    status, _ = start_then_stop(tmp_path, RUN, signal.SIGKILL)
    assert status == -signal.SIGKILL
    folder = tmp_path / "run"
    before = manifest(folder)
    assert 1 <= len(before["chunks"]) < 30 and not before["complete"]
    kept = {e["file"]: (folder / e["file"]).stat() for e in before["chunks"].values()}
    done = cli(*RUN, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"{len(before['chunks'])} of 30 chunks done" in done.stderr
    after = manifest(folder)
    assert after["complete"] and len(after["chunks"]) == 30
    for name, st in kept.items():  # finished chunks were not redone
        now = (folder / name).stat()
        assert (now.st_ino, now.st_mtime_ns) == (st.st_ino, st.st_mtime_ns)
    parts = [e["file"] for e in after["chunks"].values()]
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        [run_folder.MANIFEST, *parts]
    )  # no temporary files
    whole = api.simulate("differenzler", games=GAMES, seed=3, policy="heuristic")
    same_rows(api.read(folder), whole)
    again = cli(*RUN, cwd=tmp_path)  # nothing left to do
    assert again.returncode == 0 and "complete already" in again.stderr


def test_ctrl_c_stops_with_one_line_saying_how_to_resume(tmp_path):
    status, err = start_then_stop(tmp_path, RUN, signal.SIGINT)
    assert status == 130, err
    assert len(err.strip().splitlines()) == 1 and "run the same command again to resume" in err
    assert "Traceback" not in err
    assert not manifest(tmp_path / "run")["complete"]
    assert cli(*RUN, cwd=tmp_path).returncode == 0
    assert manifest(tmp_path / "run")["complete"]


@pytest.fixture()
def finished(tmp_path):
    kw = dict(games=1200, seed=8, policy="random", chunk_games=300, max_extra_deals=2)
    folder = api.simulate("differenzler", out=tmp_path / "run", **kw)
    return folder, kw


def test_damaged_chunks_are_detected_and_redone(finished):
    folder, kw = finished
    whole = api.read(folder)
    entries = manifest(folder)["chunks"]
    truncated, altered = folder / entries["1"]["file"], folder / entries["2"]["file"]
    truncated.write_bytes(truncated.read_bytes()[:-100])
    data = bytearray(altered.read_bytes())
    data[len(data) // 2] ^= 0xFF
    altered.write_bytes(bytes(data))
    untouched = (folder / entries["0"]["file"]).stat().st_mtime_ns
    with pytest.raises(UsageError, match="is damaged"):
        api.analyze("differenzler", folder)
    notes = []
    api.simulate("differenzler", out=folder, log=notes.append, **kw)
    assert any("chunk 1" in n and "bytes" in n for n in notes)
    assert any("chunk 2" in n and "checksum" in n for n in notes)
    assert (folder / entries["0"]["file"]).stat().st_mtime_ns == untouched
    same_rows(api.read(folder), whole)
    (folder / entries["3"]["file"]).unlink()  # a missing part is redone as well
    api.simulate("differenzler", out=folder, **kw)
    same_rows(api.read(folder), whole)


@pytest.mark.parametrize(
    "change,named",
    [
        ({"seed": 9}, "seed 8 there, 9 here"),
        ({"policy": "heuristic"}, "policy_codes"),
        ({"max_extra_deals": 3}, "settings"),
        ({"games": 1500}, "games 1200 there, 1500 here"),
        ({"chunk_games": 400}, "chunk_games 300 there, 400 here"),
        ({"aggregate": True}, "kind 'rows' there, 'aggregates' here"),
    ],
)
def test_a_folder_of_another_run_is_refused(finished, change, named):
    folder, kw = finished
    before = manifest(folder)
    with pytest.raises(UsageError, match=named):
        api.simulate("differenzler", out=folder, **{**kw, **change})
    assert manifest(folder) == before


def test_refusals_on_the_command_line(finished, tmp_path):
    folder, _ = finished
    done = cli(
        "simulate", "differenzler", "--games", "1200", "--out", str(folder), "--no-progress", cwd=tmp_path
    )
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "holds another run" in done.stderr and "Traceback" not in done.stderr
    done = cli("simulate", "schieber", "--games", "1200", "--out", str(folder), "--no-progress", cwd=tmp_path)
    assert done.returncode == 2 and "game 'differenzler' there, 'schieber' here" in done.stderr
    other = tmp_path / "notes"
    other.mkdir()
    (other / "mine.txt").write_text("keep")
    done = cli(
        "simulate", "differenzler", "--games", "10", "--out", f"{other}/", "--no-progress", cwd=tmp_path
    )
    assert done.returncode == 2 and "holds no cardmc run" in done.stderr
    assert sorted(p.name for p in other.iterdir()) == ["mine.txt"]
    done = cli(
        "simulate", "differenzler", "--games", "10", "--out", "new/", "--policy", "bogus", cwd=tmp_path
    )
    assert done.returncode == 2 and not (tmp_path / "new").exists()


def test_force_restarts_and_a_locked_folder_is_refused(finished):
    folder, kw = finished
    with open(folder / run_folder.LOCK, "a") as f:  # another writer holds the folder
        fcntl.flock(f, fcntl.LOCK_EX)
        with pytest.raises(UsageError, match="another cardmc run"):
            api.simulate("differenzler", out=folder, **kw)
    notes = []
    api.simulate("differenzler", out=folder, force=True, log=notes.append, **{**kw, "seed": 9})
    assert any("afresh" in n for n in notes)
    assert manifest(folder)["identity"]["seed"] == 9 and manifest(folder)["complete"]
    same_rows(api.read(folder), api.simulate("differenzler", **{**kw, "seed": 9}))


def test_default_chunk_size_is_recorded_and_kept_on_resume(tmp_path):
    from cardmc import chunks, registry

    spec = registry.get("differenzler")
    games = 2 * chunks.block_size(spec) + 100  # small runs: chunks of one block
    kw = dict(games=games, seed=2, policy="random", out=tmp_path / "run", aggregate=True)
    folder = api.simulate("differenzler", **kw)
    assert (
        manifest(folder)["identity"]["chunk_games"]
        == chunks.default_chunk(spec, games)
        == chunks.block_size(spec)
    )
    assert manifest(folder)["chunks_total"] == 3
    assert chunks.default_chunk(spec, 10**9) == registry.DEFAULT_CHUNK
    notes = []
    api.simulate("differenzler", log=notes.append, **kw)
    assert any("complete already" in n for n in notes)


def test_unfinished_run_is_not_analysed(finished):
    folder, _ = finished
    m = manifest(folder)
    del m["chunks"]["2"]
    m["complete"] = False
    (folder / run_folder.MANIFEST).write_text(json.dumps(m))
    with pytest.raises(UsageError, match=r"unfinished run \(3 of 4 chunks\)"):
        api.analyze("differenzler", folder)


def test_chunks_the_worker_cannot_see_come_back_as_bytes(tmp_path):
    """A worker without the run folder (no shared file system) returns the
    part; the client writes and records it."""
    from cardmc import chunks
    from cardmc.job import make

    job = make("differenzler", 40, 1, "random")
    with run_folder.RunFolder(tmp_path / "run", job.identity(20), {"game": "differenzler"}) as run:
        for index, first, n in run.plan():
            target = {**run.target(index), "token": "another-run"}
            res = chunks.run_chunk(job, first, n, target)
            assert "data" in res and not (tmp_path / "run" / target["file"]).exists()
            run.record(index, first, n, res)
    _, parts = run_folder.complete_parts(tmp_path / "run")
    got = pd.concat([pd.read_parquet(p) for p in parts], ignore_index=True)
    same_rows(got, api.simulate("differenzler", games=40, seed=1, policy="random"))
    assert os.stat(parts[0]).st_mode & 0o044  # finished parts get the usual permissions


@pytest.mark.parametrize("game", ["schieber", "english_jazz", "norwegian_jazz"])
def test_every_game_runs_to_a_folder_through_its_spec(tmp_path, game):
    from cardmc import registry

    if game not in registry.available():
        pytest.skip(f"{game} is not written yet")
    folder = api.simulate(game, games=24, seed=5, chunk_games=10, out=tmp_path / "run")
    assert manifest(folder)["chunks_total"] == 3
    same_rows(api.read(folder), api.simulate(game, games=24, seed=5))
    assert api.analyze(game, folder)
