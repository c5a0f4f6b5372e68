"""`Storing`: the store itself: its counts, its health, read-only Cypher, its live schema and a copy into another
store. It exists so that what is asked of the store as a database, not of the laws in it, has one home."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lexgraph.api.session import Session
from lexgraph.store import open_store
from lexgraph.store.base import GraphStore, Row, StoreCounts
from lexgraph.store.copy import DEFAULT_BATCH

if TYPE_CHECKING:
    from lexgraph.store.copy import CopySummary, IndexFromCache
    from lexgraph.store.doctor import DoctorReport
    from lexgraph.store.schema import SchemaReference

__all__ = ["Storing"]


class Storing:
    """Counts, the doctor's checks, user Cypher, the schema reference, copying."""

    def __init__(self, session: Session) -> None:
        self._session = session

    def stats(self) -> StoreCounts:
        """Node counts per label and relationship counts per type."""
        return self._session.store.counts()

    def doctor(self) -> DoctorReport:
        """Migrations, counts, consistency and the search indexes checked, each finding with its fix; `ok` is
        False when any check fails. Raises `StoreError` when the store cannot be read."""
        from lexgraph.index.health import index_finding
        from lexgraph.store.doctor import examine

        return examine(self._session.store, checks=(index_finding,))

    def query(self, cypher: str, params: Mapping[str, Any] | None = None, *, limit: int | None = None) -> list[Row]:
        """User Cypher, always read-only: the rows, as dicts (at most `limit`, the rest never read, so that a query
        over the whole store costs the memory of `limit` rows). Raises `QueryRefused` for a query that writes
        and `StoreError` for one the store rejects."""
        return self._session.store.run_read_only(cypher, params, limit=limit)

    def schema(self) -> SchemaReference:
        """The property reference read from this store's live schema: every label, relationship type and property,
        with its type, meaning and an example (`lexgraph.store.schema`)."""
        from lexgraph.store.schema import reference

        return reference(self._session.store)

    def copy_to(self, location: str | Path, *, batch: int = DEFAULT_BATCH,
                on_batch: Callable[[str, int], None] | None = None) -> CopySummary:
        """Copy this whole graph into another store (e.g. bolt://… for Neo4j Browser); idempotent. Returns the
        nodes and relationships copied, and how to index the copy from this store's cached vectors when this store
        has a search index (the copy carries none); raises `StoreUnavailable` when the target cannot be opened."""
        from lexgraph.store.copy import copy_store

        target = open_store(str(location))
        try:
            target.migrate()
            summary = copy_store(self._session.store, target, batch=batch, on_batch=on_batch)
            summary.index = self._index_from_cache(target.location)
            summary.anchors = self._copy_anchors(target)
            return summary
        finally:
            target.close()

    def _copy_anchors(self, target: GraphStore) -> dict[str, int]:
        """The anchor field's files beside this embedded store's index, kept in a Neo4j target's database
        (`index.neo4j_files`), so that the copy's learned search reads the same anchors once it is indexed; the
        name and size of each file copied. Each file is read by the same loader a search uses before it is sent
        (a damaged one is refused here, naming the fix, not carried over). Nothing for another kind of target or a
        source without them."""
        from lexgraph.index.anchors import ANCHOR_FILE, ANCHORS_FORMAT, FIELD_FILE, FIELD_FORMAT, read_anchors
        from lexgraph.index.backends import index_backend
        from lexgraph.index.neo4j_files import put_file
        from lexgraph.retrieve.anchor_field import read_field

        store = self._session.store
        if store.index_kind != "files" or target.index_kind == "files":
            return {}
        directory = Path(index_backend(store).location(store))
        copied: dict[str, int] = {}
        saved = read_field(directory) if (directory / FIELD_FILE).is_file() else None
        if saved is not None:
            graph = saved[1].get("graph")
            put_file(target, directory / FIELD_FILE, name=FIELD_FILE, format=FIELD_FORMAT,
                     graph=str(graph) if graph is not None else None)
            copied[FIELD_FILE] = (directory / FIELD_FILE).stat().st_size
        if (directory / ANCHOR_FILE).is_file() and read_anchors(directory) is not None:
            put_file(target, directory / ANCHOR_FILE, name=ANCHOR_FILE, format=ANCHORS_FORMAT)
            copied[ANCHOR_FILE] = (directory / ANCHOR_FILE).stat().st_size
        return copied

    def _index_from_cache(self, target: str) -> IndexFromCache | None:
        """How the copy at `target` gets this store's search index from its cached vectors; None without an index
        (or one built by a model folder, which only its user can name)."""
        from lexgraph.index.backends import index_backend
        from lexgraph.index.build import cache_directory
        from lexgraph.index.embed import embedder_choice_of
        from lexgraph.store.copy import IndexFromCache

        store = self._session.store
        recorded = index_backend(store).recorded_parts(store, check_files=False)[1]
        choice = embedder_choice_of(recorded)
        if choice is None:
            return None
        return IndexFromCache(target=target, embedder=choice, cache=str(cache_directory(store).resolve()))
