"""Kill `ingest statutes` inside each of its COMMITs, at several delays, and check what the store comes back as.

    python bench/ingest_kill_sweep.py [SOURCE] [--delays-ms 0,40,80,…] [--commits N,N,…]

A random kill rarely lands inside a COMMIT, which is where LadybugDB 0.22 once lost a batch's COPY but kept its
other writes (docs/architecture.md, "Transactions, bulk inserts and a killed writer"). This script aims: a child
process runs the ingest with the store's statement runner wrapped so that, when the N-th ``COMMIT`` starts, a timer
kills the process (SIGKILL) after the given delay. The parent then runs `doctor --json` and `stats --json` on
what is left, as the next command would, and prints one row per kill: the counts of laws, versions, clauses,
CONTAINS and CITES edges, doctor's verdict, and whether the kill tore the log (then set aside by `doctor
--repair` before the counts). Every row must be one the store can be in: doctor ok, and each version with its
clauses. Exit 1 if any row is not.

Default source: ../shared/data/egov/versioned (15 versions of 11 laws). The first run without a kill counts the
COMMITs, and `--commits` defaults to every one after the migrations'.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SOURCE = ROOT.parent / "shared" / "data" / "egov" / "versioned"

# The child: a lexgraph command, with a kill timer armed when the N-th COMMIT starts (N = 0: none, count them).
CHILD = """
import os, signal, sys, threading
from lexgraph.store import embedded

nth, delay, command = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3:]
run = embedded.EmbeddedStore._execute
commits = 0

def execute(self, cypher, *args, **kwargs):
    global commits
    if cypher == "COMMIT":
        commits += 1
        if commits == nth:
            threading.Timer(delay, lambda: os.kill(os.getpid(), signal.SIGKILL)).start()
    return run(self, cypher, *args, **kwargs)

embedded.EmbeddedStore._execute = execute
from lexgraph.cli import app
sys.argv = ["lexgraph", *command]
try:
    app()
finally:
    print(f"commits {commits}", file=sys.stderr)
"""


def _lexgraph(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "lexgraph", *args], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def _child(nth: int, delay_s: float, *command: str) -> tuple[int, int]:
    """Run `lexgraph COMMAND` killed `delay_s` after its `nth` COMMIT starts (never if 0): its exit code and how
    many COMMITs it started."""
    done = subprocess.run([sys.executable, "-c", CHILD, str(nth), str(delay_s), *command], cwd=ROOT,
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    started = int(done.stderr.rsplit("commits ", 1)[1].split()[0]) if "commits " in done.stderr else nth
    if nth == 0 and done.returncode != 0:
        raise SystemExit(f"lexgraph {' '.join(command)} failed:\n{done.stderr[-2000:]}")
    return done.returncode, started


def _ingest(store: Path, source: Path, nth: int, delay_s: float) -> tuple[int, int]:
    return _child(nth, delay_s, "ingest", "statutes", str(source), "--store", str(store), "--json")


def _state(store: Path) -> dict[str, Any]:
    """Doctor's verdict and the counts. A log torn by the kill is doctor's one PROBLEM with a fix
    (`doctor --repair`), which the next write command applies by itself: shown as ``torn``, then repaired."""
    doctor = _lexgraph("doctor", "--json", "--store", str(store))
    problems = [f["check"] for f in json.loads(doctor.stdout)["findings"] if not f["ok"]] if doctor.stdout else ["?"]
    torn = problems == ["write-ahead log"]
    if torn:
        doctor = _lexgraph("doctor", "--repair", "--json", "--store", str(store))
    stats = json.loads(_lexgraph("stats", "--json", "--store", str(store)).stdout)
    nodes, rels = stats["nodes"], stats["relationships"]
    return {"doctor_ok": doctor.returncode == 0, "torn": torn, "laws": nodes.get("Law", 0),
            "versions": nodes.get("LawVersion", 0), "clauses": nodes.get("Provision", 0),
            "contains": rels.get("CONTAINS", 0), "cites": rels.get("CITES", 0)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", nargs="?", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--delays-ms", default="0,40,80,150,300,600")
    parser.add_argument("--commits", default="", help="which COMMITs to kill in (default: all after migrations)")
    args = parser.parse_args()
    if not args.source.exists():
        print(f"error: {args.source} not found; pass a folder or archive of e-Gov XML", file=sys.stderr)
        return 2
    delays = [float(d) / 1000 for d in args.delays_ms.split(",") if d]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        whole = Path(tmp) / "whole"
        _, total = _ingest(whole, args.source, 0, 0)
        _, migrations = _child(0, 0, "migrate", "--store", str(Path(tmp) / "migrated"))
        first = migrations + 1
        commits = [int(n) for n in args.commits.split(",") if n] or list(range(first, total + 1))
        print(json.dumps({"source": str(args.source), "commits": total, "whole": _state(whole)}))
        for nth in commits:
            for delay in delays:
                store = Path(tmp) / f"k{nth}-{delay}"
                code, _ = _ingest(store, args.source, nth, delay)
                state = _state(store)
                consistent = state["doctor_ok"] and (state["versions"] == 0 or state["clauses"] > 0)
                failures += not consistent
                print(json.dumps({"commit": nth, "delay_ms": round(delay * 1000), "killed": code == -9,
                                  **state, "consistent": consistent}), flush=True)
    print(json.dumps({"kills": len(commits) * len(delays), "inconsistent": failures}))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
