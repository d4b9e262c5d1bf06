"""The search player ``pimc`` (perfect-information Monte Carlo), Schieber.

At each of its decisions the player deals the cards it has not seen into the
other hands, ``pimc_samples`` times, each deal consistent with everything it
has seen this deal: the cards played, by whom, in which trick. A seat that
played a card holds no card that would have made that card illegal (a seat
that discarded on a plain lead holds none of that suit; a seat that
undertrumped holds nothing but trumps; the trump Jack alone need not follow
a trump lead): each unseen card is tested against each earlier play with the
rules' own legality (``cardmc.kernels.solve_search.legal_mask``), and every
sample is checked again as whole hands before it is used. Each sample is
solved with every hand seen (``cardmc.kernels.solve_search.card_values``:
the points the player's team takes from here with best play by both teams,
its match bonus included), and the player plays the legal card with the
highest mean over the samples (ties: the lowest card code).

Whole Schieber deals take seconds each to solve, so the player searches once
``pimc_tricks`` tricks or fewer are left (default 5, about a millisecond a
solve) and plays as ``heuristic`` before; ``pimc_tricks=9`` searches every
card. It chooses and pushes contracts as ``heuristic`` does. It does not use
the Weis shown or Stöck, and its solver counts the rulebook's points (with
``undenufe_points=six`` too).

How a game with ``pimc`` seats is played: the batch kernel plays the match
with the ``pimc`` seats scripted (``cardmc.kernels.schieber``, ``SC_*``); where
the script runs out, the kernel notes the decision, this module decides it
from the match's events up to there (only what that seat has seen), adds the
card to the script and the match is played again from its start. The other
seats' play, the deals and the random streams are the kernel's own, so game
``i`` of seed ``s`` is the same whatever the threads or chunks; the samples
come from a stream keyed by seed, game and decision.
"""
from __future__ import annotations

import numpy as np

from cardmc.kernels import cards as C
from cardmc.kernels import schieber as k
from cardmc.kernels import solve_search as S
from cardmc.kernels import solve_rules as SR
from cardmc.kernels.events import EV_CONTRACT, EV_DEAL, EV_HAND, EV_PLAY

PIMC = k.SCRIPTED
TT_MIB = 16  # a search from five tricks left fills a small table; one a thread
TRIES = 200  # samples drawn for one accepted (a player's inferences make almost every one pass)
FULL = C.mask_of(C.deck(36))  # the 36 cards (suit * 16 + rank)


def has_pimc(policies: np.ndarray) -> bool:
    return bool((np.asarray(policies)[:, 0] == PIMC).any())


def play_match(seed: int, index: int, params: np.ndarray, policies: np.ndarray, rows: np.ndarray,
               events: np.ndarray, cond, samples: int, tricks: int) -> tuple[int, int]:  # fmt: skip
    """Match ``index`` of ``seed`` with the ``pimc`` seats of ``policies``
    searching (``samples`` deals a decision, from ``tricks`` tricks left);
    writes its rows and events like ``cardmc.kernels.schieber.play_game``
    and returns how many of each."""
    per_deal = 4 * 9
    script = np.zeros(k.SC_CARDS + per_deal * int(k.max_deals(int(params[k.P_TARGET]))), np.int64)
    script[k.SC_TRICKS] = tricks
    count = 0
    tt = _table()
    while True:
        script[k.SC_COUNT] = count
        nrows, nev = k.play_game(seed, index, 4, params, policies, rows, events, cond, script)
        need = int(script[k.SC_NEED])
        if need < 0:
            return nrows, nev
        rng = np.random.default_rng([seed, index, count, 0x9C])
        script[k.SC_CARDS + count] = decide(events[:need + 1], samples, rng, tt)
        count += 1


def _table():
    from cardmc.solve import table

    return table(TT_MIB)


def decide(events: np.ndarray, samples: int, rng: np.random.Generator, tt) -> int:
    """The card of the decision that ``events`` end with (its EV_PLAY row: the
    seat and its legal cards), from what that seat has seen."""
    view = seen(events)
    if view["legal"] & (view["legal"] - 1) == 0:
        return int(view["legal"]).bit_length() - 1
    R = _rules(view)
    totals: dict[int, int] = {}
    for _ in range(samples):
        hands = sample(view, rng, R)
        for card, value in solve_cards(view, hands, R, tt).items():
            totals[card] = totals.get(card, 0) + value
    return min(totals, key=lambda c: (-totals[c], c))


def seen(events: np.ndarray) -> dict:
    """What the seat to play (the last event, an EV_PLAY) knows of the deal in
    progress: its hand now and legal cards, the contract, the plays so far
    (seat, card) in order, the trick in progress and its leader."""
    ev = np.asarray(events)
    start = int(np.flatnonzero(ev[:, 0] == EV_DEAL)[-1])
    me, legal = int(ev[-1, 1]), int(ev[-1, 3]) & FULL
    dealt = contract = None
    plays = []
    for kind, a, b, c in ev[start:-1].tolist():
        if kind == EV_HAND and a == me:
            dealt = b & FULL
        elif kind == EV_CONTRACT:
            contract = c
        elif kind == EV_PLAY:
            plays.append((a, b))
    mine = 0
    for s, c in plays:
        if s == me:
            mine |= 1 << c
    done = len(plays) // 4 * 4
    trick = [c for _, c in plays[done:]]
    leader = (me - len(trick)) % 4
    return {"me": me, "hand": dealt & ~mine, "legal": legal, "contract": contract, "plays": plays,
            "trick": trick, "leader": leader}


def _rules(view: dict) -> np.ndarray:
    from cardmc.solve import MATCH, _rules as rules

    team = 0b0101 if view["me"] % 2 == 0 else 0b1010
    return rules("schieber", 4, view["contract"], team, team, MATCH)


def _legal(R: np.ndarray, hand: int, trick: list[int]) -> int:
    line = np.zeros(4, np.int64)
    line[:len(trick)] = trick
    return int(S.legal_mask(R, np.uint64(hand), line, len(trick)))


def forbidden(view: dict, R: np.ndarray, unseen: int) -> dict[int, int]:
    """Per other seat, the unseen cards it cannot hold: with any of them,
    one of its plays this deal would not have been legal."""
    out = {s: 0 for s in range(4) if s != view["me"]}
    plays = view["plays"]
    for i, (s, c) in enumerate(plays):
        pos = i % 4
        if s == view["me"] or pos == 0:
            continue
        trick = [x for _, x in plays[i - pos:i]]
        rest = unseen & ~out[s]
        while rest:
            x = rest & -rest
            rest ^= x
            if not (_legal(R, (1 << c) | x, trick) >> c) & 1:
                out[s] |= x
    return out


def sample(view: dict, rng: np.random.Generator, R: np.ndarray) -> np.ndarray:
    """One deal of the unseen cards into the other hands, consistent with the
    plays (``forbidden``, then every play checked again on the whole hands)."""
    me, plays = view["me"], view["plays"]
    played = 0
    for _, c in plays:
        played |= 1 << c
    unseen = FULL & ~played & ~view["hand"]
    others = [s for s in range(4) if s != me]
    size = {s: 9 - sum(1 for p, _ in plays if p == s) for s in others}
    banned = forbidden(view, R, unseen)
    cards = C.cards_of(unseen)
    for _ in range(TRIES):
        order = rng.permutation(len(cards))
        # the cards with the fewest possible holders first, each to a holder drawn by the room it has left
        allowed = {c: [s for s in others if not (banned[s] >> c) & 1] for c in cards}
        order = sorted(order, key=lambda i: len(allowed[cards[i]]))
        room = dict(size)
        hands = {s: 0 for s in others}
        ok = True
        for i in order:
            c = cards[i]
            who = [s for s in allowed[c] if room[s] > 0]
            if not who:
                ok = False
                break
            weights = np.array([room[s] for s in who], float)
            s = who[int(rng.choice(len(who), p=weights / weights.sum()))]
            hands[s] |= 1 << c
            room[s] -= 1
        if ok and _consistent(view, hands, R):
            out = np.zeros(4, np.uint64)
            out[me] = view["hand"]
            for s in others:
                out[s] = hands[s]
            return out
    raise RuntimeError(f"no deal of the unseen cards fits the plays after {TRIES} tries")


def _consistent(view: dict, hands: dict[int, int], R: np.ndarray) -> bool:
    """Was every play of the other seats legal with the hands sampled (plus the cards they played since)?"""
    plays = view["plays"]
    held = dict(hands)
    for i in range(len(plays) - 1, -1, -1):  # back from the last play: a seat held its later cards too
        s, c = plays[i]
        if s == view["me"]:
            continue
        held[s] |= 1 << c
        pos = i % 4
        if pos and not (_legal(R, held[s], [x for _, x in plays[i - pos:i]]) >> c) & 1:
            return False
    return True


def solve_cards(view: dict, hands: np.ndarray, R: np.ndarray, tt) -> dict[int, int]:
    """The value (the player's team's points from here, its match bonus
    included) after each legal card, every hand as in ``hands``."""
    from cardmc.solve import _salt

    keys, lows, highs, bests, ages, moves, scores, fr, fk = tt
    _salt[0] += 1
    R[SR.TT_MASK] = keys.size - 1
    R[SR.SALT] = (_salt[0] * 0x9E3779B97F4A7C15) % (1 << 63)
    plays = view["plays"]
    flags = 0
    for t in range(len(plays) // 4):
        trick = np.array([c for _, c in plays[4 * t:4 * t + 4]], np.int64)
        winner = plays[4 * t][0] + int(k.trick_winner_pos(trick, view["contract"]))
        flags |= S.COUNTED_WON if (int(R[SR.COUNTED]) >> (winner % 4)) & 1 else S.OTHER_WON
    line = np.zeros(S.LINE, np.int64)
    line[:len(view["trick"])] = view["trick"]
    out_c = np.zeros(S.MAX_MOVES, np.int64)
    out_v = np.zeros(S.MAX_MOVES, np.int64)
    m = S.card_values(R, keys, lows, highs, bests, ages, hands, line, len(view["trick"]), view["leader"], -1, flags,
                      -2 * S.BIG, out_c, out_v, moves, scores, fr, fk)
    return {int(out_c[i]): int(out_v[i]) for i in range(m)}
