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


@dataclass(frozen=True)
class PrecedentTarget:
    uid: str
    stub_row: dict[str, Any] | None  # the stub node to create, when the precedent is not stored


def statute_targets(citation: Citation, revisions: StoreRevisions, on: date | None) -> list[ProvisionSpan]:
    """The clause nodes a resolved statute citation points at on `on`: every article of a range, every item of a
    各号, the division or appendix a citation of those kinds names (every division of a range). Empty when the law
    is not stored or the clause was not in force then (`statute_link` says which)."""
    return statute_link(citation, revisions, on)[0]


def statute_link(citation: Citation, revisions: StoreRevisions, on: date | None
                 ) -> tuple[list[ProvisionSpan], str | None]:
    """`statute_targets`, and when there are none, why: the reason a document's summary counts it under."""
    if citation.status not in LINKABLE or citation.law_id is None:
        return [], f"statute citation {citation.status}" if citation.status not in LINKABLE else "no law"
    if citation.kind == "statute" and citation.path is None:
        return [], "a law cited without a clause"
    if citation.kind not in ("statute", "division", "appendix"):
        return [], f"a {citation.kind} citation (the law as a whole): no clause to link"
    law = revisions.law(citation.law_id)
    if not law.stored:
        return [], "cited law or clause not stored as of the document's date"
    paths = cited_paths(citation, law)
    if isinstance(paths, str):
        return [], paths
    found = [span for path in paths if (span := law.at(path, on)) is not None]
    if not found:
        what = "division or appendix" if citation.kind != "statute" else "clause"
        return [], f"cited {what} not in force on the document's date" if any(p in law.by_path for p in paths) \
            else "cited law or clause not stored as of the document's date"
    return found, None


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
        self._by_day: dict[str, list[dict[str, Any]]] = {}

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
        full = [row for row in candidates if not row["stub"]]
        if len(full) == 1:
            return PrecedentTarget(full[0]["uid"], None)
        if len(full) > 1:
            return None
        uid = stub_uid(citation)
        if any(row["uid"] == uid for row in candidates):  # stored already, by an earlier document
            return PrecedentTarget(uid, None)
        return PrecedentTarget(uid, {
            "uid": uid, "court": citation.court, "date": date.fromisoformat(citation.date),
            "decision_type": citation.decision_type, "case_number": citation.case_number,
            "reporter": citation.reporter, "stub": True,
        })

    def on_day(self, day: str) -> list[dict[str, Any]]:
        """The stored precedents and stubs of `day` (ISO), cached until `forget(day)`."""
        if day not in self._by_day:
            self._by_day[day] = self._store.query("precedents_on", day=date.fromisoformat(day))
        return self._by_day[day]


def fits(row: dict[str, Any], citation: Citation) -> bool:
    """Whether a stored precedent (or stub) can be the one a citation names: same type and compatible court
    (最高裁判所 fits 最高裁判所第二小法廷), and the same case number when both give one."""
    if citation.decision_type and row["decision_type"] and citation.decision_type != row["decision_type"]:
        return False
    court, cited = row["court"] or "", citation.court or ""
    if cited and court and not (court.startswith(cited) or cited.startswith(court)):
        return False
    if citation.case_number and row["case_number"]:
        return citation.case_number in row["case_number"].split("、")
    return True


def stubs_filled_by(rows: Iterable[dict[str, Any]], court: str | None, decision_type: str | None,
                    case_numbers: Iterable[str]) -> list[str]:
    """The stubs of one day that a newly stored precedent fills in."""
    numbers = set(case_numbers)
    out = []
    for row in rows:
        if not row["stub"]:
            continue
        if decision_type and row["decision_type"] and row["decision_type"] != decision_type:
            continue
        stub_court = row["court"] or ""
        if stub_court and court and not court.startswith(stub_court):
            continue
        if row["case_number"] and numbers and row["case_number"] not in numbers:
            continue
        out.append(row["uid"])
    return out
