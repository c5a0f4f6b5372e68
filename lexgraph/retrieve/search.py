"""A question in, ranked clauses and chunks and graph-selected evidence out: what `lexgraph search` runs.

1. The chosen retriever ranks clauses (the direct list) and, separately, chunks of judgments, books and guidelines,
   each under the same filter, so that a collection rich in chunks cannot crowd the clauses out (and vice versa).
2. The top ``m`` chunks lend their ranks to the clauses and precedents they cite (`evidence.select_evidence`), and
   that graph ranking is fused with the direct clause list; the top ``n`` are the evidence. Without literature
   (as in lawqa_jp) the evidence is the direct clause list. With ``SearchOptions.direct`` False the evidence is
   the graph's selection alone, as the integrated-citation-graph paper publishes it.
3. With ``as_of``, a clause a chunk cites is read in the wording in force on that day (a judgment of 1995 cites the
   1995 wording); a clause not in force then is left out, and said so in `SearchResult.dropped`.
4. Ranks are relative: some chunk is always first, even for a question no stored judgment is about. Only chunks
   above the relevance floor (`relevance_floor`: half the best score among the question's own hits, clauses and
   chunks alike) lend their ranks to what they cite, so that a clause many judgments cite does not become evidence
   for a question those judgments are not about (「成年年齢は何歳か」 and 民法第七百九条). The paper has no floor:
   its M chunks all lend their ranks, which is a difference of lexgraph's from it.
5. With ``as_of``, every clause is checked with the one in-force decision (`lexgraph.read.in_force`): a clause the
   search would have found but whose wording that day the store cannot know (a gap, before the first stored
   version) is left out and listed in `SearchResult.unknown` with the reason; one past "known up to" is kept as
   its last known wording and listed in `SearchResult.unverified`, so that `ask` can say so.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any, Literal

from lexgraph.errors import InputError
from lexgraph.index.embed import Embedder
from lexgraph.index.query import UNIT_KINDS, SearchFilter, SearchIndex, UnitKind
from lexgraph.index.units import clause_caption
from lexgraph.llm.client import LLMClient
from lexgraph.model import ANY_WORDING
from lexgraph.numerals import clause_label
from lexgraph.read.in_force import Answer, InForce, Unknown
from lexgraph.read.revisions import ClauseSpans
from lexgraph.retrieve.evidence import select_evidence
from lexgraph.retrieve.fusion import DEFAULT_FUSION, DEFAULT_K
from lexgraph.retrieve.law_prior import LawCitations
from lexgraph.retrieve.modes import RetrieverSetup, search_mode
from lexgraph.retrieve.options import SearchOptions
from lexgraph.retrieve.retrievers import CiteFn, KindsRetriever, RankedBy, Retrieved, Retriever, StandInRetriever
from lexgraph.store.base import GraphStore
from lexgraph.store.rows import CHUNKS_CITATIONS, EVIDENCE_ITEMS, LAW_BY_ID, ChunksCitationsRow, EvidenceItemsRow


@dataclass(frozen=True)
class EvidenceItem:
    """A clause or precedent selected as evidence, and why: the chunks citing it (with their ranks) and its rank
    in the direct clause search."""

    uid: str
    label: str  # Provision | Precedent
    title: str
    text: str
    score: float
    cited_by: tuple[tuple[str, int], ...]
    graph_rank: int | None
    direct_rank: int | None
    law_id: str = ""
    path: str = ""
    valid_from: date | None = None
    valid_until: date | None = None
    stub: bool = False  # a precedent known only from citations: no text of its own is stored

    def to_json(self) -> dict[str, Any]:
        return {"uid": self.uid, "label": self.label, "title": self.title, "text": self.text, "stub": self.stub,
                "score": round(self.score, 6), "law_id": self.law_id, "path": self.path,
                "valid_from": self.valid_from.isoformat() if self.valid_from else None,
                "valid_until": self.valid_until.isoformat() if self.valid_until else None,
                "cited_by": [{"chunk": c, "rank": r} for c, r in self.cited_by],
                "graph_rank": self.graph_rank, "direct_rank": self.direct_rank}


@dataclass(frozen=True)
class LeftOut:
    """A clause whose wording on the search's day the store cannot know (`lexgraph.read.in_force.Unknown`): left
    out of the results (`SearchResult.unknown`), or kept as its last known wording (`SearchResult.unverified`)."""

    law_id: str
    path: str
    title: str
    why: str  # gap | past_known | before_first | scheduled | no_version
    reason: str

    @property
    def note(self) -> str:
        return f"{self.title}: wording on that day not known: {self.reason}"

    def to_json(self) -> dict[str, Any]:
        return {"law_id": self.law_id, "path": self.path, "title": self.title, "why": self.why,
                "reason": self.reason}


@dataclass(frozen=True)
class StalePart:
    """A part of the search index built from an older state of the graph (a law synced or ingested again, a
    judgment replaced since `lexgraph index`): a search reads what the part held then, and misses what changed."""

    part: str  # law:<law id> | chunks
    law_id: str = ""
    title: str = ""

    @property
    def note(self) -> str:
        what = f"{self.title} ({self.law_id})" if self.law_id else "judgments, books and guidelines"
        return (f"{what}: changed since the search index was built; the search does not see the change "
                f"(run `lexgraph index`)")

    def to_json(self) -> dict[str, Any]:
        return {"part": self.part, "law_id": self.law_id or None, "title": self.title or None}


def stale_parts(store: GraphStore) -> tuple[StalePart, ...]:
    """The index parts whose graph changed since they were built (`index.build.index_status`), each law named.
    A part never built (a law not indexed) is not stale: `lexgraph index --status` lists those."""
    from lexgraph.index.build import index_status
    from lexgraph.index.units import part_law_id

    found = []
    for part in index_status(store, check_files=False).parts:
        if part.status != "stale":
            continue
        law_id = part_law_id(part.part) or ""
        rows = store.rows(LAW_BY_ID, law_id=law_id) if law_id else []
        found.append(StalePart(part.part, law_id, str(rows[0].title) if rows else ""))
    return tuple(found)


@dataclass(frozen=True)
class SearchResult:
    question: str
    mode: str
    where: SearchFilter
    clauses: tuple[Retrieved, ...]
    chunks: tuple[Retrieved, ...]
    evidence: tuple[EvidenceItem, ...]
    hypothetical_answers: tuple[str, ...] = ()
    dropped: tuple[str, ...] = field(default=())  # clauses left out, with the reason (the unknown ones too)
    unknown: tuple[LeftOut, ...] = field(default=())  # left out: their wording on the day is not known
    unverified: tuple[LeftOut, ...] = field(default=())  # kept as the last known wording, not known in force
    floor: float | None = None  # the score a chunk needs to lend its rank to what it cites (`relevance_floor`)
    stale: tuple[StalePart, ...] = field(default=())  # index parts built from an older state of the graph
    #: The mode that ranked, and why, when it is not `mode` (the index lacks what `mode` reads); None when it is.
    ranked_by: RankedBy | None = None
    #: Clauses a dense list cannot hold, as ``"suppl"`` (附則 clauses, when the index gives them no vectors), so that
    #: none of them is taken for a miss; None when the list can hold every clause (or the mode reads no vectors).
    unembedded: Literal["suppl"] | None = None

    def relevant_chunks(self) -> tuple[Retrieved, ...]:
        """The chunks at or above the relevance floor: those the graph evidence and an answer may draw on."""
        return tuple(c for c in self.chunks if self.floor is None or c.score >= self.floor)

    def to_json(self) -> dict[str, Any]:
        # "ranked_by" only when another mode ranked: a search that ranked as asked reads as it always did.
        said = {"ranked_by": self.ranked_by.to_json()} if self.ranked_by is not None else {}
        return {"question": self.question, "mode": self.mode, **said, "filter": self.where.to_json(),
                "relevance_floor": None if self.floor is None else round(self.floor, 6),
                "clauses": [h.to_json() for h in self.clauses], "chunks": [h.to_json() for h in self.chunks],
                "evidence": [e.to_json() for e in self.evidence],
                "hypothetical_answers": list(self.hypothetical_answers), "dropped": list(self.dropped),
                "unknown": [u.to_json() for u in self.unknown],
                "unverified": [u.to_json() for u in self.unverified],
                "stale_index": [part.to_json() for part in self.stale],
                **({"unembedded": self.unembedded} if self.unembedded is not None else {})}


def make_retriever(mode: str, index: SearchIndex, embedder: Embedder, *, llm: LLMClient | None = None,
                   cite: CiteFn | None = None, rrf_k: float = DEFAULT_K,
                   weights: Mapping[str, float] | None = None, fusion: str = DEFAULT_FUSION,
                   query_extraction: bool = False,
                   held_apart: Collection[str] = (), law_citations: LawCitations | None = None) -> Retriever:
    """The retriever for a mode, built by the mode's builder in the registry (`lexgraph.retrieve.modes`). ``hyde``
    (and ``tree`` with `query_extraction`) without a model raises `ModelUnavailable` saying how to configure one.

    With `cite` (a citation extractor), the fusing modes add the clauses the question cites as a third list.
    `held_apart` names the sources whose anchors must not feed the search (an evaluation's own judgments);
    `law_citations` gives the hybrid's law-level evidence its citation prior (`law_prior.LawCitations`)."""
    return search_mode(mode).build(RetrieverSetup(mode, index, embedder, llm, cite, rrf_k, weights, fusion,
                                                  query_extraction, frozenset(held_apart), law_citations))


#: The longest question lexgraph searches or answers, in characters. A question costs time in proportion to its
#: length (200,000 characters took 29 s to search on a 20-law store), and the MCP server takes request bodies of
#: 4 MiB: unbounded, one request could hold a search for minutes. 10,000 is 17 times lawqa_jp's longest question
#: (565, its four choices included) and takes about 3 s on the whole archive.
MAX_QUESTION_CHARS = 10_000


def check_question(question: str) -> None:
    """The one check of a question before it is searched or answered, made at the package's doors
    (`LexGraph.search` and `LexGraph.ask`, which the MCP server calls; the CLI before it opens the store): an empty
    one, or one past `MAX_QUESTION_CHARS`, is an `InputError` saying what to give."""
    if not question.strip():
        raise InputError("the question is empty; give a question in words, e.g. lexgraph search "
                         "'不法行為による損害賠償'")
    if len(question) > MAX_QUESTION_CHARS:
        raise InputError(f"the question has {len(question):,} characters, more than the {MAX_QUESTION_CHARS:,} "
                         "lexgraph searches; give the question, not a document (`lexgraph cite` finds what a "
                         "document cites)")


def search(store: GraphStore, retriever: Retriever, question: str, *, where: SearchFilter | None = None,
           options: SearchOptions | None = None) -> SearchResult:
    where = where or SearchFilter()
    options = options or SearchOptions()
    clauses: list[Retrieved] = []
    decisions = _Decisions(store, where.day)
    dropped: list[str] = []
    depths: dict[UnitKind, int] = {"provision": max(options.k, options.n), "chunk": max(options.k, options.m)}
    if where.kind is None and isinstance(retriever, KindsRetriever):  # both kinds in one read
        found = retriever.retrieve_kinds(question, depths, where)
    else:
        found = {kind: retriever.retrieve(question, depths[kind], replace(where, kind=kind)) for kind in UNIT_KINDS
                 if where.kind in (None, kind)}
    if "provision" in found:
        # With a day, what its filter left out because its wording then is not known: the clauses found without
        # it. Searched first, so that the decision's input for both lists is read together (`_Decisions.read`).
        every = [] if where.day is None else retriever.retrieve(question, depths["provision"],
                                                                replace(where, as_of=ANY_WORDING, kind="provision"))
        decisions.read((hit.unit.law_id, hit.unit.path) for hit in [*found["provision"], *every])
        clauses = decisions.keep(found["provision"], dropped)
        if where.day is not None:
            decisions.left_out(every, {(c.unit.law_id, c.unit.path) for c in clauses})
    chunks = found.get("chunk", [])
    # The tree's answer is every leaf under the node it found: never cut by k or n (the paper has no k).
    whole = search_mode(options.mode).whole
    floor = relevance_floor(clauses, chunks)
    relevant = [c for c in chunks[:options.m] if floor is None or c.score >= floor]
    evidence = _evidence(store, clauses, relevant, where,
                         replace(options, n=max(options.n, len(clauses))) if whole else options, decisions, dropped)
    answers = tuple(getattr(retriever, "last_answers", ()))
    shown = (clauses, chunks) if whole else (clauses[:options.k], chunks[:options.k])
    unknown = tuple(decisions.unknown.values())
    dropped += [u.note for u in unknown]
    ranked_by = retriever.ranked_by if isinstance(retriever, StandInRetriever) else None
    return SearchResult(question, options.mode, where, tuple(shown[0]), tuple(shown[1]), tuple(evidence), answers,
                        tuple(dict.fromkeys(dropped)), unknown, tuple(decisions.unverified.values()), floor,
                        ranked_by=ranked_by)


#: A chunk lends its rank to what it cites only when it scores at least this share of the question's best hit.
FLOOR_SHARE = 0.5


def relevance_floor(clauses: Sequence[Retrieved], chunks: Sequence[Retrieved]) -> float | None:
    """The score a chunk needs for its citations to count as evidence: `FLOOR_SHARE` of the best score the
    question's own hits reached (the top clause or the top chunk, ranked by the same retriever). Why relative to
    the question's own hits and not a fixed number: scores are the retriever's (fused, normalised per list, or a
    cosine), and what is close for one question is far for another; a passage less than half as close to the
    question as the best thing it found is not about it, however often it cites a clause. Why half: a chunk found
    at the top of one of two fused lists and not at all by the other scores half of one found first by both, so
    a passage only one retriever finds, for a question whose best hit both find, lends nothing. None: no chunk,
    or no positive score to measure against (every chunk counts)."""
    best = max((hit.score for hit in [*clauses[:1], *chunks[:1]]), default=None)
    if not chunks or best is None or best <= 0:
        return None
    return FLOOR_SHARE * best


class _Decisions:
    """The in-force decision for the clauses one search touches, on its day (none without a day), with what it
    left out or kept unverified, each clause once."""

    def __init__(self, store: GraphStore, day: date | None) -> None:
        self.day = day
        self.revisions = ClauseSpans(store)
        self.unknown: dict[tuple[str, str], LeftOut] = {}
        self.unverified: dict[tuple[str, str], LeftOut] = {}

    def read(self, clauses: Iterable[tuple[str, str]]) -> None:
        """Read the decision's input for these clauses (law id, path) together, before they are decided one by
        one (`ClauseSpans.read`: one read for all, not one each); nothing to read without a day."""
        if self.day is not None:
            self.revisions.read((law_id, path) for law_id, path in clauses if law_id)

    def answer(self, law_id: str, path: str) -> Answer | None:
        if self.day is None or not law_id:
            return None
        return self.revisions.wording_on(law_id, path, self.day)

    def keep(self, hits: Sequence[Retrieved], dropped: list[str]) -> list[Retrieved]:
        """The hits whose wording is the one the decision gives for the day (or its last known wording, noted)."""
        kept = []
        for hit in hits:
            unit = hit.unit
            answer = self.answer(unit.law_id, unit.path)
            if answer is None or (isinstance(answer, InForce) and answer.uid == hit.uid):
                kept.append(hit)
            elif isinstance(answer, Unknown) and answer.last_known is not None and answer.last_known.uid == hit.uid:
                self.note(answer, unit.shown_title)
                kept.append(hit)
            elif isinstance(answer, Unknown):
                self.note(answer, unit.shown_title)
            else:  # the index says in force, the decision does not (a stale index part): the decision wins
                dropped.append(f"{unit.shown_title}: {answer.describe()}")
        return kept

    def left_out(self, hits: Sequence[Retrieved], kept: set[tuple[str, str]]) -> None:
        for hit in hits:
            unit = hit.unit
            if (unit.law_id, unit.path) in kept:
                continue
            answer = self.answer(unit.law_id, unit.path)
            if isinstance(answer, Unknown) and answer.last_known is None:
                self.note(answer, unit.shown_title)

    def note(self, answer: Unknown, title: str) -> None:
        key = (answer.law_id, answer.path)
        entry = LeftOut(answer.law_id, answer.path, title, answer.why, answer.reason)
        (self.unverified if answer.last_known is not None else self.unknown).setdefault(key, entry)


def _evidence(store: GraphStore, clauses: Sequence[Retrieved], chunks: Sequence[Retrieved], where: SearchFilter,
              options: SearchOptions, decisions: _Decisions, dropped: list[str]) -> list[EvidenceItem]:
    cites: dict[str, list[str]] = {}
    labels: dict[str, str] = {clause.uid: "Provision" for clause in clauses}
    rows = _chunk_citations(store, chunks)
    remap = _wording_on(rows, decisions, dropped) if where.day else {}
    for row in rows:
        target = remap.get(row.target, row.target) if row.label == "Provision" else row.target
        if target is None or (where.laws and row.label == "Provision" and row.law_id not in where.laws):
            continue
        cites.setdefault(row.chunk, []).append(target)
        labels[target] = row.label
    direct = [c.uid for c in clauses] if options.direct else None
    ranked = select_evidence([c.uid for c in chunks], cites, direct=direct, m=options.m,
                             n=options.n, k=options.rrf_k)
    return _describe(store, ranked, labels, {c.uid: c for c in clauses})


def _chunk_citations(store: GraphStore, chunks: Sequence[Retrieved]) -> list[ChunksCitationsRow]:
    """What the chunks cite, as rows of ``chunks_citations``: from the chunks' units where the search brought them
    with what they cite (Neo4j's search query: one round trip fewer a search), else read from the store.
    A unit not yet in hand is never read for this."""
    rows: list[ChunksCitationsRow] = []
    rest = []
    for chunk in chunks:
        unit = chunk.hit.unit_if_read()
        if unit is None or unit.cites is None:
            rest.append(chunk.uid)
            continue
        rows += [ChunksCitationsRow(chunk=chunk.uid, target=c.target, label=c.label, law_id=c.law_id, path=c.path)
                 for c in unit.cites]
    return rows + (store.rows(CHUNKS_CITATIONS, uids=rest) if rest else [])


def _wording_on(rows: Sequence[ChunksCitationsRow], decisions: _Decisions,
                dropped: list[str]) -> dict[str, str | None]:
    """Cited clause uid → the uid of the same clause's wording on the day, as the in-force decision gives it
    (its last known wording past "known up to", noted as unverified); None: not in force, or not known, then."""
    out: dict[str, str | None] = {}
    decisions.read((row.law_id, row.path) for row in rows if row.label == "Provision")
    for row in rows:
        if row.label != "Provision" or row.target in out:
            continue
        answer = decisions.answer(row.law_id, row.path)
        title = f"{row.law_id} {clause_label(row.path)}"
        if isinstance(answer, InForce):
            out[row.target] = answer.uid
        elif isinstance(answer, Unknown):
            decisions.note(answer, title)
            out[row.target] = answer.last_known.uid if answer.last_known is not None else None
        else:
            out[row.target] = None
            if answer is not None:
                dropped.append(f"{row.law_id} {row.path}: cited by {row.chunk}, not in force on "
                               f"{decisions.day}")
    return out


def _describe(store: GraphStore, ranked: Sequence[Any], labels: Mapping[str, str],
              direct: Mapping[str, Retrieved]) -> list[EvidenceItem]:
    cited_clauses = [e.id for e in ranked if labels.get(e.id) == "Provision" and e.id not in direct]
    cited_precedents = [e.id for e in ranked if labels.get(e.id) == "Precedent"]
    # One read for both labels (`evidence_items`): each query is a round trip on a server.
    rows = (store.rows(EVIDENCE_ITEMS, provisions=cited_clauses, precedents=cited_precedents)
            if cited_clauses or cited_precedents else [])
    provisions = {r.uid: r for r in rows if r.label == "Provision"}
    precedents = {r.uid: r for r in rows if r.label == "Precedent"}
    items = []
    for e in ranked:
        common = {"uid": e.id, "score": e.score, "cited_by": e.cited_by, "graph_rank": e.graph_rank,
                  "direct_rank": e.direct_rank}
        if e.id in direct:
            unit = direct[e.id].unit
            items.append(EvidenceItem(label="Provision", title=unit.shown_title, text=unit.text, law_id=unit.law_id,
                                      path=unit.path, valid_from=unit.valid_from, valid_until=unit.valid_until,
                                      **common))
        elif e.id in provisions:
            row = provisions[e.id]
            title = f"{row.law_title} {clause_caption(row.path)}{row.caption or ''}"
            items.append(EvidenceItem(label="Provision", title=title, text=row.text or "", law_id=row.law_id,
                                      path=row.path, valid_from=row.valid_from, valid_until=row.valid_until,
                                      **common))
        elif e.id in precedents:
            row = precedents[e.id]
            title = precedent_title(row)
            items.append(EvidenceItem(label="Precedent", title=title, text=row.summary or "",
                                      stub=bool(row.stub), **common))
    return items


def precedent_title(row: EvidenceItemsRow) -> str:
    """A precedent as evidence and references name it: court, date, case number, case name (those known)."""
    return " ".join(str(x) for x in (row.court, row.date, row.case_number, row.case_name) if x)
