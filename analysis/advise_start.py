"""Advice at a deal's start, for ``cardmc.advise``: the seat's decision
before the first card, from its view (its hand, the dealer, what the game
shows before the play).

A game with such a decision names it in its spec's ``adviser.start``
(``registry.Start``): the view's keyword that gives the decision as made,
and its answer to an ``Ask``. A view with no plays that does not give the
decision as made asks it: Schieber's contract or push
(``cardmc.schieber_start``), Differenzler's declaration
(``cardmc.differenzler_start``).

The estimates are the game's hand advice (``cardmc.odds``): every choice
played on the same ``samples`` deals of the unseen cards (default: the hand
advice's own count), every seat playing by the game's heuristic, not by the
search; the output says so. The choice each policy makes comes from the
hand by the game's own rules of it; ``random`` chooses uniformly among the
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
    start = spec.adviser.start
    if start is None or own.get(start.made) is not None:
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
        got = spec.adviser.start.choices(ask)
    view = {"game": spec.name, "players": n, "dealer": dealer, "me": got.seat, "hand": mask, "plays": []}
    return Advice(
        game=spec.name,
        question=got.question,
        measure=got.measure,
        table=got.table,
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
