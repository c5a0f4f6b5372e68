"""A range's members: 「第二十七条の三十六第一項から第三項まで」 points a reader at 第二項 too. Without a store, the
members its ends imply where numbering is plain, marked implied; with a store that holds the law, every member in
force on the day (第三条の二 between 第三条 and 第四条 included)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexgraph.citations import CitationContext, extract
from lexgraph.citations.resolve import implied_members
from tests.helpers import lexgraph

CASES: list[tuple[str, str, tuple[str, ...] | None]] = [
    # the examples the rule was written for (金融商品取引法), read alone
    ("金融商品取引法第二十七条の三十六第一項から第三項まで", "第二十七条の三十六第一項から第三項まで",
     ("a27_36/p1", "a27_36/p2", "a27_36/p3")),
    ("金融商品取引法第二条第二十一項第一号から第五号まで", "第二条第二十一項第一号から第五号まで",
     ("a2/p21/i1", "a2/p21/i2", "a2/p21/i3", "a2/p21/i4", "a2/p21/i5")),
    # judgments' forms: 「ないし」, 「～」 (90920.txt: 本件条例５条～１０条)
    ("民法７０９条ないし７１１条", "７０９条ないし７１１条", ("a709", "a710", "a711")),
    ("刑法１９９条～２０２条", "１９９条～２０２条", ("a199", "a200", "a201", "a202")),
    # a branch at an end: only the law knows what lies between
    ("民法第三条から第五条の二まで", "第三条から第五条の二まで", None),
]


@pytest.mark.parametrize(("text", "written", "members"), CASES)
def test_range_members_without_a_store_are_implied(text: str, written: str,
                                                     members: tuple[str, ...] | None) -> None:
    [found] = [c for c in extract(text, CitationContext()) if c.kind == "statute"]
    assert found.surface.endswith(written)
    assert (found.members, found.members_implied) == (members, True if members else None)
    assert found.to_json()["members"] == members


def test_a_single_clause_has_no_members() -> None:
    [found] = extract("民法第七百九条", CitationContext())
    assert (found.members, found.members_implied) == (None, None)


def test_with_a_store_the_members_are_those_in_force(sample_store: Path, tmp_path: Path) -> None:
    """民法 as the sample store holds it (known up to 2023-06-14): 第三条から第五条まで holds 第三条の二 (意思能力),
    which the ends alone do not imply; every member is a clause the store has in force that day."""
    text = tmp_path / "ranges.txt"
    text.write_text("民法第三条から第五条まで及び民法第七百七十条第一項第一号から第五号まで", encoding="utf-8")
    run = lexgraph("cite", text, "--as-of", "2023-06-01", "--json", store=sample_store)
    assert run.code == 0, run.stderr
    found = [c for c in run.json()["citations"] if c["kind"] == "statute"]
    assert [(c["members"], c["members_implied"]) for c in found] == [
        (["a3", "a3_2", "a4", "a5"], False),
        (["a770/p1/i1", "a770/p1/i2", "a770/p1/i3", "a770/p1/i4", "a770/p1/i5"], False)]
    alone = lexgraph("cite", text, "--as-of", "2023-06-01", "--json")
    assert [(c["members"], c["members_implied"]) for c in alone.json()["citations"]] == [
        (["a3", "a4", "a5"], True),
        (["a770/p1/i1", "a770/p1/i2", "a770/p1/i3", "a770/p1/i4", "a770/p1/i5"], True)]


@settings(max_examples=200, deadline=None)
@given(parent=st.sampled_from(["", "a12", "a27_36", "a2/p21"]), level=st.sampled_from(["a", "p", "i"]),
       low=st.integers(1, 300), span=st.integers(-3, 250))
def test_fuzz_implied_members(parent: str, level: str, low: int, span: int) -> None:
    """Implied members run from the first end to the last, one step at a time, under the same parent; none when
    the ends are not in order or too far apart."""
    prefix = f"{parent}/{level}" if parent else level
    first, last = f"{prefix}{low}", f"{prefix}{low + span}"
    members = implied_members(first, last)
    if span <= 0 or span > 200:
        assert members is None
    else:
        assert members is not None and members[0] == first and members[-1] == last and len(members) == span + 1
    assert implied_members(first, f"{prefix}{low + 1}_2") is None
