"""Advice for one hand: ``cardmc odds GAME`` and ``cardmc.odds(game, hand, ...)``.

Each game answers the decision its hand's owner faces in its own module
(``cardmc.odds.schieber``, ``.differenzler``, ``.english_jazz``,
``.norwegian_jazz``), named by its spec's ``advice``; they share:

* ``odds(game, hand, **options)``: the front door. It refuses, in one line,
  an option the game's advice does not take, and runs the advice on
  ``threads`` Numba threads. ``cardmc.odds(...)`` calls it.
* ``preamble``: the options every game's advice checks first, once: hand,
  seat, dealer, other seats' known cards, games, seed, policy, settings,
  target_se, max_seconds, progress (and ``on_threads``).
* ``rounds``: deals in rounds until ``games``, a target standard error or a
  time limit (the loop ``cardmc.compare`` runs too).
* ``Odds``: the result, a dict with the keys ``game``, ``question`` (one
  line: hand, seat, dealer...), ``deals``, ``seed``, ``stopped_by``
  (``"games"``, ``"target_se"`` or ``"max_seconds"``), ``best`` (the best
  choice, or ``None``), ``tables`` (name -> DataFrame, each figure a row with
  ``estimate``, ``se``, ``ci_low``, ``ci_high``, ``n``, and ``events`` for a
  share) and ``notes`` (lines printed under the tables); a game adds its own
  keys.
* ``show`` prints a result; ``write`` writes it atomically as one CSV
  (``FILE.csv``: every table's rows with a ``table`` column) or, for a name
  without ``.csv``, a folder of one CSV per table.
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path

from cardmc import CallableModule, registry
from cardmc.registry import Deferred, UsageError


class Odds(dict):
    """The answer of ``odds``: a dict (see the module docstring)."""

    @property
    def tables(self) -> dict:
        return self["tables"]


def odds(game: str, hand=None, *, threads: int | None = None, **options) -> Odds:
    """Advice for one hand of ``game``. ``hand``: the asking seat's cards
    (codes separated by spaces or commas); the options every game takes:
    ``seat``, ``dealer``, ``hands`` (other seats' known cards, ``{seat:
    cards}`` or ``["SEAT:CARDS", ...]``), ``games`` (most deals), ``seed``,
    ``policy``, ``settings`` (rule options by name), ``target_se``,
    ``max_seconds``, ``progress``; a game takes its own (see its module).
    ``threads``: the Numba threads of the run (default: as set)."""
    from cardmc.odds.preamble import on_threads

    spec = registry.get(game)
    advice = advice_of(spec)
    taken = options_of(advice)
    for name in options:
        if name not in taken:
            raise UsageError(f"{spec.name} odds take no option {name!r}; options: {', '.join(taken)}")
    with on_threads(threads):
        return advice(hand, **options)


def advice_of(spec: registry.GameSpec):
    """The function that answers ``cardmc.odds`` for the game; ``UsageError`` for a game without one."""
    if spec.advice is None:
        raise UsageError(f"{spec.name} gives no hand advice")
    return spec.advice.load() if isinstance(spec.advice, Deferred) else spec.advice


def options_of(advice) -> list[str]:
    """The options an advice takes by name, beside the hand."""
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    params = inspect.signature(advice).parameters
    return [name for name, p in params.items() if p.kind in kinds and name != "hand"]


# ------------------------------------------------------------------ output


def show(result: Odds) -> str:
    """The result as text: the question, each table with its 95% CIs, the notes."""
    from cardmc.display import show as show_table

    lines = [
        f"{result['game']}: {result['question']}",
        f"{result['deals']:,} deals (stopped by {result['stopped_by']}), seed {result['seed']}",
    ]
    for name, t in result["tables"].items():
        lines.append(show_table(name, t))
    if result.get("best") is not None:
        lines.append(f"\nbest: {result['best']}")
    lines.extend(result.get("notes", ()))
    return "\n".join(lines)


def write(result: Odds, out, force: bool = True) -> Path:
    """``out`` ending in ``.csv``: one CSV of every table's rows (a ``table``
    column first); else a folder with one CSV per table. Atomic."""
    import pandas as pd

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


sys.modules[__name__].__class__ = CallableModule  # cardmc.odds(...) calls odds
