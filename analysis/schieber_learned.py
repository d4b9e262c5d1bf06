"""Schieber's ``learned`` player at the Python edge: its weights file, and its training from the search player.

The player (``cardmc.kernels.schieber_learned``) scores each legal card by
weights times features of what the seat has seen. Its weights ship as
``kernels/data/learned_schieber.csv``: ``#`` lines saying the command, seed
and cardmc version that made it, then ``feature,weight`` rows (the fitted
weight times ``SCALE``, an int), which the spec appends to ``params``.

Training (``train``, ``cardmc train schieber``): games of the heuristic
player, traced; at a share of its decisions with
``depth`` tricks left or fewer, the search player's view of the deal
(``cardmc.pimc.seen``), ``samples`` deals of the unseen cards consistent
with the plays, each solved with every hand seen (``cardmc.pimc.solve_cards``):
each legal card's mean value over them, the team's points from here. A
multinomial logistic model (softmax over the legal cards, targets the
softmax of the mean values over ``TEMPERATURE`` points) is fitted to them by
a fixed number of gradient steps with an L2 penalty: the same decisions, the
same file. Decisions before ``depth`` tricks left are the model's
extrapolation (its features count the tricks left).
"""

from __future__ import annotations

import functools
import time
from pathlib import Path

import numpy as np

from cardmc import __version__, pimc
from cardmc.kernels import schieber as k
from cardmc.kernels.events import EV_CONTRACT, EV_DEAL, EV_PLAY
from cardmc.kernels.schieber_learned import FEATURES, NF, SCALE
from cardmc.registry import UsageError

WEIGHTS_FILE = "learned_schieber.csv"
TEMPERATURE = 4.0  # points: a card's target share is exp(mean value / TEMPERATURE), normalised
L2 = 1e-3  # the penalty on the standardised weights
STEPS = 3000  # gradient steps of the fit
RATE = 0.5  # their size, on standardised features
KEEP = 0.35  # the share of a game's searched decisions labelled (neighbours differ little)
BATCH = 2  # games a thread labels between two looks at the count
STREAM = 0x7EA  # the stream of the sampled deals and the kept decisions


def weights_path() -> Path:
    """The shipped weights file, beside the kernels."""
    return Path(k.__file__).with_name("data") / WEIGHTS_FILE


def read_weights(path: str | Path) -> np.ndarray:
    """The int weights of a weights file in ``FEATURES``' order; ``UsageError`` naming a file that is not one."""
    try:
        rows = [
            line.split(",")
            for line in Path(path).read_text().splitlines()
            if line.strip() and not line.startswith("#")
        ]
        names, values = [r[0] for r in rows[1:]], [int(r[1]) for r in rows[1:]]
        if rows[0] != ["feature", "weight"] or tuple(names) != FEATURES:
            raise ValueError("its features are not the player's")
    except (OSError, UnicodeError, ValueError, IndexError) as exc:
        raise UsageError(f"cannot read learned weights {path} ({type(exc).__name__}: {exc})") from None
    return np.array(values, np.int64)


@functools.cache
def shipped_weights() -> np.ndarray:
    """The shipped weights (read once a process)."""
    return read_weights(weights_path())


def weights_text(weights: np.ndarray, head: list[str]) -> str:
    """A weights file: ``head`` as ``#`` lines, then ``feature,weight`` rows."""
    lines = [f"# {h}" for h in head] + ["feature,weight"]
    lines += [f"{name},{int(w)}" for name, w in zip(FEATURES, weights)]
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ labels


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
    rng = np.random.default_rng([seed, index, STREAM])
    rules, weights = int(k.rules_of(params)), np.zeros(NF, np.int64)
    out = []
    for i, chooser in deal_decisions(events[:nev], depth):
        if rng.random() >= KEEP:
            continue
        view = pimc.seen("schieber", events[: i + 1])
        cards, feats = view_features(view, chooser, rules, weights)
        R = pimc.rules(view)
        banned = pimc.forbidden(view, R, pimc.unseen_of(view))
        past = pimc.history(view, R)
        total = np.zeros(len(cards))
        for _ in range(samples):
            values = pimc.solve_cards(view, pimc.sample(view, rng, R, banned), R, tt, past)
            total += [values[c] for c in cards]
        out.append((feats, total / samples))
    return out


# ------------------------------------------------------------------ the fit


def fit(decisions: list[tuple], steps: int = STEPS) -> np.ndarray:
    """The int weights (times ``SCALE``) of the softmax model fitted to ``decisions`` (features, mean values)."""
    X = np.concatenate([f for f, _ in decisions]).astype(float)
    sizes = np.array([len(v) for _, v in decisions])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    target = np.concatenate([np.exp((v - v.max()) / TEMPERATURE) for _, v in decisions])
    target /= np.repeat(np.add.reduceat(target, starts), sizes)
    sd = X.std(axis=0)
    sd[sd == 0] = 1.0
    Z = X / sd
    w = np.zeros(NF)
    n = len(decisions)
    for _ in range(steps):
        s = Z @ w
        s -= np.repeat(np.maximum.reduceat(s, starts), sizes)
        q = np.exp(s)
        q /= np.repeat(np.add.reduceat(q, starts), sizes)
        w -= RATE * (Z.T @ (q - target) / n + L2 * w)
    return np.round(w / sd * SCALE).astype(np.int64)


def agreement(decisions: list[tuple], weights: np.ndarray) -> float:
    """The share of ``decisions`` where the weights' card is the one of the best mean value."""
    hits = [np.argmax(f @ weights) == np.argmax(v) for f, v in decisions]
    return float(np.mean(hits)) if hits else float("nan")


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
    """Label ``decisions`` searched decisions (whole games of the heuristic, game 0 on, ``BATCH`` games a
    thread at a time side by side; the first decisions in game order kept), fit the model and write its
    weights file to ``out`` (atomic). Returns what it did."""
    from cardmc import files
    from cardmc.kernels.jit import in_threads
    from cardmc.progress import bar
    from cardmc.schieber import SPEC

    files.check_file_target(Path(out), force)
    params = SPEC.params(SPEC.settings({}))
    shares = threads or 1  # the labelling holds the GIL most of the time: more threads only contend for it
    labelled: list[tuple] = []
    started = time.perf_counter()
    games = 0
    with bar(progress, decisions, "train schieber", unit=" decisions") as shown:
        while len(labelled) < decisions:
            batch: dict[int, list] = {}

            def work(share: int, first: int = games) -> None:
                tt = pimc.search_table()  # the thread's own
                for g in range(first + share, first + BATCH * shares, shares):
                    batch[g] = label_game(g, seed, params, depth, samples, tt)

            in_threads(work, shares)
            before = len(labelled)
            for g in sorted(batch):
                labelled.extend((g, *item) for item in batch[g])
            shown.update(min(len(labelled), decisions) - min(before, decisions))
            games += BATCH * shares
    games = labelled[decisions - 1][0] + 1  # the games whose decisions are kept, whatever the threads
    labelled = [item for _, *item in labelled[:decisions]]
    weights = fit(labelled)
    head = [
        f"cardmc train schieber --decisions {decisions} --seed {seed} --depth {depth} --samples {samples}",
        f"cardmc {__version__}: {decisions} decisions of {games} games, {NF} features",
    ]
    with files.atomic(out, force) as tmp:
        tmp.write_text(weights_text(weights, head))
    return {
        "decisions": decisions,
        "games": games,
        "seconds": time.perf_counter() - started,
        "agreement": agreement(labelled, weights),
        "out": str(out),
    }
