"""The search-index contract: text (BM25) and vector search with filters, and what a hit holds.

Two implementations: `local.LocalIndex` (tantivy + numpy/usearch files beside an embedded store) and
`neo4j_index.Neo4jIndex` (Neo4j's native full-text and vector indexes). Retrievers talk only to `SearchIndex`,
as neo4j-graphrag's retrievers talk to one interface whatever the database.

Filters are applied *inside* each ranked list: a search for the top 10 clauses in force on a date returns the 10
best among those clauses, never the survivors of a global top 10.

What an index can do beyond the searches every index runs is declared on `SearchIndex`, never found by looking for
an attribute: its folder (`directory`, None for a server's indexes), the index kinds it lacks and why (`lacks`),
the anchor field's folder (`anchor_directory`), the units' paths held in memory (`columns`, None when units are
read instead) and a key of its content (`content`). A mode that reads a kind an index lacks is refused there, or
ranks as another mode and says so (`retrieve.modes.SearchMode`).
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import cached_property
from pathlib import Path
from typing import Any, Literal, Protocol

import numpy as np

from lexgraph.errors import ConfigurationError, IndexUnavailable
from lexgraph.index.law_terms import LawVocabulary
from lexgraph.index.units import UNIT_KINDS as UNIT_KINDS  # re-exported: what can be searched
from lexgraph.index.units import IndexUnit, UnitKind
from lexgraph.model import ANY_WORDING, AsOf, day_filter

LABELS: dict[UnitKind, str] = {"provision": "Provision", "chunk": "Chunk"}

#: The kinds of index a search mode reads (`retrieve.modes.SearchMode.index`): Sudachi tokens for BM25, passage
#: vectors, the laws' term counts (law-level evidence), the anchor field (the text of the citations pointing at a
#: clause, `index.anchors`). An index says which of them it lacks (`SearchIndex.lacks`).
IndexKind = Literal["bm25", "vectors", "law_terms", "anchors"]


@dataclass(frozen=True)
class SearchFilter:
    """Which units a search may return: in force (clauses) or written (chunks) on ``as_of`` (a day, None for
    today, or `ANY_WORDING`: no date filter); belonging to or citing one of ``laws`` (law ids); of one ``kind``.
    Empty fields do not restrict."""

    as_of: AsOf = ANY_WORDING
    laws: tuple[str, ...] = ()
    kind: UnitKind | None = None

    def __post_init__(self) -> None:
        if self.kind is not None and self.kind not in UNIT_KINDS:
            raise ConfigurationError(f"kind must be one of {', '.join(UNIT_KINDS)}, not {self.kind!r}")

    @property
    def day(self) -> date | None:
        """The day units must be in force or written on; None: any day."""
        return day_filter(self.as_of)

    def to_json(self) -> dict[str, Any]:
        return {"as_of": self.day.isoformat() if self.day else None, "laws": list(self.laws),
                "kind": self.kind}


@dataclass(frozen=True, eq=False)
class IndexHit:
    """One unit found by one index, with that index's score (BM25, or cosine similarity).

    The unit is read on first use (`load`): a hybrid search reads each list 100 deep to fuse them by uid and shows
    the best 10, so reading every hit's text and heading would be most of its time after the embedding."""

    uid: str
    score: float
    load: Callable[[], IndexUnit] = field(repr=False)
    #: The unit if it is in hand without a read (the search query brought it), else None.
    peek: Callable[[], IndexUnit | None] = field(default=lambda: None, repr=False, compare=False)

    @classmethod
    def of(cls, unit: IndexUnit, score: float) -> IndexHit:
        return cls(unit.uid, score, lambda: unit, lambda: unit)

    @cached_property
    def unit(self) -> IndexUnit:
        return self.load()

    def unit_if_read(self) -> IndexUnit | None:
        """The unit when it is already in hand (used before, or brought by the search itself), else None: never
        a read, so that asking costs nothing where the unit would not otherwise be read."""
        return self.__dict__.get("unit") or self.peek()


class UnitBatch:
    """The units behind one search's hits, read when the first of them is used: in one read, every hit of the
    search that is still held (after fusion, the few that are shown), not the hundred each list ranked, and not
    one read per hit. ``read`` maps uids to their units (one query or one index lookup)."""

    def __init__(self, read: Callable[[Sequence[str]], Mapping[str, IndexUnit]]) -> None:
        self._read_units = read
        self._waiting: weakref.WeakSet[IndexHit] = weakref.WeakSet()
        self._read: dict[str, IndexUnit] = {}

    def know(self, units: Iterable[IndexUnit]) -> None:
        """Units the search already read (with its hits): never read again."""
        self._read.update((unit.uid, unit) for unit in units)

    def hits(self, found: Iterable[tuple[str, float]]) -> list[IndexHit]:
        out = [IndexHit(uid, score, functools.partial(self._unit, uid), functools.partial(self._read.get, uid))
               for uid, score in found]
        self._waiting.update(out)
        return out

    def _unit(self, uid: str) -> IndexUnit:
        if uid not in self._read:
            wanted = {hit.uid for hit in self._waiting if hit.uid not in self._read} | {uid}
            self._read.update(self._read_units(sorted(wanted)))
            self._waiting = weakref.WeakSet(h for h in self._waiting if h.uid not in self._read)
        try:
            return self._read[uid]
        except KeyError:
            raise IndexUnavailable(f"{uid} was found by the search index but is no longer in it (a concurrent "
                                   "`lexgraph index`, or a damaged index: `lexgraph index --rebuild`)") from None


class UnitColumns(Protocol):
    """The units' paths as an index holds them in memory (the embedded index's part files): the learned fusion
    reads a law's articles, an article's clauses and every candidate's path from them without reading a unit."""

    def articles_of(self, law_id: str) -> Mapping[str, tuple[int, ...]]:
        """A law's articles (``a709``, ``suppl…/a3``), each with the rows of its units."""
        ...

    def uids_under(self, law_id: str, article: str, where: SearchFilter) -> list[str]:
        """The uids of an article's units that pass the filter, in clause order."""
        ...

    def unit_paths(self, uids: Sequence[str]) -> dict[str, str]:
        """Each uid's path (a uid the index does not hold is left out)."""
        ...


class SearchIndex(Protocol):
    """BM25 over Sudachi tokens and nearest neighbours over unit embeddings, both filtered inside the ranking.

    Each capability that not every index has is declared here with the answer of an index without it (None), so
    that a retriever asks the index what it can do instead of looking for its attributes."""

    embedder_name: str

    @property
    def directory(self) -> Path | None:
        """The folder of the index's files, beside which what is derived from it is kept (the anchor field, saved
        cluster trees); None for an index a server keeps in its database."""
        ...

    def lacks(self, kind: IndexKind) -> str | None:
        """Why the index cannot give `kind` now, saying what to do; None when it can."""
        ...

    def anchor_directory(self) -> Path | None:
        """The folder holding the anchor field's files (`index.anchors`): the index's own folder, or for a server's
        index a local cache of the copy its database keeps, fetched and checked here; None when it has none."""
        ...

    def columns(self) -> UnitColumns | None:
        """The units' paths held in memory (`UnitColumns`), or None when the index reads units instead."""
        ...

    def content(self) -> Mapping[str, Any] | None:
        """What the index was built from, as a cache derived from it is keyed (embedder, dimension, each part's
        fingerprint and rows); None when it keeps no folder for such a cache (`directory` is None)."""
        ...

    def units_by_uid(self, uids: Sequence[str]) -> dict[str, IndexUnit]:
        """The units of some uids, in one read (a uid the index does not hold is left out)."""
        ...

    def text_search(self, tokens: Sequence[str], k: int, where: SearchFilter) -> list[IndexHit]:
        """The ``k`` best units by BM25 for the query's tokens."""
        ...

    def vector_search(self, vector: np.ndarray, k: int, where: SearchFilter) -> list[IndexHit]:
        """The ``k`` units nearest the (unit-length) query vector by cosine similarity."""
        ...

    def hybrid_search(self, tokens: Sequence[str], vector: np.ndarray | None, k: int,
                      where: SearchFilter) -> tuple[list[IndexHit], list[IndexHit]]:
        """`text_search` and `vector_search` together (no vector: no dense list), as a hybrid search fuses them:
        on a server, one round trip instead of two."""
        ...

    def hybrid_search_kinds(self, tokens: Sequence[str], vector: np.ndarray | None, ks: Mapping[UnitKind, int],
                            where: SearchFilter) -> dict[UnitKind, tuple[list[IndexHit], list[IndexHit]]]:
        """`hybrid_search` of each kind in `ks` with its own k (``where.kind`` is not read), as a search reads
        clauses and chunks for one question: on a server, one round trip for all of them."""
        ...

    def vectors_of(self, uids: Sequence[str]) -> dict[str, np.ndarray]:
        """The stored embeddings of some units (the cluster tree needs them)."""
        ...

    def law_vocabulary(self, terms: Sequence[str], laws: Iterable[str]) -> LawVocabulary:
        """The counts of ``terms`` in each of ``laws`` and in all indexed laws (`law_terms`); a law whose part has
        no counts (built before them) is left out."""
        ...

    def units_under(self, law_id: str, path: str, where: SearchFilter) -> list[IndexUnit]:
        """The indexed units of a clause (``a709``: its paragraphs; ``a709/p1``: that paragraph) that pass the
        filter, in clause order."""
        ...

    def close(self) -> None: ...
