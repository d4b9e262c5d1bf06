"""``cardmc advise`` / ``cardmc.advise``: advice from one seat's view, for every game.

Hand-built views whose best card is forced, views read from traces (the
heuristic's card from the view is the card the kernel's heuristic seat
played, and the view's legal cards the trace's), the same answer whatever
the threads, and impossible views refused in one line."""

from __future__ import annotations

import json

import pytest

import cardmc
from cardmc import advice_view, registry
from cardmc.cli import main
from cardmc.kernels import cards as C
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
    assert list(a.cards.index) == ["6C"]
    assert a.best == "6C"
    assert a.policies == {"heuristic": "6C", "random": "6C", "pimc": "6C"}
    assert int(a.cards.loc["6C", "n"]) == 0 and a.notes[0].startswith(
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
        a.cards.loc["2H", "estimate"] == 11 and a.cards.loc["AS", "estimate"] == 12
    )  # 11 tricks taken before
    assert a.cards.loc["2H", "se"] == 0 and a.cards.loc["AS", "se"] == 0  # the same in every sample
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
    assert set(a.cards.index) == set(a.traced["legal"])
    assert a.best in a.cards.index and a.cards["n"].eq(4).all()


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
    assert one.cards.equals(two.cards) and one.best == two.best and one.policies == two.policies
    other = cardmc.advise(game, threads=2, **{**keywords, "seed": 10})
    assert other.cards.index.equals(one.cards.index)


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
