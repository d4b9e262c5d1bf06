"""The search player ``pimc`` (perfect-information Monte Carlo) of every game.

At each of its decisions the player deals the cards it has not seen into the
other hands, ``pimc_samples`` times, each deal consistent with everything it
has seen this deal: the cards played, by whom, in which trick, and in
Differenzler the face-up trump card, which the dealer holds until it is
played. A seat that played a card holds no card that would have made that
card illegal (a seat that discarded on a plain lead holds none of that suit;
a Schieber seat that undertrumped holds nothing but trumps; the trump Jack
alone need not follow a trump lead): each unseen card is tested against each
earlier play with the rules' own legality
(``cardmc.kernels.solve_search.legal_mask``), and every sample is checked
again as whole hands before it is used. Each sample is solved with every
hand seen (``cardmc.kernels.solve_search.card_values``), and the player plays
the legal card with the best mean over the samples (ties: the lowest card
code) for its own objective:

* Schieber: the points its team takes from here with best play by both
  teams (last trick and match included): the highest mean.
* Differenzler: the least penalty |declared - made| it can be sure of
  whatever the other three do (``least_distance`` to what its declaration
  still needs): the lowest mean. The others' declarations are not used.
* English Jazz: the deal score (rules A-E) it can make sure of, the other
  two playing together against it, with trump set by the play as in the
  rules (``cardmc.kernels.english_jazz_search``): the highest mean. The
  samples know the trump setter from the plays: the first seat that did not
  follow suit held none of that suit, like every seat that discarded.
* Norwegian Jazz, deals 1-5: the least penalty it can be held to from here,
  the others playing together against it: the lowest mean. Deal 6 (sevens)
  is searched by ``cardmc.pimc_sevens``, once ``pimc_sevens_cards`` cards or
  fewer are left in all hands (default 0: never, it plays as ``heuristic``;
  measured, the search did not beat it there): the deal score it can make sure of (the
  first-out bonus, -1 a pass), the others playing together against it; the
  samples keep every pass (a seat that passed held no card playable then).

Whole deals take seconds each to solve, so the player searches once
``pimc_tricks`` tricks or fewer are left and plays as ``heuristic`` before
(the default is each game's deepest setting that keeps a deal with every seat
searching at about a second: Schieber 7, Differenzler 5, English Jazz 6; and
Norwegian Jazz 5, where searching deeper measured weaker: its objective
assumes the others play together against it); ``pimc_tricks=9`` searches
every Schieber card. It does
not value every card: it ranks them (``rank``), and plays the card every
card's exact value would give. It chooses contracts and declares as its seat's policy says
(Schieber: as ``heuristic``; Differenzler: ``pimc:calibrated`` and the like).
It does not use the Weis shown or Stöck, and its solver counts the
rulebook's points (with ``undenufe_points=six`` too).

How a game with ``pimc`` seats is played: the batch kernel plays it with the
``pimc`` seats scripted (``cardmc.kernels.script``); where the script runs out,
the kernel notes the decision, this module decides it from the game's events
up to there (only what that seat has seen) and the card is added to the
script, and the game is played again from its start. The other seats' play,
the deals and the random streams are the kernel's own, so game ``i`` of seed
``s`` is the same whatever the threads or chunks; the samples come from a
stream keyed by seed, game and decision.

What differs from game to game is in its spec: ``search_player`` (how the
kernel plays the scripted seats, what a seat has seen beyond the events,
its objective, whether it plays for the most or the least, its target, a
search of its own, a decision searched apart) and ``solver`` (the deal's
cards and hand size).
"""

from __future__ import annotations

import contextlib
import time

import numpy as np

from cardmc import registry
from cardmc.kernels import cards as C
from cardmc.kernels import script as sc
from cardmc.kernels import solve_rules as SR
from cardmc.kernels import solve_search as S
from cardmc.kernels.events import EV_CONTRACT, EV_DEAL, EV_DECLARE, EV_HAND, EV_PLAY
from cardmc.objectives import sides
from cardmc.registry import Option

TT_MIB = 16  # a game's searches from seven tricks left share it (a larger one saves no nodes); one a thread
TRIES = 200  # samples drawn for one accepted (a player's inferences make almost every one pass)


def options(most: int, cost: str, default: int) -> dict[str, Option]:
    """The search player's two simulation options, as every game offers them:
    ``most`` tricks at the most (``pimc_tricks``), ``cost`` what searching
    from more tricks costs in the game, ``default`` the depth it searches
    from unless told (the deepest that keeps a deal with every seat searching
    at about a second on one thread)."""
    return {
        "pimc_samples": Option(
            8, "int", "deals of the unseen cards the pimc player solves for each card it plays", 1, 1000
        ),
        "pimc_tricks": Option(
            default,
            "int",
            "the pimc player searches once this many tricks or fewer are left, and "
            f"plays as heuristic before ({cost})",
            1,
            most,
        ),
    }


def has_pimc(policies: np.ndarray, game: str) -> bool:
    """Does a seat of ``policies`` (``game``'s codes) play ``pimc``?"""
    scripted = registry.get(game).search_player.scripted
    return bool((np.asarray(policies)[:, 0] == scripted).any())


def play_game(
    game: str,
    seed: int,
    index: int,
    params: np.ndarray,
    policies: np.ndarray,
    rows: np.ndarray,
    events: np.ndarray,
    cond,
    table=None,
) -> tuple[int, int]:
    """Game ``index`` of ``seed`` with the ``pimc`` seats of ``policies``
    searching (``params`` hold ``pimc_samples`` and ``pimc_tricks``); writes
    its rows and events like the game kernel's ``play_game`` (``table``:
    Differenzler's calibration) and returns how many of each."""
    kernel_play = registry.get(game).search_player.play
    players = len(policies)

    def play(script):
        return kernel_play(seed, index, players, params, policies, rows, events, cond, script, table)

    return scripted(game, players, seed, index, params, play, events, rows, 52 * (rows.shape[0] // players))


def scripted(
    game: str,
    players: int,
    seed: int,
    index: int,
    params: np.ndarray,
    play,
    events: np.ndarray,
    rows: np.ndarray | None,
    cards: int,
):
    """Play with the ``pimc`` seats scripted: ``play(script)`` plays from the
    start, tracing into ``events`` (and ``rows``), with the cards decided so
    far; where the script runs out, the seat's card is decided from the
    events up to there and it plays again. Returns ``play``'s answer once no
    card is missing (``cards``: the script's room, 52 a deal at most). The
    samples come from a stream keyed by ``seed``, ``index`` and decision."""
    hooks = registry.get(game).search_player
    samples, tricks = int(params[hooks.samples]), int(params[hooks.tricks])
    script = np.zeros(sc.SC_CARDS + cards, np.int64)
    script[sc.SC_TRICKS] = tricks
    count = 0
    tt = search_table()
    salts: dict = {}  # one key space an objective for the whole deal: the solves share the table
    while True:
        script[sc.SC_COUNT] = count
        out = play(script)
        need = int(script[sc.SC_NEED])
        if need < 0:
            return out
        rng = np.random.default_rng([seed, index, count, 0x9C])
        card = None
        if hooks.apart is not None:  # a decision the game searches apart (Norwegian Jazz's sevens)
            card = hooks.apart(events[: need + 1], players, samples, rng, tt, params)
        if card is None:
            card = decide(seen(game, events[: need + 1], rows, players), samples, rng, tt, salts)
        script[sc.SC_CARDS + count] = card
        count += 1


def play_block(
    game: str,
    seed: int,
    start: int,
    count: int,
    params: np.ndarray,
    policies: np.ndarray,
    cond,
    per: int,
    columns: int,
    events: int,
    table=None,
) -> np.ndarray:
    """The rows of games start..start+count-1 with ``pimc`` seats (``play_game``),
    in game order, the games side by side on the run's threads: ``per`` rows
    and ``columns`` columns a game at most, ``events`` trace events a game."""
    import numba

    from cardmc.kernels.jit import in_threads

    rows = np.zeros((count * per, columns), np.int32)
    written = np.zeros(count, np.int64)
    shares = max(1, min(numba.get_num_threads(), count))

    def work(share: int) -> None:
        ev = np.zeros((events, 4), np.int64)
        for j in range(count * share // shares, count * (share + 1) // shares):
            game_rows = rows[j * per : (j + 1) * per]
            written[j] = play_game(game, seed, start + j, params, policies, game_rows, ev, cond, table)[0]

    in_threads(work, shares)
    return rows[(np.arange(per)[None, :] < written[:, None]).ravel()]


def search_table():
    """This thread's transposition table for the search player's solves
    (``TT_MIB``; ``cardmc.solve.table``)."""
    from cardmc.solve import table

    return table(TT_MIB)


def seen(game: str, events: np.ndarray, rows: np.ndarray | None = None, players: int = 4) -> dict:
    """What the seat to play (the last event, an EV_PLAY) knows of the deal in
    progress: its hand now and legal cards, the plays so far (seat, card) in
    order, the trick in progress and its leader, the deal's cards and hand
    size; the contract (the solver's parameter: Schieber's contract, from its
    event; the rest from the game's ``search_player.seen``: Differenzler's
    trump card, read from the deal's ``rows``, which the kernel writes before
    the play; Norwegian Jazz's deal number 1-5), the dealer and the seat's own
    declaration."""
    spec = registry.get(game)
    ev = np.asarray(events)
    start = int(np.flatnonzero(ev[:, 0] == EV_DEAL)[-1])
    number, dealer = int(ev[start, 1]), int(ev[start, 2])
    deck, size = spec.solver.dealt(players), spec.solver.hand_size(players)
    me, legal = int(ev[-1, 1]), int(ev[-1, 3]) & deck
    view = {
        "game": game,
        "me": me,
        "legal": legal,
        "dealer": dealer,
        "players": players,
        "deck": deck,
        "size": size,
    }
    dealt = None
    plays = []
    for kind, a, b, c in ev[start:-1].tolist():
        if kind == EV_HAND and a == me:
            dealt = b & deck
        elif kind == EV_CONTRACT:
            view["contract"] = c
        elif kind == EV_DECLARE and a == me:
            view["declared"] = b
        elif kind == EV_PLAY:
            plays.append((a, b))
    if spec.search_player.seen is not None:
        spec.search_player.seen(view, number, rows)
    mine = 0
    for s, c in plays:
        if s == me:
            mine |= 1 << c
    done = len(plays) // players * players
    trick = [c for _, c in plays[done:]]
    view.update(hand=dealt & ~mine, plays=plays, trick=trick, leader=(me - len(trick)) % players)
    return view


def rules(view: dict) -> np.ndarray:
    """The solver's rules for the seat's objective (its game's
    ``search_player.objective``, ``cardmc.objectives``)."""
    from cardmc.solve import rules_array

    objective = registry.get(view["game"]).search_player.objective
    n = view["players"]
    return rules_array(view["game"], n, view["contract"], *sides(objective, view["me"], n))


def history(view: dict, R: np.ndarray) -> tuple[int, int]:
    """(what the counted seats gained this deal so far, the position's flags),
    the deal's plays replayed by the solver's rules."""
    hands = np.full(view["players"], np.uint64(1 << 63), np.uint64)  # no card: no hand runs out in the past
    for s, c in view["plays"]:
        hands[s] |= np.uint64(1 << c)
    line = np.zeros(S.LINE, np.int64)
    k, leader, trump, flags, gained = 0, view["plays"][0][0] if view["plays"] else view["leader"], -1, 0, 0
    for i, (s, c) in enumerate(view["plays"]):
        k, leader, trump, flags, gain = S.play_card(R, hands, line, i, k, leader, trump, flags, s, c)
        gained += int(gain)
    return gained, int(flags)


def decide(view: dict, samples: int, rng: np.random.Generator, tt, salts: dict | None = None) -> int:
    """The card the seat of ``view`` plays: the legal card with the best mean
    value over ``samples`` deals of the unseen cards (the highest or the
    lowest, as the game's ``search_player.sign`` says; ties: the lowest card
    code). ``salts``: the key spaces of the table's objectives so far this
    deal (``keyed``), so that its solves share entries.

    Found by a ranking search (``rank``), not by every card's exact value."""
    if view["legal"] & (view["legal"] - 1) == 0:
        return int(view["legal"]).bit_length() - 1
    start = time.perf_counter()
    hooks = registry.get(view["game"]).search_player
    R = rules(view)
    banned = forbidden(view, R, unseen_of(view))  # what the plays tell, and the deal so far: once a decision
    deals = [sample(view, rng, R, banned) for _ in range(samples)]
    if hooks.cards is not None:  # a search of the game's own: every card's value
        totals: dict[int, int] = {}
        for hands in deals:
            for card, value in hooks.cards(view, hands).items():
                totals[card] = totals.get(card, 0) + value
        card = min(totals, key=lambda c: (hooks.sign * totals[c], c))
    else:
        card = rank(view, deals, R, tt, history(view, R), salts)
    if _decisions is not None:
        _decisions.append(
            (
                int(view["hand"]).bit_count(),
                view.get("contract"),
                time.perf_counter() - start,
                int(R[SR.NODES]),
            )
        )
    return card


_decisions: list | None = None  # while ``recorded`` is open: the decisions searched


@contextlib.contextmanager
def recorded():
    """While open, every decision the search player searches in this process
    is listed (tricks left, contract, seconds, nodes; English Jazz's own
    search counts no nodes): what ``cardmc bench GAME --pimc`` tables."""
    global _decisions
    _decisions = []
    try:
        yield _decisions
    finally:
        _decisions = None


def rank(view: dict, deals: list, R: np.ndarray, tt, past: tuple[int, int], salts: dict | None = None) -> int:
    """The legal card with the best mean value over ``deals`` (ties: the
    lowest code), the same card as every card's exact value would give, for
    less search. Per deal: the position's value (its first probe at the
    value of the deal before), then one null-window probe per card at it
    (``card_bounds``): the best cards get their exact value, each other card a
    bound on each side. Then, while the card with the best optimistic mean
    (each unknown value taken at its best bound) has a value that is only
    bounded, that value is searched exactly (``card_exact``); once that card
    is exact in every deal, no other card's mean can beat it."""
    hooks = registry.get(view["game"]).search_player
    keys, lows, highs, bests, ages, moves, scores, fr, fk = tt
    keyed(R, keys, salts)
    gained, flags = past
    target = -2 * S.BIG if hooks.target is None else hooks.target(view, gained)  # None: the value
    line = np.zeros(S.LINE, np.int64)
    line[: len(view["trick"])] = view["trick"]
    k, leader = len(view["trick"]), view["leader"]
    out_c = np.zeros(S.MAX_MOVES, np.int64)
    low = np.zeros(S.MAX_MOVES, np.int64)
    high = np.zeros(S.MAX_MOVES, np.int64)
    bounds: dict[int, np.ndarray] = {}  # card -> (deals, 2) [low, high]
    guess = S.NONE
    for j, hands in enumerate(deals):
        m, guess = S.card_bounds(
            R,
            keys,
            lows,
            highs,
            bests,
            ages,
            hands,
            line,
            k,
            leader,
            -1,
            flags,
            target,
            guess,
            out_c,
            low,
            high,
            moves,
            scores,
            fr,
            fk,
        )
        for i in range(m):
            bounds.setdefault(int(out_c[i]), np.zeros((len(deals), 2), np.int64))[j] = low[i], high[i]
    side = 1 if hooks.sign < 0 else 0  # the bound a card's mean is best at: high when the most is best
    while True:
        card = min(bounds, key=lambda c: (hooks.sign * int(bounds[c][:, side].sum()), c))
        b = bounds[card]
        open_ = np.flatnonzero(b[:, 0] != b[:, 1])
        if open_.size == 0:
            return card
        j = int(open_[0])
        v = S.card_exact(
            R,
            keys,
            lows,
            highs,
            bests,
            ages,
            deals[j],
            line,
            k,
            leader,
            -1,
            flags,
            target,
            card,
            int(b[j, 0]),
            int(b[j, 1]),
            moves,
            scores,
            fr,
            fk,
        )
        b[j] = v, v


def keyed(R: np.ndarray, keys: np.ndarray, salts: dict | None) -> None:
    """Points the rules ``R`` at the table of ``keys``: in the key space its
    objective had before this deal (``salts``, rules to key space), else a
    fresh one. A position's bounds hold for every solve of one objective,
    whatever the sampled deal or the decision, so its entries are shared."""
    from cardmc.solve import fresh_keys

    name = R.tobytes()
    if salts is not None and name in salts:
        R[SR.TT_MASK], R[SR.SALT] = salts[name]
        return
    fresh_keys(R, keys)
    if salts is not None:
        salts[name] = int(R[SR.TT_MASK]), int(R[SR.SALT])


def _legal(R: np.ndarray, hand: int, trick: list[int]) -> int:
    line = np.zeros(8, np.int64)
    line[: len(trick)] = trick
    return int(S.legal_mask(R, np.uint64(hand), line, len(trick)))


def forbidden(view: dict, R: np.ndarray, unseen: int) -> dict[int, int]:
    """Per other seat, the unseen cards it cannot hold: with any of them,
    one of its plays this deal would not have been legal (Differenzler: and
    the face-up trump card, for every seat but the dealer)."""
    n = view["players"]
    out = {s: 0 for s in range(n) if s != view["me"]}
    plays = view["plays"]
    for i, (s, c) in enumerate(plays):
        pos = i % n
        if s == view["me"] or pos == 0:
            continue
        trick = [x for _, x in plays[i - pos : i]]
        rest = unseen & ~out[s]
        while rest:
            x = rest & -rest
            rest ^= x
            if not (_legal(R, (1 << c) | x, trick) >> c) & 1:
                out[s] |= x
    shown = view.get("trump_card")
    if shown is not None and (unseen >> shown) & 1:
        for s in out:
            if s != view["dealer"]:
                out[s] |= 1 << shown
    return out


def unseen_of(view: dict) -> int:
    """The cards the seat has not seen: neither in its hand nor played."""
    played = 0
    for _, c in view["plays"]:
        played |= 1 << c
    return view["deck"] & ~played & ~view["hand"]


def sample(
    view: dict, rng: np.random.Generator, R: np.ndarray, banned: dict[int, int] | None = None
) -> np.ndarray:
    """One deal of the unseen cards into the other hands, consistent with the
    plays (``banned``: ``forbidden``'s answer, computed when not given; then
    every play checked again on the whole hands)."""
    me, plays = view["me"], view["plays"]
    unseen = unseen_of(view)
    others = [s for s in range(view["players"]) if s != me]
    size = {s: view["size"] - sum(1 for p, _ in plays if p == s) for s in others}
    banned = forbidden(view, R, unseen) if banned is None else banned
    cards = C.cards_of(unseen)
    allowed = {c: [s for s in others if not (banned[s] >> c) & 1] for c in cards}
    for _ in range(TRIES):
        # the cards with the fewest possible holders first, each to a holder drawn by the room it has left
        order = sorted(rng.permutation(len(cards)), key=lambda i: len(allowed[cards[i]]))
        room = dict(size)
        hands = {s: 0 for s in others}
        ok = True
        for i in order:
            c = cards[i]
            who = [s for s in allowed[c] if room[s] > 0]
            if not who:
                ok = False
                break
            weights = np.array([room[s] for s in who], float)
            s = who[int(rng.choice(len(who), p=weights / weights.sum()))]
            hands[s] |= 1 << c
            room[s] -= 1
        if ok and _consistent(view, hands, R):
            out = np.zeros(view["players"], np.uint64)
            out[me] = view["hand"]
            for s in others:
                out[s] = hands[s]
            return out
    raise RuntimeError(f"no deal of the unseen cards fits the plays after {TRIES} tries")


def _consistent(view: dict, hands: dict[int, int], R: np.ndarray) -> bool:
    """Was every play of the other seats legal with the hands sampled (plus the cards they played since)?"""
    plays = view["plays"]
    held = dict(hands)
    for i in range(len(plays) - 1, -1, -1):  # back from the last play: a seat held its later cards too
        s, c = plays[i]
        if s == view["me"]:
            continue
        held[s] |= 1 << c
        pos = i % view["players"]
        if pos and not (_legal(R, held[s], [x for _, x in plays[i - pos : i]]) >> c) & 1:
            return False
    return True


def solve_cards(
    view: dict, hands: np.ndarray, R: np.ndarray, tt, past: tuple[int, int] | None = None
) -> dict[int, int]:
    """The value after each legal card, every hand as in ``hands``, of the
    seat's objective (Schieber, the team's points from here, its match bonus
    included; Differenzler, the least penalty the seat can be sure of; Norwegian
    Jazz, the penalty units the others can hold it to; or the game's own search,
    its ``search_player.cards``: English Jazz's deal score). ``past``:
    ``history``'s answer, computed when not given."""
    from cardmc.solve import fresh_keys

    hooks = registry.get(view["game"]).search_player
    if hooks.cards is not None:
        return hooks.cards(view, hands)
    keys, lows, highs, bests, ages, moves, scores, fr, fk = tt
    fresh_keys(R, keys)
    gained, flags = history(view, R) if past is None else past
    target = -2 * S.BIG if hooks.target is None else hooks.target(view, gained)  # None: the value
    line = np.zeros(S.LINE, np.int64)
    line[: len(view["trick"])] = view["trick"]
    out_c = np.zeros(S.MAX_MOVES, np.int64)
    out_v = np.zeros(S.MAX_MOVES, np.int64)
    m = S.card_values(
        R,
        keys,
        lows,
        highs,
        bests,
        ages,
        hands,
        line,
        len(view["trick"]),
        view["leader"],
        -1,
        flags,
        target,
        out_c,
        out_v,
        moves,
        scores,
        fr,
        fk,
    )
    return {int(out_c[i]): int(out_v[i]) for i in range(m)}
