"""Schieber house rules (rule options undenufe_points, four_nines, long_runs, multipliers):
the options themselves, hand-built positions that show each one, random deals and hands against
the reference rules under every option, and the exact Weis odds of a whole-hand enumeration."""

from __future__ import annotations

import json
import random
from math import comb

import numpy as np
import pytest

from cardmc import api
from cardmc import schieber as S
from cardmc.cli import main
from cardmc.kernels import rng
from cardmc.kernels import schieber as K
from cardmc.kernels import schieber_weis as W
from cardmc.kernels.cards import parse
from cardmc.kernels.schieber_push import push_below
from cardmc.registry import UsageError
from tests.helpers import mask
from tests.reference import schieber as ref
from tests.test_schieber_weis import kernel_declaration, kernel_winner

SPEC = S.SPEC
CONTRACT = {name: i for i, name in enumerate(K.CONTRACT_NAMES)}
SWISS = {"undenufe_points": "six", "four_nines": "150", "long_runs": "scaled"}
NO_MULTIPLIERS = {"multipliers": "1,1,1,1,1,1"}
OPTION_SETS = [
    {"undenufe_points": "six"},
    {"four_nines": "150"},
    {"long_runs": "scaled"},
    NO_MULTIPLIERS,
    SWISS,
    {**SWISS, "multipliers": "1,2,3,4,5,6"},
]


def word(**rules) -> int:
    """The kernel's rules word of these options."""
    return int(K.rules_of(SPEC.params(SPEC.settings(rules))))


def weis_bits(rules: dict) -> int:
    return K.weis_of(word(**rules))


# ---------------------------------------------------------------- the options


def test_defaults_and_params_layout():
    settings = SPEC.settings()
    assert SPEC.rule_settings(settings) == ref.RULE_DEFAULTS
    params = SPEC.params(
        SPEC.settings(
            {
                "contract": "S",
                "forehand_push": "never",
                "target": 1500,
                **SWISS,
                "multipliers": (1, 2, 3, 4, 5, 6),
            }
        )
    )
    # weis and stoeck on, the simulation options, then the push threshold the rules make (kernels.schieber_push),
    # then the learned player's weights
    assert params[: K.P_WEIGHTS].tolist() == [
        1500,
        1,
        150,
        1,
        1,
        2,
        3,
        4,
        5,
        6,
        1,
        1,
        CONTRACT["S"],
        2,
        8,
        7,
        push_below(word(**SWISS, multipliers="1,2,3,4,5,6")),
    ]
    assert (
        len(params) == K.P_WEIGHTS + K.NLEARNED
        and params[K.P_CONTRACT] == 3
        and params[K.P_FOREHAND_PUSH] == 2
    )
    assert word() == K.DEFAULT_RULES == K.pack_rules(False, 0, K.MULTIPLIER.tolist())
    # acorns, roses, bells, shields, Obenabe, Undenufe: by contract code C D H S
    w = word(multipliers="1,2,3,4,5,6")
    assert [K.multiplier_of(w, CONTRACT[c]) for c in ("C", "H", "D", "S", "obenabe", "undenufe")] == [
        1,
        2,
        3,
        4,
        5,
        6,
    ]


@pytest.mark.parametrize(
    "given",
    [
        (1, 1, 1, 1, 1, 1),
        [1, 1, 1, 1, 1, 1],
        "1,1,1,1,1,1",
        " 1, 1,1 ,1,1,1 ",
        "(1,1,1,1,1,1)",
        (np.int64(1),) * 6,
    ],
)
def test_multipliers_are_read_in_every_spelling(given):
    assert SPEC.settings({"multipliers": given})["multipliers"] == "1,1,1,1,1,1"


@pytest.mark.parametrize(
    "name, value",
    [
        ("multipliers", "1,1,1,1,1"),
        ("multipliers", "1,1,1,1,1,1,1"),
        ("multipliers", "0,1,1,1,1,1"),
        ("multipliers", "1,1,1,1,1,16"),
        ("multipliers", "1,x,1,1,1,1"),
        ("multipliers", (1, 1, 1, 1, 1, True)),
        ("multipliers", 4),
        ("multipliers", ""),
        ("multipliers", "1.5,1,1,1,1,1"),
        ("four_nines", 100),
        ("four_nines", "yes"),
        ("long_runs", "long"),
        ("undenufe_points", "king"),
    ],
)
def test_bad_values_name_the_option_and_the_value(name, value):
    with pytest.raises(UsageError, match=name) as e:
        SPEC.settings({name: value})
    assert repr(value) in str(e.value) and "\n" not in str(e.value)


def test_bad_multipliers_on_the_command_line(tmp_path, capsys):
    out = tmp_path / "m.parquet"
    code = main(
        [
            "simulate",
            "schieber",
            "--games",
            "5",
            "--set",
            "multipliers=1,1,1",
            "--out",
            str(out),
            "--no-progress",
        ]
    )
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1 and "multipliers" in err and "'1,1,1'" in err
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_command_line_takes_the_options(tmp_path):
    out = tmp_path / "m.parquet"
    assert (
        main(
            [
                "simulate",
                "schieber",
                "--games",
                "20",
                "--seed",
                "2",
                "--set",
                "multipliers=1,1,1,1,1,1",
                "--set",
                "four_nines=150",
                "--set",
                "long_runs=scaled",
                "--set",
                "undenufe_points=six",
                "--out",
                str(out),
                "--no-progress",
            ]
        )
        == 0
    )
    df = api.read(out)
    assert (df["multiplier"] == 1).all()
    assert json.loads(df.attrs["settings"])["multipliers"] == "1,1,1,1,1,1"
    same = api.simulate(
        "schieber",
        games=20,
        seed=2,
        multipliers=(1, 1, 1, 1, 1, 1),
        four_nines=150,
        long_runs="scaled",
        undenufe_points="six",
    )
    assert (df.to_numpy() == same.to_numpy()).all()


def test_run_folders_resume_with_the_same_multipliers_and_refuse_others(tmp_path):
    folder = tmp_path / "run"
    kw = dict(games=40, seed=3, chunk_games=10, aggregate=True)
    first = api.simulate("schieber", out=folder, multipliers=(1, 1, 1, 1, 1, 1), **kw)
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["identity"]["settings"]["multipliers"] == "1,1,1,1,1,1"
    (folder / manifest["chunks"]["2"]["file"]).unlink()  # resume: the same options in another spelling
    again = api.simulate("schieber", out=folder, multipliers="1, 1, 1, 1, 1, 1", **kw)
    assert api.analyze("schieber", first)["contracts"].equals(api.analyze("schieber", again)["contracts"])
    with pytest.raises(UsageError, match="settings"):
        api.simulate("schieber", out=folder, multipliers="1,1,1,1,1,2", **kw)
    with pytest.raises(UsageError, match="settings"):
        api.simulate("schieber", out=folder, **kw)


def test_defaults_given_explicitly_play_the_same_rows():
    pol = S.parse_policy("heuristic")
    plain = S.simulate_block(4, 0, 60, 4, SPEC.params(SPEC.settings()), pol)
    named = S.simulate_block(
        4,
        0,
        60,
        4,
        SPEC.params(
            SPEC.settings(
                {
                    "undenufe_points": "ace",
                    "four_nines": 0,
                    "long_runs": "flat",
                    "multipliers": (1, 1, 2, 2, 3, 4),
                }
            )
        ),
        pol,
    )
    np.testing.assert_array_equal(plain, named)


# ------------------------------------------------------- Undenufe: the six count


def test_six_count_card_points():
    six = K.points_row(word(undenufe_points="six"), CONTRACT["undenufe"])
    assert six == K.UNDENUFE_SIX
    assert K.points_row(word(undenufe_points="six"), CONTRACT["obenabe"]) == CONTRACT["obenabe"]
    rules = {"undenufe_points": "six"}
    for card in ref.DECK:
        assert K.POINTS[six, parse(card)] == ref.card_points(card, "undenufe", rules), card
    assert (
        K.POINTS[six, parse("6S")] == 11
        and K.POINTS[six, parse("AS")] == 0
        and K.POINTS[six, parse("8S")] == 8
    )
    assert sum(K.POINTS[six, x] for x in K.DECK) == 152  # + 5 for the last trick: 157
    for contract in ref.CONTRACTS[:5]:  # only Undenufe changes
        assert all(ref.card_points(c, contract, rules) == ref.card_points(c, contract) for c in ref.DECK)


def test_undenufe_trick_with_the_six_and_the_ace():
    # the 6 wins in Undenufe; the ace and the 6 swap their points
    ace, six = {"undenufe_points": "ace"}, {"undenufe_points": "six"}
    trick = ["AS", "6S", "KS", "7S"]
    arr = np.array([parse(c) for c in trick], np.int64)
    assert K.trick_winner_pos(arr, CONTRACT["undenufe"]) == ref.trick_winner(trick, "undenufe") == 1
    assert sum(ref.card_points(c, "undenufe", ace) for c in trick) == 15
    assert sum(ref.card_points(c, "undenufe", six) for c in trick) == 15
    apart = ["AD", "8D", "KD", "QD"]  # no 6: the ace counts nothing with the six count
    assert sum(ref.card_points(c, "undenufe", ace) for c in apart) == 26
    assert sum(ref.card_points(c, "undenufe", six) for c in apart) == 15


def hand_built(hands, contract, rules, start=(0, 0), target=5000, policy=0, seed=0):
    """Play one deal under the rule options ``rules``; returns (TRACE.md line, out)."""
    h = np.array([mask(x) for x in hands], np.uint64)
    forehand = next(s for s in range(4) if "7H" in hands[s])
    events = np.zeros((K.EVENTS_PER_DEAL + 8, 4), np.int64)
    events[0] = (K.EV_DEAL, 0, -1, forehand)
    for s in range(4):
        events[1 + s] = (K.EV_HAND, s, np.int64(h[s]), 0)
    events[5] = (K.EV_CONTRACT, forehand, 0, CONTRACT[contract])
    totals = np.array(start, np.int64)
    out = np.zeros(K.OUT_SIZE, np.int64)
    weis, kinds = np.zeros(4, np.int64), np.zeros(4, np.int64)
    nev = K.play_deal(
        h,
        forehand,
        forehand,
        CONTRACT[contract],
        totals,
        target,
        np.full((4, 1), policy, np.int64),
        rng.stream(seed, 0, 0, rng.PLAY),
        weis,
        kinds,
        out,
        np.zeros(12, np.int64),
        np.zeros(4, np.uint64),
        events,
        6,
        word(**rules),
    )
    (deal,) = S.deal_records(events[:nev])
    winner = int(out[K.O_WINNER])
    line = {
        "game": "schieber",
        "seed": 0,
        "index": 0,
        "players": 4,
        "rules": SPEC.rule_settings(SPEC.settings({**rules, "target": target})),
        "policy": "random",
        "deals": [deal],
        "totals": totals.tolist(),
        "winners": [winner] if winner >= 0 else [],
        "schneider": winner >= 0 and bool(2 * totals[1 - winner] < target),
    }
    return line, out


SIXES_DEAL = [  # seat 0 (forehand: 7H) holds every 6, seat 1 every ace (a Weis of 100); no other Weis
    "7H 6C 6D 6H 6S 8C TD QH KS".split(),
    "AC AD AH AS 9C JD 8H TS QC".split(),
    "7C TC KC 7D 9D QD 9H JH 8S".split(),
    "JC 8D KD TH KH 7S 9S JS QS".split(),
]


def _taken(deal, contract):
    """The cards each team took, from the plays."""
    plays = [p["card"] for p in deal["plays"]]
    seats = [p["seat"] for p in deal["plays"]]
    taken: list[list[str]] = [[], []]
    for t in range(0, len(plays), 4):
        trick = plays[t : t + 4]
        taken[seats[t + ref.trick_winner(trick, contract)] % 2] += trick
    return taken


@pytest.mark.parametrize("seed", range(8))
def test_six_count_moves_eleven_points_per_six_and_ace(seed):
    assert sorted(c for h in SIXES_DEAL for c in h) == sorted(ref.DECK)
    ace, _ = hand_built(SIXES_DEAL, "undenufe", {}, seed=seed)
    six, _ = hand_built(SIXES_DEAL, "undenufe", {"undenufe_points": "six"}, seed=seed)
    assert ref.audit(ace) == ref.audit(six) == ["the match ends before a team reached the target"]
    a, s = ace["deals"][0], six["deals"][0]
    assert a["plays"] == s["plays"]  # random play: the same cards either way
    taken = _taken(a, "undenufe")
    for team in (0, 1):
        n6, nA = (sum(c[0] == r for c in taken[team]) for r in "6A")
        assert s["card_points"][team] - a["card_points"][team] == 11 * (n6 - nA)
    assert sum(s["card_points"]) in (157, 257) and s["weis_team"] == 1
    assert s["score"] == [4 * s["card_points"][0], 4 * (s["card_points"][1] + 100)]


# --------------------------------------------------------------------- Weis


def declared(hand, contract, rules):
    got = kernel_declaration(hand, contract, rules, weis_bits(rules))
    assert got == sorted((tuple(sorted(c)), p) for c, p in ref.declaration(hand, contract, rules)), hand
    return got


def winner(hands, contract, rules, forehand=0):
    got = kernel_winner(hands, contract, forehand, rules, weis_bits(rules))
    assert got == ref.weis_winner(hands, contract, forehand, rules), (hands, contract, rules)
    return got


NONE = ["AC", "QD", "TH"]
NINES = ["9C", "9D", "9H", "9S"]


def test_four_nines_against_a_run_of_four():
    hands = [["TS", "JS", "QS", "KS"], NINES, NONE, NONE]
    assert declared(NINES, "obenabe", {}) == []
    assert declared(NINES, "obenabe", {"four_nines": "150"}) == [(("9C", "9D", "9H", "9S"), 150)]
    assert winner(hands, "obenabe", {}) == 0  # four 9s count nothing
    assert winner(hands, "obenabe", {"four_nines": "150"}) == 1


def test_four_nines_rank_with_the_quartets_by_points():
    on = {"four_nines": "150"}
    assert winner([["KC", "KD", "KH", "KS"], NINES, NONE, NONE], "H", on) == 1  # beats a quartet of 100
    assert winner([["TS", "JS", "QS", "KS", "AS"], NINES, NONE, NONE], "S", on) == 1  # and a trump run of 100
    assert winner([["JC", "JD", "JH", "JS"], NINES, NONE, NONE], "obenabe", on) == 0  # loses to four Js
    assert winner([["TS", "JS", "QS", "KS", "AS"], NINES, NONE, NONE], "S", {}) == 0
    # a run of six or more holds a 9 and the J of its suit: it never meets four 9s or four Js in
    # another hand, so 150 and 200 are never tied between players


def test_scaled_runs_rank_by_their_points():
    six_run = ["6S", "7S", "8S", "9S", "TS", "JS"]
    kings = ["KC", "KD", "KH", "KS"]
    assert winner([six_run, kings, NONE, NONE], "H", {}) == 1  # 100 against 100: four of a kind by type
    assert winner([six_run, kings, NONE, NONE], "H", {"long_runs": "scaled"}) == 0  # 150 beats 100
    eight = ["6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD"]
    aces = ["AC", "AD", "AH", "AS"]
    assert winner([aces, eight, NONE, NONE], "undenufe", {"long_runs": "scaled"}) == 1


def test_four_nines_are_claimed_when_they_give_the_highest_total():
    # 9s claimed: 150 + 6 7 8 of hearts (20); not claimed: 6 to J of hearts (100 flat, 150 scaled)
    hand = ["9C", "9D", "9S", "6H", "7H", "8H", "9H", "TH", "JH"]
    run6 = [(("6H", "7H", "8H", "9H", "JH", "TH"), 100)]
    assert declared(hand, "obenabe", {}) == run6
    assert declared(hand, "obenabe", {"long_runs": "scaled"}) == [(run6[0][0], 150)]
    claimed = sorted([(("9C", "9D", "9H", "9S"), 150), (("6H", "7H", "8H"), 20)])
    assert declared(hand, "obenabe", {"four_nines": "150"}) == claimed
    assert declared(hand, "obenabe", {"four_nines": "150", "long_runs": "scaled"}) == claimed


def test_a_run_of_seven():
    hand = ["6S", "7S", "8S", "9S", "TS", "JS", "QS", "AD", "AH"]
    run7 = ("6S", "7S", "8S", "9S", "JS", "QS", "TS")
    assert declared(hand, "H", {}) == [(run7, 100)]
    assert declared(hand, "H", {"long_runs": "scaled"}) == [(run7, 200)]
    other = ["KC", "KD", "KH", "KS", "6D", "7D", "8D", "9D", "TD"]  # four Ks (100) and a run of five (100)
    hands = [hand, other, NONE[1:], NONE[1:]]
    assert winner(hands, "H", {}) == 1  # 100 against 100: the four of a kind by type
    assert winner(hands, "H", {"long_runs": "scaled"}) == 0  # 200 beats 100
    # scaled: 5..9 cards score 100 150 200 250 300
    for n, pts in zip(range(5, 10), (100, 150, 200, 250, 300)):
        run = [r + "D" for r in ref.RANKS[:n]]
        assert declared(run + ["AC", "KH", "QS", "JC"][: 9 - n], "C", {"long_runs": "scaled"}) == [
            (tuple(sorted(run)), pts)
        ]


def test_scaled_runs_change_which_quartet_is_claimed():
    # claiming the Qs leaves 9 T J of hearts: 100 + 20 beats a flat run of 100, but not a scaled 150
    hand = ["QC", "QD", "QH", "QS", "AH", "KH", "JH", "TH", "9H"]
    assert declared(hand, "obenabe", {}) == sorted(
        [(("QC", "QD", "QH", "QS"), 100), (("9H", "JH", "TH"), 20)]
    )
    assert declared(hand, "obenabe", {"long_runs": "scaled"}) == [(("9H", "AH", "JH", "KH", "QH", "TH"), 150)]


@pytest.mark.parametrize("rules", [{"four_nines": "150"}, {"long_runs": "scaled"}, SWISS])
def test_random_hands_with_nines_and_long_runs_declare_as_the_reference(rules):
    rnd = random.Random(17)
    for i in range(3000):
        contract = ref.CONTRACTS[i % 6]
        if i % 3 == 0:  # ranks clustered: quartets (9s too) and runs together
            ranks = rnd.sample(ref.RANKS, 3) + ["9"]
            pool = [c for c in ref.DECK if c[0] in ranks] + rnd.sample(ref.DECK, 6)
            hand = rnd.sample(sorted(set(pool)), 9)
        elif i % 3 == 1:  # long runs
            suit = rnd.choice(ref.SUITS)
            hand = [r + suit for r in ref.RANKS if rnd.random() < 0.8]
            hand = (hand + rnd.sample([c for c in ref.DECK if c not in hand], 9))[:9]
        else:
            hand = rnd.sample(ref.DECK, 9)
        declared(hand, contract, rules)
        kinds = W.declare(mask(hand), CONTRACT[contract], weis_bits(rules))[3]
        assert {W.KIND_NAMES[b] for b in range(9) if kinds >> b & 1} == ref.kinds_of(
            ref.declaration(hand, contract, rules)
        )


@pytest.mark.parametrize("rules", [{"four_nines": "150"}, {"long_runs": "scaled"}, SWISS])
def test_random_deals_with_the_nines_together_weis_winner(rules):
    rnd = random.Random(23)
    for i in range(1500):
        deck = ref.DECK[:]
        rnd.shuffle(deck)
        if i % 2:  # the 9s together
            nines = [c for c in deck if c[0] == "9"]
            deck = nines + [c for c in deck if c[0] != "9"]
        winner([deck[j * 9 : (j + 1) * 9] for j in range(4)], ref.CONTRACTS[i % 6], rules, forehand=i % 4)


# ------------------------------------------------------------- exact Weis odds


@pytest.mark.parametrize("rules", [{"four_nines": "150"}, {"long_runs": "scaled"}, SWISS])
def test_exact_odds_kernel_enumeration_equals_reference_convolution(rules):
    counts, by_total = W.declaration_table(weis_bits(rules))
    assert counts.sum() == by_total.sum() == comb(36, 9)
    dist, unresolved = ref.weis_distribution(rules)
    assert unresolved == 0
    by_kinds = np.zeros(len(counts), np.int64)
    totals = np.zeros(len(by_total), np.int64)
    for (t, kinds), n in dist.items():
        by_kinds[kinds] += n
        totals[t] += n
    np.testing.assert_array_equal(counts, by_kinds)
    np.testing.assert_array_equal(by_total, totals)
    odds, table = (
        ref.weis_probabilities(rules),
        S.weis_odds(rules.get("four_nines", "0"), rules.get("long_runs", "flat")),
    )
    for name in (*W.KIND_NAMES, "any"):
        assert table.loc[name, "exact"] == pytest.approx(float(odds[name]), rel=1e-12)
    assert table.attrs["mean_points"] == pytest.approx(float(odds["mean_points"]), rel=1e-12)


def test_exact_odds_what_the_options_change():
    flat, scaled = S.weis_odds(), S.weis_odds(long_runs="scaled")
    nines = S.weis_odds(four_nines=150)
    hands = comb(36, 9)
    # whether a hand declares anything does not depend on the points of long runs
    assert flat.loc["any", "exact"] == scaled.loc["any", "exact"]
    assert scaled.attrs["mean_points"] > flat.attrs["mean_points"]
    # ... its point distribution does. 300 points: four Js with four A, K, Q or T (4 x 28 hands) or with
    # 6 to T of one suit (4 hands); scaled, also the four hands of a whole suit (a run of nine)
    assert not flat.attrs["by_total"].equals(scaled.attrs["by_total"])
    assert round(flat.attrs["by_total"].loc[300] * hands) == 4 * 28 + 4
    assert round(scaled.attrs["by_total"].loc[300] * hands) == 4 * 28 + 4 + 4
    assert scaled.attrs["by_total"].sum() == pytest.approx(1) == flat.attrs["by_total"].sum()
    # some hands now keep a long run instead of claiming a quartet (see the Qs above)
    assert scaled.loc["quartet_Q", "exact"] < flat.loc["quartet_Q", "exact"]
    # four 9s: always claimed, so exactly the hands that hold them
    assert nines.loc["quartet_9", "exact"] == pytest.approx(comb(32, 5) / hands, rel=1e-12)
    assert flat.loc["quartet_9", "exact"] == 0
    assert nines.loc["any", "exact"] > flat.loc["any", "exact"]
    with pytest.raises(UsageError, match="four_nines"):
        S.weis_odds(four_nines=100)


# --------------------------------------------------------- whole matches and deals


@pytest.mark.parametrize("rules", OPTION_SETS)
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_traces_follow_the_reference_rules(rules, policy):
    plays = 0
    for extra in ({}, {"contract": "undenufe"}):
        settings = SPEC.settings({**rules, **extra, "target": 1500})
        for i in range(12):
            line = S.trace_game(31, i, 4, settings, policy)
            assert line["rules"] == {**ref.RULE_DEFAULTS, **SPEC.rule_settings(settings)}
            assert ref.audit(line) == []
            plays += sum(len(d["plays"]) for d in line["deals"])
    assert plays > 1000


@pytest.mark.parametrize(
    "rules", [{"undenufe_points": "six"}, {"four_nines": "150"}, {"long_runs": "scaled"}, NO_MULTIPLIERS]
)
def test_audit_catches_a_trace_replayed_under_other_rules(rules):
    """A trace played under an option fails the audit with the default (the option does something)."""
    settings = SPEC.settings({**rules, "contract": "undenufe" if "undenufe_points" in rules else "choose"})
    found = 0
    for i in range(60):
        line = S.trace_game(5, i, 4, settings, "random")
        assert ref.audit(line) == []
        line["rules"] = dict(ref.RULE_DEFAULTS)
        found += bool(ref.audit(line))
        if found >= 3:
            break
    assert found >= 3


def test_a_match_without_multipliers():
    df = S.frame(
        S.simulate_block(
            8, 0, 200, 4, SPEC.params(SPEC.settings(NO_MULTIPLIERS)), S.parse_policy("heuristic")
        )
    )
    assert (df["multiplier"] == 1).all()
    d = df[(df["match_end"] == 0) & (df["weis_scored"] == 0) & (df["stoeck"] == 0)]
    partner_stoeck = df.groupby(["game", "deal", "team"])["stoeck"].transform("max")
    d = d[partner_stoeck.loc[d.index] == 0]
    assert len(d) > 1000 and (d["score"] == d["card_points"]).all()  # no Weis, no Stöck: the card points
    default = S.frame(
        S.simulate_block(8, 0, 200, 4, SPEC.params(SPEC.settings()), S.parse_policy("heuristic"))
    )
    assert default["deals"].mean() < df["deals"].mean()  # matches to 3000 take longer without multipliers


def test_multipliers_follow_the_option_order():
    params = SPEC.params(SPEC.settings({"multipliers": "1,2,3,4,5,6"}))
    df = S.frame(S.simulate_block(2, 0, 100, 4, params, S.parse_policy("random")))
    want = {"C": 1, "H": 2, "D": 3, "S": 4, "obenabe": 5, "undenufe": 6}
    got = df.groupby("contract", observed=True)["multiplier"].agg(["min", "max"])
    assert {c: (lo, hi) for c, (lo, hi) in got.iterrows()} == {c: (m, m) for c, m in want.items()}


# ------------------------------------------------------------ the heuristic


def test_the_heuristic_values_contracts_by_the_rules_in_force():
    rnd = random.Random(3)
    default, flat, six = np.zeros(6, np.int64), np.zeros(6, np.int64), np.zeros(6, np.int64)
    chosen = {"default": 0, "flat": 0}
    for _ in range(2000):
        hand = mask(rnd.sample(ref.DECK, 9))
        best_d = K.contract_values(hand, 0, default)
        best_f = K.contract_values(hand, 0, flat, word(**NO_MULTIPLIERS))
        K.contract_values(hand, 0, six, word(undenufe_points="six"))
        for c in range(6):  # the same estimate, times each rule's multiplier
            assert abs(default[c] - K.MULTIPLIER[c] * flat[c]) <= K.MULTIPLIER[c]
        np.testing.assert_array_equal(six[:5], default[:5])  # the six count changes Undenufe only
        chosen["default"] += best_d >= 4
        chosen["flat"] += best_f >= 4
    assert (
        chosen["flat"] < 0.75 * chosen["default"]
    )  # without x3 and x4, Obenabe and Undenufe lose their pull
    # Undenufe with the six count: the weights fitted under that count (EVAL_WEIGHTS row 3)
    f = np.zeros(K.NFEAT)
    differ = 0
    for _ in range(500):
        hand = mask(rnd.sample(ref.DECK, 9))
        K.contract_features(hand, CONTRACT["undenufe"], f)
        K.contract_values(hand, 40, default)
        K.contract_values(hand, 40, six, word(undenufe_points="six"))
        for row, got in ((2, default), (3, six)):
            assert abs(got[5] - 4 * (K.EVAL_WEIGHTS[row] @ f + K.WEIS_SHARE * 40 - 78.5)) <= 1
        differ += six[5] != default[5]
    assert differ > 400


def test_the_heuristic_weighs_its_weis_under_the_options():
    # a hand with four 9s: its Weis (150) lifts every contract's value by half of it
    hand = mask(["9C", "9D", "9H", "9S", "AC", "KD", "QH", "6S", "8D"])
    plain, nines = np.zeros(6, np.int64), np.zeros(6, np.int64)
    total = W.declare(hand, CONTRACT["obenabe"], weis_bits({"four_nines": "150"}))[1]
    assert total == 150 and W.declare(hand, CONTRACT["obenabe"], 0)[1] == 0
    K.contract_values(hand, 0, plain)
    K.contract_values(hand, total, nines, word(four_nines="150"))
    assert (nines - plain >= 75 * K.MULTIPLIER - K.MULTIPLIER).all()
    rows = S.frame(
        S.simulate_block(
            12, 0, 300, 4, SPEC.params(SPEC.settings({"four_nines": "150"})), S.parse_policy("heuristic")
        )
    )
    held = rows[rows["weis_kinds"] & (1 << 8) != 0]
    assert len(held) > 0 and (held["weis"] >= 150).all()


# ------------------------------------------------------- what the house rules change


@pytest.fixture(scope="module")
def house():
    return S.house_rules(seed=5, games=20)


def test_house_rules_tables(house):
    import cardmc
    from cardmc.experiments import schieber as xs

    assert cardmc.house_rules is xs.house_rules and S.house_rules is xs.house_rules
    contracts, choice, weis = house["contracts"], house["choice"], house["weis"]
    n = contracts.attrs["deals"]
    assert n > 500 and (contracts["n"] == n).all() and (choice["n"] == n).all() and (weis["n"] == n).all()
    assert contracts.attrs["rules"] == {"undenufe_points": "six", "four_nines": "150", "long_runs": "scaled"}
    assert contracts.attrs["seed"] == 5 and contracts.attrs["games"] == 20
    # paired: the mean difference is the difference of the means, over the same deals
    np.testing.assert_allclose(contracts["difference"], contracts["swiss"] - contracts["default"], atol=1e-9)
    for t in (contracts, choice, weis):
        for col in ("default", "swiss", "difference"):
            ok = t[[col, f"{col}_ci_low", f"{col}_ci_high"]].dropna()
            assert ((ok[f"{col}_ci_low"] <= ok[col] + 1e-9) & (ok[col] <= ok[f"{col}_ci_high"] + 1e-9)).all()
    best, own = contracts.loc["best of the six (hindsight)"], contracts.loc["heuristic's choice"]
    assert best["default"] >= own["default"] and best["swiss"] >= own["swiss"]
    for what in ("heuristic's choice", "best in hindsight"):
        assert choice.loc[what, "default"].sum() == pytest.approx(1) == choice.loc[what, "swiss"].sum()
    shares = weis[["default", "swiss"]].stack().dropna()
    assert shares.between(0, 1).all() and weis["difference"].dropna().between(-1, 1).all()
    # the Swiss set adds Weis (four 9s), so a team scores Weis at least as often on the same deals
    assert weis.loc["a team scores Weis", "difference"] >= 0
    assert 0 < weis.loc["the team scoring Weis differs between the rule sets", "difference"] < 0.1


def test_house_rules_is_reproducible_and_checks_its_input(house):
    again = S.house_rules(seed=5, games=20)
    for name, t in house.items():
        assert t.equals(again[name]), name
    with pytest.raises(UsageError, match="games"):
        S.house_rules(seed=1, games=0)
    with pytest.raises(UsageError, match="target"):
        S.house_rules(seed=1, games=5, target=10)


def test_analyses_under_the_options_from_rows_and_aggregates():
    """Aggregates equal the row analysis (four 9s go past the tally's Weis kinds: the pandas path), and
    the exact Weis odds beside the simulated ones are those of the run's options."""
    rows = api.simulate("schieber", games=150, seed=2, **SWISS)
    aggs = api.simulate("schieber", games=150, seed=2, aggregate=True, **SWISS)
    a, b = api.analyze("schieber", rows), api.analyze("schieber", aggs)
    assert a.keys() == b.keys() and all(a[k].equals(b[k]) for k in a)
    exact = S.weis_odds(four_nines=150, long_runs="scaled")["exact"]
    assert a["weis_per_hand"]["exact"].equals(exact.loc[a["weis_per_hand"].index])
    assert a["weis_per_hand"].loc["quartet_9", "exact"] > 0
    assert (
        api.analyze("schieber", api.simulate("schieber", games=20, seed=2))["weis_per_hand"].loc[
            "quartet_9", "exact"
        ]
        == 0
    )
