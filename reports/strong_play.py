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
    names = {f: f.split(" (")[0] if f.startswith("trumps") else f.split(" x")[0].capitalize() for f in families}
    order_h = [names[f] for f in _order(contracts, "heuristic", families)]
    order_l = [names[f] for f in _order(contracts, "learned", families)]
    threshold = {}
    for player in ("heuristic", "learned"):
        view = pushes[[player, f"{player}_ci_low", f"{player}_ci_high", "from_points", "to_points"]].rename(
            columns={player: "push_minus_choose", f"{player}_ci_low": "x", f"{player}_ci_high": "y"}
        )
        view["verdict"] = ["push" if a > 0 else "choose" if b < 0 else "either" for a, b in zip(view.x, view.y)]
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
