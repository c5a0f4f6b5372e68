"""Data files read whole or line by line (JSON Lines, gzip-compressed or not), bounded and checked before a byte of
them is trusted (docs/security.md, "File readers"), and written whole (`replaced`).

Every such reader opens its file here, so that each gets the same guarantees:

- only a regular file is read: the file is opened without blocking and checked, so a FIFO, a device or a folder
  in its place is refused with its name instead of hanging the command;
- a gzip file is recognised by its first bytes (a file named ``.gz`` that is not gzip is refused, naming it),
  and read through a decompressor bounded by the total it may yield and by its compression ratio (a few KB of
  gzip can hold 4 GB of zeros);
- a line is read with a bound on its length, so that a file without line breaks is never read whole;
- a damaged gzip stream is reported as such, naming the file and the line it broke at.

The bounds (`DataLimits`) are far above what lexgraph writes or reads in a corpus: raise them with
``LEXGRAPH_DATA_MAX_MB`` and ``LEXGRAPH_DATA_MAX_RATIO``.
"""

from __future__ import annotations

import gzip
import os
import secrets
import stat
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from lexgraph.config import positive_env
from lexgraph.errors import InputError

GZIP_MAGIC = b"\x1f\x8b"
_MB = 1 << 20
_BLOCK = 1 << 20  # read (and decompressed) at a time, then checked


@dataclass(frozen=True)
class DataLimits:
    """Bounds of one data file: `max_bytes` in all (after decompression), `max_line` bytes per line, and for gzip
    a compression ratio of at most `max_ratio` once `ratio_from_bytes` have come out (JSON Lines compress 5 to 20
    times; zeros, about 1,000)."""

    max_bytes: int = 1024 * _MB
    max_line: int = 64 * _MB
    max_ratio: float = 200.0
    ratio_from_bytes: int = _MB

    @classmethod
    def from_env(cls, default_mb: int | None = None) -> DataLimits:
        """The defaults, with ``LEXGRAPH_DATA_MAX_MB`` (the total; a line is also raised to it when it is larger)
        and ``LEXGRAPH_DATA_MAX_RATIO`` when set. `default_mb`: a kind of file's own total when the variable is
        not set, for a reader whose memory grows faster with the file than a streaming one's (the anchors)."""
        limits = cls()
        megabytes = positive_env("LEXGRAPH_DATA_MAX_MB") or default_mb
        ratio = positive_env("LEXGRAPH_DATA_MAX_RATIO")
        if megabytes is not None:
            limits = cls(max_bytes=megabytes * _MB, max_line=max(limits.max_line, megabytes * _MB),
                         max_ratio=limits.max_ratio)
        if ratio is not None:
            limits = cls(limits.max_bytes, limits.max_line, float(ratio), limits.ratio_from_bytes)
        return limits



@contextmanager
def open_regular(path: Path, what: str = "file") -> Iterator[BinaryIO]:
    """`path` opened for reading in binary, once it is known to be a regular file: it is opened without blocking
    (a FIFO would otherwise wait for a writer for ever) and checked before anything is read. A FIFO, device,
    socket or folder, a missing or unreadable file raise `InputError` naming it and what was expected."""
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise InputError(f"{path}: cannot be read ({error.strerror}); give a {what}") from None
    try:
        mode = os.fstat(handle).st_mode
        if not stat.S_ISREG(mode):
            raise InputError(f"{path}: not a regular file (a {_kind(mode)}); give a {what}: lexgraph does not read "
                             "from FIFOs, devices or sockets here")
        if hasattr(os, "set_blocking"):
            os.set_blocking(handle, True)
        stream = os.fdopen(handle, "rb")
    except BaseException:
        os.close(handle)
        raise
    with stream:
        yield stream


@contextmanager
def replaced(path: Path) -> Iterator[BinaryIO]:
    """A new file written in place of `path`, whole or not at all: the bytes go to a temporary file of a name of
    its own beside it (a concurrent writer has its own), created with the mode the umask gives, as the file it
    replaces was; once the block ends without an exception it is synced and renamed over `path`, and on every way
    out (an exception raised to refuse what was written, an interrupt) the temporary file is removed. So a reader
    sees the file before or the whole new one, never part of one, and a killed write leaves only the file before
    (and at worst a ``.tmp`` file beside it)."""
    temporary = path.parent / f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    try:
        with open(temporary, "xb") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        temporary.replace(path)
    finally:
        temporary.unlink(missing_ok=True)


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "FIFO"), (stat.S_ISDIR, "folder"), (stat.S_ISCHR, "character device"),
                       (stat.S_ISBLK, "block device"), (stat.S_ISSOCK, "socket")):
        if test(mode):
            return name
    return "special file"


def is_regular_file(path: Path) -> bool:
    """Whether `path` names a regular file (after symbolic links), without opening it."""
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except OSError:
        return False


def read_lines(path: Path, *, limits: DataLimits | None = None, what: str = "JSON Lines file",
               block_size: int = _BLOCK) -> Iterator[bytes]:
    """The lines of `path` (gzip-compressed or not, told by its first bytes), each with its line break, within
    `limits` (`DataLimits.from_env()` by default). A file named ``.gz`` that is not gzip, a damaged gzip stream,
    a line or a total past the bounds, a ratio past the bound raise `InputError` naming the file (and the line)."""
    limits = limits or DataLimits.from_env()
    with open_regular(path, what) as raw:
        compressed = raw.read(2) == GZIP_MAGIC
        raw.seek(0)
        if not compressed and path.suffix == ".gz":
            raise InputError(f"{path}: not a gzip file (it does not begin with gzip's bytes 1f 8b); give the file "
                             "lexgraph wrote, or compress it with gzip")
        stream: BinaryIO = gzip.GzipFile(fileobj=raw, mode="rb") if compressed else raw  # type: ignore[assignment]
        total = 0
        number = 1
        pending = bytearray()  # the line being read, up to `max_line`
        while True:
            # Read in blocks, each bounded and checked before the next: a bomb is refused after its first megabyte
            # of output, not once a line (which zeros never end) has come out whole.
            try:
                block = stream.read(block_size)
            except (OSError, EOFError, zlib.error) as error:
                broken = "the gzip stream is damaged" if compressed else "cannot be read"
                raise InputError(f"{path}:{number}: {broken} ({error}); write the file again") from None
            if not block:
                if pending:
                    yield bytes(pending)
                return
            total += len(block)
            if total > limits.max_bytes:
                raise InputError(f"{path}:{number}: more than {limits.max_bytes // _MB} MB"
                                 f"{' once decompressed' if compressed else ''}; raise LEXGRAPH_DATA_MAX_MB if the "
                                 "file is meant to be this large")
            if compressed and total >= limits.ratio_from_bytes and total > limits.max_ratio * max(raw.tell(), 1):
                raise InputError(f"{path}:{number}: refused: its compression ratio passes {limits.max_ratio:.0f} "
                                 f"({total} bytes out of {raw.tell()}), which no {what} has; a gzip bomb? Raise "
                                 "LEXGRAPH_DATA_MAX_RATIO if it is a real file")
            start = 0
            while (end := block.find(b"\n", start)) >= 0:
                pending += block[start:end + 1]
                if len(pending) > limits.max_line:
                    break
                yield bytes(pending)
                pending.clear()
                number += 1
                start = end + 1
            else:
                pending += block[start:]
            if len(pending) > limits.max_line:
                raise InputError(f"{path}:{number}: a line longer than {limits.max_line // _MB} MB; a {what} holds "
                                 f"one record per line (raise LEXGRAPH_DATA_MAX_MB if this one is)")
