"""One decision, one place: whether a citation links to a clause, and to which precedent, is decided once.

A statute's own cross-references and a judgment's citations are linked by one function (`ingest.linking.
statute_link`): the same citation read on one day links to the same clauses, or to none for the same cause under
the same key, whichever text cites it. A precedent citation and a stored precedent are matched by one rule
whichever of the two was ingested first. Real laws (the package's sample) and real judgments (tests/data).
"""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexgraph import LexGraph
from lexgraph.citations import Citation, CitationContext, extract
from lexgraph.ingest.linking import NOT_IN_FORCE, CitingClause, statute_link
from lexgraph.read.revisions import ProvisionSpan, StoreRevisions
from lexgraph.store.embedded import EmbeddedStore
from tests.helpers import SAMPLE, SHARED, lexgraph

CIVIL = "129AC0000000089"  # 民法, stored from 2020-04-01 in two versions
PRIVACY = "415AC0000000057"  # 個人情報の保護に関する法律: the citing law
# Read in 個人情報の保護に関する法律 第一条: a clause of 民法 (in force from 2020), one that no version has, a law the
# sample does not hold, a law as a whole, a division, a division number 民法 has in several 編, an unknown law.
TEXT = ("民法第七百九条、民法第九百九十九条の九、刑法第百九十九条、民法、この法律、民法第三編第五章、民法第九章、"
        "架空法第一条")


def _sample_store(tmp_path: Path) -> EmbeddedStore:
    store = EmbeddedStore(tmp_path / "store")
    store.migrate()
    LexGraph(store).ingest_statutes([SAMPLE], link=False)
    return store


def _one_day_clause(day: date) -> ProvisionSpan:
    """A citing clause of another law whose wording was in force on `day` only."""
    return ProvisionSpan(uid="citing", path="a1", kind="article", seq=1, valid_from=day,
                         valid_until=day + timedelta(days=1))


def test_a_citation_read_on_one_day_links_alike_from_a_statute_and_from_a_judgment(tmp_path: Path) -> None:
    store = _sample_store(tmp_path)
    try:
        revisions = StoreRevisions(store)
        citing = revisions.law(PRIVACY)
        citations: list[Citation] = extract(TEXT, CitationContext.in_law(PRIVACY, "第一条", revisions=revisions,
                                                                   as_of=date(2021, 1, 1)))
        assert len({c.surface for c in citations}) >= 6, [c.surface for c in citations]
        keys: set[str | None] = set()

        @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
        @given(day=st.dates(date(1990, 1, 1), date(2030, 12, 31)))
        def same_decision(day: date) -> None:
            for citation in citations:
                judged = statute_link(citation, revisions, day)
                stated = statute_link(citation, revisions, citing=CitingClause(PRIVACY, citing, _one_day_clause(day)))
                assert [t.uid for t in judged.targets] == [t.uid for t in stated.targets], citation.surface
                assert judged.key == stated.key, (citation.surface, day)
                keys.add(judged.key)

        same_decision()
        # the causes the text holds, each under its one key (linked: None)
        assert None in keys and NOT_IN_FORCE.format(what="clause") in keys, keys
        assert {"cited law not stored", "law reference (no clause)", "citation unresolved"} <= keys
    finally:
        store.close()


def test_a_judgment_counts_a_clause_not_in_force_under_the_statute_linkers_key(tmp_path: Path) -> None:
    """The 輸血 case (decided 2000-02-29) refers to 民法709条 and 710条; the store holds 民法 from 2020 on."""
    from tests.test_honest_answers import referenced_record

    store = tmp_path / "store"
    assert lexgraph("ingest", "statutes", SAMPLE, "--no-link", store=store).code == 0
    old = tmp_path / "old.jsonl"
    old.write_text(referenced_record() + "\n", encoding="utf-8")
    run = lexgraph("ingest", "precedents", old, "--json", store=store)
    assert run.code == 0, run.stderr
    reasons = {key: n for key, n in run.json()["not_linked"].items() if key.startswith("参照法条")}
    assert reasons == {f"参照法条: {NOT_IN_FORCE.format(what='clause')}": 2}


# Precedents -----------------------------------------------------------------------------------------------------

COURTS = st.sampled_from(["", "最高裁判所", "最高裁判所第二小法廷", "最高裁判所大法廷", "東京高等裁判所",
                          "東京高等裁判所金沢支部"])
NUMBERS = st.sampled_from(["", "昭和28年(あ)第1713号", "令和3年(医へ)第5号", "平成27年(し)第483号"])


@given(cited_court=COURTS, cited_type=st.sampled_from(["", "判決", "決定"]), cited_number=NUMBERS,
       court=COURTS, decision_type=st.sampled_from(["", "判決", "決定"]),
       numbers=st.lists(NUMBERS, max_size=3, unique=True))
def test_a_citation_names_a_precedent_alike_whichever_was_stored_first(
    cited_court: str, cited_type: str, cited_number: str, court: str, decision_type: str, numbers: list[str],
) -> None:
    """Stored first, the precedent is a row the citation `fits`; cited first, the citation is a stub the precedent
    fills (`stubs_filled_by`): the two answers are one."""
    from lexgraph.ingest.linking import fits, stub_uid, stubs_filled_by
    from lexgraph.store.rows import PrecedentsOnRow

    citation = Citation(surface="x", start=0, end=1, kind="precedent", court=cited_court or None,
                        date="2021-06-09", decision_type=cited_type or None, case_number=cited_number or None)
    stored = PrecedentsOnRow(uid="hanrei:1", court=court or None, decision_type=decision_type or None,
                             case_number="、".join(numbers) or None, stub=False)
    stub = PrecedentsOnRow(uid=stub_uid(citation), court=citation.court, decision_type=citation.decision_type,
                           case_number=citation.case_number, stub=True)
    filled = stubs_filled_by([stub], stored.court, stored.decision_type, (stored.case_number or "").split("、"))
    assert fits(stored, citation) == (filled == [stub.uid])


def _precedent_graph(store: Path) -> tuple[list[tuple[str, str]], list[tuple[str, bool]]]:
    """The precedent-to-precedent edges (citing judgment, cited precedent) and every Precedent node with its stub
    flag: what the order of ingest must not change."""
    edges = lexgraph("query", "MATCH (c:Chunk)-[:PART_OF]->(p:Precedent), (c)-[:CITES]->(q:Precedent) "
                     "RETURN DISTINCT p.uid AS citing, q.uid AS cited ORDER BY citing, cited", "--json",
                     store=store).json()
    nodes = lexgraph("query", "MATCH (p:Precedent) RETURN p.uid AS uid, p.stub AS stub ORDER BY uid", "--json",
                     store=store).json()
    return [(e["citing"], e["cited"]) for e in edges], [(n["uid"], bool(n["stub"])) for n in nodes]


def _ingested_in_order(tmp_path: Path, files: tuple[Path, ...]) -> tuple[list[tuple[str, str]],
                                                                         list[tuple[str, bool]]]:
    store = tmp_path / "-".join(f.stem for f in files) / "store"
    for file in files:
        run = lexgraph("ingest", "precedents", file, "--json", store=store)
        assert run.code == 0, run.stderr
    return _precedent_graph(store)


JUDGMENTS = Path(__file__).parent / "data" / "precedents"
SUPREME = SHARED / "precedents" / "supreme_court"


def test_a_cited_judgment_with_a_bench_is_linked_in_either_order(tmp_path: Path) -> None:
    """91120 (令和４年２月８日) cites 最高裁令和３年（医へ）第５号同年６月９日第三小法廷決定, which is 90381."""
    citing, cited = JUDGMENTS / "91120.txt", JUDGMENTS / "90381.txt"
    first = _ingested_in_order(tmp_path, (citing, cited))
    assert first == _ingested_in_order(tmp_path, (cited, citing))
    assert ("hanrei:91120", "hanrei:90381") in first[0]


@pytest.mark.requires("shared")
@pytest.mark.parametrize("citing, cited", [("92389", "51271"), ("92446", "51765")])
def test_a_cited_judgment_without_a_case_number_is_linked_in_either_order(tmp_path: Path, citing: str,
                                                                          cited: str) -> None:
    """92389 cites 最高裁昭和２８年（あ）第１７１３号同３２年３月１３日大法廷判決, and 92446
    最高裁昭和４０年（あ）第１１８７号同４４年１２月２４日大法廷判決: 51271 and 51765, whose texts have no header and so
    no case number. Stored first, each was linked; cited first, the stub keeping the case number was never filled,
    and the graph differed."""
    files = (SUPREME / f"{citing}.txt", SUPREME / f"{cited}.txt")
    forward = _ingested_in_order(tmp_path, files)
    assert forward == _ingested_in_order(tmp_path, files[::-1])
    assert (f"hanrei:{citing}", f"hanrei:{cited}") in forward[0]
