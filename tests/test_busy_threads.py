"""While a kernel holds Numba's threads (run from another thread), a
block still becomes a frame or aggregates, without waiting: the very same
frame and tables as with the threads free."""

from __future__ import annotations

import pytest

from cardmc import aggregate as agg
from cardmc import registry
from cardmc.kernels.jit import KERNEL_LOCK
from tests.helpers import assert_same_tables

CASES = [
    ("differenzler", "calibrated", 4),
    ("schieber", "random", 4),
    ("english_jazz", "heuristic", 3),
    ("norwegian_jazz", "random,heuristic,random,heuristic,random,heuristic,random", 7),
]


def _block(game, policy, players):
    spec = registry.get(game)
    params = spec.params(spec.settings({}))
    return spec, params, spec.simulate_block(5, 0, 300, players, params, spec.parse_policy(policy, players))


def _tables(spec, players, params, rows, busy):
    tally = agg.tally(spec, players, params)
    if busy:
        with KERNEL_LOCK:
            tally.add(rows)
    else:
        tally.add(rows)
    return tally.result()


@pytest.mark.parametrize("game,policy,players", CASES)
def test_busy_threads_give_the_same_frame_and_tables(game, policy, players):
    spec, params, rows = _block(game, policy, players)
    free = spec.frame(rows)
    with KERNEL_LOCK:
        busy = spec.frame(rows)
    assert busy.equals(free) and list(busy.dtypes) == list(free.dtypes)
    assert_same_tables(
        _tables(spec, players, params, rows, True), _tables(spec, players, params, rows, False)
    )
