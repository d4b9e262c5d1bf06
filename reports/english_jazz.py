"""English Jazz study: how likely is one hand to take every trick?

``games`` games of 12 deals are played twice from ``seed``, by random and by
heuristic players (all three seats alike), on the same deals (game i of seed
s deals the same cards under every policy), in blocks of BLOCK games so
memory stays small at any size. Each block is reduced to integer counts and
sums (``Tally``), so the tables do not depend on the block size or thread
count. Sweeps (rule A: one hand takes all 12 tricks) are rare, so their
rates are given per million deals (or hands, or games) with Wilson 95% CIs
and the event counts they rest on. A worked example runs
``cardmc.english_jazz.odds`` for a strong hand in each seat.
"""
from __future__ import annotations

import math
from math import factorial
from pathlib import Path

import numpy as np
import pandas as pd

from cardmc import english_jazz as ej
from cardmc import stats
from cardmc.api import simulate
from cardmc.driver import check_count, check_seed
from cardmc.registry import UsageError
from cardmc.reports import charts
from cardmc.reports import english_jazz_charts as ec
from cardmc.reports.section import Section, note

POLICIES = ("random", "heuristic")
POSITIONS = ("leader", "second", "dealer")  # seat after the dealer, the next, the dealer
POSITION_OF = np.array([2, 0, 1])  # the kernel's position code (seat - dealer) % 3 -> index in POSITIONS
SETTERS = (*POSITIONS, "never set")
RULES = {"A": "A: one hand takes all 12 tricks", "B": "B: a hand takes no trick",
         "C": "C: a hand has over 100 points", "D": "D: two hands tie on points",
         "E": "E: all different (middle loses)"}  # fmt: skip
BLOCK = 25_000  # games simulated and reduced at a time
MILLION = 1_000_000
DEALS, PLAYERS = 12, 3
# hand features as dealt: (column, bin edges, labels); value v is in bin searchsorted(edges, v, "right") - 1
FEATURES = {
    "aces": ("aces", (0, 1, 2, 3, 4), ("0", "1", "2", "3", "4")),
    "jacks": ("jacks", (0, 1, 2, 3, 4), ("0", "1", "2", "3", "4")),
    "longest suit": ("longest", (3, 4, 5, 6, 7, 8), ("3", "4", "5", "6", "7", "8-9")),
    "voids": ("voids", (0, 1, 2), ("0", "1", "2")),
    "points held": ("points_held", (0, 20, 30, 40, 50, 60, 70),
                    ("<20", "20s", "30s", "40s", "50s", "60s", "70+")),
}
# the worked example: the six best trumps-to-be in spades, the top hearts and diamonds, no club;
# and, for contrast, as strong a hand with no void
STRONG_HAND = "JS 9S AS KS QS TS AH KH QH AD KD QD"
NO_VOID_HAND = "JS 9S AS KS QS AH KH QH AD KD AC KC"
EXAMPLE_SEATS = (1, 2, 0)  # with dealer 0: leader, second, dealer
# trump is never set exactly when all three hands are 3-3-3-3 (see trump_never_set_exact)
NEVER_SET_EXACT = (factorial(9) // factorial(3) ** 3) ** 4 * factorial(12) ** 3 / factorial(36)

QUESTION = "How likely is one hand to take every trick in English Jazz?"


def trump_never_set_exact() -> float:
    """P(trump is never set in a deal), exactly: trump stays unset only while
    everyone follows suit, which over 12 tricks means every trick is three
    cards of one suit, so each hand holds three cards of every suit."""
    return NEVER_SET_EXACT


# ------------------------------------------------------------ counting


class Tally:
    """Integer counts and sums of one policy's games, added block by block."""

    def __init__(self):
        self.games = self.deals = self.game_sweeps = 0
        self.deal_sweeps = 0
        self.position_sweeps = np.zeros(3, np.int64)
        self.rules = np.zeros(5, np.int64)
        self.setter = np.zeros(4, np.int64)  # leader, second, dealer, never
        self.feature_n = {f: np.zeros(len(e), np.int64) for f, (_, e, _) in FEATURES.items()}
        self.feature_sweeps = {f: np.zeros(len(e), np.int64) for f, (_, e, _) in FEATURES.items()}
        self.score = np.zeros((3, 2), np.int64)  # by position: sum, sum of squares (n = deals)
        self.total = np.zeros((3, 2), np.int64)  # by first-deal position: sum, sum of squares (n = games)
        self.wins = np.zeros(3, np.int64)
        self.sole_wins = np.zeros(3, np.int64)

    def add(self, df: pd.DataFrame, start: int) -> tuple[np.ndarray, pd.DataFrame]:
        """Count a block of games ``start``..; returns the per-deal sweep flags
        (games, 12) and the rows of the deals with a sweep."""
        g = len(df) // (DEALS * PLAYERS)
        if len(df) != g * DEALS * PLAYERS:
            raise UsageError(f"english_jazz rows come 36 a game; got {len(df)} rows")

        def col(name):
            return df[name].to_numpy().reshape(g, DEALS, PLAYERS)

        game, deal, seat = col("game"), col("deal"), col("seat")
        if not ((game == (start + np.arange(g))[:, None, None]).all()
                and (deal == np.arange(DEALS)[None, :, None]).all()
                and (seat == np.arange(PLAYERS)[None, None, :]).all()):  # fmt: skip
            raise UsageError("english_jazz rows are not in game, deal, seat order")
        sweep = col("all_tricks").astype(bool)
        pos = POSITION_OF[col("position").astype(np.int64)]
        self.games += g
        self.deals += g * DEALS
        deal_sweep = sweep.any(axis=2)
        self.deal_sweeps += int(deal_sweep.sum())
        self.game_sweeps += int(deal_sweep.any(axis=1).sum())
        self.position_sweeps += np.bincount(pos[sweep], minlength=3)
        rule = df["rule"].cat.codes.to_numpy().reshape(g, DEALS, PLAYERS)[:, :, 0]
        self.rules += np.bincount(rule.ravel(), minlength=5)
        setter = col("trump_set_by")[:, :, 0].astype(np.int64)
        dealer = col("dealer")[:, :, 0].astype(np.int64)
        setter_pos = np.where(setter < 0, 3, POSITION_OF[(setter - dealer) % 3])
        self.setter += np.bincount(setter_pos.ravel(), minlength=4)
        for f, (name, edges, _) in FEATURES.items():
            b = np.searchsorted(np.array(edges), col(name).astype(np.int64), side="right") - 1
            self.feature_n[f] += np.bincount(b.ravel(), minlength=len(edges))
            self.feature_sweeps[f] += np.bincount(b[sweep], minlength=len(edges))
        score = col("score").astype(np.int64)
        for p in range(3):
            s = score[pos == p]
            self.score[p] += (s.sum(), (s * s).sum())
        # game totals by the seat's position in the first deal (relative to the first dealer)
        first = pos[:, 0, :]
        total = col("total")[:, 0, :].astype(np.int64)
        win = col("winner")[:, 0, :].astype(bool)
        sole = win & ~col("shared_win")[:, 0, :].astype(bool)
        for p in range(3):
            at = first == p
            self.total[p] += (total[at].sum(), (total[at] ** 2).sum())
            self.wins[p] += int(win[at].sum())
            self.sole_wins[p] += int(sole[at].sum())
        rows = np.repeat(deal_sweep.ravel(), PLAYERS)
        return deal_sweep, df[rows].reset_index(drop=True)


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
    Returns ({policy: Tally}, Pairs, rows of every deal with a sweep)."""
    seed, games = check_seed(seed), check_count("games", games)
    if isinstance(block, bool) or not isinstance(block, (int, np.integer)) or block < 1:
        raise UsageError(f"block must be a positive whole number, not {block!r}")
    tallies = {p: Tally() for p in POLICIES}
    pairs = Pairs()
    kept = []
    for start in range(0, games, block):
        n = min(block, games - start)
        flags = {}
        for p in POLICIES:
            df = simulate("english_jazz", games=n, seed=seed, policy=p, start=start, progress=progress)
            flags[p], rows = tallies[p].add(df, start)
            if len(rows):
                kept.append(rows.assign(policy=pd.Categorical([p] * len(rows), categories=list(POLICIES))))
            del df
        pairs.add(flags["random"], flags["heuristic"])
    sweeps = pd.concat(kept, ignore_index=True) if kept else pd.DataFrame()
    if len(sweeps):
        sweeps = sweeps.sort_values(["policy", "game", "deal", "seat"], kind="stable")
        sweeps = sweeps.reset_index(drop=True)
    return tallies, pairs, sweeps


# ------------------------------------------------------------ tables


def _est(name: str, d: dict, scale: float = 1.0) -> dict:
    """An estimate dict (estimate, se, ci_low, ci_high) as ``name``, ``name_se``, ``name_ci_*``, scaled."""
    return {name: d["estimate"] * scale, f"{name}_se": d["se"] * scale,
            f"{name}_ci_low": d["ci_low"] * scale, f"{name}_ci_high": d["ci_high"] * scale}  # fmt: skip


def _rate(name: str, events: int, n: int, scale: float, events_name: str | None = None) -> dict:
    """A proportion, scaled, with its Wilson 95% CI (no standard error: the Wald one is 0 with no
    event, and the interval is not symmetric) and its event count as ``events_name`` (int)."""
    d = stats.proportion(int(events), int(n))
    if events == 0:
        d["ci_low"] = 0.0  # not the 1e-17 rounding error of the Wilson formula
    out = {name: d["estimate"] * scale, f"{name}_ci_low": d["ci_low"] * scale,
           f"{name}_ci_high": d["ci_high"] * scale}  # fmt: skip
    out[events_name or f"{name}_events"] = int(events)
    return out


def _share(name: str, d, scale: float = 100) -> dict:
    """A proportion (dict or row of estimate, ci_low, ci_high), scaled, with its Wilson CI only."""
    low = 0.0 if d["estimate"] == 0 else d["ci_low"]  # not the 1e-17 rounding error of the Wilson formula
    return {name: d["estimate"] * scale, f"{name}_ci_low": low * scale,
            f"{name}_ci_high": d["ci_high"] * scale}  # fmt: skip


def _mean(s: int, ss: int, n: int) -> dict:
    """Mean, standard error and 95% CI from an integer sum and sum of squares."""
    if n < 2:
        return {"estimate": s / n if n else np.nan, "se": np.nan, "ci_low": np.nan, "ci_high": np.nan}
    m = s / n
    var = max((ss - s * s / n) / (n - 1), 0.0)
    se = math.sqrt(var / n)
    return {"estimate": m, "se": se, "ci_low": m - stats.Z95 * se, "ci_high": m + stats.Z95 * se}


def _paired(only_a: int, only_b: int, both: int, n: int, scale: float) -> dict:
    """Mean of a - b over n paired 0/1 outcomes (from the discordant counts), 95% normal CI."""
    d = (only_a - only_b) / n
    var = ((only_a + only_b) / n - d * d) * n / max(n - 1, 1)
    se = math.sqrt(max(var, 0.0) / n)
    return {"estimate": d * scale, "se": se * scale, "ci_low": (d - stats.Z95 * se) * scale,
            "ci_high": (d + stats.Z95 * se) * scale}  # fmt: skip


def all_tricks_table(tallies: dict, pairs: Pairs) -> pd.DataFrame:
    """P(some hand takes all 12 tricks) per deal and per 12-deal game, per million,
    each policy and random minus heuristic on the same deals."""
    rows = []
    for unit, n_of, ev_of, acc in (("per deal", "deals", "deal_sweeps", pairs.deal),
                                   ("per 12-deal game", "games", "game_sweeps", pairs.game)):  # fmt: skip
        n = getattr(tallies["random"], n_of)
        row = {"unit": unit}
        for p in POLICIES:
            row.update(_rate(p, getattr(tallies[p], ev_of), n, MILLION))
        row.update(_est("random_minus_heuristic", _paired(*acc.tolist(), n, MILLION)))
        row.update({"only_random": int(acc[0]), "only_heuristic": int(acc[1]), "both": int(acc[2]),
                    "n": int(n)})
        rows.append(row)
    return pd.DataFrame(rows).set_index("unit")


def by_position_table(tallies: dict) -> pd.DataFrame:
    """P(the hand in each position takes all 12 tricks), per million deals."""
    rows = []
    for i, name in enumerate(POSITIONS):
        row = {"position": name}
        for p in POLICIES:
            row.update(_rate(p, tallies[p].position_sweeps[i], tallies[p].deals, MILLION))
        row["n"] = int(tallies["random"].deals)
        rows.append(row)
    return pd.DataFrame(rows).set_index("position")


def by_feature_table(tallies: dict) -> pd.DataFrame:
    """P(a hand takes all 12 tricks) by features of the hand as dealt, per million hands."""
    rows = []
    for f in FEATURES:
        for i, label in enumerate(FEATURES[f][2]):
            n = int(tallies["random"].feature_n[f][i])
            if n == 0:
                continue
            row = {"feature": f, "value": label, "n": n}
            for p in POLICIES:
                row.update(_rate(p, tallies[p].feature_sweeps[f][i], tallies[p].feature_n[f][i], MILLION))
            rows.append(row)
    return pd.DataFrame(rows).set_index(["feature", "value"])


def rules_table(tallies: dict) -> pd.DataFrame:
    """Share of deals (%) each rule A-E decides, per policy."""
    rows = []
    for i, (letter, text) in enumerate(RULES.items()):
        row = {"rule": text}
        for p in POLICIES:
            row.update(_rate(f"{p}_pct", tallies[p].rules[i], tallies[p].deals, 100, f"{p}_events"))
        row["n"] = int(tallies["random"].deals)
        rows.append(row)
    return pd.DataFrame(rows).set_index("rule")


def trump_setter_table(tallies: dict) -> pd.DataFrame:
    """Share of deals (%) in which each position sets trump, or nobody does."""
    rows = []
    for i, name in enumerate(SETTERS):
        row = {"trump set by": name}
        for p in POLICIES:
            row.update(_rate(f"{p}_pct", tallies[p].setter[i], tallies[p].deals, 100, f"{p}_events"))
        row["n"] = int(tallies["random"].deals)
        rows.append(row)
    return pd.DataFrame(rows).set_index("trump set by")


def never_set_table(tallies: dict) -> pd.DataFrame:
    """Deals (%) in which trump is never set, simulated beside the exact value."""
    rows = [{"policy": p, **_rate("never_set_pct", tallies[p].setter[3], tallies[p].deals, 100, "events"),
             "exact": 100 * NEVER_SET_EXACT, "n": int(tallies[p].deals)} for p in POLICIES]  # fmt: skip
    return pd.DataFrame(rows).set_index("policy")


def seat_table(tallies: dict) -> pd.DataFrame:
    """Seat advantage: mean deal score by position in the deal; mean game total and
    win chance (%) by position in the first deal; per policy."""
    rows = []
    for p in POLICIES:
        t = tallies[p]
        for i, name in enumerate(POSITIONS):
            rows.append({"policy": p, "position": name, **_est("deal_score", _mean(*t.score[i], t.deals)),
                         **_est("game_total", _mean(*t.total[i], t.games)),
                         **_share("win_pct", stats.proportion(int(t.wins[i]), t.games)),
                         **_share("sole_win_pct", stats.proportion(int(t.sole_wins[i]), t.games)),
                         "deals": int(t.deals), "games": int(t.games)})  # fmt: skip
    return pd.DataFrame(rows).set_index(["policy", "position"])


def hand_odds_table(games: int, seed: int, hands=(STRONG_HAND, NO_VOID_HAND), policy: str = "heuristic"
                    ) -> pd.DataFrame:  # fmt: skip
    """``odds`` of each hand in each seat (dealer 0): P(all 12 tricks), P(each rule)
    and the expected deal score, 95% CIs; ``games`` deals each."""
    rows = []
    for hand in hands:
        for seat in EXAMPLE_SEATS:
            r = ej.odds(hand, seat, 0, games, seed=seed, policy=policy)
            s, rules = r["summary"], r["rules"]
            row = {"hand": hand, "position": f"{r['position']} (seat {seat})",
                   **_share("all_12_pct", s.loc["all_tricks"])}  # fmt: skip
            for letter in RULES:
                row.update(_share(f"rule_{letter}_pct", rules.loc[letter]))
            row.update(_est("expected_score", s.loc["expected_score"]))
            row.update(_est("mean_tricks", s.loc["mean_tricks"]))
            row["deals"] = int(r["deals"])
            rows.append(row)
    return pd.DataFrame(rows).set_index(["hand", "position"])


def sweep_study(seed: int, games: int, block: int = BLOCK) -> dict[str, pd.DataFrame]:
    """Every table of the study but the worked example, by name."""
    tallies, pairs, sweeps = play(seed, games, block)
    return {**_tables(tallies, pairs), "sweep_deals": sweeps}


def _tables(tallies: dict, pairs: Pairs) -> dict[str, pd.DataFrame]:
    return {"all_tricks": all_tricks_table(tallies, pairs), "by_position": by_position_table(tallies),
            "by_feature": by_feature_table(tallies), "rules": rules_table(tallies),
            "trump_setter": trump_setter_table(tallies), "trump_never_set": never_set_table(tallies),
            "seat_advantage": seat_table(tallies)}  # fmt: skip


# ------------------------------------------------------------ section


def _digits(row, col: str) -> int:
    """Decimals that show an estimate to about its standard error (its CI's upper end if that is 0)."""
    se = row.get(f"{col}_se", (row[f"{col}_ci_high"] - row[f"{col}_ci_low"]) / 3.92)
    ref = se if np.isfinite(se) and se > 0 else row[f"{col}_ci_high"] / 2
    if not np.isfinite(ref) or ref <= 0:
        return 1
    return max(0, min(6, 1 - int(math.floor(math.log10(ref)))))


def _ci(row, col: str, unit: str = "") -> str:
    """``x [lo, hi]`` of ``col`` in ``row``, rounded to its standard error."""
    if row[col] == 0 and row[f"{col}_ci_low"] == 0:  # no event: the upper bound to two digits
        hi = float(f"{row[f'{col}_ci_high']:.2g}")
        return f"0{unit} [0{unit}, {hi:g}{unit}]"
    sig = 1 - int(math.floor(math.log10(abs(row[col])))) if row[col] else 0  # two significant digits
    d = min(max(_digits(row, col) - 1, sig, 0), 6)
    e, lo, hi = (f"{row[c]:.{d}f}{unit}" for c in (col, f"{col}_ci_low", f"{col}_ci_high"))
    return f"{e} [{lo}, {hi}]"


def _count(n, word: str) -> str:
    n = int(n)
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _one_in(p_per_million: float) -> str:
    if p_per_million <= 0:
        return "never in this sample"
    n = MILLION / p_per_million
    mag = 10 ** max(int(math.floor(math.log10(n))) - 1, 0)
    return f"about 1 in {int(round(n / mag) * mag):,}"


def headline(t: dict[str, pd.DataFrame]) -> str:
    """The one-sentence answer, every number with its Wilson 95% CI and the counts it rests on."""
    at = t["all_tricks"]
    deal, game = at.loc["per deal"], at.loc["per 12-deal game"]
    pos = t["by_position"].loc["leader"]
    lead_sweeps = int(pos["random_events"]) + int(pos["heuristic_events"])
    leader = ("the leader never swept" if lead_sweeps == 0 else
              f"the leader swept only {_count(lead_sweeps, 'time')}")  # fmt: skip
    strong = t["hand_odds"].xs(STRONG_HAND, level="hand")
    lead, other = strong.iloc[0], strong.iloc[1:]
    best = other["all_12_pct"].idxmax()
    n = int(deal["n"])
    return (
        f"Very unlikely: with heuristic players some hand takes all 12 tricks in "
        f"{_ci(deal, 'heuristic')} deals per million ({_one_in(deal['heuristic'])}: "
        f"{_count(deal['heuristic_events'], 'sweep')} in {n:,} deals), in {_ci(game, 'heuristic')} of a "
        f"million 12-deal games ({int(game['heuristic_events']):,} of {int(game['n']):,}), and with random "
        f"players on the same deals in {_ci(deal, 'random')} deals per million "
        f"({_count(deal['random_events'], 'sweep')}); "
        f"a sweeper must be void in the suit led to the first trick (or all hands 3-3-3-3), so {leader}, "
        f"while a hand with the top six trumps-to-be and a void ({STRONG_HAND}) sweeps "
        f"{_ci(other.loc[best], 'all_12_pct', '%')} of the time as {best.split(' (')[0]} but "
        f"{_ci(lead, 'all_12_pct', '%')} as leader ({_count(lead['deals'], 'deal')} each; Wilson 95% CIs)."
    )


TABLE_CAPTIONS = {
    "all_tricks": (
        "Rule A: some hand takes all 12 tricks, per million deals and per million 12-deal games (Wilson 95% "
        "CIs), all three players random or all heuristic, on the same deals; random minus heuristic is "
        "paired deal by deal (normal CI from the discordant counts only_random / only_heuristic; both = "
        "swept under both). *_events = sweeps counted, n = deals or games."),
    "by_position": (
        "Sweeps by the position of the sweeping hand (leader = the seat after the dealer, who leads the "
        "first trick), per million deals, Wilson 95% CIs. A sweeper leads every trick after the first, so "
        "only an opponent can set trump then, and whoever sets trump takes that trick unless the next "
        "player, void too, plays a higher trump: a sweep needs the sweeper to be void in the suit led to "
        "the first trick, or trump never set, which happens exactly when all three hands are 3-3-3-3. "
        "The leader cannot be void in the suit it leads. n = deals."),
    "by_feature": (
        "Sweeps by features of the hand as dealt (aces, jacks, longest suit, voids, plain card points held: "
        "A 11, T 10, K 4, Q 3, J 2), per million hands, Wilson 95% CIs. n = hands (the same deals under "
        "both policies). A hand with no void can sweep only when all three hands are 3-3-3-3 (see by "
        "position)."),
    "rules": ("Share of deals (%) decided by each rule, the first of A-E that applies; Wilson 95% CIs, "
              "n = deals."),
    "trump_setter": (
        "Who sets trump (the first player unable to follow suit), by position relative to the dealer, "
        "share of deals (%); Wilson 95% CIs, n = deals."),
    "trump_never_set": (
        "Deals (%) in which trump is never set, beside the exact probability that all three hands are "
        "3-3-3-3 (C(9;3,3,3)^4 / C(36;12,12,12) = 1680^4 * 12!^3 / 36!), which is exactly when nobody is "
        "ever void in the suit led. Wilson 95% CIs, n = deals."),
    "seat_advantage": (
        "Seat advantage: mean deal score by position in that deal (n = deals; scores sum to 0 over the "
        "table); mean 12-deal game total and win chance (%) by position in the game's first deal (the "
        "dealer moves one seat a deal, so each seat deals 4 times; shared wins count as wins, sole_win "
        "does not). 95% CIs, n = deals / games."),
    "hand_odds": (
        "Worked example (cardmc odds): each hand held by seat 1, 2 or 0 with seat 0 dealing, the other "
        "24 cards dealt at random, all players heuristic: chance (%) that the hand takes all 12 tricks, "
        "share of deals (%) each rule decides, the hand's expected deal score and mean tricks, 95% CIs "
        "(Wilson for chances). n = deals."),
}
CHART_CAPTIONS = {
    "by_feature": (
        "Chance that a hand takes all 12 tricks by features of the hand as dealt, per million hands (log "
        "scale), random and heuristic play on the same deals; Wilson 95% CIs; open triangles mark groups "
        "with no sweep, the bar reaching the 95% upper bound."),
    "rules": "Share of deals each rule A-E decides (log scale), by policy; Wilson 95% CIs.",
    "by_position": "Sweeps per million deals by the sweeping hand's position, by policy; Wilson 95% CIs.",
    "trump_setter": "Who sets trump, by position relative to the dealer, by policy; Wilson 95% CIs.",
    "seat_advantage": ("Mean deal score by position relative to the dealer (left) and mean game total by "
                       "position in the first deal, by policy; 95% CIs."),
}


def commands(games: int, seed: int) -> list[str]:
    out = ["# the games, random and heuristic play (game i of a seed deals the same cards under both)"]
    for p in POLICIES:
        out += [f"cardmc simulate english_jazz --games {games} --seed {seed} --policy {p} "
                f"--out english_jazz_{p}.parquet",
                f"cardmc analyze english_jazz english_jazz_{p}.parquet"]  # fmt: skip
    out += [
        "# the tables above (paired sweeps, by position, by feature, rules, trump, seats)",
        'python -c "from cardmc.reports.english_jazz import sweep_study; from cardmc.display import show; '
        f"[print(show(k, v, 100)) for k, v in sweep_study(seed={seed}, games={games}).items()]\"",
        "# the worked example: one strong hand in each seat, seat 0 dealing",
    ]
    for hand in (STRONG_HAND, NO_VOID_HAND):
        for seat in EXAMPLE_SEATS:
            out.append(f'cardmc odds english_jazz --hand "{hand}" --seat {seat} --dealer 0 --games {games} '
                       f"--seed {seed}")
    return out


def study(folder, games: int, seed: int, progress: bool = False) -> Section:
    """Run the English Jazz study (``games`` games per policy, ``seed``) into ``folder``."""
    seed, games = check_seed(seed), check_count("games", games)
    folder = Path(folder)
    if not folder.is_dir():
        raise UsageError(f"folder {folder} does not exist")
    note("english_jazz", progress, f"{games:,} games x {len(POLICIES)} policies, in blocks of {BLOCK:,}")
    tallies, pairs, sweeps = play(seed, games, progress=progress)
    t = _tables(tallies, pairs)
    note("english_jazz", progress, f"worked example: {games:,} deals per hand and seat")
    t["hand_odds"] = hand_odds_table(games, seed)

    drawn = [
        ("by_feature", ec.plot_sweeps_by_feature(t["by_feature"])),
        ("rules", ec.plot_rules(t["rules"])),
        ("by_position", ec.plot_sweeps_by_position(t["by_position"])),
        ("trump_setter", ec.plot_trump_setter(t["trump_setter"])),
        ("seat_advantage", ec.plot_seat_advantage(t["seat_advantage"])),
    ]
    files = [(name, CHART_CAPTIONS[name], charts.save(ax, folder, f"english_jazz_{name}"))
             for name, ax in drawn]  # fmt: skip
    order = ("all_tricks", "by_position", "by_feature", "hand_odds", "rules", "trump_setter",
             "trump_never_set", "seat_advantage")  # fmt: skip
    deals = games * DEALS
    return Section(
        game="english_jazz",
        title="English Jazz",
        question=QUESTION,
        answer=headline(t),
        tables=[(name, TABLE_CAPTIONS[name], t[name]) for name in order],
        charts=files,
        data={f"english_jazz_{name}": t[name] for name in order},
        frames={"english_jazz_sweep_deals": sweeps} if len(sweeps) else {},
        commands=commands(games, seed),
        sample=(f"{games:,} games of 12 deals ({deals:,} deals, {3 * deals:,} hands) under random and under "
                f"heuristic play, the same deals under both; worked example {games:,} deals per hand and "
                f"seat; seed {seed}"),
    )
