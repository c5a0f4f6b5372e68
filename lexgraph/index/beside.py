"""Threads beside a search: one per task, started when first asked for, kept for the process's life.

Why threads: a search's longest steps run in native code, and those that let go of the interpreter (ONNX Runtime
embedding the question, Arrow reading a file) can run on one core while another step runs on the other: tantivy's
BM25 beside the question's embedding (`retrieve.retrievers.search_beside`), the index's rows file read beside the
HNSW graph's view (`local.LocalIndex`). One thread a task is enough, since work that keeps the interpreter (tantivy,
usearch) would only take turns with the search's own thread; a second task's work does not queue behind the
first's.
"""

from __future__ import annotations

import os
import threading
from concurrent import futures

_THREADS: dict[str, futures.ThreadPoolExecutor] = {}
_LOCK = threading.Lock()


def beside(task: str) -> futures.ThreadPoolExecutor:
    """The process's thread for `task` (its name): work submitted to it runs in turn, beside the caller's."""
    with _LOCK:
        executor = _THREADS.get(task)
        if executor is None:
            executor = _THREADS[task] = futures.ThreadPoolExecutor(max_workers=1,
                                                                   thread_name_prefix=f"lexgraph-{task}")
        return executor


def _forget() -> None:
    """A forked child has no copy of its parent's threads: it starts its own when it first asks."""
    _THREADS.clear()


os.register_at_fork(after_in_child=_forget)
