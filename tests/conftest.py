"""Shared fixtures.

``store`` / ``empty_store`` run a test once per backend: the embedded one always, Neo4j when
``LEXGRAPH_TEST_NEO4J_URI`` names a server (``make neo4j`` starts one; see docs/neo4j.md).
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
from tests.capabilities import NEO4J_URI_ENV, REQUIRE_ENV, require, required, unknown

SKIPPED_LOG_ENV = "LEXGRAPH_SKIPPED_LOG"

# A test database holds a few dozen nodes. Far more means the URI points at real data: refuse to wipe it.
_WIPE_LIMIT = 10_000

NEO4J_MARKS = [pytest.mark.neo4j, pytest.mark.requires("neo4j")]
"""``pytestmark = NEO4J_MARKS`` in a module whose every test needs the Neo4j test server."""
#: The pytest-xdist group of the Neo4j tests, and the suffix it gives their ids (`pytest_collection_modifyitems`).
NEO4J_GROUP = "neo4j"
GROUP_SUFFIX = f"@{NEO4J_GROUP}"

BACKENDS = [
    pytest.param("embedded", id="embedded"),
    pytest.param("neo4j", id="neo4j", marks=NEO4J_MARKS),
]


def pytest_configure(config: pytest.Config) -> None:
    names = unknown(required())
    if names:
        raise pytest.UsageError(f"{REQUIRE_ENV} names unknown needs {sorted(names)}; see tests/capabilities.py")
    # The Neo4j tests share one database: on pytest-xdist's workers only --dist loadgroup keeps them on one worker,
    # and pytest-xdist 3.8 does that by rewriting test ids, which pytest 9.2 no longer allows (pyproject pins <9.2).
    workers = config.getoption("numprocesses", None)  # None on the workers themselves: xdist resets it there
    if workers and os.environ.get(NEO4J_URI_ENV) and (config.getoption("dist", "no") != "loadgroup"
                                                       or pytest.version_tuple[:2] >= (9, 2)):
        raise pytest.UsageError(f"the Neo4j tests would run side by side on pytest-xdist's workers: run them with "
                                f"--dist loadgroup (as `make test` does) on pytest<9.2 (this is {pytest.__version__}),"
                                f" or without -n")


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own, which reads the group into each test's id
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under pytest-xdist (`make test` runs ``-n N --dist loadgroup``), every Neo4j test goes to one worker: they
    share the one test database and wipe it, so two at once would see each other's nodes. The rest spread out."""
    for item in items:
        if item.get_closest_marker("neo4j") is not None:
            item.add_marker(pytest.mark.xdist_group(NEO4J_GROUP))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """With ``LEXGRAPH_SKIPPED_LOG=FILE``, append ``<test id> TAB <reason>`` for every skipped test to FILE: CI
    reruns them with everything installed (.ci/run)."""
    log = os.environ.get(SKIPPED_LOG_ENV)
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return  # under pytest-xdist the controller receives every worker's report and logs it once
    if log and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        test_id = report.nodeid.removesuffix(GROUP_SUFFIX)  # the id pytest takes back (.ci/run reruns it)
        with open(log, "a", encoding="utf-8") as out:
            out.write(f"{test_id}\t{' '.join(reason.split())}\n")


def pytest_runtest_setup(item: pytest.Item) -> None:
    """``@pytest.mark.requires(name, …)``: skip, or fail where ``LEXGRAPH_REQUIRE`` says the run has it.
    ``@pytest.mark.slow`` is the need "slow": skipped by `make test`, run by `make test-all` and CI."""
    if item.get_closest_marker("slow") is not None:
        require("slow")
    for mark in item.iter_markers("requires"):
        for name in mark.args:
            require(name)


def _open_embedded(tmp_path: Path) -> GraphStore:
    from lexgraph.store.embedded import EmbeddedStore

    return EmbeddedStore(tmp_path / "store")


# What lexgraph creates outside its migrations (index/neo4j_index.py): dropped by the wipe, so that a test starts
# without another test's vector indexes (whose dimensions it may not expect).
_NEO4J_TEST_INDEXES = ("provision_embedding", "chunk_embedding")


def wipe_neo4j(store: GraphStore, limit: int | None = _WIPE_LIMIT) -> None:
    """Empty the opted-in test database: every node and relationship (in batches, so a whole sample corpus fits
    the server's transaction memory), migration history included, and the vector indexes. ``limit`` refuses a
    database that holds more than a test leaves behind: the URI may point at real data."""
    total = store.run_read_only("MATCH (n) RETURN count(n) AS n")[0]["n"]
    if limit is not None and total > limit:
        pytest.fail(f"{NEO4J_URI_ENV} points at a database holding {total} nodes; the Neo4j tests "
                    f"wipe it before each test, so they need an empty, dedicated test database")
    store._run_autocommit(  # type: ignore[attr-defined]
        "MATCH (n) CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS", None, "wiping the test database")
    for name in _NEO4J_TEST_INDEXES:
        store._run_autocommit(f"DROP INDEX {name} IF EXISTS", None, "dropping a test vector index")  # type: ignore[attr-defined]


def open_neo4j_wiped() -> GraphStore:
    """The opted-in test database, emptied, so each test starts as on a fresh store. Constraints and the
    migrations' indexes stay: migrations create them ``IF NOT EXISTS``."""
    from lexgraph.store.neo4j import Neo4jStore

    store = Neo4jStore(os.environ[NEO4J_URI_ENV])
    try:
        wipe_neo4j(store)
    except BaseException:
        store.close()
        raise
    return store


@pytest.fixture(params=BACKENDS)
def empty_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GraphStore]:
    """A store on which no migration has run yet, on each backend."""
    store = _open_embedded(tmp_path) if request.param == "embedded" else open_neo4j_wiped()
    try:
        yield store
    finally:
        store.close()


@pytest.fixture
def store(empty_store: GraphStore) -> GraphStore:
    """A migrated, empty store, on each backend."""
    empty_store.migrate()
    return empty_store


@pytest.fixture
def neo4j_store() -> Iterator[GraphStore]:
    """The Neo4j test database, wiped and migrated (the test module carries ``NEO4J_MARKS``). It is wiped after
    the test too: a whole sample corpus holds more nodes than the next test's wipe accepts."""
    store = open_neo4j_wiped()
    try:
        store.migrate()
        yield store
    finally:
        try:
            wipe_neo4j(store, limit=None)
        finally:
            store.close()


@pytest.fixture(scope="session")
def sample_store_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled sample corpus (民法 in two revisions, 借地借家法, 個人情報保護法) ingested through the real CLI,
    once per run. Tests read copies of it (:func:`sample_store`), never this folder."""
    from tests.helpers import SAMPLE, lexgraph

    store = tmp_path_factory.mktemp("sample-template") / "store"
    run = lexgraph("ingest", "statutes", SAMPLE, "--json", store=store)
    assert run.code == 0, run.stderr
    summary = run.json()
    assert summary["failures"] == [] and summary["versions_added"] == 4
    return store


@pytest.fixture(scope="module")
def sample_store(sample_store_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A module's own copy of the ingested sample corpus: a test module may write to it without touching others."""
    from tests.helpers import copy_store

    return copy_store(sample_store_template, tmp_path_factory.mktemp("sample") / "store")


@pytest.fixture(scope="session")
def search_store_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample corpus with its 4 judgments, ingested and indexed (tests.helpers.build_search_store), once per run:
    modules take copies (``copy_store``)."""
    from tests.helpers import build_search_store

    store = tmp_path_factory.mktemp("search-template") / "store"
    build_search_store(store)
    return store
