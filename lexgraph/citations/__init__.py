"""Citations in Japanese legal text: statutes (民法７０９条, 前項, 同法) and court decisions, resolved in context.

    >>> from lexgraph.citations import extract
    >>> [c.to_json()["article"] for c in extract("民法７０９条、７１５条")]
    ['709', '715']

`extract` finds and resolves in one call; `find_statutes` and `resolve` are the two stages for callers that
need them apart (the spaCy component, the statute ingest that resolves clause by clause). Only the standard
library and lexgraph's own light modules are imported here: no spaCy, no database.
"""

from __future__ import annotations

from lexgraph.citations.back_references import BackReferences
from lexgraph.citations.context import (
    AmendmentLookup,
    CitationContext,
    Clause,
    GapLookup,
    LawTarget,
    ResolutionState,
    RevisionLookup,
)
from lexgraph.citations.lawnames import LawNames
from lexgraph.citations.model import (
    CITE_JSON_KEYS,
    AbbreviationDefinition,
    Citation,
    LawRef,
    Mention,
    ProvisionRef,
    StatuteMention,
    Step,
    VersionPin,
)
from lexgraph.citations.resolve import resolve, resolve_with_state
from lexgraph.citations.statutes import find_statutes

__all__ = [
    "CITE_JSON_KEYS",
    "AbbreviationDefinition",
    "AmendmentLookup",
    "Citation",
    "CitationContext",
    "Clause",
    "GapLookup",
    "LawNames",
    "LawRef",
    "LawTarget",
    "Mention",
    "ProvisionRef",
    "ResolutionState",
    "RevisionLookup",
    "StatuteMention",
    "Step",
    "VersionPin",
    "extract",
    "extract_with_state",
    "find_statutes",
    "precedent_citations",
    "resolve",
    "resolve_with_state",
]


def extract(text: str, context: CitationContext | None = None, *, precedents: bool = True) -> list[Citation]:
    """Every statute and precedent citation in `text`, resolved in `context`, sorted by start.

    Offsets are into `text` as given. Without a context the bundled catalogue is used, no date is assumed (so
    no revision ids) and the text is not taken to be a statute clause. `precedents=False` skips court decisions
    (a statute's own clauses cite none).
    """
    return extract_with_state(text, context, precedents=precedents)[0]


def extract_with_state(
    text: str, context: CitationContext | None = None, *, precedents: bool = True
) -> tuple[list[Citation], ResolutionState]:
    """`extract`, plus the reading state after the text, to carry on to the next text of the same document
    (``replace(context, state=state, current_path=...)``)."""
    context = context if context is not None else CitationContext()
    mentions = find_statutes(text, LawNames.for_catalog(context.catalog))
    citations, state = resolve_with_state(mentions, context)
    if precedents:
        citations.extend(precedent_citations(text, context.citing_court))
        # 同判決 / 前掲最判: read against the precedents cited before them (found, then resolved apart: eyecite's id.)
        citations.extend(BackReferences().read(text, 0, 0, len(text), citations))
    citations.sort(key=lambda c: (c.start, c.end))
    return citations, state


def precedent_citations(text: str, citing_court: str | None = None, offset: int = 0) -> list[Citation]:
    """Court decisions cited in `text` (see `lexgraph.citations.precedents`) as `Citation` values, `offset` added
    to their offsets (for a `text` that is a window into a longer one)."""
    from lexgraph.citations.precedents import find_precedents

    return [
        Citation(
            start=m.start + offset, end=m.end + offset, surface=m.surface, kind="precedent", court=m.court, date=m.date,
            decision_type=m.decision_type, case_number=m.case_number, reporter=m.reporter,
            status="resolved" if m.status == "resolved" else "unresolved", reason=m.reason,
        )
        for m in find_precedents(text, citing_court=citing_court)
    ]
