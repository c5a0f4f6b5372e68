"""`Ingesting`: what writes laws, precedents and literature into the store and links their citations. It exists so
that every write from files has one home, and each write tells the session what it made stale (the laws questions
resolve against, the index's stale parts)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from lexgraph.api.reading import Reading
from lexgraph.api.session import Session
from lexgraph.documents.chunking import DEFAULT_OVERLAP
from lexgraph.documents.chunking import DEFAULT_SIZE as DEFAULT_CHUNK_SIZE

if TYPE_CHECKING:
    from lexgraph.ingest.crossrefs import LinkSummary
    from lexgraph.ingest.documents import DocumentSummary
    from lexgraph.ingest.statutes import IngestSummary, ProgressCallback

__all__ = ["Ingesting"]


class Ingesting:
    """e-Gov 法令XML, judgments, books and guidelines into the store, and the clauses' cross-references."""

    def __init__(self, session: Session, reading: Reading) -> None:
        self._session = session
        self._reading = reading

    def ingest_statutes(
        self, paths: Sequence[str | Path], *, revision: str | None = None, in_force_on: date | None = None,
        on_file: ProgressCallback | None = None, link: bool = True, on_link: Callable[[str], None] | None = None,
        laws: Sequence[str] = (), workers: int | None = None, on_link_start: Callable[[int], None] | None = None,
    ) -> IngestSummary:
        """Ingest e-Gov 法令XML (files, folders, archives) and, with `link`, the clauses' cross-references; returns
        what was added, unchanged, in conflict or failed. `laws` (titles, 略称, law numbers or ids) reads only those
        laws' files, e.g. a few laws of the whole e-Gov archive. `on_link_start(n)`: linking begins, for n laws.
        `workers`: processes that parse and read citations
        while this one writes (None: one per core for inputs of 16 MB or more, else none); the store is the same
        either way. Raises `LawNotFound` / `AmbiguousLaw` for a name
        in `laws` that the catalogue does not know or cannot decide, `StoreError` when the store fails."""
        from lexgraph.ingest.statutes import ingest_statutes, workers_for
        from lexgraph.statutes.sources import DatingFlags, select_laws

        session = self._session
        session.forget_reads()  # the stored laws change: questions resolve against the new catalogue
        only = None
        if laws:
            entries = [session.catalog_entry(name) for name in laws]
            only = select_laws([e.law_id for e in entries], [e.law_num for e in entries])
        return ingest_statutes(
            session.store, paths, flags=DatingFlags(revision=revision, in_force_on=in_force_on),
            catalog=session.catalog, on_file=on_file, link=link, on_link=on_link, on_link_start=on_link_start,
            only=only, workers=workers_for(paths) if workers is None else workers,
        )

    def ingest_precedents(self, paths: Sequence[str | Path], *, size: int = DEFAULT_CHUNK_SIZE,
                          overlap: int = DEFAULT_OVERLAP, on_document: Callable[[str], None] | None = None
                          ) -> DocumentSummary:
        """Judgment texts and metadata records: precedents, their chunks and what they cite. Returns the counts
        and each input's outcome (a file that cannot be read is a failed outcome, not an exception); raises
        `StoreError` when the store fails."""
        from lexgraph.documents.prepare import iter_judgments
        from lexgraph.ingest.documents import ingest_documents

        self._session.forget_reads(laws=False)  # what the index covers changes
        return ingest_documents(self._session.store, iter_judgments(paths, size=size, overlap=overlap),
                                catalog=self._session.catalog, on_document=on_document)

    def ingest_literature(self, paths: Sequence[str | Path], *, kind: str | None = None, title: str | None = None,
                          day: date | None = None, source: str | None = None, size: int = DEFAULT_CHUNK_SIZE,
                          overlap: int = DEFAULT_OVERLAP, on_document: Callable[[str], None] | None = None
                          ) -> DocumentSummary:
        """Books and guidelines (Markdown, text, PDF, or a registry folder): documents, chunks, citations. Returns
        the counts and each input's outcome; raises `StoreError` when the store fails."""
        from lexgraph.documents.prepare import iter_literature
        from lexgraph.ingest.documents import ingest_documents

        self._session.forget_reads(laws=False)  # what the index covers changes
        documents = iter_literature(paths, kind=kind, title=title, day=day.isoformat() if day else None,
                                    source=source, size=size, overlap=overlap)
        return ingest_documents(self._session.store, documents, catalog=self._session.catalog,
                                on_document=on_document)

    def link(self, laws: Sequence[str] | None = None, *, on_law: Callable[[str], None] | None = None
             ) -> LinkSummary:
        """(Re)compute clause cross-references for these laws (names or ids), or for every stored law; returns the
        counts, and the laws that failed with why. Raises `NotFound` for an unknown name."""
        from lexgraph.ingest.crossrefs import link_laws

        law_ids = list(self._reading.law_ids(laws)) if laws else self._reading.all_law_ids()
        return link_laws(self._session.store, law_ids, catalog=self._session.catalog, follow_citing=bool(laws),
                         on_law=on_law)
