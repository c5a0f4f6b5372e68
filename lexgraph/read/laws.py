"""Read laws "as of" a day: which law a name means, the text of a clause then, versions, and diffs.

These are the questions a lawyer asks first, so each failure says precisely why: the law is unknown, the name is
ambiguous, the store holds no version for that day, or the clause was simply not in force then (with the periods
when it was).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import date
from typing import Any

from lexgraph.errors import AmbiguousLaw, LawNotFound, NotFound, NotInForce, WordingUnknown
from lexgraph.model import LawInfo, LawVersionInfo, ProvisionVersion, SentenceText, period_text
from lexgraph.numerals import parse_clause
from lexgraph.read.in_force import GAP, PAST_KNOWN, Answer, InForce, OutOfForce, Unknown, version_known_on
from lexgraph.read.revisions import ClauseSpans, amendments_from_json
from lexgraph.statutes.catalog import Catalog
from lexgraph.store.base import GraphStore
from lexgraph.store.rows import (
    CLAUSE_WORDINGS_ON,
    LAW_BY_ID,
    LAW_CITED_BY_CLAUSES,
    LAW_VERSION_ON,
    LAW_VERSIONS,
    LAWS_ALL,
    LAWS_BY_NAME,
    PROVISION_BY_UID,
    PROVISION_CHILDREN,
    PROVISION_CITED_BY,
    PROVISION_CITES,
    PROVISIONS_IN_VERSION,
    LawByIdRow,
    LawCitedByClausesRow,
    LawsAllRow,
    LawsByNameRow,
    LawVersionRow,
    ProvisionChildrenRow,
    ProvisionCitedByRow,
    ProvisionCitesRow,
    ProvisionRow,
    ProvisionsInVersionRow,
)


@dataclass(frozen=True)
class ProvisionAsOf:
    """A clause's text on a day, with the version of the law that was in force then."""

    law: LawInfo
    provision: ProvisionVersion
    version: LawVersionInfo
    as_of: date
    parts: tuple[ProvisionVersion, ...] = ()
    known_up_to: date | None = None  # open-ended wording: the last day the store knows it in force
    unknown: Unknown | None = None  # set when the wording is the last known one, not known in force on `as_of`

    @property
    def period(self) -> str:
        """The wording's period; for a scheduled (施行予定) revision's, never "in force from" its day: the store
        read it before that day, so does not know it ever was (`read.in_force`)."""
        if self.version.scheduled:
            return self.version.period
        return period_text(self.provision.valid_from, self.provision.valid_until, self.known_up_to)

    @property
    def beyond_knowledge(self) -> bool:
        """The day asked is after the last day the store knows this (newest) wording in force."""
        return self.unknown is not None

    @property
    def status(self) -> str:
        """"in_force", or "unknown" for the last known wording of a day past "known up to" (shown labelled)."""
        return "in_force" if self.unknown is None else "unknown"

    def to_json(self) -> dict[str, Any]:
        p = self.provision
        return {
            "law_id": self.law.law_id, "law_title": self.law.title, "law_num": self.law.law_num,
            "as_of": self.as_of.isoformat(), "revision_id": self.version.revision_id,
            "version_dated_by": self.version.dated_by, "uid": p.uid, "path": p.path, "kind": p.kind,
            "num": p.num, "title": p.title, "caption": p.caption, "heading": p.heading, "text": p.text,
            "sentences": [{"role": s.role, "text": s.text} for s in p.sentences],
            "valid_from": _iso(p.valid_from), "valid_until": _iso(p.valid_until),
            "known_up_to": _iso(self.known_up_to) if p.valid_until is None else None,
            "status": self.status, "reason": self.unknown.reason if self.unknown else None,
        }


@dataclass(frozen=True)
class ClauseChange:
    path: str
    kind: str
    title: str
    status: str  # added | changed | removed
    before: str | None
    after: str | None

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "kind": self.kind, "title": self.title, "status": self.status,
                "before": self.before, "after": self.after}


@dataclass(frozen=True)
class LawDiff:
    law: LawInfo
    from_day: date
    to_day: date
    from_revision: str
    to_revision: str
    changes: tuple[ClauseChange, ...]
    compared_to: date | None = None  # the last day compared: `to_day`, or earlier when the store knows no further

    @property
    def complete(self) -> bool:
        """Whether the diff reaches `to_day`; if not, what changed after `compared_to` is not known."""
        return self.compared_to is None or self.compared_to >= self.to_day

    def count(self, status: str) -> int:
        return sum(1 for c in self.changes if c.status == status)

    def to_json(self) -> dict[str, Any]:
        return {
            "law_id": self.law.law_id, "law_title": self.law.title, "from": self.from_day.isoformat(),
            "to": self.to_day.isoformat(), "from_revision": self.from_revision, "to_revision": self.to_revision,
            "added": self.count("added"), "changed": self.count("changed"), "removed": self.count("removed"),
            "compared_to": (self.compared_to or self.to_day).isoformat(), "complete": self.complete,
            "changes": [c.to_json() for c in self.changes],
        }


def resolve_law(store: GraphStore, name: str, catalog: Catalog | None = None) -> LawInfo:
    """A title, law number (any numeral style), 略称 or law id → the stored law."""
    name = name.strip()
    rows: list[LawsByNameRow | LawByIdRow] = [*store.rows(LAWS_BY_NAME, name=name)]
    if not rows:
        if catalog is None:
            catalog = Catalog.bundled()
        entries = catalog.lookup(name)
        law_num_entry = catalog.by_law_num(name)
        if law_num_entry is not None:
            entries = [law_num_entry, *entries]
        seen: set[str] = set()
        for entry in entries:
            if entry.law_id in seen:
                continue
            seen.add(entry.law_id)
            rows.extend(store.rows(LAW_BY_ID, law_id=entry.law_id))
        if not rows and entries:
            raise LawNotFound(
                f"{name!r} is {entries[0].title} ({entries[0].law_id}), but that law is not in the store; "
                "ingest it with `lexgraph ingest statutes FILE.xml`"
            )
    if not rows:
        raise LawNotFound(f"no law called {name!r}; give a title, a law number (昭和二十九年法律第八十九号), "
                          "an abbreviation or an e-Gov law id")
    unique = {row.law_id: row for row in rows}
    if len(unique) > 1:
        options = ", ".join(f"{r.title} ({r.law_id})" for r in unique.values())
        raise AmbiguousLaw(f"{name!r} could mean {options}; give the law id instead")
    return _law_info(next(iter(unique.values())))


def stored_laws(store: GraphStore) -> list[LawInfo]:
    """Every stored law, by law id, from one query (resolving each by name took one scan of the laws per law: 30 s
    for the whole archive's 8,502)."""
    return [_law_info(row) for row in store.rows(LAWS_ALL)]


def clause_path(clause: str) -> str:
    """第七百九条, 709条 or a709 → the clause path a709 (`numerals.clause_label` turns it back into 第七百九条).
    Raises `NotFound` for text that names no clause, saying how to write one."""
    path = parse_clause(clause)
    if path is None:
        raise NotFound(f"cannot read the clause {clause!r}; write it as 第七百九条, 709条, "
                           "第三条の二第一項第二号 or a path such as a709/p1")
    return path


def decide(store: GraphStore, law: LawInfo, path: str, day: date,
           revisions: ClauseSpans | None = None) -> Answer:
    """The one decision (`lexgraph.read.in_force`) for a clause of a stored law; pass `revisions` to share its
    reads between several questions."""
    return (revisions or ClauseSpans(store)).wording_on(law.law_id, path, day)


def provision_as_of(store: GraphStore, law: LawInfo, clause: str, day: date,
                    revisions: ClauseSpans | None = None) -> ProvisionAsOf:
    """The clause's wording on `day`. Raises `NotInForce` (not in force then), `WordingUnknown` (a gap, before the
    first stored version); a day past "known up to" gives the last known wording with `unknown` set."""
    path = clause_path(clause)
    answer = decide(store, law, path, day, revisions)
    if isinstance(answer, Unknown) and answer.last_known is None:
        raise WordingUnknown(unknown_message(store, law, f"{clause} ({path})", answer), answer)
    if not isinstance(answer, (InForce, Unknown)):
        periods = answer.periods
        if not periods:
            raise NotInForce(f"{law.title} has no clause {clause} ({path}) in any stored version", answer)
        up_to = newest_known_up_to(store, law)
        spans = ", ".join(period_text(start, end, up_to) for start, end in periods)
        raise NotInForce(f"{law.title} {clause} ({path}) was not in force on {day.isoformat()}"
                         + (f" (revision {answer.version.revision_id})" if answer.version else "")
                         + (f": {answer.reason.split(': ', 1)[1]}" if answer.why == "repealed" else "")
                         + f"; it was in force: {spans}", answer)
    uid = answer.wording.uid if isinstance(answer, InForce) else answer.last_known.uid  # type: ignore[union-attr]
    rows = store.rows(PROVISION_BY_UID, uid=uid)
    assert answer.version is not None
    version = version_by_id(store, law, answer.version.revision_id)
    provision = provision_from_row(law.law_id, rows[0])
    parts = tuple(
        provision_from_row(law.law_id, r)
        for r in store.rows(PROVISION_CHILDREN, uid=provision.uid)
    )
    up_to = newest_known_up_to(store, law) if provision.valid_until is None else None
    return ProvisionAsOf(law=law, provision=provision, version=version, as_of=day, parts=parts, known_up_to=up_to,
                         unknown=answer if isinstance(answer, Unknown) else None)


def unknown_message(store: GraphStore, law: LawInfo, what: str, answer: Unknown) -> str:
    """What `law show`, `law cites` and `law diff` say for an unknown wording: for a gap the amendments in it and
    which revision to ingest (`gap_message`), else the decision's reason with the law's title."""
    if answer.why == GAP and answer.version is not None:
        return gap_message(store, law, what, answer.day, version_by_id(store, law, answer.version.revision_id))
    return f"{law.title} {what}: " + answer.reason.split(": ", 1)[1]


def version_by_id(store: GraphStore, law: LawInfo, revision_id: str) -> LawVersionInfo:
    return next(v for v in law_versions(store, law) if v.revision_id == revision_id)


def newest_known_up_to(store: GraphStore, law: LawInfo) -> date | None:
    """How far the store knows the newest stored version of a law to be in force (never "now")."""
    versions = [v for v in law_versions(store, law) if not v.scheduled]  # scheduled: not yet in force
    if not versions:
        return None
    last = versions[-1]  # followed only by scheduled versions: known up to the last day it was seen in force
    return last.known_up_to or max((d for d in (last.enforced_from, last.known_in_force_on) if d), default=None)


def gap_message(store: GraphStore, law: LawInfo, what: str, day: date, version: LawVersionInfo) -> str:
    """Why a wording on `day` is unknown: the amendments the store knows of in the gap, with their days, and
    which revision to ingest. Shared by `law show`, `law cites` and citation checks so that all say the same."""
    following = next((v for v in law_versions(store, law)
                      if version.enforced_until is not None and v.enforced_from == version.enforced_until), None)
    known = (f"{law.title} {what}: the store does not know its wording on {day.isoformat()}. Revision "
             f"{version.revision_id} is known in force from {_iso(version.enforced_from) or '…'} up to (not "
             f"including) {_iso(version.known_until)}"
             + (f", and revision {following.revision_id} from {following.enforced_from}"
                if following is not None and following.enforced_from else "") + ".")
    amendments = "; ".join(a.describe() for a in version.gap)
    dated = [a.enforced_from for a in version.gap if a.enforced_from is not None and a.enforced_from <= day]
    example = (f" (the one from {dated[-1].isoformat()} is named "
               f"{law.law_id}_{dated[-1]:%Y%m%d}_<amending law id>.xml)") if dated else ""
    return (f"{known} In between, the store knows of amendments it does not hold: {amendments}. To read it, "
            f"ingest the e-Gov revision of {law.title} in force on {day.isoformat()}{example} with "
            "`lexgraph ingest statutes FILE.xml`.")


@dataclass(frozen=True)
class ClauseLink:
    """One cross-reference between clauses as worded on the day asked: `near_path` is the clause asked about (or
    the clause inside it) and `other` the clause at the far end, citing or cited."""

    near_path: str
    surface: str
    part: str | None
    mentions: int
    other_law_id: str
    other_law_title: str
    other: ProvisionVersion
    unverified: str | None = None  # the far clause's last known wording, not known in force on the day: why

    def to_json(self) -> dict[str, Any]:
        o = self.other
        return {"near_path": self.near_path or None, "surface": self.surface, "part": self.part or None,
                "mentions": self.mentions, "law_id": self.other_law_id, "law_title": self.other_law_title,
                "uid": o.uid, "path": o.path, "kind": o.kind, "text": o.text, "valid_from": _iso(o.valid_from),
                "valid_until": _iso(o.valid_until), "status": "unknown" if self.unverified else "in_force",
                "reason": self.unverified}


@dataclass(frozen=True)
class ClauseLinks:
    """What a clause cites, or what cites it, on a day; `path` empty: what cites the law as a whole (named with
    its number, no clause)."""

    law: LawInfo
    path: str
    as_of: date
    direction: str  # "cites" or "cited_by"
    links: tuple[ClauseLink, ...]
    unknown: str | None = None  # the clause's wording on the day is its last known one, not known in force: why

    def to_json(self) -> dict[str, Any]:
        return {"law_id": self.law.law_id, "law_title": self.law.title, "path": self.path or None,
                "as_of": self.as_of.isoformat(), "direction": self.direction,
                "status": "unknown" if self.unknown else "in_force", "reason": self.unknown,
                "links": [link.to_json() for link in self.links]}


def clause_links(store: GraphStore, law: LawInfo, clause: str, day: date, direction: str) -> ClauseLinks:
    """The clauses that the clause (or a clause inside it) cites, or that cite it, both as worded on `day`.
    Raises NotInForce when the clause was not in force then, so that an empty list always means "none"."""
    if direction not in ("cites", "cited_by"):
        raise ValueError(f"direction must be 'cites' or 'cited_by', not {direction!r}")
    revisions = ClauseSpans(store)
    found = provision_as_of(store, law, clause, day, revisions)
    path = found.provision.path
    rows = citation_rows(store, law.law_id, path, day, direction)
    # both ends' input to the decision read in batches, not a query per clause: 地方自治法 第二条 is cited by 1,331
    # clauses of the whole archive, and asking for each end alone took 7 minutes; one batch of them all filled a
    # 64 MiB pool (every path asked is read in every law asked), batches of `_SPAN_BATCH` do not
    ends = list(dict.fromkeys([(law.law_id, _near(row)) for row in rows]
                              + [(row.law_id, row.path) for row in rows]))
    for start in range(0, len(ends), _SPAN_BATCH):
        revisions.read(ends[start:start + _SPAN_BATCH])
    links = []
    for row in rows:  # each end as the one decision reads it on the day
        near = _near(row)
        near_answer = revisions.wording_on(law.law_id, near, day)
        far_answer = revisions.wording_on(row.law_id, row.path, day)
        if not _shown(near_answer, None) or not _shown(far_answer, row.uid):
            continue
        links.append(ClauseLink(near, row.surface, row.part, int(row.mentions or 1), row.law_id,
                                row.law_title, provision_from_row(row.law_id, row),
                                far_answer.reason if isinstance(far_answer, Unknown) else None))
    return ClauseLinks(law, path, day, direction, tuple(links), found.unknown.reason if found.unknown else None)


_SPAN_BATCH = 48  # clauses whose periods one query reads (ClauseSpans.read)


def law_cited_by(store: GraphStore, law: LawInfo, day: date) -> ClauseLinks:
    """The clauses that cite `law` as a whole (named with its number and no clause: 「行政手続法（平成五年法律第
    八十八号）」), as worded on `day`: each citing wording is shown only where the in-force decision shows it that
    day (or its last known wording, labelled), as for a clause's own citations."""
    rows = store.rows(LAW_CITED_BY_CLAUSES, law_id=law.law_id, day=day)
    revisions = ClauseSpans(store)
    ends = list(dict.fromkeys((row.law_id, row.path) for row in rows))
    for start in range(0, len(ends), _SPAN_BATCH):
        revisions.read(ends[start:start + _SPAN_BATCH])
    links = []
    for row in rows:
        answer = revisions.wording_on(row.law_id, row.path, day)
        if not _shown(answer, row.uid):
            continue
        links.append(ClauseLink("", row.surface, row.part, int(row.mentions or 1), row.law_id, row.law_title,
                                provision_from_row(row.law_id, row),
                                answer.reason if isinstance(answer, Unknown) else None))
    return ClauseLinks(law, "", day, "cited_by", tuple(links))


def _near(row: ProvisionCitesRow | ProvisionCitedByRow) -> str:
    """The end of a citation row inside the clause asked about: the citing clause, or the cited one."""
    return row.from_path if isinstance(row, ProvisionCitesRow) else row.to_path


def citation_rows(store: GraphStore, law_id: str, path: str, day: date,
                  direction: str) -> list[ProvisionCitesRow] | list[ProvisionCitedByRow]:
    """The citations leaving (``cites``) or reaching (``cited_by``) the clause at `path` and the clauses inside it,
    both ends as worded on `day`, in the order a reader expects (the near clause, then the citation's place in its
    text or the citing law and clause). The clause's wordings are found first and each one's edges are followed
    from its key: memory stays bounded by the citations read, on a store of any size (one query joining both
    sides scanned every clause of the whole archive into the engine's buffer pool and filled it)."""
    wordings = store.rows(CLAUSE_WORDINGS_ON, law_id=law_id, path=path, prefix=f"{path}/", day=day)
    if direction == "cites":
        cites = [row for wording in wordings for row in store.rows(PROVISION_CITES, uid=wording.uid, day=day)]
        return sorted(cites, key=lambda r: (r.from_path, r.char_start or 0, r.path))
    cited_by = [row for wording in wordings for row in store.rows(PROVISION_CITED_BY, uid=wording.uid, day=day)]
    return sorted(cited_by, key=lambda r: (r.law_id, r.path, r.to_path))


def _shown(answer: Answer, uid: str | None) -> bool:
    """Whether a read path may show this clause's wording `uid` on the day (any wording of it when None): the
    wording in force, or the last known one past "known up to" (labelled by the caller)."""
    if isinstance(answer, InForce):
        return uid is None or answer.uid == uid
    if isinstance(answer, Unknown) and answer.last_known is not None:
        return uid is None or answer.last_known.uid == uid
    return False


def version_on(store: GraphStore, law: LawInfo, day: date) -> LawVersionInfo:
    rows = store.rows(LAW_VERSION_ON, law_id=law.law_id, day=day)
    if not rows:
        if law.repealed_on is not None and day >= law.repealed_on:
            raise NotInForce(f"{law.title} was repealed (廃止) from {law.repealed_on.isoformat()}: not in force on "
                             f"{day.isoformat()}")
        versions = law_versions(store, law)
        earliest = versions[0].enforced_from if versions else None
        raise NotInForce(
            f"the store holds no version of {law.title} in force on {day.isoformat()}"
            + (f" (earliest stored version starts {earliest.isoformat()})" if earliest else "")
            + "; ingest the revision in force then"
        )
    return _version_info(rows[0])


def law_versions(store: GraphStore, law: LawInfo) -> list[LawVersionInfo]:
    rows = store.rows(LAW_VERSIONS, law_id=law.law_id)
    versions = [_version_info(r) for r in rows]
    # A scheduled version whose day is left open comes last: it is not in force on any day yet.
    return sorted(versions, key=lambda v: (v.enforced_from or (date.max if v.scheduled else date.min), v.revision_id))


def law_diff(store: GraphStore, law: LawInfo, from_day: date, to_day: date, level: str = "article") -> LawDiff:
    """Clauses added, changed (in wording) and removed between the versions in force on two days; `level`
    "article" compares articles (and other top-level units), "all" every clause down to subitems."""
    spans = ClauseSpans(store).versions(law.law_id)
    compared_to = to_day
    known = version_known_on(spans, law.law_id, to_day)
    if isinstance(known, Unknown) and known.why == PAST_KNOWN and known.known_up_to is not None \
            and from_day <= known.known_up_to:
        compared_to = known.known_up_to  # compare what is known; after that day nothing is, and the diff says so
    ends = []
    for day in (from_day, compared_to):
        found = version_known_on(spans, law.law_id, day)
        if isinstance(found, Unknown):  # some clauses' wording that day is unknown: a diff would show a guess
            raise WordingUnknown(unknown_message(store, law, "as a whole", found)
                                 + ("; nothing to compare" if found.why == PAST_KNOWN else ""), found)
        if isinstance(found, OutOfForce):
            raise NotInForce(f"{law.title}: " + found.reason.split(": ", 1)[1], found)
        ends.append(version_by_id(store, law, found.revision_id))
    before_version, after_version = ends
    before = _clauses(store, before_version.revision_id, level)
    after = _clauses(store, after_version.revision_id, level)
    changes: list[ClauseChange] = []
    for path, row in after.items():
        old = before.get(path)
        if old is None:
            changes.append(ClauseChange(path, row.kind, row.title, "added", None, row.text))
        elif _wording(old) != _wording(row):
            changes.append(ClauseChange(path, row.kind, row.title, "changed", old.text, row.text))
    for path, row in before.items():
        if path not in after:
            changes.append(ClauseChange(path, row.kind, row.title, "removed", row.text, None))
    order = {p: r.seq for p, r in {**before, **after}.items()}
    changes.sort(key=lambda c: (order.get(c.path, 0), c.path))
    return LawDiff(law, from_day, to_day, before_version.revision_id, after_version.revision_id, tuple(changes),
                   compared_to)


def _wording(row: ProvisionsInVersionRow) -> tuple[str, str]:
    """A change of wording, not of markup: how a file splits sentences, or the spaces, tabs and line breaks its
    generator left inside a sentence (行政手続法 第二条第四号 in e-Gov's 2018 and 2024 files: 「…をいう。⏎
    ただし、…」 with indentation, and 「…をいう。ただし、…」), can differ between XML generations while the law
    reads the same, and a diff must not report that as an amendment. Whitespace carries no wording in a statute's
    text."""
    return (_SPACE.sub("", row.caption or ""), _SPACE.sub("", row.text or ""))


_SPACE = re.compile(r"\s+")  # with str patterns this includes the ideographic space 「　」


def _clauses(store: GraphStore, revision_id: str, level: str) -> dict[str, ProvisionsInVersionRow]:
    rows = store.rows(PROVISIONS_IN_VERSION, revision_id=revision_id)
    if level == "article":
        rows = [r for r in rows if r.kind not in ("paragraph", "item", "subitem")]
    return {r.path: r for r in rows}


def provision_from_row(law_id: str, row: ProvisionRow | ProvisionChildrenRow | ProvisionCitesRow
                       | ProvisionCitedByRow | LawCitedByClausesRow) -> ProvisionVersion:
    """A clause's wording from a row that reads all of it (`ProvisionRow`) or part: the parts a row lacks are
    empty (a clause inside one, a clause at the other end of a citation)."""
    if isinstance(row, ProvisionRow):
        sentences = tuple(SentenceText(role, text) for role, text in json.loads(row.sentences or "[]"))
        return ProvisionVersion(
            uid=row.uid, law_id=law_id, path=row.path, kind=row.kind, num=row.num or "", title=row.title or "",
            caption=row.caption or "", heading=row.heading or "", text=row.text or "", sentences=sentences,
            seq=row.seq or 0, valid_from=row.valid_from, valid_until=row.valid_until,
            content_hash=row.content_hash or "",
        )
    if isinstance(row, ProvisionChildrenRow):
        return ProvisionVersion(
            uid=row.uid, law_id=law_id, path=row.path, kind=row.kind, num="", title=row.title or "", caption="",
            heading="", text=row.text or "", sentences=(), seq=row.seq or 0, valid_from=None, valid_until=None,
            content_hash="",
        )
    return ProvisionVersion(
        uid=row.uid, law_id=law_id, path=row.path, kind=row.kind, num="", title="", caption="", heading="",
        text=row.text or "", sentences=(), seq=0, valid_from=row.valid_from, valid_until=row.valid_until,
        content_hash="",
    )


def _law_info(row: LawByIdRow | LawsAllRow | LawsByNameRow) -> LawInfo:
    return LawInfo(
        law_id=row.law_id, title=row.title, law_num=row.law_num, law_type=row.law_type,
        aliases=tuple(row.aliases or ()), kana=row.kana or "", promulgated=row.promulgated,
        repealed_on=row.repealed_on,
    )


def _version_info(row: LawVersionRow) -> LawVersionInfo:
    return LawVersionInfo(
        revision_id=row.revision_id, law_id=row.law_id, enforced_from=row.enforced_from,
        enforced_until=row.enforced_until, amended_by=row.amended_by, source=row.source,
        dated_by=row.dated_by, known_in_force_on=row.known_in_force_on,
        known_until=row.known_until, gap=amendments_from_json(row.gap),
        amendments=amendments_from_json(row.amendments), scheduled=bool(row.scheduled),
    )


def _iso(day: date | None) -> str | None:
    return day.isoformat() if day is not None else None
