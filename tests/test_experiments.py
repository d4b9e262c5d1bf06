"""The experiments package: one home, paired runs, seed and size recorded, shortcuts that are exact."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cardmc.experiments import differenzler as xd
from cardmc.experiments import norwegian_jazz as xn
from cardmc.experiments import schieber as xs
from cardmc.odds import english_jazz as odds_ej


@pytest.mark.parametrize("players", [3, 4, 7])
def test_rescored_bonus_is_a_real_run(players):
    """The 80-point variant of the sixth-deal study rescores the default games: exactly the scores of
    games played with the 80-point bonus (no player's choice depends on the bonus)."""
    for policy in ("heuristic", "random"):
        scores, _, first_out, _ = xn._run(6, 400, players, policy, {})
        real, _, _, _ = xn._run(6, 400, players, policy, {"first_out_bonus": 80})
        assert np.array_equal(xn.rescored(scores, first_out, 80), real)
        assert not np.array_equal(scores, real)


def test_results_record_seed_and_games():
    t = xd.declaration_study(seed=3, games=200, block=64)
    for table in t.values():
        assert table.attrs["seed"] == 3 and table.attrs["games"] == 200
    # block size does not change a table
    again = xd.declaration_study(seed=3, games=200, block=200)
    for name in t:
        pd.testing.assert_frame_equal(t[name], again[name], check_exact=True)
    edge = xn.heuristic_edge(seed=2, games=50, players=3)
    assert edge.attrs == {"seed": 2, "games": 50, "players": 3}


def test_declaration_study_agrees_with_compare_declarations():
    t = xd.declaration_study(seed=5, games=300)["accuracy"]
    c = xd.compare_declarations(games=300, seed=5)
    for rule in xd.RULES:
        assert t.loc[rule, "estimate"] == pytest.approx(c.loc[rule, "mean_penalty"])
        assert t.loc[rule, "se"] == pytest.approx(c.loc[rule, "se"])
    # paired: the difference of the means, with a smaller error than either mean's
    d = t.loc["calibrated", "minus_heuristic"]
    assert d == pytest.approx(t.loc["calibrated", "estimate"] - t.loc["heuristic", "estimate"])
    assert t.loc["heuristic", "minus_heuristic"] == 0


def test_game_modules_still_name_their_experiments():
    from cardmc import differenzler, english_jazz, norwegian_jazz, schieber

    assert schieber.push_value is xs.push_value and schieber.duplicate is xs.duplicate
    assert norwegian_jazz.sixth_deal_study is xn.sixth_deal_study
    assert differenzler.compare_declarations is xd.compare_declarations
    assert schieber.weis_odds().equals(xs.weis_odds())
    hand = "JS 9S AS KS QS TS AH KH QH AD KD QD"
    a, b = english_jazz.odds(hand, 2, 0, 500, seed=1), odds_ej.odds(hand, 2, 0, 500, seed=1)
    pd.testing.assert_frame_equal(a["summary"], b["summary"])
    with pytest.raises(AttributeError):
        schieber.no_such_experiment  # noqa: B018
