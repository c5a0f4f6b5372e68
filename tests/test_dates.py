"""Days as lawyers write them (``--as-of``): ISO, 西暦 with 年月日, and 和暦 in every numeral style."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lexgraph.dates import ERAS, era_day, era_name, era_of, parse_day
from lexgraph.errors import DateFormatError

ACCEPTED = [
    ("2021-01-01", date(2021, 1, 1)),
    ("令和3年1月1日", date(2021, 1, 1)),
    ("令和３年１月１日", date(2021, 1, 1)),
    ("令和三年一月一日", date(2021, 1, 1)),
    ("R3.1.1", date(2021, 1, 1)),
    ("r3/1/1", date(2021, 1, 1)),
    ("Ｒ３．１．１", date(2021, 1, 1)),
    ("平成31年4月30日", date(2019, 4, 30)),  # the last day of 平成
    ("H31.4.30", date(2019, 4, 30)),
    ("令和元年5月1日", date(2019, 5, 1)),  # the first day of 令和
    ("令和元年五月一日", date(2019, 5, 1)),
    ("昭和64年1月7日", date(1989, 1, 7)),
    ("平成元年1月8日", date(1989, 1, 8)),
    ("明治二十九年四月二十七日", date(1896, 4, 27)),  # 民法 (明治二十九年法律第八十九号) was promulgated
    ("2022年4月1日", date(2022, 4, 1)),
    ("２０２２年４月１日", date(2022, 4, 1)),
    ("2022/4/1", date(2022, 4, 1)),
    (" 令和 3年 1月 1日 ", date(2021, 1, 1)),
]


@pytest.mark.parametrize(("text", "day"), ACCEPTED)
def test_accepted(text: str, day: date) -> None:
    assert parse_day(text) == day


REFUSED = [
    ("令和元年4月30日", "before 令和 began"),  # still 平成
    ("平成1年1月7日", "before 平成 began"),
    ("令和3年2月30日", "does not exist"),
    # a day after its era ended: the message names it in its own era
    ("平成31年5月1日", "after 平成 ended .*平成31年4月30日.*that day is 令和元年5月1日"),
    ("H31.5.1", "令和元年5月1日"),
    ("昭和64年1月8日", "after 昭和 ended .*昭和64年1月7日.*that day is 平成元年1月8日"),
    ("大正15年12月25日", "that day is 昭和元年12月25日"),
    ("平成三十四年四月一日", "that day is 令和4年4月1日"),  # a statute's wording, not a day a reader asks about
    ("2021-13-01", "not a date"),
    ("yesterday", "令和3年1月1日"),  # the message lists the forms read
    ("令和3年", "R3.1.1"),
    ("", "YYYY-MM-DD"),
]


@pytest.mark.parametrize(("text", "message"), REFUSED)
def test_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(DateFormatError, match=message):
        parse_day(text)


@given(st.dates(min_value=date(1868, 1, 25), max_value=date(2100, 12, 31)))
def test_an_era_date_reads_back(day: date) -> None:
    era = era_of(day)
    assert era is not None
    year = day.year - ERAS[era][0]
    assert parse_day(f"{era}{'元' if year == 1 else year}年{day.month}月{day.day}日") == day
    assert parse_day(day.isoformat()) == day


def test_a_statute_reads_a_day_past_its_era_by_the_same_arithmetic() -> None:
    """Statutes written before 令和 name 平成三十四年四月一日 (成年年齢: 2022-04-01): read as the statute means it."""
    assert era_day("平成", 34, 4, 1) == date(2022, 4, 1)


@given(st.dates(min_value=date(1868, 1, 25), max_value=date(2100, 12, 31)))
def test_a_day_named_in_its_era_reads_back(day: date) -> None:
    assert parse_day(era_name(day)) == day


@given(st.text(max_size=20))
def test_any_text_gives_a_day_or_the_forms_read(text: str) -> None:
    try:
        assert isinstance(parse_day(text), date)
    except DateFormatError as e:
        assert text.strip() == "" or repr(text) in str(e) or "年" in str(e)
