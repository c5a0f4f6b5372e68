"""User Cypher is exactly one read statement: a check of the statement's text before any database sees it.

Both engines run things a "read" must not do inside a read-only transaction: LadybugDB's ``LOAD FROM`` reads any
file and ``COPY … TO`` writes one even on a database opened read-only, ``CHECKPOINT`` there breaks the database
until restart, and a second statement after ``;`` ends the caller's transaction; Neo4j runs ``LOAD CSV`` and
file-exporting procedures in a READ session. So the rule is an allow-list on the statement, not a list of bad words:

- the text is split into tokens the way Cypher does (string literals with backslash escapes, ``//`` and ``/* */``
  comments, backquoted names, ``$parameters``), so words inside strings, comments and backquotes are data;
- at most one statement: a ``;`` may only end the text;
- a statement starts with a read clause, and every word where a clause or an operator may stand (after a complete
  term: a name, a literal, ``)``, ``]``, ``}``) must be a read keyword (MATCH, WHERE, WITH, RETURN, AND, AS, …);
- a word that starts a write, file, extension, database or transaction clause (CREATE, LOAD, COPY, INSTALL, ATTACH,
  CHECKPOINT, BEGIN, …) is refused wherever it stands outside a string, a comment, backquotes or a ``.``/``:``
  name — a variable called ``set`` must then be written ```set```, a small price for a rule that cannot be
  talked around;
- ``CALL`` names a procedure or table function of the dialect's read-only allow-list (Neo4j also allows a
  ``CALL { … }`` subquery, itself checked, but not ``IN TRANSACTIONS``), and a namespaced function call
  (``ns.fn(…)``) must be in the dialect's list too.

The module is pure (no database imports) so that it can be fuzzed on its own (tests/test_security.py). The
stores run the checked statement in a read-only transaction as well (defence in depth; see docs/security.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lexgraph.store.base import ReadOnlyViolation


@dataclass(frozen=True)
class Dialect:
    """What one engine's Cypher lets a read call. Names compare case-insensitively where the engine does."""

    name: str
    procedures: frozenset[str]
    functions: frozenset[str]
    names_case_sensitive: bool
    call_subqueries: bool

    def allows_procedure(self, name: str) -> bool:
        return (name if self.names_case_sensitive else name.lower()) in self.procedures

    def allows_function(self, name: str) -> bool:
        if (name if self.names_case_sensitive else name.lower()) in self.functions:
            return True
        namespace = name.rsplit(".", 1)[0]
        return f"{namespace}.*" in self.functions


LADYBUG = Dialect(
    name="ladybug",
    # Catalog and schema readers. Not: read_csv/read_parquet/read_npy (files), clear_warnings, project_graph and
    # drop_projected_graph (change connection state), current_setting (configuration), and `CALL name=value`.
    procedures=frozenset({"show_tables", "table_info", "show_connection", "show_indexes", "show_functions",
                          "db_version"}),
    functions=frozenset(),
    names_case_sensitive=False,
    call_subqueries=False,
)

NEO4J = Dialect(
    name="neo4j",
    procedures=frozenset({
        "db.labels", "db.relationshipTypes", "db.propertyKeys", "db.schema.visualization",
        "db.schema.nodeTypeProperties", "db.schema.relTypeProperties", "db.index.fulltext.queryNodes",
        "db.index.fulltext.queryRelationships", "db.index.vector.queryNodes",
        "db.index.vector.queryRelationships",
    }),
    # Core Neo4j 5 namespaced functions; plugin functions (apoc.*) are refused because some read files or run
    # Cypher of their own.
    functions=frozenset({
        "point.*", "vector.similarity.*", "date.*", "datetime.*", "localdatetime.*", "localtime.*", "time.*",
        "duration.*", "db.nameFromElementId",
    }),
    names_case_sensitive=True,
    call_subqueries=True,
)

DIALECTS = {"embedded": LADYBUG, "ladybug": LADYBUG, "neo4j": NEO4J}

_READ_CLAUSES = "MATCH, OPTIONAL MATCH, WHERE, WITH, UNWIND, RETURN, ORDER BY, SKIP, LIMIT, UNION, CALL"
_STARTERS = frozenset({"MATCH", "OPTIONAL", "WITH", "UNWIND", "RETURN", "CALL", "EXPLAIN", "PROFILE"})
# Words that may stand where a clause or an infix operator goes (after a complete term).
_KEYWORDS = frozenset({
    "MATCH", "OPTIONAL", "WHERE", "WITH", "UNWIND", "RETURN", "ORDER", "BY", "SKIP", "LIMIT", "OFFSET", "UNION",
    "ALL", "AS", "DISTINCT", "ASC", "ASCENDING", "DESC", "DESCENDING", "AND", "OR", "XOR", "NOT", "IS", "NULL",
    "IN", "STARTS", "ENDS", "CONTAINS", "CASE", "WHEN", "THEN", "ELSE", "END", "CALL", "YIELD", "SHORTEST",
    "PATH", "PATHS", "GROUPS", "ANY",
})
# After these words an operand follows (a word there is a name, a function or a literal, not a clause).
_EXPECT_OPERAND = frozenset({
    "MATCH", "OPTIONAL", "WHERE", "WITH", "UNWIND", "RETURN", "ORDER", "BY", "SKIP", "LIMIT", "OFFSET", "UNION",
    "ALL", "AS", "DISTINCT", "AND", "OR", "XOR", "NOT", "IS", "IN", "STARTS", "ENDS", "CONTAINS", "CASE", "WHEN",
    "THEN", "ELSE", "YIELD", "EXPLAIN", "PROFILE", "SHORTEST", "ANY",
})
# Words that begin a clause a read may not use, in either dialect, with why. Refused wherever they stand as a
# word of the statement (not in a string, comment, backquotes, or after `.` `:` `$`).
_FORBIDDEN = {
    **dict.fromkeys(("CREATE", "MERGE", "SET", "DELETE", "DETACH", "REMOVE", "DROP", "ALTER", "FOREACH",
                     "INSERT", "RENAME"), "writes to the store; use the ingest commands to change data"),
    **dict.fromkeys(("LOAD", "COPY", "EXPORT", "IMPORT"), "reads or writes files"),
    **dict.fromkeys(("INSTALL", "UNINSTALL"), "installs an extension"),
    **dict.fromkeys(("ATTACH", "USE"), "opens another database"),
    "CHECKPOINT": "writes the database files",
    **dict.fromkeys(("BEGIN", "COMMIT", "ROLLBACK", "TRANSACTIONS"),
                    "controls transactions; the query runs in its own read-only transaction"),
    **dict.fromkeys(("GRANT", "DENY", "REVOKE", "START", "STOP", "TERMINATE", "ENABLE", "SHOW"),
                    "is an administration command"),
}
# Clauses named by two words, so that the message says `LOAD FROM`, not `LOAD`.
_PAIRS = {
    ("LOAD", "FROM"), ("LOAD", "CSV"), ("LOAD", "EXTENSION"), ("DETACH", "DELETE"), ("EXPORT", "DATABASE"),
    ("IMPORT", "DATABASE"), ("BEGIN", "TRANSACTION"), ("COPY", "TO"), ("IN", "TRANSACTIONS"),
}

_TOKEN = re.compile(
    r"""
    (?P<space>\s+)
    | (?P<comment>//[^\r\n]*|/\*.*?\*/)
    | (?P<string>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")
    | (?P<quoted>`(?:[^`]|``)*`)
    | (?P<param>\$(?:[^\W\d]\w*|\d+|`(?:[^`]|``)*`))
    | (?P<number>0[xX][0-9a-fA-F]+|0[oO][0-7]+|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)
    | (?P<word>[^\W\d]\w*)
    | (?P<symbol>.)
    """,
    re.VERBOSE | re.DOTALL,
)
_UNTERMINATED = {"'": "string", '"': "string", "`": "backquoted name", "/*": "comment"}


@dataclass(frozen=True)
class Token:
    kind: str  # comment, string, quoted, param, number, word, symbol (spaces are dropped)
    text: str
    offset: int


@dataclass(frozen=True)
class ReadStatement:
    """A statement that passed the check: the text to run (a trailing ``;`` removed)."""

    text: str
    dialect: str


class RefusedStatement(ReadOnlyViolation):
    """User Cypher that is not one read statement. ``clause`` names what was refused (``LOAD FROM``, ``;``)."""

    def __init__(self, message: str, *, clause: str, offset: int) -> None:
        super().__init__(message)
        self.clause = clause
        self.offset = offset


def tokenize(text: str) -> list[Token]:
    """Cypher tokens without spaces; comments are kept (as kind ``comment``) so that callers can see them.
    An unterminated string, comment or backquoted name is refused: the engine would read the rest differently."""
    tokens: list[Token] = []
    position = 0
    while position < len(text):
        for opener, what in _UNTERMINATED.items():
            if text.startswith(opener, position):
                match = _TOKEN.match(text, position)
                if match is None or match.lastgroup == "symbol":
                    raise _refuse(text, position, opener, f"this {what} is never closed")
        match = _TOKEN.match(text, position)
        assert match is not None  # the symbol alternative matches any character
        kind = match.lastgroup or "symbol"
        if kind != "space":
            tokens.append(Token(kind, match.group(), position))
        position = match.end()
    return tokens


def check_read_statement(text: str, dialect: Dialect | str = LADYBUG) -> ReadStatement:
    """The one read statement in ``text``, or `RefusedStatement` naming the first clause that is not a read."""
    if isinstance(dialect, str):
        dialect = DIALECTS[dialect]
    if "\x00" in text:
        # The engines' C interfaces may end the text at a NUL, so it would not be the text checked here.
        raise _refuse(text, text.index("\x00"), "NUL", "is not a character a query may contain")
    tokens = [t for t in tokenize(text) if t.kind != "comment"]
    if not tokens:
        raise RefusedStatement("the query is empty; give one read-only statement, e.g. MATCH (l:Law) RETURN "
                               "l.title", clause="", offset=0)
    end = len(text)
    semicolons = [i for i, t in enumerate(tokens) if t.kind == "symbol" and t.text == ";"]
    if semicolons:
        first = semicolons[0]
        if first != len(tokens) - 1:
            raise _refuse(text, tokens[first].offset, ";",
                          "ends the statement and another follows; remove the ';' and what follows it")
        end = tokens[first].offset
        tokens = tokens[:first]
        if not tokens:
            raise RefusedStatement("the query is empty; give one read-only statement", clause=";", offset=0)
    _Walker(text, tokens, dialect).walk()
    return ReadStatement(text[:end].strip(), dialect.name)


class _Walker:
    """One pass over the tokens, tracking whether the next word stands where a clause/operator may go."""

    def __init__(self, text: str, tokens: list[Token], dialect: Dialect) -> None:
        self.text, self.tokens, self.dialect = text, tokens, dialect

    def walk(self) -> None:
        tokens = self.tokens
        state = "start"  # start: a clause must begin; operand: a name/value follows; term: a term just ended
        i = 0
        while i < len(tokens):
            token = tokens[i]
            previous = tokens[i - 1] if i else None
            if token.kind == "word":
                upper = token.text.upper()
                if _is_symbol(previous, ".:"):
                    state = "term"  # a property, label or relationship type: a name, never a clause
                    i += 1
                    continue
                following = tokens[i + 1] if i + 1 < len(tokens) else None
                if _is_symbol(following, ":") and _is_symbol(previous, "{,(["):
                    state = "term"  # a map key, or a variable with a label: a name, never a clause
                    i += 1
                    continue
                self._forbidden(i, upper)
                if state == "start" and upper not in _STARTERS:
                    if _is_symbol(previous, "{") and _is_symbol(following, ",}"):
                        state = "term"  # a variable in a map projection: n {var}
                        i += 1
                        continue
                    raise _refuse(self.text, token.offset, token.text,
                                  f"does not begin a read; a statement begins with MATCH, OPTIONAL MATCH, WITH, "
                                  f"UNWIND, RETURN or CALL (read clauses: {_READ_CLAUSES})")
                if state == "term" and upper not in _KEYWORDS:
                    raise _refuse(self.text, token.offset, token.text,
                                  f"is not a clause a read may use (read clauses: {_READ_CLAUSES}); if it is a "
                                  f"name, write it in backquotes")
                if upper == "CALL":
                    i = self._call(i)
                    state = "term"
                    continue
                if state != "term":
                    dotted, after = self._dotted(i)
                    if after < len(tokens) and _is_symbol(tokens[after], "(") and "." in dotted:
                        if not self.dialect.allows_function(dotted):
                            raise _refuse(self.text, token.offset, dotted,
                                          f"is not a function a read may call on {self.dialect.name}")
                        i, state = after, "operand"
                        continue
                state = "operand" if upper in _EXPECT_OPERAND else "term"
            elif token.kind in ("string", "quoted", "param", "number") or _is_symbol(token, ")]}"):
                state = "term"
            elif _is_symbol(token, "{"):
                state = "start"  # a subquery (EXISTS/COUNT/COLLECT/CALL) or a map: see the key rule above
            else:
                state = "operand"
            i += 1

    def _forbidden(self, i: int, upper: str) -> None:
        token = self.tokens[i]
        following = self.tokens[i + 1] if i + 1 < len(self.tokens) else None
        if upper == "IN" and following is not None and following.kind == "word" \
                and following.text.upper() == "TRANSACTIONS":
            raise _refuse(self.text, token.offset, "CALL { … } IN TRANSACTIONS",
                          "commits batches of its own; the query runs in one read-only transaction")
        reason = _FORBIDDEN.get(upper)
        if reason is None:
            return
        clause = token.text
        if following is not None and following.kind == "word" and (upper, following.text.upper()) in _PAIRS:
            clause = f"{token.text} {following.text}"
        if upper == "DETACH" and clause == token.text:
            reason = "detaches a database"
        if upper == "LOAD" and clause.upper() == "LOAD EXTENSION":
            reason = "loads an extension"
        raise _refuse(self.text, token.offset, clause, reason)

    def _dotted(self, i: int) -> tuple[str, int]:
        """``a.b.c`` from token ``i``: the name and the index after it."""
        parts = [self.tokens[i].text]
        j = i + 1
        while j + 1 < len(self.tokens) and _is_symbol(self.tokens[j], ".") and self.tokens[j + 1].kind == "word":
            parts.append(self.tokens[j + 1].text)
            j += 2
        return ".".join(parts), j

    def _call(self, i: int) -> int:
        """``CALL name(…)`` of an allowed procedure, or (Neo4j) ``CALL { … }``; the index after the name."""
        token = self.tokens[i]
        nxt = self.tokens[i + 1] if i + 1 < len(self.tokens) else None
        if _is_symbol(nxt, "{(") and self.dialect.call_subqueries:
            return i + 1  # `CALL { … }` or `CALL (x) { … }`: the `{` opens a statement, checked like this one
        if nxt is None or nxt.kind not in ("word", "quoted"):
            raise _refuse(self.text, token.offset, "CALL",
                          f"must name a read-only procedure: {', '.join(sorted(self.dialect.procedures))}")
        name, after = self._dotted(i + 1)
        if nxt.kind == "quoted" or not self.dialect.allows_procedure(name):
            raise _refuse(self.text, token.offset, f"CALL {name}",
                          f"is not a read-only procedure this query may call on {self.dialect.name}; allowed: "
                          f"{', '.join(sorted(self.dialect.procedures))}")
        if after >= len(self.tokens) or not _is_symbol(self.tokens[after], "("):
            raise _refuse(self.text, token.offset, f"CALL {name}", "must be called with (…)")
        return after


def _is_symbol(token: Token | None, chars: str) -> bool:
    return token is not None and token.kind == "symbol" and token.text in chars


def _refuse(text: str, offset: int, clause: str, reason: str) -> RefusedStatement:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return RefusedStatement(f"refused {clause} (line {line}, column {column}): {clause} {reason}; a query is "
                            f"exactly one read-only statement (docs/security.md)", clause=clause, offset=offset)
