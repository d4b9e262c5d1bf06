"""The stored Differenzler run behind the report's solved table: it says how it
was made, its deals and declarations are the kernels', and its values hold
together as the solver's must."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import cardmc
from cardmc.experiments.solved import (
    STORED_DIFFERENZLER_COLUMNS,
    declarations_solved,
    read_stored,
    stored_declarations,
    write_stored,
)

TOTAL = 157  # the card points of a deal, last trick included
KEYS = ["game", "deal", "seat"]


@pytest.fixture(scope="module")
def stored():
    return read_stored(game="differenzler")


def test_the_stored_run_says_how_it_was_made(stored):
    rows, facts = stored
    assert facts["game"] == "differenzler" and facts["games"] >= 1
    command = facts["command"]
    assert command.startswith("cardmc simulate differenzler ") and "--solve" in command
    assert f"--games {facts['games']} " in command and f"--seed {facts['seed']} " in command
    assert "--policy calibrated " in command
    assert rows["game"].between(0, facts["games"] - 1).all()
    assert not rows.duplicated(KEYS).any()
    assert len(rows) == 4 * facts["deals"] == len(rows.drop_duplicates(["game", "deal"])) * 4


def test_the_stored_deals_are_the_kernels_deals(stored):
    rows, facts = stored
    df = cardmc.simulate("differenzler", games=facts["games"], seed=facts["seed"], policy="calibrated")
    df = df.sort_values(KEYS).reset_index(drop=True)
    assert len(df) == len(rows)
    for column in (*KEYS, "declared", "made"):
        assert (df[column].to_numpy(np.int64) == rows[column].to_numpy(np.int64)).all(), column
    assert (
        df["declare_policy"].astype(str).to_numpy() == rows["declare_policy"].astype(str).to_numpy()
    ).all()


def test_the_stored_values_hold_together(stored):
    """Each seat can make its sure-at-least against anything the others do,
    so the four of a deal together cannot be sure of more than its 157
    points; and each can hold itself to its sure-at-most, so together they
    cannot stay under 157."""
    rows, _ = stored
    low, high = rows["solved_at_least"].to_numpy(np.int64), rows["solved_at_most"].to_numpy(np.int64)
    assert ((low >= 0) & (low <= TOTAL) & (high >= 0) & (high <= TOTAL)).all()
    per_deal = rows.groupby(["game", "deal"])[["solved_at_least", "solved_at_most", "made"]].sum()
    assert (per_deal["made"] == TOTAL).all()
    assert (per_deal["solved_at_least"] <= TOTAL).all() and (per_deal["solved_at_most"] >= TOTAL).all()


def test_the_table_pairs_the_rules_on_the_stored_hands(stored):
    rows, facts = stored
    table = stored_declarations()
    assert table.attrs["seed"] == facts["seed"] and table.attrs["deals"] == facts["deals"]
    assert set(table.index.get_level_values("declare_policy")) == {"calibrated", "heuristic", "random"}
    assert (table["n"] == len(rows)).all()
    calibrated = declarations_solved(rows).loc["calibrated"]
    pd.testing.assert_frame_equal(table.loc["calibrated"], calibrated)


def test_a_stored_value_is_the_solvers(stored):
    """The first seat of the first deal solved again (2-3 s; other seats take up to a minute)."""
    rows, facts = stored
    first = rows.iloc[0]
    line = cardmc.trace("differenzler", 1, seed=facts["seed"], policy="calibrated", start=int(first["game"]))[
        0
    ]
    d = line["deals"][int(first["deal"])]
    hands = [" ".join(h) for h in d["hands"]]
    value = cardmc.solve(
        "differenzler",
        hands=hands,
        to_play=d["leader"],
        contract=d["trump"],
        seat=int(first["seat"]),
        cards=False,
    ).value
    assert (value["sure_at_least"], value["sure_at_most"]) == (
        first["solved_at_least"],
        first["solved_at_most"],
    )


def test_a_stored_run_reads_back_as_written(tmp_path):
    rng = np.random.default_rng(4)
    n = 48
    rows = pd.DataFrame(
        {
            "game": np.repeat(np.arange(3), 16),
            "deal": np.tile(np.repeat(np.arange(4), 4), 3),
            "seat": np.tile(np.arange(4), 12),
            "declare_policy": "calibrated",
            "declared": rng.integers(0, 158, n),
            "made": rng.integers(0, 158, n),
            "solved_at_least": rng.integers(0, 80, n),
            "solved_at_most": rng.integers(40, 158, n),
        }
    )
    path = tmp_path / "solved.csv"
    write_stored(
        rows.iloc[::-1],
        path,
        seed=5,
        games=3,
        command="cardmc simulate differenzler --games 3 --seed 5",
        game="differenzler",
    )
    back, facts = read_stored(path, "differenzler")
    assert facts["game"] == "differenzler" and facts["seed"] == 5 and facts["deals"] == 12
    pd.testing.assert_frame_equal(back[list(STORED_DIFFERENZLER_COLUMNS)], rows, check_dtype=False)
    with pytest.raises(ValueError, match="not a stored solved run of schieber"):
        read_stored(path)


def test_the_report_sentence_gives_the_table_s_estimates():
    from cardmc.display import cell
    from cardmc.reports.differenzler import solved_sentence

    table = stored_declarations()
    text = solved_sentence(table)
    for rule, measure in (
        ("calibrated", "between"),
        ("heuristic", "between"),
        ("calibrated", "below sure at least"),
    ):
        assert cell(table.loc[(rule, measure)], scale=100, unit="%") in text
    assert cell(table.loc[("calibrated", "declared minus sure at least")]) in text
    assert f"{table.attrs['deals']:,} deals" in text
