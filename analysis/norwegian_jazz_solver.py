"""Norwegian Jazz for the exact solver, the search player and solved runs:
its spec's ``solver``, ``search_player`` and ``solved``.

The solver's values (``cardmc.solve``), deals 1-5 (``contract`` = the deal
number), for ``seat``: ``held_to``, the score the others playing together
can hold it to, it playing best, and ``escape``, its score when every seat
helps it (penalty units times the deal's unit score). Deal 6, sevens
(``contract=6``), is not a trick game: its own solver,
``cardmc.solve_sevens`` (``out_first`` and ``score``).

The search player plays, in deals 1-5, for the least penalty the others
can hold it to: the lowest mean; in sevens it searches apart
(``cardmc.pimc_sevens``), once ``pimc_sevens_cards`` cards or fewer are left.

A solved run's rows carry ``solved_held_to`` and ``solved_escape`` (deals
1-5), ``solved_out_first`` and ``solved_score`` (sevens), the other kind's
missing; their table, ``solved_deals``: by players and deal, the mean score
against the sure one, and in sevens how often a seat could go out first
and did.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cardmc import aggregate as agg
from cardmc import stats
from cardmc.kernels import norwegian_jazz as k
from cardmc.kernels import solve_rules as SR
from cardmc.objectives import scaled
from cardmc.registry import Adviser, SearchPlayerSpec, Solved, SolverSpec, UsageError
from cardmc.solved_tables import flag, need
from cardmc.stats import named, rate

SEVENS = k.DEALS  # the sixth deal's number


def contract(given) -> tuple[int, int]:
    """(the deal number, no trump) of a trick deal's number, 1-5."""
    if str(given) not in ("1", "2", "3", "4", "5"):
        raise UsageError(f"unknown Norwegian Jazz deal {given!r}: 1 to 6")
    return int(given), -1


def apart(given):
    """Sevens' own solver for deal 6; None for the trick deals."""
    if str(given) != str(SEVENS):
        return None
    from cardmc.solve_sevens import solve_position

    return solve_position


def values(pos, search, declared) -> dict:
    """What the seat is held to and its escape, in the deal's score (penalty units times its unit)."""
    unit = int(k.UNIT_SCORE[pos.param])
    so_far = unit * pos.points[pos.seat]  # penalty units taken so far
    return {
        "held_to": scaled(search("held_to"), so_far, unit),
        "escape": scaled(search("escape"), so_far, unit),
    }


def play(seed, index, players, params, policies, rows, events, cond, script, table):
    written = k.play_games(
        seed, index, 1, players, params, policies, rows, 0, events, *k.new_scratch(players), cond, script
    )
    return k.DEALS * players, written


def seen(view: dict, number: int, rows) -> None:
    """The deal number (1-5), the rules' contract."""
    view["contract"] = number + 1


def sevens_card(events: np.ndarray, players: int, samples: int, rng, tt, params: np.ndarray) -> int | None:
    """A decision in sevens, by its own search (``cardmc.pimc_sevens``); None in a trick deal."""
    from cardmc import pimc_sevens as ps

    if not ps.in_sevens(events):
        return None
    return ps.decide(events, players, samples, rng, tt, int(params[k.P_FIRST_OUT_BONUS]))


# ---------------------------------------------------------------- advice


def advice_view(view: dict, own: dict) -> None:
    """The deal number, 1-5 (the trick deals; the rules' contract)."""
    number = own.get("number")
    if number is None:
        raise UsageError("norwegian_jazz advice needs the deal number (number=, --number): 1 to 5")
    if str(number).strip() == str(SEVENS):
        raise UsageError("norwegian_jazz advice covers the trick deals 1-5, not sevens (deal 6)")
    view["contract"] = view["number"] = contract(str(number).strip())[0]


def advice_traced(line: dict, deal: dict, seat: int) -> dict:
    return {"number": deal["number"]}


def heuristic_card(view: dict, params: np.ndarray) -> int:
    """The heuristic's card of a trick deal."""
    from cardmc.kernels.norwegian_jazz import view_card

    plays = np.array([c for _, c in view["plays"]], np.int64)
    return int(
        view_card(
            view["number"],
            np.uint64(view["hand"]),
            plays,
            len(plays),
            view["players"],
            np.uint64(view["deck"]),
        )
    )


def learned_card(view: dict, params: np.ndarray) -> int:
    """The learned player's card of a trick deal: by the weights after the options in ``params`` when they are
    there (a spec's ``params``), else by the shipped weights, the ones the spec appends."""
    from cardmc.norwegian_jazz_learned import shipped_weights, view_features

    weights = params[k.P_WEIGHTS :] if len(params) >= k.P_WEIGHTS + k.NWEIGHTS else shipped_weights()
    return view_features(view, weights)[2]


def advice_value(view: dict, gained: int, value: int) -> float:
    """Penalty points: the units taken so far and from here, times the deal's unit score."""
    return -int(k.UNIT_SCORE[view["number"]]) * (gained + value)


ADVISER = Adviser(
    measure="the penalty points (units times the deal's unit score) the others playing together can hold the "
    "seat to, it playing best",
    options={"number": "the deal number, 1 to 5"},
    view=advice_view,
    traced=advice_traced,
    heuristic=heuristic_card,
    value=advice_value,
    random=k.POLICY_RANDOM,
    cards={k.POLICY_LEARNED: learned_card},
)


# ---------------------------------------------------------------- solved runs

SOLVED_COLUMNS = ("solved_held_to", "solved_escape", "solved_out_first", "solved_score")


def solved_deal(solve, deal: dict, hands: list[str], lead: int, players: int, tt_mib: float) -> list[dict]:
    """Each seat's held-to score and escape in a trick deal; in sevens, whether it can go out first and its
    sure score."""
    out = []
    for seat in range(players):
        if deal["number"] == SEVENS:
            v = solve(
                hands=hands, to_play=lead, contract=SEVENS, seat=seat, points=[0] * players, tt_mib=tt_mib
            ).value
            out.append({"solved_out_first": v["out_first"], "solved_score": v["score"]})
        else:
            v = solve(
                hands=hands, to_play=lead, contract=deal["number"], seat=seat, tt_mib=tt_mib, cards=False
            ).value
            out.append({"solved_held_to": v["held_to"], "solved_escape": v["escape"]})
    return out


def aggregate_solved(rows: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """By players and deal: scores, sure scores, escapes; in sevens, could and did go out first."""
    need(rows, "norwegian_jazz", SOLVED_COLUMNS)
    tricks = rows["deal"].to_numpy(np.int64) < SEVENS
    score = rows["score"].to_numpy(np.int64)
    held = rows["solved_held_to"].fillna(0).to_numpy(np.int64)
    escape = rows["solved_escape"].fillna(0).to_numpy(np.int64)
    out_first = rows["solved_out_first"].fillna(0).to_numpy(np.int64)
    sure = rows["solved_score"].fillna(0).to_numpy(np.int64)
    first = rows["first_out"].to_numpy(np.int64) if "first_out" in rows else np.zeros(len(rows), np.int64)
    held_or_sure = np.where(tricks, held, sure)
    t = pd.DataFrame(
        {
            "players": rows["players"].to_numpy(np.int64),
            "deal": rows["deal"].to_numpy(np.int64),
            "score": score,
            "held_to": held_or_sure,
            "escape": np.where(tricks, escape, 0),
            "over_held_to": score - held_or_sure,
            "could_go_out": flag(~tricks & (out_first == 1)),
            "went_out": flag(~tricks & (first == 1)),
        }
    )
    counted = ["score", "held_to", "escape", "over_held_to", "could_go_out", "went_out"]
    return {"solved_deals": agg.moments(t, ["players", "deal"], counted)}


def summarise_solved(aggs: dict) -> pd.DataFrame:
    """By players and deal: the mean score, the score the seat is held to
    (sevens: its sure score), the escape and the score above the held-to
    one (95% CIs); in sevens, the share that could go out first and that did."""
    out = []
    for (players, deal), r in aggs["solved_deals"].iterrows():
        n = int(r["n"])
        if n == 0:
            continue
        row = {"players": players, "deal": deal}
        names = (
            ("score", "held_to", "escape", "over_held_to")
            if deal < SEVENS
            else ("score", "held_to", "over_held_to")
        )
        for name in names:
            label = {"held_to": "sure_score"}.get(name, name) if deal >= SEVENS else name
            mean = stats.mean_from_sums(int(r[f"{name}_sum"]), int(r[f"{name}_sumsq"]), n)
            row.update(named(f"mean_{label}", mean))
        if deal >= SEVENS:
            row.update(rate("could_go_out_first", int(r["could_go_out_sum"]), n, 1))
            row.update(rate("went_out_first", int(r["went_out_sum"]), n, 1))
        row["n"] = n
        out.append(row)
    return pd.DataFrame(out).set_index(["players", "deal"])


SOLVER = SolverSpec(
    code=SR.NORWEGIAN_JAZZ,
    hand_size=lambda players: int(k.ADJUSTED_SIZE[players]) // players,
    dealt=lambda players: int(k.ADJUSTED_MASK[players]),
    contract=contract,
    values=values,
    objectives=("held_to", "escape"),
    contracts=(1, 2, 3, 4, 5),
    apart=apart,
)
SEARCH_PLAYER = SearchPlayerSpec(
    scripted=k.POLICY_SCRIPTED,
    samples=k.P_PIMC_SAMPLES,
    tricks=k.P_PIMC_TRICKS,
    play=play,
    objective="held_to",  # the others maximise its penalty
    sign=1,  # penalties: the least
    seen=seen,
    apart=sevens_card,
)
SOLVED = Solved(
    columns=SOLVED_COLUMNS,
    deal=solved_deal,
    aggregate=aggregate_solved,
    summarise=summarise_solved,
    table="solved_deals",
)
