"""The date a judgment speaks from, read from its header (real header lines of Supreme Court judgments)."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexgraph.citations.document import _first_lines, document_date
from tests.helpers import ROOT


@pytest.mark.parametrize(("text", "expected"), [
    ("平成２３年（受）第１８３３号\n平成２４年１２月１４日\n\n貸金請求事件\n\n第二小法廷判決\n主\n文",
     date(2012, 12, 14)),
    ("平成２７年（行ツ）第３７５号\n平成２８年２月２３日第三小法廷判決\n", date(2016, 2, 23)),  # 85793: one line
    ("令和４年（許）第１４号\n\n特別の寄与に関する処分申立て却下審判に対する抗告\n\n棄却決定に対する許可抗告事件\n"
     "令和５年１０月２６日\n\n第一小法廷決定\n", date(2023, 10, 26)),
    ("令和元年６月３日\n", date(2019, 6, 3)),
    # No header: the text starts with 主文, and a date inside a sentence is a date the text talks about
    ("主\n\n文\n\n本件上告を棄却する。\n理\n\n由\n\n１ 本件は，平成６年４月１２日に被上告人が", None),
    ("平成２４年１２月１４日に契約を締結した。", None),
    ("", None),
])
def test_header_dates(text: str, expected: date | None) -> None:
    assert document_date(text) == expected


def test_the_bundled_judgments() -> None:
    folder = ROOT / "tests" / "data" / "precedents"
    assert document_date((folder / "91244.txt").read_text(encoding="utf-8")) == date(2022, 6, 17)
    assert document_date((folder / "92453.txt").read_text(encoding="utf-8")) == date(2023, 10, 26)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="ab判決\r\n\x0b\x0c\x1c\x85\u2028 ", max_size=30), max_size=60),
       st.integers(min_value=0, max_value=50))
def test_first_lines_are_the_whole_texts_first_lines(pieces: list[str], count: int) -> None:
    """The header is read from a prefix of the text; its lines are exactly the whole text's first lines, also when
    the prefix is cut inside a line or between \\r and \\n (the text is repeated past the first prefix tried, so
    that the prefixes end at varying places)."""
    text = "".join(pieces) * 200
    assert _first_lines(text, count) == text.splitlines()[:count]
