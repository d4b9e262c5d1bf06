"""Conditional dealing in every game: the other cards are uniform given the
condition, a conditioned run estimates what filtering a plain run to the
deals that meet the condition estimates, bad conditions are refused, and
conditioned rows do not depend on threads or blocks.

The hands are read from the kernels' own trace events (``play_game`` with
the run's condition array), so the checks see the games' actual dealing.
"""

from __future__ import annotations

import pickle

import numba
import numpy as np
import pytest
from scipy import stats as sps

from cardmc import condition as conditions
from cardmc import registry
from cardmc.kernels import cards
from cardmc.kernels.events import EV_DEAL, EV_HAND
from cardmc.registry import UsageError

N_LIMIT = 1e-6  # a p-value below this (after Bonferroni) fails: a real error gives far less


def kernel_game(game: str, players: int, params, policies, cond):
    """A function (seed, index) -> (rows, events) of one game, by the game's kernel."""
    from cardmc.kernels import differenzler, english_jazz, norwegian_jazz, schieber

    if game == "schieber":
        from cardmc.schieber import max_events

        nrows, nev = schieber.max_rows(players, params), max_events(params)

        def one(seed, index):
            rows = np.zeros((nrows, len(schieber.COLUMNS)), np.int32)
            events = np.zeros((nev, 4), np.int64)
            nr, ne = schieber.play_game(seed, index, players, params, policies, rows, events, cond)
            return rows[:nr], events[:ne]
    elif game == "differenzler":
        from cardmc.differenzler import calibration_table

        table = calibration_table()

        def one(seed, index):
            rows = np.zeros((differenzler.max_rows(players, params), len(differenzler.COLUMNS)), np.int32)
            events = np.zeros((differenzler.max_events(params), 4), np.int64)
            nr, ne = differenzler.play_game(
                seed, index, players, params, policies, table, rows, events, differenzler.new_scratch(), cond
            )
            return rows[:nr], events[:ne]
    elif game == "english_jazz":

        def one(seed, index):
            rows = np.zeros((english_jazz.ROWS_PER_GAME, len(english_jazz.COLUMNS)), np.int32)
            events = np.zeros((english_jazz.MAX_EVENTS, 4), np.int64)
            nr, ne = english_jazz.play_game(seed, index, players, params, policies, rows, events, cond)
            return rows[:nr], events[:ne]
    else:

        def one(seed, index):
            return norwegian_jazz.trace_game(seed, index, players, params, policies, cond)

    return one


def played(game: str, seed: int, games: int, players: int, condition, policy: str = "random", **settings):
    """(hands (deals, players) uint64, (game, deal number 0-based, dealer, leader) per deal, rows) of games
    0..games-1."""
    spec = registry.get(game)
    params = spec.params(spec.settings(settings))
    policies = spec.parse_policy(policy, players)
    one = kernel_game(game, players, params, policies, None if condition is None else condition.array())
    hands, deals, rows = [], [], []
    for i in range(games):
        r, ev = one(seed, i)
        rows.append(r)
        at = np.flatnonzero(ev[:, 0] == EV_DEAL)
        for j in at:
            h = ev[j + 1 : j + 1 + players]
            assert (h[:, 0] == EV_HAND).all()
            hands.append(h[:, 2].astype(np.uint64))
            deals.append((i, int(ev[j, 1]), int(ev[j, 2]), int(ev[j, 3])))
    return np.array(hands), np.array(deals), np.concatenate(rows)


def has(hands: np.ndarray, card: int) -> np.ndarray:
    return (hands >> np.uint64(card)) & np.uint64(1) == 1


def check_uniform(hands: np.ndarray, fixed: np.ndarray) -> None:
    """Each free card lands in seat s with probability (free places of s) /
    (free cards), deal by deal; pairs of free cards share seats as they should.
    ``fixed[d, s]`` is the mask seat s was given in deal d."""
    players = hands.shape[1]
    assert ((hands & fixed) == fixed).all(), "a given card is missing from its seat"
    size = np.array([[bin(int(m)).count("1") for m in row] for row in hands])
    places = size - np.array([[bin(int(m)).count("1") for m in row] for row in fixed])
    total = places.sum(axis=1, keepdims=True)
    prob = places / total  # per deal and seat
    all_fixed = np.bitwise_or.reduce(fixed, axis=1)
    free_cards = [
        c
        for c in cards.cards_of(int(np.bitwise_or.reduce(hands.ravel())))
        if not (all_fixed >> np.uint64(c) & np.uint64(1)).any()
    ]
    pvals = []
    for c in free_cards:
        held = np.stack([has(hands[:, s], c) for s in range(players)], axis=1)
        assert (held.sum(axis=1) == 1).all()
        observed, expected = held.sum(axis=0), prob.sum(axis=0)
        assert (observed[expected == 0] == 0).all(), "a free card went to a full seat"
        pvals.append(sps.chisquare(observed[expected > 0], expected[expected > 0]).pvalue)
    assert min(pvals) * len(pvals) > N_LIMIT, f"a free card is not uniform (p={min(pvals):.2g})"
    # pairs: P(c1 in s, c2 in t) = places_s (places_t - [s == t]) / (F (F - 1))
    pair_p = []
    for a, b in zip(free_cards[:8], free_cards[8:16]):
        sa = np.argmax(np.stack([has(hands[:, s], a) for s in range(players)], axis=1), axis=1)
        sb = np.argmax(np.stack([has(hands[:, s], b) for s in range(players)], axis=1), axis=1)
        observed = np.bincount(sa * players + sb, minlength=players * players)
        joint = (
            places[:, :, None]
            * (places[:, None, :] - np.eye(players, dtype=int)[None])
            / (total * (total - 1))[:, :, None]
        )
        expected = joint.sum(axis=0).ravel()
        assert (observed[expected == 0] == 0).all()
        pair_p.append(sps.chisquare(observed[expected > 0], expected[expected > 0]).pvalue)
    assert min(pair_p) * len(pair_p) > N_LIMIT, (
        f"a pair of free cards is not dealt uniformly (p={min(pair_p):.2g})"
    )


CASES = [  # game, players, condition keywords, games to play
    ("schieber", 4, {"hands": {0: "AS KS", 2: "7H"}}, 300),
    ("schieber", 4, {"hands": {1: "6D 7D 8D 9D TD JD QD KD AD"}}, 300),
    ("differenzler", 4, {"hands": {1: "JS 9S AS"}, "trump_card": "6H"}, 700),
    ("differenzler", 4, {"hands": {2: "JS 9S AS 6C"}}, 700),
    ("english_jazz", 3, {"hands": {0: "AS", 1: "JC 9C QD"}}, 250),
    ("norwegian_jazz", 5, {"hands": {0: "7H 7S", 3: "2C"}, "deal": 6}, 2500),
    ("norwegian_jazz", 3, {"hands": {1: "AS KS QS JS TS"}, "deal": 2}, 2500),
]


@pytest.mark.parametrize("game,players,kw,games", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_other_cards_are_uniform_given_the_condition(game, players, kw, games):
    cond = conditions.make(game, players, **kw)
    hands, deals, rows = played(game, 11, games, players, cond)
    fixed = np.tile(np.array(cond.hands, np.uint64), (len(hands), 1))
    if cond.trump_card >= 0:
        fixed[np.arange(len(hands)), deals[:, 2]] |= np.uint64(1 << cond.trump_card)
    if game == "norwegian_jazz":
        mine = deals[:, 1] == cond.deal - 1
        plain, plain_deals, _ = played(game, 11, games, players, None)
        # the other five deals are the plain run's deals, card for card
        assert (plain[~mine] == hands[~mine]).all() and (plain_deals == deals).all()
        assert not (plain[mine] == hands[mine]).all()
        sizes = np.vectorize(lambda m: bin(int(m)).count("1"))
        assert (sizes(plain[mine]) == sizes(hands[mine])).all(), (
            "a seat holds as many cards as in a plain deal"
        )
        hands, fixed = hands[mine], fixed[mine]
    else:
        assert all(bin(int(m)).count("1") == registry.get(game).deck // players for m in hands.ravel())
    check_uniform(hands, fixed)
    if game == "schieber":  # the holder of 7H, given or dealt, leads the first deal of each match
        first = deals[:, 1] == 0
        assert (deals[first, 3] == np.argmax(has(hands[first], cards.parse("7H")), axis=1)).all()
    if game == "differenzler":
        from cardmc.kernels import differenzler as dk

        face = rows[:, dk.C_TRUMP_CARD][rows[:, dk.C_SEAT] == 0]
        dealer_hand = hands[np.arange(len(hands)), deals[:, 2]]
        assert all((int(h) >> int(c)) & 1 for h, c in zip(dealer_hand, face)), (
            "the face-up card is the dealer's"
        )
        if cond.trump_card >= 0:
            assert (face == cond.trump_card).all()
        else:  # a given card of the dealer shows as trump once in 9 of its deals
            aces = face[deals[:, 2] == 2] == cards.parse("AS")
            n, x = len(aces), int(aces.sum())
            assert sps.binomtest(x, n, 1 / 9).pvalue > N_LIMIT


FILTER = [  # game, players, condition, deal measured (0-based; None: every deal), measures of seat 0's rows
    ("schieber", 4, {"hands": {0: "AS"}}, 0, ("aces", "card_points", "tricks")),
    ("differenzler", 4, {"hands": {0: "AS"}}, None, ("made", "declared")),
    ("english_jazz", 3, {"hands": {0: "AS"}}, None, ("card_points", "tricks")),
    ("norwegian_jazz", 4, {"hands": {0: "AS"}, "deal": 1}, 0, ("score",)),
]


@pytest.mark.parametrize("game,players,kw,deal,measures", FILTER, ids=[f[0] for f in FILTER])
def test_a_conditioned_run_matches_a_filtered_plain_run(game, players, kw, deal, measures):
    """Seat 0 holds AS: seat 0's mean measures in the conditioned deals equal
    those of the plain run's deals where seat 0 was dealt AS (two-sample z);
    the first measure is one the condition changes, so a deal that ignored
    the condition would fail."""
    k = __import__(f"cardmc.kernels.{game}", fromlist=["COLUMNS"])
    c_seat, c_deal = k.COLUMNS.index("seat"), k.COLUMNS.index("deal")
    games = {"schieber": 1500, "differenzler": 500, "english_jazz": 150, "norwegian_jazz": 1500}[game]
    cond = conditions.make(game, players, **kw)

    def seat0(rows, col):
        r = rows[rows[:, c_seat] == 0]
        if game == "norwegian_jazz":  # rows: deals 1..6
            r = r[r[:, c_deal] == 1]
        elif deal is not None:
            r = r[r[:, c_deal] == deal]
        return r[:, col].astype(float)

    def chosen(deals):
        return deals[:, 1] == (0 if deal is not None else deals[:, 1])

    short = {"target": 1500} if game == "schieber" else {}  # deal 0 is all that is measured
    hands_c, deals_c, rows_c = played(game, 5, games, players, cond, "heuristic", **short)
    hands_p, deals_p, rows_p = played(game, 6, 4 * games, players, None, "heuristic", **short)
    keep = has(hands_p[chosen(deals_p), 0], cards.parse("AS"))
    for i, measure in enumerate(measures):
        col = k.COLUMNS.index(measure)
        x, y_all = seat0(rows_c, col), seat0(rows_p, col)
        assert len(y_all) == len(keep)
        y = y_all[keep]
        z = (x.mean() - y.mean()) / np.sqrt(x.var(ddof=1) / len(x) + y.var(ddof=1) / len(y))
        assert abs(z) < 4.5, (
            f"{game} {measure}: conditioned {x.mean():.3f} vs filtered {y.mean():.3f} (z={z:.1f})"
        )
        if i == 0:  # the condition matters: the unfiltered mean is far off
            z_all = (x.mean() - y_all.mean()) / np.sqrt(
                x.var(ddof=1) / len(x) + y_all.var(ddof=1) / len(y_all)
            )
            assert abs(z_all) > 5, f"{game} {measure}: the condition should change it (z={z_all:.1f})"


@pytest.mark.parametrize(
    "game,players,kw", [c[:3] for c in CASES], ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)]
)
def test_conditioned_rows_do_not_depend_on_threads_or_blocks(game, players, kw):
    spec = registry.get(game)
    params = spec.params(spec.settings({}))
    policies = spec.parse_policy(spec.default_policy, players)
    cond = conditions.make(game, players, **kw).array()
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = spec.simulate_block(3, 10, 90, players, params, policies, condition=cond)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        parts = [
            spec.simulate_block(3, a, b - a, players, params, policies, condition=cond)
            for a, b in ((10, 17), (17, 61), (61, 100))
        ]
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one, np.concatenate(parts))
    plain = spec.simulate_block(3, 10, 90, players, params, policies)
    assert not np.array_equal(one, plain)


def test_a_condition_is_small_plain_and_none_when_empty():
    cond = conditions.make("differenzler", None, {1: "JS 9S AS"}, trump_card="7H")
    assert pickle.loads(pickle.dumps(cond)) == cond
    assert cond.text == "hand 1: 9S JS AS; trump card 7H"
    assert cond.array().tolist() == [
        cards.parse("7H"),
        0,
        0,
        cards.mask_of(map(cards.parse, ["JS", "9S", "AS"])),
        0,
        0,
    ]
    assert conditions.make("schieber", 4) is None
    assert conditions.make("schieber", 4, hands=["0:"]) is None
    assert conditions.make("norwegian_jazz", 4, hands={2: "2C"}, deal="6").record() == {
        "hands": [[], [], ["2C"], []],
        "deal": 6,
    }


BAD = [
    ("schieber", ["--hand", "0:AS", "--hand", "1:AS"], "given to seat 0 and to seat 1"),
    ("schieber", ["--hand", "0:2C"], "'2C' is not in the 36-card deck"),
    ("schieber", ["--hand", "4:AS"], "seat '4'"),
    (
        "english_jazz",
        ["--hand", "0:" + " ".join(cards.codes_of(cards.FULL36)[:13])],
        "given 13 cards, but holds 12",
    ),
    ("schieber", ["--trump-card", "7H"], "shows no trump card"),
    ("schieber", ["--deal", "2", "--hand", "0:AS"], "only norwegian_jazz"),
    ("differenzler", ["--trump-card", "7H", "--hand", "2:7H"], "give it only as the trump card"),
    ("differenzler", ["--trump-card", "7H", "--hand", "2:6C 7C 8C 9C TC JC QC KC AC"], "could not take"),
    ("differenzler", ["--trump-card", "7H 8H"], "must be one card"),
    ("norwegian_jazz", ["--hand", "0:AS"], "needs the deal"),
    ("norwegian_jazz", ["--deal", "7", "--hand", "0:AS"], "not a deal number"),
    ("norwegian_jazz", ["--deal", "3"], "without a hand condition"),
    ("norwegian_jazz", ["--players", "3", "--deal", "1", "--hand", "0:2D"], "not in deal 1's deck"),
    (
        "norwegian_jazz",
        ["--players", "5", "--deal", "6", "--hand", "0:" + " ".join(cards.codes_of(cards.FULL52)[:11])],
        "holds 10 or one more",
    ),
]


@pytest.mark.parametrize("command", ["simulate", "trace"])
@pytest.mark.parametrize("game,args,message", BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)])
def test_an_impossible_condition_exits_2_and_writes_nothing(tmp_path, capsys, command, game, args, message):
    from cardmc import cli

    out = tmp_path / ("out.parquet" if command == "simulate" else "out.jsonl")
    assert cli.main([command, game, "--games", "3", "--out", str(out), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err
    assert list(tmp_path.iterdir()) == []


def test_api_keywords_metadata_and_trace(tmp_path):
    import cardmc
    from tests.helpers import check_trace_form

    df = cardmc.simulate("english_jazz", 20, seed=2, hands={1: "JS 9S AS"})
    assert df.attrs["condition"] == "hand 1: 9S JS AS"
    assert "condition" not in cardmc.simulate("english_jazz", 5, seed=2).attrs
    path = cardmc.trace(
        "differenzler", 3, seed=2, hands={1: "JS 9S"}, trump_card="6S", out=tmp_path / "t.jsonl"
    )
    import json

    for line in map(json.loads, path.read_text().splitlines()):
        assert line["condition"] == {"hands": [[], ["9S", "JS"], [], []], "trump_card": "6S"}
        for d in line["deals"]:
            assert d["trump_card"] == "6S" and "6S" in d["hands"][d["dealer"]]
            assert {"9S", "JS"} <= set(d["hands"][1])
    with pytest.raises(UsageError, match="not in the 36-card deck"):
        cardmc.simulate("schieber", 5, hands={0: "2C"})
    check_trace_form(path)  # last: it skips where the shared checker is missing


def test_a_run_folder_resumes_only_under_its_condition(tmp_path):
    import cardmc

    folder = tmp_path / "run"
    cardmc.simulate("english_jazz", 40, seed=1, out=folder, chunk_games=20, hands={0: "AS"})
    again = cardmc.simulate("english_jazz", 40, seed=1, out=folder, chunk_games=20, hands={0: "AS"})
    assert again == folder
    with pytest.raises(UsageError, match="condition"):
        cardmc.simulate("english_jazz", 40, seed=1, out=folder, chunk_games=20)
    with pytest.raises(UsageError, match="condition"):
        cardmc.simulate("english_jazz", 40, seed=1, out=folder, chunk_games=20, hands={0: "KS"})


def test_bench_times_a_conditioned_deal_against_a_plain_one(capsys):
    from cardmc import cli

    assert (
        cli.main(
            ["bench", "norwegian_jazz", "--players", "5", "--hand", "0:AS", "--deal", "6", "--repeat", "1"]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "ns plain" in out and "under hand 0: AS; deal 6" in out


@pytest.mark.parametrize(
    "game,players", [("differenzler", 4), ("english_jazz", 3), ("schieber", 4), ("norwegian_jazz", 5)]
)
def test_the_plain_condition_array_deals_as_no_condition(game, players):
    """Plain runs hand the kernels ``PLAIN`` (one compiled version for plain and
    conditioned runs): the rows are those of no condition at all."""
    from cardmc.kernels import condition as kc

    spec = registry.get(game)
    params, codes = spec.params(spec.settings({})), spec.parse_policy(spec.default_policy, players)
    plain = spec.simulate_block(9, 100, 300, players, params, codes, condition=kc.PLAIN)
    module = __import__(f"cardmc.kernels.{game}", fromlist=["simulate"])
    if game == "differenzler":
        from cardmc.differenzler import calibration_table

        rows, spans = module.simulate(9, 100, 300, players, params, codes, calibration_table(), None)
        none = registry.join_spans(rows, spans)
    elif game == "schieber":
        rows, spans = module.simulate(9, 100, 300, players, params, codes, numba.get_num_threads(), None)
        none = registry.join_spans(rows, spans)
    else:
        rows, nrows = module.simulate(9, 100, 300, players, params, codes, None)
        none = registry.compact(rows, nrows, module.max_rows(players, params))
    assert len(plain) and np.array_equal(plain, none)
