"""Differenzler study: how accurately can a player declare?"""

from __future__ import annotations

import pandas as pd

from cardmc.display import cell
from cardmc.experiments.common import search_match
from cardmc.experiments.differenzler import RULES, declaration_study
from cardmc.experiments.solved import stored_declarations
from cardmc.reports import charts, strong_play
from cardmc.reports.section import Section, note

ACES = {0: "no ace", 1: "1 ace", 2: "2 aces", 3: "3+ aces"}
PIMC_GAMES = (20, 100)  # games of the search player against calibrated play (a quarter second or so a game)
PIMC_ARMS = (
    "calibrated",
    "pimc,calibrated,pimc,calibrated; pimc_tricks=5",
)  # the study's search: from five tricks


def pimc_games(games: int) -> int:
    """Games of the ``pimc`` comparison for a study of ``games`` games."""
    return max(PIMC_GAMES[0], min(PIMC_GAMES[1], games // 2000))


def solved_sentence(solved: pd.DataFrame) -> str:
    """Where the calibrated declaration falls against the seat's sure points, with its CIs."""

    def share(rule, measure):
        return cell(solved.loc[(rule, measure)], scale=100, unit="%")

    def over(rule):
        return cell(solved.loc[(rule, "declared minus sure at least")])

    return (
        f" With every hand seen (a stored run of {solved.attrs['deals']:,} deals, each seat solved "
        f"exactly), a calibrated declaration lay below the points its seat could be sure to take in "
        f"{share('calibrated', 'below sure at least')} of hands, above the points it could be sure not "
        f"to exceed in {share('calibrated', 'above sure at most')}, and between the two in "
        f"{share('calibrated', 'between')} (the heuristic formula: {share('heuristic', 'between')}); it "
        f"declared {over('calibrated')} points more than its seat could be sure to take (the heuristic "
        f"formula: {over('heuristic')})."
    )


def guide_grid(guide: pd.DataFrame) -> pd.DataFrame:
    """The declaration guide as a grid (trumps, trump J) x aces of ``median [low, high]`` cells."""
    cells = guide.assign(cell=[cell(r, "median_made") for _, r in guide.iterrows()])
    grid = cells.pivot(index=["trumps", "trump_jack"], columns="aces", values="cell").fillna("")
    grid.columns = [ACES[a] for a in grid.columns]
    grid.index = grid.index.set_names(["trumps (5 = 5+)", "trump J"])
    return grid


def study(folder, games: int, seed: int, progress: bool = False) -> Section:
    note("differenzler", progress, f"{games:,} games x {len(RULES)} declaration rules")
    t = declaration_study(seed, games, progress=progress)
    accuracy, distribution, calibration, guide = (
        t[k] for k in ("accuracy", "distribution", "calibration", "guide")
    )
    guide_show = guide_grid(guide)
    p_games = pimc_games(games)
    note("differenzler", progress, f"pimc against calibrated play: {p_games:,} games, twice")
    searched = search_match("differenzler", seed, p_games, PIMC_ARMS).droplevel("measure")
    solved = stored_declarations()
    stored = solved.attrs
    s_games = strong_play.strong_games("differenzler", games)
    note(
        "differenzler",
        progress,
        f"under strong play: {s_games:,} games of the learned player and of calibrated",
    )
    strong = strong_play.differenzler(seed, s_games)

    files = []
    ax = charts.plot_distribution(
        distribution,
        by="declaration",
        value="penalty",
        xlabel="penalty |declared - made| (bins of 5 points)",
        title="Penalty per hand by declaration rule",
    )
    files.append(
        (
            "penalty_distribution",
            "Share of hands by penalty, with 95% Wilson bands.",
            charts.save(ax, folder, "differenzler_penalty_distribution"),
        )
    )
    ax = charts.plot_calibration(calibration)
    files.append(
        (
            "calibration",
            "Points made against points declared (bins of 10), with 95% CIs.",
            charts.save(ax, folder, "differenzler_calibration"),
        )
    )

    cal_row = accuracy.loc["calibrated"]
    answer = (
        f"Declaring by the calibrated rule, a player misses by {cell(cal_row)} points a hand on average, "
        f"against {cell(accuracy.loc['heuristic'])} for the heuristic formula and "
        f"{cell(accuracy.loc['random'])} for random declarations; paired on the same deals, "
        f"calibrated minus heuristic is {cell(cal_row, 'minus_heuristic')} points a hand "
        f"(95% CIs; {int(cal_row['n']):,} hands per rule)." + solved_sentence(solved) + strong.sentence
    )
    return Section(
        game="differenzler",
        title="Differenzler Jass",
        question="How accurately can a player declare, and which declaration rule is best?",
        answer=answer,
        tables=[
            (
                "accuracy",
                "Mean penalty per hand by declaration rule (all four players use it; heuristic play), "
                "and the paired difference against the heuristic rule on the same deals.",
                accuracy,
            ),
            (
                "declaration_guide",
                "What a good declaration looks like: the median of the points such hands made "
                "(the declaration with the least expected penalty), with its 95% CI, by trumps held, trump J and "
                "aces, when everyone declares by the calibrated rule.",
                guide_show,
            ),
            (
                "pimc",
                f"The search player against the heuristic's play: {p_games:,} games played twice on the "
                "same deals, seats 0 and 2 playing calibrated, then pimc (from five tricks left, the card with the "
                "least mean sure penalty over 8 deals of the unseen cards consistent with the play, each solved "
                "with every hand seen; docs/RULES.md, Policies); every seat declares by the calibrated rule. Mean "
                "penalty per hand of seats 0 and 2, and pimc minus calibrated paired per game. n = games.",
                searched,
            ),
            (
                "solved_declarations",
                f"With every hand seen: each deal of a stored run of {stored['games']:,} "
                f"games of calibrated play (seed {stored['seed']}, cardmc {stored['cardmc']}; made once: solving "
                "a deal's four seats both ways takes 4 to 30 minutes on one core) solved exactly for each seat: "
                "the points it can be sure to take whatever the other three do (sure at least), and the points it "
                "can be sure not to exceed whatever they do (sure at most). The share of declarations below, above "
                "and between the two, and declared minus sure at least, by declaration rule on the same hands "
                "(each rule's declarations from the same games played again). n = hands, four a deal.",
                solved,
            ),
            *strong.tables,
        ],
        charts=files,
        data={
            "differenzler_accuracy": accuracy,
            "differenzler_penalty_distribution": distribution,
            "differenzler_calibration": calibration,
            "differenzler_declaration_guide": guide,
            "differenzler_pimc": searched,
            "differenzler_solved_declarations": solved,
            **strong.data,
        },
        commands=[
            f"cardmc simulate differenzler --games {games} --seed {seed} --policy heuristic:{r} "
            f"--out differenzler_{r}.parquet"
            for r in RULES
        ]
        + [
            f'python -c "from cardmc.experiments.differenzler import declaration_study; '
            f"from cardmc.display import show; "
            f'[print(show(k, v)) for k, v in declaration_study(seed={seed}, games={games}).items()]"',
            f'cardmc compare differenzler --arm calibrated --arm "{PIMC_ARMS[1]}" --games {p_games} --seed {seed}',
            *strong.commands,
            f"{stored['command']}  # the stored run of the solved table",
            'python -c "import pandas as pd; from cardmc.display import readable; from cardmc.experiments.solved '
            "import stored_declarations, write_stored; write_stored(pd.read_parquet('differenzler_solved.parquet'), "
            f"'differenzler_solved.csv', {stored['seed']}, {stored['games']}, 'the command above', 'differenzler'); "
            "print(readable(stored_declarations('differenzler_solved.csv')))\"",
        ],
        sample=f"{games:,} games of four deals ({4 * 4 * games:,} hands per rule); pimc against calibrated "
        f"play: {p_games:,} games, twice; seed {seed}; with every hand seen: a stored run of "
        f"{stored['games']:,} games ({stored['deals']:,} deals), seed {stored['seed']}; under strong play: "
        f"{s_games:,} games, twice",
    )
