"""The solved tables of runs simulated with ``solve=True``, for every game.

Rows with the solver's columns (``cardmc.solve_deals``) give each game one
more table beside its own: ``solved_contracts`` (Schieber),
``solved_declarations`` (Differenzler), ``solved_sweeps`` (English Jazz),
``solved_deals`` (Norwegian Jazz). Each game's spec says how (its
``solved``: ``aggregate`` makes additive tables like every aggregate, so
chunks, workers and aggregate runs merge them with ``cardmc.aggregate.merge``,
and ``summarise`` reads any merge of them); ``cardmc.analyze`` shows them.
The helpers below are what those tables share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from cardmc import registry
from cardmc.registry import UsageError

if TYPE_CHECKING:  # the tables' rows come as DataFrames: a game's spec loads without pandas
    import pandas as pd


def has_solved(rows: pd.DataFrame) -> bool:
    """Do ``rows`` carry the solver's columns (``simulate(..., solve=True)``)?"""
    return any(str(c).startswith("solved_") for c in rows.columns)


def aggregate(game: str, rows: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The additive solved tables of ``game`` from rows simulated with
    ``solve=True`` (whole games, any split of them)."""
    return registry.get(game).solved.aggregate(rows)


def summarise(game: str, aggs: dict) -> dict[str, pd.DataFrame]:
    """The solved table of ``game`` from merged ``aggregate`` tables; {} when
    the aggregates carry none (a run without ``solve=True``)."""
    solved = registry.get(game).solved
    return {solved.table: solved.summarise(aggs)} if solved.table in aggs else {}


def tables(game: str, rows: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """``summarise(game, aggregate(game, rows))``, or {} for rows without solved columns."""
    return summarise(game, aggregate(game, rows)) if has_solved(rows) else {}


def need(rows: pd.DataFrame, game: str, columns) -> None:
    """UsageError when ``rows`` lack any of the solved ``columns``."""
    missing = [c for c in columns if c not in rows]
    if missing:
        raise UsageError(f"{game} rows without {', '.join(missing)}: simulate with solve=True")


def flag(hit) -> np.ndarray:
    """Booleans as int64 0/1, to count and sum."""
    return np.asarray(hit, dtype=bool).astype(np.int64)


def measure(name: str, d: dict) -> dict:
    """An estimate as a table row: ``measure``, estimate, se, ci_low, ci_high, n."""
    return {"measure": name, **{k: d[k] for k in ("estimate", "se", "ci_low", "ci_high", "n")}}
