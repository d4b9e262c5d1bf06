"""Exact perfect-information search for the trick games (every hand seen).

One alpha-beta search serves every trick game; the game's rules come from
``solve_rules`` (which calls the game kernels). A position is the hands
(uint64 masks), the first ``k`` cards of the trick in progress, its
``leader``, the trump (English Jazz: -1 until set by play) and ``flags``
(whether the counted seats, and the others, have won a trick this deal).

The value of a position is what the counted seats (``R[COUNTED]``) take from
here on, the seats in ``R[MAX_SIDE]`` maximising it and the others
minimising it. The search is boolean: ``search`` answers "can the maximising
side make the value at least ``lo``" (``R[MODE] = THRESHOLD``; fail-soft, so
the answer is also a bound of the value) or "... lie in [lo, hi]"
(``INTERVAL``), and ``value`` / ``least_distance`` find the number by
bisection on those null-window probes. At trick boundaries, sure points cut
the window first (``bounds``: the top trumps one side holds, the winners the
leader can cash, after drawing the trumps when its own top run outlasts
every other hand's trumps), then a transposition table, keyed by the hands, leader,
trump, flags and mode, holds lower and upper bounds of the value from here on
(INTERVAL mode: the narrowest window known to be kept and the widest known
not to be, which answer every window around the one and inside the other),
in buckets of four entries (a new
position takes an entry of another search, else the one of this search
nearest the end of the deal). Cards of one hand that nothing still out separates and that are
worth the same play alike: only one of them is searched. At a boundary
where the table has no card, the lead that last cut off at the same depth
for the same seat (a killer) is tried first, in Schieber only: in whole
deals of the games of one seat against the others (Differenzler, Norwegian
Jazz) it cost a fifth to a half more nodes.

The table's entries are 16 bytes each, their fields views of one array, so
that a probe touches one cache line. The search's kernels are compiled
without reference counting (``_nrt=False``): they allocate nothing, and the
atomic increments and decrements Numba puts around every array argument and
slice took half the run time.
"""

from __future__ import annotations

import numpy as np

from cardmc.kernels.bits import ONE, ZERO, bit, highest, lowest, nth, pext, popcount
from cardmc.kernels.cards import JACK
from cardmc.kernels.jit import jit
from cardmc.kernels.solve_rules import (
    BONUS,
    COUNTED,
    CUTS,
    DIFFERENZLER,
    ENGLISH_JAZZ,
    GAME,
    INTERVAL,
    MAX_SIDE,
    MODE,
    MOST_TRICKS,
    NODES,
    PARAM,
    PLAYERS,
    SALT,
    SCHIEBER,
    STOP,
    THRESHOLD,
    TRUMP_RANKS,
    TT_MASK,
    card_strength,
    card_token,
    card_value,
    legal,
    order_between,
    ordered_trump,
    remaining_value,
    trick_end,
)

COUNTED_WON, OTHER_WON = 1, 2  # flags
BIG = 1 << 20  # "no upper limit" for THRESHOLD probes
MAX_MOVES = 18  # legal cards of a hand at most: a 3-player Norwegian Jazz hand holds 17
MAX_DEPTH = 64  # cards played from the root (a 52-card deal at most)
LINE = 72  # cards of the root's trick and of every card after it
M1 = np.uint64(0xBF58476D1CE4E5B9)
M2 = np.uint64(0x94D049BB133111EB)
FNV = np.uint64(0x100000001B3)


ENTRY = np.dtype(
    [
        ("key", np.uint64),
        ("low", np.int16),
        ("high", np.int16),
        ("age", np.int16),
        ("best", np.int8),
        ("spare", np.int8),
    ]
)  # 16 bytes


def new_table(entries: int):
    """A transposition table of ``entries`` slots (a power of two) in buckets
    of four: keys, lower and upper bounds, the card that decided the last
    search of the entry, and its age (``generation`` * 16 + tricks left).
    The five are views of one array of 16-byte entries, so that a probe
    touches one cache line, not five."""
    raw = np.zeros(entries * ENTRY.itemsize + 64, np.uint8)
    start = -raw.ctypes.data % 64  # a bucket (four entries, 64 bytes) is one cache line
    t = raw[start : start + entries * ENTRY.itemsize].view(ENTRY)
    return t["key"], t["low"], t["high"], t["best"], t["age"]


@jit(inline="always")
def generation(R):
    """A tag of the search's key space (its salt): entries of other searches
    are free to overwrite."""
    return (R[SALT] >> 8) & 0x7FF


def new_buffers():
    """Per-depth move lists, their ordering scores, the search frames (``FRAME``
    fields, below) and keys."""
    return (
        np.zeros((MAX_DEPTH, MAX_MOVES), np.int64),
        np.zeros((MAX_DEPTH, MAX_MOVES), np.int64),
        np.zeros((MAX_DEPTH, FRAME), np.int64),
        np.zeros(MAX_DEPTH, np.uint64),
    )


@jit(inline="always")
def mix(z):
    """splitmix64's finaliser: a well-spread 64-bit hash of ``z``."""
    z = (z ^ (z >> np.uint64(30))) * M1
    z = (z ^ (z >> np.uint64(27))) * M2
    return z ^ (z >> np.uint64(31))


@jit(inline="always")
def position_key(R, hands, leader, trump, flags):
    """Hash of what decides the value: for each suit, the tokens of the cards
    still out in rank order (their values; English Jazz marks its J and 9
    where the suit is or may become trump) and, for each seat, which of those
    cards it holds (PEXT), so cards whose ranks differ only by cards already
    played make the same key; then the leader, trump, flags and mode. Rank order
    stands for the suit's playing order: within a suit the cards of one value
    are the low ones in every order, and the others differ in value (or are
    marked)."""
    n = R[PLAYERS]
    h = np.uint64(R[SALT])
    rest = ZERO
    for s in range(n):
        rest |= hands[s]
    tsuit = ordered_trump(R, trump)
    mark = R[GAME] == ENGLISH_JAZZ
    for suit in range(4):
        shift = np.uint64(16 * suit)
        rs = (rest >> shift) & np.uint64(0xFFFF)
        t = np.uint64(suit + 1)
        m = rs
        while m != ZERO:
            c = 16 * suit + lowest(m)
            m &= m - ONE
            tok = card_token(R, c, trump)
            if mark and suit == tsuit:
                r = c & 15
                tok += 256 if r == 9 else (512 if r == 7 else 0)
            t = (t ^ np.uint64(tok + 1)) * FNV
        h = mix(h ^ t)
        for s in range(n):
            h = (h ^ pext((hands[s] >> shift) & np.uint64(0xFFFF), rs)) * FNV
    return mix(h ^ np.uint64(leader + 16 * (trump + 1) + 256 * flags + 1024 * R[MODE]))


NO_WINDOW = -256  # the window [254, -1], packed (``pack``: 255 * 256) and read as 16 bits: none known


@jit(inline="always")
def pack(lo, hi):
    """A window [lo, hi] of INTERVAL mode as one table field (16 bits): its
    ends clipped to -1..254, which keeps its meaning while a value from here
    lies in 0..253 (a trick game's points), one byte each."""
    return (min(max(lo, -1), 254) + 1) * 256 + min(max(hi, -1), 254) + 1


@jit(inline="always")
def unpack(w):
    """``pack``'s window (lo, hi) of a table field (read back as 16 bits)."""
    u = w & 0xFFFF
    return (u >> 8) - 1, (u & 255) - 1


@jit(_nrt=False)  # no reference counting (see the module notes)
def cashed(R, hands, rest, tricks_left, leader, tsuit):
    """Schieber and Differenzler at a trick boundary (``tsuit``: the trump
    suit, -1 for none): when the leader's own run of the highest trumps
    still out is at least as long as any other seat's trumps, it can draw
    them (every seat must follow a trump lead, and the trump J, which may
    refuse, is the leader's), then lead its remaining trumps and its cards
    that head their plain suit one after the other, and each wins its trick
    (nobody is left to trump it; a card that heads its suit still heads it
    after the ones above it fall). Returns (the value of every trump still
    out and of those plain cards, how many tricks the leader wins so,
    whether that is every trick left, in which case the leader's side takes
    everything: then the value is all ``remaining_value``); (0, 0, False)
    when the run is too short."""
    lh = hands[leader]
    v, winners, held = 0, 0, 0
    if tsuit >= 0:
        shift = np.uint64(16 * tsuit)
        if (rest & ~lh) & (np.uint64(0xFFFF) << shift) != ZERO:
            run = 0
            for i in range(TRUMP_RANKS.size - 1, -1, -1):
                r = TRUMP_RANKS[i]
                if (rest >> (shift + np.uint64(r))) & ONE == ZERO:
                    continue
                if (lh >> (shift + np.uint64(r))) & ONE == ZERO:
                    break
                run += 1
            for s in range(R[PLAYERS]):
                if s != leader and popcount((hands[s] >> shift) & np.uint64(0xFFFF)) > run:
                    return 0, 0, False
        ts = (rest >> shift) & np.uint64(0xFFFF)
        held = popcount((lh >> shift) & np.uint64(0xFFFF))
        while ts != ZERO:
            r = lowest(ts)
            ts &= ts - ONE
            v += card_value(R, 16 * tsuit + r, -1)
    reverse = R[GAME] == SCHIEBER and R[PARAM] == 5  # Undenufe: the 6 heads its suit
    for suit in range(4):
        if suit == tsuit:
            continue
        shift = np.uint64(16 * suit)
        hs = (lh >> shift) & np.uint64(0xFFFF)
        rs = (rest >> shift) & np.uint64(0xFFFF)
        while rs != ZERO:
            r = lowest(rs) if reverse else highest(rs)
            if (hs >> np.uint64(r)) & ONE == ZERO:
                break
            rs ^= ONE << np.uint64(r)
            v += card_value(R, 16 * suit + r, -1)
            winners += 1
    if winners + held == tricks_left:
        return remaining_value(R, rest, tricks_left, -1), winners + held, True
    return v, winners + held, False


@jit(_nrt=False)  # no reference counting (see the module notes)
def bounds(R, hands, rest, tricks_left, leader, trump, flags, sure):
    """(lowest, highest) value the counted seats can still end with, ``rest``
    the cards not in a complete trick. With ``sure`` (no trick in progress,
    ``leader`` to lead), the highest trumps still out that one side holds go
    to that side: a trick holding one of them is won by a card of the run
    (English Jazz, where a trick counts 1: each of the counted seat's run wins
    a trick of its own, the others' run at least one). In the point games,
    when the leader's own top trumps outlast every other hand's trumps, the
    leader's side can also draw them and take every trump still out and the
    leader's cards that head their suit (``cashed``): a bound of the value
    when the leader's side wants them (it maximises the counted seats'
    points if it is the counted side, minimises them if not; not in INTERVAL
    mode, where more is not always better)."""
    total = remaining_value(R, rest, tricks_left, trump)
    counted_won = flags & COUNTED_WON != 0
    other_won = flags & OTHER_WON != 0
    gain, loss = 0, 0
    tsuit = ordered_trump(R, trump) if sure else -1
    if tsuit >= 0:
        side = -1
        for i in range(TRUMP_RANKS.size - 1, -1, -1):
            c = 16 * tsuit + TRUMP_RANKS[i]
            if (rest >> np.uint64(c)) & ONE == ZERO:
                continue
            owner = 0
            for s in range(R[PLAYERS]):
                if (hands[s] >> np.uint64(c)) & ONE:
                    owner = s
            counted = (R[COUNTED] >> owner) & 1
            if side < 0:
                side = counted
            elif counted != side:
                break
            if R[GAME] == ENGLISH_JAZZ:
                if counted:
                    gain += 1
                else:
                    loss = 1
                    break
            elif counted:
                gain += card_value(R, c, trump)
            else:
                loss += card_value(R, c, trump)
        counted_won = counted_won or side == 1
        other_won = other_won or side == 0
    wants = (R[COUNTED] >> leader) & 1 == (R[MAX_SIDE] >> leader) & 1
    if sure and tricks_left > 0 and R[GAME] <= DIFFERENZLER and R[MODE] == THRESHOLD and wants:
        v, winners, everything = cashed(R, hands, rest, tricks_left, leader, tsuit)
        if everything:  # the leader's side takes every trick left
            if (R[COUNTED] >> leader) & 1:
                return v + (R[BONUS] if not other_won else 0), v + (R[BONUS] if not other_won else 0)
            return -(R[BONUS] if not counted_won else 0), -(R[BONUS] if not counted_won else 0)
        if winners > 0:  # (v holds the trump run's value as well)
            if (R[COUNTED] >> leader) & 1:
                gain = max(gain, v)
                counted_won = True
            else:
                loss = max(loss, v)
                other_won = True
    bonus = R[BONUS]
    top = total - loss + (bonus if not other_won else 0)
    bottom = gain - (bonus if not counted_won else 0)
    return bottom, top


@jit(inline="always")
def play(R, hands, line, pos, k, leader, trump, flags, p, c):
    """Seat ``p`` plays ``c`` as card ``k`` of the trick whose cards so far end
    at ``line[pos]``. Returns the position after it (k, leader, trump, flags)
    and the value the counted seats gained."""
    n = R[PLAYERS]
    hands[p] ^= bit(c)
    line[pos] = c
    if k < n - 1:
        return k + 1, leader, trump, flags, 0
    last = hands[p] == ZERO
    w, v, after = trick_end(R, line[pos - k : pos + 1], trump, last)
    ws = (leader + w) % n
    counted = (R[COUNTED] >> ws) & 1
    nf = flags | (COUNTED_WON if counted else OTHER_WON)
    gain = v if counted else 0
    if last and R[BONUS] != 0:
        if nf & OTHER_WON == 0:
            gain += R[BONUS]
        if nf & COUNTED_WON == 0:
            gain -= R[BONUS]
    return 0, ws, after, nf, gain


ILLEGAL = -(1 << 40)


@jit(_nrt=False)  # no reference counting (see the module notes)
def two_tricks(R, hands, line, pos, leader, trump, flags, lo, hi, vals):
    """The exact value of a trick boundary with two tricks left and at most
    four seats, without a search: every way the next trick can be played
    (each seat one of its two cards: ``vals[m]``, bit i of ``m`` choosing the
    card of the trick's i-th seat) is played out with the last trick, then
    the seats' choices are folded from the last to the first, each keeping
    the best of its legal cards for its side. ``vals`` (2**n entries) is
    scratch; ``hands`` and ``line`` come back as they were. THRESHOLD mode:
    the minimax value; INTERVAL mode: 1 when the maximising side can keep the
    value within [lo, hi], else 0 (each line's value is 1 or 0 before the
    fold)."""
    n = R[PLAYERS]
    h0, h1, h2, h3 = hands[0], hands[1], hands[2], hands[min(3, n - 1)]
    for m in range(1 << n):
        k, ld, tr, fl, total = 0, leader, trump, flags, 0
        ok = True
        for i in range(n):
            p = (leader + i) % n
            c = highest(hands[p]) if (m >> i) & 1 else lowest(hands[p])
            if (legal(R, hands[p], line[pos : pos + n], i) >> np.uint64(c)) & ONE == ZERO:
                ok = False
                break
            k, ld, tr, fl, g = play(R, hands, line, pos + i, k, ld, tr, fl, p, c)
            total += g
        if ok:
            for i in range(n):
                p = (ld + i) % n
                k, ld, tr, fl, g = play(R, hands, line, pos + n + i, k, ld, tr, fl, p, lowest(hands[p]))
                total += g
        vals[m] = total if ok else ILLEGAL
        hands[0], hands[1], hands[2] = h0, h1, h2
        hands[n - 1] = h3 if n == 4 else hands[n - 1]
    if R[MODE] == INTERVAL:
        for m in range(1 << n):
            if vals[m] != ILLEGAL:
                vals[m] = 1 if lo <= vals[m] and vals[m] <= hi else 0
    for i in range(n - 1, -1, -1):
        up = (R[MAX_SIDE] >> ((leader + i) % n)) & 1
        for m in range(1 << i):
            a, b = vals[m], vals[m | (1 << i)]
            if a == ILLEGAL or (b != ILLEGAL and (b > a if up else b < a)):
                vals[m] = b
    return vals[0]


@jit
def legal_mask(R, hand, trick, k):
    """The game's legal cards for the Python edge (checking a trick in progress)."""
    return legal(R, hand, trick, k)


@jit
def play_card(R, hands, line, pos, k, leader, trump, flags, p, c):
    """``play`` compiled once for the callers off the search's hot path."""
    return play(R, hands, line, pos, k, leader, trump, flags, p, c)


@jit(inline="always")
def fixed_side(R, hands, trick, k, leader, trump, c, top, wseat, maxnode):
    """Whether the side (counted or not) that wins the trick is the same
    whatever the seats after the player do once it plays ``c`` (``top``,
    ``wseat``: the strongest card of the trick so far and its seat), and
    whether that side is the player's (the counted seats' when it
    maximises, the others' when not): (1 or 0, wants the most valuable
    card). No later seat of the other side holds a card that beats the
    trick (legal or not), so every card that could take it is its side's."""
    n = R[PLAYERS]
    p = (leader + k) % n
    led = trick[0] >> 4 if k > 0 else c >> 4
    s = card_strength(R, c, led, trump)
    if k == 0 or s > top:
        top, wseat = s, p
    side = (R[COUNTED] >> wseat) & 1
    for i in range(k + 1, n):
        q = (leader + i) % n
        if (R[COUNTED] >> q) & 1 == side:
            continue
        h = hands[q]
        while h != ZERO:
            e = lowest(h)
            h &= h - ONE
            if card_strength(R, e, led, trump) > top:
                return 0, False
    return 1, side == maxnode


@jit(_nrt=False)  # no reference counting (see the module notes)
def order_moves(R, hands, trick, k, leader, trump, lg, present, moves, scores, d):
    """Writes the cards worth searching into ``moves[d]``, most promising
    first; returns how many. Of cards that play alike, only the highest is kept."""
    n = R[PLAYERS]
    p = (leader + k) % n
    maxnode = (R[MAX_SIDE] >> p) & 1
    led = trick[0] >> 4 if k > 0 else -1
    top, wseat = -1, -1
    for i in range(k):
        s = card_strength(R, trick[i], led, trump)
        if s > top:
            top, wseat = s, (leader + i) % n
    good_winner = k > 0 and ((R[COUNTED] >> wseat) & 1) == maxnode
    good_me = ((R[COUNTED] >> p) & 1) == maxnode
    dominance = R[GAME] <= DIFFERENZLER and R[MODE] == THRESHOLD
    tsuit = ordered_trump(R, trump)
    jack = 16 * tsuit + JACK if tsuit >= 0 else -1  # the trump J may refuse trumps: never swapped
    apart = (present & ~hands[p]) if dominance else present  # cards that separate two of the hand's
    m = 0
    rest = lg
    while rest != ZERO:
        c = lowest(rest)
        rest &= rest - ONE
        vc = card_value(R, c, trump)
        twins = lg & (np.uint64(0xFFFF) << np.uint64(16 * (c >> 4))) & ~bit(c)
        alike = False
        side = -1  # the trick's winning side is fixed whichever card of c's run is played: 1 yes, 0 no
        high = False  # then the player wants the run's most valuable card (else its least)
        while twins != ZERO:
            e = lowest(twins)
            twins &= twins - ONE
            if order_between(R, c, e, trump) & apart != ZERO:
                continue
            ve = card_value(R, e, trump)
            if ve == vc:
                if e > c:
                    alike = True
                    break
                continue
            if not dominance or c == jack or e == jack:
                continue
            if side < 0:
                side, high = fixed_side(R, hands, trick, k, leader, trump, c, top, wseat, maxnode)
            if side == 1 and (ve > vc if high else ve < vc):
                alike = True
                break
        if alike:
            continue
        s = card_strength(R, c, c >> 4 if k == 0 else led, trump)
        if k == 0:
            sc = 4 * s + vc
        elif s > top and not (good_winner and good_me):
            sc = (3000 - s + 8 * vc) if good_me else (-vc - s)
        elif good_winner:
            sc = 2000 + 8 * vc - s
        else:
            sc = 1000 - 8 * vc - s
        j = m
        while j > 0 and scores[d, j - 1] < sc:
            moves[d, j] = moves[d, j - 1]
            scores[d, j] = scores[d, j - 1]
            j -= 1
        moves[d, j] = c
        scores[d, j] = sc
        m += 1
    return m


# frame fields: one row of ``fr`` per depth of the search
F_K, F_LEADER, F_TRUMP, F_FLAGS, F_LO, F_HI, F_SLOT, F_IDX, F_COUNT, F_MAX, F_SEAT, F_BEST, F_LEFT = range(13)
F_KILLER = 13  # F_KILLER + seat: the lead that last cut off at this depth (-1: none)
FRAME = F_KILLER + 8
EXPAND = 1 << 40  # enter's answer for a node to search (never a value)
NONE = 1 << 30  # the best value of a node before its first move


@jit(inline="always")
def reported(R, v, lo, hi):
    """What the search returns for a position of value ``v``: ``v`` itself
    (THRESHOLD), or ``lo`` when ``v`` lies in [lo, hi] and ``lo - 1`` when
    not (INTERVAL)."""
    if R[MODE] == THRESHOLD:
        return v
    return lo if lo <= v and v <= hi else lo - 1


@jit(inline="always")
def enter(R, keys, lows, highs, bests, ages, hands, line, k0, fr, fk, moves, scores, d):
    """Looks at the node of depth ``d``: what the search returns for it when
    it is decided at once (no cards left, bounds, table), else EXPAND with its
    moves generated."""
    n = R[PLAYERS]
    R[NODES] += 1
    k, leader, trump, flags = fr[d, F_K], fr[d, F_LEADER], fr[d, F_TRUMP], fr[d, F_FLAGS]
    lo, hi = fr[d, F_LO], fr[d, F_HI]
    rest = ZERO
    for s in range(n):
        rest |= hands[s]
    if rest == ZERO:
        return reported(R, 0, lo, hi)
    pos = k0 + d
    trick = line[pos - k : pos + n]
    present = rest
    for i in range(k):
        present |= bit(trick[i])
    hint = -1
    if k == 0:
        left = popcount(hands[leader])
        bottom, top = bounds(R, hands, rest, left, leader, trump, flags, True)
        if R[MODE] == THRESHOLD:
            if lo > top:
                return top
            if lo <= bottom:
                return bottom
        else:
            if lo > top or hi < bottom:
                return lo - 1
            if lo <= bottom and hi >= top:
                return lo
        if left == 1:  # the last trick plays itself
            for i in range(n):
                line[pos + i] = lowest(hands[(leader + i) % n])
            w, v, _ = trick_end(R, line[pos : pos + n], trump, True)
            counted = (R[COUNTED] >> ((leader + w) % n)) & 1
            nf = flags | (COUNTED_WON if counted else OTHER_WON)
            gain = v if counted else 0
            if nf & OTHER_WON == 0:
                gain += R[BONUS]
            if nf & COUNTED_WON == 0:
                gain -= R[BONUS]
            return reported(R, gain, lo, hi)
        key = position_key(R, hands, leader, trump, flags)
        first = np.int64(key & np.uint64(R[TT_MASK] - 3))  # a bucket of four slots, one cache line
        slot, least = -1, 99
        for j in range(first, first + 4):
            if keys[j] == key:
                slot = j
                break
            if ages[j] >> 4 != generation(R):
                if least >= 0:
                    slot, least = j, -1  # another search's entry: free
            elif ages[j] & 15 < least:
                slot, least = j, ages[j] & 15  # else the one nearest the end of the deal
        if keys[slot] == key:
            if R[MODE] == THRESHOLD:
                if lows[slot] >= lo:
                    return lows[slot]
                if highs[slot] < lo:
                    return highs[slot]
            else:  # a window kept is a window inside one known to be kept; none inside one known not to be
                a, b = unpack(lows[slot])
                if a <= b and lo <= a and b <= hi:
                    return lo
                a, b = unpack(highs[slot])
                if a <= b and a <= lo and hi <= b:
                    return lo - 1
            hint = bests[slot]
        if left == 2 and n <= 4:  # the last two tricks: no search
            v = two_tricks(R, hands, line, pos, leader, trump, flags, lo, hi, scores[d + 1])
            if R[MODE] == INTERVAL:
                return lo if v == 1 else lo - 1
            if keys[slot] != key:
                keys[slot] = key
                ages[slot] = generation(R) * 16 + left
                bests[slot] = -1
            lows[slot], highs[slot] = v, v
            return v
        fk[d] = key
        fr[d, F_SLOT] = slot
        fr[d, F_LEFT] = left
    p = (leader + k) % n
    if k == 0 and hint < 0 and R[GAME] == SCHIEBER:  # no card from the table: the lead that last cut off here
        hint = fr[d, F_KILLER + p]
    lg = legal(R, hands[p], trick, k)
    m = order_moves(R, hands, trick, k, leader, trump, lg, present, moves, scores, d)
    for i in range(1, m):  # the card that decided this position before (or the killer) goes first
        if moves[d, i] == hint:
            moves[d, i] = moves[d, 0]
            moves[d, 0] = hint
            break
    fr[d, F_COUNT] = m
    fr[d, F_IDX] = 0
    fr[d, F_MAX] = (R[MAX_SIDE] >> p) & 1
    fr[d, F_SEAT] = p
    fr[d, F_BEST] = -NONE if fr[d, F_MAX] else NONE
    return EXPAND


@jit(inline="always")
def store(R, keys, lows, highs, bests, ages, fr, fk, moves, d, result):
    """Records the result of a node searched at a trick boundary: a lower
    bound of its value when ``result >= lo``, else an upper bound (THRESHOLD),
    or whether the value lies in the window (INTERVAL)."""
    if fr[d, F_K] != 0:
        return
    slot, key, lo = fr[d, F_SLOT], fk[d], fr[d, F_LO]
    if keys[slot] != key:
        keys[slot] = key
        ages[slot] = generation(R) * 16 + fr[d, F_LEFT]
        lows[slot] = -32000 if R[MODE] == THRESHOLD else NO_WINDOW
        highs[slot] = 32000 if R[MODE] == THRESHOLD else NO_WINDOW
        bests[slot] = -1
    made = result >= lo
    if made == (fr[d, F_MAX] == 1):
        bests[slot] = moves[d, fr[d, F_IDX]]
    if R[MODE] == THRESHOLD:
        if made:
            lows[slot] = max(lows[slot], result)
        else:
            highs[slot] = min(highs[slot], result)
    else:  # the narrowest window known to be kept (low field), the widest known not to be (high field)
        w = pack(lo, fr[d, F_HI])
        a, b = unpack(lows[slot] if made else highs[slot])
        c, e = unpack(w)
        if a > b or (made and not (c <= a and b <= e)) or (not made and not (a <= c and e <= b)):
            if made:
                lows[slot] = w
            else:
                highs[slot] = w


@jit(_nrt=False)  # no reference counting (see the module notes)
def search(
    R, keys, lows, highs, bests, ages, hands, line, k, leader, trump, flags, lo, hi, moves, scores, fr, fk
):
    """Can the maximising side make the value of this position at least ``lo``
    (THRESHOLD) or keep it within [lo, hi] (INTERVAL)? The answer is yes when
    the returned ``g >= lo``; in THRESHOLD mode ``g`` is also a bound of the
    value (fail-soft): the value is at least ``g`` when ``g >= lo``, at most
    ``g`` when not. ``line`` holds the ``k`` cards of the trick in progress;
    the search writes the cards it plays after them. Depth-first with an
    explicit stack of frames ``fr``."""
    k0 = k
    fr[0, F_K], fr[0, F_LEADER], fr[0, F_TRUMP], fr[0, F_FLAGS] = k, leader, trump, flags
    fr[0, F_LO], fr[0, F_HI] = lo, hi
    d = 0
    fresh = (
        True  # node d is still to be looked at (one call site each of enter and store: less code to compile)
    )
    while True:
        if fresh:
            if R[STOP] != 0:  # stopped from another thread: out at once, nothing more stored
                return 0
            res = enter(R, keys, lows, highs, bests, ages, hands, line, k0, fr, fk, moves, scores, d)
            fresh = False
        if res == EXPAND:
            c = moves[d, fr[d, F_IDX]]
            k2, l2, t2, f2, gain = play(
                R,
                hands,
                line,
                k0 + d,
                fr[d, F_K],
                fr[d, F_LEADER],
                fr[d, F_TRUMP],
                fr[d, F_FLAGS],
                fr[d, F_SEAT],
                c,
            )
            fr[d + 1, F_K], fr[d + 1, F_LEADER], fr[d + 1, F_TRUMP], fr[d + 1, F_FLAGS] = k2, l2, t2, f2
            fr[d + 1, F_LO], fr[d + 1, F_HI] = fr[d, F_LO] - gain, fr[d, F_HI] - gain
            d += 1
            fresh = True
            continue
        if d == 0:
            return res
        d -= 1
        hands[fr[d, F_SEAT]] ^= bit(moves[d, fr[d, F_IDX]])
        g = res + fr[d, F_LO] - fr[d + 1, F_LO]  # the child's answer plus what the card gained
        if fr[d, F_MAX]:
            fr[d, F_BEST] = max(fr[d, F_BEST], g)
            cut = g >= fr[d, F_LO]
        else:
            fr[d, F_BEST] = min(fr[d, F_BEST], g)
            cut = g < fr[d, F_LO]
        if cut:  # counted by the seat's place in the trick, the tricks left and whether the first move cut
            left = popcount(hands[fr[d, F_SEAT]])  # (its card is back in its hand)
            R[CUTS + 2 * (fr[d, F_K] * MOST_TRICKS + left - 1) + (fr[d, F_IDX] == 0)] += 1
            if fr[d, F_K] == 0:
                fr[d, F_KILLER + fr[d, F_SEAT]] = moves[d, fr[d, F_IDX]]
        if not cut:  # the next move, or the node fails for its side
            fr[d, F_IDX] += 1
            if fr[d, F_IDX] < fr[d, F_COUNT]:
                res = EXPAND
                continue
        res = fr[d, F_BEST]
        store(R, keys, lows, highs, bests, ages, fr, fk, moves, d, res)


@jit(_nrt=False)  # no reference counting (see the module notes)
def forget_killers(fr):
    """Clears the killer leads, so that a solve does not depend on the ones before."""
    for d in range(fr.shape[0]):
        for j in range(F_KILLER, FRAME):
            fr[d, j] = -1


@jit(_nrt=False)  # no reference counting (see the module notes)
def root_bounds(R, hands, line, k, leader, trump, flags):
    rest = ZERO
    for s in range(R[PLAYERS]):
        rest |= hands[s]
    for i in range(k):
        rest |= bit(line[i])
    return bounds(R, hands, rest, popcount(hands[(leader + k) % R[PLAYERS]]), leader, trump, flags, k == 0)


@jit(_nrt=False)  # no reference counting (see the module notes)
def value(R, keys, lows, highs, bests, ages, hands, line, k, leader, trump, flags, moves, scores, fr, fk):
    """The value of the position: the most the maximising side can ensure."""
    a, b = root_bounds(R, hands, line, k, leader, trump, flags)
    return value_within(
        R,
        keys,
        lows,
        highs,
        bests,
        ages,
        hands,
        line,
        k,
        leader,
        trump,
        flags,
        a,
        b,
        NONE,
        moves,
        scores,
        fr,
        fk,
    )


@jit(_nrt=False)  # no reference counting (see the module notes)
def value_within(
    R,
    keys,
    lows,
    highs,
    bests,
    ages,
    hands,
    line,
    k,
    leader,
    trump,
    flags,
    a,
    b,
    guess,
    moves,
    scores,
    fr,
    fk,
):
    """The value of the position, known to lie in [a, b]: bisection on
    null-window probes, the first of them at ``guess`` when it lies in
    (a, b] (a value seen before, as MTD(f) starts from one)."""
    R[MODE] = THRESHOLD
    forget_killers(fr)
    while a < b:
        mid = (a + b + 1) // 2
        if a < guess and guess <= b:
            mid, guess = guess, NONE
        g = search(
            R,
            keys,
            lows,
            highs,
            bests,
            ages,
            hands,
            line,
            k,
            leader,
            trump,
            flags,
            mid,
            BIG,
            moves,
            scores,
            fr,
            fk,
        )
        if R[STOP] != 0:
            break
        if g >= mid:
            a = min(g, b)
        else:
            b = max(g, a)
    return a


@jit(_nrt=False)  # no reference counting (see the module notes)
def least_distance(
    R, keys, lows, highs, bests, ages, hands, line, k, leader, trump, flags, target, moves, scores, fr, fk
):
    """The least ``e`` such that the maximising side can keep the value within
    [target - e, target + e] whatever the others do."""
    R[MODE] = INTERVAL  # (the bounds of INTERVAL mode: a bound of the value, not of what one side wants)
    bottom, top = root_bounds(R, hands, line, k, leader, trump, flags)
    return distance_within(
        R,
        keys,
        lows,
        highs,
        bests,
        ages,
        hands,
        line,
        k,
        leader,
        trump,
        flags,
        target,
        0,
        max(abs(target - bottom), abs(top - target)),
        moves,
        scores,
        fr,
        fk,
    )


@jit(_nrt=False)  # no reference counting (see the module notes)
def distance_within(
    R,
    keys,
    lows,
    highs,
    bests,
    ages,
    hands,
    line,
    k,
    leader,
    trump,
    flags,
    target,
    a,
    b,
    moves,
    scores,
    fr,
    fk,
):
    """``least_distance`` to ``target``, known to lie in [a, b]."""
    R[MODE] = INTERVAL
    forget_killers(fr)
    while a < b:
        mid = (a + b) // 2
        ok = (
            search(
                R,
                keys,
                lows,
                highs,
                bests,
                ages,
                hands,
                line,
                k,
                leader,
                trump,
                flags,
                target - mid,
                target + mid,
                moves,
                scores,
                fr,
                fk,
            )
            >= target - mid
        )
        if R[STOP] != 0:
            break
        if ok:
            b = mid
        else:
            a = mid + 1
    R[MODE] = THRESHOLD
    return a


@jit
def card_values(
    R,
    keys,
    lows,
    highs,
    bests,
    ages,
    hands,
    line,
    k,
    leader,
    trump,
    flags,
    target,
    cards,
    out,
    moves,
    scores,
    fr,
    fk,
):
    """For every legal card (written to ``cards``): the position's value after
    it (``target`` < -BIG: ``value``; else ``least_distance`` to ``target``,
    measured from the value gained with the card). Returns how many."""
    n = R[PLAYERS]
    p = (leader + k) % n
    lg = legal_mask(R, hands[p], line[:n], k)
    m = 0
    rest = lg
    h2 = hands.copy()
    l2 = line.copy()
    while rest != ZERO and R[STOP] == 0:
        c = lowest(rest)
        rest &= rest - ONE
        for i in range(h2.size):  # element by element: an array assignment compiles its shape error's
            h2[i] = hands[i]  # message formatting, seconds of cold compile
        for i in range(l2.size):
            l2[i] = line[i]
        kk, ll, tt, ff, gain = play_card(R, h2, l2, k, k, leader, trump, flags, p, c)
        # the child's trick in progress (if any) is l2[0:kk], as the search expects
        cards[m] = c
        if target < -BIG:
            out[m] = gain + value(
                R, keys, lows, highs, bests, ages, h2, l2, kk, ll, tt, ff, moves, scores, fr, fk
            )
        else:
            out[m] = least_distance(
                R,
                keys,
                lows,
                highs,
                bests,
                ages,
                h2,
                l2,
                kk,
                ll,
                tt,
                ff,
                target - gain,
                moves,
                scores,
                fr,
                fk,
            )
        m += 1
    return m


@jit
def random_playout(R, hands, line, k, leader, trump, flags, cards, u):
    """Plays ``cards`` random legal cards (``u``: uniform draws, one a card)
    from the position; returns the position reached (k, leader, trump, flags)."""
    n = R[PLAYERS]
    for i in range(cards):
        p = (leader + k) % n
        lg = legal_mask(R, hands[p], line[:n], k)
        c = nth(lg, np.int64(u[i] * popcount(lg)))
        k2, leader, trump, flags, _ = play_card(R, hands, line, k, k, leader, trump, flags, p, c)
        if k2 == 0:
            line[:] = 0
        k = k2
    return k, leader, trump, flags


@jit
def card_bounds(
    R,
    keys,
    lows,
    highs,
    bests,
    ages,
    hands,
    line,
    k,
    leader,
    trump,
    flags,
    target,
    guess,
    cards,
    low,
    high,
    moves,
    scores,
    fr,
    fk,
):
    """For every legal card (written to ``cards``): bounds [low, high] of the
    position's value after it, exact (low == high) for the best cards. The
    position's value comes first (``value`` from ``guess``; ``target`` >=
    -BIG: ``least_distance`` to ``target``, the seat to play keeping the
    window), then one null-window probe per card at it: is this card as good
    as the best? A card that is not gets the probe's bound on one side and
    its sure points on the other. Returns (how many cards, the position's
    value)."""
    n = R[PLAYERS]
    p = (leader + k) % n
    lg = legal_mask(R, hands[p], line[:n], k)
    if target < -BIG:
        a, b = root_bounds(R, hands, line, k, leader, trump, flags)
        best = value_within(
            R,
            keys,
            lows,
            highs,
            bests,
            ages,
            hands,
            line,
            k,
            leader,
            trump,
            flags,
            a,
            b,
            guess,
            moves,
            scores,
            fr,
            fk,
        )
    else:
        best = least_distance(
            R,
            keys,
            lows,
            highs,
            bests,
            ages,
            hands,
            line,
            k,
            leader,
            trump,
            flags,
            target,
            moves,
            scores,
            fr,
            fk,
        )
    maxing = (R[MAX_SIDE] >> p) & 1
    m = 0
    rest = lg
    h2 = hands.copy()
    l2 = line.copy()
    while rest != ZERO and R[STOP] == 0:
        c = lowest(rest)
        rest &= rest - ONE
        for i in range(h2.size):
            h2[i] = hands[i]
        for i in range(l2.size):
            l2[i] = line[i]
        kk, ll, tt, ff, gain = play_card(R, h2, l2, k, k, leader, trump, flags, p, c)
        R[MODE] = THRESHOLD if target < -BIG else INTERVAL
        bottom, top = root_bounds(R, h2, l2, kk, ll, tt, ff)
        cards[m] = c
        low[m], high[m] = best, best
        forget_killers(fr)
        if target < -BIG:
            cut = best - gain + (0 if maxing else 1)  # maximising: as much as the best; minimising: more
            g = search(
                R, keys, lows, highs, bests, ages, h2, l2, kk, ll, tt, ff, cut, BIG, moves, scores, fr, fk
            )
            if maxing and g < cut:
                low[m], high[m] = bottom + gain, max(g, bottom) + gain
            elif not maxing and g >= cut:
                low[m], high[m] = min(g, top) + gain, top + gain
        else:
            t = target - gain
            g = search(
                R,
                keys,
                lows,
                highs,
                bests,
                ages,
                h2,
                l2,
                kk,
                ll,
                tt,
                ff,
                t - best,
                t + best,
                moves,
                scores,
                fr,
                fk,
            )
            if g < t - best:
                low[m], high[m] = best + 1, max(best + 1, abs(t - bottom), abs(top - t))
            R[MODE] = THRESHOLD
        m += 1
    return m, best


@jit
def card_exact(
    R,
    keys,
    lows,
    highs,
    bests,
    ages,
    hands,
    line,
    k,
    leader,
    trump,
    flags,
    target,
    c,
    a,
    b,
    moves,
    scores,
    fr,
    fk,
):
    """The position's value after card ``c``, known to lie in [a, b] (``target``
    >= -BIG: ``least_distance`` to ``target``, as in ``card_values``)."""
    n = R[PLAYERS]
    p = (leader + k) % n
    h2 = hands.copy()
    l2 = line.copy()
    kk, ll, tt, ff, gain = play_card(R, h2, l2, k, k, leader, trump, flags, p, c)
    if target < -BIG:
        return gain + value_within(
            R,
            keys,
            lows,
            highs,
            bests,
            ages,
            h2,
            l2,
            kk,
            ll,
            tt,
            ff,
            a - gain,
            b - gain,
            NONE,
            moves,
            scores,
            fr,
            fk,
        )
    return distance_within(
        R, keys, lows, highs, bests, ages, h2, l2, kk, ll, tt, ff, target - gain, a, b, moves, scores, fr, fk
    )
