"""Norwegian Jazz's ``learned`` player at the Python edge: its weights file, and its training from the search
player.

The player (``cardmc.kernels.norwegian_jazz_learned``) scores each legal card
by weights times features of what the seat has seen, a block of weights for
each trick deal and one for sevens; its weights ship as
``kernels/data/learned_norwegian_jazz.csv`` (``cardmc.learning``'s format).

Training (``train``, ``cardmc train norwegian_jazz``): games of the heuristic
player at the game's default player count; at a share ``KEEP`` of its
decisions in deals 1-5 with ``depth`` tricks left or fewer, each legal card's
mean value over ``samples`` solved deals of the unseen cards: the penalty
units the others playing together can hold the seat to from here
(``cardmc.learning.label``, the search player's objective, the least the
better); and in sevens, once ``SEVENS_CARDS`` cards or fewer are left in all
hands, the deal score the seat can make sure of after each card
(``cardmc.pimc_sevens.card_values``), with its sign turned, so that the least
is the best there too. The heuristic's card is counted ``HEURISTIC_EDGE``
better than the search says (the search's values tie often, and among cards
it sees as equal or nearly so the heuristic's choice measured better than
the model's). The softmax model over the cards is fitted to them
(``cardmc.learning.fit``, ``TEMPERATURE`` units or points). Decisions before
``depth`` tricks left (and in sevens before the last ``SEVENS_CARDS`` cards)
are the model's extrapolation.

Then each deal's weights are kept only where they beat the heuristic
(``select``): ``SELECT_GAMES`` games at the default player count, the
learned player at the even seats and the heuristic at the odd ones, then
the seats swapped, on the same deals; a deal whose paired difference in
score (learned minus heuristic, a seat) has its 95% interval above zero
keeps its weights, the others get weights 0: the player plays them as the
heuristic.

The selected weights are then refined by play (``refine``): for each deal,
``cardmc.learning.refine``'s coordinate search over that deal's block, which
keeps a move where it raises the deal's paired gain over the heuristic on
``REFINE_GAMES`` games (at most as many as the decisions labelled) of seed
``REFINE_SEED`` + the training seed by more
than ``REFINE_MARGIN`` (``REFINE_SWEEPS`` passes, moves of half a weight, at
least ``REFINE_STEP``). A deal played as the heuristic starts from weights
0, where a single weight is a rule that overrides the heuristic's card
(ties go to the heuristic's). The labels alone measured well below the
search player: their fit kept its weights in deal 2 only, while most of the
search player's gain is in how the tricks are planned, which the play
itself measures. ``select`` then checks the refined weights again on its
own games, which the refinement did not play.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from cardmc import learning, pimc, pimc_sevens
from cardmc.kernels import norwegian_jazz as k
from cardmc.kernels.events import EV_DEAL, EV_HAND, EV_PLAY
from cardmc.kernels.norwegian_jazz_learned import FEATURES, NB, NF, SEVENS_AT
from cardmc.kernels.sevens import FULL52, NS, view_sevens_learned

WEIGHTS_FILE = "learned_norwegian_jazz.csv"
TEMPERATURE = 0.5  # penalty units (sevens: points): a card's target share is exp(-mean value / TEMPERATURE)
KEEP = 0.5  # the share of a game's searched decisions labelled (neighbours differ little)
SEVENS_CARDS = 30  # sevens decisions are labelled once this many cards or fewer are left in all hands
SEVENS = k.DEALS - 1  # the sixth deal's number in the EV_DEAL events (0-based)
HEURISTIC_EDGE = 0.5  # units (sevens: points) the heuristic's card counts better than the search's value
SELECT_GAMES = 20_000  # games of each seating in ``select``
SELECT_SEED = 0x5E1  # their seed
REFINE_GAMES = 10_000  # games of each seating a move of the refinement is measured on
REFINE_SWEEPS = 3  # passes of the refinement over a deal's weights
REFINE_STEP = 50  # the least move of a weight
REFINE_MARGIN = 0.004  # a seat's score in the deal that a move must gain to be kept
REFINE_SEED = 1000

WEIGHTS = learning.WeightsFile(WEIGHTS_FILE, FEATURES)
weights_path = WEIGHTS.path  # the shipped weights file, beside the kernels
read_weights = WEIGHTS.read  # the int weights of a weights file in FEATURES' order
shipped_weights = WEIGHTS.shipped  # the shipped weights (read once a process)
weights_text = WEIGHTS.text  # a weights file's text: its head as # lines, then feature,weight rows


def view_features(view: dict, weights: np.ndarray) -> tuple[list[int], np.ndarray, int]:
    """The legal cards of the seat of ``view`` in a trick deal (``cardmc.pimc.seen``'s or ``cardmc.advise``'s:
    ``number`` or ``contract`` the deal number 1-5), their features, a row each of all ``FEATURES`` (lowest
    code first; the deal's block filled), and the card ``weights`` play."""
    number = int(view.get("number", view.get("contract")))
    plays = np.array([c for _, c in view["plays"]] or [0], np.int64)
    seats = np.array([s for s, _ in view["plays"]] or [0], np.int64)
    block = np.zeros((64, NB), np.int64)
    legal, card = k.view_learned(
        number,
        np.uint64(view["hand"]),
        view["me"],
        plays,
        seats,
        len(view["plays"]),
        view["players"],
        np.uint64(view["deck"]),
        weights,
        block,
    )
    cards = [c for c in range(64) if int(legal) >> c & 1]
    feats = np.zeros((len(cards), NF), np.int64)
    feats[:, (number - 1) * NB : number * NB] = block[: len(cards)]
    return cards, feats, int(card)


def sevens_features(view: dict, weights: np.ndarray) -> tuple[list[int], np.ndarray, int]:
    """The legal cards of the seat of a sevens view (``cardmc.pimc_sevens.seen``'s), their features, a row
    each of all ``FEATURES`` (the sevens block filled), and the card ``weights`` play (-1: a pass)."""
    unplayed = np.uint64(int(FULL52) & ~view["table"])
    block = np.zeros((64, NS), np.int64)
    legal, card = view_sevens_learned(
        np.uint64(view["hand"]), np.uint64(view["table"]), unplayed, weights[SEVENS_AT:], block
    )
    cards = [c for c in range(64) if int(legal) >> c & 1]
    feats = np.zeros((len(cards), NF), np.int64)
    feats[:, SEVENS_AT:] = block[: len(cards)]
    return cards, feats, int(card)


def deal_decisions(events: np.ndarray, players: int, depth: int) -> list[int]:
    """The event numbers of each play with a choice (two legal cards or more) in deals 1-5 with ``depth``
    tricks left or fewer, and in sevens with ``SEVENS_CARDS`` cards or fewer left in all hands."""
    out = []
    deal, count, left = -1, 0, 0
    for i, (kind, a, b, c) in enumerate(events.tolist()):
        if kind == EV_DEAL:
            deal, count, left = a, 0, 0
        elif kind == EV_HAND:
            left += int(b).bit_count()
        elif kind == EV_PLAY:
            if deal < SEVENS:
                if (left // players) - count // players <= depth and c & (c - 1):
                    out.append(i)
                count += 1
            else:
                if left <= SEVENS_CARDS and c & (c - 1):
                    out.append(i)
                left -= 1 if b >= 0 else 0
    return out


def label_game(index: int, seed: int, params: np.ndarray, depth: int, samples: int, tt) -> list[tuple]:
    """The labelled decisions of game ``index`` of ``seed``, every seat heuristic, at the default player
    count: (features, mean values, the least the best)."""
    from cardmc.norwegian_jazz import SPEC
    from cardmc.solve_sevens import fresh_salt

    n = SPEC.default_players
    policies = np.full((n, 1), k.POLICY_NAMES.index("heuristic"), np.int64)
    rows = np.zeros((k.max_rows(n, params), len(k.COLUMNS)), np.int32)
    events = np.zeros((k.max_events(n), 4), np.int64)
    _, nev = k.play_game(seed, index, n, params, policies, rows, events)
    rng = np.random.default_rng([seed, index, learning.STREAM])
    weights, bonus = np.zeros(NF, np.int64), int(params[k.P_FIRST_OUT_BONUS])
    out = []
    for i in deal_decisions(events[:nev], n, depth):
        if rng.random() >= KEEP:
            continue
        if pimc_sevens.in_sevens(events[: i + 1]):
            view = pimc_sevens.seen(events[: i + 1], n)
            cards, feats, _ = sevens_features(view, weights)
            salt, total = fresh_salt(), np.zeros(len(cards))
            for _ in range(samples):
                values = pimc_sevens.card_values(view, pimc_sevens.sample(view, rng), bonus, tt, salt)
                total -= [values[c] for c in cards]  # the deal score, its sign turned: the least is the best
            values = total / samples
        else:
            view = pimc.seen("norwegian_jazz", events[: i + 1], players=n)
            cards, feats, _ = view_features(view, weights)
            values = learning.label(view, cards, samples, rng, tt)
        heuristic = feats[:, [d * NB for d in range(k.DEALS - 1)] + [SEVENS_AT]].sum(axis=1)
        out.append((feats, values - HEURISTIC_EDGE * heuristic))
    return out


def deal_blocks() -> list[slice]:
    """Each deal's weights in ``FEATURES`` (deals 1-5, then sevens)."""
    return [slice(d * NB, (d + 1) * NB) for d in range(k.DEALS - 1)] + [slice(SEVENS_AT, NF)]


def paired_gain(weights: np.ndarray, games: int = SELECT_GAMES, seed: int = SELECT_SEED) -> np.ndarray:
    """Per deal (rows 1-6): the learned player's paired gain over the heuristic, a seat's score a deal, its
    mean and its 95% interval (columns), from ``games`` games of each seating at the default player count
    (the learned player at the even seats, then at the odd ones)."""
    from cardmc.norwegian_jazz import SPEC

    n = SPEC.default_players
    params = np.concatenate([SPEC.params(SPEC.settings({}))[: k.NPARAMS], weights]).astype(np.int64)
    learned, heuristic = k.POLICY_NAMES.index("learned"), k.POLICY_NAMES.index("heuristic")
    even = np.array([learned if s % 2 == 0 else heuristic for s in range(n)], np.int64)
    gain = np.zeros((games, k.DEALS))
    for seating in (even, np.where(even == learned, heuristic, learned)):
        rows, _ = k.simulate(seed, 0, games, n, params, seating.reshape(n, 1))
        score = rows[:, k.C_SCORE].reshape(games, k.DEALS, n).astype(float)
        ours = seating == learned
        gain += score[:, :, ours].mean(axis=2) - score[:, :, ~ours].mean(axis=2)
    gain /= 2
    mean, half = gain.mean(axis=0), 1.96 * gain.std(axis=0, ddof=1) / np.sqrt(games)
    return np.stack([mean, mean - half, mean + half], axis=1)


def select(weights: np.ndarray) -> tuple[np.ndarray, list[int], np.ndarray]:
    """``weights`` with the blocks of the deals where they do not beat the heuristic (``paired_gain``'s
    interval not above zero) set to 0, the deals kept (1-6) and ``paired_gain``'s figures."""
    gain = paired_gain(weights)
    out, kept = weights.copy(), []
    for d, block in enumerate(deal_blocks()):
        if gain[d, 1] > 0:
            kept.append(d + 1)
        else:
            out[block] = 0
    return out, kept, gain


def refine(
    weights: np.ndarray, seed: int, games: int = REFINE_GAMES
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``weights`` refined by play, deal by deal (the module notes), on ``games`` games of ``seed``: (the
    weights, each deal's paired gain over the heuristic on those games before and after)."""
    w = weights.copy()
    before, after = np.zeros(k.DEALS), np.zeros(k.DEALS)
    for d, block in enumerate(deal_blocks()):
        w, before[d], after[d] = learning.refine(
            w,
            lambda c, d=d: float(paired_gain(c, games, seed)[d, 0]),
            range(block.start, block.stop),
            REFINE_SWEEPS,
            REFINE_STEP,
            REFINE_MARGIN,
        )
    return w, before, after


def finish(
    fitted: np.ndarray, seed: int, games: int
) -> tuple[np.ndarray, list[str], list[int], tuple[float, float]]:
    """What training does after the fit (``fitted``): ``select``, then ``refine`` on ``games`` games of
    ``REFINE_SEED + seed``, then ``select`` again; the weights, the head lines that say so, the deals that keep
    their weights and the refinement's gain a deal (the six deals' mean) on its games, before and after."""
    weights, kept, gain = select(fitted)
    lines = []
    lines.append(
        "the fit's paired gain over the heuristic, a seat's score a deal, deals 1-6: "
        + "; ".join(f"{m:+.3f} [{lo:+.3f}, {hi:+.3f}]" for m, lo, hi in gain)
        + f"; it kept its weights in deals {kept or 'none'}"
    )
    weights, before, after = refine(weights, REFINE_SEED + seed, games)
    figures = (float(before.mean()), float(after.mean()))
    lines.append(
        f"refined by play: {REFINE_SWEEPS} sweeps a deal, {games} games of seed {REFINE_SEED + seed} a "
        "seating, each deal's gain over the heuristic "
        + "; ".join(f"{a:+.3f} -> {b:+.3f}" for a, b in zip(before, after))
    )
    weights, kept, gain = select(weights)
    lines.append(
        "paired gain over the heuristic, a seat's score a deal, deals 1-6: "
        + "; ".join(f"{m:+.3f} [{lo:+.3f}, {hi:+.3f}]" for m, lo, hi in gain)
    )
    lines.append(f"the deals that keep their weights (they beat the heuristic, paired): {kept or 'none'}")
    return weights, lines, kept, figures


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
    keep and refine each deal's weights by play (``finish``) and write its weights file to ``out``."""
    from cardmc.norwegian_jazz import SPEC

    params = SPEC.params(SPEC.settings({}))
    head = f"cardmc train norwegian_jazz --decisions {decisions} --seed {seed} --depth {depth} --samples {samples}"

    def after(fitted: np.ndarray) -> tuple[np.ndarray, list[str], dict]:
        weights, lines, kept, figures = finish(fitted, seed, min(REFINE_GAMES, decisions))
        return weights, lines, {"kept": kept, "versus_heuristic": figures}

    return learning.train(
        "norwegian_jazz",
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
