"""Differenzler hand odds with the search player (``cardmc odds differenzler
--policy pimc``): each odds deal is ``points_made``'s deal, traced for
``cardmc.pimc``; with no search it plays as ``points_made``; the search
player plays legal cards, knows its declaration and the face-up trump card,
and the tables do not depend on the threads."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import cardmc
from cardmc import pimc
from cardmc.differenzler import SPEC, calibration_table, parse_policy
from cardmc.kernels import cards as C
from cardmc.kernels import differenzler as dk
from cardmc.kernels import differenzler_odds as k
from cardmc.kernels import script as sc
from cardmc.kernels.events import EV_DEAL, EV_DECLARE, EV_HAND, EV_PLAY
from tests.reference import differenzler as dref

HAND = "JH 9H AH KH QH 6C 7C 8C 9C"
CANDIDATES = np.array([*range(0, 158, 5), k.RULE_HEURISTIC, k.RULE_CALIBRATED], np.int64)


def _fixed(seat: int, trump: int, dealer: int) -> np.ndarray:
    fixed = np.zeros(4, np.uint64)
    fixed[seat] = C.parse_hand(HAND, 9, 36)
    if trump >= 0 and not (int(fixed[seat]) >> trump) & 1:
        fixed[dealer] |= np.uint64(1 << trump)
    return fixed


@pytest.mark.parametrize(
    "seat, dealer, trump_card, policy",
    [
        (0, 3, "6S", "calibrated"),
        (2, 0, None, "random,heuristic,calibrated,heuristic:random"),
        (1, 1, "AH", "heuristic:calibrated,random:heuristic,calibrated,calibrated"),
    ],
)
def test_an_odds_deal_with_the_search_player_is_the_odds_deal(seat, dealer, trump_card, policy):
    """``odds_deal_pimc`` deals deal i of ``points_made`` (hands, trump card,
    the others' declarations) and, with no pimc seat, plays it as
    ``points_made`` does for each candidate's declaration."""
    trump = -1 if trump_card is None else C.parse(trump_card, 36)
    fixed = _fixed(seat, trump, dealer)
    policies, table = parse_policy(policy), calibration_table()
    params = SPEC.params(SPEC.settings({}))
    made, declared = k.points_made(4, 0, 40, seat, dealer, fixed, trump, CANDIDATES, policies, table, params)
    events = np.zeros((dk.MAX_EVENTS_PER_DEAL, 4), np.int64)
    rows = np.zeros((4, len(dk.COLUMNS)), np.int32)
    script = np.zeros(sc.SC_CARDS + 52, np.int64)
    shown = set()
    for i in range(40):
        for j in range(len(CANDIDATES)):
            res, ne = k.odds_deal_pimc(
                4, i, seat, dealer, fixed, trump, int(declared[i, j]), policies, table, script, events, rows
            )
            assert res[seat] == made[i, j], (i, CANDIDATES[j])
            assert res.sum() == 157 and ne == dk.MAX_EVENTS_PER_DEAL
        assert events[0].tolist()[:3] == [EV_DEAL, 0, dealer]
        hands = {int(a): int(b) for kind, a, b, _ in events[1:5].tolist() if kind == EV_HAND}
        assert sorted(hands) == [0, 1, 2, 3] and sum(hands.values()) == int(k.DECK_MASK)
        assert hands[seat] & int(fixed[seat]) == int(fixed[seat])
        card = int(rows[0, dk.C_TRUMP_CARD])
        assert (hands[dealer] >> card) & 1 and (trump < 0 or card == trump)
        shown.add(card)
        decl = {int(a): int(b) for kind, a, b, _ in events[5:9].tolist() if kind == EV_DECLARE}
        assert sorted(decl) == [0, 1, 2, 3] and decl[seat] == declared[i, -1]
        assert [int(e[1]) for e in events[5:9]] == [(dealer + 1 + j) % 4 for j in range(4)]
        assert (events[9:ne, 0] == EV_PLAY).all()
    assert len(shown) > 1 if trump < 0 else shown == {trump}


def test_the_search_player_plays_legal_cards_for_its_declaration_and_the_face_up_card(monkeypatch):
    """With pimc seats, every card is legal by the reference rules; each
    search sees the seat's own declaration and the deal's face-up trump
    card; before its tricks the search player plays as the heuristic."""
    seat, dealer, trump = 0, 3, C.parse("6S", 36)
    fixed = _fixed(seat, trump, dealer)
    table = calibration_table()
    params = SPEC.params(SPEC.settings({"pimc_samples": 2, "pimc_tricks": 4}))
    searching, plain = parse_policy("pimc"), parse_policy("calibrated")
    events = np.zeros((dk.MAX_EVENTS_PER_DEAL, 4), np.int64)
    rows = np.zeros((4, len(dk.COLUMNS)), np.int32)
    views = []
    real_seen = pimc.seen
    monkeypatch.setattr(pimc, "seen", lambda *a: views.append(real_seen(*a)) or views[-1])
    differs = 0
    for i, d in [(0, 40), (1, 75), (2, 20), (3, 157)]:
        views.clear()

        def play(script, i=i, d=d):
            return k.odds_deal_pimc(
                8, i, seat, dealer, fixed, trump, d, searching, table, script, events, rows
            )

        res, ne = pimc.scripted("differenzler", 4, 8, i, params, play, events, rows, 52)
        assert views and res.sum() == 157 and ne == dk.MAX_EVENTS_PER_DEAL
        decl = {int(a): int(b) for kind, a, b, _ in events[5:9].tolist()}
        assert decl[seat] == d
        for view in views:
            assert view["declared"] == decl[view["me"]] and view["trump_card"] == trump
            assert view["dealer"] == dealer
        hands = {int(a): C.codes_of(int(b)) for _, a, b, _ in events[1:5].tolist()}
        plays = [(int(a), int(b)) for _, a, b, _ in events[9:45].tolist()]
        for t in range(9):
            trick = plays[4 * t : 4 * t + 4]
            for j, (s, c) in enumerate(trick):
                held = set(hands[s])
                assert C.code(c) in dref.legal(held, [C.code(x) for _, x in trick[:j]], C.SUITS[trump >> 4])
                hands[s].remove(C.code(c))
        saved = events.copy()
        base = np.zeros((dk.MAX_EVENTS_PER_DEAL, 4), np.int64)
        want, _ = k.odds_deal_pimc(
            8,
            i,
            seat,
            dealer,
            fixed,
            trump,
            d,
            plain,
            table,
            np.zeros(sc.SC_CARDS + 52, np.int64),
            base,
            rows,
        )
        assert (saved[: 9 + 4 * 5] == base[: 9 + 4 * 5]).all()  # 9 - 4 tricks as the heuristic plays them
        differs += (saved[9:] != base[9:]).any()
    assert differs  # the search played otherwise somewhere


def test_searching_only_the_last_trick_gives_the_calibrated_odds():
    """From one trick left every card is forced: the search player's odds
    are the calibrated policy's, table for table (its declarations too)."""
    run = {"hand": HAND, "trump_card": "6S", "games": 6, "seed": 2, "candidates": "30,55,80"}
    searched = cardmc.odds(
        "differenzler", **run, policy="pimc", settings={"pimc_tricks": 1, "pimc_samples": 1}
    )
    plain = cardmc.odds("differenzler", **run, policy="calibrated")
    for name, table in plain["tables"].items():
        pd.testing.assert_frame_equal(searched["tables"][name], table)


def test_hand_odds_with_the_search_player_are_reproducible_on_any_threads():
    run = {
        "hand": HAND,
        "seat": 1,
        "dealer": 2,
        "policy": "pimc",
        "games": 10,
        "seed": 3,
        "settings": {"pimc_samples": 2, "pimc_tricks": 2},
    }
    one = cardmc.odds("differenzler", **run, threads=1)
    two = cardmc.odds("differenzler", **run, threads=2)
    for name, table in one["tables"].items():
        pd.testing.assert_frame_equal(two["tables"][name], table)
    assert one["deals"] == 10 and one["tables"]["points_made"].loc["mean", "n"] == 10
    plain = cardmc.odds("differenzler", **{**run, "policy": "calibrated"}, threads=1)
    assert not one["tables"]["declarations"].equals(plain["tables"]["declarations"])  # it searched
