"""A run's blocks share one row array (``RowBuffer``): every game's rows are
the same with it as with a new array per block, block after block, and the
buffer grows only when a block needs more than it holds."""

from __future__ import annotations

import numpy as np
import pytest

from cardmc import registry
from cardmc.kernels.columns import RowBuffer, new_rows

GAMES = ["differenzler", "english_jazz", "schieber", "norwegian_jazz"]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_rows_with_a_shared_buffer_are_the_rows_of_new_arrays(game, policy):
    spec = registry.get(game)
    players = spec.default_players
    params = spec.params(spec.settings({}))
    policies = spec.parse_policy(policy, players)
    out = RowBuffer()
    # a large block first, then smaller ones: later blocks overwrite the start of the same memory
    for first, count in ((0, 40), (40, 7), (47, 25), (72, 1)):
        shared = spec.simulate_block(9, first, count, players, params, policies, out=out)
        fresh = spec.simulate_block(9, first, count, players, params, policies)
        assert np.shares_memory(shared, out.flat)
        np.testing.assert_array_equal(shared, fresh)


def test_the_buffer_grows_only_when_needed():
    out = RowBuffer()
    a = new_rows(out, 100, 7)
    assert a.shape == (100, 7) and a.dtype == np.int32
    flat = out.flat
    b = new_rows(out, 30, 9)
    assert b.shape == (30, 9) and out.flat is flat  # 270 <= 700: the same memory
    c = new_rows(out, 200, 7)
    assert c.shape == (200, 7) and out.flat is not flat and out.flat.size == 1400
    assert new_rows(None, 3, 2).shape == (3, 2)  # no buffer: a new array
