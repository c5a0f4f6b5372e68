"""The judgment-citation benchmark: its builder on real Supreme Court judgments (tests/data/precedents, see
SOURCE.md there), its file format, and `lexgraph eval retrieval --dataset … --split` reading it."""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from lexgraph.errors import DatasetError
from lexgraph.eval.benchmark import BENCHMARK_FORMAT, BenchmarkQuery, load_questions
from lexgraph.eval.judgment_bench import (
    MAX_CHARS,
    MIN_CHARS,
    choose_laws,
    citing_sentences,
    law_frequencies,
    select_queries,
    sentence_ends,
    split_of,
)
from tests.helpers import copy_store, lexgraph

JUDGMENTS = Path(__file__).parent / "data" / "precedents"
MINPO = "129AC0000000089"
CLAUSE_NUMBER = re.compile(r"[0-9０-９]+条")


@pytest.fixture(scope="module")
def sentences() -> list:  # type: ignore[type-arg]
    return [s for f in sorted(JUDGMENTS.glob("*.txt")) for s in citing_sentences(f.stem, f.read_text("utf-8"))]


@pytest.mark.parametrize(("text", "ends"), [
    ("被上告人（以下「市」という。）に対し請求した。次に", ["被上告人（以下「市」という。）に対し請求した。"]),
    ("「保険料を徴収する。」と定める。これは", ["「保険料を徴収する。」と定める。"]),
    ("上告を棄却する。上告費用は上告人の負担とする。", ["上告を棄却する。", "上告費用は上告人の負担とする。"]),
    ("）により放出された。残り", ["）により放出された。"]),  # a PDF cut mid-bracket does not swallow the rest
])
def test_a_sentence_ends_at_a_full_stop_outside_brackets(text: str, ends: list[str]) -> None:
    starts = [0, *sentence_ends(text)]
    assert [text[a:b] for a, b in itertools.pairwise(starts)] == ends


def test_queries_are_citing_sentences_without_their_citations(sentences: list) -> None:  # type: ignore[type-arg]
    assert len(sentences) >= 8
    for s in sentences:
        assert MIN_CHARS <= len(s.query) <= MAX_CHARS
        assert not CLAUSE_NUMBER.search(s.query), s.query  # the answer is not in the question
        assert "\n" not in s.query and "（）" not in s.query
        assert s.articles and all(path.startswith("a") and "/" not in path for _, path in s.articles)
        assert {(law, path.split("/")[0]) for law, path in s.paragraphs} <= set(s.articles)
    by_doc = {(s.doc, s.start): s for s in sentences}
    # 92453 (令和５年１０月２６日決定) turns on 民法１０５０条 (特別寄与料), cited with and without 第５項.
    special = [s for (doc, _), s in by_doc.items() if doc == "92453"]
    assert special and all(s.articles == ((MINPO, "a1050"),) for s in special)
    assert any(s.paragraphs == ((MINPO, "a1050/p5"),) and "特別寄与料" in s.query for s in special)
    assert all("１０５０" not in s.query for s in special)


def test_selection_is_seeded_capped_per_judgment_and_split_by_judgment(sentences: list) -> None:  # type: ignore[type-arg]
    laws = law_frequencies(sentences)
    picked = select_queries(sentences, laws, seed=17, per_judgment=1)
    assert picked == select_queries(sentences, laws, seed=17, per_judgment=1)  # same inputs, same benchmark
    assert max(Counter(s.doc for s, _ in picked).values()) == 1
    assert {s.doc for s, _ in picked} == {s.doc for s in sentences}
    assert all(split == split_of(s.doc, 17) for s, split in picked)
    only_minpo = select_queries(sentences, [MINPO], seed=17)
    assert only_minpo and all(s.laws == (MINPO,) for s, _ in only_minpo)


@pytest.mark.parametrize(("sizes", "budget", "chosen"), [
    ({"A": 10, "B": 50, "C": 5}, 100, ["A", "B", "C"]),
    ({"A": 10, "B": 95, "C": 5}, 100, ["A", "C"]),  # B does not fit: skipped, not the end of the list
    ({"A": 10, "C": 5}, 100, ["A", "C"]),  # no size (not in the archive): never chosen
    ({"A": 0, "B": 100, "C": 5}, 100, ["A", "B"]),  # a law stored anyway costs nothing
])
def test_laws_are_chosen_by_citations_within_the_budget(sizes: dict[str, int], budget: int,
                                                         chosen: list[str]) -> None:
    frequencies = Counter({"A": 30, "B": 20, "C": 10})
    assert choose_laws(frequencies, sizes, budget) == chosen


def write_benchmark(path: Path, sentences: list, laws: list[str]) -> list:  # type: ignore[type-arg]
    picked = select_queries(sentences, laws, seed=17)
    path.write_text(json.dumps({"format": BENCHMARK_FORMAT, "queries": [
        {"qid": s.qid, "split": split, "query": s.query,
         "articles": [{"law_id": law, "path": p} for law, p in s.articles],
         "paragraphs": [{"law_id": law, "path": p} for law, p in s.paragraphs]} for s, split in picked]},
        ensure_ascii=False), encoding="utf-8")
    return picked


def test_a_benchmark_file_loads_with_its_split(tmp_path: Path, sentences: list) -> None:  # type: ignore[type-arg]
    picked = write_benchmark(tmp_path / "b.json", sentences, list(law_frequencies(sentences)))
    every = load_questions(tmp_path / "b.json")
    assert [q.qid for q in every] == [s.qid for s, _ in picked]
    assert all(isinstance(q, BenchmarkQuery) and q.gold_laws for q in every)
    for split in ("dev", "test"):
        assert [q.qid for q in load_questions(tmp_path / "b.json", split)] == \
            [s.qid for s, name in picked if name == split]
    with pytest.raises(DatasetError, match="split must be one of dev, test"):
        load_questions(tmp_path / "b.json", "train")


@pytest.mark.parametrize(("entry", "message"), [
    ({"qid": "x", "query": "q", "split": "dev", "articles": [{"law_id": MINPO}]}, r"queries\[0\]: 'articles'"),
    ({"qid": "x", "query": "", "split": "dev"}, r"queries\[0\] needs a non-empty string 'query'"),
    ({"qid": "x", "query": "q", "split": "train"}, r"queries\[0\]: split 'train'"),
    ({"qid": "x", "query": "q", "split": "dev", "doc": 7}, r"queries\[0\]: 'doc' must be a string"),
])
def test_a_broken_benchmark_file_names_the_query_and_field(tmp_path: Path, entry: dict, message: str) -> None:  # type: ignore[type-arg]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": BENCHMARK_FORMAT, "queries": [entry]}), encoding="utf-8")
    with pytest.raises(DatasetError, match=message):
        load_questions(bad)


def test_eval_retrieval_reads_a_benchmark_file(tmp_path_factory: pytest.TempPathFactory, search_store_template: Path,
                                               sentences: list) -> None:  # type: ignore[type-arg]
    store = copy_store(search_store_template, tmp_path_factory.mktemp("search") / "store")
    dataset = tmp_path_factory.mktemp("bench") / "minpo.json"
    picked = write_benchmark(dataset, sentences, [MINPO])  # the sample store holds 民法 only of these laws
    run = lexgraph("eval", "retrieval", "--dataset", dataset, "--mode", "bm25", "--json", store=store)
    assert run.code == 0, run.stderr
    result = run.json()["runs"][0]
    assert (result["questions"], result["scored"], result["absent"]) == (len(picked), len(picked), [])
    assert result["version_mismatched"] == {"article": [], "paragraph": []}  # no quoted text: nothing to compare
    scores = result["levels"]["article"]
    assert scores["n_scored"] == len(picked) and 0.0 <= scores["recall@5"] <= scores["recall@20"] <= 1.0
    dev = [s for s, split in picked if split == "dev"]
    split_run = lexgraph("eval", "retrieval", "--dataset", dataset, "--split", "dev", "--mode", "bm25", "--json",
                         store=store)
    assert split_run.code == 0 and split_run.json()["runs"][0]["questions"] == len(dev)
    everything = write_benchmark(dataset, sentences, list(law_frequencies(sentences)))
    wide = lexgraph("eval", "retrieval", "--dataset", dataset, "--mode", "bm25", "--json", store=store).json()
    # A query citing a law the store lacks (刑事訴訟法, 原賠法) is absent, never scored as a miss.
    assert wide["runs"][0]["scored"] + len(wide["runs"][0]["absent"]) == len(everything)
    assert wide["runs"][0]["absent"]
    assert wide["runs"][0]["scored"] == sum(1 for s, _ in everything if s.laws == (MINPO,))
    shallow = lexgraph("eval", "retrieval", "--dataset", dataset, "--depth", "10", store=store)
    assert shallow.code == 2 and "--depth 10 is less than the largest k (20)" in shallow.stderr
