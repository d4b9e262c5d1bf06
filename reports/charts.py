"""One function per chart: ``plot_x(table, ax=None) -> Axes``.

Every chart reads a table of the analyses (estimate, ci_low, ci_high, ...)
and draws its uncertainty as error bars or bands; all share
``cardmc.mplstyle``.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import matplotlib

matplotlib.use("Agg", force=False)
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

STYLE = str(Path(__file__).with_name("cardmc.mplstyle"))


@contextmanager
def styled():
    with plt.style.context(STYLE):
        yield


def axes(ax):
    """``ax``, or the axes of a new figure."""
    if ax is None:
        _, ax = plt.subplots()
    return ax


def need(table: pd.DataFrame, columns, what: str, levels=()) -> None:
    """``UsageError`` unless ``table`` is a non-empty DataFrame with these
    columns (and index levels); ``what`` names the chart."""
    from cardmc.registry import UsageError

    if not isinstance(table, pd.DataFrame):
        raise UsageError(f"{what} needs a DataFrame, not {type(table).__name__}")
    missing = [c for c in columns if c not in table.columns]
    missing += [lv for lv in levels if lv not in table.index.names]
    if missing:
        raise UsageError(
            f"{what} needs columns/index levels {', '.join(map(str, missing))}; the table has "
            f"columns {', '.join(map(str, table.columns))} and index {table.index.names}"
        )
    if table.empty:
        raise UsageError(f"{what} got an empty table")


def _yerr(t: pd.DataFrame) -> np.ndarray:
    return np.vstack([t["estimate"] - t["ci_low"], t["ci_high"] - t["estimate"]])


def plot_estimates(table: pd.DataFrame, ax=None, xlabel: str = "", ylabel: str = "", title: str = ""):
    """Estimates with 95% CI error bars, one bar per row of ``table``."""
    with styled():
        ax = axes(ax)
        labels = [" ".join(map(str, i)) if isinstance(i, tuple) else str(i) for i in table.index]
        x = np.arange(len(table))
        ax.bar(x, table["estimate"], yerr=_yerr(table), color="C0", alpha=0.8, ecolor="black")
        ax.set_xticks(x, labels, rotation=30 if max(map(len, labels), default=0) > 6 else 0, ha="right")
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_title(title)
    return ax


def plot_distribution(
    counts: pd.DataFrame,
    ax=None,
    by: str = "declaration",
    value: str = "penalty",
    xlabel: str = "",
    title: str = "",
):
    """Share of outcomes per value, one line per group, with Wilson 95% bands.

    ``counts`` has columns ``by``, ``value``, ``share``, ``ci_low``, ``ci_high``."""
    with styled():
        ax = axes(ax)
        for i, (name, g) in enumerate(counts.groupby(by, observed=True, sort=False)):
            g = g.sort_values(value)
            ax.plot(g[value], g["share"], label=str(name), color=f"C{i}")
            ax.fill_between(g[value], g["ci_low"], g["ci_high"], color=f"C{i}", alpha=0.25, linewidth=0)
        ax.set_xlabel(xlabel or value)
        ax.set_ylabel("share of hands")
        ax.set_title(title)
        ax.legend()
    return ax


def plot_calibration(table: pd.DataFrame, ax=None, title: str = "Declared vs made"):
    """Mean made points per declared-points bin, with 95% CIs, per rule;
    the diagonal is a perfectly calibrated declaration.

    ``table`` has columns ``declaration``, ``declared`` (bin centre),
    ``estimate``, ``ci_low``, ``ci_high``."""
    with styled():
        ax = axes(ax)
        top = float(max(table["declared"].max(), table["ci_high"].max())) + 5
        ax.plot([0, top], [0, top], color="grey", linestyle="--", linewidth=1, label="made = declared")
        for i, (name, g) in enumerate(table.groupby("declaration", observed=True, sort=False)):
            ax.errorbar(
                g["declared"], g["estimate"], yerr=_yerr(g), marker="o", label=str(name), color=f"C{i}"
            )
        ax.set_xlabel("declared points (bin centre)")
        ax.set_ylabel("points made (mean, 95% CI)")
        ax.set_title(title)
        ax.legend()
    return ax


def plot_ladder(table: pd.DataFrame, title: str = ""):
    """Each pair's X minus Y with its 95% CI, one panel per measure, pairs down the side (``table``:
    ``cardmc.ladder``'s, indexed by measure, x and y); returns the first panel."""
    need(table, ("estimate", "ci_low", "ci_high"), "plot_ladder", levels=("measure", "x", "y"))
    measures = list(dict.fromkeys(table.index.get_level_values("measure")))
    pairs = table.loc[measures[0]].index
    with styled():
        fig, panels = plt.subplots(
            1,
            len(measures),
            sharey=True,
            squeeze=False,
            figsize=(7.0, 1.6 + 0.4 * len(pairs)),
            layout="constrained",
        )
        place = np.arange(len(pairs))[::-1]
        for ax, measure in zip(panels[0], measures):
            t = table.loc[measure].reindex(pairs)
            ax.errorbar(
                t["estimate"], place, xerr=np.nan_to_num(_yerr(t)).clip(min=0), marker="o", linestyle="none"
            )
            ax.axvline(0, color="grey", linewidth=1)
            ax.set_title(measure)
        panels[0][0].set_yticks(place, [f"{x} - {y}" for x, y in pairs])
        fig.supxlabel("X minus Y (95% CI)", fontsize=10)
        fig.suptitle(title, fontweight="bold")
    return panels[0][0]


def save(ax, folder, name: str) -> list[str]:
    """Write the chart as PNG and SVG; returns the file names."""
    fig = ax.figure
    names = [f"{name}.png", f"{name}.svg"]
    with styled():
        for n in names:
            fig.savefig(folder / n)
    plt.close(fig)
    return names
