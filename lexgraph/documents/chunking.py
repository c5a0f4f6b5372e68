"""Text → sentences → overlapping chunks, with every chunk's place in the original text.

Chunks are what retrieval ranks and what carries ``CITES`` edges, so two things matter more than anything else:

* A chunk must not cut a sentence: a sentence cut in two loses its subject or its citation. Chunks are packed from
  whole sentences; only a sentence longer than the chunk size is cut, at a 、 where possible.
* A chunk must know where it came from. Citations are extracted from the original text (or from the chunk) and
  have to land on the right chunk, so every :class:`Chunk` carries ``start``/``end`` offsets into the *original*
  text and can map any offset of its own text back (:meth:`Chunk.original_offset`).

Text extracted from PDFs is wrapped at a fixed width, with page numbers (「- 12 -」) and blank lines wherever the
page ended. The reading rules, applied line by line:

* Page-number lines and blank lines are dropped.
* A line break is *joined* (no character; a space between two ASCII letters or digits) when the line before it is
  full, i.e. as wide as the text's typical line (:func:`typical_line_width`), or when the next line starts with a
  character that cannot start a line (、。」） …: the typesetter pushed it down).
* Any other line break ends a sentence and is kept as ``\\n``: after a short line the text was a heading, a list
  item or the end of a paragraph. Text that is not wrapped at a fixed width (one paragraph per line, Markdown)
  has no typical width, and all its line breaks are kept.
* Inside a line, a sentence ends after 。 (or ！？) unless a closing bracket follows (「…する。」と規定し).
  Runs of spaces are collapsed to one.

The text of a chunk is therefore the original text with line breaks joined and page numbers dropped. The contract,
tested on real judgments and by fuzzing: ``visible_text(original, chunk.start, chunk.end)`` equals ``chunk.text``
with its whitespace removed (see :func:`visible_text`).
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from lexgraph.errors import ConfigurationError

DEFAULT_SIZE = 400
DEFAULT_OVERLAP = 80

# A page number on a line of its own: "- 12 -", "-12-", "－ ３ －".
PAGE_MARKER_RE = re.compile(
    r"^[ \t\u3000\f\r\v]*[-－―‐−][ \t\u3000]*[0-9０-９]{1,4}[ \t\u3000]*[-－―‐−][ \t\u3000\f\r\v]*$"
)
_LINE_RE = re.compile(r"[^\n]*\n?")
_WS_RUN_RE = re.compile(r"\s+")
_SENTENCE_END = frozenset("。！？!?")
# Characters that cannot start a line (行頭禁則), so a line starting with one continues the line before. Not ・,
# which 禁則 rules list too but which starts the items of many a list.
_NO_LINE_START = frozenset(
    "、。，．,.）)」』］]｝}〕〉》】ー－ゝゞ々" "ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ" "：；:;！？!?"
)
_HIRAGANA_RE = re.compile(r"[ぁ-ゖ]")
_HIRAGANA_OPENERS = re.compile(
    r"しかし|しかも|しかる|しからば|したが[っつ]て|そして|そこで|その|それ|そう|この|これ|こう|かかる|かつ|かような"
    r"|なお|また|まず|さらに|ところ|もっとも|もつとも|ただし|すなわち|つまり|よ[っつ]て|いずれ|あるいは|おって|おつて|ちなみに"
    r"|いわゆる"
)
_CLOSERS = frozenset("）)」』］]｝}〕〉》】")
_CUT_AFTER = frozenset("、，,")
_MIN_WRAPPED_LINES = 5
_MIN_FULL_LINES = 3
_FULL_LINE_SLACK = 10  # a line at most five full-width characters short of the margin is full (禁則)
_FULL_LINE_FLOOR = 0.55  # … and at least this share of the typical width
_WINDOW = 3


class SectionSpan(Protocol):
    """A named stretch of a text (主文, 理由, a Markdown section): chunks never cross its edges."""

    @property
    def name(self) -> str | None: ...

    @property
    def start(self) -> int: ...

    @property
    def end(self) -> int: ...


@dataclass(frozen=True)
class Span:
    """The simplest :class:`SectionSpan`: a name and offsets into the original text."""

    name: str | None
    start: int
    end: int


@dataclass(frozen=True)
class Sentence:
    """One sentence: its text as read (line breaks joined) and its offsets in the original text."""

    text: str
    start: int
    end: int


@dataclass(frozen=True)
class Chunk:
    """A run of whole sentences of about ``size`` characters, the unit of retrieval and of citations.

    ``start``/``end`` are offsets into the original text; ``text`` is that stretch as read (see the module
    docstring). ``anchors`` maps offsets of ``text`` back to the original: the pairs (offset in text, offset in
    original) where the correspondence jumps (a dropped line break or page number). Use :meth:`original_offset`.
    """

    seq: int
    text: str
    start: int
    end: int
    section: str | None
    anchors: tuple[tuple[int, int], ...] = field(default=(), repr=False, compare=False)

    def original_offset(self, offset: int) -> int:
        """The offset in the original text of the character at ``offset`` of :attr:`text`.

        ``offset == len(text)`` maps to :attr:`end`, so that a span [i, j) of the chunk maps to
        [original_offset(i), original_offset(j - 1) + 1). A character the reader inserted (the ``\\n`` or space
        of a line break) maps to the line break it stands for.
        """
        if not 0 <= offset <= len(self.text):
            raise ValueError(f"offset {offset} is outside the chunk text (length {len(self.text)})")
        if offset == len(self.text):
            return self.end
        if not self.anchors:
            return self.start + offset
        k = bisect_right(self.anchors, (offset, float("inf"))) - 1
        text_at, original_at = self.anchors[k]
        return original_at + (offset - text_at)


# ----------------------------------------------------------------------------------------------------
# Reading lines


def _width(s: str) -> int:
    """Display width: full-width characters count 2, which is how a fixed-width layout measures a line."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)


def _line_width(line: str) -> int:
    return _width(line.rstrip().lstrip("\f"))


def typical_line_width(text: str) -> int | None:
    """The width a text is wrapped at (74 for most judgments: 37 full-width characters), or None if unwrapped.

    Taken as the 90th percentile of the widths of lines of some length; the text counts as wrapped when at
    least 30% of those lines (and at least three) are that wide, give or take the slack of 禁則 processing.
    A Markdown file or a text with one paragraph per line has no such width, and then every line break is
    meaningful.
    """
    widths = sorted(
        w for line in text.split("\n")
        if not PAGE_MARKER_RE.match(line) and (w := _line_width(line)) >= 20
    )
    if len(widths) < _MIN_WRAPPED_LINES:
        return None
    typical = widths[(9 * (len(widths) - 1)) // 10]
    full = sum(1 for w in widths if abs(w - typical) <= _FULL_LINE_SLACK)
    return typical if full >= max(_MIN_FULL_LINES, 0.3 * len(widths)) else None


@dataclass(frozen=True)
class _Line:
    start: int  # first non-whitespace character
    end: int  # after the last non-whitespace character
    width: int


def _content_lines(text: str, start: int, end: int) -> list[_Line]:
    """The non-blank, non-page-number lines of text[start:end], as trimmed spans."""
    out: list[_Line] = []
    pos = text.rfind("\n", 0, start) + 1  # lines are judged whole, even where a section starts mid-line
    for m in _LINE_RE.finditer(text, pos):
        if m.start() >= end or not m.group():
            break
        line = m.group().rstrip("\n")
        if PAGE_MARKER_RE.match(line):
            continue
        s = max(m.start(), start)
        e = min(m.start() + len(line), end)
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if s < e:
            out.append(_Line(s, e, _line_width(line)))
    return out


def _full_lines(lines: Sequence[_Line], line_width: int | None) -> list[bool]:
    """Which lines run to the right margin, so that the text goes on on the next line.

    The margin is local: a 主文 is often set narrower (24 characters) than the 理由 (37), so a line is full when
    it is about as wide as the widest of its neighbours (three lines either side) and not much narrower than
    the text's typical width (which also keeps a run of short list items from joining). Unwrapped text
    (``line_width`` None) has no full lines.
    """
    if line_width is None:
        return [False] * len(lines)
    floor = max(20, int(_FULL_LINE_FLOOR * line_width))
    widths = [line.width for line in lines]
    out: list[bool] = []
    for i, w in enumerate(widths):
        others = widths[max(0, i - _WINDOW):i] + widths[i + 1:i + 1 + _WINDOW]
        out.append(w >= floor and w >= max(others, default=0) - _FULL_LINE_SLACK)
    return out


def _continues(text: str, previous: _Line, line: _Line) -> bool:
    """A short line that breaks mid-sentence: PDF extraction splits a line where the layout has a gap.

    The tells: a line that ends with 、 (nothing else does), a next line that opens with 「（以下」, and a next line
    that starts with hiragana (a particle or an inflection: 「…上記」「に述べたとおり」) after a line that does not
    end a sentence: sentences and headings rarely start with hiragana, except with the conjunctions and
    demonstratives listed in ``_HIRAGANA_OPENERS``.
    """
    last = text[previous.end - 1]
    if last in _CUT_AFTER or text.startswith(("（以下", "(以下"), line.start):
        return True  # 「…ときには、」「「…請求書」」「（以下「還付請求書」といいます。）を作成し」
    if last in _SENTENCE_END or not _HIRAGANA_RE.match(text, line.start):
        return False
    return not _HIRAGANA_OPENERS.match(text, line.start)


def _is_ascii_word(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


class _Reading:
    """The text of one section as read, with the original offset of every character (``origin``).

    ``hard`` marks positions of the read text that end a sentence because of the line structure.
    """

    def __init__(self, text: str, lines: Sequence[_Line], line_width: int | None) -> None:
        parts: list[str] = []
        origin: list[int] = []
        self.hard: set[int] = set()
        previous: _Line | None = None
        full = _full_lines(lines, line_width)
        for index, line in enumerate(lines):
            if previous is not None:
                nxt = text[line.start]
                if nxt in _NO_LINE_START or full[index - 1] or _continues(text, previous, line):
                    if _is_ascii_word(text[previous.end - 1]) and _is_ascii_word(nxt):
                        parts.append(" ")
                        origin.append(previous.end)
                else:
                    self.hard.add(len(origin))
                    parts.append("\n")
                    origin.append(previous.end)
            pos = line.start
            for m in _WS_RUN_RE.finditer(text, line.start, line.end):
                if m.start() > pos:
                    parts.append(text[pos:m.start()])
                    origin.extend(range(pos, m.start()))
                run = m.group()
                parts.append(run if run in (" ", "\u3000") else " ")
                origin.append(m.start())
                pos = m.end()
            parts.append(text[pos:line.end])
            origin.extend(range(pos, line.end))
            previous = line
        self.text = "".join(parts)
        self.origin = origin

    def sentence_spans(self) -> list[tuple[int, int]]:
        """[start, end) spans of the sentences of the read text, trimmed of whitespace."""
        spans: list[tuple[int, int]] = []
        text = self.text
        n = len(text)
        begin = 0
        i = 0
        while i < n:
            ch = text[i]
            cut_at: int | None = None
            if i in self.hard:
                cut_at = i
            elif ch in _SENTENCE_END:
                j = i + 1
                while j < n and text[j] in _SENTENCE_END:
                    j += 1
                k = j
                while k < n and text[k].isspace() and k not in self.hard:
                    k += 1
                if k < n and text[k] in _CLOSERS:
                    i = k
                    continue
                cut_at = j
            if cut_at is not None:
                self._add(spans, begin, cut_at)
                begin = cut_at
                i = max(cut_at, i + 1)
                continue
            i += 1
        self._add(spans, begin, n)
        return spans

    def _add(self, spans: list[tuple[int, int]], s: int, e: int) -> None:
        while s < e and self.text[s].isspace():
            s += 1
        while e > s and self.text[e - 1].isspace():
            e -= 1
        if s < e:
            spans.append((s, e))

    def original_span(self, s: int, e: int) -> tuple[int, int]:
        return self.origin[s], self.origin[e - 1] + 1

    def anchors(self, s: int, e: int) -> tuple[tuple[int, int], ...]:
        out: list[tuple[int, int]] = []
        for i in range(s, e):
            if i == s or self.origin[i] != self.origin[i - 1] + 1:
                out.append((i - s, self.origin[i]))
        return tuple(out)


# ----------------------------------------------------------------------------------------------------
# Sentences and chunks


def _check_sizes(size: int, overlap: int) -> None:
    if isinstance(size, bool) or not isinstance(size, int) or size <= 0:
        raise ConfigurationError(f"chunk size must be a positive number of characters, got {size!r}")
    if isinstance(overlap, bool) or not isinstance(overlap, int) or overlap < 0:
        raise ConfigurationError(f"chunk overlap must be zero or a positive number of characters, got {overlap!r}")
    if overlap >= size:
        raise ConfigurationError(f"chunk overlap must be smaller than the chunk size (got overlap={overlap}, "
                                 f"size={size})")


def _cut_long(text: str, s: int, e: int, size: int) -> list[tuple[int, int]]:
    """Cut one over-long sentence into pieces of at most ``size``: after the last 、 that fits, else hard."""
    pieces: list[tuple[int, int]] = []
    while e - s > size:
        window_end = s + size
        cut = max((i + 1 for i in range(s + 1, window_end) if text[i] in _CUT_AFTER), default=window_end)
        piece_end = cut
        while piece_end > s and text[piece_end - 1].isspace():
            piece_end -= 1
        pieces.append((s, piece_end))
        s = cut
        while s < e and text[s].isspace():
            s += 1
    if s < e:
        pieces.append((s, e))
    return pieces


def _sections_or_whole(text: str, sections: Iterable[SectionSpan] | None) -> list[SectionSpan]:
    if sections is None:
        return [Span(None, 0, len(text))]
    return sorted(sections, key=lambda s: (s.start, s.end))


def split_sentences(
    text: str, sections: Iterable[SectionSpan] | None = None, *, line_width: int | None = None,
) -> list[Sentence]:
    """The sentences of ``text`` (or of its sections), in order, with offsets into ``text``.

    ``line_width`` overrides :func:`typical_line_width` (pass 0 to keep every line break).
    """
    width = typical_line_width(text) if line_width is None else (line_width or None)
    out: list[Sentence] = []
    for section in _sections_or_whole(text, sections):
        reading = _Reading(text, _content_lines(text, section.start, section.end), width)
        for s, e in reading.sentence_spans():
            start, end = reading.original_span(s, e)
            out.append(Sentence(reading.text[s:e], start, end))
    return out


def chunk_text(
    text: str,
    sections: Iterable[SectionSpan] | None = None,
    *,
    size: int = DEFAULT_SIZE,
    overlap: int = DEFAULT_OVERLAP,
    line_width: int | None = None,
    first_seq: int = 0,
) -> list[Chunk]:
    """Chunks of about ``size`` characters of whole sentences, each repeating up to ``overlap`` characters of
    the sentences that ended the chunk before it.

    With ``sections`` (any objects with ``name``, ``start``, ``end``, such as the sections of a parsed
    judgment), chunks stay inside one section each and carry its name; text outside the sections is not
    chunked. Without, the whole text is one unnamed section. ``seq`` numbers the chunks from ``first_seq``.

    A chunk's ``text`` is at most ``size`` characters long: a sentence longer than that is the only thing
    ever cut, after the last 、 or ， that keeps the piece within ``size``, or at ``size`` exactly when there
    is none. ``line_width`` overrides :func:`typical_line_width` (0: keep every line break).
    Raises `ConfigurationError` unless 0 <= overlap < size.
    """
    _check_sizes(size, overlap)
    width = typical_line_width(text) if line_width is None else (line_width or None)
    chunks: list[Chunk] = []
    seq = first_seq
    for section in _sections_or_whole(text, sections):
        reading = _Reading(text, _content_lines(text, section.start, section.end), width)
        units: list[tuple[int, int]] = []
        for s, e in reading.sentence_spans():
            units.extend(_cut_long(reading.text, s, e, size) if e - s > size else [(s, e)])
        for first, last in _pack(units, size, overlap):
            s, e = units[first][0], units[last][1]
            start, end = reading.original_span(s, e)
            chunks.append(Chunk(seq, reading.text[s:e], start, end, section.name, reading.anchors(s, e)))
            seq += 1
    return chunks


def _pack(units: Sequence[tuple[int, int]], size: int, overlap: int) -> list[tuple[int, int]]:
    """Greedy packing of units (sentence spans in read-text offsets, each ≤ size) into [first, last] runs."""
    runs: list[tuple[int, int]] = []
    n = len(units)
    first = 0
    while first < n:
        last = first
        while last + 1 < n and units[last + 1][1] - units[first][0] <= size:
            last += 1
        runs.append((first, last))
        if last == n - 1:
            break
        nxt = last + 1
        # Step back over the sentences that end this chunk while they fit in the overlap, never back to `first`
        # (the next chunk must move on), then forward again until the next new sentence fits.
        while nxt - 1 > first and units[last][1] - units[nxt - 1][0] <= overlap:
            nxt -= 1
        while nxt <= last and units[last + 1][1] - units[nxt][0] > size:
            nxt += 1
        first = nxt
    return runs


def visible_text(text: str, start: int = 0, end: int | None = None) -> str:
    """The characters of text[start:end] that the reader keeps: all but whitespace and page-number lines.

    Lines are judged whole (a page number is a line of its own in ``text``), so this is the reference the
    chunks are tested against: ``visible_text(original, c.start, c.end) == re.sub(r"\\s", "", c.text)``.
    """
    end = len(text) if end is None else end
    kept: list[str] = []
    pos = text.rfind("\n", 0, start) + 1
    for m in _LINE_RE.finditer(text, pos):
        if m.start() >= end or not m.group():
            break
        line = m.group()
        if PAGE_MARKER_RE.match(line.rstrip("\n")):
            continue
        s, e = max(m.start(), start), min(m.end(), end)
        if s < e:
            kept.append(_WS_RUN_RE.sub("", text[s:e]))
    return "".join(kept)
