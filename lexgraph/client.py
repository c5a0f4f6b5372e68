"""The Python client: everything the CLI does, returning typed values.

>>> from lexgraph import LexGraph
>>> with LexGraph.open("lexgraph-store") as lg:                      # doctest: +SKIP
...     lg.ingest_statutes(["民法.xml"])
...     print(lg.law("民法").title, lg.show("民法", "第七百九条", as_of=date(2023, 7, 1)).provision.text)
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from importlib import resources
from pathlib import Path
from typing import Any

from lexgraph.answer.answerer import AskOptions
from lexgraph.answer.answerer import ask as ask_question
from lexgraph.answer.guardrails import DEFAULT_MAX_REPAIRS, RetriesExhausted
from lexgraph.answer.interview import Interview, StoredKnowledge, clause_resolver, store_knowledge
from lexgraph.answer.llm import NOT_CONFIGURED, LLMClient, LLMUnavailable, configured_client
from lexgraph.answer.model import Answer
from lexgraph.answer.turnlog import Turn, append_jsonl, record_turn
from lexgraph.answer.turnlog import now as turn_now
from lexgraph.citations import Citation, CitationContext, extract
from lexgraph.documents.ingest import DEFAULT_CHUNK_SIZE, DEFAULT_OVERLAP, DocumentSummary, ingest_documents
from lexgraph.documents.judgment import load_landmarks
from lexgraph.documents.prepare import iter_judgments, iter_literature
from lexgraph.documents.reading import (
    DOCUMENT_KINDS,
    CitingDocument,
    PrecedentView,
    documents_citing,
    find_precedent,
    precedent_view,
)
from lexgraph.index.build import IndexProgress, IndexStatus, IndexSummary, index_status, open_index, refresh_index
from lexgraph.index.embed import Embedder, get_embedder
from lexgraph.index.query import UNIT_KINDS, SearchFilter, SearchIndex, UnitKind
from lexgraph.model import LawInfo, LawVersionInfo
from lexgraph.retrieve.fusion import DEFAULT_K as DEFAULT_RRF_K
from lexgraph.retrieve.retrievers import Retriever
from lexgraph.retrieve.search import SearchOptions, SearchResult, make_retriever, search
from lexgraph.statutes.catalog import Catalog, LawEntry
from lexgraph.statutes.crossrefs import LinkSummary, link_laws, store_catalog
from lexgraph.statutes.ingest import IngestSummary, ProgressCallback, ingest_statutes
from lexgraph.statutes.reading import (
    AmbiguousLaw,
    ClauseLinks,
    LawDiff,
    LawNotFound,
    ProvisionAsOf,
    clause_links,
    law_diff,
    law_versions,
    provision_as_of,
    resolve_law,
)
from lexgraph.statutes.revisions import StoreRevisions
from lexgraph.statutes.sources import DatingFlags, select_laws
from lexgraph.store import GraphStore, open_store
from lexgraph.store.base import Row, StoreCounts
from lexgraph.store.copy import DEFAULT_BATCH, CopySummary, copy_store
from lexgraph.store.doctor import DoctorReport, examine


class LexGraph:
    """A handle on one store. Open it read-only for queries alongside a running ingest."""

    def __init__(self, store: GraphStore, catalog: Catalog | None = None) -> None:
        self.store = store
        self._catalog = catalog
        self._question_context: tuple[Catalog, StoreRevisions] | None = None
        self._search_index: SearchIndex | None = None
        self._embedder: Embedder | None = None

    @classmethod
    def open(cls, location: str | Path, *, read_only: bool = False, migrate: bool = True) -> LexGraph:
        store = open_store(str(location), read_only=read_only)
        if migrate and not read_only:
            store.migrate()
        return cls(store)

    @property
    def catalog(self) -> Catalog:
        if self._catalog is None:
            self._catalog = Catalog.bundled()
        return self._catalog

    # -- statutes -----------------------------------------------------------------------------------------------
    def ingest_statutes(
        self, paths: Sequence[str | Path], *, revision: str | None = None, in_force_on: date | None = None,
        on_file: ProgressCallback | None = None, link: bool = True, on_link: Callable[[str], None] | None = None,
        laws: Sequence[str] = (),
    ) -> IngestSummary:
        """`laws` (titles, 略称, law numbers or ids) reads only those laws' files, e.g. a few laws of the whole
        e-Gov archive."""
        self._question_context = None  # the stored laws change: questions resolve against the new catalogue
        only = None
        if laws:
            entries = [self._catalog_entry(name) for name in laws]
            only = select_laws([e.law_id for e in entries], [e.law_num for e in entries])
        return ingest_statutes(
            self.store, paths, flags=DatingFlags(revision=revision, in_force_on=in_force_on),
            catalog=self.catalog, on_file=on_file, link=link, on_link=on_link, only=only,
        )

    def _catalog_entry(self, name: str) -> LawEntry:
        entries = self.catalog.lookup(name)
        if not entries:
            raise LawNotFound(f"--law {name!r}: no such law in the catalogue; give a title, a law number "
                              "(平成三年法律第九十号), an abbreviation or an e-Gov law id")
        if len(entries) > 1 and entries[0].title != name.strip() and entries[0].law_id != name.strip():
            options = ", ".join(f"{e.title} ({e.law_id})" for e in entries[:5])
            raise AmbiguousLaw(f"--law {name!r} could mean {options}; give the law id instead")
        return entries[0]

    def ingest_precedents(self, paths: Sequence[str | Path], *, size: int = DEFAULT_CHUNK_SIZE,
                          overlap: int = DEFAULT_OVERLAP, on_document: Callable[[str], None] | None = None
                          ) -> DocumentSummary:
        """Judgment texts and metadata records: precedents, their chunks and what they cite."""
        return ingest_documents(self.store, iter_judgments(paths, size=size, overlap=overlap),
                                catalog=self.catalog, on_document=on_document)

    def ingest_literature(self, paths: Sequence[str | Path], *, kind: str | None = None, title: str | None = None,
                          day: date | None = None, source: str | None = None, size: int = DEFAULT_CHUNK_SIZE,
                          overlap: int = DEFAULT_OVERLAP, on_document: Callable[[str], None] | None = None
                          ) -> DocumentSummary:
        """Books and guidelines (Markdown, text, PDF, or a registry folder): documents, chunks, citations."""
        documents = iter_literature(paths, kind=kind, title=title, day=day.isoformat() if day else None,
                                    source=source, size=size, overlap=overlap)
        return ingest_documents(self.store, documents, catalog=self.catalog, on_document=on_document)

    def law(self, name: str) -> LawInfo:
        return resolve_law(self.store, name, self.catalog)

    def show(self, law: str, clause: str, *, as_of: date | None = None) -> ProvisionAsOf:
        return provision_as_of(self.store, self.law(law), clause, as_of or date.today())

    def cites(self, law: str, clause: str, *, as_of: date | None = None) -> ClauseLinks:
        """The clauses that `clause` of `law` (or a clause inside it) cites, both as worded on `as_of`."""
        return clause_links(self.store, self.law(law), clause, as_of or date.today(), "cites")

    def cited_by(self, law: str, clause: str, *, as_of: date | None = None) -> ClauseLinks:
        """The clauses that cite `clause` of `law` (or a clause inside it), both as worded on `as_of`."""
        return clause_links(self.store, self.law(law), clause, as_of or date.today(), "cited_by")

    def documents_citing(self, law: str, clause: str, *, as_of: date | None = None,
                         kinds: tuple[str, ...] = DOCUMENT_KINDS) -> list[CitingDocument]:
        """Precedents, books and guidelines citing `clause` (any wording, or the one in force on `as_of`)."""
        return documents_citing(self.store, self.law(law), clause, as_of, kinds)

    def precedent(self, case: str) -> PrecedentView:
        """A precedent by lawsuit id, uid, case number or landmark name, with what it cites and who cites it."""
        landmarks = {m.name: m.id for m in load_landmarks(resources.files("lexgraph") / "data" / "landmarks.csv")}
        return precedent_view(self.store, find_precedent(self.store, case, landmarks))

    def link(self, laws: Sequence[str] | None = None, *, on_law: Callable[[str], None] | None = None
             ) -> LinkSummary:
        """(Re)compute clause cross-references for these laws (names or ids), or for every stored law."""
        law_ids = ([self.law(name).law_id for name in laws] if laws
                   else [row["law_id"] for row in self.store.query("laws_all")])
        return link_laws(self.store, law_ids, catalog=self.catalog, follow_citing=bool(laws), on_law=on_law)

    def cite(self, text: str, *, as_of: date | None = None, in_law: str | None = None, at: str | None = None,
             precedents: bool = True) -> list[Citation]:
        """Citations in `text`, resolved against the catalogue and the laws in this store (revision ids)."""
        catalog = store_catalog(self.store, self.catalog)
        revisions = StoreRevisions(self.store)
        context = (CitationContext.in_law(in_law, at, catalog=catalog, as_of=as_of, revisions=revisions)
                   if in_law else CitationContext(catalog=catalog, as_of=as_of, revisions=revisions))
        return extract(text, context, precedents=precedents)

    def versions(self, law: str) -> list[LawVersionInfo]:
        return law_versions(self.store, self.law(law))

    def diff(self, law: str, from_day: date, to_day: date, *, level: str = "article") -> LawDiff:
        return law_diff(self.store, self.law(law), from_day, to_day, level)

    def copy_to(self, location: str | Path, *, batch: int = DEFAULT_BATCH,
                on_batch: Callable[[str, int], None] | None = None) -> CopySummary:
        """Copy this whole graph into another store (e.g. bolt://… for Neo4j Browser); idempotent."""
        with LexGraph.open(location) as target:
            return copy_store(self.store, target.store, batch=batch, on_batch=on_batch)

    # -- search -------------------------------------------------------------------------------------------------
    def law_ids(self, names: Sequence[str]) -> tuple[str, ...]:
        """Stored laws by any name (title, 略称, number, id)."""
        return tuple(self.law(name).law_id for name in names)

    def index(self, *, laws: Sequence[str] = (), kinds: Sequence[UnitKind] = UNIT_KINDS, rebuild: bool = False,
              embedder: Embedder | None = None, progress: IndexProgress | None = None) -> IndexSummary:
        """Build or refresh the BM25 and vector indexes from the graph (only stale parts unless `rebuild`)."""
        summary = refresh_index(self.store, embedder or self._default_embedder(), laws=self.law_ids(laws),
                                kinds=kinds, rebuild=rebuild, progress=progress)
        self._drop_search_index()  # the files changed: the next search reopens them
        return summary

    def _open_search_index(self) -> SearchIndex:
        """The index, opened once per handle: opening reads every part's filter columns and maps its vectors."""
        if self._search_index is None:
            self._search_index = open_index(self.store)
        return self._search_index

    def _drop_search_index(self) -> None:
        if self._search_index is not None:
            self._search_index.close()
            self._search_index = None

    def _default_embedder(self) -> Embedder:
        """The default embedder, made once per handle: its model loads on first use and stays loaded."""
        if self._embedder is None:
            self._embedder = get_embedder()
        return self._embedder

    def index_status(self) -> IndexStatus:
        return index_status(self.store)

    def retriever(self, mode: str = "hybrid", *, embedder: Embedder | None = None, llm: LLMClient | None = None,
                  rrf_k: float = DEFAULT_RRF_K, weights: Mapping[str, float] | None = None) -> Retriever:
        """A retriever over this store's index; ``hyde`` uses `llm`, or the model configured in the environment."""
        if mode == "hyde" and llm is None:
            llm = configured_client()
        return make_retriever(mode, self._open_search_index(), embedder or self._default_embedder(), llm=llm,
                              rrf_k=rrf_k, weights=weights, cite=self._statute_citations)

    def _statute_citations(self, text: str, as_of: date | None) -> list[Citation]:
        """What a question cites, for the `cited` list of the fusing search modes. The store's catalogue is read
        once per retriever's life here, not per question: a search does not change the laws stored."""
        if self._question_context is None:
            self._question_context = (store_catalog(self.store, self.catalog), StoreRevisions(self.store))
        catalog, revisions = self._question_context
        return extract(text, CitationContext(catalog=catalog, as_of=as_of, revisions=revisions), precedents=False)

    def search(self, question: str, *, mode: str = "hybrid", as_of: date | None = None, laws: Sequence[str] = (),
               kind: UnitKind | None = None, options: SearchOptions | None = None,
               retriever: Retriever | None = None) -> SearchResult:
        """Ranked clauses and chunks for a question, and the evidence the citation graph selects from them."""
        options = options or SearchOptions(mode=mode)
        where = SearchFilter(as_of=as_of, laws=self.law_ids(laws), kind=kind)
        retriever = retriever or self.retriever(options.mode, rrf_k=options.rrf_k, weights=options.weights)
        return search(self.store, retriever, question, where=where, options=options)

    # -- answers ------------------------------------------------------------------------------------------------
    def turn_log_path(self) -> Path:
        """Where turns are logged: ``LEXGRAPH_TURN_LOG``, else beside an embedded store, else the working folder."""
        if os.environ.get("LEXGRAPH_TURN_LOG"):
            return Path(os.environ["LEXGRAPH_TURN_LOG"])
        if self.store.backend == "embedded":
            return Path(self.store.location) / "turns.jsonl"
        return Path("lexgraph-turns.jsonl")

    def ask(self, question: str, *, options: AskOptions | None = None, as_of: date | None = None,
            laws: Sequence[str] = (), search: SearchOptions | None = None, llm: LLMClient | None = None,
            use_model: bool = True, log: Path | None = None, record: bool = True,
            retriever: Retriever | None = None) -> Answer:
        """Answer with citations on every sentence: from the model configured in the environment (or `llm`),
        or extractively when there is none (or `use_model` is False). Every turn goes to the turn log and,
        with `record`, into the graph; a failure is logged before it is raised. Pass a `retriever` to reuse one
        across questions."""
        options = options or AskOptions()
        day = as_of or date.today()
        model = llm if llm is not None else (configured_client() if use_model else None)
        search = search or SearchOptions()
        retriever = retriever or self.retriever(search.mode, rrf_k=search.rrf_k, weights=search.weights, llm=model)

        def retrieve(text: str) -> SearchResult:
            return self.search(text, as_of=day, laws=laws, options=search, retriever=retriever)

        started = time.perf_counter()
        asked_at = turn_now()
        answer: Answer | None = None
        try:
            answer = ask_question(self.store, question, retrieve, model, day, options)
        except (RetriesExhausted, LLMUnavailable) as error:
            self._log_turn(Turn(question, day, options.mode, options.prompt_style,
                                model.config.model if model else None, asked_at, time.perf_counter() - started,
                                error=str(error), attempts=getattr(error, "attempts", ()),
                                prompts=getattr(error, "prompts", ())), log, record)
            raise
        self._log_turn(Turn(question, day, options.mode, options.prompt_style, answer.model, asked_at,
                            time.perf_counter() - started, answer=answer), log, record)
        return answer

    def interview(self, *, topic: str | None = None, llm: LLMClient | None = None,
                  max_repairs: int = DEFAULT_MAX_REPAIRS) -> Interview:
        """A contract-review knowledge interview with the configured model (`LLMUnavailable` without one)."""
        model = llm if llm is not None else configured_client()
        if model is None:
            raise LLMUnavailable(f"the knowledge interview needs a model; {NOT_CONFIGURED}")
        return Interview(model, topic=topic, max_repairs=max_repairs)

    def save_knowledge(self, knowledge: dict[str, Any], *, day: date | None = None,
                       transcript: str = "") -> list[StoredKnowledge]:
        """Finished interview entries as (:Knowledge), linked to the clauses their legal basis names."""
        resolve = clause_resolver(self.store, self._statute_citations)
        return store_knowledge(self.store, knowledge, resolve, day=day or date.today(), interview_log=transcript)

    def _log_turn(self, turn: Turn, log: Path | None, record: bool) -> None:
        append_jsonl(log or self.turn_log_path(), turn)
        if record:
            record_turn(self.store, turn)

    # -- the store ----------------------------------------------------------------------------------------------
    def stats(self) -> StoreCounts:
        return self.store.counts()

    def doctor(self) -> DoctorReport:
        return examine(self.store)

    def query(self, cypher: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        """User Cypher, always read-only."""
        return self.store.run_read_only(cypher, params)

    def close(self) -> None:
        self._drop_search_index()
        self.store.close()

    def __enter__(self) -> LexGraph:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
