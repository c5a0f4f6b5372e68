"""The marks of a 新旧対照 (`lexgraph.cli.comparison`), fuzzed: taking the marks out gives back both wordings, only
what differs is marked, and folding to a width never loses or adds a character."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len

from lexgraph.cli.comparison import changed_runs, folded, marked

WORDING = st.text(alphabet="第一二三条項　、。の前規定は十八歳\n", max_size=60)


def _unmarked(text: str) -> str:
    return re.sub(r"\[-|-\]|\{\+|\+\}", "", text)


@given(WORDING, WORDING)
def test_marks_taken_out_give_back_both_wordings(before: str, after: str) -> None:
    old, new = marked(before, after)
    assert old is not None and new is not None
    assert _unmarked(old.plain) == before
    assert _unmarked(new.plain) == after
    if before == after:
        assert old.plain == before and new.plain == after  # nothing marked


@given(WORDING, WORDING)
def test_runs_cover_both_wordings(before: str, after: str) -> None:
    runs = changed_runs(before, after)
    assert "".join(old for _, old, _ in runs) == before
    assert "".join(new for _, _, new in runs) == after
    assert all(old == new for what, old, new in runs if what == "equal")


def test_an_added_or_removed_clause_is_shown_whole() -> None:
    old, new = marked(None, "第一条　新設")
    assert old is None and new is not None and new.plain == "第一条　新設"


@given(WORDING, st.integers(min_value=2, max_value=40))
def test_folding_keeps_every_character_within_the_width(text: str, width: int) -> None:
    old, _ = marked(text, text)
    assert old is not None
    pieces = folded(old, width)
    assert all(cell_len(piece.plain) <= width for piece in pieces)
    assert "".join(piece.plain for piece in pieces) == old.plain.replace("\n", "")
