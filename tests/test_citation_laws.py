"""A law named as a whole, with its number and no clause, is a citation of kind `law` with its id: what a table of
authorities lists. Rows are the examples the rule was written for and real strings of the Supreme Court judgments in
../shared/data/precedents/supreme_court (file named with each row)."""

from __future__ import annotations

import re

import pytest

from lexgraph.citations import CitationContext, extract

Row = tuple[str, str, str | None, str | None, str]  # surface, kind, law_title, law_id, status

CASES: list[tuple[str, list[Row]]] = [
    # the examples the rule was written for
    ("電気通信事業法（昭和五十九年法律第八十六号。以下「法」という。）は，法第二条を定める。",
     [("電気通信事業法（昭和五十九年法律第八十六号。以下「法」という。）", "law", "電気通信事業法", "359AC0000000086",
       "resolved"),
      ("法第二条", "statute", "電気通信事業法", "359AC0000000086", "resolved")]),
    ("独立行政法人通則法の一部を改正する法律（平成二十六年法律第六十六号）の施行に伴い",
     [("独立行政法人通則法の一部を改正する法律（平成二十六年法律第六十六号）", "law",
       "独立行政法人通則法の一部を改正する法律", None, "unresolved")]),
    # a division keeps its own kind, with the law's id
    ("地方自治法（昭和二十二年法律第六十七号）第二編第十一章",
     [("地方自治法（昭和二十二年法律第六十七号）第二編第十一章", "division", "地方自治法", "322AC0000000067",
       "resolved")]),
    # 56314.txt: an ordinance of a ministry by its title and number
    ("大学の単位制度については大\n学設置基準（昭和三一年文部省令第二八号）がこれを定めているが",
     [("大学設置基準（昭和三一年文部省令第二八号）", "law", "大学設置基準", "331M50000080028", "resolved")]),
    # 83087.txt: a local ordinance as a whole, outside the catalogue
    ("本件は，神奈川県臨時特例企業税条例（平成１３年神奈川県条例第３７号。\n\n以下「本件条例」という。）に基づき",
     [("神奈川県臨時特例企業税条例（平成１３年神奈川県条例第３７号。以下「本件条例」という。）", "law",
       "神奈川県臨時特例企業税条例", None, "not_in_catalogue")]),
    # 51765.txt: a number alone
    ("これとほとんど同じ内容をもつ昭和二五年東京都条例第四四号\n集会、集団行進及び集団示威運動に関する条例",
     [("昭和二五年東京都条例第四四号", "law", None, None, "not_in_catalogue")]),
    # a bare name is no citation: it only tells a later 同法 which law is meant
    ("民法の規定によれば，同法７０９条の責任を負う。",
     [("同法７０９条", "statute", "民法", "129AC0000000089", "resolved")]),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_a_law_named_as_a_whole_is_a_citation(text: str, expected: list[Row]) -> None:
    found = [c for c in extract(text, CitationContext()) if c.kind != "precedent"]
    got = [(re.sub(r"\s", "", c.surface), c.kind, c.law_title, c.law_id, c.status) for c in found]
    assert got == expected
