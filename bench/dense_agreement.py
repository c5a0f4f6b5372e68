"""Dense top 10 on Neo4j against the embedded store, and the HNSW candidate depth it takes to agree;
and the BM25 top 10 of each kind (clauses, chunks), which one full-text index over both kinds keeps equal.

    python bench/dense_agreement.py --store DIR --neo4j bolt://127.0.0.1:7687 [--dataset dev.json] [--depths 40,100,…]

DIR is an indexed embedded store; the Neo4j database holds the same graph, indexed from the same cached vectors
(`lexgraph copy --store DIR --to URI`, then `LEXGRAPH_CACHE_DIR=DIR/cache lexgraph index … --store URI`). Each of
lawqa_jp's questions (default ``../shared/data/lawqa_jp/dev.json``, 69) is embedded once; then, per question:

- the embedded store's dense top k (`LocalIndex.vector_search`: exact below `EXACT_LIMIT` vectors);
- Neo4j's, as lexgraph searches it (`Neo4jIndex.vector_search`);
- Neo4j's HNSW alone at each candidate depth (``db.index.vector.queryNodes`` asked for that many neighbours, then
  re-ranked by exact cosine), and the exact Cypher scan (``index_exact_provisions`` / ``chunks``), with their
  warm latency.

It prints, per way, on how many questions the top k (uids, in order) equals the embedded store's, and p50 / p95 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

from lexgraph import LexGraph
from lexgraph.eval.lawqa import load_lawqa
from lexgraph.index.build import open_index
from lexgraph.index.query import SearchFilter, SearchIndex
from lexgraph.index.tokenize import tokenize
from lexgraph.index.units import UNIT_KINDS, UnitKind
from lexgraph.store import open_store

ROOT = Path(__file__).resolve().parents[1]
DEV = ROOT.parent / "shared" / "data" / "lawqa_jp" / "dev.json"


def top_uids(rows: list[dict[str, object]], k: int) -> list[str]:
    return [str(r["uid"]) for r in rows[:k]]


def bm25_top(index: SearchIndex, question: str, k: int, kind: UnitKind) -> list[str]:
    """The BM25 top k of one kind, as a hybrid search reads it (Neo4j: the kind required in the full-text query)."""
    return [hit.uid for hit in index.text_search(tokenize(question), k, SearchFilter(kind=kind))]


def hnsw(store: object, vector: list[float], k: int, depth: int) -> list[tuple[str, float]]:
    """Both vector indexes at one candidate depth, merged as `Neo4jIndex.vector_search` merges them."""
    found: list[tuple[str, float]] = []
    for index in ("provision_embedding", "chunk_embedding"):
        rows = store.query("index_vector_search", index=index, fetch=depth, vector=vector, k=k,  # type: ignore[attr-defined]
                           laws=[], as_of=None)
        found.extend((str(r["uid"]), float(r["score"])) for r in rows)
    found.sort(key=lambda item: (-item[1], item[0]))
    return found[:k]


def exact(store: object, vector: list[float], k: int) -> list[tuple[str, float]]:
    found: list[tuple[str, float]] = []
    for kind in ("provisions", "chunks"):
        rows = store.query(f"index_exact_{kind}", vector=vector, k=k, laws=[], as_of=None)  # type: ignore[attr-defined]
        found.extend((str(r["uid"]), float(r["score"])) for r in rows)
    found.sort(key=lambda item: (-item[1], item[0]))
    return found[:k]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--neo4j", required=True)
    parser.add_argument("--dataset", type=Path, default=DEV)
    parser.add_argument("--depths", default="40,100,200,400")
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    questions = [q.question for q in load_lawqa(args.dataset)]
    with LexGraph.open(args.store, read_only=True) as lg:
        embedder = lg._default_embedder()
        vectors = embedder.embed_queries(questions)
        local = open_index(lg.store)
        expected = [[h.uid for h in local.vector_search(v, args.k, SearchFilter())] for v in vectors]
        expected_text = {kind: [bm25_top(local, q, args.k, kind) for q in questions] for kind in UNIT_KINDS}
        local.close()

    neo4j = open_store(args.neo4j, read_only=True)
    ways: dict[str, dict[str, object]] = {}
    try:
        searcher = open_index(neo4j)
        bm25 = {kind: sum(bm25_top(searcher, q, args.k, kind) == want
                          for q, want in zip(questions, expected_text[kind], strict=True)) for kind in UNIT_KINDS}
        candidates: dict[str, object] = {"lexgraph": lambda v: [(h.uid, h.score) for h in
                                                                 searcher.vector_search(v, args.k, SearchFilter())]}
        for depth in (int(d) for d in args.depths.split(",")):
            candidates[f"hnsw depth {depth}"] = (lambda v, d=depth: hnsw(neo4j, [float(x) for x in v], args.k, d))
        candidates["exact scan"] = lambda v: exact(neo4j, [float(x) for x in v], args.k)
        for name, search in candidates.items():
            for v in vectors[:3]:
                search(v)  # type: ignore[operator]  # warm
            agree, times = 0, []
            for vector, want in zip(vectors, expected, strict=True):
                start = time.perf_counter()
                got = [uid for uid, _ in search(np.asarray(vector))]  # type: ignore[operator]
                times.append((time.perf_counter() - start) * 1000)
                agree += got == want
            ways[name] = {"agree": agree, "questions": len(questions),
                          "p50_ms": round(float(np.percentile(times, 50)), 1),
                          "p95_ms": round(float(np.percentile(times, 95)), 1)}
    finally:
        neo4j.close()
    report = {"store": str(args.store), "dataset": str(args.dataset), "k": args.k,
              "load_1min": round(os.getloadavg()[0], 2), "ways": ways, "bm25_agree": bm25}
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        print(f"dense top {args.k}, Neo4j vs embedded, {len(questions)} questions of {args.dataset.name} "
              f"(1-min load {report['load_1min']})")
        for name, row in ways.items():
            print(f"  {name:<16} agree {row['agree']}/{row['questions']}   p50 {row['p50_ms']} ms   "
                  f"p95 {row['p95_ms']} ms")
        for kind, agree in bm25.items():
            print(f"bm25 top {args.k} of each {kind}, Neo4j vs embedded: agree {agree}/{len(questions)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
