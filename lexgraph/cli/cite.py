"""`lexgraph cite`: the statute and precedent citations in a text, resolved."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from lexgraph.cli.options import JsonOpt, StoreOpt, parse_day
from lexgraph.cli.output import EXIT_BAD_INPUT, EXIT_USAGE, emit_json, err, fail, library_errors, out, read_text
from lexgraph.client import citation_day, cite_text


def cite(
    file: Annotated[str, typer.Argument(help="A text file (UTF-8, Shift_JIS or EUC-JP), or - for standard "
                                        "input.")] = "-",
    as_of: Annotated[str | None, typer.Option("--as-of", help="Date (YYYY-MM-DD or 令和3年1月1日, R3.1.1): "
                                              "the statutes are read as of; "
                                              "default: the judgment's date in the text, else today.")] = None,
    in_law: Annotated[str | None, typer.Option("--in-law", help="The text is a clause of this law …")] = None,
    at: Annotated[str | None, typer.Option("--at", help="… namely this clause (第二十一条第二項), so that 前項 "
                                           "resolves.")] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Find and resolve the statute and precedent citations in a text."""
    if at and not in_law:
        fail("--at names a clause of the law given by --in-law; give --in-law too", EXIT_USAGE)
    text = read_text(file)
    day, why = citation_day(text, parse_day(as_of))
    err.print(f"as of {day} ({'--as-of' if why == 'given' else why})", style="dim", highlight=False)
    try:
        with library_errors():
            citations = cite_text(text, store=store, as_of=day, in_law=in_law, at=at)
    except ValueError as error:
        fail(str(error), EXIT_BAD_INPUT)
    if as_json:
        emit_json({"citations": [c.to_json() for c in citations]})
        return
    table = Table("span", "surface", "kind", "cites", "status")
    for c in citations:
        target = (f"{c.law_title or '?'} {c.path or ''}" if c.kind == "statute"
                  else f"{c.court or '?'} {c.date or ''} {c.decision_type or ''} {c.reporter or ''}")
        table.add_row(f"{c.start}–{c.end}", c.surface.replace("\n", "⏎"), c.kind, target.strip(),
                      c.status + (f" ({c.reason})" if c.reason else ""))
    out.print(table)
