"""The GraphStore contract, run on every backend by the ``store`` / ``empty_store`` fixtures (conftest.py).

The embedded backend always runs; Neo4j runs when ``LEXGRAPH_TEST_NEO4J_URI`` is set (docs/neo4j.md).
The rows are real: 民法 (law 129AC0000000089) in its versions of 2020-04-01 and 2023-06-14,
with article 4, whose age of majority changed from 二十歳 to 十八歳 between them,
and article 709, which did not change.
"""

from __future__ import annotations

import hashlib
import json
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest

from lexgraph.errors import QueryRefused, StoreError, UnknownQuery
from lexgraph.store.base import NODE_SPECS, REL_TYPES, GraphStore, StoreCounts

LAW_ID = "129AC0000000089"
V2020 = f"{LAW_ID}_20200401_501AC0000000034"
V2023 = f"{LAW_ID}_20230614_505AC0000000053"
A4_2020 = f"{LAW_ID}/a4@20200401"
A4_2023 = f"{LAW_ID}/a4@20230614"
A709 = f"{LAW_ID}/a709@20200401"
A709_P1 = f"{LAW_ID}/a709/p1@20200401"

TEXT_709 = (
    "故意又は過失によって他人の権利又は法律上保護される利益を侵害した者は、"
    "これによって生じた損害を賠償する責任を負う。"
)

LAW_ROW: dict[str, Any] = {
    "law_id": LAW_ID, "title": "民法", "law_num": "明治二十九年法律第八十九号", "law_type": "Act",
    "aliases": [], "kana": "みんぽう", "promulgated": date(1896, 4, 27),
}


def _version_row(revision_id: str, start: date, until: date | None, amended_by: str) -> dict[str, Any]:
    return {
        "revision_id": revision_id, "law_id": LAW_ID, "enforced_from": start, "enforced_until": until,
        "amended_by": amended_by, "source": f"{revision_id}.xml", "dated_by": "revision_id",
        "known_in_force_on": None, "content_hash": hashlib.sha1(revision_id.encode()).hexdigest(),
        "xml_format": "api_v2",
    }


def _provision_row(uid: str, path: str, kind: str, num: str, title: str, caption: str | None, text: str,
                   seq: int, start: date, until: date | None) -> dict[str, Any]:
    return {
        "uid": uid, "law_id": LAW_ID, "path": path, "kind": kind, "num": num, "title": title,
        "caption": caption, "heading": None, "text": text,
        "sentences": json.dumps([["main", text]], ensure_ascii=False), "seq": seq,
        "valid_from": start, "valid_until": until, "content_hash": hashlib.sha1(text.encode()).hexdigest(),
    }


VERSION_ROWS = [
    _version_row(V2020, date(2020, 4, 1), date(2023, 6, 14), "501AC0000000034"),
    _version_row(V2023, date(2023, 6, 14), None, "505AC0000000053"),
]
PROVISION_ROWS = [
    _provision_row(A4_2020, "a4", "article", "4", "第四条", "（成年）", "年齢二十歳をもって、成年とする。",
                   40, date(2020, 4, 1), date(2023, 6, 14)),
    _provision_row(A4_2023, "a4", "article", "4", "第四条", "（成年）", "年齢十八歳をもって、成年とする。",
                   40, date(2023, 6, 14), None),
    _provision_row(A709, "a709", "article", "709", "第七百九条", "（不法行為による損害賠償）", TEXT_709,
                   7090, date(2020, 4, 1), None),
    _provision_row(A709_P1, "a709/p1", "paragraph", "1", "", None, TEXT_709, 7091, date(2020, 4, 1), None),
]
EDGES: dict[str, list[dict[str, Any]]] = {
    "HAS_VERSION": [{"from": LAW_ID, "to": V2020}, {"from": LAW_ID, "to": V2023}],
    "NEXT": [{"from": V2020, "to": V2023}],
    "CONTAINS": [{"from": V2020, "to": uid} for uid in (A4_2020, A709, A709_P1)]
    + [{"from": V2023, "to": uid} for uid in (A4_2023, A709, A709_P1)],
    "HAS_PART": [{"from": A709, "to": A709_P1}],
    # A cross-reference with its properties (a made-up one: 第七百九条第一項 citing 第四条 of the same law).
    "CITES": [{"from": A709_P1, "to": A4_2023, "surface": "第四条", "char_start": 3, "char_end": 6, "part": "",
               "status": "resolved", "extractor": "rules", "mentions": 1}],
}
# Relationship types the seed leaves empty (documents and chunks) count 0.
_UNSEEDED_RELS = {rel_type: 0 for rel_type in REL_TYPES}
_UNSEEDED_NODES = {spec.label: 0 for spec in NODE_SPECS}
SEEDED = StoreCounts(
    nodes={**_UNSEEDED_NODES, "Law": 1, "LawVersion": 2, "Provision": 4},
    relationships={**_UNSEEDED_RELS, "HAS_VERSION": 2, "NEXT": 1, "CONTAINS": 6, "HAS_PART": 1, "CITES": 1},
)
# The labels each seeded relationship joins (CITES also leaves chunks, so it needs them spelled out).
LABELS = {"CITES": {"from_label": "Provision", "to_label": "Provision"}}


def seed(store: GraphStore) -> None:
    with store.transaction() as tx:
        tx.upsert_nodes("Law", [LAW_ROW])
        tx.upsert_nodes("LawVersion", VERSION_ROWS)
        tx.upsert_nodes("Provision", PROVISION_ROWS)
        for rel_type, rows in EDGES.items():
            tx.upsert_relationships(rel_type, rows, **LABELS.get(rel_type, {}))


def counts(store: GraphStore) -> dict[str, Any]:
    return store.counts().to_json()


def versions(store: GraphStore) -> dict[str, dict[str, Any]]:
    return {row["revision_id"]: row for row in store.query("law_versions", law_id=LAW_ID)}


class Boom(Exception):
    """Raised inside a transaction to make it roll back."""


# -- migrations ---------------------------------------------------------------------------------------------
def test_migrations_apply_once_and_are_recorded(empty_store: GraphStore) -> None:
    files = empty_store.migrations()
    assert files, "every backend ships at least V001"
    assert empty_store.applied_migrations() == []
    assert [m.version for m in empty_store.pending_migrations()] == [m.version for m in files]

    applied = empty_store.migrate()

    assert [m.version for m in applied] == [m.version for m in files]
    assert empty_store.migrate() == []
    history = empty_store.applied_migrations()
    assert [(h.version, h.name, h.checksum) for h in history] == [
        (m.version, m.name, m.checksum) for m in files
    ]
    assert all(datetime.fromisoformat(h.applied_at).tzinfo is not None for h in history)
    assert empty_store.pending_migrations() == []
    assert empty_store.changed_migrations() == []


def test_a_migrated_store_counts_every_label_and_type_as_zero(store: GraphStore) -> None:
    assert counts(store) == {
        "nodes": {spec.label: 0 for spec in NODE_SPECS},
        "relationships": {rel_type: 0 for rel_type in REL_TYPES},
    }


# -- upserts ------------------------------------------------------------------------------------------------
def test_upsert_nodes_is_idempotent(store: GraphStore) -> None:
    seed(store)
    first = counts(store)
    seed(store)
    assert counts(store) == first == SEEDED.to_json()
    assert len(store.query("law_by_id", law_id=LAW_ID)) == 1


def test_upsert_nodes_updates_changed_properties_and_clears_none(store: GraphStore) -> None:
    """The 2020 version is first stored open-ended, then closed when the 2023 version arrives, as an ingest
    recomputing the timeline does; setting a property to None clears it."""
    open_ended = {**VERSION_ROWS[0], "enforced_until": None}
    with store.transaction() as tx:
        tx.upsert_nodes("LawVersion", [open_ended])
    assert versions(store)[V2020]["enforced_until"] is None

    with store.transaction() as tx:
        tx.upsert_nodes("LawVersion", VERSION_ROWS)
    stored = versions(store)
    assert stored[V2020]["enforced_until"] == date(2023, 6, 14)
    assert stored[V2023]["enforced_until"] is None
    assert counts(store)["nodes"]["LawVersion"] == 2

    with store.transaction() as tx:
        tx.upsert_nodes("LawVersion", [open_ended])
    assert versions(store)[V2020]["enforced_until"] is None
    assert versions(store)[V2020]["amended_by"] == "501AC0000000034"


def test_upsert_nodes_writes_each_row_s_own_properties(store: GraphStore) -> None:
    """Rows of one call may carry different keys: each row's keys are written, absent keys left alone."""
    with store.transaction() as tx:
        tx.upsert_nodes("LawVersion", VERSION_ROWS)
    with store.transaction() as tx:
        tx.upsert_nodes("LawVersion", [
            {"revision_id": V2020},
            {"revision_id": V2023, "known_in_force_on": date(2023, 7, 1)},
        ])
    stored = versions(store)
    assert stored[V2023]["known_in_force_on"] == date(2023, 7, 1)
    assert stored[V2020]["enforced_until"] == date(2023, 6, 14)


def test_upsert_relationships_is_idempotent_without_duplicate_edges(store: GraphStore) -> None:
    seed(store)
    with store.transaction() as tx:  # again, and with a pair repeated within one call
        for rel_type, rows in EDGES.items():
            tx.upsert_relationships(rel_type, rows + rows[:1], **LABELS.get(rel_type, {}))
    assert counts(store) == SEEDED.to_json()
    assert store.query("law_next_links", law_id=LAW_ID) == [{"earlier": V2020, "later": V2023}]
    assert store.query("law_has_part", law_id=LAW_ID) == [{"parent": A709, "child": A709_P1}]


def test_empty_writes_change_nothing(store: GraphStore) -> None:
    seed(store)
    with store.transaction() as tx:
        tx.upsert_nodes("Provision", [])
        tx.upsert_relationships("CONTAINS", [])
        tx.delete_nodes("Provision", [])
        tx.delete_relationships("CONTAINS", [])
    assert counts(store) == SEEDED.to_json()


def test_unknown_labels_and_types_are_refused(store: GraphStore) -> None:
    """Labels and types reach the Cypher text, so only those of the data model (base.py) may be written."""
    with pytest.raises(StoreError), store.transaction() as tx:
        tx.upsert_nodes("Person", [{"uid": "x"}])
    with pytest.raises(StoreError), store.transaction() as tx:
        tx.upsert_relationships("KNOWS", [{"from": "a", "to": "b"}])


# -- transactions -------------------------------------------------------------------------------------------
def test_a_transaction_that_raises_rolls_back_everything(store: GraphStore) -> None:
    seed(store)
    before_counts, before_versions = counts(store), versions(store)
    new_article = _provision_row(
        f"{LAW_ID}/a710@20200401", "a710", "article", "710", "第七百十条", "（財産以外の損害の賠償）",
        "他人の身体、自由若しくは名誉を侵害した場合……", 7100, date(2020, 4, 1), None,
    )

    with pytest.raises(Boom), store.transaction() as tx:
        tx.upsert_nodes("Provision", [new_article])
        tx.upsert_relationships("CONTAINS", [{"from": V2023, "to": new_article["uid"]}])
        tx.upsert_nodes("LawVersion", [{**VERSION_ROWS[0], "enforced_until": None}])
        tx.delete_nodes("Provision", [A709_P1])
        tx.delete_relationships("NEXT", [(V2020, V2023)])
        # the transaction sees its own writes …
        seen = {row["revision_id"]: row for row in tx.query("law_versions", law_id=LAW_ID)}
        assert seen[V2020]["enforced_until"] is None
        raise Boom

    # … and nobody sees them afterwards
    assert counts(store) == before_counts
    assert versions(store) == before_versions
    assert [row["uid"] for row in store.query("provision_children", uid=A709)] == [A709_P1]
    assert store.query("law_next_links", law_id=LAW_ID) == [{"earlier": V2020, "later": V2023}]


def test_transactions_do_not_nest_and_user_queries_wait_outside(store: GraphStore) -> None:
    with store.transaction():
        with pytest.raises(StoreError), store.transaction():
            pass
        with pytest.raises(StoreError):
            store.run_read_only("MATCH (n:Law) RETURN count(n) AS n")
    with store.transaction() as tx:  # the failed attempts left the store usable
        tx.upsert_nodes("Law", [LAW_ROW])
    assert counts(store)["nodes"]["Law"] == 1


# -- deletes ------------------------------------------------------------------------------------------------
def test_delete_nodes_detaches_their_relationships(store: GraphStore) -> None:
    seed(store)
    with store.transaction() as tx:
        tx.delete_nodes("Provision", [A4_2020, A4_2020, f"{LAW_ID}/a9999@20200401"])  # repeated, unknown
    after = counts(store)
    assert after["nodes"] == {**SEEDED.nodes, "Provision": 3}
    assert after["relationships"] == {**SEEDED.relationships, "CONTAINS": 5}
    assert [row["uid"] for row in store.query("provision_history", law_id=LAW_ID, path="a4")] == [A4_2023]

    with store.transaction() as tx:
        tx.delete_nodes("LawVersion", [V2023])
    after = counts(store)
    assert after["nodes"] == {**_UNSEEDED_NODES, "Law": 1, "LawVersion": 1, "Provision": 3}
    assert after["relationships"] == {**_UNSEEDED_RELS, "HAS_VERSION": 1, "CONTAINS": 2, "HAS_PART": 1, "CITES": 1}

    with store.transaction() as tx:
        tx.delete_nodes("Provision", [A4_2023])  # the cited clause: its incoming CITES goes with it
    assert counts(store)["relationships"]["CITES"] == 0


def test_delete_relationships_removes_only_the_given_pairs(store: GraphStore) -> None:
    seed(store)
    with store.transaction() as tx:
        tx.delete_relationships("CONTAINS", [(V2020, A709), (V2020, A709), (V2023, A4_2020)])  # last: no edge
    after = counts(store)
    assert after["nodes"] == SEEDED.nodes
    assert after["relationships"] == {**SEEDED.relationships, "CONTAINS": 5}
    history = store.query("provision_history", law_id=LAW_ID, path="a709")
    assert [sorted(row["revision_ids"]) for row in history] == [[V2023]]


# -- named queries ------------------------------------------------------------------------------------------
def test_named_queries_return_dicts_with_python_dates(store: GraphStore) -> None:
    seed(store)
    stored = versions(store)
    assert list(stored) == [V2020, V2023]  # ordered by enforced_from
    row = stored[V2020]
    assert type(row["enforced_from"]) is date and row["enforced_from"] == date(2020, 4, 1)
    assert type(row["enforced_until"]) is date and row["enforced_until"] == date(2023, 6, 14)
    assert {k: row[k] for k in ("law_id", "amended_by", "dated_by", "known_in_force_on")} == {
        "law_id": LAW_ID, "amended_by": "501AC0000000034", "dated_by": "revision_id",
        "known_in_force_on": None,
    }

    law = store.query("law_by_id", law_id=LAW_ID)
    assert law == [{**LAW_ROW, "enact_statement": None, "synced_on": None, "repealed_on": None}]  # not synced
    assert type(law[0]["promulgated"]) is date
    assert [r["law_id"] for r in store.query("laws_by_name", name="民法")] == [LAW_ID]
    assert store.query("laws_by_name", name="刑法") == []
    with store.transaction() as tx:  # a query parameter may be called `name`, in a transaction too
        assert [r["law_id"] for r in tx.query("laws_by_name", name="民法")] == [LAW_ID]


@pytest.mark.parametrize(("day", "revision_id", "majority"), [
    (date(2021, 1, 1), V2020, "二十歳"),
    (date(2023, 6, 13), V2020, "二十歳"),
    (date(2023, 6, 14), V2023, "十八歳"),
    (date(2024, 4, 1), V2023, "十八歳"),
])
def test_as_of_queries_take_date_parameters(
    store: GraphStore, day: date, revision_id: str, majority: str
) -> None:
    seed(store)
    assert [r["revision_id"] for r in store.query("law_version_on", law_id=LAW_ID, day=day)] == [revision_id]
    article = store.query("provision_as_of", law_id=LAW_ID, path="a4", day=day)
    assert len(article) == 1 and majority in article[0]["text"]
    assert type(article[0]["valid_from"]) is date


def test_an_unknown_named_query_raises_unknown_query(store: GraphStore) -> None:
    with pytest.raises(UnknownQuery):
        store.query("no_such_query", law_id=LAW_ID)
    with pytest.raises(UnknownQuery):
        store.query("../migrations/neo4j/V001__statutes")
    with pytest.raises(UnknownQuery), store.transaction() as tx:
        tx.query("no_such_query")


# -- user queries -------------------------------------------------------------------------------------------
def test_run_read_only_returns_rows_and_takes_parameters(store: GraphStore) -> None:
    seed(store)
    rows = store.run_read_only(
        "MATCH (l:Law {law_id: $law_id})-[:HAS_VERSION]->(v:LawVersion) "
        "RETURN l.title AS title, v.revision_id AS revision_id, v.enforced_from AS enforced_from "
        "ORDER BY v.enforced_from",
        {"law_id": LAW_ID},
    )
    assert rows == [
        {"title": "民法", "revision_id": V2020, "enforced_from": date(2020, 4, 1)},
        {"title": "民法", "revision_id": V2023, "enforced_from": date(2023, 6, 14)},
    ]
    # a parameter is a value, never Cypher
    injected = store.run_read_only("MATCH (l:Law) WHERE l.title = $name RETURN count(l) AS n",
                                   {"name": "民法' OR true //"})
    assert injected == [{"n": 0}]


@pytest.mark.parametrize(("cypher", "params"), [
    pytest.param("CREATE (:Law {law_id: '999AC0000000001', title: '架空法'})", {}, id="create"),
    pytest.param("MERGE (l:Law {law_id: '999AC0000000001'}) RETURN l.law_id AS law_id", {}, id="merge-new"),
    pytest.param("MERGE (l:Law {law_id: $law_id}) RETURN l.title AS title", {"law_id": LAW_ID},
                 id="merge-existing"),
    pytest.param("MATCH (l:Law {law_id: $law_id}) SET l.title = '改竄' RETURN l.title AS title",
                 {"law_id": LAW_ID}, id="set"),
    pytest.param("MATCH (:LawVersion)-[r:CONTAINS]->(p:Provision {uid: $uid}) DELETE r", {"uid": A709_P1},
                 id="delete"),
    pytest.param("MATCH (p:Provision {uid: $uid}) DETACH DELETE p", {"uid": A709_P1}, id="detach-delete"),
])
def test_run_read_only_refuses_writes(store: GraphStore, cypher: str, params: dict[str, Any]) -> None:
    seed(store)
    before = counts(store)
    with pytest.raises(QueryRefused):
        store.run_read_only(cypher, params)
    assert counts(store) == before
    assert store.query("law_by_id", law_id=LAW_ID)[0]["title"] == "民法"
    assert store.run_read_only("MATCH (l:Law) RETURN count(l) AS n") == [{"n": 1}]  # still usable


def test_a_relationship_type_joining_several_label_pairs_needs_the_labels(store: GraphStore) -> None:
    seed(store)
    with pytest.raises(StoreError, match="pass from_label and to_label"), store.transaction() as tx:
        tx.upsert_relationships("CITES", EDGES["CITES"])
    with pytest.raises(StoreError, match="unknown relationship"), store.transaction() as tx:
        tx.upsert_relationships("CITES", EDGES["CITES"], from_label="Law", to_label="Provision")
    assert counts(store) == SEEDED.to_json()


def test_copy_into_this_backend_is_complete_and_idempotent(store: GraphStore, tmp_path: Path) -> None:
    """`lexgraph copy --to`: an embedded store copied into the backend under test (Neo4j when
    LEXGRAPH_TEST_NEO4J_URI is set), in batches smaller than a label so that paging is exercised."""
    from lexgraph.store.copy import copy_store
    from lexgraph.store.embedded import EmbeddedStore

    source = EmbeddedStore(tmp_path / "source")
    source.migrate()
    seed(source)
    copied = copy_store(source, store, batch=2)
    assert counts(store) == SEEDED.to_json()
    assert copied.nodes["Provision"] == 4 and copied.relationships["CONTAINS"] == 6
    assert versions(store) == versions(source)
    assert store.query("provision_periods", law_id=LAW_ID, path="a4") == \
        source.query("provision_periods", law_id=LAW_ID, path="a4")
    copy_store(source, store, batch=3)  # again: nothing changes
    assert counts(store) == SEEDED.to_json()
    source.close()


@pytest.mark.parametrize("bulk", [True, False], ids=["insert-transaction", "transaction"])
def test_bulk_inserts_store_every_row_and_roll_back_whole(store: GraphStore, bulk: bool) -> None:
    """`create_nodes` / `create_relationships` of 民法's real clauses, in an insert transaction (``COPY FROM`` on
    the embedded store) and in an ordinary one (``UNWIND``): every row and property lands, a property no row has
    is null, duplicate pairs land once, and a transaction that fails after the inserts leaves nothing."""
    from lexgraph.ingest.statutes import _provision_row
    from lexgraph.statutes.egov import parse_law_xml
    from lexgraph.statutes.sources import parse_revision_id
    from lexgraph.statutes.timeline import VersionContent, build_timeline
    from tests.helpers import SAMPLE

    opener = store.insert_transaction if bulk else store.transaction
    source = SAMPLE / f"{V2020}.xml"
    revision = parse_revision_id(source.name)
    assert revision is not None
    law = parse_law_xml(source.read_bytes(), source.name)
    timeline = build_timeline(LAW_ID, [VersionContent(revision, source.name, law.meta.xml_format, law.provisions)])
    rows = [_provision_row(p) for p in timeline.provisions]
    clauses = [r for r in rows if r["kind"] == "paragraph"]
    cites = [{"from": a["uid"], "to": b["uid"], "surface": "前項", "char_start": 0, "char_end": 2, "status": "resolved",
              "extractor": "rules", "mentions": 1} for a, b in zip(clauses[1:], clauses[:-1], strict=True)]
    with pytest.raises(RuntimeError, match="after the copy"), opener() as tx:
        tx.create_nodes("Provision", rows)
        raise RuntimeError("after the copy")
    assert store.counts().nodes.get("Provision", 0) == 0
    with opener() as tx:
        tx.create_nodes("Provision", rows)
        tx.create_relationships("CITES", cites + cites[:5], from_label="Provision", to_label="Provision")
        tx.create_relationships("HAS_PART", [{"from": a, "to": b} for a, b in sorted(timeline.has_part)])
    assert len(rows) > 1000 and len(cites) > 100
    assert store.counts().nodes["Provision"] == len(rows)
    assert store.counts().relationships["CITES"] == len(cites)
    assert store.counts().relationships["HAS_PART"] == len(timeline.has_part)
    stored = {r["uid"]: r for r in store.run_read_only(
        "MATCH (p:Provision) RETURN p.uid AS uid, p.path AS path, p.sentences AS sentences, p.seq AS seq, "
        "p.valid_from AS valid_from, p.valid_until AS valid_until, p.caption AS caption")}
    compared = ("path", "sentences", "seq", "valid_from", "valid_until", "caption")
    for row in rows:
        assert {k: stored[row["uid"]][k] for k in compared} == {k: row[k] for k in compared}
    edge = store.run_read_only("MATCH (a:Provision {uid: $uid})-[r:CITES]->(b) RETURN b.uid AS to, r.surface AS s, "
                               "r.mentions AS m, r.char_end AS e, r.part AS part", {"uid": cites[0]["from"]})
    assert edge == [{"to": cites[0]["to"], "s": "前項", "m": 1, "e": 2, "part": None}]  # no row gave a part


def test_an_insert_transaction_refuses_every_write_but_inserts(store: GraphStore) -> None:
    """The embedded store loads an insert transaction with COPY, which is atomic only when nothing else is
    written beside it; so an update or delete there is a caller's bug, refused before it writes. On Neo4j an
    insert transaction is an ordinary one."""
    seed(store)
    writes = [
        ("upsert_nodes", lambda tx: tx.upsert_nodes("Law", [{"law_id": LAW_ID, "title": "x"}])),
        ("upsert_relationships", lambda tx: tx.upsert_relationships("HAS_VERSION", [{"from": LAW_ID, "to": V2020}])),
        ("delete_nodes", lambda tx: tx.delete_nodes("Provision", ["nothing"])),
        ("delete_relationships", lambda tx: tx.delete_relationships("HAS_VERSION", [(LAW_ID, V2020)])),
    ]
    before = counts(store)
    for name, write in writes:
        if store.backend == "embedded":
            with pytest.raises(TypeError, match=f"{name} in an insert transaction"), store.insert_transaction() as tx:
                write(tx)
        else:
            with store.insert_transaction() as tx:
                write(tx)
            seed(store)
    assert counts(store) == before


def _set(row: dict[str, Any]) -> dict[str, Any]:
    """A row's set properties: Neo4j stores no null, so an unset property is absent there and None here."""
    return {k: v for k, v in row.items() if v is not None}


@pytest.mark.parametrize("batch", [1, 3, 10_000])
def test_export_reads_every_node_and_relationship_with_its_properties(store: GraphStore, batch: int) -> None:
    """What `copy` reads out of a store: the embedded store's bulk export (COPY TO Parquet) and Neo4j's keyset
    walk must both give back exactly the rows written, whatever the batch size, in batches no larger."""
    from lexgraph.store.base import REL_SPECS

    seed(store)
    written = {"Law": [LAW_ROW], "LawVersion": VERSION_ROWS, "Provision": PROVISION_ROWS}
    for spec in NODE_SPECS:
        batches = list(store.export_nodes(spec.label, batch))
        assert all(0 < len(rows) <= batch for rows in batches)
        exported = sorted((_set(row) for rows in batches for row in rows), key=lambda row: row[spec.key])
        assert exported == sorted((_set(row) for row in written.get(spec.label, [])), key=lambda r: r[spec.key])
    for rel in REL_SPECS:
        exported = [_set(row) for rows in store.export_relationships(rel, batch) for row in rows]
        expected = EDGES.get(rel.rel_type, []) if (rel.from_label, rel.to_label) in (
            ("Law", "LawVersion"), ("LawVersion", "LawVersion"), ("LawVersion", "Provision"),
            ("Provision", "Provision")) else []
        key = lambda row: (row["from"], row["to"])  # noqa: E731
        assert sorted(exported, key=key) == sorted(expected, key=key), rel


def test_copy_out_of_this_backend_into_an_embedded_store(store: GraphStore, tmp_path: Path) -> None:
    """`lexgraph copy` the other way: from the backend under test (Neo4j's keyset walk, or the embedded bulk
    export) into a new embedded store, completely, twice without change."""
    from lexgraph.store.copy import copy_store
    from lexgraph.store.embedded import EmbeddedStore

    seed(store)
    target = EmbeddedStore(tmp_path / "copy")
    try:
        target.migrate()
        copy_store(store, target, batch=2)
        assert counts(target) == SEEDED.to_json()
        assert versions(target) == versions(store)
        assert target.query("provision_periods", law_id=LAW_ID, path="a4") == \
            store.query("provision_periods", law_id=LAW_ID, path="a4")
        copy_store(store, target)
        assert counts(target) == SEEDED.to_json()
    finally:
        target.close()
