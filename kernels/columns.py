"""Row-major int32 row blocks split into one typed array per column.

``split(rows, c8, c16, c32, c64, cards, out8, out16, out32, out64)`` copies
column ``c8[t]`` of ``rows`` into ``out8[t]``, and so on for the 16, 32 and
64 bit columns, row by row (each row is read once, every write is
sequential), in parallel over chunks of rows. Then each ``out8[cards[i]]``,
a card (``suit * 16 + rank``, ranks 6..A), becomes its place 0..35 in a
36-card deck. ``split_rows`` does rows lo..hi-1 of the same in the calling
thread, without Numba's thread pool (while a kernel holds it).
"""
from __future__ import annotations

from numba import prange

from cardmc.kernels.jit import jit, parallel_jit

CHUNK = 4096  # rows per work item


@jit
def split_rows(rows, lo, hi, c8, c16, c32, c64, cards, out8, out16, out32, out64):
    for r in range(lo, hi):
        for t in range(len(c8)):
            out8[t, r] = rows[r, c8[t]]
        for t in range(len(c16)):
            out16[t, r] = rows[r, c16[t]]
        for t in range(len(c32)):
            out32[t, r] = rows[r, c32[t]]
        for t in range(len(c64)):
            out64[t, r] = rows[r, c64[t]]
    for i in range(len(cards)):
        o = out8[cards[i]]
        for r in range(lo, hi):
            o[r] = (o[r] >> 4) * 9 + (o[r] & 15) - 4


@parallel_jit
def split(rows, c8, c16, c32, c64, cards, out8, out16, out32, out64):
    n = rows.shape[0]
    for c in prange((n + CHUNK - 1) // CHUNK):
        split_rows(rows, c * CHUNK, min(n, (c + 1) * CHUNK), c8, c16, c32, c64, cards, out8, out16, out32, out64)
