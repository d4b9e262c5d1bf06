import os

import pytest

os.environ.setdefault("MPLBACKEND", "Agg")


@pytest.fixture(scope="module")
def rows(request):
    """The rows of the test module's run: game ``GAME``, ``simulate`` keywords ``RUN``."""
    from analysis import api

    return api.simulate(request.module.GAME, **request.module.RUN)


@pytest.fixture(scope="module")
def row_tables(request, rows) -> dict:
    """The row analysis of ``rows``."""
    from analysis import api

    return api.analyze(request.module.GAME, rows)
