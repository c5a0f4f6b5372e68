"""Who may talk to `lexgraph mcp --http`: the Host / Origin check and the bearer token (docs/security.md).

A server on loopback is reached by every program of the machine, and by every web page its browser shows: a page
of ``evil.example`` whose name the attacker re-points at 127.0.0.1 (DNS rebinding) sends its requests with
``Host: evil.example``. So a loopback server answers only a request whose ``Host`` (and ``Origin``, when a browser
sends one) names a loopback address, whatever way it is written: any case of ``localhost``, any address of
127.0.0.0/8, any spelling of ::1 (``[0:0:0:0:0:0:0:1]``), an IPv4-mapped ::ffff:127.x.y.z. The SDK's own check
compares the header with three fixed strings and is off for any other bind (``127.0.0.2``, ``LOCALHOST``): this
one is the server's only Host check, the same for every loopback bind.

A token, when one is configured, is required of every request (``Authorization: Bearer TOKEN``), compared in
constant time: it keeps out the other users and programs of a shared machine, which the Host check cannot.
"""

from __future__ import annotations

import hmac
import ipaddress
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from lexgraph import ConfigurationError

#: The environment variable a token is read from when no ``--token-file`` is given.
TOKEN_ENV = "LEXGRAPH_MCP_TOKEN"
#: A shorter token is refused: it could be guessed by a local program trying tokens.
MIN_TOKEN_CHARS = 16
TOKEN_HINT = "make one with: python -c 'import secrets; print(secrets.token_urlsafe(32))'"


def is_loopback(host: str) -> bool:
    """Whether `host` (a name or an address, IPv6 with or without brackets) is ``localhost`` in any case, an
    address of 127.0.0.0/8, ::1 in any spelling, or an IPv4-mapped loopback address. A name is never resolved:
    only ``localhost`` is trusted by name."""
    name = host.strip()
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    name = name.lower().removesuffix(".")
    if name == "localhost":
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback


def host_of(header: str) -> str | None:
    """The host of a ``Host`` header (``name``, ``name:port``, ``[v6]``, ``[v6]:port``); None for a header of no
    such form (a bare IPv6 address, a port that is not a number, a user part)."""
    if header.startswith("["):
        end = header.find("]")
        host, rest = header[1:end], header[end + 1:]
        if end < 0 or (rest and not (rest.startswith(":") and rest[1:].isdigit())):
            return None
        return host
    host, sep, port = header.partition(":")
    if not host or "@" in host or (sep and not port.isdigit()):
        return None
    return host


def origin_is_loopback(origin: str) -> bool:
    """Whether an ``Origin`` header is ``http(s)://`` a loopback host (``null``, another scheme, a user part: no)."""
    try:
        parts = urlsplit(origin)
        parts.port  # noqa: B018 - raises ValueError on a port that is not one
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or parts.username is not None or parts.path not in ("", "/"):
        return False
    return parts.hostname is not None and is_loopback(parts.hostname)


@dataclass(frozen=True)
class Guard:
    """The checks a request passes before the MCP app sees it: `loopback_only` (Host and Origin name loopback) and
    `token` (``Authorization: Bearer`` it, when set)."""

    loopback_only: bool
    token: str | None = None

    def refusal(self, headers: Headers) -> PlainTextResponse | None:
        """The answer to a request that fails a check, or None when it passes them all."""
        if self.loopback_only:
            host = host_of(headers.get("host", ""))
            if host is None or not is_loopback(host):
                return PlainTextResponse("Invalid Host header: this server answers only requests for a loopback "
                                         "address (127.0.0.1, ::1, localhost)", status_code=421)
            origin = headers.get("origin")
            if origin is not None and not origin_is_loopback(origin):
                return PlainTextResponse("Invalid Origin header: this server answers only pages of a loopback "
                                         "address", status_code=403)
        if self.token is not None:
            scheme, _, given = headers.get("authorization", "").partition(" ")
            if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(), self.token.encode()):
                return PlainTextResponse("Unauthorized: give the server's token as 'Authorization: Bearer TOKEN'",
                                         status_code=401, headers={"WWW-Authenticate": 'Bearer realm="lexgraph"'})
        return None

    def wrap(self, app: ASGIApp) -> ASGIApp:
        """`app` behind the checks; lifespan events pass through untouched."""

        async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] in ("http", "websocket"):
                refusal = self.refusal(Headers(scope=scope))
                if refusal is not None:
                    await refusal(scope, receive, send)
                    return
            await app(scope, receive, send)

        return guarded


def read_token(token_file: Path | None) -> str | None:
    """The token from `token_file`, else from ``LEXGRAPH_MCP_TOKEN``, else None (no token asked for). A file that
    others may read or anyone but its owner may write, an empty or short token, or one holding spaces or control
    characters (it could not be sent in a header) is refused with its source and the fix."""
    if token_file is not None:
        source = str(token_file)
        try:
            # Opened without blocking and checked before reading: a FIFO would otherwise hang the server's start.
            with open(os.open(token_file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb") as handle:
                info = os.fstat(handle.fileno())
                if not stat.S_ISREG(info.st_mode):
                    raise ConfigurationError(f"--token-file {token_file}: not a regular file; write the token "
                                             "into a file")
                if info.st_mode & 0o027:
                    raise ConfigurationError(f"--token-file {token_file}: others can read it or write it (mode "
                                     f"{stat.S_IMODE(info.st_mode):o}); chmod 600 {token_file}")
                raw = handle.read(4097)
        except OSError as error:
            raise ConfigurationError(f"--token-file {token_file}: cannot be read ({error.strerror})") from None
        try:
            token = raw.decode("ascii").strip()
        except UnicodeDecodeError:
            raise ConfigurationError(f"--token-file {token_file}: the token is not ASCII; {TOKEN_HINT}") from None
    else:
        source, token = TOKEN_ENV, os.environ.get(TOKEN_ENV, "").strip()
        if not token:
            return None
    if len(token) > 4096 or not token.isprintable() or " " in token or not token.isascii():
        raise ConfigurationError(f"{source}: the token must be one line of at most 4096 visible ASCII characters; "
                         f"{TOKEN_HINT}")
    if len(token) < MIN_TOKEN_CHARS:
        raise ConfigurationError(f"{source}: the token has {len(token)} characters, fewer than {MIN_TOKEN_CHARS}; "
                         f"{TOKEN_HINT}")
    return token
