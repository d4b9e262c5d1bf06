"""``cardmc train GAME`` and ``cardmc.train``: fit a game's ``learned`` player to the search player.

The game's spec says how (``trainer``; Schieber: ``cardmc.schieber_learned``):
decisions of simulated games labelled by the search player's values, a
model fitted to them and its weights written as a file (atomic; an existing
file only with ``force``). Seeded: the same input gives the same file on the
same machine.
"""

from __future__ import annotations

import os

from cardmc import registry
from cardmc.checks import check_count, check_seed, check_threads
from cardmc.registry import UsageError

DECISIONS = 12_000  # decisions labelled by default: about twelve minutes (15-20 a second)
SAMPLES = 4  # deals of the unseen cards solved per decision


def train(
    game: str,
    decisions: int = DECISIONS,
    seed: int = 1,
    out: str | os.PathLike | None = None,
    force: bool = False,
    *,
    depth: int | None = None,
    samples: int = SAMPLES,
    threads: int | None = None,
    progress: bool = False,
) -> dict:
    """Label ``decisions`` decisions of ``game`` with ``depth`` tricks left or fewer (default: the search
    player's default depth in that game, ``pimc_tricks``) by the search player (``samples`` deals each), fit the learned player and write its weights to ``out`` (default
    ``learned_<game>.csv`` in the working folder), labelling games on ``threads`` threads (default one: the
    same file whatever the threads). Returns what it did: decisions, games, seconds, the share
    of decisions where the fitted player picks the search's best card, the file."""
    spec = registry.get(game)
    if spec.trainer is None:
        raise UsageError(f"{game} has no learned player to train")
    decisions = check_count("decisions", decisions)
    seed = check_seed(seed)
    if depth is None:
        depth = int(spec.options["pimc_tricks"].default)
    depth, samples = check_count("depth", depth), check_count("samples", samples)
    if depth > spec.solver.hand_size(spec.default_players):
        raise UsageError(f"depth must be at most {spec.solver.hand_size(spec.default_players)}, not {depth}")
    threads = check_threads(threads)
    out = out if out is not None else f"learned_{game}.csv"
    return spec.trainer(decisions, seed, depth, samples, out, force, progress, threads)


START_GAMES = 20_000  # matches a contract family by default


def train_start(
    game: str,
    games: int = START_GAMES,
    seed: int = 1,
    out: str | os.PathLike | None = None,
    force: bool = False,
    *,
    progress: bool = False,
) -> dict:
    """Fit ``game``'s learned player's decision at a deal's start to its own play (Schieber: the contract
    weights, ``games`` matches a contract family) and write them to ``out`` (default
    ``learned_<game>_contracts.csv`` in the working folder). Returns what it did."""
    spec = registry.get(game)
    if spec.start_trainer is None:
        raise UsageError(f"{game} has no learned decision at a deal's start to train")
    games, seed = check_count("games", games), check_seed(seed)
    out = out if out is not None else f"learned_{game}_contracts.csv"
    return spec.start_trainer(games, seed, out, force, progress)
