"""Retrievers: one interface, several ways to rank clauses and chunks for a question.

Each retriever turns a question into a ranked list of `Retrieved` units under a `SearchFilter`:
- `Bm25Retriever`: BM25 over Sudachi tokens (numerals unified, so 第二十七条 finds 27条);
- `DenseRetriever`: cosine similarity of e5 embeddings (``query:`` prefix for the question);
- `CitedRetriever`: the clauses the question itself cites (民法709条, 第六条の二第二項), found by lexgraph's citation
  extractor and resolver: a question that names its clause should find it whatever the wording around it;
- `FusionRetriever`: other retrievers' lists fused (``hybrid`` = BM25 + dense + cited, by the weighted mean of
  their normalised scores, `fusion.DEFAULT_FUSION`; or by Reciprocal Rank Fusion);
- `HydeRetriever`: the LLM writes hypothetical answers; each is searched by BM25 and as a dense passage, and all the
  lists are fused with the question's own (HyDE; the integrated-citation-graph paper pairs it with BM25);
- `tree_retriever.TreeRetriever`: the cluster-tree retrieval over the whole collection (see `tree`).

Each list is filtered inside its own ranking (the index does it), and fusion looks deeper than ``k`` into each
list (`FUSION_DEPTH`), because an item ranked 40th by both BM25 and dense can deserve a place in the fused top 10.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any, Protocol, runtime_checkable

import numpy as np

from lexgraph.citations.model import Citation
from lexgraph.errors import ConfigurationError, EmbedderMismatch
from lexgraph.index.embed import Embedder
from lexgraph.index.query import IndexHit, SearchFilter, SearchIndex
from lexgraph.index.tokenize import question_terms, tokenize
from lexgraph.index.units import IndexUnit, UnitKind
from lexgraph.llm.client import LLMClient
from lexgraph.retrieve.fusion import (
    DEFAULT_FUSION,
    DEFAULT_K,
    DEFAULT_MEAN_WEIGHTS,
    FUSIONS,
    law_prior_weight,
    mean_normalised,
    rrf,
)
from lexgraph.retrieve.law_prior import LawCitations, law_affinity
from lexgraph.statutes.timeline import provision_law_id

FUSION_DEPTH = 100
HYDE_ANSWERS = 3


@dataclass(frozen=True, eq=False)
class Retrieved:
    """A unit at ``rank`` (1-based) with the retriever's score, and its rank in each list that was fused. The unit
    is read when first used (`IndexHit`): fusion needs only the uids."""

    hit: IndexHit
    score: float
    rank: int
    sources: Mapping[str, int] = field(default_factory=dict)

    @property
    def uid(self) -> str:
        return self.hit.uid

    @property
    def unit(self) -> IndexUnit:
        return self.hit.unit

    def to_json(self) -> dict[str, Any]:
        unit = self.unit
        return {"rank": self.rank, "score": round(self.score, 6), "uid": unit.uid, "label": unit.label,
                "law_id": unit.law_id, "path": unit.path, "title": unit.shown_title, "text": unit.text,
                "owner": unit.owner_uid, "owner_kind": unit.owner_kind,
                "valid_from": unit.valid_from.isoformat() if unit.valid_from else None,
                "valid_until": unit.valid_until.isoformat() if unit.valid_until else None,
                "sources": dict(self.sources)}


class Retriever(Protocol):
    name: str

    def retrieve(self, question: str, k: int, where: SearchFilter) -> list[Retrieved]: ...


@dataclass(frozen=True)
class RankedBy:
    """The mode whose ranking a search gave when it is not the mode asked, and why: the index lacks something
    the asked mode reads (the ``learned`` mode without an anchor field ranks exactly as ``hybrid``)."""

    mode: str
    reason: str

    def to_json(self) -> dict[str, str]:
        return {"mode": self.mode, "reason": self.reason}


@runtime_checkable
class StandInRetriever(Retriever, Protocol):
    """A retriever that may rank as another mode on an index lacking what its own mode reads, and says so
    (`ranked_by`, None when it ranks as its own mode): a search puts that in its result rather than show the
    asked mode's name over another mode's ranking."""

    ranked_by: RankedBy | None


@runtime_checkable
class KindsRetriever(Retriever, Protocol):
    """A retriever that can rank clauses and chunks for one question together (`retrieve_kinds`): a search
    needs both, and on a server the index answers both in one round trip. Every kind's list is the
    one `retrieve` gives for that kind alone."""

    def retrieve_kinds(self, question: str, ks: Mapping[UnitKind, int],
                       where: SearchFilter) -> dict[UnitKind, list[Retrieved]]: ...


def _ranked(hits: Sequence[IndexHit], source: str) -> list[Retrieved]:
    return [Retrieved(h, h.score, rank, {source: rank}) for rank, h in enumerate(hits, start=1)]


class Bm25Retriever:
    name = "bm25"

    def __init__(self, index: SearchIndex) -> None:
        self.index = index

    def retrieve(self, question: str, k: int, where: SearchFilter) -> list[Retrieved]:
        return _ranked(self.index.text_search(question_terms(question), k, where), self.name)

    def retrieve_kinds(self, question: str, ks: Mapping[UnitKind, int],
                       where: SearchFilter) -> dict[UnitKind, list[Retrieved]]:
        found = self.index.hybrid_search_kinds(question_terms(question), None, ks, where)
        return {kind: _ranked(text, self.name) for kind, (text, _) in found.items()}


def check_embedder(index: SearchIndex, embedder: Embedder) -> None:
    if index.embedder_name != embedder.name:
        raise EmbedderMismatch(f"the index was built with {index.embedder_name}, not {embedder.name}; search with "
                               f"the same embedder or rebuild the index with `lexgraph index --rebuild`")


class QueryVectors:
    """The question's embedding, remembered for the last few questions: one search reads the clause list and the
    chunk list (and the tree its pool) for the same question, and embedding it is most of a dense search's time."""

    def __init__(self, embedder: Embedder, size: int = 8) -> None:
        self.embedder = embedder
        self._size = size
        self._vectors: dict[str, np.ndarray] = {}

    def __call__(self, question: str) -> np.ndarray:
        vector = self._vectors.get(question)
        if vector is None:
            vector = self.embedder.embed_queries([question])[0]
            if len(self._vectors) >= self._size:
                self._vectors.pop(next(iter(self._vectors)))
            self._vectors[question] = vector
        return vector


class DenseRetriever:
    name = "dense"

    def __init__(self, index: SearchIndex, embedder: Embedder, *, query_vector: QueryVectors | None = None) -> None:
        check_embedder(index, embedder)
        self.index = index
        self.embedder = embedder
        self.query_vector = query_vector or QueryVectors(embedder)

    def retrieve(self, question: str, k: int, where: SearchFilter) -> list[Retrieved]:
        return _ranked(self.index.vector_search(self.query_vector(question), k, where), self.name)

    def retrieve_kinds(self, question: str, ks: Mapping[UnitKind, int],
                       where: SearchFilter) -> dict[UnitKind, list[Retrieved]]:
        found = self.index.hybrid_search_kinds((), self.query_vector(question), ks, where)
        return {kind: _ranked(nearest, self.name) for kind, (_, nearest) in found.items()}


#: ``cite(text, as_of)``: the statute citations in a text, resolved (lexgraph's extractor, `LexGraph.cite`).
CiteFn = Callable[[str, date | None], Sequence[Citation]]


class CitedRetriever:
    """The clauses a question cites, in the order it cites them: a cited article contributes its paragraphs, a
    cited paragraph (or an item in it) that paragraph. Empty for a question that cites nothing, which leaves a
    fusion as it was."""

    name = "cited"

    def __init__(self, index: SearchIndex, cite: CiteFn) -> None:
        self.index = index
        self.cite = cite

    def retrieve(self, question: str, k: int, where: SearchFilter) -> list[Retrieved]:
        if where.kind == "chunk":  # citations name clauses, never chunks: no extraction to do
            return []
        clauses: list[tuple[str, str]] = []
        for citation in self.cite(question, where.day):
            if citation.kind == "statute" and citation.law_id and citation.path:
                clauses.append((citation.law_id, paragraph_path(citation.path)))
        units: list[IndexUnit] = []
        for law_id, path in dict.fromkeys(clauses):
            units += [u for u in self.index.units_under(law_id, path, where) if u not in units]
        return [Retrieved(IndexHit.of(unit, 1.0 / rank), 1.0 / rank, rank, {self.name: rank})
                for rank, unit in enumerate(units[:k], start=1)]


def paragraph_path(path: str) -> str:
    """A cited clause at the level the index holds: ``a6_2/p1/i2`` → ``a6_2/p1`` (an item lives in its
    paragraph's text); ``a709`` stays an article."""
    parts = path.split("/")
    keep = [p for p in parts if p.startswith(("suppl", "a", "p"))]
    return "/".join(keep[: 3 if keep and keep[0].startswith("suppl") else 2])


def fuse(lists: Mapping[str, Sequence[Retrieved]], k: int, *, rrf_k: float = DEFAULT_K,
         weights: Mapping[str, float] | None = None, fusion: str = DEFAULT_FUSION,
         affinity: Mapping[str, float] | None = None) -> list[Retrieved]:
    """The weighted mean of min-max normalised scores (``fusion="mean"``; ``weights`` override
    `DEFAULT_MEAN_WEIGHTS` list by list, so that ``{"dense": 0.5}`` keeps the cited clauses' weight) or RRF
    (``"rrf"``, ``rrf_k``; a list not named in ``weights`` weighs 1.0) over named lists. Each result keeps its rank
    in every list it appeared in.

    ``affinity`` (law id → value in [0, 1], `law_prior.law_affinity`) adds law-level evidence to the ``mean``
    fusion: each item of a law gains ``weights["law"]`` (`DEFAULT_LAW_PRIOR`) times its law's value. RRF ignores
    it."""
    if fusion not in FUSIONS:
        raise ConfigurationError(f"fusion must be one of {', '.join(FUSIONS)}, not {fusion!r}")
    names = list(lists)
    hits: dict[str, IndexHit] = {}
    for ranked in lists.values():
        for item in ranked:
            hits.setdefault(item.uid, item.hit)
    if fusion == "mean":
        weights = {**DEFAULT_MEAN_WEIGHTS, **(weights or {})}
    factors = None if weights is None else [float(weights.get(name, 1.0)) for name in names]
    if fusion == "mean":
        prior = None
        if affinity:  # only a search for clauses has one: a clause's law is in its uid
            prior = {uid: affinity.get(provision_law_id(uid), 0.0) for uid in hits}
        fused = mean_normalised([[(item.uid, item.score) for item in lists[name]] for name in names],
                                weights=factors, limit=k, prior=prior,
                                prior_weight=law_prior_weight(weights))
    else:
        fused = rrf([[item.uid for item in lists[name]] for name in names], k=rrf_k, weights=factors, limit=k)
    return [
        Retrieved(hits[s.id], s.score, rank,
                  {name: r for name, r in zip(names, s.ranks, strict=True) if r is not None})
        for rank, s in enumerate(fused, start=1)
    ]


def retrieve_lists(retrievers: Sequence[Retriever], question: str, k: int,
                   where: SearchFilter) -> dict[str, list[Retrieved]]:
    """Each retriever's list, by name; a BM25 and a dense retriever over the same index are asked together
    (`SearchIndex.hybrid_search`): one query on Neo4j instead of two."""
    bm25, dense = _shared_index_pair(retrievers)
    lists: dict[str, list[Retrieved]] = {}
    if bm25 is not None and dense is not None:
        text, nearest = bm25.index.hybrid_search(question_terms(question), dense.query_vector(question), k, where)
        lists = {bm25.name: _ranked(text, bm25.name), dense.name: _ranked(nearest, dense.name)}
    return {r.name: lists[r.name] if r.name in lists else r.retrieve(question, k, where) for r in retrievers}


def retrieve_lists_of_kinds(retrievers: Sequence[Retriever], question: str, depths: Mapping[UnitKind, int],
                            where: SearchFilter) -> dict[UnitKind, dict[str, list[Retrieved]]]:
    """`retrieve_lists` of each kind in `depths`, at its own depth; a BM25 and a dense retriever over the same
    index are asked for every kind at once (`SearchIndex.hybrid_search_kinds`): one query on Neo4j for a search's
    clauses and chunks."""
    bm25, dense = _shared_index_pair(retrievers)
    together: dict[UnitKind, dict[str, list[Retrieved]]] = {kind: {} for kind in depths}
    if bm25 is not None and dense is not None:
        found = bm25.index.hybrid_search_kinds(question_terms(question), dense.query_vector(question), depths, where)
        together = {kind: {bm25.name: _ranked(text, bm25.name), dense.name: _ranked(nearest, dense.name)}
                    for kind, (text, nearest) in found.items()}
    return {kind: {r.name: together[kind][r.name] if r.name in together[kind]
                   else r.retrieve(question, depth, replace(where, kind=kind)) for r in retrievers}
            for kind, depth in depths.items()}


def _shared_index_pair(retrievers: Sequence[Retriever]) -> tuple[Bm25Retriever | None, DenseRetriever | None]:
    """The BM25 and the dense retriever among `retrievers` when both search the same index, else (None, None)."""
    bm25 = next((r for r in retrievers if isinstance(r, Bm25Retriever)), None)
    dense = next((r for r in retrievers if isinstance(r, DenseRetriever)), None)
    if bm25 is None or dense is None or bm25.index is not dense.index:
        return None, None
    return bm25, dense


class FusionRetriever:
    """Several retrievers fused (`fuse`), each asked for `depth` results under the same filter.

    With ``index``, a ``mean`` fusion of clauses adds law-level evidence: how well each candidate law's vocabulary
    explains the question (`law_prior`), read from the index's per-law term counts, and with ``law_citations``
    how many other laws cite it (`law_prior.citation_prior`)."""

    def __init__(self, retrievers: Sequence[Retriever], *, rrf_k: float = DEFAULT_K,
                 weights: Mapping[str, float] | None = None, depth: int = FUSION_DEPTH, name: str = "hybrid",
                 fusion: str = DEFAULT_FUSION, index: SearchIndex | None = None,
                 law_citations: LawCitations | None = None) -> None:
        self.retrievers = list(retrievers)
        self.index = index
        self.law_citations = law_citations
        self.fusion = fusion
        self.rrf_k = rrf_k
        self.weights = weights
        self.depth = depth
        self.name = name

    def retrieve(self, question: str, k: int, where: SearchFilter) -> list[Retrieved]:
        depth = max(k, self.depth)
        lists = retrieve_lists(self.retrievers, question, depth, where)
        return self.fused(question, lists, k, where)

    def retrieve_kinds(self, question: str, ks: Mapping[UnitKind, int],
                       where: SearchFilter) -> dict[UnitKind, list[Retrieved]]:
        lists = retrieve_lists_of_kinds(self.retrievers, question, {kind: max(k, self.depth) for kind, k in ks.items()},
                                        where)
        return {kind: self.fused(question, lists[kind], k, replace(where, kind=kind)) for kind, k in ks.items()}

    def fused(self, question: str, lists: Mapping[str, Sequence[Retrieved]], k: int,
              where: SearchFilter) -> list[Retrieved]:
        """The best k of `lists` (one kind's), fused as this retriever fuses them."""
        return fuse(lists, k, rrf_k=self.rrf_k, weights=self.weights, fusion=self.fusion,
                    affinity=self.law_evidence(question, lists, where))

    def law_evidence(self, question: str, lists: Mapping[str, Sequence[Retrieved]],
                      where: SearchFilter) -> dict[str, float] | None:
        """The candidate laws' affinity with the question, when it counts: a ``mean`` fusion of clauses (a chunk
        belongs to no one law), an index to read the laws' vocabulary from, and a law weight above 0."""
        weight = law_prior_weight(self.weights)
        if self.index is None or self.fusion != "mean" or where.kind != "provision" or weight <= 0:
            return None
        terms = question_terms(question)
        laws = {provision_law_id(item.uid) for ranked in lists.values() for item in ranked}
        vocabulary = self.index.law_vocabulary(terms, laws)
        if not laws <= set(vocabulary.laws):  # a part built before the counts: weigh no law against it
            return None
        return law_affinity(terms, vocabulary, laws, citing=self.citing())

    def citing(self) -> Mapping[str, int] | None:
        """How many other laws cite each law (the citation prior of the law-level evidence), or None without it:
        what a fusion that weighs the hybrid's candidate laws itself passes to `law_affinity`."""
        return self.law_citations.counts() if self.law_citations is not None else None


HYDE_PROMPT = (
    "あなたは日本法の専門家です。次の質問に答える法令の条文または解説の一節を、それらしく一つ書いてください。"
    "条文番号や法令名が分かれば含めてください。前置きは不要です。\n\n質問: {question}"
)


#: HyDE's searches: both (``hyde``), or one of them alone as the integrated-citation-graph paper reports them
#: (``hyde-bm25``: HyDE + BM25, its best Recall@20; ``hyde-dense``: HyDE + e5).
HYDE_SEARCHES = {"hyde": ("bm25", "dense"), "hyde-bm25": ("bm25",), "hyde-dense": ("dense",)}


class HydeRetriever:
    """HyDE: hypothetical answers written by the LLM, searched by BM25 and as dense passages, fused with the
    question's own BM25 and dense lists. With ``searches`` one of them only (``("bm25",)``: the question and the
    answers by BM25 alone, the paper's HyDE + BM25), and no extra lists. The hypothetical answers are kept
    (`last_answers`) so the CLI can show what was searched."""

    name = "hyde"

    def __init__(self, index: SearchIndex, embedder: Embedder, llm: LLMClient, *, answers: int = HYDE_ANSWERS,
                 rrf_k: float = DEFAULT_K, depth: int = FUSION_DEPTH, extra: Sequence[Retriever] = (),
                 searches: Sequence[str] = ("bm25", "dense")) -> None:
        check_embedder(index, embedder)
        self.index = index
        self.embedder = embedder
        self.llm = llm
        self.searches = tuple(searches)
        # The question's own lists (BM25, dense, and any extra such as its citations), fused with the answers'.
        own: list[Retriever] = [Bm25Retriever(index), DenseRetriever(index, embedder)]
        self.question_lists = [r for r in own if r.name in self.searches]
        if len(self.searches) > 1:
            self.question_lists += list(extra)
        self.answers = answers
        self.rrf_k = rrf_k
        self.depth = depth
        self.last_answers: list[str] = []
        self._answered: str | None = None
        self._answer_vectors: np.ndarray | None = None

    def hypothetical_answers(self, question: str) -> list[str]:
        prompt = [{"role": "user", "content": HYDE_PROMPT.format(question=question)}]
        return [text for text in (self.llm.complete(prompt).strip() for _ in range(self.answers)) if text]

    def retrieve(self, question: str, k: int, where: SearchFilter) -> list[Retrieved]:
        depth = max(k, self.depth)
        if question != self._answered:  # one question searched for clauses, then chunks: ask the model once
            self.last_answers = self.hypothetical_answers(question)
            wants_vectors = self.last_answers and "dense" in self.searches
            self._answer_vectors = self.embedder.embed_passages(self.last_answers) if wants_vectors else None
            self._answered = question
        lists = {r.name: r.retrieve(question, depth, where) for r in self.question_lists}
        for i, answer in enumerate(self.last_answers, start=1):
            if "bm25" in self.searches:
                lists[f"hyde{i}-bm25"] = _ranked(self.index.text_search(tokenize(answer), depth, where), "bm25")
            if self._answer_vectors is not None:
                vector = self._answer_vectors[i - 1]
                lists[f"hyde{i}-dense"] = _ranked(self.index.vector_search(vector, depth, where), "dense")
        return fuse(lists, k, rrf_k=self.rrf_k, fusion="rrf")  # HyDE fuses by rank, as its paper does
