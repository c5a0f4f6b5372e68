"""Ingest e-Gov XML into a GraphStore: parse, date, place in time, and write only what changed.

Files are parsed one at a time and written in batches, each batch in one transaction, so that a crash leaves the
store at the last committed batch and a re-run completes the rest. A batch that fails to write is retried law by
law, so that one bad law cannot take the others down with it; the failing law is reported and the store keeps
what it had. Re-ingesting the same files finds identical versions and writes nothing.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Any

from lexgraph.citations.lawnames import LawNames
from lexgraph.errors import RevisionUnknown, SourceError, StatuteXmlError, StoreError
from lexgraph.ingest.corpus import FoundWith, IngestedLaws, PackedLaw
from lexgraph.ingest.crossrefs import LinkSummary, link_laws
from lexgraph.ingest.workers import default_workers, ordered_map
from lexgraph.model import (
    KnownAmendment,
    LawMeta,
    LawVersionInfo,
    ParsedLaw,
    ParsedProvision,
    RevisionId,
    SentenceText,
)
from lexgraph.read.citing import store_catalog
from lexgraph.statutes.catalog import Catalog, derived_law_id
from lexgraph.statutes.egov import PARSER_VERSION, parse_law_xml
from lexgraph.statutes.sources import (
    DatingFlags,
    NameFilter,
    XmlDocument,
    date_revision,
    iter_documents,
    parse_revision_id,
)
from lexgraph.statutes.timeline import (
    EGOV_API,
    LawTimeline,
    ListedVersion,
    SourceListing,
    VersionContent,
    build_timeline,
    day_left_open,
    version_hash,
)
from lexgraph.store.base import GraphStore, Transaction
from lexgraph.store.names import law_name, provision_name, version_name
from lexgraph.store.rows import (
    LAW_BY_ID,
    LAW_HAS_PART,
    LAW_NEXT_LINKS,
    LAW_VERSION_PROVISIONS,
    LAW_VERSIONS_FOR_LAWS,
    LAWS_ALL,
    LAWS_UNLINKED,
    LawByIdRow,
    LawVersionProvisionsRow,
    LawVersionsForLawsRow,
)

DEFAULT_BATCH_FILES = 256  # laws per transaction: big enough for the bulk path (COPY), see store/embedded.py


@dataclass(frozen=True)
class FileOutcome:
    """What happened to one input file. `status`: added, reread (a stored revision read again by a newer
    parser), unchanged, conflict, failed."""

    source: str
    status: str
    law_id: str | None = None
    revision_id: str | None = None
    message: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "status": self.status, "law_id": self.law_id,
                "revision_id": self.revision_id, "message": self.message}


@dataclass
class IngestSummary:
    files: int = 0
    laws: set[str] = field(default_factory=set)
    versions_added: int = 0
    provisions_written: int = 0
    outcomes: list[FileOutcome] = field(default_factory=list)
    xml_bytes: int = 0
    links: LinkSummary | None = None
    seconds: dict[str, float] = field(default_factory=dict)  # wall time per phase: "ingest", "link"

    @property
    def failures(self) -> list[FileOutcome]:
        return [o for o in self.outcomes if o.status == "failed"]

    @property
    def conflicts(self) -> list[FileOutcome]:
        return [o for o in self.outcomes if o.status == "conflict"]

    @property
    def unchanged(self) -> int:
        return sum(1 for o in self.outcomes if o.status == "unchanged")

    @property
    def reread(self) -> list[FileOutcome]:
        return [o for o in self.outcomes if o.status == "reread"]

    def to_json(self) -> dict[str, Any]:
        return {
            "files": self.files, "laws": len(self.laws), "versions_added": self.versions_added,
            "unchanged": self.unchanged, "reread": [o.to_json() for o in self.reread],
            "provisions_written": self.provisions_written,
            "failures": [o.to_json() for o in self.failures], "conflicts": [o.to_json() for o in self.conflicts],
            "links": self.links.to_json() if self.links else None,
            "seconds": {phase: round(wall, 1) for phase, wall in self.seconds.items()},
        }


@dataclass(frozen=True)
class _Incoming:
    doc_name: str
    law: ParsedLaw
    revision: RevisionId
    content_hash: str
    aliases: tuple[str, ...] = ()  # 略称 from the catalogue, stored on the Law node so that names resolve
    # The law's timeline and clause rows were this its only version, computed where it was parsed (a worker): the
    # common case of a corpus ingest, which the writer then need not compute.
    alone: _Alone | None = None


@dataclass(frozen=True)
class _Alone:
    timeline: LawTimeline
    provision_rows: tuple[dict[str, Any], ...]
    packed: PackedLaw  # what linking needs of the law, its clauses' mentions found

    @classmethod
    def of(cls, law_id: str, content: VersionContent, names: LawNames) -> _Alone:
        timeline = build_timeline(law_id, [content])
        return cls(timeline, tuple(_provision_row(p) for p in timeline.provisions), PackedLaw.of(timeline, names))


ProgressCallback = Callable[[int, str], None]


def ingest_statutes(
    store: GraphStore,
    paths: Sequence[str | Path],
    *,
    flags: DatingFlags | None = None,
    catalog: Catalog | None = None,
    batch_files: int = DEFAULT_BATCH_FILES,
    on_file: ProgressCallback | None = None,
    link: bool = True,
    on_link: Callable[[str], None] | None = None,
    only: NameFilter | None = None,
    workers: int = 1,
    on_link_start: Callable[[int], None] | None = None,
    documents: Iterable[XmlDocument] | None = None,
    listings: Mapping[str, SourceListing] | None = None,
) -> IngestSummary:
    """Ingest the XML under `paths`, one transaction per batch of files; then (with `link`) compute the clause
    cross-references of every law that gained a version, and of the stored laws that were waiting for one.
    `only` reads just the files whose names it accepts (see `sources.select_laws`).

    `documents` (instead of `paths`) are documents already in memory, such as revisions fetched from e-Gov, and
    `listings` the revision lists of their laws (law id → `SourceListing`): those laws' periods come from the list,
    and every law listed is brought up to its list even when no document of it is new (`lexgraph sync`).

    With `workers` > 1, that many processes parse the XML (and later read the citations) while this process, the
    store's one writer, writes; the store ends up the same as with one process. What the ingest wrote is kept in
    memory for linking (`IngestedLaws`), so that linking does not read it back."""
    if catalog is None:
        catalog = Catalog.bundled()
    flags = flags or DatingFlags()
    summary = IngestSummary()
    # The names the citing clauses' mentions are found with, where they are parsed: linking reads again only
    # the clauses whose text holds a name that the laws written since add (see `FoundWith`).
    ingested = IngestedLaws(FoundWith(store_catalog(store, catalog)))
    started = time.perf_counter()
    batch: list[_Incoming] = []
    listings = listings or {}
    items = documents if documents is not None else iter_documents(paths, only=only)
    for name, size, prepared in _prepared(store, items, flags, catalog, workers, ingested.found_with.names):
        summary.files += 1
        if size is not None:  # an XML document (not an unreadable input)
            summary.xml_bytes += size
            if on_file is not None:
                on_file(size, name)
        if isinstance(prepared, FileOutcome):
            summary.outcomes.append(prepared)
            continue
        batch.append(prepared)
        if len(batch) >= batch_files:
            _write_batch(store, batch, summary, ingested, listings)
            batch = []
    if batch or listings:
        _write_batch(store, batch, summary, ingested, listings, also=sorted(listings))
    summary.seconds["ingest"] = time.perf_counter() - started
    if link:
        added = {o.law_id for o in summary.outcomes if o.status == "added" and o.law_id}
        # Laws never linked too: an ingest killed while linking resumes where it stopped when run again.
        unlinked = {row.law_id for row in store.rows(LAWS_UNLINKED)}
        if added or unlinked:
            started = time.perf_counter()
            summary.links = link_laws(store, sorted(added | unlinked), catalog=catalog, on_law=on_link,
                                      on_start=on_link_start, ingested=ingested, workers=workers)
            summary.seconds["link"] = time.perf_counter() - started
    return summary


PARALLEL_MIN_BYTES = 16 << 20  # of XML: below this, starting worker processes costs more than they save
_COMPRESSED = (".xz", ".txz", ".gz", ".tgz", ".zip")
_COMPRESSION_RATIO = 10  # a compressed archive holds about ten times its size of XML (e-Gov's .tar.xz: 19)


def workers_for(paths: Sequence[str | Path]) -> int:
    """Worker processes for an ingest of `paths`: one per core for a large input (an archive, a folder of many
    laws), none for a few files, where starting processes would cost more than it saves."""
    total = 0
    for path in map(Path, paths):
        if path.is_file():
            total += path.stat().st_size * (_COMPRESSION_RATIO if path.name.endswith(_COMPRESSED) else 1)
        elif path.is_dir():
            total += sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
        if total >= PARALLEL_MIN_BYTES:
            return default_workers()
    return 1


def _prepared(
    store: GraphStore, items: Iterable[XmlDocument | SourceError], flags: DatingFlags, catalog: Catalog, workers: int,
    names: LawNames,
) -> Iterator[tuple[str, int | None, _Incoming | FileOutcome]]:
    """(name, bytes, parsed law or the reason it failed) for every input, in input order: parsed here, or with
    `workers` > 1 in that many processes (the order, and so the batches and the store, stay the same)."""
    if workers <= 1:
        for item in items:
            if isinstance(item, SourceError):
                yield str(item).split(":")[0], None, FileOutcome(str(item).split(":")[0], "failed", message=str(item))
            else:
                yield item.name, len(item.data), prepare_document(item, flags, catalog)
        return
    # Workers precompute the timeline of a law not stored yet (`_Alone`); for a stored one it would be wasted (a
    # re-ingest of an unchanged archive), since the writer then merges with the stored versions.
    stored = frozenset(row.law_id for row in store.rows(LAWS_ALL))
    for item, prepared in ordered_map(_prepare_in_worker, items, workers=workers, initializer=_init_worker,
                                      initargs=(flags, catalog, stored, names)):
        name = str(item).split(":")[0] if isinstance(item, SourceError) else item.name
        yield name, None if isinstance(item, SourceError) else len(item.data), prepared


_WORKER_STATE: dict[str, Any] = {}


def _init_worker(flags: DatingFlags, catalog: Catalog, stored: frozenset[str], names: LawNames) -> None:
    _WORKER_STATE.update(flags=flags, catalog=catalog, stored=stored, names=names)


def _prepare_in_worker(item: XmlDocument | SourceError) -> _Incoming | FileOutcome:
    if isinstance(item, SourceError):
        return FileOutcome(str(item).split(":")[0], "failed", message=str(item))
    return prepare_document(item, _WORKER_STATE["flags"], _WORKER_STATE["catalog"],
                            precompute_unless=_WORKER_STATE["stored"], names=_WORKER_STATE["names"])


def prepare_document(doc: XmlDocument, flags: DatingFlags, catalog: Catalog, *,
                     precompute_unless: frozenset[str] | None = None, names: LawNames | None = None,
                     ) -> _Incoming | FileOutcome:
    """Parse and date one file: the law ready to plan, or why it failed. Pure, so that it can run in a worker;
    there (`precompute_unless` the stored law ids, and `names` to find citations with), it also computes what the
    writer would for a law with no stored version (`_Alone`), its clauses' citation mentions included."""
    try:
        law = parse_law_xml(doc.data, doc.name)
    except StatuteXmlError as err:
        return FileOutcome(doc.name, "failed", message=str(err))
    entry = catalog.by_law_num(law.meta.law_num)
    from_name = parse_revision_id(Path(doc.name.replace("!", "/")).name) or (
        parse_revision_id(doc.manifest_revision) if doc.manifest_revision else None
    )
    # A law no catalogue lists (one enacted after the bundled list, say) still gets a stable id from its number.
    law_id = from_name.law_id if from_name else (entry.law_id if entry else derived_law_id(law.meta.law_num,
                                                                                          law.meta.law_type))
    try:
        revision = date_revision(doc, flags, law_id)
    except RevisionUnknown as err:
        return FileOutcome(doc.name, "failed", law_id=law_id, message=f"{doc.name}: {err}")
    if entry is None or entry.law_id != revision.law_id:
        entry = catalog.by_id(revision.law_id)
    aliases = tuple(dict.fromkeys([*law.meta.abbrev, *(entry.aliases if entry else ())]))
    alone = _Alone.of(revision.law_id, _content(revision, doc.name, law), names) \
        if names is not None and precompute_unless is not None and revision.law_id not in precompute_unless else None
    return _Incoming(doc.name, law, revision, version_hash(law.provisions), aliases, alone)


def _write_batch(store: GraphStore, batch: list[_Incoming], summary: IngestSummary, ingested: IngestedLaws,
                 listings: Mapping[str, SourceListing] | None = None, also: Sequence[str] = ()) -> None:
    """Write a batch of documents; `also` names listed laws to bring up to their listing even without a new
    document (a law whose new revisions were written in an earlier batch is planned again: same result)."""
    by_law: dict[str, list[_Incoming]] = defaultdict(list)
    for incoming in batch:
        by_law[incoming.revision.law_id].append(incoming)
    for law_id in also:
        by_law.setdefault(law_id, [])
    stored = _stored_versions(store, list(by_law))
    plans: list[_LawPlan] = []
    for law_id, incomings in by_law.items():
        plan = _plan_law(store, law_id, incomings, stored.get(law_id, []), summary,
                         (listings or {}).get(law_id))
        if plan is not None:
            plans.append(plan)
    if not plans:
        return
    combined = _Writes()
    for plan in plans:
        combined.extend(plan.writes())
    # A batch of laws new to the store is all inserts: one insert transaction, which the embedded store loads
    # with COPY. Any other batch is one ordinary transaction (never COPY beside other writes: see
    # `EmbeddedStore.insert_transaction`).
    bulk = all(plan.fresh for plan in plans)
    try:
        with store.insert_transaction() if bulk else store.transaction() as tx:
            combined.apply(tx)
    except StoreError:
        for plan in plans:  # isolate the law that cannot be written; the others still land
            try:
                with store.transaction() as tx:
                    plan.writes().apply(tx)
            except StoreError as err:
                plan.fail(summary, f"could not be written to the store: {err}")
                continue
            plan.succeed(summary, ingested)
        return
    for plan in plans:
        plan.succeed(summary, ingested)


def _stored_versions(store: GraphStore, law_ids: list[str]) -> dict[str, list[LawVersionsForLawsRow]]:
    grouped: dict[str, list[LawVersionsForLawsRow]] = defaultdict(list)
    for row in store.rows(LAW_VERSIONS_FOR_LAWS, law_ids=law_ids):
        grouped[row.law_id].append(row)
    return grouped


# The order in which writes are applied: nodes before the edges that need them, deletes before creates.
_WRITE_ORDER: tuple[tuple[str, str], ...] = (
    ("create_nodes", "Law"), ("upsert_nodes", "Law"), ("create_nodes", "LawVersion"), ("upsert_nodes", "LawVersion"),
    ("create_relationships", "HAS_VERSION"), ("upsert_relationships", "HAS_VERSION"),
    ("delete_nodes", "Provision"), ("create_nodes", "Provision"), ("upsert_nodes", "Provision"),
    ("delete_relationships", "CONTAINS"), ("create_relationships", "CONTAINS"),
    ("delete_relationships", "HAS_PART"), ("create_relationships", "HAS_PART"),
    ("delete_relationships", "NEXT"), ("create_relationships", "NEXT"),
)


@dataclass
class _Writes:
    """Writes grouped by operation, so that a batch of laws costs one statement per operation rather than one per
    law; statement overhead, not data volume, dominates a corpus ingest."""

    rows: dict[tuple[str, str], list[Any]] = field(default_factory=lambda: defaultdict(list))

    def add(self, operation: str, kind: str, rows: Iterable[Any]) -> None:
        self.rows[(operation, kind)].extend(rows)

    def extend(self, other: _Writes) -> None:
        for key, rows in other.rows.items():
            self.rows[key].extend(rows)

    def apply(self, tx: Transaction) -> None:
        for operation, kind in _WRITE_ORDER:
            rows = self.rows.get((operation, kind))
            if rows:
                getattr(tx, operation)(kind, rows)


@dataclass
class _LawPlan:
    """The writes that bring one law's stored state to its new timeline."""

    law_id: str
    law_row: dict[str, Any]
    timeline: LawTimeline
    added: list[_Incoming]
    existing_uids: dict[str, LawVersionProvisionsRow]
    existing_contains: set[tuple[str, str]]
    existing_has_part: set[tuple[str, str]]
    existing_next: set[tuple[str, str]]
    new_provision_rows: tuple[dict[str, Any], ...] | None = None  # every clause's row, for a law with none stored
    provisions_written: int = 0
    reread: frozenset[str] = frozenset()  # revision ids stored by an older parser, read again now
    stored_parsers: dict[str, int | None] = field(default_factory=dict)
    timeline_contents: tuple[VersionContent, ...] = ()
    packed: PackedLaw | None = None  # the timeline's linking input, when a worker built both
    fresh: bool = False  # the store holds no version of the law: every write is an insert
    # The law's title in each version: e-Gov's revision list, else the text read now, else the store.
    version_titles: dict[str, str | None] = field(default_factory=dict)

    def writes(self) -> _Writes:
        """Inserts (`create_*`) for what the store cannot hold yet, upserts and deletes for the rest; a fresh law
        is all inserts, which an insert transaction loads in bulk."""
        t = self.timeline
        w = _Writes()
        node_write, edge_write = ("create_nodes", "create_relationships") if self.fresh else \
            ("upsert_nodes", "upsert_relationships")
        law_title = law_name(self.law_row.get("title"), self.law_id)
        w.add(node_write, "Law", [{**self.law_row, "name": law_title}])
        w.add(node_write, "LawVersion", [
            {"revision_id": v.revision_id, "law_id": v.law_id, "enforced_from": v.enforced_from,
             "scheduled": v.scheduled,
             "name": version_name(law_title, {"enforced_from": v.enforced_from,
                                              "known_in_force_on": v.known_in_force_on}),
             "enforced_until": v.enforced_until, "amended_by": v.amended_by, "source": v.source,
             "dated_by": v.dated_by, "known_in_force_on": v.known_in_force_on,
             "content_hash": t.version_hashes[v.revision_id], "xml_format": self._format(v.revision_id),
             "known_until": v.known_until, "gap": json.dumps([a.to_json() for a in v.gap], ensure_ascii=False),
             "amendments": json.dumps([a.to_json() for a in t.named[v.revision_id]], ensure_ascii=False),
             "parser": self._parser(v.revision_id), "title": self.version_titles.get(v.revision_id),
             **period_properties(v, t.named[v.revision_id])}
            for v in t.versions
        ])
        w.add(edge_write, "HAS_VERSION", [{"from": self.law_id, "to": v.revision_id} for v in t.versions])
        target_uids = {p.uid for p in t.provisions}
        stale = {uid for uid in self.existing_uids if uid not in target_uids}
        w.add("delete_nodes", "Provision", sorted(stale))
        new_rows = list(self.new_provision_rows) if self.new_provision_rows is not None and not self.existing_uids \
            else [_provision_row(p) for p in t.provisions if p.uid not in self.existing_uids]
        changed_rows = [_provision_row(p) for p in t.provisions
                        if p.uid in self.existing_uids and _changed(p, self.existing_uids[p.uid])]
        w.add("create_nodes", "Provision", _named(new_rows, law_title))
        w.add("upsert_nodes", "Provision", _named(changed_rows, law_title))
        self.provisions_written = len(new_rows) + len(changed_rows)
        _edge_writes(w, "CONTAINS", t.contains, {e for e in self.existing_contains if e[1] not in stale})
        _edge_writes(w, "HAS_PART", t.has_part,
                     {e for e in self.existing_has_part if e[0] not in stale and e[1] not in stale})
        _edge_writes(w, "NEXT", t.next_links, self.existing_next)
        return w

    def _format(self, revision_id: str) -> str:
        for incoming in self.added:
            if incoming.revision.text == revision_id:
                return incoming.law.meta.xml_format
        return next((c.xml_format for c in self.timeline_contents if c.revision.text == revision_id), "")

    def _parser(self, revision_id: str) -> int | None:
        """The parser that read a version's text: this one for the files read now, else what the store says."""
        if any(incoming.revision.text == revision_id for incoming in self.added):
            return PARSER_VERSION
        return self.stored_parsers.get(revision_id)

    def succeed(self, summary: IngestSummary, ingested: IngestedLaws) -> None:
        summary.laws.add(self.law_id)
        ingested.add(self.timeline, fresh=not self.existing_uids, packed=self.packed)
        summary.versions_added += sum(1 for a in self.added if a.revision.text not in self.reread)
        summary.provisions_written += self.provisions_written
        for incoming in self.added:
            if incoming.revision.text in self.reread:
                summary.outcomes.append(FileOutcome(
                    incoming.doc_name, "reread", self.law_id, incoming.revision.text,
                    f"{incoming.doc_name}: revision {incoming.revision.text} was stored by an older parser; its "
                    f"text was read again (parser {PARSER_VERSION}: ruby read as its base text; divisions and "
                    "appendices numbered by their titles as clauses) and the law's "
                    "periods recomputed"))
            else:
                summary.outcomes.append(FileOutcome(incoming.doc_name, "added", self.law_id, incoming.revision.text))

    def fail(self, summary: IngestSummary, message: str) -> None:
        for incoming in self.added:
            summary.outcomes.append(FileOutcome(
                incoming.doc_name, "failed", self.law_id, incoming.revision.text, f"{incoming.doc_name}: {message}"
            ))


def _plan_law(
    store: GraphStore, law_id: str, incomings: list[_Incoming], stored: list[LawVersionsForLawsRow],
    summary: IngestSummary, listing: SourceListing | None = None,
) -> _LawPlan | None:
    relist = listing is not None and bool(stored)  # bring a stored law up to its (new) listing in any case
    stored_law = store.rows(LAW_BY_ID, law_id=law_id) if stored else []
    if listing is None and stored_law:
        listing = stored_listing(stored, stored_law[0])  # a synced law keeps its list's periods
    known = {row.revision_id: row for row in stored}
    accepted: list[_Incoming] = []
    reread: set[str] = set()
    for incoming in incomings:
        revision_id = incoming.revision.text
        earlier = [a for a in accepted if a.revision.text == revision_id]
        if revision_id in known and known[revision_id].dated_by == EGOV_API \
                and known[revision_id].enforced_from is None and not earlier:
            accepted.append(incoming)  # listed earlier with its day open, stored without text: its text arrives
            continue
        previous_hash = known[revision_id].content_hash if revision_id in known else (
            earlier[0].content_hash if earlier else None)
        if revision_id in known and not earlier and (known[revision_id].parser or 0) < PARSER_VERSION:
            # Stored by an older parser: its stored text may differ from what the file says (ruby line breaks),
            # and it carries no 附則 knowledge. Read it again rather than call the new reading a conflict.
            reread.add(revision_id)
            accepted.append(incoming)
            continue
        if previous_hash is not None:
            if previous_hash == incoming.content_hash:
                summary.outcomes.append(FileOutcome(incoming.doc_name, "unchanged", law_id, revision_id,
                                                    "already stored with the same text"))
            else:
                summary.outcomes.append(FileOutcome(
                    incoming.doc_name, "conflict", law_id, revision_id,
                    f"{incoming.doc_name}: revision {revision_id} is already stored with a different text; "
                    "the stored text was kept. Compare the two sources, and re-ingest under another revision id "
                    "with --revision if both are genuine",
                ))
            continue
        if incoming.revision.is_snapshot:
            same = _version_in_force(stored, accepted, incoming.revision.known_in_force_on)
            if same is not None and same[1] == incoming.content_hash:
                summary.outcomes.append(FileOutcome(
                    incoming.doc_name, "unchanged", law_id, same[0],
                    f"same text as revision {same[0]}, in force on {incoming.revision.known_in_force_on}",
                ))
                continue
        accepted.append(incoming)
    if not accepted and not relist:
        return None

    existing_contents, existing_uids, existing_contains = _load_existing(store, law_id, stored)
    existing_contents = [c for c in existing_contents if c.revision.text not in reread]
    if listing is not None:  # a revision whose day was open and is now fixed arrives with its text (`accepted`)
        arriving = {a.revision.text for a in accepted}
        existing_contents = [c for c in existing_contents if c.revision.text not in arriving]
    contents = existing_contents + [_content(a.revision, a.doc_name, a.law) for a in accepted]
    alone = accepted[0].alone if len(accepted) == 1 and not stored and listing is None else None
    timeline = alone.timeline if alone is not None else build_timeline(law_id, contents, listing)
    newest = max(accepted, key=lambda a: VersionContent(a.revision, "", "", ()).sort_key) if accepted else None
    enforced = [v for v in timeline.versions if not v.scheduled]
    latest_is_new = newest is not None and bool(enforced) and enforced[-1].revision_id == newest.revision.text
    law_row = _law_row(law_id, newest.law.meta, newest.aliases) if newest is not None and (
        latest_is_new or not stored) else None
    has_part = {(r.parent, r.child) for r in store.rows(LAW_HAS_PART, law_id=law_id)} if stored else set()
    next_links = {(r.earlier, r.later) for r in store.rows(LAW_NEXT_LINKS, law_id=law_id)} if stored else set()
    if law_row is None:
        rows = stored_law or store.rows(LAW_BY_ID, law_id=law_id)
        if not rows and newest is None:
            return None
        stored_columns = rows[0]._asdict() if rows else {}
        law_row = _law_row(law_id, newest.law.meta, newest.aliases) if not rows and newest is not None else {
            k: stored_columns[k] for k in ("law_id", "title", "law_num", "law_type", "aliases", "kana", "promulgated",
                                           "enact_statement")
        }
    if listing is not None:  # the day of the last successful sync, and the repeal, as the list gave them
        law_row = {**law_row, "synced_on": listing.known_on, "repealed_on": listing.repealed_on}
    return _LawPlan(law_id, law_row, timeline, accepted, existing_uids, existing_contains, has_part, next_links,
                    alone.provision_rows if alone is not None else None,
                    reread=frozenset(reread), stored_parsers={r.revision_id: r.parser for r in stored},
                    timeline_contents=tuple(contents), packed=alone.packed if alone is not None else None,
                    fresh=not stored, version_titles=_version_titles(stored, accepted, listing))


def _content(revision: RevisionId, doc_name: str, law: ParsedLaw) -> VersionContent:
    """A file's version; one whose day e-Gov leaves open keeps e-Gov's note in its source, where `law versions`
    shows it and a later ingest reads it back."""
    open_day = day_left_open(revision, law.meta.open_day)
    source = f"{doc_name} ({law.meta.open_day or '施行期日 not fixed: e-Gov placeholder day'})" if open_day \
        else doc_name
    return VersionContent(revision, source, law.meta.xml_format, law.provisions, open_day=open_day)


def stored_listing(stored: list[LawVersionsForLawsRow], law: LawByIdRow) -> SourceListing | None:
    """The listing a synced law was last brought up to, read back from the store, so that ingesting a file of a
    synced law keeps the periods its revision list gave (rather than guessing gaps from 附則 again)."""
    synced_on = law.synced_on
    if synced_on is None:
        return None
    versions = tuple(ListedVersion(r.revision_id, r.enforced_from, bool(r.scheduled), r.amended_by,
                                   r.source if r.enforced_from is None else "", r.title or "")
                     for r in stored if r.dated_by == EGOV_API)
    return SourceListing(versions, synced_on, law.repealed_on)


def _version_in_force(
    stored: list[LawVersionsForLawsRow], accepted: list[_Incoming], day: date | None
) -> tuple[str, str] | None:
    """The (revision id, content hash) of the latest version, stored or arriving in this batch, that started on
    or before `day`: the one a snapshot seen on that day should be compared with."""
    if day is None:
        return None
    candidates = [(r.enforced_from or r.known_in_force_on, r.revision_id, r.content_hash) for r in stored]
    candidates += [(a.revision.enforced_from or a.revision.known_in_force_on, a.revision.text, a.content_hash)
                   for a in accepted]
    started = [c for c in candidates if c[0] is not None and c[0] <= day]
    if not started:
        return None
    _, revision_id, digest = max(started)
    return revision_id, digest


def _load_existing(
    store: GraphStore, law_id: str, stored: list[LawVersionsForLawsRow]
) -> tuple[list[VersionContent], dict[str, LawVersionProvisionsRow], set[tuple[str, str]]]:
    if not stored:
        return [], {}, set()
    by_version: dict[str, list[ParsedProvision]] = defaultdict(list)
    uids: dict[str, LawVersionProvisionsRow] = {}
    contains: set[tuple[str, str]] = set()
    for clause in store.rows(LAW_VERSION_PROVISIONS, law_id=law_id):
        contains.add((clause.revision_id, clause.uid))
        uids[clause.uid] = clause
        by_version[clause.revision_id].append(ParsedProvision(
            path=clause.path, kind=clause.kind, num=clause.num, title=clause.title, caption=clause.caption,
            heading=clause.heading, text=clause.text, sentences=_sentences_from_json(clause.sentences),
            seq=clause.seq, parent_path=None,
        ))
    contents = []
    for row in stored:
        if row.dated_by == EGOV_API and row.enforced_from is None:
            continue  # listed with its day left open: no clauses stored (the listing brings it back)
        revision = parse_revision_id(row.revision_id) if row.dated_by != "snapshot" else RevisionId(
            law_id=law_id, enforced_from=None, amended_by=None, known_in_force_on=row.known_in_force_on)
        if revision is None:
            continue
        if row.known_in_force_on is not None:  # a dated revision seen in force later (see `date_revision`)
            revision = replace(revision, known_in_force_on=row.known_in_force_on)
        provisions = tuple(sorted(by_version.get(row.revision_id, []), key=lambda p: p.seq))
        contents.append(VersionContent(revision, row.source, row.xml_format or "", provisions,
                                       open_day=bool(row.scheduled)))
    return contents, uids, contains


def _version_titles(stored: list[LawVersionsForLawsRow], accepted: list[_Incoming],
                    listing: SourceListing | None) -> dict[str, str | None]:
    """The law's title in each version: what e-Gov's revision list gives, else the <LawTitle> of the text read now,
    else what the store holds. A renamed law's older versions keep the title they bore."""
    titles: dict[str, str | None] = {r.revision_id: r.title for r in stored}
    titles.update({a.revision.text: a.law.meta.title for a in accepted if a.law.meta.title})
    if listing is not None:
        titles.update({v.revision_id: v.title for v in listing.versions if v.title})
    return titles


def _law_row(law_id: str, meta: LawMeta, aliases: tuple[str, ...]) -> dict[str, Any]:
    return {
        "law_id": law_id, "title": meta.title, "law_num": meta.law_num, "law_type": meta.law_type,
        "aliases": list(aliases), "kana": meta.kana, "promulgated": meta.promulgated,
        "enact_statement": meta.enact_statement,
    }


def _named(rows: Iterable[dict[str, Any]], law_title: str) -> list[dict[str, Any]]:
    """Clause rows with the name a person reads (民法 第七百十条第一項, lexgraph/store/names.py)."""
    return [{**row, "name": provision_name(law_title, row["path"])} for row in rows]


def _provision_row(p: Any) -> dict[str, Any]:
    return {
        "uid": p.uid, "law_id": p.law_id, "path": p.path, "kind": p.kind, "num": p.num, "title": p.title,
        "caption": p.caption, "heading": p.heading, "text": p.text,
        "sentences": json.dumps([[s.role, s.text] for s in p.sentences], ensure_ascii=False),
        "seq": p.seq, "valid_from": p.valid_from, "valid_until": p.valid_until, "content_hash": p.content_hash,
    }


def _changed(p: Any, existing: LawVersionProvisionsRow | None) -> bool:
    return existing is None or existing.valid_until != p.valid_until or existing.content_hash != p.content_hash


def _sentences_from_json(raw: str | None) -> tuple[SentenceText, ...]:
    if not raw:
        return ()
    return tuple(SentenceText(role, text) for role, text in json.loads(raw))


def _edge_writes(writes: _Writes, rel_type: str, target: Iterable[tuple[str, str]],
                 existing: set[tuple[str, str]]) -> None:
    """`existing` was read from the store by this, the only writer, so the difference is exact: edges in it are
    created without a per-edge existence check."""
    target_set = set(target)
    writes.add("delete_relationships", rel_type, sorted(existing - target_set))
    writes.add("create_relationships", rel_type, [{"from": a, "to": b} for a, b in sorted(target_set - existing)])


def period_properties(version: LawVersionInfo, named: Sequence[KnownAmendment]) -> dict[str, Any]:
    """A version's period facts as ordinary properties (migration V008), for Cypher users: the JSON `gap` and
    `amendments` keep every detail for lexgraph, these the ones a query needs."""
    gap = version.gap if version.known_until is not None else ()
    return {"known_up_to": version.known_up_to,
            "gap_start": version.known_until, "gap_end": version.enforced_until if version.known_until else None,
            "gap_amendments": [a.describe() for a in gap], "gap_law_nums": [a.law_num for a in gap],
            "gap_days": [_day_text(a) for a in gap],
            "amendment_law_nums": [a.law_num for a in named], "amendment_days": [_day_text(a) for a in named]}


def _day_text(amendment: KnownAmendment) -> str:
    return amendment.enforced_from.isoformat() if amendment.enforced_from is not None else "unknown"
