"""Odd inputs a new user (or a hostile file) gives: empty judgments, pipes for `cite`, file names holding line
breaks, strings with lone surrogates. Each is refused with its reason, read as a stream, or shown escaped; nothing
of it is stored, on either backend, and the rest of the run goes on."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lexgraph.cli.output import line_shown
from lexgraph.documents.prepare import MIN_JUDGMENT_CHARS
from lexgraph.errors import InputError
from lexgraph.store.base import GraphStore
from tests.capabilities import NEO4J_URI_ENV
from tests.conftest import BACKENDS, open_neo4j_wiped, wipe_neo4j
from tests.helpers import ROOT, SAMPLE, lexgraph

JUDGMENT = SAMPLE / "precedents" / "91244.txt"
METADATA = ROOT / "tests" / "data" / "precedents" / "sample_supreme_court_metadata.jsonl"
NEWLINE_NAME = "a\nFAKE-LINE: forged.txt"


@pytest.fixture(params=BACKENDS)
def location(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Where the CLI's store is: a folder, or the Neo4j test server (wiped before and after)."""
    if request.param == "embedded":
        yield str(tmp_path / "store")
        return
    store = open_neo4j_wiped()
    store.close()
    try:
        yield os.environ[NEO4J_URI_ENV]
    finally:
        store = open_neo4j_wiped()
        try:
            wipe_neo4j(store, limit=None)
        finally:
            store.close()


def precedents(location: str) -> list[str]:
    run = lexgraph("query", "MATCH (p:Precedent) RETURN p.uid AS uid ORDER BY uid", "--json", store=location)
    assert run.code == 0, run.stderr
    return [row["uid"] for row in run.json()["rows"]] if isinstance(run.json(), dict) else \
        [row["uid"] for row in run.json()]


def test_an_empty_or_tiny_judgment_is_refused_with_the_reason_and_the_others_ingest(location: str,
                                                                                    tmp_path: Path) -> None:
    folder = tmp_path / "judgments"
    folder.mkdir()
    shutil.copy(JUDGMENT, folder / "91244.txt")
    (folder / "0.txt").write_bytes(b"")
    (folder / "1.txt").write_bytes(b"x")
    (folder / "short.txt").write_text("主文\n本件上告を棄却する。\n" + " " * 500, encoding="utf-8")
    run = lexgraph("ingest", "precedents", folder, "--json", store=location)
    assert run.code == 1
    summary = run.json()
    assert summary["added"] == 1
    failed = {Path(f["source"]).name: f["message"] for f in summary["failures"]}
    assert set(failed) == {"0.txt", "1.txt", "short.txt"}
    assert f"0 characters of text (spaces not counted), fewer than the {MIN_JUDGMENT_CHARS}" in failed["0.txt"]
    assert "1 characters of text" in failed["1.txt"] and "12 characters of text" in failed["short.txt"]
    assert precedents(location) == ["hanrei:91244"]


def test_a_lone_surrogate_in_a_metadata_field_is_refused_naming_the_field(location: str, tmp_path: Path) -> None:
    records = [json.loads(line) for line in METADATA.read_text(encoding="utf-8").splitlines()[:2]]
    records[0]["case_name"] = "窃盗\ud800被告事件"
    metadata = tmp_path / "metadata.jsonl"
    metadata.write_text("\n".join(json.dumps(r) for r in records), encoding="utf-8")  # \ud800 as a JSON escape
    run = lexgraph("ingest", "precedents", metadata, "--json", store=location)
    assert run.code == 1
    summary = run.json()
    [failure] = summary["failures"]
    assert "(case_name): holds a lone surrogate U+D800 at line 1, column 3" in failure["message"]
    assert "pybind11" not in failure["message"] and summary["added"] == 1
    assert precedents(location) == [f"hanrei:{records[1]['lawsuit_id']}"]
    # a name given on the command line from bytes that are not UTF-8 (what \ud800 typed in a shell becomes)
    for command in (["export", "rdf"], ["precedent", "show"]):
        run = lexgraph(*command, "窃盗\udced\udca0\udc80被告事件", store=location)
        assert run.code == 2 and "pybind11" not in run.stderr, run.stderr
        assert "holds bytes that are not UTF-8 text (a lone surrogate U+DCED at character 3)" in run.stderr
        assert "\\udced\\udca0\\udc80" in run.stderr


def cite_json(*args: str, text: str | None = None, shell: str | None = None) -> dict:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH")))),
           "PYTHONIOENCODING": "utf-8"}
    command = [sys.executable, "-m", "lexgraph", "cite", *args, "--json"]
    run = subprocess.run(["bash", "-c", shell] if shell else command, input=text, capture_output=True, text=True,
                         env=env, cwd=ROOT, timeout=300)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_cite_reads_a_fifo_a_process_substitution_and_dev_stdin_as_streams(tmp_path: Path) -> None:
    """They used to fail with "cannot be read (None)": a pipe cannot be read twice, which the file path did."""
    text = "民法第七百九条及び刑法第百九十九条"
    expected = cite_json("-", text=text)
    laws = [c["law_id"] for c in expected["citations"]]
    assert laws == ["129AC0000000089", "140AC0000000045"]
    assert cite_json("/dev/stdin", text=text) == expected
    python = f"PYTHONPATH={ROOT} {sys.executable} -m lexgraph cite"
    assert cite_json(shell=f"{python} <(printf '%s' '{text}') --json") == expected
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["bash", "-c", f"printf '%s' '{text}' > {fifo}"])
    try:
        assert cite_json(str(fifo)) == expected
    finally:
        writer.wait(timeout=60)
    # a pipe of bytes that are not UTF-8 is refused, naming it, since it cannot be read twice to be decided
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run(["bash", "-c", f"{python} <(printf '\\x82\\xa0\\x82\\xa2')"], capture_output=True,
                         text=True, env=env, timeout=300)
    assert run.returncode == 1 and "/dev/fd/" in run.stderr and "cannot be read twice" in run.stderr


def test_a_file_name_holding_a_line_break_is_shown_escaped(location: str, tmp_path: Path) -> None:
    folder = tmp_path / "judgments"
    folder.mkdir()
    shutil.copy(JUDGMENT, folder / NEWLINE_NAME)
    (folder / f"b\n{NEWLINE_NAME}").write_bytes(b"")
    (folder / "c\x1b[2J.txt").write_text("x", encoding="utf-8")
    runs = [lexgraph("ingest", "precedents", folder, store=location),
            lexgraph("ingest", "precedents", folder / NEWLINE_NAME, folder / "missing\nFAKE-LINE: .txt",
                     store=location),
            lexgraph("cite", folder / f"missing\n{NEWLINE_NAME}"),
            lexgraph("ingest", "statutes", tmp_path / "none\nFAKE-LINE: x.xml", store=location)]
    for run in runs:
        lines = (run.stdout + run.stderr).splitlines()
        assert not [line for line in lines if line.startswith("FAKE-LINE")], lines
        assert "\x1b" not in run.stdout + run.stderr
    assert "a\\nFAKE-LINE: forged.txt" in runs[0].stderr or "a\\nFAKE-LINE: forged.txt" in runs[1].stderr
    assert "c\\x1b[2J.txt" in runs[0].stderr and runs[2].code == 1


def test_a_lone_surrogate_given_to_the_store_is_bad_input_not_a_driver_error(store: GraphStore) -> None:
    """Library callers (and the MCP server's tools) reach the store without the CLI's argument check: each
    driver's own failure (LadybugDB's pybind11 cast error, Neo4j's UnicodeEncodeError) becomes `InputError`."""
    with pytest.raises(InputError, match="lone surrogate U\\+D800 at character 3") as caught:
        store.run_read_only("MATCH (p:Precedent) WHERE p.case_name = $name RETURN p.uid AS uid",
                            {"name": "窃盗\ud800"})
    assert "pybind11" not in str(caught.value)
    with pytest.raises(InputError, match="lone surrogate U\\+D800"):
        store.query("precedents_by_case_name", case_names=["窃盗\ud800"])
    assert store.run_read_only("RETURN $name AS name", {"name": "窃盗"}) == [{"name": "窃盗"}]


@given(st.text())
def test_any_text_shown_is_one_line_without_controls(text: str) -> None:
    shown = line_shown(text)
    assert "\n" not in shown and not any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F or 0xD800 <= ord(c) <= 0xDFFF
                                         or c in "\u2028\u2029\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
                                         for c in shown)
    if all(0x20 <= ord(c) < 0x7F or (ord(c) > 0x9F and not 0x2028 <= ord(c) <= 0x2069 and not 0xD800 <= ord(c)
           <= 0xDFFF) for c in text):
        assert shown == text  # plain text, Japanese included, is shown as it is


def test_a_file_named_in_another_encoding_is_refused_naming_it_and_the_others_ingest(location: str,
                                                                                      tmp_path: Path) -> None:
    """The argument is let through (the file exists), but its name cannot be stored as the precedent's source: it
    is refused like any value that is not Unicode text, and the report (JSON included) shows it escaped."""
    folder = tmp_path / "judgments"
    folder.mkdir()
    name = os.fsdecode(b"\x82\xa0" + b"91244.txt")  # a Shift_JIS name: lone surrogates in Python
    shutil.copy(JUDGMENT, folder / name)
    shutil.copy(SAMPLE / "precedents" / "92453.txt", folder / "92453.txt")
    run = lexgraph("ingest", "precedents", folder / name, folder / "92453.txt", "--json", store=location)
    assert run.code == 1, run.stderr
    summary = run.json()
    assert summary["added"] == 1 and "Traceback" not in run.stderr
    [failure] = summary["failures"]
    assert name in failure["message"] and "(source): holds a lone surrogate U+DC82" in failure["message"]
    text = lexgraph("ingest", "precedents", folder / name, store=location)
    assert text.code == 1 and "\\udc82\\udca091244.txt" in text.stderr and "Traceback" not in text.stderr
