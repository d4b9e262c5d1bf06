"""The solver's objectives: for each value the exact solver searches, which
seats maximise and whose tricks are counted.

The search (``cardmc.kernels.solve_search``) knows no game's objective: it
plays the seats of one bit mask (``R[MAX_SIDE]``) against the others and
counts what the seats of another (``R[COUNTED]``) take. Every objective of
``cardmc.solve``, its bench and the search player is one of ``OBJECTIVES``,
for one seat (its owner, ``seat``):

* ``team0``: Schieber's team 0 (seats 0 and 2), whoever plays: both teams
  play best, the counted team maximises. ``team``: the team of ``seat``.
* ``sure_at_least``: what ``seat`` can be sure to take whatever the others
  do (it maximises alone); ``sure_at_most``: what it can be sure not to
  exceed (the others maximise what it takes); ``least_penalty``: its least
  distance to a target (a declaration), searched as such (a target given).
* ``most_tricks``: the most ``seat`` can be sure of against the others
  playing together.
* ``held_to``: what the others playing together hold ``seat`` to, it
  playing best (the others maximise what it takes: penalties);
  ``escape``: what it takes when every seat helps it (nobody maximises).

Which of them a game has, and what its values mean, is the game's own
(its spec's ``solver`` and ``search_player``).
"""

from __future__ import annotations

OBJECTIVES = (
    "team0",
    "team",
    "sure_at_least",
    "sure_at_most",
    "least_penalty",
    "most_tricks",
    "held_to",
    "escape",
)


def sides(objective: str, seat: int, players: int) -> tuple[int, int]:
    """(maximising seats, counted seats), as bit masks, of ``objective`` for
    ``seat`` at a table of ``players``."""
    me, everyone = 1 << seat, (1 << players) - 1
    team = 0b0101 if seat % 2 == 0 else 0b1010
    return {
        "team0": (0b0101, 0b0101),
        "team": (team, team),
        "sure_at_least": (me, me),
        "sure_at_most": (everyone ^ me, me),
        "least_penalty": (me, me),
        "most_tricks": (me, me),
        "held_to": (everyone ^ me, me),
        "escape": (0, me),
    }[objective]


def scaled(found: tuple[int, dict[int, int]], shift: int = 0, scale: int = 1) -> tuple[int, dict[int, int]]:
    """A search's (value, value after each card), each value ``shift + scale * value``:
    what was scored before the position, in the game's own units."""
    value, per = found
    return shift + scale * value, {c: shift + scale * x for c, x in per.items()}
