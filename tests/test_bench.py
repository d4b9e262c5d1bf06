"""``cardmc bench`` times the kernel, the DataFrame path and the aggregate path
of every case, each against the kernel at the same thread count."""
from __future__ import annotations

import numba
import pytest

from cardmc.bench import PATHS, bench
from cardmc.registry import UsageError


def test_bench_reports_three_paths_against_the_kernel(capsys):
    df = bench("norwegian_jazz", games=128, repeat=1, players=3)
    lines = capsys.readouterr().out.strip().splitlines()
    threads = sorted({1, numba.config.NUMBA_NUM_THREADS})
    assert len(df) == len(lines) == 2 * len(PATHS) * len(threads)  # one line per case, path and thread count
    assert set(df["path"]) == set(PATHS) and set(df["threads"]) == set(threads)
    assert (df["deals_per_s"] > 0).all() and (df["games_per_s"] * 6).to_numpy() == pytest.approx(df["deals_per_s"].to_numpy())
    for _, row in df.iterrows():
        same = df[(df["case"] == row["case"]) & (df["threads"] == row["threads"])]
        kernel = same[same["path"] == "kernel"]["deals_per_s"].iat[0]
        assert row["of_kernel"] == pytest.approx(row["deals_per_s"] / kernel)
        one = df[(df["case"] == row["case"]) & (df["path"] == row["path"]) & (df["threads"] == 1)]
        assert row["speedup"] == one["seconds"].iat[0] / row["seconds"]
    assert all(f"{row['path']:9s} threads={row['threads']}" in line for line, (_, row) in zip(lines, df.iterrows()))


def test_bench_paths_can_be_chosen():
    df = bench("english_jazz", games=64, repeat=1, echo=False, paths=("kernel", "aggregate"))
    assert list(df["path"].unique()) == ["kernel", "aggregate"]
    with pytest.raises(UsageError, match="bench paths"):
        bench("english_jazz", games=64, repeat=1, echo=False, paths=("rows",))
