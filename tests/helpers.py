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


SEED_CACHE = Path(__file__).parent / "data" / "index" / "embeddings.sqlite3"
STALE_SEED = ("the seeded embedding cache no longer covers the indexed text (the unit text or the model changed); "
              "run `python scripts/build_test_embeddings.py`")


def copy_store(template: Path, store: Path) -> Path:
    """A copy of a closed embedded store folder (built once per run by a session fixture): building the same store
    in every module cost the suite minutes."""
    import shutil

    shutil.copytree(template, store)
    return store


def build_search_store(store: Path, *literature: Path) -> None:
    """The sample corpus (民法 2020 & 2023, 借地借家法, 個人情報保護法, 4 judgments, and any `literature` files)
    ingested and indexed through the real CLI: 民法, 借地借家法 and every chunk, their vectors from the seeded
    cache (tests/data/index) so that indexing costs seconds."""
    import shutil

    assert lexgraph("ingest", "statutes", SAMPLE, store=store).code == 0
    assert lexgraph("ingest", "precedents", SAMPLE / "precedents", store=store).code == 0
    for path in literature:
        run = lexgraph("ingest", "literature", path, "--kind", "guideline", store=store)
        assert run.code == 0, run.stderr
    (store / "cache").mkdir()
    shutil.copy(SEED_CACHE, store / "cache" / SEED_CACHE.name)
    run = lexgraph("index", "--law", "民法", "--law", "借地借家法", "--json", store=store)
    assert run.code == 0, run.stderr
    assert sorted(run.json()["built"]) == ["law:129AC0000000089", "law:403AC0000000090"]
    assert run.json()["embedded_texts"] == 0, STALE_SEED
    run = lexgraph("index", "--kind", "chunk", "--json", store=store)
    assert run.code == 0, run.stderr
    assert run.json()["built"] == ["chunks"]
    assert literature or run.json()["embedded_texts"] == 0, STALE_SEED
