"""Shared test helpers: run the real CLI as a user would, in this process (fast) or in a subprocess.

`lexgraph()` runs the command in-process through Typer's CliRunner: the same `lexgraph.cli.app`, its output
captured from the same consoles, the exit code the `lexgraph` script would return. It saves the 1-2.5 s that a
fresh interpreter takes to import lexgraph, which ~250 CLI tests paid each. What a subprocess gave for free is
restored around each call: the working folder (the repository's root), the environment (`env` added, the user's
LEXGRAPH_STORE removed) and a traceback on stderr for an unexpected exception (a subprocess would print one; tests
that assert there is none keep their meaning). ``subprocess=True`` (or ``LEXGRAPH_TEST_SUBPROCESS=1`` for the
whole run) starts ``python -m lexgraph`` instead: the smoke tests of the entry point and its exit codes do.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import traceback
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


SUBPROCESS_ENV = "LEXGRAPH_TEST_SUBPROCESS"
_IN_PROCESS = threading.Lock()  # one command at a time: the working folder and the environment are the process's


def lexgraph(*args: str | Path, store: Path | None = None, timeout: float = 300,
             env: dict[str, str] | None = None, subprocess: bool = False) -> Run:
    """`env` adds to (or, with "", blanks) variables of the test's environment. In-process unless `subprocess`
    (or LEXGRAPH_TEST_SUBPROCESS=1); `timeout` bounds a subprocess only."""
    arguments = [*map(str, args)] + (["--store", str(store)] if store is not None else [])
    if subprocess or os.environ.get(SUBPROCESS_ENV) == "1":
        return _in_subprocess(arguments, timeout, env)
    return _in_process(arguments, env)


def _in_subprocess(arguments: list[str], timeout: float, env: dict[str, str] | None) -> Run:
    import subprocess as processes

    variables = {**os.environ, "PYTHONIOENCODING": "utf-8", **(env or {})}
    variables.pop("LEXGRAPH_STORE", None)
    done = processes.run([sys.executable, "-m", "lexgraph", *arguments], capture_output=True, text=True,
                         timeout=timeout, env=variables, cwd=ROOT)
    return Run(done.returncode, done.stdout, done.stderr)


def _in_process(arguments: list[str], env: dict[str, str] | None) -> Run:
    from typer.testing import CliRunner

    from lexgraph.cli import app

    variables: dict[str, str | None] = {**(env or {}), "LEXGRAPH_STORE": None}
    with _IN_PROCESS:
        before = os.getcwd()
        os.chdir(ROOT)
        try:
            result = CliRunner().invoke(app, arguments, env=variables, prog_name="lexgraph")
        finally:
            os.chdir(before)
    stderr = result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        stderr += "".join(traceback.format_exception(result.exception))  # what the interpreter would print
    return Run(result.exit_code, result.stdout, stderr)


SEED_CACHE = Path(__file__).parent / "data" / "index" / "embeddings.sqlite3"
STALE_SEED = ("the seeded embedding cache no longer covers the indexed text (the unit text or the model changed); "
              "run `python scripts/build_test_embeddings.py`")


def training_script() -> Any:
    """scripts/train_learned_fusion.py, loaded as a module (scripts/ is no package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("train", ROOT / "scripts" / "train_learned_fusion.py")
    assert spec and spec.loader
    train = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(train)
    return train


def copy_store(template: Path, store: Path) -> Path:
    """A copy of a closed embedded store folder (built once per run by a session fixture): building the same store
    in every module cost the suite minutes."""
    import shutil

    shutil.copytree(template, store)
    return store


def build_search_store(store: Path, *literature: Path, statute_anchors: bool = True) -> None:
    """The sample corpus (民法 2020 & 2023, 借地借家法, 個人情報保護法, 4 judgments, and any `literature` files)
    ingested and indexed through the real CLI: 民法, 借地借家法 and every chunk, their vectors from the seeded
    cache (tests/data/index) so that indexing costs seconds. `lexgraph index` saves the statutes' anchor field, as
    it does by default; without `statute_anchors` the store is indexed with ``--no-statute-anchors`` (no field)."""
    import shutil

    assert lexgraph("ingest", "statutes", SAMPLE, store=store).code == 0
    assert lexgraph("ingest", "precedents", SAMPLE / "precedents", store=store).code == 0
    for path in literature:
        run = lexgraph("ingest", "literature", path, "--kind", "guideline", store=store)
        assert run.code == 0, run.stderr
    (store / "cache").mkdir()
    shutil.copy(SEED_CACHE, store / "cache" / SEED_CACHE.name)
    skip = () if statute_anchors else ("--no-statute-anchors",)
    run = lexgraph("index", "--law", "民法", "--law", "借地借家法", *skip, "--json", store=store)
    assert run.code == 0, run.stderr
    assert sorted(run.json()["built"]) == ["law:129AC0000000089", "law:403AC0000000090"]
    assert run.json()["embedded_texts"] == 0, STALE_SEED
    run = lexgraph("index", "--kind", "chunk", *skip, "--json", store=store)
    assert run.code == 0, run.stderr
    assert run.json()["built"] == ["chunks"]
    assert literature or run.json()["embedded_texts"] == 0, STALE_SEED


REACTOR = "332AC0000000166"  # 原子炉等規制法: its real e-Gov revision files are in ../shared/data/egov/revisions


def reactor_revisions(folder: Path, revisions: tuple[str, ...] | None = None) -> list[Path]:
    """The real e-Gov files of 原子炉等規制法's `revisions` (all 19 when None), unpacked into `folder` as
    ``<revision id>.xml`` from the archive in ../shared, in the order asked (sorted when all)."""
    import tarfile

    folder.mkdir(parents=True, exist_ok=True)
    with tarfile.open(SHARED / "egov" / "revisions" / f"{REACTOR}_revisions.tar.xz") as archive:
        for member in archive.getmembers():
            revision = Path(member.name).stem
            if member.name.endswith(".xml") and (revisions is None or revision in revisions) \
                    and (source := archive.extractfile(member)) is not None:
                (folder / f"{revision}.xml").write_bytes(source.read())
    if revisions is None:
        return sorted(folder.glob("*.xml"))
    return [folder / f"{r}.xml" for r in revisions]
