"""Every game's frame, built column by column from the kernel's rows, is the
DataFrame the former pandas conversion gave: the same columns, values and
dtypes (categoricals with the same categories and codes), and the same bytes
in a Parquet file."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from cardmc import registry
from cardmc.kernels import differenzler as KD
from cardmc.kernels import english_jazz as KE
from cardmc.kernels import norwegian_jazz as KN
from cardmc.kernels import schieber as KS
from cardmc.kernels.cards import SUITS, code


def _small(kernel, default: str, wider: dict) -> dict:
    return {**{c: default for c in kernel.COLUMNS}, **wider}


def _cat(codes, categories, dtype=None):
    codes = codes.astype(np.int8)
    return (
        pd.Categorical.from_codes(codes, dtype=dtype)
        if dtype is not None
        else pd.Categorical.from_codes(codes, categories=categories)
    )


def differenzler_before(rows):
    small = _small(
        KD,
        "int16",
        {
            "game": "int64",
            **{
                c: "int8"
                for c in (
                    "deal",
                    "seat",
                    "dealer",
                    "rel",
                    "extra",
                    "tricks",
                    "trumps",
                    "trump_jack",
                    "trump_nine",
                    "aces",
                    "tens",
                    "kings",
                    "len_c",
                    "len_d",
                    "len_h",
                    "len_s",
                    "winner",
                    "tied",
                )
            },
        },
    )
    cards = pd.CategoricalDtype([code(s * 16 + r) for s in range(4) for r in range(4, 13)])
    df = pd.DataFrame(rows, columns=list(KD.COLUMNS)).astype(small)
    c = rows[:, KD.C_TRUMP_CARD]
    df["trump_card"] = pd.Categorical.from_codes(((c >> 4) * 9 + (c & 15) - 4).astype(np.int16), dtype=cards)
    df["trump"] = _cat(rows[:, KD.C_TRUMP], list(SUITS))
    df["play_policy"] = _cat(rows[:, KD.C_PLAY_POLICY], ["random", "heuristic", "pimc", "learned"])
    df["declare_policy"] = _cat(
        rows[:, KD.C_DECLARE_POLICY], ["random", "heuristic", "calibrated", "learned"]
    )
    return df


def schieber_before(rows):
    small = _small(
        KS,
        "int8",
        {
            "game": "int64",
            "deal": "int16",
            "weis": "int16",
            "weis_kinds": "int16",
            "card_points": "int16",
            "score": "int16",
            "best_value": "int16",
            "total0": "int32",
            "total1": "int32",
            "deals": "int16",
        },
    )
    df = pd.DataFrame(rows, columns=list(KS.COLUMNS)).astype(small)
    for col in ("contract", "best_contract"):
        df[col] = _cat(rows[:, KS.COLUMNS.index(col)], KS.CONTRACT_NAMES)
    return df


def english_jazz_before(rows):
    small = _small(
        KE, "int8", {"game": "int64", "card_points": "int16", "points_held": "int16", "total": "int16"}
    )
    df = pd.DataFrame(rows, columns=list(KE.COLUMNS)).astype(small)
    df["trump"] = _cat(rows[:, KE.C_TRUMP], list(SUITS))
    df["rule"] = _cat(rows[:, KE.C_RULE], list(KE.RULE_LETTERS))
    return df


def norwegian_jazz_before(rows):
    small = _small(
        KN,
        "int8",
        {
            "game": "int64",
            "turns": "int16",
            "score": "int16",
            "total5": "int16",
            "total": "int16",
            "passes": "int16",
        },
    )
    df = pd.DataFrame(rows, columns=list(KN.COLUMNS)).astype(small)
    df["policy"] = _cat(rows[:, KN.C_POLICY], list(KN.POLICY_NAMES))
    return df


CASES = [  # game, policy, players, settings, the former frame
    (
        "differenzler",
        "heuristic:random,random:calibrated,heuristic,calibrated",
        None,
        {},
        differenzler_before,
    ),
    ("schieber", "heuristic,random,random,heuristic", None, {}, schieber_before),
    ("english_jazz", "random,heuristic,heuristic", None, {}, english_jazz_before),
    (
        "norwegian_jazz",
        "random,heuristic,heuristic,random,heuristic",
        5,
        {"first_out_bonus": 80},
        norwegian_jazz_before,
    ),
]


def _parquet(df: pd.DataFrame) -> bytes:
    out = io.BytesIO()
    df.to_parquet(out, index=False)
    return out.getvalue()


@pytest.mark.parametrize("game,policy,players,settings,before", CASES)
def test_frame_is_the_former_frame(game, policy, players, settings, before):
    spec = registry.get(game)
    players = spec.check_players(players)
    rows = spec.simulate_block(
        3, 0, 5000, players, spec.params(spec.settings(settings)), spec.parse_policy(policy, players)
    )
    for part in (rows, rows[:0], rows[:1], rows[1:4099]):  # sizes around the split's shares
        got, want = spec.frame(part), before(part)
        pd.testing.assert_frame_equal(got, want, check_exact=True)
        assert list(got.dtypes) == list(want.dtypes)
        for col in got.columns:
            if isinstance(want[col].dtype, pd.CategoricalDtype):
                assert np.array_equal(got[col].cat.codes.to_numpy(), want[col].cat.codes.to_numpy())
                assert got[col].cat.codes.dtype == want[col].cat.codes.dtype
        assert _parquet(got) == _parquet(want)
    if game == "english_jazz":  # trumps never set are missing values
        assert spec.frame(rows)["trump"].isna().any()


@pytest.mark.parametrize("small_pages_from", [1 << 62, 1], ids=["numpy", "small pages"])
@pytest.mark.parametrize("game,policy,players,settings,before", CASES)
def test_gathered_blocks_are_one_frame_of_them_all(
    game, policy, players, settings, before, small_pages_from, monkeypatch
):
    """A run's blocks split straight into one set of column arrays make the
    frame of all their rows, whether the arrays' first estimate of the run's
    rows is too small (they grow), too large or exact, and whether the arrays
    come from numpy or, as large ones do, are mapped on small pages."""
    from cardmc import frames
    from cardmc.frames import Gather

    monkeypatch.setattr(frames, "SMALL_PAGES_FROM", small_pages_from)

    spec = registry.get(game)
    players = spec.check_players(players)
    params, codes = spec.params(spec.settings(settings)), spec.parse_policy(policy, players)
    sizes = [7, 1, 300, 45]
    blocks = [spec.simulate_block(4, sum(sizes[:i]), n, players, params, codes) for i, n in enumerate(sizes)]
    sizes.insert(3, 0)
    blocks.insert(3, blocks[0][:0])  # a block without rows changes nothing
    want = before(np.concatenate(blocks))
    for games in (1, sum(sizes), 10 * sum(sizes)):
        gather = Gather(spec.layout, games)
        for n, rows in zip(sizes, blocks):
            gather.add(rows, n)
        got = gather.frame()
        pd.testing.assert_frame_equal(got, want, check_exact=True)
        assert list(got.dtypes) == list(want.dtypes) and _parquet(got) == _parquet(want)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("game", ["differenzler", "schieber"])
def test_rows_read_span_by_span_are_the_joined_rows(game, threads):
    """The kernel's rows left where its slices wrote them, read span by span
    (a run's frame, its aggregates), give what the rows moved together give:
    in blocks whose shares, one a thread, cut across the spans."""
    import numba

    from cardmc import aggregate as agg
    from cardmc.frames import Gather
    from cardmc.registry import join_spans

    spec = registry.get(game)
    params, codes = spec.params(spec.settings({})), spec.parse_policy("random", 4)
    before = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        rows, spans = spec.simulate_spans(5, 0, 2500, 4, params, codes)
        if threads > 1 or game == "differenzler":  # (Schieber: a slice a thread)
            assert len(spans) > 1 and (spans[1:, 0] != spans[:-1].sum(axis=1)).any()  # gaps between spans
        joined = join_spans(rows.copy(), spans)
        assert len(joined) > 2 * 4096  # enough rows for a share a thread
        gather = Gather(spec.layout, 5000)
        gather.add(rows[:0], 0)
        gather.add(rows, 2500, spans)
        gather.add(joined[:7], 0)  # after spans, plain rows go on from the spans' end
        want = spec.frame(np.concatenate([joined, joined[:7]]))
        pd.testing.assert_frame_equal(gather.frame(), want, check_exact=True)
        by_spans, by_rows = (agg.tally(spec, 4, params) for _ in range(2))
        by_spans.add(rows.copy(), spans)
        by_rows.add(joined)
        assert by_spans.rows == by_rows.rows == len(joined)
        a, b = by_spans.result(), by_rows.result()
        assert list(a) == list(b)
        for name in a:
            pd.testing.assert_frame_equal(a[name], b[name], check_exact=True)
    finally:
        numba.set_num_threads(before)


@pytest.mark.parametrize("game,players", [("english_jazz", 3), ("norwegian_jazz", 5)])
def test_blocks_split_slice_by_slice_as_they_are_played_make_the_frame(game, players):
    """Where every game writes its rows one after another, each slice's rows
    are split into the columns as they are played (``Gather.block``); a block
    whose slices did not all reach the columns (the search player's blocks)
    is split afterwards, over what they wrote: the frame is that of the rows."""
    import numba

    from cardmc.frames import Gather

    spec = registry.get(game)
    params, codes = spec.params(spec.settings({})), spec.parse_policy("random", players)
    dense = spec.dense_rows(players, params)
    before = numba.get_num_threads()
    try:
        for threads in (1, 2):
            numba.set_num_threads(threads)
            gather, blocks = Gather(spec.layout, 900, dense), []
            for i, (first, n) in enumerate([(0, 300), (300, 333), (633, 267)]):
                after = gather.block(threads, n)
                if i == 1:  # only the first slice's rows reach the columns, and at the wrong place
                    rows, spans = spec.simulate_spans(6, first, n, players, params, codes)
                    after(0, rows, 1, 1 + dense * 2)
                else:
                    rows, spans = spec.simulate_spans(6, first, n, players, params, codes, after=after)
                assert spans.tolist() == [[0, n * dense]]
                blocks.append(rows.copy())
                gather.add(rows, n, spans)
            want = spec.frame(np.concatenate(blocks))
            pd.testing.assert_frame_equal(gather.frame(), want, check_exact=True)
    finally:
        numba.set_num_threads(before)
