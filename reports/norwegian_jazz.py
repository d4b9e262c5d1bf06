"""Norwegian Jazz study: what the sixth deal does to the game, and what if it paid 80.

The tables come from ``cardmc.experiments.norwegian_jazz``: ``sixth_deal_study``
(each game of 3 to 7 players under sevens with the 10-point bonus, the 80-point
bonus and sevens played out, on the same deals, with each deal's cost by seat
from the default games) and ``edge_tables`` (a heuristic player against random
ones). ``games`` is the number of games per player count (and per sevens
rule); the heuristic edge uses a quarter of it per player count, each game
replayed players + 1 times. This module writes the headline and draws.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from cardmc.checks import check_count, check_seed
from cardmc.display import cell
from cardmc.experiments.common import search_match
from cardmc.experiments.norwegian_jazz import (
    COMPARISONS,
    EDGE_SHARE,
    PLAYERS,
    RULES,
    SEVENS_80,
    SJUEREN,
    edge_tables,
    paired_changes,
    sevens_by_bonus,
    sixth_deal_study,
    standings,
)
from cardmc.registry import UsageError
from cardmc.reports import charts, strong_play
from cardmc.reports import norwegian_jazz_charts as nc
from cardmc.reports.section import Section, note

QUESTION = "What does the sixth deal do to a game of Norwegian Jazz — and what if it paid 80 instead of 10?"
TABLE_CAPTIONS = {
    "sixth_deal": (
        "Per player count and sevens rule, the same games (heuristic play): share of games in which the "
        "sixth deal changes the winner (the set of best seats differs from the five-deal one), in which no "
        "five-deal leader wins, and that end in a shared win; Kendall tau-b between five-deal and final "
        "standings (tau_n: games where both rankings are not all tied). n = games."
    ),
    "bonus_80_vs_10": (
        "Paired on the same games: each sevens rule minus the 10-point bonus (proportions as differences of "
        "shares, tau as mean difference per game)."
    ),
    "deal_cost_by_seat": (
        "Each deal's cost by seat (10-point bonus unless named): table_mean = points a seat scores on "
        "average in the deal (fixed in deals 1-5, where every penalty is taken); dealer, leader = that "
        "seat's score minus the table mean; extra_card = the seats dealt one card more in sevens (the first "
        "52 mod n after the dealer, so the leader is one of them) minus the table mean. n = games."
    ),
    "heuristic_edge": (
        "A heuristic player against random opponents minus a random player in the same seat, on the same "
        "deals, averaged over the seats: points per deal and per game (game_points) and the change in the "
        "chance of winning (win_chance, shared wins count). n = games ({edge_games:,} per player count, each "
        "replayed players + 1 times)."
    ),
}
CHART_CAPTIONS = {
    "winner_change": (
        "Share of games in which the sixth deal changes the winner (the set of seats with the best total "
        "after five deals differs from the final one), by player count and sevens rule, on the same games; "
        "95% Wilson CIs."
    ),
    "rank_correlation": (
        "Kendall tau-b between the standings after five and after six deals (1 = the sixth deal changes no "
        "order), mean per game with 95% CIs."
    ),
    "seat_effect": (
        "Each deal's score by seat minus the table mean of the same deal (D = dealer, L = leader), 10-point "
        "bonus; 95% CIs."
    ),
    "sevens_by_seat": (
        f"Sevens score by seat minus the table mean, with the 10- and the {SJUEREN}-point first-out bonus on "
        "the same play; 95% CIs."
    ),
    "heuristic_edge": (
        "Points per deal a heuristic player gains over a random player in the same seat on the same deals "
        "(random opponents); 95% CIs."
    ),
}


def headline(table: pd.DataFrame, paired: pd.DataFrame) -> str:
    """The one-sentence answer (4 players, with 3 and 7 for the range), every number with its 95% CI."""
    counts = sorted(set(table.index.get_level_values("players")))
    n = 4 if 4 in counts else counts[0]
    base, sj = table.loc[(n, RULES["default"])], table.loc[(n, RULES["bonus80"])]
    diff = paired.loc[(n, COMPARISONS["bonus80"])]
    lo_n, hi_n = counts[0], counts[-1]
    span = ""
    if lo_n != hi_n:
        span = (
            f" (from {cell(table.loc[(lo_n, RULES['default'])], 'winner_changed', 100, '%')} at {lo_n} players "
            f"to {cell(table.loc[(hi_n, RULES['default'])], 'winner_changed', 100, '%')} at {hi_n})"
        )
    return (
        f"With the usual 10-point bonus the sixth deal, sevens, changes who wins in "
        f"{cell(base, 'winner_changed', 100, '%')} of {int(base['games']):,} {n}-player games{span} and mostly "
        f"keeps the five-deal ranking (Kendall tau {cell(base, 'tau')}); paying {SJUEREN} instead makes "
        f"sevens decide most games: on the same deals the winner changes in {cell(sj, 'winner_changed', 100, '%')} "
        f"of {n}-player games "
        f"({cell(diff, 'winner_changed', 100)} percentage points more) and tau falls to {cell(sj, 'tau')}."
    )


def commands(games: int, seed: int, edge_games: int) -> list[str]:
    counts = " ".join(map(str, PLAYERS))
    tup = ", ".join(map(str, PLAYERS))
    return [
        "# winner change and rank correlation, bonus 10 vs 80 vs played out, paired on the same games",
        'python -c "from cardmc.experiments.norwegian_jazz import sixth_deal_study; '
        "from cardmc.display import show; "
        f'r = sixth_deal_study(seed={seed}, games={games}); print(*(show(k, v, 200) for k, v in r.items()))"',
        "# each deal's cost by seat (sevens also rescored with the 80-point bonus)",
        f"for n in {counts}; do",
        f"  cardmc simulate norwegian_jazz --games {games} --seed {seed} --players $n "
        f"--out norwegian_jazz_${{n}}p.parquet --force",
        '  python -c "import sys, pandas as pd; from cardmc.experiments.norwegian_jazz import seat_study; '
        "from cardmc.display import show; "
        '[print(show(k, v, 300)) for k, v in seat_study(pd.read_parquet(sys.argv[1])).items()]" '
        "norwegian_jazz_${n}p.parquet",
        "done",
        "# the heuristic player's edge over random",
        f'python -c "from cardmc.experiments.norwegian_jazz import heuristic_edge; from cardmc.display import show; '
        f"[print(show(f'{{n}} players', heuristic_edge(seed={seed}, games={edge_games}, players=n))) "
        f'for n in ({tup})]"',
    ]


PIMC_GAMES = (
    40,
    200,
)  # 4-player games of the search player against the heuristic (a tenth of a second a game)
PIMC_ARMS = ("heuristic", "pimc,heuristic,heuristic,heuristic")


def pimc_games(games: int) -> int:
    """Games of the ``pimc`` comparison for a study of ``games`` games."""
    return max(PIMC_GAMES[0], min(PIMC_GAMES[1], games // 800))


def study(folder, games: int, seed: int, progress: bool = False) -> Section:
    """Run the Norwegian Jazz study (``games`` games per player count and rule, ``seed``) into ``folder``."""
    seed, games = check_seed(seed), check_count("games", games)
    folder = Path(folder)
    if not folder.is_dir():
        raise UsageError(f"folder {folder} does not exist")
    edge_games = max(1, games // EDGE_SHARE)

    note(
        "norwegian_jazz",
        progress,
        f"sixth deal study, {games:,} games x 3 rules x {len(PLAYERS)} player counts",
    )
    sixth = sixth_deal_study(seed, games, PLAYERS, seats=True, keep_rows=(4,))
    table = standings(sixth["by_variant"])
    paired = paired_changes(sixth["paired"])
    cost, seat = sixth["deal_cost"], sixth["seat_effect"]
    sevens = sevens_by_bonus(seat)
    kept = {"norwegian_jazz_4p_games": sixth["rows"][4]}

    note(
        "norwegian_jazz",
        progress,
        f"heuristic edge, {edge_games:,} games x (players + 1) runs per player count",
    )
    edge, edge_long = edge_tables(seed, edge_games)
    p_games = pimc_games(games)
    note("norwegian_jazz", progress, f"pimc against heuristic play: {p_games:,} games of 4 players, twice")
    searched = search_match("norwegian_jazz", seed, p_games, PIMC_ARMS, players=4)
    s_games = strong_play.strong_games("norwegian_jazz", games)
    note("norwegian_jazz", progress, f"under strong play: {s_games:,} games a player count, twice")
    strong = strong_play.norwegian_jazz(seed, s_games)

    drawn = [
        ("winner_change", nc.plot_winner_change(table)),
        ("rank_correlation", nc.plot_rank_correlation(table)),
        ("seat_effect", nc.plot_seat_effect(seat[seat.index.get_level_values("deal") != SEVENS_80])),
        ("sevens_by_seat", nc.plot_sevens_by_seat(sevens)),
        ("heuristic_edge", nc.plot_heuristic_edge(edge_long)),
    ]
    files = [
        (name, CHART_CAPTIONS[name], charts.save(ax, folder, f"norwegian_jazz_{name}")) for name, ax in drawn
    ]

    total = 3 * games * len(PLAYERS)
    return Section(
        game="norwegian_jazz",
        title="Norwegian Jazz",
        question=QUESTION,
        answer=headline(table, paired) + strong.sentence,
        tables=[
            ("sixth_deal", TABLE_CAPTIONS["sixth_deal"], table),
            ("bonus_80_vs_10", TABLE_CAPTIONS["bonus_80_vs_10"], paired),
            ("deal_cost_by_seat", TABLE_CAPTIONS["deal_cost_by_seat"], cost),
            ("heuristic_edge", TABLE_CAPTIONS["heuristic_edge"].format(edge_games=edge_games), edge),
            (
                "pimc",
                f"The search player against the heuristic: {p_games:,} games of 4 players played twice on "
                "the same deals, seat 0 playing heuristic, then pimc (in deals 1-5 from five tricks left, the card "
                "with the least mean penalty the others together can hold it to, over 8 deals of the unseen cards "
                "consistent with the play; docs/RULES.md, Policies), the other seats heuristic. Score per deal and "
                "win share of seat 0, and pimc minus heuristic paired per game. n = games.",
                searched,
            ),
            *strong.tables,
        ],
        charts=files,
        data={
            "norwegian_jazz_sixth_deal": table,
            "norwegian_jazz_bonus_80_vs_10": paired,
            "norwegian_jazz_sevens_score_by_rule": sixth["sevens_score"],
            "norwegian_jazz_deal_cost": cost,
            "norwegian_jazz_seat_effect": seat,
            "norwegian_jazz_heuristic_edge": edge,
            "norwegian_jazz_heuristic_edge_by_deal": edge_long,
            "norwegian_jazz_pimc": searched,
            **strong.data,
        },
        frames=kept,
        commands=[
            *commands(games, seed, edge_games),
            f"cardmc compare norwegian_jazz --players 4 --arm heuristic --arm {PIMC_ARMS[1]} --games {p_games} "
            f"--seed {seed}",
            *strong.commands,
        ],
        sample=(
            f"{games:,} games of six deals per player count (3 to 7) and sevens rule, heuristic play, "
            f"the same deals under every rule ({total:,} games); heuristic edge: {edge_games:,} games "
            f"per player count, each replayed players + 1 times; pimc against heuristic: {p_games:,} games "
            f"of 4 players, twice; under strong play: {s_games:,} games a player count, twice; seed {seed}"
        ),
    )
