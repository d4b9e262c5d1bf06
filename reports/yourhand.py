"""Report section "Your hand": one decision table per game from ``cardmc odds``.

Each example is one hand and the question its owner faces (Differenzler: what
to declare; Schieber: which contract; Norwegian Jazz: a sevens hand under the
rule options; English Jazz: a sweep hand), asked through the generic
``cardmc.odds(game, ...)`` with a small sample so the section takes seconds.
A game whose module has no ``odds`` yet is left out with a line in the answer.
Every table's caption gives its seed, deals and the exact command.
"""

from __future__ import annotations

import shlex

import pandas as pd

from cardmc.reports.section import Section, note

CAP = 20_000  # deals per example at most, whatever --games says: the section stays a few seconds
FIGURE = ["estimate", "se", "ci_low", "ci_high", "n"]


def _trim_declarations(t: pd.DataFrame) -> pd.DataFrame:
    """The declaration curve every 10 points, and the declarations near the best (those with a
    paired difference to it)."""
    near = t["minus_best"].notna() if "minus_best" in t.columns else False
    return t[(t.index.to_series() % 10 == 0) | near]


# (game, title, question, options of cardmc.odds, variants {label: settings} or None, table, trim)
EXAMPLES = (
    (
        "differenzler",
        "Differenzler: what to declare",
        "Expected penalty of each declaration for a hand that leads, on the same deals of the unseen cards "
        "(lower is better; minus_best: the paired difference to the best)",
        {"hand": "AH KH QH 6S 7S AC 9D TD JD", "seat": 0},
        None,
        "declarations",
        _trim_declarations,
    ),
    (
        "schieber",
        "Schieber: which contract",
        "Each contract and pushing for a strong forehand, on the same deals of the unseen cards: the deal's "
        "points of both teams, the net with its paired difference to the best, the chance of a match",
        {"hand": "JH 9H AH KH QH AS KS AD 6C"},
        None,
        "choices",
        None,
    ),
    (
        "norwegian_jazz",
        "Norwegian Jazz: a sevens hand",
        "Deal 6 (sevens), 4 players, the hand in the seat after the dealer: going out first, passes and the deal "
        "score under the bonus of 10, the 'sjueren' bonus of 80 and sevens played out, on the same deals",
        {"hand": "AS 9S 8S 7S 5S KH 7H 3H 8D 6D 4C 3C 2C", "seat": 1, "dealer": 0, "deal": 6},
        {"bonus 10": {}, "bonus 80": {"first_out_bonus": 80}, "played out": {"play_out": True}},
        "summary",
        None,
    ),
    (
        "english_jazz",
        "English Jazz: a sweep hand",
        "The six best trumps-to-be, the top hearts and diamonds and no club, in the second seat: the chance of "
        "all 12 tricks, how the rules score it, the expected deal score",
        {"hand": "JS 9S AS KS QS TS AH KH QH AD KD QD", "seat": 2, "dealer": 0},
        None,
        "summary",
        None,
    ),
)


def command(game: str, options: dict, settings: dict, deals: int, seed: int) -> str:
    """The ``cardmc odds`` command line of one example."""
    parts = ["cardmc", "odds", game]
    for name, value in options.items():
        parts += [f"--{name}", str(value)]
    for name, value in settings.items():
        parts += ["--set", f"{name}={str(value).lower() if isinstance(value, bool) else value}"]
    parts += ["--games", str(deals), "--seed", str(seed)]
    return shlex.join(parts)


def has_odds(game: str) -> bool:
    from cardmc import registry

    return registry.get(game).advice is not None


def _figures(t: pd.DataFrame) -> pd.DataFrame:
    """A result table's estimates with their CIs (``estimate`` with ``ci_low``/``ci_high``, any ``X``
    with ``X_ci_low``/``X_ci_high``, and their SEs) and ``n``."""
    cols = [str(c) for c in t.columns]
    keep = []
    for c in cols:
        if c in FIGURE or any(
            c == f"{x}{tail}"
            for x in cols
            if f"{x}_ci_low" in cols
            for tail in ("", "_se", "_ci_low", "_ci_high")
        ):
            keep.append(c)
    return t[keep]


def study(folder, games: int = CAP, seed: int = 1, progress: bool = False) -> Section:
    from cardmc import odds

    deals = min(int(games), CAP)
    tables, data, commands, answers, missing = [], {}, [], [], []
    for game, title, question, options, variants, name, trim in EXAMPLES:
        if not has_odds(game):
            missing.append(title.split(":")[0])
            continue
        note("yourhand", progress, f"{game}: {deals:,} deals")
        runs = {
            label: (settings, odds(game, games=deals, seed=seed, settings=settings, **options))
            for label, settings in (variants or {"": {}}).items()
        }
        parts = {}
        for label, (settings, r) in runs.items():
            t = r["tables"][name] if name else next(iter(r["tables"].values()))
            parts[label] = _figures(trim(t) if trim else t)
            commands.append(command(game, options, settings, deals, seed))
        table = pd.concat(parts, names=["rules"]) if variants else parts[""]
        first = next(iter(runs.values()))[1]
        caption = (
            f"{question}. {first['question']}; {first['deals']:,} deals, seed {seed}. Command: "
            + "; ".join(command(game, options, s, deals, seed) for s, _ in runs.values())
        )
        key = f"yourhand_{game}"
        tables.append((key, f"{title}. {caption}", table))
        data[key] = table
        answers.append(_headline(title.split(":")[0], first))
    answer = " ".join(answers) + (
        f" ({', '.join(missing)}: no hand odds in this version.)" if missing else ""
    )
    return Section(
        game="yourhand",
        title="Your hand",
        question="What does one hand do, choice by choice, when the unseen cards are dealt at random?",
        answer=answer,
        tables=tables,
        charts=[],
        data=data,
        commands=commands,
        sample=f"{deals:,} deals per hand and choice, seed {seed}; each choice on the same deals",
    )


def _headline(name: str, r) -> str:
    """One sentence of an example's answer: the best choice, else the first figure."""
    from cardmc.display import estimate

    if r.get("best") is not None:
        return f"{name}: {r['best']}."
    t = next(iter(r["tables"].values()))
    row = t.iloc[0]
    return f"{name}: {t.index[0]} {estimate(row['estimate'], row['ci_low'], row['ci_high'], row.get('se'))}."
