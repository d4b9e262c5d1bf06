"""Schieber hand odds with the search player (``cardmc odds schieber --policy
pimc``): each odds deal and choice is the one ``deal_scores`` plays, its
search player plays legal cards, and the tables do not depend on the threads."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import cardmc
from cardmc import pimc
from cardmc.kernels import cards as C
from cardmc.kernels import schieber_odds as k
from cardmc.kernels import script as sc
from cardmc.kernels.events import EV_PLAY
from cardmc.registry import UsageError
from cardmc.schieber import SPEC, parse_policy
from tests.reference import schieber as ref

HAND = "JH 9H AH KH QH 6C 7C 8C 9C"
CHOICES = np.array([*range(6), k.PUSH_CHOICE], np.int64)


def _fixed(seat: int = 0) -> np.ndarray:
    fixed = np.zeros(4, np.uint64)
    fixed[seat] = C.parse_hand(HAND, 9, 36)
    return fixed


@pytest.mark.parametrize("policy", ["heuristic", "random,heuristic,heuristic,random"])
def test_an_odds_deal_without_search_is_the_deal_scores_deal(policy):
    params = SPEC.params(SPEC.settings({}))
    policies = parse_policy(policy)
    want = k.deal_scores(5, 0, 30, 0, 0, _fixed(), CHOICES, policies, params)
    events = np.zeros((128, 4), np.int64)
    script = np.zeros(sc.SC_CARDS + 52, np.int64)
    for i in range(30):
        for j, choice in enumerate(CHOICES.tolist()):
            got = k.odds_deal_pimc(5, i, 0, 0, _fixed(), choice, policies, params, script, events)
            assert list(got[:4]) == [int(x[i, j]) for x in want], (i, choice)


def test_the_search_player_plays_legal_cards_in_odds_deals():
    params = SPEC.params(SPEC.settings({"pimc_samples": 2, "pimc_tricks": 4}))
    policies = parse_policy("pimc,heuristic,pimc,heuristic")
    events = np.zeros((128, 4), np.int64)
    checked = 0
    for i in range(3):
        for choice in (2, 4, k.PUSH_CHOICE):

            def play(script, i=i, choice=choice):
                return k.odds_deal_pimc(5, i, 0, 0, _fixed(), choice, policies, params, script, events)

            *_, contract, nev = pimc.scripted("schieber", 4, 5, i, params, play, events, None, 52)
            hands = {int(a): set(C.codes_of(int(b))) for _, a, b, _ in events[1:5].tolist()}
            plays = [(int(a), int(b)) for kind, a, b, _ in events[:nev].tolist() if kind == EV_PLAY]
            assert len(plays) == 36
            for t in range(9):
                trick = plays[4 * t : 4 * t + 4]
                for pos, (s, c) in enumerate(trick):
                    legal = ref.legal(
                        sorted(hands[s]), [C.code(x) for _, x in trick[:pos]], ref.CONTRACTS[contract]
                    )
                    assert C.code(c) in legal
                    hands[s].remove(C.code(c))
                    checked += 1
    assert checked == 9 * 36


def test_schieber_odds_with_the_search_player_are_the_same_on_any_threads():
    run = {"policy": "pimc,heuristic,pimc,heuristic", "games": 4, "seed": 2, "settings": {"pimc_samples": 2}}
    one = cardmc.odds("schieber", HAND, **run, threads=1)
    two = cardmc.odds("schieber", HAND, **run, threads=2)
    for name, table in one["tables"].items():
        pd.testing.assert_frame_equal(two["tables"][name], table)
    assert (one["tables"]["choices"]["n"] == 4).all()
    with pytest.raises(UsageError, match="pimc_samples applies to pimc seats, and no seat plays pimc"):
        cardmc.odds("schieber", HAND, games=4, settings={"pimc_samples": 2})
    with pytest.raises(UsageError, match="contract"):
        cardmc.odds("schieber", HAND, games=4, policy="pimc", settings={"contract": "H"})
