"""Trick machinery shared by the games: suits, orders, Jass points, winners.

Orders are expressed as a *strength*: a larger strength wins. A card of the
trump suit gets ``TRUMP_BASE + trump strength``; a card of the led suit its
rank strength in the deal's order; any other card cannot win (-1).
"""

from __future__ import annotations

import numpy as np

from cardmc.kernels.bits import ONE, ZERO, lowest
from cardmc.kernels.cards import ACE, EIGHT, JACK, KING, NINE, QUEEN, SEVEN, SIX, TEN
from cardmc.kernels.jit import jit

TRUMP_BASE = 100
NO_TRUMP = -1

# order modes for the plain suits
PLAIN = 0  # A high .. 2 low (rank index)
REVERSED = 1  # Undenufe: 6 high .. A low

# trump strength by rank index: J 9 A K Q T 8 7 6 (J = 8 highest, 6 = 0)
TRUMP_STRENGTH = np.full(16, -1, dtype=np.int64)
for _s, _r in enumerate((SIX, SEVEN, EIGHT, TEN, QUEEN, KING, ACE, NINE, JACK)):
    TRUMP_STRENGTH[_r] = _s

# Jass card points by rank index (the shared table of docs/RULES.md)
JASS_PLAIN = np.zeros(16, dtype=np.int64)
JASS_TRUMP = np.zeros(16, dtype=np.int64)
for _r, _p in ((ACE, 11), (KING, 4), (QUEEN, 3), (JACK, 2), (TEN, 10)):
    JASS_PLAIN[_r] = _p
    JASS_TRUMP[_r] = _p
JASS_TRUMP[JACK] = 20
JASS_TRUMP[NINE] = 14

# TRUMPS_ABOVE[r]: 16-bit rank set of the trumps stronger than trump rank r
TRUMPS_ABOVE = np.zeros(16, dtype=np.uint64)
for _r in range(16):
    if TRUMP_STRENGTH[_r] >= 0:
        m = 0
        for _q in range(16):
            if TRUMP_STRENGTH[_q] > TRUMP_STRENGTH[_r]:
                m |= 1 << _q
        TRUMPS_ABOVE[_r] = m

SUIT16 = np.uint64(0xFFFF)


@jit
def suit_of(card):
    return card >> 4


@jit
def rank_of(card):
    return card & 15


@jit
def suit_cards(hand, suit):
    """The cards of ``suit`` in ``hand``."""
    return hand & (SUIT16 << np.uint64(16 * suit))


@jit
def trumps_above(trump, rank):
    """Mask of the trumps stronger than the trump of rank ``rank``."""
    return TRUMPS_ABOVE[rank] << np.uint64(16 * trump)


@jit
def strength(card, led, trump, order):
    """How strongly ``card`` bids for a trick led in suit ``led``.

    Trumps beat everything (trump order J 9 A K Q T 8 7 6); cards of the led
    suit rank by ``order`` (PLAIN or REVERSED); other cards cannot win (-1).
    """
    s = card >> 4
    r = card & 15
    if s == trump:
        return TRUMP_BASE + TRUMP_STRENGTH[r]
    if s == led:
        if order == REVERSED:
            return 15 - r
        return r
    return -1


@jit
def trick_winner(trick, n, trump, order):
    """Position (0..n-1, in playing order) of the card that wins the trick."""
    led = trick[0] >> 4
    best = 0
    top = strength(trick[0], led, trump, order)
    for i in range(1, n):
        st = strength(trick[i], led, trump, order)
        if st > top:
            top = st
            best = i
    return best


@jit
def jass_points(card, trump):
    """Jass card points of ``card`` with ``trump`` the trump suit (or NO_TRUMP)."""
    if card >> 4 == trump:
        return JASS_TRUMP[card & 15]
    return JASS_PLAIN[card & 15]


@jit
def jass_points_of(mask, trump):
    """Jass card points of every card in ``mask``."""
    total = 0
    m = mask
    while m != ZERO:
        c = lowest(m)
        total += jass_points(c, trump)
        m &= m - ONE
    return total
