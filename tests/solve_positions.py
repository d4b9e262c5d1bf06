"""Random positions of the trick games for the solver tests, made with the reference rules."""

from __future__ import annotations

import random

from tests.reference import minimax as M
from tests.reference import norwegian_jazz as N

DECK36 = [r + s for s in "CDHS" for r in "6789TJQKA"]
SCHIEBER_CONTRACTS = ("C", "D", "H", "S", "obenabe", "undenufe")
FULL = {"schieber": 9, "differenzler": 9, "english_jazz": 12}


def players_of(game: str, rng: random.Random) -> int:
    return {"schieber": 4, "differenzler": 4, "english_jazz": 3}.get(game) or rng.randint(3, 7)


def random_position(game: str, rng: random.Random, m: int, n: int | None = None) -> dict:
    """``m`` cards a hand, a random trick in progress (legal cards), a random
    contract or trump, tricks and points so far."""
    n = n or players_of(game, rng)
    if game == "schieber":
        param, trump = rng.choice(SCHIEBER_CONTRACTS), None
    elif game == "differenzler":
        param, trump = rng.choice("CDHS"), None
    elif game == "english_jazz":
        param, trump = None, rng.choice([None, None, "C", "D", "H", "S"])
    else:
        param, trump = rng.randint(1, 5), None
    deck = sorted(N.adjusted_deck(n)) if game == "norwegian_jazz" else DECK36
    full = FULL.get(game) or N.HAND_SIZE[n]
    cards = rng.sample(deck, n * m)
    hands = [set(cards[i * m : (i + 1) * m]) for i in range(n)]
    leader = rng.randrange(n)
    legal, end = M.rules(game, param)
    trick: list[str] = []
    for i in range(rng.randrange(n)):
        p = (leader + i) % n
        c = rng.choice(sorted(legal(hands[p], trick, trump)))
        hands[p].remove(c)
        trick.append(c)
    taken = [0] * n
    for _ in range(full - m):
        taken[rng.randrange(n) if rng.random() < 0.7 else 0] += 1
    points = [rng.randint(0, 30) if taken[s] else 0 for s in range(n)]
    return dict(
        game=game,
        n=n,
        param=param,
        trump=trump,
        hands=hands,
        trick=trick,
        leader=leader,
        to_play=(leader + len(trick)) % n,
        taken=taken,
        points=points,
        seat=rng.randrange(n),
    )


def api_args(pos: dict) -> dict:
    """The keyword arguments of ``cardmc.solve.solve`` for ``pos``."""
    g = pos["game"]
    contract = pos["trump"] if g == "english_jazz" else pos["param"]
    return dict(
        hands=[" ".join(sorted(h)) for h in pos["hands"]],
        trick=list(pos["trick"]),
        to_play=pos["to_play"],
        contract=contract,
        seat=None if g == "schieber" else pos["seat"],
        taken=pos["taken"],
        points=pos["points"],
    )


def reference(pos: dict, max_side, counted, utility=lambda x: x, bonus=0):
    """The reference minimax of ``pos``: (value, value after each legal card)."""
    cw = any(pos["taken"][s] for s in counted)
    ow = any(pos["taken"][s] for s in range(pos["n"]) if s not in counted)
    return M.minimax(
        pos["game"],
        pos["param"],
        pos["hands"],
        pos["trick"],
        pos["leader"],
        pos["trump"],
        cw,
        ow,
        set(max_side),
        set(counted),
        utility,
        bonus,
    )
