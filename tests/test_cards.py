"""Shared machinery: card codes, masks, bit tricks and counter-based streams."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cardmc.kernels import bits, cards, rng
from tests.reference import dealing


def test_codes_round_trip_for_both_decks():
    for size in (36, 52):
        deck = cards.deck(size)
        assert len(deck) == size == len(set(deck.tolist()))
        codes = [cards.code(int(c)) for c in deck]
        assert codes == dealing.deck(size)
        assert [cards.parse(c, size) for c in codes] == deck.tolist()
        assert cards.mask_of(deck) == cards.deck_mask(size)
        assert cards.codes_of(cards.deck_mask(size)) == codes
    assert cards.code(cards.card_of(cards.SEVEN, cards.HEARTS)) == "7H"
    assert cards.parse("th") == cards.card_of(cards.TEN, cards.HEARTS)


@pytest.mark.parametrize("bad", ["1H", "AX", "", "AHH", "10H", None, 7])
def test_unknown_codes_are_named(bad):
    with pytest.raises(ValueError, match="unknown card code"):
        cards.parse(bad)


def test_a_36_card_deck_has_no_twos():
    with pytest.raises(ValueError, match="'2C'"):
        cards.parse("2C", 36)


def test_parse_hand_names_the_problem():
    assert cards.codes_of(cards.parse_hand("AS, KS QS", 3)) == ["QS", "KS", "AS"]
    with pytest.raises(ValueError, match="'AS' appears twice"):
        cards.parse_hand("AS KS AS", 3)
    with pytest.raises(ValueError, match="needs 4 cards, got 3"):
        cards.parse_hand("AS KS QS", 4)
    with pytest.raises(ValueError, match="'ZZ'"):
        cards.parse_hand("AS ZZ QS", 3)


def test_bit_tricks_match_python():
    rnd = random.Random(1)
    for _ in range(2000):
        m = rnd.getrandbits(61) | (1 << rnd.randrange(61))
        set_bits = [i for i in range(64) if (m >> i) & 1]
        u = np.uint64(m)
        assert bits.popcount(u) == len(set_bits)
        assert bits.lowest(u) == set_bits[0]
        assert bits.highest(u) == set_bits[-1]
        k = rnd.randrange(len(set_bits))
        assert bits.nth(u, k) == bits.nth_portable(u, k) == set_bits[k]
        if bits.FAST_PDEP:
            assert bits.nth_pdep(u, k) == set_bits[k]
        assert int(bits.bit(set_bits[k])) == 1 << set_bits[k]


def test_streams_match_the_plain_python_reference():
    rnd = random.Random(2)
    for _ in range(200):
        seed, game, deal = rnd.getrandbits(63), rnd.getrandbits(40), rnd.randrange(20)
        purpose = rnd.choice([rng.DEAL, rng.PLAY, rng.SETUP])
        st = rng.stream(seed, game, deal, purpose)
        ref = dealing.Stream(seed, game, deal, purpose)
        for n in (2, 3, 36, 158, 1 << 20):
            assert rng.below(st, n) == ref.below(n)
        assert int(rng.next_u64(st)) == ref.next()


def test_streams_differ_by_every_part_of_the_key():
    base = (5, 7, 1, rng.DEAL)
    first = int(rng.key(*base))
    for i in range(4):
        other = list(base)
        other[i] += 1
        assert int(rng.key(*other)) != first


def test_shuffle_is_a_permutation_and_uniform_enough():
    counts = np.zeros((4, 4), int)
    for g in range(4000):
        a = np.arange(4, dtype=np.int64)
        rng.shuffle(rng.stream(3, g, 0, rng.DEAL), a)
        assert sorted(a.tolist()) == [0, 1, 2, 3]
        counts[np.arange(4), a] += 1
    # each card lands in each position 1000 times in expectation (sd ~27)
    assert np.abs(counts - 1000).max() < 150


def test_below_stays_in_range():
    st = rng.stream(1, 2, 3, rng.PLAY)
    for n in (1, 2, 3, 7, 52, 158):
        draws = [rng.below(st, n) for _ in range(500)]
        assert min(draws) >= 0 and max(draws) < n
        if n > 1:
            assert len(set(draws)) == n or n > 100


@pytest.mark.parametrize("players", [3, 4])
def test_deal36_is_the_reference_shuffle_dealt_in_packets(players):
    """``deal36`` (draws first, then the swaps straight into the packets)
    deals what the plain Fisher-Yates shuffle and packets of three deal, and
    returns the last card dealt."""
    import numba

    @numba.njit
    def deal(seed, game, deal, first, players):
        hands, b = np.zeros(players, np.uint64), np.full(cards.DEAL_BYTES, 255, np.uint8)
        last = cards.deal36(rng.key(seed, game, deal, rng.DEAL), first, players, hands, b)
        return hands, last

    rnd = random.Random(players)
    for _ in range(300):
        seed, game, number, dealer = (
            rnd.randrange(1 << 40),
            rnd.randrange(1 << 30),
            rnd.randrange(12),
            rnd.randrange(players),
        )
        order = dealing.shuffled(seed, game, number, 36)
        hands, last = deal(seed, game, number, dealer + 1, players)
        want = dealing.deal_packets(order, players, dealer)
        assert [sorted(cards.codes_of(int(h))) for h in hands] == [sorted(h) for h in want]
        assert cards.code(int(last)) == order[-1]


@pytest.mark.parametrize("players, size", [(3, 36), (4, 36), (4, 12)])
def test_deal_packets_matches_the_reference(players, size):
    rnd = random.Random(players * size)
    hands = np.empty(players, np.uint64)
    for _ in range(200):
        order = rnd.sample(list(cards.deck(36)), size)
        dealer = rnd.randrange(players)
        cards.deal_packets(np.array(order, np.int64), dealer + 1, players, hands)
        want = dealing.deal_packets([cards.code(c) for c in order], players, dealer)
        assert [{cards.code(c) for c in cards.cards_of(int(h))} for h in hands] == [set(h) for h in want]
