"""Each extra of pyproject.toml installed alone, from PyPI, in a fresh virtual environment, runs the commands it is for
(``pip install 'lexgraph[neo4j]'`` could not search, since SudachiPy came only with the ginza extra).

Slow (minutes: every venv downloads lexgraph's dependencies) and online (PyPI), so marked slow. ``st`` is left out:
it brings torch (gigabytes) and runs only with an operator's model folder; its missing-package message is checked
instead, as is every missing optional dependency's: a one-line error and exit 3, never a traceback."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.capabilities import NEO4J_URI_ENV
from tests.conftest import NEO4J_MARKS, open_neo4j_wiped
from tests.helpers import ROOT, SAMPLE, SEED_CACHE

pytestmark = pytest.mark.slow

SHAKUCHI = SAMPLE / "403AC0000000090_snapshot20201118.xml"  # 借地借家法: its vectors are in the seeded cache
QUESTION = "借地権の存続期間は何年か"
_NOT_SOURCE = shutil.ignore_patterns(".git", ".venv", "*.egg-info", "build", "target", ".neo4j-local",
                                     "__pycache__", "*-store", ".mypy_cache", ".ruff_cache", "tests")


def fresh_venv(tmp: Path, extra: str) -> Path:
    """A new venv holding lexgraph (a copy of this checkout, so the build leaves nothing in it) with `extra` only;
    its python."""
    source = tmp / "source"
    if not source.exists():
        shutil.copytree(ROOT, source, ignore=_NOT_SOURCE)
    venv = tmp / f"venv-{extra or 'base'}"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    target = f"{source}[{extra}]" if extra else str(source)
    done = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", target],
                          capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr[-3000:]
    return python


def run(python: Path, *args: str | Path, cache: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m lexgraph ARGS` outside this checkout (so that the venv's copy is what runs)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LEXGRAPH_STORE")}
    env.update({"OMP_NUM_THREADS": "1", "PYTHONIOENCODING": "utf-8"})
    if cache is not None:
        env["LEXGRAPH_CACHE_DIR"] = str(cache)
    return subprocess.run([str(python), "-m", "lexgraph", *map(str, args)], capture_output=True, text=True,
                          timeout=900, env=env, cwd=python.parents[2])


def seeded_cache(tmp: Path) -> Path:
    cache = tmp / "cache"
    cache.mkdir(exist_ok=True)
    shutil.copy(SEED_CACHE, cache / SEED_CACHE.name)
    return cache


def ingest_index_search(python: Path, store: str | Path, cache: Path) -> None:
    """What every install must do: ingest a law, index it, search it."""
    for args in (("ingest", "statutes", SHAKUCHI, "--no-link"), ("index", "--law", "借地借家法"),
                 ("search", QUESTION, "--law", "借地借家法", "--k", "3", "--json")):
        done = run(python, *args, "--store", store, cache=cache)
        assert done.returncode == 0, (args, done.stderr[-2000:])
    assert "403AC0000000090/a3" in done.stdout  # 第三条 (借地権の存続期間)


def assert_clear_error(done: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert done.returncode == 3, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and all(n in done.stderr for n in needles), done.stderr[-2000:]


def test_the_base_install_ingests_indexes_and_searches_and_says_what_an_extra_would_add(tmp_path: Path) -> None:
    python = fresh_venv(tmp_path, "")
    cache = seeded_cache(tmp_path)
    ingest_index_search(python, tmp_path / "store", cache)
    # No driver: a bolt:// store names the extra.
    assert_clear_error(run(python, "stats", "--store", "bolt://127.0.0.1:1"), "lexgraph[neo4j]")
    # No GiNZA: the extractor names what to install.
    assert_clear_error(run(python, "cite", SAMPLE / "precedents" / "91244.txt", "--extractor", "ginza",
                           "--store", tmp_path / "store"), "ja-ginza")
    # No sentence-transformers: a model folder names the extra.
    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "config.json").write_text("{}", encoding="utf-8")
    assert_clear_error(run(python, "search", QUESTION, "--embedder", folder, "--store", tmp_path / "store"),
                       "lexgraph[st]")
    # The tokenizer's dictionary removed: search says so, exit 3.
    subprocess.run([str(python), "-m", "pip", "uninstall", "--quiet", "--yes", "sudachidict-core"], check=True)
    assert_clear_error(run(python, "search", QUESTION, "--mode", "bm25", "--store", tmp_path / "store",
                           cache=cache), "sudachidict")


@pytest.mark.parametrize("extra", ["ginza", "report"])
def test_an_extra_alone_runs_its_commands(tmp_path: Path, extra: str) -> None:
    python = fresh_venv(tmp_path, extra)
    cache = seeded_cache(tmp_path)
    ingest_index_search(python, tmp_path / "store", cache)
    if extra == "ginza":
        done = run(python, "cite", SAMPLE / "precedents" / "91244.txt", "--extractor", "ginza", "--json",
                   "--store", tmp_path / "store")
        assert done.returncode == 0 and "民法" in done.stdout, done.stderr[-2000:]
    else:
        plot = subprocess.run([str(python), "-c", "from lexgraph.eval.report import pyplot; "
                               "f = pyplot().figure(); print(type(f).__name__)"],
                              capture_output=True, text=True, timeout=300, cwd=tmp_path)
        assert plot.returncode == 0 and plot.stdout.strip() == "Figure", plot.stderr[-2000:]


@pytest.mark.neo4j
@pytest.mark.requires("neo4j")
def test_the_neo4j_extra_alone_ingests_indexes_and_searches_on_neo4j(tmp_path: Path) -> None:
    assert NEO4J_MARKS  # the same marks as every Neo4j test: it wipes the test database
    open_neo4j_wiped().close()
    python = fresh_venv(tmp_path, "neo4j")
    ingest_index_search(python, os.environ[NEO4J_URI_ENV], seeded_cache(tmp_path))
