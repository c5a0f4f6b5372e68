"""Days as people write them: ISO dates and Japanese era dates (和暦), the one table of eras.

Lawyers write 令和3年1月1日, 令和３年１月１日, 令和三年一月一日, R3.1.1, 平成31年4月30日 or 令和元年5月1日; a command's
``--as-of`` must take all of them. Year arithmetic is the courts' and the statutes' (平成N = 1988 + N). A day
before its era began (平成1年1月1日) does not exist and is refused. A day after its era ended is read two ways:
statutes written before an era ended name later days in it (平成三十四年四月一日 = 2022-04-01), and `era_day`
reads them by the same arithmetic; but a day a person gives (`parse_day`: ``--as-of 平成31年5月1日``) is checked
against the era's real span and refused with the day's own name (令和元年5月1日), since such a date is far more
likely a slip than a quotation, and reading it silently would answer for a day the reader did not mean to ask.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from lexgraph.errors import DateFormatError
from lexgraph.numerals import kanji_to_int

# Era name → (offset so that Gregorian year = offset + era year, first day of the era).
ERAS: dict[str, tuple[int, date]] = {
    "明治": (1867, date(1868, 1, 25)),
    "大正": (1911, date(1912, 7, 30)),
    "昭和": (1925, date(1926, 12, 25)),
    "平成": (1988, date(1989, 1, 8)),
    "令和": (2018, date(2019, 5, 1)),
}
# The era names of e-Gov XML (``<Law Era="Meiji">``).
ERA_LATIN = {"Meiji": "明治", "Taisho": "大正", "Showa": "昭和", "Heisei": "平成", "Reiwa": "令和"}
# The one-letter abbreviations of 元号 used in forms and spreadsheets (R3.1.1, H31.4.30).
ERA_LETTERS = {"M": "明治", "T": "大正", "S": "昭和", "H": "平成", "R": "令和"}

DATE_FORMS = "YYYY-MM-DD, 2021年1月1日, 令和3年1月1日 (全角・漢数字・元年も可) or R3.1.1"

_FULLWIDTH = str.maketrans("０１２３４５６７８９．／－：　ＲＨＳＴＭｒｈｓｔｍ", "0123456789./-: RHSTMrhstm")
_NUMBER = r"([0-9]+|[〇一二三四五六七八九十百千元]+)"
_ERA_KANJI = re.compile(rf"^(明治|大正|昭和|平成|令和)\s*{_NUMBER}\s*年\s*{_NUMBER}\s*月\s*{_NUMBER}\s*日?$")
_ERA_LETTER = re.compile(r"^([MTSHR])\s*([0-9]{1,2}|元)[./\-]([0-9]{1,2})[./\-]([0-9]{1,2})$", re.IGNORECASE)
_WESTERN = re.compile(rf"^([0-9]{{4}})\s*(?:年|[./\-])\s*{_NUMBER}\s*(?:月|[./\-])\s*{_NUMBER}\s*日?$")


def era_of(day: date) -> str | None:
    """The era a Gregorian date falls in (明治 … 令和), or None before 明治."""
    found = None
    for name, (_, first) in ERAS.items():
        if day >= first:
            found = name
    return found


def era_day(era: str, year: int, month: int, day: int) -> date:
    """The Gregorian day of an era date; ``DateFormatError`` when it does not exist or precedes its era."""
    offset, first = ERAS[era]
    try:
        value = date(offset + year, month, day)
    except ValueError as e:
        raise DateFormatError(f"{era}{year}年{month}月{day}日 does not exist ({e})") from None
    if year < 1 or value < first:
        raise DateFormatError(f"{era}{year}年{month}月{day}日 is before {era} began ({first.isoformat()})")
    return value


def era_end(era: str) -> date | None:
    """The last day of `era`, or None for the present one."""
    names = list(ERAS)
    following = names.index(era) + 1
    return ERAS[names[following]][1] - timedelta(days=1) if following < len(names) else None


def era_name(day: date) -> str:
    """`day` as a lawyer writes it in its own era: 令和元年5月1日 (the Gregorian date before 明治)."""
    era = era_of(day)
    if era is None:
        return f"{day.year}年{day.month}月{day.day}日"
    year = day.year - ERAS[era][0]
    return f"{era}{'元' if year == 1 else year}年{day.month}月{day.day}日"


def era_day_in_span(era: str, year: int, month: int, day: int) -> date:
    """`era_day`, refused also after the era ended, with the name of that day in its own era."""
    value = era_day(era, year, month, day)
    last = era_end(era)
    if last is not None and value > last:
        raise DateFormatError(f"{era}{'元' if year == 1 else year}年{month}月{day}日 is after {era} ended "
                              f"({era_name(last)}, {last.isoformat()}): that day is {era_name(value)} "
                              f"({value.isoformat()})")
    return value


def _number(text: str) -> int:
    value = kanji_to_int(text)
    if value is None:
        raise DateFormatError(f"{text!r} is not a number")
    return value


def parse_day(text: str) -> date:
    """The day ``text`` names, in any of :data:`DATE_FORMS`; ``DateFormatError`` saying why not."""
    s = " ".join(text.translate(_FULLWIDTH).split())
    try:
        return date.fromisoformat(s)
    except ValueError:
        pass
    try:
        if m := _ERA_KANJI.match(s):
            return era_day_in_span(m.group(1), *(_number(g) for g in m.groups()[1:]))
        if m := _ERA_LETTER.match(s):
            return era_day_in_span(ERA_LETTERS[m.group(1).upper()], *(_number(g) for g in m.groups()[1:]))
        if m := _WESTERN.match(s):
            return date(int(m.group(1)), _number(m.group(2)), _number(m.group(3)))
    except ValueError as e:  # DateFormatError, or a day that does not exist (2021-02-30)
        raise DateFormatError(f"{text!r} is not a date: {e}") from None
    raise DateFormatError(f"{text!r} is not a date; write it as {DATE_FORMS}")
