"""The batch driver at the Python edge: blocks of games, threads, progress,
Parquet streaming so that no run has to fit in memory, and chunks (the unit
of work of run folders and Dask workers, see ``run_chunk``)."""
from __future__ import annotations

import contextlib
import os
import signal
import tempfile
import threading
from pathlib import Path
from typing import Iterator

import numba
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from cardmc.registry import GameSpec, UsageError

MAX_SEED = 2**63 - 1
UMASK = os.umask(0)
os.umask(UMASK)
FILE_MODE = 0o666 & ~UMASK  # temporary files are private; finished ones get the usual mode


def check_count(name: str, value: object) -> int:
    """A positive whole number, or ``UsageError`` naming ``value``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise UsageError(f"{name} must be a positive whole number, not {value!r}")
    return int(value)


def check_seed(seed: object, name: str = "seed") -> int:
    """A whole number in 0..2**63-1 (a seed, or a game index), or ``UsageError`` naming it."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= MAX_SEED:
        raise UsageError(f"{name} must be a whole number in 0..2**63-1, not {seed!r}")
    return int(seed)


MAX_GAME_INDEX = 2**31 - 1  # rows keep the game index as int32


def check_range(start: object, games: int) -> int:
    """The first game's index, checked so that every index fits the rows."""
    start = check_seed(start) if not isinstance(start, bool) else start
    if not isinstance(start, int) or start < 0 or start + games - 1 > MAX_GAME_INDEX:
        raise UsageError(f"games {start}..{start + games - 1} go past the last game index {MAX_GAME_INDEX}; "
                         f"use fewer games or another seed")  # fmt: skip
    return start


def set_threads(threads: int | None) -> int:
    """Use ``threads`` Numba threads (default: all); returns the count."""
    top = numba.config.NUMBA_NUM_THREADS
    if threads is None:
        threads = top
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= top:
        raise UsageError(f"threads must be in 1..{top}, not {threads!r}")
    numba.set_num_threads(threads)
    return threads


def blocks(start: int, games: int, block: int) -> Iterator[tuple[int, int]]:
    """(first game, count) of each block covering start..start+games-1."""
    first = start
    end = start + games
    while first < end:
        n = min(block, end - first)
        yield first, n
        first += n


def run_blocks(
    spec: GameSpec,
    games: int,
    seed: int,
    players: int,
    params: np.ndarray,
    policies: np.ndarray,
    block: int,
    start: int = 0,
    progress: bool = False,
) -> Iterator[pd.DataFrame]:
    """Simulate games start..start+games-1 block by block, one frame a block."""
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=games, unit=" games", unit_scale=True, desc=spec.name, dynamic_ncols=True)
    try:
        for first, n in safe_blocks(blocks(start, games, block)):
            rows = spec.simulate_block(seed, first, n, players, params, policies)
            yield spec.frame(rows)
            if bar is not None:
                bar.update(n)
    finally:
        if bar is not None:
            bar.close()


def check_file_target(path: Path, force: bool) -> Path:
    """The folder of output file ``path``; ``UsageError`` if the file exists
    (without ``force``) or the folder is missing or not writable."""
    if path.exists() and not force:
        raise UsageError(f"{path} already exists (use --force to overwrite)")
    if path.is_dir():
        raise UsageError(f"{path} is a folder, not a file")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(f"cannot write {path}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise UsageError(f"cannot write {path}: folder {folder} is not writable")
    return folder


class AtomicParquet:
    """A Parquet file written row group by row group into a temporary file in
    the target's folder, renamed into place only when complete."""

    def __init__(self, path: str | os.PathLike, force: bool = False):
        self.path = Path(path)
        folder = check_file_target(self.path, force)
        fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".part", dir=folder)
        os.close(fd)
        self.tmp = Path(tmp)
        self.writer: pq.ParquetWriter | None = None
        self.metadata: dict[str, str] = {}

    def write(self, df: pd.DataFrame) -> None:
        table = pa.Table.from_pandas(df, preserve_index=False)
        if self.writer is None:
            schema = table.schema.with_metadata({**(table.schema.metadata or {}), **self._meta()})
            self.writer = pq.ParquetWriter(self.tmp, schema, compression="zstd")
            table = table.cast(schema)
        self.writer.write_table(table)

    def _meta(self) -> dict[bytes, bytes]:
        return {f"cardmc.{k}".encode(): str(v).encode() for k, v in self.metadata.items()}

    def commit(self) -> Path:
        if self.writer is not None:
            self.writer.close()
        os.chmod(self.tmp, FILE_MODE)
        os.replace(self.tmp, self.path)
        return self.path

    def abort(self) -> None:
        if self.writer is not None:
            try:
                self.writer.close()
            except Exception:  # noqa: BLE001 - the file is discarded anyway
                pass
        self.tmp.unlink(missing_ok=True)


class AtomicCSV(AtomicParquet):
    """The same as ``AtomicParquet`` for a CSV file (header once)."""

    def write(self, df: pd.DataFrame) -> None:
        first = self.writer is None
        self.writer = True  # type: ignore[assignment]
        df.to_csv(self.tmp, mode="w" if first else "a", header=first, index=False)

    def commit(self) -> Path:
        os.chmod(self.tmp, FILE_MODE)
        os.replace(self.tmp, self.path)
        return self.path

    def abort(self) -> None:
        self.tmp.unlink(missing_ok=True)


def sink_for(path: str | os.PathLike, force: bool = False) -> AtomicParquet:
    """An atomic writer chosen by the file's suffix (.csv, else Parquet)."""
    return (AtomicCSV if Path(path).suffix.lower() == ".csv" else AtomicParquet)(path, force=force)


# ------------------------------------------------------------ interrupts

_STOP = {"depth": 0, "pending": False}


def _on_signal(signum, frame) -> None:
    if _STOP["depth"] > 0:
        _STOP["pending"] = True  # inside a block: stop when it is done
        return
    raise KeyboardInterrupt


@contextlib.contextmanager
def interrupts(*signals: int):
    """Within this block, Ctrl-C (and ``signals``, e.g. SIGTERM) raise
    KeyboardInterrupt at once, except while a block of games is being
    simulated and written (``safe_block``): then at its end, so that no
    kernel or writer is cut off halfway. Main thread only; else a no-op."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.signal(s, _on_signal) for s in (signal.SIGINT, *signals)}
    _STOP["pending"] = False
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        _STOP["pending"] = False


def safe_blocks(items):
    """Each item made and used by the consumer as one ``safe_block``: an
    interrupt stops the loop between items, never inside one."""
    it = iter(items)
    while True:
        with safe_block():
            try:
                item = next(it)
            except StopIteration:
                return
            yield item


class safe_block:
    """A block of work that an interrupt lets finish (see ``interrupts``);
    only the main thread's blocks count (signals are handled there)."""

    def __enter__(self) -> None:
        self.main = threading.current_thread() is threading.main_thread()
        _STOP["depth"] += self.main

    def __exit__(self, kind, exc, tb) -> None:
        _STOP["depth"] -= self.main
        if self.main and _STOP["depth"] == 0 and _STOP["pending"] and kind is None:
            _STOP["pending"] = False
            raise KeyboardInterrupt


# ------------------------------------------------------------------ chunks

ROWS, AGGREGATES = "rows", "aggregates"
DEFAULT_BLOCK = 1 << 15
DEFAULT_CHUNK = 1 << 19  # games per chunk by default: seconds of work for every game, fewer for small runs
AGGREGATE_BLOCK = 1 << 13  # aggregate runs keep no rows: smaller blocks, flat and small memory
_KERNEL_LOCK = threading.Lock()  # one kernel call at a time per process (Numba's thread pool is shared)


def block_size(spec: GameSpec) -> int:
    return int(spec.extra.get("block", DEFAULT_BLOCK))


def default_chunk(spec: GameSpec, games: int) -> int:
    """Games per chunk when none is given: the spec's ``chunk_games`` (else
    DEFAULT_CHUNK), but at least 64 chunks for runs big enough (and a block
    at the least)."""
    block = block_size(spec)
    top = int(spec.extra.get("chunk_games", DEFAULT_CHUNK))
    return max(1, min(top, max(block, -(-games // 64)), games))


def chunk_plan(start: int, games: int, chunk: int) -> list[tuple[int, int, int]]:
    """(index, first game, count) of each chunk covering start..start+games-1."""
    return [(i, first, n) for i, (first, n) in enumerate(blocks(start, games, chunk))]


def _worker_threads() -> int | None:
    """Threads of the Dask worker running this task (None outside Dask)."""
    try:
        from distributed import get_worker

        worker = get_worker()
    except (ImportError, ValueError):
        return None
    state = getattr(worker, "state", None)
    return int(getattr(state, "nthreads", None) or getattr(worker, "nthreads", 1))


_MALLOC_TUNED = []


def _tune_malloc() -> None:
    """Once per Dask worker process: undo the nanny's MALLOC_TRIM_THRESHOLD_,
    which turns every large allocation into fresh pages (about half again
    the CPU time per game here). glibc only; elsewhere a no-op."""
    if _MALLOC_TUNED:
        return
    _MALLOC_TUNED.append(True)
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(-3, 32 << 20)  # M_MMAP_THRESHOLD: blocks below 32 MiB come from the reused heap
        libc.mallopt(-1, 128 << 20)  # M_TRIM_THRESHOLD: keep up to 128 MiB of free heap
    except (OSError, AttributeError):
        pass


def _visible(target: dict) -> bool:
    """Whether this process sees the run folder (its lock holds the token)."""
    if target.get("token") is None:
        return True
    try:
        return (Path(target["folder"]) / target["lock"]).read_text() == target["token"]
    except OSError:
        return False


def run_chunk(
    game: str,
    seed: int,
    start: int,
    count: int,
    players: int,
    settings: dict,
    policy: str,
    kind: str = ROWS,
    target: dict | None = None,
    version: str | None = None,
    threads: int | None = None,
    on_block=None,
) -> dict:
    """Simulate games start..start+count-1 block by block: the task a Dask
    worker runs (a plain module-level function; kernels come from the
    installed package and its Numba cache).

    ``kind`` ``"rows"`` keeps the rows, ``"aggregates"`` only the game's
    mergeable aggregates. Without ``target`` the result is returned
    (``frame`` or ``aggregates``); with it the chunk is written as one
    Parquet file into ``target["folder"]`` atomically, or returned as bytes
    (``data``) when this worker does not see that folder. Numba uses the
    worker's threads (``threads``; default: the Dask worker's, else as set).
    """
    from cardmc import __version__
    from cardmc import aggregate as agg
    from cardmc import registry

    if version is not None and version != __version__:
        raise UsageError(f"a worker has cardmc {__version__}, this client {version}: "
                         "install the same on every worker")
    spec = registry.get(game)
    full = spec.settings(settings)
    params = spec.params(full)
    policies = spec.parse_policy(policy, players)
    in_worker = _worker_threads()
    if in_worker is not None:
        _tune_malloc()
    nthreads = threads if threads is not None else in_worker
    if nthreads is not None:
        nthreads = max(1, min(nthreads, numba.config.NUMBA_NUM_THREADS))
    block = min(block_size(spec), AGGREGATE_BLOCK) if kind == AGGREGATES else block_size(spec)

    def arrays() -> Iterator[np.ndarray]:
        for first, n in blocks(start, count, block):
            with _KERNEL_LOCK:
                if nthreads is not None:
                    numba.set_num_threads(nthreads)
                rows = spec.simulate_block(seed, first, n, players, params, policies)
            yield rows
            if on_block is not None:
                on_block(n)

    def frames() -> Iterator[pd.DataFrame]:
        for rows in arrays():
            yield spec.frame(rows)

    out: dict = {"start": start, "count": count}
    if kind == AGGREGATES:
        tally = agg.tally(spec, players, params)
        for rows in safe_blocks(arrays()):
            tally.add(rows)
        out["rows"] = tally.rows
        total = tally.result()
        if target is None:
            out["aggregates"] = total
            return out
        table = agg.to_arrow(total, target.get("metadata"))
        return _deliver(out, target, lambda sink: pq.write_table(table, sink, compression="zstd"))
    if target is None:
        parts = list(frames())
        out["frame"] = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
        out["rows"] = len(out["frame"])
        return out

    def write(sink) -> None:
        writer = None
        rows = 0
        try:
            for df in safe_blocks(frames()):
                table = pa.Table.from_pandas(df, preserve_index=False)
                if writer is None:
                    given = target.get("metadata") or {}
                    meta = {f"cardmc.{k}".encode(): str(v).encode() for k, v in given.items()}
                    schema = table.schema.with_metadata({**(table.schema.metadata or {}), **meta})
                    writer = pq.ParquetWriter(sink, schema, compression="zstd")
                writer.write_table(table.cast(writer.schema))
                rows += len(df)
        finally:
            if writer is not None:
                writer.close()
        out["rows"] = rows

    return _deliver(out, target, write)


def _deliver(out: dict, target: dict, write) -> dict:
    """Run ``write(sink)`` into the target folder atomically (size and
    SHA-256 in the result), or into bytes when the folder is not visible."""
    import hashlib

    if not _visible(target):
        sink = pa.BufferOutputStream()
        write(sink)
        out["data"] = sink.getvalue().to_pybytes()
        return out
    path = Path(target["folder"]) / target["file"]
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    os.close(fd)
    try:
        write(tmp)
        os.chmod(tmp, FILE_MODE)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for piece in iter(lambda: f.read(1 << 20), b""):
            h.update(piece)
    out.update(file=path.name, bytes=path.stat().st_size, sha256=h.hexdigest())
    return out
