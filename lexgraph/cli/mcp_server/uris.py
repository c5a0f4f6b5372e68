"""The resource URIs of the MCP server: a law, a clause's wording in one revision, and a clause as of a day.

    lexgraph://law/{law_id}                                    a stored law and its versions
    lexgraph://law/{law_id}/{clause_path}@{revision_id}        a clause's wording in one revision (stable: the
                                                               revision's text never changes once stored)
    lexgraph://law/{law_id}/{clause_path}?as_of={YYYY-MM-DD}   the clause on a day (changes as the store learns)

A clause path is lexgraph's (``a709``, ``a710/p1``, ``suppl/a2``): it may hold slashes, which RFC 6570 writes
``{+clause_path}``. The SDK's own template matcher stops at a slash, so the server parses these URIs here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import quote, unquote

SCHEME = "lexgraph://"
LAW_TEMPLATE = "lexgraph://law/{law_id}"
REVISION_TEMPLATE = "lexgraph://law/{law_id}/{+clause_path}@{revision_id}"
AS_OF_TEMPLATE = "lexgraph://law/{law_id}/{+clause_path}?as_of={as_of}"

_LAW = re.compile(r"lexgraph://law/(?P<law_id>[^/?@]+)/?")
_REVISION = re.compile(r"lexgraph://law/(?P<law_id>[^/?@]+)/(?P<path>[^?@]+)@(?P<revision_id>[^/?@]+)")
_AS_OF = re.compile(r"lexgraph://law/(?P<law_id>[^/?@]+)/(?P<path>[^?@]+)\?as_of=(?P<as_of>[^&]+)")


@dataclass(frozen=True)
class ResourceRef:
    """What a URI names: a law (`path` None), a clause in a revision, or a clause on a day."""

    law_id: str
    path: str | None = None
    revision_id: str | None = None
    as_of: str | None = None


def law_uri(law_id: str) -> str:
    return f"{SCHEME}law/{quote(law_id, safe='')}"


def clause_uri(law_id: str, path: str, revision_id: str) -> str:
    return f"{law_uri(law_id)}/{quote(path, safe='/[]')}@{quote(revision_id, safe='')}"


def clause_as_of_uri(law_id: str, path: str, day: str) -> str:
    return f"{law_uri(law_id)}/{quote(path, safe='/[]')}?as_of={quote(day, safe='')}"


def parse(uri: str) -> ResourceRef | None:
    """The reference a lexgraph URI makes, or None when it is not one of the three forms."""
    text = str(uri)
    for pattern in (_REVISION, _AS_OF, _LAW):
        found = pattern.fullmatch(text)
        if found is None:
            continue
        parts = {key: unquote(value) for key, value in found.groupdict().items()}
        return ResourceRef(parts["law_id"], parts.get("path"), parts.get("revision_id"), parts.get("as_of"))
    return None
