"""``cardmc compile``: the kernels compiled in fresh processes side by side."""

from __future__ import annotations

import pytest

from cardmc import cli, warm


def test_plan_deals_the_largest_groups_first_to_the_least_loaded_process():
    groups = warm.plan(list(warm.group_weights()), 2)
    assert sorted(p for g in groups for p in g) == sorted(warm.group_weights())
    loads = [sum(warm.group_weights()[p] for p in g) for g in groups]
    assert max(loads) - min(loads) <= min(warm.group_weights().values())
    assert warm.plan(["schieber"], 4) == [["schieber"]]  # no empty processes
    assert warm.plan(list(warm.group_weights()), 1) == [
        sorted(warm.group_weights(), key=lambda p: -warm.group_weights()[p])
    ]


def test_unknown_groups_are_refused_before_anything_runs(capsys):
    with pytest.raises(ValueError, match="unknown group 'poker'"):
        warm.warm(["poker"], jobs=1)
    assert cli.main(["compile", "schieber", "poker"]) == 2
    err = capsys.readouterr().err
    one_of = ", ".join(warm.group_weights())
    assert err.strip().splitlines() == [f"cardmc: error: unknown group 'poker': one of {one_of}"]


def test_a_group_compiles_in_a_fresh_process_and_is_then_warm():
    done = warm.warm(["norwegian_jazz"], jobs=2)
    assert list(done) == ["norwegian_jazz"]
    assert warm.is_warm("norwegian_jazz")
    assert warm.warm(["norwegian_jazz"], jobs=2, only_cold=True) == {}  # nothing left to do


def test_a_failing_process_is_named_with_its_last_line(monkeypatch, capsys):
    failing = [warm.sys.executable, "-c", "raise SystemExit('no cache')"]
    monkeypatch.setattr(warm, "command", lambda group: failing)
    with pytest.raises(RuntimeError, match="compiling failed: schieber: no cache"):
        warm.warm(["schieber"], jobs=1)
    assert cli.main(["compile", "schieber"]) == 1
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last == "cardmc: error: compiling failed: schieber: no cache"
