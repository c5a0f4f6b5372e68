"""A process killed while it commits leaves the embedded store with the whole transaction or none of it.

LadybugDB 0.22 logs ordinary writes in its write-ahead log but applies a ``COPY FROM`` at the checkpoint that ends
COMMIT. A transaction that mixed the two and was killed during COMMIT came back, after recovery, with its ordinary
writes and without its COPY: an ingest killed that way left 15 law versions without their clauses. So the store
never mixes them (`EmbeddedStore.insert_transaction`). These tests kill a real writer at several points of its
COMMIT, found by timing one COMMIT first, and reopen the store as the next command would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from lexgraph.store.embedded import EmbeddedStore
from tests.helpers import ROOT

ROWS = 60_000

# The writer: one transaction of the given kind, then COMMIT; with a delay, it kills itself that many seconds after
# COMMIT starts (or after it ended, if it ended sooner). Without one, it prints how long COMMIT took.
WRITER = """
import json, os, signal, sys, threading, time
from lexgraph.store.embedded import EmbeddedStore

path, kind, delay, rows = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
store = EmbeddedStore(path)
store.migrate()
laws = [{"law_id": f"L{i:06d}", "title": "民法" * 40} for i in range(rows)]
versions = [{"revision_id": f"L{i:06d}_r", "law_id": f"L{i:06d}"} for i in range(rows)]
edges = [{"from": f"L{i:06d}", "to": f"L{i:06d}_r"} for i in range(rows)]
opener = store.insert_transaction if kind == "insert" else store.transaction
with opener() as tx:
    if kind == "ordinary":  # an update beside large inserts: the mix that once lost the inserts
        tx.upsert_nodes("Law", [{"law_id": "SEED", "title": "updated"}])
    tx.create_nodes("Law", laws)
    tx.create_nodes("LawVersion", versions)
    tx.create_relationships("HAS_VERSION", edges)
    if delay >= 0:
        threading.Timer(delay, lambda: os.kill(os.getpid(), signal.SIGKILL)).start()
    started = time.perf_counter()
commit = time.perf_counter() - started
if delay >= 0:  # a COMMIT faster than the timed one: the kill still comes, after it
    time.sleep(60)
store.close()
print(json.dumps({"commit": commit}))
"""


def _write(store: Path, kind: str, delay: float) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", WRITER, str(store), kind, str(delay), str(ROWS)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300)


def _seeded(path: Path) -> None:
    store = EmbeddedStore(path)
    store.migrate()
    with store.transaction() as tx:
        tx.upsert_nodes("Law", [{"law_id": "SEED", "title": "seed"}])
    store.close()


def _state(path: Path) -> tuple[int, int, int, str]:
    store = EmbeddedStore(path, read_only=True)  # replays what the killed writer left, as `doctor` would
    try:
        counts = store.counts()
        title = store.run_read_only("MATCH (l:Law {law_id: 'SEED'}) RETURN l.title AS t")[0]["t"]
        return (counts.nodes["Law"] - 1, counts.nodes["LawVersion"], counts.relationships["HAS_VERSION"], title)
    finally:
        store.close()


@pytest.mark.parametrize("kind", ["insert", "ordinary"])
def test_a_writer_killed_during_commit_leaves_all_or_nothing(tmp_path: Path, kind: str) -> None:
    timed = tmp_path / "timed"
    _seeded(timed)
    finished = _write(timed, kind, -1)
    assert finished.returncode == 0, finished.stderr
    commit = json.loads(finished.stdout)["commit"]
    whole = (ROWS, ROWS, ROWS, "updated" if kind == "ordinary" else "seed")
    assert _state(timed) == whole
    nothing = (0, 0, 0, "seed")
    outcomes = []
    for fraction in (0.0, 0.2, 0.4, 0.6, 0.8):
        store = tmp_path / f"killed-{fraction}"
        _seeded(store)
        killed = _write(store, kind, commit * fraction)
        assert killed.returncode == -9, killed.stderr
        state = _state(store)
        assert state in (nothing, whole), f"killed {fraction:.0%} into a {commit:.2f} s COMMIT: {state}"
        outcomes.append(state == whole)
    assert _state(timed) == whole
    print(kind, f"commit {commit:.2f} s; kept whole at", outcomes)
