"""`Graphing`: the citation graph around a node, as values or as RDF, and whole laws as RDF. It exists so that
what leaves lexgraph as a graph (the neighbourhood the viewer draws, the Turtle an RDF store loads) has one home."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from lexgraph.api.reading import Reading
from lexgraph.api.session import Session, wordings

if TYPE_CHECKING:
    from lexgraph.graph.neighbourhood import Neighbourhood

__all__ = ["Graphing"]


class Graphing:
    """The document-level neighbourhood of a node, and Turtle for it or for whole laws."""

    def __init__(self, session: Session, reading: Reading) -> None:
        self._session = session
        self._reading = reading

    def neighbourhood(self, node: str, depth: int = 1, *, as_of: date | None = None, max_nodes: int = 150
                      ) -> Neighbourhood:
        """The document-level citation neighbourhood of `node` (a uid, a lawsuit id, 「民法 第七百九条」, a case
        number or a landmark's name), `depth` steps both ways, at most `max_nodes` nodes: the graph as it stood
        on `as_of`, or all of it (`as_of` None, the default; a clause named in `node` is then the one in force
        today). Raises `NotFound` when `node` names nothing, `ConfigurationError` for a negative depth or
        max_nodes < 1."""
        from lexgraph.graph.neighbourhood import neighbourhood, resolve_node

        store = self._session.store
        uid = resolve_node(store, node, as_of=as_of, catalog=self._session.catalog)
        return neighbourhood(store, uid, depth, as_of=wordings(as_of), max_nodes=max_nodes)

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

        ids = self._reading.all_law_ids() if laws is None else list(self._reading.law_ids(laws))
        store = self._session.store

        def blocks() -> Iterator[str]:
            yield prefix_lines()
            for law_id in ids:
                if block := law_turtle(store, law_id):
                    yield block

        return blocks()

    # -- pictures -----------------------------------------------------------------------------------------------
    @staticmethod
    def picture_formats() -> tuple[str, ...]:
        """The suffixes a picture is written as (``.dot``: the Graphviz source, written without Graphviz)."""
        from lexgraph.graph.render import FORMATS

        return FORMATS

    @staticmethod
    def require_graphviz() -> None:
        """Raise `ToolMissing`, saying how to install it, when Graphviz's ``dot`` is not installed."""
        from lexgraph.graph.render import graphviz

        graphviz()

    @staticmethod
    def draw(hood: Neighbourhood, out: str | Path) -> Path:
        """`hood` drawn into `out` (its suffix chooses the format: `picture_formats`); returns the file written."""
        from lexgraph.graph.render import render

        return render(hood, out)
