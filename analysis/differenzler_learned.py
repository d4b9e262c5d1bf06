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
KEEP = 0.5  # the share of a game's searched decisions labelled (neighbours differ little)


def weights_path() -> Path:
    """The shipped weights file, beside the kernels."""
    return learning.data_path(WEIGHTS_FILE)


def read_weights(path: str | Path) -> np.ndarray:
    """The int weights of a weights file in ``FEATURES``' order; ``UsageError`` naming a file that is not one."""
    return learning.read_weights(path, FEATURES)


@functools.cache
def shipped_weights() -> np.ndarray:
    """The shipped weights (read once a process)."""
    return read_weights(weights_path())


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


def weights_text(weights: np.ndarray, head: list[str]) -> str:
    """A weights file: ``head`` as ``#`` lines, then ``feature,weight`` rows."""
    return learning.weights_text(weights, FEATURES, head)


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
    """Label ``decisions`` searched decisions of heuristic games, fit the model and write its weights file to
    ``out`` (``cardmc.learning.train``)."""
    from cardmc.differenzler import SPEC

    params = SPEC.params(SPEC.settings({}))
    head = (
        f"cardmc train differenzler --decisions {decisions} --seed {seed} --depth {depth} --samples {samples}"
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
    )
