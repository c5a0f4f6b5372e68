"""The Python client: `LexGraph`, one handle on a store, the entry point to every operation lexgraph offers,
returning typed values.

>>> from lexgraph import LexGraph
>>> with LexGraph.open("lexgraph-store") as lg:                      # doctest: +SKIP
...     lg.ingest_statutes(["民法.xml"])
...     print(lg.law("民法").title, lg.show("民法", "第七百九条", as_of=date(2023, 7, 1)).provision.text)

This module holds `LexGraph` and nothing else; import it from the package root (`lexgraph`), which is the
library's public face with the options, results and errors. Each job lives in a facade of `lexgraph.api` (one
class a module: `lg.reading`, `lg.searching`, ...), all sharing the handle's one `Session`; `LexGraph`'s methods
are each a one-line delegation to the facade that owns the job, kept so that ``lg.search(...)`` reads as it always
has. What this module imports at the top is light (no numpy, index engines, model clients or database drivers): a
method imports those when it runs, so that ``lexgraph --help``, ``law show`` and ``cite`` start fast.

One as-of rule (docs/architecture.md): `as_of` is a `datetime.date` or None, the day the law is read as of; None
means no day was asked, and then a method that reads one wording of a clause (`show`, `cites`, `cited_by`, `cite`,
`ask`) reads the one in force today, and a method over the graph's wordings (`search`, `documents_citing`,
`neighbourhood`) reads every wording, past and present.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from lexgraph.api.answering import Answering
from lexgraph.api.citing import Citing
from lexgraph.api.evaluating import Evaluating
from lexgraph.api.graphing import Graphing
from lexgraph.api.indexing import Indexing
from lexgraph.api.ingesting import Ingesting
from lexgraph.api.reading import Reading
from lexgraph.api.searching import Searching
from lexgraph.api.session import Session, StoreOnFirstWrite
from lexgraph.api.storing import Storing
from lexgraph.api.syncing import Syncing
from lexgraph.citations.extractors import DEFAULT_EXTRACTOR
from lexgraph.config import BufferPool
from lexgraph.documents.chunking import DEFAULT_OVERLAP
from lexgraph.documents.chunking import DEFAULT_SIZE as DEFAULT_CHUNK_SIZE
from lexgraph.eval.lawqa import LawqaQuestion
from lexgraph.index.units import UNIT_KINDS, UnitKind
from lexgraph.llm.client import LLMClient
from lexgraph.llm.guardrails import DEFAULT_MAX_REPAIRS
from lexgraph.model import LawInfo, LawVersionInfo
from lexgraph.read.documents import DOCUMENT_KINDS
from lexgraph.retrieve.options import SearchOptions
from lexgraph.statutes.catalog import Catalog
from lexgraph.store import GraphStore, open_store
from lexgraph.store.base import Row, StoreCounts
from lexgraph.store.copy import DEFAULT_BATCH

if TYPE_CHECKING:
    from lexgraph.answer.answerer import AskOptions
    from lexgraph.answer.interview import Interview
    from lexgraph.answer.knowledge import KnowledgeEntry, StoredKnowledge
    from lexgraph.answer.model import Answer
    from lexgraph.citations import Citation
    from lexgraph.eval.answers import AnswersReport
    from lexgraph.eval.experiment_run import ExperimentReport
    from lexgraph.eval.experiments import Experiment, Params
    from lexgraph.eval.mcqa import MCQAConfig, MethodRun
    from lexgraph.eval.retrieval import GoldQuestion, LawqaRun, RetrievalProgress
    from lexgraph.graph.neighbourhood import Neighbourhood
    from lexgraph.index.build import IndexProgress, IndexStatus, IndexSummary
    from lexgraph.index.embed import Embedder
    from lexgraph.index.query import SearchIndex
    from lexgraph.ingest.crossrefs import LinkSummary
    from lexgraph.ingest.documents import DocumentSummary
    from lexgraph.ingest.statutes import IngestSummary, ProgressCallback
    from lexgraph.ingest.sync import SyncSummary
    from lexgraph.read.documents import CitingDocument, PrecedentView
    from lexgraph.read.laws import ClauseLinks, LawDiff, ProvisionAsOf
    from lexgraph.retrieve.retrievers import Retriever
    from lexgraph.retrieve.search import SearchResult, StalePart
    from lexgraph.statutes.egov_api import SyncLimits
    from lexgraph.store.copy import CopySummary
    from lexgraph.store.doctor import DoctorReport
    from lexgraph.store.schema import SchemaReference

__all__ = ["LexGraph"]

_Method = TypeVar("_Method", bound=Callable[..., Any])


def _door(owner: Callable[..., Any]) -> Callable[[_Method], _Method]:
    """A delegating method of `LexGraph` documented by the facade method it calls: one text for both."""
    def documented(method: _Method) -> _Method:
        method.__doc__ = owner.__doc__
        return method
    return documented


class LexGraph:
    """A handle on one store. Open it read-only for queries alongside a running ingest.

    Each job lives in a facade, handed out as an attribute and sharing this handle's one session (the store, the
    catalogue, the search index, the embedder): `reading`, `ingesting`, `syncing`, `citing`, `indexing`,
    `searching`, `answering`, `evaluating`, `graphing`, `storing` (`lexgraph.api`). The methods below are each one
    delegation to the facade that owns the job."""

    def __init__(self, store: GraphStore, catalog: Catalog | None = None) -> None:
        self.session = Session(store, catalog)
        self.reading = Reading(self.session)
        self.ingesting = Ingesting(self.session, self.reading)
        self.syncing = Syncing(self.session, self.reading)
        self.citing = Citing(self.session)
        self.indexing = Indexing(self.session, self.reading)
        self.searching = Searching(self.session, self.reading, self.indexing, self.citing)
        self.answering = Answering(self.session, self.searching, self.citing)
        self.evaluating = Evaluating(self.session, self)
        self.graphing = Graphing(self.session, self.reading)
        self.storing = Storing(self.session)

    @classmethod
    def open(cls, location: str | Path, *, read_only: bool = False, migrate: bool = True,
             buffer_pool: BufferPool | int | str | None = None) -> LexGraph:
        """A handle on the store at `location` (a directory, or a bolt:// / neo4j:// URI), with pending schema
        migrations applied unless it is opened `read_only` or `migrate` is False. `buffer_pool` is the embedded
        engine's memory (bytes or ``"4GiB"``; None: LEXGRAPH_BUFFER_POOL, lexgraph.toml, else a share of the memory
        available). Raises `StoreUnavailable` when the store cannot be opened (no driver, no server, a lock),
        `StoreError` when a migration fails, `ConfigurationError` for a size that cannot be read."""
        store = open_store(str(location), read_only=read_only, buffer_pool=buffer_pool)
        if migrate and not read_only:
            store.migrate()
        handle = cls(store)
        handle.location = str(location)
        return handle

    @classmethod
    def created_on_first_write(cls, location: str | Path) -> LexGraph:
        """A handle on a store folder that does not exist yet, created (and migrated) only when something is to be
        written: what `sync` into a new store uses, so that a sync failing on its first answer leaves no store
        behind. Until then the few named queries a sync reads first answer as a new store would (no rows)."""
        handle = cls(cast("GraphStore", StoreOnFirstWrite(str(location))))
        handle.location = str(location)
        return handle

    @property
    def store(self) -> GraphStore:
        """The store this handle reads and writes."""
        return self.session.store

    @property
    def location(self) -> str | None:
        """Where the store was opened (`open`), for files kept beside it; None for a handle made on a store."""
        return self.session.location

    @location.setter
    def location(self, value: str | None) -> None:
        self.session.location = value

    @property
    def catalog(self) -> Catalog:
        """The bundled catalogue of law names (titles, 略称, numbers, ids), read once per handle."""
        return self.session.catalog

    @_door(Ingesting.ingest_statutes)
    def ingest_statutes(
        self, paths: Sequence[str | Path], *, revision: str | None = None, in_force_on: date | None = None,
        on_file: ProgressCallback | None = None, link: bool = True, on_link: Callable[[str], None] | None = None,
        laws: Sequence[str] = (), workers: int | None = None, on_link_start: Callable[[int], None] | None = None,
    ) -> IngestSummary:
        return self.ingesting.ingest_statutes(paths, revision=revision, in_force_on=in_force_on, on_file=on_file,
                                              link=link, on_link=on_link, laws=laws, workers=workers,
                                              on_link_start=on_link_start)

    @_door(Syncing.sync)
    def sync(
        self, laws: Sequence[str] = (), *, api: str | None = None, pace: float | None = None,
        updated_since: date | None = None, link: bool = True, cache_dir: Path | None = None,
        on_law: Callable[[int, int, str], None] | None = None, on_revision: Callable[[str, bool], None] | None = None,
        all_laws: bool = False, archive: Path | None = None, limits: SyncLimits | None = None,
        on_wait: Callable[[str, float], None] | None = None,
    ) -> SyncSummary:
        return self.syncing.sync(laws, api=api, pace=pace, updated_since=updated_since, link=link, cache_dir=cache_dir,
                                 on_law=on_law, on_revision=on_revision, all_laws=all_laws, archive=archive,
                                 limits=limits, on_wait=on_wait)

    @_door(Ingesting.ingest_precedents)
    def ingest_precedents(self, paths: Sequence[str | Path], *, size: int = DEFAULT_CHUNK_SIZE,
                          overlap: int = DEFAULT_OVERLAP, on_document: Callable[[str], None] | None = None
                          ) -> DocumentSummary:
        return self.ingesting.ingest_precedents(paths, size=size, overlap=overlap, on_document=on_document)

    @_door(Ingesting.ingest_literature)
    def ingest_literature(self, paths: Sequence[str | Path], *, kind: str | None = None, title: str | None = None,
                          day: date | None = None, source: str | None = None, size: int = DEFAULT_CHUNK_SIZE,
                          overlap: int = DEFAULT_OVERLAP, on_document: Callable[[str], None] | None = None
                          ) -> DocumentSummary:
        return self.ingesting.ingest_literature(paths, kind=kind, title=title, day=day, source=source, size=size,
                                                overlap=overlap, on_document=on_document)

    @_door(Reading.law)
    def law(self, name: str) -> LawInfo:
        return self.reading.law(name)

    @_door(Reading.laws)
    def laws(self) -> list[LawInfo]:
        return self.reading.laws()

    @_door(Reading.show)
    def show(self, law: str, clause: str, *, as_of: date | None = None) -> ProvisionAsOf:
        return self.reading.show(law, clause, as_of=as_of)

    @_door(Reading.cites)
    def cites(self, law: str, clause: str, *, as_of: date | None = None) -> ClauseLinks:
        return self.reading.cites(law, clause, as_of=as_of)

    @_door(Reading.cited_by)
    def cited_by(self, law: str, clause: str | None, *, as_of: date | None = None) -> ClauseLinks:
        return self.reading.cited_by(law, clause, as_of=as_of)

    @_door(Reading.documents_citing)
    def documents_citing(self, law: str, clause: str | None, *, as_of: date | None = None,
                         kinds: tuple[str, ...] = DOCUMENT_KINDS) -> list[CitingDocument]:
        return self.reading.documents_citing(law, clause, as_of=as_of, kinds=kinds)

    @_door(Reading.precedent)
    def precedent(self, case: str) -> PrecedentView:
        return self.reading.precedent(case)

    @_door(Ingesting.link)
    def link(self, laws: Sequence[str] | None = None, *, on_law: Callable[[str], None] | None = None
             ) -> LinkSummary:
        return self.ingesting.link(laws, on_law=on_law)

    @_door(Citing.cite)
    def cite(self, text: str, *, as_of: date | None = None, in_law: str | None = None, at: str | None = None,
             precedents: bool = True, extractor: str = DEFAULT_EXTRACTOR) -> list[Citation]:
        return self.citing.cite(text, as_of=as_of, in_law=in_law, at=at, precedents=precedents, extractor=extractor)

    @_door(Citing.cite_pieces)
    def cite_pieces(self, blocks: Iterable[str], *, as_of: date | None = None, in_law: str | None = None,
                    at: str | None = None, precedents: bool = True, extractor: str = DEFAULT_EXTRACTOR,
                    judgment_days: list[date] | None = None) -> Iterator[Citation]:
        return self.citing.cite_pieces(blocks, as_of=as_of, in_law=in_law, at=at, precedents=precedents,
                                       extractor=extractor, judgment_days=judgment_days)

    @_door(Reading.versions)
    def versions(self, law: str) -> list[LawVersionInfo]:
        return self.reading.versions(law)

    @_door(Reading.diff)
    def diff(self, law: str, from_day: date, to_day: date, *, level: str = "article") -> LawDiff:
        return self.reading.diff(law, from_day, to_day, level=level)

    @_door(Storing.copy_to)
    def copy_to(self, location: str | Path, *, batch: int = DEFAULT_BATCH,
                on_batch: Callable[[str, int], None] | None = None) -> CopySummary:
        return self.storing.copy_to(location, batch=batch, on_batch=on_batch)

    @_door(Graphing.neighbourhood)
    def neighbourhood(self, node: str, depth: int = 1, *, as_of: date | None = None, max_nodes: int = 150
                      ) -> Neighbourhood:
        return self.graphing.neighbourhood(node, depth, as_of=as_of, max_nodes=max_nodes)

    @_door(Graphing.neighbourhood_turtle)
    def neighbourhood_turtle(self, node: str, depth: int = 1, *, as_of: date | None = None,
                             max_nodes: int = 150) -> str:
        return self.graphing.neighbourhood_turtle(node, depth, as_of=as_of, max_nodes=max_nodes)

    @_door(Graphing.laws_turtle)
    def laws_turtle(self, laws: Sequence[str] | None = None) -> Iterator[str]:
        return self.graphing.laws_turtle(laws)

    @_door(Reading.law_ids)
    def law_ids(self, names: Sequence[str]) -> tuple[str, ...]:
        return self.reading.law_ids(names)

    @_door(Indexing.index)
    def index(self, *, laws: Sequence[str] = (), kinds: Sequence[UnitKind] = UNIT_KINDS, rebuild: bool = False,
              embedder: Embedder | None = None, progress: IndexProgress | None = None,
              suppl_vectors: bool | None = None, statute_anchors: bool = True,
              rebuild_anchors: bool = False) -> IndexSummary:
        return self.indexing.index(laws=laws, kinds=kinds, rebuild=rebuild, embedder=embedder, progress=progress,
                                   suppl_vectors=suppl_vectors, statute_anchors=statute_anchors,
                                   rebuild_anchors=rebuild_anchors)

    @_door(Indexing.build_anchors)
    def build_anchors(self, judgments: Sequence[str | Path]) -> int:
        return self.indexing.build_anchors(judgments)

    @_door(Indexing.build_statute_anchors)
    def build_statute_anchors(self, *, rebuild: bool = False, progress: IndexProgress | None = None,
                              refresh_only: bool = False) -> int | None:
        return self.indexing.build_statute_anchors(rebuild=rebuild, progress=progress, refresh_only=refresh_only)

    @staticmethod
    @_door(Indexing.embedder)
    def embedder(name: str | None = None) -> Embedder:
        return Indexing.embedder(name)

    @_door(Indexing.embedder_for)
    def embedder_for(self, name: str | None = None) -> Embedder:
        return self.indexing.embedder_for(name)

    @_door(Searching.embed_query)
    def embed_query(self, text: str) -> list[float]:
        return self.searching.embed_query(text)

    @_door(Searching.fulltext_query)
    def fulltext_query(self, text: str, kind: UnitKind | None = None) -> str:
        return self.searching.fulltext_query(text, kind)

    @_door(Indexing.index_status)
    def index_status(self) -> IndexStatus:
        return self.indexing.index_status()

    @_door(Searching.retriever)
    def retriever(self, mode: str | None = None, *, embedder: Embedder | None = None, llm: LLMClient | None = None,
                  rrf_k: float | None = None, weights: Mapping[str, float] | None = None,
                  fusion: str | None = None, options: SearchOptions | None = None,
                  held_apart: Collection[str] = ()) -> Retriever:
        return self.searching.retriever(mode, embedder=embedder, llm=llm, rrf_k=rrf_k, weights=weights, fusion=fusion,
                                        options=options, held_apart=held_apart)

    @_door(Searching.search)
    def search(self, question: str, *, mode: str | None = None, as_of: date | None = None,
               laws: Sequence[str] = (), kind: UnitKind | None = None, options: SearchOptions | None = None,
               retriever: Retriever | None = None, embedder: Embedder | None = None) -> SearchResult:
        return self.searching.search(question, mode=mode, as_of=as_of, laws=laws, kind=kind, options=options,
                                     retriever=retriever, embedder=embedder)

    @_door(Indexing.suppl_vectors)
    def suppl_vectors(self) -> bool | None:
        return self.indexing.suppl_vectors()

    @_door(Indexing.stale_index)
    def stale_index(self) -> tuple[StalePart, ...]:
        return self.indexing.stale_index()

    @staticmethod
    @_door(Answering.turn_log_path)
    def turn_log_path() -> Path:
        return Answering.turn_log_path()

    @_door(Answering.ask)
    def ask(self, question: str, *, options: AskOptions | None = None, as_of: date | None = None,
            laws: Sequence[str] = (), search: SearchOptions | None = None, llm: LLMClient | None = None,
            use_model: bool = True, log: Path | None = None,
            retriever: Retriever | None = None) -> Answer:
        return self.answering.ask(question, options=options, as_of=as_of, laws=laws, search=search, llm=llm,
                                  use_model=use_model, log=log, retriever=retriever)

    @staticmethod
    @_door(Answering.require_model)
    def require_model(purpose: str) -> None:
        return Answering.require_model(purpose)

    @_door(Answering.interview)
    def interview(self, *, topic: str | None = None, llm: LLMClient | None = None,
                  max_repairs: int = DEFAULT_MAX_REPAIRS, log: Path | None = None) -> Interview:
        return self.answering.interview(topic=topic, llm=llm, max_repairs=max_repairs, log=log)

    @_door(Answering.save_knowledge)
    def save_knowledge(self, knowledge: dict[str, Any], *, day: date | None = None,
                       transcript: str = "") -> list[StoredKnowledge]:
        return self.answering.save_knowledge(knowledge, day=day, transcript=transcript)

    @_door(Answering.knowledge)
    def knowledge(self, uid: str | None = None) -> list[KnowledgeEntry]:
        return self.answering.knowledge(uid)

    @_door(Evaluating.eval_retrieval)
    def eval_retrieval(self, questions: Sequence[GoldQuestion], modes: Sequence[str], ks: Sequence[int], *,
                       embedder: Embedder | None = None, progress: RetrievalProgress | None = None,
                       depth: int | None = None) -> list[LawqaRun]:
        return self.evaluating.eval_retrieval(questions, modes, ks, embedder=embedder, progress=progress, depth=depth)

    @_door(Evaluating.eval_mcqa)
    def eval_mcqa(self, llm: LLMClient, questions: Sequence[LawqaQuestion], settings: MCQAConfig, *,
                  on_result: Callable[[Any], None] | None = None) -> list[MethodRun]:
        return self.evaluating.eval_mcqa(llm, questions, settings, on_result=on_result)

    @_door(Evaluating.eval_answers)
    def eval_answers(self, questions: Sequence[LawqaQuestion], options: AskOptions, ks: Sequence[int], *,
                     llm: LLMClient | None = None, on_question: Callable[[LawqaQuestion], None] | None = None,
                     on_error: Callable[[LawqaQuestion, Exception], None] | None = None,
                     search: SearchOptions | None = None, citation_quality: bool = False) -> AnswersReport:
        return self.evaluating.eval_answers(questions, options, ks, llm=llm, on_question=on_question, on_error=on_error,
                                            search=search, citation_quality=citation_quality)

    @_door(Evaluating.run_experiment)
    def run_experiment(self, experiment: Experiment, params: Params, *, dataset: str | Path,
                       questions: Sequence[LawqaQuestion], report: Path, limit: int | None = None,
                       llm: LLMClient | None = None, embedder: Embedder | None = None,
                       progress: Callable[[str], None] | None = None) -> ExperimentReport:
        return self.evaluating.run_experiment(experiment, params, dataset=dataset, questions=questions, report=report,
                                              limit=limit, llm=llm, embedder=embedder, progress=progress)

    @_door(Storing.stats)
    def stats(self) -> StoreCounts:
        return self.storing.stats()

    @_door(Storing.doctor)
    def doctor(self) -> DoctorReport:
        return self.storing.doctor()

    @_door(Storing.query)
    def query(self, cypher: str, params: Mapping[str, Any] | None = None, *, limit: int | None = None) -> list[Row]:
        return self.storing.query(cypher, params, limit=limit)

    @_door(Storing.schema)
    def schema(self) -> SchemaReference:
        return self.storing.schema()

    # -- kept for the benchmarks and tests that reach the handle's shared parts ----------------------------------
    def _open_search_index(self) -> SearchIndex:
        return self.session.search_index()

    def _default_embedder(self) -> Embedder:
        return self.session.default_embedder()

    def _citer(self, as_of: date | None, **settings: Any) -> Callable[[str], list[Citation]]:
        return self.citing.citer(as_of, **settings)

    def close(self) -> None:
        """Close the search index and the store; the handle cannot be used afterwards."""
        self.session.close()

    def __enter__(self) -> LexGraph:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
