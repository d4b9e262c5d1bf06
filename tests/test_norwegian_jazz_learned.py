"""Norwegian Jazz's learned player: legal play at every player count, its features against a plain-Python
computation (trick deals and sevens), the weights file as data, advice for a learned seat, and cardmc train
(reproducible, bad input)."""

from __future__ import annotations

import numpy as np
import pytest

import cardmc
from cardmc import cli, pimc, pimc_sevens
from cardmc import norwegian_jazz as S
from cardmc import norwegian_jazz_learned as L
from cardmc.kernels import cards as C
from cardmc.kernels import norwegian_jazz as k
from cardmc.kernels.events import EV_DEAL, EV_PLAY
from cardmc.kernels.norwegian_jazz_learned import FEATURES, NB, NF, SEVENS_AT, TRICK_FEATURES
from cardmc.kernels.sevens import SEVENS_FEATURES, heuristic_sevens_card
from cardmc.train import train
from tests.reference import norwegian_jazz as ref

SPEC = S.SPEC


def some_weights(seed: int = 3) -> np.ndarray:
    """Weights that play every deal otherwise than the heuristic."""
    return np.random.default_rng(seed).integers(-500, 500, NF).astype(np.int64)


def params_with(weights: np.ndarray) -> np.ndarray:
    return np.concatenate([SPEC.params(SPEC.settings({}))[: k.NPARAMS], weights]).astype(np.int64)


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_learned_plays_legal_cards(players, monkeypatch):
    """Traces of learned play (with weights that play every deal their own way) pass the plain-Python audit,
    at every player count, and differ from the heuristic's games."""
    monkeypatch.setattr(L, "shipped_weights", some_weights)
    settings = SPEC.settings({})
    plays = 0
    for policy in ("learned", ",".join(["learned", "heuristic", "random"] * 3)):
        policy = ",".join(policy.split(",")[:players]) if "," in policy else policy
        for i in range(4):
            line = S.trace_game(5, i, players, settings, policy)
            assert ref.audit(line) == []
            plays += sum(len(d["plays"]) for d in line["deals"])
    assert plays > 400
    params = SPEC.params(settings)
    learned = S.simulate_block(5, 0, 20, players, params, S.parse_policy("learned", players))
    heuristic = S.simulate_block(5, 0, 20, players, params, S.parse_policy("heuristic", players))
    assert not np.array_equal(learned[:, : k.C_POLICY], heuristic[:, : k.C_POLICY])


def code(c: int) -> str:
    return C.code(c)


def reference_trick_features(hand, plays, seat, n, number, heur) -> dict:
    """Each legal card's trick features from the seat's view (cards as text, ``plays`` (seat, card) of the
    deal so far), written from the features' definitions; ``heur``: the heuristic's card."""
    deck = ref.adjusted_deck(n)
    unseen = set(deck) - {c for _, c in plays} - set(hand)
    voids = set()
    for i, (s, c) in enumerate(plays):
        led = ref.suit(plays[i - i % n][1])
        if i % n and ref.suit(c) != led:
            voids.add((s, led))
    trick = [c for _, c in plays[len(plays) - len(plays) % n :]]
    pos, left = len(trick), len(hand)
    led = ref.suit(trick[0]) if trick else None
    best = max((ref.rank(c) for c in trick if ref.suit(c) == led), default=-1)
    pen = ref.PENALTY_CARDS.get(number, frozenset())
    out = {}
    for card in ref.trick_legal(hand, trick):
        r, s = ref.rank(card), ref.suit(card)
        suit_cards = {x for x in hand if ref.suit(x) == s}
        above = {x for x in unseen if ref.suit(x) == s and ref.rank(x) > r}
        below = {x for x in unseen if ref.suit(x) == s and ref.rank(x) < r}
        lead = int(pos == 0)
        follow = int(pos > 0 and s == led)
        void = int(pos > 0 and s != led)
        w = int(follow and r > best)
        p = int(card in pen)
        taken = 1 if number == 1 else int(left == 1) if number == 5 else len((set(trick) | {card}) & pen)
        shown = sum(1 for o in range(n) if o != seat and (o, s) in voids)
        out[card] = [
            int(card == heur), w, w * int(pos == n - 1), w * taken, p, void * p, void * r,
            follow * (1 - w) * r, w * r, lead * r, lead * len(above), lead * len(below), len(below & pen),
            lead * len(suit_cards), lead * shown, r if left <= 2 else 0, int(not above),
            w * len(above) * int(pos < n - 1), int(len(suit_cards) == 1),
            int(not any(ref.rank(x) < r for x in suit_cards)),
        ]  # fmt: skip
    return out


def reference_sevens_features(hand, table, heur) -> dict:
    """Each legal sevens card's features (cards as text, ``table`` the cards played), from their
    definitions; ``heur``: the heuristic's card."""
    unplayed = set(ref.FULL_DECK) - set(table)
    out = {}
    for card in ref.sevens_legal(hand, table):
        r, s = ref.rank(card), ref.suit(card)
        seven = ref.RANKS.index("7")

        def beyond(x, r=r, s=s):
            return ref.suit(x) == s and x != card and (r == seven or (ref.rank(x) - r) * (r - seven) > 0)

        mine = {x for x in hand if beyond(x)}
        opens = {x for x in ref.FULL_DECK if ref.suit(x) == s and abs(ref.rank(x) - r) == 1 and beyond(x)}
        out[card] = [
            int(card == heur), len(mine), len({x for x in unplayed if beyond(x)} - mine), len(opens & set(hand)),
            len(opens & (unplayed - set(hand))), int(r == seven), len({x for x in hand if ref.suit(x) == s}) - 1,
            max((abs(ref.rank(x) - r) for x in mine), default=0),
        ]  # fmt: skip
    return out


@pytest.mark.parametrize("players", [3, 4, 6])
def test_features_match_a_plain_computation(players):
    """At every play of the learned seats in traced games (all six deals), the kernel's features of each legal
    card equal the plain computation, and the learned seat played the card of the highest score (ties: the
    heuristic's card)."""
    weights = some_weights(players)
    params = params_with(weights)
    policy = ",".join(["learned", "heuristic"] * 4)
    policies = S.parse_policy(",".join(policy.split(",")[:players]), players)
    checked = sevens = differs = 0
    for g in range(3):
        _, events = k.trace_game(9, g, players, params, policies)
        number = 0
        for i, (kind, seat, card, legal) in enumerate(events.tolist()):
            if kind == EV_DEAL:
                number = seat + 1
            if kind != EV_PLAY or seat % 2 or legal & (legal - 1) == 0:
                continue
            if number <= 5:
                view = pimc.seen("norwegian_jazz", events[: i + 1], players=players)
                cards, feats, chosen = L.view_features(view, weights)
                hand = set(C.codes_of(view["hand"]))
                heur = k.view_card(
                    number, np.uint64(view["hand"]), np.array([c for _, c in view["plays"]] or [0]),
                    len(view["plays"]), players, np.uint64(view["deck"]),
                )  # fmt: skip
                plays = [(s, code(c)) for s, c in view["plays"]]
                want = reference_trick_features(hand, plays, seat, players, number, code(int(heur)))
                block = slice((number - 1) * NB, number * NB)
                names = TRICK_FEATURES
            else:
                view = pimc_sevens.seen(events[: i + 1], players)
                cards, feats, chosen = L.sevens_features(view, weights)
                unplayed = np.uint64(int(C.FULL52) & ~view["table"])
                heur = heuristic_sevens_card(np.uint64(view["hand"]), np.uint64(view["legal"]), unplayed)
                want = reference_sevens_features(
                    set(C.codes_of(view["hand"])), set(C.codes_of(view["table"])), code(int(heur))
                )
                block = slice(SEVENS_AT, NF)
                names = SEVENS_FEATURES
                sevens += 1
            got = {code(c): f[block].tolist() for c, f in zip(cards, feats)}
            assert got == want, {
                c: [names[j] for j, (x, y) in enumerate(zip(got[c], want[c])) if x != y] for c in got
            }
            assert not feats[:, : block.start].any() and not feats[:, block.stop :].any()
            scores = feats @ weights
            top = [c for c, v in zip(cards, scores) if v == scores.max()]
            assert chosen == card == (int(heur) if int(heur) in top else top[0])
            differs += card != int(heur)
            checked += 1
    assert checked > 150 and sevens > 10 and differs > 30, (checked, sevens, differs)


def test_zero_weights_play_as_the_heuristic():
    """A deal whose weights are all 0 is played as the heuristic: all of them 0, the games are the heuristic's."""
    params = params_with(np.zeros(NF, np.int64))
    learned = S.simulate_block(2, 0, 50, 4, params, S.parse_policy("learned"))
    heuristic = S.simulate_block(2, 0, 50, 4, params, S.parse_policy("heuristic"))
    assert np.array_equal(learned[:, : k.C_POLICY], heuristic[:, : k.C_POLICY])


def test_weights_reach_the_kernels_as_data(tmp_path):
    """The spec's params end with the shipped weights; a file written from them reloads to the same games,
    and other weights play other games."""
    weights = L.shipped_weights()
    params = SPEC.params(SPEC.settings({}))
    assert len(weights) == len(FEATURES) and (params[k.P_WEIGHTS :] == weights).all()
    path = tmp_path / "w.csv"
    path.write_text(L.weights_text(weights, ["test"]))
    assert (L.read_weights(path) == weights).all()

    def rows(w):
        out, nrows = k.simulate(3, 0, 40, 4, params_with(w), S.parse_policy("learned"))
        return out

    assert (rows(L.read_weights(path)) == rows(weights)).all()
    assert not np.array_equal(rows(some_weights()), rows(weights))
    assert (S.simulate_block(3, 0, 40, 4, params, S.parse_policy("learned")) == rows(weights)).all()


def test_advise_names_the_learned_players_card():
    """``cardmc advise`` with a learned seat names the card the learned player's view gives."""
    weights = L.shipped_weights()
    _, events = k.trace_game(4, 0, 4, SPEC.params(SPEC.settings({})), S.parse_policy("learned"))
    checked = 0
    for i, (kind, seat, card, legal) in enumerate(events.tolist()):
        if kind != EV_PLAY or legal & (legal - 1) == 0 or pimc_sevens.in_sevens(events[: i + 1]):
            continue
        view = pimc.seen("norwegian_jazz", events[: i + 1], players=4)
        if checked % 7 == 0:
            a = cardmc.advise(
                "norwegian_jazz",
                hand=" ".join(C.codes_of(view["hand"])),
                plays=" ".join(f"{s}:{code(c)}" for s, c in view["plays"]) or None,
                seat=seat,
                dealer=view["dealer"],
                players=4,
                number=view["contract"],
                samples=2,
                most_tricks=1,
                policy="learned",
            )
            assert a.policies["learned"] == code(L.view_features(view, weights)[2]) == code(card)
        checked += 1
    assert checked > 40


def test_training_is_reproducible(tmp_path):
    """A tiny training twice, with different threads, writes the same file byte for byte."""
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    done = train("norwegian_jazz", 30, seed=4, out=a, depth=3, samples=2, threads=1)
    train("norwegian_jazz", 30, seed=4, out=b, depth=3, samples=2, threads=2)
    assert a.read_bytes() == b.read_bytes() and done["decisions"] == 30
    assert a.read_text().startswith(
        "# cardmc train norwegian_jazz --decisions 30 --seed 4 --depth 3 --samples 2\n"
    )
    assert len(L.read_weights(a)) == len(FEATURES)
    assert "\n# refined by play: 3 sweeps a deal, 30 games of seed 1004 a seating" in a.read_text()
    with pytest.raises(S.UsageError, match="exists"):
        train("norwegian_jazz", 30, seed=4, out=a, depth=3, samples=2)


def test_the_refinement_keeps_only_moves_that_gain_in_their_deal():
    """Weights 0 play the heuristic: a paired gain of 0 exactly in every deal; a refinement from them keeps a
    deal's moves only where that deal gains on its games, and leaves the other deals' weights alone; the
    shipped weights beat the heuristic in the deals they keep, on games the refinement did not play."""
    zero = np.zeros(NF, np.int64)
    assert not L.paired_gain(zero, 40, 3).any()
    weights, before, after = L.refine(zero, 3, 20)
    assert not before.any() and (after >= before).all()
    gain = L.paired_gain(weights, 20, 3)[:, 0]
    for d, block in enumerate(L.deal_blocks()):
        assert weights[block].any() == (after[d] > 0)
    assert after[-1] == pytest.approx(gain[-1])  # the last deal refined is measured with every move made
    shipped = L.shipped_weights()
    held_out = L.paired_gain(shipped, 20_000, 12345)
    for d, block in enumerate(L.deal_blocks()):
        if shipped[block].any():
            assert held_out[d, 1] > 0, d + 1


@pytest.mark.parametrize(
    "argv",
    [
        ["train", "norwegian_jazz", "--decisions", "0"],
        ["train", "norwegian_jazz", "--depth", "14"],
        ["train", "norwegian_jazz", "--samples", "0"],
        ["train", "norwegian_jazz", "--out", "/nonexistent/folder/w.csv"],
    ],
)
def test_train_bad_input_exits_2(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        raise SystemExit(cli.main(argv))
    assert exc.value.code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
