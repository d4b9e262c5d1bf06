"""Numba kernels of cardmc: cards, dealing, the rules of each game, policies
and the batch drivers. Kernels take and return only arrays and scalars."""
