"""The stored Schieber run behind the report's solved table: it says how it was
made, its deals are the kernels' deals, and its values are the solver's."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import cardmc
from cardmc.experiments.solved import (
    STORED_COLUMNS,
    contracts_solved,
    read_stored,
    stored_contracts,
    write_stored,
)
from cardmc.schieber import CONTRACTS as SCHIEBER_CONTRACTS

EACH = [f"solved_{c}" for c in SCHIEBER_CONTRACTS]


@pytest.fixture(scope="module")
def stored():
    return read_stored()


def test_the_stored_run_says_how_it_was_made(stored):
    rows, facts = stored
    assert facts["deals"] == len(rows) and facts["games"] >= 1
    command = facts["command"]
    assert command.startswith("cardmc simulate schieber ") and "--solve" in command
    assert f"--games {facts['games']} " in command and f"--seed {facts['seed']} " in command
    assert rows["game"].between(0, facts["games"] - 1).all()
    assert not rows.duplicated(["game", "deal"]).any()  # one row a deal: the chooser's


def test_the_stored_deals_are_the_kernels_deals(stored):
    rows, facts = stored
    df = cardmc.simulate("schieber", games=facts["games"], seed=facts["seed"], policy="heuristic")
    mine = df[(df["seat"] == df["chooser"]).to_numpy()].sort_values(["game", "deal"]).reset_index(drop=True)
    assert len(mine) == len(rows)
    for column in ("game", "deal", "seat", "chooser", "pushed"):
        assert (mine[column].to_numpy(np.int64) == rows[column].to_numpy(np.int64)).all(), column
    assert (mine["contract"].astype(str).to_numpy() == rows["contract"].astype(str).to_numpy()).all()


def test_the_stored_values_hold_together(stored):
    rows, _ = stored
    values = rows[EACH].to_numpy(np.int64)
    assert ((values >= 0) & (values <= 257)).all()
    chosen = np.array([rows.at[i, f"solved_{c}"] for i, c in enumerate(rows["contract"].astype(str))])
    assert (rows["solved_points"].to_numpy(np.int64) == chosen).all()
    table = stored_contracts()
    assert table.loc[("all deals", "best contract chosen"), "n"] == len(rows)
    assert table.attrs["seed"] == read_stored()[1]["seed"]


def test_a_stored_value_is_the_solvers(stored):
    rows, facts = stored
    first = rows.iloc[0]
    line = cardmc.trace("schieber", 1, seed=facts["seed"], policy="heuristic", start=int(first["game"]))[0]
    d = line["deals"][int(first["deal"])]
    assert d["contract"] == first["contract"]
    hands = [" ".join(h) for h in d["hands"]]
    value = cardmc.solve(
        "schieber", hands=hands, to_play=d["leader"], contract=d["contract"], cards=False
    ).value
    assert value[f"team{int(first['chooser']) % 2}"] == first["solved_points"]


def test_a_stored_run_reads_back_as_written(tmp_path):
    rng = np.random.default_rng(3)
    n = 40
    rows = pd.DataFrame(
        {
            "game": np.repeat(np.arange(10), 4),
            "deal": np.tile(np.arange(4), 10),
            "seat": rng.integers(0, 4, n),
            "pushed": rng.integers(0, 2, n),
            "contract": rng.choice(list(SCHIEBER_CONTRACTS), n),
        }
    )
    rows["chooser"] = np.where(np.arange(n) % 3 == 0, (rows["seat"] + 1) % 4, rows["seat"])
    for column in EACH:
        rows[column] = rng.integers(0, 258, n)
    rows["solved_points"] = [rows.at[i, f"solved_{c}"] for i, c in enumerate(rows["contract"])]
    path = tmp_path / "solved.csv"
    write_stored(rows, path, seed=5, games=10, command="cardmc simulate schieber --games 10 --seed 5 --solve")
    back, facts = read_stored(path)
    mine = rows[rows["seat"] == rows["chooser"]].reset_index(drop=True)
    assert facts["seed"] == 5 and facts["games"] == 10 and facts["deals"] == len(mine) == len(back)
    pd.testing.assert_frame_equal(back[list(STORED_COLUMNS)], mine[list(STORED_COLUMNS)], check_dtype=False)
    pd.testing.assert_frame_equal(stored_contracts(path), contracts_solved(rows))


def test_a_damaged_store_is_refused(tmp_path):
    path = tmp_path / "solved.csv"
    path.write_text("# seed: 1\ngame,deal\n0,0\n")
    with pytest.raises(ValueError, match="not a stored solved run"):
        read_stored(path)
