"""Norwegian Jazz: the odds of one hand in one deal, the other cards dealt at random.

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
from cardmc.condition import hand_items, parse_hands
from cardmc.checks import check_count, check_seed
from cardmc.kernels import norwegian_jazz as k
from cardmc.kernels import norwegian_jazz_odds as ko
from cardmc.kernels.cards import code, codes_of
from cardmc.registry import UsageError

DEAL_NAMES = {1: "tricks", 2: "clubs", 3: "queens", 4: "king of clubs", 5: "last trick", 6: "sevens"}
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)
BATCH = 4_000_000  # sample deals per kernel call at most (int16 rows: 40 MB)


def _check_int(name: str, value, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
        raise UsageError(f"{name} must be a whole number in {low}..{high}, not {value!r}")
    return int(value)


def hand_sizes(players: int, deal: int, dealer: int) -> list[int]:
    """Cards each seat holds in deal ``deal``: equal hands of the adjusted deck in deals
    1-5; in sevens, 52 cards dealt from the seat after the dealer, the first
    ``52 % players`` seats from there one card more."""
    if deal <= 5:
        return [int(k.ADJUSTED_SIZE[players]) // players] * players
    extra = 52 % players
    return [52 // players + (1 if (s - dealer - 1) % players < extra else 0) for s in range(players)]


def deck_mask(players: int, deal: int) -> int:
    cards = k.ADJUSTED[players, : k.ADJUSTED_SIZE[players]] if deal <= 5 else k.FULL_DECK
    return sum(1 << int(c) for c in cards)


def condition(hand, seat: int, dealer: int, players: int, deal: int, hands=None):
    """The fixed cards per seat (uint64 masks) of ``hand`` (the seat's whole hand, or
    None) and ``hands`` (``{seat: cards}`` or ``["SEAT:CARDS"]``, whole or part hands),
    checked against the deal's deck and hand sizes; with the hand sizes and the deck's mask."""
    sizes = hand_sizes(players, deal, dealer)
    items = hand_items(hands)
    if hand is not None:
        if isinstance(hand, (list, tuple)):
            hand = " ".join(map(str, hand))
        if not isinstance(hand, str):
            raise UsageError(f"hand must be card codes such as 'AS KS 7H ...', not {hand!r}")
        got = len(hand.replace(",", " ").split())
        if got != sizes[seat]:
            raise UsageError(f"seat {seat} holds {sizes[seat]} cards in deal {deal} with {players} players, got "
                             f"{got}: {hand!r} (give part of a hand as hands={{seat: cards}})")  # fmt: skip
        items = [(seat, hand), *items]
    masks = parse_hands(dict_of(items), players, 52, sizes)
    deck = deck_mask(players, deal)
    for s, m in enumerate(masks):
        if m & ~deck:
            gone = code((m & ~deck).bit_length() - 1)
            raise UsageError(f"card {gone!r} is not in the deck of deal {deal} with {players} players")
    return np.array(masks, np.uint64), np.array(sizes, np.int64), np.uint64(deck)


def dict_of(items) -> list[str]:
    """(seat, cards) pairs as the ``SEAT:CARDS`` texts ``parse_hands`` reads."""
    return [f"{s}:{text}" for s, text in items]


def odds(
    hand=None,
    seat: int = 1,
    dealer: int = 0,
    games: int = 1_000_000,
    seed: int = 0,
    players: int = 4,
    deal: int = 6,
    policy: str = "heuristic",
    settings: dict | None = None,
    hands=None,
    target_se: float | None = None,
    max_seconds: float | None = None,
    progress: bool = False,
):
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
    from cardmc.norwegian_jazz import SPEC, parse_policy
    from cardmc.odds_frame import ROUND, Odds, rounds, share_se

    players = SPEC.check_players(players)
    seat = _check_int("seat", seat, 0, players - 1)
    dealer = _check_int("dealer", dealer, 0, players - 1)
    deal = _check_int("deal", deal, 1, 6)
    games = check_count("games", games)
    seed = check_seed(seed)
    full = SPEC.settings(settings)
    if not isinstance(policy, str):
        raise UsageError(f"policy must be a name such as 'heuristic', not {policy!r}")
    policies = parse_policy(policy, players)
    if target_se is not None and (isinstance(target_se, bool) or not isinstance(target_se, (int, float))
                                  or not target_se > 0):  # fmt: skip
        raise UsageError(f"target_se must be a positive number, not {target_se!r}")
    fixed, sizes, deck = condition(hand, seat, dealer, players, deal, hands)
    bonus, play_out, stop_early = int(full["first_out_bonus"]), bool(full["play_out"]), bool(full["stop_early"])
    parts: list[dict] = []

    searching = pimc.has_pimc(policies, "norwegian_jazz")
    params = SPEC.params(full)

    def sample(start: int, count: int) -> None:
        if searching:
            out = _pimc_deals(seed, start, count, players, deal, dealer, seat, deck, fixed, sizes, bonus, play_out,
                              stop_early, policies, params)  # fmt: skip
        else:
            out = ko.odds_deals(seed, start, count, players, deal, dealer, seat, deck, fixed, sizes, bonus, play_out,
                                stop_early, policies)  # fmt: skip
        parts[:] = [_merge([*parts, _counts(out)])]

    def worst_se() -> float:
        """The largest SE reported; a share's by Agresti-Coull, so that no event does not stop early."""
        done = int(parts[0]["score"].sum())
        t = _summary(parts[0], done, deal)
        shares = t["events"].notna() if "events" in t.columns else pd.Series(False, index=t.index)
        se = [share_se(int(t.at[i, "events"]), done) if shares[i] else t.at[i, "se"] for i in t.index]
        return float(max(se))

    stepped = target_se is not None or max_seconds is not None
    each = PIMC_ROUND if searching else ROUND if stepped else min(games, BATCH)
    n, stopped = rounds(sample, games, worst_se, target_se, max_seconds, progress, "norwegian_jazz odds",
                        round_deals=each)  # fmt: skip
    counts = parts[0]
    rules = SPEC.rule_settings(full)
    summary, scores, quantiles = _summary(counts, n, deal), _scores(counts["score"], n), _quantiles(counts["score"])
    others = "".join(f", seat {s} holds {' '.join(codes_of(int(m)))}" for s, m in enumerate(fixed)
                     if m and s != seat)  # fmt: skip
    size = bin(int(fixed[seat])).count("1")
    known = "" if size == sizes[seat] else f" ({size} of {sizes[seat]} cards known)"
    options = "" if deal <= 5 else f", first_out_bonus {bonus}, play_out {str(play_out).lower()}"
    if searching:
        search = f"pimc_tricks {int(full['pimc_tricks'])}" if deal <= 5 else \
            f"pimc_sevens_cards {int(full['pimc_sevens_cards'])}"  # fmt: skip
        options += f", pimc_samples {int(full['pimc_samples'])}, {search}"
    question = (f"deal {deal} ({DEAL_NAMES[deal]}), {players} players, hand {' '.join(codes_of(int(fixed[seat])))}"
                f"{known}: seat {seat}, dealer {dealer}{others}, policy {policy}{options}")  # fmt: skip
    return Odds(
        game="norwegian_jazz", question=question, best=None,
        tables={"summary": summary, "scores": scores, "quantiles": quantiles}, notes=[],
        players=players, deal=deal, deal_name=DEAL_NAMES[deal], hand=codes_of(int(fixed[seat])),
        hands={s: codes_of(int(m)) for s, m in enumerate(fixed) if m}, seat=seat, dealer=dealer, policy=policy,
        settings=rules, seed=seed, deals=n, target_se=target_se, stopped_by=stopped,
        summary=summary, scores=scores, quantiles=quantiles,
    )  # fmt: skip


PIMC_ROUND = 64  # deals a round with the search player (hundredths to tenths of a second a deal)


def _pimc_deals(seed: int, start: int, count: int, players: int, deal: int, dealer: int, seat: int, deck,
                fixed: np.ndarray, sizes: np.ndarray, bonus: int, play_out: bool, stop_early: bool,
                policies: np.ndarray, params: np.ndarray) -> np.ndarray:  # fmt: skip
    """``odds_deals``' answer for sample deals start..start+count-1 with the
    ``pimc`` seats of ``policies`` searching (``cardmc.pimc``; in sevens from
    ``pimc_sevens_cards`` cards left, as in games): the same hands, played on
    the run's threads, deal i the same whatever the threads."""
    import numba

    from cardmc.kernels.jit import in_threads

    out = np.zeros((count, ko.O_SIZE), np.int64)
    # sevens: as in games (play_games), no search when play_out (the solver stops at the first out)
    sevens_cards = 0 if play_out else int(params[k.P_PIMC_SEVENS_CARDS])
    parts = max(1, min(numba.get_num_threads(), count))

    def work(part: int) -> None:
        events = np.zeros((k.max_events(players), 4), np.int64)
        for j in range(count * part // parts, count * (part + 1) // parts):
            def play(script, i=start + j):
                return ko.odds_deal_pimc(seed, i, players, deal, dealer, seat, deck, fixed, sizes, bonus, play_out,
                                         stop_early, policies, sevens_cards, script, events)  # fmt: skip

            out[j] = pimc.scripted("norwegian_jazz", players, seed, start + j, params, play, events, None, 52)[0]

    in_threads(work, parts)
    return out


def _counts(out: np.ndarray) -> dict[str, pd.Series]:
    """Deals by value of each output column."""
    names = {"score": ko.O_SCORE, "tricks": ko.O_TRICKS, "taken": ko.O_TAKEN, "passes": ko.O_PASSES,
             "first_out": ko.O_FIRST_OUT}  # fmt: skip
    res = {}
    for name, col in names.items():
        v, c = np.unique(out[:, col].astype(np.int64), return_counts=True)
        res[name] = pd.Series(c, index=v, dtype=np.int64)
    return res


def _merge(parts: list[dict]) -> dict[str, pd.Series]:
    return {name: pd.concat([p[name] for p in parts]).groupby(level=0).sum() for name in parts[0]}


def hist_mean(counts: pd.Series) -> dict:
    """Mean, standard error and 95% CI of a variable given as deals per value."""
    v = counts.index.to_numpy(np.int64)
    c = counts.to_numpy(np.int64)
    return stats.mean_from_sums(int((v * c).sum()), int((v * v * c).sum()), int(c.sum()))


def _row(name: str, d: dict) -> pd.DataFrame:
    keep = {key: d.get(key, np.nan) for key in ("estimate", "se", "ci_low", "ci_high", "n", "events")}
    return pd.DataFrame([keep], index=pd.Index([name], name="measure"))


def _summary(counts: dict, n: int, deal: int) -> pd.DataFrame:
    score = counts["score"]
    if deal <= 5:
        rows = [_row("expected_penalty", hist_mean(score)),
                _row("no_penalty", stats.proportion(int(score.get(0, 0)), n)),
                _row("mean_tricks", hist_mean(counts["tricks"])),
                _row("mean_penalty_units", hist_mean(counts["taken"]))]  # fmt: skip
    else:
        rows = [_row("first_out", stats.proportion(int(counts["first_out"].get(1, 0)), n)),
                _row("expected_passes", hist_mean(counts["passes"])),
                _row("expected_score", hist_mean(score))]  # fmt: skip
    out = pd.concat(rows)
    out["events"] = out["events"].astype("Int64")  # counts, and none for the means
    return out


def _scores(score: pd.Series, n: int) -> pd.DataFrame:
    """Share of deals with each deal score, Wilson 95% CIs."""
    rows = [_row(int(v), stats.proportion(int(c), n)) for v, c in score.sort_index().items()]
    return pd.concat(rows).rename_axis("score")


def _quantiles(score: pd.Series) -> pd.DataFrame:
    """Quantiles of the deal score (the lower value at a tie of ranks)."""
    s = score.sort_index()
    cum = s.cumsum().to_numpy() / s.sum()
    vals = [int(s.index[np.searchsorted(cum, q - 1e-12)]) for q in QUANTILES]
    return pd.DataFrame({"score": vals}, index=pd.Index(QUANTILES, name="quantile"))
