"""The abbreviations a text defines (以下「振興会法」という), indexed so that looking them up costs the same however
many there are.

A judgment defines a handful of terms, but a long input (a year of judgments given to ``lexgraph cite`` at once)
defines thousands, and every clause anchor asks "does a defined term end here?" and every occurrence of a term
is a mention. Scanning the list of definitions per anchor, or the text once per term, made the extractor
quadratic; here a lookup is one dictionary probe per term length, and the occurrences of all terms come from one
regular-expression pass over the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

_ALWAYS = -1  # defined before the text starts (carried over from the text read before)


class DefinedTerms:
    """Terms and the offset from which each takes effect (the earliest of its definitions)."""

    def __init__(self, carried: Iterable[str] = ()) -> None:
        self._effective: dict[str, int] = {}
        self._lengths: dict[str, list[int]] = {}  # by last character: the terms' lengths, longest first
        self._patterns: dict[str | None, re.Pattern[str]] = {}  # by `occurrences`' single_before
        for term in carried:
            self.add(_ALWAYS, term)

    def add(self, effective: int, term: str) -> None:
        known = self._effective.get(term)
        if known is not None and known <= effective:
            return
        self._effective[term] = effective
        lengths = self._lengths.setdefault(term[-1], [])
        if len(term) not in lengths:
            lengths.append(len(term))
            lengths.sort(reverse=True)
        self._patterns.clear()

    def __contains__(self, term: object) -> bool:
        return term in self._effective

    def __bool__(self) -> bool:
        return bool(self._effective)

    def longest_ending_at(self, text: str, end: int) -> int | None:
        """The start of the longest term that ends at `end` and starts where it is already defined."""
        if end <= 0:
            return None
        for length in self._lengths.get(text[end - 1], ()):
            start = end - length
            if start < 0:
                continue
            effective = self._effective.get(text[start:end])
            if effective is not None and effective <= start:
                return start
        return None

    def occurrences(self, text: str, single_before: str | None = None) -> Iterator[tuple[int, str]]:
        """(position, term) of every occurrence of every term at or after where it takes effect, overlapping ones
        included (本件条例 and the 条例 inside it), by position; one term's occurrences never overlap each other
        (as `str.find` reads them). With `single_before`, a one-character term occurs only where one of those
        characters follows it: a caller that wants no other (法は, 法の) says so, since such a term (法) is in
        thousands of words of a long text, and each was a turn of this loop."""
        if not self._effective:
            return
        pattern = self._patterns.get(single_before)
        if pattern is None:
            after = f"(?=[{''.join(map(re.escape, single_before))}])" if single_before else ""
            alternatives = "|".join(re.escape(t) + (after if len(t) == 1 else "")
                                    for t in sorted(self._effective, key=len, reverse=True))
            # Every alternative starts with a literal: the engine skips straight to the candidates.
            pattern = self._patterns[single_before] = re.compile(alternatives)
        by_first: dict[str, list[str]] = {}
        for term in self._effective:
            by_first.setdefault(term[0], []).append(term)
        ends: dict[str, int] = {}
        search = pattern.search
        end = len(text)
        match = search(text)
        while match is not None:
            position = match.start()
            match = search(text, position + 1)
            for term in by_first[text[position]]:
                if (text.startswith(term, position) and self._effective[term] <= position
                        and ends.get(term, -1) <= position
                        and (single_before is None or len(term) > 1
                             or (position + 1 < end and text[position + 1] in single_before))):
                    ends[term] = position + len(term)
                    yield position, term
