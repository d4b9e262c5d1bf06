"""Differenzler's ``learned`` player at the Python edge: its weights file, its declaration table, and its
training from the search player.

The player (``cardmc.kernels.differenzler_learned``) scores each legal card by
weights times features of what the seat has seen; its weights ship as
``kernels/data/learned_differenzler.csv`` (``cardmc.learning``'s format). It
declares by its own table, ``kernels/data/differenzler_calibration_learned.csv``:
per cell of hand features the median points such hands made under its own
play (``cardmc calibrate differenzler --policy learned``), as ``calibrated``
is to the heuristic's play.

Training (``train``, ``cardmc train differenzler``): games of the heuristic
player declaring as ``calibrated``; at a share ``KEEP`` of its decisions with
``depth`` tricks left or fewer, each legal card's mean value over ``samples``
solved deals of the unseen cards, the least penalty |declared - made| the
seat can be sure of (``cardmc.learning.label``); the softmax model over the
cards is fitted to them (``cardmc.learning.fit``, ``TEMPERATURE`` points,
the lower the better). Decisions before ``depth`` tricks left are the
model's extrapolation (its features count the tricks left and name the
heuristic's card, which the search player plays there).

The fitted weights are then refined by play (``refine``), because the first
tricks, which no label covers, and the declarations made for that play decide
much of how well it plays. A coordinate search (``cardmc.learning.refine``)
moves one weight at a time by half itself (at least ``STEP``), up and else
down, and keeps a move that lowers its figure against the field
(``versus_field``) by more than ``MARGIN``, on ``GAMES`` duplicate games of
seed ``REFINE_SEED`` + the training seed (not the ladder's default seed 0).
After each of its ``SWEEPS`` passes over the features the declaration table is
refitted under the new play (``declaration_table``: what ``cardmc calibrate
differenzler --policy learned`` fits, with its defaults ``TABLE_GAMES``,
``TABLE_SEED``, ``TABLE_ROUNDS``), and the next pass plays with it.

The figure against the field is the worse of the learned player's two margins
over ``calibrated``: head to head (``versus_calibrated``, the ladder's learned
minus calibrated), and against ``heuristic`` (its play and its formula's
declarations) beside calibrated's own figure there (``versus_heuristic`` minus
``calibrated_versus_heuristic``). Refined against calibrated alone, the player
learned to spoil calibrated's declarations and not to play well: on the
ladder's 10,000 games of seed 0 it beat calibrated by -6.63 penalty a hand but
the heuristic by -5.30 only, where calibrated beats it by -6.33. Refined
against the mean of the two figures it exploited the heuristic's declarations
instead (-10.55 against the heuristic, -2.51 only against calibrated); the
worse margin asks for both. From the shipped command's fit (-2.87 against
calibrated, -3.05 against the heuristic on the refinement's games, where
calibrated makes -6.26) the figure goes +3.21, then after each pass and refit
-1.90, -2.55, -2.66, -2.66, -2.71, -2.72: -2.72 against calibrated, -9.00
against the heuristic; on the ladder's games -2.63 and -8.94. The weights
file's last head line says so; the table the last pass ends with is the one
``cardmc calibrate`` then fits from the written weights, shipped beside them.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from cardmc import learning, pimc
from cardmc.kernels import differenzler as k
from cardmc.kernels.differenzler_learned import FEATURES, NF
from cardmc.kernels.events import EV_DEAL, EV_PLAY

WEIGHTS_FILE = "learned_differenzler.csv"
CALIBRATION_FILE = "differenzler_calibration_learned.csv"
TEMPERATURE = 3.0  # penalty points: a card's target share is exp(-mean penalty / TEMPERATURE), normalised
MIN_HANDS = 200  # a cell of the declaration table holds this many hands at least (calibrate's)
TABLE_BLOCK = 50_000  # games simulated at a time by the table's fit
KEEP = 0.5  # the share of a game's searched decisions labelled (neighbours differ little)
GAMES = 10_000  # games of a seating a candidate of the refinement plays
SWEEPS = 6  # passes of the refinement over the features, the declaration table refitted after each
STEP = 50  # the least move of a weight
MARGIN = 0.005  # penalty a hand a move must save to be kept
REFINE_SEED = 1000
CALIBRATED = (k.PLAY_HEURISTIC, k.DECLARE_CALIBRATED)  # the ladder's calibrated: (play, declaration) codes
HEURISTIC = (k.PLAY_HEURISTIC, k.DECLARE_HEURISTIC)  # the ladder's heuristic
LEARNED = (k.PLAY_LEARNED, k.DECLARE_LEARNED)  # the learned player: its weights' play, its own table
TABLE_GAMES, TABLE_SEED, TABLE_ROUNDS = 500_000, 20261202, 3  # the table's fit: cardmc calibrate's defaults


WEIGHTS = learning.WeightsFile(WEIGHTS_FILE, FEATURES)
weights_path = WEIGHTS.path  # the shipped weights file, beside the kernels
read_weights = WEIGHTS.read  # the int weights of a weights file in FEATURES' order
shipped_weights = WEIGHTS.shipped  # the shipped weights (read once a process)
weights_text = WEIGHTS.text  # a weights file's text: its head as # lines, then feature,weight rows


def calibration_path() -> Path:
    """The shipped declaration table of the learned player, beside the kernels."""
    return learning.data_path(CALIBRATION_FILE)


@functools.cache
def shipped_calibration() -> np.ndarray:
    """The learned player's declaration per feature cell (all -1 if the file is missing: the heuristic
    formula declares)."""
    from cardmc.differenzler import read_calibration

    path = calibration_path()
    return read_calibration(path) if path.is_file() else np.full(k.CAL_CELLS, -1, np.int64)


def view_features(view: dict, weights: np.ndarray) -> tuple[list[int], np.ndarray, int]:
    """The legal cards of the seat of ``view`` (``cardmc.pimc.seen``'s, or an advice view: ``contract`` the
    trump suit, ``declared`` the seat's declaration), their features, a row each (lowest code first), and the
    card ``weights`` play."""
    plays = np.array([c for _, c in view["plays"]] or [0], np.int64)
    seats = np.array([s for s, _ in view["plays"]] or [0], np.int64)
    feats = np.zeros((9, NF), np.int64)
    legal, card = k.view_learned(
        np.uint64(view["hand"]),
        plays,
        seats,
        len(view["plays"]),
        int(view["contract"]),
        int(view["declared"]),
        int(view["me"]),
        weights,
        feats,
    )
    cards = [c for c in range(64) if int(legal) >> c & 1]
    return cards, feats[: len(cards)], int(card)


def learned_card(view: dict, params: np.ndarray) -> int:
    """The learned player's card from an advice view, by the weights at the tail of ``params`` (the shipped
    ones when ``params`` has none)."""
    tail = params[k.P_WEIGHTS : k.P_WEIGHTS + NF]
    return view_features(view, tail if len(tail) == NF else shipped_weights())[2]


def deal_decisions(events: np.ndarray, depth: int) -> list[int]:
    """The event number of each play with ``depth`` tricks left or fewer and more than one legal card."""
    out = []
    count = 0
    for i, (kind, _, _, legal) in enumerate(events.tolist()):
        if kind == EV_DEAL:
            count = 0
        elif kind == EV_PLAY:
            if 9 - count // 4 <= depth and legal & (legal - 1):
                out.append(i)
            count += 1
    return out


def label_game(index: int, seed: int, params: np.ndarray, depth: int, samples: int, tt) -> list[tuple]:
    """The labelled decisions of game ``index`` of ``seed``, every seat heuristic declaring as calibrated:
    (features, mean least penalties)."""
    from cardmc.differenzler import calibration_table

    policies = np.tile(np.array([k.PLAY_HEURISTIC, k.DECLARE_CALIBRATED], np.int64), (4, 1))
    rows = np.zeros((k.max_rows(4, params), len(k.COLUMNS)), np.int32)
    events = np.zeros((k.max_events(params), 4), np.int64)
    _, nev = k.play_game(seed, index, 4, params, policies, calibration_table(), rows, events, k.new_scratch())
    rng = np.random.default_rng([seed, index, learning.STREAM])
    weights = np.zeros(NF, np.int64)
    out = []
    for i in deal_decisions(events[:nev], depth):
        if rng.random() >= KEEP:
            continue
        view = pimc.seen("differenzler", events[: i + 1], rows)
        cards, feats, _ = view_features(view, weights)
        out.append((feats, learning.label(view, cards, samples, rng, tt)))
    return out


def versus(
    weights: np.ndarray,
    seed: int,
    games: int,
    params: np.ndarray,
    opponent: tuple[int, int],
    player: tuple[int, int] = LEARNED,
) -> float:
    """The ``player``'s ((play, declaration) policy codes; the learned one by default, playing ``weights`` and
    declaring by the table at the tail of ``params``) penalty a hand minus the ``opponent``'s, regular deals
    only, games 0..games-1 of ``seed`` played twice on the same deals: the player at seats 0 and 2, then at
    seats 1 and 3 (the ladder's figure; lower is better)."""
    from cardmc.differenzler import calibration_table
    from cardmc.registry import join_spans

    p = np.concatenate([params[: k.P_WEIGHTS], weights, params[k.P_LEARNED_TABLE :]]).astype(np.int64)
    diff = np.zeros(games)
    for seats in ((0, 2), (1, 3)):
        policies = np.array([player if s in seats else opponent for s in range(4)], np.int64)
        rows = join_spans(*k.simulate(seed, 0, games, 4, p, policies, calibration_table()))
        rows = rows[rows[:, k.C_EXTRA] == 0]
        game, penalty = rows[:, k.C_GAME], rows[:, k.C_PENALTY].astype(float)
        mine = np.isin(rows[:, k.C_SEAT], seats)
        for side, sign in ((mine, 1), (~mine, -1)):
            total = np.bincount(game[side], weights=penalty[side], minlength=games)
            diff += sign * total / np.bincount(game[side], minlength=games) / 2
    return float(diff.mean())


def versus_calibrated(weights: np.ndarray, seed: int, games: int, params: np.ndarray) -> float:
    """``versus`` ``calibrated`` (the heuristic's play, the calibrated table's declarations): the ladder's
    learned minus calibrated."""
    return versus(weights, seed, games, params, CALIBRATED)


def versus_heuristic(weights: np.ndarray, seed: int, games: int, params: np.ndarray) -> float:
    """``versus`` ``heuristic`` (the heuristic's play and its formula's declarations): the ladder's learned
    minus heuristic."""
    return versus(weights, seed, games, params, HEURISTIC)


def calibrated_versus_heuristic(seed: int, games: int, params: np.ndarray) -> float:
    """The ladder's calibrated minus heuristic on the same games: the bar ``versus_field`` sets the learned
    player against the heuristic."""
    return versus(np.zeros(NF, np.int64), seed, games, params, HEURISTIC, CALIBRATED)


def versus_field(
    weights: np.ndarray, seed: int, games: int, params: np.ndarray, bar: float
) -> tuple[float, float, float]:
    """The refinement's objective against the field (lower is better): the worse of the learned player's two
    margins over ``calibrated``, head to head (``versus_calibrated``) and against the heuristic beside
    calibrated's own figure there (``versus_heuristic`` minus ``bar``, ``calibrated_versus_heuristic`` on
    the same games); then those two figures themselves: (objective, versus calibrated, versus heuristic)."""
    calibrated = versus_calibrated(weights, seed, games, params)
    heuristic = versus_heuristic(weights, seed, games, params)
    return max(calibrated, heuristic - bar), calibrated, heuristic


def declaration_table(
    weights: np.ndarray, params: np.ndarray, games: int, seed: int, rounds: int
) -> np.ndarray:
    """The learned player's declaration per feature cell (-1: none) under ``weights``' play, fitted as
    ``cardmc.calibrate.calibrate(policy="learned", games=games, seed=seed)`` fits it, every seat learned:
    round r plays games 0..games-1 of seed + r, declaring by the heuristic formula in round 1 and by the
    table of the round before later; each cell of ``MIN_HANDS`` regular hands or more declares the median
    points they made (``cardmc.differenzler.fit_calibration``'s, its cells ``calibration_cells``). Played
    ``TABLE_BLOCK`` games at a time."""
    from cardmc.differenzler import calibration_cells
    from cardmc.registry import join_spans

    p = np.concatenate([params[: k.P_WEIGHTS], weights]).astype(np.int64)
    table = None
    for r in range(rounds):
        declare = k.DECLARE_HEURISTIC if table is None else k.DECLARE_CALIBRATED
        policies = np.tile(np.array([k.PLAY_LEARNED, declare], np.int64), (4, 1))
        counts = np.zeros((k.CAL_CELLS, k.DEAL_POINTS + 1), np.int64)
        for start in range(0, games, TABLE_BLOCK):
            count = min(TABLE_BLOCK, games - start)
            cal = np.full(k.CAL_CELLS, -1, np.int64) if table is None else table
            rows = join_spans(*k.simulate(seed + r, start, count, 4, p, policies, cal))
            rows = rows[rows[:, k.C_EXTRA] == 0].astype(np.int64)
            cell = calibration_cells(
                *(rows[:, c] for c in (k.C_REL, k.C_TRUMPS, k.C_TRUMP_JACK, k.C_TRUMP_NINE, k.C_SIDE))
            )
            np.add.at(counts, (cell, rows[:, k.C_MADE]), 1)
        n = counts.sum(axis=1)
        cum = counts.cumsum(axis=1)
        low = (cum <= ((n - 1) // 2)[:, None]).sum(axis=1)  # the middle made points, lower and upper
        high = (cum <= (n // 2)[:, None]).sum(axis=1)
        table = np.where(n >= MIN_HANDS, np.round((low + high) / 2), -1).astype(np.int64)
    assert table is not None
    return table


def refine(
    weights: np.ndarray, seed: int, games: int, params: np.ndarray
) -> tuple[np.ndarray, np.ndarray, list]:
    """The refinement of the module notes from ``weights`` (declaring by their own table first): ``SWEEPS``
    passes of ``cardmc.learning.refine`` minimising the figure against the field (``versus_field``), one at a
    time, each under the declaration table of the weights it starts from, refitted after it
    (``declaration_table``). Returns the weights, their table and ``versus_field``'s figures (the field's,
    calibrated's, heuristic's) of each table: before the first pass and after each."""
    bar = calibrated_versus_heuristic(seed, games, params)
    table = declaration_table(weights, params, TABLE_GAMES, TABLE_SEED, TABLE_ROUNDS)
    figures = []
    for _ in range(SWEEPS):
        p = np.concatenate([params[: k.P_WEIGHTS], weights, table])
        if not figures:
            figures.append(versus_field(weights, seed, games, p, bar))
        weights, _, _ = learning.refine(
            weights, lambda w: -versus_field(w, seed, games, p, bar)[0], range(len(weights)), 1, STEP, MARGIN
        )
        table = declaration_table(weights, params, TABLE_GAMES, TABLE_SEED, TABLE_ROUNDS)
        p = np.concatenate([p[: k.P_LEARNED_TABLE], table])
        figures.append(versus_field(weights, seed, games, p, bar))
    return weights, table, figures


def train(
    decisions: int,
    seed: int,
    depth: int,
    samples: int,
    out: str | Path,
    force: bool,
    progress: bool,
    threads: int | None = None,
) -> dict:
    """Label ``decisions`` searched decisions of heuristic games, fit the model (``cardmc.learning.train``),
    refine its weights by play (``refine``) and write its weights file to ``out``."""
    from cardmc.differenzler import SPEC

    params = SPEC.params(SPEC.settings({}))
    head = (
        f"cardmc train differenzler --decisions {decisions} --seed {seed} --depth {depth} --samples {samples}"
    )

    def after(fitted: np.ndarray) -> tuple[np.ndarray, list[str], dict]:
        weights, _, figures = refine(fitted, REFINE_SEED + seed, GAMES, params)
        return (
            weights,
            [refined_line(REFINE_SEED + seed, figures)],
            {
                "versus_field": (figures[0][0], figures[-1][0]),
                "versus_calibrated": (figures[0][1], figures[-1][1]),
            },
        )

    return learning.train(
        "differenzler",
        lambda g, tt: label_game(g, seed, params, depth, samples, tt),
        decisions,
        head,
        FEATURES,
        TEMPERATURE,
        -1,
        out,
        force,
        progress,
        threads,
        after,
    )


def refined_line(seed: int, figures: list) -> str:
    """The weights file's head line of a refinement on games of ``seed`` (``figures``: ``refine``'s)."""
    field, calibrated, heuristic = zip(*figures)
    return (
        f"refined by play: {SWEEPS} sweeps, {GAMES} games of seed {seed} a seating, the declaration table "
        f"refitted after each (calibrate's {TABLE_GAMES} games of seed {TABLE_SEED}, {TABLE_ROUNDS} rounds), "
        f"against the field (the worse margin over calibrated: head to head, and against heuristic beside "
        f"calibrated's own figure) {' -> '.join(f'{x:+.4f}' for x in field)} "
        f"a hand; against calibrated {calibrated[0]:+.4f} -> {calibrated[-1]:+.4f}, against heuristic "
        f"{heuristic[0]:+.4f} -> {heuristic[-1]:+.4f}"
    )
