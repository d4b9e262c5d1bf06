"""Schieber: where the heuristic forehand's push stops paying, under the rules in force.

The heuristic forehand pushes when none of its contracts is worth
``push_below`` (``cardmc.kernels.schieber.heuristic_contract``), a contract's
worth being the heuristic's estimate (``best_contract``: the multiplier times
the estimated card points plus half the own Weis, less half the deal). Where
pushing stops paying depends on the rules: the multipliers stretch every
worth, Weis and Stöck add to what a deal scores or not, the Undenufe count
changes what Undenufe brings. So the threshold is measured under the rules
in force, on deals of its own, rather than fixed once:

``push_gains`` deals ``PUSH_DEALS`` deals of ``PUSH_SEED`` as matches deal
them (the forehand at seat 0) and plays each twice, from the same cards and
the same players' stream, with heuristic play at every seat and the deal
scored alone (Weis and Stöck where the rules score them, everything times
the multiplier): once with the forehand choosing its best contract, once
with the forehand pushing and the partner choosing its best. It counts, by
the worth of the forehand's best contract, the deals and the forehand team's
net score (own minus other) pushing less choosing. ``push_crossing`` finds
the worth at which that gain changes sign, and ``push_below`` adds
``PUSH_OFFSET``, fitted once so that the rulebook's rules keep the 60 that
``cardmc.experiments.schieber.push_value`` found for them.

The count is a pure function of the rules word: the deals are fixed and the
cells integers. It runs in the calling thread (a quarter of a second), once
per rules word and process: the spec asks for it wherever params are made,
some of them on the run's own thread pool.
"""

from __future__ import annotations

import functools

import numpy as np

from cardmc.kernels import rng
from cardmc.kernels.jit import jit
from cardmc.kernels.schieber import (
    LEARNED_BITS,
    O_SCORE,
    S_HANDS,
    S_OUT,
    S_TOTALS,
    STATE_SIZE,
    _play_deal,
    best_contract,
    deal_into,
    learned_contract,
    weis_of,
)
from cardmc.kernels.schieber_weis import OBENABE, declare

PUSH_SEED = 60  # deal k of the count is the first deal of game k of this seed
PUSH_DEALS = 100_000  # the crossing's standard error is about 1 point under the rulebook's rules
# 60 less the rulebook's crossing, 61.7 on the count: python -c "from cardmc.kernels import schieber as k,
# schieber_push as p; print(p.push_crossing(*p.push_gains(k.DEFAULT_RULES)))"
PUSH_OFFSET = -1.7
LOWEST, HIGHEST = -2000, 6000  # worths counted one by one (multipliers up to 15); beyond: the end cells
NO_END = 1 << 40  # a target no deal reaches: the deal is scored alone
ALL_HEURISTIC = 15  # ``_play_deal``'s seats that play by the heuristic: all four
BINS = 50  # bins of about equal deal counts, for the first worth where pushing loses
WINDOW = 0.4  # the line through the crossing is fitted within this many interquartile ranges of worth


@jit
def _net(state, events, hands, chooser, contract, z, rules, weights):
    """Team 0's deal score less team 1's, the forehand (seat 0) leading and ``chooser`` choosing; every
    seat learned when ``weights`` is a learned block, else heuristic."""
    for s in range(4):
        state[S_HANDS + s] = np.int64(hands[s])
    state[S_TOTALS] = state[S_TOTALS + 1] = 0
    seats = ALL_HEURISTIC | (ALL_HEURISTIC << LEARNED_BITS if weights.shape[0] > 0 else 0)
    _play_deal(state, events, 0, chooser, contract, NO_END, seats, z, 0, rules, None, weights)
    return state[S_OUT + O_SCORE] - state[S_OUT + O_SCORE + 1]


@jit
def _best(hand, wr, rules, weights):
    """(best contract, worth) of the heuristic, or of the learned player when ``weights`` is a block."""
    weis = declare(hand, OBENABE, wr)[1]
    if weights.shape[0] > 0:
        return learned_contract(hand, weis, rules, weights)
    return best_contract(hand, weis, rules)


@jit
def push_deals(rules, seed, first, last, deals, gain, weights):
    """Deals first..last-1 of the count: add each to ``deals`` and its gain to ``gain``, in the cell of
    the worth of the forehand's best contract (cell v - ``LOWEST``); the players heuristic, or learned when
    ``weights`` is the learned block of ``params`` (empty: heuristic)."""
    cards = np.empty(36, np.int64)
    hands = np.zeros(4, np.uint64)
    state = np.zeros(STATE_SIZE, np.int64)
    events = np.zeros((0, 4), np.int64)
    wr = weis_of(rules)
    for i in range(first, last):
        deal_into(seed, i, 0, 0, cards, hands)
        own, worth = _best(hands[0], wr, rules, weights)
        other = _best(hands[2], wr, rules, weights)[0]
        z = rng.key(seed, i, 0, rng.PLAY)
        choose = _net(state, events, hands, 0, own, z, rules, weights)
        push = _net(state, events, hands, 2, other, z, rules, weights)
        cell = min(max(worth, LOWEST), HIGHEST - 1) - LOWEST
        deals[cell] += 1
        gain[cell] += push - choose


def push_gains(
    rules: int, seed: int = PUSH_SEED, count: int = PUSH_DEALS, weights: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """(deals, gain) by the worth of the forehand's best contract (cell v - ``LOWEST``): the deals of
    the count, and the sum of their forehand team's net score pushing less choosing, under the rules
    word ``rules``; the players heuristic, or learned by ``weights`` (the learned block of ``params``)."""
    deals, gain = np.zeros(HIGHEST - LOWEST, np.int64), np.zeros(HIGHEST - LOWEST, np.int64)
    block = np.zeros(0, np.int64) if weights is None else np.asarray(weights, np.int64)
    push_deals(rules, seed, 0, count, deals, gain, block)
    return deals, gain


def push_crossing(deals: np.ndarray, gain: np.ndarray) -> float:
    """The worth at which pushing stops paying: from the first bin of about equal deal counts (by
    increasing worth) whose gain is negative, a straight line fitted by least squares to the gains of
    the deals within ``WINDOW`` interquartile ranges of worth, moved to its zero until it stays.
    ``HIGHEST`` when pushing pays at every worth, ``LOWEST`` when it pays at none."""
    worth = np.arange(LOWEST, HIGHEST, dtype=np.float64)
    cum = np.cumsum(deals)
    total = int(cum[-1])
    size = max(1, total // BINS)
    start = 0
    x = None
    while start < len(deals):
        end = min(int(np.searchsorted(cum, cum[start] - deals[start] + size)) + 1, len(deals))
        if gain[start:end].sum() < 0:
            if start == 0:
                return float(LOWEST)
            x = float(worth[start:end] @ deals[start:end]) / float(deals[start:end].sum())
            break
        start = end
    if x is None:
        return float(HIGHEST)
    q1, q3 = worth[np.searchsorted(cum, total / 4)], worth[np.searchsorted(cum, 3 * total / 4)]
    half = max(1.0, WINDOW * (q3 - q1))
    for _ in range(20):
        near = np.abs(worth - x) <= half
        n, v, y = deals[near].astype(np.float64), worth[near], gain[near].astype(np.float64)
        mean_v, mean_y = (n @ v) / n.sum(), y.sum() / n.sum()
        slope = (v @ y - mean_v * y.sum()) / (n @ (v - mean_v) ** 2)
        if not slope < 0:
            break
        step = mean_v - mean_y / slope - x
        x += step
        if abs(step) < 1e-6:
            break
    return float(min(max(x, LOWEST), HIGHEST))


@functools.lru_cache(maxsize=256)
def push_below(rules: int) -> int:
    """The heuristic forehand's push threshold under the rules word ``rules`` (``schieber.rules_of``): the
    count's crossing (``push_crossing``) plus ``PUSH_OFFSET``, rounded to a whole point."""
    return int(np.floor(push_crossing(*push_gains(int(rules))) + PUSH_OFFSET + 0.5))


LEARNED_DEALS = 30_000  # the learned player's count: a quarter as fast as the heuristic's, about as long


def learned_push_below(rules: int, block: np.ndarray) -> int:
    """The learned forehand's push threshold under the rules word ``rules``: the crossing of its own count
    (``LEARNED_DEALS`` deals, every seat learned by the learned ``block`` of ``params``, the threshold
    itself not read), rounded to a whole point."""
    return int(np.floor(push_crossing(*push_gains(int(rules), count=LEARNED_DEALS, weights=block)) + 0.5))
