"""The search player ``pimc`` in sevens, the sixth deal of Norwegian Jazz.

The batch kernel plays a ``pimc`` seat in sevens as ``heuristic`` until
``pimc_sevens_cards`` cards or fewer are left in all hands; from there, at
each turn where it has two or more legal cards, it asks ``cardmc.pimc`` for
the card (a forced play or a forced pass is played at once), and
``cardmc.pimc.play_game`` hands the decision to ``decide`` here.

What the seat has seen this deal (``seen``): its own hand as dealt, and every
turn so far, by whom: the cards played (the table) and the passes. The other
hands' sizes follow from the deal (52 cards dealt one at a time from the
seat after the dealer) and the cards each seat has played. A seat that
passed held no card that was playable at that moment, and a card that was
playable then stays playable until it is played, so a pass rules out every
unseen card that was playable then (``banned``). Each sample deals the
unseen cards into the other hands to their sizes, every card to a seat that
may hold it, one card at a time to a seat drawn by the room it has left,
among the seats that still leave a way to place the rest (Hall's condition
on the remaining cards and rooms), so a sample is never refused.

Each sample is solved with every hand seen by the exact sevens solver
(``cardmc.kernels.solve_sevens.value``): the value after each of the seat's
legal cards is the deal score it can make sure of from there, the others
playing together against it, to the end of the deal at the first player
out: ``first_out_bonus`` if it goes out first, -1 for each of its passes
(its earlier passes count the same for every card and are left out). The
seat plays the card with the best mean over the samples; where the search
sees no difference, it keeps the heuristic's card (ties: the heuristic's
card if it is among the best, else the lowest card code).

With the rule option ``play_out`` the deal goes on after the
first player out, which the solver does not play, so the kernel does not
ask and the seat plays sevens as ``heuristic``.
"""

from __future__ import annotations

import threading

import numpy as np

from cardmc.kernels import solve_sevens as K
from cardmc.kernels.events import EV_DEAL, EV_HAND, EV_PLAY
from cardmc.kernels.sevens import FULL52, heuristic_sevens_card, playable_of

SEVENS = 5  # the sixth deal's number in the EV_DEAL events (0-based)
PASS_COST = 1  # every pass scores -1 (docs/RULES.md, "Deal 6: sevens")
_frames = threading.local()  # each thread its own search frames


def in_sevens(events: np.ndarray) -> bool:
    """Is the last event of ``events`` in the sixth deal (sevens)?"""
    ev = np.asarray(events)
    deals = np.flatnonzero(ev[:, 0] == EV_DEAL)
    return bool(deals.size) and int(ev[deals[-1], 1]) == SEVENS


def _playable(table: int) -> int:
    return int(playable_of(np.uint64(table)))


def dealt_sizes(players: int, leader: int) -> list[int]:
    """Cards each seat is dealt in sevens: 52 // n, one more for the first
    52 mod n seats from ``leader`` (the seat after the dealer)."""
    sizes = [52 // players] * players
    for j in range(52 % players):
        sizes[(leader + j) % players] += 1
    return sizes


def seen(events: np.ndarray, players: int) -> dict:
    """What the seat to play (the last event, its EV_PLAY in sevens) knows:
    ``me``, its ``hand`` now and ``legal`` cards, the ``table`` (the cards
    played), the turns so far ``plays`` ((seat, card), -1 for a pass), the
    cards each seat holds now (``sizes``), the ``unseen`` cards and, per
    other seat, the unseen cards its passes rule out (``banned``)."""
    ev = np.asarray(events)
    start = int(np.flatnonzero(ev[:, 0] == EV_DEAL)[-1])
    if int(ev[start, 1]) != SEVENS or int(ev[-1, 0]) != EV_PLAY:
        raise ValueError("the events do not end with a play in sevens (deal 6)")
    leader = int(ev[start, 3])
    me = int(ev[-1, 1])
    dealt = None
    plays = []
    for kind, a, b, _ in ev[start:-1].tolist():
        if kind == EV_HAND and a == me:
            dealt = b
        elif kind == EV_PLAY:
            plays.append((a, b))
    sizes = dealt_sizes(players, leader)
    table = 0
    banned = {s: 0 for s in range(players) if s != me}
    for s, c in plays:
        if c < 0:
            if s != me:
                banned[s] |= _playable(table)  # it held none of them
        else:
            table |= 1 << c
            sizes[s] -= 1
    hand = dealt & ~table
    unseen = int(FULL52) & ~table & ~hand
    if sizes[me] != hand.bit_count() or sum(sizes) - sizes[me] != unseen.bit_count():
        raise ValueError("the events do not fit a sevens deal")
    if min(sizes) == 0:
        raise ValueError("a seat is out: the deal is played out, which the sevens solver does not play")
    return {
        "me": me,
        "players": players,
        "leader": leader,
        "hand": hand,
        "legal": hand & _playable(table),
        "table": table,
        "plays": plays,
        "sizes": sizes,
        "unseen": unseen,
        "banned": {s: m & unseen for s, m in banned.items()},
    }


def _subsets(m: int) -> np.ndarray:
    """(2^m, 2^m): [T, t] is 1 when the set of seats t lies within T."""
    t = np.arange(1 << m)
    return ((t[None, :] & ~t[:, None]) == 0).astype(np.int64)


def sample(view: dict, rng: np.random.Generator) -> np.ndarray:
    """One deal of the unseen cards into the other hands (uint64 per seat,
    the seat's own hand as it is), each hand to its size and no seat
    holding a card its passes rule out."""
    me, n = view["me"], view["players"]
    others = [s for s in range(n) if s != me]
    m = len(others)
    full = (1 << m) - 1
    cards = [c for c in range(64) if (view["unseen"] >> c) & 1]
    kinds = {c: sum(1 << i for i, s in enumerate(others) if not (view["banned"][s] >> c) & 1) for c in cards}
    room = np.array([view["sizes"][s] for s in others], np.int64)
    count = np.zeros(1 << m, np.int64)  # cards still to place, by the set of seats that may hold them
    for c in cards:
        count[kinds[c]] += 1
    within = _subsets(m)
    member = ((np.arange(1 << m)[:, None] >> np.arange(m)[None, :]) & 1).astype(np.int64)
    hands = [0] * m
    for j in rng.permutation(len(cards)):
        c = cards[j]
        kind = kinds[c]
        count[kind] -= 1
        who = [i for i in range(m) if (kind >> i) & 1 and room[i] > 0]
        while True:
            weights = room[who].astype(float)
            i = who[int(rng.choice(len(who), p=weights / weights.sum()))]
            room[i] -= 1
            if count[:full].sum() == 0 or (within @ count <= member @ room).all():
                break  # the rest can still be placed (Hall's condition)
            room[i] += 1
            who.remove(i)
        hands[i] |= 1 << c
    out = np.zeros(n, np.uint64)
    out[me] = view["hand"]
    for i, s in enumerate(others):
        out[s] = hands[i]
    return out


def card_values(view: dict, hands: np.ndarray, bonus: int, tt, salt: int) -> dict[int, int]:
    """The deal score the seat can make sure of from here after each of its
    legal cards, every hand as in ``hands`` (its earlier passes left out);
    ``tt``: a transposition table of ``cardmc.solve.table``, ``salt``: its
    key space for this objective."""
    keys, lows, highs = tt[0], tt[1], tt[2]
    if getattr(_frames, "held", None) is None:
        _frames.held = K.new_frames()
    fr, fk = _frames.held
    me, n = view["me"], view["players"]
    out = {}
    for c in range(64):
        if (view["legal"] >> c) & 1:
            h = hands.copy()
            h[me] ^= np.uint64(1 << c)
            if h[me] == 0:
                out[c] = bonus  # out first: the deal ends
            else:
                out[c] = int(
                    K.value(
                        h,
                        n,
                        (me + 1) % n,
                        me,
                        bonus,
                        PASS_COST,
                        keys,
                        lows,
                        highs,
                        keys.size - 1,
                        salt,
                        fr,
                        fk,
                    )
                )
    return out


def decide(
    events: np.ndarray, players: int, samples: int, rng: np.random.Generator, tt, bonus: int = 10
) -> int:
    """The card the seat to play (the last event of ``events``, its play in
    sevens) plays: the legal card with the highest mean value over
    ``samples`` deals of the unseen cards (ties: the heuristic's card if it
    is among them, else the lowest card code);
    ``bonus``: the rule option ``first_out_bonus``."""
    from cardmc.solve_sevens import fresh_salt

    view = seen(events, players)
    legal = view["legal"]
    if legal & (legal - 1) == 0:
        if legal == 0:
            raise ValueError("the seat has no legal card: it passes")
        return legal.bit_length() - 1
    salt = fresh_salt()  # one objective a decision: the samples share it
    totals: dict[int, int] = {}
    for _ in range(samples):
        for card, value in card_values(view, sample(view, rng), bonus, tt, salt).items():
            totals[card] = totals.get(card, 0) + value
    unplayed = np.uint64(int(FULL52) & ~view["table"])
    usual = int(heuristic_sevens_card(np.uint64(view["hand"]), np.uint64(legal), unplayed))
    return min(
        totals, key=lambda c: (-totals[c], c != usual, c)
    )  # ties: the heuristic's card, else the lowest
