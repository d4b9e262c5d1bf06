"""The English Jazz deal score search (the search player's solver) against a
plain-Python exhaustive minimax (tests/reference/minimax.py) on random and
hand-built endgames: the value after each legal card, and the position's
value as the best of them."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cardmc.kernels import english_jazz_search as E
from cardmc.kernels.cards import CARD_INDEX
from tests.helpers import mask
from tests.reference import english_jazz as R
from tests.reference.minimax import english_jazz_score


def solve(hands, plays, first_leader, me):
    """The kernel's (value, {card: value after it}), in the reference's card codes."""
    out_c, out_v = np.zeros(18, np.int64), np.zeros(18, np.int64)
    arr = np.array([CARD_INDEX[c] for c in plays] + [0], np.int64)
    m = E.card_values(
        np.array([mask(h) for h in hands], np.uint64), arr, len(plays), first_leader, me, out_c, out_v
    )
    code = {v: k for k, v in CARD_INDEX.items()}
    each = {code[int(out_c[i])]: int(out_v[i]) for i in range(m)}
    return max(each.values()), each


def _strength(card, trick, trump):
    """For the greedy history: how strongly ``card`` bids for the trick (trumps first)."""
    if trump is not None and card[1] == trump:
        return 100 + R.TRUMP_ORDER.index(card[0])
    return R.PLAIN_ORDER.index(card[0]) + (50 if not trick or card[1] == trick[0][1] else 0)


def position(rnd: random.Random, left: int, extra: int, greedy: bool):
    """A deal played at random (or greedily: each seat plays its strongest
    legal card, so that tricks pile up on one seat) until ``left`` tricks
    and ``extra`` cards of the next remain: (hands, plays, first leader, seat to play)."""
    deck = list(R.DECK)
    rnd.shuffle(deck)
    hands = [set(deck[12 * s : 12 * s + 12]) for s in range(3)]
    first = rnd.randrange(3)
    leader, trump, plays = first, None, []
    for _ in range(12 - left):
        trick = []
        for k in range(3):
            s = (leader + k) % 3
            legal = sorted(R.legal(hands[s], trick))
            c = max(legal, key=lambda c: _strength(c, trick, trump)) if greedy else rnd.choice(legal)
            hands[s].discard(c)
            trick.append(c)
        w, trump, _ = R.play_trick(trick, trump)
        leader = (leader + w) % 3
        plays += trick
    for k in range(extra):
        s = (leader + k) % 3
        c = rnd.choice(sorted(R.legal(hands[s], plays[len(plays) - k :])))
        hands[s].discard(c)
        plays.append(c)
    return hands, plays, first, (leader + extra) % 3


@pytest.mark.parametrize("left", [1, 2, 3, 4])
def test_random_endgames_agree_with_the_reference(left):
    rnd = random.Random(100 + left)
    count = {1: 400, 2: 400, 3: 300, 4: 60}[left]
    seen_scores = set()
    for i in range(count):
        hands, plays, first, me = position(rnd, left, rnd.randrange(3), greedy=i % 2 == 1)
        want = english_jazz_score(hands, plays, first, me)
        assert solve(hands, plays, first, me) == want, (hands, plays, first, me)
        seen_scores.add(want[0])
    assert len(seen_scores) >= 3  # the positions reach several deal scores, not one


def _ten_tricks_to_seat_0():
    """Ten tricks in which everyone follows suit and seat 0 wins each (trump never set)."""
    plays = []
    for suit in "SDC":
        for a, b, c in (("A", "6", "9"), ("K", "7", "T"), ("Q", "8", "J")):
            plays += [a + suit, b + suit, c + suit]
    return plays + ["AH", "6H", "7H"]


@pytest.mark.parametrize(
    "hands, value",
    [
        ([{"KH", "QH"}, {"8H", "9H"}, {"TH", "JH"}], 2),  # two masters left: all 12 tricks (rule A)
        (
            [{"KH", "8H"}, {"QH", "9H"}, {"TH", "JH"}],
            1,
        ),  # the last trick is lost: a seat without a trick pays (B)
    ],
)
def test_hand_built_sweeps(hands, value):
    plays = _ten_tricks_to_seat_0()
    want = english_jazz_score(hands, plays, 0, 0)
    assert want[0] == value
    assert solve(hands, plays, 0, 0) == want


def test_trump_set_in_the_last_tricks_counts_its_jack_and_nine():
    # no trump yet; seat 1 cannot follow hearts and sets trump with the club Jack or the 6 of clubs
    plays = _ten_tricks_to_seat_0()
    hands = [{"KH", "QH"}, {"JC", "6C"}, {"TH", "JH"}]
    want = english_jazz_score(hands, plays, 0, 0)
    assert solve(hands, plays, 0, 0) == want
    assert want[0] < 2  # seat 1 trumps one heart: no sweep
