"""The citation extractors behind one interface, chosen by name (``lexgraph cite --extractor``, ``lexgraph eval
citations --extractor``).

* ``rules`` (the default): `lexgraph.citations.extract`, the rule grammar and resolver; fast, no model.
* ``ginza``: the same, with GiNZA's dependency parse deciding the rules' weak decisions (`lexgraph.citations.ginza`):
  which law a bare article or 同法 belongs to, and whether 前項 / 前条 is a statute's or the judgment's own.
  Needs spaCy and ``ja_ginza``; imported only when asked for, so that no command pays for it otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol

from lexgraph.citations.context import CitationContext
from lexgraph.citations.model import Citation
from lexgraph.errors import ToolMissing
from lexgraph.registry import lazy_table

DEFAULT_EXTRACTOR = "rules"


class Extractor(Protocol):
    """``extract(text, context, precedents=…)``: every citation of `text`, resolved in `context`, by start."""

    name: str

    def extract(self, text: str, context: CitationContext | None = None, *, precedents: bool = True
                ) -> list[Citation]: ...

    def extract_pieces(self, blocks: Iterable[str], context: CitationContext | None = None, *,
                       precedents: bool = True) -> Iterator[Citation]:
        """The citations of the text the consecutive `blocks` make up, as `extract` reads it whole."""
        ...


class RuleExtractor:
    """The rule extractor, `lexgraph.citations.extract`, as an `Extractor`."""

    name = "rules"

    def extract(self, text: str, context: CitationContext | None = None, *, precedents: bool = True
                ) -> list[Citation]:
        from lexgraph.citations import extract

        return extract(text, context, precedents=precedents)

    def extract_pieces(self, blocks: Iterable[str], context: CitationContext | None = None, *,
                       precedents: bool = True) -> Iterator[Citation]:
        """Streamed: each piece is read as it comes, in memory bounded by the piece (`lexgraph.citations.stream`)."""
        from lexgraph.citations.stream import iter_citations

        return iter_citations(blocks, context, precedents=precedents)


def ginza_extractor() -> Extractor:
    """The GiNZA extractor; `ToolMissing` when spaCy or the ``ja_ginza`` model is not installed (what to install
    is in the message)."""
    from lexgraph.citations.ginza import GinzaExtractor, load_ginza

    try:
        return GinzaExtractor(load_ginza())
    except (ImportError, OSError) as error:
        raise ToolMissing(f"the ginza extractor needs spaCy and the ja_ginza model (pip install ja-ginza): "
                          f"{error}") from error


#: name → the function that makes the extractor (``"module:function"``, imported when asked for).
EXTRACTOR_REGISTRY = lazy_table("extractor", {
    "rules": "lexgraph.citations.extractors:RuleExtractor",
    "ginza": "lexgraph.citations.extractors:ginza_extractor",
}, unknown=lambda name, names: f"unknown extractor {name!r}: choose from {', '.join(names)}")
EXTRACTORS = EXTRACTOR_REGISTRY.names()  # the built-in names, as the CLI's help lists them


def extractor_names() -> tuple[str, ...]:
    """The extractors registered now (one registered at run time included): what `--extractor` accepts."""
    return EXTRACTOR_REGISTRY.names()


def extractor_named(name: str) -> Extractor:
    """The extractor called `name`. Raises `ConfigurationError` for a name not registered (`EXTRACTOR_REGISTRY`), and
    `ToolMissing` for ``ginza`` when spaCy or the ``ja_ginza`` model is not installed (what to install is in the
    message)."""
    extractor: Extractor = EXTRACTOR_REGISTRY.entry(name).load()()
    return extractor
