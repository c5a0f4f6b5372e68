"""The search apart from the query's embedding, p50 / p95, of two checkouts in the same run.

    python bench/search_rest.py --store DIR [--code A --code B] [--rounds 3] [--modes hybrid:-,learned:2020-04-01]

Each lawqa_jp dev question (the question alone) is searched twice in a row through `LexGraph.search`: the first
search is the whole one (the embedding included), the second reuses the remembered query vector, so it times the
rest: the index reads, the fusion, the in-force decision, the evidence. The question's terms are forgotten before
each search, so that the rest tokenises a new question once, as a real search does. Each ``--code`` (a checkout's
root, default this one) runs in its own process, started with ``PYTHONPATH`` at it, and the rounds alternate
between them, so that both see the same load (on a shared 2-core machine the load moves the figures by half).
A mode is ``MODE:DAY`` (``-``: no day; a day such as ``2020-04-01`` searches as ``--as-of``). Round 0 warms up.
Open the store read-only; use a copy of it if anything else may write to it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from datetime import date
from pathlib import Path
from typing import IO, cast

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DEV = ROOT.parent / "shared" / "data" / "lawqa_jp" / "dev.json"


def serve(store: str, dataset: Path) -> None:
    """The worker: reads ``MODE DAY`` lines, answers each with one JSON line of whole and rest timings (s)."""
    import lexgraph.index.tokenize as tokenize
    from lexgraph import LexGraph
    from lexgraph.eval.lawqa import load_lawqa
    from lexgraph.retrieve.options import SearchOptions
    from lexgraph.retrieve.retrievers import Retriever

    questions = [sample.question for sample in load_lawqa(str(dataset))]
    lg = LexGraph.open(store, read_only=True)
    forget = getattr(getattr(tokenize, "question_terms", None), "cache_clear", lambda: None)
    retrievers: dict[str, Retriever] = {}
    print("ready", flush=True)
    for line in sys.stdin:
        mode, day_text = line.split()
        day = None if day_text == "-" else date.fromisoformat(day_text)
        options = SearchOptions(mode=mode, k=10)
        if mode not in retrievers:
            retrievers[mode] = lg.retriever(options=options)
        retriever = retrievers[mode]
        whole: list[float] = []
        rest: list[float] = []
        for question in questions:
            for took in (whole, rest):
                forget()
                started = time.perf_counter()
                lg.search(question, options=options, retriever=retriever, as_of=day)
                took.append(time.perf_counter() - started)
        print(json.dumps({"whole": whole, "rest": rest}), flush=True)


def _ms(values: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(values) * 1000, q))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", required=True)
    parser.add_argument("--code", action="append", default=[], help="a checkout's root (repeat to compare)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--modes", default="hybrid:-,learned:-,hybrid:2020-04-01,learned:2020-04-01")
    parser.add_argument("--dataset", type=Path, default=DEV)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        serve(args.store, args.dataset)
        return
    codes = args.code or [str(ROOT)]
    modes = args.modes.split(",")
    workers = {}
    for code in codes:
        env = dict(os.environ, PYTHONPATH=code, OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "1"))
        worker = subprocess.Popen([sys.executable, __file__, "--worker", "--store", args.store, "--dataset",
                                   str(args.dataset)], cwd=code, env=env, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        if cast(IO[str], worker.stdout).readline().strip() != "ready":
            raise SystemExit(f"the worker for {code} did not start")
        workers[code] = worker
    times: dict[tuple[str, str], dict[str, list[float]]] = {
        (code, mode): {"whole": [], "rest": []} for code in codes for mode in modes}
    for round_ in range(args.rounds + 1):
        for mode in modes:
            for code in codes if round_ % 2 else codes[::-1]:
                worker = workers[code]
                cast(IO[str], worker.stdin).write(mode.replace(":", " ") + "\n")
                cast(IO[str], worker.stdin).flush()
                got = json.loads(cast(IO[str], worker.stdout).readline())
                if round_:
                    for key, values in got.items():
                        times[(code, mode)][key] += values
    for worker in workers.values():
        cast(IO[str], worker.stdin).close()
        worker.wait()
    print(f"{args.store}: {args.rounds} rounds x {len(times[(codes[0], modes[0])]['rest']) // max(args.rounds, 1)} "
          f"questions, 1/5/15-min load {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for mode in modes:
        for code in codes:
            t = times[(code, mode)]
            print(f"{mode:20s} {code:30s} rest p50 {_ms(t['rest'], 50):6.1f} p95 {_ms(t['rest'], 95):6.1f} ms   "
                  f"whole p50 {_ms(t['whole'], 50):6.1f} p95 {_ms(t['whole'], 95):6.1f} ms")


if __name__ == "__main__":
    main()
