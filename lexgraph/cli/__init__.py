"""The `lexgraph` command: one Typer sub-app per file, each a thin face over `lexgraph.client.LexGraph`.

Results go to stdout (as JSON with ``--json``); progress and messages go to stderr. Exit codes (DESIGN §8):
0 ok, 1 bad input, 2 usage, 3 store or model unavailable. The command modules import `lexgraph.client` and this
package's `options` and `output` only (tests/test_architecture.py), and nothing heavy at import time, so that
``lexgraph --help``, ``law show`` and ``cite`` start in well under a second.
"""

from __future__ import annotations

import typer

from lexgraph.cli import ask, cite, eval, experiment, graph, ingest, knowledge, law, precedent, search, store, sync

app = typer.Typer(no_args_is_help=True, add_completion=False, help="Japanese law as a versioned citation graph.")
app.add_typer(ingest.app, name="ingest")
app.add_typer(law.app, name="law")
app.add_typer(eval.app, name="eval")
app.add_typer(experiment.app, name="experiment")
app.add_typer(precedent.app, name="precedent")
app.add_typer(graph.app, name="graph")
app.command()(cite.cite)
app.command()(store.stats)
app.command()(store.doctor)
app.command()(store.migrate)
app.command()(store.copy)
app.command()(store.query)
app.command()(graph.viz)
app.command("index")(search.index_command)
app.command("search")(search.search_command)
app.command("ask")(ask.ask_command)
app.add_typer(knowledge.app, name="knowledge")
app.command("sync")(sync.sync_command)

__all__ = ["app", "main"]


def main(argv: list[str] | None = None) -> int:
    """Entry point for tests that want the exit code without a subprocess."""
    try:
        app(args=argv, standalone_mode=False)
    except typer.Exit as stop:
        return stop.exit_code
    except SystemExit as stop:  # click usage errors
        return int(stop.code or 0)
    return 0
