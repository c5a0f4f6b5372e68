"""The citation neighbourhood of one node, at document level, as in the integrated-citation-graph paper.

The stored graph is fine-grained: chunks cite clauses (paragraphs, items) in the wording in force on the citing
document's date. The view drawn here folds that into what a reader thinks of:

- a precedent, book or guideline is one node; its chunks' citations are counted on its edges (``count``);
- statutes appear as articles: a paragraph or item is shown as its article, the wordings of one article over time
  are one node, and clause-level cross-references (CITES) between two articles become one edge whose ``count`` is
  the number of distinct clause pairs.

`neighbourhood` walks breadth-first from a start node in both directions (citing and cited) up to ``depth``
steps, keeping at most ``max_nodes`` nodes: the nearest ones, and at the distance where the budget runs out the
most strongly connected ones. `Neighbourhood.cut` says how many were left out.

With ``as_of`` the view is the graph as it stood on that day: precedents and documents dated later are left
out, cross-references count only between wordings both in force then, and each article shows that day's wording.
Every read is a named query (``lexgraph/cypher/graph_*.cypher``); values are always parameters.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from importlib import resources
from typing import Any

from lexgraph.errors import ConfigurationError, LawNotFound, NodeNotFound, NotFound
from lexgraph.model import ANY_WORDING, AsOf, as_of_day, day_filter
from lexgraph.read.in_force import Answer, InForce, Unknown
from lexgraph.read.laws import provision_as_of, resolve_law
from lexgraph.read.revisions import ClauseSpans
from lexgraph.statutes.catalog import Catalog
from lexgraph.statutes.timeline import article_path
from lexgraph.store.base import GraphStore
from lexgraph.store.names import precedent_caption
from lexgraph.store.rows import (
    CLAUSE_WORDINGS_ALL,
    GRAPH_ARTICLE_CITED_BY,
    GRAPH_ARTICLE_CITED_BY_DOCUMENTS,
    GRAPH_ARTICLE_CITES,
    GRAPH_ARTICLE_CITES_LAWS,
    GRAPH_ARTICLES_OF_LAW,
    GRAPH_DOCUMENT_CITES,
    GRAPH_DOCUMENT_CITES_LAWS,
    GRAPH_DOCUMENT_CITES_PRECEDENTS,
    GRAPH_DOCUMENTS,
    GRAPH_LAW_CITED_BY,
    GRAPH_PRECEDENT_CITED_BY,
    GRAPH_PRECEDENT_CITES,
    GRAPH_PRECEDENT_CITES_LAWS,
    GRAPH_PRECEDENT_CITES_PRECEDENTS,
    GRAPH_PRECEDENTS,
    GRAPH_PROVISION,
    LAW_BY_ID,
    LAW_CITED_BY_DOCUMENTS,
    LAWS_ALL,
    CitedClauseCountRow,
    CitedPrecedentCountRow,
    ClauseTextRow,
    GraphPrecedentCitedByRow,
    LawsAllRow,
    Query,
)

NODE_KINDS = ("law", "whole_law", "precedent", "guideline", "book", "other", "stub")  # law: an article
DEFAULT_MAX_NODES = 150

# Edge types of the view (the stored relationship each one comes from):
#   CITES_ARTICLE  precedent / document → article   (CITES_ARTICLE {count}: its chunks' citations)
#   REFERS_TO      precedent → article              (REFERS_TO: the judgment's 参照法条)
#   CITES          precedent / document → precedent (chunks' CITES, counted per chunk)
#   CITES          article → article                (clause-level CITES, counted per distinct clause pair)
#   CITES          article / precedent / document → whole law  (a law cited as a whole, named with its number:
#                  CITES to its Law node, counted per citing clause or chunk)
EDGE_TYPES = ("CITES_ARTICLE", "REFERS_TO", "CITES")


@dataclass(frozen=True)
class GraphNode:
    uid: str
    kind: str  # one of NODE_KINDS
    caption: str
    distance: int
    properties: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {"uid": self.uid, "kind": self.kind, "caption": self.caption, "distance": self.distance,
                "properties": {k: _plain(v) for k, v in self.properties.items()}}


@dataclass(frozen=True)
class GraphEdge:
    source: str
    target: str
    type: str  # one of EDGE_TYPES
    count: int

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "target": self.target, "type": self.type, "count": self.count}


@dataclass(frozen=True)
class Neighbourhood:
    """Nodes (nearest first) and the edges between them. ``cut`` nodes were reached at distance ``cut_at`` but
    left out for ``max_nodes``; nothing beyond ``cut_at`` was explored then."""

    start: str
    depth: int
    as_of: date | None
    max_nodes: int
    nodes: tuple[GraphNode, ...]
    edges: tuple[GraphEdge, ...]
    cut: int = 0
    cut_at: int | None = None

    @property
    def truncated(self) -> bool:
        return self.cut > 0

    def node(self, uid: str) -> GraphNode:
        for n in self.nodes:
            if n.uid == uid:
                return n
        raise KeyError(uid)

    @property
    def note(self) -> str:
        """One line saying what is shown and what was cut."""
        start = next((n.caption for n in self.nodes if n.uid == self.start), None)
        named = f"{start} ({self.start})" if start and start != self.start else self.start
        text = f"{len(self.nodes)} nodes, {len(self.edges)} edges within {self.depth} step(s) of {named}"
        if self.as_of:
            text += f" as of {self.as_of.isoformat()}"
        if self.cut:
            text += (f"; {self.cut} more node(s) at distance {self.cut_at} left out (max {self.max_nodes} nodes, "
                     f"the least connected go first)")
            if self.cut_at is not None and self.cut_at < self.depth:
                text += f", and nothing beyond distance {self.cut_at} was explored"
        return text

    def to_json(self) -> dict[str, Any]:
        return {"start": self.start, "depth": self.depth, "as_of": _plain(self.as_of), "max_nodes": self.max_nodes,
                "truncated": self.truncated, "cut": self.cut, "cut_at": self.cut_at, "note": self.note,
                "nodes": [n.to_json() for n in self.nodes], "edges": [e.to_json() for e in self.edges]}


# -- keys -------------------------------------------------------------------------------------------------------
# Inside the walk a node is a key: ("article", law_id, article_path) | ("precedent", uid) | ("document", uid)
# | ("whole_law", law_id): a law cited as a whole (its uid in the view is its law id).
Key = tuple[str, ...]

def _in_force(valid_from: date | None, valid_until: date | None, day: date) -> bool:
    return (valid_from is None or valid_from <= day) and (valid_until is None or valid_until > day)


def _owner_key(label: str, uid: str) -> Key:
    return ("precedent", uid) if label == "Precedent" else ("document", uid)


@dataclass
class _Step:
    other: Key
    source: Key
    target: Key
    type: str
    count: int


class _Walker:
    """Reads one node's citations in both directions, through the named queries."""

    def __init__(self, store: GraphStore, as_of: date | None) -> None:
        self.store = store
        self.as_of = as_of
        self.revisions = ClauseSpans(store)

    def known(self, law_id: str, path: str) -> bool:
        """Whether the clause has a wording a reader may be shown on the day: in force, or its last known one
        (the one decision, read/in_force.py); a gap, before the first version or not in force: no."""
        if self.as_of is None:
            return True
        answer = self.revisions.wording_on(law_id, path, self.as_of)
        return isinstance(answer, InForce) or (isinstance(answer, Unknown) and answer.last_known is not None)

    def _dated_ok(self, day: date | None) -> bool:
        return self.as_of is None or day is None or day <= self.as_of

    def expand(self, key: Key) -> list[_Step]:
        if key[0] == "article":
            return self._article(key) + self._article_laws(key)
        if key[0] == "whole_law":
            return self._whole_law(key)
        laws = GRAPH_PRECEDENT_CITES_LAWS if key[0] == "precedent" else GRAPH_DOCUMENT_CITES_LAWS
        steps = [_Step(("whole_law", row.law_id), key, ("whole_law", row.law_id), "CITES", int(row.count or 1))
                 for row in self.store.rows(laws, uid=key[1])]
        if key[0] == "precedent":
            return self._owner(key, GRAPH_PRECEDENT_CITES, GRAPH_PRECEDENT_CITES_PRECEDENTS,
                               GRAPH_PRECEDENT_CITED_BY) + steps
        return self._owner(key, GRAPH_DOCUMENT_CITES, GRAPH_DOCUMENT_CITES_PRECEDENTS, None) + steps

    def _article_laws(self, key: Key) -> list[_Step]:
        """The laws the article's clauses cite as a whole (in force on the day, when one is given), counted per
        citing clause."""
        _, law_id, path = key
        wordings = [row.uid for row in self.store.rows(CLAUSE_WORDINGS_ALL, law_id=law_id, path=path,
                                                       prefix=f"{path}/")]
        clauses: dict[Key, set[str]] = defaultdict(set)
        for row in (found for uid in wordings for found in self.store.rows(GRAPH_ARTICLE_CITES_LAWS, uid=uid)):
            if self.as_of is not None and not (_in_force(row.near_from, row.near_until, self.as_of)
                                               and self.known(law_id, row.near_path)):
                continue
            clauses[("whole_law", row.law_id)].add(row.near_path)
        return [_Step(other, key, other, "CITES", len(paths)) for other, paths in clauses.items()]

    def _whole_law(self, key: Key) -> list[_Step]:
        """What cites a law as a whole: articles (counted per citing clause, in force on the day when one is
        given) and precedents or documents (counted per chunk, dated by the day)."""
        law_id = key[1]
        clauses: dict[Key, set[str]] = defaultdict(set)
        for row in self.store.rows(GRAPH_LAW_CITED_BY, law_id=law_id):
            if self.as_of is not None and not (_in_force(row.valid_from, row.valid_until, self.as_of)
                                               and self.known(row.law_id, row.path)):
                continue
            clauses[("article", row.law_id, article_path(row.path))].add(row.path)
        steps = [_Step(other, other, key, "CITES", len(paths)) for other, paths in clauses.items()]
        chunks: dict[Key, set[str]] = defaultdict(set)
        for chunk in self.store.rows(LAW_CITED_BY_DOCUMENTS, law_id=law_id):
            if self._dated_ok(chunk.date):
                chunks[_owner_key(chunk.label, chunk.uid)].add(chunk.chunk_uid)
        steps += [_Step(owner, owner, key, "CITES", len(found)) for owner, found in chunks.items()]
        return steps

    def _article(self, key: Key) -> list[_Step]:
        _, law_id, path = key
        params = {"law_id": law_id, "path": path, "prefix": f"{path}/"}
        steps: list[_Step] = []
        # each wording's edges followed from its key: memory bounded by the article's own citations on a store of
        # any size (a join of both sides scanned every clause of the store)
        wordings = [row.uid for row in self.store.rows(CLAUSE_WORDINGS_ALL, **params)]
        for query, outgoing in ((GRAPH_ARTICLE_CITES, True), (GRAPH_ARTICLE_CITED_BY, False)):
            pairs: dict[Key, set[tuple[str, str]]] = defaultdict(set)
            for row in (found for uid in wordings for found in self.store.rows(query, uid=uid)):
                if self.as_of is not None and not (
                        _in_force(row.near_from, row.near_until, self.as_of)
                        and _in_force(row.valid_from, row.valid_until, self.as_of)
                        and self.known(law_id, row.near_path) and self.known(row.law_id, row.path)):
                    continue
                other: Key = ("article", row.law_id, article_path(row.path))
                if other != key:
                    pairs[other].add((row.near_path, row.path))
            for other, clause_pairs in pairs.items():
                source, target = (key, other) if outgoing else (other, key)
                steps.append(_Step(other, source, target, "CITES", len(clause_pairs)))
        counts: dict[tuple[Key, str], int] = defaultdict(int)
        for cited in self.store.rows(GRAPH_ARTICLE_CITED_BY_DOCUMENTS, **params):
            if not self._dated_ok(cited.date):
                continue
            rel = cited.rel
            counts[(_owner_key(cited.label, cited.uid), rel)] += int(cited.count or 1)
        steps.extend(_Step(owner, owner, key, rel, n) for (owner, rel), n in counts.items())
        return steps

    def _owner(self, key: Key, cites: Query[CitedClauseCountRow], cites_precedents: Query[CitedPrecedentCountRow],
               cited_by: Query[GraphPrecedentCitedByRow] | None) -> list[_Step]:
        uid = key[1]
        counts: dict[tuple[Key, str], int] = defaultdict(int)
        for clause in self.store.rows(cites, uid=uid):
            counts[(("article", clause.law_id, article_path(clause.path)), clause.rel)] += int(clause.count or 1)
        steps = [_Step(other, key, other, rel, n) for (other, rel), n in counts.items()]
        for precedent in self.store.rows(cites_precedents, uid=uid):
            other: Key = ("precedent", precedent.uid)
            if other != key and self._dated_ok(precedent.date):
                steps.append(_Step(other, key, other, "CITES", int(precedent.count)))
        if cited_by is not None:
            for citing in self.store.rows(cited_by, uid=uid):
                other = _owner_key(citing.label, citing.uid)
                if other != key and self._dated_ok(citing.date):
                    steps.append(_Step(other, other, key, "CITES", int(citing.count)))
        return steps


# -- the walk ---------------------------------------------------------------------------------------------------
def neighbourhood(store: GraphStore, start_uid: str, depth: int, *, as_of: AsOf = ANY_WORDING,
                  max_nodes: int = DEFAULT_MAX_NODES) -> Neighbourhood:
    """The document-level citation neighbourhood of `start_uid` (a precedent, document or clause uid; a clause
    stands for its article), `depth` steps in both directions, at most `max_nodes` nodes."""
    day = day_filter(as_of)  # None from here on: the whole graph
    if depth < 0:
        raise ConfigurationError(f"depth must be 0 or more, not {depth}")
    if max_nodes < 1:
        raise ConfigurationError(f"max_nodes must be at least 1, not {max_nodes}")
    start, pinned = _locate(store, start_uid)
    walker = _Walker(store, day)
    distance: dict[Key, int] = {start: 0}
    weights: dict[tuple[Key, Key, str], int] = {}
    frontier = [start]
    cut, cut_at = 0, None
    expanded: set[Key] = set()

    def record(step: _Step) -> None:
        edge = (step.source, step.target, step.type)
        weights[edge] = max(weights.get(edge, 0), step.count)

    for level in range(1, depth + 1):
        reached: dict[Key, int] = defaultdict(int)
        steps: list[_Step] = []
        for key in frontier:
            expanded.add(key)
            for step in walker.expand(key):
                steps.append(step)
                if step.other not in distance:
                    reached[step.other] += step.count
        room = max_nodes - len(distance)
        ranked = sorted(reached, key=lambda k: (-reached[k], k))
        kept = ranked[:room]
        if len(ranked) > room:
            cut, cut_at = len(ranked) - room, level
        for key in kept:
            distance[key] = level
        for step in steps:
            if step.other in distance:
                record(step)
        frontier = kept
        if cut or not frontier:
            break
    # The nodes on the outer ring were not expanded: read them once more for the edges among kept nodes.
    for key in [k for k in distance if k not in expanded]:
        for step in walker.expand(key):
            if step.other in distance:
                record(step)

    nodes = _describe(store, distance, pinned, day, walker.revisions)
    uid_of = {key: node.uid for key, node in nodes.items()}
    ordered = sorted(nodes.values(), key=lambda n: (n.distance, NODE_KINDS.index(n.kind), n.caption, n.uid))
    edges = sorted((GraphEdge(uid_of[s], uid_of[t], kind, count) for (s, t, kind), count in weights.items()),
                   key=lambda e: (e.source, e.target, e.type))
    return Neighbourhood(start=uid_of[start], depth=depth, as_of=day, max_nodes=max_nodes, nodes=tuple(ordered),
                         edges=tuple(edges), cut=cut, cut_at=cut_at)


def _locate(store: GraphStore, uid: str) -> tuple[Key, str | None]:
    """The walk's key for a stored uid, and the clause wording to show when the uid names an article's wording."""
    if store.rows(GRAPH_PRECEDENTS, uids=[uid]):
        return ("precedent", uid), None
    if store.rows(GRAPH_DOCUMENTS, uids=[uid]):
        return ("document", uid), None
    rows = store.rows(GRAPH_PROVISION, uid=uid)
    if rows:
        row = rows[0]
        article = article_path(row.path)
        return ("article", row.law_id, article), uid if article == row.path else None
    if store.rows(LAW_BY_ID, law_id=uid):  # a law id: the law as a whole, and what cites it so
        return ("whole_law", uid), None
    raise NodeNotFound(f"no precedent, document, clause or law with uid {uid!r} in the store")


# -- captions ---------------------------------------------------------------------------------------------------
_ARTICLE_BATCH = 48  # articles whose periods one query reads (ClauseSpans.read)


def _describe(store: GraphStore, distance: dict[Key, int], pinned: str | None,
              as_of: date | None, revisions: ClauseSpans) -> dict[Key, GraphNode]:
    nodes: dict[Key, GraphNode] = {}
    precedents = [k[1] for k in distance if k[0] == "precedent"]
    for precedent in store.rows(GRAPH_PRECEDENTS, uids=precedents) if precedents else []:
        key: Key = ("precedent", precedent.uid)
        fields = precedent._asdict()
        props = {k: v for k, v in fields.items() if v is not None and k != "uid"}
        nodes[key] = GraphNode(precedent.uid, "stub" if precedent.stub else "precedent", precedent_caption(fields),
                               distance[key], props)
    documents = [k[1] for k in distance if k[0] == "document"]
    for document in store.rows(GRAPH_DOCUMENTS, uids=documents) if documents else []:
        key = ("document", document.uid)
        kind = document.kind if document.kind in ("book", "guideline") else "other"
        props = {k: v for k, v in document._asdict().items() if v is not None and k != "uid"}
        nodes[key] = GraphNode(document.uid, kind, document.title or document.uid, distance[key], props)
    articles = [k for k in distance if k[0] == "article"]
    if articles:
        laws = {law.law_id: law for law in store.rows(LAWS_ALL)}
        wordings: dict[Key, list[ClauseTextRow]] = defaultdict(list)
        # one law at a time, through its versions: one query for many laws' paths read every such path of every
        # law with its text, and the articles around a clause cited from all over the archive filled a 64 MiB pool
        by_law: dict[str, list[str]] = defaultdict(list)
        for key in articles:
            by_law[key[1]].append(key[2])
        for law_id, paths in by_law.items():
            for wording in store.rows(GRAPH_ARTICLES_OF_LAW, law_id=law_id, paths=sorted(paths)):
                key = ("article", wording.law_id, wording.path)
                if key in distance:
                    wordings[key].append(wording)
        for start in range(0, len(articles), _ARTICLE_BATCH):  # their periods, a query a batch, not one each
            revisions.read([(k[1], k[2]) for k in articles[start:start + _ARTICLE_BATCH]])
        for key in articles:
            answer = revisions.wording_on(key[1], key[2], as_of_day(as_of))
            nodes[key] = _article_node(key, wordings.get(key, []), laws.get(key[1]), distance[key], pinned, as_of,
                                       answer)
    whole = [k for k in distance if k[0] == "whole_law"]
    if whole:
        titles = {law.law_id: law for law in store.rows(LAWS_ALL)}
        for key in whole:
            law = titles.get(key[1])
            title = (law.title if law is not None else None) or key[1]
            props = {"law_id": key[1], "law_title": title}
            if law is not None and law.law_num:
                props["law_num"] = law.law_num
            nodes[key] = GraphNode(key[1], "whole_law", title, distance[key], props)
    missing = [k for k in distance if k not in nodes]
    for key in missing:  # a node deleted between the walk and now: keep the edges drawable
        nodes[key] = GraphNode(key[-1], "other", key[-1], distance[key], {})
    return nodes


def _article_node(key: Key, wordings: list[ClauseTextRow], law: LawsAllRow | None, dist: int,
                  pinned: str | None, as_of: date | None, answer: Answer) -> GraphNode:
    """An article's node: the wording the in-force decision gives for the day (or the one pinned), with
    ``in_force`` True only for a wording known in force then, and ``status`` / ``reason`` otherwise."""
    _, law_id, path = key
    wordings.sort(key=lambda r: (r.valid_from or date.min, r.uid))
    decided = answer.uid if isinstance(answer, InForce) else \
        answer.last_known.uid if isinstance(answer, Unknown) and answer.last_known is not None else None
    chosen = (next((w for w in wordings if w.uid == pinned), None)
              or next((w for w in wordings if w.uid == decided), None)
              or (wordings[-1] if wordings else None))
    law_title = (law.title if law is not None else None) or law_id
    props: dict[str, Any] = {"law_id": law_id, "law_title": law_title, "path": path}
    if chosen is None:
        return GraphNode(f"{law_id}/{path}", "law", f"{law_title} {path}", dist, props)
    fields = chosen._asdict()
    props.update({k: fields[k] for k in ("kind", "title", "caption", "text", "valid_from", "valid_until")
                  if fields[k] is not None})
    props["in_force"] = isinstance(answer, InForce) and answer.uid == chosen.uid
    props["status"] = "in_force" if props["in_force"] else "unknown" if isinstance(answer, Unknown) else \
        "not_in_force" if not isinstance(answer, InForce) else "other_wording"
    if not isinstance(answer, InForce):
        props["reason"] = answer.reason
    if len(wordings) > 1:
        props["wordings"] = [w.uid for w in wordings]
    return GraphNode(chosen.uid, "law", article_caption(_short_law_title(law, law_title), path,
                                                         chosen.title or ""), dist, props)


def _short_law_title(law: LawsAllRow | None, title: str) -> str:
    """The title, or for a long one its shortest 略称 (個人情報の保護に関する法律 → 個人情報保護法)."""
    aliases = [a for a in (law.aliases if law is not None else None) or [] if len(a) >= 4]
    return min(aliases, key=len) if len(title) > 10 and aliases else title


def article_caption(law_title: str, path: str, title: str) -> str:
    """民法 第七百九条; a supplementary provision's article reads 民法 附則第四条."""
    label = title or path
    if path.startswith("suppl"):
        label = f"附則{label}"
    return f"{law_title} {label}"


# -- NODE strings -----------------------------------------------------------------------------------------------
_CLAUSE_START = re.compile(r"第|[0-9０-９]")
_UID_PREFIXES = ("hanrei:", "cite:", "doc:")


def resolve_node(store: GraphStore, text: str, *, as_of: date | None = None, catalog: Catalog | None = None) -> str:
    """The uid a user's NODE string means: a uid (hanrei:91244, cite:…, doc:…, a clause uid), a lawsuit id
    (91244), a law and clause in force on `as_of` (default today: 民法 第七百九条, 民法709条), a case number or a
    landmark's name. Raises a `NotFound` saying what was tried."""
    key = text.strip()
    if not key:
        raise NodeNotFound("give a node: a uid (hanrei:91244, doc:…), a lawsuit id (91244) or a law and clause "
                           "(民法 第七百九条)")
    try:
        _locate(store, key)
        return key
    except NodeNotFound:
        pass
    if key.startswith(_UID_PREFIXES):
        raise NodeNotFound(f"no precedent or document with uid {key!r} in the store")
    if key.isdigit():
        uid = f"hanrei:{int(key)}"
        if store.rows(GRAPH_PRECEDENTS, uids=[uid]):
            return uid
        raise NodeNotFound(f"no precedent with lawsuit id {key} ({uid}) in the store")
    law_error: NotFound | None = None
    for law_name, clause in _law_and_clause(key):
        try:
            law = resolve_law(store, law_name, catalog)
        except LawNotFound as error:
            if " " in key or "\u3000" in key:  # written as "LAW CLAUSE": the law is what was not found
                law_error = law_error or error
            continue
        return provision_as_of(store, law, clause, as_of_day(as_of)).provision.uid
    from lexgraph.documents.judgment import load_landmarks
    from lexgraph.errors import PrecedentNotFound
    from lexgraph.read.documents import find_precedent

    landmarks = {m.name: m for m in load_landmarks(str(resources.files("lexgraph") / "data" / "landmarks.csv"))}
    try:
        return str(find_precedent(store, key, landmarks).uid)
    except PrecedentNotFound:
        pass
    try:  # a law's name alone: the law as a whole, and what cites it so
        return resolve_law(store, key, catalog).law_id
    except LawNotFound:
        pass
    if law_error is not None:
        raise NodeNotFound(f"no node {text!r}: {law_error}")
    raise NodeNotFound(f"no node {text!r} in the store: give a uid (hanrei:91244, doc:…, a clause uid), a lawsuit "
                       "id (91244), a law and clause (民法 第七百九条), a law (行政手続法) or a case number")


def _law_and_clause(text: str) -> list[tuple[str, str]]:
    """The ways to split 「民法 第七百九条」 or 「民法第七百九条」 into a law and a clause, most likely first."""
    parts = text.split(maxsplit=1)
    if len(parts) == 2:
        return [(parts[0], "".join(parts[1].split()))]
    return [(text[: m.start()], text[m.start():]) for m in _CLAUSE_START.finditer(text) if m.start() > 0]


def _plain(value: Any) -> Any:
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
