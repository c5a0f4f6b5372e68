"""The embedded backend: a LadybugDB directory, no server.

Writes are ``UNWIND $rows`` statements: keys are looked up first, new rows created and existing ones updated
(see `_EmbeddedTransaction` for why ``MERGE`` and ``LOAD FROM`` are not used). Inserts in an `insert_transaction`
go through ``COPY FROM`` an Arrow table instead: the bulk path, kept apart because LadybugDB 0.22 does not keep a
transaction that mixes COPY with other writes atomic (see `EmbeddedStore.insert_transaction`).
Relationship writes match both ends with two separate ``MATCH`` clauses (one MATCH on two property maps scans
per row).

One process owns a read-write store. A second writer gets `StoreUnavailable` naming the holder, which we record in
``lexgraph.lock`` beside the database because the engine's own error does not say who holds the lock.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import tempfile
import warnings
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import ladybug

from lexgraph.config import BUFFER_POOL_ENV, BufferPool, buffer_pool
from lexgraph.errors import BufferPoolFull, ConfigurationError, InvalidQuery, QueryRefused, StoreError, StoreUnavailable
from lexgraph.store.base import (
    NODE_SPECS,
    REL_TYPES,
    AppliedMigration,
    GraphStore,
    Migration,
    RelSpec,
    Row,
    StoreCounts,
    Transaction,
    chunked,
    load_named_query,
    rel_spec,
    unencodable,
)
from lexgraph.store.readonly import LADYBUG, check_read_statement, with_row_limit

_BATCH = 50_000
_ARROW_TYPES = {"STRING": "string", "INT64": "int64", "DATE": "date32", "DOUBLE": "float64", "BOOL": "bool_",
                "STRING[]": "list_of_string"}
_KEYS = {spec.label: spec.key for spec in NODE_SPECS}
_MIGRATION_TABLE = "_Migration"
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_LOG_SUFFIXES = (".wal", ".wal.checkpoint")
_TORN = ".torn-"
# What the engine raises when its open fails: its own errors, and the C++ exceptions pybind11 maps (a record torn
# inside a string gave `ValueError`, a garbage length after a torn record `MemoryError` from std::bad_alloc).
_ENGINE_OPEN_ERRORS = (RuntimeError, ValueError, MemoryError)


def _check_store_folder(directory: Path) -> None:
    """A store is a folder: a path that is a file, or lies inside one, is refused in one sentence naming the file
    (the engine would otherwise fail deep inside `mkdir` or its own open, with a traceback)."""
    for path in (directory, *directory.parents):
        if path.exists():
            if not path.is_dir():
                where = "is a file" if path == directory else f"lies inside {path}, which is a file"
                raise StoreUnavailable(f"the store path {directory} {where}, not a folder; give a folder (a new "
                                       "one is created) or a bolt:// URI")
            return


class EmbeddedStore(GraphStore):
    backend = "embedded"
    dialect = "embedded"
    index_kind = "files"

    def __init__(self, directory: str | os.PathLike[str], *, read_only: bool = False,
                 buffer_pool_size: BufferPool | int | str | None = None) -> None:
        """`buffer_pool_size`: bytes, a size such as ``4GiB`` or a `BufferPool`; None reads the setting
        (`config.buffer_pool`: LEXGRAPH_BUFFER_POOL, lexgraph.toml, else a share of the memory available).
        LadybugDB's own default, 80% of RAM, starves everything else on the machine; a fixed 1 GiB was too small
        for the whole archive."""
        self.directory = Path(directory)
        self.buffer_pool: BufferPool = buffer_pool(buffer_pool_size, named_by="buffer_pool_size")
        self.location = str(self.directory)
        self.read_only = read_only
        self._db_path = self.directory / "graph.lbdb"
        self._lock_note = self.directory / "lexgraph.lock"
        _check_store_folder(self.directory)
        if read_only and not self._db_path.exists():
            raise StoreUnavailable(
                f"no lexgraph store at {self.directory}; create one with `lexgraph ingest statutes …` first"
            )
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise StoreUnavailable(f"cannot create the store folder {self.directory}: {err.strerror}") from None
        try:
            self._db = self._open_database(self.buffer_pool.size)
        except _ENGINE_OPEN_ERRORS as err:
            raise StoreUnavailable(self._explain_open_failure(err)) from None
        self._conn = ladybug.Connection(self._db)
        self._in_transaction = False
        self._tables: set[str] | None = None
        self._column_types: dict[str, dict[str, str]] = {}
        if not read_only:
            try:
                self._lock_note.write_text(
                    json.dumps({"pid": os.getpid(), "command": " ".join(sys.argv)[:300],
                                "since": datetime.now(UTC).isoformat(timespec="seconds")}),
                    encoding="utf-8",
                )
            except OSError as err:
                self._db.close()
                raise StoreUnavailable(f"cannot write in the store folder {self.directory}: {err.strerror}"
                                       ) from None
            self._ensure_migration_table()

    def _open_database(self, buffer_pool_size: int) -> ladybug.Database:
        """The engine's database. A writer killed during a checkpoint leaves files that only a read-write open
        recovers, and the engine refuses a read-only open until then ("recovery is pending"); so a reader that
        finds no writer lets a read-write open recover them (every committed transaction, nothing else) and then
        opens read-only, as `doctor` after a crash must, and says so in `opening_notes`. A live writer holds the
        lock, and the read-write open fails with the usual message.

        A log whose last record is torn (a kill, or a power cut, while COMMIT wrote it) makes LadybugDB 0.22
        refuse the whole store. A read-write open then sets the log aside and replays its whole committed
        transactions (`_recover_torn_log`); a read-only open reads the same transactions without changing a
        file, and says that the torn tail is still there (`torn_log`). Each open is tried strictly first, so a
        whole log is never read leniently."""
        try:
            return self._engine(buffer_pool_size, read_only=self.read_only)
        except _ENGINE_OPEN_ERRORS as err:
            pending = self.read_only and "recovery is pending" in str(err)
            if not (pending or self._torn_log_suspected(err)):
                raise
            first = err
        if not self.read_only:
            return self._recover_torn_log(buffer_pool_size, first)
        if not pending:
            try:
                db = self._engine(buffer_pool_size, read_only=True, lenient=True)
            except _ENGINE_OPEN_ERRORS:
                raise first from None
            writer = self._live_writer()
            if writer is not None:  # its COMMIT is writing the last record now: not torn, just not whole yet
                self.opening_notes += (
                    f"the store's write-ahead log ends in a record that {writer} is still writing: this read-only "
                    f"open reads every transaction committed before it",)
                return db
            self.torn_log = True
            self.opening_notes += (
                f"the store's write-ahead log ends in a torn record ({_engine_text(first)}), as a process killed or "
                f"a machine stopped during COMMIT leaves it: this read-only open reads every transaction committed "
                f"before it and changes nothing; `lexgraph doctor --repair` (or any write command) sets the torn "
                f"log aside beside the store",)
            return db
        logs = _size_text(sum(size for _, size in self._logs()))
        try:
            self._engine(buffer_pool_size, read_only=False).close()
        except _ENGINE_OPEN_ERRORS as err:
            if not self._torn_log_suspected(err):
                raise
            self._recover_torn_log(buffer_pool_size, err).close()
        else:
            self.opening_notes += (
                f"the store's write-ahead log and checkpoint files ({logs}), left by a writer killed during a "
                f"checkpoint, were recovered into the store before this read-only open (the engine opens no store "
                f"read-only until they are): every transaction that writer committed is kept, nothing else",)
        return self._engine(buffer_pool_size, read_only=True)

    def _live_writer(self) -> str | None:
        """The writer named in ``lexgraph.lock`` when that process still runs (a reader cannot take the engine's
        lock to ask): a log it is writing ends in a half record that is no tear."""
        try:
            note = json.loads(self._lock_note.read_text(encoding="utf-8"))
            pid = int(note["pid"])
        except (OSError, ValueError, KeyError, TypeError):
            return None
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return None
        except PermissionError:
            pass  # another user's process: alive
        return f"process {pid} ({note.get('command', 'a writer')})"

    def _engine(self, buffer_pool_size: int, *, read_only: bool, lenient: bool = False) -> ladybug.Database:
        return ladybug.Database(str(self._db_path), buffer_pool_size=buffer_pool_size, read_only=read_only,
                                throw_on_wal_replay_failure=not lenient)

    def _logs(self) -> list[tuple[Path, int]]:
        """The engine's write-ahead logs that hold anything, with their sizes: the active log (``graph.lbdb.wal``)
        and the one an interrupted checkpoint froze (``graph.lbdb.wal.checkpoint``)."""
        found = []
        for suffix in _LOG_SUFFIXES:
            log = self._db_path.with_name(self._db_path.name + suffix)
            try:
                size = log.stat().st_size
            except OSError:
                continue
            if size:
                found.append((log, size))
        return found

    def _torn_log_suspected(self, err: Exception) -> bool:
        """Whether the engine's open may have failed on a torn write-ahead log: a log is there, and the failure is
        not the lock of a live writer. No message is required, because LadybugDB 0.22 fails on a torn log in many
        ways: cut at random bytes and followed by zeros or garbage, the same log gave "Checksum verification
        failed", "Reading past the end of the file", "serialized with enableChecksums=False" (a torn header), an
        internal assertion (UNREACHABLE_CODE), a `ValueError` (``basic_string::_M_replace_aux``) and a
        `MemoryError` (``std::bad_alloc``). A failure that is not the log's fails the lenient open too, and is
        then reported with both messages."""
        return "lock" not in str(err).lower() and bool(self._logs())

    def _recover_torn_log(self, buffer_pool_size: int, failure: Exception) -> ladybug.Database:
        """Open, read-write, the last checkpoint plus every whole committed transaction of a log whose tail is
        torn, after copying each log as it is beside the store (``graph.lbdb.wal.torn-<UTC time>``): the engine
        (``throw_on_wal_replay_failure=False``) replays the log up to the end of its last whole COMMIT record and
        cuts the rest. A torn record belongs to the transaction being committed when the writer died; that
        transaction never returned from COMMIT, so leaving it out is the all-or-nothing a killed writer is owed.
        Nothing is deleted: the copies keep the cut bytes, and the note says where."""
        logs = self._logs()
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%fZ")
        kept: list[Path] = []
        for log, _ in logs:
            aside = log.with_name(f"{log.name}{_TORN}{stamp}")
            try:
                _durable_copy(log, aside)
            except OSError as err:  # the log is left as it was: nothing is cut before its copy is safe
                raise StoreUnavailable(
                    f"the store {self.directory} has a write-ahead log torn by a killed write "
                    f"({_engine_text(failure)}), and it could not be copied aside before the torn tail is cut "
                    f"({err.strerror}): free {_size_text(logs[0][1])} in {self.directory} and open it again"
                ) from None
            kept.append(aside)
        try:
            db = self._engine(buffer_pool_size, read_only=False, lenient=True)
        except _ENGINE_OPEN_ERRORS as again:
            raise StoreUnavailable(
                f"cannot open the store {self.directory}: its write-ahead log failed to replay ({_engine_text(failure)}"
                f"), and replaying only its whole committed transactions failed too ({_engine_text(again)}); the "
                f"log as it was is kept as {', '.join(str(k) for k in kept)}: restore the store from a copy, or "
                f"ingest again into a new store") from None
        total = sum(size for _, size in logs)
        replayed = sum(size for _, size in self._logs())
        cut = f"{_size_text(total - replayed)} of {_size_text(total)} not replayed" if len(logs) == 1 else \
            f"{_size_text(total)} in {len(logs)} logs"
        self.opening_notes += (
            f"set aside the torn tail of the store's write-ahead log ({cut}) as {', '.join(k.name for k in kept)} "
            f"beside it: the log's last record failed its check ({_engine_text(failure)}), as a process killed "
            f"or a machine stopped during COMMIT leaves it, so that transaction never committed; the store was "
            f"opened with every transaction committed before it",)
        return db

    def set_aside_files(self) -> list[str]:
        """The copies of torn write-ahead logs that earlier opens kept beside the store (`_recover_torn_log`)."""
        return sorted(str(path) for path in self.directory.glob(f"{self._db_path.name}.wal*{_TORN}*")
                      if not path.name.endswith(".part"))

    def _explain_open_failure(self, err: Exception) -> str:
        message = str(err)
        if "lock" in message.lower():
            holder = "another process"
            try:
                note = json.loads(self._lock_note.read_text(encoding="utf-8"))
                holder = f"process {note['pid']} ({note['command']}, since {note['since']})"
            except (OSError, ValueError, KeyError):
                pass
            return (f"the store {self.directory} is open for writing by {holder}; wait for it to finish or "
                    f"stop it, then retry (commands that only read, such as stats, doctor, query, law, precedent "
                    f"and search, work meanwhile)")
        return f"cannot open the store {self.directory}: {message}"

    def _pool_message(self, err: RuntimeError) -> str:
        """What to do when a query ran out of the engine's buffer pool: the size, where it came from and the
        settings that change it, rather than the engine's bare "buffer pool is full"."""
        pool = self.buffer_pool
        return (f"the store {self.directory} ran out of its {pool.label} buffer pool (set by {pool.source}) "
                f"({str(err).strip()[:160]}); give it more with --buffer-pool 4GiB, {BUFFER_POOL_ENV}=4GiB or "
                f"buffer_pool = \"4GiB\" in lexgraph.toml (`lexgraph doctor` says what this store needs)")

    # -- low level ----------------------------------------------------------------------------------------------
    def _execute(self, cypher: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        try:
            result = self._conn.execute(cypher, dict(params or {}))
        except RuntimeError as err:
            if _out_of_pool(err):
                raise BufferPoolFull(self._pool_message(err)) from err
            raise unencodable(params) or StoreError(f"{err} (query: {cypher.strip()[:200]})") from err
        results = result if isinstance(result, list) else [result]
        last = results[-1]
        columns = last.get_column_names()
        rows = [dict(zip(columns, values, strict=True)) for values in last.get_all()]
        for r in results:
            r.close()
        return rows

    def _forget_prepared(self, prefix: str) -> None:
        """Drop the statements the driver prepared and cached for queries starting with `prefix`. LadybugDB 0.22's
        Python driver caches a prepared statement per Arrow table passed as a parameter, and the statement keeps
        the table and its buffer-pool pages until the connection closes: 60 node COPYs of 100 rows exhausted a
        128 MB pool, and a corpus ingest held 0.8 MB per law. Dropped, both are freed (measured: 300 COPYs fit)."""
        cache = getattr(self._conn, "_pybind_implicit_prepared_cache", None)
        lock = getattr(self._conn, "_prepared_cache_lock", None)
        if not isinstance(cache, dict) or lock is None:
            return
        with lock:
            for key in [k for k in cache if isinstance(k, tuple) and str(k[0]).startswith(prefix)]:
                del cache[key]

    def _existing_tables(self) -> set[str]:
        if self._tables is None:
            self._tables = {row["name"] for row in self._execute("CALL show_tables() RETURN name")}
        return self._tables

    def _columns(self, table: str) -> dict[str, str]:
        if table not in self._column_types:
            info = self._execute(f"CALL table_info('{table}') RETURN *")
            self._column_types[table] = {row["name"]: row["type"] for row in info}
        return self._column_types[table]

    def _ensure_migration_table(self) -> None:
        self._execute(
            f"CREATE NODE TABLE IF NOT EXISTS {_MIGRATION_TABLE}(version INT64 PRIMARY KEY, name STRING, "
            "checksum STRING, applied_at STRING)"
        )
        self._tables = None

    # -- schema -------------------------------------------------------------------------------------------------
    def applied_migrations(self) -> list[AppliedMigration]:
        if _MIGRATION_TABLE not in self._existing_tables():
            return []
        rows = self._execute(
            f"MATCH (m:{_MIGRATION_TABLE}) RETURN m.version AS version, m.name AS name, m.checksum AS checksum, "
            "m.applied_at AS applied_at ORDER BY m.version"
        )
        return [AppliedMigration(**row) for row in rows]

    def migrate(self) -> list[Migration]:
        if self.read_only:
            raise StoreError("the store is open read-only; migrations need a writable store")
        applied: list[Migration] = []
        for migration in self.pending_migrations():
            with self.transaction():
                for statement in migration.statements:
                    self._execute(statement)
                self._execute(
                    f"CREATE (:{_MIGRATION_TABLE} {{version: $v, name: $n, checksum: $c, applied_at: $t}})",
                    {"v": migration.version, "n": migration.name, "c": migration.checksum,
                     "t": datetime.now(UTC).isoformat(timespec="seconds")},
                )
            applied.append(migration)
            self._tables = None
            self._column_types.clear()
        return applied

    # -- reading ------------------------------------------------------------------------------------------------
    def query(self, query_name: str, /, **params: Any) -> list[Row]:
        try:
            return self._execute(load_named_query(query_name, self.dialect), params)
        except StoreError as error:
            if "Binder exception" in str(error) and (pending := self.pending_migrations()):
                # A store written by an older lexgraph and opened read-only (or with migrate=False) lacks the
                # properties newer queries read: say so and how to migrate, not the engine's binder message.
                names = ", ".join(f"V{m.version:03d}__{m.name}" for m in pending)
                raise StoreUnavailable(
                    f"the store at {self.directory} was written by an older lexgraph and needs its schema migrated "
                    f"({names}): run `lexgraph migrate --store {self.directory}` (or any write command) first"
                ) from error
            raise

    def run_read_only(self, cypher: str, params: Mapping[str, Any] | None = None, *,
                      limit: int | None = None) -> list[Row]:
        """User Cypher, three locks deep, because ``BEGIN TRANSACTION READ ONLY`` alone let ``RETURN 1; COMMIT;
        MATCH (l:Law) DETACH DELETE l`` end the transaction and delete, and let ``LOAD FROM``/``COPY … TO`` read
        and write files:

        1. `check_read_statement` accepts exactly one statement made of read clauses (lexgraph/store/readonly.py);
        2. the statement is *prepared*, and the engine refuses to prepare more than one statement;
        3. it runs in a READ ONLY transaction, on a database opened read-only when the store is.

        A failing statement shows the engine's own error (`InvalidQuery` for a syntax or binder error), never the
        failed ROLLBACK of the transaction the engine already ended."""
        statement = check_read_statement(cypher, LADYBUG)
        if self._in_transaction:
            raise StoreError("cannot run a user query inside an open write transaction")
        self._execute("BEGIN TRANSACTION READ ONLY")
        try:
            text = statement.text if limit is None else with_row_limit(statement, limit)
            rows = self._run_prepared(text, params, limit)
        except BaseException as err:
            self._end_read_transaction(err)
            raise
        self._end_read_transaction(None)
        return rows

    def _run_prepared(self, cypher: str, params: Mapping[str, Any] | None, limit: int | None = None) -> list[Row]:
        try:
            with warnings.catch_warnings():
                # `prepare` is deprecated in favour of `execute`, which runs every statement of a multi-statement
                # text; a prepared statement is the engine's own guarantee of one statement.
                warnings.simplefilter("ignore", DeprecationWarning)
                prepared = self._conn.prepare(cypher)
            result = self._conn.execute(prepared, dict(params or {}))
        except RuntimeError as err:
            if _out_of_pool(err):
                raise BufferPoolFull(self._pool_message(err)) from None
            raise unencodable(params) or _user_query_error(err, cypher) from None
        assert not isinstance(result, list)  # a prepared statement is one statement
        try:
            columns = result.get_column_names()
            if limit is None:
                return [dict(zip(columns, values, strict=True)) for values in result.get_all()]
            rows: list[Row] = []
            while len(rows) < limit and result.has_next():
                rows.append(dict(zip(columns, result.get_next(), strict=True)))
            return rows
        finally:
            result.close()

    def _end_read_transaction(self, failure: BaseException | None) -> None:
        self._rollback(failure, "the read-only transaction")

    def _rollback(self, failure: BaseException | None, what: str) -> None:
        """Roll back the open transaction. After a failed statement the engine has already ended it, and the
        ROLLBACK's "No active transaction" must not replace the real error."""
        try:
            self._conn.execute("ROLLBACK")
        except RuntimeError as err:
            if "no active transaction" in str(err).lower():
                return
            if failure is None:
                raise StoreError(f"could not end {what}: {err}") from err
            failure.add_note(f"(ending {what} also failed: {err})")

    def counts(self) -> StoreCounts:
        tables = self._existing_tables()
        nodes = {
            spec.label: self._execute(f"MATCH (n:{spec.label}) RETURN count(n) AS c")[0]["c"]
            for spec in NODE_SPECS if spec.label in tables
        }
        rels = {
            rel_type: self._execute(f"MATCH ()-[r:{rel_type}]->() RETURN count(r) AS c")[0]["c"]
            for rel_type in REL_TYPES if rel_type in tables
        }
        return StoreCounts(nodes, rels)

    # -- reading the whole graph out (`lexgraph copy`) ----------------------------------------------------------
    def export_nodes(self, label: str, batch: int) -> Iterator[list[Row]]:
        """Every `label` node's properties through the engine's bulk export (`_export`): one scan of the label,
        where a keyset walk (the base class's) rescans and sorts the whole label for every page, because
        LadybugDB's primary-key index is a hash, not an ordered index."""
        key = _key_of(label)
        if label not in self._existing_tables():
            return
        columns = self._columns(label)
        returns = ", ".join(f"n.{name} AS {name}" for name in _identifiers(label, [key, *(c for c in columns
                                                                                           if c != key)]))
        yield from self._export(f"MATCH (n:{label}) RETURN {returns}", batch)

    def export_relationships(self, spec: RelSpec, batch: int) -> Iterator[list[Row]]:
        """Every relationship of `spec` as ``{"from", "to", **properties}``, by the bulk export (`export_nodes`)."""
        tables = self._existing_tables()
        if not {spec.rel_type, spec.from_label, spec.to_label} <= tables:
            return
        props = _identifiers(spec.rel_type, list(self._columns(spec.rel_type)))
        returns = ", ".join([f"a.{_KEYS[spec.from_label]} AS `from`", f"b.{_KEYS[spec.to_label]} AS `to`",
                             *(f"r.{name} AS {name}" for name in props)])
        yield from self._export(
            f"MATCH (a:{spec.from_label})-[r:{spec.rel_type}]->(b:{spec.to_label}) RETURN {returns}", batch)

    def _export(self, query: str, batch: int) -> Iterator[list[Row]]:
        """The rows of `query` (built from the data model only) written by the engine's ``COPY … TO`` into a
        Parquet file in a temporary folder, then read back `batch` rows at a time.

        Streaming: the engine writes the file without holding the result in memory, and pyarrow reads it a row
        group at a time, so memory stays bounded by a batch, not by the label. The folder (under ``TMPDIR``)
        needs about the label's compressed size (≈ 0.3 GB for the 1.6 M clauses of the whole e-Gov corpus) and is
        removed when the iteration ends or is abandoned. ``COPY … TO`` only reads the graph, so it runs on a store
        opened read-only too. User queries never reach this path (`run_read_only` refuses ``COPY``)."""
        import pyarrow.parquet as pq

        if batch <= 0:
            raise ConfigurationError("batch must be positive")
        if self._in_transaction:
            raise StoreError("cannot export the graph inside an open write transaction")
        with tempfile.TemporaryDirectory(prefix="lexgraph-export-") as folder:
            target = (Path(folder) / "rows.parquet").as_posix()
            if "'" in target or "\\" in target:
                raise StoreError(f"the temporary folder {folder!r} cannot be named in COPY TO; set TMPDIR to a "
                                 f"path without quotes or backslashes")
            self._execute(f"COPY ({query}) TO '{target}'")
            parquet = pq.ParquetFile(target)
            try:
                for part in parquet.iter_batches(batch_size=batch):
                    yield part.to_pylist()
            finally:
                parquet.close()

    # -- writing ------------------------------------------------------------------------------------------------
    def transaction(self) -> AbstractContextManager[Transaction]:
        return self._transaction(bulk=False)

    def insert_transaction(self) -> AbstractContextManager[Transaction]:
        """A transaction whose writes are all ``COPY FROM``, whatever their size, and that refuses any other
        write. LadybugDB 0.22 logs ordinary writes in its write-ahead log but applies a COPY at the checkpoint
        that ends COMMIT. A process killed between the two came back, after recovery, with the ordinary writes
        of its transaction and without the COPY: 15 law versions and none of their clauses, in the kill test of
        `ingest statutes`. A transaction of COPYs alone, or of ordinary writes alone, came back whole or not at
        all in every kill we made (tests/test_store_crash.py)."""
        return self._transaction(bulk=True)

    @contextmanager
    def _transaction(self, bulk: bool) -> Iterator[Transaction]:
        if self.read_only:
            raise StoreError("the store is open read-only")
        if self._in_transaction:
            raise StoreError("transactions do not nest; finish the open one first")
        self._execute("BEGIN TRANSACTION")
        self._in_transaction = True
        try:
            yield _EmbeddedTransaction(self, bulk)
        except BaseException as failure:
            self._in_transaction = False
            self._rollback(failure, "the write transaction")
            raise
        self._in_transaction = False
        self._execute("COMMIT")

    def close(self) -> None:
        conn, db = getattr(self, "_conn", None), getattr(self, "_db", None)
        if conn is not None:
            conn.close()
        if db is not None:
            db.close()
        self._conn = None  # type: ignore[assignment]
        self._db = None  # type: ignore[assignment]
        if not self.read_only and self._lock_note.exists():
            self._lock_note.unlink(missing_ok=True)


class _EmbeddedTransaction(Transaction):
    """Writes as ``UNWIND $rows`` statements with typed casts or, in an insert transaction (`bulk`), inserts of
    rows known to be new as ``COPY FROM`` an Arrow table (`create_nodes`, `create_relationships`) and nothing else.

    ``LOAD FROM`` an Arrow table is faster per statement, but LadybugDB 0.22 keeps about half a megabyte of its
    buffer pool per such statement until the database is closed, so a corpus ingest of thousands of small
    statements exhausts any pool; ``UNWIND`` over a list parameter does not. (COPY had the same cost, which came
    from the driver's cache of prepared statements, one per Arrow table; `EmbeddedStore._forget_prepared` drops
    them after each COPY. The same may cure LOAD FROM; not measured.) ``MERGE`` is avoided for the same reason and
    because it is slow here: existing keys are looked up by primary key first, then new rows are created and
    existing ones updated.
    """

    def __init__(self, store: EmbeddedStore, bulk: bool = False) -> None:
        self._store = store
        self._bulk = bulk

    def _refuse_in_bulk(self, operation: str) -> None:
        if self._bulk:
            raise TypeError(f"{operation} in an insert transaction: it may only create rows known to be new "
                            "(a COPY beside other writes is not atomic); use store.transaction()")

    def query(self, query_name: str, /, **params: Any) -> list[Row]:
        return self._store.query(query_name, **params)

    def _existing_keys(self, label: str, keys: Sequence[Any]) -> set[Any]:
        key = _key_of(label)
        rows = self._store._execute(f"UNWIND $keys AS k MATCH (n:{label} {{{key}: k}}) RETURN k", {"keys": keys})
        return {row["k"] for row in rows}

    def upsert_nodes(self, label: str, rows: Sequence[Row]) -> None:
        self._refuse_in_bulk("upsert_nodes")
        for group in _by_shape(rows):
            self._upsert_node_group(label, group)

    def create_nodes(self, label: str, rows: Sequence[Row]) -> None:
        key = _key_of(label)
        if self._bulk:
            self._copy(label, [key], _unique_by(rows, lambda r: r[key]), "")
            return
        for group in _by_shape(rows):
            self._upsert_node_group(label, group, known_new=True)

    def create_relationships(self, rel_type: str, rows: Sequence[Row], *, from_label: str | None = None,
                             to_label: str | None = None) -> None:
        spec = rel_spec(rel_type, from_label, to_label)
        if self._bulk:
            unique = _unique_by(rows, lambda r: (r["from"], r["to"]))  # COPY would store a duplicate pair twice
            self._copy(rel_type, ["from", "to"], unique, f" (from='{spec.from_label}', to='{spec.to_label}')")
            return
        for group in _by_shape(rows):
            self._upsert_relationship_group(spec, group, known_new=True)

    def _copy(self, table: str, leading: list[str], rows: Sequence[Row], options: str) -> None:
        """``COPY table FROM`` an Arrow table of `rows`: the columns in the table's order, a property no row has
        as nulls. Inside the open transaction, so a failure rolls back with the rest."""
        import pyarrow as pa

        if not rows:
            return
        columns = self._store._columns(table)
        _check_columns(table, sorted({name for row in rows for name in row} - set(leading)), columns)
        types = {name: _ARROW_TYPES.get(kind) for name, kind in columns.items()}
        unmapped = sorted(name for name, arrow_type in types.items() if arrow_type is None)
        if unmapped:  # a schema change would meet this first, in the tests
            raise TypeError(f"{table}.{unmapped[0]} has type {columns[unmapped[0]]}, which the bulk path cannot "
                            "load; map it in _ARROW_TYPES")
        arrays = {name: pa.array([row[name] for row in rows], pa.string()) for name in leading
                  if name not in columns}
        for name, kind in types.items():
            arrow_type = pa.list_(pa.string()) if kind == "list_of_string" else getattr(pa, str(kind))()
            arrays[name] = pa.array([row.get(name) for row in rows], arrow_type)
        for start in range(0, len(rows), _COPY_ROWS):
            part = pa.table({name: array.slice(start, _COPY_ROWS) for name, array in arrays.items()})
            try:
                self._store._execute(f"COPY {table} FROM $rows{options}", {"rows": part})
            finally:
                self._store._forget_prepared("COPY ")

    def _upsert_node_group(self, label: str, rows: Sequence[Row], known_new: bool = False) -> None:
        key = _key_of(label)
        columns = self._store._columns(label)
        props = [c for c in rows[0] if c != key]
        _check_columns(label, [key, *props], columns)
        create = ", ".join(f"{name}: {_cast('r.' + name, columns[name])}" for name in [key, *props])
        update = ", ".join(f"n.{name} = {_cast('r.' + name, columns[name])}" for name in props)
        for batch in chunked(rows, _BATCH):
            existing = set() if known_new else self._existing_keys(label, [r[key] for r in batch])
            new_rows = _unique_by([r for r in batch if r[key] not in existing], lambda r: r[key])
            if new_rows:
                self._store._execute(f"UNWIND $rows AS r CREATE (n:{label} {{{create}}})", {"rows": new_rows})
            old_rows = [r for r in batch if r[key] in existing]
            if old_rows and update:
                self._store._execute(
                    f"UNWIND $rows AS r MATCH (n:{label} {{{key}: r.{key}}}) SET {update}", {"rows": old_rows}
                )

    def upsert_relationships(self, rel_type: str, rows: Sequence[Row], *, from_label: str | None = None,
                             to_label: str | None = None) -> None:
        self._refuse_in_bulk("upsert_relationships")
        spec = rel_spec(rel_type, from_label, to_label)
        for group in _by_shape(rows):
            self._upsert_relationship_group(spec, group)

    def _upsert_relationship_group(self, spec: RelSpec, rows: Sequence[Row], known_new: bool = False) -> None:
        rel_type = spec.rel_type
        from_key, to_key = _KEYS[spec.from_label], _KEYS[spec.to_label]
        props = [c for c in rows[0] if c not in ("from", "to")]
        columns = self._store._columns(rel_type) if props else {}
        _check_columns(rel_type, props, columns)
        match = (f"UNWIND $rows AS r MATCH (a:{spec.from_label} {{{from_key}: r.from_}}) "
                 f"MATCH (b:{spec.to_label} {{{to_key}: r.to_}})")
        assignments = ", ".join(f"{name}: {_cast('r.' + name, columns[name])}" for name in props)
        updates = ", ".join(f"x.{name} = {_cast('r.' + name, columns[name])}" for name in props)
        for batch in chunked(rows, _BATCH):
            renamed = [{"from_": r["from"], "to_": r["to"], **{p: r[p] for p in props}} for r in batch]
            found = [] if known_new else self._store._execute(
                f"{match} MATCH (a)-[x:{rel_type}]->(b) RETURN r.from_ AS f, r.to_ AS t", {"rows": renamed}
            )
            existing = {(row["f"], row["t"]) for row in found}
            new_rows = _unique_by([r for r in renamed if (r["from_"], r["to_"]) not in existing],
                                  lambda r: (r["from_"], r["to_"]))
            if new_rows:
                body = f" {{{assignments}}}" if assignments else ""
                self._store._execute(f"{match} CREATE (a)-[:{rel_type}{body}]->(b)", {"rows": new_rows})
            old_rows = [r for r in renamed if (r["from_"], r["to_"]) in existing]
            if old_rows and updates:
                self._store._execute(f"{match} MATCH (a)-[x:{rel_type}]->(b) SET {updates}", {"rows": old_rows})

    def delete_nodes(self, label: str, keys: Sequence[str]) -> None:
        self._refuse_in_bulk("delete_nodes")
        key = _key_of(label)
        for batch in chunked(list(keys), _BATCH):  # type: ignore[arg-type]
            self._store._execute(f"UNWIND $keys AS k MATCH (n:{label} {{{key}: k}}) DETACH DELETE n",
                                 {"keys": batch})

    def delete_relationships(self, rel_type: str, pairs: Sequence[tuple[str, str]], *,
                             from_label: str | None = None, to_label: str | None = None) -> None:
        self._refuse_in_bulk("delete_relationships")
        spec = rel_spec(rel_type, from_label, to_label)
        from_key, to_key = _KEYS[spec.from_label], _KEYS[spec.to_label]
        for batch in chunked(list(pairs), _BATCH):  # type: ignore[arg-type]
            self._store._execute(
                f"UNWIND $rows AS r MATCH (a:{spec.from_label} {{{from_key}: r.f}})-[x:{rel_type}]->"
                f"(b:{spec.to_label} {{{to_key}: r.t}}) DELETE x",
                {"rows": [{"f": f, "t": t} for f, t in batch]},
            )


_COPY_ROWS = 1_000_000

_USER_ERRORS = ("parser exception", "binder exception", "catalog exception", "conversion exception",
                "overflow exception", "runtime exception", "parameter ")
_WRITE_REFUSED = ("write query inside a read-only transaction", "write operations in a read-only database")


def _out_of_pool(err: RuntimeError) -> bool:
    """Whether the engine failed for want of buffer-pool memory (LadybugDB 0.22: "Buffer manager exception: Unable
    to allocate memory! The buffer pool is full")."""
    message = str(err).lower()
    return "buffer pool is full" in message or "buffer manager exception" in message


def _user_query_error(err: RuntimeError, cypher: str) -> StoreError | InvalidQuery:
    """The engine's message, typed: a write the engine refused, bad input (syntax, binding, a value that does not
    convert, a missing parameter), or else a store failure."""
    message = str(err).strip()
    lowered = message.lower()
    if any(marker in lowered for marker in _WRITE_REFUSED):
        return QueryRefused(f"this query writes to the store, and `query` runs read-only ({message}); use "
                            f"the ingest commands to change data")
    if lowered.startswith(_USER_ERRORS) and "panic" not in lowered and "wal" not in lowered:
        return InvalidQuery(f"{message} (query: {cypher.strip()[:200]})")
    return StoreError(f"{message} (query: {cypher.strip()[:200]})")


def _durable_copy(source: Path, target: Path) -> None:
    """`source` copied to `target` through a ``.part`` file that is synced and then renamed, so that a kill
    during the copy leaves no half file under the final name."""
    part = target.with_name(target.name + ".part")
    shutil.copyfile(source, part)
    with part.open("rb+") as copied:
        os.fsync(copied.fileno())
    os.replace(part, target)
    folder = os.open(target.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def _engine_text(err: Exception) -> str:
    """The engine's message without its exception class prefix (``Storage exception: ``)."""
    return re.sub(r"^[A-Za-z ]+exception: ", "", str(err).strip())


def _size_text(size: int) -> str:
    return f"{size:,} bytes" if size < 1 << 20 else f"{size / (1 << 20):,.1f} MB"


def _key_of(label: str) -> str:
    """Labels come only from the data model (base.NODE_SPECS), never from user text."""
    if label not in _KEYS:
        raise StoreError(f"unknown label {label!r}; the data model has {sorted(_KEYS)}")
    return _KEYS[label]


def _identifiers(table: str, names: Sequence[str]) -> list[str]:
    """Property names read from the engine's catalogue, checked before they are placed in Cypher text."""
    bad = [name for name in names if not _IDENTIFIER.fullmatch(name)]
    if bad:
        raise StoreError(f"{table} has properties that are not plain identifiers: {bad}")
    return list(names)


def _by_shape(rows: Sequence[Row]) -> list[list[Row]]:
    """Rows with different sets of properties become separate statements, so that no property is dropped."""
    groups: dict[tuple[str, ...], list[Row]] = {}
    for row in rows:
        groups.setdefault(tuple(row), []).append(row)
    return list(groups.values())


def _cast(expression: str, column_type: str) -> str:
    """Explicit casts, because a parameter column that is null in every row is typed STRING by the binder."""
    return f"CAST({expression} AS {column_type})"


def _unique_by(rows: Sequence[Row], key: Any) -> list[Row]:
    """Within one statement a key may appear once; the last row for a key wins, as a sequence of upserts would."""
    return list({key(r): r for r in rows}.values())


def _check_columns(label: str, names: Sequence[str], columns: Mapping[str, str]) -> None:
    unknown = [n for n in names if n not in columns]
    if unknown:
        raise StoreError(f"{label} has no properties {unknown}; is a migration missing? run `lexgraph doctor`")
