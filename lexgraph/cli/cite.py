"""`lexgraph cite`: the statute and precedent citations in a text, resolved.

A text of any length is read in blocks and its citations are printed as they are found (`LexGraph.cite_pieces`
with a store, `read.citing.bundled_citations` without one), so that tens of MB of judgments take time and memory
in proportion, and a long run shows its progress on stderr.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from datetime import date
from itertools import chain, groupby, islice
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from lexgraph import CITE_JSON_KEYS, DEFAULT_EXTRACTOR, clause_label, store_exists, store_location
from lexgraph.cli.options import ExtractorOpt, JsonOpt, StoreOpt, load_extractor, parse_day
from lexgraph.cli.output import (
    err,
    opened,
    out,
    progress_bar,
    read_blocks,
    table,
)
from lexgraph.errors import ConfigurationError

if TYPE_CHECKING:
    from lexgraph import Citation

_PROGRESS_FROM_BYTES = 1_000_000  # a shorter file is done before a bar would be worth drawing
_TABLE_ROWS = 500  # the table is printed in parts of this many rows, so that a long text needs no more memory


def cite(
    file: Annotated[str, typer.Argument(help="A text file (UTF-8, Shift_JIS or EUC-JP), or - for standard "
                                        "input.")] = "-",
    as_of: Annotated[str | None, typer.Option("--as-of", help="Date (YYYY-MM-DD or 令和3年1月1日, R3.1.1): "
                                              "the statutes are read as of; "
                                              "default: the judgment's date in the text, else today.")] = None,
    in_law: Annotated[str | None, typer.Option("--in-law", help="The text is a clause of this law (with --at: "
                                               "which one).")] = None,
    at: Annotated[str | None, typer.Option("--at", help="The clause of --in-law the text is (第二十一条第二項), so "
                                           "that 前項 resolves.")] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
    as_jsonl: Annotated[bool, typer.Option("--jsonl", help="Print one JSON object per citation and line "
                                           "(JSON Lines), for long texts.")] = False,
    extractor: ExtractorOpt = DEFAULT_EXTRACTOR,
) -> None:
    """Find and resolve the statute and precedent citations in a text."""
    from lexgraph import citation_day

    if at and not in_law:
        raise ConfigurationError("--at names a clause of the law given by --in-law; give --in-law too")
    load_extractor(extractor)
    if as_json and as_jsonl:
        raise ConfigurationError("--json and --jsonl are two forms of the same output; give one")
    size = None if file == "-" else _size(file)
    quiet = as_json or as_jsonl or (size is not None and size < _PROGRESS_FROM_BYTES)
    with progress_bar("kB", quiet=quiet) as progress:
        task = progress.add_task("reading", total=None if size is None else size // 1000)
        read = [0]  # bytes so far; the bar counts whole kB

        def advance(count: int) -> None:
            read[0] += count
            progress.update(task, completed=read[0] // 1000)

        blocks = read_blocks(file, on_bytes=advance)
        first = next(blocks, "")
        given = parse_day(as_of)
        day, why = citation_day(first, given)  # the date is in the header, in the first block
        err.print(f"as of {day} ({'--as-of' if why == 'given' else why})", style="dim", highlight=False)
        # Without --as-of, each judgment of the text is read as of its own header's date (a year of judgments).
        days: list[date] | None = [] if given is None and in_law is None else None
        citations = _citations(chain([first], blocks), store, as_of=day, in_law=in_law, at=at,
                               extractor=extractor, judgment_days=days)
        if as_json or as_jsonl:
            _write_json(citations, lines=as_jsonl)
        else:
            _print_tables(citations)
        if days is not None and len(days) > 1:
            shown = ", ".join(d.isoformat() for d in days[:5]) + (" …" if len(days) > 5 else "")
            err.print(f"{len(days)} judgments in the text, each read as of the date in its own header ({shown}); "
                      "each citation's as_of says which", style="dim", highlight=False)


def _citations(blocks: Iterable[str], given: str | None, *, as_of: date, in_law: str | None, at: str | None,
               extractor: str, judgment_days: list[date] | None) -> Iterator[Citation]:
    """The text's citations against the store at the location `given` by ``--store`` (`LexGraph.cite_pieces`:
    revision ids from the stored laws), or, where there is none (a fresh machine), against the bundled catalogue
    alone."""
    from lexgraph import bundled_citations

    location = store_location(given)
    if not store_exists(location):
        yield from bundled_citations(blocks, as_of=as_of, in_law=in_law, at=at, extractor=extractor,
                                     judgment_days=judgment_days)
        return
    with opened(location, read_only=True) as lg:
        yield from lg.cite_pieces(blocks, as_of=as_of, in_law=in_law, at=at, extractor=extractor,
                                  judgment_days=judgment_days)


def _size(file: str) -> int | None:
    try:
        return Path(file).stat().st_size
    except OSError:
        return None  # read_blocks says why it cannot be read


def _write_json(citations: Iterable[Citation], *, lines: bool) -> None:
    """``{"citations": [...]}`` exactly as `emit_json` prints it, or JSON Lines, written as the citations come."""
    write = sys.stdout.write
    if lines:
        for c in citations:
            write(_entry(c, "{", ", ", "}") + "\n")
        return
    opened = False
    for c in citations:
        write((",\n    " if opened else '{\n  "citations": [\n    ')
              + _entry(c, "{\n      ", ",\n      ", "\n    }", indent=2))
        opened = True
    write("\n  ]\n}\n" if opened else '{\n  "citations": []\n}\n')


def _entry(citation: Citation, opening: str, separator: str, closing: str, indent: int | None = None) -> str:
    """`citation.to_json()` as ``json.dumps(..., ensure_ascii=False, indent=indent)`` writes it (at depth 2 of
    the document when indented), laid out with `opening`, `separator` between the members and `closing`.

    Why not json's encoder: its indenting one is pure Python, and even its C one took two thirds of the cost of
    writing an entry (about 10 of a citation's 16 µs with the dict built for it): it is set up anew per call
    and encodes the same keys and mostly-null values afresh. Those texts repeat (the keys, null, the status,
    the law's title, the day), so each one's JSON text is remembered (`_JsonTexts`) and the members joined in C."""
    values = citation.json_values()
    if not _PLAIN_TYPES.issuperset(map(type, values)):  # in C: a Python loop here cost 5% of `cite`
        text = json.dumps(citation.to_json(), ensure_ascii=False, indent=indent, default=str)
        return text.replace("\n", "\n    ") if indent else text
    members = map(str.__add__, _KEY_TEXTS, map(_VALUE_TEXTS.__getitem__, values))
    return opening + separator.join(members) + closing


class _JsonTexts(dict[object, str]):
    """``json.dumps(value, ensure_ascii=False)`` by value, for values of `_PLAIN_TYPES` (no bool or float: 1, 1.0
    and True are one key of a dict); strings and null remembered, up to `_REMEMBERED_TEXTS`."""

    def __missing__(self, value: object) -> str:
        if type(value) is int:
            return int.__repr__(value)  # as json writes an int; offsets are not worth remembering
        text = json.dumps(value, ensure_ascii=False)
        if len(self) < _REMEMBERED_TEXTS:
            self[value] = text
        return text


# The value types `_entry` writes from `_JsonTexts` (an entry with anything else takes json's own path).
_PLAIN_TYPES = frozenset((str, int, type(None)))
_REMEMBERED_TEXTS = 50_000  # statuses, titles, days, paths, surfaces, reasons: a few MB at most
_KEY_TEXTS = tuple(json.dumps(key, ensure_ascii=False) + ": " for key in CITE_JSON_KEYS)
_VALUE_TEXTS = _JsonTexts()


def _print_tables(citations: Iterable[Citation]) -> None:
    """The citations as tables of `_TABLE_ROWS` rows; where the day they were read as of changes (the next
    judgment of a text of several), a line says the new day before its rows."""
    header, day = True, None
    for read_as_of, group in groupby(citations, key=attrgetter("as_of")):
        if not header:
            out.print(f"as of {read_as_of}", style="dim", highlight=False)
        day = read_as_of
        for part in _parts(iter(group), _TABLE_ROWS):
            _print_table(part, header)
            header = False
    if header and day is None:
        _print_table([], True)  # a text that cites nothing: the header alone


def _print_table(part: list[Citation], header: bool) -> None:
    grid = table("span", "surface", "cites", "status")
    grid.show_header = header
    for c in part:
        target = (f"{c.law_title or '?'} {clause_label(c.path) if c.path else ''}" if c.kind == "statute"
                  else f"{c.court or '?'} {c.date or ''} {c.decision_type or ''} {c.reporter or ''}")
        grid.add_row(f"{c.start}–{c.end}", c.surface.replace("\n", "⏎"), target.strip(),
                     c.status + (f" ({c.reason})" if c.reason else ""))
    out.print(grid)


def _parts(citations: Iterator[Citation], size: int) -> Iterator[list[Citation]]:
    while part := list(islice(citations, size)):
        yield part
