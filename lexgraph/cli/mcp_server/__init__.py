"""`lexgraph mcp`'s server: lexgraph's questions as MCP tools and its clauses as resources, over one store opened
read-only (docs/mcp.md).

Built on the official SDK's `FastMCP`, which turns each tool's typed signature and pydantic return type into its
input and output JSON schemas. What is lexgraph's own: a library error becomes an error result carrying the CLI's
message instead of the SDK's "Error executing tool …" wrapping, and an argument that breaks a tool's schema one
naming the argument and what it takes (`failures`); a result's structured content is the answer, held to a size
bound (`pages`), and its text part one line saying what it holds, not the same JSON again, which would double what
an assistant's context carries; the server names lexgraph's version, not the SDK's; and clause URIs hold paths
with slashes, which the SDK's template matcher does not, so resources are listed and read here (`uris`).

This package is part of the CLI: it imports the public face (`lexgraph`), the public names of the modules that own
what it needs, and `lexgraph.cli`; it is imported only when `lexgraph mcp` runs (the SDK is an optional extra:
``pip install 'lexgraph[mcp]'``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError
from mcp.server.lowlevel.helper_types import ReadResourceContents
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import Resource, ResourceTemplate, TextContent, ToolAnnotations
from pydantic import AnyUrl, ValidationError

import lexgraph
from lexgraph import InputError, LexGraph, LexGraphError, NotFound
from lexgraph.cli.mcp_server import uris
from lexgraph.cli.mcp_server.failures import error_result, invalid_arguments, mcp_error, summary
from lexgraph.cli.mcp_server.guard import Guard
from lexgraph.cli.mcp_server.pages import DEFAULT_LIMIT, compact
from lexgraph.cli.mcp_server.tools import Tools

INSTRUCTIONS = (
    "lexgraph: 日本の法令を版ごとに保存した引用グラフ。条文を「ある日の文言」として読み（施行期間と、"
    "ストアが知り得ないときは unknown と明示）、法令の版と差分、文章中の引用の解決、条文の引用元・引用先、判例、検索、"
    "根拠付きの回答を返す。読み取り専用。条文は lexgraph://law/{law_id}/{clause_path}@{revision_id} で参照できる。"
)


@dataclass(frozen=True)
class ToolSpec:
    """A tool as an assistant sees it: its name, a title, and the Japanese description it chooses by."""

    name: str
    title: str
    description: str


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec("clause_as_of", "条文（基準日）",
             "ある日に施行されていた条文の文言を、施行期間・出典の版とともに返す。status は in_force（その日の文言）、"
             "last_known（保存された最新の文言だが、その日も施行中かはストアが知らない）、unknown（未保存の改正が間に"
             "あり、その日の文言を知り得ない）、not_in_force（その日は施行されていない）。message はその理由。"),
    ToolSpec("law_versions", "法令の版",
             "法令の保存済みの版（改正）と各版の施行期間、未保存の改正による空白（gap）を返す。"),
    ToolSpec("law_diff", "法令の差分",
             "二つの日に施行されていた版の間で、追加・変更・削除された条文を返す（変更前後の文言つき）。"),
    ToolSpec("cite", "引用の解決",
             "文章（判決文・契約書・条文など）に含まれる法令・判例の引用を見つけ、その日に施行中の版の条項に解決する。"
             "基準日を省略すると文中の判決日、なければ今日。"),
    ToolSpec("cites", "引用先",
             "ある条文（とその中の項・号）が引用している条文を、その日の文言どうしで返す。"),
    ToolSpec("cited_by", "引用元",
             "ある条文を引用している他の条文（その日の文言どうし）と、判例・文献（引用した版つき）を返す。"
             "条項を省略すると、法令全体を（法令番号などで）引用している条文・判例・文献を返す。"),
    ToolSpec("precedent", "判例",
             "判例を事件番号・裁判所ID・事件名・通称で探し、その書誌、引用している条文と判例、引用元を返す。"),
    ToolSpec("search", "検索",
             "質問に関係する条文と判例・文献の断片を探し、引用グラフで根拠を選ぶ。"
             "方式（learned（既定）, hybrid, bm25, dense …）、法令、基準日、種類（条文・断片）で絞れる。"
             "検索索引（lexgraph index）が必要。"),
    ToolSpec("ask", "根拠付き回答",
             "法律の質問に、各文の根拠となる条文・判例を付けて答える。言語モデルが設定されていれば"
             "（LEXGRAPH_LLM_MODEL, OPENAI_BASE_URL）そのモデルが、なければ抽出的な回答を返し、label でそれと示す。"
             "検索索引が必要。"),
    ToolSpec("laws", "保存済みの法令", "ストアにある法令の一覧（法令ID・題名・法令番号・URI）。"),
    ToolSpec("cypher", "Cypher（読み取り専用）",
             "グラフに読み取り専用の Cypher を 1 文実行し、行を返す（最大 200 行）。"
             "書き込み・ファイル操作は拒否される。schema: true で、書くのに要るラベル・関係・プロパティ（型・意味・例）"
             "とバックエンドごとの方言の違いを返す。"),
    ToolSpec("stats", "ストアの統計", "ラベルごとのノード数と種類ごとの関係数。"),
)


class LexGraphMCP(FastMCP):
    """FastMCP with lexgraph's errors and clause resources (see the module's docstring)."""

    def __init__(self, lg: LexGraph, *, limit: int = DEFAULT_LIMIT, **settings: Any) -> None:
        super().__init__(name="lexgraph", instructions=INSTRUCTIONS, **settings)
        self._mcp_server.version = lexgraph.__version__  # serverInfo: lexgraph's version, not the SDK's
        self.lg = lg
        tools = Tools(lg, limit)
        for spec in TOOLS:
            self.add_tool(getattr(tools, spec.name), name=spec.name, title=spec.title, description=spec.description,
                          annotations=ToolAnnotations(readOnlyHint=True, destructiveHint=False, idempotentHint=True,
                                                      openWorldHint=False),
                          structured_output=True)
        self.tools = tools

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> Any:
        if self._tool_manager.get_tool(name) is None:
            return error_result(InputError(f"no tool {name!r}; the tools are {', '.join(s.name for s in TOOLS)}"))
        try:
            result = await super().call_tool(name, arguments)
        except ToolError as error:
            cause = error.__cause__
            if cause is not None and isinstance(cause, LexGraphError):
                return error_result(cause)
            if isinstance(cause, ValidationError):
                return error_result(InputError(invalid_arguments(name, cause)))
            raise
        if not (isinstance(result, tuple) and len(result) == 2):
            return result
        structured = compact(result[1])
        return [TextContent(type="text", text=summary(name, structured))], structured

    async def list_resources(self) -> list[Resource]:
        try:
            return [Resource(uri=AnyUrl(law.uri), name=law.law_id, title=law.title, mimeType="application/json",
                             description=f"{law.title}（{law.law_num or law.law_id}）の版と施行期間")
                    for law in self.tools.laws().laws]
        except LexGraphError as error:
            raise mcp_error(error) from error

    async def list_resource_templates(self) -> list[ResourceTemplate]:
        return [
            ResourceTemplate(uriTemplate=uris.REVISION_TEMPLATE, name="clause_in_revision", title="条文（版）",
                             description="ある版の条文の文言（版の文言は保存後に変わらないので URI は安定）。"
                                         "clause_path は a709, a710/p1 の形。", mimeType="application/json"),
            ResourceTemplate(uriTemplate=uris.AS_OF_TEMPLATE, name="clause_as_of", title="条文（基準日）",
                             description="ある日に施行されていた条文（clause_as_of ツールと同じ答え）。",
                             mimeType="application/json"),
            ResourceTemplate(uriTemplate=uris.LAW_TEMPLATE, name="law", title="法令",
                             description="法令の版と施行期間。", mimeType="application/json"),
        ]

    async def read_resource(self, uri: AnyUrl | str) -> Iterable[ReadResourceContents]:
        ref = uris.parse(str(uri))
        try:
            if ref is None:
                raise NotFound(f"{uri}: not a lexgraph resource; the forms are {uris.LAW_TEMPLATE}, "
                                   f"{uris.REVISION_TEMPLATE} and {uris.AS_OF_TEMPLATE}")
            payload = self._resource(ref)
        except LexGraphError as error:
            raise mcp_error(error) from error
        return [ReadResourceContents(content=json.dumps(payload, ensure_ascii=False, indent=2),
                                     mime_type="application/json")]

    def _resource(self, ref: uris.ResourceRef) -> dict[str, Any]:
        """A resource whole: a client reads one on purpose, and a long wording is read here rather than cut."""
        if ref.path is None:
            return self.tools.versions_of(ref.law_id)
        if ref.as_of is not None:
            return self.tools.clause_on(ref.law_id, ref.path, ref.as_of).model_dump(mode="json")
        assert ref.revision_id is not None
        return self.tools.clause_in_revision(ref.law_id, ref.path, ref.revision_id).model_dump(mode="json")


def build_server(lg: LexGraph, *, host: str = "127.0.0.1", port: int = 8000,
                 limit: int = DEFAULT_LIMIT) -> LexGraphMCP:
    """The server over an open (read-only) handle, each tool result held to `limit` bytes; `host` and `port` are
    used by the HTTP transport only. The SDK's own Host check is off: `serve_http` puts `guard.Guard`'s in front,
    the same for every loopback bind."""
    return LexGraphMCP(lg, host=host, port=port, log_level="WARNING", limit=limit,
                       transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False))


def serve_http(server: LexGraphMCP, checks: Guard) -> None:
    """Serve streamable HTTP at ``/mcp`` with every request passing `checks` first (until interrupted)."""
    import uvicorn

    app = checks.wrap(server.streamable_http_app())
    uvicorn.Server(uvicorn.Config(app, host=server.settings.host, port=server.settings.port,
                                  log_level="warning")).run()
