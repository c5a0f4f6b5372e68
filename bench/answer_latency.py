"""Where the time of an answer goes: retrieval, prompt building, the model call and validation, per question,
against the local SmolLM2 server (xllamacpp, one thread) or any endpoint in the environment.

    python bench/answer_latency.py [--store DIR] [--questions 5] [--references 3] [--endpoint env] [--json]

Without --store, a temporary store with the bundled sample (民法, 借地借家法, 4 judgments) is built and indexed
(the first time, embedding its clauses takes some minutes; tests/data/index seeds the cache when present). The
questions are lawqa_jp's 借地借家法 questions. The extractive answer (no model) is timed too, as the baseline.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lexgraph import LexGraph  # noqa: E402
from lexgraph.answer.prompts import render  # noqa: E402
from lexgraph.answer.references import build_references, capped_limits  # noqa: E402
from lexgraph.errors import RetriesExhausted  # noqa: E402
from lexgraph.eval.lawqa import load_lawqa  # noqa: E402
from lexgraph.index.embed import EmbeddingCache  # noqa: E402
from lexgraph.llm.client import LLMClient, LLMConfig  # noqa: E402
from lexgraph.llm.guardrails import ReplyCheck, complete_json  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"
SEED = ROOT / "tests" / "data" / "index" / EmbeddingCache.FILENAME


def sample_store(folder: Path) -> Path:
    store = folder / "store"
    with LexGraph.open(store) as lg:
        lg.ingest_statutes([ROOT / "lexgraph" / "data" / "sample"])
        lg.ingest_precedents([ROOT / "lexgraph" / "data" / "sample" / "precedents"])
    if SEED.is_file():
        (store / "cache").mkdir(exist_ok=True)
        shutil.copy(SEED, store / "cache" / EmbeddingCache.FILENAME)
    with LexGraph.open(store, read_only=True) as lg:
        lg.index(laws=["民法", "借地借家法"])
        lg.index(kinds=("chunk",))
    return store


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", type=Path)
    parser.add_argument("--questions", type=int, default=5)
    parser.add_argument("--references", type=int, default=3)
    parser.add_argument("--max-tokens", type=int, default=256)
    parser.add_argument("--endpoint", choices=("smollm2", "env"), default="smollm2")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    questions = [q for q in load_lawqa(SHARED / "lawqa_jp" / "dev.json") if q.gold_laws == ("借地借家法",)]
    questions = questions[: args.questions]
    limits = capped_limits(args.references)
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        store = args.store or sample_store(folder)
        if args.endpoint == "smollm2":
            from tests.llm_server import smollm2_server

            url = stack.enter_context(smollm2_server())
            config = LLMConfig(model="smollm2", base_url=url, api_key="none", timeout=300, max_retries=0,
                               max_tokens=args.max_tokens)
        else:
            from_env = LLMConfig.from_env()
            if from_env is None:
                print("no model configured (LEXGRAPH_LLM_MODEL)", file=sys.stderr)
                return 3
            config = from_env
        llm = LLMClient(config)
        rows = []
        with LexGraph.open(store, read_only=True) as lg:
            retriever = lg.retriever("hybrid")
            for question in questions:
                row: dict[str, object] = {"qid": question.qid}
                started = time.perf_counter()
                result = lg.search(question.question, retriever=retriever)
                row["retrieval_s"] = time.perf_counter() - started
                started = time.perf_counter()
                references = build_references(lg.store, result, limits)
                prompt = render(question.question, references, "text")
                row["prompt_s"] = time.perf_counter() - started
                row["prompt_chars"] = len(prompt.user)
                check = ReplyCheck("answer", allowed_ids=references.ids)
                try:
                    reply = complete_json(llm, prompt.messages(), check, max_repairs=1)
                    attempts, row["valid"] = reply.attempts, True
                except RetriesExhausted as error:
                    attempts, row["valid"] = error.attempts, False
                row["model_s"] = sum(a.latency_s for a in attempts)
                started = time.perf_counter()
                for attempt in attempts:  # validation alone, timed apart from the calls
                    check.errors(attempt.raw)
                row["validation_s"] = time.perf_counter() - started
                row["attempts"] = len(attempts)
                row["completion_tokens"] = sum(a.usage.get("completion_tokens", 0) for a in attempts)
                started = time.perf_counter()
                lg.ask(question.question, use_model=False, record=False, log=folder / "baseline.jsonl")
                row["extractive_s"] = time.perf_counter() - started
                rows.append(row)
    summary = {key: statistics.median(float(r[key]) for r in rows)  # type: ignore[arg-type]
               for key in ("retrieval_s", "prompt_s", "model_s", "validation_s", "extractive_s")}
    report = {"model": config.model, "questions": len(rows), "valid": sum(bool(r["valid"]) for r in rows),
              "median": summary, "rows": rows}
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2, default=str))
        return 0
    print(f"model {config.model}; {len(rows)} questions; valid answers {report['valid']}/{len(rows)}")
    print(f"{'stage':14} {'median s':>9}")
    for key, value in summary.items():
        print(f"{key:14} {value:9.3f}")
    total = summary["retrieval_s"] + summary["prompt_s"] + summary["model_s"] + summary["validation_s"]
    print(f"model call share of a generated answer: {summary['model_s'] / total:.1%}; extractive answer "
          f"{summary['extractive_s']:.3f} s ({total / max(summary['extractive_s'], 1e-9):.0f}x faster than generated)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
