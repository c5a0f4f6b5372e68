"""What a judgment's or a book's citations point at in the store: clause nodes in force on the document's date, and
precedents, stored or stubbed.

A statute citation becomes an edge to the clause node whose wording was in force on the citing document's date,
so that 「民法７０９条」 in a 2012 judgment and in a 2024 one point at the wording each of them read. A precedent
citation names a court, a day, a type and sometimes a case number; it becomes an edge to the stored precedent those
fit, or, when none is stored, to a stub that keeps the citation's fields until that precedent is ingested.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from lexgraph.citations import Citation
from lexgraph.citations.model import LINKABLE
from lexgraph.read.revisions import LawSpans, ProvisionSpan, StoreRevisions
from lexgraph.read.targets import each_item, outside_articles
from lexgraph.store.base import GraphStore
from lexgraph.store.rows import PRECEDENTS_ON, PrecedentsOnRow


@dataclass(frozen=True)
class PrecedentTarget:
    uid: str
    stub_row: dict[str, Any] | None  # the stub node to create, when the precedent is not stored


# Why a resolved citation links to no clause: one key per cause, whichever text cites (a statute's clause or a
# judgment), so that the summaries of `ingest statutes` and `ingest precedents` count a cause under one name.
NOT_LINKABLE = "citation {status}"  # unresolved, ambiguous …: no law or clause was decided
LAW_AS_A_WHOLE = "law reference (no clause)"  # この法律, a law named with its number: no clause node
NO_LAW = "no law"  # a linkable status without a law: nothing to look in
WITHOUT_CLAUSE = "a law cited without a clause"
BARE_SUPPL_ARTICLE = "bare article in an amending law's 附則"
LAW_NOT_STORED = "cited law not stored"
NO_SUCH_CLAUSE = "no such clause in the stored law"
NOT_IN_FORCE = "cited {what} not in force when cited"


@dataclass(frozen=True)
class CitingClause:
    """A statute's clause that cites, as the statute linker reads it: its own law is `spans` (the law being
    linked, not the store's copy), a 第一節 written alone is read from its `clause.division`, and a cited wording
    links when it was in force at some time while the citing wording was (its whole period, not one day)."""

    law_id: str
    spans: LawSpans
    clause: ProvisionSpan


@dataclass(frozen=True)
class StatuteLink:
    """The clause nodes a citation links to, or none and the cause (`reason`, one of the keys above)."""

    citation: Citation
    targets: list[ProvisionSpan]
    reason: str | None = None

    @property
    def key(self) -> str | None:
        """The key a summary counts an unlinked citation under: a division or an appendix (第三章, 別表第一)
        counted apart from clauses, so that a summary says how many of them found their node."""
        if self.reason is None:
            return None
        return f"{self.citation.kind}: {self.reason}" if self.citation.kind in OUTSIDE_KINDS else self.reason


OUTSIDE_KINDS = ("division", "appendix")  # a division or appendix node, not an article's clause
OWN_LAW = "the law being read (この法律)"  # a statute naming itself as a whole: no edge from a law to itself


def law_link_reason(citation: Citation, revisions: StoreRevisions, citing_law: str | None = None) -> str | None:
    """Why a citation of kind ``law`` (a law named as a whole: with its number, 「電気通信事業法（昭和五十九年法律
    第八十六号。以下「法」という。）」, or この法律) links to no `Law` node (one of the keys above), or None when it
    links to its law's node: a table of authorities lists such laws, and `law cited-by LAW` with no clause reads
    them back. `citing_law`: the statute whose clause cites (この法律 there is that law itself: no edge)."""
    if citation.status not in LINKABLE:
        return NOT_LINKABLE.format(status=citation.status)
    if citation.law_id is None:
        return NO_LAW
    if citation.law_id == citing_law:
        return OWN_LAW
    if not revisions.versions(citation.law_id).stored:
        return LAW_NOT_STORED
    return None


def statute_targets(citation: Citation, revisions: StoreRevisions, on: date | None) -> list[ProvisionSpan]:
    """The clause nodes a resolved statute citation points at on `on`: every article of a range, every item of a
    各号, the division or appendix a citation of those kinds names (every division of a range). Empty when the law
    is not stored or the clause was not in force then (`statute_link` says which)."""
    return statute_link(citation, revisions, on).targets


def statute_link(citation: Citation, revisions: StoreRevisions, on: date | None = None, *,
                 citing: CitingClause | None = None) -> StatuteLink:
    """Whether a resolved citation links to clause nodes, and to which: the one decision for a judgment's or a
    book's citations (read on the document's date `on`; None: the clause as it stands now) and for a statute's
    own cross-references (`citing`: over the citing clause's period). When it links to none, the cause."""
    def none(reason: str) -> StatuteLink:
        return StatuteLink(citation, [], reason)

    if citation.status not in LINKABLE:
        return none(NOT_LINKABLE.format(status=citation.status))
    if citation.kind not in ("statute", *OUTSIDE_KINDS):  # この法律: the law as a whole, no clause node to link to
        return none(LAW_AS_A_WHOLE)
    if citation.law_id is None:
        return none(NO_LAW)
    outside = citation.kind in OUTSIDE_KINDS
    if citation.path is None and not outside:
        return none(WITHOUT_CLAUSE)
    own = citing is not None and citation.law_id == citing.law_id
    if (own and citing is not None and citing.clause.path.startswith("suppl[") and not outside
            and citation.path is not None and not citation.path.startswith("suppl")
            and "法" not in citation.surface and "令" not in citation.surface):
        # A bare 第三条 in an amending law's 附則 is that amending law's own article, which is not this law's.
        return none(BARE_SUPPL_ARTICLE)
    law = citing.spans if own and citing is not None else revisions.law(citation.law_id)
    if not law.stored:
        return none(LAW_NOT_STORED)
    paths = cited_paths(citation, law, citing.clause.division if own and citing is not None else None)
    if isinstance(paths, str):  # a division or appendix the stored law does not hold, or names twice
        return none(paths)
    if citing is not None:
        found = [t for path in paths for t in law.overlapping(path, citing.clause.valid_from,
                                                                   citing.clause.valid_until)]
    else:
        found = [span for path in paths if (span := law.at(path, on)) is not None]
    if not found:
        # Mostly in the 附則 of amending laws, which e-Gov's consolidated text keeps only in part.
        if any(path in law.by_path for path in paths):
            return none(NOT_IN_FORCE.format(what=citation.kind if outside else "clause"))
        return none(NO_SUCH_CLAUSE)
    return StatuteLink(citation, found)


def cited_paths(citation: Citation, law: LawSpans, within: str | None = None) -> list[str] | str:
    """The paths a resolved citation names in a stored law (ranges and 各号 expanded, divisions and appendices
    found by `read.targets`; `within`: the division the citing clause sits in, when it is of that law), or the
    reason it names none there."""
    if citation.kind in ("division", "appendix"):
        named = outside_articles(citation, law, within)
        return list(named.paths) if named.paths else named.short or "not found"
    assert citation.path is not None
    first, last = citation.path, citation.path_to
    expanded = each_item(citation, law)
    if expanded is not None:
        if not expanded.paths:
            return [first]  # 各号 that cannot be expanded: the clause as written, as before
        first, last = expanded.paths[0], expanded.paths[-1] if len(expanded.paths) > 1 else None
    return [first] if last is None else law.articles_between(first, last)


def stub_uid(citation: Citation) -> str:
    """A stub's key: the fields the citation gives, so that two citations of one decision share one stub."""
    return "cite:" + "/".join([citation.court or "?", citation.date or "?", citation.decision_type or "?",
                               citation.case_number or ""]).rstrip("/")


class PrecedentMatcher:
    """Finds the stored precedent a citation means, by day, then type, court and case number."""

    def __init__(self, store: GraphStore) -> None:
        self._store = store
        self._by_day: dict[str, list[PrecedentsOnRow]] = {}

    def forget(self, day: str | None) -> None:
        """After a precedent of `day` is written, so that the next citation sees it."""
        if day:
            self._by_day.pop(day, None)

    def target(self, citation: Citation) -> PrecedentTarget | None:
        """The precedent node to link to, or None when the citation names no day (当裁判所の判例) or fits several
        stored decisions equally."""
        if not citation.date:
            return None
        candidates = [row for row in self.on_day(citation.date) if fits(row, citation)]
        full = [row for row in candidates if not row.stub]
        if len(full) == 1:
            return PrecedentTarget(full[0].uid, None)
        if len(full) > 1:
            return None
        uid = stub_uid(citation)
        if any(row.uid == uid for row in candidates):  # stored already, by an earlier document
            return PrecedentTarget(uid, None)
        return PrecedentTarget(uid, {
            "uid": uid, "court": citation.court, "date": date.fromisoformat(citation.date),
            "decision_type": citation.decision_type, "case_number": citation.case_number,
            "reporter": citation.reporter, "stub": True,
        })

    def on_day(self, day: str) -> list[PrecedentsOnRow]:
        """The stored precedents and stubs of `day` (ISO), cached until `forget(day)`."""
        if day not in self._by_day:
            self._by_day[day] = self._store.rows(PRECEDENTS_ON, day=date.fromisoformat(day))
        return self._by_day[day]


def same_decision(cited_court: str | None, cited_type: str | None, cited_number: str | None,
                  court: str | None, decision_type: str | None, case_numbers: Iterable[str]) -> bool:
    """The one rule by which a citation (or the stub that keeps its fields) names a stored decision, used both
    ways: when a citation is linked to a precedent already stored (`fits`) and when a precedent stored later fills
    the stubs citations left (`stubs_filled_by`), so that which of the two was ingested first does not change the
    graph. Every field the two both give must agree, and a field either lacks agrees with anything: the same
    type (判決 / 決定); courts of which one names the other (最高裁判所 and 最高裁判所第二小法廷, whichever is
    cited); the cited case number among the decision's (a judgment may decide several cases, 「…、…」)."""
    if cited_type and decision_type and cited_type != decision_type:
        return False
    cited_court, court = cited_court or "", court or ""
    if cited_court and court and not (court.startswith(cited_court) or cited_court.startswith(court)):
        return False
    numbers = [number for number in case_numbers if number]
    if cited_number and numbers:
        return cited_number in numbers
    return True


def fits(row: PrecedentsOnRow, citation: Citation) -> bool:
    """Whether a stored precedent (or stub) can be the one a citation names (`same_decision`)."""
    return same_decision(citation.court, citation.decision_type, citation.case_number,
                         row.court, row.decision_type, (row.case_number or "").split("、"))


def stubs_filled_by(rows: Iterable[PrecedentsOnRow], court: str | None, decision_type: str | None,
                    case_numbers: Iterable[str]) -> list[str]:
    """The stubs of one day that a newly stored precedent fills in: those `same_decision` says it is."""
    numbers = list(case_numbers)
    return [row.uid for row in rows if row.stub and same_decision(
        row.court, row.decision_type, row.case_number, court, decision_type, numbers)]
