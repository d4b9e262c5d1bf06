"""English Jazz rules: the kernel against tests/reference/english_jazz.py on
hand-built positions for every tricky rule and on many random positions."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from cardmc.kernels import english_jazz as k
from cardmc.kernels.cards import deal_packets, parse
from cardmc.kernels.tricks import PLAIN, strength
from tests.helpers import codes, mask
from tests.reference import english_jazz as ref

DECK = ref.DECK
SUIT = {s: i for i, s in enumerate("CDHS")}


def _cards(text: str) -> list[str]:
    return text.split()


def _kernel_deal(hands: list[str], dealer: int, script: list[str]):
    """Scripted kernel deal: the script's cards first, then the lowest legal card."""
    h = np.array([mask(_cards(x)) for x in hands], dtype=np.uint64)
    s = np.array([parse(c) for c in script], dtype=np.int64)
    trump, setter, rule, out, events = k.scripted_deal(h, dealer, s)
    plays = [{"seat": int(e[1]), "legal": sorted(codes(e[3])), "card": DECK_CODE[int(e[2])]} for e in events]
    return {
        "trump": "CDHS"[trump] if trump >= 0 else None,
        "trump_set_by": setter if setter >= 0 else None,
        "tricks": out[0].tolist(),
        "card_points": out[1].tolist(),
        "rule": "ABCDE"[rule],
        "score": out[2].tolist(),
        "plays": plays,
    }


DECK_CODE = {parse(c): c for c in DECK}


def _ref_deal(hands: list[str], dealer: int, script: list[str]):
    queue = list(script)

    def choose(seat, legal, hand, trick, trump):
        if queue:
            return queue.pop(0)
        return min(legal, key=ref.card_order)

    return ref.play_deal([_cards(x) for x in hands], dealer, choose)


def _both(hands, dealer, script):
    a, b = _kernel_deal(hands, dealer, script), _ref_deal(hands, dealer, script)
    for p in b["plays"]:
        p["legal"] = sorted(p["legal"])
    assert a == b
    return a


# ------------------------------------------------------------ primitives


def test_card_strength_is_the_shared_strength():
    for c in range(64):
        if c & 15 < 4 or c & 15 > 12:
            continue
        for led in range(4):
            for trump in (-1, 0, 1, 2, 3):
                assert k.card_strength(c, led, trump) == strength(c, led, trump, PLAIN)


def test_legal_cards_random_positions():
    rnd = random.Random(11)
    for _ in range(10_000):
        hand = rnd.sample(DECK, rnd.randint(1, 12))
        trick = [] if rnd.random() < 0.2 else [rnd.choice([c for c in DECK if c not in hand])]
        led = SUIT[trick[0][1]] if trick else -1
        assert codes(k.legal_cards(mask(hand), led)) == ref.legal(hand, trick)


def test_trick_outcome_random_positions():
    rnd = random.Random(12)
    for _ in range(10_000):
        trick = rnd.sample(DECK, 3)
        trump = rnd.choice([None, None, "C", "D", "H", "S"])
        cards = np.array([parse(c) for c in trick])
        best, after, setter = k.trick_outcome(cards, SUIT[trump] if trump else -1)
        want = ref.play_trick(trick, trump)
        assert (best, "CDHS"[after] if after >= 0 else None, setter if setter >= 0 else None) == want


def test_deal_score_random_and_exhaustive_tricks():
    rnd = random.Random(13)
    score = np.zeros(3, np.int64)
    splits = [t for t in itertools.product(range(13), repeat=3) if sum(t) == 12]
    n = 0
    for tricks in splits:
        for _ in range(120):
            total = rnd.choice([120, 152])
            a = rnd.randint(0, total)
            b = rnd.randint(0, total - a)
            points = [a, b, total - a - b]
            rnd.shuffle(points)
            if rnd.random() < 0.2:  # ties
                points[1] = points[0]
            rule = k.deal_score(np.array(tricks), np.array(points), score)
            assert ("ABCDE"[rule], score.tolist()) == ref.deal_score(list(tricks), points)
            n += 1
    assert n >= 10_000


# ------------------------------------------------------- hand-built scores


@pytest.mark.parametrize(
    "tricks, points, rule, want",
    [
        ((12, 0, 0), (152, 0, 0), "A", [2, -1, -1]),
        ((0, 12, 0), (0, 120, 0), "A", [-1, 2, -1]),
        ((0, 5, 7), (0, 70, 82), "B", [-2, 1, 1]),
        ((6, 6, 0), (76, 76, 0), "B", [1, 1, -2]),  # B before D
        ((1, 0, 11), (2, 0, 150), "B", [1, -2, 1]),  # B before C
        ((2, 3, 7), (10, 30, 112), "C", [1, 1, -2]),
        ((4, 4, 4), (101, 51, 0), "C", [-2, 1, 1]),  # a player with 0 points and tricks
        ((4, 4, 4), (100, 26, 26), "D", [2, -1, -1]),  # exactly 100 is not over
        ((4, 4, 4), (40, 40, 40), "D", [0, 0, 0]),  # three-way tie
        ((3, 5, 4), (61, 30, 61), "D", [-1, 2, -1]),
        ((3, 5, 4), (0, 60, 60), "D", [2, -1, -1]),
        ((4, 4, 4), (0, 52, 100), "E", [1, -2, 1]),  # zero points with tricks: rule E
        ((4, 4, 4), (50, 0, 102 - 0), "C", [1, 1, -2]),
        ((5, 4, 3), (70, 50, 32), "E", [1, -2, 1]),
        ((5, 4, 3), (32, 50, 70), "E", [1, -2, 1]),
        ((5, 4, 3), (50, 70, 0), "E", [-2, 1, 1]),
    ],
)
def test_deal_score_hand_built(tricks, points, rule, want):
    score = np.zeros(3, np.int64)
    got = k.deal_score(np.array(tricks), np.array(points), score)
    assert ("ABCDE"[got], score.tolist()) == (rule, want)
    assert ref.deal_score(list(tricks), list(points)) == (rule, want)


# -------------------------------------------------- face-up jack, dealing


@pytest.mark.parametrize(
    "first, dealer",
    [
        (["JC"], 1),
        (["6C", "JD"], 2),
        (["6C", "7C", "JH"], 0),
        (["6C", "7C", "8C", "JS"], 1),
        (["AS", "KS", "QS", "TS", "9S", "JS"], 0),
    ],
)
def test_face_up_jack_deal(first, dealer):
    rest = [c for c in DECK if c not in first]
    rest = [c for c in rest if c[0] != "J"] + [c for c in rest if c[0] == "J"]
    order = first + rest
    assert k.face_up_dealer(np.array([parse(c) for c in order])) == (dealer, len(first))
    assert ref.face_up_dealer(order) == (dealer, len(first))


def test_face_up_jack_deal_of_the_seed_matches_reference():
    from cardmc.kernels import rng

    for i in range(300):
        order = k.DECK.copy()
        rng.shuffle(rng.stream(9, i, 0, rng.SETUP), order)
        want = ref.face_up_dealer(ref.Stream(9, i, 0, ref.SETUP).shuffled(DECK))
        assert k.face_up_dealer(order) == want
        assert [DECK_CODE[c] for c in order] == ref.Stream(9, i, 0, ref.SETUP).shuffled(DECK)


def test_packets_of_three_from_the_seat_after_the_dealer():
    order = np.array([parse(c) for c in DECK])
    hands = np.zeros(3, np.uint64)
    for dealer in range(3):
        deal_packets(order, dealer + 1, 3, hands)
        first = (dealer + 1) % 3
        assert codes(hands[first]) == set(DECK[0:3] + DECK[9:12] + DECK[18:21] + DECK[27:30])
        assert codes(hands[(dealer + 2) % 3]) == set(DECK[3:6] + DECK[12:15] + DECK[21:24] + DECK[30:33])
        assert codes(hands[dealer]) == set(DECK[6:9] + DECK[15:18] + DECK[24:27] + DECK[33:36])
        assert [codes(h) for h in hands] == [set(h) for h in ref.deal_hands(DECK, dealer)]


# ------------------------------------------------------ hand-built deals

# dealer 0: seat 1 leads, then seat 2, then seat 0
SWEEP = [
    "6C 7C 8C 9C TC JC 6D 7D 8D 9D TD JD",  # seat 0
    "6H 7H 8H 9H TH JH QH KH AH QD KD AD",  # seat 1
    "JS 9S AS KS QS TS 8S 7S 6S AC KC QC",  # seat 2: void in hearts and diamonds
]


def test_sweep_after_setting_trump_in_the_first_trick_rule_a():
    # seat 1 leads 6H; seat 2 cannot follow: JS makes spades trump and wins
    d = _both(SWEEP, 0, ["6H", "JS", "6C"])
    assert d["trump"] == "S" and d["trump_set_by"] == 2
    assert d["tricks"] == [0, 0, 12] and d["card_points"] == [0, 0, 152]
    assert d["rule"] == "A" and d["score"] == [-1, -1, 2]


def test_trump_set_mid_trick_wins_that_trick_with_its_lowest_card():
    # 6S (0 points) sets trump as the second card and beats the led AH
    d = _both(SWEEP, 0, ["AH", "6S", "6C"])
    assert d["trump"] == "S" and d["trump_set_by"] == 2
    assert d["plays"][1]["legal"] == sorted(_cards(SWEEP[2]))  # void: any card
    assert d["plays"][2]["legal"] == sorted(_cards(SWEEP[0]))  # void too, trump now set: any card
    assert d["plays"][3]["seat"] == 2  # seat 2 won the first trick and leads the second


HANDS_B = [
    "6C 7C 8C 9C TC JC QC KC AC 6D 7D 8D",  # seat 0: void in hearts and spades
    "6H 7H 8H 9H TH JH QH KH AH 9D TD JD",  # seat 1
    "6S 7S 8S 9S TS JS QS KS AS QD KD AD",  # seat 2: void in clubs and hearts
]


def test_trump_setting_card_wins_against_a_discard_and_a_lower_trump():
    # seat 1 leads AH; seat 2 sets trump with 6S; seat 0 (void in hearts, no
    # spade) discards AC: 6S wins
    d = _both(HANDS_B, 0, ["AH", "6S", "AC"])
    assert d["trump"] == "S" and d["trump_set_by"] == 2
    assert d["plays"][3]["seat"] == 2
    # seat 2 sets diamonds trump with QD; seat 0 plays 8D, a lower trump
    d = _both(HANDS_B, 0, ["AH", "QD", "8D"])
    assert d["trump"] == "D" and d["trump_set_by"] == 2
    assert d["plays"][3]["seat"] == 2


def test_trump_setting_card_loses_to_a_higher_trump_played_after_it():
    hands = [
        "6C 7C 8C 9C TC JC QC KC AC 9D JD 8D",  # seat 0: void in hearts and spades
        "6H 7H 8H 9H TH JH QH KH AH 6D TD 7D",  # seat 1
        "6S 7S 8S 9S TS JS QS KS AS QD KD AD",  # seat 2: void in clubs and hearts
    ]
    # QD sets diamonds trump; seat 0 plays 9D: the 9 of trumps beats the Q
    d = _both(hands, 0, ["AH", "QD", "9D"])
    assert d["trump"] == "D" and d["trump_set_by"] == 2
    assert d["plays"][3]["seat"] == 0
    # the same with JD, the highest trump
    d = _both(hands, 0, ["AH", "QD", "JD"])
    assert d["plays"][3]["seat"] == 0


def test_trump_setting_card_counts_as_trump_in_its_trick():
    hands = [
        "6C 7C 8C 9C TC QC KC AC 6D 7D 8D 9D",  # seat 0: void in hearts and spades
        "6H 7H 8H 9H TH JH QH KH AH TD JD JC",  # seat 1
        "6S 7S 8S 9S TS JS QS KS AS QD KD AD",  # seat 2: void in clubs and hearts
    ]
    # seat 1 leads JC; seat 2 sets trump with 9S (14 points as a trump); seat 0 AC
    d = _both(hands, 0, ["JC", "9S", "AC"])
    assert d["trump"] == "S" and d["trump_set_by"] == 2
    assert d["plays"][3]["seat"] == 2
    assert d["card_points"][2] >= 2 + 14 + 11 and sum(d["card_points"]) == 152
    # dealer 2: seat 0 leads 6C, seat 1 follows JC, seat 2 sets trump as the third card
    d = _both(hands, 2, ["6C", "JC", "6S"])
    assert d["trump"] == "S" and d["trump_set_by"] == 2
    assert d["plays"][3]["seat"] == 2


def test_cards_taken_before_trump_was_set_count_in_the_trump_column():
    hands = [
        "6S 7S 6H 7H 8H 6C 7C 8C 6D 7D 8D 9D",  # seat 0
        "9S JS 9H TH JH 9C TC JC TD JD QD KD",  # seat 1
        "AS KS QH KH AH QC KC AC QS TS 8S AD",  # seat 2
    ]
    # 1: JS AS 6S, seat 2 wins (JS and AS still plain); 2: seat 2 leads AD, wins;
    # 3: seat 2 leads 8S, seat 0 7S, seat 1 9S wins (plain order);
    # 4: seat 1 leads JD, seat 2 is void in diamonds: TS makes spades trump
    script = ["JS", "AS", "6S", "AD", "6D", "TD", "8S", "7S", "9S", "JD", "TS", "7D"]
    d = _both(hands, 0, script)
    assert [p["seat"] for p in d["plays"][:12]] == [1, 2, 0, 2, 0, 1, 2, 0, 1, 1, 2, 0]
    assert d["trump"] == "S" and d["trump_set_by"] == 2
    assert d["plays"][10]["legal"] == sorted(set(_cards(hands[2])) - {"AS", "AD", "8S"})
    assert d["plays"][12]["seat"] == 2  # TS won trick 4
    # JS (taken in trick 1) and 9S (trick 3) count 20 and 14: 152 in all
    assert sum(d["card_points"]) == 152


def test_trump_never_set_when_every_hand_has_three_of_each_suit():
    hands = [
        "6C 7C 8C 6D 7D 8D 6H 7H 8H 6S 7S 8S",
        "9C TC JC 9D TD JD 9H TH JH 9S TS JS",
        "QC KC AC QD KD AD QH KH AH QS KS AS",
    ]
    for dealer in range(3):  # dealer 1: seat 2 leads and takes every trick
        d = _both(hands, dealer, [])
        assert d["trump"] is None and d["trump_set_by"] is None
        assert d["tricks"] == [0, 0, 12] and d["card_points"] == [0, 0, 120]
        assert d["rule"] == "A" and d["score"] == [-1, -1, 2]


def test_after_trump_is_set_a_void_player_may_discard_or_trump():
    # 1: seat 1 leads 6H, seat 2 sets spades with 6S, seat 0 discards 6C
    # 2: seat 2 leads QD; seats 0 and 1 must follow diamonds
    # 3: seat 2 leads 7S (a trump); seats 0 and 1 have no spade: any card
    d = _both(HANDS_B, 0, ["6H", "6S", "6C", "QD", "6D", "9D", "7S", "AC", "JD"])
    assert d["plays"][2]["legal"] == sorted(_cards(HANDS_B[0]))
    assert d["plays"][4]["legal"] == ["6D", "7D", "8D"] and d["plays"][5]["legal"] == ["9D", "JD", "TD"]
    assert d["plays"][7]["legal"] == sorted(set(_cards(HANDS_B[0])) - {"6C", "6D"})
    assert d["plays"][8]["legal"] == sorted(set(_cards(HANDS_B[1])) - {"6H", "9D"})
    assert d["plays"][9]["seat"] == 2  # 7S (trump lead) beat the two discards


@pytest.mark.parametrize("seed", range(40))
def test_scripted_random_deals_match_reference(seed):
    """Whole deals on random hands: both sides play the lowest legal card."""
    rnd = random.Random(seed)
    cards = DECK[:]
    rnd.shuffle(cards)
    hands = [" ".join(cards[12 * s : 12 * s + 12]) for s in range(3)]
    _both(hands, seed % 3, [])
