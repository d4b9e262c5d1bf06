"""cardmc's Python edge: the API, the pandas pipelines and the CLI.

    >>> import analysis as cardmc
    >>> df = cardmc.simulate("differenzler", games=10_000, seed=1)
"""
from __future__ import annotations

__version__ = "0.1.0"

from analysis.api import analyze, simulate, trace  # noqa: E402

__all__ = ["simulate", "analyze", "trace", "__version__"]
