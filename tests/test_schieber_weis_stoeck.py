"""Schieber without Weis or without Stöck (rule options weis and stoeck): the options, hand-built deals
where a Weis or Stöck would score and does not, random matches against the reference rules under both
options, and what reads them (rows, traces, analyses, odds, compare, house_rules, the command line)."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

import cardmc
from cardmc import api
from cardmc import schieber as S
from cardmc.cli import main
from cardmc.kernels import schieber as K
from cardmc.kernels import schieber_weis as W
from cardmc.kernels.events import EV_STOECK, EV_WEIS, EV_WEIS_TEAM
from cardmc.registry import UsageError
from tests.helpers import check_trace_form, mask
from tests.reference import schieber as ref
from tests.test_schieber_rules import STOECK_DEAL, hand_built
from tests.test_schieber_weis import kernel_declaration, kernel_winner

SPEC = S.SPEC
CONTRACT = {name: i for i, name in enumerate(K.CONTRACT_NAMES)}
SWISS = {"undenufe_points": "six", "four_nines": "150", "long_runs": "scaled"}
NO_MULTIPLIERS = {"multipliers": "1,1,1,1,1,1"}
NO_WEIS, NO_STOECK = {"weis": "off"}, {"stoeck": "off"}
OPTION_SETS = [
    NO_WEIS,
    NO_STOECK,
    {**NO_WEIS, **NO_STOECK},
    {**NO_WEIS, **SWISS, **NO_MULTIPLIERS},
    {**NO_STOECK, **SWISS, "multipliers": "1,2,3,4,5,6"},
]
# Obenabe with Weis in three hands: seat 0 (forehand) a run of four, seats 1 and 2 runs of three
OBENABE_WEIS = [
    ["6C", "7C", "8C", "9C", "7H", "TH", "QH", "JD", "AS"],
    ["QD", "KD", "AD", "TC", "6H", "8H", "KH", "6S", "8S"],
    ["9S", "TS", "JS", "JC", "AC", "6D", "8D", "9H", "AH"],
    ["QC", "KC", "7D", "9D", "TD", "JH", "7S", "QS", "KS"],
]


def word(**rules) -> int:
    return int(K.rules_of(SPEC.params(SPEC.settings(rules))))


# ---------------------------------------------------------------- the options


def test_the_options_and_their_bits():
    assert SPEC.settings()["weis"] == "on" and SPEC.settings()["stoeck"] == "on"
    params = SPEC.params(SPEC.settings({**NO_WEIS, **NO_STOECK}))
    assert params[K.P_WEIS] == 0 and params[K.P_STOECK] == 0
    default = SPEC.params(SPEC.settings())
    assert default[K.P_WEIS] == 1 and default[K.P_STOECK] == 1
    assert word() == K.DEFAULT_RULES
    assert word(weis="off") == K.DEFAULT_RULES | W.NO_WEIS << K.WEIS_SHIFT
    assert word(stoeck="off") == K.DEFAULT_RULES | K.NO_STOECK
    assert K.weis_of(word(weis="off", four_nines="150")) == W.NO_WEIS | W.FOUR_NINES
    assert K.weis_of(word(stoeck="off")) == 0
    assert word(weis="off", stoeck="off") == K.pack_rules(
        False, W.NO_WEIS, K.MULTIPLIER.tolist(), stoeck=False
    )


@pytest.mark.parametrize("name, value", [("weis", "no"), ("weis", True), ("stoeck", 0), ("stoeck", "false")])
def test_bad_values_name_the_option_and_the_value(name, value):
    with pytest.raises(UsageError, match=name) as e:
        SPEC.settings({name: value})
    assert repr(value) in str(e.value)


def test_without_weis_no_hand_declares_anything():
    rnd = random.Random(4)
    declared = 0
    for i in range(2000):
        contract = ref.CONTRACTS[i % 6]
        ranks = rnd.sample(ref.RANKS, 3)
        pool = sorted({c for c in ref.DECK if c[0] in ranks} | set(rnd.sample(ref.DECK, 8)))
        hand = rnd.sample(pool, 9)
        for bits in (0, W.FOUR_NINES | W.SCALED_RUNS):
            declared += bool(kernel_declaration(hand, contract, bits=bits))
            assert W.declare(mask(hand), CONTRACT[contract], bits | W.NO_WEIS) == (0, 0, 0, 0)
            assert kernel_declaration(hand, contract, bits=bits | W.NO_WEIS) == []
        assert ref.declaration(hand, contract, NO_WEIS) == []
    assert declared > 1000  # the same hands declare plenty with Weis
    hands = [["JC", "JD", "JH", "JS"], ["6S", "7S", "8S", "9S", "TS"], ["AC"], ["KD"]]
    assert kernel_winner(hands, "H", 0, bits=0) == ref.weis_winner(hands, "H", 0) == 0
    assert kernel_winner(hands, "H", 0, bits=W.NO_WEIS) is None
    assert ref.weis_winner(hands, "H", 0, NO_WEIS) is None


def test_the_exact_odds_without_weis():
    odds = S.weis_odds(weis="off")
    assert (odds["exact"] == 0).all() and odds.attrs["mean_points"] == 0
    assert odds.attrs["by_total"].to_dict() == {0: 1.0}
    counts, by_total = W.declaration_table(W.NO_WEIS)
    dist, unresolved = ref.weis_distribution(NO_WEIS)
    assert unresolved == 0 and dist == {(0, 0): int(counts[0])} and by_total[0] == counts.sum() == counts[0]


# ------------------------------------------------------------ hand-built deals


def test_without_stoeck_the_weis_decides_before_the_first_card():
    # with Stöck, seat 0's trump K and Q (40) win the match before the first card (test_schieber_rules)
    line, out = hand_built(STOECK_DEAL, "S", (2970, 2990))
    assert out[K.O_WINNER] == 0 and line["deals"][0]["stoeck_seat"] == 0
    line, out = hand_built(STOECK_DEAL, "S", (2970, 2990), rules=NO_STOECK)
    deal = line["deals"][0]
    assert out[K.O_WINNER] == 1 and deal["stoeck_seat"] is None and deal["weis_team"] == 1
    assert deal["plays"] == [] and deal["score"] == [0, 400]  # seat 1's four Js, times 2
    assert ref.audit(line, start=(2970, 2990)) == []


def test_without_weis_the_four_jacks_score_nothing():
    line, out = hand_built(STOECK_DEAL, "S", (2950, 2990))
    assert out[K.O_WINNER] == 1 and line["deals"][0]["plays"] == []  # the Weis wins before the first card
    line, out = hand_built(STOECK_DEAL, "S", (2950, 2990), rules=NO_WEIS)
    deal = line["deals"][0]
    assert deal["weis"] == [[], [], [], []] and deal["weis_team"] is None and deal["stoeck_seat"] == 0
    assert len(deal["plays"]) > 0 and ref.audit(line, start=(2950, 2990)) == []


@pytest.mark.parametrize("policy", [0, 1])
@pytest.mark.parametrize("seed", range(4))
def test_the_same_play_scores_exactly_the_weis_and_stoeck_less(policy, seed):
    """Played from 0:0 to a target no deal reaches, each option takes away exactly what it names: the
    four Js of seat 1 (200, times 2) and seat 0's Stöck (20, times 2)."""
    on, _ = hand_built(STOECK_DEAL, "S", (0, 0), target=5000, policy=policy, seed=seed)
    for rules, team, lost in ((NO_WEIS, 1, 400), (NO_STOECK, 0, 40), ({**NO_WEIS, **NO_STOECK}, None, None)):
        off, _ = hand_built(STOECK_DEAL, "S", (0, 0), target=5000, policy=policy, seed=seed, rules=rules)
        a, b = on["deals"][0], off["deals"][0]
        assert a["plays"] == b["plays"] and a["card_points"] == b["card_points"]
        assert ref.audit(off) == ["the match ends before a team reached the target"]
        if team is not None:
            assert (
                a["score"][team] - b["score"][team] == lost and a["score"][1 - team] == b["score"][1 - team]
            )
        else:  # nothing but the card points, times the multiplier
            assert b["score"] == [2 * p for p in b["card_points"]]


def test_without_weis_an_obenabe_deal_scores_its_card_points():
    line, _ = hand_built(OBENABE_WEIS, "obenabe", (0, 0), target=5000, rules=NO_WEIS)
    deal = line["deals"][0]
    assert [ref.declaration(h, "obenabe") != [] for h in OBENABE_WEIS][:3] == [True, True, True]
    assert deal["weis"] == [[], [], [], []] and deal["weis_team"] is None
    assert deal["score"] == [3 * p for p in deal["card_points"]]
    assert ref.audit(line) == ["the match ends before a team reached the target"]


# ------------------------------------------------------ random matches, traces and rows


@pytest.mark.parametrize("rules", OPTION_SETS)
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_traces_follow_the_reference_rules(rules, policy):
    plays = held = 0
    for extra in ({}, {"contract": "S"}):
        settings = SPEC.settings({**rules, **extra, "target": 1500})
        for i in range(10):
            line = S.trace_game(33, i, 4, settings, policy)
            assert line["rules"] == {**ref.RULE_DEFAULTS, **SPEC.rule_settings(settings)}
            assert ref.audit(line) == []
            for deal in line["deals"]:
                if "weis" in rules:
                    assert deal["weis"] == [[], [], [], []] and deal["weis_team"] is None
                if "stoeck" in rules:
                    assert deal["stoeck_seat"] is None
                held += ref.stoeck_seat(deal["hands"], deal["contract"]) is not None
                plays += len(deal["plays"])
    assert plays > 1000 and held > 5  # Stöck was held, and Weis declared, in deals played without them


@pytest.mark.parametrize("rules", [NO_WEIS, NO_STOECK])
def test_audit_catches_a_trace_replayed_under_other_rules(rules):
    found = [0, 0]
    for i in range(40):
        line = S.trace_game(6, i, 4, SPEC.settings({**rules, "contract": "H"}), "random")
        assert ref.audit(line) == []
        line["rules"] = dict(ref.RULE_DEFAULTS)
        found[0] += bool(ref.audit(line))
        played_on = S.trace_game(6, i, 4, SPEC.settings({"contract": "H"}), "random")
        played_on["rules"] = {**ref.RULE_DEFAULTS, **rules}
        found[1] += bool(ref.audit(played_on))
    assert min(found) >= 10


@pytest.mark.parametrize("rules, kinds", [(NO_WEIS, (EV_WEIS, EV_WEIS_TEAM)), (NO_STOECK, (EV_STOECK,))])
def test_the_kernel_writes_no_events_of_what_is_off(rules, kinds):
    def events(settings):
        params, pol = SPEC.params(SPEC.settings(settings)), S.parse_policy("heuristic")
        rows = np.zeros((K.max_rows(4, params), K.NCOL), np.int32)
        ev = np.zeros((S.max_events(params), 4), np.int64)
        _, n = K.play_game(7, 3, 4, params, pol, rows, ev)
        return set(ev[:n, 0].tolist())

    assert set(kinds) <= events({})
    assert not set(kinds) & events(rules)


def test_trace_files_without_weis_and_stoeck_have_the_shared_form(tmp_path):
    path = tmp_path / "t.jsonl"
    assert (
        main(
            [
                "trace",
                "schieber",
                "--games",
                "10",
                "--seed",
                "2",
                "--set",
                "weis=off",
                "--set",
                "stoeck=off",
                "--set",
                "target=1000",
                "--out",
                str(path),
            ]
        )
        == 0
    )
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert all(line["rules"]["weis"] == "off" and ref.audit(line) == [] for line in lines)
    assert "10 lines, 0 with form errors" in check_trace_form(path)


def test_rows_and_analyses_without_weis_and_stoeck():
    settings = {**NO_WEIS, **NO_STOECK}
    df = api.simulate("schieber", games=150, seed=3, **settings)
    assert (df["weis"] == 0).all() and (df["weis_kinds"] == 0).all() and (df["weis_scored"] == 0).all()
    assert (df["stoeck"] == 0).all()
    done = df[df["match_end"] == 0]
    assert len(done) > 1000 and (done["score"] == done["card_points"] * done["multiplier"]).all()
    aggs = api.simulate("schieber", games=150, seed=3, aggregate=True, **settings)
    a, b = api.analyze("schieber", df), api.analyze("schieber", aggs)
    assert a.keys() == b.keys() and all(a[k].equals(b[k]) for k in a)
    assert (a["weis_per_hand"][["exact", "estimate"]] == 0).all().all()
    assert a["stoeck"]["estimate"].iloc[0] == 0 and a["weis_team"].loc["nobody", "estimate"] == 1
    on = api.analyze("schieber", api.simulate("schieber", games=150, seed=3))
    assert on["weis_per_hand"].loc["any", "exact"] > 0.25 and on["stoeck"]["estimate"].iloc[0] > 0
    assert json.loads(df.attrs["settings"])["weis"] == "off"


def test_the_heuristic_counts_no_weis_it_cannot_score():
    """Without Weis, the value of every contract (the rows' best_value, what the heuristic chooses and
    pushes by) is the hand's value with no Weis; with Weis, half the Weis the hand declares is in it."""
    settings = SPEC.settings({**NO_WEIS, "target": 1000})
    off, on = int(K.rules_of(SPEC.params(settings))), K.DEFAULT_RULES
    df = S.frame(S.simulate_block(4, 0, 20, 4, SPEC.params(settings), S.parse_policy("heuristic")))
    held = 0
    for i in range(20):
        line = S.trace_game(4, i, 4, settings, "heuristic")
        for k, deal in enumerate(line["deals"]):
            values = df[(df["game"] == i) & (df["deal"] == k)].sort_values("seat")["best_value"].tolist()
            for s, hand in enumerate(deal["hands"]):
                weis = W.declare(mask(hand), W.OBENABE, 0)[1]  # what the hand declares with Weis
                assert values[s] == K.best_contract(mask(hand), 0, off)[1]
                held += K.best_contract(mask(hand), weis, on)[1] > K.best_contract(mask(hand), 0, on)[1]
    assert held > 50


# ------------------------------------------------------------ odds, compare, house rules


def test_odds_without_weis_and_stoeck():
    hand = "JS 9S AS KS QS TS 8S 7S 6S"  # every spade: a run of nine and Stöck in spades, a sure match
    on = cardmc.odds("schieber", hand, games=400, seed=1)
    off = cardmc.odds("schieber", hand, games=400, seed=1, settings={**NO_WEIS, **NO_STOECK})
    assert on.tables["hand"].loc["S", "stoeck"] and on.tables["hand"].loc["S", "weis"] == 100
    assert not off.tables["hand"]["stoeck"].any() and (off.tables["hand"]["weis"] == 0).all()
    assert (off.tables["hand"]["weis_kinds"] == "-").all()
    t = off.tables["choices"]
    assert t.loc["S", "own"] == 2 * (157 + 100) and t.loc["S", "other"] == 0  # the card points and match only
    assert on.tables["choices"].loc["S", "own"] > t.loc["S", "own"] + 2 * (100 + 20) - 1e-9


@pytest.mark.parametrize("rules", ["weis=off", "stoeck=off"])
def test_compare_arms_without_weis_or_stoeck(rules):
    t = cardmc.compare("schieber", ["heuristic", f"heuristic; {rules}"], games=300, seed=2)
    off = t.loc[("points per deal", f"heuristic; {rules}")]
    assert off["diff_ci_high"] < 0  # the same deals score less without them
    assert t.attrs["seed"] == 2


def test_house_rules_without_weis():
    t = S.house_rules(seed=5, games=10, rules=NO_WEIS)
    weis = t["weis"]
    assert weis.loc["a team scores Weis", "house"] == 0 and weis.loc["a team scores Weis", "default"] > 0.3
    assert t["contracts"].attrs["rules"] == NO_WEIS and "house" in t["contracts"].columns
    with pytest.raises(UsageError, match="contract"):
        S.house_rules(seed=5, games=10, rules={"contract": "S"})
    with pytest.raises(UsageError, match="weis"):
        S.house_rules(seed=5, games=10, rules={"weis": "maybe"})
