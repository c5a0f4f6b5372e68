"""`Session`: what every facade of a `LexGraph` shares, opened lazily and once per handle: the store, the
bundled catalogue, the search index and the embedder, and the reads cached between operations (the store's
catalogue for questions, the stale parts of the index) that a write must forget.

The facades (`lexgraph.api`) each own one job; they share this one session so that a search after an ingest
reads the new catalogue, an index build closes the index a search opened, and a model loads once per handle
whichever facade asked for it first. What this module imports at the top is light: the engines load when a
method first needs them.
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any

from lexgraph.errors import AmbiguousLaw, LawNotFound
from lexgraph.model import ANY_WORDING, AsOf
from lexgraph.statutes.catalog import Catalog, LawEntry
from lexgraph.store import GraphStore, open_store
from lexgraph.store.base import Row
from lexgraph.store.rows import Query, R

if TYPE_CHECKING:
    from lexgraph.index.embed import Embedder
    from lexgraph.index.query import SearchIndex
    from lexgraph.read.revisions import StoreRevisions
    from lexgraph.retrieve.search import StalePart

__all__ = ["Session", "StoreOnFirstWrite", "wordings"]


def wordings(as_of: date | None) -> AsOf:
    """The wordings a method over the graph's wordings reads: those in force on `as_of`, or, with no day asked
    (None), every wording (`ANY_WORDING`, what the index and graph readers take for "no date filter")."""
    return ANY_WORDING if as_of is None else as_of


class Session:
    """One store and what is opened over it, shared by a handle's facades. Each expensive part (the catalogue, the
    index, the embedder's model) is made on first use and kept; `forget_reads` drops what a write makes stale."""

    def __init__(self, store: GraphStore, catalog: Catalog | None = None, location: str | None = None) -> None:
        self.store = store
        self.location = location  # where it was opened (`LexGraph.open`), for files kept beside the store
        self._catalog = catalog
        self.question_context: tuple[Catalog, StoreRevisions] | None = None
        self.stale_parts: tuple[StalePart, ...] | None = None  # read once per handle, again after a write
        self._search_index: SearchIndex | None = None
        self._embedder: Embedder | None = None

    @property
    def catalog(self) -> Catalog:
        """The bundled catalogue of law names (titles, 略称, numbers, ids), read once per handle."""
        if self._catalog is None:
            self._catalog = Catalog.bundled()
        return self._catalog

    def forget_reads(self, *, laws: bool = True) -> None:
        """A write changes what the cached reads describe: the stale parts of the index always, and with `laws`
        the stored laws questions resolve against."""
        if laws:
            self.question_context = None
        self.stale_parts = None

    def catalog_entry(self, name: str) -> LawEntry:
        """The catalogue's one law for `name`; raises `LawNotFound` or `AmbiguousLaw` naming the option."""
        entries = self.catalog.lookup(name)
        if not entries:
            raise LawNotFound(f"--law {name!r}: no such law in the catalogue; give a title, a law number "
                              "(平成三年法律第九十号), an abbreviation or an e-Gov law id")
        if len(entries) > 1 and entries[0].title != name.strip() and entries[0].law_id != name.strip():
            options = ", ".join(f"{e.title} ({e.law_id})" for e in entries[:5])
            raise AmbiguousLaw(f"--law {name!r} could mean {options}; give the law id instead")
        return entries[0]

    def search_index(self) -> SearchIndex:
        """The index, opened once per handle: opening reads every part's filter columns and maps its vectors."""
        from lexgraph.index.build import open_index

        if self._search_index is None:
            self._search_index = open_index(self.store)
        return self._search_index

    def drop_search_index(self) -> None:
        """Close the index if it is open: its files changed (or the handle closes), the next search reopens it."""
        if self._search_index is not None:
            self._search_index.close()
            self._search_index = None

    def default_embedder(self) -> Embedder:
        """The embedder the store's index was built with (the int8-passage model of a whole-archive store), else
        the default; made once per handle: its model loads on first use and stays loaded."""
        from lexgraph.index.backends import index_backend
        from lexgraph.index.embed import embedder_choice_of, get_embedder

        if self._embedder is None:
            recorded = index_backend(self.store).recorded_parts(self.store, check_files=False)[1]
            self._embedder = get_embedder(embedder_choice_of(recorded))
        return self._embedder

    def close(self) -> None:
        """Close the search index and the store."""
        self.drop_search_index()
        self.store.close()


class StoreOnFirstWrite:
    """A store not yet created (`LexGraph.created_on_first_write`): the named queries a sync reads before its first
    write (which laws and versions are stored, which laws were synced) answer no rows, as a new store would; any
    other use opens the store at `location`, creating it, migrates it, and is passed on to it from then on."""

    _EMPTY_UNTIL_WRITTEN = frozenset({"law_versions_for_laws", "laws_by_name", "law_by_id", "laws_synced"})

    def __init__(self, location: str) -> None:
        self._location = location
        self._store: GraphStore | None = None

    def query(self, query_name: str, /, **params: Any) -> list[Row]:
        if self._store is None and query_name in self._EMPTY_UNTIL_WRITTEN:
            return []
        return self._opened().query(query_name, **params)

    def rows(self, query: Query[R], /, **params: Any) -> list[R]:
        """`query`'s rows typed (`GraphStore.rows`), with the same answer before the first write."""
        if self._store is None and query.name in self._EMPTY_UNTIL_WRITTEN:
            return []
        return self._opened().rows(query, **params)

    def close(self) -> None:
        if self._store is not None:
            self._store.close()

    def _opened(self) -> GraphStore:
        if self._store is None:
            store = open_store(self._location)
            store.migrate()
            self._store = store
        return self._store

    def __getattr__(self, name: str) -> Any:
        return getattr(self._opened(), name)
