"""A search mode registered at run time (`lexgraph.retrieve.modes.register`) is a mode like the built-in ones for
every face with nothing else changed: `lexgraph search --mode NEW`, `lexgraph eval retrieval --mode NEW`, and the
MCP server's search tool (its schema's enum and its check of the argument), each reading the registry when it is
asked rather than a list taken at import. On the bundled sample store (tests/data index vectors), the CLI run
in-process (tests/helpers.py) and the server driven by the MCP SDK's own client over its in-memory transport, in
this process, where the mode was registered."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lexgraph import LexGraph
from lexgraph.retrieve import modes
from lexgraph.retrieve.modes import RetrieverSetup, SearchMode, register
from lexgraph.retrieve.retrievers import Bm25Retriever, Retriever
from tests.helpers import copy_store, lexgraph

NEW = "bm25-at-run-time"
MINPO = "129AC0000000089"
QUESTION = "不法行為による損害賠償の請求"


def bm25_again(setup: RetrieverSetup) -> Retriever:
    """The new mode's builder: BM25 over the open index, so that its ranking is known (BM25's) and nothing else."""
    return Bm25Retriever(setup.index)


@pytest.fixture(scope="module")
def store(search_store_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_store(search_store_template, tmp_path_factory.mktemp("runtime-mode") / "store")


@pytest.fixture
def new_mode() -> Iterator[str]:
    """`NEW` registered for the test, and the registry as it was afterwards."""
    register(SearchMode(NEW, f"{__name__}:bm25_again", embeds_question=False, index=("bm25",)))  # BM25 again
    yield NEW
    modes.MODE_REGISTRY.unregister(NEW)


def test_the_cli_searches_with_a_mode_registered_at_run_time(store: Path, new_mode: str) -> None:
    ours = lexgraph("search", QUESTION, "--mode", new_mode, "--kind", "provision", "--json", store=store)
    assert ours.code == 0, ours.stderr
    theirs = lexgraph("search", QUESTION, "--mode", "bm25", "--kind", "provision", "--json", store=store)
    assert theirs.code == 0, theirs.stderr
    assert ours.json()["mode"] == new_mode and ours.json()["clauses"]
    assert [c["uid"] for c in ours.json()["clauses"]] == [c["uid"] for c in theirs.json()["clauses"]]


def test_the_cli_evaluates_a_mode_registered_at_run_time(store: Path, new_mode: str, tmp_path: Path) -> None:
    dataset = tmp_path / "benchmark.json"
    queries = [{"qid": f"q{i}", "split": "dev", "query": query, "articles": [{"law_id": MINPO, "path": path}],
                "paragraphs": []}
               for i, (query, path) in enumerate([(QUESTION, "a709"), ("債務の不履行による損害賠償", "a415"),
                                                  ("契約の解除の効果", "a545")])]
    dataset.write_text(json.dumps({"format": "lexgraph-retrieval-benchmark/1", "queries": queries}),
                       encoding="utf-8")
    ours = lexgraph("eval", "retrieval", "--dataset", dataset, "--mode", new_mode, "--reference", new_mode, "--json",
                    store=store)
    assert ours.code == 0, ours.stderr
    theirs = lexgraph("eval", "retrieval", "--dataset", dataset, "--mode", "bm25", "--reference", "bm25", "--json",
                      store=store)
    assert theirs.code == 0, theirs.stderr
    (run,) = ours.json()["runs"]
    (reference,) = theirs.json()["runs"]
    assert run["mode"] == new_mode and run["scored"] == len(queries)
    assert run["levels"] == reference["levels"]  # the same retriever: the same figures


def test_an_unregistered_mode_is_still_refused_by_the_cli(store: Path) -> None:
    search = lexgraph("search", QUESTION, "--mode", NEW, store=store)
    assert search.code == 2 and f"'{NEW}'" in search.stderr
    evaluation = lexgraph("eval", "retrieval", "--dataset", "unused.json", "--mode", NEW, store=store)
    assert evaluation.code == 2 and f"--mode '{NEW}': choose from" in evaluation.stderr


def test_the_mcp_server_offers_and_runs_a_mode_registered_at_run_time(store: Path, new_mode: str) -> None:
    from mcp.shared.memory import create_connected_server_and_client_session

    from lexgraph.cli.mcp_server import build_server

    async def main(lg: LexGraph) -> tuple[Any, dict[str, Any], dict[str, Any]]:
        server = build_server(lg)
        async with create_connected_server_and_client_session(server) as session:
            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
            ours = await session.call_tool("search", {"question": QUESTION, "mode": new_mode, "kind": "provision"})
            theirs = await session.call_tool("search", {"question": QUESTION, "mode": "bm25", "kind": "provision"})
        assert not ours.isError and not theirs.isError, (ours.content, theirs.content)
        assert ours.structuredContent is not None and theirs.structuredContent is not None
        return tools["search"].inputSchema, ours.structuredContent, theirs.structuredContent

    with LexGraph.open(store, read_only=True) as lg:
        schema, ours, theirs = asyncio.run(main(lg))
    assert new_mode in schema["properties"]["mode"]["enum"]
    assert ours["mode"] == new_mode and ours["clauses"]
    assert ours["clauses"] == theirs["clauses"]  # BM25 under another name: the same clauses
