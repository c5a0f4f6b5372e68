"""Open days stay open: e-Gov's placeholder day (2117-12-31, 「包括的核実験禁止条約が日本国について効力を生ずる日」)
and a file's "latest possible" day (only ScheduledEnforcementDate, 「…政令で定める日」) are read as scheduled
(施行予定) with the day not fixed, from files and from `lexgraph sync`, never as in force on or after them.

Files: the real e-Gov revision files of 原子炉等規制法 in ../shared/data/egov/revisions (see SOURCE.md there): the
2023-06-17 text (CurrentEnforced, EnforcementDate), the 2024-04-01 one (a fixed day not yet come), the 2025-06-06
and 2026-06-06 ones (only ScheduledEnforcementDate) and the 2117-12-31 one (UnEnforced, the treaty's day).
"""

from __future__ import annotations

import tarfile
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from lexgraph.client import LexGraph
from lexgraph.statutes.egov import parse_law_xml
from lexgraph.statutes.egov_api import EgovApi
from lexgraph.store.base import GraphStore
from tests.capabilities import SHARED, require
from tests.egov_api_server import CIVIL_CODE, SAMPLE, TEST_MARK, EgovApiServer, Law, Revision, law_info, revision_info
from tests.helpers import lexgraph

REACTOR = "332AC0000000166"
ARCHIVE = SHARED / "egov" / "revisions" / f"{REACTOR}_revisions.tar.xz"
FIXED = (f"{REACTOR}_20230617_505AC0000000044", f"{REACTOR}_20240401_505AC0000000044")
OPEN = (f"{REACTOR}_20250606_505AC0000000044", f"{REACTOR}_20260606_505AC0000000047",
        f"{REACTOR}_21171231_409AC0000000080")
CLAUSE = "第四十三条の三の二十三"
FAR = date(2072, 6, 18)


@pytest.fixture(scope="module")
def reactor_files(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Path]]:
    require("shared")
    folder = tmp_path_factory.mktemp("reactor")
    wanted = {f"{REACTOR}/{r}/{r}.xml": r for r in FIXED + OPEN}
    with tarfile.open(ARCHIVE) as archive:
        for member in archive.getmembers():
            if member.name in wanted:
                source = archive.extractfile(member)
                assert source is not None
                (folder / f"{wanted[member.name]}.xml").write_bytes(source.read())
    yield [folder / f"{r}.xml" for r in FIXED + OPEN]


def test_the_files_own_notes_say_which_days_are_open(reactor_files: list[Path]) -> None:
    notes = {p.stem: parse_law_xml(p.read_bytes(), str(p)).meta.open_day for p in reactor_files}
    assert notes[FIXED[0]] == "" and notes[FIXED[1]] == ""  # EnforcementDate: a fixed day
    assert "包括的核実験禁止条約が日本国について効力を生ずる日" in notes[OPEN[2]] and "2117-12-31" in notes[OPEN[2]]
    assert "政令で定める日" in notes[OPEN[0]] and "2025-06-06" in notes[OPEN[0]]
    assert "国立健康危機管理研究機構法" in notes[OPEN[1]]


def test_open_days_from_files_are_scheduled_never_in_force(store: GraphStore, reactor_files: list[Path]) -> None:
    lg = LexGraph(store)
    lg.ingest_statutes([str(p) for p in reactor_files], link=False)
    versions = {v.revision_id: v for v in lg.versions("原子炉等規制法")}
    assert [versions[r].scheduled for r in FIXED + OPEN] == [False, False, True, True, True]
    assert "包括的核実験禁止条約" in versions[OPEN[2]].source
    shown = lg.show("原子炉等規制法", CLAUSE, as_of=FAR)
    assert shown.unknown is not None  # the last known wording, labelled: never in force in 2072
    assert shown.known_up_to == date(2024, 4, 1)
    for day in (date(2026, 6, 6), date(2117, 12, 31), date(2118, 1, 1)):
        assert lg.show("原子炉等規制法", CLAUSE, as_of=day).unknown is not None
    assert lg.show("原子炉等規制法", CLAUSE, as_of=date(2023, 7, 1)).unknown is None  # a fixed day: in force
    again = lg.ingest_statutes([str(p) for p in reactor_files], link=False)  # the same files change nothing
    assert again.versions_added == 0 and again.provisions_written == 0


def test_law_show_does_not_call_a_placeholder_day_known(reactor_files: list[Path], tmp_path: Path) -> None:
    store = tmp_path / "store"
    assert lexgraph("ingest", "statutes", *map(str, reactor_files), "--no-link", store=store).code == 0
    shown = lexgraph("law", "show", "原子炉等規制法", CLAUSE, "--as-of", FAR.isoformat(), store=store)
    assert "2117-12-31" not in shown.stdout and "not known to be in force" in shown.stdout
    as_json = lexgraph("law", "show", "原子炉等規制法", CLAUSE, "--as-of", FAR.isoformat(), "--json", store=store)
    assert as_json.json()["status"] == "unknown" and as_json.json()["known_up_to"] == "2024-04-01"
    listed = lexgraph("law", "versions", "原子炉等規制法", "--json", store=store).json()["versions"]
    placeholder = next(v for v in listed if v["revision_id"] == OPEN[2])
    assert placeholder["scheduled"] and "day not fixed" in placeholder["period"]


PLACEHOLDER_CIVIL = f"{CIVIL_CODE}_21171231_409AC0000000080"
ELSEWHERE_CIVIL = f"{CIVIL_CODE}_20280616_504AC0000000068"


def _civil_with_open_days() -> Law:
    """民法's 2023 text, then two revisions not in force whose days e-Gov does not fix: its placeholder 2117-12-31
    for a treaty's day, and another law's enforcement day (copies of the 2023 text, marked as such)."""
    law = Law(law_info(CIVIL_CODE, "明治二十九年法律第八十九号", "Meiji", 29, "089", "1896-04-27"))
    text = SAMPLE / f"{CIVIL_CODE}_20230614_505AC0000000053.xml"
    law.revisions = [
        Revision(revision_info(f"{CIVIL_CODE}_20230614_505AC0000000053", "民法", status="CurrentEnforced",
                               promulgated="2023-06-14", enforced="2023-06-14"), text),
        Revision(revision_info(ELSEWHERE_CIVIL, "民法", status="UnEnforced", promulgated="2022-06-17",
                               enforced="2028-06-16", comment="刑法等一部改正法施行日",
                               amendment_title=f"刑法等一部改正法整理法{TEST_MARK}"), text),
        Revision(revision_info(PLACEHOLDER_CIVIL, "民法", status="UnEnforced", promulgated="1997-06-18",
                               enforced="2117-12-31", comment="包括的核実験禁止条約が日本国について効力を生ずる日",
                               amendment_title=f"原子炉等規制法の一部を改正する法律{TEST_MARK}"), text),
    ]
    return law


def test_sync_keeps_a_placeholder_day_open(store: GraphStore, tmp_path: Path) -> None:
    lg = LexGraph(store)
    with EgovApiServer([_civil_with_open_days()]) as server:
        listed = EgovApi(server.url, pace=0).revisions(CIVIL_CODE)
        assert [r.day_open for r in listed.revisions] == [False, True, True]
        summary = lg.sync(["民法"], api=server.url, pace=0, link=False, cache_dir=tmp_path / "cache")
        assert not any(PLACEHOLDER_CIVIL in line or ELSEWHERE_CIVIL in line for line in server.requests("law_data"))
    assert summary.failures == []
    versions = {v.revision_id: v for v in lg.versions("民法")}
    for revision in (PLACEHOLDER_CIVIL, ELSEWHERE_CIVIL):
        assert versions[revision].scheduled and versions[revision].enforced_from is None
    assert lg.show("民法", "第四条", as_of=FAR).unknown is not None
