"""Reading books and guidelines: Markdown, plain text, PDF (pdftotext) and the tax_demo registry, on real texts."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from lexgraph.documents.chunking import chunk_text, visible_text
from lexgraph.documents.literature import load_registry, parse_date, pdf_to_text, read_literature, read_registry
from lexgraph.errors import ToolMissing
from tests.helpers import ROOT, SHARED

FIXTURES = ROOT / "tests" / "data" / "literature"
TAX_DEMO = SHARED / "literature" / "tax_demo"
RULING = FIXTURES / "ruling-ntt-1972-05-12-j4-14.txt"
RULING_TITLE = "鉄道の高架下を賃借するために支払った権利金は繰延資産ではなく借地権類似の権利の対価に当たるとした事例"


def _registry_texts() -> dict[str, str]:
    lines = (FIXTURES / "tax_demo" / "registry" / "texts.jsonl").read_text(encoding="utf-8").splitlines()
    return {json.loads(line)["juri_id"]: json.loads(line)["text"] for line in lines}


# ----------------------------------------------------------------------------------------------------
# Files


def test_markdown_with_front_matter() -> None:
    doc = read_literature(FIXTURES / "taxanswer-2506.md")
    assert (doc.title, doc.date, doc.kind, doc.licence) == ("タックスアンサー No.2506", "2025-04-01", "guideline",
                                                           "cc-by-jp-nta")
    assert doc.source == "https://www.nta.go.jp/taxes/shiraberu/taxanswer/gensen/2506.htm"
    assert doc.problems == ()
    assert doc.text.startswith("源泉所得税\n")  # the front matter is not part of the text
    assert doc.text.rstrip("\n") == _registry_texts()["gensen-taxanswer-2506"]
    assert [s.name for s in doc.sections] == [None, "還付請求できる過誤納金"]
    chunks = chunk_text(doc.text, doc.sections, size=200, overlap=60)
    assert {c.section for c in chunks} == {None, "還付請求できる過誤納金"}
    for c in chunks:
        assert visible_text(doc.text, c.start, c.end) == "".join(c.text.split())


def test_plain_text_takes_its_first_line_as_title() -> None:
    doc = read_literature(RULING)
    assert doc.title == RULING_TITLE
    assert doc.date is None and doc.kind == "book" and doc.source == str(RULING)
    assert doc.problems == ("no date found (front matter or a date line near the top); pass --date",)


def test_arguments_override_the_file() -> None:
    doc = read_literature(RULING, title="裁決要旨", date="昭和47年5月12日", kind="other",
                          source="https://www.kfs.go.jp/service/MP/03/0204040000.html#y01")
    assert (doc.title, doc.date, doc.kind) == ("裁決要旨", "1972-05-12", "other")
    assert doc.source.startswith("https://www.kfs.go.jp/")
    assert doc.problems == ()
    with pytest.raises(ValueError, match=r"--date: '1972-13-01' is not a date"):
        read_literature(RULING, date="1972-13-01")
    with pytest.raises(ValueError, match="kind must be one of book, guideline, other"):
        read_literature(RULING, kind="ruling")


def test_date_lines_near_the_top(tmp_path: Path) -> None:
    body = _registry_texts()["shotoku-kihon-tsutatsu-36-1"]
    dated = tmp_path / "tsutatsu.txt"
    dated.write_text(f"所得税基本通達 36-1\n（令和５年６月１日現在）\n{body}\n", encoding="utf-8")
    doc = read_literature(dated)
    assert (doc.title, doc.date, doc.problems) == ("所得税基本通達 36-1", "2023-06-01", ())
    # A date inside a sentence is a date the text talks about (タックスアンサー No.2507, first lines)
    prose = tmp_path / "taxanswer-2507.txt"
    prose.write_text("源泉所得税\n源泉徴収義務者の方は、平成25年1月1日から令和19年12月31日までの間に生ずる所得について"
                     "源泉所得税を徴収する際、復興特別所得税を併せて徴収し、源泉所得税の法定納期限までに、その復興特別所得税を"
                     "源泉所得税と併せて国に納付しなければなりません。\n", encoding="utf-8")
    assert read_literature(prose).date is None


def test_markdown_titles(tmp_path: Path) -> None:
    body = _registry_texts()["shotoku-kihon-tsutatsu-36-1"]
    headed = tmp_path / "tsutatsu.md"
    headed.write_text(f"# 所得税基本通達 36-1\n\n{body}\n\n## 収入金額\n\n{body}\n", encoding="utf-8")
    doc = read_literature(headed)
    assert doc.title == "所得税基本通達 36-1"
    assert [s.name for s in doc.sections] == ["所得税基本通達 36-1", "収入金額"]
    # A level-3 heading after body text is a section, not the title: the first line is
    bare = tmp_path / "bare.md"
    bare.write_text(_registry_texts()["gensen-taxanswer-2506"], encoding="utf-8")
    assert read_literature(bare).title == "源泉所得税"


def test_shift_jis_text_is_read(tmp_path: Path) -> None:
    sjis = tmp_path / "ruling-sjis.txt"
    sjis.write_bytes(RULING.read_text(encoding="utf-8").encode("cp932"))
    doc = read_literature(sjis)
    assert doc.title == RULING_TITLE
    assert f"{sjis} is Shift_JIS (CP932), not UTF-8: converted to UTF-8" in doc.problems


def test_unknown_file_type(tmp_path: Path) -> None:
    path = tmp_path / "notes.docx"
    path.write_bytes(b"PK")
    with pytest.raises(ValueError, match=r"cannot read \.docx; expected \.md, \.markdown, \.txt or \.pdf"):
        read_literature(path)


@pytest.mark.parametrize(("raw", "iso"), [
    ("令和5年6月1日", "2023-06-01"), ("令和５年６月１日", "2023-06-01"), ("平成元年1月8日", "1989-01-08"),
    ("昭和四十七年五月十二日", "1972-05-12"), ("2025-04-01", "2025-04-01"), ("2025年4月1日", "2025-04-01"),
    ("2025/4/1", "2025-04-01"), ("令和5年2月30日", None), ("令和5年", None), ("2025-13-01", None), ("", None),
])
def test_parse_date(raw: str, iso: str | None) -> None:
    assert parse_date(raw) == iso


# ----------------------------------------------------------------------------------------------------
# PDF


def _pdf(lines: list[str]) -> bytes:
    """A one-page PDF showing `lines`, with a ToUnicode map so that text extraction gives the characters back.

    No font is embedded (nothing here draws glyphs); pdftotext reads the text through the ToUnicode map,
    as it does for the CID fonts of real Japanese PDFs.
    """
    chars = sorted({ch for line in lines for ch in line})
    cid = {ch: i + 1 for i, ch in enumerate(chars)}
    shown = "\n".join(f"<{''.join(f'{cid[ch]:04X}' for ch in line)}> Tj T*" for line in lines)
    content = f"BT /F1 10 Tf 12 TL 40 800 Td\n{shown}\nET".encode()
    pairs = "\n".join(f"<{cid[ch]:04X}> <{ord(ch):04X}>" for ch in chars)
    cmap = ("/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
            "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
            "/CMapName /Adobe-Identity-UCS def /CMapType 2 def\n1 begincodespacerange <0000> <FFFF> endcodespacerange\n"
            f"{len(chars)} beginbfchar\n{pairs}\nendbfchar\nendcmap CMapName currentdict /CMap defineresource pop "
            "end end").encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> "
        b"/Contents 4 0 R >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type0 /BaseFont /Mincho /Encoding /Identity-H /DescendantFonts [6 0 R] "
        b"/ToUnicode 7 0 R >>",
        b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Mincho /CIDSystemInfo << /Registry (Adobe) "
        b"/Ordering (Identity) /Supplement 0 >> /FontDescriptor 8 0 R /DW 1000 >>",
        b"<< /Length %d >>\nstream\n" % len(cmap) + cmap + b"\nendstream",
        b"<< /Type /FontDescriptor /FontName /Mincho /Flags 4 /FontBBox [0 -200 1000 900] /ItalicAngle 0 "
        b"/Ascent 880 /Descent -120 /CapHeight 700 /StemV 80 >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


@pytest.mark.requires("pdftotext")
def test_pdf_through_pdftotext(tmp_path: Path) -> None:
    # ../shared/data/literature holds no PDF, so the PDF is made here, from the real text of a ruling summary
    text = RULING.read_text(encoding="utf-8").strip()
    title, body = text.split("\n", 1)
    lines = [title[:28], title[28:], "昭和47年5月12日", *(body[i:i + 30] for i in range(0, len(body), 30))]
    path = tmp_path / "ruling.pdf"
    path.write_bytes(_pdf(lines))
    extracted = pdf_to_text(path)
    assert "\f" in extracted  # pages end with a form feed
    doc = read_literature(path, kind="other")
    assert doc.title == title[:28]  # the first line, as the PDF wraps it; pass --title for better
    assert doc.date == "1972-05-12"
    assert doc.problems == ()
    assert "".join(doc.text.split()) == "".join("".join(lines).split())
    chunks = chunk_text(doc.text, size=100, overlap=20)
    assert "".join(chunks[0].text.split()).startswith(title)  # the wrapped title is joined again
    for c in chunks:
        assert visible_text(doc.text, c.start, c.end) == "".join(c.text.split())


def test_pdf_without_pdftotext_says_what_to_install(tmp_path: Path) -> None:
    path = tmp_path / "book.pdf"
    path.write_bytes(_pdf(["所得税"]))
    with pytest.raises(ToolMissing, match=r"apt-get install poppler-utils"):
        read_literature(path, pdftotext="lexgraph-no-such-pdftotext")


@pytest.mark.requires("pdftotext")
def test_broken_pdf(tmp_path: Path) -> None:
    path = tmp_path / "broken.pdf"
    path.write_bytes(b"%PDF-1.4\nnot a pdf at all\n")
    with pytest.raises(ValueError, match="pdftotext could not read it"):
        read_literature(path)


# ----------------------------------------------------------------------------------------------------
# Registry


def test_registry_entries() -> None:
    entries = {e.doc_id: e for e in load_registry(FIXTURES / "tax_demo")}
    assert set(entries) == {"gensen-taxanswer-2506", "ntt-1972-05-12-j4-14", "shotoku-kihon-tsutatsu-36-1"}
    answer = entries["gensen-taxanswer-2506"]
    assert (answer.title, answer.kind, answer.date, answer.licence) == ("タックスアンサー No.2506", "guideline",
                                                                        "2025-04-01", "cc-by-jp-nta")
    assert answer.source_url == "https://www.nta.go.jp/taxes/shiraberu/taxanswer/gensen/2506.htm"
    ruling = entries["ntt-1972-05-12-j4-14"]
    assert (ruling.title, ruling.kind, ruling.date, ruling.licence) == (None, "other", "1972-05-12", "pdl-1.0")
    circular = entries["shotoku-kihon-tsutatsu-36-1"]
    assert (circular.title, circular.kind, circular.date) == ("所得税法基本通達 36-1", "guideline", None)
    # the folder, its registry folder and documents.jsonl all name the same registry
    assert load_registry(FIXTURES / "tax_demo" / "registry") == load_registry(
        FIXTURES / "tax_demo" / "registry" / "documents.jsonl")


def test_registry_texts() -> None:
    docs = {d.doc_id: d for d in read_registry(FIXTURES / "tax_demo")}
    ruling = docs["ntt-1972-05-12-j4-14"]
    assert ruling.title == RULING_TITLE  # a ruling is titled by its first line
    assert ruling.problems == ()
    assert ruling.text == RULING.read_text(encoding="utf-8").rstrip("\n")
    assert docs["shotoku-kihon-tsutatsu-36-1"].problems == (
        "no date in the registry (version_date / decision_date); pass --date",)
    answer = docs["gensen-taxanswer-2506"]
    assert [s.name for s in answer.sections] == [None, "還付請求できる過誤納金"]
    assert all(not any("sha256" in p for p in d.problems) for d in docs.values())


def test_registry_hash_mismatch_and_malformed_records(tmp_path: Path) -> None:
    registry = tmp_path / "registry"
    shutil.copytree(FIXTURES / "tax_demo" / "registry", registry)
    texts = registry / "texts.jsonl"
    lines = texts.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[0])
    record["text"] += "（改変）"
    texts.write_text("\n".join([json.dumps(record, ensure_ascii=False), *lines[1:]]) + "\n", encoding="utf-8")
    changed = next(d for d in read_registry(tmp_path) if d.doc_id == record["juri_id"])
    assert f"text of {record['juri_id']} does not match its text_sha256" in changed.problems
    unchanged = [d for d in read_registry(tmp_path) if d.doc_id != record["juri_id"]]
    assert unchanged and all(not any("sha256" in p for p in d.problems) for d in unchanged)

    texts.write_text(texts.read_text(encoding="utf-8") + '{"juri_id": "unknown-doc", "text": "…"}\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"texts.jsonl:4: text for 'unknown-doc'"):
        read_registry(tmp_path)

    documents = registry / "documents.jsonl"
    documents.write_text(documents.read_text(encoding="utf-8") + "{broken\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"documents.jsonl:4: not valid JSON"):
        load_registry(tmp_path)
    documents.write_text('{"juri_id": "x", "layer": "ruling", "decision_date": "1972-02-30"}\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"documents.jsonl:1: field 'decision_date' is not a date"):
        load_registry(tmp_path)
    documents.write_text('{"layer": "ruling"}\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"documents.jsonl:1: field 'juri_id' is missing"):
        load_registry(tmp_path)
    with pytest.raises(ValueError, match=r"a registry holds documents\.jsonl and texts\.jsonl"):
        load_registry(tmp_path / "nowhere")


@pytest.mark.requires("shared")
def test_the_whole_tax_demo_registry() -> None:
    docs = read_registry(TAX_DEMO)
    assert len(docs) == 30
    assert all(not any("sha256" in p for p in d.problems) for d in docs)  # every text is the one registered
    kinds = {d.doc_id: d.kind for d in docs}
    assert sum(1 for k in kinds.values() if k == "guideline") == 11  # 5 通達 + 6 タックスアンサー
    statute = next(d for d in docs if d.doc_id == "shotoku-zei-hou-art-28")
    assert statute.title == "所得税法第28条" and statute.kind == "other"
    assert any("statute article" in p for p in statute.problems)
    assert all(d.title for d in docs) and all(d.licence for d in docs)
