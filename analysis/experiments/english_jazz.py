"""English Jazz experiments: how often one hand takes every trick, and a strong hand's odds.

``sweep_study`` plays ``games`` games of 12 deals under random and under
heuristic play (all three seats alike) on the same deals, block by block
through ``cardmc.simulate``. Each block's rows go into the game's own
aggregates (``cardmc.english_jazz.aggregate``, merged exactly) for the
per-policy tables; the pairing of the two policies deal by deal, which the
aggregates cannot hold, is kept as three counts (swept under random play
only, heuristic only, both) per deal and per game, and the rows of every
swept deal are kept. Sweeps are rare, so their rates are given per million
with Wilson 95% CIs and the event counts they rest on. ``hand_odds_table``
runs one hand's advice (``cardmc.odds.english_jazz``) for a strong hand in
each seat.
"""

from __future__ import annotations

from math import factorial

import numpy as np
import pandas as pd

from cardmc import aggregate as agg
from cardmc import stats
from cardmc.checks import check_count, check_seed
from cardmc.experiments.common import BLOCK, blocks, record
from cardmc.registry import UsageError
from cardmc.stats import named

POLICIES = ("random", "heuristic")
POSITIONS = ("leader", "second", "dealer")  # seat after the dealer, the next, the dealer
POSITION_OF = np.array([2, 0, 1])  # the kernel's position code (seat - dealer) % 3 -> index in POSITIONS
SETTERS = (*POSITIONS, "never set")
RULES = {
    "A": "A: one hand takes all 12 tricks",
    "B": "B: a hand takes no trick",
    "C": "C: a hand has over 100 points",
    "D": "D: two hands tie on points",
    "E": "E: all different (middle loses)",
}
MILLION = 1_000_000
DEALS, PLAYERS = 12, 3
# hand features as dealt: (column, bin edges, labels); value v is in bin searchsorted(edges, v, "right") - 1
FEATURES = {
    "aces": ("aces", (0, 1, 2, 3, 4), ("0", "1", "2", "3", "4")),
    "jacks": ("jacks", (0, 1, 2, 3, 4), ("0", "1", "2", "3", "4")),
    "longest suit": ("longest", (3, 4, 5, 6, 7, 8), ("3", "4", "5", "6", "7", "8-9")),
    "voids": ("voids", (0, 1, 2), ("0", "1", "2")),
    "points held": (
        "points_held",
        (0, 20, 30, 40, 50, 60, 70),
        ("<20", "20s", "30s", "40s", "50s", "60s", "70+"),
    ),
}
# the worked example: the six best trumps-to-be in spades, the top hearts and diamonds, no club;
# and, for contrast, as strong a hand with no void
STRONG_HAND = "JS 9S AS KS QS TS AH KH QH AD KD QD"
NO_VOID_HAND = "JS 9S AS KS QS AH KH QH AD KD AC KC"
EXAMPLE_SEATS = (1, 2, 0)  # with dealer 0: leader, second, dealer
# trump is never set exactly when all three hands are 3-3-3-3 (see trump_never_set_exact)
NEVER_SET_EXACT = (factorial(9) // factorial(3) ** 3) ** 4 * factorial(12) ** 3 / factorial(36)


def trump_never_set_exact() -> float:
    """P(trump is never set in a deal), exactly: trump stays unset only while
    everyone follows suit, which over 12 tricks means every trick is three
    cards of one suit, so each hand holds three cards of every suit."""
    return NEVER_SET_EXACT


# ------------------------------------------------------------ counting


def deal_sweeps(df: pd.DataFrame, start: int) -> np.ndarray:
    """Per deal of a block of rows (games ``start``.., in game, deal, seat order): did a hand take
    all 12 tricks? Shape (games, 12)."""
    g = len(df) // (DEALS * PLAYERS)
    if len(df) != g * DEALS * PLAYERS:
        raise UsageError(f"english_jazz rows come 36 a game; got {len(df)} rows")

    def col(name):
        return df[name].to_numpy().reshape(g, DEALS, PLAYERS)

    if not (
        (col("game") == (start + np.arange(g))[:, None, None]).all()
        and (col("deal") == np.arange(DEALS)[None, :, None]).all()
        and (col("seat") == np.arange(PLAYERS)[None, None, :]).all()
    ):
        raise UsageError("english_jazz rows are not in game, deal, seat order")
    return col("all_tricks").astype(bool).any(axis=2)


class Counts:
    """One policy's counts, read off the game's aggregates (``cardmc.english_jazz.aggregate``)."""

    def __init__(self, aggs: dict):
        hands = aggs["hands"].reset_index()
        pos = POSITION_OF[hands["position"].to_numpy(np.int64)]
        n = hands["n"].to_numpy(np.int64)
        swept = hands["all_tricks"].to_numpy() == 1
        self.deals = int(n.sum()) // PLAYERS
        self.deal_sweeps = int(n[swept].sum())
        self.position_sweeps = np.bincount(pos[swept], weights=n[swept], minlength=3).astype(np.int64)
        self.score = np.array(
            [
                [int(hands.loc[pos == p, "score_sum"].sum()), int(hands.loc[pos == p, "score_sumsq"].sum())]
                for p in range(3)
            ]
        )
        games = aggs["games"].reset_index()
        self.games = int(games["n"].sum())
        self.game_sweeps = int(games.loc[games["swept"] == 1, "n"].sum())
        deals = aggs["deals"].reset_index()
        letters = deals["rule"].astype(str).to_numpy()
        self.rules = np.array([int(deals.loc[letters == r, "n"].sum()) for r in RULES], np.int64)
        setter = deals["setter_position"].to_numpy(np.int64)
        where = np.where(setter < 0, 3, POSITION_OF[np.maximum(setter, 0)])
        self.setter = np.bincount(where, weights=deals["n"].to_numpy(np.int64), minlength=4).astype(np.int64)
        self.feature_n, self.feature_sweeps = {}, {}
        for f, (name, edges, _) in FEATURES.items():
            t = aggs[f"hands_by_{name}"].reset_index()
            b = np.searchsorted(np.array(edges), t[name].to_numpy(np.int64), side="right") - 1
            w, hit = t["n"].to_numpy(np.int64), t["all_tricks"].to_numpy() == 1
            self.feature_n[f] = np.bincount(b, weights=w, minlength=len(edges)).astype(np.int64)
            self.feature_sweeps[f] = np.bincount(b[hit], weights=w[hit], minlength=len(edges)).astype(
                np.int64
            )
        first = aggs["first_deals"].reset_index()
        fpos = POSITION_OF[first["position"].to_numpy(np.int64)]
        fn, total = first["n"].to_numpy(np.int64), first["total"].to_numpy(np.int64)
        win = first["winner"].to_numpy() == 1
        sole = win & (first["shared_win"].to_numpy() == 0)
        self.total = np.array(
            [
                [int((fn * total)[fpos == p].sum()), int((fn * total * total)[fpos == p].sum())]
                for p in range(3)
            ]
        )
        self.wins = np.array([int(fn[(fpos == p) & win].sum()) for p in range(3)], np.int64)
        self.sole_wins = np.array([int(fn[(fpos == p) & sole].sum()) for p in range(3)], np.int64)


class Pairs:
    """Deals (and games) swept under random play only, heuristic only, or both."""

    def __init__(self):
        self.deal = np.zeros(3, np.int64)  # only random, only heuristic, both
        self.game = np.zeros(3, np.int64)

    def add(self, rnd: np.ndarray, heu: np.ndarray) -> None:
        for acc, a, b in ((self.deal, rnd, heu), (self.game, rnd.any(axis=1), heu.any(axis=1))):
            acc += (int((a & ~b).sum()), int((~a & b).sum()), int((a & b).sum()))


def play(seed: int, games: int, block: int = BLOCK, progress: bool = False):
    """Simulate ``games`` games under each policy, paired block by block.
    Returns ({policy: Counts}, Pairs, rows of every deal with a sweep)."""
    from cardmc import english_jazz as ej
    from cardmc.api import simulate

    seed, games = check_seed(seed), check_count("games", games)
    aggs = {p: None for p in POLICIES}
    pairs = Pairs()
    kept = []
    for start, n in blocks(games, block, progress, "english_jazz"):
        flags = {}
        for p in POLICIES:
            df = simulate("english_jazz", games=n, seed=seed, policy=p, start=start)
            flags[p] = deal_sweeps(df, start)
            part = ej.aggregate(df)
            aggs[p] = part if aggs[p] is None else agg.merge(aggs[p], part)
            rows = np.repeat(flags[p].ravel(), PLAYERS)
            if rows.any():
                swept = df[rows].reset_index(drop=True)
                kept.append(swept.assign(policy=pd.Categorical([p] * len(swept), categories=list(POLICIES))))
            del df
        pairs.add(flags["random"], flags["heuristic"])
    sweeps = pd.concat(kept, ignore_index=True) if kept else pd.DataFrame()
    if len(sweeps):
        sweeps = sweeps.sort_values(["policy", "game", "deal", "seat"], kind="stable").reset_index(drop=True)
    return {p: Counts(a) for p, a in aggs.items()}, pairs, sweeps


# ------------------------------------------------------------ tables


def _share(name: str, d, scale: float = 100) -> dict:
    """A proportion (dict or row of estimate, ci_low, ci_high), scaled, with its Wilson CI only."""
    return {
        name: d["estimate"] * scale,
        f"{name}_ci_low": d["ci_low"] * scale,
        f"{name}_ci_high": d["ci_high"] * scale,
    }


def all_tricks_table(counts: dict, pairs: Pairs) -> pd.DataFrame:
    """P(some hand takes all 12 tricks) per deal and per 12-deal game, per million,
    each policy and random minus heuristic on the same deals."""
    rows = []
    for unit, n_of, ev_of, acc in (
        ("per deal", "deals", "deal_sweeps", pairs.deal),
        ("per 12-deal game", "games", "game_sweeps", pairs.game),
    ):
        n = getattr(counts["random"], n_of)
        row = {"unit": unit}
        for p in POLICIES:
            row.update(stats.rate(p, getattr(counts[p], ev_of), n, MILLION))
        row.update(named("random_minus_heuristic", stats.paired_outcomes(*acc.tolist()[:2], n, MILLION)))
        row.update(
            {"only_random": int(acc[0]), "only_heuristic": int(acc[1]), "both": int(acc[2]), "n": int(n)}
        )
        rows.append(row)
    return pd.DataFrame(rows).set_index("unit")


def by_position_table(counts: dict) -> pd.DataFrame:
    """P(the hand in each position takes all 12 tricks), per million deals."""
    rows = []
    for i, name in enumerate(POSITIONS):
        row = {"position": name}
        for p in POLICIES:
            row.update(stats.rate(p, counts[p].position_sweeps[i], counts[p].deals, MILLION))
        row["n"] = int(counts["random"].deals)
        rows.append(row)
    return pd.DataFrame(rows).set_index("position")


def by_feature_table(counts: dict) -> pd.DataFrame:
    """P(a hand takes all 12 tricks) by features of the hand as dealt, per million hands."""
    rows = []
    for f in FEATURES:
        for i, label in enumerate(FEATURES[f][2]):
            n = int(counts["random"].feature_n[f][i])
            if n == 0:
                continue
            row = {"feature": f, "value": label, "n": n}
            for p in POLICIES:
                row.update(stats.rate(p, counts[p].feature_sweeps[f][i], counts[p].feature_n[f][i], MILLION))
            rows.append(row)
    return pd.DataFrame(rows).set_index(["feature", "value"])


def rules_table(counts: dict) -> pd.DataFrame:
    """Share of deals (%) each rule A-E decides, per policy."""
    rows = []
    for i, (letter, text) in enumerate(RULES.items()):
        row = {"rule": text}
        for p in POLICIES:
            row.update(stats.rate(f"{p}_pct", counts[p].rules[i], counts[p].deals, 100, f"{p}_events"))
        row["n"] = int(counts["random"].deals)
        rows.append(row)
    return pd.DataFrame(rows).set_index("rule")


def trump_setter_table(counts: dict) -> pd.DataFrame:
    """Share of deals (%) in which each position sets trump, or nobody does."""
    rows = []
    for i, name in enumerate(SETTERS):
        row = {"trump set by": name}
        for p in POLICIES:
            row.update(stats.rate(f"{p}_pct", counts[p].setter[i], counts[p].deals, 100, f"{p}_events"))
        row["n"] = int(counts["random"].deals)
        rows.append(row)
    return pd.DataFrame(rows).set_index("trump set by")


def never_set_table(counts: dict) -> pd.DataFrame:
    """Deals (%) in which trump is never set, simulated beside the exact value."""
    rows = [
        {
            "policy": p,
            **stats.rate("never_set_pct", counts[p].setter[3], counts[p].deals, 100, "events"),
            "exact": 100 * NEVER_SET_EXACT,
            "n": int(counts[p].deals),
        }
        for p in POLICIES
    ]
    return pd.DataFrame(rows).set_index("policy")


def seat_table(counts: dict) -> pd.DataFrame:
    """Seat advantage: mean deal score by position in the deal; mean game total and
    win chance (%) by position in the first deal; per policy."""
    rows = []
    for p in POLICIES:
        t = counts[p]
        for i, name in enumerate(POSITIONS):
            rows.append(
                {
                    "policy": p,
                    "position": name,
                    **named("deal_score", stats.mean_from_sums(*t.score[i], t.deals)),
                    **named("game_total", stats.mean_from_sums(*t.total[i], t.games)),
                    **_share("win_pct", stats.proportion(int(t.wins[i]), t.games)),
                    **_share("sole_win_pct", stats.proportion(int(t.sole_wins[i]), t.games)),
                    "deals": int(t.deals),
                    "games": int(t.games),
                }
            )
    return pd.DataFrame(rows).set_index(["policy", "position"])


def hand_odds_table(
    games: int, seed: int, hands=(STRONG_HAND, NO_VOID_HAND), policy: str = "heuristic"
) -> pd.DataFrame:
    """``odds`` of each hand in each seat (dealer 0): P(all 12 tricks), P(each rule)
    and the expected deal score, 95% CIs; ``games`` deals each."""
    from cardmc.odds.english_jazz import odds

    rows = []
    for hand in hands:
        for seat in EXAMPLE_SEATS:
            r = odds(hand, seat, 0, games, seed=seed, policy=policy)
            s, rules = r["summary"], r["rules"]
            row = {
                "hand": hand,
                "position": f"{r['position']} (seat {seat})",
                **_share("all_12_pct", s.loc["all_tricks"]),
            }
            for letter in RULES:
                row.update(_share(f"rule_{letter}_pct", rules.loc[letter]))
            row.update(named("expected_score", s.loc["expected_score"]))
            row.update(named("mean_tricks", s.loc["mean_tricks"]))
            row["deals"] = int(r["deals"])
            rows.append(row)
    return pd.DataFrame(rows).set_index(["hand", "position"])


def sweep_study(seed: int, games: int, block: int = BLOCK, progress: bool = False) -> dict[str, pd.DataFrame]:
    """Every table of the sweep study by name (all_tricks, by_position, by_feature, rules,
    trump_setter, trump_never_set, seat_advantage) and ``sweep_deals``, the rows of every deal
    with a sweep; each table records its seed and game count."""
    counts, pairs, sweeps = play(seed, games, block, progress)
    tables = {
        "all_tricks": all_tricks_table(counts, pairs),
        "by_position": by_position_table(counts),
        "by_feature": by_feature_table(counts),
        "rules": rules_table(counts),
        "trump_setter": trump_setter_table(counts),
        "trump_never_set": never_set_table(counts),
        "seat_advantage": seat_table(counts),
        "sweep_deals": sweeps,
    }
    return {name: record(t, seed=seed, games=games) for name, t in tables.items()}
