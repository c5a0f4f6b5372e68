"""How often each BM25 term occurs in each indexed law, and in all of them: the statistics of the law-level language
model that `lexgraph.retrieve.law_prior` scores a question against.

Why per law: a clause's words cannot tell 刑事訴訟法 第四百五条 (上告の理由 of a criminal appeal, no caption) from
民事訴訟法 第三百十二条 (captioned 上告の理由), but the law's words can: 弁護人 is in 254 clauses of the one and 1 of
the other. The counts are taken from the same Sudachi tokens BM25 indexes (heading and text of every indexed clause,
every wording), when `lexgraph index` builds a law's part, and stored with the part: a file beside it in the
embedded index, properties of its ``IndexPart`` node in Neo4j.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class TermCounts:
    """Occurrences of some terms (``counts``) in a body of text of ``total`` tokens."""

    counts: Mapping[str, int] = field(default_factory=dict)
    total: int = 0


@dataclass(frozen=True)
class LawVocabulary:
    """What an index knows of some query terms: their counts in each indexed law, and in the whole collection of
    indexed laws (the background a law's counts are smoothed with). A law none of the terms occurs in is in
    ``laws`` with empty counts, so that its total is known."""

    laws: Mapping[str, TermCounts]
    collection: TermCounts


def count_terms(token_strings: Iterable[str]) -> TermCounts:
    """The term counts of a law's clauses, from their space-separated token strings (as the index stores them)."""
    counts: Counter[str] = Counter()
    for tokens in token_strings:
        counts.update(tokens.split())
    return TermCounts(dict(counts), sum(counts.values()))


def collection_of(by_law: Mapping[str, TermCounts]) -> TermCounts:
    """Every law's counts summed: the background of the laws' language models."""
    collection: Counter[str] = Counter()
    for counted in by_law.values():
        collection.update(counted.counts)
    return TermCounts(dict(collection), sum(c.total for c in by_law.values()))


def vocabulary_of(by_law: Mapping[str, TermCounts], collection: TermCounts, terms: Iterable[str],
                  laws: Iterable[str]) -> LawVocabulary:
    """The counts of ``terms`` in each of ``laws`` that ``by_law`` knows, and in the collection."""
    wanted = list(dict.fromkeys(terms))
    return LawVocabulary(
        {law: TermCounts({t: c for t in wanted if (c := by_law[law].counts.get(t, 0))}, by_law[law].total)
         for law in dict.fromkeys(laws) if law in by_law},
        TermCounts({t: c for t in wanted if (c := collection.counts.get(t, 0))}, collection.total))


class LawTermsReader:
    """An open index's law term counts, read lazily and kept: the collection's once, a law's the first time it is
    asked for. Each backend gives the two readers (`read_laws` returns the counts of the laws it has, leaving out
    a law whose part has none)."""

    def __init__(self, read_collection: Callable[[], TermCounts],
                 read_laws: Callable[[Sequence[str]], Mapping[str, TermCounts]]) -> None:
        self._read_collection = read_collection
        self._read_laws = read_laws
        self._collection: TermCounts | None = None
        self._laws: dict[str, TermCounts] = {}
        self._asked: set[str] = set()

    def vocabulary(self, terms: Sequence[str], laws: Iterable[str]) -> LawVocabulary:
        laws = list(dict.fromkeys(laws))
        if self._collection is None:
            self._collection = self._read_collection()
        wanted = [law for law in laws if law not in self._asked]
        if wanted:
            self._laws.update(self._read_laws(wanted))
            self._asked.update(wanted)
        return vocabulary_of(self._laws, self._collection, terms, laws)
