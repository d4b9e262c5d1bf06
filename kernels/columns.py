"""Row-major int32 row blocks split into one typed array per column.

``split_rows(rows, lo, hi, c8, c16, c32, c64, cards, out8, out16, out32, out64, at)``
copies column ``c8[t]`` of rows lo..hi-1 into ``out8[t]`` from place
``at + lo`` on, and so on for the 16, 32 and 64 bit columns, a tile of rows
at a time, one column after another (the tile stays in cache, every write
is sequential). Then each ``out8[cards[i]]``, a card (``suit * 16 + rank``,
ranks 6..A), becomes its place 0..35 in a 36-card deck. The caller splits
shares of ``SHARE_ROWS`` rows or more side by side (``cardmc.frames.Gather``).
"""

from __future__ import annotations

import numpy as np

from cardmc.kernels.jit import jit

SHARE_ROWS = 4096  # rows a share at the least
TILE = 256  # rows split one column at a time (25 int32 columns: 25 KB)


@jit
def split_rows(rows, lo, hi, c8, c16, c32, c64, cards, out8, out16, out32, out64, at):
    u = np.uint64  # unsigned places: no wrap-around test of a negative index per value (twice as fast)
    for a in range(lo, hi, TILE):
        b = min(hi, a + TILE)
        # one column of a tile of rows at a time: sequential writes, the tile stays in cache
        for t in range(len(c8)):
            c, out = u(c8[t]), out8[t]
            for r in range(a, b):
                out[u(at + r)] = rows[u(r), c]
        for t in range(len(c16)):
            c, out = u(c16[t]), out16[t]
            for r in range(a, b):
                out[u(at + r)] = rows[u(r), c]
        for t in range(len(c32)):
            c, out = u(c32[t]), out32[t]
            for r in range(a, b):
                out[u(at + r)] = rows[u(r), c]
        for t in range(len(c64)):
            c, out = u(c64[t]), out64[t]
            for r in range(a, b):
                out[u(at + r)] = rows[u(r), c]
        for i in range(len(cards)):
            out = out8[cards[i]]
            for r in range(a, b):
                v = out[u(at + r)]
                out[u(at + r)] = (v >> 4) * 9 + (v & 15) - 4


class RowBuffer:
    """The row blocks of one run in one int32 array, reused block after block
    (``new_rows``): a new array per block larger than what the allocator
    keeps lands on fresh pages that the system zeroes at their first touch,
    again every block (Differenzler random, one thread: 4-5% of the time).
    A block's rows must be used up before the next block is made."""

    def __init__(self) -> None:
        self.flat = np.empty(0, np.int32)

    def take(self, rows: int, columns: int) -> np.ndarray:
        if self.flat.size < rows * columns:
            self.flat = np.empty(rows * columns, np.int32)
        return self.flat[: rows * columns].reshape(rows, columns)


def new_rows(out: RowBuffer | None, rows: int, columns: int) -> np.ndarray:
    """A batch kernel's (rows, columns) int32 row array: a new one, or ``out``'s."""
    return np.empty((rows, columns), np.int32) if out is None else out.take(rows, columns)
