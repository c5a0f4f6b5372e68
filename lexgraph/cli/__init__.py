"""The `lexgraph` command: one Typer sub-app per file, each a thin face over `lexgraph.LexGraph`.

Results go to stdout (as JSON with ``--json``); progress and messages go to stderr. Exit codes (DESIGN §8):
0 ok, 1 bad input, 2 usage, 3 store or model unavailable: the command group runs every command inside one
handler (`output.library_errors`), which prints a `LexGraphError`'s message and exits with its `exit_code`.
The command modules import the public face (`lexgraph`: `LexGraph`, options, results, errors), the public names of
the modules that own a default, a list of choices or a report writer, and this package's `options` and `output`
(tests/test_architecture.py), and nothing heavy at import time, so that
``lexgraph --help``, ``law show`` and ``cite`` start in well under a second.
"""

from __future__ import annotations

from typing import Any

import typer
from rich.markup import escape
from typer.core import TyperGroup

from lexgraph.cli import (
    ask,
    cite,
    eval,
    experiment,
    export,
    graph,
    ingest,
    knowledge,
    law,
    mcp,
    output,
    precedent,
    search,
    store,
    sync,
)
from lexgraph.cli.output import err, library_errors


class Commands(TyperGroup):
    """The command group: every command (of every sub-app) runs inside the one error handler."""

    def invoke(self, ctx: Any) -> Any:  # Typer's own click Context
        with library_errors():
            return super().invoke(ctx)


class _App(typer.Typer):
    """The command, whose result that cannot be written (stdout on a full disk) ends in one line and exit 1
    (`output.guard_stdout`)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return output.guard_stdout(lambda: super(_App, self).__call__(*args, **kwargs))


app = _App(cls=Commands, no_args_is_help=True, add_completion=False,
           help="Japanese law as a versioned citation graph.")
app.add_typer(ingest.app, name="ingest")
app.add_typer(law.app, name="law")
app.add_typer(eval.app, name="eval")
app.add_typer(experiment.app, name="experiment")
app.add_typer(precedent.app, name="precedent")
app.add_typer(graph.app, name="graph")
app.add_typer(export.app, name="export")
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
app.command("mcp")(mcp.mcp_command)
app.command("sync")(sync.sync_command)

__all__ = ["app", "main"]


def main(argv: list[str] | None = None) -> int:
    """The command's exit code without a subprocess: 0 ok, what a failing command exits with (1, 2 or 3), and 2
    for a usage error (an unknown option or command, a missing argument), whose message goes to stderr."""
    try:
        returned = app(args=argv, prog_name="lexgraph", standalone_mode=False)
    except typer.TyperException as error:  # usage: bad options or arguments (Typer's own click)
        show = getattr(error, "show", None)  # the usage line and the message, on stderr
        if show is not None:
            show()
        else:
            err.print(f"[bold red]error:[/] {escape(error.format_message())}", highlight=False)
        return error.exit_code
    except typer.Abort:
        return 1
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else int(stop.code is not None)
    return returned if isinstance(returned, int) else 0
