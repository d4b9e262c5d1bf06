"""Schieber for the exact solver, the search player and solved runs: its spec's
``solver``, ``search_player`` and ``solved``.

The solver's values (``cardmc.solve``): ``team0`` and ``team1``, the points
the teams end the deal with (last trick 5, match 100 included; times 1, Weis
and Stöck not included) when both play best; the search maximises team 0's
points minus team 1's. ``contract``: C D H S obenabe undenufe; no ``seat``.

The search player plays for its team's points from here, the highest mean.

A solved run's rows (``simulate(..., solve=True)``) carry ``solved_points``,
the points the seat's team ends the deal with under the contract chosen,
and ``solved_C`` ... ``solved_undenufe``, the same under each contract, so
a choice can be graded; their table, ``solved_contracts``: how often the
chooser's contract is the best for its team, and the points the choice left.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from cardmc import stats
from cardmc.kernels import cards as C
from cardmc.kernels import schieber as k
from cardmc.kernels import solve_rules as SR
from cardmc.registry import Adviser, Deferred, SearchPlayerSpec, Solved, SolverSpec, Start, UsageError
from cardmc.solved_tables import flag, measure, need

if TYPE_CHECKING:  # pandas loads with the solved tables: the search player and the adviser need none
    import pandas as pd

CONTRACTS = k.CONTRACT_NAMES  # the rules' parameter is the index
HAND = 9
LAST_TRICK = 5
MATCH = 100  # all nine tricks to one team
TEAM0, TEAM1 = (0, 2), (1, 3)


def contract(given) -> tuple[int, int]:
    """(the rules' contract, no trump set by the play) of a contract name."""
    if str(given) not in CONTRACTS:
        raise UsageError(f"unknown Schieber contract {given!r}: one of {', '.join(CONTRACTS)}")
    return CONTRACTS.index(str(given)), -1


def values(pos, search, declared) -> dict:
    """``team0`` and ``team1`` from the one search of team 0's points from here."""
    v, per = search("team0")
    p0 = sum(pos.points[s] for s in TEAM0)
    p1 = sum(pos.points[s] for s in TEAM1)
    rest = rest_points(pos)
    split = {c: team_points(x, rest, p0, p1) for c, x in per.items()}
    t0v, t1v = team_points(v, rest, p0, p1)
    return {
        "team0": (t0v, {c: s[0] for c, s in split.items()}),
        "team1": (t1v, {c: s[1] for c, s in split.items()}),
    }


def rest_points(pos) -> int:
    """The points still to take: the cards in the hands and the trick, and the last trick's."""
    rest = 0
    for h in pos.hands:
        rest |= int(h)
    for c in pos.trick[: pos.k]:
        rest |= 1 << int(c)
    return sum(int(k.POINTS[pos.param, c]) for c in C.cards_of(rest)) + LAST_TRICK


def team_points(x: int, rest: int, p0: int, p1: int) -> tuple[int, int]:
    """Team points from the searched value (team 0's future points, +100 for
    its match, -100 for the other team's match) and the points so far."""
    if x > rest:
        return p0 + x, p1
    if x < 0:
        return p0, p1 + rest + MATCH
    return p0 + x, p1 + rest - x


def play(seed, index, players, params, policies, rows, events, cond, script, table):
    return k.play_game(seed, index, players, params, policies, rows, events, cond, script)


# ---------------------------------------------------------------- advice


def advice_view(view: dict, own: dict) -> None:
    """The contract and who chose it: the forehand (the seat after the
    dealer), or after a push (``pushed``) its partner, unless ``chooser`` says."""
    from cardmc.checks import check_flag, check_seat

    if own.get("contract") is None:
        raise UsageError(
            f"schieber advice needs the contract (contract=, --contract): one of {', '.join(CONTRACTS)}"
        )
    view["contract"] = contract(own["contract"])[0]
    forehand = (view["dealer"] + 1) % 4
    pushed = own.get("pushed")
    chooser = own.get("chooser")
    if chooser is None:
        chooser = (forehand + 2) % 4 if pushed and check_flag("pushed", pushed) else forehand
    chooser = check_seat(chooser, 4, "chooser")
    if pushed is not None and chooser != ((forehand + 2) % 4 if check_flag("pushed", pushed) else forehand):
        raise UsageError(
            f"chooser {chooser} does not fit pushed={pushed} with dealer {view['dealer']}: the forehand "
            f"(seat {forehand}) chooses, or its partner after a push"
        )
    view["chooser"] = chooser


def advice_traced(line: dict, deal: dict, seat: int) -> dict:
    return {"contract": deal["contract"], "chooser": deal["chooser"]}


def heuristic_card(view: dict, params: np.ndarray) -> int:
    """The heuristic's card (its team chose or not; the card points of the rules in force)."""
    from cardmc.kernels.schieber import view_card

    plays = np.array([c for _, c in view["plays"]], np.int64)
    chose = view["me"] % 2 == view["chooser"] % 2
    return int(
        view_card(np.uint64(view["hand"]), plays, len(plays), view["contract"], chose, k.rules_of(params))
    )


def learned_card(view: dict, params: np.ndarray) -> int:
    """The learned player's card: by the weights after the options in ``params`` when they are there (a
    spec's ``params``), else by the shipped weights, the ones the spec appends."""
    from cardmc.kernels.schieber_learned import NF
    from cardmc.schieber_learned import shipped_weights

    weights = params[k.P_WEIGHTS :] if len(params) >= k.P_WEIGHTS + NF else shipped_weights()
    plays = np.array([c for _, c in view["plays"]], np.int64)
    seats = np.array([s for s, _ in view["plays"]], np.int64)
    chose = view["me"] % 2 == view["chooser"] % 2
    _, card = k.view_learned(
        np.uint64(view["hand"]),
        view["me"],
        plays,
        seats,
        len(plays),
        view["contract"],
        chose,
        k.rules_of(params),
        weights,
        np.zeros((HAND, NF), np.int64),
    )
    return int(card)


def advice_value(view: dict, gained: int, value: int) -> float:
    """The team's points this deal: taken so far and from here."""
    return gained + value


ADVISER = Adviser(
    measure="the team's points this deal: so far and from here with best play by both teams (last trick and "
    "match included, no multiplier, Weis or Stöck; the other team's match counts -100)",
    options={
        "contract": "C D H S obenabe undenufe",
        "chooser": "the seat that chose (default: the forehand, or its partner after a push)",
        "pushed": "the forehand pushed",
    },
    view=advice_view,
    traced=advice_traced,
    heuristic=heuristic_card,
    value=advice_value,
    random=k.RANDOM,
    cards={k.LEARNED: learned_card},
    start=Start(made="contract", choices=Deferred("cardmc.schieber_start", "choices")),
)


# ---------------------------------------------------------------- solved runs

SOLVED_COLUMNS = ("solved_points", *(f"solved_{c}" for c in CONTRACTS))


def solved_deal(solve, deal: dict, hands: list[str], lead: int, players: int, tt_mib: float) -> list[dict]:
    """Each seat's team's points under every contract, and under the one chosen."""
    out = [{} for _ in range(players)]
    for name in CONTRACTS:
        v = solve(hands=hands, to_play=lead, contract=name, tt_mib=tt_mib, cards=False).value
        for s in range(players):
            out[s][f"solved_{name}"] = v[f"team{s % 2}"]
    for s in range(players):
        out[s]["solved_points"] = out[s][f"solved_{deal['contract']}"]
    return out


def aggregate_solved(rows: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The chooser's row of each deal: was its contract the best, and what did it leave."""
    import pandas as pd

    from cardmc import aggregate as agg

    each = [f"solved_{c}" for c in CONTRACTS]
    need(rows, "schieber", ["solved_points", *each])
    mine = rows[(rows["seat"] == rows["chooser"]).to_numpy()]
    lost = mine[each].to_numpy(np.int64).max(axis=1) - mine["solved_points"].to_numpy(np.int64)
    t = pd.DataFrame({"pushed": mine["pushed"].to_numpy(np.int64), "best": flag(lost == 0), "lost": lost})
    return {"solved_contracts": agg.moments(t, ["pushed"], ["best", "lost"])}


def summarise_solved(aggs: dict) -> pd.DataFrame:
    """Share of deals whose chosen contract was the best for the chooser's
    team (Wilson 95% CI) and the mean points left (95% CI): all deals,
    pushed and kept choices."""
    import pandas as pd

    t = aggs["solved_contracts"]
    out = []
    for label, keep in (("all deals", [0, 1]), ("pushed", [1]), ("kept", [0])):
        part = t[t.index.isin(keep)]
        n = int(part["n"].sum())
        if n == 0:
            continue
        sums = part[["best_sum", "lost_sum", "lost_sumsq"]].sum()
        chose_best = stats.proportion(int(sums["best_sum"]), n)
        lost = stats.mean_from_sums(int(sums["lost_sum"]), int(sums["lost_sumsq"]), n)
        out.append({"deals": label, **measure("best contract chosen", chose_best)})
        out.append({"deals": label, **measure("points left (best minus chosen)", lost)})
    return pd.DataFrame(out).set_index(["deals", "measure"])


SOLVER = SolverSpec(
    code=SR.SCHIEBER,
    hand_size=lambda players: HAND,
    dealt=lambda players: C.FULL36,
    contract=contract,
    values=values,
    objectives=("team0",),
    contracts=CONTRACTS,
    needs_seat=False,
    last_trick=LAST_TRICK,
    match=MATCH,
)
SEARCH_PLAYER = SearchPlayerSpec(
    scripted=k.SCRIPTED,
    samples=k.P_PIMC_SAMPLES,
    tricks=k.P_PIMC_TRICKS,
    play=play,
    objective="team",
    sign=-1,  # points: the most
)
SOLVED = Solved(
    columns=SOLVED_COLUMNS,
    deal=solved_deal,
    aggregate=aggregate_solved,
    summarise=summarise_solved,
    table="solved_contracts",
)
