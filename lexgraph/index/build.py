"""`lexgraph index`: build or refresh the search indexes from the graph, and tell when they are stale.

The indexes are derived data. Each part (a law's clauses, or all chunks) carries the fingerprint of
the graph state it was built from (`units.part_fingerprints`); a part is *stale* when the graph's fingerprint
differs (a new version of the law, a changed judgment), *missing* when the graph has it and the index does not,
and *orphaned* when the index has it and the graph does not. `refresh_index` rebuilds exactly those parts, and
everything when the tokenizer or embedder changes. Unchanged text is never re-embedded: vectors come from the
embedding cache by text hash.

Where the index lives and how its parts are written is the store's kind of index (`backends.index_backend`):
this module decides what to build, never which database it is on.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lexgraph.errors import ConfigurationError
from lexgraph.index.backends import index_backend
from lexgraph.index.embed import Embedder, EmbeddingCache
from lexgraph.index.parts import IndexProgress as IndexProgress  # re-exported: what `LexGraph.index` takes
from lexgraph.index.parts import IndexSummary as IndexSummary  # re-exported: what `LexGraph.index` returns
from lexgraph.index.parts import embed_parts
from lexgraph.index.query import UNIT_KINDS, SearchIndex, UnitKind
from lexgraph.index.units import CHUNKS_PART, law_titles, part_fingerprints, part_law_id
from lexgraph.store.base import GraphStore


@dataclass(frozen=True)
class PartState:
    part: str
    status: str  # fresh | stale | missing | orphaned
    rows: int


@dataclass(frozen=True)
class IndexStatus:
    """Where the index is, what built it, and the state of each part."""

    location: str
    embedder: str | None
    parts: tuple[PartState, ...]
    problem: str | None = None  # why the whole index is unusable (absent, another tokenizer …)
    #: whether 附則 clauses have vectors (`units.has_vector`); None when there is no index
    suppl_vectors: bool | None = None

    @property
    def stale(self) -> tuple[PartState, ...]:
        return tuple(p for p in self.parts if p.status != "fresh")

    @property
    def ok(self) -> bool:
        return self.problem is None and not self.stale

    def to_json(self) -> dict[str, Any]:
        return {"location": self.location, "embedder": self.embedder, "ok": self.ok, "problem": self.problem,
                "suppl_vectors": self.suppl_vectors,
                "rows": sum(p.rows for p in self.parts if p.status == "fresh"),
                "parts": [vars(p) for p in self.parts]}


def cache_directory(store: GraphStore) -> Path:
    """Where embeddings are cached: ``LEXGRAPH_CACHE_DIR`` (e.g. to index a Neo4j copy with an embedded store's
    vectors), else the store's kind of index decides (beside an embedded store; the user's cache for a server)."""
    if os.environ.get("LEXGRAPH_CACHE_DIR"):
        return Path(os.environ["LEXGRAPH_CACHE_DIR"]).expanduser()
    return index_backend(store).cache_directory(store)


def open_index(store: GraphStore) -> SearchIndex:
    """The store's search index; `IndexUnavailable` (with the command that builds it) when there is none."""
    return index_backend(store).open(store)


# -- status ---------------------------------------------------------------------------------------------------
def index_status(store: GraphStore, *, check_files: bool = True) -> IndexStatus:
    """Each part's state against the graph; `check_files` also reads every part's files' headers (a part whose
    files are gone or short is missing), which a search, asking only what changed in the graph, does without."""
    current = part_fingerprints(store)
    backend = index_backend(store)
    recorded, embedder, problem = backend.recorded_parts(store, check_files=check_files)
    states = []
    for part in sorted(set(current) | set(recorded)):
        if part not in recorded:
            states.append(PartState(part, "missing", 0))
        elif part not in current:
            states.append(PartState(part, "orphaned", recorded[part][1]))
        else:
            status = "fresh" if recorded[part][0] == current[part] else "stale"
            states.append(PartState(part, status, recorded[part][1]))
    suppl = backend.recorded_suppl_vectors(store) if recorded else None
    return IndexStatus(backend.location(store), embedder, tuple(states), problem, suppl)


# -- refresh --------------------------------------------------------------------------------------------------
def refresh_index(
    store: GraphStore,
    embedder: Embedder,
    *,
    laws: Sequence[str] = (),
    kinds: Sequence[UnitKind] = UNIT_KINDS,
    rebuild: bool = False,
    cache: EmbeddingCache | None = None,
    progress: IndexProgress | None = None,
    suppl_vectors: bool | None = None,
) -> IndexSummary:
    """Bring the index up to date with the graph: build stale and missing parts, drop orphaned ones.

    ``laws`` (law ids) and ``kinds`` narrow which parts are looked at (laws alone mean their clauses only);
    ``rebuild`` rebuilds them even when fresh. A change of tokenizer or embedder rebuilds everything, since
    vectors of two models cannot share an index.

    ``suppl_vectors``: whether 附則 clauses get vectors (`units.has_vector`). None keeps what the index was built
    with (a new index: without them), so that a refresh never changes it unasked; a change rebuilds every part,
    so that the dense list means one thing across the index (the vectors come from the cache).
    """
    for kind in kinds:
        if kind not in UNIT_KINDS:
            raise ConfigurationError(f"kind must be one of {', '.join(UNIT_KINDS)}, not {kind!r}")
    if laws and tuple(kinds) == UNIT_KINDS:
        kinds = ("provision",)  # naming laws means their clauses; the chunks are one part of their own
    backend = index_backend(store)
    current = part_fingerprints(store)
    recorded, old_embedder, problem = backend.recorded_parts(store)
    if problem is not None and not rebuild and recorded:
        rebuild = True
    if old_embedder is not None and old_embedder != embedder.name:
        rebuild, laws, kinds = True, (), UNIT_KINDS  # one model per index: everything is re-embedded
    recorded_suppl = backend.recorded_suppl_vectors(store) if recorded else None
    if suppl_vectors is None:
        suppl_vectors = bool(recorded_suppl)
    elif recorded_suppl is not None and recorded_suppl != suppl_vectors:
        rebuild, laws, kinds = True, (), UNIT_KINDS
    targets = _target_parts(current, recorded, laws, kinds)
    to_build = [p for p in targets if p in current and (rebuild or recorded.get(p, ("",))[0] != current[p])]
    orphaned = [p for p in targets if p not in current and p in recorded]
    summary = IndexSummary(embedder=embedder.name, location=backend.location(store))
    summary.fresh = len([p for p in targets if p in current]) - len(to_build)
    own_cache = cache is None
    cache = cache or EmbeddingCache(cache_directory(store))
    try:
        embed_parts(store, embedder, cache, to_build, dict(law_titles(store)), summary, progress, suppl_vectors)
        backend.refresh(store, embedder, cache, current, to_build, orphaned, rebuild=rebuild,
                        full_rebuild=rebuild and not laws and set(kinds) == set(UNIT_KINDS), summary=summary,
                        progress=progress, suppl_vectors=suppl_vectors)
    finally:
        if own_cache:
            cache.close()
    return summary


def _target_parts(current: dict[str, str], recorded: dict[str, Any], laws: Sequence[str],
                  kinds: Sequence[UnitKind]) -> list[str]:
    names = set(current) | set(recorded)
    wanted = []
    for name in sorted(names):
        law_id = part_law_id(name)
        is_wanted_law = law_id is not None and "provision" in kinds and (not laws or law_id in laws)
        if is_wanted_law or (name == CHUNKS_PART and "chunk" in kinds):
            wanted.append(name)
    return wanted
