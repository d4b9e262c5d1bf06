"""Bit tricks on uint64 card masks, as LLVM intrinsics (one instruction each)."""
from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import intrinsic

from kernels.jit import jit

ONE = np.uint64(1)
ZERO = np.uint64(0)


@jit(inline="always")
def bit(card):
    """The mask of one card."""
    return ONE << np.uint64(card)


@intrinsic
def _ctpop(typingctx, x):
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def _cttz(typingctx, x):
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        from llvmlite import ir

        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@intrinsic
def _ctlz(typingctx, x):
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        from llvmlite import ir

        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@jit(inline="always")
def popcount(mask):
    """Number of cards in ``mask``."""
    return np.int64(_ctpop(mask))


@jit(inline="always")
def lowest(mask):
    """Index of the lowest card in a non-empty ``mask`` (64 when empty)."""
    return np.int64(_cttz(mask))


@jit(inline="always")
def highest(mask):
    """Index of the highest card in a non-empty ``mask``."""
    return 63 - np.int64(_ctlz(mask))


@jit(inline="always")
def nth(mask, k):
    """Index of the k-th lowest card of ``mask`` (0-based, k < popcount)."""
    m = np.uint64(mask)
    for _ in range(k):
        m &= m - ONE
    return np.int64(_cttz(m))
