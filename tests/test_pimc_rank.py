"""The search player's ranking search (``cardmc.pimc.rank``) plays the card
that every card's exact value would give: the best mean over the same
sampled deals, ties to the lowest card code, in every game it searches,
at every decision of seeded games."""

from __future__ import annotations

import pytest

import cardmc
from cardmc import pimc, registry
from cardmc.kernels import solve_search as S


def _exact_mean_card(view: dict, deals: list, R, tt) -> int:
    """The card with the best mean of every card's exact value (``solve_cards``) over ``deals``."""
    sign = registry.get(view["game"]).search_player.sign
    totals: dict[int, int] = {}
    for hands in deals:
        for card, value in pimc.solve_cards(view, hands, R.copy(), tt).items():
            totals[card] = totals.get(card, 0) + value
    return min(totals, key=lambda c: (sign * totals[c], c))


@pytest.mark.parametrize(
    ("game", "players", "games", "tricks"),
    [
        ("schieber", 4, 6, 5),
        ("differenzler", 4, 3, 5),
        ("norwegian_jazz", 3, 3, 5),
        ("norwegian_jazz", 5, 3, 4),
    ],
)
def test_the_ranking_search_plays_the_exact_mean_card(monkeypatch, game, players, games, tricks):
    ranked = pimc.rank
    seen = {"decisions": 0, "bounded": 0}

    def checked(view, deals, R, tt, past, salts=None):
        card = ranked(view, deals, R, tt, past, salts)
        assert card == _exact_mean_card(view, deals, R, tt), view
        seen["decisions"] += 1
        return card

    exact = S.card_exact

    def counted(*args):
        seen["bounded"] += 1
        return exact(*args)

    monkeypatch.setattr(pimc, "rank", checked)
    monkeypatch.setattr(S, "card_exact", counted)
    cardmc.simulate(
        game,
        games=games,
        seed=7,
        policy="pimc",
        players=players if game == "norwegian_jazz" else None,
        threads=1,
        pimc_tricks=tricks,
        pimc_samples=4,
        **({"target": 300} if game == "schieber" else {}),
    )
    assert seen["decisions"] > 20
    assert (
        seen["bounded"] > 0
    )  # some cards' values were only bounded at first, and searched when in contention
