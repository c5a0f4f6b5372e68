"""Judgments, books and guidelines into the graph through the real CLI: chunks, edges to the clause wording in
force on the document's date, precedent stubs filled in later, idempotence and honest problem reports."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers import ROOT, SAMPLE, lexgraph

JUDGMENTS = ROOT / "tests" / "data" / "precedents"
LITERATURE = ROOT / "tests" / "data" / "literature"
METADATA = ROOT / "tests" / "data" / "precedents" / "sample_supreme_court_metadata.jsonl"
CIVIL_2020 = "129AC0000000089_20200401_501AC0000000034"


@pytest.fixture(scope="module")
def statutes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    store = tmp_path_factory.mktemp("docs") / "statutes"
    assert lexgraph("ingest", "statutes", SAMPLE, "--no-link", store=store).code == 0
    return store


@pytest.fixture
def store(statutes: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "store"
    shutil.copytree(statutes, copy)
    return copy


def ingest(*args: str | Path, store: Path, kind: str = "precedents") -> dict:
    run = lexgraph("ingest", kind, *args, "--json", store=store)
    assert run.code == 0, run.stderr
    return run.json()


def test_a_judgment_cites_the_wording_in_force_on_its_date(store: Path) -> None:
    summary = ingest(JUDGMENTS / "91244.txt", store=store)  # 令和４年６月１７日: 民法７０９条
    assert summary["added"] == 1 and summary["chunks_written"] >= 2 and summary["clause_edges"] >= 1
    in_force = lexgraph("law", "show", "民法", "第七百九条", "--as-of", "2022-06-17", "--json", store=store).json()
    cited = lexgraph("law", "cited-by", "民法", "第七百九条", "--kind", "precedent", "--json", store=store).json()
    hits = [c for c in cited["cited_by"] if c["uid"] == "hanrei:91244"]
    assert hits and {c["clause_uid"] for c in hits} == {in_force["uid"]}
    assert {c["revision_id"] for c in hits} == {CIVIL_2020} == {in_force["revision_id"]}
    assert hits[0]["date"] == "2022-06-17" and hits[0]["court"] == "最高裁判所第二小法廷"
    # only the wording in force on a day, when asked
    assert lexgraph("law", "cited-by", "民法", "第七百九条", "--kind", "precedent", "--as-of", "2019-01-01",
                    "--json", store=store).code == 1  # 民法 is stored from 2020-04-01 only: not in force then
    shown = lexgraph("precedent", "show", "令和３年（オ）第２９３号の２", "--json", store=store).json()
    assert shown["uid"] == "hanrei:91244" and [c["path"] for c in shown["cites_clauses"]] == ["a709"]


def test_reingesting_changes_no_count(store: Path) -> None:
    ingest(JUDGMENTS, METADATA, store=store)
    before = lexgraph("stats", "--json", store=store).json()
    again = ingest(JUDGMENTS, METADATA, store=store)
    assert again["added"] == 0 and again["replaced"] == 0 and again["unchanged"] == again["files"]
    assert lexgraph("stats", "--json", store=store).json() == before
    assert before["nodes"]["Precedent"] >= 10 and before["relationships"]["PART_OF"] == before["nodes"]["Chunk"]
    assert before["relationships"]["CITES_ARTICLE"] >= 1


def test_a_judgment_without_a_header_is_ingested_with_its_problems_reported(store: Path) -> None:
    summary = ingest(JUDGMENTS / "50078.txt", store=store)  # starts with 主文: no case number, no date
    assert summary["added"] == 1 and summary["failures"] == []
    problems = summary["problems"][0]["problems"]
    assert any("no header" in p for p in problems) and any("no decision date" in p for p in problems)
    shown = lexgraph("precedent", "show", "50078", "--json", store=store).json()
    assert shown["date"] is None and shown["problems"] and shown["chunks"] > 0


@pytest.mark.parametrize("order", [("91120.txt", "90381.txt"), ("90381.txt", "91120.txt")])
def test_a_cited_precedent_is_a_stub_until_it_is_ingested(store: Path, order: tuple[str, str]) -> None:
    # 91120 (令和４年２月８日) cites 最高裁令和３年（医へ）第５号同年６月９日第三小法廷決定, which is 90381.
    first = ingest(JUDGMENTS / order[0], store=store)
    second = ingest(JUDGMENTS / order[1], store=store)
    if order[0] == "91120.txt":
        assert first["stubs_created"] >= 1 and second["stubs_filled"] == 1
    cited = lexgraph("precedent", "show", "90381", "--json", store=store).json()
    assert cited["stub"] is False and "hanrei:91120" in {row["uid"] for row in cited["cited_by"]}
    citing = lexgraph("precedent", "show", "91120", "--json", store=store).json()
    assert "hanrei:90381" in {row["uid"] for row in citing["cites_precedents"]}
    stubs = lexgraph("query", "MATCH (p:Precedent) WHERE p.stub AND p.date = date('2021-06-09') RETURN p.uid AS uid",
                     "--json", store=store).json()
    assert stubs == []  # filled in, not duplicated


def test_a_different_decision_of_the_same_day_is_not_taken_for_the_cited_one(store: Path) -> None:
    # 92361 cites 令和３年（あ）第５４号同年６月９日第一小法廷決定; 90381 is the 第三小法廷's of that day.
    ingest(JUDGMENTS / "90381.txt", JUDGMENTS / "92361.txt", store=store)
    citing = lexgraph("precedent", "show", "92361", "--json", store=store).json()
    targets = {row["uid"]: row for row in citing["cites_precedents"]}
    assert "hanrei:90381" not in targets
    assert any(row["stub"] and row["date"] == "2021-06-09" for row in targets.values())


def test_metadata_records_give_the_summary_chunks_and_referenced_clauses(store: Path) -> None:
    summary = ingest(METADATA, store=store)
    assert summary["added"] == 5 and summary["failures"] == []
    records = [json.loads(line) for line in METADATA.read_text(encoding="utf-8").splitlines() if line.strip()]
    with_gist = next(r for r in records if r.get("case_gist"))
    shown = lexgraph("precedent", "show", with_gist["lawsuit_id"], "--json", store=store).json()
    assert shown["summary"] == with_gist["case_gist"].strip() or shown["summary"]
    assert shown["chunks"] >= 1 and shown["reporter"]


def test_literature_from_a_registry_and_a_markdown_file(store: Path) -> None:
    summary = ingest(LITERATURE / "tax_demo", store=store, kind="literature")
    assert summary["added"] == 3 and summary["failures"] == [] and summary["chunks_written"] >= 3
    kinds = lexgraph("query", "MATCH (d:Document) RETURN d.kind AS kind, d.title AS title ORDER BY title",
                     "--json", store=store).json()
    assert {k["kind"] for k in kinds} >= {"guideline"}
    # 所得税法 is not in the sample store: its citations are counted as not linked, never dropped silently
    assert summary["citations"] > 0 and sum(summary["not_linked"].values()) > 0
    single = ingest(LITERATURE / "taxanswer-2506.md", "--kind", "guideline", store=store, kind="literature")
    assert single["added"] == 1


def test_bad_inputs_are_reported_and_the_rest_ingested(store: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"lawsuit_id": "1"}\n', encoding="utf-8")
    run = lexgraph("ingest", "precedents", JUDGMENTS / "91244.txt", broken, tmp_path / "missing.txt", "--json",
                   store=store)
    assert run.code == 1
    summary = run.json()
    messages = " ".join(f["message"] for f in summary["failures"])
    assert "broken.jsonl" in messages and "missing.txt" in messages
    assert summary["added"] == 1  # the good judgment still went in
    run = lexgraph("ingest", "literature", LITERATURE / "taxanswer-2506.md", "--kind", "novel", store=store)
    assert run.code == 2 and "--kind" in run.stderr


def test_two_copies_of_one_judgment_are_one_precedent(store: Path, tmp_path: Path) -> None:
    # The shared set holds 085547_hanrei.txt and 85547.txt: one lawsuit id, two extractions.
    folder = tmp_path / "judgments"
    folder.mkdir()
    text = (JUDGMENTS / "91244.txt").read_text(encoding="utf-8")
    (folder / "091244_hanrei.txt").write_text(text, encoding="utf-8")
    (folder / "91244.txt").write_text(text.replace("本件は、", "本件は，"), encoding="utf-8")
    first = ingest(folder, store=store)
    assert first["added"] == 1 and len(first["duplicates"]) == 1 and "091244_hanrei.txt" in first["duplicates"][0]
    again = ingest(folder, store=store)
    assert again["unchanged"] == 1 and again["replaced"] == 0


def test_stubs_counted_are_the_stubs_stored(tmp_path: Path) -> None:
    """The summary's `stubs_created` counts the stub nodes written: a decision cited by several judgments, or
    twice in one, is one stub (the bundled sample's judgments cite 3 decisions not in it)."""
    store = tmp_path / "store"
    assert lexgraph("ingest", "statutes", SAMPLE, store=store).code == 0
    summary = ingest(SAMPLE / "precedents", store=store)
    stored = lexgraph("query", "MATCH (p:Precedent) WHERE p.stub RETURN count(p) AS n", "--json", store=store)
    assert stored.code == 0, stored.stderr
    assert summary["stubs_created"] == stored.json()[0]["n"] > 0
    again = ingest(SAMPLE / "precedents", store=store)
    assert again["stubs_created"] == 0
