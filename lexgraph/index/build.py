"""`lexgraph index`: build or refresh the search indexes from the graph, and tell when they are stale.

The indexes are derived data (DESIGN §3). Each part (a law's clauses, or all chunks) carries the fingerprint of
the graph state it was built from (`units.part_fingerprints`); a part is *stale* when the graph's fingerprint
differs (a new version of the law, a changed judgment), *missing* when the graph has it and the index does not,
and *orphaned* when the index has it and the graph does not. `refresh_index` rebuilds exactly those parts, and
everything when the tokenizer or embedder changes. Unchanged text is never re-embedded: vectors come from the
embedding cache by text hash.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from lexgraph.errors import ConfigurationError
from lexgraph.index import local
from lexgraph.index.embed import Embedder, EmbeddingCache, embed_cached
from lexgraph.index.law_terms import collection_of, count_terms
from lexgraph.index.query import UNIT_KINDS, IndexMissing, SearchIndex, UnitKind
from lexgraph.index.tokenize import TOKENIZER_VERSION, get_tokenizer
from lexgraph.index.units import (
    CHUNKS_PART,
    IndexUnit,
    chunk_units,
    dense_text,
    law_titles,
    law_units,
    part_fingerprints,
    part_law_id,
    unit_row,
)
from lexgraph.store.base import GraphStore

#: ``progress(stage, done, total)``: stage is "tokenising <part>" or "embedding <part>".
IndexProgress = Callable[[str, int, int], None]


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

    @property
    def stale(self) -> tuple[PartState, ...]:
        return tuple(p for p in self.parts if p.status != "fresh")

    @property
    def ok(self) -> bool:
        return self.problem is None and not self.stale

    def to_json(self) -> dict[str, Any]:
        return {"location": self.location, "embedder": self.embedder, "ok": self.ok, "problem": self.problem,
                "rows": sum(p.rows for p in self.parts if p.status == "fresh"),
                "parts": [vars(p) for p in self.parts]}


@dataclass
class IndexSummary:
    """What a refresh did, with its timings (the bench reports them)."""

    embedder: str
    location: str
    built: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    fresh: int = 0
    units: int = 0
    tokenised: int = 0
    embedded_texts: int = 0
    seconds: dict[str, float] = field(default_factory=lambda: {"read": 0.0, "tokenise": 0.0, "embed": 0.0,
                                                                "write": 0.0, "bm25": 0.0})

    def to_json(self) -> dict[str, Any]:
        return {"embedder": self.embedder, "location": self.location, "built": self.built, "removed": self.removed,
                "fresh": self.fresh, "units": self.units, "tokenised": self.tokenised,
                "embedded_texts": self.embedded_texts, "seconds": {k: round(v, 3) for k, v in self.seconds.items()}}


def is_embedded(store: GraphStore) -> bool:
    return store.backend == "embedded"


def cache_directory(store: GraphStore) -> Path:
    """Embeddings are cached beside an embedded store, and in the user's cache folder for a server;
    ``LEXGRAPH_CACHE_DIR`` overrides both (e.g. to index a Neo4j copy with an embedded store's vectors)."""
    if os.environ.get("LEXGRAPH_CACHE_DIR"):
        return Path(os.environ["LEXGRAPH_CACHE_DIR"]).expanduser()
    if is_embedded(store):
        return Path(store.location) / "cache"
    return Path.home() / ".cache" / "lexgraph"


def open_index(store: GraphStore) -> SearchIndex:
    """The store's search index; `IndexMissing` (with the command that builds it) when there is none."""
    if is_embedded(store):
        return local.LocalIndex(local.index_directory(store.location))
    from lexgraph.index.neo4j_index import Neo4jIndex

    return Neo4jIndex(store)


# -- status ---------------------------------------------------------------------------------------------------
def _recorded_parts(store: GraphStore) -> tuple[dict[str, tuple[str, int]], str | None, str | None]:
    """(part → (fingerprint, rows)), embedder, and a problem that makes the whole index unusable."""
    if is_embedded(store):
        directory = local.index_directory(store.location)
        try:
            manifest = local.Manifest.read(directory)
        except IndexMissing as err:
            return {}, None, str(err)
        if manifest is None:
            return {}, None, f"no search index in {directory}; build it with `lexgraph index`"
        problem = None
        if not manifest.compatible():
            problem = (f"the index was built by another version (tokenizer {manifest.tokenizer}); "
                       "rebuild it with `lexgraph index --rebuild`")
        damaged = local.damaged_parts(directory, manifest)  # files gone or short: as good as missing
        parts = {name: (info.fingerprint, info.rows) for name, info in manifest.parts.items() if name not in damaged}
        return parts, manifest.embedder, problem
    rows = store.query("index_parts")
    if not rows:
        return {}, None, f"no search index in {store.location}; build it with `lexgraph index`"
    embedders = {row["embedder"] for row in rows}
    problem = None
    if len(embedders) > 1 or any(row["tokenizer"] != TOKENIZER_VERSION for row in rows):
        problem = "index parts were built with different embedders or tokenizers; run `lexgraph index --rebuild`"
    else:
        from lexgraph.index.neo4j_index import vector_index_problem

        problem = vector_index_problem(store, int(rows[0]["dim"]))
    return ({row["name"]: (row["fingerprint"], int(row["rows"] or 0)) for row in rows}, sorted(embedders)[0],
            problem)


def index_status(store: GraphStore) -> IndexStatus:
    current = part_fingerprints(store)
    recorded, embedder, problem = _recorded_parts(store)
    states = []
    for part in sorted(set(current) | set(recorded)):
        if part not in recorded:
            states.append(PartState(part, "missing", 0))
        elif part not in current:
            states.append(PartState(part, "orphaned", recorded[part][1]))
        else:
            status = "fresh" if recorded[part][0] == current[part] else "stale"
            states.append(PartState(part, status, recorded[part][1]))
    location = str(local.index_directory(store.location)) if is_embedded(store) else store.location
    return IndexStatus(location, embedder, tuple(states), problem)


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
) -> IndexSummary:
    """Bring the index up to date with the graph: build stale and missing parts, drop orphaned ones.

    ``laws`` (law ids) and ``kinds`` narrow which parts are looked at (laws alone mean their clauses only);
    ``rebuild`` rebuilds them even when fresh. A change of tokenizer or embedder rebuilds everything, since
    vectors of two models cannot share an index.
    """
    for kind in kinds:
        if kind not in UNIT_KINDS:
            raise ConfigurationError(f"kind must be one of {', '.join(UNIT_KINDS)}, not {kind!r}")
    if laws and tuple(kinds) == UNIT_KINDS:
        kinds = ("provision",)  # naming laws means their clauses; the chunks are one part of their own
    current = part_fingerprints(store)
    recorded, old_embedder, problem = _recorded_parts(store)
    if problem is not None and not rebuild and recorded:
        rebuild = True
    if old_embedder is not None and old_embedder != embedder.name:
        rebuild, laws, kinds = True, (), UNIT_KINDS  # one model per index: everything is re-embedded
    targets = _target_parts(current, recorded, laws, kinds)
    to_build = [p for p in targets if p in current and (rebuild or recorded.get(p, ("",))[0] != current[p])]
    orphaned = [p for p in targets if p not in current and p in recorded]
    location = str(local.index_directory(store.location)) if is_embedded(store) else store.location
    summary = IndexSummary(embedder=embedder.name, location=location)
    summary.fresh = len([p for p in targets if p in current]) - len(to_build)
    own_cache = cache is None
    cache = cache or EmbeddingCache(cache_directory(store))
    try:
        if is_embedded(store):
            _refresh_local(store, embedder, cache, current, to_build, orphaned, rebuild, rebuild and not laws
                           and set(kinds) == set(UNIT_KINDS), summary, progress)
        else:
            _refresh_neo4j(store, embedder, cache, current, to_build, orphaned, summary, progress)
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


def _part_units(store: GraphStore, part: str, titles: dict[str, str]) -> list[IndexUnit]:
    law_id = part_law_id(part)
    if law_id is not None:
        return law_units(store, law_id, titles.get(law_id, law_id))
    return chunk_units(store)


def _tokens(units: Sequence[IndexUnit], reusable: dict[str, tuple[tuple[str, str], str]], summary: IndexSummary,
            on_step: Callable[[int], None]) -> list[str]:
    tokenizer = get_tokenizer()
    out = []
    for i, unit in enumerate(units):
        known = reusable.get(unit.uid)
        if known is not None and known[0] == (unit.title, unit.text):
            out.append(known[1])
        else:
            out.append(tokenizer.token_string(unit.search_text))
            summary.tokenised += 1
        if i % 200 == 0:
            on_step(i)
    return out


def _embed(embedder: Embedder, units: Sequence[IndexUnit], titles: dict[str, str], cache: EmbeddingCache,
           summary: IndexSummary, on_progress: Callable[[int, int], None]) -> np.ndarray:
    def counted(done: int, total: int) -> None:
        if done == total:
            summary.embedded_texts += total
        on_progress(done, total)

    texts = [dense_text(u, titles.get(u.law_id, "")) for u in units]
    # 64 texts a call: the progress bar moves every few seconds, and an interrupted build keeps what it embedded
    return embed_cached(embedder, texts, cache, "passage", progress=counted, batch_size=64)


def _build_part(store: GraphStore, embedder: Embedder, cache: EmbeddingCache, part: str, titles: dict[str, str],
                reusable: dict[str, tuple[tuple[str, str], str]], summary: IndexSummary,
                progress: IndexProgress | None
                ) -> tuple[list[IndexUnit], list[str], np.ndarray]:
    def report(stage: str, done: int, total: int) -> None:
        if progress is not None:
            progress(f"{stage} {part}", done, total)

    started = time.perf_counter()
    units = _part_units(store, part, titles)
    summary.seconds["read"] += time.perf_counter() - started
    started = time.perf_counter()
    tokens = _tokens(units, reusable, summary, lambda i: report("tokenising", i, len(units)))
    summary.seconds["tokenise"] += time.perf_counter() - started
    started = time.perf_counter()
    vectors = _embed(embedder, units, titles, cache, summary, lambda done, total: report("embedding", done, total))
    summary.seconds["embed"] += time.perf_counter() - started
    summary.units += len(units)
    summary.built.append(part)
    return units, tokens, vectors


def _refresh_local(store: GraphStore, embedder: Embedder, cache: EmbeddingCache, current: dict[str, str],
                   to_build: Sequence[str], orphaned: Sequence[str], rebuild: bool, full_rebuild: bool,
                   summary: IndexSummary, progress: IndexProgress | None) -> None:
    directory = local.index_directory(store.location)
    with local.index_lock(directory):
        try:
            manifest = None if full_rebuild else local.Manifest.read(directory)
        except IndexMissing:
            manifest = None
        if manifest is not None and not manifest.compatible(embedder.name):
            manifest = None
        parts = dict(manifest.parts) if manifest is not None else {}
        titles = dict(law_titles(store))
        for part in to_build:
            # A rebuild trusts nothing stored: tokenising is cheap next to embedding (which the cache spares).
            reusable = {} if manifest is None or rebuild else local.old_tokens(directory, part)
            units, tokens, vectors = _build_part(store, embedder, cache, part, titles, reusable, summary, progress)
            started = time.perf_counter()
            local.write_part(directory, part, units, tokens, vectors.reshape(len(units), embedder.dim))
            summary.seconds["write"] += time.perf_counter() - started
            parts[part] = local.PartInfo(current[part], len(units), local.now())
        for part in orphaned:
            local.remove_part(directory, part)
            parts.pop(part, None)
            summary.removed.append(part)
        if manifest is None:  # a full rebuild keeps no part of an index built otherwise
            for part in list(parts):
                if part not in to_build:
                    parts.pop(part)
        if (to_build or orphaned or manifest is None or not (directory / "bm25").is_dir()
                or not (directory / "terms.json").is_file()):
            started = time.perf_counter()
            names = sorted(parts)
            local.build_bm25(directory, names)
            local.build_hnsw(directory, names, embedder.dim)
            local.build_collection_terms(directory, names)
            summary.seconds["bm25"] += time.perf_counter() - started
        local.Manifest(TOKENIZER_VERSION, embedder.name, embedder.dim, parts).write(directory)


_NEO4J_BATCH = 2_000


def _refresh_neo4j(store: GraphStore, embedder: Embedder, cache: EmbeddingCache, current: dict[str, str],
                   to_build: Sequence[str], orphaned: Sequence[str], summary: IndexSummary,
                   progress: IndexProgress | None) -> None:
    from lexgraph.index.neo4j_index import ensure_vector_indexes, index_key, neo4j_term_counts

    ensure_vector_indexes(store, embedder.dim)
    key = index_key(embedder.name)
    titles = dict(law_titles(store))
    for part in [*to_build, *orphaned]:
        kind = "provision" if part_law_id(part) is not None else "chunk"  # a part holds one label
        with store.transaction() as tx:
            tx.query(f"index_clear_{kind}s", part=part)
            if part in orphaned:
                tx.query("index_part_delete", name=part)
                summary.removed.append(part)
        if part in orphaned:
            continue
        units, tokens, vectors = _build_part(store, embedder, cache, part, titles, {}, summary, progress)
        started = time.perf_counter()
        rows = [_neo4j_row(u, t, v) for u, t, v in zip(units, tokens, vectors, strict=True)]
        for start in range(0, len(rows), _NEO4J_BATCH):
            with store.transaction() as tx:
                tx.query(f"index_write_{kind}s", rows=rows[start:start + _NEO4J_BATCH], index_key=key)
        counted = count_terms(tokens) if part_law_id(part) is not None else None
        with store.transaction() as tx:
            tx.query("index_part_record", name=part, fingerprint=current[part], rows=len(units),
                     built_at=local.now(), embedder=embedder.name, tokenizer=TOKENIZER_VERSION, dim=embedder.dim,
                     terms=list(counted.counts) if counted else None,
                     term_counts=list(counted.counts.values()) if counted else None,
                     token_count=counted.total if counted else None)
        summary.seconds["write"] += time.perf_counter() - started
    if to_build or orphaned or not store.query("index_collection_terms"):
        every_law = store.query("index_law_terms", names=None)
        collection = collection_of({row["name"]: neo4j_term_counts(row) for row in every_law})
        with store.transaction() as tx:
            tx.query("index_collection_terms_record", token_count=collection.total, terms=list(collection.counts),
                     term_counts=list(collection.counts.values()))


def _neo4j_row(unit: IndexUnit, tokens: str, vector: np.ndarray) -> dict[str, Any]:
    """The unit's fields (its text is already on the node), its tokens and its vector. ``search_title`` is the
    title as a lawyer writes it (第十条第一項, not the indexed 第十条第1項): people read it in Neo4j Browser, and
    nothing re-tokenises it (the tokens were made from the indexed title)."""
    row = unit_row(unit)
    del row["text"]
    row["title"] = unit.shown_title
    return row | {"tokens": tokens, "embedding": vector.tolist()}
