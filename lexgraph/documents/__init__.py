"""Judgments, books and guidelines read into values for the graph (no database here).

- :mod:`.judgment`: a Supreme Court judgment's header and sections; metadata records; landmark cases.
- :mod:`.chunking`: sentences and overlapping chunks, with offsets into the original text.
- :mod:`.literature`: Markdown, plain text and PDF files; the tax_demo registry.
"""

from lexgraph.documents.chunking import Chunk, Sentence, Span, chunk_text, split_sentences, visible_text
from lexgraph.documents.judgment import (
    JudgmentMetadata,
    Landmark,
    ParsedJudgment,
    Section,
    load_landmarks,
    load_metadata,
    parse_judgment,
    read_judgment,
)
from lexgraph.documents.literature import (
    LiteratureText,
    MissingToolError,
    RegistryEntry,
    load_registry,
    read_literature,
    read_registry,
)

__all__ = [
    "Chunk",
    "JudgmentMetadata",
    "Landmark",
    "LiteratureText",
    "MissingToolError",
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
