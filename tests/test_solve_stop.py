"""Stopping a search: ``halt(stop)`` and Ctrl-C end a solve at once, leave the
table sound, and a ``--solve`` run stops within moments with its one line."""

from __future__ import annotations

import signal
import threading
import time

import numpy as np
import pytest

import cardmc
from cardmc import solve as SV
from cardmc.kernels import cards as C
from cardmc.kernels import solve_rules as SR
from cardmc.kernels import solve_search as S
from tests.helpers import start_then_stop

# a whole Differenzler deal: seconds to minutes to solve, with every card's value
HANDS = [
    "6C 9C KC 7D TD AD 8H QS AS",
    "7C TC AC 6D JD 6H KH 7S TS",
    "8C JC QC 8D QD KD 7H 9H JS",
    "9D TH JH QH AH 6S 8S 9S KS",
]


def _deal_rules():
    keys, lows, highs, bests, ages, moves, scores, fr, fk = SV.table(16)
    R = SV.rules_array("differenzler", 4, 1, 1, 1)
    R[SR.TT_MASK], R[SR.SALT] = keys.size - 1, 12345 << 8
    hands = np.array([C.parse_hand(h, 9) for h in HANDS], np.uint64)
    return R, (keys, lows, highs, bests, ages), hands, (moves, scores, fr, fk)


def test_a_search_told_to_stop_returns_at_once_and_stores_nothing():
    R, table, hands, buffers = _deal_rules()
    table[0][:] = 0
    R[SR.STOP] = 1
    S.value(R, *table, hands, np.zeros(S.LINE, np.int64), 0, 0, 1, 0, *buffers)
    assert R[SR.NODES] == 0 and not table[0].any()
    R[SR.STOP] = 0
    assert S.value(R, *table, hands, np.zeros(S.LINE, np.int64), 0, 0, 1, 0, *buffers) >= 0
    assert R[SR.NODES] > 0


def test_halt_stops_a_solve_in_another_thread_and_later_solves_are_exact():
    end = {
        "hands": ["6S 7H QC", "7S 8H KC", "8S 9H AC", "9S TH 6C"],
        "to_play": 0,
        "contract": "H",
        "taken": [2, 2, 1, 1],
        "points": [30, 40, 20, 25],
    }
    before = cardmc.solve("schieber", **end)
    stop = threading.Event()
    out = {}

    def work():
        try:
            out["value"] = cardmc.solve(
                "differenzler", hands=HANDS, to_play=0, contract="D", seat=0, declared=60, stop=stop
            ).value
        except KeyboardInterrupt:
            out["stopped"] = True

    t = threading.Thread(target=work)
    t.start()
    time.sleep(0.5)
    SV.halt(stop)
    t.join(timeout=60)  # a guard against hanging, not a speed figure: the whole solve takes minutes
    assert not t.is_alive() and out == {"stopped": True}
    with pytest.raises(KeyboardInterrupt):  # a stop once set stops every later solve given it
        cardmc.solve("schieber", **end, stop=stop)
    after = cardmc.solve("schieber", **end)
    assert after.value == before.value and after.cards.equals(before.cards)


def test_ctrl_c_stops_a_solve_run_at_once_with_its_one_line(tmp_path):
    args = [
        "simulate",
        "differenzler",
        "--games",
        "1",
        "--seed",
        "1",
        "--policy",
        "calibrated",
        "--solve",
        "--out",
        "run/",
        "--no-progress",
    ]
    # 3 s after the run folder is made, the game is played and its first deal is being solved (the whole
    # game takes a quarter of an hour or more): before, Ctrl-C waited for the block's solving to end
    status, err = start_then_stop(tmp_path, args, signal.SIGINT, chunks=0, after=3)
    assert status == 130, err
    assert len(err.strip().splitlines()) == 1 and "run the same command again to resume" in err
