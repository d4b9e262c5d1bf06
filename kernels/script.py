"""The script of the search player's seats, shared by the game kernels.

A seat whose policy is the search player ``pimc`` (``cardmc.pimc``) is played
by its game's kernel from a script: an int64 array whose head says how many
cards it holds (``SC_COUNT``), the next one to play (``SC_NEXT``), the event
number of the first card asked for beyond them (``SC_NEED``, -1: none), from
how many tricks left it applies (``SC_TRICKS``; before that the heuristic
plays) and which seats it plays (``SC_SEATS``, bits, set by the kernel from
the policies), then the cards in the order they are asked for. Runs without
such seats pass no script (None): Numba compiles them without this code.
"""

from __future__ import annotations

from cardmc.kernels.jit import jit

SC_COUNT, SC_NEXT, SC_NEED, SC_TRICKS, SC_SEATS, SC_CARDS = 0, 1, 2, 3, 4, 5


@jit(inline="always")
def start(script, policies, players, code):
    """Set the script's seats (policy ``code``) and rewind it, before a game."""
    script[SC_SEATS] = 0
    for s in range(players):
        script[SC_SEATS] |= (1 if policies[s, 0] == code else 0) << s
    script[SC_NEXT], script[SC_NEED] = 0, -1


@jit(inline="always")
def scripted_card(script, seat, left, ne):
    """The card of ``seat`` from ``script`` when the seat is scripted and
    ``left`` tricks are few enough, else -1 (beyond the script: its event
    number ``ne`` is noted, and the heuristic plays)."""
    if not (script[SC_SEATS] >> seat & 1 and left <= script[SC_TRICKS]):
        return -1
    j = script[SC_NEXT]
    script[SC_NEXT] = j + 1
    if j < script[SC_COUNT]:
        return script[SC_CARDS + j]
    if script[SC_NEED] < 0:
        script[SC_NEED] = ne
    return -1
