"""Every error lexgraph raises, in one tree with one root, and the exit code each means on the command line.

A caller catches `LexGraphError` to catch everything lexgraph refuses or cannot do, or one branch to tell bad
input from a missing store. Each branch also derives from the built-in exception it refines (`InputError` is a
`ValueError`, `NotFound` a `LookupError`, `Unavailable` a `RuntimeError`), so code written against the built-ins
keeps working. The CLI prints ``str(error)`` and exits with ``error.exit_code``; the MCP server sends the same
message. This module imports nothing of lexgraph, so that every layer may raise from it::

    LexGraphError
    ├── InputError              exit 1  bad input: a file, a line, a field, a date; the message names it and the fix
    │   └── QueryRefused        exit 1  user Cypher that may not run (a write, a file, too deep or too long)
    ├── NotFound                exit 1  a name, clause, precedent or node that leads nowhere; says what to try
    │   └── NotInForce          exit 1  the clause exists, but not on that day (not yet, repealed, deleted)
    │       └── WordingUnknown  exit 1  the store cannot know its wording that day (a gap, past "known up to")
    ├── ConfigurationError      exit 2  a setting or an option that cannot be used (usage)
    └── Unavailable             exit 3  something lexgraph needs is not there or not reachable
        ├── StoreUnavailable    exit 3  the store cannot be opened or reached (a lock, a server down)
        ├── IndexUnavailable    exit 3  no index, or one for another model; `lexgraph index` builds it
        ├── ModelUnavailable    exit 3  no language model configured, or it does not answer
        ├── ToolMissing         exit 3  a program or extra is not installed (Graphviz, pdftotext, ginza)
        └── SourceUnavailable   exit 3  a remote source (e-Gov's API) cannot be reached or keeps failing
"""

from __future__ import annotations

from typing import ClassVar

EXIT_OK, EXIT_BAD_INPUT, EXIT_USAGE, EXIT_UNAVAILABLE = 0, 1, 2, 3

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_OK",
    "EXIT_UNAVAILABLE",
    "EXIT_USAGE",
    "ConfigurationError",
    "IndexUnavailable",
    "InputError",
    "LexGraphError",
    "ModelUnavailable",
    "NotFound",
    "NotInForce",
    "QueryRefused",
    "SourceUnavailable",
    "StoreUnavailable",
    "ToolMissing",
    "Unavailable",
    "WordingUnknown",
]


class LexGraphError(Exception):
    """The root: everything lexgraph refuses or cannot do. `exit_code` is the CLI's exit code for it."""

    exit_code: ClassVar[int] = EXIT_BAD_INPUT


class InputError(LexGraphError, ValueError):
    """Bad input the user can fix: the message names the file, line or field, and the fix."""


class QueryRefused(InputError):
    """User Cypher that lexgraph will not run: it writes, touches a file, calls a plugin, or is too large."""


class NotFound(LexGraphError, LookupError):
    """A law, clause, precedent or node that leads nowhere; the message says what to try instead."""


class NotInForce(NotFound):
    """The clause exists in the store, but was not in force on the day asked (not yet, repealed, deleted)."""


class WordingUnknown(NotInForce):
    """The store cannot know what the clause said that day: the day falls in a gap between stored revisions
    (amendments the store knows of but does not hold), past the day the newest source was seen in force, or
    before the first stored version. Never shown as in force (docs/statutes.md)."""


class ConfigurationError(LexGraphError, ValueError):
    """A setting or an option that cannot be used as given: a usage error (exit 2)."""

    exit_code: ClassVar[int] = EXIT_USAGE


class Unavailable(LexGraphError, RuntimeError):
    """Something lexgraph needs is missing or unreachable (exit 3); the message says how to provide it."""

    exit_code: ClassVar[int] = EXIT_UNAVAILABLE


class StoreUnavailable(Unavailable):
    """The store cannot be opened or reached: a lock held by another process, a server that is down."""


class IndexUnavailable(Unavailable):
    """The search index is missing, stale beyond use, or built with another embedding model."""


class ModelUnavailable(Unavailable):
    """No language model is configured, or the one configured does not answer."""


class ToolMissing(Unavailable):
    """A program (Graphviz, pdftotext) or an optional extra (ginza, neo4j) is not installed."""


class SourceUnavailable(Unavailable):
    """A remote source (e-Gov's API or a mirror) cannot be reached, or keeps failing after the retries."""
