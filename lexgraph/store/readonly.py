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

import os
import re
from dataclasses import dataclass

from lexgraph.errors import ConfigurationError, QueryRefused
from lexgraph.store.cypher_functions import LADYBUG_FUNCTIONS, NEO4J_FUNCTIONS


@dataclass(frozen=True)
class QueryLimits:
    """How large a user statement may be, checked before any parser sees it: LadybugDB's parser takes time that
    grows much faster than the nesting (500 levels of brackets 1.3 s, 2,000 levels 40 s) and dies with SIGSEGV,
    taking the host process with it, at about 4,000. Real queries nest a few levels; values belong in
    ``$parameters``. Each bound is raised by its environment variable (docs/security.md)."""

    max_chars: int = 20_000
    max_tokens: int = 2_000
    max_depth: int = 32

    @staticmethod
    def from_env() -> QueryLimits:
        """The defaults, each replaced by ``LEXGRAPH_QUERY_MAX_CHARS`` / ``_TOKENS`` / ``_DEPTH`` when set."""
        values = {}
        for field, default in (("max_chars", QUERY_LIMITS.max_chars), ("max_tokens", QUERY_LIMITS.max_tokens),
                               ("max_depth", QUERY_LIMITS.max_depth)):
            variable = "LEXGRAPH_QUERY_" + field.upper()
            text = os.environ.get(variable, "").strip()
            if not text:
                values[field] = default
                continue
            if not text.isdecimal() or int(text) <= 0:
                raise ConfigurationError(f"{variable}={text!r} is not a positive whole number; unset it to use "
                                         f"{default}")
            values[field] = int(text)
        return QueryLimits(**values)


QUERY_LIMITS = QueryLimits()
"""The default bounds (see `QueryLimits`)."""


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
        """Whether ``name`` (dotted, backquotes removed) is a built-in function of the allow-list: both engines
        resolve built-in function names whatever their case."""
        return name.lower() in self.functions


LADYBUG = Dialect(
    name="ladybug",
    # Catalog and schema readers. Not: read_csv/read_parquet/read_npy (files), clear_warnings, project_graph and
    # drop_projected_graph (change connection state), current_setting (configuration), and `CALL name=value`.
    procedures=frozenset({"show_tables", "table_info", "show_connection", "show_indexes", "show_functions",
                          "db_version"}),
    functions=LADYBUG_FUNCTIONS,
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
    # Built-in functions only (lexgraph/store/cypher_functions.py): plugin functions (apoc.*) are refused because
    # some read files or run Cypher of their own.
    functions=NEO4J_FUNCTIONS,
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
    """The one read statement in ``text``, or `QueryRefused` naming the first clause that is not a read."""
    if isinstance(dialect, str):
        dialect = DIALECTS[dialect]
    limits = QueryLimits.from_env()
    if len(text) > limits.max_chars:
        raise QueryRefused(
            f"refused the query: it holds {len(text):,} characters, more than the {limits.max_chars:,} a query may "
            f"hold; pass long values as $parameters, or raise LEXGRAPH_QUERY_MAX_CHARS (docs/security.md)",
            clause="query size", offset=limits.max_chars)
    if "\x00" in text:
        # The engines' C interfaces may end the text at a NUL, so it would not be the text checked here.
        raise _refuse(text, text.index("\x00"), "NUL", "is not a character a query may contain")
    tokens = [t for t in tokenize(text) if t.kind != "comment"]
    _check_size(text, tokens, limits)
    if not tokens:
        raise QueryRefused("the query is empty; give one read-only statement, e.g. MATCH (l:Law) RETURN "
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
            raise QueryRefused("the query is empty; give one read-only statement", clause=";", offset=0)
    _Walker(text, tokens, dialect).walk()
    return ReadStatement(text[:end].strip(), dialect.name)


def _check_size(text: str, tokens: list[Token], limits: QueryLimits) -> None:
    """Refuse a statement with more tokens or deeper nesting than `limits` allow: the engines' parsers recurse on
    brackets and CASE, in time that grows much faster than the depth, and overflow their stack (SIGSEGV)."""
    depth = 0
    for index, token in enumerate(tokens):
        after_name = index > 0 and _is_symbol(tokens[index - 1], ".:")
        if _is_symbol(token, "([{") or (token.kind == "word" and token.text.upper() == "CASE" and not after_name):
            depth += 1
            if depth > limits.max_depth:
                line = text.count("\n", 0, token.offset) + 1
                column = token.offset - (text.rfind("\n", 0, token.offset) + 1) + 1
                raise QueryRefused(
                    f"refused the query (line {line}, column {column}): it nests brackets and CASE more than "
                    f"{limits.max_depth} levels deep, more than a query may; simplify it, pass values as "
                    f"$parameters, or raise LEXGRAPH_QUERY_MAX_DEPTH (docs/security.md)",
                    clause="query depth", offset=token.offset)
        elif _is_symbol(token, ")]}") or (token.kind == "word" and token.text.upper() == "END" and not after_name):
            depth = max(depth - 1, 0)
    if len(tokens) > limits.max_tokens:
        raise QueryRefused(
            f"refused the query: it holds {len(tokens):,} tokens, more than the {limits.max_tokens:,} a query may "
            f"hold; pass lists and long values as $parameters, or raise LEXGRAPH_QUERY_MAX_TOKENS "
            f"(docs/security.md)", clause="query size", offset=tokens[limits.max_tokens].offset)


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
                    # a property, label or relationship type: a name, never a clause; or, after a map key's `:`,
                    # a function call
                    after = self._function(i) if _is_symbol(previous, ":") else None
                    i, state = (after, "operand") if after is not None else (i + 1, "term")
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
                    after = self._function(i)
                    if after is not None:
                        i, state = after, "operand"
                        continue
                state = "operand" if upper in _EXPECT_OPERAND else "term"
            elif token.kind == "quoted" and not _is_symbol(previous, "."):
                after = self._function(i)
                if after is not None:
                    i, state = after, "operand"
                    continue
                state = "term"
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

    def _function(self, i: int) -> int | None:
        """When token ``i`` begins a function call (a name, maybe dotted, then ``(``): the index of the ``(``, once
        the function is found in the dialect's allow-list; None when it is no call (or a keyword before a
        bracket, such as ``WHERE (…)``)."""
        name, after = self._dotted(i)
        if after >= len(self.tokens) or not _is_symbol(self.tokens[after], "("):
            return None
        token = self.tokens[i]
        if after == i + 1 and token.kind == "word" and token.text.upper() in _KEYWORDS | _STARTERS:
            return None
        if not self.dialect.allows_function(name):
            raise _refuse(self.text, token.offset, name,
                          f"is not a built-in function a read may call on {self.dialect.name} (plugin functions "
                          f"and those that write or read files are refused)")
        return after

    def _dotted(self, i: int) -> tuple[str, int]:
        """``a.b.c`` from token ``i``, the way Cypher resolves a name: backquotes removed (`` `a`.`b` `` and
        `` a . /* */ b `` are ``a.b``; comments and spaces are already gone); the name and the index after it."""
        parts = [_unquoted(self.tokens[i])]
        j = i + 1
        while j + 1 < len(self.tokens) and _is_symbol(self.tokens[j], ".") \
                and self.tokens[j + 1].kind in ("word", "quoted"):
            parts.append(_unquoted(self.tokens[j + 1]))
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
        if not self.dialect.allows_procedure(name):
            raise _refuse(self.text, token.offset, f"CALL {name}",
                          f"is not a read-only procedure this query may call on {self.dialect.name}; allowed: "
                          f"{', '.join(sorted(self.dialect.procedures))}")
        if after >= len(self.tokens) or not _is_symbol(self.tokens[after], "("):
            raise _refuse(self.text, token.offset, f"CALL {name}", "must be called with (…)")
        return after


def _unquoted(token: Token) -> str:
    return token.text[1:-1].replace("``", "`") if token.kind == "quoted" else token.text


def _is_symbol(token: Token | None, chars: str) -> bool:
    return token is not None and token.kind == "symbol" and token.text in chars


def _refuse(text: str, offset: int, clause: str, reason: str) -> QueryRefused:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return QueryRefused(f"refused {clause} (line {line}, column {column}): {clause} {reason}; a query is "
                        f"exactly one read-only statement (docs/security.md)", clause=clause, offset=offset)


def with_row_limit(statement: ReadStatement, limit: int) -> str:
    """The statement's text with ``LIMIT limit`` after its final RETURN when it has no LIMIT of its own there (and
    is no UNION, whose last LIMIT would bind one branch only). LadybugDB materialises a query's whole result before
    the first row is read, so a caller that wants `limit` rows in bounded memory must say so in the query; a
    statement that already ends in its own LIMIT (or SKIP … LIMIT) is left as written."""
    tokens = [t for t in tokenize(statement.text) if t.kind != "comment"]
    words = [t.text.upper() for t in tokens if t.kind == "word"]
    if "RETURN" not in words or "UNION" in words:
        return statement.text
    depth, last_return, has_limit = 0, -1, False
    for index, token in enumerate(tokens):
        if token.kind == "symbol" and token.text in "([{":
            depth += 1
        elif token.kind == "symbol" and token.text in ")]}":
            depth -= 1
        elif depth == 0 and token.kind == "word" and token.text.upper() == "RETURN":
            last_return, has_limit = index, False
        elif depth == 0 and last_return >= 0 and token.kind == "word" and token.text.upper() == "LIMIT":
            has_limit = True
    return statement.text if has_limit else f"{statement.text}\nLIMIT {int(limit)}"
