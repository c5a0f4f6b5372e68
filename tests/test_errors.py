"""One error tree: every error lexgraph raises derives from `LexGraphError`, keeps the built-in it
refines, and leaves the CLI through one handler with its own exit code (0 ok, 1 bad input or not found, 2 usage,
3 unavailable). The table walks every subclass defined anywhere in lexgraph, so a new error is checked the day it
is written."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pytest
import typer

import lexgraph
from lexgraph import errors
from lexgraph.cli import Commands, main
from lexgraph.cli.output import guard_stdout
from lexgraph.errors import LexGraphError

#: The branch each exit code belongs to: a class's code is its nearest branch's.
BRANCH_CODES = {errors.InputError: 1, errors.NotFound: 1, errors.ConfigurationError: 2, errors.Unavailable: 3}


def every_error_class() -> list[type[LexGraphError]]:
    """Every subclass of `LexGraphError` in lexgraph's modules (each module imported, so none is missed)."""
    for module in pkgutil.walk_packages(lexgraph.__path__, "lexgraph."):
        if module.name != "lexgraph.__main__":
            importlib.import_module(module.name)
    found: list[type[LexGraphError]] = []
    todo: list[type[LexGraphError]] = [LexGraphError]
    while todo:
        cls = todo.pop()
        if cls not in found:
            found.append(cls)
            todo.extend(cls.__subclasses__())
    return sorted(found, key=lambda c: f"{c.__module__}.{c.__qualname__}")


ERROR_CLASSES = every_error_class()


def expected_code(cls: type[LexGraphError]) -> int:
    for branch, code in BRANCH_CODES.items():
        if issubclass(cls, branch):
            return code
    return errors.EXIT_BAD_INPUT  # the root itself


def make(cls: type[LexGraphError], message: str) -> LexGraphError:
    """An instance with `message` as its text, whatever the class's constructor asks for."""
    import errno

    from lexgraph.errors import OutputFailed, QueryRefused, RetriesExhausted, StatuteXmlError

    if issubclass(cls, OutputFailed):
        return cls(OSError(errno.ENOSPC, message))
    if issubclass(cls, QueryRefused):
        return cls(message, clause="LOAD FROM", offset=0)
    if issubclass(cls, StatuteXmlError):
        return cls("law.xml", message)
    if issubclass(cls, RetriesExhausted):
        return cls(message, ())
    return cls(message)


def test_the_walk_finds_the_tree_and_the_modules_errors() -> None:
    names = {cls.__name__ for cls in ERROR_CLASSES}
    assert {name for name in errors.__all__ if not name.startswith("EXIT_")} <= names
    assert {"StoreError", "LawNotFound", "DateFormatError", "RetriesExhausted", "ToolMissing"} <= names
    assert len(ERROR_CLASSES) > 30


@pytest.mark.parametrize("cls", ERROR_CLASSES, ids=lambda c: c.__name__)
def test_each_error_keeps_its_builtin_and_its_branchs_exit_code(cls: type[LexGraphError]) -> None:
    assert cls.exit_code == expected_code(cls)
    builtin = {1: (ValueError, LookupError), 2: (ValueError,), 3: (RuntimeError,)}[cls.exit_code]
    assert cls is LexGraphError or issubclass(cls, builtin)


def raising_app(error: LexGraphError) -> typer.Typer:
    """A command group of the CLI's own kind (`lexgraph.cli.Commands`) whose one command raises `error`."""
    app = typer.Typer(cls=Commands, add_completion=False)

    @app.command()
    def fails() -> None:
        raise error

    @app.command()
    def works() -> None:
        """A second command, so that the group keeps its subcommands."""

    return app


@pytest.mark.parametrize("cls", ERROR_CLASSES, ids=lambda c: c.__name__)
def test_the_cli_prints_each_error_on_one_line_and_exits_with_its_code(
        cls: type[LexGraphError], capsys: pytest.CaptureFixture[str]) -> None:
    message = f"{cls.__name__} said what to do"
    app = raising_app(make(cls, message))
    try:  # every command runs inside `guard_stdout` too (`lexgraph.cli.app`), the one place for `OutputFailed`
        code = guard_stdout(lambda: app(args=["fails"], standalone_mode=False))
    except SystemExit as exited:
        code = exited.code
    assert code == cls.exit_code
    printed = capsys.readouterr()
    assert printed.out == ""
    assert message in printed.err and printed.err.count("\n") == 1


def test_an_error_that_is_not_lexgraphs_is_not_swallowed() -> None:
    app = typer.Typer(cls=Commands, add_completion=False)

    @app.command()
    def fails() -> None:
        raise KeyError("a bug")

    @app.command()
    def works() -> None:
        """A second command."""

    with pytest.raises(KeyError):
        app(args=["fails"], standalone_mode=False)


def test_usage_errors_return_2_instead_of_raising(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--bogus"]) == 2
    assert "--bogus" in capsys.readouterr().err
    assert main(["law", "show"]) == 2  # a missing argument
    assert main(["no-such-command"]) == 2
    assert main(["--help"]) == 0


def test_the_real_commands_exit_with_their_errors_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Bad input (1), a setting that cannot be used (2) and a missing store (3) through real commands."""
    text = tmp_path / "judgment.txt"
    text.write_text("民法第七百九条による損害賠償を求めた。", encoding="utf-8")
    nowhere = str(tmp_path / "no-store")
    assert main(["cite", str(text), "--in-law", "存在しない法律", "--store", nowhere]) == 1  # InputError
    assert "存在しない法律" in capsys.readouterr().err
    assert main(["cite", str(text), "--as-of", "someday", "--store", nowhere]) == 2  # a date option: usage
    assert "--as-of" in capsys.readouterr().err
    assert main(["search", "不法行為", "--mode", "psychic", "--store", nowhere]) == 2  # ConfigurationError
    assert "psychic" in capsys.readouterr().err
    assert main(["law", "show", "民法", "第一条", "--store", nowhere]) == 3  # no store
    assert "no store" in capsys.readouterr().err
    assert main(["cite", str(text), "--store", nowhere]) == 0  # the bundled catalogue, without a store
