"""Norwegian Jazz advice for one hand (``cardmc odds norwegian_jazz``): one hand in one deal.

``odds`` fixes a seat's hand (and any cards known in other seats) for deal
``deal`` (1..6) of a game with ``players`` seats and dealer ``dealer``, deals
the rest uniformly, plays the deal with every seat on the policy, and reports
for deals 1-5 the distribution of the deal's penalty for the seat (mean with
CI, chance of none with Wilson CI, quantiles), for deal 6 (sevens) the chance
of going out first, the expected passes and the expected deal score. Sample
deal i of seed s is the same cards under every rule option and policy
(``cardmc.kernels.norwegian_jazz_odds``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cardmc import pimc, stats
from cardmc.kernels import norwegian_jazz as k
from cardmc.kernels import norwegian_jazz_odds as ko
from cardmc.kernels.cards import code
from cardmc.odds import Odds
from cardmc.odds.preamble import ask, given_hands
from cardmc.registry import UsageError

DEAL_NAMES = {1: "tricks", 2: "clubs", 3: "queens", 4: "king of clubs", 5: "last trick", 6: "sevens"}
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)
BATCH = 4_000_000  # sample deals per kernel call at most (int16 rows: 40 MB)
PIMC_ROUND = 64  # deals a round with the search player (hundredths to tenths of a second a deal)


def check_deal(deal) -> int:
    """A deal number 1..6."""
    if isinstance(deal, bool) or not isinstance(deal, (int, np.integer)) or not 1 <= deal <= k.DEALS:
        raise UsageError(f"deal must be a whole number in 1..{k.DEALS}, not {deal!r}")
    return int(deal)


def hand_sizes(players: int, deal: int, dealer: int) -> list[int]:
    """Cards each seat holds in deal ``deal``: equal hands of the adjusted deck in deals
    1-5; in sevens, 52 cards dealt from the seat after the dealer, the first
    ``52 % players`` seats from there one card more."""
    if deal <= 5:
        return [int(k.ADJUSTED_SIZE[players]) // players] * players
    extra = 52 % players
    return [52 // players + (1 if (s - dealer - 1) % players < extra else 0) for s in range(players)]


def deck_mask(players: int, deal: int) -> int:
    """The mask of the cards dealt in deal ``deal`` (the game's ``dealing.deck``)."""
    from cardmc.norwegian_jazz import SPEC

    return SPEC.dealing.deck(players, deal)[0]


def check_deck(masks, players: int, deal: int) -> np.uint64:
    """The deal's deck mask; ``UsageError`` names a given card outside it."""
    deck = deck_mask(players, deal)
    for m in masks:
        if m & ~deck:
            gone = code((m & ~deck).bit_length() - 1)
            raise UsageError(f"card {gone!r} is not in the deck of deal {deal} with {players} players")
    return np.uint64(deck)


def condition(hand, seat: int, dealer: int, players: int, deal: int, hands=None):
    """The fixed cards per seat (uint64 masks) of ``hand`` (the seat's whole hand, or
    None) and ``hands`` (``{seat: cards}`` or ``["SEAT:CARDS"]``, whole or part hands),
    checked against the deal's deck and hand sizes; with the hand sizes and the deck's mask."""
    from cardmc.norwegian_jazz import SPEC

    sizes = hand_sizes(players, deal, dealer)
    masks = given_hands(SPEC, players, seat, hand, hands, sizes, whole_hand=True)
    deck = check_deck(masks, players, deal)
    return np.array(masks, np.uint64), np.array(sizes, np.int64), deck


def odds(
    hand=None,
    seat: int = 1,
    dealer: int = 0,
    games: int = 1_000_000,
    seed: int = 0,
    players: int = 4,
    deal: int = 6,
    policy: str | None = None,
    settings: dict | None = None,
    hands=None,
    target_se: float | None = None,
    max_seconds: float | None = None,
    progress: bool = False,
) -> Odds:
    """Odds of ``seat``'s hand in deal ``deal`` (1..6) when ``dealer`` deals, at most
    ``games`` sample deals (see the module); a ``cardmc.odds.Odds``. ``hand``
    is the seat's whole hand; ``hands`` (``{seat: cards}`` or
    ``["SEAT:CARDS", ...]``) fixes whole or part hands of any seat.
    ``settings``: the game's rule options (``first_out_bonus``, ``play_out``;
    ``stop_early`` changes nothing but speed) and the search player's
    (``pimc_samples``, ``pimc_tricks``, ``pimc_sevens_cards``): seats of
    policy ``pimc`` search as in games, on the same sample deals, in rounds
    of ``PIMC_ROUND`` deals. Deals run in rounds
    (``cardmc.odds.rounds``) until ``games``, ``max_seconds`` or every
    standard error at most ``target_se``."""
    from cardmc.norwegian_jazz import SPEC

    deal = check_deal(deal)
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
        players=players,
        whole_hand=True,
        sizes=lambda n, at: hand_sizes(n, deal, at),
    )
    players, seat, dealer, full = q.players, q.seat, q.dealer, q.settings
    fixed, sizes = q.fixed, np.array(q.sizes, np.int64)
    deck = check_deck(q.hands, players, deal)
    bonus, play_out = int(full["first_out_bonus"]), bool(full["play_out"])
    stop_early = bool(full["stop_early"])
    parts: list[dict] = []

    def sample(start: int, count: int) -> None:
        args = (
            q.seed,
            start,
            count,
            players,
            deal,
            dealer,
            seat,
            deck,
            fixed,
            sizes,
            bonus,
            play_out,
            stop_early,
            q.policies,
        )
        out = pimc_deals(*args, q.params) if q.searching else ko.odds_deals(*args, q.params[k.P_WEIGHTS :])
        parts[:] = [merge([*parts, counts_of(out)])]

    def worst_se() -> float:
        """The largest SE reported; a share's by Agresti-Coull, so that no event does not stop early."""
        done = int(parts[0]["score"].sum())
        t = summary_table(parts[0], done, deal)
        shares = t["events"].notna() if "events" in t.columns else pd.Series(False, index=t.index)
        se = [
            stats.agresti_coull_se(int(t.at[i, "events"]), done) if shares[i] else t.at[i, "se"]
            for i in t.index
        ]
        return float(max(se))

    each = PIMC_ROUND if q.searching else q.round_deals(BATCH)
    n, stopped = q.rounds(sample, worst_se, "norwegian_jazz odds", each)
    counts = parts[0]
    summary, scores, quantiles = (
        summary_table(counts, n, deal),
        score_table(counts["score"], n),
        quantile_table(counts["score"]),
    )
    size = len(q.cards())
    known = "" if size == sizes[seat] else f" ({size} of {sizes[seat]} cards known)"
    options = "" if deal <= 5 else f", first_out_bonus {bonus}, play_out {str(play_out).lower()}"
    if q.searching:
        search = (
            f"pimc_tricks {int(full['pimc_tricks'])}"
            if deal <= 5
            else f"pimc_sevens_cards {int(full['pimc_sevens_cards'])}"
        )
        options += f", pimc_samples {int(full['pimc_samples'])}, {search}"
    question = (
        f"deal {deal} ({DEAL_NAMES[deal]}), {players} players, hand {' '.join(q.cards())}"
        f"{known}: seat {seat}, dealer {dealer}{q.others()}, policy {q.policy}{options}"
    )
    return Odds(
        game="norwegian_jazz",
        question=question,
        best=None,
        tables={"summary": summary, "scores": scores, "quantiles": quantiles},
        notes=[],
        players=players,
        deal=deal,
        deal_name=DEAL_NAMES[deal],
        hand=q.cards(),
        hands={s: q.cards(s) for s, m in enumerate(q.hands) if m},
        seat=seat,
        dealer=dealer,
        policy=q.policy,
        settings=SPEC.rule_settings(full),
        seed=q.seed,
        deals=n,
        target_se=q.target_se,
        stopped_by=stopped,
        summary=summary,
        scores=scores,
        quantiles=quantiles,
    )


def pimc_deals(
    seed: int,
    start: int,
    count: int,
    players: int,
    deal: int,
    dealer: int,
    seat: int,
    deck,
    fixed: np.ndarray,
    sizes: np.ndarray,
    bonus: int,
    play_out: bool,
    stop_early: bool,
    policies: np.ndarray,
    params: np.ndarray,
) -> np.ndarray:
    """``odds_deals``' answer for sample deals start..start+count-1 with the
    ``pimc`` seats of ``policies`` searching (``cardmc.pimc``; in sevens from
    ``pimc_sevens_cards`` cards left, as in games): the same hands, played on
    the run's threads, deal i the same whatever the threads."""
    import numba

    from cardmc.kernels.jit import in_threads

    out = np.zeros((count, ko.O_SIZE), np.int64)
    # sevens: as in games (play_games), no search when play_out (the solver stops at the first out)
    sevens_cards = 0 if play_out else int(params[k.P_PIMC_SEVENS_CARDS])
    shares = max(1, min(numba.get_num_threads(), count))

    def work(share: int) -> None:
        events = np.zeros((k.max_events(players), 4), np.int64)
        for j in range(count * share // shares, count * (share + 1) // shares):

            def play(script, i=start + j):
                return ko.odds_deal_pimc(
                    seed,
                    i,
                    players,
                    deal,
                    dealer,
                    seat,
                    deck,
                    fixed,
                    sizes,
                    bonus,
                    play_out,
                    stop_early,
                    policies,
                    sevens_cards,
                    script,
                    events,
                )

            out[j] = pimc.scripted(
                "norwegian_jazz", players, seed, start + j, params, play, events, None, 52
            )[0]

    in_threads(work, shares)
    return out


def counts_of(out: np.ndarray) -> dict[str, pd.Series]:
    """Deals by value of each output column."""
    names = {
        "score": ko.O_SCORE,
        "tricks": ko.O_TRICKS,
        "taken": ko.O_TAKEN,
        "passes": ko.O_PASSES,
        "first_out": ko.O_FIRST_OUT,
    }
    res = {}
    for name, col in names.items():
        v, c = np.unique(out[:, col].astype(np.int64), return_counts=True)
        res[name] = pd.Series(c, index=v, dtype=np.int64)
    return res


def merge(parts: list[dict]) -> dict[str, pd.Series]:
    return {name: pd.concat([p[name] for p in parts]).groupby(level=0).sum() for name in parts[0]}


def mean_of(counts: pd.Series) -> dict:
    """The mean of a variable given as deals per value (the index)."""
    return stats.mean_from_counts(counts.index, counts)


def summary_table(counts: dict, n: int, deal: int) -> pd.DataFrame:
    """The deal's figures for the seat: deals 1-5 its penalty, sevens going out first and its score."""
    score = counts["score"]
    if deal <= 5:
        rows = [
            stats.row("expected_penalty", mean_of(score), "measure"),
            stats.row("no_penalty", stats.proportion(int(score.get(0, 0)), n), "measure"),
            stats.row("mean_tricks", mean_of(counts["tricks"]), "measure"),
            stats.row("mean_penalty_units", mean_of(counts["taken"]), "measure"),
        ]
    else:
        rows = [
            stats.row("first_out", stats.proportion(int(counts["first_out"].get(1, 0)), n), "measure"),
            stats.row("expected_passes", mean_of(counts["passes"]), "measure"),
            stats.row("expected_score", mean_of(score), "measure"),
        ]
    out = pd.concat(rows)
    out["events"] = out["events"].astype("Int64")  # counts, and none for the means
    return out


def score_table(score: pd.Series, n: int) -> pd.DataFrame:
    """Share of deals with each deal score, Wilson 95% CIs."""
    rows = [stats.row(int(v), stats.proportion(int(c), n), "measure") for v, c in score.sort_index().items()]
    return pd.concat(rows).rename_axis("score")


def quantile_table(score: pd.Series) -> pd.DataFrame:
    """Quantiles of the deal score (the lower value at a tie of ranks)."""
    s = score.sort_index()
    cum = s.cumsum().to_numpy() / s.sum()
    vals = [int(s.index[np.searchsorted(cum, q - 1e-12)]) for q in QUANTILES]
    return pd.DataFrame({"score": vals}, index=pd.Index(QUANTILES, name="quantile"))
