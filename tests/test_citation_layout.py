"""The text's layout read before its citations: a heading, a label or a date line never joins the law name on the
next line (`lexgraph.citations.layout`), while a line the page merely wrapped still does.

Rows are real strings: a new user's judgment headings and lines of the Supreme Court
judgments in ../shared/data/precedents/supreme_court (file named with each row)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexgraph.citations import CitationContext, extract
from lexgraph.citations.document import document_date
from lexgraph.citations.layout import heading_line
from tests.helpers import SHARED, lexgraph

MINPO = "129AC0000000089"


def statutes(text: str) -> list[dict[str, Any]]:
    found = [c.to_json() for c in extract(text, CitationContext(as_of=document_date(text)))]
    return [c for c in found if c["kind"] == "statute"]


def check(text: str, expected: list[tuple[str, str | None, str | None, str | None]]) -> None:
    """`expected`: (surface without whitespace, law_title, article, paragraph) of each statute citation."""
    got = [(re.sub(r"\s", "", c["surface"]), c["law_title"], c["article"], c["paragraph"]) for c in statutes(text)]
    assert got == expected, got


HEADINGS: list[tuple[str, list[tuple[str, str | None, str | None, str | None]]]] = [
    # a new user's five headings: a heading on the text's first line, then the law
    ("令和４年６月１７日判決\n民法第七百九条の適用について。\n", [("民法第七百九条", "民法", "709", None)]),
    ("令和４年６月１７日判決\n民法第七百九条の適用について。同法第七百十五条第一項の責任も問題となる。\n",
     [("民法第七百九条", "民法", "709", None), ("同法第七百十五条第一項", "民法", "715", "1")]),
    ("第１　請求\n民法第七百九条の適用について。\n", [("民法第七百九条", "民法", "709", None)]),
    ("　第１　請求\n　民法第七百九条の適用について。\n", [("民法第七百九条", "民法", "709", None)]),
    ("上告人の主張\n民法第七百九条の適用について。\n", [("民法第七百九条", "民法", "709", None)]),
    ("　上告人の主張\n民法第七百九条の適用について。\n", [("民法第七百九条", "民法", "709", None)]),
    ("原判決\n民法第七百九条の適用について。\n", [("民法第七百九条", "民法", "709", None)]),
    ("判断\n民法第七百九条の適用について。\n", [("民法第七百九条", "民法", "709", None)]),
    ("判断\n　民法第七百九条の適用について。\n", [("民法第七百九条", "民法", "709", None)]),
    # a label that starts with a digit, and a heading before 同法
    ("１　請求\n民法第七百九条の適用について。\n", [("民法第七百九条", "民法", "709", None)]),
    ("民法第七百九条の適用がある。\n当裁判所の判断\n同法第七百十五条第一項について。\n",
     [("民法第七百九条", "民法", "709", None), ("同法第七百十五条第一項", "民法", "715", "1")]),
    # 86341.txt: a long heading that ends 「…について」, a blank line, and an ordinance's title written in full
    ("上告代理人藤居弘之の上告理由第２及び第３について\n\n京都府風俗案内所の規制に関する条例（平成２２年京都府条例第２２号"
     "。以下\n「本件条例」という。）は，風俗案内所に起因する府民に著しく不安を覚えさせ，\n又は不快の念を起こさせる行為，"
     "犯罪を助長する行為等に対し必要な規制を行うこ\nとにより，青少年の健全な育成を図るとともに，府民の安全で安心な生活"
     "環境を確保す\nることを目的とする（１条）。",
     [("１条", "京都府風俗案内所の規制に関する条例", "1", None)]),
    # 90920.txt: the judgment's opening, headings and labels down to the ordinance's title
    ("上告代理人德永信一，同岩原義則の上告理由について\n第１\n１\n\n事案の概要\n大阪市ヘイトスピーチへの対処に関する条例"
     "（平成２８年大阪市条例第１\n\n号。以下「本件条例」という。）２条，５条～１０条",
     [("大阪市ヘイトスピーチへの対処に関する条例（平成２８年大阪市条例第１号。以下「本件条例」という。）２条",
       "大阪市ヘイトスピーチへの対処に関する条例", "2", None),
      ("５条～１０条", "大阪市ヘイトスピーチへの対処に関する条例", "5", None)]),
    # 88104.txt: a one-letter label on its own line is not part of the title
    ("イ\n\n加古川市職員の懲戒の手続及び効果に関する条例（昭和２８年加古川市条例\n\n第７号。以下「本件条例」という。）４条１項",
     [("加古川市職員の懲戒の手続及び効果に関する条例（昭和２８年加古川市条例第７号。以下「本件条例」という。）４条１項",
       "加古川市職員の懲戒の手続及び効果に関する条例", "4", "1")]),
    # 90412.txt: a heading in the middle of the text (read so before too)
    ("権利の制約及び合憲性判断の枠組み\n民法７５０条は，婚姻の効力として夫婦が夫又は妻の氏を称することを規定",
     [("民法７５０条", "民法", "750", None)]),
]

WRAPPED: list[tuple[str, list[tuple[str, str | None, str | None, str | None]]]] = [
    # 90180.txt: a blank line inside a sentence (PDF extraction) still joins the two halves of a name
    ("ア\n\n平成２５年改正前厚生年金保険法１３０条３項及び同項の委任を受けた厚生\n\n年金基金令（平成２６年政令第７３号による"
     "廃止前のもの。以下同じ。）２６条１\n項",
     [("改正前厚生年金保険法１３０条３項", "厚生年金保険法", "130", "3"), ("同項", "厚生年金保険法", "130", "3"),
      ("厚生年金基金令（平成２６年政令第７３号による廃止前のもの。以下同じ。）２６条１項", "厚生年金基金令", "26",
       "1")]),
    # 52287.txt: a full line wrapped inside the clause number
    ("当該少年に対する人権侵害行為として，民法７０９\n条に基づき本人に対し不法行為責任を負う",
     [("民法７０９条", "民法", "709", None)]),
    # 87860.txt: a case number after a blank line is no item of the constitution cited before it
    ("憲法３７条２項前段に違反し\nないというべきである。\n(5)\n\n以上のように解すべきことは，当裁判所の判例（最高裁昭和２３年（れ）"
     "\n\n第８３３号同２４年５月１８日大法廷判決）", [("憲法３７条２項前段", "日本国憲法", "37", "2")]),
]


@pytest.mark.parametrize(("text", "expected"), HEADINGS + WRAPPED)
def test_headings_end_names_and_wrapped_lines_do_not(text: str, expected: list[Any]) -> None:
    check(text, expected)


def test_a_shift_jis_file_whose_first_line_is_a_date(tmp_path: Path) -> None:
    """The issue's fifth example through the CLI: the file is converted, the date read, and the heading kept apart."""
    path = tmp_path / "judgment.txt"
    path.write_bytes("令和４年６月１７日判決\n民法第七百九条の適用について。\n".encode("cp932"))
    run = lexgraph("cite", "--json", path)
    assert run.code == 0, run.stderr
    found = [c for c in run.json()["citations"] if c["kind"] == "statute"]
    assert [(c["law_id"], c["article"], c["as_of"]) for c in found] == [(MINPO, "709", "2022-06-17")]


def test_a_window_that_starts_inside_a_line_does_not_guess_its_length() -> None:
    """Read piece by piece (`lexgraph cite` on a long text), a window may begin in the middle of a line: its first
    line's length is unknown, so that line is not taken for a heading; the whole text reads it as it is."""
    from lexgraph.citations.stream import iter_citations

    text = "令和４年６月１７日判決\n民法第七百九条の適用について。\n" * 3
    whole = [c.to_json() for c in extract(text)]
    pieces = [c.to_json() for c in iter_citations([text], piece_chars=20, margin_chars=10)]
    assert [c["law_title"] for c in whole] == ["民法"] * 3
    assert pieces == whole


@pytest.mark.parametrize(("line", "heading"), [
    ("令和４年６月１７日判決", True), ("第１　請求", True), ("　上告人の主張", True), ("原判決", True), ("判断", True),
    ("(1)　本件の経緯", True), ("ア", True), ("１", True),
    ("上告代理人藤居弘之の上告理由第２及び第３について", True),
    ("第２　上告代理人甲野太郎ほかの上告受理申立て理由第１及び第２について", True),
    ("平成２５年改正前厚生年金保険法１３０条３項及び同項の委任を受けた厚生", False),  # 90180.txt, a full line
    ("号。以下「本件条例」という。）２条，５条～１０条の規定によれば，条例の", False),
    ("），地方税法及び旭川市国民健", False),  # the rest of a broken line, starting with punctuation
    ("", False),
])
def test_heading_lines(line: str, heading: bool) -> None:
    assert heading_line(line) is heading


_HEADING_TEXTS = ["令和４年６月１７日判決", "第１　請求", "上告人の主張", "原判決", "判断", "主文", "理由",
                  "当事者の主張", "当裁判所の判断", "１　事案の概要", "(2)　本件条例の定め", "ア　争点",
                  "第３　当裁判所の判断"]


@settings(max_examples=200, deadline=None)
@given(heading=st.sampled_from(_HEADING_TEXTS), indent=st.sampled_from(["", "\u3000", "\u3000\u3000", " "]),
       before=st.sampled_from(["", "本件上告を棄却する。\n", "上告費用は上告人の負担とする。\n\n"]),
       law=st.sampled_from([("民法", "709"), ("刑法", "199"), ("地方自治法", "242"), ("国家賠償法", "1")]),
       same=st.booleans())
def test_fuzz_no_heading_joins_the_law_after_it(heading: str, indent: str, before: str, law: tuple[str, str],
                                                same: bool) -> None:
    """Whatever heading (with or without an indent, on the first line or after text) stands above the citation,
    the law is the one named on the next line, and a later 同法 means it too."""
    title, article = law
    text = f"{before}{indent}{heading}\n{indent}{title}{article}条の適用について。"
    text += "同法３条も同じ。" if same else ""
    found = statutes(text)
    assert [c["law_title"] for c in found] == [title] * (2 if same else 1), found
    assert found[0]["article"] == article


# -- the 742 Supreme Court judgments -------------------------------------------------------------------------------
# The words of a judgment's headings that the finder glued into a law's name before the layout was read: a title
# holding one of them (and unknown to the catalogue) is a heading glued to the law.
_HEADING_FRAGMENTS = re.compile(r"について|事案の概要|上告理由|理由|判決|主文|主張|判断")


@pytest.mark.requires("shared")
def test_no_heading_is_glued_to_a_law_in_the_supreme_court_judgments() -> None:
    """Found by a script over the 742 texts: 43 citations carried a title made of headings and the ordinance's
    name (36 in 90920.txt: 「同岩原義則の上告理由について第１１事案の概要大阪市ヘイトスピーチへの対処に関する条例」,
    7 in 86341.txt). Each now has the ordinance's own title, and no citation's law holds a heading's words."""
    corpus = SHARED / "precedents" / "supreme_court"
    titles: dict[tuple[str, str], int] = {}
    glued = []
    for path in sorted(corpus.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        for c in statutes(text):
            title = c["law_title"] or ""
            if c["law_id"] is None and _HEADING_FRAGMENTS.search(title):
                glued.append((path.name, c["surface"], title))
            if path.name in ("90920.txt", "86341.txt"):
                titles[(path.name, title)] = titles.get((path.name, title), 0) + 1
    assert glued == [], json.dumps(glued[:10], ensure_ascii=False)
    assert titles[("90920.txt", "大阪市ヘイトスピーチへの対処に関する条例")] >= 36
    assert titles[("86341.txt", "京都府風俗案内所の規制に関する条例")] >= 7
