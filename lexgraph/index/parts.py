"""What every backend's index refresh shares: a part's units read, tokenised and embedded (`build_part`), and
the summary of what a refresh did (`IndexSummary`). Where the result is written is the backend's (`backends`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import numpy as np

from lexgraph.index.embed import Embedder, EmbeddingCache, embed_cached
from lexgraph.index.tokenize import get_tokenizer
from lexgraph.index.units import IndexUnit, chunk_units, dense_text, law_units, part_law_id
from lexgraph.store.base import GraphStore

#: ``progress(stage, done, total)``: stage is "tokenising <part>" or "embedding <part>".
IndexProgress = Callable[[str, int, int], None]



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


def build_part(store: GraphStore, embedder: Embedder, cache: EmbeddingCache, part: str, titles: dict[str, str],
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


def now() -> str:
    """When a part was built, as its record keeps it."""
    return datetime.now(UTC).isoformat(timespec="seconds")
