"""One answer to "what did this clause say on D?": for random (law, clause, day), every read path agrees
with the in-force decision (lexgraph/read/in_force.py), and none shows a wording as in force when the answer is
unknown or not in force.

The store is the bundled sample, which has all three shapes that make a day hard: a gap (民法 between its 2020 and
2023 revisions), an open end known only up to a day (個人情報保護法 up to 2020-01-26, 民法 up to 2023-06-14), and a
late first version (借地借家法, a snapshot seen in force on 2020-11-18). It is built once per module and backend;
the examples are bounded so that the test takes seconds, not minutes.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexgraph import errors
from lexgraph.client import LexGraph
from lexgraph.graph.neighbourhood import neighbourhood
from lexgraph.numerals import clause_label
from lexgraph.read.in_force import InForce, OutOfForce, Unknown, version_known_on, wording_on
from lexgraph.read.revisions import PATHS_BEFORE_WHOLE, ClauseSpans, LawSpans, StoreRevisions, VersionSpan
from lexgraph.store.base import GraphStore
from tests.conftest import BACKENDS, _open_embedded, open_neo4j_wiped, wipe_neo4j
from tests.helpers import SAMPLE

LAWS = {"129AC0000000089": "民法", "403AC0000000090": "借地借家法", "415AC0000000057": "個人情報保護法"}
FIRST_DAY, LAST_DAY = date(2019, 6, 1), date(2027, 6, 1)
ABSENT_PATHS = ("a9000", "a96/p5", "a4/p3")


@pytest.fixture(params=BACKENDS, scope="module")
def graph(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LexGraph]:
    store: GraphStore = _open_embedded(tmp_path_factory.mktemp("in-force")) if request.param == "embedded" \
        else open_neo4j_wiped()
    try:
        store.migrate()
        lg = LexGraph(store)
        lg.ingest_statutes([SAMPLE])
        yield lg
    finally:
        if request.param == "neo4j":
            wipe_neo4j(store, limit=None)
        store.close()


@pytest.fixture(scope="module")
def oracle(graph: LexGraph) -> StoreRevisions:
    """The decision over whole laws read once (as the citation resolver reads them): the answer every path must
    give. The store does not change in this module, so one cache serves every example."""
    revisions = StoreRevisions(graph.store, max_laws=8)
    for law_id in LAWS:  # read whole now: without it the first clauses asked would be read one by one
        revisions.law(law_id)
    return revisions


@pytest.fixture(scope="module")
def clauses(oracle: StoreRevisions) -> list[tuple[str, str]]:
    """(law id, path) of every article and paragraph stored, and a few that no version has."""
    revisions = oracle
    found = [(law_id, path) for law_id in LAWS for path, spans in revisions.law(law_id).by_path.items()
             if spans[0].kind in ("article", "paragraph") and not path.startswith("suppl")]
    return sorted(found) + [(law_id, path) for law_id in LAWS for path in ABSENT_PATHS]


def _days() -> st.SearchStrategy[date]:
    """Any day, and the days where answers change (starts, ends, "known up to") with their neighbours."""
    edges = [date(2020, 4, 1), date(2020, 4, 2), date(2020, 1, 26), date(2020, 11, 18), date(2022, 4, 1),
             date(2023, 6, 14)]
    near = [d + timedelta(days=k) for d in edges for k in (-1, 0, 1)]
    return st.one_of(st.sampled_from(near), st.dates(FIRST_DAY, LAST_DAY))


@pytest.mark.parametrize("day", [date(2020, 4, 1), date(2020, 11, 18), date(2023, 6, 14), date(2027, 6, 1)])
def test_clauses_read_together_are_decided_as_each_read_alone(graph: LexGraph, clauses: list[tuple[str, str]],
                                                              day: date) -> None:
    """A search reads the decision's input for all its clauses in one query (`ClauseSpans.read`): every stored
    article and paragraph of the sample, clauses no version has, and a law the store does not hold are decided
    as they are when each is read alone."""
    asked = [*clauses, ("999AC0000000999", "a1"), ("999AC0000000999", "a1/p1")]
    together = ClauseSpans(graph.store)
    together.read(asked)
    alone = {clause: ClauseSpans(graph.store).wording_on(*clause, day) for clause in asked}
    assert {clause: together.wording_on(*clause, day) for clause in asked} == alone
    assert len({type(answer) for answer in alone.values()}) >= 2  # more than one kind of answer to agree on


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(data=st.data())
def test_every_read_path_agrees_with_the_one_answer(graph: LexGraph, oracle: StoreRevisions,
                                                    clauses: list[tuple[str, str]], data: st.DataObject) -> None:
    law_id, path = data.draw(st.sampled_from(clauses), label="clause")
    day = data.draw(_days(), label="day")
    title = LAWS[law_id]
    answer = oracle.wording_on(law_id, path, day)
    assert ClauseSpans(graph.store).wording_on(law_id, path, day) == answer  # one clause read: the same answer

    # law show (the client): the wording in force, the last known one labelled, or the error of its class
    shown = _outcome(lambda: graph.show(title, path, as_of=day))
    if isinstance(answer, InForce):
        assert not isinstance(shown, Exception), shown
        assert shown.provision.uid == answer.uid and shown.unknown is None and shown.status == "in_force"
    elif isinstance(answer, Unknown) and answer.last_known is not None:
        assert not isinstance(shown, Exception), shown
        assert shown.provision.uid == answer.last_known.uid and shown.status == "unknown"
        assert shown.to_json()["reason"] == answer.reason
    elif isinstance(answer, Unknown):
        assert isinstance(shown, errors.WordingUnknown), shown
    else:
        assert isinstance(shown, errors.NotInForce) and not isinstance(shown, errors.WordingUnknown), shown

    # law cites / cited-by: the same clause answer; every far end in force, or labelled as unknown
    for links in (_outcome(lambda: graph.cites(title, path, as_of=day)),
                  _outcome(lambda: graph.cited_by(title, path, as_of=day))):
        assert type(links) is type(shown) or (not isinstance(links, Exception) and not isinstance(shown, Exception))
        if isinstance(links, Exception):
            continue
        assert (links.unknown is None) == isinstance(answer, InForce)
        for link in links.links:
            far = oracle.wording_on(link.other_law_id, link.other.path, day)
            if isinstance(far, InForce):
                assert far.uid == link.other.uid and link.unverified is None
            else:
                assert isinstance(far, Unknown) and far.last_known is not None
                assert far.last_known.uid == link.other.uid and link.unverified == far.reason

    # cite: resolved only when in force; unknown is unverified (never resolved); not in force is unresolved
    citations = [c for c in graph.cite(f"{title}{clause_label(path)}", as_of=day) if c.kind == "statute"]
    assert citations and citations[0].path == path, citations
    expected = "resolved" if isinstance(answer, InForce) else "unverified" if isinstance(answer, Unknown) \
        else "unresolved"
    assert citations[0].status == expected, (answer, citations[0])
    if not isinstance(answer, InForce):
        assert citations[0].reason, citations[0]

    # graph neighbourhood: the article's node is in force only when the article is
    article = path.split("/")[0]
    article_answer = oracle.wording_on(law_id, article, day)
    if isinstance(article_answer, InForce | Unknown) and (isinstance(article_answer, InForce)
                                                         or article_answer.last_known is not None):
        uid = article_answer.uid if isinstance(article_answer, InForce) else article_answer.last_known.uid  # type: ignore[union-attr]
        hood = neighbourhood(graph.store, uid, 1, as_of=day, max_nodes=20)
        start = next(n for n in hood.nodes if n.uid == hood.start)
        assert start.properties["in_force"] is isinstance(article_answer, InForce)
        assert start.properties["status"] == ("in_force" if isinstance(article_answer, InForce) else "unknown")

    # law diff: a day compares only when the whole law is known then
    whole = version_known_on(oracle.law(law_id), law_id, day)
    diffed = _outcome(lambda: graph.diff(title, day, day))
    if isinstance(whole, VersionSpan):
        assert not isinstance(diffed, Exception) and diffed.changes == () and diffed.complete, diffed
    else:
        assert isinstance(diffed, errors.NotInForce), diffed
    # and the clause's answer never claims more than the law's
    if not isinstance(whole, VersionSpan) and isinstance(answer, InForce):
        assert isinstance(whole, Unknown) and whole.why == "gap"  # the same wording on both sides of a gap
    if isinstance(answer, OutOfForce | Unknown):
        assert answer.reason and answer.path == path


class _WholeReadsCounted(StoreRevisions):
    """The resolver's lookup, with the laws it read whole listed."""

    def __init__(self, store: GraphStore) -> None:
        super().__init__(store)
        self.read_whole: list[str] = []

    def _read(self, law_id: str) -> LawSpans:
        self.read_whole.append(law_id)
        return super()._read(law_id)


EDGE_DAYS = (date(2019, 6, 1), date(2020, 1, 26), date(2020, 1, 27), date(2020, 4, 1), date(2020, 11, 18),
             date(2022, 4, 1), date(2023, 6, 14), date(2023, 6, 15), date(2027, 6, 1))


@pytest.mark.parametrize("law_id", sorted(LAWS))
def test_a_resolver_asked_about_few_clauses_reads_them_alone_and_answers_as_the_whole_law(
        graph: LexGraph, oracle: StoreRevisions, clauses: list[tuple[str, str]], law_id: str) -> None:
    """A short text asks about a clause or two: `StoreRevisions` reads their spans alone (not the law's thousands of
    clauses) until `PATHS_BEFORE_WHOLE` clauses of the law were asked about, then the law whole. Before and after,
    every answer (the wording on the day, the revision in force, whether the clause existed) is the whole law's."""
    whole = oracle.law(law_id)
    paths = [path for law, path in clauses if law == law_id]
    asked = [*ABSENT_PATHS, *paths[:: max(1, len(paths) // PATHS_BEFORE_WHOLE)]][:PATHS_BEFORE_WHOLE + 4]
    assert len(asked) > PATHS_BEFORE_WHOLE
    revisions = _WholeReadsCounted(graph.store)
    for count, path in enumerate(asked, start=1):
        for day in EDGE_DAYS:
            assert revisions.wording_on(law_id, path, day) == wording_on(whole, law_id, path, day), (path, day)
            assert revisions.provision_exists(law_id, path, day) == oracle.provision_exists(law_id, path, day)
            assert revisions.gap_note(law_id, path, day) == oracle.gap_note(law_id, path, day)
            assert revisions.revision_in_force(law_id, day) == oracle.revision_in_force(law_id, day)
        assert revisions.read_whole == ([law_id] if count >= PATHS_BEFORE_WHOLE else []), (count, path)


def _outcome(call):  # type: ignore[no-untyped-def]
    """What a read path returns, or the lexgraph error it raises (anything else fails the test)."""
    try:
        return call()
    except errors.LexGraphError as error:
        return error
