"""The embedded store's index kind, ``files``: tantivy and vector files beside the store (`local`), the
embedding cache in the store's own ``cache/`` folder."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from pathlib import Path

from lexgraph.errors import IndexUnavailable
from lexgraph.index import local
from lexgraph.index.backends import RecordedParts
from lexgraph.index.embed import Embedder, EmbeddingCache
from lexgraph.index.parts import IndexProgress, IndexSummary, build_part
from lexgraph.index.query import SearchIndex
from lexgraph.index.tokenize import TOKENIZER_VERSION
from lexgraph.index.units import law_titles
from lexgraph.store.base import GraphStore


class FilesIndexBackend:
    """`index.backends.IndexBackend` for a store whose index is files in its own directory."""

    def location(self, store: GraphStore) -> str:
        return str(local.index_directory(store.location))

    def cache_directory(self, store: GraphStore) -> Path:
        return Path(os.fspath(store.location)) / "cache"

    def open(self, store: GraphStore) -> SearchIndex:
        return local.LocalIndex(local.index_directory(store.location))

    def recorded_parts(self, store: GraphStore, *, check_files: bool = True) -> RecordedParts:
        directory = local.index_directory(store.location)
        try:
            manifest = local.Manifest.read(directory)
        except IndexUnavailable as err:
            return {}, None, str(err)
        if manifest is None:
            return {}, None, f"no search index in {directory}; build it with `lexgraph index`"
        problem = None
        if not manifest.compatible():
            problem = (f"the index was built by another version (tokenizer {manifest.tokenizer}); "
                       "rebuild it with `lexgraph index --rebuild`")
        # files gone or short: as good as missing
        damaged = local.damaged_parts(directory, manifest) if check_files else set()
        parts = {name: (info.fingerprint, info.rows) for name, info in manifest.parts.items() if name not in damaged}
        return parts, manifest.embedder, problem

    def recorded_suppl_vectors(self, store: GraphStore) -> bool | None:
        try:
            manifest = local.Manifest.read(local.index_directory(store.location))
        except IndexUnavailable:
            return None
        return None if manifest is None else manifest.suppl_vectors

    def refresh(self, store: GraphStore, embedder: Embedder, cache: EmbeddingCache, current: dict[str, str],
                to_build: Sequence[str], orphaned: Sequence[str], *, rebuild: bool, full_rebuild: bool,
                summary: IndexSummary, progress: IndexProgress | None, suppl_vectors: bool = False) -> None:
        directory = local.index_directory(store.location)
        with local.index_lock(directory):
            try:
                manifest = None if full_rebuild else local.Manifest.read(directory)
            except IndexUnavailable:
                manifest = None
            if manifest is not None and not manifest.compatible(embedder.name):
                manifest = None
            parts = dict(manifest.parts) if manifest is not None else {}
            titles = dict(law_titles(store))
            for done, part in enumerate(to_build, start=1):
                # A rebuild trusts nothing stored: tokenising is cheap next to embedding (which the cache spares).
                reusable = {} if manifest is None or rebuild else local.old_tokens(directory, part)
                units, tokens, vectors = build_part(store, embedder, cache, part, titles, reusable, summary,
                                                    suppl_vectors)
                started = time.perf_counter()
                local.write_part(directory, part, units, tokens, vectors.reshape(len(units), embedder.dim))
                summary.seconds["write"] += time.perf_counter() - started
                parts[part] = local.PartInfo(current[part], len(units), local.now())
                if progress is not None:
                    progress("writing", done, len(to_build))
            for part in orphaned:
                local.remove_part(directory, part)
                parts.pop(part, None)
                summary.removed.append(part)
            if manifest is None:  # a full rebuild keeps no part of an index built otherwise
                for part in list(parts):
                    if part not in to_build:
                        parts.pop(part)
            if (to_build or orphaned or manifest is None or not (directory / "bm25").is_dir()
                    or not (directory / "terms.json").is_file() or not (directory / local.ROWS_FILE).is_file()):
                started = time.perf_counter()
                names = sorted(parts)
                if progress is not None:
                    progress("BM25 and vector search", 0, 0)
                local.build_bm25(directory, names)
                local.build_hnsw(directory, names, embedder.dim)
                local.build_collection_terms(directory, names)
                local.build_rows(directory, names)
                summary.seconds["bm25"] += time.perf_counter() - started
            local.Manifest(TOKENIZER_VERSION, embedder.name, embedder.dim, parts,
                           suppl_vectors=suppl_vectors).write(directory)
