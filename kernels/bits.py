"""Bit tricks on uint64 card masks, as LLVM intrinsics (one instruction each)."""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import intrinsic

from cardmc.kernels.jit import jit

ONE = np.uint64(1)
ZERO = np.uint64(0)


@jit
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


@jit
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


def _fast_pdep() -> bool:
    """True when the host has BMI2 with a fast PDEP (not AMD Zen 1/2 or
    Bulldozer, where it is microcoded) and Numba compiles for this host."""
    try:
        import llvmlite.binding as ll
        from numba.core import config

        if config.CPU_NAME is not None:  # compiling for another CPU (portable caches): no PDEP
            return False
        name = ll.get_host_cpu_name()
        return (
            bool(ll.get_host_cpu_features().get("bmi2"))
            and name not in ("znver1", "znver2")
            and not name.startswith("bdver")
        )
    except Exception:  # noqa: BLE001 - any doubt: the portable version
        return False


FAST_PDEP = _fast_pdep()


def _bmi2(op: str):
    """The BMI2 instruction ``op`` (pdep or pext) on two uint64, as an intrinsic."""

    @intrinsic
    def call(typingctx, x, m):
        sig = types.uint64(types.uint64, types.uint64)

        def codegen(context, builder, signature, args):
            from llvmlite import ir

            fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
            return builder.call(builder.module.declare_intrinsic(f"llvm.x86.bmi.{op}.64", fnty=fnty), args)

        return sig, codegen

    return call


_pdep, _pext_bmi2 = _bmi2("pdep"), _bmi2("pext")


@jit
def nth_pdep(mask, k):
    """Index of the k-th lowest card of ``mask`` (0-based, k < popcount): one
    PDEP instruction. Only for hosts with BMI2 (see ``FAST_PDEP``)."""
    return np.int64(_cttz(_pdep(ONE << np.uint64(k), np.uint64(mask))))


@jit
def nth_portable(mask, k):
    """Index of the k-th lowest card of ``mask`` (0-based, k < popcount), by
    halving without a data-dependent loop."""
    m = np.uint64(mask)
    pos = 0
    for w in (32, 16, 8, 4, 2, 1):
        c = np.int64(_ctpop((m >> np.uint64(pos)) & np.uint64((1 << w) - 1)))
        go = k >= c
        pos += w if go else 0
        k -= c if go else 0
    return pos


nth = nth_pdep if FAST_PDEP else nth_portable
"""The k-th lowest card of a mask: the fastest version this host runs."""


@jit
def nth_bit_pdep(mask, k):
    """The mask of the k-th lowest card of ``mask`` (k < popcount), or 0 when
    ``mask`` is empty: one PDEP instruction (hosts with ``FAST_PDEP``)."""
    return _pdep(ONE << np.uint64(k), np.uint64(mask))


@jit
def nth_bit_portable(mask, k):
    """``nth_bit_pdep`` without PDEP."""
    return (ONE << np.uint64(nth_portable(mask, k))) & np.uint64(mask)


nth_bit = nth_bit_pdep if FAST_PDEP else nth_bit_portable
"""The mask of the k-th lowest card of a mask (0 for an empty mask): the
fastest version this host runs. Saves turning a card back into its bit."""


@jit
def _pext_portable(x, m):
    out = ZERO
    b = ONE
    while m != ZERO:
        low = m & (ZERO - m)
        if x & low:
            out |= b
        b <<= ONE
        m ^= low
    return out


pext = _pext_bmi2 if FAST_PDEP else _pext_portable
"""The bits of ``x`` at the places of ``m``, packed (one PEXT with BMI2)."""
