"""Differenzler at the Python edge: spec, frames, traces, analyses, calibration."""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pandas as pd

from cardmc import differenzler_solver, pimc, stats, trace_lines
from cardmc.frames import Categories, Columns
from cardmc.kernels import condition as kc
from cardmc.kernels import differenzler as k
from cardmc.kernels.cards import RANKS, SUITS, code
from cardmc.kernels.events import EV_DECLARE
from cardmc.registry import (
    Dealing,
    Deferred,
    Example,
    GameSpec,
    Ladder,
    Option,
    Study,
    UsageError,
    join_spans,
    seat_names,
    whole,
)

PLAY = {  # pimc: cardmc.pimc; learned: cardmc.differenzler_learned's weights
    "random": k.PLAY_RANDOM,
    "heuristic": k.PLAY_HEURISTIC,
    "pimc": k.PLAY_SCRIPTED,
    "learned": k.PLAY_LEARNED,
}
DECLARE = {  # learned: the table fitted under the learned player's own play
    "random": k.DECLARE_RANDOM,
    "heuristic": k.DECLARE_HEURISTIC,
    "calibrated": k.DECLARE_CALIBRATED,
    "learned": k.DECLARE_LEARNED,
}
NAMED = {
    "random": ("random", "random"),
    "heuristic": ("heuristic", "heuristic"),
    "calibrated": ("heuristic", "calibrated"),
    "pimc": ("pimc", "calibrated"),
    "learned": ("learned", "learned"),
}
CALIBRATION_FILE = "differenzler_calibration.csv"


def parse_policy(text: str, players: int = 4) -> np.ndarray:
    """Per-seat (play, declaration) codes from ``"calibrated"``,
    ``"heuristic:random"`` or a comma list of four such names."""
    parts = seat_names(text, players, "differenzler", example="calibrated")
    out = np.zeros((players, 2), dtype=np.int64)
    for s, part in enumerate(parts):
        if ":" in part:
            play, declare = (x.strip() for x in part.split(":", 1))
        elif part in NAMED:
            play, declare = NAMED[part]
        else:
            raise UsageError(f"unknown policy {part!r}; policies: {', '.join(NAMED)} or PLAY:DECLARE")
        if play not in PLAY:
            raise UsageError(f"unknown play policy {play!r}; play policies: {', '.join(PLAY)}")
        if declare not in DECLARE:
            raise UsageError(
                f"unknown declaration policy {declare!r}; declaration policies: {', '.join(DECLARE)}"
            )
        out[s] = PLAY[play], DECLARE[declare]
    return out


def calibration_path() -> Path:
    """The shipped calibration table, beside the kernels."""
    return Path(k.__file__).with_name("data") / CALIBRATION_FILE


def read_calibration(path: str | Path) -> np.ndarray:
    """The calibrated declaration per feature cell from a table file written
    by ``cardmc calibrate`` (-1: no data, the heuristic formula is used);
    ``UsageError`` naming a file that is not such a table."""
    from io import StringIO

    table = np.full(k.CAL_CELLS, -1, dtype=np.int64)
    try:
        df = pd.read_csv(StringIO(Path(path).read_text()), comment="#")
        cells, declared = df["cell"].to_numpy(), df["declared"].to_numpy()
    except (OSError, UnicodeError, ValueError, KeyError, pd.errors.ParserError) as exc:
        raise UsageError(f"cannot read calibration table {path} ({type(exc).__name__}: {exc})") from None
    ok = (
        np.issubdtype(cells.dtype, np.integer)
        and np.issubdtype(declared.dtype, np.integer)
        and ((cells >= 0) & (cells < k.CAL_CELLS)).all()
        and len(np.unique(cells)) == len(cells)
        and ((declared >= 0) & (declared <= k.DEAL_POINTS)).all()
    )
    if not ok:
        raise UsageError(
            f"{path} is not a calibration table: cells must be distinct whole numbers in "
            f"0..{k.CAL_CELLS - 1}, declarations in 0..{k.DEAL_POINTS}"
        )
    table[cells] = declared
    return table


@functools.lru_cache(maxsize=1)
def calibration_table() -> np.ndarray:
    """The shipped calibrated declarations per feature cell (all -1 if the
    file is missing: the heuristic formula is used)."""
    path = calibration_path()
    if not path.is_file():
        return np.full(k.CAL_CELLS, -1, dtype=np.int64)
    return read_calibration(path)


def simulate_block(
    seed, start, count, players, params, policies, calibration=None, condition=None, out=None
) -> np.ndarray:
    """Rows of games start..start+count-1; ``calibration`` is the table of
    calibrated declarations (default: the shipped one), ``condition`` the
    array of a ``cardmc.condition.Condition`` (None: unconditioned), ``out``
    a ``RowBuffer`` to hold the rows (``cardmc.kernels.columns``)."""
    return join_spans(
        *simulate_spans(seed, start, count, players, params, policies, calibration, condition, out)
    )


def simulate_spans(
    seed, start, count, players, params, policies, calibration=None, condition=None, out=None, after=None
):
    """``simulate_block``'s rows as the kernel left them, with its spans
    (``cardmc.registry.join_spans``), for a consumer that reads them span by
    span; ``after(p, rows, lo, hi)`` reads each slice's rows where they were
    written, right after (not for the search player's blocks)."""
    table = calibration_table() if calibration is None else calibration
    if pimc.has_pimc(policies, "differenzler"):
        return whole(
            pimc.play_block(
                "differenzler",
                seed,
                start,
                count,
                params,
                policies,
                kc.of(condition),
                k.max_rows(4, params),
                len(k.COLUMNS),
                k.max_events(params),
                table,
            )
        )
    return k.simulate(seed, start, count, players, params, policies, table, kc.of(condition), out, after)


_SMALL = {c: "int16" for c in k.COLUMNS}
_SMALL.update(
    {
        "game": "int64",
        "deal": "int8",
        "seat": "int8",
        "dealer": "int8",
        "rel": "int8",
        "extra": "int8",
        "tricks": "int8",
        "trumps": "int8",
        "trump_jack": "int8",
        "trump_nine": "int8",
        "aces": "int8",
        "tens": "int8",
        "kings": "int8",
        "len_c": "int8",
        "len_d": "int8",
        "len_h": "int8",
        "len_s": "int8",
        "winner": "int8",
        "tied": "int8",
    }
)
_CARD_CATS = Categories(tuple(code(s * 16 + r) for s in range(4) for r in range(4, 13)))


_COLUMNS = Columns(
    k.COLUMNS,
    {
        **_SMALL,
        "trump_card": _CARD_CATS,
        "trump": Categories(tuple(SUITS)),
        "play_policy": Categories(tuple(PLAY)),
        "declare_policy": Categories(tuple(DECLARE)),
    },
    cards=("trump_card",),
)


def frame(rows: np.ndarray) -> pd.DataFrame:
    """Rows as a DataFrame: small ints; the trump card, trump suit and policies as categoricals."""
    return _COLUMNS(rows)


def trace_game(
    seed: int, index: int, players: int, settings: dict, policy: str, calibration=None, condition=None
) -> dict:
    """One TRACE.md line: game ``index`` of ``seed``, replayed by the kernel."""
    seed, index, players, full = trace_lines.check(SPEC, seed, index, players, settings)
    params = SPEC.params(full)
    policies = parse_policy(policy, players)
    table = calibration_table() if calibration is None else calibration
    rows = np.zeros((k.max_rows(players, params), len(k.COLUMNS)), np.int32)
    events = np.zeros((k.max_events(params), 4), np.int64)
    if pimc.has_pimc(policies, "differenzler"):
        nrows, nev = pimc.play_game(
            "differenzler", seed, index, params, policies, rows, events, kc.of(condition), table
        )
    else:
        nrows, nev = k.play_game(
            seed, index, players, params, policies, table, rows, events, k.new_scratch(), kc.of(condition)
        )
    rows = rows[:nrows]

    def layout(number: int, dealer: int, leader: int, hands: list, plays: list) -> dict:
        r = trace_lines.seat_rows(rows, k.C_DEAL, k.C_SEAT, number)
        return {
            **trace_lines.plain_deal(number, dealer, leader, hands, plays),
            "trump_card": code(int(r[0, k.C_TRUMP_CARD])),
            "trump": SUITS[int(r[0, k.C_TRUMP])],
            "declared": r[:, k.C_DECLARED].tolist(),
            "made": r[:, k.C_MADE].tolist(),
            "penalty": r[:, k.C_PENALTY].tolist(),
            "score": r[:, k.C_PENALTY].tolist(),
        }

    # the declarations come from the rows, beside what was made
    deals = trace_lines.deals(events[:nev], players, layout, {EV_DECLARE: trace_lines.skip})
    last = trace_lines.seat_rows(rows, k.C_DEAL, k.C_SEAT, rows[:, k.C_DEAL].max())
    return trace_lines.line(
        SPEC,
        seed,
        index,
        players,
        full,
        policy,
        deals,
        last[:, k.C_TOTAL].tolist(),
        trace_lines.seats_where(last[:, k.C_WINNER] == 1),
    )


# ------------------------------------------------------------------ analyses


MADE_FEATURES = ("trumps", "trump_jack", "trump_nine", "aces", "tens")
PENALTY_BINS = [-1, 0, 5, 10, 20, 30, 50, 80, 157]


def aggregate(df: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The mergeable counts and sums ``summarise`` needs (see analysis/aggregate.py):
    additive over any split of the rows, so chunks of a run merge exactly."""
    from cardmc import aggregate as agg

    by = ["play_policy", "declare_policy"]
    first = (df["deal"] == 0).to_numpy()
    return {
        "penalty": agg.counts(df, [*by, "penalty"]),
        "penalty_by_rel": agg.moments(df, [*by, "rel"], ["penalty"]),
        "penalty_by_trump_card": agg.moments(df, [*by, "trump_card"], ["penalty"]),
        "made_by_hand": agg.moments(df, [*by, *MADE_FEATURES], ["made"]),
        "made_by_declared": agg.moments(df, [*by, "declared"], ["made"]),
        "first_deals": agg.counts(df, [*by, "winner", "tied"], where=first),
        "games": agg.counts(df, by, where=first & (df["seat"] == 0).to_numpy()),
        "rows": agg.counts(df, by),
    }


def tally(spec: GameSpec, players: int, params: np.ndarray):
    """The aggregates of ``aggregate`` tallied straight from the kernel's rows
    (``cardmc.kernels.tally.differenzler``), block by block."""
    from cardmc import aggregate as agg
    from cardmc.kernels import tally as kt

    dtypes = frame(np.zeros((0, len(k.COLUMNS)), np.int32)).dtypes

    def key(name: str, size: int = 0, lo: int = 0) -> tuple:
        dtype = dtypes[name]
        return name, dtype, lo, len(dtype.categories) if isinstance(dtype, pd.CategoricalDtype) else size

    by = [key("play_policy"), key("declare_policy")]
    points = kt.PENALTY
    grid = agg.Grid(
        [
            ("penalty", [*by, key("penalty", points)], []),
            ("penalty_by_rel", [*by, key("rel", 4)], ["penalty"]),
            ("penalty_by_trump_card", [*by, key("trump_card")], ["penalty"]),
            (
                "made_by_hand",
                [
                    *by,
                    key("trumps", 10),
                    key("trump_jack", 2),
                    key("trump_nine", 2),
                    key("aces", 5),
                    key("tens", 5),
                ],
                ["made"],
            ),
            ("made_by_declared", [*by, key("declared", points)], ["made"]),
            ("first_deals", [*by, key("winner", 2), key("tied", 2)], []),
            ("games", by, []),
            ("rows", by, []),
        ]
    )
    return agg.GridTally(spec, players, params, grid, kt.differenzler)


def _by_policy(table: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """A table keyed by play and declaration policy, summed per ``policy``
    (``PLAY:DECLARE``) and ``keys``."""
    t = table.reset_index()
    t.insert(0, "policy", t["play_policy"].astype(str) + ":" + t["declare_policy"].astype(str))
    return t.groupby(["policy", *keys], observed=True, sort=True)[list(table.columns)].sum()


def summarise(aggs: dict) -> dict[str, pd.DataFrame]:
    """Declaration accuracy and game results from ``aggregate`` tables (merged
    over any number of chunks), every figure with its 95% CI."""
    from cardmc import aggregate as agg

    out: dict[str, pd.DataFrame] = {}
    hist = _by_policy(aggs["penalty"], ["penalty"]).reset_index()
    out["penalty_by_policy"] = agg.mean_table(agg.histogram_moments(hist, "penalty", ["policy"]), "penalty")
    out["penalty_quantiles"] = pd.DataFrame(
        {
            p: agg.histogram_quantiles(g["penalty"].to_numpy(), g["n"].to_numpy())
            for p, g in hist.groupby("policy", sort=True)
        }
    ).T.rename_axis("policy")
    binned = hist.assign(penalty=pd.cut(hist["penalty"], PENALTY_BINS))
    counts = binned.groupby(["policy", "penalty"], observed=True)["n"].sum().reset_index()
    out["penalty_distribution"] = _shares(counts, "policy")
    out["penalty_by_rel"] = agg.mean_table(_by_policy(aggs["penalty_by_rel"], ["rel"]), "penalty")
    cards = aggs["penalty_by_trump_card"].reset_index()
    cards["trump_rank"] = cards["trump_card"].astype(str).str[0]
    by_rank = agg.mean_table(
        _by_policy(
            cards.set_index(["play_policy", "declare_policy", "trump_rank"]).drop(columns="trump_card"),
            ["trump_rank"],
        ),
        "penalty",
    )
    out["penalty_by_trump_rank"] = by_rank.reindex(
        [
            (p, r)
            for p in by_rank.index.get_level_values(0).unique()
            for r in RANKS[4:][::-1]
            if (p, r) in by_rank.index
        ]
    )
    for feature in MADE_FEATURES:
        out[f"made_by_{feature}"] = agg.mean_table(_by_policy(aggs["made_by_hand"], [feature]), "made")
    declared = aggs["made_by_declared"].reset_index()
    declared["declared_bin"] = pd.cut(declared["declared"], np.arange(-1, 170, 10))
    declared = declared.drop(columns="declared").set_index(["play_policy", "declare_policy", "declared_bin"])
    out["calibration"] = agg.mean_table(_by_policy(declared, ["declared_bin"]), "made")
    first = _by_policy(aggs["first_deals"], ["winner", "tied"])
    out["wins_by_policy"] = agg.share(first, ["policy"], "winner")
    first_rows = int(first["n"].sum())
    tied = agg.events(first, "tied")
    out["games"] = pd.DataFrame(
        {
            "games": [int(aggs["games"]["n"].sum())],
            "deals": [int(aggs["rows"]["n"].sum()) // 4],
            "tie_break_share": [tied / first_rows if first_rows else np.nan],
        }
    )
    return out


def analyze(df: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Declaration accuracy and game results, every figure with its 95% CI
    (aggregated by the tally when ``df`` is a frame of games in order)."""
    from cardmc import aggregate as agg

    aggs = agg.tally_frame(SPEC, _COLUMNS, df)
    return summarise(aggregate(df) if aggs is None else aggs)


def _shares(counts: pd.DataFrame, by: str) -> pd.DataFrame:
    total = counts.groupby(by, observed=True)["n"].transform("sum")
    lo, hi = stats.wilson(counts["n"], total)
    return counts.assign(share=counts["n"] / total, ci_low=lo, ci_high=hi, of=total)


# ``compare_declarations`` lives in ``cardmc.experiments.differenzler``; it stays importable from here.
_EXPERIMENTS = ("compare_declarations",)


def __getattr__(name: str):
    if name in _EXPERIMENTS:
        from cardmc.experiments import differenzler as experiments

        return getattr(experiments, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def calibration_cells(rel, trumps, trump_jack, trump_nine, side) -> np.ndarray:
    """The feature cell of each hand (arrays of its rows' columns), as the kernels'
    ``calibration_cell`` computes it from the hand."""
    t = np.minimum(np.asarray(trumps, np.int64), k.CAL_TRUMPS - 1)
    b = np.minimum(np.asarray(side, np.int64) // 8, k.CAL_SIDE - 1)
    return (
        ((np.asarray(rel, np.int64) * k.CAL_TRUMPS + t) * 2 + trump_jack) * 2 + trump_nine
    ) * k.CAL_SIDE + b


def fit_calibration(df: pd.DataFrame, min_n: int = 200) -> pd.DataFrame:
    """Median made points per feature cell (the median minimises the expected
    absolute penalty); cells with fewer than ``min_n`` hands are left out."""
    col = {
        c: df[c].to_numpy().astype(np.int64) for c in ("side", "trumps", "rel", "trump_jack", "trump_nine")
    }
    cell = calibration_cells(col["rel"], col["trumps"], col["trump_jack"], col["trump_nine"], col["side"])
    g = pd.DataFrame({"cell": cell, "made": df["made"].to_numpy()}).groupby("cell")["made"]
    table = pd.DataFrame({"declared": g.median().round().astype(int), "n": g.size()}).reset_index()
    table = table[table["n"] >= min_n]
    c = table["cell"].to_numpy()
    table.insert(1, "side_bin", c % k.CAL_SIDE)
    table.insert(1, "trump_nine", (c // k.CAL_SIDE) % 2)
    table.insert(1, "trump_jack", (c // (k.CAL_SIDE * 2)) % 2)
    table.insert(1, "trumps", (c // (k.CAL_SIDE * 4)) % k.CAL_TRUMPS)
    table.insert(1, "rel", c // (k.CAL_SIDE * 4 * k.CAL_TRUMPS))
    return table


# ------------------------------------------------------- advice and comparisons

odds = Deferred("cardmc.odds.differenzler", "odds")  # cardmc.odds("differenzler", ...): what to declare


def compare_measure(seats: tuple[int, ...], players: int):
    """``cardmc.compare``'s natural measure: the penalty per hand of the measured seats (the four
    regular deals, tie-breaks left out)."""
    from cardmc.compare import at_seats, per_game

    def measure(rows):
        keep = at_seats(rows, seats) & (rows["extra"].to_numpy() == 0)
        return per_game(rows, rows["penalty"], "penalty", keep).to_frame()

    return measure


class DifferenzlerSpec(GameSpec):
    """Differenzler's spec: its ``params`` end with the ``learned`` player's weights
    (``cardmc.differenzler_learned``), from ``k.P_WEIGHTS``, then its declaration per feature cell, from
    ``k.P_LEARNED_TABLE``."""

    def params(self, settings: dict[str, object]) -> np.ndarray:
        from cardmc.differenzler_learned import shipped_calibration, shipped_weights

        options = super().params(settings)
        return np.concatenate([options, shipped_weights(), shipped_calibration()]).astype(np.int64)


SPEC = DifferenzlerSpec(
    name="differenzler",
    title="Differenzler Jass",
    deck=36,
    players=(4,),
    default_players=4,
    rules={
        "open_declarations": Option(False, "bool", "declare in turn, seeing earlier declarations"),
        "max_extra_deals": Option(4, "int", "tie-break deals at most after the four", 0, 16),
    },
    options={
        **pimc.options(9, "a deal with every seat searching: 0.12 s from 5 tricks, 1.6 s from 6", 6),
    },
    policies=("random", "heuristic", "calibrated", "pimc", "learned"),
    default_policy="calibrated",
    unit="game of 4 deals (plus tie-breaks)",
    parse_policy=parse_policy,
    simulate_block=simulate_block,
    simulate_spans=simulate_spans,
    frame=frame,
    trace_game=trace_game,
    analyze=analyze,
    columns=k.COLUMNS,
    dealing=Dealing(trump_card=True),
    example=Example(
        hand="JS 9S AS KH QH TD 8D 7C 6C",
        searched="pimc,calibrated,calibrated,calibrated",
        odds_searched={"candidates": [0]},
        positions=(
            dict(
                hands=["JS 9S", "AS 6H", "KS 7H", "QS 8H"],
                to_play=0,
                contract="S",
                seat=0,
                declared=40,
                taken=[3, 2, 1, 1],
                points=[10, 20, 30, 40],
            ),
        ),
        compile_seconds=18,
    ),
    study=Study("differenzler", quick=4_000, full=600_000),
    layout=_COLUMNS,
    block=8192,  # rows of a block stay below the allocator's reuse threshold
    tally=tally,
    aggregate=aggregate,
    summarise=summarise,
    advice=odds,
    natural_measure=compare_measure,
    # calibrated beside heuristic: pimc declares by the calibrated rule, so pimc against calibrated is play alone
    ladder=Ladder(lineup=("random", "heuristic", "calibrated", "learned", "pimc", "pimc@2")),
    bench=(("random", "random", {}), ("heuristic+calibrated", "calibrated", {}), ("learned", "learned", {})),
    solver=differenzler_solver.SOLVER,
    search_player=differenzler_solver.SEARCH_PLAYER,
    adviser=differenzler_solver.ADVISER,
    solved=differenzler_solver.SOLVED,
    trainer=Deferred("cardmc.differenzler_learned", "train"),
    odds_policy="learned",
)
