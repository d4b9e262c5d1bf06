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
import json
import os
import re
import shutil
import stat
import time
import uuid
from pathlib import Path

from cardmc import checks, files
from cardmc.job import AGGREGATES, ROWS
from cardmc.registry import GAMES, UsageError

MANIFEST = "manifest.json"
LOCK = ".cardmc.lock"
FORMAT = "cardmc-run/1"
FLUSH_SECONDS = 0.5  # the manifest is rewritten at most this often while chunks finish
PART = re.compile(r"(part|agg)-\d{8}\.parquet")
IDENTITY = (
    "game",
    "seed",
    "start",
    "games",
    "policy_codes",
    "players",
    "settings",
    "chunk_games",
    "kind",
    "calibration",
    "condition",
    "solve",
    "cardmc",
)
MAX_MANIFEST_BYTES = 256 << 20
MAX_PART_BYTES = 1 << 48
SHA256 = re.compile(r"[0-9a-f]{64}")


class Interrupted(KeyboardInterrupt):
    """A run to a folder stopped by Ctrl-C or SIGTERM; the same call resumes it."""

    def __init__(self, folder: Path, done: int, total: int):
        super().__init__(f"{folder}: {done} of {total} chunks done")
        self.folder, self.done, self.total = folder, done, total


def part_name(index: int, kind: str) -> str:
    return f"{'agg' if kind == AGGREGATES else 'part'}-{index:08d}.parquet"


digest = files.digest


def plan(identity: dict) -> list[tuple[int, int, int]]:
    """(index, first game, count) of every chunk of a run."""
    start, games, size = identity["start"], identity["games"], int(identity["chunk_games"])
    return [(i, start + f, min(size, games - f)) for i, f in enumerate(range(0, games, size))]


# --------------------------------------------------------- the manifest


class _Bad(Exception):
    """What is wrong with a manifest (turned into one UsageError)."""


def _whole(value, low: int = 0, high: int | None = None) -> bool:
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and value >= low
        and (high is None or value <= high)
    )


def _need(ok: bool, what: str) -> None:
    if not ok:
        raise _Bad(what)


def _check_identity(identity) -> None:
    _need(isinstance(identity, dict), "identity is not an object")
    for key in (*IDENTITY, "policy"):
        _need(
            key in identity or key in ("calibration", "condition", "solve"), f"identity.{key} is missing"
        )  # came later
    _need(identity["game"] in GAMES, "identity.game is not a game")
    _need(_whole(identity["seed"], 0, checks.MAX_SEED), "identity.seed is not a seed")
    _need(_whole(identity["start"], 0, checks.MAX_GAME_INDEX), "identity.start is out of range")
    _need(
        _whole(identity["games"], 1, checks.MAX_GAME_INDEX + 1 - identity["start"]),
        "identity.games is out of range",
    )
    _need(_whole(identity["chunk_games"], 1), "identity.chunk_games is not a positive whole number")
    _need(
        -(-identity["games"] // identity["chunk_games"]) <= checks.MAX_CHUNKS,
        "identity.chunk_games: too many chunks",
    )
    _need(identity["kind"] in (ROWS, AGGREGATES), "identity.kind is neither rows nor aggregates")
    _need(isinstance(identity["policy"], str), "identity.policy is not text")
    codes = identity["policy_codes"]
    _need(
        isinstance(codes, list)
        and all(isinstance(c, list) and all(_whole(x, -(2**63)) for x in c) for c in codes),
        "identity.policy_codes is not a table of whole numbers",
    )
    _need(_whole(identity["players"], 1, 64), "identity.players is out of range")
    _need(
        isinstance(identity["settings"], dict)
        and all(isinstance(v, (bool, int, str)) for v in identity["settings"].values()),
        "identity.settings is not a set of options",
    )
    cal = identity.get("calibration")
    _need(
        cal is None or (isinstance(cal, str) and SHA256.fullmatch(cal)),
        "identity.calibration is not a SHA-256",
    )
    _need(isinstance(identity.get("condition"), (str, type(None))), "identity.condition is not text")
    _need(identity.get("solve", False) is True or "solve" not in identity, "identity.solve is not true")
    _need(isinstance(identity["cardmc"], str), "identity.cardmc is not a version")


def _check_chunks(manifest: dict) -> None:
    identity, chunks = manifest["identity"], manifest["chunks"]
    total = -(-identity["games"] // identity["chunk_games"])
    _need(manifest["chunks_total"] == total, f"chunks_total is not the plan's {total}")
    _need(isinstance(chunks, dict), "chunks is not an object")
    for key, entry in chunks.items():
        _need(
            isinstance(key, str) and key.isdigit() and key == str(int(key)) and int(key) < total,
            f"chunk {key!r} is not a chunk of the plan",
        )
        index = int(key)
        first = identity["start"] + index * identity["chunk_games"]
        count = min(identity["chunk_games"], identity["games"] - index * identity["chunk_games"])
        _need(
            isinstance(entry, dict) and set(entry) == {"start", "count", "file", "bytes", "sha256", "rows"},
            f"chunk {key} does not have exactly start, count, file, bytes, sha256, rows",
        )
        _need(
            _whole(entry["start"])
            and entry["start"] == first
            and _whole(entry["count"])
            and entry["count"] == count,
            f"chunk {key} is not games {first}..{first + count - 1} of the plan",
        )
        _need(
            entry["file"] == part_name(index, identity["kind"]),
            f"chunk {key} names {entry['file']!r}, not {part_name(index, identity['kind'])}",
        )
        _need(_whole(entry["bytes"], 1, MAX_PART_BYTES), f"chunk {key} has no sane size")
        _need(_whole(entry["rows"], 0, MAX_PART_BYTES), f"chunk {key} has no sane row count")
        _need(
            isinstance(entry["sha256"], str) and SHA256.fullmatch(entry["sha256"]) is not None,
            f"chunk {key} has no SHA-256",
        )
    _need(manifest["complete"] == (len(chunks) == total), "complete does not match the chunks")


def check_manifest(manifest) -> dict:
    """``manifest`` if it is a well-formed run manifest (every field present
    and of its type, every part named by the run's own pattern for its index,
    every chunk where the plan puts it); else ``_Bad`` saying what is wrong."""
    _need(isinstance(manifest, dict), "not an object")
    _need(manifest.get("format") == FORMAT, f"format is not {FORMAT}")
    for key in ("identity", "metadata", "complete", "chunks_total", "chunks"):
        _need(key in manifest, f"{key} is missing")
    _check_identity(manifest["identity"])
    meta = manifest["metadata"]
    _need(
        isinstance(meta, dict)
        and all(isinstance(v, (str, int, float, bool)) or v is None for v in meta.values()),
        "metadata is not a set of plain values",
    )
    _need(isinstance(manifest["complete"], bool), "complete is not true or false")
    _need(_whole(manifest["chunks_total"], 1, checks.MAX_CHUNKS), "chunks_total is out of range")
    _check_chunks(manifest)
    manifest["identity"].setdefault("calibration", None)
    return manifest


def read_manifest(folder: Path) -> dict | None:
    """The checked manifest of a run folder, None if it has none;
    ``UsageError`` (one line) for anything but a well-formed one."""
    path = folder / MANIFEST
    try:
        st = path.lstat()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise UsageError(f"cannot read {path} ({exc.strerror})") from None
    if not stat.S_ISREG(st.st_mode):
        raise UsageError(f"{path} is not a regular file; use --force to start the run afresh")
    if st.st_size > MAX_MANIFEST_BYTES:
        raise UsageError(f"{path} is too large for a run manifest; use --force to start the run afresh")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        with os.fdopen(fd, "rb") as f:
            manifest = json.loads(f.read(MAX_MANIFEST_BYTES + 1))
    except (OSError, ValueError, RecursionError) as exc:
        raise UsageError(f"{path} is damaged ({exc}); use --force to start the run afresh") from None
    try:
        return check_manifest(manifest)
    except _Bad as bad:
        raise UsageError(
            f"{path} is not a valid cardmc run manifest ({bad}); use --force to start the run afresh"
        ) from None


def check_part(folder: Path, entry: dict, hash_it: bool = True) -> str | None:
    """Why a recorded part cannot be used, or None if it is intact (a
    regular file of the recorded size and checksum, not a link)."""
    path = folder / entry["file"]
    try:
        st = path.lstat()
    except FileNotFoundError:
        return "missing"
    if not stat.S_ISREG(st.st_mode):
        return "not a regular file"
    if st.st_size != entry["bytes"]:
        return f"{st.st_size} bytes, {entry['bytes']} recorded"
    if hash_it and digest(path) != entry["sha256"]:
        return "checksum mismatch"
    return None


def describe(identity: dict) -> str:
    return (
        f"{identity['game']} seed {identity['seed']}, {identity['games']} games, policy {identity['policy']}"
    )


class RunFolder:
    """The folder of one run: lock, manifest, recorded chunks.

    ``with RunFolder(...) as run:`` locks the folder (one writer at a time),
    checks or creates the manifest and the recorded parts (a resumed run
    keeps its chunk size unless one is given; a new one takes
    ``default_chunk`` if none is given); leaving the block
    writes the manifest, and removes the folder if this call created it and no
    chunk was finished.
    """

    def __init__(
        self,
        folder: str | os.PathLike,
        identity: dict,
        metadata: dict,
        force: bool = False,
        log=None,
        default_chunk: int | None = None,
    ):
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
        checks.check_folder_target(self.folder)
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
        try:  # never through a link: the token goes into this folder only
            fd = os.open(self.folder / LOCK, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, files.FILE_MODE)
        except OSError as exc:
            raise UsageError(f"cannot lock {self.folder / LOCK} ({exc.strerror})") from None
        f = os.fdopen(fd, "r+")
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
            manifest = False  # damaged or not a manifest at all: start afresh
        if manifest is None:
            others = [
                p.name for p in self.folder.iterdir() if p.name != LOCK and not files.is_temporary(p.name)
            ]
            parts_only = all(PART.fullmatch(name) for name in others)
            if others and not self.created and not (self.force and parts_only):
                hint = "use --force to start afresh" if parts_only else "choose another --out folder"
                raise UsageError(
                    f"{self.folder} holds no cardmc run ({MANIFEST} is missing, {others[0]} is there); {hint}"
                )
            if self.force:
                self._remove_parts()
        elif manifest is False or self.force:
            self.log(f"starting {self.folder} afresh (--force)")
            self._remove_parts()
        else:
            self._check_identity(manifest)
            self.chunks = self._verified(manifest["chunks"])
        if self.identity.get("chunk_games") is None:  # a new run without a chunk size given
            self.identity["chunk_games"] = self.default_chunk
        self._remove_temporary()
        self._dirty = True
        self.flush(force=True)

    def _remove_temporary(self) -> None:
        """Temporary files of chunks cut off (by an interruption, a kill)."""
        self._remove(files.is_temporary)

    def _remove_parts(self) -> None:
        """The run's own part files (``--force``): names of the parts'
        pattern, regular files in this folder; nothing a manifest names."""
        self._remove(lambda name: PART.fullmatch(name) is not None)

    def _remove(self, chosen) -> None:
        for p in self.folder.iterdir():
            if chosen(p.name) and stat.S_ISREG(p.lstat().st_mode):
                p.unlink(missing_ok=True)

    def _check_identity(self, manifest: dict) -> None:
        old = manifest["identity"]
        if self.identity.get("chunk_games") is None:  # not given: keep the run's own
            self.identity["chunk_games"] = old.get("chunk_games")
        diffs = [
            f"{k} {old.get(k)!r} there, {self.identity.get(k)!r} here"
            for k in IDENTITY
            if old.get(k) != self.identity.get(k)
        ]
        if diffs:
            raise UsageError(
                f"{self.folder} holds another run ({describe(old)}): {'; '.join(diffs)}; "
                "use another --out folder, or --force to start afresh"
            )

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
        return plan(self.identity)

    def missing(self) -> list[tuple[int, int, int]]:
        return [c for c in self.plan() if str(c[0]) not in self.chunks]

    def target(self, index: int) -> dict:
        """Where a worker writes chunk ``index``: this folder if it sees it
        (the lock file holds this run's token), else it returns the bytes."""
        return {
            "folder": str(self.folder),
            "file": part_name(index, self.identity["kind"]),
            "token": self.token,
            "lock": LOCK,
            "metadata": self.metadata,
        }

    def record(self, index: int, start: int, count: int, result: dict) -> None:
        """Note a finished chunk (writing it first if the worker sent bytes)."""
        name = part_name(index, self.identity["kind"])
        if "data" in result:
            path = files.write_bytes(self.folder / name, result["data"])
            result = {**result, "bytes": path.lstat().st_size, "sha256": digest(path)}
        self.chunks[str(index)] = {
            "start": start,
            "count": count,
            "file": name,
            "bytes": result["bytes"],
            "sha256": result["sha256"],
            "rows": result.get("rows", 0),
        }
        self._dirty = True
        self.flush()

    def flush(self, force: bool = False) -> None:
        """Write the manifest if anything changed (at most every FLUSH_SECONDS
        unless ``force``)."""
        now = time.monotonic()
        if not self._dirty or (not force and now - self._flushed < FLUSH_SECONDS):
            return
        complete = not self.missing()
        manifest = {
            "format": FORMAT,
            "identity": self.identity,
            "metadata": self.metadata,
            "complete": complete,
            "chunks_total": len(self.plan()),
            "chunks": self.chunks,
        }
        files.write_text(self.folder / MANIFEST, json.dumps(manifest, indent=1, sort_keys=True) + "\n")
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


def complete_parts(folder: str | os.PathLike, hash_it: bool = True) -> tuple[dict, list[Path]]:
    """The manifest of a finished run folder and its parts in game order;
    ``UsageError`` if the run is unfinished or a part is damaged."""
    folder = Path(folder)
    manifest = read_manifest(folder)
    if manifest is None:
        raise UsageError(f"{folder} holds no cardmc run (no {MANIFEST})")
    identity = manifest["identity"]
    total, chunks = manifest["chunks_total"], manifest["chunks"]
    if not manifest["complete"] or len(chunks) != total:
        raise UsageError(
            f"{folder} is an unfinished run ({len(chunks)} of {total} chunks); "
            "run its simulate command again to finish it"
        )
    parts = []
    for index, entry in sorted(chunks.items(), key=lambda kv: int(kv[0])):
        problem = check_part(folder, entry, hash_it)
        if problem is not None:
            raise UsageError(
                f"{folder / entry['file']} is damaged ({problem}); run the simulate command of "
                f"{describe(identity)} again to redo it"
            )
        parts.append(folder / entry["file"])
    return manifest, parts
