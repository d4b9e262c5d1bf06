"""The Python API: ``simulate``, ``analyze`` and ``trace`` for every game.

    >>> import cardmc
    >>> df = cardmc.simulate("differenzler", games=10_000, seed=1, policy="calibrated")
    >>> tables = cardmc.analyze("differenzler", df)
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq

from cardmc import aggregate as agg
from cardmc import checkpoint, distributed, driver, registry
from cardmc.aggregate import Aggregates
from cardmc.registry import UsageError

DEFAULT_BLOCK = driver.DEFAULT_BLOCK


def _prepare(game, games, seed, policy, players, settings):
    spec = registry.get(game)
    games = driver.check_count("games", games)
    seed = driver.check_seed(seed)
    players = spec.check_players(players)
    policy = spec.default_policy if policy is None else policy
    policies = spec.parse_policy(policy, players)
    full = spec.settings(settings)
    return spec, games, seed, players, policy, policies, full


def simulate(
    game: str,
    games: int,
    seed: int = 0,
    policy: str | None = None,
    players: int | None = None,
    threads: int | None = None,
    out: str | os.PathLike | None = None,
    force: bool = False,
    progress: bool = False,
    start: int = 0,
    *,
    chunk_games: int | None = None,
    aggregate: bool = False,
    scheduler=None,
    workers: int | None = None,
    log=None,
    **settings: object,
) -> pd.DataFrame | Aggregates | Path:
    """Simulate ``games`` games of ``game`` from ``seed``.

    Returns one row per seat per deal as a DataFrame, or, with ``out``, streams
    the rows to that Parquet (or .csv) file block by block (written atomically) and
    returns its path. Rule and simulation options are keyword arguments by
    their docs/RULES.md names (``max_extra_deals=2``). Game i of seed s is the same
    whatever ``threads``, block or chunk size, or machine.

    ``out`` naming a folder (``"run1/"``, an existing folder, or a name
    without suffix) makes a resumable run: chunks of ``chunk_games`` games,
    each written atomically and recorded in ``manifest.json``; the same call
    after an interruption does only the missing chunks. ``aggregate=True``
    keeps only the game's mergeable aggregates (an ``Aggregates`` dict for
    ``analyze``) instead of rows. ``workers=N`` runs the chunks on a local
    Dask cluster of N processes (``threads`` each, default 1);
    ``scheduler="tcp://HOST:8786"`` on an existing cluster (or a
    ``distributed.Client``). ``log`` receives one-line notes (resuming,
    damaged chunks redone). Ctrl-C stops between blocks of games, never
    inside one; a run folder then raises ``checkpoint.Interrupted``.
    """
    with driver.interrupts():
        return _simulate(game, games, seed, policy, players, threads, out, force, progress, start, chunk_games,
                         aggregate, scheduler, workers, log, settings)  # fmt: skip


def _simulate(game, games, seed, policy, players, threads, out, force, progress, start, chunk_games, aggregate,
              scheduler, workers, log, settings):  # fmt: skip
    spec, games, seed, players, policy, policies, full = _prepare(game, games, seed, policy, players, settings)
    start = driver.check_range(start, games)
    if chunk_games is not None:
        chunk_games = driver.check_count("chunk_games", chunk_games)
    if not isinstance(aggregate, bool):
        raise UsageError(f"aggregate must be true or false, not {aggregate!r}")
    if aggregate:
        agg.require(spec)
    distributed.check(scheduler, workers, threads)
    kind = checkpoint.AGGREGATES if aggregate else checkpoint.ROWS
    meta = {**run_metadata(spec, games, seed, policy, players, full, start), "kind": kind}
    job = _Job(spec, games, seed, start, players, policy, policies, full, kind, meta, progress)
    log = log or (lambda message: None)
    runner = distributed.runner(scheduler, workers, threads)
    if out is not None and checkpoint.is_folder_target(out):
        return _run_folder(job, Path(out), chunk_games, runner, force, log)
    if out is not None:
        _check_file_target(out, aggregate, force)
    if not aggregate and not runner.distributed and chunk_games is None:
        return _simulate_rows_here(job, threads, out, force)
    if out is not None and not aggregate:
        return _rows_to_file_in_chunks(job, out, chunk_games, runner, force, log)
    chunk = chunk_games or (driver.default_chunk(spec, games) if runner.distributed else games)
    result = _collect(job, driver.chunk_plan(start, games, chunk), runner)
    return result if out is None else agg.save(result, out, meta)


def _collect(job: _Job, plan, runner) -> pd.DataFrame | Aggregates:
    """Run the chunks of ``plan``; their rows in game order, or their merged aggregates."""
    frames, merged = {}, None
    with runner as pool, _bar(job, 0) as bar:
        for index, res in pool.run(job.calls(plan), on_block=bar.update):
            if pool.distributed:
                bar.update(res["count"])
            if job.kind == checkpoint.AGGREGATES:
                merged = res["aggregates"] if merged is None else agg.merge(merged, res["aggregates"])
            else:
                frames[index] = res["frame"]
    if job.kind == checkpoint.AGGREGATES:
        return agg.Aggregates(merged, attrs=job.meta)
    parts = [frames[i] for i in sorted(frames)]
    df = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
    df.attrs.update(job.file_meta())
    return df


def _rows_to_file_in_chunks(job: _Job, out, chunk_games, runner, force, log) -> Path:
    """Chunks (on a cluster, say) into a hidden folder next to ``out``, then
    one file written atomically; nothing is left behind on failure."""
    sink = driver.sink_for(out, force=force)
    sink.metadata = job.file_meta()
    hidden = Path(tempfile.mkdtemp(prefix=f".{Path(out).name}.chunks-", dir=sink.path.parent))
    try:
        _run_folder(job, hidden, chunk_games, runner, True, log)
        _, parts = checkpoint.complete_parts(hidden, hash_it=False)
        for part in parts:
            pf = pq.ParquetFile(part)
            for i in range(pf.num_row_groups):
                sink.write(pf.read_row_group(i).to_pandas())
        return sink.commit()
    except checkpoint.Interrupted:
        sink.abort()
        raise KeyboardInterrupt from None
    except BaseException:
        sink.abort()
        raise
    finally:
        shutil.rmtree(hidden, ignore_errors=True)


class _Job:
    """What every chunk of one run shares."""

    def __init__(self, spec, games, seed, start, players, policy, policies, settings, kind, meta, progress):
        self.spec, self.games, self.seed, self.start, self.players = spec, games, seed, start, players
        self.policy, self.policies, self.settings, self.kind = policy, policies, settings, kind
        self.meta, self.progress = meta, progress

    def identity(self, chunk_games: int | None) -> dict:
        from cardmc import __version__

        return {"game": self.spec.name, "seed": self.seed, "start": self.start, "games": self.games,
                "policy": self.policy, "policy_codes": self.policies.tolist(), "players": self.players,
                "settings": self.settings, "chunk_games": chunk_games, "kind": self.kind,
                "cardmc": __version__}  # fmt: skip

    def file_meta(self) -> dict:
        """The metadata of a single output file (as before run folders)."""
        return {k: v for k, v in self.meta.items() if k != "kind"}

    def calls(self, plan, targets=None):
        for index, first, n in plan:
            yield index, {"game": self.spec.name, "seed": self.seed, "start": first, "count": n,
                          "players": self.players, "settings": dict(self.settings), "policy": self.policy,
                          "kind": self.kind, "target": targets(index) if targets else None}  # fmt: skip


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        pass


def _bar(job: _Job, done: int):
    if not job.progress:
        return _NoBar()
    from tqdm.auto import tqdm

    return tqdm(total=job.games, initial=done, unit=" games", unit_scale=True, desc=job.spec.name,
                dynamic_ncols=True)  # fmt: skip


def _check_file_target(out, aggregate: bool, force: bool) -> None:
    suffix = Path(out).suffix.lower()
    if suffix not in (".parquet", ".pq", ".csv"):
        raise UsageError(f"output {os.fspath(out)!r} should end in .parquet or .csv, or in / for a run folder")
    if aggregate and suffix == ".csv":
        raise UsageError(f"aggregates are written as Parquet, not to {os.fspath(out)!r}")
    driver.check_file_target(Path(out), force)


def _simulate_rows_here(job: _Job, threads, out, force):
    """The plain run: blocks on this process's threads, rows in memory or
    streamed to one file."""
    spec = job.spec
    driver.set_threads(threads)
    params = spec.params(job.settings)
    meta = job.file_meta()
    sink = None if out is None else driver.sink_for(out, force=force)
    frames = driver.run_blocks(spec, job.games, job.seed, job.players, params, job.policies,
                               driver.block_size(spec), job.start, job.progress)  # fmt: skip
    if sink is None:
        parts = list(frames)
        df = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
        df.attrs.update(meta)
        return df
    sink.metadata = meta
    try:
        for df in frames:
            sink.write(df)
        return sink.commit()
    except BaseException:
        sink.abort()
        raise


def _run_folder(job: _Job, folder: Path, chunk_games, runner, force, log) -> Path:
    """A resumable run into ``folder`` (see analysis/checkpoint.py)."""
    identity = job.identity(chunk_games)
    default = driver.default_chunk(job.spec, job.games)
    with checkpoint.RunFolder(folder, identity, job.meta, force=force, log=log, default_chunk=default) as run:
        todo = run.missing()
        total = len(run.plan())
        if not todo:
            log(f"{folder} is complete already ({total} chunks)")
            return folder
        if run.done:
            log(f"resuming {folder}: {run.done} of {total} chunks done, {len(todo)} to go")
        spans = {index: (first, n) for index, first, n in todo}
        done_games = job.games - sum(n for _, _, n in todo)
        try:
            with runner as pool, _bar(job, done_games) as bar:
                for index, res in pool.run(job.calls(todo, run.target), on_block=bar.update):
                    run.record(index, *spans[index], res)
                    if pool.distributed:
                        bar.update(res["count"])
        except KeyboardInterrupt:
            raise checkpoint.Interrupted(folder, run.done, total) from None
    return folder


def run_metadata(spec, games, seed, policy, players, settings, start=0) -> dict:
    from cardmc import __version__

    return {
        "game": spec.name,
        "games": games,
        "seed": seed,
        "start": start,
        "policy": policy,
        "players": players,
        "settings": json.dumps(settings, sort_keys=True),
        "version": __version__,
    }


def read(path: str | os.PathLike, columns: list[str] | None = None) -> pd.DataFrame:
    """A cardmc Parquet file, or a finished run folder of rows, as a
    DataFrame with the run metadata in ``attrs``."""
    path = Path(path)
    if path.is_dir():
        manifest, parts = checkpoint.complete_parts(path)
        if manifest["identity"]["kind"] != checkpoint.ROWS:
            raise UsageError(f"{path} holds aggregates, not rows: analyze it, or simulate without --aggregate")
        import pyarrow as pa
        import pyarrow.dataset as ds

        schemas = [pq.read_schema(p) for p in parts]  # parts may differ a little (a dictionary, an int width)
        schema = pa.unify_schemas(schemas, promote_options="permissive").with_metadata(schemas[0].metadata)
        data = ds.dataset([str(p) for p in parts], schema=schema, format="parquet")
        df = data.to_table(columns=columns).to_pandas()
        df.attrs.update(manifest["metadata"])
        return df
    if not path.is_file():
        raise UsageError(f"no such file: {path}")
    try:
        pf = pq.ParquetFile(path)
    except Exception as exc:  # noqa: BLE001 - any unreadable file is a usage error here
        raise UsageError(f"{path} is not a readable Parquet file ({exc})") from None
    if agg.META_KEY in (pf.schema_arrow.metadata or {}):
        raise UsageError(f"{path} holds aggregates, not rows: analyze it, or simulate without --aggregate")
    df = pf.read(columns=columns).to_pandas()
    df.attrs.update(_file_meta(pf))
    return df


def _file_meta(pf: pq.ParquetFile) -> dict:
    meta = pf.schema_arrow.metadata or {}
    return {k.decode()[7:]: v.decode() for k, v in meta.items() if k.startswith(b"cardmc.") and k != agg.META_KEY}


def run_info(path: str | os.PathLike) -> dict:
    """The run metadata (game, games, seed, policy, ...) of a file or run folder."""
    path = Path(path)
    if path.is_dir():
        manifest = checkpoint.read_manifest(path)
        if manifest is None:
            raise UsageError(f"{path} holds no cardmc run (no {checkpoint.MANIFEST})")
        return dict(manifest["metadata"])
    if not path.is_file():
        raise UsageError(f"no such file: {path}")
    try:
        return _file_meta(pq.ParquetFile(path))
    except Exception as exc:  # noqa: BLE001
        raise UsageError(f"{path} is not a readable Parquet file ({exc})") from None


def _check_rows(spec, df: pd.DataFrame, game: str) -> None:
    if "game" not in df.columns or not set(spec.columns) <= set(df.columns):
        missing = sorted(set(spec.columns) - set(df.columns))
        raise UsageError(f"these rows are not {game} results (missing columns {missing[:5]})")
    if df.attrs.get("game", game) != game:
        raise UsageError(f"this file holds {df.attrs['game']} results, not {game}")


def _check_game(meta: dict, game: str, where) -> None:
    if meta.get("game", game) != game:
        raise UsageError(f"{where} holds {meta['game']} results, not {game}")


def analyze(game: str, data, **kwargs) -> dict[str, pd.DataFrame]:
    """The game's standard tables (every figure with its CI) from simulated
    rows (a DataFrame from ``simulate``, or a Parquet file or run folder it
    wrote) or from aggregates (``simulate(..., aggregate=True)`` or a file or
    folder it wrote). Files and folders are read part by part when the game
    has an aggregate analysis, so memory stays flat whatever the run's size."""
    spec = registry.get(game)
    found = agg.functions(spec)
    if isinstance(data, pd.DataFrame):
        _check_rows(spec, data, game)
        return spec.analyze(data, **kwargs)
    if isinstance(data, dict):
        _check_game(getattr(data, "attrs", {}), game, "these aggregates")
        return agg.require(spec)[1](data, **kwargs)
    path = Path(data)
    if path.is_dir():
        manifest, parts = checkpoint.complete_parts(path)
        _check_game(manifest["metadata"], game, path)
        if manifest["identity"]["kind"] == checkpoint.AGGREGATES:
            total = None
            for part in parts:
                total = agg.load(part) if total is None else agg.merge(total, agg.load(part))
            return agg.require(spec)[1](total, **kwargs)
        if found is None or kwargs:
            return analyze(game, read(path), **kwargs)
        return found[1](_aggregate_parts(spec, game, parts, found[0]))
    if path.is_file() and agg.is_aggregate_file(path):
        aggs = agg.load(path)
        _check_game(aggs.attrs, game, path)
        return agg.require(spec)[1](aggs, **kwargs)
    if found is None or kwargs or not path.is_file():
        return analyze(game, read(path), **kwargs)
    return found[1](_aggregate_parts(spec, game, [path], found[0]))


def _aggregate_parts(spec, game: str, parts: list[Path], aggregate) -> dict:
    """The merged aggregates of Parquet row files (rows in game order), read
    row group by row group, each game's rows aggregated together."""
    total = carry = None
    for part in parts:
        try:
            pf = pq.ParquetFile(part)
        except Exception as exc:  # noqa: BLE001 - any unreadable file is a usage error here
            raise UsageError(f"{part} is not a readable Parquet file ({exc})") from None
        meta = _file_meta(pf)
        for i in range(pf.num_row_groups):
            df = pf.read_row_group(i).to_pandas()
            df.attrs.update(meta)
            _check_rows(spec, df, game)
            if carry is not None:
                df = pd.concat([carry, df], ignore_index=True)
            # a row group may end inside a game: keep its last game for the next piece,
            # so an aggregate that looks at whole games sees each game at once
            last = df["game"].to_numpy() == df["game"].iat[-1] if len(df) else np.zeros(0, dtype=bool)
            carry, df = df[last], df[~last]
            if len(df):
                piece = aggregate(df)
                total = piece if total is None else agg.merge(total, piece)
    if carry is not None and len(carry):
        piece = aggregate(carry)
        total = piece if total is None else agg.merge(total, piece)
    if total is None:
        raise UsageError(f"{parts[0]} holds no rows")
    return total


def trace(
    game: str,
    games: int,
    seed: int = 0,
    policy: str | None = None,
    players: int | None = None,
    out: str | os.PathLike | None = None,
    force: bool = False,
    start: int = 0,
    **settings: object,
) -> list[dict] | Path:
    """TRACE.md lines of games start..start+games-1 (a list, or a JSONL file)."""
    spec, games, seed, players, policy, policies, full = _prepare(game, games, seed, policy, players, settings)
    start = driver.check_range(start, games)
    if out is not None:
        target = Path(out)
        if target.exists() and not force:
            raise UsageError(f"{target} already exists (use --force to overwrite)")
        folder = target.parent if str(target.parent) else Path(".")
        if not folder.is_dir() or not os.access(folder, os.W_OK):
            raise UsageError(f"cannot write {target}: folder {folder} is not writable")
    lines = (spec.trace_game(seed, start + i, players, full, policy) for i in range(games))
    if out is None:
        return list(lines)
    tmp = target.with_name(f".{target.name}.part")
    try:
        with open(tmp, "w") as f:
            for line in lines:
                f.write(json.dumps(line, separators=(",", ":")) + "\n")
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return target
