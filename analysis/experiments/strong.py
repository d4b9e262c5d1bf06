"""Differenzler's and the Jazz games' main findings under strong play: the learned player beside the heuristic.

Each function plays the same games of one seed under both players (every
seat alike; Differenzler's learned player declares by its own table, the
heuristic by the calibrated one) and pairs them deal by deal or game by game:

* ``differenzler``: the penalty a hand, and the declaration guide (the
  median points made by trumps, trump Jack and aces) under each player.
* ``english_jazz``: the chance that one hand takes all 12 tricks, a deal and
  a 12-deal game (per million, Wilson CIs; the paired difference from the
  deals swept under one player only).
* ``norwegian_jazz``: how often the sixth deal changes the winner, and the
  Kendall tau-b between the five- and six-deal standings, by player count.

Schieber's are in ``cardmc.experiments.schieber_strong``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cardmc import stats
from cardmc.checks import check_count, check_seed
from cardmc.experiments.common import BLOCK, blocks, record

HEURISTIC = {"differenzler": "calibrated", "english_jazz": "heuristic", "norwegian_jazz": "heuristic"}
LEARNED = "learned"


def _flags(name: str, d: dict, scale: float = 1.0) -> dict:
    return {
        name: d["estimate"] * scale,
        f"{name}_ci_low": d["ci_low"] * scale,
        f"{name}_ci_high": d["ci_high"] * scale,
    }


def _paired_rates(a: np.ndarray, b: np.ndarray, scale: float) -> dict:
    """The rate of ``a`` and of ``b`` (0/1 flags of the same units, Wilson CIs) and a - b paired."""
    n = len(a)
    out = {}
    for name, x in (("heuristic", b), ("learned", a)):
        out.update(stats.rate(name, int(x.sum()), n, scale))
    only_a, only_b = int((a & ~b).sum()), int((~a & b).sum())
    out.update(stats.named("learned_minus_heuristic", stats.paired_outcomes(only_a, only_b, n, scale)))
    out["n"] = n
    return out


def differenzler(seed: int, games: int, block: int = BLOCK) -> dict[str, pd.DataFrame]:
    """Penalty a hand and the declaration guide under the calibrated heuristic and the learned player."""
    from cardmc.api import simulate
    from cardmc.experiments.differenzler import _guide, _regular, _Tally

    seed, games = check_seed(seed), check_count("games", games)
    tallies = {p: _Tally() for p in ("heuristic", "learned")}
    for first, count in blocks(games, block):
        regular = {
            p: _regular(
                simulate("differenzler", games=count, seed=seed, policy=policy, start=first), first, count
            )
            for p, policy in (("heuristic", HEURISTIC["differenzler"]), ("learned", LEARNED))
        }
        base = regular["heuristic"]["penalty"].to_numpy(np.int64)
        for p, t in tallies.items():
            t.add(regular[p], base)
    rows = []
    for p, t in tallies.items():
        m = stats.mean_from_sums(t.sum, t.sumsq, t.n)
        d = stats.mean_from_sums(t.diff_sum, t.diff_sumsq, t.n)
        rows.append({"player": p, **m, **stats.named("minus_heuristic", d)})
    penalty = pd.DataFrame(rows).set_index("player")
    key = ["trumps", "trump_jack", "aces"]
    guides = [_guide(t).set_index(key).add_prefix(f"{p}_") for p, t in tallies.items()]
    guide = guides[0].join(guides[1], how="outer").reset_index()
    return {name: record(t, seed=seed, games=games) for name, t in (("penalty", penalty), ("guide", guide))}


def english_jazz(seed: int, games: int, block: int = BLOCK) -> pd.DataFrame:
    """P(some hand takes all 12 tricks), per deal and per 12-deal game, per million, under each player and
    learned minus heuristic on the same deals."""
    from cardmc.api import simulate
    from cardmc.experiments.english_jazz import deal_sweeps

    seed, games = check_seed(seed), check_count("games", games)
    flags = {"heuristic": [], "learned": []}
    for first, count in blocks(games, block):
        for p, policy in (("heuristic", HEURISTIC["english_jazz"]), ("learned", LEARNED)):
            flags[p].append(
                deal_sweeps(
                    simulate("english_jazz", games=count, seed=seed, policy=policy, start=first), first
                )
            )
    h, m = (np.concatenate(flags[p]) for p in ("heuristic", "learned"))
    rows = [
        {"unit": "per deal", **_paired_rates(m.ravel(), h.ravel(), 1_000_000)},
        {"unit": "per 12-deal game", **_paired_rates(m.any(axis=1), h.any(axis=1), 1_000_000)},
    ]
    return record(pd.DataFrame(rows).set_index("unit"), seed=seed, games=games, scale="per million")


def norwegian_jazz(seed: int, games: int, players_list=(3, 4, 5, 6, 7)) -> pd.DataFrame:
    """By player count: the share of games whose winner the sixth deal changes, under each player and
    learned minus heuristic on the same games, and the same for Kendall tau-b of the five- and six-deal
    standings."""
    from cardmc import norwegian_jazz as nj
    from cardmc.experiments.norwegian_jazz import _run

    seed, games = check_seed(seed), check_count("games", games)
    rows = []
    for n in players_list:
        g = {}
        for p, policy in (("heuristic", HEURISTIC["norwegian_jazz"]), ("learned", LEARNED)):
            scores = _run(seed, games, n, policy, {})[0]
            t5 = scores[:, :5].sum(axis=1)
            g[p] = nj.game_outcomes(t5, t5 + scores[:, 5])
        h, m = g["heuristic"]["changed"].to_numpy(), g["learned"]["changed"].to_numpy()
        row = {"players": n, **_paired_rates(m, h, 100)}
        both = g["heuristic"]["tau"].notna() & g["learned"]["tau"].notna()
        for p in ("heuristic", "learned"):
            row.update(stats.named(f"{p}_tau", stats.mean(g[p]["tau"][both])))
        row.update(
            stats.named(
                "tau_learned_minus_heuristic",
                stats.paired_difference(g["learned"]["tau"][both], g["heuristic"]["tau"][both]),
            )
        )
        rows.append(row)
    return record(pd.DataFrame(rows).set_index("players"), seed=seed, games=games, scale="% of games")
