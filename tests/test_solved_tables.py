"""The solved tables (``cardmc.experiments.solved``): what ``analyze`` shows of
rows simulated with ``solve=True``, and what aggregate runs carry of them."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cardmc import aggregate as agg
from cardmc import solved_tables as solved
from cardmc.registry import UsageError
from cardmc.schieber import CONTRACTS

SCHIEBER_CONTRACTS = list(CONTRACTS)


def _schieber(rng, n):
    rows = []
    for deal in range(n):
        chooser, pushed = int(rng.integers(4)), int(rng.integers(2))
        values = {f"solved_{c}": int(rng.integers(0, 258)) for c in SCHIEBER_CONTRACTS}
        contract = SCHIEBER_CONTRACTS[int(rng.integers(6))]
        for seat in range(4):
            rows.append(
                {
                    "game": deal // 3,
                    "deal": deal % 3,
                    "seat": seat,
                    "chooser": chooser,
                    "pushed": pushed,
                    "solved_points": values[f"solved_{contract}"],
                    **values,
                }
            )
    return pd.DataFrame(rows)


def _differenzler(rng, n):
    low = rng.integers(0, 80, n)
    return pd.DataFrame(
        {
            "game": np.arange(n) // 4,
            "declare_policy": rng.choice(["heuristic", "calibrated"], n),
            "declared": rng.integers(0, 157, n),
            "solved_at_least": low,
            "solved_at_most": low + rng.integers(0, 80, n),
        }
    )


def _english_jazz(rng, n):
    sure = rng.integers(0, 13, n)
    return pd.DataFrame(
        {
            "game": np.arange(n) // 36,
            "position": rng.integers(0, 3, n),
            "solved_tricks": sure,
            "solved_sweep": (sure == 12).astype(np.int8),
            "tricks": rng.integers(0, 13, n),
            "all_tricks": rng.integers(0, 2, n),
        }
    )


def _norwegian_jazz(rng, n):
    deal = rng.integers(1, 7, n)
    sevens = deal == 6
    na = pd.array([None] * n, dtype="Int16")

    def part(values, keep):
        out = na.copy()
        out[keep] = values[keep]
        return out

    return pd.DataFrame(
        {
            "game": np.arange(n) // 24,
            "players": rng.integers(3, 8, n),
            "deal": deal,
            "score": rng.integers(-10, 40, n),
            "first_out": rng.integers(0, 2, n),
            "solved_held_to": part(rng.integers(0, 40, n), ~sevens),
            "solved_escape": part(rng.integers(0, 10, n), ~sevens),
            "solved_out_first": part(rng.integers(0, 2, n), sevens),
            "solved_score": part(rng.integers(-10, 30, n), sevens),
        }
    )


MAKERS = {
    "schieber": _schieber,
    "differenzler": _differenzler,
    "english_jazz": _english_jazz,
    "norwegian_jazz": _norwegian_jazz,
}


@pytest.mark.parametrize("game", list(MAKERS))
def test_the_tables_of_any_split_merge_to_the_tables_of_all_rows(game):
    rows = MAKERS[game](np.random.default_rng(3), 240)
    whole = solved.tables(game, rows)
    assert len(whole) == 1
    cut = len(rows) // 3
    merged = agg.merge(solved.aggregate(game, rows.iloc[:cut]), solved.aggregate(game, rows.iloc[cut:]))
    parts = solved.summarise(game, merged)
    for name in whole:
        pd.testing.assert_frame_equal(parts[name], whole[name])


@pytest.mark.parametrize("game", list(MAKERS))
def test_rows_without_solved_columns_have_no_solved_table(game):
    rows = MAKERS[game](np.random.default_rng(4), 24)
    plain = rows[[c for c in rows.columns if not c.startswith("solved_")]]
    assert solved.tables(game, plain) == {}
    assert solved.summarise(game, {}) == {}
    with pytest.raises(UsageError, match="simulate with solve=True"):
        solved.aggregate(game, plain)


def test_english_jazz_counts_sweeps_that_could_and_did_happen_by_position():
    rows = pd.DataFrame(
        {
            "position": [1, 1, 2, 0, 0, 0],
            "solved_tricks": [12, 12, 3, 0, 5, 12],
            "solved_sweep": [1, 1, 0, 0, 0, 1],
            "tricks": [12, 4, 3, 12, 5, 12],
            "all_tricks": [1, 0, 0, 1, 0, 1],
        }
    )
    t = solved.tables("english_jazz", rows)["solved_sweeps"]
    every, leader, dealer = t.loc["every hand"], t.loc["leader"], t.loc["dealer"]
    assert every["could_sweep_per_million"] == pytest.approx(3 / 6 * 1e6)
    assert every["did_sweep_per_million"] == pytest.approx(3 / 6 * 1e6)
    assert every["could_minus_did_per_million"] == pytest.approx(0)
    assert leader["could_sweep_events"] == 2 and leader["did_sweep_events"] == 1 and leader["n"] == 2
    assert leader["could_minus_did_per_million"] == pytest.approx(0.5e6)
    assert dealer["mean_sure_tricks"] == pytest.approx(17 / 3) and dealer["mean_tricks"] == pytest.approx(
        29 / 3
    )
    assert t.loc["second", "n"] == 1


def test_norwegian_jazz_sets_each_deal_against_its_solved_values():
    na = pd.NA
    rows = pd.DataFrame(
        {
            "players": [4] * 6,
            "deal": [1, 1, 1, 6, 6, 6],
            "score": [10, 0, 5, 10, -5, 0],
            "first_out": [0, 0, 0, 1, 0, 0],
            "solved_held_to": pd.array([12, 3, 5, na, na, na], dtype="Int16"),
            "solved_escape": pd.array([0, 0, 1, na, na, na], dtype="Int16"),
            "solved_out_first": pd.array([na, na, na, 1, 1, 0], dtype="Int16"),
            "solved_score": pd.array([na, na, na, 10, 0, -5], dtype="Int16"),
        }
    )
    t = solved.tables("norwegian_jazz", rows)["solved_deals"]
    first, sevens = t.loc[(4, 1)], t.loc[(4, 6)]
    assert first["mean_held_to"] == pytest.approx(20 / 3) and first["mean_escape"] == pytest.approx(1 / 3)
    assert first["mean_over_held_to"] == pytest.approx((-2 - 3 + 0) / 3)
    assert sevens["mean_sure_score"] == pytest.approx(5 / 3)
    assert sevens["could_go_out_first"] == pytest.approx(2 / 3) and sevens["went_out_first"] == pytest.approx(
        1 / 3
    )
    assert np.isnan(sevens.get("mean_escape", np.nan))
