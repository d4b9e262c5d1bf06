"""Schieber Weis: declarations, the six comparison steps, exact per-hand odds."""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from cardmc import schieber as S
from cardmc.kernels import schieber_weis as W
from tests.helpers import codes, mask
from tests.reference import schieber as ref

CONTRACT = {name: i for i, name in enumerate(ref.CONTRACTS)}
# the Weis rule options, by their docs/RULES.md names, and as the kernel's ``weis`` bits
WEIS_RULES = [
    {},
    {"four_nines": "150"},
    {"long_runs": "scaled"},
    {"four_nines": "150", "long_runs": "scaled"},
]


def weis_bits(rules) -> int:
    rules = rules or {}
    return (W.FOUR_NINES if rules.get("four_nines", "0") != "0" else 0) | (
        W.SCALED_RUNS if rules.get("long_runs", "flat") == "scaled" else 0
    )


def kernel_declaration(hand, contract, rules=None, bits=None):
    """The kernel's claimed Weis of ``hand``; ``bits`` the kernel's Weis rule
    bits (default: those of ``rules``)."""
    bits = weis_bits(rules) if bits is None else bits
    claimed, total, key, kinds = W.declare(mask(hand), CONTRACT[contract], bits)
    masks, points = np.zeros(4, np.uint64), np.zeros(4, np.int64)
    n = W.combinations(mask(hand), claimed, masks, points, bits)
    combos = sorted((tuple(sorted(codes(masks[i]))), int(points[i])) for i in range(n))
    assert total == sum(p for _, p in combos)
    return combos


def reference_declaration(hand, contract, rules=None):
    return sorted((tuple(sorted(c)), p) for c, p in ref.declaration(hand, contract, rules))


def kernel_winner(hands, contract, forehand, rules=None, bits=None):
    bits = weis_bits(rules) if bits is None else bits
    keys = np.array([W.declare(mask(h), CONTRACT[contract], bits)[2] for h in hands], np.int64)
    seat = W.weis_winner(keys, forehand)
    return None if seat < 0 else int(seat)


def both_winner(hands, contract, forehand=0, rules=None):
    got, want = (
        kernel_winner(hands, contract, forehand, rules),
        ref.weis_winner(hands, contract, forehand, rules),
    )
    assert got == want, (hands, contract, forehand, rules)
    return got


NONE = ["AC", "QD", "TH"]  # a hand part without Weis


# ------------------------------------------------------------ declarations


def test_runs_are_maximal():
    hand = ["6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AD"]
    assert (
        kernel_declaration(hand, "H") == reference_declaration(hand, "H") == [(tuple(sorted(hand[:8])), 100)]
    )


def test_quartet_and_run_share_a_card_claim_wins_the_tie_by_type():
    # not claiming: T J Q K A of hearts = 100; claiming the Qs: 100 and no run left. Equal totals,
    # the four of a kind is the stronger best combination
    hand = ["QC", "QD", "QH", "QS", "AH", "KH", "JH", "TH", "6C"]
    want = [(("QC", "QD", "QH", "QS"), 100)]
    for contract in ref.CONTRACTS:
        assert kernel_declaration(hand, contract) == reference_declaration(hand, contract) == want


def test_quartet_and_run_share_a_card_highest_total():
    # claiming the Qs leaves 9 T J of hearts: 100 + 20 beats the 9-to-A run of 100
    hand = ["QC", "QD", "QH", "QS", "AH", "KH", "JH", "TH", "9H"]
    want = sorted([(("QC", "QD", "QH", "QS"), 100), (("9H", "JH", "TH"), 20)])
    assert kernel_declaration(hand, "obenabe") == reference_declaration(hand, "obenabe") == want


def test_four_nines_count_nothing_and_keep_their_run():
    hand = ["9C", "9D", "9H", "9S", "6H", "7H", "8H", "TH", "JH"]
    want = [(("6H", "7H", "8H", "9H", "JH", "TH"), 100)]
    assert kernel_declaration(hand, "S") == reference_declaration(hand, "S") == want


def test_four_jacks_are_200_and_two_quartets():
    hand = ["JC", "JD", "JH", "JS", "AC", "AD", "AH", "AS", "6C"]
    want = sorted([(("JC", "JD", "JH", "JS"), 200), (("AC", "AD", "AH", "AS"), 100)])
    assert kernel_declaration(hand, "C") == reference_declaration(hand, "C") == want


@pytest.mark.parametrize("rules", WEIS_RULES)
def test_random_hands_declare_as_the_reference(rules):
    rnd = random.Random(7)
    for i in range(6000 if not rules else 3000):
        contract = ref.CONTRACTS[i % 6]
        if i % 3 == 0:  # ranks clustered: quartets and runs together
            pool = [c for c in ref.DECK if c[0] in rnd.sample(ref.RANKS, 4)] + rnd.sample(ref.DECK, 6)
            hand = rnd.sample(sorted(set(pool)), 9)
        else:
            hand = rnd.sample(ref.DECK, 9)
        assert kernel_declaration(hand, contract, rules) == reference_declaration(hand, contract, rules), hand
        kinds = W.declare(mask(hand), CONTRACT[contract], weis_bits(rules))[3]
        names = {W.KIND_NAMES[b] for b in range(len(W.KIND_NAMES)) if kinds >> b & 1}
        assert names == ref.kinds_of(ref.declaration(hand, contract, rules))


# ----------------------------------------------------------- comparisons


def test_step1_points():
    assert both_winner([["6S", "7S", "8S"], ["6H", "7H", "8H", "9H"], NONE, NONE], "obenabe") == 1


def test_step2_four_of_a_kind_beats_an_equal_sequence():
    hands = [["6C", "7C", "8C", "9C", "TC"], ["KC", "KD", "KH", "KS"], NONE, NONE]
    assert both_winner(hands, "obenabe") == 1
    assert both_winner(hands, "C") == 1  # even a trump sequence


def test_step3_longer_sequence():
    assert (
        both_winner(
            [["6D", "7D", "8D", "9D", "TD"], ["6S", "7S", "8S", "9S", "TS", "JS"], NONE, NONE], "obenabe"
        )
        == 1
    )


def test_step4_rank_reversed_in_undenufe():
    runs = [["6C", "7C", "8C"], ["7D", "8D", "9D"], NONE, NONE]
    assert both_winner(runs, "obenabe") == 1
    assert both_winner(runs, "undenufe") == 0
    quartets = [["KC", "KD", "KH", "KS"], ["AC", "AD", "AH", "AS"], NONE, NONE]
    assert both_winner(quartets, "obenabe") == 1
    assert both_winner(quartets, "H") == 1
    assert both_winner(quartets, "undenufe") == 0


def test_step4_comes_before_trump():
    # a higher plain sequence beats a lower trump sequence of the same length
    assert both_winner([["6H", "7H", "8H"], ["7D", "8D", "9D"], NONE, NONE], "H") == 1


def test_step5_trump_sequence():
    hands = [["7C", "8C", "9C"], ["7H", "8H", "9H"], NONE, NONE]
    assert both_winner(hands, "H") == 1
    assert both_winner(hands, "C") == 0


def test_step6_earlier_player_in_the_first_trick():
    hands = [["7C", "8C", "9C"], ["7H", "8H", "9H"], NONE, NONE]
    assert both_winner(hands, "obenabe", forehand=0) == 0
    assert both_winner(hands, "obenabe", forehand=1) == 1
    assert both_winner(hands, "obenabe", forehand=2) == 0  # order 2, 3, 0, 1
    assert both_winner(hands, "D", forehand=3) == 0


def test_nobody_declares():
    assert both_winner([NONE, NONE, NONE, NONE], "S") is None


@pytest.mark.parametrize("rules", WEIS_RULES)
def test_random_deals_weis_winner(rules):
    rnd = random.Random(11)
    for i in range(3000 if not rules else 1500):
        deck = ref.DECK[:]
        rnd.shuffle(deck)
        hands = [deck[j * 9 : (j + 1) * 9] for j in range(4)]
        both_winner(hands, ref.CONTRACTS[i % 6], forehand=i % 4, rules=rules)


# ------------------------------------------------------------ exact odds


def test_exact_odds_kernel_enumeration_equals_reference_convolution():
    """Two exact methods: every hand declared by the kernel (suit multisets) and the
    reference's inclusion-exclusion and convolution over suits."""
    counts, points = W.declaration_counts()
    assert counts.sum() == comb(36, 9)
    dist, unresolved = ref.weis_distribution()
    assert unresolved == 0
    by_kinds = np.zeros(256, np.int64)
    for (_, kinds), n in dist.items():
        by_kinds[kinds] += n
    np.testing.assert_array_equal(counts, by_kinds)
    assert points == sum(t * n for (t, _), n in dist.items())
    odds = ref.weis_probabilities()
    table = S.weis_odds()
    for name in W.KIND_NAMES:
        assert table.loc[name, "exact"] == pytest.approx(float(odds[name]), rel=1e-12)
    assert table.loc["any", "exact"] == pytest.approx(float(odds["any"]), rel=1e-12)


def test_exact_quartet_odds_closed_form():
    odds = ref.weis_probabilities()
    for r in "TJQKA":  # every four of a kind is always declared: C(32, 5) hands hold it
        assert odds[f"quartet_{r}"] == Fraction(comb(32, 5), comb(36, 9))
