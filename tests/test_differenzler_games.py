"""Whole Differenzler games: traces audited by the reference, determinism,
and the policies' quality measured on the same deals."""

from __future__ import annotations

import json

import numba
import numpy as np
import pandas as pd
import pytest

import cardmc
from cardmc import differenzler as D
from tests.helpers import check_trace_form
from tests.reference import dealing
from tests.reference import differenzler as ref


@pytest.mark.parametrize(
    "policy", ["random", "heuristic", "calibrated", "heuristic:random,random,calibrated,random"]
)
def test_traces_follow_the_rules(policy):
    lines = cardmc.trace("differenzler", games=150, seed=11, policy=policy)
    for line in lines:
        assert ref.audit(line) == []
        for k, deal in enumerate(line["deals"]):  # the hands are deal k of game i of the seed
            want = dealing.deal_packets(dealing.shuffled(11, line["index"], k, 36), 4, deal["dealer"])
            assert [sorted(h) for h in deal["hands"]] == [sorted(h) for h in want]
    assert {line["policy"] for line in lines} == {policy}


def test_tie_break_deals_follow_the_rules():
    """Games whose lowest total was shared after four deals, found by simulation."""
    df = cardmc.simulate("differenzler", games=4000, seed=3, max_extra_deals=2)
    tied = df.loc[df["extra"] == 1, "game"].unique()
    assert len(tied) >= 3
    assert df["deal"].max() <= 5
    for g in tied[:10]:
        (line,) = cardmc.trace("differenzler", games=1, seed=3, start=int(g), max_extra_deals=2)
        assert len(line["deals"]) > 4
        assert ref.audit(line) == []
    # a tie that remains after the extra deals is recorded for every seat of the game
    remaining = df[df["tied"] == 1]
    if len(remaining):
        assert (
            remaining.groupby("game")["winner"].sum() >= 2 * remaining.groupby("game")["deal"].nunique()
        ).all()


def test_no_extra_deals_when_option_is_zero():
    df = cardmc.simulate("differenzler", games=3000, seed=3, max_extra_deals=0)
    assert df["deal"].max() == 3
    assert df["tied"].max() == 1  # some ties remain and are recorded


def test_trace_file_has_the_shared_form(tmp_path):
    path = cardmc.trace(
        "differenzler", games=20, seed=5, policy="heuristic", out=tmp_path / "t.jsonl", open_declarations=True
    )
    out = check_trace_form(path)
    assert "20 lines, 0 with form errors" in out
    line = json.loads(path.read_text().splitlines()[0])
    assert line["rules"] == {"open_declarations": True, "max_extra_deals": 4}


def test_game_i_is_the_same_whatever_the_split_and_threads():
    spec = D.SPEC
    params, pol = spec.params(spec.settings()), D.parse_policy("random")
    whole = D.simulate_block(42, 0, 600, 4, params, pol)
    parts = np.concatenate(
        [D.simulate_block(42, a, b, 4, params, pol) for a, b in [(0, 7), (7, 300), (307, 293)]]
    )
    np.testing.assert_array_equal(whole, parts)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        single = D.simulate_block(42, 0, 600, 4, params, pol)
    finally:
        numba.set_num_threads(before)
    np.testing.assert_array_equal(whole, single)
    # and the API's block size does not matter either
    a = cardmc.simulate("differenzler", games=500, seed=42, policy="random", threads=1)
    b = cardmc.simulate("differenzler", games=500, seed=42, policy="random", threads=2)
    pd.testing.assert_frame_equal(a, b)


def test_same_deals_under_every_policy():
    a = cardmc.simulate("differenzler", games=300, seed=8, policy="random")
    b = cardmc.simulate("differenzler", games=300, seed=8, policy="calibrated")
    cols = ["game", "deal", "seat", "dealer", "trump_card", "trumps", "aces", "tens", "len_c", "len_s"]
    a4, b4 = (x[x["extra"] == 0][cols].reset_index(drop=True) for x in (a, b))
    pd.testing.assert_frame_equal(a4, b4)


def test_rows_are_consistent():
    df = cardmc.simulate("differenzler", games=2000, seed=2)
    per_deal = df.groupby(["game", "deal"])
    assert (per_deal["made"].sum() == 157).all()
    assert (per_deal["tricks"].sum() == 9).all()
    assert (df["penalty"] == (df["declared"] - df["made"]).abs()).all()
    assert df["declared"].between(0, 157).all()
    assert ((df["seat"] - df["dealer"]) % 4 == df["rel"]).all()
    assert (df[["len_c", "len_d", "len_h", "len_s"]].sum(axis=1) == 9).all()
    totals = df.groupby(["game", "seat"])["penalty"].sum()
    assert (totals == df.groupby(["game", "seat"])["total"].first()).all()
    first_dealers = df[df["deal"] == 0].groupby("game")["dealer"].first()
    assert set(first_dealers) == {0, 1, 2, 3}


@pytest.mark.parametrize("others", ["heuristic", "random"])
def test_heuristic_play_beats_random_play_on_the_same_deals(others):
    """Seat 0 plays heuristically or at random against the same three players
    on the same deals, declaring by the same rule: only its play differs."""
    from cardmc.stats import paired_difference

    runs = {}
    for me in ("heuristic", "random"):
        df = cardmc.simulate(
            "differenzler", games=2000, seed=21, policy=f"{me}:heuristic," + ",".join([others] * 3)
        )
        runs[me] = df[(df["extra"] == 0) & (df["seat"] == 0)].sort_values(["game", "deal"])["penalty"]
    d = paired_difference(runs["heuristic"], runs["random"])
    assert d["ci_high"] < 0, d


def test_calibrated_declarations_beat_heuristic_ones():
    table = D.compare_declarations(games=3000, seed=22)
    assert table.loc["calibrated", "mean_penalty"] < table.loc["heuristic", "mean_penalty"]
    assert table.loc["heuristic", "diff_ci_high"] < 0  # heuristic beats random
    calibrated = table.loc["calibrated", "mean_penalty"]
    # paired: calibrated minus heuristic, its CI below zero
    from cardmc.api import simulate
    from cardmc.stats import paired_difference

    runs = [simulate("differenzler", games=3000, seed=22, policy=p) for p in ("heuristic", "calibrated")]
    h, c = (r[r["extra"] == 0].sort_values(["game", "deal", "seat"])["penalty"] for r in runs)
    d = paired_difference(c, h)
    assert d["ci_high"] < 0, (d, calibrated)


@pytest.mark.parametrize("policy", ["random", "calibrated", "heuristic:random,random,calibrated,random"])
def test_hand_features_match_the_dealt_hands(policy):
    """Also: the rows, played without a trace in loops compiled for all-random,
    all-heuristic or mixed seats, are the traced games (audited by the rules)."""
    lines = cardmc.trace("differenzler", games=40, seed=13, policy=policy)
    df = cardmc.simulate("differenzler", games=40, seed=13, policy=policy).set_index(["game", "deal", "seat"])
    points = {"A": 11, "T": 10, "K": 4, "Q": 3}
    for line in lines:
        for k, deal in enumerate(line["deals"]):
            trump = deal["trump"]
            for seat, hand in enumerate(deal["hands"]):
                row = df.loc[(line["index"], k, seat)]
                assert row["trumps"] == sum(c[1] == trump for c in hand)
                assert row["trump_jack"] == ("J" + trump in hand) and row["trump_nine"] == (
                    "9" + trump in hand
                )
                assert (row["aces"], row["tens"], row["kings"]) == tuple(
                    sum(c[0] == r for c in hand) for r in "ATK"
                )
                assert row["side"] == sum(points.get(c[0], 0) for c in hand)
                assert [row[f"len_{s}"] for s in "cdhs"] == [
                    sum(c[1] == s.upper() for c in hand) for s in "cdhs"
                ]
                assert row["declared"] == deal["declared"][seat] and row["made"] == deal["made"][seat]


def test_the_heuristic_counts_only_trumps_as_sure_winners():
    """The heuristic's sure winner is a trump no unseen trump beats; a plain
    card never is (it may be trumped): every plain card's mask of higher
    cards holds bits no card has, which ``unseen`` always holds. Its lead,
    short of its declaration, shows it: a sure trump with the most points,
    else a cheap low card, even beside a plain ace."""
    from cardmc.kernels import differenzler as k
    from cardmc.kernels.cards import ACE, JACK, NINE

    deck = sum(1 << int(c) for c in k.DECK)
    for trump in range(4):
        for c in k.DECK:
            if c >> 4 != trump:
                assert int(k.HIGHER[trump * 64 + c]) & ~deck, (trump, c)

    def lead(hand, gone, trump):
        h, g = np.uint64(sum(1 << c for c in hand)), sum(1 << c for c in gone)
        unseen = np.uint64(~(int(h) | g) & (1 << 64) - 1)
        return k.heuristic_card(h, h, 0, -1, ~np.uint64(0), 0, trump, 40, unseen)

    six = 4
    plain_ace, plain_six = 1 * 16 + ACE, 2 * 16 + six
    assert lead([plain_ace, plain_six], [], 0) == plain_six  # the ace is not sure: a cheap card
    nine = 0 * 16 + NINE
    assert lead([plain_ace, plain_six, nine], [], 0) == plain_six  # the trump J is unseen: the 9 is not sure
    assert lead([plain_ace, plain_six, nine], [0 * 16 + JACK], 0) == nine  # the J is gone: the 9 is sure
