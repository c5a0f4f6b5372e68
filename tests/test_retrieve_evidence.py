"""Evidence through the citation graph: RRF over the ranks of the citing chunks, and fusion with direct retrieval."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexgraph.retrieve.evidence import Evidence, fuse_direct, rank_evidence, select_evidence

# Related chunks, best first, and what each cites (ids at clause level and precedents).
CHUNKS = ["book1#3", "guide2#1", "book1#7", "prec9#2"]
CITES = {
    "book1#3": ["民法|709|1", "最判昭和50年10月24日"],
    "guide2#1": ["民法|709|1", "民法|715|1"],
    "book1#7": ["民法|715|1", "最判昭和50年10月24日", "民法|722|2"],
    # prec9#2 cites nothing
}


def test_hand_computed_table() -> None:
    # item                 citing chunks (rank)     score, k = 60
    # 民法|709|1           book1#3 (1), guide2#1 (2)  1/61 + 1/62 = 0.0325224
    # 最判昭和50年10月24日  book1#3 (1), book1#7 (3)   1/61 + 1/63 = 0.0322664
    # 民法|715|1           guide2#1 (2), book1#7 (3)  1/62 + 1/63 = 0.0320020
    # 民法|722|2           book1#7 (3)               1/63        = 0.0158730
    evidence = select_evidence(CHUNKS, CITES)
    assert [(e.id, e.cited_by) for e in evidence] == [
        ("民法|709|1", (("book1#3", 1), ("guide2#1", 2))),
        ("最判昭和50年10月24日", (("book1#3", 1), ("book1#7", 3))),
        ("民法|715|1", (("guide2#1", 2), ("book1#7", 3))),
        ("民法|722|2", (("book1#7", 3),)),
    ]
    assert [e.score for e in evidence] == pytest.approx([1 / 61 + 1 / 62, 1 / 61 + 1 / 63, 1 / 62 + 1 / 63, 1 / 63])
    assert [e.graph_rank for e in evidence] == [1, 2, 3, 4]
    assert all(e.direct_rank is None for e in evidence)


def test_m_limits_the_chunks_that_lend_their_rank() -> None:
    evidence = select_evidence(CHUNKS, CITES, m=2)
    assert {e.id: e.cited_by for e in evidence} == {
        "民法|709|1": (("book1#3", 1), ("guide2#1", 2)),
        "最判昭和50年10月24日": (("book1#3", 1),),
        "民法|715|1": (("guide2#1", 2),),
    }
    assert select_evidence(CHUNKS, CITES, m=0) == []


def test_n_limits_the_evidence() -> None:
    assert [e.id for e in select_evidence(CHUNKS, CITES, n=2)] == ["民法|709|1", "最判昭和50年10月24日"]
    assert len(select_evidence(CHUNKS, CITES, n=None)) == 4


def test_defaults_are_the_papers_m30_n20() -> None:
    chunks = [f"c{i:02d}" for i in range(40)]
    cites = {c: [f"e{c}"] for c in chunks}  # each chunk cites one item of its own
    evidence = select_evidence(chunks, cites)
    assert len(evidence) == 20
    assert [e.id for e in evidence] == [f"ec{i:02d}" for i in range(20)]
    assert len(rank_evidence(chunks, cites, limit=None)) == 30  # m = 30 chunks lend their rank


def test_duplicate_chunks_and_duplicate_citations_count_once() -> None:
    evidence = select_evidence(["a", "a", "b"], {"a": ["x", "x"], "b": ["x", "y"]}, k=1)
    # a is rank 1, b rank 2 (the second "a" takes no rank); a's two citations of x count once.
    assert [(e.id, e.score, e.cited_by) for e in evidence] == [
        ("x", pytest.approx(1 / 2 + 1 / 3), (("a", 1), ("b", 2))),
        ("y", pytest.approx(1 / 3), (("b", 2),)),
    ]


def test_ties_go_to_the_item_cited_by_the_better_chunk_then_to_the_id() -> None:
    # k = 1: "b" is cited by chunks ranked 2 and 5: 1/3 + 1/6, which math.fsum makes exactly 1/2,
    # the same as "z" cited by the first chunk alone. "z" wins on the better citing chunk despite its id.
    # "m" and "n" are both cited by chunk 3 only: same score, same best rank, so id order.
    chunks = ["c1", "c2", "c3", "c4", "c5"]
    cites = {"c1": ["z"], "c2": ["b"], "c3": ["n", "m"], "c5": ["b"]}
    evidence = select_evidence(chunks, cites, k=1)
    assert [e.id for e in evidence] == ["z", "b", "m", "n"]
    assert evidence[0].score == evidence[1].score == 0.5


def test_empty_inputs() -> None:
    assert select_evidence([], {}) == []
    assert select_evidence(["a", "b"], {}) == []
    assert select_evidence([], {}, direct=[]) == []


def test_no_literature_uses_direct_retrieval_alone() -> None:
    # A statutes-only collection: no chunk cites anything, clauses were searched directly.
    evidence = select_evidence([], {}, direct=["民法|709|1", "民法|710", "民法|709|1"])
    assert [(e.id, e.score, e.cited_by, e.graph_rank, e.direct_rank) for e in evidence] == [
        ("民法|709|1", pytest.approx(1 / 61), (), None, 1),
        ("民法|710", pytest.approx(1 / 62), (), None, 2),
    ]


def test_direct_retrieval_fused_with_the_graph_ranking() -> None:
    # Graph ranking: 民法|709|1 (1), 最判… (2), 民法|715|1 (3), 民法|722|2 (4).  Direct: 民法|722|2 (1), 民法|1 (2).
    # fused (k = 60):  民法|722|2   1/64 + 1/61 = 0.032019
    #                  民法|709|1   1/61        = 0.016393
    #                  最判…        1/62        = 0.016129   (tie with 民法|1 on score and best rank 2: id order)
    #                  民法|1       1/62        = 0.016129
    #                  民法|715|1   1/63        = 0.015873
    evidence = select_evidence(CHUNKS, CITES, direct=["民法|722|2", "民法|1"])
    assert "最判昭和50年10月24日" < "民法|1"  # code point order: 最 U+6700 < 民 U+6C11
    assert [(e.id, e.graph_rank, e.direct_rank) for e in evidence] == [
        ("民法|722|2", 4, 1),
        ("民法|709|1", 1, None),
        ("最判昭和50年10月24日", 2, None),
        ("民法|1", None, 2),
        ("民法|715|1", 3, None),
    ]
    assert [e.score for e in evidence] == pytest.approx([1 / 64 + 1 / 61, 1 / 61, 1 / 62, 1 / 62, 1 / 63])
    assert evidence[2].score == evidence[3].score
    assert evidence[0].cited_by == (("book1#7", 3),)  # the graph's reasons survive the fusion
    assert evidence[3].cited_by == ()


def test_direct_hits_can_lift_items_beyond_the_graphs_top_n() -> None:
    chunks = [f"c{i}" for i in range(30)]
    cites = {c: [f"e{i}"] for i, c in enumerate(chunks)}
    evidence = select_evidence(chunks, cites, direct=["e29"], n=3)
    assert [e.id for e in evidence] == ["e29", "e0", "e1"]
    assert (evidence[0].graph_rank, evidence[0].direct_rank) == (30, 1)


def test_direct_weight() -> None:
    # graph: a1 (rank 1); direct: d1 (rank 1). Equal weights tie, and the id decides; a weight above 1 puts the
    # direct hit first, below 1 second, 0 keeps it with score 0.
    def order(**kwargs: float) -> list[tuple[str, float]]:
        return [(e.id, e.score) for e in select_evidence(["c"], {"c": ["a1"]}, direct=["d1"], **kwargs)]

    assert order() == [("a1", pytest.approx(1 / 61)), ("d1", pytest.approx(1 / 61))]
    assert order(direct_weight=2) == [("d1", pytest.approx(2 / 61)), ("a1", pytest.approx(1 / 61))]
    assert order(direct_weight=0.5) == [("a1", pytest.approx(1 / 61)), ("d1", pytest.approx(0.5 / 61))]
    assert order(direct_weight=0) == [("a1", pytest.approx(1 / 61)), ("d1", 0.0)]


def test_fuse_direct_keeps_the_first_of_repeated_graph_items() -> None:
    graph = [Evidence("a", 1.0, (("c1", 1),)), Evidence("a", 0.5, (("c9", 9),))]
    fused = fuse_direct(graph, [])
    assert [(e.id, e.cited_by) for e in fused] == [("a", (("c1", 1),))]


def test_to_json() -> None:
    evidence = select_evidence(["c1"], {"c1": ["民法|709"]})[0]
    assert evidence.to_json() == {
        "id": "民法|709",
        "score": 1 / 61,
        "cited_by": [{"chunk": "c1", "rank": 1}],
        "graph_rank": 1,
        "direct_rank": None,
    }


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"k": 0}, "k must be a positive"),
        ({"m": -1}, "m must be None or an integer >= 0"),
        ({"n": -1}, "n must be None or an integer >= 0"),
        ({"direct": ["a"], "direct_weight": -1.0}, r"weights\[1\] is -1.0"),
        ({"direct": "民法|709"}, "direct must be a list of ids"),
    ],
)
def test_validation(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        select_evidence(CHUNKS, CITES, **kwargs)  # type: ignore[arg-type]


def test_a_string_is_not_a_list_of_citations() -> None:
    with pytest.raises(ValueError, match=r"cites\['c1'\] is a string"):
        select_evidence(["c1"], {"c1": "民法|709"})
    with pytest.raises(ValueError, match="chunks must be a list"):
        select_evidence("c1", {})


# Properties ---------------------------------------------------------------------------------------------------------

chunk_ids = st.sampled_from([f"c{i}" for i in range(15)])
evidence_ids = st.sampled_from([f"e{i}" for i in range(10)])


@settings(max_examples=300, deadline=None)
@given(
    st.lists(chunk_ids, max_size=15),
    st.dictionaries(chunk_ids, st.lists(evidence_ids, max_size=4)),
    st.integers(0, 15),
    st.integers(1, 100),
)
def test_scores_are_rrf_over_the_citing_chunks(
    chunks: list[str], cites: dict[str, list[str]], m: int, k: int
) -> None:
    evidence = rank_evidence(chunks, cites, m=m, k=k)
    top = list(dict.fromkeys(chunks))[:m]
    expected = {e for c in top for e in cites.get(c, [])}
    assert sorted(e.id for e in evidence) == sorted(expected)
    scores = [e.score for e in evidence]
    assert scores == sorted(scores, reverse=True)
    for e in evidence:
        assert e.score == pytest.approx(sum(1 / (k + rank) for _, rank in e.cited_by), rel=1e-12)
        assert [rank for _, rank in e.cited_by] == sorted({rank for _, rank in e.cited_by})
        for chunk, rank in e.cited_by:
            assert top[rank - 1] == chunk and e.id in cites[chunk]
    assert [e.graph_rank for e in evidence] == list(range(1, len(evidence) + 1))
