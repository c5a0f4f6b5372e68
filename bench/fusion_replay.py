"""Hybrid fusions compared on recorded lists: each question's BM25, dense and cited clause lists are searched once,
then every fusion is replayed over the same lists and scored by `eval.retrieval.evaluate_lawqa`.

    python bench/fusion_replay.py --store DIR --lists FILE [--dataset D --split dev|test] [--fusions a,b,...]
        [--gold LAW|aN]

``--lists FILE`` (JSON) holds the recorded lists: written on the first run (one search per list and question,
`RECORD_DEPTH` deep), read on every later one. Each fusion reads the lists `FUSION_DEPTH` deep, as the live hybrid
search does, and keeps that many fused clauses, so ``bm25``, ``dense`` and ``mean``
reproduce bench/retrieval_lawqa.py's bm25, dense and hybrid rows to the last digit.

Why it exists: a fusion is cheap and the searches are not, and on a machine shared with other jobs the searches
of 676 questions would be repeated for every setting. The fusions below are what was tried against the one cell
hybrid does not win (judgments test, article MRR) and did not keep; docs/search.md gives the figures:

- ``mean``: the default, the live search's own `retrievers.fuse` (weights `DEFAULT_MEAN_WEIGHTS`, and the law-level
  evidence of `law_prior` read from the store's index and its citation prior from the store's graph, weight
  `DEFAULT_LAW_PRIOR`);
- ``mean-lists``: the same without the law-level evidence (the default before it, weight "law" 0);
- ``pullG``: the default, then each clause moved ``G`` of the way to the best fused score of its article
  (``s + G * (best - s)``), so that an article's paragraphs rank together; the order of articles cannot change;
- ``gapK``: each search list's weight scaled per question by its confidence, ``1 - `` its min-max normalised score
  at rank K (how far its best hit clears its K-th: a flat list, such as e5's cosines over two procedure codes,
  counts less);
- ``lawpriorL``: every clause gains ``L`` times its law's share of BM25's top-10 (normalised score mass): the law
  the lexical evidence points to, as passage retrieval adds a document's score to its passages';
- ``lawgateK``: dense's contribution scaled by its clause's law's share of BM25's top K, relative to the top law
  (dense embeds no law title, BM25 does);
- ``agreeL``: every clause gains ``L`` times the geometric mean of its law's shares in BM25's and dense's top 20.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from lexgraph import LexGraph
from lexgraph.eval.benchmark import BenchmarkQuery, load_questions
from lexgraph.eval.lawqa import LawqaQuestion
from lexgraph.eval.retrieval import evaluate_lawqa, store_clause_texts, stored_law_ids
from lexgraph.index.build import open_index
from lexgraph.index.query import IndexHit, SearchFilter
from lexgraph.index.tokenize import question_terms
from lexgraph.index.units import IndexUnit
from lexgraph.retrieve.fusion import DEFAULT_MEAN_WEIGHTS
from lexgraph.retrieve.law_prior import LawCitations, law_affinity
from lexgraph.retrieve.retrievers import FUSION_DEPTH, Retrieved, fuse
from lexgraph.statutes.timeline import article_path

ROOT = Path(__file__).resolve().parents[1]
LAWQA_DEV = ROOT.parent / "shared" / "data" / "lawqa_jp" / "dev.json"
RECORD_DEPTH = 300
KS = (5, 10, 20)

#: One hit: uid, score, law id, path. A question's lists: list name → hits, best first.
Hit = tuple[str, float, str, str]
Lists = Mapping[str, Sequence[Hit]]
Fusion = Callable[[Lists], list[tuple[str, str]]]
#: The candidate laws' affinity with a question (`law_prior.law_affinity` over the store's index).
Affinity = Callable[[str, set[str]], Mapping[str, float]]


def record(lg: LexGraph, queries: Sequence[str]) -> dict[str, dict[str, list[Hit]]]:
    """Each query's lists from the hybrid retriever's own retrievers, `RECORD_DEPTH` deep, as the search asks them
    (clauses only, every wording)."""
    hybrid = lg.retriever("hybrid")
    where = SearchFilter(kind="provision")
    out: dict[str, dict[str, list[Hit]]] = {}
    for query in dict.fromkeys(queries):
        out[query] = {r.name: [(h.uid, h.score, h.unit.law_id, h.unit.path)
                               for h in r.retrieve(query, RECORD_DEPTH, where)]
                      for r in getattr(hybrid, "retrievers", ())}
    return out


def minmax(scores: Sequence[float]) -> list[float]:
    low, high = min(scores), max(scores)
    return [1.0 if high == low else (s - low) / (high - low) for s in scores]


def ordered(total: Mapping[str, float], where: Mapping[str, tuple[str, str]]) -> list[tuple[str, str]]:
    return [where[uid] for uid in sorted(total, key=lambda uid: (-total[uid], uid))]


def single(name: str) -> Fusion:
    return lambda lists: [(law, path) for _, _, law, path in lists[name]]


def library_mean(question: str, affinity: Affinity | None) -> Fusion:
    """The live hybrid search's fusion, through the library's own `fuse`: with the law-level evidence when
    ``affinity`` is given, as the search does by default."""
    def fused(lists: Lists) -> list[tuple[str, str]]:
        return [(r.unit.law_id, r.unit.path) for r in _library_fused(question, affinity, lists)]
    return fused


def _library_fused(question: str, affinity: Affinity | None, lists: Lists,
                   weights: Mapping[str, float] | None = None) -> list[Retrieved]:
    retrieved = {name: [Retrieved(IndexHit.of(_unit(uid, law, path), score), score, rank, {name: rank})
                        for rank, (uid, score, law, path) in enumerate(hits, start=1)]
                 for name, hits in lists.items()}
    laws = {law for hits in lists.values() for _, _, law, _ in hits}
    return fuse(retrieved, sum(len(h) for h in lists.values()),
                affinity=affinity(question, laws) if affinity else None, weights=weights)


def article_pull(question: str, affinity: Affinity | None, pull: float) -> Fusion:
    """The default fusion, then each clause's score moved `pull` of the way to its article's best."""
    def fused(lists: Lists) -> list[tuple[str, str]]:
        found = _library_fused(question, affinity, lists)
        article = {r.uid: (r.unit.law_id, article_path(r.unit.path)) for r in found}
        best: dict[tuple[str, str], float] = {}
        for r in found:
            best[article[r.uid]] = max(best.get(article[r.uid], -math.inf), r.score)
        moved = {r.uid: r.score + pull * (best[article[r.uid]] - r.score) for r in found}
        return [(r.unit.law_id, r.unit.path) for r in sorted(found, key=lambda r: (-moved[r.uid], r.uid))]
    return fused


def _unit(uid: str, law: str, path: str) -> IndexUnit:
    return IndexUnit(uid=uid, label="Provision", part=f"law:{law}", law_id=law, laws=(law,), path=path, title="",
                     text="", owner_uid=law, owner_kind="law", valid_from=None, valid_until=None)


def weighted(lists: Lists, factor: Callable[[str, str, list[float]], float],
             bonus: Callable[[str], float]) -> dict[str, float]:
    """Σ over lists of weight × factor(list, law, normalised scores) × normalised score, plus bonus(law)."""
    total: dict[str, float] = {}
    for name, hits in lists.items():
        if not hits:
            continue
        norm = minmax([score for _, score, _, _ in hits])
        for (uid, _, law, _), value in zip(hits, norm, strict=True):
            total[uid] = total.get(uid, 0.0) + DEFAULT_MEAN_WEIGHTS.get(name, 1.0) * factor(name, law, norm) * value
    where = {uid: law for hits in lists.values() for uid, _, law, _ in hits}
    return {uid: score + bonus(where[uid]) for uid, score in total.items()}


def law_shares(hits: Sequence[Hit], top: int) -> dict[str, float]:
    """Each law's share of the normalised score mass of a list's first `top` hits."""
    mass: dict[str, float] = {}
    if hits:
        for (_, _, law, _), value in zip(hits[:top], minmax([s for _, s, _, _ in hits])[:top], strict=False):
            mass[law] = mass.get(law, 0.0) + value
    total = sum(mass.values()) or 1.0
    return {law: value / total for law, value in mass.items()}


#: Per question, from its lists: a factor for each list's weight (list name, law of the clause, the list's
#: normalised scores) and a bonus for each law.
Factor = Callable[[str, str, list[float]], float]
Plan = Callable[[Lists], tuple[Factor, Callable[[str], float]]]


def planned(plan: Plan) -> Fusion:
    def fuse(lists: Lists) -> list[tuple[str, str]]:
        factor, bonus = plan(lists)
        where = {uid: (law, path) for hits in lists.values() for uid, _, law, path in hits}
        return ordered(weighted(lists, factor, bonus), where)
    return fuse


def unit_factor(name: str, law: str, norm: list[float]) -> float:
    return 1.0


def no_bonus(law: str) -> float:
    return 0.0


def gap_plan(k: int) -> Plan:
    def factor(name: str, law: str, norm: list[float]) -> float:
        return 1.0 if name == "cited" or len(norm) < 2 else 1 - norm[min(k, len(norm)) - 1]
    return lambda lists: (factor, no_bonus)


def law_prior_plan(weight: float) -> Plan:
    def plan(lists: Lists) -> tuple[Factor, Callable[[str], float]]:
        shares = law_shares(lists["bm25"], 10)
        return unit_factor, lambda law: weight * shares.get(law, 0.0)
    return plan


def law_gate_plan(top: int) -> Plan:
    def plan(lists: Lists) -> tuple[Factor, Callable[[str], float]]:
        shares = law_shares(lists["bm25"], top)
        best = max(shares.values(), default=0.0)

        def factor(name: str, law: str, norm: list[float]) -> float:
            return shares.get(law, 0.0) / best if name == "dense" and best else 1.0
        return factor, no_bonus
    return plan


def agree_plan(weight: float) -> Plan:
    def plan(lists: Lists) -> tuple[Factor, Callable[[str], float]]:
        bm25, dense = law_shares(lists["bm25"], 20), law_shares(lists["dense"], 20)
        return unit_factor, lambda law: weight * math.sqrt(bm25.get(law, 0.0) * dense.get(law, 0.0))
    return plan


def fusion(name: str, question: str = "", affinity: Affinity | None = None) -> Fusion:
    if name in ("bm25", "dense"):
        return single(name)
    if name == "mean":
        return library_mean(question, affinity)
    if name == "mean-lists":
        return library_mean(question, None)
    if name.startswith("pull"):
        return article_pull(question, affinity, float(name[len("pull"):]))
    for prefix, make in (("gap", lambda v: gap_plan(int(v))), ("lawprior", lambda v: law_prior_plan(float(v))),
                         ("lawgate", lambda v: law_gate_plan(int(v))), ("agree", lambda v: agree_plan(float(v)))):
        if name.startswith(prefix):
            return planned(make(name[len(prefix):]))
    raise SystemExit(f"unknown fusion {name!r}: bm25, dense, mean, mean-lists, pullG, gapK, lawpriorL, lawgateK, "
                     "agreeL")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--lists", type=Path, required=True, help="recorded lists (JSON): written once, then read")
    parser.add_argument("--dataset", type=Path, default=LAWQA_DEV)
    parser.add_argument("--split", choices=("dev", "test"))
    parser.add_argument("--gold", help="only the questions with this gold article (law id|path: 323ACX692D00131|a405)")
    parser.add_argument("--fusions", default="bm25,dense,mean,mean-lists,gap10,gap20,lawprior0.25,lawgate10,agree0.25")
    args = parser.parse_args()
    questions: Sequence[LawqaQuestion | BenchmarkQuery] = load_questions(args.dataset, args.split)
    if args.gold:
        questions = [q for q in questions if args.gold in {f"{law}|{path}" for law, path in q.articles}]
    with LexGraph.open(args.store, read_only=True) as lg:
        if args.lists.exists():
            lists = json.loads(args.lists.read_text(encoding="utf-8"))
        else:
            lists = record(lg, [q.query for q in questions])
            args.lists.write_text(json.dumps(lists, ensure_ascii=False), encoding="utf-8")
        law_ids = stored_law_ids(questions, lg.catalog, lg.store)
        texts = store_clause_texts(lg.store)
        print(f"{args.dataset}{' [' + args.split + ']' if args.split else ''}: article R@5/R@10/R@20/MRR | "
              "paragraph R@5/R@10/R@20/MRR")
        index = open_index(lg.store)
        citing = LawCitations(lg.store).counts()

        def affinity(question: str, laws: set[str]) -> Mapping[str, float]:
            terms = question_terms(question)
            return law_affinity(terms, index.law_vocabulary(terms, laws), laws, citing=citing)

        for name in args.fusions.split(","):
            fusion(name)  # an unknown name stops here, before any question

            def rank(question, name=name):  # type: ignore[no-untyped-def]
                # the live search reads each list FUSION_DEPTH deep and keeps that many fused clauses (the
                # evaluation's depth): deeper ones would add to MRR what the search never shows
                fuse = fusion(name, question.query, affinity)
                return fuse({n: hits[:FUSION_DEPTH] for n, hits in lists[question.query].items()})[:FUSION_DEPTH]

            run = evaluate_lawqa(questions, rank, law_ids, mode=name, ks=KS, texts=texts)
            cells = [f"{run.levels[lvl].recall_at(k) or 0:.3f}" for lvl in ("article",) for k in KS]
            cells.append(f"{run.levels['article'].mrr or 0:.3f}")
            para = [f"{run.levels['paragraph'].recall_at(k) or 0:.3f}" for k in KS]
            para.append(f"{run.levels['paragraph'].mrr or 0:.3f}")
            print(f"{name:14} {'/'.join(cells)} | {'/'.join(para)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
