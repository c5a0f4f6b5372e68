"""A migration's checksum covers its statements, not its comments or layout, and stores migrated while it covered
the whole text keep opening without complaint.

The checksum a store records when it applies a migration lets `doctor` find a migration edited afterwards. It once
hashed the whole file, so a comment could never be corrected. It now hashes the statements with comment lines
dropped and whitespace runs made one; a store holding the older whole-text checksums (the history a store made by
commit 226414e recorded, tests/data/migrations/) is accepted while the statements are those of that text.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lexgraph.store.base import GraphStore, Migration, load_migrations
from lexgraph.store.doctor import examine

HISTORY = json.loads((Path(__file__).parent / "data" / "migrations" / "main_history.json").read_text("utf-8"))
DIALECTS = ("embedded", "neo4j")


def _record(store: GraphStore, rows: list[dict]) -> None:
    """Write `rows`' checksums into the store's own migration history, as the older code recorded them."""
    cypher = "MATCH (m:_Migration) WHERE m.version = $version SET m.checksum = $checksum"
    for row in rows:
        params = {"version": row["version"], "checksum": row["checksum"]}
        if store.backend == "embedded":
            store._execute(cypher, params)  # type: ignore[attr-defined]
        else:
            store._run_autocommit(cypher, params, "writing an older history")  # type: ignore[attr-defined]


def _checksums_finding(store: GraphStore) -> bool:
    return next(f for f in examine(store).findings if f.check == "migration checksums").ok


def test_a_store_migrated_with_whole_text_checksums_opens_without_complaint(store: GraphStore) -> None:
    rows = HISTORY[store.dialect]
    _record(store, rows)
    recorded = [(m.version, m.name, m.checksum) for m in store.applied_migrations()]
    assert recorded[:len(rows)] == [(r["version"], r["name"], r["checksum"]) for r in rows]
    assert store.changed_migrations() == [] and _checksums_finding(store)
    assert store.pending_migrations() == [] and store.migrate() == []


def test_such_a_store_is_still_told_of_an_edited_statement(store: GraphStore, monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    _record(store, HISTORY[store.dialect])
    files = store.migrations()
    edited = [replace(m, cypher=m.cypher.replace("IF NOT EXISTS", "IF  NOT EXISTS", 1)) if m.version == 1
              else m for m in files]  # whitespace only: the same statements
    monkeypatch.setattr(store, "migrations", lambda: edited)
    assert store.changed_migrations() == []
    edited = [replace(m, cypher=re.sub(r"STRING", "INT64", m.cypher, count=1) if m.dialect == "embedded"
                      else m.cypher.replace("IS UNIQUE", "IS NOT NULL", 1)) if m.version == 1 else m for m in files]
    assert edited[0].checksum != files[0].checksum
    monkeypatch.setattr(store, "migrations", lambda: edited)
    assert [applied.version for applied, _ in store.changed_migrations()] == [1]
    assert not _checksums_finding(store)


@pytest.mark.parametrize("dialect", DIALECTS)
def test_every_older_checksum_is_of_statements_still_in_the_files(dialect: str) -> None:
    """The whole-text checksums are accepted only with the statements of their text: those of today's files."""
    files = {m.version: m for m in load_migrations(dialect)}
    for row in HISTORY[dialect]:
        migration = files[row["version"]]
        assert migration.name == row["name"] and migration.unchanged_since(row["checksum"]), row
        assert not replace(migration, cypher=migration.cypher + "\nRETURN 1;").unchanged_since(row["checksum"])


@pytest.mark.parametrize("dialect", DIALECTS)
def test_no_migration_comment_points_outside_the_code(dialect: str) -> None:
    """Comments may now be corrected, and were: none names an issue tracker's number or a file not in the
    repository; each states its reason itself."""
    for migration in load_migrations(dialect):
        comments = "\n".join(line for line in migration.cypher.splitlines() if line.strip().startswith("//"))
        assert not re.search(r"issue [0-9]|DESIGN\.md", comments, re.IGNORECASE), migration.name


COMMENT = st.text(st.characters(whitelist_categories=("L", "N", "P", "S", "Zs")), max_size=40)  # no line breaks


@given(data=st.data())
def test_comments_and_layout_leave_the_checksum_and_a_statement_changes_it(data: st.DataObject) -> None:
    migration = data.draw(st.sampled_from([*load_migrations("embedded"), *load_migrations("neo4j")]))
    lines = migration.cypher.splitlines()
    out = []
    for line in lines:
        if data.draw(st.booleans()):
            out.append("//" + data.draw(COMMENT))  # a comment line added
        if line.strip().startswith("//"):
            out.append("  // " + data.draw(COMMENT))  # a comment rewritten
            continue
        out.append(data.draw(st.sampled_from(["", " ", "\t"])) + re.sub(r" +", lambda _: data.draw(
            st.sampled_from([" ", "  ", "\t"])), line) + data.draw(st.sampled_from(["", " "])))
    rewritten = Migration(migration.version, migration.name, "\n".join(out), migration.dialect)
    assert rewritten.checksum == migration.checksum
    migration = data.draw(st.sampled_from([m for m in (*load_migrations("embedded"), *load_migrations("neo4j"))
                                           if m.statements]))  # V009 on Neo4j holds only comments
    code = [line for line in migration.cypher.splitlines() if not line.strip().startswith("//")]
    at = data.draw(st.sampled_from([i for i, line in enumerate(code) if line.strip()]))
    token = data.draw(st.sampled_from(code[at].split()))
    code[at] = code[at].replace(token, token + "x", 1)
    changed = Migration(migration.version, migration.name, "\n".join(code), migration.dialect)
    assert changed.checksum != migration.checksum
