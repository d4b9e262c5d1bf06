"""Throughput of the kernels and of the pipeline around them: ``cardmc bench GAME``.

Each case is timed on three paths, so one run shows what the pipeline costs:

* ``kernel`` — the game's batch kernel alone, in the blocks ``cardmc simulate`` uses,
  its rows left where the kernel wrote them (as the frame and aggregate paths
  read them: ``simulate_spans``);
* ``frame`` — ``cardmc.simulate(game, games=..., seed=...)``, the rows as a DataFrame;
* ``aggregate`` — ``cardmc.simulate(..., aggregate=True)``, the game's aggregates.

The first call (compile, or loading the Numba cache) is timed separately.
Then ``repeat`` rounds each time every path once on one thread and once on
all threads, in turn, and the best of each is reported, with the speed-up
over one thread and the rate as a share of the kernel's at the same thread
count. The best, not the mean: on a shared machine the other runs measure
the neighbours as well. In turn, not one cell after another: the machine's
speed drifts over minutes, and the speed-ups should compare runs taken
under the same drift.

``cardmc bench GAME --solver`` and ``--pimc`` time the exact solver and the
search player (``cardmc.bench_search``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

import numba
import numpy as np
import pandas as pd

import cardmc
from cardmc import registry
from cardmc.chunks import block_size, set_threads
from cardmc.kernels.columns import RowBuffer

SEED = 12345
PATHS = ("kernel", "frame", "aggregate")


def _kernel(spec, players, params, policies, games, block=None):
    """Seconds and rows for ``games`` games, played in the blocks that
    ``cardmc simulate`` uses, into one row buffer as it does."""
    block = block or block_size(spec)
    rows = 0
    out = RowBuffer()
    t = time.perf_counter()
    for first in range(0, games, block):
        rows += int(
            spec.simulate_spans(SEED, first, min(block, games - first), players, params, policies, out=out)[
                1
            ][:, 1].sum()
        )
    return time.perf_counter() - t, rows


def _api(game, policy, settings, players, games, threads, aggregate):
    """Seconds for ``cardmc.simulate`` of ``games`` games (rows or aggregates),
    until the result is in hand. Its memory is given back after the clock
    stops, as the kernel path's row buffer is: a frame of a few hundred MB
    takes 10-20 ms to unmap, on one thread whatever the run's threads."""
    t = time.perf_counter()
    result = cardmc.simulate(
        game,
        games=games,
        seed=SEED,
        policy=policy,
        players=players,
        threads=threads,
        aggregate=aggregate,
        **settings,
    )
    seconds = time.perf_counter() - t
    del result
    return seconds


def bench(
    game: str,
    games: int | None = None,
    repeat: int = 5,
    players: int | None = None,
    echo: bool = True,
    paths=PATHS,
) -> pd.DataFrame:
    """Deals and games per second per case, path and thread count, as a DataFrame.
    ``speedup`` is over one thread on the same path, ``of_kernel`` the rate as a
    share of the kernel's at the same thread count."""
    spec = registry.get(game)
    players = spec.check_players(players)
    games = games or spec.bench_games
    unknown = [p for p in paths if p not in PATHS]
    if unknown or not paths:
        raise registry.UsageError(f"bench paths are {', '.join(PATHS)}, not {unknown or paths!r}")
    top = numba.config.NUMBA_NUM_THREADS
    results = []
    for label, policy, settings in spec.bench:
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
        counts = sorted({1, top})
        # taken in turn (every path and thread count once per round), so that the machine's drift
        # over the minutes of a bench weighs on every cell alike and the speed-ups compare like with like
        best = {(path, threads): float("inf") for threads in counts for path in paths}
        for _ in range(repeat):
            for threads in counts:
                for path in paths:
                    best[path, threads] = min(best[path, threads], run(path, threads))
        for threads in counts:
            for path in paths:
                seconds, one = best[path, threads], best[path, 1]
                of_kernel = best["kernel", threads] / seconds if "kernel" in paths else float("nan")
                results.append(
                    {
                        "case": label,
                        "policy": policy,
                        "path": path,
                        "threads": threads,
                        "games": games,
                        "games_per_s": games / seconds,
                        "deals_per_s": deals / seconds,
                        "seconds": seconds,
                        "speedup": one / seconds,
                        "of_kernel": of_kernel,
                        "first_call_s": first[path],
                    }
                )
                if echo:
                    print(
                        f"{game:15s} {label:22s} {path:9s} threads={threads}  {deals / seconds:12,.0f} deals/s  "
                        f"{games / seconds:11,.0f} games/s  {one / seconds:4.2f}x  {of_kernel:4.2f} of kernel  "
                        f"(best of {repeat} x {games:,} games, taken in turn; first call {first[path]:.2f} s)",
                        flush=True,
                    )
    set_threads(None)
    return pd.DataFrame(results)


def cold_compile(game: str) -> float:
    """Seconds to compile the game's kernels from nothing, in a fresh process
    with an empty Numba cache."""
    code = (
        "import time; t = time.perf_counter()\n"
        "from cardmc import registry\n"
        f"spec = registry.get({game!r}); p = spec.default_players\n"
        "for label, policy, settings in spec.bench:\n"
        "    spec.simulate_block(1, 0, 8, p, spec.params(spec.settings(settings)), spec.parse_policy(policy, p))\n"
        "print(time.perf_counter() - t)\n"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        done = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
    return float(done.stdout.strip().splitlines()[-1])


def deal_cost(
    game: str,
    players: int | None = None,
    deals: int = 1_000_000,
    repeat: int = 5,
    echo: bool = True,
    **condition,
) -> pd.DataFrame:
    """Nanoseconds per deal of the game's plain deal and of its deal under
    ``condition`` (``hands``, ``trump_card``, ``deal`` as in ``cardmc.simulate``),
    one thread, best of ``repeat`` runs taken in turn; and the games per second
    of the game's kernel with and without the condition."""
    from cardmc import condition as conditions
    from cardmc.kernels import condition as kc
    from cardmc.kernels import deal_cost as dc

    spec = registry.get(game)
    players = spec.check_players(players)
    cond = conditions.make(spec, players, **condition)
    if cond is None:
        raise registry.UsageError("bench of a conditioned deal needs a condition (--hand, --trump-card)")
    array, face = cond.array(), spec.dealing.trump_card
    if spec.dealing.deals:  # deals differ: the plain deal is the game's own, one card at a time
        deck = np.uint64(spec.dealing.deck(players, cond.deal)[0])
        plain = (dc.one_by_one, (SEED, deals, players, cond.deal))
    else:
        deck, plain = kc.DECK36, (dc.packets, (SEED, deals, face))
    given = (dc.given, (SEED, deals, players, deck, array, face))
    set_threads(1)
    for f, args in (plain, given):
        f(args[0], 100, *args[2:])  # compile or load the cache
    best = {"plain": float("inf"), "given": float("inf")}
    for _ in range(repeat):
        for label, (f, args) in (("plain", plain), ("given", given)):
            t = time.perf_counter()
            f(*args)
            best[label] = min(best[label], (time.perf_counter() - t) / deals * 1e9)
    params = spec.params(spec.settings({}))
    policies = spec.parse_policy(spec.default_policy, players)
    games = min(20_000, spec.bench_games // 10)
    rate = {}
    for label, extra in (("plain", {}), ("given", {"condition": array})):
        spec.simulate_block(SEED, 0, 16, players, params, policies, **extra)
        times = []
        for _ in range(repeat):
            t = time.perf_counter()
            spec.simulate_block(SEED, 0, games, players, params, policies, **extra)
            times.append(time.perf_counter() - t)
        rate[label] = games / min(times)
    set_threads(None)
    out = pd.DataFrame(
        [
            {
                "game": game,
                "condition": cond.text,
                "plain_ns_per_deal": best["plain"],
                "given_ns_per_deal": best["given"],
                "ratio": best["given"] / best["plain"],
                "plain_games_per_s": rate["plain"],
                "given_games_per_s": rate["given"],
            }
        ]
    )
    if echo:
        print(
            f"{game}: a deal {best['plain']:.0f} ns plain, {best['given']:.0f} ns under {cond.text} "
            f"({best['given'] / best['plain']:.2f}x; best of {repeat} x {deals:,} deals, 1 thread); whole games "
            f"{rate['plain']:,.0f}/s plain, {rate['given']:,.0f}/s conditioned ({spec.default_policy})",
            flush=True,
        )
    return out
