"""The files of a `--report DIR`: every evaluation writes config.json, metrics.json, details.csv and one picture,
in the same way, so that a report of one kind reads like any other."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from lexgraph.errors import ToolMissing


def report_folder(directory: str | Path) -> Path:
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def write_json(path: Path, value: Any) -> None:
    path.write_text(json.dumps(value, ensure_ascii=False, indent=2), encoding="utf-8")


def write_csv(path: Path, header: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)


def pyplot() -> Any:
    """matplotlib's pyplot on the file-only backend (reports are written on servers without a display); imported
    here, not at module level, since matplotlib is an optional extra (``report``)."""
    try:
        import matplotlib
    except ImportError:
        raise ToolMissing("report plots need matplotlib: pip install 'lexgraph[report]'") from None

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_figure(figure: Any, path: Path) -> None:
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    pyplot().close(figure)
