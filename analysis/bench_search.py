"""The exact solver's and the search player's benches: ``cardmc bench GAME
--solver`` (``bench_solver``, ``solver_line``) and ``--pimc`` (``bench_pimc``,
``pimc_line``), both on one thread.

Beside the times, the tables that show where a search's work goes: by tricks
left and by contract family (trump, Obenabe, Undenufe; a Norwegian Jazz deal),
the share of cut nodes whose first move cut, by the seat's place in the trick
and the tricks left (``cut_rates``), and the nodes of one null-window probe
against its distance from the position's value (``probe_nodes``).
"""

from __future__ import annotations

import time

import numba
import numpy as np
import pandas as pd

import cardmc
from cardmc import registry
from cardmc.kernels import solve_rules as SR


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
    probes: tuple[int, ...] = (),
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
    rows, probed = [], []
    cuts = np.zeros(SR.R_SIZE - SR.CUTS, np.int64)
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
        rows.append((time.perf_counter() - t0, int(R[SR.NODES]), int(v), str(con), family(con), left))
        cuts += R[SR.CUTS :]
        for distance in probes:
            SV.fresh_keys(R, keys)
            R[SR.NODES] = 0
            t0 = time.perf_counter()
            S.search(
                R,
                keys,
                lows,
                highs,
                bests,
                ages,
                hands,
                line,
                k,
                leader,
                trump,
                flags,
                v + distance,
                S.BIG,
                moves,
                scores,
                fr,
                fk,
            )
            probed.append((distance, int(R[SR.NODES]), time.perf_counter() - t0, family(con)))
        bar.update()
    bar.close()
    df = pd.DataFrame(rows, columns=["seconds", "nodes", "value", "contract", "family", "tricks_left"])
    df.attrs["cuts"] = cuts
    df.attrs["probes"] = pd.DataFrame(probed, columns=["distance", "nodes", "seconds", "family"])
    return df


def family(contract) -> str:
    """A contract's family in the benches' tables: ``trump`` for a trump
    suit, else the contract itself (``obenabe``, ``undenufe``; a Norwegian
    Jazz deal's number; ``None``: English Jazz, its trump set by play)."""
    from cardmc.kernels.cards import SUITS

    return "trump" if str(contract) in SUITS else str(contract)


def cut_rates(cuts: np.ndarray) -> pd.DataFrame:
    """The share of cut nodes whose first move cut (%), by the seat's place
    in the trick (rows, 1 = the leader) and the tricks left (columns), from
    the counters the search keeps (``R[CUTS:]``; ``bench_solver``'s
    ``attrs["cuts"]``); a place and trick count with no cut: left out."""
    c = cuts.reshape(SR.TRICK_SEATS, SR.MOST_TRICKS, 2)
    total = c.sum(axis=2)
    rate = np.where(total > 0, 100 * c[:, :, 1] / np.maximum(total, 1), np.nan)
    out = pd.DataFrame(
        rate,
        index=pd.RangeIndex(1, SR.TRICK_SEATS + 1, name="place in trick"),
        columns=pd.RangeIndex(1, SR.MOST_TRICKS + 1, name="tricks left"),
    )
    return out.dropna(how="all").dropna(axis=1, how="all").round(1)


def probe_nodes(probes: pd.DataFrame) -> pd.DataFrame:
    """Median nodes and milliseconds of one probe by its distance from the
    value (``bench_solver``'s ``attrs["probes"]``): a probe below the value
    proves a bound, one above refutes it."""
    g = probes.groupby("distance")
    return pd.DataFrame(
        {
            "probes": g.size(),
            "median_nodes": g["nodes"].median(),
            "median_ms": (g["seconds"].median() * 1000).round(2),
        }
    )


def by_family(df: pd.DataFrame) -> pd.DataFrame:
    """``bench_solver``'s rows summed up by contract family: positions,
    median and 99th percentile ms, mean nodes."""
    ms = df["seconds"] * 1000
    g = ms.groupby(df["family"])
    return pd.DataFrame(
        {
            "positions": g.size(),
            "median_ms": g.median().round(2),
            "p99_ms": g.quantile(0.99).round(2),
            "mean_nodes": df["nodes"].groupby(df["family"]).mean().round(0),
        }
    )


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
    probes: tuple[int, ...] = (),
) -> str:
    """The solver bench (``bench_solver`` after one warm-up solve) as one
    line of figures, then its tables (by contract family, ``by_family``;
    first-move cut rates, ``cut_rates``; with ``probes``, ``probe_nodes``):
    ``cardmc bench GAME --solver``; UsageError for a bad argument. One thread, as the search always is. The warm-up (``first
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
    df = bench_solver(
        game, positions, seed, tricks_left, contract, players, tt_mib, objective, progress=True, probes=probes
    )
    s = solver_summary(df)
    left = "whole deals" if tricks_left is None else f"{tricks_left} tricks left"
    objective = objective or SV.spec_of(game).solver.objectives[0]
    tables = [
        "by contract family:\n" + by_family(df).to_string(),
        "share of cut nodes cut by their first move (%):\n" + cut_rates(df.attrs["cuts"]).to_string(),
    ]
    if probes:
        tables.append(
            "one probe from an empty table, by its distance from the value:\n"
            + probe_nodes(df.attrs["probes"]).to_string()
        )
    return "\n\n".join(
        [
            (
                f"{game} {objective} ({left}, contract {contract or 'random'}, seed {seed}): "
                f"{s['positions']} positions, "
                f"median {s['median_ms']:.2f} ms, p99 {s['p99_ms']:.2f} ms, max {s['max_ms']:.2f} ms, "
                f"{s['positions_per_s']:.1f} positions/s, {s['mean_nodes']:.0f} nodes mean, "
                f"{s['nodes_per_s'] / 1e6:.2f} M nodes/s (first call {warm:.1f} s)"
            ),
            *tables,
        ]
    )


def bench_pimc(
    game: str,
    games: int = 2,
    tricks: int | None = None,
    samples: int = 8,
    players: int | None = None,
    seed: int = 1,
) -> tuple[pd.DataFrame, float, int]:
    """The search player with every seat searching, one thread, after one
    warm-up game searching from 3 tricks (compile or load every search kernel): one row per decision it
    searched (``cardmc.pimc.recorded``: tricks left, contract family,
    seconds, nodes), the seconds of the whole games and their deals (a
    Schieber deal cut short by the match's end counts). UsageError for a
    bad argument."""
    from cardmc import pimc

    if game not in registry.GAMES:
        raise registry.UsageError(f"unknown game {game!r}: one of {', '.join(registry.GAMES)}")
    if games < 1:
        raise registry.UsageError(f"games must be at least 1, not {games}")
    if tricks is None:  # the game's default depth
        tricks = int(registry.get(game).options["pimc_tricks"].default)
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
            pimc_tricks=min(tricks, 3),  # every search kernel the timed games call, compiled or loaded first
            pimc_samples=samples,
        )
        with pimc.recorded() as decisions:
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
    df = pd.DataFrame(decisions, columns=["tricks_left", "contract", "seconds", "nodes"])
    solver = registry.get(game).solver
    names = {solver.contract(c)[0]: c for c in solver.contracts}
    df["family"] = [family(names.get(c, c)) for c in df["contract"]]
    return df, seconds, len(rows[["game", "deal"]].drop_duplicates())


def decision_table(df: pd.DataFrame) -> pd.DataFrame:
    """``bench_pimc``'s decisions by tricks left and contract family, and
    over every family (family ``all``): decisions, median, 90th percentile
    and largest ms, median nodes."""
    every = df.assign(family="all")
    both = pd.concat([df, every], ignore_index=True)
    ms = both["seconds"] * 1000
    keys = [both["tricks_left"], both["family"]]
    g = ms.groupby(keys)
    out = pd.DataFrame(
        {
            "decisions": g.size(),
            "median_ms": g.median(),
            "p90_ms": g.quantile(0.9),
            "max_ms": g.max(),
            "median_nodes": both["nodes"].groupby(keys).median(),
        }
    )
    return out.sort_index(ascending=[False, True]).round(1)


def pimc_line(
    game: str,
    games: int = 2,
    tricks: int | None = None,
    samples: int = 8,
    players: int | None = None,
    seed: int = 1,
) -> str:
    """``bench_pimc`` as one line (seconds a deal over whole games) and its
    table of decisions (``decision_table``): ``cardmc bench GAME --pimc``."""
    df, seconds, deals = bench_pimc(game, games, tricks, samples, players, seed)
    tricks = int(registry.get(game).options["pimc_tricks"].default) if tricks is None else tricks
    line = (
        f"{game}: every seat pimc, {samples} samples, from {tricks} tricks left, seed {seed}: "
        f"{games} games, {deals} deals in {seconds:.1f} s = {seconds / deals:.3f} s a deal (1 thread)"
    )
    if df.empty:
        return line
    return (
        line
        + "\n\na decision searched, by tricks left and contract family:\n"
        + decision_table(df).to_string()
    )
