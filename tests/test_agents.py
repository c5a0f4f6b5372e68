"""The multi-agent methods' control flow over a real HTTP server with scripted replies: debate rounds and
thresholds, the vote's run-off, division hand-offs, repairs of broken intermediate outputs, and `eval mcqa`'s
report. The questions are real lawqa_jp questions (tests/data/lawqa)."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lexgraph.answer.agents import LABELS, VOTER_ORDERS, VOTERS, MCQAItem, parse_choices, solve
from lexgraph.eval.lawqa import load_lawqa
from lexgraph.eval.mcqa import items_from_lawqa
from lexgraph.llm.client import LLMClient, LLMConfig
from tests.helpers import lexgraph
from tests.llm_server import smollm2_server
from tests.openai_server import Reply, ScriptedOpenAI

LAWQA = Path(__file__).parent / "data" / "lawqa" / "dev_sample.json"
SHARED_DEV = Path(__file__).parents[2] / "shared" / "data" / "lawqa_jp" / "dev.json"


@pytest.fixture(scope="module")
def item() -> MCQAItem:
    return items_from_lawqa(load_lawqa(LAWQA))[0]  # 借地契約の存続期間について「誤っているもの」: gold c


@pytest.fixture
def server() -> Iterator[ScriptedOpenAI]:
    replies: list[Reply] = []
    with ScriptedOpenAI([Reply("{}")]) as scripted:
        scripted.replies = replies
        yield scripted


def script(server: ScriptedOpenAI, *contents: str) -> LLMClient:
    server.replies[:] = [Reply(c) for c in contents]
    return LLMClient(LLMConfig(model="scripted", base_url=server.url, api_key="t", max_retries=0, timeout=10))


def answer(label: str, reason: str = "理由") -> str:
    return json.dumps({"answer": label, "reason": reason}, ensure_ascii=False)


def moderator(agreement: float, label: str | None) -> str:
    return json.dumps({"agreement": agreement, "summary": "まとめ", "answer": label}, ensure_ascii=False)


def prompts(server: ScriptedOpenAI) -> list[str]:
    return [r["messages"][-1]["content"] for r in server.requests]


def test_choices_and_the_wrong_statement_question_are_recognised(item: MCQAItem) -> None:
    assert list(item.choices) == ["a", "b", "c", "d"] and item.answer == "c"
    assert item.asks_for_wrong
    assert parse_choices("ａ　一つ目\n続き\nb 二つ目") == {"a": "一つ目続き", "b": "二つ目"}


def test_baseline_tells_the_agent_to_find_the_wrong_statement(server: ScriptedOpenAI, item: MCQAItem) -> None:
    result = solve(script(server, answer("c")), item, "baseline", "借地権の存続期間は、三十年とする。")
    assert result.label == "c" and result.error is None
    assert "「誤っているもの」を選ぶ問題" in prompts(server)[0] and "<statutes>" in prompts(server)[0]


@pytest.mark.parametrize(("tau", "rounds", "expected"), [(0.8, 2, "c"), (0.98, 3, "b")])
def test_debate_ends_at_the_threshold_or_the_moderator_decides(server: ScriptedOpenAI, item: MCQAItem, tau: float,
                                                               rounds: int, expected: str) -> None:
    replies = [answer("c"), answer("a"), moderator(0.5, None),   # round 1: disagreement
               answer("c"), answer("c"), moderator(0.9, "c"),    # round 2: 0.9 ends it at τ = 0.8
               answer("c"), answer("c"), moderator(0.95, "c"),   # round 3: 0.95 < 0.98
               answer("b")]                                      # the moderator decides
    result = solve(script(server, *replies), item, "debate", "条文", tau=tau)
    agents = [step.agent for step in result.trace]
    assert result.label == expected
    assert agents[-1] == ("moderator-2" if rounds == 2 else "moderator-decision")
    assert sum(a.startswith("moderator-") and a[-1].isdigit() for a in agents) == rounds
    assert "A（第1回）: c" in prompts(server)[1]  # B answers A's argument


def test_vote_counts_in_dataset_labels_and_breaks_a_tie_with_a_run_off(server: ScriptedOpenAI,
                                                                        item: MCQAItem) -> None:
    wanted = ["a", "a", "c", "c", "b"]  # dataset labels: a 2-2-1 tie between a and c
    shown = [LABELS[order.index(label)] for order, label in zip(VOTER_ORDERS, wanted, strict=True)]
    result = solve(script(server, *[answer(s) for s in shown], answer("c")), item, "vote", "条文", runoff="judge")
    assert result.label == "c"
    assert [s.agent for s in result.trace][-1] == "runoff"
    runoff = prompts(server)[-1]
    assert "投票がaとcで同数" in runoff
    choices = runoff.split("<choices>")[1].split("</choices>")[0]
    assert choices.strip().startswith("a ") and "\nc " in choices and "\nb " not in choices
    temperatures = [r["temperature"] for r in server.requests[:5]]
    assert temperatures == sorted(set(temperatures))  # five different temperatures


def test_a_runoff_choosing_outside_the_two_is_refused(server: ScriptedOpenAI, item: MCQAItem) -> None:
    wanted = ["a", "a", "c", "c", "b"]
    shown = [LABELS[order.index(label)] for order, label in zip(VOTER_ORDERS, wanted, strict=True)]
    result = solve(script(server, *[answer(s) for s in shown], answer("d"), answer("a")), item, "vote", "条文",
                   runoff="judge")
    assert result.label == "a" and result.trace[-1].attempts == 2
    assert "'d' must be one of a, c" in result.trace[-1].errors[0]


def test_syllogism_division_hands_each_output_on(server: ScriptedOpenAI, item: MCQAItem) -> None:
    norm = json.dumps({"norm": "借地権の存続期間は三十年", "norm_clause": "借地借家法第三条"}, ensure_ascii=False)
    application = json.dumps({"application": "c は四十年と定めても三十年になるとするので誤り"}, ensure_ascii=False)
    conclusion = json.dumps({"conclusion": "c が誤り", "answer": "c"}, ensure_ascii=False)
    result = solve(script(server, "規範は次のとおり {", norm, application, conclusion), item, "syllogism-division",
                   "条文")
    assert result.label == "c" and [s.agent for s in result.trace] == ["norm", "application", "conclusion"]
    assert result.trace[0].attempts == 2 and "not valid JSON" in result.trace[0].errors[0]  # repaired hand-off
    sent = prompts(server)
    assert "借地借家法第三条：借地権の存続期間は三十年" in sent[2]  # the application agent got the norm
    assert "c は四十年と定めても" in sent[3] and "<norm>" in sent[3]  # the conclusion agent got both


def test_elimination_division_keeps_the_choice_among_the_remaining(server: ScriptedOpenAI, item: MCQAItem) -> None:
    excluded = json.dumps({"excluded": [{"label": "a", "reason": "三十年になる"}], "remaining": ["b", "c", "d"]},
                          ensure_ascii=False)
    result = solve(script(server, excluded, answer("a"), answer("c")), item, "elimination-division", "条文")
    assert result.label == "c"
    assert "'a' must be one of b, c, d" in result.trace[-1].errors[0]
    chooser = prompts(server)[1]
    assert "\na " not in chooser.split("<choices>")[1].split("</choices>")[0]  # only the remaining are shown


def test_a_broken_hand_off_that_stays_broken_fails_the_question_with_its_error(server: ScriptedOpenAI,
                                                                               item: MCQAItem) -> None:
    result = solve(script(server, "壊れた出力"), item, "syllogism", "条文", max_repairs=1)
    assert result.label is None and "syllogist" in (result.error or "") and result.trace[0].attempts == 2


def test_eval_mcqa_report_and_a_rerun_from_its_config(tmp_path: Path) -> None:
    """A model that always answers the first choice shown: its accuracy is the share of gold 'a', and across the
    four choice orders it is never consistent."""
    store = tmp_path / "store"
    assert lexgraph("ingest", "statutes", Path(__file__).parents[1] / "lexgraph" / "data" / "sample" /
                    "403AC0000000090_snapshot20201118.xml", store=store).code == 0
    with ScriptedOpenAI([Reply(answer("a"))]) as server:
        env = {"LEXGRAPH_LLM_MODEL": "scripted", "OPENAI_BASE_URL": server.url, "LEXGRAPH_LLM_RETRIES": "0"}
        run = lexgraph("eval", "mcqa", "--dataset", LAWQA, "--method", "baseline", "--use-context", "--randomized",
                       "--limit", "3", "--report", tmp_path / "report", "--json", store=store, env=env)
        assert run.code == 0, run.stderr
        again = lexgraph("eval", "mcqa", "--config", tmp_path / "report" / "config.json", "--json", store=store,
                         env=env)
    assert again.code == 0, again.stderr
    first = run.json()["methods"][0]
    assert first["runs"] == 12 and first["consistency"] == 0.0
    gold = [q.answer for q in load_lawqa(LAWQA)[:3]]
    orders = ["abcd", "bcda", "cdab", "dabc"]
    expected = sum(order[0] == g for g in gold for order in orders) / 12
    assert first["accuracy"] == pytest.approx(expected)
    assert again.json()["methods"][0]["accuracy"] == first["accuracy"]
    files = {p.name for p in (tmp_path / "report").iterdir()}
    assert files == {"config.json", "metrics.json", "details.csv", "accuracy.png"}
    rows = list(csv.DictReader((tmp_path / "report" / "details.csv").read_text(encoding="utf-8").splitlines()))
    assert len(rows) == 12 and all(json.loads(r["trace"])[0]["agent"] == "agent" for r in rows)
    assert (tmp_path / "report" / "accuracy.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_eval_mcqa_without_a_model_exits_3(tmp_path: Path) -> None:
    run = lexgraph("eval", "mcqa", "--dataset", LAWQA, env={"LEXGRAPH_LLM_MODEL": ""})
    assert run.code == 3 and "LEXGRAPH_LLM_MODEL" in run.stderr


@pytest.mark.slow
def test_vote_with_smollm2_runs_end_to_end_and_writes_a_complete_report(tmp_path: Path) -> None:
    """The accuracy of a 135M model on Japanese law is poor; the point is that the run completes and is recorded."""
    dataset = SHARED_DEV if SHARED_DEV.is_file() else LAWQA
    store = tmp_path / "store"
    assert lexgraph("ingest", "statutes", Path(__file__).parents[1] / "lexgraph" / "data" / "sample" /
                    "403AC0000000090_snapshot20201118.xml", store=store).code == 0
    with smollm2_server() as url:
        run = lexgraph("eval", "mcqa", "--dataset", dataset, "--method", "vote", "--use-context", "--limit", "2",
                       "--max-repairs", "0", "--report", tmp_path / "report", "--json", store=store, timeout=1800,
                       env={"LEXGRAPH_LLM_MODEL": "smollm2", "OPENAI_BASE_URL": url, "LEXGRAPH_LLM_RETRIES": "0",
                            "LEXGRAPH_LLM_MAX_TOKENS": "96", "LEXGRAPH_LLM_TIMEOUT": "300"})
    assert run.code == 0, run.stderr
    method: dict[str, Any] = run.json()["methods"][0]
    assert method["runs"] == 2 and len(method["results"]) == 2
    assert all(r["label"] in ("a", "b", "c", "d") or r["error"] for r in method["results"])
    metrics = json.loads((tmp_path / "report" / "metrics.json").read_text(encoding="utf-8"))
    assert metrics["methods"]["vote"]["runs"] == 2 and metrics["model"] == "smollm2"
    details = (tmp_path / "report" / "details.csv").read_text(encoding="utf-8").splitlines()
    assert len(list(csv.DictReader(details))) == 2


def test_a_vote_tie_goes_to_a_new_vote_of_the_five_between_the_top_two(server: ScriptedOpenAI,
                                                                        item: MCQAItem) -> None:
    """The paper's run-off: the five voters vote again, shown only the two tied choices; no judge."""
    wanted = ["a", "a", "c", "c", "b"]  # dataset labels: a 2-2-1 tie between a and c
    shown = [LABELS[order.index(label)] for order, label in zip(VOTER_ORDERS, wanted, strict=True)]
    again = ["c", "c", "a", "c", "a"]  # the second round, in dataset labels: c wins 3-2
    shown_again = [LABELS[order.index(label)] for order, label in zip(VOTER_ORDERS, again, strict=True)]
    llm = script(server, *[answer(s) for s in [*shown, *shown_again]])
    result = solve(llm, item, "vote", "条文", runoff="vote", temperature=0.0)
    assert result.label == "c"
    assert [s.agent for s in result.trace][5:] == [f"voter-{role}-runoff" for role, _, _ in VOTERS]
    for prompt, order in zip(prompts(server)[5:], VOTER_ORDERS, strict=True):
        choices = prompt.split("<choices>")[1].split("</choices>")[0]
        visible = sorted(LABELS[order.index(label)] for label in ("a", "c"))
        assert [line[0] for line in choices.strip().splitlines()] == visible
    assert {r["temperature"] for r in server.requests} == {0.0}


def test_elimination_must_remove_exactly_the_number_asked(server: ScriptedOpenAI, item: MCQAItem) -> None:
    one = json.dumps({"excluded": [{"label": "a", "reason": "三十年になる"}], "remaining": ["b", "c", "d"],
                      "answer": "c", "reason": "r"}, ensure_ascii=False)
    two = json.dumps({"excluded": [{"label": "a", "reason": "三十年"}, {"label": "b", "reason": "更新"}],
                      "remaining": ["c", "d"], "answer": "c", "reason": "r"}, ensure_ascii=False)
    result = solve(script(server, one, two), item, "elimination", "条文", eliminate=2)
    assert result.label == "c" and result.trace[0].attempts == 2
    assert "exclude exactly 2 choices, not 1" in result.trace[0].errors[0]
    assert "ちょうど2つの選択肢を" in prompts(server)[0]


def test_the_single_agents_get_the_papers_worked_examples_word_for_word() -> None:
    """Figures 1-3 of the multi-agent paper, as its text prints them (../shared/seeds when present)."""
    from lexgraph.answer.agents import EXAMPLE, worked_example

    baseline, syllogism, elimination = (worked_example(m, "paper") for m in ("baseline", "syllogism", "elimination"))
    assert "外国会社が有価証券報告書を提出する場合の期限として、正しいものを教えてください。" in baseline
    assert "【Answer】 b" in baseline and "■ 事実のあてはめ:" in syllogism and "二択： c vs d" in elimination
    assert worked_example("debate", "paper") == "" and worked_example("syllogism", "lexgraph") == ""
    assert worked_example("baseline", "lexgraph") == EXAMPLE
    seed = Path(__file__).parents[2] / "shared" / "seeds" / "004_525ae72b640621b8.txt"
    if seed.exists():
        text = seed.read_text(encoding="utf-8")
        for shown in (baseline, syllogism, elimination):
            figure = shown.split("<example>\n")[1].split("\n</example>")[0]
            assert figure in text


def test_an_unknown_example_source_is_refused(server: ScriptedOpenAI, item: MCQAItem) -> None:
    with pytest.raises(ValueError, match="examples must be one of paper, lexgraph"):
        solve(script(server), item, "baseline", "条文", examples="mine")
