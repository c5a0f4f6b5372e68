"""JSON Lines records, read with the line number every error must name (metadata files, literature registries, turn
logs, the anchors beside an index): the project's one JSONL reader, over `datafiles.read_lines` (regular files
only, gzip recognised, every line and the whole bounded).

A JSON Lines file is a list of independent records, so one bad line need not cost the others: with
``on_bad_line``, a line that cannot be read is reported (as ``FILE:LINE: what is wrong``) and skipped, and the
reader goes on. Without it, the first bad line raises, for callers that cannot use a partial file.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from lexgraph.documents.datafiles import DataLimits, read_lines
from lexgraph.errors import InputError

#: Told about each line that cannot be read, with a message that names the file and the line.
BadLine = Callable[[str], None]


def line_where(path: Path, number: int) -> str:
    """How errors name a line: 「metadata.jsonl:3」 (the file as given, a colon, the line)."""
    return f"{path}:{number}"


def read_records(path: Path, *, on_bad_line: BadLine | None = None,
                 limits: DataLimits | None = None) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for every non-blank line. A line that is not UTF-8, not valid JSON or not an object
    raises `InputError` naming the file, the line and, for broken JSON, the column (「texts.jsonl:3: not valid JSON
    (Expecting ',' delimiter at column 18)」), or, with `on_bad_line`, is reported to it and skipped. A file that
    cannot be read within `limits` (not a regular file, a damaged gzip stream, a line or a total too large) raises
    `InputError` whatever `on_bad_line` is."""
    for number, raw in enumerate(read_lines(path, limits=limits), 1):
        if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        problem = None
        data: Any = None
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            problem = (f"not UTF-8 at byte {exc.start + 1} of the line (JSON Lines are UTF-8; convert the file "
                       f"with iconv -f SHIFT_JIS -t UTF-8)")
            line = ""
        if problem is None:
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                problem = f"not valid JSON ({exc.msg} at column {exc.colno})"
            except RecursionError:
                problem = "not valid JSON (nested too deeply)"
            else:
                if not isinstance(data, dict):
                    problem = "expected a JSON object, one record per line"
        if problem is not None:
            message = f"{line_where(path, number)}: {problem}"
            if on_bad_line is None:
                raise InputError(message)
            on_bad_line(message)
            continue
        yield number, data
