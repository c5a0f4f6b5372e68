"""What the search indexes hold: one `IndexUnit` per searchable passage, read from the graph.

The units are the graph's own text, so the indexes can be rebuilt from the graph at any time:
- **clauses**: every stored wording of each paragraph, and of each article that has no paragraphs. A paragraph is
  the unit because it is what a question's answer lives in, and it holds its items' text; an article is its
  paragraphs joined, so indexing both would rank the same words twice. Article-level results come from the
  paragraphs' article (``a709/p1`` → ``a709``).
- **chunks** of judgments, books and guidelines, with the laws they cite, so that a search restricted to a law
  finds the literature about it.

Units are grouped into *parts*: one per law (``law:<law_id>``) and one for all chunks (``chunks``). A part is the
unit of refreshing: `lexgraph index --law 民法` rebuilds one part, and `doctor` compares each part's fingerprint
with the graph's current state to say which parts are stale.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal

from lexgraph.index.tokenize import TOKENIZER_VERSION
from lexgraph.numerals import clause_label, int_to_kanji
from lexgraph.statutes.timeline import parent_path
from lexgraph.store.base import GraphStore
from lexgraph.store.rows import (
    INDEX_CHUNK_LAWS,
    INDEX_CHUNK_STATE,
    INDEX_DOCUMENT_CHUNKS,
    INDEX_LAW_PROVISIONS,
    INDEX_LAW_STATE,
    INDEX_PRECEDENT_CHUNKS,
    LAWS_ALL,
    ChunkUnitRow,
    ClauseTextRow,
)

#: Bump when what a unit holds, or the text it is searched by, or what a part stores with it changes: every part
#: becomes stale. 3: a law's part stores its term counts (`law_terms`).
UNIT_FORMAT = 3
CHUNKS_PART = "chunks"
LAW_PART_PREFIX = "law:"
#: Characters of a unit's text the dense model sees. e5-small reads 512 tokens at most and embeds longer text in
#: averaged windows; a clause's opening states its rule, and the cost of embedding grows with length (4 texts/s
#: for whole clauses against 10/s for 256 characters on this machine), so passages are cut here. BM25 reads all.
DENSE_MAX_CHARS = 320
#: Where a 附則 clause's path starts (``suppl…/a3/p1``): the amending acts' transitional provisions a law carries.
SUPPL_PREFIX = "suppl"

UnitKind = Literal["provision", "chunk"]
UNIT_KINDS: tuple[UnitKind, ...] = ("provision", "chunk")
"""What is indexed and searched: clauses of laws, and chunks of judgments, books and guidelines."""


_PARAGRAPH_IN_DIGITS = re.compile(r"第([0-9]+)項")  # the only digits `_clause_title` writes; e-Gov headings are kanji


@dataclass(frozen=True)
class CitedTarget:
    """A clause or precedent a chunk cites, as the query ``chunks_citations`` reads it: what a search's evidence is
    ranked from (`lexgraph.retrieve.search`)."""

    target: str  # the clause wording's or the precedent's uid
    label: str  # Provision | Precedent
    law_id: str  # a clause's law; "" for a precedent
    path: str  # a clause's path; "" for a precedent


@dataclass(frozen=True)
class IndexUnit:
    """One searchable passage: a clause wording or a chunk, with the fields searches filter on.

    ``valid_from``/``valid_until`` bound when a clause wording was in force (``None``: unknown start, or still in
    force); a chunk is valid from its document's date. ``laws`` are the laws a unit belongs to or cites.
    """

    uid: str
    label: str  # "Provision" or "Chunk"
    part: str
    law_id: str  # a clause's law; "" for a chunk
    laws: tuple[str, ...]
    path: str  # a clause's path (a709/p1); a chunk's section
    title: str  # as indexed: 民法 第七百九条第1項（不法行為による損害賠償）, or the judgment's case name
    text: str
    owner_uid: str  # the law id, or the precedent / document the chunk is part of
    owner_kind: str  # law, precedent, book, guideline, other
    valid_from: date | None
    valid_until: date | None
    #: What a chunk cites, when the index read it together with the chunk (Neo4j's search query does: one round
    #: trip fewer a search); None when it was not read (a clause, the embedded index): ask the store.
    cites: tuple[CitedTarget, ...] | None = field(default=None, compare=False, repr=False)

    @property
    def shown_title(self) -> str:
        """The title as a lawyer writes it, for every human output: 民法 第七百九条第一項（不法行為による損害賠償）.
        The indexed title keeps the paragraph number in digits: the BM25 documents, the embeddings and the
        indexes' fingerprints were built on it, and changing it would re-embed every clause of every store."""
        if self.label != "Provision":
            return self.title
        shown = _PARAGRAPH_IN_DIGITS.sub(lambda m: f"第{int_to_kanji(int(m[1]))}項", self.title, count=1)
        if self.path.startswith("suppl"):  # which of the law's 附則: the amending law's, with its date
            shown = shown.replace("附則 ", supplement_label(self.path), 1)
        return shown

    @property
    def search_text(self) -> str:
        """What BM25 tokenises: the heading (caption, case name) and the text."""
        return f"{self.title}\n{self.text}"

    def in_force_on(self, day: date) -> bool:
        """A clause in force on ``day`` (an unknown start counts as in force: the snapshot is the only wording the
        store has); a chunk whose document existed on ``day``."""
        return (self.valid_from is None or self.valid_from <= day) and (
            self.valid_until is None or day < self.valid_until)


def supplement_label(path: str) -> str:
    """Which 附則 a clause path is in, as a lawyer names it: 附則（平成30年6月20日法律第59号）, the amending law's
    number and date, or 附則（制定時） for the 附則 the law was enacted with. A law carries the 附則 of every law
    that amended it, dozens for 民法, so "附則 第二条" alone does not say which clause is meant."""
    label = clause_label(path.split("/", 1)[0])
    return "附則（制定時）" if label == "附則" else label


def clause_caption(path: str) -> str:
    """`clause_label`, with the 附則 named as `supplement_label` names it: 附則（制定時）第二条第二項."""
    label = clause_label(path)
    if path.startswith("suppl") and label.startswith("附則") and not label.startswith("附則（"):
        return supplement_label(path) + label[len("附則"):]
    return label


def dense_text(unit: IndexUnit, law_title: str = "") -> str:
    """What the dense model embeds: a clause's heading without its law's title, then its text, cut at
    `DENSE_MAX_CHARS`; a chunk's case name or title, then its text.

    The law's title is left to BM25 (and to the law filter): a long one (医薬品、医療機器等の品質、有効性及び
    安全性の確保等に関する法律, 32 characters) would fill a tenth of every clause's window with the same words
    and make the law's clauses alike. Measured on lawqa_jp (bench/retrieval_lawqa.py): dense article Recall@10
    0.647 → 0.740, MRR 0.618 → 0.700."""
    title = unit.title
    if unit.label == "Provision" and law_title and title.startswith(law_title):
        title = title[len(law_title):].lstrip()
    return f"{title}\n{unit.text}"[:DENSE_MAX_CHARS]


def has_vector(unit: IndexUnit, suppl_vectors: bool) -> bool:
    """Whether the dense index holds a vector of `unit`: every unit, unless 附則 clauses are left out
    (``suppl_vectors`` false, the default of a new index).

    Why 附則 are left out: they are 261,547 of the whole archive's 707,593 clauses (37 %), most of them the
    amending acts' transitional provisions (経過措置), alike from law to law; no question of either benchmark has
    one as its answer, and in the dense list they are distractors. Many repeat from law to law, so leaving them
    out embeds 21 % fewer distinct texts and takes 17-23 % less time, with no retrieval figure moved beyond chance
    (docs/search.md, "The whole archive"). BM25 and the anchors still find them; a question about a 経過措置 is
    found by its words only."""
    return suppl_vectors or unit.label != "Provision" or not unit.path.startswith(SUPPL_PREFIX)


def natural_path(path: str) -> tuple[tuple[int, str], ...]:
    """a6_2/p10 after a6_2/p2: numbers compare as numbers."""
    return tuple((int(n) if n.isdigit() else -1, n) for n in re.split(r"[/_]|(?<=[a-z])(?=\d)", path) if n)


def article_path(path: str) -> str:
    """The article a clause belongs to: ``a709/p1`` → ``a709``; a supplementary provision keeps its prefix
    (``suppl…/a3/p1`` → ``suppl…/a3``)."""
    parts = path.split("/")
    return "/".join(parts[:2]) if parts[0].startswith("suppl") else parts[0]


def law_part(law_id: str) -> str:
    return f"{LAW_PART_PREFIX}{law_id}"


def part_law_id(part: str) -> str | None:
    return part[len(LAW_PART_PREFIX):] if part.startswith(LAW_PART_PREFIX) else None


def part_fingerprints(store: GraphStore) -> dict[str, str]:
    """Each part's fingerprint as the graph stands now. A part whose stored fingerprint differs is stale."""
    by_law: dict[str, list[str]] = {}
    for row in store.rows(INDEX_LAW_STATE):
        # known_until only when set, so that laws without a gap keep the fingerprints they had before it existed
        known = f"@{row.known_until}" if row.known_until else ""
        by_law.setdefault(row.law_id, [f"title={row.title}"]).append(f"{row.revision_id}={row.content_hash}{known}")
    fingerprints = {law_part(law_id): _digest(items) for law_id, items in by_law.items()}
    owners = sorted(f"{owner.owner_uid}={owner.owner_hash}" for owner in store.rows(INDEX_CHUNK_STATE))
    if owners:
        fingerprints[CHUNKS_PART] = _digest(owners)
    return fingerprints


def _digest(items: Iterable[str]) -> str:
    h = hashlib.sha256(f"units={UNIT_FORMAT};tokens={TOKENIZER_VERSION}".encode())
    for item in items:
        h.update(b"\x00" + item.encode())
    return h.hexdigest()[:24]


def law_units(store: GraphStore, law_id: str, law_title: str) -> list[IndexUnit]:
    """The searchable clauses of one law: paragraphs, and articles without paragraphs, in every stored wording."""
    rows = store.rows(INDEX_LAW_PROVISIONS, law_id=law_id)
    articles_with_paragraphs = {_parent_path(r.path) for r in rows if r.kind == "paragraph"}
    articles: dict[str, list[ClauseTextRow]] = {}
    for r in sorted(rows, key=_newest_first, reverse=True):
        if r.kind == "article":
            articles.setdefault(r.path, []).append(r)
    units = []
    for row in rows:
        text = row.text or ""
        if not text.strip():
            continue
        if (row.kind == "article" and row.path in articles_with_paragraphs) or row.kind == "division":
            continue  # a division's text is its title (第三章　債権), which its articles' headings already carry
        article = row if row.kind == "article" else _article_of(articles.get(_parent_path(row.path), []), row)
        units.append(IndexUnit(
            uid=row.uid, label="Provision", part=law_part(law_id), law_id=law_id, laws=(law_id,),
            path=row.path, title=_clause_title(law_title, row, article), text=text, owner_uid=law_id,
            owner_kind="law", valid_from=row.valid_from, valid_until=row.valid_until,
        ))
    units.sort(key=lambda u: u.uid)
    return units


def _article_of(wordings: list[ClauseTextRow], paragraph: ClauseTextRow) -> ClauseTextRow:
    """The article wording in force when the paragraph wording began, so that a paragraph's heading (caption)
    does not change when a later version of the law arrives: its indexed text, and its cached vector, stay put."""
    start = paragraph.valid_from
    for article in wordings:
        begins, ends = article.valid_from, article.valid_until
        if (begins is None or start is None or begins <= start) and (ends is None or start is None or start < ends):
            return article
    return wordings[0] if wordings else paragraph


def _newest_first(row: ClauseTextRow) -> tuple[bool, date]:
    start = row.valid_from
    return (start is not None, start or date.min)


def _parent_path(path: str) -> str:
    return parent_path(path) or path


_PRINTED_NUMBER = re.compile(r"^([○◯]?[0-9０-９]+)\u3000")  # e-Gov prints ２, or ○２ in old 附則


def _clause_title(law_title: str, row: ClauseTextRow, article: ClauseTextRow) -> str:
    heading = article.title or ""
    if article.kind == "paragraph":
        # A paragraph with no article of its own (附則 １): headed, as always, by the number e-Gov prints before its
        # text, not by its title (第一項), so that its indexed text and cached vector stay put.
        printed = _PRINTED_NUMBER.match(article.text or "")
        heading = printed[1] if printed else ""
    if row.kind == "paragraph":
        paragraph = row.path.rsplit("/", 1)[-1]
        if paragraph.startswith("p") and paragraph[1:].isdigit():
            heading += f"第{paragraph[1:]}項"
    if row.path.startswith("suppl"):
        heading = f"附則 {heading}"
    caption = article.caption or ""
    return f"{law_title} {heading}{caption}".strip()


def chunk_units(store: GraphStore) -> list[IndexUnit]:
    """Every chunk of every judgment, book and guideline, with the laws it cites."""
    laws: dict[str, set[str]] = {}
    for cited in store.rows(INDEX_CHUNK_LAWS):
        laws.setdefault(cited.uid, set()).add(cited.law_id)
    units = [
        IndexUnit(
            uid=row.uid, label="Chunk", part=CHUNKS_PART, law_id="", laws=tuple(sorted(laws.get(row.uid, ()))),
            path=row.section or "", title=row.owner_title or row.owner_uid, text=row.text or "",
            owner_uid=row.owner_uid, owner_kind=row.owner_kind or "other", valid_from=row.day,
            valid_until=None,
        )
        for row in _chunk_rows(store)
        if (row.text or "").strip()
    ]
    units.sort(key=lambda u: u.uid)
    return units


def _chunk_rows(store: GraphStore) -> Iterator[ChunkUnitRow]:
    yield from store.rows(INDEX_PRECEDENT_CHUNKS)
    yield from store.rows(INDEX_DOCUMENT_CHUNKS)


def law_titles(store: GraphStore) -> Mapping[str, str]:
    return {row.law_id: row.title or row.law_id for row in store.rows(LAWS_ALL)}


def unit_row(unit: IndexUnit) -> dict[str, Any]:
    """A unit as a flat record for the part files."""
    return {
        "uid": unit.uid, "label": unit.label, "part": unit.part, "law_id": unit.law_id, "laws": list(unit.laws),
        "path": unit.path, "title": unit.title, "text": unit.text, "owner_uid": unit.owner_uid,
        "owner_kind": unit.owner_kind, "valid_from": unit.valid_from, "valid_until": unit.valid_until,
    }


def unit_from_row(row: Mapping[str, Any]) -> IndexUnit:
    return IndexUnit(
        uid=row["uid"], label=row["label"], part=row["part"], law_id=row["law_id"], laws=tuple(row["laws"] or ()),
        path=row["path"], title=row["title"], text=row["text"], owner_uid=row["owner_uid"],
        owner_kind=row["owner_kind"], valid_from=row["valid_from"], valid_until=row["valid_until"],
    )
