"""TRACE.md lines from a kernel's trace events, written once for every game.

A game kernel's ``play_game`` writes int64 events ``(kind, a, b, c)`` with the
kinds of ``cardmc.kernels.events``. ``deals`` walks them: ``EV_DEAL`` opens a
deal object, ``EV_HAND`` fills a seat's hand, ``EV_PLAY`` adds a turn, and a
game's own kinds go to that game's hooks. ``line`` lays out the keys every
line has. A game's ``trace_game`` checks its arguments (``check``), runs its
kernel, and says only what is its own: how a deal object is laid out around
its hands and plays, what its kinds add, and its totals and winners.

The module is not called ``trace``: ``cardmc.trace`` is the API function.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from cardmc.checks import check_seed
from cardmc.kernels.cards import code
from cardmc.kernels.events import EV_DEAL, EV_HAND, EV_PLAY, KINDS
from cardmc.registry import GameSpec

Layout = Callable[[int, int, int, list, list], dict]  # (number, dealer, leader, hands, plays) -> deal object
Hook = Callable[[dict, int, int, int], None]  # (deal object or None before the first deal, a, b, c)

_CODE_OF_BIT = {1 << c: code(c) for c in range(64) if c & 15 < 13}


def codes(mask: int) -> list[str]:
    """Card codes of a mask, lowest card first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(_CODE_OF_BIT[low])
        mask ^= low
    return out


def seat(value: int) -> int | None:
    """A seat or team from an event field, ``None`` for -1 (nobody)."""
    return None if value < 0 else value


def plain_deal(number: int, dealer: int, leader: int, hands: list, plays: list) -> dict:
    """The keys every deal object starts with."""
    return {"dealer": dealer, "leader": leader, "hands": hands, "plays": plays}


def skip(deal: dict | None, a: int, b: int, c: int) -> None:
    """A hook for a kind whose content the line takes from the rows."""


def deals(
    events: np.ndarray, players: int, layout: Layout = plain_deal, hooks: dict[int, Hook] | None = None
) -> list[dict]:
    """The deal objects of one game's events, in order.

    ``layout(number, dealer, leader, hands, plays)`` makes a deal's object
    around the ``hands`` and ``plays`` lists this function then fills (a pass
    is a turn with no legal card and card ``None``). ``hooks`` maps each of
    the game's own kinds to what it does; any other kind is an error.
    """
    hooks = hooks or {}
    out: list[dict] = []
    deal: dict = {}
    for kind, a, b, c in np.asarray(events, np.int64).tolist():
        if kind == EV_DEAL:
            deal = layout(a, b, c, [None] * players, [])
            out.append(deal)
        elif kind == EV_HAND:
            deal["hands"][a] = codes(b)
        elif kind == EV_PLAY:
            deal["plays"].append({"seat": a, "legal": codes(c), "card": None if b < 0 else code(b)})
        elif kind in hooks:
            hooks[kind](deal if out else None, a, b, c)
        else:
            name = next((n for n, v in KINDS.items() if v == kind), "unknown")
            raise ValueError(f"trace event kind {kind} ({name}) has no hook in this game's trace")
    return out


def seat_rows(rows: np.ndarray, deal_column: int, seat_column: int, deal: int) -> np.ndarray:
    """The rows of one deal, in seat order."""
    r = rows[rows[:, deal_column] == deal]
    return r[np.argsort(r[:, seat_column])]


def seats_where(flags: np.ndarray) -> list[int]:
    """The seats (positions) where ``flags`` is true or non-zero."""
    return [int(s) for s in np.flatnonzero(flags)]


def check(
    spec: GameSpec, seed: object, index: object, players: object, settings: dict | None
) -> tuple[int, int, int, dict]:
    """``(seed, index, players, settings)`` checked, with every option filled in;
    ``UsageError`` names a bad value."""
    seed = check_seed(seed)
    index = check_seed(index, "index")
    return seed, index, spec.check_players(players), spec.settings(settings or {})  # type: ignore[arg-type]


def line(
    spec: GameSpec,
    seed: int,
    index: int,
    players: int,
    settings: dict,
    policy: str,
    deals: list[dict],
    totals: list,
    winners: list,
    **extra: object,
) -> dict:
    """One TRACE.md line: the keys every game has, then the game's own."""
    return {
        "game": spec.name,
        "seed": int(seed),
        "index": int(index),
        "players": players,
        "rules": spec.rule_settings(settings),
        "policy": policy,
        "deals": deals,
        "totals": totals,
        "winners": winners,
        **extra,
    }
