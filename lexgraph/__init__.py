"""lexgraph: Japanese law as a versioned citation graph.

The package root is the public face: `LexGraph` (one handle on a store) and the facades it hands out (one job each:
`Reading`, `Searching`, ... of `lexgraph.api`), the options its methods take (with their defaults, and their choices
read from the registries when asked), the values they return, and every error they raise (the tree of
`lexgraph.errors`); and the few defaults, labels, parsers and writers the faces (the CLI, the MCP server) read
besides (the faces import nothing else of the library)::

    from lexgraph import LexGraph, NotInForce, SearchOptions
    with LexGraph.open("lexgraph-store", read_only=True) as lg:
        try:
            print(lg.show("民法", "第七百九条").provision.text)
        except NotInForce as why:
            print(why)

The errors are imported at once (they import nothing); every other name is imported on first use (PEP 562), so
that light modules (numerals, citations) and the CLI's start-up load no database engine, index or model client.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from lexgraph.errors import (
    AmbiguousLaw,
    AnswerRefused,
    BadAnswer,
    BufferPoolFull,
    ClauseUnplaced,
    ConfigurationError,
    DatasetError,
    DateFormatError,
    E5FileError,
    EgovNotFound,
    EmbedderMismatch,
    EncodingError,
    IndexUnavailable,
    InputError,
    InvalidQuery,
    LawNotFound,
    LexGraphError,
    LLMTimeout,
    ModelUnavailable,
    NodeNotFound,
    NotFound,
    NotInForce,
    OutputFailed,
    PrecedentNotFound,
    QueryRefused,
    RetriesExhausted,
    RevisionUnknown,
    SourceError,
    SourceUnavailable,
    StatuteXmlError,
    StoreError,
    StoreUnavailable,
    ToolMissing,
    Unavailable,
    UnknownQuery,
    WordingUnknown,
    WrongLaw,
)
from lexgraph.version import __version__

if TYPE_CHECKING:
    from lexgraph.answer.agents import DEFAULT_TAU, METHODS, method_names
    from lexgraph.answer.answerer import AskOptions
    from lexgraph.answer.interview import Interview
    from lexgraph.answer.knowledge import KnowledgeEntry, StoredKnowledge
    from lexgraph.answer.model import BASIS_LABELS, Answer, AnswerSentence
    from lexgraph.answer.references import capped_limits
    from lexgraph.api.answering import Answering
    from lexgraph.api.citing import Citing
    from lexgraph.api.evaluating import Evaluating
    from lexgraph.api.graphing import Graphing
    from lexgraph.api.indexing import Indexing
    from lexgraph.api.ingesting import DEFAULT_CHUNK_SIZE, DEFAULT_OVERLAP, Ingesting
    from lexgraph.api.reading import Reading
    from lexgraph.api.searching import Searching
    from lexgraph.api.session import Session
    from lexgraph.api.storing import DEFAULT_BATCH, Storing
    from lexgraph.api.syncing import Syncing
    from lexgraph.citations.extractors import DEFAULT_EXTRACTOR, EXTRACTORS, extractor_named, extractor_names
    from lexgraph.citations.model import CITE_JSON_KEYS, Citation
    from lexgraph.client import LexGraph
    from lexgraph.config import BUFFER_POOL_ENV, buffer_pool, is_server_location, store_exists, store_location
    from lexgraph.dates import DATE_FORMS, parse_day
    from lexgraph.documents.encoding import Utf8Tally, decode_text
    from lexgraph.eval.answers import write_answers_report
    from lexgraph.eval.benchmark import load_questions
    from lexgraph.eval.citations import CitationScores
    from lexgraph.eval.experiments import EXPERIMENTS, experiment_settings
    from lexgraph.eval.lawqa import load_lawqa
    from lexgraph.eval.mcqa import MCQAConfig
    from lexgraph.eval.retrieval import compare_modes, without_laws, write_retrieval_report
    from lexgraph.eval.significance import RunComparison
    from lexgraph.graph.neighbourhood import Neighbourhood
    from lexgraph.index.build import IndexStatus, IndexSummary
    from lexgraph.index.embed import Embedder
    from lexgraph.index.units import UNIT_KINDS
    from lexgraph.ingest.crossrefs import LinkSummary
    from lexgraph.ingest.documents import DocumentSummary
    from lexgraph.ingest.statutes import IngestSummary
    from lexgraph.ingest.sync import SyncSummary
    from lexgraph.llm.client import NOT_CONFIGURED, configured_client
    from lexgraph.llm.guardrails import DEFAULT_MAX_REPAIRS
    from lexgraph.model import NOT_STORED_LABEL, LawInfo, LawVersionInfo, as_of_day, period_text
    from lexgraph.numerals import clause_label
    from lexgraph.read.citing import bundled_citations, citation_day
    from lexgraph.read.documents import DOCUMENT_KINDS, CitingDocument, PrecedentView
    from lexgraph.read.laws import ClauseLinks, LawDiff, ProvisionAsOf, clause_path
    from lexgraph.retrieve.modes import compared_modes
    from lexgraph.retrieve.options import SearchOptions
    from lexgraph.retrieve.search import MAX_QUESTION_CHARS, SearchResult
    from lexgraph.store.base import StoreCounts
    from lexgraph.store.copy import CopySummary
    from lexgraph.store.doctor import DoctorReport

#: Each name imported on first use, and the module that defines it.
_LAZY: dict[str, str] = {
    "LexGraph": "lexgraph.client",
    # options
    "AskOptions": "lexgraph.answer.answerer",
    "SearchOptions": "lexgraph.retrieve.options",
    # results
    "Answer": "lexgraph.answer.model",
    "AnswerSentence": "lexgraph.answer.model",
    "Citation": "lexgraph.citations.model",
    "CitingDocument": "lexgraph.read.documents",
    "ClauseLinks": "lexgraph.read.laws",
    "CopySummary": "lexgraph.store.copy",
    "DoctorReport": "lexgraph.store.doctor",
    "DocumentSummary": "lexgraph.ingest.documents",
    "IndexStatus": "lexgraph.index.build",
    "IndexSummary": "lexgraph.index.build",
    "IngestSummary": "lexgraph.ingest.statutes",
    "Interview": "lexgraph.answer.interview",
    "LawDiff": "lexgraph.read.laws",
    "LawInfo": "lexgraph.model",
    "LawVersionInfo": "lexgraph.model",
    "LinkSummary": "lexgraph.ingest.crossrefs",
    "Neighbourhood": "lexgraph.graph.neighbourhood",
    "PrecedentView": "lexgraph.read.documents",
    "ProvisionAsOf": "lexgraph.read.laws",
    "SearchResult": "lexgraph.retrieve.search",
    "StoreCounts": "lexgraph.store.base",
    "StoredKnowledge": "lexgraph.answer.knowledge",
    "SyncLimits": "lexgraph.statutes.egov_api",
    "KnowledgeEntry": "lexgraph.answer.knowledge",
    # the facades, one job each (`lexgraph.api`), that `LexGraph` hands out
    "Answering": "lexgraph.api.answering",
    "Citing": "lexgraph.api.citing",
    "Evaluating": "lexgraph.api.evaluating",
    "Graphing": "lexgraph.api.graphing",
    "Indexing": "lexgraph.api.indexing",
    "Ingesting": "lexgraph.api.ingesting",
    "Reading": "lexgraph.api.reading",
    "Searching": "lexgraph.api.searching",
    "Session": "lexgraph.api.session",
    "Storing": "lexgraph.api.storing",
    "Syncing": "lexgraph.api.syncing",
    "MCQAConfig": "lexgraph.eval.mcqa",
    "SyncSummary": "lexgraph.ingest.sync",
    "Embedder": "lexgraph.index.embed",
    "CitationScores": "lexgraph.eval.citations",
    "RunComparison": "lexgraph.eval.significance",
    # what the faces (the CLI, the MCP server) read besides, each from the module that owns it: defaults,
    # lists of choices, labels, parsers of a day or a store's location, loaders and report writers
    "BASIS_LABELS": "lexgraph.answer.model",
    "BUFFER_POOL_ENV": "lexgraph.config",
    "CITE_JSON_KEYS": "lexgraph.citations.model",
    "DATE_FORMS": "lexgraph.dates",
    "DEFAULT_BATCH": "lexgraph.api.storing",
    "DEFAULT_CHUNK_SIZE": "lexgraph.api.ingesting",
    "DEFAULT_EXTRACTOR": "lexgraph.citations.extractors",
    "DEFAULT_MAX_REPAIRS": "lexgraph.llm.guardrails",
    "DEFAULT_OVERLAP": "lexgraph.api.ingesting",
    "DEFAULT_TAU": "lexgraph.answer.agents",
    "DOCUMENT_KINDS": "lexgraph.read.documents",
    "EXPERIMENTS": "lexgraph.eval.experiments",
    "EXTRACTORS": "lexgraph.citations.extractors",
    "MAX_QUESTION_CHARS": "lexgraph.retrieve.search",
    "METHODS": "lexgraph.answer.agents",
    "extractor_names": "lexgraph.citations.extractors",
    "method_names": "lexgraph.answer.agents",
    "NOT_CONFIGURED": "lexgraph.llm.client",
    "NOT_STORED_LABEL": "lexgraph.model",
    "UNIT_KINDS": "lexgraph.index.units",
    "Utf8Tally": "lexgraph.documents.encoding",
    "as_of_day": "lexgraph.model",
    "buffer_pool": "lexgraph.config",
    "bundled_citations": "lexgraph.read.citing",
    "capped_limits": "lexgraph.answer.references",
    "citation_day": "lexgraph.read.citing",
    "clause_label": "lexgraph.numerals",
    "clause_path": "lexgraph.read.laws",
    "compare_modes": "lexgraph.eval.retrieval",
    "compared_modes": "lexgraph.retrieve.modes",
    "configured_client": "lexgraph.llm.client",
    "decode_text": "lexgraph.documents.encoding",
    "experiment_settings": "lexgraph.eval.experiments",
    "extractor_named": "lexgraph.citations.extractors",
    "load_lawqa": "lexgraph.eval.lawqa",
    "load_questions": "lexgraph.eval.benchmark",
    "parse_day": "lexgraph.dates",
    "is_server_location": "lexgraph.config",
    "period_text": "lexgraph.model",
    "store_exists": "lexgraph.config",
    "store_location": "lexgraph.config",
    "without_laws": "lexgraph.eval.retrieval",
    "write_answers_report": "lexgraph.eval.answers",
    "write_retrieval_report": "lexgraph.eval.retrieval",
}

__all__ = [
    "BASIS_LABELS",
    "BUFFER_POOL_ENV",
    "CITE_JSON_KEYS",
    "DATE_FORMS",
    "DEFAULT_BATCH",
    "DEFAULT_CHUNK_SIZE",
    "DEFAULT_EXTRACTOR",
    "DEFAULT_MAX_REPAIRS",
    "DEFAULT_OVERLAP",
    "DEFAULT_TAU",
    "DOCUMENT_KINDS",
    "EXPERIMENTS",
    "EXTRACTORS",
    "MAX_QUESTION_CHARS",
    "METHODS",
    "NOT_CONFIGURED",
    "NOT_STORED_LABEL",
    "UNIT_KINDS",
    "AmbiguousLaw",
    "Answer",
    "AnswerRefused",
    "AnswerSentence",
    "Answering",
    "AskOptions",
    "BadAnswer",
    "BufferPoolFull",
    "Citation",
    "CitationScores",
    "Citing",
    "CitingDocument",
    "ClauseLinks",
    "ClauseUnplaced",
    "ConfigurationError",
    "CopySummary",
    "DatasetError",
    "DateFormatError",
    "DoctorReport",
    "DocumentSummary",
    "E5FileError",
    "EgovNotFound",
    "Embedder",
    "EmbedderMismatch",
    "EncodingError",
    "Evaluating",
    "Graphing",
    "IndexStatus",
    "IndexSummary",
    "IndexUnavailable",
    "Indexing",
    "IngestSummary",
    "Ingesting",
    "InputError",
    "Interview",
    "InvalidQuery",
    "KnowledgeEntry",
    "LLMTimeout",
    "LawDiff",
    "LawInfo",
    "LawNotFound",
    "LawVersionInfo",
    "LexGraph",
    "LexGraphError",
    "LinkSummary",
    "MCQAConfig",
    "ModelUnavailable",
    "Neighbourhood",
    "NodeNotFound",
    "NotFound",
    "NotInForce",
    "OutputFailed",
    "PrecedentNotFound",
    "PrecedentView",
    "ProvisionAsOf",
    "QueryRefused",
    "Reading",
    "RetriesExhausted",
    "RevisionUnknown",
    "RunComparison",
    "SearchOptions",
    "SearchResult",
    "Searching",
    "Session",
    "SourceError",
    "SourceUnavailable",
    "StatuteXmlError",
    "StoreCounts",
    "StoreError",
    "StoreUnavailable",
    "StoredKnowledge",
    "Storing",
    "SyncLimits",
    "SyncSummary",
    "Syncing",
    "ToolMissing",
    "Unavailable",
    "UnknownQuery",
    "Utf8Tally",
    "WordingUnknown",
    "WrongLaw",
    "__version__",
    "as_of_day",
    "buffer_pool",
    "bundled_citations",
    "capped_limits",
    "citation_day",
    "clause_label",
    "clause_path",
    "compare_modes",
    "compared_modes",
    "configured_client",
    "decode_text",
    "experiment_settings",
    "extractor_named",
    "extractor_names",
    "is_server_location",
    "load_lawqa",
    "load_questions",
    "method_names",
    "parse_day",
    "period_text",
    "store_exists",
    "store_location",
    "without_laws",
    "write_answers_report",
    "write_retrieval_report",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'lexgraph' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value  # imported once
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
