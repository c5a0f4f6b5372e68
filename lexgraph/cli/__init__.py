"""The `lexgraph` command: one Typer sub-app per file, each a thin face over `lexgraph.LexGraph`.

Results go to stdout (as JSON with ``--json``); progress and messages go to stderr. Exit codes:
0 ok, 1 bad input, 2 usage, 3 store or model unavailable: the command group runs every command inside one
handler (`output.library_errors`), which prints a `LexGraphError`'s message and exits with its `exit_code`.
The command modules import the package root alone (`lexgraph`: `LexGraph` and its facades, the options with their
defaults and choices, results, errors, and what the faces read besides), `lexgraph.errors`, and this package's own
modules (tests/test_architecture.py), and nothing heavy at import time, so that
``lexgraph --help``, ``law show`` and ``cite`` start in well under a second.
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from importlib import import_module
from typing import Annotated, Any

import typer
from rich.markup import escape
from typer.core import TyperCommand, TyperGroup

from lexgraph.cli import output
from lexgraph.cli.help_format import readable_help
from lexgraph.cli.output import add_buffer_pool_option, err, library_errors
from lexgraph.cli.plain_text import as_given, take_text_as_given

readable_help()

#: Every command of ``lexgraph``, in the order ``lexgraph --help`` lists them: its name, the module and attribute
#: that define it (a command function, or a Typer sub-app for a group), and the line the list shows, which is the
#: command's own help (its first paragraph; tests/test_entry_point.py checks that each line still is). A command's
#: module is imported only when that command runs or shows its own help, so that ``lexgraph --help`` and
#: ``lexgraph cite`` load no other command's imports.
COMMANDS: tuple[tuple[str, str, str, str], ...] = (
    ("cite", "lexgraph.cli.cite", "cite", "Find and resolve the statute and precedent citations in a text."),
    ("stats", "lexgraph.cli.store", "stats", "Node counts per label and relationship counts per type."),
    ("doctor", "lexgraph.cli.store", "doctor",
     "Check migrations, counts and consistency, and say what to do about any problem."),
    ("migrate", "lexgraph.cli.store", "migrate",
     "Apply pending schema migrations (write commands do this on their own)."),
    ("copy", "lexgraph.cli.store", "copy",
     "Copy the whole graph into another store (an embedded store into Neo4j, say). Running it again changes\n"
     "nothing."),
    ("query", "lexgraph.cli.store", "query", "Run your own Cypher, read-only: a query that writes is refused."),
    ("viz", "lexgraph.cli.graph", "viz",
     "Draw the citation neighbourhood of a node with Graphviz: laws red, precedents gold, guidelines green, books\n"
     "blue, other documents grey, cited-but-not-stored precedents dashed."),
    ("index", "lexgraph.cli.search", "index_command",
     "Build or refresh the BM25 and vector indexes of clauses and chunks from the graph (only what changed)."),
    ("search", "lexgraph.cli.search", "search_command",
     "Rank clauses and chunks for a question, and select evidence through the citation graph."),
    ("ask", "lexgraph.cli.ask", "ask_command",
     "Answer with the clauses and precedents each sentence relies on. Without a model (LEXGRAPH_LLM_MODEL), the\n"
     "answer is extractive and says so."),
    ("mcp", "lexgraph.cli.mcp", "mcp_command",
     "Serve the store to AI assistants (MCP), read-only: clauses as of a day, versions, diffs, citations,\n"
     "precedents, search and answers."),
    ("sync", "lexgraph.cli.sync", "sync_command",
     "Fetch each law's revision list from e-Gov and every revision the store lacks, each stored with the period\n"
     "the list gives; revisions not yet in force are stored as scheduled. Answers are cached beside the store, so a\n"
     "killed sync resumes without fetching again what it had."),
    ("ingest", "lexgraph.cli.ingest", "app", "Load data into the store."),
    ("law", "lexgraph.cli.law", "app", "Read laws as of a date."),
    ("eval", "lexgraph.cli.eval", "app", "Measure extraction, retrieval and answers on gold data."),
    ("experiment", "lexgraph.cli.experiment", "app", "The seed papers' experiments, with their published parameters."),
    ("precedent", "lexgraph.cli.precedent", "app", "Read precedents."),
    ("graph", "lexgraph.cli.graph", "app", "The citation graph around a node (see also `lexgraph viz`)."),
    ("export", "lexgraph.cli.export", "app", "The graph in other formats."),
    ("knowledge", "lexgraph.cli.knowledge", "app", "Capture contract-review knowledge linked to clauses."),
)
_WHERE = {name: (module, attribute) for name, module, attribute, _ in COMMANDS}


def load_command(name: str) -> Any:
    """The click command `name` (a Typer command or group), its module imported now."""
    module, attribute = _WHERE[name]
    defined = getattr(import_module(module), attribute)
    command: Any
    if isinstance(defined, typer.Typer):
        command = typer.main.get_group(defined)
    else:
        single = typer.Typer(add_completion=False)
        single.command(name)(defined)
        command = typer.main.get_command(single)
    command.name = name
    add_buffer_pool_option(command)  # beside every --store
    take_text_as_given(command)  # no pydantic validator for a text option's text (cli/plain_text.py)
    return command


class _Loaded(MutableMapping[str, Any]):
    """The group's commands by name, each loaded on first use (`load_command`): every name of `COMMANDS` is a key
    from the start, so that Typer's lookups and its "Did you mean …?" see them all."""

    def __init__(self) -> None:
        self._loaded: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        if name not in self._loaded:
            if name not in _WHERE:
                raise KeyError(name)
            self._loaded[name] = load_command(name)
        return self._loaded[name]

    def __setitem__(self, name: str, command: Any) -> None:
        self._loaded[name] = command

    def __delitem__(self, name: str) -> None:
        del self._loaded[name]

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys([*_WHERE, *self._loaded]))

    def __len__(self) -> int:
        return len(set(_WHERE) | set(self._loaded))


class Commands(TyperGroup):
    """A command group whose every command (of every sub-app) runs inside the one error handler."""

    def invoke(self, ctx: Any) -> Any:  # Typer's own click Context
        with library_errors():
            return super().invoke(ctx)


class LazyCommands(Commands):
    """``lexgraph``'s group: the commands of `COMMANDS`, each imported when it runs (`load_command`); the list
    ``--help`` prints comes from `COMMANDS`' lines, without importing any. An argument that is not UTF-8 text is
    refused before any command sees it (`output.check_arguments`)."""

    _listing = False

    def invoke(self, ctx: Any) -> Any:  # Typer's own click Context
        with library_errors():  # its refusal is a `ConfigurationError`, shown as every other error is
            output.check_arguments([*getattr(ctx, "_protected_args", []), *ctx.args])
        return super().invoke(ctx)

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        self.commands = _Loaded()

    def list_commands(self, ctx: Any) -> list[str]:
        return list(self.commands)  # the names: Typer's own reads every command

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if self._listing and cmd_name in _LINES:
            return TyperCommand(cmd_name, help=_LINES[cmd_name])  # its line, without importing it
        return self.commands.get(cmd_name)

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)
        if option is not None:
            as_given(option)  # its value without pydantic (cli/plain_text.py)
        return option

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False


_LINES = {name: line for name, _, _, line in COMMANDS}


class _App(typer.Typer):
    """The command, whose result that cannot be written (stdout on a full disk) ends in one line and exit 1
    (`output.guard_stdout`)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return output.guard_stdout(lambda: super(_App, self).__call__(*args, **kwargs))


app = _App(cls=LazyCommands, no_args_is_help=True, add_completion=False,
           help="Japanese law as a versioned citation graph.")


def _show_version(given: bool) -> None:
    if given:
        import lexgraph

        typer.echo(f"lexgraph {lexgraph.__version__}")
        raise typer.Exit()


@app.callback()
def _root(version: Annotated[bool, typer.Option(
        "--version", callback=_show_version, is_eager=True, help="Print lexgraph's version and exit.")] = False,
          ) -> None:
    """The group itself does nothing: each command is loaded when it runs (`LazyCommands`)."""


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
            err.print(f"[bold red]error:[/] {escape(output.line_shown(error.format_message()))}", highlight=False)
        return error.exit_code
    except typer.Abort:
        return 1
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else int(stop.code is not None)
    return returned if isinstance(returned, int) else 0
