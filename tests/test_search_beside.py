"""BM25 beside the question's embedding (`retrieve.retrievers.search_beside`): over an in-process index a search's
BM25 lists are read on their own thread while its question is embedded, and they are the lists the index's own
`hybrid_search` gives. On the bundled sample store with its judgments (as tests/test_search.py)."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from lexgraph import LexGraph
from lexgraph.index.embed import Embedder
from lexgraph.index.query import SearchFilter
from lexgraph.index.tokenize import question_terms
from lexgraph.index.units import UnitKind
from lexgraph.retrieve.retrievers import (
    LOADING_QUERY,
    Bm25Retriever,
    DenseRetriever,
    retrieve_lists,
    retrieve_lists_of_kinds,
)
from tests.helpers import copy_store

QUESTION = "借地権の存続期間は何年か"


@pytest.fixture(scope="module")
def lg(search_store_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LexGraph]:
    store = copy_store(search_store_template, tmp_path_factory.mktemp("beside") / "store")
    with LexGraph.open(store, read_only=True) as handle:
        yield handle


class WaitsForBm25:
    """The store's own embedder, whose question embedding first waits (30 s at most) for BM25 to have searched:
    it waits in vain when BM25 runs only after the embedding, on the same thread."""

    def __init__(self, embedder: Embedder, searched: threading.Event) -> None:
        self.embedder = embedder
        self.name, self.dim = embedder.name, embedder.dim
        self.searched = searched
        self.waited: list[bool] = []

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        self.waited.append(self.searched.wait(timeout=30))
        return self.embedder.embed_queries(texts)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self.embedder.embed_passages(texts)


def _scored(hits: Sequence[object]) -> list[tuple[str, float]]:
    return [(hit.uid, hit.score) for hit in hits]  # type: ignore[attr-defined]


def test_bm25_is_read_on_its_own_thread_while_the_question_is_embedded(lg: LexGraph,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    index = lg.session.search_index()
    assert index.in_process
    searched = threading.Event()
    threads: list[str] = []
    text_search = index.text_search

    def observed(tokens: Sequence[str], k: int, where: SearchFilter) -> list:  # type: ignore[type-arg]
        threads.append(threading.current_thread().name)
        try:
            return text_search(tokens, k, where)
        finally:
            searched.set()

    monkeypatch.setattr(index, "text_search", observed)
    waiting = WaitsForBm25(lg.embedder_for(), searched)
    bm25, dense = Bm25Retriever(index), DenseRetriever(index, waiting)
    depths: dict[UnitKind, int] = {"provision": 30, "chunk": 10}
    lists = retrieve_lists_of_kinds([bm25, dense], QUESTION, depths, SearchFilter())
    assert waiting.waited == [True]  # BM25 had searched before the question's vector was made
    assert threads and threading.current_thread().name not in threads
    assert set(threads) == {threads[0]} and threads[0].startswith("lexgraph-bm25")

    vector = lg.embedder_for().embed_queries([QUESTION])[0]
    terms = question_terms(QUESTION)
    for kind, k in depths.items():
        text, nearest = index.hybrid_search(terms, vector, k, SearchFilter(kind=kind))
        assert _scored(lists[kind]["bm25"]) == _scored(text) and text
        assert _scored(lists[kind]["dense"]) == _scored(nearest) and nearest

    searched.clear()
    one = retrieve_lists([bm25, DenseRetriever(index, waiting)], QUESTION, 20, SearchFilter())
    assert waiting.waited == [True, True]
    text, nearest = index.hybrid_search(terms, vector, 20, SearchFilter())
    assert _scored(one["bm25"]) == _scored(text) and _scored(one["dense"]) == _scored(nearest)


def test_a_failed_embedding_is_raised_after_bm25_has_finished(lg: LexGraph) -> None:
    index = lg.session.search_index()

    class Fails(WaitsForBm25):
        def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
            raise RuntimeError("the encoder failed")

    bm25, dense = Bm25Retriever(index), DenseRetriever(index, Fails(lg.embedder_for(), threading.Event()))
    with pytest.raises(RuntimeError, match="the encoder failed"):
        retrieve_lists_of_kinds([bm25, dense], QUESTION, {"provision": 10}, SearchFilter())
    # the thread is free again: the next search's BM25 is not stuck behind the failed one
    assert retrieve_lists_of_kinds([bm25, DenseRetriever(index, lg.embedder_for())], QUESTION, {"provision": 10},
                                   SearchFilter())["provision"]["bm25"]


class Recording:
    """The store's own embedder, recording which thread embeds which queries."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self.name, self.dim = embedder.name, embedder.dim
        self.queries: list[tuple[str, tuple[str, ...]]] = []
        self.embedded = threading.Event()

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        try:
            return self.embedder.embed_queries(texts)
        finally:
            self.queries.append((threading.current_thread().name, tuple(texts)))
            self.embedded.set()

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self.embedder.embed_passages(texts)


def test_the_query_encoder_loads_on_its_own_thread_when_a_retriever_that_embeds_is_built(lg: LexGraph) -> None:
    recording = Recording(lg.embedder_for())
    lg.retriever("bm25", embedder=recording)
    assert not recording.embedded.wait(timeout=1)  # BM25 never embeds its question: nothing to load
    retriever = lg.retriever("hybrid", embedder=recording)
    assert recording.embedded.wait(timeout=30)
    assert len(recording.queries) == 1
    thread, texts = recording.queries[0]
    assert thread.startswith("lexgraph-encoder") and texts == (LOADING_QUERY,)
    lg.retriever("learned", embedder=recording)  # once per embedder
    lg.search(QUESTION, retriever=retriever)
    assert [texts for _, texts in recording.queries] == [(LOADING_QUERY,), (QUESTION,)]
