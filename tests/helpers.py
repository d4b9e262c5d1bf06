"""Small helpers shared by the tests."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from cardmc.kernels.cards import code, codes_of, parse

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
TRACE_FORMAT = SHARED / "tools" / "trace_format.py"


def mask(codes) -> np.uint64:
    m = 0
    for c in codes:
        m |= 1 << parse(c)
    return np.uint64(m)


def codes(m) -> set[str]:
    m = int(m)
    return {code(c) for c in range(64) if (m >> c) & 1}


def trick_array(cards, size: int = 4) -> np.ndarray:
    a = np.full(size, -1, dtype=np.int64)
    for i, c in enumerate(cards):
        a[i] = parse(c)
    return a


def random_split(deck: list[str], sizes: list[int], rnd: random.Random) -> list[list[str]]:
    cards = deck[:]
    rnd.shuffle(cards)
    out, pos = [], 0
    for n in sizes:
        out.append(cards[pos : pos + n])
        pos += n
    return out


def check_trace_form(path: Path) -> str:
    """Run the shared form checker on a trace file; returns its output."""
    if not TRACE_FORMAT.exists():
        pytest.skip(f"shared trace checker not found at {TRACE_FORMAT}")
    done = subprocess.run([sys.executable, str(TRACE_FORMAT), str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


CI_SUFFIXES = ("_se", "_ci_low", "_ci_high")


def ci_columns(col: str) -> tuple[str, str]:
    """The interval columns of an estimate column, by the tables' naming."""
    return ("ci_low", "ci_high") if col == "estimate" else (f"{col}_ci_low", f"{col}_ci_high")


def estimate_columns(table, not_estimates) -> list[str]:
    """The float columns of ``table`` that are estimates (so need a CI)."""
    import pandas as pd

    return [
        str(c)
        for c in table.columns
        if pd.api.types.is_float_dtype(table[c])
        and str(c) not in not_estimates
        and not str(c).endswith(CI_SUFFIXES)
    ]


def study_twice(study, name: str, games: int, seed: int, tmp_path_factory) -> list:
    """(folder, section) of two runs of a report study with the same seed,
    each with its data written, for the reproducibility checks."""
    from cardmc.reports.build import write_data

    out = []
    for run in ("a", "b"):
        folder = tmp_path_factory.mktemp(f"{name}_{run}")
        section = study(folder, games=games, seed=seed)
        write_data(folder, [section])
        out.append((folder, section))
    return out


def check_cis(section, not_estimates) -> list:
    """Every estimate column of a study's tables and data has CI columns that
    bracket it, and the readable table never shows it bare; returns the
    readable tables for further checks."""
    from cardmc.display import readable

    shown_tables = []
    for table in [t for _, _, t in section.tables] + list(section.data.values()):
        cols = estimate_columns(table, not_estimates)
        assert cols, f"no estimates in {list(table.columns)}"
        for col in cols:
            lo, hi = ci_columns(col)
            assert lo in table.columns and hi in table.columns, f"{col} has no CI columns"
            ok = table[[col, lo, hi]].dropna()
            assert (ok[lo] <= ok[col] + 1e-9).all() and (ok[col] <= ok[hi] + 1e-9).all(), col
        shown = readable(table)
        assert not any(c in shown.columns for c in cols), "an estimate is shown without its CI"
        shown_tables.append(shown)
    return shown_tables


def assert_same_tables(a: dict, b: dict, rtol: float | None = None) -> None:
    """The same table names in the same order, each table equal: exactly, or
    (floats only) to ``rtol``."""
    import pandas as pd

    assert list(a) == list(b)
    tol = {"check_exact": True} if rtol is None else {"check_exact": False, "rtol": rtol}
    for name in a:
        pd.testing.assert_frame_equal(a[name], b[name], obj=name, **tol)


def merged_parts(aggregate, rows, cuts: list[int]) -> dict:
    """``aggregate`` of the rows of games cuts[i] <= game < cuts[i + 1], each
    part apart, merged; the same merged in either order."""
    from cardmc import aggregate as agg

    games = rows["game"].to_numpy()
    parts = [aggregate(rows[(games >= a) & (games < b)]) for a, b in zip(cuts, cuts[1:])]
    merged = agg.merge(*parts[::-1])
    assert_same_tables(agg.merge(*parts), merged)
    return merged


def check_aggregate_routes(game: str, tmp_path: Path, want: dict, chunk_games: tuple[int, int], **kw) -> None:
    """Aggregate runs of ``game`` (``simulate`` keywords ``kw``) give exactly
    the tables ``want`` of the row analysis on every route: in memory
    (chunk_games[0] games a chunk), a run folder (chunk_games[1] games a
    chunk), a single aggregate file, and a rows Parquet file analysed part by
    part; and an aggregate file is refused where rows are wanted."""
    from cardmc import aggregate as agg
    from cardmc import api
    from cardmc.registry import UsageError

    in_memory, per_file = chunk_games
    aggs = api.simulate(game, aggregate=True, chunk_games=in_memory, **kw)
    assert isinstance(aggs, agg.Aggregates) and aggs.attrs["game"] == game
    assert_same_tables(api.analyze(game, aggs), want)
    folder = api.simulate(game, aggregate=True, chunk_games=per_file, out=tmp_path / "run", **kw)
    files = -(-kw["games"] // per_file)
    assert files > 1 and sorted(p.name for p in folder.glob("agg-*.parquet")) == [
        f"agg-{i:08d}.parquet" for i in range(files)
    ]
    assert_same_tables(api.analyze(game, folder), want)
    single = api.simulate(game, aggregate=True, out=tmp_path / "a.parquet", **kw)
    assert_same_tables(api.analyze(game, single), want)
    rows_file = api.simulate(game, out=tmp_path / "rows.parquet", **kw)  # analysed part by part
    assert_same_tables(api.analyze(game, rows_file), want)
    with pytest.raises(UsageError, match="aggregates, not rows"):
        api.read(single)


def run_cli(cwd: Path, *args: str) -> str:
    """Run ``python -m cardmc.cli *args`` in ``cwd``; it must succeed.
    Returns its standard output."""
    done = subprocess.run(
        [sys.executable, "-m", "cardmc.cli", *args], cwd=cwd, capture_output=True, text=True
    )
    assert done.returncode == 0, f"{args}\n{done.stderr}"
    return done.stdout


def error_bar_points(ax) -> int:
    """Points drawn with error bars on ``ax`` (every error bar container must carry y error bars)."""
    from matplotlib.container import ErrorbarContainer

    boxes = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    assert boxes and all(c.has_yerr for c in boxes)
    return sum(len(c.lines[0].get_xdata()) for c in boxes)


def assert_plays_legal(sample, me: int, played: list, legal) -> None:
    """Every play of a deal by the seats other than ``me`` was legal, by the
    reference rules ``legal(hand codes, trick codes)``, with the hands of
    ``sample`` (the search player's deal of the unseen cards) and the cards
    each seat played since."""
    n = len(sample)
    held = {s: int(sample[s]) for s in range(n) if s != me}
    for i in range(len(played) - 1, -1, -1):  # back from the last play: a seat held its later cards too
        s, c = played[i]
        if s == me:
            continue
        held[s] |= 1 << c
        assert code(c) in legal(codes_of(held[s]), [code(x) for _, x in played[i - i % n : i]])


def decide_seeing_all(monkeypatch, view: dict, hands: dict, rng):
    """The search player's card at ``view`` when its every sample is the true
    deal ``hands`` (seat: mask), or None when the seat has one legal card."""
    from cardmc import pimc

    if view["legal"] & (view["legal"] - 1) == 0:
        return None
    true = np.array([hands[s] for s in range(view["players"])], np.uint64)
    monkeypatch.setattr(pimc, "sample", lambda view, rng, R, banned=None: true.copy())
    return pimc.decide(view, 2, rng, pimc.search_table())


def start_then_stop(
    tmp_path: Path, args: list[str], how: int, chunks: int = 1, after: float = 0.0
) -> tuple[int, str]:
    """Start the CLI in ``tmp_path`` and send it signal ``how`` once the run
    folder ``run``'s manifest lists ``chunks`` chunks (0: once it exists), and
    ``after`` seconds more; its exit status and standard error. Fails the test
    when the process has not ended a minute after the signal."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardmc.cli", *args],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    path = tmp_path / "run" / "manifest.json"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if len(json.loads(path.read_text())["chunks"]) >= chunks:
                break
        except (OSError, ValueError, KeyError):
            pass
        time.sleep(0.01)
    time.sleep(after)
    proc.send_signal(how)
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(f"the run had not stopped a minute after signal {how}")
    return proc.returncode, err
