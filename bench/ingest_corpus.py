"""Ingest the whole 2020 e-Gov corpus and print wall time, MB/s, clauses/s, peak RSS and graph counts.

    python bench/ingest_corpus.py [ARCHIVE] [--store DIR] [--rerun] [--link]

Default archive: ../shared/data/egov/lawhub-xml_2020-11-18_all.tar.xz (8,504 laws). Targets on a 2-core machine:
under 15 minutes and under 4 GB peak RSS. Linking the clauses' cross-references (what `ingest` does afterwards by
default) is timed apart with --link, so that the two costs can be read separately. A second run over the same store
measures the idempotent re-ingest (nothing written) against the first, in the same process, so that the ratio is
meaningful on a noisy machine.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

from lexgraph import LexGraph

DEFAULT_ARCHIVE = Path(__file__).parents[2] / "shared" / "data" / "egov" / "lawhub-xml_2020-11-18_all.tar.xz"


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("archive", nargs="?", type=Path, default=DEFAULT_ARCHIVE)
    parser.add_argument("--store", type=Path, default=None, help="store directory (default: a temporary one)")
    parser.add_argument("--rerun", action="store_true", help="ingest a second time to measure the no-op path")
    parser.add_argument("--link", action="store_true", help="then link every law's clause cross-references (CITES) "
                        "and time that apart from the ingest")
    args = parser.parse_args()
    store = args.store or Path(tempfile.mkdtemp(prefix="lexgraph-bench-")) / "store"
    results: dict[str, object] = {"archive": str(args.archive), "store": str(store)}
    files = 0

    def on_file(size: int, name: str) -> None:
        nonlocal files
        files += 1
        if files % 500 == 0:
            print(f"  {files} files, {time.perf_counter() - start:.0f} s, peak RSS {peak_rss_mb():.0f} MB",
                  file=sys.stderr, flush=True)

    with LexGraph.open(store) as lg:
        start = time.perf_counter()
        summary = lg.ingest_statutes([args.archive], on_file=on_file, link=False)
        wall = time.perf_counter() - start
        counts = lg.stats()
        results["first_run"] = {
            "files": summary.files, "laws": len(summary.laws), "versions_added": summary.versions_added,
            "failures": [f.to_json() for f in summary.failures], "conflicts": len(summary.conflicts),
            "wall_s": round(wall, 1), "xml_mb": round(summary.xml_bytes / 1e6, 1),
            "mb_per_s": round(summary.xml_bytes / 1e6 / wall, 2),
            "provisions_written": summary.provisions_written,
            "provisions_per_s": round(summary.provisions_written / wall),
            "peak_rss_mb": round(peak_rss_mb()),
        }
        if args.link:
            linked = 0

            def on_law(law_id: str) -> None:
                nonlocal linked
                linked += 1
                if linked % 500 == 0:
                    print(f"  linked {linked} laws, {time.perf_counter() - start:.0f} s, "
                          f"peak RSS {peak_rss_mb():.0f} MB", file=sys.stderr, flush=True)

            start = time.perf_counter()
            links = lg.link(on_law=on_law)
            link_wall = time.perf_counter() - start
            results["link"] = {**links.to_json(), "wall_s": round(link_wall, 1),
                               "clauses_per_s": round(links.clauses_read / link_wall),
                               "ratio_to_ingest": round(link_wall / wall, 2), "peak_rss_mb": round(peak_rss_mb())}
            counts = lg.stats()
        results["counts"] = counts.to_json()
        if args.rerun:
            start = time.perf_counter()
            again = lg.ingest_statutes([args.archive], link=False)
            rerun_wall = time.perf_counter() - start
            results["rerun"] = {"wall_s": round(rerun_wall, 1), "versions_added": again.versions_added,
                                "unchanged": again.unchanged, "ratio_to_first": round(rerun_wall / wall, 3),
                                "counts_unchanged": lg.stats() == counts}
    results["store_mb"] = round(sum(p.stat().st_size for p in store.rglob("*") if p.is_file()) / 1e6)
    print(json.dumps(results, ensure_ascii=False, indent=2))
    if args.store is None:
        shutil.rmtree(store.parent, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
