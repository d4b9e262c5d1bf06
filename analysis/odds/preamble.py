"""What every game's hand advice checks first, once: the question a seat asks.

``ask(spec, hand, ...)`` reads the options every ``cardmc.odds`` shares, with
the machinery of ``cardmc.simulate``: the game count, seed, players, policy,
rule options and calibration table through ``cardmc.job.make``; the seat and
the dealer by ``checks.check_seat``; the asking seat's hand and any known
cards of other seats through ``cardmc.condition.parse_hands``; the stopping
rules by ``checks.check_positive``. It returns a ``Question``, or raises
``UsageError`` naming the first bad value. ``on_threads`` runs an advice on a
number of Numba threads. A game's own options (Schieber's ``pushed``,
Differenzler's trump card, Norwegian Jazz's deal) stay in its module.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable

import numpy as np

from cardmc import checks, job, pimc
from cardmc.condition import card_list, hand_items, parse_hands
from cardmc.kernels import cards
from cardmc.odds.rounds import ROUND, rounds
from cardmc.registry import GameSpec, UsageError


@dataclass(frozen=True, eq=False)
class Question:
    """A checked question: the game, its players, the asking seat and the
    dealer (None where the game derives it), the cards each seat is given
    (``hands``, one mask per seat, 0 for none) and holds (``sizes``), and how
    to sample: most deals, seed, policy (its text and per-seat codes,
    ``searching`` when a seat plays the search player), every rule and
    simulation option and their ``params``, the calibration table (None for a
    game without one) and the stopping rules."""

    spec: GameSpec
    players: int
    seat: int
    dealer: int | None
    hands: tuple[int, ...]
    sizes: tuple[int, ...]
    games: int
    seed: int
    policy: str
    policies: np.ndarray
    searching: bool
    settings: dict
    params: np.ndarray
    calibration: np.ndarray | None
    target_se: float | None
    max_seconds: float | None
    progress: bool

    @property
    def fixed(self) -> np.ndarray:
        """The given cards per seat as the kernels read them (uint64 masks)."""
        return np.array(self.hands, np.uint64)

    def cards(self, seat: int | None = None) -> list[str]:
        """The codes of the cards given to ``seat`` (default: the asking seat)."""
        return cards.codes_of(self.hands[self.seat if seat is None else seat])

    def others(self) -> str:
        """``", seat S holds ..."`` for each other seat with given cards (for a question's text)."""
        return "".join(
            f", seat {s} holds {' '.join(cards.codes_of(m))}"
            for s, m in enumerate(self.hands)
            if m and s != self.seat
        )

    def round_deals(self, most: int) -> int:
        """Deals a round: ``ROUND`` when a stopping rule is checked, else as many as ``most`` (the deals
        are the same either way)."""
        return ROUND if self.target_se is not None or self.max_seconds is not None else min(self.games, most)

    def rounds(self, sample, worst_se, desc: str, round_deals: int = ROUND) -> tuple[int, str]:
        """``rounds`` of ``sample`` under the question's game count and stopping rules."""
        return rounds(
            sample, self.games, worst_se, self.target_se, self.max_seconds, self.progress, desc, round_deals
        )


def ask(
    spec: GameSpec,
    hand=None,
    *,
    seat,
    dealer=None,
    hands=None,
    games: int,
    seed=0,
    policy=None,
    settings=None,
    target_se=None,
    max_seconds=None,
    progress=False,
    players=None,
    calibration=None,
    whole_hand: bool = False,
    sizes: Callable[[int, int | None], list[int]] | None = None,
) -> Question:
    """The checked question of ``spec``'s hand advice. ``hand``: the asking
    seat's cards (codes separated by spaces or commas, or a list), the whole
    hand when ``whole_hand``, else all or part of it; ``hands``: other seats'
    known cards (``{seat: cards}`` or ``["SEAT:CARDS", ...]``); ``sizes(players,
    dealer)``: the cards each seat holds (default: the deck shared out
    equally). ``policy`` None: the game's default."""
    if policy is None:
        policy = spec.odds_policy  # the stronger player where the game has one (None: the game's default)
    run = job.make(spec.name, games, seed, policy, players, settings, calibration=calibration)
    players = run.players
    seat = checks.check_seat(seat, players)
    dealer = None if dealer is None else checks.check_seat(dealer, players, "dealer")
    target_se = checks.check_positive("target_se", target_se)
    max_seconds = checks.check_positive("max_seconds", max_seconds)
    progress = checks.check_flag("progress", progress)
    held = tuple(sizes(players, dealer)) if sizes is not None else (spec.deck // players,) * players
    given = given_hands(spec, players, seat, hand, hands, held, whole_hand)
    policies = run.codes()
    table = None if run.calibration is None else np.array(run.calibration, np.int64)
    return Question(
        spec=spec,
        players=players,
        seat=seat,
        dealer=dealer,
        hands=given,
        sizes=held,
        games=run.games,
        seed=run.seed,
        policy=run.policy,
        policies=policies,
        searching=pimc.has_pimc(policies, spec.name),
        settings=run.options,
        params=run.params(),
        calibration=table,
        target_se=target_se,
        max_seconds=max_seconds,
        progress=progress,
    )


def given_hands(
    spec: GameSpec, players: int, seat: int, hand, hands, sizes, whole_hand: bool = False
) -> tuple[int, ...]:
    """The cards given to each seat (one mask per seat): ``hand`` for ``seat``
    and ``hands`` for any seat, checked against the game's deck and
    ``sizes`` (the cards each seat holds)."""
    items = [f"{s}:{text}" for s, text in hand_items(hands)]
    if hand is not None:
        text = hand_text(hand)
        check_hand(text, seat, spec.deck, sizes[seat], whole_hand)
        items.insert(0, f"{seat}:{text}")
    return parse_hands(items, players, spec.deck, sizes)


def hand_text(hand) -> str:
    """The codes of a hand given as text or as a list of codes."""
    if isinstance(hand, (list, tuple)):
        hand = " ".join(map(str, hand))
    if not isinstance(hand, str):
        raise UsageError(f"hand must be card codes such as 'JS 9S AS', not {hand!r}")
    return hand


def check_hand(text: str, seat: int, deck: int, size: int, whole: bool) -> None:
    """``UsageError`` for a card outside the deck or given twice, and, for a
    ``whole`` hand, for a count other than the ``size`` cards the seat holds."""
    got = card_list(text, deck)
    for i, c in enumerate(got):
        if c in got[:i]:
            raise UsageError(f"card {cards.code(c)!r} appears twice in the hand")
    if whole and len(got) != size:
        raise UsageError(
            f"seat {seat} holds {size} cards, got {len(got)}: {text!r} (give a part of a hand "
            "as hands={seat: cards}, --hand SEAT:CARDS)"
        )


@contextmanager
def on_threads(threads):
    """Run the block on ``threads`` Numba threads (``checks.check_threads``; None: as set), then as before."""
    threads = checks.check_threads(threads)
    if threads is None:
        yield
        return
    import numba

    before = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        yield
    finally:
        numba.set_num_threads(before)
