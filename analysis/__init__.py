"""cardmc: Monte Carlo analysis of Schieber, Differenzler, English Jazz and
Norwegian Jazz.

    >>> import cardmc
    >>> df = cardmc.simulate("differenzler", games=10_000, seed=1)
    >>> tables = cardmc.analyze("differenzler", df)
    >>> cardmc.compare("differenzler", ["heuristic", "random"], games=20_000)   # paired, same deals
    >>> cardmc.ladder("schieber", ["random", "heuristic", "pimc"], search_games=20)   # every pair in duplicate

The parts: ``cardmc.kernels`` (the Numba kernels: cards, dealing, the rules
of each game, policies, batch drivers), ``cardmc.reports`` (charts and the
report), and the Python edge beside this file (``cardmc.api``, the game
modules ``cardmc.differenzler`` and so on, ``cardmc.cli``).
"""

from __future__ import annotations

import types

__version__ = "0.2.0"

_API = ("simulate", "analyze", "trace", "read", "run_info")
_GAME_API = {"house_rules": "cardmc.schieber"}
_PARTS = ("kernels", "reports")
_CALLABLE = (
    "compare",
    "ladder",
    "solve",
    "odds",
    "advise",
    "train",
)  # modules that call their function: cardmc.compare(game, arms, ...)

__all__ = [*_API, *_GAME_API, *_CALLABLE, "__version__"]


class CallableModule(types.ModuleType):
    """A module that is also its function of the same name (``cardmc.compare``,
    ``cardmc.solve``, ``cardmc.odds``): importing a submodule binds its name in
    the package, so the module itself must call the function."""

    def __call__(self, *args, **kwargs):
        return getattr(self, self.__name__.rpartition(".")[2])(*args, **kwargs)


def __getattr__(name: str):
    # the API pulls in pandas and the kernels: load it on first use only
    import importlib

    if name in _API:
        return getattr(importlib.import_module("cardmc.api"), name)
    if name in _GAME_API:
        return getattr(importlib.import_module(_GAME_API[name]), name)
    if name in _PARTS or name in _CALLABLE:
        return importlib.import_module(f"cardmc.{name}")
    raise AttributeError(f"module 'cardmc' has no attribute {name!r}")
