"""A long text read piece by piece (`lexgraph.citations.stream`, `lexgraph cite`) gives exactly the citations of a
whole read, in memory that does not grow with the text.

The input is real judgments (tests/data/citations/long, tests/data/precedents) repeated into several MB: the
abbreviations they define (以下「法」という), 同法 and the clause cited last must carry from one piece to the next.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest

from lexgraph.citations import CitationContext, extract
from lexgraph.citations.compact import CompactText
from lexgraph.citations.statute_scan import UNIT, anchors
from lexgraph.citations.stream import iter_citations
from lexgraph.citations.terms import DefinedTerms
from tests.helpers import ROOT, lexgraph

LONG = ROOT / "tests" / "data" / "citations" / "long"
SHORT = ROOT / "tests" / "data" / "precedents"
SUPREME_COURT = "最高裁判所"


def judgments() -> str:
    """Every real judgment of the test data, one after the other, as `lexgraph cite` would be given them."""
    paths = sorted(LONG.glob("*.txt")) + sorted(SHORT.glob("*.txt"))
    return "".join(p.read_text(encoding="utf-8").strip("\n") + "\n\n" for p in paths)


def repeated(size_chars: int) -> str:
    one = judgments()
    return one * (size_chars // len(one) + 1)


def blocks(text: str, size: int) -> list[str]:
    return [text[i:i + size] for i in range(0, len(text), size)]


def as_json(citations: object) -> list[dict]:
    """The citations as the CLI's JSON document has them (a range's members are a list there, a tuple in Python)."""
    return [{k: list(v) if isinstance(v, tuple) else v for k, v in c.to_json().items()}  # type: ignore[attr-defined]
            for c in citations]  # type: ignore[attr-defined]


def test_pieces_give_the_citations_of_a_whole_read() -> None:
    text = repeated(1_000_000)  # about 3 MB of UTF-8
    context = CitationContext(citing_court=SUPREME_COURT)
    whole = as_json(extract(text, context))
    assert len(whole) > 5_000 and {"statute", "precedent", "law"} <= {c["kind"] for c in whole}
    # Small pieces, so that the text is cut at some hundred places; blocks of an odd size that cut characters'
    # neighbours apart.
    streamed = as_json(iter_citations(blocks(text, 65_537), context, piece_chars=4_000))
    assert streamed == whole
    # Terms defined in the judgments were used across piece boundaries (the resolver resolved them).
    assert any(c["surface"].startswith("同法") for c in streamed)


@pytest.mark.parametrize("piece_chars", [1, 500, 7_919])
def test_any_piece_size_gives_the_same_citations(piece_chars: int) -> None:
    text = judgments()
    context = CitationContext(citing_court=SUPREME_COURT)
    assert as_json(iter_citations(blocks(text, 1_000), context, piece_chars=piece_chars)) == \
        as_json(extract(text, context))


def test_empty_and_tiny_texts() -> None:
    assert list(iter_citations([])) == []
    assert list(iter_citations(["", ""])) == []
    assert as_json(iter_citations(["民法７", "０９条"])) == as_json(extract("民法７０９条"))


def test_the_cli_streams_the_same_document(tmp_path: Path) -> None:
    text = repeated(400_000)
    path = tmp_path / "judgments.txt"
    path.write_text(text, encoding="utf-8")
    run = lexgraph("cite", path, "--json", "--as-of", "2020-01-01", store=tmp_path / "absent")
    assert run.code == 0, run.stderr
    from lexgraph.dates import parse_day
    from lexgraph.statutes.catalog import Catalog

    day = parse_day("2020-01-01")
    found = extract(text, CitationContext(catalog=Catalog.bundled(), as_of=day))  # the whole text, read at once
    expected = as_json([replace(c, as_of=day.isoformat()) for c in found])
    assert run.json() == {"citations": expected}
    lines = lexgraph("cite", path, "--jsonl", "--as-of", "2020-01-01", store=tmp_path / "absent")
    assert lines.code == 0, lines.stderr
    import json

    assert [json.loads(line) for line in lines.stdout.splitlines()] == expected


def test_bad_bytes_far_into_a_file_print_nothing(tmp_path: Path) -> None:
    path = tmp_path / "judgments.txt"
    good = repeated(600_000).encode("utf-8")  # more than one block of the reader
    path.write_bytes(good + "民法７０９条".encode("shift_jis"))
    run = lexgraph("cite", path, "--json", store=tmp_path / "absent")
    assert run.code == 1 and run.stdout == ""
    assert "judgments.txt" in run.stderr and f"byte {len(good)}" in run.stderr and "UTF-8" in run.stderr


def test_an_empty_file_is_an_empty_list(tmp_path: Path) -> None:
    path = tmp_path / "empty.txt"
    path.write_text("", encoding="utf-8")
    run = lexgraph("cite", path, "--json", store=tmp_path / "absent")
    assert run.code == 0 and run.json() == {"citations": []}


def peak_rss_mb(path: Path, store: Path) -> float:
    """Peak RSS of `lexgraph cite --json path` in its own process (os.wait4 gives that child's own figure)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    with open(os.devnull, "w") as sink:
        child = subprocess.Popen([sys.executable, "-m", "lexgraph", "cite", "--json", str(path), "--store",
                                  str(store)], stdout=sink, stderr=subprocess.DEVNULL, env=env, cwd=ROOT)
        _, status, usage = os.wait4(child.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    return usage.ru_maxrss / 1024


def test_memory_does_not_grow_with_the_input(tmp_path: Path) -> None:
    # A whole read of 1 MB took about 60 MB and grew by about 9 MB per further MB of judgments; read in pieces,
    # 5 MB takes what 1 MB takes, give or take the abbreviations the text defines. The bound is generous.
    with tempfile.TemporaryDirectory() as folder:
        small, large = Path(folder) / "small.txt", Path(folder) / "large.txt"
        small.write_text(repeated(340_000), encoding="utf-8")  # about 1 MB
        large.write_text(repeated(1_700_000), encoding="utf-8")  # about 5 MB
        grown = peak_rss_mb(large, tmp_path / "absent") - peak_rss_mb(small, tmp_path / "absent")
    assert grown < 20, f"peak RSS grew by {grown:.0f} MB from 1 MB to 5 MB of input"


# --- the parts that made the scan linear ---------------------------------------------------------------------


def test_anchor_jumps_find_what_the_pattern_finds() -> None:
    text = CompactText.of(judgments()).text
    edge_cases = ["同条項", "前各項", "一二三四五六七八九十条", "３条の２第１項第２号イ", "条条項号",
                  "前二条及び第七百九条", "", "第", "同号、右項", "この条",
                  "１２３４５６７８９０１２３４５６７８９０条"]
    for sample in [text, *edge_cases]:
        assert [m.span() for m in anchors(sample)] == [m.span() for m in UNIT.finditer(sample)], sample[:20]


@pytest.mark.parametrize(("definitions", "text", "end", "start"), [
    ([(5, "法")], "国税法（以下法）法", 9, 8),  # defined from offset 5 on
    ([(5, "法")], "国税法（以下法）法", 3, None),  # before its definition, 法 is not the term
    ([(0, "振興会法"), (0, "法")], "振興会法第三条", 4, 0),  # the longest term wins
    ([(0, "旧法")], "旧法", 1, None),  # a term must end where asked
])
def test_defined_terms_end_where_asked(definitions: list[tuple[int, str]], text: str, end: int,
                                       start: int | None) -> None:
    terms = DefinedTerms()
    for effective, term in definitions:
        terms.add(effective, term)
    assert terms.longest_ending_at(text, end) == start


def test_defined_terms_occur_as_str_find_reads_them() -> None:
    terms = DefinedTerms(["本件条例", "条例"])
    terms.add(10, "法")
    text = "本件条例と条例。法と法"
    assert list(terms.occurrences(text)) == [(0, "本件条例"), (2, "条例"), (5, "条例"), (10, "法")]
    assert "条例" in terms and "規則" not in terms
