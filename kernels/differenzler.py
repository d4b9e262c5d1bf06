"""Differenzler Jass (docs/RULES.md section 2): rules, policies and batch driver.

Four players, each alone, 36 cards dealt in packets of three; the dealer's
last card fixes trump; everyone declares 0..157 and scores the penalty
|declared - made|. A game is four deals plus tie-break deals.
"""

from __future__ import annotations

import numpy as np

from cardmc.kernels import condition, rng
from cardmc.kernels.bits import ONE, ZERO, bit, lowest, nth, popcount
from cardmc.kernels.cards import ACE, DEAL_BYTES, JACK, KING, NINE, QUEEN, TEN, deal36, deck
from cardmc.kernels.columns import new_rows
from cardmc.kernels.differenzler_learned import NF as NWEIGHTS
from cardmc.kernels.differenzler_learned import card_features, learned_card
from cardmc.kernels.events import EV_DEAL, EV_DECLARE, EV_HAND, EV_PLAY
from cardmc.kernels.jit import in_shares, jit
from cardmc.kernels.script import scripted_card
from cardmc.kernels.script import start as start_script
from cardmc.kernels.tricks import (
    JASS_PLAIN,
    JASS_TRUMP,
    PLAIN,
    SUIT16,
    TRUMP_BASE,
    TRUMP_STRENGTH,
    TRUMPS_ABOVE,
    strength,
    suit_cards,
    trumps_above,
)

PLAYERS = 4
DEAL_POINTS = 157
LAST_TRICK = 5

# rule options (RULES.md names), then the simulation options: the params layout
P_OPEN_DECLARATIONS, P_MAX_EXTRA_DEALS = 0, 1
P_PIMC_SAMPLES, P_PIMC_TRICKS = 2, 3  # read by cardmc.pimc, not here
# the spec appends the learned player's weights (NWEIGHTS, ``differenzler_learned``), then its declaration
# per calibration cell (CAL_CELLS, -1: the heuristic formula); without them learned seats play and declare
# as the heuristic
P_WEIGHTS = 4

# policies: column 0 = card play, column 1 = declaration
PLAY_RANDOM, PLAY_HEURISTIC, PLAY_SCRIPTED, PLAY_LEARNED = 0, 1, 2, 3  # SCRIPTED: pimc (cardmc.pimc)
# the scripted seats play from ``play_game``'s ``script`` (``cardmc.kernels.script``); plain runs pass none;
# the learned seats by the weights of ``params[P_WEIGHTS:]`` (``differenzler_learned``)
DECLARE_RANDOM, DECLARE_HEURISTIC, DECLARE_CALIBRATED, DECLARE_LEARNED = 0, 1, 2, 3

COLUMNS = (
    "game", "deal", "seat", "dealer", "rel", "extra", "trump_card", "trump", "declared", "made",
    "penalty", "tricks", "trumps", "trump_jack", "trump_nine", "aces", "tens", "kings",
    "len_c", "len_d", "len_h", "len_s", "side", "play_policy", "declare_policy",
    "total", "winner", "tied",
)  # fmt: skip
(
    C_GAME, C_DEAL, C_SEAT, C_DEALER, C_REL, C_EXTRA, C_TRUMP_CARD, C_TRUMP, C_DECLARED, C_MADE,
    C_PENALTY, C_TRICKS, C_TRUMPS, C_TRUMP_JACK, C_TRUMP_NINE, C_ACES, C_TENS, C_KINGS,
    C_LEN_C, C_LEN_D, C_LEN_H, C_LEN_S, C_SIDE, C_PLAY_POLICY, C_DECLARE_POLICY,
    C_TOTAL, C_WINNER, C_TIED,
) = range(len(COLUMNS))  # fmt: skip

# games a slice at the least: smaller slices cost more in handing them out and in tallying each after it
# (an aggregate block of 1,024 games ran 8% slower in 64 slices than in 16)
SLICE = 64
W_DECLARED, W_MADE, W_TRICKS, W_TOTAL, W_SIZE = 0, 4, 8, 12, 16  # per-seat sums in the int64 work array
MAX_EVENTS_PER_DEAL = 1 + PLAYERS + PLAYERS + 36

# calibration table: one declaration per feature cell (see calibration_cell)
CAL_REL, CAL_TRUMPS, CAL_SIDE = 4, 6, 10
CAL_CELLS = CAL_REL * CAL_TRUMPS * 2 * 2 * CAL_SIDE
P_LEARNED_TABLE = P_WEIGHTS + NWEIGHTS  # the learned declarations in ``params``, CAL_CELLS of them

DECK = deck(36)
U = np.uint64  # places as unsigned in the hot loops: no wrap-around test of a negative index (7% of a deal)
ACES, TENS, KINGS, QUEENS = (
    np.uint64(sum(1 << (16 * s + r) for s in range(4))) for r in (ACE, TEN, KING, QUEEN)
)


def _card_tables():
    """Per trump suit and card (index ``trump * 64 + card``): the cards that
    beat it when it wins a trick (the trumps above a trump; the higher cards
    of its suit and every trump above a plain card), the cards of its own suit
    that beat it, its points, and its strength as the lead (tricks.strength)."""
    beaters, higher = np.zeros(256, np.uint64), np.zeros(256, np.uint64)
    points, strength = np.zeros(256, np.int64), np.zeros(256, np.int64)
    for t in range(4):
        for c in DECK:
            s, r, i = c >> 4, c & 15, t * 64 + c
            if s == t:
                higher[i] = int(TRUMPS_ABOVE[r]) << (16 * t)
                beaters[i] = higher[i]
                points[i], strength[i] = JASS_TRUMP[r], TRUMP_BASE + TRUMP_STRENGTH[r]
            else:
                higher[i] = ((1 << 16) - (2 << r)) << (16 * s)  # plain order is rank order
                beaters[i] = higher[i] | (0xFFFF << (16 * t))
                points[i], strength[i] = JASS_PLAIN[r], r
    return beaters, higher, points, strength


BEATERS, HIGHER, POINTS, LEAD_STRENGTH = _card_tables()


def max_rows(players: int, params: np.ndarray) -> int:
    return PLAYERS * (4 + int(params[P_MAX_EXTRA_DEALS]))


def max_events(params: np.ndarray) -> int:
    return (4 + int(params[P_MAX_EXTRA_DEALS])) * MAX_EVENTS_PER_DEAL


# --------------------------------------------------------------------- rules


@jit(inline="always")
def legal_cards(hand, led, trump, beat):
    """The cards ``hand`` may play onto a trick led in suit ``led`` (-1: to
    lead), where the trumps in ``beat`` are those that would overtrump it (the
    whole trump suit while it holds no trump; other cards in ``beat`` do not
    count) (RULES.md 2). Written with selects, not branches: random play
    cannot predict them."""
    trumps = suit_cards(hand, trump)
    lone_jack = (trumps & ~bit(trump * 16 + JACK)) == ZERO  # no trump, or a lone trump J held back
    on_trump = hand if lone_jack else trumps
    follow = suit_cards(hand, led) if led >= 0 else ZERO
    # follow suit, or trump (overtrump only, once the trick holds a trump); void or leading: anything
    on_plain = hand if follow == ZERO else follow | (trumps & beat)
    return on_trump if led == trump else on_plain


@jit
def legal_for_trick(hand, trick, n, trump):
    """``legal_cards`` for a trick given as an array of its cards."""
    led = trick[0] >> 4 if n > 0 else -1
    top = -1
    beat = SUIT16 << np.uint64(16 * trump)
    for i in range(n):
        st = strength(trick[i], led, trump, PLAIN)
        if st > top:
            top = st
            if st >= TRUMP_BASE:
                beat = trumps_above(trump, trick[i] & 15)
    return legal_cards(hand, led, trump, beat)


@jit(inline="always")
def hand_features(hand, trump):
    """(trumps, trump J, trump 9, aces, tens, kings, side points) of a hand."""
    trumps = popcount(suit_cards(hand, trump))
    jack = 1 if hand & bit(trump * 16 + JACK) else 0
    nine = 1 if hand & bit(trump * 16 + NINE) else 0
    aces = popcount(hand & ACES)
    tens = popcount(hand & TENS)
    kings = popcount(hand & KINGS)
    side = 11 * aces + 10 * tens + 4 * kings + 3 * popcount(hand & QUEENS)
    return trumps, jack, nine, aces, tens, kings, side


@jit
def calibration_cell(rel, hand, trump):
    """Feature cell of a hand: seat relative to dealer, trumps, J, 9, side bin."""
    trumps, jack, nine, aces, tens, kings, side = hand_features(hand, trump)
    t = min(trumps, CAL_TRUMPS - 1)
    b = min(side // 8, CAL_SIDE - 1)
    return (((rel * CAL_TRUMPS + t) * 2 + jack) * 2 + nine) * CAL_SIDE + b


@jit
def heuristic_declaration(rel, hand, trump):
    """A quick estimate of the card points a hand takes, 0..157."""
    est = 0.0
    ntr = popcount(suit_cards(hand, trump))
    m = hand
    while m != ZERO:
        c = lowest(m)
        m &= m - ONE
        s, r = c >> 4, c & 15
        if s == trump:
            if r == JACK:
                est += 30.0
            elif r == NINE:
                est += 24.0 if ntr >= 2 else 14.0
            elif r == ACE:
                est += 19.0
            elif r == KING or r == QUEEN or r == TEN:
                est += 12.0
            else:
                est += 6.0
        else:
            length = popcount(suit_cards(hand, s))
            has_ace = hand & bit(s * 16 + ACE) != ZERO
            if r == ACE:
                est += 16.0
            elif r == TEN:
                est += 12.0 if has_ace else 4.0
            elif r == KING:
                est += 8.0 if has_ace or length >= 3 else 3.0
            elif r == QUEEN:
                est += 2.0
    if ntr >= 3:
        est += 4.0
    d = int(est + 0.5)
    return min(max(d, 0), DEAL_POINTS)


# ------------------------------------------------------------------ policies


@jit(inline="always")
def heuristic_card(hand, legal, n, led, beat, pot, trump, need, unseen):
    """Play towards the declaration: win cheap tricks while short of it,
    shed points and duck once it is reached (``need`` <= 0). ``beat`` holds
    the cards that would beat the trick's winning card so far, ``pot`` the
    trick's points, ``unseen`` the cards not in ``hand`` nor played. Each
    card's key is written with selects and loads indexed by the card, not
    branches on the card: the cards are random, so such branches are
    unpredictable; the branches are on the situation (lead or follow, need),
    the same for every card, and only what that situation uses is worked out."""
    if legal & (legal - ONE) == ZERO:
        return lowest(legal)  # one legal card (the loop below would pick it too)
    best = -1
    best_key = -100000
    m = legal
    want = need > 0
    tb = (trump & 3) * 64  # the suit's rows of the per-card tables, read at U(tb + c)
    while m != ZERO:
        c = lowest(m)
        m &= m - ONE
        cs = c >> 4
        is_trump = cs == trump
        pts = POINTS[U(tb + c)]
        strength = LEAD_STRENGTH[U(tb + c)]
        # (the branches below are on the call's situation, the same for every card)
        if n == 0:
            if want:
                # lead a sure winner (a trump no unseen trump beats) with the most points, else a cheap
                # low card. A plain card is never sure: its HIGHER holds its suit's bits above the ace,
                # which are in ``unseen`` (no card has them), as any plain card may be trumped.
                boss = HIGHER[U(tb + c)] & unseen == ZERO
                key = 100 + pts if boss else -pts * 4 - strength
            else:
                key = -strength - pts * 4 - (50 if is_trump else 0)
        else:
            st = strength | (0 if is_trump or cs == led else -1)  # -1: neither trump nor the led suit
            wins = beat & bit(c) != ZERO
            cheap = -pts * 4 - st
            # enough: duck with the most points, or win as cheaply as possible
            enough = cheap if wins else 1000 + pts * 4 + st
            if want:
                # want the trick: the cheapest winner that holds (the last card or a trump); else
                # throw the least
                holds = n == 3 or is_trump
                short = (1000 if holds else 500) + cheap if wins else cheap
                key = short if pot + pts + 4 * (3 - n) < 2 * need else enough
            else:
                key = enough
        better = key > best_key
        best = c if better else best
        best_key = key if better else best_key
    return best


# ---------------------------------------------------------------- game play


@jit
def new_scratch():
    """Work arrays reused by the games of a batch: the hands (4), the deck
    (36, for a conditioned deal), the players' random stream (1), per-seat
    sums (int64) and the plain deal's bytes (``deal_bytes``)."""
    return (
        np.empty(PLAYERS, np.uint64),
        np.empty(36, np.int64),
        np.empty(1, np.uint64),
        np.empty(W_SIZE, np.int64),
        np.empty(DEAL_BYTES, np.uint8),
    )


@jit(inline="always")
def deal_bytes(seed, index, k, dealer, hands, b):
    """Deal ``k`` of game ``index`` into ``hands``: packets of three from the
    seat after the dealer (``cards.deal36``, ``b`` its work bytes); returns
    the trump card (the dealer's last card)."""
    return deal36(rng.key(seed, index, k, rng.DEAL), dealer + 1, PLAYERS, hands, b)


@jit(inline="always")
def deal_into(seed, index, k, dealer, hands, cards):
    """``deal_bytes`` with a work array of 36 int64 (``cards``) as its bytes."""
    return deal_bytes(seed, index, k, dealer, hands, cards.view(np.uint8))


@jit
def deal_hands(seed, index, k, dealer, hands):
    """``deal_into`` with a deck of its own."""
    return deal_into(seed, index, k, dealer, hands, np.empty(36, np.int64))


@jit(inline="always")
def declare(policy, rel, hand, trump, z, table, params):
    """(new play stream state, declaration) of a hand under ``policy`` (``params``: the game's, with the
    learned declarations from ``P_LEARNED_TABLE`` when the spec appended them)."""
    calibrated = table_declaration(policy, calibration_cell(rel, hand, trump), table, params)
    return declare_as(policy, rel, hand, trump, z, calibrated)


@jit(inline="always")
def table_declaration(policy, cell, table, params):
    """The declaration of feature cell ``cell`` in the table of ``policy`` (the calibration ``table``, or
    the learned one at the tail of ``params``); -1: none, or a policy without a table."""
    if policy == DECLARE_CALIBRATED:
        return table[U(cell)]
    if policy == DECLARE_LEARNED and params.shape[0] >= P_LEARNED_TABLE + CAL_CELLS:
        return params[U(P_LEARNED_TABLE + cell)]
    return -1


@jit(inline="always")
def declare_as(policy, rel, hand, trump, z, calibrated):
    """``declare`` given the calibration table's declaration for the hand
    (-1: none, or another policy): a scalar, so that the table is not
    reference-counted per declaration."""
    if policy == DECLARE_RANDOM:
        return rng.below_from(z, DEAL_POINTS + 1)
    if calibrated >= 0:
        return z, calibrated
    return z, heuristic_declaration(rel, hand, trump)


@jit(inline="always")
def play_deal(
    seed,
    index,
    k,
    dealer,
    policies,
    table,
    rows,
    r0,
    events,
    ne,
    hands,
    cards,
    play_st,
    work,
    deck_bytes,
    params,
    cond,
    script=None,
):
    """Play deal ``k``: writes four rows from ``rows[r0]``; returns the new
    event count. ``hands``, ``cards``, ``play_st``, ``work`` and ``deck_bytes`` are
    from ``new_scratch``; ``params`` the game's (the learned seats' weights and
    declarations at its tail); ``cond`` a condition on the deal
    (``cardmc.kernels.condition``) or None. The deck's bytes and the
    calibrated declaration reach the deal as a work array and a scalar: no
    view and no table passed per declaration, which would be reference-counted
    in every deal."""
    if cond is None or cond[condition.CT_DEAL] < 0:  # plain (condition.PLAIN)
        trump_card = deal_bytes(seed, index, k, dealer, hands, deck_bytes)
    else:
        dz = condition.deal_condition(
            cond, condition.DECK36, PLAYERS, 0, dealer, rng.key(seed, index, k, rng.DEAL), cards, hands
        )
        _, trump_card = condition.face_up_from(dz, hands[dealer], cond[condition.CT_TRUMP])
    trump = trump_card >> 4
    leader = (dealer + 1) % PLAYERS
    rec = events.shape[0] > 0
    if rec:
        events[ne, 0], events[ne, 1], events[ne, 2], events[ne, 3] = EV_DEAL, k, dealer, leader
        ne += 1
        for s in range(PLAYERS):
            h = np.int64(hands[U(s)])
            events[ne, 0], events[ne, 1], events[ne, 2], events[ne, 3] = EV_HAND, s, h, 0
            ne += 1
    z = play_st[0]  # the players' stream, in a register until the deal ends
    for j in range(PLAYERS):  # declaration order: from the seat after the dealer
        s = (dealer + 1 + j) % PLAYERS
        rel, pol = (s - dealer) % PLAYERS, policies[s, 1]
        calibrated = -1  # the calibration table's declaration (or the learned one), for that policy
        if pol == DECLARE_CALIBRATED or pol == DECLARE_LEARNED:
            calibrated = table_declaration(pol, calibration_cell(rel, hands[U(s)], trump), table, params)
        z, work[U(W_DECLARED + s)] = declare_as(pol, rel, hands[U(s)], trump, z, calibrated)
        if rec:
            d = work[U(W_DECLARED + s)]
            events[ne, 0], events[ne, 1], events[ne, 2], events[ne, 3] = EV_DECLARE, s, d, 0
            ne += 1
    for s in range(PLAYERS):
        tr, jack, nine, aces, tens, kings, side = hand_features(hands[U(s)], trump)
        rows[U(r0 + s), C_DEAL], rows[U(r0 + s), C_SEAT], rows[U(r0 + s), C_DEALER] = k, s, dealer
        rows[U(r0 + s), C_REL], rows[U(r0 + s), C_EXTRA] = (s - dealer) % PLAYERS, 1 if k >= 4 else 0
        rows[U(r0 + s), C_TRUMP_CARD], rows[U(r0 + s), C_TRUMP] = trump_card, trump
        rows[U(r0 + s), C_DECLARED] = work[U(W_DECLARED + s)]
        rows[U(r0 + s), C_TRUMPS], rows[U(r0 + s), C_TRUMP_JACK], rows[U(r0 + s), C_TRUMP_NINE] = (
            tr,
            jack,
            nine,
        )
        rows[U(r0 + s), C_ACES], rows[U(r0 + s), C_TENS], rows[U(r0 + s), C_KINGS] = aces, tens, kings
        rows[U(r0 + s), C_SIDE] = side
        rows[U(r0 + s), C_LEN_C] = popcount(suit_cards(hands[U(s)], 0))
        rows[U(r0 + s), C_LEN_D] = popcount(suit_cards(hands[U(s)], 1))
        rows[U(r0 + s), C_LEN_H] = popcount(suit_cards(hands[U(s)], 2))
        rows[U(r0 + s), C_LEN_S] = popcount(suit_cards(hands[U(s)], 3))
        rows[U(r0 + s), C_PLAY_POLICY], rows[U(r0 + s), C_DECLARE_POLICY] = policies[s, 0], policies[s, 1]
    learners = 0
    if params.shape[0] >= P_WEIGHTS + NWEIGHTS:
        for s in range(PLAYERS):
            learners += 1 if policies[s, 0] == PLAY_LEARNED else 0
    if rec or script is not None:
        if learners > 0:
            z, ne = play_tricks(
                hands, leader, trump, policies, work, z, events, ne, script, True, True, params
            )
        else:
            z, ne = play_tricks(hands, leader, trump, policies, work, z, events, ne, script)
    else:  # trick loops compiled without recording, and without the kind of player the deal lacks
        randoms = 0
        for s in range(PLAYERS):
            randoms += 1 if policies[s, 0] == PLAY_RANDOM else 0
        if learners > 0:
            z, _ = play_tricks(hands, leader, trump, policies, work, z, None, ne, None, True, True, params)
        elif randoms == 0:
            z, _ = play_tricks(hands, leader, trump, policies, work, z, None, ne, None, None)
        elif randoms == PLAYERS:
            z, _ = play_tricks(hands, leader, trump, policies, work, z, None, ne, None, True, None)
        else:
            z, _ = play_tricks(hands, leader, trump, policies, work, z, None, ne)
    play_st[0] = z
    for s in range(PLAYERS):
        rows[U(r0 + s), C_MADE] = work[U(W_MADE + s)]
        rows[U(r0 + s), C_PENALTY] = abs(work[U(W_DECLARED + s)] - work[U(W_MADE + s)])
        rows[U(r0 + s), C_TRICKS] = work[U(W_TRICKS + s)]
    return ne


@jit
def play_tricks(
    hands,
    leader,
    trump,
    policies,
    work,
    z,
    events,
    ne,
    script=None,
    random_seats=True,
    heuristic_seats=True,
    params=None,
):
    """The nine tricks of a deal whose declarations are in ``work``: each
    seat's points and tricks into ``work``, plays recorded in ``events``
    from ``ne`` when it has rows (None: not recorded). ``z`` is the players'
    stream state; the scripted seats play the cards of ``script``
    (``cardmc.kernels.script``). ``random_seats`` or ``heuristic_seats`` None
    compiles a loop without that kind of player, for deals that have none;
    with ``params`` (the game's, its tail the learned weights) the learned
    seats play by them, without it as the heuristic.
    Returns (new stream state, new event count)."""
    rec = False
    if events is not None:  # (a test on the argument itself: Numba drops the branch for None)
        rec = events.shape[0] > 0
    randoms = 0  # bit s: seat s plays random cards
    for s in range(PLAYERS):
        work[U(W_MADE + s)] = 0
        work[U(W_TRICKS + s)] = 0
        randoms |= (1 << s) if policies[s, 0] == PLAY_RANDOM else 0
    gone = ZERO
    tb = (trump & 3) * 64  # the suit's rows of the per-card tables, read at U(tb + c)
    learners = 0  # bit s: seat s plays by the learned weights
    if params is not None:
        if params.shape[0] >= P_WEIGHTS + NWEIGHTS:
            for s in range(PLAYERS):
                learners |= (1 << s) if policies[s, 0] == PLAY_LEARNED else 0
        weights = params[P_WEIGHTS:]
        brow, hrow, prow = BEATERS[tb : tb + 64], HIGHER[tb : tb + 64], POINTS[tb : tb + 64]
    for t in range(9):
        led = -1
        beat = ~ZERO  # the cards that would beat the trick's winning card (before the lead: any card)
        winner = leader
        pot = LAST_TRICK if t == 8 else 0
        s = leader & 3
        for i in range(PLAYERS):
            hand = hands[U(s)]
            legal = legal_cards(hand, led, trump, beat)
            if random_seats is not None and (heuristic_seats is None or (randoms >> s) & 1):
                z, pick = rng.below_from(z, popcount(legal))
                c = nth(legal, pick)
            else:
                c = -1 if script is None else scripted_card(script, s, 9 - t, ne)
                if c < 0:
                    need = work[U(W_DECLARED + s)] - work[U(W_MADE + s)]
                    c = heuristic_card(hand, legal, i, led, beat, pot, trump, need, ~(hand | gone))
                    if params is not None:
                        if (learners >> s) & 1:
                            c = learned_card(
                                hand, legal, i, led, beat, pot, trump, need, 9 - t, ~(hand | gone), c, brow,
                                hrow, prow, weights,
                            )  # fmt: skip
            if events is not None:
                if rec:
                    events[ne, 0], events[ne, 1], events[ne, 2], events[ne, 3] = (
                        EV_PLAY,
                        s,
                        c,
                        np.int64(legal),
                    )
                    ne += 1
            # the trick's bookkeeping with selects and loads indexed by the card, not branches
            led = c >> 4 if i == 0 else led
            wins = beat & bit(c) != ZERO
            winner = s if wins else winner
            nb = BEATERS[U(tb + c)]
            beat = nb if wins else beat
            pot += POINTS[U(tb + c)]
            hands[U(s)] = hand & ~bit(c)
            gone |= bit(c)
            s = s + 1 if s < PLAYERS - 1 else 0
        work[U(W_MADE + winner)] += pot
        work[U(W_TRICKS + winner)] += 1
        leader = winner
    return z, ne


def play_game(seed, index, players, params, policies, table, rows, events, scratch, cond=None, script=None):
    """Play game ``index`` of ``seed``: 4 deals, then tie-break deals while the
    lowest total penalty is shared (at most ``max_extra_deals``). ``scratch``
    is from ``new_scratch``; ``script`` the cards of the scripted (``pimc``)
    seats (``cardmc.kernels.script``). Returns (rows written, events written)."""
    hands, cards, play_st, work, deck_bytes = scratch
    if script is None:  # (not passed: Numba compiles a passed None as another kind of call)
        return play_games(
            seed,
            index,
            1,
            players,
            params,
            policies,
            table,
            rows,
            0,
            events,
            hands,
            cards,
            play_st,
            work,
            deck_bytes,
            cond,
        )
    return play_games(
        seed,
        index,
        1,
        players,
        params,
        policies,
        table,
        rows,
        0,
        events,
        hands,
        cards,
        play_st,
        work,
        deck_bytes,
        cond,
        script,
    )


@jit
def play_games(
    seed,
    start,
    count,
    players,
    params,
    policies,
    table,
    rows,
    r0,
    events,
    hands,
    cards,
    play_st,
    work,
    deck_bytes,
    cond=None,
    script=None,
):
    """Games start..start+count-1 as ``play_game`` plays them, their rows one
    after another from ``rows[r0]``; the work arrays are ``new_scratch``'s,
    passed one by one (one call per slice: reference counts are taken
    once, not per game). Returns (rows written, events written; tracing is
    for one game)."""
    ne = 0
    limit = 4 + params[P_MAX_EXTRA_DEALS]
    base = r0
    if script is not None:
        start_script(script, policies, PLAYERS, PLAY_SCRIPTED)
    for index in range(start, start + count):
        rng.restart(play_st, seed, index, 0, rng.SETUP)
        first = rng.below(play_st, PLAYERS)
        rng.restart(play_st, seed, index, 0, rng.PLAY)
        for s in range(PLAYERS):
            work[U(W_TOTAL + s)] = 0
        k = 0
        while True:
            r = base + k * PLAYERS
            ne = play_deal(
                seed,
                index,
                k,
                (first + k) % PLAYERS,
                policies,
                table,
                rows,
                r,
                events,
                ne,
                hands,
                cards,
                play_st,
                work,
                deck_bytes,
                params,
                cond,
                script,
            )
            low = 1 << 30
            for s in range(PLAYERS):
                rows[U(r + s), C_GAME] = index
                work[U(W_TOTAL + s)] += rows[U(r + s), C_PENALTY]
                low = min(low, work[U(W_TOTAL + s)])
            k += 1
            shared = 0
            for s in range(PLAYERS):
                shared += 1 if work[U(W_TOTAL + s)] == low else 0
            if k >= 4 and (shared == 1 or k >= limit):
                break
        n = k * PLAYERS
        for r in range(base, base + n):
            total = work[U(W_TOTAL + rows[U(r), C_SEAT])]
            rows[U(r), C_TOTAL] = total
            rows[U(r), C_WINNER] = 1 if total == low else 0
            rows[U(r), C_TIED] = 1 if shared > 1 else 0
        base += n
    return base - r0, ne


def simulate(seed, start, count, players, params, policies, table, cond=None, out=None, after=None):
    """Play games start..start+count-1 in slices of consecutive games, side by
    side: 64 slices, of at least ``SLICE`` games; slice s writes its games'
    rows one after another from row ``spans[s, 0]``, in all ``spans[s, 1]``
    rows (``cardmc.registry.join_spans`` packs them). ``after(p, rows, lo,
    hi)``, if given, reads each slice's rows lo..hi-1 on the thread that wrote
    them, right after (``jit.in_shares``)."""
    m = PLAYERS * (4 + params[P_MAX_EXTRA_DEALS])
    rows = new_rows(out, count * m, len(COLUMNS))  # only written rows are read
    spans = np.zeros((max(1, min(64, count // SLICE)), 2), np.int64)
    in_shares(
        lambda lo, hi: play_slices(
            seed, start, count, players, params, policies, table, cond, rows, spans, lo, hi
        ),
        len(spans),
        after and (lambda p, s: after(p, rows, spans[s, 0], spans[s, 0] + spans[s, 1])),
    )
    return rows, spans


@jit
def play_slices(seed, start, count, players, params, policies, table, cond, rows, spans, lo, hi):
    """Slices lo..hi-1 of ``simulate``."""
    m = PLAYERS * (4 + params[P_MAX_EXTRA_DEALS])
    slices = len(spans)
    hands, cards, play_st, work, deck_bytes = new_scratch()
    events = np.zeros((0, 4), np.int64)
    for s in range(lo, hi):
        first = s * count // slices
        n, _ = play_games(
            seed,
            start + first,
            (s + 1) * count // slices - first,
            players,
            params,
            policies,
            table,
            rows,
            first * m,
            events,
            hands,
            cards,
            play_st,
            work,
            deck_bytes,
            cond,
        )
        spans[s, 0], spans[s, 1] = first * m, n


# ------------------------------------------------------------ advice from a view
# One decision of the heuristic player from a seat's view (``cardmc.advise``): the seat's hand
# now and the deal's plays so far in order, replayed with this kernel's own bookkeeping, then its
# own heuristic card function: what a heuristic seat would play there, from nothing it did not see.


@jit(inline="always")
def view_trick(hand, plays, seats, count, trump, me):
    """The deal so far of a view (``plays[:count]`` in order, ``seats`` who played them), replayed with this
    kernel's own bookkeeping: (the legal cards of ``hand``, the seat's place in the trick, the led suit, the
    cards that beat the winning card, the trick's points, the points ``me`` made, the cards played, the
    tricks done)."""
    tb = (trump & 3) * 64
    gone = ZERO
    made = 0
    led, beat, winner, pot, i, t = -1, ~ZERO, -1, 0, 0, 0
    for j in range(count):
        if i == 0:
            led, beat, pot = -1, ~ZERO, LAST_TRICK if t == 8 else 0
        c = plays[j]
        led = c >> 4 if i == 0 else led
        if beat & bit(c) != ZERO:
            winner = seats[j]
            beat = BEATERS[tb + c]
        pot += POINTS[tb + c]
        gone |= bit(c)
        i += 1
        if i == PLAYERS:
            made += pot if winner == me else 0
            i, t = 0, t + 1
    if i == 0:
        led, beat, pot = -1, ~ZERO, LAST_TRICK if t == 8 else 0
    return legal_cards(hand, led, trump, beat), i, led, beat, pot, made, gone, t


@jit
def view_card(hand, plays, seats, count, trump, declared, me):
    """Differenzler: the heuristic's card towards the seat's declaration."""
    legal, i, led, beat, pot, made, gone, _ = view_trick(hand, plays, seats, count, trump, me)
    return heuristic_card(hand, legal, i, led, beat, pot, trump, declared - made, ~(hand | gone))


@jit
def view_learned(hand, plays, seats, count, trump, declared, me, weights, feats):
    """The learned player from the view of ``me``: fills ``feats`` (a row per legal card, lowest code first)
    with ``differenzler_learned.card_features`` and returns (legal cards as a mask, the card ``weights``
    play)."""
    legal, i, led, beat, pot, made, gone, t = view_trick(hand, plays, seats, count, trump, me)
    need, unseen = declared - made, ~(hand | gone)
    tb = (trump & 3) * 64
    brow, hrow, prow = BEATERS[tb : tb + 64], HIGHER[tb : tb + 64], POINTS[tb : tb + 64]
    heur = heuristic_card(hand, legal, i, led, beat, pot, trump, need, unseen)
    m = legal
    r = 0
    while m != ZERO:
        c = lowest(m)
        m &= m - ONE
        card_features(
            c, hand, i, led, beat, pot, trump, need, 9 - t, unseen, heur, brow, hrow, prow, feats[r]
        )
        r += 1
    card = learned_card(
        hand, legal, i, led, beat, pot, trump, need, 9 - t, unseen, heur, brow, hrow, prow, weights
    )
    return np.int64(legal), card
