"""同判決 / 同決定 / 前掲最判 read as a back reference to the precedent cited before them in the same
document (eyecite's "id.": found, then resolved apart).

The table ``tests/data/literature/back_references.jsonl`` is made by ``scripts/pick_back_references.py``: every
同判決 / 同決定 / 前掲 + court of the Supreme Court judgments of ../shared found by a plain pattern, the answers (the
antecedent's court, date and type, or none where the words name no cited precedent) decided by reading them, each
row a stretch of the real judgment that holds the antecedent. The literature forms (最判平23・12・16 … 同判決) do
not occur in the corpus; the few strings below marked *derived* are written for the grammar, as the literature
gold's ``derived`` part is (tests/data/literature/README.md).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from lexgraph.citations import Citation, extract
from lexgraph.citations.stream import iter_citations
from tests.helpers import ROOT

TABLE = ROOT / "tests" / "data" / "literature" / "back_references.jsonl"
ROWS = [json.loads(line) for line in TABLE.read_text(encoding="utf-8").splitlines() if line.strip()]


def _at(found: list[Citation], row: dict[str, Any]) -> list[Citation]:
    return [c for c in found if c.start == row["start"] and c.kind == "precedent"]


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{r['doc']}@{r['offset'] + r['start']}")
def test_a_back_reference_takes_its_antecedents_fields(row: dict[str, Any]) -> None:
    found = _at(extract(row["text"]), row)
    if row["expect"] is None:  # 「判決を受け、同判決は確定した」: a judgment the text speaks of, no precedent cited
        assert found == [], found
        return
    (back,) = found
    assert back.surface == row["surface"] and back.status == "resolved", back
    assert (back.court, back.date, back.decision_type) == (
        row["expect"]["court"], row["expect"]["date"], row["expect"]["decision_type"]), back
    assert "back reference" in (back.reason or ""), back


def test_the_table_has_real_back_references_and_negatives() -> None:
    assert sum(r["expect"] is not None for r in ROWS) >= 8 and sum(r["expect"] is None for r in ROWS) >= 3
    assert all(r["text"][r["start"]:r["start"] + len(r["surface"])] == r["surface"] for r in ROWS)


# derived: literature forms written for the grammar (none occurs in the corpus)
LITERATURE = ("最判平23・12・16民集65巻9号3472頁は、…と判示した。同判決の射程は、…。最大判昭51・4・14民集30巻3号223頁"
              "も参照。前掲最判と前掲最大判は…。大判大5・12・22民録22輯2474頁、前掲大判。")


def test_literature_forms_resolve_or_say_why() -> None:
    """derived: 同判決 after 最判平23・12・16 is that decision; 前掲最大判 the one 大法廷 decision cited; 前掲大判 the
    大審院's; 前掲最判 with two Supreme Court judgments cited before it is unresolved, with the reason."""
    found = {c.surface: c for c in extract(LITERATURE) if c.kind == "precedent"}
    assert (found["同判決"].date, found["同判決"].court, found["同判決"].reporter) == (
        "2011-12-16", "最高裁判所", "民集65巻9号3472頁")
    assert (found["前掲最大判"].date, found["前掲最大判"].court) == ("1976-04-14", "最高裁判所大法廷")
    assert (found["前掲大判"].date, found["前掲大判"].court) == ("1916-12-22", "大審院")
    assert found["前掲最判"].status == "unresolved" and "2 最高裁判所 判決s" in (found["前掲最判"].reason or "")


def test_no_antecedent_is_unresolved_with_a_reason() -> None:
    (alone,) = [c for c in extract("同決定の趣旨に照らし、") if c.kind == "precedent"]  # derived
    assert alone.status == "unresolved" and alone.date is None and "no 決定 is written before it" in (
        alone.reason or "")
    assert [c for c in extract("同判決書には署名がある。") if c.kind == "precedent"] == []  # the document, no reference


def test_the_streamed_read_carries_the_antecedent_across_pieces() -> None:
    """`cite` reads a long text in pieces: a 同判決 in a later piece still finds the precedent of an earlier one,
    exactly as the whole read does."""
    text = LITERATURE.replace("。", "。\n") + "あ" * 300 + "。\n" + "同判決によれば、前掲最大判と異なり…。\n"
    whole = [c.to_json() for c in extract(text)]
    streamed = [c.to_json() for c in iter_citations([text], piece_chars=120, margin_chars=40)]
    assert streamed == whole
    late = [c for c in whole if c["start"] > len(LITERATURE) + 300 and c["kind"] == "precedent"]
    # 同判決 is the 判決 cited last (大判大5・12・22), 前掲最大判 the one 大法廷 decision cited
    assert [(c["surface"], c["date"]) for c in late] == [("同判決", "1916-12-22"), ("前掲最大判", "1976-04-14")]
