"""`lexgraph export rdf`: a citation neighbourhood as RDF (Turtle), for triple stores and RDF tools."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from lexgraph.cli.graph import load_neighbourhood
from lexgraph.cli.options import DepthOpt, GraphAsOfOpt, MaxNodesOpt, NodeArg, StoreOpt
from lexgraph.cli.output import write_text_out

app = typer.Typer(no_args_is_help=True, help="The graph in other formats.")


@app.command("rdf")
def export_rdf(
    node: NodeArg,
    depth: DepthOpt = 1,
    as_of: GraphAsOfOpt = None,
    max_nodes: MaxNodesOpt = 150,
    out_file: Annotated[Path | None, typer.Option("--out", help="Write the Turtle to FILE (default: stdout).")] = None,
    store: StoreOpt = None,
) -> None:
    """The citation neighbourhood of a node as Turtle: laws as their e-Gov pages, clauses by law id and clause
    path, each wording with its period, judgments by their courts.go.jp lawsuit id, citations as lg:cites."""
    text = load_neighbourhood(node, depth, as_of, max_nodes, store, as_turtle=True)
    write_text_out(text, out_file, f"{text.count(chr(10))} lines of Turtle")
