"""Statute-internal references in ordinances, on strings picked from the whole 2020 e-Gov corpus.

- 法 / 令 in a 政令, 府令, 省令 or 規則 whose title names no Act: the catalogue holds what each ordinance says they
  mean (its definitions 「以下「法」という」, its enacting formula), read from the corpus by scripts/build_catalog.py;
- ranges and lists of paragraphs or items after an article, a range ending in 前項 / 前号, and a list of
  paragraphs after a bracketed aside (「第七条第一項（…）、第四項…及び第五項」).

The table ``tests/data/citations/statute_reference_tables.jsonl`` is made by
``scripts/pick_statute_reference_tables.py`` (seeded; each line has its law id and clause; the expected answer is
read by the script from the string itself, the ordinance's own definition, or the parsed law's structure, never
from lexgraph's extractor). Statutes: 出典 e-Gov法令検索 (no copyright, 著作権法第13条).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lexgraph.citations import Citation, CitationContext, extract
from lexgraph.read.citing import store_catalog
from lexgraph.statutes.catalog import Catalog
from lexgraph.statutes.egov import parse_law_xml
from lexgraph.statutes.enact import NamedLaw, laws_named
from lexgraph.store.embedded import EmbeddedStore
from tests.helpers import ROOT, lexgraph

TABLE = ROOT / "tests" / "data" / "citations" / "statute_reference_tables.jsonl"
ROWS = [json.loads(line) for line in TABLE.read_text(encoding="utf-8").splitlines() if line.strip()]
ORDINANCE_XML = ROOT / "tests" / "data" / "egov" / "422M60002000008_lawhub20201118_revision-unknown.xml"
ORDINANCE_ID = "422M60002000008"  # 防衛省の職員の育児休業等に関する省令 (平成二十二年防衛省令第八号)
IKUJI_ACT = "403AC0000000109"  # 国家公務員の育児休業等に関する法律
# 第二条 of that 省令, whole: its 法 is defined only in 第一条 (「…（以下この条及び次条において「法」という。）」).
SECOND_ARTICLE = ("法第二十七条第一項において準用する法第三条第一項ただし書の防衛省令で定める期間を考慮して"
                  "防衛省令で定める期間は、五十七日間とする。")


def _row_id(row: dict[str, Any]) -> str:
    return f"{row['class']}:{row['law_id']}:{row['at']}"


def _cited_at(row: dict[str, Any], catalog: Catalog | None = None) -> Citation:
    context = CitationContext(current_law_id=row["law_id"], current_path=row["at"],
                              **({"catalog": catalog} if catalog is not None else {}))
    found = extract(row["text"], context, precedents=False)
    start = row["start"]
    if row["class"] == "list_after_aside":  # the member after the bracket
        written = row["surface"]
        start += written.rindex("第")
    # the citation that holds the string: it starts earlier when it names its law (土地収用法第八十三条…)
    return next(c for c in found if c.start <= start < c.end)


def test_the_table_covers_every_class_with_real_strings() -> None:
    classes = {row["class"] for row in ROWS}
    assert classes == {"ordinance_act", "ordinance_order", "paragraph_range", "item_range", "range_to_previous",
                       "list_after_aside"}
    for row in ROWS:
        assert row["text"][row["start"]:row["start"] + len(row["surface"])] == row["surface"]


@pytest.mark.parametrize("row", [r for r in ROWS if r["class"].startswith("ordinance")], ids=_row_id)
def test_bare_ho_and_rei_in_an_ordinance_read_alone(row: dict[str, Any]) -> None:
    """The sentence alone, as `cite --in-law ORDINANCE --at CLAUSE` reads it: no definition in sight."""
    citation = _cited_at(row)
    assert (citation.law_id, citation.article, citation.status) == (
        row["expect"]["law_id"], row["expect"]["article"], "resolved"), citation


@pytest.mark.parametrize("row", [r for r in ROWS if not r["class"].startswith("ordinance")], ids=_row_id)
def test_ranges_and_lists_after_an_article(row: dict[str, Any]) -> None:
    """The numbers of the clauses (the law may be another one the sentence names: 「法人税法第八十一条の十五第一項から
    第三項まで」)."""
    citation = _cited_at(row)
    expect = row["expect"]
    assert {key: getattr(citation, key) for key in expect} == expect, citation
    if row["class"] != "list_after_aside":
        assert citation.surface.endswith("まで") and citation.path_to is not None, citation


# --- the enacting formula ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("statement", "expected"), [
    # 昭和四十八年大蔵省令第五号 (企業内容等の開示に関する内閣府令): the Act under its title of the day, no number.
    ("証券取引法第四条第一項ただし書、第二項ただし書及び第四項、第五条、第七条、第十三条第二項から第四項まで、第二十四条第一項"
     "から第三項まで、第二十四条の五第一項及び第二項、第二十五条第一項から第三項まで並びに証券取引法施行令第四条第一項及び第三項"
     "の規定に基づき、並びにこれらの法令を実施するため、有価証券の募集又は売出しの届出等に関する省令（昭和四十六年大蔵省令第三十二"
     "号）の全部を改正する省令を次のように定める。",
     # and the ordinance it replaces, which is no basis
     [NamedLaw("証券取引法"), NamedLaw("証券取引法施行令"),
      NamedLaw("有価証券の募集又は売出しの届出等に関する省令", "昭和四十六年大蔵省令第三十二号", basis=False)]),
    # 令和元年法務省令第四十二号 (表題部所有者不明土地の登記及び管理の適正化に関する法律施行規則): a law whose
    # coming into force it follows is no basis; 同法 refers back; 不動産登記法 is cut from 「並びに同法及び
    # 不動産登記法」 by the caller (`law_named`).
    ("表題部所有者不明土地の登記及び管理の適正化に関する法律（令和元年法律第十五号）の施行に伴い、並びに同法及び不動産登記法"
     "（平成十六年法律第百二十三号）第十五条の規定に基づき、表題部所有者不明土地の登記及び管理の適正化に関する法律施行規則を次の"
     "ように定める。",
     [NamedLaw("表題部所有者不明土地の登記及び管理の適正化に関する法律", "令和元年法律第十五号", basis=False),
      NamedLaw("並びに同法及び不動産登記法", "平成十六年法律第百二十三号")]),
], ids=["renamed-act", "coming-into-force"])
def test_laws_an_enacting_formula_names(statement: str, expected: list[NamedLaw]) -> None:
    assert list(laws_named(statement)) == expected


def test_the_parser_keeps_the_enacting_formula() -> None:
    law = parse_law_xml(ORDINANCE_XML.read_bytes(), ORDINANCE_XML.name)
    assert law.meta.enact_statement.startswith(
        "国家公務員の育児休業等に関する法律（平成三年法律第百九号）第二十七条第一項において準用する同法第三条第一項ただし書の規定"
        "に基づき、")
    assert [n.law_num for n in laws_named(law.meta.enact_statement)] == ["平成三年法律第百九号"]


def test_cite_in_an_ordinance_without_a_store(tmp_path: Path) -> None:
    path = tmp_path / "clause.txt"
    path.write_text(SECOND_ARTICLE, encoding="utf-8")
    run = lexgraph("cite", path, "--in-law", "防衛省の職員の育児休業等に関する省令", "--at", "第二条", "--json",
                   store=tmp_path / "absent")
    assert run.code == 0, run.stderr
    found = run.json()["citations"]
    assert [(c["surface"], c["law_id"], c["article"], c["status"]) for c in found] == [
        ("法第二十七条第一項", IKUJI_ACT, "27", "resolved"), ("法第三条第一項ただし書", IKUJI_ACT, "3", "resolved")]


def test_cite_in_an_ordinance_held_by_the_store(tmp_path: Path) -> None:
    """Ingested, the ordinance keeps its enacting formula on its Law node; a store that holds an ordinance the
    bundled catalogue lacks takes its parent from that formula."""
    store = tmp_path / "store"
    run = lexgraph("ingest", "statutes", ORDINANCE_XML, "--in-force-on", "2020-11-18", "--json", store=store)
    assert run.code == 0, run.stderr
    clause = tmp_path / "clause.txt"
    clause.write_text(SECOND_ARTICLE, encoding="utf-8")
    run = lexgraph("cite", clause, "--in-law", ORDINANCE_ID, "--at", "a2", "--json", store=store)
    assert run.code == 0, run.stderr
    assert {c["law_id"] for c in run.json()["citations"]} == {IKUJI_ACT}

    payload = Catalog.bundled().to_payload()
    payload["laws"] = [row for row in payload["laws"] if row[0] != ORDINANCE_ID]
    payload["parents"] = {k: v for k, v in payload["parents"].items() if k != ORDINANCE_ID}
    without = Catalog.from_payload(payload)
    assert without.by_id(ORDINANCE_ID) is None
    with EmbeddedStore(store, read_only=True) as opened:
        [row] = opened.query("law_by_id", law_id=ORDINANCE_ID)
        assert row["enact_statement"].startswith("国家公務員の育児休業等に関する法律（平成三年法律第百九号）")
        catalog = store_catalog(opened, without)
    parent = catalog.parent_of(ORDINANCE_ID)
    assert parent is not None and parent.law_id == IKUJI_ACT
    context = CitationContext(catalog=catalog, current_law_id=ORDINANCE_ID, current_path="a2")
    assert [c.law_id for c in extract(SECOND_ARTICLE, context, precedents=False)] == [IKUJI_ACT, IKUJI_ACT]
