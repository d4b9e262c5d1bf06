"""The kernels' row blocks as DataFrames: one array per column, no copies after the split.

A game's ``frame(rows)`` is ``Columns(...)(rows)``: one jitted pass
(``cardmc.kernels.columns.split_rows``, shares of the rows side by side on
the run's threads) writes each column of the row-major int32
block into its own array of the column's dtype (int8 to int64, or a
categorical's int8 codes), and the DataFrame takes those arrays as they are.
A run in memory splits each block as it comes straight into the run's
column arrays, and makes one frame of them at the end (``Gather``).

Those arrays are fresh memory the size of the frame, and its first touch
costs as much as the split: they are mapped on the system's small pages
(``small_pages``).
"""

from __future__ import annotations

import functools
import mmap
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numba
import numpy as np

from cardmc.kernels import columns as kc
from cardmc.kernels.jit import in_threads

if TYPE_CHECKING:  # loaded with the first frame: a game's module and spec load without pandas
    import pandas as pd

WIDTHS = (np.int8, np.int16, np.int32, np.int64)
SMALL_PAGES_FROM = 1 << 22  # bytes


def small_pages(shape: tuple, dtype) -> np.ndarray:
    """An uninitialised array on the system's small pages, for the columns of a
    frame. numpy asks for huge pages for large arrays; where the system makes
    them on demand, the first touch of a few hundred MB took 0.05-1 s from
    run to run (it waits for the system to compact memory), against a steady
    0.13 s on small pages. ``cardmc.simulate("norwegian_jazz", games=200_000,
    players=7, policy="random")``, 320 MB of columns, five runs each: 1 thread
    0.91-0.95 s against 1.15-1.19 s; 2 threads 0.47-0.50 s against
    0.43-1.03 s. The map is private: a shared anonymous map is shared
    memory, whose pages take a fifth longer to fault in and scale worse
    over threads (186 MB: 0.065 s on one thread and 0.037 s on two, against
    0.080 s and 0.050 s shared). Small arrays come from numpy."""
    size = int(np.prod(shape)) * np.dtype(dtype).itemsize
    if size < SMALL_PAGES_FROM:
        return np.empty(shape, dtype)
    private = {"flags": mmap.MAP_PRIVATE} if hasattr(mmap, "MAP_PRIVATE") else {}  # (not on Windows)
    return np.frombuffer(mmap.mmap(-1, size, **private), dtype).reshape(shape)


@dataclass(frozen=True)
class Categories:
    """A categorical column of at most 127 ``names`` (its code is the row's
    value, -1 for missing), a ``pd.CategoricalDtype`` of them in the frames."""

    names: tuple


class Columns:
    """How a game's rows become a DataFrame: ``dtypes`` maps each column (in
    the kernel's order) to an integer dtype or ``Categories``; the attribute
    ``dtypes`` holds the frames' dtypes, made on first use (a game's module
    loads without pandas); ``cards`` names categorical columns whose row value
    is a card of the 36-card deck."""

    def __init__(self, columns, dtypes: dict, cards=()):
        self.columns = list(columns)
        self.given = {name: dtypes[name] for name in self.columns}
        widths = [np.dtype(np.int8 if isinstance(d, Categories) else d).type for d in self.given.values()]
        self.kinds = [WIDTHS.index(w) for w in widths]
        self.picks = [
            np.array([j for j, kind in enumerate(self.kinds) if kind == k], np.int64)
            for k in range(len(WIDTHS))
        ]
        self.slots = [int(np.flatnonzero(self.picks[k] == j)[0]) for j, k in enumerate(self.kinds)]
        self.cards = np.array([self.slots[self.columns.index(name)] for name in cards], np.int64)
        self.card_names = set(cards)

    @functools.cached_property
    def dtypes(self) -> dict:
        import pandas as pd

        return {
            name: pd.CategoricalDtype(list(d.names)) if isinstance(d, Categories) else d
            for name, d in self.given.items()
        }

    def __call__(self, rows: np.ndarray) -> pd.DataFrame:
        gather = Gather(self)
        gather.add(rows)
        return gather.frame()

    def arrays(self, df: pd.DataFrame) -> list[np.ndarray] | None:
        """Per column, the values the rows held (a categorical's codes, a card
        column's cards), for a frame as this makes it; None for any other frame
        (other columns or dtypes, a missing card, a value beyond int32)."""
        import pandas as pd

        if list(df.columns) != self.columns:
            return None
        out = []
        for name, dtype in self.dtypes.items():
            col = df[name]
            if col.dtype != dtype or (
                isinstance(dtype, pd.CategoricalDtype)
                and col.dtype.categories.dtype != dtype.categories.dtype
            ):
                return None
            if isinstance(dtype, pd.CategoricalDtype):
                values = col.cat.codes.to_numpy()
                if name in self.card_names:
                    if len(values) and values.min() < 0:
                        return None
                    values = values.astype(np.int32)
                    values = values // 9 * 16 + values % 9 + 4
            else:
                values = col.to_numpy()
                if (
                    values.dtype.itemsize > 4
                    and len(values)
                    and not -(1 << 31) <= values.min() <= values.max() < 1 << 31
                ):
                    return None
            out.append(values)
        return out

    @staticmethod
    def rows(arrays: list[np.ndarray], lo: int, hi: int) -> np.ndarray:
        """Rows lo..hi-1 of ``arrays`` (from ``arrays``) as the kernel wrote them: int32, row-major."""
        out = np.empty((hi - lo, len(arrays)), np.int32)
        for j, values in enumerate(arrays):
            out[:, j] = values[lo:hi]
        return out


class Gather:
    """The blocks of one run split straight into one set of column arrays
    (``add``, in game order), then one DataFrame of them (``frame``): no
    per-block frames and no join. The arrays grow, rarely, from an estimate
    of the run's rows (``games``: the run's games, ``add``'s ``n``: the
    block's), and the frame takes views of their filled part.

    Where every game writes the same ``dense`` rows, one game after another
    (English Jazz, Norwegian Jazz), a block's place among the columns is
    known before it is played, and each slice of games is split on the thread
    that played it, right after, while its rows are in the core's cache
    (``block``)."""

    def __init__(self, columns: Columns, games: int = 0, dense: int = 0):
        self.columns, self.games, self.dense = columns, games, dense
        self.outs = [np.empty((len(p), 0), w) for p, w in zip(columns.picks, WIDTHS)]
        self.rows = self.done = 0
        self.fused = None  # rows split by the slices of the block being played (``block``)

    def block(self, threads: int, n: int):
        """The kernel's ``after(p, rows, lo, hi)`` for the next block, of
        ``n`` games, when games write ``dense`` rows each: a slice's rows
        lo..hi-1 go into the columns from the block's place on; ``add`` then
        takes them if they are all its rows (else it splits the block itself,
        over them). None when games do not."""
        if not self.dense:
            return None
        self._reserve(self.rows + n * self.dense, self.done + n)
        columns, outs, at = self.columns, self.outs, self.rows
        counts = np.zeros(threads, np.int64)

        def after(p: int, rows: np.ndarray, lo: int, hi: int) -> None:
            kc.split_rows(rows, lo, hi, *columns.picks, columns.cards, *outs, at)
            counts[p] += hi - lo

        self.fused = counts
        return after

    def add(self, rows: np.ndarray, n: int = 0, spans: np.ndarray | None = None) -> None:
        """Adds ``rows``, the rows of ``n`` games; with ``spans``, the rows
        of ``registry.join_spans(rows, spans)``, read where they are."""
        columns = self.columns
        fused, self.fused = self.fused, None
        rows = np.ascontiguousarray(rows, dtype=np.int32)
        if rows.ndim != 2 or rows.shape[1] != len(columns.columns):
            raise ValueError(f"rows should have {len(columns.columns)} columns, not shape {rows.shape}")
        if spans is None:
            spans = np.array([[0, len(rows)]], np.int64)
        count = int(spans[:, 1].sum())
        need = self.rows + count
        self.done += n
        if fused is not None and len(spans) == 1 and spans[0, 0] == 0 and fused.sum() == count:
            self.rows = need  # split slice by slice as they were played
            return
        self._reserve(need, self.done)
        # each span's rows go to their place among the columns: cut into one share a thread
        places = self.rows + np.cumsum(spans[:, 1]) - spans[:, 1]
        shares = max(1, min(numba.get_num_threads(), count // kc.SHARE_ROWS))
        outs = self.outs

        def split(p: int) -> None:
            lo, hi = count * p // shares, count * (p + 1) // shares  # this share's rows of the joined block
            for (first, m), place in zip(spans.tolist(), places.tolist()):
                a, b = max(lo, place - self.rows), min(hi, place - self.rows + m)
                if a < b:  # rows a..b-1 of the joined block are rows a..b-1 - (place - first) here
                    shift = place - first
                    kc.split_rows(
                        rows,
                        a - shift + self.rows,
                        b - shift + self.rows,
                        *columns.picks,
                        columns.cards,
                        *outs,
                        shift,
                    )

        in_threads(split, shares)
        self.rows = need

    def _reserve(self, need: int, done: int) -> None:
        """Room for ``need`` rows, ``done`` games in: grown to the run's
        estimated rows and an eighth more, or to ``need`` when that is short.
        Growing copies every column so far, one thread alone (0.11 s for a
        Schieber frame of 3.6M rows, a quarter of a two-thread run, when the
        margin was a thirty-second of the first block's rows); pages
        reserved and never written cost nothing (``small_pages``)."""
        if need > self.outs[0].shape[1]:
            guess = need
            if 0 < done < self.games:
                guess = need * self.games // done
                guess += guess // 8 + 64
            self._grow(max(need, guess))

    def _grow(self, size: int) -> None:
        grown = [small_pages((len(out), size), out.dtype) for out in self.outs]
        for new, old in zip(grown, self.outs):
            new[:, : self.rows] = old[:, : self.rows]
        self.outs = grown

    def frame(self) -> pd.DataFrame:
        import pandas as pd

        columns = self.columns
        data = {}
        for name, kind, slot in zip(columns.columns, columns.kinds, columns.slots):
            dtype = columns.dtypes[name]
            values = self.outs[kind][slot, : self.rows]
            if isinstance(dtype, pd.CategoricalDtype):
                values = pd.Categorical.from_codes(values, dtype=dtype, validate=False)
            data[name] = values
        return pd.DataFrame(data, copy=False)
