"""Mergeable aggregates: what an analysis needs from many rows, kept small.

An aggregate is a dict ``{table name: DataFrame}``. Each table is indexed by
its group keys (sorted) and every column is additive: a count ``n``, a sum
``<value>_sum`` or a sum of squares ``<value>_sumsq``. Two aggregates
therefore merge by adding matching cells, and integer columns stay exact
(int64): when each chunk holds whole games, the merge of the chunks'
aggregates is identical to the aggregate of all rows, whatever the chunking
or order.

Every game (Differenzler, Schieber, English Jazz, Norwegian Jazz) supports
aggregate runs (``--aggregate``): its module defines ``aggregate(df) ->
{name: table}``, additive over any split of the rows into whole games (runs
are chunked by game, and files are read so that each game's rows come
together), and ``summarise(aggregates) -> {name: DataFrame}``, with
``analyze(df) = summarise(aggregate(df))``, so an aggregate run and the rows
give the same tables. A game added later supports it when its spec names the
two functions (``aggregate``, ``summarise``); otherwise ``--aggregate`` is refused.

Tables are built with ``counts`` (rows per group; a histogram when the last
key is a value) and ``moments`` (count, sum and sum of squares per group).
Summaries read them back: ``mean_table`` and ``proportion_table`` give the
columns of ``stats.grouped_mean`` and ``stats.grouped_proportion``;
``histogram_moments`` turns a histogram of integer values into moments,
``histogram_mean`` gives the mean of a histogram of real values and
``histogram_quantiles`` the quantiles of any histogram; ``events`` counts the
rows where a key holds and ``share`` gives their share per group.

Runs do not go through frames: a game's ``tally`` (``GridTally``) keeps its
tables as fixed grids of cells (``Grid``) that a jitted pass over each block
of rows fills (``cardmc.kernels.tally``), and builds the tables once, equal to
``aggregate(frame(rows))``; ``tally_frame`` does the same for a frame.
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable

import numpy as np
import pandas as pd

from cardmc import files, stats
from cardmc.kernels.jit import in_threads
from cardmc.registry import GameSpec, UsageError, join_spans

if TYPE_CHECKING:  # pyarrow.parquet takes 60-90 ms to load: only the writing and reading of a file load it
    import pyarrow as pa

EXACT = 2.0**53  # float64 sums of integers are exact below this
META_KEY = b"cardmc.aggregates"


class Aggregates(dict):
    """Aggregate tables by name, with the run's metadata in ``attrs``."""

    def __init__(self, tables: dict | None = None, attrs: dict | None = None):
        super().__init__(tables or {})
        self.attrs: dict = dict(attrs or {})


# ------------------------------------------------------------ accumulators


def _key_codes(col: pd.Series) -> tuple[np.ndarray, pd.Index]:
    """Codes 0..k-1 (-1: missing) and the k key values they stand for."""
    dtype = col.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        cats = dtype.categories
        return col.cat.codes.to_numpy(), pd.Index(np.asarray(cats), dtype=cats.dtype)
    if pd.api.types.is_bool_dtype(dtype):
        return col.to_numpy().astype(np.int8), pd.Index([False, True], dtype=bool)
    if pd.api.types.is_integer_dtype(dtype) and len(col):
        v = col.to_numpy()
        lo, hi = int(v.min()), int(v.max())
        if hi - lo < 1 << 20:
            return (v - v.dtype.type(lo)) if lo else v, key_values(dtype, lo, hi - lo + 1)
    codes, uniques = pd.factorize(col, sort=True)
    return codes, pd.Index(uniques)


@functools.lru_cache(maxsize=256)  # an Index is immutable: the same one serves every table and run
def key_values(dtype, lo: int = 0, size: int = 0) -> pd.Index:
    """The key values codes 0..size-1 stand for in a column of ``dtype``: a
    categorical's categories, False and True, or the integers lo..lo+size-1."""
    if isinstance(dtype, pd.CategoricalDtype):
        cats = dtype.categories
        return pd.Index(np.asarray(cats), dtype=cats.dtype)
    if pd.api.types.is_bool_dtype(dtype):
        return pd.Index([False, True], dtype=bool)
    return pd.Index(np.arange(lo, lo + size).astype(dtype))


def _cells(df: pd.DataFrame, by: list[str], keep: np.ndarray | None):
    """One cell number per kept row, and per key its codes and values (to decode cells)."""
    rows = len(df) if keep is None else int(keep.sum())
    code = np.zeros(rows, dtype=np.int64)
    size = 1
    parts, values, sizes = [], [], []
    missing = np.zeros(rows, dtype=bool)
    for name in by:
        c, vals = _key_codes(df[name])
        if keep is not None:
            c = c[keep]
        if len(c) and c.min() < 0:
            missing |= c < 0
        parts.append(c)
        values.append(vals)
        sizes.append(max(len(vals), 1))
        code *= sizes[-1]
        code += c
        size *= sizes[-1]
        if size > 1 << 40:  # keep cell numbers small: renumber the cells seen so far
            seen, code = np.unique(code, return_inverse=True)
            size, sizes = len(seen), None
    return code, size, parts, values, missing, sizes


def moments(
    df: pd.DataFrame, by: list[str], values: Iterable[str] = (), where: np.ndarray | pd.Series | None = None
) -> pd.DataFrame:
    """Per group of ``by`` (rows where ``where`` is true; missing keys left
    out): the count ``n`` and, per value column, its sum and sum of squares
    (int64 for integer columns, exactly; else float64). Sorted by the keys."""
    by, values = list(by), list(values)
    for name in by + values:
        if name not in df.columns:
            raise UsageError(f"no column {name!r} to aggregate")
    keep = None if where is None else np.asarray(where, dtype=bool)
    code, size, parts, keyvals, missing, sizes = _cells(df, by, keep)
    cols = {name: df[name].to_numpy() if keep is None else df[name].to_numpy()[keep] for name in values}
    if missing.any():
        ok = ~missing
        code, parts = code[ok], [p[ok] for p in parts]
        cols = {name: v[ok] for name, v in cols.items()}
    if size <= max(1 << 22, 4 * len(code)):
        counts = np.bincount(code, minlength=size)
        cells = np.flatnonzero(counts)
        index = np.full(size, -1, dtype=np.int64)
        index[cells] = np.arange(len(cells))
        slot = index[code]
        n = counts[cells]
    else:
        cells, slot, n = np.unique(code, return_inverse=True, return_counts=True)
    out = {"n": n.astype(np.int64)}
    for name, v in cols.items():
        out[f"{name}_sum"], out[f"{name}_sumsq"] = _sums(v, slot, len(cells))
    if by and sizes is None:  # renumbered cells: decode each from one of its rows
        first = np.zeros(len(cells), dtype=np.int64)
        first[slot] = np.arange(len(slot))
        key_codes = [p[first] for p in parts]
    else:
        key_codes = np.unravel_index(cells, sizes) if by else []
    return _table(out, by, [vals[c] for c, vals in zip(key_codes, keyvals)], len(cells))


def _table(columns: dict, by: list[str], keys: list[pd.Index], cells: int) -> pd.DataFrame:
    """A table of ``columns`` indexed by the key values of its cells, sorted by them."""
    if by:
        index = pd.MultiIndex.from_arrays(keys, names=by) if len(by) > 1 else pd.Index(keys[0], name=by[0])
    else:
        index = pd.RangeIndex(cells)
    return pd.DataFrame(columns, index=index).sort_index()


def _coded_table(
    columns: dict, by: list[str], values: list[pd.Index], codes: list[np.ndarray]
) -> pd.DataFrame:
    """``_table`` for cells given per key as codes into ``values`` (each
    key's possible values, in code order), built from the codes: the same
    table, without factorising each key's values again and sorting through
    pandas (most of a small run's time, ``Grid.frames``)."""
    if not by:
        return _table(columns, by, [], len(next(iter(columns.values()))))
    levels, level_codes = [], []
    for vals, c in zip(values, codes):
        present = np.unique(c)
        seen = vals.take(present)
        order = np.argsort(seen.to_numpy(), kind="stable")  # as factorising: the values present, sorted
        place = np.empty(len(vals), np.int64)
        place[present[order]] = np.arange(len(present))
        levels.append(seen.take(order))
        level_codes.append(place[c])
    rank = np.lexsort(level_codes[::-1])
    columns = {name: v[rank] for name, v in columns.items()}
    if len(by) == 1:
        index = pd.Index(levels[0].take(level_codes[0][rank]), name=by[0])
    else:
        index = pd.MultiIndex(
            levels=levels, codes=[c[rank] for c in level_codes], names=by, verify_integrity=False
        )
    return pd.DataFrame(columns, index=index)


def _sums(v: np.ndarray, slot: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    if v.dtype.kind in "iub":
        big = float(np.abs(v).max()) if len(v) else 0.0
        if big * big * max(len(v), 1) < EXACT:
            w = v.astype(np.float64)
            s = np.rint(np.bincount(slot, weights=w, minlength=k)).astype(np.int64)
            q = np.rint(np.bincount(slot, weights=w * w, minlength=k)).astype(np.int64)
            return s, q
        w = v.astype(np.int64)
        s, q = np.zeros(k, np.int64), np.zeros(k, np.int64)
        np.add.at(s, slot, w)
        np.add.at(q, slot, w * w)
        return s, q
    w = v.astype(np.float64)
    return np.bincount(slot, weights=w, minlength=k), np.bincount(slot, weights=w * w, minlength=k)


def counts(df: pd.DataFrame, by: list[str], where=None) -> pd.DataFrame:
    """Rows per group of ``by`` (an integer histogram when ``by`` ends with a
    value column)."""
    return moments(df, by, (), where)


# ------------------------------------------------------------------ merging


def merge_tables(a: pd.DataFrame, b: pd.DataFrame) -> pd.DataFrame:
    """Cell-wise sum of two tables with the same columns."""
    if list(a.columns) != list(b.columns):
        raise UsageError(f"cannot merge tables with columns {list(a.columns)} and {list(b.columns)}")
    both = pd.concat([a, b])
    if isinstance(a.index, pd.RangeIndex) and a.index.name is None:  # a table without keys
        return pd.DataFrame({c: [both[c].sum()] for c in a.columns}).astype(a.dtypes.to_dict())
    return both.groupby(level=list(range(both.index.nlevels)), sort=True).sum()


def merge(*parts: dict) -> Aggregates:
    """The sum of several aggregates (tables present in any of them)."""
    out = Aggregates(attrs=getattr(parts[0], "attrs", {}) if parts else {})
    for part in parts:
        for name, table in part.items():
            out[name] = merge_tables(out[name], table) if name in out else table
    return out


# ------------------------------------------------------------ save and load


def _plain(value):
    return value.item() if isinstance(value, np.generic) else value


def to_arrow(aggs: dict, metadata: dict | None = None) -> pa.Table:
    """The aggregates as one Arrow table: a row per cell (table, JSON key,
    integer and float columns), the layout in the schema metadata."""
    import pyarrow as pa

    names, keys, ints, floats = [], [], [], []
    layout = {}
    for name, table in aggs.items():
        if table.columns.has_duplicates:
            raise UsageError(f"aggregate table {name!r} has duplicate columns")
        idx = table.index
        keyless = isinstance(idx, pd.RangeIndex) and idx.name is None
        levels = [] if keyless else [idx.get_level_values(i) for i in range(idx.nlevels)]
        int_cols = [c for c in table.columns if table[c].dtype.kind in "iub"]
        float_cols = [c for c in table.columns if c not in int_cols]
        key_types = [[lv.name, str(lv.dtype)] for lv in levels]
        layout[name] = {"keys": key_types, "ints": int_cols, "floats": float_cols}
        key_lists = list(zip(*[[_plain(v) for v in lv] for lv in levels])) if levels else [()] * len(table)
        names += [name] * len(table)
        keys += [json.dumps(list(k)) for k in key_lists]
        ints += table[int_cols].to_numpy(dtype=np.int64).tolist() if int_cols else [[]] * len(table)
        floats += table[float_cols].to_numpy(dtype=np.float64).tolist() if float_cols else [[]] * len(table)
    arrow = pa.table(
        {
            "table": pa.array(names, pa.string()),
            "key": pa.array(keys, pa.string()),
            "ints": pa.array(ints, pa.list_(pa.int64())),
            "floats": pa.array(floats, pa.list_(pa.float64())),
        }
    )
    meta = {META_KEY: json.dumps(layout).encode()}
    meta.update({f"cardmc.{k}".encode(): str(v).encode() for k, v in (metadata or {}).items()})
    return arrow.replace_schema_metadata(meta)


def from_arrow(arrow: pa.Table) -> Aggregates:
    meta = arrow.schema.metadata or {}
    if META_KEY not in meta:
        raise UsageError("this Parquet file holds no cardmc aggregates")
    layout = json.loads(meta[META_KEY])
    cols = arrow.to_pydict()
    rows: dict[str, list[int]] = {name: [] for name in layout}
    for i, name in enumerate(cols["table"]):
        rows[name].append(i)
    out = Aggregates(
        attrs={
            k.decode()[7:]: v.decode() for k, v in meta.items() if k.startswith(b"cardmc.") and k != META_KEY
        }
    )
    for name, spec in layout.items():
        at = rows[name]
        data = {}
        for j, c in enumerate(spec["ints"]):
            data[c] = np.array([cols["ints"][i][j] for i in at], dtype=np.int64)
        for j, c in enumerate(spec["floats"]):
            data[c] = np.array([cols["floats"][i][j] for i in at], dtype=np.float64)
        if spec["keys"]:
            keyrows = [json.loads(cols["key"][i]) for i in at]
            arrays = [
                pd.Index([k[j] for k in keyrows], dtype=object).astype(dtype, copy=False)
                for j, (_, dtype) in enumerate(spec["keys"])
            ]
            names = [n for n, _ in spec["keys"]]
            if len(names) > 1:
                index = pd.MultiIndex.from_arrays(arrays, names=names)
            else:
                index = arrays[0].rename(names[0])
        else:
            index = pd.RangeIndex(len(at))
        columns = spec["ints"] + spec["floats"]
        out[name] = pd.DataFrame(data, index=index, columns=columns)
    return out


def save(aggs: dict, path: str | os.PathLike, metadata: dict | None = None) -> Path:
    """Write aggregates to a Parquet file atomically (``files.atomic``)."""
    import pyarrow.parquet as pq

    with files.atomic(path, force=True) as tmp:
        pq.write_table(to_arrow(aggs, metadata), tmp, compression="zstd")
    return Path(path)


def load(path: str | os.PathLike) -> Aggregates:
    """Aggregates saved by ``save`` (``UsageError`` if the file holds none)."""
    import pyarrow.parquet as pq

    try:
        arrow = pq.read_table(path)
    except Exception as exc:  # noqa: BLE001 - any unreadable file is a usage error here
        raise UsageError(f"{path} is not a readable Parquet file ({exc})") from None
    return from_arrow(arrow)


def is_aggregate_file(path: str | os.PathLike) -> bool:
    import pyarrow.parquet as pq

    try:
        meta = pq.read_schema(path).metadata or {}
    except Exception:  # noqa: BLE001
        return False
    return META_KEY in meta


# ------------------------------------------------------------- summaries


def _exact_var(n: np.ndarray, s: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Sample variance from count, sum and sum of squares; exact numerator
    for integer sums (Python ints, no overflow)."""
    out = np.full(len(n), np.nan)
    for i, (ni, si, qi) in enumerate(zip(n.tolist(), s.tolist(), q.tolist())):
        if ni > 1:
            if isinstance(si, int) and isinstance(qi, int):
                out[i] = (ni * qi - si * si) / (ni * (ni - 1))
            else:
                out[i] = max(qi - si * si / ni, 0.0) / (ni - 1)
    return out


def mean_table(table: pd.DataFrame, value: str) -> pd.DataFrame:
    """estimate, se, ci_low, ci_high, n of the mean of ``value`` per row of a
    moments table (the columns of ``stats.grouped_mean``)."""
    n = table["n"].to_numpy()
    s, q = table[f"{value}_sum"].to_numpy(), table[f"{value}_sumsq"].to_numpy()
    with np.errstate(invalid="ignore", divide="ignore"):
        est = s / n
        se = np.sqrt(_exact_var(n, s, q)) / np.sqrt(n)
    half = stats.Z95 * se
    return pd.DataFrame(
        {"estimate": est, "se": se, "ci_low": est - half, "ci_high": est + half, "n": n.astype(np.int64)},
        index=table.index,
    )


def proportion_table(n, events, index) -> pd.DataFrame:
    """estimate, se, ci_low, ci_high, n, events (the columns of
    ``stats.grouped_proportion``), Wilson intervals."""
    n = np.asarray(n, dtype=np.int64)
    events = np.asarray(events, dtype=np.int64)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = events / n
        lo, hi = stats.wilson(events, n)
        se = np.sqrt(p * (1 - p) / n)
    return pd.DataFrame(
        {"estimate": p, "se": se, "ci_low": lo, "ci_high": hi, "n": n, "events": events}, index=index
    )


def histogram_moments(table: pd.DataFrame, value: str, by: list[str]) -> pd.DataFrame:
    """A moments table keyed by ``by`` from a histogram (a ``counts`` table
    whose keys include the integer column ``value``): ``n``,
    ``<value>_sum`` and ``<value>_sumsq``, exactly (int64)."""
    t = table.reset_index()
    v = t[value].astype(np.int64)
    t = t.assign(**{f"{value}_sum": v * t["n"], f"{value}_sumsq": v * v * t["n"]})
    return _group_sums(t, by, ["n", f"{value}_sum", f"{value}_sumsq"]).astype(np.int64)


def histogram_mean(hist: pd.DataFrame, value: str, by: list[str]) -> pd.DataFrame:
    """The columns of ``stats.grouped_mean`` per group of ``by`` (one row when ``by`` is empty) from a
    histogram of real values: a frame with the columns ``*by``, ``value`` and its count ``n``. The mean
    comes first, then the variance about it, so no float sum of squares is needed."""
    t = hist.assign(weighted=hist["n"] * hist[value])
    with np.errstate(invalid="ignore", divide="ignore"):
        if by:
            g = t.groupby(by, observed=True, sort=True)
            mean = g["weighted"].transform("sum") / g["n"].transform("sum")
        else:
            mean = t["weighted"].sum() / t["n"].sum()
        t["dev"] = t["n"] * (t[value] - mean) ** 2
        sums = _group_sums(t, by, ["n", "weighted", "dev"])
        count = sums["n"].to_numpy()
        est = sums["weighted"].to_numpy() / count
        se = np.sqrt(sums["dev"].to_numpy() / (count - 1)) / np.sqrt(count)
    half = stats.Z95 * se
    return pd.DataFrame(
        {"estimate": est, "se": se, "ci_low": est - half, "ci_high": est + half, "n": count.astype(np.int64)},
        index=sums.index,
    )


def _group_sums(t: pd.DataFrame, by: list[str], columns: list[str]) -> pd.DataFrame:
    """Sums of ``columns`` per group of ``by``, sorted (one row when ``by`` is empty)."""
    if not by:
        return pd.DataFrame({c: [t[c].sum()] for c in columns})
    return t.groupby(by, observed=True, sort=True)[columns].sum()


def _hits(table: pd.DataFrame, key, value) -> np.ndarray:
    """Per cell of a counts table: its ``n`` where ``key`` equals ``value``, else 0 (int64)."""
    if isinstance(key, str):
        key = table[key] if key in table.columns else table.index.get_level_values(key)
    return np.where(np.asarray(key == value), table["n"].to_numpy(np.int64), 0)


def events(table: pd.DataFrame, key, value=True) -> int:
    """How many of the rows a counts table stands for have ``key`` equal to ``value`` (by default: true or 1).
    ``key`` names one of its keys (an index level or a column), or gives a value per cell, in its order."""
    return int(_hits(table, key, value).sum())


def share(table: pd.DataFrame, by: list[str], key, value=True) -> pd.DataFrame:
    """The columns of ``stats.grouped_proportion`` per group of ``by`` (keys of a counts table, as index
    levels or columns): the share of the rows with ``key`` equal to ``value``, as in ``events``."""
    t = table.assign(events=_hits(table, key, value))
    g = t.groupby(by, observed=True, sort=True)[["n", "events"]].sum()
    return proportion_table(g["n"], g["events"], g.index)


def histogram_quantiles(
    values: np.ndarray, weights: np.ndarray, qs=(0.05, 0.25, 0.5, 0.75, 0.95)
) -> pd.Series:
    """``stats.quantiles`` (linear interpolation, as ``np.quantile``) of the
    values a histogram stands for, without expanding it."""
    order = np.argsort(values, kind="stable")
    v = np.asarray(values, dtype=float)[order]
    cum = np.cumsum(np.asarray(weights, dtype=np.int64)[order])
    total = int(cum[-1])
    out = []
    for q in qs:
        h = (total - 1) * q
        lo = int(np.floor(h))
        a = v[np.searchsorted(cum, lo, side="right")]
        b = v[np.searchsorted(cum, min(lo + 1, total - 1), side="right")]
        t = h - lo
        out.append(a + (b - a) * t if t < 0.5 else b - (b - a) * (1 - t))
    return pd.Series(out, index=[f"q{int(q * 100):02d}" for q in qs])


# ------------------------------------------------------------ game support


class Tally:
    """The aggregates of whole games, added block by block from the kernel's
    row arrays (``add``), read once at the end (``result``).

    This one goes through the game's frame and ``aggregate(df)``; a game may
    give a faster one with the same results as ``spec.tally``."""

    def __init__(self, spec: GameSpec, players: int, params: np.ndarray):
        self.spec, self.players, self.params = spec, players, params
        self.aggregate = require(spec)[0]
        self.total: dict | None = None
        self.rows = 0

    def add(self, rows: np.ndarray, spans: np.ndarray | None = None) -> None:
        """Adds the games of ``rows`` (with ``spans``: the rows of
        ``registry.join_spans(rows, spans)``, which may move them)."""
        rows = rows if spans is None else join_spans(rows, spans)
        part = self.aggregate(self.spec.frame(rows))
        self.total = part if self.total is None else merge(self.total, part)
        self.rows += len(rows)

    def result(self) -> Aggregates:
        return Aggregates(self.total)


class Grid:
    """Aggregate tables as fixed grids of int64 cells in one flat array.

    ``tables`` lists ``(name, keys, values)``; each key is ``(column, dtype,
    lowest value, values)`` (a categorical dtype stands for its codes, bool for
    0 and 1). A table takes, at its offset ``at[t]``, a count per cell (cells
    numbered row-major over its keys), then per value a sum and a sum of
    squares per cell: the layout the kernels of ``cardmc.kernels.tally`` fill."""

    def __init__(self, tables: list[tuple[str, list[tuple], list[str]]]):
        self.tables = [(name, list(keys), list(values)) for name, keys, values in tables]
        self.at = np.zeros(len(self.tables), np.int64)
        size = 0
        for t, (_, keys, values) in enumerate(self.tables):
            self.at[t] = size
            size += int(np.prod([k[3] for k in keys])) * (1 + 2 * len(values))
        self.size = size

    def frames(self, acc: np.ndarray) -> dict[str, pd.DataFrame]:
        """The tables of the cells in ``acc``, as ``moments`` and ``counts`` give them from rows."""
        out = {}
        for at, (name, keys, values) in zip(self.at.tolist(), self.tables):
            shape = [k[3] for k in keys]
            cells = int(np.prod(shape))
            block = acc[at : at + cells * (1 + 2 * len(values))].reshape(1 + 2 * len(values), cells)
            seen = np.flatnonzero(block[0])
            columns = {"n": block[0, seen]}
            for i, value in enumerate(values):
                columns[f"{value}_sum"], columns[f"{value}_sumsq"] = (
                    block[1 + 2 * i, seen],
                    block[2 + 2 * i, seen],
                )
            codes = np.unravel_index(seen, shape)
            values = [key_values(dtype, lo, size) for _, dtype, lo, size in keys]
            out[name] = _coded_table(columns, [k[0] for k in keys], values, list(codes))
        return out


class GridTally(Tally):
    """A game's aggregates tallied by a jitted kernel into a ``Grid`` (see
    ``cardmc.kernels.tally``): each block's rows are split into whole games,
    one share per thread of the run (side by side on Python threads: the
    kernel releases the GIL), each share fills its own cells, and the shares are added
    (integers, so exactly and in any order); the tables are built once, at
    ``result``. A run tallies each slice of games on the thread that played
    it, right after, while its rows are in the core's cache (``block``): on
    two threads, 2-14% less time than reading the block's rows back from
    memory afterwards. A block the kernel cannot place (a key out of its
    grid, rows not in whole deals) goes through the game's ``aggregate``
    instead."""

    def __init__(self, spec: GameSpec, players: int, params: np.ndarray, grid: Grid, kernel, dims=()):
        super().__init__(spec, players, params)
        self.grid, self.kernel = grid, kernel
        self.dims = np.asarray(dims, dtype=np.int64).reshape(-1)
        self.acc = np.zeros(grid.size, np.int64)
        self.shares = np.zeros((0, grid.size), np.int64)  # per thread: the cells its slices were tallied into
        self.spilled = 0
        self.fused = None  # the slices of the block being played, tallied one by one (``block``)

    def block(self, threads: int, n: int = 0):
        """The kernel's ``after(p, rows, lo, hi)`` for the next block (of
        ``n`` games): share ``p`` tallies each slice's rows on its thread as
        soon as they are written, into the cells it keeps for the whole run
        (no grid zeroed and summed per block: with a large grid that cost
        more than small blocks gain). ``add`` keeps the block's slices if
        they hold all its rows and all fitted; else it takes them out again
        (tallies them once more and subtracts: integers, exactly) and
        tallies the block itself, as without."""
        if len(self.shares) < threads:
            more = np.zeros((threads - len(self.shares), self.grid.size), np.int64)
            self.shares = np.concatenate([self.shares, more])
        cells = self.shares
        counts = np.zeros((threads, 2), np.int64)  # per share: rows tallied, rows that did not fit
        tallied = []  # (rows, lo, hi) of each slice tallied
        at, dims, kernel = self.grid.at, self.dims, self.kernel

        def after(p: int, rows: np.ndarray, lo: int, hi: int) -> None:
            counts[p, 1] += kernel(rows, lo, hi, cells[p], at, dims)
            counts[p, 0] += hi - lo
            tallied.append((rows, lo, hi))

        self.fused = tallied, counts
        return after

    def add(self, rows: np.ndarray, spans: np.ndarray | None = None) -> None:
        """Adds the games of ``rows`` (with ``spans``, the rows of
        ``registry.join_spans(rows, spans)``, read where they are)."""
        import numba

        from cardmc.kernels.tally import split

        fused, self.fused = self.fused, None
        if fused is not None:
            tallied, counts = fused
            if spans is not None and counts[:, 1].sum() == 0 and counts[:, 0].sum() == int(spans[:, 1].sum()):
                self.rows += int(spans[:, 1].sum())
                return
            undo = np.zeros(self.grid.size, np.int64)
            for slice_rows, lo, hi in tallied:
                self.kernel(slice_rows, lo, hi, undo, self.grid.at, self.dims)
            if tallied:
                self.shares[0] -= undo
        rows = np.ascontiguousarray(rows, dtype=np.int32)
        threads = numba.get_num_threads()
        if spans is None:
            cuts = split(rows, max(1, min(threads, len(rows) >> 12)))
            ranges = np.stack([cuts[:-1], cuts[1:]], axis=1)
        else:  # each span holds whole games: the shares are runs of spans
            ranges = np.stack([spans[:, 0], spans[:, 0] + spans[:, 1]], axis=1)
        shares = span_shares(ranges[:, 1] - ranges[:, 0], threads)
        cells = np.zeros((len(shares) - 1, self.grid.size), np.int64)
        at, dims = self.grid.at, self.dims

        def tally(p: int) -> int:
            return sum(
                self.kernel(rows, lo, hi, cells[p], at, dims) for lo, hi in ranges[shares[p] : shares[p + 1]]
            )

        misfit = sum(in_threads(tally, len(shares) - 1))
        n = int((ranges[:, 1] - ranges[:, 0]).sum())
        if misfit:
            part = self.aggregate(self.spec.frame(rows if spans is None else join_spans(rows, spans)))
            self.total = part if self.total is None else merge(self.total, part)
            self.spilled += n
        else:
            self.acc += cells[0] if len(cells) == 1 else cells.sum(axis=0)
        self.rows += n

    def result(self) -> Aggregates:
        acc = self.acc + self.shares.sum(axis=0)
        if self.total is None:
            return Aggregates(self.grid.frames(acc))
        if self.spilled == self.rows:
            return Aggregates(self.total)
        return merge(self.grid.frames(acc), self.total)


def span_shares(sizes: np.ndarray, threads: int) -> np.ndarray:
    """Bounds of at most ``threads`` runs of consecutive spans of about equal
    rows (``sizes``: each span's rows), a run at least ``1 << 12`` rows
    where there are enough."""
    total = int(sizes.sum())
    shares = max(1, min(threads, total >> 12, len(sizes)))
    ends = np.cumsum(sizes)
    cuts = np.searchsorted(ends, [total * p // shares for p in range(1, shares)], side="left") + 1
    return np.unique(np.concatenate([[0], np.minimum(cuts, len(sizes)), [len(sizes)]]))


FRAME_PIECE = 1 << 18  # rows a frame is tallied by at a time (``tally_frame``)


def tally_frame(spec: GameSpec, columns, df: pd.DataFrame, players: int | None = None) -> Aggregates | None:
    """``aggregate(df)`` through the game's tally, for a frame as the game's
    ``frame`` makes it (``columns``: its ``frames.Columns``) with its games in
    order; None for any other frame, or one the tally cannot place, so that
    the caller aggregates it with pandas. The frame goes back to rows a piece
    of whole games at a time."""
    if spec.tally is None or not len(df):
        return None
    arrays = columns.arrays(df)
    if arrays is None or (np.diff(arrays[0]) < 0).any():
        return None
    game = arrays[0]
    acc = tally(spec, players or spec.default_players, spec.params(spec.settings({})))
    cuts = [int(np.searchsorted(game, game[at], "left")) for at in range(FRAME_PIECE, len(game), FRAME_PIECE)]
    bounds = sorted({0, *cuts, len(game)})
    for lo, hi in zip(bounds, bounds[1:]):
        acc.add(columns.rows(arrays, lo, hi))
        if getattr(acc, "spilled", 0):
            return None
    return acc.result()


def tally(spec: GameSpec, players: int, params: np.ndarray) -> Tally:
    """The accumulator of ``spec``'s aggregates for one run's blocks."""
    return (spec.tally or Tally)(spec, players, params)


def functions(spec: GameSpec) -> tuple[Callable, Callable] | None:
    """The game's ``(aggregate, summarise)``, or None if it has none."""
    return (spec.aggregate, spec.summarise) if spec.aggregate and spec.summarise else None


def require(spec: GameSpec) -> tuple[Callable, Callable]:
    found = functions(spec)
    if found is None:
        raise UsageError(f"{spec.name} has no aggregate analysis yet: run it without --aggregate")
    return found
