"""Refit Differenzler's ``calibrated`` declaration rule from simulations, or the ``learned`` player's own.

    cardmc calibrate differenzler --games 500000 --seed 20261202
    cardmc simulate differenzler --games 100000 --calibration differenzler_calibration.csv --out d.parquet

The rule declares, for each cell of hand features (seat relative to the
dealer, trumps held, trump J, trump 9, side points), the median of the points
such hands made; the median minimises the expected absolute penalty. Made
points depend on how everyone declares (heuristic play aims at the
declaration), so the fit is repeated with the new rule in force until it
settles (a few rounds). The table is written to the working folder (never
into the installed package); simulations use it by ``--calibration FILE``.

``policy="learned"`` fits the same cells under the ``learned`` player's play
(``cardmc.differenzler_learned``), every seat learned: its own declarations,
shipped as ``kernels/data/differenzler_calibration_learned.csv`` and read
from the tail of the game's ``params`` (``calibrate(policy="learned")`` writes
``differenzler_calibration_learned.csv`` in the working folder).
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import numpy as np
import pandas as pd

from cardmc import checks, files, outputs
from cardmc import differenzler as D
from cardmc.job import make

FORMAT_VERSION = 1
DEFAULT_OUT = D.CALIBRATION_FILE  # in the working folder
PLAYS = ("heuristic", "learned")  # the play a table is fitted under


def shipped_path() -> Path:
    """The table shipped with cardmc (the default of every simulation)."""
    return D.calibration_path()


def calibrate(
    games: int = 500_000,
    seed: int = 20261202,
    rounds: int = 3,
    out: str | os.PathLike | None = None,
    force: bool = False,
    progress: bool = True,
    policy: str = "heuristic",
) -> Path:
    """Fit the table under ``policy``'s play (``heuristic`` or ``learned``), write it atomically to ``out``
    (default ``differenzler_calibration.csv``, or ``differenzler_calibration_learned.csv`` for the learned
    play, in the working folder) and return its path. Round 1 plays heuristic declarations, later rounds
    the table of the round before (carried in the job as the calibrated declarations, not read back from a
    file)."""
    from cardmc.differenzler_learned import CALIBRATION_FILE
    from cardmc.registry import UsageError

    if policy not in PLAYS:
        raise UsageError(f"calibrate fits the play of {' or '.join(PLAYS)}, not {policy!r}")
    default = DEFAULT_OUT if policy == "heuristic" else CALIBRATION_FILE
    target = Path(out if out is not None else default)
    checks.check_file_target(target, checks.check_flag("force", force))
    rounds = checks.check_count("rounds", rounds)
    table = None
    for r in range(rounds):
        job = make(
            "differenzler",
            games,
            seed + r,
            policy=f"{policy}:{'heuristic' if table is None else 'calibrated'}",
        )
        if table is not None:
            job = dataclasses.replace(job, calibration=tuple(int(x) for x in as_array(table).tolist()))
        df = outputs.run(job, progress=progress)
        table = D.fit_calibration(df[df["extra"] == 0])
    assert table is not None
    _write(table, target, games, seed, rounds, force, policy)
    return target


def as_array(table: pd.DataFrame) -> np.ndarray:
    """The kernel's table (one declaration per cell, -1: no data) of a fitted table."""
    out = np.full(len(D.calibration_table()), -1, dtype=np.int64)
    out[table["cell"].to_numpy()] = table["declared"].to_numpy()
    return out


def _write(
    table: pd.DataFrame, target: Path, games: int, seed: int, rounds: int, force: bool, policy: str
) -> None:
    from cardmc import __version__

    if policy == "heuristic":
        made = f"cardmc calibrate differenzler --games {games} --seed {seed}"
    else:
        made = f'cardmc.calibrate.calibrate(policy="{policy}", games={games}, seed={seed})'
    with files.atomic(target, force=force) as tmp, open(tmp, "w") as f:
        f.write(f"# cardmc differenzler calibration, format {FORMAT_VERSION}, cardmc {__version__}\n")
        f.write(f"# {made} ({rounds} rounds, seeds {seed}..{seed + rounds - 1})\n")
        table.to_csv(f, index=False)
