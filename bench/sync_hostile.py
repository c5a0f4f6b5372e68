"""`lexgraph sync` against a hostile local e-Gov server (tests/egov_api_server.py): how long each refusal takes
and how much memory the sync process peaks at, against a good sync of the same law for scale.

    OMP_NUM_THREADS=1 .venv/bin/python bench/sync_hostile.py [--cases good,endless,2gb,drip,retry-after]

Each case runs the real CLI in its own process (`lexgraph sync 405AC0000000088 --api URL --pace 0 --no-link`,
a new store each time) and prints its exit code, wall time and peak RSS (the child's ru_maxrss). The drip case
uses --answer-seconds 5; the others the defaults (64 MB, 300 s, 600 s)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT))

from tests.egov_api_server import PROCEDURE, EgovApiServer, procedure_act_with_broken_revision  # noqa: E402

OLD = f"{PROCEDURE}_20180401_429AC0000000004"
FAULTS = {"good": None, "endless": (f"law_data/{OLD}", "endless"), "2gb": (f"law_data/{OLD}", "2gb"),
          "drip": (f"law_data/{OLD}", "drip"), "retry-after": ("law_revisions", "retry-after:999999999")}


def run_case(name: str) -> tuple[int, float, float, str]:
    law = procedure_act_with_broken_revision()
    law.revisions = [r for r in law.revisions if "503AC0000000999" not in r.info["law_revision_id"]]
    with EgovApiServer([law]) as api, tempfile.TemporaryDirectory() as folder:
        fault = FAULTS[name]
        if fault is not None:
            api.fail_next(*fault)
        extra = ["--answer-seconds", "5"] if name == "drip" else []
        command = [sys.executable, "-m", "lexgraph", "sync", PROCEDURE, "--api", api.url, "--pace", "0", "--no-link",
                   *extra, "--store", str(Path(folder) / "store")]
        started = time.monotonic()
        done = subprocess.run([sys.executable, "-c", MEASURED, *command], cwd=ROOT, capture_output=True, text=True,
                              timeout=900, env={**os.environ, "PYTHONPATH": str(ROOT)})
        seconds = time.monotonic() - started
    *lines, peak = done.stderr.strip().splitlines()
    return done.returncode, seconds, int(peak) / 1024, (lines or [""])[-1][:160]


#: Runs the command given and prints its own child's peak RSS (KiB) last on stderr: one figure per case.
MEASURED = ("import resource, subprocess, sys; done = subprocess.run(sys.argv[1:]); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); sys.exit(done.returncode)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default=",".join(FAULTS))
    cases = parser.parse_args().cases.split(",")
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    print(f"{'case':<12} {'exit':>4} {'seconds':>8} {'peak MB':>8}  message")
    for name in cases:
        code, seconds, peak, message = run_case(name)
        print(f"{name:<12} {code:>4} {seconds:>8.1f} {peak:>8.0f}  {message}", flush=True)


if __name__ == "__main__":
    main()
