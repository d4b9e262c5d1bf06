"""Whole Schieber matches: audited traces, dealing, determinism, the spec's
functions, the policies' strength and the analyses."""

from __future__ import annotations

import copy
import json

import numba
import numpy as np
import pandas as pd
import pytest

from cardmc import schieber as S
from cardmc.registry import UsageError, join_spans
from tests.helpers import check_trace_form
from tests.reference import dealing
from tests.reference import schieber as ref

SPEC = S.SPEC


def traces(seed, games, policy, **given):
    settings = SPEC.settings(given)
    return [S.trace_game(seed, i, 4, settings, policy) for i in range(games)]


@pytest.mark.parametrize(
    "policy, target",
    [
        ("random", 3000),
        ("heuristic", 3000),
        ("heuristic,random,heuristic,random", 3000),
        ("random", 300),
        ("heuristic", 157),
    ],
)
def test_traces_follow_the_rules(policy, target):
    lines = traces(21, 120, policy, target=target)
    plays = 0
    for line in lines:
        assert ref.audit(line) == []
        assert line["rules"] == {**ref.RULE_DEFAULTS, "target": target} and line["policy"] == policy
        for k, deal in enumerate(line["deals"]):  # deal k of game i: packets of three from seat `start`
            start = 0 if k == 0 else deal["forehand"]
            want = dealing.deal_packets(dealing.shuffled(21, line["index"], k, 36), 4, (start + 3) % 4)
            assert [sorted(h) for h in deal["hands"]] == [sorted(h) for h in want]
            plays += len(deal["plays"])
    assert plays > 1000


def test_rare_endings_are_traced_and_audited():
    """Matches that end before the first card of a deal or in the middle of a trick (Stöck)."""
    lines = traces(9, 600, "random", target=300)
    last = [line["deals"][-1] for line in lines]
    before_first_card = [d for d in last if not d["plays"]]
    mid_trick = [d for d in last if len(d["plays"]) % 4]
    stoeck_first = [d for d in before_first_card if d["weis_team"] is None]
    assert len(before_first_card) >= 20 and len(mid_trick) >= 2 and len(stoeck_first) >= 2
    for line in lines:
        assert ref.audit(line) == []


def test_audit_finds_broken_traces():
    line = traces(3, 1, "heuristic")[0]
    assert ref.audit(line) == []
    broken = []
    a = copy.deepcopy(line)
    a["deals"][0]["plays"][1]["legal"].append("XX")
    broken.append(a)
    b = copy.deepcopy(line)
    b["deals"][0]["score"][0] += 1
    broken.append(b)
    c = copy.deepcopy(line)
    c["deals"][1]["forehand"] = (c["deals"][1]["forehand"] + 1) % 4
    broken.append(c)
    d = copy.deepcopy(line)
    d["deals"][0]["weis"][0].append({"cards": ["6C", "7C", "8C"], "points": 20})
    broken.append(d)
    e = copy.deepcopy(line)
    e["schneider"] = not e["schneider"]
    broken.append(e)
    f = copy.deepcopy(line)
    f["deals"][0]["contract"] = "undenufe" if f["deals"][0]["contract"] != "undenufe" else "obenabe"
    broken.append(f)
    for x in broken:
        assert ref.audit(x) != []


def test_trace_file_has_the_shared_form(tmp_path):
    path = tmp_path / "t.jsonl"
    with open(path, "w") as f:
        for line in traces(5, 20, "heuristic", target=1000):
            f.write(json.dumps(line) + "\n")
    assert "20 lines, 0 with form errors" in check_trace_form(path)


def test_match_i_is_the_same_whatever_the_split_and_threads():
    params, pol = SPEC.params(SPEC.settings()), S.parse_policy("heuristic,random,random,heuristic")
    whole = S.simulate_block(42, 0, 400, 4, params, pol)
    splits = [(0, 7), (7, 200), (207, 193)]
    parts = np.concatenate([S.simulate_block(42, a, b, 4, params, pol) for a, b in splits])
    np.testing.assert_array_equal(whole, parts)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        single = S.simulate_block(42, 0, 400, 4, params, pol)
    finally:
        numba.set_num_threads(before)
    np.testing.assert_array_equal(whole, single)


def test_same_deals_under_every_policy_and_option():
    a = traces(8, 5, "random")
    b = traces(8, 5, "heuristic", contract="undenufe")
    for x, y in zip(a, b):
        for dx, dy in zip(x["deals"], y["deals"]):
            assert dx["hands"] == dy["hands"] and dx["forehand"] == dy["forehand"]


def test_rows_agree_with_the_traces():
    params, pol = SPEC.params(SPEC.settings()), S.parse_policy("heuristic")
    df = S.frame(S.simulate_block(4, 0, 30, 4, params, pol))
    for line in traces(4, 30, "heuristic"):
        g = df[df["game"] == line["index"]]
        assert g["deals"].iloc[0] == len(line["deals"])
        assert [g["total0"].iloc[0], g["total1"].iloc[0]] == line["totals"]
        assert g["winner"].iloc[0] == line["winners"][0] and bool(g["schneider"].iloc[0]) == line["schneider"]
        for k, deal in enumerate(line["deals"]):
            d = g[g["deal"] == k].sort_values("seat")
            assert d["contract"].astype(str).tolist() == [deal["contract"]] * 4
            assert d["score"].tolist() == [deal["score"][s % 2] for s in range(4)]
            assert d["card_points"].tolist() == [deal["card_points"][s % 2] for s in range(4)]
            assert d["weis"].tolist() == [sum(c["points"] for c in w) for w in deal["weis"]]
            assert d["stoeck"].tolist() == [int(deal["stoeck_seat"] == s) for s in range(4)]
            assert d["pushed"].tolist() == [int(deal["pushed"])] * 4
            assert d["match_end"].tolist() == [int(deal["match_ended"])] * 4
    complete = df[df["match_end"] == 0]
    per_deal = complete[complete["seat"] < 2].groupby(["game", "deal"])["card_points"].sum()
    assert set(per_deal.unique()) <= {157, 257}
    assert (complete.groupby(["game", "deal"])["tricks"].sum() == 9).all()


# ---------------------------------------------------------------- the spec


def test_parse_policy():
    assert S.parse_policy("heuristic").tolist() == [[1]] * 4
    assert S.parse_policy("random, heuristic,random,heuristic")[:, 0].tolist() == [0, 1, 0, 1]
    with pytest.raises(UsageError, match="'clever'"):
        S.parse_policy("clever")
    with pytest.raises(UsageError, match="names 2 seats"):
        S.parse_policy("random,heuristic")
    with pytest.raises(UsageError, match="3"):
        S.parse_policy("random", 3)


def test_options():
    assert SPEC.settings() == {
        **ref.RULE_DEFAULTS,
        "contract": "choose",
        "forehand_push": "policy",
        "pimc_samples": 8,
        "pimc_tricks": 7,
    }
    assert SPEC.rule_settings(SPEC.settings({"contract": "S"})) == ref.RULE_DEFAULTS
    with pytest.raises(UsageError, match="target"):
        SPEC.settings({"target": 5})
    with pytest.raises(UsageError, match="'trump'"):
        SPEC.settings({"contract": "trump"})
    with pytest.raises(UsageError, match="'sometimes'"):
        SPEC.settings({"forehand_push": "sometimes"})


@pytest.mark.parametrize(
    "given, check",
    [
        (
            {"contract": "undenufe"},
            lambda d: (d["contract"] == "undenufe").all() and (d["multiplier"] == 4).all(),
        ),
        (
            {"forehand_push": "always"},
            lambda d: (d["pushed"] == 1).all() and (d["chooser"] == (d["forehand"] + 2) % 4).all(),
        ),
        (
            {"forehand_push": "never"},
            lambda d: (d["pushed"] == 0).all() and (d["chooser"] == d["forehand"]).all(),
        ),
        ({}, lambda d: 0.1 < d["pushed"].mean() < 0.9),
    ],
)
def test_simulation_options(given, check):
    settings = SPEC.settings(given)
    df = S.frame(S.simulate_block(6, 0, 200, 4, SPEC.params(settings), S.parse_policy("heuristic")))
    assert check(df)
    assert df["contract"].dtype == "category" and df["seat"].dtype == np.int8


def test_random_policy_uses_every_choice():
    df = S.frame(S.simulate_block(6, 0, 300, 4, SPEC.params(SPEC.settings()), S.parse_policy("random")))
    deals = df[df["seat"] == 0]
    assert set(deals["contract"].astype(str)) == set(ref.CONTRACTS)
    assert abs(deals["pushed"].mean() - 1 / 7) < 0.03  # push is one of the forehand's seven choices


# ---------------------------------------------------- policies and analyses


def test_heuristic_beats_random_in_duplicate():
    table = S.duplicate(1, 150, "heuristic", "random")
    wins = table.loc["heuristic wins the match"]
    share = table.loc["heuristic share of card points"]
    assert wins["n"] == 300 and wins["ci_low"] >= 0.90
    assert share["ci_low"] >= 0.65


@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_duplicate_of_a_policy_against_itself_is_exactly_even(policy):
    # the two seatings play the same games (same deals, same random stream), so each game is a draw
    table = S.duplicate(2, 60, policy, policy)
    assert table.loc[f"{policy} share of card points", "estimate"] == pytest.approx(0.5)
    assert table.loc[f"{policy} wins the match", "estimate"] == 0.5
    assert table.loc[f"{policy} margin per deal (points)", "estimate"] == pytest.approx(0.0)


def test_analyze_tables():
    params, pol = SPEC.params(SPEC.settings()), S.parse_policy("heuristic")
    df = S.frame(S.simulate_block(12, 0, 600, 4, params, pol))
    out = S.analyze(df)
    for name in (
        "contracts",
        "contract_by_chooser_hand",
        "points_by_contract",
        "weis_per_hand",
        "weis_team",
        "stoeck",
        "match_by_contract",
        "schneider",
        "match_length",
        "forehand_advantage",
    ):
        t = out[name]
        assert len(t) > 0 and {"estimate", "ci_low", "ci_high", "n"} <= set(t.columns), name
        assert (t["ci_low"] <= t["estimate"] + 1e-12).all() and (t["estimate"] <= t["ci_high"] + 1e-12).all()
    weis = out["weis_per_hand"]
    # the observed share of hands with a three-run agrees with the exact odds
    for kind in ("run3", "run4", "any"):
        assert abs(weis.loc[kind, "estimate"] - weis.loc[kind, "exact"]) < 4 * weis.loc[kind, "se"], kind
    assert out["weis_team"]["estimate"].sum() == pytest.approx(1.0)
    with pytest.raises(UsageError):
        S.analyze(df.iloc[0:0])


def test_push_value_table():
    table = S.push_value(3, 200)
    assert list(table.columns[:5]) == ["estimate", "se", "ci_low", "ci_high", "n"]
    assert table.loc["all", "n"] > 1000
    assert table.loc["(0, 20]", "verdict"] == "push"  # weak hands gain by pushing
    assert table.loc["(100, 1000]", "verdict"] == "choose"  # strong hands lose by it
    with pytest.raises(UsageError, match="forehand_push"):
        S.push_value(3, 10, forehand_push="never")


def test_fit_evaluation():
    table = S.fit_evaluation(3, 40, "S")
    assert table.loc["trump J", "ci_low"] > 0 and table.loc["trumps", "ci_low"] > 0
    assert table["in_use"].tolist() == S.k.EVAL_WEIGHTS[0].tolist()  # all ten trump features vary
    with pytest.raises(UsageError, match="'X'"):
        S.fit_evaluation(3, 10, "X")


def test_spec_bench_and_registry():
    from cardmc import registry

    assert registry.get("schieber") is SPEC
    assert SPEC.columns == tuple(S.k.COLUMNS)
    assert [label for label, _, _ in SPEC.bench] == ["random", "heuristic", "learned"]
    df = S.frame(S.simulate_block(0, 0, 3, 4, SPEC.params(SPEC.settings()), S.parse_policy("random")))
    assert isinstance(df, pd.DataFrame) and list(df.columns) == list(SPEC.columns)


def test_batch_rows_are_the_matches_rows_whatever_the_slices():
    """``simulate`` packs each slice's matches back to back: every slice count gives the rows of
    ``play_game`` match after match."""
    params = SPEC.params(SPEC.settings({"target": 1000, "forehand_push": "always"}))
    pol = S.parse_policy("heuristic,random,random,heuristic")
    want = []
    for i in range(10, 60):
        rows = np.zeros((S.k.max_rows(4, params), S.k.NCOL), np.int32)
        n, _ = S.k.play_game(3, i, 4, params, pol, rows, np.zeros((0, 4), np.int64))
        want.append(rows[:n])
    want = np.concatenate(want)
    for slices in (1, 2, 7, 50, 64):
        rows, spans = S.k.simulate(3, 10, 50, 4, params, pol, slices)
        assert len(spans) == min(slices, 50) and spans[:, 1].sum() == len(want)
        np.testing.assert_array_equal(join_spans(rows, spans), want)
