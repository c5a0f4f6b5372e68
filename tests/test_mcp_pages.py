"""The pages of MCP results (`lexgraph.cli.mcp_server.pages`), fuzzed: every page within the bound, every item
given once and in order across the pages, a text cut only as far as it must be and said so, a cursor good only
for its own call. The server's own tests (tests/test_mcp.py) drive the same code through the SDK's client."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexgraph import InputError
from lexgraph.cli.mcp_server.pages import bounded, compact, paged, shortened, size

TEXT = st.text(alphabet="第一条あいう abc\n", max_size=600)
ITEM = st.dictionaries(st.sampled_from(["title", "text", "path"]), TEXT, max_size=3)


@settings(max_examples=200, deadline=None)
@given(st.lists(ITEM, max_size=40), st.lists(ITEM, max_size=5), st.integers(min_value=1024, max_value=8000))
def test_pages_hold_every_item_once_in_order_within_the_bound(first: list[dict[str, Any]],
                                                               second: list[dict[str, Any]], limit: int) -> None:
    payload = {"law_title": "民法", "first": first, "second": second}
    got: dict[str, list[dict[str, Any]]] = {"first": [], "second": []}
    cursor = None
    while True:
        page = paged(payload, ("first", "second"), cursor=cursor, key="call", limit=limit, how="ask for more")
        assert size(page) <= limit
        assert page["total"] == {"first": len(first), "second": len(second)} and page["law_title"] == "民法"
        for name in got:
            got[name] += page[name]
        assert any(page[name] for name in got) or not (first or second)  # a page is never empty while items remain
        cursor = page.get("next_cursor")
        if not cursor:
            break
    for name, items in (("first", first), ("second", second)):
        assert len(got[name]) == len(items)
        for given_item, item in zip(got[name], items, strict=True):  # the same item, or it cut and said so
            if "truncated" in given_item:
                for key in given_item["truncated"]:
                    assert given_item[key].endswith("…") and item[key].startswith(given_item[key][:-1])
            else:
                assert given_item == compact(item)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["text", "caption", "whole", "message"]), TEXT, max_size=4),
       st.integers(min_value=10, max_value=2000))
def test_a_text_is_cut_only_as_far_as_it_must(item: dict[str, str], room: int) -> None:
    cut = shortened(item, room, "read the resource")
    if size(item) <= room or "truncated" not in cut:  # it fits, or nothing in it is long enough to cut
        assert cut == item
        return
    assert cut["whole"] == "read the resource" and cut["truncated"]
    for key in cut["truncated"]:
        assert cut[key].endswith("…") and item[key].startswith(cut[key][:-1])


def test_a_long_clause_is_cut_to_the_bound_and_says_where_the_rest_is() -> None:
    clause = {"status": "in_force", "clause": "第一条", "text": "あ" * 5000}
    result = bounded(clause, 4096, "its uri")
    assert size(result) <= 4096 and result["truncated"] == ["text"] and result["whole"] == "its uri"


def test_a_cursor_serves_only_its_own_call() -> None:
    payload = {"items": [{"text": "あ" * 300} for _ in range(40)]}
    page = paged(payload, ("items",), cursor=None, key="one call", limit=2048, how="")
    assert page["next_cursor"]
    with pytest.raises(InputError, match="other arguments"):
        paged(payload, ("items",), cursor=page["next_cursor"], key="another call", limit=2048, how="")
    with pytest.raises(InputError, match="not one this server gave"):
        paged(payload, ("items",), cursor="garbage!", key="one call", limit=2048, how="")
