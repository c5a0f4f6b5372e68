"""User Cypher is one read statement, on both backends, in the library as in the CLI.

Before: ``LexGraph.open(dir).query('RETURN 1; COMMIT; MATCH (l:Law) DETACH DELETE l')`` deleted every Law,
``lexgraph query 'LOAD FROM "/etc/passwd" …'`` printed the file, ``COPY … TO`` created one, and several refused
statements showed "No active transaction for ROLLBACK" instead of their real error.

The tables below are run against the validator (both dialects), the library on a store open for writing, the CLI
(subprocess, exit 1) and, when ``LEXGRAPH_TEST_NEO4J_URI`` names a server, Neo4j. A hostile query must be refused
with a message naming the refused clause, and leave the store and the file system as they were.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexgraph.client import LexGraph
from lexgraph.errors import ConfigurationError, InvalidQuery, QueryRefused
from lexgraph.store.base import GraphStore
from lexgraph.store.embedded import EmbeddedStore
from lexgraph.store.readonly import LADYBUG, NEO4J, QUERY_LIMITS, ReadStatement, check_read_statement
from tests.conftest import NEO4J_MARKS
from tests.helpers import EGOV_DATA, SAMPLE, copy_store, lexgraph

# {out} is replaced by a fresh directory per run, so that a statement that did write a file is seen doing it.
_PASSWD = "/etc/passwd"


@dataclass(frozen=True)
class Hostile:
    id: str
    cypher: str
    clause: str  # what the message must name: "refused <clause>"


HOSTILE = [
    # several statements: the caller's text must not end the read-only transaction
    Hostile("commit-then-delete", "RETURN 1; COMMIT; MATCH (l:Law) DETACH DELETE l", ";"),
    Hostile("read-then-delete", "MATCH (l:Law) RETURN l.title;\nMATCH (l:Law) DETACH DELETE l", ";"),
    Hostile("rollback-then-create", "RETURN 1; ROLLBACK; CREATE (:Law {law_id: 'x'})", ";"),
    Hostile("semicolon-after-escaped-quote", r"RETURN 'it\'s' AS s; MATCH (l:Law) DELETE l", ";"),
    # writes hidden after comments and string literals
    Hostile("block-comment-then-delete", "MATCH (l:Law) /* a harmless read */ DETACH DELETE l", "DETACH DELETE"),
    Hostile("line-comment-then-set", "MATCH (l:Law) // just a read\nSET l.title = 'x'", "SET"),
    Hostile("carriage-return-ends-comment", "MATCH (l:Law) // c\rSET l.title = 'x'", "SET"),
    Hostile("string-then-delete", "MATCH (l:Law) WHERE l.title <> 'DELETE' DELETE l", "DELETE"),
    Hostile("with-star-then-set", "MATCH (l:Law) WITH * SET l.title = 'x'", "SET"),
    Hostile("lowercase-create", "match (l:Law) create (:Law {law_id: 'x'})", "create"),
    # writes and schema changes
    Hostile("create", "CREATE (:Law {law_id: '999AC0000000001', title: '架空法'})", "CREATE"),
    Hostile("merge", "MERGE (l:Law {law_id: '999AC0000000001'}) RETURN l", "MERGE"),
    Hostile("remove", "MATCH (l:Law) REMOVE l.title", "REMOVE"),
    Hostile("foreach", "MATCH (l:Law) FOREACH (x IN [1] | SET l.title = 'x')", "FOREACH"),
    Hostile("create-table", "CREATE NODE TABLE T(a INT64 PRIMARY KEY)", "CREATE"),
    Hostile("drop", "DROP TABLE Law", "DROP"),
    Hostile("alter", "ALTER TABLE Law ADD extra INT64", "ALTER"),
    # transaction control
    Hostile("begin", "BEGIN TRANSACTION", "BEGIN TRANSACTION"),
    Hostile("commit", "COMMIT", "COMMIT"),
    Hostile("rollback", "ROLLBACK", "ROLLBACK"),
    # files, LadybugDB
    Hostile("load-from-passwd", f"LOAD FROM '{_PASSWD}' (file_format='csv', header=false, delim=':') RETURN * "
            "LIMIT 2", "LOAD FROM"),
    Hostile("load-from-without-format", f"LOAD FROM '{_PASSWD}' RETURN *", "LOAD FROM"),
    Hostile("copy-to", "COPY (MATCH (l:Law) RETURN l.title) TO '{out}/laws.csv'", "COPY"),
    Hostile("copy-from", "COPY Law FROM '{out}/laws.csv'", "COPY"),
    Hostile("export-database", "EXPORT DATABASE '{out}/export'", "EXPORT DATABASE"),
    Hostile("import-database", "IMPORT DATABASE '{out}/export'", "IMPORT DATABASE"),
    # extensions, other databases, checkpoints, settings
    Hostile("install", "INSTALL httpfs", "INSTALL"),
    Hostile("load-extension", "LOAD EXTENSION fts", "LOAD EXTENSION"),
    Hostile("attach", "ATTACH '{out}/other.lbdb' AS other (dbtype lbug)", "ATTACH"),
    Hostile("detach-database", "DETACH other", "DETACH"),
    Hostile("use", "USE other MATCH (l:Law) RETURN l", "USE"),
    Hostile("checkpoint", "CHECKPOINT", "CHECKPOINT"),
    Hostile("clear-warnings", "CALL clear_warnings()", "CALL clear_warnings"),
    Hostile("setting", "CALL threads=1", "CALL threads"),
    Hostile("project-graph", "CALL project_graph('g', ['Law'], [])", "CALL project_graph"),
    Hostile("read-csv-function", f"CALL read_csv('{_PASSWD}') RETURN *", "CALL read_csv"),
    # files and procedures, Neo4j
    Hostile("load-csv", "LOAD CSV FROM 'file:///etc/passwd' AS row RETURN row", "LOAD CSV"),
    Hostile("apoc-export", "CALL apoc.export.csv.all('{out}/all.csv', {})", "CALL apoc.export.csv.all"),
    Hostile("apoc-load", "CALL apoc.load.json('file:///etc/passwd') YIELD value RETURN value",
            "CALL apoc.load.json"),
    Hostile("create-label-procedure", "CALL db.createLabel('Hacked')", "CALL db.createLabel"),
    Hostile("vector-property-procedure", "MATCH (l:Law) CALL db.create.setNodeVectorProperty(l, 'e', [1.0])",
            "CALL db.create.setNodeVectorProperty"),
    Hostile("set-config", "CALL dbms.setConfigValue('db.logs.query.enabled', 'OFF')", "CALL dbms.setConfigValue"),
    Hostile("in-transactions", "MATCH (l:Law) CALL { WITH l RETURN l.title AS t } IN TRANSACTIONS RETURN t",
            "CALL { … } IN TRANSACTIONS"),
    Hostile("apoc-run-cypher", "RETURN apoc.cypher.runFirstColumnSingle('MATCH (l) DETACH DELETE l', {}) AS x",
            "apoc.cypher.runFirstColumnSingle"),
    # plugin functions named the other ways Cypher resolves: backquoted parts, spaces and comments
    # around the dots, another case; an un-namespaced name that is no built-in function
    Hostile("apoc-backquoted", "RETURN `apoc`.`cypher`.`runFirstColumnSingle`('MATCH (l) DETACH DELETE l', {}) AS x",
            "apoc.cypher.runFirstColumnSingle"),
    Hostile("apoc-partly-backquoted", "RETURN apoc.`cypher`.runFirstColumnSingle('MATCH (l) DELETE l', {}) AS x",
            "apoc.cypher.runFirstColumnSingle"),
    Hostile("apoc-spaced-dots", "RETURN apoc . cypher /* c */ . runFirstColumnSingle('MATCH (l) DELETE l', {}) AS x",
            "apoc.cypher.runFirstColumnSingle"),
    Hostile("apoc-one-backquoted-name", "RETURN `apoc.cypher.runFirstColumnSingle`('MATCH (l) DELETE l', {}) AS x",
            "apoc.cypher.runFirstColumnSingle"),
    Hostile("apoc-in-a-map", "RETURN {a: `apoc`.`cypher`.`run`('MATCH (l) DELETE l', {})} AS x", "apoc.cypher.run"),
    Hostile("apoc-as-a-map-value", "RETURN {a: apoc.cypher.run('MATCH (l) DELETE l', {})} AS x", "apoc.cypher.run"),
    Hostile("plugin-without-namespace", "RETURN `runFirstColumnSingle`('MATCH (l) DELETE l') AS x",
            "runFirstColumnSingle"),
    Hostile("sequence-nextval", "RETURN nextval('seq') AS x", "nextval"),
    # administration (Neo4j system database)
    Hostile("show-users", "SHOW USERS", "SHOW"),
    Hostile("create-user", "CREATE USER eve SET PASSWORD 'secret'", "CREATE"),
    Hostile("grant", "GRANT ROLE admin TO eve", "GRANT"),
    Hostile("stop-database", "STOP DATABASE neo4j", "STOP"),
]
# What the LadybugDB dialect says differently: it has no CALL subqueries at all.
_LADYBUG_CLAUSE = {"in-transactions": "CALL"}


def _cypher(hostile: Hostile, out: Path) -> str:
    return hostile.cypher.replace("{out}", str(out))


def _assert_refusal_names(message: str, clause: str) -> None:
    assert f"refused {clause}" in message and "(line " in message, message
    assert "No active transaction" not in message, message


# -- the validator ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dialect", [LADYBUG, NEO4J], ids=["ladybug", "neo4j"])
@pytest.mark.parametrize("hostile", HOSTILE, ids=[h.id for h in HOSTILE])
def test_the_validator_refuses_what_a_read_may_not_do(hostile: Hostile, dialect: Any, tmp_path: Path) -> None:
    clause = _LADYBUG_CLAUSE.get(hostile.id, hostile.clause) if dialect is LADYBUG else hostile.clause
    with pytest.raises(QueryRefused) as refused:
        check_read_statement(_cypher(hostile, tmp_path), dialect)
    _assert_refusal_names(str(refused.value), clause)
    assert refused.value.clause == clause


def test_a_nul_character_is_refused() -> None:
    """The engines' C interfaces may cut the text at a NUL, so that they would run a text not checked."""
    with pytest.raises(QueryRefused, match=re.escape("refused NUL (line 1, column 10)")):
        check_read_statement("RETURN 'a\x00'; MATCH (l:Law) DETACH DELETE l")


def test_a_refusal_says_where() -> None:
    with pytest.raises(QueryRefused) as refused:
        check_read_statement("MATCH (l:Law)\n  WITH l\n  DETACH DELETE l")
    assert "refused DETACH DELETE (line 3, column 3)" in str(refused.value)
    assert refused.value.offset == len("MATCH (l:Law)\n  WITH l\n  ")


@pytest.mark.parametrize("dialect", [LADYBUG, NEO4J], ids=["ladybug", "neo4j"])
@pytest.mark.parametrize("cypher", [
    "MATCH (l:Law) WHERE l.title = 'DETACH DELETE; COPY x TO y' RETURN l.title AS title",
    'RETURN "LOAD FROM \\"/etc/passwd\\"; CREATE (n)" AS s',
    "RETURN 'a' AS s // ; MATCH (l:Law) DETACH DELETE l",
    "/* CHECKPOINT; INSTALL httpfs */ MATCH (l:Law) RETURN count(l) AS n",
    "WITH 1 AS `create` RETURN `create` AS v",
    "MATCH (l:Law) RETURN l.set AS a, l.delete AS b, l.copy AS c",
    "MATCH (l:Law {law_id: $delete}) RETURN l",
    "MATCH (l:Law) RETURN l {.title, .law_id} AS m",
    "MATCH (l:Law) RETURN count(l) AS n;",
])
def test_words_in_strings_comments_and_names_are_data(cypher: str, dialect: Any) -> None:
    assert check_read_statement(cypher, dialect).text == cypher.strip().removesuffix(";")


def test_neo4j_subqueries_and_read_procedures_are_allowed() -> None:
    for cypher in ["CALL db.labels() YIELD label RETURN label",
                   "MATCH (l:Law) CALL { WITH l MATCH (l)-[:HAS_VERSION]->(v) RETURN count(v) AS n } RETURN n",
                   "CALL db.index.fulltext.queryNodes('titles', $q) YIELD node RETURN node",
                   "MATCH (l:Law) WHERE EXISTS { (l)-[:HAS_VERSION]->() } RETURN vector.similarity.cosine([1], [1])"]:
        assert check_read_statement(cypher, NEO4J).dialect == "neo4j"
    with pytest.raises(QueryRefused, match=re.escape("refused CALL DB.LABELS")):  # Neo4j names are case-sensitive
        check_read_statement("CALL DB.LABELS()", NEO4J)


# -- fuzzing the validator ----------------------------------------------------------------------------------
_FRAGMENTS = ["MATCH", "RETURN", "WITH", "CALL", "CREATE", "DELETE", "LOAD", "FROM", "COPY", "TO", " ", "\n",
              "\r", "'", '"', "`", "\\", "/*", "*/", "//", ";", "{", "}", "(", ")", "[", "]", ".", ":", "$", "n",
              "l", ",", "*", "|", "=", "1", "IN", "TRANSACTIONS", "é", "法", "\x00"]
_WRITES = ["CREATE", "MERGE", "SET", "DELETE", "DETACH DELETE", "REMOVE", "DROP", "ALTER", "FOREACH", "LOAD FROM",
           "LOAD CSV", "COPY", "INSTALL", "ATTACH", "DETACH", "CHECKPOINT", "EXPORT DATABASE", "IMPORT DATABASE",
           "BEGIN TRANSACTION", "COMMIT", "ROLLBACK", "USE", "INSERT"]


@settings(max_examples=600, deadline=None)
@given(st.one_of(st.text(), st.lists(st.sampled_from(_FRAGMENTS), max_size=40).map("".join)))
def test_fuzz_the_validator_never_crashes(text: str) -> None:
    for dialect in (LADYBUG, NEO4J):
        try:
            result = check_read_statement(text, dialect)
        except QueryRefused as refused:
            assert str(refused)
        else:
            assert isinstance(result, ReadStatement) and result.text


def _string(content: str) -> str:
    return "'" + content.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _data_pieces() -> st.SearchStrategy[str]:
    """Pieces of a read statement whose text is arbitrary data: string literals, comments, backquoted names."""
    text = st.text(st.characters(exclude_characters="\x00"), max_size=30)  # NUL is refused on its own
    return st.one_of(
        text.map(lambda t: f" WITH l, {_string(t)} AS s "),
        text.map(lambda t: f" WHERE l.title <> {_string(t)} "),
        text.map(lambda t: " /*" + t.replace("*/", "") + "*/ "),
        text.map(lambda t: " //" + t.replace("\n", "").replace("\r", "") + "\n"),
        text.map(lambda t: " WITH l, 1 AS `" + t.replace("`", "``") + "` "),
        st.sampled_from(_WRITES).map(lambda w: f" WITH l, {_string(w + ' (n); ')} AS s ")
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_data_pieces(), max_size=6))
def test_fuzz_data_never_changes_the_verdict(pieces: list[str]) -> None:
    """Whatever strings, comments and backquoted names hold, a read made of them is accepted as written."""
    cypher = "MATCH (l:Law)" + "".join(pieces) + " RETURN l.title AS title"
    for dialect in (LADYBUG, NEO4J):
        assert check_read_statement(cypher, dialect).text == cypher.strip()


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_data_pieces(), max_size=4), st.lists(_data_pieces(), max_size=4), st.sampled_from(_WRITES),
       st.sampled_from([str.upper, str.lower, str.title]))
def test_fuzz_a_write_clause_outside_data_is_refused(before: list[str], after: list[str], write: str,
                                                     case: Any) -> None:
    clause = case(write)
    cypher = "MATCH (l:Law)" + "".join(before) + f" {clause} l " + "".join(after) + " RETURN l.title AS title"
    for dialect in (LADYBUG, NEO4J):
        with pytest.raises(QueryRefused) as refused:
            check_read_statement(cypher, dialect)
        assert refused.value.clause.upper().startswith(write.split()[0]), (cypher, str(refused.value))


# -- the embedded store: library (a writer) and CLI (read-only) ---------------------------------------------
@pytest.fixture(scope="module")
def writer_copy(sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LexGraph]:
    """The sample store copied and opened for writing, as `LexGraph.open(dir)` does by default: the open
    writer's `query` is the case that deleted data."""
    copy = tmp_path_factory.mktemp("writer") / "store"
    shutil.copytree(sample_store, copy)
    with LexGraph.open(copy) as lg:
        yield lg


def _snapshot(store: GraphStore) -> tuple[Any, ...]:
    counts = store.counts()
    titles = sorted(row["title"] for row in store.run_read_only("MATCH (l:Law) RETURN l.title AS title"))
    return tuple(sorted(counts.nodes.items())), tuple(sorted(counts.relationships.items())), tuple(titles)


def _files(*folders: Path) -> set[Path]:
    return {path for folder in folders for path in folder.rglob("*")}


@pytest.mark.parametrize("hostile", HOSTILE, ids=[h.id for h in HOSTILE])
def test_the_library_refuses_on_a_store_open_for_writing(writer_copy: LexGraph, hostile: Hostile,
                                                         tmp_path: Path) -> None:
    before, files = _snapshot(writer_copy.store), _files(tmp_path, Path(writer_copy.store.location))
    with pytest.raises(QueryRefused) as refused:
        writer_copy.query(_cypher(hostile, tmp_path))
    _assert_refusal_names(str(refused.value), _LADYBUG_CLAUSE.get(hostile.id, hostile.clause))
    assert _snapshot(writer_copy.store) == before
    assert _files(tmp_path, Path(writer_copy.store.location)) == files
    assert writer_copy.query("MATCH (l:Law) RETURN count(l) AS n") == [{"n": len(before[2])}]  # still usable


def _read_only_snapshot(store: Path) -> tuple[Any, ...]:
    with EmbeddedStore(store, read_only=True) as opened:
        return _snapshot(opened)


@pytest.mark.parametrize("hostile", HOSTILE, ids=[h.id for h in HOSTILE])
def test_the_cli_refuses_with_exit_1(sample_store: Path, hostile: Hostile, tmp_path: Path) -> None:
    before, files = _read_only_snapshot(sample_store), _files(tmp_path, sample_store)
    run = lexgraph("query", _cypher(hostile, tmp_path), "--json", store=sample_store)
    assert run.code == 1, (run.code, run.stderr)
    _assert_refusal_names(" ".join(run.stderr.split()), _LADYBUG_CLAUSE.get(hostile.id, hostile.clause))
    assert run.stdout == "" and "root:" not in run.stderr
    assert _read_only_snapshot(sample_store) == before
    assert _files(tmp_path, sample_store) == files


# -- legitimate reads ---------------------------------------------------------------------------------------
def _manifest() -> list[dict[str, Any]]:
    return json.loads((SAMPLE / "MANIFEST.json").read_text(encoding="utf-8"))


def _law_ids() -> list[str]:
    return sorted({entry["file"].split("_")[0] for entry in _manifest()})


def _versions_per_law() -> list[dict[str, Any]]:
    ids = [entry["file"].split("_")[0] for entry in _manifest()]
    return [{"law": law, "versions": ids.count(law)} for law in sorted(set(ids))]


Rows = list[dict[str, Any]]


@dataclass(frozen=True)
class Read:
    """A read that must work; ``check`` compares its rows with what the sample's manifest says."""

    id: str
    cypher: str
    params: dict[str, Any]
    check: Callable[[Rows], bool]


def _column(rows: Rows, name: str) -> list[Any]:
    return [row[name] for row in rows]


READS = [
    Read("readme-example", "MATCH (l:Law) RETURN l.title AS title LIMIT 5", {},
         lambda rows: sorted(_column(rows, "title")) == sorted({e["law"] for e in _manifest()})),
    Read("aggregation", "MATCH (l:Law)-[:HAS_VERSION]->(v:LawVersion) RETURN l.law_id AS law, count(v) AS versions "
         "ORDER BY law", {}, lambda rows: rows == _versions_per_law()),
    Read("optional-match", "MATCH (l:Law) OPTIONAL MATCH (l)-[:HAS_VERSION]->(v:LawVersion) "
         "WHERE v.revision_id = 'no such revision' RETURN l.law_id AS law, count(v) AS n ORDER BY law", {},
         lambda rows: rows == [{"law": law, "n": 0} for law in _law_ids()]),
    Read("unwind-parameter", "UNWIND $ids AS id MATCH (l:Law {law_id: id}) RETURN l.law_id AS law ORDER BY law",
         {"ids": ["999AC0000000001", *_law_ids()]}, lambda rows: _column(rows, "law") == _law_ids()),
    Read("union", "MATCH (l:Law) RETURN l.law_id AS id UNION MATCH (l:Law) RETURN l.law_id AS id", {},
         lambda rows: sorted(_column(rows, "id")) == _law_ids()),
    Read("semicolon-and-writes-in-strings", "RETURN 'a; DETACH DELETE b' AS s, \"COPY x TO 'y'; CHECKPOINT\" AS t "
         "// ; CREATE (n)\n", {}, lambda rows: rows == [{"s": "a; DETACH DELETE b", "t": "COPY x TO 'y'; CHECKPOINT"}]),
    Read("comments-and-trailing-semicolon", "/* LOAD FROM '/etc/passwd' */ MATCH (l:Law) WHERE l.title <> '' "
         "RETURN count(l) AS n; // DELETE", {}, lambda rows: rows == [{"n": len(_law_ids())}]),
    Read("backquoted-keyword", "MATCH (l:Law) WITH l.law_id AS `delete` RETURN `delete` AS id ORDER BY id", {},
         lambda rows: _column(rows, "id") == _law_ids()),
    Read("allowed-table-function", "CALL show_tables() RETURN name", {},
         lambda rows: {"Law", "LawVersion", "Provision"} <= set(_column(rows, "name"))),
]


@pytest.mark.parametrize("read", READS, ids=[r.id for r in READS])
def test_reads_work_in_the_library(writer_copy: LexGraph, read: Read) -> None:
    rows = writer_copy.query(read.cypher, read.params)
    assert read.check(rows), rows


@pytest.mark.parametrize("read", READS, ids=[r.id for r in READS])
def test_reads_work_in_the_cli(sample_store: Path, read: Read) -> None:
    params = [arg for name, value in read.params.items() for arg in ("--param", f"{name}={json.dumps(value)}")]
    run = lexgraph("query", read.cypher, *params, "--json", store=sample_store)
    assert run.code == 0, run.stderr
    assert read.check(run.json()), run.stdout


# -- real errors, not masked ones ---------------------------------------------------------
@pytest.mark.parametrize(("cypher", "engine_says"), [
    ("MATCH (l:Law) RETURN l.no_such_property", "Binder exception: Cannot find property no_such_property"),
    ("MATCH (l:NoSuchTable) RETURN l", "Binder exception: Table NoSuchTable does not exist"),
    ("RETURN 1 +", "Parser exception"),
    ("MATCH (l:Law {law_id: $id}) RETURN l", "Parameter id not found"),
])
def test_an_engine_error_is_shown_as_bad_input(writer_copy: LexGraph, cypher: str, engine_says: str) -> None:
    with pytest.raises(InvalidQuery) as failed:
        writer_copy.query(cypher)
    assert engine_says in str(failed.value) and "No active transaction" not in str(failed.value)
    assert not isinstance(failed.value, QueryRefused)
    assert writer_copy.query("RETURN 1 AS one") == [{"one": 1}]  # the connection is usable afterwards


def test_a_syntax_error_exits_1_with_the_engine_message(sample_store: Path) -> None:
    run = lexgraph("query", "MATCH (l:Law RETURN l", store=sample_store)
    assert run.code == 1, (run.code, run.stderr)
    assert "Parser exception" in run.stderr and "No active transaction" not in run.stderr


# -- Neo4j ---------------------------------------------------------------------------------------------------
def _neo4j(test: Callable[..., None]) -> Callable[..., None]:
    for mark in NEO4J_MARKS:
        test = mark(test)
    return test


@pytest.fixture
def neo4j_seeded(neo4j_store: GraphStore) -> GraphStore:
    with neo4j_store.transaction() as tx:
        tx.upsert_nodes("Law", [{"law_id": law, "title": f"law {law}"} for law in _law_ids()])
    return neo4j_store


@_neo4j
@pytest.mark.parametrize("hostile", HOSTILE, ids=[h.id for h in HOSTILE])
def test_neo4j_refuses(neo4j_seeded: GraphStore, hostile: Hostile, tmp_path: Path) -> None:
    before = _snapshot(neo4j_seeded)
    with pytest.raises(QueryRefused) as refused:
        neo4j_seeded.run_read_only(_cypher(hostile, tmp_path))
    _assert_refusal_names(str(refused.value), hostile.clause)
    assert _snapshot(neo4j_seeded) == before
    assert _files(tmp_path) == set()


@_neo4j
def test_neo4j_reads_and_real_errors(neo4j_seeded: GraphStore) -> None:
    rows = neo4j_seeded.run_read_only("UNWIND $ids AS id MATCH (l:Law {law_id: id}) RETURN l.law_id AS law "
                                      "ORDER BY law; ", {"ids": _law_ids()})
    assert [r["law"] for r in rows] == _law_ids()
    labels = neo4j_seeded.run_read_only("CALL db.labels() YIELD label RETURN label")
    assert "Law" in {r["label"] for r in labels}
    with pytest.raises(InvalidQuery, match=re.escape("Neo.ClientError.Statement.SyntaxError")):
        neo4j_seeded.run_read_only("MATCH (l:Law RETURN l")


# -- functions: an allow-list, names normalised as Cypher does ---------------------------
@pytest.mark.parametrize("dialect", [LADYBUG, NEO4J], ids=["ladybug", "neo4j"])
@pytest.mark.parametrize("cypher", [
    "RETURN toUpper('a') AS a, TOUPPER('b') AS b, `toUpper`('c') AS c, abs (-1) AS d",
    "MATCH (l:Law) RETURN count(l) AS n, collect(l.title)[0] AS t, size(l.title) AS s",
    "MATCH (l:Law) WHERE NOT (l.title IS NULL) AND (l.law_id <> '') RETURN l.title ORDER BY (l.title) SKIP (0)",
    "RETURN all(x IN [1, 2] WHERE x > 0) AS a, any(x IN [1] WHERE x > 0) AS b, coalesce(null, 1) AS c",
    "MATCH (l:Law) RETURN l {.title, n: size(l.law_id)} AS m",
])
def test_built_in_functions_are_allowed(cypher: str, dialect: Any) -> None:
    assert check_read_statement(cypher, dialect).text == cypher


def test_the_function_lists_hold_each_engine_s_built_ins() -> None:
    for name in ("date.truncate", "vector.similarity.cosine", "toUpper", "elementId", "shortestPath"):
        assert NEO4J.allows_function(name), name
    for name in ("list_transform", "to_int64", "regexp_matches", "count_star", "date_part"):
        assert LADYBUG.allows_function(name), name
    for name in ("apoc.cypher.run", "apoc.load.json", "gds.pageRank", "file", "linenumber"):
        assert not NEO4J.allows_function(name), name
    for name in ("nextval", "setseed", "read_csv", "apoc.cypher.run"):
        assert not LADYBUG.allows_function(name), name


# -- bounds on the statement's size -------------------------------------------------------
def _nested(depth: int, opening: str = "(", closing: str = ")") -> str:
    return "RETURN " + opening * depth + "1" + closing * depth + " AS x"


@pytest.mark.parametrize("dialect", [LADYBUG, NEO4J], ids=["ladybug", "neo4j"])
@pytest.mark.parametrize(("cypher", "bound"), [
    (_nested(4000), "nests"),
    (_nested(QUERY_LIMITS.max_depth + 1, "[", "]"), "nests"),
    (_nested(QUERY_LIMITS.max_depth + 1, "{a: ", "}"), "nests"),
    ("RETURN " + "CASE WHEN true THEN " * (QUERY_LIMITS.max_depth + 1) + "1" + " END" * (QUERY_LIMITS.max_depth + 1)
     + " AS x", "nests"),
    ("RETURN " + "+".join(["1"] * QUERY_LIMITS.max_tokens) + " AS x", "tokens"),
    ("RETURN '" + "a" * QUERY_LIMITS.max_chars + "' AS x", "characters"),
], ids=["parens-4000", "lists", "maps", "case", "tokens", "characters"])
def test_a_statement_too_deep_or_too_long_is_refused_before_any_parser(cypher: str, bound: str, dialect: Any) -> None:
    with pytest.raises(QueryRefused) as refused:
        check_read_statement(cypher, dialect)
    message = str(refused.value)
    assert bound in message and "LEXGRAPH_QUERY_MAX_" in message and "docs/security.md" in message, message
    assert isinstance(refused.value, QueryRefused)


def test_the_bounds_leave_room_for_real_queries() -> None:
    depth = QUERY_LIMITS.max_depth
    assert check_read_statement(_nested(depth)).text == _nested(depth)
    assert check_read_statement("UNWIND $ids AS id " + "RETURN id AS x").text


def test_the_bounds_are_raised_by_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    cypher = _nested(QUERY_LIMITS.max_depth + 10)
    with pytest.raises(QueryRefused):
        check_read_statement(cypher)
    monkeypatch.setenv("LEXGRAPH_QUERY_MAX_DEPTH", str(QUERY_LIMITS.max_depth + 10))
    assert check_read_statement(cypher).text == cypher
    monkeypatch.setenv("LEXGRAPH_QUERY_MAX_DEPTH", "many")
    with pytest.raises(ConfigurationError, match="LEXGRAPH_QUERY_MAX_DEPTH"):
        check_read_statement(cypher)


def test_the_cli_refuses_a_deep_statement_fast_with_exit_1(sample_store: Path) -> None:
    """Before: 4,000 levels killed the process with SIGSEGV after 26–60 s (and the host process through the
    library)."""
    run = lexgraph("query", _nested(4000), store=sample_store, timeout=60)
    assert run.code == 1, (run.code, run.stderr[-500:])
    assert "nests" in run.stderr and "Traceback" not in run.stderr


def test_the_library_refuses_a_deep_statement(writer_copy: LexGraph) -> None:
    with pytest.raises(QueryRefused, match="nests"):
        writer_copy.query(_nested(4000))
    assert writer_copy.query("RETURN 1 AS one") == [{"one": 1}]


@_neo4j
def test_neo4j_refuses_a_deep_statement_and_runs_allowed_functions(neo4j_seeded: GraphStore) -> None:
    with pytest.raises(QueryRefused, match="nests"):
        neo4j_seeded.run_read_only(_nested(4000))
    rows = neo4j_seeded.run_read_only("RETURN toUpper('a') AS a, TOUPPER('b') AS b, `toUpper`('c') AS c, "
                                      "date.truncate('year', date('2024-05-06')) AS d")
    assert rows[0]["a"] == "A" and rows[0]["b"] == "B" and rows[0]["c"] == "C" and str(rows[0]["d"]) == "2024-01-01"
    # what Neo4j itself resolves: a backquoted namespaced name is the same function as the plain one, so the
    # checker must read it as such (here a built-in, so that it runs without APOC)
    rows = neo4j_seeded.run_read_only("RETURN `date`.`truncate`('year', date('2024-05-06')) AS d, "
                                      "date . /* c */ truncate('year', date('2024-05-06')) AS e")
    assert str(rows[0]["d"]) == "2024-01-01" and str(rows[0]["e"]) == "2024-01-01"


# -- store locations: one reading everywhere a store is named -----------------------------
NOT_A_STORE = ["http://127.0.0.1:7474", "https://example.org/db", "file:///tmp/store", "bolt://", "bolt://:7687",
               "neo4j://localhost:70000", "bolt://127.0.0.1:0"]


def _run_in(cwd: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    import os
    import subprocess
    import sys

    variables = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(Path(__file__).parents[1]),
                 **(env or {})}
    if env is None or "LEXGRAPH_STORE" not in env:
        variables.pop("LEXGRAPH_STORE", None)
    done = subprocess.run([sys.executable, "-m", "lexgraph", *args], capture_output=True, text=True, timeout=120,
                          env=variables, cwd=cwd)
    return done.returncode, done.stderr


@pytest.mark.parametrize("location", NOT_A_STORE)
def test_a_location_that_names_no_store_is_a_usage_error_everywhere(location: str, sample_store: Path,
                                                                    tmp_path: Path) -> None:
    """Before: `copy --to http://127.0.0.1:7474` reported success and wrote an embedded store at
    ./http:/127.0.0.1:7474/; a port above 65535 wrapped to another port."""
    (tmp_path / "toml").mkdir()
    (tmp_path / "toml" / "lexgraph.toml").write_text(f'store = "{location}"\n', encoding="utf-8")
    runs = {
        "copy --to": _run_in(tmp_path, "copy", "--to", location, "--store", str(sample_store)),
        "--store": _run_in(tmp_path, "stats", "--store", location),
        "--store (write)": _run_in(tmp_path, "ingest", "statutes", str(SAMPLE), "--store", location),
        "LEXGRAPH_STORE": _run_in(tmp_path, "stats", env={"LEXGRAPH_STORE": location}),
        "lexgraph.toml": _run_in(tmp_path / "toml", "stats"),
    }
    for where, (code, stderr) in runs.items():
        assert code == 2, (where, code, stderr)
        assert len(stderr.strip().splitlines()) == 1 and "Traceback" not in stderr, (where, stderr)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["toml"]  # nothing created
    assert sorted(p.name for p in (tmp_path / "toml").iterdir()) == ["lexgraph.toml"]


@pytest.mark.parametrize("location", NOT_A_STORE)
def test_the_library_refuses_a_location_that_names_no_store(location: str, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigurationError):
        LexGraph.open(location)
    assert list(tmp_path.iterdir()) == []


@_neo4j
def test_a_bolt_port_above_65535_does_not_wrap_to_the_server(neo4j_seeded: GraphStore, tmp_path: Path) -> None:
    """Port 7731 + 65536 would reach the test server (the driver wraps the port); it is refused instead."""
    import os
    from urllib.parse import urlsplit

    uri = urlsplit(os.environ["LEXGRAPH_TEST_NEO4J_URI"])
    assert uri.port is not None
    wrapped = f"{uri.scheme}://{uri.hostname}:{uri.port + 65536}"
    code, stderr = _run_in(tmp_path, "stats", "--store", wrapped)
    assert code == 2 and "outside 1–65535" in stderr, (code, stderr)
    code, stderr = _run_in(tmp_path, "stats", "--store", f"{uri.scheme}://{uri.hostname}:{uri.port}")
    assert code == 0, stderr


# -- poor errors: an empty question, a full disk ------------------------------------------
@pytest.mark.parametrize("question", ["", "   ", "\u3000", " \u3000\n"], ids=["empty", "spaces", "full-width", "mixed"])
def test_an_empty_question_is_one_line_and_exit_1(sample_store: Path, question: str) -> None:
    run = lexgraph("search", question, store=sample_store)
    assert run.code == 1, (run.code, run.stderr[-800:])
    assert "Traceback" not in run.stderr and len(run.stderr.strip().splitlines()) == 1, run.stderr
    assert "question is empty" in run.stderr


@pytest.mark.parametrize("command", ["search", "ask"])
def test_a_question_past_the_bound_is_refused_at_once_and_one_at_it_is_searched(
        search_store_template: Path, tmp_path: Path, command: str) -> None:
    """A question costs time in proportion to its length: unbounded, one MCP request (4 MiB) held a search for
    minutes. Refused before the index is read; the longest allowed is searched (exit 0)."""
    from lexgraph.retrieve.search import MAX_QUESTION_CHARS

    store = copy_store(search_store_template, tmp_path / "store")
    words = ("契約の解除に伴う損害賠償の請求" * MAX_QUESTION_CHARS)[:MAX_QUESTION_CHARS]
    started = time.monotonic()
    run = lexgraph(command, words + "か", store=store)
    assert run.code == 1 and len(run.stderr.strip().splitlines()) == 1, run.stderr
    assert f"the question has {MAX_QUESTION_CHARS + 1:,} characters, more than the {MAX_QUESTION_CHARS:,}" in run.stderr
    assert time.monotonic() - started < 30
    if command == "search":
        assert lexgraph(command, words, store=store).code == 0


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("command", [("stats", "--json"), ("stats",), ("doctor", "--json"), ("query", "RETURN 1 AS x"),
                                     ("law", "show", "民法", "第七百九条"), ("cite", str(SAMPLE / "precedents"))],
                         ids=["stats-json", "stats", "doctor-json", "query", "law-show", "cite"])
def test_a_result_that_cannot_be_written_is_one_line_and_exit_1(sample_store: Path, command: tuple[str, ...]) -> None:
    """Before: `stats --json > /dev/full` ended in a traceback."""
    import os
    import subprocess
    import sys

    if command[0] == "cite":
        command = ("cite", str(next((SAMPLE / "precedents").glob("*.txt"))))
    variables = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    variables.pop("LEXGRAPH_STORE", None)
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "lexgraph", *command, "--store", str(sample_store)],
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=300, env=variables)
    assert done.returncode == 1, (done.returncode, done.stderr[-800:])
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, done.stderr[-800:]
    errors = [line for line in done.stderr.splitlines() if "error" in line]
    assert len(errors) == 1 and "cannot be written" in errors[0], done.stderr  # (cite notes its date first)


# -- ingest: nothing created before input is found; no input is exit 1 --------------------
@pytest.mark.parametrize("kind", ["statutes", "precedents", "literature"])
def test_ingest_without_input_creates_nothing_and_exits_1(kind: str, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.csv").write_text("not an input\n", encoding="utf-8")
    for no_input in (tmp_path / "no" / "such.xml", empty):
        store = tmp_path / "new-store"
        run = lexgraph("ingest", kind, no_input, store=store)
        assert run.code == 1, (kind, no_input, run.code, run.stdout, run.stderr)
        assert "Traceback" not in run.stderr and str(no_input.name) in run.stderr, run.stderr
        assert not store.exists(), (kind, no_input, sorted(p.name for p in store.rglob("*")))


# -- doctor: a problem is a non-zero exit -------------------------------------------------
def test_doctor_exits_1_when_it_prints_a_problem(sample_store: Path, search_store_template: Path,
                                                  tmp_path: Path) -> None:
    from tests.helpers import copy_store

    healthy = lexgraph("doctor", store=sample_store)
    assert healthy.code == 0 and "PROBLEM" not in healthy.stdout, healthy.stdout + healthy.stderr
    store = copy_store(search_store_template, tmp_path / "store")
    next((store / "index" / "parts").glob("law_*.npy")).unlink()
    for args in (("doctor",), ("doctor", "--json")):
        broken = lexgraph(*args, store=store)
        assert "PROBLEM" in broken.stdout or '"ok": false' in broken.stdout, broken.stdout
        assert broken.code == 1, (args, broken.code, broken.stdout)


# -- a damaged search index is not reported fresh -----------------------------------------
@pytest.mark.parametrize("damage", ["delete-vectors", "delete-units", "truncate-units"])
def test_a_deleted_or_damaged_index_part_is_reported_and_rebuilt(search_store_template: Path, tmp_path: Path,
                                                                 damage: str) -> None:
    """Before: after one part file was removed, `index --status` said fresh, `doctor` was silent and `index --law`
    said "already up to date"; only `search` noticed."""
    from tests.helpers import copy_store

    store = copy_store(search_store_template, tmp_path / "store")
    part, stem = "law:129AC0000000089", store / "index" / "parts" / "law_129AC0000000089"  # 民法
    if damage == "delete-vectors":
        stem.with_suffix(".npy").unlink()
    elif damage == "delete-units":
        stem.with_suffix(".parquet").unlink()
    else:
        data = stem.with_suffix(".parquet").read_bytes()
        stem.with_suffix(".parquet").write_bytes(data[: len(data) // 2])
    status = lexgraph("index", "--status", "--json", store=store)
    states = {p["part"]: p["status"] for p in status.json()["parts"]}
    assert states[part] != "fresh", states
    doctor = lexgraph("doctor", store=store)
    assert doctor.code == 1 and "PROBLEM" in doctor.stdout and part in " ".join(doctor.stdout.split()), doctor.stdout
    built = lexgraph("index", "--law", "民法", "--json", store=store)
    assert built.code == 0, built.stderr
    assert built.json()["built"] == [part], built.stdout
    status = lexgraph("index", "--status", "--json", store=store)
    assert {p["part"]: p["status"] for p in status.json()["parts"]}[part] == "fresh"
    found = lexgraph("search", "不法行為による損害賠償", "--json", store=store)
    assert found.code == 0, found.stderr


# -- archive bombs --------------------------------------------------------------------------
def _zip_bomb(path: Path, size: int) -> Path:
    """A zip holding one member of `size` zero bytes (about 1,000 times smaller compressed)."""
    import zipfile

    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive, \
            archive.open("bomb/999AC0000000001_20200101_000000000000000.xml", "w", force_zip64=True) as member:
        block = b"\0" * (1 << 20)
        for _ in range(size // len(block)):
            member.write(block)
    return path


def test_a_zip_member_of_a_compression_ratio_no_statute_has_is_refused(tmp_path: Path) -> None:
    """Before: a 1 GB member of 1 MB compressed was read whole (2.2 GB of memory)."""
    from lexgraph.errors import SourceError
    from lexgraph.statutes.sources import iter_documents

    bomb = _zip_bomb(tmp_path / "bomb.zip", 64 << 20)
    results = list(iter_documents([bomb]))
    assert len(results) == 1 and isinstance(results[0], SourceError), results
    assert "compression ratio" in str(results[0]) and "LEXGRAPH_ARCHIVE_MAX_RATIO" in str(results[0])


@pytest.mark.parametrize("kind", ["zip", "tar.xz"])
def test_an_archive_member_above_the_size_limit_is_refused(tmp_path: Path, kind: str,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    import tarfile
    import zipfile

    from lexgraph.errors import SourceError
    from lexgraph.statutes.sources import XmlDocument, iter_documents

    real = sorted(EGOV_DATA.glob("*.xml"), key=lambda p: p.stat().st_size)
    small = real[0]
    archive = tmp_path / f"laws.{kind}"
    filler = os.urandom(3 << 20)  # 3 MB that do not compress: only the size limit can refuse it
    if kind == "zip":
        with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as out:
            out.write(small, small.name)
            out.writestr("big/999AC0000000001_20200101_000000000000000.xml", filler)
    else:
        with tarfile.open(archive, "w:xz") as out:
            out.add(small, small.name)
            big = tmp_path / "999AC0000000001_20200101_000000000000000.xml"
            big.write_bytes(filler)
            out.add(big, "big/" + big.name)
    monkeypatch.setenv("LEXGRAPH_ARCHIVE_MAX_MEMBER_MB", "2")
    results = list(iter_documents([archive]))
    documents = [r for r in results if isinstance(r, XmlDocument)]
    errors = [r for r in results if isinstance(r, SourceError)]
    assert [Path(d.name.split("!")[1]).name for d in documents] == [small.name]
    assert documents[0].data == small.read_bytes()
    assert len(errors) == 1 and "LEXGRAPH_ARCHIVE_MAX_MEMBER_MB" in str(errors[0]) and "big/" in str(errors[0])
    monkeypatch.setenv("LEXGRAPH_ARCHIVE_MAX_MEMBER_MB", "4")
    assert all(isinstance(r, XmlDocument) for r in iter_documents([archive]))


def test_real_statutes_pass_the_archive_limits(tmp_path: Path) -> None:
    import zipfile

    from lexgraph.statutes.sources import XmlDocument, iter_documents

    files = sorted(EGOV_DATA.glob("*.xml")) + sorted(SAMPLE.glob("*.xml"))
    archive = tmp_path / "real.zip"
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as out:
        for path in files:
            out.write(path, path.name)
    results = list(iter_documents([archive]))
    assert len(results) == len(files) and all(isinstance(r, XmlDocument) for r in results), results
