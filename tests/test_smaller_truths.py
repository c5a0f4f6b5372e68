"""Smaller truths (on both backends where a store is involved): `law diff` reports changes of wording, not of the
spaces and line breaks an XML generator left inside a sentence; a title matches with or without its 抄 mark; a
law with only a provisional id is not published under e-Gov's URL prefix; the experiments' `differs_from_paper`
records name the model and embedder each paper (../shared/seeds) says it used, and never call lawqa_jp not public;
one rule for 削除 articles.

行政手続法 in e-Gov's 2018-04-01 and 2024-04-01 files (tests/data/egov): 第二条第四号 reads 「…をいう。⏎ 　…ただし、…」
in the first and 「…をいう。ただし、…」 in the second; the law did not change there.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
import rdflib

from lexgraph.client import LexGraph
from lexgraph.errors import NotInForce
from lexgraph.graph.rdf import PREFIXES, law_iri, turtle, wording_triples
from lexgraph.statutes.catalog import PROVISIONAL_ID, Catalog
from lexgraph.store.base import GraphStore
from tests.capabilities import SHARED, require
from tests.helpers import EGOV_DATA, REACTOR, SAMPLE, reactor_revisions

LG = rdflib.Namespace(PREFIXES["lg"])
REACTOR_REVISIONS = (f"{REACTOR}_20150801_000000000000000", f"{REACTOR}_20200401_429AC0000000015",
                     f"{REACTOR}_20210701_503AC0000000053")
PROCEDURE = ("405AC0000000088_20180401_429AC0000000004.xml", "405AC0000000088_20240401_504AC0100000052.xml")


def test_law_diff_ignores_whitespace_only_changes(store: GraphStore) -> None:
    lg = LexGraph(store)
    lg.ingest_statutes([str(EGOV_DATA / name) for name in PROCEDURE], link=False)
    diff = lg.diff("行政手続法", date(2018, 4, 1), date(2024, 4, 1), level="all")
    changed = {c.path for c in diff.changes}
    assert not changed & {"a2", "a2/p1", "a2/p1/i4"}  # whitespace only
    assert "a3" in changed  # a real change in the same pair is still reported
    first = lg.show("行政手続法", "第二条第一項第四号", as_of=date(2018, 4, 1)).provision.text
    later = lg.show("行政手続法", "第二条第一項第四号", as_of=date(2024, 4, 1)).provision.text
    assert first != later and "".join(first.split()) == "".join(later.split())  # the texts do differ, in spaces


@pytest.mark.parametrize("written", ["民法施行法", "民法施行法抄", "民法施行法　抄", "民法施行法 抄",
                                     "民法施行法（抄）"])
def test_a_title_matches_with_or_without_its_sho_mark(written: str) -> None:
    assert [e.law_id for e in Catalog.bundled().lookup(written)] == ["131AC0000000011"]  # 民法施行法抄


def test_a_name_with_sho_run_together_is_not_a_marked_title() -> None:
    assert Catalog.bundled().lookup("刑法抄") == []  # 明治十三年太政官布告第三十六号（刑法抄）'s own words, not 刑法
    assert [e.law_id for e in Catalog.bundled().lookup("刑法　抄")] == ["140AC0000000045"]


def test_export_rdf_never_publishes_a_provisional_id_under_e_govs_prefix() -> None:
    provisional = [e for _, e in Catalog.bundled().names() if PROVISIONAL_ID.match(e.law_id)]
    assert provisional  # laws the bundled list knows without an e-Gov id
    law_id = provisional[0].law_id
    document = turtle(wording_triples("wording:x", law_id=law_id, clause_path="a1", label="第一条",
                                      valid_from=date(2020, 4, 1), valid_until=None))
    laws = set(rdflib.Graph().parse(data=document, format="turtle").objects(None, LG.law))
    assert laws == {rdflib.URIRef(PREFIXES["lglaw"] + law_id)}
    assert not any(str(iri).startswith(PREFIXES["law"]) for iri in laws)
    assert law_iri("129AC0000000089") == "law:129AC0000000089"  # an e-Gov id stays e-Gov's page


# What each paper (../shared/seeds, word for word) says it used, as the records must name it: (experiment, the
# paper's file, words that must appear both in the paper and in the record's model / embedder).
PAPERS = {
    "citation-graph": ("000_a866f989d01cf254.txt", {"model": "Claude3.5Sonnet", "embedder": "multilingual-e5-large"}),
    "citation-graph-answers": ("000_a866f989d01cf254.txt", {"model": "Claude3.5Sonnet"}),
    "cluster-tree": ("001_3e5d1780b5e2e7c5.txt", {"model": "GPT-4o-mini",
                                                  "embedder": "intfloat/multilingual-e5-large"}),
    "citalaw": ("002_8dd66e5ca57dbcd7.txt", {"model": "Qwen2", "embedder": "bge-base-zh-v1.5"}),
    "guardrails": ("003_fde43af783048c2d.txt", {"model": "gpt-4.1-mini"}),
    "multi-agent": ("004_525ae72b640621b8.txt", {"model": "Qwen3:8b"}),
}


@pytest.mark.parametrize("name", sorted(PAPERS))
def test_differs_from_paper_records_say_what_the_paper_says(name: str) -> None:
    require("shared")
    from lexgraph.eval.experiments import EXPERIMENTS, STANDING_REASONS

    experiment = next(e for e in EXPERIMENTS if e.name == name)
    file, words = PAPERS[name]
    paper = "".join((SHARED.parent / "seeds" / file).read_text(encoding="utf-8").split())
    for key, word in words.items():
        assert word in paper, (file, word)  # the paper does record it
        assert word in "".join(experiment.paper_setting[key].split()), (name, key)
    if "lawqa" in experiment.paper_setting["dataset"]:  # the paper's own data is lawqa_jp, which is public
        reason = {**STANDING_REASONS, **experiment.reasons}["dataset"]
        assert "not public" not in reason, reason


def test_one_rule_for_deleted_articles(store: GraphStore, tmp_path: Path) -> None:
    """民法 keeps 「第三十八条　削除」 for years; 原子炉等規制法 made 第四十三条の三の十二 削除 on 2020-04-01 and
    dropped it on 2021-07-01. Both are not in force while 削除, as an article a later text no longer has."""
    require("shared")
    reactor_revisions(tmp_path, REACTOR_REVISIONS)
    lg = LexGraph(store)
    lg.ingest_statutes([str(tmp_path / f"{r}.xml") for r in REACTOR_REVISIONS]
                       + [str(SAMPLE / "129AC0000000089_20230614_505AC0000000053.xml")], link=False)
    before = lg.show("原子炉等規制法", "第四十三条の三の十二", as_of=date(2015, 8, 1)).provision.text
    assert before.startswith("第四十三条の三の十二") and "削除" not in before
    for law, clause, day in (("原子炉等規制法", "第四十三条の三の十二", date(2020, 5, 1)),  # 削除
                             ("原子炉等規制法", "第四十三条の三の十二", date(2021, 8, 1)),  # gone
                             ("民法", "第三十八条", date(2023, 6, 14))):  # 削除 in every stored version
        with pytest.raises(NotInForce):
            lg.show(law, clause, as_of=day)
    changes = {c.path: c.status for c in lg.diff("原子炉等規制法", date(2020, 4, 1), date(2021, 7, 1)).changes}
    assert "a43_3_12" not in changes  # 削除 on both days: nothing to report
    cited = lg.cite("民法第三十八条による。", as_of=date(2023, 6, 14))
    assert [c.status for c in cited if c.kind == "statute"] == ["unresolved"]
