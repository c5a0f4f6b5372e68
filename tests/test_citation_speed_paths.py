"""The short cuts that make ``cite`` faster give what the long way gives.

`_CompactText.of` (the precedent finder's copy of a text without whitespace) reuses the statute finder's copy of
the same text where both remove the same runs; the seats and reporters of the precedent grammar are tried behind a
look at their first character (`_guarded`); the dateless grammar is tried only in stretches that name a court or
bench (`_dateless_matches`); the clause pattern only from the numerals before each unit character (`anchors`);
a one-character defined term (法) only where a particle follows it (`DefinedTerms.occurrences`); the level words
of a division found with str.find (`literals.places`).
Each is checked against the long way: on real texts (page numbers written every way a PDF leaves them), on a
hypothesis fuzz, and on the 742 Supreme Court judgments."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexgraph.citations import precedents
from lexgraph.citations.back_references import _WORD
from lexgraph.citations.compact import CompactText
from lexgraph.citations.literals import finditer_at, places
from lexgraph.citations.precedents import _CompactText, _guarded, find_precedents
from lexgraph.citations.statute_scan import PARTICLES, UNIT, anchors
from lexgraph.citations.terms import DefinedTerms
from tests.helpers import SHARED


def _copies(text: str) -> tuple[_CompactText, _CompactText]:
    """(the long way: its own split, the short way: after the statute finder's copy of the same string)."""
    alone = _CompactText(text)
    CompactText.of(text)
    return alone, _CompactText.of(text)


def _same(a: _CompactText, b: _CompactText) -> bool:
    return a.text == b.text and list(a._run_at) == list(b._run_at) and list(a._removed) == list(b._removed)


# Real lines of ../shared/data/precedents/supreme_court (90920.txt, 86341.txt) around the page numbers the PDF left.
_BEFORE = "別紙上告人の上告理由書記載のとおりであるが，民法７０９条の解釈を誤ったものである"
_AFTER = "最高裁平成２０年６月１２日第一小法廷判決・民集６２巻６号１６５６頁参照"
PAGE_NUMBERS = [
    ("own line", f"{_BEFORE}\n- 13 -\n\n\f{_AFTER}"),
    ("own line, at the end", f"{_BEFORE}\n- 13 -"),
    ("own line, spaces after", f"{_BEFORE}\n- 13 - \n{_AFTER}"),
    ("full-width digits", f"{_BEFORE}\n－ １３ －\n- １３ -\n{_AFTER}"),
    ("indented", f"{_BEFORE}\n  - 13 -\n{_AFTER}"),
    ("after a form feed", f"{_BEFORE}\n\f- 13 -\n{_AFTER}"),
    ("inside a line", f"{_BEFORE} - 13 -\n{_AFTER}"),
    ("first line", f"- 1 -\n{_AFTER}"),
    ("first line, indented", f"  - 1 -\n{_AFTER}"),
    ("two on one line", f"{_BEFORE}\n- 13 - 14 -\n{_AFTER}"),
    ("CRLF", f"{_BEFORE}\r\n- 13 -\r\n{_AFTER}"),
    ("none", f"{_BEFORE}\n{_AFTER}"),
    ("no whitespace", f"{_BEFORE}{_AFTER}"),
]


@pytest.mark.parametrize(("case", "text"), PAGE_NUMBERS, ids=[case for case, _ in PAGE_NUMBERS])
def test_the_shared_copy_is_the_copy_made_alone(case: str, text: str) -> None:
    alone, shared = _copies(text)
    assert _same(alone, shared), case


def test_the_copy_is_shared_only_for_the_same_string() -> None:
    text = f"{_BEFORE}\n{_AFTER}"
    CompactText.of(text)
    assert CompactText.last_of(text) is not None
    assert CompactText.last_of("".join([_BEFORE, "\n", _AFTER])) is None  # equal, but another string
    CompactText.of(_AFTER)
    assert CompactText.last_of(text) is None


_PIECES = st.sampled_from(["民法７０９条", "最判平成２３年１２月１６日", "民集６５巻９号３４５３頁", "- 12 -",
                           "－ １２ －", "\n", "\n\n", " ", "\u3000", "\f", "\t", "\r\n", "-", "１", "。", "（", "）"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=30))
def test_fuzz_the_shared_copy_is_the_copy_made_alone(pieces: list[str]) -> None:
    text = "".join(pieces)
    alone, shared = _copies(text)
    assert _same(alone, shared)
    CompactText.of("別の文字列")  # another string: nothing to share
    found_alone = find_precedents(text)
    CompactText.of(text)
    assert find_precedents(text) == found_alone


def test_a_guarded_alternation_matches_what_the_plain_one_matches() -> None:
    words = ["名古屋", "和歌山", "東京", "大阪", "大津", "津"]
    plain = re.compile(f"(?:{'|'.join(words)})(?:地裁|地方裁判所)")
    guarded = re.compile(f"{_guarded(words)}(?:地裁|地方裁判所)")
    for text in ["東京地裁", "大津地方裁判所", "津地裁", "大阪高裁", "京都地裁", "和歌山地裁", "地裁"]:
        assert [m.span() for m in plain.finditer(text)] == [m.span() for m in guarded.finditer(text)], text
    assert _guarded(["a.b", "(x"]).startswith(r"(?=[a\(])")  # first characters escaped


@pytest.mark.requires("shared")
def test_every_supreme_court_judgment_gives_the_same_copy_and_precedents_both_ways() -> None:
    corpus = sorted((SHARED / "precedents" / "supreme_court").glob("*.txt"))
    assert len(corpus) > 700
    shared = 0
    for path in corpus:
        text = path.read_text(encoding="utf-8")
        alone, copy = _copies(text)
        assert _same(alone, copy), path.name
        shared += not text.startswith("-") and precedents._PAGE_NUMBER_AFTER_SPACE.search(text) is None
    assert shared > 700  # the short cut is taken for nearly all of them


# Unit characters of other words (条件, 事項, 号外, 条約), relative units and numerals, mixed as judgments mix them.
_UNIT_PIECES = st.sampled_from(["第", "三", "１", "2", "十", "条", "項", "号", "の", "二", "件", "目", "外", "約",
                                "同", "前", "各", "次", "右", "本", "この", "条項", "事", "民法", "、", "及び", "から",
                                "まで"])


@settings(max_examples=500, deadline=None)
@given(st.lists(_UNIT_PIECES, max_size=40))
def test_fuzz_anchors_are_the_matches_of_the_unit_pattern(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert [m.span() for m in anchors(text)] == [m.span() for m in UNIT.finditer(text)]


_COURT_PIECES = st.sampled_from(["最高裁", "最高裁判所", "大審院", "当裁判所", "大法廷", "第一小法廷", "判決", "決定",
                                 "・", "、", "民集", "６５巻", "９号", "３４５３頁", "刑集", "判時", "。", "「", "」",
                                 "平成２３年", "第", "法廷", "大"])


@settings(max_examples=500, deadline=None)
@given(st.lists(_COURT_PIECES, max_size=30))
def test_fuzz_the_dateless_matches_kept_are_those_of_a_whole_scan(pieces: list[str]) -> None:
    text = "".join(pieces)
    whole = [m.span() for m in precedents._dateless_re().finditer(text) if m["court"] or m["bench"]]
    assert [m.span() for m in precedents._dateless_matches(text) if m["court"] or m["bench"]] == whole


@pytest.mark.requires("shared")
def test_every_supreme_court_judgment_gives_the_same_anchors_and_dateless_matches() -> None:
    for path in sorted((SHARED / "precedents" / "supreme_court").glob("*.txt")):
        text = _CompactText(path.read_text(encoding="utf-8")).text
        assert [m.span() for m in anchors(text)] == [m.span() for m in UNIT.finditer(text)], path.name
        whole = [m.span() for m in precedents._dateless_re().finditer(text) if m["court"] or m["bench"]]
        assert [m.span() for m in precedents._dateless_matches(text) if m["court"] or m["bench"]] == whole, path.name


# Real sentences of the judgments (90787.txt, 83879.txt) with the one-character term 法 and longer ones.
_TERM_TEXT = ("電気通信事業法（昭和五十九年法律第八十六号。以下「法」という。）は，法の目的を定め，方法や法人の"
              "規定を置く。本件条例及び条例の規定，法が定める手続，法人税法，本件条例の２条")
_TERMS = st.lists(st.sampled_from(["法", "本件条例", "条例", "法人", "方法", "税法", "電気通信事業法"]), min_size=1,
                  max_size=4)


@settings(max_examples=200, deadline=None)
@given(_TERMS, st.integers(min_value=-1, max_value=60))
def test_fuzz_occurrences_before_particles_are_the_filtered_occurrences(terms: list[str], effective: int) -> None:
    defined = DefinedTerms()
    for term in terms:
        defined.add(effective, term)
    every = list(defined.occurrences(_TERM_TEXT))
    wanted = [(p, t) for p, t in every
              if len(t) > 1 or (p + 1 < len(_TERM_TEXT) and _TERM_TEXT[p + 1] in PARTICLES)]
    assert list(defined.occurrences(_TERM_TEXT, single_before=PARTICLES)) == wanted
    assert list(defined.occurrences(_TERM_TEXT)) == every  # the other question's pattern is kept apart


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="編章節款目第三十の二条項あ\n", max_size=60), st.integers(min_value=0, max_value=10))
def test_fuzz_places_are_the_starts_of_a_character_class(text: str, start: int) -> None:
    expected = [m.start() for m in re.compile("[編章節款目]").finditer(text, start)]
    assert list(places(text, "編章節款目", start)) == expected
    assert list(places(text, "章章", start)) == [m.start() for m in re.compile("章").finditer(text, start)]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="判決定 \n\u3000原審", max_size=60))
def test_fuzz_matches_tried_where_their_first_characters_stand_are_finditers(text: str) -> None:
    """The back references' 判決 / 決定 (with whitespace inside, as PDFs break them), overlapping ones included."""
    assert [m.span() for m in finditer_at(_WORD, text, "判決")] == [m.span() for m in _WORD.finditer(text)]
