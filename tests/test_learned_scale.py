"""The learned mode's clause scores are on the hybrid's scale: the k-th clause it ranks gets the hybrid's k-th best
score over the same lists (`learned.on_hybrid_scale`), while its order of articles stays the model's (an article's
paragraphs in the hybrid's order, `learned.paragraphs_by_hybrid`). A search compares its top
clause's score with its chunks' (the relevance floor, the precedents an answer is given), and the chunks are ranked
by the hybrid in every mode, so with the statutes' anchor field built (what `lexgraph index` does by default) the
floor and the chunks above it must be the hybrid's own. On the sample search store, the real index and field."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from lexgraph.client import LexGraph
from lexgraph.index.anchors import FIELD_FILE
from lexgraph.index.query import SearchFilter
from lexgraph.retrieve.learned import FEATURES, LearnedRetriever, on_hybrid_scale, paragraphs_by_hybrid
from lexgraph.statutes.timeline import provision_law_id
from tests.helpers import copy_store, training_script

#: Questions citing no clause (so the model's order is the whole order), about 民法 and 借地借家法.
QUESTIONS = {
    "adult-age": "成年年齢は何歳か",
    "tort": "他人の権利を侵害した者の損害賠償責任",
    "lease-term": "借地権の存続期間は何年か",
    "fixed-term-lease": "定期建物賃貸借で契約の更新がない旨の説明をしなかった場合はどうなるか",
}


@pytest.fixture(scope="module")
def lg(search_store_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LexGraph]:
    store = copy_store(search_store_template, tmp_path_factory.mktemp("learned-scale") / "store")
    assert (store / "index" / FIELD_FILE).is_file()  # `lexgraph index` saved the statutes' anchors by default
    with LexGraph.open(store, read_only=True) as handle:
        yield handle


@pytest.mark.parametrize("question", list(QUESTIONS.values()), ids=list(QUESTIONS))
def test_the_learned_clauses_have_the_hybrids_scores_by_rank_in_the_models_order_of_articles(
        lg: LexGraph, question: str) -> None:
    where = SearchFilter(kind="provision")
    learned = lg.retriever("learned")
    assert isinstance(learned, LearnedRetriever) and learned.field is not None
    hybrid = lg.retriever("hybrid").retrieve(question, 20, where)
    assert learned.anchored(provision_law_id(hybrid[0].uid))  # the model ranks this question, not the gate
    got = learned.retrieve(question, 20, where)
    assert [r.rank for r in got] == list(range(1, len(got) + 1)) and len(got) == len(hybrid) == 20
    assert [r.score for r in got] == [r.score for r in hybrid]
    candidates = learned.candidates(question, where)
    logits = learned.model.score(candidates.features)
    by_model = [int(i) for i in np.argsort(-logits, kind="stable")[:20]]
    article = dict(zip((h.uid for h in candidates.hits), candidates.articles, strict=True))
    # the articles in the model's order, place for place; each article's paragraphs in the hybrid's order
    assert [article[r.uid] for r in got] == [candidates.articles[i] for i in by_model]
    assert {r.uid for r in got} == {candidates.hits[i].uid for i in by_model}
    # the hybrid's fused score over the same lists (its `hybrid` feature)
    fused = dict(zip((h.uid for h in candidates.hits), candidates.features[:, FEATURES.index("hybrid")], strict=True))
    for a in set(article[r.uid] for r in got):
        paragraphs = [fused[r.uid] for r in got if article[r.uid] == a]
        assert paragraphs == sorted(paragraphs, reverse=True), a


@pytest.mark.parametrize("question", list(QUESTIONS.values()), ids=list(QUESTIONS))
def test_the_relevance_floor_and_the_chunks_above_it_are_the_hybrids(lg: LexGraph, question: str) -> None:
    learned = lg.search(question, mode="learned")
    hybrid = lg.search(question, mode="hybrid")
    assert learned.ranked_by is None and learned.mode == "learned"
    assert learned.clauses and learned.clauses[0].score == hybrid.clauses[0].score
    assert [c.uid for c in learned.chunks] == [c.uid for c in hybrid.chunks]  # chunks: the hybrid ranks them
    assert learned.floor is not None and learned.floor == hybrid.floor
    assert [c.uid for c in learned.relevant_chunks()] == [c.uid for c in hybrid.relevant_chunks()]


@given(st.lists(st.tuples(st.integers(0, 3), st.floats(0, 1, allow_nan=False)), max_size=12), st.integers(0, 4))
def test_paragraphs_take_the_hybrids_order_in_the_places_of_their_article(rows: list[tuple[int, float]],
                                                                           keep: int) -> None:
    """Any model order: each place keeps its article, the first `keep` places their clause, and within an article
    the hybrid's higher score comes first (the model's order among equal scores)."""
    articles = [("law", f"a{a}") for a, _ in rows]
    hybrid = np.asarray([h for _, h in rows], dtype=float)
    order = list(range(len(rows)))[::-1]  # the model's order: any permutation
    out = paragraphs_by_hybrid(order, articles, hybrid, keep)
    assert sorted(out) == sorted(order) and out[:keep] == order[:keep]
    assert [articles[i] for i in out] == [articles[i] for i in order]
    for a in set(articles):
        placed = [i for i in out[keep:] if articles[i] == a]
        model = [i for i in order[keep:] if articles[i] == a]
        assert placed == sorted(model, key=lambda i: -hybrid[i])
    assert on_hybrid_scale([], 2) == [0.0, 0.0]


@pytest.mark.parametrize("question", list(QUESTIONS.values()), ids=list(QUESTIONS))
def test_a_clauses_law_anchor_is_the_best_anchor_of_its_laws_candidates(lg: LexGraph, question: str) -> None:
    """`law_anchor` is, for every candidate, the best `anchor` of any candidate of its law: how strongly the
    anchors point at the law, which an article's own anchor score does not say (on the real field of the sample
    store, some candidate the anchors never reach belongs to a law they do)."""
    learned = lg.retriever("learned")
    assert isinstance(learned, LearnedRetriever)
    candidates = learned.candidates(question, SearchFilter(kind="provision"))
    anchor = candidates.features[:, FEATURES.index("anchor")]
    law_anchor = candidates.features[:, FEATURES.index("law_anchor")]
    laws = [law for law, _ in candidates.articles]
    best: dict[str, float] = {}
    for law, score in zip(laws, anchor, strict=True):
        best[law] = max(best.get(law, 0.0), float(score))
    assert law_anchor.tolist() == [best[law] for law in laws]
    assert max(law_anchor) == 1.0  # the anchor score is the question's best's share: its law's is 1
    assert any(a == 0 < b for a, b in zip(anchor, law_anchor, strict=True))


def test_the_training_fits_the_order_of_a_real_questions_candidates(lg: LexGraph) -> None:
    """`fit_softmax` (scripts/train_learned_fusion.py) on the real candidates of two questions whose gold is not
    the hybrid's first (its fourth clause's article): the fitted weights put each gold article's clause first."""
    train = training_script()
    learned = lg.retriever("learned")
    assert isinstance(learned, LearnedRetriever)
    queries = []
    for question in (QUESTIONS["tort"], QUESTIONS["lease-term"]):
        candidates = learned.candidates(question, SearchFilter(kind="provision"))
        hybrid = candidates.features[:, FEATURES.index("hybrid")]
        gold = candidates.articles[int(np.argsort(-hybrid, kind="stable")[3])]  # the hybrid's fourth
        label = np.asarray([a == gold for a in candidates.articles], float)
        assert label[int(np.argmax(hybrid))] == 0.0  # the hybrid alone does not put it first
        queries.append((candidates.features, label))
    x = np.vstack([f for f, _ in queries])
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    standard = [((f - mean) / scale, y) for f, y in queries]
    weights = train.fit_softmax(standard, l2=1e-3)
    for f, y in standard:
        assert y[int(np.argmax(f @ weights))] == 1.0
    assert np.isfinite(weights).all() and len(weights) == len(FEATURES)
