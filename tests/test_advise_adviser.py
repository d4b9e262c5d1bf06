"""``cardmc advise`` reads a game's parts through its spec's adviser: the
decision at a deal's start (``start``) asked only by a view that does not
give it as made, and a player of the game's own (``cards``): Schieber's
``learned`` player names, at every traced decision of learned play, the
card the kernel's learned seat played."""

from __future__ import annotations

import json

import pytest

import cardmc
from cardmc import advise_start, registry

GAMES = ("schieber", "differenzler", "english_jazz", "norwegian_jazz")


@pytest.mark.parametrize("game", GAMES)
def test_a_start_is_asked_by_a_view_without_the_decision_made(game):
    spec = registry.get(game)
    start = spec.adviser.start
    assert advise_start.asks(spec, None, {}) == (start is not None)
    assert not advise_start.asks(spec, "AC", {})
    if start is not None:
        assert start.made in spec.adviser.options
        assert not advise_start.asks(spec, [], {start.made: 1})
        assert advise_start.asks(spec, " , ", {start.made: None})


def decisions(line: dict, most: int) -> list[tuple[int, int, int]]:
    """(index, deal, card) of about ``most`` traced decisions with two legal cards or more."""
    out = [
        (line["index"], j, k)
        for j, deal in enumerate(line["deals"], 1)
        for k, turn in enumerate(deal["plays"], 1)
        if len(turn["legal"]) > 1
    ]
    return out[:: max(1, len(out) // most)]


def test_advise_names_the_learned_players_traced_card(tmp_path):
    path = tmp_path / "learned.jsonl"
    cardmc.trace("schieber", games=1, seed=13, policy="learned", out=str(path))
    (line,) = [json.loads(x) for x in path.read_text().splitlines()]
    checked = differs = 0
    for index, deal, card in decisions(line, 120):
        a = cardmc.advise(
            "schieber",
            trace=str(path),
            game_index=index,
            deal=deal,
            card=card,
            samples=2,
            most_tricks=1,  # no search: the policies' cards only
            policy="learned,heuristic",
        )
        assert a.policies["learned"] == a.traced["card"], (index, deal, card)
        differs += a.policies["heuristic"] != a.traced["card"]
        checked += 1
    assert checked >= 100 and differs >= 20, (checked, differs)  # the learned card, not the heuristic's
