"""The search player ``pimc`` in English Jazz: its samples keep every earlier
play legal (the trump setter and every discard held none of the suit led),
it plays the search's best card when it sees every hand, its games are
reproducible and audit clean, it plays as ``heuristic`` before its tricks,
and it is refused where it cannot play."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import cardmc
from cardmc import pimc
from cardmc.english_jazz import SPEC, parse_policy
from cardmc.kernels import cards as C
from cardmc.kernels import english_jazz as k
from cardmc.kernels import script as sc
from cardmc.kernels.events import EV_DEAL, EV_HAND, EV_PLAY
from cardmc.registry import UsageError
from tests.helpers import assert_plays_legal, decide_seeing_all
from tests.reference import english_jazz as ref
from tests.reference.minimax import english_jazz_score

PARAMS = SPEC.params(SPEC.settings({}))


def _events(seed: int, index: int, policy: str = "heuristic") -> np.ndarray:
    rows = np.zeros((k.ROWS_PER_GAME, len(k.COLUMNS)), np.int32)
    events = np.zeros((k.MAX_EVENTS, 4), np.int64)
    _, nev = k.play_game(seed, index, 3, PARAMS, parse_policy(policy), rows, events)
    return events[:nev]


def _decisions(games: int, rng: np.random.Generator, least_played: int, policy: str = "heuristic"):
    """(events up to a play, the hands then, the deal's plays before it) at random plays of whole games."""
    for g in range(games):
        ev = _events(5, g, policy)
        plays = np.flatnonzero(ev[:, 0] == EV_PLAY)
        deals = np.flatnonzero(ev[:, 0] == EV_DEAL)
        for i in rng.choice(plays, size=12, replace=False):
            start = int(deals[deals < i].max())
            hands = {int(a): int(b) for kind, a, b, _ in ev[start:i].tolist() if kind == EV_HAND}
            played = [(int(a), int(b)) for kind, a, b, _ in ev[start:i].tolist() if kind == EV_PLAY]
            if len(played) < least_played:
                continue
            for s, c in played:
                hands[s] &= ~(1 << c)
            yield ev[: i + 1], hands, played


def test_samples_keep_every_play_legal_and_never_rule_out_the_true_hands():
    rng = np.random.default_rng(8)
    checked = 0
    for policy in ("heuristic", "random"):
        for cut, hands, played in _decisions(10, rng, 3, policy):
            view = pimc.seen("english_jazz", cut, None, 3)
            me = view["me"]
            assert view["hand"] == hands[me] and view["legal"] & ~hands[me] == 0 and view["size"] == 12
            R = pimc.rules(view)
            unseen = pimc.unseen_of(view)
            assert unseen == sum(hands[s] for s in range(3) if s != me)
            for s, mask in pimc.forbidden(view, R, unseen).items():
                assert mask & hands[s] == 0, f"seat {s}'s true cards ruled out"
            sample = pimc.sample(view, rng, R)
            assert int(sample[me]) == hands[me]
            assert all(bin(int(sample[s])).count("1") == bin(hands[s]).count("1") for s in range(3))
            assert_plays_legal(sample, me, played, ref.legal)
            checked += 1
    assert checked > 100


def test_a_seat_that_set_trump_or_discarded_holds_none_of_the_suit_led():
    rng = np.random.default_rng(1)
    found = 0
    for cut, hands, played in _decisions(8, rng, 3):
        view = pimc.seen("english_jazz", cut, None, 3)
        banned = pimc.forbidden(view, pimc.rules(view), pimc.unseen_of(view))
        for i, (s, c) in enumerate(played):
            led = played[i - i % 3][1] >> 4
            if i % 3 and s != view["me"] and c >> 4 != led:
                suit = sum(1 << (led * 16 + r) for r in range(16)) & pimc.unseen_of(view)
                assert banned[s] & suit == suit
                found += 1
    assert found > 20


def test_with_every_hand_seen_pimc_plays_the_search_s_best_card(monkeypatch):
    rng = np.random.default_rng(3)
    checked = 0
    for cut, hands, played in _decisions(10, rng, least_played=24):
        view = pimc.seen("english_jazz", cut, None, 3)
        card = decide_seeing_all(monkeypatch, view, hands, rng)
        if card is None:
            continue
        value, each = english_jazz_score(
            [set(C.codes_of(hands[s])) for s in range(3)],
            [C.code(c) for _, c in played],
            played[0][0],
            view["me"],
        )
        best = [c for c, v in each.items() if v == value]
        assert C.code(card) == min(best, key=C.parse), (C.code(card), each)
        checked += 1
    assert checked > 10


def test_pimc_games_are_reproducible_play_as_heuristic_before_their_tricks_and_audit_clean():
    run = {"games": 2, "seed": 4, "policy": "pimc,heuristic,pimc", "pimc_samples": 2, "pimc_tricks": 3}
    one = cardmc.simulate("english_jazz", **run, threads=1)
    pd.testing.assert_frame_equal(cardmc.simulate("english_jazz", **run, threads=2), one)
    lines = list(cardmc.trace("english_jazz", **run))
    plain = list(cardmc.trace("english_jazz", games=2, seed=4, policy="heuristic"))
    for line, base in zip(lines, plain):
        assert ref.audit(line) == []
        first, other = line["deals"][0], base["deals"][0]
        assert first["hands"] == other["hands"]
        # the first 9 tricks are the heuristic's; the search plays the last 3
        assert first["plays"][:27] == other["plays"][:27]


def test_pimc_is_refused_where_it_cannot_play():
    with pytest.raises(UsageError, match="pimc_tricks"):
        cardmc.simulate("english_jazz", games=1, policy="pimc", pimc_tricks=8)
    with pytest.raises(UsageError, match="pimc_tricks"):
        cardmc.odds("english_jazz", hand=HAND, policy="pimc", games=10, settings={"pimc_tricks": 0})


HAND = "JS 9S AS KH QH TD 8D 7C 6C KC QC JC"


def test_an_odds_deal_with_the_search_player_is_the_odds_deal():
    """``odds_deal_pimc`` deals deal i of ``odds_given``; with no PIMC seat it
    plays it as ``odds_given`` does, and with PIMC seats every card is legal."""
    fixed = np.zeros(3, np.uint64)
    fixed[1] = C.parse_hand(HAND, 12, 36)
    want = k.odds_given(9, 0, 40, fixed, 1, 0, k.HEURISTIC).astype(np.int64)
    events = np.zeros((40, 4), np.int64)
    script = np.zeros(sc.SC_CARDS + 52, np.int64)
    for i in range(40):
        res, rule, ne = k.odds_deal_pimc(9, i, fixed, 0, parse_policy("heuristic"), script, events)
        assert [res[0, 1], res[1, 1], rule, res[2, 1]] == want[i].tolist()
        assert ne == 40 and events[2, 2] == fixed[1] and events[0, 2] == 0
    params = SPEC.params(SPEC.settings({"pimc_samples": 2, "pimc_tricks": 4}))
    for i in range(6):
        res, rule, _ = pimc.scripted(
            "english_jazz",
            3,
            9,
            i,
            params,
            lambda s, i=i: k.odds_deal_pimc(9, i, fixed, 0, parse_policy("pimc"), s, events),
            events,
            None,
            52,
        )
        hands = {int(a): C.codes_of(int(b)) for kind, a, b, _ in events[1:4].tolist()}
        plays = [(int(a), int(b)) for kind, a, b, _ in events[4:40].tolist()]
        for t in range(12):
            trick = plays[3 * t : 3 * t + 3]
            for j, (s, c) in enumerate(trick):
                assert C.code(c) in ref.legal(hands[s], [C.code(x) for _, x in trick[:j]])
                hands[s].remove(C.code(c))
        assert res[0].sum() == 12 and res[2].sum() == 0  # twelve tricks; scores sum to 0


def test_hand_odds_with_the_search_player_are_reproducible_on_any_threads():
    run = {"hand": HAND, "policy": "pimc", "games": 12, "seed": 3, "settings": {"pimc_samples": 2}}
    one = cardmc.odds("english_jazz", **run, threads=1)
    two = cardmc.odds("english_jazz", **run, threads=2)
    for name, table in one["tables"].items():
        pd.testing.assert_frame_equal(two["tables"][name], table)
    assert one["tables"]["summary"].loc["mean_tricks", "n"] == 12
