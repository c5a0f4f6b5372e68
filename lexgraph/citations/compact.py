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
        """The compact copy of `original`. The copy made last is kept, for the precedent finder that reads the
        same text right after the statute finder (`last_of`)."""
        global _last
        last = _last
        if last is not None and last.original is original:
            return last
        # One split by the regex, which makes no match objects: kept text and removed runs alternate. The offsets
        # follow from their lengths in C-level maps.
        parts = _REMOVED_RUNS.split(original)
        if len(parts) == 1:
            made = cls(original, original, (), ())
        else:
            kept = parts[0::2]
            shifts = tuple(accumulate(map(len, parts[1::2])))
            marks = tuple(accumulate(map(len, kept[:-1])))
            made = cls(original, "".join(kept), marks, shifts)
        _last = made
        return made

    @staticmethod
    def last_of(original: str) -> CompactText | None:
        """The compact copy of this very string (the same object) if it is the one `of` made last, else None.

        Why: ``cite`` reads each piece of text with the statute finder and then the precedent finder, and each took
        the whitespace out of the same megabyte anew (about 5 ms each, a twentieth of ``cite``'s time)."""
        last = _last
        return last if last is not None and last.original is original else None

    @property
    def breaks(self) -> tuple[int, ...]:
        """Compact offsets at which something was removed (a line break, a space, a page number)."""
        return self._marks

    @property
    def shifts(self) -> tuple[int, ...]:
        """How many characters were removed in total before each of `breaks`, in the same order."""
        return self._shifts

    def to_original(self, position: int) -> int:
        """The original offset of the character at compact offset `position`."""
        k = bisect_right(self._marks, position)
        return position + (self._shifts[k - 1] if k else 0)

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original span of compact characters `start` … `end - 1`: it starts at the first of them and ends
        just after the last, so that whitespace around the span is never included."""
        return self.to_original(start), self.to_original(end - 1) + 1


_last: CompactText | None = None  # the copy `CompactText.of` made last (one text: a piece of at most a few MB)
