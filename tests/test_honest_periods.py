"""Honest periods on real e-Gov XML of 民法: the 2020-04-01, 2020-05-16 and 2023-06-14
revisions in ../shared/data/egov/versioned (see MANIFEST.json there) and the bundled sample.

Between 2020-05-16 and 2023-06-14 the 2023 text's 附則 name amendments the store does not hold (平成三十年法律第五十九号
from 2022-04-01, which lowered the age of majority in 第四条). A clause that reads differently on the two sides is
not known in force inside that gap; one that reads the same stays in force across it; the newest version is
"known up to" a day, never "now".
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from lexgraph.errors import NotInForce, WordingUnknown
from lexgraph.model import KnownAmendment, RevisionId
from lexgraph.read.laws import law_versions, provision_as_of, resolve_law
from lexgraph.read.revisions import StoreRevisions
from lexgraph.statutes.amendments import law_num_of_act_id, named_amendments
from lexgraph.statutes.egov import PARSER_VERSION, parse_law_xml
from lexgraph.statutes.timeline import VersionContent, build_timeline
from lexgraph.store.base import GraphStore
from lexgraph.store.doctor import examine
from tests.capabilities import SHARED, require
from tests.conftest import BACKENDS, _open_embedded, open_neo4j_wiped, wipe_neo4j
from tests.helpers import lexgraph

SAMPLE = Path(__file__).parents[1] / "lexgraph" / "data" / "sample"
VERSIONED = SHARED / "egov" / "versioned" / "129AC0000000089"
CIVIL = "129AC0000000089"
REVISIONS = ("129AC0000000089_20200401_501AC0000000034", "129AC0000000089_20200516_501AC0000000002",
             "129AC0000000089_20230614_505AC0000000053")
GAP_DAY = date(2022, 5, 1)
NOW = re.compile(r"\bnow\b|現在")


def _files() -> list[Path]:
    require("shared")
    return [VERSIONED / f"{revision}.xml" for revision in REVISIONS]


@pytest.fixture(scope="module")
def civil_2023_amendments() -> dict[str, KnownAmendment]:
    path = SAMPLE / f"{REVISIONS[2]}.xml"
    return {a.law_num: a for a in named_amendments(parse_law_xml(path.read_bytes(), str(path)).provisions)}


# (amending law, 施行期日, how it was read, last day a 政令 may fix) from the first sentences of the real 附則
@pytest.mark.parametrize(("law_num", "enforced", "basis", "latest"), [
    ("平成三十年法律第五十九号", date(2022, 4, 1), "date", None),  # 「平成三十四年四月一日から施行する」
    ("令和三年法律第三十七号", date(2021, 9, 1), "date", None),
    ("昭和三十八年法律第百二十六号", date(1964, 4, 1), "date", None),  # 「…施行の日（昭和三十九年四月一日）から」
    ("平成二十八年法律第七十一号", date(2016, 6, 7), "promulgation", None),  # 「公布の日から施行する」
    ("平成二十八年法律第二十七号", date(2016, 10, 13), "counted", None),  # 「公布の日から起算して六月を経過した日」
    ("平成二十三年法律第七十四号", date(2011, 7, 14), "counted", None),  # 「…起算して二十日を経過した日」
    ("令和元年法律第二号", None, "unknown", date(2020, 5, 16)),  # 「…一年を超えない範囲内において政令で定める日」
    ("令和元年法律第七十一号", None, "unknown", None),  # 「会社法改正法の施行の日から施行する」
    ("昭和二十二年法律第六十一号", None, "unknown", None),  # 「日本国憲法施行の日から、これを施行する」
])
def test_enforcement_days_read_from_the_suppl_provisions(
    civil_2023_amendments: dict[str, KnownAmendment], law_num: str, enforced: date | None, basis: str,
    latest: date | None,
) -> None:
    amendment = civil_2023_amendments[law_num]
    assert (amendment.enforced_from, amendment.basis, amendment.latest) == (enforced, basis, latest)
    assert amendment.enforcement.startswith(("この法律は", "本法")) and amendment.enforcement.endswith("。")


@pytest.mark.parametrize(("law_id", "law_num"), [
    ("501AC0000000034", "令和元年法律第三十四号"),
    ("430AC0000000059", "平成三十年法律第五十九号"),
    ("410AC1000000007", "平成十年法律第七号"),  # a member's bill: the digit after AC is not part of the number
    ("129AC0000000089", "明治二十九年法律第八十九号"),
    ("503CO0000000001", None),  # a Cabinet Order is not an Act
])
def test_amending_act_ids_read_as_law_numbers(law_id: str, law_num: str | None) -> None:
    assert law_num_of_act_id(law_id) == law_num


def test_timeline_ends_changed_wording_where_an_unheld_amendment_may_begin() -> None:
    contents = []
    for path in _files():
        name = path.stem.split("_")
        revision = RevisionId(CIVIL, date(int(name[1][:4]), int(name[1][4:6]), int(name[1][6:])), name[2])
        contents.append(VersionContent(revision, str(path), "", parse_law_xml(path.read_bytes(), str(path)).provisions))
    timeline = build_timeline(CIVIL, contents)
    middle = timeline.versions[1]
    gap = {a.law_num: a for a in middle.gap}
    assert gap["平成三十年法律第五十九号"].enforced_from == date(2022, 4, 1)
    assert gap["令和三年法律第三十七号"].enforced_from == date(2021, 9, 1)
    assert "令和元年法律第二号" not in gap  # it starts the stored 2020-05-16 version
    assert middle.known_until is not None and middle.known_until <= date(2021, 9, 1)
    assert middle.in_gap(GAP_DAY) and not middle.in_gap(middle.enforced_from or date.min)
    runs = sorted((p.valid_from, p.valid_until) for p in timeline.provisions if p.path == "a4")
    assert runs == [(date(2020, 4, 1), middle.known_until), (date(2023, 6, 14), None)]
    same = [p for p in timeline.provisions if p.path == "a709"]
    assert len(same) == 1 and same[0].valid_until is None  # same wording on both sides: in force across the gap
    newest = timeline.versions[-1]
    assert newest.enforced_until is None and newest.known_up_to == date(2023, 6, 14) and newest.gap == ()


@pytest.fixture(params=BACKENDS)
def civil_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GraphStore]:
    """A migrated store per backend holding the three 民法 revisions (no cross-reference linking: not tested
    here). The Neo4j database is wiped afterwards too: 民法 thrice is more than the next test's wipe accepts."""
    from lexgraph.ingest.statutes import ingest_statutes

    files = _files()
    store = _open_embedded(tmp_path) if request.param == "embedded" else open_neo4j_wiped()
    try:
        store.migrate()
        summary = ingest_statutes(store, files, link=False)
        assert summary.failures == [] and summary.versions_added == 3
        yield store
    finally:
        try:
            if request.param == "neo4j":
                wipe_neo4j(store, limit=None)
        finally:
            store.close()


def test_store_reads_follow_the_gap_rule(civil_store: GraphStore) -> None:
    law = resolve_law(civil_store, "民法")
    with pytest.raises(WordingUnknown) as raised:
        provision_as_of(civil_store, law, "第四条", GAP_DAY)
    message = str(raised.value)
    for named in ("平成三十年法律第五十九号 (from 2022-04-01)", "令和三年法律第三十七号 (from 2021-09-01)",
                  "from a day fixed by 政令", f"{CIVIL}_20220401_<amending law id>.xml",
                  "lexgraph ingest statutes"):
        assert named in message
    assert not NOW.search(message)
    assert isinstance(raised.value, NotInForce)  # the CLI exits 1, as for "not in force then"
    across = provision_as_of(civil_store, law, "第七百九条", GAP_DAY)
    assert across.provision.valid_until is None and across.known_up_to == date(2023, 6, 14)
    assert across.to_json()["known_up_to"] == "2023-06-14"
    before = provision_as_of(civil_store, law, "第四条", date(2020, 5, 16))
    assert "二十歳" in before.provision.text
    after = provision_as_of(civil_store, law, "第四条", date(2023, 6, 14))
    assert "十八歳" in after.provision.text

    versions = law_versions(civil_store, law)
    assert [v.revision_id for v in versions] == list(REVISIONS)
    assert versions[1].known_until is not None and versions[1].in_gap(GAP_DAY)
    assert "平成三十年法律第五十九号" in {a.law_num for a in versions[1].gap}
    assert versions[2].known_up_to == date(2023, 6, 14)

    revisions = StoreRevisions(civil_store)  # what the citation resolver asks
    assert revisions.provision_exists(CIVIL, "a4", GAP_DAY) is None  # unknown, not "no such clause"
    assert revisions.provision_exists(CIVIL, "a709", GAP_DAY) is True
    assert revisions.provision_exists(CIVIL, "a213_2", date(2020, 5, 16)) is False
    assert civil_store.query("provision_as_of", law_id=CIVIL, path="a4", day=GAP_DAY) == []  # search's filter


def test_a_store_written_by_an_older_parser_is_read_again(civil_store: GraphStore) -> None:
    """A store written before the ruby fix holds 「（失踪⏎の宣告）」 and no parser version. Re-ingesting the same
    files reads them again (status "reread") instead of calling the clean text a conflicting rendering; a second
    re-ingest changes nothing."""
    from lexgraph.ingest.statutes import ingest_statutes

    uid = next(r["uid"] for r in civil_store.query("provision_periods", law_id=CIVIL, path="a30"))
    with civil_store.transaction() as tx:  # the state an older lexgraph left behind
        tx.upsert_nodes("Provision", [{"uid": uid, "caption": "（失踪\nの宣告）", "content_hash": "old"}])
        tx.upsert_nodes("LawVersion", [{"revision_id": r, "parser": None, "content_hash": "old"} for r in REVISIONS])
    found = next(f for f in examine(civil_store).findings if f.check == "statute text")
    assert not found.ok and "older parser" in found.detail and "ingest the same statute files again" in found.fix
    again = ingest_statutes(civil_store, _files(), link=False)
    assert [o.status for o in again.outcomes] == ["reread"] * 3 and again.versions_added == 0
    assert "older parser" in again.outcomes[0].message
    law = resolve_law(civil_store, "民法")
    assert provision_as_of(civil_store, law, "第三十条", date(2020, 4, 1)).provision.caption == "（失踪の宣告）"
    stored = civil_store.query("law_versions", law_id=CIVIL)
    assert {r["parser"] for r in stored} == {PARSER_VERSION}
    assert next(f for f in examine(civil_store).findings if f.check == "statute text").ok
    third = ingest_statutes(civil_store, _files(), link=False)
    assert [o.status for o in third.outcomes] == ["unchanged"] * 3 and third.provisions_written == 0


def test_cli_gap_exits_1_and_nothing_reads_now(tmp_path: Path) -> None:
    store = tmp_path / "store"
    assert lexgraph("ingest", "statutes", *_files(), "--no-link", store=store).code == 0
    gap = lexgraph("law", "show", "民法", "第四条", "--as-of", "2022-05-01", store=store)
    assert gap.code == 1 and gap.stdout == ""
    assert "平成三十年法律第五十九号 (from 2022-04-01)" in gap.stderr
    assert "does not know its wording on 2022-05-01" in gap.stderr
    across = lexgraph("law", "show", "民法", "第七百九条", "--as-of", "2022-05-01", store=store)
    assert across.code == 0 and "known up to 2023-06-14" in across.stdout and not NOW.search(across.stdout)
    for command in (("law", "versions", "民法"), ("law", "show", "民法")):
        run = lexgraph(*command, store=store, env={"COLUMNS": "200"})  # a table cell must not wrap the day (the
        shown = " ".join(run.stdout.split())  # versions table puts 'known up to' and the day on two lines)
        assert run.code == 0 and "known up to 2023-06-14" in shown and not NOW.search(run.stdout)
    versions = lexgraph("law", "versions", "民法", "--json", store=store).json()["versions"]
    assert versions[2]["known_up_to"] == "2023-06-14" and versions[2]["enforced_until"] is None
    assert versions[1]["known_until"] and any(a["law_num"] == "平成三十年法律第五十九号" for a in versions[1]["gap"])
    named = {a["law_num"]: a for a in versions[2]["amendments"]}  # what the store learnt from the 2023 附則
    assert named["平成三十年法律第五十九号"]["enforced_from"] == "2022-04-01"
    latest = named["令和五年法律第五十三号"]  # 「公布の日から起算して五年を超えない範囲内において政令で定める日」
    assert (latest["enforced_from"], latest["basis"], latest["latest"]) == (None, "unknown", "2028-06-13")
    diff = lexgraph("law", "diff", "民法", "--from", "2020-04-01", "--to", "2022-05-01", store=store)
    assert diff.code == 1 and "平成三十年法律第五十九号" in diff.stderr

    # a citation dated inside the gap: 第四条 has no known wording then, 第七百九条 reads the same on both sides
    text = tmp_path / "judgment.txt"
    text.write_text("成年については民法第四条が、損害賠償については民法第七百九条が定める。", encoding="utf-8")
    cited = lexgraph("cite", text, "--as-of", "2022-05-01", "--json", store=store)
    assert cited.code == 0, cited.stderr
    by_article = {c["article"]: c for c in cited.json()["citations"]}
    assert by_article["4"]["revision_id"] is None and "is not known" in by_article["4"]["reason"]
    assert by_article["709"]["revision_id"] == REVISIONS[1] and by_article["709"]["status"] == "resolved"


def test_a_store_from_before_the_migration_read_only_says_how_to_migrate(tmp_path: Path) -> None:
    """A store written before V007 and read by a read-only command (which cannot migrate) must say that it needs
    `lexgraph migrate`, exit 3, not show the engine's binder error about `known_until`; migrating mends it."""
    from lexgraph.store.embedded import EmbeddedStore

    store = tmp_path / "store"
    assert lexgraph("ingest", "statutes", *_files(), "--no-link", store=store).code == 0
    old = EmbeddedStore(store)  # turn it into what the lexgraph before V007 wrote: no columns, no history record
    for column in ("known_until", "gap", "amendments", "parser"):
        old._execute(f"ALTER TABLE LawVersion DROP {column}")
    old._execute("MATCH (m:_Migration {version: 7}) DELETE m")
    old.close()
    for command in (("law", "versions", "民法"), ("law", "show", "民法", "第七百九条", "--as-of", "2021-01-01")):
        done = lexgraph(*command, store=store)
        assert done.code == 3 and "Binder" not in done.stderr, done.stderr
        assert "V007__honest_periods" in done.stderr and f"lexgraph migrate --store {store}" in done.stderr
    assert lexgraph("migrate", store=store).code == 0
    assert lexgraph("law", "show", "民法", "第七百九条", "--as-of", "2021-01-01", store=store).code == 0


def test_linking_at_ingest_reads_gaps_as_the_store_does(tmp_path: Path) -> None:
    """The ingest links three versions with a gap from what it kept in memory (versions with their known_until,
    as the store gives them); linking again from the store (`lexgraph law link`) then changes nothing."""
    from lexgraph.ingest.crossrefs import link_laws
    from lexgraph.ingest.statutes import ingest_statutes

    store = _open_embedded(tmp_path)
    try:
        store.migrate()
        summary = ingest_statutes(store, _files(), workers=1)
        assert summary.links is not None and summary.links.edges_total > 1000
        again = link_laws(store, [CIVIL], follow_citing=False)
        assert (again.edges_added, again.edges_removed) == (0, 0)
        assert again.not_linked == summary.links.not_linked
    finally:
        store.close()
