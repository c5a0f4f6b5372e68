"""`lexgraph precedent show`: a precedent, what it cites and who cites it."""

from __future__ import annotations

from typing import Annotated

import typer

from lexgraph import NOT_STORED_LABEL, clause_label
from lexgraph.cli.options import JsonOpt, StoreOpt
from lexgraph.cli.output import emit_json, one_line, opened, out

app = typer.Typer(no_args_is_help=True, help="Read precedents.")


@app.command("show")
def precedent_show(
    case: Annotated[str, typer.Argument(help="Lawsuit id (91244), uid, case number, case name (原状回復等請求事件) "
                                        "or a landmark's name (三菱樹脂事件).")],
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """A precedent: its header, what it cites (clauses as of its date, precedents) and who cites it."""
    with opened(store, read_only=True) as lg:
        view = lg.precedent(case)
    data = view.to_json()
    if as_json:
        emit_json(data)
        return
    out.print(f"[bold]{data.get('case_name') or data.get('case_number') or data['uid']}[/]", highlight=False)
    out.print(f"{data.get('court') or ''} {data.get('date') or ''} {data.get('decision_type') or ''}  "
              f"{data.get('case_number') or ''}", highlight=False)
    if data.get("stub"):
        out.print(f"[yellow]{NOT_STORED_LABEL}[/]", highlight=False)
    for key, label in (("reporter", "reporter"), ("holdings", "判示事項"), ("summary", "判決要旨")):
        if data.get(key):
            out.print(f"{label}: {data[key]}", highlight=False)
    out.print(f"{data['chunks']} chunks; cites {len(data['cites_clauses'])} clauses, "
              f"{len(data['cites_precedents'])} precedents; cited by {len(data['cited_by'])}", highlight=False)
    for row in data["cites_clauses"]:  # this precedent 「words」 → the clause
        out.print(f"  「{one_line(row['surface'])}」 → {row['law_title']} {clause_label(row['path'])}", highlight=False)
    for row in data["cites_precedents"]:
        out.print(f"  「{one_line(row['surface'])}」", highlight=False)  # a long quotation: the decision below
        out.print(f"    → {row['court']} {row['date']} {row['decision_type']} {row['case_number'] or ''}",
                  highlight=False)
        if row["stub"]:
            out.print(f"    [yellow]{NOT_STORED_LABEL}[/]", highlight=False)
    for row in data["cited_by"]:  # the citing document → this precedent
        out.print(f"  cited by {row['uid']}:", highlight=False)
        out.print(f"  「{one_line(row['surface'])}」", highlight=False)
