"""The retrievers of lexgraph's built-in search modes, one builder per mode, each taking a `RetrieverSetup`
(`lexgraph.retrieve.modes` names them). ``hyde`` (and ``tree`` with query extraction) without a model raises
`ModelUnavailable` saying how to configure one. With a citation extractor (`RetrieverSetup.cite`), the fusing modes
add the clauses the question cites as a third list."""

from __future__ import annotations

from lexgraph.errors import ModelUnavailable
from lexgraph.llm.client import NOT_CONFIGURED
from lexgraph.retrieve.modes import RetrieverSetup
from lexgraph.retrieve.retrievers import (
    HYDE_SEARCHES,
    Bm25Retriever,
    CitedRetriever,
    DenseRetriever,
    FusionRetriever,
    HydeRetriever,
    QueryVectors,
    Retriever,
)
from lexgraph.retrieve.tree_retriever import TreeRetriever


def bm25(setup: RetrieverSetup) -> Retriever:
    return Bm25Retriever(setup.index)


def dense(setup: RetrieverSetup) -> Retriever:
    return DenseRetriever(setup.index, setup.embedder)


def cited(setup: RetrieverSetup) -> list[Retriever]:
    """The ``cited`` list, when the setup has a citation extractor."""
    return [CitedRetriever(setup.index, setup.cite)] if setup.cite is not None else []


def hybrid_of(setup: RetrieverSetup, query_vector: QueryVectors) -> FusionRetriever:
    return FusionRetriever([Bm25Retriever(setup.index),
                            DenseRetriever(setup.index, setup.embedder, query_vector=query_vector), *cited(setup)],
                           rrf_k=setup.rrf_k, weights=setup.weights, fusion=setup.fusion, index=setup.index,
                           law_citations=setup.law_citations)


def hybrid(setup: RetrieverSetup) -> Retriever:
    return hybrid_of(setup, QueryVectors(setup.embedder))


def hyde(setup: RetrieverSetup) -> Retriever:
    """``hyde``, ``hyde-bm25`` and ``hyde-dense``: which searches come from the mode's name (`HYDE_SEARCHES`)."""
    if setup.llm is None:
        raise ModelUnavailable(f"--mode {setup.mode} needs a model to write hypothetical answers; {NOT_CONFIGURED}")
    return HydeRetriever(setup.index, setup.embedder, setup.llm, rrf_k=setup.rrf_k, extra=cited(setup),
                         searches=HYDE_SEARCHES[setup.mode])


def tree(setup: RetrieverSetup) -> Retriever:
    if setup.query_extraction and setup.llm is None:
        raise ModelUnavailable(f"Tree+QE needs a model to extract the query; {NOT_CONFIGURED}")
    return TreeRetriever(setup.index, setup.embedder, query_vector=QueryVectors(setup.embedder),
                         llm=setup.llm if setup.query_extraction else None)
