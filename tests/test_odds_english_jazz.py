"""English Jazz hand odds with part hands and other seats' known cards: the
conditional deals against the reference, agreement with plain games filtered
to the condition, the command line's refusals, thread-count invariance."""

from __future__ import annotations

import subprocess
import sys

import numba
import numpy as np
import pytest

from cardmc.kernels import english_jazz as k
from cardmc.kernels.cards import parse
from cardmc.odds import english_jazz as X
from cardmc.registry import UsageError
from tests.reference import english_jazz as ref

HAND = "JH 9H AH KH 7H AS KS QC 8C 7D 6D 6S"


def fixed_of(cond: dict[int, str]) -> np.ndarray:
    out = np.zeros(3, np.uint64)
    for s, text in cond.items():
        for c in text.split():
            out[s] |= np.uint64(1 << parse(c))
    return out


def reference_deal(seed: int, i: int, cond: dict[int, str], dealer: int) -> list[list[str]]:
    """The conditional deal by the rule of ``odds_given``: the free cards (deck order) shuffled by the
    deal's stream fill, packet by packet in dealing order, the places the fixed cards leave free; a
    seat's fixed cards take its last packets."""
    fixed = {s: text.split() for s, text in cond.items()}
    given = {c for cs in fixed.values() for c in cs}
    order = ref.Stream(seed, i, 0, ref.DEAL).shuffled([c for c in ref.DECK if c not in given])
    hands = [list(fixed.get(s, [])) for s in range(3)]
    pos = 0
    for r in range(4):
        for q in range(3):
            s = (dealer + 1 + q) % 3
            in_later = min(3 * (3 - r), len(fixed.get(s, [])))  # fixed cards in the packets after this one
            here = min(3, max(0, len(fixed.get(s, [])) - in_later))
            hands[s] += order[pos : pos + 3 - here]
            pos += 3 - here
    assert pos == len(order)
    return hands


@pytest.mark.parametrize(
    "cond, seat, dealer",
    [
        ({1: HAND}, 1, 2),
        ({0: "JS 9S"}, 0, 0),
        ({2: "AS QS TS 6C", 0: "JS", 1: HAND.replace("AS", "9S")}, 2, 1),
        ({}, 1, 0),
    ],
)
def test_conditional_deals_replay_with_the_reference(cond, seat, dealer):
    """Random play: every conditional deal is the reference's completion of the condition, played by
    the reference rules; a whole hand alone is the former odds deal."""
    out = k.odds_given(5, 0, 40, fixed_of(cond), seat, dealer, k.RANDOM)
    for i in range(40):
        hands = reference_deal(5, i, cond, dealer)
        assert sorted(len(h) for h in hands) == [12, 12, 12]
        st = ref.Stream(5, i, 0, ref.PLAY)
        d = ref.play_deal(
            hands, dealer, lambda s, ok, h, t, tr: sorted(ok, key=ref.card_order)[st.below(len(ok))]
        )
        assert out[i].tolist() == [
            d["tricks"][seat],
            d["card_points"][seat],
            "ABCDE".index(d["rule"]),
            d["score"][seat],
        ]


def test_whole_hand_as_a_condition_is_the_hand():
    a = X.odds(HAND, 0, 2, games=3000, seed=3)
    b = X.odds(hands={0: HAND}, seat=0, dealer=2, games=3000, seed=3)
    c = X.odds(hands=[f"0:{HAND}"], seat=0, dealer=2, games=3000, seed=3)
    for name in ("summary", "rules", "scores"):
        assert a[name].equals(b[name]) and a[name].equals(c[name])
    assert np.array_equal(
        k.odds_deals(3, 0, 3000, np.uint64(fixed_of({0: HAND})[0]), 0, 2, k.HEURISTIC),
        k.odds_given(3, 0, 3000, fixed_of({0: HAND}), 0, 2, k.HEURISTIC),
    )


def test_part_hand_agrees_with_plain_games_filtered_to_it():
    """The leader holding AS and AH: the odds agree, within their CIs, with the plain games' deals in
    which the leader was dealt both (the plain deal: the game kernel's shuffle and packets, which
    tests/test_english_jazz_games.py checks against the reference)."""
    import cardmc
    from cardmc.kernels import rng
    from cardmc.kernels.cards import deal_packets

    games, seed = 3000, 6
    df = cardmc.simulate("english_jazz", games=games, seed=seed, policy="heuristic")
    rows = df[df["position"] == 1]  # the seat after the dealer
    want = int(fixed_of({0: "AS AH"})[0])
    keep = []
    hands = np.empty(3, np.uint64)
    for g, d, s, dealer in zip(rows["game"], rows["deal"], rows["seat"], rows["dealer"]):
        order = k.DECK.copy()
        rng.shuffle(rng.stream(seed, g, d, rng.DEAL), order)
        deal_packets(order, dealer + 1, 3, hands)
        keep.append(int(hands[s]) & want == want)
    chosen = rows[keep]
    assert 0.08 < len(chosen) / len(rows) < 0.13
    res = X.odds(hands={1: "AS AH"}, seat=1, dealer=0, games=100_000, seed=2, policy="heuristic")
    s = res["summary"]
    for measure, column in (
        ("mean_tricks", "tricks"),
        ("expected_score", "score"),
        ("mean_card_points", "card_points"),
    ):
        x = chosen[column].to_numpy(float)
        se = np.hypot(s.loc[measure, "se"], x.std(ddof=1) / np.sqrt(len(x)))
        assert abs(s.loc[measure, "estimate"] - x.mean()) < 4 * se, measure
    assert s.loc["mean_tricks", "estimate"] - rows["tricks"].mean() > 0.4  # the condition matters


def test_thread_count_does_not_change_a_deal():
    fixed = fixed_of({1: "JS 9S", 2: "AH KH QH"})
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = k.odds_given(4, 7, 20_000, fixed, 1, 0, k.HEURISTIC)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one, k.odds_given(4, 7, 20_000, fixed, 1, 0, k.HEURISTIC))
    parts = np.concatenate(
        [
            k.odds_given(4, 7, 777, fixed, 1, 0, k.HEURISTIC),
            k.odds_given(4, 784, 20_000 - 777, fixed, 1, 0, k.HEURISTIC),
        ]
    )
    assert np.array_equal(one, parts)


@pytest.mark.parametrize(
    "kw, match",
    [
        ({"hands": {1: "JS JS"}}, "'JS' is given twice"),
        ({"hands": {1: "JS", 2: "JS"}}, "'JS' is given to seat 1 and to seat 2"),
        ({"hands": {3: "JS"}}, "seat '3'"),
        ({"hands": {0: HAND + " AD"}}, "seat 0 is given 13 cards"),
        ({"hands": {0: "5S"}}, "'5S'"),
        ({"hand": HAND, "hands": {2: "AS"}}, "'AS' is given to seat 1 and to seat 2"),
        ({"hands": {1: "JS"}, "settings": {"trumps": 1}}, "trumps"),
    ],
)
def test_impossible_conditions_are_named(kw, match):
    with pytest.raises(UsageError, match=match):
        X.odds(**{"seat": 1, "dealer": 0, "games": 10, "seed": 1, **kw})


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cardmc.cli", *args], capture_output=True, text=True)


@pytest.mark.parametrize(
    "hands, named",
    [
        (["1:JS 9S", "2:9S"], "'9S'"),
        (["1:JS 9S AS KS QS TS AH KH QH AD KD QD 6C"], "13 cards"),
        (["0:2D"], "'2D'"),
        (["3:JS"], "'3'"),
        ([HAND, HAND], "once"),
    ],
)
def test_command_line_refuses_impossible_hands_and_writes_nothing(tmp_path, hands, named):
    out = tmp_path / "odds.csv"
    args = [a for h in hands for a in ("--hand", h)]
    done = run("odds", "english_jazz", *args, "--games", "100", "--out", str(out))
    assert done.returncode == 2 and named in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_command_line_part_hand(tmp_path):
    out = tmp_path / "odds.csv"
    done = run(
        "odds",
        "english_jazz",
        "--hand",
        "1:JS 9S",
        "--hand",
        "2:AS",
        "--seat",
        "1",
        "--games",
        "2000",
        "--seed",
        "1",
        "--out",
        str(out),
        "--no-progress",
    )
    assert done.returncode == 0, done.stderr
    assert "2 of 12 cards known" in done.stdout and "seat 2 holds AS" in done.stdout
    import pandas as pd

    t = pd.read_csv(out)
    assert set(t["table"]) == {"summary", "rules", "scores"}
