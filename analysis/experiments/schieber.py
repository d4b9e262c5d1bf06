"""Schieber experiments: policies, pushing and contracts compared on the same deals.

Every run goes through ``cardmc.simulate``; game i of a seed deals the same
cards under every policy and forced choice, so comparisons are paired per deal
(or per match). ``duplicate`` measures one policy against another with the
seats swapped; ``push_value`` replays the same deals with the forehand forced
to choose and forced to push, and ``push_rule`` sets the heuristic's own rule
beside both; ``contract_study`` reads what each contract is worth and when it is
chosen from one run of heuristic play; ``weis_odds`` counts every hand exactly.
"""

from __future__ import annotations

import functools
from math import comb

import numpy as np
import pandas as pd

from cardmc import schieber as sch
from cardmc import stats
from cardmc.checks import check_count, check_seed
from cardmc.experiments.common import record
from cardmc.kernels import schieber as k
from cardmc.kernels import schieber_weis as w
from cardmc.registry import UsageError
from cardmc.stats import named

CONTRACTS = sch.CONTRACTS


def weis_rules(four_nines: object = "0", long_runs: object = "flat", weis: object = "on") -> int:
    """The Weis options as ``schieber_weis.declare`` reads them, checked as the spec checks them."""
    full = sch.SPEC.settings({"four_nines": four_nines, "long_runs": long_runs, "weis": weis})
    nines = w.FOUR_NINES if full["four_nines"] != "0" else 0
    runs = w.SCALED_RUNS if full["long_runs"] == "scaled" else 0
    return nines | runs | (w.NO_WEIS if full["weis"] == "off" else 0)


def weis_odds(four_nines: object = "0", long_runs: object = "flat", weis: object = "on") -> pd.DataFrame:
    """Exact chance that a 9-card hand declares each kind of Weis (all C(36, 9) hands counted) under
    the rule options ``four_nines``, ``long_runs`` and ``weis`` (off: no hand declares anything).
    ``attrs``: ``mean_points`` (declared points per hand) and ``by_total`` (exact probability of each
    declared total, a Series by points)."""
    return _weis_odds(weis_rules(four_nines, long_runs, weis)).copy(deep=True)


@functools.lru_cache(maxsize=4)
def _weis_odds(weis: int) -> pd.DataFrame:
    counts, by_total = w.declaration_table(weis)
    hands = comb(36, 9)
    kinds = np.arange(len(counts))
    rows = {name: counts[(kinds >> i) & 1 == 1].sum() / hands for i, name in enumerate(w.KIND_NAMES)}
    rows["any"] = 1 - counts[0] / hands
    out = pd.DataFrame({"exact": pd.Series(rows)})
    totals = np.flatnonzero(by_total)
    out.attrs["by_total"] = pd.Series(
        by_total[totals] / hands, index=pd.Index(totals, name="points"), name="exact"
    )
    out.attrs["mean_points"] = float(totals @ by_total[totals]) / hands
    return out


def _run(seed: int, games: int, policy: str, settings: dict) -> pd.DataFrame:
    """``games`` matches of ``seed`` under ``policy`` and ``settings``, as rows (``cardmc.simulate``)."""
    from cardmc.api import simulate

    return simulate("schieber", games=games, seed=seed, policy=policy, **settings)


def duplicate(seed: int, games: int, a: str = "heuristic", b: str = "random", **settings) -> pd.DataFrame:
    """Policy ``a`` against ``b`` on the same deals, seats swapped (duplicate format).

    Run 1 seats a at 0 and 2, run 2 seats b there; each game's result for ``a``
    is the mean of its two seatings. Match wins (Wilson over the 2 * games
    matches), share of card points and points per deal with 95% CIs.
    """
    seed, games = check_seed(seed), check_count("games", games)
    for name in (a, b):
        sch.parse_policy(name)
    runs = [_run(seed, games, f"{a},{b},{a},{b}", settings), _run(seed, games, f"{b},{a},{b},{a}", settings)]
    wins, share, margin = [], [], []
    for team_a, df in zip((0, 1), runs):
        end = df[(df["match_end"] == 1) & (df["seat"] == 0)].set_index("game").sort_index()
        wins.append((end["winner"] == team_a).to_numpy())
        teams = df[df["seat"] < 2]
        per = teams.pivot_table(
            index="game", columns="team", values="card_points", aggfunc="sum"
        ).sort_index()
        share.append((per[team_a] / (per[0] + per[1])).to_numpy())
        sc = teams.pivot_table(index="game", columns="team", values="score", aggfunc="sum")
        n = df[df["seat"] == 0].groupby("game").size().sort_index()
        margin.append(((sc[team_a] - sc[1 - team_a]) / n).sort_index().to_numpy())
    allwins = np.concatenate(wins)
    return pd.DataFrame(
        [
            {"measure": f"{a} wins the match", **stats.proportion(allwins.sum(), allwins.size)},
            {"measure": f"{a} share of card points", **stats.mean((share[0] + share[1]) / 2)},
            {"measure": f"{a} margin per deal (points)", **stats.mean((margin[0] + margin[1]) / 2)},
        ]
    ).set_index("measure")


def forced_runs(seed: int, games: int, policy: str = "heuristic", **settings) -> dict[str, pd.DataFrame]:
    """The same ``games`` matches with the forehand forced to choose (``never``) and to push
    (``always``): one row per deal played out (``cardmc.schieber.forehand_deals``), by (game, deal)."""
    seed, games = check_seed(seed), check_count("games", games)
    if any(x in settings for x in ("forehand_push", "contract")):
        raise UsageError("push_value sets forehand_push itself and needs contract=choose")
    nets = {}
    for mode in ("never", "always"):
        d = sch.forehand_deals(_run(seed, games, policy, {**settings, "forehand_push": mode}))
        nets[mode] = d[d["complete"]].set_index(["game", "deal"])
    return nets


def push_value(
    seed: int,
    games: int,
    policy: str = "heuristic",
    bins=(-1000, 0, 20, 40, 60, 80, 100, 1000),
    forced: dict | None = None,
    **settings,
) -> pd.DataFrame:
    """The same deals with the forehand forced to choose and forced to push (paired).

    Per deal played out in both runs: the forehand team's net deal score
    (own minus other), pushing minus choosing, overall and by the forehand's
    hand strength (the heuristic's best contract value). ``verdict`` says
    "push" where the CI of push - choose lies above 0, "choose" below, else "either".
    ``forced``: the ``forced_runs`` of the same seed and games, if already played.
    """
    seed, games = check_seed(seed), check_count("games", games)
    nets = forced if forced is not None else forced_runs(seed, games, policy, **settings)
    both = nets["never"].index.intersection(nets["always"].index)
    choose, push = nets["never"].loc[both], nets["always"].loc[both]
    diff = (push["fh_score"] - push["op_score"]) - (choose["fh_score"] - choose["op_score"])
    strength = pd.cut(choose["best_value"].astype(int), list(bins))
    rows = [{"strength": "all", **stats.mean(diff)}]
    for label, g in diff.groupby(strength, observed=True):
        rows.append({"strength": str(label), **stats.mean(g)})
    out = pd.DataFrame(rows).set_index("strength")
    out["verdict"] = np.where(out["ci_low"] > 0, "push", np.where(out["ci_high"] < 0, "choose", "either"))
    return record(out, seed=seed, games=games, policy=policy)


FEATURES = {
    "trump": (
        "intercept",
        "trumps",
        "trump J",
        "trump 9",
        "trump A",
        "trump K+Q",
        "side aces",
        "side tens",
        "side kings",
        "voids",
    ),
    "obenabe": (
        "intercept",
        "aces",
        "kings",
        "queens",
        "jacks",
        "tens",
        "sure tricks",
        "long",
        "weak suits",
        "-",
    ),
    "undenufe": (
        "intercept",
        "sixes",
        "sevens",
        "eights",
        "nines",
        "-",
        "sure tricks",
        "long",
        "weak suits",
        "-",
    ),
}


def fit_evaluation(
    seed: int,
    games: int,
    contract: str = "H",
    target: int = 20000,
    undenufe_points: str = "ace",
    policy: str = "heuristic",
) -> pd.DataFrame:
    """Least-squares fit of the chooser team's card points on the heuristic's hand features.

    Every deal is played under ``contract`` with the forehand choosing it
    (``policy`` at every seat: the heuristic, or the learned player, whose
    contract weights are fitted so); the coefficients (with standard errors and 95% CIs) are
    what ``cardmc.kernels.schieber.EVAL_WEIGHTS`` holds, next to the weights in use
    (Undenufe with ``undenufe_points="six"``: the six count's row).
    """
    seed, games = check_seed(seed), check_count("games", games)
    if contract not in CONTRACTS:
        raise UsageError(f"contract must be one of {', '.join(CONTRACTS)}, not {contract!r}")
    df = _run(
        seed,
        games,
        policy,
        {
            "contract": contract,
            "forehand_push": "never",
            "target": target,
            "undenufe_points": undenufe_points,
        },
    )
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
    six = c == CONTRACTS.index("undenufe") and undenufe_points == "six"
    weights = k.EVAL_WEIGHTS[0 if c < 4 else c - 3 + six]
    return pd.DataFrame(
        {
            "estimate": beta,
            "se": se,
            "ci_low": beta - stats.Z95 * se,
            "ci_high": beta + stats.Z95 * se,
            "n": len(y),
            "in_use": weights[used],
        },
        index=pd.Index([FEATURES[group][i] for i in used], name="feature"),
    )


# ------------------------------------------------------------ contracts and pushing

# hand-strength bins of push_value: the forehand's best contract value in points
PUSH_BINS = (-1000, 0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 120, 1000)
CHOOSER_FEATURES = {"aces": 4, "sixes": 4, "longest": 7}  # chooser's hand features (value capped: 7 = 7+)
FAMILIES = ("trump", "obenabe", "undenufe")  # contract families: trump (4 suits), obenabe, undenufe
MIN_GROUP = 10  # rows of contract_by_hand need at least this many hands
WEIS_LABELS = {
    "run3": "run of 3 (20)",
    "run4": "run of 4 (50)",
    "run5": "run of 5+ (100)",
    "quartet_T": "four tens (100)",
    "quartet_J": "four jacks (200)",
    "quartet_Q": "four queens (100)",
    "quartet_K": "four kings (100)",
    "quartet_A": "four aces (100)",
    "quartet_9": "four nines (150)",
    "any": "any Weis",
}


NO_ESTIMATE = {"estimate": np.nan, "se": np.nan, "ci_low": np.nan, "ci_high": np.nan}


ROW_COLUMNS = ("game", "deal", "seat", "chooser", "forehand", "contract", "score")


def _rows(df, what: str, columns=ROW_COLUMNS) -> None:
    if not isinstance(df, pd.DataFrame):
        raise UsageError(f"{what} needs schieber rows as a DataFrame, not {type(df).__name__}")
    missing = [c for c in columns if c not in df.columns]
    if missing or df.empty:
        raise UsageError(
            f"{what} needs non-empty schieber rows; missing columns: {', '.join(missing) or 'none'}"
        )


def _share(events, n) -> dict:
    """stats.proportion with the Wilson bounds clipped to [0, 1] (no -0.000 from rounding error)."""
    d = stats.proportion(events, n)
    d["ci_low"], d["ci_high"] = max(0.0, d["ci_low"]), min(1.0, d["ci_high"])
    return d


def contract_label(code: int) -> str:
    name = sch.CONTRACTS[code]
    suit = f"{name} {sch.SWISS_SUITS[name]}" if code < 4 else name
    return f"{suit} x{int(k.MULTIPLIER[code])}"


def deal_table(df: pd.DataFrame) -> pd.DataFrame:
    """One row per deal from the chooser's team's point of view."""
    _rows(df, "the deal table")
    key = ["game", "deal"]
    seat, chooser = df["seat"].astype(int), df["chooser"].astype(int)
    own = df[seat == chooser].set_index(key)
    other = df[seat == (chooser + 1) % 4].set_index(key)
    partner = df[seat == (chooser + 2) % 4].set_index(key)
    d = pd.DataFrame(
        {
            "contract": own["contract"].cat.codes.astype(int),
            "pushed": own["pushed"].astype(int),
            "card_points": own["card_points"].astype(int),
            "deal_score": own["score"].astype(int),
            "net_score": own["score"].astype(int) - other.loc[own.index, "score"].astype(int),
            "tricks": own["tricks"].astype(int) + partner.loc[own.index, "tricks"].astype(int),
            "complete": own["match_end"] == 0,
        }
    )
    d["chooser_match"] = d["tricks"] == 9
    d["any_match"] = (d["tricks"] == 9) | (d["tricks"] == 0)
    return d


def contract_value(deals: pd.DataFrame) -> pd.DataFrame:
    """Per contract (complete deals): share chosen, chooser team's card points
    before and score after the multiplier, net score, match rate; 95% CIs.
    ``deals`` is the deal table of ``deal_table``."""
    _rows(
        deals,
        "contract_value",
        ("contract", "complete", "card_points", "deal_score", "net_score", "chooser_match"),
    )
    done = deals[deals["complete"]]
    total = len(done)
    groups = [(contract_label(c), f"x{int(k.MULTIPLIER[c])}", done["contract"] == c) for c in range(6)]
    groups += [
        ("trumps x1 (C, H)", "x1", done["contract"].isin([0, 2])),
        ("trumps x2 (D, S)", "x2", done["contract"].isin([1, 3])),
        ("all contracts", "x1 to x4", pd.Series(True, index=done.index)),
    ]
    rows = []
    for label, mult, sel in groups:
        g = done[sel]
        if g.empty:
            continue
        share = _share(len(g), total) if label != "all contracts" else NO_ESTIMATE
        rows.append(
            {
                "contract": label,
                "multiplier": mult,
                "n": len(g),
                **named("share_chosen", share),
                **named("card_points", stats.mean(g["card_points"])),
                **named("deal_score", stats.mean(g["deal_score"])),
                **named("net_score", stats.mean(g["net_score"])),
                **named("match_rate", _share(g["chooser_match"].sum(), len(g))),
            }
        )
    return pd.DataFrame(rows).set_index("contract")


def contract_by_hand(df: pd.DataFrame) -> pd.DataFrame:
    """Share of trump / Obenabe / Undenufe chosen by features of the chooser's hand (Wilson CIs)."""
    _rows(df, "contract_by_hand", ("seat", "chooser", "contract", *CHOOSER_FEATURES))
    ch = df[df["seat"] == df["chooser"]]
    code = ch["contract"].cat.codes.to_numpy()
    family = np.where(code < 4, 0, code - 3)  # 0 trump, 1 obenabe, 2 undenufe
    rows = []
    for feature, cap in CHOOSER_FEATURES.items():
        values = np.minimum(ch[feature].to_numpy(), cap)
        for v in np.unique(values):
            sel = values == v
            n = int(sel.sum())
            if n < MIN_GROUP:
                continue
            row = {"feature": feature, "value": int(v), "n": n}
            for i, name in enumerate(FAMILIES):
                row.update(named(name, _share(int((family[sel] == i).sum()), n)))
            rows.append(row)
    return pd.DataFrame(rows).set_index(["feature", "value"])


def push_table(
    seed: int, games: int, forced: dict | None = None, policy: str = "heuristic", **settings
) -> pd.DataFrame:
    """``push_value`` over PUSH_BINS with readable bin labels and numeric bin edges (``forced``: the
    ``forced_runs`` of the same seed, games, ``policy`` and rule options ``settings``, if already played)."""
    seed, games = check_seed(seed), check_count("games", games)
    pv = push_value(seed, games, policy, bins=PUSH_BINS, forced=forced, **settings)
    lo, hi, labels = [], [], []
    for s in pv.index:
        if s == "all":
            lo.append(pd.NA), hi.append(pd.NA), labels.append("all deals")
            continue
        a, b = (int(x) for x in s.strip("(]").split(","))
        lo.append(a), hi.append(b)
        labels.append(f"<= {b}" if a <= -1000 else f"> {a}" if b >= 1000 else f"{a} to {b}")
    out = pv.rename(
        columns={
            "estimate": "push_minus_choose",
            "se": "push_minus_choose_se",
            "ci_low": "push_minus_choose_ci_low",
            "ci_high": "push_minus_choose_ci_high",
        }
    )
    out.index = pd.Index(labels, name="forehand's best contract value (points)")
    out["from_points"] = pd.array(lo, dtype="Int64")
    out["to_points"] = pd.array(hi, dtype="Int64")
    return out


def _forehand_net(df: pd.DataFrame) -> pd.Series:
    """Forehand team's net deal score (own minus other team's) per complete deal, by (game, deal)."""
    key = ["game", "deal"]
    seat, fh = df["seat"].astype(int), df["forehand"].astype(int)
    own = df[(seat == fh) & (df["match_end"] == 0)].set_index(key)
    other = df[seat == (fh + 1) % 4].set_index(key).loc[own.index]
    return own["score"].astype(int) - other["score"].astype(int)


def threshold_in_force(**settings) -> int:
    """The heuristic forehand's push threshold under the rule options ``settings`` (the rulebook's by
    default): what the spec derives from them (``cardmc.kernels.schieber_push.push_below``)."""
    return int(sch.SPEC.params(sch.SPEC.settings(settings))[k.P_PUSH_BELOW])


def push_rule(
    seed: int, games: int, policy_run: pd.DataFrame, forced: dict | None = None, **settings
) -> pd.DataFrame:
    """The heuristic's push rule (push when no contract is worth the threshold of the rules in force,
    ``threshold_in_force``) against never and always pushing, paired on the deals played out in both
    runs: the forehand team's net points per deal. ``policy_run`` is ``games`` matches of ``seed`` under
    heuristic play and the rule options ``settings``; ``forced`` the ``forced_runs`` of the same seed,
    games and options, if already played."""
    seed, games = check_seed(seed), check_count("games", games)
    _rows(policy_run, "push_rule", ("game", "deal", "seat", "forehand", "score", "match_end"))
    rule = _forehand_net(policy_run)
    forced = forced if forced is not None else forced_runs(seed, games, **settings)
    threshold = threshold_in_force(**settings)
    rows = []
    for mode, label in (("never", "never pushing"), ("always", "always pushing")):
        net = forced[mode]["fh_score"] - forced[mode]["op_score"]
        both = rule.index.intersection(net.index)
        rows.append(
            {
                "comparison": f"push below {threshold} (heuristic) minus {label}",
                **named("gain", stats.paired_difference(rule.loc[both], net.loc[both])),
                "n": len(both),
            }
        )
    return record(pd.DataFrame(rows).set_index("comparison"), seed=seed, games=games, threshold=threshold)


def push_threshold(push: pd.DataFrame) -> tuple[float | None, str | None, str | None]:
    """Where pushing stops paying: (hand value at the first sign change of push - choose,
    interpolated between bin centres and rounded to 5 points; the highest bin below it
    where pushing pays clearly (CI above 0), else the bin just below; the lowest bin
    above it where choosing pays clearly, else the bin just above). None where absent."""
    t = push.dropna(subset=["from_points"]).sort_values("from_points")
    gain = t["push_minus_choose"].to_numpy(float)
    lo, hi = t["from_points"].to_numpy(float), t["to_points"].to_numpy(float)
    lo[lo <= -1000], hi[hi >= 1000] = hi[lo <= -1000] - 10, lo[hi >= 1000] + 10  # open tails 10 wide
    mid = (lo + hi) / 2
    cross = next((i for i in range(len(t)) if gain[i] < 0), None)
    if cross is None:
        return None, (t.index[-1] if len(t) else None), None
    if cross == 0:
        return None, None, t.index[0]
    x = mid[cross - 1] + (mid[cross] - mid[cross - 1]) * gain[cross - 1] / (gain[cross - 1] - gain[cross])
    verdict = t["verdict"].to_numpy()
    below = [i for i in range(cross) if verdict[i] == "push"]
    above = [i for i in range(cross, len(t)) if verdict[i] == "choose"]
    pays = t.index[below[-1] if below else cross - 1]
    return 5 * round(x / 5), pays, t.index[above[0] if above else cross]


def weis_table(df: pd.DataFrame, tables: dict) -> pd.DataFrame:
    """Simulated Weis per hand (Wilson CI) beside the exact probability, and the mean
    points per hand. ``tables`` is ``cardmc.schieber.analyze(df)``."""
    _rows(df, "weis_table", ("weis",))
    if "weis_per_hand" not in tables:
        raise UsageError("weis_table needs the tables of cardmc.schieber.analyze (no 'weis_per_hand')")
    w = tables["weis_per_hand"].rename(
        columns={
            "estimate": "simulated",
            "se": "simulated_se",
            "ci_low": "simulated_ci_low",
            "ci_high": "simulated_ci_high",
        }
    )
    w = w[["exact", "simulated", "simulated_se", "simulated_ci_low", "simulated_ci_high", "n"]]
    w.index = pd.Index([WEIS_LABELS.get(i, i) for i in w.index], name="Weis declared")
    w.insert(0, "unit", "share of hands")
    points = stats.mean(df["weis"])
    exact = weis_odds().attrs["mean_points"]
    w.loc["Weis points per hand (mean)"] = {
        "unit": "points per hand",
        "exact": exact,
        **named("simulated", points),
        "n": points["n"],
    }
    w["n"] = w["n"].astype("int64")
    return w


def results_table(deals: pd.DataFrame, tables: dict, dup: pd.DataFrame) -> pd.DataFrame:
    """Match and Schneider rates, match length and the duplicate result in one table.
    ``deals`` from ``deal_table``, ``tables`` from ``analyze``, ``dup`` from ``duplicate``."""
    _rows(deals, "results_table", ("complete", "any_match", "chooser_match"))
    for name in ("schneider", "match_length"):
        if name not in tables:
            raise UsageError(f"results_table needs the tables of cardmc.schieber.analyze (no {name!r})")
    if not isinstance(dup, pd.DataFrame) or "estimate" not in dup.columns:
        raise UsageError("results_table needs the table of cardmc.schieber.duplicate")
    done = deals[deals["complete"]]
    rows = [
        {
            "measure": "match: a team takes all nine tricks (share of complete deals)",
            **_share(done["any_match"].sum(), len(done)),
        },
        {
            "measure": "match by the chooser's team (share of complete deals)",
            **_share(done["chooser_match"].sum(), len(done)),
        },
        {
            "measure": "Schneider: loser below half the target (share of matches)",
            **tables["schneider"].iloc[0].to_dict(),
        },
        {"measure": "deals per match", **tables["match_length"].iloc[0].to_dict()},
    ]
    for measure, r in dup.iterrows():
        rows.append({"measure": f"duplicate vs random: {measure}", **r.to_dict()})
    out = pd.DataFrame(rows).set_index("measure")[["estimate", "se", "ci_low", "ci_high", "n"]]
    out["n"] = out["n"].astype("int64")
    return out


def contract_study(seed: int, games: int, progress: bool = False) -> dict[str, pd.DataFrame]:
    """Every table of the Schieber report from ``games`` matches of ``seed``, 95% CIs throughout:
    heuristic play as it is (``contract_value``, ``contract_by_hand``, ``weis``), the same matches with
    the forehand forced to choose and to push (``push``, ``push_rule``), and heuristic against random
    in duplicate (``results``); ``rows``: the heuristic matches' rows."""
    from cardmc.api import simulate

    seed, games = check_seed(seed), check_count("games", games)
    df = simulate("schieber", games=games, seed=seed, policy="heuristic", progress=progress)
    df = df.sort_values(["game", "deal", "seat"], kind="stable").reset_index(drop=True)
    tables = sch.analyze(df)
    deals = deal_table(df)
    forced = forced_runs(seed, games)
    dup = duplicate(seed, games, "heuristic", "random")
    out = {
        "contract_value": contract_value(deals),
        "contract_by_hand": contract_by_hand(df),
        "push": push_table(seed, games, forced),
        "push_rule": push_rule(seed, games, df, forced),
        "weis": weis_table(df, tables),
        "results": results_table(deals, tables, dup),
    }
    out = {name: record(t, seed=seed, games=games) for name, t in out.items()}
    out["rows"] = df
    return out


# ------------------------------------------------------------------ house rules

SWISS_RULES = {"undenufe_points": "six", "four_nines": "150", "long_runs": "scaled"}


def _contract_runs(seed: int, games: int, rules: dict, target: int) -> pd.DataFrame:
    """Per complete deal (index game, deal): the forehand team's net deal score with each contract fixed
    (columns by contract name; heuristic play, the forehand always chooses), the heuristic forehand's own
    choice, and what decides the Weis under the heuristic's choice (team scoring Weis, its points after the
    multiplier, the deal's winning team by score)."""
    values, key = {}, ["game", "deal"]
    weis = []
    for c, name in enumerate(CONTRACTS):
        fixed = {**rules, "contract": name, "forehand_push": "never", "target": target}
        df = _run(seed, games, "heuristic", fixed)
        d = sch.forehand_deals(df).set_index(key)
        d = d[d["complete"]]
        values[name] = d["fh_score"] - d["op_score"]
        if c == 0:
            choice = d["best_contract"].cat.codes.rename("choice")
        scored = df.loc[df["weis_scored"] == 1, [*key, "team", "weis", "multiplier"]]
        team = scored.groupby(key)["team"].first()
        points = (
            (scored["weis"].astype(int) * scored["multiplier"].astype(int))
            .groupby([scored["game"], scored["deal"]])
            .sum()
        )
        weis.append(
            pd.DataFrame(
                {
                    "contract": c,
                    "weis_team": team.reindex(d.index).fillna(-1).astype(int),
                    "weis_points": points.reindex(d.index).fillna(0).astype(int),
                    "fh_team": d["forehand"].astype(int) % 2,
                    "net": values[name],
                }
            )
        )
    out = pd.DataFrame(values).dropna().astype(int)
    out["choice"] = choice.reindex(out.index)
    w = pd.concat(weis).set_index("contract", append=True)
    return out, w


def _winner(net: np.ndarray, fh_team: np.ndarray) -> np.ndarray:
    """The team with the higher deal score (-1: equal)."""
    return np.where(net > 0, fh_team, np.where(net < 0, 1 - fh_team, -1))


def house_rules(
    seed: int = 1, games: int = 200, target: int = 20000, rules: dict | None = None
) -> dict[str, pd.DataFrame]:
    """What a set of house rules changes against the rulebook's defaults, on the same deals: ``rules``,
    rule options by name (``weis="off"``, ``multipliers="1,1,1,1,1,1"``, ...), by default the common
    Swiss house rules (``undenufe_points=six``, ``four_nines=150``, ``long_runs=scaled``), whose
    columns are named ``swiss`` (any other set's: ``house``).

    ``games`` matches of ``seed`` to ``target`` (long matches, so that nearly every deal is played out)
    are played 12 times: each contract fixed (the forehand always chooses it, heuristic play) under each
    rule set. Deal k of game i holds the same cards and forehand in every run, so every comparison is
    paired per deal (the deals played out in all 12 runs). A contract's *value* is the forehand team's
    net deal score (its score minus the other team's, after the multiplier, Weis and Stöck included):
    what a deal moves the race to the target by.

    Returns ``contracts`` (value of each contract, of the heuristic forehand's own choice and of the
    best of the six in hindsight: default, house rules and the paired difference house - default, 95% CIs),
    ``choice`` (share of deals on which each contract is the heuristic's choice and the best in
    hindsight, Wilson CIs, and the paired difference) and ``weis`` (under the contract the heuristic
    chooses by the default rules, the same in both runs: a team scores Weis; the team scoring Weis
    differs between the rule sets; the Weis changes the deal's winning team, i.e. the team with the
    higher deal score differs with and without the Weis points; Wilson CIs, paired differences).
    """
    seed, games = check_seed(seed), check_count("games", games)
    target = sch.SPEC.settings({"target": target})["target"]
    rules = dict(SWISS_RULES if rules is None else rules)
    others = [name for name in rules if name not in sch.SPEC.rules or name == "target"]
    if others:
        raise UsageError(f"house rules are rule options other than the target, not {', '.join(others)}")
    rules = {name: sch.SPEC.settings(rules)[name] for name in rules}
    house = "swiss" if rules == SWISS_RULES else "house"
    runs = {name: _contract_runs(seed, games, r, target) for name, r in (("default", {}), (house, rules))}
    both = runs["default"][0].index.intersection(runs[house][0].index)
    values = {name: v.loc[both] for name, (v, _) in runs.items()}
    n = len(both)
    if n == 0:
        raise UsageError(f"no deal was played out in every run of {games} games; use more games")
    measures = {}
    for name, v in values.items():
        table = v[list(CONTRACTS)].to_numpy()
        measures[name] = {
            **{c: table[:, i] for i, c in enumerate(CONTRACTS)},
            "heuristic's choice": table[np.arange(n), v["choice"].to_numpy()],
            "best of the six (hindsight)": table.max(axis=1),
        }
        measures[name]["_best"] = table.argmax(axis=1)
    rows = []
    for label in [*CONTRACTS, "heuristic's choice", "best of the six (hindsight)"]:
        a, b = measures["default"][label], measures[house][label]
        rows.append(
            {
                "contract": contract_label(CONTRACTS.index(label)) if label in CONTRACTS else label,
                **named("default", stats.mean(a)),
                **named(house, stats.mean(b)),
                **named("difference", stats.paired_difference(b, a)),
                "n": n,
            }
        )
    contracts = pd.DataFrame(rows).set_index("contract")
    rows = []
    for what, pick in (
        ("heuristic's choice", lambda name: values[name]["choice"].to_numpy()),
        ("best in hindsight", lambda name: measures[name]["_best"]),
    ):
        for c, name in enumerate(CONTRACTS):
            a, b = pick("default") == c, pick(house) == c
            rows.append(
                {
                    "measure": what,
                    "contract": contract_label(c),
                    **named("default", _share(a.sum(), n)),
                    **named(house, _share(b.sum(), n)),
                    **named("difference", stats.paired_difference(b, a)),
                    "n": n,
                }
            )
    choice = pd.DataFrame(rows).set_index(["measure", "contract"])
    weis = _weis_decides(runs, values["default"]["choice"], house)
    out = {"contracts": contracts, "choice": choice, "weis": weis}
    return {
        name: record(t, seed=seed, games=games, target=target, deals=n, policy="heuristic", rules=dict(rules))
        for name, t in out.items()
    }


def _weis_decides(runs: dict, choice: pd.Series, house: str) -> pd.DataFrame:
    """The ``weis`` table of ``house_rules`` (``house``: the name of the house rules' runs): on each deal,
    under the contract the heuristic chooses by the default rules (the same contract and cards in both
    rule sets)."""
    idx = pd.MultiIndex.from_arrays(
        [choice.index.get_level_values(0), choice.index.get_level_values(1), choice.to_numpy()],
        names=["game", "deal", "contract"],
    )
    w = {name: weis.loc[idx] for name, (_, weis) in runs.items()}
    n = len(idx)
    flags = {}
    for name, d in w.items():
        team, fh = d["weis_team"].to_numpy(), d["fh_team"].to_numpy()
        net = d["net"].to_numpy()
        # the net score without the Weis: the Weis team's points taken back
        bare = net - np.where(team == fh, 1, np.where(team >= 0, -1, 0)) * d["weis_points"].to_numpy()
        flags[name] = {"scores": team >= 0, "changes": _winner(net, fh) != _winner(bare, fh)}
    differs = w["default"]["weis_team"].to_numpy() != w[house]["weis_team"].to_numpy()
    rows = []
    for flag, measure in (
        ("scores", "a team scores Weis"),
        ("changes", "the Weis changes the deal's winning team"),
    ):
        a, b = flags["default"][flag], flags[house][flag]
        rows.append(
            {
                "measure": measure,
                **named("default", _share(a.sum(), n)),
                **named(house, _share(b.sum(), n)),
                **named("difference", stats.paired_difference(b, a)),
            }
        )
    rows.append(
        {
            "measure": "the team scoring Weis differs between the rule sets",
            **named("default", NO_ESTIMATE),
            **named(house, NO_ESTIMATE),
            **named("difference", _share(differs.sum(), n)),
        }
    )
    out = pd.DataFrame(rows).set_index("measure")
    out["n"] = n
    return out


# ------------------------------------------------------------ the push rule under each rule set

NO_MULTIPLIERS = {"multipliers": "1,1,1,1,1,1"}
PUSH_RULE_SETS = {  # the rule sets the push rule is checked under (the report's house-rules part)
    "rulebook": {},
    "without multipliers": NO_MULTIPLIERS,
    "without multipliers or Weis": {"weis": "off", **NO_MULTIPLIERS},
    "with the Swiss set": SWISS_RULES,
    "without Weis": {"weis": "off"},
    "without Stöck": {"stoeck": "off"},
}


def push_check(seed: int, games: int, rule_sets: dict | None = None) -> dict[str, pd.DataFrame]:
    """The heuristic forehand's push rule under each rule set of ``rule_sets`` (name: rule options;
    default ``PUSH_RULE_SETS``), ``games`` matches of ``seed`` each: heuristic play as it is, and the
    same matches with the forehand forced to choose and forced to push (``forced_runs``).

    ``push``, a row per rule set: the threshold in force (``threshold_in_force``), where push minus
    choose changes sign on the same deals (``push_threshold`` of ``push_table``: the hand value,
    rounded to 5 points; missing where it does not change sign), the threshold less that crossing,
    the share of deals the forehand pushes (Wilson CI), and the rule's gain over never and over always
    pushing (``push_rule``: the forehand team's net points per deal, paired on the same deals, 95% CIs).
    ``contracts``: the share of deals played in each contract under each rule set (Wilson CIs).
    ``push_value``: each rule set's ``push_table``, one above the other."""
    seed, games = check_seed(seed), check_count("games", games)
    rule_sets = PUSH_RULE_SETS if rule_sets is None else rule_sets
    rows, shares, tables = [], [], []
    for name, rules in rule_sets.items():
        df = _run(seed, games, "heuristic", rules)
        forced = forced_runs(seed, games, **rules)
        table = push_table(seed, games, forced)
        crossing = push_threshold(table)[0]
        rule = push_rule(seed, games, df, forced, **rules)
        never, always = (rule.iloc[i] for i in range(2))
        fh = df[df["seat"] == df["forehand"]]
        threshold = rule.attrs["threshold"]
        rows.append(
            {
                "rules": name,
                "options": _options_text(rules),
                "threshold": threshold,
                "crossing": crossing,
                "threshold_minus_crossing": None if crossing is None else threshold - crossing,
                **named("push_rate", _share(int(fh["pushed"].sum()), len(fh))),
                **named("gain_over_never", _estimate(never, "gain")),
                **named("gain_over_always", _estimate(always, "gain")),
                "n": int(never["n"]),
            }
        )
        chosen = df[df["seat"] == df["chooser"]]["contract"].cat.codes.to_numpy()
        shares += [
            {"rules": name, "contract": CONTRACTS[c], **_share(int((chosen == c).sum()), len(chosen))}
            for c in range(6)
        ]
        tables.append(table.assign(rules=name).set_index("rules", append=True).reorder_levels([1, 0]))
    push = pd.DataFrame(rows).set_index("rules")
    push = push.astype({"crossing": "Int64", "threshold_minus_crossing": "Int64"})
    out = {
        "push": push,
        "contracts": pd.DataFrame(shares).set_index(["rules", "contract"]),
        "push_value": pd.concat(tables),
    }
    return {
        name: record(
            t,
            seed=seed,
            games=games,
            policy="heuristic",
            rule_sets={k: dict(v) for k, v in rule_sets.items()},
        )
        for name, t in out.items()
    }


def _estimate(row: pd.Series, name: str) -> dict:
    """The estimate of the columns ``name``, ``name_se``, ... of ``row`` (``named`` read back)."""
    return {"estimate": row[name], **{part: row[f"{name}_{part}"] for part in ("se", "ci_low", "ci_high")}}


def _options_text(rules: dict) -> str:
    return " ".join(f"{name}={value}" for name, value in rules.items()) or "the rulebook's"
