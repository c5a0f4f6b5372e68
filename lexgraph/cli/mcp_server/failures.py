"""Library errors as MCP errors, with the one-line message the CLI prints for them.

A tool that fails returns a result with ``isError`` (the protocol's way to tell the model what went wrong, so that
it can correct its call); a resource that cannot be read raises `McpError`. Either carries ``str(error)``, the
message `lexgraph` prints after ``error:``, and the exit code the CLI would end with.

Every error the library raises on purpose is a `LexGraphError` (lexgraph/errors.py); anything else is a bug, and the
SDK reports it as one.
"""

from __future__ import annotations

from typing import Any

from lexgraph.cli.output import EXIT_BAD_INPUT, EXIT_UNAVAILABLE


def exit_code(error: BaseException) -> int:
    """The exit code the CLI ends with for `error`: the error tree's own."""
    code = getattr(error, "exit_code", None)
    return code if isinstance(code, int) else EXIT_BAD_INPUT


def error_payload(error: BaseException) -> dict[str, Any]:
    """The structured side of an error result: the message, the CLI's exit code and the error's class name."""
    return {"error": str(error), "exit_code": exit_code(error), "kind": type(error).__name__}


def error_result(error: BaseException) -> Any:
    """A tool result with ``isError`` whose text is exactly the CLI's message."""
    from mcp.types import CallToolResult, TextContent

    return CallToolResult(content=[TextContent(type="text", text=str(error))], structuredContent=error_payload(error),
                          isError=True)


def mcp_error(error: BaseException) -> Exception:
    """`McpError` for a resource read that failed: ``invalid params`` for bad input (exit 1 or 2), ``internal
    error`` for what is unavailable (exit 3); the data carries the exit code."""
    from mcp.shared.exceptions import McpError
    from mcp.types import INTERNAL_ERROR, INVALID_PARAMS, ErrorData

    code = INTERNAL_ERROR if exit_code(error) == EXIT_UNAVAILABLE else INVALID_PARAMS
    return McpError(ErrorData(code=code, message=str(error), data=error_payload(error)))


def invalid_arguments(tool: str, error: Any) -> str:
    """A pydantic `ValidationError` of a tool's arguments as one readable line: each argument named with what
    it takes and what was given, instead of the library's multi-line report and its links."""
    parts = []
    for problem in error.errors():
        where = ".".join(str(part) for part in problem.get("loc", ())) or "arguments"
        if problem.get("type") == "missing":
            parts.append(f"{where} is required")
            continue
        message = str(problem.get("msg", "is not valid"))
        message = message[0].lower() + message[1:] if message else message
        parts.append(f"{where}: {message.replace('input should', 'should')} (given {problem.get('input')!r})")
    return f"{tool}: {'; '.join(parts)}"


def summary(tool: str, structured: dict[str, Any]) -> str:
    """The text part of a tool result: one line saying what the structured content holds (its lists' sizes, the
    clause and its status, whether there is more), never the content again."""
    said = []
    if "status" in structured and "clause" in structured:
        said.append(f"{structured.get('law_title', '')} {structured['clause']} as of {structured.get('as_of')}: "
                    f"{structured['status']}")
    totals = structured.get("total") or {}
    for key, value in structured.items():
        if isinstance(value, list) and key != "surfaces":
            said.append(f"{key} {len(value)}" + (f" of {totals[key]}" if key in totals else ""))
    if structured.get("next_cursor"):
        said.append("more: call again with cursor = next_cursor")
    if structured.get("truncated"):
        said.append(f"cut to fit: {structured['truncated']}")
    return f"lexgraph {tool}: the result is the structured content" + (f" ({'; '.join(said)})" if said else "")
