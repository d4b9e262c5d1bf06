"""Filters on row columns (--where): what passes, what is refused, and analyze on filtered rows."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import cardmc
from cardmc import where
from cardmc.cli import main
from cardmc.registry import UsageError

ROWS = pd.DataFrame(
    {
        "trumps": [1, 4, 5, 6, 4],
        "aces": [2, 2, 1, 3, 0],
        "flag": [True, False, True, True, False],
        "trump": pd.Categorical(list("CDHSC")),
    }
)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("trumps >= 4 and aces >= 2", [0, 1, 0, 1, 0]),
        ("trumps >= 4 and (aces >= 2 or aces == 0)", [0, 1, 0, 1, 1]),
        ("not trumps < 4", [0, 1, 1, 1, 1]),
        ("1 <= aces <= 2", [1, 1, 1, 0, 0]),
        ("aces != 2 and flag", [0, 0, 1, 1, 0]),
        ("trumps > -1.5", [1, 1, 1, 1, 1]),
        ("4 == trumps", [0, 1, 0, 0, 1]),
    ],
)
def test_filters_select_the_rows_pandas_would(text, expected):
    assert where.mask(ROWS, text).tolist() == [bool(x) for x in expected]
    assert where.mask(ROWS, text).tolist() == ROWS.eval(text).tolist()


@pytest.mark.parametrize(
    "text, named",
    [
        ("aces.real > 1", "attribute access"),
        ("len(aces) > 1", "call"),
        ("__import__('os').system('true')", "call"),
        ("kings > 1", "unknown column 'kings'"),
        ("aces + 1 > 2", "'aces + 1'"),
        ("aces > 'a'", "'a'"),
        ("aces in (1, 2)", "In"),
        ("trumps >= 4 & aces >= 2", "&"),
        ("~flag", "~"),
        ("aces", "not a condition"),
        ("trump == 1", "not numeric"),
        ("aces >= True", "True"),
        ("aces >=", "not an expression"),
        ("", "expression"),
        ("@aces > 1", "not an expression"),
        ("[aces][0] > 1", "not allowed"),
        ("(lambda: 1)() > 0", "call"),
    ],
)
def test_anything_else_is_refused_with_one_line_naming_it(text, named):
    with pytest.raises(UsageError, match=None) as err:
        where.mask(ROWS, text)
    message = str(err.value)
    assert named in message and "\n" not in message


def test_analyze_on_filtered_rows_equals_analyze_of_the_filtered_frame(tmp_path):
    df = cardmc.simulate("differenzler", games=600, seed=3)
    text = "trumps >= 4 and aces >= 2"
    direct = cardmc.analyze("differenzler", df[(df["trumps"] >= 4) & (df["aces"] >= 2)])
    filtered = cardmc.analyze("differenzler", df, where=text)
    path = tmp_path / "d.parquet"
    cardmc.simulate("differenzler", games=600, seed=3, out=path)
    streamed = cardmc.analyze("differenzler", path, where=text)
    assert set(direct) == set(filtered) == set(streamed)
    for name in direct:
        pd.testing.assert_frame_equal(direct[name], filtered[name])
        pd.testing.assert_frame_equal(direct[name], streamed[name], check_exact=False)
        assert filtered[name].attrs["where"] == text and streamed[name].attrs["where"] == text
    n = direct["penalty_by_policy"]["n"].sum()
    assert 0 < n < len(df)


def test_analyze_where_on_the_command_line(tmp_path, capsys):
    path = tmp_path / "d.parquet"
    cardmc.simulate("english_jazz", games=300, seed=1, out=path)
    assert (
        main(["analyze", "english_jazz", str(path), "--where", "aces >= 2", "--out", str(tmp_path / "t")])
        == 0
    )
    assert "rows where aces >= 2" in capsys.readouterr().out
    for bad in ("aces.x >= 2", "nope > 1", "aces >= 9"):
        out = tmp_path / f"bad{len(bad)}"
        assert main(["analyze", "english_jazz", str(path), "--where", bad, "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "error" in err
        assert not out.exists()


def test_aggregates_cannot_be_filtered(tmp_path):
    path = tmp_path / "a.parquet"
    cardmc.simulate("differenzler", games=100, seed=1, aggregate=True, out=path)
    with pytest.raises(UsageError, match="aggregates"):
        cardmc.analyze("differenzler", path, where="aces >= 1")
    with pytest.raises(UsageError, match="aggregates"):
        cardmc.analyze(
            "differenzler", cardmc.simulate("differenzler", games=100, aggregate=True), where="aces >= 1"
        )
    assert np.isfinite(cardmc.analyze("differenzler", path)["penalty_by_policy"]["estimate"]).all()
