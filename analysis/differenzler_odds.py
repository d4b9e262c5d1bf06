"""Differenzler advice for one hand (``cardmc odds differenzler``): what to declare.

For a hand (all nine cards or part of them), its seat, the dealer and the
face-up trump card (the dealer holds it), every candidate declaration is
played on the same sample deals of the unseen cards (see
``cardmc.kernels.differenzler_odds``), the hand playing towards it. Reported:
the expected penalty of each candidate (every 5 points, 0..155, then every
whole number within 4 of the best of those), the best declaration, the points
made under it (mean and quantiles), and what the ``heuristic`` and
``calibrated`` rules declare for the hand with their expected penalties and
their paired differences against the best, all with 95% CIs.

The second pass (the whole numbers near the best) replays the deals of the
first, so its figures are paired with it; ``target_se`` and ``max_seconds``
apply to the first pass.

With the search player ``pimc`` at a seat (``--policy pimc``: every seat,
declaring as ``calibrated``), each sample deal is the same deal, played once
per distinct declaration of the asking seat with the ``pimc`` seats searching
(``cardmc.pimc``), the plays side by side on the run's threads, in rounds of
``PIMC_ROUND`` deals: seconds a deal with the default candidates.
"""
from __future__ import annotations

import numpy as np

from cardmc import odds_frame as frame
from cardmc.condition import card_list, parse_hands, hand_items, seat_of
from cardmc.checks import check_count, check_seed
from cardmc.kernels import cards
from cardmc.kernels import differenzler_odds as k
from cardmc.registry import UsageError

PLAYERS, HAND, TOP = 4, 9, 157
GRID = tuple(range(0, TOP + 1, 5))  # 0, 5, ..., 155: 32 declarations
RULES = {"heuristic": k.RULE_HEURISTIC, "calibrated": k.RULE_CALIBRATED}
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


def odds(hand=None, *, seat: int = 0, dealer: int | None = None, trump_card: str | None = None, hands=None,
         games: int = frame.DEFAULT_GAMES, seed: int = 0, policy: str = "calibrated", settings=None,
         candidates=None, calibration=None, target_se: float | None = None, max_seconds: float | None = None,
         progress: bool = False) -> frame.Odds:  # fmt: skip
    """What ``hand`` (card codes; part of a hand is allowed) held by ``seat``
    should declare when ``dealer`` deals (default: the seat before, so the hand
    leads) and ``trump_card`` is face up (default: a random card of the
    dealer's). ``hands``: known cards of other seats. ``policy``: every seat's
    play and the other seats' declarations (``parse_policy`` names, default
    calibrated). ``candidates``: declarations instead of the default grid
    (``"0:157:5"`` or ``"40,45,50"`` or a list). Returns an ``Odds``."""
    from cardmc import differenzler as game

    seat = seat_of(seat, PLAYERS)
    dealer = (seat - 1) % PLAYERS if dealer is None else seat_of(dealer, PLAYERS)
    games, seed = check_count("games", games), check_seed(seed)
    params = game.SPEC.params(game.SPEC.settings(dict(settings or {})))
    policies = game.parse_policy(policy if policy is not None else "calibrated")
    searching = game.pimc.has_pimc(policies, "differenzler")
    table = game.calibration_table() if calibration is None else game.read_calibration(calibration)
    grid = check_candidates(candidates)
    items = [f"{s}:{text}" for s, text in hand_items(hands)]
    if hand is not None:
        items.insert(0, f"{seat}:{hand if isinstance(hand, str) else ' '.join(map(str, hand))}")
    trump = -1
    if trump_card is not None:
        got = card_list(trump_card, 36)
        if len(got) != 1:
            raise UsageError(f"trump card must be one card code such as 'AH', not {trump_card!r}")
        trump = got[0]
    masks = list(parse_hands(items, PLAYERS, 36, [HAND] * PLAYERS))
    if trump >= 0:
        holder = next((s for s in range(PLAYERS) if masks[s] >> trump & 1), None)
        if holder is not None and holder != dealer:
            raise UsageError(f"trump card {cards.code(trump)} is the dealer's (seat {dealer}), but is given "
                             f"to seat {holder}")  # fmt: skip
        if holder is None:
            if bin(masks[dealer]).count("1") >= HAND:
                raise UsageError(f"trump card {cards.code(trump)} is the dealer's (seat {dealer}), whose nine "
                                 "cards are given without it")  # fmt: skip
            masks[dealer] |= 1 << trump
    fixed = np.array(masks, np.uint64)
    rules = list(RULES.values())

    played: dict = {}  # with pimc seats: (deal, declaration) -> points made, shared by the two passes

    def run(decl, start, count):
        cand = np.array(decl, np.int64)
        made, declared = k.points_made(seed, start, count, seat, dealer, fixed, trump, cand, policies, table, params)
        if searching:  # the declarations are points_made's (they do not depend on the play); the play searches
            made = _pimc_made(seed, start, seat, dealer, fixed, trump, declared, policies, table, params, played)
        return made, declared

    first = Tally(list(grid) + rules)

    def sample(start, count):
        first.add(*run(first.candidates, start, count))

    def worst_se():
        b = first.best(len(grid))
        return max(first.worst_mean_se(), *(first.paired(j, b)["se"] for j in range(len(grid), len(first.candidates))))

    each = PIMC_ROUND if searching else frame.ROUND
    n, stopped = frame.rounds(sample, games, worst_se, target_se, max_seconds, progress, desc="differenzler",
                              round_deals=each)  # fmt: skip
    b = first.candidates[first.best(len(grid))]
    near = [d for d in range(max(b - 4, 0), min(b + 4, TOP) + 1) if d not in grid] if candidates is None else []
    second = Tally([b, *near] + rules)
    if near:
        frame.rounds(lambda s, c: second.add(*run(second.candidates, s, c)), n, progress=progress,
                     desc="differenzler, near the best", round_deals=each)  # fmt: skip
    else:
        second = first.subset([first.candidates.index(b)] + list(range(len(grid), len(first.candidates))))
    best_j = second.best(1 + len(near))
    best = second.candidates[best_j]

    rows = {}
    for d in sorted(set(first.candidates[:len(grid)]) | set(second.candidates[:1 + len(near)])):
        t, j = (second, second.candidates.index(d)) if d in second.candidates[:1 + len(near)] else \
            (first, first.candidates.index(d))  # fmt: skip
        row = t.mean(j)
        if t is second:
            row.update(_named("minus_best", second.paired(j, best_j)))
        rows[d] = row
    declarations = frame.table(rows, "declared")
    rule_rows = {}
    for name, code in RULES.items():
        j = second.candidates.index(code, 1 + len(near))
        diff = second.paired(j, best_j)
        rule_rows[name] = {**second.mean(j), "declared_mean": second.declared[j] / n,
                           **_named("minus_best", diff)}  # fmt: skip
    hist = second.hist[best_j]
    made = {"mean": frame.mean_row(int(hist @ np.arange(TOP + 1)), int(hist @ np.arange(TOP + 1) ** 2), n)}
    for q in QUANTILES:
        made[f"q{round(q * 100):02d}"] = frame.quantile_row(hist, q)
    made["p_exact"] = frame.share_row(second.exact[best_j], n)
    tables = {"declarations": declarations, "best": frame.table({best: second.mean(best_j)}, "declared"),
              "rules": frame.table(rule_rows, "rule"), "points_made": frame.table(made)}  # fmt: skip
    shown = " ".join(cards.codes_of(masks[seat])) or "any"
    question = (f"hand {shown}, seat {seat}, dealer {dealer}, trump card "
                f"{cards.code(trump) if trump >= 0 else 'random'}, policy {policy}")  # fmt: skip
    notes = [f"heuristic declares {rule_rows['heuristic']['declared_mean']:.1f}, calibrated "
             f"{rule_rows['calibrated']['declared_mean']:.1f} (means over the deals when the hand is partial)"]
    return frame.Odds(game="differenzler", question=question, deals=n, seed=seed, stopped_by=stopped,
                      best=f"declare {best} (expected penalty {second.mean(best_j)['estimate']:.2f})",
                      best_declaration=best, tables=tables, notes=notes)  # fmt: skip


PIMC_ROUND = 2  # deals a round with the search player: each deal is played once a declaration (seconds a deal)


def _pimc_made(seed: int, start: int, seat: int, dealer: int, fixed: np.ndarray, trump: int, declared: np.ndarray,
               policies: np.ndarray, table: np.ndarray, params: np.ndarray, played: dict) -> np.ndarray:  # fmt: skip
    """``points_made``'s ``made`` for deals start..start+count-1 with the
    ``pimc`` seats of ``policies`` searching (``cardmc.pimc``): deal ``i`` is
    ``points_made``'s deal ``i``, played once a distinct declaration of the
    asking seat (``declared[i - start]``; ``played`` keeps the points made by
    (deal, declaration) for the next calls), the plays side by side on the
    run's threads. Each play depends on its deal and declaration only."""
    import numba

    from cardmc import pimc
    from cardmc.kernels import differenzler as dk
    from cardmc.kernels.jit import in_threads

    count = declared.shape[0]
    todo = sorted({(start + j, int(d)) for j in range(count) for d in declared[j]} - played.keys())
    got = np.zeros(len(todo), np.int64)
    parts = max(1, min(numba.get_num_threads(), len(todo)))

    def work(part: int) -> None:
        events = np.zeros((dk.MAX_EVENTS_PER_DEAL, 4), np.int64)
        rows = np.zeros((PLAYERS, len(dk.COLUMNS)), np.int32)
        for t in range(len(todo) * part // parts, len(todo) * (part + 1) // parts):
            i, d = todo[t]

            def play(script, i=i, d=d):
                return k.odds_deal_pimc(seed, i, seat, dealer, fixed, trump, d, policies, table, script, events, rows)

            made, _ = pimc.scripted("differenzler", PLAYERS, seed, i, params, play, events, rows, 52)
            got[t] = made[seat]

    in_threads(work, parts)
    played.update(zip(todo, got.tolist()))
    out = np.empty(declared.shape, np.uint8)
    for j in range(count):
        for c in range(declared.shape[1]):
            out[j, c] = played[start + j, int(declared[j, c])]
    return out


def _named(name: str, row: dict) -> dict:
    """``name``, ``name_se``, ``name_ci_low``, ``name_ci_high`` of a figure."""
    return {name: row["estimate"], f"{name}_se": row["se"], f"{name}_ci_low": row["ci_low"],
            f"{name}_ci_high": row["ci_high"]}  # fmt: skip


class Tally:
    """Sums over deals for candidates ``candidates``: penalties, their squares
    and products (for paired differences), points-made histograms, exact hits."""

    def __init__(self, candidates):
        self.candidates = list(candidates)
        m = len(self.candidates)
        self.n = 0
        self.sums = np.zeros(m, np.int64)
        self.products = np.zeros((m, m), np.int64)
        self.hist = np.zeros((m, TOP + 1), np.int64)
        self.exact = np.zeros(m, np.int64)
        self.declared = np.zeros(m, np.int64)

    def add(self, made: np.ndarray, declared: np.ndarray) -> None:
        pen = np.abs(declared.astype(np.int64) - made.astype(np.int64))
        self.n += made.shape[0]
        self.sums += pen.sum(axis=0)
        self.products += pen.T @ pen
        m = len(self.candidates)
        self.hist += np.bincount((np.arange(m) * (TOP + 1) + made.astype(np.int64)).ravel(),
                                 minlength=m * (TOP + 1)).reshape(m, TOP + 1)  # fmt: skip
        self.exact += (pen == 0).sum(axis=0)
        self.declared += declared.astype(np.int64).sum(axis=0)

    def subset(self, idx: list[int]) -> Tally:
        t = Tally([self.candidates[j] for j in idx])
        t.n = self.n
        t.sums, t.products = self.sums[idx], self.products[np.ix_(idx, idx)]
        t.hist, t.exact, t.declared = self.hist[idx], self.exact[idx], self.declared[idx]
        return t

    def mean(self, j: int) -> dict:
        return frame.mean_row(self.sums[j], self.products[j, j], self.n)

    def paired(self, a: int, b: int) -> dict:
        p = self.products
        return frame.paired_row(self.sums[a], self.sums[b], p[a, a], p[b, b], p[a, b], self.n)

    def best(self, among: int) -> int:
        """The candidate of least total penalty among the first ``among`` (the lowest on ties)."""
        return int(np.argmin(self.sums[:among]))

    def worst_mean_se(self) -> float:
        return max(self.mean(j)["se"] for j in range(len(self.candidates)))


def check_candidates(candidates) -> tuple[int, ...]:
    """The declarations to evaluate: the default grid, ``"LOW:HIGH:STEP"``, ``"a,b,c"`` or a list."""
    if candidates is None:
        return GRID
    values = candidates
    if isinstance(candidates, str):
        text = candidates.replace(" ", "")
        try:
            if ":" in text:
                low, high, step = (int(x) for x in text.split(":"))
                if step < 1:
                    raise ValueError
                values = list(range(low, high + 1, step))
            else:
                values = [int(x) for x in text.split(",") if x]
        except ValueError:
            raise UsageError(f"candidates must be LOW:HIGH:STEP or declarations separated by commas, not "
                             f"{candidates!r}") from None  # fmt: skip
    try:
        out = tuple(sorted({int(v) for v in values}))
    except (TypeError, ValueError):
        raise UsageError(f"candidates must be whole numbers 0..157, not {candidates!r}") from None
    if not out or out[0] < 0 or out[-1] > TOP:
        raise UsageError(f"candidates must be whole numbers 0..157, not {candidates!r}")
    return out

