"""Norwegian Jazz at the Python edge: spec, frames, traces and analyses.

The headline question (docs/RULES.md section 4): what the sixth deal, sevens,
does to the game: how often it changes the winner and the ranking after
five deals, its score distribution by seat and player count, and the same
with the 80-point "sjueren" bonus and with sevens played out, compared on
the same deals (``cardmc.experiments.norwegian_jazz``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cardmc import aggregate as agg
from cardmc import norwegian_jazz_solver, pimc, trace_lines
from cardmc.checks import check_count, check_seed
from cardmc.frames import Categories, Columns
from cardmc.kernels import condition as kc
from cardmc.kernels import norwegian_jazz as k
from cardmc.kernels.cards import FULL52
from cardmc.registry import (
    Dealing,
    Deferred,
    Example,
    GameSpec,
    Ladder,
    Option,
    Study,
    UsageError,
    compact,
    seat_codes,
    whole,
)

PLAY = {name: i for i, name in enumerate(k.POLICY_NAMES)}


def parse_policy(text: str, players: int = 4) -> np.ndarray:
    """Per-seat play policy codes from ``"heuristic"`` or a comma list, one name per seat."""
    if players not in k.PLAYERS:
        raise UsageError(f"norwegian_jazz is played by 3 to 7 players, not {players!r}")
    return seat_codes(text, players, "norwegian_jazz", PLAY)


def simulate_block(
    seed: int,
    start: int,
    count: int,
    players: int,
    params: np.ndarray,
    policies: np.ndarray,
    condition=None,
    out=None,
) -> np.ndarray:
    """Rows of games start..start+count-1 (six deals each, compacted); ``condition``
    is the array of a ``cardmc.condition.Condition`` (None: unconditioned), ``out``
    a ``RowBuffer`` to hold the rows (``cardmc.kernels.columns``)."""
    seed, start = check_seed(seed), check_seed(start, "start")
    count = check_count("count", count)
    players = SPEC.check_players(players)
    params = np.asarray(params, np.int64)
    if params.shape not in ((k.NPARAMS,), (k.NPARAMS + k.NWEIGHTS,)):
        raise UsageError(
            f"params should hold {k.NPARAMS} numbers (and the learned player's {k.NWEIGHTS} weights), "
            f"not {params!r}"
        )
    policies = np.asarray(policies, np.int64)
    if policies.shape != (players, 1) or not np.isin(policies, list(PLAY.values())).all():
        raise UsageError(f"policies should be a ({players}, 1) array of policy codes, not {policies!r}")
    return simulate_spans(seed, start, count, players, params, policies, condition, out)[0]


def simulate_spans(seed, start, count, players, params, policies, condition=None, out=None, after=None):
    """``simulate_block``'s rows as one span (``cardmc.registry.whole``);
    ``after(p, rows, lo, hi)`` reads each slice's rows where they were
    written, right after (not for the search player's blocks)."""
    if pimc.has_pimc(policies, "norwegian_jazz"):
        return whole(
            pimc.play_block(
                "norwegian_jazz",
                seed,
                start,
                count,
                params,
                policies,
                kc.of(condition),
                k.DEALS * players,
                len(k.COLUMNS),
                k.max_events(players),
            )
        )
    rows, nrows = k.simulate(seed, start, count, players, params, policies, kc.of(condition), out, after)
    return whole(compact(rows, nrows, k.max_rows(players, params)))


_DTYPES = {c: "int8" for c in k.COLUMNS}
_DTYPES.update(
    {
        "game": "int64",
        "turns": "int16",
        "score": "int16",
        "total5": "int16",
        "total": "int16",
        "passes": "int16",
    }
)

_COLUMNS = Columns(k.COLUMNS, {**_DTYPES, "policy": Categories(tuple(PLAY))})


def frame(rows: np.ndarray) -> pd.DataFrame:
    """The kernel's rows as a DataFrame with small int dtypes; ``policy`` as a categorical."""
    rows = np.asarray(rows)
    if rows.ndim != 2 or rows.shape[1] != len(k.COLUMNS):
        raise UsageError(f"rows should have {len(k.COLUMNS)} columns, not shape {rows.shape}")
    return _COLUMNS(rows)


def _settings(settings: dict | None) -> dict:
    return SPEC.settings(settings or {})


def trace_game(seed: int, index: int, players: int, settings: dict, policy: str, condition=None) -> dict:
    """One TRACE.md line: game ``index`` of ``seed`` as the kernel plays it."""
    seed, index, players, full = trace_lines.check(SPEC, seed, index, players, settings)
    params = SPEC.params(full)
    policies = parse_policy(policy, players)
    if pimc.has_pimc(policies, "norwegian_jazz"):
        rows = np.zeros((k.DEALS * players, len(k.COLUMNS)), np.int32)
        events = np.zeros((k.max_events(players), 4), np.int64)
        nev = pimc.play_game("norwegian_jazz", seed, index, params, policies, rows, events, kc.of(condition))[
            1
        ]
        events = events[:nev]
    else:
        rows, events = k.trace_game(seed, index, players, params, policies, kc.of(condition))

    def layout(number: int, dealer: int, leader: int, hands: list, plays: list) -> dict:
        r = trace_lines.seat_rows(rows, k.C_DEAL, k.C_SEAT, number + 1)
        deal = {
            "number": number + 1,
            **trace_lines.plain_deal(number, dealer, leader, hands, plays),
            "score": r[:, k.C_SCORE].tolist(),
        }
        if number < 5:
            deal["tricks"] = r[:, k.C_TRICKS].tolist()
            deal["taken"] = r[:, k.C_TAKEN].tolist()
        else:
            deal["passes"] = r[:, k.C_PASSES].tolist()
            first = trace_lines.seats_where(r[:, k.C_FIRST_OUT])
            deal["first_out"] = first[0] if first else None
            deal["out_order"] = r[:, k.C_OUT_ORDER].tolist()
        return deal

    deals = trace_lines.deals(events, players, layout)
    last = trace_lines.seat_rows(rows, k.C_DEAL, k.C_SEAT, 6)
    return trace_lines.line(
        SPEC,
        seed,
        index,
        players,
        full,
        policy,
        deals,
        last[:, k.C_TOTAL].tolist(),
        trace_lines.seats_where(last[:, k.C_WINNER]),
        totals5=last[:, k.C_TOTAL5].tolist(),
    )


# ------------------------------------------------------------- per-game view


def kendall_tau_b(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Kendall's tau-b between the rows of ``a`` and ``b`` (games x seats);
    NaN where either ranking is all ties."""
    a = np.asarray(a, float)
    b = np.asarray(b, float)
    if a.ndim != 2 or a.shape != b.shape:
        raise UsageError(f"kendall_tau_b needs two (games, seats) arrays of one shape: {a.shape}, {b.shape}")
    return _tau(*_tau_parts(a, b))


def _tau_parts(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row of ``a`` and ``b`` (games x seats): concordant minus discordant
    seat pairs, and the product of the two rankings' untied pair counts (int64)."""
    a = np.asarray(a, float)
    b = np.asarray(b, float)
    i, j = np.triu_indices(a.shape[1], 1)
    sa = np.sign(a[:, i] - a[:, j])
    sb = np.sign(b[:, i] - b[:, j])
    pairs = np.abs(sa).sum(axis=1) * np.abs(sb).sum(axis=1)
    return (sa * sb).sum(axis=1).astype(np.int64), pairs.astype(np.int64)


def _tau(concord, pairs) -> np.ndarray:
    """Kendall's tau-b from ``_tau_parts``: concord / sqrt(pairs), NaN where pairs is 0."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(concord, float) / np.sqrt(np.asarray(pairs, float))


def game_outcomes(totals5: np.ndarray, totals: np.ndarray) -> pd.DataFrame:
    """Per game (rows of games x seats): did the sixth deal change the winners?

    ``changed``: the set of seats with the best total differs from the set
    after five deals; ``overtaken``: no seat that led after five deals wins;
    ``tau``: Kendall tau-b between the five-deal and six-deal totals.
    """
    out = _outcomes(totals5, totals)
    return out.assign(tau=_tau(out.pop("concord"), out.pop("pairs")))


def _outcomes(totals5: np.ndarray, totals: np.ndarray) -> pd.DataFrame:
    """``game_outcomes`` with tau-b as its integer parts ``concord`` and ``pairs`` (see ``_tau_parts``)."""
    totals5, totals = np.asarray(totals5), np.asarray(totals)
    if totals5.ndim != 2 or totals5.shape != totals.shape:
        raise UsageError(f"totals need (games, seats) arrays of one shape: {totals5.shape}, {totals.shape}")
    lead5 = totals5 == totals5.max(axis=1, keepdims=True)
    win = totals == totals.max(axis=1, keepdims=True)
    concord, pairs = _tau_parts(totals5, totals)
    return pd.DataFrame(
        {
            "changed": (lead5 != win).any(axis=1),
            "overtaken": ~(lead5 & win).any(axis=1),
            "shared5": lead5.sum(axis=1) > 1,
            "shared": win.sum(axis=1) > 1,
            "concord": concord,
            "pairs": pairs,
        }
    )


def _per_game(df: pd.DataFrame) -> pd.DataFrame:
    """Per game of the rows: ``players`` and its ``_outcomes``."""
    last = df[df["deal"] == 6].sort_values(["players", "game", "seat"])
    parts = []
    for n, g in last.groupby("players", observed=True):
        t5 = g["total5"].to_numpy(np.int64).reshape(-1, n)
        t6 = g["total"].to_numpy(np.int64).reshape(-1, n)
        out = _outcomes(t5, t6)
        out.insert(0, "players", int(n))
        parts.append(out)
    return pd.concat(parts, ignore_index=True)


FLAGS = ("changed", "overtaken", "shared5", "shared")


def aggregate(df: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The mergeable counts and sums ``summarise`` needs (see analysis/aggregate.py),
    additive over any split of the rows into whole games:

    * ``outcomes``: games per player count and sixth-deal flags;
    * ``tau``: games per player count and tau-b parts (``concord``, ``pairs`` > 0);
    * ``score``: a histogram of the score per player count, deal and seat;
    * ``seat_effect``: sums of ``effect_x_players``, the player count times a
      seat's score minus its table's total in the deal (players x the seat effect);
    * ``taken``: penalty units taken in deals 1-5;
    * ``sevens``: the sixth deal's score and passes by seat, cards dealt and first out;
    * ``first_deal``: the game total by seat (relative to the first dealer) and winner.
    """
    missing = sorted(set(k.COLUMNS) - set(df.columns))
    if missing:
        raise UsageError(f"these rows are not norwegian_jazz results (missing columns {missing[:5]})")
    if df.empty:
        raise UsageError("no rows to analyze")
    games = _per_game(df)
    score = df["score"].astype(np.int64)
    table_total = score.groupby([df["players"], df["game"], df["deal"]], observed=True, sort=False).transform(
        "sum"
    )
    deal = df["deal"].to_numpy()
    return {
        "outcomes": agg.counts(games, ["players", *FLAGS]),
        "tau": agg.counts(games, ["players", "concord", "pairs"], where=games["pairs"] > 0),
        "score": agg.counts(df, ["players", "deal", "rel_seat", "score"]),
        "seat_effect": agg.moments(
            df.assign(effect_x_players=df["players"] * score - table_total),
            ["players", "deal", "rel_seat"],
            ["effect_x_players"],
        ),
        "taken": agg.moments(df, ["players", "deal"], ["taken"], where=deal <= 5),
        "sevens": agg.moments(
            df, ["players", "rel_seat", "cards_dealt", "first_out"], ["score", "passes"], where=deal == 6
        ),
        "first_deal": agg.moments(df, ["players", "rel_seat", "winner"], ["total"], where=deal == 1),
    }


SCORE_LO = -1024  # lowest deal score the tally's grid holds (sevens: one point a pass)


def tally(spec: GameSpec, players: int, params: np.ndarray):
    """The aggregates of ``aggregate`` tallied straight from the kernel's rows
    (``cardmc.kernels.tally.norwegian_jazz``), block by block."""
    from cardmc.kernels import tally as kt

    dtypes = frame(np.zeros((0, len(k.COLUMNS)), np.int32)).dtypes

    def key(name: str, size: int, lo: int = 0, dtype=None) -> tuple:
        return name, dtypes[name] if dtype is None else dtype, lo, size

    n = players
    pairs = n * (n - 1) // 2
    score_size = SPEC.rules["first_out_bonus"].high - SCORE_LO + 1  # any bonus (and frames of any run)
    seat, deal = key("rel_seat", n), key("deal", 6, 1)
    grid = agg.Grid(
        [
            ("outcomes", [key("players", 1, n, np.int64), *[key(flag, 2, dtype=bool) for flag in FLAGS]], []),
            (
                "tau",
                [
                    key("players", 1, n, np.int64),
                    key("concord", 2 * pairs + 1, -pairs, np.int64),
                    key("pairs", pairs * pairs + 1, 0, np.int64),
                ],
                [],
            ),
            ("score", [key("players", 1, n), deal, seat, key("score", score_size, SCORE_LO)], []),
            ("seat_effect", [key("players", 1, n), deal, seat], ["effect_x_players"]),
            ("taken", [key("players", 1, n), key("deal", 5, 1)], ["taken"]),
            (
                "sevens",
                [key("players", 1, n), seat, key("cards_dealt", kt.CARDS), key("first_out", 2)],
                ["score", "passes"],
            ),
            ("first_deal", [key("players", 1, n), seat, key("winner", 2)], ["total"]),
        ]
    )
    dims = [n, SCORE_LO, score_size, 2 * pairs + 1, pairs * pairs + 1]
    return agg.GridTally(spec, players, params, grid, kt.norwegian_jazz, dims)


def summarise(aggs: dict) -> dict[str, pd.DataFrame]:
    """The sixth deal's effect and every deal's score distribution, with 95% CIs,
    from ``aggregate`` tables (merged over any number of chunks)."""
    out: dict[str, pd.DataFrame] = {}
    outcomes = aggs["outcomes"]
    for flag in FLAGS:
        out[f"sixth_deal_{flag}"] = agg.share(outcomes, ["players"], flag)
    tau = aggs["tau"].reset_index()
    tau["tau"] = _tau(tau["concord"], tau["pairs"])
    out["rank_correlation"] = agg.histogram_mean(tau, "tau", ["players"])
    score = aggs["score"]
    out["deal_score"] = agg.mean_table(agg.histogram_moments(score, "score", ["players", "deal"]), "score")
    out["deal_score_by_seat"] = agg.mean_table(
        agg.histogram_moments(score, "score", ["players", "deal", "rel_seat"]), "score"
    )
    # seat effect: a seat's score minus the mean of its table in the same deal (paired within the deal),
    # summed as players x effect (an integer) and divided back here
    effect = agg.mean_table(aggs["seat_effect"], "effect_x_players")
    players = effect.index.get_level_values("players").to_numpy(np.int64)
    out["seat_effect"] = effect.assign(
        **{c: effect[c] / players for c in ("estimate", "se", "ci_low", "ci_high")}
    )
    per_deal = score.groupby(level=["players", "deal", "score"], sort=True)["n"].sum()
    out["deal_score_quantiles"] = (
        per_deal.groupby(level=["players", "deal"], sort=True)
        .apply(lambda h: agg.histogram_quantiles(h.index.get_level_values("score").to_numpy(), h.to_numpy()))
        .unstack()
    )
    out["penalty_units"] = agg.mean_table(aggs["taken"], "taken")
    sevens = aggs["sevens"]
    out["sevens_by_cards"] = agg.mean_table(sevens.groupby(level=["players", "cards_dealt"]).sum(), "score")
    out["sevens_passes_by_seat"] = agg.mean_table(
        sevens.groupby(level=["players", "rel_seat"]).sum(), "passes"
    )
    out["first_out_by_seat"] = agg.share(sevens, ["players", "rel_seat"], "first_out")
    first = aggs["first_deal"]
    out["wins_by_seat"] = agg.share(first, ["players", "rel_seat"], "winner")
    out["total_by_seat"] = agg.mean_table(first.groupby(level=["players", "rel_seat"]).sum(), "total")
    out["games"] = outcomes.groupby(level="players")["n"].sum().rename("games").to_frame()
    return out


def analyze(df: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The sixth deal's effect and every deal's score distribution, with 95% CIs
    (aggregated by the tally when ``df`` is a frame of whole games in order)."""
    players = int(df["players"].iat[0]) if len(df) and "players" in df.columns else None
    aggs = agg.tally_frame(SPEC, _COLUMNS, df, players) if players in k.PLAYERS else None
    return summarise(aggregate(df) if aggs is None else aggs)


# ------------------------------------------------------------ experiments
# ``sixth_deal_study`` and ``heuristic_edge`` live in ``cardmc.experiments.norwegian_jazz``;
# they stay importable from here.

_EXPERIMENTS = ("sixth_deal_study", "heuristic_edge")


def __getattr__(name: str):
    if name in _EXPERIMENTS:
        from cardmc.experiments import norwegian_jazz as experiments

        return getattr(experiments, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def deal_deck(players: int, deal: int) -> tuple[int, list[int], bool, str]:
    """Deal ``deal``'s deck mask, the cards each seat holds, whether a seat may
    hold one more (sevens, when the 52 cards do not divide), and the deck's name."""
    if deal == k.DEALS:
        return int(FULL52), [52 // players] * players, bool(52 % players), "the full deck"
    deck = int(k.ADJUSTED_MASK[players])
    return deck, [bin(deck).count("1") // players] * players, False, "docs/RULES.md: the adjusted deck"


# ------------------------------------------------------- advice and comparisons

odds = Deferred("cardmc.odds.norwegian_jazz", "odds")  # cardmc.odds("norwegian_jazz", ...): one deal's hand


def compare_measure(seats: tuple[int, ...], players: int):
    """``cardmc.compare``'s natural measure: the score per deal of the measured seats and their wins (the
    share of them that win the game)."""
    from cardmc.compare import seat_means

    return seat_means(seats, {"score per deal": "score", "wins": "winner"})


def decisions(rows, players: int) -> int:
    """``cardmc ladder``'s decisions in ``rows``: each deal's turns (every card played and every pass in
    sevens), which each of its rows repeats."""
    return int(rows["turns"].to_numpy(np.int64).sum()) // players


class NorwegianJazzSpec(GameSpec):
    """Norwegian Jazz's spec: its ``params`` end with the ``learned`` player's weights
    (``cardmc.norwegian_jazz_learned``), from ``k.P_WEIGHTS``."""

    def params(self, settings: dict[str, object]) -> np.ndarray:
        from cardmc.norwegian_jazz_learned import shipped_weights

        return np.concatenate([super().params(settings), shipped_weights()]).astype(np.int64)


SPEC = NorwegianJazzSpec(
    name="norwegian_jazz",
    title="Norwegian Jazz",
    deck=52,
    players=k.PLAYERS,
    default_players=4,
    rules={
        "rotate_dealer": Option(False, "bool", "the dealer moves one seat on each deal"),
        "first_out_bonus": Option(
            10, "int", "points for the first player out in sevens (sjueren: 80)", 0, 1000
        ),
        "play_out": Option(False, "bool", "sevens goes on until every hand is empty"),
    },
    options={
        "stop_early": Option(
            True,
            "bool",
            "end deals 2-4 after the trick that leaves no club / queen / KC "
            "in any hand (same scores, fewer plays)",
        ),
        **pimc.options(
            17,
            "deals 1-5; it plays as if the others played together against it, which costs it points "
            "from deeper than 5 tricks (four players: 0.2 s a deal with every seat searching from 7)",
            5,
        ),
        "pimc_sevens_cards": Option(
            0,
            "int",
            "in sevens the pimc player searches once this many cards "
            "or fewer are left in all hands, and plays as heuristic before (0: never; "
            "measured, the search does not beat the heuristic there)",
            0,
            52,
        ),
    },
    policies=k.POLICY_NAMES,
    default_policy="heuristic",
    unit="game of 6 deals",
    parse_policy=parse_policy,
    simulate_block=simulate_block,
    simulate_spans=simulate_spans,
    frame=frame,
    trace_game=trace_game,
    analyze=analyze,
    columns=k.COLUMNS,
    dealing=Dealing(deals=k.DEALS, deck=deal_deck),
    example=Example(
        hand=None,
        searched="pimc,heuristic,heuristic,heuristic",
        condition={"deal": 1},
        positions=(
            dict(
                hands=["JS 9S", "AS 6H", "KS 7H"],
                to_play=0,
                contract=1,
                seat=0,
                taken=[5, 5, 5],
                points=[0, 0, 0],
            ),
            dict(hands=["2S", "KS", "AS"], to_play=0, seat=0, contract=6),
        ),
        compile_seconds=10,
    ),
    study=Study("norwegian_jazz", quick=1_000, full=160_000),
    layout=_COLUMNS,
    dense_rows=k.max_rows,  # every game writes its rows, one game after another
    block=4096,  # a block's rows (7 seats: 17 MB) stay below the allocator's reuse threshold (32 MiB)
    # aggregate runs on several threads, from 5 players: blocks of 2048 games (heuristic play, 200,000 games,
    # two threads: 7 players 0.572-0.589 s against 0.588-0.637 s in blocks of 4096; 5 and 6 players 2-4%
    # faster); at 3 and 4 players the 4096 of any run (random play: 3% faster than 2048)
    aggregate_block=lambda players: 2048 if players >= 5 else 4096,
    tally=tally,
    aggregate=aggregate,
    summarise=summarise,
    advice=odds,
    natural_measure=compare_measure,
    ladder=Ladder(decisions=decisions),
    bench=(("random", "random", {}), ("heuristic", "heuristic", {}), ("learned", "learned", {})),
    solver=norwegian_jazz_solver.SOLVER,
    search_player=norwegian_jazz_solver.SEARCH_PLAYER,
    adviser=norwegian_jazz_solver.ADVISER,
    solved=norwegian_jazz_solver.SOLVED,
    trainer=Deferred("cardmc.norwegian_jazz_learned", "train"),
    odds_policy="learned",
)
