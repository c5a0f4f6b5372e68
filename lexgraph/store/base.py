"""The GraphStore contract that every backend fulfils.

The rest of lexgraph talks to the graph only through this interface: named Cypher queries (files under
``lexgraph/cypher``), batched idempotent upserts, deletes by key, transactions and read-only user queries. The
embedded (LadybugDB) and Neo4j backends differ in how they write fast, not in what they mean; one contract test
suite runs against both.
"""

from __future__ import annotations

import functools
import hashlib
import re
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from importlib import resources
from typing import Any

from lexgraph import errors
from lexgraph.errors import StoreError, UnknownQuery
from lexgraph.store.migration_checksums import WHOLE_TEXT
from lexgraph.store.rows import Query, R

Row = dict[str, Any]


_SURROGATE = re.compile("[\ud800-\udfff]")


def unencodable(params: Mapping[str, Any] | None) -> errors.InputError | None:
    """The error for a parameter whose text holds a lone surrogate (half a UTF-16 pair: a Python string may hold
    one, no encoding can), naming the parameter and where: neither engine's driver can send it (LadybugDB's fails
    with a pybind11 cast error, Neo4j's with UnicodeEncodeError). None when every text is whole. Asked only after
    the driver failed, so that a query pays nothing for it."""

    def found(value: Any, where: str) -> str | None:
        if isinstance(value, str):
            lone = _SURROGATE.search(value)
            return f"{where} holds a lone surrogate U+{ord(lone[0]):04X} at character {lone.start() + 1}" \
                if lone else None
        if isinstance(value, Mapping):
            return next(filter(None, (found(v, f"{where}.{k}") for k, v in value.items())), None)
        if isinstance(value, (list, tuple)):
            return next(filter(None, (found(v, f"{where}[{i}]") for i, v in enumerate(value))), None)
        return None

    for name, value in (params or {}).items():
        problem = found(value, f"${name}")
        if problem is not None:
            return errors.InputError(f"{problem}: it is not Unicode text, and the store cannot take it; give the "
                                     "value in UTF-8 (a JSON escape such as \\ud800 needs its pair)")
    return None


@dataclass(frozen=True)
class NodeSpec:
    """How a label is keyed and which properties it carries, so that backends can build typed tables."""

    label: str
    key: str


@dataclass(frozen=True)
class RelSpec:
    rel_type: str
    from_label: str
    to_label: str


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    cypher: str
    dialect: str = ""  # the folder it was read from: which history of checksums it has

    @property
    def checksum(self) -> str:
        """A hash of the statements alone, comment lines dropped and each run of whitespace made one space: a
        comment rewritten or a statement re-indented changes nothing, any change to a statement changes it (a
        migration already applied must never change what it does; `doctor` reports one that did)."""
        canonical = ";\n".join(" ".join(statement.split()) for statement in self.statements)
        return hashlib.sha256(canonical.encode()).hexdigest()[:16]

    def unchanged_since(self, recorded: str) -> bool:
        """Whether the checksum a store recorded when it applied this migration says its statements are the same:
        this checksum, or the one the file had when a checksum hashed its whole text, comments included (what a
        store migrated before then recorded), as long as the statements are still those of that text."""
        if recorded == self.checksum:
            return True
        return WHOLE_TEXT.get(self.dialect, {}).get(self.version) == (recorded, self.checksum)

    @property
    def statements(self) -> list[str]:
        """Statements are separated by ``;`` at line ends; comments (``//``) are dropped."""
        lines = [line for line in self.cypher.splitlines() if not line.strip().startswith("//")]
        return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


@dataclass(frozen=True)
class AppliedMigration:
    version: int
    name: str
    checksum: str
    applied_at: str


@dataclass(frozen=True)
class StoreCounts:
    nodes: Mapping[str, int]
    relationships: Mapping[str, int]

    def to_json(self) -> dict[str, Any]:
        return {"nodes": dict(self.nodes), "relationships": dict(self.relationships)}


NODE_SPECS: tuple[NodeSpec, ...] = (
    NodeSpec("Law", "law_id"),
    NodeSpec("LawVersion", "revision_id"),
    NodeSpec("Provision", "uid"),
    NodeSpec("Precedent", "uid"),
    NodeSpec("Document", "uid"),
    NodeSpec("Chunk", "uid"),
    NodeSpec("Question", "uid"),
    NodeSpec("Answer", "uid"),
    NodeSpec("Knowledge", "uid"),
)
REL_SPECS: tuple[RelSpec, ...] = (
    RelSpec("HAS_VERSION", "Law", "LawVersion"),
    RelSpec("NEXT", "LawVersion", "LawVersion"),
    RelSpec("CONTAINS", "LawVersion", "Provision"),
    RelSpec("HAS_PART", "Provision", "Provision"),
    RelSpec("CITES", "Provision", "Provision"),
    RelSpec("PART_OF", "Chunk", "Precedent"),
    RelSpec("PART_OF", "Chunk", "Document"),
    RelSpec("CITES", "Chunk", "Provision"),
    RelSpec("CITES", "Chunk", "Precedent"),
    RelSpec("REFERS_TO", "Precedent", "Provision"),
    RelSpec("CITES_ARTICLE", "Precedent", "Provision"),
    RelSpec("CITES_ARTICLE", "Document", "Provision"),
    RelSpec("ANSWERED_BY", "Question", "Answer"),
    RelSpec("CITES", "Answer", "Provision"),
    RelSpec("CITES", "Answer", "Precedent"),
    RelSpec("CITES", "Answer", "Chunk"),
    RelSpec("CITES", "Knowledge", "Provision"),
    RelSpec("CITES", "Provision", "Law"),
    RelSpec("CITES", "Chunk", "Law"),
)
REL_TYPES: tuple[str, ...] = tuple(dict.fromkeys(spec.rel_type for spec in REL_SPECS))


def rel_spec(rel_type: str, from_label: str | None = None, to_label: str | None = None) -> RelSpec:
    """The (from, to) labels a relationship type joins. A type may join several pairs (CITES leaves clauses and
    chunks); the caller then names the labels. Types and labels come only from the data model, never from user
    text, so they are safe to place in Cypher."""
    candidates = [spec for spec in REL_SPECS if spec.rel_type == rel_type
                  and from_label in (None, spec.from_label) and to_label in (None, spec.to_label)]
    if not candidates:
        known = ", ".join(f"({s.from_label})-[:{s.rel_type}]->({s.to_label})" for s in REL_SPECS)
        raise StoreError(f"unknown relationship ({from_label or ''})-[:{rel_type}]->({to_label or ''}); "
                         f"the data model has {known}")
    if len(candidates) > 1:
        pairs = ", ".join(f"{s.from_label}→{s.to_label}" for s in candidates)
        raise StoreError(f"{rel_type} joins {pairs}; pass from_label and to_label")
    return candidates[0]


_MIGRATION_NAME = re.compile(r"^V(\d{3,})__([A-Za-z0-9_]+)\.cypher$")


def load_migrations(backend: str) -> list[Migration]:
    """Migrations live in ``lexgraph/migrations/<backend>/V001__name.cypher`` (neo4j-migrations naming); the two
    backends need different DDL (typed tables vs constraints) but share version numbers and names."""
    folder = resources.files("lexgraph") / "migrations" / backend
    found: list[Migration] = []
    for entry in folder.iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append(Migration(int(match.group(1)), match.group(2), entry.read_text(encoding="utf-8"), backend))
    found.sort(key=lambda m: m.version)
    return found


@functools.lru_cache(maxsize=512)
def load_named_query(name: str, backend: str) -> str:
    """A backend-specific file (``cypher/<backend>/<name>.cypher``) wins over the shared one. Read once per
    process: a search runs several named queries, and reading a package resource cost about a millisecond each."""
    if not re.fullmatch(r"[a-z0-9_]+", name):
        raise UnknownQuery(f"query name {name!r} is not a valid name (lowercase letters, digits, _)")
    root = resources.files("lexgraph") / "cypher"
    for candidate in (root / backend / f"{name}.cypher", root / f"{name}.cypher"):
        if candidate.is_file():
            return candidate.read_text(encoding="utf-8")
    raise UnknownQuery(f"no Cypher file for query {name!r} in lexgraph/cypher/ (or cypher/{backend}/)")


class Transaction(ABC):
    """Writes inside one atomic unit. Nothing is visible to others, and nothing persists, until commit."""

    @abstractmethod
    def query(self, query_name: str, /, **params: Any) -> list[Row]:
        """Run a named query inside this transaction."""

    def rows(self, query: Query[R], /, **params: Any) -> list[R]:
        """Run a named query inside this transaction; its rows as the query's row type (`lexgraph.store.rows`)."""
        return query.typed(self.query(query.name, **params))

    @abstractmethod
    def upsert_nodes(self, label: str, rows: Sequence[Row]) -> None:
        """Create or update nodes keyed by the label's key; re-running with the same rows changes nothing."""

    @abstractmethod
    def upsert_relationships(self, rel_type: str, rows: Sequence[Row], *, from_label: str | None = None,
                             to_label: str | None = None) -> None:
        """Rows carry ``from`` and ``to`` keys plus properties; at most one relationship per pair and type. The
        labels are needed only for a type that joins several pairs of labels (see `rel_spec`)."""

    def create_nodes(self, label: str, rows: Sequence[Row]) -> None:
        """Insert nodes the caller has already checked are absent (it diffed against the store in this writer
        session). Backends may skip the existence check that makes `upsert_nodes` safe for any input."""
        self.upsert_nodes(label, rows)

    def create_relationships(self, rel_type: str, rows: Sequence[Row], *, from_label: str | None = None,
                             to_label: str | None = None) -> None:
        """Insert relationships the caller has already checked are absent; see `create_nodes`."""
        self.upsert_relationships(rel_type, rows, from_label=from_label, to_label=to_label)

    @abstractmethod
    def delete_nodes(self, label: str, keys: Sequence[str]) -> None:
        """Delete nodes and every relationship attached to them."""

    @abstractmethod
    def delete_relationships(self, rel_type: str, pairs: Sequence[tuple[str, str]], *,
                             from_label: str | None = None, to_label: str | None = None) -> None:
        """Delete the relationships of that type between the given (from key, to key) pairs."""


class GraphStore(ABC):
    """A graph database holding lexgraph's data model, opened on a location (a directory or a bolt URI)."""

    backend: str = "abstract"
    #: The Cypher this backend speaks: the folder of its own named queries (``cypher/<dialect>/``) and migrations.
    dialect: str = "abstract"
    #: How its search index is kept (`lexgraph.index.backends`): ``files`` beside the store, or ``neo4j``, the
    #: database's own indexes. The index package reads this and never asks which backend a store is.
    index_kind: str = "abstract"
    location: str = ""
    #: What opening the store did to it that its user must hear of (a torn write-ahead log set aside, a log a
    #: killed writer left replayed by a read-only open), one sentence each. The store prints nothing itself; the
    #: CLI says these on stderr and `doctor` reports them.
    opening_notes: tuple[str, ...] = ()
    #: True when the store was opened read-only around a torn write-ahead log it may not change: it reads every
    #: committed transaction, and a read-write open (`doctor --repair`) would set the torn log aside.
    torn_log: bool = False

    def set_aside_files(self) -> list[str]:
        """Files an earlier open moved beside the store rather than delete (a torn write-ahead log's tail), for
        `doctor` to name; none for a backend that keeps no files of its own."""
        return []

    # -- schema -------------------------------------------------------------------------------------------------
    def migrations(self) -> list[Migration]:
        return load_migrations(self.dialect)

    @abstractmethod
    def applied_migrations(self) -> list[AppliedMigration]:
        """The migration history recorded in the store itself."""

    def pending_migrations(self) -> list[Migration]:
        done = {m.version for m in self.applied_migrations()}
        return [m for m in self.migrations() if m.version not in done]

    def changed_migrations(self) -> list[tuple[AppliedMigration, Migration]]:
        """Applied migrations whose file has changed since: a sign of an edited migration (doctor reports it)."""
        files = {m.version: m for m in self.migrations()}
        return [
            (applied, files[applied.version])
            for applied in self.applied_migrations()
            if applied.version in files and not files[applied.version].unchanged_since(applied.checksum)
        ]

    @abstractmethod
    def migrate(self) -> list[Migration]:
        """Apply pending migrations in order, each with its history record; return what was applied."""

    # -- reading and writing ------------------------------------------------------------------------------------
    @abstractmethod
    def query(self, query_name: str, /, **params: Any) -> list[Row]:
        """Run a named read query from ``lexgraph/cypher``; its rows as dicts (`rows` types them)."""

    def rows(self, query: Query[R], /, **params: Any) -> list[R]:
        """Run a named query; its rows as the query's row type (`lexgraph.store.rows`), whose fields mypy checks.
        Built from `query`'s dicts, so a backend (or a test) that wraps `query` sees every named query."""
        return query.typed(self.query(query.name, **params))

    @abstractmethod
    def transaction(self) -> AbstractContextManager[Transaction]:
        """An atomic write unit: committed on normal exit, rolled back on any exception."""

    def insert_transaction(self) -> AbstractContextManager[Transaction]:
        """An atomic write unit that only inserts nodes and relationships known to be absent (`create_nodes`,
        `create_relationships`; reads are allowed). A backend may load these in bulk: the embedded store uses
        ``COPY FROM``, which LadybugDB keeps atomic only in a transaction that writes nothing else, so it refuses
        every other write here. An ordinary `transaction` never takes that path. Neo4j needs no such split."""
        return self.transaction()

    @abstractmethod
    def run_read_only(self, cypher: str, params: Mapping[str, Any] | None = None, *,
                      limit: int | None = None) -> list[Row]:
        """Run user-supplied Cypher so that it cannot write; a write raises `QueryRefused`. With `limit`, at
        most that many rows are read from the engine (streamed, the rest never fetched): a query over a whole
        store then costs the memory of `limit` rows, not of its answer."""

    @abstractmethod
    def counts(self) -> StoreCounts:
        """Node counts per label and relationship counts per type."""

    # -- reading the whole graph out (`lexgraph copy`) ----------------------------------------------------------
    def export_nodes(self, label: str, batch: int) -> Iterator[list[Row]]:
        """Every `label` node as a dict of its properties, `batch` at a time, in no promised order: what
        `lexgraph.store.copy` reads. Labels come from `NODE_SPECS` only.

        This default walks the label in key order, a page at a time (``WHERE key > $after ORDER BY key LIMIT``).
        Where the key is indexed in order, as Neo4j's uniqueness constraints are, each page is a range seek and
        costs the same. A store whose keys are hashed (LadybugDB) scans and sorts the whole label for every page,
        which is quadratic in its size: such a store overrides this with a bulk export."""
        key = _key_of(label)
        for rows in _keyset_pages(self, label, key, batch, "n AS node"):
            yield [_properties(row["node"]) for row in rows]

    def export_relationships(self, spec: RelSpec, batch: int) -> Iterator[list[Row]]:
        """Every relationship of `spec` as ``{"from": key, "to": key, **properties}``, in batches of those
        leaving `batch` source nodes (so a batch may hold more or fewer rows). See `export_nodes`."""
        from_key, to_key = _key_of(spec.from_label), _key_of(spec.to_label)
        for rows in _keyset_pages(self, spec.from_label, from_key, batch, f"n.{from_key} AS key"):
            found = self.run_read_only(
                f"UNWIND $keys AS k MATCH (a:{spec.from_label} {{{from_key}: k}})-[r:{spec.rel_type}]->"
                f"(b:{spec.to_label}) RETURN a.{from_key} AS from_key, b.{to_key} AS to_key, r AS rel",
                {"keys": [row["key"] for row in rows]},
            )
            if found:
                yield [{"from": row["from_key"], "to": row["to_key"], **_properties(row["rel"])} for row in found]

    @abstractmethod
    def close(self) -> None: ...

    def __enter__(self) -> GraphStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _key_of(label: str) -> str:
    for spec in NODE_SPECS:
        if spec.label == label:
            return spec.key
    raise StoreError(f"unknown label {label!r}; the data model has {[s.label for s in NODE_SPECS]}")


def _keyset_pages(store: GraphStore, label: str, key: str, batch: int, returns: str) -> Iterator[list[Row]]:
    """Rows of `label`'s nodes in key order, `batch` at a time. `returns` is the RETURN expression, which must
    yield the node's key as ``key`` or the node as ``node``."""
    if batch <= 0:
        raise errors.ConfigurationError("batch must be positive")
    after: Any = None
    while True:
        where = f"WHERE n.{key} > $after " if after is not None else ""
        rows = store.run_read_only(
            f"MATCH (n:{label}) {where}RETURN {returns} ORDER BY n.{key} LIMIT $limit",
            {"after": after, "limit": batch} if after is not None else {"limit": batch},
        )
        if not rows:
            return
        yield rows
        last = rows[-1]
        after = last["key"] if "key" in last else _properties(last["node"])[key]
        if len(rows) < batch:
            return


def _properties(value: Any) -> Row:
    """A node or relationship returned by `run_read_only` as a plain property dict: both backends return them as
    dicts, with their own fields (``_ID``, ``_LABEL``, LadybugDB's ``_id`` …) under names that start with ``_``."""
    return {k: v for k, v in dict(value).items() if not k.startswith("_")}


def chunked(rows: Sequence[Row], size: int) -> Iterator[Sequence[Row]]:
    for start in range(0, len(rows), size):
        yield rows[start : start + size]
