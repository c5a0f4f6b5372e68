"""Text with its whitespace taken out, and the way back to offsets in the original.

Text extracted from PDFs breaks lines anywhere, also inside a citation (「民法７０\\n９条」), and statutes separate
an article's title from its text with a full-width space. Japanese legal prose has no meaningful whitespace, so the
extractor works on the text with every whitespace run removed, and maps the spans it finds back to the original
text: a citation's `start`/`end` are always offsets into the text the caller gave.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate

# Whitespace, and the page-number lines (「- 12 -」) that PDF extraction leaves in mid-sentence. The pattern starts
# with a single \s (\s\s*, not \s+) so that the regex engine can skip ahead to the next whitespace character: a
# repeat first hides that character from it, and the split then tried the pattern at every position (twice as slow).
_REMOVABLE = re.compile(
    r"\s\s*(?:-[ \t\u3000]*[0-9０-９]{1,4}[ \t\u3000]*-(?=[ \t\u3000\f]*(?:\n|$))\s*)*"
)


_REMOVED_RUNS = re.compile(f"({_REMOVABLE.pattern})")  # the same runs, captured, for re.split


@dataclass(frozen=True)
class CompactText:
    """`text` is `original` without whitespace. `_marks[k]` is a compact offset at which `_shifts[k]` characters
    of whitespace have been removed in total before it."""

    original: str
    text: str
    _marks: tuple[int, ...]
    _shifts: tuple[int, ...]

    @classmethod
    def of(cls, original: str) -> CompactText:
        # One split by the regex, which makes no match objects: kept text and removed runs alternate. The offsets
        # follow from their lengths in C-level maps.
        parts = _REMOVED_RUNS.split(original)
        if len(parts) == 1:
            return cls(original, original, (), ())
        kept = parts[0::2]
        shifts = tuple(accumulate(map(len, parts[1::2])))
        marks = tuple(accumulate(map(len, kept[:-1])))
        return cls(original, "".join(kept), marks, shifts)

    @property
    def breaks(self) -> tuple[int, ...]:
        """Compact offsets at which something was removed (a line break, a space, a page number)."""
        return self._marks

    def to_original(self, position: int) -> int:
        """The original offset of the character at compact offset `position`."""
        k = bisect_right(self._marks, position)
        return position + (self._shifts[k - 1] if k else 0)

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original span of compact characters `start` … `end - 1`: it starts at the first of them and ends
        just after the last, so that whitespace around the span is never included."""
        return self.to_original(start), self.to_original(end - 1) + 1
