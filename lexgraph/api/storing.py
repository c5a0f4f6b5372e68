"""`Storing`: the store itself: its counts, its health, read-only Cypher, its live schema and a copy into another
store. It exists so that what is asked of the store as a database, not of the laws in it, has one home."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
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
        """Migrations, counts, consistency, the search indexes and the anchor field's files (beside an embedded
        store's index, or kept in a Neo4j store's database) checked, each finding with its fix; `ok` is False when
        any check fails. Raises `StoreError` when the store cannot be read."""
        from lexgraph.index.health import index_finding
        from lexgraph.retrieve.anchor_health import anchor_field_finding
        from lexgraph.store.doctor import examine

        return examine(self._session.store, checks=(index_finding, anchor_field_finding))

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
        """The anchor field's files of this store carried into the target, so that the copy's learned search reads
        the same anchors once it is indexed: from an embedded store's index folder or a Neo4j store's database
        (`index.neo4j_files`, each file fetched and checked against its record's size and SHA-256) into the
        other's. Each file is read by the same loader a search uses before it is written (a damaged one is
        refused here, naming the fix, not carried over), and a file written into an embedded target's index folder
        is renamed into place only once its bytes' SHA-256 is the source's. Returns the name and size of each file
        copied; nothing for a source without them."""
        import tempfile

        from lexgraph.index.backends import index_backend
        from lexgraph.index.neo4j_files import fetch_into, stored_files

        store = self._session.store
        with tempfile.TemporaryDirectory(prefix="lexgraph-anchors-") as scratch:
            if store.index_kind == "files":
                folder = Path(index_backend(store).location(store))
            else:
                kept = sorted(stored_files(store).values(), key=lambda record: record.name)
                if not kept:
                    return {}
                folder = Path(scratch)
                fetch_into(store, kept, folder)
            files = _readable_anchor_files(folder)
            if not files:
                return {}
            if target.index_kind == "files":
                _place_anchor_files(folder, files, Path(index_backend(target).location(target)))
            else:
                from lexgraph.index.neo4j_files import FORMATS, put_file

                for name, graph in files.items():
                    put_file(target, folder / name, name=name, format=FORMATS[name], graph=graph)
            return {name: (folder / name).stat().st_size for name in files}

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


def _readable_anchor_files(folder: Path) -> dict[str, str | None]:
    """The anchor field's files in `folder` that a search can read (each read by its loader first, through
    `anchor_file_facts`: a damaged one raises `InputError` naming the fix), by name, with the digest of the graph
    the statutes' field was built from."""
    from lexgraph.index.anchors import ANCHOR_FILE, FIELD_FILE
    from lexgraph.retrieve.anchor_field import anchor_file_facts

    files: dict[str, str | None] = {}
    for name in (FIELD_FILE, ANCHOR_FILE):
        if (folder / name).is_file() and (facts := anchor_file_facts(folder, name)) is not None:
            files[name] = facts[1]
    return files


def _place_anchor_files(folder: Path, names: Iterable[str], directory: Path) -> None:
    """Copy the files `names` from `folder` into an embedded store's index folder `directory`, under its index
    lock (an index build writes there too): each written in place of the file there (`replaced`), and renamed
    into place only when the bytes written have the source's SHA-256, so that the folder holds the file before or
    the source's, never part of one."""
    import hashlib

    from lexgraph.documents.datafiles import replaced
    from lexgraph.errors import StoreError
    from lexgraph.index.local import index_lock
    from lexgraph.index.neo4j_files import file_sha256

    with index_lock(directory):
        for name in names:
            want = file_sha256(folder / name)
            with replaced(directory / name) as out, open(folder / name, "rb") as source:
                digest = hashlib.sha256()
                while block := source.read(1 << 22):
                    digest.update(block)
                    out.write(block)
                if digest.hexdigest() != want:
                    raise StoreError(f"{directory / name}: the copy's bytes are not the source's (their SHA-256 "
                                     "differs); run `lexgraph copy` again")
