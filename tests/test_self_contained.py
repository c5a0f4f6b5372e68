"""The repository explains itself: no code, comment, doc, test, bench or script points a reader at an issue's
number or at a design file the repository does not hold (they cannot open either). Each says its reason itself;
CHANGELOG.md keeps the history. `tests/test_cli_help.py` holds every command's `--help` to the same rule."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parents[1]
PLACES = ("lexgraph", "README.md", "docs", "tests", "bench", "scripts")
OUTSIDE = re.compile(r"issue [0-9]|DESIGN\.md", re.IGNORECASE)  # as `grep -rniE` reads it


def _files() -> list[Path]:
    found = []
    for place in PLACES:
        path = ROOT / place
        found += [path] if path.is_file() else [p for p in sorted(path.rglob("*")) if p.is_file()]
    return [p for p in found if "__pycache__" not in p.parts]


def test_nothing_points_outside_the_repository() -> None:
    pointing = []
    for path in _files():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # binary data (a model, an archive): no prose
        for number, line in enumerate(text.splitlines(), start=1):
            if OUTSIDE.search(line):
                pointing.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert pointing == [], "\n".join(pointing)


def test_the_history_has_a_home() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert changelog.startswith("# Changelog") and not OUTSIDE.search(changelog)
