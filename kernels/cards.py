"""Cards as small ints and hands as uint64 masks, shared by all four games.

A card is ``suit * 16 + rank`` with ranks ``23456789TJQKA`` = 0..12 and suits
``CDHS`` = 0..3, so bit ``card`` of a uint64 is that card and the 16 bits of a
suit sit together (``(mask >> (16 * suit)) & 0xFFFF``). The 36-card Swiss deck
uses ranks 6..A (4..12); Norwegian Jazz uses all 52 cards. Within a suit a
higher rank index is a higher card in the plain order A K Q J T 9 8 7 6 ... 2.

Text codes (``"7H"``, ``"TS"``) live only at the Python edge: ``code``,
``parse``, ``mask_of`` and ``cards_of`` convert. ``deal_packets`` is the
kernels' deal in packets of three; ``deal36`` shuffles the 36-card deck and
deals it so.
"""

from __future__ import annotations

import numpy as np

from cardmc.kernels import rng
from cardmc.kernels.bits import ZERO, bit
from cardmc.kernels.jit import jit

RANKS = "23456789TJQKA"
SUITS = "CDHS"
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3

# rank indices
TWO, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = 0, 4, 5, 6, 7, 8, 9, 10, 11, 12

SUIT_BITS = np.uint64(0xFFFF)


@jit(inline="always")
def deal_packets(cards, first, players, hands):
    """Deal ``cards`` in order, in packets of three, to seat ``first`` and on
    round the table (``players`` seats, every seat the same number); ``hands``
    get the masks."""
    for s in range(players):
        hands[s] = ZERO
    pos = 0
    for _ in range(cards.size // (3 * players)):
        for j in range(players):
            hands[(first + j) % players] |= bit(cards[pos]) | bit(cards[pos + 1]) | bit(cards[pos + 2])
            pos += 3


DECK36_BYTES = np.array([s * 16 + r for s in range(4) for r in range(SIX, ACE + 1)], np.uint8)
DEAL_BYTES = 100  # the work bytes of ``deal36``: the deck, then the shuffle's draws from byte 64


@jit(inline="always")
def deal36(z, first, players, hands, b):
    """The 36-card deck shuffled from the stream state ``z`` exactly as
    ``rng.shuffle_from`` shuffles it, and dealt as ``deal_packets`` deals
    it (packets of three from seat ``first`` on, ``players`` 3 or 4 seats).
    Returns the last card dealt. ``b`` is a work array of at least
    ``DEAL_BYTES`` uint8: the deck in bytes 0..35 and the draws in bytes
    64..99.

    The draws come first, in one loop of independent multiplies (the
    compiler vectorises it: a third of the deal's time), then the swaps,
    where the card each position ends with goes straight into its packet."""
    for i in range(36):
        b[i] = DECK36_BYTES[i]
    b[64] = 0
    for i in range(1, 36):  # the draw of step i is the stream's (36 - i)-th
        b[64 + i] = np.uint8(rng.below_at(z, 36 - i, i + 1))
    h0 = h1 = h2 = h3 = ZERO  # the packets of seats first, first + 1, ...
    last = 0
    for p in range(11, -1, -1):  # packet p: positions 3p..3p+2, from the last as the shuffle fixes them
        m = ZERO
        for q in range(2, -1, -1):
            i = 3 * p + q
            j = b[64 + i]
            c = b[j]
            b[j] = b[i]
            m |= bit(c)
            last = np.int64(c) if i == 35 else last
        r = p % players
        h0 |= m if r == 0 else ZERO
        h1 |= m if r == 1 else ZERO
        h2 |= m if r == 2 else ZERO
        h3 |= m if r == 3 else ZERO
    hands[first % players] = h0
    hands[(first + 1) % players] = h1
    hands[(first + 2) % players] = h2
    if players > 3:
        hands[(first + 3) % players] = h3
    return last


def card_of(rank: int, suit: int) -> int:
    return suit * 16 + rank


def deck(size: int) -> np.ndarray:
    """The cards of a 36- or 52-card deck as an int64 array, in suit then rank order."""
    low = {36: SIX, 52: TWO}[size]
    return np.array([s * 16 + r for s in range(4) for r in range(low, 13)], dtype=np.int64)


def deck_mask(size: int) -> int:
    m = 0
    for c in deck(size):
        m |= 1 << int(c)
    return m


FULL36 = deck_mask(36)
FULL52 = deck_mask(52)
CARD_INDEX = {RANKS[r] + SUITS[s]: s * 16 + r for s in range(4) for r in range(13)}


def code(card: int) -> str:
    """Two-character code of a card int: ``code(5 + 32) == "7H"``."""
    return RANKS[card & 15] + SUITS[card >> 4]


def parse(text: str, deck_size: int = 52) -> int:
    """Card int of a code such as ``"7H"``; ``ValueError`` names a bad code."""
    c = CARD_INDEX.get(text.strip().upper()) if isinstance(text, str) else None
    if c is None or not (deck_mask(deck_size) >> c) & 1:
        raise ValueError(f"unknown card code {text!r} for a {deck_size}-card deck")
    return c


def cards_of(mask: int) -> list[int]:
    """Card ints of a mask, lowest first."""
    mask = int(mask)
    return [c for c in range(64) if (mask >> c) & 1]


def codes_of(mask: int) -> list[str]:
    return [code(c) for c in cards_of(mask)]


def mask_of(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def parse_hand(text: str, size: int, deck_size: int = 36) -> int:
    """Mask of a hand written as codes separated by spaces or commas.

    Raises ``ValueError`` naming an unknown code, a duplicate or a wrong count.
    """
    parts = [p for p in text.replace(",", " ").split() if p]
    seen: list[int] = []
    for p in parts:
        c = parse(p, deck_size)
        if c in seen:
            raise ValueError(f"card {p!r} appears twice in the hand")
        seen.append(c)
    if len(seen) != size:
        raise ValueError(f"a hand needs {size} cards, got {len(seen)}: {text!r}")
    return mask_of(seen)
