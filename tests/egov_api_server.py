"""A local e-Gov 法令API Version 2 for tests: a real HTTP server on 127.0.0.1, written from the spec.

Written from ``lawapi-v2.yaml`` (v2.1.138, as mirrored in ngs/go-jplaw-api-v2), not from lexgraph's client:

- ``GET /api/2/law_revisions/{law_id_or_num}`` → `law_revisions_response`: ``law_info`` and ``revisions`` (each a
  `revision_info`), newest first; filters ``updated_from`` / ``updated_to`` (on `updated`, days inclusive) and
  ``current_revision_status`` (comma-separated); no paging (the spec has none for this endpoint);
- ``GET /api/2/law_data/{law_id_or_num_or_revision_id}`` → `law_data_response`: ``law_info``, ``revision_info``,
  ``law_full_text``; with ``law_full_text_format=xml`` and ``response_format=json`` the XML is Base64 in the JSON
  (the spec: formats differ → Base64), with both ``xml`` an XML document whose ``<law_full_text>`` holds
  ``<Law>``; a law id or number gives the CurrentEnforced revision;
- ``GET /api/2/laws`` → `laws_response`: ``total_count``, ``count``, ``next_offset`` (null at the end) and
  ``laws``; filters ``law_id``, ``law_num``, ``law_title`` (partial match), paging ``limit`` (default 100) /
  ``offset``;
- ``GET /bulkdownload?file_section=1&only_xml_flag=true`` (the spec's introduction, on the site beside the API):
  a zip of every current law, each as ``<law_revision_id>/<law_revision_id>.xml`` (the member naming is this
  server's choice: the spec does not describe the zip's layout);
- errors as `error_info` ``{"code", "message"}``; a law the server does not have is 404 (the spec documents 404
  with `error_info` for ``/attachment``; the same form is used here).

Beside the spec, for tests: `fail_next` queues faults for a path (429 with Retry-After, 500, a body cut short of
its Content-Length, a wrong content type), `delay` slows every ``law_data`` answer, and `log` records every
request (and `completed` every answer sent whole) for the tests to read.

A hostile server, switched on per test: `fail_next` also serves an endless body (with or without a Content-Length
of 2 GB), a body dripped a byte at a time, a redirect to any URL, a 429 with any Retry-After, and another
revision's whole answer in place of the one asked; `impostor_text`, `listed_as` and `with_listed` below make laws
whose text is another law's, whose list is another law's, or whose list holds ids and days no e-Gov list holds.

The laws served are real e-Gov XML from tests/data/egov and lexgraph/data/sample; `civil_code_history` and the
others below rename and re-date copies where a test needs more revisions than e-Gov's files at hand (each such
entry says so in its amendment title).
"""

from __future__ import annotations

import base64
import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

ROOT = Path(__file__).parents[1]
SAMPLE = ROOT / "lexgraph" / "data" / "sample"
EGOV = Path(__file__).parent / "data" / "egov"
TEST_MARK = "（試験用に改名・日付変更した写し）"


@dataclass
class Revision:
    """One `revision_info` and the XML file whose text it serves."""

    info: dict[str, Any]
    xml: Path | bytes | None  # bytes: a body prepared by the test (e.g. XML that does not parse)

    def law_xml(self) -> bytes:
        if isinstance(self.xml, bytes):
            return self.xml
        assert self.xml is not None
        data = self.xml.read_bytes()
        return re.sub(rb"^<\?xml[^>]*\?>\s*", b"", data)  # law_full_text holds the <Law> element


@dataclass
class Law:
    law_info: dict[str, Any]
    revisions: list[Revision] = field(default_factory=list)  # oldest first


def revision_info(revision_id: str, title: str, *, status: str, promulgated: str | None, enforced: str | None,
                  amendment_num: str | None = None, amendment_title: str | None = None, comment: str | None = None,
                  repeal_status: str = "None", repeal_date: str | None = None, amendment_type: str = "3",
                  updated: str = "2024-07-21T13:56:59+09:00") -> dict[str, Any]:
    """A `revision_info` with every property the spec lists."""
    amending = revision_id.split("_")[2]
    return {
        "law_revision_id": revision_id, "law_type": "Act", "law_title": title, "law_title_kana": "",
        "abbrev": None, "category": "民事", "updated": updated,
        "amendment_promulgate_date": promulgated, "amendment_enforcement_date": enforced,
        "amendment_enforcement_comment": comment, "amendment_scheduled_enforcement_date": None,
        "amendment_law_id": None if amending == "000000000000000" else amending,
        "amendment_law_title": amendment_title, "amendment_law_title_kana": None, "amendment_law_num": amendment_num,
        "amendment_type": amendment_type, "repeal_status": repeal_status, "repeal_date": repeal_date,
        "remain_in_force": False, "mission": "New" if amendment_type in ("1", "3") else "Partial",
        "current_revision_status": status,
    }


def law_info(law_id: str, law_num: str, era: str, year: int, num: str, promulgated: str) -> dict[str, Any]:
    return {"law_type": "Act", "law_id": law_id, "law_num": law_num, "law_num_era": era, "law_num_year": year,
            "law_num_type": "Act", "law_num_num": num, "promulgation_date": promulgated}


CIVIL_CODE = "129AC0000000089"
SCHEDULED_CIVIL = f"{CIVIL_CODE}_20270401_507AC0000000099"
OPEN_DAY_CIVIL = f"{CIVIL_CODE}_20291231_508AC0000000100"


def civil_code_history() -> Law:
    """民法: the three revisions at hand (2020-04-01, 2020-05-16, 2023-06-14), then two revisions not yet in force,
    copies of the 2023 text renamed and re-dated: one from 2027-04-01, one whose day a 政令 is to fix."""
    title = "民法"
    law = Law(law_info(CIVIL_CODE, "明治二十九年法律第八十九号", "Meiji", 29, "089", "1896-04-27"))
    law.revisions = [
        Revision(revision_info(f"{CIVIL_CODE}_20200401_501AC0000000034", title, status="PreviousEnforced",
                               promulgated="2019-05-17", enforced="2020-04-01", amendment_num="令和元年法律第三十四号",
                               amendment_title="民事執行法及び国際的な子の奪取の民事上の側面に関する条約の実施に関する"
                                               "法律の一部を改正する法律"),
                 SAMPLE / f"{CIVIL_CODE}_20200401_501AC0000000034.xml"),
        Revision(revision_info(f"{CIVIL_CODE}_20200516_501AC0000000002", title, status="PreviousEnforced",
                               promulgated="2019-05-17", enforced="2020-05-16", amendment_num="令和元年法律第二号",
                               amendment_title="民法等の一部を改正する法律"),
                 EGOV / f"{CIVIL_CODE}_20200516_501AC0000000002.xml"),
        Revision(revision_info(f"{CIVIL_CODE}_20230614_505AC0000000053", title, status="CurrentEnforced",
                               promulgated="2023-06-14", enforced="2023-06-14", amendment_num="令和五年法律第五十三号",
                               amendment_title="民事関係手続等における情報通信技術の活用等の推進を図るための関係法律の"
                                               "整備に関する法律"),
                 SAMPLE / f"{CIVIL_CODE}_20230614_505AC0000000053.xml"),
        Revision(revision_info(SCHEDULED_CIVIL, title, status="UnEnforced", promulgated="2026-06-01",
                               enforced="2027-04-01", amendment_num="令和八年法律第九十九号",
                               amendment_title=f"民法の一部を改正する法律{TEST_MARK}",
                               updated="2026-06-01T09:00:00+09:00"),
                 SAMPLE / f"{CIVIL_CODE}_20230614_505AC0000000053.xml"),
        Revision(revision_info(OPEN_DAY_CIVIL, title, status="UnEnforced", promulgated="2026-06-02",
                               enforced="2029-12-31", amendment_num="令和八年法律第百号",
                               amendment_title=f"民法等の一部を改正する法律{TEST_MARK}",
                               comment="公布の日から起算して三年六月を超えない範囲内において政令で定める日",
                               updated="2026-06-02T09:00:00+09:00"),
                 SAMPLE / f"{CIVIL_CODE}_20230614_505AC0000000053.xml"),
    ]
    return law


SUBCONTRACT = "331AC0000000120"


def repealed_law() -> Law:
    """下請代金支払遅延等防止法, its 2015 text, then a revision recording its repeal on 2026-01-01 (renamed and re-dated
    for the test: the real law was amended and renamed, not repealed)."""
    title = "下請代金支払遅延等防止法"
    law = Law(law_info(SUBCONTRACT, "昭和三十一年法律第百二十号", "Showa", 31, "120", "1956-06-01"))
    xml = EGOV / f"{SUBCONTRACT}_20150801_000000000000000.xml"
    law.revisions = [
        Revision(revision_info(f"{SUBCONTRACT}_20150801_000000000000000", title, status="PreviousEnforced",
                               promulgated="1956-06-01", enforced="2015-08-01", amendment_type="1"), xml),
        Revision(revision_info(f"{SUBCONTRACT}_20260101_507AC0000000200", title, status="Repeal",
                               promulgated="2025-05-23", enforced="2026-01-01", amendment_num="令和七年法律第二百号",
                               amendment_title=f"下請代金支払遅延等防止法を廃止する法律{TEST_MARK}",
                               repeal_status="Repeal", repeal_date="2026-01-01", amendment_type="8"), xml),
    ]
    return law


RENAMED_TITLE = "製造委託等に係る中小受託事業者に対する代金の支払の遅延等の防止に関する法律"
RENAMED_ON = "2026-01-01"


def renamed_law() -> Law:
    """下請代金支払遅延等防止法, its 2015 text, then a revision from 2026-01-01 whose `law_title` (and the served text's
    <LawTitle>) is another title: a renaming, as e-Gov lists one. The second revision is a copy of the
    2015 text with its <LawTitle> replaced and the renaming law's 附則 added, made for the test (its amendment title
    says so)."""
    old_title = "下請代金支払遅延等防止法"
    law = Law(law_info(SUBCONTRACT, "昭和三十一年法律第百二十号", "Showa", 31, "120", "1956-06-01"))
    xml = EGOV / f"{SUBCONTRACT}_20150801_000000000000000.xml"
    body = re.sub(rb"^<\?xml[^>]*\?>\s*", b"", xml.read_bytes())
    renamed = body.replace(f"<LawTitle>{old_title}</LawTitle>".encode(),
                           f"<LawTitle>{RENAMED_TITLE}</LawTitle>".encode())
    # Like every e-Gov text, the renaming revision carries the 附則 of the law that made it (a sync checks that).
    renamed = renamed.replace(b"</LawBody>", (
        '<SupplProvision AmendLawNum="令和七年五月二三日法律第四一号"><SupplProvisionLabel>附　則</SupplProvisionLabel>'
        '<Paragraph Num="1"><ParagraphNum/><ParagraphSentence><Sentence>この法律は、令和八年一月一日から施行する。'
        '</Sentence></ParagraphSentence></Paragraph></SupplProvision></LawBody>').encode())
    assert renamed != body and renamed.count(b"</LawBody>") == 1
    law.revisions = [
        Revision(revision_info(f"{SUBCONTRACT}_20150801_000000000000000", old_title, status="PreviousEnforced",
                               promulgated="1956-06-01", enforced="2015-08-01", amendment_type="1"), xml),
        Revision(revision_info(f"{SUBCONTRACT}_20260101_507AC0000000041", RENAMED_TITLE, status="CurrentEnforced",
                               promulgated="2025-05-23", enforced=RENAMED_ON, amendment_num="令和七年法律第四十一号",
                               amendment_title=f"下請代金支払遅延等防止法の一部を改正する法律{TEST_MARK}"), renamed),
    ]
    return law


PROCEDURE = "405AC0000000088"
BROKEN_PROCEDURE = f"{PROCEDURE}_20220401_503AC0000000999"


def procedure_act_with_broken_revision() -> Law:
    """行政手続法: its 2018 and 2024 revisions, and between them a listed revision whose text is cut off in the middle
    (it does not parse): it must be reported and left out, the others stored."""
    title = "行政手続法"
    law = Law(law_info(PROCEDURE, "平成五年法律第八十八号", "Heisei", 5, "088", "1993-11-12"))
    later = EGOV / f"{PROCEDURE}_20240401_504AC0100000052.xml"
    law.revisions = [
        Revision(revision_info(f"{PROCEDURE}_20180401_429AC0000000004", title, status="PreviousEnforced",
                               promulgated="2017-03-31", enforced="2018-04-01", amendment_num="平成二十九年法律第四号"),
                 EGOV / f"{PROCEDURE}_20180401_429AC0000000004.xml"),
        Revision(revision_info(BROKEN_PROCEDURE, title, status="PreviousEnforced", promulgated="2021-05-19",
                               enforced="2022-04-01", amendment_num="令和三年法律第九百九十九号",
                               amendment_title=f"行政手続法の一部を改正する法律{TEST_MARK}"),
                 re.sub(rb"^<\?xml[^>]*\?>\s*", b"", later.read_bytes())[:5000]),
        Revision(revision_info(f"{PROCEDURE}_20240401_504AC0100000052", title, status="CurrentEnforced",
                               promulgated="2022-05-25", enforced="2024-04-01", amendment_num="令和四年法律第五十二号"),
                 later),
    ]
    return law


def impostor_text(law: Law, revision_id: str, other: Path) -> Law:
    """`law` with the text of `revision_id` replaced by `other`'s (another law's XML), its list unchanged: what a
    server sends when it answers ``/law_data`` with the wrong law."""
    for revision in law.revisions:
        if revision.info["law_revision_id"] == revision_id:
            revision.xml = other
            return law
    raise KeyError(revision_id)


def listed_as(asked: str, law: Law) -> Law:
    """`law` (another law) served under the id `asked`: ``/law_revisions/{asked}`` answers with `law`'s list."""
    return Law(dict(law.law_info, served_as=asked), law.revisions)


def with_listed(law: Law, revision_id: str, **info: Any) -> Law:
    """`law` whose list entry `revision_id` has the given properties instead (an id, a day); `law_info_law_id`
    replaces the list's `law_info.law_id`."""
    if "law_info_law_id" in info:
        law.law_info = dict(law.law_info, law_id=info.pop("law_info_law_id"),
                            served_as=law.law_info.get("served_as", law.law_info["law_id"]))
    for revision in law.revisions:
        if revision.info["law_revision_id"] == revision_id:
            revision.info = {**revision.info, **info}
            return law
    raise KeyError(revision_id)


def default_laws() -> list[Law]:
    return [civil_code_history(), repealed_law(), procedure_act_with_broken_revision()]


class EgovApiServer:
    """Start with `start()` (or as a context manager); `url` is the API base (``http://127.0.0.1:PORT/api/2``)."""

    def __init__(self, laws: list[Law] | None = None, *, delay: float = 0.0) -> None:
        self.laws = {law.law_info.get("served_as", law.law_info["law_id"]): law
                     for law in (laws if laws is not None else default_laws())}
        self.stopping = threading.Event()  # ends the endless and dripping answers when the server stops
        self.delay = delay  # seconds before each law_data answer
        self.drip = 1.0  # seconds between two bytes of a "drip" answer
        self.log: list[str] = []  # "GET /api/2/law_data/…?…", every request in order
        self.completed: list[str] = []  # requests whose answer was sent whole
        self._faults: list[tuple[str, str]] = []  # (path fragment, fault), each used once
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/api/2"

    def start(self) -> EgovApiServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> EgovApiServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def fail_next(self, fragment: str, fault: str) -> None:
        """The next request whose path contains `fragment` gets `fault`: "429" (Retry-After: 1), "500",
        "truncated" (a body shorter than its Content-Length), "html" (200 with text/html); and hostile ones:
        "endless" (200, JSON that never ends, no Content-Length), "2gb" (the same announced as 2 GB), "drip" (the
        true answer, one byte every `drip` seconds), "drip-headers" (the status line and headers so),
        "redirect:URL" (302 to URL), "retry-after:VALUE" (429 with that Retry-After), "serve:REVISION_ID" (that
        revision's whole answer instead)."""
        with self._lock:
            self._faults.append((fragment, fault))

    def requests(self, endpoint: str) -> list[str]:
        with self._lock:
            return [line for line in self.log if f"/api/2/{endpoint}" in line]

    def _take_fault(self, path: str) -> str | None:
        with self._lock:
            for index, (fragment, fault) in enumerate(self._faults):
                if fragment in path:
                    del self._faults[index]
                    return fault
        return None

    # -- the API ----------------------------------------------------------------------------------------------
    def _find_law(self, key: str) -> Law | None:
        return self.laws.get(key) or next((law for law in self.laws.values() if law.law_info["law_num"] == key),
                                          None)

    def _law_revisions(self, key: str, query: dict[str, str]) -> tuple[int, Any]:
        law = self._find_law(key)
        if law is None:
            return 404, {"code": "404001", "message": f"指定の法令（{key}）は存在しません。"}
        rows = [r.info for r in reversed(law.revisions)]  # newest first
        if "updated_from" in query:
            rows = [r for r in rows if r["updated"][:10] >= query["updated_from"]]
        if "updated_to" in query:
            rows = [r for r in rows if r["updated"][:10] <= query["updated_to"]]
        if "current_revision_status" in query:
            wanted = set(query["current_revision_status"].split(","))
            rows = [r for r in rows if r["current_revision_status"] in wanted]
        return 200, {"law_info": law.law_info, "revisions": rows}

    def _law_data(self, key: str) -> tuple[Law, Revision] | None:
        for law in self.laws.values():
            for revision in law.revisions:
                if revision.info["law_revision_id"] == key:
                    return law, revision
        law = self._find_law(key)
        if law is None:
            return None
        current = [r for r in law.revisions if r.info["current_revision_status"] == "CurrentEnforced"]
        return (law, current[-1]) if current else None

    def _laws(self, query: dict[str, str]) -> dict[str, Any]:
        rows = []
        for law in sorted(self.laws.values(), key=lambda law: law.law_info["law_id"]):
            current = [r for r in law.revisions if r.info["current_revision_status"] == "CurrentEnforced"] \
                or law.revisions
            info = current[-1].info
            if query.get("law_id", "") not in law.law_info["law_id"]:
                continue
            if query.get("law_num", "") not in law.law_info["law_num"]:
                continue
            if query.get("law_title", "") not in info["law_title"]:
                continue
            rows.append({"law_info": law.law_info, "revision_info": info, "current_revision_info": info})
        limit = int(query.get("limit", "100"))
        offset = int(query.get("offset", "0"))
        page = rows[offset:offset + limit]
        following = offset + limit if offset + limit < len(rows) else None
        return {"total_count": len(rows), "count": len(page), "next_offset": following, "laws": page}

    def _bulk_zip(self) -> bytes:
        """The bulk download of every current law (the spec's introduction: ``/bulkdownload?file_section=1&
        only_xml_flag=true``): one zip, each law's CurrentEnforced text as ``<revision id>/<revision id>.xml``."""
        import io
        import zipfile

        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for law in self.laws.values():
                current = [r for r in law.revisions if r.info["current_revision_status"] == "CurrentEnforced"]
                if current:
                    revision_id = current[-1].info["law_revision_id"]
                    archive.writestr(f"{revision_id}/{revision_id}.xml", current[-1].law_xml())
        return buffer.getvalue()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # quiet
                return

            def do_GET(self) -> None:
                with server._lock:
                    server.log.append(f"GET {self.path}")
                parts = urlsplit(self.path)
                path = unquote(parts.path)
                query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
                fault = server._take_fault(path)
                if fault and fault.startswith("redirect:"):
                    return self._send(302, b"", "text/plain", {"Location": fault.split(":", 1)[1]})
                if fault and fault.startswith("retry-after:"):
                    return self._send(429, b'{"code":"429000","message":"Too Many Requests"}', "application/json",
                                      {"Retry-After": fault.split(":", 1)[1]})
                if fault in ("endless", "2gb"):
                    return self._endless(fault == "2gb")
                if fault == "drip-headers":  # the status line and headers themselves, a byte at a time
                    self.close_connection = True
                    return self._drip(b"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n" + b"X-Slow: a\r\n" * 500)
                if fault and fault.startswith("serve:"):
                    path = path.rsplit("/", 1)[0] + "/" + fault.split(":", 1)[1]
                if fault == "429":
                    return self._send(429, b'{"code":"429000","message":"Too Many Requests"}', "application/json",
                                      {"Retry-After": "1"})
                if fault == "500":
                    error = {"code": "500001", "message": "サーバ内処理で異常が発生しました。"}
                    return self._send(500, json.dumps(error, ensure_ascii=False).encode(), "application/json")
                if path.startswith("/api/2/law_revisions/"):
                    status, payload = server._law_revisions(path.rsplit("/", 1)[1], query)
                    return self._json(status, payload, fault)
                if path.startswith("/api/2/law_data/"):
                    if server.delay:
                        time.sleep(server.delay)
                    found = server._law_data(path.rsplit("/", 1)[1])
                    if found is None:
                        return self._json(404, {"code": "404001", "message": "指定の法令は存在しません。"}, fault)
                    law, revision = found
                    xml = revision.law_xml()
                    if query.get("response_format") == "xml" and query.get("law_full_text_format", "xml") == "xml":
                        body = (b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<law_data_response><law_info>"
                                + f"<law_id>{law.law_info['law_id']}</law_id>".encode() + b"</law_info>"
                                + b"<revision_info><law_revision_id>"
                                + revision.info["law_revision_id"].encode()
                                + b"</law_revision_id></revision_info><law_full_text>" + xml
                                + b"</law_full_text></law_data_response>")
                        return self._send(200, body, "application/xml", fault=fault)
                    payload = {"attached_files_info": None, "law_info": law.law_info,
                               "revision_info": revision.info,
                               "law_full_text": base64.b64encode(xml).decode("ascii")}
                    return self._json(200, payload, fault)
                if path == "/api/2/laws":
                    return self._json(200, server._laws(query), fault)
                if path == "/bulkdownload" and query.get("file_section") == "1":
                    return self._send(200, server._bulk_zip(), "application/zip", fault=fault)
                return self._json(404, {"code": "404000", "message": "no such endpoint"}, fault)

            def _endless(self, announce: bool) -> None:
                """A JSON answer that never ends: a `law_full_text` of "A"s until the client hangs up."""
                self.send_response(200)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                if announce:
                    self.send_header("Content-Length", str(2_000_000_000))
                self.end_headers()
                self.close_connection = True
                chunk = b"A" * (1 << 16)
                try:
                    self.wfile.write(b'{"law_full_text":"')
                    while not server.stopping.is_set():
                        self.wfile.write(chunk)
                except OSError:  # the client hung up, as it should
                    return

            def _drip(self, body: bytes) -> None:
                try:
                    for position in range(len(body)):
                        if server.stopping.wait(server.drip):
                            return
                        self.wfile.write(body[position:position + 1])
                        self.wfile.flush()
                except OSError:  # the client hung up, as it should
                    return

            def _json(self, status: int, payload: Any, fault: str | None) -> None:
                self._send(status, json.dumps(payload, ensure_ascii=False).encode("utf-8"), "application/json",
                           fault=fault)

            def _send(self, status: int, body: bytes, content_type: str, headers: dict[str, str] | None = None,
                      fault: str | None = None) -> None:
                if fault == "html":
                    body, content_type = b"<html><body>Service Temporarily Unavailable</body></html>", "text/html"
                self.send_response(status)
                self.send_header("Content-Type", content_type if "charset" in content_type or content_type
                                 == "text/html" else f"{content_type}; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                if fault == "drip":
                    self.close_connection = True
                    return self._drip(body)
                if fault == "truncated":
                    self.wfile.write(body[: len(body) // 2])
                    self.wfile.flush()
                    self.close_connection = True
                    return
                self.wfile.write(body)
                with server._lock:
                    server.completed.append(f"GET {self.path}")

        return Handler


def main() -> None:
    """Serve until interrupted, for trying `lexgraph sync --api` by hand: prints the base URL."""
    with EgovApiServer() as api:
        print(api.url, flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
