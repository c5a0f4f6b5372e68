"""A law cited as a whole (named with its number, no clause) is a CITES edge to the law's node, from a statute's
clause and from a judgment's chunk, on both backends: ``law cited-by LAW`` with no clause lists them, in either
order of ingest, and the same ingest twice changes nothing.

Real texts: 海事代理士法's 附則 「この法律は、行政手続法（平成五年法律第八十八号）の施行の日から施行する。」
(tests/data/egov/SOURCE.md), and the Supreme Court judgment 90094.txt (令和3年3月11日, ../shared), which names
「会社法（平成１７年法律第８６号）」 with no clause.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from lexgraph import LexGraph
from lexgraph.store.base import GraphStore
from tests.helpers import ROOT, SHARED, lexgraph

KAIJI = ROOT / "tests" / "data" / "egov" / "326AC0000000032_lawhub20201118_revision-unknown.xml"  # 海事代理士法
KAIJI_ID = "326AC0000000032"
GYOTE = ROOT / "tests" / "data" / "egov" / "405AC0000000088_20180401_429AC0000000004.xml"  # 行政手続法
GYOTE_ID = "405AC0000000088"
KAISHA = SHARED / "egov" / "snapshots" / "417AC0000000086_lawhub20200902_revision-unknown.xml"  # 会社法
KAISHA_ID = "417AC0000000086"
JUDGMENT = SHARED / "precedents" / "supreme_court" / "90094.txt"
DAY = date(2020, 11, 18)
SUPPL = "suppl[平成5年11月12日法律第89号]/a1/p1"

# (citing law id, citing clause path, surface) of every law-level edge into 行政手続法 from 海事代理士法
EXPECTED = [(KAIJI_ID, SUPPL, "行政手続法（平成五年法律第八十八号）")]


def _law_edges(store: GraphStore) -> list[tuple[Any, ...]]:
    rows = store.run_read_only("MATCH (a)-[r:CITES]->(l:Law) RETURN a.uid AS source, l.law_id AS law_id, "
                               "r.surface AS surface, r.mentions AS mentions ORDER BY source, law_id")
    return [(r["source"], r["law_id"], r["surface"], r["mentions"]) for r in rows]


def _cited_by(lg: LexGraph) -> list[tuple[str, str, str]]:
    found = lg.cited_by("行政手続法", None, as_of=DAY)
    assert found.path == "" and found.direction == "cited_by"
    return [(link.other_law_id, link.other.path, link.surface) for link in found.links]


@pytest.mark.parametrize("order", ["cited_first", "citing_first"])
def test_a_law_named_with_its_number_is_an_edge_to_the_law(store: GraphStore, order: str) -> None:
    lg = LexGraph(store)
    files = [GYOTE, KAIJI] if order == "cited_first" else [KAIJI, GYOTE]
    for path in files:  # one file an ingest: the citing law is linked again when the law it cites arrives
        summary = lg.ingest_statutes([path], in_force_on=DAY if path == KAIJI else None)
        assert not summary.failures
    assert _cited_by(lg) == EXPECTED
    edges = _law_edges(store)
    assert edges == [(f"{KAIJI_ID}/{SUPPL}@-", GYOTE_ID, EXPECTED[0][2], 1)]
    # この法律 (the law being read) is no edge from a law to itself
    assert all(not source.startswith(law_id) for source, law_id, _, _ in edges)
    # the same ingest twice changes nothing, and linking again neither
    lg.ingest_statutes([KAIJI], in_force_on=DAY)
    lg.ingest_statutes([GYOTE])
    again = lg.link([KAIJI_ID, GYOTE_ID])
    assert again.edges_added == 0 and again.edges_removed == 0
    assert _law_edges(store) == edges


def test_the_graph_draws_a_law_cited_as_a_whole(store: GraphStore) -> None:
    lg = LexGraph(store)
    lg.ingest_statutes([GYOTE])
    lg.ingest_statutes([KAIJI], in_force_on=DAY)
    article = f"{KAIJI_ID}/suppl[平成5年11月12日法律第89号]/a1@-"
    for start in (GYOTE_ID, article):  # from the law, and from the citing article
        hood = lg.neighbourhood(start, 1, as_of=DAY)
        assert {(n.uid, n.kind) for n in hood.nodes} == {(GYOTE_ID, "whole_law"), (article, "law")}
        assert [(e.source, e.target, e.type, e.count) for e in hood.edges] == [(article, GYOTE_ID, "CITES", 1)]
        assert hood.node(GYOTE_ID).caption == "行政手続法"
    turtle = lg.neighbourhood_turtle(GYOTE_ID, 1, as_of=DAY)
    assert f"law:{GYOTE_ID} a lg:Law" in turtle or f"law:{GYOTE_ID} rdf:type lg:Law" in turtle


def test_law_cited_by_on_the_command_line(tmp_path: Path) -> None:
    store = tmp_path / "store"
    assert lexgraph("ingest", "statutes", GYOTE, store=store).code == 0
    run = lexgraph("ingest", "statutes", KAIJI, "--in-force-on", DAY.isoformat(), "--json", store=store)
    assert run.code == 0, run.stderr
    assert run.json()["links"]["linked_laws"] == 1
    run = lexgraph("law", "cited-by", "行政手続法", "--as-of", DAY.isoformat(), "--json", store=store)
    assert run.code == 0, run.stderr
    data = run.json()
    assert data["path"] is None
    assert [(link["law_id"], link["path"], link["surface"], link["near_path"]) for link in data["links"]] == [
        (KAIJI_ID, SUPPL, "行政手続法（平成五年法律第八十八号）", None)]
    run = lexgraph("law", "cited-by", "行政手続法", "--as-of", DAY.isoformat(), store=store)
    assert "行政手続法 (the law as a whole) is cited by 1 clause(s)" in run.stdout
    assert "海事代理士法" in run.stdout
    assert "この法律は、行政手続法（平成五年法律第八十八号）の施行の日から" in run.stdout
    run = lexgraph("graph", "neighbourhood", "行政手続法", "--as-of", DAY.isoformat(), "--json", store=store)
    assert run.code == 0, run.stderr
    assert run.json()["start"] == GYOTE_ID and {n["kind"] for n in run.json()["nodes"]} == {"whole_law", "law"}
    # a clause named still reads the clause's own citations, as before
    run = lexgraph("law", "cited-by", "行政手続法", "第十三条", "--as-of", DAY.isoformat(), "--json", store=store)
    assert run.code == 0 and run.json()["path"] == "a13"


@pytest.fixture
def big_store(store: GraphStore) -> Iterator[GraphStore]:
    """`store`, emptied after the test on Neo4j: 会社法 holds more nodes than the next test's wipe accepts."""
    yield store
    if store.backend == "neo4j":
        from tests.conftest import wipe_neo4j

        wipe_neo4j(store, limit=None)


@pytest.mark.requires("shared")
def test_a_judgment_naming_a_law_with_its_number_is_an_edge_to_the_law(big_store: GraphStore, tmp_path: Path) -> None:
    store = big_store
    lg = LexGraph(store)
    assert not lg.ingest_statutes([KAISHA], in_force_on=date(2020, 9, 2)).failures
    folder = tmp_path / "judgments"
    folder.mkdir()
    shutil.copy(JUDGMENT, folder / JUDGMENT.name)
    summary = lg.ingest_precedents([folder])
    assert summary.law_edges >= 1 and summary.linked_laws == 1
    documents = lg.documents_citing("会社法", None, kinds=("precedent",))
    assert [(d.uid, d.surface, d.path, d.clause_uid, str(d.day)) for d in documents] == [
        ("hanrei:90094", "会社法（平成１７年法律第８６号）", "", "", "2021-03-11")]
    assert documents[0].to_json()["path"] is None
    edges = _law_edges(store)
    assert {law_id for _, law_id, _, _ in edges} == {KAISHA_ID}
    hood = lg.neighbourhood("hanrei:90094", 1)
    assert (KAISHA_ID, "whole_law", "会社法") in {(n.uid, n.kind, n.caption) for n in hood.nodes}
    assert ("hanrei:90094", KAISHA_ID, "CITES", 1) in {(e.source, e.target, e.type, e.count) for e in hood.edges}
    again = lg.ingest_precedents([folder])  # the same judgment again: unchanged, no edge added or lost
    assert again.count("unchanged") == 1 and _law_edges(store) == edges
