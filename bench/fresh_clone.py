"""`make demo` and `make test` timed in a fresh clone, install included, as a new user waits for them.

    python bench/fresh_clone.py [--targets demo,test] [--keep] [--json]

Clones this repository's committed HEAD beside it (so that ``../shared/data`` is the same folder the tests read),
then times, each in turn: ``make install`` (a new .venv from PyPI), ``make demo``, ``make test``. The figures the
issue asks for are install + demo (target: under 4 minutes on a quiet 2-core machine), demo alone (under 90 s),
and install + test (under 10 minutes). The load average is printed before and after each step: run it on a quiet
machine. The clone is removed afterwards unless ``--keep``. With ``--json`` the step lines go to stderr and stdout
gets one JSON object of the figures (what `bench/speed.py --fresh-clone` reads).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


STEPS: list[dict[str, object]] = []


def step(name: str, command: list[str], cwd: Path, env: dict[str, str], *, show: bool = True) -> float:
    before = load()
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - started
    after = load()
    STEPS.append({"step": name, "seconds": round(seconds, 1), "exit": done.returncode, "load_before": before,
                  "load_after": after})
    print(f"{name:14} {seconds:8.1f} s  exit {done.returncode}  (load {before} -> {after})", flush=True,
          file=sys.stdout if show else sys.stderr)
    if done.returncode != 0:
        print(done.stderr[-2000:], file=sys.stderr)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--targets", default="demo,test")
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--json", action="store_true", help="figures as one JSON object on stdout")
    args = parser.parse_args()
    show = not args.json
    clone = ROOT.parent / f"fresh-clone-{os.getpid()}"
    env = {k: v for k, v in os.environ.items() if k not in ("LEXGRAPH_STORE", "VIRTUAL_ENV", "PYTHONPATH")}
    print(f"cores {len(os.sched_getaffinity(0))}; clone {clone}", file=sys.stdout if show else sys.stderr)
    try:
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
        install = step("make install", ["make", "install"], clone, env, show=show)
        times = {name: step(f"make {name}", ["make", name], clone, env, show=show)
                 for name in args.targets.split(",")}
    finally:
        if not args.keep:
            shutil.rmtree(clone, ignore_errors=True)
    if args.json:
        figures: dict[str, object] = {"cores": len(os.sched_getaffinity(0)), "steps": STEPS,
                                      "install_s": round(install, 1)}
        if "demo" in times:
            figures["demo_s"] = round(times["demo"], 1)
            figures["install_and_demo_s"] = round(install + times["demo"], 1)
        if "test" in times:
            figures["test_s"] = round(times["test"], 1)
            figures["install_and_test_s"] = round(install + times["test"], 1)
        figures["failed"] = [s["step"] for s in STEPS if s["exit"] != 0]
        print(json.dumps(figures, indent=2))
        raise SystemExit(1 if figures["failed"] else 0)
    if "demo" in times:
        total = install + times["demo"]
        print(f"make demo, install included: {total:.0f} s (target 240: {total <= 240}); its own steps: "
              f"{times['demo']:.0f} s (target 90: {times['demo'] <= 90})")
    if "test" in times:
        total = install + times["test"]
        print(f"make test, install included: {total:.0f} s (target 600: {total <= 600})")
    failed = [s["step"] for s in STEPS if s["exit"] != 0]
    if failed:
        raise SystemExit(f"failed: {', '.join(map(str, failed))} (its times are not figures; stderr above)")


if __name__ == "__main__":
    main()
