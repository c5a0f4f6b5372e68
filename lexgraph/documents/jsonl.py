"""JSON Lines records, read with the line number every error must name (metadata files, literature registries)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def read_records(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for every non-blank line. Raises ValueError naming the file, the line and, for
    broken JSON, the column: 「texts.jsonl line 3: not valid JSON (Expecting ',' delimiter at column 18)」."""
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path.name} line {number}: not valid JSON ({exc.msg} at column {exc.colno})"
                                 ) from None
            if not isinstance(data, dict):
                raise ValueError(f"{path.name} line {number}: expected a JSON object, one record per line")
            yield number, data
