"""Schieber's main findings under strong play: the learned player beside the heuristic.

Three findings of the Schieber study, each measured under both players:

* ``contracts``: what a chosen contract is worth to the choosing team (net
  points a complete deal, 95% CIs) and how often it is chosen, every seat
  playing as the player does (its own contract choice and push included).
  Different deals are chosen under each player, so the two columns are set
  side by side, not paired.
* ``push``: the forehand forced to push less forced to choose, paired on
  the same deals, by the forehand's hand strength (the heuristic's estimate
  of its best contract, one scale for both players), under each player.
* ``solved``: the chosen contract against the best of the six with every
  hand seen, on the deals of the stored solved run (each deal solved
  exactly under all six contracts): the heuristic's choice there and the
  learned player's choice for the same hands, paired deal by deal.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cardmc import stats
from cardmc.checks import check_count, check_seed
from cardmc.experiments.common import record
from cardmc.experiments.schieber import contract_label, contract_value, deal_table, push_table
from cardmc.experiments.solved import read_stored
from cardmc.kernels import schieber as k

PLAYERS = ("heuristic", "learned")
FAMILIES = ("trumps x1 (C, H)", "trumps x2 (D, S)", contract_label(4), contract_label(5), "all contracts")


def contracts(seed: int, games: int, heuristic: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per contract family: the share of complete deals it is chosen and its net points to the choosing
    team, under each player (``heuristic``: the heuristic's ``contract_value`` of the same seed and games,
    if already made)."""
    from cardmc.api import simulate

    values = {}
    for player in PLAYERS:
        if player == "heuristic" and heuristic is not None:
            values[player] = heuristic
            continue
        df = simulate("schieber", games=games, seed=seed, policy=player)
        values[player] = contract_value(deal_table(df))
    rows = []
    for family in FAMILIES:
        row = {"contract": family}
        for player in PLAYERS:
            t = values[player]
            for col in ("share_chosen", "net_score"):
                have = family in t.index and col in t.columns
                for part in ("", "_ci_low", "_ci_high"):
                    row[f"{player}_{col}{part}"] = float(t.loc[family, col + part]) if have else np.nan
        rows.append(row)
    return pd.DataFrame(rows).set_index("contract")


def push(seed: int, games: int, heuristic: pd.DataFrame | None = None) -> pd.DataFrame:
    """Push minus choose (the forehand team's net points a deal, paired on the same deals) by the
    forehand's hand strength, under each player (``heuristic``: its ``push_table``, if already made)."""
    tables = {p: heuristic if p == "heuristic" and heuristic is not None else push_table(seed, games, policy=p)
              for p in PLAYERS}  # fmt: skip
    col = "push_minus_choose"
    out = pd.DataFrame(index=tables["heuristic"].index)
    for player, t in tables.items():
        for part in ("", "_ci_low", "_ci_high"):
            out[f"{player}{part}"] = t[col + part]
        out[f"{player}_n"] = t["n"]
    out["from_points"], out["to_points"] = (
        tables["heuristic"]["from_points"],
        tables["heuristic"]["to_points"],
    )
    return out


def learned_choice(hand: int, partner: int, rules: int) -> int:
    """The learned forehand's contract for ``hand``, or its partner's after its push."""
    from cardmc.schieber_start import contract_choice

    choice = contract_choice(hand, rules, True, learned=True)
    if choice == "push":
        choice = contract_choice(partner, rules, False, learned=True)
    return k.CONTRACT_NAMES.index(choice)


def solved(path=None) -> pd.DataFrame:
    """On the stored solved run's deals: the share where the chosen contract is the best of the six for the
    choosing team (Wilson CIs) and the card points the choice left against the best, for the heuristic's
    choice (stored) and the learned player's for the same hands, and learned minus heuristic paired deal by
    deal."""
    rows, facts = read_stored(path)
    rows = rows[rows["seat"] == rows["chooser"]]
    values = rows[[f"solved_{c}" for c in k.CONTRACT_NAMES]].to_numpy(np.int64)
    best = values.max(axis=1)
    cards, hands, st = np.empty(36, np.int64), np.zeros(4, np.uint64), np.zeros(1, np.uint64)
    rules = int(k.DEFAULT_RULES)
    chosen = {"heuristic": np.array([k.CONTRACT_NAMES.index(c) for c in rows["contract"].astype(str)])}
    mine = []
    for g, deal, chooser, pushed in zip(rows["game"], rows["deal"], rows["chooser"], rows["pushed"]):
        fore = (int(chooser) + 2) % 4 if int(pushed) else int(chooser)
        k.deal_hands(int(facts["seed"]), int(g), int(deal), 0 if deal == 0 else fore, cards, hands, st)
        mine.append(learned_choice(int(hands[fore]), int(hands[(fore + 2) % 4]), rules))
    chosen["learned"] = np.array(mine)
    at = np.arange(len(rows))
    out = {}
    for player, c in chosen.items():
        out[f"{player}: best contract chosen"] = stats.proportion(
            int((values[at, c] == best).sum()), len(rows)
        )
        out[f"{player}: points left (best minus chosen)"] = stats.mean(best - values[at, c])
    h, m = values[at, chosen["heuristic"]], values[at, chosen["learned"]]
    out["learned minus heuristic: best contract chosen"] = stats.paired_difference(m == best, h == best)
    out["learned minus heuristic: points left"] = stats.paired_difference(best - m, best - h)
    table = pd.DataFrame(out).T[["estimate", "se", "ci_low", "ci_high", "n"]].astype({"n": np.int64})
    table.index.name = "measure"
    return record(table, **facts)


def strong_play(
    seed: int,
    games: int,
    heuristic_value: pd.DataFrame | None = None,
    heuristic_push: pd.DataFrame | None = None,
) -> dict[str, pd.DataFrame]:
    """The three findings under both players (``games`` matches of ``seed`` a run); the heuristic's
    ``contract_value`` and ``push_table`` of the same seed and games are reused when given."""
    seed, games = check_seed(seed), check_count("games", games)
    out = {
        "contracts": contracts(seed, games, heuristic_value),
        "push": push(seed, games, heuristic_push),
        "solved": solved(),
    }
    return {name: record(t, seed=seed, games=games) if name != "solved" else t for name, t in out.items()}
