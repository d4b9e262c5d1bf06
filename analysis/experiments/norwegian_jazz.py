"""Norwegian Jazz experiments: what the sixth deal does, seat by seat, and the heuristic's edge.

Every run goes through ``cardmc.simulate``, and game i of a seed deals the
same cards under every rule and policy, so the comparisons are paired:

* ``sixth_deal_study``: each game under sevens with the 10-point bonus, the
  80-point bonus ("sjueren") and sevens played out; how often the sixth deal
  changes the winner, and Kendall tau-b between the standings after five and
  after six deals, paired across the rules; with ``seats``, each deal's cost
  by seat from the default games (``seat_study``), sevens rescored with the
  80-point bonus on the same play (the players' choices do not depend on it);
* ``heuristic_edge``: a heuristic player against random ones, seat by seat,
  on the same deals as an all-random table (``edge_tables`` for 3 to 7 players).
"""

from __future__ import annotations

from typing import Iterable

import numpy as np
import pandas as pd

from cardmc import norwegian_jazz as nj
from cardmc import stats
from cardmc.checks import check_count, check_seed
from cardmc.experiments.common import record
from cardmc.kernels import norwegian_jazz as k
from cardmc.registry import UsageError
from cardmc.stats import named

VARIANTS = {
    "default": {},
    "bonus80": {"first_out_bonus": 80},
    "play_out": {"play_out": True},
}
# Variants that only change the first-out bonus are the default games rescored: no player's choice
# depends on the bonus (tests/test_experiments.py checks the rescored scores against real runs).
RESCORED = {"bonus80": 80}
PLAYERS = (3, 4, 5, 6, 7)
RULES = {"default": "bonus 10", "bonus80": "bonus 80", "play_out": "bonus 10, played out"}
COMPARISONS = {"bonus80": "bonus 80 - bonus 10", "play_out": "played out - bonus 10"}
MEASURES = {
    "changed": "winner_changed",
    "overtaken": "leader_overtaken",
    "shared": "shared_win",
    "tau": "tau",
}
DEALS = ("1 tricks", "2 clubs", "3 queens", "4 king of clubs", "5 last trick", "6 sevens")
SJUEREN = 80
SEVENS_80 = f"6 sevens (bonus {SJUEREN})"
DEAL_ORDER = pd.CategoricalDtype([*DEALS, SEVENS_80], ordered=True)
EDGE_SHARE = 4  # the heuristic edge uses games // EDGE_SHARE games per player count


def _run(seed: int, games: int, players: int, policy: str, settings: dict, rows: bool = False):
    """Scores of every game, shape (games, 6 deals, seats), the seat after the sixth deal's dealer
    of each seat and who went out first in sevens, shape (games, seats), and the rows themselves
    when ``rows`` (``cardmc.simulate``)."""
    from cardmc.api import simulate

    df = simulate("norwegian_jazz", games=games, seed=seed, players=players, policy=policy, **settings)
    scores = df["score"].to_numpy(np.int64).reshape(games, k.DEALS, players)
    rel = df["rel_seat"].to_numpy(np.int64).reshape(games, k.DEALS, players)[:, 5]
    first_out = df["first_out"].to_numpy(np.int64).reshape(games, k.DEALS, players)[:, 5]
    return scores, rel, first_out, (df if rows else None)


def rescored(scores: np.ndarray, first_out: np.ndarray, bonus: int) -> np.ndarray:
    """The scores of default games (``_run``) with the sixth deal's first-out bonus set to ``bonus``."""
    out = scores.copy()
    out[:, 5] += (bonus - int(nj.SPEC.rules["first_out_bonus"].default)) * first_out
    return out


def sixth_deal_study(
    seed: int,
    games: int,
    players_list: Iterable[int] = PLAYERS,
    policy: str = "heuristic",
    seats: bool = False,
    keep_rows: Iterable[int] = (),
) -> dict[str, pd.DataFrame]:
    """Replay the same games with default sevens, the 80-point bonus and sevens
    played out; per player count: how often the sixth deal changes the winner,
    Kendall tau-b between the five- and six-deal standings, and the paired
    differences of each variant against the default (95% CIs).

    With ``seats``, also each deal's cost by seat from the default games' rows
    (``seat_study``: ``deal_cost``, ``seat_effect``); ``keep_rows`` names the
    player counts whose default rows come back too (``rows``: {players: DataFrame})."""
    seed, games = check_seed(seed), check_count("games", games)
    players_list = [nj.SPEC.check_players(p) for p in players_list]
    if not players_list:
        raise UsageError("players_list must name at least one player count")
    by_variant, paired, sevens = [], [], []
    cost, seat, kept = [], [], {}
    keep_rows = set(keep_rows)
    for n in players_list:
        runs, played = {}, {}
        for name, settings in VARIANTS.items():
            if name in RESCORED:  # the default games (played first) with another bonus
                scores, df = rescored(*played["default"], RESCORED[name]), None
            else:
                scores, rel, first_out, df = _run(
                    seed, games, n, policy, settings, rows=seats and name == "default"
                )
                played[name] = (scores, first_out)
            if df is not None:
                s = seat_study(df)
                cost.append(s["deal_cost"])
                seat.append(s["seat_effect"])
                if n in keep_rows:
                    kept[n] = df.reset_index(drop=True)
                del df
            t5 = scores[:, :5].sum(axis=1)
            runs[name] = nj.game_outcomes(t5, t5 + scores[:, 5])
            sevens.append((n, name, scores[:, 5], rel))
        for name, g in runs.items():
            row = {"players": n, "variant": name}
            for flag in ("changed", "overtaken", "shared"):
                p = stats.proportion(g[flag].sum(), len(g))
                row.update(
                    {flag: p["estimate"], f"{flag}_ci_low": p["ci_low"], f"{flag}_ci_high": p["ci_high"]}
                )
            t = stats.mean(g["tau"].dropna())
            row.update(
                {
                    "tau": t["estimate"],
                    "tau_se": t["se"],
                    "tau_ci_low": t["ci_low"],
                    "tau_ci_high": t["ci_high"],
                    "tau_n": t["n"],
                    "games": len(g),
                }
            )
            by_variant.append(row)
            if name == "default":
                continue
            base = runs["default"]
            for flag in ("changed", "overtaken"):
                d = stats.paired_difference(g[flag], base[flag])
                paired.append({"players": n, "variant": name, "measure": flag, **d})
            both = g["tau"].notna() & base["tau"].notna()
            d = stats.paired_difference(g["tau"][both], base["tau"][both])
            paired.append({"players": n, "variant": name, "measure": "tau", **d})
    seat_rows = []
    for n, name, s6, rel in sevens:
        for r in range(n):  # seat relative to the dealer: 0 dealer, 1 leader, ...
            m = stats.mean(s6[rel == r])
            seat_rows.append({"players": n, "variant": name, "rel_seat": r, **m})
    out = {
        "by_variant": pd.DataFrame(by_variant).set_index(["players", "variant"]),
        "paired": pd.DataFrame(paired).set_index(["players", "variant", "measure"]).sort_index(),
        "sevens_score": pd.DataFrame(seat_rows).set_index(["players", "variant", "rel_seat"]).sort_index(),
    }
    if seats:
        out["deal_cost"], out["seat_effect"] = pd.concat(cost), pd.concat(seat)
    out = {name: record(t, seed=seed, games=games, policy=policy) for name, t in out.items()}
    if kept:
        out["rows"] = kept
    return out


def heuristic_edge(seed: int, games: int, players: int) -> pd.DataFrame:
    """How many points a heuristic player gains over a random one in the same
    seat, on the same deals, against random opponents.

    For every seat s the games are replayed with seat s heuristic; the edge
    of a game is the mean over seats of (heuristic seat's score - random
    seat's score). Rows: each deal and the game total, with 95% CIs; and
    the paired change in the chance of winning (shared wins count).
    """
    seed, games = check_seed(seed), check_count("games", games)
    players = nj.SPEC.check_players(players)
    base, _, _, _ = _run(seed, games, players, "random", {})
    base_win = _wins(base)
    edge = np.zeros((games, k.DEALS + 1))
    win = np.zeros(games)
    for s in range(players):
        names = ["random"] * players
        names[s] = "heuristic"
        run, _, _, _ = _run(seed, games, players, ",".join(names), {})
        edge[:, : k.DEALS] += run[:, :, s] - base[:, :, s]
        edge[:, k.DEALS] += run[:, :, s].sum(axis=1) - base[:, :, s].sum(axis=1)
        win += _wins(run)[:, s] - base_win[:, s]
    edge /= players
    win /= players
    rows = [{"measure": f"deal {d + 1}", **stats.mean(edge[:, d])} for d in range(k.DEALS)]
    rows.append({"measure": "total", **stats.mean(edge[:, k.DEALS])})
    rows.append({"measure": "win", **stats.mean(win)})
    return record(pd.DataFrame(rows).set_index("measure"), seed=seed, games=games, players=players)


def _wins(scores: np.ndarray) -> np.ndarray:
    totals = scores.sum(axis=1)
    return (totals == totals.max(axis=1, keepdims=True)).astype(float)


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
            row.update(named(MEASURES[measure], g.loc[measure]))
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
        raise UsageError(
            f"these rows mix first-out bonuses {sorted(paid.tolist())}; study one rule at a time"
        )
    rescored = six.assign(score=six["score"] + (bonus - int(paid[0])) * six["first_out"], deal=7)
    d = pd.concat([d, rescored], ignore_index=True)
    d["table"] = _table_key(d)
    tables = d.groupby("table", sort=False)
    d["extra"] = d["cards_dealt"] > tables["cards_dealt"].transform("min")
    d["effect"] = d["score"] - tables["score"].transform("mean")
    d["deal"] = pd.Categorical.from_codes(d["deal"] - 1, dtype=DEAL_ORDER)
    return d[["players", "game", "deal", "rel_seat", "extra", "score", "effect", "table"]]


def _table_key(d: pd.DataFrame) -> np.ndarray:
    """One int64 per (players, game, deal number), ordered as the three: grouping by one key is
    much faster than by three."""
    game = d["game"].to_numpy(np.int64)
    if len(game) and (game.min() < 0 or game.max() >= 1 << 52):
        raise UsageError(f"game numbers must be in 0..2**52 to study, not {game.min()}..{game.max()}")
    return ((d["players"].to_numpy(np.int64) << 52) | game) * 8 + d["deal"].to_numpy(np.int64)


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
    tables = d.groupby("table", sort=True)
    table = pd.DataFrame(
        {"players": tables["players"].first(), "deal": tables["deal"].first(), "cost": tables["score"].mean()}
    ).reset_index(drop=True)
    parts = [_wide(stats.grouped_mean(table, by, "cost"), "table_mean")]
    for name, r in (("dealer", 0), ("leader", 1)):
        parts.append(_wide(stats.grouped_mean(d[d["rel_seat"] == r], by, "effect"), name))
    extra_rows = d[d["extra"]].groupby("table", sort=True)
    extra = pd.DataFrame(
        {
            "players": extra_rows["players"].first(),
            "deal": extra_rows["deal"].first(),
            "effect": extra_rows["effect"].mean(),
        }
    ).reset_index(drop=True)
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
        e = heuristic_edge(seed, games, n)
        row = {"players": n}
        for m in ("total", "win", *(f"deal {d}" for d in range(1, 7))):
            name = {"total": "game_points", "win": "win_chance"}.get(m, m.replace(" ", "_"))
            row.update(named(name, e.loc[m]))
        row["n"] = int(e.loc["total", "n"])
        wide.append(row)
        per = e.loc[[f"deal {d}" for d in range(1, 7)]].reset_index(drop=True)
        long.append(per.assign(players=n, deal=np.arange(1, 7)))
    return (
        record(pd.DataFrame(wide).set_index("players"), seed=seed, games=games),
        record(pd.concat(long, ignore_index=True).set_index(["players", "deal"]), seed=seed, games=games),
    )
