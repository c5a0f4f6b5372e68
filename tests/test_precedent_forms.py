"""Precedents as the literature cites them, class by class, and reporters and courts as data.

Each class has a table of real strings with their source, eyecite-style: a judgment of
../shared/data/precedents/supreme_court (by lawsuit id; the same text is in the literature gold), the forms as
requested (source `requested form`), or lexgraph's own caption of a real decision. The literature's compact forms
(最判平23・12・16 …) do not occur in the judgments at hand (tests/data/literature/README.md); beyond those strings
they are covered by the literature gold's derived part and by the grammar fuzz test at the end, which composes
them from their parts and checks every field.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexgraph.citations import extract
from lexgraph.citations.court_names import _strings, courts, reporters
from lexgraph.citations.dates import EraDate
from lexgraph.citations.precedents import find_precedents
from lexgraph.errors import ConfigurationError
from lexgraph.store.names import court_abbreviation, precedent_caption

LITERATURE_GOLD = Path(__file__).parent / "data" / "literature" / "literature_gold.jsonl"

# One row per real string (tests/data/literature/precedent_forms.jsonl): class, text, source and what it cites.
FORMS = [json.loads(raw) for raw in (Path(__file__).parent / "data" / "literature" / "precedent_forms.jsonl")
         .read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("row", FORMS, ids=[f"{row['class']} ({row['source']})" for row in FORMS])
def test_each_form_of_the_table_is_read_with_every_field(row: dict[str, str | None]) -> None:
    found = find_precedents(str(row["text"]))
    read = [(m.surface, m.court, m.date, m.decision_type, m.reporter) for m in found if m.surface == row["surface"]]
    assert read == [(row["surface"], row["court"], row["date"], row["decision_type"], row["reporter"])], (row, found)


def test_lexgraphs_own_caption_of_a_real_judgment_reads_back() -> None:
    """91244 is 令和3年(オ)第293号の2, 令和4年6月17日 第二小法廷判決: its caption, as the graph names it."""
    header = (Path(__file__).parent / "data" / "precedents" / "91244.txt").read_text(encoding="utf-8")
    assert "令和４年６月１７日" in header and "第二小法廷判決" in header
    caption = precedent_caption({"court": "最高裁判所第二小法廷", "date": date(2022, 6, 17), "decision_type": "判決",
                                 "uid": "hanrei:91244"})
    assert caption == "最二小判 令和4.6.17"
    [found] = find_precedents(f"{caption}（原状回復等請求事件）")
    assert (found.surface, found.court, found.date, found.decision_type) == (
        caption, "最高裁判所第二小法廷", "2022-06-17", "判決")


def test_every_caption_lexgraph_writes_reads_back_as_the_same_decision() -> None:
    """Every court the caption code abbreviates, on the first and last day of every era (元 included)."""
    courts_ = ["最高裁判所", "最高裁判所大法廷", "最高裁判所第一小法廷", "最高裁判所第三小法廷", "大審院",
               "東京高等裁判所", "知的財産高等裁判所", "知的財産高等裁判所特別部", "大阪地方裁判所",
               "名古屋高等裁判所金沢支部", "横浜家庭裁判所"]
    days = [date(1912, 7, 30), date(1926, 12, 25), date(1989, 1, 8), date(2019, 5, 1), date(2019, 4, 30)]
    for court in courts_:
        for day in days:
            for decision in ("判決", "決定"):
                caption = precedent_caption({"court": court, "date": day, "decision_type": decision, "uid": "x"})
                [found] = find_precedents(caption)
                assert (found.court, found.date, found.decision_type) == (court, day.isoformat(), decision), caption


def test_a_literature_date_without_a_court_is_no_citation() -> None:
    for text in ("平成23・12・16に", "（注）令和７年12月１日に施行され", "合計税率は、所得税率（％）×102.1％です。",
                 "民集２１巻１・２号３２頁", "平23.12.16判決"):
        assert find_precedents(text) == [], text


def test_a_date_that_is_no_day_is_reported_with_its_reason() -> None:
    [bad] = extract("最判平23・2・30民集65巻9号3472頁")
    assert (bad.status, bad.reason) == ("unresolved", "missing date (平23・2・30 is no day)")
    [same] = extract("最判同年5月1日")
    assert same.status == "unresolved" and "no earlier date" in (same.reason or "")


# ---------------------------------------------------------------------------------------------------------
# Reporters and courts as data


def test_every_reporter_form_of_the_data_file_is_read_after_a_decision() -> None:
    data = reporters()
    assert data.name_of("民集") == "最高裁判所民事判例集" and data.name_of("判タ") == "判例タイムズ"
    assert data.name_of("民集の") is None
    for form in data.forms:
        [found] = find_precedents(f"最判平成23年12月16日{form}65巻9号3472頁")
        assert found.reporter == f"{form}65巻9号3472頁", form
        [paren] = find_precedents(f"最判平23・12・16（{form}65巻9号3472頁）")
        assert paren.reporter == f"{form}65巻9号3472頁", form
    for online in data.online:
        [found] = find_precedents(f"最判令和2年3月24日{online}")
        assert (found.reporter, found.surface) == (online, f"最判令和2年3月24日{online}")


def test_every_court_seat_of_the_data_file_is_read_abbreviated_and_in_full() -> None:
    data = courts()
    for place in data.high_court_places:
        [found] = find_precedents(f"{place}高決平成4年12月18日判時1450号80頁")
        assert (found.court, found.decision_type) == (f"{place}高等裁判所", "決定"), place
    for place in data.district_court_places:
        [found] = find_precedents(f"{place}地判平4・12・18")
        assert (found.court, found.date) == (f"{place}地方裁判所", "1992-12-18"), place
        assert court_abbreviation(f"{place}地方裁判所") == f"{place}地"
    assert "行ヒ" in data.supreme_court_case_codes and data.supreme_court_founded == date(1947, 5, 3)


def test_a_data_file_that_does_not_fit_is_a_configuration_error_naming_it() -> None:
    with pytest.raises(ConfigurationError, match=r"reporters\.json: 'online'"):
        _strings({"online": ["裁判所ウェブサイト", 3]}, "online", "reporters.json")


def test_the_literature_gold_is_well_formed() -> None:
    lines = [json.loads(raw) for raw in LITERATURE_GOLD.read_text(encoding="utf-8").splitlines()]
    keys = [(line["doc"], line.get("sentence_start", 0)) for line in lines]
    assert len(keys) == len(set(keys))  # the replay keys each line by these
    precedents = 0
    for line in lines:
        assert line["origin"] in ("judgment", "caption", "derived")
        ends = 0
        for c in sorted(line["citations"], key=lambda c: c["start"]):
            assert line["sentence"][c["start"]:c["end"]] == c["surface"]
            assert c["start"] >= ends
            ends = c["end"]
            precedents += c["kind"] == "precedent"
    assert precedents >= 150


# ---------------------------------------------------------------------------------------------------------
# The grammar, fuzzed: literature citations composed from their parts, inside real sentence ends

_BENCHES = {"最": "最高裁判所", "最大": "最高裁判所大法廷", "最一小": "最高裁判所第一小法廷",
            "最二小": "最高裁判所第二小法廷", "最三小": "最高裁判所第三小法廷", "大": "大審院",
            "東京高": "東京高等裁判所", "知財高": "知的財産高等裁判所", "大阪地": "大阪地方裁判所",
            "福岡高那覇支": "福岡高等裁判所那覇支部", "那覇地沖縄支": "那覇地方裁判所沖縄支部"}
_WIDE = str.maketrans("0123456789.", "０１２３４５６７８９．")
_BEFORE = ["", "この点は、", "（", "判例（", "なお、", "参照、"]
_AFTER = ["", "参照）。", "）。", "を参照。", "、", "等。"]


def _kanji(n: int) -> str:
    return str(n).translate(str.maketrans("0123456789", "〇一二三四五六七八九"))


@st.composite
def literature_citation(draw: st.DrawFn) -> tuple[str, str, str, str, str, str | None]:
    abbr = draw(st.sampled_from(sorted(_BENCHES)))
    court = _BENCHES[abbr]
    lo = date(1890, 1, 1) if abbr == "大" else date(1948, 1, 1)
    hi = date(1947, 5, 2) if abbr == "大" else date(2030, 12, 31)
    day = draw(st.dates(min_value=lo, max_value=hi))
    era = EraDate.from_date(day)
    assert era is not None
    decision = draw(st.sampled_from(["判決", "決定"]))
    letter = {"明治": "M", "大正": "T", "昭和": "S", "平成": "H", "令和": "R"}[era.era]
    era_name = draw(st.sampled_from([era.era, era.era[0], letter]))
    style = draw(st.sampled_from(["・", ".", "年"]))
    kanji = draw(st.booleans())  # old books write the numbers in kanji, digit by digit: 昭和四八・四・二五
    y, mo, d = (_kanji(n) if kanji else str(n) for n in (era.year, day.month, day.day))
    year = "元" if era.year == 1 and draw(st.booleans()) else y
    when = f"{era_name}{year}年{mo}月{d}日" if style == "年" else f"{era_name}{year}{style}{mo}{style}{d}"
    head = f"{abbr}{decision[0]}{draw(st.sampled_from(['', ' ', '　']))}{when}"
    volume = f"{draw(st.integers(1, 99))}巻{draw(st.integers(1, 12))}号{draw(st.integers(1, 9999))}頁"
    form = draw(st.sampled_from([None, *reporters().forms]))
    reporter = None if form is None else f"{form}{volume}"
    placing = draw(st.sampled_from(["after", "paren", "comma", "nakaguro"]))
    if reporter is None:
        text = head
    elif placing == "paren":
        text = f"{head}（{reporter}）"
    else:
        text = head + {"after": "", "comma": "、", "nakaguro": "・"}[placing] + reporter
    if draw(st.booleans()):
        text = text.translate(_WIDE)
    return text, head, court, day.isoformat(), decision, reporter


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(literature_citation(), st.sampled_from(_BEFORE), st.sampled_from(_AFTER))
def test_fuzz_the_literature_grammar_reads_every_part(
    cited: tuple[str, str, str, str, str, str | None], before: str, after: str
) -> None:
    text, _, court, day, decision, reporter = cited
    found = find_precedents(before + text + after)
    assert len(found) == 1, (text, found)
    [m] = found
    assert (m.start, m.end, m.surface) == (len(before), len(before) + len(text), text)
    assert (m.court, m.date, m.decision_type) == (court, day, decision)
    expected = None if reporter is None else reporter
    assert m.reporter == expected
