"""What a study hands the report builder."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

import pandas as pd


@dataclass
class Section:
    game: str
    title: str
    question: str
    answer: str  # the headline answer in one sentence, with its CI
    tables: list[tuple[str, str, pd.DataFrame]]  # (name, caption, table)
    charts: list[tuple[str, str, list[str]]]  # (name, caption, files)
    data: dict[str, pd.DataFrame]  # written as CSV
    commands: list[str]  # exact commands that reproduce the section
    sample: str  # how many games / deals, and the seed
    frames: dict[str, pd.DataFrame] = field(default_factory=dict)  # per-game rows, written as Parquet


def note(game: str, progress: bool, text: str) -> None:
    """A line on stderr about a study's progress (when ``progress``)."""
    if progress:
        print(f"{game}: {text}", file=sys.stderr, flush=True)
