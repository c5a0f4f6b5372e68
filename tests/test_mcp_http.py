"""`lexgraph mcp --http`: only its user reaches it. Real server processes, driven by the `mcp` SDK's own client and by
raw HTTP requests: a request for another host or from another site's page is refused on every loopback bind,
however the address is written, and a configured token is required of every request."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from lexgraph.cli.mcp_server.guard import host_of, is_loopback, origin_is_loopback
from tests.helpers import ROOT, lexgraph

UNSET = ("LEXGRAPH_STORE", "LEXGRAPH_LLM_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY", "LEXGRAPH_TURN_LOG",
         "LEXGRAPH_MCP_TOKEN")
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                         "clientInfo": {"name": "test", "version": "0"}}}
CYPHER = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
          "params": {"name": "cypher", "arguments": {"query": "MATCH (l:Law) RETURN count(l) AS n"}}}
JSON_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
TOKEN = "tok-" + "x7Qa9" * 8


def env_for(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in UNSET}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))
    return {**env, **(extra or {})}


def free_port(family: socket.AddressFamily, host: str) -> int:
    with socket.socket(family) as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


@contextmanager
def server(store: Path, bind: str, *args: str, env: dict[str, str] | None = None,
           log: Path) -> Iterator[tuple[str, int]]:
    """`lexgraph mcp --http BIND:PORT` in a subprocess; (the address it listens on, its port) once it accepts."""
    ipv6 = ":" in bind
    connect = "::1" if ipv6 else ("127.0.0.1" if bind.lower() == "localhost" else bind)
    port = free_port(socket.AF_INET6 if ipv6 else socket.AF_INET, connect)
    address = f"[{bind}]:{port}" if ipv6 else f"{bind}:{port}"
    with log.open("w") as stderr:
        process = subprocess.Popen([sys.executable, "-m", "lexgraph", "mcp", "--store", str(store), "--http", address,
                                    *args], env=env_for(env), cwd=ROOT, stdout=subprocess.DEVNULL, stderr=stderr)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, f"the server ended: {log.read_text()}"
            try:
                socket.create_connection((connect, port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, f"no server on port {port}: {log.read_text()}"
                time.sleep(0.2)
        yield connect, port
    finally:
        process.terminate()
        process.wait(timeout=30)


def url(connect: str, port: int) -> str:
    return f"http://[{connect}]:{port}/mcp" if ":" in connect else f"http://{connect}:{port}/mcp"


def count_laws(address: str, headers: dict[str, str] | None = None) -> int:
    """The `cypher` tool's answer through the SDK's own client."""

    async def main() -> int:
        async with (httpx.AsyncClient(headers=headers or {}, timeout=60) as client,
                    streamable_http_client(address, http_client=client) as (read, write, _),
                    ClientSession(read, write) as session):
            await session.initialize()
            result = await session.call_tool("cypher", {"query": "MATCH (l:Law) RETURN count(l) AS n"})
            assert not result.isError, result.content
            structured: Any = result.structuredContent
            return int(structured["rows"][0]["n"])

    return asyncio.run(main())


def post(address: str, body: dict[str, Any], **headers: str) -> httpx.Response:
    return httpx.post(address, json=body, headers={**JSON_HEADERS, **headers}, timeout=30)


def session_id(address: str, **headers: str) -> str:
    """A session opened by a good initialize (and its initialized notification), for a raw tools/call."""
    opened = post(address, INITIALIZE, **headers)
    assert opened.status_code == 200, opened.text
    sid = opened.headers["mcp-session-id"]
    note = post(address, {"jsonrpc": "2.0", "method": "notifications/initialized"}, **headers,
                **{"mcp-session-id": sid, "mcp-protocol-version": "2025-06-18"})
    assert note.status_code == 202, note.text
    return sid


@pytest.mark.parametrize("bind", ["127.0.0.1", "127.0.0.2", "LOCALHOST", "0:0:0:0:0:0:0:1", "::1"])
def test_a_request_for_another_host_or_from_another_site_is_refused_on_every_loopback_bind(
        bind: str, sample_store: Path, tmp_path: Path) -> None:
    """DNS rebinding: a page of evil.example whose name resolves to the server's address sends Host and Origin
    evil.example. Before, binds other than the SDK's three exact strings had the check off and the tool answered."""
    with server(sample_store, bind, log=tmp_path / "stderr.txt") as (connect, port):
        address = url(connect, port)
        laws = count_laws(address)
        assert laws == 3
        sid = session_id(address)
        call = {"mcp-session-id": sid, "mcp-protocol-version": "2025-06-18"}
        evil_host = post(address, CYPHER, Host=f"evil.example:{port}", **call)
        evil_origin = post(address, CYPHER, Origin="http://evil.example", **call)
        evil_both = post(address, INITIALIZE, Host="evil.example", Origin="http://evil.example")
        null_origin = post(address, CYPHER, Origin="null", **call)
        assert (evil_host.status_code, evil_origin.status_code, evil_both.status_code, null_origin.status_code) == \
            (421, 403, 421, 403)
        assert '"rows"' not in evil_host.text + evil_origin.text + evil_both.text + null_origin.text
        # The server's own addresses, however written, are its user's.
        for host in (f"LOCALHOST:{port}", f"127.9.9.9:{port}", f"[0:0:0:0:0:0:0:1]:{port}", "localhost"):
            good = post(address, CYPHER, Host=host, Origin=f"http://{host}", **call)
            assert good.status_code == 200 and '"rows"' in good.text, (host, good.text)


def test_a_token_is_required_of_every_request(sample_store: Path, tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN + "\n")
    token_file.chmod(0o600)
    with server(sample_store, "127.0.0.1", "--token-file", str(token_file), log=tmp_path / "stderr.txt") as \
            (connect, port):
        address = url(connect, port)
        assert count_laws(address, {"Authorization": f"Bearer {TOKEN}"}) == 3
        refused = [post(address, INITIALIZE, **headers) for headers in
                   ({}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {TOKEN}"},
                    {"Authorization": f"Bearer {TOKEN[:-1]}"})]
        assert [answer.status_code for answer in refused] == [401] * 4
        assert all(answer.headers["www-authenticate"].startswith("Bearer") for answer in refused)
    with server(sample_store, "127.0.0.1", env={"LEXGRAPH_MCP_TOKEN": TOKEN}, log=tmp_path / "stderr2.txt") as \
            (connect, port):
        address = url(connect, port)
        assert post(address, INITIALIZE).status_code == 401
        assert post(address, INITIALIZE, Authorization=f"Bearer {TOKEN}").status_code == 200


def test_a_token_that_others_can_read_or_that_is_short_is_refused_before_the_server_starts(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN)
    token_file.chmod(0o644)
    run = lexgraph("mcp", "--http", "127.0.0.1:8765", "--token-file", token_file, store=tmp_path / "none")
    assert run.code == 2 and f"chmod 600 {token_file}" in run.stderr and "mode 644" in run.stderr
    token_file.chmod(0o600)
    token_file.write_text("short")
    run = lexgraph("mcp", "--http", "127.0.0.1:8765", "--token-file", token_file, store=tmp_path / "none")
    assert run.code == 2 and "fewer than 16" in run.stderr and "secrets.token_urlsafe" in run.stderr
    run = lexgraph("mcp", "--http", "127.0.0.1:8765", store=tmp_path / "none",
                   env={"LEXGRAPH_MCP_TOKEN": "two words here and there"})
    assert run.code == 2 and "LEXGRAPH_MCP_TOKEN" in run.stderr and "visible ASCII" in run.stderr
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    run = lexgraph("mcp", "--http", "127.0.0.1:8765", "--token-file", fifo, store=tmp_path / "none", timeout=30,
                   subprocess=True)
    assert run.code == 2 and "not a regular file" in run.stderr
    run = lexgraph("mcp", "--token-file", token_file, store=tmp_path / "none")
    assert run.code == 2 and "--token-file is for --http" in run.stderr


def test_loopback_is_recognised_in_every_spelling_and_nothing_else_is() -> None:
    for host in ("localhost", "LOCALHOST", "LocalHost.", "127.0.0.1", "127.0.0.2", "127.255.255.254", "::1",
                 "[::1]", "0:0:0:0:0:0:0:1", "[0:0:0:0:0:0:0:1]", "::ffff:127.0.0.1"):
        assert is_loopback(host), host
    for host in ("evil.example", "localhost.evil.example", "0.0.0.0", "128.0.0.1", "::", "10.0.0.1",
                 "127.0.0.1.evil.example", "", "[::1", "::ffff:10.0.0.1"):
        assert not is_loopback(host), host
    assert [host_of(header) for header in ("a:1", "[::1]:80", "[::1]", "::1", "a:b", "u@a:1", "[::1]x")] == \
        ["a", "::1", "::1", None, None, None, None]
    assert origin_is_loopback("http://LOCALHOST:8000") and origin_is_loopback("https://[::1]")
    assert not any(origin_is_loopback(origin) for origin in
                   ("null", "http://evil.example", "file://localhost", "http://x@localhost", "http://localhost:x"))


@given(st.text(max_size=60))
def test_any_host_or_origin_header_is_judged_without_an_error(header: str) -> None:
    host = host_of(header)
    assert host is None or isinstance(is_loopback(host), bool)
    assert isinstance(origin_is_loopback(header), bool)


def test_allow_remote_without_a_token_warns_that_anyone_reaching_it_reads_the_store(tmp_path: Path) -> None:
    run = lexgraph("mcp", "--http", "0.0.0.0:8765", "--allow-remote", store=tmp_path / "none")
    assert "warning: --allow-remote without a token" in run.stderr and run.code == 3  # no store there
    run = lexgraph("mcp", "--http", "0.0.0.0:8765", "--allow-remote", store=tmp_path / "none",
                   env={"LEXGRAPH_MCP_TOKEN": TOKEN})
    assert "warning" not in run.stderr and run.code == 3
