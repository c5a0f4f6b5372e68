"""Where the store is, how much memory its engine may use and how to reach the model: flag > environment >
``lexgraph.toml`` > default."""

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
    (`ConfigurationError`), so that ``http://127.0.0.1:7474`` is not taken for a folder ``./http:/127.0.0.1:7474``.
    `named_by` says where the location came from, for the message."""
    text = location.strip()
    if not text:
        raise ConfigurationError(f"{named_by} is empty; give a directory or a bolt:// URI")
    scheme = _SCHEME.match(text)
    if scheme is None:
        return StoreLocation(text if text == location else location, "embedded")
    name = scheme.group(1).lower()
    if name not in NEO4J_URI_SCHEMES:
        raise ConfigurationError(
            f"{named_by} {text!r} is not a store: {name}:// names no store; give a directory, or a Neo4j URI "
            f"({', '.join(s + '://' for s in NEO4J_URI_SCHEMES)}) with the Bolt port (7687 by default, not the "
            f"HTTP port 7474 of Neo4j Browser)")
    parts = urlsplit(text)
    if not parts.hostname:
        raise ConfigurationError(f"{named_by} {text!r} names no host; write it as {name}://HOST:7687")
    try:
        port = parts.port
    except ValueError:
        port = -1
    if port is not None and not 1 <= port <= 65535:
        raise ConfigurationError(f"{named_by} {text!r} has a port outside 1–65535; the Bolt port is 7687 by "
                                 f"default")
    return StoreLocation(text, "neo4j")


def is_server_location(location: str) -> bool:
    """Whether a store location names a server (a Neo4j URI) rather than a directory holding an embedded store:
    the one place that decides it, for opening a store, telling whether there is one to read, where `sync` keeps
    its cache and whether a command may open the store read-only. Raises `ConfigurationError` (exit 2) for a
    location that names no store (``http://…``)."""
    return parse_store_location(location).backend == "neo4j"


def positive_env(variable: str) -> int | None:
    """The positive whole number in environment variable `variable`, or None when it is unset or empty; anything
    else is a `ConfigurationError` naming the variable (a limit set by mistake must not silently become another)."""
    text = os.environ.get(variable, "").strip()
    if not text:
        return None
    if not text.isdecimal() or int(text) <= 0:
        raise ConfigurationError(f"{variable}={text!r} is not a positive whole number; unset it for the default")
    return int(text)


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
    return is_server_location(location) or Path(location).exists()


def sync_cache_dir(location: str) -> Path:
    """Where `sync` keeps e-Gov's answers for the store at `location`: ``egov-cache`` in the store folder, or for a
    Neo4j store (no folder of its own) ``$XDG_CACHE_HOME/lexgraph/egov/<host_port>`` (``~/.cache`` by default),
    named without credentials."""
    if is_server_location(location):
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


# -- the embedded engine's buffer pool ------------------------------------------------------------------------------
BUFFER_POOL_ENV = "LEXGRAPH_BUFFER_POOL"
BUFFER_POOL_SHARE = 0.25
"""The share of the memory available when a store is opened that its buffer pool may fill by default. The pool
only caps the engine's page cache and query memory (it grows as used), and a quarter leaves the rest to the
search index, the embedder and other processes; LadybugDB's own default, 80% of RAM, starved them."""
BUFFER_POOL_MIN = 256 << 20
"""The default's floor: what the bounded read queries need on the whole 8,502-law archive, with room to spare."""
BUFFER_POOL_MAX = 8 << 30
"""The default's ceiling: more than the whole-archive store needs to keep its hot pages cached."""
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(i?B?)?\s*$", re.IGNORECASE)
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


@dataclass(frozen=True)
class BufferPool:
    """The embedded store's buffer pool: its `size` in bytes and where that came from (`source`: the flag, the
    environment variable, lexgraph.toml or the machine), so that a message about it names the setting to change."""

    size: int
    source: str

    @property
    def label(self) -> str:
        return format_size(self.size)


def format_size(size: int) -> str:
    """Bytes as a person writes them (1.5 GiB, 256 MiB), in the form `parse_size` reads back."""
    for unit, factor in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= factor:
            return f"{size / factor:.1f}".removesuffix(".0") + f" {unit}"
    return f"{size} B"


def parse_size(text: str | int, *, named_by: str) -> int:
    """A memory size: bytes (``1073741824``) or a number with a binary unit (``4GiB``, ``4G``, ``512MiB``, ``1.5g``;
    K, M, G and T are powers of 1024). Raises `ConfigurationError` naming `named_by` and the form to write."""
    if isinstance(text, int) and not isinstance(text, bool):
        size = text
    else:
        match = _SIZE.match(str(text))
        if match is None:
            raise ConfigurationError(f"{named_by} {text!r} is not a size; write it as 4GiB, 512MiB or a number of "
                                     f"bytes")
        size = int(float(match.group(1)) * _UNITS[match.group(2).upper()])
    if size < 16 << 20:  # LadybugDB 0.22 cannot open a store in 8 MiB
        raise ConfigurationError(f"{named_by} {text!r} is below 16MiB, too small for the engine to open a store; "
                                 f"give at least 256MiB")
    return size


def _pool_size(text: str | int, named_by: str) -> int:
    """`parse_size`, and no more than the machine has: the engine fails to allocate a larger pool with a bare
    "std::bad_alloc" that names no setting."""
    size = parse_size(text, named_by=named_by)
    total = physical_memory()
    if total is not None and size > total:
        raise ConfigurationError(f"{named_by} {text!r} is more than this machine's {format_size(total)} of memory; "
                                 f"give at most {format_size(total).replace(' ', '')}")
    return size


def physical_memory() -> int | None:
    """Bytes of physical memory of this machine, or None where the system does not say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (OSError, ValueError, AttributeError):
        return None


def available_memory() -> int | None:
    """Bytes of memory available to a new process now (Linux's MemAvailable, else the free physical pages), or
    None where the system does not say."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, AttributeError):
        return None


def default_buffer_pool() -> int:
    """`BUFFER_POOL_SHARE` of the memory available now, within [`BUFFER_POOL_MIN`, `BUFFER_POOL_MAX`]; 1 GiB where
    the system does not say how much is available."""
    available = available_memory()
    if available is None:
        return 1 << 30
    return max(BUFFER_POOL_MIN, min(BUFFER_POOL_MAX, int(available * BUFFER_POOL_SHARE)))


def buffer_pool(flag: BufferPool | str | int | None = None, *, named_by: str = "--buffer-pool") -> BufferPool:
    """The embedded store's buffer pool: ``--buffer-pool`` (or what a caller gives, named `named_by`) >
    ``LEXGRAPH_BUFFER_POOL`` > ``buffer_pool = "4GiB"`` in lexgraph.toml > `default_buffer_pool` (a share of the
    memory available). A size that cannot be read is a `ConfigurationError` (exit 2) naming where it was written."""
    if isinstance(flag, BufferPool):
        return flag
    if flag is not None and flag != "":
        return BufferPool(_pool_size(flag, named_by), named_by)
    if os.environ.get(BUFFER_POOL_ENV):
        return BufferPool(_pool_size(os.environ[BUFFER_POOL_ENV], BUFFER_POOL_ENV), BUFFER_POOL_ENV)
    configured = _file_settings().get("buffer_pool")
    if isinstance(configured, str | int) and configured != "":
        where = f"buffer_pool in {CONFIG_FILE}"
        return BufferPool(_pool_size(configured, where), where)
    return BufferPool(default_buffer_pool(), f"the default ({BUFFER_POOL_SHARE:.0%} of the memory available, "
                                             f"{format_size(BUFFER_POOL_MIN)} to {format_size(BUFFER_POOL_MAX)})")
