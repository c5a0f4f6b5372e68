"""`lexgraph doctor`: check a store and say what to do about anything wrong.

Each finding carries the fix in words a user can act on. A store that passes has every migration applied and
unchanged, no half-written law (which an interrupted ingest could leave only if a transaction were broken), and a
consistent timeline per law.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from lexgraph.config import BUFFER_POOL_ENV, format_size
from lexgraph.errors import BufferPoolFull
from lexgraph.statutes.egov import PARSER_VERSION
from lexgraph.store.base import GraphStore, StoreCounts
from lexgraph.store.rows import (
    DOCTOR_DISPUTED_VERSIONS,
    DOCTOR_EMPTY_VERSIONS,
    DOCTOR_LARGEST_VERSION,
    DOCTOR_OLD_PARSER,
    DOCTOR_ORPHAN_CHUNKS,
    DOCTOR_ORPHAN_PROVISIONS,
    DOCTOR_OVERLAPPING_VERSIONS,
    DOCTOR_STUB_COUNT,
    LAWS_UNLINKED,
    PROVISIONS_IN_VERSION,
)


@dataclass(frozen=True)
class Finding:
    check: str
    ok: bool
    detail: str
    fix: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"check": self.check, "ok": self.ok, "detail": self.detail, "fix": self.fix}


def _disputed(store: GraphStore) -> Finding:
    """Laws whose revision list and stored 附則 disagree: the store reads the days concerned as unknown (never
    the old wording as in force), and says so here, since only a new source can settle it."""
    rows = store.rows(DOCTOR_DISPUTED_VERSIONS, marker='"conflict"')
    if not rows:
        return Finding("sources agree", True, "e-Gov's revision lists and the stored 附則 agree")
    first = rows[0]
    disputed = [a for a in json.loads(first.gap or "[]") if a.get("conflict")]
    named = disputed[0] if disputed else {}
    day = named.get("enforced_from") or f"{named.get('earliest') or 'a day not fixed'} at the earliest"
    more = f" ({len(rows)}{'+' if len(rows) == 20 else ''} versions in all)" if len(rows) > 1 else ""
    return Finding(
        "sources agree", False,
        f"{first.law_id} revision {first.revision_id}: {named.get('law_num', '?')} in force from {day}: "
        f"{named.get('conflict', '')}; the wordings that differ are unknown from then{more}",
        f"sync the law again once e-Gov lists that revision (`lexgraph sync {first.law_id}`), or ingest that "
        "revision's e-Gov file (`lexgraph ingest statutes FILE.xml`)")


@dataclass(frozen=True)
class DoctorReport:
    location: str
    backend: str
    counts: StoreCounts
    findings: tuple[Finding, ...]

    @property
    def ok(self) -> bool:
        return all(f.ok for f in self.findings)

    def to_json(self) -> dict[str, Any]:
        return {"location": self.location, "backend": self.backend, "ok": self.ok,
                "counts": self.counts.to_json(), "findings": [f.to_json() for f in self.findings]}


Check = Callable[[GraphStore], "Finding"]


def examine(store: GraphStore, checks: Sequence[Check] = ()) -> DoctorReport:
    """The store's own checks (migrations, counts, consistency), then each of `checks` (the client adds the
    search indexes', which live above the store) in order."""
    findings: list[Finding] = []
    if store.opening_notes or store.torn_log or store.set_aside_files():
        findings.append(_log_finding(store))
    pending = store.pending_migrations()
    findings.append(Finding(
        "migrations", not pending,
        "all applied" if not pending else "pending: " + ", ".join(f"V{m.version:03d}__{m.name}" for m in pending),
        "" if not pending else "run any write command (e.g. `lexgraph ingest statutes …`) or `lexgraph migrate`",
    ))
    changed = store.changed_migrations()
    findings.append(Finding(
        "migration checksums", not changed,
        "unchanged" if not changed else "edited after being applied: "
        + ", ".join(f"V{a.version:03d}__{a.name}" for a, _ in changed),
        "" if not changed else "never edit an applied migration; restore the file and add a new V0NN migration",
    ))
    try:
        counts = store.counts()
        if pending:
            return DoctorReport(store.location, store.backend, counts, tuple(findings))
        _consistency(store, counts, findings)
        findings.extend(check(store) for check in checks)
    except BufferPoolFull:  # a pool too small for even the checks: that is the finding
        if not any(f.check == "buffer pool" and not f.ok for f in findings):
            findings.append(_pool_too_small(store, "the checks themselves ran out of it"))
        counts = StoreCounts({}, {})
    return DoctorReport(store.location, store.backend, counts, tuple(findings))


def _consistency(store: GraphStore, counts: StoreCounts, findings: list[Finding]) -> None:
    """The store's own consistency checks, appended to `findings`."""
    orphans = [r.uid for r in store.rows(DOCTOR_ORPHAN_PROVISIONS)]
    findings.append(Finding(
        "orphan clauses", not orphans,
        "none" if not orphans else f"{len(orphans)}+ clauses belong to no version, e.g. {orphans[0]}",
        "" if not orphans else "re-run the last `lexgraph ingest statutes` on the same files",
    ))
    empty = [r.revision_id for r in store.rows(DOCTOR_EMPTY_VERSIONS)]
    findings.append(Finding(
        "incomplete versions", not empty,
        "none" if not empty else f"{len(empty)}+ versions without clauses or law, e.g. {empty[0]}",
        "" if not empty else "re-ingest that revision's file",
    ))
    old_text = store.rows(DOCTOR_OLD_PARSER, parser=PARSER_VERSION) if counts.nodes.get("LawVersion") else []
    findings.append(Finding(
        "statute text", not old_text,
        f"read by the current parser (version {PARSER_VERSION})" if not old_text else
        f"{len(old_text)}{'+' if len(old_text) == 20 else ''} versions were read by an older parser, e.g. "
        f"{old_text[0].revision_id}: ruby may have left line breaks in their text, their periods may not "
        "account for amendments their 附則 name, and their chapters and appendices are not nodes citations link to "
        "(parser 3)",
        "" if not old_text else "ingest the same statute files again: each such version is read again (status "
        "reread), clauses whose text changes get the new text, and the law's periods are recomputed",
    ))
    findings.append(_disputed(store) if counts.nodes.get("LawVersion") else Finding("sources agree", True, "no law"))
    overlaps = store.rows(DOCTOR_OVERLAPPING_VERSIONS)
    findings.append(Finding(
        "version periods", not overlaps,
        "no overlaps" if not overlaps else f"{overlaps[0].first} overlaps {overlaps[0].second}",
        "" if not overlaps else "re-ingest the law's files; report a bug if it persists",
    ))
    unlinked = len(store.rows(LAWS_UNLINKED)) if counts.nodes.get("Law") else 0
    findings.append(Finding(
        "clause cross-references", True,
        "every law linked" if not unlinked else f"{unlinked} laws not linked yet (ingested with --no-link, or the "
        "ingest stopped while linking); run `lexgraph law link` or ingest again",
    ))
    loose = [r.uid for r in store.rows(DOCTOR_ORPHAN_CHUNKS)]
    findings.append(Finding(
        "orphan chunks", not loose,
        "none" if not loose else f"{len(loose)}+ chunks belong to no precedent or document, e.g. {loose[0]}",
        "" if not loose else "re-run the last `lexgraph ingest precedents|literature` on the same files",
    ))
    stubs = store.rows(DOCTOR_STUB_COUNT)[0].stubs if counts.nodes.get("Precedent") else 0
    findings.append(Finding(
        "precedent stubs", True,
        f"{stubs} precedents are known only from citations; `lexgraph ingest precedents` of their texts fills "
        "them in",
    ))
    if (pool_finding := buffer_pool_finding(store)) is not None:
        findings.append(pool_finding)


def buffer_pool_finding(store: GraphStore) -> Finding | None:
    """Whether the embedded engine's buffer pool holds the largest read a bounded read path makes of this store:
    the whole of its largest version (`law diff`, `export rdf --law`), read here under the store's own pool. Every
    other read path reads one clause's citations or one law at a time, so a pool that holds this holds them. None
    for a store with no such pool (a Neo4j server sizes its own memory)."""
    pool = getattr(store, "buffer_pool", None)
    if pool is None:
        return None
    largest = store.rows(DOCTOR_LARGEST_VERSION)
    if not largest:
        return Finding("buffer pool", True, f"{pool.label} (set by {pool.source}); the store holds no law yet")
    revision, clauses = largest[0].revision_id, largest[0].clauses
    try:
        store.rows(PROVISIONS_IN_VERSION, revision_id=revision)
    except BufferPoolFull:
        return _pool_too_small(store, f"reading its largest version, {revision} ({clauses:,} clauses), ran out of "
                                      "it")
    return Finding("buffer pool", True, f"{pool.label} (set by {pool.source}); the largest version, {revision} "
                   f"({clauses:,} clauses), reads within it")


def _pool_too_small(store: GraphStore, what: str) -> Finding:
    pool = store.buffer_pool  # type: ignore[attr-defined]  # only a store with a pool runs out of it
    more = format_size(pool.size * 4).replace(" ", "")
    return Finding("buffer pool", False, f"{pool.label} (set by {pool.source}) is too small for this store: {what}",
                   f"give the store more memory: --buffer-pool {more} on the command, {BUFFER_POOL_ENV}={more}, or "
                   f"buffer_pool = \"{more}\" in lexgraph.toml")


def _log_finding(store: GraphStore) -> Finding:
    """What opening the store did to its write-ahead log, and the torn logs kept beside it (a finding only when
    there is one of those). A torn log still in place is a problem with a fix (`doctor --repair`). A torn log set
    aside is not a problem of the store, which holds every committed transaction, so that finding passes; it
    names the files because they are the user's to keep or delete, never deleted by lexgraph."""
    notes = list(store.opening_notes)
    aside = store.set_aside_files()
    if store.torn_log:
        return Finding("write-ahead log", False, "; ".join(notes),
                       "run `lexgraph doctor --repair` (or any write command, once no other writer runs): it copies "
                       "the log beside the store and keeps in the store every transaction committed before the tear")
    if aside:
        notes.append(f"torn logs set aside by an open after a killed write are kept beside the store "
                     f"({', '.join(aside)}): what lies in them past the last whole COMMIT was never committed; "
                     f"delete them when no longer wanted")
    detail = "; ".join(notes)
    return Finding("write-ahead log", True, detail)
