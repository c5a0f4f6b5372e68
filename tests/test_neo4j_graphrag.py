"""lexgraph's Neo4j indexes used from outside lexgraph, as docs/neo4j.md shows: neo4j-graphrag's VectorRetriever and
HybridRetriever, on the real test server, fed by `LexGraph.embed_query` (the e5 ``query: `` vector) and
`LexGraph.fulltext_query` (the Sudachi terms the full-text index holds). They must find what lexgraph finds."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from lexgraph.client import LexGraph
from lexgraph.index.neo4j_index import MIN_CANDIDATES
from lexgraph.retrieve.options import SearchOptions
from lexgraph.store.base import GraphStore
from tests.capabilities import NEO4J_URI_ENV
from tests.conftest import NEO4J_MARKS
from tests.helpers import SAMPLE, SEED_CACHE

pytestmark = NEO4J_MARKS

QUESTION = "借地権の存続期間は何年か"
ARTICLE_3 = "403AC0000000090/a3"  # 借地借家法 第三条（借地権の存続期間）


@pytest.fixture
def indexed(neo4j_store: GraphStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> LexGraph:
    """借地借家法 and the sample judgments on Neo4j, indexed from the seeded vectors, as docs/neo4j.md does."""
    shutil.copy(SEED_CACHE, tmp_path / SEED_CACHE.name)
    monkeypatch.setenv("LEXGRAPH_CACHE_DIR", str(tmp_path))
    lg = LexGraph(neo4j_store)
    lg.ingest_statutes([SAMPLE / "403AC0000000090_snapshot20201118.xml"], link=False)
    lg.ingest_precedents([SAMPLE / "precedents"])
    assert lg.index(laws=["借地借家法"]).embedded_texts == 0
    lg.index(kinds=["chunk"])
    return lg


@pytest.fixture
def driver() -> Iterator[object]:
    import neo4j

    with neo4j.GraphDatabase.driver(os.environ[NEO4J_URI_ENV]) as made:
        yield made


def uids(result: object) -> list[str]:
    return [str(item.metadata["uid"]) if item.metadata and "uid" in item.metadata  # type: ignore[attr-defined]
            else _uid_of(item.content) for item in result.items]  # type: ignore[attr-defined]


def _uid_of(content: str) -> str:
    import ast

    return str(ast.literal_eval(content)["uid"])


def test_embed_query_and_fulltext_query_are_what_lexgraph_searches_with(indexed: LexGraph) -> None:
    vector = indexed.embed_query(QUESTION)
    assert len(vector) == 384 and abs(sum(x * x for x in vector) - 1) < 1e-4
    passage = indexed.embedder().embed_passages([QUESTION])[0]
    assert sum(a * b for a, b in zip(vector, passage, strict=True)) < 0.999  # the query prefix, not the passage one
    assert indexed.fulltext_query("第二十七条の借地権") == "tokens:(27 条 借地権)"
    assert indexed.fulltext_query("借地権", "provision") == "+tokens:(借地権) -unit_label:Chunk"
    # Lucene operators in the text stay words (Sudachi normalises them: AND → アンド, OR → or), and syntax is
    # escaped: the text is data.
    assert not {"AND", "OR", "NOT", "&&", "||"} & set(indexed.fulltext_query("a AND b OR c NOT d")[8:-1].split())
    assert indexed.fulltext_query("民法:709条") == "tokens:(民法 709 条)"  # punctuation is no term


def test_neo4j_graphrag_retrievers_find_what_lexgraph_finds(indexed: LexGraph, driver: object) -> None:
    from neo4j_graphrag.retrievers import HybridRetriever, VectorCypherRetriever, VectorRetriever

    dense = indexed.search(QUESTION, options=SearchOptions(mode="dense", k=10), kind="provision")
    expected = [hit.uid for hit in dense.clauses[:10]]
    assert any(uid.startswith(ARTICLE_3) for uid in expected[:3])

    vector = VectorRetriever(driver, "provision_embedding", return_properties=["uid", "name", "text"])
    # Asked for 10 neighbours, the HNSW index searches 10 deep and misses one of the exact top 10 here;
    # 40 × 10 = 400 candidates is what lexgraph asks for (neo4j_index.MIN_CANDIDATES).
    found = vector.search(query_vector=indexed.embed_query(QUESTION), top_k=10,
                          effective_search_ratio=MIN_CANDIDATES // 10)
    assert set(uids(found)) == set(expected) and uids(found)[0] == expected[0]

    hybrid = HybridRetriever(driver, "provision_embedding", "lexgraph_tokens",
                             return_properties=["uid", "name", "text"])
    found = hybrid.search(query_text=indexed.fulltext_query(QUESTION), query_vector=indexed.embed_query(QUESTION),
                          top_k=5, effective_search_ratio=MIN_CANDIDATES // 5)
    assert any(uid.startswith(ARTICLE_3) for uid in uids(found)[:3]), uids(found)
    assert all("借地借家法 第" in item.content for item in found.items if "403AC" in item.content)

    # The clause a person reads, through its search entry's INDEXED_AS (docs/neo4j.md): the same clauses, each
    # with its law's version, and no embedding on it.
    clauses = VectorCypherRetriever(driver, "provision_embedding", retrieval_query=(
        "MATCH (p:Provision)-[:INDEXED_AS]->(node) MATCH (v:LawVersion)-[:CONTAINS]->(p) "
        "RETURN p.name AS name, v.name AS version, p.embedding IS NULL AS plain, score, {uid: p.uid} AS metadata"))
    found = clauses.search(query_vector=indexed.embed_query(QUESTION), top_k=10,
                           effective_search_ratio=MIN_CANDIDATES // 10)
    assert set(uids(found)) == set(expected), uids(found)
    assert all("plain=True" in item.content and "version='借地借家法" in item.content for item in found.items)


def test_the_docs_clause_retriever_returns_each_clause_once(neo4j_store: GraphStore, driver: object, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/neo4j.md's VectorCypherRetriever, run as written on 民法 in its two versions: a wording both versions
    hold is one row, with both versions listed, not one row per version."""
    import re

    from neo4j_graphrag.retrievers import VectorCypherRetriever

    shutil.copy(SEED_CACHE, tmp_path / SEED_CACHE.name)
    monkeypatch.setenv("LEXGRAPH_CACHE_DIR", str(tmp_path))
    lg = LexGraph(neo4j_store)
    lg.ingest_statutes([SAMPLE])
    assert lg.index(laws=["民法"]).embedded_texts == 0
    docs = (Path(__file__).resolve().parent.parent / "docs" / "neo4j.md").read_text(encoding="utf-8")
    written = re.search(r'retrieval_query=\n((?:\s+"[^"]*"\s*)+)\)', docs)
    assert written, "docs/neo4j.md's VectorCypherRetriever example"
    query = "".join(re.findall(r'"([^"]*)"', written[1]))
    clauses = VectorCypherRetriever(driver, "provision_embedding", retrieval_query=query)
    found = clauses.search(query_vector=lg.embed_query("不法行為による損害賠償"), top_k=10,
                           effective_search_ratio=MIN_CANDIDATES // 10)
    wordings = [re.search(r"uid='([^']+)'", item.content)[1] for item in found.items]  # type: ignore[index]
    assert len(wordings) == 10 and len(set(wordings)) == 10, wordings
    shared = [item.content for item in found.items if item.content.count("民法（") >= 2]
    assert shared, wordings  # a wording in force in both stored versions lists both
