"""`lexgraph ask` against a real, tiny, local model (SmolLM2-135M through xllamacpp and the openai client). It
speaks poor Japanese, which is the point: whatever it writes, the command ends with a schema-valid answer whose
citations are all among the references given, or with the clean retries-exhausted error, never a traceback; with
structured output on and off."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from lexgraph.llm.guardrails import load_schema
from tests.helpers import copy_store, lexgraph
from tests.llm_server import smollm2_server

pytestmark = pytest.mark.slow  # a real model writing answers: minutes on two cores


@pytest.fixture(scope="module")
def store(search_store_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_store(search_store_template, tmp_path_factory.mktemp("local-model") / "store")


@pytest.mark.parametrize("structured", ["1", "0"])
def test_smollm2_ends_with_a_valid_answer_or_a_clean_error(store: Path, tmp_path: Path, structured: str) -> None:
    log = tmp_path / "turns.jsonl"
    with smollm2_server() as url:
        run = lexgraph("ask", "借地権の存続期間は何年か", "--law", "借地借家法", "--references", "2",
                       "--max-repairs", "1", "--json", "--log", log, store=store, timeout=600,
                       env={"LEXGRAPH_LLM_MODEL": "smollm2", "OPENAI_BASE_URL": url, "OPENAI_API_KEY": "none",
                            "LEXGRAPH_LLM_STRUCTURED": structured, "LEXGRAPH_LLM_MAX_TOKENS": "256",
                            "LEXGRAPH_LLM_TIMEOUT": "300", "LEXGRAPH_LLM_RETRIES": "0"})
    assert "Traceback" not in run.stderr, run.stderr
    turn = json.loads(log.read_text(encoding="utf-8").splitlines()[-1])
    assert 1 <= len(turn["attempts"]) <= 2 and turn["prompts"]
    assert all(a["latency_s"] > 0 for a in turn["attempts"])
    if run.code == 0:
        answer = run.json()
        def statement(s: dict) -> dict:  # type: ignore[type-arg]
            return {"text": s["text"], "citations": s["citations"]}

        # The answer shows what lexgraph adds (attached citations, in-force caveats); the model's part is the reply.
        model_caveats = [statement(c) for c in answer["caveats"] if c["basis"] != "lexgraph"]
        body = {"sentences": [statement(s) for s in answer["sentences"]],
                "conclusion": statement(answer["conclusion"]), "caveats": model_caveats}
        assert not list(Draft202012Validator(load_schema("answer")).iter_errors(body))
        given = {ref["id"] for ref in answer["references"]}
        statements = [*answer["sentences"], answer["conclusion"], *answer["caveats"]]
        assert all(c in given for s in statements for c in (*s["citations"], *s["attached"]))
        assert all(s["basis"] != "model" or not s["citations"] for s in statements)
        assert turn["status"] == "answered" and not turn["attempts"][-1]["errors"]
    else:
        assert run.code == 3 and "no valid answer after 2 attempts" in run.stderr
        assert turn["status"] == "failed" and all(a["errors"] for a in turn["attempts"])
