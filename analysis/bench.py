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

``cardmc bench GAME --solver`` times the exact solver on random positions
(``bench_solver``, ``solver_line``) and ``--pimc`` the search player with
every seat searching (``pimc_line``), both on one thread.
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


# ---------------------------------------------------------------- the solver and the search player


def _solver_sides(spec, objective: str | None, players: int) -> tuple[int, int]:
    """(maximising seats, counted seats) of a bench objective for seat 0
    (``cardmc.objectives.sides``); UsageError for an objective the game has not."""
    from cardmc.objectives import sides

    objectives = spec.solver.objectives
    objective = objective or objectives[0]
    if objective not in objectives:
        known = ", ".join(objectives)
        raise registry.UsageError(f"objective {objective!r} is not one of {spec.name}'s: {known}")
    return sides(objective, 0, players)


def bench_solver(
    game: str,
    positions: int = 100,
    seed: int = 1,
    tricks_left: int | None = None,
    contract=None,
    players: int = 4,
    tt_mib: float | None = None,
    objective: str | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """Time the exact value of random positions at a trick boundary with
    ``tricks_left`` tricks to play (None: whole deals), reached by random
    legal play from a random deal; one objective per game, the first of its
    spec's ``solver.objectives`` (Schieber: team 0's points; Differenzler:
    seat 0's sure points; English Jazz: seat 0's most tricks; Norwegian
    Jazz: the penalty seat 0 is held to), or ``objective``, another of them
    (Differenzler's ``sure_at_most``, Norwegian Jazz's ``escape``).
    ``contract``: fixed, or None for a random one per position (of the
    spec's ``solver.contracts``). ``players``: for a game of several player
    counts. One row per position: seconds, nodes, value, contract.
    ``progress``: a bar on a terminal (whole deals may take minutes each)."""
    from tqdm.auto import tqdm

    from cardmc import solve as SV
    from cardmc.kernels import cards as C
    from cardmc.kernels import solve_rules as SR
    from cardmc.kernels import solve_search as S

    spec = SV.spec_of(game)
    solver = spec.solver
    n = spec.players[0] if len(spec.players) == 1 else players
    if n not in spec.players:
        raise registry.UsageError(f"{spec.title} has {SV.counts(spec.players)} players, not {players!r}")
    rng = np.random.default_rng(seed)
    max_side, counted = _solver_sides(spec, objective, n)
    full = solver.hand_size(n)
    left = full if tricks_left is None else int(tricks_left)
    if not 1 <= left <= full:
        raise registry.UsageError(f"tricks_left must be 1..{full}, not {tricks_left!r}")
    deck = np.array(C.cards_of(solver.dealt(n)), np.int64)
    tt = SV.table(SV.DEFAULT_TT_MIB if tt_mib is None else tt_mib)
    keys, lows, highs, bests, ages, moves, scores, fr, fk = tt
    rows = []
    bar = tqdm(
        total=positions,
        unit=" positions",
        desc=game,
        leave=False,
        dynamic_ncols=True,
        disable=None if progress else True,
    )  # None: shown on a terminal only
    for _ in range(positions):
        order = rng.permutation(deck)
        hands = np.array([C.mask_of(order[s * full : (s + 1) * full]) for s in range(n)], np.uint64)
        choices = solver.contracts
        con = contract if contract is not None else choices[rng.integers(len(choices))]
        param, trump = solver.contract(con)
        R = SV.rules_array(game, n, param, max_side, counted)
        SV.fresh_keys(R, keys)
        line = np.zeros(S.LINE, np.int64)
        leader = int(rng.integers(n))
        k, leader, trump, flags = S.random_playout(
            R, hands, line, 0, leader, trump, 0, n * (full - left), rng.random(n * full)
        )
        t0 = time.perf_counter()
        v = S.value(
            R, keys, lows, highs, bests, ages, hands, line, k, leader, trump, flags, moves, scores, fr, fk
        )
        rows.append((time.perf_counter() - t0, int(R[SR.NODES]), int(v), str(con)))
        bar.update()
    bar.close()
    return pd.DataFrame(rows, columns=["seconds", "nodes", "value", "contract"])


def solver_summary(df: pd.DataFrame) -> dict[str, float]:
    """Median, 99th percentile and largest solve time (ms), positions solved
    per second, mean nodes and nodes per second of ``bench_solver``'s rows."""
    ms = df["seconds"] * 1000
    total = float(df["seconds"].sum())
    return {
        "positions": len(df),
        "median_ms": float(ms.median()),
        "p99_ms": float(ms.quantile(0.99)),
        "max_ms": float(ms.max()),
        "positions_per_s": len(df) / total if total > 0 else float("inf"),
        "mean_nodes": float(df["nodes"].mean()),
        "nodes_per_s": float(df["nodes"].sum()) / total if total > 0 else float("inf"),
    }


def solver_line(
    game: str,
    positions: int = 100,
    seed: int = 1,
    tricks_left: int | None = None,
    contract=None,
    players: int = 4,
    tt_mib: float | None = None,
    objective: str | None = None,
) -> str:
    """The solver bench (``bench_solver`` after one warm-up solve) as one
    line of figures: ``cardmc bench GAME --solver``; UsageError for a bad
    argument. One thread, as the search always is. The warm-up (``first
    call``) also touches every page of the table, which the first solves of
    a process otherwise pay for as they fill it."""
    from cardmc import solve as SV

    tt_mib = SV.DEFAULT_TT_MIB if tt_mib is None else tt_mib
    t = time.perf_counter()
    if positions < 1:
        raise registry.UsageError(f"positions must be at least 1, not {positions}")
    bench_solver(game, 0, seed, tricks_left, contract, players, tt_mib, objective)  # the checks alone
    bench_solver(game, 1, seed + 1, 1, contract, players, tt_mib, objective)  # compile or load the cache
    SV.table(tt_mib)[0].fill(0)  # and fault the table's memory in (up to half a second for 256 MiB), once
    warm = time.perf_counter() - t
    s = solver_summary(
        bench_solver(game, positions, seed, tricks_left, contract, players, tt_mib, objective, progress=True)
    )
    left = "whole deals" if tricks_left is None else f"{tricks_left} tricks left"
    objective = objective or SV.spec_of(game).solver.objectives[0]
    return (
        f"{game} {objective} ({left}, contract {contract or 'random'}, seed {seed}): "
        f"{s['positions']} positions, "
        f"median {s['median_ms']:.2f} ms, p99 {s['p99_ms']:.2f} ms, max {s['max_ms']:.2f} ms, "
        f"{s['positions_per_s']:.1f} positions/s, {s['mean_nodes']:.0f} nodes mean, "
        f"{s['nodes_per_s'] / 1e6:.2f} M nodes/s (first call {warm:.1f} s)"
    )


def pimc_line(
    game: str, games: int = 2, tricks: int = 5, samples: int = 8, players: int | None = None, seed: int = 1
) -> str:
    """The search player's speed with every seat searching, one thread,
    after one warm-up game (compile or load the cache): seconds a deal over
    whole games, as one line: ``cardmc bench GAME --pimc``. Deals cut short
    by a Schieber match's end count as deals. UsageError for a bad argument."""
    if game not in registry.GAMES:
        raise registry.UsageError(f"unknown game {game!r}: one of {', '.join(registry.GAMES)}")
    if games < 1:
        raise registry.UsageError(f"games must be at least 1, not {games}")
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        cardmc.simulate(
            game,
            games=1,
            seed=seed + 1,
            policy="pimc",
            players=players,
            threads=1,
            pimc_tricks=1,
            pimc_samples=1,
        )
        t = time.perf_counter()
        rows = cardmc.simulate(
            game,
            games=games,
            seed=seed,
            policy="pimc",
            players=players,
            threads=1,
            pimc_tricks=tricks,
            pimc_samples=samples,
        )
        seconds = time.perf_counter() - t
    finally:
        numba.set_num_threads(before)
    deals = len(rows[["game", "deal"]].drop_duplicates())
    return (
        f"{game}: every seat pimc, {samples} samples, from {tricks} tricks left, seed {seed}: "
        f"{games} games, {deals} deals in {seconds:.1f} s = {seconds / deals:.3f} s a deal (1 thread)"
    )
