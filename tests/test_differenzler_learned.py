"""Differenzler's learned player: legal play, its features against a plain-Python computation, its
declarations by its own table, the weights and the table as data, its advice, and cardmc train
(reproducible, bad input)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import cardmc
from cardmc import cli, learning
from cardmc import differenzler as D
from cardmc import differenzler_learned as L
from cardmc.calibrate import calibrate
from cardmc.kernels import cards as C
from cardmc.kernels import differenzler as k
from cardmc.kernels.differenzler_learned import FEATURES
from cardmc.train import train
from tests.reference import differenzler as ref

SPEC = D.SPEC


def traces(seed, games, policy):
    settings = SPEC.settings({})
    return [D.trace_game(seed, i, 4, settings, policy) for i in range(games)]


@pytest.mark.parametrize("policy", ["learned", "learned,calibrated,learned,random", "learned:calibrated"])
def test_learned_plays_legal_cards(policy):
    plays = 0
    for line in traces(5, 12, policy):
        assert ref.audit(line) == []
        plays += sum(len(d["plays"]) for d in line["deals"])
    assert plays > 1000


def above(card, trump):
    """The cards of ``card``'s suit that beat it."""
    order = ref.TRUMP_ORDER if card[1] == trump else ref.PLAIN_ORDER
    return {r + card[1] for r in order[order.index(card[0]) + 1 :]}


def reference_features(hand, plays, seat, trump, declared, heuristic):
    """Each legal card's features from the seat's view, written from the features' definitions
    (``heuristic``: the heuristic's card there)."""
    deck = {r + s for r in ref.PLAIN_ORDER for s in "CDHS"}
    played = {c for _, c in plays}
    unseen = deck - played - set(hand)
    made = 0
    done = len(plays) - len(plays) % 4
    for t in range(0, done, 4):
        trick = [c for _, c in plays[t : t + 4]]
        if plays[t + ref.trick_winner(trick, trump)][0] == seat:
            made += sum(ref.points(c, trump) for c in trick) + (5 if t == 32 else 0)
    trick = [c for _, c in plays[done:]]
    n, left = len(trick), 9 - len(plays) // 4
    led = trick[0][1] if trick else None
    pot = sum(ref.points(c, trump) for c in trick) + (5 if left == 1 else 0)
    need = declared - made
    rest = (5 if left > 1 else 0) + sum(ref.points(c, trump) for c in unseen | set(hand))
    hungry = 4 * need - rest - pot
    out = {}
    for card in ref.legal(set(hand), trick, trump):
        p = ref.points(card, trump)
        t = int(card[1] == trump)
        lead, follow = int(n == 0), int(n > 0)
        w = int(n > 0 and ref.beats(card, trick[ref.trick_winner(trick, trump)], led, trump))
        higher = above(card, trump)
        beaters = higher | ({x for x in deck if x[1] == trump} if not t else set())
        bo, ho = len(beaters & unseen), len(higher & unseen)
        rank = 8 - len(higher)
        sure = int((lead or w) and (n == 3 or bo == 0))
        taken = pot + p
        gain = abs(need) - abs(need - taken)
        short = int(need > 0)
        suit_cards = {x for x in hand if x[1] == card[1]}
        disc = int(follow and card[1] != led and not t)
        h = int(card == heuristic)
        ms = int(bo == 0)
        out[card] = [
            h, h * (left - 1), lead, w, sure, sure * gain, w * (1 - sure) * gain, w * need, lead * need, t * need,
            p, p * (1 - short), follow * (1 - w) * p, follow * (1 - w) * p * short, t, lead * t, bo, ho, lead * bo,
            w * int(n == 3), w * int(left == 1), len(suit_cards), int(suit_cards - {card} <= higher),
            int(not suit_cards & higher), disc, disc * p, t * sum(1 for x in hand if x[1] == trump), w * left,
            sure * pot, w * (1 - short) * taken, follow * (1 - w) * rank, w * rank, t * left, lead * short * gain,
            w * short * need, w * (1 - short) * -need, sure * max(need - taken, 0), sure * max(taken - need, 0),
            ms, ms * short, ms * short * p, sure * gain * left, w * hungry, lead * ms * hungry,
        ]  # fmt: skip
    return out


def test_features_match_a_plain_computation():
    """At every play of a few traced deals, the kernel's features of each legal card equal the plain
    computation, and the learned seats played the card of the highest score."""
    weights = L.shipped_weights()
    checked = scored = differs = 0
    for line in traces(8, 3, "learned,calibrated,learned,calibrated"):
        for deal in line["deals"]:
            trump = deal["trump"]
            hands = [set(h) for h in deal["hands"]]
            plays = []
            for play in deal["plays"]:
                seat = play["seat"]
                view = {
                    "me": seat,
                    "hand": C.mask_of([C.parse(c, 36) for c in hands[seat]]),
                    "plays": [(s, C.parse(c, 36)) for s, c in plays],
                    "contract": "CDHS".index(trump),
                    "declared": deal["declared"][seat],
                }
                cards, feats, card = L.view_features(view, weights)
                heuristic = C.code(k.view_card(
                    np.uint64(view["hand"]),
                    np.array([c for _, c in view["plays"]] or [0], np.int64),
                    np.array([s for s, _ in view["plays"]] or [0], np.int64),
                    len(plays), view["contract"], view["declared"], seat,
                ))  # fmt: skip
                want = reference_features(hands[seat], plays, seat, trump, deal["declared"][seat], heuristic)
                got = {C.code(c): f.tolist() for c, f in zip(cards, feats)}
                assert got == want, {
                    c: [FEATURES[i] for i, (x, y) in enumerate(zip(got[c], want[c])) if x != y] for c in got
                }
                if seat % 2 == 0:
                    assert C.code(card) == play["card"]
                    if len(cards) > 1:
                        scores = feats @ weights
                        assert C.code(cards[int(np.argmax(scores))]) == play["card"]
                        scored += 1
                        differs += play["card"] != heuristic
                hands[seat].discard(play["card"])
                plays.append((seat, play["card"]))
                checked += 1
    assert checked > 300 and scored > 100 and differs > 10


def test_learned_declares_by_its_own_table():
    """A learned seat declares its table's cell (the heuristic formula where the table has none), the
    table the spec appends to params, not the calibrated one."""
    params = SPEC.params(SPEC.settings({}))
    table = params[k.P_LEARNED_TABLE :]
    assert len(table) == k.CAL_CELLS and (table == L.shipped_calibration()).all() and (table >= 0).any()
    assert not np.array_equal(table, D.calibration_table())
    for line in traces(2, 4, "learned,calibrated,learned,heuristic"):
        for deal in line["deals"]:
            trump = "CDHS".index(deal["trump"])
            for seat in (0, 2):
                hand = np.uint64(C.mask_of([C.parse(c, 36) for c in deal["hands"][seat]]))
                rel = (seat - deal["dealer"]) % 4
                cell = table[k.calibration_cell(rel, hand, trump)]
                want = cell if cell >= 0 else k.heuristic_declaration(rel, hand, trump)
                assert deal["declared"][seat] == want


def test_weights_and_table_reach_the_kernels_as_data(tmp_path):
    """The spec's params end with the shipped weights and table; a weights file written from them reloads
    to the same games, and other weights or another table play other games."""
    weights = L.shipped_weights()
    params = SPEC.params(SPEC.settings({}))
    assert len(weights) == len(FEATURES) and (params[k.P_WEIGHTS : k.P_LEARNED_TABLE] == weights).all()
    path = tmp_path / "w.csv"
    path.write_text(L.weights_text(weights, ["test"]))
    assert (L.read_weights(path) == weights).all()

    def rows(w, table=params[k.P_LEARNED_TABLE :]):
        p = np.concatenate([params[: k.P_WEIGHTS], w, table])
        out, spans = k.simulate(3, 0, 40, 4, p, D.parse_policy("learned"), D.calibration_table())
        return D.join_spans(out, spans)

    assert (rows(L.read_weights(path)) == rows(weights)).all()
    assert not np.array_equal(rows(-weights), rows(weights))
    assert not np.array_equal(rows(weights, np.full(k.CAL_CELLS, 50)), rows(weights))
    assert (D.simulate_block(3, 0, 40, 4, params, D.parse_policy("learned")) == rows(weights)).all()
    bare = params[: k.P_WEIGHTS]  # without the tail, learned seats play and declare as the heuristic
    plain = D.simulate_block(3, 0, 40, 4, bare, D.parse_policy("heuristic"))
    as_heuristic = D.simulate_block(3, 0, 40, 4, bare, D.parse_policy("learned"))
    cols = [i for i, c in enumerate(k.COLUMNS) if c not in ("play_policy", "declare_policy")]
    assert (plain[:, cols] == as_heuristic[:, cols]).all()


def test_calibrate_fits_the_learned_players_table(tmp_path):
    out = calibrate(games=2000, seed=4, rounds=2, out=tmp_path / "t.csv", progress=False, policy="learned")
    text = out.read_text()
    assert text.splitlines()[1].startswith(
        '# cardmc.calibrate.calibrate(policy="learned", games=2000, seed=4)'
    )
    assert (D.read_calibration(out) >= 0).any()
    params = SPEC.params(SPEC.settings({}))
    table = L.declaration_table(L.shipped_weights(), params, 2000, 4, 2)  # the fit train refits with
    assert (table == D.read_calibration(out)).all()
    heuristic = calibrate(games=2000, seed=4, rounds=2, out=tmp_path / "h.csv", progress=False)
    assert heuristic.read_text() != text
    with pytest.raises(D.UsageError, match="learned"):
        calibrate(games=2000, out=tmp_path / "x.csv", progress=False, policy="pimc")


def test_advice_names_the_learned_card_and_declaration(tmp_path):
    """Advice from a traced learned game names the card the learned seat played, and at the deal's start its
    declaration."""
    path = tmp_path / "learned.jsonl"
    cardmc.trace("differenzler", games=1, seed=13, policy="learned", out=str(path))
    line = json.loads(path.read_text().splitlines()[0])
    checked = differs = 0
    for d, deal in enumerate(line["deals"][:2], 1):
        for c, turn in enumerate(deal["plays"], 1):
            if len(turn["legal"]) < 2:
                continue
            a = cardmc.advise(
                "differenzler",
                trace=str(path),
                game_index=0,
                deal=d,
                card=c,
                samples=2,
                most_tricks=1,  # no search before the last trick: the policies' cards
                policy="learned,calibrated",
            )
            assert a.policies["learned"] == a.traced["card"], (d, c)
            differs += a.policies["calibrated"] != a.traced["card"]
            checked += 1
    assert checked >= 40 and differs >= 3, (checked, differs)
    deal = line["deals"][0]
    seat = (deal["dealer"] + 1) % 4
    a = cardmc.advise(
        "differenzler",
        hand=" ".join(deal["hands"][seat]),
        seat=seat,
        dealer=deal["dealer"],
        trump_card=deal["trump_card"],
        policy="learned,calibrated",
        samples=200,
    )
    assert a.decision == "declaration" and a.policies["learned"] == str(deal["declared"][seat])


def test_versus_calibrated_is_the_ladders_figure():
    """The refinement's figure is the ladder's learned minus calibrated on the same games; weights that
    play only the heuristic's card, declaring by the calibrated table, play as calibrated: exactly 0."""
    params = SPEC.params(SPEC.settings({}))
    got = L.versus_calibrated(L.shipped_weights(), 6, 300, params)
    t = cardmc.ladder("differenzler", ["calibrated", "learned"], games=300, seed=6, timed=False)
    assert got == pytest.approx(float(t["estimate"].iloc[0]), abs=1e-12) and got < 0
    heuristic = np.zeros(len(FEATURES), np.int64)
    heuristic[FEATURES.index("heuristic")] = 1000
    as_calibrated = np.concatenate([params[: k.P_LEARNED_TABLE], D.calibration_table()])
    assert L.versus_calibrated(heuristic, 6, 300, as_calibrated) == 0.0
    assert L.versus_calibrated(heuristic, 6, 300, params) != 0.0  # the learned table declares otherwise
    assert L.versus_calibrated(-L.shipped_weights(), 6, 300, params) > 5


def test_versus_field_is_the_worse_margin_from_the_ladders_figures():
    """The refinement's objective from the ladder's three figures on the same games: the worse of learned
    minus calibrated and (learned minus heuristic) minus (calibrated minus heuristic), the heuristic playing
    and declaring by its formula."""
    params = SPEC.params(SPEC.settings({}))
    weights = L.shipped_weights()
    t = cardmc.ladder("differenzler", ["heuristic", "calibrated", "learned"], games=300, seed=6, timed=False)
    calibrated = float(t["estimate"].loc[("penalty", "learned", "calibrated")])
    heuristic = float(t["estimate"].loc[("penalty", "learned", "heuristic")])
    bar = float(t["estimate"].loc[("penalty", "calibrated", "heuristic")])
    assert L.calibrated_versus_heuristic(6, 300, params) == pytest.approx(bar, abs=1e-12)
    field, *each = L.versus_field(weights, 6, 300, params, bar)
    assert each == pytest.approx([calibrated, heuristic], abs=1e-12)
    assert field == pytest.approx(max(calibrated, heuristic - bar), abs=1e-12) and field < 0
    assert L.versus_heuristic(weights, 6, 300, params) == pytest.approx(heuristic, abs=1e-12)
    codes = D.parse_policy("calibrated,heuristic,learned,learned")
    assert [tuple(x) for x in codes[1:]] == [L.HEURISTIC, L.LEARNED, L.LEARNED] and tuple(
        codes[0]
    ) == L.CALIBRATED
    heuristic_play = np.zeros(len(FEATURES), np.int64)
    heuristic_play[FEATURES.index("heuristic")] = 1000  # the heuristic's card, declaring by its formula
    as_heuristic = np.concatenate([params[: k.P_LEARNED_TABLE], np.full(k.CAL_CELLS, -1)])
    assert L.versus_heuristic(heuristic_play, 6, 300, as_heuristic) == 0.0


def test_refinement_keeps_only_gaining_moves_and_is_reproducible(monkeypatch):
    """A pass of the coordinate search on a few seeded games moves the weights only where the figure
    gains by more than the margin; the refinement with its table refits gives the same result twice."""
    params = SPEC.params(SPEC.settings({}))
    start = L.shipped_weights()
    bar = L.calibrated_versus_heuristic(9, 200, params)

    def measure(w):
        return -L.versus_field(w, 9, 200, params, bar)[0]

    w, before, after = learning.refine(start, measure, range(len(FEATURES)), 1, L.STEP, L.MARGIN)
    assert before == measure(start) and after == measure(w)
    moved = np.flatnonzero(w != start)  # a pass moves a weight once, by half itself (at least STEP)
    assert len(moved) >= 1 and after > before + len(moved) * L.MARGIN  # each kept move gained the margin
    assert (abs(w - start)[moved] == np.maximum(L.STEP, abs(start[moved]) // 2)).all()
    monkeypatch.setattr(L, "SWEEPS", 2)
    monkeypatch.setattr(L, "TABLE_GAMES", 3000)
    a = L.refine(start, 9, 200, params)
    b = L.refine(start, 9, 200, params)
    assert (a[0] == b[0]).all() and (a[1] == b[1]).all() and a[2] == b[2] and len(a[2]) == 3
    p = np.concatenate([params[: k.P_WEIGHTS], a[0], a[1]])
    assert a[2][-1] == L.versus_field(
        a[0], 9, 200, p, bar
    )  # the last figures: the result under its own table
    assert not np.array_equal(a[0], start) and (a[1] >= 0).any()


def test_training_is_reproducible(tmp_path, monkeypatch):
    """A tiny training twice, with different threads, writes the same file byte for byte: the fit's head,
    then the refinement's line."""
    monkeypatch.setattr(L, "GAMES", 200)
    monkeypatch.setattr(L, "SWEEPS", 1)
    monkeypatch.setattr(L, "TABLE_GAMES", 3000)
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    done = train("differenzler", 30, seed=4, out=a, depth=3, samples=2, threads=1)
    train("differenzler", 30, seed=4, out=b, depth=3, samples=2, threads=2)
    assert a.read_bytes() == b.read_bytes() and done["decisions"] == 30
    head = [x for x in a.read_text().splitlines() if x.startswith("#")]
    assert head[0] == "# cardmc train differenzler --decisions 30 --seed 4 --depth 3 --samples 2"
    assert head[2].startswith("# refined by play: 1 sweeps, 200 games of seed 1004 a seating,")
    assert len(head) == 3 and len(L.read_weights(a)) == len(FEATURES)
    before, after = done["versus_field"]
    assert f"calibrated's own figure) {before:+.4f} -> {after:+.4f} a hand" in head[2]
    before, after = done["versus_calibrated"]
    assert f"; against calibrated {before:+.4f} -> {after:+.4f}, against heuristic " in head[2]
    with pytest.raises(D.UsageError, match="exists"):
        train("differenzler", 30, seed=4, out=a, depth=3, samples=2)


def test_shipped_weights_name_their_training():
    """The shipped file's head: the command that made it, the fit, and the refinement by play."""
    head = [x for x in L.weights_path().read_text().splitlines() if x.startswith("#")]
    assert head[0] == "# cardmc train differenzler --decisions 12000 --seed 1 --depth 5 --samples 4"
    assert head[2].startswith(f"# refined by play: {L.SWEEPS} sweeps, {L.GAMES} games of seed 1001 a seating")
    assert (
        "against the field (the worse margin over calibrated: head to head, and against heuristic" in head[2]
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["train", "differenzler", "--decisions", "0"],
        ["train", "differenzler", "--depth", "10"],
        ["train", "differenzler", "--samples", "-1"],
        ["train", "differenzler", "--out", "/nonexistent/folder/w.csv"],
    ],
)
def test_train_bad_input_exits_2(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        raise SystemExit(cli.main(argv))
    assert exc.value.code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_train_command_prints_the_refinement_against_calibrated(tmp_path, monkeypatch, capsys):
    """``cardmc train differenzler`` says what the refinement did: its figure against calibrated before and
    after, as the weights file's head line gives it."""
    monkeypatch.setattr(L, "GAMES", 200)
    monkeypatch.setattr(L, "SWEEPS", 1)
    monkeypatch.setattr(L, "TABLE_GAMES", 3000)
    out = tmp_path / "w.csv"
    argv = ["train", "differenzler", "--decisions", "30", "--seed", "4", "--depth", "3", "--samples", "2"]
    assert cli.main([*argv, "--out", str(out), "--no-progress"]) == 0
    printed = capsys.readouterr().out
    line = [x for x in out.read_text().splitlines() if x.startswith("# refined by play")][0]
    before, after = line.split("against calibrated ")[1].split(",")[0].split(" -> ")
    assert (
        f"refined by play, {float(before):+.3f} to {float(after):+.3f} penalty a hand against calibrated"
        in printed
    )
