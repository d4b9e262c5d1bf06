"""Exhaustive minimax over small endgames of the trick games, in plain Python.

Legality, trick winners and card values come only from the plain-Python
reference rules beside this file. A position is the hands (sets of card
codes per seat), the cards of the trick in progress, its leader, the trump
(English Jazz: None until set by play) and whether the counted seats and the
others have won a trick this deal. Every line of play is tried (results are
memoised on the whole position, which changes nothing but the speed).
"""

from __future__ import annotations

from functools import lru_cache

from tests.reference import differenzler as D
from tests.reference import english_jazz as E
from tests.reference import norwegian_jazz as N
from tests.reference import schieber as S


def rules(game: str, param):
    """(legal(hand, trick, trump), end(trick, trump, last) -> (winner pos, value, trump after))."""
    if game == "schieber":

        def end(trick, trump, last):
            pts = sum(S.card_points(c, param) for c in trick) + (5 if last else 0)
            return S.trick_winner(list(trick), param), pts, trump

        return (lambda hand, trick, trump: S.legal(hand, list(trick), param)), end
    if game == "differenzler":

        def end(trick, trump, last):
            pts = sum(D.points(c, param) for c in trick) + (5 if last else 0)
            return D.trick_winner(list(trick), param), pts, trump

        return (lambda hand, trick, trump: D.legal(set(hand), list(trick), param)), end
    if game == "english_jazz":

        def end(trick, trump, last):
            w, after, _ = E.play_trick(list(trick), trump)
            return w, 1, after

        return (lambda hand, trick, trump: E.legal(hand, list(trick))), end

    def end(trick, trump, last):
        return N.trick_winner(list(trick)), N.penalty_units(param, list(trick), last), trump

    return (lambda hand, trick, trump: N.trick_legal(hand, list(trick))), end


def searcher(game: str, param, n: int, max_side: set[int], counted: set[int], utility, bonus: int = 0):
    """``go(hands, trick, leader, trump, counted_won, other_won, acc)``: the
    utility of the counted seats' total (``acc`` so far plus their trick
    values from here on, +bonus for taking every trick of the deal, -bonus for
    none) that the seats in ``max_side`` can make sure of, the others
    minimising it; and ``step(...)``: the position after one card, with the gain."""
    legal, end = rules(game, param)

    def step(hands, trick, leader, trump, cw, ow, acc, p, c):
        hs = tuple(h - {c} if s == p else h for s, h in enumerate(hands))
        t = trick + (c,)
        if len(t) < n:
            return hs, t, leader, trump, cw, ow, acc
        last = not any(hs)
        w, v, after = end(t, trump, last)
        ws = (leader + w) % n
        cw2, ow2 = cw or ws in counted, ow or ws not in counted
        gain = v if ws in counted else 0
        if last and not ow2:
            gain += bonus
        if last and not cw2:
            gain -= bonus
        return hs, (), ws, after, cw2, ow2, acc + gain

    @lru_cache(maxsize=None)
    def go(hands, trick, leader, trump, cw, ow, acc):
        if not any(hands):
            return utility(acc)
        p = (leader + len(trick)) % n
        results = [
            go(*step(hands, trick, leader, trump, cw, ow, acc, p, c))
            for c in sorted(legal(hands[p], trick, trump))
        ]
        return max(results) if p in max_side else min(results)

    return go, step, legal


def minimax(
    game: str,
    param,
    hands,
    trick,
    leader: int,
    trump,
    counted_won: bool,
    other_won: bool,
    max_side: set[int],
    counted: set[int],
    utility,
    bonus: int = 0,
):
    """(the minimax value of the position for the counted seats (see
    ``searcher``), a dict of the value after each legal card of the seat to play)."""
    n = len(hands)
    go, step, legal = searcher(game, param, n, set(max_side), set(counted), utility, bonus)
    root = (tuple(frozenset(h) for h in hands), tuple(trick), leader, trump, counted_won, other_won, 0)
    p = (leader + len(trick)) % n
    each = {c: go(*step(*root, p, c)) for c in sorted(legal(root[0][p], root[1], trump))}
    return go(*root), each


def sevens_minimax(hands, table, to_play: int, seat: int, bonus: int, pass_cost: int) -> tuple[int, dict]:
    """Sevens to the first player out: (the score ``seat`` can be sure of
    from here, ``bonus`` for going out first and -``pass_cost`` a pass, the
    others minimising it; the same after each move of the seat to play,
    ``"pass"`` when it has no legal card)."""
    n = len(hands)

    @lru_cache(maxsize=None)
    def go(hands, table, p):
        results = [v for _, v in moves(hands, table, p)]
        return max(results) if p == seat else min(results)

    def moves(hands, table, p):
        legal = sorted(N.sevens_legal(hands[p], table))
        if not legal:
            return [("pass", go(hands, table, (p + 1) % n) - (pass_cost if p == seat else 0))]
        out = []
        for c in legal:
            h = hands[p] - {c}
            if not h:
                out.append((c, bonus if p == seat else 0))
                continue
            hs = tuple(h if s == p else hands[s] for s in range(n))
            out.append((c, go(hs, table | {c}, (p + 1) % n)))
        return out

    root = (tuple(frozenset(h) for h in hands), frozenset(table), to_play)
    return go(*root), dict(moves(*root))


def english_jazz_score(hands, plays, first_leader: int, me: int) -> tuple[int, dict]:
    """English Jazz: (the deal score ``me`` (to play) can be sure of, the
    other two playing together against it; the same after each of its legal
    cards). ``plays``: the deal's cards played so far in order, the first
    trick led by ``first_leader``; ``hands``: the hands now."""
    n = E.PLAYERS
    won = [[] for _ in range(n)]
    tricks = [0] * n
    leader, trump = first_leader, None
    done = len(plays) // n * n
    for t in range(0, done, n):
        w, trump, _ = E.play_trick(list(plays[t : t + n]), trump)
        ws = (leader + w) % n
        won[ws] += plays[t : t + n]
        tricks[ws] += 1
        leader = ws

    @lru_cache(maxsize=None)
    def go(hands, trick, leader, trump, won, tricks):
        if len(trick) == n:
            w, after, _ = E.play_trick(list(trick), trump)
            ws = (leader + w) % n
            won = tuple(frozenset(x | set(trick)) if s == ws else x for s, x in enumerate(won))
            tricks = tuple(x + (s == ws) for s, x in enumerate(tricks))
            if not any(hands):
                points = [E.card_points(won[s], after) for s in range(n)]
                return E.deal_score(list(tricks), points)[1][me]
            return go(hands, (), ws, after, won, tricks)
        return value(moves(hands, trick, leader, trump, won, tricks), (leader + len(trick)) % n)

    def moves(hands, trick, leader, trump, won, tricks):
        p = (leader + len(trick)) % n
        out = {}
        for c in sorted(E.legal(hands[p], list(trick))):
            hs = tuple(h - {c} if s == p else h for s, h in enumerate(hands))
            # trump as the card sets it: play_trick sets it again when the trick ends
            out[c] = go(hs, trick + (c,), leader, trump, won, tricks)
        return out

    def value(each, p):
        return max(each.values()) if p == me else min(each.values())

    root = (
        tuple(frozenset(h) for h in hands),
        tuple(plays[done:]),
        leader,
        trump,
        tuple(frozenset(x) for x in won),
        tuple(tricks),
    )
    each = moves(*root)
    return value(each, me), each
