"""Paired significance of retrieval runs (`lexgraph.eval.significance`): the randomization test and the bootstrap
interval, with queries resampled by cluster, and the runs compared metric by metric."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from lexgraph.eval.benchmark import load_questions
from lexgraph.eval.metrics import evaluate_retrieval
from lexgraph.eval.significance import compare_reports, compare_runs, paired_difference

BENCHMARK = Path(__file__).parents[1] / "bench" / "data" / "judgment_retrieval.json"


def exact_randomization_p(sums: list[float], n: int) -> float:
    """The two-sided p of the sign-flip test by enumeration of every sign pattern (clusters' summed differences)."""
    observed = abs(sum(sums)) / n
    patterns = list(itertools.product((-1, 1), repeat=len(sums)))
    flipped = [abs(sum(s * x for s, x in zip(signs, sums, strict=True))) / n for signs in patterns]
    extreme = sum(1 for value in flipped if value >= observed - 1e-12)
    return extreme / len(patterns)


def test_identical_runs_differ_by_nothing() -> None:
    scores = [1.0, 0.5, 0.0, 0.25, 1 / 3] * 4
    d = paired_difference("MRR", scores, scores, [str(i) for i in range(len(scores))])
    assert (d.difference, d.low, d.high) == (0.0, 0.0, 0.0)
    assert d.p_value == 1.0 and d.verdict == "no difference"
    assert (d.n, d.clusters, d.mean_a) == (20, 20, pytest.approx(sum(scores) / 20))


@pytest.mark.parametrize(("a", "b", "verdict"), [
    ([1.0] * 12 + [0.0] * 3, [0.0] * 15, "better"),  # A finds 12 more, never fewer
    ([0.0] * 15, [1.0] * 12 + [0.0] * 3, "worse"),
    ([1.0, 0.0] * 6, [0.0, 1.0] * 6, "no difference"),  # as many wins as losses
    ([1.0, 1.0, 0.0] + [0.5] * 9, [0.0, 0.0, 1.0] + [0.5] * 9, "no difference"),  # one net win in 12
])
def test_the_verdict_follows_the_evidence(a: list[float], b: list[float], verdict: str) -> None:
    d = paired_difference("R@10", a, b, [str(i) for i in range(len(a))])
    assert d.verdict == verdict
    assert d.low <= d.difference <= d.high
    assert d.difference == pytest.approx(sum(a) / len(a) - sum(b) / len(b))


def test_the_p_value_matches_the_exact_sign_flip_test() -> None:
    # 8 clusters: the exact test enumerates all 256 sign patterns; 20,000 random flips must come close to it.
    a = [1.0, 0.5, 1.0, 0.0, 1.0, 1.0, 0.25, 1.0, 0.5, 1.0]
    b = [0.0, 0.5, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 0.5, 0.0]
    clusters = ["c1", "c1", "c2", "c3", "c4", "c4", "c5", "c6", "c7", "c8"]
    sums: dict[str, float] = {}
    for x, y, c in zip(a, b, clusters, strict=True):
        sums[c] = sums.get(c, 0.0) + x - y
    exact = exact_randomization_p(list(sums.values()), len(a))
    d = paired_difference("MRR", a, b, clusters, resamples=20_000)
    assert d.clusters == 8
    assert abs(d.p_value - exact) < 0.01, (d.p_value, exact)


def test_correlated_queries_are_resampled_together() -> None:
    # 100 queries from 10 judgments: 5 judgments where A wins all 10 of their queries, 5 where nothing differs.
    # As 100 independent queries that is overwhelming; as 10 judgments, 5 wins out of 10 is 1 chance in 16.
    a = [1.0] * 50 + [0.0] * 50
    b = [0.0] * 100
    by_judgment = [f"j{i // 10}" for i in range(100)]
    alone = paired_difference("R@5", a, b, [str(i) for i in range(100)])
    together = paired_difference("R@5", a, b, by_judgment)
    assert alone.verdict == "better" and alone.p_value < 0.001
    assert together.verdict == "no difference"
    assert together.p_value == pytest.approx(exact_randomization_p([10.0] * 5 + [0.0] * 5, 100), abs=0.01)
    assert together.high - together.low > alone.high - alone.low  # fewer independent draws, a wider interval


def test_the_p_value_is_never_zero_and_the_figures_repeat() -> None:
    a, b = [1.0] * 30, [0.0] * 30
    ids = [str(i) for i in range(30)]
    d = paired_difference("MRR", a, b, ids, resamples=99)
    assert d.p_value == pytest.approx(1 / 100)  # the observed arrangement counts among the resamples
    assert paired_difference("MRR", a[:-3] + [0.0] * 3, b, ids) == paired_difference("MRR", a[:-3] + [0.0] * 3, b,
                                                                                     ids)


@pytest.mark.parametrize(("a", "b", "clusters", "kwargs", "message"), [
    ([1.0], [1.0, 0.0], ["x"], {}, "1 scores against 2"),
    ([], [], [], {}, "no questions"),
    ([1.0], [0.0], ["x"], {"resamples": 0}, "resamples must be at least 1"),
    ([1.0], [0.0], ["x"], {"confidence": 1.0}, "confidence must lie between 0 and 1"),
])
def test_bad_arguments_say_what_is_wrong(a: list[float], b: list[float], clusters: list[str],
                                         kwargs: dict[str, float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        paired_difference("MRR", a, b, clusters, **kwargs)  # type: ignore[arg-type]


def test_reports_are_compared_question_by_question_whatever_their_order() -> None:
    gold = [["民法|709"], ["民法|710"], ["民法|1"], ["民法|2"]]
    ranked = [["民法|709"], ["民法|1", "民法|710"], ["民法|1"], []]
    qids = ["q1", "q2", "q3", "q4"]
    first = evaluate_retrieval(gold, ranked, ks=(1, 2), qids=qids)
    same_reversed = evaluate_retrieval(gold[::-1], ranked[::-1], ks=(1, 2), qids=qids[::-1])
    rows = {d.metric: d for d in compare_reports(first, same_reversed)}
    assert list(rows) == ["R@1", "R@2", "MRR"]
    # Paired by qid, each question meets itself: no difference anywhere. Paired by position, q1 would meet q4.
    assert all((d.difference, d.low, d.high, d.p_value) == (0.0, 0.0, 0.0, 1.0) for d in rows.values())
    better = evaluate_retrieval(gold, [["民法|709"], ["民法|710"], ["民法|1"], ["民法|2"]], ks=(1, 2), qids=qids)
    mrr = {d.metric: d for d in compare_reports(better, first)}["MRR"]
    assert (mrr.mean_a, mrr.mean_b) == (1.0, pytest.approx(2.5 / 4)) and mrr.difference == pytest.approx(1.5 / 4)
    other = evaluate_retrieval(gold[:3], [[], [], []], ks=(1, 2), qids=["q1", "q2", "q9"])
    with pytest.raises(ValueError, match="different questions"):
        compare_reports(first, other)


def test_runs_are_compared_against_the_reference_only() -> None:
    gold = [["a"], ["b"], ["c"]]
    levels = {mode: {"article": evaluate_retrieval(gold, ranked, ks=(5,), qids=["1", "2", "3"])}
              for mode, ranked in {"bm25": [["a"], ["x"], ["c"]], "dense": [["x"], ["b"], ["x"]],
                                   "hybrid": [["a"], ["b"], ["c"]]}.items()}
    comparisons = compare_runs(levels, "hybrid")
    assert [(c.mode, c.against, c.level) for c in comparisons] == [("hybrid", "bm25", "article"),
                                                                   ("hybrid", "dense", "article")]
    assert [d.difference for d in comparisons[1].differences] == pytest.approx([2 / 3, 2 / 3])
    assert compare_runs(levels, "tree") == [] and compare_runs({"hybrid": levels["hybrid"]}, "hybrid") == []


def test_the_judgment_benchmark_groups_each_judgment_s_queries() -> None:
    queries = load_questions(BENCHMARK)
    clusters: dict[str, list[str]] = {}
    for query in queries:
        clusters.setdefault(query.cluster, []).append(query.qid)
    # at most two sentences per judgment, and the cluster is the judgment the qid was drawn from
    assert max(len(qids) for qids in clusters.values()) == 2 and len(clusters) < len(queries)
    assert all(qid.split("@")[0] == cluster for cluster, qids in clusters.items() for qid in qids)
