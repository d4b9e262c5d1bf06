"""Schieber Weis: declarations of one hand and the comparison between players.

A suit of a 36-card hand is a 9-bit *pattern* (bit i = rank index i + 4, so
bit 0 is the 6 and bit 8 the A). Sequences are maximal runs of a pattern
(3 = 20, 4 = 50, 5+ = 100); four of a kind of A, K, Q or T = 100, of J = 200.
A declaration chooses which four-of-a-kinds to claim (their cards leave the
runs) to maximise the total, ties going to the stronger best combination.

The rule options of Weis travel as one int ``weis`` (0: the rulebook's
defaults): bit ``FOUR_NINES`` makes four 9s a four of a kind of 150
(``four_nines=150``), bit ``SCALED_RUNS`` scores a run of n >= 5 cards
100 + 50 (n - 5) (``long_runs=scaled``), bit ``NO_WEIS`` plays without
Weis (``weis=off``): no hand declares anything. Points come first in every
comparison, so the first two options change which combination is strongest.

Combinations compare by one integer *key* (larger is stronger), built from
docs/RULES.md's steps (1) points, (2) type (four of a kind beats a sequence),
(3) length, (4) rank (lower wins in Undenufe), (5) trump sequence; step (6),
the earlier player in the first trick, is applied by ``weis_winner``.
"""

from __future__ import annotations

import numpy as np

from cardmc.kernels.bits import ONE, ZERO, lowest
from cardmc.kernels.jit import jit

OBENABE, UNDENUFE = 4, 5  # contract codes; 0..3 are the trump suits C D H S
FOUR_NINES, SCALED_RUNS, NO_WEIS = 1, 2, 4  # bits of ``weis``

PATTERN = np.uint64(0x1FF)
QUARTET_RANKS = 0x1F0  # pattern bits of T J Q K A: the four-of-a-kinds that count
NINE_BIT = 3  # pattern bit of the 9: a four of a kind with FOUR_NINES
JACK_BIT = 5  # pattern bit of the J

# kinds: bit 0 three-run, 1 four-run, 2 five-plus-run, 3 + (rank bit - 4) quartet T J Q K A, 8 quartet 9
KIND_RUN3, KIND_RUN4, KIND_RUN5 = 1, 2, 4
KIND_NAMES = (
    "run3",
    "run4",
    "run5",
    "quartet_T",
    "quartet_J",
    "quartet_Q",
    "quartet_K",
    "quartet_A",
    "quartet_9",
)


def run_points(length: int, scaled: bool = False) -> int:
    """Points of a maximal run of ``length`` cards (``scaled``: long_runs=scaled)."""
    if length >= 5:
        return 100 + 50 * (length - 5) if scaled else 100
    return 50 if length == 4 else 20 if length == 3 else 0


def combination_key(points, quartet, length, rank_key, trump):
    """Comparison key of one combination (steps 1-5 of docs/RULES.md)."""
    return (((points * 2 + quartet) * 16 + length) * 16 + rank_key) * 2 + trump


def _runs(pattern: int) -> list[tuple[int, int]]:
    """Maximal runs of a pattern as (lowest bit, length), length >= 1."""
    out, i = [], 0
    while i < 9:
        if pattern >> i & 1:
            j = i
            while j < 9 and pattern >> j & 1:
                j += 1
            out.append((i, j - i))
            i = j
        else:
            i += 1
    return out


RUN_VALUE = np.zeros((2, 512), dtype=np.int64)  # [scaled?, pattern] run points
RUN_KINDS = np.zeros(512, dtype=np.int64)
RUN_BEST = np.zeros((2, 2, 512), dtype=np.int64)  # [scaled?, reversed?, pattern] best run key, trump bit 0
for _p in range(512):
    for _lo, _n in _runs(_p):
        if _n < 3:
            continue
        RUN_KINDS[_p] |= KIND_RUN5 if _n >= 5 else KIND_RUN4 if _n == 4 else KIND_RUN3
        _top = _lo + _n - 1 + 4  # rank index of the top card
        for _sc in range(2):
            _pts = run_points(_n, _sc == 1)
            RUN_VALUE[_sc, _p] += _pts
            RUN_BEST[_sc, 0, _p] = max(RUN_BEST[_sc, 0, _p], combination_key(_pts, 0, _n, _top, 0))
            RUN_BEST[_sc, 1, _p] = max(RUN_BEST[_sc, 1, _p], combination_key(_pts, 0, _n, 15 - _top, 0))


@jit(inline="always")
def _quartet_points(b):
    return 200 if b == JACK_BIT else 150 if b == NINE_BIT else 100


@jit(inline="always")
def _quartet_kind(b):
    """Kind bit of the four of a kind at pattern bit ``b``."""
    return 1 << (8 if b == NINE_BIT else b - 1)  # T J Q K A: bits 3..7


@jit(inline="always")
def quartet_ranks(weis):
    """Pattern bits of the four-of-a-kinds that count under ``weis``."""
    return QUARTET_RANKS | (1 << NINE_BIT) if weis & FOUR_NINES else QUARTET_RANKS


@jit(inline="always")
def _quartet_key(b, contract):
    rank = b + 4
    rk = 15 - rank if contract == UNDENUFE else rank
    return (((_quartet_points(b) * 2 + 1) * 16 + 4) * 16 + rk) * 2


@jit
def _option(p0, p1, p2, p3, claimed, contract, weis):
    """(total, best key, kinds) of the declaration claiming the quartet bits ``claimed``."""
    rev = 1 if contract == UNDENUFE else 0
    sc = 1 if weis & SCALED_RUNS else 0
    total = 0
    best = 0
    kinds = 0
    q = claimed
    while q != 0:
        b = lowest(np.uint64(q))
        total += _quartet_points(b)
        k = _quartet_key(b, contract)
        if k > best:
            best = k
        kinds |= _quartet_kind(b)
        q &= q - 1
    for s in range(4):
        p = p0 if s == 0 else p1 if s == 1 else p2 if s == 2 else p3
        p &= ~claimed
        total += RUN_VALUE[sc, p]
        kinds |= RUN_KINDS[p]
        k = RUN_BEST[sc, rev, p]
        if k > 0:
            if s == contract:
                k += 1
            if k > best:
                best = k
    return total, best, kinds


@jit
def declare(hand, contract, weis=0):
    """The Weis declaration of ``hand`` under the Weis options ``weis``: (claimed quartet bits, total,
    best key, kinds).

    ``best key`` is 0 when nothing is declared (always with ``NO_WEIS``). The
    claimed bits say which four-of-a-kinds are declared (pattern bits 4..8 =
    T J Q K A, 3 = the 9).
    """
    if weis & NO_WEIS:
        return 0, 0, 0, 0
    p0 = int(hand >> np.uint64(4) & PATTERN)
    p1 = int(hand >> np.uint64(20) & PATTERN)
    p2 = int(hand >> np.uint64(36) & PATTERN)
    p3 = int(hand >> np.uint64(52) & PATTERN)
    quartets = p0 & p1 & p2 & p3 & quartet_ranks(weis)
    best_claim, best_total, best_key, best_kinds = 0, -1, 0, 0
    sub = quartets
    while True:
        total, key, kinds = _option(p0, p1, p2, p3, sub, contract, weis)
        if total > best_total or (total == best_total and key > best_key):
            best_claim, best_total, best_key, best_kinds = sub, total, key, kinds
        if sub == 0:
            break
        sub = (sub - 1) & quartets
    return best_claim, best_total, best_key, best_kinds


@jit
def combinations(hand, claimed, masks, points, weis=0):
    """Write the declared combinations (card masks, points) of ``hand``; return their count (none with
    ``NO_WEIS``)."""
    if weis & NO_WEIS:
        return 0
    n = 0
    q = claimed
    while q != 0:
        b = lowest(np.uint64(q))
        m = ZERO
        for s in range(4):
            m |= ONE << np.uint64(16 * s + b + 4)
        masks[n] = m
        points[n] = _quartet_points(b)
        n += 1
        q &= q - 1
    for s in range(4):
        p = int(hand >> np.uint64(16 * s + 4) & PATTERN) & ~claimed
        i = 0
        while i < 9:
            if p >> i & 1:
                j = i
                while j < 9 and p >> j & 1:
                    j += 1
                if j - i >= 3:
                    m = ZERO
                    for r in range(i, j):
                        m |= ONE << np.uint64(16 * s + r + 4)
                    masks[n] = m
                    long = 50 * (j - i - 5) if weis & SCALED_RUNS else 0
                    points[n] = 100 + long if j - i >= 5 else 50 if j - i == 4 else 20
                    n += 1
                i = j
            else:
                i += 1
    return n


@jit
def weis_winner(keys, forehand):
    """Seat holding the strongest combination (earlier player wins ties), -1 if none."""
    return strongest(keys[0], keys[1], keys[2], keys[3], forehand)


@jit(inline="always")
def strongest(k0, k1, k2, k3, forehand):
    """``weis_winner`` of the seats' best keys k0..k3."""
    best, seat = 0, -1
    for pos in range(4):
        s = (forehand + pos) & 3
        k = k0 if s == 0 else k1 if s == 1 else k2 if s == 2 else k3
        if k > best:
            best = k
            seat = s
    return seat


MAX_TOTAL = 1024  # above any hand's declared total


@jit
def declaration_counts(weis=0):
    """Exact number of 9-card hands per declared kinds and the sum of declared totals under the Weis
    options ``weis`` (kinds 0..255, or 0..511 with FOUR_NINES: bit 8 is four 9s)."""
    counts, by_total = declaration_table(weis)
    points = 0
    for t in range(MAX_TOTAL):
        points += t * by_total[t]
    return counts, points


@jit
def declaration_table(weis=0):
    """Exact number of 9-card hands per declared kinds and per declared total (``MAX_TOTAL`` cells)
    under the Weis options ``weis``.

    Every hand is four 9-bit suit patterns; a declaration does not change when
    the suits are permuted, so each multiset of patterns p0 <= p1 <= p2 <= p3
    is declared once and counted 4! / (repeats) times (C(36, 9) hands in all).
    """
    by_size = np.zeros((10, 512), np.int64)
    n_size = np.zeros(10, np.int64)
    pc = np.zeros(512, np.int64)
    for p in range(512):
        c = 0
        for b in range(9):
            c += p >> b & 1
        pc[p] = c
        by_size[c, n_size[c]] = p
        n_size[c] += 1
    counts = np.zeros(512 if weis & FOUR_NINES else 256, np.int64)
    by_total = np.zeros(MAX_TOTAL, np.int64)
    for p0 in range(512):
        for p1 in range(p0, 512):
            if pc[p0] + pc[p1] > 9:
                continue
            for p2 in range(p1, 512):
                rest = 9 - pc[p0] - pc[p1] - pc[p2]
                if rest < 0:
                    continue
                for i in range(n_size[rest]):
                    p3 = by_size[rest, i]
                    if p3 < p2:
                        continue
                    hand = (
                        (np.uint64(p0) << np.uint64(4))
                        | (np.uint64(p1) << np.uint64(20))
                        | (np.uint64(p2) << np.uint64(36))
                        | (np.uint64(p3) << np.uint64(52))
                    )
                    _, total, _, kinds = declare(hand, OBENABE, weis)
                    # distinct orderings of the multiset {p0, p1, p2, p3}
                    if p0 == p1 == p2 == p3:
                        w = 1
                    elif p0 == p1 == p2 or p1 == p2 == p3:
                        w = 4
                    elif p0 == p1 and p2 == p3:
                        w = 6
                    elif p0 == p1 or p1 == p2 or p2 == p3:
                        w = 12
                    else:
                        w = 24
                    counts[kinds] += w
                    by_total[total] += w
    return counts, by_total
