"""Throughput of the kernels: ``cardmc bench GAME``.

Each case runs the game's batch kernel on a fixed seed; the first call
(compile, or loading the Numba cache) is timed separately, then the best of
``repeat`` timed runs is reported for one thread and for all threads, with
the speed-up over one thread. The best, not the mean: on a shared machine the
other runs measure the neighbours as well.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

import numba
import pandas as pd

from cardmc import registry
from cardmc.driver import set_threads

SEED = 12345


def _run(spec, players, params, policies, games, block=None):
    """Seconds and rows for ``games`` games, played in the blocks that
    ``cardmc simulate`` uses (their row buffers fit the allocator's reuse)."""
    block = block or int(spec.extra.get("block", 8192))
    rows = 0
    t = time.perf_counter()
    for first in range(0, games, block):
        rows += len(spec.simulate_block(SEED, first, min(block, games - first), players, params, policies))
    return time.perf_counter() - t, rows


def bench(game: str, games: int | None = None, repeat: int = 5, players: int | None = None, echo: bool = True):
    """Deals and games per second per case and thread count, as a DataFrame."""
    spec = registry.get(game)
    players = spec.check_players(players)
    games = games or int(spec.extra.get("bench_games", 200_000))
    top = numba.config.NUMBA_NUM_THREADS
    results = []
    for label, policy, settings in spec.extra["bench"]:
        policies = spec.parse_policy(policy, players)
        params = spec.params(spec.settings(settings))
        set_threads(1)
        first, _ = _run(spec, players, params, policies, 64)
        one = None
        for threads in sorted({1, top}):
            set_threads(threads)
            best, rows = min(_run(spec, players, params, policies, games) for _ in range(repeat))
            one = one or best
            deals = rows / players
            results.append({"case": label, "policy": policy, "threads": threads, "games": games,
                            "games_per_s": games / best, "deals_per_s": deals / best, "seconds": best,
                            "speedup": one / best, "first_call_s": first})  # fmt: skip
            if echo:
                print(f"{game:15s} {label:22s} threads={threads}  {deals / best:12,.0f} deals/s  "
                      f"{games / best:11,.0f} games/s  {one / best:4.2f}x  (best of {repeat} x {games:,} games; "
                      f"first call {first:.2f} s)", flush=True)  # fmt: skip
    set_threads(None)
    return pd.DataFrame(results)


def cold_compile(game: str) -> float:
    """Seconds to compile the game's kernels from nothing, in a fresh process
    with an empty Numba cache."""
    code = (
        "import time; t = time.perf_counter()\n"
        "from cardmc import registry\n"
        f"spec = registry.get({game!r}); p = spec.default_players\n"
        "for label, policy, settings in spec.extra['bench']:\n"
        "    spec.simulate_block(1, 0, 8, p, spec.params(spec.settings(settings)), spec.parse_policy(policy, p))\n"
        "print(time.perf_counter() - t)\n"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1])
