"""One decision, one place: whether a citation links to a clause, and to which precedent, is decided once.

A statute's own cross-references and a judgment's citations are linked by one function (`ingest.linking.
statute_link`): the same citation read on one day links to the same clauses, or to none for the same cause under
the same key, whichever text cites it. A precedent citation and a stored precedent are matched by one rule
whichever of the two was ingested first. Real laws (the package's sample) and real judgments (tests/data).
"""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexgraph import LexGraph
from lexgraph.citations import Citation, CitationContext, extract
from lexgraph.ingest.linking import NOT_IN_FORCE, CitingClause, statute_link
from lexgraph.read.revisions import ProvisionSpan, StoreRevisions
from lexgraph.store.embedded import EmbeddedStore
from tests.helpers import SAMPLE, lexgraph

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
