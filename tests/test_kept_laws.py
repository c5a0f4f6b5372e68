"""The laws kept with the benchmark data (bench/data/egov, each with its source in SOURCE.md): the bytes are the
ones the source names, the file is the whole law, and it holds every gold article lawqa_jp's questions name in it,
so that `make corpus` and bench/retrieval_lawqa.py can score those questions."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from lexgraph.eval.benchmark import load_questions
from lexgraph.statutes.egov import parse_law_xml
from tests.helpers import ROOT, lexgraph

KEPT = ROOT / "bench" / "data" / "egov"
KINSHO = KEPT / "323AC0000000025_20230610_501AC0000000071.xml"
LAWQA_SAMPLE = ROOT / "tests" / "data" / "lawqa" / "dev_sample.json"


def test_each_kept_law_is_the_file_its_source_names() -> None:
    source = (KEPT / "SOURCE.md").read_text("utf-8")
    files = sorted(KEPT.glob("*.xml"))
    assert files == [KINSHO]
    for path in files:
        assert path.name in source and hashlib.sha256(path.read_bytes()).hexdigest() in source


def test_the_kept_kinsho_is_the_whole_law_and_holds_the_questions_gold() -> None:
    law = parse_law_xml(KINSHO.read_bytes(), KINSHO.name)
    assert (law.meta.title, law.meta.law_num) == ("金融商品取引法", "昭和二十三年法律第二十五号")
    main = [p.path for p in law.provisions if p.kind == "article" and not p.path.startswith("s")]
    # the main provision runs whole from 第一条 to 第二百二十六条 (its table of contents' last chapter ends there)
    numbers = {int(m.group(1)) for path in main if (m := re.fullmatch(r"a(\d+)(?:_\d+)*", path))}
    assert numbers == set(range(1, 227))
    paths = {p.path for p in law.provisions}
    gold = [path for q in load_questions(LAWQA_SAMPLE, None) for law_title, path in (*q.articles, *q.paragraphs)
            if law_title == "金融商品取引法"]
    assert len(gold) == 7 and set(gold) <= paths


def test_the_kept_kinsho_is_never_shown_in_force_since_it_was_read_before_its_day(tmp_path: Path) -> None:
    """e-Gov published this revision as scheduled (施行予定) for 2023-06-10 and the store holds no other: its
    wording is refused before that day and shown, labelled, from it, never as in force (nor "in force up to
    None")."""
    store = tmp_path / "store"
    assert lexgraph("ingest", "statutes", KINSHO, store=store).code == 0
    before = lexgraph("law", "show", "金融商品取引法", "第八条", "--as-of", "2020-01-01", store=store)
    assert before.code == 1 and "its wording on 2020-01-01 is not known" in before.stderr
    said = "scheduled (施行予定), day not fixed (its id gives 2023-06-10); not known in force on any day"
    assert f"is {said}" in before.stderr
    for day in ("2023-06-10", "2026-12-07"):
        run = lexgraph("law", "show", "金融商品取引法", "第八条", "--as-of", day, store=store)
        assert run.code == 0, run.stderr
        lines = run.stdout.splitlines()
        assert lines[2] == said
        assert "not known to be in force on" in lines[3] and "in force up to" not in run.stdout
        shown = lexgraph("law", "show", "金融商品取引法", "第八条", "--as-of", day, "--json", store=store).json()
        assert shown["status"] == "unknown" and "scheduled (施行予定)" in shown["reason"]
    # `law versions` says the same of the version (one text, `LawVersionInfo.period`), and never "not yet in force"
    versions = lexgraph("law", "versions", "金融商品取引法", "--json", store=store).json()["versions"]
    assert [v["period"] for v in versions] == [said]
    table = lexgraph("law", "versions", "金融商品取引法", store=store, env={"COLUMNS": "120"})
    assert "not known" in table.stdout and "not yet" not in table.stdout
