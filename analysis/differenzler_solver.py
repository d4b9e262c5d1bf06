"""Differenzler for the exact solver, the search player and solved runs: its
spec's ``solver``, ``search_player`` and ``solved``.

The solver's values (``cardmc.solve``), for ``seat``: ``sure_at_least``, the
points it can be sure to reach whatever the others do; ``sure_at_most``, the
points it can be sure not to exceed; and, given ``declared``,
``least_penalty``, the least |declared - made| it can be sure of.
``contract``: the trump suit.

The search player plays for the least penalty it can be sure of whatever
the other three do (its declaration's distance to what it still needs): the
lowest mean. It reads the face-up trump card from the deal's rows; the
others' declarations are not used.

A solved run's rows carry ``solved_at_least`` and ``solved_at_most``; their
table, ``solved_declarations``: by declaration policy, where each
declaration falls against the seat's two sure values.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cardmc import aggregate as agg
from cardmc import stats
from cardmc.kernels import cards as C
from cardmc.kernels import differenzler as k
from cardmc.kernels import solve_rules as SR
from cardmc.objectives import scaled
from cardmc.registry import Adviser, Deferred, SearchPlayerSpec, Solved, SolverSpec, Start, UsageError
from cardmc.solved_tables import flag, measure, need

HAND = 9


def contract(given) -> tuple[int, int]:
    """(the rules' trump suit, no trump set by the play) of a suit letter."""
    if str(given).upper() not in C.SUITS or len(str(given)) != 1:
        raise UsageError(f"unknown Differenzler trump {given!r}: one of C, D, H, S")
    return C.SUITS.index(str(given).upper()), -1


def values(pos, search, declared) -> dict:
    """The seat's two sure values and, given its declaration, its least sure penalty."""
    so_far = pos.points[pos.seat]
    out = {
        "sure_at_least": scaled(search("sure_at_least"), so_far),
        "sure_at_most": scaled(search("sure_at_most"), so_far),
    }
    if declared is not None:
        if not 0 <= int(declared) <= k.DEAL_POINTS:
            raise UsageError(f"declared must be 0..{k.DEAL_POINTS}, not {declared!r}")
        out["least_penalty"] = search("least_penalty", int(declared) - so_far)
    return out


def play(seed, index, players, params, policies, rows, events, cond, script, table):
    return k.play_game(
        seed, index, players, params, policies, table, rows, events, k.new_scratch(), cond, script
    )


def seen(view: dict, number: int, rows) -> None:
    """The face-up trump card, which the dealer holds until it is played, and its suit, the contract."""
    card = int(rows[k.PLAYERS * number, k.C_TRUMP_CARD])
    view.update(trump_card=card, contract=card >> 4)


def target(view: dict, gained: int) -> int:
    """What the seat's declaration still needs."""
    return int(view["declared"]) - gained


# ---------------------------------------------------------------- advice


def advice_view(view: dict, own: dict) -> None:
    """The face-up trump card (the dealer's until played; its suit is trump)
    and the seat's own declaration, which the penalty is counted against."""
    card, declared = own.get("trump_card"), own.get("declared")
    if card is None or declared is None:
        raise UsageError(
            "differenzler advice needs the face-up trump card (trump_card=, --trump-card) and the "
            "seat's declaration (declared=, --declared)"
        )
    if isinstance(card, str):
        try:
            card = C.parse(card.strip(), 36)
        except ValueError:
            raise UsageError(f"unknown trump card {card!r} for a 36-card deck") from None
    if not isinstance(card, (int, np.integer)) or not (C.FULL36 >> int(card)) & 1:
        raise UsageError(f"unknown trump card {card!r} for a 36-card deck")
    try:
        declared = int(declared)
    except (TypeError, ValueError):
        raise UsageError(f"declared must be a whole number 0..{k.DEAL_POINTS}, not {declared!r}") from None
    if not 0 <= declared <= k.DEAL_POINTS:
        raise UsageError(f"declared must be 0..{k.DEAL_POINTS}, not {declared}")
    view.update(trump_card=int(card), contract=int(card) >> 4, declared=declared)


def advice_traced(line: dict, deal: dict, seat: int) -> dict:
    return {"trump_card": deal["trump_card"], "declared": deal["declared"][seat]}


def heuristic_card(view: dict, params: np.ndarray) -> int:
    """The heuristic's card towards the seat's declaration."""
    from cardmc.kernels.differenzler import view_card

    plays = np.array([c for _, c in view["plays"]], np.int64)
    seats = np.array([s for s, _ in view["plays"]], np.int64)
    return int(
        view_card(
            np.uint64(view["hand"]), plays, seats, len(plays), view["contract"], view["declared"], view["me"]
        )
    )


def advice_value(view: dict, gained: int, value: int) -> float:
    """The least penalty the seat can be sure of: the search's distance already counts the whole deal."""
    return value


ADVISER = Adviser(
    measure="the penalty |declared - made| the seat can be sure of whatever the other three do",
    options={
        "trump_card": "the face-up trump card, held by the dealer until played",
        "declared": "the seat's own declaration",
    },
    view=advice_view,
    traced=advice_traced,
    heuristic=heuristic_card,
    value=advice_value,
    random=k.PLAY_RANDOM,
    cards={k.PLAY_LEARNED: Deferred("cardmc.differenzler_learned", "learned_card")},
    start=Start(made="declared", choices=Deferred("cardmc.differenzler_start", "choices")),
)


# ---------------------------------------------------------------- solved runs

SOLVED_COLUMNS = ("solved_at_least", "solved_at_most")


def solved_deal(solve, deal: dict, hands: list[str], lead: int, players: int, tt_mib: float) -> list[dict]:
    """Each seat's two sure values under the deal's trump."""
    out = []
    for seat in range(players):
        v = solve(
            hands=hands, to_play=lead, contract=deal["trump"], seat=seat, tt_mib=tt_mib, cards=False
        ).value
        out.append({"solved_at_least": v["sure_at_least"], "solved_at_most": v["sure_at_most"]})
    return out


def aggregate_solved(rows: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """By declaration policy: declarations below, above and between the two sure values, and how far above."""
    need(rows, "differenzler", SOLVED_COLUMNS)
    declared = rows["declared"].to_numpy(np.int64)
    low, high = rows["solved_at_least"].to_numpy(np.int64), rows["solved_at_most"].to_numpy(np.int64)
    t = pd.DataFrame(
        {
            "declare_policy": rows["declare_policy"],
            "below": flag(declared < low),
            "above": flag(declared > high),
            "between": flag((declared >= low) & (declared <= high)),
            "over": declared - low,
        }
    )
    return {"solved_declarations": agg.moments(t, ["declare_policy"], ["below", "above", "between", "over"])}


def summarise_solved(aggs: dict) -> pd.DataFrame:
    """By declaration policy: the share of declarations below the points the
    seat can be sure to reach, above the points it can be sure not to
    exceed, and between (Wilson 95% CIs); the mean of declared minus sure at
    least (95% CI)."""
    out = []
    for policy, r in aggs["solved_declarations"].iterrows():
        n = int(r["n"])
        if n == 0:
            continue
        places = (("below sure at least", "below"), ("above sure at most", "above"), ("between", "between"))
        for name, col in places:
            out.append({"declare_policy": policy, **measure(name, stats.proportion(int(r[f"{col}_sum"]), n))})
        over = stats.mean_from_sums(int(r["over_sum"]), int(r["over_sumsq"]), n)
        out.append({"declare_policy": policy, **measure("declared minus sure at least", over)})
    return pd.DataFrame(out).set_index(["declare_policy", "measure"])


SOLVER = SolverSpec(
    code=SR.DIFFERENZLER,
    hand_size=lambda players: HAND,
    dealt=lambda players: C.FULL36,
    contract=contract,
    values=values,
    objectives=("sure_at_least", "sure_at_most"),
    contracts=tuple(C.SUITS),
    last_trick=k.LAST_TRICK,
)
SEARCH_PLAYER = SearchPlayerSpec(
    scripted=k.PLAY_SCRIPTED,
    samples=k.P_PIMC_SAMPLES,
    tricks=k.P_PIMC_TRICKS,
    play=play,
    objective="least_penalty",
    sign=1,  # penalties: the least
    seen=seen,
    target=target,
)
SOLVED = Solved(
    columns=SOLVED_COLUMNS,
    deal=solved_deal,
    aggregate=aggregate_solved,
    summarise=summarise_solved,
    table="solved_declarations",
)
