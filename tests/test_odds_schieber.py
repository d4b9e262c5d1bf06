"""cardmc odds schieber: which contract a hand should choose, or push, on the same deals."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import cardmc
from cardmc.cli import main
from cardmc.odds.rounds import ROUND

JACKS_NINES = "JS 9S AS JH 9H JD 9D JC 9C"
CONTRACTS = ["C", "D", "H", "S", "obenabe", "undenufe"]


def test_agrees_with_filtering_an_ordinary_run():
    """The forehand holds the J of hearts and plays hearts: as in simulate rows with the contract fixed
    to hearts, deals after the first (whose forehand holds the 7 of roses) that did not end the match."""
    df = cardmc.simulate("schieber", games=1200, seed=4, policy="heuristic", contract="H", target=20000)
    df = df[(df["deal"] > 0) & (df["match_end"] == 0)]
    deal = df.set_index(["game", "deal", "seat"])
    fore = df[df["seat"] == df["forehand"]]
    fore = fore[fore["trump_jack"] == 1]
    other = deal.loc[list(zip(fore["game"], fore["deal"], (fore["forehand"] + 1) % 4)), "score"].to_numpy()
    own = fore["score"].to_numpy().astype(float)
    assert len(own) > 10_000
    r = cardmc.odds("schieber", "JH", seat=0, games=30_000, seed=9, policy="heuristic")
    h = r["tables"]["choices"].loc["H"]
    for name, x in (("own", own), ("other", other.astype(float)), ("net", own - other)):
        se = x.std(ddof=1) / np.sqrt(len(x))
        assert abs(h[name] - x.mean()) < 3 * np.hypot(h[f"{name}_se"], se), name


def test_assumes_the_learned_player_by_default_and_says_so(capsys):
    """Without --policy the odds assume the learned player, the stronger one, and the output names it."""
    assert main(["odds", "schieber", "--hand", JACKS_NINES, "--games", "300", "--no-progress"]) == 0
    assert "policy learned" in capsys.readouterr().out


def test_jacks_and_nines_score_their_weis_times_the_multiplier():
    r = cardmc.odds("schieber", JACKS_NINES, games=5000, seed=1)
    t = r["tables"]["choices"]
    assert list(t.index) == [*CONTRACTS, "push"]
    hand = r["tables"]["hand"]
    assert (hand["weis"] == 200).all() and "quartet_J" in hand.loc["S", "weis_kinds"]
    assert not hand["stoeck"].any()
    # the four Js (200) always score for the hand's team: every contract's net is clearly positive
    assert (t["net_ci_low"] > 100).all()
    # spades (x2) with J, 9 and A of trumps beats clubs (x1) with J and 9, deal by deal on average
    assert t.loc["S", "net_ci_low"] > t.loc["C", "net_ci_high"] + 150
    best = t["net"].idxmax()
    assert r["best_choice"] == best and t.loc[best, "minus_best"] == 0 and (t["minus_best"] <= 0).all()


def test_sixes_and_sevens_choose_undenufe():
    r = cardmc.odds("schieber", "6C 6D 6H 6S 7C 7D 7H 7S 8C", games=3000, seed=1)
    t = r["tables"]["choices"]
    assert r["best_choice"] == "undenufe"
    assert t.loc["undenufe", "match_ci_low"] > 0.5
    assert (t.drop(index="undenufe")["minus_best_ci_high"] < 0).all()


def test_stoeck_per_contract_and_a_match_hand():
    r = cardmc.odds("schieber", "JS 9S AS KS QS TS 8S 7S 6S", games=2000, seed=1)
    t, hand = r["tables"]["choices"], r["tables"]["hand"]
    assert hand["stoeck"].tolist() == [False, False, False, True, False, False]
    assert t.loc["S", "match"] == 1.0 and t.loc["S", "match_ci_low"] > 0.99
    # every card point, the match bonus, the nine-card run and Stöck, doubled, and the partner's Weis on top
    assert t.loc["S", "own"] > (157 + 100 + 100 + 20) * 2 and t.loc["S", "other"] == 0


def test_pushed_hand_chooses_among_six():
    r = cardmc.odds("schieber", JACKS_NINES, seat=2, pushed=True, games=3000, seed=1)
    assert list(r["tables"]["choices"].index) == CONTRACTS and "after_push" not in r["tables"]
    assert (
        r["best_choice"] == r["tables"]["choices"]["net"].idxmax() and "partner after a push" in r["question"]
    )


def test_push_is_played_by_the_partners_choice():
    r = cardmc.odds("schieber", "6C 7C 8D 6H 7H 8H 6S 7S TD", games=4000, seed=3)
    push = r["tables"]["after_push"]
    assert push["events"].sum() == r["deals"]  # the partner always chooses a contract
    t = r["tables"]["choices"]
    assert t.loc["push", "net"] > t.loc[CONTRACTS, "net"].min()


def test_the_same_whatever_the_thread_count():
    a = cardmc.odds("schieber", JACKS_NINES, games=5000, seed=2, threads=1)
    b = cardmc.odds("schieber", JACKS_NINES, games=5000, seed=2, threads=2)
    for name in a["tables"]:
        pd.testing.assert_frame_equal(a["tables"][name], b["tables"][name])


def test_target_se_stops_at_a_round():
    r = cardmc.odds("schieber", JACKS_NINES, games=2_000_000, seed=2, target_se=3.0)
    assert r["stopped_by"] == "target_se" and r["deals"] % ROUND == 0


def test_command_line(tmp_path, capsys):
    out = tmp_path / "s.csv"
    assert (
        main(
            ["odds", "schieber", "--hand", JACKS_NINES, "--games", "2000", "--no-progress", "--out", str(out)]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "best: " in text and "2,000 deals (stopped by games)" in text
    table = pd.read_csv(out)
    assert {"choices", "hand", "after_push"} == set(table["table"])


@pytest.mark.parametrize(
    "args,named",
    [
        (["--hand", JACKS_NINES + " 6C"], "10 cards"),
        (["--hand", "JS JS"], "'JS'"),
        (["--hand", "JS 2S"], "'2S'"),
        (["--hand", JACKS_NINES, "--seat", "1", "--dealer", "1"], "dealer 1"),
        (["--hand", JACKS_NINES, "--seat", "2", "--pushed", "--dealer", "0"], "dealer 0"),
        (["--hand", JACKS_NINES, "--hand", "2:JS"], "'JS'"),
        (["--hand", JACKS_NINES, "--policy", "clever"], "clever"),
        (["--hand", JACKS_NINES, "--max-seconds", "0"], "max_seconds"),
    ],
)
def test_impossible_input_is_one_line_exit_2_and_no_file(tmp_path, capsys, args, named):
    out = tmp_path / "s.csv"
    code = main(["odds", "schieber", *args, "--games", "100", "--no-progress", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and named in err and len(err.strip().splitlines()) == 1, err
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_output_in_a_missing_folder_is_refused_before_running(tmp_path, capsys):
    code = main(["odds", "schieber", "--hand", JACKS_NINES, "--out", str(tmp_path / "no" / "s.csv")])
    assert code == 2 and "does not exist" in capsys.readouterr().err


def test_rule_options_reach_the_advice():
    """Four 9s count 150 under ``four_nines=150``; with every multiplier 1 a
    trump contract's deal scores are the default ones divided by its multiplier."""
    plain = cardmc.odds("schieber", JACKS_NINES, games=3000, seed=4)
    house = cardmc.odds("schieber", JACKS_NINES, games=3000, seed=4, settings={"four_nines": 150})
    assert plain.tables["hand"].loc["S", "weis"] == 200
    assert house.tables["hand"].loc["S", "weis"] == 350
    flat = cardmc.odds("schieber", JACKS_NINES, games=3000, seed=4, settings={"multipliers": "1,1,1,1,1,1"})
    for contract, multiplier in (("C", 1), ("S", 2), ("undenufe", 4)):
        for side in ("own", "other"):
            assert plain.tables["choices"].loc[contract, side] == pytest.approx(
                multiplier * flat.tables["choices"].loc[contract, side], abs=1e-9
            )
