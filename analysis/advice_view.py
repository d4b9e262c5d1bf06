"""One seat's view of a deal in progress, checked: what ``cardmc.advise`` reads.

``build(spec, ...)`` makes the view the search player ``pimc`` decides from
(``cardmc.pimc.seen`` makes the same from a game's events): the seat to
play, its hand now and legal cards, the plays so far in order with their
seats, the trick in progress and its leader, the deal's cards and hand
size, the dealer, and what the game adds (its spec's ``adviser.view``: a
contract and who chose it, a face-up trump card and a declaration, a deal
number). Every play is checked with the rules' own legality
(``cardmc.kernels.solve_search.legal_mask``): the seat's own plays against
the hand it held, each other seat's plays against each other (a seat that
showed out of a suit cannot play it later); a card twice, a card outside
the deck, a play out of turn or a hand of the wrong size is a
``UsageError`` naming it.

``traced(spec, path, game_index, deal, card)`` reads the same from a point
of a trace (../shared/TRACE.md): the view of the seat to play before the
``card``-th card of the ``deal``-th deal of the game whose ``index`` is
``game_index``, from its hand as dealt and the plays before that card only.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from cardmc import checks
from cardmc.kernels import cards as C
from cardmc.kernels import solve_search as S
from cardmc.registry import GameSpec, UsageError


def legal(R: np.ndarray, hand: int, trick: list[int]) -> int:
    """The cards of ``hand`` the rules ``R`` allow onto ``trick`` (its cards so far)."""
    line = np.zeros(8, np.int64)
    line[: len(trick)] = trick
    return int(S.legal_mask(R, np.uint64(hand), line, len(trick)))


def card_of(text, deck: int, mask: int, what: str) -> int:
    """A card code (or a card int) of the deal's cards; ``UsageError`` names another."""
    try:
        c = int(text) if isinstance(text, (int, np.integer)) else C.parse(str(text).strip(), deck)
    except ValueError:
        raise UsageError(f"unknown card {text!r} in {what} for a {deck}-card deck") from None
    if not 0 <= c < 64 or not (mask >> c) & 1:
        raise UsageError(f"card {text!r} in {what} is not in this deal's cards")
    return c


def parse_plays(plays, deck: int, mask: int, players: int) -> list[tuple[int | None, int]]:
    """``plays`` as (seat or None, card): text of codes separated by spaces or
    commas, each ``CARD`` or ``SEAT:CARD``, or a list of such codes or of
    (seat, card) pairs."""
    if plays is None:
        return []
    items = plays.replace(",", " ").split() if isinstance(plays, str) else list(plays)
    out = []
    for i, item in enumerate(items):
        what = f"play {i + 1}"
        if isinstance(item, (tuple, list)) and len(item) == 2:
            seat, code = item
        elif isinstance(item, str) and ":" in item:
            seat, code = item.split(":", 1)
            try:
                seat = int(seat)
            except ValueError:
                raise UsageError(f"{what} {item!r}: SEAT:CARD needs a seat number") from None
        else:
            seat, code = None, item
        if seat is not None:
            seat = checks.check_seat(seat, players, f"the seat of {what}")
        out.append((seat, card_of(code, deck, mask, what)))
    return out


def build(
    spec: GameSpec, hand, seat=None, plays=None, dealer=None, players=None, own: dict | None = None
) -> dict:
    """The checked view of the seat to play (see the module notes); ``seat``,
    if given, must be that seat. ``dealer`` None: the seat before seat 0, so
    that seat 0 leads the first trick."""
    from cardmc.solve import rules_array

    n = spec.check_players(players)
    deck, size = spec.solver.dealt(n), spec.solver.hand_size(n)
    dealer = n - 1 if dealer is None else checks.check_seat(dealer, n, "dealer")
    view = {"game": spec.name, "players": n, "deck": deck, "size": size, "dealer": dealer}
    spec.adviser.view(view, own or {})
    R = rules_array(spec.name, n, view["contract"], 0, 0)  # for legality and the play's order
    given = parse_plays(plays, spec.deck, deck, n)
    if len(given) >= size * n:
        raise UsageError(f"{len(given)} plays: the deal is over after {size * n}")
    held = np.full(n, np.uint64(1 << 63), np.uint64)  # no hand runs out in the replay
    line = np.zeros(S.LINE, np.int64)
    k, leader, trump, flags = 0, (dealer + 1) % n, -1, 0
    done: list[tuple[int, int]] = []
    for i, (s, c) in enumerate(given):
        turn = (leader + k) % n
        if s is not None and s != turn:
            raise UsageError(f"play {i + 1} ({C.code(c)}) is seat {s}'s, but it is seat {turn}'s turn")
        if any(c == x for _, x in done):
            raise UsageError(f"card {C.code(c)} is played twice")
        held[turn] |= np.uint64(1 << c)
        k, leader, trump, flags, _ = S.play_card(R, held, line, i, k, leader, trump, flags, turn, c)
        done.append((turn, c))
    me = (leader + k) % n
    if seat is not None and checks.check_seat(seat, n) != me:
        raise UsageError(f"after {len(done)} plays it is seat {me}'s turn, not seat {seat}'s")
    if hand is None:
        raise UsageError(f"the hand of seat {me}, the seat to play, is needed (hand=, --hand)")
    mine = hand_mask(hand, spec.deck, deck)
    for s, c in done:
        if (mine >> c) & 1:
            raise UsageError(f"card {C.code(c)} is in the hand and was played")
    own_plays = [c for s, c in done if s == me]
    want = size - len(own_plays)
    if bin(mine).count("1") != want:
        raise UsageError(
            f"seat {me} holds {want} cards now ({size} dealt, {len(own_plays)} played), "
            f"got {bin(mine).count('1')}"
        )
    check_plays(R, done, me, mine, n)
    view.update(me=me, hand=mine, plays=done, trick=[c for _, c in done[len(done) - k :]], leader=leader)
    check_trump_card(view)
    view["legal"] = legal(R, mine, view["trick"])
    return view


def hand_mask(hand, deck: int, mask: int) -> int:
    """The hand's cards (codes separated by spaces or commas, or a list) as a
    mask; ``UsageError`` for a card twice or outside the deal."""
    items = hand.replace(",", " ").split() if isinstance(hand, str) else list(hand)
    out = 0
    for item in items:
        c = card_of(item, deck, mask, "the hand")
        if (out >> c) & 1:
            raise UsageError(f"card {C.code(c)} appears twice in the hand")
        out |= 1 << c
    return out


def check_plays(R: np.ndarray, done: list[tuple[int, int]], me: int, hand: int, n: int) -> None:
    """Each play legal: the seat's own with the cards it held then (its hand
    now and its later plays), another seat's against each of its other plays
    (holding the one, it could have played the other)."""
    for i, (s, c) in enumerate(done):
        pos = i % n
        if pos == 0:
            continue
        trick = [x for _, x in done[i - pos : i]]
        if s == me:
            then = hand | sum(1 << x for t, x in done[i:] if t == me)
            if not (legal(R, then, trick) >> c) & 1:
                raise UsageError(
                    f"play {i + 1}, {C.code(c)} by seat {s}, was not legal with the cards it held"
                )
            continue
        for j, (t, x) in enumerate(done):
            if t == s and j > i and not (legal(R, (1 << c) | (1 << x), trick) >> c) & 1:
                raise UsageError(
                    f"play {i + 1}, {C.code(c)} by seat {s}, was not legal: the seat held "
                    f"{C.code(x)}, which it played later"
                )


def check_trump_card(view: dict) -> None:
    """A face-up trump card (``trump_card``) is the dealer's until played."""
    card = view.get("trump_card")
    if card is None:
        return
    dealer = view["dealer"]
    if view["me"] != dealer and (view["hand"] >> card) & 1:
        raise UsageError(
            f"the face-up trump card {C.code(card)} is the dealer's (seat {dealer}), "
            f"not in seat {view['me']}'s hand"
        )
    for s, c in view["plays"]:
        if c == card and s != dealer:
            raise UsageError(
                f"the face-up trump card {C.code(card)} was played by seat {s}, not by the dealer "
                f"(seat {dealer})"
            )


def traced(spec: GameSpec, path, game_index, deal, card) -> tuple[dict, dict]:
    """(the keywords of ``build`` for the seat to play before card ``card``
    (from 1) of deal ``deal`` (from 1) of the game with index ``game_index``
    in the trace at ``path``, the trace's turn there: ``{"seat", "legal",
    "card"}``), with the trace's rule options as ``settings``."""
    game_index = checks.check_seed(game_index, "game index")
    deal, card = check_point("deal", deal), check_point("card", card)
    line = trace_line(path, game_index, spec.name)
    deals = line["deals"]
    if deal > len(deals):
        raise UsageError(f"game {game_index} of the trace has {len(deals)} deals, not {deal}")
    d = deals[deal - 1]
    if card > len(d["plays"]):
        raise UsageError(f"deal {deal} of game {game_index} has {len(d['plays'])} plays, not {card}")
    turn = d["plays"][card - 1]
    seat = int(turn["seat"])
    n = int(line["players"])
    before = [(int(p["seat"]), p["card"]) for p in d["plays"][: card - 1]]
    played = {c for s, c in before if s == seat}
    dealer = d["dealer"] if d.get("dealer") is not None else (int(d["leader"]) - 1) % n
    keywords = {
        "hand": [c for c in d["hands"][seat] if c not in played],
        "seat": seat,
        "plays": before,
        "dealer": int(dealer),
        "players": n,
        "own": spec.adviser.traced(line, d, seat),
        "settings": dict(line.get("rules") or {}),
    }
    return keywords, turn


def check_point(name: str, value) -> int:
    try:
        value = int(value)
    except (TypeError, ValueError):
        raise UsageError(f"{name} must be a whole number from 1, not {value!r}") from None
    if value < 1:
        raise UsageError(f"{name} counts from 1, not {value}")
    return value


def trace_line(path, game_index: int, game: str) -> dict:
    """The line of the game with index ``game_index`` of a trace of ``game``."""
    p = Path(path)
    if not p.is_file():
        raise UsageError(f"no trace file {str(path)!r}")
    indexes = []
    with p.open(encoding="utf-8") as f:
        for number, text in enumerate(f, 1):
            if not text.strip():
                continue
            try:
                line = json.loads(text)
                index, name = int(line["index"]), line["game"]
            except (ValueError, KeyError, TypeError):
                raise UsageError(
                    f"line {number} of {path} is not a trace line (../shared/TRACE.md)"
                ) from None
            if name != game:
                raise UsageError(f"line {number} of {path} is a {name} game, not {game}")
            if index == game_index:
                return line
            indexes.append(index)
    seen = f"{min(indexes)} to {max(indexes)}" if indexes else "none"
    raise UsageError(f"no game with index {game_index} in {path} (indexes {seen})")
