"""Advice at a deal's start, for ``cardmc.advise``: the seat's decision
before the first card, from its view (its hand, the dealer, what the game
shows before the play).

A view with no plays that does not give the decision as made asks it:

* Schieber, no ``contract``: the forehand (the seat after the dealer)
  chooses a contract or pushes; with ``pushed``, its partner must choose.
  Each choice with the team's score of the deal (after the multiplier, with
  Weis, Stöck and the match bonus) and the net, the team's score less the
  other team's; the best choice has the highest net.
* Differenzler, no ``declared``: the seat (default: the one after the
  dealer) declares, seeing its hand and the face-up trump card
  (``trump_card``). Each candidate declaration with its expected penalty;
  the best has the lowest.

The estimates are the game's hand advice (``cardmc.odds``): every choice
played on the same ``samples`` deals of the unseen cards (default: the hand
advice's own count), every seat playing by the game's heuristic, not by the
search; the output says so. The choice each policy makes from the hand:
Schieber's heuristic contract chooser (``heuristic_contract``, which pushes
when no contract is worth the push threshold of the rule options in force;
``pimc`` seats choose by it too); Differenzler's declaration rules
(``heuristic``, ``calibrated``, by which ``pimc`` seats declare), read from
the hand advice's own figures of them; ``random`` uniformly among the
choices, drawn from the seed. Only rule options apply. The answer depends on
the game, the view, the policies, the samples and the seed only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardmc import advice_view, checks, registry
from cardmc.kernels import cards as C
from cardmc.registry import UsageError

RANDOM_CHOICE = 0xAF  # the stream of the random policy's choice


@dataclass(frozen=True)
class Ask:
    """A deal's start from one seat's view, as far as every game checks it."""

    spec: registry.GameSpec
    hand: int  # the seat's whole hand, a mask
    seat: int | None  # as given (None: the game's deciding seat)
    dealer: int
    own: dict  # the game's keywords of the view
    settings: dict  # the rule options given
    names: list[str]  # the policies whose choice to name
    samples: int | None  # deals of the hand advice (None: its own count)
    seed: int

    def odds(self, **keywords):
        """The game's hand advice for the hand, on the samples and the seed."""
        from cardmc.odds import advice_of

        games = {} if self.samples is None else {"games": self.samples}
        hand = " ".join(C.codes_of(self.hand))
        return advice_of(self.spec)(hand, seed=self.seed, settings=self.settings, **games, **keywords)

    def drawn(self, count: int) -> int:
        """The random policy's choice: a whole number below ``count``, from the seed."""
        return int(np.random.default_rng([self.seed, RANDOM_CHOICE]).integers(count))


@dataclass(frozen=True)
class Choices:
    """A game's answer to an ``Ask``."""

    seat: int  # the deciding seat
    decision: str  # what is chosen, in the game's words
    question: str  # the view in one line
    measure: str  # what an estimate is, and under which play
    table: object  # a DataFrame, one row a choice (as text): estimate, se, ci_low, ci_high, n, the game's own
    best: str
    policies: dict[str, str]
    deals: int
    notes: list[str]


def asks(spec: registry.GameSpec, plays, own: dict) -> bool:
    """Whether a view with ``plays`` (as given) and the game's keywords ``own`` asks the decision before
    the first card."""
    start = STARTS.get(spec.name)
    if start is None or own.get(start[0]) is not None:
        return False
    return plays is None or not (plays.replace(",", " ").split() if isinstance(plays, str) else plays)


def advise(spec, hand, seat, dealer, players, own: dict, names, samples, seed: int, settings, threads):
    """The advice at the deal's start (see the module notes) as a ``cardmc.advise.Advice``."""
    from cardmc.advise import Advice
    from cardmc.odds.preamble import on_threads

    n = spec.check_players(players)
    dealer = n - 1 if dealer is None else checks.check_seat(dealer, n, "dealer")
    seat = None if seat is None else checks.check_seat(seat, n)
    for name in settings or {}:
        if name not in spec.rules:
            raise UsageError(
                f"option {name} does not apply at a deal's start: only rule options do "
                f"({', '.join(spec.rules)})"
            )
    if hand is None:
        raise UsageError("the seat's hand is needed (hand=, --hand)")
    mask = advice_view.hand_mask(hand, spec.deck, spec.solver.dealt(n))
    size, held = spec.solver.hand_size(n), bin(mask).count("1")
    if held != size:
        raise UsageError(f"a hand holds {size} cards at the deal's start, got {held}")
    samples = None if samples is None else checks.check_count("samples", samples)
    ask = Ask(spec, mask, seat, dealer, own, dict(settings or {}), names, samples, seed)
    with on_threads(threads):
        got = STARTS[spec.name][1](ask)
    view = {"game": spec.name, "players": n, "dealer": dealer, "me": got.seat, "hand": mask, "plays": []}
    return Advice(
        game=spec.name,
        question=got.question,
        measure=got.measure,
        choices=got.table,
        best=got.best,
        policies=got.policies,
        samples=got.deals,
        seed=seed,
        view={**view, **own},
        notes=got.notes,
        decision=got.decision,
    )


def estimates(table, prefix: str = ""):
    """The columns ``prefix``, ``prefix_se``, ``prefix_ci_low``, ``prefix_ci_high`` of a hand advice's
    table as ``estimate``, ``se``, ``ci_low``, ``ci_high``."""
    names = ("estimate", "se", "ci_low", "ci_high")
    given = names if not prefix else (prefix, *(f"{prefix}_{x}" for x in names[1:]))
    return table[list(given)].set_axis(list(names), axis=1)


# ------------------------------------------------------------------ Schieber


def schieber(ask: Ask) -> Choices:
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
    choices = list(table.index)
    rules = int(k.rules_of(registry.GameSpec.params(ask.spec, ask.spec.settings(ask.settings))))
    heuristic = schieber_heuristic(ask.hand, rules, may_push=not pushed)
    policies = {}
    for name in ask.names:
        random = int(ask.spec.parse_policy(name, 4)[me, 0]) == k.RANDOM
        policies[name] = choices[ask.drawn(len(choices))] if random else heuristic
    return Choices(
        seat=me,
        decision="contract",
        question=f"seat {me} ({role}) to choose the contract, hand {' '.join(C.codes_of(ask.hand))}, "
        f"dealer {ask.dealer}",
        measure="the team's score this deal (after the multiplier, with Weis, Stöck and the match bonus; "
        "net: less the other team's) with every seat playing by the heuristic, not by the search "
        "(cardmc odds schieber); best: the highest net",
        table=table,
        best=str(odds["best_choice"]),
        policies=policies,
        deals=int(odds["deals"]),
        notes=[] if pushed else ["push: the partner then chooses by the heuristic"],
    )


def schieber_heuristic(hand: int, rules: int, may_push: bool) -> str:
    """The heuristic's contract for ``hand`` under the rules word ``rules``, or ``push`` when it may
    push and no contract is worth the threshold of those rules (computed only then)."""
    from cardmc.kernels import schieber as k
    from cardmc.kernels import schieber_weis as w
    from cardmc.kernels.schieber_push import push_below

    held = np.uint64(hand)
    weis = int(w.declare(held, w.OBENABE, k.weis_of(rules))[1])
    below = push_below(rules) if may_push else 0
    c = int(k.heuristic_contract(held, weis, may_push, below, np.zeros(6, np.int64), rules))
    return "push" if c == k.PUSH else k.CONTRACT_NAMES[c]


# ------------------------------------------------------------------ Differenzler


def differenzler(ask: Ask) -> Choices:
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
        policies[name] = str(
            ask.drawn(k.DEAL_POINTS + 1) if code == k.DECLARE_RANDOM else declared[named[code]]
        )
    return Choices(
        seat=me,
        decision="declaration",
        question=f"seat {me} to declare, hand {' '.join(C.codes_of(ask.hand))}, dealer {ask.dealer}, "
        f"trump card {C.code(card)}",
        measure="the penalty |declared - made| with every seat playing by the heuristic and the others "
        "declaring as calibrated, not by the search (cardmc odds differenzler); best: the lowest",
        table=table,
        best=str(odds["best_declaration"]),
        policies=policies,
        deals=int(odds["deals"]),
        notes=[f"{rule} declares {d}" for rule, d in declared.items()],
    )


# the games with a decision before the first card: the view's keyword that gives it as made, and the answer
STARTS = {"schieber": ("contract", schieber), "differenzler": ("declared", differenzler)}
