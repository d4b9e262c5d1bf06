"""The search player ``pimc`` in sevens, Norwegian Jazz deal 6 (``cardmc.pimc_sevens``):
the kernel asks for a card only at a real choice, late enough; the samples keep
every pass and never rule out the true hands; with every hand known it plays
the exact solver's best card; its games are legal under the plain-Python rules,
reproducible and the same on 1 and 2 threads."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import cardmc
from cardmc import pimc_sevens as ps
from cardmc.kernels import cards as C
from cardmc.kernels import norwegian_jazz as nk
from cardmc.kernels import script as sc
from cardmc.kernels.events import EV_DEAL, EV_HAND, EV_PLAY
from cardmc.kernels.sevens import FULL52, heuristic_sevens_card, playable_of, sevens_from
from cardmc.norwegian_jazz import SPEC, parse_policy
from cardmc.registry import UsageError
from tests.reference import norwegian_jazz as nref

ONE_PIMC = "pimc,heuristic,heuristic,heuristic"


def _codes(mask: int) -> list[str]:
    return C.codes_of(int(mask))


def _sevens_cuts(players: int, games: int, policy: str, rng: np.random.Generator, most_left: int = 52):
    """(events up to a sevens play with a choice, the true hands then, the turns so far) at
    random such plays of deal 6 of ``games`` games, with ``most_left`` cards or fewer in hands."""
    params = SPEC.params(SPEC.settings())
    for g in range(games):
        _, ev = nk.trace_game(21, g, players, params, parse_policy(policy, players))
        start = int(np.flatnonzero(ev[:, 0] == EV_DEAL)[5])
        hands = {int(a): int(b) for kind, a, b, _ in ev[start:].tolist() if kind == EV_HAND}
        turns, cuts = [], []
        for i in range(start, len(ev)):
            kind, s, c, legal = (int(x) for x in ev[i])
            if kind != EV_PLAY:
                continue
            if bin(legal).count("1") >= 2 and sum(bin(h).count("1") for h in hands.values()) <= most_left:
                cuts.append((ev[: i + 1], dict(hands), list(turns)))
            turns.append((s, c))
            if c >= 0:
                hands[s] &= ~(1 << c)
        for j in rng.permutation(len(cuts))[:4]:
            yield cuts[j]


def _assert_sample_fits(sample: np.ndarray, me: int, turns: list) -> None:
    """With the sampled hands (and the cards each seat played since), every
    earlier turn of another seat was legal by the reference rules: a pass
    with no legal card, a play of a legal card."""
    n = len(sample)
    held = {s: set(_codes(sample[s])) for s in range(n) if s != me}
    table = {C.code(c) for _, c in turns if c >= 0}
    for s, c in reversed(turns):  # back from the last turn: a seat held its later cards too
        if c >= 0:
            table.discard(C.code(c))
        if s == me:
            continue
        if c < 0:
            assert nref.sevens_legal(held[s], table) == set(), f"seat {s} passed holding a playable card"
        else:
            held[s].add(C.code(c))
            assert C.code(c) in nref.sevens_legal(held[s], table)


@pytest.mark.parametrize("players", [3, 4, 6])
def test_samples_fit_every_pass_and_never_rule_out_the_true_hands(players):
    rng = np.random.default_rng(players)
    checked = passes = 0
    for policy in ("heuristic", "random"):
        for ev, hands, turns in _sevens_cuts(players, 4, policy, rng):
            view = ps.seen(ev, players)
            me = view["me"]
            assert view["hand"] == hands[me] and view["legal"] == int(ev[-1, 3])
            assert view["sizes"] == [bin(hands[s]).count("1") for s in range(players)]
            for s, mask in view["banned"].items():
                assert mask & hands[s] == 0, f"seat {s}'s true cards ruled out"
            passes += sum(1 for s, c in turns if c < 0 and s != me)
            for _ in range(3):
                sample = ps.sample(view, rng)
                assert int(sample[me]) == hands[me]
                others = [s for s in range(players) if s != me]
                assert sum(int(sample[s]) for s in others) == view["unseen"]
                sizes = [bin(int(sample[s])).count("1") for s in others]
                assert sizes == [bin(hands[s]).count("1") for s in others]
                _assert_sample_fits(sample, me, turns)
                checked += 1
    assert checked > 30 and passes > 20


def test_a_seat_that_passed_is_never_dealt_what_was_playable_then():
    hands = {
        0: "7S 6S 5S 8S 9S 2C 3C 4C 5C 6C 2D 3D 4D",
        1: "AC KC QC JC TC 9C 8C AD KD QD JD TD 9D",
        2: "7C 7D 7H 8D 6D 5D AH KH QH JH TH 9H 8H",
        3: "6H 5H 4H 3H 2H TS JS QS KS AS 4S 3S 2S",
    }
    dealt = {s: sum(1 << C.parse(c, 52) for c in h.split()) for s, h in hands.items()}
    assert sum(dealt.values()) == int(C.FULL52)
    card = {c: C.parse(c, 52) for c in ("7S", "7C", "7D", "7H", "8C", "6S", "8S", "6C")}
    ev = [(EV_DEAL, 5, 3, 0)] + [(EV_HAND, s, dealt[s], 0) for s in range(4)]
    ev += [(EV_PLAY, 0, card["7S"], 0), (EV_PLAY, 1, -1, 0), (EV_PLAY, 2, card["7C"], 0), (EV_PLAY, 3, -1, 0)]
    legal = sum(1 << card[c] for c in ("6S", "8S", "6C"))
    ev = np.array(ev + [(EV_PLAY, 0, card["6S"], legal)], np.int64)
    view = ps.seen(ev, 4)
    assert view["legal"] == legal and view["sizes"] == [12, 13, 12, 13]
    # seat 1 passed with 7C 7D 7H 6S 8S playable, seat 3 with 7D 7H 6S 8S 6C 8C; seat 0 holds 6S 8S 6C
    assert view["banned"] == {
        1: (1 << card["7D"]) | (1 << card["7H"]),
        2: 0,
        3: (1 << card["7D"]) | (1 << card["7H"]) | (1 << card["8C"]),
    }
    rng = np.random.default_rng(1)
    for _ in range(50):
        sample = ps.sample(view, rng)
        assert (int(sample[2]) >> card["7D"]) & 1 and (int(sample[2]) >> card["7H"]) & 1
        assert not (int(sample[3]) >> card["8C"]) & 1
        assert [bin(int(x)).count("1") for x in sample] == [12, 13, 12, 13]
    with pytest.raises(ValueError, match="do not fit"):
        ps.seen(ev, 5)  # 13 cards are not a hand of a five-player deal


def test_the_kernel_asks_only_at_a_choice_once_few_cards_are_left_and_plays_the_script():
    """``sevens_from`` with a script: the first card asked for is a scripted
    seat's play with two legal cards or more, at ``cards`` or fewer in hands;
    the cards the script gives are the ones played; without a script the
    play is the heuristic's."""
    from cardmc.kernels import rng as krng

    n, cards = 4, 30
    policies = parse_policy("pimc,heuristic,pimc,random", n)
    bits = nk.heuristic_seats(policies, n)
    asked_any = False
    for g in range(12):
        dealt = np.zeros(n, np.uint64)
        deck = np.array(nk.FULL_DECK, np.int64)
        nk.deal_from(np.uint64(krng.key(3, g, 5, krng.DEAL)), deck, 52, dealt, n, 1)
        z0 = np.uint64(krng.key(3, g, 5, krng.PLAY))

        def run(script):
            hands = dealt.copy()
            events = np.zeros((52 * n + 8, 4), np.int64)
            passes, out = np.zeros(n, np.int64), np.zeros(n, np.int64)
            if script is None:
                _, _, _, ne = sevens_from(hands, np.uint64(0), 1, n, False, bits, z0, passes, out, events, 0)
            else:
                sc.start(script, policies, n, nk.POLICY_SCRIPTED)
                _, _, _, ne = sevens_from(
                    hands, np.uint64(0), 1, n, False, bits, z0, passes, out, events, 0, script, cards
                )
            return events[:ne]

        plain = run(None)
        script = np.zeros(sc.SC_CARDS + 60, np.int64)
        script[sc.SC_TRICKS] = 1
        given = []
        while True:  # as cardmc.pimc.play_game: the card asked for is given, the deal played again
            script[sc.SC_COUNT] = len(given)
            ev = run(script)
            need = int(script[sc.SC_NEED])
            if need < 0:
                break
            seat, legal = int(ev[need, 1]), int(ev[need, 3])
            assert policies[seat, 0] == nk.POLICY_SCRIPTED and bin(legal).count("1") >= 2
            left = 52 - sum(1 for e in ev[:need] if e[2] >= 0)
            assert left <= cards
            script[sc.SC_CARDS + len(given)] = max(C.cards_of(legal))  # not the heuristic's choice, often
            given.append(int(script[sc.SC_CARDS + len(given)]))
        plays = [(int(s), int(c), int(legal)) for _, s, c, legal in ev]
        asked = iter(given)
        left = 52
        for s, c, legal in plays:
            if policies[s, 0] == nk.POLICY_SCRIPTED and left <= cards and bin(legal).count("1") >= 2:
                assert c == next(asked)
            left -= c >= 0
        assert next(asked, None) is None
        if not given:
            assert np.array_equal(ev, plain)
        asked_any = asked_any or bool(given)
    assert asked_any


def _solver_best(hands: dict, me: int, turns: list, bonus: int) -> str:
    n = len(hands)
    passes = [sum(1 for s, c in turns if s == p and c < 0) for p in range(n)]
    held = [" ".join(_codes(hands[s])) for s in range(n)]
    solution = cardmc.solve(
        "norwegian_jazz", contract=6, hands=held, to_play=me, seat=me, points=passes, first_out_bonus=bonus
    )
    column = solution.cards["score"]
    best = list(column[column == column.max()].index)
    table = int(FULL52) & ~sum(hands.values())
    legal = hands[me] & int(playable_of(np.uint64(table)))
    usual = C.code(
        int(heuristic_sevens_card(np.uint64(hands[me]), np.uint64(legal), np.uint64(sum(hands.values()))))
    )
    return usual if usual in best else min(best, key=lambda c: C.parse(c, 52))  # ties: the heuristic's card


@pytest.mark.parametrize("bonus", [10, 80])
def test_with_every_hand_known_pimc_plays_the_solver_s_best_card(monkeypatch, bonus):
    rng = np.random.default_rng(bonus)
    checked = 0
    tt = cardmc.pimc.search_table()
    for players, policy in ((3, "heuristic"), (4, "random"), (5, "heuristic")):
        for ev, hands, turns in _sevens_cuts(players, 5, policy, rng, most_left=24):
            true = np.array([hands[s] for s in range(players)], np.uint64)
            monkeypatch.setattr(ps, "sample", lambda view, rng: true.copy())
            card = ps.decide(ev, players, 2, rng, tt, bonus)
            me = int(ev[-1, 1])
            best = _solver_best(hands, me, turns, bonus)
            assert C.code(card) == best, (players, C.code(card), best)
            checked += 1
    assert checked > 20


def test_pimc_sevens_games_are_legal_and_search_in_sevens():
    run = {
        "games": 3,
        "seed": 7,
        "players": 4,
        "policy": "pimc,heuristic,pimc,heuristic",
        "pimc_samples": 2,
        "pimc_sevens_cards": 36,
    }
    lines = cardmc.trace("norwegian_jazz", **run)
    plain = cardmc.trace("norwegian_jazz", **{**run, "policy": "heuristic"})
    differ = 0
    for line, base in zip(lines, plain):
        assert nref.audit(line) == []
        sevens, base_sevens = line["deals"][5], base["deals"][5]
        assert sevens["hands"] == base_sevens["hands"]  # deal 6 is dealt the same whatever deals 1-5 were
        differ += sevens["plays"] != base_sevens["plays"]
        for p, q in zip(sevens["plays"], base_sevens["plays"]):  # the same until the first searched choice
            if p != q:
                assert p["seat"] in (0, 2) and len(p["legal"]) >= 2
                break
    assert differ >= 1


def test_pimc_sevens_games_are_reproducible_and_the_same_on_one_and_two_threads():
    run = {
        "games": 3,
        "seed": 12,
        "players": 3,
        "policy": "pimc,heuristic,pimc",
        "pimc_samples": 2,
        "pimc_sevens_cards": 36,
    }
    one = cardmc.simulate("norwegian_jazz", **run, threads=1)
    pd.testing.assert_frame_equal(cardmc.simulate("norwegian_jazz", **run, threads=2), one)
    pd.testing.assert_frame_equal(cardmc.simulate("norwegian_jazz", **run, threads=1), one)
    other = cardmc.simulate("norwegian_jazz", **{**run, "seed": 13}, threads=1)
    assert not one.equals(other)


def test_a_mixed_simulate_has_sane_sevens_rows_and_plays_out_as_the_heuristic():
    run = {"games": 6, "seed": 3, "policy": ONE_PIMC, "pimc_samples": 2, "pimc_sevens_cards": 36}
    df = cardmc.simulate("norwegian_jazz", **run)
    base = cardmc.simulate("norwegian_jazz", **{**run, "policy": "heuristic"})
    six, base6 = df[df["deal"] == 6], base[base["deal"] == 6]
    assert len(six) == 6 * 4 and set(six["policy"].astype(str)) == {"pimc", "heuristic"}
    assert (six.groupby("game")["first_out"].sum() == 1).all()
    assert (six["score"] == -six["passes"] + 10 * six["first_out"]).all()
    assert (six["passes"] >= 0).all() and (six.loc[six["first_out"] == 1, "cards_left"] == 0).all()
    assert (six.groupby("game")["cards_dealt"].sum() == 52).all()
    assert (six["total"] == six["total5"] + six["score"]).all()
    cols = ["game", "seat", "score", "passes", "first_out", "cards_left"]
    assert not six[cols].reset_index(drop=True).equals(base6[cols].reset_index(drop=True))  # it searched
    # played out, the solver's game ends too early: pimc plays sevens as the heuristic
    out = cardmc.simulate("norwegian_jazz", **run, play_out=True)
    out_base = cardmc.simulate("norwegian_jazz", **{**run, "policy": "heuristic"}, play_out=True)
    pd.testing.assert_frame_equal(
        out.loc[out["deal"] == 6, cols].reset_index(drop=True),
        out_base.loc[out_base["deal"] == 6, cols].reset_index(drop=True),
    )
    # by default (pimc_sevens_cards=0) pimc plays sevens as the heuristic
    plain = cardmc.simulate("norwegian_jazz", **{k: v for k, v in run.items() if k != "pimc_sevens_cards"})
    pd.testing.assert_frame_equal(
        plain.loc[plain["deal"] == 6, cols].reset_index(drop=True), base6[cols].reset_index(drop=True)
    )
    with pytest.raises(UsageError, match="pimc_sevens_cards"):
        cardmc.simulate("norwegian_jazz", games=1, policy=ONE_PIMC, pimc_sevens_cards=53)
