"""The Python API: ``simulate``, ``analyze`` and ``trace`` for every game.

>>> import cardmc
>>> df = cardmc.simulate("differenzler", games=10_000, seed=1, policy="calibrated")
>>> tables = cardmc.analyze("differenzler", df)
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq

from cardmc import aggregate as agg
from cardmc import checks, files, outputs, registry, run_folder
from cardmc.aggregate import Aggregates
from cardmc.job import AGGREGATES, ROWS, Job, make
from cardmc.registry import UsageError


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
    calibration: str | os.PathLike | None = None,
    hands=None,
    trump_card: str | None = None,
    deal: int | None = None,
    solve: bool = False,
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
    ``distributed.Client``). ``calibration`` names a table file of
    Differenzler's calibrated declarations (default: the shipped one); its
    content travels with the job. ``log`` receives one-line notes (resuming,
    damaged chunks redone). Ctrl-C stops between blocks of games, never
    inside one; a run folder then raises ``run_folder.Interrupted``.

    ``hands`` conditions every deal on cards some seats hold:
    ``{1: "JS 9S AS"}`` (or ``["1:JS 9S AS"]``); the other cards are dealt
    uniformly at random. ``solve=True`` adds each deal's exact values with
    every hand seen (``cardmc.solve_deals``, slow beside play); with
    ``aggregate=True`` the aggregates carry the solved tables
    (``cardmc.solved_tables``) instead.
    ``trump_card="7H"`` fixes Differenzler's face-up
    card (it goes to each deal's dealer); ``deal=N`` names the one Norwegian
    Jazz deal (1..6) the hands apply to. See docs/RULES.md, "Conditions".
    """
    job = make(
        game,
        games,
        seed,
        policy,
        players,
        settings,
        start,
        aggregate,
        calibration,
        hands,
        trump_card,
        deal,
        solve,
    )
    return run(
        job,
        out,
        force=force,
        threads=threads,
        chunk_games=chunk_games,
        scheduler=scheduler,
        workers=workers,
        progress=progress,
        log=log,
    )


def run(job: Job, out: str | os.PathLike | None = None, **how) -> pd.DataFrame | Aggregates | Path:
    """Run a checked ``Job`` (``cardmc.job.make``); ``how`` as in ``simulate``
    (force, threads, chunk_games, scheduler, workers, progress, log)."""
    return outputs.run(job, out, **how)


def read(path: str | os.PathLike, columns: list[str] | None = None) -> pd.DataFrame:
    """A cardmc Parquet file, or a finished run folder of rows, as a
    DataFrame with the run metadata in ``attrs``."""
    path = Path(path)
    if path.is_dir():
        manifest, parts = run_folder.complete_parts(path)
        if manifest["identity"]["kind"] != ROWS:
            raise UsageError(
                f"{path} holds aggregates, not rows: analyze it, or simulate without --aggregate"
            )
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
    return {
        k.decode()[7:]: v.decode() for k, v in meta.items() if k.startswith(b"cardmc.") and k != agg.META_KEY
    }


def run_info(path: str | os.PathLike) -> dict:
    """The run metadata (game, games, seed, policy, ...) of a file or run folder."""
    path = Path(path)
    if path.is_dir():
        manifest = run_folder.read_manifest(path)
        if manifest is None:
            raise UsageError(f"{path} holds no cardmc run (no {run_folder.MANIFEST})")
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


def analyze(game: str, data, where: str | None = None, **kwargs) -> dict[str, pd.DataFrame]:
    """The game's standard tables (every figure with its CI) from simulated
    rows (a DataFrame from ``simulate``, or a Parquet file or run folder it
    wrote) or from aggregates (``simulate(..., aggregate=True)`` or a file or
    folder it wrote). Files and folders are read part by part when the game
    has an aggregate analysis, so memory stays flat whatever the run's size.

    ``where`` (``"trumps >= 4 and aces >= 2"``, see ``cardmc.where``) keeps
    only the rows that pass before the tables are made (rows only, not
    aggregates); every table notes it in ``attrs["where"]``."""
    spec = registry.get(game)
    if where is not None:
        tables = _analyze_where(spec, game, data, where, kwargs)
        for table in tables.values():
            table.attrs["where"] = where
        return tables
    found = agg.functions(spec)
    if isinstance(data, pd.DataFrame):
        _check_rows(spec, data, game)
        return _with_solved(game, data, spec.analyze(data, **kwargs))
    if isinstance(data, dict):
        _check_game(getattr(data, "attrs", {}), game, "these aggregates")
        return _summarise(spec, game, data, **kwargs)
    path = Path(data)
    if path.is_dir():
        manifest, parts = run_folder.complete_parts(path)
        _check_game(manifest["metadata"], game, path)
        if manifest["identity"]["kind"] == AGGREGATES:
            total = None
            for part in parts:
                total = agg.load(part) if total is None else agg.merge(total, agg.load(part))
            return _summarise(spec, game, total, **kwargs)
        if found is None or kwargs:
            return analyze(game, read(path), **kwargs)
        return _summarise(spec, game, _aggregate_parts(spec, game, parts, found[0]))
    if path.is_file() and agg.is_aggregate_file(path):
        aggs = agg.load(path)
        _check_game(aggs.attrs, game, path)
        return _summarise(spec, game, aggs, **kwargs)
    if found is None or kwargs or not path.is_file():
        return analyze(game, read(path), **kwargs)
    return _summarise(spec, game, _aggregate_parts(spec, game, [path], found[0]))


def _summarise(spec, game: str, aggs: dict, **kwargs) -> dict[str, pd.DataFrame]:
    """The game's tables from its aggregates, and the solved table when they
    carry one (a run with ``solve=True``)."""
    from cardmc import solved_tables as solved

    return {**agg.require(spec)[1](aggs, **kwargs), **solved.summarise(game, aggs)}


def _with_solved(game: str, rows: pd.DataFrame, tables: dict) -> dict[str, pd.DataFrame]:
    """``tables`` and, when ``rows`` carry the solver's columns, the solved table."""
    from cardmc import solved_tables as solved

    return {**tables, **solved.tables(game, rows)}


def _analyze_where(spec, game: str, data, where: str, kwargs: dict) -> dict[str, pd.DataFrame]:
    """``analyze`` of the rows of ``data`` that pass the filter ``where``."""
    from cardmc import where as filters

    if isinstance(data, dict) or (not isinstance(data, pd.DataFrame) and _holds_aggregates(Path(data))):
        raise UsageError(
            f"--where filters rows, and {'these' if isinstance(data, dict) else data} "
            "holds aggregates: simulate without --aggregate"
        )
    solved = _solved_columns(data)
    filters.check(where, [*spec.columns, *solved])
    found = agg.functions(spec)
    if isinstance(data, pd.DataFrame) or found is None or kwargs or solved:
        df = data if isinstance(data, pd.DataFrame) else read(data)
        _check_rows(spec, df, game)
        kept = filters.apply(df, where)
        if kept.empty:
            raise UsageError(f"no rows pass the filter {where!r}")
        return _with_solved(game, kept, spec.analyze(kept, **kwargs))
    path = Path(data)
    if path.is_dir():
        manifest, parts = run_folder.complete_parts(path)
        _check_game(manifest["metadata"], game, path)
    else:
        parts = [path]
    total = _aggregate_parts(spec, game, parts, found[0], keep=lambda df: filters.apply(df, where))
    if total is None:
        raise UsageError(f"no rows pass the filter {where!r}")
    return _summarise(spec, game, total)


def _solved_columns(data) -> list[str]:
    """The ``solved_*`` columns of rows simulated with ``solve=True`` (a
    DataFrame, or one Parquet or CSV file; run folders have none)."""
    if isinstance(data, pd.DataFrame):
        names = list(data.columns)
    else:
        path = Path(data)
        if path.is_dir() or not path.is_file():
            return []
        try:
            names = (
                list(pd.read_csv(path, nrows=0).columns) if files.is_csv(path) else pq.read_schema(path).names
            )
        except Exception:  # noqa: BLE001 - an unreadable file is reported where it is read
            return []
    return [name for name in names if str(name).startswith("solved_")]


def _holds_aggregates(path: Path) -> bool:
    if path.is_dir():
        manifest = run_folder.read_manifest(path)
        return manifest is not None and manifest["identity"]["kind"] == AGGREGATES
    return path.is_file() and agg.is_aggregate_file(path)


def _aggregate_parts(spec, game: str, parts: list[Path], aggregate, keep=None) -> dict:
    """The merged aggregates of Parquet row files (rows in game order), read
    row group by row group, each game's rows aggregated together; with
    ``keep`` (a frame -> its rows to keep), only the rows it keeps (None if
    none)."""
    from cardmc import solved_tables as solved

    def both(df: pd.DataFrame) -> dict:  # the game's tables, and the solved ones of solved rows
        tables = aggregate(df)
        return {**tables, **solved.aggregate(game, df)} if solved.has_solved(df) else tables

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
            total = _add_piece(total, df, both, keep)
    if carry is not None:
        total = _add_piece(total, carry, both, keep)
    if total is None and keep is None:
        raise UsageError(f"{parts[0]} holds no rows")
    return total


def _add_piece(total, df: pd.DataFrame, aggregate, keep):
    if keep is not None and len(df):
        df = keep(df)
    if not len(df):
        return total
    piece = aggregate(df)
    return piece if total is None else agg.merge(total, piece)


def trace(
    game: str,
    games: int,
    seed: int = 0,
    policy: str | None = None,
    players: int | None = None,
    out: str | os.PathLike | None = None,
    force: bool = False,
    start: int = 0,
    *,
    calibration: str | os.PathLike | None = None,
    hands=None,
    trump_card: str | None = None,
    deal: int | None = None,
    **settings: object,
) -> list[dict] | Path:
    """TRACE.md lines of games start..start+games-1 (a list, or a JSONL file);
    ``hands``, ``trump_card`` and ``deal`` condition the deals as in ``simulate``
    (the line then carries the condition under ``condition``)."""
    job = make(
        game,
        games,
        seed,
        policy,
        players,
        settings,
        start,
        calibration=calibration,
        hands=hands,
        trump_card=trump_card,
        deal=deal,
    )
    return trace_job(job, out, force)


def trace_job(job: Job, out: str | os.PathLike | None = None, force: bool = False) -> list[dict] | Path:
    """The trace lines of a checked ``Job`` (a list, or the JSONL file ``out``, written atomically)."""
    if out is not None:
        checks.check_file_target(out, checks.check_flag("force", force))
    spec, options, tables = job.spec, job.options, job.kernel_tables()
    extra = {} if job.condition is None else {"condition": job.condition.record()}
    lines = (
        {**spec.trace_game(job.seed, job.start + i, job.players, options, job.policy, **tables), **extra}
        for i in range(job.games)
    )
    if out is None:
        return list(lines)
    with files.atomic(out, force=force) as tmp, open(tmp, "w") as f:
        for line in lines:
            f.write(json.dumps(line, separators=(",", ":")) + "\n")
    return Path(out)
