"""Compile the kernels into Numba's on-disk cache, several processes side by side.

    $ cardmc compile              # every group, one process per core
    >>> from cardmc.warm import warm
    >>> warm(["schieber", "solver"], jobs=2)     # doctest: +SKIP

Numba compiles one function at a time in a process, and a cold cache costs
about a minute of CPU for the whole package. The games' kernels share little,
so the package is cut into groups (one per game, and the solver), each
compiled by tiny runs of the public API in a fresh process; ``jobs``
processes run at once, the groups dealt to them largest first. Every kernel is
``cache=True``, so each process leaves what it compiled in the cache, where
every later process finds it (a warm group takes a second or two to load).
``cardmc report`` warms its games' groups this way when they are cold.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

from cardmc import registry

SOLVER = "solver"  # the group of the exact solver's kernels, beside one group per game
SOLVER_SECONDS = 20  # what the solver adds to a cold compile beside the games (a game's: its spec's example)
# All five on two processes go [schieber, differenzler] and [solver, english_jazz, norwegian_jazz]: 47.5 s
# on this 2-core machine, against 52.5-52.9 s for [solver, differenzler] and the other three (cold, each
# split twice in turn)


def group_weights() -> dict[str, int]:
    """Every group, with roughly the seconds it adds to a cold compile in a
    process that compiles other groups too (they share kernels: alone, each
    costs 20-42 s), for dealing the groups to processes, largest first."""
    out = {game: registry.get(game).example.compile_seconds for game in registry.GAMES}
    return {**out, SOLVER: SOLVER_SECONDS}


def _marker(group: str) -> tuple[str, str]:
    """The kernel whose cache entry tells whether ``group`` is warm: (module, name)."""
    return ("solve_search", "value") if group == SOLVER else (group, "play_slices")


def compile_group(group: str) -> None:
    """Compile (or load) every kernel of ``group`` in this process, by running
    each entry point once on a few games or a small position."""
    import cardmc

    if group == SOLVER:
        for game in registry.GAMES:
            for position in registry.get(game).example.positions:
                cardmc.solve(game, **position)
        from cardmc.bench_search import bench_solver

        bench_solver(registry.GAMES[0], positions=1, tricks_left=3)
        return
    if group not in registry.GAMES:
        raise ValueError(f"unknown group {group!r}: one of {', '.join(group_weights())}")
    example = registry.get(group).example
    for policy in (None, "random"):
        pol = {} if policy is None else {"policy": policy}
        cardmc.simulate(group, games=16, seed=1, threads=1, **pol)
        cardmc.simulate(group, games=16, seed=1, threads=1, aggregate=True, **pol)
    cardmc.simulate(group, games=16, seed=1, threads=1, hands={0: "JS 9S AS"}, **example.condition)
    cardmc.trace(group, seed=1, games=1)
    cardmc.odds(group, example.hand, games=64)
    # the kernels' scripted variant, for the search player, in games and hand odds
    cardmc.simulate(
        group,
        games=1,
        seed=1,
        threads=1,
        policy=example.searched,
        pimc_samples=1,
        pimc_tricks=2,
        **example.searched_settings,
    )
    cardmc.odds(
        group,
        example.hand,
        games=1,
        settings={"pimc_samples": 1, "pimc_tricks": 1},
        **{"policy": example.searched, **example.odds_searched},
    )


def is_warm(group: str) -> bool:
    """Whether the cache holds a current entry of the group's marker kernel
    (a cheap look at Numba's cache index, without compiling; False when it
    cannot tell)."""
    import importlib

    module, name = _marker(group)
    try:
        dispatcher = getattr(importlib.import_module(f"cardmc.kernels.{module}"), name)
        return len(dispatcher._cache._cache_file._load_index()) > 0
    except Exception:  # Numba's cache layout is its own: when in doubt, warm
        return False


def plan(groups, jobs: int) -> list[list[str]]:
    """The groups dealt to ``jobs`` processes, largest first, each to the
    least loaded process (empty processes dropped)."""
    bins: list[list[str]] = [[] for _ in range(max(1, jobs))]
    load = [0] * len(bins)
    weight = group_weights()
    for group in sorted(groups, key=lambda p: -weight[p]):
        i = load.index(min(load))
        bins[i].append(group)
        load[i] += weight[group]
    return [b for b in bins if b]


def command(groups: list[str]) -> list[str]:
    """The command line of a process that compiles ``groups``."""
    return [sys.executable, "-m", "cardmc.warm", *groups]


def warm(groups=None, jobs: int | None = None, only_cold: bool = False, log=None) -> dict[str, float]:
    """Compile ``groups`` (default: all) in ``jobs`` fresh processes at once
    (default: the cores); ``only_cold``: skip the groups already warm. Returns
    the seconds each process took, by its groups. ``log(note)`` hears each
    process's start and end."""
    known = group_weights()
    groups = list(known) if groups is None else list(groups)
    for group in groups:
        if group not in known:
            raise ValueError(f"unknown group {group!r}: one of {', '.join(known)}")
    if only_cold:
        groups = [p for p in groups if not is_warm(p)]
    jobs = jobs or os.cpu_count() or 1
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs!r}")
    say = log or (lambda note: None)
    out: dict[str, float] = {}
    if not groups:
        return out
    t0 = time.perf_counter()
    running = []
    for assigned in plan(groups, jobs):
        say(f"compiling {', '.join(assigned)}")
        err = tempfile.TemporaryFile("w+")
        proc = subprocess.Popen(command(assigned), stdout=subprocess.DEVNULL, stderr=err)
        running.append((", ".join(assigned), proc, err))
    failed = []
    while running:
        time.sleep(0.05)
        for item in [r for r in running if r[1].poll() is not None]:
            running.remove(item)
            name, proc, err = item
            out[name] = time.perf_counter() - t0
            err.seek(0)
            lines = err.read().strip().splitlines()
            err.close()
            if proc.returncode != 0:
                failed.append(f"{name}: {lines[-1] if lines else f'exit {proc.returncode}'}")
            else:
                say(f"compiled {name} ({out[name]:.1f} s)")
    if failed:
        raise RuntimeError("compiling failed: " + "; ".join(failed))
    return out


if __name__ == "__main__":
    for name in sys.argv[1:]:
        compile_group(name)
