"""Studies that set play against the solver's perfect-information values.

``sweeps_solved(seed, games)``, English Jazz: how often a hand could take
all 12 tricks with every hand seen, against the other two playing together
(``cardmc.solve_deals.could_sweep``), beside how often it does under
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
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from cardmc import stats
from cardmc.api import simulate
from cardmc.driver import check_count, check_seed
from cardmc.experiments.common import BLOCK, blocks, named, record
from cardmc.experiments.english_jazz import MILLION, POLICIES, POSITION_OF, POSITIONS, _paired, _rate
from cardmc.kernels.english_jazz import DEALS, PLAYERS
from cardmc.solve_deals import could_sweep

ARMS = ("solved", *POLICIES)
UNITS = ("some hand", *POSITIONS)  # per deal: any seat; then the hand in each position


def sweeps_solved(seed: int, games: int, block: int = BLOCK, progress: bool = False,
                  threads: int | None = None) -> pd.DataFrame:  # fmt: skip
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
            row.update(_rate(arm, events[arm][u], deals, MILLION))
        both = events["solved"][u] - pairs[u, 0]
        paired = _paired(int(pairs[u, 0]), int(pairs[u, 1]), int(both), deals, MILLION)
        row.update(named("solved_minus_heuristic", paired))
        row.update({"only_solved": int(pairs[u, 0]), "only_heuristic": int(pairs[u, 1]), "n": deals})
        rows.append(row)
    return record(pd.DataFrame(rows).set_index("unit"), seed=seed, games=games)


def _need(rows: pd.DataFrame, game: str, columns) -> None:
    missing = [c for c in columns if c not in rows]
    if missing:
        from cardmc.registry import UsageError

        raise UsageError(f"{game} rows without {', '.join(missing)}: simulate with solve=True")


def _estimate(name: str, d: dict) -> dict:
    return {"measure": name, **{k: d[k] for k in ("estimate", "se", "ci_low", "ci_high", "n")}}


def contracts_solved(rows: pd.DataFrame) -> pd.DataFrame:
    """Schieber, one row per measure over the deals of ``rows`` (simulated
    with ``solve=True``): the share of deals whose chosen contract gives the
    chooser's team the most points under best play (Wilson 95% CI), and the
    mean points the choice left against the best contract (95% CI), overall
    and for pushed and kept choices."""
    from cardmc.solve import SCHIEBER_CONTRACTS

    each = [f"solved_{c}" for c in SCHIEBER_CONTRACTS]
    _need(rows, "schieber", ["solved_points", *each])
    mine = rows[rows["seat"] == rows["chooser"]]
    best = mine[each].astype("int64").max(axis=1)
    lost = best - mine["solved_points"].astype("int64")
    out = []
    for label, keep in (("all deals", np.ones(len(mine), bool)), ("pushed", mine["pushed"].to_numpy() == 1),
                        ("kept", mine["pushed"].to_numpy() == 0)):  # fmt: skip
        if keep.sum() == 0:
            continue
        chose_best = stats.proportion(int((lost[keep] == 0).sum()), int(keep.sum()))
        out.append({"deals": label, **_estimate("best contract chosen", chose_best)})
        out.append({"deals": label, **_estimate("points left (best minus chosen)", stats.mean(lost[keep]))})
    return pd.DataFrame(out).set_index(["deals", "measure"])


def declarations_solved(rows: pd.DataFrame) -> pd.DataFrame:
    """Differenzler, by declaration policy: the share of declarations below
    the points the seat can be sure to reach (``solved_at_least``), above the
    points it can be sure not to exceed (``solved_at_most``), and between
    (Wilson 95% CIs); and the mean of declared minus sure at least (95% CI)."""
    _need(rows, "differenzler", ["solved_at_least", "solved_at_most"])
    out = []
    for policy, g in rows.groupby("declare_policy", observed=True):
        declared = g["declared"].to_numpy(np.int64)
        low = g["solved_at_least"].to_numpy(np.int64)
        high = g["solved_at_most"].to_numpy(np.int64)
        n = len(g)
        for name, hit in (("below sure at least", declared < low), ("above sure at most", declared > high),
                          ("between", (declared >= low) & (declared <= high))):  # fmt: skip
            out.append({"declare_policy": policy, **_estimate(name, stats.proportion(int(hit.sum()), n))})
        out.append({"declare_policy": policy, **_estimate("declared minus sure at least",
                                                          stats.mean(declared - low))})  # fmt: skip
    return pd.DataFrame(out).set_index(["declare_policy", "measure"])
