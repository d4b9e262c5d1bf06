"""Calibration tables live outside the package: calibrate writes to the
working folder, simulations and traces take a table by --calibration FILE
(default: the shipped one), the table's content travels in the job and is
part of a run folder's identity."""

from __future__ import annotations

import dataclasses
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from cardmc import api, outputs
from cardmc import differenzler as D
from cardmc.job import make
from cardmc.registry import UsageError


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "cardmc.cli", *args], cwd=cwd, capture_output=True, text=True
    )


def table_file(path: Path, declared: int) -> Path:
    """A table declaring ``declared`` in every cell."""
    cells = np.arange(len(D.calibration_table()))
    path.write_text(
        "# a test table\n" + pd.DataFrame({"cell": cells, "declared": declared}).to_csv(index=False)
    )
    return path


def calibrated_declarations(df: pd.DataFrame) -> pd.Series:
    return df.loc[df["declare_policy"] == "calibrated", "declared"]


def test_calibrate_writes_to_the_working_folder_not_the_package(tmp_path):
    shipped = D.calibration_path()
    before = (shipped.read_bytes(), shipped.stat().st_mtime_ns)
    done = cli("calibrate", "differenzler", "--games", "3000", "--seed", "4", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "differenzler_calibration.csv"
    assert (shipped.read_bytes(), shipped.stat().st_mtime_ns) == before
    table = D.read_calibration(out)
    assert (table >= 0).any() and out.read_text().startswith("# cardmc differenzler calibration")
    again = cli("calibrate", "differenzler", "--games", "3000", "--seed", "4", cwd=tmp_path)
    assert again.returncode == 2 and "already exists" in again.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["differenzler_calibration.csv"]
    df = api.simulate("differenzler", games=200, seed=1, policy="calibrated", calibration=out)
    assert len(df)


def test_the_table_decides_calibrated_declarations(tmp_path):
    seven = table_file(tmp_path / "seven.csv", 77)
    df = api.simulate(
        "differenzler", games=200, seed=3, policy="calibrated,random,calibrated,heuristic", calibration=seven
    )
    assert (calibrated_declarations(df) == 77).all() and len(calibrated_declarations(df)) > 0
    assert not (df.loc[df["declare_policy"] == "random", "declared"] == 77).all()
    lines = api.trace("differenzler", games=3, seed=3, policy="calibrated", calibration=seven)
    assert all(d == 77 for line in lines for deal in line["deals"] for d in deal["declared"])
    default = api.simulate("differenzler", games=200, seed=3, policy="calibrated")
    shipped = api.simulate(
        "differenzler", games=200, seed=3, policy="calibrated", calibration=D.calibration_path()
    )
    pd.testing.assert_frame_equal(default, shipped, check_exact=True)


def test_the_table_travels_in_the_job_not_as_a_path(tmp_path):
    seven = table_file(tmp_path / "seven.csv", 77)
    job = make("differenzler", 300, 5, "calibrated", calibration=seven)
    seven.unlink()  # no worker or chunk reads the file after the job is made
    assert pickle.loads(pickle.dumps(job)) == job
    df = outputs.run(job, chunk_games=100)
    assert (calibrated_declarations(df) == 77).all()
    folder = outputs.run(dataclasses.replace(job, kind="aggregates"), tmp_path / "run", chunk_games=100)
    assert api.analyze("differenzler", folder)


def test_a_run_folder_resumes_only_with_the_same_table(tmp_path):
    seven = table_file(tmp_path / "seven.csv", 77)
    same = table_file(tmp_path / "same.csv", 77)
    other = table_file(tmp_path / "other.csv", 50)
    kw = dict(games=400, seed=2, policy="calibrated", chunk_games=200, out=tmp_path / "run")
    api.simulate("differenzler", calibration=seven, **kw)
    notes = []
    api.simulate("differenzler", calibration=same, log=notes.append, **kw)  # the content counts, not the name
    assert any("complete already" in n for n in notes)
    with pytest.raises(UsageError, match="calibration"):
        api.simulate("differenzler", calibration=other, **kw)
    with pytest.raises(UsageError, match="calibration"):
        api.simulate("differenzler", **kw)  # the shipped table


@pytest.mark.parametrize(
    "text",
    [
        "",
        "cell,declared\n1,x\n",
        "a,b\n1,2\n",
        "cell,declared\n99999,3\n",
        "cell,declared\n1,3\n1,4\n",
        "cell,declared\n1,200\n",
        "\x00\x01binary",
    ],
)
def test_a_bad_table_is_named_in_one_line(tmp_path, text):
    bad = tmp_path / "bad.csv"
    bad.write_text(text)
    with pytest.raises(UsageError, match="bad.csv"):
        api.simulate("differenzler", games=10, calibration=bad)
    done = cli(
        "simulate",
        "differenzler",
        "--games",
        "10",
        "--calibration",
        "bad.csv",
        "--out",
        "x.parquet",
        cwd=tmp_path,
    )
    assert done.returncode == 2 and "bad.csv" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["bad.csv"]


def test_games_without_a_table_refuse_one(tmp_path):
    with pytest.raises(UsageError, match="schieber takes no calibration table"):
        api.simulate("schieber", games=10, calibration=tmp_path / "t.csv")


def test_the_cells_of_rows_are_the_kernels_cells_of_their_hands():
    """``calibration_cells`` over a hand's features (as its rows carry them) gives the cell the kernels'
    ``calibration_cell`` computes from the hand itself, on random hands, seats and trumps."""
    from cardmc.kernels import differenzler as k

    rng = np.random.default_rng(5)
    ours, theirs = [], []
    for _ in range(3000):
        hand = np.uint64(sum(1 << int(c) for c in rng.choice(k.DECK, 9, replace=False)))
        rel, trump = int(rng.integers(4)), int(rng.integers(4))
        trumps, jack, nine, _, _, _, side = k.hand_features(hand, trump)
        ours.append(D.calibration_cells([rel], [trumps], [jack], [nine], [side])[0])
        theirs.append(k.calibration_cell(rel, hand, trump))
    assert ours == theirs and len(set(theirs)) > 200
