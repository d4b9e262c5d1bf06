"""English Jazz's learned player: legal play, its features against a plain-Python computation, the
weights file as data, odds and advice with it, and cardmc train (reproducible, bad input)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import cardmc
from cardmc import cli
from cardmc import english_jazz as E
from cardmc import english_jazz_learned as L
from cardmc.kernels import cards as C
from cardmc.kernels import english_jazz as k
from cardmc.kernels.english_jazz_learned import FEATURES
from cardmc.train import train
from tests.reference import english_jazz as ref

SPEC = E.SPEC


def traces(seed, games, policy):
    settings = SPEC.settings({})
    return [E.trace_game(seed, i, 3, settings, policy) for i in range(games)]


@pytest.mark.parametrize("policy", ["learned", "learned,heuristic,random"])
def test_learned_plays_legal_cards(policy):
    plays = 0
    for line in traces(5, 3, policy):
        assert ref.audit(line) == []
        plays += sum(len(d["plays"]) for d in line["deals"])
    assert plays == 3 * 12 * 36


def order(card, trump):
    """The card's rank in its suit, 0 lowest .. 8 highest (trump order in the trump suit)."""
    return (ref.TRUMP_ORDER if card[1] == trump else ref.PLAIN_ORDER).index(card[0])


def reference_features(hand, plays, seat, heuristic):
    """Each legal card's features from the seat's view, written from the features' definitions
    (``heuristic``: the heuristic's card there)."""
    trump = None
    tricks, won = [0, 0, 0], [[], [], []]
    voids = set()
    done = len(plays) - len(plays) % 3
    for i in range(0, done, 3):
        trick = [c for _, c in plays[i : i + 3]]
        best, trump, _ = ref.play_trick(trick, trump)
        tricks[plays[i + best][0]] += 1
        won[plays[i + best][0]] += trick
    for i, (s, c) in enumerate(plays):
        led = plays[i - i % 3][1][1]
        if i % 3 and c[1] != led:
            voids.add((s, led))
            if i >= done and trump is None:
                trump = c[1]  # set in the trick in progress
    points = [ref.card_points(w, trump) for w in won]
    trick = [c for _, c in plays[done:]]
    pos, left = len(trick), 12 - len(plays) // 3
    led = trick[0][1] if trick else None
    best = 0
    for j, c in enumerate(trick):
        if ref.beats(c, trick[best], led, trump):
            best = j
    win_seat = plays[done + best][0] if trick else -1
    win_tricks, win_pts = (tricks[win_seat], points[win_seat]) if trick else (0, 0)
    trick_pts = ref.card_points(trick, trump)
    unseen = set(ref.DECK) - {c for _, c in plays} - set(hand)
    taken, mine = tricks[seat], points[seat]
    lo, hi = (
        min(points[(seat + 1) % 3], points[(seat + 2) % 3]),
        max(points[(seat + 1) % 3], points[(seat + 2) % 3]),
    )
    out = {}
    for card in ref.legal(hand, trick):
        lead, follow = int(pos == 0), int(pos > 0)
        sets = int(follow and trump is None and card[1] != led)
        tn = card[1] if sets else trump
        t = int(card[1] == tn)
        p = ref.card_points([card], tn)
        above = {x for x in ref.DECK if x[1] == card[1] and order(x, tn) > order(card, tn)}
        rank = order(card, tn)
        master = int(not above & unseen)
        suit = {x for x in hand if x[1] == card[1]}
        w = int(follow and ref.beats(card, trick[best], led, tn))
        last = int(pos == 2)
        gain = trick_pts + p
        no_trick = int(taken == 0)
        sweeping = int(taken == 12 - left and left < 12)
        top, bottom = int(mine > hi), int(mine < lo)
        middle = 1 - top - bottom
        nobody = int(follow and win_tricks == 0)
        lose = follow * (1 - w)
        disc = int(follow and card[1] != led and not t)
        jn = sum(1 for x in hand if x[1] == card[1] and x[0] in "J9")
        next_void = int(((seat + 1) % 3, card[1]) in voids or ((seat + 2) % 3, card[1]) in voids)
        f = [
            int(card == heuristic), w, w * last, w * no_trick, w * sweeping, w * int(mine + gain > 100),
            w * gain * top, w * gain * middle, w * gain * bottom, w * int(lo < mine + gain < hi),
            w * int(mine + gain > hi), w * nobody, w * t, w * rank, w * left,
            lose * p, lose * last * p, lose * nobody, lose * int(win_pts + gain > 100),
            sets, sets * len(suit), sets * jn, sets * rank,
            lead * master, lead * master * p, lead * p, lead * len(suit), lead * rank, lead * t, lead * next_void,
            lead * sum(1 for x in unseen if x[1] == card[1]), lead * master * no_trick, lead * master * top,
            lead * t * int(any(x[1] == card[1] for x in unseen)),
            p, t, master, rank, len(suit), int(suit - {card} <= above), int(not suit & above),
            disc, disc * p, disc * len(suit), t * left, w * gain, w * no_trick * left,
        ]  # fmt: skip
        out[card] = f
    return out


def test_features_match_a_plain_computation():
    """At every play of a few traced deals, the kernel's features of each legal card equal the plain
    computation, and the learned seats played the card of the highest score."""
    weights = L.shipped_weights()
    checked = sets = 0
    for line in traces(8, 2, "learned,heuristic,learned"):
        for deal in line["deals"]:
            hands = [set(h) for h in deal["hands"]]
            plays = []
            for play in deal["plays"]:
                seat = play["seat"]
                view = {
                    "me": seat,
                    "hand": C.mask_of([C.parse(c, 36) for c in hands[seat]]),
                    "plays": [(s, C.parse(c, 36)) for s, c in plays],
                }
                cards, feats, card = L.view_features(view, weights)
                cards_played = np.array([c for _, c in view["plays"]], np.int64)
                who = np.array([s for s, _ in view["plays"]], np.int64)
                heuristic = C.code(
                    int(k.view_card(np.uint64(view["hand"]), cards_played, who, len(who), seat))
                )
                want = reference_features(hands[seat], plays, seat, heuristic)
                got = {C.code(c): f.tolist() for c, f in zip(cards, feats)}
                assert got == want, {
                    c: [FEATURES[i] for i, (x, y) in enumerate(zip(got[c], want[c])) if x != y] for c in got
                }
                if seat != 1:
                    assert C.code(card) == play["card"]
                    if len(cards) > 1:
                        assert C.code(cards[int(np.argmax(feats @ weights))]) == play["card"]
                sets += sum(f[FEATURES.index("sets_trump")] for f in want.values())
                hands[seat].discard(play["card"])
                plays.append((seat, play["card"]))
                checked += 1
    assert checked == 2 * 12 * 36 and sets > 20


def test_weights_reach_the_kernels_as_data(tmp_path):
    """The spec's params end with the shipped weights; a file written from them reloads to the same games,
    other weights play other games, and weights of the heuristic's card alone play the heuristic's games."""
    weights = L.shipped_weights()
    params = SPEC.params(SPEC.settings({}))
    assert len(weights) == len(FEATURES) and (params[k.P_WEIGHTS :] == weights).all()
    path = tmp_path / "w.csv"
    path.write_text(L.weights_text(weights, ["test"]))
    assert (L.read_weights(path) == weights).all()

    def rows(w, policy="learned"):
        p = np.concatenate([params[: k.P_WEIGHTS], w])
        out, nrows = k.simulate(3, 0, 40, 3, p, E.parse_policy(policy))
        assert (nrows == k.ROWS_PER_GAME).all()
        return out

    assert (rows(L.read_weights(path)) == rows(weights)).all()
    assert not np.array_equal(rows(-weights), rows(weights))
    only = np.zeros(len(FEATURES), np.int64)
    only[FEATURES.index("heuristic")] = 1
    assert (rows(only) == rows(weights, "heuristic")).all()
    assert not np.array_equal(rows(weights), rows(weights, "heuristic"))
    assert (E.simulate_block(3, 0, 40, 3, params, E.parse_policy("learned")) == rows(weights)).all()


def test_odds_play_the_learned_player():
    """Hand odds with the learned player play the shipped weights (``odds_given``'s default, the one
    ``cardmc odds`` plays), and the heuristic's games with weights of the heuristic's card alone."""
    fixed = np.zeros(3, np.uint64)
    fixed[1] = C.parse_hand(SPEC.example.hand, 12, 36)
    only = np.zeros(len(FEATURES), np.int64)
    only[FEATURES.index("heuristic")] = 1
    learned = k.odds_given(2, 0, 400, fixed, 1, 0, k.LEARNED)
    assert (learned == k.odds_given(2, 0, 400, fixed, 1, 0, k.LEARNED, L.shipped_weights())).all()
    heuristic = k.odds_given(2, 0, 400, fixed, 1, 0, k.HEURISTIC)
    assert (k.odds_given(2, 0, 400, fixed, 1, 0, k.LEARNED, only) == heuristic).all()
    assert not np.array_equal(learned, heuristic)
    odds = cardmc.odds("english_jazz", SPEC.example.hand, games=2000, policy="learned")
    mean = k.odds_given(0, 0, 2000, fixed, 1, 0, k.LEARNED)[:, 3].astype(float).mean()
    assert odds["deals"] == 2000 and odds.tables["summary"].loc["expected_score", "estimate"] == mean


def test_advise_names_the_learned_players_traced_card(tmp_path):
    path = tmp_path / "learned.jsonl"
    cardmc.trace("english_jazz", games=1, seed=13, policy="learned", out=str(path))
    (line,) = [json.loads(x) for x in path.read_text().splitlines()]
    turns = [
        (j, n)
        for j, deal in enumerate(line["deals"], 1)
        for n, turn in enumerate(deal["plays"], 1)
        if len(turn["legal"]) > 1 and n <= 24
    ]
    checked = differs = 0
    for deal, card in turns[:: max(1, len(turns) // 60)]:
        a = cardmc.advise(
            "english_jazz",
            trace=str(path),
            game_index=0,
            deal=deal,
            card=card,
            samples=1,
            most_tricks=1,  # no search: the policies' cards only
            policy="learned,heuristic",
        )
        assert a.policies["learned"] == a.traced["card"], (deal, card)
        differs += a.policies["heuristic"] != a.traced["card"]
        checked += 1
    assert checked >= 50 and differs >= 5, (checked, differs)  # the learned card, not the heuristic's


def test_training_is_reproducible(tmp_path):
    """A tiny training twice, with different threads, writes the same file byte for byte."""
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    done = train("english_jazz", 30, seed=4, out=a, depth=3, samples=2, threads=1)
    train("english_jazz", 30, seed=4, out=b, depth=3, samples=2, threads=2)
    assert a.read_bytes() == b.read_bytes() and done["decisions"] == 30
    assert a.read_text().startswith(
        "# cardmc train english_jazz --decisions 30 --seed 4 --depth 3 --samples 2\n"
    )
    assert len(L.read_weights(a)) == len(FEATURES)
    assert "\n# refined by play: 4 sweeps, 30 games of seed 1004 a seating" in a.read_text()
    with pytest.raises(E.UsageError, match="exists"):
        train("english_jazz", 30, seed=4, out=a, depth=3, samples=2)


def test_the_refinement_measures_the_learned_player_against_the_heuristic():
    """Weights of the heuristic's card alone play the heuristic: 0 exactly; the shipped weights beat it on
    games the refinement did not play; a refinement keeps only moves that gain."""
    params = SPEC.params(SPEC.settings({}))
    only = np.zeros(len(FEATURES), np.int64)
    only[FEATURES.index("heuristic")] = 1
    assert L.versus_heuristic(only, 3, 60, params) == 0.0
    assert L.versus_heuristic(L.shipped_weights(), 0, 400, params) > 0.2
    weights, before, after = L.refine(only, 3, 20, params)
    assert before == 0.0 and after >= before and after == L.versus_heuristic(weights, 3, 20, params)
    assert (after > 0) == (not np.array_equal(weights, only))


@pytest.mark.parametrize(
    "argv",
    [
        ["train", "english_jazz", "--decisions", "0"],
        ["train", "english_jazz", "--depth", "13"],
        ["train", "english_jazz", "--samples", "0"],
        ["train", "english_jazz", "--out", "/nonexistent/folder/w.csv"],
    ],
)
def test_train_bad_input_exits_2(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        raise SystemExit(cli.main(argv))
    assert exc.value.code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
