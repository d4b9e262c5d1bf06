"""A run folder's manifest is data from outside: damaged or hostile ones
(wrong types, missing keys, absolute paths, '..', links out of the folder,
huge counts, JSON that is no object) are refused with one line, and no file
outside the folder is read, written or removed, by resuming, by --force or by
analyze, from Python or the command line."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from cardmc import api, run_folder
from cardmc.registry import UsageError

KW = dict(games=1200, seed=8, policy="random", chunk_games=300)
ARGS = [
    "differenzler",
    "--games",
    "1200",
    "--seed",
    "8",
    "--policy",
    "random",
    "--chunk-games",
    "300",
    "--no-progress",
]


class Tripwire:
    """A named pipe that notes whether anyone opened it (a reader's open
    returns at once with end of file, so nothing hangs)."""

    def __init__(self, path: Path):
        os.mkfifo(path)
        self.path, self.tripped = path, False
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()

    def _watch(self) -> None:
        while not self.stop.is_set():
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_NONBLOCK)  # works only while a reader has it open
            except OSError:
                time.sleep(0.001)
                continue
            self.tripped = True
            os.close(fd)

    def close(self) -> None:
        self.stop.set()
        self.thread.join()


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("template") / "run"
    api.simulate("differenzler", out=folder, **KW)
    return folder


@pytest.fixture()
def world(tmp_path, template):
    """A copy of a finished run in ``tmp_path/run`` and, beside it, files the
    run must never touch: a Parquet part of the run (same bytes), a text file
    and a tripwire; yields a checker that they are as they were."""
    folder = tmp_path / "run"
    shutil.copytree(template, folder)
    outside = tmp_path / "outside"
    outside.mkdir()
    part = outside / "part-00000000.parquet"
    shutil.copyfile(folder / "part-00000000.parquet", part)
    (outside / "keep.txt").write_text("keep me")
    wire = Tripwire(outside / "pipe")
    before = {
        p.name: (p.lstat().st_mtime_ns, p.read_bytes() if p.is_file() else None) for p in outside.iterdir()
    }

    def untouched() -> None:
        now = {
            p.name: (p.lstat().st_mtime_ns, p.read_bytes() if p.is_file() else None)
            for p in outside.iterdir()
        }
        assert now == before, "a file outside the run folder was written, removed or added"
        assert not wire.tripped, "a file outside the run folder was opened"

    yield folder, outside, untouched
    wire.close()


def manifest(folder: Path) -> dict:
    return json.loads((folder / run_folder.MANIFEST).read_text())


def put(folder: Path, data) -> None:
    text = data if isinstance(data, str) else json.dumps(data)
    (folder / run_folder.MANIFEST).write_text(text)


def edit(change):
    def apply(folder: Path, outside: Path) -> None:
        m = manifest(folder)
        change(m, outside)
        put(folder, m)

    return apply


def _set(path: str, value):
    """A change setting ``m[a][b]...`` (dots) to ``value`` (a callable gets the outside folder)."""

    def change(m, outside):
        *head, last = path.split(".")
        for key in head:
            m = m[key]
        m[last] = value(outside) if callable(value) else value

    return change


def _del(path: str):
    def change(m, outside):
        *head, last = path.split(".")
        for key in head:
            m = m[key]
        del m[last]

    return change


HOSTILE = {
    "list": lambda folder, outside: put(folder, [1, 2, 3]),
    "string": lambda folder, outside: put(folder, '"manifest"'),
    "null": lambda folder, outside: put(folder, "null"),
    "not json": lambda folder, outside: put(folder, '{"format": '),
    "deep": lambda folder, outside: put(folder, "[" * 100000 + "]" * 100000),
    "no file key": edit(_del("chunks.0.file")),
    "no chunks": edit(_del("chunks")),
    "no identity key": edit(_del("identity.games")),
    "absolute path": edit(_set("chunks.0.file", lambda outside: str(outside / "part-00000000.parquet"))),
    "dot dot": edit(_set("chunks.0.file", "../outside/part-00000000.parquet")),
    "pipe": edit(_set("chunks.1.file", lambda outside: str(outside / "pipe"))),
    "another part's name": edit(_set("chunks.0.file", "part-00000001.parquet")),
    "bytes as text": edit(_set("chunks.0.bytes", "1234")),
    "seed as text": edit(_set("identity.seed", "8")),
    "games as float": edit(_set("identity.games", 1200.0)),
    "chunks a list": edit(_set("chunks", [])),
    "complete as text": edit(_set("complete", "yes")),
    "huge games": edit(_set("identity.games", 10**15)),
    "huge chunks": edit(lambda m, o: m["identity"].update(games=2**31 - 1, chunk_games=1)),
    "huge bytes": edit(_set("chunks.0.bytes", 10**30)),
    "chunk out of plan": edit(_set("chunks.0.start", 300)),
    "chunk index past the plan": edit(lambda m, o: m["chunks"].update({"9": m["chunks"]["0"]})),
    "total off the plan": edit(_set("chunks_total", 5)),
    "metadata nested": edit(_set("metadata.game", {"a": 1})),
}


def _link_part(folder: Path, outside: Path) -> None:
    """A part replaced by a link to a copy outside (same bytes and hash)."""
    (folder / "part-00000000.parquet").unlink()
    (folder / "part-00000000.parquet").symlink_to(outside / "part-00000000.parquet")


def _link_part_to_pipe(folder: Path, outside: Path) -> None:
    (folder / "part-00000001.parquet").unlink()
    (folder / "part-00000001.parquet").symlink_to(outside / "pipe")


def _link_manifest(folder: Path, outside: Path) -> None:
    shutil.copyfile(folder / run_folder.MANIFEST, outside / "copy.json")
    (folder / run_folder.MANIFEST).unlink()
    (folder / run_folder.MANIFEST).symlink_to(outside / "copy.json")


def _link_lock(folder: Path, outside: Path) -> None:
    (folder / run_folder.LOCK).symlink_to(outside / "keep.txt")


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_manifest_is_refused_and_force_starts_afresh(world, name):
    folder, outside, untouched = world
    HOSTILE[name](folder, outside)
    with pytest.raises(UsageError, match="manifest|damaged"):
        api.simulate("differenzler", out=folder, **KW)
    with pytest.raises(UsageError, match="manifest|damaged"):
        api.analyze("differenzler", folder)
    with pytest.raises(UsageError):
        api.read(folder)
    with pytest.raises(UsageError):
        api.run_info(folder)
    untouched()
    api.simulate("differenzler", out=folder, force=True, **KW)
    untouched()
    assert manifest(folder)["complete"] and api.analyze("differenzler", folder)


@pytest.mark.parametrize("damage", [_link_part, _link_part_to_pipe])
def test_parts_linked_out_of_the_folder_are_never_followed(world, damage):
    folder, outside, untouched = world
    damage(folder, outside)
    with pytest.raises(UsageError, match="not a regular file"):
        api.analyze("differenzler", folder)
    with pytest.raises(UsageError, match="not a regular file"):
        api.read(folder)
    untouched()
    notes = []
    api.simulate("differenzler", out=folder, log=notes.append, **KW)  # resuming redoes the linked chunk
    assert any("not a regular file" in n for n in notes)
    untouched()
    assert not any(p.is_symlink() for p in folder.iterdir())
    assert api.analyze("differenzler", folder)


@pytest.mark.parametrize("damage", [_link_part, _link_part_to_pipe])
def test_force_leaves_links_and_other_files_alone(world, damage):
    folder, outside, untouched = world
    damage(folder, outside)
    (folder / "notes.txt").write_text("mine")
    (folder / "part-1.parquet").write_text("not a part name")
    (folder / "part-00000099.parquet").mkdir()
    api.simulate("differenzler", out=folder, force=True, **{**KW, "seed": 9})
    untouched()
    assert (folder / "notes.txt").read_text() == "mine"
    assert (folder / "part-1.parquet").read_text() == "not a part name"
    assert (folder / "part-00000099.parquet").is_dir()
    assert manifest(folder)["identity"]["seed"] == 9 and api.analyze("differenzler", folder)


def test_a_linked_manifest_is_not_read_and_force_replaces_the_link(world):
    folder, outside, untouched = world
    _link_manifest(folder, outside)
    before = (outside / "copy.json").read_bytes()
    with pytest.raises(UsageError, match="not a regular file"):
        api.simulate("differenzler", out=folder, **KW)
    with pytest.raises(UsageError, match="not a regular file"):
        api.analyze("differenzler", folder)
    api.simulate("differenzler", out=folder, force=True, **KW)
    assert not (folder / run_folder.MANIFEST).is_symlink()
    assert (outside / "copy.json").read_bytes() == before


def test_a_linked_lock_file_is_refused(world):
    folder, outside, untouched = world
    _link_lock(folder, outside)
    for force in (False, True):
        with pytest.raises(UsageError, match="cannot lock"):
            api.simulate("differenzler", out=folder, force=force, **KW)
    untouched()


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "cardmc.cli", *args], cwd=cwd, capture_output=True, text=True, timeout=300
    )


def one_line_exit_2(done: subprocess.CompletedProcess) -> None:
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr, done.stderr


@pytest.mark.parametrize("name", ["no file key", "absolute path", "dot dot", "list", "huge chunks", "link"])
def test_the_command_line_refuses_with_one_line_and_force_is_safe(world, name):
    folder, outside, untouched = world
    if name == "link":
        _link_part(folder, outside)
    else:
        HOSTILE[name](folder, outside)
    cwd = folder.parent
    one_line_exit_2(cli("analyze", "differenzler", "run", cwd=cwd))
    assert not (cwd / "run-analysis").exists()
    if name != "link":  # a linked part is redone on resume, not refused
        one_line_exit_2(cli("simulate", *ARGS, "--out", "run/", cwd=cwd))
    untouched()
    done = cli("simulate", *ARGS, "--out", "run/", "--force", cwd=cwd)
    assert done.returncode == 0, done.stderr
    untouched()
    assert cli("analyze", "differenzler", "run", cwd=cwd).returncode == 0
