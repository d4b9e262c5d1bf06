"""English Jazz for the exact solver, the search player and solved runs: its
spec's ``solver``, ``search_player`` and ``solved``, and the batch solver of
sweeps.

The solver's values (``cardmc.solve``), for ``seat`` against the other two
playing together: ``most_tricks``, the most tricks it can be sure of (trump
set by the play, as in the rules), and ``all_tricks``, 1 when that is all
12. ``contract``: the trump so far (none by default).

The search player plays for the deal score (rules A-E) it can make sure
of, the other two playing together against it: not a sum over tricks, so
its own search (``cardmc.kernels.english_jazz_search``) values the cards;
the solver's rules give only the legal cards. The highest mean.

A solved run's rows carry ``solved_tricks`` and ``solved_sweep``; their
table, ``solved_sweeps``: how often a hand could sweep, and did, by position.
``could_sweep`` asks "could this hand take all 12 tricks" of every hand of
many games at once (``cardmc.kernels.solve_sweeps``).
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd

from cardmc import aggregate as agg
from cardmc import stats
from cardmc.kernels import cards as C
from cardmc.kernels import english_jazz as k
from cardmc.kernels import solve_rules as SR
from cardmc.objectives import scaled
from cardmc.registry import Adviser, SearchPlayerSpec, Solved, SolverSpec, UsageError
from cardmc.solved_tables import flag, need
from cardmc.stats import named, paired_outcomes, rate

HAND = 12  # cards a hand, and tricks a deal
SWEEP_TT_MIB = 16  # a sweep probe is mostly answered by its bounds: a small table a thread
MILLION = 1_000_000


def contract(given) -> tuple[int, int]:
    """(no contract, the trump so far or -1) of ``none`` or a suit letter."""
    if given is None or str(given).lower() == "none":
        return 0, -1
    if str(given).upper() not in C.SUITS or len(str(given)) != 1:
        raise UsageError(f"unknown English Jazz trump {given!r}: none or one of C, D, H, S")
    return 0, C.SUITS.index(str(given).upper())


def values(pos, search, declared) -> dict:
    """The seat's most sure tricks, and whether they are all of them."""
    v, per = scaled(search("most_tricks"), pos.taken[pos.seat])
    swept = (int(v == HAND), {c: int(x == HAND) for c, x in per.items()})
    return {"most_tricks": (v, per), "all_tricks": swept}


def play(seed, index, players, params, policies, rows, events, cond, script, table):
    return k.play_game(seed, index, players, params, policies, rows, events, cond, script)


def seen(view: dict, number: int, rows) -> None:
    """No contract: trump is set by the play."""
    view["contract"] = 0


def card_values(view: dict, hands: np.ndarray) -> dict[int, int]:
    """The deal score the seat can make sure of after each legal card."""
    from cardmc.kernels import english_jazz_search as E
    from cardmc.kernels.solve_search import MAX_MOVES

    plays = np.array([c for _, c in view["plays"]] + [0], np.int64)
    first = view["plays"][0][0] if view["plays"] else view["leader"]
    out_c = np.zeros(MAX_MOVES, np.int64)
    out_v = np.zeros(MAX_MOVES, np.int64)
    m = E.card_values(hands.copy(), plays, len(view["plays"]), first, view["me"], out_c, out_v)
    return {int(out_c[i]): int(out_v[i]) for i in range(m)}


# ---------------------------------------------------------------- advice


def advice_view(view: dict, own: dict) -> None:
    """No contract: the plays set trump (the first card that does not follow suit)."""
    view["contract"] = 0


def advice_traced(line: dict, deal: dict, seat: int) -> dict:
    return {}


def heuristic_card(view: dict, params: np.ndarray) -> int:
    """The heuristic's card, with the tricks and points taken so far this deal."""
    from cardmc.kernels.english_jazz import view_card

    plays = np.array([c for _, c in view["plays"]], np.int64)
    seats = np.array([s for s, _ in view["plays"]], np.int64)
    return int(view_card(np.uint64(view["hand"]), plays, seats, len(plays), view["me"]))


def learned_card(view: dict, params: np.ndarray) -> int:
    """The learned player's card: by the weights after the options in ``params`` when they are there (a
    spec's ``params``), else by the shipped weights, the ones the spec appends."""
    from cardmc.english_jazz_learned import shipped_weights, view_features
    from cardmc.kernels.english_jazz_learned import NF

    weights = params[k.P_WEIGHTS :] if len(params) >= k.P_WEIGHTS + NF else shipped_weights()
    return view_features(view, weights)[2]


def advice_value(view: dict, gained: int, value: int) -> float:
    return value


ADVISER = Adviser(
    measure="the deal score (rules A-E, -2 to 2) the seat can make sure of, the other two playing together "
    "against it",
    options={},
    view=advice_view,
    traced=advice_traced,
    heuristic=heuristic_card,
    value=advice_value,
    random=k.RANDOM,
    cards={k.LEARNED: learned_card},
)


# ---------------------------------------------------------------- solved runs

SOLVED_COLUMNS = ("solved_tricks", "solved_sweep")


def solved_deal(solve, deal: dict, hands: list[str], lead: int, players: int, tt_mib: float) -> list[dict]:
    """Each seat's most sure tricks and whether it could sweep."""
    out = []
    for seat in range(players):
        v = solve(hands=hands, to_play=lead, seat=seat, tt_mib=tt_mib, cards=False).value
        out.append({"solved_tricks": v["most_tricks"], "solved_sweep": v["all_tricks"]})
    return out


def aggregate_solved(rows: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """By position: hands that could sweep, that did, one without the other, sure and taken tricks."""
    need(rows, "english_jazz", SOLVED_COLUMNS)
    could, did = rows["solved_sweep"].to_numpy(np.int64) == 1, rows["all_tricks"].to_numpy(np.int64) == 1
    t = pd.DataFrame(
        {
            "position": rows["position"].to_numpy(np.int64),
            "could": flag(could),
            "did": flag(did),
            "only_could": flag(could & ~did),
            "only_did": flag(~could & did),
            "sure_tricks": rows["solved_tricks"].to_numpy(np.int64),
            "tricks": rows["tricks"].to_numpy(np.int64),
        }
    )
    counted = ["could", "did", "only_could", "only_did", "sure_tricks", "tricks"]
    return {"solved_sweeps": agg.moments(t, ["position"], counted)}


def summarise_solved(aggs: dict) -> pd.DataFrame:
    """Every hand, then by position: sweeps per million it could make and
    made (Wilson 95% CIs), could minus did (paired), mean sure and taken tricks."""
    from cardmc.english_jazz import POSITIONS

    t = aggs["solved_sweeps"]
    parts = [("every hand", t)] + [(POSITIONS[p], t[t.index == p]) for p in (1, 2, 0)]
    out = []
    for label, part in parts:
        s = part.sum()
        n = int(s["n"])
        if n == 0:
            continue
        row = {"hands": label}
        row.update(rate("could_sweep_per_million", int(s["could_sum"]), n, MILLION, "could_sweep_events"))
        row.update(rate("did_sweep_per_million", int(s["did_sum"]), n, MILLION, "did_sweep_events"))
        diff = paired_outcomes(int(s["only_could_sum"]), int(s["only_did_sum"]), n, MILLION)
        row.update(named("could_minus_did_per_million", diff))
        for name in ("sure_tricks", "tricks"):
            mean = stats.mean_from_sums(int(s[f"{name}_sum"]), int(s[f"{name}_sumsq"]), n)
            row.update(named(f"mean_{name}", mean))
        row["n"] = n
        out.append(row)
    return pd.DataFrame(out).set_index("hands")


def could_sweep(
    seed: int, start: int, games: int, threads: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Could seat s of deal d of game start+g take all 12 tricks against the
    other two, every hand seen (the deals of ``cardmc.simulate``;
    ``cardmc.kernels.solve_sweeps``)? (games, 12, 3) bool, and the hands as
    dealt (uint64 masks). Games side by side on ``threads`` threads, each
    with its own table."""
    from cardmc.kernels.jit import in_threads
    from cardmc.kernels.solve_sweeps import sweeps

    out = np.zeros((games, k.DEALS, k.PLAYERS), np.int8)
    dealt = np.zeros((games, k.DEALS, k.PLAYERS), np.uint64)
    shares = max(1, min(threads or os.cpu_count() or 1, games))

    def work(share: int) -> None:
        lo, hi = games * share // shares, games * (share + 1) // shares
        sweeps(seed, start + lo, hi - lo, *sweep_table(), out[lo:hi], dealt[lo:hi])

    in_threads(work, shares)
    return out.astype(bool), dealt


def sweep_table(players: int = k.PLAYERS):
    """A new rules array and a small table and buffers for ``can_take_all``
    / ``sweeps`` (``cardmc.kernels.solve_sweeps``; one per thread)."""
    from cardmc.kernels import solve_search as S
    from cardmc.solve import ENTRY_BYTES, rules_array

    entries = 1 << int(np.log2(SWEEP_TT_MIB * 2**20 / ENTRY_BYTES))
    R = rules_array("english_jazz", players, 0, 0, 0)
    R[SR.TT_MASK] = entries - 1
    return (R, *S.new_table(entries), *S.new_buffers())


SOLVER = SolverSpec(
    code=SR.ENGLISH_JAZZ,
    hand_size=lambda players: HAND,
    dealt=lambda players: C.FULL36,
    contract=contract,
    values=values,
    objectives=("most_tricks",),
    contracts=(None,),
)
SEARCH_PLAYER = SearchPlayerSpec(
    scripted=k.PIMC,
    samples=k.P_PIMC_SAMPLES,
    tricks=k.P_PIMC_TRICKS,
    play=play,
    objective="most_tricks",  # for the legal cards: the score is its own search's
    sign=-1,  # scores: the most
    seen=seen,
    cards=card_values,
)
SOLVED = Solved(
    columns=SOLVED_COLUMNS,
    deal=solved_deal,
    aggregate=aggregate_solved,
    summarise=summarise_solved,
    table="solved_sweeps",
)
