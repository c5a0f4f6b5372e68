"""Questions about precedents and documents: who cites a clause, and what one precedent is and cites."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from lexgraph.documents import literature
from lexgraph.errors import NotInForce, PrecedentNotFound
from lexgraph.model import AsOf, LawInfo, as_of_day, day_filter
from lexgraph.read.laws import clause_path, provision_as_of
from lexgraph.read.revisions import LawSpans, version_spans
from lexgraph.store.base import GraphStore
from lexgraph.store.rows import (
    LAW_CITED_BY_DOCUMENTS,
    OWNER_CHUNKS,
    PRECEDENT_BY_UID,
    PRECEDENT_CITED_BY,
    PRECEDENT_CITES_CLAUSES,
    PRECEDENT_CITES_PRECEDENTS,
    PRECEDENTS_BY_CASE_NAME,
    PRECEDENTS_BY_CASE_NUMBER,
    PRECEDENTS_ON,
    PROVISION_CITED_BY_DOCUMENTS,
    PROVISION_PERIODS,
    PrecedentRow,
)

if TYPE_CHECKING:
    from lexgraph.documents.judgment import Landmark

DOCUMENT_KINDS = ("precedent", *literature.KINDS)


@dataclass(frozen=True)
class CitingDocument:
    """One chunk of a precedent or document citing a clause, with the wording it cited and the revision of the
    law that was in force on the document's date."""

    kind: str  # precedent, book, guideline, other
    uid: str
    name: str  # case name or title
    court: str | None
    decision_type: str | None
    case_number: str | None
    day: date | None
    chunk_uid: str
    surface: str
    clause_uid: str  # empty for a citation of the law as a whole (named with its number, no clause)
    path: str  # likewise
    revision_id: str | None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "uid": self.uid, "name": self.name, "court": self.court,
                "decision_type": self.decision_type, "case_number": self.case_number,
                "date": self.day.isoformat() if self.day else None, "chunk_uid": self.chunk_uid,
                "surface": self.surface, "clause_uid": self.clause_uid or None, "path": self.path or None,
                "revision_id": self.revision_id}


def documents_citing(store: GraphStore, law: LawInfo, clause: str, as_of: AsOf,
                     kinds: tuple[str, ...] = DOCUMENT_KINDS) -> list[CitingDocument]:
    """The chunks of precedents and documents citing `clause` of `law` or a clause inside it: every wording
    (`ANY_WORDING`), or only the one in force on `as_of` (None: today). Raises NotInForce when there is no such
    clause (then or ever), so that an empty list always means "cited by none"."""
    day = day_filter(as_of)
    path = clause_path(clause)
    if day is not None:
        provision_as_of(store, law, clause, day)
    elif not store.rows(PROVISION_PERIODS, law_id=law.law_id, path=path):
        raise NotInForce(f"{law.title} has no clause {clause} ({path}) in any stored version")
    rows = store.rows(PROVISION_CITED_BY_DOCUMENTS, law_id=law.law_id, path=path, prefix=f"{path}/",
                      day=as_of_day(day), any_day=day is None)
    law_spans = LawSpans(version_spans(store, law.law_id), ())  # versions only: no clause is looked up
    out = []
    for row in rows:
        kind = "precedent" if row.label == "Precedent" else (row.kind or "other")
        if kind not in kinds:
            continue
        when = row.date
        version = law_spans.version_on(when) if when else None
        out.append(CitingDocument(
            kind=kind, uid=row.uid, name=row.case_name or row.title or row.uid, court=row.court,
            decision_type=row.decision_type, case_number=row.case_number, day=when,
            chunk_uid=row.chunk_uid, surface=row.surface, clause_uid=row.clause_uid, path=row.path,
            revision_id=version.revision_id if version else None,
        ))
    return out


def documents_citing_law(store: GraphStore, law: LawInfo, kinds: tuple[str, ...] = DOCUMENT_KINDS
                         ) -> list[CitingDocument]:
    """The chunks of precedents and documents citing `law` as a whole (named with its number and no clause:
    「会社法（平成１７年法律第８６号）」), each with the revision of the law in force on the document's date (None
    where the store holds none that day)."""
    law_spans = LawSpans(version_spans(store, law.law_id), ())
    out = []
    for row in store.rows(LAW_CITED_BY_DOCUMENTS, law_id=law.law_id):
        kind = "precedent" if row.label == "Precedent" else (row.kind or "other")
        if kind not in kinds:
            continue
        version = law_spans.version_on(row.date) if row.date else None
        out.append(CitingDocument(
            kind=kind, uid=row.uid, name=row.case_name or row.title or row.uid, court=row.court,
            decision_type=row.decision_type, case_number=row.case_number, day=row.date, chunk_uid=row.chunk_uid,
            surface=row.surface, clause_uid="", path="", revision_id=version.revision_id if version else None,
        ))
    return out


@dataclass(frozen=True)
class PrecedentView:
    """A precedent with what it cites: clauses (as of its date) and other precedents."""

    node: dict[str, Any]
    chunks: int
    cites_clauses: tuple[dict[str, Any], ...]
    cites_precedents: tuple[dict[str, Any], ...]
    cited_by: tuple[dict[str, Any], ...]

    def to_json(self) -> dict[str, Any]:
        return {**_plain(self.node), "chunks": self.chunks, "cites_clauses": list(self.cites_clauses),
                "cites_precedents": list(self.cites_precedents), "cited_by": list(self.cited_by)}


def find_precedent(store: GraphStore, case: str,
                   landmarks: Mapping[str, Landmark] | None = None) -> PrecedentRow:
    """A precedent by uid (hanrei:91244), lawsuit id (91244), case number (令和3年(オ)第293号の2, any numeral
    style), case name (事件名 as the judgment's header or the metadata gives it: 原状回復等請求事件) or a landmark's
    popular name (三菱樹脂事件, from landmarks.csv); raises PrecedentNotFound saying what was tried and how to find
    what the store holds. A landmark that no stored judgment is, but that a stored judgment cites, is found as
    that placeholder (court and date agree)."""
    key = case.strip()
    landmark = (landmarks or {}).get(key)
    if landmark is not None:
        found = _by_id_or_number(store, case, landmark.id) or _cited_landmark(store, landmark)
        if found is not None:
            return found
        court = (landmark.court or "") + (landmark.bench or "")
        when = " ".join(part for part in (court, landmark.date, landmark.decision_type) if part)
        raise PrecedentNotFound(
            f"{case!r} is the landmark case {when} (lawsuit id {landmark.id}), but no stored judgment is it or cites "
            f"it: ingest its text with `lexgraph ingest precedents {landmark.id}.txt` (the judgment from "
            "https://www.courts.go.jp/, saved as text)")
    found = _by_id_or_number(store, case, key)
    if found is not None:
        return found
    rows = store.rows(PRECEDENTS_BY_CASE_NAME, case_names=_case_name_forms(key))
    full = [r for r in rows if not r.stub] or rows
    if len(full) == 1:
        return full[0]
    if len(full) > 1:
        raise PrecedentNotFound(f"{case!r} is the case name of {len(full)} precedents "
                                f"({', '.join(_described(r) for r in full)}); give the uid")
    raise PrecedentNotFound(
        f"no precedent {case!r} in the store: give a lawsuit id (91244), a uid (hanrei:91244), a case number "
        "(令和3年(オ)第293号の2), a case name (原状回復等請求事件) or a landmark's name from landmarks.csv; "
        "`lexgraph law cited-by LAW CLAUSE --kind precedent` and `lexgraph search QUESTION --kind chunk` "
        "list the stored ones")


def _by_id_or_number(store: GraphStore, case: str, key: str) -> PrecedentRow | None:
    from lexgraph.documents.judgment import normalise_case_numbers

    for uid in (key, f"hanrei:{key}"):
        rows = store.rows(PRECEDENT_BY_UID, uid=uid)
        if rows:
            return rows[0]
    for number in normalise_case_numbers(key):
        rows = store.rows(PRECEDENTS_BY_CASE_NUMBER, case_number=number)
        full = [r for r in rows if not r.stub] or rows
        if len(full) == 1:
            return full[0]
        if len(full) > 1:
            raise PrecedentNotFound(f"{case!r} fits {len(full)} precedents ({', '.join(r.uid for r in full)}); "
                                    "give the uid")
    return None


def _cited_landmark(store: GraphStore, landmark: Landmark) -> PrecedentRow | None:
    """The placeholder of a landmark that stored judgments cite: the one precedent of its court on its date."""
    if not landmark.date or not landmark.court:
        return None
    court = landmark.court + (landmark.bench or "")  # stored as one name: 最高裁判所大法廷
    same = [r for r in store.rows(PRECEDENTS_ON, day=date.fromisoformat(landmark.date))
            if r.court == court and (not landmark.decision_type or r.decision_type in (None, landmark.decision_type))]
    if len(same) != 1:
        return None
    rows = store.rows(PRECEDENT_BY_UID, uid=same[0].uid)
    return rows[0] if rows else None


def _case_name_forms(name: str) -> list[str]:
    """事件名 as typed, with and without the closing 事件 (原状回復等請求 finds 原状回復等請求事件)."""
    compact = "".join(name.split())
    forms = [compact, compact[:-2] if compact.endswith("事件") else compact + "事件"]
    return [form for form in dict.fromkeys(forms) if form]


def _described(row: PrecedentRow) -> str:
    day = row.date.isoformat() if isinstance(row.date, date) else row.date
    return f"{row.uid}: {row.court or '?'} {day or '?'}"


def precedent_view(store: GraphStore, precedent: PrecedentRow) -> PrecedentView:
    """The precedent and what it cites and is cited by, as plain dicts: the view's JSON is the rows' columns."""
    uid = precedent.uid
    return PrecedentView(
        node=precedent._asdict(),
        chunks=len(store.rows(OWNER_CHUNKS, uid=uid)),
        cites_clauses=tuple(_plain(r._asdict()) for r in store.rows(PRECEDENT_CITES_CLAUSES, uid=uid)),
        cites_precedents=tuple(_plain(r._asdict()) for r in store.rows(PRECEDENT_CITES_PRECEDENTS, uid=uid)),
        cited_by=tuple(_plain(r._asdict()) for r in store.rows(PRECEDENT_CITED_BY, uid=uid)),
    )


def _plain(row: Mapping[str, Any]) -> dict[str, Any]:
    return {k: (v.isoformat() if isinstance(v, date) else v) for k, v in row.items()}
