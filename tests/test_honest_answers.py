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

from lexgraph.client import LexGraph
from lexgraph.llm.client import LLMClient, LLMConfig
from lexgraph.store.base import GraphStore
from tests.conftest import NEO4J_MARKS
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
    with ScriptedOpenAI([citing_first_law(NO_SUCH_CLAUSE, "借地借家法第三条により、存続期間は三十年である。")]) as server:
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
    assert found["evidence"][0]["path"] == "a4/p1"
    # a question the judgments are about keeps its graph evidence
    found = lexgraph("search", "相続人に対する特別寄与料の請求", "--json", store=store).json()
    assert any(item["graph_rank"] and item["direct_rank"] is None for item in found["evidence"])
