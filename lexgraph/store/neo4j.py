"""The Neo4j 5 backend: the production store, reached over Bolt with the official ``neo4j`` driver.

It means the same as the embedded backend (one contract suite, tests/test_store_contract.py, runs against
both) and differs only in how it writes fast and how it keeps user queries read-only:

- Bulk writes are ``UNWIND $rows … MERGE`` on the label's key, in batches of 10,000 rows.
  The keys carry uniqueness constraints (migrations/neo4j/V001), so each MERGE is an index seek and cannot
  create duplicates. Labels, relationship types and key names are spliced into the Cypher text, so they come
  only from ``NODE_SPECS`` / ``REL_SPECS`` (``rel_spec``); every value travels as a parameter.
- ``SET n += row`` with a ``None`` value removes the property, which then reads back as ``null``: the same
  as a NULL column in the embedded backend.
- User Cypher (`Neo4jStore.run_read_only`) runs in a READ access-mode transaction, so the server refuses
  any write. A query that the server classifies as anything but read-only (``summary.query_type``) is
  refused too, because a write clause that happens to touch nothing (``MERGE`` on an existing node, ``SET``
  on no match) does not trip the access-mode check, and the answer must not depend on the data.
- All sessions share one bookmark manager: in a cluster, a read sees every write this store committed
  before it (causal consistency), as it trivially does in the embedded backend.

`lexgraph.store.open_store` imports this module lazily and turns a missing ``neo4j`` package into
`StoreUnavailable`, so the driver is imported at module level here.
"""

from __future__ import annotations

import logging
import os
import re
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from itertools import islice
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

import neo4j
from neo4j import READ_ACCESS, WRITE_ACCESS, GraphDatabase, ManagedTransaction
from neo4j.exceptions import (
    AuthError,
    ConfigurationError,
    ConstraintError,
    DriverError,
    Forbidden,
    IncompleteCommit,
    Neo4jError,
    ServiceUnavailable,
    SessionExpired,
)
from neo4j.graph import Node, Path, Relationship
from neo4j.time import Date as Neo4jDate
from neo4j.time import DateTime as Neo4jDateTime
from neo4j.time import Time as Neo4jTime

from lexgraph.errors import InputError, InvalidQuery, QueryRefused, StoreError, StoreUnavailable
from lexgraph.store.base import (
    NODE_SPECS,
    REL_TYPES,
    AppliedMigration,
    GraphStore,
    Migration,
    NodeSpec,
    Row,
    StoreCounts,
    Transaction,
    chunked,
    load_named_query,
    rel_spec,
)
from lexgraph.store.readonly import NEO4J as NEO4J_DIALECT
from lexgraph.store.readonly import check_read_statement
from lexgraph.version import __version__

_log = logging.getLogger(__name__)
# Nothing below the CLI prints. Without a handler, Python's last-resort handler would write our
# warnings, and the driver's server notifications ("neo4j.notifications": unknown label, cartesian product …),
# to stderr. A NullHandler keeps them quiet unless the application configures logging.
_log.addHandler(logging.NullHandler())
logging.getLogger("neo4j.notifications").addHandler(logging.NullHandler())

BATCH_SIZE = 10_000
"""Rows per ``UNWIND`` statement: enough to amortise round trips, few enough to keep the server's
transaction state small."""

DEFAULT_DATABASE = "neo4j"
START_HINT = "docker compose -f docker/docker-compose.yml up -d"

_NODES: dict[str, NodeSpec] = {spec.label: spec for spec in NODE_SPECS}
_MIGRATION_LABEL = "_Migration"
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_AWAIT_INDEXES_SECONDS = 300
#: A named read is tried this many times when the error is retryable, waiting 0.2 s, then 0.4 s, between tries.
_READ_ATTEMPTS = 3
_READ_RETRY_SECONDS = 0.2
_ALREADY_EXISTS = "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists"
_DATABASE_NOT_FOUND = "Neo.ClientError.Database.DatabaseNotFound"

# Server answers meaning "this transaction may not write". A READ transaction gets the access-mode one; the
# others come from a read-only database or from a cluster member that cannot take writes.
_WRITE_REFUSALS = frozenset({
    "Neo.ClientError.Statement.AccessMode",
    "Neo.ClientError.General.ForbiddenOnReadOnlyDatabase",
    "Neo.ClientError.General.ReadOnly",
    "Neo.ClientError.Cluster.NotALeader",
})
_READ_ONLY_MESSAGE = (
    "this query writes to the store; `lexgraph query` runs read-only. Use the ingest commands to change data."
)


MIN_SERVER_VERSION = (5, 18)
"""The oldest Neo4j lexgraph runs on: the search queries call ``vector.similarity.cosine`` (5.18), the vector
indexes are made with ``CREATE VECTOR INDEX`` (5.15), the migrations use Neo4j 5 schema syntax."""


def server_version_problem(agent: str, location: str) -> str | None:
    """Why the server that announced itself as ``agent`` (``Neo4j/5.26.30``) is too old, or None when it is not.

    An agent that does not parse (a proxy, a compatible server) is let through: the queries then fail or not
    on their own merits."""
    match = re.match(r"Neo4j/(\d+)\.(\d+)", agent)
    if match is None:
        return None
    found = (int(match.group(1)), int(match.group(2)))
    if found >= MIN_SERVER_VERSION:
        return None
    need = ".".join(map(str, MIN_SERVER_VERSION))
    return (f"{location} runs {agent}; lexgraph needs Neo4j {need} or later (vector.similarity.cosine, vector "
            f"indexes): upgrade the server, or start 5.26 LTS with `make neo4j` or `{START_HINT}`")


def split_credentials(uri: str) -> tuple[str, str | None, str | None]:
    """``bolt://user:secret@host:7687`` → (``bolt://host:7687``, ``user``, ``secret``).

    The driver takes credentials only through ``auth=``, and the URI ends up in messages and in
    `GraphStore.location`, so the user info is cut out here. Percent-escapes are decoded: a password holding
    ``/ ? # %`` must be percent-encoded in the URI, or given through ``NEO4J_PASSWORD`` instead.
    """
    parts = urlsplit(uri)
    if "@" not in parts.netloc:
        return uri, None, None
    userinfo, _, hostport = parts.netloc.rpartition("@")
    user, has_password, password = userinfo.partition(":")
    clean = urlunsplit(parts._replace(netloc=hostport))
    return clean, unquote(user) or None, unquote(password) if has_password else None


class Neo4jStore(GraphStore):
    """A Neo4j 5 database at a ``bolt://`` or ``neo4j://`` URI (``+s`` / ``+ssc`` for TLS).

    Credentials: the ``user`` / ``password`` arguments, else the user info of the URI, else
    ``NEO4J_USERNAME`` (or ``NEO4J_USER``) and ``NEO4J_PASSWORD``; the user defaults to ``neo4j``. Database:
    ``database``, else ``NEO4J_DATABASE``, else ``neo4j``.

    ``read_only=True`` (what ``open_store(…, read_only=True)`` passes) refuses migrations and write
    transactions in the client; for a guarantee in the server too, connect as a user with the ``reader`` role.
    """

    backend = "neo4j"
    dialect = "neo4j"
    index_kind = "neo4j"

    def __init__(self, uri: str, *, user: str | None = None, password: str | None = None,
                 database: str | None = None, read_only: bool = False) -> None:
        clean_uri, uri_user, uri_password = split_credentials(uri)
        self.location = clean_uri  # never the password: it is shown by `lexgraph doctor` and in errors
        self.database = database or os.environ.get("NEO4J_DATABASE") or DEFAULT_DATABASE
        self.read_only = read_only
        self.user = (
            (user if user is not None else uri_user)
            or os.environ.get("NEO4J_USERNAME") or os.environ.get("NEO4J_USER") or "neo4j"
        )
        secret = password if password is not None else uri_password
        if secret is None:
            secret = os.environ.get("NEO4J_PASSWORD") or None
        self._has_password = secret is not None
        self._local = threading.local()  # the open write transaction of each thread, if any
        self._closed = False
        try:
            self._driver = GraphDatabase.driver(
                clean_uri,
                auth=neo4j.basic_auth(self.user, secret) if secret is not None else None,
                user_agent=f"lexgraph/{__version__}",
                # Notices that are no problem of the user's, which an application that logs warnings (the MCP
                # server) would write to stderr, one a query: a property key or label the data does not hold yet
                # (`repealed_on` on a law never repealed, an empty store's labels), which lexgraph's queries read as
                # null on purpose; and the `CALL { WITH … }` subqueries, deprecated from Neo4j 5.23 but kept so
                # that the servers lexgraph supports from MIN_SERVER_VERSION (5.18) run them.
                notifications_disabled_classifications=[neo4j.NotificationDisabledClassification.UNRECOGNIZED,
                                                        neo4j.NotificationDisabledClassification.DEPRECATION],
            )
        except (ConfigurationError, ValueError) as err:
            raise StoreUnavailable(
                f"cannot use {clean_uri!r} as a Neo4j address ({err}); expected bolt://host:7687 or "
                f"neo4j://host:7687 (bolt+s:// or neo4j+s:// for TLS)"
            ) from None
        self._bookmarks = GraphDatabase.bookmark_manager()
        try:
            with self._driver_errors("connecting"):
                self._driver.verify_connectivity()
                self._check_server_version()
                self._ping()
            if not read_only:
                self._ensure_history_constraint(strict=False)
        except BaseException:
            self.close()  # the driver must be closed even when it never connected
            raise

    def __repr__(self) -> str:
        return f"Neo4jStore({self.location!r}, database={self.database!r}, read_only={self.read_only})"

    # -- low level ------------------------------------------------------------------------------------------
    def _session(self, access_mode: str) -> neo4j.Session:
        if self._closed:
            raise StoreError(f"the store {self.location} is closed")
        return self._driver.session(database=self.database, default_access_mode=access_mode,
                                    bookmark_manager=self._bookmarks)

    def _current_tx(self) -> neo4j.Transaction | None:
        return getattr(self._local, "tx", None)

    def _require_writable(self, doing: str) -> None:
        if self.read_only:
            raise StoreError(f"the store {self.location} is open read-only; {doing} needs a writable store")

    @contextmanager
    def _driver_errors(self, doing: str) -> Iterator[None]:
        """Driver and server errors → the contract's exceptions, with a message that says what to do."""
        try:
            yield
        except StoreError:
            raise
        except AuthError as err:
            raise StoreUnavailable(self._auth_message(err)) from err
        except IncompleteCommit as err:
            raise StoreError(
                f"the connection to {self.location} dropped during the commit, so the write may or may not "
                f"have been applied ({err}); lexgraph writes are idempotent: run the command again"
            ) from err
        except (ServiceUnavailable, SessionExpired) as err:
            raise StoreUnavailable(
                f"cannot reach Neo4j at {self.location} while {doing} ({err}). Start a local server with "
                f"`make neo4j` (no Docker) or `{START_HINT}` (docs/neo4j.md), or point --store / LEXGRAPH_STORE "
                f"at a running Neo4j 5"
            ) from err
        except Forbidden as err:
            raise StoreError(
                f"Neo4j user {self.user!r} is not allowed this ({doing}): {err.message}. Grant the "
                f"privilege, or connect as a user with the needed role (migrations need `architect`)"
            ) from err
        except Neo4jError as err:
            if err.code == _DATABASE_NOT_FOUND:
                raise StoreUnavailable(
                    f"Neo4j at {self.location} has no database {self.database!r}; set NEO4J_DATABASE to an "
                    f"existing one (Community Edition has only `neo4j`) or run "
                    f"`CREATE DATABASE {self.database}` (Enterprise Edition)"
                ) from err
            raise StoreError(f"Neo4j refused {doing}: {err.code}: {err.message}") from err
        except DriverError as err:
            raise StoreError(f"the Neo4j driver failed while {doing}: {err}") from err
        except UnicodeEncodeError as err:  # a lone surrogate in a parameter: the driver cannot send it
            lone = err.object[err.start:err.end] if isinstance(err.object, str) else ""
            raise InputError(f"a text given while {doing} holds a lone surrogate U+{ord(lone[:1] or '?'):04X} at "
                             f"character {err.start + 1}: it is not Unicode text, and the store cannot take it; "
                             "give the value in UTF-8") from None

    def _auth_message(self, err: Neo4jError) -> str:
        if not self._has_password:
            return (f"Neo4j at {self.location} needs a password and none was given: set NEO4J_PASSWORD "
                    f"(and NEO4J_USERNAME), or use bolt://user:password@host:7687 ({err.message})")
        return (f"Neo4j at {self.location} refused the credentials of user {self.user!r} ({err.message}); "
                f"check NEO4J_USERNAME / NEO4J_PASSWORD or the user:password in the URI")

    def _check_server_version(self) -> None:
        """Refuse a server older than `MIN_SERVER_VERSION` at open, not at the first query that needs it."""
        problem = server_version_problem(self._driver.get_server_info().agent or "", self.location)
        if problem is not None:
            raise StoreUnavailable(problem)

    def _ping(self) -> None:
        """`verify_connectivity` does not open the database; this does, so a wrong NEO4J_DATABASE fails at
        open rather than at the first query."""
        with self._session(READ_ACCESS) as session:
            session.execute_read(lambda tx: tx.run("RETURN 1 AS ok").consume())

    def _read(self, cypher: str, params: Mapping[str, Any] | None, doing: str) -> list[Row]:
        """One named read in an auto-commit transaction of a READ session, retried on an error the driver calls
        retryable (a transient server error, a lost connection), as a managed transaction would be: safe for a
        read. A managed transaction (`execute_read`) costs a BEGIN and a COMMIT more, one extra round trip a
        query, about 3.4 ms on loopback and more under load; a search runs four or five named reads."""
        parameters = dict(params or {})
        with self._driver_errors(doing):
            for attempt in range(1, _READ_ATTEMPTS + 1):
                try:
                    with self._session(READ_ACCESS) as session:
                        return [_record_to_row(record) for record in session.run(cypher, parameters)]
                except (Neo4jError, DriverError) as err:
                    if attempt == _READ_ATTEMPTS or not err.is_retryable():
                        raise
                    time.sleep(_READ_RETRY_SECONDS * attempt)
        raise AssertionError("unreachable: the last attempt returns or raises")

    def _run_autocommit(self, cypher: str, params: Mapping[str, Any] | None, doing: str) -> None:
        """One statement in its own auto-commit transaction.

        Schema statements cannot share a transaction with data writes in Neo4j, and a data migration may use
        ``CALL { … } IN TRANSACTIONS``, which runs only in an auto-commit transaction. These are not retried,
        so migration statements must be idempotent (``IF NOT EXISTS``), as they are by convention.
        """
        with self._driver_errors(doing), self._session(WRITE_ACCESS) as session:
            session.run(cypher, dict(params or {})).consume()

    def _ensure_history_constraint(self, *, strict: bool) -> None:
        """Unique migration versions, so that two processes migrating at once cannot both record one.

        At open (``strict=False``) a user without schema privileges is let through: it can still read and
        write data in a database that is already migrated. `migrate` asks again, strictly, before it applies.
        """
        try:
            self._run_autocommit(
                f"CREATE CONSTRAINT lexgraph_migration_version IF NOT EXISTS "
                f"FOR (m:{_ident(_MIGRATION_LABEL)}) REQUIRE m.version IS UNIQUE",
                None, "creating the migration history constraint",
            )
        except StoreUnavailable:
            raise
        except StoreError as err:
            cause = err.__cause__
            if isinstance(cause, Neo4jError) and cause.code == _ALREADY_EXISTS:
                return  # another process created it a moment ago
            if strict:
                raise
            _log.warning("could not create the migration history constraint (%s); continuing", err)

    # -- schema ---------------------------------------------------------------------------------------------
    def applied_migrations(self) -> list[AppliedMigration]:
        rows = self._read(
            f"MATCH (m:{_ident(_MIGRATION_LABEL)}) RETURN m.version AS version, m.name AS name, "
            "m.checksum AS checksum, m.applied_at AS applied_at ORDER BY m.version",
            None, "reading the migration history",
        )
        return [AppliedMigration(int(r["version"]), str(r["name"]), str(r["checksum"]), str(r["applied_at"]))
                for r in rows]

    def migrate(self) -> list[Migration]:
        """Apply pending migrations in version order: each statement on its own, then the history node.

        A crash between a migration's statements and its history node leaves it pending, and running it again
        is harmless because every statement is ``IF NOT EXISTS``. When two processes migrate at once, the
        unique version lets one of them record each version; the other leaves it out of what it returns.
        """
        self._require_writable("applying migrations")
        pending = self.pending_migrations()
        if not pending:
            return []
        self._ensure_history_constraint(strict=True)
        applied: list[Migration] = []
        for migration in pending:
            name = f"migration V{migration.version:03d}__{migration.name}"
            for number, statement in enumerate(migration.statements, start=1):
                self._run_autocommit(statement, None, f"{name}, statement {number}")
            if self._record_migration(migration):
                applied.append(migration)
        if applied:
            self._await_indexes()
        return applied

    def _record_migration(self, migration: Migration) -> bool:
        params = {"version": migration.version, "name": migration.name, "checksum": migration.checksum,
                  "applied_at": datetime.now(UTC).isoformat(timespec="seconds")}
        cypher = (f"CREATE (:{_ident(_MIGRATION_LABEL)} {{version: $version, name: $name, "
                  "checksum: $checksum, applied_at: $applied_at})")
        try:
            with self._driver_errors(f"recording migration V{migration.version:03d}"), \
                    self._session(WRITE_ACCESS) as session:
                session.execute_write(lambda tx: tx.run(cypher, params).consume())
        except StoreError as err:
            if isinstance(err.__cause__, ConstraintError):
                _log.info("migration V%03d was recorded by another process", migration.version)
                return False
            raise
        return True

    def _await_indexes(self) -> None:
        """New indexes fill in the background: wait, so that the first queries after a migration are fast."""
        try:
            with self._driver_errors("waiting for indexes"), self._session(READ_ACCESS) as session:
                session.run("CALL db.awaitIndexes($seconds)", {"seconds": _AWAIT_INDEXES_SECONDS}).consume()
        except StoreUnavailable:
            raise
        except StoreError as err:  # still filling: queries are correct, only slower for a while
            _log.warning("indexes are still being populated: %s", err)

    def run_schema_statement(self, statement: str) -> None:
        """A schema statement built by lexgraph's own code (an index whose dimensions depend on the embedder),
        in its own auto-commit transaction. Never pass text that came from a user."""
        self._run_autocommit(statement, None, "creating an index")
        self._await_indexes()

    # -- reading --------------------------------------------------------------------------------------------
    def query(self, query_name: str, /, **params: Any) -> list[Row]:
        """A named query. Inside an open `transaction` of this thread it runs in that transaction, so it sees
        the transaction's own writes, as in the embedded backend (which has a single connection)."""
        cypher = load_named_query(query_name, self.dialect)
        tx = self._current_tx()
        if tx is not None:
            return _run_in(self, tx, cypher, params, f"query {query_name!r}")
        return self._read(cypher, params, f"query {query_name!r}")

    def run_read_only(self, cypher: str, params: Mapping[str, Any] | None = None, *,
                      limit: int | None = None) -> list[Row]:
        """User Cypher: exactly one read statement (`check_read_statement`, Neo4j dialect: no LOAD CSV, no USE,
        no procedure outside the read-only allow-list, no ``CALL { … } IN TRANSACTIONS``), run in a READ_ACCESS
        session's read transaction, whose summary must say it read. LOAD CSV and file-exporting procedures run
        in a READ session, which is why the text is checked first. A statement the server cannot run
        raises `InvalidQuery` with the server's own code and message."""
        statement = check_read_statement(cypher, NEO4J_DIALECT)
        if self._current_tx() is not None:
            raise StoreError("cannot run a user query inside an open write transaction")
        parameters = dict(params or {})

        def work(tx: ManagedTransaction) -> list[Row]:
            try:
                result = tx.run(statement.text, parameters)
                rows = [_record_to_row(record) for record in islice(result, limit)]
                summary = result.consume()  # the rows past `limit` are discarded, never held
            except Neo4jError as err:
                if _is_write_refusal(err):
                    raise QueryRefused(f"{_READ_ONLY_MESSAGE} ({err.code})") from None
                if (err.code or "").startswith("Neo.ClientError.Statement."):
                    raise InvalidQuery(f"{err.code}: {err.message}") from None
                raise
            if summary.query_type not in (None, "r"):
                # Raising inside the transaction function makes the driver roll back instead of committing.
                raise QueryRefused(_READ_ONLY_MESSAGE)
            return rows

        with self._driver_errors("running the query"), self._session(READ_ACCESS) as session:
            return session.execute_read(work)

    def counts(self) -> StoreCounts:
        """Every label and type of the data model, 0 when absent; Neo4j answers these from its count store."""

        def work(tx: ManagedTransaction) -> StoreCounts:
            nodes = {
                spec.label: _count(tx, f"MATCH (n:{_ident(spec.label)}) RETURN count(n) AS c")
                for spec in NODE_SPECS
            }
            rels = {
                rel_type: _count(tx, f"MATCH ()-[r:{_ident(rel_type)}]->() RETURN count(r) AS c")
                for rel_type in REL_TYPES
            }
            return StoreCounts(nodes, rels)

        with self._driver_errors("counting nodes and relationships"), self._session(READ_ACCESS) as session:
            return session.execute_read(work)

    # -- writing --------------------------------------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[Transaction]:
        """One explicit driver transaction: committed on normal exit, rolled back on any exception.

        The driver does not retry explicit transactions (a retry would have to replay the caller's code), so
        a transient failure such as a deadlock surfaces as `StoreError`. Every lexgraph write is idempotent:
        the caller may run it again.
        """
        self._require_writable("writing")
        if self._current_tx() is not None:
            raise StoreError("transactions do not nest; finish the open one first")
        with self._driver_errors("opening a write transaction"):
            session = self._session(WRITE_ACCESS)
            try:
                driver_tx = session.begin_transaction()
            except BaseException:
                _close_quietly(session)
                raise
        self._local.tx = driver_tx
        try:
            try:
                yield _Neo4jTransaction(self, driver_tx)
            except BaseException:
                self._local.tx = None
                _close_quietly(driver_tx)  # rolls back; a no-op when the server has already ended it
                raise
            self._local.tx = None
            with self._driver_errors("committing the transaction"):
                driver_tx.commit()
        finally:
            self._local.tx = None
            _close_quietly(session)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._driver.close()


class _Neo4jTransaction(Transaction):
    """The writes of one `Neo4jStore.transaction`. Cypher text is built from base.py's specs only."""

    def __init__(self, store: Neo4jStore, tx: neo4j.Transaction) -> None:
        self._store = store
        self._tx = tx

    def _write(self, cypher: str, params: Mapping[str, Any], doing: str) -> None:
        with self._store._driver_errors(doing):
            self._tx.run(cypher, dict(params)).consume()

    def query(self, query_name: str, /, **params: Any) -> list[Row]:
        cypher = load_named_query(query_name, self._store.dialect)
        return _run_in(self._store, self._tx, cypher, params, f"query {query_name!r}")

    def upsert_nodes(self, label: str, rows: Sequence[Row]) -> None:
        spec = _node_spec(label)
        payload = [_node_row(spec, row, position) for position, row in enumerate(rows)]
        key = _ident(spec.key)
        cypher = f"UNWIND $rows AS row MERGE (n:{_ident(label)} {{{key}: row.{key}}}) SET n += row"
        if label == "Document":
            cypher += _DOCUMENT_KIND_LABELS
        for batch in chunked(payload, BATCH_SIZE):
            self._write(cypher, {"rows": list(batch)}, f"writing {len(batch)} {label} nodes")

    def upsert_relationships(self, rel_type: str, rows: Sequence[Row], *, from_label: str | None = None,
                             to_label: str | None = None) -> None:
        spec = rel_spec(rel_type, from_label, to_label)
        payload = [_rel_row(rel_type, row, position) for position, row in enumerate(rows)]
        from_key, to_key = _ident(_NODES[spec.from_label].key), _ident(_NODES[spec.to_label].key)
        # Two MATCH clauses, each an index seek on a constrained key, then MERGE: at most one edge per pair.
        cypher = (
            f"UNWIND $rows AS row "
            f"MATCH (a:{_ident(spec.from_label)} {{{from_key}: row.from_key}}) "
            f"MATCH (b:{_ident(spec.to_label)} {{{to_key}: row.to_key}}) "
            f"MERGE (a)-[r:{_ident(rel_type)}]->(b) SET r += row.props"
        )
        for batch in chunked(payload, BATCH_SIZE):
            self._write(cypher, {"rows": list(batch)}, f"writing {len(batch)} {rel_type} relationships")

    def delete_nodes(self, label: str, keys: Sequence[str]) -> None:
        spec = _node_spec(label)
        unique: list[Any] = list(dict.fromkeys(keys))  # one statement must not delete a node twice
        cypher = f"UNWIND $keys AS key MATCH (n:{_ident(label)} {{{_ident(spec.key)}: key}}) DETACH DELETE n"
        for batch in chunked(unique, BATCH_SIZE):
            self._write(cypher, {"keys": list(batch)}, f"deleting {len(batch)} {label} nodes")

    def delete_relationships(self, rel_type: str, pairs: Sequence[tuple[str, str]], *,
                             from_label: str | None = None, to_label: str | None = None) -> None:
        spec = rel_spec(rel_type, from_label, to_label)
        from_key, to_key = _ident(_NODES[spec.from_label].key), _ident(_NODES[spec.to_label].key)
        unique = [{"from_key": a, "to_key": b} for a, b in dict.fromkeys((a, b) for a, b in pairs)]
        cypher = (
            f"UNWIND $pairs AS pair "
            f"MATCH (a:{_ident(spec.from_label)} {{{from_key}: pair.from_key}})-[r:{_ident(rel_type)}]->"
            f"(b:{_ident(spec.to_label)} {{{to_key}: pair.to_key}}) "
            f"DELETE r"
        )
        for batch in chunked(unique, BATCH_SIZE):
            self._write(cypher, {"pairs": list(batch)}, f"deleting {len(batch)} {rel_type} relationships")


# Neo4j Browser styles nodes by label only, so a Document also carries its kind as a label (docker/lexgraph.grass
# colours books and guidelines apart). Only on Neo4j, and only for display: lexgraph reads Documents by `kind`.
# The kind is read from the node after the row is written, so a row that leaves `kind` out keeps its label right.
_DOCUMENT_KIND_LABELS = (
    " WITH n REMOVE n:Book:Guideline"
    " FOREACH (_ IN CASE WHEN n.kind = 'book' THEN [1] ELSE [] END | SET n:Book)"
    " FOREACH (_ IN CASE WHEN n.kind = 'guideline' THEN [1] ELSE [] END | SET n:Guideline)"
)


# -- helpers ------------------------------------------------------------------------------------------------
def _model_label(labels: frozenset[str]) -> str:
    """A node's label in the data model (``Document``, not ``Book:Document``): what the embedded backend
    returns; the display labels ``Book`` / ``Guideline`` (`_DOCUMENT_KIND_LABELS`) are left out."""
    model = sorted(label for label in labels if label in _NODES)
    return ":".join(model or sorted(labels))


def _run_in(store: Neo4jStore, tx: neo4j.Transaction, cypher: str, params: Mapping[str, Any],
            doing: str) -> list[Row]:
    with store._driver_errors(doing):
        return [_record_to_row(record) for record in tx.run(cypher, dict(params))]


def _count(tx: ManagedTransaction, cypher: str) -> int:
    record = tx.run(cypher).single()
    return int(record["c"]) if record is not None else 0


def _ident(name: str) -> str:
    """Quote a label, type or key for the Cypher text. The specs are constants; this is the last guard."""
    if not _IDENTIFIER.fullmatch(name):
        raise StoreError(f"{name!r} is not a valid Cypher identifier")
    return f"`{name}`"


def _node_spec(label: str) -> NodeSpec:
    spec = _NODES.get(label)
    if spec is None:
        raise StoreError(f"unknown node label {label!r}; the data model has {sorted(_NODES)} (NODE_SPECS)")
    return spec


def _node_row(spec: NodeSpec, row: Mapping[str, Any], position: int) -> dict[str, Any]:
    """A plain dict for the driver, checked here: MERGE on a null key fails without naming the row."""
    if row.get(spec.key) is None:
        raise StoreError(f"{spec.label} row {position} has no {spec.key!r}: {dict(row)!r:.200}")
    return dict(row)


def _rel_row(rel_type: str, row: Mapping[str, Any], position: int) -> dict[str, Any]:
    if row.get("from") is None or row.get("to") is None:
        raise StoreError(f"{rel_type} row {position} needs 'from' and 'to' keys: {dict(row)!r:.200}")
    props = {k: v for k, v in row.items() if k not in ("from", "to")}
    return {"from_key": row["from"], "to_key": row["to"], "props": props}


def _is_write_refusal(err: Neo4jError) -> bool:
    return err.code in _WRITE_REFUSALS or "access mode" in (err.message or "").lower()


#: Values the driver returns as the Python value itself: nothing to convert. Checked by exact type first, since a
#: search's rows hold hundreds of them (uids, scores, texts), and the general checks below cost about 5 µs a value:
#: about 9 ms of a hybrid search on Neo4j before this (bench/search_profile.py).
_PLAIN_TYPES = frozenset({str, int, float, bool, type(None), bytes})


def _record_to_row(record: neo4j.Record) -> Row:
    return {key: _to_python(value) for key, value in zip(record.keys(), record.values(), strict=True)}


def _to_python(value: Any) -> Any:
    """Driver values → the Python types that the embedded backend returns.

    Dates and times become ``datetime`` values. Nodes and relationships become dicts of their properties
    plus the embedded backend's ``_LABEL`` and ``_ID`` entries (``_SRC`` / ``_DST`` for relationships; ids
    are Neo4j element ids); paths become ``{"_NODES": [...], "_RELS": [...]}``. Durations stay
    `neo4j.time.Duration`, whose months have no ``timedelta`` equivalent.
    """
    kind = type(value)
    if kind in _PLAIN_TYPES:
        return value
    if kind is list:
        return [v if type(v) in _PLAIN_TYPES else _to_python(v) for v in value]
    if kind is dict:
        return {k: v if type(v) in _PLAIN_TYPES else _to_python(v) for k, v in value.items()}
    if isinstance(value, Neo4jDate | Neo4jDateTime | Neo4jTime):
        try:
            return value.to_native()
        except ValueError:  # outside Python's range (year 0, 10000 …): keep the driver's value
            return value
    if isinstance(value, Node):
        return {"_ID": value.element_id, "_LABEL": _model_label(value.labels),
                **{k: _to_python(v) for k, v in value.items()}}
    if isinstance(value, Relationship):
        start, end = value.start_node, value.end_node
        return {"_SRC": start.element_id if start is not None else None,
                "_DST": end.element_id if end is not None else None,
                "_LABEL": value.type, "_ID": value.element_id,
                **{k: _to_python(v) for k, v in value.items()}}
    if isinstance(value, Path):
        return {"_NODES": [_to_python(n) for n in value.nodes],
                "_RELS": [_to_python(r) for r in value.relationships]}
    if isinstance(value, list):
        return [_to_python(v) for v in value]
    if isinstance(value, dict):
        return {k: _to_python(v) for k, v in value.items()}
    return value


def _close_quietly(resource: neo4j.Session | neo4j.Transaction) -> None:
    """Close during cleanup without hiding the exception that is already on its way out."""
    try:
        resource.close()
    except (DriverError, Neo4jError, OSError) as err:
        _log.debug("ignoring an error while closing %r: %s", resource, err)
