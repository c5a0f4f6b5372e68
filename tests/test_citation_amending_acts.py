"""「改正前の…」 / 「改正後の…」 after the text defined its amending act
(「平成２０年法律第７４号（以下「改正法」という。）」) mean the law before / after that act: the pin takes the
act's number, and with a store the version just before / made by it (`StoreRevisions.revision_around_amendment`),
or `unverified` where the store cannot tell.

Rows: real sentences of the Supreme Court judgments in ../shared/data/precedents/supreme_court (file named with each
row); the store-backed rows read the sample store's 民法, whose 2020 version was made by 令和元年法律第３４号, in a
sentence built as 92085.txt's is.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from lexgraph import LexGraph
from lexgraph.citations import CitationContext, extract

ROWS: list[tuple[str, str, list[tuple[str, str, str | None]]]] = [
    ("86517",
     "上記立替払契約のうち，平成２０年法律第７４号（以下「改正法」という。）の施行日である平成２１年１２月１日より"
     "前に締結されたもの（以下「改正前契約」という。）については，改正法による改正前の割賦販売法３０条の４第１項に"
     "より本件販売業者に対して生じている売買契約上の抗弁をもって被上告人に対抗することができる。",
     [("割賦販売法３０条の４第１項", "改正前", "平成二十年法律第七十四号")]),
    ("81630",
     "本件は，平成１６年法律第１４号（以下「改正法」という。）による租税特別措置法の改正に関する事案である。"
     "改正法による改正前の措置法（以下「改正前措置法」という。）３１条においては，個人がその有する土地等の譲渡を"
     "した場合に損益通算を認めていた。",
     [("措置法（以下「改正前措置法」という。）３１条", "改正前", "平成十六年法律第十四号")]),
    ("83744",
     "平成２４年１１月１６日に衆議院議員選挙区画定審議会設置法の一部を改正する法律（平成２４年法律第９５号。以下"
     "「平成２４年改正法」という。）が成立した。平成２４年改正法による改正後の区画審設置法３条は，各選挙区の人口を"
     "定める。",
     [("区画審設置法３条", "改正後", "平成二十四年法律第九十五号")]),
    ("two-acts-no-choice",
     "公職選挙法の一部を改正する法律（平成２４年法律第９４号。以下「平成２４年改正法」という。）及び公職選挙法の"
     "一部を改正する法律（平成２７年法律第６０号。以下「平成２７年改正法」という。）が成立した。改正前の公職選挙法"
     "１４条は，参議院議員の定数を定める。",
     [("公職選挙法１４条", "改正前", None)]),
]


def pins(text: str, day: date) -> list[tuple[str, str | None, str | None]]:
    found = extract(text, CitationContext(as_of=day), precedents=False)
    return [(c.surface.replace("\n", ""), c.version_note, c.pinned_law_num) for c in found
            if c.kind == "statute" and c.version_note]


@pytest.mark.parametrize(("text", "expected"), [row[1:] for row in ROWS], ids=[row[0] for row in ROWS])
def test_a_pin_takes_the_number_of_the_amending_act_the_text_defined(text: str, expected: list[object]) -> None:
    assert pins(text, date(2015, 1, 1)) == expected


def test_the_reason_names_the_act_and_its_word() -> None:
    citation = next(c for c in extract(ROWS[0][1], CitationContext(as_of=date(2015, 1, 1))) if c.version_note)
    said = "before the amendment by 平成二十年法律第七十四号, which the text calls 「改正法」"
    assert said in (citation.reason or "")


SAMPLE_TEXT = ("民法等の一部を改正する法律（令和元年法律第３４号。以下「改正法」という。）が施行された。"
               "改正法による改正後の民法８１７条の５第１項によれば，養子となる者の年齢の上限が引き上げられた。"
               "改正前の民法８１７条の５は，６歳未満の者に限っていた。改正法による改正前の民法４１５条による。")


def test_with_a_store_the_version_before_or_made_by_the_act(sample_store: Path) -> None:
    """The sample store's 民法: 2020-04-01, made by 令和元年法律第三十四号 (known), then a gap; 改正後 is that
    version; 改正前 is none the store knows (no version before it is stored): unverified, naming the act."""
    with LexGraph.open(sample_store, read_only=True) as lg:
        found = [c for c in lg.cite(SAMPLE_TEXT, as_of=date(2020, 6, 1), precedents=False) if c.version_note]
    assert [(c.version_note, c.revision_id, c.status) for c in found] == [
        ("改正後", "129AC0000000089_20200401_501AC0000000034", "resolved"),
        ("改正前", None, "unverified"),
        ("改正前", None, "unverified"),
    ]
    said = "no version of 民法 known to be the one in force just before 令和元年法律第三十四号"
    assert said in (found[1].reason or "")


def test_with_a_store_a_pin_naming_no_act_is_not_known(sample_store: Path) -> None:
    """「改正前の民法４１５条」 with no amending act named or defined: which version is meant is not known, so it is
    never `resolved` against the version of the day."""
    with LexGraph.open(sample_store, read_only=True) as lg:
        found = [c for c in lg.cite("改正前の民法４１５条によれば，債務不履行の責任が定められていた。",
                                    as_of=date(2021, 6, 1), precedents=False) if c.version_note]
    assert [(c.status, c.revision_id) for c in found] == [("unverified", None)]
    assert "no amending law is named" in (found[0].reason or "")
