"""English Jazz charts: one function per chart, ``plot_x(table, ax=None) -> Axes``.

Each reads a table of ``cardmc.reports.english_jazz`` with one estimate column per
policy (``random``, ``heuristic``, or ``random_pct`` ...) and its
``_ci_low``/``_ci_high`` columns, and draws every estimate with its 95% CI
as an error bar, one colour per policy, in the shared ``cardmc.mplstyle``
look. On log scales an estimate of zero (no event) is drawn as an open
triangle at its 95% upper bound with the bar running down to the axis.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg", force=False)
import matplotlib.transforms as mtransforms  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from cardmc.reports.charts import axes as _axes  # noqa: E402
from cardmc.reports.charts import need, styled

POLICIES = ("random", "heuristic")
GAP = 1.0  # empty x units between two blocks


def _cols(suffix: str = "") -> list[str]:
    return [f"{p}{suffix}{end}" for p in POLICIES for end in ("", "_ci_low", "_ci_high")]


def _series(ax, x, t: pd.DataFrame, col: str, i: int, label: str, log: bool) -> None:
    """One policy's estimates at ``x`` with 95% CI bars; zeros on a log axis as upper bounds."""
    e, lo, hi = (t[c].to_numpy(float) for c in (col, f"{col}_ci_low", f"{col}_ci_high"))
    x = np.asarray(x, float)
    zero = (e <= 0) if log else np.zeros(len(e), bool)
    if (~zero).any():
        err = np.vstack([e - lo, hi - e])[:, ~zero].clip(min=0)
        if log:  # a lower bound of 0 cannot be drawn on a log axis: run the bar to the axis
            err[0] = np.minimum(err[0], e[~zero] * (1 - 1e-9))
        ax.errorbar(x[~zero], e[~zero], yerr=err, marker="o", linestyle="none", color=f"C{i}", label=label)
    if zero.any():
        ax.errorbar(
            x[zero],
            hi[zero],
            yerr=np.vstack([hi[zero] * (1 - 1e-9), np.zeros(zero.sum())]),
            marker="v",
            markerfacecolor="none",
            linestyle="none",
            color=f"C{i}",
            alpha=0.7,
            label=f"{label}: no event (95% upper bound)",
        )


def _by_policy(ax, labels, t: pd.DataFrame, suffix: str, log: bool, x0=None) -> np.ndarray:
    """Both policies side by side at each row of ``t``; returns the x of the rows."""
    x = np.arange(len(t), dtype=float) if x0 is None else np.asarray(x0, float)
    for i, p in enumerate(POLICIES):
        _series(ax, x + (i - 0.5) * 0.22, t, f"{p}{suffix}", i, p, log)
    ax.set_xticks(x, labels)
    return x


def _floor(ax, t: pd.DataFrame, suffix: str) -> None:
    """Log-axis limits that show every positive lower bound and every upper bound."""
    est = np.concatenate([t[f"{p}{suffix}"].to_numpy(float) for p in POLICIES])
    lows = np.concatenate([t[f"{p}{suffix}_ci_low"].to_numpy(float) for p in POLICIES])
    highs = np.concatenate([t[f"{p}{suffix}_ci_high"].to_numpy(float) for p in POLICIES])
    pos = np.concatenate([lows[est > 0], highs[highs > 0]])
    if len(pos):
        ax.set_ylim(pos.min() / 3, highs.max() * 3)


def plot_sweeps_by_feature(table: pd.DataFrame, ax=None):
    """Chance that a hand takes all 12 tricks, per million hands (log scale), by
    features of the hand as dealt, random and heuristic play, Wilson 95% CIs.
    ``table``: index (feature, value), ``random``, ``heuristic`` and their CI columns."""
    need(table, _cols(), "plot_sweeps_by_feature", ("feature", "value"))
    with styled():
        ax = _axes(ax)
        if ax.figure.get_figwidth() < 9:
            ax.figure.set_size_inches(11, 4.6)
        features = list(dict.fromkeys(table.index.get_level_values("feature")))
        xs, labels, starts = [], [], {}
        at = 0.0
        for f in features:
            values = list(table.xs(f, level="feature").index)
            starts[f] = (at, len(values))
            xs += list(at + np.arange(len(values)))
            labels += [str(v) for v in values]
            at += len(values) + GAP
        ax.set_yscale("log")
        for i, p in enumerate(POLICIES):
            _series(ax, np.array(xs) + (i - 0.5) * 0.25, table, p, i, p, log=True)
        ax.set_xticks(xs, labels, fontsize=8)
        mark = mtransforms.blended_transform_factory(ax.transData, ax.transAxes)
        for f, (start, n) in starts.items():
            ax.text(start + (n - 1) / 2, 1.0, f, transform=mark, ha="center", va="bottom", fontsize=9)
            if start > 0:
                ax.axvline(start - (1 + GAP) / 2, color="grey", linewidth=0.6, alpha=0.5)
        _floor(ax, table, "")
        ax.set_xlabel(
            "hand feature as dealt (count; longest suit in cards; plain card points held, 20s = 20-29)"
        )
        ax.set_ylabel("hands taking all 12 tricks per million (95% CI)")
        ax.set_title("Which hands sweep: all 12 tricks by hand feature", pad=18)
        ax.legend(fontsize=8, loc="lower left", ncol=2)
    return ax


def plot_rules(table: pd.DataFrame, ax=None):
    """Share of deals (%) each rule A-E decides, log scale, by policy, Wilson 95% CIs.
    ``table``: one row per rule, ``random_pct``, ``heuristic_pct`` and their CI columns."""
    need(table, _cols("_pct"), "plot_rules", ())
    with styled():
        ax = _axes(ax)
        ax.set_yscale("log")
        labels = [str(i).split(":")[0] for i in table.index]
        _by_policy(ax, labels, table, "_pct", log=True)
        _floor(ax, table, "_pct")
        ax.set_xlabel("deciding rule (A all 12 tricks, B no trick, C over 100 points, D a tie, E middle)")
        ax.set_ylabel("share of deals (%, log scale, 95% CI)")
        ax.set_title("How deals are decided")
        ax.legend(title="all players")
    return ax


def plot_sweeps_by_position(table: pd.DataFrame, ax=None):
    """Sweeps per million deals by the position of the sweeping hand, by policy,
    Wilson 95% CIs. ``table``: one row per position, ``random``, ``heuristic`` and their CIs."""
    need(table, _cols(), "plot_sweeps_by_position", ())
    with styled():
        ax = _axes(ax)
        _by_policy(ax, [str(i) for i in table.index], table, "", log=False)
        ax.set_ylim(bottom=0)
        ax.set_xlabel("position of the sweeping hand (leader = seat after the dealer)")
        ax.set_ylabel("deals swept by that hand per million (95% CI)")
        ax.set_title("Who takes all 12 tricks")
        ax.legend(title="all players")
    return ax


def plot_trump_setter(table: pd.DataFrame, ax=None):
    """Share of deals (%) in which each position sets trump, or nobody does, by
    policy, Wilson 95% CIs. ``table``: one row per setter, ``random_pct``, ``heuristic_pct``."""
    need(table, _cols("_pct"), "plot_trump_setter", ())
    with styled():
        ax = _axes(ax)
        _by_policy(ax, [str(i) for i in table.index], table, "_pct", log=False)
        ax.set_ylim(bottom=0)
        ax.set_xlabel("who sets trump (first player unable to follow suit), position relative to the dealer")
        ax.set_ylabel("share of deals (%, 95% CI)")
        ax.set_title("Who makes trump")
        ax.legend(title="all players")
    return ax


def plot_seat_advantage(table: pd.DataFrame, ax=None):
    """Mean deal score by position in the deal, and mean 12-deal game total by
    position in the first deal, by policy, 95% CIs (points).
    ``table``: index (policy, position), ``deal_score``, ``game_total`` and their CIs."""
    cols = [f"{m}{end}" for m in ("deal_score", "game_total") for end in ("", "_ci_low", "_ci_high")]
    need(table, cols, "plot_seat_advantage", ("policy", "position"))
    with styled():
        ax = _axes(ax)
        ax.axhline(0, color="grey", linewidth=1)
        policies = list(dict.fromkeys(table.index.get_level_values("policy")))
        positions = list(dict.fromkeys(table.index.get_level_values("position")))
        n = len(positions)
        xs = {"deal_score": np.arange(n, dtype=float), "game_total": np.arange(n, dtype=float) + n + GAP}
        for i, p in enumerate(policies):
            t = table.xs(p, level="policy").loc[positions]
            for j, (m, x) in enumerate(xs.items()):
                e, lo, hi = (t[c].to_numpy(float) for c in (m, f"{m}_ci_low", f"{m}_ci_high"))
                ax.errorbar(
                    x + (i - (len(policies) - 1) / 2) * 0.22,
                    e,
                    yerr=np.vstack([e - lo, hi - e]).clip(min=0),
                    marker="o",
                    linestyle="none",
                    color=f"C{i}",
                    label=str(p) if j == 0 else None,
                )
        ticks = np.concatenate(list(xs.values()))
        ax.set_xticks(ticks, positions * 2)
        mark = mtransforms.blended_transform_factory(ax.transData, ax.transAxes)
        ax.text(
            (n - 1) / 2,
            1.0,
            "deal score, by position in the deal",
            transform=mark,
            ha="center",
            va="bottom",
            fontsize=9,
        )
        ax.text(
            n + GAP + (n - 1) / 2,
            1.0,
            "game total, by position in the first deal",
            transform=mark,
            ha="center",
            va="bottom",
            fontsize=9,
        )
        ax.axvline(n - 1 + (1 + GAP) / 2, color="grey", linewidth=0.6, alpha=0.5)
        ax.set_xlabel("position relative to the dealer")
        ax.set_ylabel("points (mean, 95% CI)")
        ax.set_title("Seat advantage", pad=18)
        ax.legend(title="all players")
    return ax
