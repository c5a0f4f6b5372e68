"""Judgments, books and guidelines into the graph: the node, its chunks, and the edges of what it cites.

Every document is written in one transaction, so a failure leaves the store as it was, and an unchanged document
(same content hash) is skipped, so that ingesting the same files again changes nothing. Citations are extracted
once over the whole text, read as of the document's date, and each chunk cites what lies inside it; the
document-level roll-up (`CITES_ARTICLE {count}`) counts each citation once, at its article, as the
integrated-citation-graph paper does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from lexgraph.citations import Citation, CitationContext, extract
from lexgraph.documents.chunking import DEFAULT_OVERLAP as DEFAULT_OVERLAP  # re-exported: the CLI's defaults
from lexgraph.documents.chunking import DEFAULT_SIZE as DEFAULT_CHUNK_SIZE  # noqa: F401 - re-exported
from lexgraph.documents.chunking import Chunk
from lexgraph.documents.prepare import PreparedDocument
from lexgraph.errors import StoreError
from lexgraph.ingest.crossrefs import EXTRACTOR
from lexgraph.ingest.linking import PrecedentMatcher, law_link_reason, statute_link, stubs_filled_by
from lexgraph.read.citing import store_catalog
from lexgraph.read.revisions import StoreRevisions
from lexgraph.statutes.catalog import Catalog
from lexgraph.statutes.timeline import article_path
from lexgraph.store.base import GraphStore, Transaction
from lexgraph.store.names import chunk_name, precedent_name, titled_name
from lexgraph.store.rows import (
    OWNER_CHUNKS,
    OWNER_ROLLUPS,
    OWNER_STATE,
    PRECEDENT_CITED_BY_CHUNKS,
    OwnerRollupsRow,
    PrecedentCitedByChunksRow,
)


@dataclass(frozen=True)
class DocumentOutcome:
    """What happened to one input: added, replaced, unchanged, duplicate (of an earlier input of the same run) or
    failed, and what was missing from it."""

    source: str
    status: str
    uid: str | None = None
    message: str = ""
    problems: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "status": self.status, "uid": self.uid, "message": self.message,
                "problems": list(self.problems)}


@dataclass
class DocumentSummary:
    files: int = 0
    chunks_written: int = 0
    citations: int = 0
    clause_edges: int = 0
    precedent_edges: int = 0
    law_edges: int = 0  # CITES from a chunk to a law cited as a whole (named with its number, no clause)
    linked_laws: int = 0  # the citations behind them
    stubs_created: int = 0
    stubs_filled: int = 0
    outcomes: list[DocumentOutcome] = field(default_factory=list)
    not_linked: Counter[str] = field(default_factory=Counter)
    linked_outside: Counter[str] = field(default_factory=Counter)  # division / appendix → citations linked
    referenced_links: int = 0  # REFERS_TO edges: a judgment's 参照法条 linked to the clause in force on its date

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def failures(self) -> list[DocumentOutcome]:
        return [o for o in self.outcomes if o.status == "failed"]

    def to_json(self) -> dict[str, Any]:
        return {
            "files": self.files, "added": self.count("added"), "replaced": self.count("replaced"),
            "unchanged": self.count("unchanged"), "duplicates": [o.message for o in self.outcomes
                                                                 if o.status == "duplicate"],
            "chunks_written": self.chunks_written,
            "citations": self.citations, "clause_edges": self.clause_edges,
            "precedent_edges": self.precedent_edges, "law_edges": self.law_edges,
            "linked_laws": self.linked_laws, "referenced_links": self.referenced_links,
            "stubs_created": self.stubs_created,
            "stubs_filled": self.stubs_filled, "not_linked": dict(self.not_linked.most_common()),
            "linked_divisions_appendices": dict(self.linked_outside.most_common()),
            "failures": [o.to_json() for o in self.failures],
            "problems": [o.to_json() for o in self.outcomes if o.problems and o.status != "failed"],
        }


ProgressCallback = Callable[[str], None]


class DocumentWriter:
    """Links and writes prepared documents into one store; keeps the lookups warm across documents."""

    def __init__(self, store: GraphStore, catalog: Catalog | None = None) -> None:
        self.store = store
        self.catalog = store_catalog(store, catalog or Catalog.bundled())
        self.revisions = StoreRevisions(store, max_laws=256)
        self.precedents = PrecedentMatcher(store)

    def write(self, doc: PreparedDocument, summary: DocumentSummary) -> None:
        state = self.store.rows(OWNER_STATE, uid=doc.uid)[0]
        stored_hash = state.precedent_hash if doc.label == "Precedent" else state.document_hash
        content_hash = doc.content_hash
        if stored_hash == content_hash and not state.stub:
            summary.outcomes.append(DocumentOutcome(doc.source, "unchanged", doc.uid, problems=doc.problems))
            return
        try:
            plan = self._plan(doc, content_hash, summary, stored=stored_hash is not None)
            with self.store.transaction() as tx:
                plan.apply(tx)
        except StoreError as err:
            summary.outcomes.append(DocumentOutcome(doc.source, "failed", doc.uid,
                                                    f"{doc.source}: could not be written to the store: {err}"))
            return
        decided = doc.node.get("date")
        self.precedents.forget(decided.isoformat() if decided else None)
        for day in plan.stub_days:
            self.precedents.forget(day)
        summary.outcomes.append(DocumentOutcome(doc.source, "replaced" if stored_hash else "added", doc.uid,
                                                problems=doc.problems))
        summary.chunks_written += len(doc.chunks)
        summary.clause_edges += len(plan.clause_edges)
        summary.precedent_edges += len(plan.precedent_edges)
        summary.law_edges += len(plan.law_edges)
        summary.referenced_links += len(plan.refers_to)
        summary.stubs_created += sum(uid not in plan.filled for uid in plan.stubs)  # what was stored
        summary.stubs_filled += len(plan.filled)

    def _plan(self, doc: PreparedDocument, content_hash: str, summary: DocumentSummary, *, stored: bool) -> _Plan:
        plan = _Plan(doc)
        if stored:  # a new document or a stub has no chunks or roll-ups to replace
            plan.old_chunks = [row.uid for row in self.store.rows(OWNER_CHUNKS, uid=doc.uid)]
            plan.old_rollups = self.store.rows(OWNER_ROLLUPS, uid=doc.uid)
        citations = self._citations(doc.text, doc)
        summary.citations += len(citations)
        cited_laws: set[str] = set()
        articles: Counter[str] = Counter()
        for citation in citations:
            if citation.kind == "precedent":
                self._link_precedent(doc, citation, plan, summary)
            else:  # a clause, a division or appendix (第三章, 別表第一), or a law as a whole (この法律)
                if citation.law_id:
                    cited_laws.add(citation.law_id)
                if citation.kind == "law":
                    self._link_law(doc, citation, plan, summary)
                else:
                    self._link_statute(doc, citation, plan, articles, summary)
        if doc.referenced:
            # 参照法条 (民法709条 of the 輸血 case): each entry is linked, or counted under why it is not (a judgment
            # of 2000 citing a law stored from 2020 on), never dropped without a word
            for citation in self._citations(doc.referenced, doc):
                if citation.kind == "precedent":
                    continue
                link = statute_link(citation, self.revisions, doc.as_of)
                for span in link.targets:
                    plan.refers_to[span.uid] = citation.surface
                if link.key is not None:
                    summary.not_linked[f"参照法条: {link.key}"] += 1
                if citation.law_id:
                    cited_laws.add(citation.law_id)
        plan.rollups = articles
        plan.node = {**doc.node, "uid": doc.uid, "content_hash": content_hash, "problems": list(doc.problems),
                     "cited_laws": sorted(cited_laws)}
        if doc.label == "Precedent":
            plan.node["stub"] = False
            day = doc.node.get("date")
            if day is not None:
                rows = self.precedents.on_day(day.isoformat())
                plan.filled = stubs_filled_by(rows, doc.node.get("court"), doc.node.get("decision_type"),
                                              (doc.node.get("case_number") or "").split("、"))
                plan.moved = [row for stub in plan.filled
                              for row in self.store.rows(PRECEDENT_CITED_BY_CHUNKS, uid=stub)]
        return plan

    def _citations(self, text: str, doc: PreparedDocument) -> list[Citation]:
        context = CitationContext(catalog=self.catalog, as_of=doc.as_of, revisions=self.revisions,
                                  citing_court=doc.citing_court)
        return extract(text, context)

    def _link_statute(self, doc: PreparedDocument, citation: Citation, plan: _Plan, articles: Counter[str],
                      summary: DocumentSummary) -> None:
        link = statute_link(citation, self.revisions, doc.as_of)
        targets = link.targets
        if link.key is not None:
            summary.not_linked[link.key] += 1
            return
        law = self.revisions.law(citation.law_id or "")
        holding = list(_chunks_holding(doc.chunks, citation))
        if not holding:
            summary.not_linked["citation outside the chunked text"] += 1
            return
        if citation.kind != "statute":
            summary.linked_outside[citation.kind] += 1
        for span in targets:
            # a division or an appendix is no article: it has no roll-up (CITES_ARTICLE)
            article = law.at(article_path(span.path), doc.as_of) if citation.kind == "statute" else None
            if article is not None:
                articles[article.uid] += 1
            for chunk in holding:
                plan.add_clause_edge(chunk_uid(doc.uid, chunk), span.uid, citation)

    def _link_law(self, doc: PreparedDocument, citation: Citation, plan: _Plan, summary: DocumentSummary) -> None:
        """A law named as a whole (with its number, no clause): an edge from each chunk holding it to the law's
        node, or the count of why there is none (`law_link_reason`)."""
        reason = law_link_reason(citation, self.revisions)
        if reason is not None:
            summary.not_linked[reason] += 1
            return
        holding = list(_chunks_holding(doc.chunks, citation))
        if not holding:
            summary.not_linked["citation outside the chunked text"] += 1
            return
        summary.linked_laws += 1
        for chunk in holding:
            plan.add_law_edge(chunk_uid(doc.uid, chunk), citation.law_id or "", citation)

    def _link_precedent(self, doc: PreparedDocument, citation: Citation, plan: _Plan,
                        summary: DocumentSummary) -> None:
        target = self.precedents.target(citation)
        if target is None:
            summary.not_linked["precedent citation without a day, or fitting several decisions"] += 1
            return
        if target.uid == doc.uid:
            return  # a judgment quoting its own case number
        holding = list(_chunks_holding(doc.chunks, citation))
        if not holding:
            summary.not_linked["citation outside the chunked text"] += 1
            return
        if target.stub_row is not None:
            plan.stubs[target.uid] = target.stub_row
        for chunk in holding:
            plan.add_precedent_edge(chunk_uid(doc.uid, chunk), target.uid, citation)


def _node_name(label: str, node: dict[str, Any]) -> str:
    """What Neo4j Browser captions the judgment or document by (lexgraph/store/names.py)."""
    if label == "Precedent":
        return precedent_name(node)
    return titled_name(node.get("title"), str(node["uid"]))


@dataclass
class _Plan:
    """Every write of one document, applied in one transaction in dependency order."""

    doc: PreparedDocument
    node: dict[str, Any] = field(default_factory=dict)
    old_chunks: list[str] = field(default_factory=list)
    old_rollups: list[OwnerRollupsRow] = field(default_factory=list)
    clause_edges: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    precedent_edges: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    law_edges: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)  # chunk → a law as a whole
    stubs: dict[str, dict[str, Any]] = field(default_factory=dict)
    refers_to: dict[str, str] = field(default_factory=dict)
    rollups: Counter[str] = field(default_factory=Counter)
    filled: list[str] = field(default_factory=list)
    moved: list[PrecedentCitedByChunksRow] = field(default_factory=list)

    @property
    def stub_days(self) -> list[str]:
        return [row["date"].isoformat() for row in self.stubs.values() if row.get("date")]

    def add_clause_edge(self, chunk: str, clause: str, citation: Citation) -> None:
        _add_edge(self.clause_edges, chunk, clause, citation)

    def add_precedent_edge(self, chunk: str, precedent: str, citation: Citation) -> None:
        _add_edge(self.precedent_edges, chunk, precedent, citation)

    def add_law_edge(self, chunk: str, law_id: str, citation: Citation) -> None:
        _add_edge(self.law_edges, chunk, law_id, citation)

    def apply(self, tx: Transaction) -> None:
        doc, label = self.doc, self.doc.label
        if self.old_chunks:
            tx.delete_nodes("Chunk", self.old_chunks)
        old_rollups: dict[tuple[str, str], list[tuple[str, str]]] = {}
        for row in self.old_rollups:
            old_rollups.setdefault((row.rel_type, row.owner_label), []).append((doc.uid, row.to_uid))
        for (rel_type, owner_label), pairs in old_rollups.items():
            tx.delete_relationships(rel_type, pairs, from_label=owner_label, to_label="Provision")
        tx.upsert_nodes(label, [{**self.node, "name": _node_name(label, self.node)}])
        if self.filled:  # stubs this precedent fills in: their citing chunks now cite it
            tx.delete_nodes("Precedent", self.filled)
            moved = [{**{k: v for k, v in row._asdict().items() if k != "from_uid"}, "from": row.from_uid,
                      "to": doc.uid} for row in self.moved]
            tx.upsert_relationships("CITES", moved, from_label="Chunk", to_label="Precedent")
        stubs = [{**row, "name": precedent_name(row)} for uid, row in sorted(self.stubs.items())
                 if uid not in self.filled]
        if stubs:  # a stub's key is made of its fields, so writing it again changes nothing
            tx.upsert_nodes("Precedent", stubs)
        chunks = [{"uid": chunk_uid(doc.uid, c), "owner_uid": doc.uid, "seq": c.seq, "section": c.section or "",
                   "text": c.text, "char_start": c.start, "char_end": c.end,
                   "name": chunk_name(doc.uid, c.seq, self.node.get("title"))} for c in doc.chunks]
        if chunks:
            tx.create_nodes("Chunk", chunks)
            tx.create_relationships("PART_OF", [{"from": c["uid"], "to": doc.uid} for c in chunks],
                                    from_label="Chunk", to_label=label)
        if self.clause_edges:
            tx.create_relationships("CITES", _rows(self.clause_edges), from_label="Chunk", to_label="Provision")
        if self.precedent_edges:
            tx.upsert_relationships("CITES", _rows(self.precedent_edges), from_label="Chunk", to_label="Precedent")
        if self.law_edges:
            tx.create_relationships("CITES", _rows(self.law_edges), from_label="Chunk", to_label="Law")
        if self.refers_to:
            tx.create_relationships("REFERS_TO", [{"from": doc.uid, "to": uid, "surface": surface}
                                                  for uid, surface in sorted(self.refers_to.items())],
                                    from_label=label, to_label="Provision")
        if self.rollups:
            tx.create_relationships("CITES_ARTICLE", [{"from": doc.uid, "to": uid, "count": n}
                                                      for uid, n in sorted(self.rollups.items())],
                                    from_label=label, to_label="Provision")


def _add_edge(edges: dict[tuple[str, str], dict[str, Any]], source: str, target: str, citation: Citation) -> None:
    key = (source, target)
    if key in edges:
        edges[key]["mentions"] += 1
        return
    edges[key] = {"surface": citation.surface, "char_start": citation.start, "char_end": citation.end,
                  "part": citation.part or "", "status": citation.status, "extractor": EXTRACTOR, "mentions": 1}


def _rows(edges: dict[tuple[str, str], dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"from": source, "to": target, **props} for (source, target), props in sorted(edges.items())]


def chunk_uid(owner: str, chunk: Chunk) -> str:
    return f"{owner}#c{chunk.seq}"


def _chunks_holding(chunks: Sequence[Chunk], citation: Citation) -> Iterator[Chunk]:
    """The chunks a citation lies in (two, in the overlap); a citation across a chunk boundary belongs to both."""
    for chunk in chunks:
        if chunk.start < citation.end and citation.start < chunk.end:
            yield chunk


def ingest_documents(store: GraphStore, documents: Iterator[PreparedDocument | Exception], *,
                     catalog: Catalog | None = None, on_document: ProgressCallback | None = None
                     ) -> DocumentSummary:
    """Write every prepared document; inputs that could not be read are reported as failures."""
    writer = DocumentWriter(store, catalog)
    summary = DocumentSummary()
    seen: dict[str, str] = {}  # uid → the input that gave it in this run
    for item in documents:
        summary.files += 1
        if isinstance(item, Exception):
            summary.outcomes.append(DocumentOutcome(str(item).split(":")[0], "failed", message=str(item)))
            continue
        if item.uid in seen:
            # Two copies of one judgment (085547_hanrei.txt and 85547.txt): the first, in input order, is kept,
            # so that running the same inputs again keeps the same one.
            summary.outcomes.append(DocumentOutcome(
                item.source, "duplicate", item.uid, f"{item.source}: same document as {seen[item.uid]} ({item.uid}); "
                "kept the first"))
            continue
        seen[item.uid] = item.source
        writer.write(item, summary)
        if on_document is not None:
            on_document(item.source)
    return summary
