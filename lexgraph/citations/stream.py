"""Citations of a text of any length, read piece by piece in bounded memory, exactly as `extract` reads it whole.

Why: ``lexgraph cite`` is given whole years of judgments (tens of MB). Reading them as one string kept the text,
its compact copy, every mention and every citation in memory at once, and nothing came out until the end. Here the
text arrives in blocks (a file read in pieces), and citations come out as each piece is read.

How the result stays the same as a whole read:

* A piece ends at a sentence end that also ends a line (「…とする。⏎」), after at least `PIECE_CHARS` characters;
  no citation, quote or list crosses a sentence end, and the resolver's look-back for a quote stops at one.
* The finders look around a citation (the law name before 第N条, the bracket after it, the heading on the line
  before), so each piece is scanned inside a window with `MARGIN_CHARS` of the text before and after it, and only
  what starts inside the piece is kept. A 同年 in a precedent looks further back for its year: the window reaches
  back `MARGIN_CHARS`, far more than a sentence.
* What a reader remembers across pieces is carried: the precedents cited so far and the 判決 / 決定 named last,
  for a back reference (同判決, 前掲最判: `lexgraph.citations.back_references`) in a later piece; the
  abbreviations defined so far (以下「法」という) for the finder, and one resolver for the whole text
  (`PieceResolver`: 同法, 同条, the law of an aside) whose memory of single citations is trimmed to the current
  piece.

Memory is bounded by the piece, the window and the abbreviations of the text; time is linear in the text.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from lexgraph.citations.back_references import BackReferences
from lexgraph.citations.context import CitationContext
from lexgraph.citations.lawnames import LawNames
from lexgraph.citations.model import AbbreviationDefinition, Citation
from lexgraph.citations.resolve import PieceResolver
from lexgraph.citations.statutes import find_statutes

PIECE_CHARS = 400_000  # about 1.2 MB of UTF-8 Japanese: large enough that the margins cost little
MARGIN_CHARS = 4_000  # context read before and after a piece; a citation and what it looks at are far shorter
_SENTENCE_END = "。\n"


def iter_citations(blocks: Iterable[str], context: CitationContext | None = None, *, precedents: bool = True,
                   piece_chars: int = PIECE_CHARS, margin_chars: int = MARGIN_CHARS) -> Iterator[Citation]:
    """Every citation of the text made of `blocks` (consecutive parts of it, of any size), in the order and
    with the offsets (into the whole text) that ``extract("".join(blocks), context, precedents=precedents)``
    gives, yielded piece by piece."""
    context = context if context is not None else CitationContext()
    names = LawNames.for_catalog(context.catalog)
    resolver = PieceResolver(context)
    back = BackReferences()  # the precedents cited so far, for a 同判決 / 前掲最判 in a later piece
    defined: dict[str, int] = {}  # term → end of its first definition in the whole text
    buffer = ""  # the text from `base` on: the margin before the next piece, the piece, what was read after it
    base = 0  # offset of buffer[0] in the whole text
    start = 0  # offset of the next piece
    blocks_left = iter(blocks)
    ended = False
    while True:
        if not ended and base + len(buffer) < start + piece_chars + margin_chars:
            block = next(blocks_left, None)
            ended = block is None
            buffer += block or ""
            continue
        if start >= base + len(buffer):
            return
        end = base + (len(buffer) if ended else _piece_end(buffer, start - base + piece_chars))
        if not ended and end + margin_chars > base + len(buffer):
            block = next(blocks_left, None)  # the piece ends far on: read on until its margin is in
            ended = block is None
            buffer += block or ""
            continue
        window_start = max(base, start - margin_chars)
        window = buffer[window_start - base:end + margin_chars - base]
        carried = [term for term, term_end in defined.items() if term_end <= window_start]
        yield from _piece_citations(window, window_start, start, end, names, carried, resolver, context,
                                    precedents, defined, back)
        resolver.forget_before(end)
        start = end
        keep_from = max(base, start - margin_chars)
        buffer, base = buffer[keep_from - base:], keep_from


def _piece_end(buffer: str, at_least: int) -> int:
    """Where the piece that must reach `at_least` (an offset into `buffer`) ends: after the first sentence end
    that ends a line from there, else after the first line end, else at `at_least` (one enormous line)."""
    if at_least >= len(buffer):
        return len(buffer)
    found = buffer.find(_SENTENCE_END, at_least)
    if found >= 0:
        return found + len(_SENTENCE_END)
    found = buffer.find("\n", at_least)
    return found + 1 if found >= 0 else at_least


def _piece_citations(window: str, offset: int, start: int, end: int, names: LawNames, carried: list[str],
                     resolver: PieceResolver, context: CitationContext, precedents: bool,
                     defined: dict[str, int], back: BackReferences) -> list[Citation]:
    """The citations starting in start … end (offsets into the whole text), read in `window`, which starts at
    `offset`."""
    mentions = [m for m in find_statutes(window, names, carried, offset) if start <= m.start < end]
    for mention in mentions:
        if isinstance(mention, AbbreviationDefinition):
            defined.setdefault(mention.term, mention.end)
    citations = resolver.read(mentions)
    if precedents:
        from lexgraph.citations import precedent_citations

        citations.extend(c for c in precedent_citations(window, context.citing_court, offset) if start <= c.start < end)
        citations.extend(back.read(window, offset, start, end, citations))
    citations.sort(key=lambda c: (c.start, c.end))
    return citations
