"""Laws outside the catalogue, said so: a local body's 条例 or 規則, a foreign law, a treaty is reported with status
`not_in_catalogue` and what it is (`outside`), and never resolved to a national law of the catalogue.

Rows are real strings of the Supreme Court judgments in ../shared/data/precedents/supreme_court (file named with each
row) and the example the rule was written for."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexgraph.citations import CitationContext, extract
from lexgraph.citations.resolve import outside_kind

Row = tuple[str, str | None, str | None, str | None, str]  # surface, law_title, article, outside, status

CASES: list[tuple[str, list[Row]]] = [
    # 86353.txt: a Tokyo 条例 defined as 本件条例 beside 地方税法
    ("地方税法７３条の２７第１項及び東京都都税条例（昭和２５年東京都条例\n\n第５６号。以下「本件条例」という。）４８条の４は，"
     "土地の取得に対して課する\n不動産取得",
     [("地方税法７３条の２７第１項", "地方税法", "73_27", None, "resolved"),
      ("東京都都税条例（昭和２５年東京都条例第５６号。以下「本件条例」という。）４８条の４", "東京都都税条例", "48_4",
       "ordinance", "not_in_catalogue")]),
    # 90462.txt: a prefectural 規則, by its number
    ("公有水面の埋立て（以下「本件埋立事業」という。）に関し，沖縄県漁\n業調整規則（昭和４７年沖縄県規則第１４３号。令和２年"
     "沖縄県規則第５３号によ\nる改正前のもの。以下「本件規則」という。）４１条に基づき，上告人に対し，",
     [("沖縄県漁業調整規則（昭和４７年沖縄県規則第１４３号。令和２年沖縄県規則第５３号による改正前のもの。以下「本件規則」"
       "という。）４１条", "沖縄県漁業調整規則", "41", "local_rule", "not_in_catalogue")]),
    # 91799.txt: a city's 規則
    ("「憲法施行７０周年集会」（以下「本件集会」という。）を開催するため、金沢市\n庁舎等管理規則（平成２３年金沢市規則第５５号。"
     "以下「本件規則」という。）６\n条１項所定の許可を申請したところ",
     [("金沢市庁舎等管理規則（平成２３年金沢市規則第５５号。以下「本件規則」という。）６条１項", "金沢市庁舎等管理規則",
       "6", "local_rule", "not_in_catalogue")]),
    # 84994.txt: a 条例 and its 施行規則, both local
    ("入居者又は同居者でなくなればこれを明け渡さなけれ\nばならないところ（本件条例５６条２項１号，６４条２項，西宮市営住宅条例施行"
     "\n規則（平成９年西宮市規則第１号）５３条８号），",
     [("本件条例５６条２項１号", "本件条例", "56", None, "unresolved"),
      ("６４条２項", "本件条例", "64", None, "unresolved"),
      ("西宮市営住宅条例施行規則（平成９年西宮市規則第１号）５３条８号", "西宮市営住宅条例施行規則", "53", "local_rule",
       "not_in_catalogue")]),
    # 085547_hanrei.txt, 55816.txt: foreign law by its country
    ("当事者又は関\n係人の血液検査及びＤＮＡ検査を利用することができるとした（韓国家事訴訟法２\n９条）",
     [("韓国家事訴訟法２９条", "韓国家事訴訟法", "29", "foreign", "not_in_catalogue")]),
    ("ところで右要綱は\nアメリカ合衆国憲法六条二項の「この憲法、これに準拠して制定せられる",
     [("アメリカ合衆国憲法六条二項", "アメリカ合衆国憲法", "6", "foreign", "not_in_catalogue")]),
    # the example the rule was written for: the article of a Tokyo 条例 under discussion, 同条例's article
    ("公衆に著しく迷惑をかける暴力的不良行為等の防止に関する条例（昭和３７年東京都条例第１０３号）５条１項３号。"
     "本件条例は憲法に違反しない。同条例８条。",
     [("公衆に著しく迷惑をかける暴力的不良行為等の防止に関する条例（昭和３７年東京都条例第１０３号）５条１項３号",
       "公衆に著しく迷惑をかける暴力的不良行為等の防止に関する条例", "5", "ordinance", "not_in_catalogue"),
      ("同条例８条", "公衆に著しく迷惑をかける暴力的不良行為等の防止に関する条例", "8", "ordinance",
       "not_in_catalogue")]),
    # national rules the catalogue holds stay national; one it lacks is not said to be local
    ("内閣府本府組織規則３条。国家公安委員会規則３条。",
     [("内閣府本府組織規則３条", "内閣府本府組織規則", "3", None, "resolved"),
      ("国家公安委員会規則３条", "国家公安委員会規則", "3", None, "unresolved")]),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_laws_outside_the_catalogue_are_said_so(text: str, expected: list[Row]) -> None:
    found = [c for c in extract(text, CitationContext()) if c.kind == "statute"]
    got = [(re.sub(r"\s", "", c.surface), c.law_title, c.article, c.outside, c.status) for c in found]
    assert got == expected
    for c in found:
        if c.outside is not None:
            assert c.law_id is None and c.to_json()["outside"] == c.outside


_PLACES = ["東京都", "大阪市", "目黒区", "沖縄県", "北海道", "京都府", "湖南市", "東洋町", "大和村"]


@settings(max_examples=200, deadline=None)
@given(place=st.sampled_from(_PLACES),
       subject=st.text(alphabet="公園住宅職員給与迷惑行為防止政務活動費交付管理の", min_size=1, max_size=10),
       kind=st.sampled_from(["条例", "規則"]), year=st.integers(1, 60), number=st.integers(1, 200))
def test_fuzz_a_local_body_law_is_never_national(place: str, subject: str, kind: str, year: int, number: int) -> None:
    """A local body's 条例 / 規則 named with its number is reported outside the catalogue, whatever its title."""
    text = f"{place}{subject}{kind}（昭和{year}年{place}{kind}第{number}号）３条の規定による。"
    found = [c for c in extract(text, CitationContext()) if c.kind == "statute"]
    assert found and all(c.law_id is None for c in found), found
    assert found[-1].status == "not_in_catalogue" and found[-1].outside == ("ordinance" if kind == "条例"
                                                                            else "local_rule")


@pytest.mark.parametrize(("name", "law_num", "kind"), [
    ("新潟県条例", None, "ordinance"), ("処分に関する条例", "昭和四十年目黒区条例第三号", "ordinance"),
    ("愛知県議会会議規則", None, "local_rule"), ("韓国民法", None, "foreign"), ("州ＬＰＳ法", None, "foreign"),
    ("日米安全保障条約", None, "treaty"), ("管理規約", None, None), ("人事院規則", None, None),
    ("内閣府本府組織規則", None, None), ("民法", None, None), ("国家公安委員会規則", None, None),
])
def test_outside_kinds(name: str, law_num: str | None, kind: str | None) -> None:
    assert outside_kind(name, law_num) == kind
