"""A labelled heading that names a law (「第３　国家賠償法１条１項の解釈について」, 「２　民法７０９条の責任」)
makes that law the law under discussion in its section: a bare article of a later sentence there, after another law was
named, is `ambiguous` with the heading's law first (as after a defined 「本件条例」), and never past the next heading
of the same or an outer level (`lexgraph.citations.layout.heading_sections`).

Rows: the headings of a new user's judgments (the issue's own strings: the 742 Supreme Court texts, set from PDF,
hold labels on lines of their own), and real lines of 24926.txt (../shared), whose sibling headings (1)…(5) each
name 法 and end one another's sections.
"""

from __future__ import annotations

import re
from datetime import date
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexgraph.citations import CitationContext, extract
from lexgraph.citations.layout import HEADING_REACH, heading_sections, label_level
from lexgraph.citations.stream import MARGIN_CHARS, iter_citations
from tests.helpers import SHARED

DAY = date(2022, 6, 17)
KOKUBAI, MINPO = "国家賠償法", "民法"


def bare(text: str) -> list[tuple[str, str | None, str]]:
    """(surface, law title, status) of each statute citation."""
    found = [c.to_json() for c in extract(text, CitationContext(as_of=DAY), precedents=False)]
    return [(re.sub(r"\s", "", c["surface"]), c["law_title"], c["status"]) for c in found if c["kind"] == "statute"]


HEADINGS: list[tuple[str, str, list[tuple[str, str | None, str]]]] = [
    ("heading-then-another-law",
     "第３　国家賠償法１条１項の解釈について\n１　民法７０９条の不法行為責任とは異なる。\n"
     "１条２項は，公務員に故意又は重大な過失があったときは求償権を有すると定める。\n",
     [("国家賠償法１条１項", KOKUBAI, "resolved"), ("民法７０９条", MINPO, "resolved"),
      ("１条２項", KOKUBAI, "ambiguous")]),
    ("inner-heading-keeps-the-section",
     "２　民法７０９条の責任\n(1)　損害\n国家賠償法１条１項の責任とは異なる。\n７１５条の使用者責任も問題となる。\n",
     [("民法７０９条", MINPO, "resolved"), ("国家賠償法１条１項", KOKUBAI, "resolved"),
      ("７１５条", MINPO, "ambiguous")]),
    ("next-heading-of-the-same-level-ends-it",
     "第３　国家賠償法１条１項の解釈について\n上告人の主張は採用できない。\n第４　損害について\n"
     "民法７０９条の要件を検討する。\n７１５条の使用者責任は問題とならない。\n",
     [("国家賠償法１条１項", KOKUBAI, "resolved"), ("民法７０９条", MINPO, "resolved"),
      ("７１５条", MINPO, "resolved")]),
    ("same-sentence-keeps-the-law-named-last",
     "第３　国家賠償法１条１項の解釈について\n民法７０９条及び７１５条の適用はない。\n",
     [("国家賠償法１条１項", KOKUBAI, "resolved"), ("民法７０９条", MINPO, "resolved"),
      ("７１５条", MINPO, "resolved")]),
    ("no-heading-the-law-named-last",
     "国家賠償法１条１項の解釈について述べる。\n民法７０９条の不法行為責任とは異なる。\n"
     "１条２項は，求償権を定める。\n",
     [("国家賠償法１条１項", KOKUBAI, "resolved"), ("民法７０９条", MINPO, "resolved"),
      ("１条２項", MINPO, "resolved")]),
    ("a-labelled-sentence-is-no-heading",
     "１　上告人の請求は国家賠償法１条１項に基づくものであり\n理由がない。民法７０９条の責任も同様である。\n"
     "１条２項は，求償権を定める。\n",
     [("国家賠償法１条１項", KOKUBAI, "resolved"), ("民法７０９条", MINPO, "resolved"),
      ("１条２項", MINPO, "resolved")]),
]


@pytest.mark.parametrize(("text", "expected"), [row[1:] for row in HEADINGS], ids=[row[0] for row in HEADINGS])
def test_a_heading_sets_the_law_under_discussion_in_its_section(text: str, expected: list[Any]) -> None:
    assert bare(text) == expected


def test_the_reason_names_both_laws() -> None:
    found = extract(HEADINGS[0][1], CitationContext(as_of=DAY), precedents=False)[-1]
    assert found.status == "ambiguous" and found.law_id == "322AC0000000125"
    assert "named in its section's heading" in (found.reason or "") and MINPO in (found.reason or "")


@pytest.mark.requires("shared")
def test_sibling_headings_end_each_others_sections() -> None:
    """24926.txt: 「(1) 法６９条及び７０条の規定による負担金」 … 「(5) 法７５条の規定による貸付金」, each a heading
    naming 法 (国民健康保険法), each section ended by the next sibling."""
    text = (SHARED / "precedents" / "supreme_court" / "24926.txt").read_text(encoding="utf-8")
    block = text.index("(1) 法６９条")
    starts = [m.start() + (m.group(0)[0] == "\f") for m in re.finditer(r"(?m)^\f?\([1-5]\) 法", text)
              if m.start() >= block]
    assert [text[s:s + 3] for s in starts] == ["(1)", "(2)", "(3)", "(4)", "(5)"]
    sections = heading_sections(text, [start + 4 for start in starts])
    for this, following in pairwise(starts):  # (4)'s ends at (5), after a page break
        assert sections[this + 4] == following
    # 「(1) 法は，国民健康保険事業の健全な運営を確保し，…」 is a labelled sentence, not a heading: no section
    sentence = text.index("(1) 法は，")
    assert heading_sections(text, [sentence + 4]) == {}
    assert label_level(text[sentence:sentence + 4]) == 2


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(1, 5), st.integers(0, 300)), min_size=1, max_size=8))
def test_a_section_ends_at_the_next_heading_of_its_level_or_above(headings: list[tuple[int, int, int]]) -> None:
    """Random outlines: every heading names 民法; its section ends at the next heading of the same or an outer
    level, else `HEADING_REACH` after it, else at the text's end."""
    lines, starts, levels = [], [], []
    position = 0
    for level, number, body in headings:
        label = ["第{}　", "{}　", "（{}）"][level].format("１２３４５"[number - 1])
        line = f"{label}民法７０９条について\n"
        starts.append(position)
        levels.append(level)
        body_text = "あ" * body + "\n" if body else ""
        lines.append(line + body_text)
        position += len(line) + len(body_text)
    text = "".join(lines)
    at = [start + text[start:].index("民法") for start in starts]
    sections = heading_sections(text, at)
    for index, start in enumerate(starts):
        following = [s for s, level in zip(starts[index + 1:], levels[index + 1:], strict=True)
                     if level <= levels[index]]
        expected = min(following[0] if following else len(text), start + HEADING_REACH, len(text))
        assert sections[at[index]] == expected


def test_a_streamed_text_finds_the_same_sections() -> None:
    """A section reaches at most `HEADING_REACH`, within the margin a piece is read with, so that a text read piece
    by piece gives what a whole read gives."""
    assert MARGIN_CHARS >= HEADING_REACH
    text = (HEADINGS[0][1] + "あ" * 200 + "。\n") * 40
    context = CitationContext(as_of=DAY)
    whole = [c.to_json() for c in extract(text, context)]
    pieces = [c.to_json() for c in iter_citations([text], context, piece_chars=300)]
    assert pieces == whole
    assert sum(c["status"] == "ambiguous" for c in whole) == 40


# The layout of the 742 Supreme Court texts (set from PDF): the label alone on its line, the title on the next,
# blank lines between. Each one-line heading above, set so, reads the same.
def _label_alone(text: str) -> str:
    label, title = text.split("\u3000", 1)
    return f"{label}\n\n{title}"


@pytest.mark.parametrize(("text", "expected"), [(_label_alone(row[1]), row[2]) for row in HEADINGS[:4]],
                         ids=[f"label-alone-{row[0]}" for row in HEADINGS[:4]])
def test_a_heading_whose_label_stands_alone_reads_as_a_one_line_heading(text: str, expected: list[Any]) -> None:
    assert bare(text) == expected


# Real headings of the 742 texts in their own layout (86543.txt 「(1)⏎⏎不正競争防止法２条１項１号に関する部分に
# ついて」, 87281.txt 「１⏎⏎放送法６４条１項の意義」, 90323.txt 「第２⏎⏎上告人の民訴法２６０条２項の裁判を求める申立て
# について」), with a sentence naming another law and a bare article after it.
FUSEIKYO, SHOHYO, HOSO, MINSO = "不正競争防止法", "商標法", "放送法", "民事訴訟法"
LABEL_ALONE: list[tuple[str, str, list[tuple[str, str | None, str]]]] = [
    ("bracketed-label",
     "(1)\n\n不正競争防止法２条１項１号に関する部分について\n\n商標法４条１項１０号の規定とは異なる。\n"
     "２条１項２号は，著名な商品等表示について定める。\n",
     [("不正競争防止法２条１項１号", FUSEIKYO, "resolved"), ("商標法４条１項１０号", SHOHYO, "resolved"),
      ("２条１項２号", FUSEIKYO, "ambiguous")]),
    ("number-label-short-title",
     "１\n放送法６４条１項の意義\n民法５２１条の契約自由の原則の例外となる。\n６４条２項は，受信料の免除について定める。\n",
     [("放送法６４条１項", HOSO, "resolved"), ("民法５２１条", MINPO, "resolved"),
      ("６４条２項", HOSO, "ambiguous")]),
    ("page-break-before-label",
     "\f第２\n\n上告人の民訴法２６０条２項の裁判を求める申立てについて\n\n民法７０３条に基づく請求である。\n"
     "２６０条２項の裁判は，仮執行の宣言が変更された場合にする。\n",
     [("民訴法２６０条２項", MINSO, "resolved"), ("民法７０３条", MINPO, "resolved"),
      ("２６０条２項", MINSO, "ambiguous")]),
    ("next-label-alone-ends-the-section",
     "(1)\n\n不正競争防止法２条１項１号に関する部分について\n\n原審の判断には違法がある。\n(2)\n\n損害について\n\n"
     "民法７０９条の要件を検討する。\n７１５条の使用者責任は問題とならない。\n",
     [("不正競争防止法２条１項１号", FUSEIKYO, "resolved"), ("民法７０９条", MINPO, "resolved"),
      ("７１５条", MINPO, "resolved")]),
    ("a-label-alone-before-a-sentence-is-no-heading",
     "１\n\n特例企業税は，地方税法４条３項に基づく法定外普通税であるから，\n民法７０９条とは関係がない。\n"
     "３条は，地方団体の課税権を定める。\n",
     [("地方税法４条３項", "地方税法", "resolved"), ("民法７０９条", MINPO, "resolved"),
      ("３条", MINPO, "resolved")]),
]


@pytest.mark.parametrize(("text", "expected"), [row[1:] for row in LABEL_ALONE], ids=[row[0] for row in LABEL_ALONE])
def test_a_heading_in_the_judgments_layout_sets_the_law_under_discussion(text: str, expected: list[Any]) -> None:
    assert bare(text) == expected


@pytest.mark.requires("shared")
def test_the_heading_of_82895_gives_its_bare_articles_to_the_rule_it_discusses() -> None:
    """82895.txt: 「(2)⏎⏎新施行規則の関係規定」, then 「…販売し，又は授与してはならない（１４２条，１５条の４第１項
    １号）」: articles of the 施行規則 the heading names, which the law named last (the Act, 新薬事法) was given
    before."""
    text = (SHARED / "precedents" / "supreme_court" / "82895.txt").read_text(encoding="utf-8")
    sentence = text.index("（１４２条，１５条の４第１項１号）")
    found = {c.surface: c for c in extract(text, CitationContext(as_of=date(2013, 1, 11)), precedents=False)
             if sentence < c.start < sentence + 20}
    for surface in ("１４２条", "１５条の４第１項１号"):
        assert found[surface].law_id == "336M50000100001" and found[surface].status == "ambiguous", surface
        assert "named in its section's heading" in (found[surface].reason or "")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(1, 5), st.integers(0, 300), st.integers(0, 3)),
                min_size=1, max_size=8))
def test_a_label_alone_heads_a_section_as_a_one_line_label_does(headings: list[tuple[int, int, int, int]]) -> None:
    """Random outlines in the judgments' layout (the label alone, 0 to 3 blank lines, the title naming 民法): each
    section ends at the next label of the same or an outer level, as in the one-line layout."""
    lines, starts, levels = [], [], []
    position = 0
    for level, number, body, blanks in headings:
        label = ["第{}", "{}", "（{}）"][level].format("１２３４５"[number - 1])
        heading = f"{label}\n" + "\n" * blanks + "民法７０９条について\n"
        body_text = "あ" * body + "\n" if body else ""
        starts.append(position)
        levels.append(level)
        lines.append(heading + body_text)
        position += len(heading) + len(body_text)
    text = "".join(lines)
    at = [start + text[start:].index("民法") for start in starts]
    sections = heading_sections(text, at)
    for index in range(len(starts)):
        following = [s for s, level in zip(starts[index + 1:], levels[index + 1:], strict=True)
                     if level <= levels[index]]
        title_line = text.rfind("\n", 0, at[index]) + 1  # the reach counts from the title's line
        expected = min(following[0] if following else len(text), title_line + HEADING_REACH, len(text))
        assert sections[at[index]] == expected
