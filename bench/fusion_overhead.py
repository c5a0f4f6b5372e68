"""The hybrid search's time apart from embedding the question, per fusion, in one run.

    python bench/fusion_overhead.py --store DIR [--rounds 3]

On a shared machine the query embedding (e5-small on the CPU) waits for a core and makes p95 say more about the
load than about the search. Each question is searched once untimed (which embeds it; the retriever remembers the
last vectors, `QueryVectors`), then the whole `lexgraph search` path (clause and chunk lists, fusion, evidence) is
timed, for each fusion (the default ``mean`` with its law-level evidence, ``mean-vocabulary`` with the law-level
evidence as it was before its citation prior: the laws' vocabulary alone, weight 0.35; ``mean-lists`` without it,
``rrf``) and for BM25, interleaved question by question so that all see the same load. Add the embedding's
own time (bench/search_latency.py's ``(embed)`` row) for the search's latency.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np

from lexgraph import LexGraph
from lexgraph.eval.lawqa import load_lawqa
from lexgraph.retrieve.search import SearchOptions

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--dataset", type=Path, default=SHARED / "lawqa_jp" / "dev.json")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    questions = [q.question for q in load_lawqa(args.dataset)]
    # the default (mean, with the law-level evidence), the same without it, RRF, and BM25 as the baseline
    options = {"mean": SearchOptions(), "mean-vocabulary": SearchOptions(weights={"law": 0.35}),
               "mean-lists": SearchOptions(weights={"law": 0.0}),
               "rrf": SearchOptions(fusion="rrf"), "bm25": SearchOptions(mode="bm25")}
    times: dict[str, list[float]] = {name: [] for name in options}
    with LexGraph.open(args.store, read_only=True) as lg:
        retrievers = {name: lg.retriever(o.mode, fusion=o.fusion, weights=o.weights, options=o)
                      for name, o in options.items()}
        retrievers["mean-vocabulary"].law_citations = None  # type: ignore[attr-defined]  # no citation prior
        for _ in range(args.rounds):
            for question in questions:
                for name, retriever in retrievers.items():
                    lg.search(question, options=options[name], retriever=retriever)  # embeds the question
                    started = time.perf_counter()
                    lg.search(question, options=options[name], retriever=retriever)  # the vector remembered
                    times[name].append((time.perf_counter() - started) * 1000)
    report: dict[str, object] = {
        name: {"p50_ms": round(float(np.percentile(t, 50)), 2), "p95_ms": round(float(np.percentile(t, 95)), 2),
               "n": len(t)} for name, t in times.items()}
    report["load_average"] = list(os.getloadavg())
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
