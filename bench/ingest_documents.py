"""Ingest the 742 Supreme Court judgments (and the tax_demo literature) and print documents/s, chunks/s, peak RSS,
how many citations became edges, and the cost of an idempotent re-run against the first.

    python bench/ingest_documents.py [--store DIR] [--judgments DIR] [--limit N]

With --store pointing at a store that already holds the statutes (say the one bench/ingest_corpus.py built), the
judgments' citations link to every law they cite; without, a temporary store with the bundled sample (民法,
借地借家法, 個人情報保護法) is used, so only those laws' citations become edges. The store is modified in place.
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

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", type=Path, default=None)
    parser.add_argument("--judgments", type=Path, default=SHARED / "precedents" / "supreme_court")
    parser.add_argument("--literature", type=Path, default=SHARED / "literature" / "tax_demo")
    parser.add_argument("--limit", type=int, default=None, help="only the first N judgments")
    args = parser.parse_args()
    temporary = args.store is None
    store = args.store or Path(tempfile.mkdtemp(prefix="lexgraph-docs-")) / "store"
    files = sorted(args.judgments.glob("*.txt"))[: args.limit]
    results: dict[str, object] = {"store": str(store), "judgments": len(files)}
    with LexGraph.open(store) as lg:
        if temporary:
            lg.ingest_statutes([ROOT / "lexgraph" / "data" / "sample"])
        start = time.perf_counter()
        summary = lg.ingest_precedents(files)
        wall = time.perf_counter() - start
        data = summary.to_json()
        results["first_run"] = {
            "wall_s": round(wall, 1), "documents_per_s": round(len(files) / wall, 1),
            "chunks": data["chunks_written"], "chunks_per_s": round(data["chunks_written"] / wall, 1),
            "citations": data["citations"], "clause_edges": data["clause_edges"],
            "precedent_edges": data["precedent_edges"], "stubs_created": data["stubs_created"],
            "stubs_filled": data["stubs_filled"], "not_linked": data["not_linked"],
            "failures": data["failures"], "with_problems": len(data["problems"]), "peak_rss_mb": round(peak_rss_mb()),
        }
        counts = lg.stats()
        start = time.perf_counter()
        again = lg.ingest_precedents(files)
        rerun = time.perf_counter() - start
        results["rerun"] = {"wall_s": round(rerun, 1), "unchanged": again.count("unchanged"),
                            "ratio_to_first": round(rerun / wall, 3), "counts_unchanged": lg.stats() == counts}
        if args.literature.exists():
            start = time.perf_counter()
            books = lg.ingest_literature([args.literature])
            results["literature"] = {**{k: v for k, v in books.to_json().items() if k != "problems"},
                                     "wall_s": round(time.perf_counter() - start, 1)}
        results["counts"] = lg.stats().to_json()
        results["peak_rss_mb"] = round(peak_rss_mb())
    print(json.dumps(results, ensure_ascii=False, indent=2))
    if temporary:
        shutil.rmtree(store.parent, ignore_errors=True)
    return 0 if not results["first_run"]["failures"] else 1  # type: ignore[index]


if __name__ == "__main__":
    sys.exit(main())
