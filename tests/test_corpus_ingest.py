"""The parallel corpus ingest writes exactly what the single-process one does.

A slice of the e-Gov archive is built here as a real ``.tar.xz`` named like the bulk download, from real laws in
tests/data/egov and the bundled sample (sources in their SOURCE.md): several laws, one in two revisions, a snapshot
dated by the archive's name, a second rendering that is a conflict, and citations between them. It is ingested,
linking included, once in this process and once with two worker processes; the two stores are dumped node by node
and edge by edge with every property, keyed by the data model's keys (never internal ids), and must be equal.
"""

from __future__ import annotations

import tarfile
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from lexgraph import LexGraph
from lexgraph.citations import find_statutes
from lexgraph.citations.lawnames import LawNames
from lexgraph.ingest.corpus import FoundWith, mentions_for
from lexgraph.statutes.catalog import Catalog
from lexgraph.store.base import NODE_SPECS
from tests.helpers import SAMPLE

EGOV = Path(__file__).parent / "data" / "egov"
SLICE = [
    EGOV / "405AC0000000088_20180401_429AC0000000004.xml",  # 行政手続法 2018
    SAMPLE / "403AC0000000090_snapshot20201118.xml",  # 借地借家法, a snapshot dated by the archive's name
    EGOV / "331AC0000000120_20150801_000000000000000.xml",  # 下請代金支払遅延等防止法
    EGOV / "405AC0000000088_20240401_504AC0100000052.xml",  # 行政手続法 2024
    SAMPLE / "415AC0000000057_20200126_430AC0000000080.xml",  # 個人情報の保護に関する法律
    EGOV / "405AC0000000088_20180401_429AC0000000004.lawtext-copy.xml",  # the 2018 text again, one item off
]
KEYS = {spec.label: spec.key for spec in NODE_SPECS}


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("slice") / "lawhub-xml_2020-11-18_slice.tar.xz"
    with tarfile.open(path, "w:xz") as tar:
        for file in SLICE:
            tar.add(file, arcname=f"lawhub-xml_2020-11-18_all/{file.name}")
    return path


def _plain(value: Any) -> Any:
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def dump(store: Path) -> dict[str, Any]:
    """Every statute node with its properties and every edge between them with its properties, in a canonical
    order."""
    out: dict[str, Any] = {}
    with LexGraph.open(store, read_only=True) as lg:
        for label in ("Law", "LawVersion", "Provision"):
            rows = lg.store.run_read_only(f"MATCH (n:{label}) RETURN n")
            nodes = [{k: _plain(v) for k, v in row["n"].items() if not k.startswith("_")} for row in rows]
            out[label] = sorted(nodes, key=lambda n: n[KEYS[label]])
        edges = lg.store.run_read_only("MATCH (a)-[r]->(b) RETURN label(a) AS la, a, label(r) AS lr, r, "
                                       "label(b) AS lb, b")
        out["edges"] = sorted(
            (row["la"], row["a"][KEYS[row["la"]]], row["lr"], row["lb"], row["b"][KEYS[row["lb"]]],
             sorted((k, _plain(v)) for k, v in row["r"].items() if not k.startswith("_")))
            for row in edges
        )
    return out


def ingest(archive: Path, store: Path, workers: int) -> dict[str, Any]:
    with LexGraph.open(store) as lg:
        summary = lg.ingest_statutes([archive], workers=workers).to_json()
    summary.pop("seconds")
    return summary


def test_parallel_and_single_process_ingests_give_identical_stores(archive: Path, tmp_path: Path) -> None:
    single = ingest(archive, tmp_path / "single", workers=1)
    parallel = ingest(archive, tmp_path / "parallel", workers=2)
    assert parallel == single
    assert single["laws"] == 4 and single["versions_added"] == 5 and len(single["conflicts"]) == 1
    assert single["links"]["edges"] > 500  # the slice's laws cite their own clauses a lot
    expected = dump(tmp_path / "single")
    assert len(expected["Provision"]) > 1000 and any(edge[2] == "CITES" for edge in expected["edges"])
    assert dump(tmp_path / "parallel") == expected


def test_parallel_reingest_changes_nothing(archive: Path, tmp_path: Path) -> None:
    store = tmp_path / "store"
    ingest(archive, store, workers=2)
    before = dump(store)
    again = ingest(archive, store, workers=2)
    assert again["versions_added"] == 0 and again["unchanged"] == 5 and again["links"] is None
    assert dump(store) == before


def _cites(store: Path) -> list[Any]:
    return [edge for edge in dump(store)["edges"] if edge[2] == "CITES"]


def test_citations_found_while_parsing_link_as_read_from_the_store(archive: Path, tmp_path: Path) -> None:
    """The parse workers find each clause's citations, linking only resolves them: linking every law again from
    the clause texts the store holds (`lexgraph law link`) finds the same edges and changes none."""
    store = tmp_path / "store"
    ingest(archive, store, workers=2)
    before = _cites(store)
    with LexGraph.open(store) as lg:
        again = lg.link()
    assert again.laws == 4 and again.edges_total == len(before) > 500
    assert again.edges_added == 0 and again.edges_removed == 0
    assert _cites(store) == before


TEXTS = [  # (clause text, whether a catalogue lacking the 内閣府令 finds other mentions in it)
    ("金融商品取引法第二条に規定する定義に関する内閣府令第三条第一項に規定する者", True),
    ("金融商品取引法第二条第一項に規定する有価証券", False),
    ("前項の規定にかかわらず、同条第三項各号に掲げる者", False),
]


def test_clauses_naming_a_law_the_catalogue_lacked_are_read_again_at_linking() -> None:
    """Mentions are found with the law names known when parsing starts. A law the catalogue lacks gets its names
    once it is stored (as linking's catalogue has it), and a title may hold a clause reference (金融商品取引法第二条
    に規定する定義に関する内閣府令): exactly the clauses whose text holds such a name are read again."""
    full = Catalog.bundled()
    ordinance = full.lookup("金融商品取引法第二条に規定する定義に関する内閣府令")[0]
    payload = full.to_payload()
    payload["laws"] = [row for row in payload["laws"] if row[0] != ordinance.law_id]
    lacking = Catalog.from_payload(payload)
    parse_names, link_names = LawNames.for_catalog(lacking), LawNames.for_catalog(full)
    clauses = {f"c{i}": (text, find_statutes(text, parse_names)) for i, (text, _) in enumerate(TEXTS)}
    stale = FoundWith(lacking).stale_pattern(full)
    assert stale is not None and FoundWith(full).stale_pattern(full) is None
    read = mentions_for(clauses, link_names, stale)
    for i, (text, differs) in enumerate(TEXTS):
        assert read[f"c{i}"] == find_statutes(text, link_names)
        assert (clauses[f"c{i}"][1] != read[f"c{i}"]) is differs
