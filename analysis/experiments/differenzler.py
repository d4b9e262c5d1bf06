"""Differenzler experiments: declaration rules compared on the same deals.

``declaration_study`` plays the same games under each declaration rule (all
four seats use it, heuristic play), block by block through
``cardmc.simulate``, and keeps a small tally of each block (documented in
``_Tally``), so memory stays flat at any size and the tables do not depend
on the block size.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cardmc import stats
from cardmc.checks import check_count, check_seed
from cardmc.experiments.common import BLOCK, blocks, record
from cardmc.registry import UsageError

RULES = ("random", "heuristic", "calibrated")
PENALTY_BINS = 21  # bins of 5 points; the last holds 100 and more
MADE = 158  # points made: 0..157
GUIDE_TRUMPS, GUIDE_ACES = 6, 4  # trumps 0..5 (5 = 5+), aces 0..3 (3 = 3+)
MIN_CALIBRATION, MIN_GUIDE = 30, 50  # hands a cell of the calibration / guide needs


def compare_declarations(
    games: int,
    seed: int = 0,
    rules=("random", "heuristic", "calibrated"),
    play: str = "heuristic",
    **settings,
) -> pd.DataFrame:
    """Mean penalty of each declaration rule on the same deals (all four seats
    use it), and paired differences against the first, with 95% CIs: per hand
    of the four regular deals, paired hand by hand (``cardmc.compare``)."""
    from cardmc.compare import compare

    arms = [{"name": rule, "policy": f"{play}:{rule}"} for rule in rules]
    table = compare("differenzler", arms, games=games, seed=seed, measure=regular_penalty, **settings)
    base = rules[0]
    out = pd.DataFrame(
        {
            "mean_penalty": table["estimate"],
            "ci_low": table["ci_low"],
            "ci_high": table["ci_high"],
            "se": table["se"],
            "n": table["n"],
            f"diff_vs_{base}": table["diff"],
            "diff_ci_low": table["diff_ci_low"],
            "diff_ci_high": table["diff_ci_high"],
        }
    ).droplevel("measure")
    out.index.name = "declaration"
    return record(out, seed=seed, games=games)


def regular_penalty(rows: pd.DataFrame) -> pd.Series:
    """The penalty of each hand of the four regular deals (tie-breaks left out), by (game, deal, seat)."""
    r = rows[rows["extra"] == 0]
    return pd.Series(
        r["penalty"].to_numpy(), index=pd.MultiIndex.from_frame(r[["game", "deal", "seat"]]), name="penalty"
    )


class _Tally:
    """What ``declaration_study`` keeps of each block, per rule, as integers (exact, additive):

    * ``n``, ``sum``, ``sumsq``: hands and their penalty (the four regular deals; tie-breaks left out);
    * ``diff_sum``, ``diff_sumsq``: the penalty minus the base rule's on the same hand;
    * ``penalty``: hands per penalty bin of 5 points;
    * ``made``: hands by declared bin of 10 (rows) and points made (columns);
    * ``guide``: hands by (trumps, trump J, aces) cell (rows) and points made (columns).
    """

    def __init__(self):
        self.n = self.sum = self.sumsq = self.diff_sum = self.diff_sumsq = 0
        self.penalty = np.zeros(PENALTY_BINS, np.int64)
        self.made = np.zeros((17, MADE), np.int64)
        self.guide = np.zeros((GUIDE_TRUMPS * 2 * GUIDE_ACES, MADE), np.int64)

    def add(self, regular: pd.DataFrame, base_penalty: np.ndarray) -> None:
        p = regular["penalty"].to_numpy(np.int64)
        made = regular["made"].to_numpy(np.int64)
        d = p - base_penalty
        self.n += len(p)
        self.sum += int(p.sum())
        self.sumsq += int((p * p).sum())
        self.diff_sum += int(d.sum())
        self.diff_sumsq += int((d * d).sum())
        self.penalty += np.bincount(np.minimum(p // 5, PENALTY_BINS - 1), minlength=PENALTY_BINS)
        declared = np.minimum(regular["declared"].to_numpy(np.int64) // 10, 16)
        self.made += np.bincount(declared * MADE + made, minlength=self.made.size).reshape(self.made.shape)
        cell = (
            np.minimum(regular["trumps"].to_numpy(np.int64), GUIDE_TRUMPS - 1) * 2
            + regular["trump_jack"].to_numpy(np.int64)
        ) * GUIDE_ACES + np.minimum(regular["aces"].to_numpy(np.int64), GUIDE_ACES - 1)
        self.guide += np.bincount(cell * MADE + made, minlength=self.guide.size).reshape(self.guide.shape)


def _regular(df: pd.DataFrame, first: int, count: int) -> pd.DataFrame:
    """The rows of the four regular deals in game, deal, seat order (16 a game)."""
    r = df[df["extra"] == 0]
    if len(r) != 16 * count:
        raise UsageError(f"differenzler games {first}.. gave {len(r)} regular rows, not 16 a game")
    key = (r["game"].to_numpy(np.int64) * 4 + r["deal"].to_numpy(np.int64)) * 4 + r["seat"].to_numpy(np.int64)
    return r if (np.diff(key) > 0).all() else r.sort_values(["game", "deal", "seat"], kind="stable")


def declaration_study(
    seed: int, games: int, rules=RULES, base: str = "heuristic", block: int = BLOCK, progress: bool = False
) -> dict[str, pd.DataFrame]:
    """Every declaration rule of ``rules`` on the same ``games`` games of ``seed`` (heuristic play, all
    four seats declare by the rule), with 95% CIs:

    * ``accuracy``: mean penalty per hand, and minus the ``base`` rule on the same hands (paired);
    * ``distribution``: share of hands per penalty bin of 5 points (Wilson bands);
    * ``calibration``: mean points made per declared bin of 10 (heuristic and calibrated rules);
    * ``guide``: the median points made (the declaration with the least expected penalty) with its
      distribution-free CI by trumps, trump J and aces, under the calibrated rule.
    """
    from cardmc.api import simulate

    seed, games = check_seed(seed), check_count("games", games)
    if base not in rules:
        raise UsageError(f"base rule {base!r} is not among the rules {rules!r}")
    tallies = {rule: _Tally() for rule in rules}
    for first, count in blocks(games, block, progress, "differenzler"):
        regular = {
            rule: _regular(
                simulate("differenzler", games=count, seed=seed, policy=f"heuristic:{rule}", start=first),
                first,
                count,
            )
            for rule in rules
        }
        base_penalty = regular[base]["penalty"].to_numpy(np.int64)
        for rule in rules:
            tallies[rule].add(regular[rule], base_penalty)
    out = {
        "accuracy": _accuracy(tallies, base),
        "distribution": _distribution(tallies),
        "calibration": _calibration({r: tallies[r] for r in ("heuristic", "calibrated") if r in tallies}),
        "guide": _guide(tallies["calibrated"]) if "calibrated" in tallies else pd.DataFrame(),
    }
    return {name: record(t, seed=seed, games=games) for name, t in out.items()}


def _accuracy(tallies: dict, base: str) -> pd.DataFrame:
    rows = []
    col = f"minus_{base}"
    for rule, t in tallies.items():
        m = stats.mean_from_sums(t.sum, t.sumsq, t.n)
        d = stats.mean_from_sums(t.diff_sum, t.diff_sumsq, t.n)
        rows.append(
            {
                "declaration": rule,
                **m,
                col: d["estimate"],
                f"{col}_se": d["se"],
                f"{col}_ci_low": d["ci_low"],
                f"{col}_ci_high": d["ci_high"],
            }
        )
    return pd.DataFrame(rows).set_index("declaration")


def _distribution(tallies: dict) -> pd.DataFrame:
    parts = []
    for rule, t in tallies.items():
        lo, hi = stats.wilson(t.penalty, t.penalty.sum())
        parts.append(
            pd.DataFrame(
                {
                    "declaration": rule,
                    "penalty": np.arange(PENALTY_BINS) * 5,
                    "n": t.penalty,
                    "share": t.penalty / t.penalty.sum(),
                    "ci_low": lo,
                    "ci_high": hi,
                }
            )
        )
    return pd.concat(parts, ignore_index=True)


def _calibration(tallies: dict) -> pd.DataFrame:
    points = np.arange(MADE, dtype=np.int64)
    parts = []
    for rule, t in tallies.items():
        n = t.made.sum(axis=1)
        keep = np.flatnonzero(n >= MIN_CALIBRATION)
        rows = [
            stats.mean_from_sums(int(t.made[i] @ points), int(t.made[i] @ (points * points)), int(n[i]))
            for i in keep
        ]
        table = pd.DataFrame(rows, columns=["estimate", "se", "ci_low", "ci_high", "n"])
        parts.append(
            table.assign(declared=keep * 10 + 5, declaration=rule)[
                ["declared", "estimate", "se", "ci_low", "ci_high", "n", "declaration"]
            ]
        )
    return pd.concat(parts, ignore_index=True)


def _guide(t: _Tally) -> pd.DataFrame:
    rows = []
    points = np.arange(MADE)
    for cell, counts in enumerate(t.guide):
        if counts.sum() < MIN_GUIDE:
            continue
        m = stats.median_ci_from_counts(points, counts)
        aces = cell % GUIDE_ACES
        jack = (cell // GUIDE_ACES) % 2
        trumps = cell // (GUIDE_ACES * 2)
        rows.append(
            {
                "trumps": trumps,
                "trump_jack": jack,
                "aces": aces,
                "median_made": m["estimate"],
                "median_made_ci_low": m["ci_low"],
                "median_made_ci_high": m["ci_high"],
                "n": m["n"],
            }
        )
    return pd.DataFrame(rows)
