"""`lexgraph cite` and `lexgraph eval citations` through the real CLI, on real judgments and the shipped gold."""

from __future__ import annotations

import json
from pathlib import Path

from lexgraph.citations import CITE_JSON_KEYS, extract
from lexgraph.eval.citations import evaluate, load_gold
from tests.helpers import ROOT, lexgraph

JUDGMENTS = ROOT / "tests" / "data" / "precedents"
GOLD = ROOT / "tests" / "data" / "citations" / "dev_gold.jsonl"
LAWQA_GOLD = ROOT / "tests" / "data" / "citations" / "lawqa_relative_gold.jsonl"
CIVIL_2020 = "129AC0000000089_20200401_501AC0000000034"
CIVIL_2023 = "129AC0000000089_20230614_505AC0000000053"


def cite(*args: str | Path, store: Path) -> list[dict]:
    run = lexgraph("cite", *args, "--json", store=store)
    assert run.code == 0, run.stderr
    payload = run.json()
    assert list(payload) == ["citations"]
    return payload["citations"]


def civil_709(citations: list[dict]) -> dict:
    return next(c for c in citations if c["law_id"] == "129AC0000000089" and c["article"] == "709")


def test_the_judgment_date_picks_the_revision(sample_store: Path) -> None:
    # 令和４年６月１７日 判決: the 2020 revision of 民法 was in force; 令和５年１０月２６日 決定: the 2023 one.
    found = cite(JUDGMENTS / "91244.txt", store=sample_store)
    assert civil_709(found)["revision_id"] == CIVIL_2020
    # The store knows the 2023 revision in force only up to 2023-06-14: a 2023-10-26 decision's citations
    # of 民法 are unverified, with no revision claimed, and say why
    later = [c for c in cite(JUDGMENTS / "92453.txt", store=sample_store) if c["law_id"] == "129AC0000000089"]
    assert later and "resolved" not in {c["status"] for c in later}
    assert all(c["revision_id"] is None for c in later if c["status"] == "unverified")
    assert all("only up to 2023-06-14" in c["reason"] for c in later if c["status"] == "unverified")
    # --as-of overrides the date in the text
    assert civil_709(cite(JUDGMENTS / "91244.txt", "--as-of", "2023-06-14", store=sample_store))["revision_id"] \
        == CIVIL_2023


def test_output_is_the_contract_and_matches_the_library(sample_store: Path) -> None:
    text = (JUDGMENTS / "91244.txt").read_text(encoding="utf-8")
    found = cite(JUDGMENTS / "91244.txt", store=sample_store)
    assert all(list(c) == list(CITE_JSON_KEYS) for c in found)
    assert all(text[c["start"]:c["end"]] == c["surface"] for c in found)
    # Same spans and targets as the library without a store; the store adds revision ids only.
    plain = [c.to_json() for c in extract(text)]
    assert [(c["start"], c["end"], c["law_id"], c["article"]) for c in found] == \
        [(c["start"], c["end"], c["law_id"], c["article"]) for c in plain]
    # 民訴法３１２条１項 resolves through the bundled catalogue although 民事訴訟法 is not stored.
    assert any(c["law_title"] == "民事訴訟法" and c["article"] == "312" and c["paragraph"] == "1" for c in found)


def test_a_fresh_machine_resolves_names_without_a_store(tmp_path: Path) -> None:
    run = lexgraph("cite", JUDGMENTS / "91244.txt", "--json", store=tmp_path / "absent")
    assert run.code == 0, run.stderr
    found = run.json()["citations"]
    hit = civil_709(found)
    assert hit["status"] == "resolved" and hit["revision_id"] is None
    assert not (tmp_path / "absent").exists()  # citing never creates a store


def test_in_law_and_at_resolve_relative_references(tmp_path: Path) -> None:
    path = tmp_path / "clause.txt"
    path.write_text("前項の規定は、使用者又は監督者から被用者に対する求償権の行使を妨げない。", encoding="utf-8")
    found = cite(path, "--in-law", "民法", "--at", "第七百十五条第三項", store=tmp_path / "absent")
    assert [(c["surface"], c["article"], c["paragraph"]) for c in found] == [("前項", "715", "2")]


def test_bad_input_exits_non_zero_with_the_reason(tmp_path: Path) -> None:
    sjis = tmp_path / "sjis.txt"
    sjis.write_bytes("民法７０９条".encode("shift_jis"))
    run = lexgraph("cite", sjis, "--json", store=tmp_path / "absent")  # Shift_JIS is read, and said so
    assert run.code == 0 and "sjis.txt is Shift_JIS (CP932), not UTF-8: converted" in run.stderr
    assert [c["article"] for c in run.json()["citations"]] == ["709"]
    garbage = tmp_path / "garbage.txt"
    garbage.write_bytes(bytes(range(0x80, 0x100)))
    run = lexgraph("cite", garbage, store=tmp_path / "absent")
    assert run.code == 1 and "garbage.txt" in run.stderr and "iconv" in run.stderr
    run = lexgraph("cite", tmp_path / "missing.txt", store=tmp_path / "absent")
    assert run.code == 1 and "missing.txt" in run.stderr
    run = lexgraph("cite", sjis, "--at", "第一条", store=tmp_path / "absent")
    assert run.code == 2 and "--in-law" in run.stderr
    utf8 = tmp_path / "utf8.txt"
    utf8.write_text("前項の規定", encoding="utf-8")
    run = lexgraph("cite", utf8, "--in-law", "存在しない法律", store=tmp_path / "absent")
    assert run.code == 1 and "存在しない法律" in run.stderr


def test_eval_citations_reports_what_the_library_computes() -> None:
    # Each sentence alone, as `extract(s)` below reads it: the same on a fresh clone with no judgments beside it.
    run = lexgraph("eval", "citations", "--gold", GOLD, "--json", "--misses", "0", "--sentences-alone")
    assert run.code == 0, run.stderr
    expected = evaluate(load_gold(GOLD), lambda s: [c.to_json() for c in extract(s)]).to_json()
    assert run.json() == expected
    assert run.json()["precedent"]["target"]["f1"] >= 0.95


def test_eval_citations_resolves_against_the_store_given(sample_store: Path, tmp_path: Path) -> None:
    """`--store`, as every command that reads a store takes it: the gold read as `cite --store` reads a text."""
    from lexgraph import LexGraph

    run = lexgraph("eval", "citations", "--gold", GOLD, "--json", "--misses", "0", "--sentences-alone",
                   store=sample_store)
    assert run.code == 0, run.stderr
    with LexGraph.open(sample_store, read_only=True) as lg:
        expected = evaluate(load_gold(GOLD), lambda s: [c.to_json() for c in lg.cite_pieces([s], judgment_days=[])])
    assert run.json() == expected.to_json()
    absent = lexgraph("eval", "citations", "--gold", GOLD, "--sentences-alone", store=tmp_path / "absent")
    assert absent.code == 3 and "no store" in absent.stderr


def test_eval_citations_on_the_lawqa_gold() -> None:
    run = lexgraph("eval", "citations", "--gold", LAWQA_GOLD, "--json", "--misses", "0")
    assert run.code == 0, run.stderr
    assert run.json()["brackets"] == 132 and run.json()["accuracy"] >= 0.95


def test_eval_citations_names_a_bad_gold_line(tmp_path: Path) -> None:
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"sentence": "民法７０９条", "citations": []}) + "\n{not json\n", encoding="utf-8")
    run = lexgraph("eval", "citations", "--gold", gold)
    assert run.code == 1 and "gold.jsonl:2" in run.stderr
