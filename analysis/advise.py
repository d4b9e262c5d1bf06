"""Advice at one moment of a deal, from one seat's view: ``cardmc advise GAME``
and ``cardmc.advise(game, ...)``.

    >>> import cardmc
    >>> a = cardmc.advise("schieber", hand="JS 9S AS KH QH TD 8D", dealer=3, contract="S",
    ...                   plays="0:6C 1:7C 2:AC 3:8C 2:KC 3:9C 0:TC 1:QC")    # doctest: +SKIP
    >>> a.choices, a.best, a.policies                                          # doctest: +SKIP
    >>> cardmc.advise("schieber", hand="JS 9S AS TS 8S 8H 9H 8D 9D", dealer=3)  # doctest: +SKIP

The view (``cardmc.advice_view``): the seat's hand now, the plays so far in
order (each ``CARD`` or ``SEAT:CARD``; the seats follow from the dealer and
the tricks), the dealer, and what the game adds (its spec's ``adviser``:
Schieber ``contract`` and ``chooser``/``pushed``; Differenzler
``trump_card`` and ``declared``; English Jazz nothing, the plays set trump;
Norwegian Jazz ``number``, 1-5, and ``players``) — or a point of a trace,
``trace=FILE, game_index=I, deal=J, card=K``: the view of the seat to play
before the K-th card of deal J of the game with index I, from what that
seat saw.

For each legal card, the estimate of the seat's objective (the game's
``adviser.measure``) over ``samples`` deals of the unseen cards consistent
with the view (``cardmc.pimc.sample``), each solved with every hand seen
(``cardmc.pimc.solve_cards``), with its standard error and 95% interval
over the samples; the best card (the search player's rule: the best mean,
ties to the lowest card); and the card each policy of ``policy`` plays:
``heuristic`` (and Differenzler's ``calibrated``, which plays as it) from
the view alone, ``random`` uniformly among the legal cards from the seed,
``pimc`` the best card when ``pimc_tricks`` tricks or fewer are left, else
as ``heuristic``; a player of the game's own (its adviser's ``cards``:
Schieber's ``learned``) from the view by its own rule. The deals are drawn
one after another from the seed and then solved side by side on
``threads`` threads, each thread taking the next deal not yet solved: the
result depends on the game, the view, the policies, the samples and the
seed only. With more tricks left than the
game's search player can search (its ``pimc_tricks`` option's most), the
cards get no estimate and the policies still answer.

At a deal's start (no plays, and the view does not give the decision as
made: Schieber's contract, Differenzler's declaration) the advice is the
seat's decision there instead, each choice estimated by the game's hand
advice under heuristic play (``cardmc.advise_start``). Not advised here:
sevens, Norwegian Jazz's sixth deal.
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from cardmc import CallableModule, advice_view, advise_start, checks, pimc, registry, stats
from cardmc.kernels import cards as C
from cardmc.registry import UsageError

if TYPE_CHECKING:  # the cards' table is made on first read: the command line's answer loads no pandas
    import pandas as pd

DRAW = 0xAD  # the stream of the sampled deals, and of the random policy's card
RANDOM_CARD = 0xAE


@dataclass
class Advice:
    """The answer of ``advise``: the choices' estimates (the legal cards, or
    at a deal's start the game's decision there), the best choice, each
    policy's choice."""

    game: str
    question: str  # one line: the seat, its hand, the plays, the game's keys
    measure: str  # what an estimate is
    # the choices: at a deal's start the game's DataFrame, else the cards' rows, each a dict of the card
    # (as text) and its estimate, se, ci_low, ci_high, n; ``choices`` is the table of either
    table: pd.DataFrame | list[dict]
    best: str | None  # None when the cards were not searched
    policies: dict[str, str]
    samples: int  # deals sampled
    seed: int
    view: dict = field(repr=False)
    traced: dict | None = None  # at a trace's point: its turn there ({"seat", "legal", "card"})
    notes: list[str] = field(default_factory=list)
    decision: str = "card"  # what the choices are: a card, or the game's decision at a deal's start

    @functools.cached_property
    def choices(self) -> pd.DataFrame:
        """One row a choice (as text: a card, a contract, a declaration): estimate, se, ci_low, ci_high, n,
        and at a deal's start the game's own columns."""
        if not isinstance(self.table, list):
            return self.table
        import pandas as pd

        return pd.DataFrame(self.table).set_index(self.decision)


def advise(
    game: str,
    hand=None,
    *,
    seat=None,
    plays=None,
    dealer=None,
    players=None,
    policy=None,
    samples=None,
    seed=0,
    settings=None,
    threads=None,
    trace=None,
    game_index=None,
    deal=None,
    card=None,
    most_tricks=None,
    **own,
) -> Advice:
    """Advice for the seat to play, or at a deal's start for the seat to
    decide (see the module notes). ``own``: the game's keywords (its spec's
    ``adviser.options``). ``policy``: a name, a comma list or a list of names
    (default: heuristic). ``samples``: default the search player's
    ``pimc_samples``, at a deal's start the hand advice's deals.
    ``most_tricks``: search only with this many tricks left or fewer
    (default: the most the game's search player searches; whole deals can
    take minutes a sample). ``UsageError`` names an impossible view."""
    spec = registry.get(game)
    adviser = spec.adviser
    if adviser is None or spec.search_player is None:
        raise UsageError(f"{game} gives no advice at a decision")
    for name in own:
        if name not in adviser.options:
            raise UsageError(
                f"{game} advice takes no option {name!r}; its own: {', '.join(adviser.options) or 'none'}"
            )
    traced = None
    if trace is not None:
        given = [
            n
            for n, v in (
                ("hand", hand),
                ("seat", seat),
                ("plays", plays),
                ("dealer", dealer),
                ("players", players),
                *own.items(),
            )
            if v is not None
        ]
        if given:
            raise UsageError(f"a trace point gives the view: {', '.join(given)} cannot be given with it")
        keywords, traced = advice_view.traced(spec, trace, game_index, deal, card)
        settings = {**keywords.pop("settings"), **(settings or {})}
        own = keywords.pop("own")
        hand, seat, plays, dealer, players = (
            keywords[k] for k in ("hand", "seat", "plays", "dealer", "players")
        )
    elif game_index is not None or deal is not None or card is not None:
        raise UsageError("game_index, deal and card name a point of a trace: give trace= too")
    seed = checks.check_seed(seed)
    threads = checks.check_threads(threads)
    names = policy_names(policy)
    if plays is not None and not isinstance(plays, str):
        plays = list(plays)
    if advise_start.asks(spec, plays, own):
        return advise_start.advise(
            spec, hand, seat, dealer, players, own, names, samples, seed, settings, threads
        )
    full = spec.settings(settings)
    # the options alone: what a spec's params derive from them for the decisions before the play (a push
    # threshold) plays no part in a card
    params = registry.GameSpec.params(spec, full)
    samples = spec.options["pimc_samples"].parse(
        "samples", full["pimc_samples"] if samples is None else samples
    )
    view = advice_view.build(spec, hand, seat, plays, dealer, players, own)
    kinds = {name: play_kind(spec, name, view["players"]) for name in names}
    left = bin(view["hand"]).count("1")
    most = spec.options["pimc_tricks"].parse(
        "most_tricks", spec.options["pimc_tricks"].high if most_tricks is None else most_tricks
    )
    notes = []
    if left <= most:
        table, best = estimates(spec, view, samples, seed, threads)
    else:
        only = view["legal"] & (view["legal"] - 1) == 0
        table, best = empty_rows(view), C.code(C.cards_of(view["legal"])[0]) if only else None
        notes.append(f"not searched: {left} tricks left, more than {most}")
    chosen = {}
    for name, kind in kinds.items():
        if kind == "pimc" and left <= int(full["pimc_tricks"]) and best is not None:
            chosen[name] = best
        elif kind == "random":
            legal = C.cards_of(view["legal"])
            chosen[name] = C.code(legal[int(np.random.default_rng([seed, RANDOM_CARD]).integers(len(legal)))])
        elif kind in adviser.cards:
            chosen[name] = C.code(adviser.cards[kind](view, params))
        else:
            chosen[name] = C.code(adviser.heuristic(view, params))
    if traced is not None:
        notes.append(f"the trace: seat {traced['seat']} played {traced['card']}")
    return Advice(
        game=spec.name,
        question=question(view, own),
        measure=adviser.measure,
        table=table,
        best=best,
        policies=chosen,
        samples=samples,
        seed=seed,
        view=view,
        traced=traced,
        notes=notes,
    )


def policy_names(policy) -> list[str]:
    """The policy names asked for: a name, a comma list or a list (default: heuristic)."""
    if policy is None:
        return ["heuristic"]
    items = policy if isinstance(policy, (list, tuple)) else [policy]
    out = []
    for item in items:
        if not isinstance(item, str):
            raise UsageError(f"policy must be a name such as 'heuristic', not {item!r}")
        out.extend(p.strip() for p in item.split(",") if p.strip())
    if not out:
        raise UsageError("policy names no policy")
    return list(dict.fromkeys(out))


def play_kind(spec: registry.GameSpec, name: str, players: int) -> str | int:
    """How policy ``name`` plays a card: ``random``, ``pimc``, ``heuristic``, or its play policy code
    when the game's adviser plays it (``adviser.cards``)."""
    code = int(spec.parse_policy(name, players)[0, 0])
    if code == spec.search_player.scripted:
        return "pimc"
    if code in spec.adviser.cards:
        return code
    return "random" if code == spec.adviser.random else "heuristic"


def estimates(
    spec: registry.GameSpec, view: dict, samples: int, seed: int, threads: int | None
) -> tuple[list[dict], str]:
    """Each legal card's estimate over ``samples`` deals of the unseen cards
    (``Advice.table``'s rows), and the best card (the search player's rule on
    the means of the search's values)."""
    import threading

    import numba

    from cardmc.kernels.jit import in_threads

    hooks = spec.search_player
    R = pimc.rules(view)
    banned = pimc.forbidden(view, R, pimc.unseen_of(view))
    rng = np.random.default_rng([seed, DRAW])
    try:
        deals = [pimc.sample(view, rng, R, banned) for _ in range(samples)]
    except RuntimeError:
        raise UsageError("no deal of the unseen cards fits the plays and the hand") from None
    past = None if hooks.cards is not None else pimc.history(view, R)
    found: list[dict[int, int] | None] = [None] * samples
    shares = max(1, min(samples, threads or numba.get_num_threads()))
    # each deal to whichever thread is free next: a deal's values are exact, whoever solves it
    order = iter(range(samples))
    lock = threading.Lock()

    def work(p: int) -> None:
        mine = R.copy()  # a search writes its key space into its rules array
        tt = pimc.search_table()
        while True:
            with lock:
                i = next(order, None)
            if i is None:
                return
            found[i] = pimc.solve_cards(view, deals[i], mine, tt, past)

    in_threads(work, shares)
    gained = 0 if past is None else past[0]
    rows, totals = [], {}
    for c in C.cards_of(view["legal"]):
        raw = [f[c] for f in found]
        totals[c] = sum(raw)
        rows.append({"card": C.code(c), **stats.mean([spec.adviser.value(view, gained, v) for v in raw])})
    best = min(totals, key=lambda c: (hooks.sign * totals[c], c))
    return rows, C.code(best)


def empty_rows(view: dict) -> list[dict]:
    """The rows of cards not searched: no estimate."""
    return [
        {"card": C.code(c), "estimate": np.nan, "se": np.nan, "ci_low": np.nan, "ci_high": np.nan, "n": 0}
        for c in C.cards_of(view["legal"])
    ]


def question(view: dict, own: dict) -> str:
    """The view in one line."""
    plays = " ".join(f"{s}:{C.code(c)}" for s, c in view["plays"]) or "none"
    extra = "".join(f", {k} {v}" for k, v in own.items() if v is not None)
    return (
        f"seat {view['me']} to play, hand {' '.join(C.codes_of(view['hand']))}, dealer {view['dealer']}"
        f"{extra}; plays {plays}"
    )


# ------------------------------------------------------------------ output


def show(result: Advice) -> str:
    """The result as text: the view, each choice's estimate with its 95% CI, the best choice, each
    policy's choice."""
    from cardmc.display import show as show_table
    from cardmc.display import show_rows

    name, rows = f"{result.decision}s", result.table
    lines = [
        f"{result.game}: {result.question}",
        f"{result.samples:,} sampled deals, seed {result.seed}; estimate: {result.measure}",
        show_rows(name, rows, result.decision)
        if isinstance(rows, list)
        else show_table(name, rows, max_rows=len(rows)),
    ]
    if result.best is not None:
        lines.append(f"\nbest: {result.best}")
    lines.extend(f"{name}: {card}" for name, card in result.policies.items())
    lines.extend(result.notes)
    return "\n".join(lines)


def write(result: Advice, out, force: bool = False):
    """The choices' table as one CSV, with a ``best`` flag and one flag column per policy. Atomic."""
    from pathlib import Path

    from cardmc import files

    path = Path(out)
    checks.check_file_target(path, force)
    t = result.choices.copy()
    t["best"] = [c == result.best for c in t.index]
    for name, c in result.policies.items():
        t[f"policy_{name}"] = [x == c for x in t.index]
    with files.atomic(path, force=force) as tmp:
        t.to_csv(tmp)
    return path


sys.modules[__name__].__class__ = CallableModule  # cardmc.advise(...) calls advise
