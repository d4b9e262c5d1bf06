"""Chunks and blocks of games: blocks on Numba threads, and ``run_chunk(job, first, count, target)``, the one
unit of work of every run (in memory, to a file, to a run folder, on a Dask
worker)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Iterator

import numba
import numpy as np

from cardmc import aggregate as agg
from cardmc import files
from cardmc.checks import check_threads
from cardmc.frames import Gather
from cardmc.interrupts import safe_blocks
from cardmc.job import AGGREGATES, Job
from cardmc.kernels.columns import RowBuffer
from cardmc.kernels.jit import KERNEL_LOCK
from cardmc.registry import GameSpec, UsageError, join_spans, whole

# On one thread an aggregate block is smaller still: its rows stay in the core's cache from the kernel to
# the tally (6-9% faster in Differenzler, English Jazz and Norwegian Jazz, the same in Schieber). On more
# threads each block pays for handing its kernel and its tally to the threads, and the larger block is faster.
AGGREGATE_BLOCK_ONE_THREAD = 1 << 10
SOLVE_BLOCK = 64  # games a block when the rows carry solver values (seconds to hours a block otherwise)


def set_threads(threads: int | None) -> int:
    """Use ``threads`` Numba threads in this thread (default: all); returns the count."""
    threads = check_threads(threads)
    if threads is None:
        threads = numba.config.NUMBA_NUM_THREADS
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


def block_size(spec: GameSpec) -> int:
    return spec.block


def aggregate_block(spec: GameSpec, players: int, threads: int) -> int:
    """Games a block of an aggregate run at most, on ``threads`` threads:
    AGGREGATE_BLOCK_ONE_THREAD on one; on more, the game's
    ``aggregate_block`` (a number, or a function of the players)."""
    if threads <= 1:
        return AGGREGATE_BLOCK_ONE_THREAD
    several = spec.aggregate_block
    return int(several(players) if callable(several) else several)


def default_chunk(spec: GameSpec, games: int) -> int:
    """Games per chunk when none is given: the spec's ``chunk_games``, but at least 64 chunks for runs big enough (and a block
    at the least)."""
    block = block_size(spec)
    top = spec.chunk_games
    return max(1, min(top, max(block, -(-games // 64)), games))


def chunk_plan(start: int, games: int, chunk: int) -> list[tuple[int, int, int]]:
    """(index, first game, count) of each chunk covering start..start+games-1."""
    return [(i, first, n) for i, (first, n) in enumerate(blocks(start, games, chunk))]


# ------------------------------------------------------------------ chunks


def _worker_threads() -> int | None:
    """Threads of the Dask worker running this task (None outside Dask)."""
    if "distributed" not in sys.modules:  # a worker has it loaded; importing it costs 0.7 s
        return None
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
        fd = os.open(Path(target["folder"]) / target["lock"], os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return False
    with os.fdopen(fd, "rb") as f:
        return f.read(len(target["token"]) + 1) == target["token"].encode()


def simulated_blocks(
    job: Job, first: int, count: int, block: int, nthreads: int, reader=None
) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
    """(games, the kernel's rows, their spans) of each block of games
    first..first+count-1, on ``nthreads`` of Numba's threads. The rows are
    as the kernel left them, its slices' rows one after another in each span
    (``registry.join_spans``): a consumer that reads them span by span saves
    moving them together. Whatever turns a block into a frame, a file or
    aggregates runs on the same threads after it (``threads=1`` is one core).
    A ``reader`` that reads slice by slice (``aggregate.GridTally.block``,
    ``frames.Gather.block``) gets each slice's rows on the thread that wrote
    them, right after."""
    spec, params, codes, tables = job.spec, job.params(), job.codes(), job.kernel_tables()
    fused = hasattr(reader, "block")
    out = RowBuffer()  # each block's rows are used before the next is made
    for at, n in blocks(first, count, block):
        after = reader.block(nthreads, n) if fused else None
        after = {"after": after} if after is not None else {}
        with KERNEL_LOCK:
            numba.set_num_threads(nthreads)
            rows, spans = spec.simulate_spans(
                job.seed, at, n, job.players, params, codes, out=out, **tables, **after
            )
        yield n, rows, spans


def joined(arrays) -> Iterator[tuple[int, np.ndarray]]:
    """(games, rows) of each block of ``simulated_blocks``, its spans moved together."""
    for n, rows, spans in arrays:
        yield n, join_spans(rows, spans)


def run_chunk(
    job: Job,
    first: int,
    count: int,
    target=None,
    *,
    version: str | None = None,
    threads: int | None = None,
    on_block=None,
) -> dict:
    """Simulate games first..first+count-1 of ``job`` block by block: the task
    a Dask worker runs (a plain module-level function; kernels come from the
    installed package and its Numba cache).

    Rows jobs give, by ``target``: None, the frames of the blocks
    (``frames``); an open ``files.RowWriter``, the rows written into it; a
    run folder's part (a dict, see ``run_folder.RunFolder.target``), one
    Parquet file written into that folder atomically (its ``file``, ``bytes``
    and ``sha256``), or its bytes (``data``) when this process does not see
    the folder. Aggregates jobs give the chunk's ``aggregates`` (target None)
    or write them as that part. Numba uses ``threads`` (default: the Dask
    worker's, else as set in this thread); ``on_block(games)`` after each block.
    """
    from cardmc import __version__

    if version is not None and version != __version__:
        raise UsageError(
            f"a worker has cardmc {__version__}, this client {version}: install the same on every worker"
        )
    spec = job.spec
    in_worker = _worker_threads()
    if in_worker is not None:
        _tune_malloc()
    nthreads = threads or in_worker or numba.get_num_threads()
    nthreads = max(1, min(nthreads, numba.config.NUMBA_NUM_THREADS))
    block = block_size(spec)
    if job.kind == AGGREGATES:
        block = min(block, aggregate_block(spec, job.players, nthreads))
    if job.solve or job.searching:
        block = min(block, SOLVE_BLOCK)  # solving is slow: small blocks keep progress and Ctrl-C near
    tally = agg.tally(spec, job.players, job.params()) if job.kind == AGGREGATES else None
    dense = spec.dense_rows(job.players, job.params()) if spec.dense_rows else 0
    gather = Gather(spec.layout, count, dense) if job.kind != AGGREGATES and target is None else None
    arrays = simulated_blocks(job, first, count, block, nthreads, None if job.solve else tally or gather)
    out: dict = {"start": first, "count": count}

    if job.kind == AGGREGATES:
        solved = None
        at = first
        for n, rows, spans in safe_blocks(arrays):
            if job.solve:  # the block's frame, before its row array is reused
                rows, spans = whole(join_spans(rows, spans))
                solved = _solved_aggregates(job, at, spec.frame(rows), n, nthreads, solved)
                at += n
            tally.add(rows, spans)
            _progress(on_block, n)
        out["rows"] = tally.rows
        total = tally.result()
        if solved is not None:
            total.update(solved)
        if target is None:
            out["aggregates"] = total
            return out
        table = agg.to_arrow(total, target.get("metadata"))

        def write_aggregates(sink) -> None:
            import pyarrow.parquet as pq

            pq.write_table(table, sink, compression="zstd")

        return _deliver(out, target, write_aggregates)

    if job.solve:
        arrays = _solved(job, first, joined(arrays), nthreads)

    def write_rows(writer) -> int:
        rows = 0
        for n, block_rows in safe_blocks(arrays if job.solve else joined(arrays)):
            writer.write(block_rows if job.solve else spec.frame(block_rows))
            rows += len(block_rows)
            _progress(on_block, n)
        return rows

    if job.solve and target is None:
        frames = []
        for n, frame in safe_blocks(arrays):
            frames.append(frame)
            _progress(on_block, n)
        out["frames"] = frames
        out["rows"] = sum(len(f) for f in frames)
        return out
    if target is None:
        # each block split into the chunk's columns at once (its rows are freed), one frame at the end
        for n, rows, spans in safe_blocks(arrays):
            gather.add(rows, n, spans)
            _progress(on_block, n)
        out["frames"] = [gather.frame()]
        out["rows"] = gather.rows
        return out
    if isinstance(target, files.RowWriter):
        out["rows"] = write_rows(target)
        return out

    def write_part(sink) -> None:
        with files.RowWriter(sink, metadata=target.get("metadata")) as writer:
            out["rows"] = write_rows(writer)

    return _deliver(out, target, write_part)


def _solved(job: Job, first: int, arrays, nthreads: int):
    """Each block as a frame with its deals' solver values beside the rows
    (``cardmc.solve_deals``), the deals solved on ``nthreads`` threads."""
    from cardmc import solve_deals as sd

    at = first
    for n, rows in arrays:
        frame = job.spec.frame(rows)
        yield n, sd.with_solved(frame, sd.solve_deals(job, at, n, threads=nthreads))
        at += n


def _solved_aggregates(job: Job, first: int, frame, n: int, nthreads: int, total):
    """``total`` (None at first) merged with the solved tables of one block's
    games (``cardmc.solved_tables.aggregate``), its deals solved on
    ``nthreads`` threads."""
    from cardmc import solve_deals as sd
    from cardmc import solved_tables as solved

    piece = solved.aggregate(job.game, sd.with_solved(frame, sd.solve_deals(job, first, n, threads=nthreads)))
    return piece if total is None else agg.merge(total, piece)


def _progress(on_block, games: int) -> None:
    if on_block is not None:
        on_block(games)


def _deliver(out: dict, target: dict, write) -> dict:
    """Run ``write(sink)`` into the target folder atomically (size and
    SHA-256 in the result), or into bytes when the folder is not visible."""
    if not _visible(target):
        import pyarrow as pa

        sink = pa.BufferOutputStream()
        write(sink)
        out["data"] = sink.getvalue().to_pybytes()
        return out
    path = Path(target["folder"]) / target["file"]
    with files.atomic(path, force=True) as tmp:
        write(str(tmp))
    out.update(file=path.name, bytes=path.lstat().st_size, sha256=files.digest(path))
    return out
