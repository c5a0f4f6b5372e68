"""Answers no surer than the store: every clause a generated answer names is resolved as `lexgraph cite` resolves it,
what the search finds reaches the model, placeholders never do, graph evidence needs relevance to the question,
options that cannot act say so, and a read command writes nothing to the store.

The store is the bundled sample (民法 2020 and 2023, 借地借家法, 個人情報保護法) with the judgments of
tests/data/precedents and their metadata (the 判決要旨 of the エホバの証人輸血事件, 最判平成12年2月29日, among them),
built through the real CLI; the model is tests/openai_server.py, a real HTTP server with scripted replies. The same
checks run on Neo4j (``LEXGRAPH_TEST_NEO4J_URI``) in `test_the_same_on_neo4j`.
"""

from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lexgraph.client import LexGraph
from lexgraph.store.base import GraphStore
from tests.helpers import ROOT, SAMPLE, SEED_CACHE, lexgraph
from tests.openai_server import Reply, ScriptedOpenAI

JUDGMENTS = ROOT / "tests" / "data" / "precedents"
METADATA = JUDGMENTS / "sample_supreme_court_metadata.jsonl"
TRANSFUSION = "医師の説明義務違反による不法行為責任"
TRANSFUSION_UID = "hanrei:52218"  # 最判平成12年2月29日 民集54巻2号582頁, whose 判決要旨 the metadata holds
LEASE = "借地権の存続期間は何年か"
NO_SUCH_CLAUSE = "民法第九千条により、借地権の存続期間は三十年である。"


def build(store: Path) -> None:
    """The sample statutes, the judgments with their metadata, and the search indexes, through the CLI."""
    assert lexgraph("ingest", "statutes", SAMPLE, store=store).code == 0
    run = lexgraph("ingest", "precedents", JUDGMENTS, METADATA, "--json", store=store)
    assert run.code == 0, run.stderr
    (store / "cache").mkdir()
    shutil.copy(SEED_CACHE, store / "cache" / SEED_CACHE.name)
    assert lexgraph("index", "--law", "民法", "--law", "借地借家法", store=store).code == 0
    assert lexgraph("index", "--kind", "chunk", store=store).code == 0


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("honest") / "store"
    build(folder)
    return folder


def prompt_references(body: dict[str, Any], tag: str) -> list[dict[str, Any]]:
    """One reference list of the prompt (`<laws>`, `<precedents>`), as the model reads it."""
    import re

    for message in body["messages"]:
        found = re.search(rf"<{tag}>\n(.*?)\n</{tag}>", message["content"], re.DOTALL)
        if found:
            return list(json.loads(found.group(1)))
    return []


def citing_first_law(*texts: str) -> Reply:
    """A reply whose sentences cite the prompt's first clause, whatever number it was given."""
    def content(body: dict[str, Any]) -> str:
        law = prompt_references(body, "laws")[0]["id"]
        return json.dumps({"sentences": [{"text": text, "citations": [law]} for text in texts],
                           "conclusion": {"text": "原則として三十年です。", "citations": [law]}, "caveats": []},
                          ensure_ascii=False)
    return Reply(content)


def model_env(server: ScriptedOpenAI) -> dict[str, str]:
    return {"LEXGRAPH_LLM_MODEL": "scripted", "OPENAI_BASE_URL": server.url, "OPENAI_API_KEY": "test",
            "LEXGRAPH_LLM_RETRIES": "0"}


# -- answers checked clause by clause --------------------------------------------------------------------------------

def test_a_sentence_naming_a_clause_that_does_not_exist_is_flagged(store: Path, tmp_path: Path) -> None:
    held = "借地借家法第三条により、存続期間は三十年である。"
    with ScriptedOpenAI([citing_first_law(NO_SUCH_CLAUSE, held)]) as server:
        run = lexgraph("ask", LEASE, "--law", "借地借家法", "--as-of", "2021-01-01", "--json",
                       "--log", str(tmp_path / "turns.jsonl"), store=store, env=model_env(server))
        screen = lexgraph("ask", LEASE, "--law", "借地借家法", "--as-of", "2021-01-01",
                          "--log", str(tmp_path / "turns.jsonl"), store=store, env=model_env(server))
    assert run.code == 0 and screen.code == 0, run.stderr + screen.stderr
    answer = run.json()
    wrong, right = answer["sentences"]
    assert wrong["citations"] and wrong["basis"] == "flagged", "citing [LAW 1] does not back 民法第九千条"
    assert [(m["surface"], m["status"]) for m in wrong["mentions"]] == [("民法第九千条", "unresolved")]
    assert wrong["flags"] and "no such clause" in wrong["flags"][0]
    assert right["basis"] == "cited" and not right["flags"], "a clause the store holds is not flagged"
    assert [m["surface"] for m in right["mentions"]] == ["借地借家法第三条"]
    assert answer["flagged"] == [NO_SUCH_CLAUSE]
    lines = screen.stdout.splitlines()
    flagged_at = next(i for i, line in enumerate(lines) if NO_SUCH_CLAUSE in line)
    assert "要確認" in lines[flagged_at + 1] and "民法第九千条" in lines[flagged_at + 1]
    assert sum("要確認" in line for line in lines) == 1


# -- what search finds reaches the answer ---------------------------------------------------------------------------

def gist_chunk(store: Path) -> dict[str, Any]:
    """The 判決要旨 chunk of the エホバの証人輸血事件 as `search` ranks it for the question."""
    found = lexgraph("search", TRANSFUSION, "--json", store=store).json()
    chunk = found["chunks"][0]
    assert (chunk["owner"], chunk["path"]) == (TRANSFUSION_UID, "判決要旨") and "輸血" in chunk["text"], chunk
    return chunk


def test_the_judgment_search_ranks_first_is_a_reference_the_model_sees(store: Path, tmp_path: Path) -> None:
    chunk = gist_chunk(store)
    with ScriptedOpenAI([citing_first_law("医師は説明義務を負う。")]) as server:
        run = lexgraph("ask", TRANSFUSION, "--log", str(tmp_path / "turns.jsonl"), store=store,
                       env=model_env(server))
        sent = prompt_references(server.requests[0], "precedents")
    assert run.code == 0, run.stderr
    assert sent and sent[0]["text"] == chunk["text"], [p["title"] for p in sent]
    assert "2000-02-29" in sent[0]["title"] and "平成10年(オ)第1081号" in sent[0]["title"]
    assert not any("本文未収録" in p["text"] or not p["text"].strip() for p in sent), "a stub is never a reference"


def test_graph_evidence_needs_relevance_to_the_question(store: Path) -> None:
    """Judgments about other things cite 民法第七百九条: for 「成年年齢は何歳か」 it is no evidence, and no chunk
    below the floor (half the question's best hit) lends its rank to anything."""
    found = lexgraph("search", "成年年齢は何歳か", "--json", store=store).json()
    floor = found["relevance_floor"]
    best = max(found["clauses"][0]["score"], found["chunks"][0]["score"])
    assert floor == pytest.approx(best / 2, abs=1e-6)
    scores = {c["uid"]: c["score"] for c in found["chunks"]}
    lenders = {c["chunk"] for item in found["evidence"] for c in item["cited_by"]}
    assert all(scores.get(uid, 0) >= floor for uid in lenders), (floor, lenders)
    assert not any(item["path"].startswith("a709") for item in found["evidence"]), found["evidence"][:3]
    # the evidence leads with the direct search's own first clause, not one the judgments drew in
    assert found["evidence"][0]["uid"] == found["clauses"][0]["uid"] and found["evidence"][0]["direct_rank"] == 1
    # 第四条 leads the hybrid's ranking; the learned model (the default), which reads the anchors and ranks
    # articles, puts 第七百九十二条 (成年に達した者は、養子をすることができる) before it on this sample
    assert "a4/p1" in [item["path"] for item in found["evidence"][:2]]
    hybrid = lexgraph("search", "成年年齢は何歳か", "--mode", "hybrid", "--json", store=store).json()
    assert hybrid["evidence"][0]["path"] == "a4/p1"
    assert hybrid["relevance_floor"] == found["relevance_floor"]  # the learned clauses carry the hybrid's scores
    # a question the judgments are about keeps its graph evidence
    found = lexgraph("search", "相続人に対する特別寄与料の請求", "--json", store=store).json()
    assert any(item["graph_rank"] and item["direct_rank"] is None for item in found["evidence"])


def hits(scores: list[float], kind: str) -> list[Any]:
    from lexgraph.index.query import IndexHit
    from lexgraph.retrieve.retrievers import Retrieved

    def unread() -> Any:
        raise AssertionError("the floor reads scores only")

    ordered = sorted(scores, reverse=True)
    return [Retrieved(IndexHit(f"{kind}{i}", s, unread), s, i + 1) for i, s in enumerate(ordered)]


@given(st.lists(st.floats(0, 100, allow_nan=False, allow_subnormal=False), max_size=8),
       st.lists(st.floats(0, 100, allow_nan=False, allow_subnormal=False), min_size=1, max_size=8),
       st.floats(0.01, 100))
def test_the_relevance_floor_is_relative_to_the_questions_own_hits(clauses: list[float], chunks: list[float],
                                                                   scale: float) -> None:
    """Half the best score the question's own hits reached: the best hit always passes, and scaling every score
    (another retriever's scale) lets the same chunks lend their ranks: no fixed number is hidden in it."""
    from lexgraph.retrieve.search import relevance_floor

    floor = relevance_floor(hits(clauses, "clause"), hits(chunks, "chunk"))
    best = max([*clauses, *chunks])
    if best <= 0:
        assert floor is None
        return
    assert floor == pytest.approx(best / 2)
    if max(chunks) == best:  # the question's best hit is a chunk: it always lends its rank
        assert max(chunks) >= floor
    scaled = relevance_floor(hits([c * scale for c in clauses], "clause"), hits([c * scale for c in chunks], "chunk"))
    assert scaled is not None
    kept = [c >= floor for c in sorted(chunks, reverse=True)]
    kept_scaled = [c * scale >= scaled for c in sorted(chunks, reverse=True)]
    # the same chunks, but for a score within rounding of the floor itself
    assert all(a == b for a, b, c in zip(kept, kept_scaled, sorted(chunks, reverse=True), strict=True)
               if abs(c - floor) > 1e-9 * max(1.0, best))
    assert relevance_floor(hits(clauses, "clause"), []) is None  # no chunk: nothing drawn through the graph


# -- no silent no-ops -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("prompt", "mode"), [("focus-law", "arg-q"), ("rdf", "arg-qa")])
def test_options_a_model_would_use_say_they_have_no_effect_without_one(store: Path, tmp_path: Path, prompt: str,
                                                                       mode: str) -> None:
    log = str(tmp_path / "turns.jsonl")
    run = lexgraph("ask", LEASE, "--prompt", prompt, "--mode", mode, "--json", "--log", log, store=store,
                   env={"LEXGRAPH_LLM_MODEL": ""})
    assert run.code == 0, run.stderr
    said = run.json()["no_effect"]
    assert [note.split(":")[0] for note in said] == [f"--prompt {prompt}", f"--mode {mode}"]
    assert all("no effect without a model" in note for note in said)
    assert f"--prompt {prompt}: no effect" in run.stderr and f"--mode {mode}: no effect" in run.stderr
    plain = lexgraph("ask", LEASE, "--json", "--log", log, store=store, env={"LEXGRAPH_LLM_MODEL": ""})
    assert plain.json()["no_effect"] == [] and "no effect" not in plain.stderr  # the defaults say nothing


def referenced_record(day: dict[str, Any] | None = None) -> str:
    """The 輸血 case's metadata record (参照法条 民法709条，民法710条), on its own day or on `day`."""
    for line in METADATA.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record["lawsuit_id"] == TRANSFUSION_UID.removeprefix("hanrei:"):
            if day is not None:  # the same holding as if decided when the stored 民法 was in force
                record = {**record, "date": day, "lawsuit_id": "952218", "case_number": "令和3(オ)9999"}
            return json.dumps(record, ensure_ascii=False)
    raise AssertionError("the metadata no longer holds the 輸血 case")


def test_referenced_laws_are_linked_or_counted_with_the_reason(tmp_path: Path) -> None:
    store = tmp_path / "store"
    assert lexgraph("ingest", "statutes", SAMPLE, "--no-link", store=store).code == 0
    old = tmp_path / "old.jsonl"
    old.write_text(referenced_record() + "\n", encoding="utf-8")
    run = lexgraph("ingest", "precedents", old, "--json", store=store)
    assert run.code == 0, run.stderr
    summary = run.json()
    # decided 2000-02-29, and the store holds 民法 from 2020-04-01 only: no link, but both entries counted, with why
    assert summary["referenced_links"] == 0
    reasons = {reason: n for reason, n in summary["not_linked"].items() if reason.startswith("参照法条")}
    assert sum(reasons.values()) == 2 and all("not in force when cited" in reason for reason in reasons), reasons
    screen = lexgraph("ingest", "precedents", old, store=store)  # unchanged now: nothing counted again
    assert "参照法条 linked 0" in screen.stdout
    new = tmp_path / "new.jsonl"
    new.write_text(referenced_record({"era": "Reiwa", "year": 3, "month": 2, "day": 1}) + "\n", encoding="utf-8")
    run = lexgraph("ingest", "precedents", new, store=store)
    assert run.code == 0 and "参照法条 linked 2" in run.stdout, run.stdout + run.stderr
    rows = lexgraph("query", "MATCH (p:Precedent {uid: 'hanrei:952218'})-[r:REFERS_TO]->(c:Provision) "
                    "RETURN c.path AS path, r.surface AS surface ORDER BY path", "--json", store=store).json()
    assert [(r["path"], r["surface"]) for r in rows] == [("a709", "民法709条"), ("a710", "民法710条")]


def test_a_search_on_a_stale_index_names_the_stale_law(store: Path, tmp_path: Path) -> None:
    copy = tmp_path / "store"
    shutil.copytree(store, copy)
    fresh = lexgraph("search", "成年年齢は何歳か", "--json", store=copy)
    assert fresh.json()["stale_index"] == [] and "stale index" not in fresh.stderr
    # 民法 gains a revision (2020-05-16) after the index was built: the search does not see it, and says so
    revision = ROOT / "tests" / "data" / "egov" / "129AC0000000089_20200516_501AC0000000002.xml"
    assert lexgraph("ingest", "statutes", revision, "--no-link", store=copy).code == 0
    run = lexgraph("search", "成年年齢は何歳か", "--json", store=copy)
    assert run.code == 0, run.stderr
    assert run.json()["stale_index"] == [{"part": "law:129AC0000000089", "law_id": "129AC0000000089",
                                          "title": "民法"}]
    screen = lexgraph("search", "成年年齢は何歳か", store=copy)
    assert "stale index" in screen.stderr and "民法 (129AC0000000089)" in screen.stderr
    assert "lexgraph index" in screen.stderr
    # an answer built on that search says so in a caveat of lexgraph's
    answer = lexgraph("ask", "成年年齢は何歳か", "--json", "--log", str(tmp_path / "turns.jsonl"), store=copy,
                      env={"LEXGRAPH_LLM_MODEL": ""}).json()
    stale = [c for c in answer["caveats"] if "検索索引が古い" in c["text"]]
    assert len(stale) == 1 and "民法 (129AC0000000089)" in stale[0]["text"] and stale[0]["basis"] == "lexgraph"


def files_of(folder: Path) -> dict[str, bytes]:
    """Every file of a store folder, with its bytes."""
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def test_read_commands_write_nothing_to_the_store(store: Path, tmp_path: Path) -> None:
    """`ask` (extractive and with a model), `search`, `law show`, `cite --store`: not a byte of the store folder
    changes. The turn log is a file of the user's: --log, LEXGRAPH_TURN_LOG, else the user's data folder."""
    copy = tmp_path / "store"
    shutil.copytree(store, copy)
    before = files_of(copy)
    data = tmp_path / "data"
    env = {"LEXGRAPH_LLM_MODEL": "", "LEXGRAPH_TURN_LOG": "", "XDG_DATA_HOME": str(data)}
    assert lexgraph("ask", LEASE, store=copy, env=env).code == 0
    assert lexgraph("search", LEASE, store=copy).code == 0
    assert lexgraph("law", "show", "民法", "第七百九条", store=copy).code == 0
    assert lexgraph("cite", str(JUDGMENTS / "91244.txt"), store=copy).code == 0
    with ScriptedOpenAI([citing_first_law("借地権の存続期間は三十年である。")]) as server:
        assert lexgraph("ask", LEASE, store=copy, env={**model_env(server), "LEXGRAPH_TURN_LOG": "",
                                                       "XDG_DATA_HOME": str(data)}).code == 0
    assert files_of(copy) == before
    turns = (data / "lexgraph" / "turns.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["status"] for line in turns] == ["extractive", "answered"]


def test_the_turn_log_is_bounded(store: Path, tmp_path: Path) -> None:
    log = tmp_path / "turns.jsonl"
    env = {"LEXGRAPH_LLM_MODEL": "", "LEXGRAPH_TURN_LOG_MAX_MB": "0.001"}  # about 1 KB: every turn is more
    for _ in range(3):
        assert lexgraph("ask", LEASE, "--log", str(log), store=store, env=env).code == 0
    kept = [path.read_text(encoding="utf-8").splitlines() for path in (log, log.with_name("turns.jsonl.1"))]
    assert [len(lines) for lines in kept] == [1, 1]  # the last turn, and the one before it moved aside
    assert not log.with_name("turns.jsonl.2").exists()
    bad = lexgraph("ask", LEASE, "--log", str(log), store=store, env={**env, "LEXGRAPH_TURN_LOG_MAX_MB": "lots"})
    assert bad.code == 2 and "LEXGRAPH_TURN_LOG_MAX_MB" in bad.stderr


# -- the same on Neo4j ------------------------------------------------------------------------------------------------

@pytest.mark.neo4j
@pytest.mark.requires("neo4j")
def test_the_same_on_neo4j(neo4j_store: GraphStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On the Neo4j backend: the clause check, the judgment reaching the model, no stub as a reference, the floor,
    参照法条 counted, the stale index named, and asking writing nothing to the graph."""
    cache = tmp_path / "cache"
    cache.mkdir()
    shutil.copy(SEED_CACHE, cache / SEED_CACHE.name)
    monkeypatch.setenv("LEXGRAPH_CACHE_DIR", str(cache))
    monkeypatch.setenv("LEXGRAPH_TURN_LOG", str(tmp_path / "turns.jsonl"))
    lg = LexGraph(neo4j_store)
    assert lg.ingest_statutes([SAMPLE], link=False).versions_added == 4
    summary = lg.ingest_precedents([JUDGMENTS, METADATA])
    assert summary.referenced_links == 0 and sum(n for reason, n in summary.not_linked.items()
                                                 if reason.startswith("参照法条")) >= 2
    lg.index(laws=["民法", "借地借家法"])
    lg.index(kinds=["chunk"])
    before = neo4j_store.counts()

    found = lg.search("成年年齢は何歳か")
    assert found.floor is not None and not any(e.path.startswith("a709") for e in found.evidence)
    gist = lg.search(TRANSFUSION).chunks[0]
    assert (gist.unit.owner_uid, gist.unit.path) == (TRANSFUSION_UID, "判決要旨")

    with ScriptedOpenAI([citing_first_law(NO_SUCH_CLAUSE)]) as server:
        for name, value in model_env(server).items():
            monkeypatch.setenv(name, value)
        answer = lg.ask(LEASE, laws=["借地借家法"], as_of=date(2021, 1, 1))
        assert answer.sentences[0].basis == "flagged" and "no such clause" in answer.sentences[0].flags[0]
        answer = lg.ask(TRANSFUSION)
        sent = prompt_references(server.requests[-1], "precedents")
    assert sent[0]["text"] == gist.unit.text and not any("本文未収録" in p["text"] for p in sent)
    assert {r.uid for r in answer.references.of_kind("precedent")} >= {TRANSFUSION_UID}
    assert neo4j_store.counts() == before, "asking wrote to the graph"

    assert lg.stale_index() == ()
    lg.ingest_statutes([ROOT / "tests" / "data" / "egov" / "129AC0000000089_20200516_501AC0000000002.xml"],
                       link=False)
    assert [(p.law_id, p.title) for p in lg.search("成年年齢は何歳か").stale] == [("129AC0000000089", "民法")]
