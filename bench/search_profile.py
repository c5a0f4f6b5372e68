"""Where a search's time goes, per backend, in one run: p50 / p95 of whole searches and the time of each named
store query they ran (hybrid search on Neo4j took about 3× the embedded store's p50).

    python bench/search_profile.py STORE [STORE …] [--mode hybrid] [--questions 30] [--dataset dev.json]

Each STORE is an embedded store directory or a bolt:// URI holding the same indexed graph (`lexgraph copy --to`,
then `LEXGRAPH_CACHE_DIR=DIR/cache lexgraph index … --store URI`). The first lawqa_jp questions are searched
once to warm up, then timed, through `LexGraph.search` (the question embedded each time, as `lexgraph search`
does); every `GraphStore.query` call is timed by its name. The 1-min load average is printed with each backend.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from lexgraph import LexGraph
from lexgraph.eval.lawqa import load_lawqa
from lexgraph.retrieve.options import SearchOptions

DEV = Path(__file__).resolve().parents[2] / "shared" / "data" / "lawqa_jp" / "dev.json"


def profile(location: str, questions: list[str], mode: str) -> None:
    lg = LexGraph.open(location, read_only=True)
    store_type = type(lg.store)
    original = store_type.query
    spent: dict[str, list[float]] = defaultdict(list)

    def timed(self: Any, name: str, /, **params: Any) -> Any:
        started = time.perf_counter()
        try:
            return original(self, name, **params)
        finally:
            spent[name].append(time.perf_counter() - started)

    store_type.query = timed  # type: ignore[method-assign]
    try:
        options = SearchOptions(mode=mode, k=10)
        retriever = lg.retriever(mode, options=options)
        for question in questions[:3]:
            lg.search(question, options=options, retriever=retriever)
        spent.clear()
        took = []
        for question in questions:
            started = time.perf_counter()
            lg.search(question, options=options, retriever=retriever)
            took.append((time.perf_counter() - started) * 1000)
    finally:
        store_type.query = original  # type: ignore[method-assign]
        lg.close()
    print(f"{location}: {mode} p50 {np.percentile(took, 50):.1f} ms, p95 {np.percentile(took, 95):.1f} ms over "
          f"{len(questions)} questions (1-min load {os.getloadavg()[0]:.1f})")
    for name, times in sorted(spent.items(), key=lambda item: -sum(item[1])):
        print(f"  {name:<28} {len(times) / len(questions):4.1f} calls  {sum(times) * 1000 / len(questions):7.1f} ms "
              f"per search")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("stores", nargs="+")
    parser.add_argument("--mode", default="hybrid")
    parser.add_argument("--questions", type=int, default=30)
    parser.add_argument("--dataset", type=Path, default=DEV)
    args = parser.parse_args()
    questions = [q.question for q in load_lawqa(args.dataset)][: args.questions]
    for location in args.stores:
        profile(location, questions, args.mode)
    return 0


if __name__ == "__main__":
    sys.exit(main())
