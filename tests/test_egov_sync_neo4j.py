"""`sync` into a Neo4j store: the same periods, scheduled versions and repeal as on the embedded store, and a second
sync that fetches nothing. Needs the Neo4j test server (``LEXGRAPH_TEST_NEO4J_URI``; see docs/neo4j.md)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from lexgraph.client import LexGraph
from lexgraph.store.base import GraphStore
from tests.conftest import NEO4J_MARKS
from tests.egov_api_server import CIVIL_CODE, OPEN_DAY_CIVIL, SCHEDULED_CIVIL, SUBCONTRACT, EgovApiServer

pytestmark = NEO4J_MARKS


def test_sync_into_neo4j(neo4j_store: GraphStore, tmp_path: Path) -> None:
    lg = LexGraph(neo4j_store)
    with EgovApiServer() as server:
        summary = lg.sync(["民法", "下請代金支払遅延等防止法"], api=server.url, pace=0, link=False,
                          cache_dir=tmp_path / "cache")
        assert summary.failures == [] and summary.versions_added == 5
        versions = lg.versions("民法")
        assert [(v.revision_id, v.enforced_from, v.enforced_until, v.scheduled) for v in versions] == [
            (f"{CIVIL_CODE}_20200401_501AC0000000034", date(2020, 4, 1), date(2020, 5, 16), False),
            (f"{CIVIL_CODE}_20200516_501AC0000000002", date(2020, 5, 16), date(2023, 6, 14), False),
            (f"{CIVIL_CODE}_20230614_505AC0000000053", date(2023, 6, 14), date(2027, 4, 1), False),
            (SCHEDULED_CIVIL, date(2027, 4, 1), None, True),
            (OPEN_DAY_CIVIL, None, None, True),
        ]
        assert versions[2].known_up_to == date.today() and all(v.dated_by == "egov-api" for v in versions)
        assert "二十歳" in lg.show("民法", "第四条", as_of=date(2020, 5, 16)).provision.text
        assert "十八歳" in lg.show("民法", "第四条", as_of=date(2023, 7, 1)).provision.text
        assert lg.law(SUBCONTRACT).repealed_on == date(2026, 1, 1)
        with pytest.raises(LookupError, match="repealed"):  # NotInForce, a LookupError
            lg.show(SUBCONTRACT, "第一条", as_of=date(2026, 7, 1))

        counts = neo4j_store.counts().to_json()
        texts = len(server.requests("law_data"))
        again = lg.sync(["民法", "下請代金支払遅延等防止法"], api=server.url, pace=0, link=False,
                        cache_dir=tmp_path / "cache")
        assert again.versions_added == 0 and len(server.requests("law_data")) == texts
        assert neo4j_store.counts().to_json() == counts
