"""Differenzler kernel against the plain-Python reference (RULES.md section 2)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cardmc.kernels import differenzler as k
from tests.helpers import codes, mask, trick_array
from tests.reference import dealing
from tests.reference import differenzler as ref

DECK = dealing.deck(36)

# (hand, trick so far, trump, the legal set RULES.md gives)
POSITIONS = [
    # trump led: a lone trump J may be held back, so anything goes
    ("JS 7H 8H AD", ["6S"], "S", "JS 7H 8H AD"),
    # trump led, J with another trump: must play a trump (either)
    ("JS 9S 7H AD", ["6S"], "S", "JS 9S"),
    # trump led, no trump: anything
    ("7H 8H AD", ["6S"], "S", "7H 8H AD"),
    # trump led, one non-J trump: must play it
    ("KS 7H AD", ["6S"], "S", "KS"),
    # plain led, can follow, no trump in the trick: follow or any trump
    ("7H KH 6S AD", ["9H"], "S", "7H KH 6S"),
    # plain led, can follow, trump in the trick: follow or overtrump only
    ("7H 6S 9S AD", ["9H", "AS"], "S", "7H 9S"),
    ("7H 6S KS AD", ["9H", "AS"], "S", "7H"),
    # the trump J beats everything, the 9 beats the ace
    ("7H JS", ["9H", "9S", "KH"], "S", "7H JS"),
    ("7H AS", ["9H", "9S", "KH"], "S", "7H"),
    # plain led, void: anything, an undertrump too
    ("6S 7D AD", ["9H", "AS"], "S", "6S 7D AD"),
    # leading: anything
    ("6S 7D AD", [], "S", "6S 7D AD"),
]


@pytest.mark.parametrize("hand,trick,trump,want", POSITIONS)
def test_legal_hand_built(hand, trick, trump, want):
    hand_codes = hand.split()
    got = codes(k.legal_for_trick(mask(hand_codes), trick_array(trick), len(trick), "CDHS".index(trump)))
    assert got == set(want.split())
    assert ref.legal(set(hand_codes), trick, trump) == set(want.split())


@pytest.mark.parametrize(
    "trick,trump,winner",
    [
        (["9H", "AH", "KH", "6D"], "S", 1),
        (["9H", "AH", "6S", "KH"], "S", 2),
        (["9H", "9S", "JS", "AS"], "S", 2),
        (["6D", "AH", "KH", "QH"], "S", 0),
        (["TH", "JH", "QD", "6C"], "C", 3),
        (["AS", "9S", "KS", "QS"], "S", 1),
    ],
)
def test_trick_winner_hand_built(trick, trump, winner):
    from cardmc.kernels.tricks import PLAIN, trick_winner

    assert trick_winner(trick_array(trick), 4, "CDHS".index(trump), PLAIN) == winner
    assert ref.trick_winner(trick, trump) == winner


def test_points_sum_to_152_and_157():
    from cardmc.kernels.tricks import jass_points_of

    for t, suit in enumerate("CDHS"):
        assert jass_points_of(mask(DECK), t) == 152
        assert sum(ref.points(c, suit) for c in DECK) == 152


def test_legal_and_winner_on_random_positions():
    """Legal sets and trick winners on 20,000 random positions."""
    from cardmc.kernels.tricks import PLAIN, jass_points, trick_winner

    rnd = random.Random(7)
    for _ in range(20_000):
        trump = rnd.randrange(4)
        n = rnd.randrange(4)
        size = rnd.randrange(1, 10)
        hand, trick = DECK[:], []
        rnd.shuffle(hand)
        trick, hand = hand[:n], hand[n : n + size]
        if rnd.random() < 0.3:  # more trumps in tricks, to reach the overtrump rule
            trick = [c[0] + "CDHS"[trump] if i and rnd.random() < 0.5 else c for i, c in enumerate(trick)]
            trick = list(dict.fromkeys(trick))
            hand = [c for c in hand if c not in trick]
            n = len(trick)
        got = codes(k.legal_for_trick(mask(hand), trick_array(trick), n, trump))
        assert got == ref.legal(set(hand), trick, "CDHS"[trump]), (hand, trick, trump)
        full = trick + hand[: 4 - n] if len(hand) >= 4 - n else None
        if full and len(full) == 4:
            assert trick_winner(trick_array(full), 4, trump, PLAIN) == ref.trick_winner(full, "CDHS"[trump])
            assert sum(jass_points(c, trump) for c in trick_array(full)) == sum(
                ref.points(c, "CDHS"[trump]) for c in full
            )


def test_dealing_matches_reference_packets():
    hands = np.empty(4, np.uint64)
    for seed, game, deal, dealer in [(0, 0, 0, 0), (1, 5, 2, 3), (2**40 + 3, 123456, 7, 1), (9, 2, 1, 2)]:
        trump_card = k.deal_hands(seed, game, deal, dealer, hands)
        cards = dealing.shuffled(seed, game, deal, 36)
        want = dealing.deal_packets(cards, 4, dealer)
        assert [codes(h) for h in hands] == [set(h) for h in want]
        assert cards[-1] in want[dealer]  # the dealer's last card is the last card dealt
        assert codes(np.uint64(1 << int(trump_card))) == {cards[-1]}
