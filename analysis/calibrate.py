"""Refit Differenzler's ``calibrated`` declaration rule from simulations.

    cardmc calibrate differenzler --games 500000 --seed 20261202

The rule declares, for each cell of hand features (seat relative to the
dealer, trumps held, trump J, trump 9, side points), the median of the points
such hands made; the median minimises the expected absolute penalty. Made
points depend on how everyone declares (heuristic play aims at the
declaration), so the fit is repeated with the new rule in force until it
settles (a few rounds).
"""
from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from cardmc import differenzler as D
from cardmc.api import simulate

FORMAT_VERSION = 1


def shipped_path() -> Path:
    return D.calibration_path()


def calibrate(games: int = 500_000, seed: int = 20261202, rounds: int = 3, out: str | os.PathLike | None = None) -> Path:
    """Fit the table, write it atomically (default: the shipped file) and
    return its path. Round 1 plays heuristic declarations, later rounds the
    table of the round before."""
    target = Path(out) if out else shipped_path()
    policy = "heuristic"
    table = None
    for r in range(rounds):
        df = simulate("differenzler", games=games, seed=seed + r, policy=policy, progress=True)
        table = D.fit_calibration(df[df["extra"] == 0])
        _write(table, target, games, seed, rounds)
        D.calibration_table.cache_clear()
        policy = "calibrated"
    assert table is not None
    return target


def _write(table: pd.DataFrame, target: Path, games: int, seed: int, rounds: int) -> None:
    from cardmc import __version__

    tmp = target.with_name(f".{target.name}.part")
    with open(tmp, "w") as f:
        f.write(f"# cardmc differenzler calibration, format {FORMAT_VERSION}, cardmc {__version__}\n")
        f.write(f"# cardmc calibrate differenzler --games {games} --seed {seed} ({rounds} rounds, seeds "
                f"{seed}..{seed + rounds - 1})\n")  # fmt: skip
        table.to_csv(f, index=False)
    os.replace(tmp, target)
