"""The one formatter of estimates with their CIs: rounding to the error, tiny values, zero events."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from cardmc import display, stats
from cardmc.cli import main


def test_zero_events_show_the_wilson_upper_bound():
    p = stats.proportion(0, 100_000)
    assert p["ci_low"] == 0.0  # exactly: the formula alone leaves a rounding error
    assert stats.proportion(600, 600)["ci_high"] == 1.0
    low, high = stats.wilson([0, 3, 5, 0], [5, 5, 5, 0])
    assert low[0] == 0.0 and high[2] == 1.0 and 0 < low[1] < 0.6 < high[1] < 1
    assert np.isnan(low[3]) and np.isnan(high[3])  # no trials: no interval
    assert display.estimate(p["estimate"], p["ci_low"], p["ci_high"], p["se"]) == "0 [0, 3.8e-05]"
    small = stats.proportion(0, 600)
    assert (
        display.estimate(small["estimate"], small["ci_low"], small["ci_high"], small["se"]) == "0 [0, 0.0064]"
    )
    assert display.estimate(0.0, 0.0, 0.38, unit="%") == "0% [0%, 0.38%]"


def test_rounded_to_the_standard_error():
    # two significant digits of the error: se 0.0052 shows 4 decimals, se 1.1 none
    assert display.estimate(0.123456, 0.1133, 0.1336, 0.0052) == "0.1235 [0.1133, 0.1336]"
    assert display.estimate(1234.5, 1212.1, 1256.9, 11.4) == "1234 [1212, 1257]"
    assert display.digits(0.0052) == 4 and display.digits(11.4) == 0
    # without a standard error, the interval's width says it
    assert display.estimate(0.5, 0.4, 0.6) == "0.500 [0.400, 0.600]"
    assert display.estimate(-0.0001, -0.5, 0.5, 0.25) == "0.00 [-0.50, 0.50]"  # never "-0.00"


def test_tiny_values_in_scientific_notation():
    p = stats.proportion(3, 1_000_000)
    text = display.estimate(p["estimate"], p["ci_low"], p["ci_high"], p["se"])
    assert text == "3.0e-06 [1.0e-06, 8.8e-06]"
    est, lo, hi = (float(x) for x in text.replace("[", "").replace("]", "").replace(",", "").split())
    assert est == pytest.approx(3e-6) and lo == pytest.approx(p["ci_low"], rel=0.05)
    assert hi == pytest.approx(p["ci_high"], rel=0.05)


def test_missing_values_and_cells():
    assert display.estimate(np.nan, 0, 1) == ""
    row = pd.Series({"gain": 2.345, "gain_se": 0.5, "gain_ci_low": 1.366, "gain_ci_high": 3.324})
    assert display.cell(row, "gain") == "2.35 [1.37, 3.32]"
    assert display.cell(row, "gain", sign=-1) == "-2.35 [-3.32, -1.37]"
    assert (
        display.cell({"estimate": 0.25, "ci_low": 0.2, "ci_high": 0.3, "se": 0.025}, scale=100, unit="%")
        == "25.0% [20.0%, 30.0%]"
    )


def test_readable_uses_the_formatter_for_every_estimate():
    t = stats.grouped_proportion(
        pd.DataFrame({"g": [0] * 5 + [1] * 5, "hit": [0] * 5 + [1, 0, 1, 0, 1]}), "g", "hit"
    )
    shown = display.readable(t)
    assert list(shown.columns) == ["estimate [95% CI]", "n", "events"]
    zero = stats.proportion(0, 5)
    assert shown.iloc[0, 0] == f"0 [0, {zero['ci_high']:.2g}]" == "0 [0, 0.43]"
    assert "0.000 [0.000, 0.000]" not in display.show("t", t)


def test_cli_analyze_shows_zero_events_by_their_upper_bound(tmp_path, capsys):
    """50 English Jazz games of heuristic play have no sweep (rule A): the CLI table shows the
    Wilson upper bound of that 0, never 0.000 [0.000, 0.000]."""
    out = tmp_path / "ej.parquet"
    assert (
        main(["simulate", "english_jazz", "--games", "50", "--seed", "1", "--out", str(out), "--no-progress"])
        == 0
    )
    df = pd.read_parquet(out)
    assert df["all_tricks"].sum() == 0, "the test seed should have no sweep"
    capsys.readouterr()
    assert main(["analyze", "english_jazz", str(out)]) == 0
    printed = capsys.readouterr().out
    deals = 50 * 12
    upper = stats.wilson(0, deals)[1]
    line = next(x for x in printed.splitlines() if x.startswith("per deal"))
    assert f"0 [0, {upper:.2g}]" in line and str(deals) in line
    assert "0.000 [0.000, 0.000]" not in printed and "[0.000, 0.000]" not in printed
    assert not math.isclose(upper, 0)


def test_a_single_value_says_it_has_no_interval():
    assert display.estimate(37.0, np.nan, np.nan, np.nan) == "37 [no interval]"
    t = stats.grouped_mean(pd.DataFrame({"g": [0, 1, 1], "x": [37, 2, 4]}), "g", "x")
    assert list(display.readable(t)["estimate [95% CI]"]) == ["37 [no interval]", "3.0 [1.0, 5.0]"]


def _rows(index: str, samples: dict) -> list[dict]:
    return [{index: label, **stats.mean(values)} for label, values in samples.items()]


NAN = {"estimate": np.nan, "se": np.nan, "ci_low": np.nan, "ci_high": np.nan}
WRITTEN = {  # tables of text and whole numbers: written without pandas
    "cards": _rows(
        "card", {"8D": [117, 100, 130, 125, 110, 119, 117, 123], "TD": list(range(8)), "AS": [146] * 8}
    ),
    "not searched": [{"card": "6C", **NAN, "n": 0}, {"card": "10C", **NAN, "n": 0}],
    "no sample": _rows("card", {"6C": []}),
    "signs and tiny values": _rows(
        "card", {"KH": [-5, -100, 3], "QH": [1e-7, 2e-7, 0], "JH": [0, 0], "9H": [5]}
    ),
    "long labels": _rows("contract", {"obenabe": [1, 2, 30], "C": [100, 120]}),
    "more estimates": [
        {"contract": "S", "estimate": 1.0, "se": 0.1, "ci_low": 0.8, "ci_high": 1.2}
        | {"net": -3.0, "net_se": 1.0, "net_ci_low": -5.0, "net_ci_high": -1.0, "n": 12345}
    ],
    "a negative count": [{"card": "AS", "estimate": 1.0, "se": 0.1, "ci_low": 0.8, "ci_high": 1.2, "n": -3}],
}
HANDED_ON = {  # other columns: pandas writes them
    "a flag": [
        {"card": "AS", "estimate": 1.0, "se": 0.1, "ci_low": 0.8, "ci_high": 1.2, "n": 3, "best": True}
    ],
    "a float": [{"card": "AS", "x": 1.5, "n": 3}],
}


@pytest.mark.parametrize(
    "rows, by_pandas",
    [*((r, False) for r in WRITTEN.values()), *((r, True) for r in HANDED_ON.values())],
    ids=[*WRITTEN, *HANDED_ON],
)
def test_a_table_of_rows_shows_as_its_dataframe_does(rows, by_pandas, monkeypatch):
    index = next(iter(rows[0]))
    want = display.show("cards", pd.DataFrame(rows).set_index(index), max_rows=len(rows))
    handed = []
    monkeypatch.setattr(display, "show", lambda *a, **k: handed.append(a) or want)
    assert display.show_rows("cards", rows, index) == want
    assert bool(handed) == by_pandas
