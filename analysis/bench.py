"""Throughput of the kernels and of the pipeline around them: ``cardmc bench GAME``.

Each case is timed on three paths, so one run shows what the pipeline costs:

* ``kernel`` — the game's batch kernel alone, in the blocks ``cardmc simulate`` uses;
* ``frame`` — ``cardmc.simulate(game, games=..., seed=...)``, the rows as a DataFrame;
* ``aggregate`` — ``cardmc.simulate(..., aggregate=True)``, the game's aggregates.

The first call (compile, or loading the Numba cache) is timed separately,
then the best of ``repeat`` timed runs is reported per path for one thread
and for all threads, with the speed-up over one thread and the rate as a
share of the kernel's at the same thread count. The best, not the mean: on
a shared machine the other runs measure the neighbours as well.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

import numba
import pandas as pd

import cardmc
from cardmc import registry
from cardmc.driver import block_size, set_threads

SEED = 12345
PATHS = ("kernel", "frame", "aggregate")


def _kernel(spec, players, params, policies, games, block=None):
    """Seconds and rows for ``games`` games, played in the blocks that
    ``cardmc simulate`` uses (their row buffers fit the allocator's reuse)."""
    block = block or block_size(spec)
    rows = 0
    t = time.perf_counter()
    for first in range(0, games, block):
        rows += len(spec.simulate_block(SEED, first, min(block, games - first), players, params, policies))
    return time.perf_counter() - t, rows


def _api(game, policy, settings, players, games, threads, aggregate):
    """Seconds for ``cardmc.simulate`` of ``games`` games (rows or aggregates)."""
    t = time.perf_counter()
    cardmc.simulate(game, games=games, seed=SEED, policy=policy, players=players, threads=threads,
                    aggregate=aggregate, **settings)  # fmt: skip
    return time.perf_counter() - t


def bench(game: str, games: int | None = None, repeat: int = 5, players: int | None = None, echo: bool = True,
          paths=PATHS) -> pd.DataFrame:  # fmt: skip
    """Deals and games per second per case, path and thread count, as a DataFrame.
    ``speedup`` is over one thread on the same path, ``of_kernel`` the rate as a
    share of the kernel's at the same thread count."""
    spec = registry.get(game)
    players = spec.check_players(players)
    games = games or int(spec.extra.get("bench_games", 200_000))
    unknown = [p for p in paths if p not in PATHS]
    if unknown or not paths:
        raise registry.UsageError(f"bench paths are {', '.join(PATHS)}, not {unknown or paths!r}")
    top = numba.config.NUMBA_NUM_THREADS
    results = []
    for label, policy, settings in spec.extra["bench"]:
        policies = spec.parse_policy(policy, players)
        params = spec.params(spec.settings(settings))

        def run(path: str, threads: int, count: int = games) -> float:
            if path == "kernel":
                set_threads(threads)
                return _kernel(spec, players, params, policies, count)[0]
            return _api(game, policy, settings, players, count, threads, path == "aggregate")

        first = {path: run(path, 1, 64) for path in paths}  # compile or load the cache
        set_threads(1)
        deals = _kernel(spec, players, params, policies, games)[1] / players
        rate = {}
        for threads in sorted({1, top}):
            for path in paths:
                best = min(run(path, threads) for _ in range(repeat))
                one = next((r["seconds"] for r in results
                            if (r["case"], r["path"], r["threads"]) == (label, path, 1)), best)  # fmt: skip
                rate[path, threads] = deals / best
                of_kernel = deals / best / rate.get(("kernel", threads), float("nan"))
                results.append({"case": label, "policy": policy, "path": path, "threads": threads, "games": games,
                                "games_per_s": games / best, "deals_per_s": deals / best, "seconds": best,
                                "speedup": one / best, "of_kernel": of_kernel,
                                "first_call_s": first[path]})  # fmt: skip
                if echo:
                    print(f"{game:15s} {label:22s} {path:9s} threads={threads}  {deals / best:12,.0f} deals/s  "
                          f"{games / best:11,.0f} games/s  {one / best:4.2f}x  {of_kernel:4.2f} of kernel  "
                          f"(best of {repeat} x {games:,} games; first call {first[path]:.2f} s)",
                          flush=True)  # fmt: skip
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
