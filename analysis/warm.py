"""Compile the kernels into Numba's on-disk cache, several processes side by side.

    $ cardmc compile              # every part, one process per core
    >>> from cardmc.warm import warm
    >>> warm(["schieber", "solver"], jobs=2)     # doctest: +SKIP

Numba compiles one function at a time in a process, and a cold cache costs
about a minute of CPU for the whole package. The games' kernels share little,
so the package is cut into parts (one per game, and the solver), each
compiled by tiny runs of the public API in a fresh process; ``jobs``
processes run at once, the parts dealt to them largest first. Every kernel is
``cache=True``, so each process leaves what it compiled in the cache, where
every later process finds it (a warm part takes a second or two to load).
``cardmc report`` warms its games' parts this way when they are cold.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

# part: roughly the seconds it adds to a cold compile in a process that compiles
# other parts too (they share kernels: alone, each costs 20-42 s), for dealing
# the parts to processes, largest first. All five on two processes go
# [schieber, differenzler] and [solver, english_jazz, norwegian_jazz]: 47.5 s
# on this 2-core machine, against 52.5-52.9 s for [solver, differenzler] and
# the other three (cold, each split twice in turn)
PARTS = {"schieber": 26, "solver": 20, "english_jazz": 19, "differenzler": 18, "norwegian_jazz": 10}
GAMES = ("schieber", "differenzler", "english_jazz", "norwegian_jazz")
HANDS = {"schieber": "JS 9S AS KH QH TD 8D 7C 6C", "differenzler": "JS 9S AS KH QH TD 8D 7C 6C",
         "english_jazz": "JS 9S AS KH QH TD 8D 7C 6C KC QC JC", "norwegian_jazz": None}
SEARCHED = {"schieber": "pimc,heuristic,heuristic,heuristic", "differenzler": "pimc,calibrated,calibrated,calibrated",
            "english_jazz": "pimc,heuristic,heuristic", "norwegian_jazz": "pimc,heuristic,heuristic,heuristic"}  # a policy with a search player seat, per game
# the kernel of each part whose cache entry tells whether the part is warm
MARKERS = {game: (game, "play_chunks") for game in GAMES} | {"solver": ("solve_search", "value")}


def compile_part(part: str) -> None:
    """Compile (or load) every kernel of ``part`` in this process, by running
    each entry point once on a few games or a small position."""
    import cardmc

    if part == "solver":
        four = ["JS 9S", "AS 6H", "KS 7H", "QS 8H"]
        so_far = {"taken": [3, 2, 1, 1], "points": [10, 20, 30, 40]}
        cardmc.solve("schieber", hands=four, to_play=0, contract="S", **so_far)
        cardmc.solve("differenzler", hands=four, to_play=0, contract="S", seat=0, declared=40, **so_far)
        cardmc.solve("english_jazz", hands=["JS 9S", "AS 6H", "KS 7H"], to_play=0, taken=[10, 0, 0], seat=0)
        cardmc.solve("norwegian_jazz", hands=["JS 9S", "AS 6H", "KS 7H"], to_play=0, contract=1, seat=0,
                     taken=[5, 5, 5], points=[0, 0, 0])  # fmt: skip
        cardmc.solve("norwegian_jazz", hands=["2S", "KS", "AS"], to_play=0, seat=0, contract=6)
        from cardmc.solve import bench_solver

        bench_solver("schieber", positions=1, tricks_left=3)
        return
    if part not in GAMES:
        raise ValueError(f"unknown part {part!r}: one of {', '.join(PARTS)}")
    deal = {"deal": 1} if part == "norwegian_jazz" else {}
    for policy in (None, "random"):
        pol = {} if policy is None else {"policy": policy}
        cardmc.simulate(part, games=16, seed=1, threads=1, **pol)
        cardmc.simulate(part, games=16, seed=1, threads=1, aggregate=True, **pol)
    cardmc.simulate(part, games=16, seed=1, threads=1, hands={0: "JS 9S AS"}, **deal)
    cardmc.trace(part, seed=1, games=1)
    cardmc.odds(part, HANDS[part], games=64)
    if part in SEARCHED:  # the kernels' scripted variant, for the search player, in games and hand odds
        cardmc.simulate(part, games=1, seed=1, threads=1, policy=SEARCHED[part], pimc_samples=1, pimc_tricks=2,
                        **({"target": 300} if part == "schieber" else {}))  # fmt: skip
        cardmc.odds(part, HANDS[part], games=1, policy="pimc" if part == "english_jazz" else SEARCHED[part],
                    settings={"pimc_samples": 1, "pimc_tricks": 1},
                    **({"candidates": [0]} if part == "differenzler" else {}))  # fmt: skip


def is_warm(part: str) -> bool:
    """Whether the cache holds a current entry of the part's marker kernel
    (a cheap look at Numba's cache index, without compiling; False when it
    cannot tell)."""
    import importlib

    module, name = MARKERS[part]
    try:
        dispatcher = getattr(importlib.import_module(f"cardmc.kernels.{module}"), name)
        return len(dispatcher._cache._cache_file._load_index()) > 0
    except Exception:  # Numba's cache layout is its own: when in doubt, warm
        return False


def plan(parts, jobs: int) -> list[list[str]]:
    """The parts dealt to ``jobs`` processes, largest first, each to the
    least loaded process (empty processes dropped)."""
    bins: list[list[str]] = [[] for _ in range(max(1, jobs))]
    load = [0] * len(bins)
    for part in sorted(parts, key=lambda p: -PARTS[p]):
        i = load.index(min(load))
        bins[i].append(part)
        load[i] += PARTS[part]
    return [b for b in bins if b]


def command(group: list[str]) -> list[str]:
    """The command line of a process that compiles ``group``."""
    return [sys.executable, "-m", "cardmc.warm", *group]


def warm(parts=None, jobs: int | None = None, only_cold: bool = False, log=None) -> dict[str, float]:
    """Compile ``parts`` (default: all) in ``jobs`` fresh processes at once
    (default: the cores); ``only_cold``: skip the parts already warm. Returns
    the seconds each process took, by its parts. ``log(note)`` hears each
    process's start and end."""
    parts = list(PARTS) if parts is None else list(parts)
    for part in parts:
        if part not in PARTS:
            raise ValueError(f"unknown part {part!r}: one of {', '.join(PARTS)}")
    if only_cold:
        parts = [p for p in parts if not is_warm(p)]
    jobs = jobs or os.cpu_count() or 1
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs!r}")
    say = log or (lambda note: None)
    out: dict[str, float] = {}
    if not parts:
        return out
    t0 = time.perf_counter()
    running = []
    for group in plan(parts, jobs):
        say(f"compiling {', '.join(group)}")
        err = tempfile.TemporaryFile("w+")
        proc = subprocess.Popen(command(group), stdout=subprocess.DEVNULL, stderr=err)
        running.append((", ".join(group), proc, err))
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
        compile_part(name)
