"""`Storing`: the store itself: its counts, its health, read-only Cypher, its live schema and a copy into another
store. It exists so that what is asked of the store as a database, not of the laws in it, has one home."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lexgraph.api.session import Session
from lexgraph.store import open_store
from lexgraph.store.base import Row, StoreCounts
from lexgraph.store.copy import DEFAULT_BATCH

if TYPE_CHECKING:
    from lexgraph.store.copy import CopySummary
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
        nodes and relationships copied; raises `StoreUnavailable` when the target cannot be opened."""
        from lexgraph.store.copy import copy_store

        target = open_store(str(location))
        try:
            target.migrate()
            return copy_store(self._session.store, target, batch=batch, on_batch=on_batch)
        finally:
            target.close()
