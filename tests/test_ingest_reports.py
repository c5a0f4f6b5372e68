"""What an ingest says, and where: results on stdout, notes and failures on stderr; one bad line of a
metadata or registry JSONL costs that line only, reported as FILE:LINE with the fix, while the good records are
stored and the command exits 1. On both backends for the library."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from lexgraph.client import LexGraph
from lexgraph.store.base import GraphStore
from tests.helpers import ROOT, lexgraph

PRECEDENTS = ROOT / "tests" / "data" / "precedents"
METADATA = PRECEDENTS / "sample_supreme_court_metadata.jsonl"
TAX_DEMO = ROOT / "tests" / "data" / "literature" / "tax_demo"
FIX = "correct this line and run the same command again"


def metadata_with_bad_lines(folder: Path) -> Path:
    """The real metadata sample with a broken line 2, and at line 4 a copy of line 3 without its court."""
    good = METADATA.read_text(encoding="utf-8").splitlines()
    missing_court = {k: v for k, v in json.loads(good[1]).items() if k != "court_name"}
    lines = [good[0], '{"lawsuit_id": "1", "date": ', *good[1:2], json.dumps(missing_court, ensure_ascii=False),
             *good[2:]]
    path = folder / "metadata.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_one_bad_metadata_line_costs_that_line_only(tmp_path: Path) -> None:
    path = metadata_with_bad_lines(tmp_path)
    store = tmp_path / "store"
    run = lexgraph("ingest", "precedents", path, store=store)
    assert run.code == 1
    failed = [line for line in run.stderr.splitlines() if line.startswith("failed")]
    assert len(failed) == 2, run.stderr
    assert f"{path}:2: not valid JSON" in failed[0] and FIX in failed[0]
    assert f"{path}:4: field 'court_name' is missing or empty" in failed[1] and FIX in failed[1]
    assert run.stdout.startswith("files ") and "failed" not in run.stdout and "note" not in run.stdout
    stored = lexgraph("query", "MATCH (p:Precedent) WHERE p.stub IS NULL OR NOT p.stub RETURN p.uid AS uid "
                      "ORDER BY uid", "--json", store=store).json()
    expected = sorted(f"hanrei:{json.loads(line)['lawsuit_id']}"
                      for line in METADATA.read_text(encoding="utf-8").splitlines())
    assert [r["uid"] for r in stored] == expected  # every good record, including the one the bad line repeats


def test_the_library_keeps_the_good_records_on_each_backend(store: GraphStore, tmp_path: Path) -> None:
    path = metadata_with_bad_lines(tmp_path)
    summary = LexGraph(store).ingest_precedents([path])
    assert sorted(o.message.split(": ")[0] for o in summary.failures) == [f"{path}:2", f"{path}:4"]
    assert summary.count("added") == len(METADATA.read_text(encoding="utf-8").splitlines())
    again = LexGraph(store).ingest_precedents([path])
    assert again.count("added") == 0 and len(again.failures) == 2  # the same run again changes nothing


def test_one_bad_registry_line_costs_that_document_only(tmp_path: Path) -> None:
    registry = tmp_path / "tax_demo"
    shutil.copytree(TAX_DEMO, registry)
    documents = registry / "registry" / "documents.jsonl"
    lines = documents.read_text(encoding="utf-8").splitlines()
    documents.write_text("\n".join([lines[0], "{broken", *lines[1:]]) + "\n", encoding="utf-8")
    store = tmp_path / "store"
    run = lexgraph("ingest", "literature", registry, "--json", store=store)
    assert run.code == 1
    failures = run.json()["failures"]
    assert len(failures) == 1 and f"{documents}:2: not valid JSON" in failures[0]["message"]
    assert FIX in failures[0]["message"]
    assert run.json()["added"] == len(lines)

    texts = registry / "registry" / "texts.jsonl"
    text_lines = texts.read_text(encoding="utf-8").splitlines()
    texts.write_text("\n".join(["{broken", *text_lines[1:]]) + "\n", encoding="utf-8")
    documents.write_text("\n".join(lines) + "\n", encoding="utf-8")
    fresh = tmp_path / "fresh"
    run = lexgraph("ingest", "literature", registry, "--json", store=fresh)
    assert run.code == 1
    messages = [f["message"] for f in run.json()["failures"]]
    lost = json.loads(text_lines[0])["juri_id"]
    assert f"{texts}:1: not valid JSON" in messages[0] and any(f"no text for {lost}" in m for m in messages)
    rows = lexgraph("query", "MATCH (d:Document) RETURN d.uid AS uid", "--json", store=fresh).json()
    assert len(rows) == len(lines) - 1 and f"doc:{lost}" not in {r["uid"] for r in rows}  # not stored textless


def test_document_notes_and_failures_go_to_stderr(tmp_path: Path) -> None:
    store = tmp_path / "store"
    run = lexgraph("ingest", "precedents", PRECEDENTS / "50078.txt", tmp_path / "missing.txt", store=store)
    assert run.code == 1
    assert run.stdout.splitlines()[0].startswith("files 2") and len(run.stdout.splitlines()) == 1
    assert "failed" in run.stderr and "missing.txt" in run.stderr and "note" in run.stderr
