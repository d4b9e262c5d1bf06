"""Schieber Jass at the Python edge: spec, frames, traces and analyses.

A simulated game is a whole match to ``target``. Rows: one per seat per deal
(see ``cardmc.kernels.schieber.COLUMNS``). ``duplicate`` measures one policy against
another on the same deals with the seats swapped; ``push_value`` replays the
same deals with the forehand forced to choose and forced to push.
"""
from __future__ import annotations

import functools
from math import comb

import numba
import numpy as np
import pandas as pd

from cardmc import stats
from cardmc.driver import check_count, check_seed
from cardmc.registry import GameSpec, Option, UsageError, join_spans, seat_codes
from cardmc.kernels import schieber as k
from cardmc.kernels import schieber_weis as w
from cardmc.kernels.cards import code, codes_of

POLICIES = {name: i for i, name in enumerate(k.POLICY_NAMES)}
CONTRACTS = k.CONTRACT_NAMES
SWISS_SUITS = {"C": "acorns", "D": "bells", "H": "roses", "S": "shields"}


def parse_policy(text: str, players: int = 4) -> np.ndarray:
    """Per-seat policy codes (shape (4, 1)) from a name or a comma list of four names."""
    if players != 4:
        raise UsageError(f"schieber is played by 4 players, not {players!r}")
    return seat_codes(text, players, "schieber", POLICIES)


def simulate_block(seed, start, count, players, params, policies) -> np.ndarray:
    rows, spans = k.simulate(seed, start, count, players, params, policies, numba.get_num_threads())
    return join_spans(rows, spans)


_SMALL = {c: "int8" for c in k.COLUMNS}
_SMALL.update({"game": "int64", "deal": "int16", "weis": "int16", "weis_kinds": "int16",
               "card_points": "int16", "score": "int16", "best_value": "int16",
               "total0": "int32", "total1": "int32", "deals": "int16"})  # fmt: skip


def frame(rows: np.ndarray) -> pd.DataFrame:
    """Rows as a DataFrame: small ints, contracts as categoricals of their names."""
    df = pd.DataFrame(rows, columns=list(k.COLUMNS)).astype(_SMALL)
    for col in ("contract", "best_contract"):
        codes = rows[:, k.COLUMNS.index(col)].astype(np.int8)
        df[col] = pd.Categorical.from_codes(codes, categories=CONTRACTS)
    return df


# ------------------------------------------------------------------- traces


def max_events(params: np.ndarray) -> int:
    return k.EVENTS_PER_DEAL * int(k.max_deals(int(params[0])))


def deal_records(events: np.ndarray) -> list[dict]:
    """TRACE.md deal objects from kernel trace events."""
    deals: list[dict] = []
    deal: dict = {}
    for ev in events:
        kind, a, b, c = (int(x) for x in ev)
        if kind == k.EV_DEAL:
            deal = {"dealer": None if b < 0 else b, "leader": c, "forehand": c, "hands": [None] * 4,
                    "weis": [[] for _ in range(4)], "plays": []}  # fmt: skip
            deals.append(deal)
        elif kind == k.EV_HAND:
            deal["hands"][a] = codes_of(b)
        elif kind == k.EV_CONTRACT:
            deal.update(chooser=a, pushed=bool(b), contract=CONTRACTS[c])
        elif kind == k.EV_WEIS:
            deal["weis"][a].append({"cards": codes_of(c), "points": b})
        elif kind == k.EV_STOECK:
            deal["stoeck_seat"] = None if a < 0 else a
        elif kind == k.EV_WEIS_TEAM:
            deal["weis_team"] = None if a < 0 else a
        elif kind == k.EV_PLAY:
            deal["plays"].append({"seat": a, "legal": codes_of(c), "card": code(b)})
        elif kind == k.EV_CARD_POINTS:
            deal["card_points"] = [a, b]
        elif kind == k.EV_DEAL_END:
            deal.update(score=[a, b], match_ended=bool(c))
    return deals


def trace_game(seed: int, index: int, players: int, settings: dict, policy: str) -> dict:
    """One TRACE.md line: match ``index`` of ``seed`` replayed by the kernel."""
    params = SPEC.params(settings)
    policies = parse_policy(policy, players)
    rows = np.zeros((k.max_rows(players, params), k.NCOL), np.int32)
    events = np.zeros((max_events(params), 4), np.int64)
    _, nev = k.play_game(seed, index, players, params, policies, rows, events)
    deals = deal_records(events[:nev])
    totals = [sum(d["score"][0] for d in deals), sum(d["score"][1] for d in deals)]
    target = int(settings["target"])
    winner = 0 if totals[0] >= target else 1
    return {
        "game": "schieber", "seed": seed, "index": index, "players": players,
        "rules": SPEC.rule_settings(settings), "policy": policy, "deals": deals,
        "totals": totals, "winners": [winner], "schneider": 2 * totals[1 - winner] < target,
    }  # fmt: skip


# ----------------------------------------------------------- exact Weis odds


@functools.lru_cache(maxsize=1)
def weis_odds() -> pd.DataFrame:
    """Exact chance that a 9-card hand declares each kind of Weis (all C(36, 9) hands counted)."""
    counts, points = w.declaration_counts()
    hands = comb(36, 9)
    kinds = np.arange(256)
    rows = {name: counts[(kinds >> i) & 1 == 1].sum() / hands for i, name in enumerate(w.KIND_NAMES)}
    rows["any"] = 1 - counts[0] / hands
    out = pd.DataFrame({"exact": pd.Series(rows)})
    out.attrs["mean_points"] = points / hands
    return out


# ----------------------------------------------------------------- analyses


def _deals(df: pd.DataFrame) -> pd.DataFrame:
    """One row per deal, from the forehand's point of view."""
    f = df[df["seat"] == df["forehand"]].copy()
    other = df[df["seat"] == (df["forehand"] + 1) % 4].set_index(["game", "deal"])
    f = f.set_index(["game", "deal"])
    f["fh_score"] = f["score"].astype(int)
    f["op_score"] = other["score"].astype(int)
    f["fh_points"] = f["card_points"].astype(int)
    f["op_points"] = other["card_points"].astype(int)
    f["complete"] = f["match_end"] == 0  # played out: not the match's last deal
    return f.reset_index()


HAND_FEATURES = {"aces": 9, "sixes": 9, "tens": 9, "longest": 9, "weis": 100}  # feature: cap (higher values pooled)
CONTRACT_TYPE = pd.CategoricalDtype(CONTRACTS)


def _deal_outcomes(df: pd.DataFrame) -> pd.DataFrame:
    """One row per deal (``_deals``) with what its four rows say together: Weis scored by the forehand's
    team or the other team, Stöck declared, a team took all nine tricks, the forehand team's net score."""
    key = ["game", "deal"]
    d = _deals(df).set_index(key)
    scored = df[df["weis_scored"] == 1].drop_duplicates(key).set_index(key)["team"].reindex(d.index)
    fh_team = d["forehand"].astype(int) % 2
    tricks = df.groupby([*key, "team"])["tricks"].sum()
    return d.assign(fh_weis=scored == fh_team, op_weis=scored == 1 - fh_team,
                    stoeck=df.groupby(key)["stoeck"].max(), match=(tricks == 9).groupby(level=key).any(),
                    net=d["fh_score"] - d["op_score"]).reset_index()  # fmt: skip


def aggregate(df: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The mergeable counts and sums ``summarise`` needs (see analysis/aggregate.py): additive over any
    split of the rows into whole matches, so chunks of a run merge exactly."""
    from cardmc import aggregate as agg

    if df.empty:
        raise UsageError("no schieber rows to analyse")
    chooser = (df["seat"] == df["chooser"]).to_numpy()
    deals = _deal_outcomes(df)
    complete = deals["complete"].to_numpy()
    out = {"contracts": agg.counts(df, ["pushed", "contract"], where=chooser)}
    for feature in HAND_FEATURES:
        out[f"contract_by_{feature}"] = agg.counts(df, [feature, "contract"], where=chooser)
    out["chooser_points"] = agg.moments(df, ["contract"], ["card_points", "score"],
                                        where=chooser & (df["match_end"] == 0).to_numpy())
    out["weis_kinds"] = agg.counts(df, ["weis_kinds"])
    out["weis_team"] = agg.counts(deals, ["fh_weis", "op_weis"])
    out["stoeck"] = agg.counts(deals, ["stoeck"], where=deals["contract"].isin(CONTRACTS[:4]))
    out["match_by_contract"] = agg.counts(deals, ["contract", "match"], where=complete)
    out["net_score"] = agg.moments(deals, ["pushed"], ["net"], where=complete)
    out["card_point_split"] = agg.counts(deals, ["fh_points", "op_points"], where=complete)
    out["match_ends"] = agg.counts(df[df["match_end"] == 1].drop_duplicates("game"), ["schneider", "deals"])
    out["first_deals"] = agg.counts(df, ["forehand", "winner"], where=((df["deal"] == 0) & (df["seat"] == 0)))
    return out


def _contract_by_chooser_hand(aggs: dict) -> pd.DataFrame:
    """Share of each contract by the chooser's hand feature value, most chosen first."""
    rows = []
    for feature, cap in HAND_FEATURES.items():
        t = aggs[f"contract_by_{feature}"].reset_index()
        t[feature] = np.minimum(t[feature], cap)
        grid = t.pivot_table(index=feature, columns="contract", values="n", aggfunc="sum", fill_value=0)
        for value, counts in grid.reindex(columns=list(CONTRACTS), fill_value=0).iterrows():
            counts = counts.sort_values(ascending=False, kind="stable")  # as value_counts orders them
            total = counts.sum()
            lo, hi = stats.wilson(counts.to_numpy(), total)
            for (name, n), l_, h_ in zip(counts.items(), lo, hi):
                p = n / total
                rows.append({"feature": feature, "value": int(value), "contract": name, "estimate": p,
                             "se": np.sqrt(p * (1 - p) / total), "ci_low": l_, "ci_high": h_, "n": total})
    return pd.DataFrame(rows).set_index(["feature", "value", "contract"])


def summarise(aggs: dict) -> dict[str, pd.DataFrame]:
    """Contracts, points, Weis, Stöck, matches and advantages from ``aggregate`` tables (merged over any
    number of chunks); every figure with a 95% CI."""
    from cardmc import aggregate as agg

    out: dict[str, pd.DataFrame] = {}
    chosen = aggs["contracts"]["n"].rename_axis(["pushed", "contract_name"])
    grid = pd.MultiIndex.from_product([chosen.index.unique("pushed"), list(CONTRACTS)], names=chosen.index.names)
    events = chosen.reindex(grid, fill_value=0)
    out["contracts"] = agg.proportion_table(events.groupby(level="pushed").transform("sum"), events, grid)
    out["contract_by_chooser_hand"] = _contract_by_chooser_hand(aggs)
    tables = []
    for col, label in (("card_points", "card points (before multiplier)"), ("score", "deal score (after)")):
        t = agg.mean_table(aggs["chooser_points"], col).reset_index()
        t.insert(0, "measure", f"chooser team {label}")
        tables.append(t)
    points = pd.concat(tables, ignore_index=True).astype({"contract": CONTRACT_TYPE})
    out["points_by_contract"] = points.set_index(["measure", "contract"])
    # Weis: observed per hand versus the exact odds
    odds = weis_odds()
    kinds = aggs["weis_kinds"]
    codes, hands = kinds.index.to_numpy(), int(kinds["n"].sum())
    obs = []
    for i, name in enumerate(list(w.KIND_NAMES) + ["any"]):
        hit = codes != 0 if name == "any" else (codes >> i) & 1 == 1
        obs.append({"kind": name, "exact": odds.loc[name, "exact"],
                    **stats.proportion(agg.events(kinds, hit), hands)})
    out["weis_per_hand"] = pd.DataFrame(obs).set_index("kind")
    weis = aggs["weis_team"].reset_index()
    deals = int(weis["n"].sum())
    out["weis_team"] = pd.DataFrame([
        {"team": "forehand team", **stats.proportion(agg.events(weis, "fh_weis"), deals)},
        {"team": "other team", **stats.proportion(agg.events(weis, "op_weis"), deals)},
        {"team": "nobody", **stats.proportion(agg.events(weis, ~weis["fh_weis"] & ~weis["op_weis"]), deals)},
    ]).set_index("team")  # fmt: skip
    st = aggs["stoeck"]
    out["stoeck"] = pd.DataFrame([{"deals": "trump contracts", **stats.proportion(
        agg.events(st, "stoeck"), st["n"].sum())}]).set_index("deals")  # fmt: skip
    sweep = agg.share(aggs["match_by_contract"], ["contract"], "match")
    out["match_by_contract"] = sweep.set_axis(pd.CategoricalIndex(sweep.index, dtype=CONTRACT_TYPE,
                                                                  name="contract"))
    ends = aggs["match_ends"]
    out["schneider"] = pd.DataFrame([{"matches": "all", **stats.proportion(agg.events(ends, "schneider"),
                                                                          ends["n"].sum())}]).set_index("matches")
    hist = agg.histogram_moments(ends, "deals", ["deals"]).reset_index()
    length = agg.mean_table(agg.histogram_moments(ends, "deals", []), "deals").to_dict("records")[0]
    quantiles = agg.histogram_quantiles(hist["deals"].to_numpy(), hist["n"].to_numpy())
    out["match_length"] = pd.DataFrame([{**length, **quantiles.to_dict()}], index=["deals per match"])
    net = aggs["net_score"]
    split = aggs["card_point_split"].reset_index()
    split["fh_share"] = split["fh_points"] / (split["fh_points"] + split["op_points"])
    first = aggs["first_deals"].reset_index()
    out["forehand_advantage"] = pd.DataFrame([
        {"measure": "forehand team net deal score",
         **agg.mean_table(net.sum().to_frame().T, "net").to_dict("records")[0]},
        {"measure": "forehand team share of card points",
         **agg.histogram_mean(split, "fh_share", []).to_dict("records")[0]},
        {"measure": "forehand team chose (did not push)",
         **stats.proportion(agg.events(net, "pushed", 0), net["n"].sum())},
        {"measure": "first forehand's team wins the match",
         **stats.proportion(agg.events(first, first["winner"] == first["forehand"] % 2), first["n"].sum())},
    ]).set_index("measure")  # fmt: skip
    return out


def analyze(df: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Contracts, points, Weis, Stöck, matches and advantages; every figure with a 95% CI."""
    return summarise(aggregate(df))


# ------------------------------------------------------ paired comparisons


def _run(seed: int, games: int, policy: str, settings: dict, block: int = 1024) -> pd.DataFrame:
    params, policies = SPEC.params(SPEC.settings(settings)), parse_policy(policy)
    parts = [simulate_block(seed, first, min(block, games - first), 4, params, policies)
             for first in range(0, games, block)]
    return frame(np.concatenate(parts))


def duplicate(seed: int, games: int, a: str = "heuristic", b: str = "random", **settings) -> pd.DataFrame:
    """Policy ``a`` against ``b`` on the same deals, seats swapped (duplicate format).

    Run 1 seats a at 0 and 2, run 2 seats b there; each game's result for ``a``
    is the mean of its two seatings. Match wins (Wilson over the 2 * games
    matches), share of card points and points per deal with 95% CIs.
    """
    seed, games = check_seed(seed), check_count("games", games)
    for name in (a, b):
        parse_policy(name)
    runs = [_run(seed, games, f"{a},{b},{a},{b}", settings), _run(seed, games, f"{b},{a},{b},{a}", settings)]
    wins, share, margin = [], [], []
    for team_a, df in zip((0, 1), runs):
        end = df[(df["match_end"] == 1) & (df["seat"] == 0)].set_index("game").sort_index()
        wins.append((end["winner"] == team_a).to_numpy())
        teams = df[df["seat"] < 2]
        per = teams.pivot_table(index="game", columns="team", values="card_points", aggfunc="sum").sort_index()
        share.append((per[team_a] / (per[0] + per[1])).to_numpy())
        sc = teams.pivot_table(index="game", columns="team", values="score", aggfunc="sum")
        n = df[df["seat"] == 0].groupby("game").size().sort_index()
        margin.append(((sc[team_a] - sc[1 - team_a]) / n).sort_index().to_numpy())
    allwins = np.concatenate(wins)
    return pd.DataFrame([
        {"measure": f"{a} wins the match", **stats.proportion(allwins.sum(), allwins.size)},
        {"measure": f"{a} share of card points", **stats.mean((share[0] + share[1]) / 2)},
        {"measure": f"{a} margin per deal (points)", **stats.mean((margin[0] + margin[1]) / 2)},
    ]).set_index("measure")  # fmt: skip


def push_value(seed: int, games: int, policy: str = "heuristic", bins=(-1000, 0, 20, 40, 60, 80, 100, 1000),
               **settings) -> pd.DataFrame:
    """The same deals with the forehand forced to choose and forced to push (paired).

    Per deal played out in both runs: the forehand team's net deal score
    (own minus other), pushing minus choosing, overall and by the forehand's
    hand strength (the heuristic's best contract value). ``verdict`` says
    "push" where the CI of push - choose lies above 0, "choose" below, else "either".
    """
    seed, games = check_seed(seed), check_count("games", games)
    if any(x in settings for x in ("forehand_push", "contract")):
        raise UsageError("push_value sets forehand_push itself and needs contract=choose")
    nets = {}
    for mode in ("never", "always"):
        d = _deals(_run(seed, games, policy, {**settings, "forehand_push": mode}))
        d = d[d["complete"]].set_index(["game", "deal"])
        nets[mode] = d
    both = nets["never"].index.intersection(nets["always"].index)
    choose, push = nets["never"].loc[both], nets["always"].loc[both]
    diff = (push["fh_score"] - push["op_score"]) - (choose["fh_score"] - choose["op_score"])
    strength = pd.cut(choose["best_value"].astype(int), list(bins))
    rows = [{"strength": "all", **stats.mean(diff)}]
    for label, g in diff.groupby(strength, observed=True):
        rows.append({"strength": str(label), **stats.mean(g)})
    out = pd.DataFrame(rows).set_index("strength")
    out["verdict"] = np.where(out["ci_low"] > 0, "push", np.where(out["ci_high"] < 0, "choose", "either"))
    return out


FEATURES = {
    "trump": ("intercept", "trumps", "trump J", "trump 9", "trump A", "trump K+Q", "side aces", "side tens",
              "side kings", "voids"),
    "obenabe": ("intercept", "aces", "kings", "queens", "jacks", "tens", "sure tricks", "long", "weak suits", "-"),
    "undenufe": ("intercept", "sixes", "sevens", "eights", "nines", "-", "sure tricks", "long", "weak suits", "-"),
}  # fmt: skip


def fit_evaluation(seed: int, games: int, contract: str = "H", target: int = 20000) -> pd.DataFrame:
    """Least-squares fit of the chooser team's card points on the heuristic's hand features.

    Every deal is played under ``contract`` with the forehand choosing it
    (heuristic play); the coefficients (with standard errors and 95% CIs) are
    what ``cardmc.kernels.schieber.EVAL_WEIGHTS`` holds, next to the weights in use.
    """
    seed, games = check_seed(seed), check_count("games", games)
    if contract not in CONTRACTS:
        raise UsageError(f"contract must be one of {', '.join(CONTRACTS)}, not {contract!r}")
    df = _run(seed, games, "heuristic", {"contract": contract, "forehand_push": "never", "target": target})
    d = df[(df["seat"] == df["chooser"]) & (df["match_end"] == 0)]
    c = CONTRACTS.index(contract)
    cards, hands, st = np.empty(36, np.int64), np.zeros(4, np.uint64), np.zeros(1, np.uint64)
    f = np.zeros(k.NFEAT)
    x = np.empty((len(d), k.NFEAT))
    for i, (g, deal, fh, s) in enumerate(zip(d["game"], d["deal"], d["forehand"], d["seat"])):
        k.deal_hands(seed, int(g), int(deal), 0 if deal == 0 else int(fh), cards, hands, st)
        k.contract_features(hands[int(s)], c, f)
        x[i] = f
    y = d["card_points"].to_numpy(dtype=float)
    used = np.flatnonzero(x.any(axis=0))
    beta, *_ = np.linalg.lstsq(x[:, used], y, rcond=None)
    resid = y - x[:, used] @ beta
    cov = resid @ resid / (len(y) - len(used)) * np.linalg.inv(x[:, used].T @ x[:, used])
    se = np.sqrt(np.diag(cov))
    group = "trump" if c < 4 else contract
    weights = k.EVAL_WEIGHTS[0 if c < 4 else c - 3]
    return pd.DataFrame({"estimate": beta, "se": se, "ci_low": beta - stats.Z95 * se,
                         "ci_high": beta + stats.Z95 * se, "n": len(y), "in_use": weights[used]},
                        index=pd.Index([FEATURES[group][i] for i in used], name="feature"))  # fmt: skip


SPEC = GameSpec(
    name="schieber",
    title="Schieber Jass",
    deck=36,
    players=(4,),
    default_players=4,
    rules={"target": Option(3000, "int", "points that win the match (live counting)", 100, 20000)},
    options={
        "contract": Option("choose", "choice", "fix the contract of every deal instead of choosing it",
                           choices={"choose": -1, **{name: i for i, name in enumerate(CONTRACTS)}}),
        "forehand_push": Option("policy", "choice", "force the forehand to push or to choose",
                                choices={"policy": 0, "always": 1, "never": 2}),
    },
    policies=tuple(POLICIES),
    default_policy="heuristic",
    unit="match to the target",
    parse_policy=parse_policy,
    simulate_block=simulate_block,
    frame=frame,
    trace_game=trace_game,
    analyze=analyze,
    columns=k.COLUMNS,
    extra={
        "bench": [("random", "random", {}), ("heuristic", "heuristic", {})],
        "block": 1024,
        "bench_games": 20_000,
        "deals_per_game": 9.6,  # heuristic play to 3000
        "suits": SWISS_SUITS,
    },
)
