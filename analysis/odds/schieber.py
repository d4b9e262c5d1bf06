"""Schieber advice for one hand (``cardmc odds schieber``): which contract, or push.

The forehand's nine cards (or part of them), or with ``pushed`` the
partner's, who must choose after a push. Every choice, each of the six
contracts and (for the forehand) pushing, is played on the same sample deals
of the unseen cards (``cardmc.kernels.schieber_odds``), every seat playing by
its policy. Reported per choice, with 95% CIs: the expected deal score of the
hand's team and of the other team after the multiplier (Weis, Stöck and the
match bonus included), the net (own - other), its paired difference against
the best choice, and the chance of a match (all nine tricks, Wilson CI);
after a push, how often the partner chooses each contract; the Weis and
Stöck the hand holds.
"""

from __future__ import annotations

import numpy as np

from cardmc import stats
from cardmc.checks import check_flag
from cardmc.kernels import schieber_odds as k
from cardmc.kernels import schieber_weis as w
from cardmc.kernels.cards import KING, QUEEN
from cardmc.odds import Odds
from cardmc.odds.preamble import ask
from cardmc.odds.rounds import ROUND
from cardmc.registry import UsageError
from cardmc.stats import named

PLAYERS, HAND = 4, 9
CONTRACTS = ("C", "D", "H", "S", "obenabe", "undenufe")
PUSH = "push"
DEFAULT_GAMES = 100_000
PIMC_ROUND = 16  # deals a round with search player seats (every choice played: a second or so a deal)


def odds(
    hand=None,
    *,
    seat: int = 0,
    dealer: int | None = None,
    pushed: bool = False,
    hands=None,
    games: int = DEFAULT_GAMES,
    seed: int = 0,
    policy: str | None = None,
    settings=None,
    target_se: float | None = None,
    max_seconds: float | None = None,
    progress: bool = False,
) -> Odds:
    """Which contract ``hand`` (card codes; part of a hand is allowed) should
    choose, or whether to push. ``seat``: the hand's seat, the forehand (or,
    with ``pushed``, the forehand's partner, who must choose); ``dealer``, if
    given, must agree (the forehand is the seat after the dealer).
    ``hands``: known cards of other seats. ``policy``: every seat's play (and
    the partner's choice after a push; default heuristic). Returns an ``Odds``."""
    from cardmc.schieber import SPEC

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
    )
    seat, pushed = q.seat, check_flag("pushed", pushed)
    forehand = (seat + 2) % PLAYERS if pushed else seat
    if q.dealer is not None and (q.dealer + 1) % PLAYERS != forehand:
        role = "the forehand's partner (after a push)" if pushed else "the forehand"
        raise UsageError(
            f"dealer {q.dealer} does not fit seat {seat} as {role}: the forehand is seat "
            f"{forehand}, so the dealer is seat {(forehand - 1) % PLAYERS}"
        )
    for name in SPEC.options:
        if name in (settings or {}) and not (q.searching and name.startswith("pimc_")):
            if name.startswith("pimc_"):
                raise UsageError(f"option {name} applies to pimc seats, and no seat plays pimc")
            raise UsageError(f"option {name} does not apply to odds: every contract and pushing are played")
    fixed, policies, params = q.fixed, q.policies, q.params
    names = CONTRACTS if pushed else (*CONTRACTS, PUSH)
    choices = np.array([*range(6)] + ([] if pushed else [k.PUSH_CHOICE]), np.int64)
    m = len(names)
    sums = {key: np.zeros(m, np.int64) for key in ("own", "other", "net", "match")}
    squares = {key: np.zeros(m, np.int64) for key in ("own", "other")}
    products = np.zeros((m, m), np.int64)  # of the nets: for paired differences
    after_push = np.zeros(6, np.int64)
    done = [0]

    def sample(start, count):
        scores = pimc_scores if q.searching else k.deal_scores
        own, other, match, contract = scores(
            q.seed, start, count, forehand, seat, fixed, choices, policies, params
        )
        own, other = own.astype(np.int64), other.astype(np.int64)
        net = own - other
        for key, x in (("own", own), ("other", other), ("net", net), ("match", match)):
            sums[key] += x.sum(axis=0, dtype=np.int64)
        squares["own"] += (own * own).sum(axis=0)
        squares["other"] += (other * other).sum(axis=0)
        products[:] += net.T @ net
        if not pushed:
            after_push[:] += np.bincount(contract[:, -1], minlength=6)
        done[0] += count

    def mean(key, j, n):
        return stats.mean_from_sums(sums[key][j], products[j, j] if key == "net" else squares[key][j], n)

    def minus(j, b, n):
        return stats.paired_from_sums(
            sums["net"][j], sums["net"][b], products[j, j], products[b, b], products[j, b], n
        )

    def worst_se():
        n = done[0]
        b = int(np.argmax(sums["net"]))
        ses = [mean(key, j, n)["se"] for key in ("own", "other", "net") for j in range(m)]
        ses += [minus(j, b, n)["se"] for j in range(m) if j != b]
        ses += [stats.agresti_coull_se(sums["match"][j], n) for j in range(m)]
        return max(ses)

    n, stopped = q.rounds(sample, worst_se, "schieber", PIMC_ROUND if q.searching else ROUND)
    best = int(np.argmax(sums["net"]))
    rows = {}
    for j, name in enumerate(names):
        rows[name] = {
            **named("net", mean("net", j, n)),
            **named("own", mean("own", j, n)),
            **named("other", mean("other", j, n)),
            **named("minus_best", minus(j, best, n)),
            **named("match", stats.proportion(sums["match"][j], n)),
            "n": n,
        }
    tables = {"choices": stats.table(rows, "choice"), "hand": hand_table(q.hands[seat], params)}
    if not pushed:
        chosen = {CONTRACTS[c]: stats.proportion(after_push[c], n) for c in range(6)}
        tables["after_push"] = stats.table(chosen, "contract")
    held = len(q.cards())
    role = "partner after a push" if pushed else "forehand"
    question = (
        f"hand {' '.join(q.cards()) or 'any'}, seat {seat} ({role}; forehand {forehand}), policy {q.policy}"
    )
    notes = [] if held == HAND else [f"the hand table counts only the {held} given cards"]
    net = rows[names[best]]
    return Odds(
        game="schieber",
        question=question,
        deals=n,
        seed=q.seed,
        stopped_by=stopped,
        best=f"{names[best]} (net {net['net']:+.1f} [{net['net_ci_low']:+.1f}, "
        f"{net['net_ci_high']:+.1f}] points a deal)",
        best_choice=names[best],
        tables=tables,
        notes=notes,
    )


def pimc_scores(seed, start, count, forehand, chooser, fixed, choices, policies, params):
    """``deal_scores`` with ``pimc`` seats (``cardmc.pimc``): every choice of
    each deal played from the same hands and stream, on the run's threads;
    a deal's choices share the search player's samples."""
    import numba

    from cardmc import pimc
    from cardmc.kernels.jit import in_threads

    m = len(choices)
    own, other = np.zeros((count, m), np.int64), np.zeros((count, m), np.int64)
    match, contract = np.zeros((count, m), np.int64), np.zeros((count, m), np.int64)
    shares = max(1, min(numba.get_num_threads(), count))

    def work(share: int) -> None:
        events = np.zeros((128, 4), np.int64)
        for j in range(count * share // shares, count * (share + 1) // shares):
            for c, choice in enumerate(choices.tolist()):

                def play(script, i=start + j, choice=choice):
                    return k.odds_deal_pimc(
                        seed, i, forehand, chooser, fixed, choice, policies, params, script, events
                    )

                own[j, c], other[j, c], match[j, c], contract[j, c], _ = pimc.scripted(
                    "schieber", PLAYERS, seed, start + j, params, play, events, None, 52
                )

    in_threads(work, shares)
    return own, other, match, contract


def hand_table(mask: int, params):
    """Per contract: the Weis the hand declares under the run's Weis options
    (points before the multiplier, kinds; none with weis=off) and whether it holds
    the Stöck (trump K and Q; never with stoeck=off)."""
    import pandas as pd

    from cardmc.kernels.schieber import NO_STOECK, rules_of, weis_of

    hand = np.uint64(mask)
    rules = int(rules_of(params))
    wr = weis_of(rules)
    out = []
    for c, name in enumerate(CONTRACTS):
        _, total, _, kinds = w.declare(hand, c, wr)
        kq = (1 << (16 * c + KING)) | (1 << (16 * c + QUEEN)) if c < 4 and not rules & NO_STOECK else 0
        held = " ".join(n for i, n in enumerate(w.KIND_NAMES) if int(kinds) >> i & 1)
        out.append(
            {
                "contract": name,
                "weis": int(total),
                "weis_kinds": held or "-",
                "stoeck": bool(kq and mask & kq == kq),
            }
        )
    return pd.DataFrame(out).set_index("contract")
