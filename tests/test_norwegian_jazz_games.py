"""Whole Norwegian Jazz games: traces audited by the reference, dealing,
determinism, rule options, the policies and the analysis functions."""

from __future__ import annotations

import json

import numba
import numpy as np
import pandas as pd
import pytest

from cardmc import norwegian_jazz as A
from cardmc.kernels import norwegian_jazz as K
from cardmc.norwegian_jazz_learned import shipped_weights
from cardmc.registry import UsageError
from tests.helpers import check_trace_form
from tests.reference import dealing
from tests.reference import norwegian_jazz as ref

PLAYERS = [3, 4, 5, 6, 7]


def block(seed, start, count, players, policy="random", **settings):
    params = A.SPEC.params(A.SPEC.settings(settings))
    return A.simulate_block(seed, start, count, players, params, A.parse_policy(policy, players))


def dealt(seed: int, index: int, deal: int, cards: list[str], players: int, dealer: int) -> list[set]:
    """Reference dealing: Fisher-Yates with stream (seed, index, deal, DEAL),
    then one card at a time from the seat after the dealer."""
    cards = list(cards)
    st = dealing.Stream(seed, index, deal, dealing.DEAL)
    for i in range(len(cards) - 1, 0, -1):
        j = st.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    hands: list[set] = [set() for _ in range(players)]
    for j, c in enumerate(cards):
        hands[(dealer + 1 + j) % players].add(c)
    return hands


def ordered_deck(players: int | None) -> list[str]:
    full = dealing.deck(52)
    return full if players is None else [c for c in full if c not in ref.REMOVED_TWOS[players]]


# ------------------------------------------------------------------- traces


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_traces_follow_the_rules_and_the_deal(players, policy):
    seed = 17
    for index in range(100):
        line = A.trace_game(seed, index, players, {}, policy)
        assert ref.audit(line) == []
        assert line["policy"] == policy and line["players"] == players
        dealer = dealing.Stream(seed, index, 0, dealing.SETUP).below(players)
        for k, deal in enumerate(line["deals"]):
            assert deal["dealer"] == dealer  # one dealer for the whole game
            deck = ordered_deck(players if k < 5 else None)
            assert [set(h) for h in deal["hands"]] == dealt(seed, index, k, deck, players, dealer)


@pytest.mark.parametrize(
    "settings",
    [
        {"play_out": True},
        {"first_out_bonus": 80},
        {"rotate_dealer": True},
        {"stop_early": False},
        {"play_out": True, "rotate_dealer": True, "first_out_bonus": 80, "stop_early": False},
    ],
)
def test_traces_under_every_option_follow_the_rules(settings):
    for players in PLAYERS:
        mixed = ",".join(["heuristic"] + ["random"] * (players - 1))
        for index, policy in enumerate(["random", "heuristic", mixed]):
            line = A.trace_game(5, index, players, settings, policy)
            assert ref.audit(line) == []
            rules = {k: v for k, v in A.SPEC.settings(settings).items() if k in A.SPEC.rules}
            assert line["rules"] == rules
            six = line["deals"][5]
            if settings.get("play_out"):
                assert sorted(six["out_order"]) == list(range(1, players + 1))
            if settings.get("rotate_dealer"):
                assert [d["dealer"] for d in line["deals"]] == [
                    (line["deals"][0]["dealer"] + k) % players for k in range(6)
                ]


def test_trace_file_has_the_shared_form(tmp_path):
    path = tmp_path / "nj.jsonl"
    with open(path, "w") as f:
        for players in PLAYERS:
            for index in range(4):
                line = A.trace_game(9, index, players, {"play_out": index % 2 == 1}, "heuristic")
                f.write(json.dumps(line) + "\n")
    assert "20 lines, 0 with form errors" in check_trace_form(path)


def test_audit_catches_broken_traces():
    line = A.trace_game(2, 0, 4, {}, "random")
    assert ref.audit(line) == []
    bad = json.loads(json.dumps(line))
    legal = bad["deals"][0]["plays"][1]["legal"]
    legal.append(sorted(ref.FULL_DECK - set(legal))[0])  # one card too many
    assert any("legal" in e for e in ref.audit(bad))
    bad = json.loads(json.dumps(line))
    bad["deals"][4]["score"][0] -= 20
    assert any("score" in e for e in ref.audit(bad))
    bad = json.loads(json.dumps(line))
    bad["deals"][0]["plays"] = bad["deals"][0]["plays"][:-4]  # deal 1 may not stop early
    assert any("played to the end" in e for e in ref.audit(bad))
    bad = json.loads(json.dumps(line))
    six = bad["deals"][5]
    six["plays"].append({"seat": 0, "legal": [], "card": None})
    assert any("after the deal ended" in e for e in ref.audit(bad))
    bad = json.loads(json.dumps(line))
    bad["rules"]["first_out_bonus"] = 80
    assert any("deal 6: score" in e for e in ref.audit(bad))


def test_trace_rows_match_the_batch_rows():
    for players in (3, 7):
        rows = block(21, 0, 5, players, "heuristic")
        for index in range(5):
            line = A.trace_game(21, index, players, {}, "heuristic")
            g = rows[rows[:, K.C_GAME] == index]
            for k, deal in enumerate(line["deals"]):
                r = g[g[:, K.C_DEAL] == k + 1]
                assert r[:, K.C_SCORE].tolist() == deal["score"]
                assert r[:, K.C_TURNS][0] == len(deal["plays"])
            assert g[g[:, K.C_DEAL] == 6][:, K.C_TOTAL].tolist() == line["totals"]


# ------------------------------------------------- determinism and pairing


def test_game_i_is_the_same_whatever_the_split_and_threads():
    whole = block(33, 10, 600, 5, "random")
    parts = np.concatenate([block(33, 10, 250, 5, "random"), block(33, 260, 350, 5, "random")])
    assert np.array_equal(whole, parts)
    top = numba.config.NUMBA_NUM_THREADS
    try:
        numba.set_num_threads(1)
        one = block(33, 10, 600, 5, "random")
        numba.set_num_threads(min(2, top))
        two = block(33, 10, 600, 5, "random")
    finally:
        numba.set_num_threads(top)
    assert np.array_equal(whole, one) and np.array_equal(one, two)


@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_stopping_early_gives_the_same_games(policy):
    """Deals 2-4 end once their penalty cards are gone: same scores, fewer turns."""
    for players in PLAYERS:
        early = block(44, 0, 400, players, policy, stop_early=True)
        full = block(44, 0, 400, players, policy, stop_early=False)
        same = [c for c in range(len(K.COLUMNS)) if K.COLUMNS[c] not in ("turns", "tricks", "cards_left")]
        assert np.array_equal(early[:, same], full[:, same])
        mid = (early[:, K.C_DEAL] >= 2) & (early[:, K.C_DEAL] <= 4)
        assert np.array_equal(early[~mid], full[~mid])
        assert (early[mid, K.C_TURNS] <= full[mid, K.C_TURNS]).all()
        assert (early[mid, K.C_TURNS] < full[mid, K.C_TURNS]).mean() > 0.3
        assert (full[mid, K.C_CARDS_LEFT] == 0).all()


def test_bonus_and_play_out_replay_the_same_deals():
    for players in (3, 6):
        base = block(8, 0, 500, players, "heuristic")
        b80 = block(8, 0, 500, players, "heuristic", first_out_bonus=80)
        out = block(8, 0, 500, players, "heuristic", play_out=True)
        six = base[:, K.C_DEAL] == 6
        assert np.array_equal(base[~six, : K.C_TOTAL5], b80[~six, : K.C_TOTAL5])
        assert np.array_equal(base[~six, : K.C_TOTAL5], out[~six, : K.C_TOTAL5])
        diff = b80[six, K.C_SCORE] - base[six, K.C_SCORE]
        assert np.array_equal(diff, 70 * base[six, K.C_FIRST_OUT])
        # playing out: the same first player out, and passes only grow
        assert np.array_equal(out[six, K.C_FIRST_OUT], base[six, K.C_FIRST_OUT])
        assert (out[six, K.C_PASSES] >= base[six, K.C_PASSES]).all()
        assert (out[six, K.C_CARDS_LEFT] == 0).all() and (out[six, K.C_OUT_ORDER] >= 1).all()


def test_game_columns_are_consistent():
    df = A.frame(block(3, 0, 2000, 4, "random"))
    assert (df.groupby("game").size() == 24).all()
    last = df[df["deal"] == 6].sort_values(["game", "seat"])
    five = df[df["deal"] <= 5].groupby(["game", "seat"])["score"].sum()
    assert (last.set_index(["game", "seat"])["total5"] == five).all()
    assert (last["total"] == last["total5"] + last["score"]).all()
    best = last.groupby("game")["total"].transform("max")
    assert ((last["total"] == best) == (last["winner"] == 1)).all()
    assert (last.groupby("game")["winner"].transform("sum").gt(1) == (last["shared"] == 1)).all()
    rank = last.groupby("game")["total"].rank(method="min", ascending=False).astype(int)
    assert (rank == last["rank"]).all()
    rank5 = last.groupby("game")["total5"].rank(method="min", ascending=False).astype(int)
    assert (rank5 == last["rank5"]).all()
    assert (df.groupby(["game", "deal"])["first_out"].sum().loc[:, 6] == 1).all()
    sizes = df[df["deal"] == 6].groupby("rel_seat")["cards_dealt"].unique()
    assert sizes.loc[1].tolist() == [13] and sizes.loc[0].tolist() == [13]
    six = df[(df["deal"] == 6)]
    assert (six["cards_dealt"] - six["cards_left"] >= 0).all()
    assert (six.loc[six["first_out"] == 1, "cards_left"] == 0).all()


def test_extra_card_seats_in_sevens():
    df = A.frame(block(3, 0, 50, 5, "random"))
    six = df[df["deal"] == 6]
    got = six.groupby("rel_seat")["cards_dealt"].unique().map(list).to_dict()
    assert got == {0: [10], 1: [11], 2: [11], 3: [10], 4: [10]}  # 52 = 5 * 10 + 2: seats after the dealer


# ----------------------------------------------------------------- policies


@pytest.mark.parametrize("players", PLAYERS)
def test_heuristic_beats_random_on_the_same_deals(players):
    edge = A.heuristic_edge(seed=7, games=300, players=players)
    assert edge.loc["total", "ci_low"] > 2.0  # points per game, paired on the same deals
    assert edge.loc["win", "ci_low"] > 0.0
    assert (edge.loc[[f"deal {d}" for d in range(1, 7)], "estimate"] > 0).all()


# ---------------------------------------------------------- spec and analyses


def test_parse_policy():
    assert A.parse_policy("heuristic", 3).tolist() == [[1], [1], [1]]
    assert A.parse_policy("random, heuristic,random,random", 4)[:, 0].tolist() == [0, 1, 0, 0]
    with pytest.raises(UsageError, match="clever"):
        A.parse_policy("clever", 4)
    with pytest.raises(UsageError, match="names 2 seats"):
        A.parse_policy("random,heuristic", 4)
    with pytest.raises(UsageError, match="8"):
        A.parse_policy("random", 8)


def test_spec_options_and_players():
    spec = A.SPEC
    defaults = {
        "rotate_dealer": False,
        "first_out_bonus": 10,
        "play_out": False,
        "stop_early": True,
        "pimc_samples": 8,
        "pimc_tricks": 5,
        "pimc_sevens_cards": 0,
    }
    assert spec.settings({}) == defaults
    params = spec.params(spec.settings({"first_out_bonus": "80"}))
    assert params[: K.P_WEIGHTS].tolist() == [0, 80, 0, 1, 8, 5, 0]  # then the learned player's weights
    assert params[K.P_WEIGHTS :].tolist() == shipped_weights().tolist()
    with pytest.raises(UsageError, match="bonus_points"):
        spec.settings({"bonus_points": 3})
    with pytest.raises(UsageError, match="2"):
        spec.check_players(2)
    with pytest.raises(UsageError, match="8"):
        A.trace_game(1, 0, 8, {}, "random")
    assert tuple(A.frame(block(1, 0, 3, 3)).columns) == K.COLUMNS


def test_analyze_tables_carry_uncertainty():
    df = pd.concat([A.frame(block(5, 0, 3000, n, "heuristic")) for n in (3, 4)], ignore_index=True)
    tables = A.analyze(df)
    for name, t in tables.items():
        if name in ("games", "deal_score_quantiles"):
            continue
        assert {"estimate", "ci_low", "ci_high", "n"} <= set(t.columns), name
        assert (t["ci_low"] <= t["estimate"]).all() and (t["estimate"] <= t["ci_high"]).all(), name
    assert tables["games"]["games"].tolist() == [3000, 3000]
    cost = tables["deal_score"]["estimate"]
    n4 = cost.loc[4]
    assert n4.loc[1] == pytest.approx(-13 / 4) and n4.loc[2] == pytest.approx(-13 / 4)
    assert n4.loc[3] == pytest.approx(-20 / 4) and n4.loc[4] == pytest.approx(-15 / 4)
    assert n4.loc[5] == pytest.approx(-20 / 4)
    with pytest.raises(UsageError):
        A.analyze(df.drop(columns=["passes"]))


def test_kendall_tau_b():
    a = np.array([[1, 2, 3, 4], [1, 2, 3, 4], [5, 5, 5, 5], [1, 1, 2, 3]])
    b = np.array([[1, 2, 3, 4], [4, 3, 2, 1], [1, 2, 3, 4], [1, 2, 3, 4]])
    tau = A.kendall_tau_b(a, b)
    assert tau[0] == 1 and tau[1] == -1 and np.isnan(tau[2])
    assert tau[3] == pytest.approx(5 / np.sqrt(5 * 6))  # tie-corrected


def test_sixth_deal_study_is_paired():
    out = A.sixth_deal_study(seed=4, games=600, players_list=(3, 5))
    byv = out["by_variant"]
    assert set(byv.index.get_level_values("variant")) == {"default", "bonus80", "play_out"}
    # the study's default run is the same as a plain simulation of those games
    df = A.frame(block(4, 0, 600, 3, "heuristic"))
    plain = A.analyze(df)["sixth_deal_changed"].loc[3, "estimate"]
    assert byv.loc[(3, "default"), "changed"] == pytest.approx(plain)
    paired = out["paired"]
    # an 80-point first-out bonus decides more games than 10 points
    assert paired.loc[(3, "bonus80", "changed"), "ci_low"] > 0
    assert paired.loc[(3, "bonus80", "tau"), "ci_high"] < 0
    assert {"estimate", "se", "ci_low", "ci_high", "n"} <= set(paired.columns)
    with pytest.raises(UsageError, match="games"):
        A.sixth_deal_study(seed=1, games=0)
    with pytest.raises(UsageError):
        A.sixth_deal_study(seed=1, games=10, players_list=(2,))


def test_public_functions_name_bad_input():
    params = A.SPEC.params(A.SPEC.settings({}))
    with pytest.raises(UsageError, match="-1"):
        A.trace_game(-1, 0, 4, {}, "random")
    with pytest.raises(UsageError, match="index"):
        A.trace_game(1, -3, 4, {}, "random")
    with pytest.raises(UsageError, match="count"):
        A.simulate_block(1, 0, 0, 4, params, A.parse_policy("random", 4))
    with pytest.raises(UsageError, match="policies"):
        A.simulate_block(1, 0, 5, 4, params, A.parse_policy("random", 3))
    with pytest.raises(UsageError, match="params"):
        A.simulate_block(1, 0, 5, 4, params[:2], A.parse_policy("random", 4))
    with pytest.raises(UsageError, match="columns"):
        A.frame(np.zeros((3, 4), np.int32))
    with pytest.raises(UsageError, match="shape"):
        A.kendall_tau_b(np.zeros((2, 3)), np.zeros((2, 4)))
    with pytest.raises(UsageError, match="players"):
        A.heuristic_edge(1, 10, 9)
