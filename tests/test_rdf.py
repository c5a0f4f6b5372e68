"""The citation graph as RDF (lexgraph.graph.rdf, `lexgraph export rdf`), read back by rdflib.

The store is the run's sample (民法, 借地借家法, 個人情報保護法) with the test judgments and literature ingested
through the real CLI; every Turtle document produced is parsed by rdflib, a reader that is not ours.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote

import pytest
import rdflib
from hypothesis import given, settings
from hypothesis import strategies as st

from lexgraph.graph.rdf import PREFIXES, Triple, literal, local_name, turtle
from tests.helpers import ROOT, lexgraph

PRECEDENTS = ROOT / "tests" / "data" / "precedents"
METADATA = PRECEDENTS / "sample_supreme_court_metadata.jsonl"
LITERATURE = ROOT / "tests" / "data" / "literature" / "tax_demo"
LG = rdflib.Namespace(PREFIXES["lg"])


@pytest.fixture(scope="module")
def store(sample_store: Path) -> Path:
    for args in (("precedents", PRECEDENTS, METADATA), ("literature", LITERATURE)):
        run = lexgraph("ingest", *args, store=sample_store)
        assert run.code == 0, run.stderr
    return sample_store


@given(st.text(min_size=1, max_size=40))
@settings(max_examples=200, deadline=None)
def test_any_text_makes_a_name_turtle_reads_back(text: str) -> None:
    graph = rdflib.Graph().parse(data=turtle([Triple(f"doc:{local_name(text)}", "rdfs:label", literal(text))]),
                                 format="turtle")
    (subject, label), = graph.subject_objects(rdflib.RDFS.label)
    assert unquote(str(subject).removeprefix(PREFIXES["doc"])) == text
    assert str(label) == text
    assert "</" not in turtle([Triple("doc:x", "rdfs:label", literal(text))]).replace(PREFIXES["rdfs"], "")


def test_export_rdf_is_the_neighbourhood(store: Path) -> None:
    hood = lexgraph("graph", "neighbourhood", "民法 第七百九条", "--depth", "2", "--json", store=store)
    run = lexgraph("export", "rdf", "民法 第七百九条", "--depth", "2", store=store)
    assert hood.code == 0 and run.code == 0, run.stderr
    graph = rdflib.Graph().parse(data=run.stdout, format="turtle")
    nodes = hood.json()["nodes"]
    labels = {str(label) for label in graph.objects(None, rdflib.RDFS.label)}
    assert labels == {n["caption"] for n in nodes}
    iri = {n["uid"]: next(s for s, o in graph.subject_objects(rdflib.RDFS.label) if str(o) == n["caption"])
           for n in nodes}
    for n in nodes:
        if n["kind"] == "law":
            law_id, path = n["properties"]["law_id"], n["properties"]["path"]
            assert (iri[n["uid"]], LG.law, rdflib.URIRef(PREFIXES["law"] + law_id)) in graph
            assert (iri[n["uid"]], LG.wordingOf,
                    rdflib.URIRef(PREFIXES["clause"] + ".".join([law_id, *path.split("/")]))) in graph
        elif n["uid"].startswith("hanrei:"):
            assert str(iri[n["uid"]]) == PREFIXES["hanrei"] + n["uid"].removeprefix("hanrei:")
    edges = {(str(iri[e["source"]]), str(iri[e["target"]])) for e in hood.json()["edges"]}
    triples = {(str(s), str(o)) for p in (LG.cites, LG.refersTo) for s, o in graph.subject_objects(p)}
    assert triples == edges and edges


def test_export_rdf_to_a_file_and_its_errors(store: Path, tmp_path: Path) -> None:
    target = tmp_path / "709.ttl"
    run = lexgraph("export", "rdf", "民法 第七百九条", "--out", target, store=store)
    assert run.code == 0 and run.stdout == "" and "Turtle" in run.stderr
    assert len(rdflib.Graph().parse(target, format="turtle")) > 0
    missing = lexgraph("export", "rdf", "民法 第九千条", store=store)
    assert missing.code == 1 and "Traceback" not in missing.stderr
    assert lexgraph("export", "rdf", "民法 第七百九条", "--depth", "-1", store=store).code == 2


def test_export_rdf_of_a_whole_law_has_every_wording_and_its_citations(store: Path, tmp_path: Path) -> None:
    target = tmp_path / "minpo.ttl"
    run = lexgraph("export", "rdf", "--law", "民法", "--out", target, store=store)
    assert run.code == 0, run.stderr
    assert "wrote" in run.stderr and "1 laws" in run.stderr
    graph = rdflib.Graph().parse(target, format="turtle")
    minpo = rdflib.URIRef(PREFIXES["law"] + "129AC0000000089")
    assert (minpo, rdflib.RDF.type, LG.Law) in graph and (minpo, rdflib.RDFS.label, rdflib.Literal("民法")) in graph
    stored = lexgraph("query", "MATCH (v:LawVersion {law_id: '129AC0000000089'})-[:CONTAINS]->(p:Provision) "
                      "RETURN count(DISTINCT p) AS n", "--json", store=store).json()[0]["n"]
    assert len(set(graph.subjects(LG.law, minpo))) == stored
    a709 = rdflib.URIRef(PREFIXES["clause"] + "129AC0000000089.a709")
    a710p1 = rdflib.URIRef(PREFIXES["clause"] + "129AC0000000089.a710.p1")
    cited = {w for w in graph.subjects(LG.wordingOf, a709)}
    citing = {w for w in graph.subjects(LG.wordingOf, a710p1)}
    assert any((c, LG.cites, w) in graph for c in citing for w in cited)  # 第七百十条's 「前条」


def test_export_rdf_of_every_law_is_streamed_law_by_law(store: Path) -> None:
    run = lexgraph("export", "rdf", "--all", store=store)
    assert run.code == 0, run.stderr
    graph = rdflib.Graph().parse(data=run.stdout, format="turtle")
    laws = lexgraph("query", "MATCH (l:Law) RETURN l.law_id AS id", "--json", store=store).json()
    assert {str(s) for s in graph.subjects(rdflib.RDF.type, LG.Law)} == {PREFIXES["law"] + r["id"] for r in laws}
    assert run.stdout.count("@prefix lg:") == 1  # one head, then one block per law
    cross = lexgraph("query", "MATCH (:Provision)-[r:CITES]->(:Provision) RETURN count(r) AS n", "--json",
                     store=store).json()[0]["n"]
    assert 0 < len(list(graph.subject_objects(LG.cites))) <= cross


def test_export_rdf_takes_one_of_a_node_a_law_or_all(store: Path) -> None:
    for args in ((), ("民法 第七百九条", "--all"), ("--law", "民法", "--all")):
        run = lexgraph("export", "rdf", *args, store=store)
        assert run.code == 2 and "give one of NODE, --law LAW or --all" in run.stderr, args
    assert lexgraph("export", "rdf", "--law", "no such law", store=store).code == 1
