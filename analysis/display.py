"""Tables for people: estimates rounded to their Monte Carlo error."""
from __future__ import annotations

import math

import pandas as pd


def _digits(se: float) -> int:
    """Decimals that show a value to about its standard error."""
    if not se or not math.isfinite(se) or se <= 0:
        return 3
    return max(0, min(6, 1 - int(math.floor(math.log10(se)))))


def readable(table: pd.DataFrame) -> pd.DataFrame:
    """``estimate [ci_low, ci_high]`` columns rounded to the standard error."""
    if not {"estimate", "ci_low", "ci_high"} <= set(table.columns):
        return table
    cells = []
    for est, lo, hi, se in zip(table["estimate"], table["ci_low"], table["ci_high"], table.get("se", table["estimate"] * 0)):
        d = _digits(se)
        cells.append(f"{est:.{d}f} [{lo:.{d}f}, {hi:.{d}f}]")
    keep = [c for c in table.columns if c not in ("estimate", "se", "ci_low", "ci_high")]
    out = table[keep].copy()
    out.insert(0, "estimate [95% CI]", cells)
    return out


def show(name: str, table: pd.DataFrame, max_rows: int = 40) -> str:
    body = readable(table).to_string(max_rows=max_rows)
    return f"\n== {name}\n{body}"
