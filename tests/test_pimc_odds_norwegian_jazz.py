"""Norwegian Jazz hand odds with the search player ``pimc``: each sample deal
is the odds kernel's deal, played as the odds kernel plays it where no seat
searches; the search player's cards are legal under the plain-Python rules;
the tables do not depend on the threads; where the search cannot choose
(``pimc_tricks=1``, sevens by default) the answer is the heuristic's."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import cardmc
from cardmc import pimc
from cardmc import pimc_sevens as ps
from cardmc.kernels import cards as C
from cardmc.kernels import norwegian_jazz as k
from cardmc.kernels import norwegian_jazz_odds as ko
from cardmc.kernels import script as sc
from cardmc.kernels.events import EV_DEAL, EV_HAND, EV_PLAY
from cardmc.norwegian_jazz import SPEC, parse_policy
from cardmc.odds import norwegian_jazz as O
from cardmc.registry import UsageError
from tests.reference import norwegian_jazz as ref

HAND = "AS 9S 8S 7S 5S KH 7H 3H 8D 6D 4C 3C 2C"  # seat 1, 4 players, dealer 0: deals 1-5 and sevens alike


def _traced(number, players, dealer, seat, cond, policies, params, i, seed=9):
    """Sample deal i played with ``policies`` through ``pimc.scripted``: (row, the events)."""
    fixed, sizes, deck = O.condition(None, seat, dealer, players, number, cond)
    events = np.zeros((k.max_events(players), 4), np.int64)
    bonus, play_out, stop_early = (
        int(params[k.P_FIRST_OUT_BONUS]),
        bool(params[k.P_PLAY_OUT]),
        bool(params[k.P_STOP_EARLY]),
    )
    cards = 0 if play_out else int(params[k.P_PIMC_SEVENS_CARDS])

    def play(script):
        return ko.odds_deal_pimc(
            seed,
            i,
            players,
            number,
            dealer,
            seat,
            deck,
            fixed,
            sizes,
            bonus,
            play_out,
            stop_early,
            policies,
            cards,
            script,
            events,
        )

    row, ne = pimc.scripted("norwegian_jazz", players, seed, i, params, play, events, None, 52)
    return row, events[:ne]


@pytest.mark.parametrize(
    "number, players, dealer, seat", [(2, 5, 3, 0), (5, 4, 0, 1), (6, 3, 1, 2), (6, 4, 2, 3)]
)
def test_an_odds_deal_with_the_search_player_is_the_odds_deal(number, players, dealer, seat):
    """With no pimc seat, ``odds_deal_pimc`` gives ``odds_deals``' row for deal i (random and heuristic
    seats), traces the deal's number, dealer, leader and hands, and deals the same hands when seats search."""
    cond = {seat: "AS KH", (seat + 1) % players: "QC"}
    fixed, sizes, deck = O.condition(None, seat, dealer, players, number, cond)
    pol = np.array([[0], [1], [0], [1], [1]][:players], np.int64)
    want = ko.odds_deals(9, 10, 40, players, number, dealer, seat, deck, fixed, sizes, 10, False, True, pol)
    events = np.zeros((k.max_events(players), 4), np.int64)
    script = np.zeros(sc.SC_CARDS + 52, np.int64)
    searching = parse_policy(",".join(["pimc"] * players), players)
    for j in range(40):
        row, ne = ko.odds_deal_pimc(
            9,
            10 + j,
            players,
            number,
            dealer,
            seat,
            deck,
            fixed,
            sizes,
            10,
            False,
            True,
            pol,
            0,
            script,
            events,
        )
        assert row.tolist() == want[j].astype(np.int64).tolist(), j
        assert script[sc.SC_SEATS] == 0 and script[sc.SC_NEED] == -1
        leader = (dealer + 1) % players
        assert events[0].tolist() == [EV_DEAL, number - 1, dealer, leader]
        hands = events[1 : 1 + players].copy()
        assert (hands[:, 0] == EV_HAND).all() and hands[:, 1].tolist() == list(range(players))
        assert all(int(h) & int(f) == int(f) for h, f in zip(hands[:, 2], fixed))
        assert [bin(int(h)).count("1") for h in hands[:, 2]] == sizes.tolist()
        assert (events[1 + players : ne, 0] == EV_PLAY).all()
        script[sc.SC_COUNT] = 0  # the search player's seats: the same hands, and a card asked for or none
        ko.odds_deal_pimc(
            9,
            10 + j,
            players,
            number,
            dealer,
            seat,
            deck,
            fixed,
            sizes,
            10,
            False,
            True,
            searching,
            0,
            script,
            events,
        )
        assert (events[1 : 1 + players] == hands).all()
        assert script[sc.SC_SEATS] == (1 << players) - 1


def _plays_legal(events, number, players):
    """Check every play of the traced deal against the reference rules; returns the plays."""
    hands = {int(a): set(C.codes_of(int(b))) for kind, a, b, _ in events.tolist() if kind == EV_HAND}
    plays = [(int(a), int(b)) for kind, a, b, _ in events.tolist() if kind == EV_PLAY]
    if number <= 5:
        for t in range(0, len(plays), players):
            trick = plays[t : t + players]
            for j, (s, c) in enumerate(trick):
                assert C.code(c) in ref.trick_legal(hands[s], [C.code(x) for _, x in trick[:j]])
                hands[s].remove(C.code(c))
    else:
        table: set = set()
        for s, c in plays:
            legal = ref.sevens_legal(hands[s], table)
            if c < 0:
                assert not legal, (s, legal)
            else:
                assert C.code(c) in legal
                hands[s].remove(C.code(c))
                table.add(C.code(c))
    return plays


@pytest.mark.parametrize(
    "number, settings", [(3, {"pimc_tricks": 4, "stop_early": False}), (6, {"pimc_sevens_cards": 24})]
)
def test_the_search_players_cards_are_legal(number, settings, monkeypatch):
    params = SPEC.params(SPEC.settings({"pimc_samples": 2, **settings}))
    asked = []
    for mod in (pimc, ps):
        monkeypatch.setattr(mod, "decide", lambda *a, f=mod.decide: asked.append(1) or f(*a))
    for i in range(3):
        row, events = _traced(number, 4, 0, 1, {1: HAND}, parse_policy("pimc", 4), params, i)
        plays = _plays_legal(events, number, 4)
        if number <= 5:
            assert len(plays) == 52 and row[ko.O_TAKEN] >= 0
        else:
            assert row[ko.O_PASSES] == sum(1 for s, c in plays if s == 1 and c < 0)
    assert len(asked) > 3  # the search decided cards


def test_hand_odds_with_the_search_player_are_reproducible_on_any_threads():
    run = {
        "hand": HAND,
        "policy": "pimc",
        "games": 12,
        "seed": 3,
        "deal": 3,
        "settings": {"pimc_samples": 2, "pimc_tricks": 4},
    }
    one = cardmc.odds("norwegian_jazz", **run, threads=1)
    two = cardmc.odds("norwegian_jazz", **run, threads=2)
    for name, table in one["tables"].items():
        pd.testing.assert_frame_equal(two["tables"][name], table)
    assert one["tables"]["summary"].loc["mean_tricks", "n"] == 12
    assert "policy pimc, pimc_samples 2, pimc_tricks 4" in one["question"]
    plain = cardmc.odds(
        "norwegian_jazz", **{**run, "policy": "heuristic"}
    )  # the same deals: the search plays
    assert (
        one["tables"]["summary"].loc["mean_tricks", "estimate"]
        != plain["summary"].loc["mean_tricks", "estimate"]
    )


@pytest.mark.parametrize("deal, settings", [(1, {"pimc_tricks": 1}), (6, {})])
def test_where_the_search_has_no_choice_the_odds_are_the_heuristics(deal, settings):
    """From one trick left no card is a choice; in sevens the search is off by default: the same deals
    played the same way give the heuristic's tables exactly."""
    run = {"hand": HAND, "games": 70, "seed": 4, "deal": deal, "settings": settings}
    plain = cardmc.odds("norwegian_jazz", **run, policy="heuristic")
    searched = cardmc.odds("norwegian_jazz", **run, policy="pimc")
    for name, table in plain["tables"].items():
        pd.testing.assert_frame_equal(searched["tables"][name], table)


def test_pimc_options_are_checked():
    with pytest.raises(UsageError, match="pimc_tricks"):
        cardmc.odds("norwegian_jazz", hand=HAND, deal=1, policy="pimc", games=4, settings={"pimc_tricks": 18})
    with pytest.raises(UsageError, match="pimc_sevens_cards"):
        cardmc.odds(
            "norwegian_jazz", hand=HAND, deal=6, policy="pimc", games=4, settings={"pimc_sevens_cards": 53}
        )
