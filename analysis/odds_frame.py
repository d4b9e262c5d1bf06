"""Advice for one hand: ``cardmc odds GAME`` and ``cardmc.odds(game, ...)``.

Each game answers the decision its hand's owner faces (``cardmc.<game>.odds``
with the keyword arguments below); this module holds what they share:

* ``odds(game, **options)`` checks the common options once and calls the
  game's function; ``threads`` sets the Numba threads for the call.
* ``Odds``: the result, a dict with the keys ``game``, ``question`` (one
  line: hand, seat, dealer...), ``deals``, ``seed``, ``stopped_by``
  (``"games"``, ``"target_se"`` or ``"max_seconds"``), ``best`` (the best
  choice, or ``None``), ``tables`` (name -> DataFrame, each figure a row with
  ``estimate``, ``se``, ``ci_low``, ``ci_high``, ``n``, and ``events`` for a
  share) and ``notes`` (lines printed under the tables); a game adds its own
  keys.
* ``rounds``: runs a game's sampler in rounds of a fixed number of deals until
  ``games`` deals, every reported SE under ``target_se``, or ``max_seconds``;
  the stopping round is checked only at round ends, so a result for a given
  number of deals is reproducible.
* ``mean_row`` / ``share_row`` / ``paired_row``: figures from integer sums
  (sum, sum of squares, sum of products), so chunk sums merge exactly in any
  order and a result does not depend on the thread count.
* ``show`` prints a result; ``write`` writes it atomically as one CSV
  (``FILE.csv``: every table's rows with a ``table`` column) or, for a name
  without ``.csv``, a folder of one CSV per table.
"""
from __future__ import annotations

import importlib
import math
import time
from pathlib import Path

import numpy as np
import pandas as pd

from cardmc import stats
from cardmc.registry import GAMES, UsageError

ROUND = 16_384  # deals per round: the unit of --target-se and --max-seconds checks
CHUNK = 1_024  # deals per parallel chunk inside a kernel call
DEFAULT_GAMES = 100_000


class Odds(dict):
    """The answer of ``odds``: a dict (see the module docstring)."""

    @property
    def tables(self) -> dict[str, pd.DataFrame]:
        return self["tables"]


def odds(game: str, hand=None, *, threads: int | None = None, **options) -> Odds:
    """Advice for one hand of ``game``. ``hand``: the asking seat's cards
    (codes separated by spaces or commas); the common options: ``seat``,
    ``dealer``, ``hands`` (other seats' known cards, ``{seat: cards}`` or
    ``["SEAT:CARDS", ...]``), ``games`` (most deals), ``seed``, ``policy``,
    ``settings`` (rule options by name), ``target_se``, ``max_seconds``,
    ``progress``; a game takes its own (see the ``odds`` of its module in ``ADVICE``)."""
    if not isinstance(game, str) or game not in GAMES:
        raise UsageError(f"unknown game {game!r}; games: {', '.join(GAMES)}")
    fn = importlib.import_module(ADVICE[game]).odds
    if threads is None:
        return fn(hand=hand, **options)
    import numba

    threads = check_threads(threads)
    before = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        return fn(hand=hand, **options)
    finally:
        numba.set_num_threads(before)


# where each game's advice lives: the module's ``odds(hand=None, **options)``
ADVICE = {"differenzler": "cardmc.differenzler_odds", "schieber": "cardmc.schieber_odds",
          "english_jazz": "cardmc.english_jazz", "norwegian_jazz": "cardmc.experiments.norwegian_jazz_odds"}


# ------------------------------------------------------------------ checks


def check_threads(threads) -> int:
    import numba

    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or not 1 <= threads:
        raise UsageError(f"threads must be a positive whole number, not {threads!r}")
    return int(min(threads, numba.config.NUMBA_NUM_THREADS))


def check_positive(name: str, value) -> float | None:
    """``None`` or a positive finite number."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not math.isfinite(value) or not value > 0:  # fmt: skip
        raise UsageError(f"{name} must be a positive number, not {value!r}")
    return float(value)


def check_seat(name: str, value, players: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= value < players:
        raise UsageError(f"{name} {value!r} is not a seat of a {players}-player game (0..{players - 1})")
    return int(value)


# ------------------------------------------------------------------ running


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def rounds(sample, games: int, worst_se=None, target_se: float | None = None,
           max_seconds: float | None = None, progress: bool = False, desc: str = "odds",
           round_deals: int = ROUND, unit: str = " deals") -> tuple[int, str]:  # fmt: skip
    """Call ``sample(start, count)`` on deals (or games) ``0..games-1`` in
    rounds of ``round_deals``; after each round stop when ``worst_se()`` (the
    largest SE the result reports) is at most ``target_se``, or ``max_seconds``
    have passed. Returns (deals played, what stopped: games, target_se or
    max_seconds). ``odds`` and ``compare`` both run this loop."""
    target_se = check_positive("target_se", target_se)
    max_seconds = check_positive("max_seconds", max_seconds)
    bar = _NoBar()
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=games, unit=unit, unit_scale=True, desc=desc, dynamic_ncols=True, leave=False)
    t0 = time.perf_counter()
    done, stopped = 0, "games"
    try:
        while done < games:
            count = min(round_deals, games - done)
            sample(done, count)
            done += count
            bar.update(count)
            if done >= games:
                break
            if target_se is not None and worst_se is not None and worst_se() <= target_se:
                stopped = "target_se"
                break
            if max_seconds is not None and time.perf_counter() - t0 >= max_seconds:
                stopped = "max_seconds"
                break
    finally:
        bar.close()
    return done, stopped


def chunk_count(count: int, chunk: int = CHUNK) -> int:
    return (count + chunk - 1) // chunk


# ------------------------------------------------------------------ figures


def mean_row(total, squares, n) -> dict:
    """Mean of a variable from its sum and sum of squares over ``n`` deals."""
    n = int(n)
    if n < 1:
        return {"estimate": np.nan, "se": np.nan, "ci_low": np.nan, "ci_high": np.nan, "n": n}
    m = float(total) / n
    var = max(float(squares) - float(total) * m, 0.0) / max(n - 1, 1)
    se = math.sqrt(var / n)
    return {"estimate": m, "se": se, "ci_low": m - stats.Z95 * se, "ci_high": m + stats.Z95 * se, "n": n}


def paired_row(sum_a, sum_b, sq_a, sq_b, prod, n) -> dict:
    """Mean of a - b over the same deals from the sums of a, b, a², b² and a·b."""
    return mean_row(float(sum_a) - float(sum_b), float(sq_a) + float(sq_b) - 2.0 * float(prod), n)


def share_row(events, n) -> dict:
    """A proportion with its Wilson 95% CI (and standard error)."""
    return stats.proportion(int(events), int(n))


def share_se(events, n) -> float:
    """Agresti-Coull standard error of a share: not zero with no events, so a
    rare event does not stop a run early."""
    p = (events + 2) / (n + 4)
    return float(math.sqrt(p * (1 - p) / (n + 4)))


def quantile_of_counts(counts: np.ndarray, q: float) -> float:
    """The ``q`` quantile (lower) of a variable given as counts per value 0, 1, ..."""
    cum = np.cumsum(counts)
    return float(np.searchsorted(cum, q * cum[-1], side="left"))


def quantile_row(counts: np.ndarray, q: float) -> dict:
    """The ``q`` quantile of a variable given as counts per value 0, 1, ...,
    with a distribution-free 95% CI (the order statistics at ranks
    n·q ± 1.96·sqrt(n·q·(1-q)))."""
    n = int(np.sum(counts))
    half = stats.Z95 * math.sqrt(q * (1 - q) / max(n, 1))
    return {"estimate": quantile_of_counts(counts, q), "se": np.nan,
            "ci_low": quantile_of_counts(counts, max(q - half, 0.0)),
            "ci_high": quantile_of_counts(counts, min(q + half, 1.0)), "n": n}  # fmt: skip


def table(rows: dict[object, dict], index: str = "figure") -> pd.DataFrame:
    """Rows {name: figure dict} as a DataFrame indexed by name."""
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis(index)


# ------------------------------------------------------------------ output


def show(result: Odds) -> str:
    """The result as text: the question, each table with its 95% CIs, the notes."""
    from cardmc.display import show as show_table

    lines = [f"{result['game']}: {result['question']}",
             f"{result['deals']:,} deals (stopped by {result['stopped_by']}), seed {result['seed']}"]  # fmt: skip
    for name, t in result["tables"].items():
        lines.append(show_table(name, t))
    if result.get("best") is not None:
        lines.append(f"\nbest: {result['best']}")
    lines.extend(result.get("notes", ()))
    return "\n".join(lines)


def write(result: Odds, out, force: bool = True) -> Path:
    """``out`` ending in ``.csv``: one CSV of every table's rows (a ``table``
    column first); else a folder with one CSV per table. Atomic."""
    from cardmc import files

    path = Path(out)
    if path.suffix.lower() == ".csv":
        parts = []
        for name, t in result["tables"].items():
            t = t.copy()
            t.index = t.index.map(str)
            t.index.name = "figure"
            parts.append(t.reset_index().assign(table=name))
        frame = pd.concat(parts, ignore_index=True)
        frame = frame[["table", *[c for c in frame.columns if c != "table"]]]
        with files.atomic(path, force=force) as tmp:
            frame.to_csv(tmp, index=False)
        return path
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create folder {path}: {exc.strerror}") from None
    for name, t in result["tables"].items():
        with files.atomic(path / f"{name}.csv", force=True) as tmp:
            t.to_csv(tmp)
    return path
