"""Small helpers shared by the tests."""
from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import numpy as np

from kernels.cards import code, parse

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
TRACE_FORMAT = SHARED / "tools" / "trace_format.py"


def mask(codes) -> np.uint64:
    m = 0
    for c in codes:
        m |= 1 << parse(c)
    return np.uint64(m)


def codes(m) -> set[str]:
    m = int(m)
    return {code(c) for c in range(64) if (m >> c) & 1}


def trick_array(cards, size: int = 4) -> np.ndarray:
    a = np.full(size, -1, dtype=np.int64)
    for i, c in enumerate(cards):
        a[i] = parse(c)
    return a


def random_split(deck: list[str], sizes: list[int], rnd: random.Random) -> list[list[str]]:
    cards = deck[:]
    rnd.shuffle(cards)
    out, pos = [], 0
    for n in sizes:
        out.append(cards[pos:pos + n])
        pos += n
    return out


def check_trace_form(path: Path) -> str:
    """Run the shared form checker on a trace file; returns its output."""
    if not TRACE_FORMAT.exists():
        import pytest

        pytest.skip(f"shared trace checker not found at {TRACE_FORMAT}")
    done = subprocess.run([sys.executable, str(TRACE_FORMAT), str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


CI_SUFFIXES = ("_se", "_ci_low", "_ci_high")


def ci_columns(col: str) -> tuple[str, str]:
    """The interval columns of an estimate column, by the tables' naming."""
    return ("ci_low", "ci_high") if col == "estimate" else (f"{col}_ci_low", f"{col}_ci_high")


def estimate_columns(table, not_estimates) -> list[str]:
    """The float columns of ``table`` that are estimates (so need a CI)."""
    import pandas as pd

    return [str(c) for c in table.columns
            if pd.api.types.is_float_dtype(table[c]) and str(c) not in not_estimates
            and not str(c).endswith(CI_SUFFIXES)]  # fmt: skip


def study_twice(study, name: str, games: int, seed: int, tmp_path_factory) -> list:
    """(folder, section) of two runs of a report study with the same seed,
    each with its data written, for the reproducibility checks."""
    from reports.build import write_data

    out = []
    for run in ("a", "b"):
        folder = tmp_path_factory.mktemp(f"{name}_{run}")
        section = study(folder, games=games, seed=seed)
        write_data(folder, [section])
        out.append((folder, section))
    return out


def check_cis(section, not_estimates) -> list:
    """Every estimate column of a study's tables and data has CI columns that
    bracket it, and the readable table never shows it bare; returns the
    readable tables for further checks."""
    from analysis.display import readable

    shown_tables = []
    for table in [t for _, _, t in section.tables] + list(section.data.values()):
        cols = estimate_columns(table, not_estimates)
        assert cols, f"no estimates in {list(table.columns)}"
        for col in cols:
            lo, hi = ci_columns(col)
            assert lo in table.columns and hi in table.columns, f"{col} has no CI columns"
            ok = table[[col, lo, hi]].dropna()
            assert (ok[lo] <= ok[col] + 1e-9).all() and (ok[col] <= ok[hi] + 1e-9).all(), col
        shown = readable(table)
        assert not any(c in shown.columns for c in cols), "an estimate is shown without its CI"
        shown_tables.append(shown)
    return shown_tables
