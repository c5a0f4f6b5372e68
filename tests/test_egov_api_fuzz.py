"""The e-Gov answer readers on arbitrary bodies: a `/law_data` answer gives the <Law> XML or `BadAnswer`, a
`/law_revisions` answer a `RevisionList` or `SourceUnavailable`; never another exception (which would stop a sync
with a traceback instead of one line)."""

from __future__ import annotations

import base64
import json
from urllib.parse import quote

from hypothesis import given, settings
from hypothesis import strategies as st

from lexgraph.errors import AnswerRefused, BadAnswer
from lexgraph.statutes.egov_api import REVISION_ID, CachedResponse, _retry_after, _revision_list, law_xml_of

CONTENT_TYPES = st.sampled_from(["application/json", "application/json; charset=utf-8", "application/xml",
                                 "text/xml", "text/html", ""])


@settings(max_examples=150, deadline=None)
@given(body=st.binary(max_size=300), content_type=CONTENT_TYPES)
def test_law_xml_of_any_body(body: bytes, content_type: str) -> None:
    try:
        xml = law_xml_of(CachedResponse("u", 200, content_type, body, False))
    except BadAnswer:
        return
    assert b"<Law" in xml


@settings(max_examples=150, deadline=None)
@given(text=st.one_of(st.text(max_size=80), st.binary(max_size=80).map(lambda b: base64.b64encode(b).decode())),
       wrap=st.booleans())
def test_law_xml_of_any_law_full_text(text: str, wrap: bool) -> None:
    payload = {"law_full_text": text} if wrap else text
    try:
        xml = law_xml_of(CachedResponse("u", 200, "application/json", json.dumps(payload).encode(), False))
    except BadAnswer:
        return
    assert b"<Law" in xml


IDS = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["405AC0000000088", "129AC0000000089", "321CONSTITUTION", "../../x", "405AC0000000088\x00"]),
    st.tuples(st.sampled_from(["405AC0000000088", "331AC0000000120", "../405AC0000000088"]),
              st.text("0123456789", min_size=8, max_size=8),
              st.sampled_from(["504AC0100000052", "000000000000000", "x"])).map("_".join),
)
DAYS = st.one_of(st.none(), st.text(max_size=12), st.dates().map(str),
                 st.tuples(st.integers(1900, 2100), st.integers(0, 13), st.integers(0, 32)).map(
                     lambda t: f"{t[0]:04d}-{t[1]:02d}-{t[2]:02d}"))


@settings(max_examples=200, deadline=None)
@given(law_id=IDS, rows=st.lists(st.fixed_dictionaries({"law_revision_id": IDS, "amendment_enforcement_date": DAYS,
                                                        "amendment_promulgate_date": DAYS, "repeal_date": DAYS}),
                                 max_size=4))
def test_a_revision_list_gives_only_e_gov_ids_of_the_asked_law_and_real_days(law_id: str,
                                                                            rows: list[dict[str, str]]) -> None:
    """Whatever the server lists, `_revision_list` gives the asked law's revisions with ids of e-Gov's grammar (safe
    in a URL) and real days, or refuses the list (`AnswerRefused`); never another exception."""
    data = {"law_info": {"law_id": law_id, "law_num": "平成五年法律第八十八号"}, "revisions": rows}
    try:
        listed = _revision_list(data, "405AC0000000088", "u")
    except AnswerRefused:
        return
    assert listed.law_id == "405AC0000000088"
    assert len({r.revision_id for r in listed.revisions}) == len(rows)
    for revision in listed.revisions:
        assert REVISION_ID.fullmatch(revision.revision_id) and revision.revision_id.startswith("405AC0000000088_")
        assert quote(revision.revision_id, safe="") == revision.revision_id


@settings(max_examples=200, deadline=None)
@given(value=st.one_of(st.text(max_size=40), st.floats(allow_nan=True).map(str), st.datetimes().map(
    lambda d: d.strftime("%a, %d %b %Y %H:%M:%S GMT"))))
def test_any_retry_after_is_a_wait_of_zero_or_more_seconds(value: str) -> None:
    seconds = _retry_after(value)
    assert seconds >= 0 and seconds == seconds
