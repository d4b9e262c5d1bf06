"""Schieber charts: one function per chart, ``plot_x(table, ax=None) -> Axes``.

Each reads a table of ``cardmc.reports.schieber`` (estimates with ``*_ci_low`` /
``*_ci_high`` columns) and draws every estimate with its 95% CI as an error
bar or band, in the shared ``cardmc.mplstyle`` look.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg", force=False)
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

from cardmc.experiments.schieber import FAMILIES  # noqa: E402
from cardmc.registry import UsageError  # noqa: E402
from cardmc.reports.charts import axes as _axes  # noqa: E402
from cardmc.reports.charts import need, styled


def _err(t: pd.DataFrame, col: str = "estimate") -> np.ndarray:
    lo, hi = ("ci_low", "ci_high") if col == "estimate" else (f"{col}_ci_low", f"{col}_ci_high")
    return np.vstack([t[col] - t[lo], t[hi] - t[col]]).clip(min=0)


def plot_push_gain(table: pd.DataFrame, ax=None, threshold: float | None = None):
    """Push minus choose (forehand team net points per deal, same deals) by the
    forehand's hand strength, with a 95% CI band; bins with finite edges only.

    ``table`` has ``from_points``, ``to_points``, ``push_minus_choose`` and its
    ``_ci_low``/``_ci_high``."""
    col = "push_minus_choose"
    need(table, ("from_points", "to_points", col, f"{col}_ci_low", f"{col}_ci_high"), "plot_push_gain")
    t = table.dropna(subset=["from_points", "to_points"])
    t = t[(t["from_points"] > -1000) & (t["to_points"] < 1000)].sort_values("from_points")
    with styled():
        ax = _axes(ax)
        x = (t["from_points"] + t["to_points"]) / 2
        ax.axhline(0, color="grey", linewidth=1)
        ax.fill_between(
            x, t[f"{col}_ci_low"], t[f"{col}_ci_high"], color="C0", alpha=0.25, linewidth=0, label="95% CI"
        )
        ax.plot(x, t[col], marker="o", color="C0", label="push - choose")
        if threshold is not None:
            ax.axvline(
                threshold,
                color="C1",
                linestyle="--",
                linewidth=1,
                label=f"heuristic pushes below {threshold:g}",
            )
        ax.set_xlabel("forehand's best contract value (points after multiplier, bin centre)")
        ax.set_ylabel("push - choose (net points per deal)")
        ax.set_title("When pushing pays: forced push vs forced choice on the same deals")
        ax.legend()
    return ax


def plot_contract_worth(table: pd.DataFrame, ax=None):
    """Chooser team's card points (before the multiplier) and deal score
    (after it) per contract, with 95% CI error bars."""
    cols = ("card_points", "deal_score", "net_score")
    need(table, [f"{c}{s}" for c in cols for s in ("", "_ci_low", "_ci_high")], "plot_contract_worth")
    with styled():
        ax = _axes(ax)
        x = np.arange(len(table))
        width = 0.27
        labels = {
            "card_points": "card points (before multiplier)",
            "deal_score": "deal score (after multiplier)",
            "net_score": "net: own minus other team's score",
        }
        for i, c in enumerate(cols):
            ax.bar(
                x + (i - 1) * width,
                table[c],
                width,
                yerr=_err(table, c),
                label=labels[c],
                color=f"C{i}",
                alpha=0.85,
                ecolor="black",
            )
        ax.set_xticks(x, [str(i) for i in table.index], rotation=20, ha="right")
        ax.axhline(0, color="grey", linewidth=1)
        ax.set_xlabel("contract (multiplier)")
        ax.set_ylabel("chooser's team, points per deal (mean)")
        ax.set_title("What each contract is worth to the team that chose it")
        ax.legend()
    return ax


def plot_weis(table: pd.DataFrame, ax=None):
    """Share of hands declaring each kind of Weis: simulated (95% Wilson CI
    error bars) beside the exact probability over all C(36, 9) hands."""
    need(table, ("exact", "simulated", "simulated_ci_low", "simulated_ci_high"), "plot_weis")
    t = table[table["exact"] <= 1]  # shares only (no points rows)
    with styled():
        ax = _axes(ax)
        x = np.arange(len(t))
        ax.bar(x, t["exact"], 0.6, color="C0", alpha=0.35, label="exact (enumeration)")
        ax.errorbar(
            x, t["simulated"], yerr=_err(t, "simulated"), fmt="o", color="C1", label="simulated (95% CI)"
        )
        ax.set_yscale("log")
        ax.set_xticks(x, [str(i) for i in t.index], rotation=30, ha="right")
        ax.set_xlabel("kind of Weis declared")
        ax.set_ylabel("share of hands (log scale)")
        ax.set_title("Weis: simulated frequency vs exact probability")
        ax.legend()
    return ax


def plot_contract_choice(table: pd.DataFrame, ax=None, feature: str = "aces"):
    """Share of chosen contracts by family (trump, Obenabe, Undenufe) against
    one feature of the chooser's hand, with 95% Wilson bands.

    ``table`` is indexed by (feature, value) with columns ``trump``,
    ``obenabe``, ``undenufe`` and their ``_ci_low``/``_ci_high``."""
    need(table, [f"{f}{s}" for f in FAMILIES for s in ("", "_ci_low", "_ci_high")], "plot_contract_choice")
    if feature not in table.index.get_level_values(0):
        raise UsageError(
            f"feature {feature!r} is not in the table; it has "
            f"{', '.join(map(str, table.index.get_level_values(0).unique()))}"
        )
    t = table.xs(feature, level=0).sort_index()
    x = np.asarray(t.index, dtype=float)
    with styled():
        ax = _axes(ax)
        for i, f in enumerate(FAMILIES):
            ax.plot(x, t[f], marker="o", color=f"C{i}", label=f)
            ax.fill_between(x, t[f"{f}_ci_low"], t[f"{f}_ci_high"], color=f"C{i}", alpha=0.25, linewidth=0)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel(f"{feature} in the chooser's hand (cards)")
        ax.set_ylabel("share of contracts chosen")
        ax.set_ylim(0, 1)
        ax.set_title(f"Contract chosen by {feature} held (heuristic play)")
        ax.legend()
    return ax


def plot_house_rules(table: pd.DataFrame, ax=None):
    """Value of each contract (forehand team's net points per deal) under the rulebook's defaults and
    under the Swiss house rules, on the same deals, with 95% CI error bars.

    ``table`` is ``house_rules(...)["contracts"]``: ``default``, ``swiss`` and their CI columns."""
    cols = [f"{c}{s}" for c in ("default", "swiss") for s in ("", "_ci_low", "_ci_high")]
    need(table, cols, "plot_house_rules")
    with styled():
        ax = _axes(ax)
        y = np.arange(len(table))[::-1]
        for i, (col, label) in enumerate(
            (
                ("default", "rulebook defaults"),
                ("swiss", "Swiss house rules (6 = 11 in Undenufe, four 9s = 150, scaled long runs)"),
            )
        ):
            ax.errorbar(
                table[col],
                y + (0.15 if i == 0 else -0.15),
                xerr=_err(table, col),
                fmt="o",
                color=f"C{i}",
                label=label,
                capsize=2,
            )
        ax.set_yticks(y, [str(i) for i in table.index])
        ax.axvline(0, color="grey", linewidth=1)
        ax.set_xlabel("forehand team's net points per deal (own minus other team's, after the multiplier)")
        ax.set_ylabel("contract played by the forehand")
        ax.set_title("What each contract is worth: rulebook vs Swiss house rules, same deals")
        ax.legend(loc="lower right", fontsize="small")
    return ax


def plot_push_rules(table: pd.DataFrame, ax=None):
    """What the heuristic's push rule gains over never and over always pushing (forehand team's net
    points per deal, same deals) under each rule set, with 95% CI error bars; each rule set labelled
    with its threshold and, where it was found, where pushing stops paying.

    ``table`` is ``push_check(...)["push"]``: ``threshold``, ``crossing``, ``gain_over_never``,
    ``gain_over_always`` and their CI columns."""
    cols = ["threshold", "crossing"] + [
        f"gain_over_{w}{s}" for w in ("never", "always") for s in ("", "_ci_low", "_ci_high")
    ]
    need(table, cols, "plot_push_rules")
    with styled():
        ax = _axes(ax)
        y = np.arange(len(table))[::-1]
        for i, (col, label) in enumerate(
            (("gain_over_never", "over never pushing"), ("gain_over_always", "over always pushing"))
        ):
            ax.errorbar(
                table[col],
                y + (0.15 if i == 0 else -0.15),
                xerr=_err(table, col),
                fmt="o",
                color=f"C{i}",
                label=label,
                capsize=2,
            )
        labels = [
            f"{name}: push below {int(r['threshold'])}"
            + ("" if pd.isna(r["crossing"]) else f" (pays below about {int(r['crossing'])})")
            for name, r in table.iterrows()
        ]
        ax.set_yticks(y, labels)
        ax.axvline(0, color="grey", linewidth=1)
        ax.set_xlabel("gain of the push rule (forehand team's net points per deal, same deals)")
        ax.set_ylabel("rule set")
        ax.set_title("The heuristic's push rule under each rule set")
        ax.legend(loc="lower right", fontsize="small")
    return ax
