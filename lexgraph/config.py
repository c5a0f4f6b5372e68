"""Where the store is and how to reach the model: flag > environment > ``lexgraph.toml`` > default (DESIGN §5)."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from lexgraph.errors import ConfigurationError

DEFAULT_STORE = "lexgraph-store"
CONFIG_FILE = "lexgraph.toml"


ConfigError = ConfigurationError  # its name before the error tree (issue 36)


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
        return flag
    if os.environ.get("LEXGRAPH_STORE"):
        return os.environ["LEXGRAPH_STORE"]
    configured = _file_settings().get("store")
    if isinstance(configured, str) and configured:
        return configured
    return DEFAULT_STORE
