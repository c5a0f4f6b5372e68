"""Citations read against a store: the catalogue with the stored laws it lacks, and the context that resolves a
citation to the revision in force. Every reader of citations against a store (`LexGraph.cite`, a question's cited
clauses, ingest) assembles its context here, in `citation_context`, so they resolve alike."""

from __future__ import annotations

from datetime import date
from typing import Any

from lexgraph.citations.context import CitationContext
from lexgraph.read.revisions import StoreRevisions
from lexgraph.statutes.catalog import Catalog, LawEntry
from lexgraph.statutes.enact import formula_parent
from lexgraph.store.base import GraphStore


def store_catalog(store: GraphStore, base: Catalog) -> Catalog:
    """The bundled catalogue plus the stored laws it lacks (or knows under a provisional id), so that every
    stored law can be cited by name. An ordinance among them takes the Act its enacting formula names as its
    parent (what its bare 法 means, issue 31), unless its title names one."""
    extra = [
        LawEntry(row["law_id"], row["title"], row["law_num"], row["law_type"], tuple(row["aliases"] or ()),
                 parent_law_id=_enacted_under(base, row))
        for row in store.query("laws_all")
        if base.by_id(row["law_id"]) is None
    ]
    return base.with_entries(extra) if extra else base


def _enacted_under(base: Catalog, row: dict[str, Any]) -> str | None:
    statement = row.get("enact_statement")
    if not statement or row["law_type"] in ("Act", "Constitution") or "施行" in (row["title"] or ""):
        return None  # a 施行令 / 施行規則 finds its Act by title, as the bundled ones do
    parent = formula_parent(base, statement, row["law_id"], row["law_type"])
    return parent.law_id if parent is not None else None


def citation_context(catalog: Catalog, revisions: StoreRevisions | None, *, as_of: date | None,
                     in_law: str | None = None, at: str | None = None) -> CitationContext:
    """The context citations are resolved in: `catalog` (a store's, or the bundled one where there is no store),
    the store's `revisions` (None: revision ids stay empty), read as of `as_of`, inside clause `at` of `in_law`
    when given (so that 前項 resolves). Raises `InputError` naming an unknown law or an unreadable clause."""
    if in_law:
        return CitationContext.in_law(in_law, at, catalog=catalog, as_of=as_of, revisions=revisions)
    return CitationContext(catalog=catalog, as_of=as_of, revisions=revisions)
