"""The precedent citation finder, on strings copied from the Supreme Court judgments in ../shared/data.

The strings keep the line breaks and page numbers (「- 9 -」) of the PDF-extracted originals where a citation
crosses them, because that is where offsets go wrong.
"""

from __future__ import annotations

import json
import time
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexgraph.citations.dates import EraDate, era_of, parse_era_date, parse_japanese_date
from lexgraph.citations.precedents import PrecedentMention, find_precedents
from lexgraph.eval.citations import evaluate, load_gold

GOLD = Path(__file__).parent / "data" / "citations" / "dev_gold.jsonl"
SC = "最高裁判所"

# text, expected (surface, court, date, decision_type, case_number, reporter) for each citation in order
# fmt: off
CASES: list[tuple[str, list[tuple[str, str | None, str | None, str | None, str | None, str | None]]]] = [
    (
        "（最高裁昭和４８年（オ）第１００２号同５０年２月２５日第三小法廷判決・民集２９巻２号１４３頁参照）",
        [
            (
                "最高裁昭和４８年（オ）第１００２号同５０年２月２５日第三小法廷判決・民集２９巻２号１４３頁",
                "最高裁判所第三小法廷", "1975-02-25", "判決", "昭和48年(オ)第1002号", "民集29巻2号143頁",
            ),
        ],
    ),
    (
        "最高裁平成２２年（受）第１９２号同２３年４月２２日第二小法廷判決・裁判集民事２３６号４４３頁",
        [
            (
                "最高裁平成２２年（受）第１９２号同２３年４月２２日第二小法廷判決・裁判集民事２３６号４４３頁",
                "最高裁判所第二小法廷", "2011-04-22", "判決", "平成22年(受)第192号", "裁判集民事236号443頁",
            ),
        ],
    ),
    (
        "大審院大正１５年（れ）第１３６２号同年１０月１４日判決・刑集５巻１０号４５６頁は，",
        [
            (
                "大審院大正１５年（れ）第１３６２号同年１０月１４日判決・刑集５巻１０号４５６頁",
                "大審院", "1926-10-14", "判決", "大正15年(れ)第1362号", "刑集5巻10号456頁",
            ),
        ],
    ),
    # 元年 in the date, and a date whose era differs from the case number's
    (
        "（最高裁昭和６３年（行ツ）第１７６号平成元年１２月１８日第一小法廷判決・民集４３巻１２号２１３９頁，最高裁平"
        "成元年（行ツ）第１５号同年１２月２１日第一小法廷判決・民集４３巻１２号２２９７頁参照）",
        [
            (
                "最高裁昭和６３年（行ツ）第１７６号平成元年１２月１８日第一小法廷判決・民集４３巻１２号２１３９頁",
                "最高裁判所第一小法廷", "1989-12-18", "判決", "昭和63年(行ツ)第176号", "民集43巻12号2139頁",
            ),
            (
                "最高裁平成元年（行ツ）第１５号同年１２月２１日第一小法廷判決・民集４３巻１２号２２９７頁",
                "最高裁判所第一小法廷", "1989-12-21", "判決", "平成元年(行ツ)第15号", "民集43巻12号2297頁",
            ),
        ],
    ),
    # several case numbers, 同年 inside them, a range
    (
        "最高裁平成１３年（行ツ）第８２号，第８３号，同年（行ヒ）第７６号，第７７号同１７年９月１４日大法廷判決・民集"
        "５９巻７号２０８７頁",
        [
            (
                "最高裁平成１３年（行ツ）第８２号，第８３号，同年（行ヒ）第７６号，第７７号同１７年９月１４日大法廷判"
                "決・民集５９巻７号２０８７頁",
                "最高裁判所大法廷", "2005-09-14", "判決",
                "平成13年(行ツ)第82号、平成13年(行ツ)第83号、平成13年(行ヒ)第76号、平成13年(行ヒ)第77号",
                "民集59巻7号2087頁",
            ),
        ],
    ),
    (
        "（最高裁平成２２年（受）第７５５号ないし第７５９号同２４年３月１３日第三小法廷判決・民集６６巻５号１９５７頁"
        "参照）",
        [
            (
                "最高裁平成２２年（受）第７５５号ないし第７５９号同２４年３月１３日第三小法廷判決・民集６６巻５号１９"
                "５７頁",
                "最高裁判所第三小法廷", "2012-03-13", "判決", "平成22年(受)第755号ないし第759号", "民集66巻5号1957頁",
            ),
        ],
    ),
    # kanji numerals, positional (四〇) and with units (十一)
    (
        "（最高裁昭和四〇年（あ）第一九九八号同四一年七月七日第二小法廷決定・刑集二〇巻六号五五四頁参照）",
        [
            (
                "最高裁昭和四〇年（あ）第一九九八号同四一年七月七日第二小法廷決定・刑集二〇巻六号五五四頁",
                "最高裁判所第二小法廷", "1966-07-07", "決定", "昭和40年(あ)第1998号", "刑集20巻6号554頁",
            ),
        ],
    ),
    (
        "（大審院昭和二年（れ）第一〇〇七号昭和二年十一月十五日言渡判決参照）",
        [
            (
                "大審院昭和二年（れ）第一〇〇七号昭和二年十一月十五日言渡判決",
                "大審院", "1927-11-15", "判決", "昭和2年(れ)第1007号", None,
            ),
        ],
    ),
    # abbreviations: court and type in two or three characters, branch offices
    (
        "（東京地判昭和３９年６月１９日・下民集１５巻６号１４３８頁，東京地判昭和４５年１月２８日・下民集２１巻１・２"
        "号３２頁，岡山地津山支判昭和４８年４月２４日・民集３６巻４号５４２頁）や加害公務員に有責性がない場合（札幌高"
        "判昭和５３年５月２４日・高民集３１巻２号２３１頁）に，",
        [
            (
                "東京地判昭和３９年６月１９日・下民集１５巻６号１４３８頁",
                "東京地方裁判所", "1964-06-19", "判決", None, "下民集15巻6号1438頁",
            ),
            (
                "東京地判昭和４５年１月２８日・下民集２１巻１・２号３２頁",
                "東京地方裁判所", "1970-01-28", "判決", None, "下民集21巻1・2号32頁",
            ),
            (
                "岡山地津山支判昭和４８年４月２４日・民集３６巻４号５４２頁",
                "岡山地方裁判所津山支部", "1973-04-24", "判決", None, "民集36巻4号542頁",
            ),
            (
                "札幌高判昭和５３年５月２４日・高民集３１巻２号２３１頁",
                "札幌高等裁判所", "1978-05-24", "判決", None, "高民集31巻2号231頁",
            ),
        ],
    ),
    (
        "名古屋高等裁判所金沢支部平成２５年（う）第６５号同２６年３月１８日判決・高等裁判所刑事裁判速報集平成２６年１"
        "４０頁",
        [
            (
                "名古屋高等裁判所金沢支部平成２５年（う）第６５号同２６年３月１８日判決・高等裁判所刑事裁判速報集平成"
                "２６年１４０頁",
                "名古屋高等裁判所金沢支部", "2014-03-18", "判決",
                "平成25年(う)第65号", "高等裁判所刑事裁判速報集平成26年140頁",
            ),
        ],
    ),
    # the court after the date, and the reporter without a separator
    (
        "（大正二年二月五日大審院判決・民録一九輯五七頁参照）",
        [
            (
                "大正二年二月五日大審院判決・民録一九輯五七頁",
                "大審院", "1913-02-05", "判決", None, "民録19輯57頁",
            ),
        ],
    ),
    (
        "（大審院大正一〇年六月一日判決大判民録二七輯一〇巻三二頁、昭和六年一〇月三〇日判決、大判民集一〇巻九八二頁参"
        "照）",
        [
            (
                "大審院大正一〇年六月一日判決大判民録二七輯一〇巻三二頁",
                "大審院", "1921-06-01", "判決", None, "大判民録27輯10巻32頁",
            ),
            (
                "昭和六年一〇月三〇日判決、大判民集一〇巻九八二頁",
                "大審院", "1931-10-30", "判決", None, "大判民集10巻982頁",
            ),
        ],
    ),
    # the second item of the list keeps the court of the first
    # 同裁判所 and 各判決
    (
        "所論引用の大阪高等裁判所昭和四三年三月二九日判決、福岡高等裁判所昭和四二年一二月一八日各判決、同裁判所昭和四"
        "三年四月一八日判決は、",
        [
            (
                "大阪高等裁判所昭和四三年三月二九日判決",
                "大阪高等裁判所", "1968-03-29", "判決", None, None,
            ),
            (
                "福岡高等裁判所昭和四二年一二月一八日各判決",
                "福岡高等裁判所", "1967-12-18", "判決", None, None,
            ),
            (
                "同裁判所昭和四三年四月一八日判決",
                "福岡高等裁判所", "1968-04-18", "判決", None, None,
            ),
        ],
    ),
    # a label before the parenthesis names the court and the type (言渡 says neither)
    (
        "所論掲記の大審院判決（昭和八年（れ）第一二七号同年四月一九日言渡、集一二巻四七一頁）の要旨は",
        [
            (
                "昭和八年（れ）第一二七号同年四月一九日言渡、集一二巻四七一頁",
                "大審院", "1933-04-19", "判決", "昭和8年(れ)第127号", "集12巻471頁",
            ),
        ],
    ),
    (
        "前記各大法廷判決（昭和三八年五月二二日判決、昭和四四年一〇月一五日判決）の趣旨に徴して",
        [
            (
                "昭和三八年五月二二日判決",
                "最高裁判所大法廷", "1963-05-22", "判決", None, None,
            ),
            (
                "昭和四四年一〇月一五日判決",
                "最高裁判所大法廷", "1969-10-15", "判決", None, None,
            ),
        ],
    ),
    (
        "当裁判所大法廷判決（前掲昭和三五年一二月一四日判決、最高裁昭和三七年（あ）第九〇〇号同三八年三月二七日判決・"
        "刑集一七巻二号一二一頁）の趣旨に徴して明らかである。",
        [
            (
                "昭和三五年一二月一四日判決",
                "最高裁判所大法廷", "1960-12-14", "判決", None, None,
            ),
            (
                "最高裁昭和三七年（あ）第九〇〇号同三八年三月二七日判決・刑集一七巻二号一二一頁",
                "最高裁判所大法廷", "1963-03-27", "判決", "昭和37年(あ)第900号", "刑集17巻2号121頁",
            ),
        ],
    ),
    # 同 standing for the court of the item before it
    (
        "（最高裁昭和三九年（オ）第四四〇号同四一年四月二八日第一小法廷判決・民集二〇巻四号九〇〇頁、同昭和五五年（オ"
        "）第一五三号同五七年一月二二日第二小法廷判決・民集三六巻一号九二頁参照）",
        [
            (
                "最高裁昭和三九年（オ）第四四〇号同四一年四月二八日第一小法廷判決・民集二〇巻四号九〇〇頁",
                "最高裁判所第一小法廷", "1966-04-28", "判決", "昭和39年(オ)第440号", "民集20巻4号900頁",
            ),
            (
                "同昭和五五年（オ）第一五三号同五七年一月二二日第二小法廷判決・民集三六巻一号九二頁",
                "最高裁判所第二小法廷", "1982-01-22", "判決", "昭和55年(オ)第153号", "民集36巻1号92頁",
            ),
        ],
    ),
    # a bench alone means the Supreme Court; 前掲 stays out of the span
    (
        "（前掲最高裁平成１６年４月２７日第三小法廷判決参照）",
        [
            (
                "最高裁平成１６年４月２７日第三小法廷判決",
                "最高裁判所第三小法廷", "2004-04-27", "判決", None, None,
            ),
        ],
    ),
    (
        "多数意見が引用する平成２５年１１月２１日第一小法廷決定が，",
        [
            (
                "平成２５年１１月２１日第一小法廷決定",
                "最高裁判所第一小法廷", "2013-11-21", "決定", None, None,
            ),
        ],
    ),
    # the annex of election cases: the case name and 「について同裁判所が…に言い渡した」 sit inside the citation
    (
        "１東京高等裁判所平成２８年（行ケ）第７号選挙無効請求事件について同裁判所が平成２８年１０月１８日に言い渡した"
        "判決",
        [
            (
                "東京高等裁判所平成２８年（行ケ）第７号選挙無効請求事件について同裁判所が平成２８年１０月１８日に言い"
                "渡した判決",
                "東京高等裁判所", "2016-10-18", "判決", "平成28年(行ケ)第7号", None,
            ),
        ],
    ),
    # a bench, a type and a reporter but no date: found, and unresolved
    (
        "としている（第一小法廷判決、最高裁判所刑事判例集五巻六号一〇二六頁以下）。",
        [
            (
                "第一小法廷判決、最高裁判所刑事判例集五巻六号一〇二六頁",
                "最高裁判所第一小法廷", None, "判決", None, "最高裁判所刑事判例集5巻6号1026頁",
            ),
        ],
    ),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[1][0][0][:18] for c in CASES])
def test_real_citations(text: str, expected: list[tuple]) -> None:
    found = find_precedents(text, citing_court=SC)
    got = [(m.surface, m.court, m.date, m.decision_type, m.case_number, m.reporter) for m in found]
    assert got == expected
    for m in found:
        assert text[m.start : m.end] == m.surface


NEGATIVES = [
    # the judgment's own header: case number, date, case name, bench and type, then 主文
    "令和４年（許）第１４号\n特別の寄与に関する処分申立て却下審判に対する抗告\n棄却決定に対する許可抗告事件\n"
    "令和５年１０月２６日\n第一小法廷決定\n主\n文\n本件抗告を棄却する。",
    "平成２９年（医へ）第１６号 医療を受けさせるために入院をさせる旨の決定に\n対する抗告棄却決定に対する再抗告事件\n"
    "平成２９年１２月１８日 第三小法廷決定\n主\n文\n本件抗告を棄却する。",
    # a header whose case name starts with a decision type
    "平成３０年（行ヒ）第１９５号\n令和元年７月２２日\n\n命令服従義務不存在確認請求事件\n\n第一小法廷判決\n主\n\n文",
    "ところが，原判決は，被告人が共犯者らと共謀の上，…併合罪として処断した第１審判決を是認している。",
    "被上告人は，平成２１年１月２１日，東京地方裁判所に対し，上記増額更正処分の取消しを求める訴えを提起した。",
    "上記の監査役に選任された者は，これに先立つ同年２月２２日，大阪地方裁判所堺支部において，自動車運転過失致死罪に"
    "より禁錮１年４月，執行猶予３年の判決を受け，同判決は同年３月９日に確定した。",
    "Ａは，平成２０年９月２６日，上記(3)及び(4)の各貸付けに係る債権を株式会社Ｃに譲渡し，Ｃは，同日，当該各債権を"
    "被上告人に譲渡した。",
    "（ただし，同２０年５月３０日付け賦課決定及び同２１年４月３０日付け賦課決定により減額された後のもの）",
    "そして，前訴判決は，同年１０月１４日の経過により確定した。",
    "平成２３年大法廷判決の言渡しがされた日である平成２３年３月２３日であると考える。",
    "よって，裁判官全員一致の意見で，主文のとおり判決する。",
    "企業は社会から孤立した存在ではないから、そこにおける業務の阻害は第三者にも影響を与えないわけにはいかない。",
]


@pytest.mark.parametrize("text", NEGATIVES, ids=[t[:12] for t in NEGATIVES])
def test_hard_negatives(text: str) -> None:
    assert find_precedents(text, citing_court=SC) == []


def test_offsets_across_line_breaks_and_page_numbers() -> None:
    text = (
        "決しなければならない（最高裁昭\n和４８年（あ）第９１０号同５０年９月１０日大法廷判決・刑集２９巻８号４８９\n"
        "- 9 -\n\n\x0c頁）。\n(2)"
    )
    [m] = find_precedents(text)
    assert m.surface == text[m.start : m.end]
    assert m.surface.startswith("最高裁昭\n和") and m.surface.endswith("\x0c頁")
    assert (m.court, m.date, m.reporter) == ("最高裁判所大法廷", "1975-09-10", "刑集29巻8号489頁")


def test_page_number_inside_the_year() -> None:
    text = "（最判昭和二二年（れ）第三一九号、同二四\n\n- 1 -\n\n年五月一八日大法廷判決、刑集三巻六号七七二頁）"
    [m] = find_precedents(text)
    assert (m.court, m.date, m.decision_type) == ("最高裁判所大法廷", "1949-05-18", "判決")
    assert m.case_number == "昭和22年(れ)第319号"


def test_citing_court_is_what_this_court_means() -> None:
    text = "所論引用の当裁判所第二小法廷平成１６年１２月２０日判決は，"
    [m] = find_precedents(text)
    assert m.court == "最高裁判所第二小法廷"  # the bench says so even without a citing court
    # no court, no bench, no case code: only the citing court can say whose decisions these are
    text = (
        "すでに大法廷判決が数次にわたり示したところのものである（昭和三一年七月一八日判決、判例集一〇巻七号一一四七頁、"
        "同年九月二六日判決、判例集一〇巻九号一三九三頁）。"
    )
    assert [m.court for m in find_precedents(text)] == [None, None]
    assert [m.date for m in find_precedents(text)] == ["1956-07-18", "1956-09-26"]
    assert [m.court for m in find_precedents(text, citing_court=SC)] == [SC, SC]


def test_supreme_court_case_codes_name_the_court() -> None:
    text = (
        "原判決は大法廷の判例の趣旨にも反する。"
        "（昭和二六年（あ）第二四三六号同三一年七月一八日判決、集一〇巻七号一一四七頁）"
    )
    [m] = find_precedents(text)
    assert (m.court, m.date, m.decision_type) == ("最高裁判所", "1956-07-18", "判決")
    # before the Supreme Court existed, (れ) was a 大審院 code; a 大審院 bench is not part of the court's name
    [m] = find_precedents("（例えば大正七年（れ）第一四六五号同年六月一〇日刑事第二部判決）")
    assert (m.court, m.date) == ("大審院", "1918-06-10")


# The case number after 言渡 (group cases2) and none before the date: the case code must still be read.
_CASE_AFTER_DATE = "昭和二十二年十二月十六日言渡昭和二十\n二年（れ）第十三六号事件判決"


@pytest.mark.parametrize(
    ("text", "citing_court", "court"),
    [
        # 56421.txt raised TypeError here without a citing court (the case code was looked up in group `cases`)
        (f"既に当裁判所の判例とする処で（{_CASE_AFTER_DATE}参照）今なお", None, SC),
        (f"既に当裁判所の判例とする処で（{_CASE_AFTER_DATE}参照）今なお", SC, SC),
        # a label naming no court: with or without a citing court, only the case code (れ) after 1947 tells
        (f"判例（{_CASE_AFTER_DATE}）", SC, SC),
        (f"判例（{_CASE_AFTER_DATE}）", None, SC),
        # before the Supreme Court existed, (れ) was a 大審院 code
        ("判例（昭和十年一月一日言渡昭和九年（れ）第一号事件判決）", None, "大審院"),
        # no code at all: nothing to go on
        ("判例（昭和十年一月一日言渡昭和九年第一号事件判決）", None, None),
    ],
)
def test_case_number_after_the_date_names_the_court(text: str, citing_court: str | None, court: str | None) -> None:
    [m] = find_precedents(text, citing_court=citing_court)
    assert m.court == court
    assert m.decision_type == "判決"
    assert m.case_number is not None and m.case_number.startswith("昭和")
    assert text[m.start : m.end] == m.surface


def test_era_inherited_from_the_previous_date_in_the_text() -> None:
    text = (
        "（最高裁平成３年（オ）第６３号同６年６月１３日第二小法廷判決・裁判集民事１７２号６７３頁，"
        "最高裁同２１年（受）第１１８６号同２４年３月８日第一小法廷判決・裁判集民事２４０号１２１頁，"
        "前掲最高裁同２９年７月７日第二小法廷判決参照）"
    )
    dates = [m.date for m in find_precedents(text)]
    assert dates == ["1994-06-13", "2012-03-08", "2017-07-07"]


def test_pathological_input_stays_linear() -> None:
    """60,000 characters of case numbers with no date: bounded repetitions keep this well under a second."""
    text = "平成１年（オ）第１号，" * 6000
    started = time.perf_counter()
    assert find_precedents(text) == []
    assert time.perf_counter() - started < 5


def test_unresolved_citations_say_what_is_missing() -> None:
    m = find_precedents("（昭和三一年七月一八日判決、判例集一〇巻七号一一四七頁）")[0]
    assert m.status == "unresolved"
    assert m.reason == "missing court"
    [m] = find_precedents("（第一小法廷判決、最高裁判所刑事判例集五巻六号一〇二六頁以下）")
    assert m.reason == "missing date"


def test_to_json_is_the_issue_3_cite_entry() -> None:
    [m] = find_precedents("（最高裁平成１９年（受）第９５号同年７月６日第二小法廷判決・民集６１巻５号１９５５頁参照）")
    entry = m.to_json()
    assert list(entry) == [
        "start", "end", "surface", "kind", "law_title", "law_id", "revision_id", "article", "article_to",
        "paragraph", "item", "subitem", "version_note", "status", "reason", "court", "date", "decision_type",
        "case_number", "reporter",
    ]  # fmt: skip
    assert entry["kind"] == "precedent" and entry["status"] == "resolved" and entry["reason"] is None
    assert all(entry[k] is None for k in ("law_title", "law_id", "revision_id", "article", "paragraph", "item"))
    assert entry["date"] == "2007-07-06" and entry["case_number"] == "平成19年(受)第95号"
    json.dumps(entry, ensure_ascii=False)


def test_mention_is_frozen() -> None:
    [m] = find_precedents("最高裁平成４年７月１日大法廷判決")
    with pytest.raises(AttributeError):
        m.court = "x"  # type: ignore[misc]
    assert isinstance(m, PrecedentMention)


def test_gold_precedent_f1() -> None:
    """The hand-annotated development gold: precedent citations by court, date and decision type."""
    scores = evaluate(load_gold(GOLD), lambda s: [m.to_json() for m in find_precedents(s, citing_court=SC)])
    assert scores.sentences >= 150
    assert scores.precedent.target.f1 >= 0.95
    assert scores.precedent.span.f1 >= 0.95


# ------------------------------------------------------------------------------------------------- dates


@pytest.mark.parametrize(
    ("text", "previous", "expected"),
    [
        ("昭和５０年２月２５日", None, date(1975, 2, 25)),
        ("平成元年１２月１８日", None, date(1989, 12, 18)),
        ("令和元年５月１日", None, date(2019, 5, 1)),
        ("明治３２年１１月３０日", None, date(1899, 11, 30)),
        ("大正一〇年六月一日", None, date(1921, 6, 1)),
        ("昭和二十二年十二月十六日", None, date(1947, 12, 16)),
        ("同５０年２月２５日", EraDate("昭和", 48), date(1975, 2, 25)),
        ("同年１２月４日", EraDate("昭和", 27), date(1952, 12, 4)),
        ("同年同月２２日", EraDate("平成", 5, 10, 1), date(1993, 10, 22)),
        ("同月３１日", date(2022, 1, 22), date(2022, 1, 31)),
        ("同日", date(2022, 1, 22), date(2022, 1, 22)),
        ("同２年", EraDate("昭和", 1), None),  # no month and day: not a full date
        ("平成２３年\n４月２２日", None, date(2011, 4, 22)),
        ("平成２３年２月３０日", None, None),
        ("同年４月１日", None, None),
        ("４月１日", None, None),
        ("", None, None),
    ],
)
def test_parse_japanese_date(text: str, previous: EraDate | date | None, expected: date | None) -> None:
    assert parse_japanese_date(text, previous) == expected


def test_same_gregorian_year_different_eras() -> None:
    """1926 is both 大正15 and 昭和元; 「同２年」 after each means different years, so the era is kept."""
    assert parse_era_date("同２年", EraDate("昭和", 1)) == EraDate("昭和", 2)
    assert parse_era_date("同２年", EraDate("大正", 15)) == EraDate("大正", 2)
    assert EraDate("昭和", 2).gregorian_year == 1927
    assert era_of(date(1989, 1, 7)) == "昭和" and era_of(date(1989, 1, 8)) == "平成"
    assert era_of(date(1800, 1, 1)) is None


# ------------------------------------------------------------------------------------------------- fuzzing


def _real_sentences() -> list[str]:
    return [json.loads(line)["sentence"] for line in GOLD.read_text(encoding="utf-8").splitlines() if line]


REAL = _real_sentences()
PIECES = ["\n", " ", "\u3000", "\n- 3 -\n", "\x0c", "同", "年", "（", "）", "・", "、", "最高裁", "判決", "第",
          "判例（", "言渡", "事件判決", "（れ）", "同年", "同日"]
# Without a citing court more citations fall through to the case code, the path that once crashed.
CITING_COURTS = st.sampled_from([SC, None])


def _check(text: str, found: list[PrecedentMention]) -> None:
    previous_end = -1
    for m in found:
        assert 0 <= m.start < m.end <= len(text)
        assert text[m.start : m.end] == m.surface
        assert m.start >= previous_end  # no overlaps, in order
        previous_end = m.end
        assert m.date is None or len(m.date) == 10


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(), CITING_COURTS)
def test_fuzz_arbitrary_unicode(text: str, citing_court: str | None) -> None:
    _check(text, find_precedents(text, citing_court=citing_court))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(REAL),
    st.lists(
        st.tuples(st.floats(0, 1), st.sampled_from(["insert", "delete", "replace"]), st.sampled_from(PIECES)),
        max_size=8,
    ),
    CITING_COURTS,
)
def test_fuzz_mutated_real_sentences(
    sentence: str, edits: list[tuple[float, str, str]], citing_court: str | None
) -> None:
    text = sentence
    for where, op, piece in edits:
        i = int(where * len(text))
        if op == "insert":
            text = text[:i] + piece + text[i:]
        elif op == "delete":
            text = text[:i] + text[i + len(piece) :]
        else:
            text = text[:i] + piece + text[i + 1 :]
    _check(text, find_precedents(text, citing_court=citing_court))


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_line_breaks_do_not_change_what_a_citation_means(data: st.DataObject) -> None:
    """A line break or page number anywhere inside a citation leaves court, date, type and numbers alone."""
    text = (
        "（最高裁平成１３年（行ツ）第８２号，第８３号，同年（行ヒ）第７６号同１７年９月１４日大法廷判決"
        "・民集５９巻７号２０８７頁）"
    )
    [before] = find_precedents(text)
    i = data.draw(st.integers(2, len(text) - 3))
    broken = text[:i] + data.draw(st.sampled_from(["\n", "\n\n- 12 -\n\n", " ", "\u3000"])) + text[i:]
    [after] = find_precedents(broken)
    assert broken[after.start : after.end] == after.surface
    assert (after.court, after.date, after.decision_type, after.case_number, after.reporter) == (
        before.court, before.date, before.decision_type, before.case_number, before.reporter,
    )  # fmt: skip
