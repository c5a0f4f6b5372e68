"""`lexgraph sync` cross-checked against the 附則 the store already holds, on both backends, with the local e-Gov
server (tests/egov_api_server.py) and real e-Gov XML of 民法 (2020-04-01 and 2023-06-14 from the bundled sample,
2020-05-16 from tests/data/egov).

The 2023 text's 附則 name 平成三十年法律第五十九号 in force from 2022-04-01 (the age of majority in 第四条, the
marriage age in 第七百三十一条). A revision list that has only the 2020-04-01, 2020-05-16 and 2023-06-14 revisions
says nothing happened in between; the 附則 say something did. Neither source can be preferred, so the days concerned
are unknown with both sources named, `doctor` says so, and a later list that has the revisions settles it.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from lexgraph.client import LexGraph
from lexgraph.errors import LexGraphError
from lexgraph.statutes.amendments import law_num_of_act_id
from lexgraph.store.base import GraphStore
from tests.capabilities import require
from tests.egov_api_server import (
    CIVIL_CODE,
    EGOV,
    SAMPLE,
    TEST_MARK,
    EgovApiServer,
    Law,
    Revision,
    law_info,
    revision_info,
)
from tests.helpers import REACTOR, lexgraph, reactor_revisions

FIRST = f"{CIVIL_CODE}_20200401_501AC0000000034"
SECOND = f"{CIVIL_CODE}_20200516_501AC0000000002"
THIRD = f"{CIVIL_CODE}_20230614_505AC0000000053"
FILES = (SAMPLE / f"{FIRST}.xml", EGOV / f"{SECOND}.xml", SAMPLE / f"{THIRD}.xml")
GAP_DAY = date(2022, 5, 1)
MAJORITY = "平成三十年法律第五十九号"

# The amendments the 2020 and 2023 texts' 附則 name between those revisions, none of which the short list has:
# (amending law id, the day e-Gov gives it, the text served for it). The served texts are copies of the real
# texts on either side of 2022-04-01 (e-Gov's own texts for these days are not at hand), so that 第四条 reads as the
# law did: 二十歳 before, 十八歳 from that day.
MISSING = (
    ("429AC0000000044", "2020-04-01", FILES[0]),
    ("501AC0000000071", "2021-03-01", FILES[1]),
    ("503AC0000000037", "2021-09-01", FILES[1]),
    ("430AC0000000059", "2022-04-01", FILES[2]),
    ("503AC0000000024", "2023-04-01", FILES[2]),
    ("503AC0000000061", "2023-04-01", FILES[2]),
    ("504AC0000000068", "2023-06-14", FILES[2]),
    ("504AC0000000102", "2023-06-14", FILES[2]),
)


def _short_list() -> Law:
    """民法 as a list that misses every amendment between its three revisions."""
    law = Law(law_info(CIVIL_CODE, "明治二十九年法律第八十九号", "Meiji", 29, "089", "1896-04-27"))
    for path, status in zip(FILES, ("PreviousEnforced", "PreviousEnforced", "CurrentEnforced"), strict=True):
        revision_id = path.stem
        day = revision_id.split("_")[1]
        law.revisions.append(Revision(revision_info(
            revision_id, "民法", status=status, promulgated=None,
            enforced=f"{day[:4]}-{day[4:6]}-{day[6:]}"), path))
    return law


def _full_list() -> Law:
    """The same list with a revision for each amendment it missed (texts copied, marked as such)."""
    law = _short_list()
    extra = [Revision(revision_info(f"{CIVIL_CODE}_{day.replace('-', '')}_{amending}", "民法",
                                    status="PreviousEnforced", promulgated=None, enforced=day,
                                    amendment_title=f"民法の一部を改正する法律{TEST_MARK}"), path)
             for amending, day, path in MISSING]
    law.revisions = sorted(law.revisions + extra, key=lambda r: r.info["law_revision_id"])
    for revision in law.revisions:
        revision.info["current_revision_status"] = "PreviousEnforced"
    law.revisions[-1].info["current_revision_status"] = "CurrentEnforced"
    return law


def _unknown(lg: LexGraph, clause: str) -> str:
    with pytest.raises(LexGraphError) as raised:
        lg.show("民法", clause, as_of=GAP_DAY)
    return str(raised.value)


def test_sync_keeps_what_the_stored_supplementary_provisions_say(store: GraphStore, tmp_path: Path) -> None:
    lg = LexGraph(store)
    lg.ingest_statutes([str(p) for p in FILES], link=False)
    with EgovApiServer([_short_list()]) as server:
        summary = lg.sync(["民法"], api=server.url, pace=0, link=False, cache_dir=tmp_path / "cache")
    assert summary.failures == []
    for clause, old in (("第七百三十一条", "男は、十八歳に、女は、十六歳に"), ("第四条", "二十歳")):
        reason = _unknown(lg, clause)  # not the old wording as in force
        assert MAJORITY in reason and "2022-04-01" in reason
        assert f"stored revision {THIRD}" in reason and "e-Gov's revision list read on" in reason
        assert old not in reason
    assert "不法行為" in lg.show("民法", "第七百九条", as_of=GAP_DAY).provision.caption  # same on both sides
    versions = {v.revision_id: v for v in lg.versions("民法")}
    assert all(v.dated_by == "egov-api" for v in versions.values())
    middle = versions[SECOND]
    assert middle.enforced_until == date(2023, 6, 14) and middle.known_until is not None
    disputed = {a.law_num: a for a in middle.gap if a.conflict}
    assert disputed[MAJORITY].enforced_from == date(2022, 4, 1)
    report = lg.doctor()
    finding = next(f for f in report.findings if f.check == "sources agree")
    assert not report.ok and not finding.ok and CIVIL_CODE in finding.detail and "e-Gov" in finding.detail

    # A later list that has the revisions settles it: no disagreement, each day read from its revision.
    with EgovApiServer([_full_list()]) as server:
        again = lg.sync(["民法"], api=server.url, pace=0, link=False, cache_dir=tmp_path / "cache")
    assert again.failures == []
    versions_after = lg.versions("民法")
    assert not any(a.conflict for v in versions_after for a in v.gap)
    assert all(v.known_until is None for v in versions_after)
    shown = lg.show("民法", "第四条", as_of=GAP_DAY)
    assert "十八歳" in shown.provision.text and shown.version.revision_id == f"{CIVIL_CODE}_20220401_430AC0000000059"
    assert "二十歳" in lg.show("民法", "第四条", as_of=date(2021, 1, 1)).provision.text
    assert next(f for f in lg.doctor().findings if f.check == "sources agree").ok


def test_law_versions_and_doctor_name_the_disagreement(tmp_path: Path) -> None:
    store = tmp_path / "store"
    assert lexgraph("ingest", "statutes", *map(str, FILES), "--no-link", store=store).code == 0
    with EgovApiServer([_short_list()]) as server:
        run = lexgraph("sync", "民法", "--api", server.url, "--pace", "0", "--json", "--no-link", store=store)
    assert run.code == 0, run.stderr
    for clause in ("第七百三十一条", "第四条"):
        shown = lexgraph("law", "show", "民法", clause, "--as-of", GAP_DAY.isoformat(), store=store)
        assert shown.code == 1 and shown.stdout == ""
        assert MAJORITY in shown.stderr and "(from 2022-04-01; sources disagree" in shown.stderr
    table = lexgraph("law", "versions", "民法", store=store, env={"COLUMNS": "200"})
    assert "sources disagree" in table.stdout and MAJORITY in table.stdout
    listed = lexgraph("law", "versions", "民法", "--json", store=store).json()["versions"]
    middle = next(v for v in listed if v["revision_id"] == SECOND)
    assert any(a["law_num"] == MAJORITY and "e-Gov's revision list" in a["conflict"] for a in middle["gap"])
    doctor = lexgraph("doctor", store=store)
    assert doctor.code == 1 and "sources agree" in doctor.stdout and CIVIL_CODE in doctor.stdout


UNNAMED = f"{CIVIL_CODE}_20210901_503AC0000000999"


def test_a_listed_revision_no_stored_text_names_is_unknown(store: GraphStore, tmp_path: Path) -> None:
    """The other way round: the list has a revision (令和三年法律第九百九十九号, made for the test) that the 附則 of no
    stored text from its day on name; its own wording is not shown as in force where the next text differs."""
    lg = LexGraph(store)
    lg.ingest_statutes([str(p) for p in FILES], link=False)
    law = _short_list()
    law.revisions.insert(2, Revision(revision_info(UNNAMED, "民法", status="PreviousEnforced", promulgated=None,
                                                   enforced="2021-09-01",
                                                   amendment_title=f"民法の一部を改正する法律{TEST_MARK}"), FILES[1]))
    with EgovApiServer([law]) as server:
        summary = lg.sync(["民法"], api=server.url, pace=0, link=False, cache_dir=tmp_path / "cache")
    assert summary.failures == []
    version = next(v for v in lg.versions("民法") if v.revision_id == UNNAMED)
    assert version.known_until == date(2021, 9, 1)
    unnamed = next(a for a in version.gap if a.law_num == "令和三年法律第九百九十九号")
    assert "e-Gov's revision list" in unnamed.conflict and THIRD in unnamed.conflict
    with pytest.raises(LexGraphError, match="令和三年法律第九百九十九号"):
        lg.show("民法", "第四条", as_of=date(2021, 10, 1))
    assert "不法行為" in lg.show("民法", "第七百九条", as_of=date(2021, 10, 1)).provision.caption
    assert not lg.doctor().ok


REACTOR_TITLE = "核原料物質、核燃料物質及び原子炉の規制に関する法律"


@pytest.mark.slow
def test_real_revision_files_with_their_own_list_agree(store: GraphStore, tmp_path: Path) -> None:
    """No false alarm on real data: the 19 e-Gov revision files of 原子炉等規制法 (../shared/data/egov/revisions),
    served with the list their own <Law> attributes give (status, day, comment), sync with no disagreement."""
    require("shared")
    folder = tmp_path / "files"
    reactor_revisions(folder)
    law = Law(law_info(REACTOR, "昭和三十二年法律第百六十六号", "Showa", 32, "166", "1957-06-10"))
    for path in sorted(folder.glob("*.xml")):
        head = re.search(rb"<Law [^>]*>", path.read_bytes()[:4000])
        assert head is not None
        attrs = {k.decode(): v.decode() for k, v in re.findall(rb'(\w+)="([^"]*)"', head.group())}
        amending = path.stem.split("_")[2]
        day = (attrs.get("EnforcementDate") or attrs.get("ScheduledEnforcementDate") or "").replace("/", "-")
        law.revisions.append(Revision(revision_info(
            path.stem, REACTOR_TITLE, status=attrs.get("Status") or "PreviousEnforced",
            promulgated=None, enforced=day or None, comment=attrs.get("EnforcementComment") or None,
            amendment_num=law_num_of_act_id(amending), amendment_type="1" if amending.strip("0") == "" else "3"),
            path))
    assert len(law.revisions) == 19
    lg = LexGraph(store)
    with EgovApiServer([law]) as server:
        summary = lg.sync([REACTOR], api=server.url, pace=0, link=False, cache_dir=tmp_path / "cache")
    assert summary.failures == [] and summary.listed == 19
    versions = lg.versions(REACTOR)
    assert not [(v.revision_id, a.law_num) for v in versions for a in v.gap if a.conflict]
    assert next(f for f in lg.doctor().findings if f.check == "sources agree").ok
    placeholder = next(v for v in versions if v.revision_id.endswith("_21171231_409AC0000000080"))
    assert placeholder.scheduled and placeholder.enforced_from is None  # the treaty's day stays open
