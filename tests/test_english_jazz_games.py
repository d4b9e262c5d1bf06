"""English Jazz whole games: audited traces, determinism, the SPEC functions,
the analysis and the odds of a given hand."""

from __future__ import annotations

import json

import numba
import numpy as np
import pandas as pd
import pytest

from cardmc import english_jazz as E
from cardmc.kernels import english_jazz as k
from cardmc.registry import UsageError
from tests.helpers import check_trace_form
from tests.reference import english_jazz as ref

P = np.zeros(0, np.int64)


@pytest.fixture(scope="module")
def traces():
    return {pol: [E.trace_game(21, i, 3, {}, pol) for i in range(150)] for pol in ("random", "heuristic")}


@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_audited_traces(traces, policy):
    positions = 0
    for line in traces[policy]:
        assert ref.audit(line) == [], line["index"]
        positions += sum(len(d["plays"]) for d in line["deals"])
    assert positions >= 10_000


def test_random_policy_draws_uniformly_at_every_turn(traces):
    for line in traces["random"]:
        assert ref.random_choice_errors(line) == []


def test_mixed_policies_audited():
    for i in range(30):
        line = E.trace_game(5, i, 3, {}, "heuristic,random,heuristic")
        assert ref.audit(line) == []
        assert line["policy"] == "heuristic,random,heuristic"


def test_audit_finds_broken_lines(traces):
    line = json.loads(json.dumps(traces["random"][0]))
    deal = line["deals"][3]
    deal["score"] = [s + 1 for s in deal["score"]]
    deal["plays"][4]["legal"] = deal["plays"][4]["legal"][:-1] or ["AS"]
    errs = ref.audit(line)
    for what in ("score", "legal", "totals"):
        assert any(what in e for e in errs)
    line = json.loads(json.dumps(traces["heuristic"][1]))
    line["deals"][0]["dealer"] = (line["deals"][0]["dealer"] + 1) % 3
    assert any("dealer" in e for e in ref.audit(line))


def test_trace_form(traces, tmp_path):
    path = tmp_path / "ej.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in traces["heuristic"][:20]))
    assert "0 with form errors" in check_trace_form(path)


def test_rows_match_traces(traces):
    rows = E.simulate_block(21, 0, 40, 3, P, E.parse_policy("heuristic", 3))
    df = E.frame(rows)
    for line in traces["heuristic"][:40]:
        g = df[df["game"] == line["index"]].sort_values(["deal", "seat"])
        for d, deal in enumerate(line["deals"]):
            r = g[g["deal"] == d]
            assert r["score"].tolist() == deal["score"]
            assert r["tricks"].tolist() == deal["tricks"]
            assert r["card_points"].tolist() == deal["card_points"]
            assert r["rule"].astype(str).tolist() == [deal["rule"]] * 3
            t = r["trump"].iloc[0]
            assert (None if pd.isna(t) else t) == deal["trump"]
            for s in range(3):
                hand = deal["hands"][s]
                row = r.iloc[s]
                assert row["aces"] == sum(c[0] == "A" for c in hand)
                assert row["points_held"] == ref.card_points(hand, None)
                assert row["longest"] == max(sum(c[1] == x for c in hand) for x in "CDHS")
                want = sum(c[1] == deal["trump"] for c in hand) if deal["trump"] else -1
                assert row["trumps_held"] == want
                assert row["position"] == (s - deal["dealer"]) % 3
        assert g[g["deal"] == 0]["total"].tolist() == line["totals"]


def test_game_rows_are_consistent():
    df = E.frame(E.simulate_block(3, 0, 400, 3, P, E.parse_policy("random", 3)))
    assert len(df) == 400 * 36
    assert (df.groupby(["game", "deal"])["score"].sum() == 0).all()  # every rule is zero-sum
    tot = df.groupby(["game", "seat"])["score"].sum()
    assert (tot == df.groupby(["game", "seat"])["total"].first()).all()
    assert (df.groupby(["game", "deal"])["tricks"].sum() == 12).all()
    pts = df.groupby(["game", "deal"]).agg(p=("card_points", "sum"), t=("trump_set_by", "first"))
    assert ((pts["p"] == 152) == (pts["t"] >= 0)).all() and ((pts["p"] == 120) == (pts["t"] < 0)).all()
    dealers = df[df["seat"] == 0].pivot(index="game", columns="deal", values="dealer").to_numpy()
    assert ((dealers - dealers[:, :1]) % 3 == np.arange(12) % 3).all()  # one seat on per deal
    best = df.groupby("game")["total"].transform("max")
    assert ((df["total"] == best) == (df["winner"] == 1)).all()
    nbest = (df["total"] == best).groupby(df["game"]).transform("sum") // 12
    assert ((nbest > 1) == (df["shared_win"] == 1)).all()


def test_trump_never_set_exactly_when_every_hand_is_three_of_each_suit():
    """Nobody can ever be void iff all three hands hold 3-3-3-3; the chance of
    that is (9!/3!^3)^4 / (36!/12!^3) = 0.0023535."""
    df = E.frame(E.simulate_block(6, 0, 6000, 3, P, E.parse_policy("heuristic", 3)))
    flat = (df[["len_c", "len_d", "len_h", "len_s"]] == 3).all(axis=1)
    flat = flat.groupby([df["game"], df["deal"]]).all()
    never = (df["trump_set_by"] < 0).groupby([df["game"], df["deal"]]).first()
    assert (flat == never).all()
    p, n = 0.002353492778425187, len(never)
    assert abs(never.mean() - p) < 4 * np.sqrt(p * (1 - p) / n)
    # the leader can take every trick only when trump is never set: a void
    # opponent's first off-suit card is the only trump in its trick
    lead_sweeps = df[(df["all_tricks"] == 1) & (df["position"] == 1)]
    assert (lead_sweeps["trump_set_by"] < 0).all()


def test_same_games_whatever_the_split_and_threads():
    pol = E.parse_policy("heuristic,random,random", 3)
    whole = E.simulate_block(77, 10, 300, 3, P, pol)
    parts = np.concatenate([E.simulate_block(77, 10, 7, 3, P, pol), E.simulate_block(77, 17, 293, 3, P, pol)])
    assert np.array_equal(whole, parts)
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = E.simulate_block(77, 10, 300, 3, P, pol)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = E.simulate_block(77, 10, 300, 3, P, pol)
    finally:
        numba.set_num_threads(old)
    assert np.array_equal(one, whole) and np.array_equal(two, whole)


def test_same_deals_under_another_policy():
    a = E.frame(E.simulate_block(4, 0, 50, 3, P, E.parse_policy("random", 3)))
    b = E.frame(E.simulate_block(4, 0, 50, 3, P, E.parse_policy("heuristic", 3)))
    for col in ("dealer", "aces", "jacks", "points_held", "len_c", "len_d", "len_h", "len_s"):
        assert a[col].tolist() == b[col].tolist()


def test_parse_policy():
    assert E.parse_policy("heuristic", 3).tolist() == [[1], [1], [1]]
    assert E.parse_policy("random, heuristic,random", 3).tolist() == [[0], [1], [0]]
    with pytest.raises(UsageError, match="clever"):
        E.parse_policy("clever", 3)
    with pytest.raises(UsageError, match="2 seats"):
        E.parse_policy("random,random", 3)
    with pytest.raises(UsageError, match="4"):
        E.parse_policy("random", 4)


def test_frame_columns_and_types():
    df = E.frame(E.simulate_block(1, 0, 3, 3, P, E.parse_policy("random", 3)))
    assert list(df.columns) == list(k.COLUMNS)
    assert df["tricks"].dtype == np.int8 and df["card_points"].dtype == np.int16
    assert isinstance(df["rule"].dtype, pd.CategoricalDtype)
    assert set(df["rule"].cat.categories) == set("ABCDE")
    assert isinstance(df["trump"].dtype, pd.CategoricalDtype)


def test_heuristic_beats_random_and_avoids_the_bad_rules():
    # seat 0 heuristic against two random players on the same deals
    df = E.frame(E.simulate_block(8, 0, 1500, 3, P, E.parse_policy("heuristic,random,random", 3)))
    me = df[df["seat"] == 0]["score"].to_numpy(dtype=float)
    se = me.std(ddof=1) / np.sqrt(me.size)
    assert me.mean() > 5 * se  # a clear positive mean deal score
    rnd = E.frame(E.simulate_block(8, 0, 1500, 3, P, E.parse_policy("random", 3)))
    seat0 = rnd[rnd["seat"] == 0]
    mine = df[df["seat"] == 0]
    for mine_bad, rnd_bad in (
        (mine["tricks"] == 0, seat0["tricks"] == 0),
        (mine["card_points"] > 100, seat0["card_points"] > 100),
    ):
        d = rnd_bad.to_numpy(dtype=float) - mine_bad.to_numpy(dtype=float)  # paired: the same deals
        assert d.mean() > 4 * d.std(ddof=1) / np.sqrt(d.size)


def test_heuristic_trump_choice():
    from tests.helpers import mask

    # the longest suit, and among equals the one with J and 9
    assert k.trump_choice(mask("JS 9S 6S 7H 8H AH KD QD 6C".split())) == 3
    assert k.trump_choice(mask("6S 7S 8S TS JH 9H AH KH".split())) == 2
    assert k.trump_choice(mask("6S 7S 8S TS QS JH 9H".split())) == 3


def test_heuristic_sweeps_with_the_top_cards():
    # second seat, void in two suits, nine trumps to be and the top clubs
    res = E.odds(
        "JS 9S AS KS QS TS 8S 7S 6S AC KC QC", seat=2, dealer=0, games=4000, seed=1, policy="heuristic"
    )
    assert res["summary"].loc["all_tricks", "ci_low"] > 0.5
    assert res["rules"].loc["A", "p_score_+2"] == 1.0


def test_analyze_tables():
    df = E.frame(E.simulate_block(2, 0, 300, 3, P, E.parse_policy("heuristic", 3)))
    out = E.analyze(df)
    for name in (
        "all_tricks",
        "all_tricks_by_position",
        "all_tricks_by_feature",
        "rules",
        "trump_never_set",
        "trump_set_by",
        "score_by_position",
        "game_totals",
        "wins_by_first_position",
        "total_by_first_position",
        "game_total_distribution",
    ):
        assert name in out and len(out[name]) > 0
    deals = df[df["seat"] == 0]
    assert out["rules"]["n"].eq(len(deals)).all()
    assert out["rules"]["estimate"].sum() == pytest.approx(1.0)
    assert out["trump_set_by"]["estimate"].sum() == pytest.approx(1.0)
    assert out["all_tricks"].loc["per deal", "events"] == (deals["rule"] == "A").sum()
    assert out["all_tricks"].loc["per game of 12 deals", "n"] == 300
    for table in out.values():
        assert {"ci_low", "ci_high"} <= set(table.columns) or "se" in table.columns


# --------------------------------------------------------------- hand odds

HAND = "JH 9H AH KH 7H AS KS QC 8C 7D 6D 6S"


def test_odds_deals_replay_with_the_reference():
    """Random play: every conditional deal is the reference's deal of the seed."""
    from cardmc.kernels.cards import parse_hand

    mask = np.uint64(parse_hand(HAND, 12))
    out = k.odds_deals(5, 0, 60, mask, 1, 2, k.RANDOM)
    hand = HAND.split()
    rest = [c for c in ref.DECK if c not in hand]
    for i in range(60):
        order = ref.Stream(5, i, 0, ref.DEAL).shuffled(rest)
        hands = [[], [], []]
        hands[1] = hand
        pos = 0
        for _ in range(4):
            for q in range(3):
                s = (2 + 1 + q) % 3
                if s != 1:
                    hands[s] = hands[s] + order[pos : pos + 3]
                    pos += 3
        st = ref.Stream(5, i, 0, ref.PLAY)
        d = ref.play_deal(hands, 2, lambda s, ok, h, t, tr: sorted(ok, key=ref.card_order)[st.below(len(ok))])
        want = [d["tricks"][1], d["card_points"][1], "ABCDE".index(d["rule"]), d["score"][1]]
        assert out[i].tolist() == want


def test_odds_reproducible_and_batched():
    a = E.odds(HAND, 0, 2, games=30_000, seed=3)
    b = E.odds(HAND, 0, 2, games=30_000, seed=3)
    assert a["summary"].equals(b["summary"]) and a["rules"].equals(b["rules"])
    assert a["rules"]["estimate"].sum() == pytest.approx(1.0)
    assert a["position"] == "leader" and a["deals"] == 30_000
    c = E.odds(HAND, 0, 2, games=200_000, seed=3, target_se=0.01)
    assert c["stopped_by"] == "target_se" and c["deals"] < 200_000
    assert c["summary"].loc["expected_score", "se"] < 0.01
    whole = k.odds_deals(3, 0, 5000, np.uint64(a_mask()), 0, 2, k.HEURISTIC)
    parts = np.concatenate(
        [
            k.odds_deals(3, 0, 1234, np.uint64(a_mask()), 0, 2, k.HEURISTIC),
            k.odds_deals(3, 1234, 3766, np.uint64(a_mask()), 0, 2, k.HEURISTIC),
        ]
    )
    assert np.array_equal(whole, parts)


def a_mask():
    from cardmc.kernels.cards import parse_hand

    return parse_hand(HAND, 12)


@pytest.mark.parametrize(
    "hand, match",
    [
        ("JH 9H AH KH 7H AS KS QC 8C 7D 6D", "12 cards"),
        ("JH 9H AH KH 7H AS KS QC 8C 7D 6D 6S 6C", "12 cards"),
        ("JH JH AH KH 7H AS KS QC 8C 7D 6D 6S", "twice"),
        ("JH 9H AH KH 7H AS KS QC 8C 7D 6D 5S", "5S"),
        ("JH 9H AH KH 7H AS KS QC 8C 7D 6D XX", "XX"),
        (17, "hand"),
    ],
)
def test_odds_bad_hands(hand, match):
    with pytest.raises(UsageError, match=match):
        E.odds(hand, 0, 0, games=10, seed=1)


@pytest.mark.parametrize(
    "kw, match",
    [
        ({"seat": 3}, "seat"),
        ({"dealer": -1}, "dealer"),
        ({"games": 0}, "games"),
        ({"seed": -2}, "seed"),
        ({"policy": "smart"}, "smart"),
        ({"target_se": 0}, "target_se"),
    ],
)
def test_odds_bad_arguments(kw, match):
    args = {"seat": 0, "dealer": 0, "games": 10, "seed": 1, **kw}
    with pytest.raises(UsageError, match=match):
        E.odds(HAND, **args)


@pytest.mark.parametrize(
    "args, match",
    [
        ((-1, 0, 3, {}, "random"), "seed"),
        ((1, -1, 3, {}, "random"), "index"),
        ((1, 0, 4, {}, "random"), "4"),
        ((1, 0, 3, {"deals": 5}, "random"), "deals"),
        ((1, 0, 3, {}, "greedy"), "greedy"),
    ],
)
def test_trace_game_bad_arguments(args, match):
    with pytest.raises(UsageError, match=match):
        E.trace_game(*args)
