"""`cite` with a store says `resolved` only for what it checked against a stored text, on both backends.

Real e-Gov XML: 民法 2020-04-01 and 2023-06-14 (the bundled sample), 会社法 as the lawhub archive had it on
2020-09-02 and 原子炉等規制法 2021-07-01 and 2022-06-17 (../shared/data/egov; those tests skip without it).
A law the store does not hold is `unverified` with the reason; a clause of a stored law that no stored version has
is not `resolved`; 「…による改正前の」 / 「（…による改正後のもの）」 resolve to the version just before / made by that
amendment when the store holds it and knows it is that one, else `unverified` naming the amendment.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from lexgraph.citations.model import Citation
from lexgraph.client import LexGraph
from lexgraph.statutes.amendments import law_num_of_act_id
from lexgraph.store.base import GraphStore
from tests.capabilities import SHARED, require
from tests.helpers import REACTOR, SAMPLE, reactor_revisions

CIVIL_FILES = (SAMPLE / "129AC0000000089_20200401_501AC0000000034.xml",
               SAMPLE / "129AC0000000089_20230614_505AC0000000053.xml")
COMPANIES = SHARED / "egov" / "snapshots" / "417AC0000000086_lawhub20200902_revision-unknown.xml"
REACTOR_REVISIONS = (f"{REACTOR}_20210701_503AC0000000053", f"{REACTOR}_20220617_504AC0000000068")
ON = date(2021, 1, 1)


def _only(citations: list[Citation]) -> Citation:
    statutes = [c for c in citations if c.kind == "statute"]
    assert len(statutes) == 1, statutes
    return statutes[0]


@pytest.mark.parametrize("law_num", ["平成三十年法律第五十九号", "令和元年法律第二号", "昭和三十二年法律第百六十六号"])
def test_a_cabinet_act_id_is_the_inverse_of_its_law_number(law_num: str) -> None:
    from lexgraph.citations.resolve import cabinet_act_id

    act_id = cabinet_act_id(law_num)
    assert act_id is not None and law_num_of_act_id(act_id) == law_num


def test_a_law_not_stored_and_an_amendment_not_held_are_unverified(store: GraphStore) -> None:
    lg = LexGraph(store)
    lg.ingest_statutes([str(p) for p in CIVIL_FILES], link=False)
    absent = _only(lg.cite("商法第一条の規定による。", as_of=ON))
    assert absent.status == "unverified" and absent.revision_id is None
    assert absent.reason is not None and "商法" in absent.reason and "not checked" in absent.reason
    for text, law_num in (("平成２９年法律第４４号による改正前の民法４１５条。", "平成二十九年法律第四十四号"),
                          ("民法（平成30年法律第59号による改正前のもの）4条による。", "平成三十年法律第五十九号"),
                          ("民法（平成30年法律第59号による改正後のもの）4条による。", "平成三十年法律第五十九号")):
        pinned = _only(lg.cite(text, as_of=ON))
        assert pinned.status == "unverified" and pinned.revision_id is None, pinned
        assert pinned.reason is not None and law_num in pinned.reason
    assert _only(lg.cite("民法第七百九条による。", as_of=ON)).status == "resolved"  # what is checked stays resolved


def test_a_clause_no_stored_version_has_is_not_resolved(store: GraphStore) -> None:
    require("shared")
    lg = LexGraph(store)
    lg.ingest_statutes([str(COMPANIES)], in_force_on=date(2020, 9, 2), link=False)
    for day in (date(2020, 9, 2), ON, date(2020, 1, 1)):  # on the day seen, after it, before it
        cited = _only(lg.cite("会社法第九千九百九十九条による。", as_of=day))
        assert cited.status != "resolved" and cited.reason, (day, cited)
    assert _only(lg.cite("会社法第二条による。", as_of=date(2020, 9, 2))).status == "resolved"


def test_before_and_after_an_amendment_the_store_holds(store: GraphStore, tmp_path: Path) -> None:
    require("shared")
    reactor_revisions(tmp_path, REACTOR_REVISIONS)
    lg = LexGraph(store)
    lg.ingest_statutes([str(tmp_path / f"{r}.xml") for r in REACTOR_REVISIONS], link=False)
    before = _only(lg.cite("令和四年法律第六十八号による改正前の原子炉等規制法第四十三条の三の二十三。", as_of=ON))
    after = _only(lg.cite("原子炉等規制法（令和4年法律第68号による改正後のもの）43条の3の23による。", as_of=ON))
    assert (before.status, before.revision_id) == ("resolved", REACTOR_REVISIONS[0])
    assert (after.status, after.revision_id) == ("resolved", REACTOR_REVISIONS[1])
    unknown = _only(lg.cite("平成三十年法律第五十九号による改正前の原子炉等規制法第一条による。", as_of=ON))
    assert unknown.status == "unverified" and "平成三十年法律第五十九号" in (unknown.reason or "")
