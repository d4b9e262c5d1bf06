"""Schieber's ``learned`` player at the Python edge: its weights file, and its training from the search player.

The player (``cardmc.kernels.schieber_learned``) scores each legal card by
weights times features of what the seat has seen; its weights ship as
``kernels/data/learned_schieber.csv`` (``cardmc.learning``'s format).

Training (``train``, ``cardmc train schieber``): games of the heuristic
player; at a share ``KEEP`` of its decisions with ``depth`` tricks left or
fewer, each legal card's mean value over ``samples`` solved deals of the
unseen cards, the team's points from here (``cardmc.learning.label``); the
softmax model over the cards is fitted to them (``cardmc.learning.fit``,
``TEMPERATURE`` points). Decisions before ``depth`` tricks left are the
model's extrapolation (its features count the tricks left).

The fitted weights are then refined by play (``refine``, ``cardmc.learning.refine``):
one weight at a time moves by half itself (at least ``STEP``), up and else
down, and a move is kept where it raises the learned player's points per
deal over the heuristic in duplicate matches (``versus_heuristic``, the
ladder's figure; ``GAMES`` matches of each seating, at most as many as the
decisions labelled, of seed ``REFINE_SEED`` + the training seed) by more
than ``MARGIN``; ``SWEEPS`` passes. The fit alone gained +40.9 points a deal
over the heuristic there; refined, +54.2: the early tricks, which no label
covers, are played by the model too. The contract weights
(``train_start``) are fitted to the refined card play afterwards.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from cardmc import __version__, learning, pimc
from cardmc.kernels import schieber as k
from cardmc.kernels.events import EV_CONTRACT, EV_DEAL, EV_PLAY
from cardmc.kernels.schieber_learned import CONTRACT_SCALE, FEATURES, NCONTRACT_ROW, NF

WEIGHTS_FILE = "learned_schieber.csv"
CONTRACTS_FILE = "learned_schieber_contracts.csv"
# the contract weights' rows: (family, the contract played to fit it, its Undenufe count)
FAMILIES = (("trump", "H", "ace"), ("obenabe", "obenabe", "ace"), ("undenufe", "undenufe", "ace"),
            ("undenufe six", "undenufe", "six"))  # fmt: skip
TEMPERATURE = 4.0  # points: a card's target share is exp(mean value / TEMPERATURE), normalised
KEEP = 0.35  # the share of a game's searched decisions labelled (neighbours differ little)
GAMES = 4000  # matches of a seating a move of the refinement is measured on (at most the decisions labelled)
SWEEPS = 4  # passes of the refinement over the card weights
STEP = 50  # the least move of a weight
MARGIN = 0.25  # points a deal a move must gain to be kept
REFINE_SEED = 1000


WEIGHTS = learning.WeightsFile(WEIGHTS_FILE, FEATURES)
weights_path = WEIGHTS.path  # the shipped weights file, beside the kernels
read_weights = WEIGHTS.read  # the int weights of a weights file in FEATURES' order
shipped_weights = WEIGHTS.shipped  # the shipped weights (read once a process)
weights_text = WEIGHTS.text  # a weights file's text: its head as # lines, then feature,weight rows


def _contract_features() -> tuple[str, ...]:
    from cardmc.experiments.schieber import FEATURES as EVAL_FEATURES

    names = []
    for family, _, _ in FAMILIES:
        group = EVAL_FEATURES[family.split()[0]]
        names += [f"{family}: {name if name != '-' else f'unused {i}'}" for i, name in enumerate(group)]
    return tuple(names)


CONTRACT_FEATURES = _contract_features()


@functools.cache
def shipped_contracts() -> np.ndarray:
    """The shipped contract weights (``CONTRACT_FEATURES``' order, times ``CONTRACT_SCALE``)."""
    return learning.read_weights(learning.data_path(CONTRACTS_FILE), CONTRACT_FEATURES)


@functools.cache
def learned_block(rules: int) -> np.ndarray:
    """The learned block of Schieber's ``params`` under the rules word ``rules``: the card weights, the
    contract weights and the learned forehand's push threshold, measured under those rules with them
    (``cardmc.kernels.schieber_push.learned_push_below``)."""
    from cardmc.kernels.schieber_push import learned_push_below

    block = np.concatenate([shipped_weights(), shipped_contracts(), [0]]).astype(np.int64)
    block[-1] = learned_push_below(int(rules), block)
    return block


def view_features(view: dict, chooser: int, rules: int, weights: np.ndarray) -> tuple[list[int], np.ndarray]:
    """The legal cards of the seat of ``view`` (``cardmc.pimc.seen``'s; ``chooser`` the seat that chose the
    contract) and their features, a row each (lowest code first)."""
    plays = np.array([c for _, c in view["plays"]] or [0], np.int64)
    seats = np.array([s for s, _ in view["plays"]] or [0], np.int64)
    feats = np.zeros((9, NF), np.int64)
    legal, _ = k.view_learned(
        np.uint64(view["hand"]),
        view["me"],
        plays,
        seats,
        len(view["plays"]),
        view["contract"],
        view["me"] % 2 == chooser % 2,
        rules,
        weights,
        feats,
    )
    cards = [c for c in range(64) if int(legal) >> c & 1]
    return cards, feats[: len(cards)]


def deal_decisions(events: np.ndarray, depth: int) -> list[tuple[int, int]]:
    """(event number, chooser) of each play with ``depth`` tricks left or fewer and more than one legal card."""
    out = []
    chooser, count = 0, 0
    for i, (kind, a, b, c) in enumerate(events.tolist()):
        if kind == EV_DEAL:
            count = 0
        elif kind == EV_CONTRACT:
            chooser = a
        elif kind == EV_PLAY:
            if 9 - count // 4 <= depth and c & (c - 1):
                out.append((i, chooser))
            count += 1
    return out


def label_game(index: int, seed: int, params: np.ndarray, depth: int, samples: int, tt) -> list[tuple]:
    """The labelled decisions of game ``index`` of ``seed``, every seat heuristic: (features, mean values)."""
    policies = np.full((4, 1), k.HEURISTIC, np.int64)
    rows = np.zeros((k.max_rows(4, params), k.NCOL), np.int32)
    events = np.zeros((k.EVENTS_PER_DEAL * int(k.max_deals(int(params[k.P_TARGET]))), 4), np.int64)
    _, nev = k.play_game(seed, index, 4, params, policies, rows, events)
    rng = np.random.default_rng([seed, index, learning.STREAM])
    rules, weights = int(k.rules_of(params)), np.zeros(NF, np.int64)
    out = []
    for i, chooser in deal_decisions(events[:nev], depth):
        if rng.random() >= KEEP:
            continue
        view = pimc.seen("schieber", events[: i + 1])
        cards, feats = view_features(view, chooser, rules, weights)
        out.append((feats, learning.label(view, cards, samples, rng, tt)))
    return out


def versus_heuristic(weights: np.ndarray, seed: int, games: int, params: np.ndarray) -> float:
    """The learned player's (card ``weights``; its contract and push as in ``params``) points per deal minus
    the heuristic's, matches 0..games-1 of ``seed`` played twice on the same deals: the learned team at seats
    0 and 2, then at 1 and 3 (the ladder's figure: each match's mean over its deals of the one team's score
    minus the other's, the two seatings' difference halved)."""
    from cardmc.registry import join_spans

    p = params.copy()
    p[k.P_WEIGHTS : k.P_WEIGHTS + NF] = weights
    total = 0.0
    for sign, even, odd in ((1, k.LEARNED, k.HEURISTIC), (-1, k.HEURISTIC, k.LEARNED)):
        policies = np.array([[even], [odd], [even], [odd]], np.int64)
        rows = join_spans(*k.simulate(seed, 0, games, 4, p, policies))
        first, second = rows[rows[:, k.C_SEAT] == 0], rows[rows[:, k.C_SEAT] == 1]
        diff = first[:, k.C_SCORE].astype(float) - second[:, k.C_SCORE]
        match = first[:, k.C_GAME]
        total += sign * float((np.bincount(match, diff) / np.bincount(match)).mean())
    return total / 2


def refine(weights: np.ndarray, seed: int, games: int, params: np.ndarray) -> tuple[np.ndarray, float, float]:
    """The card weights refined by play (``cardmc.learning.refine``, the module notes): (the weights, their
    figure against the heuristic before and after)."""
    return learning.refine(
        weights, lambda w: versus_heuristic(w, seed, games, params), range(NF), SWEEPS, STEP, MARGIN
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
    """Label ``decisions`` searched decisions of heuristic games, fit the model, refine its weights by play
    (``refine``) and write its weights file to ``out`` (``cardmc.learning.train``)."""
    from cardmc.schieber import SPEC

    params = SPEC.params(SPEC.settings({}))
    head = f"cardmc train schieber --decisions {decisions} --seed {seed} --depth {depth} --samples {samples}"
    games = min(GAMES, decisions)

    def after(fitted: np.ndarray) -> tuple[np.ndarray, list[str], dict]:
        weights, before, after = refine(fitted, REFINE_SEED + seed, games, params)
        line = (
            f"refined by play: {SWEEPS} sweeps, {games} matches of seed {REFINE_SEED + seed} a seating, against "
            f"the heuristic {before:+.3f} -> {after:+.3f} points a deal (its contracts and push as shipped)"
        )
        return weights, [line], {"versus_heuristic": (before, after)}

    return learning.train(
        "schieber",
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


def train_start(games: int, seed: int, out: str | Path, force: bool, progress: bool) -> dict:
    """Fit the learned player's contract weights to its own play: for each family (``FAMILIES``), ``games``
    matches of learned players with the forehand choosing that contract, the chooser team's card points
    regressed on the heuristic's hand features (``cardmc.experiments.schieber.fit_evaluation``); write them
    to ``out`` (atomic). The push threshold is not stored: it is measured under the rules in force
    (``learned_block``)."""
    import time

    from cardmc import files
    from cardmc.experiments.schieber import fit_evaluation
    from cardmc.kernels.schieber_push import learned_push_below
    from cardmc.progress import bar

    files.check_file_target(Path(out), force)
    started = time.perf_counter()
    weights = np.zeros(len(FAMILIES) * NCONTRACT_ROW, np.int64)
    with bar(progress, len(FAMILIES), "train schieber contracts", unit=" families") as shown:
        for r, (_, contract, count) in enumerate(FAMILIES):
            fitted = fit_evaluation(seed, games, contract, undenufe_points=count, policy="learned")
            names = CONTRACT_FEATURES[r * NCONTRACT_ROW : (r + 1) * NCONTRACT_ROW]
            for i, name in enumerate(names):
                short = name.split(": ", 1)[1]
                if short in fitted.index:
                    weights[r * NCONTRACT_ROW + i] = round(
                        float(fitted.loc[short, "estimate"]) * CONTRACT_SCALE
                    )
            shown.update(1)
    head = [
        f"cardmc train schieber --start --games {games} --seed {seed}",
        f"cardmc {__version__}: {games} matches a family, learned card play, "
        f"{len(CONTRACT_FEATURES)} weights",
    ]
    with files.atomic(out, force) as tmp:
        tmp.write_text(learning.weights_text(weights, CONTRACT_FEATURES, head))
    block = np.concatenate([shipped_weights(), weights, [0]]).astype(np.int64)
    return {
        "games": games,
        "seconds": time.perf_counter() - started,
        "push_below": learned_push_below(int(k.DEFAULT_RULES), block),
        "out": str(out),
    }
