"""Passage vectors that ship with the package: the bundled sample's clauses and judgment chunks, so that the demo
(`make demo`) and a first `lexgraph index` of the sample embed only what is new.

Why: embedding the sample's 2,700 clause wordings and chunks is most of the demo's time on two cores, and the
result is the same for every user. The vectors are keyed as the embedding cache keys them (model name, sha256 of
the text, `embed.text_key`), so they are used only for the very text and model they were computed from; any other
text is embedded as usual. Stored as float16 (half the size; a vector moves by a cosine of about 1e-7, far inside
the 0.0002 the two e5 engines differ by) in ``lexgraph/data/sample_vectors.npz``, built by
``scripts/build_sample_embeddings.py``.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

BUNDLE = Path(__file__).parents[1] / "data" / "sample_vectors.npz"
_loaded: dict[tuple[str, str], dict[bytes, np.ndarray]] = {}
_lock = threading.Lock()


def _read(model: str, kind: str) -> dict[bytes, np.ndarray]:
    """The bundle's vectors of `model` and `kind` by key (empty when the bundle holds another model's)."""
    with _lock:
        if (model, kind) not in _loaded:
            found: dict[bytes, np.ndarray] = {}
            if BUNDLE.is_file():
                with np.load(BUNDLE, allow_pickle=False) as bundle:
                    if str(bundle["model"]) == model and str(bundle["kind"]) == kind:
                        vectors = bundle["vectors"].astype(np.float32)
                        vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), np.float32(1e-6))
                        found = {bytes(key): vector for key, vector in zip(bundle["keys"], vectors, strict=True)}
            _loaded[(model, kind)] = found
        return _loaded[(model, kind)]


def lookup(model: str, kind: str, keys: Sequence[bytes]) -> dict[bytes, np.ndarray]:
    """The bundled vectors among `keys` (unit float32 rows), by key."""
    known = _read(model, kind)
    return {key: known[key] for key in keys if key in known} if known else {}


def write(path: Path, model: str, kind: str, vectors: dict[bytes, np.ndarray]) -> None:
    """The bundle file: `vectors` by key, as float16, sorted by key (the same vectors give the same file)."""
    keys = sorted(vectors)
    np.savez_compressed(path, model=np.array(model), kind=np.array(kind),
                        keys=np.array([np.frombuffer(k, dtype=np.uint8) for k in keys], dtype=np.uint8).reshape(-1, 32),
                        vectors=np.array([vectors[k] for k in keys], dtype=np.float16).reshape(len(keys), -1))
