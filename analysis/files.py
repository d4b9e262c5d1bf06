"""Every file cardmc writes goes through ``atomic``: a temporary file in the
target's folder, synced and renamed into place when complete, removed on any
failure, so a reader never sees half a file and nothing is left behind.

    with atomic("diff.parquet", force=True) as tmp:
        table.to_parquet(tmp)

``RowWriter`` streams frames of rows into one Parquet or CSV file (a path or
an in-memory sink), the run metadata in the Parquet schema as ``cardmc.*``.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from pathlib import Path
from typing import Iterator

from cardmc.checks import check_file_target

UMASK = os.umask(0)
os.umask(UMASK)
FILE_MODE = 0o666 & ~UMASK  # temporary files are private; finished ones get the usual mode
TEMP_SUFFIX = ".part"


@contextlib.contextmanager
def atomic(path: str | os.PathLike, force: bool = False) -> Iterator[Path]:
    """A temporary path beside ``path`` to write; on success it is synced and
    renamed to ``path``, on any failure removed. ``UsageError`` (before
    anything is written) if ``path`` exists and ``force`` is false, or its
    folder is missing or not writable."""
    path = Path(path)
    folder = check_file_target(path, force)
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMP_SUFFIX, dir=folder)
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        _sync(tmp)
        os.chmod(tmp, FILE_MODE)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _sync_folder(folder)


def is_temporary(name: str) -> bool:
    """Whether a file name is one of ``atomic``'s temporary files."""
    return name.startswith(".") and name.endswith(TEMP_SUFFIX)


def _sync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # some file systems cannot sync a folder: the rename stands
        pass
    finally:
        os.close(fd)


def write_bytes(path: str | os.PathLike, data: bytes, force: bool = True) -> Path:
    """``data`` as the file ``path``, atomically."""
    with atomic(path, force=force) as tmp:
        tmp.write_bytes(data)
    return Path(path)


def write_text(path: str | os.PathLike, text: str, force: bool = True) -> Path:
    return write_bytes(path, text.encode(), force=force)


def digest(path: str | os.PathLike) -> str:
    """The SHA-256 of a file, hex."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def parquet_metadata(metadata: dict | None) -> dict[bytes, bytes]:
    """Run metadata as Parquet schema metadata (``cardmc.KEY``)."""
    return {f"cardmc.{k}".encode(): str(v).encode() for k, v in (metadata or {}).items()}


class RowWriter:
    """Frames of rows into one file (``path`` or a pyarrow sink), Parquet
    (zstd, one row group per frame) or CSV (header once); ``close`` ends it.
    The first frame's schema holds for the file."""

    def __init__(self, sink, csv: bool = False, metadata: dict | None = None):
        self.sink, self.csv, self.metadata = sink, csv, metadata
        self.writer = None
        self.rows = 0

    def write(self, df) -> None:
        if self.csv:
            if self.writer is None:
                self.writer = open(self.sink, "w", newline="")
                df.to_csv(self.writer, index=False)
            else:
                df.to_csv(self.writer, header=False, index=False)
            self.rows += len(df)
            return
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.Table.from_pandas(df, preserve_index=False)
        if self.writer is None:
            schema = table.schema.with_metadata(
                {**(table.schema.metadata or {}), **parquet_metadata(self.metadata)}
            )
            self.writer = pq.ParquetWriter(self.sink, schema, compression="zstd")
        if not table.schema.equals(self.writer.schema, check_metadata=False):
            table = table.cast(self.writer.schema)
        self.writer.write_table(table)
        self.rows += len(df)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None

    def __enter__(self) -> RowWriter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def is_csv(path: str | os.PathLike) -> bool:
    return Path(path).suffix.lower() == ".csv"
