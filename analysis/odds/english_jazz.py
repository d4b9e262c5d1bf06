"""English Jazz advice for one hand (``cardmc odds english_jazz``): how a hand fares in one deal.

``odds`` keeps one hand, or the known part of it and any known cards of the
other seats, fixed and deals the other cards at random: deal i deals the
cards no seat is given from stream(seed, i, 0, DEAL) in packets of three into
the free places (``cardmc.kernels.english_jazz.odds_given``) and plays one
deal with every seat on the policy. Reported, with 95% CIs: P(all 12
tricks), each rule's chance and how it scores the hand, and the expected deal
score. With the search player (``--policy pimc``) every seat searches, on the
same deals, in rounds of ``PIMC_ROUND`` deals.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cardmc import stats
from cardmc.kernels import english_jazz as k
from cardmc.odds import Odds
from cardmc.odds.preamble import ask
from cardmc.registry import UsageError

PLAYERS = 3
BATCH = 4_000_000  # sample deals per kernel call at most, when no stopping rule is checked
PIMC_ROUND = 64  # deals a round with the search player (a tenth of a second or so a deal)


def odds(
    hand=None,
    seat: int = 1,
    dealer: int = 0,
    games: int = 1_000_000,
    seed: int = 0,
    policy: str | None = None,
    target_se: float | None = None,
    hands=None,
    settings: dict | None = None,
    max_seconds: float | None = None,
    progress: bool = False,
) -> Odds:
    """Odds of ``seat``'s hand when ``dealer`` deals: the whole 12-card ``hand``,
    and/or part hands of any seat in ``hands`` (``{seat: "JS 9S"}`` or
    ``["SEAT:CARDS", ...]``). ``policy``: every seat's (one name; default
    heuristic). Deals run in rounds (``cardmc.odds.rounds``) until ``games``
    deals, ``max_seconds``, or standard errors of the expected score and of
    P(all tricks) (Agresti-Coull, so that zero events do not stop early) at
    most ``target_se``. Returns an ``Odds``."""
    from cardmc.english_jazz import POSITIONS, SCORES, SPEC

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
        whole_hand=True,
    )
    if (q.policies != q.policies[0]).any():
        raise UsageError(f"english_jazz odds play every seat by one policy, not {q.policy!r}")
    seat, dealer, fixed, code = q.seat, q.dealer, q.fixed, int(q.policies[0, 0])
    acc = np.zeros((5, 5), np.int64)  # deals by rule x score of the hand (-2..2)
    tricks = np.zeros(k.TRICKS + 1, np.int64)  # deals by tricks the hand took
    points = np.zeros(153, np.int64)  # deals by card points the hand took

    def sample(start: int, count: int) -> None:
        if q.searching:
            out = pimc_deals(q.seed, start, count, fixed, seat, dealer, q.params)
        else:
            weights = q.params[k.P_WEIGHTS :]
            out = k.odds_given(q.seed, start, count, fixed, seat, dealer, code, weights).astype(np.int64)
        acc.ravel()[:] += np.bincount(out[:, 2] * 5 + out[:, 3] + 2, minlength=25)
        tricks[:] += np.bincount(out[:, 0], minlength=k.TRICKS + 1)
        points[:] += np.bincount(out[:, 1], minlength=153)

    def worst_se() -> float:
        n = int(tricks.sum())
        return max(
            stats.mean_from_counts(SCORES, acc.sum(axis=0))["se"],
            stats.agresti_coull_se(int(tricks[k.TRICKS]), n),
        )

    each = PIMC_ROUND if q.searching else q.round_deals(BATCH)
    n, stopped = q.rounds(sample, worst_se, "english_jazz odds", each)
    summary = pd.concat(
        [
            stats.row("all_tricks", stats.proportion(int(tricks[k.TRICKS]), n)),
            stats.row("expected_score", stats.mean_from_counts(SCORES, acc.sum(axis=0))),
            # how the hand scores: the cells of the rules that cost it
            stats.row("no_trick (B, -2)", stats.proportion(int(acc[k.RULE_B, 0]), n)),
            stats.row("over_100 (C, -2)", stats.proportion(int(acc[k.RULE_C, 0]), n)),
            stats.row("tied (D, -1)", stats.proportion(int(acc[k.RULE_D, 1]), n)),
            stats.row("middle (E, -2)", stats.proportion(int(acc[k.RULE_E, 0]), n)),
            stats.row("mean_tricks", stats.mean_from_counts(range(k.TRICKS + 1), tricks)),
            stats.row("mean_card_points", stats.mean_from_counts(range(153), points)),
        ]
    )
    rule_rows = []
    for r, letter in enumerate(k.RULE_LETTERS):
        row = stats.proportion(int(acc[r].sum()), n)
        cnt = acc[r].sum()
        row["score_when_applies"] = (acc[r] * np.array(SCORES)).sum() / cnt if cnt else np.nan
        for j, v in enumerate(SCORES):
            row[f"p_score_{v:+d}"] = acc[r, j] / cnt if cnt else np.nan
        rule_rows.append(stats.row(letter, row))
    per_score = acc.sum(axis=0)
    score_rows = [stats.row(v, stats.proportion(int(per_score[j]), n)) for j, v in enumerate(SCORES)]
    rules, scores = pd.concat(rule_rows), pd.concat(score_rows).rename_axis("score")
    summary["events"] = summary["events"].astype("Int64")  # counts, and none for the means
    position = POSITIONS[(seat - dealer) % 3]
    size = len(q.cards())
    question = (
        f"hand {' '.join(q.cards())}{'' if size == 12 else f' ({size} of 12 cards known)'}: "
        f"seat {seat} ({position}), dealer {dealer}{q.others()}, policy {q.policy}"
    )
    return Odds(
        game="english_jazz",
        question=question,
        best=None,
        tables={"summary": summary, "rules": rules, "scores": scores},
        notes=[],
        hand=q.cards(),
        hands={s: q.cards(s) for s, m in enumerate(q.hands) if m},
        seat=seat,
        dealer=dealer,
        position=position,
        policy=q.policy,
        seed=q.seed,
        deals=n,
        target_se=q.target_se,
        stopped_by=stopped,
        summary=summary,
        rules=rules,
        scores=scores,
    )


def pimc_deals(
    seed: int, start: int, count: int, fixed: np.ndarray, seat: int, dealer: int, params: np.ndarray
) -> np.ndarray:
    """``odds_given``'s answer for deals start..start+count-1 with every seat
    the search player (``cardmc.pimc``): the same hands, played on the run's
    threads."""
    import numba

    from cardmc import pimc
    from cardmc.kernels.jit import in_threads

    out = np.zeros((count, 4), np.int64)
    policies = np.full((PLAYERS, 1), k.PIMC, np.int64)
    shares = max(1, min(numba.get_num_threads(), count))

    def work(share: int) -> None:
        events = np.zeros((1 + PLAYERS + 36, 4), np.int64)
        for j in range(count * share // shares, count * (share + 1) // shares):

            def play(script, i=start + j):
                return k.odds_deal_pimc(seed, i, fixed, dealer, policies, script, events)

            res, rule, _ = pimc.scripted(
                "english_jazz", PLAYERS, seed, start + j, params, play, events, None, 52
            )
            out[j] = res[0, seat], res[1, seat], rule, res[2, seat]

    in_threads(work, shares)
    return out
