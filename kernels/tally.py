"""The aggregates of whole games straight from the kernels' row arrays.

Each game's aggregate tables (``analysis/<game>.py``, ``aggregate``) are kept
here as fixed grids of int64 cells in one flat array ``acc``: per table, a
count per cell, then per value a sum and a sum of squares per cell, at the
table's offset ``at[t]`` (see ``cardmc.aggregate.Grid``). A cell is a key
combination, numbered row-major over the keys' ranges.

``<game>(rows, lo, hi, acc, at, dims)`` adds rows lo..hi-1 (whole games)
into ``acc``. It returns a count above 0 when rows do not fit the grids (a
key out of its range, rows not in whole deals): then the caller drops
``acc`` and aggregates the block another way. ``dims`` holds the ranges
that depend on the run. The caller cuts a block into shares of whole games
(``split``) and tallies them side by side, each share into its own ``acc``,
and sums the shares (integers: exact in any order), or tallies each slice
of games on the thread that played it, right after; see
``cardmc.aggregate.GridTally``.
"""

from __future__ import annotations

import numpy as np

from cardmc.kernels import differenzler as D
from cardmc.kernels import english_jazz as E
from cardmc.kernels import norwegian_jazz as N
from cardmc.kernels import schieber as S
from cardmc.kernels.jit import jit

u = (
    np.uint64
)  # places as unsigned: no wrap-around test of a negative index per cell and row (a third of a tally)


@jit
def split(rows, shares):
    """Bounds of ``shares`` row ranges of about equal size that end at a change of game (column 0)."""
    n = rows.shape[0]
    out = np.zeros(shares + 1, np.int64)
    for p in range(1, shares):
        r = max(n * p // shares, out[p - 1])
        while 0 < r < n and rows[u(r), 0] == rows[u(r - 1), 0]:
            r += 1
        out[p] = r
    out[shares] = n
    return out


# ------------------------------------------------------------ Differenzler

PENALTY = D.DEAL_POINTS + 1  # 0..157
D_PLAYS = D.PLAY_LEARNED + 1  # Differenzler's play policies: random, heuristic, pimc, learned
D_DECLARES = D.DECLARE_LEARNED + 1  # its declaration policies: random, heuristic, calibrated, learned
POLICY_CELLS = D_PLAYS * D_DECLARES  # play policy x declaration policy


@jit
def differenzler(rows, lo, hi, acc, at, dims):
    bad = 0
    pen_hist, by_rel, by_card, by_hand, by_declared, first, games, all_rows = (
        at[0],
        at[1],
        at[2],
        at[3],
        at[4],
        at[5],
        at[6],
        at[7],
    )
    for r in range(lo, hi):
        play, declare = rows[u(r), D.C_PLAY_POLICY], rows[u(r), D.C_DECLARE_POLICY]
        penalty, made, declared = rows[u(r), D.C_PENALTY], rows[u(r), D.C_MADE], rows[u(r), D.C_DECLARED]
        rel, card = rows[u(r), D.C_REL], rows[u(r), D.C_TRUMP_CARD]
        trumps, jack, nine = rows[u(r), D.C_TRUMPS], rows[u(r), D.C_TRUMP_JACK], rows[u(r), D.C_TRUMP_NINE]
        aces, tens = rows[u(r), D.C_ACES], rows[u(r), D.C_TENS]
        winner, tied, deal = rows[u(r), D.C_WINNER], rows[u(r), D.C_TIED], rows[u(r), D.C_DEAL]
        rank = (card & 15) - 4
        if not (
            0 <= play < D_PLAYS
            and 0 <= declare < D_DECLARES
            and 0 <= penalty < PENALTY
            and 0 <= made < PENALTY
            and 0 <= declared < PENALTY
            and 0 <= rel < 4
            and 0 <= rank < 9
            and 0 <= card >> 4 < 4
            and 0 <= trumps < 10
            and 0 <= jack < 2
            and 0 <= nine < 2
            and 0 <= aces < 5
            and 0 <= tens < 5
            and 0 <= winner < 2
            and 0 <= tied < 2
        ):
            bad += 1
            continue
        pol = play * D_DECLARES + declare
        acc[u(pen_hist + pol * PENALTY + penalty)] += 1
        c = pol * 4 + rel
        acc[u(by_rel + c)] += 1
        acc[u(by_rel + 4 * POLICY_CELLS + c)] += penalty
        acc[u(by_rel + 8 * POLICY_CELLS + c)] += penalty * penalty
        c = pol * 36 + (card >> 4) * 9 + rank
        acc[u(by_card + c)] += 1
        acc[u(by_card + 36 * POLICY_CELLS + c)] += penalty
        acc[u(by_card + 72 * POLICY_CELLS + c)] += penalty * penalty
        c = ((((pol * 10 + trumps) * 2 + jack) * 2 + nine) * 5 + aces) * 5 + tens
        acc[u(by_hand + c)] += 1
        acc[u(by_hand + 1000 * POLICY_CELLS + c)] += made
        acc[u(by_hand + 2000 * POLICY_CELLS + c)] += made * made
        c = pol * PENALTY + declared
        acc[u(by_declared + c)] += 1
        acc[u(by_declared + POLICY_CELLS * PENALTY + c)] += made
        acc[u(by_declared + 2 * POLICY_CELLS * PENALTY + c)] += made * made
        if deal == 0:
            acc[u(first + (pol * 2 + winner) * 2 + tied)] += 1
            if rows[u(r), D.C_SEAT] == 0:
                acc[u(games + pol)] += 1
        acc[u(all_rows + pol)] += 1
    return bad


# ---------------------------------------------------------------- Schieber

CONTRACTS = len(S.CONTRACT_NAMES)
WEIS = 1024  # a hand's Weis points: 0..1023
CARD_POINTS = 258  # a team's card points in a deal: 0..257 (a match: 157 + 100)


@jit
def schieber(rows, lo, hi, acc, at, dims):
    bad = 0
    deals_size = dims[0]
    if (hi - lo) % 4:
        return hi - lo
    for r in range(lo, hi, 4):
        game, deal = rows[u(r), S.C_GAME], rows[u(r), S.C_DEAL]
        ok = True
        for s in range(4):
            ok &= (
                rows[u(r + s), S.C_GAME] == game
                and rows[u(r + s), S.C_DEAL] == deal
                and rows[u(r + s), S.C_SEAT] == s
            )
        fh = rows[u(r), S.C_FOREHAND]
        if not (ok and 0 <= fh < 4):
            return hi - lo
        contract, pushed, match_end = (
            rows[u(r + fh), S.C_CONTRACT],
            rows[u(r + fh), S.C_PUSHED],
            rows[u(r), S.C_MATCH_END],
        )
        if not (0 <= contract < CONTRACTS and 0 <= pushed < 2):
            return hi - lo
        # per seat: the chooser's hand and contract, Weis kinds, the first deal
        for s in range(4):
            q = r + s
            kinds = rows[u(q), S.C_WEIS_KINDS]
            aces, sixes, tens = rows[u(q), S.C_ACES], rows[u(q), S.C_SIXES], rows[u(q), S.C_TENS]
            longest, weis, c = rows[u(q), S.C_LONGEST], rows[u(q), S.C_WEIS], rows[u(q), S.C_CONTRACT]
            p = rows[u(q), S.C_PUSHED]
            if not (
                0 <= kinds < 512
                and 0 <= aces < 5
                and 0 <= sixes < 5
                and 0 <= tens < 5
                and 0 <= longest < 10
                and 0 <= weis < WEIS
                and 0 <= c < CONTRACTS
                and 0 <= p < 2
            ):
                bad += 1
                continue
            acc[u(at[7] + kinds)] += 1
            if s == rows[u(q), S.C_CHOOSER]:
                acc[u(at[0] + p * CONTRACTS + c)] += 1
                acc[u(at[1] + aces * CONTRACTS + c)] += 1
                acc[u(at[2] + sixes * CONTRACTS + c)] += 1
                acc[u(at[3] + tens * CONTRACTS + c)] += 1
                acc[u(at[4] + longest * CONTRACTS + c)] += 1
                acc[u(at[5] + weis * CONTRACTS + c)] += 1
                if rows[u(q), S.C_MATCH_END] == 0:
                    t = at[6]
                    points, score = np.int64(rows[u(q), S.C_CARD_POINTS]), np.int64(rows[u(q), S.C_SCORE])
                    acc[u(t + c)] += 1
                    acc[u(t + CONTRACTS + c)] += points
                    acc[u(t + 2 * CONTRACTS + c)] += points * points
                    acc[u(t + 3 * CONTRACTS + c)] += score
                    acc[u(t + 4 * CONTRACTS + c)] += score * score
            if deal == 0 and s == 0:
                w = rows[u(q), S.C_WINNER]
                if 0 <= w < 2:
                    acc[u(at[14] + fh * 2 + w)] += 1
                else:
                    bad += 1
        # per deal, from the forehand's point of view
        o = r + ((fh + 1) & 3)
        scored = -1
        stoeck = 0
        for s in range(4):
            if scored < 0 and rows[u(r + s), S.C_WEIS_SCORED] == 1:
                scored = rows[u(r + s), S.C_TEAM]
            stoeck = max(stoeck, rows[u(r + s), S.C_STOECK])
        fh_weis = 1 if scored == (fh & 1) else 0
        op_weis = 1 if scored == 1 - (fh & 1) else 0
        acc[u(at[8] + fh_weis * 2 + op_weis)] += 1
        if contract < 4:
            if 0 <= stoeck < 2:
                acc[u(at[9] + stoeck)] += 1
            else:
                bad += 1
        if match_end == 0:
            tricks0 = rows[u(r), S.C_TRICKS] + rows[u(r + 2), S.C_TRICKS]
            tricks1 = rows[u(r + 1), S.C_TRICKS] + rows[u(r + 3), S.C_TRICKS]
            match = 1 if tricks0 == 9 or tricks1 == 9 else 0
            acc[u(at[10] + contract * 2 + match)] += 1
            net = np.int64(rows[u(r + fh), S.C_SCORE]) - np.int64(rows[u(o), S.C_SCORE])
            acc[u(at[11] + pushed)] += 1
            acc[u(at[11] + 2 + pushed)] += net
            acc[u(at[11] + 4 + pushed)] += net * net
            fh_points, op_points = rows[u(r + fh), S.C_CARD_POINTS], rows[u(o), S.C_CARD_POINTS]
            if 0 <= fh_points < CARD_POINTS and 0 <= op_points < CARD_POINTS:
                acc[u(at[12] + fh_points * CARD_POINTS + op_points)] += 1
            else:
                bad += 1
        elif match_end == 1:
            schneider, deals = rows[u(r), S.C_SCHNEIDER], rows[u(r), S.C_DEALS]
            if 0 <= schneider < 2 and 0 <= deals < deals_size:
                acc[u(at[13] + schneider * deals_size + deals)] += 1
            else:
                bad += 1
    return bad


# ------------------------------------------------------------ English Jazz

RULES = len(E.RULE_LETTERS)
TOTAL_LO, TOTAL_SIZE = -2 * E.DEALS, 4 * E.DEALS + 1  # a game's total: -24..24
# hand features in FEATURES order: (column, lowest value, values)
FEATURES = np.array(
    [
        (E.C_ACES, 0, 5),
        (E.C_JACKS, 0, 5),
        (E.C_NINES, 0, 5),
        (E.C_LONGEST, 0, 13),
        (E.C_VOIDS, 0, 5),
        (E.C_POINTS_HELD, 0, 121),
        (E.C_TRUMPS_HELD, -1, 14),
    ],
    np.int64,
)


@jit
def english_jazz(rows, lo, hi, acc, at, dims):
    bad = 0
    swept = 0
    for r in range(lo, hi):
        rule, position, all_tricks = (
            rows[u(r), E.C_RULE],
            rows[u(r), E.C_POSITION],
            rows[u(r), E.C_ALL_TRICKS],
        )
        ok = 0 <= rule < RULES and 0 <= position < 3 and 0 <= all_tricks < 2
        for f in range(len(FEATURES)):
            v = rows[u(r), FEATURES[f, 0]] - FEATURES[f, 1]
            ok &= 0 <= v < FEATURES[f, 2]
        seat, deal = rows[u(r), E.C_SEAT], rows[u(r), E.C_DEAL]
        setter, dealer = rows[u(r), E.C_TRUMP_SET_BY], rows[u(r), E.C_DEALER]
        total = rows[u(r), E.C_TOTAL] - TOTAL_LO
        winner, shared = rows[u(r), E.C_WINNER], rows[u(r), E.C_SHARED_WIN]
        ok &= 0 <= seat < 3 and -1 <= setter < 3 and 0 <= dealer < 3 and 0 <= total < TOTAL_SIZE
        ok &= 0 <= winner < 2 and 0 <= shared < 2
        if not ok:
            bad += 1
            continue
        score = np.int64(rows[u(r), E.C_SCORE])
        c = (rule * 3 + position) * 2 + all_tricks
        acc[u(at[0] + c)] += 1
        acc[u(at[0] + 30 + c)] += score
        acc[u(at[0] + 60 + c)] += score * score
        for f in range(len(FEATURES)):
            v = rows[u(r), FEATURES[f, 0]] - FEATURES[f, 1]
            acc[u(at[1 + f] + v * 2 + all_tricks)] += 1
        if seat == 0:
            never = 1 if rows[u(r), E.C_TRUMP] < 0 else 0
            setter_position = -1 if setter < 0 else (setter - dealer) % 3
            acc[u(at[8] + (rule * 2 + never) * 4 + setter_position + 1)] += 1
        if deal == 0:
            acc[u(at[10] + (((seat * 3 + position) * 2 + winner) * 2 + shared) * TOTAL_SIZE + total)] += 1
        swept = max(swept, all_tricks)
        if r + 1 == hi or rows[u(r + 1), E.C_GAME] != rows[u(r), E.C_GAME]:
            acc[u(at[9] + swept)] += 1
            swept = 0
    return bad


# ---------------------------------------------------------- Norwegian Jazz

CARDS = 53  # cards dealt to a seat: 0..52


@jit
def norwegian_jazz(rows, lo, hi, acc, at, dims):
    """dims: players, lowest score, score values, concord values (2 * pairs + 1), pairs values."""
    n, score_lo, score_size, concord_size, pairs_size = dims[0], dims[1], dims[2], dims[3], dims[4]
    half = concord_size // 2
    seat_cells = 6 * n
    if (hi - lo) % n:
        return hi - lo
    for r in range(lo, hi, n):
        game, deal = rows[u(r), N.C_GAME], rows[u(r), N.C_DEAL]
        ok = 1 <= deal <= 6
        table = np.int64(0)
        for s in range(n):
            q = r + s
            rel, score = rows[u(q), N.C_REL_SEAT], rows[u(q), N.C_SCORE]
            ok &= rows[u(q), N.C_GAME] == game and rows[u(q), N.C_DEAL] == deal and rows[u(q), N.C_SEAT] == s
            ok &= rows[u(q), N.C_PLAYERS] == n and 0 <= rel < n and 0 <= score - score_lo < score_size
            ok &= 0 <= rows[u(q), N.C_CARDS_DEALT] < CARDS and 0 <= rows[u(q), N.C_FIRST_OUT] < 2
            ok &= 0 <= rows[u(q), N.C_WINNER] < 2
            table += score
        if not ok:
            return hi - lo
        for s in range(n):
            q = r + s
            rel, score = rows[u(q), N.C_REL_SEAT], np.int64(rows[u(q), N.C_SCORE])
            c = (deal - 1) * n + rel
            acc[u(at[2] + c * score_size + score - score_lo)] += 1
            effect = n * score - table
            acc[u(at[3] + c)] += 1
            acc[u(at[3] + seat_cells + c)] += effect
            acc[u(at[3] + 2 * seat_cells + c)] += effect * effect
            if deal <= 5:
                taken = np.int64(rows[u(q), N.C_TAKEN])
                acc[u(at[4] + deal - 1)] += 1
                acc[u(at[4] + 5 + deal - 1)] += taken
                acc[u(at[4] + 10 + deal - 1)] += taken * taken
            elif deal == 6:
                c = (rel * CARDS + rows[u(q), N.C_CARDS_DEALT]) * 2 + rows[u(q), N.C_FIRST_OUT]
                cells = n * CARDS * 2
                passes = np.int64(rows[u(q), N.C_PASSES])
                acc[u(at[5] + c)] += 1
                acc[u(at[5] + cells + c)] += score
                acc[u(at[5] + 2 * cells + c)] += score * score
                acc[u(at[5] + 3 * cells + c)] += passes
                acc[u(at[5] + 4 * cells + c)] += passes * passes
            if deal == 1:
                c = rel * 2 + rows[u(q), N.C_WINNER]
                total = np.int64(rows[u(q), N.C_TOTAL])
                acc[u(at[6] + c)] += 1
                acc[u(at[6] + 2 * n + c)] += total
                acc[u(at[6] + 4 * n + c)] += total * total
        if deal == 6:  # the game's outcome: five-deal and six-deal standings
            top5 = rows[u(r), N.C_TOTAL5]
            top = rows[u(r), N.C_TOTAL]
            for s in range(1, n):
                top5 = max(top5, rows[u(r + s), N.C_TOTAL5])
                top = max(top, rows[u(r + s), N.C_TOTAL])
            changed = 0
            kept = 0
            leaders5 = 0
            leaders = 0
            for s in range(n):
                lead5 = rows[u(r + s), N.C_TOTAL5] == top5
                win = rows[u(r + s), N.C_TOTAL] == top
                changed |= lead5 != win
                kept |= lead5 and win
                leaders5 += lead5
                leaders += win
            concord = 0
            untied5 = 0
            untied = 0
            for i in range(n):
                for j in range(i + 1, n):
                    a = np.sign(rows[u(r + i), N.C_TOTAL5] - rows[u(r + j), N.C_TOTAL5])
                    b = np.sign(rows[u(r + i), N.C_TOTAL] - rows[u(r + j), N.C_TOTAL])
                    concord += a * b
                    untied5 += abs(a)
                    untied += abs(b)
            pairs = untied5 * untied
            overtaken = 0 if kept else 1
            acc[u(at[0] + (((changed * 2 + overtaken) * 2 + (leaders5 > 1)) * 2 + (leaders > 1)))] += 1
            if pairs > 0:
                acc[u(at[1] + (concord + half) * pairs_size + pairs)] += 1
    return 0
