"""Counter-based randomness: every random number is a pure function of a key.

A stream is keyed by ``(seed, game, deal, purpose)`` through SplitMix64
finalisers, then walks SplitMix64 from there. So deal ``k`` of game ``i`` of
seed ``s`` is the same cards whatever the thread count, chunk size, batch
split or machine, and the same deals can be replayed under another policy
or rule option (paired comparisons).

The state of a stream is a one-element uint64 array (kernels mutate it).
"""

from __future__ import annotations

import numpy as np

from cardmc.kernels.jit import jit

# purposes: independent streams for the same (seed, game, deal)
DEAL = 1  # the shuffle of a deal
PLAY = 2  # random choices of the players (cards, declarations, contracts)
SETUP = 3  # who deals first, and other once-per-game draws

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@jit(inline="always")
def mix(z):
    """SplitMix64 finaliser: a bijection of uint64 with good avalanche."""
    z = np.uint64(z)
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@jit
def key(seed, game, deal, purpose):
    """The starting state of the stream for (seed, game, deal, purpose)."""
    z = mix(np.uint64(seed) + _GAMMA)
    z = mix(z ^ (np.uint64(game) + _GAMMA))
    z = mix(z ^ (np.uint64(deal) * _M1 + np.uint64(purpose)))
    return z


@jit
def stream(seed, game, deal, purpose):
    """A fresh stream state array for (seed, game, deal, purpose)."""
    st = np.empty(1, np.uint64)
    st[0] = key(seed, game, deal, purpose)
    return st


@jit(inline="always")
def next_u64(st):
    st[0] += _GAMMA
    return mix(st[0])


@jit(inline="always")
def below_at(z, k, n):
    """The ``k``-th draw (k >= 1) of ``below(., n)`` from the stream state
    ``z``, without walking the draws before it: a uniform int in 0..n-1."""
    return np.int64(((mix(z + _GAMMA * np.uint64(k)) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@jit(inline="always")
def below_from(z, n):
    """``below`` on a stream state ``z`` held in a register: (new state, draw)."""
    return z + _GAMMA, below_at(z, 1, n)


@jit(inline="always")
def below(st, n):
    """Uniform int in 0..n-1 (n <= 2**32; multiply-shift, bias below 2**-32 * n)."""
    st[0], v = below_from(st[0], n)
    return v


@jit(inline="always")
def skip(z, n):
    """The stream state ``z`` after ``n`` draws."""
    return z + _GAMMA * np.uint64(n)


@jit(inline="always")
def shuffle_from(z, cards):
    """Fisher-Yates shuffle of ``cards`` in place with the draws of ``below``
    from the stream state ``z`` (kept in a register); returns the new state."""
    n = cards.size
    for i in range(n - 1, 0, -1):
        j = below_at(z, n - i, i + 1)
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t
    return skip(z, max(n - 1, 0))


@jit
def shuffle(st, cards):
    """Fisher-Yates shuffle of ``cards`` in place, drawing from the stream ``st``."""
    st[0] = shuffle_from(st[0], cards)


@jit(inline="always")
def restart(st, seed, game, deal, purpose):
    """Point the existing stream array ``st`` at (seed, game, deal, purpose)
    without allocating (for hot loops)."""
    st[0] = key(seed, game, deal, purpose)
