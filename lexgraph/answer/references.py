"""The references an answer may cite, numbered as the prompt shows them: ``BOOK 1``, ``GUIDELINE 2``, ``PRECEDENT 3``,
``LAW 4``, and the citation relations between them (which chunk or precedent cites which clause).

They come from a search: the evidence clauses become LAWs, the best book and guideline chunks BOOKs and GUIDELINEs,
and PRECEDENTs are the judgments the search found (each with the passage it found, in the order found, down to the
search's relevance floor), then the evidence precedents with text of their own. What the search ranks first must
reach the model: a judgment whose 判決要旨 the question found is a reference even if no other judgment cites it. A
precedent known only from other judgments' citations (a stub: its text is 「本文未収録…」) is never a reference:
there is nothing in it a model could read, and a reference that says nothing only looks like support.

Ids are numbered across kinds in the order the prompt lists them (books, guidelines, precedents, laws), so every id
is unique in a prompt and a reply can cite nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any

from lexgraph.model import NOT_STORED_LABEL, as_of_day
from lexgraph.statutes.timeline import article_path
from lexgraph.store.base import GraphStore
from lexgraph.store.rows import CHUNKS_CITATIONS, EVIDENCE_ITEMS, LAW_VERSION_ON, LAW_VERSIONS

if TYPE_CHECKING:
    from lexgraph.retrieve.search import SearchResult

KINDS = ("book", "guideline", "precedent", "law")  # in the order a prompt lists them
DEFAULT_LIMITS: Mapping[str, int] = {"book": 5, "guideline": 5, "precedent": 5, "law": 10}


def capped_limits(most: int) -> dict[str, int]:
    """The default references per kind, none above `most`."""
    return {kind: min(limit, most) for kind, limit in DEFAULT_LIMITS.items()}


@dataclass(frozen=True)
class Reference:
    id: str  # LAW 4
    kind: str  # book | guideline | precedent | law
    uid: str  # the graph node: a Provision, a Precedent, or a Chunk of a book or guideline
    title: str
    text: str
    law_id: str = ""
    path: str = ""
    valid_from: date | None = None
    valid_until: date | None = None
    revision_id: str = ""  # a law's version in force on the as-of date (the wording quoted is in it)
    cites: tuple[str, ...] = ()  # ids of references this one cites
    cited_by: tuple[str, ...] = ()  # ids of references citing this one
    stub: bool = False  # a precedent known only from citations: `text` is empty, its own text is not stored
    direct_rank: int | None = None  # a clause's rank when the question searched the clauses (None: graph only)
    unverified: str = ""  # a clause's last known wording, not known in force on the day: why (read/in_force.py)

    @property
    def shown_text(self) -> str:
        """The text as quoted or given to a model: for a placeholder, the label saying its text is not stored."""
        return NOT_STORED_LABEL if self.stub and not self.text.strip() else self.text

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "uid": self.uid, "title": self.title, "text": self.text,
                "law_id": self.law_id, "path": self.path,
                "valid_from": self.valid_from.isoformat() if self.valid_from else None,
                "valid_until": self.valid_until.isoformat() if self.valid_until else None,
                "revision_id": self.revision_id, "cites": list(self.cites), "cited_by": list(self.cited_by),
                "stub": self.stub, "direct_rank": self.direct_rank, "unverified": self.unverified or None}


@dataclass(frozen=True)
class References:
    items: tuple[Reference, ...]
    relations: tuple[tuple[str, str], ...] = field(default=())  # (citing id, cited id)
    # (title, reason) of clauses the search left out because their wording on the day is not known: the answer
    # says so in its caveats and the prompt tells the model, so that nothing is answered from something else
    unknown: tuple[tuple[str, str], ...] = field(default=())
    # what the search index missed: laws changed since it was built (`SearchResult.stale`), said in the caveats
    stale: tuple[str, ...] = field(default=())

    def of_kind(self, kind: str) -> list[Reference]:
        return [r for r in self.items if r.kind == kind]

    @property
    def ids(self) -> frozenset[str]:
        return frozenset(r.id for r in self.items)

    def by_id(self, reference_id: str) -> Reference | None:
        return next((r for r in self.items if r.id == reference_id), None)

    def to_json(self) -> dict[str, Any]:
        return {"items": [r.to_json() for r in self.items],
                "relations": [{"from": a, "to": b} for a, b in self.relations],
                "unknown": [{"title": t, "reason": r} for t, r in self.unknown]}


def build_references(store: GraphStore, result: SearchResult,
                     limits: Mapping[str, int] = DEFAULT_LIMITS) -> References:
    """Number the search's evidence and literature chunks, and find which of them cite which."""
    raw: list[dict[str, Any]] = []
    for kind in ("book", "guideline"):
        chunks = [h for h in result.chunks if h.unit.owner_kind == kind][: limits.get(kind, 0)]
        raw += [{"kind": kind, "uid": h.uid, "title": f"{h.unit.title} {h.unit.path}".strip(), "text": h.unit.text}
                for h in chunks]
    raw += _precedents(store, result, limits.get("precedent", 0))
    laws = [e for e in result.evidence if e.label == "Provision"][: limits.get("law", 0)]
    revisions = _revisions(store, {e.law_id for e in laws}, as_of_day(result.where.day))
    unverified = {(u.law_id, u.path): u.reason for u in result.unverified}
    raw += [{"kind": "law", "uid": e.uid, "title": e.title, "text": e.text, "law_id": e.law_id, "path": e.path,
             "valid_from": e.valid_from, "valid_until": e.valid_until, "revision_id": revisions.get(e.law_id, ""),
             "direct_rank": e.direct_rank, "unverified": unverified.get((e.law_id, e.path), "")}
            for e in laws]
    for number, item in enumerate(raw, start=1):
        item["id"] = f"{item['kind'].upper()} {number}"
    relations = _relations(store, result, raw)
    cites: dict[str, list[str]] = {}
    cited_by: dict[str, list[str]] = {}
    for a, b in relations:
        cites.setdefault(a, []).append(b)
        cited_by.setdefault(b, []).append(a)
    items = tuple(Reference(
        id=item["id"], kind=item["kind"], uid=item["uid"], title=item["title"], text=item["text"],
        law_id=item.get("law_id", ""), path=item.get("path", ""), valid_from=item.get("valid_from"),
        valid_until=item.get("valid_until"), revision_id=item.get("revision_id", ""), stub=item.get("stub", False),
        direct_rank=item.get("direct_rank"), unverified=item.get("unverified", ""),
        cites=tuple(cites.get(item["id"], ())),
        cited_by=tuple(cited_by.get(item["id"], ()))) for item in raw)
    return References(items, tuple(relations), tuple((u.title, u.reason) for u in result.unknown),
                      tuple(part.note for part in result.stale))


def _precedents(store: GraphStore, result: SearchResult, limit: int) -> list[dict[str, Any]]:
    """The judgments the search found (each with its best passage: the 判決要旨 when that is what matched), then
    the evidence precedents with a text of their own; never a stub; at most `limit`."""
    from lexgraph.retrieve.search import precedent_title

    found: dict[str, str] = {}  # precedent uid → the passage the question found first
    for hit in result.relevant_chunks():
        if hit.unit.owner_kind == "precedent":
            found.setdefault(hit.unit.owner_uid, hit.unit.text)
    evidence = {e.uid: e for e in result.evidence if e.label == "Precedent" and not e.stub}
    chosen = [*found, *(uid for uid in evidence if uid not in found)][:limit]
    unread = [uid for uid in chosen if uid not in evidence]
    rows = {row.uid: row for row in (store.rows(EVIDENCE_ITEMS, provisions=[], precedents=unread)
                                     if unread else [])}
    out = []
    for uid in chosen:
        row = rows.get(uid)
        if row is not None and row.stub:
            continue
        title = evidence[uid].title if uid in evidence else (precedent_title(row) if row else uid)
        text = found.get(uid) or evidence[uid].text
        if text.strip():
            out.append({"kind": "precedent", "uid": uid, "title": title, "text": text, "stub": False})
    return out


def _revisions(store: GraphStore, law_ids: set[str], day: date) -> dict[str, str]:
    """Each law's version in force on the day (the latest stored one when none is known to be)."""
    out = {}
    for law_id in sorted(law_ids):
        rows = store.rows(LAW_VERSION_ON, law_id=law_id, day=day) or store.rows(LAW_VERSIONS, law_id=law_id)
        if rows:
            out[law_id] = rows[-1].revision_id
    return out


def _relations(store: GraphStore, result: SearchResult, raw: Sequence[dict[str, Any]]) -> list[tuple[str, str]]:
    """(citing id, cited id) from the chunks' CITES edges: a book or guideline chunk cites what it cites; a
    precedent cites what any of its retrieved chunks cites. A cited clause matches a LAW of the same article."""
    laws_by_uid = {item["uid"]: item["id"] for item in raw if item["kind"] == "law"}
    laws_by_article = {(item["law_id"], article_path(item["path"])): item["id"] for item in raw
                       if item["kind"] == "law"}
    precedents = {item["uid"]: item["id"] for item in raw if item["kind"] == "precedent"}
    citing: dict[str, str] = {item["uid"]: item["id"] for item in raw if item["kind"] in ("book", "guideline")}
    for hit in result.chunks:
        if hit.unit.owner_uid in precedents:
            citing.setdefault(hit.uid, precedents[hit.unit.owner_uid])
    if not citing:
        return []
    found: list[tuple[str, str]] = []
    for row in store.rows(CHUNKS_CITATIONS, uids=sorted(citing)):
        source = citing[row.chunk]
        if row.label == "Provision":
            target = laws_by_uid.get(row.target) or laws_by_article.get((row.law_id, article_path(row.path)))
        else:
            target = precedents.get(row.target)
        if target and target != source and (source, target) not in found:
            found.append((source, target))
    return found
