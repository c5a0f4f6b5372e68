"""`lexgraph mcp` driven by the MCP SDK's own client (`ClientSession`) over both transports, as an assistant would:
standard input/output (the server spawned as ``python -m lexgraph mcp --store …``) and streamable HTTP (the server
in a subprocess on a free loopback port). The store is the real sample corpus with its judgments and index
(tests.helpers.build_search_store), and every answer is checked against what the CLI prints for the same store.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import McpError
from mcp.types import CallToolResult

from tests.capabilities import NEO4J_URI_ENV as NEO4J_URI
from tests.helpers import ROOT, SAMPLE, SHARED, copy_store, lexgraph
from tests.openai_server import Reply, ScriptedOpenAI

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
TOOLS = {"clause_as_of", "law_versions", "law_diff", "cite", "cites", "cited_by", "precedent", "search", "ask",
         "laws", "cypher", "stats"}
JUDGMENT = SAMPLE / "precedents" / "91244.txt"
#: Settings that would change an answer (a model for `ask`, another store, a turn log): the server runs without.
UNSET = ("LEXGRAPH_STORE", "LEXGRAPH_LLM_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY", "LEXGRAPH_TURN_LOG")

Body = Callable[[ClientSession], Awaitable[Any]]


def server_env() -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in UNSET}
    env["PYTHONIOENCODING"] = "utf-8"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))
    return env


def clean_env() -> dict[str, str]:
    """For the CLI runs the answers are compared with: the same settings blanked."""
    return {key: "" for key in UNSET if key != "LEXGRAPH_STORE"}


@pytest.fixture(scope="module")
def mcp_store(search_store_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_store(search_store_template, tmp_path_factory.mktemp("mcp") / "store")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def http_url(mcp_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`lexgraph mcp --http 127.0.0.1:PORT` in a subprocess for the module; its URL once it accepts connections."""
    port = free_port()
    log = tmp_path_factory.mktemp("mcp-http") / "stderr.txt"
    with log.open("w") as stderr:
        server = subprocess.Popen([sys.executable, "-m", "lexgraph", "mcp", "--store", str(mcp_store), "--http",
                                   f"127.0.0.1:{port}"], env=server_env(), cwd=ROOT, stdout=subprocess.DEVNULL,
                                  stderr=stderr)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, f"the server ended: {log.read_text()}"
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, f"no server on port {port}: {log.read_text()}"
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        server.terminate()
        server.wait(timeout=30)


@asynccontextmanager
async def opened_session(transport: str, store: Path, url: str | None,
                         env: dict[str, str] | None = None) -> AsyncIterator[ClientSession]:
    if transport == "stdio":
        params = StdioServerParameters(command=sys.executable, args=["-m", "lexgraph", "mcp", "--store", str(store)],
                                       env={**server_env(), **(env or {})}, cwd=ROOT)
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            session.started = await session.initialize()  # type: ignore[attr-defined]
            yield session
    else:
        assert url is not None
        async with streamable_http_client(url) as (read, write, _), ClientSession(read, write) as session:
            session.started = await session.initialize()  # type: ignore[attr-defined]
            yield session


@pytest.fixture(params=["stdio", "http"])
def mcp(request: pytest.FixtureRequest, mcp_store: Path) -> Callable[[Body], Any]:
    """Runs a body in one real client session over the transport of the test's parameter."""
    url = request.getfixturevalue("http_url") if request.param == "http" else None

    def run(body: Body) -> Any:
        async def main() -> Any:
            async with opened_session(request.param, mcp_store, url) as session:
                return await body(session)

        return asyncio.run(main())

    return run


def structured(result: CallToolResult) -> dict[str, Any]:
    assert not result.isError, result.content
    assert result.structuredContent is not None
    return result.structuredContent


def error_text(result: CallToolResult) -> str:
    assert result.isError
    return result.content[0].text  # type: ignore[union-attr]


#: The lists each tool pages (the rest of a result is the same on every page).
PAGED = {"law_versions": ("versions",), "law_diff": ("changes",), "cite": ("citations",), "cites": ("links",),
         "cited_by": ("clauses", "documents"), "precedent": ("cites_clauses", "cites_precedents", "cited_by"),
         "search": ("clauses", "chunks", "evidence", "unverified", "dropped"),
         "ask": ("sentences", "caveats", "references"), "laws": ("laws",),
         "cypher": ("rows", "labels", "properties")}


async def whole(session: ClientSession, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """A tool's full answer (``detail: "full"``), every page of it joined: what the CLI's --json prints."""
    arguments = {**arguments, "detail": "full"} if tool not in ("laws", "cypher", "stats") else arguments
    first = structured(await session.call_tool(tool, arguments))
    joined = dict(first)
    cursor = first.get("next_cursor")
    while cursor:
        page = structured(await session.call_tool(tool, {**arguments, "cursor": cursor}))
        for name in first["total"]:
            joined[name] = [*joined.get(name, []), *page.get(name, [])]
        cursor = page.get("next_cursor")
    assert set(first.get("total", {})) <= set(PAGED.get(tool, ()))
    for name, total in first.get("total", {}).items():
        assert len(joined.get(name, [])) == total, name
    joined.pop("next_cursor", None)
    joined.pop("total", None)
    return joined


def without_nulls(value: Any) -> Any:
    """The CLI's JSON as a tool result carries it: fields with no value left out."""
    if isinstance(value, dict):
        return {k: without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [without_nulls(v) for v in value]
    return value


def cli_error(*args: str | Path, store: Path) -> str:
    """The one-line message the CLI prints for a refused command (exit 1), without its ``error:`` mark."""
    run = lexgraph(*args, store=store, env=clean_env())
    assert run.code == 1, run.stdout
    assert run.stderr.startswith("error: ") and run.stderr.count("\n") == 1, run.stderr
    return run.stderr.removeprefix("error: ").rstrip("\n")


def test_the_tools_are_listed_with_their_schemas_and_japanese_descriptions(mcp: Callable[[Body], Any]) -> None:
    listed = mcp(lambda session: session.list_tools()).tools
    assert {tool.name for tool in listed} == TOOLS
    for tool in listed:
        assert JAPANESE.search(tool.description or ""), tool.name
        assert tool.inputSchema["type"] == "object"
        assert tool.outputSchema is not None and tool.outputSchema["type"] == "object", tool.name
        assert tool.annotations is not None and tool.annotations.readOnlyHint is True
    show = next(tool for tool in listed if tool.name == "clause_as_of")
    assert show.inputSchema["required"] == ["law", "clause"]
    assert JAPANESE.search(show.inputSchema["properties"]["as_of"]["description"])
    assert set(show.outputSchema["properties"]["status"]["enum"]) == {"in_force", "last_known", "unknown",
                                                                       "not_in_force"}


def test_article_4_of_the_civil_code_on_two_days_is_what_law_show_says(mcp: Callable[[Body], Any],
                                                                         mcp_store: Path) -> None:
    async def body(session: ClientSession) -> list[dict[str, Any]]:
        return [await whole(session, "clause_as_of", {"law": "民法", "clause": "第四条", "as_of": day})
                for day in ("2021-01-01", "2023-07-01")]

    before, after = mcp(body)
    # 2021-01-01 falls between the two stored revisions, after amendments the store does not hold: unknown, said
    # in the CLI's words and with no wording given.
    assert before["status"] == "unknown"
    assert before["message"] == cli_error("law", "show", "民法", "第四条", "--as-of", "2021-01-01", store=mcp_store)
    assert "text" not in before and "revision_id" not in before
    # 2023-07-01: the 2023 wording, from the revision the CLI names, with its period and caveat.
    shown = lexgraph("law", "show", "民法", "第四条", "--as-of", "2023-07-01", "--json", store=mcp_store,
                     env=clean_env())
    assert shown.code == 0, shown.stderr
    expected = shown.json()
    for key in ("law_id", "law_title", "revision_id", "path", "text", "valid_from", "valid_until", "known_up_to"):
        assert after.get(key) == expected[key], key
    assert "十八歳" in after["text"]
    text = lexgraph("law", "show", "民法", "第四条", "--as-of", "2023-07-01", store=mcp_store, env=clean_env())
    assert f"in force {after['period']}" in text.stdout
    if expected["known_up_to"] and expected["known_up_to"] < "2023-07-01":
        assert after["status"] == "last_known"
        assert after["message"] in text.stdout  # the CLI's caveat, word for word
    else:
        assert after["status"] == "in_force" and "message" not in after
    assert after["uri"] == f"lexgraph://law/{expected['law_id']}/a4@{expected['revision_id']}"


def test_a_judgment_s_citations_are_those_lexgraph_cite_finds(mcp: Callable[[Body], Any], mcp_store: Path) -> None:
    text = JUDGMENT.read_text(encoding="utf-8")

    async def body(session: ClientSession) -> tuple[dict[str, Any], list[str]]:
        cited = await whole(session, "cite", {"text": text})
        wordings = []
        for citation in cited["citations"]:
            if citation.get("uri"):
                contents = (await session.read_resource(citation["uri"])).contents
                wordings.append(json.loads(contents[0].text)["text"])  # type: ignore[union-attr]
        return cited, wordings

    cited, wordings = mcp(body)
    run = lexgraph("cite", JUDGMENT, "--json", store=mcp_store, env=clean_env())
    assert run.code == 0, run.stderr
    assert [{k: v for k, v in c.items() if k != "uri"} for c in cited["citations"]] == without_nulls(
        run.json()["citations"])
    assert f"as of {cited['as_of']} (the date in the text)" in run.stderr
    assert cited["as_of_source"] == "the date in the text"
    resolved = [c for c in cited["citations"] if c.get("uri")]
    assert resolved and all(c["kind"] == "statute" and c["revision_id"] for c in resolved)
    assert len(wordings) == len(resolved) and all(wordings)


def test_what_cites_article_709_is_what_law_cited_by_says(mcp: Callable[[Body], Any], mcp_store: Path) -> None:
    async def body(session: ClientSession) -> dict[str, Any]:
        return await whole(session, "cited_by", {"law": "民法", "clause": "第七百九条", "as_of": "2023-06-14"})

    found = mcp(body)
    clauses = lexgraph("law", "cited-by", "民法", "第七百九条", "--as-of", "2023-06-14", "--json", store=mcp_store,
                       env=clean_env())
    documents = lexgraph("law", "cited-by", "民法", "第七百九条", "--kind", "document", "--as-of", "2023-06-14",
                         "--json", store=mcp_store, env=clean_env())
    assert clauses.code == 0 and documents.code == 0, clauses.stderr + documents.stderr
    assert [{k: v for k, v in link.items() if k not in ("uri", "clause", "near_clause")}
            for link in found["clauses"]] == without_nulls(clauses.json()["links"])
    # each judgment once, with every citation of it the CLI lists
    cited = without_nulls(documents.json()["cited_by"])
    assert [c for judgment in found["documents"] for c in judgment["each"]] == sorted(
        cited, key=lambda c: [j["uid"] for j in found["documents"]].index(c["uid"]))
    assert len({j["uid"] for j in found["documents"]}) == len(found["documents"]) == len({c["uid"] for c in cited})
    assert all(j["citations"] == len(j["each"]) for j in found["documents"])
    assert "a710/p1" in {link["path"] for link in found["clauses"]}  # 第七百十条第一項 「前条」
    assert found["clause"] == "第七百九条" and found["documents"]


#: 民事訴訟法 as e-Gov served it on 2020-10-03 (../shared): 第二十八条 cites 「民法（明治二十九年法律第八十九号）」 as a
#: whole, with no clause after it.
CIVIL_PROCEDURE = SHARED / "egov" / "snapshots" / "408AC0000000109_lawhub20201003_revision-unknown.xml"


@pytest.mark.requires("shared")
def test_what_cites_a_law_as_a_whole_is_what_law_cited_by_without_a_clause_says(
        search_store_template: Path, tmp_path: Path) -> None:
    """No clause: the clauses and documents citing 民法 as a whole, as `law cited-by 民法` (and `--kind document`)
    lists them, over the SDK's own client."""
    store = copy_store(search_store_template, tmp_path / "store")
    run = lexgraph("ingest", "statutes", CIVIL_PROCEDURE, "--in-force-on", "2020-10-03", store=store,
                   env=clean_env())
    assert run.code == 0, run.stderr

    async def main() -> tuple[dict[str, Any], dict[str, Any]]:
        async with opened_session("stdio", store, None) as session:
            return (await whole(session, "cited_by", {"law": "民法", "as_of": "2020-10-03"}),
                    structured(await session.call_tool("cited_by", {"law": "民法", "as_of": "2020-10-03"})))

    found, brief = asyncio.run(main())
    clauses = lexgraph("law", "cited-by", "民法", "--as-of", "2020-10-03", "--json", store=store, env=clean_env())
    documents = lexgraph("law", "cited-by", "民法", "--kind", "document", "--json", store=store, env=clean_env())
    assert clauses.code == 0 and documents.code == 0, clauses.stderr + documents.stderr
    assert [{k: v for k, v in link.items() if k not in ("uri", "clause", "near_clause")}
            for link in found["clauses"]] == without_nulls(clauses.json()["links"])
    assert [(link["law_title"], link["path"], link["surface"]) for link in found["clauses"]] == [
        ("民事訴訟法", "a28/p1", "民法（明治二十九年法律第八十九号）")]
    assert [c for judgment in found["documents"] for c in judgment["each"]] == without_nulls(
        documents.json()["cited_by"])
    assert (found["law_id"], found["path"], found["clause"]) == ("129AC0000000089", "", "法令全体")
    assert brief["clauses"][0]["surface"] == "民法（明治二十九年法律第八十九号）" and brief["clause"] == "法令全体"


def test_a_precedent_by_lawsuit_id_case_number_and_case_name_is_what_precedent_show_says(
        mcp: Callable[[Body], Any], mcp_store: Path) -> None:
    run = lexgraph("precedent", "show", "91244", "--json", store=mcp_store, env=clean_env())
    assert run.code == 0, run.stderr
    shown = run.json()
    assert shown["case_number"] and shown["case_name"] == "原状回復等請求事件"

    async def body(session: ClientSession) -> list[dict[str, Any]]:
        return [await whole(session, "precedent", {"case": case})
                for case in ("91244", shown["case_number"], shown["case_name"])]

    assert mcp(body) == [without_nulls(shown)] * 3


def test_a_law_s_versions_and_diff_are_what_law_versions_and_law_diff_say(mcp: Callable[[Body], Any],
                                                                            mcp_store: Path) -> None:
    async def body(session: ClientSession) -> list[dict[str, Any]]:
        brief = structured(await session.call_tool("law_versions", {"law": "民法"}))
        whole_law = json.loads((await session.read_resource(brief["uri"])).contents[0].text)  # type: ignore[union-attr]
        return [brief, whole_law,
                await whole(session, "law_diff", {"law": "民法", "from_day": "2020-04-01", "to_day": "2023-06-14",
                                                  "level": "all"})]

    brief, versions, diff = mcp(body)
    cli_versions = lexgraph("law", "versions", "民法", "--json", store=mcp_store, env=clean_env())
    cli_diff = lexgraph("law", "diff", "民法", "--from", "2020-04-01", "--to", "2023-06-14", "--level", "all",
                        "--json", store=mcp_store, env=clean_env())
    assert cli_versions.code == cli_diff.code == 0, cli_versions.stderr + cli_diff.stderr
    # a version with its gap's amendments is longer than a result holds: the law's resource gives it whole
    assert versions["versions"] == cli_versions.json()["versions"] and len(versions["versions"]) == 2
    assert [v["revision_id"] for v in brief["versions"]] == [v["revision_id"] for v in versions["versions"]]
    assert [v["period"] for v in brief["versions"]] == [v["period"] for v in versions["versions"]]
    assert brief["uri"] == f"lexgraph://law/{brief['law_id']}"
    expected = without_nulls(cli_diff.json()["changes"])
    assert len(diff["changes"]) == len(expected)
    for given, wanted in zip(diff["changes"], expected, strict=True):  # a wording longer than a result holds is cut
        cut = given.pop("truncated", [])
        for key in cut:
            assert given[key].endswith("…") and wanted[key].startswith(given[key][:-1]) and given.pop("whole")
        assert {k: v for k, v in given.items() if k != "clause" and k not in cut} == {
            k: v for k, v in wanted.items() if k not in cut}
    assert any(c["path"].startswith("suppl") for c in diff["changes"])
    assert {k: v for k, v in diff.items() if k != "changes"} == without_nulls(
        {k: v for k, v in cli_diff.json().items() if k != "changes"})
    assert diff["changed"] > 0 and "a4" in {c["path"] for c in diff["changes"] if c["status"] == "changed"}


def test_a_write_is_refused_with_the_cli_s_message_and_no_tool_changes_the_store(
        mcp: Callable[[Body], Any], mcp_store: Path) -> None:
    writes = ["CREATE (n:Law {law_id: 'x'}) RETURN n", "MATCH (l:Law) SET l.title = 'x' RETURN l",
              "MATCH (n) DETACH DELETE n", "MERGE (n:Law {law_id: 'y'})"]
    stats = lexgraph("stats", "--json", store=mcp_store, env=clean_env())
    files = snapshot(mcp_store)

    async def body(session: ClientSession) -> tuple[list[str], dict[str, bool]]:
        refusals = [error_text(await session.call_tool("cypher", {"query": q})) for q in writes]
        calls = {  # every tool once, with arguments that succeed
            "clause_as_of": {"law": "民法", "clause": "第七百九条", "as_of": "2023-06-14"},
            "law_versions": {"law": "民法"},
            "law_diff": {"law": "民法", "from_day": "2020-04-01", "to_day": "2023-06-14"},
            "cite": {"text": "民法第七百九条の規定により"},
            "cites": {"law": "民法", "clause": "第七百十条", "as_of": "2023-06-14"},
            "cited_by": {"law": "民法", "clause": "第七百九条", "as_of": "2023-06-14"},
            "precedent": {"case": "91244"},
            "search": {"question": "不法行為による損害賠償", "mode": "bm25", "k": 3},
            "ask": {"question": "不法行為による損害賠償の要件は？", "as_of": "2023-06-14"},
            "laws": {}, "cypher": {"query": "MATCH (l:Law) RETURN l.law_id AS id ORDER BY id"}, "stats": {},
        }
        assert set(calls) == TOOLS
        ok = {name: not (await session.call_tool(name, arguments)).isError for name, arguments in calls.items()}
        return refusals, ok

    refusals, ok = mcp(body)
    assert ok == dict.fromkeys(TOOLS, True)
    assert refusals == [cli_error("query", q, store=mcp_store) for q in writes]
    after = lexgraph("stats", "--json", store=mcp_store, env=clean_env())
    assert stats.code == after.code == 0 and after.json() == stats.json()
    assert snapshot(mcp_store) == files  # no file of the store written, no turn log beside it


def snapshot(store: Path) -> dict[str, tuple[int, int]]:
    """Every file under the store with its size and modification time."""
    return {str(p.relative_to(store)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in sorted(store.rglob("*")) if p.is_file()}


def test_errors_are_error_results_with_the_cli_s_message(mcp: Callable[[Body], Any], mcp_store: Path) -> None:
    async def body(session: ClientSession) -> list[Any]:
        return [await session.call_tool("clause_as_of", {"law": "刑法", "clause": "第四条"}),
                await session.call_tool("clause_as_of", {"law": "民法", "clause": "第四百条の百"}),
                await session.call_tool("precedent", {"case": "99999"}),
                await session.call_tool("search", {"question": "損" * 10_001}),
                (await session.list_tools()).tools]

    unknown_law, unknown_clause, unknown_case, too_long, tools = mcp(body)
    assert error_text(too_long).startswith("the question has 10,001 characters, more than the 10,000")
    assert too_long.structuredContent is not None and too_long.structuredContent["kind"] == "InputError"
    # the bound is in the tools' own description of the argument, for the assistant to see before it asks
    described = {t.name: t.inputSchema["properties"]["question"]["description"] for t in tools
                 if t.name in ("search", "ask")}
    assert described == {"search": "質問（日本語、10,000字まで）。", "ask": "法律の質問（日本語、10,000字まで）。"}
    assert error_text(unknown_law) == cli_error("law", "show", "刑法", "第四条", store=mcp_store)
    assert unknown_law.structuredContent == {"error": error_text(unknown_law), "exit_code": 1, "kind": "LawNotFound"}
    # A clause no version holds is an error, not "not in force": the CLI's message, and the articles that exist
    # around it, read from the store.
    said = error_text(unknown_clause)
    assert said.startswith(cli_error("law", "show", "民法", "第四百条の百", store=mcp_store) + "; ")
    assert "the articles nearest it are 第三百九十九条, 第四百条, 第四百一条, 第四百二条" in said
    assert error_text(unknown_case) == cli_error("precedent", "show", "99999", store=mcp_store)


def test_clauses_are_resources_by_revision_and_by_day(mcp: Callable[[Body], Any]) -> None:
    async def body(session: ClientSession) -> dict[str, Any]:
        templates = (await session.list_resource_templates()).resourceTemplates
        laws = (await session.list_resources()).resources
        shown = await whole(session, "clause_as_of", {"law": "民法", "clause": "第七百十条第一項",
                                                      "as_of": "2023-06-14"})
        by_revision = json.loads((await session.read_resource(shown["uri"])).contents[0].text)  # type: ignore[union-attr]
        by_day = without_nulls(json.loads((await session.read_resource(  # type: ignore[union-attr]
            f"lexgraph://law/{shown['law_id']}/a710/p1?as_of=2023-06-14")).contents[0].text))
        law = json.loads((await session.read_resource(str(laws[0].uri))).contents[0].text)  # type: ignore[union-attr]
        try:
            await session.read_resource(f"lexgraph://law/{shown['law_id']}/a710/p1@no-such-revision")
            refused = ""
        except McpError as error:
            refused = error.error.message
        return {"templates": {t.uriTemplate for t in templates}, "laws": laws, "shown": shown,
                "by_revision": by_revision, "by_day": by_day, "law": law, "refused": refused}

    got = mcp(body)
    assert got["templates"] == {"lexgraph://law/{law_id}/{+clause_path}@{revision_id}",
                                "lexgraph://law/{law_id}/{+clause_path}?as_of={as_of}", "lexgraph://law/{law_id}"}
    assert {str(r.uri) for r in got["laws"]} >= {f"lexgraph://law/{got['shown']['law_id']}"}
    assert got["by_day"] == got["shown"]
    assert got["by_revision"]["text"] == got["shown"]["text"]
    assert got["by_revision"]["revision_id"] == got["shown"]["revision_id"]
    assert got["shown"]["uri"].endswith(f"/a710/p1@{got['shown']['revision_id']}")
    assert got["law"]["versions"] and got["law"]["law_id"]
    assert "no stored revision 'no-such-revision'" in got["refused"]


def test_ask_without_a_model_is_extractive_and_says_so(mcp: Callable[[Body], Any]) -> None:
    async def body(session: ClientSession) -> dict[str, Any]:
        return await whole(session, "ask", {"question": "不法行為による損害賠償の要件は？", "as_of": "2023-06-14"})

    answer = mcp(body)  # every page: the sentences quote the clauses, and fill the first
    assert answer["extractive"] is True and "model" not in answer  # no model: the field is left out, not null
    assert answer["label"] and JAPANESE.search(answer["label"] + answer["conclusion"]["text"])
    assert answer["references"]


def cited_answer(body: dict[str, Any]) -> str:
    """A model's valid answer citing the first law reference of the prompt (tests/openai_server.py replies it)."""
    prompt = next(m["content"] for m in body["messages"] if "<laws>" in m["content"])
    law = json.loads(re.search(r"<laws>\n(.*?)\n</laws>", prompt, re.DOTALL).group(1))[0]["id"]  # type: ignore[union-attr]
    return json.dumps({"sentences": [{"text": "故意又は過失による権利侵害が要件です。", "citations": [law]}],
                       "conclusion": {"text": "損害賠償の責任を負います。", "citations": [law]}, "caveats": []},
                      ensure_ascii=False)


def test_ask_with_a_model_configured_is_the_model_s_answer_and_records_nothing_in_the_store(
        mcp_store: Path, tmp_path: Path) -> None:
    files = snapshot(mcp_store)
    log = tmp_path / "turns.jsonl"
    with ScriptedOpenAI([Reply(cited_answer)]) as model:
        env = {"LEXGRAPH_LLM_MODEL": "scripted", "OPENAI_BASE_URL": model.url, "OPENAI_API_KEY": "test",
               "LEXGRAPH_LLM_RETRIES": "0", "LEXGRAPH_TURN_LOG": str(log)}

        async def main() -> dict[str, Any]:
            async with opened_session("stdio", mcp_store, None, env) as session:
                return structured(await session.call_tool("ask", {"question": "不法行為による損害賠償の要件は？",
                                                                   "as_of": "2023-06-14", "laws": ["民法"]}))

        answer = asyncio.run(main())
    assert answer["extractive"] is False and answer["model"] == "scripted"
    assert answer["label"].startswith("generated by scripted")
    assert answer["sentences"][0]["citations"] and answer["references"]
    assert [json.loads(line)["status"] for line in log.read_text(encoding="utf-8").splitlines()] == ["answered"]
    assert snapshot(mcp_store) == files


def test_the_http_server_refuses_a_request_for_another_host(http_url: str) -> None:
    """DNS rebinding: a page on another site that resolves its name to 127.0.0.1 must not reach the server."""
    import httpx

    request = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
               "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                          "clientInfo": {"name": "test", "version": "0"}}}
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    refused = httpx.post(http_url, json=request, headers={**headers, "Host": "attacker.example"}, timeout=30)
    accepted = httpx.post(http_url, json=request, headers=headers, timeout=30)
    assert refused.status_code in (400, 403, 421) and accepted.status_code == 200


def test_http_refuses_an_address_other_than_loopback(tmp_path: Path) -> None:
    run = lexgraph("mcp", "--http", "0.0.0.0:8765", store=tmp_path / "none")
    assert run.code == 2
    assert "0.0.0.0 is not a loopback address" in run.stderr and "--allow-remote" in run.stderr
    run = lexgraph("mcp", "--http", "localhost", store=tmp_path / "none")
    assert run.code == 2 and "give HOST:PORT" in run.stderr


#: A realistic call of every tool, the large answers included (a whole diff of 民法, a judgment's citations).
DEFAULT_CALLS = {
    "clause_as_of": {"law": "民法", "clause": "第七百九条", "as_of": "2023-06-14"},
    "law_versions": {"law": "民法"},
    "law_diff": {"law": "民法", "from_day": "2020-04-01", "to_day": "2023-06-14", "level": "all"},
    "cite": {"text": JUDGMENT.read_text(encoding="utf-8")},
    "cites": {"law": "民法", "clause": "第七百十条", "as_of": "2023-06-14"},
    "cited_by": {"law": "民法", "clause": "第七百九条"},
    "precedent": {"case": "91244"},
    "search": {"question": "不法行為による損害賠償", "k": 10, "evidence": True},
    "ask": {"question": "不法行為による損害賠償の要件は？", "as_of": "2023-06-14"},
    "laws": {},
    "cypher": {"query": "MATCH (p:Provision) RETURN p.path AS path, p.text AS text LIMIT 100"},
    "stats": {},
}
BOUND = 4096


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def nulls(value: Any, key: str = "") -> int:
    if key == "rows":
        return 0
    if isinstance(value, dict):
        return sum(v is None or nulls(v, k) for k, v in value.items())
    if isinstance(value, list):
        return sum(nulls(v) for v in value)
    return 0


def test_every_tool_s_default_result_is_concise_bounded_and_said_once(mcp: Callable[[Body], Any]) -> None:
    """An assistant's context holds every result: each default result is within the bound (the whole protocol
    message), its text part says what the structured content holds without repeating it, no field is a bare
    null, and the server names lexgraph's version, not the SDK's."""
    import lexgraph

    async def body(session: ClientSession) -> tuple[Any, dict[str, CallToolResult]]:
        assert set(DEFAULT_CALLS) == TOOLS
        return session.started, {name: await session.call_tool(name, arguments)  # type: ignore[attr-defined]
                                 for name, arguments in DEFAULT_CALLS.items()}

    started, results = mcp(body)
    assert started.serverInfo.name == "lexgraph" and started.serverInfo.version == lexgraph.__version__
    for name, result in results.items():
        content = structured(result)
        assert len(result.model_dump_json(exclude_none=True).encode()) <= BOUND, name
        assert len(result.content) == 1 and result.content[0].type == "text", name
        said = result.content[0].text  # type: ignore[union-attr]
        assert len(said.encode()) <= 400 and "{" not in said, (name, said)
        repeated = [text for text in strings(content) if len(text) >= 12 and text in said]
        assert repeated == [], (name, repeated)
        assert nulls(content) == 0, (name, content)
    assert results["law_diff"].structuredContent["next_cursor"]  # type: ignore[index]  # 288 changes: paged
    assert "before" not in results["law_diff"].structuredContent["changes"][0]  # type: ignore[index]
    hits = results["search"].structuredContent["clauses"]  # type: ignore[index]
    assert hits and all("snippet" in hit and "text" not in hit for hit in hits)


def test_a_dense_search_says_its_list_holds_no_suppl_clause_as_the_cli_does(mcp: Callable[[Body], Any],
                                                                            mcp_store: Path) -> None:
    """The sample's index gives 附則 clauses no vectors (the default), so a dense list cannot hold one: the search
    tool's structured result says so (``"unembedded": "suppl"``) as `lexgraph search --mode dense --json` does,
    both from the package root's result; a mode whose lists hold every clause says nothing."""
    from lexgraph import LexGraph

    question = "この法律の施行期日"

    async def body(session: ClientSession) -> dict[str, dict[str, Any]]:
        return {mode: structured(await session.call_tool("search", {"question": question, "mode": mode}))
                for mode in ("dense", "hybrid")}

    found = mcp(body)
    assert found["dense"]["unembedded"] == "suppl", found["dense"]
    assert "unembedded" not in found["hybrid"], found["hybrid"]
    cli = lexgraph("search", question, "--mode", "dense", "--json", store=mcp_store, env=clean_env())
    assert cli.code == 0 and cli.json()["unembedded"] == "suppl", cli.stderr
    with LexGraph.open(mcp_store, read_only=True) as lg:
        assert lg.suppl_vectors() is False
        assert lg.search(question, mode="dense").unembedded == "suppl"
        assert lg.search(question, mode="bm25").unembedded is None


def test_pages_give_every_item_once_and_a_cursor_only_to_its_own_call(mcp: Callable[[Body], Any],
                                                                       mcp_store: Path) -> None:
    arguments = {"law": "民法", "from_day": "2020-04-01", "to_day": "2023-06-14", "level": "all"}

    async def body(session: ClientSession) -> tuple[list[dict[str, Any]], list[str]]:
        pages = [structured(await session.call_tool("law_diff", arguments))]
        while pages[-1].get("next_cursor"):
            pages.append(structured(await session.call_tool("law_diff", {**arguments,
                                                                         "cursor": pages[-1]["next_cursor"]})))
        cursor = pages[0]["next_cursor"]
        refusals = [error_text(await session.call_tool("law_diff", {**arguments, "level": "article",
                                                                    "cursor": cursor})),
                    error_text(await session.call_tool("law_diff", {**arguments, "cursor": "not-a-cursor"}))]
        return pages, refusals

    pages, refusals = mcp(body)
    cli = lexgraph("law", "diff", "民法", "--from", "2020-04-01", "--to", "2023-06-14", "--level", "all", "--json",
                   store=mcp_store, env=clean_env())
    expected = [c["path"] for c in cli.json()["changes"]]
    assert len(pages) > 2 and all(page["total"]["changes"] == len(expected) for page in pages)
    assert [c["path"] for page in pages for c in page["changes"]] == expected
    assert "other arguments" in refusals[0] and "not one this server gave" in refusals[1]


def test_a_bad_argument_is_named_with_what_it_takes(mcp: Callable[[Body], Any]) -> None:
    async def body(session: ClientSession) -> list[str]:
        return [error_text(await session.call_tool(name, arguments)) for name, arguments in (
            ("search", {"question": "不法行為", "k": 100}),
            ("law_diff", {"law": "民法"}),
            ("clause_as_of", {"law": "民法", "clause": "第七百九条", "detail": "short"}),
            ("clause_as_of", {"law": "民法", "clause": "第七百九条", "as_of": "平成31年5月1日"}),
            ("search", {"question": "不法行為", "mode": "nearest"}),
            ("no_such_tool", {}),
        )]

    k, missing, detail, era, mode, tool = mcp(body)
    assert k == "search: k: should be less than or equal to 50 (given 100)"
    assert missing == "law_diff: from_day is required; to_day is required"
    assert detail == "clause_as_of: detail: should be 'brief' or 'full' (given 'short')"
    assert era.startswith("as_of: ") and "令和元年5月1日" in era
    assert mode.startswith("mode must be one of ") and "'nearest'" in mode
    assert tool.startswith("no tool 'no_such_tool'; the tools are clause_as_of, ")
    for said in (k, missing, detail, era, mode, tool):
        assert "pydantic" not in said and "\n" not in said and "Error executing" not in said


def test_the_cypher_tool_gives_the_store_s_schema(mcp: Callable[[Body], Any], mcp_store: Path) -> None:
    async def body(session: ClientSession) -> dict[str, Any]:
        return await whole(session, "cypher", {"schema": True})

    schema = mcp(body)
    shown = lexgraph("query", "--schema", "--json", store=mcp_store, env=clean_env())
    assert shown.code == 0, shown.stderr
    reference = without_nulls(shown.json())
    entries = [*reference["labels"], *reference["relationships"]]
    assert schema["backend"] == reference["backend"] == "embedded" and schema["notes"] == reference["notes"]
    assert schema["labels"] == [{k: v for k, v in e.items() if k != "properties"} for e in entries]
    assert schema["properties"] == [{"of": e["name"], **p} for e in entries for p in e["properties"]]
    assert {"Law", "LawVersion", "Provision"} <= {label["name"] for label in schema["labels"]}
    assert any(p["of"] == "LawVersion" and p["name"] == "known_up_to" and p["meaning"] for p in schema["properties"])


def realistic_calls() -> list[tuple[str, dict[str, Any]]]:
    """49 calls an assistant might make about the sample, every tool among them."""
    calls: list[tuple[str, dict[str, Any]]] = []
    clauses = ["第四条", "第七百九条", "第七百十条", "第七百十五条", "第七百二十二条", "第九百条", "第二百九条",
               "第五条", "第九十条", "第四百十五条"]
    for day in ("2021-01-01", "2023-07-01"):
        calls += [("clause_as_of", {"law": "民法", "clause": c, "as_of": day}) for c in clauses]
    calls.append(("clause_as_of", {"law": "借地借家法", "clause": "第三条"}))
    for clause in ("第七百九条", "第七百十条", "第七百十五条", "第四条", "第九百条"):
        calls += [("cites", {"law": "民法", "clause": clause}), ("cited_by", {"law": "民法", "clause": clause})]
    calls += [("law_versions", {"law": law}) for law in ("民法", "借地借家法", "個人情報保護法")]
    calls += [("law_diff", {"law": "民法", "from_day": "2020-04-01", "to_day": "2023-06-14"}),
              ("law_diff", {"law": "民法", "from_day": "2020-04-01", "to_day": "2023-06-14", "level": "all"}),
              ("cite", {"text": JUDGMENT.read_text(encoding="utf-8")}),
              ("cite", {"text": "民法第七百九条及び第七百十条"}),
              ("precedent", {"case": "91244"}), ("precedent", {"case": "原状回復等請求事件"})]
    calls += [("search", {"question": "借地権の存続期間", "mode": mode}) for mode in ("bm25", "dense", "hybrid",
                                                                                 "learned")]
    calls += [("ask", {"question": "借地権の存続期間は何年か"}), ("laws", {}), ("stats", {}),
              ("cypher", {"query": "MATCH (l:Law) RETURN l.title AS title, l.repealed_on AS repealed"}),
              ("cypher", {"schema": True})]
    return calls


@pytest.mark.neo4j
@pytest.mark.requires("neo4j")
def test_on_neo4j_realistic_calls_write_nothing_to_stderr(neo4j_store: Any, tmp_path: Path) -> None:
    """The server's stderr is for real problems: 49 calls on Neo4j, where lexgraph's queries read property keys the
    data does not hold (a law's `repealed_on`), write nothing there (no driver notifications)."""
    from lexgraph import LexGraph
    from tests.helpers import SEED_CACHE

    shutil.copy(SEED_CACHE, tmp_path / SEED_CACHE.name)
    env = {**server_env(), "LEXGRAPH_CACHE_DIR": str(tmp_path)}
    os.environ["LEXGRAPH_CACHE_DIR"] = str(tmp_path)
    try:
        lg = LexGraph(neo4j_store)
        lg.ingest_statutes([SAMPLE])
        lg.ingest_precedents([SAMPLE / "precedents"])
        lg.index(laws=["民法", "借地借家法"])
        lg.index(kinds=["chunk"])
    finally:
        del os.environ["LEXGRAPH_CACHE_DIR"]
    calls = realistic_calls()
    assert len(calls) == 49 and {name for name, _ in calls} == TOOLS
    errors = tmp_path / "stderr.txt"

    async def main() -> list[bool]:
        params = StdioServerParameters(command=sys.executable, env=env, cwd=ROOT,
                                       args=["-m", "lexgraph", "mcp", "--store", os.environ[NEO4J_URI]])
        with errors.open("w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                return [(await session.call_tool(name, arguments)).isError for name, arguments in calls]

    failed = asyncio.run(main())
    assert errors.read_text(encoding="utf-8") == ""
    # the answers are answers: a clause not in force that day is a status, not an error; every call succeeds
    assert [call for call, bad in zip(calls, failed, strict=True) if bad] == []
