"""Work spread over processes while the main process, the store's one writer, writes.

Parsing e-Gov XML and reading citations are pure Python and hold the GIL, so only processes use the second core.
Results come back in input order, so that a parallel ingest writes exactly what a single-process one does.
"""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.pool import AsyncResult, Pool
from typing import Any, TypeVar

In = TypeVar("In")
Out = TypeVar("Out")

WINDOW_PER_WORKER = 8  # tasks in flight per worker: enough to keep it busy, few enough to bound memory


def default_workers() -> int:
    """Worker processes for a large job: one per core the process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def ordered_map(
    function: Callable[[In], Out], items: Iterable[In], *, workers: int,
    initializer: Callable[..., None] | None = None, initargs: tuple[Any, ...] = (),
) -> Iterator[tuple[In, Out]]:
    """(item, function(item)) for every item, in input order, computed by `workers` processes.

    Unlike `Pool.imap`, which drains its input as fast as it can, at most `WINDOW_PER_WORKER` items per worker are
    in flight, so that a stream read from an 886 MB archive never sits in memory. `function` and `initializer` must
    be module-level. With `workers` ≤ 1 the caller should not come here: run the function in-process.

    Workers are forked: they share what this process holds (the catalogue, an ingest's laws) without copying it,
    start in milliseconds, and need no ``if __name__ == "__main__"`` guard in the caller's script, which spawned
    workers would. They never touch the store, whose connection stays with this process; a forked worker exits
    without running finalisers, so the store's objects it inherited are never closed twice.
    """
    context = multiprocessing.get_context("fork")
    window = max(1, workers) * WINDOW_PER_WORKER
    pending: deque[tuple[In, AsyncResult[Out]]] = deque()
    pool: Pool = context.Pool(workers, initializer=initializer, initargs=initargs)
    try:
        for item in items:
            pending.append((item, pool.apply_async(function, (item,))))
            if len(pending) >= window:
                done, result = pending.popleft()
                yield done, result.get()
        while pending:
            done, result = pending.popleft()
            yield done, result.get()
        pool.close()
    finally:
        pool.terminate()
        pool.join()
