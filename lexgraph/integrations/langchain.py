"""A LangChain retriever that ranks exactly as lexgraph does (``pip install 'lexgraph[langchain]'``).

    from lexgraph import LexGraph
    from lexgraph.integrations.langchain import LexGraphLangChainRetriever

    with LexGraph.open("lexgraph-store", read_only=True) as lg:
        retriever = LexGraphLangChainRetriever(lexgraph=lg, mode="hybrid", k=10)
        for document in retriever.invoke("借地権の存続期間は何年か"):
            print(document.metadata["title"], document.metadata["score"])

A `langchain_core.retrievers.BaseRetriever`: chains and agents take it. It needs no APOC and no `Neo4jGraph`
(which LangChain's own Neo4j classes need): it searches through lexgraph, on the embedded store or on Neo4j. Each
document's page content is the clause's caption and wording, its metadata the uid, law, path, period, rank and
score, never index data (docs/neo4j.md)."""

from __future__ import annotations

from datetime import date
from typing import Any

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict

from lexgraph.integrations.hits import Kind, SearchSettings, hit_content, hit_metadata, ranked_hits


class LexGraphLangChainRetriever(BaseRetriever):
    """lexgraph's search (`LexGraph.search`) behind LangChain's retriever interface: `k` hits of `kind`, in
    `mode` (None: lexgraph's default), in force on `as_of` (None: every wording), of `laws`."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    lexgraph: Any  # a LexGraph handle (typed loosely: pydantic would otherwise inspect the class)
    mode: str | None = None
    k: int = 10
    kind: Kind = "provision"
    as_of: date | None = None
    laws: tuple[str, ...] = ()

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        settings = SearchSettings(mode=self.mode, kind=self.kind, as_of=self.as_of, laws=self.laws)
        mode = self.mode or "default"
        return [Document(page_content=hit_content(hit), metadata=hit_metadata(hit, mode))
                for hit in ranked_hits(self.lexgraph, query, self.k, settings)]
