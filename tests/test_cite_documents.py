"""Several judgments in one text (a year of them): each is read as of the date in its own header.

The property: citing the texts joined gives, judgment by judgment, what citing each alone gives (the same
statuses, revisions and reasons), with offsets into the whole text and each citation's ``as_of`` the date of its
own judgment's header. Real judgments (tests/data/precedents, from courts.go.jp) of different years, over the
sample store (民法 in its 2020 and 2023 revisions) and over no store at all.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexgraph.citations.document import document_date, document_segments
from tests.helpers import ROOT, lexgraph

JUDGMENTS = ROOT / "tests" / "data" / "precedents"
# Four judgments with a header, decided 2015-09-08, 2022-06-17, 2023-09-13 and 2023-10-26.
DATED = ("85407.txt", "91244.txt", "92361.txt", "92453.txt")


def texts() -> list[str]:
    return [(JUDGMENTS / name).read_text(encoding="utf-8") for name in DATED]


def cited(path: Path, store: Path | None, *extra: str) -> tuple[list[dict[str, object]], str]:
    run = lexgraph("cite", path, "--json", *extra, store=store)
    assert run.code == 0, run.stderr
    return run.json()["citations"], run.stderr


@pytest.mark.parametrize("with_store", [True, False])
def test_each_judgment_of_a_joined_text_is_read_as_of_its_own_date(sample_store: Path, tmp_path: Path,
                                                                    with_store: bool) -> None:
    store = sample_store if with_store else None
    parts = texts()
    expected: list[dict[str, object]] = []
    offset = 0
    for number, text in enumerate(parts):
        alone = tmp_path / f"alone{number}.txt"
        alone.write_text(text, encoding="utf-8")
        own, _ = cited(alone, store)
        day = document_date(text)
        assert day is not None and all(c["as_of"] == day.isoformat() for c in own)
        expected += [{**c, "start": c["start"] + offset, "end": c["end"] + offset} for c in own]
        offset += len(text)
    joined = tmp_path / "year.txt"
    joined.write_text("".join(parts), encoding="utf-8")
    together, stderr = cited(joined, store)
    assert together == expected and len({c["as_of"] for c in together}) > 1
    assert "4 judgments in the text, each read as of the date in its own header" in stderr
    # --as-of still reads the whole text as of that one day.
    pinned, _ = cited(joined, store, "--as-of", "2021-01-01")
    assert {c["as_of"] for c in pinned} == {"2021-01-01"}


def test_a_case_number_that_opens_no_header_is_part_of_the_text() -> None:
    first = texts()[1]
    wrapped = first + "令和３年（オ）第２９３号の事件について、原審は次のとおり判断した。\n" * 3
    segments = list(document_segments([wrapped]))
    assert {s.document for s in segments} == {1} and "".join(s.text for s in segments) == wrapped


@given(st.lists(st.integers(min_value=1, max_value=5_000), min_size=1, max_size=30))
@settings(max_examples=60, deadline=None)
def test_segments_do_not_depend_on_how_the_text_is_cut(cuts: list[int]) -> None:
    whole = "前文\n" + "".join(texts())
    blocks, at = [], 0
    for size in cuts:
        blocks.append(whole[at:at + size])
        at += size
    blocks.append(whole[at:])
    segments = list(document_segments(blocks))
    assert "".join(s.text for s in segments) == whole
    assert all(whole[s.start:s.start + len(s.text)] == s.text for s in segments)
    starts = {s.document: s.day for s in segments}
    assert sorted(starts) == [0, 1, 2, 3, 4]
    assert [starts[n].isoformat() for n in (1, 2, 3, 4)] == ["2015-09-08", "2022-06-17", "2023-09-13",  # type: ignore[union-attr]
                                                             "2023-10-26"]
