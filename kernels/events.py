"""Trace event kinds, one number each for every game.

When its ``events`` array has rows, a game's ``play_game`` writes one int64
row ``(kind, a, b, c)`` per event; ``cardmc.trace`` walks them into the
lines of TRACE.md. The shared kinds open a deal, give a hand and record a
turn; a game's own kinds carry what only that game has. Every kind has its
own number, so a stray event is never read as another game's.

Numba compiles these numbers into the kernels and caches a kernel by its own
file: after changing a number here, clear the kernels' ``__pycache__``.
"""

from __future__ import annotations

# every game (a, b, c)
EV_DEAL = 0  # deal number (0-based), dealer (-1: none yet), leader
EV_HAND = 1  # seat, hand mask as dealt, 0
EV_PLAY = 2  # seat, card (-1: a pass in sevens), legal mask (0 for a pass)

# Schieber
EV_CONTRACT = 10  # chooser, pushed (0 or 1), contract
EV_WEIS = 11  # seat, points before the multiplier, card mask of one combination
EV_WEIS_TEAM = 12  # team credited with Weis or -1, 0, 0
EV_STOECK = 13  # seat dealt trump K and Q or -1, 0, 0
EV_DEAL_END = 14  # score of team 0, score of team 1, match ended (0 or 1)
EV_CARD_POINTS = 15  # card points of team 0, of team 1, 0

# Differenzler
EV_DECLARE = 20  # seat, declared points, 0

# English Jazz: the cards dealt face up to find the first dealer, before deal 0
EV_FACE_UP = 30  # turn (0-based), card, seat it is dealt to

KINDS = {name: value for name, value in globals().items() if name.startswith("EV_")}
