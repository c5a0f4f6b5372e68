"""Where a store's search index lives and how it is refreshed, by the kind of index the store declares
(`GraphStore.index_kind`): `index.build` asks the store's backend here and never which database it is on.

A backend of the index (`IndexBackend`) answers five questions: where the index is (for `status` and messages),
where embeddings are cached, how to open it for searching, what each part was built from, and how to write the
parts a refresh built. Adding a store backend with its own kind of index is one module implementing it and one
line in `BACKENDS` (docs/architecture.md, "Adding a kind of thing").
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from lexgraph.errors import ConfigurationError
from lexgraph.index.embed import Embedder, EmbeddingCache
from lexgraph.index.parts import IndexProgress, IndexSummary
from lexgraph.index.query import SearchIndex
from lexgraph.registry import lazy_table
from lexgraph.store.base import GraphStore

#: part → (fingerprint, rows), the embedder's name, and a problem that makes the whole index unusable.
RecordedParts = tuple[dict[str, tuple[str, int]], str | None, str | None]


class IndexBackend(Protocol):
    """One kind of search index (files beside an embedded store, a server's own indexes)."""

    def location(self, store: GraphStore) -> str:
        """Where the index is, as `lexgraph index --status` shows it."""
        ...

    def cache_directory(self, store: GraphStore) -> Path:
        """Where the embedding cache lives when ``LEXGRAPH_CACHE_DIR`` does not say."""
        ...

    def open(self, store: GraphStore) -> SearchIndex:
        """The index for searching; `IndexUnavailable` (with the command that builds it) when there is none."""
        ...

    def recorded_parts(self, store: GraphStore, *, check_files: bool = True) -> RecordedParts:
        """What each part of the index was built from; with `check_files`, a part whose files are gone or short
        counts as not built (what `index --status`, `doctor` and a refresh need; a search trusts the record, since
        reading 8,502 parts' file headers cost the whole archive's first search seconds)."""
        ...

    def recorded_suppl_vectors(self, store: GraphStore) -> bool | None:
        """Whether the index was built with vectors of 附則 clauses (`units.has_vector`); None when there is no
        index. An index built before this was recorded has them."""
        ...

    def refresh(self, store: GraphStore, embedder: Embedder, cache: EmbeddingCache, current: dict[str, str],
                to_build: Sequence[str], orphaned: Sequence[str], *, rebuild: bool, full_rebuild: bool,
                summary: IndexSummary, progress: IndexProgress | None, suppl_vectors: bool = False) -> None:
        """Build ``to_build`` (fingerprints in ``current``) and drop ``orphaned``; ``full_rebuild``: keep no other
        part. ``suppl_vectors``: 附則 clauses get vectors too, and the index records that it has them."""
        ...


#: index kind → "module:class" (imported when first used: the Neo4j one needs no tantivy, and the other way round).
BACKENDS = lazy_table("index kind", {
    "files": "lexgraph.index.local_backend:FilesIndexBackend",
    "neo4j": "lexgraph.index.neo4j_index:Neo4jIndexBackend",
})


def index_backend(store: GraphStore) -> IndexBackend:
    """The backend of the index that ``store`` declares."""
    if store.index_kind not in BACKENDS:
        raise ConfigurationError(f"{type(store).__name__} declares index kind {store.index_kind!r}, which lexgraph "
                                 f"does not know; known: {', '.join(sorted(BACKENDS))} (lexgraph/index/backends.py)")
    backend: IndexBackend = BACKENDS[store.index_kind].load()()
    return backend
