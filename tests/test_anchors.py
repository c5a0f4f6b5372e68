"""The anchor field: the sentences of judgments citing an article, as a BM25 field, and the rule that a
query's own judgment (and every judgment of the split scored) never feeds it. Real judgments of tests/data/
precedents (their source in SOURCE.md) and the bundled sample store."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from lexgraph.client import LexGraph
from lexgraph.eval.benchmark import load_questions
from lexgraph.index.anchors import Anchor, judgment_anchors, read_anchors
from lexgraph.retrieve import learned
from lexgraph.retrieve.anchor_field import AnchorField
from tests.helpers import ROOT, copy_store

JUDGMENTS = ROOT / "tests" / "data" / "precedents"
MINPO = "129AC0000000089"


def every_anchor() -> list[Anchor]:
    return [a for f in sorted(JUDGMENTS.glob("*.txt")) for a in judgment_anchors(f.stem, f.read_text("utf-8"))]


def by_article(field: AnchorField, tokens: tuple[str, ...]) -> dict[tuple[str, str], float]:
    return {a: float(s) for a, s in zip(field.articles, field.scores(tokens), strict=True) if s > 0}


def test_an_anchor_is_the_citing_sentence_without_its_citation() -> None:
    text = (JUDGMENTS / "91244.txt").read_text("utf-8")
    anchors = [a for a in judgment_anchors("91244", text) if (a.law_id, a.article) == (MINPO, "a709")]
    assert anchors and all(a.kind == "judgment" and a.source == "91244" for a in anchors)
    for anchor in anchors:
        assert "709" not in anchor.tokens and "民法" not in anchor.tokens  # the citation itself is left out
        assert len(anchor.tokens) >= 5


def test_a_judgment_held_apart_contributes_nothing_to_the_field() -> None:
    anchors = every_anchor()
    own = "92453"
    query = next(a.tokens for a in anchors if a.source == own and a.law_id == MINPO)
    full = AnchorField.build(anchors)
    held = AnchorField.build(anchors, exclude={own})
    never_had_it = AnchorField.build([a for a in anchors if a.source != own])
    assert own in full.sources and own not in held.sources
    assert by_article(held, query) == by_article(never_had_it, query)  # nothing of it is left, not even in idf
    assert by_article(full, query) != by_article(held, query)  # and it did count before
    hits = full.search(query, 3)
    assert hits and (hits[0].law_id, hits[0].article) in {(a.law_id, a.article) for a in anchors if a.source == own}


def test_the_same_words_for_the_same_article_count_once() -> None:
    anchor = Anchor(MINPO, "a709", "judgment", "x", ("不法", "行為", "損害", "賠償"))
    once = AnchorField.build([anchor])
    twice = AnchorField.build([anchor, Anchor(MINPO, "a709", "judgment", "y", anchor.tokens)])
    assert once.scores(anchor.tokens).tolist() == twice.scores(anchor.tokens).tolist()


@pytest.fixture(scope="module")
def lg(search_store_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LexGraph]:
    store = copy_store(search_store_template, tmp_path_factory.mktemp("anchors") / "store")
    with LexGraph.open(store, read_only=True) as handle:
        assert handle.build_anchors([JUDGMENTS]) > 0
        yield handle


def test_an_evaluation_never_feeds_its_own_judgments_into_the_anchors(lg: LexGraph, tmp_path: Path) -> None:
    written = read_anchors(Path(lg.store.location) / "index")
    assert written and {a.law_id for a in written} == {MINPO}  # only the laws the index holds
    sources = {a.source for a in written}
    scored = {"92453", "91244"} & sources
    assert scored and sources - scored
    queries = [{"qid": f"{a.source}@{i}", "split": "test", "doc": a.source, "query": "".join(a.tokens),
                "articles": [{"law_id": a.law_id, "path": a.article}], "paragraphs": []}
               for i, a in enumerate(written) if a.source in scored]
    dataset = tmp_path / "bench.json"
    dataset.write_text(json.dumps({"format": "lexgraph-retrieval-benchmark/1", "queries": queries}), "utf-8")
    questions = load_questions(dataset, "test")
    learned._FIELDS.clear()
    runs = lg.eval_retrieval(questions, ["learned"], [5])
    assert runs[0].mode == "learned" and len(runs[0].scored) == len(queries)
    used = list(learned._FIELDS.values())
    assert len(used) == 1 and used[0] is not None
    assert not (used[0].sources & scored) and used[0].sources == sources - scored


def test_training_queries_come_from_judgments_outside_the_benchmark(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("train", ROOT / "scripts" / "train_learned_fusion.py")
    assert spec and spec.loader
    train = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(train)
    benchmark = tmp_path / "bench.json"
    benchmark.write_text(json.dumps({"queries": [{"doc": "91244"}, {"doc": "92453"}]}), "utf-8")
    queries, held, used = train.training_queries(JUDGMENTS, benchmark, {MINPO, "408AC0000000109"}, 5, 100, 1)
    assert held == {"91244", "92453"} and queries and used >= 1
    assert not {doc for doc, _, _ in queries} & held
    for _, query, gold in queries:
        assert gold and all(law in {MINPO, "408AC0000000109"} for law, _ in gold)
        assert 40 <= len(query) <= 300


def test_no_benchmark_query_or_its_judgment_is_a_training_query(tmp_path: Path) -> None:
    """The real judgment benchmark against the training queries built from the judgments at hand: every judgment a
    benchmark query (dev or test) comes from is held apart and gives no training query. The judgments at hand are
    all the benchmark's, so a second benchmark made of the real one without one judgment's queries shows the rule
    at work: that judgment now gives queries, the others still none, and no training query is the text of a
    query still in the benchmark."""
    spec = importlib.util.spec_from_file_location("train", ROOT / "scripts" / "train_learned_fusion.py")
    assert spec and spec.loader
    train = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(train)
    bench = json.loads(train.BENCHMARK.read_text("utf-8"))
    laws = {entry["law_id"] for entry in bench["laws"]}
    at_hand = {f.stem for f in JUDGMENTS.glob("*.txt")}
    queries, held, _ = train.training_queries(JUDGMENTS, train.BENCHMARK, laws, 50, 10_000, 1)
    assert held == {q["doc"] for q in bench["queries"]} and len(at_hand & held) >= 2
    assert not {doc for doc, _, _ in queries} & held
    freed = sorted(at_hand & held)[0]
    kept = [q for q in bench["queries"] if q["doc"] != freed]
    smaller = tmp_path / "bench.json"
    smaller.write_text(json.dumps({**bench, "queries": kept}, ensure_ascii=False), "utf-8")
    queries, held, _ = train.training_queries(JUDGMENTS, smaller, laws, 50, 10_000, 1)
    assert queries and {doc for doc, _, _ in queries} <= at_hand - held and freed not in held
    assert not {query for _, query, _ in queries} & {q["query"] for q in kept}


def test_a_law_without_anchors_is_ranked_as_the_hybrid_ranks_it(lg: LexGraph, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the question's law holds fewer than `ANCHORED` anchors per article, the learned mode returns the
    hybrid's order exactly; where it holds enough, the model's."""
    from lexgraph.index.query import SearchFilter

    question = "他人の権利を侵害した者の損害賠償責任"
    where = SearchFilter(kind="provision")
    hybrid = [r.uid for r in lg.retriever("hybrid").retrieve(question, 10, where)]
    retriever = lg.retriever("learned")
    assert isinstance(retriever, learned.LearnedRetriever) and retriever.field is not None
    law = hybrid[0].split("/", 1)[0]
    per_article = retriever.field.law_anchors(law) / len(retriever.index.articles_of(law))  # type: ignore[attr-defined]
    assert per_article > 0  # a handful of judgments cite 民法
    monkeypatch.setattr(learned, "ANCHORED", per_article * 2)
    assert [r.uid for r in retriever.retrieve(question, 10, where)] == hybrid
    monkeypatch.setattr(learned, "ANCHORED", per_article / 2)
    candidates = retriever.candidates(question, where)
    scores = retriever.model.score(candidates.features)
    by_model = [candidates.hits[i].uid for i in sorted(range(len(scores)), key=lambda i: -scores[i])[:10]]
    ranked = [r.uid for r in retriever.retrieve(question, 10, where)]
    assert ranked == by_model and ranked != hybrid
