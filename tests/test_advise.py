"""``cardmc advise`` / ``cardmc.advise``: advice from one seat's view, for every game.

Hand-built views whose best card is forced, views read from traces (the
heuristic's card from the view is the card the kernel's heuristic seat
played, and the view's legal cards the trace's), the same answer whatever
the threads, and impossible views refused in one line. At a deal's start:
hand-built hands whose best contract or declaration is clear, rule options
that reach the estimates, each policy's contract, push or declaration
against what the kernel's seats chose in traces, impossible starts refused."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import numpy as np
import pytest

import cardmc
from cardmc import advice_view, advise, registry
from cardmc.cli import main
from cardmc.kernels import cards as C
from cardmc.kernels import schieber_weis
from cardmc.registry import UsageError

GAMES = ("schieber", "differenzler", "english_jazz", "norwegian_jazz")
# a view with one legal card: seat 0 leads AC, seat 1 holds one club and no trump
ONE_CLUB = "6C 7H 8H 9H TH 7D 8D 9D TD"
FORCED = {
    "schieber": dict(hand=ONE_CLUB, plays="AC", dealer=3, contract="S"),
    "differenzler": dict(hand=ONE_CLUB, plays="AC", dealer=3, trump_card="6S", declared=40),
    "english_jazz": dict(hand=ONE_CLUB + " JD QD KD", plays="AC", dealer=2),
    "norwegian_jazz": dict(hand=ONE_CLUB + " JD QD KD AD", plays="AC", dealer=3, players=4, number=1),
}


@pytest.mark.parametrize("game", GAMES)
def test_one_legal_card_is_the_best_and_every_policy_plays_it(game):
    a = cardmc.advise(game, policy="heuristic,random,pimc", samples=4, seed=3, most_tricks=7, **FORCED[game])
    assert list(a.choices.index) == ["6C"]
    assert a.best == "6C"
    assert a.policies == {"heuristic": "6C", "random": "6C", "pimc": "6C"}
    assert int(a.choices.loc["6C", "n"]) == 0 and a.notes[0].startswith(
        "not searched"
    )  # whole deals: not searched
    assert a.view["me"] == 1


def norwegian_two_left() -> list[tuple[int, str]]:
    """Eleven tricks of Norwegian Jazz deal 1 (4 players), each led and won by
    seat 0, after which it holds AS 2H and the others only hearts above 2H."""
    tricks = [
        ("AC", "3C", "4C", "5C"),
        ("KC", "6C", "7C", "8C"),
        ("QC", "9C", "TC", "JC"),
        ("AD", "3D", "4D", "5D"),
        ("KD", "6D", "7D", "8D"),
        ("QD", "9D", "TD", "JD"),
        ("KS", "2S", "3S", "4S"),
        ("QS", "5S", "6S", "7S"),
        ("JS", "8S", "9S", "TS"),
        ("2C", "9H", "TH", "JH"),
        ("2D", "QH", "KH", "AH"),
    ]
    return [(s, c) for trick in tricks for s, c in enumerate(trick)]


def test_a_card_that_is_best_in_every_sample():
    # leading AS takes the trick (nobody holds a spade): one more unit; leading 2H loses both tricks
    a = cardmc.advise(
        "norwegian_jazz",
        hand="AS 2H",
        plays=norwegian_two_left(),
        dealer=3,
        players=4,
        number=1,
        samples=6,
        seed=1,
    )
    assert a.best == "2H"
    assert (
        a.choices.loc["2H", "estimate"] == 11 and a.choices.loc["AS", "estimate"] == 12
    )  # 11 tricks taken before
    assert a.choices.loc["2H", "se"] == 0 and a.choices.loc["AS", "se"] == 0  # the same in every sample
    assert a.policies["heuristic"] in ("AS", "2H")


TRACED = {"schieber": {}, "differenzler": {}, "english_jazz": {}, "norwegian_jazz": {"players": 4}}


@pytest.fixture(scope="module", params=GAMES)
def traced(request, tmp_path_factory):
    game = request.param
    path = tmp_path_factory.mktemp("advise") / f"{game}.jsonl"
    cardmc.trace(game, games=2, seed=11, policy="heuristic", out=str(path), **TRACED[game])
    return game, path, [json.loads(x) for x in path.read_text().splitlines()]


def points(lines, most: int = 400):
    """(index, deal, card) of the traced decisions with two legal cards or more (Norwegian Jazz: deals 1-5)."""
    out = []
    for line in lines:
        for j, deal in enumerate(line["deals"], 1):
            if deal.get("number", 1) > 5:
                continue
            for k, turn in enumerate(deal["plays"], 1):
                if len(turn["legal"]) > 1:
                    out.append((line["index"], j, k))
    step = max(1, len(out) // most)
    return out[::step]


def test_the_heuristic_from_the_view_plays_the_traced_card(traced):
    game, path, lines = traced
    spec = registry.get(game)
    params = spec.params(spec.settings(lines[0]["rules"]))
    checked = 0
    for index, deal, card in points(lines):
        keywords, turn = advice_view.traced(spec, path, index, deal, card)
        view = advice_view.build(
            spec,
            keywords["hand"],
            keywords["seat"],
            keywords["plays"],
            keywords["dealer"],
            keywords["players"],
            keywords["own"],
        )
        assert set(C.codes_of(view["legal"])) == set(turn["legal"]), (index, deal, card)
        assert C.code(spec.adviser.heuristic(view, params)) == turn["card"], (index, deal, card)
        checked += 1
    assert checked >= 100


def test_advise_at_a_trace_point_names_the_traced_card(traced):
    game, path, lines = traced
    late = [p for p in points(lines, 10_000) if p[0] == lines[0]["index"] and p[1] == 1][
        -1
    ]  # few tricks left
    a = cardmc.advise(
        game,
        trace=str(path),
        game_index=late[0],
        deal=late[1],
        card=late[2],
        samples=4,
        policy=["heuristic", "random"],
    )
    assert a.policies["heuristic"] == a.traced["card"]
    assert set(a.choices.index) == set(a.traced["legal"])
    assert a.best in a.choices.index and a.choices["n"].eq(4).all()


@pytest.mark.parametrize("game", GAMES)
def test_the_same_answer_whatever_the_threads(game, tmp_path):
    path = tmp_path / "t.jsonl"
    cardmc.trace(game, games=1, seed=5, policy="heuristic", out=str(path), **TRACED[game])
    line = json.loads(path.read_text())
    deal = line["deals"][0]
    n = line["players"]
    card = len(deal["plays"]) - 3 * n  # three tricks and a card left, more or less
    keywords = dict(
        trace=str(path), game_index=0, deal=1, card=card, samples=6, seed=9, policy="heuristic,pimc"
    )
    one = cardmc.advise(game, threads=1, **keywords)
    two = cardmc.advise(game, threads=2, **keywords)
    assert one.choices.equals(two.choices) and one.best == two.best and one.policies == two.policies
    other = cardmc.advise(game, threads=2, **{**keywords, "seed": 10})
    assert other.choices.index.equals(one.choices.index)


IMPOSSIBLE = [
    ("schieber", dict(hand="6C 6C 8H 9H TH 7D 8D 9D TD", plays="AC", dealer=3, contract="S"), "twice"),
    ("schieber", dict(hand=ONE_CLUB, plays="AC 6C", dealer=3, contract="S"), "in the hand and was played"),
    (
        "schieber",
        dict(hand="7H 8H 9H TH 7D 8D 9D", plays="AC 6C 7C", dealer=3, contract="S", seat=3),
        "holds",
    ),
    (
        "schieber",
        dict(hand="7C 8H 9H TH 7D 8D 9D TD", plays="AC 6H 8C 9C KC", dealer=3, contract="S", seat=1),
        "not legal with the cards it held",
    ),
    ("schieber", dict(hand=ONE_CLUB, plays="AC", dealer=3, contract="S", seat=2), "turn"),
    (
        "differenzler",
        dict(hand="6S 7H 8H 9H TH 7D 8D 9D TD", plays="AC", dealer=3, trump_card="6S", declared=40),
        "dealer",
    ),
    ("english_jazz", dict(hand="6C 7H 8H 9H TH 7D 8D 9D TD JD QD KD", plays="AC 2H", dealer=2), "card"),
    (
        "norwegian_jazz",
        dict(hand="AS 2H", plays=norwegian_two_left(), dealer=3, players=4, number=6),
        "sevens",
    ),
]


@pytest.mark.parametrize("game, view, words", IMPOSSIBLE)
def test_an_impossible_view_is_a_usage_error(game, view, words):
    with pytest.raises(UsageError, match=words):
        cardmc.advise(game, samples=2, **view)


def test_a_play_that_contradicts_an_earlier_one_is_refused():
    # seat 1 showed out of clubs on the first trick, then follows clubs
    plays = "AC 7H 8C 9C " + "6D 7D 8D 9D " + "KC 6C 7C"
    with pytest.raises(UsageError, match="not legal"):
        cardmc.advise("schieber", hand="JS 9S AS KH QH TD 8H", plays=plays, dealer=3, contract="S", samples=2)


def test_a_point_that_is_not_in_the_trace_is_refused(traced):
    game, path, lines = traced
    for point, words in (
        ((0, 99, 1), "deals"),
        ((0, 1, 999), "plays"),
        ((42, 1, 1), "no game"),
        ((0, 0, 1), "from 1"),
    ):
        with pytest.raises(UsageError, match=words):
            cardmc.advise(game, trace=str(path), game_index=point[0], deal=point[1], card=point[2])


def test_the_command_line_answers_and_refuses_in_one_line(tmp_path, capsys):
    out = tmp_path / "a.csv"
    args = [
        "advise",
        "schieber",
        "--hand",
        ONE_CLUB,
        "--plays",
        "AC",
        "--dealer",
        "3",
        "--contract",
        "S",
        "--samples",
        "2",
        "--policy",
        "heuristic",
        "--policy",
        "random",
        "--out",
        str(out),
    ]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "best: 6C" in text and "heuristic: 6C" in text and "random: 6C" in text
    assert out.read_text().splitlines()[0].startswith("card,estimate")
    for bad in (
        ["--hand", "6C 6C", "--contract", "S"],
        ["--hand", ONE_CLUB, "--contract", "X"],
        ["--hand", ONE_CLUB, "--contract", "S", "--plays", "AC 6C"],
        ["--trace", str(tmp_path / "none.jsonl"), "--game", "0", "--deal", "1", "--card", "1"],
    ):
        assert main(["advise", "schieber", "--samples", "2", *bad]) == 2
        err = capsys.readouterr().err
        assert err.startswith("cardmc: error: ") and err.count("\n") == 1, err


def test_the_heuristic_decision_is_a_benchmark(benchmark):
    """The heuristic's one decision from a view, timed by pytest-benchmark (well under a millisecond
    after the first call on this machine); the test checks its answer, not its time."""
    spec = registry.get("differenzler")
    view = advice_view.build(
        spec, ONE_CLUB[:-3] + " JC", None, "AC", 3, None, {"trump_card": "6S", "declared": 40}
    )
    params = spec.params(spec.settings({}))
    card = benchmark(spec.adviser.heuristic, view, params)
    assert card == spec.adviser.heuristic(view, params)
    assert (view["legal"] >> int(card)) & 1  # a legal card of the view


# ------------------------------------------------------------------ a deal's start

TOP_TRUMPS = "JS 9S AS TS 8S 8H 9H 8D 9D"  # the three best shields and two more: shields is the contract


def test_a_hand_with_the_top_trumps_chooses_them_and_the_forehand_may_push():
    a = cardmc.advise("schieber", hand=TOP_TRUMPS, dealer=3, samples=2048, seed=2, policy="heuristic,random")
    assert a.decision == "contract" and a.view["me"] == 0
    assert list(a.choices.index) == ["C", "D", "H", "S", "obenabe", "undenufe", "push"]
    assert a.best == "S"
    others = a.choices.drop(index="S")
    assert (others["net_ci_high"] < a.choices.loc["S", "net_ci_low"]).all()
    assert a.choices["n"].eq(2048).all() and a.samples == 2048
    assert a.policies["random"] in a.choices.index
    assert "learned player" in a.measure and "not by the search" in a.measure
    partner = cardmc.advise("schieber", hand=TOP_TRUMPS, dealer=1, pushed=True, samples=512, seed=2)
    assert partner.view["me"] == 0 and "push" not in partner.choices.index and partner.best == "S"


def test_rule_options_reach_the_deal_start_estimates():
    # four jacks: no other hand's Weis can beat it, so the team scores the hand's Weis (and the partner's)
    hand = "JC JD JH JS 9S TS QS KS AS"
    weis = int(schieber_weis.declare(np.uint64(C.parse_hand(hand, 9)), schieber_weis.OBENABE, 0)[1])
    keywords = dict(hand=hand, dealer=3, samples=1024, seed=4)
    on = cardmc.advise("schieber", **keywords)
    off = cardmc.advise("schieber", settings={"weis": "off"}, **keywords)
    gained = on.choices.loc["S", "estimate"] - off.choices.loc["S", "estimate"]
    assert 2 * weis <= gained <= 2 * weis + 80, (weis, gained)  # shields count twice
    doubled = cardmc.advise("schieber", settings={"multipliers": "2,2,2,2,2,2"}, **keywords)
    assert doubled.choices.loc["C", "estimate"] == pytest.approx(
        2 * on.choices.loc["C", "estimate"], rel=0.02
    )


def test_a_differenzler_declaration_follows_the_hand():
    strong = cardmc.advise(
        "differenzler", hand="AS KS QS JS 9S TS AH AD AC", dealer=3, trump_card="6S", samples=1024, seed=1
    )
    weak = cardmc.advise(
        "differenzler", hand="6C 7C 8C 6D 7D 8D 6H 7H 8H", dealer=3, trump_card="6S", samples=1024, seed=1
    )
    assert strong.decision == "declaration" and strong.view["me"] == 0
    assert int(strong.best) >= 100 and int(weak.best) <= 20, (strong.best, weak.best)
    for a in (strong, weak):
        assert a.best in a.choices.index
        assert a.choices.loc[a.best, "estimate"] == a.choices["estimate"].min()
        assert a.policies["heuristic"] in a.choices.index  # the rule's own declaration has its row


@pytest.mark.parametrize("policy", ["heuristic", "learned"])
def test_each_player_chooses_at_the_start_as_the_traced_seat_did(policy):
    pushes = 0
    for settings in ({}, {"weis": "off", "multipliers": "1,1,1,1,1,1"}):
        (line,) = cardmc.trace("schieber", games=1, seed=21, policy=policy, **settings)
        for deal in line["deals"][:12]:
            forehand = deal["forehand"]
            keywords = dict(dealer=(forehand - 1) % 4, samples=16, settings=line["rules"], policy=policy)
            chose = cardmc.advise("schieber", hand=deal["hands"][forehand], **keywords)
            assert chose.policies[policy] == ("push" if deal["pushed"] else deal["contract"]), deal
            if deal["pushed"]:
                pushes += 1
                partner = (forehand + 2) % 4
                after = cardmc.advise("schieber", hand=deal["hands"][partner], pushed=True, **keywords)
                assert after.view["me"] == partner and after.policies[policy] == deal["contract"]
    assert pushes >= 2


def test_each_declaration_rule_declares_at_the_start_as_the_traced_seat_did():
    seats = ("heuristic", "calibrated", "heuristic", "calibrated")
    (line,) = cardmc.trace("differenzler", games=1, seed=7, policy=",".join(seats))
    for deal in line["deals"][:2]:
        for seat, rule in enumerate(seats):
            a = cardmc.advise(
                "differenzler",
                hand=deal["hands"][seat],
                seat=seat,
                dealer=deal["dealer"],
                trump_card=deal["trump_card"],
                samples=16,
                policy=rule,
            )
            assert a.view["me"] == seat and a.policies[rule] == str(deal["declared"][seat]), (deal, seat)


@pytest.mark.parametrize(
    "game, view",
    [
        ("schieber", dict(hand=TOP_TRUMPS, dealer=2)),
        ("differenzler", dict(hand=TOP_TRUMPS, dealer=2, seat=1, trump_card="7C")),
    ],
)
def test_the_same_start_advice_whatever_the_threads(game, view):
    keywords = dict(samples=3000, seed=5, policy="heuristic,random", **view)
    one = cardmc.advise(game, threads=1, **keywords)
    two = cardmc.advise(game, threads=2, **keywords)
    assert one.choices.equals(two.choices) and one.best == two.best and one.policies == two.policies


IMPOSSIBLE_STARTS = [
    ("schieber", dict(hand="JS 9S AS KS QS TS 8S 6H", dealer=3), "holds 9 cards"),
    ("schieber", dict(hand="JS 9S AS KS QS TS 8S 6H 6H", dealer=3), "twice"),
    ("schieber", dict(hand=TOP_TRUMPS, dealer=3, seat=2), "seat 0 chooses"),
    ("schieber", dict(hand=TOP_TRUMPS, dealer=3, pushed=True, chooser=0), "seat 2 chooses"),
    ("schieber", dict(hand=TOP_TRUMPS, dealer=3, settings={"forehand_push": "never"}), "rule options"),
    ("differenzler", dict(hand=TOP_TRUMPS, dealer=3), "trump card"),
    ("differenzler", dict(hand=TOP_TRUMPS, dealer=3, trump_card="JS"), "dealer"),
    ("differenzler", dict(hand=TOP_TRUMPS, dealer=0, seat=0, trump_card="7C"), "dealer"),
]


@pytest.mark.parametrize("game, view, words", IMPOSSIBLE_STARTS)
def test_an_impossible_start_is_a_usage_error(game, view, words):
    with pytest.raises(UsageError, match=words):
        cardmc.advise(game, samples=16, **view)


def test_the_command_line_advises_a_start_and_refuses_an_impossible_one(tmp_path, capsys):
    out = tmp_path / "start.csv"
    args = [
        "advise",
        "schieber",
        "--hand",
        TOP_TRUMPS,
        "--dealer",
        "3",
        "--samples",
        "512",
        "--out",
        str(out),
    ]
    assert main([*args, "--set", "weis=off", "--policy", "heuristic,pimc"]) == 0
    text = capsys.readouterr().out
    assert "== contracts" in text and "best: S" in text
    chosen = dict(x.split(": ") for x in text.splitlines() if x.startswith(("heuristic: ", "pimc: ")))
    assert chosen["heuristic"] == chosen["pimc"]  # a pimc seat chooses its contract as the heuristic
    head, *rows = out.read_text().splitlines()
    assert head.startswith("contract,estimate") and head.endswith("best,policy_heuristic,policy_pimc")
    assert len(rows) == 7
    for bad in (
        ["schieber", "--hand", TOP_TRUMPS[:-3], "--dealer", "3"],
        ["schieber", "--hand", TOP_TRUMPS, "--dealer", "3", "--seat", "1"],
        ["schieber", "--hand", TOP_TRUMPS, "--dealer", "3", "--set", "contract=S"],
        ["differenzler", "--hand", TOP_TRUMPS, "--dealer", "3"],
        ["differenzler", "--hand", TOP_TRUMPS, "--dealer", "3", "--trump-card", "AS"],
    ):
        assert main(["advise", *bad, "--samples", "16"]) == 2
        err = capsys.readouterr().err
        assert err.startswith("cardmc: error: ") and err.count("\n") == 1, err


def test_the_command_line_advises_a_card_without_pandas_or_scipy():
    # each takes 0.1-0.3 s to load: the cards' table is written without pandas (nor pyarrow), and numba
    # loads without importing scipy.linalg for its BLAS probe
    view = dict(hand="JS 9S AS KH QH TD 8D", dealer=3, contract="S", plays="6C 7C AC 8C KC 9C TC QC")
    argv = ["advise", "schieber", "--samples", "2", "--policy", "heuristic,random,pimc"]
    argv += [x for k, v in view.items() for x in (f"--{k}", str(v))]
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "cardmc.cli", *argv],
        capture_output=True,
        text=True,
        check=True,
    )
    loaded = {x.rsplit("|", 1)[-1].strip() for x in done.stderr.splitlines() if x.startswith("import time:")}
    assert "numba" in loaded and not loaded & {"pandas", "pyarrow", "scipy.linalg"}
    a = cardmc.advise("schieber", samples=2, policy="heuristic,random,pimc", **view)
    assert done.stdout == advise.show(a) + "\n" == advise.show(dataclasses.replace(a, table=a.choices)) + "\n"
    assert list(a.choices.index) == ["8D", "TD", "QH", "KH", "9S", "JS", "AS"] and a.choices["n"].eq(2).all()


def test_the_command_as_a_process_writes_its_answer_and_exit_code(tmp_path):
    # run as the process's command line, cardmc advise ends the process as soon as its answer is written
    out = tmp_path / "a.csv"
    view = dict(hand=ONE_CLUB, plays="AC", dealer=3, samples=2, policy="heuristic")
    run = [sys.executable, "-m", "cardmc.cli", "advise", "schieber"]
    run += [x for k, v in view.items() for x in (f"--{k}", str(v))]
    done = subprocess.run([*run, "--contract", "S", "--out", str(out)], capture_output=True, text=True)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout == f"{advise.show(cardmc.advise('schieber', contract='S', **view))}\n\nwrote {out}\n"
    assert out.read_text().splitlines()[0].startswith("card,estimate")
    refused = subprocess.run([*run, "--contract", "X"], capture_output=True, text=True)
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.startswith("cardmc: error: ") and refused.stderr.count("\n") == 1
