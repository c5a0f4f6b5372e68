"""Results an assistant can hold: concise by default, long lists in pages, every result within a size bound.

An assistant's context is small and every tool result stays in it: a whole diff of 民法 (40 KB) or a search with
twenty evidence items (20 KB) fills it after three calls. So every tool result is held to a bound (`DEFAULT_LIMIT`
bytes of JSON, ``lexgraph mcp --result-limit``): a result with lists gives as many items as fit and a `next_cursor`
to ask for the rest (the same call with ``cursor``), `total` says how many each list holds in all, and an item
or a field too long to fit alone is cut with its name in `truncated` and the way to read it whole (a resource URI,
``detail: "full"`` with a larger bound). Fields with no value (null) are left out rather than sent as null.

A cursor is opaque to the assistant: the offsets reached in each list and a fingerprint of the call's other
arguments, so that a cursor given to another call is refused with a message instead of paging something else.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from lexgraph import InputError

#: The default bound of a tool result's structured content, in bytes of UTF-8 JSON.
DEFAULT_LIMIT = 4096
#: Of the bound, what the summary line and the protocol's wrapping of the result are given.
ENVELOPE = 640
#: Lists whose items are the caller's own data (rows of a Cypher query): their nulls are values, kept.
DATA_KEYS = frozenset({"rows"})
_SHORTEST = 24  # a text is never cut shorter than this many characters


def compact(value: Any, key: str = "") -> Any:
    """`value` without the dict entries whose value is None (recursively; not inside `DATA_KEYS`)."""
    if key in DATA_KEYS:
        return value
    if isinstance(value, Mapping):
        return {k: compact(v, k) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [compact(v, key) for v in value]
    return value


def size(value: Any) -> int:
    """Bytes of `value` as the result carries it: compact UTF-8 JSON, nulls left out."""
    return len(json.dumps(compact(value), ensure_ascii=False, separators=(",", ":"), default=str).encode())


def snippet(text: str | None, width: int = 80) -> str:
    """The first line of `text`, cut to `width` characters with "…": enough to tell one hit from another."""
    first = " ".join((text or "").split("\n", 1)[0].split())
    return first if len(first) <= width else first[: width - 1] + "…"


def shortened(item: dict[str, Any], room: int, how: str) -> dict[str, Any]:
    """`item` with its longest texts cut until it takes at most `room` bytes, their names in ``truncated`` and
    `how` (where the whole text is) in ``whole``; as it is when it fits."""
    if size(item) <= room:
        return item
    item = dict(item)
    cut: list[str] = list(item.get("truncated") or [])
    done: set[str] = set()  # texts already as short as they are cut
    while size(item) > room:
        texts = [(len(v), k) for k, v in item.items()
                 if isinstance(v, str) and len(v) > _SHORTEST + 1 and k not in done and k != "whole"]
        lists = [(size(v), k) for k, v in item.items() if isinstance(v, list) and len(v) > 1 and k != "truncated"]
        if lists and (not texts or max(lists)[0] > max(texts)[0]):  # a long list inside: keep its first half
            key = max(lists)[1]
            item[key] = item[key][: len(item[key]) // 2]
            cut += [] if key in cut else [key]
            item["truncated"], item["whole"] = cut, how
            continue
        if not texts:
            break
        length, key = max(texts)
        over = size(item) - room
        keep = max(_SHORTEST, length - (over // 3 + 1) - 1)  # a character is at most 3 bytes
        if keep == _SHORTEST:
            done.add(key)
        item[key] = item[key][:keep] + "…"
        if key not in cut:
            cut.append(key)
        item["truncated"] = cut
        item["whole"] = how
    return item


def bounded(payload: dict[str, Any], limit: int, how: str) -> dict[str, Any]:
    """A result without lists, its longest texts cut to fit the bound (`shortened`)."""
    return shortened(payload, max(limit - ENVELOPE, 256), how)


def call_key(tool: str, arguments: Mapping[str, Any]) -> str:
    """A fingerprint of a call but its cursor: a cursor is good only for the call that gave it."""
    given = {k: v for k, v in arguments.items() if k != "cursor" and v is not None}
    text = json.dumps([tool, given], ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def _offsets(cursor: str | None, key: str, lists: Sequence[str]) -> dict[str, int]:
    if not cursor:
        return {}
    try:
        decoded = json.loads(base64.urlsafe_b64decode(cursor.encode() + b"=" * (-len(cursor) % 4)))
        offsets = {str(name): int(at) for name, at in decoded["at"].items()}
        same_call = decoded["call"] == key
    except (ValueError, KeyError, TypeError, AttributeError):
        raise InputError(f"cursor {cursor[:40]!r} is not one this server gave: pass the next_cursor of the previous "
                         "result as it came, with the same other arguments") from None
    if not same_call:
        raise InputError("cursor was given by a call with other arguments: repeat that call's arguments with it, or "
                         "leave cursor out to start from the first page")
    if set(offsets) - set(lists) or any(at < 0 for at in offsets.values()):
        raise InputError(f"cursor {cursor[:40]!r} names lists this tool does not page; leave cursor out to start "
                         "again")
    return offsets


def paged(payload: dict[str, Any], lists: Sequence[str], *, cursor: str | None, key: str, limit: int,
          how: str) -> dict[str, Any]:
    """One page of `payload`: its fields but `lists` as they are (cut to fit if need be), and of each list in
    `lists` the items from the cursor's offset on, in order, while the result stays within `limit` bytes;
    `total` counts each list's items in all, and `next_cursor` (when a list is not done) asks for the rest.
    Each page holds at least one item, cut to fit (`shortened`) when it is larger than the bound alone."""
    offsets = _offsets(cursor, key, lists)
    budget = max(limit - ENVELOPE, 512)
    head = {name: value for name, value in payload.items() if name not in lists}
    totals = {name: len(payload.get(name) or []) for name in lists}
    page: dict[str, Any] = shortened(head, budget // 2, how)
    page.update({name: [] for name in lists})
    page["total"] = totals
    remaining: dict[str, int] = {}
    full = False
    for name in lists:
        items = payload.get(name) or []
        at = offsets.get(name, len(items)) if cursor else 0  # a list the cursor does not name was done
        while not full and at < len(items):
            item = compact(items[at])
            room = budget - size(page) - 1
            if size(item) > room:
                if any(page[n] for n in lists):
                    full = True
                    break
                item = shortened(item, max(room, 64), how)
            page[name].append(item)
            at += 1
        if at < len(items):
            remaining[name] = at
    if remaining:
        page["next_cursor"] = base64.urlsafe_b64encode(json.dumps(
            {"call": key, "at": remaining}, separators=(",", ":")).encode()).decode().rstrip("=")
    return page
