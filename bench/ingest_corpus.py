"""Ingest the whole 2020 e-Gov corpus, linking included, and print wall time, peak RSS of the process tree, laws,
clauses, citations and CITES edges.

    python bench/ingest_corpus.py [ARCHIVE] [--store DIR] [--workers N] [--rerun] [--compare-workers 1]
                                  [--range-convention]

Default archive: ../shared/data/egov/lawhub-xml_2020-11-18_all.tar.xz (8,504 laws). Targets on a 2-core machine:
ingest with linking under 10 minutes and under 4 GB peak RSS (the main process and its workers
together), with the counts of the single-process ingest. `--rerun` ingests the same archive again into the same
store to time the no-op path (nothing may change). `--compare-workers N` first ingests with N workers into another
store, in the same run, so that the ratio is meaningful on a machine shared with other work. The machine's load
(/proc/loadavg) is printed at the start and the end, and the CPU seconds of the whole tree, which depend much less
on that load than the wall time does.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from lexgraph import LexGraph

DEFAULT_ARCHIVE = Path(__file__).parents[2] / "shared" / "data" / "egov" / "lawhub-xml_2020-11-18_all.tar.xz"


class TreeRss:
    """Peak memory of this process and all its descendants together, sampled every 0.2 s: the sum of their RSS
    (which counts a page shared after fork once per process, an upper bound) and of their PSS (which shares it
    out: what the tree really holds)."""

    def __init__(self) -> None:
        self.peak_kb = 0
        self.peak_pss_kb = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> TreeRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(0.2):
            rss, pss = tree_memory_kb(os.getpid())
            self.peak_kb = max(self.peak_kb, rss)
            self.peak_pss_kb = max(self.peak_pss_kb, pss)

    @property
    def peak_mb(self) -> int:
        return round(self.peak_kb / 1024)

    @property
    def peak_pss_mb(self) -> int:
        return round(self.peak_pss_kb / 1024)


def _pss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def tree_memory_kb(root: int) -> tuple[int, int]:
    """(sum of RSS, sum of PSS) in kB over `root` and its descendants."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(entry), int(fields[1])
        children.setdefault(ppid, []).append(pid)
        rss[pid] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE") // 1024
    total, pss, stack = 0, 0, [root]
    while stack:
        pid = stack.pop()
        total += rss.get(pid, 0)
        pss += _pss_kb(pid)
        stack.extend(children.get(pid, []))
    return total, pss


def cpu_split() -> tuple[float, float]:
    """(CPU of this process, the writer; CPU of its finished children, the workers), user + system."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def quiet_estimate(phase_cpu: dict[str, dict[str, float]], cores: int = 2) -> float:
    """The wall time the phases would take on `cores` idle cores: each phase needs at least the writer's own CPU
    (one process) and at least the tree's CPU shared out over the cores. A lower bound, for a shared machine
    whose wall time says more about the others' load than about this job."""
    return sum(max(p["writer"], (p["writer"] + p["workers"]) / cores) for p in phase_cpu.values())


def cpu_seconds() -> float:
    """User + system CPU of this process and its finished children (the worker processes, once joined)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def ingest(archive: Path, store: Path, workers: int | None) -> dict[str, Any]:
    cpu_before = cpu_seconds()
    marks = [cpu_split()]  # at the start, when linking starts (the parse workers joined), at the end
    with LexGraph.open(store) as lg, TreeRss() as rss:
        files = 0
        start = time.perf_counter()

        def on_file(size: int, name: str) -> None:
            nonlocal files
            files += 1
            if files % 1000 == 0:
                print(f"  {files} files, {time.perf_counter() - start:.0f} s, tree RSS peak {rss.peak_mb} MB",
                      file=sys.stderr, flush=True)

        summary = lg.ingest_statutes([archive], on_file=on_file, workers=workers,
                                     on_link_start=lambda _: marks.append(cpu_split()))
        wall = time.perf_counter() - start
        marks.append(cpu_split())
        counts = lg.stats()
    links = summary.links
    phase_cpu = {phase: {"writer": round(end[0] - begin[0], 1), "workers": round(end[1] - begin[1], 1)}
                 for phase, begin, end in zip(("ingest", "link"), marks, marks[1:], strict=False)}
    return {
        "workers": workers, "wall_s": round(wall, 1), "cpu_s": round(cpu_seconds() - cpu_before, 1),
        "phases_s": summary.to_json()["seconds"], "phases_cpu_s": phase_cpu,
        "quiet_2core_estimate_s": round(quiet_estimate(phase_cpu), 1),
        "peak_rss_sum_mb": rss.peak_mb, "peak_pss_sum_mb": rss.peak_pss_mb,
        "files": summary.files, "laws": len(summary.laws),
        "failures": len(summary.failures), "conflicts": len(summary.conflicts),
        "clauses": counts.nodes.get("Provision", 0), "citations": links.citations if links else None,
        "clauses_read": links.clauses_read if links else None,
        "cites_edges": counts.relationships.get("CITES", 0), "counts": counts.to_json(),
        "not_linked": links.to_json()["not_linked"] if links else None,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("archive", nargs="?", type=Path, default=DEFAULT_ARCHIVE)
    parser.add_argument("--store", type=Path, default=None, help="store directory (default: a temporary one)")
    parser.add_argument("--workers", type=int, default=None, help="worker processes (default: one per core)")
    parser.add_argument("--rerun", action="store_true", help="ingest a second time to measure the no-op path")
    parser.add_argument("--compare-workers", type=int, default=None, metavar="N",
                        help="first ingest with N workers into another store, for a same-run ratio")
    parser.add_argument("--range-convention", action="store_true",
                        help="also count what the old range convention gives (bench/range_convention.py)")
    args = parser.parse_args()
    if args.range_convention:
        sys.path.insert(0, str(Path(__file__).parent))
        import range_convention

        range_convention.install()
    root = args.store or Path(tempfile.mkdtemp(prefix="lexgraph-bench-"))
    results: dict[str, Any] = {"archive": str(args.archive), "store": str(root),
                               "loadavg_start": Path("/proc/loadavg").read_text().split()[:3]}
    if args.compare_workers is not None:
        results["baseline"] = ingest(args.archive, root / "baseline", args.compare_workers)
        shutil.rmtree(root / "baseline", ignore_errors=True)
    results["run"] = ingest(args.archive, root / "store", args.workers)
    if "baseline" in results:
        base, run = results["baseline"], results["run"]
        results["ratio_wall"] = round(run["wall_s"] / base["wall_s"], 3)
        results["same_counts"] = base["counts"] == run["counts"]
    if args.rerun:
        with LexGraph.open(root / "store") as lg:
            before = lg.stats()
            start = time.perf_counter()
            again = lg.ingest_statutes([args.archive], workers=args.workers)
            rerun_wall = time.perf_counter() - start
            results["rerun"] = {"wall_s": round(rerun_wall, 1), "versions_added": again.versions_added,
                                "unchanged": again.unchanged, "counts_unchanged": lg.stats() == before}
    results["store_mb"] = round(sum(p.stat().st_size for p in (root / "store").rglob("*") if p.is_file()) / 1e6)
    results["loadavg_end"] = Path("/proc/loadavg").read_text().split()[:3]
    print(json.dumps(results, ensure_ascii=False, indent=2))
    if args.store is None:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
