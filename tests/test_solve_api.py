"""cardmc.solve: hand-checked positions and one-line UsageErrors for positions that cannot occur."""

from __future__ import annotations

import pytest

from cardmc.bench_search import bench_solver, solver_summary
from cardmc.registry import UsageError
from cardmc.solve import solve

FOUR = ["JS 9S", "AS 6H", "KS 7H", "QS 8H"]


def test_schieber_two_tricks_by_hand():
    # spades trump: seat 0 draws AS, KS, QS with the J (38), then wins 9S, 6H, 7H, 8H (14 + 5)
    s = solve("schieber", hands=FOUR, to_play=0, contract="S", taken=[3, 2, 1, 1], points=[10, 20, 30, 40])
    assert s.value == {"team0": 10 + 30 + 57, "team1": 20 + 40}
    assert s.cards.to_dict() == {"team0": {"9S": 97, "JS": 97}, "team1": {"9S": 60, "JS": 60}}


def test_cardmc_solve_is_the_function_too():
    import cardmc
    import cardmc.solve as module

    assert cardmc.solve is module and "solve" in cardmc.__all__
    s = cardmc.solve(
        "schieber", hands=FOUR, to_play=0, contract="S", taken=[3, 2, 1, 1], points=[10, 20, 30, 40]
    )
    assert (
        s.value
        == solve(
            "schieber", hands=FOUR, to_play=0, contract="S", taken=[3, 2, 1, 1], points=[10, 20, 30, 40]
        ).value
    )


def test_schieber_match_bonus():
    s = solve("schieber", hands=FOUR, to_play=0, contract="S", taken=[7, 0, 0, 0], points=[100, 0, 20, 0])
    assert s.value == {"team0": 120 + 57 + 100, "team1": 0}


def test_english_jazz_trump_set_by_play():
    # seat 1's AS wins the spade lead; on its 6H lead seat 0 is void and its spade sets trump and wins
    s = solve("english_jazz", hands=["JS 9S", "AS 6H", "KS 7H"], to_play=0, taken=[10, 0, 0], seat=0)
    assert s.value == {"most_tricks": 11, "all_tricks": 0}
    s = solve(
        "english_jazz", hands=["JS 9S", "AS 6H", "KS 7H"], to_play=0, taken=[10, 0, 0], seat=0, contract="S"
    )
    assert s.value == {"most_tricks": 12, "all_tricks": 1}


def test_differenzler_objectives():
    s = solve(
        "differenzler",
        hands=FOUR,
        to_play=0,
        contract="S",
        taken=[3, 2, 1, 1],
        points=[10, 20, 30, 40],
        seat=1,
        declared=40,
    )
    assert s.value == {"sure_at_least": 20, "sure_at_most": 20, "least_penalty": 20}


@pytest.mark.parametrize(
    "kwargs, words",
    [
        (dict(game="skat", hands=FOUR, to_play=0), "unknown game"),
        (dict(game="schieber", hands=FOUR, to_play=0, contract="X"), "unknown Schieber contract"),
        (
            dict(game="differenzler", hands=FOUR, to_play=0, contract="obenabe", seat=0),
            "unknown Differenzler trump",
        ),
        (
            dict(game="schieber", hands=["JS 9S", "JS 6H", "KS 7H", "QS 8H"], to_play=0, contract="S"),
            "JS appears twice",
        ),
        (
            dict(
                game="schieber",
                hands=["JS 9S", "AS 6H", "KS 7H", "QS 8H"],
                trick=["JS"],
                to_play=1,
                contract="S",
            ),
            "JS appears twice",
        ),
        (
            dict(game="schieber", hands=["JS 9S", "AS 6H 7C", "KS 7H", "QS 8H"], to_play=0, contract="S"),
            "seat 1 holds 3 cards",
        ),
        (
            dict(
                game="schieber",
                hands=["JS", "AS 6H", "KS 7H", "QS 8H"],
                trick=["9S"],
                to_play=0,
                contract="S",
            ),
            "seat 1 holds 2 cards",
        ),
        (
            dict(
                game="schieber",
                hands=["JS", "AS 6H", "KS 7H", "QS 8H"],
                trick=["9S"],
                to_play=1,
                contract="S",
                taken=[2, 2, 2, 1],
            ),
            None,
        ),
        (
            dict(
                game="schieber",
                hands=["JS 9S", "6H 7C", "KS 7H", "QS 8H"],
                trick=["AH"],
                to_play=2,
                contract="S",
                taken=[2, 2, 2, 1],
            ),
            "seat 1 holds 2 cards",
        ),
        (
            dict(
                game="schieber",
                hands=["JS 9S", "6H", "7H", "QS 8H"],
                trick=["AH", "7C"],
                to_play=3,
                contract="S",
                taken=[2, 2, 2, 1],
            ),
            "trick card 7C was not legal for seat 2",
        ),
        (
            dict(
                game="schieber",
                hands=["JS 9S", "6H", "7C", "QS 8H"],
                trick=["AH", "7H"],
                to_play=3,
                contract="S",
                taken=[2, 2, 2, 1],
            ),
            None,
        ),
        (
            dict(game="schieber", hands=["JS 9S", "AS 6H", "KS 7H", "QS 8H"], to_play=0, contract="S"),
            "taken=",
        ),
        (
            dict(
                game="schieber",
                hands=["JS 9S", "AS 6H", "KS 7H", "QS 8H"],
                to_play=0,
                contract="S",
                taken=[1, 1, 1, 1],
            ),
            "taken adds up to 4",
        ),
        (
            dict(game="schieber", hands=["JS 9S", "AS 6H", "KS 7H", "QS 8X"], to_play=0, contract="S"),
            "unknown card",
        ),
        (dict(game="english_jazz", hands=["JS 9S", "AS 6H", "KS 7H"], to_play=0, taken=[10, 0, 0]), "seat="),
        (
            dict(
                game="norwegian_jazz",
                hands=["JS 9S", "AS 6H", "KS 7H"],
                to_play=0,
                taken=[15, 0, 0],
                seat=0,
                contract=7,
            ),
            "unknown Norwegian Jazz deal",
        ),
        (dict(game="schieber", hands=FOUR, to_play=4, contract="S"), "to_play"),
    ],
)
def test_impossible_positions_raise_one_line(kwargs, words):
    if words is None:  # the same position made legal: no error
        solve(**kwargs)
        return
    with pytest.raises(UsageError) as exc:
        solve(**kwargs)
    assert words in str(exc.value) and "\n" not in str(exc.value)


def test_bench_solver_runs():
    df = bench_solver("schieber", positions=3, seed=1, tricks_left=3)
    assert len(df) == 3 and (df["nodes"] > 0).all()
    assert solver_summary(df)["positions"] == 3


def test_command_line_function_prints_the_table(capsys):
    import argparse

    from cardmc.cli_solve import solve_arguments, solve_command

    parser = argparse.ArgumentParser()
    solve_arguments(parser)
    args = parser.parse_args(
        [
            "schieber",
            "--hands",
            "JS 9S",
            "AS 6H",
            "KS 7H",
            "QS 8H",
            "--to-play",
            "0",
            "--contract",
            "S",
            "--taken",
            "3,2,1,1",
            "--points",
            "10,20,30,40",
        ]
    )
    assert solve_command(args) == 0
    out = capsys.readouterr().out
    assert "team0=97" in out and "JS" in out
    args = parser.parse_args(
        [
            "schieber",
            "--hands",
            "JS 9S",
            "AS 6H",
            "KS 7H",
            "QS 8H",
            "--to-play",
            "0",
            "--contract",
            "S",
            "--taken",
            "3,x",
        ]
    )
    with pytest.raises(UsageError, match="--taken"):
        solve_command(args)


def test_bench_command_prints_median_p99_and_rate(capsys):
    from cardmc.cli_solve import solver_bench_main

    assert solver_bench_main(["english_jazz", "--positions", "3", "--tricks-left", "2"]) == 0
    out = capsys.readouterr().out
    assert "3 positions" in out and "median" in out and "p99" in out and "positions/s" in out


def test_the_move_list_holds_every_card_of_the_largest_hand():
    """A hand's legal cards all fit the solver's move list (17 cards in a
    3-player Norwegian Jazz deal, no two of them alike)."""
    from cardmc import registry
    from cardmc.kernels import solve_search as S

    specs = [registry.get(game) for game in registry.GAMES]
    assert S.MAX_MOVES >= max(spec.solver.hand_size(n) for spec in specs for n in spec.players)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["schieber", "--contract", "0"], "unknown Schieber contract '0'"),
        (["norwegian_jazz", "--players", "9"], "3 to 7 players, not 9"),
        (["english_jazz", "--tricks-left", "20"], "tricks_left must be 1..12"),
        (["schieber", "--positions", "0"], "positions must be at least 1, not 0"),
    ],
)
def test_solver_benchmark_refuses_bad_input_in_one_line(argv, message, capsys):
    from cardmc.cli_solve import solver_bench_main

    with pytest.raises(SystemExit) as stop:
        solver_bench_main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert message in err[-1] and "Traceback" not in "".join(err)


def test_table_fields_share_one_entry_without_overlapping():
    """The table's five fields are views of one array of 16-byte entries:
    writing one field of an entry leaves the other fields, and the
    neighbouring entries, as they were."""
    import numpy as np

    from cardmc.kernels import solve_search as S

    keys, lows, highs, bests, ages = S.new_table(1024)
    assert all(a.size == 1024 and a.strides == (16,) for a in (keys, lows, highs, bests, ages))
    keys[5] = np.uint64(2**64 - 1)
    lows[5], highs[5], bests[5], ages[5] = -32000, 32000, -1, 0x7FF
    assert keys[5] == np.uint64(2**64 - 1) and lows[5] == -32000 and highs[5] == 32000
    assert bests[5] == -1 and ages[5] == 0x7FF
    for a in (keys, lows, highs, bests, ages):
        assert a[4] == 0 and a[6] == 0


def test_a_solve_does_not_depend_on_the_solves_before():
    """Same position, same nodes and values, whatever was solved in between
    (the killer leads are cleared at each solve)."""
    first = bench_solver("schieber", positions=2, seed=5, tricks_left=5, contract="S")
    bench_solver("schieber", positions=3, seed=6, tricks_left=6, contract="H")
    again = bench_solver("schieber", positions=2, seed=5, tricks_left=5, contract="S")
    assert first["value"].tolist() == again["value"].tolist()
    assert first["nodes"].tolist() == again["nodes"].tolist()


def test_the_command_line_s_table_size_is_the_api_s_default():
    from cardmc import cli
    from cardmc.solve import DEFAULT_TT_MIB

    args = cli.build_parser().parse_args(
        ["solve", "schieber", "--hands", "6S", "7S", "8S", "9S", "--to-play", "0"]
    )
    assert args.tt_mib == DEFAULT_TT_MIB
