"""Report section "Ladders": every pair of each game's lineup in duplicate (``cardmc.ladder``).

A table and a chart a game: X minus Y of each pair, by the game's measures,
with 95% CIs. Pairs of plain policies play the study's games; a pair with a
search player plays far fewer (``search_games``), a fixed number so that the
seed fixes every figure, and the search player at its default depth (about a
second a deal a searching seat) meets only the game's default policy; in the
quick report the search players play their few games with ``QUICK``
settings, a sample a decision. The seconds a decision depend on the machine,
so the section leaves them out: ``cardmc ladder`` prints them.
"""

from __future__ import annotations

import pandas as pd

from cardmc import registry
from cardmc.display import cell
from cardmc.ladder import ladder
from cardmc.reports import charts
from cardmc.reports.section import Section, note

SEARCH_GAMES = (2, 4)  # games of a pair with a search player: the quick report's and the most
DEEP = "pimc"  # the search player at its default depth: against the default policy only, in one round
QUICK = {"pimc_samples": 1}  # the quick report's search players: one deal of the unseen cards a decision
MACHINE = ["seconds", "x_seconds", "y_seconds"]  # columns that depend on the machine, not on the seed


def search_games(games: int) -> int:
    """Games at most of a pair with a search player, for a study of ``games`` games a pair."""
    return max(SEARCH_GAMES[0], min(SEARCH_GAMES[1], games // 200))


def against_default(spec, table) -> str:
    """Each player minus the game's default policy, by the first measure, as a clause; empty when the
    lineup does not hold the default policy."""
    base = spec.default_policy
    measure = table.index.get_level_values("measure")[0]
    parts = [
        f"{y if x == base else x} {cell(row, sign=-1 if x == base else 1)}"
        for (x, y), row in table.loc[measure].iterrows()
        if base in (x, y)
    ]
    return f"{spec.title} ({measure}, minus {base}): {', '.join(parts)}" if parts else ""


def study(folder, games: int, seed: int, progress: bool = False) -> Section:
    search = search_games(games)
    quick = search == SEARCH_GAMES[0]
    settings = QUICK if quick else {}
    tables, files, data, commands, clauses = [], [], {}, [], []
    for game in registry.GAMES:
        spec = registry.get(game)
        note("ladder", progress, f"{game}: {', '.join(spec.ladder.lineup)}")
        lineups = [[p for p in spec.ladder.lineup if p != DEEP]]
        if DEEP in spec.ladder.lineup:
            lineups.append([spec.default_policy, DEEP])
        parts = [
            ladder(
                game,
                lineup,
                games=games,
                seed=seed,
                search_games=search if DEEP not in lineup else SEARCH_GAMES[0],
                timed=False,
                progress=progress,
                **settings,
            )
            for lineup in lineups
        ]
        t = pd.concat(parts).drop(columns=MACHINE)
        t.attrs.update(parts[0].attrs)
        t.attrs["unpaired"] = [u for part in parts for u in part.attrs["unpaired"]]
        unpaired = "".join(f" {x} and {y} are not paired: {why}." for x, y, why in t.attrs["unpaired"])
        tables.append(
            (
                f"{game}_ladder",
                f"{spec.title}: each player X against every player Y before it in the lineup, in duplicate "
                f"(every game twice on the same deals, X at the even seats and Y at the odd ones, then swapped): "
                f"the game's measure of X's seats minus Y's, one value a game, paired on the deals; n = games "
                f"(seed {seed}).{unpaired}",
                t,
            )
        )
        ax = charts.plot_ladder(t, title=f"{spec.title}: X minus Y in duplicate")
        files.append(
            (
                f"{game}_ladder",
                f"{spec.title}: X minus Y of each pair, with 95% CIs.",
                charts.save(ax, folder, f"ladder_{game}"),
            )
        )
        data[f"ladder_{game}"] = t
        for lineup in lineups:
            commands.append(
                f"cardmc ladder {game} {' '.join(lineup)} --games {games} "
                f"--search-games {search if DEEP not in lineup else SEARCH_GAMES[0]}"
                + "".join(f" --set {k}={v}" for k, v in settings.items())
                + f" --seed {seed} --no-timing"
            )
        clauses.append(against_default(spec, t))
    answer = (
        "In duplicate on the same deals, each player minus the game's default policy, by its first measure "
        "(95% CIs): " + "; ".join(c for c in clauses if c) + "."
    )
    stop = f" ({DEEP} at its default depth: {SEARCH_GAMES[0]} games, against the default policy only)" + (
        ", searching with " + ", ".join(f"{k}={v}" for k, v in settings.items()) if settings else ""
    )
    return Section(
        game="ladder",
        title="Ladders",
        question="How do the players compare, pair by pair, on the same deals?",
        answer=answer,
        tables=tables,
        charts=files,
        data=data,
        commands=commands,
        sample=f"{games:,} games a pair; a pair with a search player {search:,} games at most{stop}; "
        f"seed {seed}",
    )
