"""`lexgraph export rdf`: a citation neighbourhood as RDF (Turtle), for triple stores and RDF tools."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from lexgraph.cli.graph import load_neighbourhood
from lexgraph.cli.options import DepthOpt, GraphAsOfOpt, MaxNodesOpt, StoreOpt
from lexgraph.cli.output import err, opened, write_blocks_out, write_text_out
from lexgraph.errors import ConfigurationError

app = typer.Typer(no_args_is_help=True, help="The graph in other formats.")


@app.command("rdf")
def export_rdf(
    node: Annotated[str | None, typer.Argument(help="A uid (hanrei:91244, a doc: uid, a clause uid), a lawsuit id "
                                               "(91244) or a law and clause in force on --as-of (\"民法 第七百九条\"); "
                                               "or none, with --law or --all.")] = None,
    depth: DepthOpt = 1,
    as_of: GraphAsOfOpt = None,
    max_nodes: MaxNodesOpt = 150,
    laws: Annotated[list[str] | None, typer.Option("--law", help="Instead of a neighbourhood: this whole law, every "
                                                   "wording and the cross-references leaving it; repeatable.")]
    = None,
    everything: Annotated[bool, typer.Option("--all", help="Instead of a neighbourhood: every stored law, written "
                                             "law by law as it is read (bounded memory).")] = False,
    out_file: Annotated[Path | None, typer.Option("--out", help="Write the Turtle to FILE (default: stdout).")] = None,
    store: StoreOpt = None,
) -> None:
    """The citation neighbourhood of a node as Turtle: laws as their e-Gov pages, clauses by law id and clause
    path, each wording with its period, judgments by their courts.go.jp lawsuit id, citations as lg:cites.
    With --law or --all, whole laws instead."""
    if sum((node is not None, bool(laws), everything)) != 1:
        raise ConfigurationError("give one of NODE, --law LAW or --all")
    if node is not None:
        text = load_neighbourhood(node, depth, as_of, max_nodes, store, as_turtle=True)
        write_text_out(text, out_file, f"{text.count(chr(10))} lines of Turtle")
        return
    with opened(store, read_only=True) as lg:
        blocks = lg.laws_turtle(None if everything else laws)
        written = write_blocks_out(blocks, out_file)
    if out_file is not None:
        err.print(f"wrote {out_file} ({written - 1:,} laws of Turtle)", highlight=False)
