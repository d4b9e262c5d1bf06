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
its own transposition table (``tt_mib`` MiB at most). Which columns a game
has and how a deal gives them is the game's own (its spec's ``solved``); the
tables of them are ``cardmc.solved_tables``.
"""

from __future__ import annotations

import functools
import os
import threading

import pandas as pd

from cardmc import registry
from cardmc.interrupts import on_interrupt
from cardmc.kernels.jit import in_threads
from cardmc.progress import bar as progress_bar
from cardmc.solve import DEFAULT_TT_MIB, halt, solve


def deal_values(
    game: str, line: dict, tt_mib: float = DEFAULT_TT_MIB, stop: threading.Event | None = None
) -> list[dict]:
    """The solved columns of each deal of one trace line (one game), a dict
    per seat per deal with its ``game``, ``deal`` and ``seat``;
    ``cardmc.solve.halt(stop)`` stops it (KeyboardInterrupt)."""
    solved = registry.get(game).solved
    solving = functools.partial(solve, game, stop=stop)
    rows = []
    players = line["players"]
    for j, d in enumerate(line["deals"]):
        deal = d.get("number", j)
        hands, lead = [" ".join(h) for h in d["hands"]], d["leader"]
        seats = solved.deal(solving, d, hands, lead, players, tt_mib)
        rows.extend({"game": line["index"], "deal": deal, "seat": s, **seats[s]} for s in range(players))
    return rows


def solve_deals(
    job,
    first: int | None = None,
    games: int | None = None,
    threads: int | None = None,
    progress: bool = False,
    tt_mib: float = DEFAULT_TT_MIB,
) -> pd.DataFrame:
    """The solved columns of every deal of games first..first+games-1 of the
    checked ``job`` (default: all its games), one row per seat per deal, in
    game order."""
    spec, tables = job.spec, job.kernel_tables()
    first = job.start if first is None else first
    games = job.games if games is None else games
    shares = max(1, min(threads or os.cpu_count() or 1, games))
    bar = progress_bar(progress, games, "solving", leave=False)
    out: list[list[dict]] = [[] for _ in range(games)]
    stop = threading.Event()

    def work(share: int) -> None:
        for i in range(games * share // shares, games * (share + 1) // shares):
            line = spec.trace_game(job.seed, first + i, job.players, job.options, job.policy, **tables)
            out[i] = deal_values(job.game, line, tt_mib, stop)
            bar.update(1)

    try:  # Ctrl-C stops the searches at once, also within a block that a run lets finish
        with on_interrupt(lambda: halt(stop)):
            in_threads(work, shares, halt=lambda: halt(stop))
    finally:
        bar.close()
    columns = ["game", "deal", "seat", *spec.solved.columns]
    df = pd.DataFrame([row for game in out for row in game], columns=columns)
    for name in spec.solved.columns:
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
