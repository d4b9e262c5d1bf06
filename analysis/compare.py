"""Paired comparisons: two or more arms played on the same deals.

An **arm** is a policy assignment per seat and/or rule options. Game i of a
seed deals the same cards under every policy and rule option, so the arms
are played on identical deals and each game (or row) gives one paired
difference against the first arm. ``compare`` plays the arms in rounds of
``block`` games (game indices from 0, through ``cardmc.simulate``), keeps
integer-exact running sums of each arm's values and of the differences, and
stops after ``games`` games, once every difference's standard error is below
``target_se``, or after ``max_seconds`` (checked between rounds), whichever
comes first: the result of a given number of games is the same however it
stopped, whatever the thread count.

An arm written as text (the CLI's ``--arm``): ``[NAME=]POLICY[; OPTION=VALUE]...``

* ``heuristic`` — every seat plays heuristic (Differenzler: ``calibrated``,
  ``heuristic:random`` and the like);
* ``random,heuristic,random,heuristic`` — one policy per seat;
* ``heuristic; undenufe_points=six`` — a policy with rule options;
* ``; max_extra_deals=2`` — the default policy with an option;
* ``swiss=heuristic; undenufe_points=six`` — the same, named ``swiss``
  (the default name is the text itself, without a leading ``;``).

In Python an arm may also be a dict ``{"name": ..., "policy": ..., OPTION: VALUE}``.

**Measures.** The measured seats are those whose policy differs from the
first arm's in any arm (all seats if none differs, e.g. arms of rule
options only). The natural measures are the game's (its spec's
``natural_measure``), one value per game (the mean over the game's rows of
the measured seats that pass ``where``):

* Differenzler: ``penalty`` per hand (the four regular deals, tie-breaks left out);
* Schieber: ``points per deal`` of the measured team (of either team, averaged,
  when seats of both teams or none differ) and its match ``wins`` (one team only);
* English and Norwegian Jazz: ``score per deal`` and ``wins`` (share of the
  measured seats that win the game).

``measure="COLUMN"`` takes that row column instead (its mean per game over the
measured seats' rows that pass). ``measure=function`` is called with each
round's rows of an arm (a DataFrame, after ``where``) and returns a pandas
Series (or DataFrame, one measure per column) **indexed by ``game``**: one
value per game; **indexed by ``game, deal, seat``**: one value per row (of
the rows it chooses); or anything else of one value per row (an array or
Series in the rows' order). Rows are paired by (game, deal, seat). A measure
whose values are all 0 or 1 is a proportion: an arm's share gets a Wilson
interval; every difference is a paired mean with a normal interval.

**Filters.** ``where`` (see ``cardmc.where``) selects rows before the measure:
a game's value is taken over its rows that pass, a game with none has no
value, and the difference is taken over the games (or rows) valued in both
arms. A filter on hand features of the dealt cards (``trumps``, ``aces``, ...)
passes the same rows in every arm, since the deals are the same.

**Conditions** (fixed hands and the like) are keyword arguments of
``cardmc.simulate``; ``compare`` passes every keyword that is not a rule
option of the game unchanged to each arm's runs.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from cardmc import CallableModule, checks, registry, stats
from cardmc import where as where_mod
from cardmc.odds.rounds import rounds
from cardmc.registry import UsageError

BLOCK = 10_000  # games of one round
GAMES = 100_000  # games at most, by default
ROW_KEY = ["game", "deal", "seat"]


@dataclass(frozen=True)
class Arm:
    """One arm: its name, policy text (None: the default) and rule options."""

    name: str
    policy: str | None
    settings: tuple[tuple[str, str], ...] = ()


def parse_arm(text: object) -> Arm:
    """An arm from ``[NAME=]POLICY[; OPTION=VALUE]...``; ``UsageError`` names a bad one."""
    if isinstance(text, Arm):
        return text
    if isinstance(text, dict):
        given = dict(text)
        policy = given.pop("policy", None)
        name = given.pop("name", None)
        settings = tuple((str(k), v) for k, v in given.items())
        if name is None:
            name = "; ".join([policy or "", *(f"{k}={v}" for k, v in settings)]).strip("; ") or "default"
        return Arm(str(name), policy, settings)
    if not isinstance(text, str) or not text.strip():
        raise UsageError(f"an arm is written [NAME=]POLICY[; OPTION=VALUE]..., not {text!r}")
    first, *rest = (part.strip() for part in text.split(";"))
    name, policy = (
        (part.strip() for part in first.split("=", 1))
        if "=" in first
        else (text.strip().lstrip(";").strip(), first)
    )
    if not name:
        raise UsageError(f"arm {text!r}: the name before '=' is empty")
    settings = []
    for part in rest:
        if not part:
            continue
        if "=" not in part:
            raise UsageError(f"arm {text!r}: expected OPTION=VALUE after ';', not {part!r}")
        key, value = (x.strip() for x in part.split("=", 1))
        settings.append((key, value))
    return Arm(name, policy or None, tuple(settings))


def check_arms(spec, arms, players: int, seed: int, common: dict, calibration) -> list[Arm]:
    """The parsed arms, each checked as a run (policy, options); ``UsageError`` names the arm."""
    from cardmc.job import make

    if isinstance(arms, (str, dict, Arm)) or not hasattr(arms, "__iter__"):
        raise UsageError(f"arms must be a list of two or more arms, not {arms!r}")
    out = [parse_arm(a) for a in arms]
    if len(out) < 2:
        raise UsageError(f"compare needs two or more arms, not {len(out)}")
    names = [a.name for a in out]
    for name in names:
        if names.count(name) > 1:
            raise UsageError(f"arm name {name!r} is given twice; name arms NAME=POLICY")
    for arm in out:
        try:
            make(
                spec.name,
                1,
                seed,
                arm.policy,
                players,
                {**common, **dict(arm.settings)},
                calibration=calibration,
            )
        except UsageError as exc:
            raise UsageError(f"arm {arm.name!r}: {exc}") from None
    return out


def measured_seats(spec, arms: list[Arm], players: int) -> tuple[int, ...]:
    """Seats whose policy differs from the first arm's in any arm; all seats if none."""
    codes = [spec.parse_policy(a.policy or spec.default_policy, players) for a in arms]
    seats = [s for s in range(players) if any((c[s] != codes[0][s]).any() for c in codes[1:])]
    return tuple(seats or range(players))


# ------------------------------------------------------------------ measures


def per_game(rows: pd.DataFrame, values, name: str, keep=None) -> pd.Series:
    """The mean of ``values`` (a row column or one value per row) over each game's
    rows (those of the boolean array ``keep``), indexed by game."""
    game = rows["game"].to_numpy(np.int64)
    v = np.asarray(values, dtype=float)
    if keep is not None:
        game, v = game[keep], v[keep]
    if not len(game):
        return pd.Series([], index=pd.Index([], name="game", dtype=np.int64), name=name, dtype=float)
    first = int(game.min())
    count = np.bincount(game - first)
    total = np.bincount(game - first, weights=v, minlength=count.size)
    kept = np.flatnonzero(count)
    return pd.Series(total[kept] / count[kept], index=pd.Index(kept + first, name="game"), name=name)


def at_seats(rows: pd.DataFrame, seats) -> np.ndarray:
    """Which rows are of the ``seats`` (a boolean array)."""
    return np.isin(rows["seat"].to_numpy(), seats)


def seat_means(seats: tuple[int, ...], columns: dict[str, str]):
    """A measure: per game, the mean of each row column over the ``seats``' rows, by the name it is given
    (``{measure name: column}``)."""

    def measure(rows):
        keep = at_seats(rows, seats)
        return pd.DataFrame({name: per_game(rows, rows[col], name, keep) for name, col in columns.items()})

    return measure


def natural(spec, seats: tuple[int, ...], players: int):
    """The game's natural measure over the measured ``seats`` (its spec's ``natural_measure``):
    rows -> DataFrame by game."""
    if spec.natural_measure is None:
        raise UsageError(f"{spec.name} has no natural measure; give a measure (a row column or a function)")
    return spec.natural_measure(seats, players)


def column(name: str, seats: tuple[int, ...]):
    """The row column ``name`` as a measure: its mean per game over the measured seats' rows."""

    def measure(rows):
        if not pd.api.types.is_numeric_dtype(rows[name]):
            raise UsageError(f"measure {name!r} is not a numeric column ({rows[name].dtype})")
        return per_game(rows, rows[name], name, at_seats(rows, seats)).to_frame()

    return measure


def values_of(result, rows: pd.DataFrame, name: str) -> dict[str, pd.Series]:
    """A measure's result as {measure: float Series indexed by game or by (game, deal, seat)}."""
    if isinstance(result, (pd.Series, pd.DataFrame)) and result.index.names in (["game"], ROW_KEY):
        frame = (
            result.to_frame(name if result.name is None else result.name)
            if isinstance(result, pd.Series)
            else result
        )
        return {str(c): frame[c].astype(float) for c in frame.columns}
    if isinstance(result, pd.DataFrame):
        raise UsageError(f"measure {name!r} returned a DataFrame not indexed by game")
    values = np.asarray(result, dtype=float)
    if values.shape != (len(rows),):
        raise UsageError(
            f"measure {name!r} gave {values.shape} values for {len(rows)} rows: return one per "
            "row, or a Series indexed by game"
        )
    index = pd.MultiIndex.from_frame(rows[ROW_KEY].astype(np.int64))
    return {name: pd.Series(values, index=index)}


# ------------------------------------------------------------------ sums


class _Sums:
    """Running count, mean and spread of values: exact integer sums while every
    value is whole, else the mean and the sum of squared deviations of each
    round merged (Chan et al.), so a constant shows no spread."""

    def __init__(self):
        self.n, self.sum, self.sumsq, self.binary = 0, 0, 0, True
        self.m2: float | None = None  # set (with self.sum the mean) once a value is not whole

    def add(self, v: np.ndarray) -> None:
        if not v.size:
            return
        self.binary = self.binary and bool(np.isin(v, (0.0, 1.0)).all())
        if self.m2 is None and (v == np.round(v)).all() and np.abs(v).max() < 2**31:
            w = v.astype(np.int64)
            self.n, self.sum, self.sumsq = (
                self.n + w.size,
                self.sum + int(w.sum()),
                self.sumsq + int((w * w).sum()),
            )
            return
        if self.m2 is None:  # the whole sums so far as a mean and a sum of squared deviations
            self.m2 = (self.sumsq - self.sum * self.sum / self.n) if self.n else 0.0
            self.sum = self.sum / self.n if self.n else 0.0
        mean, m2 = float(v.mean()), float(((v - v.mean()) ** 2).sum())
        n = self.n + v.size
        delta = mean - self.sum
        self.m2 += m2 + delta * delta * self.n * v.size / n
        self.sum += delta * v.size / n
        self.n = n

    def mean(self) -> dict:
        if self.m2 is None:
            return stats.mean_from_sums(self.sum, self.sumsq, self.n)
        se = float(np.sqrt(max(self.m2, 0.0) / (self.n - 1) / self.n)) if self.n > 1 else np.nan
        m = self.sum
        return {
            "estimate": m,
            "se": se,
            "ci_low": m - stats.Z95 * se,
            "ci_high": m + stats.Z95 * se,
            "n": self.n,
        }

    def share(self) -> dict:
        return stats.proportion(self.sum, self.n)


# ------------------------------------------------------------------ compare


def compare(
    game: str,
    arms,
    games: int = GAMES,
    seed: int = 0,
    *,
    players: int | None = None,
    measure=None,
    where: str | None = None,
    target_se: float | None = None,
    max_seconds: float | None = None,
    block: int = BLOCK,
    threads: int | None = None,
    progress: bool = False,
    out=None,
    force: bool = False,
    calibration=None,
    **options,
) -> pd.DataFrame:
    """Each arm's estimate of the measure(s) and its paired difference against
    the first arm, 95% CIs (see the module text); ``options``: rule options
    for every arm (an arm's own win) and conditions, passed to ``cardmc.simulate``.

    Returns one row per (measure, arm): ``estimate, se, ci_low, ci_high, n``
    (Wilson interval for a proportion), ``diff, diff_se, diff_ci_low,
    diff_ci_high, diff_n`` (paired, against the first arm) and ``unpaired_se``
    (the difference's error had the arms been played on independent deals);
    ``attrs`` say game, seed, games played, ``stopped_by`` (games, target_se or
    max_seconds), the measured seats, the filter and the seconds taken. With
    ``out`` the table is also written as CSV (atomically)."""
    from cardmc.api import simulate

    spec = registry.get(game)
    games, seed = checks.check_count("games", games), checks.check_seed(seed)
    block = checks.check_count("block", block)
    players = spec.check_players(players)
    target_se = checks.check_positive("target_se", target_se)
    max_seconds = checks.check_positive("max_seconds", max_seconds)
    rules = {k: v for k, v in options.items() if k in spec.rules or k in spec.options}
    condition = {k: v for k, v in options.items() if k not in rules}
    arms = check_arms(spec, arms, players, seed, rules, calibration)
    seats = measured_seats(spec, arms, players)
    if where is not None:
        where_mod.check(where, spec.columns)
    if measure is None:
        fn, label = natural(spec, seats, players), "natural"
    elif isinstance(measure, str):
        if measure not in spec.columns:
            raise UsageError(
                f"unknown measure {measure!r}; a row column of {game}: {', '.join(spec.columns)}"
            )
        fn, label = column(measure, seats), measure
    elif callable(measure):
        fn, label = measure, getattr(measure, "__name__", "measure")
    else:
        raise UsageError(f"measure must be a column name or a function of the rows, not {measure!r}")
    if out is not None:
        checks.check_file_target(out, checks.check_flag("force", force))

    sums: dict[tuple[str, str], _Sums] = {}
    diffs: dict[tuple[str, str], _Sums] = {}
    began = time.monotonic()

    def play(start: int, count: int) -> None:
        values = {}
        for arm in arms:
            rows = simulate(
                game,
                games=count,
                seed=seed,
                policy=arm.policy,
                players=players,
                threads=threads,
                start=start,
                calibration=calibration,
                **{**rules, **dict(arm.settings)},
                **condition,
            )
            rows = where_mod.apply(rows, where)
            values[arm.name] = values_of(fn(rows), rows, label)
        _add_round(arms, values, sums, diffs)

    played, stopped = rounds(
        play,
        games,
        lambda: _worst_se(diffs, arms[0].name),
        target_se,
        max_seconds,
        progress,
        f"compare {game}",
        block,
        unit=" games",
    )
    if where is not None and all(s.n == 0 for s in sums.values()):
        raise UsageError(f"no rows pass the filter {where!r}")
    table = _table(arms, sums, diffs)
    table.attrs.update(
        game=game,
        seed=seed,
        games=played,
        stopped_by=stopped,
        seats=list(seats),
        where=where,
        measure=label,
        seconds=round(time.monotonic() - began, 3),
    )
    if out is not None:
        from cardmc import files

        with files.atomic(out, force=force) as tmp:
            table.to_csv(tmp)
    return table


def _add_round(arms: list[Arm], values: dict, sums: dict, diffs: dict) -> None:
    base = values[arms[0].name]
    for arm in arms:
        mine = values[arm.name]
        if set(mine) != set(base):
            raise UsageError(
                f"arm {arm.name!r} gave the measures {sorted(mine)}, the first arm {sorted(base)}"
            )
        for m, series in mine.items():
            sums.setdefault((m, arm.name), _Sums()).add(series.to_numpy(float))
            if not series.index.equals(base[m].index):
                a, b = series.align(base[m], join="inner")
            else:
                a, b = series, base[m]
            diffs.setdefault((m, arm.name), _Sums()).add(a.to_numpy(float) - b.to_numpy(float))


def _worst_se(diffs: dict, base: str) -> float:
    """The largest standard error of a difference against the first arm (inf while one is unknown)."""
    ses = [d.mean()["se"] for (_, arm), d in diffs.items() if arm != base]
    return max(ses) if ses and all(s == s for s in ses) else float("inf")


def _table(arms: list[Arm], sums: dict, diffs: dict) -> pd.DataFrame:
    rows = []
    measures = list(dict.fromkeys(m for m, _ in sums))
    for m in measures:
        binary = all(sums[(m, a.name)].binary for a in arms)
        base = sums[(m, arms[0].name)]
        base_se = (base.share() if binary else base.mean())["se"]
        for arm in arms:
            s = sums[(m, arm.name)]
            est = s.share() if binary else s.mean()
            d = diffs[(m, arm.name)].mean()
            if arm is arms[0]:
                d = {**d, "se": 0.0, "ci_low": 0.0, "ci_high": 0.0}
            rows.append(
                {
                    "measure": m,
                    "arm": arm.name,
                    "policy": arm.policy or "",
                    "settings": "; ".join(f"{k}={v}" for k, v in arm.settings),
                    "estimate": est["estimate"],
                    "se": est["se"],
                    "ci_low": est["ci_low"],
                    "ci_high": est["ci_high"],
                    "n": est["n"],
                    "diff": d["estimate"],
                    "diff_se": d["se"],
                    "diff_ci_low": d["ci_low"],
                    "diff_ci_high": d["ci_high"],
                    "diff_n": d["n"],
                    "unpaired_se": float(np.hypot(est["se"], base_se)) if arm is not arms[0] else 0.0,
                }
            )
    return pd.DataFrame(rows).set_index(["measure", "arm"])


sys.modules[__name__].__class__ = CallableModule  # cardmc.compare(...) calls compare
