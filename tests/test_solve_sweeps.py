"""Could an English Jazz hand take every trick with all hands seen: the batch kernel
against the solver's own answer, and its deals against the game's."""

from __future__ import annotations

import random

import numpy as np

import cardmc
from cardmc.english_jazz_solver import could_sweep, sweep_table
from cardmc.kernels import cards as C
from cardmc.kernels.solve_search import LINE
from cardmc.kernels.solve_sweeps import can_take_all

DECK36 = [int(c) for c in C.deck(36)]


def test_the_deals_are_the_game_s_and_the_answers_the_solver_s():
    seed, games = 5, 4
    could, dealt = could_sweep(seed, 0, games, threads=2)
    for line in cardmc.trace("english_jazz", seed=seed, games=games):
        g = line["index"]
        for d, deal in enumerate(line["deals"]):
            hands = [" ".join(h) for h in deal["hands"]]
            assert [C.mask_of([C.parse(c, 36) for c in h]) for h in deal["hands"]] == dealt[g, d].tolist()
            for s in range(3):
                v = cardmc.solve(
                    "english_jazz", hands=hands, to_play=deal["leader"], seat=s, cards=False
                ).value
                assert could[g, d, s] == bool(v["all_tricks"])
    assert np.array_equal(could_sweep(seed, 0, games, threads=1)[0], could)  # whatever the threads


def test_a_seat_can_take_all_exactly_when_the_solver_says_its_most_tricks_are_all_left():
    rng = random.Random("sweeps")
    table = sweep_table()
    probe, line = np.zeros(3, np.uint64), np.zeros(LINE, np.int64)
    seen = {True: 0, False: 0}
    for i in range(400):
        k = rng.randint(1, 4)
        cards = rng.sample(range(36), 3 * k)
        hands = [sorted(cards[s * k : (s + 1) * k]) for s in range(3)]
        codes = [" ".join(C.code(DECK36[c]) for c in h) for h in hands]
        masks = np.array([C.mask_of([DECK36[c] for c in h]) for h in hands], np.uint64)
        leader, seat = rng.randrange(3), rng.randrange(3)
        yes = can_take_all(*table, masks, leader, seat, i + 1, probe, line)
        v = cardmc.solve(
            "english_jazz", hands=codes, to_play=leader, seat=seat, taken=[12 - k, 0, 0], cards=False
        ).value
        assert yes == (v["most_tricks"] - (12 - k if seat == 0 else 0) == k), (codes, leader, seat)
        assert masks.tolist() == [C.mask_of([DECK36[c] for c in h]) for h in hands]  # left as they were
        seen[bool(yes)] += 1
    assert min(seen.values()) > 20  # both answers were tested
