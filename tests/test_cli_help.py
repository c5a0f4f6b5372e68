"""Help that reads right on an 80-column terminal: `lexgraph --help` and every command's and sub-command's help,
rendered by the real CLI, show flags as flags (never ``--json <bool>``, which reads as if it took a value), wrap
every line whole (no "…" where the rest was cut, no line wider than the terminal), and tell a user what an option
does, not the project's history (an issue's number or section); ``lexgraph --version`` names the package's version."""

from __future__ import annotations

import re

import pytest
from rich.cells import cell_len

from lexgraph.cli import COMMANDS, load_command
from lexgraph.version import __version__
from tests.helpers import lexgraph

NARROW = {"COLUMNS": "80"}


def _commands() -> list[tuple[str, ...]]:
    """Every command line that has a help of its own: the group, each command, each sub-command."""
    found: list[tuple[str, ...]] = [()]

    def walk(command: object, path: tuple[str, ...]) -> None:
        found.append(path)
        for name, sub in (getattr(command, "commands", None) or {}).items():
            walk(sub, (*path, name))

    for name, *_ in COMMANDS:
        walk(load_command(name), (name,))
    return found


@pytest.mark.parametrize("command", _commands(), ids=lambda path: " ".join(path) or "lexgraph")
def test_help_at_80_columns_reads_right(command: tuple[str, ...]) -> None:
    done = lexgraph(*command, "--help", env=NARROW)
    assert done.code == 0, done.stderr
    shown = done.stdout
    assert "Usage:" in shown
    assert "…" not in shown, shown  # a word or line cut short
    assert "<bool>" not in shown, shown  # a flag shown as if it took a value
    assert not re.search(r"\bissue \d|\(issue|§\d", shown), shown  # the project's history is no user's business
    assert max(cell_len(line.rstrip()) for line in shown.splitlines()) <= 80, shown


def test_a_flag_takes_no_value() -> None:
    """`--json true` is a usage error: the help must not suggest it."""
    done = lexgraph("stats", "--json", "true")
    assert done.code == 2
    shown = lexgraph("stats", "--help", env=NARROW).stdout
    assert re.search(r"--json\s+Print the result as JSON", shown), shown


def test_version() -> None:
    done = lexgraph("--version")
    assert done.code == 0, done.stderr
    assert done.stdout.strip() == f"lexgraph {__version__}"


def test_a_list_of_commands_wraps_each_line_whole() -> None:
    """A command's line in `lexgraph --help` is wrapped at the terminal's width, not where the source broke it."""
    shown = lexgraph("--help", env=NARROW).stdout
    assert re.search(r"Neo4j, say\)\. Running it again changes nothing\.", shown), shown


#: The commands README.md names as taking no --json (their output is a format of its own) or no --store.
NO_JSON = {("viz",), ("mcp",), ("export", "rdf"), ("knowledge", "export")}
NO_STORE = {("experiment", "list")}


def test_every_command_takes_store_and_json_as_the_readme_says() -> None:
    from tests.helpers import ROOT

    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    for path in _commands():
        command = load_command(path[0]) if path else None
        for name in path[1:]:
            command = command.commands[name]  # type: ignore[union-attr]
        if command is None or getattr(command, "commands", None):
            continue  # a group
        options = {option for param in command.params for option in getattr(param, "opts", ())}
        assert ("--json" in options) != (path in NO_JSON), path
        assert ("--store" in options) != (path in NO_STORE), path
    for path in NO_JSON | NO_STORE:
        assert f"`{' '.join(path)}`" in readme or f"`{' '.join(path)}`:" in readme, path
