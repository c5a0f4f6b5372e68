"""Every data file reader is bounded and honest: the anchors file beside an index (``anchors.jsonl.gz``) and the
JSON Lines files read by the one reader (`documents.jsonl.read_records` over `documents.datafiles.read_lines`).
A bomb, a file that is not gzip, not UTF-8, not records, or not a regular file is refused in one line naming the
file, the line and the field; a build of anchors that fails, or finds nothing, leaves the anchors built before."""

from __future__ import annotations

import gzip
import json
import os
import resource
import shutil
import threading
import time
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from lexgraph.documents.datafiles import DataLimits, read_lines
from lexgraph.documents.jsonl import read_records
from lexgraph.errors import InputError
from lexgraph.index import anchors as anchors_module
from lexgraph.index.anchors import (
    ANCHOR_FILE,
    ANCHORS_MAX_MB,
    anchor_limits,
    judgment_anchors,
    read_anchors,
    write_anchors,
)
from tests.helpers import ROOT, copy_store, lexgraph

JUDGMENTS = ROOT / "tests" / "data" / "precedents"
GOOD = {"law_id": "129AC0000000089", "article": "a709", "kind": "judgment", "source": "x", "tokens": "損害 賠償"}


def gzip_of_zeros(path: Path, gib: int) -> None:
    """`gib` GiB of zeros as a gzip file of a few MB: one member of 64 MiB, compressed once and repeated."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    member = packer.compress(bytes(64 << 20)) + packer.flush()
    with path.open("wb") as out:
        for _ in range(gib * 16):
            out.write(member)


def anchors_folder(tmp_path: Path, content: bytes) -> Path:
    folder = tmp_path / "index"
    folder.mkdir(exist_ok=True)
    (folder / ANCHOR_FILE).write_bytes(content)
    return folder


def refusal(folder: Path) -> str:
    with pytest.raises(InputError) as caught:
        read_anchors(folder)
    message = str(caught.value)
    assert "\n" not in message and "build the anchors again" in message
    return message


def test_a_gzip_bomb_of_4_gib_is_refused_after_its_first_megabytes(tmp_path: Path) -> None:
    folder = tmp_path / "index"
    folder.mkdir()
    gzip_of_zeros(folder / ANCHOR_FILE, 4)
    assert (folder / ANCHOR_FILE).stat().st_size < 20 << 20
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.monotonic()
    message = refusal(folder)
    assert f"{folder / ANCHOR_FILE}:1: refused: its compression ratio passes 200" in message
    assert time.monotonic() - started < 10
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 200 << 10  # KiB: nothing near 4 GiB


# Each case named by what it must say: gzip writes the time into its header, so bytes as test ids would differ
# between the processes of one run (pytest-xdist refuses such a collection).
NOT_ANCHORS = [
    (b'{"law_id": "x"}\n', "not a gzip file (it does not begin with gzip's bytes 1f 8b)"),
    (gzip.compress(json.dumps(GOOD).encode() + b"\n\xff\xfe\n"), ":2: not UTF-8 at byte 1 of the line"),
    (gzip.compress(b"[]\n"), ":1: expected a JSON object, one record per line"),
    (gzip.compress(b"null\n"), ":1: expected a JSON object, one record per line"),
    (gzip.compress(b'{"law_id": 1'), ":1: not valid JSON"),
    (gzip.compress(b"[" * 200_000), ":1: not valid JSON"),
    (gzip.compress(json.dumps({**GOOD, "tokens": ["a", "b"]}).encode()), ":1: field 'tokens' is a list"),
    (gzip.compress(json.dumps({**GOOD, "law_id": 129}).encode()), ":1: field 'law_id' is a int (129), not a string"),
    (gzip.compress(json.dumps({k: v for k, v in GOOD.items() if k != "article"}).encode()),
     ":1: field 'article' is missing"),
    (gzip.compress(json.dumps(GOOD).encode() * 3)[:-9], "the gzip stream is damaged"),
]


@pytest.mark.parametrize(("content", "expected"), NOT_ANCHORS, ids=[expected for _, expected in NOT_ANCHORS])
def test_an_anchors_file_that_is_not_anchors_is_refused_naming_file_line_and_field(content: bytes, expected: str,
                                                                                    tmp_path: Path) -> None:
    folder = anchors_folder(tmp_path, content)
    message = refusal(folder)
    assert message.startswith(str(folder / ANCHOR_FILE)) and expected in message, message


def test_good_anchors_are_read_and_an_empty_file_holds_none(tmp_path: Path) -> None:
    folder = anchors_folder(tmp_path, gzip.compress(b"\n".join(json.dumps(GOOD).encode() for _ in range(3))))
    anchors = read_anchors(folder)
    assert anchors is not None and [a.tokens for a in anchors] == [("損害", "賠償")] * 3
    assert read_anchors(anchors_folder(tmp_path, gzip.compress(b""))) == []
    assert read_anchors(tmp_path / "nothing") is None


def test_a_fifo_in_place_of_a_data_file_is_refused_without_waiting(tmp_path: Path) -> None:
    folder = tmp_path / "index"
    folder.mkdir()
    os.mkfifo(folder / ANCHOR_FILE)
    outcome: list[BaseException] = []

    def read() -> None:
        try:
            read_anchors(folder)
        except InputError as error:
            outcome.append(error)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(20)
    if reader.is_alive():  # unblock the reader: open the FIFO for writing, and fail
        with open(os.open(folder / ANCHOR_FILE, os.O_WRONLY | os.O_NONBLOCK), "wb"):
            pass
        pytest.fail("reading a FIFO waited for a writer")
    assert "not a regular file (a FIFO)" in str(outcome[0])
    metadata = tmp_path / "metadata.jsonl"
    os.mkfifo(metadata)
    with pytest.raises(InputError, match="not a regular file"):
        list(read_records(metadata))


def test_bounds_of_a_line_and_of_the_whole_are_kept(tmp_path: Path) -> None:
    limits = DataLimits(max_bytes=3 << 20, max_line=1 << 20)
    long_line = tmp_path / "long.jsonl"
    long_line.write_bytes(b'{"a": "' + b"x" * (2 << 20) + b'"}\n')
    with pytest.raises(InputError, match=r"long.jsonl:1: a line longer than 1 MB"):
        list(read_lines(long_line, limits=limits))
    many = tmp_path / "many.jsonl"
    many.write_bytes(b'{"a": 1}\n' * 500_000)
    with pytest.raises(InputError, match=r"many.jsonl:\d+: more than 3 MB"):
        list(read_lines(many, limits=limits))


def test_the_anchors_file_has_a_bound_of_its_own_raised_by_the_same_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search holds the anchors in memory at up to ~40 times their bytes: the 1 GB other files may hold is too
    much for them (bench/anchor_memory.py)."""
    monkeypatch.delenv("LEXGRAPH_DATA_MAX_MB", raising=False)
    assert anchor_limits().max_bytes == ANCHORS_MAX_MB << 20 < DataLimits.from_env().max_bytes
    monkeypatch.setenv("LEXGRAPH_DATA_MAX_MB", "300")
    assert anchor_limits().max_bytes == 300 << 20 == DataLimits.from_env().max_bytes


def test_an_anchors_build_past_the_bound_stops_and_keeps_the_anchors_built(tmp_path: Path) -> None:
    anchors = [a for f in sorted(JUDGMENTS.glob("*.txt")) for a in judgment_anchors(f.stem, f.read_text("utf-8"))]
    folder = tmp_path / "index"
    assert write_anchors(folder, anchors) == len(anchors)
    before = (folder / ANCHOR_FILE).read_bytes()
    size = len(gzip.decompress(before))
    with pytest.raises(InputError) as caught:
        write_anchors(folder, anchors + anchors, limits=DataLimits(max_bytes=size + 1))
    assert "the anchors built before are kept" in str(caught.value) and "LEXGRAPH_DATA_MAX_MB" in str(caught.value)
    assert (folder / ANCHOR_FILE).read_bytes() == before and [p.name for p in folder.iterdir()] == [ANCHOR_FILE]
    # what a build writes within the bound is read within it
    assert read_anchors(folder, limits=DataLimits(max_bytes=size)) == anchors


def test_words_read_from_the_anchors_are_held_once(tmp_path: Path) -> None:
    folder = anchors_folder(tmp_path, gzip.compress(b"\n".join(json.dumps(GOOD).encode() for _ in range(3))))
    anchors = read_anchors(folder)
    assert anchors is not None and len({id(a.tokens[0]) for a in anchors}) == 1


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"")), max_size=20),
       compressed=st.booleans(), block=st.sampled_from([1, 2, 7, 1 << 20]))
def test_lines_come_back_as_written_whatever_the_blocks(lines: list[bytes], compressed: bool, block: int,
                                                       tmp_path_factory: pytest.TempPathFactory) -> None:
    content = b"".join(line + b"\n" for line in lines)
    assume(compressed or not content.startswith(b"\x1f\x8b"))  # gzip is told by these bytes, whatever the name
    path = tmp_path_factory.mktemp("lines") / ("x.jsonl.gz" if compressed else "x.jsonl")
    path.write_bytes(gzip.compress(content) if compressed else content)
    assert list(read_lines(path, block_size=block)) == [line + b"\n" for line in lines]


# --- the build side: lexgraph index --anchors -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def anchored_store(search_store_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    store = copy_store(search_store_template, tmp_path_factory.mktemp("anchors") / "store")
    run = lexgraph("index", "--anchors", JUDGMENTS, "--json", store=store)
    assert run.code == 0, run.stderr
    assert run.json()["anchors"] > 0
    return store


@pytest.fixture
def kept(anchored_store: Path) -> Iterator[tuple[Path, bytes]]:
    """The store, and its anchors file as built: each test must leave it as it found it."""
    path = anchored_store / "index" / ANCHOR_FILE
    before = path.read_bytes()
    yield anchored_store, before
    path.write_bytes(before)


def leftovers(store: Path) -> list[str]:
    return sorted(p.name for p in (store / "index").iterdir() if "anchors" in p.name and p.name != ANCHOR_FILE)


def test_an_empty_folder_does_not_replace_the_anchors_built(kept: tuple[Path, bytes], tmp_path: Path) -> None:
    store, before = kept
    empty = tmp_path / "empty"
    empty.mkdir()
    run = lexgraph("index", "--anchors", empty, store=store)
    assert run.code == 1 and f"{empty}: no judgment text (*.txt) in this folder" in run.stderr
    assert "anchors built before are kept" in run.stderr
    assert (store / "index" / ANCHOR_FILE).read_bytes() == before and leftovers(store) == []
    # judgments that cite none of the indexed laws: no anchor, and the ones built are kept too
    unrelated = tmp_path / "unrelated"
    unrelated.mkdir()
    (unrelated / "a.txt").write_text("本件控訴を棄却する。", encoding="utf-8")
    run = lexgraph("index", "--anchors", unrelated, store=store)
    assert run.code == 1 and "no sentence cites an article of the indexed laws" in run.stderr
    assert (store / "index" / ANCHOR_FILE).read_bytes() == before and leftovers(store) == []


@pytest.mark.parametrize("case", ["binary", "missing", "fifo"])
def test_a_failed_anchors_build_leaves_no_temporary_file_and_the_anchors_built(case: str, kept: tuple[Path, bytes],
                                                                               tmp_path: Path) -> None:
    store, before = kept
    folder = tmp_path / "judgments"
    if case != "missing":
        folder.mkdir()
        shutil.copy(JUDGMENTS / sorted(p.name for p in JUDGMENTS.glob("*.txt"))[0], folder / "a.txt")
    if case == "binary":
        (folder / "b.txt").write_bytes(bytes(range(256)) * 4)
    if case == "fifo":
        os.mkfifo(folder / "x.txt")
    run = lexgraph("index", "--anchors", folder, store=store, subprocess=True, timeout=300)
    assert run.code == 1, run.stderr
    expected = {"binary": f"{folder / 'b.txt'}: cannot be read as UTF-8 text for anchors",
                "missing": f"{folder}: no such file or folder",
                "fifo": f"{folder / 'x.txt'}: not a regular file (a FIFO"}[case]
    assert expected in run.stderr and "Traceback" not in run.stderr, run.stderr
    assert (store / "index" / ANCHOR_FILE).read_bytes() == before and leftovers(store) == []


def test_search_with_a_hostile_anchors_file_fails_in_one_line(kept: tuple[Path, bytes]) -> None:
    store, _ = kept
    (store / "index" / ANCHOR_FILE).write_bytes(gzip.compress(b"null\n"))
    run = lexgraph("search", "損害賠償", "--mode", "learned", store=store)
    assert run.code == 1 and "Traceback" not in run.stderr
    assert run.stderr.count("\n") == 1 and f"{store / 'index' / ANCHOR_FILE}:1: expected a JSON object" in run.stderr


@pytest.mark.parametrize(("kind", "name", "expected"), [
    ("statutes", "law.xml", "not a regular file (a FIFO, a device or a socket); give e-Gov XML files"),
    ("literature", "book.md", "not a regular file (a FIFO); give a Markdown or text file"),
    ("precedents", "85407.txt", "not a regular file (a FIFO); give a judgment text file (.txt)"),
])
def test_ingest_refuses_a_fifo_named_as_its_input_without_waiting(kind: str, name: str, expected: str,
                                                                  tmp_path: Path) -> None:
    fifo = tmp_path / name
    os.mkfifo(fifo)
    run = lexgraph("ingest", kind, fifo, store=tmp_path / "store", subprocess=True, timeout=120)
    assert run.code == 1 and f"{fifo}: {expected}" in run.stderr, run.stderr


def test_search_refuses_anchors_past_their_bound_naming_the_file_and_the_setting(
        kept: tuple[Path, bytes], monkeypatch: pytest.MonkeyPatch) -> None:
    store, before = kept
    monkeypatch.setattr(anchors_module, "ANCHORS_MAX_MB", 1)
    path = store / "index" / ANCHOR_FILE
    lines = gzip.decompress(before)
    path.write_bytes(gzip.compress(lines * ((1 << 20) // len(lines) + 1)))
    run = lexgraph("search", "損害賠償", "--mode", "learned", store=store, env={"LEXGRAPH_DATA_MAX_MB": ""})
    assert run.code == 1 and run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert f"{path}:" in run.stderr and "more than 1 MB once decompressed; raise LEXGRAPH_DATA_MAX_MB" in run.stderr
    run = lexgraph("search", "損害賠償", "--mode", "learned", store=store, env={"LEXGRAPH_DATA_MAX_MB": "2"})
    assert run.code == 0, run.stderr


def test_search_with_a_gzip_bomb_for_anchors_is_refused_in_one_line(kept: tuple[Path, bytes]) -> None:
    """4 GiB of zeros as the anchors file: the learned search used to read it whole (killed at 1.5 GB)."""
    store, _ = kept
    gzip_of_zeros(store / "index" / ANCHOR_FILE, 4)
    started = time.monotonic()
    run = lexgraph("search", "損害賠償", "--mode", "learned", store=store, subprocess=True, timeout=300)
    assert run.code == 1 and run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert "refused: its compression ratio passes 200" in run.stderr and time.monotonic() - started < 120
