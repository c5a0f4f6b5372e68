"""`lexgraph mcp`: serve a store to AI assistants over the Model Context Protocol, read-only (docs/mcp.md).

Standard input and output by default (what a desktop assistant starts as a subprocess), or streamable HTTP with
``--http HOST:PORT`` at ``http://HOST:PORT/mcp``. The HTTP server listens on loopback unless ``--allow-remote`` is
given, and there answers only requests whose Host and Origin name loopback (a web page cannot reach it by DNS
rebinding); a token (``--token-file`` or ``LEXGRAPH_MCP_TOKEN``) keeps out the machine's other users and programs.
What it serves (a store's laws and turns) is the operator's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from lexgraph.cli.options import StoreOpt
from lexgraph.cli.output import err, opened
from lexgraph.errors import ConfigurationError, ToolMissing


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:8000`` for IPv6) → (host, port); a usage error saying the form otherwise."""
    host, sep, port_text = text.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not sep or not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ConfigurationError(f"--http {text!r}: give HOST:PORT, e.g. 127.0.0.1:8765 (or [::1]:8765)")
    return host, int(port_text)


def mcp_command(
    store: StoreOpt = None,
    http: Annotated[str | None, typer.Option("--http", help="Serve streamable HTTP on HOST:PORT (at /mcp) "
                                             "instead of standard input/output.")] = None,
    allow_remote: Annotated[bool, typer.Option("--allow-remote", help="Let --http listen on an address other than "
                                               "loopback, and turn off the Host/Origin check. Give a token, or put "
                                               "the server behind a proxy that authenticates.")]
    = False,
    token_file: Annotated[Path | None, typer.Option("--token-file", help="With --http, require every request to "
                                                    "carry this file's token (Authorization: Bearer TOKEN); "
                                                    "default: LEXGRAPH_MCP_TOKEN when set. The file must be "
                                                    "the user's own (chmod 600).")] = None,
    result_limit: Annotated[int, typer.Option("--result-limit", help="Bytes of JSON a tool result holds at most: "
                                              "longer lists come in pages, longer texts are cut and say so.")]
    = 4096,
) -> None:
    """Serve the store to AI assistants (MCP), read-only: clauses as of a day, versions, diffs, citations,
    precedents, search and answers."""
    host, port = parse_address(http) if http else ("127.0.0.1", 0)
    if token_file is not None and not http:
        raise ConfigurationError("--token-file is for --http: a server on standard input/output answers only the "
                                 "program that started it")
    try:
        from lexgraph.cli.mcp_server import build_server, serve_http
        from lexgraph.cli.mcp_server.guard import Guard, is_loopback, read_token
    except ImportError as error:
        raise ToolMissing(f"lexgraph mcp needs the MCP SDK ({error.name} is not installed): "
                          "pip install 'lexgraph[mcp]'") from error
    if result_limit < 1024:
        raise ConfigurationError(f"--result-limit {result_limit}: give at least 1024 bytes (a page holds one item "
                                 "at least)")
    if http and not allow_remote and not is_loopback(host):
        raise ConfigurationError(f"--http {http}: {host} is not a loopback address, and the server has no "
                                 "authentication; listen on 127.0.0.1 (the default) or give --allow-remote to serve "
                                 "other machines")
    checks = Guard(loopback_only=not allow_remote, token=read_token(token_file)) if http else None
    if checks is not None and allow_remote and checks.token is None:
        err.print("warning: --allow-remote without a token: anyone who reaches the server reads the whole store; "
                  "give --token-file or LEXGRAPH_MCP_TOKEN, or put it behind a proxy that authenticates",
                  highlight=False)
    with opened(store, read_only=True) as lg:
        server = build_server(lg, host=host, port=port, limit=result_limit)
        if checks is not None:
            needs = ", token required" if checks.token else ""
            err.print(f"lexgraph MCP server (read-only{needs}) at http://{_url_host(host)}:{port}/mcp",
                      highlight=False)
            serve_http(server, checks)
        else:
            server.run("stdio")


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host
