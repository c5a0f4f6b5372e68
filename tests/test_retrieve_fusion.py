"""Reciprocal Rank Fusion: hand-computed tables, tie-breaking, validation, and properties."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexgraph.index.query import IndexHit
from lexgraph.index.units import IndexUnit
from lexgraph.retrieve.fusion import DEFAULT_FUSION, DEFAULT_MEAN_WEIGHTS, Scored, mean_normalised, rrf
from lexgraph.retrieve.retrievers import Retrieved, fuse


def exact(ranks: tuple[int | None, ...], k: int, weights: tuple[float, ...] | None = None) -> float:
    """The RRF score computed in exact arithmetic, as a reference."""
    weights = weights or (1,) * len(ranks)
    return float(sum(Fraction(w) / (k + r) for r, w in zip(ranks, weights, strict=True) if r is not None))


def test_two_lists_hand_computed() -> None:
    # item  ranks    score (k = 60)
    # b     (2, 1)   1/62 + 1/61 = 0.032522
    # c     (3, 2)   1/63 + 1/62 = 0.032002
    # a     (1, -)   1/61        = 0.016393
    # d     (-, 3)   1/63        = 0.015873
    fused = rrf([["a", "b", "c"], ["b", "c", "d"]])
    assert [(s.id, s.ranks) for s in fused] == [("b", (2, 1)), ("c", (3, 2)), ("a", (1, None)), ("d", (None, 3))]
    for s in fused:
        assert s.score == pytest.approx(exact(s.ranks, 60), rel=1e-15)
    assert fused[0].score == pytest.approx(0.0325224, abs=1e-7)


def test_k_changes_the_order() -> None:
    # a is first in one list, b second in both. With k = 1: a = 1/2, b = 2/3 (b wins).
    # With k = 1000: a = 1/1001, b = 2/1002 (b still wins): check the exact values, not only the order.
    lists = [["a", "b"], ["c", "b"]]
    small = {s.id: s.score for s in rrf(lists, k=1)}
    assert small == pytest.approx({"a": 1 / 2, "b": 2 / 3, "c": 1 / 2})
    assert [s.id for s in rrf(lists, k=1)] == ["b", "a", "c"]


def test_weights_hand_computed() -> None:
    # weights (2, 1), k = 1:  x ranks (1, 2) → 2/2 + 1/3 = 4/3;  y ranks (2, 1) → 2/3 + 1/2 = 7/6
    fused = rrf([["x", "y"], ["y", "x"]], k=1, weights=[2, 1])
    assert [(s.id, s.score) for s in fused] == [("x", pytest.approx(4 / 3)), ("y", pytest.approx(7 / 6))]


def test_zero_weight_keeps_items_without_moving_them() -> None:
    fused = rrf([["a", "b"], ["c", "b", "d"]], weights=[1, 0])
    assert [s.id for s in fused] == ["a", "b", "c", "d"]  # c and d score 0: ordered by best rank, then id
    assert {s.id: s.ranks for s in fused}["d"] == (None, 3)
    assert {s.id: s.score for s in fused}["c"] == 0.0


def test_ties_go_to_best_single_rank_then_id() -> None:
    # k = 1.  "a": ranks (3, 3) → 1/4 + 1/4 = 1/2; "m": (1, -) → 1/2; "z": (-, 1) → 1/2; "x", "y": rank 2 → 1/3.
    # All three halves are bit-identical. "a" has the best id but the worst best rank; "m" beats "z" on id.
    fused = rrf([["m", "x", "a"], ["z", "y", "a"]], k=1)
    assert [s.id for s in fused] == ["m", "z", "a", "x", "y"]
    assert fused[0].score == fused[1].score == fused[2].score == 0.5


def test_symmetric_ties_are_bit_identical_whatever_the_list_order() -> None:
    lists = [["a", "b", "c"], ["c", "a", "b"], ["b", "c", "a"]]
    fused = rrf(lists)
    assert fused[0].score == fused[1].score == fused[2].score
    assert [s.id for s in fused] == ["a", "b", "c"]
    assert [s.id for s in rrf(lists[::-1])] == ["a", "b", "c"]


def test_duplicates_within_a_list_count_once_and_take_no_rank() -> None:
    fused = rrf([["a", "a", "b", "a"]])
    assert [(s.id, s.ranks) for s in fused] == [("a", (1,)), ("b", (2,))]
    assert fused[1].score == pytest.approx(1 / 62)


def test_one_list_keeps_its_order_and_scores() -> None:
    ids = ["q", "b", "z", "a"]
    fused = rrf([ids], k=10)
    assert [s.id for s in fused] == ids
    assert [s.score for s in fused] == pytest.approx([1 / 11, 1 / 12, 1 / 13, 1 / 14])
    assert [s.best_rank for s in fused] == [1, 2, 3, 4]


@pytest.mark.parametrize("lists", [[], [[]], [[], []]])
def test_empty_inputs(lists: list[list[str]]) -> None:
    assert rrf(lists) == []


def test_limit() -> None:
    # c (3, 1): 1/63 + 1/61 = 0.0322664 just beats b (2, 2): 2/62 = 0.0322581 (1/(k+r) is convex in r).
    fused = rrf([["a", "b", "c"], ["c", "b"]], limit=2)
    assert [s.id for s in fused] == ["c", "b"]
    assert rrf([["a"]], limit=0) == []
    assert len(rrf([["a"]], limit=5)) == 1


def test_to_json() -> None:
    assert rrf([["a"], []])[0].to_json() == {"id": "a", "score": 1 / 61, "ranks": [1, None]}


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"k": 0}, "k must be a positive"),
        ({"k": -5}, "k must be a positive"),
        ({"k": math.nan}, "k must be a positive"),
        ({"k": math.inf}, "k must be a positive"),
        ({"k": True}, "k must be a positive"),
        ({"weights": [1.0]}, "weights has 1 values for 2 ranked lists"),
        ({"weights": [1.0, 2.0, 3.0]}, "weights has 3 values for 2 ranked lists"),
        ({"weights": [1.0, -0.5]}, r"weights\[1\] is -0.5"),
        ({"weights": [math.nan, 1.0]}, r"weights\[0\] is nan"),
        ({"limit": -1}, "limit must be None or an integer >= 0"),
    ],
)
def test_validation(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        rrf([["a"], ["b"]], **kwargs)  # type: ignore[arg-type]


def test_strings_are_not_lists() -> None:
    with pytest.raises(ValueError, match="not a string"):
        rrf("abc")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"ranked_lists\[1\] is a string"):
        rrf([["a"], "abc"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="ids must be strings"):
        rrf([["a", 3]])  # type: ignore[list-item]


# Properties ---------------------------------------------------------------------------------------------------------

ids = st.sampled_from([f"d{i}" for i in range(12)])
ranked_lists = st.lists(st.lists(ids, max_size=10), max_size=4)


@settings(max_examples=300, deadline=None)
@given(ranked_lists, st.integers(1, 100))
def test_fused_is_a_permutation_of_the_union(lists: list[list[str]], k: int) -> None:
    fused = rrf(lists, k=k)
    assert sorted(s.id for s in fused) == sorted({i for lst in lists for i in lst})
    scores = [s.score for s in fused]
    assert scores == sorted(scores, reverse=True)
    for s in fused:
        assert s.score == pytest.approx(exact(s.ranks, k), rel=1e-12)
        for ranked, rank in zip(lists, s.ranks, strict=True):
            assert (rank is None) == (s.id not in ranked)


@settings(max_examples=300, deadline=None)
@given(ranked_lists, st.integers(1, 100), st.data())
def test_score_is_monotone_in_rank(lists: list[list[str]], k: int, data: st.DataObject) -> None:
    """Moving an item one place up in one list raises its score; nothing else about it changes."""
    deduped = [list(dict.fromkeys(lst)) for lst in lists]
    candidates = [(i, p) for i, lst in enumerate(deduped) for p in range(1, len(lst))]
    if not candidates:
        return
    i, p = data.draw(st.sampled_from(candidates))
    item = deduped[i][p]
    moved = [list(lst) for lst in deduped]
    moved[i][p - 1], moved[i][p] = moved[i][p], moved[i][p - 1]
    before = {s.id: s.score for s in rrf(deduped, k=k)}[item]
    after = {s.id: s.score for s in rrf(moved, k=k)}[item]
    assert after > before


@settings(max_examples=200, deadline=None)
@given(ranked_lists)
def test_dominating_ranks_come_first(lists: list[list[str]]) -> None:
    """An item present in every list its rival is in, at a rank at least as good, is never ranked below it."""
    fused = rrf(lists)
    position = {s.id: n for n, s in enumerate(fused)}
    for a in fused:
        for b in fused:
            pairs = zip(a.ranks, b.ranks, strict=True)
            dominates = all(rb is None or (ra is not None and ra <= rb) for ra, rb in pairs)
            if dominates and a.id != b.id and a.ranks != b.ranks:
                assert position[a.id] < position[b.id], (a, b)


def test_scored_is_a_frozen_value() -> None:
    s = Scored("a", 0.5, (1, None))
    with pytest.raises(AttributeError):
        s.score = 1.0  # type: ignore[misc]
    assert s.best_rank == 1
    assert Scored("z", 0.0, (None,)).best_rank is None


# -- the weighted mean of normalised scores (the hybrid search's default fusion) ----------------------------------
# Lists as the hybrid search gives them: BM25 scores, cosine similarities, and the clauses the question cites
# (score 1 / rank). Ids are 刑事訴訟法 articles; the BM25 list has a clear winner (a405), dense another first hit.
BM25 = [("a405", 30.0), ("a411", 12.0), ("a435", 6.0)]
DENSE = [("a411", 0.86), ("a405", 0.85), ("a382", 0.84), ("a435", 0.80)]


@pytest.mark.parametrize(("weights", "expected"), [
    # a405: bm25 1.0, dense (0.85-0.80)/0.06 = 5/6; a411: bm25 0.25, dense 1.0; a382: dense 4/6; a435: 0, 0
    (None, {"a405": (1 + 5 / 6) / 2, "a411": (0.25 + 1) / 2, "a382": (4 / 6) / 2, "a435": 0.0}),
    ((1.0, 1.0), {"a405": (1 + 5 / 6) / 2, "a411": (0.25 + 1) / 2, "a382": (4 / 6) / 2, "a435": 0.0}),
    ((3.0, 1.0), {"a405": (3 + 5 / 6) / 4, "a411": (0.75 + 1) / 4, "a382": (4 / 6) / 4, "a435": 0.0}),
    ((1.0, 0.0), {"a405": 1.0, "a411": 0.25, "a382": 0.0, "a435": 0.0}),
])
def test_weighted_mean_hand_computed(weights: tuple[float, float] | None, expected: dict[str, float]) -> None:
    fused = mean_normalised([BM25, DENSE], weights=weights)
    assert {s.id: s.score for s in fused} == pytest.approx(expected, abs=1e-12)
    assert fused[0].id == "a405"
    assert {s.id: s.ranks for s in fused}["a382"] == (None, 3)  # a weight of 0 keeps the item and its ranks


def test_normalised_scores_keep_a_clear_bm25_win_that_rrf_gives_away() -> None:
    """Why the hybrid search fuses by scores: by rank, dense's first hit (a411, 0.86 against 0.85) counts as much
    as BM25's clear winner (a405, 30 against 12), and the tie goes to a411 by id order only after rank ties; by
    normalised scores the gap counts and a405 leads."""
    by_rank = rrf([[i for i, _ in BM25], [i for i, _ in DENSE]])
    assert by_rank[0].score == by_rank[1].score  # a405 (1, 2) and a411 (2, 1): RRF cannot tell them apart
    assert mean_normalised([BM25, DENSE])[0].id == "a405"


def test_a_cited_clause_comes_first_unless_both_searches_agree_on_another() -> None:
    """With the default weights the clauses the question cites weigh as much as BM25 and dense together: a cited
    clause (a435, found by neither search) leads over each search's own first hit, and only ties a clause both
    rank first (2 x 1 against 1 + 1; the tie goes by best rank, then id)."""
    weights = [DEFAULT_MEAN_WEIGHTS[name] for name in ("bm25", "dense", "cited")]
    cited = [("a435", 1.0)]
    fused = mean_normalised([BM25, DENSE, cited], weights=weights)
    assert [s.id for s in fused][:3] == ["a435", "a405", "a411"]
    agreeing = [("a405", 30.0), ("a411", 1.0)], [("a405", 0.9), ("a411", 0.1)]
    tied = mean_normalised([*agreeing, cited], weights=weights)
    assert [s.id for s in tied][:2] == ["a405", "a435"] and tied[0].score == tied[1].score
    assert DEFAULT_FUSION == "mean"


@pytest.mark.parametrize("weights", [(1.0,), (1.0, 1.0, 1.0), (1.0, -0.5), (1.0, math.inf), (math.nan, 1.0)])
def test_mean_rejects_bad_weights(weights: tuple[float, ...]) -> None:
    with pytest.raises(ValueError, match="weights"):
        mean_normalised([BM25, DENSE], weights=weights)


def test_a_weight_given_for_one_list_keeps_the_defaults_of_the_others() -> None:
    """`--weight dense=0.5` must not drop the cited clauses' weight of 2 back to 1."""
    def ranked(name: str, scored: list[tuple[str, float]]) -> list[Retrieved]:
        unit = IndexUnit(uid="-", label="Provision", part="law:x", law_id="x", laws=("x",), path="a1", title="",
                         text="", owner_uid="x", owner_kind="law", valid_from=None, valid_until=None)
        return [Retrieved(IndexHit(uid, score, lambda: unit), score, rank, {name: rank})
                for rank, (uid, score) in enumerate(scored, start=1)]

    lists = {"bm25": ranked("bm25", BM25), "dense": ranked("dense", DENSE), "cited": ranked("cited", [("a435", 1.0)])}
    scores = {r.uid: r.score for r in fuse(lists, 10, weights={"dense": 0.5})}
    # weights bm25 1, dense 0.5, cited 2 (kept): a435 = 2 / 3.5; a405 = (1 + 0.5 x 5/6) / 3.5
    assert scores["a435"] == pytest.approx(2 / 3.5) and scores["a405"] == pytest.approx((1 + 0.5 * 5 / 6) / 3.5)
    assert [r.uid for r in fuse(lists, 1)] == ["a435"]


# -- the law-level evidence: a prior that re-weighs what the lists found ---------------------------------------------
@pytest.mark.parametrize(("prior", "weight", "expected"), [
    # a405 and a411 of 刑事訴訟法 (prior 1), a382 of 民事訴訟法 (prior 0.2): each score is
    # (bm25 + dense + weight * prior) / (2 + weight); a435 has no prior and gains nothing
    ({"a405": 1.0, "a411": 1.0, "a382": 0.2}, 0.5,
     {"a405": (1 + 5 / 6 + 0.5) / 2.5, "a411": (0.25 + 1 + 0.5) / 2.5, "a382": (4 / 6 + 0.1) / 2.5, "a435": 0.0}),
    ({"a382": 1.0, "a435": 1.0}, 1.0,
     {"a405": (1 + 5 / 6) / 3, "a411": (0.25 + 1) / 3, "a382": (4 / 6 + 1) / 3, "a435": 1 / 3}),
    ({"a405": 1.0}, 0.0, {"a405": (1 + 5 / 6) / 2, "a411": (0.25 + 1) / 2, "a382": (4 / 6) / 2, "a435": 0.0}),
])
def test_a_prior_counts_as_one_more_unnormalised_list(prior: dict[str, float], weight: float,
                                                      expected: dict[str, float]) -> None:
    fused = mean_normalised([BM25, DENSE], prior=prior, prior_weight=weight)
    assert {s.id: s.score for s in fused} == pytest.approx(expected, abs=1e-12)


def test_a_prior_adds_no_item_and_turns_the_order_only_where_it_differs() -> None:
    fused = mean_normalised([BM25, DENSE], prior={"a411": 1.0, "a999": 1.0}, prior_weight=2.0)
    assert [s.id for s in fused] == ["a411", "a405", "a382", "a435"]  # a999 is in no list: not added
    assert [s.id for s in mean_normalised([BM25, DENSE], prior={i: 0.7 for i, _ in DENSE}, prior_weight=2.0)] == \
        [s.id for s in mean_normalised([BM25, DENSE])]  # the same prior for every item changes no order


@pytest.mark.parametrize("weight", [-0.1, math.inf, math.nan])
def test_a_prior_weight_must_be_finite_and_not_negative(weight: float) -> None:
    with pytest.raises(ValueError, match="prior_weight"):
        mean_normalised([BM25, DENSE], prior={"a405": 1.0}, prior_weight=weight)
