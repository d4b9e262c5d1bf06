"""Tables for people: estimates rounded to their Monte Carlo error.

``estimate`` is the one formatter of an estimate with its 95% interval,
``x [low, high]``: every report headline and table cell and every CLI table
goes through it. The rule:

* rounded to the standard error (``digits``): two significant digits of the
  error, so the last digit shown is the first one the sampling moves;
* a value too small for a few decimals (below 0.001 with an error below
  0.0001) in scientific notation, ``2.4e-05 [1.1e-05, 4.9e-05]``;
* an estimate of zero events shows its Wilson upper bound to two significant
  digits, ``0 [0, 3.8e-05]``: never ``0.000 [0.000, 0.000]``, which would
  claim a certainty the sample does not have.
"""

from __future__ import annotations

import math
from numbers import Integral
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the tables come as DataFrames: ``show_rows`` writes a table of rows without pandas
    import pandas as pd

Z95 = 1.959963984540054
MAX_DECIMALS = 6
TINY = 1e-3  # below this (with an error that needs more than 4 decimals): scientific notation


def digits(se: float) -> int:
    """Decimals that show a value to about its standard error."""
    if not se or not math.isfinite(se) or se <= 0:
        return 3
    return max(0, min(MAX_DECIMALS, 1 - int(math.floor(math.log10(se)))))


def _finite(x) -> bool:
    try:
        return x is not None and math.isfinite(float(x))  # (pandas' NA and NaT are no float)
    except (TypeError, ValueError):
        return False


def _fixed(x: float, decimals: int) -> str:
    out = f"{x:.{decimals}f}"
    return out[1:] if out.startswith("-") and float(out) == 0 else out  # no "-0.0"


def _sci(x: float, decimals_of_error: int) -> str:
    """``x`` in scientific notation, its last digit where the error's second one is (2 digits at least)."""
    if x == 0:
        return "0"
    mantissa = min(max(int(math.floor(math.log10(abs(x)))) + decimals_of_error, 1), MAX_DECIMALS)
    return f"{x:.{mantissa}e}"


def _bound(x: float) -> str:
    """A bound to two significant digits, scientific when tiny: ``0.0064``, ``3.8e-05``, ``12``."""
    if x == 0:
        return "0"
    if abs(x) < TINY:
        return f"{x:.1e}"
    out = f"{x:.2g}"
    return f"{float(out):.0f}" if "e+" in out else out


def estimate(est, low, high, se=None, unit: str = "") -> str:
    """``est [low, high]`` rounded to the standard error ``se`` (from the interval's width when not
    given); an estimate of 0 with a lower bound of 0 (no event) shows the upper bound:
    ``0 [0, 3.8e-05]``. ``unit`` (such as ``%``) follows every number. Empty for a missing estimate."""
    if not _finite(est):
        return ""
    est = float(est)
    low = float(low) if _finite(low) else math.nan
    high = float(high) if _finite(high) else math.nan
    if not (_finite(low) and _finite(high)):  # one value (n = 1): no interval to give
        return f"{est:g}{unit} [no interval]"
    if est == 0 and abs(low) <= 1e-12 * max(1.0, abs(high)):  # no event: the upper bound says how rare
        return f"0{unit} [0{unit}, {_bound(high)}{unit}]"
    s = float(se) if _finite(se) and float(se) > 0 else max(high - est, est - low) / Z95
    if not s > 0:  # no spread at all (every event, or a constant): the value as it is
        return f"{est:g}{unit} [{low:g}{unit}, {high:g}{unit}]"
    need = 1 - int(math.floor(math.log10(s)))  # decimals down to the error's second digit
    top = max(abs(est), abs(low), abs(high))
    if need > 4 and top < TINY:
        parts = (_sci(x, need) for x in (est, low, high))
    else:
        d = max(0, min(MAX_DECIMALS, need))
        parts = (_fixed(x, d) for x in (est, low, high))
    e, lo, hi = parts
    return f"{e}{unit} [{lo}{unit}, {hi}{unit}]"


def cell(row, col: str = "estimate", scale: float = 1.0, unit: str = "", sign: int = 1) -> str:
    """``estimate`` of column ``col`` of ``row`` (a Series or dict) with its ``ci_low``/``ci_high``
    (``col_ci_low``... for another column) and ``se`` if there is one; times ``scale``
    (100 for percent), ``sign=-1`` for the negated estimate."""
    lo, hi, se = (
        ("ci_low", "ci_high", "se") if col == "estimate" else (f"{col}_ci_low", f"{col}_ci_high", f"{col}_se")
    )
    get = row.get if hasattr(row, "get") else row.__getitem__
    e, a, b, s = (get(c) for c in (col, lo, hi, se))
    f = scale * sign
    e, a, b = (x * f if _finite(x) else x for x in (e, a, b))
    if sign < 0 and _finite(a) and _finite(b):
        a, b = b, a
    return estimate(e, a, b, abs(s * scale) if _finite(s) else None, unit)


def readable(table: pd.DataFrame) -> pd.DataFrame:
    """Each estimate with its interval in one column, ``x [low, high]`` (``estimate``):
    ``estimate`` (or, in a table without one, ``share``) with ``ci_low``/``ci_high``
    (and ``se``), and any ``X`` with ``X_ci_low``/``X_ci_high`` (``X_se``)."""
    out = table.copy()
    cols = list(table.columns)
    main = "estimate" if "estimate" in cols or "share" not in cols else "share"
    for c in cols:
        name = str(c)
        lo, hi, se = (
            ("ci_low", "ci_high", "se")
            if name == main
            else (f"{name}_ci_low", f"{name}_ci_high", f"{name}_se")
        )
        if lo not in table.columns or hi not in table.columns:
            continue
        ses = table[se] if se in table.columns else [None] * len(table)
        cells = [estimate(e, a, b, s) for e, a, b, s in zip(table[c], table[lo], table[hi], ses)]
        label = f"{name} [95% CI]"
        at = list(out.columns).index(c)
        out = out.drop(columns=[x for x in (c, lo, hi, se) if x in out.columns])
        out.insert(min(at, len(out.columns)), label, cells)
    return out


def show(name: str, table: pd.DataFrame, max_rows: int = 40) -> str:
    body = readable(table).to_string(max_rows=max_rows)
    return f"\n== {name}\n{body}"


def show_rows(name: str, rows: list[dict], index: str) -> str:
    """``show(name, pd.DataFrame(rows).set_index(index), len(rows))``, the
    same text, written without pandas when every column is text or whole
    numbers once ``readable`` joined the estimates (the answer of
    ``cardmc advise`` in a process that never loads pandas); else by pandas."""
    columns = [c for c in rows[0] if c != index]
    cells = {c: [r[c] for r in rows] for c in columns}
    main = "estimate" if "estimate" in columns or "share" not in columns else "share"
    out = list(columns)
    for c in columns:  # as ``readable`` does
        lo, hi, se = ("ci_low", "ci_high", "se") if c == main else (f"{c}_ci_low", f"{c}_ci_high", f"{c}_se")
        if lo not in columns or hi not in columns:
            continue
        ses = cells[se] if se in columns else [None] * len(rows)
        label = f"{c} [95% CI]"
        cells[label] = [estimate(e, a, b, s) for e, a, b, s in zip(cells[c], cells[lo], cells[hi], ses)]
        at = out.index(c)
        out = [x for x in out if x not in (c, lo, hi, se)]
        out.insert(min(at, len(out)), label)
    body = _text_table(index, [r[index] for r in rows], [(c, cells[c]) for c in out])
    if body is None:
        import pandas as pd

        return show(name, pd.DataFrame(rows).set_index(index), max_rows=len(rows))
    return f"\n== {name}\n{body}"


def _text_table(index: str, labels: list, columns: list[tuple[str, list]]) -> str | None:
    """``DataFrame.to_string`` of a table of text and whole-number columns with
    a named index of text: the index left-aligned, every column right-aligned
    after one space, its values after one more (a negative number's sign in
    its place); None for any other table, and for text that pandas would cut
    (``display.max_colwidth``) or print otherwise."""
    if not all(isinstance(x, str) and x.isprintable() for x in [index, *labels]):
        return None
    shown = []
    for name, values in columns:
        if all(isinstance(v, str) and len(v) <= 40 and v.isprintable() for v in values):
            texts = [f" {v}" for v in values]
        elif all(isinstance(v, Integral) and not isinstance(v, bool) for v in values):
            texts = [f"{int(v): d}" for v in values]
        else:
            return None
        if not (isinstance(name, str) and name.isprintable()):
            return None
        width = max(len(name), *(len(t) for t in texts))
        shown.append((name.rjust(width), [t.rjust(width) for t in texts]))
    left = max(len(index), *(len(x) for x in labels))
    lines = [" " * left + "".join(" " + head for head, _ in shown)]
    lines.append(index.ljust(len(lines[0])))
    for i, label in enumerate(labels):
        lines.append(label.ljust(left) + "".join(" " + texts[i] for _, texts in shown))
    return "\n".join(lines)
