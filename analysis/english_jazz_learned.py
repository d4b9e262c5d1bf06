"""English Jazz's ``learned`` player at the Python edge: its weights file, and its training from the search
player.

The player (``cardmc.kernels.english_jazz_learned``) scores each legal card by
weights times features of what the seat has seen; its weights ship as
``kernels/data/learned_english_jazz.csv`` (``cardmc.learning``'s format).

Training (``train``, ``cardmc train english_jazz``): games of the heuristic
player; at a share ``KEEP`` of its decisions with ``depth`` tricks left or
fewer, each legal card's mean value over ``samples`` solved deals of the
unseen cards, the deal score (rules A-E) the seat can make sure of against the
other two playing together (``cardmc.learning.label``, the search player's own
search); the softmax model over the cards is fitted to them
(``cardmc.learning.fit``, ``TEMPERATURE`` score units). Decisions before
``depth`` tricks left are the model's extrapolation (its features count the
tricks left, and one of them is the heuristic's card).

The fitted weights are then refined by play (``refine``), because how well
the model plays depends most on those first tricks, which no label covers:
fits that pick the search's best card equally often (about 80% of the
labelled decisions, the heuristic's card 77%) measured from -0.14 to +0.14 a
deal against the heuristic. A coordinate search moves one weight at a time
by half itself (at least ``STEP``), up and else down, and keeps a move that
raises the learned player's score per deal against the heuristic, in
duplicate games (``versus_heuristic``: the ladder's figure, on games of seed
``REFINE_SEED`` + the training seed, not the ladder's default seed 0), by
more than ``MARGIN``; ``SWEEPS`` passes over the features.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from cardmc import learning, pimc
from cardmc.kernels import english_jazz as k
from cardmc.kernels.english_jazz_learned import FEATURES, NF
from cardmc.kernels.events import EV_DEAL, EV_PLAY

WEIGHTS_FILE = "learned_english_jazz.csv"
TEMPERATURE = 0.5  # score units: a card's target share is exp(mean value / TEMPERATURE), normalised
KEEP = 0.35  # the share of a game's searched decisions labelled (neighbours differ little)
GAMES = 4000  # games of a seating a candidate of the refinement plays (at most as many as decisions labelled)
SWEEPS = 4  # passes of the refinement over the features
STEP = 50  # the least move of a weight
MARGIN = 0.003  # score a deal a move must gain to be kept
REFINE_SEED = 1000

WEIGHTS = learning.WeightsFile(WEIGHTS_FILE, FEATURES)
weights_path = WEIGHTS.path  # the shipped weights file, beside the kernels
read_weights = WEIGHTS.read  # the int weights of a weights file in FEATURES' order
shipped_weights = WEIGHTS.shipped  # the shipped weights (read once a process)
weights_text = WEIGHTS.text  # a weights file's text: its head as # lines, then feature,weight rows


def view_features(view: dict, weights: np.ndarray) -> tuple[list[int], np.ndarray, int]:
    """The legal cards of the seat of ``view`` (``cardmc.pimc.seen``'s), their features, a row each (lowest
    code first), and the card ``weights`` play."""
    plays = np.array([c for _, c in view["plays"]] or [0], np.int64)
    seats = np.array([s for s, _ in view["plays"]] or [0], np.int64)
    feats = np.zeros((k.TRICKS, NF), np.int64)
    legal, card = k.view_learned(
        np.uint64(view["hand"]), plays, seats, len(view["plays"]), view["me"], weights, feats
    )
    cards = [c for c in range(64) if int(legal) >> c & 1]
    return cards, feats[: len(cards)], int(card)


def deal_decisions(events: np.ndarray, depth: int) -> list[int]:
    """The event number of each play with ``depth`` tricks left or fewer and more than one legal card."""
    out = []
    count = 0
    for i, (kind, _, _, c) in enumerate(events.tolist()):
        if kind == EV_DEAL:
            count = 0
        elif kind == EV_PLAY:
            if k.TRICKS - count // k.PLAYERS <= depth and c & (c - 1):
                out.append(i)
            count += 1
    return out


def label_game(index: int, seed: int, params: np.ndarray, depth: int, samples: int, tt) -> list[tuple]:
    """The labelled decisions of game ``index`` of ``seed``, every seat heuristic: (features, mean values)."""
    policies = np.full((k.PLAYERS, 1), k.HEURISTIC, np.int64)
    rows = np.zeros((k.ROWS_PER_GAME, len(k.COLUMNS)), np.int32)
    events = np.zeros((k.MAX_EVENTS, 4), np.int64)
    _, nev = k.play_game(seed, index, k.PLAYERS, params, policies, rows, events)
    rng = np.random.default_rng([seed, index, learning.STREAM])
    weights = np.zeros(NF, np.int64)
    out = []
    for i in deal_decisions(events[:nev], depth):
        if rng.random() >= KEEP:
            continue
        view = pimc.seen("english_jazz", events[: i + 1], players=k.PLAYERS)
        cards, feats, _ = view_features(view, weights)
        out.append((feats, learning.label(view, cards, samples, rng, tt)))
    return out


def versus_heuristic(weights: np.ndarray, seed: int, games: int, params: np.ndarray) -> float:
    """The learned player's (``weights``) score per deal minus the heuristic's, games 0..games-1 of ``seed``
    played twice on the same deals: learned at seats 0 and 2, then at seat 1 (the ladder's figure)."""
    p = np.concatenate([params[: k.P_WEIGHTS], weights]).astype(np.int64)
    diff = np.zeros(games)
    for learned in ((True, False, True), (False, True, False)):
        policies = np.array([[k.LEARNED if x else k.HEURISTIC] for x in learned], np.int64)
        rows, _ = k.simulate(seed, 0, games, k.PLAYERS, p, policies)
        score = rows[:, k.C_SCORE].astype(float).reshape(games, k.DEALS, k.PLAYERS).mean(axis=1)
        mask = np.array(learned)
        diff += (score[:, mask].mean(axis=1) - score[:, ~mask].mean(axis=1)) / 2
    return float(diff.mean())


def refine(weights: np.ndarray, seed: int, games: int, params: np.ndarray) -> tuple[np.ndarray, float, float]:
    """The coordinate search of the module notes from ``weights`` (``cardmc.learning.refine``): (the weights,
    their figure against the heuristic before and after)."""
    return learning.refine(
        weights, lambda w: versus_heuristic(w, seed, games, params), range(len(weights)), SWEEPS, STEP, MARGIN
    )


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
    from cardmc.english_jazz import SPEC

    params = SPEC.params(SPEC.settings({}))
    head = (
        f"cardmc train english_jazz --decisions {decisions} --seed {seed} --depth {depth} --samples {samples}"
    )
    games = min(GAMES, decisions)

    def after(fitted: np.ndarray) -> tuple[np.ndarray, list[str], dict]:
        weights, before, after = refine(fitted, REFINE_SEED + seed, games, params)
        line = (
            f"refined by play: {SWEEPS} sweeps, {games} games of seed {REFINE_SEED + seed} a seating, against "
            f"the heuristic {before:+.4f} -> {after:+.4f} a deal"
        )
        return weights, [line], {"versus_heuristic": (before, after)}

    return learning.train(
        "english_jazz",
        lambda g, tt: label_game(g, seed, params, depth, samples, tt),
        decisions,
        head,
        FEATURES,
        TEMPERATURE,
        1,
        out,
        force,
        progress,
        threads,
        after,
    )
