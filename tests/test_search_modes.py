"""The registry of search modes (`lexgraph.retrieve.modes`): the options, the client, the CLI and the evaluation
read it, so a mode registered there is searchable and evaluable with nothing else changed. On the bundled sample
store (tests/data/index vectors, as tests/test_search.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lexgraph import LexGraph
from lexgraph.errors import ConfigurationError
from lexgraph.eval.experiments import CitationGraphParams, TreeParams
from lexgraph.retrieve import modes
from lexgraph.retrieve.modes import RetrieverSetup, SearchMode, compared_modes, register, search_mode
from lexgraph.retrieve.retrievers import Bm25Retriever, Retriever
from lexgraph.retrieve.search import SearchOptions
from tests.helpers import copy_store, lexgraph


@pytest.fixture(scope="module")
def lg(search_store_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LexGraph]:
    store = copy_store(search_store_template, tmp_path_factory.mktemp("modes") / "store")
    with LexGraph.open(store, read_only=True) as handle:
        yield handle


def bm25_twice(setup: RetrieverSetup) -> Retriever:
    """A mode of the test's own: BM25, its builder named by this module's path, as a new mode's would be."""
    return Bm25Retriever(setup.index)


@pytest.fixture
def new_mode() -> Iterator[str]:
    register(SearchMode("bm25-again", f"{__name__}:bm25_twice", embeds_question=False, index=("bm25",)))
    yield "bm25-again"
    modes.MODE_REGISTRY.unregister("bm25-again")


def test_every_built_in_mode_is_offered_and_declared() -> None:
    SEARCH_MODES = SearchOptions.modes()
    assert tuple(m.name for m in modes.BUILT_IN) == SEARCH_MODES
    assert compared_modes() == ("bm25", "dense", "hybrid") == CitationGraphParams().modes
    for name in SEARCH_MODES:
        assert SearchOptions(mode=name).mode == name
    assert [m for m in SEARCH_MODES if search_mode(m).whole] == ["tree"]
    assert [m for m in SEARCH_MODES if search_mode(m).needs_model()] == ["hyde", "hyde-bm25", "hyde-dense"]
    assert search_mode("tree").needs_model(query_extraction=True)
    assert not search_mode("bm25").embeds_question
    help_text = lexgraph("search", "--help").stdout
    assert all(name in help_text for name in SEARCH_MODES)


def test_an_unknown_mode_names_the_registered_ones() -> None:
    with pytest.raises(ConfigurationError, match=r"one of bm25, dense, hybrid.*'bm26'"):
        SearchOptions(mode="bm26")
    with pytest.raises(ConfigurationError, match="registered twice"):
        register(search_mode("bm25"))


def test_a_registered_mode_is_searchable_and_evaluable_with_nothing_else_changed(lg: LexGraph,
                                                                                   new_mode: str) -> None:
    question = "借地権の存続期間は何年か"
    ours = lg.search(question, mode=new_mode, kind="provision")
    theirs = lg.search(question, mode="bm25", kind="provision")
    assert ours.mode == new_mode and ours.clauses
    assert [c.uid for c in ours.clauses] == [c.uid for c in theirs.clauses]
    TreeParams(baseline=new_mode).check()
    CitationGraphParams(modes=(new_mode,)).check()
    assert not CitationGraphParams(modes=(new_mode,)).model_needed()
