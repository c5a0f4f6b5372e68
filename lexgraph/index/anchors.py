"""Anchor text: what the sentences citing an article say about it, kept for a BM25 field beside the clause text.

Web search learned that the words of the links pointing at a page describe it better than the page itself; here
the links are citations. A judgment that writes 「…他人の権利を侵害した者は損害賠償責任を負う（民法７０９条）」 says
in its own words what 民法 第七百九条 is about, often in the words a question uses. For every statute citation of a
judgment (resolved to a law and an article) the anchor is its sentence, cut at a 「。」 outside brackets
(`citations.sentences`), with `window` sentences on each side and every citation span taken out (the
article's number must not be the match), and tokenised as BM25 tokenises clauses.

Each anchor keeps its source (the judgment's file name without suffix, its lawsuit id's file) so that an
evaluation can leave out the judgments it scores (`retrieve.anchor_field.AnchorField.build(exclude=…)`): a
query's own judgment must never describe its gold. The anchors are written beside the index as
``anchors.jsonl.gz`` (`write_anchors`), built by `LexGraph.build_anchors` / ``lexgraph index --anchors DIR``.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from lexgraph.citations import extract
from lexgraph.citations.sentences import sentence_ends, without_citations
from lexgraph.errors import InputError
from lexgraph.index.tokenize import tokenize

ANCHOR_FILE = "anchors.jsonl.gz"
#: Sentences taken on each side of the citing sentence (0: the sentence alone; measured, docs/search.md).
DEFAULT_WINDOW = 0
#: An anchor longer than this (a run-on sentence of a PDF extract) is cut around the citation.
MAX_CHARS = 400


@dataclass(frozen=True)
class Anchor:
    """One citing passage of one article: the cited (law_id, article path), the kind and name of its source, and
    its BM25 tokens."""

    law_id: str
    article: str  # a709, a6_2
    kind: str  # judgment (more kinds, such as a citing statute clause, can be added with their weight)
    source: str  # the judgment's file stem (083087_hanrei)
    tokens: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        return {"law_id": self.law_id, "article": self.article, "kind": self.kind, "source": self.source,
                "tokens": " ".join(self.tokens)}


def judgment_anchors(source: str, text: str, *, window: int = DEFAULT_WINDOW,
                     laws: set[str] | None = None) -> list[Anchor]:
    """The anchors of one judgment: one per (citing sentence, cited article), the article's law in `laws` (None:
    any law). A sentence citing two articles describes both."""
    every = extract(text, precedents=False)  # every citation's span leaves the anchor's text
    citations = [c for c in every
                 if c.kind == "statute" and c.status == "resolved" and c.law_id and c.article
                 and (laws is None or c.law_id in laws)]
    if not citations:
        return []
    bounds = [0, *sentence_ends(text)]
    if bounds[-1] < len(text):
        bounds.append(len(text))
    out: list[Anchor] = []
    at = 0
    for citation in sorted(citations, key=lambda c: c.start):
        while at + 1 < len(bounds) - 1 and bounds[at + 1] <= citation.start:
            at += 1
        start, stop = bounds[max(0, at - window)], bounds[min(len(bounds) - 1, at + 1 + window)]
        if stop - start > MAX_CHARS:
            start, stop = max(start, citation.start - MAX_CHARS // 2), min(stop, citation.end + MAX_CHARS // 2)
        inside = [c for c in every if c.start >= start and c.end <= stop]
        words = without_citations(text, start, stop, inside)
        tokens = tuple(tokenize(words))
        if tokens:
            out.append(Anchor(str(citation.law_id), f"a{citation.article}", "judgment", source, tokens))
    return out


def judgment_files_anchors(files: Iterable[Path], *, window: int = DEFAULT_WINDOW,
                           laws: set[str] | None = None) -> Iterator[Anchor]:
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise InputError(f"{path}: cannot be read as UTF-8 text for anchors ({error}); give judgment text "
                             f"files (the 裁判所 PDF extracts, one judgment per .txt)") from error
        yield from judgment_anchors(path.stem, text, window=window, laws=laws)


def write_anchors(directory: Path, anchors: Iterable[Anchor]) -> int:
    """Write the anchors to ``directory/anchors.jsonl.gz`` (replacing it); returns how many."""
    directory.mkdir(parents=True, exist_ok=True)
    count = 0
    temporary = directory / (ANCHOR_FILE + ".tmp")
    with gzip.open(temporary, "wt", encoding="utf-8") as out:
        for anchor in anchors:
            out.write(json.dumps(anchor.to_json(), ensure_ascii=False) + "\n")
            count += 1
    temporary.replace(directory / ANCHOR_FILE)
    return count


def read_anchors(directory: Path) -> list[Anchor] | None:
    """The anchors written beside an index, or None when none were built."""
    path = directory / ANCHOR_FILE
    if not path.exists():
        return None
    out = []
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            try:
                row = json.loads(line)
                out.append(Anchor(row["law_id"], row["article"], row["kind"], row["source"],
                                  tuple(row["tokens"].split())))
            except (ValueError, KeyError) as error:
                raise InputError(f"{path}:{number}: not an anchor record ({error}); rebuild it with "
                                 f"`lexgraph index --anchors DIR`") from error
    return out
