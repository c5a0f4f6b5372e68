"""docs/architecture.md, claim by claim, against the code.

A page that explains the code is only worth reading while it is true. Each row of `CLAIMS` holds words of the page
(found there, whitespace aside, so that a reworded claim needs its check looked at again) and a check that reads
the code, imports it or runs it. None is expected to fail: a claim the code does not bear out is a wrong page or
wrong code, and either is fixed before it lands.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import json
import re
import subprocess
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.test_architecture import GRAPH, HEAVY, LAYERS, MODULES, PACKAGE, RANK, package_of

ROOT = PACKAGE.parent
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def _flat(text: str) -> str:
    return " ".join(text.split())


def _tree(module: str) -> ast.Module:
    return ast.parse(MODULES[module].read_text(encoding="utf-8"))


def _diagram() -> list[str]:
    """The first token(s) of each line of the layer drawing: the packages, top to bottom."""
    block = DOC.split("```", 2)[1]
    names = []
    for line in block.splitlines():
        if "│" not in line:
            continue
        content = line.split("│")[1]
        for token in content.split():
            match = re.fullmatch(r"(lexgraph/__init__):?|([a-z_]+)/|([a-z_]+)\.py", token)
            if match is None:
                break
            names.append("<root>" if match.group(1) else match.group(2) or match.group(3))
    return names


# -- the checks --------------------------------------------------------------------------------------------------

def layers_drawn_as_tested() -> None:
    drawn = _diagram()
    assert set(RANK) - {"__main__"} == set(drawn), "the drawing and tests/test_architecture.py's LAYERS differ"
    ranks = [RANK[name] for name in drawn]
    assert ranks == sorted(ranks), f"the drawing's order is not the layers' order: {drawn}"


def every_package_has_its_line() -> None:
    table = DOC.split("## One line per package", 1)[1].split("\n## ", 1)[0]
    named = set()
    for row in table.splitlines():
        if row.startswith("| `"):
            for token in re.findall(r"`([a-z_]+)(?:/|\.py)`", row.split("|")[1]):
                named.add("<root>" if token == "__init__" else token)
    assert named == set(RANK) - {"__main__"}


def errors_import_nothing_of_lexgraph() -> None:
    assert GRAPH["lexgraph.errors"] == []


def the_error_tree_and_its_exit_codes() -> None:
    from lexgraph import errors

    for branch, code in (("InputError", 1), ("NotFound", 1), ("ConfigurationError", 2), ("Unavailable", 3)):
        cls = getattr(errors, branch)
        assert cls.__bases__[0] is errors.LexGraphError and cls.exit_code == code, branch


def named_errors_subclass_their_branch() -> None:
    """The classes the page names as kept apart are in the tree, below the branch their meaning is, and carry what
    the page says a caller reads."""
    from lexgraph import errors

    for name, branch in (("EgovNotFound", errors.NotFound), ("LLMTimeout", errors.ModelUnavailable),
                         ("DatasetError", errors.InputError), ("StatuteXmlError", errors.InputError),
                         ("RetriesExhausted", errors.ModelUnavailable), ("QueryRefused", errors.InputError),
                         ("NotInForce", errors.NotFound), ("ClauseUnplaced", errors.InputError),
                         ("OutputFailed", errors.InputError)):
        assert issubclass(getattr(errors, name), branch), name
    for name, attribute in (("StatuteXmlError", "line"), ("RetriesExhausted", "attempts"),
                            ("QueryRefused", "clause"), ("NotInForce", "answer")):
        assert attribute in _assigned_attributes(name), (name, attribute)


def _assigned_attributes(name: str) -> set[str]:
    """The attributes `lexgraph.errors.<name>` sets on itself (``self.x = …`` in its methods)."""
    cls = next(node for node in ast.walk(_tree("lexgraph.errors"))
               if isinstance(node, ast.ClassDef) and node.name == name)
    return {target.attr for node in ast.walk(cls) if isinstance(node, ast.Assign | ast.AnnAssign)
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
            if isinstance(target, ast.Attribute) and getattr(target.value, "id", None) == "self"}


def _exception_classes_outside_errors() -> list[str]:
    import builtins

    exceptions = {name for name in dir(builtins) if name.endswith(("Error", "Exception", "Exit", "Warning"))}
    exceptions |= {node.name for node in ast.walk(_tree("lexgraph.errors")) if isinstance(node, ast.ClassDef)}
    outside: list[str] = []
    grown = True
    while grown:  # subclasses of subclasses, across modules
        grown = False
        for module in MODULES:
            if module == "lexgraph.errors":
                continue
            for node in ast.walk(_tree(module)):
                if not isinstance(node, ast.ClassDef) or f"{module}.{node.name}" in outside:
                    continue
                bases = {b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute) else ""
                         for b in node.bases}
                if bases & exceptions:
                    outside.append(f"{module}.{node.name}")
                    exceptions.add(node.name)
                    grown = True
    return sorted(outside)


def every_error_class_in_errors_py() -> None:
    assert _exception_classes_outside_errors() == []


def _in_cli(module: str) -> bool:
    """`lexgraph.cli` or a module under it (not `lexgraph.client`, which shares the prefix)."""
    return module == "lexgraph.cli" or module.startswith("lexgraph.cli.")


def no_command_calls_fail() -> None:
    calls = [f"{module}:{node.lineno}" for module in MODULES if _in_cli(module)
             for node in ast.walk(_tree(module))
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "fail"]
    assert calls == []


def the_cli_imports_only_the_root() -> None:
    reached = [f"{module} imports {target}" for module, targets in GRAPH.items() if _in_cli(module)
               for target, _ in targets
               if target not in ("lexgraph", "lexgraph.errors") and not _in_cli(target)]
    assert reached == []


def the_cli_never_imports_the_client() -> None:
    assert [m for m, targets in GRAPH.items() if _in_cli(m)
            for t, _ in targets if t == "lexgraph.client"] == []


def commands_run_inside_the_one_handler() -> None:
    withs = [item.context_expr.func.id for node in ast.walk(_tree("lexgraph.cli")) if isinstance(node, ast.With)
             for item in node.items
             if isinstance(item.context_expr, ast.Call) and isinstance(item.context_expr.func, ast.Name)]
    assert "library_errors" in withs
    from lexgraph.cli.output import library_errors

    assert callable(library_errors)


def _in_fresh_interpreter(code: str) -> object:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def importing_the_faces_loads_no_engine() -> None:
    from lexgraph.cli import COMMANDS

    loaded = _in_fresh_interpreter(
        "import sys, json, lexgraph, lexgraph.cli, lexgraph.client, lexgraph.retrieve.modes\n"
        "print(json.dumps(sorted(m for m in sys.modules)))")
    assert isinstance(loaded, list)
    heavy = [m for m in loaded if m.split(".")[0] in HEAVY]
    commands = [module for _, module, *_ in COMMANDS if module in loaded]
    assert heavy == [] and commands == [], (heavy, commands)


def the_commands_table() -> None:
    from lexgraph.cli import COMMANDS

    for name, module, attribute, line in COMMANDS:
        assert module in MODULES, name
        defined = {n.name for n in _tree(module).body if isinstance(n, ast.FunctionDef)} | {
            t.id for n in _tree(module).body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
        assert attribute in defined and line.strip(), name


def large_precedent_patterns_compiled_on_first_use() -> None:
    sizes = _in_fresh_interpreter(
        "import json\nfrom lexgraph.citations import precedents as p\n"
        "print(json.dumps([f.cache_info().currsize for f in (p._citation_re, p._dateless_re, p._context_re)]))")
    assert sizes == [0, 0, 0]


def modes_are_registered_with_lazy_builders() -> None:
    from lexgraph.retrieve.modes import BUILT_IN, SearchMode

    fields = {field.name for field in dataclasses.fields(SearchMode)}
    assert {"model", "embeds_question", "index", "whole", "compared", "builder"} <= fields
    assert callable(SearchMode.needs_model)
    for mode in BUILT_IN:
        module, _, function = mode.builder.partition(":")
        assert module in MODULES, mode.name
        assert function in {n.name for n in _tree(module).body if isinstance(n, ast.FunctionDef)}, mode.name
    from lexgraph.retrieve.modes import compared_modes

    assert set(compared_modes()) <= {mode.name for mode in BUILT_IN}


def passes_are_named_and_ordered_as_shown() -> None:
    from lexgraph.citations.statute_passes import STATUTE_PASSES

    names = [type(p).__name__ for p in STATUTE_PASSES]
    shown = re.search(r"STATUTE_PASSES = \((.*?)\)\n", DOC, re.S)
    assert shown is not None and re.findall(r"(\w+)\(\)", shown.group(1)) == names
    assert names.index("Appendices") < names.index("ClauseChains")
    assert len({p.name for p in STATUTE_PASSES}) == len(names)
    for p in STATUTE_PASSES:
        assert list(inspect.signature(p.run).parameters) == ["scan", "finding"], p.name


def _store_classes() -> dict[str, dict[str, str]]:
    found: dict[str, dict[str, str]] = {}
    for module in MODULES:
        if not module.startswith("lexgraph.store."):
            continue
        for node in _tree(module).body:
            if isinstance(node, ast.ClassDef) and any(getattr(b, "id", None) == "GraphStore" for b in node.bases):
                found[node.name] = {t.id: n.value.value for n in node.body if isinstance(n, ast.Assign)
                                    for t in n.targets if isinstance(t, ast.Name)
                                    and isinstance(n.value, ast.Constant)}
    return found


def backends_declare_what_they_are() -> None:
    from lexgraph.index.backends import BACKENDS
    from lexgraph.store.base import load_migrations, load_named_query

    classes = _store_classes()
    assert classes, "no GraphStore subclass found"
    dialects = set()
    for name, attributes in classes.items():
        assert {"backend", "dialect", "index_kind"} <= attributes.keys(), name
        assert attributes["index_kind"] in BACKENDS, name
        dialects.add(attributes["dialect"])
    histories = {d: [(m.version, m.name) for m in load_migrations(d)] for d in dialects}
    assert len({tuple(h) for h in histories.values()}) == 1, "the dialects' migrations differ in number or name"
    shared = {p.stem for p in (PACKAGE / "cypher").glob("*.cypher")}
    for dialect in dialects:
        for own in (PACKAGE / "cypher" / dialect).glob("*.cypher"):
            if own.stem in shared:
                assert load_named_query(own.stem, dialect) == own.read_text(encoding="utf-8"), own


def nothing_above_the_store_asks_its_name() -> None:
    asking = []
    for module in MODULES:
        package = package_of(module)
        if package in ("store", "cli", "__main__") or RANK[package] >= RANK["store"]:
            continue
        for node in ast.walk(_tree(module)):
            if isinstance(node, ast.Compare):
                for side in (node.left, *node.comparators):
                    if isinstance(side, ast.Attribute) and side.attr in ("backend", "dialect"):
                        asking.append(f"{module}:{node.lineno}")
    assert asking == []


def one_decider_of_server_locations() -> None:
    from lexgraph.config import is_server_location

    assert is_server_location("bolt://h:7687") and not is_server_location("store")
    names = {n.id for n in ast.walk(_tree("lexgraph.store")) if isinstance(n, ast.Name)}
    assert "is_server_location" in names


def styles_have_templates_and_are_enforced() -> None:
    from lexgraph import AskOptions, ConfigurationError
    from lexgraph.answer.prompts import STYLES

    for style in STYLES:
        assert (PACKAGE / "answer" / "templates" / f"style_{style.replace('-', '_')}.txt").is_file(), style
    with pytest.raises(ConfigurationError):
        AskOptions(prompt_style="not-a-style")


def reporters_and_courts_are_data() -> None:
    reader = MODULES["lexgraph.citations.court_names"].read_text(encoding="utf-8")
    for name in ("reporters.json", "courts.json"):
        assert (PACKAGE / "data" / name).is_file() and f'"{name}"' in reader, name


def one_as_of_type() -> None:
    from lexgraph import LexGraph
    from lexgraph.model import ANY_WORDING, as_of_day

    assert callable(as_of_day) and ANY_WORDING is not None
    for method in ("show", "cites", "cited_by", "cite", "cite_pieces", "ask", "search", "documents_citing",
                   "neighbourhood"):
        parameter = inspect.signature(getattr(LexGraph, method)).parameters["as_of"]
        assert parameter.default is None and str(parameter.annotation).replace(" ", "") in ("date|None",
                                                                                           "Optional[date]"), method


def the_client_is_lexgraph_alone() -> None:
    public = [n.name for n in _tree("lexgraph.client").body
              if isinstance(n, ast.ClassDef | ast.FunctionDef) and not n.name.startswith("_")]
    assert public == ["LexGraph"]


def insert_transactions_refuse_other_writes(tmp_path: Path) -> None:
    from lexgraph.store.base import GraphStore
    from lexgraph.store.embedded import EmbeddedStore

    assert callable(GraphStore.transaction) and callable(GraphStore.insert_transaction)
    store = EmbeddedStore(tmp_path / "store")
    try:
        store.migrate()
        with pytest.raises(TypeError), store.insert_transaction() as tx:
            tx.upsert_nodes("Law", [{"law_id": "x", "title": "x"}])
    finally:
        store.close()


def queries_and_migrations_are_package_data() -> None:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    shipped = data["tool"]["setuptools"]["package-data"]["lexgraph"]
    assert {"cypher/*.cypher", "cypher/*/*.cypher", "migrations/*/*.cypher"} <= set(shipped)
    assert "resources.files" in MODULES["lexgraph.store.base"].read_text(encoding="utf-8")


def every_file_named_exists() -> None:
    everywhere = {p.name for p in PACKAGE.rglob("*") if p.is_file()}
    missing = []
    for token in set(re.findall(r"`([^`\s]+)`", DOC)):
        token = token.rstrip("/")
        if (re.search(r"[<>*{}:]", token) or token.startswith(".")  # a pattern, or a suffix (`.cypher`)
                or not re.search(r"/|\.(py|cypher|json|txt|md|toml)$", token)):
            continue
        path, _, attribute = token.partition(".py.") if ".py." in token else (token, "", "")
        if re.fullmatch(r"[a-z_]+/[a-z_]+\.[A-Za-z_]+", token) and not token.endswith((".py", ".json", ".txt", ".md")):
            path, attribute = token.rsplit(".", 1)[0] + ".py", token.rsplit(".", 1)[1]  # module.name
        candidates = [ROOT / path, PACKAGE / path, ROOT / "docs" / path]
        found = any(c.exists() for c in candidates) or Path(path).name in everywhere
        named = not attribute or any(c.is_file() and re.search(rf"\b{attribute}\b", c.read_text("utf-8"))
                                     for c in candidates)
        if not (found and named):
            missing.append(token)
    assert sorted(missing) == []


def facades_one_class_a_module() -> None:
    """Each module of `api/` but the session defines one public class, and `LexGraph` hands each facade out."""
    from lexgraph.client import LexGraph

    facades = []
    for module in MODULES:
        if module.startswith("lexgraph.api.") and module != "lexgraph.api.session":
            public = [n.name for n in _tree(module).body if isinstance(n, ast.ClassDef) and not n.name.startswith("_")]
            assert len(public) == 1, (module, public)
            facades.append(public[0])
    assert len(facades) >= 10
    handed = {node.value.func.id for node in ast.walk(_tree("lexgraph.client"))
              if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
              and isinstance(node.value.func, ast.Name)}
    assert set(facades) <= handed, set(facades) - handed
    assert callable(LexGraph.search)


def every_table_is_a_registry() -> None:
    from lexgraph.answer.agents import METHOD_REGISTRY
    from lexgraph.citations.extractors import EXTRACTOR_REGISTRY
    from lexgraph.index.backends import BACKENDS
    from lexgraph.index.embed import EMBEDDERS
    from lexgraph.registry import Registry
    from lexgraph.retrieve.modes import MODE_REGISTRY

    for table in (MODE_REGISTRY, BACKENDS, EMBEDDERS, EXTRACTOR_REGISTRY, METHOD_REGISTRY):
        assert isinstance(table, Registry)
        assert list(table.names()) == list(table)


def rows_are_declared_once() -> None:
    from lexgraph.store.rows import QUERIES

    names = [query.name for query in QUERIES]
    assert len(names) == len(set(names))
    shipped = {p.stem for p in (PACKAGE / "cypher").rglob("*.cypher")}
    assert set(names) <= shipped
    for query in QUERIES:
        assert issubclass(query.row, tuple) and hasattr(query.row, "_fields"), query.name  # a NamedTuple


def ranked_by_only_when_another_mode_ranked() -> None:
    """`SearchResult.to_json` carries `ranked_by` only when it is set, and the search takes it from a stand-in."""
    from lexgraph.retrieve.search import SearchResult, search

    assert "ranked_by" in {field.name for field in dataclasses.fields(SearchResult)}
    source = inspect.getsource(SearchResult.to_json)
    assert "ranked_by" in source and "is not None" in source
    assert "StandInRetriever" in inspect.getsource(search)


# -- the table -----------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Claim:
    says: str  # words of the page
    check: Callable[..., None]


CLAIMS = (
    Claim("Every package of `lexgraph` imports only packages below it.", layers_drawn_as_tested),
    Claim("## One line per package", every_package_has_its_line),
    Claim("imports nothing of lexgraph, so every layer raises from it", errors_import_nothing_of_lexgraph),
    Claim("(`LexGraphError` → `InputError`, `NotFound`, `ConfigurationError`, `Unavailable`)",
          the_error_tree_and_its_exit_codes),
    Claim("(1 bad input or not found, 2 usage, 3 unavailable)", the_error_tree_and_its_exit_codes),
    Claim("a class below a branch exists only where a caller must tell it apart from the branch",
          named_errors_subclass_their_branch),
    Claim("`errors.py` is the bottom layer, so every layer raises from one tree", every_error_class_in_errors_py),
    Claim("Every exception class lexgraph defines is in `lexgraph/errors.py`, under `LexGraphError`",
          every_error_class_in_errors_py),
    Claim("Errors are not mapped per command", no_command_calls_fail),
    Claim("`cli/` and the MCP server (`cli/mcp_server/`) import only the package root", the_cli_imports_only_the_root),
    Claim("the error tree (`lexgraph.errors`) and `lexgraph.cli`'s own modules", the_cli_never_imports_the_client),
    Claim("the command group runs every command, and the check of its arguments, inside `cli/output.py`'s "
          "`library_errors`", commands_run_inside_the_one_handler),
    Claim("At import time, neither `lexgraph`, `lexgraph.cli` nor `lexgraph.client` loads numpy",
          importing_the_faces_loads_no_engine),
    Claim("A command's module is imported only when that command runs", importing_the_faces_loads_no_engine),
    Claim("its line in `COMMANDS`: name, module, function (or `app` for a group)", the_commands_table),
    Claim("the precedent grammar's three large patterns (`citations/precedents.py`, about 0.1 s to compile: long "
          "alternations of court seats and reporters) are compiled on first use",
          large_precedent_patterns_compiled_on_first_use),
    Claim("`lexgraph/retrieve/modes.py` is the one registry of search modes.", modes_are_registered_with_lazy_builders),
    Claim("names its builder as `\"module:function\"`, imported only when a retriever is built",
          modes_are_registered_with_lazy_builders),
    Claim("A pass is a small stateless object with a `name` and `run(scan, finding)`",
          passes_are_named_and_ordered_as_shown),
    Claim("`Appendices` runs before `ClauseChains`", passes_are_named_and_ordered_as_shown),
    Claim("what it *is* it declares in three class attributes", backends_declare_what_they_are),
    Claim("`cypher/<dialect>/<name>.cypher` wins over `cypher/<name>.cypher`", backends_declare_what_they_are),
    Claim("nothing above `store/` asks its name to decide anything", nothing_above_the_store_asks_its_name),
    Claim("`config.is_server_location` is the one place that tells a server from a directory",
          one_decider_of_server_locations),
    Claim("`AskOptions` refuses a name not in `STYLES` (a `ConfigurationError`, exit 2)",
          styles_have_templates_and_are_enforced),
    Claim("one entry of `lexgraph/data/reporters.json` or `lexgraph/data/courts.json` (read once by "
          "`citations/court_names.py`", reporters_and_courts_are_data),
    Claim("`as_of` has one type across `LexGraph`: a `datetime.date`, or None, the default.", one_as_of_type),
    Claim("`LexGraph` and nothing else", the_client_is_lexgraph_alone),
    Claim("The embedded store loads them with `COPY FROM` an Arrow table and refuses any other write there "
          "(`TypeError`).", insert_transactions_refuse_other_writes),
    Claim("They are package data: the stores read them with `importlib.resources`",
          queries_and_migrations_are_package_data),
    Claim("One facade per job, one class a module, all sharing one `Session`", facades_one_class_a_module),
    Claim("Every table that maps a name a user types to what it stands for is a `Registry`",
          every_table_is_a_registry),
    Claim("Every named query's columns are declared once, in `store/rows.py`", rows_are_declared_once),
    Claim("A mode that reads a kind only when it is there ranks as another mode without it and says so",
          ranked_by_only_when_another_mode_ranked),
    Claim("# Architecture: one house, layers that only look down", every_file_named_exists),
)


def _ids(claim: Claim) -> str:
    return claim.check.__name__


@pytest.mark.parametrize("claim", CLAIMS, ids=[f"{i}:{_ids(c)}" for i, c in enumerate(CLAIMS)])
def test_the_page_makes_the_claim(claim: Claim) -> None:
    assert _flat(claim.says) in _flat(DOC), "the page no longer says this: look at its check again"


@pytest.mark.parametrize("claim", CLAIMS, ids=[f"{i}:{_ids(c)}" for i, c in enumerate(CLAIMS)])
def test_the_code_bears_it_out(claim: Claim, tmp_path: Path) -> None:
    wants = inspect.signature(claim.check).parameters
    claim.check(**({"tmp_path": tmp_path} if "tmp_path" in wants else {}))


def test_every_layer_is_in_the_table_the_page_points_to() -> None:
    assert "tests/test_architecture.py" in DOC and len(LAYERS) >= 10
