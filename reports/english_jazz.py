"""English Jazz study: how likely is one hand to take every trick?

The tables come from ``cardmc.experiments.english_jazz``: ``sweep_study``
(``games`` games of 12 deals under random and under heuristic play, on the
same deals) and ``hand_odds_table`` (a worked example of ``odds`` for a strong
hand in each seat). This module writes the headline and draws.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from cardmc.checks import check_count, check_seed
from cardmc.display import cell
from cardmc.experiments.common import search_match
from cardmc.experiments.english_jazz import (
    BLOCK,
    DEALS,
    EXAMPLE_SEATS,
    MILLION,
    NO_VOID_HAND,
    POLICIES,
    STRONG_HAND,
    hand_odds_table,
    sweep_study,
)
from cardmc.experiments.solved import sweeps_solved
from cardmc.registry import UsageError
from cardmc.reports import charts, strong_play
from cardmc.reports import english_jazz_charts as ec
from cardmc.reports.section import Section, note

QUESTION = "How likely is one hand to take every trick in English Jazz?"
SOLVED_GAMES = 50_000  # games of the perfect-information comparison at most (a solver probe per hand)
PIMC_GAMES = (20, 100)  # games of the search player against the heuristic (a third of a second or so a game)
PIMC_ARMS = ("heuristic", "pimc,heuristic,heuristic; pimc_tricks=5")  # the study's search: from five tricks


def pimc_games(games: int) -> int:
    """Games of the ``pimc`` comparison for a study of ``games`` games."""
    return max(PIMC_GAMES[0], min(PIMC_GAMES[1], games // 16_000))


def _count(n, word: str) -> str:
    n = int(n)
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _one_in(p_per_million: float) -> str:
    if p_per_million <= 0:
        return "never in this sample"
    n = MILLION / p_per_million
    mag = 10 ** max(int(math.floor(math.log10(n))) - 1, 0)
    return f"about 1 in {int(round(n / mag) * mag):,}"


def headline(t: dict[str, pd.DataFrame]) -> str:
    """The one-sentence answer, every number with its Wilson 95% CI and the counts it rests on."""
    at = t["all_tricks"]
    deal, game = at.loc["per deal"], at.loc["per 12-deal game"]
    pos = t["by_position"].loc["leader"]
    lead_sweeps = int(pos["random_events"]) + int(pos["heuristic_events"])
    leader = (
        "the leader never swept"
        if lead_sweeps == 0
        else f"the leader swept only {_count(lead_sweeps, 'time')}"
    )
    strong = t["hand_odds"].xs(STRONG_HAND, level="hand")
    lead, other = strong.iloc[0], strong.iloc[1:]
    best = other["all_12_pct"].idxmax()
    n = int(deal["n"])
    return (
        f"Very unlikely: with heuristic players some hand takes all 12 tricks in "
        f"{cell(deal, 'heuristic')} deals per million ({_one_in(deal['heuristic'])}: "
        f"{_count(deal['heuristic_events'], 'sweep')} in {n:,} deals), in {cell(game, 'heuristic')} of a "
        f"million 12-deal games ({int(game['heuristic_events']):,} of {int(game['n']):,}), and with random "
        f"players on the same deals in {cell(deal, 'random')} deals per million "
        f"({_count(deal['random_events'], 'sweep')}); "
        f"a sweeper must be void in the suit led to the first trick (or all hands 3-3-3-3), so {leader}, "
        f"while a hand with the top six trumps-to-be and a void ({STRONG_HAND}) sweeps "
        f"{cell(other.loc[best], 'all_12_pct', unit='%')} of the time as {best.split(' (')[0]} but "
        f"{cell(lead, 'all_12_pct', unit='%')} as leader ({_count(lead['deals'], 'deal')} each; Wilson 95% CIs)."
    )


TABLE_CAPTIONS = {
    "all_tricks": (
        "Rule A: some hand takes all 12 tricks, per million deals and per million 12-deal games (Wilson 95% "
        "CIs), all three players random or all heuristic, on the same deals; random minus heuristic is "
        "paired deal by deal (normal CI from the discordant counts only_random / only_heuristic; both = "
        "swept under both). *_events = sweeps counted, n = deals or games."
    ),
    "by_position": (
        "Sweeps by the position of the sweeping hand (leader = the seat after the dealer, who leads the "
        "first trick), per million deals, Wilson 95% CIs. A sweeper leads every trick after the first, so "
        "only an opponent can set trump then, and whoever sets trump takes that trick unless the next "
        "player, void too, plays a higher trump: a sweep needs the sweeper to be void in the suit led to "
        "the first trick, or trump never set, which happens exactly when all three hands are 3-3-3-3. "
        "The leader cannot be void in the suit it leads. n = deals."
    ),
    "solved": (
        "With every hand seen: how often a hand could take all 12 tricks against the other two playing "
        "together, best play by all (solved: the exact solver, trump set by the play as in the rules), "
        "beside how often it did under random and under heuristic play on the same deals, per million "
        "deals (some hand) or hands (by position), Wilson 95% CIs; solved minus heuristic paired on the "
        "same deals and hands (only_solved / only_heuristic: the discordant ones). A sweep in play that "
        "the solver says could not be forced was let through by the other two. n = deals."
    ),
    "by_feature": (
        "Sweeps by features of the hand as dealt (aces, jacks, longest suit, voids, plain card points held: "
        "A 11, T 10, K 4, Q 3, J 2), per million hands, Wilson 95% CIs. n = hands (the same deals under "
        "both policies). A hand with no void can sweep only when all three hands are 3-3-3-3 (see by "
        "position)."
    ),
    "rules": (
        "Share of deals (%) decided by each rule, the first of A-E that applies; Wilson 95% CIs, n = deals."
    ),
    "trump_setter": (
        "Who sets trump (the first player unable to follow suit), by position relative to the dealer, "
        "share of deals (%); Wilson 95% CIs, n = deals."
    ),
    "trump_never_set": (
        "Deals (%) in which trump is never set, beside the exact probability that all three hands are "
        "3-3-3-3 (C(9;3,3,3)^4 / C(36;12,12,12) = 1680^4 * 12!^3 / 36!), which is exactly when nobody is "
        "ever void in the suit led. Wilson 95% CIs, n = deals."
    ),
    "seat_advantage": (
        "Seat advantage: mean deal score by position in that deal (n = deals; scores sum to 0 over the "
        "table); mean 12-deal game total and win chance (%) by position in the game's first deal (the "
        "dealer moves one seat a deal, so each seat deals 4 times; shared wins count as wins, sole_win "
        "does not). 95% CIs, n = deals / games."
    ),
    "hand_odds": (
        "Worked example (cardmc odds): each hand held by seat 1, 2 or 0 with seat 0 dealing, the other "
        "24 cards dealt at random, all players heuristic: chance (%) that the hand takes all 12 tricks, "
        "share of deals (%) each rule decides, the hand's expected deal score and mean tricks, 95% CIs "
        "(Wilson for chances). n = deals."
    ),
    "pimc": (
        "The search player against the heuristic: {p_games:,} games played twice on the same deals, seat 0 "
        "playing heuristic, then pimc (from five tricks left, the card with the best mean deal score it can "
        "make sure of against the other two together, over 8 deals of the unseen cards consistent with the "
        "play; docs/RULES.md, Policies), the other seats heuristic. Score per deal and win share of seat 0, "
        "and pimc minus heuristic paired per game. n = games."
    ),
}
CHART_CAPTIONS = {
    "by_feature": (
        "Chance that a hand takes all 12 tricks by features of the hand as dealt, per million hands (log "
        "scale), random and heuristic play on the same deals; Wilson 95% CIs; open triangles mark groups "
        "with no sweep, the bar reaching the 95% upper bound."
    ),
    "rules": "Share of deals each rule A-E decides (log scale), by policy; Wilson 95% CIs.",
    "by_position": "Sweeps per million deals by the sweeping hand's position, by policy; Wilson 95% CIs.",
    "trump_setter": "Who sets trump, by position relative to the dealer, by policy; Wilson 95% CIs.",
    "seat_advantage": (
        "Mean deal score by position relative to the dealer (left) and mean game total by "
        "position in the first deal, by policy; 95% CIs."
    ),
}


def commands(games: int, seed: int) -> list[str]:
    out = ["# the games, random and heuristic play (game i of a seed deals the same cards under both)"]
    for p in POLICIES:
        out += [
            f"cardmc simulate english_jazz --games {games} --seed {seed} --policy {p} "
            f"--out english_jazz_{p}.parquet",
            f"cardmc analyze english_jazz english_jazz_{p}.parquet",
        ]
    out += [
        "# the tables above (paired sweeps, by position, by feature, rules, trump, seats)",
        'python -c "from cardmc.experiments.english_jazz import sweep_study; from cardmc.display import show; '
        f'[print(show(k, v, 100)) for k, v in sweep_study(seed={seed}, games={games}).items()]"',
        "# with every hand seen: could a hand force a sweep (the solver), beside did it (play)",
        'python -c "from cardmc.experiments.solved import sweeps_solved; from cardmc.display import show; '
        f"print(show('solved', sweeps_solved(seed={seed}, games={min(games, SOLVED_GAMES)}), 100))\"",
        "# the worked example: one strong hand in each seat, seat 0 dealing",
    ]
    for hand in (STRONG_HAND, NO_VOID_HAND):
        for seat in EXAMPLE_SEATS:
            out.append(
                f'cardmc odds english_jazz --hand "{hand}" --seat {seat} --dealer 0 --games {games} '
                f"--seed {seed}"
            )
    return out


def study(folder, games: int, seed: int, progress: bool = False) -> Section:
    """Run the English Jazz study (``games`` games per policy, ``seed``) into ``folder``."""
    seed, games = check_seed(seed), check_count("games", games)
    folder = Path(folder)
    if not folder.is_dir():
        raise UsageError(f"folder {folder} does not exist")
    note("english_jazz", progress, f"{games:,} games x {len(POLICIES)} policies, in blocks of {BLOCK:,}")
    t = sweep_study(seed, games, progress=progress)
    sweeps = t.pop("sweep_deals")
    solved_games = min(games, SOLVED_GAMES)
    note("english_jazz", progress, f"with every hand seen: {solved_games:,} games, a solver probe per hand")
    t["solved"] = sweeps_solved(seed, solved_games, progress=progress)
    note("english_jazz", progress, f"worked example: {games:,} deals per hand and seat")
    t["hand_odds"] = hand_odds_table(games, seed)
    p_games = pimc_games(games)
    note("english_jazz", progress, f"pimc against heuristic play: {p_games:,} games, twice")
    t["pimc"] = search_match("english_jazz", seed, p_games, PIMC_ARMS)
    s_games = strong_play.strong_games("english_jazz", games)
    note(
        "english_jazz",
        progress,
        f"under strong play: {s_games:,} games of the learned player and the heuristic",
    )
    strong = strong_play.english_jazz(seed, s_games)

    drawn = [
        ("by_feature", ec.plot_sweeps_by_feature(t["by_feature"])),
        ("rules", ec.plot_rules(t["rules"])),
        ("by_position", ec.plot_sweeps_by_position(t["by_position"])),
        ("trump_setter", ec.plot_trump_setter(t["trump_setter"])),
        ("seat_advantage", ec.plot_seat_advantage(t["seat_advantage"])),
    ]
    files = [
        (name, CHART_CAPTIONS[name], charts.save(ax, folder, f"english_jazz_{name}")) for name, ax in drawn
    ]
    order = (
        "all_tricks",
        "by_position",
        "solved",
        "by_feature",
        "hand_odds",
        "rules",
        "trump_setter",
        "trump_never_set",
        "seat_advantage",
        "pimc",
    )
    deals = games * DEALS
    return Section(
        game="english_jazz",
        title="English Jazz",
        question=QUESTION,
        answer=headline(t) + strong.sentence,
        tables=[(name, TABLE_CAPTIONS[name].format(p_games=p_games), t[name]) for name in order]
        + strong.tables,
        charts=files,
        data={**{f"english_jazz_{name}": t[name] for name in order}, **strong.data},
        frames={"english_jazz_sweep_deals": sweeps} if len(sweeps) else {},
        commands=commands(games, seed)
        + [
            "# the search player against the heuristic, paired on the same deals",
            f'cardmc compare english_jazz --arm heuristic --arm "{PIMC_ARMS[1]}" --games {p_games} --seed {seed}',
            *strong.commands,
        ],
        sample=(
            f"{games:,} games of 12 deals ({deals:,} deals, {3 * deals:,} hands) under random and under "
            f"heuristic play, the same deals under both; worked example {games:,} deals per hand and "
            f"seat; with every hand seen, the first {min(games, SOLVED_GAMES):,} games; pimc against "
            f"heuristic: {p_games:,} games, twice; under strong play: {s_games:,} games, twice; seed {seed}"
        ),
    )
