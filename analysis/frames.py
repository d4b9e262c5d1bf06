"""The kernels' row blocks as DataFrames: one array per column, no copies after the split.

A game's ``frame(rows)`` is ``Columns(...)(rows)``: one parallel jitted pass
(``cardmc.kernels.columns.split``) writes each column of the row-major int32
block into its own array of the column's dtype (int8 to int64, or a
categorical's int8 codes), and the DataFrame takes those arrays as they are.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

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

    def __call__(self, rows: np.ndarray) -> pd.DataFrame:
        rows = np.ascontiguousarray(rows, dtype=np.int32)
        if rows.ndim != 2 or rows.shape[1] != len(self.columns):
            raise ValueError(f"rows should have {len(self.columns)} columns, not shape {rows.shape}")
        outs = [np.empty((len(p), len(rows)), w) for p, w in zip(self.picks, WIDTHS)]
        kc.split(rows, *self.picks, self.cards, *outs)
        data = {}
        for name, kind, slot in zip(self.columns, self.kinds, self.slots):
            dtype = self.dtypes[name]
            values = outs[kind][slot]
            if isinstance(dtype, pd.CategoricalDtype):
                values = pd.Categorical.from_codes(values, dtype=dtype, validate=False)
            data[name] = values
        return pd.DataFrame(data, copy=False)
