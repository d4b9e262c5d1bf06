"""Every jit option in one place.

All kernels are compiled with ``cache=True`` so that the first compile is paid
once per machine; ``nogil`` lets Dask or thread pools run kernels side by side.
"""
from __future__ import annotations

import functools
import threading

import numba

jit = functools.partial(numba.njit, cache=True, nogil=True)
"""Serial kernel: ``@jit`` or ``@jit(inline="always")``-style keyword use."""

parallel_jit = functools.partial(numba.njit, cache=True, nogil=True, parallel=True)
"""Batch driver with ``numba.prange`` over games."""

KERNEL_LOCK = threading.Lock()
"""Held around every parallel kernel call: Numba's thread pool is one per
process, so parallel kernels run one at a time (never nested)."""
