"""The cost of a deal, plain and under a condition, for ``cardmc bench GAME --hand ...``.

Each loop deals ``count`` deals exactly as the game's kernel does (its own
deal functions, inlined the same way) and returns a checksum of the hands,
so nothing is optimised away.
"""

from __future__ import annotations

import numpy as np

from cardmc.kernels import condition, differenzler, norwegian_jazz, rng, schieber
from cardmc.kernels.jit import jit


@jit
def packets(seed, count, face_up):
    """Plain deals of the 36-card games (shuffle, packets of three); with
    ``face_up`` Differenzler's, which also show the dealer's last card."""
    cards, hands = np.empty(36, np.int64), np.empty(4, np.uint64)
    check = np.uint64(0)
    for i in range(count):
        if face_up:
            c = differenzler.deal_into(seed, i, 0, i & 3, hands, cards)
            check += np.uint64(c)
        else:
            schieber.deal_into(seed, i, 0, i & 3, cards, hands)
        check ^= hands[0] + hands[1]
    return check


@jit
def one_by_one(seed, count, players, deal):
    """Plain Norwegian Jazz deals of deal number ``deal`` (1..6), one card at a time."""
    buf, hands = np.empty(52, np.int64), np.empty(players, np.uint64)
    m = norwegian_jazz.ADJUSTED_SIZE[players] if deal < 6 else 52
    check = np.uint64(0)
    for i in range(count):
        for j in range(m):
            buf[j] = norwegian_jazz.ADJUSTED[players, j] if deal < 6 else norwegian_jazz.FULL_DECK[j]
        norwegian_jazz.deal_from(rng.key(seed, i, deal - 1, rng.DEAL), buf, m, hands, players, i % players)
        check ^= hands[0] + hands[1]
    return check


@jit
def given(seed, count, players, deck, cond, face_up):
    """Deals of the cards of mask ``deck`` under ``cond`` (``condition.deal_condition``),
    with Differenzler's face-up card when ``face_up``."""
    buf, hands = np.empty(52, np.int64), np.empty(players, np.uint64)
    check = np.uint64(0)
    for i in range(count):
        dealer = i % players
        z = condition.deal_condition(
            cond, deck, players, dealer, dealer, rng.key(seed, i, 0, rng.DEAL), buf, hands
        )
        if face_up:
            _, c = condition.face_up_from(z, hands[dealer], cond[condition.CT_TRUMP])
            check += np.uint64(c)
        check ^= hands[0] + hands[1]
    return check
