"""The e-Gov parser on real files of both XML generations (tests/data/egov, lexgraph/data/sample)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from lexgraph.errors import StatuteXmlError
from lexgraph.statutes.egov import normalize_amend_law_num, parse_law_xml

SAMPLE = Path(__file__).parents[1] / "lexgraph" / "data" / "sample"
DATA = Path(__file__).parent / "data" / "egov"
CIVIL_2020 = SAMPLE / "129AC0000000089_20200401_501AC0000000034.xml"
CIVIL_2023 = SAMPLE / "129AC0000000089_20230614_505AC0000000053.xml"


@pytest.fixture(scope="module")
def civil_2020():
    return parse_law_xml(CIVIL_2020.read_bytes(), str(CIVIL_2020))


@pytest.fixture(scope="module")
def civil_2023():
    return parse_law_xml(CIVIL_2023.read_bytes(), str(CIVIL_2023))


def by_path(law, path):
    return next(p for p in law.provisions if p.path == path)


def test_metadata_of_both_generations(civil_2020, civil_2023):
    assert civil_2020.meta.xml_format == "bulk2020"
    assert civil_2023.meta.xml_format == "api_v2"
    for law in (civil_2020, civil_2023):
        assert law.meta.title == "民法"
        assert law.meta.law_num == "明治二十九年法律第八十九号"
        assert (law.meta.era, law.meta.year, law.meta.num, law.meta.law_type) == ("Meiji", 29, "89", "Act")
    assert civil_2023.meta.kana == "みんぽう"
    assert civil_2023.meta.promulgated is not None and civil_2023.meta.promulgated.isoformat() == "1896-04-27"
    assert civil_2020.meta.promulgated is None  # the 2020 bulk format carries no month and day


@pytest.mark.parametrize(
    ("path", "kind", "title", "text_start"),
    [
        ("a709", "article", "第七百九条", "第七百九条　故意又は過失によって他人の権利"),
        ("a709/p1", "paragraph", "第一項", "故意又は過失によって"),
        ("a3_2", "article", "第三条の二", "第三条の二　法律行為の当事者が意思表示をした時に意思能力"),
        ("a13/p1/i1", "item", "一", "一　元本を領収し、又は利用すること。"),
        ("a5/p2", "paragraph", "第二項", "２　前項の規定に反する法律行為は、取り消すことができる。"),
    ],
)
def test_clauses_and_paths(civil_2023, path, kind, title, text_start):
    clause = by_path(civil_2023, path)
    assert clause.kind == kind
    assert clause.title == title
    assert clause.text.startswith(text_start)


def test_caption_and_hierarchy(civil_2023):
    article = by_path(civil_2023, "a709")
    assert article.caption == "（不法行為による損害賠償）"
    assert article.heading == "第三編　債権 > 第五章　不法行為"


def test_sentence_roles(civil_2023):
    proviso = by_path(civil_2023, "a5/p1")
    assert [s.role for s in proviso.sentences] == ["本文", "ただし書"]
    assert proviso.sentences[1].text.startswith("ただし、")
    with_items = by_path(civil_2023, "a111/p1")
    assert [s.role for s in with_items.sentences] == ["柱書"]
    assert "一　本人の死亡" in with_items.text  # a clause's text includes its items
    two_sentences = by_path(civil_2023, "a5/p3")
    assert [s.role for s in two_sentences.sentences] == ["前段", "後段"]


def test_paths_are_unique_and_parents_precede_children(civil_2020, civil_2023):
    for law in (civil_2020, civil_2023):
        paths = [p.path for p in law.provisions]
        assert len(paths) == len(set(paths))
        position = {p.path: p.seq for p in law.provisions}
        for p in law.provisions:
            if p.parent_path is not None:
                assert position[p.parent_path] < p.seq


def test_collapsed_deleted_range_matches_expanded_form(civil_2020, civil_2023):
    """2023 writes Num="38:84" (第三十八条から第八十四条まで 削除); 2020 writes each deleted article."""
    for number in (38, 60, 84):
        old, new = by_path(civil_2020, f"a{number}"), by_path(civil_2023, f"a{number}")
        assert (old.title, old.text) == (new.title, new.text)
        assert new.text.endswith("削除")
    assert not any(":" in p.path for p in civil_2023.provisions if p.kind == "article")


def test_suppl_provisions_have_generation_independent_paths(civil_2020, civil_2023):
    old = {p.path for p in civil_2020.provisions if p.path.startswith("suppl[")}
    new = {p.path for p in civil_2023.provisions if p.path.startswith("suppl[")}
    assert "suppl[昭和22年12月22日法律第222号]/a1" in old
    assert len(old & new) > 0.9 * len(old)
    assert normalize_amend_law_num("平成一一年一二月二二日法律第一六〇号") == "平成11年12月22日法律第160号"


def test_articles_quoted_in_amending_provisions_are_not_clauses_of_this_law():
    """An amending 附則 quotes other laws' articles inside NewProvision; they must not become our clauses."""
    path = DATA / "405AC0000000088_20180401_429AC0000000004.xml"
    law = parse_law_xml(path.read_bytes(), str(path))
    titles = [p.title for p in law.provisions if p.kind == "article" and not p.path.startswith("suppl")]
    assert titles[0] == "第一条"
    assert law.meta.title == "行政手続法"


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (b"", "empty"),
        (b"this is not xml at all", "not well-formed"),
        (CIVIL_2020.read_bytes()[:5000], "truncated"),
        (b"<?xml version='1.0'?><html><body/></html>", "root element is <html>"),
        (b"<Law><LawBody/></Law>", "LawNum"),
    ],
)
def test_bad_input_gives_one_clear_error_naming_the_file(data, problem):
    with pytest.raises(StatuteXmlError) as caught:
        parse_law_xml(data, "input/broken.xml")
    message = str(caught.value)
    assert message.startswith("input/broken.xml")
    assert problem in message
    assert "\n" not in message


# Ruby (振り仮名) as the 2020 bulk generation writes it: a line break after </Rt> inside <Ruby>, or between two
# <Ruby> elements. The base text reads as in the 2023 generation, the reading (<Rt>) is dropped.
@pytest.mark.parametrize(("path", "field", "expected"), [
    ("a30", "caption", "（失踪の宣告）"),  # 失<Ruby>踪<Rt>そう</Rt>⏎</Ruby>の宣告
    ("a101", "caption", "（代理行為の瑕疵）"),  # <Ruby>瑕<Rt>か</Rt>⏎</Ruby>⏎<Ruby>疵<Rt>し</Rt>⏎</Ruby>
    ("a93", "caption", "（心裡留保）"),
    ("a120/p2", "text", "２　錯誤、詐欺又は強迫によって取り消すことができる行為は、瑕疵ある意思表示をした者"),
])
def test_ruby_reads_as_its_base_text_in_both_generations(civil_2020, civil_2023, path, field, expected):
    for law in (civil_2020, civil_2023):
        assert getattr(by_path(law, path), field).startswith(expected)


# Real revision ids of e-Gov's 2020 law list (../shared/data/egov/law_list_2020-05-18.csv): 156 laws' ids hold
# lower-case letters, and a sync of one of them failed as "not an e-Gov revision id" after its list was accepted.
@pytest.mark.parametrize(("text", "law_id", "day", "amended_by"), [
    ("321M30000f40001_20161001_000000000000000", "321M30000f40001", date(2016, 10, 1), "000000000000000"),
    ("322M4000094a001_20190401_430M60000002055", "322M4000094a001", date(2019, 4, 1), "430M60000002055"),
    ("129AC0000000089_20200401_429AC0000000044.xml", "129AC0000000089", date(2020, 4, 1), "429AC0000000044"),
])
def test_revision_ids_are_read_in_either_case(text: str, law_id: str, day: date, amended_by: str) -> None:
    from lexgraph.statutes.sources import parse_revision_id

    revision = parse_revision_id(text)
    assert revision is not None
    assert (revision.law_id, revision.enforced_from, revision.amended_by) == (law_id, day, amended_by)


@pytest.mark.parametrize("text", ["321M30000f4000_20161001_000000000000000",
                                  "x321M30000f40001_20161001_000000000000000",
                                  "321M30000f40001_20161301_000000000000000"])
def test_what_is_not_a_revision_id_stays_unread(text: str) -> None:
    from lexgraph.statutes.sources import parse_revision_id

    assert parse_revision_id(text) is None
