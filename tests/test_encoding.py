"""Encodings of judgments and literature: a real judgment and a real ruling from tests/data,
re-encoded to each encoding Japanese files still come in, are read as the UTF-8 original by `cite`, `ingest
precedents` and `ingest literature` (one decoder, `documents.encoding.decode_text`), with a note when converted;
bytes that no encoding certainly explains are refused with the file name and the iconv fix, and nothing with a
replacement character is ever stored. The decoder itself is fuzzed with hypothesis."""

from __future__ import annotations

import codecs
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexgraph.client import LexGraph
from lexgraph.documents.chunking import DEFAULT_OVERLAP
from lexgraph.documents.chunking import DEFAULT_SIZE as DEFAULT_CHUNK_SIZE
from lexgraph.documents.encoding import decode_text
from lexgraph.documents.prepare import PreparedDocument, iter_judgments
from lexgraph.errors import EncodingError
from lexgraph.store.base import GraphStore
from tests.helpers import ROOT, lexgraph

JUDGMENT = ROOT / "tests" / "data" / "precedents" / "91244.txt"  # 令和４年６月１７日 最高裁第二小法廷 判決
RULING = ROOT / "tests" / "data" / "literature" / "ruling-ntt-1972-05-12-j4-14.txt"

#: (name, how the UTF-8 text becomes bytes, what the note says; None: no note)
ENCODINGS = [
    ("utf-8", lambda text: text.encode("utf-8"), None),
    ("utf-8-bom", lambda text: codecs.BOM_UTF8 + text.encode("utf-8"), None),
    ("shift_jis", lambda text: text.encode("cp932"), "is Shift_JIS (CP932), not UTF-8: converted to UTF-8"),
    ("euc-jp", lambda text: text.encode("euc_jp"), "is EUC-JP, not UTF-8: converted to UTF-8"),
]

#: Bytes that must be refused: what the message says besides the file name, and the fix it gives.
REFUSED = [
    ("ambiguous", "瑕疵\n".encode("euc_jp"), "encoding is uncertain", "iconv -f SHIFT_JIS -t UTF-8"),  # CP932: 瑟瞠
    ("garbage", bytes(range(0x80, 0x100)) * 4, "is not text in UTF-8, Shift_JIS or EUC-JP", "iconv -f"),
    ("binary", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "control character", "not a text file"),
    ("replaced", "主文\n本件上告を棄却する。\n理由\n所論\ufffd\ufffdは採用できない。\n".encode(), "U+FFFD at line 4",
     "convert the original file again"),
    ("utf-16", "主文".encode("utf-16"), "is UTF-16", "iconv -f UTF-16 -t UTF-8"),
]


def encoded_copy(source: Path, folder: Path, encode) -> Path:  # type: ignore[no-untyped-def]
    target = folder / source.name
    target.write_bytes(encode(source.read_text(encoding="utf-8")))
    return target


@pytest.mark.parametrize(("name", "encode", "note"), ENCODINGS, ids=[e[0] for e in ENCODINGS])
def test_a_judgment_in_any_supported_encoding_is_read_as_its_text(name: str, encode, note: str | None,  # type: ignore[no-untyped-def]
                                                                  tmp_path: Path) -> None:
    path = encoded_copy(JUDGMENT, tmp_path, encode)
    decoded = decode_text(path.read_bytes(), path.name)
    assert decoded.text == JUDGMENT.read_text(encoding="utf-8")
    assert decoded.note == (f"{path.name} {note}" if note else None)

    cited = lexgraph("cite", path, "--json")
    reference = lexgraph("cite", JUDGMENT, "--json")
    assert cited.code == 0, cited.stderr
    assert cited.json() == reference.json() and cited.json()["citations"]
    assert ("converted to UTF-8" in cited.stderr) == (note is not None)

    store = tmp_path / "store"
    run = lexgraph("ingest", "precedents", path, "--json", store=store)
    assert run.code == 0, run.stderr
    summary = run.json()
    assert summary["added"] == 1 and not summary["failures"]
    problems = [p for entry in summary["problems"] for p in entry["problems"]]
    assert (f"{path} {note}" in problems) if note else not any("UTF-8" in p for p in problems)
    shown = lexgraph("precedent", "show", "91244", "--json", store=store).json()
    assert shown["date"] == "2022-06-17" and shown["court"] == "最高裁判所第二小法廷"
    rows = lexgraph("query", "MATCH (c:Chunk) RETURN c.text AS text ORDER BY c.uid", "--json", store=store).json()
    original = next(iter_judgments([JUDGMENT], size=DEFAULT_CHUNK_SIZE, overlap=DEFAULT_OVERLAP))
    assert isinstance(original, PreparedDocument)
    assert sorted(r["text"] for r in rows) == sorted(c.text for c in original.chunks)


@pytest.mark.parametrize(("name", "encode", "note"), ENCODINGS, ids=[e[0] for e in ENCODINGS])
def test_literature_in_any_supported_encoding_is_read_as_its_text(name: str, encode, note: str | None,  # type: ignore[no-untyped-def]
                                                                  tmp_path: Path) -> None:
    path = encoded_copy(RULING, tmp_path, encode)
    store = tmp_path / "store"
    run = lexgraph("ingest", "literature", path, "--kind", "other", "--date", "1972-05-12", "--json", store=store)
    assert run.code == 0, run.stderr
    rows = lexgraph("query", "MATCH (d:Document) RETURN d.title AS title", "--json", store=store).json()
    assert rows == [{"title": RULING.read_text(encoding="utf-8").splitlines()[0]}]
    problems = [p for entry in run.json()["problems"] for p in entry["problems"]]
    assert any(note in p for p in problems) if note else not any("UTF-8" in p for p in problems)


@pytest.mark.parametrize(("name", "data", "says", "fix"), REFUSED, ids=[r[0] for r in REFUSED])
def test_bytes_no_encoding_certainly_explains_are_refused_by_the_decoder_and_cite(name: str, data: bytes, says: str,
                                                                                   fix: str, tmp_path: Path) -> None:
    judgment = tmp_path / "77777.txt"
    judgment.write_bytes(data)
    with pytest.raises(EncodingError) as refused:
        decode_text(data, str(judgment))
    message = str(refused.value)
    assert message.startswith(str(judgment)) and says in message and fix in message

    cited = lexgraph("cite", judgment)
    assert cited.code == 1 and says in cited.stderr and "Traceback" not in cited.stderr


def test_bytes_no_encoding_certainly_explains_are_refused_by_every_ingest_and_store_nothing(tmp_path: Path) -> None:
    """Each kind of bad bytes, as a judgment and as literature, into one store that already holds a judgment: each
    ingest exits 1 naming the file and the reason, and the store is exactly as it was."""
    store = tmp_path / "store"
    good = lexgraph("ingest", "precedents", JUDGMENT, store=store)
    assert good.code == 0, good.stderr
    before = lexgraph("stats", "--json", store=store).json()
    for name, data, says, _fix in REFUSED:
        folder = tmp_path / name
        folder.mkdir()
        judgment = folder / "77777.txt"
        judgment.write_bytes(data)
        run = lexgraph("ingest", "precedents", judgment, "--json", store=store)
        assert run.code == 1, (name, run.stderr)
        failures = run.json()["failures"]
        assert len(failures) == 1 and str(judgment) in failures[0]["message"] and says in failures[0]["message"]

        page = folder / "page.md"
        page.write_bytes(data)
        run = lexgraph("ingest", "literature", page, "--kind", "book", "--json", store=store)
        assert run.code == 1 and says in run.json()["failures"][0]["message"], (name, run.stdout)
    assert lexgraph("stats", "--json", store=store).json() == before


def test_a_replacement_character_from_a_metadata_record_is_not_stored(tmp_path: Path) -> None:
    """Text that never was a file (a metadata record's 判決要旨) passes the same check before it is stored."""
    record = {"lawsuit_id": "91244", "date": {"era": "Reiwa", "year": 4, "month": 6, "day": 17},
              "court_name": "最高裁判所第二小法廷", "case_name": "損害賠償請求事件", "gist": "国の責任",
              "case_gist": "国家賠償法１条１項\ufffdの責任"}
    metadata = tmp_path / "metadata.jsonl"
    metadata.write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    run = lexgraph("ingest", "precedents", metadata, "--json", store=tmp_path / "store")
    assert run.code == 1 and "U+FFFD" in run.json()["failures"][0]["message"]
    assert lexgraph("query", "MATCH (p:Precedent) RETURN count(p) AS n", "--json",
                    store=tmp_path / "store").json() == [{"n": 0}]


@pytest.mark.parametrize("encoding", ["cp932", "euc_jp"])
def test_the_library_stores_a_converted_judgment_on_each_backend(store: GraphStore, tmp_path: Path,
                                                                 encoding: str) -> None:
    path = tmp_path / JUDGMENT.name
    path.write_bytes(JUDGMENT.read_text(encoding="utf-8").encode(encoding))
    garbage = tmp_path / "77777.txt"
    garbage.write_bytes(bytes(range(0x80, 0x100)) * 4)
    lg = LexGraph(store)
    summary = lg.ingest_precedents([path, garbage])
    assert [o.status for o in summary.outcomes] == ["added", "failed"]
    assert "77777.txt" in summary.failures[0].message and "iconv" in summary.failures[0].message
    node = lg.precedent("91244").node
    assert str(node["date"]) == "2022-06-17" and node["court"] == "最高裁判所第二小法廷"
    assert store.counts().nodes["Precedent"] >= 1


# -- the decoder, fuzzed ------------------------------------------------------------------------------------------

JAPANESE = st.text(alphabet=st.sampled_from(
    "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをんがぎぐげご"
    "アイウエオカキクケコサシスセソタチツテトナニヌネノ"
    "法律民刑事訴訟判決原告被告上告棄却損害賠償請求権利義務契約条項号第一二三四五六七八九十百千年月日"
    "瑕疵濫誣罹災灘蝕立率留律里属"
    "、。「」（）・：ー　\n0123456789ABCxyz"), min_size=1, max_size=60)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=200))
def test_any_bytes_give_their_exact_text_or_a_refusal(data: bytes) -> None:
    try:
        decoded = decode_text(data, "fuzz.txt")
    except EncodingError as error:
        assert str(error).startswith("fuzz.txt: ")
        return
    assert "\ufffd" not in decoded.text
    assert decoded.text == data.decode(decoded.encoding)  # strictly: nothing dropped or replaced


@settings(max_examples=600, deadline=None)
@given(JAPANESE, st.sampled_from(["utf-8", "utf-8-sig", "cp932", "euc_jp"]))
def test_japanese_text_in_any_encoding_comes_back_or_is_refused_never_misread(text: str, encoding: str) -> None:
    try:
        decoded = decode_text(text.encode(encoding), "fuzz.txt")
    except EncodingError as error:
        assert encoding not in ("utf-8", "utf-8-sig") or "uncertain" in str(error)
        return
    assert decoded.text == text


def test_the_utf8_tally_counts_every_character_as_the_full_scans_do() -> None:
    """`Utf8Tally.add` takes its counts on the characters one scan picks out; over every code point (in one block
    and block by block) they must equal the counts of the four scans of the whole text that define them."""
    from lexgraph.documents import encoding

    every = "".join(chr(cp) for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF)
    expected = (len(every) - len(every.encode("ascii", "ignore")),
                len(encoding._IMPLAUSIBLE_CHAR.findall(every)) + 0.5 * len(encoding._HALF_WIDTH_CHAR.findall(every)),
                len(encoding._NARROW_CHAR.findall(every)))
    whole, blocks = encoding.Utf8Tally(), encoding.Utf8Tally()
    whole.add(every)
    for start in range(0, len(every), 4096):
        blocks.add(every[start:start + 4096])
    for tally in (whole, blocks):
        assert (tally.non_ascii, tally.implausible, tally.narrow) == expected
        assert tally.damaged  # control characters and U+FFFD are among them
    clean = encoding.Utf8Tally()
    clean.add("民法７０９条（不法行為）§1 α\t\n")
    assert (clean.narrow, clean.damaged, clean.certain) == (2, False, True)
