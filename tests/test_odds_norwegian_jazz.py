"""Norwegian Jazz hand odds: the conditional deals, the rules they are played
by, agreement with plain games filtered to the condition, bad input."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from cardmc.kernels import norwegian_jazz as k
from cardmc.kernels import norwegian_jazz_odds as ko
from cardmc.kernels import rng
from cardmc.kernels.cards import parse
from cardmc.kernels.condition import deal_given_many
from cardmc.odds import norwegian_jazz as O
from cardmc.registry import UsageError
from tests.reference import dealing as dref
from tests.reference import norwegian_jazz as ref

SEVENS_HAND = "AS 9S 8S 7S 5S KH 7H 3H 8D 6D 4C 3C 2C"  # seat 1, 4 players, dealer 0
POL = np.ones((4, 1), np.int64)  # heuristic


@pytest.mark.parametrize("players", k.PLAYERS)
def test_hand_sizes_follow_the_rules(players):
    for dealer in range(players):
        assert O.hand_sizes(players, 6, dealer) == ref.sevens_hand_sizes(players, dealer)
        assert O.hand_sizes(players, 1, dealer) == [len(ref.adjusted_deck(players)) // players] * players
    assert O.deck_mask(players, 3) == sum(1 << parse(c) for c in ref.adjusted_deck(players))
    assert O.deck_mask(players, 6) == sum(1 << parse(c) for c in dref.deck(52))


def test_sample_deals_replay_the_game_kernel():
    """Each sample deal is deal_given's completion from (seed, i, number - 1, DEAL), played by the game
    kernel's own deal from the stream (seed, i, number - 1, PLAY)."""
    for number, players, dealer, seat in ((2, 5, 3, 0), (6, 3, 1, 2), (5, 4, 0, 1)):
        cond = {seat: "AS KH", (seat + 1) % players: "QC"}
        fixed, sizes, deck = O.condition(None, seat, dealer, players, number, cond)
        pol = np.array([[0], [1], [0], [1], [1]][:players], np.int64)  # random and heuristic seats
        out = ko.odds_deals(
            9, 10, 40, players, number, dealer, seat, deck, fixed, sizes, 10, False, True, pol
        )
        hands_all = deal_given_many(deck, fixed, sizes, players, 9, 10, 40, number - 1, rng.DEAL)
        leader = (dealer + 1) % players
        for i in range(40):
            hands = hands_all[i].copy()
            assert hands[seat] & fixed[seat] == fixed[seat]
            assert [bin(int(h)).count("1") for h in hands] == list(sizes)
            st = rng.stream(9, 10 + i, number - 1, rng.PLAY)
            a = np.zeros(players, np.int64)
            b = np.zeros(players, np.int64)
            ev = np.zeros((0, 4), np.int64)
            if number <= 5:
                k.play_trick_deal(hands, leader, number, players, True, pol, st, a, b, ev, 0)
                assert out[i].tolist() == [b[seat] * k.UNIT_SCORE[number], a[seat], b[seat], 0, 0]
            else:
                from cardmc.kernels.sevens import play_sevens

                _, first, _ = play_sevens(hands, np.uint64(0), leader, players, False, pol, st, a, b, ev, 0)
                assert out[i].tolist() == [-a[seat] + 10 * (first == seat), 0, 0, a[seat], int(first == seat)]


def _reference_hands(seed: int, game: int, number: int, players: int, dealer: int) -> list[set[str]]:
    """The plain game's hands of deal ``number``: the reference shuffle of the deal's deck, dealt one
    card at a time from the seat after the dealer."""
    cards = [c for c in dref.deck(52) if number == 6 or c in ref.adjusted_deck(players)]
    st = dref.Stream(seed, game, number - 1, dref.DEAL)
    for i in range(len(cards) - 1, 0, -1):
        j = st.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    hands = [set() for _ in range(players)]
    for j, c in enumerate(cards):
        hands[(dealer + 1 + j) % players].add(c)
    return hands


@pytest.mark.parametrize(
    "number, card, measure, column",
    [(6, "AS", "expected_score", "score"), (1, "AS", "expected_penalty", "score")],
)
def test_agrees_with_plain_games_filtered_to_the_condition(number, card, measure, column):
    """The leader (seat after the dealer) holding one given card: the odds estimate agrees, within
    its CI, with the mean over plain games of the same player (the odds' default, learned) in which the
    leader was dealt that card."""
    import cardmc

    games, seed = 12_000, 4
    df = cardmc.simulate("norwegian_jazz", games=games, seed=seed, players=4, policy="learned")
    rows = df[(df["deal"] == number) & (df["rel_seat"] == 1)]
    keep = [
        card in _reference_hands(seed, g, number, 4, d)[s]
        for g, d, s in zip(rows["game"], rows["dealer"], rows["seat"])
    ]
    chosen = rows[keep][column].to_numpy(float)
    assert 0.2 < len(chosen) / games < 0.3
    res = O.odds(hands={1: card}, seat=1, dealer=0, deal=number, games=200_000, seed=2)
    assert res["policy"] == "learned"
    est = res["summary"].loc[measure]
    se = np.hypot(est["se"], chosen.std(ddof=1) / np.sqrt(len(chosen)))
    assert abs(est["estimate"] - chosen.mean()) < 4 * se
    plain = df[(df["deal"] == number)][column].mean()  # the condition matters
    assert abs(est["estimate"] - plain) > 4 * se


def test_sevens_odds_and_options_on_the_same_deals():
    base = O.odds(SEVENS_HAND, seat=1, dealer=0, deal=6, games=20_000, seed=3)
    s = base["summary"]
    assert set(base["hand"]) == set(SEVENS_HAND.split())
    assert (
        0 < s.loc["first_out", "estimate"] < 1
        and s.loc["first_out", "ci_low"] < s.loc["first_out", "ci_high"]
    )
    p, m = s.loc["first_out", "estimate"], s.loc["expected_passes", "estimate"]
    assert s.loc["expected_score", "estimate"] == pytest.approx(10 * p - m)
    # the bonus changes no one's play: the same deals score 70 more exactly when the seat went out first
    b80 = O.odds(
        SEVENS_HAND, seat=1, dealer=0, deal=6, games=20_000, seed=3, settings={"first_out_bonus": 80}
    )
    assert b80["summary"].loc["first_out", "estimate"] == p
    assert b80["summary"].loc["expected_score", "estimate"] == pytest.approx(80 * p - m)
    out = O.odds(SEVENS_HAND, seat=1, dealer=0, deal=6, games=20_000, seed=3, settings={"play_out": True})
    assert out["summary"].loc["first_out", "estimate"] == p  # play stops later, the first out is the same
    assert out["summary"].loc["expected_passes", "estimate"] >= m
    assert base["scores"]["estimate"].sum() == pytest.approx(1.0)
    assert list(base["quantiles"]["score"]) == sorted(base["quantiles"]["score"])


def test_trick_deal_odds():
    res = O.odds("AS KS QS JS AH KH QH AD KD QD AC KC QC", seat=2, dealer=0, deal=1, games=5_000, seed=1)
    s = res["summary"]
    assert s.loc["expected_penalty", "estimate"] < -8  # the top cards take most tricks
    assert s.loc["expected_penalty", "estimate"] == pytest.approx(-s.loc["mean_tricks", "estimate"])
    low = O.odds("2S 3S 4S 5S 2H 3H 4H 5H 2D 3D 4D 2C 3C", seat=2, dealer=0, deal=1, games=5_000, seed=1)
    assert low["summary"].loc["no_penalty", "estimate"] > 0.5
    kc = O.odds(hands={0: "KC"}, seat=0, dealer=0, deal=4, games=5_000, seed=1)
    assert set(kc["scores"].index) <= {0, -15}


def test_reproducible_batched_and_thread_invariant():
    fixed, sizes, deck = O.condition(SEVENS_HAND, 1, 0, 4, 6)
    args = (4, 6, 0, 1, deck, fixed, sizes, 10, False, True, POL)
    whole = ko.odds_deals(5, 0, 5000, *args)
    parts = np.concatenate([ko.odds_deals(5, 0, 1234, *args), ko.odds_deals(5, 1234, 3766, *args)])
    assert np.array_equal(whole, parts)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = ko.odds_deals(5, 0, 5000, *args)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(whole, one)
    a = O.odds(SEVENS_HAND, 1, 0, games=30_000, seed=2, target_se=0.05)
    assert a["stopped_by"] == "target_se" and a["deals"] < 30_000
    assert a["summary"].loc["expected_score", "se"] < 0.05


@pytest.mark.parametrize(
    "kw, match",
    [
        ({"hand": "AS KS"}, "holds 13 cards"),
        ({"hand": SEVENS_HAND.replace("AS", "KH")}, "'KH'"),
        ({"hand": SEVENS_HAND.replace("AS", "ZZ")}, "'ZZ'"),
        ({"players": 3, "deal": 2, "hand": None, "hands": {0: "2D"}}, "'2D' is not in the deck of deal 2"),
        ({"hands": {1: "QC"}}, "seat 1 is given 14 cards"),
        ({"hands": {2: "AS"}}, "'AS' is given to seat 1 and to seat 2"),
        ({"hand": None, "hands": {4: "AS"}}, "seat '4'"),
        ({"seat": 4}, "seat"),
        ({"dealer": -1}, "dealer"),
        ({"deal": 7}, "deal"),
        ({"deal": 0}, "deal"),
        ({"players": 8}, "8"),
        ({"games": 0}, "games"),
        ({"seed": -1}, "seed"),
        ({"policy": "smart"}, "smart"),
        ({"settings": {"first_out_bonus": 5000}}, "5000"),
        ({"settings": {"trumps": 1}}, "trumps"),
        ({"target_se": 0}, "target_se"),
    ],
)
def test_bad_input_is_named(kw, match):
    args = {"hand": SEVENS_HAND, "seat": 1, "dealer": 0, "games": 10, "seed": 1, **kw}
    with pytest.raises(UsageError, match=match):
        O.odds(**args)


def run(*args: str):
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "cardmc.cli", *args], capture_output=True, text=True)


@pytest.mark.parametrize(
    "args, named",
    [
        (["--hand", "AS KS"], "13 cards"),
        (["--hand", SEVENS_HAND, "--hand", "2:AS"], "'AS'"),
        (["--players", "3", "--deal", "1", "--hand", "0:2D"], "'2D'"),
        (["--deal", "7", "--hand", SEVENS_HAND], "7"),
        (["--players", "9", "--hand", "0:AS"], "9"),
        (["--set", "first_out_bonus=-1", "--hand", "0:AS"], "-1"),
    ],
)
def test_command_line_refuses_and_writes_nothing(tmp_path, args, named):
    out = tmp_path / "odds.csv"
    done = run("odds", "norwegian_jazz", *args, "--games", "100", "--out", str(out))
    assert done.returncode == 2 and named in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_command_line_sevens(tmp_path):
    out = tmp_path / "odds"
    done = run(
        "odds",
        "norwegian_jazz",
        "--hand",
        SEVENS_HAND,
        "--seat",
        "1",
        "--dealer",
        "0",
        "--games",
        "3000",
        "--set",
        "first_out_bonus=80",
        "--out",
        str(out),
        "--no-progress",
    )
    assert done.returncode == 0, done.stderr
    assert (
        "deal 6 (sevens)" in done.stdout
        and "first_out_bonus 80" in done.stdout
        and "3,000 deals" in done.stdout
    )
    import pandas as pd

    summary = pd.read_csv(out / "summary.csv", index_col=0)
    p, m = summary.loc["first_out", "estimate"], summary.loc["expected_passes", "estimate"]
    assert summary.loc["expected_score", "estimate"] == pytest.approx(80 * p - m)


def test_a_sure_outcome_does_not_stop_a_run_early():
    """Every 7 and its neighbours: the leader always goes out first without a pass. The shares' SEs
    for stopping are Agresti-Coull, not the zero of the sample."""
    sure = "7C 8C 6C 7D 8D 6D 7H 8H 9H 7S 8S 6S 5S"
    r = O.odds(sure, seat=1, dealer=0, deal=6, games=40_000, seed=1, target_se=1e-5)
    assert (
        r["summary"].loc["first_out", "estimate"] == 1.0 and r["summary"].loc["first_out", "events"] == 40_000
    )
    assert r["deals"] == 40_000 and r["stopped_by"] == "games"
    assert (
        O.odds(sure, seat=1, dealer=0, deal=6, games=40_000, seed=1, target_se=1e-3)["stopped_by"]
        == "target_se"
    )
