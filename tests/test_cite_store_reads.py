"""A store-backed cite reads the versions of every law its text names in one query, not one per law, and gives the
same revisions as the law-by-law reading did.

Rows are real sentences of the Supreme Court judgments in ../shared/data/precedents/supreme_court (file named with
each row), each naming three or four laws, 民法 among them (the sample store holds 民法; the others it lacks, and
their versions are asked all the same: an empty answer is what says "not stored")."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from lexgraph import LexGraph
from lexgraph.citations.document import document_date
from lexgraph.read.revisions import StoreRevisions
from tests.helpers import SHARED

MINPO = "129AC0000000089"
DAY = date(2021, 6, 1)

SENTENCES: list[tuple[str, str, set[str]]] = [
    ("87139", "２厚生年金保険法４７条に基づく障害年金の支分権（支払期月ごとに支払うものとされる保険給付の支給を受ける"
              "権利）は，５年間これを行わないときは時効により消滅し（厚生年金保険の保険給付及び国民年金の給付に係る時効の"
              "特例等に関する法律附則４条，会計法３０条），その時効は，権利を行使することができる時から進行する（会計法３１条"
              "２項，民法１６６条１項）ところ，上記支分権は，厚生年金保険法３６条所定の支払期の到来により発生するものの，"
              "受給権者は，当該障害年金に係る裁定を受ける前においてはその支給を受けることができない。",
     {"厚生年金保険法", "会計法", "民法", "厚生年金保険の保険給付及び国民年金の給付に係る時効の特例等に関する法律"}),
    ("91054", "私は，民法７５０条及び戸籍法７４条１号が憲法２４条に違反するという点において，渡惠理子裁判官に同調する"
              "ものであるが，その理由については，最高裁令和２年（ク）第１０２号同３年６月２３日大法廷決定・裁判集民事２６６号"
              "登載予定における宮崎裕子裁判官との共同反対意見で述べたとおりである。",
     {"民法", "戸籍法", "日本国憲法"}),
    ("86944", "認定司法書士が，報酬を得る目的で業として司法書士法３条１項７号に規定する額である１４０万円を超える"
              "過払金の返還請求権につき裁判外の和解をすることについての委任契約を締結することは，弁護士法７２条に違反するもので"
              "あって，その委任契約は，民法９０条に照らして無効となると解される。",
     {"司法書士法", "弁護士法", "民法"}),
]


@pytest.fixture(scope="module")
def graph(sample_store: Path) -> Iterator[LexGraph]:
    with LexGraph.open(sample_store, read_only=True) as lg:
        yield lg


def counted(graph: LexGraph) -> Counter[str]:
    """The named queries the store runs from now on (every named query goes through `query`)."""
    counts: Counter[str] = Counter()
    store: Any = graph.store
    real = type(store).query.__get__(store)

    def query(name: str, /, **params: Any) -> Any:
        counts[name] += 1
        return real(name, **params)

    store.query = query
    return counts


def check_one_read(graph: LexGraph, text: str, day: date) -> list[Any]:
    counts = counted(graph)
    try:
        citations = graph.cite(text, as_of=day, precedents=False)
    finally:
        del graph.store.query  # type: ignore[method-assign]
    laws = {c.law_id for c in citations if c.law_id and c.status != "not_in_catalogue"}
    assert len(laws) >= 3
    assert counts["law_versions"] == 0, counts
    assert counts["law_versions_for_laws"] == 1, counts
    alone = StoreRevisions(graph.store)  # each law's versions read alone, as before
    for citation in citations:
        if citation.law_id and citation.kind == "statute" and citation.status != "not_in_catalogue":
            assert citation.revision_id == alone.revision_in_force(citation.law_id, day), citation
    return citations


@pytest.mark.parametrize(("source", "text", "titles"), SENTENCES, ids=[row[0] for row in SENTENCES])
def test_a_sentence_naming_several_laws_reads_their_versions_once(graph: LexGraph, source: str, text: str,
                                                                  titles: set[str]) -> None:
    citations = check_one_read(graph, text, DAY)
    assert {c.law_title for c in citations if c.law_id} == titles
    minpo = [c for c in citations if c.law_id == MINPO]
    assert minpo and all(c.revision_id and c.status == "resolved" for c in minpo)  # 民法 is stored
    others = [c for c in citations if c.law_id not in (None, MINPO)]
    assert others and all(c.revision_id is None and c.status == "unverified" for c in others)


@pytest.mark.requires("shared")
def test_a_judgment_naming_nine_laws_reads_their_versions_once(graph: LexGraph) -> None:
    """91604.txt names nine laws (健康保険法 defined as 法, 民法, 行政事件訴訟法 …): nine reads before, one now."""
    text = (SHARED / "precedents" / "supreme_court" / "91604.txt").read_text(encoding="utf-8")
    day = document_date(text)
    assert day is not None
    citations = check_one_read(graph, text, day)
    assert len({c.law_id for c in citations if c.law_id}) == 9


def test_versions_read_ahead_are_those_read_alone(sample_store: Path) -> None:
    """What `read_versions` keeps is what a law's own read gives (an unstored law: no versions)."""
    with LexGraph.open(sample_store, read_only=True) as lg:
        ahead, alone = StoreRevisions(lg.store), StoreRevisions(lg.store)
        laws = [MINPO, "403AC0000000090", "322AC0000000224"]
        ahead.read_versions(laws)
        for law in laws:
            assert ahead.versions(law).versions == alone.versions(law).versions
        assert ahead.versions(MINPO).versions and not ahead.versions("322AC0000000224").versions
