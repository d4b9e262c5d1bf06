"""What every experiment shares: blocks of games and the record of a result's seed and size."""

from __future__ import annotations

import numpy as np
import pandas as pd

from cardmc.progress import bar as progress_bar
from cardmc.registry import UsageError

BLOCK = 50_000  # games simulated and reduced at a time: memory stays flat at any size


def check_block(block) -> int:
    if isinstance(block, bool) or not isinstance(block, (int, np.integer)) or block < 1:
        raise UsageError(f"block must be a positive whole number, not {block!r}")
    return int(block)


def blocks(games: int, block: int = BLOCK, progress: bool = False, what: str = ""):
    """(first game, count) of each block of ``games`` games; with ``progress``, one bar for them all."""
    block = check_block(block)
    with progress_bar(progress, games, what) as bar:
        for first in range(0, games, block):
            count = min(block, games - first)
            yield first, count
            bar.update(count)


def record(table: pd.DataFrame, **facts) -> pd.DataFrame:
    """``table`` with ``facts`` (seed, games, ...) in its ``attrs``, so a result says how it was made."""
    table.attrs.update(facts)
    return table


def search_match(game: str, seed: int, games: int, arms, players: int | None = None) -> pd.DataFrame:
    """The search player against the heuristic's play, paired on the same deals
    (``cardmc.compare``; ``arms``: the plain arm first, then the one with
    ``pimc`` seats): each arm's natural measure of the seats that differ (per
    hand or per game), and the difference against the first arm, 95% CIs."""
    from cardmc.compare import compare

    t = compare(game, list(arms), games=games, seed=seed, players=players)
    out = t.drop(columns=["unpaired_se", "policy", "settings"])
    return record(out, seed=seed, games=games)
