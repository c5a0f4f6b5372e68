"""The ``anchor`` search mode: clauses ranked by their article's anchor field alone (what the judgments and the
statutes citing it say, `retrieve.anchor_field`), each article's paragraphs in order. A measure of what the field
knows by itself (docs/search.md); the ``learned`` mode is where it is meant to be used."""

from __future__ import annotations

from lexgraph.errors import IndexUnavailable
from lexgraph.index.query import IndexHit, SearchFilter, SearchIndex
from lexgraph.index.tokenize import question_terms
from lexgraph.retrieve.anchor_field import AnchorField, anchor_field
from lexgraph.retrieve.modes import RetrieverSetup
from lexgraph.retrieve.retrievers import Retrieved, Retriever


class AnchorRetriever:
    name = "anchor"

    def __init__(self, index: SearchIndex, field: AnchorField) -> None:
        self.index = index
        self.field = field

    def retrieve(self, question: str, k: int, where: SearchFilter) -> list[Retrieved]:
        if where.kind == "chunk":
            return []
        out: list[Retrieved] = []
        for hit in self.field.search(question_terms(question), k, where.laws):
            for unit in self.index.units_under(hit.law_id, hit.article, where):
                out.append(Retrieved(IndexHit.of(unit, hit.score), hit.score, len(out) + 1, {self.name: hit.rank}))
        return out[:k]


def build(setup: RetrieverSetup) -> Retriever:
    field = anchor_field(setup.index, setup.held_apart)
    if field is None:
        raise IndexUnavailable("the index has no anchor field; build it with `lexgraph index` (the statutes' "
                               "anchors) or `lexgraph index --anchors DIR` (a folder of judgment texts)")
    return AnchorRetriever(setup.index, field)
