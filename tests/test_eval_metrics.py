"""Recall@k and MRR: hand-computed tables, granularity, questions without gold, validation, properties."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexgraph.eval.metrics import evaluate_retrieval, score_question, truncate_id


def test_hand_computed_table() -> None:
    # q   gold                  predicted (distinct)            R@1  R@2  R@3  R@5  RR
    # q1  民法|709, 民法|710    民法|1, 民法|709, 民法|2, 民法|710   0    1/2  1/2  1    1/2
    # q2  民法|415              民法|415                          1    1    1    1    1
    # q3  民法|96               民法|1, 民法|2, 民法|3             0    0    0    0    0
    report = evaluate_retrieval(
        [{"民法|709", "民法|710"}, ["民法|415"], ("民法|96",)],
        [["民法|1", "民法|709", "民法|2", "民法|710"], ["民法|415"], ["民法|1", "民法|2", "民法|3"]],
        ks=(1, 2, 3, 5),
        qids=["q1", "q2", "q3"],
    )
    table = [(q.qid, [q.recall_at(k) for k in (1, 2, 3, 5)], q.reciprocal_rank) for q in report.questions]
    assert table == [
        ("q1", [0.0, 0.5, 0.5, 1.0], 0.5),
        ("q2", [1.0, 1.0, 1.0, 1.0], 1.0),
        ("q3", [0.0, 0.0, 0.0, 0.0], 0.0),
    ]
    assert report.recall_at(1) == pytest.approx(1 / 3)
    assert report.recall_at(2) == pytest.approx(0.5)
    assert report.recall_at(5) == pytest.approx(2 / 3)
    assert report.mrr == pytest.approx(0.5)
    q1 = report.questions[0]
    assert q1.found == (("民法|709", 2), ("民法|710", 4))
    assert q1.missed == ()
    assert q1.first_hit == 2
    assert report.questions[2].missed == ("民法|96",)
    assert report.questions[2].first_hit is None


def test_questions_without_gold_are_listed_apart_not_dropped() -> None:
    report = evaluate_retrieval([{"a"}, set(), [], {"b"}], [["a"], ["a"], [], ["x", "b"]], ks=(1,))
    assert report.no_gold == ("1", "2")
    assert [q.qid for q in report.questions] == ["0", "3"]
    assert report.n_scored == 2
    assert report.recall_at(1) == pytest.approx(0.5)  # over the two scored questions only
    assert report.mrr == pytest.approx(0.75)
    out = report.to_json()
    assert (out["n_scored"], out["n_no_gold"], out["no_gold"]) == (2, 2, ["1", "2"])


def test_nothing_to_score_gives_none_not_zero() -> None:
    report = evaluate_retrieval([set()], [["a"]])
    assert report.recall_at(5) is None
    assert report.mrr is None
    assert report.no_gold == ("0",)
    assert evaluate_retrieval([], []).to_json()["mrr"] is None


def test_duplicate_predictions_count_at_their_first_rank() -> None:
    result = score_question({"a", "b"}, ["a", "a", "a", "b"])
    assert result is not None
    assert result.found == (("a", 1), ("b", 2))
    assert result.recall_at(2) == 1.0
    assert result.n_predicted == 2


def test_granularity_clauses_scored_as_articles() -> None:
    # At article level, 民法|710|1 and 民法|709|1, 民法|709|2 become 民法|710, 民法|709: the gold article is second.
    gold = [{"民法|709|1"}]
    predicted = [["民法|710|1", "民法|709|1", "民法|709|2"]]
    clause = evaluate_retrieval(gold, predicted, ks=(1, 2))
    article = evaluate_retrieval(gold, predicted, ks=(1, 2), key=truncate_id(2))
    assert clause.questions[0].found == (("民法|709|1", 2),)
    assert article.questions[0].gold == ("民法|709",)
    assert article.questions[0].found == (("民法|709", 2),)
    assert article.questions[0].n_predicted == 2
    # A paragraph predicted for an article-level gold counts only at article level.
    gold_article = [{"民法|709"}]
    assert evaluate_retrieval(gold_article, [["民法|709|2"]]).mrr == 0.0
    assert evaluate_retrieval(gold_article, [["民法|709|2"]], key=truncate_id(2)).mrr == 1.0


def test_truncate_id() -> None:
    assert truncate_id(2)("民法|709|1") == "民法|709"
    assert truncate_id(1)("民法|709|1") == "民法"
    assert truncate_id(5)("民法|709") == "民法|709"
    assert truncate_id(2, sep="/")("a709/p1/i2") == "a709/p1"
    with pytest.raises(ValueError, match="levels must be an integer >= 1"):
        truncate_id(0)


def test_recall_beyond_the_prediction_list_and_empty_predictions() -> None:
    result = score_question(["a", "b", "c"], ["b"])
    assert result is not None
    assert result.recall_at(100) == pytest.approx(1 / 3)
    empty = score_question(["a"], [])
    assert empty is not None and empty.recall_at(20) == 0.0 and empty.reciprocal_rank == 0.0


def test_to_json_is_serialisable_and_per_question() -> None:
    report = evaluate_retrieval([{"民法|709"}], [["民法|1", "民法|709"]], qids=["lawqa-001"], ks=(5, 1))
    out = json.loads(json.dumps(report.to_json(), ensure_ascii=False))
    assert out["recall@1"] == 0.0 and out["recall@5"] == 1.0 and out["mrr"] == 0.5
    assert list(out).index("recall@1") < list(out).index("recall@5")  # ks are sorted
    assert out["questions"] == [{
        "qid": "lawqa-001", "gold": ["民法|709"], "found": [{"id": "民法|709", "rank": 2}], "missed": [],
        "n_predicted": 2, "recall@1": 0.0, "recall@5": 1.0, "reciprocal_rank": 0.5,
    }]


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        (([{"a"}], []), {}, "1 gold sets but 0 predictions"),
        (([{"a"}], [["a"]]), {"qids": ["x", "y"]}, "2 qids for 1 questions"),
        (([{"a"}, {"b"}], [["a"], ["b"]]), {"qids": ["x", "x"]}, "qids must be unique, repeated: x"),
        (([{"a"}], [["a"]]), {"ks": (0,)}, "k must be an integer >= 1"),
        (([{"a"}], [["a"]]), {"ks": (2.5,)}, "k must be an integer >= 1"),
        ((["abc"], [["a"]]), {}, "gold must be a collection of ids"),
        (([{"a"}], ["abc"]), {}, "predicted must be a collection of ids"),
        (([{1}], [["a"]]), {}, "ids must be strings"),
    ],
)
def test_validation(args: tuple[object, object], kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        evaluate_retrieval(*args, **kwargs)  # type: ignore[arg-type]


# Properties ---------------------------------------------------------------------------------------------------------

ids = st.sampled_from([f"民法|{n}" for n in range(1, 15)])


@settings(max_examples=300, deadline=None)
@given(st.sets(ids, max_size=5), st.lists(ids, max_size=20))
def test_recall_and_rr_properties(gold: set[str], predicted: list[str]) -> None:
    result = score_question(gold, predicted)
    if not gold:
        assert result is None
        return
    assert result is not None
    recalls = [result.recall_at(k) for k in range(1, 25)]
    assert recalls == sorted(recalls)
    assert all(0.0 <= r <= 1.0 for r in recalls)
    assert recalls[-1] == pytest.approx(len(gold & set(predicted)) / len(gold))
    distinct = list(dict.fromkeys(predicted))
    first = next((i for i, p in enumerate(distinct, start=1) if p in gold), None)
    assert result.reciprocal_rank == (0.0 if first is None else 1 / first)
    assert set(result.missed) | {g for g, _ in result.found} == gold
