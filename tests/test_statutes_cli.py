"""The statute path end to end through the real CLI: ingest, as-of reading, versions, diff, safety."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from lxml import etree

from tests.capabilities import require
from tests.helpers import EGOV_DATA, ROOT, SAMPLE, SHARED, lexgraph

CIVIL_2020 = SAMPLE / "129AC0000000089_20200401_501AC0000000034.xml"
CIVIL_2023 = SAMPLE / "129AC0000000089_20230614_505AC0000000053.xml"


def test_article_added_in_2023_reads_as_of_2023(sample_store: Path) -> None:
    run = lexgraph("law", "show", "民法", "第二百十三条の二", "--as-of", "2023-07-01", "--json", store=sample_store)
    assert run.code == 0, run.stderr
    shown = run.json()
    assert shown["revision_id"] == "129AC0000000089_20230614_505AC0000000053"
    assert shown["path"] == "a213_2"
    assert shown["text"].startswith("第二百十三条の二　土地の所有者は")


def test_article_not_yet_in_force_exits_1_and_says_so(sample_store: Path) -> None:
    run = lexgraph("law", "show", "民法", "第二百十三条の二", "--as-of", "2020-04-01", "--json", store=sample_store)
    assert run.code == 1
    assert run.stdout == ""
    assert "not in force on 2020-04-01" in run.stderr
    assert "2023-06-14" in run.stderr  # and says when it was


def test_article_in_a_gap_between_stored_versions_is_unknown_not_absent(sample_store: Path) -> None:
    """The sample holds 民法 of 2020-04-01 and 2023-06-14; the 2023 附則 name 令和元年法律第二号, whose day a 政令
    fixes, and others in between, so on 2020-05-01 the store cannot say whether 第二百十三条の二 existed yet."""
    run = lexgraph("law", "show", "民法", "第二百十三条の二", "--as-of", "2020-05-01", "--json", store=sample_store)
    assert run.code == 1 and run.stdout == ""
    assert "does not know its wording on 2020-05-01" in run.stderr
    assert "令和元年法律第二号 (from a day fixed by 政令, not before 2020-04-02, not after 2020-05-16)" in run.stderr


@pytest.mark.parametrize("law", ["民法", "明治二十九年法律第八十九号", "明治29年法律第89号", "129AC0000000089"])
@pytest.mark.parametrize("clause", ["第七百九条", "709条", "７０９条", "a709"])
def test_law_and_clause_spellings(sample_store: Path, law: str, clause: str) -> None:
    run = lexgraph("law", "show", law, clause, "--as-of", "2021-01-01", "--json", store=sample_store)
    assert run.code == 0, run.stderr
    assert run.json()["path"] == "a709"
    assert run.json()["revision_id"] == "129AC0000000089_20200401_501AC0000000034"


def test_item_level_clause(sample_store: Path) -> None:
    run = lexgraph("law", "show", "民法", "第十三条第一項第一号", "--as-of", "2024-01-01", "--json",
                   store=sample_store)
    assert run.code == 0, run.stderr
    assert run.json()["text"] == "一　元本を領収し、又は利用すること。"


def test_versions_lists_enforcement_periods(sample_store: Path) -> None:
    run = lexgraph("law", "versions", "民法", "--json", store=sample_store)
    assert run.code == 0, run.stderr
    periods = [(v["revision_id"], v["enforced_from"], v["enforced_until"]) for v in run.json()["versions"]]
    assert periods == [
        ("129AC0000000089_20200401_501AC0000000034", "2020-04-01", "2023-06-14"),
        ("129AC0000000089_20230614_505AC0000000053", "2023-06-14", None),
    ]


def _independent_article_texts(path: Path) -> dict[str, str]:
    """Article wording of the 本則 read with plain lxml, without lexgraph's parser: the diff's independent check.
    Wording is the caption and the characters of every sentence and number; how the markup splits sentences is
    not wording (2023 splits 817条の5 into two <Sentence>s, 2020 has one). A deleted article (「第三十八条　削除」,
    one by one or collapsed as Num="38:84") is not in force: it is left out, so that an article that became 削除
    counts as removed."""
    root = etree.parse(str(path)).getroot()
    etree.strip_elements(root, "Rt", with_tail=False)  # ruby readings (振り仮名) are not wording
    texts: dict[str, str] = {}
    wording_tags = ("ArticleCaption", "ParagraphNum", "Sentence", "ItemTitle", "Subitem1Title", "Subitem2Title")
    for article in root.find("LawBody/MainProvision").iter("Article"):
        num = article.get("Num")
        body = "".join("".join(el.itertext()) for el in article.iter("Sentence"))
        if body != "削除":
            # Line breaks are the file's layout (the 2020 generation breaks lines after </Rt>), never wording.
            texts[num] = "".join("".join(el.itertext()) for el in article.iter(*wording_tags)).replace("\n", "")
    return texts


def test_diff_agrees_with_an_independent_count(sample_store: Path) -> None:
    old, new = _independent_article_texts(CIVIL_2020), _independent_article_texts(CIVIL_2023)
    expected = {
        "added": {n for n in new if n not in old},
        "removed": {n for n in old if n not in new},
        "changed": {n for n in new if n in old and new[n] != old[n]},
    }
    run = lexgraph("law", "diff", "民法", "--from", "2020-04-01", "--to", "2023-07-01", "--json", store=sample_store)
    assert run.code == 0, run.stderr
    diff = run.json()
    main = [c for c in diff["changes"] if not c["path"].startswith("suppl") and c["kind"] != "division"]
    got = {status: {c["path"][1:] for c in main if c["status"] == status} for status in expected}
    assert got == expected
    # the 2023 amendment added 第二編第三章第四節 and 第五節 (所有者不明土地管理命令…): divisions are clauses too
    assert {(c["path"], c["status"]) for c in diff["changes"] if c["kind"] == "division"} == {
        ("pt2/ch3/se4", "added"), ("pt2/ch3/se5", "added")}
    assert len(expected["added"]) == 21 and "213_2" in expected["added"]
    # 第百一条 「代理行為の瑕疵」 and 第三十条 「失踪の宣告」 carry ruby: they read the same in both generations
    assert {"30", "101", "120"}.isdisjoint(got["changed"])


def test_snapshot_from_manifest_and_catalogue(sample_store: Path) -> None:
    """借地借家法 in the sample has no revision id; its manifest says it was in force on 2020-11-18."""
    run = lexgraph("law", "versions", "借地借家法", "--json", store=sample_store)
    assert run.code == 0, run.stderr
    (version,) = run.json()["versions"]
    assert version["revision_id"] == "403AC0000000090_snapshot20201118"
    assert version["dated_by"] == "snapshot" and version["enforced_from"] is None


def test_stats_and_doctor(sample_store: Path) -> None:
    stats = lexgraph("stats", "--json", store=sample_store).json()
    assert stats["nodes"]["Law"] == 3 and stats["nodes"]["LawVersion"] == 4
    assert stats["relationships"]["CONTAINS"] > stats["nodes"]["Provision"]
    doctor = lexgraph("doctor", "--json", store=sample_store)
    assert doctor.code == 0 and doctor.json()["ok"] is True


def test_query_is_read_only(sample_store: Path) -> None:
    ok = lexgraph("query", "MATCH (l:Law) WHERE l.title = $t RETURN l.law_id AS id", "--param", "t=民法", "--json",
                  store=sample_store)
    assert ok.code == 0, ok.stderr
    assert ok.json() == [{"id": "129AC0000000089"}]
    before = lexgraph("stats", "--json", store=sample_store).json()
    refused = lexgraph("query", "MATCH (l:Law) SET l.title = 'x'", store=sample_store)
    assert refused.code == 1 and "refused SET" in refused.stderr
    assert lexgraph("stats", "--json", store=sample_store).json() == before


def test_reingest_changes_nothing(tmp_path: Path) -> None:
    store = tmp_path / "store"
    first = lexgraph("ingest", "statutes", EGOV_DATA / "405AC0000000088_20180401_429AC0000000004.xml",
                     EGOV_DATA / "405AC0000000088_20240401_504AC0100000052.xml", "--json", store=store)
    assert first.code == 0, first.stderr
    counts = lexgraph("stats", "--json", store=store).json()
    again = lexgraph("ingest", "statutes", EGOV_DATA / "405AC0000000088_20240401_504AC0100000052.xml",
                     EGOV_DATA / "405AC0000000088_20180401_429AC0000000004.xml", "--json", store=store)
    assert again.code == 0
    assert again.json()["versions_added"] == 0 and again.json()["unchanged"] == 2
    assert lexgraph("stats", "--json", store=store).json() == counts


def test_second_rendering_of_a_revision_is_a_conflict(tmp_path: Path) -> None:
    store = tmp_path / "store"
    assert lexgraph("ingest", "statutes", EGOV_DATA / "405AC0000000088_20180401_429AC0000000004.xml",
                    store=store).code == 0
    stored = lexgraph("law", "show", "行政手続法", "第三条", "--as-of", "2019-01-01", "--json", store=store).json()
    counts = lexgraph("stats", "--json", store=store).json()
    copy = EGOV_DATA / "405AC0000000088_20180401_429AC0000000004.lawtext-copy.xml"
    run = lexgraph("ingest", "statutes", copy, "--json", store=store)
    assert run.code == 1
    (conflict,) = run.json()["conflicts"]
    assert conflict["revision_id"] == "405AC0000000088_20180401_429AC0000000004"
    assert "already stored with a different text" in conflict["message"]
    assert lexgraph("stats", "--json", store=store).json() == counts
    after = lexgraph("law", "show", "行政手続法", "第三条", "--as-of", "2019-01-01", "--json", store=store).json()
    assert after == stored


def test_snapshot_needs_a_revision_or_a_day(tmp_path: Path) -> None:
    store = tmp_path / "store"
    snapshot = EGOV_DATA / "345AC0000000048_lawhub20200707_revision-unknown.xml"
    refused = lexgraph("ingest", "statutes", snapshot, store=store)
    assert refused.code == 1
    assert "no revision id" in refused.stderr and "--in-force-on" in refused.stderr  # a failure: on stderr
    assert "failed" not in refused.stdout
    dated = lexgraph("ingest", "statutes", snapshot, "--in-force-on", "2020-07-07", "--json", store=store)
    assert dated.code == 0, dated.stdout + dated.stderr
    versions = lexgraph("law", "versions", "著作権法", "--json", store=store).json()["versions"]
    assert [v["revision_id"] for v in versions] == ["345AC0000000048_snapshot20200707"]
    pinned = lexgraph("ingest", "statutes", snapshot, "--revision", "345AC0000000048_20200707_999AC0000000001",
                      "--json", store=tmp_path / "other")
    assert pinned.code == 0, pinned.stdout


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (CIVIL_2020.read_bytes()[:20000], "not well-formed"),
        (b"\x89PNG\r\n\x1a\n not xml", "not well-formed"),
        (b"<?xml version='1.0' encoding='UTF-8'?><Statute><Title>x</Title></Statute>", "root element is <Statute>"),
    ],
    ids=["truncated", "not-xml", "wrong-root"],
)
def test_bad_files_fail_cleanly_and_leave_the_store_as_it_was(tmp_path: Path, content: bytes, problem: str) -> None:
    store = tmp_path / "store"
    assert lexgraph("ingest", "statutes", EGOV_DATA / "331AC0000000120_20150801_000000000000000.xml",
                    store=store).code == 0
    before = lexgraph("stats", "--json", store=store).json()
    bad = tmp_path / "129AC0000000089_20200401_501AC0000000034.xml"
    bad.write_bytes(content)
    run = lexgraph("ingest", "statutes", bad, store=store)
    assert run.code == 1
    failure_lines = [line for line in run.stderr.splitlines() if line.startswith("failed")]
    assert len(failure_lines) == 1 and "failed" not in run.stdout  # a failure is a message: stderr, not results
    assert str(bad) in failure_lines[0] and problem in failure_lines[0]
    assert "Traceback" not in run.stderr
    assert lexgraph("stats", "--json", store=store).json() == before


def test_a_second_writer_is_told_who_holds_the_store(sample_store: Path) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from lexgraph import LexGraph; lg = LexGraph.open(sys.argv[1]); "
         "print('open', flush=True); time.sleep(30)", str(sample_store)],
        stdout=subprocess.PIPE, text=True, cwd=ROOT,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        run = lexgraph("ingest", "statutes", EGOV_DATA / "331AC0000000120_20150801_000000000000000.xml",
                       store=sample_store)
        assert run.code == 3
        assert f"process {holder.pid}" in run.stderr
        # The message names what works meanwhile, and it does: every command it names reads while the writer holds.
        assert "--read-only" not in run.stderr and "commands that only read" in run.stderr
        for command in (("stats",), ("doctor",), ("query", "MATCH (l:Law) RETURN count(l) AS n"),
                        ("law", "show", "借地借家法", "第三条")):
            assert command[0] in run.stderr
            reader = lexgraph(*command, store=sample_store)
            assert reader.code == 0, (command, reader.stderr)
    finally:
        holder.kill()
        holder.wait()


def test_sigkill_during_ingest_leaves_a_store_doctor_accepts(tmp_path: Path) -> None:
    require("shared")
    source = SHARED / "egov" / "versioned"
    store = tmp_path / "store"
    env = {**os.environ}
    env.pop("LEXGRAPH_STORE", None)
    process = subprocess.Popen([sys.executable, "-m", "lexgraph", "ingest", "statutes", str(source), "--store",
                                str(store)], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not (store / "graph.lbdb").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(2.5)  # well into the writes of the first laws
    process.send_signal(signal.SIGKILL)
    process.wait()
    doctor = lexgraph("doctor", "--json", store=store)
    assert doctor.code == 0, doctor.stdout + doctor.stderr
    rerun = lexgraph("ingest", "statutes", source, "--json", store=store)
    assert rerun.code == 0, rerun.stdout
    assert lexgraph("doctor", "--json", store=store).json()["ok"]
    assert lexgraph("stats", "--json", store=store).json()["nodes"]["LawVersion"] == 15


def test_law_option_reads_only_the_named_laws_of_an_archive(tmp_path: Path) -> None:
    """The lawhub archive names files by law number; `--law` selects by any name, without parsing the rest."""
    import tarfile

    archive = tmp_path / "lawhub-xml_2020-11-18_all.tar.xz"
    with tarfile.open(archive, "w:xz") as tar:
        tar.add(SAMPLE / "403AC0000000090_snapshot20201118.xml", arcname="all/平成3年/平成三年法律第九十号.xml")
        tar.add(SAMPLE / "415AC0000000057_20200126_430AC0000000080.xml",
                arcname="all/平成15年/平成十五年法律第五十七号.xml")
    store = tmp_path / "store"
    run = lexgraph("ingest", "statutes", archive, "--law", "借地借家法", "--json", store=store)
    assert run.code == 0, run.stderr
    summary = run.json()
    assert summary["files"] == 1 and summary["versions_added"] == 1
    laws = lexgraph("query", "MATCH (l:Law) RETURN l.law_id AS id", "--json", store=store).json()
    assert [row["id"] for row in laws] == ["403AC0000000090"]
    unknown = lexgraph("ingest", "statutes", archive, "--law", "存在しない法律", store=store)
    assert unknown.code == 1 and "--law '存在しない法律'" in unknown.stderr


@pytest.mark.parametrize("day", ["2023-07-01", "令和5年7月1日", "令和５年７月１日", "令和五年七月一日", "R5.7.1"])
def test_as_of_takes_era_dates_as_lawyers_write_them(sample_store: Path, day: str) -> None:
    run = lexgraph("law", "show", "民法", "第二百十三条の二", "--as-of", day, "--json", store=sample_store)
    assert run.code == 0, run.stderr
    assert run.json()["as_of"] == "2023-07-01"


def test_an_era_date_before_its_era_is_refused_with_the_forms_read(sample_store: Path) -> None:
    run = lexgraph("law", "show", "民法", "第七百九条", "--as-of", "令和元年4月30日", store=sample_store)
    assert run.code == 2 and "before 令和 began" in run.stderr
    run = lexgraph("law", "show", "民法", "第七百九条", "--as-of", "yesterday", store=sample_store)
    assert run.code == 2 and "R3.1.1" in run.stderr
