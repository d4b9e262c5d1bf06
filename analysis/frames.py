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
        self.categorical = {n for n, d in self.dtypes.items() if isinstance(d, pd.CategoricalDtype)}
        widths = [np.dtype(np.int8 if n in self.categorical else d) for n, d in self.dtypes.items()]
        self.kinds = np.array([WIDTHS.index(w.type) for w in widths], np.int64)
        self.slots = np.array([int((self.kinds[:j] == self.kinds[j]).sum()) for j in range(len(widths))], np.int64)
        self.cards = np.array([n in cards for n in self.columns], np.int64)
        self.counts = [int((self.kinds == kind).sum()) for kind in range(len(WIDTHS))]

    def __call__(self, rows: np.ndarray) -> pd.DataFrame:
        rows = np.ascontiguousarray(rows, dtype=np.int32)
        if rows.ndim != 2 or rows.shape[1] != len(self.columns):
            raise ValueError(f"rows should have {len(self.columns)} columns, not shape {rows.shape}")
        n = len(rows)
        outs = [np.empty((max(c, 1), n), w) for c, w in zip(self.counts, WIDTHS)]
        kc.split(rows, self.kinds, self.slots, self.cards, *outs)
        data = {}
        for j, name in enumerate(self.columns):
            values = outs[self.kinds[j]][self.slots[j]]
            if name in self.categorical:
                values = pd.Categorical.from_codes(values, dtype=self.dtypes[name], validate=False)
            data[name] = values
        return pd.DataFrame(data, copy=False)
