"""Norwegian Jazz charts: one function per chart, ``plot_x(table, ax=None) -> Axes``.

Each reads a table of ``cardmc.reports.norwegian_jazz`` and draws every estimate
with its 95% CI as an error bar, in the shared ``cardmc.mplstyle`` look.
Seat charts lay the player counts side by side on one axis, one block of
seats per count (D = dealer, L = leader, the seat after the dealer; then
2, 3, ... in playing order).
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg", force=False)
import matplotlib.transforms as mtransforms  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from cardmc.reports.charts import axes as _axes  # noqa: E402
from cardmc.reports.charts import need, styled

GAP = 1.0  # empty x units between two player-count blocks


def _cols(col: str) -> tuple[str, str, str]:
    return (col, "ci_low", "ci_high") if col == "estimate" else (col, f"{col}_ci_low", f"{col}_ci_high")


def _err(t: pd.DataFrame, col: str, scale: float = 1.0) -> np.ndarray:
    c, lo, hi = _cols(col)
    return (np.vstack([t[c] - t[lo], t[hi] - t[c]]) * scale).clip(min=0)


def _by_players(table: pd.DataFrame, col: str, ax, scale: float = 1.0) -> None:
    """One series per rule, x = player count, slightly spread so bars do not overlap."""
    rules = list(dict.fromkeys(table.index.get_level_values("rule")))
    for i, rule in enumerate(rules):
        t = table.xs(rule, level="rule").sort_index()
        x = t.index.to_numpy(float) + (i - (len(rules) - 1) / 2) * 0.08
        ax.errorbar(x, t[col] * scale, yerr=_err(t, col, scale), marker="o", color=f"C{i}", label=str(rule))
    ax.set_xticks(sorted(set(table.index.get_level_values("players"))))
    ax.set_xlabel("players")


def plot_winner_change(table: pd.DataFrame, ax=None, measure: str = "winner_changed"):
    """Share of games in which the sixth deal changes the winner (``winner_changed``,
    or ``leader_overtaken``), by player count, one series per sevens rule, with
    95% Wilson CIs. ``table``: index (players, rule), ``measure`` and its CI columns."""
    c, lo, hi = _cols(measure)
    need(table, (c, lo, hi), "plot_winner_change", ("players", "rule"))
    what = {"winner_changed": "winner changes", "leader_overtaken": "five-deal leader overtaken"}
    what = what.get(measure, measure)
    with styled():
        ax = _axes(ax)
        _by_players(table, measure, ax, scale=100)
        ax.set_ylim(0, 100)
        ax.set_ylabel(f"games where the {what} (%, 95% CI)")
        ax.set_title("How often the sixth deal (sevens) changes the winner")
        ax.legend(title="sevens rule")
    return ax


def plot_rank_correlation(table: pd.DataFrame, ax=None):
    """Mean Kendall tau-b between the standings after five and after six deals,
    by player count, one series per sevens rule, with 95% CIs.
    ``table``: index (players, rule), ``tau``, ``tau_ci_low``, ``tau_ci_high``."""
    need(table, _cols("tau"), "plot_rank_correlation", ("players", "rule"))
    with styled():
        ax = _axes(ax)
        _by_players(table, "tau", ax)
        ax.set_ylim(min(0.0, float(table["tau_ci_low"].min()) - 0.05), 1.0)
        ax.set_ylabel("Kendall tau-b, five-deal vs final standings (mean, 95% CI)")
        ax.set_title("How much of the five-deal ranking survives the sixth deal")
        ax.legend(title="sevens rule", loc="lower right")
    return ax


def _blocks(table: pd.DataFrame, series: str, ax, ylabel: str, title: str) -> None:
    """Seat blocks per player count on one x axis; one series per ``series`` level value."""
    players = sorted(set(table.index.get_level_values("players")))
    start, ticks, labels = {}, [], []
    at = 0.0
    for n in players:
        start[n] = at
        for r in range(n):
            ticks.append(at + r)
            labels.append("D" if r == 0 else "L" if r == 1 else str(r))
        at += n + GAP
    names = list(dict.fromkeys(table.index.get_level_values(series)))
    width = min(0.7 / max(len(names), 1), 0.15)
    ax.axhline(0, color="grey", linewidth=1)
    for i, name in enumerate(names):
        t = table.xs(name, level=series)
        for j, n in enumerate(players):
            if n not in t.index.get_level_values("players"):
                continue
            g = t.xs(n, level="players").sort_index()
            x = start[n] + g.index.to_numpy(float) + (i - (len(names) - 1) / 2) * width
            ax.errorbar(
                x,
                g["estimate"],
                yerr=_err(g, "estimate"),
                marker="o",
                markersize=3.5,
                color=f"C{i % 7}",
                linewidth=1.0,
                label=str(name) if j == 0 else None,
            )
    mark = mtransforms.blended_transform_factory(ax.transData, ax.transAxes)
    for n in players:
        ax.text(
            start[n] + (n - 1) / 2, 1.0, f"{n} players", transform=mark, ha="center", va="bottom", fontsize=9
        )
        if start[n] > 0:
            ax.axvline(start[n] - (1 + GAP) / 2, color="grey", linewidth=0.6, alpha=0.5)
    ax.set_xticks(ticks, labels)
    ax.set_xlabel("seat relative to the dealer (D = dealer, L = leader, then playing order)")
    ax.set_ylabel(ylabel)
    ax.set_title(title, pad=18)


def plot_seat_effect(table: pd.DataFrame, ax=None):
    """Each deal's score by seat relative to the table average of the same deal
    (points; 95% CIs), one series per deal, one block of seats per player count.
    ``table``: index (players, deal, rel_seat), ``estimate``, ``ci_low``, ``ci_high``."""
    need(table, _cols("estimate"), "plot_seat_effect", ("players", "deal", "rel_seat"))
    with styled():
        ax = _axes(ax)
        if ax.figure.get_figwidth() < 9:
            ax.figure.set_size_inches(10, 4.6)
        _blocks(
            table, "deal", ax, "points a deal minus the table mean (95% CI)", "What each deal costs by seat"
        )
        ax.legend(title="deal", ncol=4, fontsize=8)
    return ax


def plot_sevens_by_seat(table: pd.DataFrame, ax=None):
    """Sevens score by seat relative to the table average (points; 95% CIs),
    one series per first-out bonus, one block of seats per player count.
    ``table``: index (players, bonus, rel_seat), ``estimate``, ``ci_low``, ``ci_high``."""
    need(table, _cols("estimate"), "plot_sevens_by_seat", ("players", "bonus", "rel_seat"))
    with styled():
        ax = _axes(ax)
        if ax.figure.get_figwidth() < 9:
            ax.figure.set_size_inches(10, 4.2)
        _blocks(
            table,
            "bonus",
            ax,
            "sevens points minus the table mean (95% CI)",
            "Seat advantage in sevens: 10-point vs 80-point bonus",
        )
        ax.legend(title="first-out bonus")
    return ax


def plot_heuristic_edge(table: pd.DataFrame, ax=None):
    """Points a heuristic player gains over a random one in the same seat and
    deals (random opponents), per deal, one series per player count, 95% CIs.
    ``table``: index (players, deal) with deal 1..6, ``estimate``, ``ci_low``, ``ci_high``."""
    need(table, _cols("estimate"), "plot_heuristic_edge", ("players", "deal"))
    with styled():
        ax = _axes(ax)
        players = sorted(set(table.index.get_level_values("players")))
        for i, n in enumerate(players):
            g = table.xs(n, level="players").sort_index()
            x = g.index.to_numpy(float) + (i - (len(players) - 1) / 2) * 0.1
            ax.errorbar(
                x, g["estimate"], yerr=_err(g, "estimate"), marker="o", color=f"C{i % 7}", label=f"{n}"
            )
        ax.axhline(0, color="grey", linewidth=1)
        ax.set_xticks(range(1, 7), ["1 tricks", "2 clubs", "3 queens", "4 KC", "5 last trick", "6 sevens"])
        ax.set_xlabel("deal")
        ax.set_ylabel("points gained per deal, heuristic - random (95% CI)")
        ax.set_title("The heuristic player's edge over random play")
        ax.legend(title="players", ncol=5)
    return ax
