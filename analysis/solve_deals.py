"""The solver's values of every deal of a run, as dealt: ``simulate(..., solve=True)``.

    >>> import cardmc
    >>> df = cardmc.simulate("english_jazz", games=100, seed=1, solve=True)
    >>> (df["solved_sweep"].mean(), df["all_tricks"].mean())     # could, and did  # doctest: +SKIP

Each deal is solved from its first lead with every hand seen
(``cardmc.solve``), one row per seat, keyed like the run's rows by
``game``, ``deal`` and ``seat``:

* Schieber: ``solved_points``, the card points the seat's team ends the deal
  with when both teams play best under the contract chosen (last trick 5 and
  the match's 100 included; times 1, Weis and Stöck not included), and
  ``solved_C`` ... ``solved_undenufe``, the same under each contract, so a
  choice can be graded.
* Differenzler: ``solved_at_least``, the points the seat can be sure to
  reach whatever the others do, and ``solved_at_most``, the points it can be
  sure not to exceed.
* English Jazz: ``solved_tricks``, the most tricks the seat can be sure of
  against the other two playing together (trump set by the play), and
  ``solved_sweep``, 1 when that is all 12.
* Norwegian Jazz, deals 1-5: ``solved_held_to``, the deal score the others
  together can hold the seat to, and ``solved_escape``, its score when every
  seat helps it; deal 6 (sevens): ``solved_out_first`` (1: it can go out
  first whatever the others do) and ``solved_score``. Columns of the other
  kind of deal are missing (<NA>).

The deals are the run's own (game i of seed s, replayed as its trace), and a
solver value is exact, so the columns are the same whatever the threads or
chunks. Games are solved side by side on the run's threads, each thread with
its own transposition table (``tt_mib`` MiB at most).
"""
from __future__ import annotations

import functools
import os
import threading

import numpy as np
import pandas as pd

from cardmc.interrupts import on_interrupt
from cardmc.kernels.jit import in_threads
from cardmc.solve import DEFAULT_TT_MIB, ENTRY_BYTES, SCHIEBER_CONTRACTS, _rules, halt, solve

SWEEP_TT_MIB = 16  # a sweep probe is mostly answered by its bounds: a small table a thread

COLUMNS = {
    "schieber": ["solved_points", *(f"solved_{c}" for c in SCHIEBER_CONTRACTS)],
    "differenzler": ["solved_at_least", "solved_at_most"],
    "english_jazz": ["solved_tricks", "solved_sweep"],
    "norwegian_jazz": ["solved_held_to", "solved_escape", "solved_out_first", "solved_score"],
}


def deal_values(game: str, line: dict, tt_mib: float = DEFAULT_TT_MIB,
                stop: threading.Event | None = None) -> list[dict]:  # fmt: skip
    """The solved columns of each deal of one trace line (one game), a dict
    per seat per deal with its ``game``, ``deal`` and ``seat``;
    ``cardmc.solve.halt(stop)`` stops it (KeyboardInterrupt)."""
    solving = functools.partial(solve, stop=stop)
    rows = []
    players = line["players"]
    for j, d in enumerate(line["deals"]):
        deal = d.get("number", j)
        hands, lead = [" ".join(h) for h in d["hands"]], d["leader"]
        values = [{"game": line["index"], "deal": deal, "seat": s} for s in range(players)]
        if game == "schieber":
            for contract in SCHIEBER_CONTRACTS:
                v = solving(game, hands=hands, to_play=lead, contract=contract, tt_mib=tt_mib,
                            cards=False).value  # fmt: skip
                for s in range(players):
                    values[s][f"solved_{contract}"] = v[f"team{s % 2}"]
            for s in range(players):
                values[s]["solved_points"] = values[s][f"solved_{d['contract']}"]
        else:
            for s in range(players):
                values[s].update(_seat_values(solving, game, d, hands, lead, s, players, tt_mib))
        rows.extend(values)
    return rows


def _seat_values(solving, game: str, d: dict, hands: list[str], lead: int, seat: int, players: int,
                 tt_mib: float) -> dict:  # fmt: skip
    if game == "differenzler":
        v = solving(game, hands=hands, to_play=lead, contract=d["trump"], seat=seat, tt_mib=tt_mib,
                    cards=False).value  # fmt: skip
        return {"solved_at_least": v["sure_at_least"], "solved_at_most": v["sure_at_most"]}
    if game == "english_jazz":
        v = solving(game, hands=hands, to_play=lead, seat=seat, tt_mib=tt_mib, cards=False).value
        return {"solved_tricks": v["most_tricks"], "solved_sweep": v["all_tricks"]}
    if d["number"] == 6:
        v = solving(game, hands=hands, to_play=lead, contract=6, seat=seat, points=[0] * players,
                    tt_mib=tt_mib).value  # fmt: skip
        return {"solved_out_first": v["out_first"], "solved_score": v["score"]}
    v = solving(game, hands=hands, to_play=lead, contract=d["number"], seat=seat, tt_mib=tt_mib,
                cards=False).value  # fmt: skip
    return {"solved_held_to": v["held_to"], "solved_escape": v["escape"]}


def solve_deals(job, first: int | None = None, games: int | None = None, threads: int | None = None,
                progress: bool = False, tt_mib: float = DEFAULT_TT_MIB) -> pd.DataFrame:  # fmt: skip
    """The solved columns of every deal of games first..first+games-1 of the
    checked ``job`` (default: all its games), one row per seat per deal, in
    game order."""
    spec, tables = job.spec, job.kernel_tables()
    first = job.start if first is None else first
    games = job.games if games is None else games
    parts = max(1, min(threads or os.cpu_count() or 1, games))
    bar = _bar(games, progress)
    out: list[list[dict]] = [[] for _ in range(games)]
    stop = threading.Event()

    def work(p: int) -> None:
        for i in range(games * p // parts, games * (p + 1) // parts):
            line = spec.trace_game(job.seed, first + i, job.players, job.options, job.policy, **tables)
            out[i] = deal_values(job.game, line, tt_mib, stop)
            bar.update(1)

    try:  # Ctrl-C stops the searches at once, also within a block that a run lets finish
        with on_interrupt(lambda: halt(stop)):
            in_threads(work, parts, halt=lambda: halt(stop))
    finally:
        bar.close()
    columns = ["game", "deal", "seat", *COLUMNS[job.game]]
    df = pd.DataFrame([row for game in out for row in game], columns=columns)
    for name in COLUMNS[job.game]:
        df[name] = df[name].astype("Int16")
    return df


def with_solved(rows: pd.DataFrame, solved: pd.DataFrame) -> pd.DataFrame:
    """The run's rows with the solved columns beside them, matched on game, deal and seat."""
    keys = ["game", "deal", "seat"]
    solved = solved.astype({k: rows[k].dtype for k in keys})
    merged = rows.merge(solved, on=keys, how="left", validate="one_to_one", indicator=True)
    if len(solved) != len(rows) or (merged.pop("_merge") != "both").any():
        raise RuntimeError("the solved deals do not match the run's rows")
    return merged


def _bar(total: int, progress: bool):
    if progress:
        from tqdm import tqdm

        return tqdm(total=total, unit="game", desc="solving", leave=False)

    class _Quiet:
        def update(self, n):
            pass

        def close(self):
            pass

    return _Quiet()


def could_sweep(seed: int, start: int, games: int,
                threads: int | None = None) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Could seat s of deal d of game start+g take all 12 tricks against the
    other two, every hand seen (English Jazz, the deals of ``cardmc.simulate``;
    ``cardmc.kernels.solve_sweeps``)? (games, 12, 3) bool, and the hands as
    dealt (uint64 masks). Games side by side on ``threads`` threads, each
    with its own table."""
    from cardmc.kernels.english_jazz import DEALS, PLAYERS
    from cardmc.kernels.solve_sweeps import sweeps

    out = np.zeros((games, DEALS, PLAYERS), np.int8)
    dealt = np.zeros((games, DEALS, PLAYERS), np.uint64)
    parts = max(1, min(threads or os.cpu_count() or 1, games))

    def work(p: int) -> None:
        lo, hi = games * p // parts, games * (p + 1) // parts
        sweeps(seed, start + lo, hi - lo, *sweep_table(), out[lo:hi], dealt[lo:hi])

    in_threads(work, parts)
    return out.astype(bool), dealt


def sweep_table(players: int = 3):
    """A new English Jazz rules array and a small table and buffers for
    ``can_take_all`` / ``sweeps`` (one per thread)."""
    from cardmc.kernels import solve_search as S
    from cardmc.kernels import solve_rules as SR

    entries = 1 << int(np.log2(SWEEP_TT_MIB * 2**20 / ENTRY_BYTES))
    R = _rules("english_jazz", players, 0, 0, 0)
    R[SR.TT_MASK] = entries - 1
    return (R, *S.new_table(entries), *S.new_buffers())
