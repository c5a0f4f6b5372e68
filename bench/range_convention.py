"""How much of the difference in citations and CITES edges between the issue-20 figures and today comes from the
range convention: a range of paragraphs, items or subitems 「第一号から第十五号まで」 was read as one
citation per member (each checked to exist on the citing clause's date), and is now one citation with
`item_to` whose edges go to every clause of the cited law between its ends (`LawSpans.articles_between`).

`install()` wraps the linking of `lexgraph.ingest.crossrefs` (before the link workers are forked, which inherit
it) so that each law's linking also computes the edges the old convention gives for the same citations, and
counts, into the link summary's `not_linked` counter (which the workers' counts are added into):

- ``Δ citations: range members after the first``: the citations the old convention counted more,
  Σ (last − first) over the range citations;
- ``Δ CITES: …``: edges (citing clause, cited clause) only the new convention gives, split by why (a branch
  member such as 第三号の二, which counting 3, 4 … skips; a member that did not exist on the citing clause's
  first day; other), and edges only the old one gives (members after a first member that does not exist).

A diagnostic for `bench/ingest_corpus.py --range-convention`, not part of lexgraph.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lexgraph.citations import Citation
from lexgraph.ingest import crossrefs
from lexgraph.read.revisions import LawSpans, ProvisionSpan, StoreRevisions

CITATIONS = "Δ citations: range members after the first"


def _member_range(citation: Citation) -> tuple[str, str, int, int] | None:
    """(parent path, level letter, first, last) of a paragraph / item / subitem range, else None."""
    if citation.path is None or citation.path_to is None or not (
            citation.paragraph_to or citation.item_to or citation.subitem_to):
        return None
    parent, _, first = citation.path.rpartition("/")
    _, _, last = citation.path_to.rpartition("/")
    if not (first[1:].isdigit() and last[1:].isdigit()):
        return None
    return parent, first[0], int(first[1:]), int(last[1:])


def _old_targets(citation: Citation, members: tuple[str, str, int, int], law_id: str, spans: LawSpans,
                 revisions: StoreRevisions, source: ProvisionSpan) -> list[ProvisionSpan]:
    """The clauses the old convention linked for this range: each member n a citation of its own, unresolved
    when it did not exist on the citing clause's first day."""
    law_ok = citation.status == "resolved" or "does not exist in the version in force" in (citation.reason or "")
    if not law_ok or citation.law_id is None:
        return []
    if (citation.law_id == law_id and source.path.startswith("suppl[") and not (citation.path or "").startswith(
            "suppl") and "法" not in citation.surface and "令" not in citation.surface):
        return []
    target_law = spans if citation.law_id == law_id else revisions.law(citation.law_id)
    if not target_law.stored:
        return []
    parent, letter, first, last = members
    found: list[ProvisionSpan] = []
    for n in range(first, last + 1):
        path = f"{parent}/{letter}{n}" if parent else f"{letter}{n}"
        if source.valid_from is not None and revisions.provision_exists(citation.law_id, path,
                                                                         source.valid_from) is False:
            continue
        found += target_law.overlapping(path, source.valid_from, source.valid_until)
    return found


def install() -> None:
    original_targets: Callable[..., list[ProvisionSpan]] = crossrefs._targets
    original_desired: Callable[..., Any] = crossrefs._desired_edges
    pairs: dict[str, set[tuple[str, str]]] = {"new": set(), "old": set()}
    missing_on_day: set[tuple[str, str]] = set()

    def targets(citation: Citation, law_id: str, spans: LawSpans, revisions: StoreRevisions,
                source: ProvisionSpan, summary: crossrefs.LinkSummary, pending: set[str]) -> list[ProvisionSpan]:
        found = original_targets(citation, law_id, spans, revisions, source, summary, pending)
        members = _member_range(citation)
        old = found
        if members is not None:
            summary.not_linked[CITATIONS] += members[3] - members[2]
            old = _old_targets(citation, members, law_id, spans, revisions, source)
            if source.valid_from is not None and citation.law_id is not None:
                for t in found:
                    if revisions.provision_exists(citation.law_id, t.path, source.valid_from) is False:
                        missing_on_day.add((source.uid, t.uid))
        pairs["new"].update((source.uid, t.uid) for t in found if t.uid != source.uid)
        pairs["old"].update((source.uid, t.uid) for t in old if t.uid != source.uid)
        return found

    def desired(law_id: str, spans: LawSpans, mentions: Any, catalog: Any, revisions: StoreRevisions,
                summary: crossrefs.LinkSummary) -> Any:
        pairs["new"].clear()
        pairs["old"].clear()
        missing_on_day.clear()
        out = original_desired(law_id, spans, mentions, catalog, revisions, summary)
        if set(out[0]) != pairs["new"]:
            summary.not_linked["Δ CITES: check failed (the wrapped pairs differ from the edges)"] += 1
        for pair in pairs["new"] - pairs["old"]:
            member = pair[1].rpartition("@")[0].rpartition("/")[2]
            why = ("a branch member (の二 …)" if "_" in member else
                   "a member not in force on the citing clause's first day" if pair in missing_on_day else "other")
            summary.not_linked[f"Δ CITES: new convention only, {why}"] += 1
        summary.not_linked["Δ CITES: old convention only"] += len(pairs["old"] - pairs["new"])
        return out

    crossrefs._targets = targets  # type: ignore[assignment]
    crossrefs._desired_edges = desired
