"""`lexgraph sync`: keep laws current from e-Gov 法令API Version 2, every revision with the period its list gives.

For each law: read its revision list (``/law_revisions``), fetch the text of every listed revision the store lacks
(``/law_data``, through the response cache, so nothing is fetched twice even across a killed run), and ingest them
through the ordinary statute ingest with the list as the law's `SourceListing`: periods from the list, no gaps,
"known up to" the sync day, revisions not yet in force stored as scheduled, a repeal ending the last wording.

Each law is written in one transaction (its new revisions and its new periods together), so a sync killed at any
point leaves every law either as it was or brought up to its list; the next sync does the rest, its texts coming
from the cache. A revision whose text cannot be had or read is reported (law, revision id, reason) and left out;
the wording before it is then known only up to the day it should have taken effect (never shown beyond it).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from lexgraph.errors import BadAnswer, EgovNotFound, NotFound
from lexgraph.ingest.statutes import IngestSummary, ingest_statutes, stored_listing
from lexgraph.statutes.catalog import Catalog
from lexgraph.statutes.egov_api import UNENFORCED, EgovApi, RevisionList
from lexgraph.statutes.sources import XmlDocument, parse_revision_id
from lexgraph.statutes.timeline import ListedVersion, SourceListing
from lexgraph.store.base import GraphStore
from lexgraph.store.rows import LAW_BY_ID, LAW_VERSIONS_FOR_LAWS, LAWS_SYNCED


@dataclass(frozen=True)
class RevisionFailure:
    """A listed revision left out of the store, and why."""

    law_id: str
    revision_id: str
    reason: str

    def to_json(self) -> dict[str, str]:
        return {"law_id": self.law_id, "revision_id": self.revision_id, "reason": self.reason}

    def __str__(self) -> str:
        return f"{self.law_id} revision {self.revision_id}: {self.reason}"


@dataclass
class SyncSummary:
    synced_on: date
    laws: list[str] = field(default_factory=list)  # laws brought up to their list
    unchanged: list[str] = field(default_factory=list)  # refresh: nothing updated at e-Gov since the last sync
    listed: int = 0  # revisions listed (text revisions, repeals excluded)
    scheduled: int = 0  # of which not yet in force on the sync day
    versions_added: int = 0
    fetched: int = 0  # answers from the server (lists and texts)
    texts_fetched: int = 0  # law_data answers from the server
    texts_from_cache: int = 0
    failures: list[RevisionFailure] = field(default_factory=list)
    ingests: list[IngestSummary] = field(default_factory=list)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "synced_on": self.synced_on.isoformat(), "laws": self.laws, "unchanged": self.unchanged,
            "revisions_listed": self.listed, "scheduled": self.scheduled, "versions_added": self.versions_added,
            "requests": self.fetched, "texts_fetched": self.texts_fetched, "texts_from_cache": self.texts_from_cache,
            "failures": [f.to_json() for f in self.failures],
            "laws_linked": sum(s.links.laws for s in self.ingests if s.links is not None),
            "seconds": round(self.seconds, 1),
        }


#: Told of each law as it starts: (position from 1, number of laws, law id).
LawCallback = Callable[[int, int, str], None]
#: Told of each revision text obtained: (revision id, whether it came from the cache).
RevisionCallback = Callable[[str, bool], None]


def synced_laws(store: GraphStore) -> list[tuple[str, date]]:
    """The laws a sync has brought up to e-Gov's list, with the day of their last successful sync."""
    return [(row.law_id, row.synced_on) for row in store.rows(LAWS_SYNCED)]


def sync_laws(
    store: GraphStore, api: EgovApi, law_ids: Sequence[str], *, today: date, catalog: Catalog,
    updated_since: date | None = None, refresh: bool = False, link: bool = True,
    on_law: LawCallback | None = None, on_revision: RevisionCallback | None = None,
) -> SyncSummary:
    """Bring each law up to its e-Gov revision list as read `today`. With `refresh`, a law is first asked for the
    revisions updated since `updated_since` (or since its own last sync), and one with none is only re-dated: its
    stored list is known up to `today` and revisions whose day has come are no longer scheduled."""
    started = time.perf_counter()
    summary = SyncSummary(synced_on=today)
    last_sync = dict(synced_laws(store)) if refresh else {}
    for position, law_id in enumerate(law_ids, start=1):
        if on_law is not None:
            on_law(position, len(law_ids), law_id)
        since = updated_since or last_sync.get(law_id)
        if refresh and since is not None:
            changed = api.revisions(law_id, updated_from=since)
            if not changed.revisions:
                _redate(store, api, law_id, today, catalog, summary, link)
                continue
        revisions = api.revisions(law_id)
        _sync_law(store, api, revisions, today, catalog, summary, link, on_revision)
    summary.fetched = api.fetched_from_server
    summary.seconds = time.perf_counter() - started
    return summary


def listing_of(revisions: RevisionList, today: date) -> SourceListing:
    """The `SourceListing` a revision list gives on `today`: a revision is scheduled when e-Gov says it is not in
    force (UnEnforced), when its day is open, or when its day is after `today`."""
    versions = []
    for r in revisions.revisions:
        if r.ends_law:
            continue
        parsed = parse_revision_id(r.revision_id)
        start = r.enforced_from
        versions.append(ListedVersion(
            revision_id=r.revision_id, enforced_from=start,
            scheduled=r.status == UNENFORCED or start is None or start > today,
            amended_by=parsed.amended_by if parsed else (r.amendment_law_id or None),
            note=(f"e-Gov API: {r.amendment_law_num} 施行期日 {r.enforcement_comment or 'not fixed'}"
                  if start is None else ""), title=r.law_title))
    return SourceListing(tuple(versions), today, revisions.repealed_on)


def _sync_law(store: GraphStore, api: EgovApi, revisions: RevisionList, today: date, catalog: Catalog,
              summary: SyncSummary, link: bool, on_revision: RevisionCallback | None) -> None:
    law_id = revisions.law_id
    listing = listing_of(revisions, today)
    summary.listed += len(listing.versions)
    summary.scheduled += sum(1 for v in listing.versions if v.scheduled)
    listed = {r.revision_id: r for r in revisions.revisions}
    stored = {row.revision_id: row for row in store.rows(LAW_VERSIONS_FOR_LAWS, law_ids=[law_id])}
    documents: list[XmlDocument] = []
    names: dict[str, str] = {}
    for version in listing.versions:
        row = stored.get(version.revision_id)
        if version.enforced_from is None or (row is not None and row.enforced_from is not None):
            continue  # a day left open (its text waits until e-Gov fixes the day), or already stored
        if parse_revision_id(version.revision_id) is None:
            summary.failures.append(RevisionFailure(law_id, version.revision_id,
                                                    "not an e-Gov revision id (<law_id>_<YYYYMMDD>_<amending id>)"))
            continue
        before = api.fetched_from_server
        try:
            xml = api.law_xml(version.revision_id, expected=listed[version.revision_id], law_num=revisions.law_num)
        except (BadAnswer, EgovNotFound) as err:
            summary.failures.append(RevisionFailure(law_id, version.revision_id, str(err)))
            continue
        from_server = api.fetched_from_server > before
        summary.texts_fetched += from_server
        summary.texts_from_cache += not from_server
        if on_revision is not None:
            on_revision(version.revision_id, not from_server)
        name = f"{api.base_url}/law_data/{version.revision_id}"
        names[name] = version.revision_id
        documents.append(XmlDocument(name=name, data=xml))
    if api.cache is not None:
        api.cache.release()  # this law passed every check: what was fetched may go to disk, before the store
    ingest = ingest_statutes(store, [], documents=documents, listings={law_id: listing}, catalog=catalog,
                             link=link, workers=1)
    summary.ingests.append(ingest)
    summary.versions_added += ingest.versions_added
    for outcome in ingest.failures + ingest.conflicts:
        revision_id = outcome.revision_id or names.get(outcome.source, outcome.source)
        summary.failures.append(RevisionFailure(law_id, revision_id, outcome.message))
    summary.laws.append(law_id)


def _redate(store: GraphStore, api: EgovApi, law_id: str, today: date, catalog: Catalog, summary: SyncSummary,
            link: bool) -> None:
    """A law with nothing updated at e-Gov since its last sync: its stored list, known up to `today`."""
    rows = store.rows(LAW_VERSIONS_FOR_LAWS, law_ids=[law_id])
    law = store.rows(LAW_BY_ID, law_id=law_id)
    listing = stored_listing(rows, law[0]) if law else None
    if listing is None:
        raise NotFound(f"{law_id} has not been synced; run `lexgraph sync {law_id}`")
    if api.cache is not None:
        api.cache.release()
    listing = replace(listing, known_on=today, versions=tuple(
        replace(v, scheduled=v.enforced_from is None or v.enforced_from > today) for v in listing.versions))
    ingest = ingest_statutes(store, [], documents=[], listings={law_id: listing}, catalog=catalog, link=link,
                             workers=1)
    summary.ingests.append(ingest)
    summary.unchanged.append(law_id)
