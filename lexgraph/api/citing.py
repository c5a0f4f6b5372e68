"""`Citing`: citations found in a text and resolved against the catalogue and the laws in the store as of a day.
It exists so that the citation context (the store's catalogue, its revisions, the day) is assembled for a text
in one place, whether the text is one string, a long stream of blocks, an answer's sentences or a question."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING

from lexgraph.api.session import Session
from lexgraph.citations.extractors import DEFAULT_EXTRACTOR, extractor_named
from lexgraph.model import as_of_day

if TYPE_CHECKING:
    from lexgraph.citations import Citation

__all__ = ["Citing"]


class Citing:
    """Statute and precedent citations in texts, each carrying the day it was read as of."""

    def __init__(self, session: Session) -> None:
        self._session = session

    def cite(self, text: str, *, as_of: date | None = None, in_law: str | None = None, at: str | None = None,
             precedents: bool = True, extractor: str = DEFAULT_EXTRACTOR) -> list[Citation]:
        """Citations in `text`, resolved against the catalogue and the laws in this store (revision ids) as of
        `as_of` (None: today), by `extractor` (one of `EXTRACTORS`); each carries that day (`as_of`). Raises
        `InputError` for an unknown `in_law` or an unreadable `at`, `ConfigurationError` for an unknown extractor,
        `ToolMissing` for one whose model is not installed."""
        return self.citer(as_of, in_law=in_law, at=at, precedents=precedents, extractor=extractor)(text)

    def citer(self, as_of: date | None, *, in_law: str | None = None, at: str | None = None,
              precedents: bool = True, extractor: str = DEFAULT_EXTRACTOR) -> Callable[[str], list[Citation]]:
        """`cite` with its context read once, for several texts read as of one day (an answer's statements)."""
        from lexgraph.read.citing import citation_context, store_catalog
        from lexgraph.read.revisions import StoreRevisions

        chosen = extractor_named(extractor)
        day = as_of_day(as_of)
        store = self._session.store
        context = citation_context(store_catalog(store, self._session.catalog), StoreRevisions(store),
                                   as_of=day, in_law=in_law, at=at)
        return lambda text: [replace(c, as_of=day.isoformat())
                             for c in chosen.extract(text, context, precedents=precedents)]

    def cite_pieces(self, blocks: Iterable[str], *, as_of: date | None = None, in_law: str | None = None,
                    at: str | None = None, precedents: bool = True, extractor: str = DEFAULT_EXTRACTOR,
                    judgment_days: list[date] | None = None) -> Iterator[Citation]:
        """`cite` for a long text given as consecutive blocks: the same citations, yielded piece by piece in
        bounded memory (`lexgraph.citations.stream`; the ``ginza`` extractor reads the blocks joined). Each
        citation carries the day it was read as of (`as_of`; None: today). With `judgment_days` (a list this
        fills with each judgment's day), a text of several judgments (a year of them) has each judgment read as
        of the date in its own header, and the text before the first header as of `as_of`
        (`lexgraph.citations.document.citations_by_document`); not with `in_law`, whose text is one clause."""
        from lexgraph.citations.document import dated_citations
        from lexgraph.read.citing import citation_context, store_catalog
        from lexgraph.read.revisions import StoreRevisions

        chosen = extractor_named(extractor)
        store = self._session.store
        context = citation_context(store_catalog(store, self._session.catalog), StoreRevisions(store),
                                   as_of=as_of_day(as_of), in_law=in_law, at=at)
        return dated_citations(blocks, context,
                               lambda text, own: chosen.extract_pieces(text, own, precedents=precedents),
                               None if in_law else judgment_days)

    def statute_citations(self, text: str, as_of: date | None) -> list[Citation]:
        """What a question cites, for the `cited` list of the fusing search modes. The store's catalogue is read
        once per handle here (again after a write), not per question: a search does not change the laws stored."""
        from lexgraph.citations import extract
        from lexgraph.read.citing import citation_context, store_catalog
        from lexgraph.read.revisions import StoreRevisions

        session = self._session
        if session.question_context is None:
            session.question_context = (store_catalog(session.store, session.catalog), StoreRevisions(session.store))
        catalog, revisions = session.question_context
        return extract(text, citation_context(catalog, revisions, as_of=as_of), precedents=False)
