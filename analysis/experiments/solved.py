"""Studies that set play against the solver's perfect-information values.

``sweeps_solved(seed, games)``, English Jazz: how often a hand could take
all 12 tricks with every hand seen, against the other two playing together
(``cardmc.solve_deals.could_sweep``), beside how often it does under
heuristic and under random play, on the same deals, per million, by the
position of the hand. A hand that sweeps in play where the solver says it
could not was let through by the others' mistakes.

``contracts_solved(rows)``, Schieber, and ``declarations_solved(rows)``,
Differenzler, read rows simulated with ``solve=True``
(``cardmc.simulate(..., solve=True)``; whole Jass deals take seconds each to
solve, so these are for small runs): how often the contract chosen is the
one with the most points for the chooser's team under best play, and what
the other choices cost; where each declaration falls against the seat's
sure points (at least, at most).

``stored_contracts()`` is ``contracts_solved`` over a run made once and
shipped with cardmc (``data/schieber_solved.csv``: the chooser's row of each
deal of 32 matches of heuristic play, seed 1, with its solved columns; its
head gives the command that made it and cardmc's version). Solving a whole
Schieber deal under all six contracts takes about 40 s on one core, so the
report reads that run instead of solving while it runs.
``stored_declarations()`` does the same for Differenzler
(``data/differenzler_solved.csv``: every seat's row of games of calibrated
play, with its two solved values; 4 to 30 minutes a deal on one core), with
the declarations of the other rules on the same hands beside it.

``aggregate(game, rows)`` and ``summarise(game, aggregates)`` make the
solved tables of every game from such rows, so that ``cardmc analyze``
shows them and aggregate runs (``simulate(..., solve=True,
aggregate=True)``) carry them: their tables (``solved_*``) are additive
like every aggregate (``cardmc.aggregate``), and ``summarise`` turns any
merge of them into ``solved_contracts`` (Schieber), ``solved_declarations``
(Differenzler), ``solved_sweeps`` (English Jazz) or ``solved_deals``
(Norwegian Jazz); ``contracts_solved`` and ``declarations_solved`` are two
of them.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from cardmc import aggregate as agg
from cardmc import stats
from cardmc.api import simulate
from cardmc.checks import check_count, check_seed
from cardmc.experiments.common import BLOCK, blocks, record
from cardmc.experiments.english_jazz import MILLION, POLICIES, POSITION_OF, POSITIONS, _paired, _rate
from cardmc.kernels.english_jazz import DEALS, PLAYERS
from cardmc.kernels.schieber import CONTRACT_NAMES
from cardmc.solve_deals import could_sweep
from cardmc.stats import named

ARMS = ("solved", *POLICIES)
UNITS = ("some hand", *POSITIONS)  # per deal: any seat; then the hand in each position


def sweeps_solved(seed: int, games: int, block: int = BLOCK, progress: bool = False,
                  threads: int | None = None) -> pd.DataFrame:  # fmt: skip
    """Per deal (some hand) and per hand by position: sweeps per million with
    every hand seen (``solved``: it could, whatever the other two do) and in
    play (``random``, ``heuristic``: it did), Wilson 95% CIs, and
    solved minus heuristic paired on the same deals and hands."""
    seed, games = check_seed(seed), check_count("games", games)
    events = {arm: np.zeros(len(UNITS), np.int64) for arm in ARMS}
    pairs = np.zeros((len(UNITS), 2), np.int64)  # only solved, only heuristic
    for start, n in blocks(games, block, progress, "english_jazz"):
        flags, _ = could_sweep(seed, start, n, threads)
        flags = {"solved": flags}
        position = None
        for p in POLICIES:
            df = simulate("english_jazz", games=n, seed=seed, policy=p, start=start, threads=threads)
            flags[p] = df["all_tricks"].to_numpy().reshape(n, DEALS, PLAYERS).astype(bool)
            position = POSITION_OF[df["position"].to_numpy(np.int64).reshape(n, DEALS, PLAYERS)]
        for u in range(len(UNITS)):
            per = {arm: (f.any(axis=2) if u == 0 else f[position == u - 1]) for arm, f in flags.items()}
            for arm in ARMS:
                events[arm][u] += int(per[arm].sum())
            could, did = per["solved"], per["heuristic"]
            pairs[u] += (int((could & ~did).sum()), int((~could & did).sum()))
    deals = games * DEALS
    rows = []
    for u, unit in enumerate(UNITS):
        row = {"unit": unit}
        for arm in ARMS:
            row.update(_rate(arm, events[arm][u], deals, MILLION))
        both = events["solved"][u] - pairs[u, 0]
        paired = _paired(int(pairs[u, 0]), int(pairs[u, 1]), int(both), deals, MILLION)
        row.update(named("solved_minus_heuristic", paired))
        row.update({"only_solved": int(pairs[u, 0]), "only_heuristic": int(pairs[u, 1]), "n": deals})
        rows.append(row)
    return record(pd.DataFrame(rows).set_index("unit"), seed=seed, games=games)


def _need(rows: pd.DataFrame, game: str, columns) -> None:
    missing = [c for c in columns if c not in rows]
    if missing:
        from cardmc.registry import UsageError

        raise UsageError(f"{game} rows without {', '.join(missing)}: simulate with solve=True")


def _estimate(name: str, d: dict) -> dict:
    return {"measure": name, **{k: d[k] for k in ("estimate", "se", "ci_low", "ci_high", "n")}}


def _flag(hit) -> np.ndarray:
    return np.asarray(hit, dtype=bool).astype(np.int64)


def _aggregate_schieber(rows: pd.DataFrame) -> dict[str, pd.DataFrame]:
    from cardmc.solve import SCHIEBER_CONTRACTS

    each = [f"solved_{c}" for c in SCHIEBER_CONTRACTS]
    _need(rows, "schieber", ["solved_points", *each])
    mine = rows[(rows["seat"] == rows["chooser"]).to_numpy()]
    lost = mine[each].to_numpy(np.int64).max(axis=1) - mine["solved_points"].to_numpy(np.int64)
    t = pd.DataFrame({"pushed": mine["pushed"].to_numpy(np.int64), "best": _flag(lost == 0), "lost": lost})
    return {"solved_contracts": agg.moments(t, ["pushed"], ["best", "lost"])}


def _summarise_schieber(aggs: dict) -> pd.DataFrame:
    t = aggs["solved_contracts"]
    out = []
    for label, keep in (("all deals", [0, 1]), ("pushed", [1]), ("kept", [0])):
        part = t[t.index.isin(keep)]
        n = int(part["n"].sum())
        if n == 0:
            continue
        sums = part[["best_sum", "lost_sum", "lost_sumsq"]].sum()
        chose_best = stats.proportion(int(sums["best_sum"]), n)
        lost = stats.mean_from_sums(int(sums["lost_sum"]), int(sums["lost_sumsq"]), n)
        out.append({"deals": label, **_estimate("best contract chosen", chose_best)})
        out.append({"deals": label, **_estimate("points left (best minus chosen)", lost)})
    return pd.DataFrame(out).set_index(["deals", "measure"])


def _aggregate_differenzler(rows: pd.DataFrame) -> dict[str, pd.DataFrame]:
    _need(rows, "differenzler", ["solved_at_least", "solved_at_most"])
    declared = rows["declared"].to_numpy(np.int64)
    low, high = rows["solved_at_least"].to_numpy(np.int64), rows["solved_at_most"].to_numpy(np.int64)
    t = pd.DataFrame({"declare_policy": rows["declare_policy"], "below": _flag(declared < low),
                      "above": _flag(declared > high), "between": _flag((declared >= low) & (declared <= high)),
                      "over": declared - low})  # fmt: skip
    return {"solved_declarations": agg.moments(t, ["declare_policy"], ["below", "above", "between", "over"])}


def _summarise_differenzler(aggs: dict) -> pd.DataFrame:
    out = []
    for policy, r in aggs["solved_declarations"].iterrows():
        n = int(r["n"])
        if n == 0:
            continue
        for name, col in (("below sure at least", "below"), ("above sure at most", "above"),
                          ("between", "between")):  # fmt: skip
            out.append({"declare_policy": policy, **_estimate(name, stats.proportion(int(r[f"{col}_sum"]), n))})
        over = stats.mean_from_sums(int(r["over_sum"]), int(r["over_sumsq"]), n)
        out.append({"declare_policy": policy, **_estimate("declared minus sure at least", over)})
    return pd.DataFrame(out).set_index(["declare_policy", "measure"])


def _aggregate_english_jazz(rows: pd.DataFrame) -> dict[str, pd.DataFrame]:
    _need(rows, "english_jazz", ["solved_tricks", "solved_sweep"])
    could, did = rows["solved_sweep"].to_numpy(np.int64) == 1, rows["all_tricks"].to_numpy(np.int64) == 1
    t = pd.DataFrame({"position": rows["position"].to_numpy(np.int64), "could": _flag(could), "did": _flag(did),
                      "only_could": _flag(could & ~did), "only_did": _flag(~could & did),
                      "sure_tricks": rows["solved_tricks"].to_numpy(np.int64),
                      "tricks": rows["tricks"].to_numpy(np.int64)})  # fmt: skip
    return {"solved_sweeps": agg.moments(t, ["position"], ["could", "did", "only_could", "only_did",
                                                           "sure_tricks", "tricks"])}  # fmt: skip


def _summarise_english_jazz(aggs: dict) -> pd.DataFrame:
    t = aggs["solved_sweeps"]
    names = {p: POSITIONS[POSITION_OF[p]] for p in range(PLAYERS)}
    parts = [("every hand", t)] + [(names[p], t[t.index == p]) for p in (1, 2, 0)]
    out = []
    for label, part in parts:
        s = part.sum()
        n = int(s["n"])
        if n == 0:
            continue
        row = {"hands": label}
        row.update(_rate("could_sweep_per_million", int(s["could_sum"]), n, MILLION, "could_sweep_events"))
        row.update(_rate("did_sweep_per_million", int(s["did_sum"]), n, MILLION, "did_sweep_events"))
        row.update(named("could_minus_did_per_million", _paired(int(s["only_could_sum"]), int(s["only_did_sum"]),
                                                    0, n, MILLION)))  # fmt: skip
        for name in ("sure_tricks", "tricks"):
            row.update(named(f"mean_{name}", stats.mean_from_sums(int(s[f"{name}_sum"]), int(s[f"{name}_sumsq"]),
                                                                  n)))  # fmt: skip
        row["n"] = n
        out.append(row)
    return pd.DataFrame(out).set_index("hands")


def _aggregate_norwegian_jazz(rows: pd.DataFrame) -> dict[str, pd.DataFrame]:
    _need(rows, "norwegian_jazz", ["solved_held_to", "solved_escape", "solved_out_first", "solved_score"])
    tricks = rows["deal"].to_numpy(np.int64) <= 5
    score = rows["score"].to_numpy(np.int64)
    held = rows["solved_held_to"].fillna(0).to_numpy(np.int64)
    escape = rows["solved_escape"].fillna(0).to_numpy(np.int64)
    out_first = rows["solved_out_first"].fillna(0).to_numpy(np.int64)
    sure = rows["solved_score"].fillna(0).to_numpy(np.int64)
    first = rows["first_out"].to_numpy(np.int64) if "first_out" in rows else np.zeros(len(rows), np.int64)
    t = pd.DataFrame({"players": rows["players"].to_numpy(np.int64), "deal": rows["deal"].to_numpy(np.int64),
                      "score": score, "held_to": np.where(tricks, held, sure),
                      "escape": np.where(tricks, escape, 0), "over_held_to": score - np.where(tricks, held, sure),
                      "could_go_out": _flag(~tricks & (out_first == 1)), "went_out": _flag(~tricks & (first == 1))})
    return {"solved_deals": agg.moments(t, ["players", "deal"], ["score", "held_to", "escape", "over_held_to",
                                                                 "could_go_out", "went_out"])}  # fmt: skip


def _summarise_norwegian_jazz(aggs: dict) -> pd.DataFrame:
    out = []
    for (players, deal), r in aggs["solved_deals"].iterrows():
        n = int(r["n"])
        if n == 0:
            continue
        row = {"players": players, "deal": deal}
        names = ("score", "held_to", "escape", "over_held_to") if deal <= 5 else ("score", "held_to", "over_held_to")
        for name in names:
            label = {"held_to": "sure_score"}.get(name, name) if deal > 5 else name
            row.update(named(f"mean_{label}", stats.mean_from_sums(int(r[f"{name}_sum"]), int(r[f"{name}_sumsq"]), n)))
        if deal > 5:
            row.update(_rate("could_go_out_first", int(r["could_go_out_sum"]), n, 1))
            row.update(_rate("went_out_first", int(r["went_out_sum"]), n, 1))
        row["n"] = n
        out.append(row)
    return pd.DataFrame(out).set_index(["players", "deal"])


_AGGREGATE = {"schieber": _aggregate_schieber, "differenzler": _aggregate_differenzler,
              "english_jazz": _aggregate_english_jazz, "norwegian_jazz": _aggregate_norwegian_jazz}
_SUMMARISE = {"schieber": ("solved_contracts", _summarise_schieber),
              "differenzler": ("solved_declarations", _summarise_differenzler),
              "english_jazz": ("solved_sweeps", _summarise_english_jazz),
              "norwegian_jazz": ("solved_deals", _summarise_norwegian_jazz)}


def has_solved(rows: pd.DataFrame) -> bool:
    """Do ``rows`` carry the solver's columns (``simulate(..., solve=True)``)?"""
    return any(str(c).startswith("solved_") for c in rows.columns)


def aggregate(game: str, rows: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The additive tables of the solved study of ``game`` from rows simulated
    with ``solve=True`` (whole games, any split of them: merge with
    ``cardmc.aggregate.merge``)."""
    return _AGGREGATE[game](rows)


def summarise(game: str, aggs: dict) -> dict[str, pd.DataFrame]:
    """The solved table of ``game`` from merged ``aggregate`` tables; {} when
    the aggregates carry none (a run without ``solve=True``)."""
    name, make = _SUMMARISE[game]
    return {name: make(aggs)} if name in aggs else {}


def tables(game: str, rows: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """``summarise(game, aggregate(game, rows))``, or {} for rows without solved columns."""
    return summarise(game, aggregate(game, rows)) if has_solved(rows) else {}


def contracts_solved(rows: pd.DataFrame) -> pd.DataFrame:
    """Schieber, one row per measure over the deals of ``rows`` (simulated
    with ``solve=True``): the share of deals whose chosen contract gives the
    chooser's team the most points under best play (Wilson 95% CI), and the
    mean points the choice left against the best contract (95% CI), overall
    and for pushed and kept choices."""
    return _summarise_schieber(_aggregate_schieber(rows))


def declarations_solved(rows: pd.DataFrame) -> pd.DataFrame:
    """Differenzler, by declaration policy: the share of declarations below
    the points the seat can be sure to reach (``solved_at_least``), above the
    points it can be sure not to exceed (``solved_at_most``), and between
    (Wilson 95% CIs); and the mean of declared minus sure at least (95% CI)."""
    return _summarise_differenzler(_aggregate_differenzler(rows))


STORED_SCHIEBER = Path(__file__).parent / "data" / "schieber_solved.csv"
STORED_COLUMNS = ("game", "deal", "seat", "chooser", "pushed", "contract", "solved_points",
                  *(f"solved_{c}" for c in CONTRACT_NAMES))  # fmt: skip
STORED_DIFFERENZLER = Path(__file__).parent / "data" / "differenzler_solved.csv"
STORED_DIFFERENZLER_COLUMNS = ("game", "deal", "seat", "declare_policy", "declared", "made", "solved_at_least",
                               "solved_at_most")  # fmt: skip
STORED = {"schieber": (STORED_SCHIEBER, STORED_COLUMNS),  # the chooser's row of each deal
          "differenzler": (STORED_DIFFERENZLER, STORED_DIFFERENZLER_COLUMNS)}  # every seat's row


def read_stored(path=None, game: str = "schieber") -> tuple[pd.DataFrame, dict]:
    """(rows, facts) of a stored solved run of ``game`` (default: the one
    shipped with cardmc): the rows of its stored columns (``STORED``) and the
    ``# name: value`` lines of the file's head (seed, games, deals, command,
    cardmc)."""
    default, columns = STORED[game]
    path = default if path is None else path
    facts = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.startswith("#"):
                break
            name, _, value = line[1:].partition(":")
            facts[name.strip()] = value.strip()
    rows = pd.read_csv(path, comment="#")
    missing = [c for c in columns if c not in rows]
    if missing or not {"seed", "games", "command", "cardmc"} <= set(facts) or facts.get("game", game) != game:
        raise ValueError(f"{path} is not a stored solved run of {game} (missing {missing or sorted(facts)})")
    for name in ("seed", "games", "deals"):
        if name in facts:
            facts[name] = int(facts[name])
    return rows, facts


def stored_contracts(path=None) -> pd.DataFrame:
    """``contracts_solved`` over the stored Schieber run (``read_stored``),
    its facts (seed, games, deals, command, cardmc) in ``attrs``."""
    rows, facts = read_stored(path)
    return record(contracts_solved(rows), **facts)


def stored_declarations(path=None, rules=("random", "heuristic")) -> pd.DataFrame:
    """``declarations_solved`` over the stored Differenzler run (every seat
    declaring by the calibrated rule) and, on the same hands, over the
    declarations of each of ``rules`` (the same games simulated again with
    heuristic play and that declaration rule: a deal, and so its solved
    values, does not depend on the play); its facts in ``attrs``."""
    rows, facts = read_stored(path, "differenzler")
    keys = ["game", "deal", "seat"]
    solved = rows[keys + ["solved_at_least", "solved_at_most"]]
    parts = [rows]
    for rule in rules:
        df = simulate("differenzler", games=facts["games"], seed=facts["seed"], policy=f"heuristic:{rule}")
        other = df[keys + ["declare_policy", "declared", "made"]].astype({k: np.int64 for k in keys})
        parts.append(other.merge(solved, on=keys, how="inner", validate="one_to_one"))
    every = pd.concat([p.astype({"declare_policy": str}) for p in parts], ignore_index=True)
    return record(declarations_solved(every), **facts)


def write_stored(rows: pd.DataFrame, path, seed: int, games: int, command: str, game: str = "schieber") -> None:
    """Stores a run of ``game`` simulated with ``solve=True`` as ``read_stored``
    reads it: Schieber, the chooser's row of each deal; Differenzler, every
    row."""
    from cardmc import __version__
    from cardmc.files import write_text

    columns = STORED[game][1]
    _need(rows, game, columns)
    mine = rows[(rows["seat"] == rows["chooser"]).to_numpy()] if game == "schieber" else rows
    mine = mine.loc[:, list(columns)].sort_values(["game", "deal", "seat"])
    mine = mine.astype({c: str for c in ("contract", "declare_policy") if c in mine})
    deals = len(mine.drop_duplicates(["game", "deal"]))
    facts = (("game", game), ("seed", seed), ("games", games), ("deals", deals), ("command", command), ("cardmc", __version__))
    head = "".join(f"# {k}: {v}\n" for k, v in facts)
    write_text(path, head + mine.to_csv(index=False, lineterminator="\n"))
