"""Solve one position of a trick game with every hand seen (double dummy).

    >>> from cardmc.solve import solve
    >>> s = solve("schieber", hands=["JS 9S", "AS 6H", "KS 7H", "QS 8H"], to_play=0, contract="S",
    ...           taken=[1, 1, 1, 1])
    >>> s.value, s.cards          # doctest: +SKIP

``solve`` checks the position (``UsageError`` names the first problem),
calls the exact search of ``cardmc.kernels.solve_search`` and returns a
``Solution``: the values of the game's objectives from the position (what is
already scored included) and, for each legal card, the same values after it.

Objectives (all values count the whole deal: ``points`` and ``taken`` say
what was scored before the position):

* Schieber: ``team0`` and ``team1``, the points the teams end with (last
  trick 5, match 100 included; times 1, Weis and Stöck not included) when
  both play best; the search maximises team 0's points minus team 1's.
* Differenzler, for ``seat``: ``sure_at_least`` (the points it can be sure
  to reach whatever the others do), ``sure_at_most`` (the points it can be
  sure not to exceed) and, given ``declared``, ``least_penalty``.
* English Jazz, for ``seat`` against the other two: ``most_tricks`` and
  ``all_tricks`` (1 when it can be sure of all 12).
* Norwegian Jazz deals 1-5 (``contract`` = the deal number), for ``seat``:
  ``held_to`` (the score the others playing together can hold it to, it
  playing best) and ``escape`` (its score when every seat helps it). Deal 6
  (sevens, ``contract=6``): see ``cardmc.solve_sevens``.
"""
from __future__ import annotations

import sys
import threading
import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from cardmc import CallableModule
from cardmc.kernels import cards as C
from cardmc.kernels import norwegian_jazz, schieber
from cardmc.kernels import solve_rules as SR
from cardmc.kernels import solve_search as S
from cardmc.registry import UsageError

GAME_CODES = {"schieber": SR.SCHIEBER, "differenzler": SR.DIFFERENZLER, "english_jazz": SR.ENGLISH_JAZZ,
              "norwegian_jazz": SR.NORWEGIAN_JAZZ}
SCHIEBER_CONTRACTS = {"C": 0, "D": 1, "H": 2, "S": 3, "obenabe": 4, "undenufe": 5}
HAND_SIZE = {"schieber": 9, "differenzler": 9, "english_jazz": 12}
NJ_HAND_SIZE = {3: 17, 4: 13, 5: 10, 6: 8, 7: 7}
LAST_TRICK = 5
MATCH = 100
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
    param: int  # Schieber contract, Differenzler trump, Norwegian Jazz deal
    trump: int  # English Jazz: -1 until set
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


def _cards(text, deck: int, what: str) -> list[int]:
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    out = []
    for p in parts:
        try:
            out.append(C.parse(p, deck))
        except ValueError:
            raise UsageError(f"unknown card {p!r} in {what} for a {deck}-card deck") from None
    return out


def _param(game: str, contract, players: int) -> tuple[int, int]:
    """(kernel parameter, English Jazz trump) of ``contract``."""
    if game == "schieber":
        if str(contract) not in SCHIEBER_CONTRACTS:
            raise UsageError(f"unknown Schieber contract {contract!r}: one of {', '.join(SCHIEBER_CONTRACTS)}")
        return SCHIEBER_CONTRACTS[str(contract)], -1
    if game == "differenzler":
        if str(contract).upper() not in C.SUITS or len(str(contract)) != 1:
            raise UsageError(f"unknown Differenzler trump {contract!r}: one of C, D, H, S")
        return C.SUITS.index(str(contract).upper()), -1
    if game == "english_jazz":
        if contract is None or str(contract).lower() == "none":
            return 0, -1
        if str(contract).upper() not in C.SUITS or len(str(contract)) != 1:
            raise UsageError(f"unknown English Jazz trump {contract!r}: none or one of C, D, H, S")
        return 0, C.SUITS.index(str(contract).upper())
    if str(contract) not in ("1", "2", "3", "4", "5"):
        raise UsageError(f"unknown Norwegian Jazz deal {contract!r}: 1 to 6")
    return int(contract), -1


def position(game: str, hands, trick=(), to_play: int | None = None, contract=None, seat: int | None = None,
             taken=None, points=None) -> Position:
    """Parse and check a position; ``UsageError`` names the first problem."""
    if game not in GAME_CODES:
        raise UsageError(f"unknown game {game!r}: one of {', '.join(GAME_CODES)}")
    deck = 52 if game == "norwegian_jazz" else 36
    players = {"schieber": 4, "differenzler": 4, "english_jazz": 3}.get(game, len(hands))
    if len(hands) != players or not 3 <= players <= 7:
        raise UsageError(f"{game} needs {players if game != 'norwegian_jazz' else '3 to 7'} hands, got {len(hands)}")
    param, trump = _param(game, contract, players)
    hs = [_cards(h, deck, f"hand {s}") for s, h in enumerate(hands)]
    tr = _cards(trick, deck, "the trick")
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
    full = HAND_SIZE.get(game) or NJ_HAND_SIZE[players]
    if not 1 <= size <= full:
        raise UsageError(f"seat {to_play} to play holds {size} cards: 1..{full} needed")
    for s in range(players):
        want = size - 1 if (s - leader) % players < k else size
        if len(hs[s]) != want:
            raise UsageError(f"seat {s} holds {len(hs[s])} cards: {want} expected with {k} in the trick")
    if seat is not None and not 0 <= int(seat) < players:
        raise UsageError(f"seat must be 0..{players - 1}, not {seat!r}")
    if seat is None and game != "schieber":
        raise UsageError(f"{game} needs seat= (whose result to solve)")
    taken = _per_seat(taken, players, "taken", full - size)
    points = _per_seat(points, players, "points", None)
    masks = np.array([C.mask_of(h) for h in hs], np.uint64)
    R = _rules(game, players, param, 0, 0)
    arr = np.full(players, 0, np.int64)
    for i, c in enumerate(tr):
        s = (leader + i) % players
        arr[:i] = tr[:i]
        legal = int(S.legal_mask(R, np.uint64(masks[s] | np.uint64(1 << c)), arr, i))
        if not (legal >> c) & 1:
            raise UsageError(f"trick card {C.code(c)} was not legal for seat {s}")
    arr[:k] = tr
    return Position(game, players, masks, arr, k, leader, param, trump, taken, points,
                    None if seat is None else int(seat))


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


# ---------------------------------------------------------------- solving


def _rules(game: str, players: int, param: int, max_side: int, counted: int, bonus: int = 0) -> np.ndarray:
    R = np.zeros(SR.R_SIZE, np.int64)
    R[SR.GAME], R[SR.PLAYERS], R[SR.PARAM] = GAME_CODES[game], players, param
    R[SR.MAX_SIDE], R[SR.COUNTED], R[SR.BONUS] = max_side, counted, bonus
    R[SR.LAST_BONUS] = LAST_TRICK if game in ("schieber", "differenzler") else 0
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


def _run(pos: Position, R: np.ndarray, tt, target: int | None = None, cards: bool = True,
         stop: threading.Event | None = None) -> tuple[int, dict[int, int]]:  # fmt: skip
    """(value, value after each legal card; ``cards=False``: none) of one
    objective; ``halt(stop)`` stops it (KeyboardInterrupt)."""
    return _stoppable(R, stop, lambda: _search(pos, R, tt, target, cards))


def _search(pos: Position, R: np.ndarray, tt, target: int | None,
            cards: bool) -> tuple[int, dict[int, int]]:  # fmt: skip
    keys, lows, highs, bests, ages, moves, scores, fr, fk = tt
    _salt[0] += 1
    R[SR.TT_MASK] = keys.size - 1
    R[SR.SALT] = (_salt[0] * 0x9E3779B97F4A7C15) % (1 << 63)  # a fresh key space: old entries never match
    flags = pos.flags(int(R[SR.COUNTED]))
    line = np.zeros(S.LINE, np.int64)
    line[:pos.k] = pos.trick[:pos.k]
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


def sides(objective: str, seat: int, players: int) -> tuple[int, int]:
    """(maximising seats, counted seats), as bit masks, of one of ``solve``'s
    values for ``seat`` (``team0``: Schieber's team 0, whoever plays)."""
    me, everyone = 1 << seat, (1 << players) - 1
    return {"team0": (0b0101, 0b0101), "sure_at_least": (me, me), "sure_at_most": (everyone ^ me, me),
            "least_penalty": (me, me), "most_tricks": (me, me), "held_to": (everyone ^ me, me),
            "escape": (0, me)}[objective]


def solve(game: str, hands, trick=(), to_play: int | None = None, contract=None, seat: int | None = None,
          declared: int | None = None, taken=None, points=None, tt_mib: float = DEFAULT_TT_MIB,
          first_out_bonus: int = 10, cards: bool = True, stop: threading.Event | None = None) -> Solution:
    """Solve one position (see the module notes for the objectives);
    ``cards=False`` skips the values after each legal card (an empty table).
    Ctrl-C, or ``halt(stop)`` from another thread, stops the search at once
    with KeyboardInterrupt."""
    if game == "norwegian_jazz" and str(contract) == "6":
        from cardmc.solve_sevens import solve_sevens

        if trick:
            raise UsageError("sevens has no trick: give the hands only (the table is every other card)")
        if stop is not None and stop.is_set():  # a sevens search is short: it is not stopped midway
            raise KeyboardInterrupt
        return solve_sevens(hands, to_play, seat, points, first_out_bonus, table(tt_mib))
    pos = position(game, hands, trick, to_play, contract, seat, taken, points)
    tt = table(tt_mib)
    t0 = time.perf_counter()
    n = pos.players
    columns: dict[str, tuple[int, dict[int, int]]] = {}
    R_nodes = []

    def rules(name):
        return _rules(game, n, pos.param, *sides(name, pos.seat, n))

    def run(name, R, target=None, shift=0, scale=1):
        v, per = _run(pos, R, tt, target, cards, stop)
        R_nodes.append(int(R[SR.NODES]))
        columns[name] = (shift + scale * v, {c: shift + scale * x for c, x in per.items()})

    if game == "schieber":
        R = _rules(game, n, pos.param, *sides("team0", 0, n), MATCH)
        v, per = _run(pos, R, tt, None, cards, stop)
        R_nodes.append(int(R[SR.NODES]))
        p0 = pos.points[0] + pos.points[2]
        p1 = pos.points[1] + pos.points[3]
        rest = _rest_points(pos)
        split = {c: _schieber_split(x, rest, p0, p1) for c, x in per.items()}
        t0v, t1v = _schieber_split(v, rest, p0, p1)
        columns["team0"] = (t0v, {c: s[0] for c, s in split.items()})
        columns["team1"] = (t1v, {c: s[1] for c, s in split.items()})
    elif game == "differenzler":
        so_far = pos.points[pos.seat]
        run("sure_at_least", rules("sure_at_least"), shift=so_far)
        run("sure_at_most", rules("sure_at_most"), shift=so_far)
        if declared is not None:
            if not 0 <= int(declared) <= 157:
                raise UsageError(f"declared must be 0..157, not {declared!r}")
            run("least_penalty", rules("least_penalty"), target=int(declared) - so_far)
    elif game == "english_jazz":
        run("most_tricks", rules("most_tricks"), shift=pos.taken[pos.seat])
        v, per = columns["most_tricks"]
        columns["all_tricks"] = (int(v == 12), {c: int(x == 12) for c, x in per.items()})
    else:
        unit = int(norwegian_jazz.UNIT_SCORE[pos.param])
        so_far = unit * pos.points[pos.seat]  # penalty units taken so far
        run("held_to", rules("held_to"), shift=so_far, scale=unit)
        run("escape", rules("escape"), shift=so_far, scale=unit)
    seconds = time.perf_counter() - t0
    value = {k: v for k, (v, _) in columns.items()}
    legal = sorted(next(iter(columns.values()))[1])
    df = pd.DataFrame({k: [per[c] for c in legal] for k, (_, per) in columns.items()},
                      index=pd.Index([C.code(c) for c in legal], name="card"))
    return Solution(game, value, df, sum(R_nodes), seconds)


def _rest_points(pos: Position) -> int:
    rest = 0
    for h in pos.hands:
        rest |= int(h)
    for c in pos.trick[:pos.k]:
        rest |= 1 << int(c)
    return sum(int(schieber.POINTS[pos.param, c]) for c in C.cards_of(rest)) + LAST_TRICK


def _schieber_split(x: int, rest: int, p0: int, p1: int) -> tuple[int, int]:
    """Team points from the searched value (team 0's future points, +100 for
    its match, -100 for the other team's match) and the points so far."""
    if x > rest:
        return p0 + x, p1
    if x < 0:
        return p0, p1 + rest + MATCH
    return p0 + x, p1 + rest - x


# ---------------------------------------------------------------- benchmark

BENCH_OBJECTIVES = {"schieber": ("team0",), "differenzler": ("sure_at_least", "sure_at_most"),
                    "english_jazz": ("most_tricks",), "norwegian_jazz": ("held_to", "escape")}  # the first: default
BENCH_OBJECTIVE = {game: objectives[0] for game, objectives in BENCH_OBJECTIVES.items()}


def _bench_side(game: str, objective: str | None, players: int) -> tuple[int, int]:
    """(maximising seats, counted seats) of a bench objective for seat 0,
    ``solve``'s own (``sides``); UsageError for an objective the game has not."""
    objective = objective or BENCH_OBJECTIVE[game]
    if objective not in BENCH_OBJECTIVES[game]:
        raise UsageError(f"objective {objective!r} is not one of {game}'s: {', '.join(BENCH_OBJECTIVES[game])}")
    return sides(objective, 0, players)


def bench_solver(game: str, positions: int = 100, seed: int = 1, tricks_left: int | None = None,
                 contract=None, players: int = 4, tt_mib: float = DEFAULT_TT_MIB,
                 objective: str | None = None, progress: bool = False) -> pd.DataFrame:  # fmt: skip
    """Time the exact value of random positions at a trick boundary with
    ``tricks_left`` tricks to play (None: whole deals), reached by random
    legal play from a random deal; one objective per game (Schieber: team 0's
    points; Differenzler: seat 0's sure points; English Jazz: seat 0's most
    tricks; Norwegian Jazz: the penalty seat 0 is held to), or ``objective``,
    one of ``BENCH_OBJECTIVES[game]`` (Differenzler's ``sure_at_most``,
    Norwegian Jazz's ``escape``). ``contract``:
    fixed, or None for a random one per position. One row per position:
    seconds, nodes, value. ``progress``: a bar on a terminal (whole deals
    may take minutes each)."""
    if game not in GAME_CODES:
        raise UsageError(f"unknown game {game!r}: one of {', '.join(GAME_CODES)}")
    if game == "norwegian_jazz" and players not in NJ_HAND_SIZE:
        raise UsageError(f"Norwegian Jazz has 3 to 7 players, not {players!r}")
    rng = np.random.default_rng(seed)
    n = players if game == "norwegian_jazz" else {"english_jazz": 3}.get(game, 4)
    max_side, counted = _bench_side(game, objective, n)
    full = HAND_SIZE.get(game) or NJ_HAND_SIZE[n]
    left = full if tricks_left is None else int(tricks_left)
    if not 1 <= left <= full:
        raise UsageError(f"tricks_left must be 1..{full}, not {tricks_left!r}")
    deck = C.deck(52 if game == "norwegian_jazz" else 36)
    if game == "norwegian_jazz":
        removed = {3: ["2D"], 4: [], 5: ["2D", "2H"], 6: ["2C", "2D", "2H", "2S"], 7: ["2D", "2H", "2S"]}[n]
        deck = np.array([c for c in deck if C.code(c) not in removed], np.int64)
    keys, lows, highs, bests, ages, moves, scores, fr, fk = table(tt_mib)
    rows = []
    from tqdm.auto import tqdm

    bar = tqdm(total=positions, unit=" positions", desc=game, leave=False, dynamic_ncols=True,
               disable=None if progress else True)  # None: shown on a terminal only
    for i in range(positions):
        order = rng.permutation(deck)
        hands = np.array([C.mask_of(order[s * full:(s + 1) * full]) for s in range(n)], np.uint64)
        choices = {"schieber": list(SCHIEBER_CONTRACTS), "differenzler": list(C.SUITS), "english_jazz": [None],
                   "norwegian_jazz": [1, 2, 3, 4, 5]}[game]
        con = contract if contract is not None else choices[rng.integers(len(choices))]
        param, trump = _param(game, con, n)
        R = _rules(game, n, param, max_side, counted, MATCH if game == "schieber" else 0)
        _salt[0] += 1
        R[SR.TT_MASK], R[SR.SALT] = keys.size - 1, (_salt[0] * 0x9E3779B97F4A7C15) % (1 << 63)
        line = np.zeros(S.LINE, np.int64)
        leader = int(rng.integers(n))
        k, leader, trump, flags = S.random_playout(R, hands, line, 0, leader, trump, 0, n * (full - left),
                                                   rng.random(n * full))
        t0 = time.perf_counter()
        v = S.value(R, keys, lows, highs, bests, ages, hands, line, k, leader, trump, flags, moves, scores, fr,
                    fk)
        rows.append((time.perf_counter() - t0, int(R[SR.NODES]), int(v), str(con)))
        bar.update()
    bar.close()
    return pd.DataFrame(rows, columns=["seconds", "nodes", "value", "contract"])


def bench_summary(df: pd.DataFrame) -> dict[str, float]:
    """Median, 99th percentile and largest solve time (ms), positions solved
    per second, mean nodes and nodes per second."""
    ms = df["seconds"] * 1000
    total = float(df["seconds"].sum())
    return {"positions": len(df), "median_ms": float(ms.median()), "p99_ms": float(ms.quantile(0.99)),
            "max_ms": float(ms.max()), "positions_per_s": len(df) / total if total > 0 else float("inf"),
            "mean_nodes": float(df["nodes"].mean()),
            "nodes_per_s": float(df["nodes"].sum()) / total if total > 0 else float("inf")}


def bench_line(game: str, positions: int = 100, seed: int = 1, tricks_left: int | None = None, contract=None,
               players: int = 4, tt_mib: float = DEFAULT_TT_MIB, objective: str | None = None) -> str:  # fmt: skip
    """The solver benchmark (``bench_solver`` after one warm-up solve) as one
    line of figures; UsageError for a bad argument. One thread, as the
    search always is. The warm-up (``first call``) also touches every page
    of the table, which the first solves of a process otherwise pay for as
    they fill it."""
    t = time.perf_counter()
    if positions < 1:
        raise UsageError(f"positions must be at least 1, not {positions}")
    bench_solver(game, 0, seed, tricks_left, contract, players, tt_mib, objective)  # the checks alone
    bench_solver(game, 1, seed + 1, 1, contract, players, tt_mib, objective)  # compile or load the cache
    table(tt_mib)[0].fill(0)  # and fault the table's memory in (up to half a second for 256 MiB), once
    warm = time.perf_counter() - t
    s = bench_summary(bench_solver(game, positions, seed, tricks_left, contract, players, tt_mib, objective,
                                   progress=True))  # fmt: skip
    left = "whole deals" if tricks_left is None else f"{tricks_left} tricks left"
    return (f"{game} {objective or BENCH_OBJECTIVE[game]} ({left}, contract {contract or 'random'}, seed {seed}): "
            f"{s['positions']} positions, "
            f"median {s['median_ms']:.2f} ms, p99 {s['p99_ms']:.2f} ms, max {s['max_ms']:.2f} ms, "
            f"{s['positions_per_s']:.1f} positions/s, {s['mean_nodes']:.0f} nodes mean, "
            f"{s['nodes_per_s'] / 1e6:.2f} M nodes/s (first call {warm:.1f} s)")


def bench_main(argv=None) -> int:
    """``python -m cardmc.solve GAME [--positions N] [--tricks-left K] ...``
    (also ``cardmc bench GAME --solver``): ``bench_line``."""
    import argparse

    p = argparse.ArgumentParser(prog="python -m cardmc.solve", description=bench_main.__doc__)
    p.add_argument("game", choices=list(GAME_CODES))
    p.add_argument("--positions", type=int, default=100, help="random positions (default 100)")
    p.add_argument("--tricks-left", type=int, default=None, help="tricks to play (default: whole deals)")
    p.add_argument("--contract", default=None, help="fixed contract, trump or deal (default: random per position)")
    p.add_argument("--players", type=int, default=4, help="Norwegian Jazz players (default 4)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--tt-mib", type=float, default=DEFAULT_TT_MIB)
    p.add_argument("--objective", default=None, help="the value solved (default: the game's first): "
                   + "; ".join(f"{g}: {', '.join(o)}" for g, o in BENCH_OBJECTIVES.items()))
    a = p.parse_args(argv)
    try:
        print(bench_line(a.game, a.positions, a.seed, a.tricks_left, a.contract, a.players, a.tt_mib, a.objective))
    except UsageError as e:
        p.error(str(e))  # one line, exit 2
    return 0


# ---------------------------------------------------------------- command line


def add_arguments(parser) -> None:
    """The options of ``cardmc solve`` (an argparse parser or subparser); they
    live with the command line, which builds them without loading the kernels."""
    from cardmc.cli import solve_arguments

    solve_arguments(parser)


def _numbers(text: str | None, name: str) -> list[int] | None:
    if text is None:
        return None
    try:
        return [int(x) for x in text.replace(",", " ").split()]
    except ValueError:
        raise UsageError(f"--{name} takes whole numbers separated by commas, not {text!r}") from None


def main(args) -> int:
    """``cardmc solve``: solve the position of the parsed ``args`` (see
    ``add_arguments``) and print the values and the table of legal cards."""
    s = solve(args.game, hands=args.hands, trick=args.trick, to_play=args.to_play, contract=args.contract,
              seat=args.seat, declared=args.declared, taken=_numbers(args.taken, "taken"),
              points=_numbers(args.points, "points"), tt_mib=args.tt_mib)
    print(s.table())
    return 0


sys.modules[__name__].__class__ = CallableModule  # cardmc.solve(...) calls solve

if __name__ == "__main__":
    raise SystemExit(bench_main())
