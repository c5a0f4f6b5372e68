"""`lexgraph graph neighbourhood` and `lexgraph viz`: the citation graph around a node, listed or drawn."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from lexgraph.cli.options import DepthOpt, GraphAsOfOpt, JsonOpt, MaxNodesOpt, NodeArg, StoreOpt, parse_day
from lexgraph.cli.output import emit_json, err, opened, out, table
from lexgraph.errors import ConfigurationError, InputError

app = typer.Typer(no_args_is_help=True, help="The citation graph around a node (see also `lexgraph viz`).")


def load_neighbourhood(node: str, depth: int, as_of: str | None, max_nodes: int, store: str | None,
                       *, as_turtle: bool = False) -> Any:
    """The neighbourhood of `node` (a `Neighbourhood`), or with `as_turtle` the same as RDF (`lexgraph export
    rdf`), after the options are checked."""
    if depth < 0:
        raise ConfigurationError("--depth must be 0 or more")
    if max_nodes < 1:
        raise ConfigurationError("--max-nodes must be at least 1")
    day = parse_day(as_of)
    with opened(store, read_only=True) as lg:
        read = lg.neighbourhood_turtle if as_turtle else lg.neighbourhood
        return read(node, depth, as_of=day, max_nodes=max_nodes)


@app.command("neighbourhood")
def graph_neighbourhood(
    node: NodeArg,
    depth: DepthOpt = 1,
    as_of: GraphAsOfOpt = None,
    max_nodes: MaxNodesOpt = 150,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The citation neighbourhood of a node at document level: precedents, books and guidelines as single nodes,
    clauses as their articles, edges counting the citations they stand for."""
    hood = load_neighbourhood(node, depth, as_of, max_nodes, store)
    if as_json:
        emit_json(hood.to_json())
        return
    out.print(hood.note, style="dim", highlight=False)
    grid = table("distance", "kind", "caption", "uid")
    for n in hood.nodes:
        grid.add_row(str(n.distance), n.kind, n.caption, n.uid)
    out.print(grid)
    captions = {n.uid: n.caption for n in hood.nodes}
    for e in hood.edges:
        out.print(f"  {captions[e.source]} → {captions[e.target]}  {e.type} ×{e.count}", highlight=False)


def viz(
    node: NodeArg,
    out_file: Annotated[Path, typer.Option("--out", help="FILE.png, FILE.svg, FILE.html (the SVG inline) or "
                                                      "FILE.dot (the Graphviz source; needs no Graphviz).")],
    depth: DepthOpt = 1,
    as_of: GraphAsOfOpt = None,
    max_nodes: MaxNodesOpt = 150,
    store: StoreOpt = None,
) -> None:
    """Draw the citation neighbourhood of a node with Graphviz: laws red, precedents gold, guidelines green, books
    blue, other documents grey, cited-but-not-stored precedents dashed."""
    from lexgraph import Graphing

    if out_file.suffix.lower() not in Graphing.picture_formats():
        raise ConfigurationError(f"--out {out_file}: write the picture as .png, .svg, .html or .dot")
    if out_file.suffix.lower() != ".dot":
        Graphing.require_graphviz()  # `ToolMissing` (exit 3) saying how to install it
    hood = load_neighbourhood(node, depth, as_of, max_nodes, store)
    try:
        written = Graphing.draw(hood, out_file)
    except OSError as error:
        raise InputError(f"{out_file}: cannot be written ({error.strerror})") from error
    err.print(f"wrote {written}: {hood.note}", highlight=False)
