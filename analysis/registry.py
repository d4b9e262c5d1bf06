"""One ``GameSpec`` per game: what the generic API, CLI and driver need.

Each game module ``analysis/<game>.py`` defines ``SPEC``; ``get(name)``
imports it on first use, so a slow or broken game does not hold up others.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

GAMES = ("schieber", "differenzler", "english_jazz", "norwegian_jazz")

DEFAULT_BLOCK = 1 << 15  # games a block of a run that keeps its rows, unless the game gives its own
DEFAULT_CHUNK = (
    1 << 19
)  # games a chunk at most by default: seconds of work for every game, fewer for small runs
AGGREGATE_BLOCK = 1 << 13  # aggregate runs keep no rows: smaller blocks, flat and small memory


class UsageError(ValueError):
    """Bad input from a user: the message names the bad value."""


@dataclass(frozen=True)
class Deferred:
    """The function ``name`` of module ``module``, imported when first called
    (or ``load``ed): a spec names a game's heavier parts, such as its hand
    advice, without importing them with the game."""

    module: str
    name: str

    def load(self) -> Callable:
        return getattr(importlib.import_module(self.module), self.name)

    def __call__(self, *args, **kwargs):
        return self.load()(*args, **kwargs)


@dataclass(frozen=True)
class Option:
    """A rule or simulation option: its default, kind and allowed values.

    ``kind`` is ``"bool"``, ``"int"``, ``"choice"`` (``choices`` maps the
    names a user writes to the ints the kernel reads) or ``"ints"``: ``size``
    whole numbers in ``low..high``, written ``1,1,2,2,3,4`` (or a tuple or
    list in the API) and held as that text, so settings stay plain JSON
    values; the kernel reads them as ``size`` consecutive ``params``.
    """

    default: object
    kind: str
    help: str
    low: int | None = None
    high: int | None = None
    choices: dict[str, int] | None = None
    size: int | None = None

    def parse(self, name: str, value: object) -> object:
        """The checked value of ``value``; ``UsageError`` names a bad one."""
        from cardmc.checks import check_option

        return check_option(name, self, value)

    def code(self, value: object) -> int:
        if self.kind == "choice":
            assert self.choices is not None
            return self.choices[str(value)]
        return int(value)  # type: ignore[arg-type]

    def codes(self, value: object) -> tuple[int, ...]:
        """The ints ``value`` takes in ``params``: one, or ``size`` for an ``"ints"`` option."""
        if self.kind == "ints":
            return tuple(int(x) for x in str(value).split(","))
        return (self.code(value),)


@dataclass(frozen=True)
class Dealing:
    """What a condition on a deal (``--hand``, ``--trump-card``, ``--deal``)
    must know of the game's deals."""

    trump_card: bool = False  # each deal's dealer turns up its last card as trump (``--trump-card``)
    deals: int = 0  # when the deals of a game differ, how many: a hand condition names its deal, 1..deals
    # (players, deal) -> (deck mask, cards each seat holds, whether a seat may hold one more by where the
    # dealer sits, the deck's name in docs/RULES.md), when the deals differ
    deck: Callable[[int, int], tuple[int, list[int], bool, str]] | None = None


@dataclass(frozen=True)
class Example:
    """A small run of each of a game's entry points: ``cardmc compile``
    (``cardmc.warm``) runs them to compile the game's kernels."""

    hand: str | None  # the asking seat's hand for ``cardmc.odds`` (None: the game's own example)
    searched: str  # a policy with a search-player seat
    condition: dict = field(default_factory=dict)  # a conditioned run's keywords beside its hand (``deal``)
    searched_settings: dict = field(default_factory=dict)  # the searched run's settings beside the search's
    odds_searched: dict = field(default_factory=dict)  # keywords of an odds run with a search-player seat
    positions: tuple[dict, ...] = ()  # keywords of ``cardmc.solve`` positions, for the solver's group
    compile_seconds: int = 20  # about what the game adds to a cold compile: groups are dealt largest first


@dataclass(frozen=True)
class Study:
    """The game's study in ``cardmc report``: the module ``cardmc.reports.<module>``
    and its games in ``--quick`` and by default."""

    module: str
    quick: int
    full: int


LINEUP = (
    "random",
    "heuristic",
    "learned",
    "pimc",
    "pimc@2",
)  # ``cardmc ladder``'s players unless a game names its own


@dataclass(frozen=True)
class Ladder:
    """How ``cardmc ladder`` (``cardmc.ladder``) plays the game: its players by
    default and what it measures of one side of the table."""

    # the players by default: policy names the game parses, and ``pimc@N``, the search player searching from
    # N tricks left; a game's own player joins by its name (``lineup=(*LINEUP, "mine")``)
    lineup: tuple[str, ...] = LINEUP
    # (seats, players) -> a function of a block's rows giving one value per game for the side at ``seats`` (a
    # DataFrame indexed by game, a column per measure); None: the natural measure
    measure: Callable[[tuple[int, ...], int], Callable] | None = None
    # (rows, players) -> the decisions in the rows, for the seconds a decision; None: the tricks taken, a card
    # from every seat each
    decisions: Callable[[object, int], int] | None = None


@dataclass(frozen=True)
class SolverSpec:
    """The game as the exact solver (``cardmc.solve``) and its bench see it:
    the rules' code, the deal, the contract of a position and the values of
    its objectives (``cardmc.objectives``)."""

    code: int  # the game's code in the solver's rules array (``cardmc.kernels.solve_rules``)
    hand_size: Callable[[int], int]  # players -> cards a hand holds at the start of a deal
    dealt: Callable[[int], int]  # players -> the mask of the cards dealt
    # a contract as the user gives it -> (the rules' parameter, the trump so far or -1); UsageError names a
    # bad one
    contract: Callable[[object], tuple[int, int]]
    # (position, search, declared) -> {value name: (value, {card: value after it})}: the values ``solve``
    # gives, from ``search(objective, target=None)``, the solver's (value, value after each card) of one
    # objective for the position's seat
    values: Callable[..., dict]
    objectives: tuple[str, ...]  # the objectives a position alone defines; the first: the bench's default
    contracts: tuple = ()  # the contracts the solver bench draws from, as ``contract`` takes them
    needs_seat: bool = True  # a position names whose result it solves (``seat=``)
    last_trick: int = 0  # points the last trick adds
    match: int = 0  # added when the counted seats take every trick, taken away when they take none
    # contract -> None, or the solver of a deal the trick search does not play (Norwegian Jazz's sevens):
    # (hands, trick, to_play, seat, points, first_out_bonus, tt_mib, stop) -> a ``cardmc.solve.Solution``
    apart: Callable[[object], Callable | None] | None = None


@dataclass(frozen=True)
class SearchPlayerSpec:
    """How the search player ``pimc`` (``cardmc.pimc``) plays the game: the
    kernel's scripted seats, what a seat has seen, and what it plays for."""

    scripted: int  # the play policy code of a ``pimc`` seat, played by the kernel from the script
    samples: int  # the places of ``pimc_samples`` and ``pimc_tricks`` in ``params``
    tricks: int
    # (seed, index, players, params, policies, rows, events, cond, script, table) -> (rows, events) written
    # by one game played with ``script`` (``table``: Differenzler's calibration)
    play: Callable[..., tuple[int, int]]
    objective: str  # the solver's objective of the seat to play (``cardmc.objectives``)
    sign: int  # -1: the seat plays the card of the highest mean value (points, scores); 1: of the lowest
    # (view, deal number from 0, the deal's rows) -> adds what the seat knows beyond the events it saw:
    # ``contract``, the rules' parameter, when no event gives it
    seen: Callable[[dict, int, object], None] | None = None
    # (view, what the counted seats gained this deal) -> the target of a distance search (None: the value)
    target: Callable[[dict, int], int] | None = None
    # (view, hands) -> {card: value}: the game's own search of the cards instead of the solver
    cards: Callable[[dict, np.ndarray], dict] | None = None
    # (events, players, samples, rng, tt, params) -> the card of a decision the game searches apart
    # (Norwegian Jazz's sevens), or None
    apart: Callable[..., int | None] | None = None


@dataclass(frozen=True)
class Start:
    """How ``cardmc.advise`` answers at a deal's start (``cardmc.advise_start``):
    the seat's decision before the first card, such as a contract or a
    declaration."""

    made: str  # the view's keyword that gives the decision as made: a view with it asks for a card
    # (an ``advise_start.Ask``) -> an ``advise_start.Choices``: each choice's estimate, the best choice and each
    # policy's choice; UsageError names a bad or missing value
    choices: Callable[[object], object]


@dataclass(frozen=True)
class Adviser:
    """How ``cardmc.advise`` sees one seat's view of a deal in progress:
    what the game adds to the plays (a contract, a trump card, a deal
    number), how its heuristic (and any player of its own) plays one card
    from the view, what a card's estimate measures, and its decision at a
    deal's start."""

    measure: str  # the estimate of each card, in the game's words
    # the view's own keywords (``cardmc.advise(game, ..., contract="S")``) -> their help
    options: dict[str, str]
    # (view, {keyword: value or None}) -> None: adds the game's keys to the view (``contract``, the solver's
    # parameter, and what its heuristic reads); UsageError names a bad or missing value
    view: Callable[[dict, dict], None]
    # (a trace line, one of its deal objects, the seat to play) -> the game's keywords of that seat's view
    traced: Callable[[dict, dict, int], dict]
    # (view, params) -> the card the heuristic plays; ``params``: the options' (``GameSpec.params``), with or
    # without what a spec appends to them
    heuristic: Callable[[dict, np.ndarray], int]
    # (view, what the counted seats gained so far this deal, a search's value) -> the estimate of a card
    value: Callable[[dict, int, int], float]
    random: int = 0  # the play policy code of random play
    # play policy code -> (view, params) -> the card that player plays, for the game's own players (Schieber's
    # learned); a code other than these, random's and pimc's plays as the heuristic
    cards: dict[int, Callable[[dict, np.ndarray], int]] = field(default_factory=dict)
    start: Start | None = None  # the decision before the first card; None: the game has none


@dataclass(frozen=True)
class Solved:
    """The solver's columns of a run simulated with ``solve=True``
    (``cardmc.solve_deals``) and the game's tables of them
    (``cardmc.solved_tables``): additive like every aggregate."""

    columns: tuple[str, ...]  # the ``solved_*`` columns, one row per seat per deal
    # (solve, deal, hands, leader, players, tt_mib) -> the columns of each seat of one deal of a trace line;
    # ``solve(**position)`` is ``cardmc.solve.solve`` of this game
    deal: Callable[..., list[dict]]
    aggregate: Callable  # rows with the columns -> {table name: additive table}
    summarise: Callable  # merged tables -> the solved table
    table: str  # the solved table's name


@dataclass(frozen=True)
class GameSpec:
    """Everything generic code needs to know about one game."""

    name: str
    title: str
    deck: int
    players: tuple[int, ...]
    default_players: int
    rules: dict[str, Option]
    options: dict[str, Option]
    policies: tuple[str, ...]
    default_policy: str
    unit: str  # what one simulated "game" is, e.g. "game of 4 deals"
    parse_policy: Callable[[str, int], np.ndarray]
    simulate_block: Callable[
        ..., np.ndarray
    ]  # (seed, start, count, players, params, policies, *, out=None) -> rows
    # the same rows as the kernel left them, (rows, spans) (join_spans), for readers that take them span by
    # span; its ``after(p, rows, lo, hi)`` reads each slice's rows on the thread that wrote them, right after
    simulate_spans: Callable[..., tuple[np.ndarray, np.ndarray]]
    frame: Callable[[np.ndarray], object]  # rows -> DataFrame
    trace_game: Callable[..., dict]  # (seed, index, players, settings, policy) -> TRACE.md line
    analyze: Callable[..., dict]  # DataFrame -> {table name: DataFrame}
    columns: tuple[str, ...] = ()
    dealing: Dealing = Dealing()
    example: Example | None = None
    study: Study | None = None
    # how the engine runs and reads the game's rows
    layout: object = None  # frames.Columns: one typed array per row column
    dense_rows: Callable[[int, np.ndarray], int] | None = (
        None  # (players, params) -> rows a game writes, when
    )
    # every game writes its rows one after another (the run in memory splits them as they are written)
    block: int = DEFAULT_BLOCK  # games a block of a run that keeps its rows
    aggregate_block: int | Callable[[int], int] = (
        AGGREGATE_BLOCK  # games a block of an aggregate run on several
    )
    # threads (a number, or a function of the players)
    chunk_games: int = DEFAULT_CHUNK  # games a chunk at most, by default
    # the game's aggregate tables: ``tally(spec, players, params)`` counts them from row blocks, and
    # ``aggregate(df)`` / ``summarise(aggregates)`` make and read them from a frame
    tally: Callable | None = None
    aggregate: Callable | None = None
    summarise: Callable | None = None
    # ``cardmc.odds(game, hand, ...)``: the game's hand advice, ``advice(hand=None, **options)`` -> an
    # ``cardmc.odds.Odds`` (a ``Deferred``: the advice is imported when first asked)
    advice: Callable | None = None
    # ``cardmc.compare``'s natural measure: ``natural_measure(seats, players)`` -> a function of a block's
    # rows giving one value per game for the measured seats (a DataFrame indexed by game, a column per
    # measure)
    natural_measure: Callable[[tuple[int, ...], int], Callable] | None = None
    # ``cardmc bench GAME``: (label, policy, settings) of each row, and games a timed run
    bench: tuple[tuple[str, str, dict], ...] = (("random", "random", {}), ("heuristic", "heuristic", {}))
    bench_games: int = 200_000
    # the exact solver, the search player ``pimc`` and runs with ``solve=True``
    solver: SolverSpec | None = None
    search_player: SearchPlayerSpec | None = None
    solved: Solved | None = None
    # ``cardmc.advise``: a seat's view of a deal in progress and its heuristic's card
    adviser: Adviser | None = None
    # ``cardmc ladder``: every pair of players in duplicate
    ladder: Ladder = Ladder()
    # ``cardmc train GAME``: fits the game's ``learned`` player to the search player,
    # ``trainer(decisions, seed, depth, samples, out, force, progress, threads)`` -> what it did (a dict)
    trainer: Callable | None = None
    # ``cardmc train GAME --start``: fits the learned player's decision at a deal's start to its own play
    # (Schieber: its contract weights), ``start_trainer(games, seed, out, force, progress)`` -> what it did
    start_trainer: Callable | None = None
    # the players ``cardmc odds`` assumes when none is given: the learned player where it is the stronger for
    # the hands odds are asked about; None: ``default_policy`` (English Jazz: its learned player, stronger on
    # average, forgoes the sweeps of the strongest hands, which its odds are asked about)
    odds_policy: str | None = None

    def settings(self, given: dict[str, object] | None = None) -> dict[str, object]:
        """Defaults overlaid with ``given`` (rule and simulation options), checked."""
        known = {**self.rules, **self.options}
        out = {name: opt.default for name, opt in known.items()}
        for name, value in (given or {}).items():
            if name not in known:
                raise UsageError(
                    f"unknown option {name!r} for {self.name}; options: {', '.join(known) or 'none'}"
                )
            out[name] = known[name].parse(name, value)
        return out

    def params(self, settings: dict[str, object]) -> np.ndarray:
        """The int64 parameter array the kernel reads: rules then options (an ``"ints"`` option
        takes ``size`` places)."""
        known = {**self.rules, **self.options}
        return np.array([x for n in known for x in known[n].codes(settings[n])], dtype=np.int64)

    def rule_settings(self, settings: dict[str, object]) -> dict[str, object]:
        return {n: settings[n] for n in self.rules}

    def check_players(self, players: int | None) -> int:
        if players is None:
            return self.default_players
        from cardmc.checks import check_players

        return check_players(self.name, self.players, players)


def get(name: str) -> GameSpec:
    """The spec of game ``name``; ``UsageError`` names an unknown game."""
    if name not in GAMES:
        raise UsageError(f"unknown game {name!r}; games: {', '.join(GAMES)}")
    return importlib.import_module(f"cardmc.{name}").SPEC


def available() -> list[str]:
    """Games whose module is present in this installation."""
    out = []
    for name in GAMES:
        try:
            importlib.import_module(f"cardmc.{name}")
        except ModuleNotFoundError:
            continue
        out.append(name)
    return out


def seat_names(text: object, players: int, game: str, example: str = "heuristic") -> list[str]:
    """The policy name of each seat from ``"name"`` (every seat) or a comma
    list with one name per seat; ``UsageError`` names what does not fit."""
    if not isinstance(text, str) or not text.strip():
        raise UsageError(f"policy must be a name such as {example!r}, not {text!r}")
    parts = [p.strip() for p in text.split(",")]
    if len(parts) == 1:
        parts = parts * players
    if len(parts) != players:
        raise UsageError(f"policy {text!r} names {len(parts)} seats; {game} has {players} players here")
    return parts


def seat_codes(text: object, players: int, game: str, names: dict[str, int]) -> np.ndarray:
    """Per-seat policy codes, shape (players, 1), for games with one policy column."""
    out = np.zeros((players, 1), dtype=np.int64)
    for s, part in enumerate(seat_names(text, players, game)):
        if part not in names:
            raise UsageError(f"unknown policy {part!r}; policies: {', '.join(names)}")
        out[s, 0] = names[part]
    return out


def compact(rows: np.ndarray, nrows: np.ndarray, per_game: int) -> np.ndarray:
    """The written rows of a batch kernel's output: game j wrote
    ``rows[j * per_game : j * per_game + nrows[j]]``."""
    if (nrows == per_game).all():
        return rows
    keep = np.arange(per_game)[None, :] < nrows[:, None]
    return rows[keep.ravel()]


def whole(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows written one after another, as (rows, spans) of one span."""
    return rows, np.array([[0, len(rows)]], np.int64)


def join_spans(rows: np.ndarray, spans: np.ndarray) -> np.ndarray:
    """The written rows of a batch kernel whose slices wrote their games' rows
    one after another: slice s wrote ``rows[first : first + n]`` with
    ``spans[s] = (first, n)``. The spans are moved together in place (a few
    large copies, in slice and so game order)."""
    out = 0
    for first, n in spans.tolist():
        if first != out:
            rows[out : out + n] = rows[first : first + n]  # numpy copes with the overlap
        out += n
    return rows[:out]
