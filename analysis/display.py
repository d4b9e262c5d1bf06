"""Tables for people: estimates rounded to their Monte Carlo error."""
from __future__ import annotations

import math

import pandas as pd


def digits(se: float) -> int:
    """Decimals that show a value to about its standard error."""
    if not se or not math.isfinite(se) or se <= 0:
        return 3
    return max(0, min(6, 1 - int(math.floor(math.log10(se)))))


def readable(table: pd.DataFrame) -> pd.DataFrame:
    """Each estimate with its interval in one column, ``x [low, high]``,
    rounded to its standard error: ``estimate`` with ``ci_low``/``ci_high``
    (and ``se``), and any ``X`` with ``X_ci_low``/``X_ci_high`` (``X_se``)."""
    out = table.copy()
    cols = list(table.columns)
    for c in cols:
        name = str(c)
        lo, hi, se = ("ci_low", "ci_high", "se") if name == "estimate" else (
            f"{name}_ci_low", f"{name}_ci_high", f"{name}_se")  # fmt: skip
        if lo not in table.columns or hi not in table.columns:
            continue
        ses = table[se] if se in table.columns else (table[hi] - table[lo]) / 3.92
        cells = [f"{e:.{digits(s)}f} [{a:.{digits(s)}f}, {b:.{digits(s)}f}]" if pd.notna(e) else ""
                 for e, a, b, s in zip(table[c], table[lo], table[hi], ses)]  # fmt: skip
        label = "estimate [95% CI]" if name == "estimate" else f"{name} [95% CI]"
        at = list(out.columns).index(c)
        out = out.drop(columns=[x for x in (c, lo, hi, se) if x in out.columns])
        out.insert(min(at, len(out.columns)), label, cells)
    return out


def show(name: str, table: pd.DataFrame, max_rows: int = 40) -> str:
    body = readable(table).to_string(max_rows=max_rows)
    return f"\n== {name}\n{body}"
