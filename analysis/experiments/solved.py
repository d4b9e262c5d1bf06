"""Studies that set play against the solver's perfect-information values.

``sweeps_solved(seed, games)``, English Jazz: how often a hand could take
all 12 tricks with every hand seen, against the other two playing together
(``cardmc.solve_deals.could_sweep``), beside how often it does under
heuristic and under random play, on the same deals, per million, by the
position of the hand. A hand that sweeps in play where the solver says it
could not was let through by the others' mistakes.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

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
