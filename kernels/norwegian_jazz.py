"""Norwegian Jazz (docs/RULES.md section 4): rules, policies and batch driver.

3 to 7 players, six deals with one dealer (option ``rotate_dealer``). Deals
1-5 are no-trump trick games on a deck adjusted so every hand is equal, each
with its own penalty (tricks, clubs, queens, the KC, the last trick); deal 6
is sevens on the full deck (kernels/sevens.py). The highest total wins.

Every deal is dealt one card at a time starting with the seat after the
dealer. Randomness: deal k (0..5) shuffles with ``stream(seed, i, k, DEAL)``;
the players' random choices in deal k draw from ``stream(seed, i, k, PLAY)``
(deal 0 is the game's PLAY stream), so a deal's play does not depend on how
many draws earlier deals used: stopping deals 2-4 early (option
``stop_early``) and playing them out give the very same games.
"""

from __future__ import annotations

import numpy as np

from cardmc.kernels import condition, rng
from cardmc.kernels.bits import ONE, ZERO, bit, highest, lowest, nth_bit, popcount
from cardmc.kernels.cards import ACE, KING, QUEEN, SUITS, card_of, deck, parse
from cardmc.kernels.columns import new_rows
from cardmc.kernels.events import EV_DEAL, EV_HAND, EV_PLAY
from cardmc.kernels.jit import in_shares, jit
from cardmc.kernels.norwegian_jazz_learned import NF as NWEIGHTS
from cardmc.kernels.norwegian_jazz_learned import SEVENS_AT, learned_trick_card, trick_features
from cardmc.kernels.script import scripted_card
from cardmc.kernels.script import start as start_script
from cardmc.kernels.sevens import POLICY_RANDOM, record, sevens_from

PLAYERS = (3, 4, 5, 6, 7)
DEALS = 6
SUIT16 = np.uint64(0xFFFF)

# params: RULES.md options in the spec's order, then simulation options
P_ROTATE_DEALER, P_FIRST_OUT_BONUS, P_PLAY_OUT, P_STOP_EARLY = 0, 1, 2, 3
P_PIMC_SAMPLES, P_PIMC_TRICKS = 4, 5  # read by cardmc.pimc, not here
P_PIMC_SEVENS_CARDS = 6  # sevens: the scripted seats search from this many cards left in hands
NPARAMS = 7
P_WEIGHTS = NPARAMS  # the learned player's weights, NWEIGHTS of them, when the spec appends them

# pimc: POLICY_SCRIPTED (cardmc.pimc, cardmc.pimc_sevens)
POLICY_NAMES = ("random", "heuristic", "pimc", "learned")
POLICY_SCRIPTED, POLICY_LEARNED = 2, 3
# learned: its cards from ``norwegian_jazz_learned`` with the weights of ``params`` (without them, the heuristic's)
# the scripted seats play from ``play_games``'s ``script`` (``cardmc.kernels.script``); plain runs pass none

COLUMNS = (
    "game", "deal", "seat", "players", "dealer", "leader", "rel_seat", "turns",
    "tricks", "taken", "score", "passes", "first_out", "out_order", "cards_dealt", "cards_left",
    "total5", "total", "rank5", "rank", "winner5", "winner", "shared5", "shared", "policy",
)  # fmt: skip
(
    C_GAME, C_DEAL, C_SEAT, C_PLAYERS, C_DEALER, C_LEADER, C_REL_SEAT, C_TURNS,
    C_TRICKS, C_TAKEN, C_SCORE, C_PASSES, C_FIRST_OUT, C_OUT_ORDER, C_CARDS_DEALT, C_CARDS_LEFT,
    C_TOTAL5, C_TOTAL, C_RANK5, C_RANK, C_WINNER5, C_WINNER, C_SHARED5, C_SHARED, C_POLICY,
) = range(len(COLUMNS))  # fmt: skip

# the twos removed for deals 1-5 (RULES.md table), and the adjusted decks
REMOVED = {3: ("2D",), 4: (), 5: ("2D", "2H"), 6: ("2C", "2D", "2H", "2S"), 7: ("2D", "2H", "2S")}
FULL_DECK = deck(52)
ADJUSTED = np.zeros((8, 52), np.int64)
ADJUSTED_SIZE = np.zeros(8, np.int64)
for _n, _gone in REMOVED.items():
    _cards = [c for c in FULL_DECK if c not in {parse(g) for g in _gone}]
    ADJUSTED[_n, : len(_cards)] = _cards
    ADJUSTED_SIZE[_n] = len(_cards)
ADJUSTED_MASK = np.array(
    [sum(1 << int(c) for c in ADJUSTED[n, : ADJUSTED_SIZE[n]]) for n in range(8)], np.uint64
)

# penalty cards and the score of one penalty unit, by deal number 1..5
CLUBS = np.uint64(0x1FFF)
QUEENS = np.uint64(sum(1 << card_of(QUEEN, s) for s in range(len(SUITS))))
KING_CLUBS = np.uint64(1 << card_of(KING, 0))
ACE_CLUBS = np.uint64(1 << card_of(ACE, 0))
PENALTY_CARDS = np.array([0, 0, int(CLUBS), int(QUEENS), int(KING_CLUBS), 0], np.uint64)
UNIT_SCORE = np.array([0, -1, -1, -5, -15, -20, 0], np.int64)
AVOID_LEAD = np.array([0, 0, int(CLUBS), 0, int(KING_CLUBS | ACE_CLUBS), 0], np.uint64)


def max_rows(players: int, params: np.ndarray) -> int:
    return DEALS * players


def max_events(players: int) -> int:
    """Events one traced game writes at most (sevens: at most n turns per card)."""
    return DEALS * (1 + players) + 5 * 52 + 52 * players + players + 8


# --------------------------------------------------------------------- rules


@jit(inline="always")
def trick_legal(hand, led_mask):
    """Cards ``hand`` may play: the led suit if held, else anything (leading: ``led_mask`` 0)."""
    follow = hand & led_mask
    return follow if follow != ZERO else hand


@jit(inline="always")
def trick_units(number, trick, last):
    """Penalty units in a complete trick of deal ``number`` (``last``: the deal's last trick)."""
    if number == 1:
        return 1
    if number == 2:
        return popcount(trick & CLUBS)
    if number == 3:
        return popcount(trick & QUEENS)
    if number == 4:
        return 1 if trick & KING_CLUBS != ZERO else 0
    return 1 if last else 0


@jit
def trick_winner_pos(cards, n):
    """Position in playing order of the highest card of the led suit."""
    led = cards[0] >> 4
    best = 0
    for i in range(1, n):
        if cards[i] >> 4 == led and cards[i] > cards[best]:
            best = i
    return best


# ------------------------------------------------------------------ policies


@jit
def top_rank_card(mask, hand):
    """The highest-ranked card of ``mask``; ties go to the shortest suit in ``hand``."""
    best = -1
    best_key = -1
    for s in range(4):
        sm = SUIT16 << np.uint64(16 * s)
        m = mask & sm
        if m != ZERO:
            c = highest(m)
            key = (c & 15) * 32 + 16 - popcount(hand & sm)
            if key > best_key:
                best_key = key
                best = c
    return best


@jit
def heuristic_trick_card(number, hand, legal, pos, n, best, others):
    """A card for deals 1-5: duck under the winner, shed danger when void.

    ``best`` is the card winning the trick so far (unused when leading),
    ``others`` the cards still in the other players' hands.
    """
    if number == 5:  # only the last trick costs: shed the high cards early
        if pos > 0 and hand & (SUIT16 << np.uint64(best & 48)) != ZERO:
            return highest(legal)
        return top_rank_card(legal, hand)
    if pos == 0:
        # lead the low card the most outstanding cards of its suit can beat
        cand = legal & ~AVOID_LEAD[number]
        if cand == ZERO:
            cand = legal
        choice = -1
        best_key = -1
        for s in range(4):
            sm = SUIT16 << np.uint64(16 * s)
            m = cand & sm
            if m != ZERO:
                c = lowest(m)
                over = popcount(others & sm & ~((bit(c) << ONE) - ONE))
                key = over * 16 + 12 - (c & 15)
                if key > best_key:
                    best_key = key
                    choice = c
        return choice
    if hand & (SUIT16 << np.uint64(best & 48)) != ZERO:  # following suit
        under = legal & (bit(best) - ONE)
        if under != ZERO:
            return highest(under)  # duck as high as possible
        if pos == n - 1:
            return highest(legal)  # the trick is ours anyway
        return lowest(legal)  # leave room for a later player to go over
    # void: throw the most dangerous card
    if number == 2:
        c = legal & CLUBS
        if c != ZERO:
            return highest(c)
    elif number == 3:
        q = legal & QUEENS
        if q != ZERO:
            return lowest(q)
    elif number == 4:
        if legal & KING_CLUBS != ZERO:
            return lowest(KING_CLUBS)
        if legal & ACE_CLUBS != ZERO and others & KING_CLUBS != ZERO:
            return lowest(ACE_CLUBS)
    return top_rank_card(legal, hand)


# ---------------------------------------------------------------- game play


@jit
def play_trick_deal(hands, leader, number, n, stop_early, policies, st, tricks, taken, events, ne):
    """Play deal ``number`` (1..5) from ``hands`` (equal sizes; mutated).

    Adds tricks and penalty units per seat to ``tricks`` and ``taken``. With
    ``stop_early``, deals 2-4 end after the first complete trick that leaves
    no penalty card in any hand. Returns (turns played, events written).
    """
    turns, z, ne = trick_deal_from(
        hands,
        leader,
        number,
        n,
        stop_early,
        heuristic_seats(policies, n),
        st[0],
        tricks,
        taken,
        np.empty(64, np.int64),
        events,
        ne,
    )
    st[0] = z
    return turns, ne


@jit(inline="always")
def heuristic_seats(policies, n):
    """The seats that play the heuristic, as the bits of an int."""
    seats = 0
    for s in range(n):
        seats |= (1 << s) if policies[s, 0] != POLICY_RANDOM else 0
    return seats


@jit(inline="always")
def learned_seats(policies, n, weights):
    """The seats that play the learned player, as the bits of an int (none without all of its weights:
    ``params[P_WEIGHTS:]`` of a spec's ``params``)."""
    seats = 0
    if weights.shape[0] >= NWEIGHTS:
        for s in range(n):
            seats |= (1 << s) if policies[s, 0] == POLICY_LEARNED else 0
    return seats


@jit
def trick_deal_from(
    hands, leader, number, n, stop_early, heuristic, z, tricks, taken, holder, events, ne, script=None,
    learned=0, weights=None,
):  # fmt: skip
    """``play_trick_deal`` with the heuristic seats as the bits of ``heuristic``
    and the random stream's state ``z`` in a register; ``holder`` (64 ints)
    is work space for who played each card of a trick; the scripted seats
    play the cards of ``script`` (``cardmc.kernels.script``); the seats of
    ``learned`` (bits, among the heuristic's) play by ``weights``
    (``norwegian_jazz_learned.learned_trick_card``). Returns (turns played,
    new stream state, events written)."""
    tracing = events.shape[0] > 0
    learning = weights is not None and learned != 0
    voids = 0  # bit 4 * seat + suit: the seat did not follow that led suit (for learned seats)
    inhand = ZERO
    for s in range(n):
        inhand |= hands[s]
    ntricks = popcount(hands[0])
    pen = PENALTY_CARDS[number]
    early = stop_early and number >= 2 and number <= 4
    turns = 0
    for t in range(ntricks):
        # the lead: any card
        seat = leader
        h = hands[seat]
        if (heuristic >> seat) & 1:
            c = -1 if script is None else scripted_card(script, seat, ntricks - t, ne)
            if c < 0:
                c = heuristic_trick_card(number, h, h, 0, n, -1, inhand & ~h)
                if learning and (learned >> seat) & 1:
                    c = learned_trick_card(
                        h, h, c, inhand & ~h, voids, seat, n, number, pen, ZERO, 0, 0, ntricks - t, weights
                    )
            b = bit(c)
        else:
            z, j = rng.below_from(z, popcount(h))
            b = nth_bit(h, j)
        card = lowest(b)
        if tracing:
            ne = record(events, ne, EV_PLAY, seat, card, np.int64(h))
        hands[seat] = h ^ b
        inhand ^= b
        trick = b
        led_mask = SUIT16 << np.uint64(card & 48)
        holder[card] = seat
        for pos in range(1, n):
            seat = seat + 1 if seat < n - 1 else 0
            h = hands[seat]
            follow = h & led_mask
            legal = follow if follow != ZERO else h
            if (heuristic >> seat) & 1:
                c = -1 if script is None else scripted_card(script, seat, ntricks - t, ne)
                if c < 0:
                    best = highest(trick & led_mask)
                    c = heuristic_trick_card(number, h, legal, pos, n, best, inhand & ~h)
                    if learning and (learned >> seat) & 1:
                        c = learned_trick_card(
                            h, legal, c, inhand & ~h, voids, seat, n, number, pen, trick, best, pos, ntricks - t,
                            weights,
                        )  # fmt: skip
                b = bit(c)
            else:
                z, j = rng.below_from(z, popcount(legal))
                b = nth_bit(legal, j)
            card = lowest(b)
            if tracing:
                ne = record(events, ne, EV_PLAY, seat, card, np.int64(legal))
            if follow == ZERO:
                voids |= 1 << (4 * seat + (lowest(led_mask) >> 4))
            hands[seat] = h ^ b
            inhand ^= b
            trick |= b
            holder[card] = seat
        # the highest card of the led suit wins; looked up, not tracked, so
        # that random play has no unpredictable branch
        winner = holder[highest(trick & led_mask)]
        turns += n
        tricks[winner] += 1
        taken[winner] += trick_units(number, trick, t == ntricks - 1)
        leader = winner
        if early and inhand & pen == ZERO:
            break
    return turns, z, ne


@jit(inline="always")
def deal_from(z, cards, m, hands, n, leader):
    """Shuffle ``cards[:m]`` exactly as ``rng.shuffle`` does, from the stream
    state ``z``, and deal them one at a time, card j to seat (leader + j) mod
    n; each position is dealt as soon as the shuffle has fixed it (from the
    last down), so it is never written back. Returns the new stream state."""
    for s in range(n):
        hands[s] = ZERO
    seat = (leader + m - 1) % n
    for i in range(m - 1, 0, -1):
        z, j = rng.below_from(z, i + 1)
        c = cards[j]
        cards[j] = cards[i]
        hands[seat] |= bit(c)
        seat = seat - 1 if seat > 0 else n - 1
    hands[seat] |= bit(cards[0])
    return z


@jit
def deal_cards(st, cards, m, hands, n, leader):
    """``deal_from`` on the stream array ``st``."""
    st[0] = deal_from(st[0], cards, m, hands, n, leader)


# per deal and seat results kept until the rows are written (scratch ``seats``)
R_DEALT, R_LEFT, R_TRICKS, R_TAKEN, R_PASSES, R_OUT_ORDER, R_SCORE, R_SIZE = range(8)
# per deal (scratch ``deals``): dealer, leader, turns, first out
D_DEALER, D_LEADER, D_TURNS, D_FIRST, D_SIZE = range(5)


@jit
def new_scratch(players):
    """Work arrays of one game: hands, per deal and seat results, per deal
    facts, totals and ranks per seat, the deck, two per-seat tallies of a deal, who
    played each card of a trick. Passed one by one (a view or a tuple of
    arrays costs reference counting)."""
    return (
        np.zeros(players, np.uint64),
        np.zeros((DEALS, R_SIZE, players), np.int64),
        np.zeros((DEALS, D_SIZE), np.int64),
        np.zeros((4, players), np.int64),
        np.empty(52, np.int64),
        np.zeros(players, np.int64),
        np.zeros(players, np.int64),
        np.zeros(64, np.int64),
    )


def play_game(seed, index, players, params, policies, rows, events, cond=None):
    """Play game ``index`` of ``seed`` (six deals); writes 6 * players rows.

    When ``events`` has rows, trace events are written too.
    Returns (rows written, events written).
    """
    hands, seats, deals, totals, buf, tally0, tally1, holder = new_scratch(players)
    ne = play_games(
        seed,
        index,
        1,
        players,
        params,
        policies,
        rows,
        0,
        events,
        hands,
        seats,
        deals,
        totals,
        buf,
        tally0,
        tally1,
        holder,
        cond,
    )
    return DEALS * players, ne


@jit
def play_games(
    seed,
    start,
    count,
    players,
    params,
    policies,
    rows,
    r0,
    events,
    hands,
    seats,
    deals,
    totals,
    buf,
    tally0,
    tally1,
    holder,
    cond=None,
    script=None,
):
    """Games start..start+count-1 with ``play_game``'s rules, writing their
    rows one after another from ``rows[r0]``, with the work arrays of
    ``new_scratch`` (one call per slice: the arrays' reference counts
    are taken once, not per game); ``cond`` a condition on one deal
    (``cardmc.kernels.condition``) or None. Returns the events written
    (tracing is for one game)."""
    n = players
    tracing = events.shape[0] > 0
    rotate = params[P_ROTATE_DEALER] != 0
    bonus = params[P_FIRST_OUT_BONUS]
    play_out = params[P_PLAY_OUT] != 0
    stop_early = params[P_STOP_EARLY] != 0
    heuristic = heuristic_seats(policies, n)
    weights = params[P_WEIGHTS:]
    learned = learned_seats(policies, n, weights)
    sevens_cards = 0  # sevens: the scripted seats search from this many cards left in hands (0: never)
    if script is not None:
        start_script(script, policies, n, POLICY_SCRIPTED)
        sevens_cards = 0 if play_out else params[P_PIMC_SEVENS_CARDS]  # the solver ends at the first out
    ne = 0
    for g in range(count):
        index = start + g
        r = r0 + g * DEALS * n
        _, dealer0 = rng.below_from(rng.key(seed, index, 0, rng.SETUP), n)
        size = ADJUSTED_SIZE[n]
        for k in range(DEALS):
            number = k + 1
            dealer = (dealer0 + k) % n if rotate else dealer0
            leader = dealer + 1 if dealer + 1 < n else 0
            if k < 5:
                m = size
                for i in range(m):
                    buf[i] = ADJUSTED[n, i]
            else:
                m = 52
                for i in range(m):
                    buf[i] = FULL_DECK[i]
            if cond is None or cond[condition.CT_DEAL] != number:
                deal_from(rng.key(seed, index, k, rng.DEAL), buf, m, hands, n, leader)
            else:
                condition.deal_condition(
                    cond,
                    ADJUSTED_MASK[n] if k < 5 else condition.DECK52,
                    n,
                    leader,
                    -1,
                    rng.key(seed, index, k, rng.DEAL),
                    buf,
                    hands,
                )
            z = rng.key(seed, index, k, rng.PLAY)
            if tracing:
                ne = record(events, ne, EV_DEAL, k, dealer, leader)
                for s in range(n):
                    ne = record(events, ne, EV_HAND, s, np.int64(hands[s]), 0)
            for s in range(n):
                seats[k, R_DEALT, s] = popcount(hands[s])
                tally0[s] = 0
                tally1[s] = 0
            if k < 5:  # tallies: tricks, penalty units
                turns, z, ne = trick_deal_from(
                    hands,
                    leader,
                    number,
                    n,
                    stop_early,
                    heuristic,
                    z,
                    tally0,
                    tally1,
                    holder,
                    events,
                    ne,
                    script,
                    learned,
                    weights,
                )
                first = -1
                unit = UNIT_SCORE[number]
                for s in range(n):
                    seats[k, R_TRICKS, s] = tally0[s]
                    seats[k, R_TAKEN, s] = tally1[s]
                    seats[k, R_PASSES, s] = 0
                    seats[k, R_OUT_ORDER, s] = 0
                    seats[k, R_SCORE, s] = tally1[s] * unit
            else:  # tallies: passes, out order
                turns, first, z, ne = sevens_from(
                    hands,
                    ZERO,
                    leader,
                    n,
                    play_out,
                    heuristic,
                    z,
                    tally0,
                    tally1,
                    events,
                    ne,
                    script,
                    sevens_cards,
                    learned,
                    weights[SEVENS_AT:],
                )
                for s in range(n):
                    seats[k, R_TRICKS, s] = 0
                    seats[k, R_TAKEN, s] = 0
                    seats[k, R_PASSES, s] = tally0[s]
                    seats[k, R_OUT_ORDER, s] = tally1[s]
                    seats[k, R_SCORE, s] = -tally0[s] + (bonus if s == first else 0)
            for s in range(n):
                seats[k, R_LEFT, s] = popcount(hands[s])
            deals[k, D_DEALER] = dealer
            deals[k, D_LEADER] = leader
            deals[k, D_TURNS] = turns
            deals[k, D_FIRST] = first
        # totals after five and six deals, ranks (1 = best, ties share), winners
        top5 = -(1 << 30)
        top = -(1 << 30)
        for s in range(n):
            t5 = 0
            for k in range(5):
                t5 += seats[k, R_SCORE, s]
            totals[0, s] = t5
            totals[1, s] = t5 + seats[5, R_SCORE, s]
            top5 = max(top5, totals[0, s])
            top = max(top, totals[1, s])
        shared5 = 0
        shared = 0
        for s in range(n):
            shared5 += totals[0, s] == top5
            shared += totals[1, s] == top
            rank5 = 1
            rank = 1
            for o in range(n):
                rank5 += totals[0, o] > totals[0, s]
                rank += totals[1, o] > totals[1, s]
            totals[2, s] = rank5
            totals[3, s] = rank
        # the rows, one after another, each from its first column to its last
        for k in range(DEALS):
            dealer = deals[k, D_DEALER]
            for s in range(n):
                rank5 = totals[2, s]
                rank = totals[3, s]
                rows[r, C_GAME] = index
                rows[r, C_DEAL] = k + 1
                rows[r, C_SEAT] = s
                rows[r, C_PLAYERS] = n
                rows[r, C_DEALER] = dealer
                rows[r, C_LEADER] = deals[k, D_LEADER]
                rows[r, C_REL_SEAT] = s - dealer if s >= dealer else s - dealer + n
                rows[r, C_TURNS] = deals[k, D_TURNS]
                rows[r, C_TRICKS] = seats[k, R_TRICKS, s]
                rows[r, C_TAKEN] = seats[k, R_TAKEN, s]
                rows[r, C_SCORE] = seats[k, R_SCORE, s]
                rows[r, C_PASSES] = seats[k, R_PASSES, s]
                rows[r, C_FIRST_OUT] = 1 if s == deals[k, D_FIRST] else 0
                rows[r, C_OUT_ORDER] = seats[k, R_OUT_ORDER, s]
                rows[r, C_CARDS_DEALT] = seats[k, R_DEALT, s]
                rows[r, C_CARDS_LEFT] = seats[k, R_LEFT, s]
                rows[r, C_TOTAL5] = totals[0, s]
                rows[r, C_TOTAL] = totals[1, s]
                rows[r, C_RANK5] = rank5
                rows[r, C_RANK] = rank
                rows[r, C_WINNER5] = rank5 == 1
                rows[r, C_WINNER] = rank == 1
                rows[r, C_SHARED5] = shared5 > 1
                rows[r, C_SHARED] = shared > 1
                rows[r, C_POLICY] = policies[s, 0]
                r += 1
    return ne


SLICE = 256  # games a slice (one set of work arrays each)


def simulate(seed, start, count, players, params, policies, cond=None, out=None, after=None):
    """Play games start..start+count-1, slices of ``SLICE`` games side by side;
    game j writes rows[j*m : j*m+nrows[j]]; ``after(p, rows, lo, hi)``, if given,
    reads each slice's rows lo..hi-1 on the thread that wrote them, right
    after (``jit.in_shares``)."""
    m = DEALS * players
    rows = new_rows(out, count * m, len(COLUMNS))
    nrows = np.zeros(count, np.int64)
    in_shares(
        lambda lo, hi: play_slices(seed, start, count, players, params, policies, cond, rows, nrows, lo, hi),
        (count + SLICE - 1) // SLICE,
        after and (lambda p, s: after(p, rows, s * SLICE * m, min(count, (s + 1) * SLICE) * m)),
    )
    return rows, nrows


@jit
def play_slices(seed, start, count, players, params, policies, cond, rows, nrows, lo, hi):
    """Slices lo..hi-1 of ``simulate``."""
    m = DEALS * players
    events = np.zeros((0, 4), np.int64)
    hands, seats, deals, totals, buf, tally0, tally1, holder = new_scratch(players)
    for s in range(lo, hi):
        first = s * SLICE
        last = min(count, first + SLICE)
        play_games(
            seed,
            start + first,
            last - first,
            players,
            params,
            policies,
            rows,
            first * m,
            events,
            hands,
            seats,
            deals,
            totals,
            buf,
            tally0,
            tally1,
            holder,
            cond,
        )
        for j in range(first, last):
            nrows[j] = m


def trace_game(seed, index, players, params, policies, cond=None):
    """Rows and trace events of one game."""
    rows = np.zeros((DEALS * players, len(COLUMNS)), np.int32)
    events = np.zeros((DEALS * (1 + players) + 5 * 52 + 52 * players + players + 8, 4), np.int64)
    nr, ne = play_game(seed, index, players, params, policies, rows, events, cond)
    return rows[:nr], events[:ne]


# ------------------------------------------------------------ advice from a view
# One decision of the heuristic player from a seat's view (``cardmc.advise``): the seat's hand
# now and the deal's plays so far in order, replayed with this kernel's own bookkeeping, then its
# own heuristic card function: what a heuristic seat would play there, from nothing it did not see.


@jit
def view_card(number, hand, plays, count, n, deck):
    """Norwegian Jazz, deals 1-5 (``number``): the heuristic's card; ``deck``:
    the deal's cards (the adjusted deck)."""
    others = deck & ~hand
    for j in range(count):
        others &= ~bit(plays[j])
    pos = count % n
    if pos == 0:
        return heuristic_trick_card(number, hand, hand, 0, n, -1, others)
    led_mask = SUIT16 << np.uint64(plays[count - pos] & 48)
    trick = ZERO
    for j in range(count - pos, count):
        trick |= bit(plays[j])
    return heuristic_trick_card(
        number, hand, trick_legal(hand, led_mask), pos, n, highest(trick & led_mask), others
    )


@jit
def view_learned(number, hand, seat, plays, seats, count, n, deck, weights, feats):
    """Norwegian Jazz, deals 1-5 (``number``): the learned player from the view of ``seat``: ``plays[:count]``
    the deal's cards in order and ``seats`` who played them, ``deck`` the deal's cards. Fills ``feats`` (a row
    per legal card, lowest code first) with the deal's block of ``norwegian_jazz_learned.trick_features`` and
    returns (legal cards as a mask, the card ``weights`` play)."""
    unseen = deck & ~hand
    voids = 0
    for j in range(count):
        unseen &= ~bit(plays[j])
        first = plays[j - j % n]
        if j % n > 0 and plays[j] >> 4 != first >> 4:
            voids |= 1 << (4 * seats[j] + (first >> 4))
    pos = count % n
    trick = ZERO
    for j in range(count - pos, count):
        trick |= bit(plays[j])
    if pos == 0:
        legal, best = hand, 0
        heur = heuristic_trick_card(number, hand, hand, 0, n, -1, unseen)
    else:
        led_mask = SUIT16 << np.uint64(plays[count - pos] & 48)
        legal, best = trick_legal(hand, led_mask), highest(trick & led_mask)
        heur = heuristic_trick_card(number, hand, legal, pos, n, best, unseen)
    pen, left = PENALTY_CARDS[number], popcount(hand)
    m = legal
    i = 0
    while m != ZERO:
        c = lowest(m)
        m &= m - ONE
        trick_features(c, heur, hand, unseen, voids, seat, n, number, pen, trick, best, pos, left, feats[i])
        i += 1
    card = learned_trick_card(
        hand, legal, heur, unseen, voids, seat, n, number, pen, trick, best, pos, left, weights
    )
    return np.int64(legal), card
