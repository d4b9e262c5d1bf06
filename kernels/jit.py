"""Every jit option in one place, and the threads kernels run on.

All kernels are compiled with ``cache=True`` so that the first compile is paid
once per machine; ``nogil`` lets Python threads (``in_threads``, Dask) run
kernels side by side. The run's thread count is Numba's
(``numba.set_num_threads``), set per calling thread.
"""

from __future__ import annotations

import functools
import threading

import numba
from numba.core import types


def _one_version(dispatcher):
    """Calls from other kernels compile one version of ``dispatcher`` per
    argument types, not one more per constant argument: Numba would type a
    literal ``0`` or a module constant as its own type and compile the whole
    call tree again for it, which cost seconds of every first compile and
    nothing at run time (the constant is folded the same way after inlining)."""
    get = dispatcher.get_call_template

    def get_call_template(args, kws):
        return get(tuple(types.unliteral(a) for a in args), {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


def _jit(*args, **options):
    """``numba.njit`` with ``options``, as ``@jit`` or ``@jit(...)``."""
    if args and callable(args[0]):
        return _one_version(numba.njit(**options)(args[0]))
    return lambda func: _one_version(numba.njit(*args, **options)(func))


jit = functools.partial(_jit, cache=True, nogil=True)
"""Serial kernel: ``@jit`` or ``@jit(inline="always")``-style keyword use."""

recursive = numba.njit(cache=True, nogil=True)
"""A kernel that calls itself: plain ``numba.njit``, whose recursive calls
``jit``'s one-version typing would compile again while compiling (so every
call must pass the same types: no literal constants)."""


def in_threads(work, shares: int, halt=None) -> list:
    """``[work(0), ..., work(shares - 1)]``, run side by side on Python threads
    (the kernels release the GIL), or in this thread when ``shares`` is 1:
    for light passes over a block's rows (split into columns, tally) that
    are not worth a parallel kernel's compile. With ``halt``, for long work
    that can stop early: every share runs on the pool while this thread only
    waits, so that it hears Ctrl-C at once; ``halt()`` is then called to stop
    the shares before the interrupt goes on."""
    if halt is not None:
        from concurrent.futures import wait

        futures = [_pool(shares).submit(work, p) for p in range(shares)]
        try:
            wait(futures)
        except BaseException:
            halt()
            wait(futures)  # every share is done before anything returns or raises
            raise
        return [f.result() for f in futures]
    if shares <= 1:
        return [work(p) for p in range(shares)]
    # the calling thread takes share 0: handing a share to a waiting thread and back costs 10-20 us
    # this way, against 90-110 us for both shares to the pool (a block's passes are a millisecond)
    from concurrent.futures import wait

    others = [_pool(shares - 1).submit(work, p) for p in range(1, shares)]
    try:
        first = work(0)
    finally:
        wait(others)  # every share is done before anything returns or raises
    return [first, *(f.result() for f in others)]


def in_shares(work, items: int, after=None) -> None:
    """``work(lo, hi)`` over items 0..items-1 cut into one share of consecutive
    items per thread of the run (``numba.get_num_threads()``), side by side:
    the batch drivers' loop over slices of games. With ``after``, each share
    does its items one at a time, each followed on the same thread by
    ``after(p, i)`` (``p``: the share), while the item's output is still in
    the core's cache."""
    shares = max(1, min(items, numba.get_num_threads()))

    def share(p: int) -> None:
        lo, hi = items * p // shares, items * (p + 1) // shares
        if after is None:
            work(lo, hi)
            return
        for i in range(lo, hi):
            work(i, i + 1)
            after(p, i)

    in_threads(share, shares)


_POOLS: dict = {}


def _pool(workers: int):
    from concurrent.futures import ThreadPoolExecutor

    with _POOL_LOCK:
        if workers not in _POOLS:
            _POOLS[workers] = ThreadPoolExecutor(workers, thread_name_prefix="cardmc")
        return _POOLS[workers]


_POOL_LOCK = threading.Lock()

KERNEL_LOCK = threading.Lock()
"""Held around every batch driver call: one driver at a time per process
uses the run's threads, so threads of the calling program (or of a Dask
worker) never oversubscribe the cores."""
