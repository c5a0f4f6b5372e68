"""Which law a bare article or an amending act's 附則 means, decided by what the text discusses: the law it defined
a word such as 「本件条例」 or 「本法」 for, the sentence the law named last was named in, an amending act defined by
its title or by a 同年 law number.

Rows are real strings: passages of the Supreme Court judgments in ../shared/data/precedents/supreme_court (file
named with each row) and the examples the rules were written for. Each expected citation is (surface without
whitespace, law_title, law_num or None when not checked, article, status)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from lexgraph.citations import CitationContext, extract

Row = tuple[str, str | None, str | None, str | None, str]


def statutes(text: str) -> list[dict[str, Any]]:
    return [c.to_dict() for c in extract(text, CitationContext()) if c.kind == "statute"]


CASES: list[tuple[str, list[Row]]] = [
    # 90787.txt: the ordinance the judgment discusses, against 地方自治法 named in the sentence before: both named
    ("岡山市議会の各会派に対する政務活動費の交付に関する条例（平成１３年岡\n\n山市条例第１号。以下「本件条例」という。）は，"
     "地方自治法１００条１４項から\n１６項までの定めを受けて，政務活動費について，大要，以下のとおり規定してい\nる。\nア\n\n"
     "政務活動費は，市議会における会派に対し，各月１日における当該会派の所\n\n属議員数に月額１３万５０００円を乗じて得た額を"
     "半期ごとに交付する（２条，３\n条１項）。",
     [("地方自治法１００条１４項から１６項まで", "地方自治法", None, "100", "resolved"),
      ("２条", "岡山市議会の各会派に対する政務活動費の交付に関する条例", None, "2", "ambiguous"),
      ("３条１項", "岡山市議会の各会派に対する政務活動費の交付に関する条例", None, "3", "ambiguous")]),
    # 83879.txt: 「本法」 is under discussion; 児童福祉法 was named in the sentence before (it used to take 7条1項)
    ("インターネット異性紹介事業を利用して児童を誘引する行為の規制等に関\n\nする法律（以下「本法」という。）は，インターネット"
     "異性紹介事業を定義した上\nで（２条２号）。また，本法は，事業者が事業に関し本法及び児童福祉法等に規定す\nる一定の罪"
     "に当たる行為をしたと認めるときの事業の停止命令（１４条１項）に関する諸規定を設けている。そし\nて，本件届出制度は，"
     "同事業を行おうとする者に対し，氏名，住所，広告又は宣伝\nに使用する呼称，本拠となる事務所の所在地，連絡先等の事項"
     "（７条１項１ないし\n５号）を都道府県公安委員会に届け出させる。",
     [("２条２号", "インターネット異性紹介事業を利用して児童を誘引する行為の規制等に関する法律", None, "2", "resolved"),
      ("１４条１項", "児童福祉法", None, "14", "resolved"),
      ("７条１項", "インターネット異性紹介事業を利用して児童を誘引する行為の規制等に関する法律", None, "7",
       "ambiguous"),
      ("５号", "インターネット異性紹介事業を利用して児童を誘引する行為の規制等に関する法律", None, "7", "ambiguous")]),
    # the rule's own example: a bare 「３条」 of a Tokyo 条例 under discussion is never 日本国憲法 第三条 alone
    ("公衆に著しく迷惑をかける暴力的不良行為等の防止に関する条例（昭和３７年東京都条例第１０３号。以下「本件条例」という。）"
     "は，公共の場所における迷惑行為を禁止する。本件条例は憲法に違反しない。３条は，つきまといを禁止している。",
     [("３条", "公衆に著しく迷惑をかける暴力的不良行為等の防止に関する条例", None, "3", "ambiguous")]),
    # 83087.txt: an article in a bracket belongs to the sentence the bracket is in, where 法人税法 is named
    ("(3)\n\n法人税法（平成２３年法律第１１４号による改正前のもの。以下同じ。）\n\nは，各事業年度の所得の金額の計算方法に"
     "関して，欠損金額（各事業年度の所得の\n金額の計算上当該事業年度の損金の額が当該事業年度の益金の額を超える場合にお\n"
     "けるその超える部分の金額。２条１９号）の生じた事業年度",
     [("２条１９号", "法人税法", None, "2", "resolved")]),
    # the rule's own example: an amending act defined by its title with no number
    ("民法の一部を改正する法律（以下「改正法」という。）の施行日前に締結された契約については，改正法附則１７条３項により，"
     "なお従前の例による。",
     [("改正法附則１７条３項", "民法の一部を改正する法律", None, "17", "unresolved")]),
    # 86709.txt: the same without a definition
    ("被上告人が在職者であって厚生年金保険の被保険者であ\nり，国民年金法等の一部を改正する法律附則２１条１項所定の支給停止"
     "基準額が特\n別支給の老齢厚生年金の額以上であったことから，同項ただし書に基づき",
     [("国民年金法等の一部を改正する法律附則２１条１項", "国民年金法等の一部を改正する法律", None, "21", "unresolved"),
      ("同項ただし書", "国民年金法等の一部を改正する法律", None, "21", "unresolved")]),
    # 92430.txt: 「同年法律第６０号」 is 平成二十七年法律第六十号, not the catalogue's other act of the same title
    ("平成２７年７月２８日、公職選挙法の一部を改正する法律（同年法律第６０\n号。以下「平成２７年改正法」という。）が成立し、"
     "同年１１月５日に施行され\nた。また、平成２７年改正法附則７条が平成３１年に行われる通常選挙に\n向けて",
     [("平成２７年改正法附則７条", "公職選挙法の一部を改正する法律", "平成二十七年法律第六十号", "7", "unresolved")]),
    # 91707.txt: an amending act defined by its 同年 number alone
    ("平成２８年５月２０日、衆議院議員の定数を１０削\n\n減して４６５人とするとともに、各都道府県への定数配\n分の方式としてアダムズ方式を採用すること等を内容とする同年法律第４９号（以\n下「平成２８年改正法」"
     "という。）が成立した。さらに、平成２８年改正法附則５\n条において、",
     [("平成２８年改正法附則５条", None, "平成二十八年法律第四十九号", "5", "unresolved")]),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_the_law_under_discussion(text: str, expected: list[Row]) -> None:
    found = statutes(text)
    got = [(re.sub(r"\s", "", c["surface"]), c["law_title"], c["law_num"] if want[2] else None, c["article"],
            c["status"]) for c, want in zip(found, expected, strict=False)]
    assert got == expected and len(found) == len(expected), found


def test_an_ambiguous_article_names_both_laws() -> None:
    """The reason of an ambiguous article says which two laws it may be of, and which word stands for the first."""
    found = statutes(CASES[2][0])
    assert found[0]["law_id"] is None  # an ordinance outside the catalogue: never the constitution's id
    reason = found[0]["reason"]
    assert "本件条例" in reason and "日本国憲法" in reason and "公衆に著しく迷惑をかける" in reason


def test_a_same_year_law_number_needs_a_year_before_it() -> None:
    """「同年法律第４９号」 with no year written before it is no law number: nothing is made up."""
    assert [c["law_num"] for c in statutes("同年法律第４９号（以下「改正法」という。）の附則５条")] == [None]
