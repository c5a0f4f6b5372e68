"""Cross-references between clauses: ``(:Provision)-[:CITES]->(:Provision)``.

Each clause node is a run of identical wording valid on [valid_from, valid_until). Its citations are read relative
to itself (前項 inside a709/p2 is a709/p1), resolved with the catalogue, and linked to every node of the cited clause
that was in force at some time while the citing wording was: so a clause that kept its words while the clause it
cites was amended points at both wordings, and ``law cites --as-of`` picks the one in force on the day.

Linking is idempotent: the edges a law should have are computed from scratch and compared with those it has.
Every other law a law cites, stored or not, is remembered on its Law node (`cited_laws`): when one of them is
ingested or gains a version (which replaces clause nodes, and the edges into them), the citing law is linked again,
so the order in which laws and revisions arrive does not matter.
"""

from __future__ import annotations

import gc
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from lexgraph.citations import (
    Citation,
    CitationContext,
    LawTarget,
    Mention,
    ResolutionState,
    find_statutes,
    resolve_with_state,
)
from lexgraph.citations.lawnames import LawNames
from lexgraph.errors import StoreError
from lexgraph.ingest.corpus import CorpusRevisions, FoundWith, IngestedLaws, mentions_for
from lexgraph.ingest.linking import LAW_NOT_STORED, OUTSIDE_KINDS, CitingClause, law_link_reason, statute_link
from lexgraph.ingest.workers import ordered_map
from lexgraph.read.citing import store_catalog
from lexgraph.read.revisions import LawSpans, ProvisionSpan, StoreRevisions
from lexgraph.statutes.catalog import Catalog
from lexgraph.statutes.clauses import CITING_KINDS, stored_clause_text
from lexgraph.store.base import GraphStore
from lexgraph.store.rows import LAW_CITES_LAWS_OUT, LAW_CITES_OUT, LAW_PROVISION_SENTENCES, LAWS_ALL, LAWS_CITING

EXTRACTOR = "rules"


@dataclass
class LinkSummary:
    """What linking did, and why citations found no clause to point at."""

    laws: int = 0
    clauses_read: int = 0
    citations: int = 0
    edges_added: int = 0
    edges_removed: int = 0
    edges_total: int = 0
    pending_laws: set[str] = field(default_factory=set)
    not_linked: Counter[str] = field(default_factory=Counter)  # reason → count
    linked_outside: Counter[str] = field(default_factory=Counter)  # division / appendix → citations linked
    linked_laws: int = 0  # citations of a law as a whole (named with its number) linked to its Law node
    failed_laws: dict[str, str] = field(default_factory=dict)  # law id → why its edges could not be written

    def absorb(self, counts: LinkSummary) -> None:
        """Add what reading one law counted (in this process or a worker)."""
        self.clauses_read += counts.clauses_read
        self.citations += counts.citations
        self.not_linked.update(counts.not_linked)
        self.linked_outside.update(counts.linked_outside)
        self.linked_laws += counts.linked_laws

    def to_json(self) -> dict[str, Any]:
        return {
            "laws": self.laws, "clauses_read": self.clauses_read, "citations": self.citations,
            "edges_added": self.edges_added, "edges_removed": self.edges_removed, "edges": self.edges_total,
            "cited_laws_not_stored": len(self.pending_laws), "not_linked": dict(self.not_linked.most_common()),
            "linked_divisions_appendices": dict(self.linked_outside.most_common()),
            "linked_laws": self.linked_laws,
            "failed_laws": dict(self.failed_laws),
        }


@dataclass(frozen=True)
class _Edge:
    surface: str
    char_start: int
    char_end: int
    part: str | None
    status: str
    mentions: int = 1

    def row(self, from_uid: str, to_uid: str) -> dict[str, Any]:
        return {"from": from_uid, "to": to_uid, "surface": self.surface, "char_start": self.char_start,
                "char_end": self.char_end, "part": self.part or "", "status": self.status,
                "extractor": EXTRACTOR, "mentions": self.mentions}


def link_laws(
    store: GraphStore,
    law_ids: Iterable[str],
    *,
    catalog: Catalog | None = None,
    follow_citing: bool = True,
    on_law: Callable[[str], None] | None = None,
    ingested: IngestedLaws | None = None,
    workers: int = 1,
    on_start: Callable[[int], None] | None = None,
) -> LinkSummary:
    """Compute the CITES edges of these laws' clauses, and (with `follow_citing`) of the stored laws that cite one
    of them. Laws are written a batch at a time (commits are costly); should a batch fail, its laws are written one
    transaction each, so that a failure leaves that law's edges as they were and the other laws still land. The
    laws that failed are in `LinkSummary.failed_laws`; `lexgraph law link` tries them again (and the next ingest
    does, for a law never linked before).

    `ingested`: the laws an ingest just wrote, whose spans and texts are then not read back from the store. When
    they are every stored law, `workers` > 1 processes read the citations while this one writes the edges."""
    wanted = list(dict.fromkeys(law_ids))
    if follow_citing and wanted:
        waiting = [r.law_id for r in store.rows(LAWS_CITING, law_ids=wanted)]
        wanted += [law_id for law_id in waiting if law_id not in wanted]
    if on_start is not None:
        on_start(len(wanted))
    catalog = store_catalog(store, catalog or Catalog.bundled())
    ingested = ingested if ingested is not None else IngestedLaws(FoundWith(catalog))
    # Laws cite the same big laws over and over (地方自治法, 民法 …); spans without text are small enough to keep
    # a thousand laws (about 150 bytes a clause) besides the ingested ones.
    revisions = CorpusRevisions(store, ingested, max_laws=1024)
    summary = LinkSummary()
    batch: list[_LawLinks] = []
    for law_id, computed in _computed(store, wanted, catalog, revisions, ingested, workers):
        if computed is None:
            continue
        summary.absorb(computed.counts)
        known = ingested.get(law_id)
        fresh = known is not None and known.fresh
        existing = set() if fresh else {(r.from_uid, r.to_uid) for r in store.rows(LAW_CITES_OUT, law_id=law_id)}
        existing_laws = set() if fresh else {
            (r.from_uid, r.to_uid) for r in store.rows(LAW_CITES_LAWS_OUT, law_id=law_id)}
        desired, desired_laws = computed.desired, computed.desired_laws
        batch.append(_LawLinks(
            law_id, removed=sorted(existing - desired.keys()),
            added=[edge.row(*pair) for pair, edge in sorted(desired.items()) if pair not in existing],
            cited=sorted(computed.cited), total=len(desired) + len(desired_laws), pending=computed.pending,
            removed_laws=sorted(existing_laws - desired_laws.keys()),
            added_laws=[edge.row(*pair) for pair, edge in sorted(desired_laws.items()) if pair not in existing_laws],
        ))
        if len(batch) >= _BATCH_LAWS or sum(b.changes for b in batch) >= _BATCH_EDGES:
            _write(store, batch, summary, on_law)
            batch = []
    if batch:
        _write(store, batch, summary, on_law)
    return summary


# Laws and edge changes per transaction: few commits, and edge inserts large enough for the bulk path (COPY).
_BATCH_LAWS = 512
_BATCH_EDGES = 200_000


@dataclass(frozen=True)
class _Computed:
    """One law's desired edges (to clauses, and to laws cited as a whole), the other laws it cites (and those not
    stored), and what reading it counted."""

    desired: dict[tuple[str, str], _Edge]
    desired_laws: dict[tuple[str, str], _Edge]
    cited: set[str]
    pending: set[str]
    counts: LinkSummary


def _computed(
    store: GraphStore, wanted: list[str], catalog: Catalog, revisions: CorpusRevisions, ingested: IngestedLaws,
    workers: int,
) -> Iterator[tuple[str, _Computed | None]]:
    """Each wanted law's computed edges (None: the law is not stored), in order. In worker processes when every
    stored law is in memory (a corpus ingest): a worker cannot use the store, which has one connection and one
    writer, so it must not need it."""
    stale = ingested.found_with.stale_pattern(catalog)
    if workers > 1 and all(row.law_id in ingested for row in store.rows(LAWS_ALL)):
        LawNames.for_catalog(catalog)  # built once here, shared by the workers
        _LINK_STATE.update(catalog=catalog, revisions=CorpusRevisions(None, ingested, max_laws=_WORKER_LAWS),
                           ingested=ingested, stale=stale)
        gc.freeze()  # the forked workers share these objects; untracked by gc, their pages are not copied
        try:
            yield from ordered_map(_compute_in_worker, wanted, workers=workers)
        finally:
            gc.unfreeze()
            _LINK_STATE.clear()
        return
    for law_id in wanted:
        yield law_id, _compute(store, law_id, catalog, revisions, ingested, stale)


_LINK_STATE: dict[str, Any] = {}
# Laws whose spans a linking worker keeps decoded: the laws cited over and over (地方自治法, 民法 …) stay, and the
# cache stays far below the whole corpus, which each worker would otherwise end up holding.
_WORKER_LAWS = 512


def _compute_in_worker(law_id: str) -> _Computed | None:
    return _compute(None, law_id, _LINK_STATE["catalog"], _LINK_STATE["revisions"], _LINK_STATE["ingested"],
                    _LINK_STATE["stale"])


def _compute(store: GraphStore | None, law_id: str, catalog: Catalog, revisions: CorpusRevisions,
             ingested: IngestedLaws, stale: re.Pattern[str] | None) -> _Computed | None:
    spans = revisions.law(law_id)
    if not spans.stored:
        return None
    known = ingested.get(law_id)
    names = LawNames.for_catalog(catalog)
    if known is not None:  # found where the law was parsed; read again only where the names differ
        mentions = mentions_for(known.packed.law_clauses(), names, stale)
    else:
        assert store is not None  # a law not ingested is read in the main process only
        texts = {row.uid: _own_text(row.kind, row.sentences)
                 for row in store.rows(LAW_PROVISION_SENTENCES, law_id=law_id)}
        mentions = {uid: find_statutes(text, names) for uid, text in texts.items() if text}
    counts = LinkSummary()
    desired, desired_laws, cited, pending = _desired_edges(law_id, spans, mentions, catalog, revisions, counts)
    return _Computed(desired, desired_laws, cited, pending, counts)


@dataclass(frozen=True)
class _LawLinks:
    """The edge changes of one law, ready to write."""

    law_id: str
    removed: list[tuple[str, str]]
    added: list[dict[str, Any]]
    cited: list[str]
    total: int
    pending: set[str]
    removed_laws: list[tuple[str, str]] = field(default_factory=list)  # (clause uid, law id)
    added_laws: list[dict[str, Any]] = field(default_factory=list)

    @property
    def changes(self) -> int:
        return len(self.added) + len(self.removed) + len(self.added_laws) + len(self.removed_laws)

def _apply(store: GraphStore, batch: list[_LawLinks]) -> None:
    """A batch's edge changes, one statement per operation rather than three per law, in up to three atomic
    steps, because the new edges go in an insert transaction of their own (COPY on the embedded store, which is
    atomic only with nothing else beside it):

    1. the removed edges go, and every law whose edges change is marked unlinked (``cited_laws`` null);
    2. the new edges are inserted;
    3. each law records the laws it cites, which marks it linked.

    A process stopped between two steps leaves each law either as it was or marked unlinked, and the next
    `ingest statutes` links the unlinked laws again (`laws_unlinked`), which, being idempotent, completes them."""
    removed = [pair for links in batch for pair in links.removed]
    added = [row for links in batch for row in links.added]
    removed_laws = [pair for links in batch for pair in links.removed_laws]
    added_laws = [row for links in batch for row in links.added_laws]
    changing = [links.law_id for links in batch if links.changes]
    if removed or removed_laws or changing:
        with store.transaction() as tx:
            if removed:
                tx.delete_relationships("CITES", removed, from_label="Provision", to_label="Provision")
            if removed_laws:
                tx.delete_relationships("CITES", removed_laws, from_label="Provision", to_label="Law")
            tx.upsert_nodes("Law", [{"law_id": law_id, "cited_laws": None} for law_id in changing])
    if added or added_laws:
        with store.insert_transaction() as tx:
            if added:
                tx.create_relationships("CITES", added, from_label="Provision", to_label="Provision")
            if added_laws:
                tx.create_relationships("CITES", added_laws, from_label="Provision", to_label="Law")
    with store.transaction() as tx:
        tx.upsert_nodes("Law", [{"law_id": links.law_id, "cited_laws": links.cited} for links in batch])


def _write(store: GraphStore, batch: list[_LawLinks], summary: LinkSummary,
           on_law: Callable[[str], None] | None) -> None:
    try:
        _apply(store, batch)
    except StoreError:
        written = []
        for links in batch:  # find the law that cannot be written; the others still land
            try:
                _apply(store, [links])
            except StoreError as err:
                summary.failed_laws[links.law_id] = str(err)
            else:
                written.append(links)
        batch = written
    for links in batch:
        summary.laws += 1
        summary.edges_added += len(links.added) + len(links.added_laws)
        summary.edges_removed += len(links.removed) + len(links.removed_laws)
        summary.edges_total += links.total
        summary.pending_laws |= links.pending
        if on_law is not None:
            on_law(links.law_id)


def _desired_edges(
    law_id: str, spans: LawSpans, mentions: dict[str, list[Mention]], catalog: Catalog,
    revisions: StoreRevisions, summary: LinkSummary,
) -> tuple[dict[tuple[str, str], _Edge], dict[tuple[str, str], _Edge], set[str], set[str]]:
    """The edges the law's clauses should have (to clauses; to laws cited as a whole, keyed by the citing clause
    and the law id), the other laws they cite, and those of them not stored. `mentions`: what `find_statutes`
    found in each citing clause's own text (clauses without text absent)."""
    desired: dict[tuple[str, str], _Edge] = {}
    desired_laws: dict[tuple[str, str], _Edge] = {}
    cited: set[str] = set()
    pending: set[str] = set()
    for source, citations in law_citations(law_id, spans, mentions, catalog, revisions):
        summary.clauses_read += 1
        for citation in citations:
            summary.citations += 1
            if citation.law_id and citation.law_id != law_id:
                cited.add(citation.law_id)
            if citation.kind == "law":
                _add_law_edge(desired_laws, citation, law_id, revisions, source, summary, pending)
                continue
            for target in _targets(citation, law_id, spans, revisions, source, summary, pending):
                if target.uid == source.uid:
                    continue  # この項 read inside that very clause
                key = (source.uid, target.uid)
                found = desired.get(key)
                desired[key] = (replace(found, mentions=found.mentions + 1) if found else
                                _Edge(citation.surface, citation.start, citation.end, citation.part,
                                      citation.status))
    return desired, desired_laws, cited, pending


def _add_law_edge(desired_laws: dict[tuple[str, str], _Edge], citation: Citation, law_id: str,
                  revisions: StoreRevisions, source: ProvisionSpan, summary: LinkSummary, pending: set[str]) -> None:
    """The edge from the citing clause to a law cited as a whole (`law_link_reason` decides), or the count of
    why there is none; a law not stored yet is pending, so that its ingest links this law again."""
    reason = law_link_reason(citation, revisions, law_id)
    if reason is not None:
        summary.not_linked[reason] += 1
        if reason == LAW_NOT_STORED and citation.law_id is not None:
            pending.add(citation.law_id)
        return
    summary.linked_laws += 1
    key = (source.uid, citation.law_id or "")
    found = desired_laws.get(key)
    desired_laws[key] = (replace(found, mentions=found.mentions + 1) if found else
                         _Edge(citation.surface, citation.start, citation.end, citation.part, citation.status))


def law_citations(
    law_id: str, spans: LawSpans, mentions: dict[str, list[Mention]], catalog: Catalog,
    revisions: StoreRevisions | None,
) -> Iterator[tuple[ProvisionSpan, list[Citation]]]:
    """Each citing clause of the law with its citations, in reading order, block by block (`_blocks`).

    Terms a clause defines (「以下「新法」という。」) hold for the rest of its block; what 同条 means does not cross
    into the next clause. A 附則 starts from the terms the main provisions defined (「公認会計士法（以下「法」と
    いう。）」 in 第一条 is what 法 means in the 附則 too; its own definitions override them), and from no law
    named before: 同法 at the start of a 附則 does not reach back into the main provisions."""
    base = CitationContext(catalog=catalog, revisions=revisions, current_law_id=law_id)
    defined: tuple[tuple[str, LawTarget], ...] = ()
    for block in _blocks(spans):
        suppl = block[0].path.startswith("suppl")
        state = ResolutionState(abbreviations=defined) if suppl else ResolutionState()
        for source in block:
            read = mentions.get(source.uid) if source.kind in CITING_KINDS else None
            if read is None:
                continue
            context = replace(base, as_of=source.valid_from, current_path=source.path, state=state)
            citations, after = resolve_with_state(read, context)
            citations.sort(key=lambda c: (c.start, c.end))  # as `extract_with_state` gives them
            state = replace(after, last_clause=None)
            yield source, citations
        if not suppl:
            defined = state.abbreviations


def _targets(
    citation: Citation, law_id: str, spans: LawSpans, revisions: StoreRevisions, source: ProvisionSpan,
    summary: LinkSummary, pending: set[str],
) -> list[ProvisionSpan]:
    """The clause nodes a citation links to while the citing clause was in force (`statute_link` decides, as
    it does for a judgment), counting why when there are none."""
    link = statute_link(citation, revisions, citing=CitingClause(law_id, spans, source))
    if link.key is not None:
        summary.not_linked[link.key] += 1
        if link.reason == LAW_NOT_STORED and citation.law_id is not None:
            pending.add(citation.law_id)
    elif citation.kind in OUTSIDE_KINDS:
        summary.linked_outside[citation.kind] += 1
    return link.targets


def _blocks(spans: LawSpans) -> list[list[ProvisionSpan]]:
    """The clause nodes grouped by block (the main provisions, and each 附則 of its own: an amending law's 附則
    defines its own terms), each in reading order. Nodes of different periods share a block; definitions rarely
    change, so carrying them across periods costs little and finds 新法 / 旧法 wherever they are used."""
    blocks: dict[str, list[ProvisionSpan]] = {}
    for path_spans in spans.by_path.values():
        for span in path_spans:
            head = span.path.split("/", 1)[0]
            blocks.setdefault(head if head.startswith("suppl") else "", []).append(span)
    return [sorted(block, key=lambda s: (s.seq, s.valid_from or date.min)) for _, block in sorted(blocks.items())]


def _own_text(kind: str, stored_sentences: str | None) -> str:
    """A clause's own sentences (本文, ただし書, 柱書 …), without its items, which are clauses of their own."""
    return stored_clause_text(stored_sentences) if kind in CITING_KINDS else ""
