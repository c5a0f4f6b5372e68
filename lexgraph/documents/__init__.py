"""Judgments, books and guidelines read into values for the graph (no database here).

- :mod:`.judgment`: a Supreme Court judgment's header and sections; metadata records; landmark cases.
- :mod:`.chunking`: sentences and overlapping chunks, with offsets into the original text.
- :mod:`.literature`: Markdown, plain text and PDF files; the tax_demo registry.
"""

from importlib import import_module
from typing import Any

# Names are read from their module on first use (PEP 562): the CLI's client needs only chunking's defaults, and
# importing judgment and literature here too cost a command's start-up about 0.15 s (the citation grammar).
_HOME = {
    **dict.fromkeys(("Chunk", "Sentence", "Span", "chunk_text", "split_sentences", "visible_text"), "chunking"),
    **dict.fromkeys(("JudgmentMetadata", "Landmark", "ParsedJudgment", "Section", "load_landmarks", "load_metadata",
                     "parse_judgment", "read_judgment"), "judgment"),
    **dict.fromkeys(("LiteratureText", "RegistryEntry", "load_registry", "read_literature",
                     "read_registry"), "literature"),
}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_HOME[name]}"), name)


__all__ = [
    "Chunk",
    "JudgmentMetadata",
    "Landmark",
    "LiteratureText",
    "ParsedJudgment",
    "RegistryEntry",
    "Section",
    "Sentence",
    "Span",
    "chunk_text",
    "load_landmarks",
    "load_metadata",
    "load_registry",
    "parse_judgment",
    "read_judgment",
    "read_literature",
    "read_registry",
    "split_sentences",
    "visible_text",
]
