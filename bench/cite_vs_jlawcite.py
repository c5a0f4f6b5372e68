"""`lexgraph cite --json` against jlawcite 2.5.0 on the same judgments, in the same run: throughput and ratio.

Why: ``lexgraph cite --json`` on about 1 MB of judgments (precedents included) is held to be at least as
fast as jlawcite, start-up excluded, and a 50 MB input to finish in time and memory that grow
linearly. jlawcite is measured in its own virtualenv (it is not a lexgraph dependency):

    python3 -m venv ../jlawcite-venv && ../jlawcite-venv/bin/pip install jlawcite==2.5.0
    .venv/bin/python bench/cite_vs_jlawcite.py [--mb 1] [--repeats 5] [--jlawcite-python PATH] [--json]
    .venv/bin/python bench/cite_vs_jlawcite.py --scale 1 10 50      # time and peak RSS of the CLI per size
    .venv/bin/python bench/cite_vs_jlawcite.py --before ../main     # also the code of another checkout, same run

What is measured, per repeat (lexgraph and jlawcite alternate, each in a fresh process):

* lexgraph: what the ``cite`` command does after start-up: read the file in blocks (`read_blocks`), take the
  date from its header, find and resolve every statute and precedent citation (`cite_pieces`, no store: the
  bundled catalogue, as on a fresh machine) and write the ``--json`` document (to /dev/null). The interpreter, the
  imports (also the encoding check that `read_blocks` imports on first use) and the catalogue are loaded first
  and the input's first 20,000 characters are cited once, outside the clock.
* jlawcite: read the file and run ``jlawcite.citation.extract_all`` on it, serialising the references to JSON
  (to /dev/null); imported and warmed up on the same 20,000 characters first, outside the clock.

Both are warmed up on the same real text, not on one short sentence: "start-up excluded" means every one-time
cost, and lexgraph compiles its larger grammars the first time a text needs them (a short `cite` should
not pay for patterns it never uses). With a one-sentence warm-up those compilations, 0.03-0.05 s, were counted as
citing time (stop 40).

MB/s counts the input's UTF-8 bytes (1 MB = 10^6 bytes). The figures are medians over ``--repeats``, of wall
time (time.perf_counter) and of the process's CPU time (time.process_time: on a machine shared with other jobs,
the CPU time says what each extractor costs, the wall time also how busy the machine was). The ratio is
lexgraph's throughput over jlawcite's (≥ 1.0: lexgraph is at least as fast). The input is the Supreme Court
judgments of ``--corpus`` concatenated in name order (repeated when the size asks for more than the corpus).

``--scale`` runs the real ``lexgraph cite --json FILE`` for each size under ``/usr/bin/time``-like accounting
(wall time; the child's CPU time and peak RSS from os.wait4, start-up included) and prints time and MB/s per
size, to show that time grows linearly (MB per CPU second stays flat) and memory does not (peak RSS stays flat).
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
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ROOT.parent / "shared" / "data" / "precedents" / "supreme_court"
JLAWCITE_ENV = "JLAWCITE_PYTHON"
DEFAULT_JLAWCITE = ROOT.parent / "jlawcite-venv" / "bin" / "python"  # a venv beside the checkout
REPEATS = 5

# Each worker prints one JSON line: {"seconds": …, "found": …}. They run in fresh interpreters so that neither
# side's memory or caches help the other.
_LEXGRAPH_WORKER = r"""
import json, os, sys, time
from itertools import chain
from lexgraph.cli.cite import _citations, _write_json
from lexgraph.cli.output import read_blocks
from lexgraph.read.citing import citation_day

def cite_pieces(blocks, store, as_of):
    return _citations(blocks, store, as_of=as_of, in_law=None, at=None, extractor="rules", judgment_days=None)

path, store = sys.argv[1], sys.argv[2]
WARM_CHARS = 20_000  # the input's first characters, cited once outside the clock (see the module's docstring)
with open(path, encoding="utf-8-sig") as f:
    warm = [f.read(WARM_CHARS)]
list(cite_pieces(warm, store, citation_day(warm[0], None)[0]))
from lexgraph import Utf8Tally  # noqa: F401  (read_blocks imports it on first use: an import is start-up)
counted = []
sink = open(os.devnull, "w", encoding="utf-8")
real_stdout = sys.stdout
start, cpu = time.perf_counter(), time.process_time()
blocks = read_blocks(path)
first = next(blocks, "")
day, _ = citation_day(first, None)
sys.stdout = sink
_write_json((counted.append(1) or c for c in cite_pieces(chain([first], blocks), store, day)),
            lines=False)
sys.stdout = real_stdout
seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
print(json.dumps({"seconds": seconds, "cpu": cpu, "found": len(counted)}))
"""

_JLAWCITE_WORKER = r"""
import dataclasses, json, os, sys, time
from jlawcite.citation import extract_all

def plain(value):
    return dataclasses.asdict(value) if dataclasses.is_dataclass(value) else str(value)

path = sys.argv[1]
WARM_CHARS = 20_000  # the same warm-up as lexgraph's
with open(path, encoding="utf-8-sig") as f:
    json.dumps(extract_all(f.read(WARM_CHARS)), default=plain)
sink = open(os.devnull, "w", encoding="utf-8")
start, cpu = time.perf_counter(), time.process_time()
with open(path, encoding="utf-8-sig") as f:
    text = f.read()
found = extract_all(text)
json.dump(found, sink, ensure_ascii=False, indent=2, default=plain)
seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
print(json.dumps({"seconds": seconds, "cpu": cpu, "found": sum(len(v) for v in found.values())}))
"""


def build_input(corpus: Path, size_bytes: int, path: Path) -> tuple[int, int]:
    """Write judgments of `corpus` (name order, repeated as needed) to `path` until `size_bytes`; returns the
    bytes written and the number of judgments."""
    sources = sorted(corpus.glob("*.txt"))
    if not sources:
        raise SystemExit(f"no *.txt judgments in {corpus}; give --corpus")
    written = count = 0
    with path.open("w", encoding="utf-8") as out:
        while written < size_bytes:
            text = sources[count % len(sources)].read_text(encoding="utf-8").strip("\n") + "\n\n"
            out.write(text)
            written += len(text.encode("utf-8"))
            count += 1
    return written, count


def jlawcite_python(given: str | None) -> Path | None:
    """The python of the virtualenv jlawcite is installed in: --jlawcite-python, $JLAWCITE_PYTHON, or
    ../jlawcite-venv/bin/python; None (with the reason printed) when there is none or it lacks jlawcite."""
    candidate = Path(given or os.environ.get(JLAWCITE_ENV) or DEFAULT_JLAWCITE)
    if not candidate.exists():
        print(f"jlawcite: ABSENT, no python at {candidate}. Install it apart from lexgraph:\n"
              f"  python3 -m venv ../jlawcite-venv && ../jlawcite-venv/bin/pip install jlawcite==2.5.0\n"
              f"then give --jlawcite-python or ${JLAWCITE_ENV}.", file=sys.stderr)
        return None
    probe = subprocess.run([str(candidate), "-c", "import jlawcite.citation"], capture_output=True, text=True)
    if probe.returncode != 0:
        print(f"jlawcite: ABSENT, {candidate} cannot import jlawcite ({probe.stderr.strip().splitlines()[-1:]}). "
              f"Run {candidate.parent}/pip install jlawcite==2.5.0", file=sys.stderr)
        return None
    return candidate


def run_worker(command: list[str], checkout: Path = ROOT) -> dict[str, Any]:
    """One worker's figures; `checkout` is the lexgraph whose code it imports (this one, or --before's)."""
    env = {**os.environ, "PYTHONPATH": str(checkout), "OMP_NUM_THREADS": "1"}
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=checkout)
    if done.returncode != 0:
        raise SystemExit(f"worker failed ({' '.join(command[:2])}):\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def compare(args: argparse.Namespace, path: Path, size: int, scratch: Path) -> dict[str, Any]:
    jlawcite = jlawcite_python(args.jlawcite_python)
    lexgraph_cmd = [sys.executable, "-c", _LEXGRAPH_WORKER, str(path), str(scratch / "no-store")]
    jlawcite_cmd = [str(jlawcite), "-c", _JLAWCITE_WORKER, str(path)] if jlawcite else None
    before: Path | None = args.before
    runs: dict[str, list[dict[str, Any]]] = {"lexgraph": [], "jlawcite": []}
    if before is not None:
        runs["lexgraph_before"] = []
    for repeat in range(args.repeats):
        order: list[tuple[str, list[str] | None, Path]] = [("lexgraph", lexgraph_cmd, ROOT),
                                                           ("jlawcite", jlawcite_cmd, ROOT)]
        if before is not None:
            order.insert(1, ("lexgraph_before", lexgraph_cmd, before))
        if repeat % 2:
            order.reverse()  # alternate who goes first, so that neither always meets the same load
        for name, command, checkout in order:
            if command is not None:
                runs[name].append(run_worker(command, checkout))
    result: dict[str, Any] = {"input_bytes": size, "repeats": args.repeats, "jlawcite_python": str(jlawcite)}
    for name, measured in runs.items():
        if measured:
            seconds = statistics.median(r["seconds"] for r in measured)
            cpu = statistics.median(r["cpu"] for r in measured)
            result[name] = {"median_s": round(seconds, 4), "mb_per_s": round(size / 1e6 / seconds, 3),
                            "median_cpu_s": round(cpu, 4), "mb_per_cpu_s": round(size / 1e6 / cpu, 3),
                            "all_s": [round(r["seconds"], 4) for r in measured], "found": measured[0]["found"]}
    if runs["jlawcite"]:
        result["ratio"] = round(result["lexgraph"]["mb_per_s"] / result["jlawcite"]["mb_per_s"], 3)
        result["ratio_cpu"] = round(result["lexgraph"]["mb_per_cpu_s"] / result["jlawcite"]["mb_per_cpu_s"], 3)
        pairs = [j["seconds"] / lg["seconds"] for lg, j in zip(runs["lexgraph"], runs["jlawcite"], strict=True)]
        result["ratio_per_repeat"] = [round(p, 3) for p in pairs]
        if runs.get("lexgraph_before"):
            result["ratio_before"] = round(result["lexgraph_before"]["mb_per_s"] / result["jlawcite"]["mb_per_s"], 3)
            result["ratio_cpu_before"] = round(
                result["lexgraph_before"]["mb_per_cpu_s"] / result["jlawcite"]["mb_per_cpu_s"], 3)
    return result


def scale(args: argparse.Namespace, scratch: Path) -> list[dict[str, Any]]:
    """The real CLI, once per size: wall time and the child's peak RSS."""
    rows = []
    for mb in args.scale:
        path = scratch / f"judgments-{mb}mb.txt"
        size, _ = build_input(args.corpus, int(mb * 1e6), path)
        env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
        start = time.perf_counter()
        with open(os.devnull, "w") as sink, tempfile.TemporaryFile() as errors:
            child = subprocess.Popen([sys.executable, "-m", "lexgraph", "cite", "--json", str(path),
                                      "--store", str(scratch / "no-store")], stdout=sink, stderr=errors, env=env)
            _, status, usage = os.wait4(child.pid, 0)  # this child's own peak RSS, not the max of all children
            child.returncode = os.waitstatus_to_exitcode(status)
            seconds = time.perf_counter() - start
            errors.seek(0)
            if child.returncode != 0:
                raise SystemExit(f"lexgraph cite failed on {path}:\n{errors.read().decode(errors='replace')}")
        cpu = usage.ru_utime + usage.ru_stime
        rows.append({"mb": mb, "input_bytes": size, "seconds": round(seconds, 2),
                     "mb_per_s": round(size / 1e6 / seconds, 3), "cpu_s": round(cpu, 2),
                     "mb_per_cpu_s": round(size / 1e6 / cpu, 3), "peak_rss_mb": round(usage.ru_maxrss / 1024, 1)})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="directory of judgment *.txt files")
    parser.add_argument("--mb", type=float, default=1.0, help="input size for the comparison, in MB (10^6 bytes)")
    parser.add_argument("--input", type=Path, help="compare on this file instead of building one")
    parser.add_argument("--repeats", type=int, default=REPEATS, help="runs of each extractor; medians count")
    parser.add_argument("--jlawcite-python", help=f"python of jlawcite's virtualenv (env {JLAWCITE_ENV}; "
                        f"default {DEFAULT_JLAWCITE})")
    parser.add_argument("--scale", type=float, nargs="*", help="instead: time and peak RSS of `lexgraph cite "
                        "--json` on inputs of these sizes in MB")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--before", type=Path, help="another lexgraph checkout (the code before a change), measured "
                        "in the same run, alternating with this one and jlawcite")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="cite-bench-") as folder:
        scratch = Path(folder)
        if args.scale:
            rows = scale(args, scratch)
            if args.json:
                print(json.dumps({"scale": rows}, ensure_ascii=False))
            else:
                print(f"{'MB':>6} {'wall s':>8} {'MB/s':>7} {'CPU s':>8} {'MB/CPU s':>9} {'peak RSS MB':>12}")
                for row in rows:
                    print(f"{row['mb']:>6} {row['seconds']:>8} {row['mb_per_s']:>7} {row['cpu_s']:>8} "
                          f"{row['mb_per_cpu_s']:>9} {row['peak_rss_mb']!s:>12}")
            return 0
        path = args.input or scratch / "judgments.txt"
        if args.input:
            size = path.stat().st_size
        else:
            size, count = build_input(args.corpus, int(args.mb * 1e6), path)
            print(f"input: {count} judgments of {args.corpus}, {size:,} bytes", file=sys.stderr)
        result = compare(args, path, size, scratch)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return 0
    print(f"input {result['input_bytes']:,} bytes, {result['repeats']} repeats, medians (start-up excluded)")
    for name in ("lexgraph", "lexgraph_before", "jlawcite"):
        measured = result.get(name)
        if measured is None:
            if name != "lexgraph_before":
                print(f"{name:9} ABSENT (see above): no comparison")
            continue
        print(f"{name:9} {measured['mb_per_s']:7.3f} MB/s  {measured['median_s']:.3f} s wall   "
              f"{measured['mb_per_cpu_s']:7.3f} MB/s  {measured['median_cpu_s']:.3f} s CPU   "
              f"found {measured['found']}  wall runs {measured['all_s']}")
    if "ratio" in result:
        verdict = "lexgraph at least as fast" if result["ratio"] >= 1.0 else "lexgraph SLOWER"
        print(f"ratio lexgraph/jlawcite throughput: {result['ratio']:.3f} wall ({verdict}), "
              f"{result['ratio_cpu']:.3f} CPU time; wall per repeat {result['ratio_per_repeat']}")
    if "ratio_before" in result:
        print(f"before ({args.before}): ratio {result['ratio_before']:.3f} wall, {result['ratio_cpu_before']:.3f} CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
