"""Clause cross-references (CITES) through the real CLI: what a clause cites and who cites it, as of a date,
across laws, whatever order the laws arrive in, and idempotent."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from lexgraph import LexGraph
from lexgraph.errors import StoreError
from lexgraph.ingest.crossrefs import link_laws
from tests.helpers import SAMPLE, lexgraph

CIVIL = "129AC0000000089"
LEASE = "403AC0000000090"  # 借地借家法
CIVIL_2020 = SAMPLE / "129AC0000000089_20200401_501AC0000000034.xml"
CIVIL_2023 = SAMPLE / "129AC0000000089_20230614_505AC0000000053.xml"
LEASE_SNAPSHOT = SAMPLE / "403AC0000000090_snapshot20201118.xml"


def links(store: Path, command: str, law: str, clause: str, as_of: str) -> list[dict]:
    run = lexgraph("law", command, law, clause, "--as-of", as_of, "--json", store=store)
    assert run.code == 0, run.stderr
    return run.json()["links"]


def test_cited_by_finds_the_clause_that_says_zenjo(sample_store: Path) -> None:
    found = links(sample_store, "cited-by", "民法", "第七百九条", "2024-01-01")
    assert {(f["law_id"], f["path"], f["surface"]) for f in found} >= {(CIVIL, "a710/p1", "前条")}


@pytest.mark.parametrize(("clause", "target"), [
    ("第七百十条", "a709"),  # 前条 after a plain article
    ("第二百六十四条の十四", "a264_13"),  # 前条 after a branch article: 264の13, not 263
    ("第七百十五条第二項", "a715/p1"),  # 前項
])
def test_cites_resolves_relative_references(sample_store: Path, clause: str, target: str) -> None:
    found = links(sample_store, "cites", "民法", clause, "2024-01-01")
    # 前条 alone, or ending a range (第二百六十四条の十から前条まで: one citation whose every member is linked)
    assert target in {f["path"] for f in found if f["surface"].removesuffix("まで").endswith(("前条", "前項"))}


def test_cites_lists_each_clause_of_a_plural_reference(sample_store: Path) -> None:
    found = links(sample_store, "cites", "民法", "第七百十五条第三項", "2024-01-01")
    assert sorted(f["path"] for f in found if f["surface"] == "前二項") == ["a715/p1", "a715/p2"]


def test_edges_follow_the_versions_in_force(sample_store: Path) -> None:
    # 第二百十三条の二 (2023) cites 第二百九条第一項ただし書; before 2023-06-14 neither that clause nor the edge
    # existed (a day in the sample's gap, 2020-04-02 … 2023-06-13, would be unknown rather than absent).
    cited_by_2024 = links(sample_store, "cited-by", "民法", "第二百九条", "2024-01-01")
    cited_by_2020 = links(sample_store, "cited-by", "民法", "第二百九条", "2020-04-01")
    assert any(f["path"].startswith("a213_2/") for f in cited_by_2024)
    assert not any(f["path"].startswith("a213_2/") for f in cited_by_2020)
    run = lexgraph("law", "cites", "民法", "第二百十三条の二", "--as-of", "2020-04-01", store=sample_store)
    assert run.code == 1 and "not in force" in run.stderr


def test_citations_across_laws(sample_store: Path) -> None:
    # 民法605条の2 cites 借地借家法（平成三年法律第九十号）第十条; 借地借家法29条2項 cites 民法604条.
    assert any(f["law_id"] == LEASE and f["path"] == "a10"
               for f in links(sample_store, "cites", "民法", "第六百五条の二", "2021-01-01"))
    assert any(f["law_id"] == LEASE for f in links(sample_store, "cited-by", "民法", "第六百四条", "2021-01-01"))


def test_the_order_laws_arrive_in_does_not_matter(tmp_path: Path) -> None:
    store = tmp_path / "store"
    first = lexgraph("ingest", "statutes", CIVIL_2020, "--json", store=store)
    assert first.code == 0, first.stderr
    assert first.json()["links"]["cited_laws_not_stored"] > 0  # 借地借家法 among them
    assert not any(f["law_id"] == LEASE for f in links(store, "cites", "民法", "第六百五条の二", "2021-01-01"))
    second = lexgraph("ingest", "statutes", LEASE_SNAPSHOT, "--json", store=store)
    assert second.code == 0, second.stderr
    assert second.json()["links"]["laws"] == 2  # 借地借家法, and 民法 which was waiting for it
    assert any(f["law_id"] == LEASE and f["path"] == "a10"
               for f in links(store, "cites", "民法", "第六百五条の二", "2021-01-01"))
    # A new revision of 民法 replaces clause nodes; 借地借家法's edges into them are linked again.
    third = lexgraph("ingest", "statutes", CIVIL_2023, "--json", store=store)
    assert third.code == 0, third.stderr
    assert any(f["law_id"] == LEASE for f in links(store, "cited-by", "民法", "第六百四条", "2024-01-01"))


def test_linking_again_changes_nothing(sample_store: Path) -> None:
    before = lexgraph("stats", "--json", store=sample_store).json()
    run = lexgraph("law", "link", "--json", store=sample_store)
    assert run.code == 0, run.stderr
    summary = run.json()
    assert summary["laws"] == 3 and summary["edges"] > 1000
    assert summary["edges_added"] == 0 and summary["edges_removed"] == 0
    assert lexgraph("stats", "--json", store=sample_store).json() == before


def test_no_link_then_link(tmp_path: Path) -> None:
    store = tmp_path / "store"
    assert lexgraph("ingest", "statutes", CIVIL_2020, "--no-link", store=store).code == 0
    assert lexgraph("stats", "--json", store=store).json()["relationships"]["CITES"] == 0
    assert lexgraph("law", "link", "民法", store=store).code == 0
    assert lexgraph("stats", "--json", store=store).json()["relationships"]["CITES"] > 1000


def test_an_ingest_that_stopped_before_linking_links_when_run_again(tmp_path: Path) -> None:
    store = tmp_path / "store"
    assert lexgraph("ingest", "statutes", CIVIL_2020, "--no-link", store=store).code == 0  # as if killed then
    again = lexgraph("ingest", "statutes", CIVIL_2020, "--json", store=store)
    assert again.code == 0, again.stderr
    assert again.json()["unchanged"] == 1 and again.json()["links"]["laws"] == 1
    assert lexgraph("stats", "--json", store=store).json()["relationships"]["CITES"] > 1000
    assert lexgraph("ingest", "statutes", CIVIL_2020, "--json", store=store).json()["links"] is None


class _LawWriteCheckingStore:
    """The real embedded store, except that each write of Law rows in an ordinary transaction first passes through
    `check`, which may raise: how a test makes one step of linking fail (a write the database refuses) or stop (a
    kill)."""

    def __init__(self, store: object, check: Callable[[list[dict]], None]) -> None:
        self._store = store
        self._check = check

    def __getattr__(self, name: str) -> object:
        return getattr(self._store, name)

    @contextmanager
    def transaction(self) -> Iterator[object]:
        with self._store.transaction() as tx:  # type: ignore[attr-defined]
            check = self._check

            class Checking:
                def __getattr__(self, name: str) -> object:
                    return getattr(tx, name)

                def upsert_nodes(self, label: str, rows: list[dict]) -> None:
                    if label == "Law":
                        check(rows)
                    tx.upsert_nodes(label, rows)

            yield Checking()


def _refusing(law_id: str) -> Callable[[list[dict]], None]:
    """Fails a write of one law's link record, as a write the database refuses would (a constraint, a full disk):
    the failure linking must survive."""
    def check(rows: list[dict]) -> None:
        if any(row["law_id"] == law_id for row in rows):
            raise StoreError(f"refused to write {law_id}")
    return check


def test_a_law_whose_links_cannot_be_written_does_not_stop_the_others(tmp_path: Path) -> None:
    store = tmp_path / "store"
    assert lexgraph("ingest", "statutes", CIVIL_2020, LEASE_SNAPSHOT, "--no-link", store=store).code == 0
    with LexGraph.open(store) as lg:
        summary = link_laws(_LawWriteCheckingStore(lg.store, _refusing(LEASE)), [CIVIL, LEASE])  # type: ignore[arg-type]
        assert list(summary.failed_laws) == [LEASE] and "refused" in summary.failed_laws[LEASE]
        assert summary.laws == 1 and summary.edges_added > 1000
        assert [row["law_id"] for row in lg.store.query("laws_unlinked")] == [LEASE]  # tried again next time
        assert lg.store.query("law_cites_out", law_id=LEASE) == []
        assert len(lg.store.query("law_cites_out", law_id=CIVIL)) == summary.edges_added
    again = lexgraph("law", "link", store=store)
    assert again.code == 0, again.stderr
    with LexGraph.open(store, read_only=True) as lg:
        assert len(lg.store.query("law_cites_out", law_id=LEASE)) > 0


class _Stopped(Exception):
    """Stands for the process being killed: not a StoreError, so nothing in linking catches it."""


def _stop_before_recording_links(rows: list[dict]) -> None:
    """Stops linking at the last of its three steps (recording `cited_laws`), after the removed edges went and the
    new ones were inserted: what a kill between the steps leaves."""
    if any(row.get("cited_laws") is not None for row in rows):
        raise _Stopped("killed before the laws were marked linked")


def _edges(store: Path, law_id: str) -> list[tuple[str, str]]:
    with LexGraph.open(store, read_only=True) as lg:
        return sorted((r["from_uid"], r["to_uid"]) for r in lg.store.run_read_only(
            "MATCH (v:LawVersion {law_id: $law})-[:CONTAINS]->(p:Provision)-[:CITES]->(t:Provision) "
            "RETURN DISTINCT p.uid AS from_uid, t.uid AS to_uid", {"law": law_id}))


def test_linking_stopped_between_its_steps_leaves_laws_marked_unlinked_and_the_next_run_completes(
        tmp_path: Path) -> None:
    """Linking writes in three atomic steps (the new edges in an insert transaction of their own: COPY on the
    embedded store). Stopped before the last, every law it touched is marked unlinked; the next `law link` gives
    exactly the edges of a link never stopped."""
    reference = tmp_path / "reference"
    assert lexgraph("ingest", "statutes", CIVIL_2020, LEASE_SNAPSHOT, store=reference).code == 0
    store = tmp_path / "store"
    assert lexgraph("ingest", "statutes", CIVIL_2020, LEASE_SNAPSHOT, "--no-link", store=store).code == 0
    with LexGraph.open(store) as lg:
        with pytest.raises(_Stopped):
            link_laws(_LawWriteCheckingStore(lg.store, _stop_before_recording_links), [CIVIL, LEASE])  # type: ignore[arg-type]
        assert [row["law_id"] for row in lg.store.query("laws_unlinked")] == [CIVIL, LEASE]
    assert _edges(store, CIVIL)  # step 2 landed: the new edges are there, their laws still to be linked
    doctor = lexgraph("doctor", "--json", store=store)
    assert doctor.code == 0, doctor.stdout
    again = lexgraph("law", "link", store=store)
    assert again.code == 0, again.stderr
    with LexGraph.open(store, read_only=True) as lg:
        assert lg.store.query("laws_unlinked") == []
    for law_id in (CIVIL, LEASE):
        assert _edges(store, law_id) == _edges(reference, law_id)

