"""The context gold (tests/data/citations/context_gold.jsonl): citations whose law only the text around them
decides, drawn blind by scripts/pick_context_gold.py and annotated by hand. Its rows point at the judgments' own
text, and the extractor reads at least 98 % of them right (bench/context_gold.py prints the figure and the misses)."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from types import ModuleType

import pytest

from tests.helpers import ROOT, SHARED

GOLD = ROOT / "tests" / "data" / "citations" / "context_gold.jsonl"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("context_gold_bench", ROOT / "bench" / "context_gold.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_gold_is_well_formed() -> None:
    rows = [json.loads(line) for line in GOLD.read_text(encoding="utf-8").splitlines()]
    assert len(rows) >= 150 and len({r["id"] for r in rows}) == len(rows)
    for row in rows:
        assert row["class"] in ("same", "bare", "defined"), row
        assert (row["law_title"] is None) == (row["law_id"] is None and row["note"].startswith("no law")), row
        assert re.sub(r"\s", "", row["surface"]) in row["context"], row


@pytest.mark.requires("shared")
def test_the_gold_points_at_the_judgments_text() -> None:
    judgments = SHARED / "precedents" / "supreme_court"
    for row in map(json.loads, GOLD.read_text(encoding="utf-8").splitlines()):
        text = (judgments / row["doc"]).read_text(encoding="utf-8")
        assert text[row["start"]:row["end"]] == row["surface"], row


@pytest.mark.requires("shared")
def test_the_extractor_reads_the_law_of_98_percent() -> None:
    result = _bench().score(GOLD, SHARED / "precedents" / "supreme_court")
    assert result["accuracy"] >= 0.98, json.dumps(result["misses"], ensure_ascii=False)


def test_the_judge_of_a_row() -> None:
    """A law with an id needs that id; one outside the catalogue its title or number; 「no law」 no national law."""
    judge = _bench().judge
    row = {"start": 10, "end": 12, "law_title": "民法", "law_id": "129AC0000000089", "law_num": None}
    assert judge(row, [{"start": 10, "end": 12, "law_title": "民法", "law_id": "129AC0000000089",
                        "status": "resolved"}])[0]
    assert not judge(row, [{"start": 10, "end": 12, "law_title": "戸籍法", "law_id": "322AC0000000224",
                            "status": "resolved"}])[0]
    assert not judge(row, [])[0]
    none = {**row, "law_title": None, "law_id": None}
    assert judge(none, [])[0]
    assert judge(none, [{"start": 9, "end": 12, "law_title": "本件条例", "law_id": None, "status": "unresolved"}])[0]
    assert not judge(none, [{"start": 9, "end": 12, "law_title": "日本国憲法", "law_id": "321CONSTITUTION",
                             "status": "resolved"}])[0]
    numbered = {**row, "law_title": "国税犯則取締法", "law_id": None, "law_num": "明治三十三年法律第六十七号"}
    assert judge(numbered, [{"start": 10, "end": 12, "law_title": "間接国税犯則者処分法", "law_id": None,
                             "law_num": "明治三十三年法律第六十七号", "status": "unresolved"}])[0]


def test_the_picker_is_blind_and_repeatable(tmp_path: Path) -> None:
    """The picker imports nothing of lexgraph: it cannot choose by what the extractor finds."""
    source = (ROOT / "scripts" / "pick_context_gold.py").read_text(encoding="utf-8")
    assert "lexgraph" not in re.sub(r'""".*?"""', "", source, flags=re.S).replace("lexgraph's", "")
