"""What every backend's index refresh shares: a part's units read, tokenised and embedded (`build_part`), and
the summary of what a refresh did (`IndexSummary`). Where the result is written is the backend's (`backends`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import numpy as np

from lexgraph.index.embed import Embedder, EmbeddingCache, embed_cached, text_key
from lexgraph.index.tokenize import get_tokenizer
from lexgraph.index.units import IndexUnit, chunk_units, dense_text, has_vector, law_units, part_law_id
from lexgraph.store.base import GraphStore

#: ``progress(stage, done, total)``: stage is "reading" (parts), "embedding" (distinct texts the cache lacks) or
#: "writing" (parts), each counted over the whole refresh so that the bar's time left means the whole build.
IndexProgress = Callable[[str, int, int], None]
#: Texts handed to the embedder at a time by `embed_parts`: each call's vectors are in the cache before the next
#: starts, so a build killed at any moment loses at most this many.
EMBED_CALL_TEXTS = 512



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
    #: Distinct citing sentences saved as the statutes' anchor field by this refresh; None when none was saved
    #: (the saved field was up to date, nothing cites, or it was not asked for).
    statute_anchors: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"embedder": self.embedder, "location": self.location, "built": self.built, "removed": self.removed,
                "fresh": self.fresh, "units": self.units, "tokenised": self.tokenised,
                "embedded_texts": self.embedded_texts, "seconds": {k: round(v, 3) for k, v in self.seconds.items()},
                **({"statute_anchors": self.statute_anchors} if self.statute_anchors is not None else {})}


def _part_units(store: GraphStore, part: str, titles: dict[str, str]) -> list[IndexUnit]:
    law_id = part_law_id(part)
    if law_id is not None:
        return law_units(store, law_id, titles.get(law_id, law_id))
    return chunk_units(store)


def _tokens(units: Sequence[IndexUnit], reusable: dict[str, tuple[tuple[str, str], str]],
            summary: IndexSummary) -> list[str]:
    tokenizer = get_tokenizer()
    out = []
    for unit in units:
        known = reusable.get(unit.uid)
        if known is not None and known[0] == (unit.title, unit.text):
            out.append(known[1])
        else:
            out.append(tokenizer.token_string(unit.search_text))
            summary.tokenised += 1
    return out


def _embed(embedder: Embedder, units: Sequence[IndexUnit], titles: dict[str, str], cache: EmbeddingCache,
           summary: IndexSummary, suppl_vectors: bool) -> np.ndarray:
    """The units' vectors, row for row; a unit without a vector (`units.has_vector`) gets a row of zeros, which
    the backends keep out of the dense search."""
    def counted(done: int, total: int) -> None:
        if done == total:
            summary.embedded_texts += total

    rows = [i for i, u in enumerate(units) if has_vector(u, suppl_vectors)]
    texts = [dense_text(units[i], titles.get(units[i].law_id, "")) for i in rows]
    if len(rows) == len(units):
        return embed_cached(embedder, texts, cache, "passage", progress=counted)
    out = np.zeros((len(units), embedder.dim), dtype=np.float32)
    if rows:
        out[rows] = np.asarray(embed_cached(embedder, texts, cache, "passage", progress=counted),
                               dtype=np.float32).reshape(len(rows), embedder.dim)
    return out


def embed_parts(store: GraphStore, embedder: Embedder, cache: EmbeddingCache, parts: Sequence[str],
                titles: dict[str, str], summary: IndexSummary, progress: IndexProgress | None,
                suppl_vectors: bool = False) -> None:
    """Put in the cache every distinct text of `parts` it lacks, before any part is built: the texts of the units
    that get a vector (`units.has_vector`; 附則 clauses only with ``suppl_vectors``).

    Why one pass over all parts, not a part at a time: the whole archive's 707,593 clauses hold 545,646 distinct
    texts, 8,502 laws of them, and one run sorted by length pads least (texts run together in batches of like
    length), has one count to show progress and time left against, and makes a rerun after a kill continue where
    it stopped: what the cache holds is never embedded again. The parts then find every vector in the cache."""
    def report(stage: str, done: int, total: int) -> None:
        if progress is not None:
            progress(stage, done, total)

    started = time.perf_counter()
    texts: dict[bytes, str] = {}
    for done, part in enumerate(parts, start=1):
        for unit in _part_units(store, part, titles):
            if not has_vector(unit, suppl_vectors):
                continue
            text = dense_text(unit, titles.get(unit.law_id, ""))
            texts.setdefault(text_key(text), text)
        report("reading", done, len(parts))
    summary.seconds["read"] += time.perf_counter() - started
    started = time.perf_counter()
    missing = sorted((texts[key] for key in cache.missing(embedder.name, "passage", list(texts))), key=len)
    texts.clear()

    def counted(done: int, total: int) -> None:
        if done == total:  # what the bundled sample vectors did not hold: embedded here
            summary.embedded_texts += total

    report("embedding", 0, len(missing))
    for start in range(0, len(missing), EMBED_CALL_TEXTS):
        batch = missing[start:start + EMBED_CALL_TEXTS]
        embed_cached(embedder, batch, cache, "passage", progress=counted, batch_size=EMBED_CALL_TEXTS)
        report("embedding", start + len(batch), len(missing))
    summary.seconds["embed"] += time.perf_counter() - started


def build_part(store: GraphStore, embedder: Embedder, cache: EmbeddingCache, part: str, titles: dict[str, str],
               reusable: dict[str, tuple[tuple[str, str], str]], summary: IndexSummary, suppl_vectors: bool = False
               ) -> tuple[list[IndexUnit], list[str], np.ndarray]:
    """A part's units, their tokens and their vectors (from the cache, which `embed_parts` filled; zeros for a
    unit without a vector)."""
    started = time.perf_counter()
    units = _part_units(store, part, titles)
    summary.seconds["read"] += time.perf_counter() - started
    started = time.perf_counter()
    tokens = _tokens(units, reusable, summary)
    summary.seconds["tokenise"] += time.perf_counter() - started
    started = time.perf_counter()
    vectors = _embed(embedder, units, titles, cache, summary, suppl_vectors)
    summary.seconds["embed"] += time.perf_counter() - started
    summary.units += len(units)
    summary.built.append(part)
    return units, tokens, vectors


def now() -> str:
    """When a part was built, as its record keeps it."""
    return datetime.now(UTC).isoformat(timespec="seconds")
