"""Norwegian Jazz rules: the kernel against the plain-Python reference on
hand-built positions for every tricky rule and on random positions."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cardmc.kernels import norwegian_jazz as K
from cardmc.kernels import sevens as S
from cardmc.kernels.cards import code, parse
from cardmc.kernels.jit import jit
from tests.helpers import codes, mask
from tests.reference import norwegian_jazz as ref

RANDOM, HEURISTIC = 0, 1


def _events(n: int = 7) -> np.ndarray:
    return np.zeros((K.max_events(n), 4), np.int64)


def play_tricks(hands, number, policy=RANDOM, stream=0, leader=0, stop_early=True):
    """Run the kernel's trick deal on hand-built hands; returns a trace-like deal."""
    n = len(hands)
    h = np.array([mask(x) for x in hands], np.uint64)
    st = np.array([np.uint64(1234567 + 7919 * stream)], np.uint64)
    tricks = np.zeros(n, np.int64)
    taken = np.zeros(n, np.int64)
    ev = _events(n)
    turns, ne = K.play_trick_deal(
        h, leader, number, n, stop_early, np.full((n, 1), policy, np.int64), st, tricks, taken, ev, 0
    )
    plays = [{"seat": int(a), "legal": sorted(codes(c)), "card": code(int(b))} for _, a, b, c in ev[:ne]]
    assert turns == len(plays)
    return {
        "plays": plays,
        "tricks": tricks.tolist(),
        "taken": taken.tolist(),
        "score": (taken * K.UNIT_SCORE[number]).tolist(),
    }


def play_sevens(hands, table=(), policy=RANDOM, stream=0, leader=0, play_out=False):
    n = len(hands)
    h = np.array([mask(x) for x in hands], np.uint64)
    st = np.array([np.uint64(99991 + 31 * stream)], np.uint64)
    passes = np.zeros(n, np.int64)
    out = np.zeros(n, np.int64)
    ev = _events(n)
    turns, first, ne = S.play_sevens(
        h, mask(table), leader, n, play_out, np.full((n, 1), policy, np.int64), st, passes, out, ev, 0
    )
    plays = [
        {
            "seat": int(a),
            "legal": sorted(codes(c)) if b >= 0 else [],
            "card": code(int(b)) if b >= 0 else None,
        }
        for _, a, b, c in ev[:ne]
    ]
    assert turns == len(plays)
    return {
        "plays": plays,
        "passes": passes.tolist(),
        "first_out": int(first),
        "out_order": out.tolist(),
        "hands_after": [sorted(codes(x)) for x in h],
    }


def replay_tricks(hands, plays, leader=0):
    """Reference replay of trick plays: checks every legal set, returns tricks done."""
    n = len(hands)
    held = [set(x) for x in hands]
    done = []
    for t in range(len(plays) // n):
        trick = []
        for i in range(n):
            p = plays[t * n + i]
            assert p["seat"] == (leader + i) % n
            assert set(p["legal"]) == ref.trick_legal(held[p["seat"]], trick)
            held[p["seat"]].remove(p["card"])
            trick.append(p["card"])
        leader = (leader + ref.trick_winner(trick)) % n
        done.append((trick, leader))
    assert len(plays) % n == 0
    return done, held


# ------------------------------------------------------------ the deck table


@pytest.mark.parametrize(
    "players, removed, each",
    [
        (3, {"2D"}, 17),
        (4, set(), 13),
        (5, {"2D", "2H"}, 10),
        (6, {"2C", "2D", "2H", "2S"}, 8),
        (7, {"2D", "2H", "2S"}, 7),
    ],
)
def test_removed_twos_table(players, removed, each):
    size = int(K.ADJUSTED_SIZE[players])
    kernel_deck = {code(int(c)) for c in K.ADJUSTED[players, :size]}
    assert len(kernel_deck) == size == 52 - len(removed) == players * each
    assert ref.FULL_DECK - kernel_deck == removed == set(ref.REMOVED_TWOS[players])
    assert ref.HAND_SIZE[players] == each


# ------------------------------------------------------- each deal's penalty


@pytest.mark.parametrize(
    "number, trick, last, units",
    [
        (1, ["2S", "AS", "3H"], False, 1),
        (2, ["2C", "AC", "KD", "5C"], False, 3),
        (2, ["2D", "AD", "KD"], True, 0),
        (3, ["QS", "KS", "QH", "2S"], False, 2),
        (3, ["JS", "KS", "AH"], False, 0),
        (4, ["3C", "KC", "AC"], False, 1),
        (4, ["KD", "QC", "AC"], False, 0),
        (5, ["2S", "AS", "3H"], True, 1),
        (5, ["2S", "AS", "3H"], False, 0),
    ],
)
def test_penalty_units_of_one_trick(number, trick, last, units):
    assert ref.penalty_units(number, trick, last) == units
    assert K.trick_units(number, mask(trick), last) == units


FORCED = {  # deal number -> (hands of seats 0, 1, 2 with seat 0 leading, scores whatever is played)
    1: ([["AS", "AH"], ["2S", "2H"], ["3S", "3H"]], [-2, 0, 0]),
    2: ([["AC", "2D"], ["KC", "3D"], ["QC", "4D"]], [-3, 0, 0]),
    3: ([["AS", "2H"], ["QS", "3H"], ["KS", "QH"]], [-5, 0, -5]),
    4: ([["AC", "2D"], ["KC", "3D"], ["2C", "4D"]], [-15, 0, 0]),
    5: ([["AS", "AH"], ["KS", "KH"], ["QS", "QH"]], [-20, 0, 0]),
}


@pytest.mark.parametrize("number", [1, 2, 3, 4, 5])
def test_each_deal_scores_its_penalty(number):
    hands, want = FORCED[number]
    seen = set()
    for policy in (RANDOM, HEURISTIC):
        for stream in range(12 if policy == RANDOM else 1):
            for stop in (True, False):
                deal = play_tricks(hands, number, policy, stream, stop_early=stop)
                done, _ = replay_tricks(hands, deal["plays"])
                assert deal["score"] == want
                assert sum(deal["tricks"]) == len(done)
                seen.add(deal["plays"][0]["card"])
    assert seen == set(hands[0])  # both leads occurred


def test_a_full_deal_scores_by_the_reference():
    rnd = random.Random(4)
    for n in (3, 4, 5, 6, 7):
        deck = sorted(ref.adjusted_deck(n))
        for number in (1, 2, 3, 4, 5):
            rnd.shuffle(deck)
            size = ref.HAND_SIZE[n]
            hands = [deck[s * size : (s + 1) * size] for s in range(n)]
            deal = play_tricks(hands, number, RANDOM, number + 10 * n, stop_early=False)
            done, _ = replay_tricks(hands, deal["plays"])
            assert len(done) == size
            units = [0] * n
            tricks = [0] * n
            for t, (trick, winner) in enumerate(done):
                units[winner] += ref.penalty_units(number, trick, t == size - 1)
                tricks[winner] += 1
            assert deal["taken"] == units and deal["tricks"] == tricks
            clubs = sum(1 for c in deck if c[1] == "C")  # 12 with six players: 2C is out
            assert sum(units) == {1: size, 2: clubs, 3: 4, 4: 1, 5: 1}[number]


# ------------------------------------------------------ early stop, deals 2-4


@pytest.mark.parametrize("number", [2, 3, 4])
def test_deals_2_to_4_stop_after_the_last_penalty_card(number):
    hands, want = FORCED[number]
    lengths = set()
    for stream in range(16):
        deal = play_tricks(hands, number, RANDOM, stream, stop_early=True)
        done, held = replay_tricks(hands, deal["plays"])
        left = set().union(*held)
        assert not left & ref.PENALTY_CARDS[number]  # nothing left to take
        if len(done) > 1:  # it went on: the first trick left a penalty card in some hand
            first_left = set().union(*[set(h) for h in hands]) - set(done[0][0])
            assert first_left & ref.PENALTY_CARDS[number]
        lengths.add(len(deal["plays"]))
        assert deal["score"] == want
        full = play_tricks(hands, number, RANDOM, stream, stop_early=False)
        assert len(full["plays"]) == 6
        assert full["plays"][: len(deal["plays"])] == deal["plays"]
    if number != 3:
        assert lengths == {3, 6}  # both orders of play occurred


def test_deals_1_and_5_never_stop_early():
    hands = [["AC", "2D"], ["KC", "3D"], ["2C", "4D"]]
    for number in (1, 5):
        for stream in range(8):
            assert len(play_tricks(hands, number, RANDOM, stream, stop_early=True)["plays"]) == 6


def test_early_stop_with_many_tricks_left():
    # 4 players; every club sits in the first trick's cards: deal 2 ends after one trick
    hands = [["AC", "2D", "3D"], ["KC", "4D", "5D"], ["QC", "6D", "7D"], ["JC", "8D", "9D"]]
    deal = play_tricks(hands, 2, HEURISTIC, stop_early=True)
    lead = deal["plays"][0]["card"]
    if lead == "AC":
        assert len(deal["plays"]) == 4 and deal["score"] == [-4, 0, 0, 0]
    full = play_tricks(hands, 2, HEURISTIC, stop_early=False)
    assert full["score"] == deal["score"] and len(full["plays"]) == 12
    for stream in range(20):
        d = play_tricks(hands, 2, RANDOM, stream)
        if d["plays"][0]["card"] == "AC":
            assert len(d["plays"]) == 4 and d["score"] == [-4, 0, 0, 0]


# ----------------------------------------------------------------- sevens


def test_sevens_legal_by_hand():
    table = {"4C", "5C", "6C", "7C", "8C", "9C", "7H", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"}
    hand = {"3C", "TC", "2C", "JC", "7D", "6H", "8H", "2S", "6S", "5S", "AD"}
    want = {"3C", "TC", "7D", "6H", "8H", "6S"}
    assert ref.sevens_legal(hand, table) == want
    assert codes(mask(hand) & S.playable_of(mask(table))) == want
    assert codes(S.playable_of(np.uint64(0))) == {"7C", "7D", "7H", "7S"}
    full_row = {r + "S" for r in ref.RANKS}
    assert codes(S.playable_of(mask(full_row))) == {"7C", "7D", "7H"}


def test_sevens_passes_and_first_out_by_hand():
    # clubs 7..Q down, hearts 3..A, spades and diamonds complete; left: KC AC 2H
    table = ref.FULL_DECK - {"KC", "AC", "2H", "3H"}
    hands = [["KC", "AC"], ["2H"], ["3H"]]
    # seat 0 plays KC; seat 1 passes (2H waits for 3H); seat 2 plays 3H and is out first
    d = play_sevens(hands, table, RANDOM)
    assert [(p["seat"], p["card"]) for p in d["plays"]] == [(0, "KC"), (1, None), (2, "3H")]
    assert d["passes"] == [0, 1, 0] and d["first_out"] == 2 and d["out_order"] == [0, 0, 1]
    assert d["hands_after"] == [["AC"], ["2H"], []]  # play_out false: the deal ends here
    # play_out: seat 0 plays AC (out 2nd), seat 1 plays 2H (out 3rd)
    d = play_sevens(hands, table, RANDOM, play_out=True)
    seq = [(p["seat"], p["card"]) for p in d["plays"]]
    assert seq == [(0, "KC"), (1, None), (2, "3H"), (0, "AC"), (1, "2H")]
    assert d["passes"] == [0, 1, 0] and d["first_out"] == 2 and d["out_order"] == [2, 3, 1]


def test_play_out_skips_players_who_are_out_and_counts_later_passes():
    # seat 1 goes out at once; seat 0 holds 2H and must wait for seat 2's 4H, 3H
    table = ref.FULL_DECK - {"2H", "3H", "4H", "AS"}
    hands = [["2H"], ["AS"], ["4H", "3H"]]
    d = play_sevens(hands, table, RANDOM, leader=0, play_out=True)
    assert [(p["seat"], p["card"]) for p in d["plays"]] == [
        (0, None),
        (1, "AS"),
        (2, "4H"),
        (0, None),
        (2, "3H"),
        (0, "2H"),
    ]
    assert d["passes"] == [2, 0, 0] and d["first_out"] == 1 and d["out_order"] == [3, 1, 2]
    d = play_sevens(hands, table, RANDOM, leader=0, play_out=False)
    assert d["passes"] == [1, 0, 0] and len(d["plays"]) == 2


@pytest.mark.parametrize("bonus", [10, 80])
def test_sevens_score_with_both_bonus_values(bonus):
    from cardmc import norwegian_jazz as A

    for n in (3, 5):
        line = A.trace_game(3, 1, n, {"first_out_bonus": bonus}, "random")
        six = line["deals"][5]
        want = [-p + (bonus if s == six["first_out"] else 0) for s, p in enumerate(six["passes"])]
        assert six["score"] == want
        assert ref.audit(line) == []


def test_incremental_playable_matches_the_table():
    rnd = random.Random(8)
    for _ in range(300):
        table = 0
        playable = S.playable_of(np.uint64(0))
        while playable:
            card = rnd.choice(sorted(codes(playable)))
            table |= 1 << parse(card)
            playable = S.after_play(playable, parse(card))
            assert playable == S.playable_of(np.uint64(table))
        assert table == int(S.FULL52)


# --------------------------------------------------------- random positions

BIT = {ref_code: 1 << parse(ref_code) for ref_code in ref.FULL_DECK}
CODE = {b: c for c, b in BIT.items()}


def fast_mask(cards) -> int:
    return sum(BIT[c] for c in cards)


def fast_codes(m: int) -> set[str]:
    out = set()
    while m:
        low = m & -m
        out.add(CODE[low])
        m ^= low
    return out


@jit
def _kernel_batch(hands, leds, tricks, players, numbers, lasts, tables, holds):
    """The kernel's legal sets, trick winners, penalty units and sevens legal sets."""
    m = hands.size
    legal = np.empty(m, np.uint64)
    winner = np.empty(m, np.int64)
    units = np.empty(m, np.int64)
    sevens = np.empty(m, np.uint64)
    for i in range(m):
        legal[i] = K.trick_legal(hands[i], leds[i])
        winner[i] = K.trick_winner_pos(tricks[i], players)
        tm = np.uint64(0)
        for j in range(players):
            tm |= np.uint64(1) << np.uint64(tricks[i, j])
        units[i] = K.trick_units(numbers[i], tm, lasts[i])
        sevens[i] = holds[i] & S.playable_of(tables[i])
    return legal, winner, units, sevens


def _random_table(rnd):
    table = set()
    for s in ref.SUITS:
        if rnd.random() < 0.2:
            continue
        lo, hi = rnd.randint(0, 5), rnd.randint(5, 12)
        table |= {ref.RANKS[r] + s for r in range(lo, hi + 1)}
    return table


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_random_positions_against_the_reference(players):
    """10,000 positions per player count: follow-suit legal sets, trick
    winners, penalty units of every deal, and sevens legal sets."""
    rnd = random.Random(players)
    deck = sorted(ref.adjusted_deck(players))
    size = ref.HAND_SIZE[players]
    count = 10_000
    hands, leds, tricks, numbers, lasts, tables, holds = [], [], [], [], [], [], []
    positions = []
    for _ in range(count):
        rnd.shuffle(deck)
        hand = deck[:size]
        k = rnd.randrange(players)  # cards already in the trick
        trick = deck[size : size + k]
        full = deck[size : size + players]
        number, last = rnd.randint(1, 5), rnd.random() < 0.5
        table = _random_table(rnd)
        rest = sorted(ref.FULL_DECK - table)
        hold = rnd.sample(rest, min(len(rest), rnd.randint(1, 18)))
        positions.append((hand, trick, full, number, last, table, hold))
        hands.append(fast_mask(hand))
        leds.append(0 if not trick else 0xFFFF << (16 * "CDHS".index(trick[0][1])))
        tricks.append([parse(c) for c in full])
        numbers.append(number)
        lasts.append(last)
        tables.append(fast_mask(table))
        holds.append(fast_mask(hold))
    legal, winner, units, sevens = _kernel_batch(
        np.array(hands, np.uint64),
        np.array(leds, np.uint64),
        np.array(tricks, np.int64),
        players,
        np.array(numbers, np.int64),
        np.array(lasts),
        np.array(tables, np.uint64),
        np.array(holds, np.uint64),
    )
    for i, (hand, trick, full, number, last, table, hold) in enumerate(positions):
        assert fast_codes(int(legal[i])) == ref.trick_legal(hand, trick), (hand, trick)
        assert winner[i] == ref.trick_winner(full), full
        assert units[i] == ref.penalty_units(number, full, last), (number, full, last)
        assert fast_codes(int(sevens[i])) == ref.sevens_legal(hold, table), (hold, table)


def test_random_card_choice_selects_the_kth_card():
    from cardmc.kernels.bits import nth, nth_portable

    rnd = random.Random(12)
    for _ in range(3000):
        m = rnd.getrandbits(61) | 1
        k = rnd.randrange(bin(m).count("1"))
        assert (
            nth_portable(np.uint64(m), k) == nth(np.uint64(m), k) == [i for i in range(64) if m >> i & 1][k]
        )


def test_random_card_choice_as_a_bit_selects_the_kth_card():
    from cardmc.kernels.bits import FAST_PDEP, nth_bit, nth_bit_pdep, nth_bit_portable

    versions = [nth_bit, nth_bit_portable] + ([nth_bit_pdep] if FAST_PDEP else [])
    rnd = random.Random(13)
    for _ in range(3000):
        m = rnd.getrandbits(64) | 1
        k = rnd.randrange(bin(m).count("1"))
        want = 1 << [i for i in range(64) if m >> i & 1][k]
        assert all(int(f(np.uint64(m), k)) == want for f in versions), (m, k)
    assert all(int(f(np.uint64(0), 0)) == 0 for f in versions)  # no card: a pass in sevens


def test_random_choice_is_uniform_among_legal_cards():
    legal = mask(["2C", "9D", "KD", "7H", "AS"])
    st = np.array([np.uint64(2024)], np.uint64)
    draws = 20_000
    counts: dict[str, int] = {}
    for _ in range(draws):
        c = code(int(S.pick_random(legal, st)))
        counts[c] = counts.get(c, 0) + 1
    assert set(counts) == codes(legal)
    se = np.sqrt(draws * 0.2 * 0.8)
    assert all(abs(v - draws / 5) < 5 * se for v in counts.values()), counts
