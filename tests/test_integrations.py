"""The shipped wrappers (`lexgraph.integrations`): neo4j-graphrag's and LangChain's retriever interfaces giving
lexgraph's own top 10, in its order, for lawqa_jp's questions, on the embedded store and on the real Neo4j server;
their items carry the caption and wording and no index data (tokens, embeddings)."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from lexgraph import LexGraph, SearchOptions
from lexgraph.store.base import GraphStore
from tests.capabilities import NEO4J_URI_ENV
from tests.helpers import SAMPLE, SEED_CACHE, SHARED, copy_store

MODES = ("dense", "bm25", "hybrid")
LAWQA_SAMPLE = Path(__file__).parent / "data" / "lawqa" / "dev_sample.json"
LAWQA_DEV = SHARED / "lawqa_jp" / "dev.json"
#: no key of a hit's metadata may hold what the index holds for ranking
INDEX_DATA = {"tokens", "embedding", "vector"}


def questions(path: Path) -> list[str]:
    """What `eval retrieval` searches for a lawqa_jp question: the question and its choices."""
    from lexgraph.eval.lawqa import load_lawqa

    return [question.query for question in load_lawqa(path)]


def lexgraph_top(lg: LexGraph, question: str, mode: str) -> list[str]:
    return [hit.uid for hit in lg.search(question, options=SearchOptions(mode=mode, k=10), kind="provision").clauses]


def check_wrappers(lg: LexGraph, driver: object | None, asked: list[str]) -> int:
    """Both wrappers against `LexGraph.search`, every question and mode; the number of hits compared."""
    from lexgraph.integrations.graphrag import LexGraphRetriever
    from lexgraph.integrations.langchain import LexGraphLangChainRetriever

    compared = 0
    for mode in MODES:
        graphrag = LexGraphRetriever(driver, lg, mode=mode)  # type: ignore[arg-type]
        langchain = LexGraphLangChainRetriever(lexgraph=lg, mode=mode, k=10)
        for question in asked:
            expected = lexgraph_top(lg, question, mode)
            items = graphrag.search(query_text=question, top_k=10).items
            documents = langchain.invoke(question)
            assert [item.metadata["uid"] for item in items] == expected, (mode, question[:30])
            assert [document.metadata["uid"] for document in documents] == expected, (mode, question[:30])
            for item, document in zip(items, documents, strict=True):
                assert item.content == document.page_content and item.metadata == document.metadata
                assert not INDEX_DATA & set(item.metadata) and item.metadata["mode"] == mode
                assert item.content.startswith(item.metadata["title"] + "\n")
            compared += len(expected)
    return compared


@pytest.fixture(scope="module")
def search_store(search_store_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LexGraph]:
    store = copy_store(search_store_template, tmp_path_factory.mktemp("integrations") / "store")
    with LexGraph.open(store, read_only=True) as lg:
        yield lg


def test_both_wrappers_rank_as_lexgraph_on_the_embedded_store(search_store: LexGraph) -> None:
    asked = questions(LAWQA_SAMPLE)
    assert check_wrappers(search_store, None, asked) >= 10 * len(MODES) * len(asked) // 2
    found = search_store.search("借地権の存続期間", options=SearchOptions(mode="hybrid", k=3), kind="provision")
    from lexgraph.integrations.langchain import LexGraphLangChainRetriever

    first = LexGraphLangChainRetriever(lexgraph=search_store, mode="hybrid", k=3).invoke("借地権の存続期間")[0]
    assert first.metadata["uid"] == found.clauses[0].uid and "借地借家法 第" in first.page_content
    json.dumps(first.metadata)  # plain values: a chain may serialise them


@pytest.mark.neo4j
@pytest.mark.requires("neo4j", "shared")
def test_both_wrappers_rank_as_lexgraph_on_neo4j_for_every_lawqa_dev_question(
        neo4j_store: GraphStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sample's laws on the real server, indexed from the seeded vectors; all 69 lawqa_jp dev questions."""
    import neo4j

    shutil.copy(SEED_CACHE, tmp_path / SEED_CACHE.name)
    monkeypatch.setenv("LEXGRAPH_CACHE_DIR", str(tmp_path))
    lg = LexGraph(neo4j_store)
    lg.ingest_statutes([SAMPLE], link=False)
    assert lg.index(laws=["民法", "借地借家法"]).embedded_texts == 0
    asked = questions(LAWQA_DEV)
    assert len(asked) == 69
    with neo4j.GraphDatabase.driver(os.environ[NEO4J_URI_ENV]) as driver:
        assert check_wrappers(lg, driver, asked) == 10 * len(MODES) * len(asked)

