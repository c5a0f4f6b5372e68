"""A neo4j-graphrag retriever that ranks exactly as lexgraph does (``pip install 'lexgraph[graphrag]'``).

    import neo4j
    from lexgraph import LexGraph
    from lexgraph.integrations.graphrag import LexGraphRetriever

    with LexGraph.open("bolt://127.0.0.1:7687", read_only=True) as lg, \\
            neo4j.GraphDatabase.driver("bolt://127.0.0.1:7687") as driver:
        retriever = LexGraphRetriever(driver, lg, mode="hybrid")
        for item in retriever.search(query_text="借地権の存続期間は何年か", top_k=10).items:
            print(item.metadata["score"], item.content)

It is a `neo4j_graphrag.retrievers.base.Retriever`, so `GraphRAG(retriever=…, llm=…)` and the framework's tools
take it; each item's content is the clause's caption and wording, its metadata the uid, law, path, period, rank
and score (docs/neo4j.md, "Using the indexes from outside lexgraph")."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING

import neo4j
from neo4j_graphrag.retrievers.base import Retriever
from neo4j_graphrag.types import RawSearchResult, RetrieverResultItem

from lexgraph.integrations.hits import Kind, SearchSettings, hit_content, hit_metadata, ranked_hits

if TYPE_CHECKING:
    from lexgraph import LexGraph


class LexGraphRetriever(Retriever):
    """lexgraph's search (`LexGraph.search`) behind neo4j-graphrag's retriever interface.

    `driver` is what neo4j-graphrag's base class keeps for the framework's tools: the store's, when `lg` is on
    Neo4j, or None on an embedded store. The ranking is lexgraph's own, not the framework's, so the results are
    lexgraph's top k in lexgraph's order."""

    VERIFY_NEO4J_VERSION = False  # it runs no vector query of its own: lexgraph checks its store

    def __init__(self, driver: neo4j.Driver | None, lg: LexGraph, *, mode: str | None = None,
                 kind: Kind = "provision", as_of: date | None = None, laws: Sequence[str] = (),
                 neo4j_database: str | None = None) -> None:
        if driver is not None:
            super().__init__(driver, neo4j_database)
        else:  # an embedded store: nothing for the base class to set up
            self.driver, self.neo4j_database = None, neo4j_database  # type: ignore[assignment]
        self.lexgraph = lg
        self.settings = SearchSettings(mode=mode, kind=kind, as_of=as_of, laws=tuple(laws))

    def get_search_results(self, query_text: str, top_k: int = 10) -> RawSearchResult:  # type: ignore[override]
        """lexgraph's top `top_k` for `query_text`, one record a hit: ``content`` and ``metadata``."""
        hits = ranked_hits(self.lexgraph, query_text, top_k, self.settings)
        mode = self.settings.mode or "default"
        records = [neo4j.Record({"content": hit_content(hit), "metadata": hit_metadata(hit, mode)}) for hit in hits]
        return RawSearchResult(records=records, metadata={"mode": mode, "kind": self.settings.kind})

    def default_record_formatter(self, record: neo4j.Record) -> RetrieverResultItem:
        return RetrieverResultItem(content=record["content"], metadata=dict(record["metadata"]))

