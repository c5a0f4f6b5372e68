"""The package root is lexgraph's public face: `LexGraph`, its options, the values its methods return
and every error they raise, all importable from `lexgraph` itself, as httpx's root exports its client, models and
exceptions. The names are imported lazily, and importing the root loads no engine (tests/test_architecture.py)."""

from __future__ import annotations

import inspect
import re

import pytest

import lexgraph
from lexgraph import LexGraph, errors

#: An exception named in backquotes in a docstring, after the first "raise".
NAMED = re.compile(r"`([A-Z][A-Za-z0-9]*)`")


@pytest.mark.parametrize("name", lexgraph.__all__)
def test_every_public_name_imports_from_the_root(name: str) -> None:
    value = getattr(lexgraph, name)
    assert value is not None
    namespace: dict[str, object] = {}
    exec(f"from lexgraph import {name}", namespace)  # the form a user writes
    assert namespace[name] is value


def test_the_root_exports_the_whole_error_tree_and_the_client() -> None:
    tree = {name for name in errors.__all__ if not name.startswith("EXIT_")}
    assert tree <= set(lexgraph.__all__)
    assert {"LexGraph", "SearchOptions", "AskOptions", "ProvisionAsOf", "SearchResult", "Answer", "Citation"} <= set(
        lexgraph.__all__)
    assert lexgraph.NotInForce is errors.NotInForce  # the one class, raised by the readers themselves


def public_methods() -> list[tuple[str, str]]:
    return [(name, inspect.getdoc(member) or "") for name, member in inspect.getmembers(LexGraph)
            if not name.startswith("_") and callable(member)]


def documented_errors(doc: str) -> set[str]:
    raised = doc.lower().find("raise")
    return set() if raised < 0 else set(NAMED.findall(doc[raised:]))


@pytest.mark.parametrize(("method", "doc"), public_methods(), ids=[m for m, _ in public_methods()])
def test_every_error_a_method_documents_is_importable_from_the_root(method: str, doc: str) -> None:
    for name in documented_errors(doc) - {"LexGraph"}:
        assert name in lexgraph.__all__, f"LexGraph.{method} documents `{name}`, which `lexgraph` does not export"
        assert issubclass(getattr(lexgraph, name), errors.LexGraphError), name
    # and none documents a bare built-in where the tree has a class
    for builtin in ("ValueError", "RuntimeError", "LookupError"):
        assert not re.search(rf"\b{builtin}\b", doc), f"LexGraph.{method} documents a bare {builtin}"


def test_the_methods_document_their_errors() -> None:
    """The check above would pass on docstrings that name no error: most public methods do name theirs."""
    named = [method for method, doc in public_methods() if documented_errors(doc)]
    assert {"open", "show", "law", "search", "ask", "query", "neighbourhood"} <= set(named)


def test_the_client_module_holds_lexgraph_alone() -> None:
    """`lexgraph.client` is `LexGraph` and nothing else: no pass-throughs beside it. Every public name
    it holds is imported from the module that owns it, so a user imports from the root or from that module."""
    from lexgraph import client

    assert client.__all__ == ["LexGraph"]
    defined_here = [name for name, value in vars(client).items()
                    if not name.startswith("_") and getattr(value, "__module__", None) == "lexgraph.client"]
    assert defined_here == ["LexGraph"]


def test_as_of_has_one_type_and_one_default() -> None:
    """One meaning of `as_of` across the public API: a `datetime.date` or None, None by default; what
    None reads (today's wording, or every wording) is the rule each method's docstring states."""
    with_as_of = {name: inspect.signature(member).parameters["as_of"]
                  for name, member in inspect.getmembers(LexGraph)
                  if not name.startswith("_") and callable(member) and "as_of" in inspect.signature(member).parameters}
    expected = {"show", "cites", "cited_by", "cite", "ask", "search", "documents_citing", "neighbourhood"}
    assert expected <= set(with_as_of)
    assert {name: (str(p.annotation), p.default) for name, p in with_as_of.items()} == {
        name: ("date | None", None) for name in with_as_of}
    for name in with_as_of:
        doc = inspect.getdoc(getattr(LexGraph, name)) or ""
        assert "None" in doc or "today" in doc, f"LexGraph.{name} does not say what as_of None reads"
