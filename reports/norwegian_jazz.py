"""Norwegian Jazz study: what the sixth deal does to the game, and what if it paid 80.

Three sets of runs of heuristic play, every one on the same deals (game i of
seed s), for 3 to 7 players:

* ``cardmc.norwegian_jazz.sixth_deal_study``: each game under sevens with
  the 10-point bonus, the 80-point bonus ("sjueren") and sevens played out;
  how often the sixth deal changes the winner, and Kendall tau-b between the
  standings after five and after six deals, paired across the rules;
* the default games as rows (``cardmc simulate``): each deal's cost by seat
  (``seat_study``); sevens is rescored with the 80-point bonus on the same
  play (the players' choices do not depend on the bonus);
* ``cardmc.norwegian_jazz.heuristic_edge``: a heuristic player against
  random ones, seat by seat, on the same deals as an all-random table.

``games`` is the number of games per player count (and per sevens rule); the
heuristic edge uses a quarter of it per player count, each game replayed
players + 1 times.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from cardmc import norwegian_jazz as nj
from cardmc import stats
from cardmc.api import simulate
from cardmc.driver import check_count, check_seed
from cardmc.registry import UsageError
from cardmc.reports import charts
from cardmc.reports import norwegian_jazz_charts as nc
from cardmc.reports.section import Section, note

PLAYERS = (3, 4, 5, 6, 7)
RULES = {"default": "bonus 10", "bonus80": "bonus 80", "play_out": "bonus 10, played out"}
COMPARISONS = {"bonus80": "bonus 80 - bonus 10", "play_out": "played out - bonus 10"}
MEASURES = {"changed": "winner_changed", "overtaken": "leader_overtaken", "shared": "shared_win",
            "tau": "tau"}
DEALS = ("1 tricks", "2 clubs", "3 queens", "4 king of clubs", "5 last trick", "6 sevens")
SJUEREN = 80
SEVENS_80 = f"6 sevens (bonus {SJUEREN})"
DEAL_ORDER = pd.CategoricalDtype([*DEALS, SEVENS_80], ordered=True)
EDGE_SHARE = 4  # the heuristic edge uses games // EDGE_SHARE games per player count

QUESTION = "What does the sixth deal do to a game of Norwegian Jazz — and what if it paid 80 instead of 10?"
TABLE_CAPTIONS = {
    "sixth_deal": (
        "Per player count and sevens rule, the same games (heuristic play): share of games in which the "
        "sixth deal changes the winner (the set of best seats differs from the five-deal one), in which no "
        "five-deal leader wins, and that end in a shared win; Kendall tau-b between five-deal and final "
        "standings (tau_n: games where both rankings are not all tied). n = games."),
    "bonus_80_vs_10": (
        "Paired on the same games: each sevens rule minus the 10-point bonus (proportions as differences of "
        "shares, tau as mean difference per game)."),
    "deal_cost_by_seat": (
        "Each deal's cost by seat (10-point bonus unless named): table_mean = points a seat scores on "
        "average in the deal (fixed in deals 1-5, where every penalty is taken); dealer, leader = that "
        "seat's score minus the table mean; extra_card = the seats dealt one card more in sevens (the first "
        "52 mod n after the dealer, so the leader is one of them) minus the table mean. n = games."),
    "heuristic_edge": (
        "A heuristic player against random opponents minus a random player in the same seat, on the same "
        "deals, averaged over the seats: points per deal and per game (game_points) and the change in the "
        "chance of winning (win_chance, shared wins count). n = games ({edge_games:,} per player count, each "
        "replayed players + 1 times)."),
}
CHART_CAPTIONS = {
    "winner_change": (
        "Share of games in which the sixth deal changes the winner (the set of seats with the best total "
        "after five deals differs from the final one), by player count and sevens rule, on the same games; "
        "95% Wilson CIs."),
    "rank_correlation": (
        "Kendall tau-b between the standings after five and after six deals (1 = the sixth deal changes no "
        "order), mean per game with 95% CIs."),
    "seat_effect": (
        "Each deal's score by seat minus the table mean of the same deal (D = dealer, L = leader), 10-point "
        "bonus; 95% CIs."),
    "sevens_by_seat": (
        f"Sevens score by seat minus the table mean, with the 10- and the {SJUEREN}-point first-out bonus on "
        "the same play; 95% CIs."),
    "heuristic_edge": (
        "Points per deal a heuristic player gains over a random player in the same seat on the same deals "
        "(random opponents); 95% CIs."),
}


def _est(name: str, d) -> dict:
    """An estimate (dict or row with estimate/se/ci_low/ci_high) as ``name``, ``name_se``, ``name_ci_*``."""
    return {name: d["estimate"], f"{name}_se": d["se"], f"{name}_ci_low": d["ci_low"],
            f"{name}_ci_high": d["ci_high"]}  # fmt: skip


def _wide(t: pd.DataFrame, name: str) -> pd.DataFrame:
    """A grouped estimate table with its columns renamed ``name``, ``name_se``, ... (n dropped)."""
    names = {"estimate": name, "se": f"{name}_se", "ci_low": f"{name}_ci_low", "ci_high": f"{name}_ci_high"}
    return t[list(names)].rename(columns=names)


# ------------------------------------------------------------ sixth deal


def standings(by_variant: pd.DataFrame) -> pd.DataFrame:
    """``sixth_deal_study(...)["by_variant"]`` with readable rule names and column names."""
    t = by_variant.rename(index=RULES, level="variant").rename_axis(["players", "rule"])
    cols = {}
    for old, new in MEASURES.items():
        for suffix in ("", "_se", "_ci_low", "_ci_high"):
            cols[old + suffix] = new + suffix
    return t.rename(columns=cols)


def paired_changes(paired: pd.DataFrame) -> pd.DataFrame:
    """``sixth_deal_study(...)["paired"]`` as one row per (players, comparison):
    each rule minus the default on the same games, for every measure."""
    rows = []
    for (n, variant), g in paired.groupby(level=["players", "variant"], sort=False):
        g = g.droplevel(["players", "variant"])
        row = {"players": n, "comparison": COMPARISONS[variant]}
        for measure in ("changed", "overtaken", "tau"):
            row.update(_est(MEASURES[measure], g.loc[measure]))
        row["n"] = int(g.loc["changed", "n"])
        row["tau_n"] = int(g.loc["tau", "n"])
        rows.append(row)
    order = list(COMPARISONS.values())
    out = pd.DataFrame(rows)
    out["comparison"] = pd.Categorical(out["comparison"], order, ordered=True)
    return out.sort_values(["players", "comparison"]).set_index(["players", "comparison"])


# ------------------------------------------------------------ seats


def _deal_rows(df: pd.DataFrame, bonus: int = SJUEREN) -> pd.DataFrame:
    """Per seat per deal: players, game, deal (named), rel_seat, extra (dealt a card
    more than the fewest at the table), score, effect (score minus the table mean);
    sevens appears twice, as played and rescored with the first-out ``bonus``."""
    need = ["players", "game", "deal", "rel_seat", "score", "passes", "first_out", "cards_dealt"]
    missing = [c for c in need if c not in df.columns]
    if missing:
        raise UsageError(f"these rows are not norwegian_jazz results (missing columns {missing})")
    if df.empty:
        raise UsageError("no rows to study")
    d = df[need].astype({c: "int64" if c == "game" else "int32" for c in need})
    six = d[d["deal"] == 6]
    out_rows = six[six["first_out"] == 1]
    paid = (out_rows["score"] + out_rows["passes"]).unique()
    if len(paid) != 1:
        raise UsageError(f"these rows mix first-out bonuses {sorted(paid.tolist())}; "
                         "study one rule at a time")
    rescored = six.assign(score=six["score"] + (bonus - int(paid[0])) * six["first_out"], deal=7)
    d = pd.concat([d, rescored], ignore_index=True)
    key = ["players", "game", "deal"]
    d["extra"] = d["cards_dealt"] > d.groupby(key)["cards_dealt"].transform("min")
    d["effect"] = d["score"] - d.groupby(key)["score"].transform("mean")
    d["deal"] = pd.Categorical.from_codes(d["deal"] - 1, dtype=DEAL_ORDER)
    return d[["players", "game", "deal", "rel_seat", "extra", "score", "effect"]]


def seat_study(df: pd.DataFrame, bonus: int = SJUEREN) -> dict[str, pd.DataFrame]:
    """Each deal's cost by seat from Norwegian Jazz rows (``cardmc simulate`` output,
    one rule set, ``rotate_dealer`` off or on), 95% CIs, one value per game in
    every estimate:

    * ``deal_cost`` per (players, deal): points a seat loses on average (the
      table mean), the dealer's and the leader's score minus the table mean,
      and the mean of the seats dealt an extra card in sevens minus the table
      mean; sevens also rescored with the first-out ``bonus``;
    * ``seat_effect`` per (players, deal, rel_seat): score minus the table mean.
    """
    if isinstance(bonus, bool) or not isinstance(bonus, (int, np.integer)) or not 0 <= bonus <= 1000:
        raise UsageError(f"bonus must be a whole number of points in 0..1000, not {bonus!r}")
    d = _deal_rows(df, int(bonus))
    by = ["players", "deal"]
    table = d.groupby(["players", "game", "deal"], observed=True)["score"].mean().rename("cost").reset_index()
    parts = [_wide(stats.grouped_mean(table, by, "cost"), "table_mean")]
    for name, r in (("dealer", 0), ("leader", 1)):
        parts.append(_wide(stats.grouped_mean(d[d["rel_seat"] == r], by, "effect"), name))
    extra = d[d["extra"]].groupby(["players", "game", "deal"], observed=True)["effect"].mean().reset_index()
    parts.append(_wide(stats.grouped_mean(extra, by, "effect"), "extra_card"))
    n = table.groupby(by, observed=True).size().rename("n")
    cost = pd.concat(parts + [n], axis=1).sort_index()
    seat = stats.grouped_mean(d, ["players", "deal", "rel_seat"], "effect").sort_index()
    return {"deal_cost": cost, "seat_effect": seat}


def sevens_by_bonus(seat_effect: pd.DataFrame) -> pd.DataFrame:
    """The sevens rows of ``seat_effect`` with a ``bonus`` level: 10 (as played) and 80."""
    t = seat_effect.reset_index()
    t = t[t["deal"].isin([DEALS[5], SEVENS_80])].copy()
    t["bonus"] = np.where(t["deal"] == SEVENS_80, f"{SJUEREN} points", "10 points")
    return t.drop(columns="deal").set_index(["players", "bonus", "rel_seat"]).sort_index()


# ------------------------------------------------------------ heuristic edge


def edge_tables(seed: int, games: int, players=PLAYERS) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``heuristic_edge`` per player count: a wide table (players x total, win,
    deal_1..deal_6) and a long one (players, deal 1..6) for the chart."""
    wide, long = [], []
    for n in players:
        e = nj.heuristic_edge(seed, games, n)
        row = {"players": n}
        for m in ("total", "win", *(f"deal {d}" for d in range(1, 7))):
            name = {"total": "game_points", "win": "win_chance"}.get(m, m.replace(" ", "_"))
            row.update(_est(name, e.loc[m]))
        row["n"] = int(e.loc["total", "n"])
        wide.append(row)
        per = e.loc[[f"deal {d}" for d in range(1, 7)]].reset_index(drop=True)
        long.append(per.assign(players=n, deal=np.arange(1, 7)))
    return (pd.DataFrame(wide).set_index("players"),
            pd.concat(long, ignore_index=True).set_index(["players", "deal"]))  # fmt: skip


# ------------------------------------------------------------ section


def _pct(row, col: str) -> str:
    return f"{100 * row[col]:.1f}% [{100 * row[f'{col}_ci_low']:.1f}, {100 * row[f'{col}_ci_high']:.1f}]"


def _num(row, col: str, digits: int = 2) -> str:
    return f"{row[col]:.{digits}f} [{row[f'{col}_ci_low']:.{digits}f}, {row[f'{col}_ci_high']:.{digits}f}]"


def headline(table: pd.DataFrame, paired: pd.DataFrame) -> str:
    """The one-sentence answer (4 players, with 3 and 7 for the range), every number with its 95% CI."""
    counts = sorted(set(table.index.get_level_values("players")))
    n = 4 if 4 in counts else counts[0]
    base, sj = table.loc[(n, RULES["default"])], table.loc[(n, RULES["bonus80"])]
    diff = paired.loc[(n, COMPARISONS["bonus80"])]
    lo_n, hi_n = counts[0], counts[-1]
    span = ""
    if lo_n != hi_n:
        span = (f" (from {_pct(table.loc[(lo_n, RULES['default'])], 'winner_changed')} at {lo_n} players "
                f"to {_pct(table.loc[(hi_n, RULES['default'])], 'winner_changed')} at {hi_n})")
    pp = {c: 100 * diff[c] for c in ("winner_changed", "winner_changed_ci_low", "winner_changed_ci_high")}
    return (
        f"With the usual 10-point bonus the sixth deal, sevens, changes who wins in "
        f"{_pct(base, 'winner_changed')} of {int(base['games']):,} {n}-player games{span} and mostly "
        f"keeps the five-deal ranking (Kendall tau {_num(base, 'tau')}); paying {SJUEREN} instead makes "
        f"sevens decide most games: on the same deals the winner changes in {_pct(sj, 'winner_changed')} "
        f"of {n}-player games "
        f"({_num(pp, 'winner_changed', 1)} percentage points more) and tau falls to {_num(sj, 'tau')}."
    )


def commands(games: int, seed: int, edge_games: int) -> list[str]:
    counts = " ".join(map(str, PLAYERS))
    tup = ", ".join(map(str, PLAYERS))
    return [
        "# winner change and rank correlation, bonus 10 vs 80 vs played out, paired on the same games",
        'python -c "from cardmc.norwegian_jazz import sixth_deal_study; '
        "from cardmc.display import show; "
        f'r = sixth_deal_study(seed={seed}, games={games}); print(*(show(k, v, 200) for k, v in r.items()))"',
        "# each deal's cost by seat (sevens also rescored with the 80-point bonus)",
        f"for n in {counts}; do",
        f"  cardmc simulate norwegian_jazz --games {games} --seed {seed} --players $n "
        f"--out norwegian_jazz_${{n}}p.parquet --force",
        '  python -c "import sys, pandas as pd; from cardmc.reports.norwegian_jazz import seat_study; '
        "from cardmc.display import show; "
        '[print(show(k, v, 300)) for k, v in seat_study(pd.read_parquet(sys.argv[1])).items()]" '
        "norwegian_jazz_${n}p.parquet",
        "done",
        "# the heuristic player's edge over random",
        f'python -c "from cardmc.norwegian_jazz import heuristic_edge; from cardmc.display import show; '
        f"[print(show(f'{{n}} players', heuristic_edge(seed={seed}, games={edge_games}, players=n))) "
        f'for n in ({tup})]"',
    ]


def study(folder, games: int, seed: int, progress: bool = False) -> Section:
    """Run the Norwegian Jazz study (``games`` games per player count and rule, ``seed``) into ``folder``."""
    seed, games = check_seed(seed), check_count("games", games)
    folder = Path(folder)
    if not folder.is_dir():
        raise UsageError(f"folder {folder} does not exist")
    edge_games = max(1, games // EDGE_SHARE)

    note("norwegian_jazz", progress, f"sixth deal study, {games:,} games x 3 rules x {len(PLAYERS)} player counts")
    sixth = nj.sixth_deal_study(seed, games, PLAYERS)
    table = standings(sixth["by_variant"])
    paired = paired_changes(sixth["paired"])

    cost, seat, kept = [], [], {}
    for n in PLAYERS:
        df = simulate("norwegian_jazz", games=games, seed=seed, players=n, progress=progress)
        s = seat_study(df)
        cost.append(s["deal_cost"])
        seat.append(s["seat_effect"])
        if n == 4:
            kept["norwegian_jazz_4p_games"] = df.reset_index(drop=True)
        del df
    cost, seat = pd.concat(cost), pd.concat(seat)
    sevens = sevens_by_bonus(seat)

    note("norwegian_jazz", progress, f"heuristic edge, {edge_games:,} games x (players + 1) runs per player count")
    edge, edge_long = edge_tables(seed, edge_games)

    drawn = [
        ("winner_change", nc.plot_winner_change(table)),
        ("rank_correlation", nc.plot_rank_correlation(table)),
        ("seat_effect", nc.plot_seat_effect(seat[seat.index.get_level_values("deal") != SEVENS_80])),
        ("sevens_by_seat", nc.plot_sevens_by_seat(sevens)),
        ("heuristic_edge", nc.plot_heuristic_edge(edge_long)),
    ]
    files = [(name, CHART_CAPTIONS[name], charts.save(ax, folder, f"norwegian_jazz_{name}"))
             for name, ax in drawn]

    total = 3 * games * len(PLAYERS)
    return Section(
        game="norwegian_jazz",
        title="Norwegian Jazz",
        question=QUESTION,
        answer=headline(table, paired),
        tables=[
            ("sixth_deal", TABLE_CAPTIONS["sixth_deal"], table),
            ("bonus_80_vs_10", TABLE_CAPTIONS["bonus_80_vs_10"], paired),
            ("deal_cost_by_seat", TABLE_CAPTIONS["deal_cost_by_seat"], cost),
            ("heuristic_edge", TABLE_CAPTIONS["heuristic_edge"].format(edge_games=edge_games), edge),
        ],
        charts=files,
        data={
            "norwegian_jazz_sixth_deal": table, "norwegian_jazz_bonus_80_vs_10": paired,
            "norwegian_jazz_sevens_score_by_rule": sixth["sevens_score"], "norwegian_jazz_deal_cost": cost,
            "norwegian_jazz_seat_effect": seat, "norwegian_jazz_heuristic_edge": edge,
            "norwegian_jazz_heuristic_edge_by_deal": edge_long,
        },  # fmt: skip
        frames=kept,
        commands=commands(games, seed, edge_games),
        sample=(f"{games:,} games of six deals per player count (3 to 7) and sevens rule, heuristic play, "
                f"the same deals under every rule ({total:,} games); heuristic edge: {edge_games:,} games "
                f"per player count, each replayed players + 1 times; seed {seed}"),
    )
