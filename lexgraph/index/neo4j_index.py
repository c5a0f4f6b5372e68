"""The Neo4j backend's search indexes: native full-text and vector indexes over node properties.

`lexgraph index` gives each indexed clause and chunk a search entry, ``(:Provision)-[:INDEXED_AS]->
(:ProvisionSearch)`` and ``(:Chunk)-[:INDEXED_AS]->(:ChunkSearch)``, holding ``tokens`` (Sudachi, space-separated),
``embedding``, the heading shown with a hit (``name``), the text, and the fields searches filter on (``laws``,
``valid_from``, ``valid_until``): a person reading the clause in Neo4j Browser never meets 384 floats.
Neo4j keeps its indexes current as the entries change. Migration V013 creates the full-text index
``lexgraph_tokens`` over the entries of both kinds with the ``whitespace`` analyzer, so BM25 ranks the same tokens
as tantivy does in the embedded backend, with the same statistics (one index over both kinds there too: an index
per kind would change every BM25 score, and the top 10 with it). The vector indexes
(``provision_embedding``, ``chunk_embedding``, cosine) are created here because their dimensions are the
embedder's. ``(:IndexPart {name, fingerprint})`` records what each part was built from, for `doctor`.

Filters run inside the ranking: the full-text procedure streams matches best first, so ``WHERE … LIMIT k`` keeps
the best k allowed; the vector procedure returns a fixed number of neighbours, so it is over-fetched and widened,
and when the filter is narrower than that the exact query (cosine over the allowed nodes) answers instead.
"""

from __future__ import annotations

import re
import time
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from lexgraph.errors import ConfigurationError, IndexUnavailable, InputError, StoreError
from lexgraph.index.backends import RecordedParts
from lexgraph.index.embed import Embedder, EmbeddingCache
from lexgraph.index.law_terms import LawTermsReader, LawVocabulary, TermCounts, collection_of, count_terms
from lexgraph.index.neo4j_files import StoredFile, fetch_files, stored_files
from lexgraph.index.parts import IndexProgress, IndexSummary, build_part, now
from lexgraph.index.query import (
    UNIT_KINDS,
    IndexHit,
    IndexKind,
    SearchFilter,
    SearchIndex,
    UnitBatch,
    UnitColumns,
    UnitKind,
)
from lexgraph.index.tokenize import TOKENIZER_VERSION
from lexgraph.index.units import (
    CitedTarget,
    IndexUnit,
    article_path,
    law_part,
    law_titles,
    natural_path,
    part_law_id,
    unit_from_row,
    unit_row,
)
from lexgraph.statutes.timeline import provision_law_id
from lexgraph.store.base import GraphStore
from lexgraph.store.rows import (
    INDEX_COLLECTION_TERMS,
    INDEX_EXACT_CHUNKS,
    INDEX_EXACT_PROVISIONS,
    INDEX_LAW_PATHS,
    INDEX_LAW_TERMS,
    INDEX_PARTS,
    INDEX_SEARCH,
    INDEX_UNITS_BY_UID,
    INDEX_UNITS_UNDER,
    INDEX_VECTOR_INDEXES,
    INDEX_VECTOR_SEARCH,
    INDEX_VECTORS_BY_UID,
    IndexCollectionTermsRow,
    IndexLawTermsRow,
    SearchHitRow,
)

#: Lucene's default limit on the clauses of one query.
MAX_TERMS = 1000
_LUCENE_OPERATORS = frozenset({"AND", "OR", "NOT"})
_LUCENE_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/&|])')
#: Each kind's vector index and the label of its search entries (migration V013: the search fields of a clause or
#: chunk live on a node of their own, out of the way of a person reading it in Neo4j Browser).
_VECTOR_INDEX = {"provision": ("provision_embedding", "ProvisionSearch"), "chunk": ("chunk_embedding", "ChunkSearch")}
#: Each kind's ``unit_label`` on its search entries (index_write_provisions / index_write_chunks), a field of the
#: full-text index since migration V016.
_UNIT_LABEL = {"provision": "Provision", "chunk": "Chunk"}
_WIDEN = 4
_MAX_FETCH = 10_000
#: The fewest candidates asked of a vector index. Neo4j's HNSW (Lucene) searches as deep as the number of
#: neighbours asked for, and at 4×k = 40 it missed clauses of the exact top 10 on 27 of lawqa_jp's 69 dev
#: questions (the sample store, bench/dense_agreement.py); from 200 on, the top 10 equalled the embedded
#: store's (exact below 100,000 vectors) on all 69. Twice that, for stores larger than the sample, costs no
#: measurable time (docs/neo4j.md, "Search indexes").
MIN_CANDIDATES = 400
#: The hits of each list that come with their fields from the search query itself: a fused top 10 is largely made
#: of the first twenty of the BM25 and dense lists (on 32 of lawqa_jp's 69 dev questions wholly, against none with
#: ten), so reading the shown hits often costs no second round trip; the rest travel as uid and score.
DETAILED = 20
#: The full-text hits read past the k-th, so that a tie across the k-th place is ordered by uid (`index_search`).
TEXT_MARGIN = 50
#: The full-text procedure's ``limit`` that means every match (it is capped at the index's size; measured no slower
#: than no limit at all), for a filtered search, whose filter runs after the index.
EVERY_MATCH = 2**31 - 1


def index_key(embedder_name: str) -> str:
    return f"{TOKENIZER_VERSION}|{embedder_name}"


def lucene_query(tokens: Sequence[str], kind: UnitKind | None = None) -> str:
    """The tokens as a Lucene OR query on the index's ``tokens`` field, every special character escaped: query text
    is data, never syntax. Empty when there are no tokens.

    With `kind`, only search entries of that kind match, and a hit's score is its ``tokens`` score alone, the same
    as without the kind (Lucene keeps statistics per field, and sums the scores of a boolean query's clauses):
    clauses are searched with the chunks excluded (``-unit_label:Chunk``, migration V016), chunks with their kind
    required at a boost of 0 (``+unit_label:Chunk^0``). Why two forms: a required clause that matches most of the
    index (the clauses' kind, 707,593 entries of the whole archive) makes Lucene visit every entry that matches a
    term, where an excluded one that matches few (the chunks) lets it skip the entries that cannot reach the top,
    when the search asks for a limited number of hits (`index_search`): 15 ms a question against 269 ms, the
    same hits and scores (docs/neo4j.md, section 5); the chunks, few, are found fastest by requiring theirs."""
    terms = list(dict.fromkeys(t for t in tokens if t))[:MAX_TERMS]
    if not terms:
        return ""
    query = "tokens:(" + " ".join(_escaped(term) for term in terms) + ")"
    if kind is None:
        return query
    if kind == "provision":
        return f"+{query} -unit_label:{_UNIT_LABEL['chunk']}"
    return f"+unit_label:{_UNIT_LABEL[kind]}^0 +{query}"


def _escaped(term: str) -> str:
    """A term as Lucene's classic query parser reads a word: its special characters escaped, and an operator word
    (AND, OR, NOT) escaped too, which the parser would otherwise take as syntax."""
    escaped = _LUCENE_SPECIAL.sub(r"\\\1", term)
    return "\\" + escaped if escaped in _LUCENE_OPERATORS else escaped


def vector_index_dimensions(store: GraphStore) -> dict[str, int | None]:
    """The dimensions of lexgraph's vector indexes that exist, by index name."""
    names = {name for name, _ in _VECTOR_INDEX.values()}
    return {row.name: (int(row.dimensions) if row.dimensions is not None else None)
            for row in store.rows(INDEX_VECTOR_INDEXES) if row.name in names}


def vector_index_problem(store: GraphStore, dim: int) -> str | None:
    """Why the vector indexes do not fit ``dim``-dimensional embeddings (what `doctor` reports), or None.

    Neo4j leaves a vector of another length out of the index without an error, so after a change of embedder
    an index made for the old one would find nothing new and every search would fall back to a full scan."""
    wrong = {name: found for name, found in vector_index_dimensions(store).items() if found != int(dim)}
    if not wrong:
        return None
    described = ", ".join(f"{name} has {found}" for name, found in sorted(wrong.items()))
    return (f"the vector indexes do not match the {dim}-dimensional embeddings of the index parts ({described}); "
            "run `lexgraph index --rebuild`")


def ensure_vector_indexes(store: GraphStore, dim: int) -> None:
    """Create the two vector indexes for ``dim``-dimensional embeddings: no-op when they exist with those
    dimensions, dropped and made again when they were made for another embedder's, or quantize their vectors.

    Unquantized (``vector.quantization.enabled: false``, Neo4j 5.23+; older servers do not quantize): the index's
    own scores are then the exact cosine, so that a client ranking by them (neo4j-graphrag's retrievers, LangChain's
    Neo4jVector) orders candidates as lexgraph does, which re-ranks by the stored vectors. It costs memory (4 bytes
    a dimension instead of 1), not measurable time at lexgraph's sizes."""
    dimensions = int(dim)
    if not 0 < dimensions <= 4096:
        raise ConfigurationError(f"embedding dimensions must be between 1 and 4096, not {dim!r}")
    existing = {row.name: row for row in store.rows(INDEX_VECTOR_INDEXES)}
    for name, label in _VECTOR_INDEX.values():
        found = existing.get(name)
        if found is not None and (found.dimensions != dimensions or found.quantized is True
                                  or list(found.labels or ()) != [label]):  # made before V013: on the units
            store.run_schema_statement(f"DROP INDEX {name} IF EXISTS")  # type: ignore[attr-defined]
        # Built from constants and a checked integer, never from user text.
        config = f"`vector.dimensions`: {dimensions}, `vector.similarity_function`: 'cosine'"
        try:
            store.run_schema_statement(  # type: ignore[attr-defined]
                f"CREATE VECTOR INDEX {name} IF NOT EXISTS FOR (n:{label}) ON n.embedding "
                f"OPTIONS {{indexConfig: {{{config}, `vector.quantization.enabled`: false}}}}")
        except StoreError as err:  # a server before 5.23 knows no quantization setting (and does not quantize)
            if "quantization" not in str(err):
                raise
            store.run_schema_statement(  # type: ignore[attr-defined]
                f"CREATE VECTOR INDEX {name} IF NOT EXISTS FOR (n:{label}) ON n.embedding "
                f"OPTIONS {{indexConfig: {{{config}}}}}")


class Neo4jIndex:
    """Search through the database's own indexes."""

    #: The index lives in the database: no folder beside it for derived files (saved trees; the anchor field's
    #: files are kept in the database itself, `anchor_directory`).
    directory: Path | None = None

    def __init__(self, store: GraphStore) -> None:
        parts = store.rows(INDEX_PARTS)
        if not parts:
            raise IndexUnavailable(f"no search index in {store.location}; build it with `lexgraph index`")
        self.store = store
        self.embedder_name = str(parts[0].embedder)
        self.dim = int(parts[0].dim)
        # Indexed units of each kind (a law's part holds clauses, the chunks' part chunks): how deep a search can go.
        self._units: dict[str, int] = {}
        for part in parts:
            kind = "provision" if part_law_id(str(part.name)) is not None else "chunk"
            self._units[kind] = self._units.get(kind, 0) + int(part.rows or 0)
        self._law_terms = LawTermsReader(self._read_collection_terms, self._read_laws_terms)
        self._anchors: list[StoredFile] | None = None
        self._columns = Neo4jColumns(store)

    def lacks(self, kind: IndexKind) -> str | None:
        """Only the anchor field, when the database keeps none of its files (`index.neo4j_files`)."""
        if kind == "anchors" and not self._anchor_files():
            return ("a Neo4j store has no anchor field until one is built or copied into it: `lexgraph index "
                    "--statute-anchors` (the statutes' citations), `lexgraph index --anchors DIR` (judgment texts), "
                    "or `lexgraph copy --to` from an embedded store that has one")
        return None

    def _anchor_files(self) -> list[StoredFile]:
        """The anchor field's files the database keeps, read once (the index is reopened after a build)."""
        if self._anchors is None:
            self._anchors = sorted(stored_files(self.store).values(), key=lambda f: f.name)
        return self._anchors

    def anchor_directory(self) -> Path | None:
        """A local cache of the anchor field's files the database keeps, fetched on first use and checked against
        their records (`index.neo4j_files.fetch_files`); None when it keeps none. A fetch that finds chunks missing
        reads the records again once, in case another process wrote the files meanwhile."""
        files = self._anchor_files()
        if not files:
            return None
        try:
            return fetch_files(self.store, files)
        except InputError:
            again = sorted(stored_files(self.store).values(), key=lambda f: f.name)
            if again == files:
                raise
            self._anchors = again
            return fetch_files(self.store, again) if again else None

    def columns(self) -> UnitColumns:
        """Each law's clause paths, read from the database the first time the law is asked about and kept
        (`Neo4jColumns`)."""
        return self._columns

    def content(self) -> dict[str, Any] | None:
        """None: with no folder, nothing derived from the index is saved under a key of its content."""
        return None

    def text_search(self, tokens: Sequence[str], k: int, where: SearchFilter) -> list[IndexHit]:
        return self.hybrid_search(tokens, None, k, where)[0]

    def vector_search(self, vector: np.ndarray, k: int, where: SearchFilter) -> list[IndexHit]:
        return self.hybrid_search((), vector, k, where)[1]

    def hybrid_search(self, tokens: Sequence[str], vector: np.ndarray | None, k: int,
                      where: SearchFilter) -> tuple[list[IndexHit], list[IndexHit]]:
        """The filter's kind's two lists, or with no kind both kinds' merged by score, from one query."""
        kinds: Sequence[UnitKind] = (where.kind,) if where.kind else UNIT_KINDS
        found = self.hybrid_search_kinds(tokens, vector, dict.fromkeys(kinds, k), where)
        if where.kind:
            return found[where.kind]
        return (_best_hits([hit for text, _ in found.values() for hit in text], k),
                _best_hits([hit for _, nearest in found.values() for hit in nearest], k))

    def hybrid_search_kinds(self, tokens: Sequence[str], vector: np.ndarray | None, ks: Mapping[UnitKind, int],
                            where: SearchFilter) -> dict[UnitKind, tuple[list[IndexHit], list[IndexHit]]]:
        """Every kind's lists in one query (``index_search``, a row per kind): uids and scores, and the units of
        the first `DETAILED` of each list; any other hit's unit is read when first used, together with every other
        hit of the same search still held (`UnitBatch`). A kind with no more units than the candidates the vector
        index would be asked for is scanned exactly (the sample's 10 chunks); when the filter lets fewer than k of
        the index's candidates through, the index is asked again, deeper (`_nearest`)."""
        found: dict[UnitKind, tuple[list[IndexHit], list[IndexHit]]] = {kind: ([], []) for kind in ks}
        wanted = {kind: k for kind, k in ks.items() if k >= 1}
        if not wanted or (not any(tokens) and vector is None):
            return found
        query = None if vector is None else [float(x) for x in np.asarray(vector, dtype=np.float32).reshape(-1)]
        k = max(wanted.values())  # the query's LIMIT; each kind's lists are cut to its own k below
        fetch = max(k * _WIDEN, MIN_CANDIDATES)  # more candidates than k: the index's recall grows with them
        exact = {kind: self._units.get(kind, 0) <= fetch for kind in wanted}
        searches = [{"kind": kind, "label": _VECTOR_INDEX[kind][1], "index": _VECTOR_INDEX[kind][0],
                     "lucene": lucene_query(tokens, kind) or None, "exact": exact[kind]} for kind in wanted]
        # Unfiltered, the full-text index is asked for the hits the query keeps (k + 50), so that Lucene skips the
        # entries that cannot reach them; filtered, for every match, since the filter runs after it.
        unfiltered = not where.laws and where.day is None
        rows = self.store.rows(INDEX_SEARCH, searches=searches, vector=query, fetch=fetch, k=k, detail=DETAILED,
                               text_limit=k + TEXT_MARGIN if unfiltered else EVERY_MATCH, **self._params(where))
        units = UnitBatch(self.units_by_uid)
        for row in rows:
            units.know([_unit(fields) for fields in row.details])
        for row in rows:
            kind = row.kind
            text = [(str(uid), float(score)) for uid, score in row.text[:wanted[kind]]]
            nearest = [(str(uid), float(score)) for uid, score in row.nearest[:wanted[kind]]]
            if query is not None and not exact[kind] and len(nearest) < wanted[kind]:
                deeper = self._nearest(kind, query, wanted[kind], where, fetch * _WIDEN)
                nearest = [(str(r.uid), float(r.score)) for r in deeper]
            found[kind] = (units.hits(text), units.hits(nearest))
        return found

    def _nearest(self, kind: UnitKind, vector: list[float], k: int, where: SearchFilter,
                 fetch: int) -> list[SearchHitRow]:
        """The k nearest units of one kind when a filter is narrower than the first candidates: the index asked
        deeper, then the exact scan."""
        params = {"vector": vector, "k": k, **self._params(where)}
        units = self._units.get(kind, 0)
        while fetch <= _MAX_FETCH and units > fetch:
            rows = self.store.rows(INDEX_VECTOR_SEARCH, index=_VECTOR_INDEX[kind][0], fetch=fetch, **params)
            if len(rows) >= k:
                return rows
            fetch *= _WIDEN
        return self.store.rows(INDEX_EXACT_CHUNKS if kind == "chunk" else INDEX_EXACT_PROVISIONS, **params)

    def units_by_uid(self, uids: Sequence[str]) -> dict[str, IndexUnit]:
        return {row.uid: _unit(row._asdict()) for row in self.store.rows(INDEX_UNITS_BY_UID, uids=list(uids))}

    @staticmethod
    def _params(where: SearchFilter) -> dict[str, Any]:
        return {"laws": list(where.laws), "as_of": where.day}

    def vectors_of(self, uids: Sequence[str]) -> dict[str, np.ndarray]:
        return {row.uid: np.asarray(row.embedding, dtype=np.float32)
                for row in self.store.rows(INDEX_VECTORS_BY_UID, uids=list(uids))}

    def law_vocabulary(self, terms: Sequence[str], laws: Iterable[str]) -> LawVocabulary:
        return self._law_terms.vocabulary(terms, laws)  # read once: a refresh elsewhere is seen on reopening

    def _read_collection_terms(self) -> TermCounts:
        rows = self.store.rows(INDEX_COLLECTION_TERMS)
        return neo4j_term_counts(rows[0]) if rows else TermCounts()

    def _read_laws_terms(self, laws: Sequence[str]) -> dict[str, TermCounts]:
        rows = self.store.rows(INDEX_LAW_TERMS, names=[law_part(law) for law in laws])
        return {law_id: neo4j_term_counts(row) for row in rows if (law_id := part_law_id(row.name)) is not None}

    def units_under(self, law_id: str, path: str, where: SearchFilter) -> list[IndexUnit]:
        if where.kind == "chunk" or (where.laws and law_id not in where.laws):
            return []
        rows = self.store.rows(INDEX_UNITS_UNDER, law_id=law_id, path=path, prefix=path + "/", as_of=where.day)
        return sorted((_unit(row._asdict()) for row in rows), key=lambda u: (natural_path(u.path), u.uid))

    def close(self) -> None:
        """The store owns the connection."""


class Neo4jColumns:
    """`UnitColumns` over the database: a law's indexed clauses (uid, path, period) read in one query when the law
    is first asked about, and kept. The learned fusion then counts a law's articles and lists an article's clauses
    as it does from the embedded index's path column, in the same order (a part's rows are its units sorted by uid),
    so that both backends give it the same candidates in the same order and rank alike.

    Why keep every law met, up to `UNITS_KEPT` clauses (more than the whole archive's 707,593), and not the few
    met last: the anchor field's best articles of one question span a few dozen laws of the whole archive, and
    lawqa_jp's 69 questions met more than 256 laws, so a cache of the last 256 read 4 laws again at every search
    (51 ms of a 219 ms search, warm). Each law costs its clauses' uids and paths and two small integer arrays
    (the embedded index holds every path in memory too)."""

    UNITS_KEPT = 1_000_000

    def __init__(self, store: GraphStore) -> None:
        self.store = store
        self._laws: OrderedDict[str, _LawPaths] = OrderedDict()
        self._units = 0

    def _law(self, law_id: str) -> _LawPaths:
        found = self._laws.get(law_id)
        if found is None:
            rows = sorted(self.store.rows(INDEX_LAW_PATHS, law_id=law_id), key=lambda row: str(row.uid))
            found = self._laws[law_id] = _LawPaths(
                tuple(str(r.uid) for r in rows), tuple(str(r.path) for r in rows),
                np.asarray([_ordinal(r.valid_from, _FIRST_DAY) for r in rows], dtype=np.int64),
                np.asarray([_ordinal(r.valid_until, _LAST_DAY) for r in rows], dtype=np.int64))
            self._units += len(rows)
            while self._units > self.UNITS_KEPT and len(self._laws) > 1:
                self._units -= len(self._laws.popitem(last=False)[1].uids)
        else:
            self._laws.move_to_end(law_id)
        return found

    def articles_of(self, law_id: str) -> Mapping[str, tuple[int, ...]]:
        return self._law(law_id).articles

    def uids_under(self, law_id: str, article: str, where: SearchFilter) -> list[str]:
        if where.kind == "chunk" or (where.laws and law_id not in where.laws):
            return []
        law = self._law(law_id)
        rows = law.articles.get(article, ())
        day = where.day
        if day is None:
            return [law.uids[r] for r in rows]
        ordinal = day.toordinal()  # as the embedded index filters: from ≤ day < until, an open end unbounded
        return [law.uids[r] for r in rows if law.valid_from[r] <= ordinal < law.valid_until[r]]

    def unit_paths(self, uids: Sequence[str]) -> dict[str, str]:
        """The paths of the uids whose law is already held (a caller reads the others' from their units: no law is
        read for a path alone)."""
        out = {}
        for uid in uids:
            law = self._laws.get(provision_law_id(uid))
            row = law.row_of.get(uid) if law is not None else None
            if row is not None and law is not None:
                out[uid] = law.paths[row]
        return out


_FIRST_DAY, _LAST_DAY = date.min.toordinal(), date.max.toordinal()


@dataclass(frozen=True)
class _LawPaths:
    uids: tuple[str, ...]
    paths: tuple[str, ...]
    valid_from: np.ndarray  # day ordinals; an open start the first day
    valid_until: np.ndarray  # an open end the last day

    @cached_property
    def articles(self) -> dict[str, tuple[int, ...]]:
        rows: dict[str, list[int]] = {}
        for row, path in enumerate(self.paths):
            rows.setdefault(article_path(path), []).append(row)
        return {article: tuple(r) for article, r in rows.items()}

    @cached_property
    def row_of(self) -> dict[str, int]:
        return {uid: row for row, uid in enumerate(self.uids)}


def _ordinal(value: Any, default: int) -> int:
    native = _native(value)
    return default if native is None else int(native.toordinal())


def _native(value: Any) -> Any:
    return value.to_native() if hasattr(value, "to_native") else value


def neo4j_term_counts(row: IndexCollectionTermsRow | IndexLawTermsRow) -> TermCounts:
    """Term counts stored as two parallel lists and a total (an ``IndexPart`` of a law, or ``IndexTerms``)."""
    return TermCounts(dict(zip(row.terms, (int(c) for c in row.term_counts), strict=True)), int(row.token_count))


def _best_hits(found: list[IndexHit], k: int) -> list[IndexHit]:
    """Hits of both kinds in one ranking, as the embedded index ranks a search of no kind: by score, ties by uid."""
    return sorted(found, key=lambda hit: (-hit.score, hit.uid))[:k]


def _unit(row: Mapping[str, Any]) -> IndexUnit:
    """A unit as `index_search` (each of its ``details``) or `index_units_by_uid` returns it: a chunk with what it
    cites (``cites``)."""
    fields = dict(row)
    fields["laws"] = tuple(fields["laws"] or ())
    for key in ("valid_from", "valid_until"):
        value = fields[key]
        fields[key] = value.to_native() if hasattr(value, "to_native") else value
    unit = unit_from_row(fields)
    cites = fields.get("cites")
    if cites is None:
        return unit
    return replace(unit, cites=tuple(CitedTarget(str(uid), str(label), str(law_id or ""), str(path or ""))
                                     for uid, label, law_id, path in cites))


_WRITE_BATCH = 2_000


class Neo4jIndexBackend:
    """`index.backends.IndexBackend` for Neo4j: the database's own full-text and vector indexes over properties
    `lexgraph index` writes; embeddings cached in the user's cache folder (there is no store directory)."""

    def location(self, store: GraphStore) -> str:
        return store.location

    def cache_directory(self, store: GraphStore) -> Path:
        return Path.home() / ".cache" / "lexgraph"

    def open(self, store: GraphStore) -> SearchIndex:
        return Neo4jIndex(store)

    def recorded_parts(self, store: GraphStore, *, check_files: bool = True) -> RecordedParts:
        rows = store.rows(INDEX_PARTS)
        if not rows:
            return {}, None, f"no search index in {store.location}; build it with `lexgraph index`"
        embedders = {row.embedder for row in rows}
        problem = None
        if len(embedders) > 1 or any(row.tokenizer != TOKENIZER_VERSION for row in rows):
            problem = "index parts were built with different embedders or tokenizers; run `lexgraph index --rebuild`"
        else:
            from lexgraph.index.neo4j_index import vector_index_problem

            problem = vector_index_problem(store, int(rows[0].dim))
        return ({row.name: (row.fingerprint, int(row.rows or 0)) for row in rows}, sorted(embedders)[0],
                problem)



    def recorded_suppl_vectors(self, store: GraphStore) -> bool | None:
        rows = store.rows(INDEX_PARTS)
        if not rows:
            return None
        return all(row.suppl_vectors is not False for row in rows)  # null: written before it was recorded

    def refresh(self, store: GraphStore, embedder: Embedder, cache: EmbeddingCache, current: dict[str, str],
                to_build: Sequence[str], orphaned: Sequence[str], *, rebuild: bool, full_rebuild: bool,
                summary: IndexSummary, progress: IndexProgress | None, suppl_vectors: bool = False) -> None:

        ensure_vector_indexes(store, embedder.dim)
        key = index_key(embedder.name)
        titles = dict(law_titles(store))
        for done, part in enumerate([*to_build, *orphaned], start=1):
            if progress is not None:
                progress("writing", done - 1, len(to_build) + len(orphaned))
            kind = "provision" if part_law_id(part) is not None else "chunk"  # a part holds one label
            with store.transaction() as tx:
                tx.query(f"index_clear_{kind}s", part=part)
                if part in orphaned:
                    tx.query("index_part_delete", name=part)
                    summary.removed.append(part)
            if part in orphaned:
                continue
            units, tokens, vectors = build_part(store, embedder, cache, part, titles, {}, summary, suppl_vectors)
            started = time.perf_counter()
            rows = [_neo4j_row(u, t, v) for u, t, v in zip(units, tokens, vectors, strict=True)]
            for start in range(0, len(rows), _WRITE_BATCH):
                with store.transaction() as tx:
                    tx.query(f"index_write_{kind}s", rows=rows[start:start + _WRITE_BATCH], index_key=key)
            counted = count_terms(tokens) if part_law_id(part) is not None else None
            with store.transaction() as tx:
                tx.query("index_part_record", name=part, fingerprint=current[part], rows=len(units),
                         built_at=now(), embedder=embedder.name, tokenizer=TOKENIZER_VERSION, dim=embedder.dim,
                         suppl_vectors=suppl_vectors,
                         terms=list(counted.counts) if counted else None,
                         term_counts=list(counted.counts.values()) if counted else None,
                         token_count=counted.total if counted else None)
            summary.seconds["write"] += time.perf_counter() - started
        if to_build or orphaned or not store.rows(INDEX_COLLECTION_TERMS):
            every_law = store.rows(INDEX_LAW_TERMS, names=None)
            collection = collection_of({row.name: neo4j_term_counts(row) for row in every_law})
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
    # a unit without a vector (its row of zeros) has no embedding: the vector index and the exact scan skip it
    return row | {"tokens": tokens, "embedding": vector.tolist() if np.any(vector) else None}
