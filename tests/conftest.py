import os

import pytest

os.environ.setdefault("MPLBACKEND", "Agg")


@pytest.fixture(scope="module")
def rows(request):
    """The rows of the test module's run: game ``GAME``, ``simulate`` keywords ``RUN``."""
    from cardmc import api

    return api.simulate(request.module.GAME, **request.module.RUN)


@pytest.fixture(scope="module")
def row_tables(request, rows) -> dict:
    """The row analysis of ``rows``."""
    from cardmc import api

    return api.analyze(request.module.GAME, rows)


def pytest_sessionstart(session):
    """The tests import the installed ``cardmc``: stop at once if it is not
    this tree's code (an older install), rather than test something else."""
    from pathlib import Path

    import cardmc
    import cardmc.kernels
    import cardmc.reports

    root = Path(__file__).resolve().parents[1]
    installed = Path(cardmc.__file__).resolve().parent
    stale = []
    for folder, module in (("analysis", cardmc), ("kernels", cardmc.kernels), ("reports", cardmc.reports)):
        where = Path(module.__file__).resolve().parent
        for source in sorted((root / folder).glob("*.py")):
            copy = where / source.name
            if not copy.is_file() or copy.read_bytes() != source.read_bytes():
                stale.append(f"{folder}/{source.name}")
    if stale:
        pytest.exit(
            f"the installed cardmc ({installed}) is not this tree ({', '.join(stale[:3])} differ): "
            "run pip install -e '.[test]' (or pip install '.[test]') first",
            returncode=2,
        )
    from cardmc.warm import warm

    warm(only_cold=True)  # a cold cache: every group compiles side by side first, one process per core
