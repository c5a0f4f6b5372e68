"""Build lexgraph/data/sample_vectors.npz: the passage vectors of every unit `lexgraph index` makes of the bundled
sample (its four law texts and four judgments), which the package ships so that `make demo` embeds nothing it
has seen (lexgraph/index/bundled.py).

    python scripts/build_sample_embeddings.py [--reuse CACHE_DIR …]

Vectors already computed are reused: the bundle itself, the tests' seeded cache (tests/data/index) and any
``--reuse`` cache folder; only the rest is embedded (by the default engine). Run it again when the sample, the
unit text (`index/units.dense_text`) or the model changes; tests/test_bundled_vectors.py fails until then.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT))

from lexgraph.client import LexGraph  # noqa: E402
from lexgraph.index.build import refresh_index  # noqa: E402
from lexgraph.index.bundled import BUNDLE, write  # noqa: E402
from lexgraph.index.embed import EmbeddingCache, get_embedder, text_key  # noqa: E402
from lexgraph.index.units import chunk_units, dense_text, law_titles, law_units  # noqa: E402
from scripts.build_test_embeddings import copy_vectors  # noqa: E402

SAMPLE = ROOT / "lexgraph" / "data" / "sample"
TEST_SEED = ROOT / "tests" / "data" / "index"


def sample_keys(lg: LexGraph) -> list[bytes]:
    """The cache keys of every unit's dense text: every law's clauses and every chunk."""
    titles = law_titles(lg.store)
    units = [u for law in sorted(titles) for u in law_units(lg.store, law, titles[law])] + chunk_units(lg.store)
    return list(dict.fromkeys(text_key(dense_text(u, titles.get(u.law_id, ""))) for u in units))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reuse", type=Path, action="append", default=[], help="a cache folder to copy vectors from")
    args = parser.parse_args()
    embedder = get_embedder()
    with tempfile.TemporaryDirectory() as tmp, EmbeddingCache(Path(tmp) / "scratch") as scratch, \
            LexGraph.open(Path(tmp) / "store") as lg:
        for folder in [TEST_SEED, *args.reuse]:
            print(f"reused {copy_vectors(folder, scratch, embedder.name)} vectors of {folder}", file=sys.stderr)
        lg.ingest_statutes([SAMPLE], link=False)
        lg.ingest_precedents([SAMPLE / "precedents"])
        summary = refresh_index(lg.store, embedder, cache=scratch)
        keys = sample_keys(lg)
        found = scratch.get_many(embedder.name, "passage", keys)
        assert len(found) == len(keys), f"{len(keys) - len(found)} vectors missing"
        write(BUNDLE, embedder.name, "passage", found)
    print(f"{summary.units} units, {len(found)} vectors ({summary.embedded_texts} embedded now) in {BUNDLE} "
          f"({BUNDLE.stat().st_size / 1e6:.2f} MB)", file=sys.stderr)


if __name__ == "__main__":
    main()
