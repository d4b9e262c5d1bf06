"""Studies that set play against the solver's perfect-information values.

``sweeps_solved(seed, games)``, English Jazz: how often a hand could take
all 12 tricks with every hand seen, against the other two playing together
(``cardmc.english_jazz_solver.could_sweep``), beside how often it does under
heuristic and under random play, on the same deals, per million, by the
position of the hand. A hand that sweeps in play where the solver says it
could not was let through by the others' mistakes.

``contracts_solved(rows)``, Schieber, and ``declarations_solved(rows)``,
Differenzler, read rows simulated with ``solve=True``
(``cardmc.simulate(..., solve=True)``; whole Jass deals take seconds each to
solve, so these are for small runs): how often the contract chosen is the
one with the most points for the chooser's team under best play, and what
the other choices cost; where each declaration falls against the seat's
sure points (at least, at most).

``stored_contracts()`` is ``contracts_solved`` over a run made once and
shipped with cardmc (``data/schieber_solved.csv``: the chooser's row of each
deal of 32 matches of heuristic play, seed 1, with its solved columns; its
head gives the command that made it and cardmc's version). Solving a whole
Schieber deal under all six contracts takes about 40 s on one core, so the
report reads that run instead of solving while it runs.
``stored_declarations()`` does the same for Differenzler
(``data/differenzler_solved.csv``: every seat's row of games of calibrated
play, with its two solved values; 4 to 30 minutes a deal on one core), with
the declarations of the other rules on the same hands beside it.

The solved tables of every game's runs (``solved_contracts``,
``solved_declarations``, ...) are the games' own (their spec's ``solved``,
read by ``cardmc.solved_tables``); ``contracts_solved`` and
``declarations_solved`` are two of them.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from cardmc import differenzler_solver, schieber_solver
from cardmc.api import simulate
from cardmc.checks import check_count, check_seed
from cardmc.english_jazz_solver import could_sweep
from cardmc.experiments.common import BLOCK, blocks, record
from cardmc.experiments.english_jazz import MILLION, POLICIES, POSITION_OF, POSITIONS
from cardmc.kernels.english_jazz import DEALS, PLAYERS
from cardmc.kernels.schieber import CONTRACT_NAMES
from cardmc.solved_tables import need
from cardmc.stats import named, paired_outcomes, rate

ARMS = ("solved", *POLICIES)
UNITS = ("some hand", *POSITIONS)  # per deal: any seat; then the hand in each position


def sweeps_solved(
    seed: int, games: int, block: int = BLOCK, progress: bool = False, threads: int | None = None
) -> pd.DataFrame:
    """Per deal (some hand) and per hand by position: sweeps per million with
    every hand seen (``solved``: it could, whatever the other two do) and in
    play (``random``, ``heuristic``: it did), Wilson 95% CIs, and
    solved minus heuristic paired on the same deals and hands."""
    seed, games = check_seed(seed), check_count("games", games)
    events = {arm: np.zeros(len(UNITS), np.int64) for arm in ARMS}
    pairs = np.zeros((len(UNITS), 2), np.int64)  # only solved, only heuristic
    for start, n in blocks(games, block, progress, "english_jazz"):
        flags, _ = could_sweep(seed, start, n, threads)
        flags = {"solved": flags}
        position = None
        for p in POLICIES:
            df = simulate("english_jazz", games=n, seed=seed, policy=p, start=start, threads=threads)
            flags[p] = df["all_tricks"].to_numpy().reshape(n, DEALS, PLAYERS).astype(bool)
            position = POSITION_OF[df["position"].to_numpy(np.int64).reshape(n, DEALS, PLAYERS)]
        for u in range(len(UNITS)):
            per = {arm: (f.any(axis=2) if u == 0 else f[position == u - 1]) for arm, f in flags.items()}
            for arm in ARMS:
                events[arm][u] += int(per[arm].sum())
            could, did = per["solved"], per["heuristic"]
            pairs[u] += (int((could & ~did).sum()), int((~could & did).sum()))
    deals = games * DEALS
    rows = []
    for u, unit in enumerate(UNITS):
        row = {"unit": unit}
        for arm in ARMS:
            row.update(rate(arm, events[arm][u], deals, MILLION))
        diff = paired_outcomes(int(pairs[u, 0]), int(pairs[u, 1]), deals, MILLION)
        row.update(named("solved_minus_heuristic", diff))
        row.update({"only_solved": int(pairs[u, 0]), "only_heuristic": int(pairs[u, 1]), "n": deals})
        rows.append(row)
    return record(pd.DataFrame(rows).set_index("unit"), seed=seed, games=games)


def contracts_solved(rows: pd.DataFrame) -> pd.DataFrame:
    """Schieber, one row per measure over the deals of ``rows`` (simulated
    with ``solve=True``): the share of deals whose chosen contract gives the
    chooser's team the most points under best play (Wilson 95% CI), and the
    mean points the choice left against the best contract (95% CI), overall
    and for pushed and kept choices."""
    return schieber_solver.summarise_solved(schieber_solver.aggregate_solved(rows))


def declarations_solved(rows: pd.DataFrame) -> pd.DataFrame:
    """Differenzler, by declaration policy: the share of declarations below
    the points the seat can be sure to reach (``solved_at_least``), above the
    points it can be sure not to exceed (``solved_at_most``), and between
    (Wilson 95% CIs); and the mean of declared minus sure at least (95% CI)."""
    return differenzler_solver.summarise_solved(differenzler_solver.aggregate_solved(rows))


STORED_SCHIEBER = Path(__file__).parent / "data" / "schieber_solved.csv"
STORED_COLUMNS = (
    "game",
    "deal",
    "seat",
    "chooser",
    "pushed",
    "contract",
    "solved_points",
    *(f"solved_{c}" for c in CONTRACT_NAMES),
)
STORED_DIFFERENZLER = Path(__file__).parent / "data" / "differenzler_solved.csv"
STORED_DIFFERENZLER_COLUMNS = (
    "game",
    "deal",
    "seat",
    "declare_policy",
    "declared",
    "made",
    "solved_at_least",
    "solved_at_most",
)


def _chooser_rows(rows: pd.DataFrame) -> pd.DataFrame:
    return rows[(rows["seat"] == rows["chooser"]).to_numpy()]


# per game: the file shipped, its columns and the rows it keeps of a run
STORED = {
    "schieber": (STORED_SCHIEBER, STORED_COLUMNS, _chooser_rows),  # the chooser's row of each deal
    "differenzler": (STORED_DIFFERENZLER, STORED_DIFFERENZLER_COLUMNS, lambda rows: rows),
}  # every row


def read_stored(path=None, game: str = "schieber") -> tuple[pd.DataFrame, dict]:
    """(rows, facts) of a stored solved run of ``game`` (default: the one
    shipped with cardmc): the rows of its stored columns (``STORED``) and the
    ``# name: value`` lines of the file's head (seed, games, deals, command,
    cardmc)."""
    default, columns, _ = STORED[game]
    path = default if path is None else path
    facts = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.startswith("#"):
                break
            name, _, value = line[1:].partition(":")
            facts[name.strip()] = value.strip()
    rows = pd.read_csv(path, comment="#")
    missing = [c for c in columns if c not in rows]
    if missing or not {"seed", "games", "command", "cardmc"} <= set(facts) or facts.get("game", game) != game:
        raise ValueError(f"{path} is not a stored solved run of {game} (missing {missing or sorted(facts)})")
    for name in ("seed", "games", "deals"):
        if name in facts:
            facts[name] = int(facts[name])
    return rows, facts


def stored_contracts(path=None) -> pd.DataFrame:
    """``contracts_solved`` over the stored Schieber run (``read_stored``),
    its facts (seed, games, deals, command, cardmc) in ``attrs``."""
    rows, facts = read_stored(path)
    return record(contracts_solved(rows), **facts)


def stored_declarations(path=None, rules=("random", "heuristic")) -> pd.DataFrame:
    """``declarations_solved`` over the stored Differenzler run (every seat
    declaring by the calibrated rule) and, on the same hands, over the
    declarations of each of ``rules`` (the same games simulated again with
    heuristic play and that declaration rule: a deal, and so its solved
    values, does not depend on the play); its facts in ``attrs``."""
    rows, facts = read_stored(path, "differenzler")
    keys = ["game", "deal", "seat"]
    solved = rows[keys + ["solved_at_least", "solved_at_most"]]
    parts = [rows]
    for rule in rules:
        df = simulate("differenzler", games=facts["games"], seed=facts["seed"], policy=f"heuristic:{rule}")
        other = df[keys + ["declare_policy", "declared", "made"]].astype({k: np.int64 for k in keys})
        parts.append(other.merge(solved, on=keys, how="inner", validate="one_to_one"))
    every = pd.concat([p.astype({"declare_policy": str}) for p in parts], ignore_index=True)
    return record(declarations_solved(every), **facts)


def write_stored(
    rows: pd.DataFrame, path, seed: int, games: int, command: str, game: str = "schieber"
) -> None:
    """Stores a run of ``game`` simulated with ``solve=True`` as ``read_stored``
    reads it: Schieber, the chooser's row of each deal; Differenzler, every
    row."""
    from cardmc import __version__
    from cardmc.files import write_text

    _, columns, kept = STORED[game]
    need(rows, game, columns)
    mine = kept(rows).loc[:, list(columns)].sort_values(["game", "deal", "seat"])
    mine = mine.astype({c: str for c in ("contract", "declare_policy") if c in mine})
    deals = len(mine.drop_duplicates(["game", "deal"]))
    facts = (
        ("game", game),
        ("seed", seed),
        ("games", games),
        ("deals", deals),
        ("command", command),
        ("cardmc", __version__),
    )
    head = "".join(f"# {k}: {v}\n" for k, v in facts)
    write_text(path, head + mine.to_csv(index=False, lineterminator="\n"))
