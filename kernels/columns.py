"""Row-major int32 row blocks split into one typed array per column.

``split(rows, kinds, slots, cards, out8, out16, out32, out64)`` copies column
j of ``rows`` into ``out<width>[slots[j]]`` for width 8, 16, 32 or 64
(``kinds[j]`` 0..3), in parallel over chunks of rows that stay in cache
while each of their columns is written out. ``cards[j]`` set turns a card
(``suit * 16 + rank``, ranks 6..A) into its place 0..35 in a 36-card deck.
"""
from __future__ import annotations

import numpy as np
from numba import prange

from cardmc.kernels.jit import parallel_jit

CHUNK = 2048  # rows per work item: 2048 rows of 32 columns are 256 KiB


@parallel_jit
def split(rows, kinds, slots, cards, out8, out16, out32, out64):
    n, m = rows.shape
    for c in prange((n + CHUNK - 1) // CHUNK):
        lo, hi = c * CHUNK, min(n, (c + 1) * CHUNK)
        for j in range(m):
            kind, s, card = kinds[j], slots[j], cards[j]
            if card:
                for r in range(lo, hi):
                    v = rows[r, j]
                    out8[s, r] = (v >> 4) * 9 + (v & 15) - 4
            elif kind == 0:
                for r in range(lo, hi):
                    out8[s, r] = rows[r, j]
            elif kind == 1:
                for r in range(lo, hi):
                    out16[s, r] = rows[r, j]
            elif kind == 2:
                for r in range(lo, hi):
                    out32[s, r] = rows[r, j]
            else:
                for r in range(lo, hi):
                    out64[s, r] = rows[r, j]
