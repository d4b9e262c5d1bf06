"""Schieber's advice at a deal's start (``cardmc.advise_start``): its spec's
``adviser.start``.

A view with no plays and no ``contract`` asks the choice: the forehand (the
seat after the dealer) chooses a contract or pushes; with ``pushed``, its
partner must choose. Each choice with the team's score of the deal (after
the multiplier, with Weis, Stöck and the match bonus) and the net, the
team's score less the other team's, from the hand advice (``cardmc odds
schieber``, under the learned player, its default); the best choice has the
highest net. ``heuristic`` and ``pimc`` seats choose by the heuristic's
contract chooser (``heuristic_contract``, which pushes when no contract is
worth the push threshold of the rule options in force), ``learned`` seats by
their own (``learned_contract``, with the learned push threshold of those
rules).
"""

from __future__ import annotations

import numpy as np

from cardmc import checks, registry
from cardmc.advise_start import Ask, Choices, estimates
from cardmc.kernels import cards as C
from cardmc.registry import UsageError


def choices(ask: Ask) -> Choices:
    """The contract, or the push: the hand advice's choices, the heuristic's chooser."""
    from cardmc.kernels import schieber as k

    pushed = checks.check_flag("pushed", ask.own.get("pushed") or False)
    forehand = (ask.dealer + 1) % 4
    me = (forehand + 2) % 4 if pushed else forehand
    role = "the forehand's partner, after a push" if pushed else "the forehand"
    for name, given in (("seat", ask.seat), ("chooser", ask.own.get("chooser"))):
        if given is not None and checks.check_seat(given, 4, name) != me:
            raise UsageError(
                f"at the deal's start with dealer {ask.dealer}, seat {me} chooses ({role}), not seat {given}"
            )
    odds = ask.odds(seat=me, dealer=ask.dealer, pushed=pushed)
    t = odds.tables["choices"]
    table = estimates(t, "own").join(t[["net", "net_se", "net_ci_low", "net_ci_high", "n"]])
    table.index.name = "contract"
    contracts = list(table.index)
    rules = int(k.rules_of(registry.GameSpec.params(ask.spec, ask.spec.settings(ask.settings))))
    policies = {}
    for name in ask.names:
        code = int(ask.spec.parse_policy(name, 4)[me, 0])
        if code == k.RANDOM:
            policies[name] = contracts[ask.drawn(len(contracts))]
        else:
            policies[name] = contract_choice(ask.hand, rules, not pushed, code == k.LEARNED)
    return Choices(
        seat=me,
        decision="contract",
        question=f"seat {me} ({role}) to choose the contract, hand {' '.join(C.codes_of(ask.hand))}, "
        f"dealer {ask.dealer}",
        measure="the team's score this deal (after the multiplier, with Weis, Stöck and the match bonus; "
        "net: less the other team's) with every seat playing by the learned player, not by the search "
        "(cardmc odds schieber); best: the highest net",
        table=table,
        best=str(odds["best_choice"]),
        policies=policies,
        deals=int(odds["deals"]),
        notes=[] if pushed else ["push: the partner then chooses by the learned player"],
    )


def contract_choice(hand: int, rules: int, may_push: bool, learned: bool = False) -> str:
    """The heuristic's contract for ``hand`` under the rules word ``rules`` (the learned player's when
    ``learned``), or ``push`` when it may push and no contract is worth the threshold of those rules."""
    from cardmc.kernels import schieber as k
    from cardmc.kernels import schieber_weis as w
    from cardmc.kernels.schieber_push import push_below
    from cardmc.schieber_learned import learned_block

    held = np.uint64(hand)
    weis = int(w.declare(held, w.OBENABE, k.weis_of(rules))[1])
    if learned:
        block = learned_block(rules)
        c, worth = (int(x) for x in k.learned_contract(held, weis, rules, block))
        below = int(block[-1])
    else:
        below = push_below(rules) if may_push else 0
        c = int(k.heuristic_contract(held, weis, may_push, below, np.zeros(6, np.int64), rules))
        worth = below
    return "push" if c == k.PUSH or (may_push and worth < below) else k.CONTRACT_NAMES[c]
