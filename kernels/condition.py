"""Conditional dealing: some seats' cards fixed, the rest dealt at random.

``deal_given`` completes a condition. The cards no seat is given are
shuffled by the deal's stream and fill the seats' free places in seat order,
so every completion of the condition is equally likely (a uniform permutation
of the free cards, cut into the free places). It shuffles fewer cards than
an unconditional deal, so a conditional deal costs no more than a plain one.

``face_up_card`` is Differenzler's shown trump card under a condition: the
given card, else a card of the dealer's hand chosen uniformly (in a plain
deal the dealer's last card is any of their cards with equal chance).
"""

from __future__ import annotations

import numpy as np

from cardmc.kernels import rng
from cardmc.kernels.bits import ONE, ZERO, bit, lowest, nth, popcount
from cardmc.kernels.cards import FULL36, FULL52
from cardmc.kernels.jit import jit


@jit
def deal_given(deck, fixed, sizes, players, st, buf, hands):
    """Deal the cards of mask ``deck``: seat ``s`` gets its fixed cards
    ``fixed[s]`` and ``sizes[s]`` cards in all, the rest drawn from the
    free cards shuffled by stream ``st`` (``buf`` holds at least as many
    ints as there are free cards). The caller has checked the condition:
    fixed cards lie in ``deck``, are disjoint and fit the sizes."""
    free = deck
    for s in range(players):
        free &= ~fixed[s]
    n = 0
    while free != ZERO:
        buf[n] = lowest(free)
        n += 1
        free &= free - ONE
    st[0] = rng.shuffle_from(st[0], buf[:n])
    pos = 0
    for s in range(players):
        h = fixed[s]
        for _ in range(sizes[s] - popcount(fixed[s])):
            h |= bit(buf[pos])
            pos += 1
        hands[s] = h


@jit
def face_up_card(dealer_hand, given, st):
    """The face-up trump card: ``given`` when it is a card (>= 0), else a
    uniformly chosen card of the dealer's hand."""
    if given >= 0:
        return given
    return nth(dealer_hand, rng.below(st, popcount(dealer_hand)))


@jit
def deal_given_many(deck, fixed, sizes, players, seed, start, count, deal, purpose):
    """Hands of deals ``start..start+count-1`` (stream ``(seed, i, deal,
    purpose)``): an int64 view for tests and the chi-square check."""
    out = np.empty((count, players), np.uint64)
    buf = np.empty(64, np.int64)
    hands = np.empty(players, np.uint64)
    st = np.empty(1, np.uint64)
    for g in range(count):
        st[0] = rng.key(seed, start + g, deal, purpose)
        deal_given(deck, fixed, sizes, players, st, buf, hands)
        for s in range(players):
            out[g, s] = hands[s]
    return out


# A run's condition as the kernels read it: one int64 array of the trump card
# (-1: none), the deal number it applies to (0: every deal) and one mask of
# fixed cards per seat (cardmc.condition.Condition.array builds it).
CT_TRUMP, CT_DEAL, CT_HANDS = 0, 1, 2
DECK36, DECK52 = np.uint64(FULL36), np.uint64(FULL52)  # the decks as masks
PLAIN = np.array([-1, -1], np.int64)
"""No condition (``CT_DEAL`` -1; the kernels test ``cond[CT_DEAL]`` before
anything else). Plain runs pass it rather than None, so that one compiled
version of each game's kernels serves plain and conditioned runs."""


def of(array):
    """The condition array a kernel is given: ``array``, or ``PLAIN`` for None."""
    return PLAIN if array is None else array


@jit
def deal_condition(cond, deck, players, first, dealer, z, buf, hands):
    """Deal the cards of mask ``deck`` under the condition ``cond``, as
    ``deal_given`` does, from the deal's stream state ``z``; returns the new
    state. Every seat gets ``popcount(deck) // players`` cards, and the first
    ``popcount(deck) % players`` seats from ``first`` one more (the plain
    deals' sizes). A trump card (``cond[CT_TRUMP] >= 0``) is fixed in the
    hand of ``dealer``. ``buf`` holds at least as many ints as the deck."""
    trump = cond[CT_TRUMP]
    free = deck
    for s in range(players):
        free &= ~np.uint64(cond[CT_HANDS + s])
    if trump >= 0:
        free &= ~bit(trump)
    n = 0
    while free != ZERO:
        buf[n] = lowest(free)
        n += 1
        free &= free - ONE
    for i in range(n - 1, 0, -1):  # rng.shuffle_from on buf[:n], without the view
        z, j = rng.below_from(z, i + 1)
        t = buf[i]
        buf[i] = buf[j]
        buf[j] = t
    total = popcount(deck)
    base, extra = total // players, total % players
    pos = 0
    for s in range(players):
        h = np.uint64(cond[CT_HANDS + s])
        if trump >= 0 and s == dealer:
            h |= bit(trump)
        size = base + (1 if (s - first + players) % players < extra else 0)
        for _ in range(size - popcount(h)):
            h |= bit(buf[pos])
            pos += 1
        hands[s] = h
    return z


@jit
def face_up_from(z, dealer_hand, given):
    """``face_up_card`` on a stream state held in a register: (new state, card)."""
    if given >= 0:
        return z, given
    z, i = rng.below_from(z, popcount(dealer_hand))
    return z, nth(dealer_hand, i)
