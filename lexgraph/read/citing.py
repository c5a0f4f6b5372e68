"""Citations read against a store: the catalogue with the stored laws it lacks, and the context that resolves a
citation to the revision in force. Every reader of citations against a store (`LexGraph.cite`, a question's cited
clauses, ingest) assembles its context here, in `citation_context`, so they resolve alike. A text read with no
store (`bundled_citations`, ``lexgraph cite`` on a fresh machine) resolves through the same context, with the bundled
catalogue alone."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import date
from typing import TYPE_CHECKING

from lexgraph.citations.context import CitationContext
from lexgraph.citations.extractors import DEFAULT_EXTRACTOR, extractor_named
from lexgraph.citations.model import Citation
from lexgraph.model import as_of_day
from lexgraph.statutes.catalog import Catalog, LawEntry
from lexgraph.statutes.enact import formula_parent
from lexgraph.statutes.former_titles import FormerTitle, titled_runs

if TYPE_CHECKING:  # only named here: a text read with no store (``lexgraph cite``) loads no store module
    from lexgraph.read.revisions import StoreRevisions
    from lexgraph.store.base import GraphStore
    from lexgraph.store.rows import LawsAllRow


def store_catalog(store: GraphStore, base: Catalog) -> Catalog:
    """The bundled catalogue plus the stored laws it lacks (or knows under a provisional id, or under a title the
    law no longer bears), so that every stored law can be cited by name. An ordinance among them takes the Act its
    enacting formula names as its parent (what its bare 法 means), unless its title names one. The titles
    the stored versions bore before a renaming are the laws' former titles."""
    from lexgraph.store.rows import LAWS_ALL

    former = stored_former_titles(store)
    renamed = {f.law_id for f in former}  # the bundled list may know such a law by the title it bore in 2020
    extra = [
        LawEntry(row.law_id, row.title, row.law_num, row.law_type, tuple(row.aliases or ()),
                 parent_law_id=_enacted_under(base, row))
        for row in store.rows(LAWS_ALL)
        if (known := base.by_id(row.law_id)) is None or (row.law_id in renamed and known.title != row.title)
    ]
    return base.with_entries(extra, former) if extra or former else base


def stored_former_titles(store: GraphStore) -> list[FormerTitle]:
    """The former titles the stored versions give: per law, each title a later version no longer bears, until the
    day of that version (`lexgraph.statutes.former_titles.titled_runs`)."""
    from lexgraph.store.rows import LAW_VERSION_TITLES

    by_law: dict[str, list[tuple[date | None, str]]] = {}
    current: dict[str, str] = {}
    for row in store.rows(LAW_VERSION_TITLES):
        by_law.setdefault(row.law_id, []).append((row.enforced_from, row.title))
        current[row.law_id] = row.law_title
    found = []
    for law_id, versions in by_law.items():
        found += [f for f in titled_runs(law_id, versions, "stored versions (lexgraph sync)")
                  if f.title != current[law_id]]
    return found


def _enacted_under(base: Catalog, row: LawsAllRow) -> str | None:
    statement = row.enact_statement
    if not statement or row.law_type in ("Act", "Constitution") or "施行" in (row.title or ""):
        return None  # a 施行令 / 施行規則 finds its Act by title, as the bundled ones do
    parent = formula_parent(base, statement, row.law_id, row.law_type)
    return parent.law_id if parent is not None else None


def citation_context(catalog: Catalog, revisions: StoreRevisions | None, *, as_of: date | None,
                     in_law: str | None = None, at: str | None = None) -> CitationContext:
    """The context citations are resolved in: `catalog` (a store's, or the bundled one where there is no store),
    the store's `revisions` (None: revision ids stay empty), read as of `as_of`, inside clause `at` of `in_law`
    when given (so that 前項 resolves). Raises `InputError` naming an unknown law or an unreadable clause."""
    if in_law:
        return CitationContext.in_law(in_law, at, catalog=catalog, as_of=as_of, revisions=revisions)
    return CitationContext(catalog=catalog, as_of=as_of, revisions=revisions)


def citation_day(text: str, as_of: date | None) -> tuple[date, str]:
    """The day a text's citations are read as of, and why: `as_of` ("given"), else the judgment's date written
    in the text's header ("the date in the text"), else "today". Give it the start of the text (the header is
    there)."""
    from lexgraph.citations.document import document_date

    if as_of is not None:
        return as_of, "given"
    written = document_date(text)
    return (written, "the date in the text") if written else (as_of_day(None), "today")


def bundled_citations(blocks: Iterable[str], *, as_of: date, in_law: str | None = None, at: str | None = None,
                      extractor: str = DEFAULT_EXTRACTOR, judgment_days: list[date] | None = None
                      ) -> Iterator[Citation]:
    """The citations of a text given as consecutive blocks, resolved with the bundled catalogue alone (no store:
    law names resolve, revision ids stay empty), in memory bounded by the block (`lexgraph.citations.stream`).
    With a store, `LexGraph.cite_pieces` reads the same way against the stored laws. With `judgment_days` (a list
    to fill) each judgment of the text is read as of the date in its own header, the text before the first header
    as of `as_of`; not with `in_law`, whose text is one clause. Raises `InputError` for an unknown `in_law` or an
    unreadable `at`, `ConfigurationError` for an unknown extractor, `ToolMissing` for one not installed, before
    the first citation."""
    from lexgraph.citations.document import dated_citations

    chosen = extractor_named(extractor)
    context = citation_context(Catalog.bundled(), None, as_of=as_of, in_law=in_law, at=at)
    return dated_citations(blocks, context, chosen.extract_pieces, None if in_law else judgment_days)
