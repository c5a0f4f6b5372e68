"""Divisions (編章節款目), appendices (別表, 様式) and 各号 linked to their nodes, on both backends.

A division is a clause of kind ``division`` with a path that names it as a citation does (``ch3``, ``pt2/ch3/se1``)
and its title as its text; an appendix is numbered by its title (別表第一 → ``appdx_table1``); a 各号 citation is
linked to every item of that paragraph. All are decided as of the citing day by the one in-force decision. Real
laws: the package's sample (民法, 個人情報の保護に関する法律) and 海事代理士法 (tests/data/egov/SOURCE.md).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from lexgraph import LexGraph
from lexgraph.citations import CitationContext, extract
from lexgraph.store.base import GraphStore
from tests.helpers import ROOT, SAMPLE, lexgraph

KAIJI = ROOT / "tests" / "data" / "egov" / "326AC0000000032_lawhub20201118_revision-unknown.xml"  # 海事代理士法
KAIJI_ID = "326AC0000000032"
PRIVACY = SAMPLE / "415AC0000000057_20200126_430AC0000000080.xml"  # 個人情報の保護に関する法律
PRIVACY_ID = "415AC0000000057"
DAY = date(2020, 11, 18)  # the day the snapshot is known in force: later days are unknown, not in force


def _cited(lg: LexGraph, law: str, clause: str, on: date = DAY) -> dict[str, set[str]]:
    """What a clause cites on `on`: the cited paths by the surface that cites them."""
    out: dict[str, set[str]] = {}
    for link in lg.cites(law, clause, as_of=on).links:
        out.setdefault(link.surface, set()).add(link.other.path)
    return out


def test_appendices_and_each_item_are_linked(store: GraphStore) -> None:
    """海事代理士法 第一条 cites 別表第一 and 別表第二 (titled 別表第一　（第一条関係）, no e-Gov Num); 第十一条 cites
    第九条第一項各号, which is every item of 第九条第一項 (五号)."""
    lg = LexGraph(store)
    lg.ingest_statutes([KAIJI], in_force_on=date(2020, 11, 18))
    first = _cited(lg, KAIJI_ID, "第一条")
    assert first["別表第一"] == {"appdx_table1"} and first["別表第二"] == {"appdx_table2"}
    assert _cited(lg, KAIJI_ID, "第十一条")["第九条第一項各号"] == {f"a9/p1/i{n}" for n in range(1, 6)}
    names = store.run_read_only("MATCH (p:Provision) WHERE p.law_id = $law AND p.kind IN ['division', "
                                "'appdx_table'] RETURN p.path AS path, p.name AS name", {"law": KAIJI_ID})
    named = {row["path"]: row["name"] for row in names}
    assert named["ch2"] == "海事代理士法 第二章" and named["appdx_table1"] == "海事代理士法 別表第一"


def test_a_range_of_chapters_links_every_member(store: GraphStore) -> None:
    """個人情報の保護に関する法律 附則第一条: 「第四章から第六章まで」 links 第四章, 第五章 and 第六章; 第七十六条's
    「第四章」 links that chapter, at the citing clause's date."""
    lg = LexGraph(store)
    lg.ingest_statutes([PRIVACY])
    chapters = _cited(lg, PRIVACY_ID, "附則第一条", date(2020, 6, 1))["第四章から第六章まで"]
    assert chapters == {"ch4", "ch5", "ch6"}
    assert _cited(lg, PRIVACY_ID, "第七十六条", date(2020, 6, 1))["第四章"] == {"ch4"}


def test_cite_over_a_store_expands_each_item_and_says_why_a_target_is_missing(store: GraphStore) -> None:
    lg = LexGraph(store)
    lg.ingest_statutes([KAIJI], in_force_on=date(2020, 11, 18))
    found = {c.surface: c for c in lg.cite("第九条第一項各号に掲げる事項、別表第三及び第九章の規定、別表第二",
                                            in_law=KAIJI_ID, at="第十一条", as_of=DAY)}
    items = found["第九条第一項各号"]
    assert (items.path, items.path_to, items.item_to, items.part, items.reason) == (
        "a9/p1/i1", "a9/p1/i5", "5", "各号", None)
    assert "no 別表第三 in any stored version" in (found["別表第三"].reason or "")
    assert "no 第九章 in any stored version" in (found["第九章"].reason or "")
    assert found["別表第二"].reason is None and found["別表第二"].status == "resolved"
    before = {c.surface: c for c in lg.cite("別表第二", in_law=KAIJI_ID, at="第一条", as_of=date(1990, 1, 1))}
    assert "not linked" in (before["別表第二"].reason or "")  # the store cannot know that day's text


def test_without_a_store_each_item_stays_unexpanded_with_a_reason() -> None:
    found = extract("第九条第一項各号に掲げる事項", CitationContext.in_law(KAIJI_ID, "第十一条"))
    assert [(c.path, c.path_to, c.part) for c in found] == [("a9/p1", None, "各号")]
    assert "各号 not expanded" in (found[0].reason or "")


def test_a_division_written_without_its_part_is_read_where_the_clause_sits(sample_store: Path) -> None:
    """民法 第二百八十条 (第二編第三章第一節第二款): 「第三章第一節」 is 第二編's (pt2/ch3/se1), not 第四編第三章第一節;
    第六条第二項's 「第四編」 is pt4; the edges are seen through the CLI."""
    run = lexgraph("law", "cites", "民法", "第二百八十条", "--as-of", "2024-01-01", "--json", store=sample_store)
    assert run.code == 0, run.stderr
    assert {(f["surface"], f["path"], f["kind"]) for f in run.json()["links"]} >= {
        ("第三章第一節", "pt2/ch3/se1", "division")}
    run = lexgraph("law", "cites", "民法", "第六条", "--as-of", "2024-01-01", "--json", store=sample_store)
    assert ("第四編", "pt4") in {(f["surface"], f["path"]) for f in run.json()["links"]}


@pytest.mark.parametrize(("path", "title"), [("pt1", "第一編　総則"), ("pt1/ch2/se3", "第三節　行為能力"),
                                             ("pt4/ch3/se1", "第一節　実子")])
def test_the_parser_gives_divisions_their_place(path: str, title: str) -> None:
    from lexgraph.statutes.egov import parse_law_xml

    xml = SAMPLE / "129AC0000000089_20230614_505AC0000000053.xml"
    divisions = {p.path: p for p in parse_law_xml(xml.read_bytes(), xml.name).provisions if p.kind == "division"}
    assert divisions[path].title == title and divisions[path].text == title
    assert divisions[path].parent_path == (path.rpartition("/")[0] or None)


def test_relative_divisions_are_read_from_the_citing_clauses_place(sample_store: Path) -> None:
    """民法 第三百六十一条 (第二編第九章第三節 不動産質): 「この節」 is that section (pt2/ch9/se3) and
    「次章（抵当権）」 the chapter after 第九章 (pt2/ch10); 第九百十九条 (第五編): 「前編（親族）」 is pt4;
    第四百二十八条 (第三編第一章第三節第二款): 「次款（連帯債権）」 is
    pt3/ch1/se3/ss3. Linked at ingest, seen through the CLI."""
    expected = {("第三百六十一条", "この節"): "pt2/ch9/se3", ("第三百六十一条", "次章"): "pt2/ch10",
                ("第九百十九条", "前編"): "pt4", ("第四百二十八条", "次款"): "pt3/ch1/se3/ss3"}
    for (clause, surface), path in expected.items():
        run = lexgraph("law", "cites", "民法", clause, "--as-of", "2024-01-01", "--json", store=sample_store)
        assert run.code == 0, run.stderr
        assert (surface, path, "division") in {(f["surface"], f["path"], f["kind"]) for f in run.json()["links"]}


def test_cite_over_a_store_gives_a_relative_division_its_path(sample_store: Path, tmp_path: Path) -> None:
    """`cite --store --in-law 民法 --at 第三百六十一条`: 前節 is pt2/ch9/se2; この章 pt2/ch9; 前編 of a clause in
    第二編 is pt1; 次編 of 第五編 (the last) is none, with the reason. On a day the store knows in force (the
    sample's revision is known up to 2023-06-14), so that no in-force reason is added."""
    text = tmp_path / "clause.txt"
    text.write_text("前節及びこの章の規定、前編", encoding="utf-8")
    run = lexgraph("cite", text, "--in-law", "民法", "--at", "第三百六十一条", "--as-of",
                   "2023-06-01", "--json", store=sample_store)
    assert run.code == 0, run.stderr
    found = {c["surface"]: c for c in run.json()["citations"]}
    assert {s: (c["kind"], c["division"], c["relative_division"]) for s, c in found.items()} == {
        "前節": ("division", "pt2/ch9/se2", "前節"), "この章": ("division", "pt2/ch9", "この章"),
        "前編": ("division", "pt1", "前編")}
    assert all(c["reason"] is None for c in found.values())
    text.write_text("次編の規定", encoding="utf-8")
    run = lexgraph("cite", text, "--in-law", "民法", "--at", "第九百十九条", "--as-of", "2023-06-01",
                   "--json", store=sample_store)
    (last,) = run.json()["citations"]
    assert last["division"] is None and "no 編 after" in last["reason"]


def test_without_a_store_a_relative_division_says_why_it_is_not_known() -> None:
    found = extract("前章の規定及びこの節に定めるもの", CitationContext.in_law("民法", "第二百六十七条"))
    assert [(c.kind, c.surface, c.division, c.relative_division) for c in found] == [
        ("division", "前章", None, "前章"), ("division", "この節", None, "この節")]
    assert all("only a store holding the law gives" in (c.reason or "") for c in found)
    (outside,) = extract("前章で述べたとおり", precedents=False)  # a judgment's own chapter: no law, a reason
    assert (outside.kind, outside.status, outside.law_id) == ("division", "unresolved", None) and outside.reason
