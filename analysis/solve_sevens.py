"""Solve one sevens position (Norwegian Jazz deal 6) with every hand seen.

Called by ``cardmc.solve.solve("norwegian_jazz", contract=6, ...)`` (the
game's ``solver.apart``: ``solve_position``). The
table is every card not in a hand; the deal ends when the first player goes
out. Objectives for ``seat`` against the others playing together:
``out_first`` (1 when it can make sure to go out first) and ``score`` (the
deal score it can be sure of: ``first_out_bonus`` for going out first, -1
for each pass; ``points`` gives the passes each seat has made so far).
"""

from __future__ import annotations

import threading
import time

import numpy as np
import pandas as pd

from cardmc.kernels import cards as C
from cardmc.kernels import sevens
from cardmc.kernels import solve_sevens as K
from cardmc.kernels.bits import ONE
from cardmc.registry import UsageError
from cardmc.solve import Solution, table

PASS = "pass"
_salt = [0]
_frames = threading.local()  # each thread its own search frames


def fresh_salt() -> int:
    """A key space of the sevens solver's table that no earlier search of
    this process used (one objective's searches may share it)."""
    _salt[0] += 1
    return (_salt[0] * 0x9E3779B97F4A7C15 + 7) % (1 << 63)


def solve_position(
    hands, trick, to_play, seat, points, first_out_bonus: int, tt_mib: float, stop
) -> Solution:
    """``cardmc.solve.solve`` of a sevens position: the hands only (the table
    is every other card), its search not stopped midway (it is short), but
    not started once ``stop`` is set."""
    if trick:
        raise UsageError("sevens has no trick: give the hands only (the table is every other card)")
    if stop is not None and stop.is_set():
        raise KeyboardInterrupt
    return solve_sevens(hands, to_play, seat, points, first_out_bonus, table(tt_mib))


def check(hands, to_play, seat, points) -> tuple[np.ndarray, int, int, list[int]]:
    n = len(hands)
    if not 3 <= n <= 7:
        raise UsageError(f"norwegian_jazz needs 3 to 7 hands, got {n}")
    masks = []
    seen: set[int] = set()
    for s, h in enumerate(hands):
        m = 0
        for p in h.replace(",", " ").split() if isinstance(h, str) else list(h):
            try:
                c = C.parse(p, 52)
            except ValueError:
                raise UsageError(f"unknown card {p!r} in hand {s} for a 52-card deck") from None
            if c in seen:
                raise UsageError(f"card {p} appears twice")
            seen.add(c)
            m |= 1 << c
        if m == 0:
            raise UsageError(f"seat {s} holds no card: the deal is over")
        masks.append(m)
    table = C.FULL52 & ~sum(masks)
    for s in range(4):
        ranks = [r for r in range(13) if (table >> (16 * s + r)) & 1]
        if ranks and (C.SEVEN not in ranks or ranks != list(range(ranks[0], ranks[-1] + 1))):
            raise UsageError(
                f"the cards of {C.SUITS[s]} not in a hand ({' '.join(C.code(16 * s + r) for r in ranks)}) "
                "are not a row through the 7"
            )
    if to_play is None or not 0 <= int(to_play) < n:
        raise UsageError(f"to_play must be a seat 0..{n - 1}, not {to_play!r}")
    if seat is None or not 0 <= int(seat) < n:
        raise UsageError(f"seat must be a seat 0..{n - 1}, not {seat!r}")
    points = [0] * n if points is None else [int(p) for p in points]
    if len(points) != n or min(points) < 0:
        raise UsageError(f"points (passes so far) needs {n} whole numbers >= 0, got {points!r}")
    return np.array(masks, np.uint64), int(to_play), int(seat), points


def solve_sevens(hands, to_play, seat, points=None, first_out_bonus: int = 10, tt=None):
    """(values, per-card DataFrame, nodes, seconds) of a sevens position."""
    masks, to_play, seat, points = check(hands, to_play, seat, points)
    n = len(masks)
    keys, lows, highs = tt[0], tt[1], tt[2]
    if getattr(_frames, "held", None) is None:
        _frames.held = K.new_frames()
    fr, fk = _frames.held
    t0 = time.perf_counter()
    rest = int(np.bitwise_or.reduce(masks))
    legal = int(masks[to_play]) & int(sevens.playable_of(np.uint64(C.FULL52 ^ rest)))
    columns = {}
    for name, bonus, cost, shift in (("out_first", 1, 0, 0), ("score", first_out_bonus, 1, -points[seat])):
        salt = fresh_salt()

        def val(h, p):
            return int(K.value(h, n, p, seat, bonus, cost, keys, lows, highs, keys.size - 1, salt, fr, fk))

        per = {}
        if legal == 0:
            per[PASS] = val(masks.copy(), (to_play + 1) % n) - (cost if to_play == seat else 0)
        for c in C.cards_of(legal):
            h = masks.copy()
            h[to_play] ^= np.uint64(ONE << np.uint64(c))
            per[C.code(c)] = (
                (bonus if to_play == seat else 0) if h[to_play] == 0 else val(h, (to_play + 1) % n)
            )
        v = val(masks.copy(), to_play)
        columns[name] = (shift + v, {k: shift + x for k, x in per.items()})
    value = {k: v for k, (v, _) in columns.items()}
    moves = list(next(iter(columns.values()))[1])
    df = pd.DataFrame(
        {k: [per[m] for m in moves] for k, (_, per) in columns.items()}, index=pd.Index(moves, name="card")
    )
    return Solution("norwegian_jazz", value, df, 0, time.perf_counter() - t0)
