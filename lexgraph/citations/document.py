"""Facts about a whole document that its citations depend on: the date it speaks from, and, in a text of several
judgments, where each begins.

A judgment's statutes are read as they stood on the day it was handed down, so ``lexgraph cite`` takes that day
from the text when no ``--as-of`` is given. Court texts open with a header (case number, date, case name, bench);
the date is the first line of the header that is a full date and nothing else, or a date followed by the bench and
判決 / 決定 (平成２４年１２月１４日　第二小法廷判決).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from datetime import date
from itertools import chain, groupby
from operator import attrgetter

from lexgraph.citations.context import CitationContext, ResolutionState
from lexgraph.citations.dates import parse_japanese_date
from lexgraph.citations.model import Citation

_HEADER_LINES = 12  # a header is short; a date deeper in the text is a date the text talks about
_NUM = r"[元\d０-９〇一二三四五六七八九十]+"
_LEADING_DATE = re.compile(rf"^((?:明治|大正|昭和|平成|令和){_NUM}年{_NUM}月{_NUM}日)(.*)$")
_BENCH_AND_TYPE = re.compile(r"^[^。、，,]{0,30}(?:判決|決定|命令)$")  # 第三小法廷判決, 大法廷判決, 判決


def document_date(text: str) -> date | None:
    """The date a judgment or decision was handed down, read from its header; None when the text has none."""
    lines = [line.strip() for line in _first_lines(text, _HEADER_LINES * 3) if line.strip()][:_HEADER_LINES]
    for line in lines:
        match = _LEADING_DATE.match(line.replace(" ", "").replace("\u3000", ""))
        if match is None:
            continue
        rest = match.group(2)
        if rest and not _BENCH_AND_TYPE.match(rest):
            continue  # a sentence that starts with a date is not a header
        day = parse_japanese_date(match.group(1))
        if day is not None:
            return day
    return None


def _first_lines(text: str, count: int) -> list[str]:
    """``text.splitlines()[:count]`` without splitting the whole text: `cite` reads the header of a text of
    megabytes, and splitting all of it took about 1% of the command. A prefix is split; when it holds more than
    `count` lines, its first `count` are complete and the same as the whole text's (a prefix cut inside the last
    line, or between \\r and \\n, changes only lines after them); otherwise a longer prefix is tried."""
    reach = 4_096
    while reach < len(text):
        lines = text[:reach].splitlines()
        if len(lines) > count:
            return lines[:count]
        reach *= 4
    return text.splitlines()[:count]


# -- several judgments in one text -------------------------------------------------------------------------------
# A judgment's header opens with its case number on a line of its own (令和３年（オ）第２９３号の２), or right after
# the page break (\f) that ends the judgment before it in a text from PDF; a line that merely starts with one (a
# wrapped sentence) is not a header unless a header date follows (`document_date`).
_CASE_NUMBER_LINE = re.compile(
    rf"(?m)(?:^|(?<=\f))[ \u3000]*(?:明治|大正|昭和|平成|令和){_NUM}年[（(][^）)\n]{{1,10}}[）)]第{_NUM}号")
_LOOK_AHEAD_LINES = _HEADER_LINES * 3  # what `document_date` reads of a header
_LOOK_AHEAD_CHARS = 6_000
_MAX_HELD_CHARS = 400_000  # a text with no line end for this long is passed on anyway


@dataclass(frozen=True)
class Segment:
    """A consecutive part of a text: where it starts in the whole text, which document it belongs to (0: the text
    before the first judgment header; n: the n-th header's judgment) and that judgment's date from its header."""

    start: int
    text: str
    document: int
    day: date | None


def document_segments(blocks: Iterable[str]) -> Iterator[Segment]:
    """The text made of `blocks`, cut where a judgment's header starts, as it is read: a text of a year of
    judgments becomes each judgment's parts, each with the date its own header gives. Memory is bounded by a
    block and the few lines a header needs to be recognised."""
    buffer, base, document, day = "", 0, 0, None
    search_from = 0  # where in `buffer` a header may start (after the one that opened the current document)
    for block in chain(blocks, [None]):
        ended = block is None
        buffer += block or ""
        while True:
            found = _CASE_NUMBER_LINE.search(buffer, search_from)
            if found is None:
                cut = len(buffer) if ended or len(buffer) > _MAX_HELD_CHARS else buffer.rfind("\n") + 1
                cut = max(cut, min(search_from, len(buffer)))
                if cut > 0:
                    yield Segment(base, buffer[:cut], document, day)
                    buffer, base, search_from = buffer[cut:], base + cut, max(0, search_from - cut)
                break
            header = buffer[found.start():]
            if not ended and header.count("\n") < _LOOK_AHEAD_LINES and len(header) < _LOOK_AHEAD_CHARS:
                if found.start() > 0:  # what comes before the candidate is this document's; wait for the header
                    yield Segment(base, buffer[:found.start()], document, day)
                    buffer, base = buffer[found.start():], base + found.start()
                    search_from = max(0, search_from - found.start())
                break
            written = document_date(header)
            if written is None:  # a case number that opens no header: part of the text
                search_from = found.end()
                continue
            if found.start() > 0:
                yield Segment(base, buffer[:found.start()], document, day)
            buffer, base = buffer[found.start():], base + found.start()
            document, day, search_from = document + 1, written, found.end() - found.start()
        if ended:
            return


#: Reads a document's citations: the blocks of its text and its context (an `Extractor.extract_pieces`).
ReadPieces = Callable[[Iterable[str], CitationContext], Iterator[Citation]]


def citations_by_document(blocks: Iterable[str], context: CitationContext, read: ReadPieces,
                          days: list[date] | None = None) -> Iterator[Citation]:
    """The citations of a text that may hold several judgments, each judgment read as of the date its own header
    gives (and with nothing remembered from the judgment before it: 同法 does not reach back into another
    judgment); the text before the first header as of `context.as_of`. Every citation carries the day it was read
    as of (`as_of`) and its offsets into the whole text. `days` collects each judgment's day as it is reached."""
    for _, parts in groupby(document_segments(blocks), key=attrgetter("document")):
        first = next(parts)
        day = first.day or context.as_of
        if first.day is not None and days is not None:
            days.append(first.day)
        own = replace(context, as_of=day, state=ResolutionState())
        text = chain([first.text], (part.text for part in parts))  # noqa: B031 (each group is read once, in turn)
        stamp = day.isoformat() if day else None
        for citation in read(text, own):
            yield citation.read_as_of(stamp, first.start)


def dated_citations(blocks: Iterable[str], context: CitationContext, read: ReadPieces,
                    judgment_days: list[date] | None = None) -> Iterator[Citation]:
    """The citations `read` finds in the text, each stamped with the day it was read as of: all as of
    `context.as_of`, or, with `judgment_days` (a list to fill), each judgment of a text of several as of its own
    header's date (`citations_by_document`)."""
    if judgment_days is not None:
        return citations_by_document(blocks, context, read, judgment_days)
    stamp = context.as_of.isoformat() if context.as_of else None
    return (c.read_as_of(stamp) for c in read(blocks, context))
