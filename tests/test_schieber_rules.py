"""Schieber rules, kernel against the plain-Python reference: hand-built
positions for every tricky rule, then thousands of random positions."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cardmc import schieber as S
from cardmc.kernels import rng
from cardmc.kernels import schieber as K
from cardmc.kernels.cards import parse
from cardmc.kernels.tricks import TRUMP_STRENGTH
from tests.helpers import codes, mask
from tests.reference import schieber as ref

CONTRACT = {name: i for i, name in enumerate(K.CONTRACT_NAMES)}


def kernel_legal(hand, trick, contract):
    c = CONTRACT[contract]
    led = parse(trick[0]) >> 4 if trick else -1
    top = -1
    for x in trick:
        card = parse(x)
        if c < 4 and card >> 4 == c and (top < 0 or TRUMP_STRENGTH[card & 15] > TRUMP_STRENGTH[top]):
            top = card & 15
    return codes(K.legal_cards(mask(hand), led, c, top))


def both_legal(hand, trick, contract):
    got, want = kernel_legal(hand, trick, contract), ref.legal(hand, trick, contract)
    assert got == want, (hand, trick, contract)
    return got


# ------------------------------------------------------------- following


def test_undertrumping_is_forbidden_when_able_to_follow():
    # hearts trump, spades led, the 9 of trumps lies in the trick
    assert both_legal(["6S", "KS", "6H", "AH", "JH"], ["AS", "9H"], "H") == {"6S", "KS", "JH"}


def test_undertrumping_is_forbidden_when_void():
    assert both_legal(["6C", "KD", "6H", "AH"], ["AS", "9H"], "H") == {"6C", "KD"}


def test_undertrumping_is_allowed_with_nothing_but_trumps():
    assert both_legal(["6H", "7H", "AH"], ["AS", "9H"], "H") == {"6H", "7H", "AH"}


def test_trumping_allowed_even_when_able_to_follow():
    assert both_legal(["6S", "6H", "8D"], ["AS"], "H") == {"6S", "6H"}
    assert both_legal(["6S", "6H", "8D"], ["AS", "KS"], "H") == {"6S", "6H"}


def test_void_in_the_led_suit_may_play_anything():
    assert both_legal(["6C", "6H", "8D"], ["AS"], "H") == {"6C", "6H", "8D"}


def test_trump_lead_must_be_followed_with_a_trump_any_trump():
    assert both_legal(["JH", "6H", "6S"], ["7H"], "H") == {"JH", "6H"}
    # on a trump lead any trump may be played, also one below the trick's best
    assert both_legal(["6H", "AS"], ["9H"], "H") == {"6H"}


def test_lone_trump_jack_may_be_held_back():
    assert both_legal(["JH", "6S", "7C"], ["7H"], "H") == {"JH", "6S", "7C"}
    assert both_legal(["6S", "7C"], ["7H"], "H") == {"6S", "7C"}


def test_lone_jack_exception_only_on_a_trump_lead():
    # spades led, the lone trump J is just a trump that may be played or not
    assert both_legal(["JH", "6S", "7C"], ["AS"], "H") == {"JH", "6S"}


@pytest.mark.parametrize("contract", ["obenabe", "undenufe"])
def test_no_trump_contracts_follow_suit(contract):
    assert both_legal(["6S", "6H", "8D"], ["AS"], contract) == {"6S"}
    assert both_legal(["6C", "6H", "8D"], ["AS"], contract) == {"6C", "6H", "8D"}


# --------------------------------------------------------------- winners


@pytest.mark.parametrize(
    "trick, contract, pos",
    [
        (["AS", "6S", "KS", "7S"], "undenufe", 1),
        (["AS", "6S", "KS", "7S"], "obenabe", 0),
        (["9S", "6C", "TS", "7S"], "undenufe", 3),
        (["AS", "6H", "KS", "JH"], "H", 3),
        (["AS", "9H", "AH", "KH"], "H", 1),
        (["6D", "AS", "7D", "TD"], "S", 1),
        (["6D", "AS", "7D", "TD"], "C", 3),
    ],
)
def test_trick_winner(trick, contract, pos):
    arr = np.array([parse(c) for c in trick], np.int64)
    assert K.trick_winner_pos(arr, CONTRACT[contract]) == pos
    assert ref.trick_winner(trick, contract) == pos


def test_eights_score_eight_in_obenabe_and_undenufe():
    for contract in K.CONTRACT_NAMES:
        c = CONTRACT[contract]
        want = 8 if contract in ("obenabe", "undenufe") else 0
        assert K.POINTS[c, parse("8S")] == ref.card_points("8S", contract) == want
        assert K.POINTS[c, parse("9S")] == ref.card_points("9S", contract) == (14 if contract == "S" else 0)
        assert K.POINTS[c, parse("AD")] == ref.card_points("AD", contract) == 11
        assert sum(K.POINTS[c, x] for x in K.DECK) == 152
        assert sum(ref.card_points(x, contract) for x in ref.DECK) == 152


def test_multipliers():
    kernel = [int(K.MULTIPLIER[CONTRACT[c]]) for c in ref.CONTRACTS]
    assert kernel == [ref.MULTIPLIER[c] for c in ref.CONTRACTS]
    assert ref.MULTIPLIER == {"C": 1, "H": 1, "D": 2, "S": 2, "obenabe": 3, "undenufe": 4}


# ----------------------------------------------------- random positions


def test_random_positions_legal_and_winner():
    rnd = random.Random(2024)
    n_legal = n_win = 0
    for _ in range(12000):
        contract = rnd.choice(ref.CONTRACTS)
        deck = ref.DECK[:]
        rnd.shuffle(deck)
        if rnd.random() < 0.3:  # many trumps: the undertrump and lone-J rules come up often
            t = ref.trump_of(contract) or "H"
            deck.sort(key=lambda c: (c[1] != t, rnd.random()))
            deck = deck[:12]
            rnd.shuffle(deck)
        size = rnd.randint(1, 9)
        hand, trick = deck[:size], deck[size : size + rnd.randint(0, 3)]
        both_legal(hand, trick, contract)
        n_legal += 1
        full = ref.DECK[:]
        rnd.shuffle(full)
        arr = np.array([parse(c) for c in full[:4]], np.int64)
        assert K.trick_winner_pos(arr, CONTRACT[contract]) == ref.trick_winner(full[:4], contract)
        n_win += 1
    assert n_legal >= 10000 and n_win >= 10000


# ------------------------------------------------------ whole hand-built deals


def hand_built(hands, contract, start, target=3000, policy=1, seed=0, pushed=False, rules=None):
    """Play one deal from the match score ``start`` (under the rule options ``rules``, by name);
    returns (TRACE.md line, out)."""
    rules = rules or {}
    settings = S.SPEC.settings({**rules, "target": target})
    h = np.array([mask(x) for x in hands], np.uint64)
    forehand = next(s for s in range(4) if "7H" in hands[s])
    chooser = (forehand + 2) % 4 if pushed else forehand
    events = np.zeros((K.EVENTS_PER_DEAL + 8, 4), np.int64)
    events[0] = (K.EV_DEAL, 0, -1, forehand)
    for s in range(4):
        events[1 + s] = (K.EV_HAND, s, np.int64(h[s]), 0)
    events[5] = (K.EV_CONTRACT, chooser, int(pushed), CONTRACT[contract])
    totals = np.array(start, np.int64)
    out = np.zeros(K.OUT_SIZE, np.int64)
    weis, kinds = np.zeros(4, np.int64), np.zeros(4, np.int64)
    policies = np.full((4, 1), policy, np.int64)
    nev = K.play_deal(
        h,
        forehand,
        chooser,
        CONTRACT[contract],
        totals,
        target,
        policies,
        rng.stream(seed, 0, 0, rng.PLAY),
        weis,
        kinds,
        out,
        np.zeros(12, np.int64),
        np.zeros(4, np.uint64),
        events,
        6,
        K.rules_of(S.SPEC.params(settings)),
    )
    (deal,) = S.deal_records(events[:nev])
    winner = int(out[K.O_WINNER])
    line = {
        "game": "schieber",
        "seed": 0,
        "index": 0,
        "players": 4,
        "rules": {"target": target, **rules} if rules else {"target": target},
        "policy": "heuristic",
        "deals": [deal],
        "totals": totals.tolist(),
        "winners": [winner] if winner >= 0 else [],
        "schneider": winner >= 0 and bool(2 * totals[1 - winner] < target),
    }
    return line, out


STOECK_DEAL = [  # seat 0 (forehand: 7H) holds K and Q of spades, seat 1 the four Js; no other Weis
    "7H KS QS 6C 8C TD QD 6H 9H".split(),
    "JC JD JH JS 7C TC 9D 8H AS".split(),
    "9C QC 6D 8D KD TH QH 6S 8S".split(),
    "KC AC 7D AD KH AH 7S 9S TS".split(),
]


def test_stoeck_wins_the_match_before_the_first_card():
    hands = STOECK_DEAL
    assert [ref.declaration(h, "S") for h in hands] == [[], [(["JC", "JD", "JH", "JS"], 200)], [], []]
    line, out = hand_built(hands, "S", (2970, 2990))
    deal = line["deals"][0]
    assert out[K.O_WINNER] == 0 and line["totals"] == [3010, 2990]
    assert deal["plays"] == [] and deal["weis_team"] is None and deal["stoeck_seat"] == 0
    assert deal["match_ended"] and deal["score"] == [40, 0]
    assert ref.audit(line, start=(2970, 2990)) == []


def test_weis_wins_before_the_first_card_when_stoeck_does_not():
    line, out = hand_built(STOECK_DEAL, "S", (2950, 2990))
    deal = line["deals"][0]
    assert out[K.O_WINNER] == 1 and deal["weis_team"] == 1 and deal["plays"] == []
    assert deal["score"] == [0, 400]  # Stöck was not credited: it would not have won
    assert ref.audit(line, start=(2950, 2990)) == []


HOUSE_RULES = {
    "undenufe_points": "six",
    "four_nines": "150",
    "long_runs": "scaled",
    "multipliers": "1,2,3,1,2,3",
}


@pytest.mark.parametrize("contract, rules", [("obenabe", {}), ("undenufe", HOUSE_RULES), ("S", HOUSE_RULES)])
def test_match_ends_mid_deal_after_a_trick(contract, rules):
    rnd = random.Random(5)
    ended = 0
    for seed in range(40):
        deck = ref.DECK[:]
        rnd.shuffle(deck)
        hands = [deck[i * 9 : (i + 1) * 9] for i in range(4)]
        line, out = hand_built(hands, contract, (2990, 2000), policy=0, seed=seed, rules=rules)
        plays = line["deals"][0]["plays"]
        unfinished = [] if out[K.O_WINNER] >= 0 else ["the match ends before a team reached the target"]
        assert ref.audit(line, start=(2990, 2000)) == unfinished
        if out[K.O_WINNER] >= 0 and 0 < len(plays) < 36:
            ended += 1
    assert ended >= 20  # the others end on Weis before the first card, or not at all


def test_winning_weis_team_scores_all_its_combinations():
    # seat 0 (forehand): four-run; seat 2 (partner): three-run; seat 1: three-run with a higher top
    hands = [
        "6C 7C 8C 9C 7H TH QH JD AS".split(),
        "QD KD AD TC 6H 8H KH 6S 8S".split(),
        "9S TS JS JC AC 6D 8D 9H AH".split(),
        "QC KC 7D 9D TD JH 7S QS KS".split(),
    ]
    assert sorted(c for h in hands for c in h) == sorted(ref.DECK)
    line, out = hand_built(hands, "obenabe", (0, 0), target=5000)
    deal = line["deals"][0]
    assert deal["weis_team"] == 0
    assert [sum(c["points"] for c in w) for w in deal["weis"][:3]] == [50, 20, 20]
    assert deal["score"][0] == 3 * (50 + 20 + deal["card_points"][0])
    assert deal["score"][1] == 3 * deal["card_points"][1]
    assert ref.audit(line) == ["the match ends before a team reached the target"]
