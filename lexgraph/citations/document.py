"""Facts about a whole document that its citations depend on: the date it speaks from.

A judgment's statutes are read as they stood on the day it was handed down, so ``lexgraph cite`` takes that day
from the text when no ``--as-of`` is given. Court texts open with a header (case number, date, case name, bench);
the date is the first line of the header that is a full date and nothing else, or a date followed by the bench and
判決 / 決定 (平成２４年１２月１４日　第二小法廷判決).
"""

from __future__ import annotations

import re
from datetime import date

from lexgraph.citations.dates import parse_japanese_date

_HEADER_LINES = 12  # a header is short; a date deeper in the text is a date the text talks about
_NUM = r"[元\d０-９〇一二三四五六七八九十]+"
_LEADING_DATE = re.compile(rf"^((?:明治|大正|昭和|平成|令和){_NUM}年{_NUM}月{_NUM}日)(.*)$")
_BENCH_AND_TYPE = re.compile(r"^[^。、，,]{0,30}(?:判決|決定|命令)$")  # 第三小法廷判決, 大法廷判決, 判決


def document_date(text: str) -> date | None:
    """The date a judgment or decision was handed down, read from its header; None when the text has none."""
    lines = [line.strip() for line in text.splitlines()[:_HEADER_LINES * 3] if line.strip()][:_HEADER_LINES]
    for line in lines:
        match = _LEADING_DATE.match(line.replace(" ", "").replace("\u3000", ""))
        if match is None:
            continue
        rest = match.group(2)
        if rest and not _BENCH_AND_TYPE.match(rest):
            continue  # a sentence that starts with a date is not a header
        day = parse_japanese_date(match.group(1))
        if day is not None:
            return day
    return None
