"""The learned mode's anchors on a real Neo4j 5 (``make neo4j``; LEXGRAPH_TEST_NEO4J_URI): the anchor field's two
files (the statutes' anchors folded into arrays, the judgments' anchors) kept in the database, so that ``learned``
on Neo4j ranks exactly as on the embedded store with the same data, whether the anchors were copied from an
embedded store (`lexgraph copy --to`) or built on Neo4j itself (`lexgraph index --statute-anchors --anchors DIR`).
A copy whose bytes are damaged, or written by another version, is refused naming the fix; a local cache that no
longer matches is fetched again; a store without anchors still says so."""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from lexgraph.client import LexGraph
from lexgraph.eval.lawqa import load_lawqa
from lexgraph.index.anchors import ANCHOR_FILE, FIELD_FILE, SPILL_PREFIX, AnchorSpill
from lexgraph.index.neo4j_files import ANCHOR_CACHE_ENV, CHUNK_BYTES, put_file, stored_files
from lexgraph.retrieve.options import SearchOptions
from lexgraph.store.base import GraphStore
from lexgraph.store.rows import LAWS_ALL
from tests.capabilities import NEO4J_URI_ENV
from tests.conftest import NEO4J_MARKS
from tests.helpers import ROOT, copy_store, lexgraph
from tests.test_statute_anchor_build import count_law_reads, kill_half_way

pytestmark = NEO4J_MARKS

JUDGMENTS = ROOT / "tests" / "data" / "precedents"
#: lawqa_jp's dev questions at hand, and questions of the sample's laws in a judgment's words and a statute's.
QUESTIONS = [*(q.question for q in load_lawqa(ROOT / "tests" / "data" / "lawqa" / "dev_sample.json")),
             "借地権の存続期間は何年か", "故意又は過失によって他人の権利を侵害した者の損害賠償責任", "成年年齢は何歳か",
             "不法行為に基づく損害賠償請求権の消滅時効", "建物の賃貸人が更新を拒絶するにはどのような要件が必要か",
             "敷金の返還請求はいつできるか", "契約の解除と原状回復義務"]


@pytest.fixture(scope="module")
def source(search_store_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample search store with both anchor files: the statutes' field (saved by the template's plain index,
    built again here so that its count is reported) and the sample judgments' anchors."""
    store = copy_store(search_store_template, tmp_path_factory.mktemp("anchored") / "store")
    run = lexgraph("index", "--rebuild-anchors", "--anchors", JUDGMENTS, "--json", store=store)
    assert run.code == 0, run.stderr
    assert run.json()["statute_anchors"] > 100 and run.json()["anchors"] >= 5
    return store


@pytest.fixture
def anchor_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "anchor-cache"
    monkeypatch.setenv(ANCHOR_CACHE_ENV, str(folder))
    return folder


def rankings(lg: LexGraph, mode: str = "learned", held_apart: frozenset[str] = frozenset()) -> dict[str, Any]:
    """Each question's clauses and chunks as `mode` ranks them (uid, score), and the mode that ranked; the anchors
    of the `held_apart` judgments left out, as an evaluation leaves out those it scores."""
    out = {}
    retriever = lg.retriever(mode, held_apart=held_apart) if held_apart else None
    for question in QUESTIONS:
        result = lg.search(question, options=SearchOptions(mode=mode, k=10), retriever=retriever)
        out[question] = {"clauses": [(hit.uid, hit.score) for hit in result.clauses],
                         "chunks": [(hit.uid, hit.score) for hit in result.chunks],
                         "ranked_by": result.ranked_by}
    return out


def assert_same_rankings(got: dict[str, Any], expected: dict[str, Any]) -> None:
    """The same uids in the same order, scores equal to within 1e-4: Lucene's BM25 scores are float32 and on
    another scale than tantivy's (÷ 2.2), so a list min-max normalised differs in the sixth digit (a chunk's hybrid
    score by up to 1.2e-5 here), never in order."""
    for question, want in expected.items():
        have = got[question]
        assert have["ranked_by"] is None and want["ranked_by"] is None, (question, have["ranked_by"])
        for kind in ("clauses", "chunks"):
            assert [uid for uid, _ in have[kind]] == [uid for uid, _ in want[kind]], (question, kind)
            assert [score for _, score in have[kind]] == pytest.approx([score for _, score in want[kind]],
                                                                      rel=1e-4, abs=1e-4), (question, kind)


def copy_and_index(source: Path) -> str:
    """`lexgraph copy --to` the test server, then index the copy from the source's cached vectors, as printed."""
    uri = os.environ[NEO4J_URI_ENV]
    run = lexgraph("copy", "--to", uri, "--json", store=source)
    assert run.code == 0, run.stderr
    said = run.json()
    assert set(said["anchors"]) == {FIELD_FILE, ANCHOR_FILE}
    assert said["anchors"][FIELD_FILE] == (source / "index" / FIELD_FILE).stat().st_size
    built = lexgraph("index", "--store", uri, "--embedder", said["index"]["embedder"], "--json",
                     env={"LEXGRAPH_CACHE_DIR": said["index"]["cache"]})
    assert built.code == 0, built.stderr
    assert built.json()["embedded_texts"] == 0
    assert "statute_anchors" not in built.json()  # copied from a graph that is the same: kept, not built again
    return uri


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_learned_on_a_copy_ranks_as_on_the_embedded_store(neo4j_store: GraphStore, source: Path,
                                                          anchor_cache: Path) -> None:
    copy_and_index(source)
    kept = stored_files(neo4j_store)
    assert {name: record.sha256 for name, record in kept.items()} == {
        name: sha256(source / "index" / name) for name in (FIELD_FILE, ANCHOR_FILE)}
    with LexGraph.open(source, read_only=True) as embedded:
        expected = rankings(embedded)
        hybrid = rankings(embedded, "hybrid")
        apart = sorted({path.stem for path in JUDGMENTS.glob("*.txt")})[:1]
        held = rankings(embedded, held_apart=frozenset(apart))
    # The anchors must matter for this comparison to mean anything: learned is not the hybrid's order here.
    moved = [q for q in QUESTIONS if [u for u, _ in expected[q]["clauses"]] != [u for u, _ in hybrid[q]["clauses"]]]
    assert len(moved) >= len(QUESTIONS) // 2, moved
    lg = LexGraph(neo4j_store)
    assert lg.session.search_index().lacks("anchors") is None
    assert_same_rankings(rankings(lg), expected)
    # an evaluation's held-apart judgments leave the field on Neo4j as on the embedded store
    assert_same_rankings(rankings(lg, held_apart=frozenset(apart)), held)
    # the anchor mode runs there too, and ranks alike
    with LexGraph.open(source, read_only=True) as embedded:
        assert_same_rankings(rankings(lg, "anchor"), rankings(embedded, "anchor"))
    # the schema reference explains the kept files, and shows a chunk's size, not its megabytes
    reference = lg.schema()
    assert reference.missing == []
    chunk = next(entry for entry in reference.entries if entry.name == "IndexFileChunk")
    assert re.fullmatch(r"\(\d+ bytes\)", str(next(p.example for p in chunk.properties if p.name == "data")))
    # the files were fetched once into a folder named by their hashes, and are the embedded store's bytes
    folders = [p for p in anchor_cache.iterdir() if p.is_dir()]
    assert len(folders) == 1
    assert {p.name: sha256(p) for p in folders[0].iterdir()} == {
        name: sha256(source / "index" / name) for name in (FIELD_FILE, ANCHOR_FILE)}


def test_a_copy_back_from_neo4j_carries_the_anchor_files(neo4j_store: GraphStore, source: Path,
                                                         anchor_cache: Path, tmp_path: Path) -> None:
    """`lexgraph copy --to DIR` from Neo4j into an embedded store carries both files back, byte for byte: indexed
    from the cached vectors, the copy's learned search ranks as the source's, not silently as the hybrid."""
    uri = copy_and_index(source)
    with LexGraph.open(source, read_only=True) as embedded:
        expected = rankings(embedded)
    back = tmp_path / "back"
    run = lexgraph("copy", "--store", uri, "--to", str(back), "--json")
    assert run.code == 0, run.stderr
    files = (FIELD_FILE, ANCHOR_FILE)
    assert run.json()["anchors"] == {name: (source / "index" / name).stat().st_size for name in files}
    assert {name: sha256(back / "index" / name) for name in files} == {
        name: sha256(source / "index" / name) for name in files}
    assert not [p.name for p in (back / "index").iterdir() if p.name.endswith(".tmp")]
    built = lexgraph("index", "--embedder", run.json()["index"]["embedder"], "--json", store=back,
                     env={"LEXGRAPH_CACHE_DIR": str(source / "cache")})
    assert built.code == 0, built.stderr
    assert built.json()["embedded_texts"] == 0
    assert "statute_anchors" not in built.json()  # the graph is the field's: kept, not built again
    with LexGraph.open(back, read_only=True) as copied:
        assert_same_rankings(rankings(copied), expected)

    # a damaged copy in the database is refused, naming the fix, and leaves no anchor file in the target
    neo4j_store._run_autocommit(  # type: ignore[attr-defined]
        "MATCH (c:IndexFileChunk {name: $name, seq: 0}) SET c.data = $data", {"name": FIELD_FILE,
                                                                               "data": b"\x00" * 64},
        "damaging a chunk")
    refused = lexgraph("copy", "--store", uri, "--to", str(tmp_path / "other"), "--json", subprocess=True)
    assert refused.code == 1, refused.stderr
    assert f"{FIELD_FILE} kept in the database is damaged" in refused.stderr
    assert "lexgraph index --rebuild-anchors --store" in refused.stderr
    assert not (tmp_path / "other" / "index" / FIELD_FILE).exists()


def test_doctor_reports_the_anchor_files_kept_in_the_database(neo4j_store: GraphStore, source: Path,
                                                              anchor_cache: Path) -> None:
    """`lexgraph doctor` on Neo4j says which anchor files the database keeps (size, hash, whether this machine's
    cache holds them, whether the field was built from the graph as it stands) and names the fix when one is
    missing, damaged, of another version or built from another state of the graph."""
    uri = copy_and_index(source)

    def doctor() -> tuple[int, dict[str, Any]]:
        run = lexgraph("doctor", "--store", uri, "--json")
        found = [f for f in run.json()["findings"] if f["check"] == "anchor field"]
        assert len(found) == 1, run.stdout
        return run.code, found[0]

    files = (FIELD_FILE, ANCHOR_FILE)
    code, field = doctor()
    assert code == 0 and field["ok"], field
    for name in files:
        path = source / "index" / name
        assert f"{name}: {path.stat().st_size:,} bytes in " in field["detail"]
        assert f"SHA-256 {sha256(path)[:16]}" in field["detail"]
    assert "built from the graph as it stands" in field["detail"]
    assert field["detail"].count("not in this machine's cache yet") == 2, field  # nothing searched yet
    assert lexgraph("search", QUESTIONS[0], "--store", uri, "--json").code == 0
    code, field = doctor()
    assert code == 0 and "not in this machine's cache" not in field["detail"], field
    assert field["detail"].count("in this machine's cache") == 2 and str(anchor_cache) in field["detail"]

    # the graph changed since the field was built (a law's text changed): a problem, until the graph is as the
    # field was built from. Put back rather than indexed again: a re-index of a law on the server left the next
    # test's hybrid scores 1e-4 off the embedded store's (a state the wipe does not clear).
    version = "MATCH (v:LawVersion) WITH v ORDER BY v.revision_id LIMIT 1 "
    original = neo4j_store.run_read_only(version + "RETURN v.content_hash AS hash")[0]["hash"]
    neo4j_store._run_autocommit(  # type: ignore[attr-defined]
        version + "SET v.content_hash = 'changed'", None, "changing a law's version")
    code, field = doctor()
    assert code == 1 and not field["ok"], field
    assert f"{FIELD_FILE}: built from another state of the graph" in field["detail"]
    assert f"build it again with `lexgraph index --store {uri}`" in field["fix"]
    neo4j_store._run_autocommit(  # type: ignore[attr-defined]
        version + "SET v.content_hash = $hash", {"hash": original}, "putting the law's version back")
    code, field = doctor()
    assert field["ok"] and "built from the graph as it stands" in field["detail"], field

    # a chunk missing in the database, and a record of another version: problems naming the command to write again
    neo4j_store._run_autocommit(  # type: ignore[attr-defined]
        "MATCH (c:IndexFileChunk {name: $name, seq: 0}) DELETE c", {"name": ANCHOR_FILE}, "dropping a chunk")
    neo4j_store._run_autocommit(  # type: ignore[attr-defined]
        "MATCH (f:IndexFile {name: $name}) SET f.format = 'lexgraph-anchor-field/0'", {"name": FIELD_FILE},
        "ageing the field")
    code, field = doctor()
    assert code == 1 and not field["ok"], field
    assert f"{ANCHOR_FILE}: damaged in the database (chunk 0 of 1 is missing)" in field["detail"]
    assert f"{FIELD_FILE}: written by another version of lexgraph (format 'lexgraph-anchor-field/0'" in field["detail"]
    assert "lexgraph index --anchors DIR --store" in field["fix"] and "--rebuild-anchors" in field["fix"]
    text = lexgraph("doctor", "--store", uri)
    assert text.code == 1 and "PROBLEM" in text.stdout and "fix:" in text.stdout, text.stdout

    # none kept: not a problem (a store may have none), but said, with the commands that build them
    neo4j_store._run_autocommit(  # type: ignore[attr-defined]
        "MATCH (n) WHERE n:IndexFile OR n:IndexFileChunk DETACH DELETE n", None, "dropping the anchors")
    code, field = doctor()
    assert code == 0 and field["ok"], field
    assert f"{FIELD_FILE}: not kept" in field["detail"] and f"{ANCHOR_FILE}: not kept" in field["detail"]
    assert "ranks as the hybrid" in field["detail"]
    assert f"lexgraph index --statute-anchors --store {uri}" in field["fix"]
    assert f"lexgraph index --anchors DIR --store {uri}" in field["fix"]


def test_anchors_built_on_neo4j_are_the_embedded_store_s(neo4j_store: GraphStore, source: Path,
                                                         anchor_cache: Path) -> None:
    """Built on Neo4j from its own graph, the two files are byte for byte the embedded store's."""
    uri = copy_and_index(source)
    neo4j_store._run_autocommit(  # type: ignore[attr-defined]
        "MATCH (n) WHERE n:IndexFile OR n:IndexFileChunk DETACH DELETE n", None, "dropping the copied anchors")
    lg = LexGraph(neo4j_store)
    assert "no anchor field" in (lg.session.search_index().lacks("anchors") or "")
    assert all(r["ranked_by"] is not None for r in rankings(lg).values())  # said: ranked as hybrid
    run = lexgraph("index", "--store", uri, "--statute-anchors", "--anchors", JUDGMENTS, "--json")
    assert run.code == 0, run.stderr
    assert run.json()["statute_anchors"] > 100 and run.json()["anchors"] >= 5
    kept = stored_files(neo4j_store)
    assert {name: record.sha256 for name, record in kept.items()} == {
        name: sha256(source / "index" / name) for name in (FIELD_FILE, ANCHOR_FILE)}
    again = lexgraph("index", "--store", uri, "--json")  # the graph unchanged: kept, not built again
    assert again.code == 0 and "statute_anchors" not in again.json(), again.stderr
    with LexGraph.open(source, read_only=True) as embedded:
        expected = rankings(embedded)
    assert_same_rankings(rankings(LexGraph(neo4j_store)), expected)


def test_a_build_on_neo4j_killed_half_way_continues_and_saves_the_same_field(
        neo4j_store: GraphStore, source: Path, anchor_cache: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The statutes' field built on Neo4j keeps each law's anchors in a local folder named by the database's
    identity and the graph's digest: a build killed with SIGKILL half-way continues from the laws it finished
    (they are not read from the graph again) and writes the same file, and the folder goes once it is written."""
    uri = os.environ[NEO4J_URI_ENV]
    assert lexgraph("copy", "--to", uri, "--json", store=source).code == 0
    neo4j_store._run_autocommit(  # type: ignore[attr-defined]
        "MATCH (n) WHERE n:IndexFile OR n:IndexFileChunk DETACH DELETE n", None, "dropping the copied anchors")
    laws = len(neo4j_store.rows(LAWS_ALL))
    kill_half_way(uri, laws, tmp_path, read_only=False, env={ANCHOR_CACHE_ENV: str(anchor_cache)})
    spills = list(anchor_cache.glob(f"builds/*/{SPILL_PREFIX}*"))
    assert len(spills) == 1 and FIELD_FILE not in stored_files(neo4j_store), spills
    kept = {law for law, _ in AnchorSpill(spills[0]).read()}
    assert 0 < len(kept) < laws

    read = count_law_reads(monkeypatch)
    assert (LexGraph(neo4j_store).build_statute_anchors() or 0) > 50
    assert not kept & set(read) and len(read) == laws - len(kept)  # the finished laws were not read again
    assert stored_files(neo4j_store)[FIELD_FILE].sha256 == sha256(source / "index" / FIELD_FILE)
    assert not list(anchor_cache.glob(f"builds/*/{SPILL_PREFIX}*"))


def test_a_damaged_or_stale_copy_is_refused_and_a_damaged_cache_fetched_again(
        neo4j_store: GraphStore, source: Path, anchor_cache: Path, tmp_path: Path) -> None:
    uri = copy_and_index(source)
    question = QUESTIONS[0]
    good = lexgraph("search", question, "--store", uri, "--json")
    assert good.code == 0 and "ranked_by" not in good.json(), good.stderr

    # a cached file changed on disk: fetched again, the same answer
    cached = next(p for p in anchor_cache.iterdir() if p.is_dir()) / FIELD_FILE
    data = bytearray(cached.read_bytes())
    data[len(data) // 2] ^= 0xFF
    cached.write_bytes(bytes(data))
    again = lexgraph("search", question, "--store", uri, "--json", subprocess=True)
    assert again.code == 0 and again.json()["clauses"] == good.json()["clauses"], again.stderr
    assert sha256(cached) == sha256(source / "index" / FIELD_FILE)

    def run_fresh() -> Any:
        """A search in a new process with an empty cache: what a user on another machine meets."""
        return lexgraph("search", question, "--store", uri, "--json", subprocess=True,
                        env={ANCHOR_CACHE_ENV: str(tmp_path / f"cache-{len(list(tmp_path.iterdir()))}")})

    # a chunk's bytes changed in the database: refused, naming the file and the fix
    neo4j_store._run_autocommit(  # type: ignore[attr-defined]
        "MATCH (c:IndexFileChunk {name: $name, seq: 0}) SET c.data = $data", {"name": FIELD_FILE,
                                                                               "data": b"\x00" * 64},
        "damaging a chunk")
    damaged = run_fresh()
    assert damaged.code == 1, damaged.stderr
    assert f"{FIELD_FILE} kept in the database is damaged" in damaged.stderr
    assert "lexgraph index --rebuild-anchors --store" in damaged.stderr

    # a chunk missing
    put_file(neo4j_store, source / "index" / FIELD_FILE, name=FIELD_FILE, format="lexgraph-anchor-field/1")
    assert run_fresh().code == 0
    neo4j_store._run_autocommit(  # type: ignore[attr-defined]
        "MATCH (c:IndexFileChunk {name: $name, seq: 0}) DELETE c", {"name": ANCHOR_FILE}, "dropping a chunk")
    missing = run_fresh()
    assert missing.code == 1 and "chunk 0 of 1 is missing" in missing.stderr, missing.stderr
    assert "lexgraph index --anchors DIR --store" in missing.stderr
    put_file(neo4j_store, source / "index" / ANCHOR_FILE, name=ANCHOR_FILE, format="lexgraph-anchors/1")

    # a record claiming more than any file lexgraph writes (it would fill the disk): refused before any fetch
    neo4j_store._run_autocommit(  # type: ignore[attr-defined]
        "MATCH (f:IndexFile {name: $name}) SET f.size = $size, f.chunks = $chunks",
        {"name": FIELD_FILE, "size": 1 << 40, "chunks": (1 << 40) // CHUNK_BYTES}, "inflating the record")
    inflated = run_fresh()
    assert inflated.code == 1 and "which no file written by lexgraph has" in inflated.stderr, inflated.stderr
    put_file(neo4j_store, source / "index" / FIELD_FILE, name=FIELD_FILE, format="lexgraph-anchor-field/1")

    # written by another version: refused before anything is fetched
    neo4j_store._run_autocommit(  # type: ignore[attr-defined]
        "MATCH (f:IndexFile {name: $name}) SET f.format = 'lexgraph-anchor-field/0'", {"name": FIELD_FILE},
        "ageing the field")
    stale = run_fresh()
    assert stale.code == 1, stale.stderr
    assert "of format 'lexgraph-anchor-field/0'" in stale.stderr and "--rebuild-anchors" in stale.stderr
    # and `lexgraph index` builds it again (a record it cannot read is not up to date)
    rebuilt = lexgraph("index", "--store", uri, "--json")
    assert rebuilt.code == 0 and rebuilt.json()["statute_anchors"] > 100, rebuilt.stderr
    assert run_fresh().json()["clauses"] == good.json()["clauses"]


def test_a_write_killed_before_its_record_leaves_the_file_written_before(
        neo4j_store: GraphStore, source: Path, anchor_cache: Path, tmp_path: Path) -> None:
    """The chunks of a new content go in first; until its record is switched, a search reads the old content whole,
    and the next write removes the stray chunks."""
    uri = copy_and_index(source)
    before = lexgraph("search", QUESTIONS[1], "--store", uri, "--json", subprocess=True)
    assert before.code == 0, before.stderr
    with neo4j_store.transaction() as tx:  # what a killed write leaves: a chunk of another content, no record
        tx.query("index_file_chunk_write", name=FIELD_FILE, sha256="0" * 64, seq=0, data=b"\x01" * CHUNK_BYTES)
    after = lexgraph("search", QUESTIONS[1], "--store", uri, "--json", subprocess=True,
                     env={ANCHOR_CACHE_ENV: str(tmp_path / "fresh")})
    assert after.code == 0 and after.json()["clauses"] == before.json()["clauses"], after.stderr
    put_file(neo4j_store, source / "index" / FIELD_FILE, name=FIELD_FILE, format="lexgraph-anchor-field/1")
    left = neo4j_store.run_read_only("MATCH (c:IndexFileChunk {name: $name}) RETURN DISTINCT c.sha256 AS sha",
                                     {"name": FIELD_FILE})
    assert [row["sha"] for row in left] == [sha256(source / "index" / FIELD_FILE)]
    assert json.loads(json.dumps(before.json()["clauses"]))  # the search found clauses at all
