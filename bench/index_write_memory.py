"""Peak memory of the index's final write (`index.local_backend`: BM25, the HNSW graph, the collection's terms,
``rows.parquet``), step by step, on the parts of an index already built: whether `build_hnsw` and `build_rows`,
which both read every part's vectors, ever hold them twice at once.

Each step runs in a child process of its own (its peak RSS as ``/usr/bin/time`` reports it), after a child that
only imports the module (the baseline), and the steps together in the order the build runs them. The parts are
read where they are: a work folder gets links to the chosen parts' files, and the steps write their outputs
(``bm25/``, ``vectors.usearch``, ``terms.json``, ``rows.parquet``) there, never into the index read.

    python bench/index_write_memory.py --index STORE/index --laws 600 --work /tmp/write-memory
    python bench/index_write_memory.py --index STORE/index --work /tmp/write-memory  # every part

``--laws N`` takes the N law parts with the most rows: a slice of few rows stays under the exact search's limit
(`local.EXACT_LIMIT`), where no HNSW graph is built at all.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

STEPS = {
    "import only": "",
    "build_hnsw": "local.build_hnsw(directory, names, 384)",
    "build_rows": "local.build_rows(directory, names)",
    "build_hnsw, then build_rows": "local.build_hnsw(directory, names, 384); local.build_rows(directory, names)",
    "the whole write (bm25, hnsw, terms, rows)": (
        "local.build_bm25(directory, names); local.build_hnsw(directory, names, 384); "
        "local.build_collection_terms(directory, names); local.build_rows(directory, names)"),
}


def child(work: Path, code: str) -> tuple[float, float]:
    """Peak RSS (MB, as ``/usr/bin/time`` reports the child's own) and seconds of one child running `code` over the
    work folder's parts."""
    program = (f"import json, sys; sys.path.insert(0, {str(ROOT)!r}); from pathlib import Path; "
               f"from lexgraph.index import local; directory = Path({str(work)!r}); "
               f"names = json.loads((directory / 'names.json').read_text()); {code}")
    report = work / "time.txt"
    started = time.perf_counter()
    subprocess.run(["/usr/bin/time", "-f", "%M", "-o", str(report), sys.executable, "-c", program], check=True)
    seconds = time.perf_counter() - started
    return int(report.read_text().split()[-1]) / 1024, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--index", type=Path, required=True, help="An index folder (its parts are read only).")
    parser.add_argument("--work", type=Path, required=True, help="A folder of this run's own (emptied first).")
    parser.add_argument("--laws", type=int, default=0, help="The N law parts with the most rows (0: every part).")
    args = parser.parse_args()

    manifest = json.loads((args.index / "manifest.json").read_text())
    parts = sorted(manifest["parts"])
    rows = {part: int(manifest["parts"][part]["rows"]) for part in parts}
    if args.laws:
        laws = sorted((p for p in parts if p.startswith("law:")), key=lambda p: (-rows[p], p))[:args.laws]
        parts = sorted(laws)
    shutil.rmtree(args.work, ignore_errors=True)
    (args.work / "parts").mkdir(parents=True)
    vectors = 0
    for part in parts:
        stem = part.replace(":", "_")
        for suffix in (".parquet", ".npy", ".terms.json"):
            source = args.index / "parts" / f"{stem}{suffix}"
            if source.exists():
                (args.work / "parts" / f"{stem}{suffix}").symlink_to(source)
        part_vectors = np.load(args.index / "parts" / f"{stem}.npy", mmap_mode="r")
        vectors += int(np.count_nonzero(np.any(part_vectors != 0, axis=1)))
    (args.work / "names.json").write_text(json.dumps(parts))
    total = sum(rows[p] for p in parts)
    print(f"{len(parts)} parts, {total:,} rows, {vectors:,} vectors × 384 float32 = "
          f"{vectors * 384 * 4 / 1e6:,.0f} MB of vectors")
    for name, code in STEPS.items():
        peak, seconds = child(args.work, code)
        print(f"{name:45s} peak RSS {peak:7,.0f} MB  {seconds:6.1f} s", flush=True)


if __name__ == "__main__":
    main()
