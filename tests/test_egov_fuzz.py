"""Fuzzing the parser's entry point: arbitrary bytes and mutated real XML give our own error or a law, never a
crash or a stray exception type."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexgraph.errors import StatuteXmlError
from lexgraph.statutes.egov import parse_law_xml

SMALL_LAW = (Path(__file__).parent / "data" / "egov" / "331AC0000000120_20150801_000000000000000.xml").read_bytes()
# A real article-sized slice keeps each example fast while leaving the markup realistic.
HEAD = SMALL_LAW[:6000]


def _parse_or_explain(data: bytes) -> None:
    try:
        law = parse_law_xml(data, "fuzz.xml")
    except StatuteXmlError as err:
        assert str(err).startswith("fuzz.xml")
        return
    paths = [p.path for p in law.provisions]
    assert len(paths) == len(set(paths))
    assert all(p is not None for p in law.provisions)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=4000))
def test_arbitrary_bytes(data: bytes) -> None:
    _parse_or_explain(data)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cut=st.integers(min_value=0, max_value=len(SMALL_LAW)),
    position=st.integers(min_value=0, max_value=len(SMALL_LAW) - 1),
    insert=st.binary(min_size=0, max_size=40),
    delete=st.integers(min_value=0, max_value=200),
)
def test_mutated_real_xml(cut: int, position: int, insert: bytes, delete: int) -> None:
    mutated = SMALL_LAW[:position] + insert + SMALL_LAW[position + delete :]
    _parse_or_explain(mutated[: max(cut, 1)] if cut < len(SMALL_LAW) // 2 else mutated)


_TAGS = ["Law", "LawNum", "LawBody", "LawTitle", "MainProvision", "Article", "Paragraph", "Item", "Subitem1",
         "Subitem2", "Sentence", "Column", "SupplProvision", "AppdxTable", "TableStruct", "Ruby", "Rt", "Chapter",
         "ChapterTitle", "ArticleTitle", "ParagraphSentence", "ItemSentence", "ItemTitle", "Part", "PartTitle"]


@st.composite
def law_like_trees(draw: st.DrawFn, depth: int = 0) -> str:
    """Well-formed XML using the schema's element names in arbitrary nesting, with odd Num attributes."""
    tag = draw(st.sampled_from(_TAGS))
    num = draw(st.sampled_from(["", ' Num="1"', ' Num="089"', ' Num="3_2"', ' Num="38:84"', ' Num="x"',
                                ' Num="2:1"', ' Num="0"']))
    text = draw(st.text(alphabet="第一二三条項号削除ただし、。 \u3000", max_size=12))
    children = "" if depth > 4 else "".join(draw(st.lists(law_like_trees(depth + 1), max_size=3)))
    return f"<{tag}{num}>{text}{children}</{tag}>"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=law_like_trees(), title=st.text(max_size=10))
def test_schema_shaped_nonsense(body: str, title: str) -> None:
    escaped = title.replace("&", "&amp;").replace("<", "&lt;")
    document = f"<Law Era='Heisei' Year='1' Num='1'><LawNum>n</LawNum><LawBody><LawTitle>{escaped}</LawTitle>" \
               f"{body}<MainProvision>{body}</MainProvision></LawBody></Law>"
    _parse_or_explain(document.encode("utf-8", "surrogatepass"))


def test_a_huge_entity_expansion_is_refused() -> None:
    bomb = b'<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">' \
           b']><Law><LawNum>&b;</LawNum><LawBody><LawTitle>x</LawTitle></LawBody></Law>'
    law = parse_law_xml(bomb, "bomb.xml")  # entities are not resolved: no expansion, no crash
    assert "aaaaaaaaaa" not in law.meta.law_num
