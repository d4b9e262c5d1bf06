"""What every game's ``learned`` player shares at the Python edge: its weights file, the labels the search
player gives its decisions, and the fit.

A learned player scores each legal card by integer weights times integer
features of what the seat has seen (the game's ``kernels/<game>_learned.py``)
and plays the card of the highest score. Its weights ship as
``kernels/data/learned_<game>.csv``: ``#`` lines saying the command, seed and
cardmc version that made it, then ``feature,weight`` rows (the fitted weight
times ``SCALE``, an int), which the game's spec appends to ``params``.

Training (``cardmc train GAME``): whole games of the game's players, seeded;
at a share ``keep`` of their decisions with ``depth`` tricks left or fewer,
the search player's view of the deal (``cardmc.pimc.seen``), ``samples``
deals of the unseen cards consistent with the plays, each solved with every
hand seen (``cardmc.pimc.solve_cards``): each legal card's mean value over
them, the search player's own objective (``sign`` -1 where it plays for the
least). A multinomial logistic model (softmax over the legal cards, targets
the softmax of the mean values over a ``temperature`` in the objective's
units) is fitted to them by a fixed number of gradient steps with an L2
penalty: the same decisions, the same file.

Refinement by play (``refine``): what no label covers, chiefly the first
tricks, decides much of how well a fit plays, so a game's trainer may then
move its weights one at a time and keep the moves that raise its figure
against the heuristic in paired games (fixed games of a seed of its own).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from cardmc import __version__, pimc
from cardmc.registry import UsageError

SCALE = 1000  # a weight's int in ``params``: the fitted weight times SCALE, rounded
L2 = 1e-3  # the penalty on the standardised weights
STEPS = 3000  # gradient steps of the fit
RATE = 0.5  # their size, on standardised features
BATCH = 2  # games a thread labels between two looks at the count
STREAM = 0x7EA  # the stream of the sampled deals and the kept decisions


def data_path(name: str) -> Path:
    """A file shipped beside the kernels (``kernels/data/name``)."""
    from cardmc import kernels

    return Path(kernels.__file__).with_name("data") / name


def read_weights(path: str | Path, features: Sequence[str]) -> np.ndarray:
    """The int weights of a weights file in ``features``' order; ``UsageError`` naming a file that is not one."""
    try:
        rows = [
            line.split(",")
            for line in Path(path).read_text().splitlines()
            if line.strip() and not line.startswith("#")
        ]
        names, values = [r[0] for r in rows[1:]], [int(r[1]) for r in rows[1:]]
        if rows[0] != ["feature", "weight"] or tuple(names) != tuple(features):
            raise ValueError("its features are not the player's")
    except (OSError, UnicodeError, ValueError, IndexError) as exc:
        raise UsageError(f"cannot read learned weights {path} ({type(exc).__name__}: {exc})") from None
    return np.array(values, np.int64)


def weights_text(weights: np.ndarray, features: Sequence[str], head: list[str]) -> str:
    """A weights file: ``head`` as ``#`` lines, then ``feature,weight`` rows."""
    lines = [f"# {h}" for h in head] + ["feature,weight"]
    lines += [f"{name},{int(w)}" for name, w in zip(features, weights)]
    return "\n".join(lines) + "\n"


class WeightsFile:
    """A game's shipped weights file (``kernels/data/<name>``) of ``features``: its path, reading it or
    another file of the same features, the shipped weights (read once a process) and the text of a file."""

    def __init__(self, name: str, features: Sequence[str]):
        self.name, self.features = name, tuple(features)
        self._shipped: np.ndarray | None = None

    def path(self) -> Path:
        """The shipped weights file, beside the kernels."""
        return data_path(self.name)

    def read(self, path: str | Path) -> np.ndarray:
        """The int weights of a weights file in the features' order; ``UsageError`` naming a file that is not
        one."""
        return read_weights(path, self.features)

    def shipped(self) -> np.ndarray:
        """The shipped weights (read once a process)."""
        if self._shipped is None:
            self._shipped = self.read(self.path())
        return self._shipped

    def text(self, weights: np.ndarray, head: list[str]) -> str:
        """A weights file: ``head`` as ``#`` lines, then ``feature,weight`` rows."""
        return weights_text(weights, self.features, head)


# ------------------------------------------------------------------ labels


def label(view: dict, cards: list[int], samples: int, rng: np.random.Generator, tt) -> np.ndarray:
    """The mean value of each of ``cards`` (the legal cards of the seat of ``view``, ``cardmc.pimc.seen``'s)
    over ``samples`` deals of the unseen cards, each solved with every hand seen."""
    R = pimc.rules(view)
    banned = pimc.forbidden(view, R, pimc.unseen_of(view))
    past = pimc.history(view, R)
    total = np.zeros(len(cards))
    for _ in range(samples):
        values = pimc.solve_cards(view, pimc.sample(view, rng, R, banned), R, tt, past)
        total += [values[c] for c in cards]
    return total / samples


# ------------------------------------------------------------------ the fit


def fit(decisions: list[tuple], nf: int, temperature: float, sign: int = 1, steps: int = STEPS) -> np.ndarray:
    """The int weights (times ``SCALE``) of the softmax model fitted to ``decisions`` (features, mean values;
    ``sign`` -1: the lower value is the better card)."""
    X = np.concatenate([f for f, _ in decisions]).astype(float)
    sizes = np.array([len(v) for _, v in decisions])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    target = np.concatenate([np.exp(sign * (v - v[np.argmax(sign * v)]) / temperature) for _, v in decisions])
    target /= np.repeat(np.add.reduceat(target, starts), sizes)
    sd = X.std(axis=0)
    sd[sd == 0] = 1.0
    Z = X / sd
    w = np.zeros(nf)
    n = len(decisions)
    for _ in range(steps):
        s = Z @ w
        s -= np.repeat(np.maximum.reduceat(s, starts), sizes)
        q = np.exp(s)
        q /= np.repeat(np.add.reduceat(q, starts), sizes)
        w -= RATE * (Z.T @ (q - target) / n + L2 * w)
    return np.round(w / sd * SCALE).astype(np.int64)


def refine(
    weights: np.ndarray,
    measure: Callable[[np.ndarray], float],
    at: Sequence[int],
    sweeps: int,
    step: int,
    margin: float,
) -> tuple[np.ndarray, float, float]:
    """Refine ``weights`` by play: a coordinate search over the weights ``at``, ``sweeps`` passes, that moves
    one weight at a time by half itself (at least ``step``), up and else down, and keeps a move that raises
    ``measure`` (the player's figure with those weights, higher the better, on fixed games) by more than
    ``margin``. Returns the weights and their figure before and after."""
    w = weights.copy()
    first = best = measure(w)
    for _ in range(sweeps):
        for i in at:
            size = max(step, abs(int(w[i])) // 2)
            for move in (size, -size):
                c = w.copy()
                c[i] += move
                v = measure(c)
                if v > best + margin:
                    best, w = v, c
                    break
    return w, first, best


def agreement(decisions: list[tuple], weights: np.ndarray, sign: int = 1) -> float:
    """The share of ``decisions`` where the weights' card is the one of the best mean value."""
    hits = [np.argmax(f @ weights) == np.argmax(sign * v) for f, v in decisions]
    return float(np.mean(hits)) if hits else float("nan")


# ------------------------------------------------------------------ training


def train(
    game: str,
    label_game: Callable[[int, int], list[tuple]],
    decisions: int,
    head: str,
    features: Sequence[str],
    temperature: float,
    sign: int,
    out: str | Path,
    force: bool,
    progress: bool,
    threads: int | None = None,
    after: Callable[[np.ndarray], tuple[np.ndarray, list[str], dict]] | None = None,
) -> dict:
    """Label ``decisions`` decisions (``label_game(index, tt)``: game ``index``'s, (features, mean values) each;
    game 0 on, ``BATCH`` games a thread at a time side by side; the first decisions in game order kept), fit
    the model, then (``after``, given the fitted weights) refine it into the weights written, with head lines
    and entries of the result of its own, and write its weights file to ``out`` (atomic), headed by the
    command ``head``. Returns what it did."""
    from cardmc import files
    from cardmc.kernels.jit import in_threads
    from cardmc.progress import bar

    files.check_file_target(Path(out), force)
    shares = threads or 1  # the labelling holds the GIL most of the time: more threads only contend for it
    labelled: list[tuple] = []
    started = time.perf_counter()
    games = 0
    with bar(progress, decisions, f"train {game}", unit=" decisions") as shown:
        while len(labelled) < decisions:
            batch: dict[int, list] = {}

            def work(share: int, first: int = games) -> None:
                tt = pimc.search_table()  # the thread's own
                for g in range(first + share, first + BATCH * shares, shares):
                    batch[g] = label_game(g, tt)

            in_threads(work, shares)
            before = len(labelled)
            for g in sorted(batch):
                labelled.extend((g, *item) for item in batch[g])
            shown.update(min(len(labelled), decisions) - min(before, decisions))
            games += BATCH * shares
    games = labelled[decisions - 1][0] + 1  # the games whose decisions are kept, whatever the threads
    labelled = [item for _, *item in labelled[:decisions]]
    fitted = fit(labelled, len(features), temperature, sign)
    lines = [head, f"cardmc {__version__}: {decisions} decisions of {games} games, {len(features)} features"]
    weights, more, extra = after(fitted) if after is not None else (fitted, [], {})
    with files.atomic(out, force) as tmp:
        tmp.write_text(weights_text(weights, features, lines + more))
    return {
        "decisions": decisions,
        "games": games,
        "seconds": time.perf_counter() - started,
        "agreement": agreement(labelled, fitted, sign),
        "out": str(out),
        **extra,
    }
