"""The jit layer: one compiled version per argument types, and the shares
that run side by side on Python threads."""

from __future__ import annotations

import threading

import numba
import numpy as np
import pytest

import cardmc
from cardmc.kernels import schieber_weis as W
from cardmc.kernels.jit import _jit, in_shares, in_threads

# the kernels' jit layer without the on-disk cache: a cached caller would load
# and never compile its callee here, whatever the earlier runs left behind
jit = _jit


@jit
def _twice(x):
    return 2 * x


@jit
def _calls_with_a_constant(x):
    return _twice(x) + _twice(3)


def test_a_constant_argument_compiles_no_second_version():
    assert _calls_with_a_constant(np.int64(4)) == 14
    assert [str(s) for s in _twice.signatures] == ["(int64,)"]


def test_schieber_declares_weis_with_one_compiled_version():
    """``declare`` is called with the constant OBENABE and with a contract
    variable (matches and hand odds): one version serves both."""
    cardmc.simulate("schieber", games=5, seed=1)
    cardmc.odds("schieber", "JS 9S AS KH QH TD 8D 7C 6C", games=50)
    assert len(W.declare.signatures) == 1


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("items", [0, 1, 2, 5, 64])
def test_shares_cover_every_item_once_on_the_run_s_threads(threads, items):
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    seen, names = [], set()

    def work(lo, hi):
        seen.extend(range(lo, hi))
        names.add(threading.current_thread().name)

    try:
        in_shares(work, items)
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    assert sorted(seen) == list(range(items))
    if numba.get_num_threads() == 1 or threads == 1 or items < 2:
        assert names <= {threading.current_thread().name}


def test_in_threads_gives_results_in_order():
    assert in_threads(lambda p: p * p, 4) == [0, 1, 4, 9]
    assert in_threads(lambda p: p, 1) == [0]


@pytest.mark.parametrize("failing", [0, 1])
def test_in_threads_finishes_every_share_before_it_raises(failing):
    """A share that fails (the calling thread's own, or another's) is raised
    only once every share has finished: none still writes into the caller's
    arrays after it returns."""
    import time

    done = []

    def work(p: int) -> int:
        if p == failing:
            raise ValueError(f"share {p}")
        time.sleep(0.05)
        done.append(p)
        return p

    with pytest.raises(ValueError, match=f"share {failing}"):
        in_threads(work, 3)
    assert sorted(done) == [p for p in range(3) if p != failing]
