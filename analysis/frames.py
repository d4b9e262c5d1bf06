"""The kernels' row blocks as DataFrames: one array per column, no copies after the split.

A game's ``frame(rows)`` is ``Columns(...)(rows)``: one jitted pass
(``cardmc.kernels.columns.split``, parallel unless a kernel is using Numba's
threads) writes each column of the row-major int32
block into its own array of the column's dtype (int8 to int64, or a
categorical's int8 codes), and the DataFrame takes those arrays as they are.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from cardmc.kernels.jit import KERNEL_LOCK
from cardmc.kernels import columns as kc

WIDTHS = (np.int8, np.int16, np.int32, np.int64)


class Columns:
    """How a game's rows become a DataFrame: ``dtypes`` maps each column (in
    the kernel's order) to an integer dtype or a ``pd.CategoricalDtype`` of
    at most 127 categories (its code is the row's value, -1 for missing);
    ``cards`` names categorical columns whose row value is a card of the 36-card deck."""

    def __init__(self, columns, dtypes: dict, cards=()):
        self.columns = list(columns)
        self.dtypes = {name: dtypes[name] for name in self.columns}
        widths = [np.dtype(np.int8 if isinstance(d, pd.CategoricalDtype) else d).type for d in self.dtypes.values()]
        self.kinds = [WIDTHS.index(w) for w in widths]
        self.picks = [np.array([j for j, kind in enumerate(self.kinds) if kind == k], np.int64)
                      for k in range(len(WIDTHS))]  # fmt: skip
        self.slots = [int(np.flatnonzero(self.picks[k] == j)[0]) for j, k in enumerate(self.kinds)]
        self.cards = np.array([self.slots[self.columns.index(name)] for name in cards], np.int64)
        self.card_names = set(cards)

    def __call__(self, rows: np.ndarray) -> pd.DataFrame:
        rows = np.ascontiguousarray(rows, dtype=np.int32)
        if rows.ndim != 2 or rows.shape[1] != len(self.columns):
            raise ValueError(f"rows should have {len(self.columns)} columns, not shape {rows.shape}")
        outs = [np.empty((len(p), len(rows)), w) for p, w in zip(self.picks, WIDTHS)]
        # Numba's thread pool runs one parallel kernel at a time: while a kernel
        # holds it (the next block, simulated ahead), split in this thread instead
        if KERNEL_LOCK.acquire(blocking=False):
            try:
                kc.split(rows, *self.picks, self.cards, *outs)
            finally:
                KERNEL_LOCK.release()
        else:
            kc.split_rows(rows, 0, len(rows), *self.picks, self.cards, *outs)
        data = {}
        for name, kind, slot in zip(self.columns, self.kinds, self.slots):
            dtype = self.dtypes[name]
            values = outs[kind][slot]
            if isinstance(dtype, pd.CategoricalDtype):
                values = pd.Categorical.from_codes(values, dtype=dtype, validate=False)
            data[name] = values
        return pd.DataFrame(data, copy=False)

    def arrays(self, df: pd.DataFrame) -> list[np.ndarray] | None:
        """Per column, the values the rows held (a categorical's codes, a card
        column's cards), for a frame as this makes it; None for any other frame
        (other columns or dtypes, a missing card, a value beyond int32)."""
        if list(df.columns) != self.columns:
            return None
        out = []
        for name, dtype in self.dtypes.items():
            col = df[name]
            if col.dtype != dtype or (isinstance(dtype, pd.CategoricalDtype)
                                      and col.dtype.categories.dtype != dtype.categories.dtype):  # fmt: skip
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
                if values.dtype.itemsize > 4 and len(values) and not -(1 << 31) <= values.min() <= values.max() < 1 << 31:
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
