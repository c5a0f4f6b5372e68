"""What a named query's typed rows cost beside the engine's dicts: the same query run through `GraphStore.query`
(dicts, as every caller read them before `lexgraph.store.rows`) and through `GraphStore.rows` (a NamedTuple a row,
built from that dict), alternately, on one heavy read.

    python bench/typed_rows.py --store DIR [--law 地方自治法] [--clause 第二百五十二条の十九] [--rounds 5] [--json]

The read is `law cited-by`'s: every clause citing the clause (and the clauses inside it), each wording's citations
followed from its key (`read.laws.citation_rows`). Printed: the rows read, the median time of the raw query and of
the typed one over `--rounds` alternating runs after one warm-up, their difference per row, and the time building
the rows alone takes (the dicts already in hand), which is the whole of what typing adds. The store is opened
read-only: run it on a shared store.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from datetime import date


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", required=True)
    parser.add_argument("--law", default="地方自治法")
    parser.add_argument("--clause", default="第二百五十二条の十九")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    from lexgraph.read.laws import clause_path, resolve_law
    from lexgraph.store import open_store
    from lexgraph.store.rows import CLAUSE_WORDINGS_ON, PROVISION_CITED_BY

    store = open_store(args.store, read_only=True)
    try:
        law = resolve_law(store, args.law)
        path, day = clause_path(args.clause), date.today()
        wordings = [w.uid for w in store.rows(CLAUSE_WORDINGS_ON, law_id=law.law_id, path=path, prefix=f"{path}/",
                                              day=day)]

        def raw() -> list[dict[str, object]]:
            return [row for uid in wordings for row in store.query(PROVISION_CITED_BY.name, uid=uid, day=day)]

        def typed() -> list[object]:
            return [row for uid in wordings for row in store.rows(PROVISION_CITED_BY, uid=uid, day=day)]

        rows = raw()
        typed()  # warm-up: the engine's pages and the prepared statement
        timings: dict[str, list[float]] = {"query": [], "rows": []}
        for _ in range(args.rounds):
            for name, run in (("query", raw), ("rows", typed)):
                started = time.perf_counter()
                run()
                timings[name].append(time.perf_counter() - started)
        make = PROVISION_CITED_BY.row
        building = []
        for _ in range(args.rounds):
            started = time.perf_counter()
            [make(**row) for row in rows]
            building.append(time.perf_counter() - started)
    finally:
        store.close()

    query_s, rows_s = statistics.median(timings["query"]), statistics.median(timings["rows"])
    build_s = statistics.median(building)
    figures = {"law": law.title, "clause": args.clause, "wordings": len(wordings), "rows": len(rows),
               "query_ms": round(query_s * 1000, 1), "rows_ms": round(rows_s * 1000, 1),
               "difference_us_per_row": round((rows_s - query_s) / max(len(rows), 1) * 1e6, 2),
               "build_ms": round(build_s * 1000, 2),
               "build_us_per_row": round(build_s / max(len(rows), 1) * 1e6, 3)}
    if args.json:
        print(json.dumps(figures, ensure_ascii=False))
        return
    print(f"{law.title} {args.clause}: {len(wordings)} wordings, {len(rows)} citing rows, {args.rounds} rounds")
    print(f"  store.query (dicts)       {figures['query_ms']:>9} ms")
    print(f"  store.rows  (NamedTuples) {figures['rows_ms']:>9} ms  "
          f"({figures['difference_us_per_row']:+} µs a row)")
    print(f"  building the rows alone   {figures['build_ms']:>9} ms  ({figures['build_us_per_row']} µs a row)")


if __name__ == "__main__":
    main()
