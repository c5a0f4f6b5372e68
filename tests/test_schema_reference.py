"""The property reference cannot drift: on both backends, a store built from the bundled sample (statutes,
judgments, a search index) is read for its live schema, and every label and property it holds must have a meaning
in lexgraph/store/schema.py and a row in docs/schema.md with its type on that backend; a property added to the
store without its entry is named. `lexgraph query --schema` prints the same reference."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from lexgraph import LexGraph
from lexgraph.store.base import GraphStore
from tests.helpers import ROOT, SAMPLE, SEED_CACHE, lexgraph

DOC = ROOT / "docs" / "schema.md"


@pytest.fixture
def built(store: GraphStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> LexGraph:
    """The sample on the backend of the `store` fixture's parameter: 民法 and the others, the judgments, and the
    search index of 借地借家法 and the chunks (from the seeded vectors)."""
    shutil.copy(SEED_CACHE, tmp_path / SEED_CACHE.name)
    monkeypatch.setenv("LEXGRAPH_CACHE_DIR", str(tmp_path))
    lg = LexGraph(store)
    lg.ingest_statutes([SAMPLE])
    lg.ingest_precedents([SAMPLE / "precedents"])
    lg.index(laws=["借地借家法"])
    lg.index(kinds=["chunk"])
    return lg


def documented(backend: str) -> dict[tuple[str, str], str]:
    """(label or type, property) → the type docs/schema.md gives it on `backend`."""
    text = DOC.read_text(encoding="utf-8")
    found: dict[tuple[str, str], str] = {}
    columns: list[str] = []
    owner = ""
    for line in text.splitlines():
        if heading := re.match(r"### `([^`]+)`", line):
            owner = heading[1]
        elif line.startswith("| property |"):
            columns = [cell.strip() for cell in line.strip("|").split("|")]
        elif (row := re.match(r"\| `([^`]+)` \|", line)) and f"type ({backend})" in columns:
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            found[(owner, row[1])] = cells[columns.index(f"type ({backend})")].strip("`")
    return found


def test_every_label_and_property_a_store_holds_is_in_the_reference(built: LexGraph) -> None:
    reference = built.schema()
    assert reference.missing == []
    names = {(entry.name, prop.name): prop for entry in reference.entries for prop in entry.properties}
    assert {"Law", "LawVersion", "Provision", "Precedent", "Chunk"} <= {entry.name for entry in reference.entries}
    # what the hand-written table had wrong: these exist, with their examples read from the store
    for key in (("LawVersion", "gap_start"), ("LawVersion", "known_up_to"), ("Law", "enact_statement")):
        assert key in names, key
    assert re.fullmatch(r"[0-9]{3}[A-Z]{2}[0-9A-Z]{10}", str(names[("Law", "law_id")].example))
    in_doc = documented(reference.backend)
    undocumented = [f"{owner}.{prop}" for owner, prop in names if (owner, prop) not in in_doc]
    assert undocumented == [], f"docs/schema.md lacks {undocumented}: run scripts/build_schema_reference.py"
    wrong = {key: (in_doc[key], prop.type) for key, prop in names.items() if in_doc[key] != prop.type}
    assert wrong == {}, wrong


def test_a_property_added_without_its_entry_is_named(built: LexGraph) -> None:
    store = built.store
    if store.backend == "embedded":
        store._execute("ALTER TABLE Law ADD novel_key STRING")  # type: ignore[attr-defined]
    else:
        store._run_autocommit("MATCH (l:Law) SET l.novel_key = 'x'", None, "adding a property")  # type: ignore[attr-defined]
    assert built.schema().missing == ["Law.novel_key"]


def test_query_schema_prints_the_reference(sample_store: Path) -> None:
    shown = lexgraph("query", "--schema", "--json", store=sample_store)
    assert shown.code == 0, shown.stderr
    with LexGraph.open(sample_store, read_only=True) as lg:
        assert shown.json() == lg.schema().to_json()
    text = lexgraph("query", "--schema", store=sample_store)
    assert text.code == 0 and "(LawVersion)" in text.stdout and ".known_up_to: DATE" in text.stdout
    assert "CALL show_tables()" in text.stdout  # the dialect's own way, said where db.labels() is missing
    both = lexgraph("query", "MATCH (n) RETURN n LIMIT 1", "--schema", store=sample_store)
    neither = lexgraph("query", store=sample_store)
    assert both.code == neither.code == 2 and "--schema" in neither.stderr
