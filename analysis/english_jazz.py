"""English Jazz at the Python edge: spec, frames, traces, analyses, hand odds."""

from __future__ import annotations

import numpy as np
import pandas as pd

from cardmc import aggregate as agg
from cardmc import english_jazz_solver, pimc, stats, trace_lines
from cardmc.frames import Categories, Columns
from cardmc.kernels import condition as kc
from cardmc.kernels import english_jazz as k
from cardmc.kernels.cards import SUITS, code
from cardmc.kernels.events import EV_FACE_UP
from cardmc.registry import (
    Deferred,
    Example,
    GameSpec,
    Ladder,
    Study,
    UsageError,
    compact,
    seat_codes,
    whole,
)

# pimc: cardmc.pimc; learned: cardmc.english_jazz_learned
POLICIES = {"random": k.RANDOM, "heuristic": k.HEURISTIC, "pimc": k.PIMC, "learned": k.LEARNED}
POSITIONS = {1: "leader", 2: "second", 0: "dealer"}  # seat relative to the dealer
SCORES = (-2, -1, 0, 1, 2)


def parse_policy(text: str, players: int = 3) -> np.ndarray:
    """Per-seat policy codes (players, 1) from a name or a comma list of three."""
    if players != k.PLAYERS:
        raise UsageError(f"english_jazz is played by 3 players, not {players!r}")
    return seat_codes(text, players, "english_jazz", POLICIES)


def simulate_block(seed, start, count, players, params, policies, condition=None, out=None) -> np.ndarray:
    return simulate_spans(seed, start, count, players, params, policies, condition, out)[0]


def simulate_spans(seed, start, count, players, params, policies, condition=None, out=None, after=None):
    """``simulate_block``'s rows as one span (``cardmc.registry.whole``);
    ``after(p, rows, lo, hi)`` reads each slice's rows where they were
    written, right after (not for the search player's blocks)."""
    if pimc.has_pimc(policies, "english_jazz"):
        return whole(
            pimc.play_block(
                "english_jazz",
                seed,
                start,
                count,
                params,
                policies,
                kc.of(condition),
                k.ROWS_PER_GAME,
                len(k.COLUMNS),
                k.MAX_EVENTS,
            )
        )
    rows, nrows = k.simulate(seed, start, count, players, params, policies, kc.of(condition), out, after)
    return whole(compact(rows, nrows, k.max_rows(players, params)))


_SMALL = {c: "int8" for c in k.COLUMNS}
_SMALL.update({"game": "int64", "card_points": "int16", "points_held": "int16", "total": "int16"})


_COLUMNS = Columns(
    k.COLUMNS,
    {**_SMALL, "trump": Categories(tuple(SUITS)), "rule": Categories(tuple(k.RULE_LETTERS))},
)


def frame(rows: np.ndarray) -> pd.DataFrame:
    """Rows as a DataFrame; ``trump`` (NaN when never set) and ``rule`` are categoricals."""
    return _COLUMNS(rows)


def trace_game(seed: int, index: int, players: int, settings: dict, policy: str, condition=None) -> dict:
    """One TRACE.md line: game ``index`` of ``seed``, replayed by the kernel; ``first_dealer_cards``
    are the cards dealt face up until a J found the first dealer."""
    seed, index, players, full = trace_lines.check(SPEC, seed, index, players, settings)
    params = SPEC.params(full)
    policies = parse_policy(policy, players)
    rows = np.zeros((k.ROWS_PER_GAME, len(k.COLUMNS)), np.int32)
    events = np.zeros((k.MAX_EVENTS, 4), np.int64)
    if pimc.has_pimc(policies, "english_jazz"):
        nrows, nev = pimc.play_game(
            "english_jazz", seed, index, params, policies, rows, events, kc.of(condition)
        )
    else:
        nrows, nev = k.play_game(seed, index, players, params, policies, rows, events, kc.of(condition))
    rows = rows[:nrows]

    def layout(number: int, dealer: int, leader: int, hands: list, plays: list) -> dict:
        r = trace_lines.seat_rows(rows, k.C_DEAL, k.C_SEAT, number)
        trump, setter = int(r[0, k.C_TRUMP]), int(r[0, k.C_TRUMP_SET_BY])
        return {
            **trace_lines.plain_deal(number, dealer, leader, hands, plays),
            "trump": SUITS[trump] if trump >= 0 else None,
            "trump_set_by": trace_lines.seat(setter),
            "tricks": r[:, k.C_TRICKS].tolist(),
            "card_points": r[:, k.C_CARD_POINTS].tolist(),
            "rule": k.RULE_LETTERS[int(r[0, k.C_RULE])],
            "score": r[:, k.C_SCORE].tolist(),
        }

    face_up: list[str] = []
    hooks = {EV_FACE_UP: lambda deal, a, b, c: face_up.append(code(b))}
    deals = trace_lines.deals(events[:nev], players, layout, hooks)
    first = trace_lines.seat_rows(rows, k.C_DEAL, k.C_SEAT, 0)
    return trace_lines.line(
        SPEC,
        seed,
        index,
        players,
        full,
        policy,
        deals,
        first[:, k.C_TOTAL].tolist(),
        trace_lines.seats_where(first[:, k.C_WINNER] == 1),
        first_dealer_cards=face_up,
    )


# ------------------------------------------------------------------ analyses

FEATURES = ("aces", "jacks", "nines", "longest", "voids", "points_held", "trumps_held")  # of a hand as dealt
POINTS_HELD_BINS = [-1, 19, 29, 39, 49, 59, 69, 120]


def aggregate(df: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The mergeable counts and sums ``summarise`` needs (see analysis/aggregate.py): additive over
    any split of the rows into whole games, so chunks of a run merge exactly."""
    dealt = df[(df["seat"] == 0).to_numpy()]  # one row per deal: the deal-level columns
    setter = dealt["trump_set_by"].to_numpy()
    deals = pd.DataFrame(
        {
            "rule": dealt["rule"],
            "trump_never_set": dealt["trump"].isna(),
            "setter_position": np.where(setter < 0, -1, (setter - dealt["dealer"].to_numpy()) % 3),
        }
    )
    games = pd.DataFrame({"swept": df.groupby("game", sort=False)["all_tricks"].max().to_numpy()})
    return {
        "hands": agg.moments(df, ["rule", "position", "all_tricks"], ["score"]),
        **{f"hands_by_{feature}": agg.counts(df, [feature, "all_tricks"]) for feature in FEATURES},
        "deals": agg.counts(deals, ["rule", "trump_never_set", "setter_position"]),
        "games": agg.counts(games, ["swept"]),
        # one row per seat at the first deal (totals are per game)
        "first_deals": agg.counts(
            df, ["seat", "position", "winner", "shared_win", "total"], where=(df["deal"] == 0).to_numpy()
        ),
    }


def tally(spec: GameSpec, players: int, params: np.ndarray):
    """The aggregates of ``aggregate`` tallied straight from the kernel's rows
    (``cardmc.kernels.tally.english_jazz``), block by block."""
    from cardmc.kernels import tally as kt

    dtypes = frame(np.zeros((0, len(k.COLUMNS)), np.int32)).dtypes

    def key(name: str, size: int = 0, lo: int = 0, dtype=None) -> tuple:
        dtype = dtypes[name] if dtype is None else dtype
        return name, dtype, lo, len(dtype.categories) if isinstance(dtype, pd.CategoricalDtype) else size

    all_tricks = key("all_tricks", 2)
    features = [key(name, size, lo) for name, (_, lo, size) in zip(FEATURES, kt.FEATURES.tolist())]
    grid = agg.Grid(
        [
            ("hands", [key("rule"), key("position", 3), all_tricks], ["score"]),
            *[(f"hands_by_{f[0]}", [f, all_tricks], []) for f in features],
            (
                "deals",
                [key("rule"), key("trump_never_set", 2, dtype=bool), key("setter_position", 4, -1, np.int8)],
                [],
            ),
            ("games", [key("swept", 2, dtype=np.int8)], []),
            (
                "first_deals",
                [
                    key("seat", 3),
                    key("position", 3),
                    key("winner", 2),
                    key("shared_win", 2),
                    key("total", kt.TOTAL_SIZE, kt.TOTAL_LO),
                ],
                [],
            ),
        ]
    )
    return agg.GridTally(spec, players, params, grid, kt.english_jazz)


def _positions(table: pd.DataFrame) -> pd.DataFrame:
    """An aggregate table's cells as rows (keys as columns), with ``position_name`` (leader, second, dealer)
    for its position code."""
    t = table.reset_index()
    t["position_name"] = pd.Categorical(t["position"].map(POSITIONS), categories=list(POSITIONS.values()))
    return t


def summarise(aggs: dict) -> dict[str, pd.DataFrame]:
    """How often one hand takes every trick (rule A), by seat and hand features; how often each rule
    decides a deal; trump setting; game scores and seat advantage, from ``aggregate`` tables (merged
    over any number of chunks). Every figure has a 95% CI and its n."""
    out: dict[str, pd.DataFrame] = {}
    hands = _positions(aggs["hands"])
    deals = aggs["deals"].reset_index()
    games = aggs["games"]
    n = int(deals["n"].sum())
    out["all_tricks"] = pd.concat(
        [
            stats.row("per deal", stats.proportion(agg.events(deals, "rule", "A"), n)),
            stats.row("per hand", stats.proportion(agg.events(hands, "all_tricks"), int(hands["n"].sum()))),
            stats.row(
                "per game of 12 deals", stats.proportion(agg.events(games, "swept"), int(games["n"].sum()))
            ),
        ]
    )
    out["all_tricks_by_position"] = agg.share(hands, ["position_name"], "all_tricks")
    parts = []
    for feature in FEATURES:
        t = aggs[f"hands_by_{feature}"].reset_index()
        if feature == "points_held":
            feature = "points_held_bin"
            t[feature] = pd.cut(t["points_held"], POINTS_HELD_BINS)
        g = agg.share(t, [feature], "all_tricks")
        g.index = pd.MultiIndex.from_product([[feature], g.index.astype(str)], names=["feature", "value"])
        parts.append(g)
    out["all_tricks_by_feature"] = pd.concat(parts)
    rules = deals.groupby("rule", observed=True)["n"].sum().reindex(list(k.RULE_LETTERS), fill_value=0)
    out["rules"] = pd.concat([stats.row(r, stats.proportion(int(rules[r]), n)) for r in k.RULE_LETTERS])
    never = agg.events(deals, "trump_never_set")
    out["trump_never_set"] = stats.row("trump never set", stats.proportion(never, n))
    setters = deals.groupby("setter_position")["n"].sum()
    names = {**POSITIONS, -1: "never"}
    out["trump_set_by"] = pd.concat(
        [stats.row(names[p], stats.proportion(int(setters.get(p, 0)), n)) for p in (1, 2, 0, -1)]
    )
    out["score_by_position"] = _score_by_position(hands)
    out["score_by_rule_and_position"] = _rule_shares(hands)
    first = _positions(aggs["first_deals"])
    totals = first.groupby("total")["n"].sum()
    mean = agg.mean_table(agg.histogram_moments(first, "total", []), "total").to_dict("records")[0]
    quantiles = agg.histogram_quantiles(totals.index.to_numpy(), totals.to_numpy())
    out["game_totals"] = stats.row("total", {**mean, **quantiles.to_dict()})
    n_first = int(totals.sum())
    lo, hi = stats.wilson(totals.to_numpy(), n_first)
    out["game_total_distribution"] = pd.DataFrame(
        {
            "share": totals.to_numpy() / n_first,
            "ci_low": lo,
            "ci_high": hi,
            "n": n_first,
            "events": totals.to_numpy(),
        },
        index=totals.index,
    )
    # seat advantage: by the seat's place relative to the first dealer
    seats = first.rename(columns={"position_name": "first_position"})
    sole_win = (seats["winner"] == 1) & (seats["shared_win"] == 0)
    out["wins_by_first_position"] = agg.share(seats, ["first_position"], "winner")
    out["sole_wins_by_first_position"] = agg.share(seats, ["first_position"], sole_win)
    totals_by_seat = agg.histogram_moments(seats, "total", ["first_position"])
    out["total_by_first_position"] = agg.mean_table(totals_by_seat, "total")
    one = first[first["seat"] == 0]
    shared = stats.proportion(agg.events(one, "shared_win"), int(one["n"].sum()))
    out["shared_wins"] = stats.row("games with a shared win", shared)
    return out


def analyze(df: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """How often one hand takes every trick (rule A), by seat and hand
    features; how often each rule decides a deal; trump setting; game
    scores and seat advantage. Every figure has a 95% CI and its n."""
    if df.empty:
        raise UsageError("no rows to analyze")
    aggs = agg.tally_frame(SPEC, _COLUMNS, df)  # the tally, for a frame of games in order
    return summarise(aggregate(df) if aggs is None else aggs)


def _score_by_position(hands: pd.DataFrame) -> pd.DataFrame:
    """The mean score of the hands per position."""
    by_position = hands.groupby(["position_name"], observed=True)[["n", "score_sum", "score_sumsq"]].sum()
    return agg.mean_table(by_position, "score")


def _rule_shares(hands: pd.DataFrame) -> pd.DataFrame:
    """Per rule and position: the mean score of the hands in the deals the rule decides."""
    parts = []
    for r in k.RULE_LETTERS:
        g = _score_by_position(hands[hands["rule"] == r])
        g.index = pd.MultiIndex.from_product([[r], g.index], names=["rule", "position"])
        parts.append(g)
    return pd.concat(parts)


# ------------------------------------------------------- advice and comparisons

odds = Deferred("cardmc.odds.english_jazz", "odds")  # cardmc.odds("english_jazz", ...): one hand in one deal


def compare_measure(seats: tuple[int, ...], players: int):
    """``cardmc.compare``'s natural measure: the score per deal of the measured seats and their wins (the
    share of them that win the game)."""
    from cardmc.compare import seat_means

    return seat_means(seats, {"score per deal": "score", "wins": "winner"})


class EnglishJazzSpec(GameSpec):
    """English Jazz's spec: its ``params`` end with the ``learned`` player's weights
    (``cardmc.english_jazz_learned``), from ``k.P_WEIGHTS``."""

    def params(self, settings: dict[str, object]) -> np.ndarray:
        from cardmc.english_jazz_learned import shipped_weights

        return np.concatenate([super().params(settings), shipped_weights()]).astype(np.int64)


SPEC = EnglishJazzSpec(
    name="english_jazz",
    title="English Jazz",
    deck=36,
    players=(3,),
    default_players=3,
    rules={},
    options={
        **pimc.options(
            7, "a deal with every seat searching: 0.08 s from 5 tricks, 0.7 s from 6, 13 s from 7", 6
        ),
    },
    policies=tuple(POLICIES),
    default_policy="heuristic",
    unit="game of 12 deals",
    parse_policy=parse_policy,
    simulate_block=simulate_block,
    simulate_spans=simulate_spans,
    frame=frame,
    trace_game=trace_game,
    analyze=analyze,
    columns=k.COLUMNS,
    example=Example(
        hand="JS 9S AS KH QH TD 8D 7C 6C KC QC JC",
        searched="pimc,heuristic,heuristic",
        odds_searched={"policy": "pimc"},
        positions=(dict(hands=["JS 9S", "AS 6H", "KS 7H"], to_play=0, taken=[10, 0, 0], seat=0),),
        compile_seconds=19,
    ),
    study=Study("english_jazz", quick=2_000, full=1_600_000),
    layout=_COLUMNS,
    dense_rows=k.max_rows,  # every game writes its rows, one game after another
    # blocks of 8192 games (29 MB of rows) stay under glibc's mmap threshold,
    # so a run reuses its memory instead of page-faulting fresh pages
    block=8192,
    # aggregate runs on several threads: blocks of 2048 games, whose rows stay in the cores' caches from
    # the kernel to the tally (two threads: 0.191 s against 0.204 s for 65,536 games in blocks of 8192)
    aggregate_block=2048,
    tally=tally,
    aggregate=aggregate,
    summarise=summarise,
    advice=odds,
    natural_measure=compare_measure,
    ladder=Ladder(),
    bench=(("random", "random", {}), ("heuristic", "heuristic", {}), ("learned", "learned", {})),
    bench_games=65_536,  # games of about 13 deals: long enough that a run's fixed costs do not set the rate
    solver=english_jazz_solver.SOLVER,
    search_player=english_jazz_solver.SEARCH_PLAYER,
    adviser=english_jazz_solver.ADVISER,
    solved=english_jazz_solver.SOLVED,
    trainer=Deferred("cardmc.english_jazz_learned", "train"),
)
