"""cardmc's Python edge: the API, the pandas pipelines and the CLI.

    >>> import analysis as cardmc
    >>> df = cardmc.simulate("differenzler", games=10_000, seed=1)
"""
from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["simulate", "analyze", "trace", "__version__"]


def __getattr__(name: str):
    # the API pulls in pandas and the kernels: load it on first use only
    if name in ("simulate", "analyze", "trace"):
        from analysis import api

        return getattr(api, name)
    raise AttributeError(name)
