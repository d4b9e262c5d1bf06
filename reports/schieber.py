"""Schieber study: when should the forehand push, and what is each contract worth?

Three sets of runs on the same deals (game i of seed s): heuristic play as
it is; the same matches with the forehand forced to choose and forced to
push (``cardmc.schieber.push_value``, paired per deal); and heuristic
against random seat-swapped (``cardmc.schieber.duplicate``). Weis
frequencies are set beside the exact enumeration of all C(36, 9) hands.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from cardmc import schieber as sch
from cardmc import stats
from cardmc.api import simulate
from cardmc.driver import check_count, check_seed
from cardmc.registry import UsageError
from cardmc.kernels import schieber as k
from cardmc.reports import charts
from cardmc.reports import schieber_charts as sc
from cardmc.reports.section import Section

# hand-strength bins of push_value: the forehand's best contract value in points
PUSH_BINS = (-1000, 0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 120, 1000)
FEATURES = {"aces": 4, "sixes": 4, "longest": 7}  # chooser's hand features (value capped: 7 = 7+)
MIN_GROUP = 10  # rows of contract_by_hand need at least this many hands
WEIS_LABELS = {
    "run3": "run of 3 (20)", "run4": "run of 4 (50)", "run5": "run of 5+ (100)",
    "quartet_T": "four tens (100)", "quartet_J": "four jacks (200)", "quartet_Q": "four queens (100)",
    "quartet_K": "four kings (100)", "quartet_A": "four aces (100)", "any": "any Weis",
}  # fmt: skip


NO_ESTIMATE = {"estimate": np.nan, "se": np.nan, "ci_low": np.nan, "ci_high": np.nan}


ROW_COLUMNS = ("game", "deal", "seat", "chooser", "forehand", "contract", "score")


def _rows(df, what: str, columns=ROW_COLUMNS) -> None:
    if not isinstance(df, pd.DataFrame):
        raise UsageError(f"{what} needs schieber rows as a DataFrame, not {type(df).__name__}")
    missing = [c for c in columns if c not in df.columns]
    if missing or df.empty:
        raise UsageError(f"{what} needs non-empty schieber rows; missing columns: "
                         f"{', '.join(missing) or 'none'}")  # fmt: skip


def _est(name: str, d: dict) -> dict:
    """A stats.mean/proportion result as ``name``, ``name_se``, ``name_ci_low``, ``name_ci_high``."""
    return {name: d["estimate"], f"{name}_se": d["se"], f"{name}_ci_low": d["ci_low"],
            f"{name}_ci_high": d["ci_high"]}  # fmt: skip


def _share(events, n) -> dict:
    """stats.proportion with the Wilson bounds clipped to [0, 1] (no -0.000 from rounding error)."""
    d = stats.proportion(events, n)
    d["ci_low"], d["ci_high"] = max(0.0, d["ci_low"]), min(1.0, d["ci_high"])
    return d


def _contract_label(code: int) -> str:
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
    d = pd.DataFrame({
        "contract": own["contract"].cat.codes.astype(int),
        "pushed": own["pushed"].astype(int),
        "card_points": own["card_points"].astype(int),
        "deal_score": own["score"].astype(int),
        "net_score": own["score"].astype(int) - other.loc[own.index, "score"].astype(int),
        "tricks": own["tricks"].astype(int) + partner.loc[own.index, "tricks"].astype(int),
        "complete": own["match_end"] == 0,
    })  # fmt: skip
    d["chooser_match"] = d["tricks"] == 9
    d["any_match"] = (d["tricks"] == 9) | (d["tricks"] == 0)
    return d


def contract_value(deals: pd.DataFrame) -> pd.DataFrame:
    """Per contract (complete deals): share chosen, chooser team's card points
    before and score after the multiplier, net score, match rate; 95% CIs.
    ``deals`` is the deal table of ``deal_table``."""
    _rows(deals, "contract_value", ("contract", "complete", "card_points", "deal_score", "net_score",
                                     "chooser_match"))  # fmt: skip
    done = deals[deals["complete"]]
    total = len(done)
    groups = [(_contract_label(c), f"x{int(k.MULTIPLIER[c])}", done["contract"] == c) for c in range(6)]
    groups += [("trumps x1 (C, H)", "x1", done["contract"].isin([0, 2])),
               ("trumps x2 (D, S)", "x2", done["contract"].isin([1, 3])),
               ("all contracts", "x1 to x4", pd.Series(True, index=done.index))]  # fmt: skip
    rows = []
    for label, mult, sel in groups:
        g = done[sel]
        if g.empty:
            continue
        share = _share(len(g), total) if label != "all contracts" else NO_ESTIMATE
        rows.append({"contract": label, "multiplier": mult, "n": len(g), **_est("share_chosen", share),
                     **_est("card_points", stats.mean(g["card_points"])),
                     **_est("deal_score", stats.mean(g["deal_score"])),
                     **_est("net_score", stats.mean(g["net_score"])),
                     **_est("match_rate", _share(g["chooser_match"].sum(), len(g)))})  # fmt: skip
    return pd.DataFrame(rows).set_index("contract")


def contract_by_hand(df: pd.DataFrame) -> pd.DataFrame:
    """Share of trump / Obenabe / Undenufe chosen by features of the chooser's hand (Wilson CIs)."""
    _rows(df, "contract_by_hand", ("seat", "chooser", "contract", *FEATURES))
    ch = df[df["seat"] == df["chooser"]]
    code = ch["contract"].cat.codes.to_numpy()
    family = np.where(code < 4, 0, code - 3)  # 0 trump, 1 obenabe, 2 undenufe
    rows = []
    for feature, cap in FEATURES.items():
        values = np.minimum(ch[feature].to_numpy(), cap)
        for v in np.unique(values):
            sel = values == v
            n = int(sel.sum())
            if n < MIN_GROUP:
                continue
            row = {"feature": feature, "value": int(v), "n": n}
            for i, name in enumerate(sc.FAMILIES):
                row.update(_est(name, _share(int((family[sel] == i).sum()), n)))
            rows.append(row)
    return pd.DataFrame(rows).set_index(["feature", "value"])


def push_table(seed: int, games: int) -> pd.DataFrame:
    """``push_value`` over PUSH_BINS with readable bin labels and numeric bin edges."""
    seed, games = check_seed(seed), check_count("games", games)
    pv = sch.push_value(seed, games, "heuristic", bins=PUSH_BINS)
    lo, hi, labels = [], [], []
    for s in pv.index:
        if s == "all":
            lo.append(pd.NA), hi.append(pd.NA), labels.append("all deals")
            continue
        a, b = (int(x) for x in s.strip("(]").split(","))
        lo.append(a), hi.append(b)
        labels.append(f"<= {b}" if a <= -1000 else f"> {a}" if b >= 1000 else f"{a} to {b}")
    out = pv.rename(columns={"estimate": "push_minus_choose", "se": "push_minus_choose_se",
                             "ci_low": "push_minus_choose_ci_low", "ci_high": "push_minus_choose_ci_high"})
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


def push_rule(seed: int, games: int, policy_run: pd.DataFrame) -> pd.DataFrame:
    """The heuristic's push rule (push when no contract is worth PUSH_BELOW) against never
    and always pushing, paired on the deals played out in both runs: the forehand team's
    net points per deal. ``policy_run`` is ``games`` matches of ``seed`` under heuristic play."""
    seed, games = check_seed(seed), check_count("games", games)
    _rows(policy_run, "push_rule", ("game", "deal", "seat", "forehand", "score", "match_end"))
    rule = _forehand_net(policy_run)
    rows = []
    for mode, label in (("never", "never pushing"), ("always", "always pushing")):
        other = simulate("schieber", games=games, seed=seed, policy="heuristic", forehand_push=mode)
        net = _forehand_net(other)
        both = rule.index.intersection(net.index)
        rows.append({"comparison": f"push below {k.PUSH_BELOW} (heuristic) minus {label}",
                     **_est("gain", stats.paired_difference(rule.loc[both], net.loc[both])),
                     "n": len(both)})  # fmt: skip
    return pd.DataFrame(rows).set_index("comparison")


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
    w = tables["weis_per_hand"].rename(columns={
        "estimate": "simulated", "se": "simulated_se", "ci_low": "simulated_ci_low",
        "ci_high": "simulated_ci_high"})  # fmt: skip
    w = w[["exact", "simulated", "simulated_se", "simulated_ci_low", "simulated_ci_high", "n"]]
    w.index = pd.Index([WEIS_LABELS.get(i, i) for i in w.index], name="Weis declared")
    w.insert(0, "unit", "share of hands")
    points = stats.mean(df["weis"])
    exact = sch.weis_odds().attrs["mean_points"]
    w.loc["Weis points per hand (mean)"] = {"unit": "points per hand", "exact": exact,
                                            **_est("simulated", points), "n": points["n"]}  # fmt: skip
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
        {"measure": "match: a team takes all nine tricks (share of complete deals)",
         **_share(done["any_match"].sum(), len(done))},
        {"measure": "match by the chooser's team (share of complete deals)",
         **_share(done["chooser_match"].sum(), len(done))},
        {"measure": "Schneider: loser below half the target (share of matches)",
         **tables["schneider"].iloc[0].to_dict()},
        {"measure": "deals per match", **tables["match_length"].iloc[0].to_dict()},
    ]  # fmt: skip
    for measure, r in dup.iterrows():
        rows.append({"measure": f"duplicate vs random: {measure}", **r.to_dict()})
    out = pd.DataFrame(rows).set_index("measure")[["estimate", "se", "ci_low", "ci_high", "n"]]
    out["n"] = out["n"].astype("int64")
    return out


def _num(x: float, digits: int) -> str:
    out = f"{x:.{digits}f}"
    return out.lstrip("-") if float(out) == 0 else out


def _ci(row: pd.Series, col: str, digits: int = 0, sign: int = 1) -> str:
    """``x [lo, hi]`` of ``col`` in ``row``; ``sign=-1`` for the negated estimate."""
    e, lo, hi = (sign * row[c] for c in (col, f"{col}_ci_low", f"{col}_ci_high"))
    lo, hi = min(lo, hi), max(lo, hi)
    return f"{_num(e, digits)} [{_num(lo, digits)}, {_num(hi, digits)}]"


def headline(value: pd.DataFrame, push: pd.DataFrame, rule: pd.DataFrame) -> str:
    """The one-sentence answer, every number with its 95% CI."""
    threshold, pays, costs = push_threshold(push)
    col = "push_minus_choose"
    if threshold is None and costs is None:
        when = "In these deals pushing paid at every hand strength"
    elif threshold is None:
        when = (f"In these deals the forehand should never push: even at {costs} points pushing changes "
                f"its net score by {_ci(push.loc[costs], col)} points a deal")
    else:
        when = (f"The forehand should push when its best contract is worth less than about {threshold:g} "
                f"points (the heuristic's estimate, after the multiplier, of its margin over an even "
                f"split): on the same deals pushing gains {_ci(push.loc[pays], col)} net points a deal at "
                f"{pays} and costs {_ci(push.loc[costs], col, sign=-1)} at {costs}")
    never = [i for i in rule.index if "never" in i]
    if never:
        when += (f", and pushing below {k.PUSH_BELOW} beats never pushing by "
                 f"{_ci(rule.loc[never[0]], 'gain', 1)} points a deal")
    worth = []
    for label, name in (("trumps x1 (C, H)", "trumps x1"), ("trumps x2 (D, S)", "trumps x2"),
                        (_contract_label(4), "Obenabe"), (_contract_label(5), "Undenufe")):  # fmt: skip
        if label in value.index:
            worth.append(f"{_ci(value.loc[label], 'net_score')} in {name}")
    if not worth:
        return when + "."
    worth[-1] = ("and " if len(worth) > 1 else "") + worth[-1]
    return (f"{when}; a chosen contract is worth to the choosing team (points a deal, net of the other "
            f"team's score) " + ", ".join(worth) + ".")


def study(folder, games: int, seed: int, progress: bool = False) -> Section:
    """Run the Schieber study (``games`` matches per run, ``seed``) into ``folder``."""
    seed, games = check_seed(seed), check_count("games", games)
    folder = Path(folder)
    if not folder.is_dir():
        raise UsageError(f"folder {folder} does not exist")
    df = simulate("schieber", games=games, seed=seed, policy="heuristic", progress=progress)
    df = df.sort_values(["game", "deal", "seat"], kind="stable").reset_index(drop=True)
    tables = sch.analyze(df)
    deals = deal_table(df)
    value = contract_value(deals)
    by_hand = contract_by_hand(df)
    push = push_table(seed, games)
    rule = push_rule(seed, games, df)
    weis = weis_table(df, tables)
    dup = sch.duplicate(seed, games, "heuristic", "random")
    results = results_table(deals, tables, dup)

    files = []
    threshold = float(k.PUSH_BELOW)
    ax = sc.plot_push_gain(push, threshold=threshold)
    files.append(("push_gain", "Forced push minus forced choice on the same deals: forehand team's net "
                  "points per deal by the forehand's hand strength, with the 95% CI band; the dashed line "
                  "is where the heuristic pushes.", charts.save(ax, folder, "schieber_push_gain")))
    six = value.loc[[_contract_label(c) for c in range(6) if _contract_label(c) in value.index]]
    ax = sc.plot_contract_worth(six)
    files.append(("contract_worth", "Chooser's team points per complete deal by contract, before and "
                  "after the multiplier and net of the other team, with 95% CIs.",
                  charts.save(ax, folder, "schieber_contract_worth")))  # fmt: skip
    ax = sc.plot_weis(weis)
    files.append(("weis", "Share of hands declaring each kind of Weis: simulated (95% Wilson CIs) "
                  "against the exact probability.", charts.save(ax, folder, "schieber_weis")))  # fmt: skip
    ax = sc.plot_contract_choice(by_hand, feature="aces")
    files.append(("contract_choice", "Contract family chosen by the number of aces in the chooser's "
                  "hand, with 95% Wilson bands.", charts.save(ax, folder, "schieber_contract_choice")))

    n_deals = int(df[df["seat"] == 0].shape[0])
    bins = ", ".join(map(str, PUSH_BINS))
    push_show = push.drop(columns=["from_points", "to_points"])
    return Section(
        game="schieber",
        title="Schieber Jass",
        question="When should the forehand push, and what is each contract worth?",
        answer=headline(value, push, rule),
        tables=[
            ("contract_by_hand", "Contract family chosen by the chooser (the forehand, or the partner "
             "after a push) under heuristic play, by aces, sixes and the longest suit in the chooser's hand "
             "(4 = 4+, longest 7 = 7+). n = hands.", by_hand),
            ("contract_value", "Per contract, over complete deals of heuristic play (the match's last "
             "deal, cut short by live counting, left out): share of deals it is chosen, the chooser's "
             "team's card points before the multiplier (of 157, 257 with a match), its deal score after "
             "the multiplier (Weis and Stöck included), net of the other team's score, and the rate of "
             "matches (all nine tricks) by the chooser's team. n = deals.", value),
            ("push", "Push minus choose, paired on the same deals: each match is replayed with the "
             "forehand forced to choose and forced to push (partner chooses), both by the heuristic; the "
             "forehand team's net points per deal (own minus other team's score), by the forehand's hand "
             "strength = the heuristic's estimate of its best contract, multiplier x (expected card "
             "points + half its Weis - 78.5). 'push' where the whole CI is above 0, 'choose' below. "
             "n = deals played out in both runs.", push_show),
            ("push_rule", "The heuristic's rule (the forehand pushes when no contract is worth at least "
             f"{k.PUSH_BELOW} points) against never and always pushing, on the same deals: forehand "
             "team's net points per deal. n = deals played out in both runs.", rule),
            ("weis", "Weis declared per hand: simulated share (every hand dealt, Wilson CIs) beside the "
             "exact probability over all C(36, 9) hands (kernels.schieber_weis.declaration_counts); last "
             "row the mean declared points per hand. n = hands.", weis),
            ("results", "Matches, Schneider and the heuristic against random play in duplicate (the same "
             "deals played twice, seats swapped; wins over both seatings, shares and margins per match "
             "averaged over the two). n = deals, matches or duplicate pairs.", results),
        ],  # fmt: skip
        charts=files,
        data={"schieber_contract_value": value, "schieber_push": push, "schieber_push_rule": rule,
              "schieber_contract_by_hand": by_hand, "schieber_weis": weis,
              "schieber_results": results},  # fmt: skip
        frames={"schieber_heuristic_games": df},
        commands=[
            f"cardmc simulate schieber --games {games} --seed {seed} --policy heuristic "
            "--out schieber_heuristic.parquet",
            "cardmc analyze schieber schieber_heuristic.parquet",
            'python -c "from cardmc.display import readable; from cardmc.schieber import push_value; '
            f'print(readable(push_value(seed={seed}, games={games}, bins=({bins}))))"',
            'python -c "from cardmc.display import readable; from cardmc.schieber import duplicate; '
            f"print(readable(duplicate(seed={seed}, games={games}, a='heuristic', b='random')))\"",
            'python -c "from cardmc.schieber import weis_odds; t = weis_odds(); print(t, t.attrs)"',
            'python -c "import pandas as pd; from cardmc.display import readable; '
            f"from cardmc.reports.schieber import push_rule; print(readable(push_rule({seed}, {games}, "
            "pd.read_parquet('schieber_heuristic.parquet'))))\"",
        ],  # fmt: skip
        sample=f"{games:,} matches to 3000 of heuristic play ({n_deals:,} deals, {4 * n_deals:,} hands); "
        f"the same {games:,} matches replayed with forced choice and forced push, and twice more for the "
        f"duplicate against random; seed {seed}",
    )
