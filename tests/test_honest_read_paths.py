"""Every read path honest about what the store cannot know, on the bundled sample through the real CLI.

The sample holds 民法 in its 2020-04-01 and 2023-06-14 revisions (a gap from 2020-04-02: the 2023 附則 name
amendments the store does not hold, 平成三十年法律第五十九号 from 2022-04-01 among them), 個人情報保護法 known only
up to 2020-01-26 (an open end), and 借地借家法 as a snapshot seen in force on 2020-11-18 (a late first version). Each
test here is one of the five commands that read a wording, and failed before the one in-force decision
(read/in_force.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lexgraph.store.base import GraphStore
from tests.conftest import BACKENDS, _open_embedded, open_neo4j_wiped, wipe_neo4j
from tests.helpers import SAMPLE, copy_store, lexgraph

BROWSER_PAGE = Path(__file__).parents[1] / "docs" / "browser.md"


def cite(store: Path, text: str, day: str) -> dict[str, dict[str, Any]]:
    """`lexgraph cite - --as-of DAY --json` with `text` on stdin: each citation by its surface."""
    done = subprocess.run([sys.executable, "-m", "lexgraph", "cite", "-", "--as-of", day, "--json", "--store",
                           str(store)], input=text, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8"}, cwd=Path(__file__).parents[1])
    assert done.returncode == 0, done.stderr
    return {c["surface"]: c for c in json.loads(done.stdout)["citations"]}


def test_cite_in_a_gap_does_not_pass_a_clause_in_neither_neighbouring_version(sample_store: Path) -> None:
    found = cite(sample_store, "民法第九千条、民法第九十六条第五項、民法第四条、民法第七百九条", "2022-01-01")
    for surface in ("民法第九千条", "民法第九十六条第五項"):
        assert found[surface]["status"] == "unresolved", found[surface]
        assert found[surface]["revision_id"] is None  # no version is known in force that day
        assert "neither stored version" in found[surface]["reason"]
    assert found["民法第四条"]["status"] == "unverified"  # reads differently on the two sides
    assert "平成三十年法律第五十九号" in found["民法第四条"]["reason"] and found["民法第四条"]["revision_id"] is None
    assert found["民法第七百九条"]["status"] == "resolved"  # the same on both sides: known across the gap
    before = cite(sample_store, "民法第九千条、民法第九十六条第五項", "2020-04-01")
    assert {c["status"] for c in before.values()} == {"unresolved"}


def test_cite_past_known_up_to_is_unverified_with_the_reason(sample_store: Path) -> None:
    found = cite(sample_store, "個人情報保護法第二十三条第一項", "2023-07-01")["個人情報保護法第二十三条第一項"]
    assert found["status"] == "unverified" and found["revision_id"] is None
    assert "only up to 2020-01-26" in found["reason"]
    known = cite(sample_store, "個人情報保護法第二十三条第一項", "2020-01-26")["個人情報保護法第二十三条第一項"]
    assert known["status"] == "resolved" and known["revision_id"] == "415AC0000000057_20200126_430AC0000000080"
    show = lexgraph("law", "show", "個人情報保護法", "第二十三条第一項", "--as-of", "2023-07-01", "--json",
                    store=sample_store)
    assert show.code == 0 and show.json()["status"] == "unknown"  # shown as the last known wording, labelled
    assert show.json()["reason"] == found["reason"]  # the same decision, the same words


@pytest.mark.parametrize(("law", "start", "end", "said"), [
    ("個人情報保護法", "2020-06-01", "2023-06-01", "only up to 2020-01-26"),
    ("借地借家法", "2020-01-01", "2024-01-01", "only from 2020-11-18"),
    ("民法", "2023-07-01", "2026-01-01", "only up to 2023-06-14"),
])
def test_law_diff_past_what_is_known_compares_nothing_and_exits_1(sample_store: Path, law: str, start: str,
                                                                  end: str, said: str) -> None:
    run = lexgraph("law", "diff", law, "--from", start, "--to", end, store=sample_store)
    assert run.code == 1, run.stdout
    assert "0 added" not in run.stdout and said in run.stderr


def test_law_diff_says_up_to_which_day_it_compared(sample_store: Path) -> None:
    run = lexgraph("law", "diff", "民法", "--from", "2020-04-01", "--to", "2023-07-01", "--json", store=sample_store)
    assert run.code == 0, run.stderr
    assert run.json()["compared_to"] == "2023-06-14" and run.json()["complete"] is False
    text = lexgraph("law", "diff", "民法", "--from", "2020-04-01", "--to", "2023-07-01", store=sample_store)
    assert "compared only up to 2023-06-14" in text.stdout
    full = lexgraph("law", "diff", "民法", "--from", "2020-04-01", "--to", "2023-06-14", "--json", store=sample_store)
    assert full.code == 0 and full.json()["complete"] is True


@pytest.fixture(scope="module")
def search_store(search_store_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_store(search_store_template, tmp_path_factory.mktemp("honest-search") / "store")


def test_search_and_ask_name_the_clause_left_out_as_unknown(search_store: Path) -> None:
    question = "成年年齢は何歳か"
    found = lexgraph("search", question, "--as-of", "2022-05-01", "--json", store=search_store)
    assert found.code == 0, found.stderr
    article_4 = [u for u in found.json()["unknown"] if u["law_id"] == "129AC0000000089"
                 and u["path"].split("/")[0] == "a4"]  # the index holds paragraphs: 第四条 is a4/p1
    assert article_4 and {u["why"] for u in article_4} == {"gap"}
    assert "平成三十年法律第五十九号" in article_4[0]["reason"]
    assert any("第四条" in note and "not known" in note for note in found.json()["dropped"])
    assert all(h["path"].split("/")[0] != "a4" for h in found.json()["clauses"])  # never shown in force that day
    text = lexgraph("search", question, "--as-of", "2022-05-01", store=search_store)
    assert "left out" in text.stderr and "第四条" in text.stderr
    later = lexgraph("search", question, "--as-of", "2023-07-01", "--json", store=search_store)
    assert later.json()["clauses"][0]["path"].split("/")[0] == "a4" and later.json()["unknown"] == []

    answer = lexgraph("ask", question, "--as-of", "2022-05-01", "--json", store=search_store)
    assert answer.code == 0, answer.stderr
    caveats = [c["text"] for c in answer.json()["caveats"]]
    assert any("第四条" in c and "文言が不明" in c for c in caveats), caveats


# -- Neo4j and the embedded store: the gap as ordinary properties a Cypher user reads -----------------------------
@pytest.fixture(params=BACKENDS, scope="module")
def sample_graph(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[GraphStore]:
    from lexgraph.client import LexGraph

    store = _open_embedded(tmp_path_factory.mktemp("gap-props")) if request.param == "embedded" \
        else open_neo4j_wiped()
    try:
        store.migrate()
        LexGraph(store).ingest_statutes([SAMPLE], link=False)
        yield store
    finally:
        if request.param == "neo4j":
            wipe_neo4j(store, limit=None)
        store.close()


def test_the_gap_is_ordinary_properties_and_the_guide_query_reads_them(sample_graph: GraphStore) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("guide", Path(__file__).parents[1] / "docker"
                                                  / "make_browser_guide.py")
    assert spec is not None and spec.loader is not None
    guide = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = guide  # its dataclass looks its module up while the class is made
    spec.loader.exec_module(guide)
    query = next(q for q in guide.ten_queries(BROWSER_PAGE.read_text(encoding="utf-8")) if q.number == 11)
    rows = sample_graph.run_read_only(query.cypher)
    assert [(r["wording"], r["answer"]) for r in rows] == [(None, "not known: in a gap")]
    row = rows[0]
    assert str(row["gap_start"]) == "2020-04-02" and str(row["gap_end"]) == "2023-06-14"
    assert dict(zip(row["amendments_in_gap"], row["their_days"], strict=True))["平成三十年法律第五十九号"] == \
        "2022-04-01"
    newest = sample_graph.run_read_only(
        "MATCH (v:LawVersion {law_id: $law_id}) WHERE v.enforced_until IS NULL RETURN v.known_up_to AS up_to",
        {"law_id": "415AC0000000057"})
    assert [str(r["up_to"]) for r in newest] == ["2020-01-26"]
