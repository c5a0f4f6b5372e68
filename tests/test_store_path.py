"""A store path that is not a store: every command that takes ``--store`` answers a file, or a folder
that holds no store, with one line on stderr and exit 3, never a traceback; and nothing is created there."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import ROOT, SAMPLE, lexgraph

JUDGMENT = ROOT / "tests" / "data" / "precedents" / "91244.txt"
GUIDELINE = ROOT / "tests" / "data" / "literature" / "taxanswer-2506.md"
LAWQA = ROOT / "tests" / "data" / "lawqa" / "dev_sample.json"

#: Every command that opens a store, with arguments that would be valid against a real one; True where the
#: command only reads (a folder without a store is then an error too: there is nothing to read).
COMMANDS: list[Any] = [
    (("ingest", "statutes", str(SAMPLE / "403AC0000000090_snapshot20201118.xml"), "--no-link"), False),
    (("ingest", "precedents", str(JUDGMENT)), False),
    (("ingest", "literature", str(GUIDELINE), "--kind", "guideline"), False),
    (("law", "show", "民法", "第一条"), True),
    (("law", "versions", "民法"), True),
    (("law", "diff", "民法", "--from", "2020-04-01", "--to", "2023-06-14"), True),
    (("law", "cites", "民法", "第七百九条"), True),
    (("law", "cited-by", "民法", "第七百九条"), True),
    (("law", "link"), False),
    (("precedent", "show", "91244"), True),
    (("cite", str(JUDGMENT)), True),
    (("stats",), True),
    (("doctor",), True),
    (("migrate",), False),
    (("copy", "--to", "{elsewhere}"), True),
    (("query", "RETURN 1 AS one"), True),
    pytest.param(("viz", "民法 第七百九条", "--out", "{elsewhere}.svg"), True,
                 marks=pytest.mark.requires("graphviz")),  # the tool is checked before the store
    (("graph", "neighbourhood", "民法 第七百九条"), True),
    (("index",), True),
    (("search", "借地権の存続期間"), True),
    (("ask", "借地権の存続期間は何年か", "--no-model"), False),
    (("eval", "retrieval", "--dataset", str(LAWQA)), True),
    (("eval", "answers", "--dataset", str(LAWQA), "--no-model", "--limit", "1"), False),
]


def _name(entry: Any) -> str:
    command = entry.values[0] if hasattr(entry, "values") else entry[0]
    return " ".join(word for word in command[:2] if re.fullmatch(r"[a-z-]+", word))


def _reads(entry: Any) -> bool:
    return bool(entry.values[1] if hasattr(entry, "values") else entry[1])


def _args(command: tuple[str, ...], tmp_path: Path) -> list[str]:
    return [part.replace("{elsewhere}", str(tmp_path / "elsewhere")) for part in command]


def _one_clean_line(run_stderr: str) -> str:
    lines = [line for line in run_stderr.splitlines() if line.strip() and not line.startswith("as of ")]
    assert len(lines) == 1 and "Traceback" not in run_stderr, run_stderr
    return lines[0]


@pytest.mark.parametrize(("command", "reads"), COMMANDS, ids=[_name(c) for c in COMMANDS])
def test_a_store_path_that_is_a_file_is_one_line_and_exit_3(command: tuple[str, ...], reads: bool,
                                                              tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("not a store\n", encoding="utf-8")
    run = lexgraph(*_args(command, tmp_path), store=path, env={"LEXGRAPH_LLM_MODEL": ""})
    assert run.code == 3, (run.code, run.stderr)
    line = _one_clean_line(run.stderr)
    assert str(path) in line and "is a file" in line, line
    assert path.read_text(encoding="utf-8") == "not a store\n"


@pytest.mark.parametrize(("command", "reads"), [c for c in COMMANDS if _reads(c)],
                         ids=[_name(c) for c in COMMANDS if _reads(c)])
def test_a_folder_without_a_store_is_one_line_and_exit_3_for_what_reads(command: tuple[str, ...], reads: bool,
                                                                        tmp_path: Path) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "memo.md").write_text("# memo\n", encoding="utf-8")
    run = lexgraph(*_args(command, tmp_path), store=folder)
    assert run.code == 3, (run.code, run.stderr)
    line = _one_clean_line(run.stderr)
    assert str(folder) in line and "no lexgraph store" in line, line
    assert sorted(p.name for p in folder.iterdir()) == ["memo.md"], "a read created files in the folder"


def test_a_store_path_inside_a_file_is_one_line_and_exit_3(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("x", encoding="utf-8")
    run = lexgraph("ingest", "precedents", JUDGMENT, store=path / "store")
    assert run.code == 3, run.stderr
    assert "notes.txt" in _one_clean_line(run.stderr)


def test_a_copy_target_that_is_a_file_is_one_line_and_exit_3(sample_store: Path, tmp_path: Path) -> None:
    target = tmp_path / "backup.tar"
    target.write_bytes(b"not a store")
    run = lexgraph("copy", "--to", target, store=sample_store)
    assert run.code == 3, run.stderr
    assert "backup.tar" in _one_clean_line(run.stderr) and target.read_bytes() == b"not a store"
