"""Estimates with their uncertainty: DataFrame in, DataFrame out.

Every summary keeps raw numbers (estimate, standard error, interval bounds,
sample size); rounding happens only when a table is displayed.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pandas loads where a DataFrame is made: cardmc advise reads estimates here without it
    import pandas as pd

Z95 = 1.959963984540054


def wilson(successes, n, z: float = Z95):
    """Wilson score interval for a proportion: (low, high), vectorised. Its
    ends are exactly 0 when there are no successes and 1 when all are: the
    formula alone leaves a rounding error there (3.5e-18 for 0 of 96)."""
    k = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 1 + z**2 / n
        centre = (p + z**2 / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / denom
        low = np.where((k == 0) & (n > 0), 0.0, np.clip(centre - half, 0.0, 1.0))
        high = np.where((k == n) & (n > 0), 1.0, np.clip(centre + half, 0.0, 1.0))
    return low, high


def proportion(successes, n) -> dict:
    """A proportion with its standard error and 95% Wilson interval."""
    k, n = float(successes), float(n)
    p = k / n if n else np.nan
    lo, hi = wilson(k, n)
    se = np.sqrt(p * (1 - p) / n) if n else np.nan
    return {"estimate": p, "se": se, "ci_low": float(lo), "ci_high": float(hi), "n": int(n), "events": int(k)}


def mean(values) -> dict:
    """A mean with its standard error and 95% normal interval."""
    x = np.asarray(values, dtype=float)
    n = x.size
    m = x.mean() if n else np.nan
    se = x.std(ddof=1) / np.sqrt(n) if n > 1 else np.nan
    return {"estimate": m, "se": se, "ci_low": m - Z95 * se, "ci_high": m + Z95 * se, "n": n}


def grouped_mean(df: pd.DataFrame, by, value: str) -> pd.DataFrame:
    """Mean of ``value`` per group of ``by`` with standard error and 95% CI."""
    import pandas as pd

    g = df.groupby(by, observed=True)[value].agg(["mean", "std", "count"])
    se = g["std"] / np.sqrt(g["count"])
    out = pd.DataFrame(
        {
            "estimate": g["mean"],
            "se": se,
            "ci_low": g["mean"] - Z95 * se,
            "ci_high": g["mean"] + Z95 * se,
            "n": g["count"].astype("int64"),
        }
    )
    return out


def grouped_proportion(df: pd.DataFrame, by, flag: str) -> pd.DataFrame:
    """Share of rows with ``flag`` true per group, with Wilson 95% CI."""
    import pandas as pd

    g = df.groupby(by, observed=True)[flag].agg(["sum", "count"])
    p = g["sum"] / g["count"]
    lo, hi = wilson(g["sum"], g["count"])
    return pd.DataFrame(
        {
            "estimate": p,
            "se": np.sqrt(p * (1 - p) / g["count"]),
            "ci_low": lo,
            "ci_high": hi,
            "n": g["count"].astype("int64"),
            "events": g["sum"].astype("int64"),
        }
    )


def paired_difference(a, b) -> dict:
    """Mean of a - b over the same deals, with its standard error and CI."""
    return mean(np.asarray(a, dtype=float) - np.asarray(b, dtype=float))


def quantiles(values, qs=(0.05, 0.25, 0.5, 0.75, 0.95)) -> pd.Series:
    import pandas as pd

    return pd.Series(
        np.quantile(np.asarray(values, dtype=float), qs), index=[f"q{int(q * 100):02d}" for q in qs]
    )


def fmt(est: float, lo: float, hi: float, digits: int = 3) -> str:
    """``est [lo, hi]`` for display."""
    return f"{est:.{digits}g} [{lo:.{digits}g}, {hi:.{digits}g}]"


def median_ci(values, z: float = Z95) -> dict:
    """The median with a distribution-free 95% interval from order statistics
    (the ranks n/2 -+ z sqrt(n)/2 of the sorted sample)."""
    x = np.sort(np.asarray(values, dtype=float))
    n = x.size
    if n == 0:
        return {"estimate": np.nan, "ci_low": np.nan, "ci_high": np.nan, "n": 0}
    half = z * np.sqrt(n) / 2
    lo = int(max(np.floor(n / 2 - half), 0))
    hi = int(min(np.ceil(n / 2 + half), n - 1))
    return {"estimate": float(np.median(x)), "ci_low": float(x[lo]), "ci_high": float(x[hi]), "n": n}


def mean_from_sums(total, total_sq, n) -> dict:
    """``mean`` from a count, a sum and a sum of squares (integers stay exact: Python ints)."""
    n = int(n)
    if n < 2:
        return {
            "estimate": total / n if n else np.nan,
            "se": np.nan,
            "ci_low": np.nan,
            "ci_high": np.nan,
            "n": n,
        }
    if isinstance(total, (int, np.integer)) and isinstance(total_sq, (int, np.integer)):
        s, q = int(total), int(total_sq)
        var = (n * q - s * s) / (n * (n - 1))
    else:
        var = max(float(total_sq) - float(total) ** 2 / n, 0.0) / (n - 1)
    m = total / n
    se = float(np.sqrt(var / n))
    return {"estimate": m, "se": se, "ci_low": m - Z95 * se, "ci_high": m + Z95 * se, "n": n}


def paired_from_sums(sum_a, sum_b, sq_a, sq_b, prod, n) -> dict:
    """The mean of a - b over the same ``n`` deals from the sums of a, b, a², b² and a·b (whole
    numbers: exact)."""
    return mean_from_sums(int(sum_a) - int(sum_b), int(sq_a) + int(sq_b) - 2 * int(prod), n)


def mean_from_counts(values, counts) -> dict:
    """``mean_from_sums`` of a whole-numbered variable given as ``counts[i]`` times ``values[i]``."""
    v = np.asarray(list(values), dtype=np.int64)
    c = np.asarray(counts, dtype=np.int64)
    return mean_from_sums(int((v * c).sum()), int((v * v * c).sum()), int(c.sum()))


def agresti_coull_se(events, n) -> float:
    """The Agresti-Coull standard error of a proportion: not zero with no events (or all), so a rare
    event does not stop a run early."""
    p = (events + 2) / (n + 4)
    return float(np.sqrt(p * (1 - p) / (n + 4)))


def quantile_of_counts(counts, q: float) -> float:
    """The ``q`` quantile (the lower value at a tie of ranks) of a variable given as counts per value
    0, 1, ..."""
    cum = np.cumsum(counts)
    return float(np.searchsorted(cum, q * cum[-1], side="left"))


def quantile_from_counts(counts, q: float, z: float = Z95) -> dict:
    """The ``q`` quantile of a variable given as counts per value 0, 1, ..., with a distribution-free
    95% interval (the values at the ranks n·q ± z·sqrt(n·q·(1-q)))."""
    n = int(np.sum(counts))
    half = z * np.sqrt(q * (1 - q) / max(n, 1))
    return {
        "estimate": quantile_of_counts(counts, q),
        "se": np.nan,
        "ci_low": quantile_of_counts(counts, max(q - half, 0.0)),
        "ci_high": quantile_of_counts(counts, min(q + half, 1.0)),
        "n": n,
    }


def named(name: str, d, scale: float = 1.0) -> dict:
    """An estimate (a dict or row with estimate, se, ci_low, ci_high) as the columns ``name``,
    ``name_se``, ``name_ci_low``, ``name_ci_high``, times ``scale``."""
    return {
        name: d["estimate"] * scale,
        f"{name}_se": d["se"] * scale,
        f"{name}_ci_low": d["ci_low"] * scale,
        f"{name}_ci_high": d["ci_high"] * scale,
    }


def rate(name: str, events: int, n: int, scale: float, events_name: str | None = None) -> dict:
    """A proportion, scaled, as the columns ``name``, ``name_ci_low``, ``name_ci_high`` (its Wilson
    95% CI; no standard error: the Wald one is 0 with no event, and the interval is not symmetric)
    and its event count as ``events_name`` (int; default ``name_events``)."""
    d = proportion(int(events), int(n))
    out = {
        name: d["estimate"] * scale,
        f"{name}_ci_low": d["ci_low"] * scale,
        f"{name}_ci_high": d["ci_high"] * scale,
    }
    out[events_name or f"{name}_events"] = int(events)
    return out


def paired_outcomes(only_a: int, only_b: int, n: int, scale: float = 1.0) -> dict:
    """Mean of a - b over ``n`` paired 0/1 outcomes, from the discordant counts (a alone, b
    alone), scaled, with a 95% normal CI."""
    d = (only_a - only_b) / n
    var = ((only_a + only_b) / n - d * d) * n / max(n - 1, 1)
    se = math.sqrt(max(var, 0.0) / n)
    return {
        "estimate": d * scale,
        "se": se * scale,
        "ci_low": (d - Z95 * se) * scale,
        "ci_high": (d + Z95 * se) * scale,
    }


def row(label, d: dict, index: str | None = None) -> pd.DataFrame:
    """One estimate (a dict of estimate, se, ... ) as a one-row DataFrame indexed by ``label``;
    ``pd.concat`` of such rows makes a table."""
    import pandas as pd

    return pd.DataFrame([d], index=pd.Index([label], name=index))


def table(rows: dict, index: str = "figure") -> pd.DataFrame:
    """Rows ``{label: estimate dict}`` as a DataFrame indexed by label."""
    import pandas as pd

    return pd.DataFrame.from_dict(rows, orient="index").rename_axis(index)


def median_ci_from_counts(values, counts, z: float = Z95) -> dict:
    """``median_ci`` of the sample a histogram stands for (``counts[i]`` times ``values[i]``)."""
    v = np.asarray(values, dtype=float)
    c = np.asarray(counts, dtype=np.int64)
    order = np.argsort(v, kind="stable")
    v, cum = v[order], np.cumsum(c[order])
    n = int(cum[-1]) if cum.size else 0
    if n == 0:
        return {"estimate": np.nan, "ci_low": np.nan, "ci_high": np.nan, "n": 0}

    def at(rank: int) -> float:  # the value of the sorted sample at 0-based ``rank``
        return float(v[np.searchsorted(cum, rank, side="right")])

    half = z * np.sqrt(n) / 2
    lo = int(max(np.floor(n / 2 - half), 0))
    hi = int(min(np.ceil(n / 2 + half), n - 1))
    med = at(n // 2) if n % 2 else (at(n // 2 - 1) + at(n // 2)) / 2
    return {"estimate": med, "ci_low": at(lo), "ci_high": at(hi), "n": n}
