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

from cardmc import condition, stats
from cardmc.kernels import cards
from cardmc.kernels import differenzler_odds as k
from cardmc.odds import Odds
from cardmc.odds.preamble import ask
from cardmc.odds.rounds import ROUND, rounds
from cardmc.registry import UsageError
from cardmc.stats import named

PLAYERS, HAND, TOP = 4, 9, 157
GRID = tuple(range(0, TOP + 1, 5))  # 0, 5, ..., 155: 32 declarations
RULES = {"heuristic": k.RULE_HEURISTIC, "calibrated": k.RULE_CALIBRATED, "learned": k.RULE_LEARNED}
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)
DEFAULT_GAMES = 100_000
PIMC_ROUND = 2  # deals a round with the search player: a deal is played once a declaration (seconds a deal)


def odds(
    hand=None,
    *,
    seat: int = 0,
    dealer: int | None = None,
    trump_card: str | None = None,
    hands=None,
    games: int = DEFAULT_GAMES,
    seed: int = 0,
    policy: str | None = None,
    settings=None,
    candidates=None,
    calibration=None,
    target_se: float | None = None,
    max_seconds: float | None = None,
    progress: bool = False,
) -> Odds:
    """What ``hand`` (card codes; part of a hand is allowed) held by ``seat``
    should declare when ``dealer`` deals (default: the seat before, so the hand
    leads) and ``trump_card`` is face up (default: a random card of the
    dealer's). ``hands``: known cards of other seats. ``policy``: every seat's
    play and the other seats' declarations (``parse_policy`` names, default
    calibrated). ``candidates``: declarations instead of the default grid
    (``"0:157:5"`` or ``"40,45,50"`` or a list). ``calibration``: a table of
    calibrated declarations (default: the shipped one). Returns an ``Odds``."""
    from cardmc.differenzler import SPEC

    q = ask(
        SPEC,
        hand,
        seat=seat,
        dealer=dealer,
        hands=hands,
        games=games,
        seed=seed,
        policy=policy,
        settings=settings,
        target_se=target_se,
        max_seconds=max_seconds,
        progress=progress,
        calibration=calibration,
    )
    seat = q.seat
    dealer = (seat - 1) % PLAYERS if q.dealer is None else q.dealer
    grid = check_candidates(candidates)
    trump = -1 if trump_card is None else condition.make(SPEC, PLAYERS, trump_card=trump_card).trump_card
    masks = with_trump_card(list(q.hands), trump, dealer)
    fixed, policies, table, params, seed = (
        np.array(masks, np.uint64),
        q.policies,
        q.calibration,
        q.params,
        q.seed,
    )
    rules = list(RULES.values())
    played: dict = {}  # with pimc seats: (deal, declaration) -> points made, shared by the two passes

    def run(decl, start, count):
        cand = np.array(decl, np.int64)
        made, declared = k.points_made(
            seed, start, count, seat, dealer, fixed, trump, cand, policies, table, params
        )
        if q.searching:  # the declarations are points_made's (they do not depend on the play); the play
            # searches
            made = pimc_made(
                seed, start, seat, dealer, fixed, trump, declared, policies, table, params, played
            )
        return made, declared

    first = Tally(list(grid) + rules)

    def sample(start, count):
        first.add(*run(first.candidates, start, count))

    def worst_se():
        b = first.best(len(grid))
        rules_se = (first.paired(j, b)["se"] for j in range(len(grid), len(first.candidates)))
        return max(first.worst_mean_se(), *rules_se)

    each = PIMC_ROUND if q.searching else ROUND
    n, stopped = q.rounds(sample, worst_se, "differenzler", each)
    b = first.candidates[first.best(len(grid))]
    near = (
        []
        if candidates is not None
        else [d for d in range(max(b - 4, 0), min(b + 4, TOP) + 1) if d not in grid]
    )
    second = Tally([b, *near] + rules)
    if near:
        rounds(
            lambda s, c: second.add(*run(second.candidates, s, c)),
            n,
            progress=q.progress,
            desc="differenzler, near the best",
            round_deals=each,
        )
    else:
        second = first.subset([first.candidates.index(b)] + list(range(len(grid), len(first.candidates))))
    best_j = second.best(1 + len(near))
    best = second.candidates[best_j]

    rows = {}
    for d in sorted(set(first.candidates[: len(grid)]) | set(second.candidates[: 1 + len(near)])):
        t, j = (
            (second, second.candidates.index(d))
            if d in second.candidates[: 1 + len(near)]
            else (first, first.candidates.index(d))
        )
        row = t.mean(j)
        if t is second:
            row.update(named("minus_best", second.paired(j, best_j)))
        rows[d] = row
    rule_rows = {}
    for name, code in RULES.items():
        j = second.candidates.index(code, 1 + len(near))
        rule_rows[name] = {
            **second.mean(j),
            "declared_mean": second.declared[j] / n,
            **named("minus_best", second.paired(j, best_j)),
        }
    hist = second.hist[best_j]
    made = {"mean": stats.mean_from_counts(range(TOP + 1), hist)}
    for level in QUANTILES:
        made[f"q{round(level * 100):02d}"] = stats.quantile_from_counts(hist, level)
    made["p_exact"] = stats.proportion(second.exact[best_j], n)
    tables = {
        "declarations": stats.table(rows, "declared"),
        "best": stats.table({best: second.mean(best_j)}, "declared"),
        "rules": stats.table(rule_rows, "rule"),
        "points_made": stats.table(made),
    }
    shown = " ".join(cards.codes_of(masks[seat])) or "any"
    question = (
        f"hand {shown}, seat {seat}, dealer {dealer}, trump card "
        f"{cards.code(trump) if trump >= 0 else 'random'}, policy {q.policy}"
    )
    notes = [
        f"heuristic declares {rule_rows['heuristic']['declared_mean']:.1f}, calibrated "
        f"{rule_rows['calibrated']['declared_mean']:.1f} (means over the deals when the hand is "
        "partial)"
    ]
    return Odds(
        game="differenzler",
        question=question,
        deals=n,
        seed=seed,
        stopped_by=stopped,
        best=f"declare {best} (expected penalty {second.mean(best_j)['estimate']:.2f})",
        best_declaration=best,
        tables=tables,
        notes=notes,
    )


def with_trump_card(masks: list[int], trump: int, dealer: int) -> list[int]:
    """The given cards with the face-up trump card (-1: none, the dealer's
    last card dealt at random) in the dealer's hand: no other seat may be given
    it, and the dealer's given cards must leave room for it."""
    if trump < 0:
        return masks
    holder = next((s for s in range(PLAYERS) if masks[s] >> trump & 1), None)
    if holder not in (None, dealer) or (holder is None and bin(masks[dealer]).count("1") >= HAND):
        raise UsageError(
            f"trump card {cards.code(trump)!r} is the dealer's (seat {dealer}): no other seat "
            "may be given it, and the dealer's given cards must leave room for it"
        )
    masks[dealer] |= 1 << trump
    return masks


def pimc_made(
    seed: int,
    start: int,
    seat: int,
    dealer: int,
    fixed: np.ndarray,
    trump: int,
    declared: np.ndarray,
    policies: np.ndarray,
    table: np.ndarray,
    params: np.ndarray,
    played: dict,
) -> np.ndarray:
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
    shares = max(1, min(numba.get_num_threads(), len(todo)))

    def work(share: int) -> None:
        events = np.zeros((dk.MAX_EVENTS_PER_DEAL, 4), np.int64)
        rows = np.zeros((PLAYERS, len(dk.COLUMNS)), np.int32)
        for t in range(len(todo) * share // shares, len(todo) * (share + 1) // shares):
            i, d = todo[t]

            def play(script, i=i, d=d):
                return k.odds_deal_pimc(
                    seed, i, seat, dealer, fixed, trump, d, policies, table, script, events, rows, params
                )

            made, _ = pimc.scripted("differenzler", PLAYERS, seed, i, params, play, events, rows, 52)
            got[t] = made[seat]

    in_threads(work, shares)
    played.update(zip(todo, got.tolist()))
    out = np.empty(declared.shape, np.uint8)
    for j in range(count):
        for c in range(declared.shape[1]):
            out[j, c] = played[start + j, int(declared[j, c])]
    return out


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
        self.hist += np.bincount(
            (np.arange(m) * (TOP + 1) + made.astype(np.int64)).ravel(), minlength=m * (TOP + 1)
        ).reshape(m, TOP + 1)
        self.exact += (pen == 0).sum(axis=0)
        self.declared += declared.astype(np.int64).sum(axis=0)

    def subset(self, idx: list[int]) -> Tally:
        t = Tally([self.candidates[j] for j in idx])
        t.n = self.n
        t.sums, t.products = self.sums[idx], self.products[np.ix_(idx, idx)]
        t.hist, t.exact, t.declared = self.hist[idx], self.exact[idx], self.declared[idx]
        return t

    def mean(self, j: int) -> dict:
        return stats.mean_from_sums(self.sums[j], self.products[j, j], self.n)

    def paired(self, a: int, b: int) -> dict:
        p = self.products
        return stats.paired_from_sums(self.sums[a], self.sums[b], p[a, a], p[b, b], p[a, b], self.n)

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
            raise UsageError(
                f"candidates must be LOW:HIGH:STEP or declarations separated by commas, not {candidates!r}"
            ) from None
    try:
        out = tuple(sorted({int(v) for v in values}))
    except (TypeError, ValueError):
        raise UsageError(f"candidates must be whole numbers 0..157, not {candidates!r}") from None
    if not out or out[0] < 0 or out[-1] > TOP:
        raise UsageError(f"candidates must be whole numbers 0..157, not {candidates!r}")
    return out
