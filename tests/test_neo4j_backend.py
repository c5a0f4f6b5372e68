"""What the Neo4j backend must do beyond the shared contract, each checked against the real server
(``make neo4j``; LEXGRAPH_TEST_NEO4J_URI): refuse servers too old for its queries, keep the vector indexes at the
embedder's dimensions, find owners and overlapping versions by index rather than by scan, and need no plugin."""

from __future__ import annotations

import re
import shutil
from datetime import date
from pathlib import Path
from typing import Any

from lexgraph.client import LexGraph
from lexgraph.index.build import index_status, open_index, refresh_index
from lexgraph.index.embed import EmbeddingCache, get_embedder
from lexgraph.index.health import index_finding
from lexgraph.index.neo4j_index import vector_index_dimensions
from lexgraph.index.query import SearchFilter
from lexgraph.store.base import GraphStore, load_named_query
from lexgraph.store.neo4j import MIN_SERVER_VERSION, Neo4jStore, server_version_problem
from tests.conftest import NEO4J_MARKS
from tests.helpers import ROOT, SAMPLE, SEED_CACHE

pytestmark = NEO4J_MARKS

SHAKUCHI = "403AC0000000090"


def plan_operators(store: GraphStore, query_name: str, **params: Any) -> list[str]:
    """The operators of the server's plan for a named query (EXPLAIN: planned, not run), without the
    ``@neo4j`` runtime suffix."""
    assert isinstance(store, Neo4jStore)
    cypher = load_named_query(query_name, store.backend)
    with store._driver.session(database=store.database) as session:
        plan = session.run("EXPLAIN " + cypher, params).consume().plan
    operators: list[str] = []
    stack = [plan]
    while stack:
        node = stack.pop()
        operators.append(str(node["operatorType"]).split("@")[0])
        stack.extend(node.get("children", []))
    return operators


# -- the server's version -------------------------------------------------------------------------------------
def test_the_local_server_is_new_enough_and_older_ones_are_refused(neo4j_store: GraphStore) -> None:
    assert isinstance(neo4j_store, Neo4jStore)
    agent = neo4j_store._driver.get_server_info().agent
    assert re.fullmatch(r"Neo4j/5\.\d+\.\d+", agent)
    assert server_version_problem(agent, neo4j_store.location) is None  # the store opened: the real check passed
    assert MIN_SERVER_VERSION == (5, 18)
    for old in ("Neo4j/5.17.0", "Neo4j/5.15.0", "Neo4j/4.4.30"):
        problem = server_version_problem(old, "bolt://db:7687")
        assert problem is not None and "needs Neo4j 5.18 or later" in problem and old in problem
        assert "make neo4j" in problem
    assert server_version_problem("Neo4j/5.18.0", "bolt://db:7687") is None
    assert server_version_problem("Neo4j/2025.01.0", "bolt://db:7687") is None


# -- the vector indexes follow the embedder's dimensions ------------------------------------------------------
def _index_shakuchi(store: GraphStore, folder: Path) -> None:
    LexGraph(store).ingest_statutes([SAMPLE / f"{SHAKUCHI}_snapshot20201118.xml"], link=False)
    (folder / "cache").mkdir()
    shutil.copy(SEED_CACHE, folder / "cache" / SEED_CACHE.name)
    with EmbeddingCache(folder / "cache") as cache:
        summary = refresh_index(store, get_embedder(), cache=cache)
    assert summary.built == [f"law:{SHAKUCHI}"] and summary.embedded_texts == 0


def test_a_vector_index_of_other_dimensions_is_reported_and_rebuilt(neo4j_store: GraphStore, tmp_path: Path) -> None:
    """What an index built by a former embedder leaves behind: an index of 128 dimensions beside 384-dimensional
    vectors, which Neo4j silently leaves out of it. `doctor` says so; `lexgraph index` makes it again."""
    _index_shakuchi(neo4j_store, tmp_path)
    embedder = get_embedder()
    assert vector_index_dimensions(neo4j_store) == {"provision_embedding": embedder.dim,
                                                    "chunk_embedding": embedder.dim}
    assert index_status(neo4j_store).ok

    neo4j_store.run_schema_statement("DROP INDEX provision_embedding")  # type: ignore[attr-defined]
    neo4j_store.run_schema_statement(  # type: ignore[attr-defined]
        "CREATE VECTOR INDEX provision_embedding FOR (n:ProvisionSearch) ON n.embedding "
        "OPTIONS {indexConfig: {`vector.dimensions`: 128, `vector.similarity_function`: 'cosine'}}")
    vector = embedder.embed_queries(["借地権の存続期間は何年か"])[0]
    unindexed = neo4j_store.query("index_vector_search", index="provision_embedding", fetch=5, k=5,
                                  vector=[float(x) for x in vector[:128]], laws=[], as_of=None)
    assert unindexed == []  # the 384-dimensional vectors are not in a 128-dimensional index

    finding = index_finding(neo4j_store)
    assert not finding.ok and "provision_embedding has 128" in finding.detail
    assert f"{embedder.dim}-dimensional" in finding.detail and "lexgraph index --rebuild" in finding.fix
    assert LexGraph(neo4j_store).doctor().ok is False

    with EmbeddingCache(tmp_path / "cache") as cache:
        summary = refresh_index(neo4j_store, embedder, cache=cache)  # no --rebuild: the problem asks for it
    assert summary.built == [f"law:{SHAKUCHI}"] and summary.embedded_texts == 0
    assert vector_index_dimensions(neo4j_store)["provision_embedding"] == embedder.dim
    assert index_finding(neo4j_store).ok
    rows = neo4j_store.query("index_vector_search", index="provision_embedding", fetch=5, k=5,
                             vector=[float(x) for x in vector], laws=[], as_of=None)
    assert len(rows) == 5  # answered by the index again
    hits = open_index(neo4j_store).vector_search(vector, 3, SearchFilter(laws=(SHAKUCHI,), kind="provision"))
    assert hits[0].unit.path == "a3/p1"


# -- owners and versions are found through indexes ------------------------------------------------------------
def test_owner_rollups_seek_the_owner_by_label_and_key(neo4j_store: GraphStore) -> None:
    with neo4j_store.transaction() as tx:
        tx.upsert_nodes("Provision", [{"uid": "p1", "law_id": "L", "path": "a1"},
                                      {"uid": "p2", "law_id": "L", "path": "a2"}])
        tx.upsert_nodes("Precedent", [{"uid": "hanrei:1"}])
        tx.upsert_nodes("Document", [{"uid": "doc:1"}])
        tx.upsert_relationships("CITES_ARTICLE", [{"from": "hanrei:1", "to": "p1", "count": 2}],
                                from_label="Precedent")
        tx.upsert_relationships("REFERS_TO", [{"from": "hanrei:1", "to": "p2"}])
        tx.upsert_relationships("CITES_ARTICLE", [{"from": "doc:1", "to": "p2", "count": 1}], from_label="Document")
    rows = neo4j_store.query("owner_rollups", uid="hanrei:1")
    assert sorted((r["owner_label"], r["rel_type"], r["to_uid"]) for r in rows) == [
        ("Precedent", "CITES_ARTICLE", "p1"), ("Precedent", "REFERS_TO", "p2")]
    assert neo4j_store.query("owner_rollups", uid="doc:1") == [
        {"owner_label": "Document", "rel_type": "CITES_ARTICLE", "to_uid": "p2"}]
    assert neo4j_store.query("owner_rollups", uid="p1") == []  # a clause is no owner, whatever its uid
    operators = plan_operators(neo4j_store, "owner_rollups", uid="hanrei:1")
    assert "AllNodesScan" not in operators and "NodeByLabelScan" not in operators
    assert operators.count("NodeUniqueIndexSeek") == 2


def test_overlapping_versions_are_paired_within_a_law_by_index(neo4j_store: GraphStore) -> None:
    def version(revision_id: str, law_id: str, start: date, end: date | None) -> dict[str, Any]:
        return {"revision_id": revision_id, "law_id": law_id, "enforced_from": start, "enforced_until": end}

    with neo4j_store.transaction() as tx:
        tx.upsert_nodes("LawVersion", [
            version("A_1", "A", date(2020, 4, 1), date(2023, 6, 14)),
            version("A_2", "A", date(2023, 6, 14), None),                # follows A_1: no overlap
            version("B_1", "B", date(2020, 4, 1), date(2022, 1, 1)),
            version("B_2", "B", date(2021, 1, 1), None),                 # overlaps B_1
            version("C_1", "C", date(2021, 6, 1), None),                 # same days as B_2, another law
        ])
    rows = neo4j_store.query("doctor_overlapping_versions")
    assert rows == [{"first": "B_1", "second": "B_2"}]
    operators = plan_operators(neo4j_store, "doctor_overlapping_versions")
    assert "CartesianProduct" not in operators and "NodeIndexSeek" in operators, operators
    assert "NodeUniqueIndexSeekByRange" not in operators, operators
    finding = {f.check: f for f in LexGraph(neo4j_store).doctor().findings}["version periods"]
    assert not finding.ok and finding.detail == "B_1 overlaps B_2"


# -- no plugin ------------------------------------------------------------------------------------------------
def test_nothing_needs_apoc(neo4j_store: GraphStore) -> None:
    """The local server has no plugin, and every named query, migration and the compose file do without APOC."""
    assert isinstance(neo4j_store, Neo4jStore)
    with neo4j_store._driver.session(database=neo4j_store.database) as session:
        names = [r["name"] for r in session.run("SHOW PROCEDURES YIELD name RETURN name")]
    assert "db.index.vector.queryNodes" in names and not [n for n in names if n.startswith("apoc.")]
    cypher = [*(ROOT / "lexgraph" / "cypher").rglob("*.cypher"), *(ROOT / "lexgraph" / "migrations").rglob("*.cypher")]
    assert len(cypher) > 50
    assert [p.name for p in cypher if "apoc." in p.read_text(encoding="utf-8").lower()] == []
    compose = (ROOT / "docker" / "docker-compose.yml").read_text(encoding="utf-8")
    assert "NEO4J_PLUGINS" not in compose and "apoc" not in compose.lower()
