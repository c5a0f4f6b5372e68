"""Whether a store location is a server (a Neo4j URI) or a directory is decided in one place,
`config.is_server_location`, for opening a store, telling whether one is there, `sync`'s cache and the CLI's
read-only choice alike: a second reading elsewhere could take one location for a server in one command and a
folder in another."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lexgraph.config import NEO4J_URI_SCHEMES, is_server_location, store_exists, sync_cache_dir
from lexgraph.errors import ConfigurationError

PACKAGE = Path(__file__).parents[1] / "lexgraph"


@pytest.mark.parametrize(("location", "server"), [
    ("lexgraph-store", False), ("./bolt", False), ("/tmp/neo4j", False), ("C:/stores/a", False),
    ("bolt://127.0.0.1:7687", True), ("  neo4j://db.example:7687  ", True), ("bolt+s://h", True),
    ("NEO4J+SSC://h:1", True), ("bolt://user:secret@h:7687", True),
])
def test_a_location_is_a_server_or_a_directory(location: str, server: bool, tmp_path: Path) -> None:
    assert is_server_location(location) is server
    assert store_exists(location) is server  # no such folder here: only a server is taken as there
    assert (sync_cache_dir(location).name != "egov-cache") is server


@pytest.mark.parametrize("location", ["http://127.0.0.1:7474", "bolt://", "neo4j://h:99999", "  "])
def test_a_location_that_names_no_store_is_refused(location: str) -> None:
    with pytest.raises(ConfigurationError):
        is_server_location(location)


@given(scheme=st.sampled_from([*NEO4J_URI_SCHEMES, "http", "https", "file", "s3"]),
       host=st.from_regex(r"[a-z][a-z0-9.-]{0,20}", fullmatch=True), port=st.integers(1, 65535))
def test_only_neo4j_schemes_name_a_server(scheme: str, host: str, port: int) -> None:
    location = f"{scheme}://{host}:{port}"
    if scheme in NEO4J_URI_SCHEMES:
        assert is_server_location(location)
    else:
        with pytest.raises(ConfigurationError):
            is_server_location(location)


def _readings(tree: ast.AST) -> list[int]:
    """Lines that read a parsed location's backend (``parse_store_location(…).backend``) or call the old
    per-package helpers."""
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr == "backend" and isinstance(node.value, ast.Call)
                and getattr(node.value.func, "id", None) == "parse_store_location"):
            found.append(node.lineno)
        if isinstance(node, ast.FunctionDef) and node.name in ("is_neo4j_uri",):
            found.append(node.lineno)
    return found


def test_the_decision_is_made_only_in_config() -> None:
    readings = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        lines = _readings(tree)
        if path.name == "config.py" and path.parent == PACKAGE:
            decider = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "is_server_location")
            lines = [line for line in lines if not decider.lineno <= line <= (decider.end_lineno or 0)]
        if lines:
            readings[str(path.relative_to(PACKAGE.parent))] = lines
    assert readings == {}, f"decide server or directory with config.is_server_location: {readings}"
