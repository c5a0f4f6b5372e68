"""Shared fixtures.

``store`` / ``empty_store`` run a test once per backend: the embedded one always, Neo4j only when
``LEXGRAPH_TEST_NEO4J_URI`` names a server (no Neo4j can run on the build machines; see docs/neo4j.md).
The Neo4j database is WIPED before every test, so point the variable at a dedicated test server or
database (``NEO4J_DATABASE`` picks the database; credentials come from the URI or from
``NEO4J_USERNAME`` / ``NEO4J_PASSWORD``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from lexgraph.store.base import GraphStore

NEO4J_URI_ENV = "LEXGRAPH_TEST_NEO4J_URI"
NEO4J_SKIP_REASON = "set LEXGRAPH_TEST_NEO4J_URI to run the Neo4j contract tests"
# A test database holds a few dozen nodes. Far more means the URI points at real data: refuse to wipe it.
_WIPE_LIMIT = 10_000

BACKENDS = [
    pytest.param("embedded", id="embedded"),
    pytest.param(
        "neo4j", id="neo4j",
        marks=[
            pytest.mark.neo4j,
            pytest.mark.skipif(not os.environ.get(NEO4J_URI_ENV), reason=NEO4J_SKIP_REASON),
        ],
    ),
]


def _open_embedded(tmp_path: Path) -> GraphStore:
    from lexgraph.store.embedded import EmbeddedStore

    return EmbeddedStore(tmp_path / "store")


def _open_neo4j_wiped() -> GraphStore:
    """The opted-in test database, emptied, migration history included, so each test starts as on a fresh
    store. Constraints and indexes stay: migrations create them ``IF NOT EXISTS``."""
    from lexgraph.store.neo4j import Neo4jStore

    store = Neo4jStore(os.environ[NEO4J_URI_ENV])
    try:
        total = store.run_read_only("MATCH (n) RETURN count(n) AS n")[0]["n"]
        if total > _WIPE_LIMIT:
            pytest.fail(f"{NEO4J_URI_ENV} points at a database holding {total} nodes; the contract tests "
                        f"wipe it before each test, so they need an empty, dedicated test database")
        store._run_autocommit("MATCH (n) DETACH DELETE n", None, "wiping the test database")
    except BaseException:
        store.close()
        raise
    return store


@pytest.fixture(params=BACKENDS)
def empty_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GraphStore]:
    """A store on which no migration has run yet, on each backend."""
    store = _open_embedded(tmp_path) if request.param == "embedded" else _open_neo4j_wiped()
    try:
        yield store
    finally:
        store.close()


@pytest.fixture
def store(empty_store: GraphStore) -> GraphStore:
    """A migrated, empty store, on each backend."""
    empty_store.migrate()
    return empty_store


@pytest.fixture(scope="module")
def sample_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled sample corpus (民法 in two revisions, 借地借家法, 個人情報保護法) ingested through the real CLI."""
    from tests.helpers import SAMPLE, lexgraph

    store = tmp_path_factory.mktemp("sample") / "store"
    run = lexgraph("ingest", "statutes", SAMPLE, "--json", store=store)
    assert run.code == 0, run.stderr
    summary = run.json()
    assert summary["failures"] == [] and summary["versions_added"] == 4
    return store
