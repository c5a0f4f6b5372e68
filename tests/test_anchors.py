"""The anchor field: the sentences of judgments citing an article, as a BM25 field, and the rule that a
query's own judgment (and every judgment of the split scored) never feeds it. Real judgments of tests/data/
precedents (their source in SOURCE.md) and the bundled sample store."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexgraph.client import LexGraph
from lexgraph.documents.judgment import judgment_key
from lexgraph.errors import InputError
from lexgraph.eval.benchmark import load_questions
from lexgraph.index.anchors import (
    ANCHOR_FILE,
    FIELD_FILE,
    FIELD_FORMAT,
    Anchor,
    judgment_anchors,
    read_anchors,
    statute_anchors,
)
from lexgraph.index.tokenize import question_terms, tokenize
from lexgraph.index.units import article_path
from lexgraph.retrieve import anchor_field as anchor_field_module
from lexgraph.retrieve import learned
from lexgraph.retrieve.anchor_bm25 import best_rows
from lexgraph.retrieve.anchor_field import AnchorField, field_arrays, read_field, write_field
from lexgraph.statutes.clauses import stored_clause_text
from lexgraph.store.rows import LAW_CITES_SPANS, LAW_PROVISION_SENTENCES, LawCitesSpansRow
from tests.helpers import ROOT, SHARED, build_search_store, copy_store, lexgraph, training_script

JUDGMENTS = ROOT / "tests" / "data" / "precedents"
MINPO = "129AC0000000089"


def judgment_benchmark() -> dict[str, Any]:
    """The judgment retrieval benchmark as its file holds it (queries, their judgments and gold)."""
    return json.loads((ROOT / "bench" / "data" / "judgment_retrieval.json").read_text("utf-8"))


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
    # nor to its sentences one by one
    assert full.sentences is not None and held.sentences is not None and never_had_it.sentences is not None
    assert held.sentences.nearest(query, 50) == never_had_it.sentences.nearest(query, 50)
    nearest = full.sentences.nearest(query, 1)[0]
    assert (nearest.law_id, nearest.article) in {(a.law_id, a.article) for a in anchors if a.tokens == query}
    assert full.sentences.nearest(query, 50) != held.sentences.nearest(query, 50)


def test_the_nearest_sentences_within_a_law_filter_are_that_law_s_before_the_cut() -> None:
    """A search filtered to laws gets the nearest articles of those laws, taken before the `k` are cut (as every
    ranked list applies the filter), not the first `k` of all laws with the others dropped."""
    anchors = every_anchor()
    sentences = AnchorField.build(anchors).sentences
    assert sentences is not None
    query = next(a.tokens for a in anchors if a.law_id == MINPO and a.source == "92453")
    every = sentences.nearest(query, 10_000)
    assert {hit.law_id for hit in every} > {MINPO}
    mine = [(h.law_id, h.article, h.score) for h in every if h.law_id == MINPO]
    within = sentences.nearest(query, 10_000, {MINPO})
    assert [(h.law_id, h.article, h.score) for h in within] == mine
    assert [h.rank for h in within] == list(range(1, len(mine) + 1))
    first_other = next(i for i, h in enumerate(every) if h.law_id != MINPO)
    assert [(h.law_id, h.article) for h in sentences.nearest(query, first_other + 2, {MINPO})] == \
        [(law, article) for law, article, _ in mine[:first_other + 2]]


_WORDS = st.sampled_from(["不法", "行為", "損害", "賠償", "上告", "理由", "違反", "憲法", "契約", "解除"])
_SENTENCES = st.lists(st.tuples(st.sampled_from([(MINPO, "a709"), (MINPO, "a710"), ("321CONSTITUTION", "a31"),
                                                 ("321CONSTITUTION", "a37")]),
                                st.sampled_from(["1", "2", "3"]), st.lists(_WORDS, min_size=1, max_size=8)),
                      min_size=1, max_size=20)


@settings(max_examples=60, deadline=None)
@given(_SENTENCES, st.lists(_WORDS, min_size=1, max_size=5), st.sampled_from([(), ("1",), ("2", "3")]))
def test_the_nearest_sentences_are_each_article_s_best_sentence_by_bm25(
        sentences: list[tuple[tuple[str, str], str, list[str]]], query: list[str], held: tuple[str, ...]) -> None:
    """Against BM25 written out here sentence by sentence (each distinct article and words once, the held-apart
    judgments' left out, idf over the sentences kept): every article's score is its best sentence's, the order is
    by score, and no article of a held-apart judgment alone is returned."""
    anchors = [Anchor(law, article, "judgment", source, tuple(words)) for (law, article), source, words in sentences]
    kept = list(dict.fromkeys((a.law_id, a.article, a.tokens) for a in anchors if a.source not in held))
    hits = AnchorField.build(anchors, exclude=held).sentences
    if not kept:
        assert hits is None
        return
    assert hits is not None
    n, mean = len(kept), sum(len(t) for _, _, t in kept) / len(kept)
    best: dict[tuple[str, str], float] = {}
    for law, article, tokens in kept:
        score = 0.0
        for term in dict.fromkeys(query):
            tf = tokens.count(term)
            if tf:
                df = sum(1 for _, _, t in kept if term in t)
                idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
                score += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * len(tokens) / mean))
        best[(law, article)] = max(best.get((law, article), 0.0), score)
    found = hits.nearest(tuple(query), 10)
    assert {(h.law_id, h.article): round(h.score, 9) for h in found} == \
        {a: round(v, 9) for a, v in best.items() if v > 0}
    assert [h.score for h in found] == sorted((h.score for h in found), reverse=True)


@given(st.lists(st.integers(0, 4), max_size=40), st.integers(1, 12))
def test_the_best_rows_are_the_first_k_of_a_full_sort(values: list[int], k: int) -> None:
    """Both anchor lists take their best articles through `best_rows`: with ties (the same anchors for two
    articles), the same rows a full sort by score then row gives, whatever the partition picks."""
    scores = np.asarray(values, dtype=float)
    positive = [row for row in sorted(range(len(values)), key=lambda row: (-values[row], row)) if values[row] > 0]
    assert best_rows(scores, k).tolist() == positive[:k]


def test_a_judgment_held_apart_is_held_apart_in_both_copies_of_its_file(tmp_path: Path) -> None:
    """The courts' archive ships some judgments twice (085547_hanrei.txt and 85547.txt, byte for byte): holding
    one name apart holds the other apart too, in the field, its sentences and the training queries."""
    text = (JUDGMENTS / "92453.txt").read_text("utf-8")
    (tmp_path / "92453.txt").write_text(text, "utf-8")
    (tmp_path / "092453_hanrei.txt").write_text(text, "utf-8")
    (tmp_path / "91244.txt").write_text((JUDGMENTS / "91244.txt").read_text("utf-8"), "utf-8")
    twins = [a for f in sorted(tmp_path.glob("*.txt")) for a in judgment_anchors(f.stem, f.read_text("utf-8"))]
    assert {a.source for a in twins} == {"92453", "092453_hanrei", "91244"}
    other = [a for a in twins if a.source == "91244"]
    query = next(a.tokens for a in twins if a.source == "92453" and a.law_id == MINPO)
    for name in ("092453_hanrei", "92453"):
        held = AnchorField.build(twins, exclude={name})
        alone = AnchorField.build(other)
        assert by_article(held, query) == by_article(alone, query)
        assert held.sentences is not None and alone.sentences is not None
        assert held.sentences.nearest(query, 50) == alone.sentences.nearest(query, 50)
    train = training_script()
    benchmark = tmp_path / "bench.json"
    benchmark.write_text(json.dumps({"queries": [{"doc": "092453_hanrei"}]}), "utf-8")
    queries, held_keys, _ = train.training_queries(tmp_path, benchmark, {MINPO, "408AC0000000109"}, 50, 1000, 1)
    assert held_keys == {"92453"} and queries and {doc for doc, _, _ in queries} == {"91244"}


ARCHIVE = SHARED / "precedents" / "supreme_court"


@pytest.fixture(scope="module")
def archive_anchors() -> list[Anchor]:
    """The anchors of the real archive's 742 judgments (a few seconds)."""
    return [a for f in sorted(ARCHIVE.glob("*.txt")) for a in judgment_anchors(f.stem, f.read_text("utf-8"))]


#: Judgment benchmark dev queries (their sentence, its citations cut out, as the benchmark cuts them) whose cited
#: article no word of theirs names, and which another judgment cited with the same words: (query id, article).
NEAREST_SENTENCES = [
    ("89797@1009", ("321CONSTITUTION", "a43")),  # 特定枠制度…に違反する: 92419 cites 憲法43条 with it
    ("91242@22620", ("322AC0000000125", "a1")),  # この結論とで述べた伝統的法理…: the companion 91243 cites it
    ("85408@99", ("321CONSTITUTION", "a31")),  # 保釈保証金の全部を没取した…に違反する: 85409, decided with it
]


@pytest.mark.requires("shared")
@pytest.mark.parametrize(("qid", "article"), NEAREST_SENTENCES)
def test_the_nearest_citing_sentence_names_the_article_the_question_leaves_out(
        archive_anchors: list[Anchor], qid: str, article: tuple[str, str]) -> None:
    """With every dev judgment held apart as an evaluation holds them apart, the article whose best citing
    sentence is nearest the question is the one it cited."""
    bench = judgment_benchmark()
    question = next(q for q in bench["queries"] if q["qid"] == qid)
    assert article in {(g["law_id"], g["path"]) for g in question["articles"]}
    field = AnchorField.build(archive_anchors, exclude={q["doc"] for q in bench["queries"] if q["split"] == "dev"})
    terms = question_terms(question["query"])
    assert field.sentences is not None
    first = field.sentences.nearest(terms, 1)[0]
    assert (first.law_id, first.article) == article


@pytest.mark.requires("shared")
def test_no_copy_of_a_benchmark_judgment_feeds_the_anchors_or_the_training(archive_anchors: list[Anchor]) -> None:
    """The real archive of 742 judgments holds five twice, under both names (083087_hanrei.txt and 83087.txt);
    four of those are benchmark judgments. Held apart as an evaluation holds them apart, no anchor comes from
    either copy of a benchmark judgment, and no sentence of a benchmark query from a twin is an anchor or a
    training query. Held apart by file name, as they were, the twins gave the benchmark's own sentences to both.
    (Other judgments that repeat a benchmark sentence word for word, a companion case's or a set phrase, are
    other judgments, and feed both: docs/search.md counts them.)"""
    bench = judgment_benchmark()
    held = {q["doc"] for q in bench["queries"]}
    stems = {f.stem for f in ARCHIVE.glob("*.txt")}
    twinned = {d for d in held if {s for s in stems if judgment_key(s) == judgment_key(d)} - {d}}
    assert len(twinned) == 4
    field = AnchorField.build(archive_anchors, exclude=held)
    assert len(field.sources) > 250 and not {judgment_key(s) for s in field.sources} & {judgment_key(d) for d in held}
    fed = [" ".join(a.tokens) for a in archive_anchors if a.source in field.sources]
    theirs = [" ".join(tokenize(q["query"])) for q in bench["queries"] if q["doc"] in twinned]
    assert len(theirs) == 6 and not [q for q in theirs for a in fed if f" {q} " in f" {a} "]
    train = training_script()
    queries, _, _ = train.training_queries(ARCHIVE, train.BENCHMARK, {e["law_id"] for e in bench["laws"]}, 50,
                                           100_000, 1)
    assert queries and not {query for _, query, _ in queries} & {q["query"] for q in bench["queries"]
                                                                  if q["doc"] in twinned}


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
        assert (Path(handle.store.location) / "index" / FIELD_FILE).is_file()  # `lexgraph index` saved it
        assert (handle.build_statute_anchors(rebuild=True) or 0) > 50
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
    anchor_field_module._FIELDS.clear()
    runs = lg.eval_retrieval(questions, ["learned"], [5])
    assert runs[0].mode == "learned" and len(runs[0].scored) == len(queries)
    used = list(anchor_field_module._FIELDS.values())
    assert len(used) == 1 and used[0] is not None
    assert not (used[0].sources & scored) and used[0].sources == sources - scored




def test_training_queries_come_from_judgments_outside_the_benchmark(tmp_path: Path) -> None:
    train = training_script()
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
    train = training_script()
    bench = json.loads(train.BENCHMARK.read_text("utf-8"))
    laws = {entry["law_id"] for entry in bench["laws"]}
    at_hand = {f.stem for f in JUDGMENTS.glob("*.txt")}
    queries, held, _ = train.training_queries(JUDGMENTS, train.BENCHMARK, laws, 50, 10_000, 1)
    assert held == {judgment_key(q["doc"]) for q in bench["queries"]} and len(at_hand & held) >= 2
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


# -- the statutes' anchors and the saved field ------------------------------------------------------------------
STATUTE_KINDS = {"act", "order", "ordinance", "rule", "own"}


def test_a_statute_anchor_is_the_citing_sentence_without_its_citations(lg: LexGraph) -> None:
    """Every resolved citation between clauses gives the cited article the citing sentence, with no clause number
    left in it (the article's number must not be the match), of the citing law's kind; a clause citing its own
    article (前項 in one article) gives none."""
    anchors = list(statute_anchors(lg.store))
    assert len(anchors) > 50 and {a.kind for a in anchors} <= STATUTE_KINDS
    edges = lg.store.rows(LAW_CITES_SPANS, law_id=MINPO)
    cited = {(e.to_law, article_path(e.to_path)) for e in edges}
    assert {(a.law_id, a.article) for a in anchors if a.source == MINPO} <= cited
    for anchor in anchors:
        pairs = zip(anchor.tokens, anchor.tokens[1:], strict=False)
        assert anchor.tokens and not [(a, b) for a, b in pairs if a.isdigit() and b in {"条", "項", "号"}], anchor
        assert anchor.kind == ("own" if anchor.law_id == anchor.source else anchor.kind)
    def citing(edge: LawCitesSpansRow) -> str:
        return article_path(edge.from_uid.partition("/")[2].split("@")[0])

    within = {article_path(e.to_path) for e in edges if e.to_law == MINPO and citing(e) == article_path(e.to_path)}
    elsewhere = {article_path(e.to_path) for e in edges if e.to_law == MINPO and citing(e) != article_path(e.to_path)}
    assert within - elsewhere  # articles whose 前項 / 同条 are their only citations in 民法
    assert not {a.article for a in anchors if a.source == MINPO == a.law_id} & (within - elsewhere)
    sentences = {r.uid: stored_clause_text(r.sentences) for r in lg.store.rows(LAW_PROVISION_SENTENCES, law_id=MINPO)}
    spans = {sentences[e.from_uid][e.char_start:e.char_end] for e in edges if e.from_uid in sentences}
    assert {"前項", "同条"} & spans  # the edges' spans are the citations in the clause's own text


def test_the_saved_field_with_the_judgments_laid_over_it_is_the_field_of_both(lg: LexGraph, tmp_path: Path) -> None:
    """The statutes' part saved and mapped, the judgments' built in memory over it: the same BM25 as one field
    built in memory from every anchor, the idf and the mean length included, and the same with a judgment held
    apart."""
    statutes = list(statute_anchors(lg.store))
    judgments = every_anchor()
    write_field(tmp_path, field_arrays(statutes, keep_sources=False))
    read = read_field(tmp_path)
    assert read is not None and read[1]["anchors"] == field_arrays(statutes).anchors
    saved = read[0]
    for exclude in ((), {"92453"}):
        laid = AnchorField.build(judgments, exclude=exclude, base=saved)
        whole = AnchorField.build([*statutes, *[a for a in judgments if a.source not in exclude]])
        assert sorted(laid.articles) == sorted(whole.articles)
        for query in [a.tokens for a in judgments[:20]] + [a.tokens for a in statutes[::40]]:
            assert by_article(laid, query) == pytest.approx(by_article(whole, query), rel=1e-6)
            got, want = laid.search(query, 5), whole.search(query, 5)
            assert [h.score for h in got] == pytest.approx([h.score for h in want], rel=1e-6)
        assert laid.law_anchors(MINPO) == whole.law_anchors(MINPO) > 0
        assert laid.in_degree(MINPO, "a709") == whole.in_degree(MINPO, "a709")


GENGO = ROOT / "tests" / "data" / "egov" / "354AC0000000043_lawhub20201118_revision-unknown.xml"  # 元号法


def test_lexgraph_index_saves_no_field_where_no_clause_cites_another(tmp_path: Path) -> None:
    """元号法 alone: no citation between clauses resolves, so the default `lexgraph index` saves no field (an empty
    one would let the learned mode rank as the hybrid without saying so), and the search says who ranked."""
    store = tmp_path / "store"
    run = lexgraph("ingest", "statutes", GENGO, "--in-force-on", "2020-11-18", store=store)
    assert run.code == 0, run.stderr
    run = lexgraph("index", "--json", store=store)
    assert run.code == 0, run.stderr
    assert run.json()["built"] == ["law:354AC0000000043"] and "statute_anchors" not in run.json()
    assert not (store / "index" / FIELD_FILE).exists()
    found = lexgraph("search", "元号は何で定めるか", "--json", store=store)
    assert found.code == 0, found.stderr
    assert found.json()["ranked_by"]["mode"] == "hybrid" and found.json()["clauses"]


def test_lexgraph_index_saves_the_statute_anchors_and_skips_them_when_up_to_date(tmp_path: Path) -> None:
    store = tmp_path / "store"
    build_search_store(store, statute_anchors=False)
    field = store / "index" / FIELD_FILE
    assert not field.exists()  # indexed with --no-statute-anchors
    run = lexgraph("index", "--no-statute-anchors", "--json", store=store)  # none saved before: none made
    assert run.code == 0, run.stderr
    assert "statute_anchors" not in run.json() and not field.exists()
    run = lexgraph("index", "--json", store=store)  # the default
    assert run.code == 0, run.stderr
    assert run.json()["statute_anchors"] > 50 and field.is_file()
    before = field.stat().st_mtime_ns
    for flags in ((), ("--statute-anchors",), ("--no-statute-anchors",)):  # up to date: left as it is
        run = lexgraph("index", *flags, "--json", store=store)
        assert run.code == 0, run.stderr
        assert "statute_anchors" not in run.json() and field.stat().st_mtime_ns == before
    run = lexgraph("index", "--no-statute-anchors", "--rebuild-anchors", store=store)
    assert run.code == 2 and "--no-statute-anchors cannot be given with" in " ".join(run.stderr.split())
    run = lexgraph("index", "--rebuild-anchors", "--json", store=store)
    assert run.code == 0, run.stderr
    assert run.json()["statute_anchors"] > 50 and not list(field.parent.glob(".*.tmp"))
    run = lexgraph("search", "不法行為 損害賠償", "--mode", "anchor", "--json", store=store)
    assert run.code == 0, run.stderr
    field.write_bytes(field.read_bytes()[:200])  # cut short
    run = lexgraph("search", "不法行為 損害賠償", "--mode", "anchor", store=store)
    assert run.code == 1 and str(field) in run.stderr and "--rebuild-anchors" in run.stderr


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_damaged_field_is_refused_never_read_out_of_bounds(tmp_path: Path, data: st.DataObject) -> None:
    """Bytes of a saved field changed, cut or added anywhere: reading it and searching it either work or raise
    `InputError` naming the file, nothing else."""
    anchors = every_anchor()[:60]
    folder = tmp_path / "f"
    if not (folder / FIELD_FILE).exists():
        write_field(folder, field_arrays(anchors))
    good = (folder / FIELD_FILE).read_bytes()
    damaged = bytearray(good)
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(damaged) - 1))
        damaged[at] = data.draw(st.integers(0, 255))
    cut = data.draw(st.one_of(st.none(), st.integers(0, len(damaged))))
    bad = tmp_path / "bad"
    bad.mkdir(exist_ok=True)
    (bad / FIELD_FILE).write_bytes(bytes(damaged[:cut] if cut is not None else damaged))
    try:
        read = read_field(bad)
        assert read is not None
        field = AnchorField(read[0], where=str(bad / FIELD_FILE))
        for anchor in anchors[:5]:
            field.search(anchor.tokens, 5)
            field.in_degree(anchor.law_id, anchor.article)
    except InputError as error:
        assert str(bad / FIELD_FILE) in str(error)


# -- no leakage: benchmark text is never an anchor, gold never chooses a training query --------------------------
def _contains(anchor: tuple[str, ...], query: tuple[str, ...]) -> bool:
    return f" {' '.join(query)} " in f" {' '.join(anchor)} "


def test_no_benchmark_question_is_an_anchor_of_the_field_an_evaluation_builds(lg: LexGraph) -> None:
    """Neither a judgment benchmark query (its sentence, tokenised as the anchors are) nor a lawqa_jp question is
    inside any anchor that feeds the field as an evaluation builds it: the statutes' anchors, and the judgments'
    without the benchmark's own judgments (every judgment at hand here is one)."""
    bench = judgment_benchmark()
    held = {q["doc"] for q in bench["queries"]}
    questions = [tuple(tokenize(q["query"])) for q in bench["queries"]]
    lawqa = SHARED / "lawqa_jp" / "dev.json"
    if lawqa.exists():
        questions += [tuple(tokenize(q.query)) for q in load_questions(lawqa)]
    questions = [q for q in questions if len(q) >= 5]
    assert len(questions) > 600
    statutes = list(statute_anchors(lg.store))
    judgments = every_anchor()
    fed = statutes + [a for a in judgments if a.source not in held]
    assert statutes and len(fed) > len(statutes) and not [a for a in fed for q in questions if _contains(a.tokens, q)]
    # and the rule bites: the benchmark's own judgments' anchors do hold its queries' sentences
    assert [a for a in judgments if a.source in held for q in questions if _contains(a.tokens, q)]


def test_no_training_query_is_chosen_by_a_benchmark_gold(tmp_path: Path) -> None:
    """The training queries read the benchmark for its judgments (held apart) and its laws, never its gold: every
    query's gold articles and paragraphs changed, the training queries are the same."""
    train = training_script()
    bench = json.loads(train.BENCHMARK.read_text("utf-8"))
    laws = {entry["law_id"] for entry in bench["laws"]}
    unheld = tmp_path / "unheld.json"  # no judgment held: the judgments at hand are all the benchmark's
    unheld.write_text(json.dumps({**bench, "queries": [{**q, "doc": f"x{i}"} for i, q in enumerate(bench["queries"])]},
                                 ensure_ascii=False), "utf-8")
    moved = tmp_path / "moved.json"
    moved.write_text(json.dumps({**bench, "queries": [
        {**q, "doc": f"x{i}", "articles": [{"law_id": MINPO, "path": "a1"}], "paragraphs": []}
        for i, q in enumerate(bench["queries"])]}, ensure_ascii=False), "utf-8")
    first = train.training_queries(JUDGMENTS, unheld, laws, 50, 10_000, 1)
    second = train.training_queries(JUDGMENTS, moved, laws, 50, 10_000, 1)
    assert first[0] and first == second
    assert not hasattr(train, "clause_queries")  # a citing clause's sentence is an anchor of its gold now


def test_training_queries_may_cite_any_law_the_store_holds(lg: LexGraph, tmp_path: Path) -> None:
    """Training queries come from judgments citing any law the store holds (`stored_laws`), not only the
    benchmark's: a store of every law is where users search, and its distractors are then among the training
    queries' candidates. On the sample store (民法, 借地借家法, 個人情報保護法), with a benchmark of other laws whose
    queries come from no judgment at hand, the real judgments still give queries, every gold a stored law."""
    train = training_script()
    laws = train.stored_laws(lg)
    assert {MINPO, "403AC0000000090", "415AC0000000057"} <= laws
    bench = json.loads(train.BENCHMARK.read_text("utf-8"))
    other = tmp_path / "other.json"
    other.write_text(json.dumps({**bench, "laws": [e for e in bench["laws"] if e["law_id"] not in laws],
                                 "queries": [{**q, "doc": f"x{i}"} for i, q in enumerate(bench["queries"])]},
                                ensure_ascii=False), "utf-8")
    queries, _, used = train.training_queries(JUDGMENTS, other, laws, 50, 10_000, 1)
    assert queries and used >= 1
    assert {law for _, _, gold in queries for law, _ in gold} <= laws
    assert MINPO in {law for _, _, gold in queries for law, _ in gold}


def test_doctor_reports_the_anchor_field_beside_an_embedded_index(search_store_template: Path,
                                                                   tmp_path: Path) -> None:
    """`lexgraph doctor` on an embedded store has the same `anchor field` line as on Neo4j: each file kept or not,
    its size, the graph digest the statutes' field was built from against the graph now; a field built from
    another graph, of another format, or a damaged file is a problem (exit 1) naming the command that writes it
    again, and running that command clears it."""
    store = copy_store(search_store_template, tmp_path / "store")
    assert lexgraph("index", "--anchors", JUDGMENTS, store=store).code == 0
    index = store / "index"
    field_path, anchors_path = index / FIELD_FILE, index / ANCHOR_FILE

    def doctor() -> tuple[int, dict[str, str]]:
        run = lexgraph("doctor", "--json", store=store)
        found = [f for f in run.json()["findings"] if f["check"] == "anchor field"]
        assert len(found) == 1, run.stdout
        return run.code, found[0]

    code, field = doctor()
    assert code == 0 and field["ok"], field
    saved = read_field(index)
    assert saved is not None
    graph = str(saved[1]["graph"])
    assert f"{FIELD_FILE}: {field_path.stat().st_size:,} bytes, {saved[1]['anchors']:,} anchors" in field["detail"]
    assert f"built from the graph as it stands (graph {graph[:12]})" in field["detail"]
    anchors = read_anchors(index) or []
    assert f"{ANCHOR_FILE}: {anchors_path.stat().st_size:,} bytes, {len(anchors):,} anchors" in field["detail"]

    # built from another state of the graph: a problem, until `lexgraph index` builds it again
    write_field(index, saved[0], about={"graph": "0" * 64, "laws": saved[1]["laws"]})
    code, field = doctor()
    assert code == 1 and not field["ok"], field
    assert f"{FIELD_FILE}: built from another state of the graph (graph 000000000000, the graph now " \
           f"{graph[:12]}" in field["detail"]
    assert f"build it again with `lexgraph index --store {store}`" in field["fix"]
    assert lexgraph("index", store=store).code == 0
    code, field = doctor()
    assert code == 0 and f"(graph {graph[:12]})" in field["detail"], field

    # written by another version, and a damaged judgments' file: problems naming the command that writes each
    field_path.write_bytes(field_path.read_bytes().replace(FIELD_FORMAT.encode(), b"lexgraph-anchor-field/0", 1))
    anchors_path.write_bytes(b"\x1f\x8b not gzip")
    code, field = doctor()
    assert code == 1 and not field["ok"], field
    assert f"{FIELD_FILE}: cannot be read ({field_path}: format 'lexgraph-anchor-field/0'" in field["detail"]
    assert f"{ANCHOR_FILE}: cannot be read ({anchors_path}" in field["detail"]
    assert f"`lexgraph index --rebuild-anchors --store {store}`" in field["fix"]
    assert f"`lexgraph index --anchors DIR --store {store}`" in field["fix"]
    text = lexgraph("doctor", store=store)
    assert text.code == 1 and "PROBLEM" in text.stdout and "fix:" in text.stdout, text.stdout

    # none kept: no problem, but said, with the commands that build them
    field_path.unlink()
    anchors_path.unlink()
    code, field = doctor()
    assert code == 0 and field["ok"], field
    assert f"{FIELD_FILE}: not kept" in field["detail"] and f"{ANCHOR_FILE}: not kept" in field["detail"]
    assert "ranks as the hybrid" in field["detail"]
    assert f"lexgraph index --statute-anchors --store {store}" in field["fix"]
