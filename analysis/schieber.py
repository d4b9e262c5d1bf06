"""Schieber Jass at the Python edge: spec, frames, traces and analyses.

A simulated game is a whole match to ``target``. Rows: one per seat per deal
(see ``cardmc.kernels.schieber.COLUMNS``). The experiments on the same deals
(``duplicate``, ``push_value``, ...) are in ``cardmc.experiments.schieber``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numba
import numpy as np

from cardmc import pimc, schieber_solver, stats, trace_lines
from cardmc.frames import Categories, Columns
from cardmc.kernels import condition as kc
from cardmc.kernels import schieber as k
from cardmc.kernels import schieber_weis as w
from cardmc.kernels.events import EV_CARD_POINTS, EV_CONTRACT, EV_DEAL_END, EV_STOECK, EV_WEIS, EV_WEIS_TEAM
from cardmc.kernels.schieber_push import push_below
from cardmc.registry import (
    Deferred,
    Example,
    GameSpec,
    Ladder,
    Option,
    Study,
    UsageError,
    join_spans,
    seat_codes,
    whole,
)

if TYPE_CHECKING:  # loaded by the frames and tables: the spec (the search player, the adviser) needs none
    import pandas as pd

POLICIES = {name: i for i, name in enumerate(k.POLICY_NAMES)}
CONTRACTS = k.CONTRACT_NAMES
SWISS_SUITS = {"C": "acorns", "D": "bells", "H": "roses", "S": "shields"}
# the multipliers option's order: acorns, roses, bells, shields, Obenabe, Undenufe (the rulebook's)
MULTIPLIER_NAMES = ("C", "H", "D", "S", "obenabe", "undenufe")
MULTIPLIERS = tuple(int(k.MULTIPLIER[CONTRACTS.index(c)]) for c in MULTIPLIER_NAMES)


def parse_policy(text: str, players: int = 4) -> np.ndarray:
    """Per-seat policy codes (shape (4, 1)) from a name or a comma list of four names."""
    if players != 4:
        raise UsageError(f"schieber is played by 4 players, not {players!r}")
    return seat_codes(text, players, "schieber", POLICIES)


def simulate_block(seed, start, count, players, params, policies, condition=None, out=None) -> np.ndarray:
    return join_spans(*simulate_spans(seed, start, count, players, params, policies, condition, out))


def simulate_spans(seed, start, count, players, params, policies, condition=None, out=None, after=None):
    """``simulate_block``'s rows as the kernel left them, with its spans
    (``cardmc.registry.join_spans``), for a consumer that reads them span by
    span; ``after(p, rows, lo, hi)`` reads each slice's rows where they were
    written, right after (not for the search player's blocks). Without it,
    a slice a thread (the fewest rows to move together); with it, slices
    small enough to stay in the core's cache."""
    if pimc.has_pimc(policies, "schieber"):
        return whole(
            pimc.play_block(
                "schieber",
                seed,
                start,
                count,
                params,
                policies,
                kc.of(condition),
                k.max_rows(4, params),
                k.NCOL,
                max_events(params),
            )
        )
    slices = 64 if after is not None else numba.get_num_threads()
    return k.simulate(seed, start, count, players, params, policies, slices, kc.of(condition), out, after)


_SMALL = {c: "int8" for c in k.COLUMNS}
_SMALL.update(
    {
        "game": "int64",
        "deal": "int16",
        "weis": "int16",
        "weis_kinds": "int16",
        "card_points": "int16",
        "score": "int16",
        "best_value": "int16",
        "total0": "int32",
        "total1": "int32",
        "deals": "int16",
    }
)


_COLUMNS = Columns(
    k.COLUMNS,
    {
        **_SMALL,
        "contract": Categories(tuple(CONTRACTS)),
        "best_contract": Categories(tuple(CONTRACTS)),
    },
)


def frame(rows: np.ndarray) -> pd.DataFrame:
    """Rows as a DataFrame: small ints, contracts as categoricals of their names."""
    return _COLUMNS(rows)


# ------------------------------------------------------------------- traces


def max_events(params: np.ndarray) -> int:
    return k.EVENTS_PER_DEAL * int(k.max_deals(int(params[k.P_TARGET])))


def _layout(number: int, dealer: int, leader: int, hands: list, plays: list) -> dict:
    """A deal object: the forehand leads; no dealer before the first deal's 7H."""
    return {
        "dealer": trace_lines.seat(dealer),
        "leader": leader,
        "forehand": leader,
        "hands": hands,
        "weis": [[] for _ in range(4)],
        "plays": plays,
    }


_HOOKS = {
    EV_CONTRACT: lambda deal, a, b, c: deal.update(chooser=a, pushed=bool(b), contract=CONTRACTS[c]),
    EV_WEIS: lambda deal, a, b, c: deal["weis"][a].append({"cards": trace_lines.codes(c), "points": b}),
    EV_STOECK: lambda deal, a, b, c: deal.update(stoeck_seat=trace_lines.seat(a)),
    EV_WEIS_TEAM: lambda deal, a, b, c: deal.update(weis_team=trace_lines.seat(a)),
    EV_CARD_POINTS: lambda deal, a, b, c: deal.update(card_points=[a, b]),
    EV_DEAL_END: lambda deal, a, b, c: deal.update(score=[a, b], match_ended=bool(c)),
}


def deal_records(events: np.ndarray) -> list[dict]:
    """TRACE.md deal objects from kernel trace events (without Weis or Stöck, which write none of their
    events: nobody credited with Weis, no Stöck seat)."""
    deals = trace_lines.deals(events, 4, _layout, _HOOKS)
    for deal in deals:
        deal.setdefault("weis_team", None)
        deal.setdefault("stoeck_seat", None)
    return deals


def trace_game(seed: int, index: int, players: int, settings: dict, policy: str, condition=None) -> dict:
    """One TRACE.md line: match ``index`` of ``seed`` replayed by the kernel (``condition``: the
    array of ``cardmc.condition.Condition``, or None)."""
    seed, index, players, full = trace_lines.check(SPEC, seed, index, players, settings)
    params = SPEC.params(full)
    policies = parse_policy(policy, players)
    rows = np.zeros((k.max_rows(players, params), k.NCOL), np.int32)
    events = np.zeros((max_events(params), 4), np.int64)
    if pimc.has_pimc(policies, "schieber"):
        _, nev = pimc.play_game("schieber", seed, index, params, policies, rows, events, kc.of(condition))
    else:
        _, nev = k.play_game(seed, index, players, params, policies, rows, events, kc.of(condition))
    deals = deal_records(events[:nev])
    totals = [sum(d["score"][0] for d in deals), sum(d["score"][1] for d in deals)]
    target = int(full["target"])
    winner = 0 if totals[0] >= target else 1
    return trace_lines.line(
        SPEC,
        seed,
        index,
        players,
        full,
        policy,
        deals,
        totals,
        [winner],
        schneider=2 * totals[1 - winner] < target,
    )


# ------------------------------------------------------------- experiments
# The experiments (``duplicate``, ``push_value``, ``fit_evaluation``, ``house_rules``, ``weis_odds``) live in
# ``cardmc.experiments.schieber``; they stay importable from here.

_EXPERIMENTS = ("duplicate", "push_value", "fit_evaluation", "house_rules")


def weis_odds(four_nines: object = "0", long_runs: object = "flat", weis: object = "on") -> pd.DataFrame:
    """Exact chance that a 9-card hand declares each kind of Weis under the rule options
    (``cardmc.experiments.schieber``)."""
    from cardmc.experiments.schieber import weis_odds as exact

    return exact(four_nines, long_runs, weis)


def __getattr__(name: str):
    if name in _EXPERIMENTS:
        from cardmc.experiments import schieber as experiments

        return getattr(experiments, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ----------------------------------------------------------------- analyses


def forehand_deals(df: pd.DataFrame) -> pd.DataFrame:
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


HAND_FEATURES = {
    "aces": 9,
    "sixes": 9,
    "tens": 9,
    "longest": 9,
    "weis": 100,
}  # feature: cap (higher values pooled)


def contract_type() -> pd.CategoricalDtype:
    """The contracts as a categorical dtype, the frames' own."""
    return _COLUMNS.dtypes["contract"]


def _deal_outcomes(df: pd.DataFrame) -> pd.DataFrame:
    """One row per deal (``_deals``) with what its four rows say together: Weis scored by the forehand's
    team or the other team, Stöck declared, a team took all nine tricks, the forehand team's net score."""
    key = ["game", "deal"]
    d = forehand_deals(df).set_index(key)
    scored = df[df["weis_scored"] == 1].drop_duplicates(key).set_index(key)["team"].reindex(d.index)
    fh_team = d["forehand"].astype(int) % 2
    tricks = df.groupby([*key, "team"])["tricks"].sum()
    return d.assign(
        fh_weis=scored == fh_team,
        op_weis=scored == 1 - fh_team,
        stoeck=df.groupby(key)["stoeck"].max(),
        match=(tricks == 9).groupby(level=key).any(),
        net=d["fh_score"] - d["op_score"],
    ).reset_index()


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
    out["chooser_points"] = agg.moments(
        df, ["contract"], ["card_points", "score"], where=chooser & (df["match_end"] == 0).to_numpy()
    )
    out["weis_kinds"] = agg.counts(df, ["weis_kinds"])
    out["weis_team"] = agg.counts(deals, ["fh_weis", "op_weis"])
    out["stoeck"] = agg.counts(deals, ["stoeck"], where=deals["contract"].isin(CONTRACTS[:4]))
    out["match_by_contract"] = agg.counts(deals, ["contract", "match"], where=complete)
    out["net_score"] = agg.moments(deals, ["pushed"], ["net"], where=complete)
    out["card_point_split"] = agg.counts(deals, ["fh_points", "op_points"], where=complete)
    out["match_ends"] = agg.counts(df[df["match_end"] == 1].drop_duplicates("game"), ["schneider", "deals"])
    out["first_deals"] = agg.counts(df, ["forehand", "winner"], where=((df["deal"] == 0) & (df["seat"] == 0)))
    return out


def tally(spec: GameSpec, players: int, params: np.ndarray):
    """The aggregates of ``aggregate`` tallied straight from the kernel's rows
    (``cardmc.kernels.tally.schieber``), block by block."""
    from cardmc import aggregate as agg
    from cardmc.kernels import tally as kt

    dtypes = frame(np.zeros((0, len(k.COLUMNS)), np.int32)).dtypes
    contract = ("contract", contract_type(), 0, len(CONTRACTS))

    def key(name: str, size: int, dtype=None) -> tuple:
        return name, dtype or dtypes[name], 0, size

    deals = int(k.max_deals(SPEC.rules["target"].high)) + 1  # any target's matches (and frames of any run)
    points = key("fh_points", kt.CARD_POINTS, np.int64), key("op_points", kt.CARD_POINTS, np.int64)
    sizes = {"aces": 5, "sixes": 5, "tens": 5, "longest": 10, "weis": kt.WEIS}
    grid = agg.Grid(
        [
            ("contracts", [key("pushed", 2), contract], []),
            *[
                (f"contract_by_{feature}", [key(feature, sizes[feature]), contract], [])
                for feature in HAND_FEATURES
            ],
            ("chooser_points", [contract], ["card_points", "score"]),
            ("weis_kinds", [key("weis_kinds", 512)], []),  # kinds bits 0..8 (bit 8: four 9s)
            ("weis_team", [key("fh_weis", 2, bool), key("op_weis", 2, bool)], []),
            ("stoeck", [key("stoeck", 2)], []),
            ("match_by_contract", [contract, key("match", 2, bool)], []),
            ("net_score", [key("pushed", 2)], ["net"]),
            ("card_point_split", list(points), []),
            ("match_ends", [key("schneider", 2), key("deals", deals)], []),
            ("first_deals", [key("forehand", 4), key("winner", 2)], []),
        ]
    )
    return agg.GridTally(spec, players, params, grid, kt.schieber, [deals])


def _contract_by_chooser_hand(aggs: dict) -> pd.DataFrame:
    """Share of each contract by the chooser's hand feature value, most chosen first."""
    import pandas as pd

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
                rows.append(
                    {
                        "feature": feature,
                        "value": int(value),
                        "contract": name,
                        "estimate": p,
                        "se": np.sqrt(p * (1 - p) / total),
                        "ci_low": l_,
                        "ci_high": h_,
                        "n": total,
                    }
                )
    return pd.DataFrame(rows).set_index(["feature", "value", "contract"])


def run_settings(attrs: dict) -> dict:
    """The options a run recorded in its metadata (``settings``, JSON text), or none."""
    import json

    settings = attrs.get("settings") if isinstance(attrs, dict) else None
    if isinstance(settings, str):
        try:
            settings = json.loads(settings)
        except ValueError:
            settings = None
    return settings if isinstance(settings, dict) else {}


def summarise(aggs: dict, settings: dict | None = None) -> dict[str, pd.DataFrame]:
    """Contracts, points, Weis, Stöck, matches and advantages from ``aggregate`` tables (merged over any
    number of chunks); every figure with a 95% CI. The exact Weis odds follow the run's Weis options
    (``settings``, else those recorded in ``aggs.attrs``)."""
    import pandas as pd

    from cardmc import aggregate as agg

    if settings is None:
        settings = run_settings(getattr(aggs, "attrs", {}))

    out: dict[str, pd.DataFrame] = {}
    chosen = aggs["contracts"]["n"].rename_axis(["pushed", "contract_name"])
    grid = pd.MultiIndex.from_product(
        [chosen.index.unique("pushed"), list(CONTRACTS)], names=chosen.index.names
    )
    events = chosen.reindex(grid, fill_value=0)
    out["contracts"] = agg.proportion_table(events.groupby(level="pushed").transform("sum"), events, grid)
    out["contract_by_chooser_hand"] = _contract_by_chooser_hand(aggs)
    tables = []
    for col, label in (("card_points", "card points (before multiplier)"), ("score", "deal score (after)")):
        t = agg.mean_table(aggs["chooser_points"], col).reset_index()
        t.insert(0, "measure", f"chooser team {label}")
        tables.append(t)
    points = pd.concat(tables, ignore_index=True).astype({"contract": contract_type()})
    out["points_by_contract"] = points.set_index(["measure", "contract"])
    # Weis: observed per hand versus the exact odds
    odds = weis_odds(
        *(settings.get(name, SPEC.rules[name].default) for name in ("four_nines", "long_runs", "weis"))
    )
    kinds = aggs["weis_kinds"]
    codes, hands = kinds.index.to_numpy(), int(kinds["n"].sum())
    obs = []
    for i, name in enumerate(list(w.KIND_NAMES) + ["any"]):
        hit = codes != 0 if name == "any" else (codes >> i) & 1 == 1
        obs.append(
            {
                "kind": name,
                "exact": odds.loc[name, "exact"],
                **stats.proportion(agg.events(kinds, hit), hands),
            }
        )
    out["weis_per_hand"] = pd.DataFrame(obs).set_index("kind")
    weis = aggs["weis_team"].reset_index()
    deals = int(weis["n"].sum())
    out["weis_team"] = pd.DataFrame(
        [
            {"team": "forehand team", **stats.proportion(agg.events(weis, "fh_weis"), deals)},
            {"team": "other team", **stats.proportion(agg.events(weis, "op_weis"), deals)},
            {
                "team": "nobody",
                **stats.proportion(agg.events(weis, ~weis["fh_weis"] & ~weis["op_weis"]), deals),
            },
        ]
    ).set_index("team")
    st = aggs["stoeck"]
    out["stoeck"] = pd.DataFrame(
        [{"deals": "trump contracts", **stats.proportion(agg.events(st, "stoeck"), st["n"].sum())}]
    ).set_index("deals")
    sweep = agg.share(aggs["match_by_contract"], ["contract"], "match")
    out["match_by_contract"] = sweep.set_axis(
        pd.CategoricalIndex(sweep.index, dtype=contract_type(), name="contract")
    )
    ends = aggs["match_ends"]
    out["schneider"] = pd.DataFrame(
        [{"matches": "all", **stats.proportion(agg.events(ends, "schneider"), ends["n"].sum())}]
    ).set_index("matches")
    hist = agg.histogram_moments(ends, "deals", ["deals"]).reset_index()
    length = agg.mean_table(agg.histogram_moments(ends, "deals", []), "deals").to_dict("records")[0]
    quantiles = agg.histogram_quantiles(hist["deals"].to_numpy(), hist["n"].to_numpy())
    out["match_length"] = pd.DataFrame([{**length, **quantiles.to_dict()}], index=["deals per match"])
    net = aggs["net_score"]
    split = aggs["card_point_split"].reset_index()
    split["fh_share"] = split["fh_points"] / (split["fh_points"] + split["op_points"])
    first = aggs["first_deals"].reset_index()
    out["forehand_advantage"] = pd.DataFrame(
        [
            {
                "measure": "forehand team net deal score",
                **agg.mean_table(net.sum().to_frame().T, "net").to_dict("records")[0],
            },
            {
                "measure": "forehand team share of card points",
                **agg.histogram_mean(split, "fh_share", []).to_dict("records")[0],
            },
            {
                "measure": "forehand team chose (did not push)",
                **stats.proportion(agg.events(net, "pushed", 0), net["n"].sum()),
            },
            {
                "measure": "first forehand's team wins the match",
                **stats.proportion(
                    agg.events(first, first["winner"] == first["forehand"] % 2), first["n"].sum()
                ),
            },
        ]
    ).set_index("measure")
    return out


def analyze(df: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Contracts, points, Weis, Stöck, matches and advantages; every figure with a 95% CI
    (aggregated by the tally when ``df`` is a frame of whole matches in order)."""
    from cardmc import aggregate as agg

    aggs = agg.tally_frame(SPEC, _COLUMNS, df)
    return summarise(aggregate(df) if aggs is None else aggs, run_settings(getattr(df, "attrs", {})))


# ------------------------------------------------------- advice and comparisons

odds = Deferred("cardmc.odds.schieber", "odds")  # cardmc.odds("schieber", ...): which contract, or push


def compare_measure(seats: tuple[int, ...], players: int):
    """``cardmc.compare``'s natural measure: the points per deal of the measured seats' team (of either
    team, averaged, when seats of both teams or none differ) and its match wins (one team only)."""
    import pandas as pd

    from cardmc.compare import at_seats, per_game

    teams = sorted({s % 2 for s in seats})
    team_seats = tuple(s for s in range(players) if s % 2 in teams)

    def measure(rows):
        keep = at_seats(rows, team_seats)
        out = {"points per deal": per_game(rows, rows["score"], "points per deal", keep)}
        if len(teams) == 1:
            out["wins"] = per_game(rows, rows["winner"].to_numpy() == teams[0], "wins", keep)
        return pd.DataFrame(out)

    return measure


def ladder_measure(seats: tuple[int, ...], players: int):
    """``cardmc ladder``'s measures of the side at ``seats`` (one team): its share of the card points of the
    match's deals (a half when no card was played: a Weis won the match first), then the natural measure (its
    points per deal and match wins)."""
    from cardmc.compare import per_game

    natural = compare_measure(seats, players)
    team = seats[0] % 2

    def measure(rows):
        out = natural(rows)
        seat, points = rows["seat"].to_numpy(), rows["card_points"].to_numpy(float)
        ours = per_game(rows, points, "ours", seat == team)  # a team's card points on each of its rows
        both = per_game(rows, points, "both", seat < 2)
        out.insert(0, "card points share", (ours / (2 * both)).fillna(0.5))
        return out

    return measure


class SchieberSpec(GameSpec):
    """Schieber's spec: its ``params`` end with what the rules in force make of the heuristic's push, the
    threshold ``push_below`` (``cardmc.kernels.schieber_push``), at ``k.P_PUSH_BELOW``, then the ``learned``
    player's weights (``cardmc.schieber_learned``), from ``k.P_WEIGHTS``."""

    def params(self, settings: dict[str, object]) -> np.ndarray:
        from cardmc.schieber_learned import learned_block

        options = super().params(settings)
        rules = int(k.rules_of(options))
        return np.concatenate([options, [push_below(rules)], learned_block(rules)]).astype(np.int64)


SPEC = SchieberSpec(
    name="schieber",
    title="Schieber Jass",
    deck=36,
    players=(4,),
    default_players=4,
    rules={
        "target": Option(3000, "int", "points that win the match (live counting)", 100, 20000),
        "undenufe_points": Option(
            "ace",
            "choice",
            "the card that scores 11 in Undenufe: the ace, or the 6 (the ace then scores 0)",
            choices={"ace": 0, "six": 1},
        ),
        "four_nines": Option(
            "0",
            "choice",
            "Weis points of four 9s: 0 (nothing) or 150 (a four of a kind, ranked by its points)",
            choices={"0": 0, "150": 150},
        ),
        "long_runs": Option(
            "flat",
            "choice",
            "runs of five or more: flat (100) or scaled (100 for 5, +50 per card up to 300 for 9)",
            choices={"flat": 0, "scaled": 1},
        ),
        "multipliers": Option(
            ",".join(map(str, MULTIPLIERS)),
            "ints",
            "multipliers of acorns, roses, bells, shields, Obenabe, Undenufe",
            1,
            k.MAX_MULTIPLIER,
            size=6,
        ),
        "weis": Option(
            "on", "choice", "Weis: on, or off (nobody declares or scores a Weis)", choices={"on": 1, "off": 0}
        ),
        "stoeck": Option(
            "on", "choice", "Stöck: on, or off (trump K and Q score nothing)", choices={"on": 1, "off": 0}
        ),
    },
    options={
        "contract": Option(
            "choose",
            "choice",
            "fix the contract of every deal instead of choosing it",
            choices={"choose": -1, **{name: i for i, name in enumerate(CONTRACTS)}},
        ),
        "forehand_push": Option(
            "policy",
            "choice",
            "force the forehand to push or to choose",
            choices={"policy": 0, "always": 1, "never": 2},
        ),
        **pimc.options(
            9, "a deal with every seat searching: 0.2 s from 6 tricks, 1 s from 7, 10 s from 8", 7
        ),
    },
    policies=tuple(POLICIES),
    default_policy="heuristic",
    unit="match to the target",
    parse_policy=parse_policy,
    simulate_block=simulate_block,
    simulate_spans=simulate_spans,
    frame=frame,
    trace_game=trace_game,
    analyze=analyze,
    columns=k.COLUMNS,
    example=Example(
        hand="JS 9S AS KH QH TD 8D 7C 6C",
        searched="pimc,heuristic,heuristic,heuristic",
        searched_settings={"target": 300},
        positions=(
            dict(
                hands=["JS 9S", "AS 6H", "KS 7H", "QS 8H"],
                to_play=0,
                contract="S",
                taken=[3, 2, 1, 1],
                points=[10, 20, 30, 40],
            ),
        ),
        compile_seconds=26,
    ),
    study=Study("schieber", quick=300, full=40_000),
    layout=_COLUMNS,
    block=1024,
    tally=tally,
    aggregate=aggregate,
    summarise=summarise,
    advice=odds,
    natural_measure=compare_measure,
    ladder=Ladder(measure=ladder_measure),
    bench=(("random", "random", {}), ("heuristic", "heuristic", {}), ("learned", "learned", {})),
    bench_games=65_536,  # long enough that a run's fixed costs (about 10 ms) do not set the rate
    solver=schieber_solver.SOLVER,
    search_player=schieber_solver.SEARCH_PLAYER,
    adviser=schieber_solver.ADVISER,
    solved=schieber_solver.SOLVED,
    trainer=Deferred("cardmc.schieber_learned", "train"),
    start_trainer=Deferred("cardmc.schieber_learned", "train_start"),
    odds_policy="learned",
)
