"""The Python API: ``simulate``, ``analyze`` and ``trace`` for every game.

    >>> import analysis as cardmc
    >>> df = cardmc.simulate("differenzler", games=10_000, seed=1, policy="calibrated")
    >>> tables = cardmc.analyze("differenzler", df)
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq

from analysis import driver, registry
from analysis.registry import UsageError

DEFAULT_BLOCK = 1 << 15


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
    **settings: object,
) -> pd.DataFrame | Path:
    """Simulate ``games`` games of ``game`` from ``seed``.

    Returns one row per seat per deal as a DataFrame, or, with ``out``, streams
    the rows to that Parquet (or .csv) file block by block (written atomically) and
    returns its path. Rule and simulation options are keyword arguments by
    their RULES.md names (``max_extra_deals=2``). Game i of seed s is the same
    whatever ``threads`` or block size.
    """
    spec, games, seed, players, policy, policies, full = _prepare(game, games, seed, policy, players, settings)
    start = driver.check_seed(start)
    driver.set_threads(threads)
    params = spec.params(full)
    block = int(spec.extra.get("block", DEFAULT_BLOCK))
    frames = driver.run_blocks(spec, games, seed, players, params, policies, block, start, progress)
    if out is None:
        parts = list(frames)
        df = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
        df.attrs.update(run_metadata(spec, games, seed, policy, players, full, start))
        return df
    sink = driver.sink_for(out, force=force)
    sink.metadata = run_metadata(spec, games, seed, policy, players, full, start)
    try:
        for df in frames:
            sink.write(df)
        return sink.commit()
    except BaseException:
        sink.abort()
        raise


def run_metadata(spec, games, seed, policy, players, settings, start=0) -> dict:
    from analysis import __version__

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
    """A cardmc Parquet file as a DataFrame, with the run metadata in ``attrs``."""
    path = Path(path)
    if not path.is_file():
        raise UsageError(f"no such file: {path}")
    try:
        pf = pq.ParquetFile(path)
    except Exception as exc:  # noqa: BLE001 - any unreadable file is a usage error here
        raise UsageError(f"{path} is not a readable Parquet file ({exc})") from None
    df = pf.read(columns=columns).to_pandas()
    meta = pf.schema_arrow.metadata or {}
    df.attrs.update({k.decode()[7:]: v.decode() for k, v in meta.items() if k.startswith(b"cardmc.")})
    return df


def analyze(game: str, data: pd.DataFrame | str | os.PathLike, **kwargs) -> dict[str, pd.DataFrame]:
    """The game's standard tables (every figure with its CI) from simulated rows
    (a DataFrame from ``simulate`` or the path of a Parquet file it wrote)."""
    spec = registry.get(game)
    df = data if isinstance(data, pd.DataFrame) else read(data)
    if "game" not in df.columns or not set(spec.columns) <= set(df.columns):
        missing = sorted(set(spec.columns) - set(df.columns))
        raise UsageError(f"these rows are not {game} results (missing columns {missing[:5]})")
    if df.attrs.get("game", game) != game:
        raise UsageError(f"this file holds {df.attrs['game']} results, not {game}")
    return spec.analyze(df, **kwargs)


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
    start = driver.check_seed(start)
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
