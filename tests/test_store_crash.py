"""A process killed while it commits leaves the embedded store with the whole transaction or none of it, and a
store that opens.

LadybugDB 0.22 logs ordinary writes in its write-ahead log but applies a ``COPY FROM`` at the checkpoint that ends
COMMIT. A transaction that mixed the two and was killed during COMMIT came back, after recovery, with its ordinary
writes and without its COPY: an ingest killed that way left 15 law versions without their clauses. So the store
never mixes them (`EmbeddedStore.insert_transaction`).

A kill while COMMIT writes the log leaves its last record torn, and the engine then refuses to open the store at
all ("Checksum verification failed, the WAL file is corrupted"). `EmbeddedStore` opens it with every whole
committed transaction and keeps the log as it was beside the store. These tests tear logs at every offset of a
real one, kill a real writer at many moments of its COMMIT (found by timing one COMMIT first), and kill a real
`lexgraph ingest statutes`, reopening the store as the next command would.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexgraph.store.base import load_migrations
from lexgraph.store.embedded import EmbeddedStore
from tests.helpers import ROOT, SHARED, lexgraph

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

# Small committed transactions, left in the log by a writer killed before it closed the store (closing would
# checkpoint them into the database file and empty the log).
COMMITTED = """
import os, signal, sys
from lexgraph.store.embedded import EmbeddedStore

store = EmbeddedStore(sys.argv[1])
store.migrate()
for t in range(int(sys.argv[2])):
    with store.transaction() as tx:
        tx.upsert_nodes("Law", [{"law_id": f"T{t}_{i:03d}", "title": f"t{t}"} for i in range(50)])
os.kill(os.getpid(), signal.SIGKILL)
"""
TRANSACTIONS = 6
# What may follow the cut: nothing, zeros, garbage.
TAILS = {"none": b"", "zeros": b"\x00" * 4096, "garbage": bytes(range(256)) * 3}


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def _write(store: Path, kind: str, delay: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", WRITER, str(store), kind, str(delay), str(ROWS)], cwd=ROOT,
                          env=_env(), capture_output=True, text=True, timeout=300)


def _seeded(path: Path) -> None:
    store = EmbeddedStore(path)
    store.migrate()
    with store.transaction() as tx:
        tx.upsert_nodes("Law", [{"law_id": "SEED", "title": "seed"}])
    store.close()


def _state(path: Path) -> tuple[tuple[int, int, int, str], bool]:
    """The killed writer's rows and the seed's title, read as `doctor` would (read-only), and whether the log
    ends in a torn record (which a read-only open reads around and leaves in place)."""
    store = EmbeddedStore(path, read_only=True)
    try:
        counts = store.counts()
        title = store.run_read_only("MATCH (l:Law {law_id: 'SEED'}) RETURN l.title AS t")[0]["t"]
        assert store.torn_log == any("ends in a torn record" in n for n in store.opening_notes)
        return (counts.nodes["Law"] - 1, counts.nodes["LawVersion"], counts.relationships["HAS_VERSION"],
                title), store.torn_log
    finally:
        store.close()


def _aside(path: Path) -> list[Path]:
    return sorted(path.glob("graph.lbdb.wal*.torn-*"))


def _repaired(path: Path) -> list[str]:
    """Open `path` for writing, as `doctor --repair` and every write command do: the notes it gave."""
    store = EmbeddedStore(path)
    try:
        return list(store.opening_notes)
    finally:
        store.close()


def _kill_sweep(tmp_path: Path, kind: str, fractions: list[float]) -> None:
    """Kill the writer at each fraction of its timed COMMIT; every store must open and hold all or nothing."""
    timed = tmp_path / "timed"
    _seeded(timed)
    finished = _write(timed, kind, -1)
    assert finished.returncode == 0, finished.stderr
    commit = json.loads(finished.stdout)["commit"]
    whole = (ROWS, ROWS, ROWS, "updated" if kind == "ordinary" else "seed")
    assert _state(timed) == (whole, False)
    nothing = (0, 0, 0, "seed")
    outcomes = []
    for fraction in fractions:
        store = tmp_path / f"killed-{fraction:.2f}"
        _seeded(store)
        killed = _write(store, kind, commit * fraction)
        assert killed.returncode == -9, killed.stderr
        state, torn = _state(store)  # opens, or raises naming the store and the engine's reason
        assert state in (nothing, whole), f"killed {fraction:.0%} into a {commit:.2f} s COMMIT: {state}"
        if torn:
            assert _state(store) == (state, True)  # a read-only open changed nothing
            notes = _repaired(store)
            assert len(notes) == 1 and notes[0].startswith("set aside the torn tail"), notes
            assert len(_aside(store)) == 1
        assert _state(store) == (state, False)  # the torn log is aside, the store whole
        outcomes.append("torn" if torn else "whole" if state == whole else "nothing")
        shutil.rmtree(store)  # ~100 MB of log copy each
    print(kind, f"commit {commit:.2f} s;", {f"{f:.2f}": o for f, o in zip(fractions, outcomes, strict=True)})


@pytest.mark.parametrize("kind", ["insert", "ordinary"])
def test_a_writer_killed_during_commit_leaves_all_or_nothing(tmp_path: Path, kind: str) -> None:
    """A few moments, the first ones where a kill tears the log (2-10 % of an ordinary COMMIT, measured)."""
    _kill_sweep(tmp_path, kind, [0.0, 0.03, 0.06, 0.2, 0.5, 0.9])


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["insert", "ordinary"])
@pytest.mark.parametrize("first", [0, 1], ids=["even", "odd"])
def test_a_writer_killed_at_every_2_percent_of_commit_leaves_a_store_that_opens(tmp_path: Path, kind: str,
                                                                                first: int) -> None:
    """Every 2 % of the COMMIT, 51 moments a kind, in two interleaved halves (0, 4, 8 … % and 2, 6, 10 … %) that
    CI's two test processes run side by side: the ordinary kind's whole sweep alone took 14 minutes."""
    _kill_sweep(tmp_path, kind, [i / 50 for i in range(first, 51, 2)])


@pytest.fixture(scope="module")
def committed_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store whose log holds the migrations and `TRANSACTIONS` committed transactions of 50 laws each."""
    store = tmp_path_factory.mktemp("committed") / "store"
    done = subprocess.run([sys.executable, "-c", COMMITTED, str(store), str(TRANSACTIONS)], cwd=ROOT, env=_env(),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == -9, done.stderr
    assert (store / "graph.lbdb.wal").stat().st_size > 0
    return store


def _torn_copy(source: Path, target: Path, size: int, tail: bytes = b"") -> bytes:
    shutil.copytree(source, target)
    log = target / "graph.lbdb.wal"
    torn = log.read_bytes()[:size] + tail
    log.write_bytes(torn)
    return torn


def _transactions(store: EmbeddedStore) -> dict[str, int]:
    if "Law" not in store._existing_tables():
        return {}
    rows = store.run_read_only("MATCH (l:Law) RETURN l.title AS t, count(*) AS n ORDER BY t")
    return {row["t"]: row["n"] for row in rows}


def _check_opened(store: EmbeddedStore, torn: bytes) -> list[int]:
    """The committed transactions the store holds: each whole, and all those before the last one held. A
    read-write open that met a torn log kept it, as it was, beside the store; a read-only one changed no file."""
    held = _transactions(store)
    assert set(held.values()) <= {50}, held  # each transaction whole
    indices = sorted(int(title[1:]) for title in held)
    assert indices == list(range(len(indices))), held  # every transaction before the tear
    aside = store.set_aside_files()
    set_aside = [n for n in store.opening_notes if n.startswith("set aside the torn tail")]
    if store.read_only:
        assert aside == [] and not set_aside
        assert (store.directory / "graph.lbdb.wal").read_bytes() == torn
    elif set_aside:
        assert len(aside) == 1 and Path(aside[0]).read_bytes() == torn  # the log kept as it was
        assert Path(aside[0]).name in set_aside[0] and "never committed" in set_aside[0]
    else:
        assert aside == []
    return indices


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cut=st.floats(0, 1), after=st.sampled_from(sorted(TAILS)), read_only=st.booleans())
def test_a_log_torn_anywhere_opens_with_every_whole_committed_transaction(
        committed_log: Path, tmp_path_factory: pytest.TempPathFactory, cut: float, after: str,
        read_only: bool) -> None:
    """A log cut at any byte, and maybe followed by zeros or garbage (what a power cut can leave where the file
    grew before its data landed): the store opens, read-only or for writing, with a prefix of the committed
    transactions, each whole, and the log as it was kept beside it when anything was set aside."""
    size = (committed_log / "graph.lbdb.wal").stat().st_size
    target = tmp_path_factory.mktemp("torn") / "store"
    torn = _torn_copy(committed_log, target, int(cut * size), TAILS[after])
    store = EmbeddedStore(target, read_only=read_only)
    try:
        held = _check_opened(store, torn)
        if cut == 1:
            assert len(held) == TRANSACTIONS  # garbage after the last COMMIT costs nothing committed
        if not read_only:
            store.migrate()  # a log cut inside the migrations lost them too
            with store.transaction() as tx:  # and it takes writes again
                tx.upsert_nodes("Law", [{"law_id": "AFTER", "title": "after"}])
    finally:
        store.close()
    again = EmbeddedStore(target, read_only=True)
    try:
        assert not [n for n in again.opening_notes if n.startswith("set aside")]
        assert sorted(int(t[1:]) for t in _transactions(again) if t != "after") == held
    finally:
        again.close()


def test_the_longer_the_log_the_more_committed_transactions_it_keeps(committed_log: Path, tmp_path: Path) -> None:
    """Cut every 1/40 of the log: what is kept never shrinks as the cut moves later, and the whole log keeps
    every transaction (a kill before COMMIT wrote anything loses nothing committed earlier)."""
    size = (committed_log / "graph.lbdb.wal").stat().st_size
    kept = []
    for step in range(41):
        target = tmp_path / f"cut-{step}"
        torn = _torn_copy(committed_log, target, size * step // 40)
        store = EmbeddedStore(target, read_only=True)
        try:
            kept.append(len(_check_opened(store, torn)))
        finally:
            store.close()
        shutil.rmtree(target)
    assert kept == sorted(kept) and kept[-1] == TRANSACTIONS and kept[0] == 0, kept


def test_doctor_reports_a_torn_log_and_repair_sets_it_aside(committed_log: Path, tmp_path: Path) -> None:
    size = (committed_log / "graph.lbdb.wal").stat().st_size
    store = tmp_path / "store"
    _torn_copy(committed_log, store, size - 100)
    stats = lexgraph("stats", "--json", store=store)
    assert stats.code == 0, stats.stderr
    assert stats.json()["nodes"]["Law"] == 50 * (TRANSACTIONS - 1)
    assert "note: the store's write-ahead log ends in a torn record" in stats.stderr
    assert "Checksum verification failed" in stats.stderr and "doctor --repair" in stats.stderr
    doctor = lexgraph("doctor", "--json", store=store)
    assert doctor.code == 1, doctor.stderr + doctor.stdout
    finding = next(f for f in doctor.json()["findings"] if f["check"] == "write-ahead log")
    assert not finding["ok"] and "doctor --repair" in finding["fix"]
    assert _aside(store) == []
    repair = lexgraph("doctor", "--repair", "--json", store=store)
    assert repair.code == 0, repair.stderr + repair.stdout
    assert "note: set aside the torn tail of the store's write-ahead log" in repair.stderr
    finding = next(f for f in repair.json()["findings"] if f["check"] == "write-ahead log")
    assert finding["ok"] and _aside(store)[0].name in finding["detail"]
    again = lexgraph("stats", "--json", store=store)
    assert again.code == 0 and "note:" not in again.stderr, again.stderr
    assert again.json()["nodes"]["Law"] == 50 * (TRANSACTIONS - 1)
    assert lexgraph("doctor", "--repair", store=tmp_path / "none").code == 3


def test_a_log_a_live_writer_is_writing_is_not_called_torn(committed_log: Path, tmp_path: Path) -> None:
    """A reader may open while a writer's COMMIT is half way through the log: that half record is no tear, and
    doctor must not send the user to repair it. The lock note names the writer (here, this process)."""
    size = (committed_log / "graph.lbdb.wal").stat().st_size
    store = tmp_path / "store"
    _torn_copy(committed_log, store, size - 100)
    (store / "lexgraph.lock").write_text(json.dumps({"pid": os.getpid(), "command": "lexgraph ingest"}))
    opened = EmbeddedStore(store, read_only=True)
    try:
        assert len(_transactions(opened)) == TRANSACTIONS - 1 and not opened.torn_log
        assert f"process {os.getpid()} (lexgraph ingest) is still writing" in opened.opening_notes[0]
    finally:
        opened.close()


def test_a_read_only_open_reads_what_a_killed_writer_committed_and_changes_nothing(committed_log: Path,
                                                                                   tmp_path: Path) -> None:
    store = tmp_path / "store"
    shutil.copytree(committed_log, store)
    before = {p.name: p.read_bytes() for p in store.iterdir()}
    opened = EmbeddedStore(store, read_only=True)
    try:
        assert len(_transactions(opened)) == TRANSACTIONS
        assert opened.opening_notes == () and not opened.torn_log
    finally:
        opened.close()
    assert {p.name: p.read_bytes() for p in store.iterdir()} == before


# `lexgraph ingest statutes` with its COMMITs timed; with nth > 0, it is killed `delay` s after its nth COMMIT starts
# (with a negative delay: just before that COMMIT, which leaves what the COMMITs before it wrote).
INGEST = """
import json, os, signal, sys, threading, time
from lexgraph.store import embedded

nth, delay, command = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3:]
run = embedded.EmbeddedStore._execute
commits = []

def execute(self, cypher, *args, **kwargs):
    if cypher != "COMMIT":
        return run(self, cypher, *args, **kwargs)
    commits.append(0.0)
    if len(commits) == nth:
        if delay < 0:
            os.kill(os.getpid(), signal.SIGKILL)
        threading.Timer(delay, lambda: os.kill(os.getpid(), signal.SIGKILL)).start()
    started = time.perf_counter()
    try:
        return run(self, cypher, *args, **kwargs)
    finally:
        commits[-1] = time.perf_counter() - started

embedded.EmbeddedStore._execute = execute
from lexgraph.cli import app
sys.argv = ["lexgraph", *command]
try:
    app()
finally:
    print("COMMITS " + json.dumps(commits), file=sys.stderr)
"""
VERSIONED = SHARED / "egov" / "versioned"  # 15 versions of 11 laws


def _ingest(store: Path, nth: int = 0, delay: float = 0.0) -> tuple[int, list[float]]:
    done = subprocess.run([sys.executable, "-c", INGEST, str(nth), str(delay), "ingest", "statutes", str(VERSIONED),
                           "--store", str(store), "--json"], cwd=ROOT, env=_env(), capture_output=True, text=True,
                          timeout=600)
    assert done.returncode in (0, -9), done.stderr[-3000:]
    commits = json.loads(done.stderr.rsplit("COMMITS ", 1)[1].splitlines()[0]) if "COMMITS " in done.stderr else []
    return done.returncode, commits


def _counts(store: Path) -> tuple[dict[str, int], dict[str, int]]:
    """The store's counts after a kill, read as the next command would; a torn log is set aside first, as
    `doctor --repair` does, and doctor then finds nothing wrong."""
    opened = EmbeddedStore(store, read_only=True)
    try:
        counts, torn = opened.counts(), opened.torn_log
    finally:
        opened.close()
    if torn:
        assert _repaired(store)[0].startswith("set aside the torn tail")
    doctor = lexgraph("doctor", "--json", store=store)
    assert doctor.code == 0, doctor.stdout + doctor.stderr
    return counts.nodes, counts.relationships


def _ingest_kill_sweep(tmp_path: Path, fractions: list[float], longest_only: bool) -> None:
    whole = tmp_path / "whole"
    code, timed = _ingest(whole)
    assert code == 0
    expected = _counts(whole)
    migrations = len(load_migrations("embedded"))
    data = list(range(migrations + 1, len(timed) + 1))  # the ingest's own COMMITs, after the migrations'
    if longest_only:
        data = [max(data, key=lambda n: timed[n - 1])]
    references: dict[int, tuple[dict[str, int], dict[str, int]]] = {len(timed): expected}

    def after(n: int) -> tuple[dict[str, int], dict[str, int]]:
        """The counts once the first n COMMITs are done and no other (the process killed before the next)."""
        if n not in references:
            store = tmp_path / f"after-{n}"
            assert _ingest(store, n + 1, -1)[0] == -9
            references[n] = _counts(store)
            shutil.rmtree(store)
        return references[n]

    kills = 0
    for n in data:
        for fraction in fractions:
            store = tmp_path / f"kill-{n}-{fraction}"
            code, _ = _ingest(store, n, timed[n - 1] * fraction)
            state = _counts(store)
            assert state in (after(n - 1), after(n)), f"killed {fraction:.0%} into COMMIT {n} ({timed[n - 1]:.2f} s)"
            assert _ingest(store)[0] == 0  # the same ingest again
            assert _counts(store) == expected, f"rerun after a kill {fraction:.0%} into COMMIT {n}"
            kills += code == -9
            shutil.rmtree(store)
    print(f"{kills} kills of {len(data) * len(fractions)} moments in COMMITs {data} ({[timed[n - 1] for n in data]})")


@pytest.mark.requires("shared")
def test_an_ingest_killed_in_its_largest_commit_is_whole_after_it_runs_again(tmp_path: Path) -> None:
    _ingest_kill_sweep(tmp_path, [0.05], longest_only=True)


@pytest.mark.slow
@pytest.mark.requires("shared")
@pytest.mark.parametrize("fractions", [[0.0, 0.03, 0.07], [0.15, 0.4, 0.8]], ids=["early", "late"])
def test_an_ingest_killed_at_24_moments_of_its_commits_opens_and_runs_again_to_the_same_store(
        fractions: list[float], tmp_path: Path) -> None:
    """Six moments of each of the ingest's COMMITs, in two halves that the test processes run side by side (each
    sweep reruns the whole ingest after every kill: one half alone is CI's longest test)."""
    _ingest_kill_sweep(tmp_path, fractions, longest_only=False)
