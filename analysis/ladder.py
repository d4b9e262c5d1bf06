"""Ladders: every pair of players in duplicate, on the same deals.

A **player** of a ladder is a policy name the game parses, played at every
one of its seats (``heuristic``, Differenzler's ``calibrated`` or
``pimc:heuristic``), or ``NAME@N``: a search player searching from N tricks
left (``pimc@2`` is ``pimc`` with ``pimc_tricks=2``). The **lineup** is the
list of players; by default the game's (its spec's ``ladder.lineup``).

Each player meets every player before it in the lineup, X (the later) against
Y: every game is played twice on the same deals (``cardmc.compare``'s arms,
game i of the seed dealing the same cards in both), X at the even seats and Y
at the odd ones, then the seats swapped. A game's figure is the game's own
measure (its spec's ``ladder.measure``, else its natural measure) of X's
seats minus Y's, the mean of its two seatings; the estimate is the mean over
games with a 95% normal interval, paired on the deals. So X against itself
gives exactly 0, and Y against X the same figure with the sign changed.

One search depth plays at a table: two search players at different depths
(``pimc`` and ``pimc@2``) are not paired, and the ladder says so.

The seconds a decision of each player are timed apart: every seat playing
it, on one thread, over the seed's first games until ``TIMING_SECONDS`` have
passed (the time of those games divided by their decisions: the cards played
and, in Norwegian Jazz's sevens, the passes).
"""

from __future__ import annotations

import itertools
import sys
import time
from dataclasses import dataclass

import numba
import pandas as pd

from cardmc import CallableModule, checks, registry
from cardmc.compare import Arm, compare
from cardmc.progress import bar
from cardmc.registry import UsageError

GAMES = 10_000  # games of a pair at most, by default
SEARCH_GAMES = 100  # games of a pair with a search player at most, by default
BLOCK = 10_000  # games of a round; a pair with a search player plays a game a thread a round
DEPTH = "pimc_tricks"  # the search player's depth, an option of every game
TIMING_SECONDS = 1.0  # each player's timing run lasts this long at least
TIMING_GAMES = 50_000  # games of a timing run at most


@dataclass(frozen=True)
class Player:
    """A ladder's player: its name, its policy (every seat) and the settings it plays with."""

    name: str
    policy: str
    settings: tuple[tuple[str, object], ...] = ()
    search: bool = False  # plays the search player at a seat


def player(spec, name: object, players: int, rules: dict) -> Player:
    """The player ``name`` (a policy name, or ``NAME@N`` for a search player's depth) as the game plays it;
    ``UsageError`` names a bad one. A search player carries its depth, ``N`` or ``rules``' own."""
    if not isinstance(name, str) or not name.strip() or "," in name:
        raise UsageError(f"a player is one policy name, such as 'heuristic' or 'pimc@2', not {name!r}")
    policy, at, depth = name.strip().partition("@")
    codes = spec.parse_policy(policy, players)
    search = spec.search_player is not None and bool((codes[:, 0] == spec.search_player.scripted).any())
    if at and not search:
        raise UsageError(f"player {name!r}: @N is a search player's depth, and {policy!r} does not search")
    if not search:
        return Player(name.strip(), policy)
    settings = spec.settings({**rules, **({DEPTH: depth} if at else {})})
    return Player(name.strip(), policy, ((DEPTH, settings[DEPTH]),), True)


def check_lineup(spec, names, players: int, rules: dict) -> list[Player]:
    """The checked players of ``names`` (None: the game's lineup); ``UsageError`` names a bad one."""
    if names is None:
        names = spec.ladder.lineup
    if isinstance(names, str) or not hasattr(names, "__iter__"):
        raise UsageError(f"a lineup is a list of two or more players, not {names!r}")
    out = [player(spec, n, players, rules) for n in names]
    if len(out) < 2:
        raise UsageError(f"a ladder pairs two players or more, not {len(out)}")
    seen = [p.name for p in out]
    for name in seen:
        if seen.count(name) > 1:
            raise UsageError(f"player {name!r} is given twice")
    return out


def pairs(players: list[Player]) -> list[tuple[Player, Player]]:
    """Each player against every one before it: (X, Y), X the later."""
    return [(x, y) for y, x in itertools.combinations(players, 2)]


def table_settings(x: Player, y: Player) -> dict | None:
    """The settings X and Y play with at one table, or None when they need different values of one."""
    out = dict(x.settings)
    for key, value in y.settings:
        if out.setdefault(key, value) != value:
            return None
    return out


def seatings(x: Player, y: Player, players: int) -> tuple[str, str]:
    """The policy text of the two seatings: X at the even seats and Y at the odd ones, then swapped."""
    first = ",".join(x.policy if s % 2 == 0 else y.policy for s in range(players))
    second = ",".join(y.policy if s % 2 == 0 else x.policy for s in range(players))
    return first, second


def side_difference(spec, players: int):
    """A measure for ``compare``: per game, the ladder's measures of the even seats minus the odd seats'."""
    measure = spec.ladder.measure or spec.natural_measure
    if measure is None:
        raise UsageError(f"{spec.name} has no measure for a ladder")
    even = measure(tuple(range(0, players, 2)), players)
    odd = measure(tuple(range(1, players, 2)), players)

    def even_minus_odd(rows):
        return even(rows) - odd(rows)

    return even_minus_odd


def match(
    game: str,
    x: Player,
    y: Player,
    games: int,
    seed: int,
    *,
    players: int,
    target_se: float | None,
    max_seconds: float | None,
    threads: int | None,
    progress: bool,
    rules: dict,
) -> pd.DataFrame:
    """X against Y in duplicate: by measure, the estimate of X minus Y with its 95% CI and ``n`` games (see
    the module text). ``compare`` plays the two seatings as arms; its difference, the second seating minus
    the first, is minus twice the ladder's figure of each game."""
    spec = registry.get(game)
    first, second = seatings(x, y, players)
    settings = tuple(table_settings(x, y).items())
    searched = x.search or y.search  # seconds a game: a round of a game a thread, for max_seconds
    t = compare(
        game,
        [Arm("first", first, settings), Arm("second", second, settings)],
        games=games,
        seed=seed,
        players=players,
        measure=side_difference(spec, players),
        target_se=None if target_se is None else 2 * target_se,
        max_seconds=max_seconds,
        block=(threads or numba.config.NUMBA_NUM_THREADS) if searched else BLOCK,
        threads=threads,
        progress=progress,
        **rules,
    )
    d = t.xs("second", level="arm")
    out = pd.DataFrame(
        {
            "estimate": 0.0 - d["diff"] / 2,  # 0.0 -: no -0.0 when X and Y play alike
            "se": d["diff_se"] / 2,
            "ci_low": 0.0 - d["diff_ci_high"] / 2,
            "ci_high": 0.0 - d["diff_ci_low"] / 2,
            "n": d["diff_n"].astype(int),
        }
    )
    out.insert(0, "y", y.name)
    out.insert(0, "x", x.name)
    out["stopped_by"] = t.attrs["stopped_by"]
    out["seconds"] = t.attrs["seconds"]
    return out.reset_index()


def decisions(spec, rows: pd.DataFrame, players: int) -> int:
    """The decisions in ``rows``: the spec's count (``ladder.decisions``), else the tricks taken, a card from
    every seat each."""
    if spec.ladder.decisions is not None:
        return spec.ladder.decisions(rows, players)
    return int(rows["tricks"].to_numpy().sum()) * players


def timing(game: str, x: Player, seed: int, players: int, rules: dict, seconds: float):
    """The seconds a decision of ``x``, every seat playing it on one thread: games of ``seed`` from 0, in
    rounds of twice as many each, until ``seconds`` have passed (or ``TIMING_GAMES`` games), their time
    divided by their decisions. Returns a dict of the player, that figure, the decisions, games and
    seconds."""
    from cardmc.api import simulate

    spec = registry.get(game)
    done = made = 0
    spent, count = 0.0, 1
    while spent < seconds and done < TIMING_GAMES:
        began = time.perf_counter()
        rows = simulate(
            game,
            games=count,
            seed=seed,
            start=done,
            policy=x.policy,
            players=players,
            threads=1,
            **{**rules, **dict(x.settings)},
        )
        spent += time.perf_counter() - began
        made += decisions(spec, rows, players)
        done += count
        count = min(2 * count, TIMING_GAMES - done)
    return {
        "player": x.name,
        "seconds_per_decision": spent / made,
        "decisions": made,
        "games": done,
        "seconds": spent,
    }


def ladder(
    game: str,
    lineup=None,
    games: int = GAMES,
    seed: int = 0,
    *,
    search_games: int = SEARCH_GAMES,
    players: int | None = None,
    target_se: float | None = None,
    max_seconds: float | None = None,
    threads: int | None = None,
    timed: bool = True,
    progress: bool = False,
    out=None,
    force: bool = False,
    **options,
) -> pd.DataFrame:
    """Every pair of the players of ``lineup`` (names; None: the game's lineup) in duplicate on the same deals
    (see the module text): ``games`` games a pair at most, ``search_games`` when one of the two is a search
    player, each pair stopping early once its standard errors are below ``target_se`` or after
    ``max_seconds``; ``options``: rule and simulation options of every game (a player's own depth wins).

    Returns one row per (measure, x, y): ``estimate, se, ci_low, ci_high`` of X minus Y, ``n`` games,
    ``stopped_by``, the pair's ``seconds``, and ``x_seconds``, ``y_seconds``, each player's seconds a
    decision (``timed``; else NaN). ``attrs``: game, seed, players, the lineup, ``unpaired`` (pairs that
    cannot sit at one table, with why), ``timing`` (a table by player) and the seconds taken. With ``out``
    the table is also written as CSV (atomically)."""
    spec = registry.get(game)
    games, search_games = checks.check_count("games", games), checks.check_count("search_games", search_games)
    seed, players = checks.check_seed(seed), spec.check_players(players)
    target_se = checks.check_positive("target_se", target_se)
    max_seconds = checks.check_positive("max_seconds", max_seconds)
    threads = checks.check_threads(threads)
    rules = {k: v for k, v in spec.settings(options).items() if k in options}
    entrants = check_lineup(spec, lineup, players, rules)
    if out is not None:
        checks.check_file_target(out, checks.check_flag("force", force))

    began = time.monotonic()
    parts, unpaired = [], []
    todo = pairs(entrants)
    with bar(progress, len(todo), f"ladder {game}", unit=" pairs") as shown:
        for x, y in todo:
            if table_settings(x, y) is None:
                unpaired.append((x.name, y.name, f"the search depth ({DEPTH}) is one for the whole table"))
            else:
                count = search_games if x.search or y.search else games
                parts.append(
                    match(
                        game,
                        x,
                        y,
                        count,
                        seed,
                        players=players,
                        target_se=target_se,
                        max_seconds=max_seconds,
                        threads=threads,
                        progress=progress,
                        rules=rules,
                    )
                )
            shown.update()
    if not parts:
        raise UsageError(f"no two of {', '.join(p.name for p in entrants)} can sit at one table")
    table = pd.concat(parts, ignore_index=True)
    table = pd.concat([table[table["measure"] == m] for m in dict.fromkeys(table["measure"])])  # by measure
    timings = pd.DataFrame(
        [timing(game, p, seed, players, rules, TIMING_SECONDS) for p in entrants] if timed else [],
        columns=["player", "seconds_per_decision", "decisions", "games", "seconds"],
    ).set_index("player")
    per = timings["seconds_per_decision"]
    table["x_seconds"] = table["x"].map(per).astype(float)
    table["y_seconds"] = table["y"].map(per).astype(float)
    table = table.set_index(["measure", "x", "y"])
    table.attrs.update(
        game=game,
        seed=seed,
        players=players,
        lineup=[p.name for p in entrants],
        unpaired=unpaired,
        timing=timings,
        seconds=round(time.monotonic() - began, 3),
    )
    if out is not None:
        from cardmc import files

        with files.atomic(out, force=force) as tmp:
            table.to_csv(tmp)
    return table


sys.modules[__name__].__class__ = CallableModule  # cardmc.ladder(...) calls ladder
