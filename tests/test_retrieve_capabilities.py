"""What a search index can do is declared on `SearchIndex` (`directory`, `lacks`, `columns`, `content`,
`units_by_uid`), never found by looking for an attribute; and a search mode that cannot run as itself on an index
says so: ``learned`` without an anchor field ranks as ``hybrid`` and its result names the mode that ranked and
why (``ranked_by``), ``anchor`` is refused naming the modes that can run there. On the real embedded index and, when
a server is named, Neo4j's own indexes; on the sample search store through the CLI."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from lexgraph.client import LexGraph
from lexgraph.errors import IndexUnavailable
from lexgraph.index.build import open_index
from lexgraph.index.query import SearchFilter
from lexgraph.index.units import article_path
from lexgraph.retrieve.modes import MODE_REGISTRY, SearchMode, mode_names, register, search_mode
from lexgraph.store.base import GraphStore
from tests.helpers import ROOT, build_search_store, copy_store, lexgraph
from tests.test_index_contract import SHAKUCHI, index_shakuchi

PACKAGE = Path(__file__).parents[1] / "lexgraph"
JUDGMENTS = ROOT / "tests" / "data" / "precedents"
QUESTION = "借地権の存続期間は何年か"
#: An expression naming an index: ``index``, ``self.index``, ``setup.index``, ``search_index``.
AN_INDEX = re.compile(r"(?:^|\.)\w*index$", re.IGNORECASE)


def sniffs(path: Path) -> list[str]:
    """Each ``getattr(<an index>, …)`` / ``hasattr(<an index>, …)`` of a module, and each ``isinstance`` against an
    index class: a capability found by looking rather than asked of the index."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args):
            continue
        if node.func.id in ("getattr", "hasattr") and AN_INDEX.search(ast.unparse(node.args[0])):
            found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {ast.unparse(node)}")
        if node.func.id == "isinstance" and len(node.args) == 2 and re.search(
                r"\b(?:LocalIndex|Neo4jIndex)\b", ast.unparse(node.args[1])):
            found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_index_capability_is_found_by_looking_for_an_attribute() -> None:
    modules = sorted((PACKAGE / "retrieve").rglob("*.py")) + sorted((PACKAGE / "index").rglob("*.py"))
    assert len(modules) > 20
    assert [line for path in modules for line in sniffs(path)] == []
    # and the check does see one: the sniffs this replaced
    probe = PACKAGE.parent / "tests" / "data" / "sniff_probe.py"
    probe.write_text("def f(self, index):\n    getattr(self.index, 'articles_of', None)\n"
                     "    hasattr(index, 'directory')\n    getattr(setup.search_index, 'x')\n"
                     "    getattr(self, 'k')\n", encoding="utf-8")
    try:
        assert [line.split(": ", 1)[1] for line in sniffs(probe)] == [
            "getattr(self.index, 'articles_of', None)", "hasattr(index, 'directory')",
            "getattr(setup.search_index, 'x')"]
    finally:
        probe.unlink()


@pytest.fixture
def indexed(store: GraphStore, tmp_path: Path) -> GraphStore:
    index_shakuchi(store, tmp_path)
    return store


def test_each_index_declares_what_it_can_do(indexed: GraphStore) -> None:
    index = open_index(indexed)
    hit = index.text_search(("借地", "権"), 1, SearchFilter(kind="provision"))[0]
    assert index.units_by_uid([hit.uid, "no-such-uid"]) == {hit.uid: hit.unit}
    for kind in ("bm25", "vectors", "law_terms"):
        assert index.lacks(kind) is None
    lack = index.lacks("anchors")
    columns = index.columns()
    if indexed.index_kind == "files":
        assert index.directory is not None and index.directory.is_dir()
        assert lack is not None and "`lexgraph index`" in lack and "`lexgraph index --anchors DIR`" in lack
        assert columns is not None and columns.unit_paths([hit.uid]) == {hit.uid: hit.unit.path}
        article = article_path(hit.unit.path)
        assert hit.uid in columns.uids_under(SHAKUCHI, article, SearchFilter())
        assert article in columns.articles_of(SHAKUCHI)
        content = index.content()
        assert content is not None and set(content) == {"embedder", "dim", "parts"}
        assert content["embedder"] == index.embedder_name and f"law:{SHAKUCHI}" in content["parts"]
    else:
        assert index.directory is None and index.content() is None and index.anchor_directory() is None
        assert lack is not None and "Neo4j store has no anchor field" in lack
        # the clause paths read from the database, as the embedded index's path column gives them
        assert columns is not None and hit.uid in columns.uids_under(SHAKUCHI, article_path(hit.unit.path),
                                                                     SearchFilter())
        assert columns.unit_paths([hit.uid]) == {hit.uid: hit.unit.path}
        assert article_path(hit.unit.path) in columns.articles_of(SHAKUCHI)


def test_learned_without_an_anchor_field_says_it_ranked_as_hybrid(indexed: GraphStore) -> None:
    lg = LexGraph(indexed)
    learned = lg.search(QUESTION, mode="learned", kind="provision")
    hybrid = lg.search(QUESTION, mode="hybrid", kind="provision")
    assert learned.mode == "learned" and learned.ranked_by is not None and hybrid.ranked_by is None
    assert learned.ranked_by.mode == "hybrid"
    assert learned.ranked_by.reason.startswith("the learned fusion reads the anchor field: ")
    assert learned.ranked_by.reason.endswith(open_index(indexed).lacks("anchors") or "")
    # the ranking is the hybrid's, unchanged: only the note is new
    assert [(c.uid, c.score) for c in learned.clauses] == [(c.uid, c.score) for c in hybrid.clauses]
    payload = learned.to_json()
    assert list(payload)[:3] == ["question", "mode", "ranked_by"]
    assert payload["ranked_by"] == {"mode": "hybrid", "reason": learned.ranked_by.reason}
    assert "ranked_by" not in hybrid.to_json()


def test_a_mode_the_index_cannot_serve_is_refused_naming_those_it_can(indexed: GraphStore) -> None:
    lg = LexGraph(indexed)
    with pytest.raises(IndexUnavailable) as refused:
        lg.retriever("anchor")
    can = [name for name in mode_names() if name != "anchor"]
    assert str(refused.value) == (f"--mode anchor cannot run on this index: {open_index(indexed).lacks('anchors')}; "
                                  f"the modes that can: {', '.join(can)}")
    assert search_mode("anchor").lacking(open_index(indexed)) and not search_mode("learned").lacking(
        open_index(indexed))


@pytest.fixture(scope="module")
def search_store(search_store_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_store(search_store_template, tmp_path_factory.mktemp("capabilities") / "store")


def test_search_json_says_who_ranked_only_where_another_mode_did(search_store: Path, tmp_path: Path) -> None:
    """Through the CLI: without anchors (indexed with ``--no-statute-anchors``) `--mode learned` has ``ranked_by``
    (and the text output a line on stderr) and the hybrid's clauses; with the judgments' anchors, or the statutes'
    that `lexgraph index` saves by default, the same command's output has no such key and no such line."""
    plain = tmp_path / "plain"
    build_search_store(plain, statute_anchors=False)
    without = lexgraph("search", QUESTION, "--json", store=plain)
    hybrid = lexgraph("search", QUESTION, "--mode", "hybrid", "--json", store=plain)
    assert without.code == 0 and hybrid.code == 0, without.stderr + hybrid.stderr
    assert without.json()["ranked_by"]["mode"] == "hybrid"
    assert {k: v for k, v in without.json().items() if k not in ("mode", "ranked_by")} == {
        k: v for k, v in hybrid.json().items() if k != "mode"}
    text = lexgraph("search", QUESTION, store=plain)
    assert text.code == 0 and "ranked as hybrid the learned fusion reads the anchor field" in " ".join(
        text.stderr.split())
    refused = lexgraph("search", QUESTION, "--mode", "anchor", store=plain)
    assert refused.code == 3 and "the modes that can: bm25, dense, hybrid" in " ".join(refused.stderr.split())

    with_judgments = copy_store(plain, tmp_path / "anchored")
    assert lexgraph("index", "--anchors", JUDGMENTS, "--no-statute-anchors", "--json", store=with_judgments).code == 0
    for with_anchors in (with_judgments, search_store):
        anchored = lexgraph("search", QUESTION, "--json", store=with_anchors)
        assert anchored.code == 0 and "ranked_by" not in anchored.json(), anchored.stdout
        assert list(anchored.json()) == list(hybrid.json())  # the keys every search had before
        text = lexgraph("search", QUESTION, store=with_anchors)
        assert text.code == 0 and "ranked as" not in text.stderr
        assert json.loads(anchored.stdout)["mode"] == "learned"


@pytest.fixture
def anchored_handle(search_store: Path, tmp_path: Path) -> Iterator[LexGraph]:
    store = copy_store(search_store, tmp_path / "store")
    with LexGraph.open(store, read_only=True) as handle:
        assert handle.build_anchors([JUDGMENTS]) > 0
        yield handle


def test_with_anchors_the_index_lacks_nothing_and_learned_ranks_as_itself(anchored_handle: LexGraph) -> None:
    index = open_index(anchored_handle.store)
    assert all(index.lacks(kind) is None for kind in ("bm25", "vectors", "law_terms", "anchors"))
    result = anchored_handle.search(QUESTION)
    assert result.mode == "learned" and result.ranked_by is None
    assert anchored_handle.retriever("anchor").name == "anchor"


def test_a_registered_mode_is_held_to_the_index_kinds_it_declares(indexed: GraphStore) -> None:
    """`SearchMode.index` is read: the same builder runs where the index has what the mode declares and is refused
    where it does not."""
    plain = register(SearchMode("bm25-plain", "tests.test_search_modes:bm25_twice", index=("bm25",)))
    anchored = register(SearchMode("bm25-anchored", "tests.test_search_modes:bm25_twice", index=("bm25", "anchors")))
    try:
        lg = LexGraph(indexed)
        assert lg.search(QUESTION, mode=plain.name, kind="provision").clauses
        with pytest.raises(IndexUnavailable, match=r"^--mode bm25-anchored cannot run on this index: .*anchor field"):
            lg.retriever(anchored.name)
    finally:
        MODE_REGISTRY.unregister(plain.name)
        MODE_REGISTRY.unregister(anchored.name)
