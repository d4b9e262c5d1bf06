"""Sevens (fan tan), the sixth deal of Norwegian Jazz (docs/RULES.md section 4).

The table is a uint64 mask of the cards played. Each suit's row opens with
its 7 and grows one card at a time upwards (8 .. A) and downwards (6 .. 2),
so the cards a player may add are a mask too, ``playable``: every 7 not yet
down, and next to every open row the card above its top and below its
bottom. A player with a legal card must play one; otherwise they pass (-1).
"""

from __future__ import annotations

import numpy as np

from cardmc.kernels import rng
from cardmc.kernels.bits import ONE, ZERO, bit, highest, lowest, nth, nth_bit, popcount
from cardmc.kernels.cards import SEVEN, deck_mask
from cardmc.kernels.events import EV_PLAY
from cardmc.kernels.jit import jit
from cardmc.kernels.script import scripted_card

FULL52 = np.uint64(deck_mask(52))
SUIT16 = np.uint64(0xFFFF)
SEVENS = np.uint64(sum(1 << (16 * s + SEVEN) for s in range(4)))
TOP_RANK = 12  # the ace

POLICY_RANDOM, POLICY_HEURISTIC = 0, 1


@jit(inline="always")
def pick_random(legal, st):
    """A uniformly random card of the non-empty mask ``legal``."""
    return nth(legal, rng.below(st, popcount(legal)))


@jit(inline="always")
def record(events, ne, kind, a, b, c):
    """Write trace event ``ne``; returns the new count."""
    events[ne, 0] = kind
    events[ne, 1] = a
    events[ne, 2] = b
    events[ne, 3] = c
    return ne + 1


@jit
def playable_of(table):
    """The cards the rules allow onto ``table`` (a mask of played cards)."""
    p = ZERO
    for s in range(4):
        row = (table >> np.uint64(16 * s)) & SUIT16
        if (row >> np.uint64(SEVEN)) & ONE == ZERO:
            p |= bit(16 * s + SEVEN)
        else:
            top = highest(row)
            bottom = lowest(row)
            if top < TOP_RANK:
                p |= bit(16 * s + top + 1)
            if bottom > 0:
                p |= bit(16 * s + bottom - 1)
    return p


@jit(inline="always")
def after_play(playable, card):
    """``playable`` once ``card`` (one of its cards) is on the table."""
    r = card & 15
    p = playable ^ bit(card)
    if r == SEVEN:
        p |= bit(card - 1) | bit(card + 1)
    elif r > SEVEN:
        if r < TOP_RANK:
            p |= bit(card + 1)
    elif r > 0:
        p |= bit(card - 1)
    return p


@jit(inline="always")
def beyond(card):
    """The cards of ``card``'s suit that only become playable through it."""
    s16 = np.uint64(card & 48)
    r = card & 15
    suit = SUIT16 << s16
    if r == SEVEN:
        return suit & ~bit(card)
    if r > SEVEN:
        return suit & ~((bit(card) << ONE) - ONE)
    return suit & (bit(card) - ONE)


@jit
def heuristic_sevens_card(hand, legal, unplayed):
    """Open the way to our own cards, keep the doors to opponents' shut.

    Each legal card is scored by the cards it unlocks: ours count for us,
    the opponents' count against; the best score is played (ties: lowest).
    """
    best = -1
    best_key = -(1 << 30)
    m = legal
    while m != ZERO:
        c = lowest(m)
        m &= m - ONE
        b = beyond(c)
        mine = popcount(hand & b)
        theirs = popcount(unplayed & b) - mine
        key = mine * 64 - theirs
        if key > best_key:
            best_key = key
            best = c
    return best


SEVENS_FEATURES = (
    "heuristic",  # the heuristic's card
    "mine",  # the seat's cards that only become playable through the card
    "theirs",  # the other hands' cards that only become playable through it
    "next_mine",  # the cards it makes playable at once that the seat holds
    "next_theirs",  # the cards it makes playable at once that the other hands hold
    "seven",  # the card is a 7
    "suit_mine",  # the seat's other cards of its suit
    "far",  # the ranks from the card to the seat's farthest card beyond it (0: none)
)
NS = len(SEVENS_FEATURES)


@jit(inline="always")
def sevens_features(card, heur, hand, unplayed, f):
    """Write the sevens features of ``card`` into ``f`` (``SEVENS_FEATURES``' order); ``unplayed``: the cards
    in all hands, ``heur``: the heuristic's card."""
    r = card & 15
    b = bit(card)
    beyond_ = beyond(card)
    mine = hand & beyond_
    opens = ZERO
    if r >= SEVEN and r < TOP_RANK:
        opens |= b << ONE
    if r <= SEVEN and r > 0:
        opens |= b >> ONE
    far = 0
    if mine != ZERO:
        far = max(abs((highest(mine) & 15) - r), abs((lowest(mine) & 15) - r))
    f[0] = 1 if card == heur else 0
    f[1] = popcount(mine)
    f[2] = popcount(unplayed & beyond_) - popcount(mine)
    f[3] = popcount(hand & opens)
    f[4] = popcount(unplayed & ~hand & opens)
    f[5] = 1 if r == SEVEN else 0
    f[6] = popcount(hand & (SUIT16 << np.uint64(card & 48)) & ~b)
    f[7] = far


@jit(inline="always")
def learned_sevens_card(hand, legal, unplayed, weights):
    """The legal card of the highest score, ``weights`` . ``sevens_features`` (ties: the heuristic's card if it
    is among them, else the lowest code); -1 (a pass) without a legal card."""
    heur = heuristic_sevens_card(hand, legal, unplayed)
    if legal & (legal - ONE) == ZERO:
        return heur
    best_c, best_v, heur_v = -1, np.int64(0), np.int64(0)
    f = np.empty(NS, np.int64)
    m = legal
    while m != ZERO:
        c = lowest(m)
        m &= m - ONE
        sevens_features(c, heur, hand, unplayed, f)
        v = np.int64(0)
        for i in range(NS):
            v += weights[i] * f[i]
        if c == heur:
            heur_v = v
        if best_c < 0 or v > best_v:
            best_c, best_v = c, v
    return heur if heur_v == best_v else best_c


@jit
def view_sevens_learned(hand, table, unplayed, weights, feats):
    """The learned player in sevens with ``hand`` on ``table`` (the cards played), ``unplayed`` the cards in
    all hands: fills ``feats`` (a row per legal card, lowest code first) with ``sevens_features`` and returns
    (legal cards as a mask, the card ``weights`` play, -1: a pass)."""
    legal = hand & playable_of(table)
    heur = heuristic_sevens_card(hand, legal, unplayed)
    m = legal
    i = 0
    while m != ZERO:
        c = lowest(m)
        m &= m - ONE
        sevens_features(c, heur, hand, unplayed, feats[i])
        i += 1
    return np.int64(legal), learned_sevens_card(hand, legal, unplayed, weights)


# a card opens the card above it when that is of rank 8 to A, and the card
# below it when that is of rank 2 to 6 (``after_play`` without branches)
OPENS_UP = np.uint64(sum(((1 << 13) - (1 << (SEVEN + 1))) << (16 * s) for s in range(4)))
OPENS_DOWN = np.uint64(sum(((1 << SEVEN) - 1) << (16 * s) for s in range(4)))


@jit
def play_sevens(hands, table, leader, n, play_out, policies, st, passes, out_order, events, ne):
    """Play sevens from ``table`` (0 for a fresh deal) with ``hands`` (mutated).

    Seats with an empty hand are skipped. Play stops when the first player
    goes out, or, with ``play_out``, when every hand is empty. ``passes`` and
    ``out_order`` (1 = first out, 0 = never out) are added to / written.
    Returns (turns, first_out seat or -1, events written so far).
    """
    heuristic = 0
    for s in range(n):
        heuristic |= (1 << s) if policies[s, 0] != POLICY_RANDOM else 0
    turns, first, z, ne = sevens_from(
        hands, table, leader, n, play_out, heuristic, st[0], passes, out_order, events, ne
    )
    st[0] = z
    return turns, first, ne


@jit
def sevens_from(
    hands, table, leader, n, play_out, heuristic, z, passes, out_order, events, ne, script=None, cards=0,
    learned=0, weights=None,
):  # fmt: skip
    """``play_sevens`` with the seats of the heuristic player as the bits of
    ``heuristic`` and the random stream's state ``z`` in a register. Returns
    (turns, first_out seat or -1, new stream state, events written so far).
    A turn is written without branches on the cards: a pass plays no bit.
    The scripted seats (``cardmc.kernels.script``) play the cards of
    ``script`` once ``cards`` or fewer are left in all hands, when they have
    a choice (two legal cards or more); before, and for a forced play or
    pass, they play as the heuristic. The seats of ``learned`` (bits, among
    the heuristic's) play ``learned_sevens_card`` by ``weights``."""
    tracing = events.shape[0] > 0
    playable = playable_of(table)
    inhand = ZERO
    for s in range(n):
        inhand |= hands[s]
    left = popcount(inhand)
    seat = leader
    turns = 0
    nout = 0
    first = -1
    while left > 0:
        h = hands[seat]
        if h != ZERO:
            turns += 1
            legal = h & playable
            if (heuristic >> seat) & 1:
                if weights is not None and (learned >> seat) & 1:
                    b = bit(learned_sevens_card(h, legal, inhand, weights) & 63) & legal  # 0: a pass
                else:
                    b = bit(heuristic_sevens_card(h, legal, inhand) & 63) & legal  # 0: a pass
                if script is not None:
                    if left <= cards and legal & (legal - ONE) != ZERO:
                        c = scripted_card(script, seat, 0, ne)
                        b = bit(c) if c >= 0 else b
            else:
                z2, j = rng.below_from(z, popcount(legal))
                z = z2 if legal != ZERO else z
                b = nth_bit(legal, j)
            played = b != ZERO
            passes[seat] += 0 if played else 1
            if tracing:
                ne = record(events, ne, EV_PLAY, seat, lowest(b) if played else -1, np.int64(legal))
            h ^= b
            hands[seat] = h
            inhand ^= b
            left -= 1 if played else 0
            playable = (playable ^ b) | ((b << ONE) & OPENS_UP) | ((b >> ONE) & OPENS_DOWN)
            if h == ZERO:
                nout += 1
                out_order[seat] = nout
                if first < 0:
                    first = seat
                if not play_out:
                    break
        seat = seat + 1 if seat < n - 1 else 0
    return turns, first, z, ne
