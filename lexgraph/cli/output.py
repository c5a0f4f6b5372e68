"""What every command shares on the way out: the consoles, exit codes, errors turned into messages, JSON, progress.

Results go to stdout (as JSON with ``--json``); progress and messages go to stderr. Exit codes (DESIGN §8):
0 ok, 1 bad input, 2 usage, 3 store, index or model unavailable.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn

from lexgraph.client import (
    ConfigError,
    EncodingError,
    InvalidQuery,
    LexGraph,
    LookupError_,
    StoreError,
    StoreUnavailable,
    decode_text,
    store_exists,
    store_location,
    unavailable_errors,
)

out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)

EXIT_BAD_INPUT, EXIT_USAGE, EXIT_UNAVAILABLE = 1, 2, 3


def fail(message: str, code: int) -> NoReturn:
    """Print `message` as an error on stderr and exit with `code`."""
    err.print(f"[bold red]error:[/] {escape(message)}", highlight=False)
    raise typer.Exit(code)


@contextmanager
def library_errors() -> Iterator[None]:
    """Every library error turned into a message and its exit code."""
    try:
        yield
    except ConfigError as error:
        fail(str(error), EXIT_USAGE)
    except InvalidQuery as error:  # a refused statement (ReadOnlyViolation) included
        fail(str(error), EXIT_BAD_INPUT)
    except StoreUnavailable as error:
        fail(str(error), EXIT_UNAVAILABLE)
    except LookupError_ as error:
        fail(str(error), EXIT_BAD_INPUT)
    except StoreError as error:
        fail(str(error), EXIT_UNAVAILABLE)


@contextmanager
def opened(store: str | None, *, read_only: bool = False) -> Iterator[LexGraph]:
    """Open the store and turn every library error into a message and an exit code."""
    with library_errors():
        location = store_location(store)
        if read_only and not store_exists(location):
            fail(f"no store at {location}; run `lexgraph ingest statutes PATH…` first or pass --store",
                 EXIT_UNAVAILABLE)
        with LexGraph.open(location, read_only=read_only) as lg:
            yield lg


@contextmanager
def search_errors() -> Iterator[None]:
    """A missing index, a mismatched embedder or an unreachable model: exit 3."""
    try:
        yield
    except Exception as error:
        if isinstance(error, unavailable_errors()):
            fail(str(error), EXIT_UNAVAILABLE)
        raise


def emit_json(payload: Any) -> None:
    sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2, default=str) + "\n")


@contextmanager
def progress_bar(unit: str = "files") -> Iterator[Progress]:
    """A progress bar on stderr, shown only on a terminal and cleared when done."""
    progress = Progress(TextColumn("{task.description}"), BarColumn(), TaskProgressColumn(),
                        TextColumn(f"{{task.completed}} {unit}"), TimeElapsedColumn(), console=err, transient=True,
                        disable=not err.is_terminal)
    with progress:
        yield progress


def fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def iso(day: date | None) -> str | None:
    return day.isoformat() if day else None


def snippet(text: str, width: int = 70) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[:width - 1] + "…"


def read_text(file: str) -> str:
    """A text file's text (or standard input's, for ``-``) in whichever of UTF-8, Shift_JIS or EUC-JP it certainly
    is, with a note on stderr when it was converted; exit 1 naming the file and the ``iconv`` fix otherwise. The
    same reader as `ingest precedents` and `ingest literature` (`lexgraph.client.decode_text`)."""
    name = "standard input" if file == "-" else file
    try:
        data = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
    except OSError as error:
        fail(f"{file}: cannot be read ({error.strerror})", EXIT_BAD_INPUT)
    try:
        decoded = decode_text(data, name)
    except EncodingError as error:
        fail(str(error), EXIT_BAD_INPUT)
    if decoded.note:
        err.print(f"[yellow]note[/] {escape(decoded.note)}", highlight=False)
    return decoded.text
