"""cardmc odds differenzler: what a hand should declare, on the same deals of the unseen cards."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import cardmc
from cardmc.cli import main
from cardmc.kernels.cards import parse
from cardmc.odds.rounds import ROUND

HAND = "JH 9H AH KH AS KS AC 6D 7D"


def test_random_play_best_declaration_is_the_median_of_points_made():
    """Random play does not depend on the declaration, so every candidate sees the same points made
    and E|d - made| is least at the (lower) median; the default search finds it exactly."""
    r = cardmc.odds(
        "differenzler",
        "JH 9H AS KS",
        seat=1,
        dealer=0,
        trump_card="6H",
        games=20_000,
        seed=3,
        policy="random",
    )
    made = r["tables"]["points_made"]
    assert r["best_declaration"] == made.loc["q50", "estimate"]
    # all 158 declarations: each one's penalty is exactly the mean |d - made| of the one distribution made
    full = cardmc.odds(
        "differenzler",
        "JH 9H AS KS",
        seat=1,
        dealer=0,
        trump_card="6H",
        games=20_000,
        seed=3,
        policy="random",
        candidates="0:157:1",
    )
    decl = full["tables"]["declarations"]
    assert list(decl.index) == list(range(158))
    hist = _made_histogram(full)
    v = np.arange(158)
    expected = np.array([(hist * np.abs(d - v)).sum() / hist.sum() for d in range(158)])
    np.testing.assert_allclose(decl["estimate"].to_numpy(), expected, rtol=0, atol=1e-9)
    assert full["best_declaration"] == int(np.argmin(expected)) == r["best_declaration"]


def _made_histogram(result) -> np.ndarray:
    """Points made under the best declaration, from the quantile rows: rebuilt exactly by running the
    kernel for that declaration."""
    from cardmc.differenzler import calibration_table, parse_policy
    from cardmc.kernels import differenzler_odds as k

    fixed = np.zeros(4, np.uint64)
    for c in "JH 9H AS KS".split():
        fixed[1] |= np.uint64(1 << parse(c, 36))
    fixed[0] |= np.uint64(1 << parse("6H", 36))
    made, _ = k.points_made(
        3,
        0,
        result["deals"],
        1,
        0,
        fixed,
        parse("6H", 36),
        np.array([0], np.int64),
        parse_policy("random"),
        calibration_table(),
        np.zeros(2, np.int64),
    )
    return np.bincount(made[:, 0], minlength=158)


def test_agrees_with_filtering_an_ordinary_run():
    """Trump card JH face up, the hand in the seat after the dealer, everything else random: the
    calibrated declaration's penalty and the heuristic's, as in simulate rows with that trump card."""
    games = 60_000
    df = cardmc.simulate("differenzler", games=games, seed=11, policy="calibrated")
    rows = df[(df["trump_card"] == "JH") & (df["rel"] == 1)]
    assert len(rows) > 5000
    r = cardmc.odds(
        "differenzler", seat=1, dealer=0, trump_card="JH", games=40_000, seed=5, policy="calibrated"
    )
    est = r["tables"]["rules"].loc["calibrated"]
    mean = rows["penalty"].mean()
    se = rows["penalty"].std() / np.sqrt(len(rows))
    assert abs(est["estimate"] - mean) < 3 * np.hypot(est["se"], se)
    # and the sample's declarations are the rule's: their mean matches the rows' too
    assert (
        abs(est["declared_mean"] - rows["declared"].mean())
        < 3 * rows["declared"].std() / np.sqrt(len(rows)) + 1
    )


def test_a_hand_without_points_declares_low():
    r = cardmc.odds(
        "differenzler", "6C 7C 8C 6D 7D 8D 6S 7S 8S", seat=0, dealer=3, trump_card="AH", games=5000
    )
    assert r["best_declaration"] <= 10
    decl = r["tables"]["declarations"]
    assert decl.loc[r["best_declaration"], "ci_high"] < decl.loc[40, "ci_low"]
    assert r["tables"]["points_made"].loc["q50", "estimate"] <= 10


def test_a_strong_hand_declares_high_and_rules_are_paired_against_the_best():
    r = cardmc.odds(
        "differenzler", HAND, seat=0, dealer=1, trump_card="8H", games=20_000, seed=1, policy="calibrated"
    )
    assert 110 <= r["best_declaration"] <= 157
    rules = r["tables"]["rules"]
    assert (rules["minus_best"] >= 0).all()  # the best is best on these deals
    decl = r["tables"]["declarations"]
    assert decl.loc[r["best_declaration"], "minus_best"] == 0
    # every 5 points, and every whole number near the best
    assert set(range(0, 156, 5)) <= set(decl.index)
    b = r["best_declaration"]
    assert {max(b - 1, 0), min(b + 1, 157)} <= set(decl.index)
    assert decl["estimate"].min() == decl.loc[b, "estimate"]


def test_the_same_whatever_the_thread_count():
    a = cardmc.odds("differenzler", HAND, seat=0, dealer=1, trump_card="8H", games=5000, seed=2, threads=1)
    b = cardmc.odds("differenzler", HAND, seat=0, dealer=1, trump_card="8H", games=5000, seed=2, threads=2)
    for name in a["tables"]:
        pd.testing.assert_frame_equal(a["tables"][name], b["tables"][name])


def test_target_se_and_max_seconds_stop_at_a_round_and_say_so():
    r = cardmc.odds(
        "differenzler", HAND, seat=0, dealer=1, trump_card="8H", games=1_000_000, seed=2, target_se=0.5
    )
    assert r["stopped_by"] == "target_se" and r["deals"] % ROUND == 0 and r["deals"] < 1_000_000
    again = cardmc.odds("differenzler", HAND, seat=0, dealer=1, trump_card="8H", games=r["deals"], seed=2)
    pd.testing.assert_frame_equal(r["tables"]["declarations"], again["tables"]["declarations"])
    t = cardmc.odds(
        "differenzler", HAND, seat=0, dealer=1, trump_card="8H", games=1_000_000, max_seconds=1e-9
    )
    assert t["stopped_by"] == "max_seconds" and t["deals"] == ROUND


def test_command_line_writes_one_csv(tmp_path, capsys):
    out = tmp_path / "d.csv"
    code = main(
        [
            "odds",
            "differenzler",
            "--hand",
            HAND,
            "--seat",
            "0",
            "--dealer",
            "1",
            "--trump-card",
            "8H",
            "--games",
            "2000",
            "--no-progress",
            "--set",
            "open_declarations=true",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    text = capsys.readouterr().out
    assert "best: declare" in text and "heuristic declares" in text
    table = pd.read_csv(out)
    assert {"declarations", "best", "rules", "points_made"} == set(table["table"])
    assert {"estimate", "se", "ci_low", "ci_high", "n"} <= set(table.columns)


@pytest.mark.parametrize(
    "args,named",
    [
        (
            ["--hand", HAND, "--seat", "0", "--dealer", "1", "--trump-card", "AH"],
            "AH",
        ),  # in the hand, not the dealer's
        (
            ["--hand", HAND, "--seat", "1", "--dealer", "1", "--trump-card", "8H"],
            "8H",
        ),  # dealer's nine lack it
        (["--hand", HAND + " 6C", "--seat", "0"], "10 cards"),
        (["--hand", "JH JH", "--seat", "0"], "'JH'"),
        (["--hand", "JH 2H", "--seat", "0"], "'2H'"),
        (["--hand", HAND, "--seat", "4"], "4"),
        (["--hand", HAND, "--trump-card", "AH 8H"], "trump card"),
        (["--hand", HAND, "--candidates", "0:200:5"], "candidates"),
        (["--hand", HAND, "--hand", "1:AH"], "'AH'"),
        (["--hand", HAND, "--set", "no_such=1"], "no_such"),
        (["--hand", HAND, "--target-se", "-1"], "target_se"),
    ],
)
def test_impossible_input_is_one_line_exit_2_and_no_file(tmp_path, capsys, args, named):
    out = tmp_path / "d.csv"
    code = main(["odds", "differenzler", *args, "--games", "100", "--no-progress", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and named in err and len(err.strip().splitlines()) == 1, err
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_assumes_the_learned_player_by_default_and_prices_its_declaration():
    """Without a policy the odds assume the learned player (the stronger one) and say so, and the rules
    table prices the learned player's own declaration beside the heuristic's and the calibrated one."""
    r = cardmc.odds("differenzler", HAND, seat=0, dealer=1, trump_card="8H", games=2000, seed=1)
    assert "policy learned" in r["question"]
    assert list(r["tables"]["rules"].index) == ["heuristic", "calibrated", "learned"]
