"""Contract-review knowledge: the entry a finished interview yields, its versions, and how it is stored and read.

The design document (../shared/seeds/003) fixes the interview turn (schema 1.0) and leaves the knowledge's own
shape to "a separate schema" it does not publish; lexgraph's entry, version ``1.0`` (``knowledge_entry`` schema),
takes the fields of the document's example (title, contract_types, problem_pattern, risk, recommended_clause,
note) and adds ``legal_basis``, the clauses the entry rests on, which are linked to the clause in force on the
day the entry was recorded. Entries recorded by lexgraph's earlier format (``0``: title, contract_type, issue,
recommendation, legal_basis) are read through `upgrade_entry`, in turn logs and in the store alike.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from lexgraph.citations.model import Citation
from lexgraph.store.base import GraphStore
from lexgraph.store.names import titled_name
from lexgraph.store.rows import KNOWLEDGE_CLAUSES, KNOWLEDGE_ENTRIES, PROVISION_AS_OF

KNOWLEDGE_SCHEMA = "knowledge_entry"
KNOWLEDGE_VERSION = "1.0"
ENTRY_FIELDS = ("title", "contract_types", "problem_pattern", "risk", "recommended_clause", "note", "legal_basis")


def upgrade_entry(entry: Mapping[str, Any]) -> dict[str, Any]:
    """An entry in version 1.0, whatever wrote it: a format-0 entry's contract_type becomes contract_types, its
    issue the problem_pattern and its recommendation the recommended_clause; a 1.0 entry is returned as it is."""
    if "problem_pattern" in entry or "issue" not in entry:
        return dict(entry)
    upgraded = {"title": entry["title"],
                "contract_types": [entry["contract_type"]] if entry.get("contract_type") else [],
                "problem_pattern": entry["issue"], "recommended_clause": entry["recommendation"],
                "legal_basis": list(entry.get("legal_basis") or [])}
    return upgraded


def entry_uid(entry: Mapping[str, Any]) -> str:
    """Stable across re-recording the same entry: its title and problem pattern."""
    return "k:" + hashlib.sha256(f"{entry['title']}\x00{entry['problem_pattern']}".encode()).hexdigest()[:16]


@dataclass(frozen=True)
class StoredKnowledge:
    uid: str
    title: str
    linked: tuple[tuple[str, str], ...]  # (legal basis as written, provision uid)
    unresolved: tuple[str, ...]  # legal bases that name no stored clause

    def to_json(self) -> dict[str, Any]:
        return {"uid": self.uid, "title": self.title,
                "linked": [{"basis": basis, "provision": uid} for basis, uid in self.linked],
                "unresolved": list(self.unresolved)}


#: Resolves a legal basis (民法第四百十五条) to the stored clause uid in force on a day, or None.
ResolveClause = Callable[[str, date], str | None]


def clause_resolver(store: GraphStore, cite: Callable[[str, date], Sequence[Citation]]) -> ResolveClause:
    def resolve(text: str, day: date) -> str | None:
        for citation in cite(text, day):
            if citation.kind == "statute" and citation.law_id and citation.path:
                rows = store.rows(PROVISION_AS_OF, law_id=citation.law_id, path=citation.path, day=day)
                if rows:
                    return str(rows[0].uid)
        return None

    return resolve


def store_knowledge(store: GraphStore, knowledge: Mapping[str, Any], resolve: ResolveClause, *, day: date,
                    interview_log: str = "") -> list[StoredKnowledge]:
    """A finished entry (version 1.0; or ``{"entries": [...]}`` of format 0) as (:Knowledge) with CITES to the
    clauses of its legal basis; idempotent."""
    entries = knowledge.get("entries", [knowledge])
    stored = []
    with store.transaction() as tx:
        for raw in entries:
            entry = upgrade_entry(raw)
            uid = entry_uid(entry)
            linked, unresolved = [], []
            for basis in entry.get("legal_basis", []):
                provision = resolve(basis, day)
                (linked.append((basis, provision)) if provision else unresolved.append(basis))
            tx.upsert_nodes("Knowledge", [{
                "uid": uid, "name": titled_name(entry["title"], uid), "schema_version": KNOWLEDGE_VERSION,
                "title": entry["title"],
                "contract_types": list(entry["contract_types"]), "problem_pattern": entry["problem_pattern"],
                "risk": entry.get("risk", ""), "recommended_clause": entry["recommended_clause"],
                "note": entry.get("note", ""), "legal_basis": list(entry.get("legal_basis", [])),
                "created_at": datetime.now(UTC).isoformat(timespec="milliseconds"), "interview": interview_log}])
            if linked:
                tx.upsert_relationships("CITES", [{"from": uid, "to": p, "surface": basis, "extractor": "interview",
                                                   "status": "resolved"} for basis, p in linked],
                                        from_label="Knowledge", to_label="Provision")
            stored.append(StoredKnowledge(uid, entry["title"], tuple(linked), tuple(unresolved)))
    return stored


@dataclass(frozen=True)
class KnowledgeEntry:
    """A stored entry as `knowledge list / show / export` give it: the entry (1.0) and the clauses it is linked
    to (law id, clause path, the wording's uid, the basis as written)."""

    uid: str
    created_at: str
    entry: Mapping[str, Any]
    clauses: tuple[Mapping[str, str], ...]

    def to_json(self) -> dict[str, Any]:
        return {"uid": self.uid, "created_at": self.created_at, "schema_version": KNOWLEDGE_VERSION,
                **dict(self.entry), "clauses": [dict(c) for c in self.clauses]}


def read_knowledge(store: GraphStore, uid: str | None = None) -> list[KnowledgeEntry]:
    """Every stored entry (or the one `uid` names), oldest first, each in version 1.0 whatever wrote it."""
    rows = store.rows(KNOWLEDGE_ENTRIES, every=uid is None, uid=uid or "")
    linked: dict[str, list[Mapping[str, str]]] = {}
    for link in store.rows(KNOWLEDGE_CLAUSES, every=uid is None, uid=uid or ""):
        linked.setdefault(link.knowledge, []).append(
            {"basis": link.basis, "law_id": link.law_id, "path": link.path, "uid": link.uid})
    out = []
    for row in rows:
        if row.schema_version == KNOWLEDGE_VERSION:
            columns = row._asdict()  # the entry's fields are columns of the same names
            entry = {name: columns[name] for name in ENTRY_FIELDS if columns.get(name) not in (None, "")}
            entry["contract_types"] = list(row.contract_types or [])
            entry["legal_basis"] = list(row.legal_basis or [])
        else:  # written before 1.0: the format-0 columns
            entry = upgrade_entry({"title": row.title, "contract_type": row.contract_type,
                                   "issue": row.issue or "", "recommendation": row.recommendation or "",
                                   "legal_basis": list(row.legal_basis or [])})
        out.append(KnowledgeEntry(row.uid, str(row.created_at or ""), entry, tuple(linked.get(row.uid, ()))))
    return out
