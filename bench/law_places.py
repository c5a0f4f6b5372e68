"""Which laws take the top places when the hybrid search misses a question's gold article, and why.

    python bench/law_places.py --store DIR --lists FILE [--dataset D --split dev|test] [--weight law=0.35]
        [--no-citations] [--show N]

``--lists FILE`` is `bench/fusion_replay.py`'s recording of each question's BM25, dense and cited lists (written on
the first run, read after). Each question is fused as the live hybrid search fuses it (`fusion_replay`'s ``mean``:
`retrievers.fuse` with the law-level evidence; ``--no-citations`` leaves out its citation prior, ``--weight
law=W`` sets its weight, so the search before the prior is ``--no-citations --weight law=0.35``), and for each
question whose gold article is not in the fused top 10 it counts the laws of the top 10's other articles and
where the gold article was in each list. It also says, for every question, how the gold law ranks among the
candidate laws by affinity (`law_prior.law_affinity`), and for how many no clause of the gold law is a candidate
at all (then no law-level evidence can help).

Why it exists: on the whole archive (8,502 laws) the hybrid's recall fell against the 19-law benchmark store with
the same code, and what to build depended on what took the places: a law stage for a gold law missing from the
candidates, a prior for a gold law present but outweighed, nothing law-level for the order inside the right law.
The figures are in docs/search.md ("The whole archive").
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from fusion_replay import LAWQA_DEV, _library_fused, record

from lexgraph import LexGraph
from lexgraph.eval.benchmark import BenchmarkQuery, load_questions
from lexgraph.eval.lawqa import LawqaQuestion
from lexgraph.index.build import open_index
from lexgraph.index.tokenize import question_terms
from lexgraph.retrieve.law_prior import LawCitations, law_affinity
from lexgraph.retrieve.retrievers import FUSION_DEPTH
from lexgraph.statutes.timeline import article_path


def kind_of(title: str, law_type: str) -> str:
    """A law's kind: an Act's 施行令 or 施行規則 (by its title), else its e-Gov law type (Act, CabinetOrder)."""
    if "施行令" in title:
        return "施行令"
    if "施行規則" in title:
        return "施行規則"
    return law_type or "unknown"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--lists", type=Path, required=True, help="recorded lists (JSON): written once, then read")
    parser.add_argument("--dataset", type=Path, default=LAWQA_DEV)
    parser.add_argument("--split", choices=("dev", "test"))
    parser.add_argument("--weight", default=None, help="the law-level evidence's weight, as law=W")
    parser.add_argument("--no-citations", action="store_true", help="leave out the citation prior")
    parser.add_argument("--show", type=int, default=25, help="how many laws to list")
    args = parser.parse_args()
    questions: Sequence[LawqaQuestion | BenchmarkQuery] = load_questions(args.dataset, args.split)
    weights = {"law": float(args.weight.removeprefix("law="))} if args.weight else None
    with LexGraph.open(args.store, read_only=True) as lg:
        if args.lists.exists():
            lists = json.loads(args.lists.read_text(encoding="utf-8"))
        else:
            lists = record(lg, [q.query for q in questions])
            args.lists.write_text(json.dumps(lists, ensure_ascii=False), encoding="utf-8")
        laws = {law.law_id: law for law in lg.laws()}
        index = open_index(lg.store)
        citing = None if args.no_citations else LawCitations(lg.store).counts()

        def affinity(question: str, laws: set[str]) -> dict[str, float]:
            terms = question_terms(question)
            return law_affinity(terms, index.law_vocabulary(terms, laws), laws, citing=citing)

        places: Counter[str] = Counter()
        kinds: Counter[str] = Counter()
        where_gold: Counter[str] = Counter()
        gold_law_rank: Counter[str] = Counter()
        missed = 0
        for question in questions:
            gold = {(law, article_path(path)) for law, path in question.articles}
            gold_laws = {law for law, _ in gold}
            if not gold:
                continue
            ranked = {name: hits[:FUSION_DEPTH] for name, hits in lists[question.query].items()}
            candidates = {law for hits in ranked.values() for _, _, law, _ in hits}
            near = affinity(question.query, candidates)
            order = sorted(near, key=lambda law: -near[law])
            best = min((order.index(law) + 1 for law in gold_laws if law in near), default=None)
            gold_law_rank["not a candidate" if best is None else str(best) if best <= 3 else "4 or lower"] += 1
            articles: list[tuple[str, str]] = []
            for hit in _library_fused(question.query, affinity, ranked, weights):
                article = (hit.unit.law_id, article_path(hit.unit.path))
                if article not in articles:
                    articles.append(article)
            if gold & set(articles[:10]):
                continue
            missed += 1
            for law, _ in articles[:10]:
                if law not in gold_laws:
                    places[law] += 1
                    kinds[kind_of(laws[law].title, laws[law].law_type) if law in laws else "unknown"] += 1
            for name in ("bm25", "dense"):
                at = next((i for i, (_, _, law, path) in enumerate(ranked.get(name, []), start=1)
                           if (law, article_path(path)) in gold), None)
                where_gold[f"{name}: {'top 10' if at and at <= 10 else 'top 100' if at else 'not in 100'}"] += 1
        print(f"{len(questions)} questions; gold article not in the hybrid's top 10: {missed}")
        print("the gold law among the candidate laws, by affinity:", dict(sorted(gold_law_rank.items())))
        print("where the missed gold article was:", dict(sorted(where_gold.items())))
        print("the other laws' places in the missed questions' top 10, by kind:", dict(kinds.most_common()))
        for law, count in places.most_common(args.show):
            print(f"{count:5} {law} {laws[law].title if law in laws else ''}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
