"""lexgraph: Japanese law as a versioned citation graph.

The package root is the public face: `LexGraph` (one handle on a store), the options its methods take, the values
they return, and every error they raise (the tree of `lexgraph.errors`)::

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
    from lexgraph.answer.answerer import AskOptions
    from lexgraph.answer.interview import Interview
    from lexgraph.answer.knowledge import KnowledgeEntry, StoredKnowledge
    from lexgraph.answer.model import Answer, AnswerSentence
    from lexgraph.citations.model import Citation
    from lexgraph.client import LexGraph
    from lexgraph.graph.neighbourhood import Neighbourhood
    from lexgraph.index.build import IndexStatus, IndexSummary
    from lexgraph.ingest.crossrefs import LinkSummary
    from lexgraph.ingest.documents import DocumentSummary
    from lexgraph.ingest.statutes import IngestSummary
    from lexgraph.model import LawInfo, LawVersionInfo
    from lexgraph.read.documents import CitingDocument, PrecedentView
    from lexgraph.read.laws import ClauseLinks, LawDiff, ProvisionAsOf
    from lexgraph.retrieve.options import SearchOptions
    from lexgraph.retrieve.search import SearchResult
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
}

__all__ = [
    "AmbiguousLaw",
    "Answer",
    "AnswerRefused",
    "AnswerSentence",
    "AskOptions",
    "BadAnswer",
    "BufferPoolFull",
    "Citation",
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
    "EmbedderMismatch",
    "EncodingError",
    "IndexStatus",
    "IndexSummary",
    "IndexUnavailable",
    "IngestSummary",
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
    "RetriesExhausted",
    "RevisionUnknown",
    "SearchOptions",
    "SearchResult",
    "SourceError",
    "SourceUnavailable",
    "StatuteXmlError",
    "StoreCounts",
    "StoreError",
    "StoreUnavailable",
    "StoredKnowledge",
    "SyncLimits",
    "ToolMissing",
    "Unavailable",
    "UnknownQuery",
    "WordingUnknown",
    "WrongLaw",
    "__version__",
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
