"""Conditions on a deal, checked at the Python edge: which cards which seats hold.

A user fixes some or all of a seat's cards (``--hand SEAT:CARDS``, API
``hands={1: "JS 9S AS"}``); the kernels deal the rest uniformly
(``cardmc.kernels.condition.deal_given``). ``parse_hands`` turns the user's
text into one card mask per seat and refuses, with one line naming the
problem, a card outside the game's deck, a card given twice, a seat that
does not exist and more cards than a seat holds.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from cardmc.kernels import cards
from cardmc.registry import UsageError


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
