"""Store reads of a store-backed ``cite``: how many queries of each kind one text costs, and how long it takes.

Why: with a store, each cited law's versions are read to find the revision in force on the judgment's day. Read
law by law, a judgment naming nine laws made nine reads of the stored versions (each a scan of every version on
the embedded store, which for the whole 2020 archive is tens of thousands of nodes). The resolver now asks the
store for the versions of every law a piece of text names in one query (`VersionsAhead`). This script counts the
named queries a cite runs (the store's ``query`` wrapped: every named query goes through it) and times the cite,
for each checkout given, each in its own process, alternating, so that all see the same load.

Usage::

    .venv/bin/python bench/cite_store_reads.py --store STORE [--code MAIN --code BRANCH] [--text FILE ...]
        [--rounds 3] [--json]

`--store` is opened read-only. Without `--text`, the judgment of ``../shared/data/precedents/supreme_court`` that
names the most laws (91604.txt: nine) is read; several files are read as one text each, in turn. Without
`--code`, this checkout alone. Peak RSS is the worker's (the whole archive opened: about 3 GB).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
JUDGMENT = ROOT.parent / "shared" / "data" / "precedents" / "supreme_court" / "91604.txt"


def _worker(store: str, texts: list[str], rounds: int) -> dict[str, Any]:
    """Run in a checkout's process: open the store, cite each text `rounds` times on a fresh handle's context (so
    that nothing is kept from the round before), count the queries of the last round and time every round."""
    from lexgraph import LexGraph
    from lexgraph.citations.document import document_date

    graph = LexGraph.open(store, read_only=True)
    counts: Counter[str] = Counter()
    real = graph.store.query

    def counted(name: str, /, **params: Any) -> Any:
        counts[name] += 1
        return real(name, **params)

    graph.store.query = counted  # type: ignore[method-assign]
    graph.cite("民法第七百九条", precedents=False)  # the store's catalogue and the imports, outside the clock
    out: dict[str, Any] = {"texts": []}
    for path in texts:
        text = Path(path).read_text(encoding="utf-8")
        day = document_date(text)
        seconds = []
        found = 0
        for _ in range(rounds):
            counts.clear()
            started = time.perf_counter()
            citations = graph.cite(text, as_of=day)
            seconds.append(time.perf_counter() - started)
            found = len(citations)
        laws = sorted({c.law_id for c in citations if c.law_id})
        digest = hashlib.sha256(json.dumps([(c.start, c.end, c.law_id, c.revision_id, c.status, c.path, c.reason)
                                            for c in citations], ensure_ascii=False).encode()).hexdigest()[:12]
        out["texts"].append({"text": Path(path).name, "chars": len(text), "citations": found, "laws": len(laws),
                             "digest": digest,
                             "queries": dict(sorted(counts.items())), "query_count": sum(counts.values()),
                             "seconds": sorted(seconds)})
    out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    graph.close()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", required=True)
    parser.add_argument("--code", action="append", default=[], help="a checkout's root (repeat to compare)")
    parser.add_argument("--text", action="append", default=[])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    texts = args.text or [str(JUDGMENT)]
    if args.worker:
        print(json.dumps(_worker(args.store, texts, args.rounds), ensure_ascii=False))
        return 0
    codes = args.code or [str(ROOT)]
    results = {}
    for code in codes:  # one process at a time: the whole archive takes about 3 GB opened
        env = {**os.environ, "PYTHONPATH": code}
        command = [sys.executable, __file__, "--worker", "--store", args.store, "--rounds", str(args.rounds)]
        for text in texts:
            command += ["--text", text]
        run = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
        if run.returncode != 0:
            print(run.stderr, file=sys.stderr)
            return 1
        results[code] = json.loads(run.stdout.splitlines()[-1])
    load = os.getloadavg()
    if args.json:
        print(json.dumps({"load": load, "results": results}, ensure_ascii=False, indent=1))
        return 0
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    for code, result in results.items():
        print(f"{code}  (peak RSS {result['peak_rss_mb']} MB)")
        for text in result["texts"]:
            median = text["seconds"][len(text["seconds"]) // 2]
            versions = text["queries"].get("law_versions", 0) + text["queries"].get("law_versions_for_laws", 0)
            print(f"  {text['text']}: {text['chars']} chars, {text['citations']} citations, {text['laws']} laws "
                  f"(digest {text['digest']}); "
                  f"{text['query_count']} queries ({versions} of versions); median {median:.3f} s "
                  f"(rounds {', '.join(f'{s:.3f}' for s in text['seconds'])})")
            print(f"    {text['queries']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
