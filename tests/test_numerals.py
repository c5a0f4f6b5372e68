"""Numbers and clause references as real texts write them (the strings come from the Supreme Court judgments in
../shared/data/precedents and from e-Gov statutes)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lexgraph.numerals import (
    build_path,
    clause_label,
    egov_num,
    int_to_kanji,
    kanji_to_int,
    parse_clause,
    subitem_num,
)

NUMBERS = [
    ("七百九", 709),  # 民法第七百九条
    ("七一五", 715),  # positional, 民法七一五条 in older judgments
    ("七〇九", 709),
    ("四〇五", 405),  # 刑訴法四〇五条
    ("１０６７", 1067),  # 民集２２巻５号１０６７頁
    ("７０９", 709),
    ("709", 709),
    ("千二百三十四", 1234),
    ("千", 1000),
    ("百三", 103),
    ("二十", 20),
    ("十", 10),
    ("十五", 15),  # 平成十五年法律第五十七号
    ("五十七", 57),
    ("元", 1),  # 平成元年
    ("二〇", 20),
    ("一万二千", 12000),
    ("〇", 0),
]

NOT_NUMBERS = ["", "十十", "百千", "7百", "三x", "abc", "二三十", "一万万", "第三", "〇十", "－１"]


@pytest.mark.parametrize(("text", "value"), NUMBERS)
def test_kanji_to_int_reads_every_numeral_style(text: str, value: int) -> None:
    assert kanji_to_int(text) == value


@pytest.mark.parametrize("text", NOT_NUMBERS)
def test_kanji_to_int_refuses_junk(text: str) -> None:
    assert kanji_to_int(text) is None


@pytest.mark.parametrize(("value", "kanji"), [(709, "七百九"), (10, "十"), (1234, "千二百三十四"), (0, "〇"),
                                             (57, "五十七"), (110, "百十"), (12000, "一万二千")])
def test_int_to_kanji_writes_statute_numbers(value: int, kanji: str) -> None:
    assert int_to_kanji(value) == kanji


@given(st.integers(min_value=0, max_value=10**8 - 1))
def test_int_to_kanji_round_trips(value: int) -> None:
    assert kanji_to_int(int_to_kanji(value)) == value


EGOV_NUMS = [
    ("第三条の二", "3_2"),
    ("３条の２", "3_2"),
    ("第七百九条", "709"),
    ("三条の二の三", "3_2_3"),
    ("７２条の１４", "72_14"),  # 地方税法７２条の１４ (judgment 083087)
    ("第二十七条の三十二の二", "27_32_2"),  # 金融商品取引法 (lawqa_jp)
    ("第27条の32の２", "27_32_2"),  # mixed numerals, same law, same dataset
    ("第十六号", "16"),
    ("第２項", "2"),
    ("709", "709"),
]


@pytest.mark.parametrize(("text", "num"), EGOV_NUMS)
def test_egov_num(text: str, num: str) -> None:
    assert egov_num(text) == num


@pytest.mark.parametrize("text", ["", "第", "条", "第三者", "第一審", "三条件", "第三条の", "元条"])
def test_egov_num_refuses_what_is_no_number(text: str) -> None:
    assert egov_num(text) is None


CLAUSES = [
    ("第三条の二第一項第二号", "a3_2/p1/i2"),
    ("709条", "a709"),
    ("七〇九条一項", "a709/p1"),
    ("七二二条二項", "a722/p2"),  # 民法七二二条二項 (judgment 53761)
    ("a709/p1", "a709/p1"),
    ("a709/p1/i2/s1/s3", "a709/p1/i2/s1/s3"),
    ("第二条第一号", "a2/p1/i1"),  # every e-Gov item sits in a paragraph
    ("a2/i1", "a2/p1/i1"),
    ("附則第二条", "suppl/a2"),
    ("附則４条１項", "suppl/a4/p1"),  # 附則４０条１０項 style (judgment 083087)
    ("suppl/a2", "suppl/a2"),
    ("第2条の12第1号", "a2_12/p1/i1"),  # lawqa_jp 以下この号[第2条の12第1号]
    ("第１条の11第１項第４号", "a1_11/p1/i4"),  # lawqa_jp 以下この号[第１条の11第１項第４号]
    ("第十三条第二項第二号ロ", "a13/p2/i2/s2"),
    ("第一号イ(1)", "p1/i1/s1/s1"),
    ("第十六条第一項第八号イ", "a16/p1/i8/s1"),
    ("第四条第一項本文", "a4/p1"),  # the sentence is not part of the path
    ("１１０条１項１９号", "a110/p1/i19"),  # 国家公務員法１１０条１項１９号 (judgment 82801)
    ("附則（平成十一年法律第百四十九号）第二条", "suppl[平成11年法律第149号]/a2"),
    (" 第 七百九 条 ", "a709"),
]


@pytest.mark.parametrize(("text", "path"), CLAUSES)
def test_parse_clause(text: str, path: str) -> None:
    assert parse_clause(text) == path


@pytest.mark.parametrize("text", ["", "garbage", "第一審", "第三者", "民法", "条", "a", "a709/x1",
                                  "平成２４年１２月１４日", "742頁", "８億円", "第２次"])
def test_parse_clause_refuses_garbage(text: str) -> None:
    assert parse_clause(text) is None


@pytest.mark.parametrize(("mark", "num"), [("イ", "1"), ("ロ", "2"), ("ホ", "5"), ("(1)", "1"), ("（１２）", "12"),
                                          ("⑶", "3")])
def test_subitem_num(mark: str, num: str) -> None:
    assert subitem_num(mark) == num


def test_build_path_adds_the_implicit_paragraph_under_an_item() -> None:
    assert build_path(None, "2", None, "1") == "a2/p1/i1"
    assert build_path("suppl", "3", "2", None) == "suppl/a3/p2"
    assert build_path(None, None, None, None) is None


@given(st.text())
def test_numerals_never_raise_on_arbitrary_text(text: str) -> None:
    kanji_to_int(text)
    egov_num(text)
    subitem_num(text)
    path = parse_clause(text)
    if path is not None:
        assert parse_clause(path) == path  # a path it gives back is one it accepts


CLAUSE_ALPHABET = "第条項号の一二三四五六七八九十百千〇０１２３４５６７８９0123456789イロハ()（）附則"


@given(st.text(alphabet=CLAUSE_ALPHABET, max_size=30))
def test_clause_alphabet_never_raises(text: str) -> None:
    path = parse_clause(text)
    if path is not None:
        assert parse_clause(path) == path


# Paths as the e-Gov parser builds them from the sample laws (lexgraph/data/sample), and the clause a lawyer writes.
CLAUSE_LABELS = [
    ("a709", "第七百九条"),
    ("a709/p1", "第七百九条第一項"),  # 民法 709条1項: never a blank header
    ("a715/p1", "第七百十五条第一項"),
    ("a1050/p5", "第千五十条第五項"),  # 民法 特別寄与料
    ("a3_2/p1/i2", "第三条の二第一項第二号"),
    ("a98_2/p1/i2", "第九十八条の二第一項第二号"),
    ("a465_9/p1/i2/s4", "第四百六十五条の九第一項第二号ニ"),  # a subitem: イロハ
    ("a48/p1/i3/s2", "第四十八条第一項第三号ロ"),
    ("p1/i1/s1/s1", "第一項第一号イ(1)"),  # a second-level subitem
    ("suppl/a6/p1", "附則第六条第一項"),
    ("suppl[平成30年7月27日法律第80号]/a1/p1/i3", "附則（平成30年7月27日法律第80号）第一条第一項第三号"),
    ("suppl[昭和55年5月17日法律第51号]/p2", "附則（昭和55年5月17日法律第51号）第二項"),
    ("suppl[令和3年5月19日法律第37号]/a1/p1/i2:3", "附則（令和3年5月19日法律第37号）第一条第一項第二号から第三号まで"),
    ("appdx_table1", "別表第一"),
    ("preamble", "前文"),
    ("a9#2", "第九条（その2）"),  # a number the file repeats
]


@pytest.mark.parametrize(("path", "label"), CLAUSE_LABELS)
def test_clause_label_writes_the_path_as_a_lawyer_does(path: str, label: str) -> None:
    assert clause_label(path) == label


def test_every_clause_of_the_sample_laws_has_a_label_that_reads_back_as_its_path() -> None:
    from lexgraph.statutes.egov import parse_law_xml
    from tests.helpers import SAMPLE

    paths = [p.path for xml in sorted(SAMPLE.glob("*.xml"))
             for p in parse_law_xml(xml.read_bytes(), xml.name).provisions]
    assert len(paths) > 4000
    for path in paths:
        label = clause_label(path)
        assert label and not any(c.isascii() and c.isalpha() for c in label), (path, label)
        if "#" not in path and ":" not in path:  # repeats and ranges name no single clause to read back
            assert parse_clause(label) == path, (path, label)


@pytest.mark.parametrize("written, path", [
    ("付録", "appdx"), ("別表第一", "appdx_table1"), ("別表第一の二", "appdx_table1_2"), ("様式第二", "appdx_style2"),
    ("別記様式第三号", "appdx_style3"),
])
def test_an_appendix_path_is_accepted_back_as_it_was_given(written: str, path: str) -> None:
    """`law show 民法 appdx_table1` names what `law show 民法 別表第一` does (hypothesis found 付録 → appdx → None)."""
    assert parse_clause(written) == path
    assert parse_clause(path) == path
