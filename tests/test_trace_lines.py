"""The trace event kinds (one table for every game) and the one decoder of
events into TRACE.md deals; the games' traces are audited in test_*_games.py."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import cardmc
from cardmc import trace_lines
from cardmc.kernels import events
from cardmc.kernels.cards import mask_of, parse

KERNELS = ("differenzler", "schieber", "english_jazz", "norwegian_jazz", "sevens")


def test_every_kind_has_its_own_number():
    assert len(set(events.KINDS.values())) == len(events.KINDS) >= 10
    assert (events.EV_DEAL, events.EV_HAND, events.EV_PLAY) == (0, 1, 2)


@pytest.mark.parametrize("name", KERNELS)
def test_kernels_write_the_shared_kinds(name):
    module = importlib.import_module(f"cardmc.kernels.{name}")
    own = {n: getattr(module, n) for n in dir(module) if n.startswith("EV_")}
    assert own and own == {n: events.KINDS[n] for n in own}


def hand(text):
    return mask_of(parse(c) for c in text.split())


def test_deals_walks_deals_hands_plays_and_hooks():
    seen = []
    ev = np.array(
        [
            (events.EV_FACE_UP, 0, parse("JS"), 1),  # before the first deal: the hook gets None
            (events.EV_DEAL, 0, 2, 0),
            (events.EV_HAND, 1, hand("7H AS"), 0),
            (events.EV_HAND, 0, hand("2C"), 0),
            (events.EV_PLAY, 0, parse("2C"), hand("2C")),
            (events.EV_PLAY, 1, -1, 0),  # a pass
            (events.EV_DEAL, 1, 0, 1),
            (events.EV_DECLARE, 1, 57, 0),
        ],
        np.int64,
    )
    hooks = {
        events.EV_FACE_UP: lambda deal, a, b, c: seen.append((deal, a, b, c)),
        events.EV_DECLARE: lambda deal, a, b, c: deal.update(declared=b),
    }
    deals = trace_lines.deals(ev, 2, hooks=hooks)
    assert seen == [(None, 0, parse("JS"), 1)]
    assert deals == [
        {
            "dealer": 2,
            "leader": 0,
            "hands": [["2C"], ["7H", "AS"]],
            "plays": [{"seat": 0, "legal": ["2C"], "card": "2C"}, {"seat": 1, "legal": [], "card": None}],
        },
        {"dealer": 0, "leader": 1, "hands": [None, None], "plays": [], "declared": 57},
    ]
    with pytest.raises(ValueError, match="EV_DECLARE"):
        trace_lines.deals(ev[1:], 2)  # a kind the game has no hook for is an error, not skipped


def test_codes_lowest_first():
    assert trace_lines.codes(hand("AS 2C TD 6H JS")) == ["2C", "TD", "6H", "JS", "AS"]
    assert trace_lines.codes(0) == []


def test_the_api_trace_is_not_shadowed_by_the_module():
    line = cardmc.trace("english_jazz", games=1, seed=1, policy="random")[0]
    assert callable(cardmc.trace) and cardmc.trace is cardmc.api.trace
    assert line["game"] == "english_jazz" and list(line)[:9] == [
        "game",
        "seed",
        "index",
        "players",
        "rules",
        "policy",
        "deals",
        "totals",
        "winners",
    ]
