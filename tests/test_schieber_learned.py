"""Schieber's learned player: legal play, its features against a plain-Python computation, the
weights file as data, and cardmc train (reproducible, bad input)."""

from __future__ import annotations

import numpy as np
import pytest

from cardmc import cli, learning
from cardmc import schieber as S
from cardmc import schieber_learned as L
from cardmc.kernels import cards as C
from cardmc.kernels import schieber as k
from cardmc.kernels.schieber_learned import FEATURES
from cardmc.train import train, train_start
from tests.reference import schieber as ref

SPEC = S.SPEC


def traces(seed, games, policy, **given):
    settings = SPEC.settings(given)
    return [S.trace_game(seed, i, 4, settings, policy) for i in range(games)]


@pytest.mark.parametrize("policy", ["learned", "learned,heuristic,learned,random"])
def test_learned_plays_legal_cards(policy):
    plays = 0
    for line in traces(5, 20, policy):
        assert ref.audit(line) == []
        plays += sum(len(d["plays"]) for d in line["deals"])
    assert plays > 1000


def reference_features(hand, plays, seat, contract, chose, rules):
    """Each legal card's features from the seat's view, written from the features' definitions."""
    trump = ref.trump_of(contract)
    played = {c for _, c in plays}
    unseen = set(ref.DECK) - played - set(hand)
    voids = set()
    for i, (s, c) in enumerate(plays):
        led = plays[i - i % 4][1][1]
        if i % 4 and c[1] != led and c[1] != trump:
            voids.add((s, led))
    trick = [c for _, c in plays[len(plays) - len(plays) % 4 :]]
    pos, left = len(trick), 9 - len(plays) // 4
    led = trick[0][1] if trick else None
    powers = [ref.power(c, led, contract) for c in trick]
    win = powers.index(max(powers)) if trick else -1
    pts = sum(ref.card_points(c, contract, rules) for c in trick)

    def above(card):
        return {
            x
            for x in ref.DECK
            if x[1] == card[1] and ref.power(x, x[1], contract) > ref.power(card, x[1], contract)
        }

    trumps_out = sum(1 for x in unseen if x[1] == trump)
    out = {}
    for card in ref.legal(hand, trick, contract):
        p = ref.card_points(card, contract, rules)
        t = int(card[1] == trump)
        master = int(not above(card) & unseen)
        suit_cards = {x for x in hand if x[1] == card[1]}
        jn = int(t == 1 and card[0] in "J9")
        lead = int(pos == 0)
        follow = 1 - lead
        opp_void = int((((seat + 1) % 4, card[1]) in voids) or (((seat + 3) % 4, card[1]) in voids))
        w = int(pos > 0 and ref.power(card, led, contract) > max(powers))
        pw = int(pos >= 2 and win == pos - 2)
        ow = follow - pw
        last = int(pos == 3)
        safe = 0
        if pw:
            wc = trick[win]
            sure = not above(wc) & unseen and (trump is None or wc[1] == trump or trumps_out == 0)
            safe = int(last or sure)
        disc = int(follow and card[1] != led and not t)
        f = [
            lead * master, lead * master * p, lead * t, lead * t * int(chose), lead * t * int(trumps_out > 0),
            lead * p, lead * len(suit_cards), lead * opp_void, lead * int(((seat ^ 2), card[1]) in voids),
            lead * (8 - len(above(card))), lead * jn,
            w, w * ow, w * ow * pts, w * t, w * last, w * master, w * p,
            pw * p, safe * p, ow * (1 - w) * p, ow * (1 - w) * last * p, pw * w,
            follow * t, follow * master, follow * (8 - len(above(card))),
            p, jn, int(suit_cards - {card} <= above(card)), int(not suit_cards & above(card)), len(suit_cards),
            t * sum(1 for x in hand if x[1] == trump), t * left, w * int(left == 1),
            (1 - t) * master * int(trumps_out == 0), disc, disc * p, disc * len(suit_cards),
            follow * (1 - w) * (8 - len(above(card))), w * (8 - len(above(card))), lead * master * int(trump is None),
            lead * sum(1 for x in unseen if x[1] == card[1]),
            lead * (1 - t) * int(len(suit_cards) == 1 and any(x[1] == trump for x in hand)),
            w * int(pos == 1), pw * t, w * t * int(led != trump),
            w * int(pos in (1, 2) and ((seat + 1) % 4, led) in voids),
            lead * len(suit_cards) * int(trump is None), disc * len(suit_cards) * int(trump is None),
            lead * t * int(sum(1 for x in hand if x[1] == trump) > trumps_out),
            lead * (1 - t) * master * int(trumps_out > 0),
        ]  # fmt: skip
        out[card] = f
    return out


def test_features_match_a_plain_computation():
    """At every play of a few traced deals (all contracts come up), the kernel's features of each legal
    card equal the plain computation, and the learned seats played the card of the highest score."""
    weights = L.shipped_weights()
    checked = 0
    for line in traces(8, 6, "learned,heuristic,learned,heuristic", target=1500):
        rules = {**ref.RULE_DEFAULTS, **line["rules"]}
        for deal in line["deals"]:
            contract = deal["contract"]
            hands = [set(h) for h in deal["hands"]]
            plays = []
            for play in deal["plays"]:
                seat, chose = play["seat"], play["seat"] % 2 == deal["chooser"] % 2
                view = {
                    "me": seat,
                    "hand": C.mask_of([C.parse(c, 36) for c in hands[seat]]),
                    "plays": [(s, C.parse(c, 36)) for s, c in plays],
                    "contract": S.CONTRACTS.index(contract),
                }
                cards, feats = L.view_features(view, deal["chooser"], k.DEFAULT_RULES, weights)
                want = reference_features(hands[seat], plays, seat, contract, chose, rules)
                got = {C.code(c): f.tolist() for c, f in zip(cards, feats)}
                assert got == want, {
                    c: [FEATURES[i] for i, (x, y) in enumerate(zip(got[c], want[c])) if x != y] for c in got
                }
                if seat % 2 == 0 and len(cards) > 1:
                    scores = feats @ weights
                    assert C.code(cards[int(np.argmax(scores))]) == play["card"]
                hands[seat].discard(play["card"])
                plays.append((seat, play["card"]))
                checked += 1
    assert checked > 300


def test_weights_reach_the_kernels_as_data(tmp_path):
    """The spec's params hold the shipped card weights; a file written from them reloads to the same games,
    and other weights play other games."""
    weights = L.shipped_weights()
    params = SPEC.params(SPEC.settings({}))
    nf = len(FEATURES)
    assert len(weights) == nf and (params[k.P_WEIGHTS : k.P_WEIGHTS + nf] == weights).all()
    path = tmp_path / "w.csv"
    path.write_text(L.weights_text(weights, ["test"]))
    assert (L.read_weights(path) == weights).all()

    def rows(w):
        p = np.concatenate([params[: k.P_WEIGHTS], w, params[k.P_WEIGHTS + nf :]])
        out, spans = k.simulate(3, 0, 40, 4, p, S.parse_policy("learned"), 2)
        return S.join_spans(out, spans)

    assert (rows(L.read_weights(path)) == rows(weights)).all()
    assert not np.array_equal(rows(-weights), rows(weights))
    assert (S.simulate_block(3, 0, 40, 4, params, S.parse_policy("learned")) == rows(weights)).all()


def test_training_is_reproducible(tmp_path):
    """A tiny training twice, with different threads, writes the same file byte for byte."""
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    done = train("schieber", 30, seed=4, out=a, depth=3, samples=2, threads=1)
    train("schieber", 30, seed=4, out=b, depth=3, samples=2, threads=2)
    assert a.read_bytes() == b.read_bytes() and done["decisions"] == 30
    assert a.read_text().startswith("# cardmc train schieber --decisions 30 --seed 4 --depth 3 --samples 2\n")
    assert len(L.read_weights(a)) == len(FEATURES)
    assert "\n# refined by play: 4 sweeps, 30 matches of seed 1004 a seating" in a.read_text()
    with pytest.raises(S.UsageError, match="exists"):
        train("schieber", 30, seed=4, out=a, depth=3, samples=2)


def test_the_refinement_measures_the_ladders_figure_and_keeps_only_gains():
    """``versus_heuristic`` is the ladder's points a deal, learned minus heuristic, on the same matches; a
    refinement from the shipped weights keeps a move only where the figure gains, and the figure it reports is
    that of the weights it returns."""
    from cardmc.ladder import ladder

    params = SPEC.params(SPEC.settings({}))
    shipped = L.shipped_weights()
    t = ladder("schieber", ["heuristic", "learned"], games=30, seed=3, timed=False)
    figure = t.loc[("points per deal", "learned", "heuristic"), "estimate"]
    assert L.versus_heuristic(shipped, 3, 30, params) == pytest.approx(figure)
    weights, before, after = L.refine(shipped, 5, 12, params)
    assert before == pytest.approx(L.versus_heuristic(shipped, 5, 12, params))
    assert after == pytest.approx(L.versus_heuristic(weights, 5, 12, params))
    assert (after > before + L.MARGIN) == (not np.array_equal(weights, shipped))


@pytest.mark.parametrize(
    "argv",
    [
        ["train", "schieber", "--decisions", "0"],
        ["train", "nosuchgame"],
        ["train", "schieber", "--samples", "0"],
        ["train", "schieber", "--depth", "10"],
        ["train", "schieber", "--out", "/nonexistent/folder/w.csv"],
        ["train", "english_jazz", "--start"],
        ["train", "schieber", "--start", "--games", "0"],
    ],
)
def test_train_bad_input_exits_2(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        raise SystemExit(cli.main(argv))
    assert exc.value.code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def reference_contract(hand, weis, rules, contracts):
    """The learned player's (contract, worth) from its contract weights, written from their definition: per
    contract, the multiplier times (the weights . the heuristic's hand features / 10 + half the Weis - 78.5)."""
    f = np.zeros(k.NFEAT)
    best = None
    for c in range(6):
        k.contract_features(hand, c, f)
        row = 0 if c < 4 else c - 3 + (1 if c == 5 and rules & k.SIX_COUNT else 0)
        e = contracts[10 * row : 10 * row + 10] @ f.astype(np.int64) / 10
        v = int(k.multiplier_of(rules, c) * (e + 0.5 * weis - 78.5))
        if best is None or v > best[1]:
            best = (c, v)
    return best


def test_learned_contracts_follow_their_weights():
    """Learned forehands and partners choose the contract of the highest worth by the shipped contract
    weights, and the forehand pushes exactly when that worth is below the learned threshold of the rules in
    force, which the spec measures with them."""
    from cardmc.kernels.schieber_push import learned_push_below
    from cardmc.kernels.schieber_weis import OBENABE, declare

    for given in ({}, {"undenufe_points": "six", "multipliers": "1,1,2,2,3,3"}):
        settings = SPEC.settings(given)
        params = SPEC.params(settings)
        rules = int(k.rules_of(params))
        block = params[k.P_WEIGHTS :]
        contracts = L.shipped_contracts()
        assert (block[: len(FEATURES)] == L.shipped_weights()).all()
        assert (block[len(FEATURES) : -1] == contracts).all()
        assert block[-1] == learned_push_below(rules, block)
        pushes = chosen = 0
        for line in traces(21, 12, "learned", **given):
            for deal in line["deals"]:
                fore, chooser = deal["forehand"], deal["chooser"]

                def best(seat):
                    hand = np.uint64(C.mask_of([C.parse(c, 36) for c in deal["hands"][seat]]))
                    return reference_contract(
                        hand, int(declare(hand, OBENABE, k.weis_of(rules))[1]), rules, contracts
                    )

                own, worth = best(fore)
                assert deal["pushed"] == (worth < block[-1])
                c = best(chooser)[0]
                assert S.CONTRACTS.index(deal["contract"]) == c
                pushes += deal["pushed"]
                chosen += 1
        assert pushes > 5 and chosen > 100


def test_start_training_is_reproducible(tmp_path):
    """A tiny fit of the contract weights twice writes the same file, headed by its command."""
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    done = train_start("schieber", 40, seed=4, out=a)
    train_start("schieber", 40, seed=4, out=b)
    assert a.read_bytes() == b.read_bytes() and done["games"] == 40
    assert a.read_text().startswith("# cardmc train schieber --start --games 40 --seed 4\n")
    weights = learning.read_weights(a, L.CONTRACT_FEATURES)
    assert weights[0] != 0 and len(weights) == 40
    with pytest.raises(S.UsageError, match="exists"):
        train_start("schieber", 40, seed=4, out=a)
