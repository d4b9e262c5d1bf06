"""Conditions on a deal, checked at the Python edge: which cards which seats hold.

A user fixes some or all of a seat's cards (``--hand SEAT:CARDS``, API
``hands={1: "JS 9S AS"}``); the kernels deal the rest uniformly
(``cardmc.kernels.condition.deal_given``). ``parse_hands`` turns the user's
text into one card mask per seat and refuses, with one line naming the
problem, a card outside the game's deck, a card given twice, a seat that
does not exist and more cards than a seat holds.

``make`` builds a run's ``Condition`` with each game's own checks (its deck,
hand sizes, a face-up trump card where a game shows one, the deal it applies
to where a game's deals differ: the spec's ``dealing``); the kernels read it as one int64 array (``Condition.array``).
The rules a condition follows are in docs/RULES.md, "Conditions".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from cardmc import registry
from cardmc.checks import check_seat
from cardmc.kernels import cards
from cardmc.registry import GameSpec, UsageError


def _games_with(has) -> str:
    return ", ".join(g for g in registry.GAMES if has(registry.get(g).dealing))


def hand_items(hands) -> list[tuple[object, str]]:
    """(seat, cards text) pairs of ``{seat: text}`` or ``["SEAT:CARDS", ...]``."""
    if hands is None:
        return []
    if isinstance(hands, Mapping):
        return list(hands.items())
    if isinstance(hands, str):
        hands = [hands]
    if not isinstance(hands, Iterable):
        raise UsageError(f"hands must be {{seat: cards}} or 'SEAT:CARDS' texts, not {hands!r}")
    items = []
    for h in hands:
        if not isinstance(h, str) or ":" not in h:
            raise UsageError(f"a hand condition is written SEAT:CARDS (e.g. 1:'JS 9S AS'), not {h!r}")
        seat, text = h.split(":", 1)
        items.append((seat.strip(), text))
    return items


def card_list(text: object, deck_size: int) -> list[int]:
    """Card ints of a text of codes separated by spaces or commas."""
    if not isinstance(text, str):
        raise UsageError(f"cards must be written as codes such as 'JS 9S AS', not {text!r}")
    out = []
    for part in text.replace(",", " ").split():
        try:
            out.append(cards.parse(part, deck_size))
        except ValueError:
            raise UsageError(f"card {part!r} is not in the {deck_size}-card deck") from None
    return out


def parse_hands(hands, players: int, deck_size: int, sizes) -> tuple[int, ...]:
    """One mask of fixed cards per seat (0 for a free seat); ``sizes[s]`` is the
    most cards seat ``s`` can hold. ``UsageError`` names the first problem."""
    masks = [0] * players
    owner: dict[int, int] = {}
    for seat_text, text in hand_items(hands):
        seat = check_seat(seat_text, players)
        for c in card_list(text, deck_size):
            if c in owner:
                where = "twice in seat" if owner[c] == seat else f"to seat {owner[c]} and to seat"
                raise UsageError(f"card {cards.code(c)!r} is given {where} {seat}")
            owner[c] = seat
            masks[seat] |= 1 << c
    for seat, m in enumerate(masks):
        n = bin(m).count("1")
        if n > sizes[seat]:
            raise UsageError(f"seat {seat} is given {n} cards, but holds {sizes[seat]} in this deal")
    return tuple(masks)


@dataclass(frozen=True)
class Condition:
    """What every conditioned deal of a run must hold: ``hands[s]`` is the
    mask of the cards seat ``s`` is given (0: none), ``trump_card`` the
    face-up trump card of Differenzler (-1: none), ``deal`` the Norwegian Jazz
    deal number it applies to (1..6; 0: every deal of the game)."""

    game: str
    players: int
    hands: tuple[int, ...]
    trump_card: int = -1
    deal: int = 0

    def array(self) -> np.ndarray:
        """The kernels' int64 array (``cardmc.kernels.condition.CT_*``)."""
        return np.array([self.trump_card, self.deal, *self.hands], dtype=np.int64)

    @property
    def text(self) -> str:
        """The condition in card codes, e.g. ``"hand 1: 9S JS AS; deal 3"``
        (seats in order, cards lowest first): run metadata and identity."""
        parts = [f"hand {s}: {' '.join(cards.codes_of(m))}" for s, m in enumerate(self.hands) if m]
        if self.trump_card >= 0:
            parts.append(f"trump card {cards.code(self.trump_card)}")
        if self.deal:
            parts.append(f"deal {self.deal}")
        return "; ".join(parts)

    def record(self) -> dict:
        """The condition as a trace line carries it."""
        out: dict = {"hands": [cards.codes_of(m) for m in self.hands]}
        if self.trump_card >= 0:
            out["trump_card"] = cards.code(self.trump_card)
        if self.deal:
            out["deal"] = self.deal
        return out


def _deal_number(value: object, deals: int) -> int:
    if isinstance(value, bool):
        raise UsageError(f"deal {value!r} is not a deal number (1..{deals})")
    try:
        deal = int(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise UsageError(f"deal {value!r} is not a deal number (1..{deals})") from None
    if str(deal) != str(value).strip() or not 1 <= deal <= deals:
        raise UsageError(f"deal {value!r} is not a deal number (1..{deals})")
    return deal


def make(
    spec_or_game: GameSpec | str, players: int, hands=None, trump_card=None, deal=None
) -> Condition | None:
    """The checked condition of a run of the game (None when nothing is
    given, so an unconditioned run is untouched); ``UsageError`` names the
    first problem: a card outside the deck of the game (or of the deal), a
    card given twice, a seat that does not exist, more cards than a seat
    holds, a trump card where the game shows none or a hand holds it, a deal
    number where the game's deals are all alike, or missing where they differ."""
    spec = registry.get(spec_or_game) if isinstance(spec_or_game, str) else spec_or_game
    players = spec.check_players(players)
    given = hand_items(hands)
    if not given and trump_card is None and deal is None:
        return None
    dealing = spec.dealing
    if deal is not None and not dealing.deals:
        raise UsageError(
            f"deal {deal!r}: a {spec.name} condition holds in every deal "
            f"(only {_games_with(lambda d: d.deals)} condition one deal of their game)"
        )
    if trump_card is not None and not dealing.trump_card:
        raise UsageError(
            f"trump card {trump_card!r}: {spec.name} shows no trump card "
            f"(only {_games_with(lambda d: d.trump_card)} does)"
        )
    if dealing.deals:
        if deal is None:
            raise UsageError(
                f"a {spec.name} hand condition needs the deal it applies to "
                f"(deal=1..{dealing.deals}, --deal N)"
            )
        number = _deal_number(deal, dealing.deals)
        if not given:
            raise UsageError(f"deal {number} is given without a hand condition")
        deck, sizes, more, what = dealing.deck(players, number)
        masks = parse_hands(hands, players, spec.deck, [max(sizes) + 1] * players)
        for m in masks:
            outside = [c for c in cards.cards_of(m) if not (deck >> c) & 1]
            if outside:
                raise UsageError(
                    f"card {cards.code(outside[0])!r} is not in deal {number}'s deck of "
                    f"{players} players ({what})"
                )
        for seat, m in enumerate(masks):
            n = bin(m).count("1")
            if n > sizes[seat]:
                note = " or one more, by where the dealer sits" if more else ""
                raise UsageError(
                    f"seat {seat} is given {n} cards, but holds {sizes[seat]}{note} in deal {number}"
                )
        return Condition(spec.name, players, masks, -1, number) if any(masks) else None
    size = spec.deck // players
    masks = parse_hands(hands, players, spec.deck, [size] * players)
    trump = -1
    if trump_card is not None:
        trump = card_list(trump_card, spec.deck)
        if len(trump) != 1:
            raise UsageError(f"trump card {trump_card!r} must be one card, such as '7H'")
        trump = trump[0]
        for seat, m in enumerate(masks):
            if (m >> trump) & 1:
                raise UsageError(
                    f"trump card {cards.code(trump)!r} is given to seat {seat}: the face-up card "
                    "goes to each deal's dealer, give it only as the trump card"
                )
            if bin(m).count("1") == size:
                raise UsageError(
                    f"seat {seat} is given all {size} cards, so it could not take the face-up trump "
                    f"card {cards.code(trump)!r} when it deals"
                )
    return Condition(spec.name, players, masks, trump, 0) if any(masks) or trump >= 0 else None
