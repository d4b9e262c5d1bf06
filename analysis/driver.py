"""The batch driver at the Python edge: blocks of games, threads, progress,
and Parquet streaming so that no run has to fit in memory."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Iterator

import numba
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from analysis.registry import GameSpec, UsageError

MAX_SEED = 2**63 - 1


def check_count(name: str, value: object) -> int:
    """A positive whole number, or ``UsageError`` naming ``value``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise UsageError(f"{name} must be a positive whole number, not {value!r}")
    return int(value)


def check_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= MAX_SEED:
        raise UsageError(f"seed must be a whole number in 0..2**63-1, not {seed!r}")
    return int(seed)


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
        for first, n in blocks(start, games, block):
            rows = spec.simulate_block(seed, first, n, players, params, policies)
            yield spec.frame(rows)
            if bar is not None:
                bar.update(n)
    finally:
        if bar is not None:
            bar.close()


class AtomicParquet:
    """A Parquet file written row group by row group into a temporary file in
    the target's folder, renamed into place only when complete."""

    def __init__(self, path: str | os.PathLike, force: bool = False):
        self.path = Path(path)
        if self.path.exists() and not force:
            raise UsageError(f"{self.path} already exists (use --force to overwrite)")
        folder = self.path.parent if str(self.path.parent) else Path(".")
        if not folder.is_dir():
            raise UsageError(f"cannot write {self.path}: folder {folder} does not exist")
        if not os.access(folder, os.W_OK):
            raise UsageError(f"cannot write {self.path}: folder {folder} is not writable")
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
        os.replace(self.tmp, self.path)
        return self.path

    def abort(self) -> None:
        self.tmp.unlink(missing_ok=True)


def sink_for(path: str | os.PathLike, force: bool = False) -> AtomicParquet:
    """An atomic writer chosen by the file's suffix (.csv, else Parquet)."""
    return (AtomicCSV if Path(path).suffix.lower() == ".csv" else AtomicParquet)(path, force=force)
