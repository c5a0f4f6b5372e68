"""A client of e-Gov 法令API Version 2 (https://laws.e-gov.go.jp/api/2, spec ``lawapi-v2.yaml``) that behaves.

Three endpoints are used (docs/statutes.md "Sync from e-Gov" says which parts of the spec were checked against
which published example):

- ``GET /law_revisions/{law_id_or_num}``: a law's whole revision history (`RevisionList`); `updated_from` narrows
  it to the revisions whose data changed since a day (the spec has no such filter on ``/laws``);
- ``GET /law_data/{law_revision_id}?law_full_text_format=xml&response_format=json``: one revision's 法令標準XML,
  Base64 inside JSON (the spec: when the two formats differ, `law_full_text` is Base64); an answer in XML
  (``<law_data_response>…<law_full_text><Law …>``) is read too;
- ``GET /laws``: laws by title, number or id, paged with `limit` / `offset` / `next_offset`.

The client keeps a pace (a minimum time between requests), names itself (User-Agent: lexgraph and its version),
retries timeouts, dropped or truncated answers, 429 (after Retry-After) and 5xx with a growing back-off, and
turns everything else into one clear line: `EgovNotFound` (exit 1) for a 404, `SourceUnavailable` (exit 3) for
the rest. Every answer is kept in a content-addressed `ResponseCache`, so that the texts of revisions (which never
change under their id) are fetched once, whatever happens to the sync that asked for them.

This module is in the statutes layer: it knows HTTP and e-Gov's formats, nothing of the store.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import re
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from lexgraph.errors import NotFound, SourceUnavailable
from lexgraph.statutes.timeline import PLACEHOLDER_FROM
from lexgraph.version import __version__

DEFAULT_API = "https://laws.e-gov.go.jp/api/2"
API_ENV = "LEXGRAPH_EGOV_API"
DEFAULT_PACE = 1.0  # seconds between two requests: e-Gov publishes no rate limit; one a second is polite
DEFAULT_RETRIES = 4
DEFAULT_TIMEOUT = 60.0  # a large law's text (所得税法: 16 MB) takes seconds
MAX_BACKOFF = 60.0
USER_AGENT = f"lexgraph/{__version__} (e-Gov law sync; python-httpx)"

#: ``current_revision_status`` values (spec schema `current_revision_status`).
CURRENT, PREVIOUS, UNENFORCED, REPEALED = "CurrentEnforced", "PreviousEnforced", "UnEnforced", "Repeal"
#: ``repeal_status`` values other than "None" that end a law (spec schema `repeal_status`; Suspend does not).
REPEAL_STATUSES = frozenset({"Repeal", "Expire", "LossOfEffectiveness"})
_OPEN_DAY = re.compile(r"政令で定める日|勅令で定める日|別に法律で定める日|省令で定める日")
# A day set by another event (「刑法等一部改正法施行日」, 「…法の施行の日」, 「…条約が日本国について効力を生ずる日」).
_FIXED_ELSEWHERE = re.compile(r"施行(?:の)?日|効力を生ずる日|発効")


def api_base(option: str | None) -> str:
    """The server: `--api`, else ``LEXGRAPH_EGOV_API``, else e-Gov's own; without a trailing slash."""
    return (option or os.environ.get(API_ENV) or DEFAULT_API).rstrip("/")


class EgovNotFound(NotFound):
    """The server has no such law or revision (HTTP 404)."""


@dataclass(frozen=True)
class ListedRevision:
    """One entry of ``/law_revisions`` (spec schema `revision_info`), as far as lexgraph needs it."""

    revision_id: str
    law_id: str
    law_title: str
    enforcement_date: date | None  # amendment_enforcement_date
    enforcement_comment: str  # amendment_enforcement_comment: 「…政令で定める日」 when e-Gov leaves the day open
    promulgated: date | None  # amendment_promulgate_date
    amendment_law_id: str
    amendment_law_num: str
    amendment_law_title: str
    status: str  # current_revision_status
    repeal_status: str  # "None", "Repeal", "Expire", "Suspend", "LossOfEffectiveness"
    repeal_date: date | None
    updated: str

    @property
    def day_open(self) -> bool:
        """Whether e-Gov leaves this revision's 施行期日 open: no date, e-Gov's placeholder day (2117-12-31, for
        「…条約が日本国について効力を生ずる日」), or a revision not yet in force whose day a 政令 or another law's
        enforcement is to fix (e-Gov then gives the latest possible day as `amendment_enforcement_date`, or a
        placeholder, not the day: its comment says what fixes it)."""
        return self.enforcement_date is None or self.enforcement_date >= PLACEHOLDER_FROM or (
            self.status == UNENFORCED and bool(_OPEN_DAY.search(self.enforcement_comment)
                                               or _FIXED_ELSEWHERE.search(self.enforcement_comment)))

    @property
    def enforced_from(self) -> date | None:
        """The day this wording takes effect, or None when e-Gov leaves it open (never guessed)."""
        return None if self.day_open else self.enforcement_date

    @property
    def ends_law(self) -> bool:
        """A revision that records the law's repeal (廃止・失効・実効性喪失) rather than a new wording."""
        return self.status == REPEALED or self.repeal_status in REPEAL_STATUSES

    def describe(self) -> str:
        law = self.amendment_law_num or "original enactment"
        return f"{self.revision_id} ({law}{', ' + self.enforcement_comment if self.enforcement_comment else ''})"


@dataclass(frozen=True)
class RevisionList:
    """A law's revision history as ``/law_revisions`` gives it, oldest first."""

    law_id: str
    law_num: str
    law_type: str
    revisions: tuple[ListedRevision, ...]

    @property
    def repealed_on(self) -> date | None:
        """The day the law ceased to be in force when a revision records its repeal (the repealing revision's
        enforcement date, else its `repeal_date`); None when it was not repealed or e-Gov gives no day."""
        ending = [r for r in self.revisions if r.ends_law]
        if not ending:
            return None
        last = ending[-1]
        return last.enforcement_date or last.repeal_date

    @property
    def repealed(self) -> bool:
        return any(r.ends_law for r in self.revisions)


@dataclass(frozen=True)
class CachedResponse:
    url: str
    status: int
    content_type: str
    body: bytes
    from_cache: bool


class ResponseCache:
    """Answers kept on disk by content: ``objects/ab/<sha256>`` holds a body, ``requests/<sha256 of the request>.json``
    names the body a request gave. A request is keyed by its path from the API root on (``/law_data/…?…``), so
    that e-Gov and a mirror of it (`--api`), which serve a revision under the same id, share what was fetched.
    Both files are written to a temporary file and renamed, so that a process killed mid-write leaves either the
    old entry or the new one, never half of one."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def _request_file(self, key: str) -> Path:
        return self.root / "requests" / f"{hashlib.sha256(key.encode()).hexdigest()}.json"

    def _object_file(self, digest: str) -> Path:
        return self.root / "objects" / digest[:2] / digest

    def get(self, key: str) -> CachedResponse | None:
        entry_file = self._request_file(key)
        try:
            entry = json.loads(entry_file.read_text(encoding="utf-8"))
            body = self._object_file(entry["sha256"]).read_bytes()
        except (OSError, ValueError, KeyError):
            return None
        if hashlib.sha256(body).hexdigest() != entry["sha256"]:
            return None  # a damaged object is fetched again, never trusted
        return CachedResponse(entry.get("url", key), int(entry.get("status", 200)), entry.get("content_type", ""),
                              body, True)

    def put(self, key: str, url: str, content_type: str, body: bytes) -> None:
        digest = hashlib.sha256(body).hexdigest()
        target = self._object_file(digest)
        if not target.exists():
            _write_atomic(target, body)
        entry = {"key": key, "url": url, "sha256": digest, "status": 200, "content_type": content_type,
                 "fetched_at": datetime.now(UTC).isoformat(timespec="seconds")}
        _write_atomic(self._request_file(key), json.dumps(entry, ensure_ascii=False).encode("utf-8"))


def cached_revision_lists(cache: ResponseCache) -> Iterator[RevisionList]:
    """Every whole revision list (``/law_revisions/{law}`` without `updated_from`) a cache holds, newest answer per
    law: what a sync read, for the former titles of renamed laws (``scripts/build_former_titles.py``). An entry
    that is damaged or not in the spec's format is skipped: the cache is a record, not a source of errors."""
    newest: dict[str, tuple[str, RevisionList]] = {}
    for entry_file in sorted((cache.root / "requests").glob("*.json")):
        try:
            entry = json.loads(entry_file.read_text(encoding="utf-8"))
            key = str(entry["key"])
        except (OSError, ValueError, KeyError):
            continue
        if not key.startswith("/law_revisions/") or "updated_from=" in key:
            continue
        answer = cache.get(key)
        if answer is None:
            continue
        try:
            listed = _revision_list(_json_of(answer))
        except (BadAnswer, KeyError, TypeError, ValueError):
            continue
        fetched = str(entry.get("fetched_at", ""))
        if listed.law_id not in newest or fetched >= newest[listed.law_id][0]:
            newest[listed.law_id] = (fetched, listed)
    for _, listed in sorted(newest.values(), key=lambda pair: pair[1].law_id):
        yield listed


def _write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)


class BadAnswer(ValueError):
    """An answer that is not what the spec documents (wrong content type, broken JSON or Base64, no <Law>)."""


@dataclass
class EgovApi:
    """One server, one pace, one cache. `on_request(url, from_cache)` is told of every answer (for progress)."""

    base_url: str = DEFAULT_API
    cache: ResponseCache | None = None
    pace: float = DEFAULT_PACE
    retries: int = DEFAULT_RETRIES
    timeout: float = DEFAULT_TIMEOUT
    backoff: float = 1.0
    on_request: Callable[[str, bool], None] | None = None
    fetched_from_server: int = field(default=0, init=False)  # answers that came from the server, not the cache
    _client: Any = field(default=None, init=False, repr=False)
    _last: float = field(default=0.0, init=False, repr=False)

    # -- endpoints ----------------------------------------------------------------------------------------------
    def revisions(self, law: str, *, updated_from: date | None = None) -> RevisionList:
        """``/law_revisions/{law}``: every revision e-Gov lists (with `updated_from`, only those whose data changed
        on or after that day). Lists change, so they are always fetched (and kept in the cache as a record)."""
        params = {"updated_from": updated_from.isoformat()} if updated_from else {}
        url = self._url(f"/law_revisions/{quote(law, safe='')}", {**params, "response_format": "json"})
        answer = self._get(url, use_cache=False)
        try:
            data = _json_of(answer)
            return _revision_list(data)
        except (BadAnswer, KeyError, TypeError, ValueError) as err:
            raise SourceUnavailable(f"{url}: the revision list is not in the format of the spec ({err})") from err

    def law_xml(self, revision_id: str) -> bytes:
        """One revision's 法令標準XML (the ``<Law>`` element). A revision's text never changes under its id, so a
        cached answer is used without asking the server. Raises `BadAnswer` for an answer that is not the
        documented format (after the retries), `EgovNotFound`, or `SourceUnavailable`."""
        url = self._url(f"/law_data/{quote(revision_id, safe='')}",
                        {"law_full_text_format": "xml", "response_format": "json"})
        answer = self._get(url, use_cache=True, check=law_xml_of)
        return law_xml_of(answer)

    def laws(self, filters: Mapping[str, str], *, limit: int = 100) -> Iterator[dict[str, Any]]:
        """``/laws`` with `filters`, every page (`offset` → `next_offset` until it is null)."""
        offset: int | None = 0
        while offset is not None:
            url = self._url("/laws", {**filters, "limit": str(limit), "offset": str(offset), "response_format": "json"})
            data = _json_of(self._get(url, use_cache=False))
            yield from data.get("laws") or []
            next_offset = data.get("next_offset")
            offset = int(next_offset) if next_offset is not None and data.get("laws") else None

    def bulk_archive(self, target: Path) -> Path:
        """e-Gov's bulk download of every current law in one zip (``/bulkdownload?file_section=1&only_xml_flag=true``
        on the site that serves the API, as the spec's introduction gives it), streamed to `target`. A complete
        download is kept and used again; a partial one is never left under `target`'s name."""
        import httpx

        if target.is_file() and target.stat().st_size > 0:
            return target
        site = self.base_url.removesuffix("/api/2")
        url = f"{site}/bulkdownload?file_section=1&only_xml_flag=true"
        temporary = target.with_name(f".{target.name}.{os.getpid()}.part")
        target.parent.mkdir(parents=True, exist_ok=True)
        if self._client is None:
            self._client = httpx.Client(timeout=self.timeout, follow_redirects=True,
                                        headers={"User-Agent": USER_AGENT})
        problem = ""
        for attempt in range(self.retries + 1):
            self._wait_pace()
            try:
                with self._client.stream("GET", url) as response:
                    if response.status_code == 200:
                        with temporary.open("wb") as sink:
                            for chunk in response.iter_bytes(1 << 20):
                                sink.write(chunk)
                        os.replace(temporary, target)
                        self.fetched_from_server += 1
                        return target
                    problem = f"HTTP {response.status_code}"
                    if response.status_code < 500 and response.status_code != 429:
                        break
            except httpx.TransportError as err:
                problem = f"{type(err).__name__}: {err}"
            if attempt < self.retries:
                time.sleep(min(self.backoff * 2 ** attempt, MAX_BACKOFF))
        temporary.unlink(missing_ok=True)
        raise SourceUnavailable(f"{url}: {problem}; download the archive yourself and pass --archive FILE")

    # -- HTTP ---------------------------------------------------------------------------------------------------
    def _url(self, path: str, params: Mapping[str, str]) -> str:
        return f"{self.base_url}{path}?{urlencode(sorted(params.items()))}" if params else f"{self.base_url}{path}"

    def _get(self, url: str, *, use_cache: bool, check: Callable[[CachedResponse], object] | None = None
             ) -> CachedResponse:
        key = url[len(self.base_url):] if url.startswith(self.base_url) else url
        if use_cache and self.cache is not None:
            cached = self.cache.get(key)
            if cached is not None:
                try:
                    if check is not None:
                        check(cached)
                except BadAnswer:
                    cached = None
                if cached is not None:
                    if self.on_request:
                        self.on_request(url, True)
                    return cached
        answer = self._fetch(url, check)
        self.fetched_from_server += 1
        if self.cache is not None:
            self.cache.put(key, url, answer.content_type, answer.body)
        if self.on_request:
            self.on_request(url, False)
        return answer

    def _fetch(self, url: str, check: Callable[[CachedResponse], object] | None) -> CachedResponse:
        import httpx

        if self._client is None:
            self._client = httpx.Client(timeout=self.timeout, follow_redirects=True,
                                        headers={"User-Agent": USER_AGENT,
                                                 "Accept": "application/json, application/xml;q=0.9"})
        problem, garbled = "", False
        for attempt in range(self.retries + 1):
            self._wait_pace()
            wait = min(self.backoff * 2 ** attempt, MAX_BACKOFF)
            garbled = False
            try:
                response = self._client.get(url)
                body = response.content  # reads it whole: a body shorter than its Content-Length raises here
            except httpx.TimeoutException:
                problem = f"no answer within {self.timeout:g} s"
            except httpx.TransportError as err:  # refused, reset, or cut short (a truncated body)
                problem = f"{type(err).__name__}: {err}" if str(err) else type(err).__name__
            else:
                status = response.status_code
                if status == 200:
                    answer = CachedResponse(url, status, response.headers.get("content-type", ""), body, False)
                    if check is None:
                        return answer
                    try:
                        check(answer)
                        return answer
                    except BadAnswer as err:  # a body cut short or garbled on the way: asked again
                        problem, garbled = str(err), True
                elif status == 404:
                    raise EgovNotFound(f"{url}: e-Gov has no such law or revision (404{_error_info(body)})")
                elif status == 429 or status >= 500:
                    problem = f"HTTP {status}{_error_info(body)}"
                    if status == 429:
                        wait = max(wait, _retry_after(response.headers.get("retry-after")))
                else:
                    raise SourceUnavailable(f"{url}: HTTP {status}{_error_info(body)}")
            if attempt < self.retries:
                time.sleep(wait)
        if garbled:  # the server answers, but not in the documented format: this revision fails, not the sync
            raise BadAnswer(f"{url}: {problem} (after {self.retries + 1} tries)")
        raise SourceUnavailable(f"{url}: {problem} (after {self.retries + 1} tries); "
                                f"try again later, or --api another server")

    def _wait_pace(self) -> None:
        delay = self._last + self.pace - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        self._last = time.monotonic()

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None


def _retry_after(value: str | None) -> float:
    """Seconds to wait from a Retry-After header (seconds, or an HTTP date); capped so that a server asking for
    hours gets the caller's failure rather than a silent hang."""
    if not value:
        return 0.0
    try:
        seconds = float(value)
    except ValueError:
        try:
            seconds = (parsedate_to_datetime(value) - datetime.now(UTC)).total_seconds()
        except (TypeError, ValueError):
            return 0.0
    return max(0.0, min(seconds, 300.0))


def _error_info(body: bytes) -> str:
    """The spec's `error_info` (``{"code": "404001", "message": "…"}``) as ``: 404001 …``, when the body has it."""
    try:
        data = json.loads(body)
    except ValueError:
        match = re.search(rb"<code>([^<]*)</code>\s*<message>([^<]*)</message>", body)
        return f": {match.group(1).decode()} {match.group(2).decode()}" if match else ""
    if isinstance(data, dict) and ("code" in data or "message" in data):
        return f": {data.get('code', '')} {data.get('message', '')}".rstrip()
    return ""


def _json_of(answer: CachedResponse) -> dict[str, Any]:
    if "json" not in answer.content_type:
        raise BadAnswer(f"answered {answer.content_type or 'no content type'}, not application/json")
    try:
        data = json.loads(answer.body)
    except ValueError as err:
        raise BadAnswer(f"not JSON ({err})") from err
    if not isinstance(data, dict):
        raise BadAnswer("not a JSON object")
    return data


_LAW_IN_XML = re.compile(rb"<law_full_text>\s*(<Law[\s>].*</Law>)\s*</law_full_text>", re.DOTALL)


def law_xml_of(answer: CachedResponse) -> bytes:
    """The ``<Law>`` XML of a ``/law_data`` answer: Base64 in JSON's `law_full_text`, or the element itself in an
    XML answer. Raises `BadAnswer` when the answer is neither."""
    kind = answer.content_type.split(";")[0].strip().lower()
    if kind == "application/json":
        try:
            data = json.loads(answer.body)
        except ValueError as err:
            raise BadAnswer(f"not JSON ({err})") from err
        text = data.get("law_full_text") if isinstance(data, dict) else None
        if not isinstance(text, str):
            raise BadAnswer("no <Law> in the answer: law_full_text is not the Base64 string the spec gives for "
                            "law_full_text_format=xml")
        try:
            xml = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError) as err:
            raise BadAnswer(f"broken Base64 in law_full_text ({err})") from err
    elif kind in ("application/xml", "text/xml"):
        match = _LAW_IN_XML.search(answer.body)
        if match is None:
            raise BadAnswer("no <Law> in the answer's law_full_text")
        xml = match.group(1)
    else:
        raise BadAnswer(f"answered {kind or 'no content type'}, not application/json or application/xml")
    if b"<Law" not in xml[:4096]:
        raise BadAnswer("no <Law> in the answer's law_full_text")
    return xml


def _day(value: object) -> date | None:
    if not value:
        return None
    try:
        return date.fromisoformat(str(value)[:10])
    except ValueError:
        return None


def _text(value: object) -> str:
    return "" if value is None or value is False else str(value)


def _revision_list(data: dict[str, Any]) -> RevisionList:
    info = data["law_info"]
    law_id = str(info["law_id"])
    rows = data["revisions"]
    if not isinstance(rows, list):
        raise BadAnswer("`revisions` is not a list")
    revisions = [
        ListedRevision(
            revision_id=str(row["law_revision_id"]), law_id=law_id, law_title=_text(row.get("law_title")),
            enforcement_date=_day(row.get("amendment_enforcement_date")),
            enforcement_comment=_text(row.get("amendment_enforcement_comment")),
            promulgated=_day(row.get("amendment_promulgate_date")),
            amendment_law_id=_text(row.get("amendment_law_id")),
            amendment_law_num=_text(row.get("amendment_law_num")),
            amendment_law_title=_text(row.get("amendment_law_title")),
            status=_text(row.get("current_revision_status")), repeal_status=_text(row.get("repeal_status")) or "None",
            repeal_date=_day(row.get("repeal_date")), updated=_text(row.get("updated")),
        )
        for row in rows
    ]
    # e-Gov lists newest first; in time order, a revision whose day is open goes last (it is not in force yet).
    revisions.sort(key=lambda r: (r.enforced_from is None, r.enforcement_date or date.max, r.revision_id))
    return RevisionList(law_id, _text(info.get("law_num")), _text(info.get("law_type")), tuple(revisions))
