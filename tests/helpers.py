"""Shared test helpers: run the real CLI in a subprocess, as a user would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).parents[1]
SAMPLE = ROOT / "lexgraph" / "data" / "sample"
EGOV_DATA = Path(__file__).parent / "data" / "egov"
SHARED = ROOT.parent / "shared" / "data"


@dataclass(frozen=True)
class Run:
    code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout)


def lexgraph(*args: str | Path, store: Path | None = None, timeout: float = 300,
             env: dict[str, str] | None = None) -> Run:
    """`env` adds to (or, with "", blanks) variables of the test's environment."""
    command = [sys.executable, "-m", "lexgraph", *map(str, args)]
    if store is not None:
        command += ["--store", str(store)]
    variables = {**os.environ, "PYTHONIOENCODING": "utf-8", **(env or {})}
    variables.pop("LEXGRAPH_STORE", None)
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=variables, cwd=ROOT)
    return Run(done.returncode, done.stdout, done.stderr)
