"""Japanese era dates (和暦) as they are written in judgments, turned into Gregorian dates.

Judgments cite each other with dates such as 「昭和５０年２月２５日」, 「平成元年」, 「同２３年４月２２日」 or
「同年１２月４日」: the last two only make sense against the date written just before them. This module keeps
that reasoning in one place so that the precedent finder (and anyone else) can ask "what date does this
string mean, given the one before it?".

An :class:`EraDate` keeps the era itself and not just a Gregorian date, because 「同２年」 after 「昭和元年」
means 昭和2 = 1927, whereas after 「大正１５年」 (the same Gregorian year 1926) it means 大正2 = 1913.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from functools import lru_cache

from lexgraph.dates import ERAS, era_of
from lexgraph.numerals import kanji_to_int


@dataclass(frozen=True)
class EraDate:
    """A date as written in an era: year always, month and day when the text gives them."""

    era: str
    year: int
    month: int | None = None
    day: int | None = None

    @property
    def gregorian_year(self) -> int:
        return ERAS[self.era][0] + self.year

    @property
    def year_text(self) -> str:
        """The era and its year as written: 令和4, and 元 for an era's first year (令和元)."""
        return f"{self.era}{'元' if self.year == 1 else self.year}"

    def to_date(self) -> date | None:
        """The Gregorian date, or None when month or day is missing or the day does not exist (2月30日)."""
        if self.month is None or self.day is None:
            return None
        try:
            return date(self.gregorian_year, self.month, self.day)
        except ValueError:
            return None

    @classmethod
    def from_date(cls, day: date) -> EraDate | None:
        era = era_of(day)
        if era is None:
            return None
        return cls(era, day.year - ERAS[era][0], day.month, day.day)


_NUM = r"[0-9０-９〇一二三四五六七八九十百千]+"
_DATE_RE = re.compile(
    rf"(?:(?P<era>{'|'.join(ERAS)})(?P<y>{_NUM}|元)年|同(?P<y2>{_NUM}|元)年|(?P<sy>同年))?"
    rf"(?:(?P<m>{_NUM})月|(?P<sm>同月))?"
    rf"(?:(?P<d>{_NUM})日|(?P<sd>同日))?"
)
_SPACE_RE = re.compile(r"\s+")


@lru_cache(maxsize=4096)  # pure; a judgment writes the same dates again and again
def parse_era_date(text: str, previous: EraDate | date | None = None) -> EraDate | None:
    """Parse 「平成２３年４月２２日」, 「同２３年４月２２日」, 「同年同月２２日」, 「同日」, 「令和元年」.

    `previous` is the date written before this one in the text; 同 (same) takes the era, year or month from
    it. Returns None when the text is not a date or needs a `previous` it was not given. Whitespace inside
    the text (line breaks from PDFs) is ignored. Missing month and day stay None (「平成元年」).
    """
    text = _SPACE_RE.sub("", text)
    m = _DATE_RE.fullmatch(text)
    if m is None or not text:
        return None
    prev = EraDate.from_date(previous) if isinstance(previous, date) else previous
    if m["era"]:
        era, year = m["era"], kanji_to_int(m["y"])
    elif m["y2"]:
        if prev is None:
            return None
        era, year = prev.era, kanji_to_int(m["y2"])
    elif m["sy"] or m["sm"] or m["sd"]:
        if prev is None:
            return None
        era, year = prev.era, prev.year
    else:  # a bare 「４月２２日」 has no year to stand on
        return None
    if year is None or year < 1:
        return None
    month: int | None
    if m["m"]:
        month = kanji_to_int(m["m"])
    elif m["sm"] or m["sd"]:
        if prev is None or prev.month is None:
            return None
        month = prev.month
    else:
        month = None
    day: int | None
    if m["d"]:
        day = kanji_to_int(m["d"])
    elif m["sd"]:
        if prev is None or prev.day is None:
            return None
        day = prev.day
    else:
        day = None
    if m["sd"] and (m["m"] or m["sm"] or m["era"] or m["y2"] or m["sy"]):
        return None  # 「同年同日」 is not a way of writing a date
    if day is not None and month is None:
        return None
    return EraDate(era, year, month, day)


def parse_japanese_date(text: str, previous: EraDate | date | None = None) -> date | None:
    """The Gregorian date a full era date means (year, month and day), or None; see :func:`parse_era_date`."""
    parsed = parse_era_date(text, previous)
    return parsed.to_date() if parsed else None
