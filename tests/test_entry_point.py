"""Smoke tests of the `lexgraph` entry point in a real subprocess (`python -m lexgraph`): the rest of the CLI tests
run in-process (tests/helpers.py), so these hold the two to the same output and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from lexgraph.cli import COMMANDS, load_command
from tests.helpers import SAMPLE, lexgraph


@pytest.mark.parametrize(("args", "code"), [
    (("--help",), 0),
    (("law", "show"), 2),  # a usage error
    (("law", "versions", "民法", "--json"), 3),  # no store there
    (("cite", str(SAMPLE / "precedents" / "91244.txt"), "--json"), 0),
])
def test_a_subprocess_and_the_in_process_runner_agree(tmp_path: Path, args: tuple[str, ...], code: int) -> None:
    store = tmp_path / "no-store" if args[0] != "--help" else None
    ran = lexgraph(*args, store=store, subprocess=True)
    inside = lexgraph(*args, store=store)
    assert ran.code == inside.code == code, (ran.stderr, inside.stderr)
    assert ran.stdout == inside.stdout
    assert ("Traceback" in ran.stderr) is ("Traceback" in inside.stderr) is False
    if code:
        assert ran.stderr.strip() and ran.stderr == inside.stderr


def test_a_failing_store_fails_alike_in_both(tmp_path: Path) -> None:
    """A subprocess prints the traceback of an exception nothing caught; the in-process runner adds it too, so a
    test that asserts none is there keeps its meaning."""
    bad = tmp_path / "store"
    bad.write_text("not a folder")  # a file where the store's folder should be
    inside = lexgraph("ingest", "statutes", str(SAMPLE / "403AC0000000090_snapshot20201118.xml"), store=bad)
    ran = lexgraph("ingest", "statutes", str(SAMPLE / "403AC0000000090_snapshot20201118.xml"), store=bad,
                   subprocess=True)
    assert inside.code == ran.code != 0
    assert ("Traceback" in inside.stderr) is ("Traceback" in ran.stderr)


@pytest.mark.parametrize("name", [name for name, *_ in COMMANDS])
def test_the_command_list_says_what_each_command_says_of_itself(name: str) -> None:
    """`lexgraph --help` lists each command by the line `cli.COMMANDS` keeps, so that listing them imports none
    (a command's module loads only when it runs): that line must stay the command's own help (its first
    paragraph), which `lexgraph NAME --help` prints from the command itself."""
    line = next(line for known, _, _, line in COMMANDS if known == name)
    assert line == (load_command(name).help or "").split("\n\n")[0].strip()


def test_the_help_and_a_short_cite_import_no_other_command() -> None:
    """What keeps `lexgraph --help` and `lexgraph cite` fast: a command's module is imported when it runs, so the
    list imports no command at all and `cite` imports neither the client nor another command's library."""
    probe = ("import sys, json, runpy\nsys.argv = ['lexgraph', *sys.argv[1:]]\n"
             "try:\n    runpy.run_module('lexgraph', run_name='__main__')\nexcept SystemExit:\n    pass\n"
             "print(json.dumps(sorted(m for m in sys.modules if m.startswith('lexgraph'))), file=sys.stderr)")
    for args, absent in ((["--help"], ("lexgraph.cli.cite", "lexgraph.cli.ask", "lexgraph.citations")),
                         (["cite", "-", "--store", str(Path(__file__).parent / "no-store-here")],
                          ("lexgraph.client", "lexgraph.cli.ask", "lexgraph.answer", "lexgraph.index",
                           "lexgraph.store.embedded"))):
        done = subprocess.run([sys.executable, "-c", probe, *args], input="民法第七百九条", capture_output=True,
                              text=True, timeout=120, check=True)
        loaded = json.loads(done.stderr.strip().splitlines()[-1])
        assert [m for m in loaded if m.startswith(absent)] == [], args
        assert "lexgraph.cli" in loaded


def test_a_short_cite_imports_no_pydantic() -> None:
    """Typer builds a pydantic validator for each option it parses; `cli/plain_text.py` takes a text option's text
    and a flag's bool as given instead, so a short `cite` with text options and flags never imports pydantic (about
    a third of its start-up)."""
    probe = ("import sys, runpy\nsys.argv = ['lexgraph', *sys.argv[1:]]\n"
             "try:\n    runpy.run_module('lexgraph', run_name='__main__')\nexcept SystemExit as stop:\n"
             "    assert not stop.code, stop.code\n"
             "print('pydantic' in sys.modules, file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", probe, "cite", "-", "--as-of", "2021-01-01", "--json", "--store",
                           str(Path(__file__).parent / "no-store-here")], input="民法第七百九条", capture_output=True,
                          text=True, timeout=120, check=True)
    assert json.loads(done.stdout)["citations"][0]["law_title"] == "民法"
    assert done.stderr.strip().splitlines()[-1] == "False"


def test_text_taken_as_given_and_anything_else_through_typers_own_coercion() -> None:
    """A text option's str comes back as it is; bytes (what Typer decodes) still go through Typer's coercion, and
    an option of another type (an int) keeps Typer's. If a later Typer lacks the slot this relies on, this fails
    so that someone looks (the commands would stay correct, only slower to start)."""
    from lexgraph.cli.plain_text import TextAsGiven, take_text_as_given

    cite = load_command("cite")
    ctx = cite.make_context("cite", [])
    as_of = next(p for p in cite.params if p.name == "as_of")
    assert isinstance(as_of._runtime_param, TextAsGiven)
    text = "2021-01-01"
    assert as_of.process_value(ctx, text) is text
    assert as_of.process_value(ctx, "令和3年1月1日".encode()) == "令和3年1月1日"
    assert as_of.process_value(ctx, None) is None
    assert cite.get_help_option(ctx).process_value(ctx, None) is None
    assert isinstance(cite.get_help_option(ctx)._runtime_param, TextAsGiven)
    neighbourhood = load_command("graph").commands["neighbourhood"]
    depth = next(p for p in neighbourhood.params if p.name == "depth")
    assert not isinstance(depth._runtime_param, TextAsGiven)
    assert depth.process_value(neighbourhood.make_context("neighbourhood", ["x"]), "3") == 3
    show = load_command("law").commands["show"]  # a group's commands too
    assert isinstance(next(p for p in show.params if p.name == "law")._runtime_param, TextAsGiven)
    assert take_text_as_given(show) == 0  # none left to change: each is changed once
