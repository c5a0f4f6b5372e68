"""`lexgraph copy --to` through the real CLI: a store with statutes, precedents and their citations copied into
another, completely, and again without change. (The Neo4j target is covered by the contract suite.)"""

from __future__ import annotations

import shutil
from pathlib import Path

from lexgraph.index.anchors import FIELD_FILE
from tests.helpers import ROOT, lexgraph

JUDGMENT = ROOT / "tests" / "data" / "precedents" / "91244.txt"


def test_copy_to_another_store_is_complete_and_idempotent(sample_store: Path, tmp_path: Path) -> None:
    source = tmp_path / "source"
    shutil.copytree(sample_store, source)
    assert lexgraph("ingest", "precedents", JUDGMENT, store=source).code == 0
    target = tmp_path / "target"
    run = lexgraph("copy", "--to", target, "--batch", "500", "--json", store=source)
    assert run.code == 0, run.stderr
    before = lexgraph("stats", "--json", store=source).json()
    assert lexgraph("stats", "--json", store=target).json() == before
    assert run.json()["nodes"] == before["nodes"]
    again = lexgraph("copy", "--to", target, "--json", store=source)
    assert again.code == 0 and lexgraph("stats", "--json", store=target).json() == before
    # the copy answers the same questions
    for store in (source, target):
        cited = lexgraph("law", "cited-by", "民法", "第七百九条", "--kind", "precedent", "--json", store=store).json()
        assert [c["uid"] for c in cited["cited_by"]][:1] == ["hanrei:91244"]
    assert lexgraph("copy", "--to", source, store=source).code == 2  # not onto itself


def test_a_copy_carries_the_anchor_field_s_files(search_store_template: Path, tmp_path: Path) -> None:
    """An embedded store copied into another carries the anchor field's files beside its index, byte for byte
    (into a Neo4j target and back: tests/test_neo4j_anchors.py)."""
    source = tmp_path / "source"
    shutil.copytree(search_store_template, source)
    field = source / "index" / FIELD_FILE
    assert field.is_file()
    target = tmp_path / "target"
    run = lexgraph("copy", "--to", target, "--json", store=source)
    assert run.code == 0, run.stderr
    assert run.json()["anchors"] == {FIELD_FILE: field.stat().st_size}
    assert (target / "index" / FIELD_FILE).read_bytes() == field.read_bytes()
