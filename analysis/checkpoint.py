"""Run folders that survive interruption.

A run to a folder writes each finished chunk as its own Parquet part (a
temporary file renamed into place) and records it in ``manifest.json``
(itself replaced atomically) with its size and SHA-256. The manifest also
holds what the run is: game, seed, first game, game count, policy, players,
every option, chunk size, kind (rows or aggregates) and cardmc version.
Started again with the same command, a run checks the recorded parts, redoes
any that are missing, truncated or altered, and carries on with the chunks
not yet done; a folder holding a different run is refused.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import tempfile
import time
import uuid
from pathlib import Path

from cardmc.driver import FILE_MODE
from cardmc.registry import UsageError

MANIFEST = "manifest.json"
LOCK = ".cardmc.lock"
FORMAT = "cardmc-run/1"
ROWS, AGGREGATES = "rows", "aggregates"
FLUSH_SECONDS = 0.5  # the manifest is rewritten at most this often while chunks finish
PART = re.compile(r"(part|agg)-\d{8}\.parquet")
IDENTITY = ("game", "seed", "start", "games", "policy_codes", "players", "settings", "chunk_games", "kind",
            "cardmc")  # fmt: skip


class Interrupted(KeyboardInterrupt):
    """A run to a folder stopped by Ctrl-C or SIGTERM; the same call resumes it."""

    def __init__(self, folder: Path, done: int, total: int):
        super().__init__(f"{folder}: {done} of {total} chunks done")
        self.folder, self.done, self.total = folder, done, total


def is_folder_target(out: str | os.PathLike) -> bool:
    """Whether ``out`` names a run folder: it ends with a slash, is a folder
    already, or has no suffix."""
    text = os.fspath(out)
    return text.endswith(("/", os.sep)) or Path(text).is_dir() or Path(text).suffix == ""


def part_name(index: int, kind: str) -> str:
    return f"{'agg' if kind == AGGREGATES else 'part'}-{index:08d}.parquet"


def digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def write_atomic(path: Path, data: bytes) -> None:
    """``data`` into ``path`` via a synced temporary file and a rename."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, FILE_MODE)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_manifest(folder: Path) -> dict | None:
    path = folder / MANIFEST
    if not path.is_file():
        return None
    try:
        manifest = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise UsageError(f"{path} is damaged ({exc}); use --force to start the run afresh") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise UsageError(f"{path} is not a cardmc run manifest")
    return manifest


def check_part(folder: Path, entry: dict, hash_it: bool = True) -> str | None:
    """Why a recorded part cannot be used, or None if it is intact."""
    path = folder / entry["file"]
    if not path.is_file():
        return "missing"
    size = path.stat().st_size
    if size != entry["bytes"]:
        return f"{size} bytes, {entry['bytes']} recorded"
    if hash_it and digest(path) != entry["sha256"]:
        return "checksum mismatch"
    return None


def describe(identity: dict) -> str:
    return f"{identity['game']} seed {identity['seed']}, {identity['games']} games, policy {identity['policy']}"


class RunFolder:
    """The folder of one run: lock, manifest, recorded chunks.

    ``with RunFolder(...) as run:`` locks the folder (one writer at a time),
    checks or creates the manifest and the recorded parts (a resumed run
    keeps its chunk size unless one is given; a new one takes
    ``default_chunk`` if none is given); leaving the block
    writes the manifest, and removes the folder if this call created it and no
    chunk was finished.
    """

    def __init__(self, folder: str | os.PathLike, identity: dict, metadata: dict, force: bool = False, log=None,
                 default_chunk: int | None = None):  # fmt: skip
        self.default_chunk = default_chunk or identity["games"]
        self.folder = Path(folder).absolute()
        self.identity = dict(identity)
        self.metadata = dict(metadata)
        self.force = force
        self.log = log or (lambda message: None)
        self.token = uuid.uuid4().hex
        self.created = False
        self.chunks: dict[str, dict] = {}
        self._lock_file = None
        self._dirty = False
        self._flushed = 0.0

    # --------------------------------------------------------- opening

    def __enter__(self) -> RunFolder:
        parent = self.folder.parent
        if not parent.is_dir():
            raise UsageError(f"cannot write {self.folder}: folder {parent} does not exist")
        if self.folder.exists() and not self.folder.is_dir():
            raise UsageError(f"{self.folder} exists and is not a folder")
        if not self.folder.exists():
            try:
                self.folder.mkdir()
            except OSError as exc:
                raise UsageError(f"cannot create folder {self.folder}: {exc.strerror}") from None
            self.created = True
        if not os.access(self.folder, os.W_OK):
            raise UsageError(f"cannot write {self.folder}: folder is not writable")
        try:
            self._lock()
            self._open()
        except BaseException:
            self._release(failed=True)
            raise
        return self

    def _lock(self) -> None:
        f = open(self.folder / LOCK, "a+")
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.close()
            raise UsageError(f"another cardmc run is writing {self.folder} right now") from None
        f.seek(0)
        f.truncate()
        f.write(self.token)
        f.flush()
        self._lock_file = f

    def _open(self) -> None:
        try:
            manifest = read_manifest(self.folder)
        except UsageError:
            if not self.force:
                raise
            manifest = {"chunks": {}}  # damaged: start afresh
        if manifest is None:
            others = [p.name for p in self.folder.iterdir() if p.name != LOCK and not _is_temp(p.name)]
            parts_only = all(PART.fullmatch(name) for name in others)
            if others and not self.created and not (self.force and parts_only):
                hint = "use --force to start afresh" if parts_only else "choose another --out folder"
                raise UsageError(f"{self.folder} holds no cardmc run ({MANIFEST} is missing, {others[0]} is "
                                 f"there); {hint}")  # fmt: skip
        elif self.force:
            self.log(f"starting {self.folder} afresh (--force)")
            for entry in manifest.get("chunks", {}).values():
                (self.folder / entry["file"]).unlink(missing_ok=True)
        else:
            self._check_identity(manifest)
            self.chunks = self._verified(manifest.get("chunks", {}))
        if self.identity.get("chunk_games") is None:  # a new run without a chunk size given
            self.identity["chunk_games"] = self.default_chunk
        self._remove_temporary()
        self._dirty = True
        self.flush(force=True)

    def _remove_temporary(self) -> None:
        """Temporary files of chunks cut off (by an interruption, a kill)."""
        for p in self.folder.iterdir():
            if _is_temp(p.name):
                p.unlink(missing_ok=True)

    def _check_identity(self, manifest: dict) -> None:
        old = manifest.get("identity", {})
        if self.identity.get("chunk_games") is None:  # not given: keep the run's own
            self.identity["chunk_games"] = old.get("chunk_games")
        diffs = [f"{k} {old.get(k)!r} there, {self.identity.get(k)!r} here" for k in IDENTITY
                 if old.get(k) != self.identity.get(k)]  # fmt: skip
        if diffs:
            raise UsageError(f"{self.folder} holds another run ({describe(old)}): {'; '.join(diffs)}; "
                             "use another --out folder, or --force to start afresh")  # fmt: skip

    def _verified(self, chunks: dict) -> dict:
        good = {}
        for index, entry in sorted(chunks.items(), key=lambda kv: int(kv[0])):
            problem = check_part(self.folder, entry)
            if problem is None:
                good[index] = entry
            else:
                self.log(f"chunk {index} ({entry['file']}) is damaged ({problem}): it will be redone")
        return good

    # --------------------------------------------------------- running

    @property
    def chunk_games(self) -> int:
        return int(self.identity["chunk_games"])

    def plan(self) -> list[tuple[int, int, int]]:
        """(index, first game, count) of every chunk of the run."""
        start, games, size = self.identity["start"], self.identity["games"], self.chunk_games
        return [(i, start + f, min(size, games - f)) for i, f in enumerate(range(0, games, size))]

    def missing(self) -> list[tuple[int, int, int]]:
        return [c for c in self.plan() if str(c[0]) not in self.chunks]

    def target(self, index: int) -> dict:
        """Where a worker writes chunk ``index``: this folder if it sees it
        (the lock file holds this run's token), else it returns the bytes."""
        return {"folder": str(self.folder), "file": part_name(index, self.identity["kind"]), "token": self.token,
                "lock": LOCK, "metadata": self.metadata}  # fmt: skip

    def record(self, index: int, start: int, count: int, result: dict) -> None:
        """Note a finished chunk (writing it first if the worker sent bytes)."""
        name = part_name(index, self.identity["kind"])
        if "data" in result:
            path = self.folder / name
            write_atomic(path, result["data"])
            result = {**result, "bytes": path.stat().st_size, "sha256": digest(path)}
        self.chunks[str(index)] = {"start": start, "count": count, "file": name, "bytes": result["bytes"],
                                   "sha256": result["sha256"], "rows": result.get("rows", 0)}  # fmt: skip
        self._dirty = True
        self.flush()

    def flush(self, force: bool = False) -> None:
        """Write the manifest if anything changed (at most every FLUSH_SECONDS
        unless ``force``)."""
        now = time.monotonic()
        if not self._dirty or (not force and now - self._flushed < FLUSH_SECONDS):
            return
        complete = not self.missing()
        manifest = {"format": FORMAT, "identity": self.identity, "metadata": self.metadata, "complete": complete,
                    "chunks_total": len(self.plan()), "chunks": self.chunks}  # fmt: skip
        write_atomic(self.folder / MANIFEST, (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode())
        self._dirty = False
        self._flushed = now

    @property
    def done(self) -> int:
        return len(self.chunks)

    # --------------------------------------------------------- closing

    def __exit__(self, kind, exc, tb) -> None:
        try:
            if self._lock_file is not None:
                self.flush(force=True)
                self._remove_temporary()
        finally:
            self._release(failed=kind is not None)

    def _release(self, failed: bool) -> None:
        if self._lock_file is not None:
            (self.folder / LOCK).unlink(missing_ok=True)
            self._lock_file.close()  # releases the lock
            self._lock_file = None
        if failed and self.created and not self.chunks:
            shutil.rmtree(self.folder, ignore_errors=True)


def _is_temp(name: str) -> bool:
    return name.startswith(".") and name.endswith(".part")


def complete_parts(folder: str | os.PathLike, hash_it: bool = True) -> tuple[dict, list[Path]]:
    """The manifest of a finished run folder and its parts in game order;
    ``UsageError`` if the run is unfinished or a part is damaged."""
    folder = Path(folder)
    manifest = read_manifest(folder)
    if manifest is None:
        raise UsageError(f"{folder} holds no cardmc run (no {MANIFEST})")
    identity = manifest["identity"]
    total, chunks = manifest.get("chunks_total", 0), manifest.get("chunks", {})
    if not manifest.get("complete") or len(chunks) != total:
        raise UsageError(f"{folder} is an unfinished run ({len(chunks)} of {total} chunks); "
                         "run its simulate command again to finish it")  # fmt: skip
    parts = []
    for index, entry in sorted(chunks.items(), key=lambda kv: int(kv[0])):
        problem = check_part(folder, entry, hash_it)
        if problem is not None:
            raise UsageError(f"{folder / entry['file']} is damaged ({problem}); run the simulate command of "
                             f"{describe(identity)} again to redo it")  # fmt: skip
        parts.append(folder / entry["file"])
    return manifest, parts
