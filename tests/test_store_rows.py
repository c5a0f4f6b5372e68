"""Every named query's columns are the ones its row type declares (lexgraph/store/rows.py), on both backends.

A caller reads a named query's row by attribute (``row.law_id``), so a RETURN that drops, renames or reorders a
column must fail here, not at a caller's ``TypeError`` on some rare path. Each query runs for real on a store
holding a real small ingest (借地借家法 and the sample's four judgments, indexed from the seeded embedding cache;
行政手続法 and 海事代理士法, whose 附則 names 行政手続法 with its number, for the queries about a law cited as a whole),
on the embedded backend and on Neo4j; the engine's own column names (reported even for a query that finds no
rows) must equal the row type's fields, names and order, and `rows` must build the typed rows.
"""

from __future__ import annotations

import shutil
from datetime import date
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from lexgraph.client import LexGraph
from lexgraph.index.build import refresh_index
from lexgraph.index.embed import EmbeddingCache, get_embedder
from lexgraph.index.neo4j_index import lucene_query
from lexgraph.store.base import GraphStore, load_named_query
from lexgraph.store.rows import QUERIES, WRITES, Query
from tests.helpers import ROOT, SAMPLE, SEED_CACHE

SHAKUCHI = "403AC0000000090"
GYOTE = "405AC0000000088"  # 行政手続法, cited as a whole by 海事代理士法
EGOV = ROOT / "tests" / "data" / "egov"
DAY = date(2021, 1, 1)


def _cypher_files() -> set[str]:
    root = resources.files("lexgraph") / "cypher"
    names = {entry.name for entry in root.iterdir() if entry.name.endswith(".cypher")}
    names |= {entry.name for entry in (root / "neo4j").iterdir() if entry.name.endswith(".cypher")}
    return {name.removesuffix(".cypher") for name in names}


def _shared(name: str) -> bool:
    """Whether the query runs on every backend (a file in cypher/, not only in cypher/neo4j/)."""
    return (resources.files("lexgraph") / "cypher" / f"{name}.cypher").is_file()


def test_every_named_query_is_declared_once() -> None:
    names = [query.name for query in QUERIES]
    assert len(names) == len(set(names))
    assert set(names).isdisjoint(WRITES)
    assert set(names) | set(WRITES) == _cypher_files()
    for name in WRITES:  # a query declared as a write returns nothing to read
        assert " RETURN " not in " ".join(load_named_query(name, "neo4j").split())


@pytest.fixture
def ingested(store: GraphStore, tmp_path: Path) -> GraphStore:
    lg = LexGraph(store)
    lg.ingest_statutes([SAMPLE / f"{SHAKUCHI}_snapshot20201118.xml"])
    lg.ingest_precedents([SAMPLE / "precedents"])
    lg.ingest_statutes([EGOV / "405AC0000000088_20180401_429AC0000000004.xml"])
    lg.ingest_statutes([EGOV / "326AC0000000032_lawhub20201118_revision-unknown.xml"], in_force_on=date(2020, 11, 18))
    (tmp_path / "cache").mkdir()
    shutil.copy(SEED_CACHE, tmp_path / "cache" / SEED_CACHE.name)
    with EmbeddingCache(tmp_path / "cache") as cache:
        refresh_index(store, get_embedder(), cache=cache)
    return store


def _params(store: GraphStore, name: str) -> dict[str, Any]:
    """Real values for every parameter the query's text names: a clause of 借地借家法 (or, for a query about a
    judgment or its chunks, one of the sample's judgments), a day it was in force."""
    provision = store.rows(QUERIES_BY_NAME["law_provision_spans"], law_id=SHAKUCHI)[0]
    precedent = store.run_read_only("MATCH (p:Precedent) RETURN p.uid AS uid, p.case_number AS number, "
                                    "p.case_name AS name ORDER BY p.uid LIMIT 1")[0]
    version = store.rows(QUERIES_BY_NAME["law_versions"], law_id=SHAKUCHI)[0]
    dim = get_embedder().dim
    owner = any(word in name for word in ("precedent", "owner", "chunk"))
    values: dict[str, Any] = {
        "uid": precedent["uid"] if owner else provision.uid, "uids": [provision.uid], "law_id": SHAKUCHI,
        "law_ids": [SHAKUCHI], "laws": [SHAKUCHI], "day": DAY, "as_of": DAY, "any_day": True, "every": True,
        "path": "a3", "paths": ["a3"], "prefix": "a3/", "name": "借地借家法", "names": [f"law:{SHAKUCHI}"],
        "revision_id": version.revision_id, "case_number": precedent["number"], "case_names": [precedent["name"]],
        "provisions": [provision.uid], "precedents": [precedent["uid"]], "marker": "?", "parser": "0",
        "sha256": "0" * 64, "first": 0, "last": 7,
        "k": 5, "fetch": 10, "detail": 3, "text_limit": 55, "vector": [0.1] * dim, "index": "provision_embedding",
        "searches": [{"kind": "provision", "label": "ProvisionSearch", "index": "provision_embedding",
                      "lucene": lucene_query(["借地"], "provision"), "exact": False}],
    }
    if name in ("law_cited_by_clauses", "graph_law_cited_by"):
        values["law_id"] = GYOTE
    cypher = load_named_query(name, store.dialect)
    return {key: value for key, value in values.items() if f"${key}" in cypher}


QUERIES_BY_NAME: dict[str, Query[Any]] = {query.name: query for query in QUERIES}


def _engine_columns(store: GraphStore, name: str, params: dict[str, Any]) -> list[str]:
    """The columns the engine itself reports for the query's result, rows or none."""
    cypher = load_named_query(name, store.dialect)
    if store.backend == "neo4j":
        with store._driver.session(database=store.database) as session:  # type: ignore[attr-defined]
            return list(session.run(cypher, params).keys())
    result = store._conn.execute(cypher, params)  # type: ignore[attr-defined]
    try:
        return list(result.get_column_names())
    finally:
        result.close()


def test_every_named_query_returns_exactly_its_declared_columns(ingested: GraphStore) -> None:
    checked, with_rows = 0, 0
    for query in QUERIES:
        if ingested.backend != "neo4j" and not _shared(query.name):
            continue  # Neo4j's own search index queries
        params = _params(ingested, query.name)
        assert _engine_columns(ingested, query.name, params) == list(query.row._fields), query.name
        raw = ingested.query(query.name, **params)
        typed = ingested.rows(query, **params)
        # as multisets: a query without ORDER BY may come back in another order each read (a parallel scan)
        assert sorted(repr(row._asdict()) for row in typed) == sorted(repr(row) for row in raw), query.name
        checked += 1
        with_rows += bool(typed)
    assert checked == sum(1 for q in QUERIES if ingested.backend == "neo4j" or _shared(q.name))
    assert with_rows >= checked // 2  # most queries found rows on the real ingest: the values were real
