"""Differenzler's advice at a deal's start (``cardmc.advise_start``): its
spec's ``adviser.start``.

A view with no plays and no ``declared`` asks the declaration: the seat
(default: the one after the dealer) declares, seeing its hand and the
face-up trump card (``trump_card``). Each candidate declaration with its
expected penalty from the hand advice (``cardmc odds differenzler``); the
best has the lowest. The declaration rules (``heuristic``, ``calibrated``,
by which ``pimc`` seats declare) declare as the hand advice's own figures
of them say; the ``learned`` player declares by its own table
(``cardmc.differenzler_learned``), the one the game's ``params`` carry.
"""

from __future__ import annotations

from cardmc import advice_view
from cardmc.advise_start import Ask, Choices, estimates
from cardmc.kernels import cards as C
from cardmc.registry import UsageError


def choices(ask: Ask) -> Choices:
    """The declaration: the hand advice's candidates and the declaration rules' own."""
    import pandas as pd

    from cardmc.kernels import differenzler as k

    if ask.own.get("trump_card") is None:
        raise UsageError(
            "differenzler advice at a deal's start needs the face-up trump card (trump_card=, --trump-card)"
        )
    card = advice_view.card_of(ask.own["trump_card"], 36, C.FULL36, "the trump card")
    me = (ask.dealer + 1) % 4 if ask.seat is None else ask.seat
    odds = ask.odds(seat=me, dealer=ask.dealer, trump_card=C.code(card))
    rules = odds.tables["rules"]
    declared = {rule: int(round(rules.loc[rule, "declared_mean"])) for rule in rules.index}
    table = estimates(odds.tables["declarations"]).join(odds.tables["declarations"]["n"])
    extra = estimates(rules).join(rules["n"]).set_axis([declared[r] for r in rules.index], axis=0)
    extra = extra[~extra.index.isin(table.index) & ~extra.index.duplicated()]
    table = pd.concat([table, extra]).sort_index()
    table.index = table.index.map(str).rename("declaration")
    named = {k.DECLARE_HEURISTIC: "heuristic", k.DECLARE_CALIBRATED: "calibrated"}
    policies = {}
    for name in ask.names:
        code = int(ask.spec.parse_policy(name, 4)[me, 1])
        if code == k.DECLARE_RANDOM:
            policies[name] = str(ask.drawn(k.DEAL_POINTS + 1))
        elif code == k.DECLARE_LEARNED:
            policies[name] = str(learned_declaration(ask, me, card))
        else:
            policies[name] = str(declared[named[code]])
    return Choices(
        seat=me,
        decision="declaration",
        question=f"seat {me} to declare, hand {' '.join(C.codes_of(ask.hand))}, dealer {ask.dealer}, "
        f"trump card {C.code(card)}",
        measure="the penalty |declared - made| with every seat playing by the learned player and the others "
        "declaring as it does, not by the search (cardmc odds differenzler); best: the lowest",
        table=table,
        best=str(odds["best_declaration"]),
        policies=policies,
        deals=int(odds["deals"]),
        notes=[f"{rule} declares {d}" for rule, d in declared.items()],
    )


def learned_declaration(ask: Ask, me: int, card: int) -> int:
    """What the learned player declares for the hand: its table's cell (the heuristic formula where the
    table has none), as the kernel reads it from the game's ``params``."""
    import numpy as np

    from cardmc.kernels import differenzler as k

    params = ask.spec.params(ask.spec.settings(ask.settings))
    rel, hand, trump = (me - ask.dealer) % 4, np.uint64(ask.hand), card >> 4
    _, declared = k.declare(
        k.DECLARE_LEARNED, rel, hand, trump, np.zeros(1, np.uint64)[0], params[:0], params
    )
    return int(declared)
