"""A question in, ranked clauses and chunks and graph-selected evidence out: what `lexgraph search` runs.

1. The chosen retriever ranks clauses (the direct list) and, separately, chunks of judgments, books and guidelines,
   each under the same filter, so that a collection rich in chunks cannot crowd the clauses out (and vice versa).
2. The top ``m`` chunks lend their ranks to the clauses and precedents they cite (`evidence.select_evidence`), and
   that graph ranking is fused with the direct clause list; the top ``n`` are the evidence. Without literature
   (as in lawqa_jp) the evidence is the direct clause list. With ``SearchOptions.direct`` False the evidence is
   the graph's selection alone, as the integrated-citation-graph paper publishes it.
3. With ``as_of``, a clause a chunk cites is read in the wording in force on that day (a judgment of 1995 cites the
   1995 wording); a clause not in force then is left out, and said so in `SearchResult.dropped`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from lexgraph.errors import ConfigurationError, InputError
from lexgraph.index.embed import Embedder
from lexgraph.index.query import SearchFilter, SearchIndex
from lexgraph.llm.client import NOT_CONFIGURED, LLMClient, LLMUnavailable
from lexgraph.numerals import clause_label
from lexgraph.retrieve.evidence import select_evidence
from lexgraph.retrieve.fusion import DEFAULT_FUSION, DEFAULT_K
from lexgraph.retrieve.options import MODES as MODES  # re-exported
from lexgraph.retrieve.options import SearchOptions
from lexgraph.retrieve.retrievers import (
    HYDE_SEARCHES,
    TREE_POOL,
    Bm25Retriever,
    CitedRetriever,
    CiteFn,
    DenseRetriever,
    FusionRetriever,
    HydeRetriever,
    QueryVectors,
    Retrieved,
    Retriever,
    TreeRetriever,
)
from lexgraph.store.base import GraphStore


@dataclass(frozen=True)
class EvidenceItem:
    """A clause or precedent selected as evidence, and why: the chunks citing it (with their ranks) and its rank
    in the direct clause search."""

    uid: str
    label: str  # Provision | Precedent
    title: str
    text: str
    score: float
    cited_by: tuple[tuple[str, int], ...]
    graph_rank: int | None
    direct_rank: int | None
    law_id: str = ""
    path: str = ""
    valid_from: date | None = None
    valid_until: date | None = None
    stub: bool = False  # a precedent known only from citations: no text of its own is stored

    def to_json(self) -> dict[str, Any]:
        return {"uid": self.uid, "label": self.label, "title": self.title, "text": self.text, "stub": self.stub,
                "score": round(self.score, 6), "law_id": self.law_id, "path": self.path,
                "valid_from": self.valid_from.isoformat() if self.valid_from else None,
                "valid_until": self.valid_until.isoformat() if self.valid_until else None,
                "cited_by": [{"chunk": c, "rank": r} for c, r in self.cited_by],
                "graph_rank": self.graph_rank, "direct_rank": self.direct_rank}


@dataclass(frozen=True)
class SearchResult:
    question: str
    mode: str
    where: SearchFilter
    clauses: tuple[Retrieved, ...]
    chunks: tuple[Retrieved, ...]
    evidence: tuple[EvidenceItem, ...]
    hypothetical_answers: tuple[str, ...] = ()
    dropped: tuple[str, ...] = field(default=())  # cited clauses left out, with the reason

    def to_json(self) -> dict[str, Any]:
        return {"question": self.question, "mode": self.mode, "filter": self.where.to_json(),
                "clauses": [h.to_json() for h in self.clauses], "chunks": [h.to_json() for h in self.chunks],
                "evidence": [e.to_json() for e in self.evidence],
                "hypothetical_answers": list(self.hypothetical_answers), "dropped": list(self.dropped)}


def make_retriever(mode: str, index: SearchIndex, embedder: Embedder, *, llm: LLMClient | None = None,
                   cite: CiteFn | None = None, rrf_k: float = DEFAULT_K,
                   weights: Mapping[str, float] | None = None, fusion: str = DEFAULT_FUSION, tree_scope: str = "pool",
                   tree_pool: int = TREE_POOL, query_extraction: bool = False) -> Retriever:
    """The retriever for a mode. ``hyde`` (and ``tree`` with `query_extraction`) without a model raises
    `LLMUnavailable` saying how to configure one.

    With `cite` (a citation extractor), the fusing modes add the clauses the question cites as a third list."""
    cited = [CitedRetriever(index, cite)] if cite is not None else []
    if mode == "bm25":
        return Bm25Retriever(index)
    if mode == "dense":
        return DenseRetriever(index, embedder)
    if mode in HYDE_SEARCHES:
        if llm is None:
            raise LLMUnavailable(f"--mode {mode} needs a model to write hypothetical answers; {NOT_CONFIGURED}")
        return HydeRetriever(index, embedder, llm, rrf_k=rrf_k, extra=cited, searches=HYDE_SEARCHES[mode])
    query_vector = QueryVectors(embedder)
    hybrid = FusionRetriever([Bm25Retriever(index), DenseRetriever(index, embedder, query_vector=query_vector),
                              *cited], rrf_k=rrf_k, weights=weights, fusion=fusion, index=index)
    if mode == "hybrid":
        return hybrid
    if mode == "tree":
        if query_extraction and llm is None:
            raise LLMUnavailable(f"Tree+QE needs a model to extract the query; {NOT_CONFIGURED}")
        return TreeRetriever(index, embedder, hybrid, query_vector=query_vector, scope=tree_scope, pool=tree_pool,
                             llm=llm if query_extraction else None)
    raise ConfigurationError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")


def search(store: GraphStore, retriever: Retriever, question: str, *, where: SearchFilter | None = None,
           options: SearchOptions | None = None) -> SearchResult:
    where = where or SearchFilter()
    options = options or SearchOptions()
    if not question.strip():
        raise InputError("the question is empty")
    clauses: list[Retrieved] = []
    chunks: list[Retrieved] = []
    if where.kind in (None, "provision"):
        clauses = retriever.retrieve(question, max(options.k, options.n), replace(where, kind="provision"))
    if where.kind in (None, "chunk"):
        chunks = retriever.retrieve(question, max(options.k, options.m), replace(where, kind="chunk"))
    # The tree's answer is every leaf under the node it found: never cut by k or n (the paper has no k).
    whole = options.mode == "tree"
    evidence, dropped = _evidence(store, clauses, chunks[:options.m], where,
                                  replace(options, n=max(options.n, len(clauses))) if whole else options)
    answers = tuple(getattr(retriever, "last_answers", ()))
    shown = (clauses, chunks) if whole else (clauses[:options.k], chunks[:options.k])
    return SearchResult(question, options.mode, where, tuple(shown[0]), tuple(shown[1]), tuple(evidence), answers,
                        tuple(dropped))


def _evidence(store: GraphStore, clauses: Sequence[Retrieved], chunks: Sequence[Retrieved], where: SearchFilter,
              options: SearchOptions) -> tuple[list[EvidenceItem], list[str]]:
    cites: dict[str, list[str]] = {}
    labels: dict[str, str] = {clause.uid: "Provision" for clause in clauses}
    dropped: list[str] = []
    rows = store.query("chunks_citations", uids=[c.uid for c in chunks]) if chunks else []
    remap = _wording_on(store, rows, where.day, dropped) if where.day else {}
    for row in rows:
        target = remap.get(row["target"], row["target"]) if row["label"] == "Provision" else row["target"]
        if target is None or (where.laws and row["label"] == "Provision" and row["law_id"] not in where.laws):
            continue
        cites.setdefault(row["chunk"], []).append(target)
        labels[target] = row["label"]
    direct = [c.uid for c in clauses] if options.direct else None
    ranked = select_evidence([c.uid for c in chunks], cites, direct=direct, m=options.m,
                             n=options.n, k=options.rrf_k)
    return _describe(store, ranked, labels, {c.uid: c for c in clauses}), dropped


def _wording_on(store: GraphStore, rows: Sequence[Mapping[str, Any]], day: date | None,
                dropped: list[str]) -> dict[str, str | None]:
    """Cited clause uid → the uid of the same clause in force on ``day`` (None: not in force then)."""
    out: dict[str, str | None] = {}
    in_force: dict[tuple[str, str], str | None] = {}  # several wordings of one clause: one lookup
    for row in rows:
        if row["label"] != "Provision" or row["target"] in out:
            continue
        clause = (row["law_id"], row["path"])
        if clause not in in_force:
            found = store.query("provision_as_of", law_id=clause[0], path=clause[1], day=day)
            in_force[clause] = found[0]["uid"] if found else None
        out[row["target"]] = in_force[clause]
        if in_force[clause] is None:
            dropped.append(f"{row['law_id']} {row['path']}: cited by {row['chunk']}, not in force on {day}")
    return out


def _describe(store: GraphStore, ranked: Sequence[Any], labels: Mapping[str, str],
              direct: Mapping[str, Retrieved]) -> list[EvidenceItem]:
    cited_clauses = [e.id for e in ranked if labels.get(e.id) == "Provision" and e.id not in direct]
    cited_precedents = [e.id for e in ranked if labels.get(e.id) == "Precedent"]
    provisions = {r["uid"]: r for r in store.query("evidence_provisions", uids=cited_clauses)} if cited_clauses else {}
    precedents = ({r["uid"]: r for r in store.query("evidence_precedents", uids=cited_precedents)}
                  if cited_precedents else {})
    items = []
    for e in ranked:
        common = {"uid": e.id, "score": e.score, "cited_by": e.cited_by, "graph_rank": e.graph_rank,
                  "direct_rank": e.direct_rank}
        if e.id in direct:
            unit = direct[e.id].unit
            items.append(EvidenceItem(label="Provision", title=unit.shown_title, text=unit.text, law_id=unit.law_id,
                                      path=unit.path, valid_from=unit.valid_from, valid_until=unit.valid_until,
                                      **common))
        elif e.id in provisions:
            row = provisions[e.id]
            title = f"{row['law_title']} {clause_label(row['path'])}{row['caption'] or ''}"
            items.append(EvidenceItem(label="Provision", title=title, text=row["text"] or "", law_id=row["law_id"],
                                      path=row["path"], valid_from=row["valid_from"], valid_until=row["valid_until"],
                                      **common))
        elif e.id in precedents:
            row = precedents[e.id]
            title = " ".join(str(x) for x in (row["court"], row["date"], row["case_number"], row["case_name"]) if x)
            items.append(EvidenceItem(label="Precedent", title=title, text=row["summary"] or "",
                                      stub=bool(row["stub"]), **common))
    return items
