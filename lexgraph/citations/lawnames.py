"""Longest-match lookup of catalogue law names, built once per catalogue.

The extractor asks one question many times per document: "does a law name end exactly here, and where does it
start?" (the text just before 第七百九条, or before the bracket of 「…法律（平成十五年法律第五十七号）」). Names are
indexed by their last two characters, so a position where no name can end costs one dict lookup, and only the
handful of lengths seen with those two characters are tried. A regex alternation of 15,000 names or a character
trie would cost far more to build, and memory for nothing: most positions are rejected by the first lookup.

The index is cached per `Catalog` instance (weakly, so a catalogue that is dropped takes its index with it), and
the bundled catalogue's in the user's cache folder too, read back in a third of the time it takes to build.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from lexgraph.statutes.catalog import Catalog, derived_from_bundled, joined_column, split_column

# A title that itself contains a clause reference (金融商品取引法第二条に規定する定義に関する内閣府令): the
# extractor must not read 金融商品取引法第二条 inside it as a citation.
_HAS_REFERENCE = re.compile(r"第?[〇一二三四五六七八九十百千0-9０-９]+[条項号]")
_PREFIX_LENGTH = 4
# The names longer than _PREFIX_LENGTH that _HAS_REFERENCE finds in, as whole lines of the names joined by line
# breaks: 「第?[digits]+[条項号]」 occurs in a name exactly when a digit is followed by 条, 項 or 号.
_REFERENCING_LINE = re.compile(
    rf"^(?=[^\n]{{{_PREFIX_LENGTH + 1}}})[^\n]*?[〇一二三四五六七八九十百千0-9０-９][条項号][^\n]*$", re.MULTILINE)
COMMAS = ("，", ",")  # written for 、 inside law titles


def canonical_commas(name: str) -> str:
    """A law name with the commas some texts write for 、 put back: 「児童買春，児童ポルノ…」 →
    「児童買春、児童ポルノ…」."""
    for comma in COMMAS:
        if comma in name:
            name = name.replace(comma, "、")
    return name

_SOURCE = Path(__file__).read_bytes()  # the builder's version, in the name of the bundled catalogue's index file
_CACHE: weakref.WeakKeyDictionary[Catalog, LawNames] = weakref.WeakKeyDictionary()


class LawNames:
    """Catalogue names (titles, 略称, law numbers) indexed for longest suffix match. Immutable once built."""

    def __init__(self, names: Iterable[str]) -> None:
        given = {n for n in names if n}
        # Judgments write the 読点 of a title as a comma: 「児童買春，児童ポルノに係る行為等の…法律」.
        given |= {n.replace("、", comma) for n in given if "、" in n for comma in COMMAS}
        self._names = frozenset(given)
        # Built in a few passes that run in C (a set of pairs, one regex over all the names joined) rather than a
        # Python loop with a regex search per name: the loop was a tenth of a short `lexgraph cite`.
        lengths: dict[str, list[int]] = {}
        for tail, length in {(name[-2:], len(name)) for name in self._names}:
            lengths.setdefault(tail, []).append(length)
        referencing: dict[str, list[str]] = {}
        for name in _REFERENCING_LINE.findall("\n".join(self._names)):
            referencing.setdefault(name[:_PREFIX_LENGTH], []).append(name)
        self._lengths = {tail: tuple(sorted(ls, reverse=True)) for tail, ls in lengths.items()}
        self._referencing = {head: tuple(sorted(ns, key=len, reverse=True)) for head, ns in referencing.items()}

    @classmethod
    def for_catalog(cls, catalog: Catalog) -> LawNames:
        """The index of `catalog`'s names, built on first use and kept while the catalogue lives; the bundled
        catalogue's is also kept in the user's cache folder beside it (`derived_from_bundled`), keyed by this
        module's source."""
        index = _CACHE.get(catalog)
        if index is None:
            index = derived_from_bundled(catalog, "lawnames", _SOURCE, cls._of_catalog, cls)
            _CACHE[catalog] = index
        return index

    def to_cache(self) -> dict[str, Any]:
        """The index as plain data for the user's cache folder (`from_cache` reads it back)."""
        return {"count": len(self._names), "names": joined_column(sorted(self._names)),
                "lengths": {tail: list(ls) for tail, ls in self._lengths.items()},
                "referencing": {head: list(ns) for head, ns in self._referencing.items()}}

    @classmethod
    def from_cache(cls, data: Any) -> LawNames:
        """The index from `to_cache`'s data, checked: strings where names are, positive lengths; ValueError
        otherwise (the index is then built again)."""
        if type(data) is not dict:
            raise ValueError("not an object")
        count, names, lengths, referencing = (data.get(key) for key in ("count", "names", "lengths", "referencing"))
        if type(count) is not int or type(names) is not str:
            raise ValueError("names is not a column of strings")
        if type(lengths) is not dict or not all(type(ls) is list and all(type(n) is int and n > 0 for n in ls)
                                                for ls in lengths.values()):
            raise ValueError("lengths is not an object of lists of positive integers")
        if type(referencing) is not dict or not all(type(ns) is list and all(type(n) is str for n in ns)
                                                    for ns in referencing.values()):
            raise ValueError("referencing is not an object of lists of strings")
        index = cls.__new__(cls)
        index._names = frozenset(split_column(names, count))
        index._lengths = {tail: tuple(ls) for tail, ls in lengths.items()}
        index._referencing = {head: tuple(ns) for head, ns in referencing.items()}
        return index

    @classmethod
    def _of_catalog(cls, catalog: Catalog) -> LawNames:
        return cls(name for name, _ in catalog.names())

    def __contains__(self, name: object) -> bool:
        return name in self._names

    def __len__(self) -> int:
        return len(self._names)

    def longest_ending_at(self, text: str, end: int, start_limit: int = 0) -> int | None:
        """The start of the longest name that ends at `end` in `text` (and starts at or after `start_limit`),
        or None. Names of one character are not indexed: none is a law."""
        if end - start_limit < 2:
            return None
        lengths = self._lengths.get(text[end - 2:end])
        if lengths is None:
            return None
        names = self._names
        for length in lengths:
            start = end - length
            if start >= start_limit and text[start:end] in names:
                return start
        return None

    def referencing_title_at(self, text: str, start: int) -> int | None:
        """The end of the longest title starting at `start` whose own words contain a clause reference
        (金融商品取引法第二条に規定する定義に関する内閣府令), or None."""
        for name in self._referencing.get(text[start:start + _PREFIX_LENGTH], ()):
            if text.startswith(name, start):
                return start + len(name)
        return None
