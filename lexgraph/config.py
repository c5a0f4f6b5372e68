"""Where the store is and how to reach the model: flag > environment > ``lexgraph.toml`` > default (DESIGN §5)."""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from lexgraph.errors import ConfigurationError

DEFAULT_STORE = "lexgraph-store"
CONFIG_FILE = "lexgraph.toml"


ConfigError = ConfigurationError  # its name before the error tree (issue 36)


class StoreLocationError(ConfigurationError):
    """A store location that names no store: a scheme that is not a store's (``http://``), a Neo4j URI without a
    host or with a port out of range. A usage error (exit 2), raised before anything is opened or created."""


NEO4J_URI_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")
"""Locations with these schemes are Neo4j servers (``+s``: TLS; ``+ssc``: TLS, self-signed certificate accepted);
a location without a scheme is a directory holding an embedded store."""

_SCHEME = re.compile(r"^\s*([A-Za-z][A-Za-z0-9+.-]*)://")


@dataclass(frozen=True)
class StoreLocation:
    """A parsed store location: `text` as given (stripped), and the backend it names."""

    text: str
    backend: str  # "neo4j" or "embedded"


def parse_store_location(location: str, *, named_by: str = "the store location") -> StoreLocation:
    """The one reading of a store location, for --store, LEXGRAPH_STORE, lexgraph.toml and ``copy --to`` alike:
    a Neo4j URI (a host, a port within 1–65535) or a directory. Anything else with a ``scheme://`` is refused
    (`StoreLocationError`), so that ``http://127.0.0.1:7474`` is not taken for a folder ``./http:/127.0.0.1:7474``.
    `named_by` says where the location came from, for the message."""
    text = location.strip()
    if not text:
        raise StoreLocationError(f"{named_by} is empty; give a directory or a bolt:// URI")
    scheme = _SCHEME.match(text)
    if scheme is None:
        return StoreLocation(text if text == location else location, "embedded")
    name = scheme.group(1).lower()
    if name not in NEO4J_URI_SCHEMES:
        raise StoreLocationError(
            f"{named_by} {text!r} is not a store: {name}:// names no store; give a directory, or a Neo4j URI "
            f"({', '.join(s + '://' for s in NEO4J_URI_SCHEMES)}) with the Bolt port (7687 by default, not the "
            f"HTTP port 7474 of Neo4j Browser)")
    parts = urlsplit(text)
    if not parts.hostname:
        raise StoreLocationError(f"{named_by} {text!r} names no host; write it as {name}://HOST:7687")
    try:
        port = parts.port
    except ValueError:
        port = -1
    if port is not None and not 1 <= port <= 65535:
        raise StoreLocationError(f"{named_by} {text!r} has a port outside 1–65535; the Bolt port is 7687 by "
                                 f"default")
    return StoreLocation(text, "neo4j")


def _file_settings(directory: Path | None = None) -> dict[str, object]:
    path = (directory or Path.cwd()) / CONFIG_FILE
    if not path.is_file():
        return {}
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as err:
        raise ConfigurationError(f"{path}: cannot be read as TOML ({err}); fix or remove it") from None


def store_location(flag: str | None) -> str:
    """The store: ``--store`` > ``LEXGRAPH_STORE`` > ``store = "…"`` in lexgraph.toml > ./lexgraph-store."""
    if flag:
        parse_store_location(flag, named_by="--store")
        return flag
    if os.environ.get("LEXGRAPH_STORE"):
        parse_store_location(os.environ["LEXGRAPH_STORE"], named_by="LEXGRAPH_STORE")
        return os.environ["LEXGRAPH_STORE"]
    configured = _file_settings().get("store")
    if isinstance(configured, str) and configured:
        parse_store_location(configured, named_by=f"store in {CONFIG_FILE}")
        return configured
    return DEFAULT_STORE


def store_exists(location: str) -> bool:
    """Whether there is a store to read at `location` (a location string, as `store_location` gives): a Neo4j URI
    is taken as one (the server says otherwise when it is opened); a directory must exist."""
    return parse_store_location(location).backend == "neo4j" or Path(location).exists()


def sync_cache_dir(location: str) -> Path:
    """Where `sync` keeps e-Gov's answers for the store at `location`: ``egov-cache`` in the store folder, or for a
    Neo4j store (no folder of its own) ``$XDG_CACHE_HOME/lexgraph/egov/<host_port>`` (``~/.cache`` by default),
    named without credentials."""
    if parse_store_location(location).backend == "neo4j":
        parts = urlsplit(location.strip())
        where = f"{parts.hostname or 'localhost'}_{parts.port or 7687}"
        root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        return root / "lexgraph" / "egov" / where
    return Path(location) / "egov-cache"


def turn_log_file() -> Path:
    """The turn log of `ask` and the knowledge interview: ``LEXGRAPH_TURN_LOG``, else ``turns.jsonl`` in the user's
    data folder (``$XDG_DATA_HOME/lexgraph``, ``~/.local/share/lexgraph`` by default). Not in the store, nor beside
    it: asking is reading, and a read never writes to the store (a read-only store, a server, a copy shared by
    several users all stay as they are); the log is the user's own record of what they asked."""
    if os.environ.get("LEXGRAPH_TURN_LOG"):
        return Path(os.environ["LEXGRAPH_TURN_LOG"]).expanduser()
    root = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return root / "lexgraph" / "turns.jsonl"
def settings_table(name: str) -> dict[str, object]:
    """The ``[name]`` table of lexgraph.toml in the current folder ({} when there is none), for settings read as
    flag > environment > file > default by the module that owns them."""
    table = _file_settings().get(name)
    if table is None:
        return {}
    if not isinstance(table, dict):
        raise ConfigurationError(f"{CONFIG_FILE}: [{name}] is not a table; write it as [{name}] followed by "
                                 f"key = value lines")
    return table
