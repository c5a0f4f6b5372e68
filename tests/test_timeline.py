"""Placing versions in time, on real clause texts of 民法 (817条の5 changed on 2020-05-16)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from lexgraph.model import RevisionId
from lexgraph.statutes.egov import parse_law_xml
from lexgraph.statutes.timeline import VersionContent, build_timeline
from tests.capabilities import require

VERSIONED = Path(__file__).parents[2] / "shared" / "data" / "egov" / "versioned" / "129AC0000000089"
SAMPLE = Path(__file__).parents[1] / "lexgraph" / "data" / "sample"
LAW = "129AC0000000089"


def _parse(path: Path):
    return parse_law_xml(path.read_bytes(), str(path)).provisions


@pytest.fixture(scope="module")
def texts():
    """The 本則 of two real revisions. Their 附則 are left out: these tests are about runs of wording, and the
    2020-05-16 附則 name amendments (平成二十九年法律第四十四号, 政令 day) that would end the first run early; that
    is tested on the whole files in test_honest_periods.py."""
    old = SAMPLE / "129AC0000000089_20200401_501AC0000000034.xml"
    new = VERSIONED / "129AC0000000089_20200516_501AC0000000002.xml"
    require("shared")
    return _main_provisions(_parse(old)), _main_provisions(_parse(new))


def _main_provisions(provisions):
    return tuple(p for p in provisions if not p.path.startswith("suppl"))


def version(day: date, provisions, amended_by: str = "501AC0000000034") -> VersionContent:
    return VersionContent(RevisionId(LAW, day, amended_by), f"test-{day}", "bulk2020", tuple(provisions))


def nodes_for(timeline, path):
    return sorted((p for p in timeline.provisions if p.path == path), key=lambda p: p.valid_from or date.min)


def test_unchanged_clauses_are_shared_and_changed_ones_split(texts):
    old, new = texts
    timeline = build_timeline(LAW, [version(date(2020, 4, 1), old), version(date(2020, 5, 16), new)])
    changed = nodes_for(timeline, "a817_5")
    assert [(p.valid_from, p.valid_until) for p in changed] == [
        (date(2020, 4, 1), date(2020, 5, 16)), (date(2020, 5, 16), None)]
    unchanged = nodes_for(timeline, "a709")
    assert len(unchanged) == 1 and unchanged[0].valid_until is None
    contained_by = {rev for rev, uid in timeline.contains if uid == unchanged[0].uid}
    assert len(contained_by) == 2
    assert timeline.versions[0].enforced_until == date(2020, 5, 16)


def test_restored_wording_gets_its_own_period(texts):
    """A → B → A: the restored A is a new node, so no node has two disjoint periods."""
    old, new = texts
    timeline = build_timeline(LAW, [
        version(date(2020, 4, 1), old), version(date(2020, 5, 16), new), version(date(2021, 1, 1), old, "X"),
    ])
    runs = nodes_for(timeline, "a817_5")
    assert [(p.valid_from, p.valid_until) for p in runs] == [
        (date(2020, 4, 1), date(2020, 5, 16)), (date(2020, 5, 16), date(2021, 1, 1)), (date(2021, 1, 1), None)]
    assert runs[0].content_hash == runs[2].content_hash and runs[0].uid != runs[2].uid
    for day in (date(2020, 4, 2), date(2020, 6, 1), date(2022, 1, 1)):
        assert sum(p.in_force_on(day) for p in runs) == 1


def test_order_of_arrival_does_not_matter(texts):
    old, new = texts
    forward = build_timeline(LAW, [version(date(2020, 4, 1), old), version(date(2020, 5, 16), new)])
    backward = build_timeline(LAW, [version(date(2020, 5, 16), new), version(date(2020, 4, 1), old)])
    assert forward == backward


def test_a_lone_snapshot_has_an_unknown_start(texts):
    old, _ = texts
    snapshot = VersionContent(RevisionId(LAW, None, None, known_in_force_on=date(2020, 6, 16)), "s", "", old)
    timeline = build_timeline(LAW, [snapshot])
    assert timeline.versions[0].revision_id == f"{LAW}_snapshot20200616"
    assert timeline.versions[0].enforced_from is None
    assert nodes_for(timeline, "a709")[0].uid == f"{LAW}/a709@-"
