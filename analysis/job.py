"""One run's job: what to simulate, parsed and checked once (``make``), then
passed as it is to threads, chunks, run folders and Dask workers.

A ``Job`` holds plain values only (names, ints, tuples), so it pickles small
and a worker rebuilds the kernel's arrays from it (``params``, ``codes``,
``kernel_tables``) without reading any file of the user's.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
from dataclasses import dataclass

import numpy as np

from cardmc import checks, registry
from cardmc import condition as conditions
from cardmc.condition import Condition
from cardmc.registry import GameSpec, UsageError

ROWS, AGGREGATES = "rows", "aggregates"


@dataclass(frozen=True)
class Job:
    """A checked run: game, game range, seed, players, policy (its text and
    per-seat codes), every option, rows or aggregates, and the game's
    calibration table if it has one (its content, not a path), and the
    condition on its deals (None: unconditioned)."""

    game: str
    games: int
    seed: int
    start: int
    players: int
    policy: str
    policy_codes: tuple[tuple[int, ...], ...]
    settings: tuple[tuple[str, object], ...]  # every rule and simulation option, in the spec's order
    kind: str = ROWS
    calibration: tuple[int, ...] | None = None
    condition: Condition | None = None
    solve: bool = False  # rows carry each deal's solver values (cardmc.solve_deals)

    @property
    def spec(self) -> GameSpec:
        return registry.get(self.game)

    @property
    def options(self) -> dict[str, object]:
        """The settings as a dict (as ``GameSpec.settings`` gives them)."""
        return dict(self.settings)

    @property
    def searching(self) -> bool:
        """Does a seat play the search player ``pimc`` (seconds a game, not microseconds)?"""
        return "pimc" in registry.seat_names(self.policy, self.players, self.game)

    def params(self) -> np.ndarray:
        """The kernel's int64 parameter array."""
        return self.spec.params(self.options)

    def codes(self) -> np.ndarray:
        """The per-seat policy codes, as the kernel reads them."""
        return np.array(self.policy_codes, dtype=np.int64)

    def kernel_tables(self) -> dict[str, np.ndarray]:
        """Keyword arrays of ``spec.simulate_block`` (and ``trace_game``) beyond the usual six."""
        out = {}
        if self.calibration is not None:
            out["calibration"] = np.array(self.calibration, dtype=np.int64)
        if self.condition is not None:
            out["condition"] = self.condition.array()
        return out

    @property
    def calibration_sha256(self) -> str | None:
        """The SHA-256 of the calibration table's content (int64 cells)."""
        if self.calibration is None:
            return None
        return hashlib.sha256(np.array(self.calibration, dtype="<i8").tobytes()).hexdigest()

    def identity(self, chunk_games: int | None) -> dict:
        """What a run folder records and a resumed run must match (a
        conditioned run also its condition)."""
        from cardmc import __version__

        extra = {} if self.condition is None else {"condition": self.condition.text}
        if self.solve:
            extra["solve"] = True
        return {
            **extra,
            "game": self.game,
            "seed": self.seed,
            "start": self.start,
            "games": self.games,
            "policy": self.policy,
            "policy_codes": [list(c) for c in self.policy_codes],
            "players": self.players,
            "settings": self.options,
            "chunk_games": chunk_games,
            "kind": self.kind,
            "calibration": self.calibration_sha256,
            "cardmc": __version__,
        }

    @property
    def metadata(self) -> dict:
        """The run's metadata, as files, frames and aggregates carry it."""
        from cardmc import __version__

        meta = {
            "game": self.game,
            "games": self.games,
            "seed": self.seed,
            "start": self.start,
            "policy": self.policy,
            "players": self.players,
            "settings": json.dumps(self.options, sort_keys=True),
            "version": __version__,
        }
        if self.calibration is not None:
            meta["calibration"] = self.calibration_sha256
        if self.condition is not None:
            meta["condition"] = self.condition.text
        if self.solve:
            meta["solve"] = True
        return {**meta, "kind": self.kind}

    def file_metadata(self) -> dict:
        """The metadata of one output file of rows (without the kind)."""
        return {k: v for k, v in self.metadata.items() if k != "kind"}


def make(
    game: str,
    games: int,
    seed: int = 0,
    policy: str | None = None,
    players: int | None = None,
    settings: dict | None = None,
    start: int = 0,
    aggregate: bool = False,
    calibration: str | os.PathLike | None = None,
    hands=None,
    trump_card: str | None = None,
    deal: int | None = None,
    solve: bool = False,
) -> Job:
    """The checked job; ``UsageError`` names the first bad value. ``hands``,
    ``trump_card`` and ``deal`` condition the deals (``cardmc.condition.make``)."""
    spec = registry.get(game)
    games = checks.check_count("games", games)
    seed = checks.check_seed(seed)
    players = spec.check_players(players)
    policy = spec.default_policy if policy is None else policy
    codes = spec.parse_policy(policy, players)
    condition = conditions.make(spec, players, hands, trump_card, deal)
    full = spec.settings(settings)
    start = checks.check_range(start, games)
    checks.check_flag("aggregate", aggregate)
    checks.check_flag("solve", solve)
    if aggregate:
        from cardmc import aggregate as agg

        agg.require(spec)
    return Job(
        game=spec.name,
        games=games,
        seed=seed,
        start=start,
        players=players,
        policy=policy,
        policy_codes=tuple(tuple(int(x) for x in row) for row in codes.tolist()),
        settings=tuple(full.items()),
        kind=AGGREGATES if aggregate else ROWS,
        calibration=calibration_of(spec, calibration),
        condition=condition,
        solve=solve,
    )


def calibration_of(spec: GameSpec, path: str | os.PathLike | None) -> tuple[int, ...] | None:
    """The content of the game's calibration table: the file ``path``, else
    the shipped one; None for a game without one (which refuses ``path``)."""
    module = importlib.import_module(f"cardmc.{spec.name}")
    read, shipped = getattr(module, "read_calibration", None), getattr(module, "calibration_table", None)
    if read is None or shipped is None:
        if path is not None:
            raise UsageError(f"{spec.name} takes no calibration table, not {os.fspath(path)!r}")
        return None
    if path is None:
        return tuple(int(x) for x in shipped().tolist())
    if not isinstance(path, (str, os.PathLike)) or not os.fspath(path):
        raise UsageError(f"calibration must name a table file, not {path!r}")
    return tuple(int(x) for x in read(path).tolist())
