"""Train the learned fusion (`lexgraph.retrieve.learned`) and write it into the package.

    python scripts/train_learned_fusion.py --store DIR [--store DIR2] [--judgments DIR] [--queries 900]
        [--captions 0] [--folds 5] [--out lexgraph/data/learned_fusion.json]

DIR is a store indexed with its anchors (``lexgraph index --anchors ../shared/data/precedents/supreme_court``, which
also saves the statutes' anchors); with several stores, every store's queries train one model. The shipped model
was trained on the whole 2020 archive (8,502 laws, where users search, with its thousands of 施行令, 施行規則 and
special laws repeating the Acts' wording as distractors) and on the 19-law benchmark store (one model ships for
every store; docs/search.md).

Training queries, all built here by rule and kept apart from every benchmark split reported:
- **judgments outside the benchmark**: the citing sentences of the judgments that no query of
  bench/data/judgment_retrieval.json (dev or test) comes from (the sentence without its citations is the query,
  the cited articles of any law the store holds the gold; `citing_in`), at most 3 per judgment;
- **captions → articles** (`--captions N`, none by default: 120 of them cost the whole archive's judgments dev
  article MRR 0.04, docs/search.md): an article's caption (不法行為による損害賠償) of the benchmark's laws as the
  query, the article as the gold.

Citing clauses → the articles they cite were queries too, until the statutes' citing sentences became anchors: such
a query's own sentence is then an anchor of its gold in the saved field, which cannot leave it out, so they are
gone. No query is chosen by a benchmark's gold: the benchmark file is read for its judgments (held apart) and its
laws, never for its articles (tests/test_anchors.py changes every gold and gets the same queries).

No query's own judgment feeds the anchor field it is scored with: the training judgments are cut into `--folds`
folds, and a query of fold f is scored with the field built without fold f and without every benchmark judgment.
lawqa_jp's questions are never read. The model: a linear score over the standardised features of every candidate,
trained listwise (`fit_softmax`: each query's softmax over its candidates against its gold articles, L2, Newton's
method), so each query counts once whatever its number of candidates. The statutes' saved anchor field is mapped
once per store and shared by every fold; only the judgments' anchors laid over it differ (about a minute for the
whole archive and the 19-law store together, docs/search.md).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys
import time
from datetime import date
from pathlib import Path

import numpy as np

from lexgraph import LexGraph
from lexgraph.citations import extract
from lexgraph.citations.sentences import sentence_ends, without_citations
from lexgraph.documents.judgment import judgment_key
from lexgraph.index.query import SearchFilter
from lexgraph.index.units import article_path
from lexgraph.retrieve.learned import FEATURES, MODEL_FILE, LearnedModel, LearnedRetriever, anchor_field
from lexgraph.retrieve.retrievers import DenseRetriever, FusionRetriever
from lexgraph.store.rows import LAWS_ALL

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
BENCHMARK = ROOT / "bench" / "data" / "judgment_retrieval.json"
_CAPTION = re.compile(r"（([^（）]{2,40})）$")
_LEFTOVER = re.compile(r"[0-9０-９一二三四五六七八九十百千]+条")


def learned_for(lg: LexGraph, held_apart: set[str]) -> LearnedRetriever:
    """A learned retriever whose features are all that is used: the model being trained is not the shipped one
    (which may be of other features), so it gets an untrained one."""
    hybrid = lg.retriever("hybrid")
    assert isinstance(hybrid, FusionRetriever)
    dense = next(r for r in hybrid.retrievers if isinstance(r, DenseRetriever))
    index = lg._open_search_index()
    n = len(FEATURES)
    untrained = LearnedModel(FEATURES, (0.0,) * n, (0.0,) * n, (1.0,) * n, 0.0, {})
    return LearnedRetriever(index, hybrid, dense.query_vector, anchor_field(index, frozenset(held_apart)), untrained)


def retriever_has_saved_field(retriever: LearnedRetriever) -> int:
    """How many statute anchors the field the model is trained with holds (0: judgments' alone)."""
    return retriever.field.base.anchors if retriever.field is not None else 0


def fold_of(doc: str, folds: int) -> int:
    return int.from_bytes(hashlib.sha256(doc.encode()).digest()[:4], "big") % folds


def training_queries(judgments: Path, benchmark: Path, laws: set[str], per_judgment: int, limit: int,
                     seed: int) -> tuple[list[tuple[str, str, set[tuple[str, str]]]], set[str], int]:
    """(source judgment, query, gold articles) from the judgments outside the benchmark; the benchmark's own
    judgments; how many judgments gave queries.

    The benchmark took every judgment with a sentence that qualifies under its rules (every citation in the
    sentence resolved to a stored law, at most 3 articles), so the judgments outside it have almost none; here a
    sentence qualifies when it cites at least one article of a stored law, and its gold is those articles."""
    bench = json.loads(benchmark.read_text(encoding="utf-8"))
    # A judgment by its key, not its file's name: the archive holds five judgments twice (085547_hanrei.txt and
    # 85547.txt), and a benchmark judgment's twin is the benchmark's own text.
    held = {judgment_key(q["doc"]) for q in bench["queries"]}
    rng = random.Random(seed)
    out, used, seen = [], 0, set()
    for path in sorted(judgments.glob("*.txt")):
        key = judgment_key(path.stem)
        if key in held or key in seen:
            continue
        seen.add(key)
        sentences = citing_in(path.read_text(encoding="utf-8"), laws)
        if sentences:
            used += 1
        for query, gold in rng.sample(sentences, min(per_judgment, len(sentences))):
            out.append((key, query, gold))
    rng.shuffle(out)
    return out[:limit], held, used


def citing_in(text: str, laws: set[str]) -> list[tuple[str, set[tuple[str, str]]]]:
    """Each sentence citing an article of `laws`, without its citations (40-300 characters), and those articles."""
    every = extract(text, precedents=False)
    ends = sentence_ends(text)
    out, start = [], 0
    for stop in ends:
        inside = [c for c in every if start <= c.start < stop]
        gold = {(str(c.law_id), f"a{c.article}") for c in inside
                if c.kind == "statute" and c.status == "resolved" and c.law_id in laws and c.article}
        sentence_start, start = start, stop
        if not gold or len(gold) > 3:
            continue
        query = without_citations(text, sentence_start, stop, inside)
        if 40 <= len(query) <= 300 and not _LEFTOVER.search(query):
            out.append((query, gold))
    return out


def caption_queries(lg: LexGraph, laws: set[str], limit: int,
                    seed: int) -> list[tuple[str, str, set[tuple[str, str]]]]:
    """(no source, an article's caption, that article) for articles of `laws` with a caption."""
    index = lg._open_search_index()
    seen: dict[str, set[tuple[str, str]]] = {}
    # Captions from the index itself: a unit's indexed title ends with its article's caption in brackets.
    hits = []
    for law in sorted(laws):
        for number in range(1, 1100):
            units = index.units_under(law, f"a{number}", SearchFilter(kind="provision"))
            if units:
                hits.append(units[0])
    for unit in hits:
        m = _CAPTION.search(unit.title)
        if m:
            seen.setdefault(m[1], set()).add((unit.law_id, article_path(unit.path)))
    unique = [(caption, gold) for caption, gold in seen.items() if len(gold) == 1]
    random.Random(seed).shuffle(unique)
    return [("", caption, gold) for caption, gold in unique[:limit]]


def fit_softmax(queries: list[tuple[np.ndarray, np.ndarray]], l2: float = 1.0,
                steps: int = 50) -> np.ndarray:
    """Weights of a linear score trained listwise: for each query, the softmax of its candidates' scores against
    its gold spread evenly over its positives (cross-entropy), summed over queries, with an L2 penalty; Newton's
    method with step halving (the loss is convex). `queries`: each query's standardised features and 0/1 labels.

    Why listwise: the search ranks one question's candidates against each other, and a score is only ever
    compared within its question; the pointwise logistic loss this replaced also asked one question's scores to
    sit on a scale shared with every other question's, which the ranking never uses (docs/search.md has both
    measured)."""
    d = queries[0][0].shape[1]
    w = np.zeros(d)

    def loss(v: np.ndarray) -> float:
        total = 0.5 * l2 * float(v @ v)
        for x, y in queries:
            s = x @ v
            top = s.max()
            total -= float((y / y.sum()) @ (s - top - np.log(np.exp(s - top).sum())))
        return total

    current = loss(w)
    for _ in range(steps):
        gradient, hessian = l2 * w, l2 * np.eye(d)
        for x, y in queries:
            s = x @ w
            p = np.exp(s - s.max())
            p /= p.sum()
            mean = x.T @ p
            gradient += x.T @ (p - y / y.sum())
            hessian += (x * p[:, None]).T @ x - np.outer(mean, mean)
        step = np.linalg.solve(hessian, gradient)
        size = 1.0
        while size > 1e-4 and loss(w - size * step) > current:
            size /= 2
        w = w - size * step
        previous, current = current, loss(w)
        if previous - current < 1e-9:
            break
    return w


def store_rows(store: Path, args: argparse.Namespace, log: list[dict[str, object]],
               started: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """Every training query's candidates on one store, as (features, labels) of the queries whose gold is among
    their candidates and not all of them; what was used is appended to `log`."""
    queries: list[tuple[np.ndarray, np.ndarray]] = []
    begun = time.perf_counter()
    with LexGraph.open(store, read_only=True) as lg:
        laws = stored_laws(lg)
        judged, held, used = training_queries(args.judgments, args.benchmark, laws, args.per_judgment, args.queries,
                                              args.seed)
        bench_laws = {e["law_id"] for e in json.loads(args.benchmark.read_text(encoding="utf-8"))["laws"]}
        captions = caption_queries(lg, bench_laws & laws, args.captions, args.seed) if args.captions else []
        print(f"{store}: {len(judged)} judgment queries from {used} judgments outside the benchmark citing its "
              f"{len(laws)} laws ({len(held)} held apart), {len(captions)} caption queries "
              f"({time.perf_counter() - started:.0f} s)", file=sys.stderr)
        # One retriever per fold; each lays its judgments' anchors over the statutes' field, which is mapped once
        # for the store (`anchor_field`) and shared by every fold.
        folds = {f: learned_for(lg, held | {d for d, _, _ in judged if fold_of(d, args.folds) == f})
                 for f in range(args.folds)}
        whole = learned_for(lg, held)
        where = SearchFilter(kind="provision")
        rows = 0
        for i, (doc, query, gold) in enumerate([*judged, *captions]):
            retriever = folds[fold_of(doc, args.folds)] if doc else whole
            if doc and retriever.field is not None:
                # its own judgment (in either copy of its file) never describes its gold
                assert not any(judgment_key(source) == doc for source in retriever.field.sources)
            candidates = retriever.candidates(query, where)
            label = np.asarray([a in gold for a in candidates.articles], float)
            if not label.any() or label.all():
                continue
            queries.append((candidates.features, label))
            rows += len(label)
            if (i + 1) % 100 == 0:
                print(f"  {i + 1} queries ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
        log.append({"store": store.name, "laws": len(laws), "judgment_queries": len(judged),
                    "caption_queries": len(captions), "statute_anchors": retriever_has_saved_field(whole),
                    "queries_with_gold_among_candidates": len(queries), "rows": rows, "judgments_used": used,
                    "benchmark_judgments_held_apart": len(held),
                    "seconds": round(time.perf_counter() - begun)})
    return queries


def stored_laws(lg: LexGraph) -> set[str]:
    """Every law the store holds: a training query may cite any of them (the distractors of a store of every law
    are then in its candidates, as they are in a user's search)."""
    return {str(row.law_id) for row in lg.store.rows(LAWS_ALL)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", type=Path, action="append", required=True,
                        help="an indexed store with its anchors; give it again for more (one model for all)")
    parser.add_argument("--judgments", type=Path, default=SHARED / "precedents" / "supreme_court")
    parser.add_argument("--benchmark", type=Path, default=BENCHMARK)
    parser.add_argument("--queries", type=int, default=900)
    parser.add_argument("--per-judgment", type=int, default=3)
    parser.add_argument("--captions", type=int, default=0)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--l2", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--out", type=Path, default=MODEL_FILE)
    args = parser.parse_args()
    started = time.perf_counter()
    log: list[dict[str, object]] = []
    queries = [q for store in args.store for q in store_rows(store, args, log, started)]
    x = np.vstack([features for features, _ in queries])
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    weights = fit_softmax([((features - mean) / scale, label) for features, label in queries], l2=args.l2)
    model = LearnedModel(FEATURES, tuple(float(v) for v in weights), tuple(float(v) for v in mean),
                         tuple(float(v) for v in scale), 0.0,
                         {"script": "scripts/train_learned_fusion.py", "date": date.today().isoformat(),
                          "objective": "listwise softmax", "stores": log, "queries": len(queries), "rows": len(x),
                          "per_judgment": args.per_judgment, "folds": args.folds, "l2": args.l2, "seed": args.seed})
    args.out.write_text(json.dumps(model.to_json(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    for name, value in sorted(zip(FEATURES, weights, strict=True), key=lambda item: -abs(item[1])):
        print(f"{name:14s} {value:+.3f}")
    print(f"wrote {args.out} ({len(x)} rows, {len(queries)} queries; {time.perf_counter() - started:.0f} s)",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
