"""Where the learned mode's clause scores land against the hybrid's, and what that does to the relevance floor.

    python bench/learned_scale.py --store DIR --dataset FILE [--split dev|test] [--limit N] [--orders FILE]

A search compares its top clause's score with its chunks' (the relevance floor is half the best of the two, and only
chunks above it lend their citations to the evidence or reach an answer), and the chunks are ranked by the hybrid
fusion in every mode. So the learned mode's clause scores must be on the hybrid's scale. For every question the
learned mode ranks (its gate passes), this prints how far its top clause's score lies from the hybrid's top clause
score under three choices, and how often the chunks above the floor then differ from the hybrid's own search:

- ``logit``: the model's score as it is (what the mode gave before);
- ``sigmoid``: the logit mapped onto (0, 1), the fixed calibration a logistic model suggests;
- ``rank``: the hybrid's k-th best score given to the learned k-th clause (`learned.on_hybrid_scale`, what the mode
  gives now): the top clause scores what the hybrid's does, by construction.

``--orders FILE`` also writes each question's learned clause ranking (uids, best first) as JSON, so that two code
versions' rankings can be compared file to file. Figures go to stdout as JSON lines, the summary last.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from dataclasses import replace
from pathlib import Path

from lexgraph import LexGraph
from lexgraph.eval.benchmark import load_questions
from lexgraph.index.query import SearchFilter
from lexgraph.retrieve.options import SearchOptions
from lexgraph.statutes.timeline import provision_law_id

CHOICES = ("logit", "sigmoid", "rank")


def floor_of(top_clause: float | None, chunks: list[float]) -> float | None:
    """`search.relevance_floor` on bare scores."""
    best = max([s for s in [top_clause, *chunks[:1]] if s is not None], default=None)
    if not chunks or best is None or best <= 0:
        return None
    return 0.5 * best


def relevant(chunks: list[tuple[str, float]], floor: float | None, m: int) -> frozenset[str]:
    return frozenset(uid for uid, score in chunks[:m] if floor is None or score >= floor)


def spearman(a: list[float], b: list[float]) -> float:
    """Spearman's rank correlation (average ranks for ties)."""
    def ranks(values: list[float]) -> list[float]:
        order = sorted(range(len(values)), key=values.__getitem__)
        out = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for t in range(i, j + 1):
                out[order[t]] = (i + j) / 2
            i = j + 1
        return out
    return statistics.correlation(ranks(a), ranks(b)) if len(a) > 2 else math.nan


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", required=True)
    parser.add_argument("--dataset", required=True)
    parser.add_argument("--split", default=None)
    parser.add_argument("--limit", type=int, default=0, help="the first N questions only (0: all)")
    parser.add_argument("--orders", type=Path, default=None, help="write each question's learned ranking here")
    args = parser.parse_args()
    questions = load_questions(args.dataset, args.split)
    if args.limit:
        questions = questions[:args.limit]
    held_apart = frozenset(doc for q in questions if (doc := getattr(q, "doc", "")))
    options = SearchOptions(mode="learned", k=20, n=20)
    orders: dict[str, list[str]] = {}
    rows = []
    with LexGraph.open(args.store, read_only=True) as lg:
        learned = lg.retriever(options=options, held_apart=held_apart)
        hybrid = lg.retriever(options=replace(options, mode="hybrid"), held_apart=held_apart)
        for question in questions:
            text = question.query
            got = lg.search(text, options=options, retriever=learned)
            base = lg.search(text, options=replace(options, mode="hybrid"), retriever=hybrid)
            orders[question.qid] = [c.uid for c in got.clauses]
            if not got.clauses or not base.clauses:
                continue
            chunks = [(c.uid, c.score) for c in base.chunks]
            scores = [s for _, s in chunks]
            where = SearchFilter(kind="provision")
            h1 = base.clauses[0].score
            if not learned.anchored(provision_law_id(base.clauses[0].uid)):
                continue  # the gate sent the question to the hybrid: its scores are the hybrid's own
            candidates = learned.candidates(text, where)
            logits = dict(zip((h.uid for h in candidates.hits), learned.model.score(candidates.features), strict=True))
            logit = float(logits.get(got.clauses[0].uid, math.nan))
            tops = {"logit": logit, "sigmoid": 1.0 / (1.0 + math.exp(-logit)), "rank": got.clauses[0].score}
            own = relevant(chunks, floor_of(h1, scores), options.m)
            row = {"qid": question.qid, "hybrid_top": round(h1, 6), "chunks": len(chunks),
                   **{f"{c}_top": round(tops[c], 6) for c in CHOICES},
                   **{f"{c}_same_chunks": relevant(chunks, floor_of(tops[c], scores), options.m) == own
                      for c in CHOICES},
                   **{f"{c}_no_chunk": bool(chunks) and not relevant(chunks, floor_of(tops[c], scores), options.m)
                      for c in CHOICES},
                   "hybrid_no_chunk": bool(chunks) and not own}
            rows.append(row)
            print(json.dumps(row, ensure_ascii=False), flush=True)
    if args.orders is not None:
        args.orders.write_text(json.dumps(orders, ensure_ascii=False, indent=0), encoding="utf-8")
    summary: dict[str, object] = {"questions": len(questions), "ranked_by_the_model": len(rows),
                                  "with_chunks": sum(1 for r in rows if r["chunks"])}
    if rows:
        summary["hybrid_top_median"] = round(statistics.median(r["hybrid_top"] for r in rows), 4)
        summary["hybrid_no_chunk"] = sum(bool(r["hybrid_no_chunk"]) for r in rows)
        # How well any increasing map of the top logit could follow the hybrid's top score, question to question.
        summary["spearman_logit_vs_hybrid_top"] = round(spearman([r["logit_top"] for r in rows],
                                                                 [r["hybrid_top"] for r in rows]), 4)
        for c in CHOICES:
            summary[c] = {
                "top_median": round(statistics.median(r[f"{c}_top"] for r in rows), 4),
                "mean_abs_gap_to_hybrid_top": round(statistics.fmean(abs(r[f"{c}_top"] - r["hybrid_top"])
                                                                     for r in rows), 4),
                "chunks_above_floor_differ": sum(1 for r in rows if r["chunks"] and not r[f"{c}_same_chunks"]),
                "no_chunk_above_floor": sum(bool(r[f"{c}_no_chunk"]) for r in rows)}
    print(json.dumps({"summary": summary}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
