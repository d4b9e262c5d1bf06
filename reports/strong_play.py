"""The studies' main findings under strong play: each game's learned player beside its heuristic.

Each function runs one game's findings again with the learned player at
every seat (every decision of the game its own: Schieber's contract and
push, Differenzler's declaration) and returns a ``Strong``: one sentence
saying which conclusions held and which moved, with the paired differences
where the two players meet the same deals, and the tables, data and
commands that the game's section adds.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from cardmc.display import cell

SHARE = {"differenzler": 10, "english_jazz": 8, "norwegian_jazz": 8}  # a study's games to one strong game
LEAST = 50  # strong-play games at the least (a tiny --games)


def strong_games(game: str, games: int) -> int:
    """Games of each player under strong play for a study of ``games`` games of ``game``."""
    return max(LEAST, games // SHARE[game])


@dataclass
class Strong:
    sentence: str  # one sentence, every figure with its CI
    tables: list[tuple[str, str, pd.DataFrame]]  # (name, caption, table)
    data: dict[str, pd.DataFrame]  # written as CSV
    commands: list[str] = field(default_factory=list)


def _order(t: pd.DataFrame, player: str, families: list[str]) -> list[str]:
    return sorted(families, key=lambda f: -t.loc[f, f"{player}_net_score"])


def schieber(seed: int, games: int, value: pd.DataFrame, push: pd.DataFrame) -> Strong:
    """Schieber's contract values, push threshold and contract choice against perfect play under the
    learned player (``value`` and ``push``: the heuristic's tables of the same seed and games)."""
    from cardmc.experiments.schieber import push_threshold
    from cardmc.experiments.schieber_strong import FAMILIES, strong_play

    t = strong_play(seed, games, heuristic_value=value, heuristic_push=push)
    contracts, pushes, solved = t["contracts"], t["push"], t["solved"]
    families = [f for f in FAMILIES[:-1] if f in contracts.index]
    names = {
        f: f.split(" (")[0] if f.startswith("trumps") else f.split(" x")[0].capitalize() for f in families
    }
    order_h = [names[f] for f in _order(contracts, "heuristic", families)]
    order_l = [names[f] for f in _order(contracts, "learned", families)]
    threshold = {}
    for player in ("heuristic", "learned"):
        view = pushes[[player, f"{player}_ci_low", f"{player}_ci_high", "from_points", "to_points"]].rename(
            columns={player: "push_minus_choose", f"{player}_ci_low": "x", f"{player}_ci_high": "y"}
        )
        view["verdict"] = [
            "push" if a > 0 else "choose" if b < 0 else "either" for a, b in zip(view.x, view.y)
        ]
        threshold[player] = push_threshold(view)[0]
    held = "held" if order_h == order_l else "moved"
    same_push = threshold["heuristic"] == threshold["learned"]
    paired = solved.loc["learned minus heuristic: points left"]
    sentence = (
        f" Under strong play (the learned player at every seat, its contract and push its own; "
        f"{games:,} matches of the same seed) the contracts' order by net points {held} "
        f"({', '.join(order_l)}; under the heuristic {', '.join(order_h)}), pushing stops paying at about "
        f"{threshold['learned']} points of hand strength ({'as' if same_push else 'against'} "
        f"{threshold['heuristic']} under the heuristic), and with every hand seen its contract is the best "
        f"of the six in {cell(solved.loc['learned: best contract chosen'], scale=100, unit='%')} of the "
        f"stored deals (the heuristic's: {cell(solved.loc['heuristic: best contract chosen'], scale=100, unit='%')}"
        f"; points left, learned minus heuristic on the same deals: {cell(paired)})."
    )
    tables = [
        (
            "strong_contracts",
            f"Under each player ({games:,} matches to 3000 of seed {seed}, every seat that player, contract "
            "and push its own): the share of complete deals each contract family is chosen (Wilson CIs) and "
            "its net points to the choosing team (own minus other team's deal score, 95% CIs). Different "
            "deals are chosen under each player: side by side, not paired. n: see strong_push.",
            contracts,
        ),
        (
            "strong_push",
            "Forced push minus forced choice, paired on the same deals, under each player: the forehand "
            "team's net points a deal by the forehand's hand strength (the heuristic's estimate of its best "
            "contract, one scale for both), 95% CIs. n = deals played out in both runs.",
            pushes,
        ),
        (
            "strong_solved",
            "With every hand seen, on the stored solved run's deals: the heuristic's stored choice and the "
            "learned player's choice for the same hands (its forehand's contract, or its partner's after "
            "its push), the share that is the best of the six (Wilson CIs) and the card points left against "
            "the best; learned minus heuristic paired deal by deal. n = deals.",
            solved,
        ),
    ]
    commands = [
        'python -c "from cardmc.display import show; from cardmc.experiments.schieber_strong import strong_play; '
        f'[print(show(k, v)) for k, v in strong_play(seed={seed}, games={games}).items()]"',
    ]
    data = {f"schieber_strong_{name}": table for name, table in t.items()}
    return Strong(sentence=sentence, tables=tables, data=data, commands=commands)


def _moved(row: pd.Series, col: str) -> bool:
    """The paired difference ``col`` excludes zero."""
    return bool(row[f"{col}_ci_low"] > 0 or row[f"{col}_ci_high"] < 0)


def differenzler(seed: int, games: int) -> Strong:
    """Differenzler's declaration accuracy and guide under the learned player (its play and its own
    declaration table) beside the calibrated heuristic, on the same hands."""
    from cardmc.experiments.strong import differenzler as run

    t = run(seed, games)
    penalty, guide = t["penalty"], t["guide"]
    both = guide.dropna(subset=["heuristic_median_made", "learned_median_made"])
    shift = (both["learned_median_made"] - both["heuristic_median_made"]).abs()
    apart = both[
        (both["learned_median_made_ci_low"] > both["heuristic_median_made_ci_high"])
        | (both["learned_median_made_ci_high"] < both["heuristic_median_made_ci_low"])
    ]
    learned = penalty.loc["learned"]
    more = "more" if (both["learned_median_made"] - both["heuristic_median_made"]).mean() > 0 else "fewer"
    sentence = (
        f" Under strong play (the learned player at every seat, declaring by a table fitted to its own "
        f"play; {games:,} games of the same seed) a hand misses by {cell(learned)} points, "
        f"{cell(learned, 'minus_heuristic', sign=-1)} fewer than the calibrated heuristic on the same hands; "
        f"the declaration guide's median points made moved beyond both CIs in {len(apart)} of {len(both)} "
        f"hand types (by up to {int(shift.max()) if len(shift) else 0} points), so its advice "
        f"{'held' if len(apart) == 0 else f'moved: such hands make {more} points under the learned player'}."
    )
    tables = [
        (
            "strong_penalty",
            f"Under each player ({games:,} games of seed {seed}, every seat that player; the heuristic "
            "declares by the calibrated table, the learned player by its own): the penalty |declared - made| "
            "a hand of the four regular deals (95% CIs), and minus the heuristic's on the same hands. n = hands.",
            penalty,
        ),
        (
            "strong_guide",
            "The declaration guide under each player: the median points made (the declaration of least "
            "expected penalty) by trumps (5 = 5+), trump Jack and aces (3 = 3+), with distribution-free 95% "
            "CIs; cells of 50 hands or more. n = hands.",
            guide,
        ),
    ]
    commands = [
        'python -c "from cardmc.display import show; from cardmc.experiments.strong import differenzler; '
        f'[print(show(k, v)) for k, v in differenzler(seed={seed}, games={games}).items()]"'
    ]
    return Strong(sentence, tables, {f"differenzler_strong_{k}": v for k, v in t.items()}, commands)


def english_jazz(seed: int, games: int) -> Strong:
    """English Jazz's sweep odds under the learned player beside the heuristic, on the same deals."""
    from cardmc.experiments.strong import english_jazz as run

    t = run(seed, games)
    deal = t.loc["per deal"]
    col = "learned_minus_heuristic"
    sentence = (
        f" Under strong play (the learned player at every seat; {games:,} games of the same seed) one hand "
        f"takes all 12 tricks in {cell(deal, 'learned')} deals a million against {cell(deal, 'heuristic')} "
        f"under the heuristic (learned minus heuristic on the same deals {cell(deal, col)}, from "
        f"{int(deal['learned_events'])} and {int(deal['heuristic_events'])} sweeps): the sweep odds "
        f"{'moved' if _moved(deal, col) else 'held within their CIs'}."
    )
    tables = [
        (
            "strong_sweeps",
            f"Under each player ({games:,} games of 12 deals, seed {seed}, every seat that player): the chance "
            "that one hand takes all 12 tricks, a deal and a game, per million (Wilson CIs, with the sweeps "
            "counted), and learned minus heuristic paired on the same deals. n = deals or games.",
            t,
        )
    ]
    commands = [
        'python -c "from cardmc.display import readable; from cardmc.experiments.strong import english_jazz; '
        f'print(readable(english_jazz(seed={seed}, games={games})))"'
    ]
    return Strong(sentence, tables, {"english_jazz_strong_sweeps": t}, commands)


def norwegian_jazz(seed: int, games: int) -> Strong:
    """Norwegian Jazz's sixth-deal effect under the learned player beside the heuristic, on the same
    games."""
    from cardmc.experiments.strong import norwegian_jazz as run

    t = run(seed, games)
    four = t.loc[4] if 4 in t.index else t.iloc[0]
    col = "learned_minus_heuristic"
    moved = [int(n) for n, row in t.iterrows() if _moved(row, col)]
    sentence = (
        f" Under strong play (the learned player at every seat; {games:,} games a player count of the same "
        f"seed) the sixth deal changes the winner of {cell(four, 'learned', unit='%')} of {four.name}-player "
        f"games against {cell(four, 'heuristic', unit='%')} under the heuristic (paired difference "
        f"{cell(four, col)} percentage points); "
        + (
            "at no player count does the share move beyond its CI"
            if not moved
            else f"it moved at {', '.join(map(str, moved))} players"
        )
        + "."
    )
    tables = [
        (
            "strong_sixth_deal",
            f"Under each player ({games:,} games a player count, seed {seed}, every seat that player, the "
            "rulebook's sevens): the share of games (%) whose winners the sixth deal changes (Wilson CIs), "
            "learned minus heuristic paired game by game, and Kendall tau-b between the five- and six-deal "
            "standings under each with its paired difference. n = games.",
            t,
        )
    ]
    commands = [
        'python -c "from cardmc.display import readable; from cardmc.experiments.strong import norwegian_jazz; '
        f'print(readable(norwegian_jazz(seed={seed}, games={games})))"'
    ]
    return Strong(sentence, tables, {"norwegian_jazz_strong_sixth_deal": t}, commands)
