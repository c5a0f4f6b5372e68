"""A hostile e-Gov server against a sync into Neo4j: what tests/test_egov_sync_hostile.py checks on the embedded
store, on the other backend (another law's text reported and not stored; another law's list, a day that does not
exist, an id that is no e-Gov id, an endless or dripping answer, a redirect elsewhere, a Retry-After of years:
each refused with nothing written; a store that held a law left as it was). Needs the Neo4j test server
(``LEXGRAPH_TEST_NEO4J_URI``; see docs/neo4j.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lexgraph.client import LexGraph
from lexgraph.errors import AnswerRefused
from lexgraph.statutes.egov_api import SyncLimits
from lexgraph.store.base import GraphStore
from tests.conftest import NEO4J_MARKS
from tests.egov_api_server import (
    PROCEDURE,
    SUBCONTRACT,
    EgovApiServer,
    impostor_text,
    listed_as,
    repealed_law,
    with_listed,
)
from tests.test_egov_sync_hostile import CIVIL_TEXT, NEW, OLD, procedure_act

pytestmark = NEO4J_MARKS


def _state(store: GraphStore) -> dict[str, Any]:
    return {"counts": store.counts().to_json(),
            "versions": store.query("law_versions_for_laws", law_ids=[PROCEDURE, SUBCONTRACT])}


def test_another_laws_text_is_reported_and_not_stored(neo4j_store: GraphStore, tmp_path: Path) -> None:
    lg = LexGraph(neo4j_store)
    with EgovApiServer([impostor_text(procedure_act(), NEW, CIVIL_TEXT)]) as api:
        summary = lg.sync([PROCEDURE], api=api.url, pace=0, link=False, cache_dir=tmp_path / "cache")
    [failure] = summary.failures
    assert (failure.law_id, failure.revision_id) == (PROCEDURE, NEW)
    assert "<LawNum> is 明治二十九年法律第八十九号" in failure.reason and f"/law_data/{NEW}" in failure.reason
    assert [v.revision_id for v in lg.versions(PROCEDURE)] == [OLD]


@pytest.mark.parametrize("server", [
    lambda: [listed_as(PROCEDURE, repealed_law())],
    lambda: [with_listed(procedure_act(), NEW, amendment_enforcement_date="2024-02-30")],
    lambda: [with_listed(procedure_act(), NEW, law_revision_id=f"../../x/{NEW}")],
    lambda: [with_listed(procedure_act(), NEW, law_revision_id=f"{NEW}\x00evil")],
    lambda: [with_listed(procedure_act(), NEW, law_info_law_id="../../x/law\x00x")],
], ids=["another-law", "feb-30", "dot-dot", "nul", "law-id"])
def test_a_refused_list_writes_nothing(server: Any, neo4j_store: GraphStore, tmp_path: Path) -> None:
    lg = LexGraph(neo4j_store)
    before = _state(neo4j_store)
    with EgovApiServer(server()) as api, pytest.raises(AnswerRefused, match=f"law {PROCEDURE}: .*/law_revisions/"):
        lg.sync([PROCEDURE], api=api.url, pace=0, link=False, cache_dir=tmp_path / "cache")
    assert _state(neo4j_store) == before
    assert not (tmp_path / "cache").exists()


def test_an_endless_answer_leaves_a_store_as_it_was(neo4j_store: GraphStore, tmp_path: Path) -> None:
    lg = LexGraph(neo4j_store)
    with EgovApiServer([procedure_act(), repealed_law()]) as api:
        assert lg.sync([SUBCONTRACT], api=api.url, pace=0, link=False, cache_dir=tmp_path / "cache").failures == []
        before = _state(neo4j_store)
        cached = sorted(p for p in (tmp_path / "cache").rglob("*"))
        api.fail_next(f"law_data/{NEW}", "endless")
        with pytest.raises(AnswerRefused, match=f"law {PROCEDURE}: .*/law_data/{NEW}.* 1 MB"):
            lg.sync([PROCEDURE], api=api.url, pace=0, link=False, cache_dir=tmp_path / "cache",
                    limits=SyncLimits(max_answer_mb=1))
    assert _state(neo4j_store) == before
    assert sorted(p for p in (tmp_path / "cache").rglob("*")) == cached  # the good first text was not cached


@pytest.mark.parametrize(("where", "fault", "named"), [
    (f"law_data/{NEW}", "drip", "bound of 2 s in all"),
    ("law_revisions", "redirect:http://127.0.0.2:9/api/2/x", "redirected to 'http://127.0.0.2:9/api/2/x'"),
    ("law_revisions", "retry-after:Fri, 31 Dec 9999 23:59:59 GMT", r"\(Retry-After: Fri, 31 Dec 9999"),
], ids=["drip", "redirect", "retry-after"])
def test_a_refused_answer_writes_nothing(where: str, fault: str, named: str, neo4j_store: GraphStore,
                                         tmp_path: Path) -> None:
    lg = LexGraph(neo4j_store)
    before = _state(neo4j_store)
    with EgovApiServer([procedure_act()]) as api:
        api.fail_next(where, fault)
        with pytest.raises(AnswerRefused, match=f"law {PROCEDURE}: .*{named}"):
            lg.sync([PROCEDURE], api=api.url, pace=0, link=False, cache_dir=tmp_path / "cache",
                    limits=SyncLimits(answer_seconds=2))
    assert _state(neo4j_store) == before
    assert not (tmp_path / "cache").exists()
