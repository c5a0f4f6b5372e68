"""A clause's own text, as citations are read in it: one definition for the ingest that finds a statute's
citations (their offsets are into this text) and for whatever later cuts text at those offsets (the statutes'
anchors), so the two can never disagree on a character."""

from __future__ import annotations

import json
from collections.abc import Iterable

#: The clauses whose own text is read for citations: articles repeat their paragraphs' text.
CITING_KINDS = frozenset({"paragraph", "item", "subitem"})


def clause_text(sentences: Iterable[tuple[str, str]]) -> str:
    """A clause's own text from its (role, text) sentences, as citations are read in it. Columns (列1, 列2: a
    defined term and its definition, 「電子申請」「不動産登記法（以下「法」という。）…」) are kept apart by 「：」, as
    e-Gov prints them apart: glued, the term became part of the law name (「電子申請不動産登記法」). Not a space,
    which the extractor reads as a wrapped line."""
    out: list[str] = []
    for role, text in sentences:
        if out and str(role).startswith("列"):
            out.append("：")
        out.append(str(text))
    return "".join(out)


def stored_clause_text(stored_sentences: str | None) -> str:
    """`clause_text` of a clause's sentences as the store keeps them (JSON of (role, text) pairs); empty where there
    are none or they cannot be read."""
    if not stored_sentences:
        return ""
    try:
        sentences = json.loads(stored_sentences)
    except ValueError:
        return ""
    return clause_text((role, text) for role, text in sentences)
