"""Evidence through the citation graph: the clauses and precedents cited by the retrieved chunks, ranked by RRF.

This is the integrated-citation-graph paper's second stage. The question first retrieves related chunks of
judgments, books and guidelines (top M = 30, fused from BM25 / dense / HyDE). A chunk that a question finds at rank
r lends each clause or precedent it cites ``1 / (k + r)``; an evidence item's score is the sum over the chunks that
cite it, and the top N = 20 are the evidence. Why this and not the chunks' own scores: the literature is where the
knowledge of *which* clause governs a question lives, and ranks (unlike BM25 or cosine scores) add up across
chunks found by different retrievers. An item cited by several well-ranked chunks outranks one cited once.

Collections without literature (statutes only) have no chunks to cite anything, so clauses searched directly can be
fused in: the graph ranking and the direct ranking are two ranked lists for `fusion.rrf`.

Every `Evidence` keeps the chunks that cite it with their ranks (`cited_by`), so the CLI can say why it is there,
and the Focus-law prompt style can list them as the clause's ``cited`` field.

Determinism: a chunk listed twice counts at its first rank, a chunk citing the same item twice counts once, scores
are `math.fsum` sums (bit-identical for the same multiset of contributions), and ties go to the item cited by the
best-ranked chunk, then to the smaller id.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lexgraph.retrieve.fusion import DEFAULT_K, check_k, check_limit, first_occurrences, rrf

DEFAULT_M = 30  # related chunks that lend their rank to what they cite (the paper's M)
DEFAULT_N = 20  # evidence items returned (the paper's N)


@dataclass(frozen=True)
class Evidence:
    """One clause or precedent selected as evidence, with the reasons it was selected.

    ``cited_by`` holds ``(chunk_id, chunk_rank)`` for every top-M chunk that cites the item, best-ranked chunk
    first. ``graph_rank`` is the item's rank in the graph-only ranking (``None``: no top-M chunk cites it);
    ``direct_rank`` its rank in the direct retrieval when one was fused in (``None``: not retrieved directly, or
    no direct retrieval). ``score`` is the graph RRF score, or the fused score when a direct ranking was given.
    """

    id: str
    score: float
    cited_by: tuple[tuple[str, int], ...]
    graph_rank: int | None = None
    direct_rank: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "score": self.score,
            "cited_by": [{"chunk": chunk, "rank": rank} for chunk, rank in self.cited_by],
            "graph_rank": self.graph_rank,
            "direct_rank": self.direct_rank,
        }


def rank_evidence(
    chunks: Sequence[str],
    cites: Mapping[str, Iterable[str]],
    *,
    m: int | None = DEFAULT_M,
    k: float = DEFAULT_K,
    limit: int | None = None,
) -> list[Evidence]:
    """Rank the items cited by the top ``m`` chunks by the sum of ``1 / (k + chunk rank)`` over the citing chunks.

    ``chunks`` are the related chunk ids, best first (rank 1-based after removing duplicates); ``cites`` maps a chunk
    id to the evidence ids it cites (a chunk missing from it cites nothing). ``m=None`` uses every chunk;
    ``limit=None`` returns every cited item. Each result has ``graph_rank`` set to its place in this ranking.
    """
    check_k(k)
    check_limit(m, "m")
    check_limit(limit)
    if isinstance(chunks, str):
        raise ValueError("chunks must be a list of chunk ids, not a string")
    top = first_occurrences(chunks)
    if m is not None:
        top = top[:m]

    citing: dict[str, list[tuple[str, int]]] = {}
    for rank, chunk in enumerate(top, start=1):
        cited = cites.get(chunk, ())
        if isinstance(cited, str):
            raise ValueError(f"cites[{chunk!r}] is a string: give the list of ids the chunk cites")
        for item in first_occurrences(cited):
            citing.setdefault(item, []).append((chunk, rank))

    ranked = sorted(
        ((item, math.fsum(1.0 / (k + rank) for _, rank in by), tuple(by)) for item, by in citing.items()),
        key=lambda row: (-row[1], row[2][0][1], row[0]),
    )
    if limit is not None:
        ranked = ranked[:limit]
    return [Evidence(item, score, by, graph_rank=place) for place, (item, score, by) in enumerate(ranked, start=1)]


def fuse_direct(
    graph: Sequence[Evidence],
    direct: Sequence[str],
    *,
    k: float = DEFAULT_K,
    weights: Sequence[float] | None = None,
    limit: int | None = None,
) -> list[Evidence]:
    """Fuse the graph ranking with evidence retrieved directly (e.g. clauses searched by BM25 / dense) by `rrf`.

    ``graph`` is a graph ranking (from `rank_evidence`, best first) and ``direct`` the directly retrieved ids, best
    first; ``weights`` are ``(graph, direct)`` as in `rrf`. Items keep their ``cited_by``; ``graph_rank`` and
    ``direct_rank`` say where each came from, and ``score`` becomes the fused score.
    """
    by_id: dict[str, Evidence] = {}
    for item in graph:
        by_id.setdefault(item.id, item)
    fused = rrf([[item.id for item in graph], list(_strings(direct))], k=k, weights=weights, limit=limit)
    return [
        Evidence(
            scored.id,
            scored.score,
            by_id[scored.id].cited_by if scored.id in by_id else (),
            graph_rank=scored.ranks[0],
            direct_rank=scored.ranks[1],
        )
        for scored in fused
    ]


def select_evidence(
    chunks: Sequence[str],
    cites: Mapping[str, Iterable[str]],
    *,
    direct: Sequence[str] | None = None,
    m: int | None = DEFAULT_M,
    n: int | None = DEFAULT_N,
    k: float = DEFAULT_K,
    direct_weight: float = 1.0,
) -> list[Evidence]:
    """The paper's evidence selection: the top ``n`` items cited by the top ``m`` chunks, ranked by RRF.

    With ``direct`` (ids retrieved directly, best first), the whole graph ranking (not only its top ``n``, so that a
    direct hit can lift an item the graph ranked 25th) is fused with it by `rrf`, the direct list weighted by
    ``direct_weight``, and the top ``n`` of the fusion are returned.
    """
    check_limit(n, "n")
    if direct is None:
        return rank_evidence(chunks, cites, m=m, k=k, limit=n)
    graph = rank_evidence(chunks, cites, m=m, k=k)
    return fuse_direct(graph, direct, k=k, weights=(1.0, direct_weight), limit=n)


def _strings(ids: Sequence[str]) -> Sequence[str]:
    if isinstance(ids, str):
        raise ValueError("direct must be a list of ids, not a string")
    return ids
