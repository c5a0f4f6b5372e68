"""Sentences of legal prose and what they say without their citations: the judgment benchmark's queries
(`lexgraph.eval.judgment_bench`) and the anchor field's texts (`lexgraph.index.anchors`) are cut alike."""

from __future__ import annotations

import re
from collections.abc import Sequence

from lexgraph.citations.model import Citation

_PAGE_MARK = re.compile(r"^\s*-\s*\d+\s*-\s*$", re.MULTILINE)
_EMPTY_BRACKETS = re.compile(r"[（(][\s，、・,及び並びに又は若しくは]*[）)]")
_SPACES = re.compile(r"[\s\u3000\x0c]+")
_REPEATED_COMMA = re.compile(r"([，、,])[，、,]+")
_OPENING, _CLOSING = "（(「『", "）)」』"


def sentence_ends(text: str) -> list[int]:
    """Offsets just after each 「。」 that ends a sentence: one inside brackets (（以下「法」という。）, 「…。」)
    ends a definition or a quotation, not the sentence. An unbalanced closing bracket (a PDF extract cut
    mid-sentence) resets the depth instead of making it negative."""
    ends, depth = [], 0
    for position, char in enumerate(text):
        if char in _OPENING:
            depth += 1
        elif char in _CLOSING:
            depth = max(0, depth - 1)
        elif char == "。" and depth == 0:
            ends.append(position + 1)
    return ends


def without_citations(text: str, start: int, stop: int, citations: Sequence[Citation]) -> str:
    """The text from `start` to `stop` without the citations' spans (law name and clause number), page markers,
    white space, brackets left empty and repeated commas: what a citing sentence says in its own words."""
    pieces, position = [], start
    for citation in sorted(citations, key=lambda c: c.start):
        pieces.append(text[position:citation.start])
        position = max(position, citation.end)
    pieces.append(text[position:stop])
    joined = _SPACES.sub("", _PAGE_MARK.sub("", "".join(pieces)))
    previous = None
    while previous != joined:  # （同法１条，２条） leaves （，） and then （）
        previous, joined = joined, _EMPTY_BRACKETS.sub("", joined)
    return _REPEATED_COMMA.sub(r"\1", joined)
