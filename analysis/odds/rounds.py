"""Rounds of sample deals (or games) until a count, a target standard error or a time limit:
the loop of ``cardmc.odds`` and ``cardmc.compare``.

A result for a given number of deals is reproducible: the stopping rules are
checked only at a round's end, and deal i is the same whatever the rounds.
Figures are kept as integer sums (``cardmc.stats.mean_from_sums`` and the
like), so rounds merge exactly in any order.
"""

from __future__ import annotations

import time

from cardmc.checks import check_positive
from cardmc.progress import bar

ROUND = 16_384  # deals per round: the unit of --target-se and --max-seconds checks


def rounds(
    sample,
    games: int,
    worst_se=None,
    target_se: float | None = None,
    max_seconds: float | None = None,
    progress: bool = False,
    desc: str = "odds",
    round_deals: int = ROUND,
    unit: str = " deals",
) -> tuple[int, str]:
    """Call ``sample(start, count)`` on deals (or games) ``0..games-1`` in
    rounds of ``round_deals``; after each round stop when ``worst_se()`` (the
    largest SE the result reports) is at most ``target_se``, or ``max_seconds``
    have passed. Returns (deals played, what stopped: games, target_se or
    max_seconds)."""
    target_se = check_positive("target_se", target_se)
    max_seconds = check_positive("max_seconds", max_seconds)
    t0 = time.perf_counter()
    done, stopped = 0, "games"
    with bar(progress, games, desc, unit=unit, leave=False) as shown:
        while done < games:
            count = min(round_deals, games - done)
            sample(done, count)
            done += count
            shown.update(count)
            if done >= games:
                break
            if target_se is not None and worst_se is not None and worst_se() <= target_se:
                stopped = "target_se"
                break
            if max_seconds is not None and time.perf_counter() - t0 >= max_seconds:
                stopped = "max_seconds"
                break
    return done, stopped
