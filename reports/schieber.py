"""Schieber study: when should the forehand push, and what is each contract worth?

Three sets of runs on the same deals (game i of seed s): heuristic play as
it is; the same matches with the forehand forced to choose and forced to
push (``push_value``, paired per deal); and heuristic against random
seat-swapped (``duplicate``). Weis frequencies are set beside the exact
enumeration of all C(36, 9) hands. Every table comes from
``cardmc.experiments.schieber.contract_study``; this module only draws.
A smaller fourth set (``house_rules``: each contract fixed, under the
rulebook and under the common Swiss house rules) shows what those rules
change, on the same deals, and a fifth (``push_check``) checks the
heuristic's push threshold, which follows the rules in force, under the
rulebook, without multipliers, without Weis or Stöck and under the Swiss set.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from cardmc.checks import check_count, check_seed
from cardmc.display import cell
from cardmc.experiments.schieber import (
    PUSH_BINS,
    contract_label,
    contract_study,
    duplicate,
    house_rules,
    push_check,
    push_threshold,
    threshold_in_force,
)
from cardmc.experiments.solved import stored_contracts
from cardmc.registry import UsageError
from cardmc.reports import charts, strong_play
from cardmc.reports import schieber_charts as sc
from cardmc.reports.section import Section, note


def headline(value: pd.DataFrame, push: pd.DataFrame, rule: pd.DataFrame, threshold: int) -> str:
    """The one-sentence answer, every number with its 95% CI (``threshold``: the heuristic's push
    threshold under the rulebook's rules)."""
    threshold, pays, costs = push_threshold(push)
    col = "push_minus_choose"
    if threshold is None and costs is None:
        when = "In these deals pushing paid at every hand strength"
    elif threshold is None:
        when = (
            f"In these deals the forehand should never push: even at {costs} points pushing changes "
            f"its net score by {cell(push.loc[costs], col)} points a deal"
        )
    else:
        when = (
            f"The forehand should push when its best contract is worth less than about {threshold:g} "
            f"points (the heuristic's estimate, after the multiplier, of its margin over an even "
            f"split): on the same deals pushing gains {cell(push.loc[pays], col)} net points a deal at "
            f"{pays} and costs {cell(push.loc[costs], col, sign=-1)} at {costs}"
        )
    never = [i for i in rule.index if "never" in i]
    if never:
        when += (
            f", and pushing below {threshold} beats never pushing by "
            f"{cell(rule.loc[never[0]], 'gain')} points a deal"
        )
    worth = []
    for label, name in (
        ("trumps x1 (C, H)", "trumps x1"),
        ("trumps x2 (D, S)", "trumps x2"),
        (contract_label(4), "Obenabe"),
        (contract_label(5), "Undenufe"),
    ):
        if label in value.index:
            worth.append(f"{cell(value.loc[label], 'net_score')} in {name}")
    if not worth:
        return when + "."
    worth[-1] = ("and " if len(worth) > 1 else "") + worth[-1]
    return (
        f"{when}; a chosen contract is worth to the choosing team (points a deal, net of the other "
        f"team's score) " + ", ".join(worth) + "."
    )


HOUSE_GAMES = (10, 200)  # matches to 20000 of the house-rules runs: games // 10 within these bounds (seconds)


def house_games(games: int) -> int:
    """Matches of the house-rules comparison for a study of ``games`` matches (12 runs of long matches)."""
    return max(HOUSE_GAMES[0], min(HOUSE_GAMES[1], games // 10))


def house_sentence(house: dict, checked: pd.DataFrame) -> str:
    """What the Swiss house rules do to the heuristic forehand's choice, and how its push threshold
    follows the rules in force (``checked``: ``push_check``'s ``push`` table), with their CIs."""
    row = house["contracts"].loc["heuristic's choice"]
    weis = house["weis"]
    thresholds = ", ".join(
        f"{int(r['threshold'])} {'by the ' if name == 'rulebook' else ''}{name}"
        for name, r in checked.iterrows()
    )
    apart = checked["threshold_minus_crossing"].dropna().abs()
    where = (
        f"; on the same deals pushing stops paying within {int(apart.max())} points of it under each of them"
        if len(apart) == len(checked)
        else ""
    )
    flat = checked.loc[NO_MULTIPLIERS] if NO_MULTIPLIERS in checked.index else checked.iloc[0]
    return (
        f" Under the Swiss house rules (the 6 scores 11 in Undenufe, four 9s are a Weis of 150, long "
        f"runs scaled) the heuristic forehand's own contract is worth {cell(row, 'difference')} points a "
        f"deal against the rulebook on the same deals, and the Weis changes the deal's winning team in "
        f"{cell(weis.loc[WEIS_CHANGES], 'swiss', scale=100, unit='%')} of deals "
        f"({cell(weis.loc[WEIS_CHANGES], 'default', scale=100, unit='%')} by the rulebook). The "
        f"heuristic forehand pushes below a threshold measured under the rules in force: {thresholds}"
        f"{where}. Without multipliers it pushes in {cell(flat, 'push_rate', scale=100, unit='%')} of "
        f"deals and gains {cell(flat, 'gain_over_never')} points a deal over never pushing and "
        f"{cell(flat, 'gain_over_always')} over always pushing."
    )


def solved_sentence(solved: pd.DataFrame) -> str:
    """How the heuristic's contract fares with every hand seen, with its CIs."""
    best = solved.loc[("all deals", "best contract chosen")]
    left = solved.loc[("all deals", "points left (best minus chosen)")]
    return (
        f" With every hand seen (a stored run of {solved.attrs['deals']:,} deals, solved exactly under "
        f"all six contracts), the heuristic's contract was the best of the six for its team in "
        f"{cell(best, scale=100, unit='%')} of deals, and its choice left {cell(left)} card points a "
        f"deal against the best."
    )


WEIS_CHANGES = "the Weis changes the deal's winning team"
NO_MULTIPLIERS = "without multipliers"  # the rule set of push_check the answer quotes
CHECK_GAMES = (10, 3000)  # matches to 3000 of each rule set's push check: the study's games within these


def check_games(games: int) -> int:
    """Matches of each rule set in the push check for a study of ``games`` matches."""
    return max(CHECK_GAMES[0], min(CHECK_GAMES[1], games))


PIMC_GAMES = (10, 40)  # matches of the search player against the heuristic (a second or so a match)


PIMC_TRICKS = 5  # the study's search player searches from five tricks left (a deal: a fifth of a second)


def pimc_games(games: int) -> int:
    """Matches of the ``pimc`` duplicate for a study of ``games`` matches."""
    return max(PIMC_GAMES[0], min(PIMC_GAMES[1], games // 1000))


def study(folder, games: int, seed: int, progress: bool = False) -> Section:
    """Run the Schieber study (``games`` matches per run, ``seed``) into ``folder``."""
    seed, games = check_seed(seed), check_count("games", games)
    folder = Path(folder)
    if not folder.is_dir():
        raise UsageError(f"folder {folder} does not exist")
    note("schieber", progress, f"{games:,} matches: heuristic play, forced choice and push, duplicate")
    t = contract_study(seed, games, progress=progress)
    df, value, by_hand, push, rule, weis, results = (
        t[name]
        for name in ("rows", "contract_value", "contract_by_hand", "push", "push_rule", "weis", "results")
    )
    h_games = house_games(games)
    note("schieber", progress, f"house rules: {h_games:,} matches to 20000, each contract, two rule sets")
    house = house_rules(seed, h_games)
    c_games = check_games(games)
    note(
        "schieber",
        progress,
        f"push rule: {c_games:,} matches under each of six rule sets, forced choice and push",
    )
    checked = push_check(seed, c_games)["push"]
    threshold = threshold_in_force()
    p_games = pimc_games(games)
    note("schieber", progress, f"pimc against heuristic: {p_games:,} matches in duplicate")
    searched = duplicate(seed, p_games, a="pimc", b="heuristic", pimc_tricks=PIMC_TRICKS).drop(
        columns="events"
    )
    solved = stored_contracts()
    stored = solved.attrs
    note("schieber", progress, f"under strong play: {games:,} matches of the learned player, three times")
    strong = strong_play.schieber(seed, games, value, push)

    files = []
    ax = sc.plot_push_gain(push, threshold=float(threshold))
    files.append(
        (
            "push_gain",
            "Forced push minus forced choice on the same deals: forehand team's net "
            "points per deal by the forehand's hand strength, with the 95% CI band; the dashed line "
            "is where the heuristic pushes.",
            charts.save(ax, folder, "schieber_push_gain"),
        )
    )
    six = value.loc[[contract_label(c) for c in range(6) if contract_label(c) in value.index]]
    ax = sc.plot_contract_worth(six)
    files.append(
        (
            "contract_worth",
            "Chooser's team points per complete deal by contract, before and "
            "after the multiplier and net of the other team, with 95% CIs.",
            charts.save(ax, folder, "schieber_contract_worth"),
        )
    )
    ax = sc.plot_weis(weis)
    files.append(
        (
            "weis",
            "Share of hands declaring each kind of Weis: simulated (95% Wilson CIs) "
            "against the exact probability.",
            charts.save(ax, folder, "schieber_weis"),
        )
    )
    ax = sc.plot_house_rules(house["contracts"])
    files.append(
        (
            "house_rules",
            "Each contract fixed for the forehand (heuristic play) on the same deals, "
            "under the rulebook and under the Swiss house rules: the forehand team's net points per "
            "deal with 95% CIs; last rows the heuristic's own choice and the best of the six in "
            "hindsight.",
            charts.save(ax, folder, "schieber_house_rules"),
        )
    )
    ax = sc.plot_push_rules(checked)
    files.append(
        (
            "push_rules",
            "The heuristic's push rule under each rule set, on the same deals: what "
            "pushing below the threshold measured under those rules gains over never and over always "
            "pushing (forehand team's net points per deal, 95% CIs).",
            charts.save(ax, folder, "schieber_push_rules"),
        )
    )
    ax = sc.plot_contract_choice(by_hand, feature="aces")
    files.append(
        (
            "contract_choice",
            "Contract family chosen by the number of aces in the chooser's hand, with 95% Wilson bands.",
            charts.save(ax, folder, "schieber_contract_choice"),
        )
    )

    n_deals = int(df[df["seat"] == 0].shape[0])
    bins = ", ".join(map(str, PUSH_BINS))
    push_show = push.drop(columns=["from_points", "to_points"])
    return Section(
        game="schieber",
        title="Schieber Jass",
        question="When should the forehand push, and what is each contract worth?",
        answer=(
            headline(value, push, rule, threshold)
            + house_sentence(house, checked)
            + solved_sentence(solved)
            + strong.sentence
        ),
        tables=[
            (
                "contract_by_hand",
                "Contract family chosen by the chooser (the forehand, or the partner "
                "after a push) under heuristic play, by aces, sixes and the longest suit in the chooser's hand "
                "(4 = 4+, longest 7 = 7+). n = hands.",
                by_hand,
            ),
            (
                "contract_value",
                "Per contract, over complete deals of heuristic play (the match's last "
                "deal, cut short by live counting, left out): share of deals it is chosen, the chooser's "
                "team's card points before the multiplier (of 157, 257 with a match), its deal score after "
                "the multiplier (Weis and Stöck included), net of the other team's score, and the rate of "
                "matches (all nine tricks) by the chooser's team. n = deals.",
                value,
            ),
            (
                "push",
                "Push minus choose, paired on the same deals: each match is replayed with the "
                "forehand forced to choose and forced to push (partner chooses), both by the heuristic; the "
                "forehand team's net points per deal (own minus other team's score), by the forehand's hand "
                "strength = the heuristic's estimate of its best contract, multiplier x (expected card "
                "points + half its Weis - 78.5). 'push' where the whole CI is above 0, 'choose' below. "
                "n = deals played out in both runs.",
                push_show,
            ),
            (
                "push_rule",
                "The heuristic's rule (the forehand pushes when no contract is worth at least "
                f"{threshold} points, the threshold measured under the rulebook's rules: see house_push) against "
                "never and always pushing, on the same deals: forehand "
                "team's net points per deal. n = deals played out in both runs.",
                rule,
            ),
            (
                "weis",
                "Weis declared per hand: simulated share (every hand dealt, Wilson CIs) beside the "
                "exact probability over all C(36, 9) hands (kernels.schieber_weis.declaration_counts); last "
                "row the mean declared points per hand. n = hands.",
                weis,
            ),
            (
                "results",
                "Matches, Schneider and the heuristic against random play in duplicate (the same "
                "deals played twice, seats swapped; wins over both seatings, shares and margins per match "
                "averaged over the two). n = deals, matches or duplicate pairs.",
                results,
            ),
            (
                "house_rules",
                f"House rules: {h_games:,} matches to 20000 replayed with each contract fixed "
                "(the forehand always chooses it; heuristic play) under the rulebook's defaults and under the "
                "Swiss set undenufe_points=six, four_nines=150, long_runs=scaled. Value = the forehand team's "
                "net deal score (own minus other team's, after the multiplier, Weis and Stöck included) per "
                "deal "
                "played out in all 12 runs; the heuristic's choice is the contract it picks under each rule "
                "set; difference = Swiss minus default on the same deals. n = deals.",
                house["contracts"],
            ),
            (
                "house_choice",
                "House rules: share of deals on which each contract is the heuristic "
                "forehand's choice and the best of the six in hindsight, under each rule set (Wilson CIs), "
                "and the paired difference. n = deals.",
                house["choice"],
            ),
            (
                "house_weis",
                "House rules and the Weis, under the contract the heuristic chooses by the "
                "rulebook (the same contract and cards under both rule sets): a team scores Weis; the Weis "
                "changes the deal's winning team (the team with the higher deal score differs with and "
                "without the Weis points); the team scoring Weis differs between the two rule sets (one "
                "paired share). Wilson CIs; differences paired per deal. n = deals.",
                house["weis"],
            ),
            (
                "house_push",
                f"House rules and pushing: {c_games:,} matches to 3000 under each rule set, played "
                "as they are (heuristic) and with the forehand forced to choose and forced to push. threshold = "
                "the heuristic forehand pushes when no contract is worth that much, measured under the rules in "
                "force (kernels.schieber_push: 100,000 deals of its own, each played choosing and pushing); "
                "crossing = where push minus choose changes sign on these deals (the push table's method, to 5 "
                "points); push rate (Wilson CI); the rule's gain over never and over always pushing, the forehand "
                "team's net points per deal paired on the same deals. n = deals played out in both runs.",
                checked,
            ),
            (
                "pimc",
                f"The search player against the heuristic: {p_games:,} matches to 3000 in duplicate (the "
                "same deals played twice, seats swapped). pimc chooses contracts as the heuristic does and, "
                "from five tricks left, plays the card with the best mean over 8 deals of the unseen cards "
                "consistent with the play, each solved with every hand seen (docs/RULES.md, Policies). Wins "
                "over both seatings (Wilson CI); share of card points and margin per deal averaged over the "
                "two seatings of each match. n = matches or duplicate pairs.",
                searched,
            ),
            (
                "solved_contracts",
                f"With every hand seen: each deal of a stored run of {stored['games']:,} "
                f"matches to 3000 of heuristic play (seed {stored['seed']}, cardmc {stored['cardmc']}; made once "
                "with the command below, not rerun by the report: solving a deal under all six contracts takes "
                "about 40 s on one core) solved exactly under the contract chosen and under each of the six, "
                "the chooser's team's card points under best play by all four (last trick 5 and the match "
                "bonus included, Weis and Stöck not): the share of deals whose chosen contract is the best "
                "(Wilson CI), and the points the choice left against the best, over all deals and by pushed "
                "and kept choices. n = deals.",
                solved,
            ),
            *strong.tables,
        ],
        charts=files,
        data={
            "schieber_contract_value": value,
            "schieber_push": push,
            "schieber_push_rule": rule,
            "schieber_contract_by_hand": by_hand,
            "schieber_weis": weis,
            "schieber_results": results,
            "schieber_house_rules": house["contracts"],
            "schieber_house_choice": house["choice"],
            "schieber_house_weis": house["weis"],
            "schieber_house_push": checked,
            "schieber_pimc": searched,
            "schieber_solved_contracts": solved,
            **strong.data,
        },
        frames={"schieber_heuristic_games": df},
        commands=[
            f"cardmc simulate schieber --games {games} --seed {seed} --policy heuristic "
            "--out schieber_heuristic.parquet",
            "cardmc analyze schieber schieber_heuristic.parquet",
            'python -c "from cardmc.display import readable; from cardmc.experiments.schieber import push_value; '
            f'print(readable(push_value(seed={seed}, games={games}, bins=({bins}))))"',
            'python -c "from cardmc.display import readable; from cardmc.experiments.schieber import duplicate; '
            f"print(readable(duplicate(seed={seed}, games={games}, a='heuristic', b='random')))\"",
            'python -c "from cardmc.experiments.schieber import weis_odds; t = weis_odds(); print(t, t.attrs)"',
            'python -c "import pandas as pd; from cardmc.display import readable; '
            f"from cardmc.experiments.schieber import push_rule; print(readable(push_rule({seed}, {games}, "
            "pd.read_parquet('schieber_heuristic.parquet'))))\"",
            'python -c "from cardmc.display import show; from cardmc.experiments.schieber import contract_study; '
            f"[print(show(k, v)) for k, v in contract_study(seed={seed}, games={games}).items() if k != 'rows']\"",
            'python -c "import cardmc; from cardmc.display import show; '
            f'[print(show(k, v)) for k, v in cardmc.house_rules(seed={seed}, games={h_games}).items()]"',
            'python -c "from cardmc.display import show; from cardmc.experiments.schieber import push_check; '
            f'[print(show(k, v)) for k, v in push_check(seed={seed}, games={c_games}).items()]"',
            'python -c "from cardmc.display import readable; from cardmc.experiments.schieber import duplicate; '
            f"print(readable(duplicate(seed={seed}, games={p_games}, a='pimc', b='heuristic', "
            f'pimc_tricks={PIMC_TRICKS})))"',
            *strong.commands,
            f"{stored['command']}  # the stored run of the solved table",
            'python -c "import pandas as pd; from cardmc.display import readable; from cardmc.experiments.solved '
            "import contracts_solved; print(readable(contracts_solved(pd.read_parquet('schieber_solved.parquet'))))\"",
        ],
        sample=f"{games:,} matches to 3000 of heuristic play ({n_deals:,} deals, {4 * n_deals:,} hands); "
        f"the same {games:,} matches replayed with forced choice and forced push, and twice more for the "
        f"duplicate against random; house rules: {h_games:,} matches to 20000 played 12 times (each contract "
        f"under each rule set, {house['contracts'].attrs['deals']:,} deals played out in all); push rule: "
        f"{c_games:,} matches under each of {len(checked)} rule sets, three times; pimc against "
        f"heuristic: {p_games:,} matches, twice; seed {seed}; with every hand seen: a stored run of "
        f"{stored['games']:,} matches ({stored['deals']:,} deals), seed {stored['seed']}; under strong play: "
        f"the same {games:,} matches of the learned player, played as they are, with forced choice and with "
        "forced push",
    )
