"""cardmc: Monte Carlo analysis of Schieber, Differenzler, English Jazz and
Norwegian Jazz.

    >>> import cardmc
    >>> df = cardmc.simulate("differenzler", games=10_000, seed=1)
    >>> tables = cardmc.analyze("differenzler", df)

The parts: ``cardmc.kernels`` (the Numba kernels: cards, dealing, the rules
of each game, policies, batch drivers), ``cardmc.reports`` (charts and the
report), and the Python edge beside this file (``cardmc.api``, the game
modules ``cardmc.differenzler`` and so on, ``cardmc.cli``).
"""
from __future__ import annotations

__version__ = "0.2.0"

_API = ("simulate", "analyze", "trace", "read", "run_info")
_GAME_API = {"odds": "cardmc.odds_frame"}
_PARTS = ("kernels", "reports")

__all__ = [*_API, *_GAME_API, "__version__"]


def __getattr__(name: str):
    # the API pulls in pandas and the kernels: load it on first use only
    import importlib

    if name in _API:
        return getattr(importlib.import_module("cardmc.api"), name)
    if name in _GAME_API:
        return getattr(importlib.import_module(_GAME_API[name]), name)
    if name in _PARTS:
        return importlib.import_module(f"cardmc.{name}")
    raise AttributeError(f"module 'cardmc' has no attribute {name!r}")
