"""Cold start of the commands a new user runs first: ``--help``, ``law show`` and ``cite`` on a short text.

    python bench/cli_startup.py [--store DIR] [--rounds 5] [--top 15] [--json]

Each command runs ``--rounds`` times in a fresh interpreter (``python -m lexgraph …``, as the ``lexgraph`` script
does); the median wall time is reported beside a bare ``python -c pass`` measured in the same run, and as a ratio
of it, since absolute times on a shared machine are noisy (the target is ≤ 0.5 s on a quiet machine). Then
``python -X importtime -c "import lexgraph.cli"`` is run once and its slowest imports (cumulative µs) are printed:
the first place to look when a command gets slower.

Without ``--store`` a store is built in a temporary folder from the bundled sample (民法 2020, no cross-reference
linking), which takes a few seconds and is not timed. ``cite`` is timed with the bundled catalogue kept in the user's
cache folder (as after the first cite on a machine), and once more in an empty cache folder each round (the first
cite, which builds the catalogue and keeps it).

With ``--against DIR`` (another checkout, e.g. ``../lexgraph-before``) every command also runs from DIR's sources
(``PYTHONPATH=DIR``, in the same interpreter), alternating with this checkout's run by run, so that both see the same
load; the report gives both medians and their difference.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).parents[1]
SAMPLE_LAW = ROOT / "lexgraph" / "data" / "sample" / "129AC0000000089_20200401_501AC0000000034.xml"
SHORT_TEXT = "民法第七百九条及び第七百十条の規定により損害を賠償する責任を負う。"


def timed(command: list[str], stdin: str | None = None, fresh_cache: bool = False, tree: Path = ROOT) -> float:
    """Wall time of one run from `tree`'s sources; with `fresh_cache`, in an empty user cache folder (the bundled
    catalogue not kept yet, as on a machine's first `cite`)."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "PYTHONPATH": str(tree)}
        if fresh_cache:
            env["XDG_CACHE_HOME"] = cache
        started = time.perf_counter()
        done = subprocess.run(command, input=stdin, capture_output=True, text=True, cwd=tree, env=env)
        elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}: {done.stderr.strip()[-400:]}")
    return elapsed


def median_of(rounds: int, command: list[str], stdin: str | None = None, fresh_cache: bool = False) -> float:
    return statistics.median(timed(command, stdin, fresh_cache) for _ in range(rounds))


def medians_against(rounds: int, command: list[str], stdin: str | None, other: Path,
                    fresh_cache: bool = False) -> tuple[float, float]:
    """(this checkout's, `other`'s) medians, the runs alternating so that both see the same load, and which goes
    first alternating too (the second of a pair found the first's files in the page cache)."""
    mine: list[float] = []
    theirs: list[float] = []
    for round_ in range(rounds):
        if round_ % 2:
            theirs.append(timed(command, stdin, fresh_cache, tree=other))
            mine.append(timed(command, stdin, fresh_cache))
        else:
            mine.append(timed(command, stdin, fresh_cache))
            theirs.append(timed(command, stdin, fresh_cache, tree=other))
    return statistics.median(mine), statistics.median(theirs)


def import_times(top: int) -> list[tuple[int, str]]:
    """The slowest imports of ``lexgraph.cli`` (cumulative microseconds, module), from ``-X importtime``."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", "import lexgraph.cli"], capture_output=True,
                          text=True, cwd=ROOT, check=True)
    rows = []
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line or "cumulative" in line:
            continue
        _, cumulative, name = line.split("|")
        rows.append((int(cumulative), name.rstrip()))
    return sorted(rows, reverse=True)[:top]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", type=Path, help="An existing store holding 民法 (default: build one)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--against", type=Path, help="Another checkout to time alternately (e.g. ../lexgraph-before)")
    args = parser.parse_args()
    lexgraph = [sys.executable, "-m", "lexgraph"]
    with tempfile.TemporaryDirectory() as scratch:
        store = args.store
        if store is None:
            store = Path(scratch) / "store"
            subprocess.run([*lexgraph, "ingest", "statutes", str(SAMPLE_LAW), "--no-link", "--store", str(store)],
                           capture_output=True, check=True, cwd=ROOT)
        baseline = median_of(args.rounds, [sys.executable, "-c", "pass"])
        commands = {
            "--help": ([*lexgraph, "--help"], None),
            "law show 民法 第七百九条": ([*lexgraph, "law", "show", "民法", "第七百九条", "--store", str(store)], None),
            "cite (short text, with a store)": ([*lexgraph, "cite", "-", "--store", str(store)], SHORT_TEXT),
            "cite (short text, no store)": ([*lexgraph, "cite", "-", "--store", str(Path(scratch) / "none")],
                                            SHORT_TEXT),
        }
        timed(commands["cite (short text, no store)"][0], SHORT_TEXT)  # the catalogue kept, as after a first cite
        if args.against is not None:
            timed(commands["cite (short text, no store)"][0], SHORT_TEXT, tree=args.against)
            against = {name: medians_against(args.rounds, command, stdin, args.against)
                       for name, (command, stdin) in commands.items()}
            report = {name: {"this_s": round(a, 3), "against_s": round(b, 3), "saved_s": round(b - a, 3)}
                      for name, (a, b) in against.items()}
            if args.json:
                print(json.dumps({"rounds": args.rounds, "python_pass_s": baseline, "against": str(args.against),
                                  "median_s": report}, ensure_ascii=False, indent=2))
                return
            print(f"median of {args.rounds} cold starts, alternating with {args.against}; "
                  f"bare `python -c pass`: {baseline:.3f} s")
            print(f"  {'command':34} {'this':>7} {'against':>8} {'saved':>7}")
            for name, row in report.items():
                print(f"  {name:34} {row['this_s']:6.3f}s {row['against_s']:7.3f}s {row['saved_s']:6.3f}s")
            return
        medians = {name: median_of(args.rounds, command, stdin) for name, (command, stdin) in commands.items()}
        medians["cite (no store, first run: catalogue built)"] = median_of(
            args.rounds, commands["cite (short text, no store)"][0], SHORT_TEXT, fresh_cache=True)
    slowest = import_times(args.top)
    if args.json:
        print(json.dumps({"rounds": args.rounds, "python_pass_s": baseline, "median_s": medians,
                          "ratio": {k: v / baseline for k, v in medians.items()},
                          "importtime_top_us": slowest}, ensure_ascii=False, indent=2))
        return
    print(f"median of {args.rounds} cold starts; bare `python -c pass`: {baseline:.3f} s")
    for name, seconds in medians.items():
        verdict = "ok" if seconds <= 0.5 else "OVER 0.5 s"
        print(f"  {name:34} {seconds:6.3f} s  ×{seconds / baseline:5.1f}  {verdict}")
    print("slowest imports of lexgraph.cli (python -X importtime, cumulative):")
    for micros, name in slowest:
        print(f"  {micros / 1000:8.1f} ms  {name}")


if __name__ == "__main__":
    main()
