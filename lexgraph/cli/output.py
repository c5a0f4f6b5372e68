"""What every command shares on the way out: the consoles, exit codes, errors turned into messages, JSON, progress.

Results go to stdout (as JSON with ``--json``); progress and messages go to stderr. Exit codes:
0 ok, 1 bad input, 2 usage, 3 store, index or model unavailable: each error of `lexgraph.errors` carries its own,
and `library_errors` is the one place that turns an error into a message and its exit code.
"""

from __future__ import annotations

import codecs
import functools
import json
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, BinaryIO, NoReturn

import typer
from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from lexgraph import BUFFER_POOL_ENV, buffer_pool, store_exists, store_location
from lexgraph.errors import (
    EXIT_BAD_INPUT,
    EXIT_UNAVAILABLE,
    EXIT_USAGE,
    ConfigurationError,
    InputError,
    LexGraphError,
    OutputFailed,
    StoreUnavailable,
)

if TYPE_CHECKING:
    from rich.progress import Progress

    from lexgraph import LexGraph

out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)

__all__ = ["EXIT_BAD_INPUT", "EXIT_UNAVAILABLE", "EXIT_USAGE"]  # re-exported for the commands, with the helpers


def _refuse(message: str, code: int) -> NoReturn:
    """Print `message` as an error on stderr, in one line (`line_shown`), and exit with `code`: what the one
    handler (`library_errors`) does with every `LexGraphError`."""
    err.print(f"[bold red]error:[/] {escape(line_shown(message))}", highlight=False)
    raise typer.Exit(code)


# Characters that would let a name (a file's, a field's) break a message's line, draw over the terminal or reorder
# what is shown: C0 and C1 controls (line breaks and escape included), DEL, the Unicode line and paragraph
# separators, the bidirectional overrides and isolates, and lone surrogates.
_UNSHOWN = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def line_shown(text: str) -> str:
    """`text` as one line that shows what it holds: every character of `_UNSHOWN` written as its escape (``\\n``,
    ``\\x1b``, ``\\u2028``), so that a file named ``a\\nFAKE-LINE: …`` cannot print a line of its own. Messages and
    report lines that may hold a name pass through it."""
    return _UNSHOWN.sub(_escaped, text)


def _escaped(found: re.Match[str]) -> str:
    return found[0].encode("unicode_escape", "backslashreplace").decode("ascii") if ord(found[0]) > 0xFF or \
        found[0] in "\n\r\t" else f"\\x{ord(found[0]):02x}"


def check_arguments(arguments: list[str]) -> None:
    """Refuse (exit 2) an argument that is not text: bytes that are not UTF-8 reach Python as lone surrogates
    (\\udcXX), which no store or JSON can take; the message names the argument. The name of a file that exists is
    let through: a file system may hold names in another encoding, and they are opened as given (and shown
    escaped)."""
    for number, argument in enumerate(arguments, 1):
        found = re.search("[\ud800-\udfff]", argument)
        if found is not None and not os.path.lexists(argument):
            raise ConfigurationError(f"argument {number} ({line_shown(argument)}) holds bytes that are not UTF-8 "
                                     f"text (a lone surrogate U+{ord(found[0]):04X} at character "
                                     f"{found.start() + 1}); give it in UTF-8")


@contextmanager
def library_errors() -> Iterator[None]:
    """The CLI's one error handler: a `LexGraphError` becomes its message on stderr and its `exit_code` (1 bad
    input or not found, 2 a setting that cannot be used, 3 a store, index, model or tool unavailable). Every
    command runs inside it (`lexgraph.cli`'s command group), so a command catches only what adds to a message."""
    try:
        yield
    except OutputFailed:
        raise  # standard output failed: `guard_stdout` says so (or nothing, for a reader that went away)
    except LexGraphError as error:
        _refuse(str(error), error.exit_code)


class _GuardedStdout:
    """Standard output, with a failing write or flush raised as `OutputFailed`."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return int(self._stream.write(text))
        except OSError as error:
            raise OutputFailed(error) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as error:
            raise OutputFailed(error) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def guard_stdout(run: Callable[[], Any]) -> Any:
    """Run a command; a result that cannot be written to standard output (a full disk, a closed pipe) ends in one
    line on stderr and exit 1, not a traceback. Standard output is then pointed at /dev/null, so that Python's own
    flush at exit does not fail a second time."""
    import errno
    import os

    original = sys.stdout
    sys.stdout = _GuardedStdout(original)  # type: ignore[assignment]
    try:
        result = run()
        sys.stdout.flush()
        return result
    except OutputFailed as failed:
        with suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), original.fileno())
        if failed.error.errno != errno.EPIPE:  # a reader that went away (`| head`) wants no message
            err.print(f"[bold red]error:[/] the result cannot be written to standard output "
                      f"({escape(failed.error.strerror or str(failed.error))})", highlight=False)
        raise SystemExit(EXIT_BAD_INPUT) from None
    finally:
        sys.stdout = original


@contextmanager
def opened(given: str | None, *, read_only: bool = False) -> Iterator[LexGraph]:
    """The store at the location `given` by ``--store`` (None: `config.store_location`'s default) opened
    (`LexGraph.open`) and closed when the command is done; a store to read must exist."""
    from lexgraph import LexGraph  # on first use: the client imports what a store needs

    location = store_location(given)
    if read_only and not store_exists(location):
        raise StoreUnavailable(f"no store at {location}; run `lexgraph ingest statutes PATH…` first or pass --store")
    with LexGraph.open(location, read_only=read_only, buffer_pool=buffer_pool(given_buffer_pool())) as lg:
        for note in lg.store.opening_notes:  # what the open did to the store (a torn log set aside), on stderr
            err.print(f"[yellow]note:[/] {escape(line_shown(note))}", highlight=False)
        yield lg


_GIVEN_BUFFER_POOL: ContextVar[str | None] = ContextVar("lexgraph_buffer_pool", default=None)


def given_buffer_pool() -> str | None:
    """The text of ``--buffer-pool`` on the command running now, or None when it was not given."""
    return _GIVEN_BUFFER_POOL.get()


def _remember_buffer_pool(ctx: Any, _param: Any, value: str | None) -> str | None:
    """Keep the option's text for `opened` (where a bad size is exit 2) while the command runs, and forget it when
    its context closes, so that the next command run in the same process (the tests run many) starts without."""
    if value is not None:
        token = _GIVEN_BUFFER_POOL.set(value)
        ctx.call_on_close(lambda: _GIVEN_BUFFER_POOL.reset(token))
    return value


def _declared_buffer_pool(buffer_pool: Annotated[str | None, typer.Option(
        "--buffer-pool", metavar="SIZE",
        help=f"Memory the embedded store's engine may use (4GiB, 512MiB; env {BUFFER_POOL_ENV}; buffer_pool in "
             "lexgraph.toml; default a quarter of the memory available, 256 MiB to 8 GiB).")] = None) -> None:
    """Never run: the declaration Typer builds ``--buffer-pool`` from (`_buffer_pool_option`)."""


@functools.cache
def _buffer_pool_option() -> Any:
    """``--buffer-pool SIZE`` as Typer builds an option (with its own click), taken from the command declared for
    it, once per process and shared by the commands (it holds no state of a run); never passed to the command's
    function (`expose_value` off), kept for `opened` instead."""
    holder = typer.Typer(add_completion=False)
    holder.command()(_declared_buffer_pool)
    option = typer.main.get_command(holder).params[0]
    option.expose_value = False
    option.callback = _remember_buffer_pool
    return option


def add_buffer_pool_option(command: Any) -> None:
    """Give every command of `command` (a Typer command or group) that takes ``--store`` a ``--buffer-pool SIZE``
    beside it: the embedded engine's memory, which every command opening a store must be able to set, added here
    once rather than written into each command's signature. `opened` reads it."""
    for sub in getattr(command, "commands", {}).values():
        add_buffer_pool_option(sub)
    names = [p.name for p in getattr(command, "params", [])]
    if "store" in names and "buffer_pool" not in names:
        command.params.insert(names.index("store") + 1, _buffer_pool_option())


def emit_json(payload: Any) -> None:
    """`payload` as indented JSON on stdout, text as it is. A lone surrogate (a file name in another encoding, as
    Python reads it) is written as its JSON escape (``\\udc82``), which UTF-8 output could not take."""
    text = json.dumps(payload, ensure_ascii=False, indent=2, default=str)
    sys.stdout.write(_LONE.sub(lambda found: f"\\u{ord(found[0]):04x}", text) + "\n")


_LONE = re.compile("[\ud800-\udfff]")


@functools.cache
def _rate_column() -> type[Any]:
    """The rate column's class, made on first use: rich.progress is imported only by a command that shows a bar,
    not by every start-up (`lexgraph --help`)."""
    from rich.progress import ProgressColumn, Task

    class RateColumn(ProgressColumn):
        """Items per second, over Rich's recent samples: what a long ingest wants to see besides the ETA."""

        def __init__(self, unit: str) -> None:
            super().__init__()
            self.unit = unit

        def render(self, task: Task) -> Text:
            speed = task.speed
            return Text(f"{speed:.1f} {self.unit}/s" if speed else f"- {self.unit}/s", style="progress.data.speed")

    return RateColumn


@contextmanager
def progress_bar(unit: str = "files", *, quiet: bool = False) -> Iterator[Progress]:
    """A progress bar on stderr with the rate and, when the task has a total, the time remaining; shown only on a
    terminal and not with `quiet` (--json), and cleared when done."""
    from rich.progress import (
        BarColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    progress = Progress(TextColumn("{task.description}"), BarColumn(), TaskProgressColumn(),
                        TextColumn(f"{{task.completed}} {unit}"), _rate_column()(unit), TimeElapsedColumn(),
                        TimeRemainingColumn(), console=err, transient=True, disable=quiet or not err.is_terminal)
    with progress:
        yield progress


def table(*headers: str) -> Table:
    """A table that fits an 80-column terminal: light rules instead of boxes (four columns fewer lost to
    borders), and a word too long for its column (a revision id, a law title, a status) folded onto the next line
    instead of cut with an ellipsis: a lawyer copies those ids into other commands, and half an id is no id."""
    grid = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for header in headers:
        grid.add_column(header, overflow="fold")
    return grid


def fit(text: str, indent: int = 4) -> str:
    """`text` on one line that fits the terminal after `indent` columns, cut with … (only for quoted clause text,
    which the full command shows whole; never for ids)."""
    flat = " ".join(text.split())
    room = max(out.width - indent, 20)
    if cell_len(flat) <= room:
        return flat
    flat = flat[:room]  # a character is at least one column wide
    while cell_len(flat) > room - 1:
        flat = flat[:-1]
    return flat + "…"


def one_line(surface: str) -> str:
    """A quoted citation as one line: judgments extracted from PDFs break lines inside a citation."""
    return "".join(line.strip() for line in surface.splitlines())


def fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def iso(day: date | None) -> str | None:
    return day.isoformat() if day else None


def snippet(text: str, width: int = 70) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[:width - 1] + "…"


BLOCK_BYTES = 1 << 20  # a file too long to hold is read in blocks of this size


def read_blocks(file: str, on_bytes: Callable[[int], None] | None = None) -> Iterator[str]:
    """A text file's text (or standard input's, for ``-``) in consecutive blocks, for commands that stream a long
    input; `on_bytes` is told how many bytes each block took. The encoding is decided by the one decoder of
    judgments and literature (`lexgraph.documents.encoding.decode_text`). A file is first read through in blocks and
    streamed when it is certainly UTF-8 (what long inputs are). Anything else (Shift_JIS, EUC-JP, damaged or
    uncertain text) is read whole and decided by that decoder: converted with a note, or refused with the ``iconv``
    fix (exit 1). No result is printed for a file that will be refused. Standard input, and any file that cannot
    be read twice (a FIFO, ``<(…)``, /dev/stdin on a pipe), is streamed as UTF-8, and refused when a byte is not
    UTF-8.
    """
    from lexgraph import Utf8Tally  # its patterns are compiled only by a command that reads text

    try:
        stream = sys.stdin.buffer if file == "-" else Path(file).open("rb")  # noqa: SIM115 (closed below)
    except OSError as error:
        raise InputError(f"{file}: cannot be read ({error.strerror})") from error
    # A pipe (a FIFO, `<(…)`, /dev/stdin fed by one) cannot be read twice: it is streamed as standard input is.
    name = "standard input" if file == "-" else file
    try:
        seekable = file != "-" and stream.seekable()
    except OSError:
        seekable = False
    try:
        if seekable:
            tally = Utf8Tally()
            try:
                for text in _decoded(stream, None):
                    tally.add(text)
            except UnicodeDecodeError:
                tally.damaged = True
            stream.seek(0)
            if not tally.certain:
                data = stream.read()
                if on_bytes is not None:
                    on_bytes(len(data))
                yield _decided(data, file)
                return
        try:
            yield from _decoded(stream, on_bytes)
        except UnicodeDecodeError as error:
            raise InputError(f"{name}: {error.reason} (it is read as UTF-8, since it cannot be read twice); convert it "
                 "(e.g. iconv -f SHIFT_JIS -t UTF-8) or give the name of a regular file") from error
    except OSError as error:
        raise InputError(f"{file}: cannot be read ({error.strerror or error})") from error
    finally:
        if file != "-":
            stream.close()


def _decoded(stream: BinaryIO, on_bytes: Callable[[int], None] | None) -> Iterator[str]:
    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    while True:
        data = stream.read(BLOCK_BYTES)
        text = decoder.decode(data, final=not data)
        if on_bytes is not None and data:
            on_bytes(len(data))
        if text:
            yield text
        if not data:
            return


def _decided(data: bytes, name: str) -> str:
    from lexgraph import decode_text

    decoded = decode_text(data, name)  # an `EncodingError` (exit 1) for text it cannot decide
    if decoded.note:
        err.print(f"[yellow]note[/] {escape(line_shown(decoded.note))}", highlight=False)
    return decoded.text


def write_blocks_out(blocks: Iterable[str], out_file: Path | None) -> int:
    """Each block to `out_file` (or stdout) as soon as it is made, so that an export of any size holds one block
    in memory; the number of blocks written. A file that cannot be written is bad input (exit 1), named."""
    count = 0
    if out_file is None:
        for block in blocks:
            out.file.write(block)
            count += 1
        return count
    try:
        with out_file.open("w", encoding="utf-8") as sink:
            for block in blocks:
                sink.write(block)
                count += 1
    except OSError as error:
        raise InputError(f"cannot write {out_file}: {error.strerror}") from error
    return count


def write_text_out(text: str, out_file: Path | None, what: str) -> None:
    """`text` to `out_file`, or to stdout when none is given; "wrote FILE (what)" on stderr after a file. A file
    that cannot be written is bad input (exit 1), named."""
    if out_file is None:
        out.file.write(text)
        return
    try:
        out_file.write_text(text, encoding="utf-8")
    except OSError as error:
        raise InputError(f"cannot write {out_file}: {error.strerror}") from error
    err.print(f"wrote {out_file} ({what})", highlight=False)
