"""Conditions on a deal, checked at the Python edge: which cards which seats hold.

A user fixes some or all of a seat's cards (``--hand SEAT:CARDS``, API
``hands={1: "JS 9S AS"}``); the kernels deal the rest uniformly
(``cardmc.kernels.condition.deal_given``). ``parse_hands`` turns the user's
text into one card mask per seat and refuses, with one line naming the
problem, a card outside the game's deck, a card given twice, a seat that
does not exist and more cards than a seat holds.

``make`` builds a run's ``Condition`` with each game's own checks (its deck,
hand sizes, Differenzler's face-up trump card, the Norwegian Jazz deal it
applies to); the kernels read it as one int64 array (``Condition.array``).
The rules a condition follows are in docs/RULES.md, "Conditions".
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from cardmc import registry
from cardmc.kernels import cards
from cardmc.registry import GameSpec, UsageError

NORWEGIAN_DEALS = 6


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


def seat_of(value: object, players: int) -> int:
    try:
        seat = int(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise UsageError(f"seat {value!r} is not a seat number (0..{players - 1})") from None
    if isinstance(value, bool) or str(seat) != str(value).strip() or not 0 <= seat < players:
        raise UsageError(f"seat {value!r} is not a seat of a {players}-player game (0..{players - 1})")
    return seat


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
        seat = seat_of(seat_text, players)
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


def _deal_number(value: object) -> int:
    if isinstance(value, bool):
        raise UsageError(f"deal {value!r} is not a deal number (1..{NORWEGIAN_DEALS})")
    try:
        deal = int(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise UsageError(f"deal {value!r} is not a deal number (1..{NORWEGIAN_DEALS})") from None
    if str(deal) != str(value).strip() or not 1 <= deal <= NORWEGIAN_DEALS:
        raise UsageError(f"deal {value!r} is not a deal number (1..{NORWEGIAN_DEALS})")
    return deal


def _norwegian_deck(players: int, deal: int) -> tuple[int, list[int]]:
    """(deck mask, most cards any seat can be given) of Norwegian Jazz deal ``deal``."""
    from cardmc.kernels import norwegian_jazz as nj

    if deal == NORWEGIAN_DEALS:
        return cards.FULL52, [52 // players] * players
    deck = int(nj.ADJUSTED_MASK[players])
    return deck, [bin(deck).count("1") // players] * players


def make(spec_or_game: GameSpec | str, players: int, hands=None, trump_card=None, deal=None) -> Condition | None:
    """The checked condition of a run of the game (None when nothing is
    given, so an unconditioned run is untouched); ``UsageError`` names the
    first problem: a card outside the deck of the game (or of the deal), a
    card given twice, a seat that does not exist, more cards than a seat
    holds, a trump card where the game shows none or a hand holds it, a deal
    number outside Norwegian Jazz or missing there."""
    spec = registry.get(spec_or_game) if isinstance(spec_or_game, str) else spec_or_game
    players = spec.check_players(players)
    given = hand_items(hands)
    if not given and trump_card is None and deal is None:
        return None
    if deal is not None and spec.name != "norwegian_jazz":
        raise UsageError(f"deal {deal!r}: only norwegian_jazz conditions one deal of its six; "
                         f"a {spec.name} condition holds in every deal")  # fmt: skip
    if trump_card is not None and spec.name != "differenzler":
        raise UsageError(f"trump card {trump_card!r}: {spec.name} shows no trump card (only differenzler does)")
    number = 0
    if spec.name == "norwegian_jazz":
        if deal is None:
            raise UsageError("a norwegian_jazz hand condition needs the deal it applies to (deal=1..6, --deal N)")
        number = _deal_number(deal)
        if not given:
            raise UsageError(f"deal {number} is given without a hand condition")
        deck, sizes = _norwegian_deck(players, number)
        masks = parse_hands(hands, players, 52, [max(sizes) + 1] * players)
        for m in masks:
            outside = [c for c in cards.cards_of(m) if not (deck >> c) & 1]
            if outside:
                raise UsageError(f"card {cards.code(outside[0])!r} is not in deal {number}'s deck of "
                                 f"{players} players (docs/RULES.md: the adjusted deck)")  # fmt: skip
        for seat, m in enumerate(masks):
            n = bin(m).count("1")
            if n > sizes[seat]:
                more = " or one more, by where the dealer sits" if number == NORWEGIAN_DEALS and 52 % players else ""
                raise UsageError(f"seat {seat} is given {n} cards, but holds {sizes[seat]}{more} in deal {number}")
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
                raise UsageError(f"trump card {cards.code(trump)!r} is given to seat {seat}: the face-up card "
                                 "goes to each deal's dealer, give it only as the trump card")  # fmt: skip
            if bin(m).count("1") == size:
                raise UsageError(f"seat {seat} is given all {size} cards, so it could not take the face-up trump "
                                 f"card {cards.code(trump)!r} when it deals")  # fmt: skip
    return Condition(spec.name, players, masks, trump, 0) if any(masks) or trump >= 0 else None
