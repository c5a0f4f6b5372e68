"""The e-Gov answer readers on arbitrary bodies: a `/law_data` answer gives the <Law> XML or `BadAnswer`, a
`/law_revisions` answer a `RevisionList` or `SourceUnavailable`; never another exception (which would stop a sync
with a traceback instead of one line)."""

from __future__ import annotations

import base64
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from lexgraph.statutes.egov_api import BadAnswer, CachedResponse, law_xml_of

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
