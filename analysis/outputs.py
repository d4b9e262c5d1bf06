"""Running a job: one loop over its chunks (``_loop``), whatever the output.

* in memory: the chunks' frames joined once in game order, or their
  aggregates merged;
* one file (Parquet or CSV): in this process each chunk streams its blocks
  into the one writer, in game order; on a cluster the chunks go to a hidden
  run folder beside the file first, then into the file in order;
* a run folder: each chunk a part, recorded in the manifest (see
  analysis/run_folder.py), resumable;

here (one chunk after another on this process's threads) or on a Dask
cluster (analysis/distributed.py). Every file is written with
``files.atomic``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pandas as pd

from cardmc import aggregate as agg
from cardmc import checks, chunks, distributed, files, interrupts, run_folder
from cardmc.job import AGGREGATES, Job
from cardmc.progress import bar as progress_bar


def run(
    job: Job,
    out: str | os.PathLike | None = None,
    *,
    force: bool = False,
    threads: int | None = None,
    chunk_games: int | None = None,
    scheduler=None,
    workers: int | None = None,
    progress: bool = False,
    log=None,
):
    """Run ``job``: rows as a DataFrame or aggregates (``out`` None), or the
    path of the file or run folder written (see ``api.simulate``)."""
    with interrupts.interrupts():
        where, path = checks.check_output(out, job.kind == AGGREGATES, checks.check_flag("force", force))
        if chunk_games is not None:
            chunk_games = checks.check_chunks(job.games, chunk_games)
        runner = distributed.runner(scheduler, workers, threads)
        log = log or (lambda message: None)
        if where == "folder":
            return _to_folder(job, path, chunk_games, runner, force, log, progress)
        if where != "memory" and job.kind != AGGREGATES and runner.distributed:
            return _to_file_through_folder(
                job, path, where == "csv", chunk_games, runner, force, log, progress
            )
        chunk = chunk_games or (
            chunks.default_chunk(job.spec, job.games) if runner.distributed else job.games
        )
        plan = chunks.chunk_plan(job.start, job.games, chunk)
        if where == "memory":
            return _collect(job, plan, runner, progress)
        if job.kind == AGGREGATES:
            result = _collect(job, plan, runner, progress)
            with files.atomic(path, force=force) as tmp:
                import pyarrow.parquet as pq

                pq.write_table(agg.to_arrow(result, job.metadata), tmp, compression="zstd")
            return path
        with (
            files.atomic(path, force=force) as tmp,
            files.RowWriter(tmp, csv=where == "csv", metadata=job.file_metadata()) as writer,
        ):
            _loop(job, plan, runner, progress, target=lambda index: writer)
        return path


def _loop(job: Job, plan, runner, progress: bool, done: int = 0, target=None, take=None) -> None:
    """The one loop: run ``plan``'s chunks (index, first game, count) on ``runner``,
    each with ``target(index)``, and hand each result to ``take(index, result)``
    as it finishes; a progress bar counts the games."""
    with runner as pool, progress_bar(progress, job.games, job.game, initial=done) as bar:
        for index, result in pool.run(job, plan, target, on_block=bar.update):
            if pool.distributed:
                bar.update(result["count"])
            if take is not None:
                take(index, result)


def _collect(job: Job, plan, runner, progress: bool):
    """The rows of ``plan`` in game order (one join of the blocks' frames),
    or their merged aggregates."""
    frames: dict[int, list[pd.DataFrame]] = {}
    merged: list = [None]

    def take(index: int, result: dict) -> None:
        if job.kind == AGGREGATES:
            merged[0] = (
                result["aggregates"] if merged[0] is None else agg.merge(merged[0], result["aggregates"])
            )
        else:
            frames[index] = result["frames"]

    _loop(job, plan, runner, progress, take=take)
    if job.kind == AGGREGATES:
        return agg.Aggregates(merged[0], attrs=job.metadata)
    parts = [df for index in sorted(frames) for df in frames[index]]
    df = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
    df.attrs.update(job.file_metadata())
    return df


def _to_folder(job: Job, folder: Path, chunk_games, runner, force: bool, log, progress: bool) -> Path:
    """A resumable run into ``folder`` (see analysis/run_folder.py)."""
    default = chunks.default_chunk(job.spec, job.games)
    with run_folder.RunFolder(
        folder, job.identity(chunk_games), job.metadata, force=force, log=log, default_chunk=default
    ) as run:
        todo = run.missing()
        total = len(run.plan())
        if not todo:
            log(f"{folder} is complete already ({total} chunks)")
            return folder
        if run.done:
            log(f"resuming {folder}: {run.done} of {total} chunks done, {len(todo)} to go")
        spans = {index: (first, n) for index, first, n in todo}
        done = job.games - sum(n for _, _, n in todo)
        try:
            _loop(
                job,
                todo,
                runner,
                progress,
                done,
                target=run.target,
                take=lambda index, result: run.record(index, *spans[index], result),
            )
        except KeyboardInterrupt:
            raise run_folder.Interrupted(folder, run.done, total) from None
    return folder


def _to_file_through_folder(
    job: Job, path: Path, csv: bool, chunk_games, runner, force: bool, log, progress: bool
) -> Path:
    """Chunks (on a cluster) into a hidden run folder beside ``path``, then
    one file in game order; nothing is left behind on failure."""
    with files.atomic(path, force=force) as tmp:
        hidden = Path(tempfile.mkdtemp(prefix=f".{path.name}.chunks-", dir=tmp.parent))
        try:
            _to_folder(job, hidden, chunk_games, runner, True, log, progress)
            _, parts = run_folder.complete_parts(hidden, hash_it=False)
            import pyarrow.parquet as pq

            with files.RowWriter(tmp, csv=csv, metadata=job.file_metadata()) as writer:
                for part in parts:
                    pf = pq.ParquetFile(part)
                    for i in range(pf.num_row_groups):
                        writer.write(pf.read_row_group(i).to_pandas())
        except run_folder.Interrupted:
            raise KeyboardInterrupt from None
        finally:
            shutil.rmtree(hidden, ignore_errors=True)
    return path
