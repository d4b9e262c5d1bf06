"""The search player ``pimc`` (``cardmc.pimc``), Schieber and Differenzler:
its samples keep every earlier play legal under the plain-Python rules, it
plays the solver's best card when it sees every hand, its games are
reproducible and audit clean, and it is refused where it cannot play."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import cardmc
from cardmc import cli, pimc
from cardmc.cli_solve import pimc_bench_main
from cardmc.kernels import cards as C
from cardmc.kernels import schieber as k
from cardmc.kernels.events import EV_DEAL, EV_HAND, EV_PLAY
from cardmc.registry import UsageError
from cardmc.schieber import SPEC, max_events, parse_policy
from tests.helpers import assert_plays_legal, decide_seeing_all
from tests.reference import differenzler as dref
from tests.reference import schieber as ref

PIMC_TEAM = "pimc,heuristic,pimc,heuristic"


def _events(seed: int, index: int, target: int = 1000) -> np.ndarray:
    params = SPEC.params(SPEC.settings({"target": target}))
    rows = np.zeros((k.max_rows(4, params), k.NCOL), np.int32)
    events = np.zeros((max_events(params), 4), np.int64)
    _, nev = k.play_game(seed, index, 4, params, parse_policy("heuristic"), rows, events)
    return events[:nev]


def _cuts(ev: np.ndarray, rng: np.random.Generator, picks: int, least_played: int, end: int | None = None):
    """(event number of a play, its deal's EV_DEAL event, the hands then, the
    deal's plays before it) at ``picks`` random plays of the game's events
    ``ev`` (before event ``end``), of deals with ``least_played`` plays or more."""
    plays = np.flatnonzero(ev[:end, 0] == EV_PLAY)
    deals = np.flatnonzero(ev[:, 0] == EV_DEAL)
    for i in rng.choice(plays, size=min(picks, plays.size), replace=False):
        start = int(deals[deals < i].max())
        hands = {int(a): int(b) for kind, a, b, _ in ev[start:i].tolist() if kind == EV_HAND}
        played = [(int(a), int(b)) for kind, a, b, _ in ev[start:i].tolist() if kind == EV_PLAY]
        if len(played) < least_played:
            continue
        for s, c in played:
            hands[s] &= ~(1 << c)
        yield int(i), start, hands, played


def _decisions(games: int, rng: np.random.Generator, least_played: int = 0):
    """(events up to a play, the hands then, the plays so far) at random plays of heuristic matches."""
    for g in range(games):
        ev = _events(5, g)
        for i, _, hands, played in _cuts(ev, rng, 6, least_played):
            yield ev[: i + 1], hands, played


def _codes(mask: int) -> list[str]:
    return C.codes_of(mask)


def test_samples_keep_every_play_legal_under_the_rulebook_and_never_rule_out_the_true_hands():
    rng = np.random.default_rng(11)
    checked = 0
    for cut, hands, played in _decisions(12, rng, least_played=4):
        view = pimc.seen("schieber", cut)
        me = view["me"]
        assert view["hand"] == hands[me] and view["legal"] & ~hands[me] == 0
        R = pimc.rules(view)
        unseen = C.FULL36 & ~view["hand"] & ~sum(1 << c for _, c in played)
        banned = pimc.forbidden(view, R, unseen)
        for s, mask in banned.items():
            assert mask & hands[s] == 0, f"seat {s}'s true cards ruled out"
        contract = ref.CONTRACTS[view["contract"]]
        for _ in range(3):
            sample = pimc.sample(view, rng, R)
            assert int(sample[me]) == hands[me]
            others = [s for s in range(4) if s != me]
            assert sum(int(sample[s]) for s in others) == unseen
            assert all(bin(int(sample[s])).count("1") == bin(hands[s]).count("1") for s in others)
            assert_plays_legal(sample, me, played, lambda hand, trick: ref.legal(hand, trick, contract))
            checked += 1
    assert checked > 100


def test_with_every_hand_seen_pimc_plays_the_solver_s_best_card(monkeypatch):
    rng = np.random.default_rng(3)
    checked = 0
    for cut, hands, played in _decisions(6, rng, least_played=16):
        view = pimc.seen("schieber", cut)
        card = decide_seeing_all(monkeypatch, view, hands, rng)
        if card is None:
            continue
        me, trick = view["me"], view["trick"]
        taken, points = [0] * 4, [0] * 4
        for t in range(len(played) // 4):
            cards = [C.code(c) for _, c in played[4 * t : 4 * t + 4]]
            w = (played[4 * t][0] + ref.trick_winner(cards, ref.CONTRACTS[view["contract"]])) % 4
            taken[w] += 1
            points[w] += sum(ref.card_points(c, ref.CONTRACTS[view["contract"]]) for c in cards)
        left = {s: hands[s] for s in range(4)}
        solution = cardmc.solve(
            "schieber",
            hands=[" ".join(_codes(left[s])) for s in range(4)],
            trick=[C.code(c) for c in trick],
            to_play=me,
            contract=ref.CONTRACTS[view["contract"]],
            taken=taken,
            points=points,
        )
        column = solution.cards[f"team{me % 2}"]
        best = column[column == column.max()].index
        assert C.code(card) == min(best, key=C.parse), (C.code(card), column.to_dict())
        checked += 1
    assert checked > 10


def test_pimc_games_are_the_same_whatever_the_threads_and_chunks(tmp_path):
    run = {"games": 3, "seed": 4, "policy": PIMC_TEAM, "target": 1000, "pimc_samples": 2}
    one = cardmc.simulate("schieber", **run, threads=1)
    pd.testing.assert_frame_equal(cardmc.simulate("schieber", **run, threads=2), one)
    folder = tmp_path / "run"
    cardmc.simulate("schieber", **run, out=folder, chunk_games=1)
    pd.testing.assert_frame_equal(cardmc.read(folder), one, check_dtype=False)
    heuristic = cardmc.simulate("schieber", **{**run, "policy": "heuristic"})
    assert not one.equals(heuristic)


def test_pimc_plays_as_heuristic_before_its_tricks_and_its_traces_audit_clean():
    settings = {"target": 1000, "pimc_samples": 2, "pimc_tricks": 3}
    searched = cardmc.trace("schieber", games=2, seed=6, policy=PIMC_TEAM, **settings)
    plain = cardmc.trace("schieber", games=2, seed=6, policy="heuristic", **settings)
    for line, base in zip(searched, plain):
        assert ref.audit(line) == []
        first, base_first = line["deals"][0], base["deals"][0]
        assert first["contract"] == base_first["contract"]
        assert (
            first["plays"][: 4 * 6] == base_first["plays"][: 4 * 6]
        )  # 9 - 3 tricks as the heuristic plays them


def test_the_command_line_runs_pimc_and_refuses_what_does_not_fit(tmp_path, capsys):
    out = tmp_path / "p.parquet"
    assert (
        cli.main(
            [
                "simulate",
                "schieber",
                "--games",
                "1",
                "--policy",
                PIMC_TEAM,
                "--set",
                "pimc_samples=2",
                "--set",
                "target=500",
                "--out",
                str(out),
                "--no-progress",
            ]
        )
        == 0
    )
    assert len(pd.read_parquet(out)) > 0
    capsys.readouterr()
    assert (
        cli.main(
            [
                "simulate",
                "schieber",
                "--games",
                "1",
                "--policy",
                "pimc",
                "--set",
                "pimc_tricks=10",
                "--out",
                str(tmp_path / "q.parquet"),
            ]
        )
        == 2
    )
    assert "pimc_tricks" in capsys.readouterr().err.strip().splitlines()[-1]
    assert not (tmp_path / "q.parquet").exists()
    with pytest.raises(UsageError, match="unknown policy 'mcts'"):
        cardmc.simulate("english_jazz", games=1, policy="mcts")


# ---------------------------------------------------------------- Differenzler

D_TEAM = "pimc,calibrated,pimc,calibrated"


def _differenzler_decisions(games: int, rng: np.random.Generator, least_played: int):
    """(view, the hands then, the plays so far, the deal's rows) at random plays of calibrated games."""
    from cardmc import differenzler as D
    from cardmc.kernels import differenzler as dk

    params = D.SPEC.params(D.SPEC.settings())
    for g in range(games):
        rows = np.zeros((dk.max_rows(4, params), len(dk.COLUMNS)), np.int32)
        events = np.zeros((dk.max_events(params), 4), np.int64)
        _, nev = dk.play_game(
            8,
            g,
            4,
            params,
            D.parse_policy("calibrated"),
            D.calibration_table(),
            rows,
            events,
            dk.new_scratch(),
        )
        ev = events[:nev]
        for i, start, hands, played in _cuts(ev, rng, 6, least_played):
            yield (
                pimc.seen("differenzler", ev[: i + 1], rows),
                hands,
                played,
                rows[4 * int(ev[start, 1]) :][:4],
            )


def test_differenzler_samples_keep_the_plays_legal_and_the_trump_card_with_the_dealer():
    rng = np.random.default_rng(12)
    checked = 0
    for view, hands, played, deal_rows in _differenzler_decisions(10, rng, least_played=3):
        me, trump = view["me"], C.SUITS[view["contract"]]
        assert view["hand"] == hands[me] and view["declared"] == deal_rows[me, 8]
        R = pimc.rules(view)
        unseen = C.FULL36 & ~view["hand"] & ~sum(1 << c for _, c in played)
        for s, mask in pimc.forbidden(view, R, unseen).items():
            assert mask & hands[s] == 0, f"seat {s}'s true cards ruled out"
        shown = view["trump_card"]
        for _ in range(3):
            sample = pimc.sample(view, rng, R)
            if (unseen >> shown) & 1:
                assert (int(sample[view["dealer"]]) >> shown) & 1, "the face-up trump card left the dealer"
            assert_plays_legal(sample, me, played, lambda hand, trick: dref.legal(set(hand), trick, trump))
            checked += 1
    assert checked > 60


def test_differenzler_pimc_with_every_hand_seen_plays_for_the_least_sure_penalty(monkeypatch):
    rng = np.random.default_rng(5)
    checked = 0
    for view, hands, played, _ in _differenzler_decisions(16, rng, least_played=20):
        card = decide_seeing_all(monkeypatch, view, hands, rng)
        if card is None:
            continue
        trump = C.SUITS[view["contract"]]
        points, taken = [0] * 4, [0] * 4
        for t in range(len(played) // 4):
            cards = [C.code(c) for _, c in played[4 * t : 4 * t + 4]]
            w = (played[4 * t][0] + dref.trick_winner(cards, trump)) % 4
            taken[w] += 1
            points[w] += sum(dref.points(c, trump) for c in cards)
        solution = cardmc.solve(
            "differenzler",
            hands=[" ".join(_codes(hands[s])) for s in range(4)],
            trick=[C.code(c) for _, c in played[len(played) // 4 * 4 :]],
            to_play=view["me"],
            contract=trump,
            seat=view["me"],
            declared=view["declared"],
            taken=taken,
            points=points,
        )
        column = solution.cards["least_penalty"]
        best = column[column == column.min()].index
        assert C.code(card) == min(best, key=C.parse), (C.code(card), column.to_dict())
        checked += 1
    assert checked > 10


def test_differenzler_pimc_games_are_reproducible_and_audit_clean(tmp_path):
    run = {"games": 2, "seed": 9, "policy": D_TEAM, "pimc_samples": 2}
    one = cardmc.simulate("differenzler", **run, threads=1)
    pd.testing.assert_frame_equal(cardmc.simulate("differenzler", **run, threads=2), one)
    assert set(one["play_policy"].astype(str)) == {"pimc", "heuristic"}
    lines = cardmc.trace("differenzler", games=2, seed=9, policy=D_TEAM, pimc_samples=2)
    plain = cardmc.trace("differenzler", games=2, seed=9, policy="calibrated")
    from cardmc import registry

    before = 4 * (9 - int(registry.get("differenzler").options["pimc_tricks"].default))
    for line, base in zip(lines, plain):
        assert dref.audit(line) == []
        plays = line["deals"][0]["plays"]
        assert plays[:before] == base["deals"][0]["plays"][:before]  # the tricks before the search: heuristic
    aggs = cardmc.simulate("differenzler", **run, aggregate=True)
    pd.testing.assert_frame_equal(
        cardmc.analyze("differenzler", aggs)["penalty_by_policy"],
        cardmc.analyze("differenzler", one)["penalty_by_policy"],
    )


# ---------------------------------------------------------------- Norwegian Jazz


def _nj_decisions(players: int, games: int, rng: np.random.Generator, least_played: int):
    """(view, the hands then, the plays so far) at random plays of deals 1-5 of heuristic games."""
    from cardmc import norwegian_jazz as N
    from cardmc.kernels import norwegian_jazz as nk

    params = N.SPEC.params(N.SPEC.settings({"stop_early": False}))
    for g in range(games):
        _, events = nk.trace_game(3, g, players, params, N.parse_policy("heuristic", players))
        sevens = int(np.flatnonzero(events[:, 0] == EV_DEAL)[5])  # deals 1-5 only
        for i, _, hands, played in _cuts(events, rng, 8, least_played, end=sevens):
            yield pimc.seen("norwegian_jazz", events[: i + 1], None, players), hands, played


@pytest.mark.parametrize("players", [3, 5, 7])
def test_norwegian_jazz_samples_keep_every_play_legal(players):
    from tests.reference import norwegian_jazz as nref

    rng = np.random.default_rng(players)
    checked = 0
    for view, hands, played in _nj_decisions(players, 4, rng, least_played=players):
        me = view["me"]
        assert view["hand"] == hands[me] and view["legal"] & ~hands[me] == 0
        R = pimc.rules(view)
        unseen = view["deck"] & ~view["hand"] & ~sum(1 << c for _, c in played)
        for s, mask in pimc.forbidden(view, R, unseen).items():
            assert mask & hands[s] == 0, f"seat {s}'s true cards ruled out"
        sample = pimc.sample(view, rng, R)
        assert sum(int(x) for x in sample) == unseen | view["hand"]
        assert_plays_legal(sample, me, played, nref.trick_legal)
        checked += 1
    assert checked > 10


def test_norwegian_jazz_pimc_with_every_hand_seen_plays_for_the_least_it_can_be_held_to(monkeypatch):
    from tests.reference import norwegian_jazz as nref

    rng = np.random.default_rng(2)
    checked = 0
    for view, hands, played in _nj_decisions(4, 12, rng, least_played=36):
        card = decide_seeing_all(monkeypatch, view, hands, rng)
        if card is None:
            continue
        taken = [0] * 4
        for t in range(len(played) // 4):
            trick = played[4 * t : 4 * t + 4]
            taken[trick[nref.trick_winner([C.code(c) for _, c in trick])][0]] += 1
        solution = cardmc.solve(
            "norwegian_jazz",
            hands=[" ".join(_codes(hands[s])) for s in range(4)],
            trick=[C.code(c) for _, c in played[len(played) // 4 * 4 :]],
            to_play=view["me"],
            contract=view["contract"],
            seat=view["me"],
            taken=taken,
            points=[0] * 4,
        )
        column = solution.cards["held_to"]
        best = column[column == column.max()].index  # scores: the penalty held to is the least negative
        assert C.code(card) == min(best, key=C.parse), (C.code(card), column.to_dict())
        checked += 1
    assert checked > 10


def test_norwegian_jazz_pimc_games_are_reproducible_and_audit_clean():
    from tests.reference import norwegian_jazz as nref

    run = {
        "games": 2,
        "seed": 5,
        "players": 5,
        "policy": "pimc,heuristic,pimc,heuristic,heuristic",
        "pimc_samples": 2,
    }
    one = cardmc.simulate("norwegian_jazz", **run, threads=1)
    pd.testing.assert_frame_equal(cardmc.simulate("norwegian_jazz", **run, threads=2), one)
    assert set(one["policy"].astype(str)) == {"pimc", "heuristic"}
    for line in cardmc.trace("norwegian_jazz", **run):
        assert nref.audit(line) == []
    with pytest.raises(UsageError, match="pimc_tricks"):
        cardmc.simulate("norwegian_jazz", games=1, policy="pimc", pimc_tricks=18)


def test_the_speed_benchmark_prints_its_line_and_table_and_refuses_bad_values(capsys):
    assert pimc_bench_main(["differenzler", "--games", "1", "--tricks", "2", "--samples", "1"]) == 0
    line, *table = capsys.readouterr().out.strip().splitlines()
    assert line.startswith("differenzler: every seat pimc, 1 samples, from 2 tricks left, seed 1: 1 games, ")
    assert line.endswith("s a deal (1 thread)")
    assert table[1] == "a decision searched, by tricks left and contract family:"
    for bad in (
        ["schieber", "--tricks", "10"],
        ["schieber", "--games", "0"],
        ["english_jazz", "--tricks", "8"],
    ):
        with pytest.raises(SystemExit) as stop:
            pimc_bench_main(bad)
        assert stop.value.code == 2
