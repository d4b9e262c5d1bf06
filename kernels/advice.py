"""One decision of each game's heuristic player from a seat's view
(``cardmc.advise``): the seat's hand now and the deal's plays so far, in
order, replayed with the game kernel's own bookkeeping, then the kernel's own
heuristic card function. Each answers what the heuristic seat would play at
that point of a game the kernel plays, from nothing the seat did not see.

``plays`` holds the deal's cards in playing order, ``seats`` who played
each (``count`` of them); the first play's seat led the first trick.
"""

from __future__ import annotations

import numpy as np

from cardmc.kernels import differenzler as dz
from cardmc.kernels import english_jazz as ej
from cardmc.kernels import norwegian_jazz as nj
from cardmc.kernels import schieber as sb
from cardmc.kernels.bits import ONE, ZERO, bit, highest, lowest
from cardmc.kernels.jit import jit
from cardmc.kernels.tricks import JASS_PLAIN, SUIT16, TRUMPS_ABOVE


@jit
def schieber_card(hand, plays, count, contract, chose, rules):
    """Schieber: the heuristic's card (``chose``: the seat's team chose the
    contract; ``rules``: the rules word of ``schieber.rules_of``)."""
    prow = sb.points_row(rules, contract)
    tmask, jack = sb.trump_masks(contract)
    trump = sb.trump_of(contract)
    played = ZERO
    for j in range(count):
        played |= ONE << np.uint64(plays[j])
    k = count % 4
    lead = win_card = win_pos = pts = 0
    win_str = -1
    follow = ZERO
    beat = tmask
    trump_led = False
    for pos in range(k):
        card = plays[count - k + pos]
        b = ONE << np.uint64(card)
        suit = card >> 4
        if pos == 0:
            lead = card
            follow = SUIT16 << np.uint64(16 * suit)
            trump_led = suit == trump
        s = sb.STRENGTH[contract, card] if b & (follow | tmask) != ZERO else -1
        if s > win_str:
            win_card, win_pos, win_str = card, pos, s
            if b & tmask != ZERO:
                beat = TRUMPS_ABOVE[card & 15] << np.uint64(16 * suit)
        pts += sb.POINTS[prow, card]
    legal = hand if k == 0 else sb.follow_rule(hand, follow, tmask, jack, beat, trump_led)
    return sb.choose_card(
        hand, legal, played, lead, win_card, k, win_pos, win_str, pts, contract, chose, prow
    )


@jit
def differenzler_card(hand, plays, seats, count, trump, declared, me):
    """Differenzler: the heuristic's card towards the seat's declaration."""
    tb = (trump & 3) * 64
    gone = ZERO
    made = 0
    led, beat, winner, pot, i, t = -1, ~ZERO, -1, 0, 0, 0
    for j in range(count):
        if i == 0:
            led, beat, pot = -1, ~ZERO, dz.LAST_TRICK if t == 8 else 0
        c = plays[j]
        led = c >> 4 if i == 0 else led
        if beat & bit(c) != ZERO:
            winner = seats[j]
            beat = dz.BEATERS[tb + c]
        pot += dz.POINTS[tb + c]
        gone |= bit(c)
        i += 1
        if i == dz.PLAYERS:
            made += pot if winner == me else 0
            i, t = 0, t + 1
    if i == 0:
        led, beat, pot = -1, ~ZERO, dz.LAST_TRICK if t == 8 else 0
    legal = dz.legal_cards(hand, led, trump, beat)
    return dz.heuristic_card(hand, legal, i, led, beat, pot, trump, declared - made, ~(hand | gone))


@jit
def english_jazz_card(hand, plays, seats, count, me):
    """English Jazz: the heuristic's card, with the tricks and card points the
    seats took so far this deal and the trump the play set."""
    won = np.zeros(ej.PLAYERS, np.uint64)
    tricks = np.zeros(ej.PLAYERS, np.int64)
    plain = np.zeros(ej.PLAYERS, np.int64)
    trump, setter, played = -1, -1, ZERO
    led, top, best, trick_mask, trick_plain, k, t, leader = -1, -1, 0, ZERO, 0, 0, 0, 0
    for j in range(count):
        if k == 0:
            led, top, best, trick_mask, trick_plain, leader = -1, -1, 0, ZERO, 0, seats[j]
        c = plays[j]
        led, trump, setter, top, best = ej.settle(c, k, seats[j], led, trump, setter, top, best)
        trick_mask |= bit(c)
        trick_plain += JASS_PLAIN[c & 15]
        k += 1
        if k == ej.PLAYERS:
            played |= trick_mask
            ej.close_trick(leader, best, trick_mask, trick_plain, won, tricks, plain)
            k, t = 0, t + 1
    if k == 0:
        led, top, best, trick_mask, trick_plain = -1, -1, 0, ZERO, 0
    legal = ej.legal_cards(hand, led)
    if legal & (legal - ONE) == ZERO:
        return lowest(legal)
    return ej.heuristic_play(
        k, me, hand, legal, led, trump, top, trick_plain, trick_mask, played, won, tricks, plain, t
    )


@jit
def norwegian_jazz_card(number, hand, plays, count, n, deck):
    """Norwegian Jazz, deals 1-5 (``number``): the heuristic's card; ``deck``:
    the deal's cards (the adjusted deck)."""
    others = deck & ~hand
    for j in range(count):
        others &= ~bit(plays[j])
    pos = count % n
    if pos == 0:
        return nj.heuristic_trick_card(number, hand, hand, 0, n, -1, others)
    led_mask = SUIT16 << np.uint64(plays[count - pos] & 48)
    trick = ZERO
    for j in range(count - pos, count):
        trick |= bit(plays[j])
    return nj.heuristic_trick_card(
        number, hand, nj.trick_legal(hand, led_mask), pos, n, highest(trick & led_mask), others
    )
