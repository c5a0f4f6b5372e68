"""What statutes point at besides articles, on strings picked from the whole 2020 e-Gov corpus.

- この法律 / この政令 / この府令 / この省令 / この規則: the law being read (kind ``law``);
- 第三章, 第二章第三節, 第三章から第五章まで: a division of the law (kind ``division``, ``division`` /
  ``division_to`` as ``ch3`` / ``ch2/se3``);
- 別表第一, 別表, 様式第一号, 別記様式第二号: an appendix (kind ``appendix``, ``appendix`` the title as written);
- 附則第N項 in the main provisions: a paragraph of the law's 附則 (``suppl/pN``), not of the article being read;
- 第N条第M項各号: the paragraph as written, and in the graph every item of it;
- 前章 / この節 / 次款 (and 編): a division of the law being read, relative to the citing clause's (kind
  ``division``, ``relative_division`` the words; which division, ``division``, only where a store gives the law's
  structure: the linker reads it from the division the citing clause sits in).

What the graph links is checked against the structure a store holding the law gives the linker (each row carries
it: the law's division paths and the division the citing clause sits in, its appendix paths, the article's
paragraphs and items), through the linker's own `cited_paths`.

The table ``tests/data/citations/statute_target_tables.jsonl`` is made by ``scripts/pick_statute_target_tables.py``
(seeded; each line has its law id and clause; the answer is read by the script from the string and the parsed law's
own structure, never from lexgraph's extractor). Statutes: 出典 e-Gov法令検索 (no copyright, 著作権法第13条).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexgraph.citations import CITE_JSON_KEYS, Citation, CitationContext, extract
from lexgraph.ingest.linking import cited_paths
from lexgraph.read.spans import LawSpans, ProvisionSpan, VersionSpan
from tests.helpers import ROOT

TABLE = ROOT / "tests" / "data" / "citations" / "statute_target_tables.jsonl"
ROWS = [json.loads(line) for line in TABLE.read_text(encoding="utf-8").splitlines() if line.strip()]


def _row_id(row: dict[str, Any]) -> str:
    return f"{row['class']}:{row['law_id']}:{row['at']}:{row['surface']}"


def _cited_at(row: dict[str, Any]) -> Citation:
    context = CitationContext(current_law_id=row["law_id"], current_path=row["at"])
    found = extract(row["text"], context, precedents=False)
    start = row["start"]
    # the shortest citation that holds the string: a definition bracket 「（…附則第十二項において「新法」という。）」
    # sits inside the span of the law it defines, whose clause after the bracket is a citation of its own
    return min((c for c in found if c.start <= start < c.end), key=lambda c: c.end - c.start)


def test_the_table_covers_every_class_with_real_strings() -> None:
    assert {row["class"] for row in ROWS} == {"law_itself", "division", "appendix", "suppl_paragraph", "each_item",
                                              "relative_division"}
    for row in ROWS:
        assert row["text"][row["start"]:row["start"] + len(row["surface"])] == row["surface"]


@pytest.mark.parametrize("row", ROWS, ids=_row_id)
def test_what_a_statute_points_at_besides_an_article(row: dict[str, Any]) -> None:
    citation = _cited_at(row)
    expect = row["expect"]
    assert (citation.kind, citation.law_id, citation.status) == (expect["kind"], expect["law_id"], "resolved"), citation
    if row["class"] == "relative_division":
        # the words alone do not say which division: no path, and the reason says where it would come from
        assert (citation.surface, citation.relative_division, citation.division) == (
            row["surface"], expect["relative_division"], None), citation
        assert "only a store holding the law gives" in (citation.reason or ""), citation
    elif row["class"] == "division":
        assert citation.surface == row["surface"], citation
        assert (citation.division, citation.division_to) == (expect["division"], expect.get("division_to")), citation
    elif row["class"] == "appendix":
        assert (citation.appendix, citation.surface) == (expect["appendix"], row["surface"]), citation
    elif row["class"] == "each_item":
        assert (citation.path, citation.part, citation.surface) == (expect["path"], "各号", row["surface"]), citation
    elif row["class"] == "suppl_paragraph":
        assert citation.path == expect["path"] and citation.surface.startswith(row["surface"]), citation
    else:
        assert citation.surface == row["surface"], citation


def _stored(paths: list[str], kind_of: Any) -> LawSpans:
    """The shape a store holding the law gives the linker: one span per path, in force throughout."""
    return LawSpans([VersionSpan("stored", None, None, None)],
                    [ProvisionSpan(path, path, kind_of(path), 0, None, None) for path in paths])


LINKED = [row for row in ROWS if row["class"] in ("division", "appendix", "each_item", "relative_division")]


@pytest.mark.parametrize("row", LINKED, ids=_row_id)
def test_the_graph_links_what_the_string_names(row: dict[str, Any]) -> None:
    """Divisions read from where the citing clause sits (every member of a range), appendices by their title,
    各号 as every item; a division the law lacks, or names twice, is a reason, never a node."""
    citation = _cited_at(row)
    expect = row["expect"]
    if row["class"] in ("division", "relative_division"):
        got = cited_paths(citation, _stored(row["divisions"], lambda _: "division"), row["within"])
        if expect["nodes"]:
            assert got == expect["nodes"], (got, citation)
        else:
            assert isinstance(got, str), got
    elif row["class"] == "appendix":
        got = cited_paths(citation, _stored(row["appendices"], lambda p: p.rstrip("0123456789_#")))
        assert got == [expect["path"]], (got, citation)
    else:
        kinds = {"p": "paragraph", "i": "item"}
        got = cited_paths(citation, _stored(row["members"], lambda p: kinds[p.rpartition("/")[2][0]]))
        assert got == expect["items"], (got, citation)


def test_the_new_kinds_have_their_own_json_fields() -> None:
    for key in ("division", "division_to", "appendix", "relative_division"):
        assert key in CITE_JSON_KEYS
    text = "民法第四編第二章、同法別表第二及び第三章から第四章の二までの規定並びにこの法律"
    found = {c.surface: c.to_json() for c in extract(text, CitationContext.in_law("労働基準法", "第十条"))}
    assert (found["民法第四編第二章"]["kind"], found["民法第四編第二章"]["law_id"],
            found["民法第四編第二章"]["division"]) == ("division", "129AC0000000089", "pt4/ch2")
    assert (found["同法別表第二"]["kind"], found["同法別表第二"]["law_id"], found["同法別表第二"]["appendix"]) == (
        "appendix", "129AC0000000089", "別表第二")
    assert (found["第三章から第四章の二まで"]["division"], found["第三章から第四章の二まで"]["division_to"],
            found["第三章から第四章の二まで"]["law_id"]) == ("ch3", "ch4_2", "322AC0000000049")
    assert (found["この法律"]["kind"], found["この法律"]["law_id"]) == ("law", "322AC0000000049")


def test_outside_a_statute_they_are_reported_with_a_reason() -> None:
    """A judgment's 別表第１ or 第３章 names no law: reported unresolved, with why, never given a law by guess."""
    found = extract("原判決別表第１記載のとおり、第３章の規定による。この法律の趣旨", precedents=False)
    assert [(c.kind, c.status) for c in found] == [("division", "unresolved"), ("law", "unresolved")]
    assert all(c.reason and c.law_id is None for c in found)


_DIGITS = st.sampled_from(["一", "二", "三", "十", "十二", "百", "１", "２", "３", "9"])
_LEVEL = st.sampled_from(["編", "章", "節", "款", "目"])
_GLUE = st.sampled_from(["", "の規定", "及び", "、", "に", "から", "まで", "第", "条", "項", "号", "様式", "別表",
                         "この", "法律", "民法", "同法", "附則", "（", "）", "\n", " "])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_GLUE, _DIGITS, _LEVEL, st.just("第")), max_size=24))
def test_fuzz_the_new_grammar_keeps_its_contract(parts: list[str]) -> None:
    """Any mix of the new grammar's words: no exception, spans inside the text and ordered, and every division,
    appendix and law citation carries the fields of its kind."""
    text = "".join(parts)
    for citation in extract(text, CitationContext.in_law("労働基準法", "第十条"), precedents=False):
        assert 0 <= citation.start < citation.end <= len(text)
        assert text[citation.start:citation.end] == citation.surface
        if citation.kind == "division":  # 前章 without a store: the words, no path, and a reason
            assert (citation.division or citation.relative_division) is not None and citation.appendix is None
        elif citation.kind == "appendix":
            assert citation.appendix is not None and citation.division is None
        else:
            assert citation.division is None and citation.appendix is None


def test_an_amending_laws_suppl_named_by_its_number_inside_that_suppl_is_the_suppl_being_read() -> None:
    """国家公務員の寒冷地手当に関する法律 (324AC0000000200) keeps the 附則 of 平成十六年法律第百三十六号; its
    附則第十三項 names that law (not in the catalogue) and its 附則第十項から第十二項まで: paragraphs of the 附則
    being read."""
    block = "suppl[平成16年10月28日法律第136号]"
    context = CitationContext.in_law("324AC0000000200", f"{block}/p13")
    text = ("同条第三項中「、前二項」とあるのは「、一般職の職員の給与に関する法律等の一部を改正する法律"
            "（平成十六年法律第百三十六号。以下「平成十六年改正法」という。）附則第十項から第十二項まで」と、"
            "同項第一号及び第二号中「前二項」とあるのは")
    found = [c for c in extract(text, context) if "附則" in c.surface]
    assert [(c.law_id, c.path, c.paragraph_to, c.status) for c in found] == [
        ("324AC0000000200", f"{block}/p10", "12", "resolved")]
