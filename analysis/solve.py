"""Solve one position of a trick game with every hand seen (double dummy).

    >>> from cardmc.solve import solve
    >>> s = solve("schieber", hands=["JS 9S", "AS 6H", "KS 7H", "QS 8H"], to_play=0, contract="S",
    ...           taken=[1, 1, 1, 1])
    >>> s.value, s.cards          # doctest: +SKIP

``solve`` checks the position (``UsageError`` names the first problem),
calls the exact search of ``cardmc.kernels.solve_search`` and returns a
``Solution``: the values of the game's objectives from the position (what is
already scored included) and, for each legal card, the same values after it.
All values count the whole deal: ``points`` and ``taken`` say what was
scored before the position.

What a position of a game is and which values it has are the game's own:
its spec's ``solver`` gives the contract, the deal and the values, made
from the searches of the objectives of ``cardmc.objectives``; the game's
solver module (``cardmc.schieber_solver`` and so on) says what they mean.
Schieber: ``team0`` and ``team1``; Differenzler, for ``seat``:
``sure_at_least``, ``sure_at_most`` and, given ``declared``,
``least_penalty``; English Jazz: ``most_tricks`` and ``all_tricks``;
Norwegian Jazz deals 1-5: ``held_to`` and ``escape``, and sevens (deal 6)
its own solver, ``cardmc.solve_sevens``.

Beside ``solve`` and ``position``: the rules array of a search
(``rules_array``), each thread's transposition table (``table``), a fresh
key space for a search (``fresh_keys``) and the stop of searches in
progress (``halt``).
"""

from __future__ import annotations

import sys
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from cardmc import CallableModule, registry
from cardmc.kernels import cards as C
from cardmc.kernels import solve_rules as SR
from cardmc.kernels import solve_search as S
from cardmc.objectives import sides
from cardmc.registry import GameSpec, UsageError

if TYPE_CHECKING:  # a solution's table loads it: the rules arrays and tables of a search need no pandas
    import pandas as pd

DEFAULT_TT_MIB = 256  # whole Schieber deals: 18% less time than 64 MiB over ten deals, 27% on the slowest
MAX_TT_MIB = 512
ENTRY_BYTES = 16
_tables = threading.local()  # each thread its own table and search buffers
_salt = [0]
_searching: dict[int, tuple[np.ndarray, threading.Event]] = {}  # searches in progress: id(R) -> (R, stop)
_searching_lock = threading.Lock()
_helper: list = []  # the thread that searches for the main thread, so that Ctrl-C is heard at once


@dataclass
class Position:
    """A checked position, ready for the kernels."""

    game: str
    players: int
    hands: np.ndarray  # uint64 per seat
    trick: np.ndarray  # int64, the first k cards of the trick in progress
    k: int
    leader: int
    param: int  # the rules' parameter of the contract (the game's ``solver.contract``)
    trump: int  # the trump so far where the play sets it, else -1
    taken: list[int]
    points: list[int]
    seat: int | None

    def flags(self, counted: int) -> int:
        won = [t > 0 for t in self.taken]
        f = 0
        for s in range(self.players):
            if won[s]:
                f |= S.COUNTED_WON if (counted >> s) & 1 else S.OTHER_WON
        return f


@dataclass
class Solution:
    """The objectives' values from the position, and after each legal card."""

    game: str
    value: dict[str, int]
    cards: pd.DataFrame = field(repr=False)
    nodes: int = 0
    seconds: float = 0.0

    def table(self) -> str:
        head = "  ".join(f"{k}={v}" for k, v in self.value.items())
        return f"{self.game}: {head}\n{self.cards.to_string()}\n({self.nodes} nodes, {self.seconds:.3f} s)"


# ---------------------------------------------------------------- parsing


def spec_of(game: str) -> GameSpec:
    """The spec of a game the solver plays; ``UsageError`` names another."""
    if game not in registry.GAMES:
        raise UsageError(f"unknown game {game!r}: one of {', '.join(registry.GAMES)}")
    spec = registry.get(game)
    if spec.solver is None:
        raise UsageError(f"the solver does not play {game}")
    return spec


def counts(players: tuple[int, ...]) -> str:
    """A game's player counts in words: ``4``, or ``3 to 7``."""
    return str(players[0]) if len(players) == 1 else f"{players[0]} to {players[-1]}"


def _cards(text, deck: int, what: str) -> list[int]:
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    out = []
    for p in parts:
        try:
            out.append(C.parse(p, deck))
        except ValueError:
            raise UsageError(f"unknown card {p!r} in {what} for a {deck}-card deck") from None
    return out


def position(
    game: str,
    hands,
    trick=(),
    to_play: int | None = None,
    contract=None,
    seat: int | None = None,
    taken=None,
    points=None,
) -> Position:
    """Parse and check a position; ``UsageError`` names the first problem."""
    spec = spec_of(game)
    solver = spec.solver
    players = spec.players[0] if len(spec.players) == 1 else len(hands)
    if len(hands) != players or players not in spec.players:
        raise UsageError(f"{game} needs {counts(spec.players)} hands, got {len(hands)}")
    param, trump = solver.contract(contract)
    hs = [_cards(h, spec.deck, f"hand {s}") for s, h in enumerate(hands)]
    tr = _cards(trick, spec.deck, "the trick")
    seen: set[int] = set()
    for c in [c for h in hs for c in h] + tr:
        if c in seen:
            raise UsageError(f"card {C.code(c)} appears twice")
        seen.add(c)
    k = len(tr)
    if k >= players:
        raise UsageError(f"a trick in progress has at most {players - 1} cards, got {k}")
    if to_play is None or not 0 <= int(to_play) < players:
        raise UsageError(f"to_play must be a seat 0..{players - 1}, not {to_play!r}")
    to_play = int(to_play)
    leader = (to_play - k) % players
    size = len(hs[to_play])
    full = solver.hand_size(players)
    if not 1 <= size <= full:
        raise UsageError(f"seat {to_play} to play holds {size} cards: 1..{full} needed")
    for s in range(players):
        want = size - 1 if (s - leader) % players < k else size
        if len(hs[s]) != want:
            raise UsageError(f"seat {s} holds {len(hs[s])} cards: {want} expected with {k} in the trick")
    if seat is not None and not 0 <= int(seat) < players:
        raise UsageError(f"seat must be 0..{players - 1}, not {seat!r}")
    if seat is None and solver.needs_seat:
        raise UsageError(f"{game} needs seat= (whose result to solve)")
    taken = _per_seat(taken, players, "taken", full - size)
    points = _per_seat(points, players, "points", None)
    masks = np.array([C.mask_of(h) for h in hs], np.uint64)
    R = rules_array(game, players, param, 0, 0)
    arr = np.full(players, 0, np.int64)
    for i, c in enumerate(tr):
        s = (leader + i) % players
        arr[:i] = tr[:i]
        legal = int(S.legal_mask(R, np.uint64(masks[s] | np.uint64(1 << c)), arr, i))
        if not (legal >> c) & 1:
            raise UsageError(f"trick card {C.code(c)} was not legal for seat {s}")
    arr[:k] = tr
    return Position(
        game, players, masks, arr, k, leader, param, trump, taken, points, None if seat is None else int(seat)
    )


def _per_seat(values, players: int, name: str, tricks_done: int | None) -> list[int]:
    if values is None:
        if tricks_done:
            raise UsageError(f"{name}= (per seat, so far) is needed once {tricks_done} tricks are played")
        return [0] * players
    values = [int(v) for v in values]
    if len(values) != players or min(values) < 0:
        raise UsageError(f"{name} needs {players} whole numbers >= 0, got {values!r}")
    if tricks_done is not None and sum(values) != tricks_done:
        raise UsageError(f"taken adds up to {sum(values)} tricks, but {tricks_done} were played")
    return values


# ---------------------------------------------------------------- searching


def rules_array(game: str, players: int, param: int, max_side: int, counted: int) -> np.ndarray:
    """The rules array ``R`` of one search (``cardmc.kernels.solve_rules``):
    the game's code and bonuses (its spec's ``solver``), the contract's
    parameter, and the maximising and the counted seats as bit masks
    (``cardmc.objectives.sides``)."""
    solver = spec_of(game).solver
    R = np.zeros(SR.R_SIZE, np.int64)
    R[SR.GAME], R[SR.PLAYERS], R[SR.PARAM] = solver.code, players, param
    R[SR.MAX_SIDE], R[SR.COUNTED], R[SR.BONUS] = max_side, counted, solver.match
    R[SR.LAST_BONUS] = solver.last_trick
    return R


def table(tt_mib: float = DEFAULT_TT_MIB, max_mib: float = MAX_TT_MIB):
    """This thread's transposition table of at most ``tt_mib`` MiB (kept
    between calls; one table a thread, so threads solve side by side)."""
    if not 0 < tt_mib <= max_mib:
        raise UsageError(f"tt_mib must be in (0, {max_mib}], not {tt_mib!r}")
    entries = 1 << max(10, int(np.log2(tt_mib * 2**20 / ENTRY_BYTES)))
    held = getattr(_tables, "held", None)
    if held is None or held[0] != entries:
        _tables.held = None  # the old table goes before the new one is made
        _tables.held = (entries, S.new_table(entries) + S.new_buffers())
    return _tables.held[1]


def fresh_keys(R: np.ndarray, keys: np.ndarray) -> None:
    """Points the rules ``R`` at the table of ``keys`` in a key space no
    earlier search of this process used: old entries never match."""
    _salt[0] += 1
    R[SR.TT_MASK] = keys.size - 1
    R[SR.SALT] = (_salt[0] * 0x9E3779B97F4A7C15) % (1 << 63)


def halt(stop: threading.Event) -> None:
    """Sets ``stop`` and stops every search in progress that was given it (in
    any thread): each returns within microseconds and its ``solve`` raises
    KeyboardInterrupt. So does every later ``solve`` given ``stop``."""
    with _searching_lock:
        stop.set()
        for R, event in _searching.values():
            if event is stop:
                R[SR.STOP] = 1


def _stoppable(R: np.ndarray, stop: threading.Event | None, call):
    """``call()``, the search of rules ``R``, stopped by ``halt(stop)``. In
    the main thread it runs on a helper thread while this one waits, so that
    Ctrl-C stops it at once (a signal is heard only between Python steps of
    the main thread, never inside a kernel)."""
    main = threading.current_thread() is threading.main_thread()
    if stop is None and not main:
        return call()
    stop = threading.Event() if stop is None else stop
    with _searching_lock:
        _searching[id(R)] = (R, stop)
        if stop.is_set():
            R[SR.STOP] = 1
    try:
        if not main:
            out = call()
        else:
            if not _helper:
                from concurrent.futures import ThreadPoolExecutor

                _helper.append(ThreadPoolExecutor(1, thread_name_prefix="cardmc-solve"))
            job = _helper[0].submit(call)
            try:
                out = job.result()
            except KeyboardInterrupt:
                halt(stop)
                job.exception()  # the search has stopped: its table is free again
                raise
    finally:
        with _searching_lock:
            del _searching[id(R)]
    if R[SR.STOP]:
        raise KeyboardInterrupt
    return out


def _run(
    pos: Position,
    R: np.ndarray,
    tt,
    target: int | None = None,
    cards: bool = True,
    stop: threading.Event | None = None,
) -> tuple[int, dict[int, int]]:
    """(value, value after each legal card; ``cards=False``: none) of one
    objective; ``halt(stop)`` stops it (KeyboardInterrupt)."""
    return _stoppable(R, stop, lambda: _search(pos, R, tt, target, cards))


def _search(pos: Position, R: np.ndarray, tt, target: int | None, cards: bool) -> tuple[int, dict[int, int]]:
    keys, lows, highs, bests, ages, moves, scores, fr, fk = tt
    fresh_keys(R, keys)
    flags = pos.flags(int(R[SR.COUNTED]))
    line = np.zeros(S.LINE, np.int64)
    line[: pos.k] = pos.trick[: pos.k]
    args = (R, keys, lows, highs, bests, ages, pos.hands.copy(), line, pos.k, pos.leader, pos.trump, flags)
    if target is None:
        v = S.value(*args, moves, scores, fr, fk)
    else:
        v = S.least_distance(*args, target, moves, scores, fr, fk)
    if not cards:
        return int(v), {}
    out_c = np.zeros(S.MAX_MOVES, np.int64)
    out_v = np.zeros(S.MAX_MOVES, np.int64)
    m = S.card_values(*args, -2 * S.BIG if target is None else target, out_c, out_v, moves, scores, fr, fk)
    return int(v), {int(out_c[i]): int(out_v[i]) for i in range(m)}


# ---------------------------------------------------------------- solving


def solve(
    game: str,
    hands,
    trick=(),
    to_play: int | None = None,
    contract=None,
    seat: int | None = None,
    declared: int | None = None,
    taken=None,
    points=None,
    tt_mib: float = DEFAULT_TT_MIB,
    first_out_bonus: int = 10,
    cards: bool = True,
    stop: threading.Event | None = None,
) -> Solution:
    """Solve one position (see the module notes for the values);
    ``cards=False`` skips the values after each legal card (an empty table).
    Ctrl-C, or ``halt(stop)`` from another thread, stops the search at once
    with KeyboardInterrupt."""
    import pandas as pd

    solver = spec_of(game).solver
    apart = None if solver.apart is None else solver.apart(contract)
    if apart is not None:  # a deal the trick search does not play: its own solver
        return apart(hands, trick, to_play, seat, points, first_out_bonus, tt_mib, stop)
    pos = position(game, hands, trick, to_play, contract, seat, taken, points)
    tt = table(tt_mib)
    t0 = time.perf_counter()
    n = pos.players
    me = 0 if pos.seat is None else pos.seat
    nodes = []

    def search(objective: str, target: int | None = None) -> tuple[int, dict[int, int]]:
        R = rules_array(game, n, pos.param, *sides(objective, me, n))
        found = _run(pos, R, tt, target, cards, stop)
        nodes.append(int(R[SR.NODES]))
        return found

    columns = solver.values(pos, search, declared)
    seconds = time.perf_counter() - t0
    value = {k: v for k, (v, _) in columns.items()}
    legal = sorted(next(iter(columns.values()))[1])
    df = pd.DataFrame(
        {k: [per[c] for c in legal] for k, (_, per) in columns.items()},
        index=pd.Index([C.code(c) for c in legal], name="card"),
    )
    return Solution(game, value, df, sum(nodes), seconds)


sys.modules[__name__].__class__ = CallableModule  # cardmc.solve(...) calls solve
