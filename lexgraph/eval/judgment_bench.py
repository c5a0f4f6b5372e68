"""A retrieval benchmark built from Supreme Court judgments: a sentence that cites clauses, with its citations
taken out, is the query; the clauses it cited are the gold.

Why this benchmark: lawqa_jp gives 25 scorable questions in the 2020 corpus, so one question moves recall by 0.04
and no retriever setting can be steered by it alone. The judgments at hand (../shared/data/precedents/
supreme_court, 742 files) are real legal prose that no retriever of this project was tuned on, and each citing
sentence says, in the court's words, what the cited clause provides or decides ("…の訴えは…を経た後でなければ
提起することができない（行政事件訴訟法８条１項ただし書）"). The texts hold no 判示事項 / 参照法条 headers (the
PDF extracts start at 主文), so the gold comes from the sentence's own citations, read by `lexgraph.citations`.

Rules, all mechanical (`citing_sentences`, then `select_queries`; nothing is picked by hand):

- a sentence is the text up to a 「。」 outside brackets (`sentence_ends`); it qualifies when it cites at least one
  statute and *every* statute citation in it resolves to a law of the catalogue (the 2020 e-Gov list) and an
  article, without a range or a version note (「…改正前のもの」 names a wording the store may not have), and it
  cites at most `MAX_GOLD` articles;
- the query is the sentence without its citation spans (law name and clause number: the answer must not be in
  the question), without page markers, line breaks and brackets left empty; it must keep 40 to 300 characters
  and no clause number written out in a form the extractor did not read (「…条」 left over);
- gold: the cited articles (``law|a76``) and, where the citation names a paragraph, the paragraphs
  (``law|a8/p1``); an article cited without a paragraph has no paragraph gold;
- at most `PER_JUDGMENT` sentences per judgment, drawn with a seeded generator, so that a long judgment does not
  fill the benchmark with one case;
- the split is by judgment (every query of a judgment in the same half), seeded, one third dev.

What the gold cannot say: a judgment may cite a clause in a wording older than the stored one (a renumbered
article); such a query measures a miss no retriever can avoid. The store's paths are checked by the evaluation
(`ceiling`), and the laws are kept to those the store was built with (see scripts/build_judgment_retrieval.py).
"""

from __future__ import annotations

import hashlib
import random
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lexgraph.citations import Citation, extract
from lexgraph.citations.sentences import sentence_ends, without_citations
from lexgraph.statutes.catalog import Catalog

MAX_GOLD = 3
PER_JUDGMENT = 2
MIN_CHARS, MAX_CHARS = 40, 300
DEV_SHARE = 1 / 3
_LEFTOVER_CLAUSE = re.compile(r"[0-9０-９一二三四五六七八九十百千]+条")


@dataclass(frozen=True)
class CitingSentence:
    """One qualifying sentence: its judgment, its place (character offset), the query and the gold clauses."""

    doc: str
    start: int
    query: str
    articles: tuple[tuple[str, str], ...]  # (law_id, a76), sorted
    paragraphs: tuple[tuple[str, str], ...]  # (law_id, a8/p1), sorted

    @property
    def qid(self) -> str:
        return f"{self.doc}@{self.start}"

    @property
    def laws(self) -> tuple[str, ...]:
        return tuple(sorted({law for law, _ in self.articles}))


def citing_sentences(doc: str, text: str, catalog: Catalog | None = None) -> list[CitingSentence]:
    """Every sentence of one judgment that qualifies (see the module's rules), in text order."""
    catalog = catalog or Catalog.bundled()
    statutes = [c for c in extract(text, precedents=False) if c.kind == "statute"]
    out: list[CitingSentence] = []
    start = 0
    for stop in sentence_ends(text):
        inside = [c for c in statutes if start <= c.start < stop]
        sentence_start, start = start, stop
        if not inside or not all(_usable(c, catalog) for c in inside):
            continue
        articles = sorted({(str(c.law_id), f"a{c.article}") for c in inside})
        if len(articles) > MAX_GOLD:
            continue
        query = without_citations(text, sentence_start, stop, inside)
        if not MIN_CHARS <= len(query) <= MAX_CHARS or _LEFTOVER_CLAUSE.search(query):
            continue
        paragraphs = sorted({(str(c.law_id), f"a{c.article}/p{c.paragraph}") for c in inside if c.paragraph})
        out.append(CitingSentence(doc, sentence_start, query, tuple(articles), tuple(paragraphs)))
    return out


def _usable(citation: Citation, catalog: Catalog) -> bool:
    return (citation.status == "resolved" and bool(citation.law_id) and bool(citation.article)
            and not citation.article_to and not citation.paragraph_to and not citation.version_note
            and catalog.by_id(str(citation.law_id)) is not None)


def law_frequencies(sentences: Iterable[CitingSentence]) -> Counter[str]:
    """How many sentences cite each law (a sentence counts once per law)."""
    return Counter(law for s in sentences for law in s.laws)


def choose_laws(frequencies: Counter[str], sizes: dict[str, int], budget: int) -> list[str]:
    """Laws in order of how often the sentences cite them (ties: law id), each kept if the clauses of the laws kept
    so far plus its own stay within `budget` (the cost of embedding them), skipped otherwise.

    Why a budget and not every law: embedding costs about a second per ten clauses on the reference machine, and
    地方税法 alone has thousands; the most-cited laws give most of the queries for a bounded store."""
    chosen, total = [], 0
    for law, _ in sorted(frequencies.items(), key=lambda item: (-item[1], item[0])):
        size = sizes.get(law)
        if size is None or total + size > budget:
            continue
        chosen.append(law)
        total += size
    return chosen


def select_queries(sentences: Sequence[CitingSentence], laws: Iterable[str], *, seed: int,
                   per_judgment: int = PER_JUDGMENT) -> list[tuple[CitingSentence, str]]:
    """The sentences whose gold laws are all in `laws`, at most `per_judgment` per judgment (drawn with `seed`),
    duplicates of a query text dropped (first by judgment and offset), each with its split (``dev``/``test``),
    in judgment and offset order."""
    allowed = set(laws)
    by_doc: dict[str, list[CitingSentence]] = {}
    seen: set[str] = set()
    for s in sorted(sentences, key=lambda s: (s.doc, s.start)):
        if set(s.laws) <= allowed and s.query not in seen:
            seen.add(s.query)
            by_doc.setdefault(s.doc, []).append(s)
    picked: list[tuple[CitingSentence, str]] = []
    for doc in sorted(by_doc):
        candidates = by_doc[doc]
        drawn = random.Random(f"{seed}:{doc}").sample(candidates, min(per_judgment, len(candidates)))
        split = split_of(doc, seed)
        picked += [(s, split) for s in sorted(drawn, key=lambda s: s.start)]
    return picked


def split_of(doc: str, seed: int) -> str:
    """``dev`` for about `DEV_SHARE` of the judgments, ``test`` for the rest: a hash of the seed and the judgment,
    so that adding judgments never moves one from a half to the other."""
    digest = hashlib.sha256(f"{seed}:{doc}".encode()).digest()
    return "dev" if int.from_bytes(digest[:8], "big") / 2**64 < DEV_SHARE else "test"
