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
import contextlib
import hashlib
import json
import os
import re
import socket
import threading
import time
import unicodedata
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode, urljoin, urlsplit

from lexgraph.config import settings_table
from lexgraph.errors import (
    AnswerRefused,
    BadAnswer,
    ConfigurationError,
    EgovNotFound,
    SourceUnavailable,
    WrongLaw,
)
from lexgraph.statutes.timeline import PLACEHOLDER_FROM
from lexgraph.version import __version__

DEFAULT_API = "https://laws.e-gov.go.jp/api/2"
API_ENV = "LEXGRAPH_EGOV_API"
DEFAULT_PACE = 1.0  # seconds between two requests: e-Gov publishes no rate limit; one a second is polite
DEFAULT_RETRIES = 4
DEFAULT_TIMEOUT = 60.0  # a large law's text (所得税法: 16 MB) takes seconds
MAX_BACKOFF = 60.0
MAX_REDIRECTS = 5
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


@dataclass(frozen=True)
class SyncLimits:
    """What lexgraph accepts from a server, whatever it sends. Each answer is read as a stream and counted, so that
    a body larger than `max_answer_mb` or still coming after `answer_seconds` is dropped, not read on: a per-read
    timeout alone lets a server that drips a byte a second hold a sync for ever. The bulk archive, written to disk
    and hundreds of MB at e-Gov, has bounds of its own. A Retry-After beyond `max_retry_after` fails at once,
    naming the server's wish, rather than waiting silently."""

    max_answer_mb: float = 64.0  # the largest law (所得税法) is 16 MB of XML, 22 MB as Base64 in JSON
    answer_seconds: float = 300.0  # that answer at 1 Mbit/s takes three minutes
    max_retry_after: float = 600.0
    max_archive_mb: float = 4096.0
    archive_seconds: float = 3600.0

    @property
    def max_answer_bytes(self) -> int:
        return int(self.max_answer_mb * 1_000_000)

    @property
    def max_archive_bytes(self) -> int:
        return int(self.max_archive_mb * 1_000_000)

    @classmethod
    def configured(cls, flags: Mapping[str, float | None] | None = None) -> SyncLimits:
        """The limits as set: a flag (`flags`, by setting name) > ``LEXGRAPH_SYNC_<NAME>`` > ``name = …`` in
        lexgraph.toml's ``[sync]`` table > the default. A value that is not a positive number is a usage error
        naming where it came from."""
        table = settings_table("sync")
        unknown = sorted(set(table) - set(LIMIT_NAMES))
        if unknown:
            raise ConfigurationError(f"lexgraph.toml's [sync] has no setting {', '.join(unknown)}; the settings are "
                                     f"{', '.join(LIMIT_NAMES)}")
        values: dict[str, float] = {}
        for name, (option, variable) in LIMIT_NAMES.items():
            given: object = (flags or {}).get(name)
            where = option
            if given is None and os.environ.get(variable):
                given, where = os.environ[variable], variable
            if given is None and name in table:
                given, where = table[name], f"{name} in lexgraph.toml's [sync]"
            if given is None:
                continue
            try:
                if isinstance(given, bool):
                    raise TypeError
                number = float(given)  # type: ignore[arg-type]
            except (TypeError, ValueError):
                number = float("nan")
            if not number > 0 or number == float("inf"):
                raise ConfigurationError(f"{where} = {given!r}: give a positive number")
            values[name] = number
        return cls(**values)


#: Each limit's CLI option and environment variable (lexgraph.toml: ``[sync]`` with the limit's own name).
LIMIT_NAMES: dict[str, tuple[str, str]] = {
    "max_answer_mb": ("--max-answer-mb", "LEXGRAPH_SYNC_MAX_ANSWER_MB"),
    "answer_seconds": ("--answer-seconds", "LEXGRAPH_SYNC_ANSWER_SECONDS"),
    "max_retry_after": ("--max-retry-after", "LEXGRAPH_SYNC_MAX_RETRY_AFTER"),
    "max_archive_mb": ("--max-archive-mb", "LEXGRAPH_SYNC_MAX_ARCHIVE_MB"),
    "archive_seconds": ("--archive-seconds", "LEXGRAPH_SYNC_ARCHIVE_SECONDS"),
}


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
    old entry or the new one, never half of one.

    With `hold`, answers are kept in memory and nothing is written (not even the folder) until `release()`: a sync
    releases its cache once a first law has passed every check, so that one failing on its first answer leaves no
    cache behind."""

    def __init__(self, root: Path, *, hold: bool = False) -> None:
        self.root = Path(root)
        self._held: dict[str, tuple[str, str, bytes]] | None = {} if hold else None

    def release(self) -> None:
        """Write what was held and write through from now on."""
        held, self._held = self._held, None
        for key, (url, content_type, body) in (held or {}).items():
            self.put(key, url, content_type, body)

    def _request_file(self, key: str) -> Path:
        return self.root / "requests" / f"{hashlib.sha256(key.encode()).hexdigest()}.json"

    def _object_file(self, digest: str) -> Path:
        return self.root / "objects" / digest[:2] / digest

    def get(self, key: str) -> CachedResponse | None:
        if self._held is not None and key in self._held:
            url, content_type, body = self._held[key]
            return CachedResponse(url, 200, content_type, body, True)
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
        if self._held is not None:
            self._held[key] = (url, content_type, body)
            return
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
        except (BadAnswer, AnswerRefused, KeyError, TypeError, ValueError):
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


#: e-Gov's law ids: three digits (era and year: 405 is 平成5年, 321 昭和21年) and twelve letters or digits (the kind
#: and number: AC0000000088, CO…, M60000008…, lower case in some ministerial ordinances' ids, CONSTITUTION).
LAW_ID = re.compile(r"[0-9]{3}[0-9A-Za-z]{12}")
#: A revision id: ``<law id>_<YYYYMMDD>_<amending law id, or fifteen zeros for the enactment>``.
REVISION_ID = re.compile(r"([0-9]{3}[0-9A-Za-z]{12})_([0-9]{8})_([0-9A-Za-z]{15})")
_DAY_TEXT = re.compile(r"([0-9]{4}-[0-9]{2}-[0-9]{2})(?:[T ][0-9:.+\-Z]*)?")


def check_law_id(value: object, where: str) -> str:
    """`value` when it is an e-Gov law id (`LAW_ID`), else `AnswerRefused` naming `where`: an id goes into a URL
    and a store key, so ``../../x``, a NUL or a space is never passed on."""
    if not isinstance(value, str) or not LAW_ID.fullmatch(value):
        raise AnswerRefused(f"{where}: {value!r} is not an e-Gov law id (three digits and twelve letters or digits, "
                            f"e.g. 405AC0000000088)")
    return value


def check_revision_id(value: object, law_id: str, where: str) -> str:
    """`value` when it is a revision id of `law_id` whose day is a real day, else `AnswerRefused` naming `where`."""
    match = REVISION_ID.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        raise AnswerRefused(f"{where}: {value!r} is not an e-Gov revision id (<law id>_<YYYYMMDD>_<amending law "
                            f"id>, e.g. 405AC0000000088_20240401_504AC0100000052)")
    if match.group(1) != law_id:
        raise AnswerRefused(f"{where}: {value!r} is a revision of {match.group(1)}, not of {law_id}")
    day = match.group(2)
    try:
        date(int(day[:4]), int(day[4:6]), int(day[6:]))
    except ValueError:
        raise AnswerRefused(f"{where}: {value!r} holds {day}, which is no day") from None
    return match.group(0)


class _Deadline:
    """A bound on one answer's whole time, enforced from another thread: when it passes, the answer's sockets are
    shut, so that a read blocked on a server that drips a byte at a time returns at once. The sockets are learnt
    from httpcore's `trace` extension as each connection opens (connections are not kept alive, so that each
    request opens its own)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.expired = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True

    def __enter__(self) -> _Deadline:
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()

    def trace(self, event: str, info: Mapping[str, Any]) -> None:
        if event in ("connection.connect_tcp.complete", "connection.connect_unix_socket.complete"):
            stream = info.get("return_value")
            sock = stream.get_extra_info("socket") if stream is not None else None
            if isinstance(sock, socket.socket):
                with self._lock:
                    self._sockets.append(sock)
                    if self.expired:
                        _shut(sock)

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            for sock in self._sockets:
                _shut(sock)


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)


@dataclass
class EgovApi:
    """One server, one pace, one cache. `on_request(url, from_cache)` is told of every answer (for progress), and
    `on_wait(message, seconds)` of every wait a server asked for (Retry-After), before it begins.

    Everything the server sends is checked before it is used (`SyncLimits`, docs/security.md): each answer's size
    and time are bounded, redirects are followed only on the API's own scheme, host and port, a revision list must
    be the asked law's with e-Gov ids and real days, and a text must be the asked law's (`law_xml`'s `expected`)."""

    base_url: str = DEFAULT_API
    cache: ResponseCache | None = None
    pace: float = DEFAULT_PACE
    retries: int = DEFAULT_RETRIES
    timeout: float = DEFAULT_TIMEOUT
    backoff: float = 1.0
    on_request: Callable[[str, bool], None] | None = None
    on_wait: Callable[[str, float], None] | None = None
    limits: SyncLimits = field(default_factory=SyncLimits)
    fetched_from_server: int = field(default=0, init=False)  # answers that came from the server, not the cache
    _client: Any = field(default=None, init=False, repr=False)
    _last: float = field(default=0.0, init=False, repr=False)

    # -- endpoints ----------------------------------------------------------------------------------------------
    def revisions(self, law: str, *, updated_from: date | None = None) -> RevisionList:
        """``/law_revisions/{law}``: every revision e-Gov lists (with `updated_from`, only those whose data changed
        on or after that day). Lists change, so they are always fetched (and kept in the cache as a record).
        `law` is a law id (checked before it is put in the URL) or a law number; the list must be that law's,
        its ids e-Gov's and its days real days, else `AnswerRefused`."""
        if LAW_ID.fullmatch(law) is None and (not law.strip() or any(c in law for c in "/\\?#%\x00") or
                                               any(unicodedata.category(c)[0] == "C" for c in law)):
            raise AnswerRefused(f"law {law!r}: not an e-Gov law id or law number; nothing was asked of the server")
        params = {"updated_from": updated_from.isoformat()} if updated_from else {}
        url = self._url(f"/law_revisions/{quote(law, safe='')}", {**params, "response_format": "json"})
        try:
            answer = self._get(url, use_cache=False, law=law,
                               check=lambda a: _revision_list(_json_of(a), law, url))
            return _revision_list(_json_of(answer), law, url)
        except (BadAnswer, KeyError, TypeError, ValueError) as err:
            raise SourceUnavailable(f"{url}: the revision list is not in the format of the spec ({err})") from err

    def law_xml(self, revision_id: str, *, expected: ListedRevision | None = None, law_num: str = "") -> bytes:
        """One revision's 法令標準XML (the ``<Law>`` element). A revision's text never changes under its id, so a
        cached answer is used without asking the server. With `expected` (the list's entry) and `law_num` (the
        list's law number), the answer must be that law: its `law_info.law_id` and `revision_info` id, and the
        XML's <LawNum> and <LawTitle>, else `WrongLaw` before anything is cached or stored. Raises `BadAnswer` for
        an answer that is not the documented format (after the retries), `EgovNotFound`, or `SourceUnavailable`."""
        law = revision_id.split("_", 1)[0]
        check_revision_id(revision_id, check_law_id(law, f"revision {revision_id!r}"), f"revision {revision_id!r}")
        url = self._url(f"/law_data/{quote(revision_id, safe='')}",
                        {"law_full_text_format": "xml", "response_format": "json"})

        def check(answer: CachedResponse) -> bytes:
            xml = law_xml_of(answer)
            if expected is not None:
                _check_law_data(answer, xml, expected, law_num)
            return xml

        return check(self._get(url, use_cache=True, check=check, law=law))

    def laws(self, filters: Mapping[str, str], *, limit: int = 100) -> Iterator[dict[str, Any]]:
        """``/laws`` with `filters`, every page (`offset` → `next_offset` until it is null). Each entry's law id is
        checked (`check_law_id`) and its days are real days, and a law listed twice is refused (`AnswerRefused`)."""
        offset: int | None = 0
        seen: set[str] = set()
        while offset is not None:
            url = self._url("/laws", {**filters, "limit": str(limit), "offset": str(offset), "response_format": "json"})
            data = _json_of(self._get(url, use_cache=False, law=""))
            entries = data.get("laws") or []
            if not isinstance(entries, list):
                raise AnswerRefused(f"{url}: `laws` is not a list")
            for position, entry in enumerate(entries):
                where = f"{url}: laws[{position}]"
                info = entry.get("law_info") if isinstance(entry, dict) else None
                if not isinstance(info, dict):
                    raise AnswerRefused(f"{where}: no law_info")
                law_id = check_law_id(info.get("law_id"), f"{where}.law_info.law_id")
                if law_id in seen:
                    raise AnswerRefused(f"{where}: {law_id} is listed twice; one law per id")
                seen.add(law_id)
                _day(info.get("promulgation_date"), f"{where}.law_info.promulgation_date")
                for part in ("revision_info", "current_revision_info"):
                    revision = entry.get(part)
                    if isinstance(revision, dict):
                        for name in ("amendment_promulgate_date", "amendment_enforcement_date", "repeal_date"):
                            _day(revision.get(name), f"{where}.{part}.{name}")
                        if revision.get("law_revision_id") is not None:
                            check_revision_id(revision["law_revision_id"], law_id,
                                              f"{where}.{part}.law_revision_id")
                yield entry
            next_offset = data.get("next_offset")
            offset = int(next_offset) if next_offset is not None and entries else None

    def bulk_archive(self, target: Path) -> Path:
        """e-Gov's bulk download of every current law in one zip (``/bulkdownload?file_section=1&only_xml_flag=true``
        on the site that serves the API, as the spec's introduction gives it), streamed to `target`. A complete
        download is kept and used again; a partial one is never left under `target`'s name. Bounded by the limits'
        `max_archive_mb` and `archive_seconds`, which stop it with `AnswerRefused`."""
        import httpx

        if target.is_file() and target.stat().st_size > 0:
            return target
        site = self.base_url.removesuffix("/api/2")
        url = f"{site}/bulkdownload?file_section=1&only_xml_flag=true"
        temporary = target.with_name(f".{target.name}.{os.getpid()}.part")
        problem = ""
        try:
            for attempt in range(self.retries + 1):
                self._wait_pace()
                try:
                    status, _, _, _ = self._request(url, "", self.limits.max_archive_bytes,
                                                    self.limits.archive_seconds, sink=temporary)
                    if status == 200:
                        os.replace(temporary, target)
                        self.fetched_from_server += 1
                        return target
                    problem = f"HTTP {status}"
                    if status < 500 and status != 429:
                        break
                except httpx.TransportError as err:
                    problem = f"{type(err).__name__}: {err}"
                if attempt < self.retries:
                    time.sleep(min(self.backoff * 2 ** attempt, MAX_BACKOFF))
        finally:
            temporary.unlink(missing_ok=True)
        raise SourceUnavailable(f"{url}: {problem}; download the archive yourself and pass --archive FILE")

    # -- HTTP ---------------------------------------------------------------------------------------------------
    def _url(self, path: str, params: Mapping[str, str]) -> str:
        return f"{self.base_url}{path}?{urlencode(sorted(params.items()))}" if params else f"{self.base_url}{path}"

    def _get(self, url: str, *, use_cache: bool, law: str, check: Callable[[CachedResponse], object] | None = None
             ) -> CachedResponse:
        key = url[len(self.base_url):] if url.startswith(self.base_url) else url
        if use_cache and self.cache is not None:
            cached = self.cache.get(key)
            if cached is not None:
                try:
                    if check is not None:
                        check(cached)
                except (BadAnswer, AnswerRefused):
                    cached = None
                if cached is not None:
                    if self.on_request:
                        self.on_request(url, True)
                    return cached
        answer = self._fetch(url, check, law)
        self.fetched_from_server += 1
        if self.cache is not None:
            self.cache.put(key, url, answer.content_type, answer.body)
        if self.on_request:
            self.on_request(url, False)
        return answer

    def _fetch(self, url: str, check: Callable[[CachedResponse], object] | None, law: str) -> CachedResponse:
        import httpx

        problem, garbled = "", False
        for attempt in range(self.retries + 1):
            self._wait_pace()
            wait = min(self.backoff * 2 ** attempt, MAX_BACKOFF)
            garbled = False
            try:
                status, content_type, retry_after, body = self._request(
                    url, law, self.limits.max_answer_bytes, self.limits.answer_seconds)
            except httpx.TimeoutException:
                problem = f"no answer within {self.timeout:g} s"
            except httpx.TransportError as err:  # refused, reset, or cut short (a truncated body)
                problem = f"{type(err).__name__}: {err}" if str(err) else type(err).__name__
            else:
                if status == 200:
                    answer = CachedResponse(url, status, content_type, body, False)
                    if check is None:
                        return answer
                    try:
                        check(answer)
                        return answer
                    except WrongLaw as err:  # another law: asking again would not make it this one
                        raise WrongLaw(f"{url}: {err}") from None
                    except BadAnswer as err:  # a body cut short or garbled on the way: asked again
                        problem, garbled = str(err), True
                elif status == 404:
                    raise EgovNotFound(f"{url}: e-Gov has no such law or revision (404{_error_info(body)})")
                elif status == 429 or status >= 500:
                    problem = f"HTTP {status}{_error_info(body)}"
                    if retry_after is not None and attempt < self.retries:
                        asked = self._retry_wait(retry_after, url, law, status)
                        if asked > wait and self.on_wait is not None:
                            self.on_wait(f"{_who(law)}{url}: HTTP {status} asks to wait {_duration(asked)} "
                                         f"(Retry-After: {retry_after}); waiting", asked)
                        wait = max(wait, asked)
                else:
                    raise SourceUnavailable(f"{_who(law)}{url}: HTTP {status}{_error_info(body)}")
            if attempt < self.retries:
                time.sleep(wait)
        if garbled:  # the server answers, but not in the documented format: this revision fails, not the sync
            raise BadAnswer(f"{url}: {problem} (after {self.retries + 1} tries)")
        raise SourceUnavailable(f"{_who(law)}{url}: {problem} (after {self.retries + 1} tries); "
                                f"try again later, or --api another server")

    def _retry_wait(self, value: str, url: str, law: str, status: int) -> float:
        """The seconds a Retry-After asks for, within the limits' `max_retry_after`; beyond it `AnswerRefused`
        naming the server's wish (a server asking for days gets a failure, not a silent wait)."""
        seconds = _retry_after(value)
        if seconds > self.limits.max_retry_after:
            option, variable = LIMIT_NAMES["max_retry_after"]
            raise AnswerRefused(
                f"{_who(law)}{url}: HTTP {status} asks to wait {_duration(seconds)} (Retry-After: {value}), more "
                f"than the bound of {self.limits.max_retry_after:g} s; try again later, or raise the bound with "
                f"{option} or {variable}")
        return seconds

    def _request(self, url: str, law: str, max_bytes: int, seconds: float, *, sink: Path | None = None
                 ) -> tuple[int, str, str | None, bytes]:
        """GET `url`, following redirects on the API's own scheme, host and port only, and read the body as a
        stream, counting: (status, content type, Retry-After, body). With `sink`, a 200 body is written there
        instead of kept. More than `max_bytes` or than `seconds` in all (redirects included) is `AnswerRefused`
        naming `law`, the URL and the bound. Transport errors are httpx's, for the caller's retries."""
        import httpx

        if self._client is None:
            self._client = httpx.Client(
                timeout=self.timeout, follow_redirects=False, limits=httpx.Limits(max_keepalive_connections=0),
                headers={"User-Agent": USER_AGENT, "Accept": "application/json, application/xml;q=0.9"})
        target = url
        with _Deadline(min(seconds, 1e9)) as deadline:
            try:
                for _ in range(MAX_REDIRECTS + 1):
                    with self._client.stream("GET", target, extensions={"trace": deadline.trace}) as response:
                        if response.is_redirect:
                            target = self._redirect(url, target, response.headers.get("location"), law)
                            continue
                        status = response.status_code
                        if status != 200:  # an error's body is a line of JSON, even where an archive was asked
                            max_bytes = min(max_bytes, self.limits.max_answer_bytes)
                        announced = response.headers.get("content-length", "")
                        if announced.isdigit() and int(announced) > max_bytes:
                            raise self._too_large(url, law, max_bytes, f"announces {int(announced):,} bytes, more than")
                        body = bytearray()
                        keep = sink is not None and status == 200
                        if keep and sink is not None:
                            sink.parent.mkdir(parents=True, exist_ok=True)
                        with (sink.open("wb") if keep and sink is not None else _NoFile()) as out:
                            count = 0
                            for chunk in response.iter_bytes(1 << 16):  # decoded: a gzip bomb counts as it grows
                                count += len(chunk)
                                if count > max_bytes:
                                    raise self._too_large(url, law, max_bytes, "goes on past")
                                if deadline.expired:
                                    raise self._too_slow(url, law, seconds)
                                if out is not None:
                                    out.write(chunk)
                                else:
                                    body.extend(chunk)
                        if deadline.expired:
                            raise self._too_slow(url, law, seconds)
                        return status, response.headers.get("content-type", ""), \
                            response.headers.get("retry-after"), bytes(body)
            except httpx.TransportError:
                if deadline.expired:
                    raise self._too_slow(url, law, seconds) from None
                raise
        raise AnswerRefused(f"{_who(law)}{url}: more than {MAX_REDIRECTS} redirects; check --api")

    def _redirect(self, url: str, current: str, location: str | None, law: str) -> str:
        """Where a redirect leads, when that is on the API's own scheme, host and port; else `AnswerRefused`
        naming the target (a redirect elsewhere could serve anything as e-Gov's law)."""
        if not location:
            raise AnswerRefused(f"{_who(law)}{url}: a redirect without a Location")
        target = urljoin(current, location)
        home, there = urlsplit(self.base_url), urlsplit(target)
        try:
            same = (there.scheme.lower(), there.hostname, there.port or _PORTS.get(there.scheme.lower())) == \
                (home.scheme.lower(), home.hostname, home.port or _PORTS.get(home.scheme.lower()))
        except ValueError:
            same = False
        if not same:
            fix = ("download the archive yourself and pass --archive FILE" if "/bulkdownload" in url
                   else "check --api")
            raise AnswerRefused(f"{_who(law)}{url}: redirected to {target!r}, not the API's host "
                                f"{home.scheme}://{home.netloc}; redirects are followed only there ({fix})")
        return target

    def _too_large(self, url: str, law: str, max_bytes: int, how: str) -> AnswerRefused:
        option, variable = LIMIT_NAMES["max_archive_mb" if "/bulkdownload" in url else "max_answer_mb"]
        return AnswerRefused(f"{_who(law)}{url}: the answer {how} the bound of {max_bytes / 1e6:g} MB; "
                             f"nothing of it was kept (raise the bound with {option} or {variable})")

    def _too_slow(self, url: str, law: str, seconds: float) -> AnswerRefused:
        option, variable = LIMIT_NAMES["archive_seconds" if "/bulkdownload" in url else "answer_seconds"]
        return AnswerRefused(f"{_who(law)}{url}: the answer took longer than the bound of {seconds:g} s in all; "
                             f"nothing of it was kept (raise the bound with {option} or {variable})")

    def _wait_pace(self) -> None:
        delay = self._last + self.pace - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        self._last = time.monotonic()

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None


_PORTS = {"http": 80, "https": 443}


def _who(law: str) -> str:
    """The law a message is about, as its first words ("law 405AC0000000088: "), or nothing for a request of no
    one law (``/laws``, the bulk download)."""
    return f"law {law}: " if law else ""


class _NoFile:
    """The sink of an answer kept in memory (`EgovApi._request` without a file)."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def _duration(seconds: float) -> str:
    if seconds >= 86400 * 365:
        return f"{seconds / (86400 * 365.25):,.0f} years"
    if seconds >= 86400:
        return f"{seconds / 86400:,.1f} days"
    return f"{seconds:,.0f} s"


def _retry_after(value: str | None) -> float:
    """Seconds a Retry-After header asks for (seconds, or an HTTP date; 0 when it is neither)."""
    if not value:
        return 0.0
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError, OverflowError):
            return 0.0
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        seconds = (when - datetime.now(UTC)).total_seconds()
    return seconds if seconds > 0 else 0.0  # NaN and negatives: no wait asked


def _check_law_data(answer: CachedResponse, xml: bytes, expected: ListedRevision, law_num: str) -> None:
    """`WrongLaw` unless a ``/law_data`` answer is the listed revision: the JSON's `law_info.law_id` and
    `revision_info.law_revision_id` (when the answer has them), the XML's <LawNum> against the list's law number
    (the identity: the same in all 7,479 laws of the 2020 archive) and its <LawTitle>, when it has one (16 of
    them have none), against the entry's title, compared after NFKC and without spaces."""
    wanted = expected.revision_id
    info: dict[str, Any] = {}
    if "json" in answer.content_type:
        try:
            data = json.loads(answer.body)
        except ValueError:
            data = {}
        info = data if isinstance(data, dict) else {}
    else:
        for name in (b"law_id", b"law_revision_id"):
            match = re.search(rb"<" + name + rb">([^<]*)</" + name + rb">", answer.body[:8192])
            if match:
                info.setdefault(name.decode(), match.group(1).decode("utf-8", "replace"))
    law_info = info.get("law_info") if isinstance(info.get("law_info"), dict) else info
    revision_info = info.get("revision_info") if isinstance(info.get("revision_info"), dict) else info
    given_law = law_info.get("law_id") if isinstance(law_info, dict) else None
    if given_law is not None and given_law != expected.law_id:
        raise WrongLaw(f"law_data is not the law asked for: law_info.law_id is {given_law!r}, the list's law is "
                       f"{expected.law_id}")
    given_revision = revision_info.get("law_revision_id") if isinstance(revision_info, dict) else None
    if given_revision is not None and given_revision != wanted:
        raise WrongLaw(f"law_data is not the revision asked for: revision_info.law_revision_id is "
                       f"{given_revision!r}, not {wanted}")
    head = xml[:65536].decode("utf-8", "replace")
    number = re.search(r"<LawNum>([^<]*)</LawNum>", head)
    if law_num and (number is None or _plain(number.group(1)) != _plain(law_num)):
        raise WrongLaw(f"law_data is not the law asked for: its <LawNum> is "
                       f"{number.group(1) if number else 'missing'}, the list gives {law_num} for {expected.law_id}")
    title = re.search(r"<LawTitle(?:\s[^>]*)?>([^<]*)</LawTitle>", head)
    if expected.law_title and title is not None and _plain(title.group(1)) != _plain(expected.law_title):
        raise WrongLaw(f"law_data is not the law asked for: its <LawTitle> is {title.group(1)}, the list gives "
                       f"{expected.law_title} for {wanted}")


def _plain(text: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


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


def _day(value: object, where: str) -> date | None:
    """A day the server gives (``YYYY-MM-DD``, a time may follow), None when it gives none; a value that is no
    real day (2024-02-30) is `AnswerRefused` naming the field, never taken for a day left open."""
    if value is None or value == "":
        return None
    match = _DAY_TEXT.fullmatch(value) if isinstance(value, str) else None
    try:
        if match is None:
            raise ValueError
        return date.fromisoformat(match.group(1))
    except ValueError:
        raise AnswerRefused(f"{where}: {value!r} is not a day (YYYY-MM-DD, a real date)") from None


def _text(value: object) -> str:
    return "" if value is None or value is False else str(value)


def _revision_list(data: dict[str, Any], asked: str | None = None, url: str = "") -> RevisionList:
    """The `RevisionList` of a ``/law_revisions`` answer, checked: `law_info.law_id` is an e-Gov law id and the
    `asked` law's (its id, or its law number when a number was asked), every revision id is that law's, listed
    once, and every day is a real day; else `AnswerRefused` naming the entry and the field."""
    where = f"law {asked}: {url}" if asked else url or "the revision list"
    info = data["law_info"]
    if not isinstance(info, dict):
        raise BadAnswer("`law_info` is not an object")
    law_id = check_law_id(info.get("law_id"), f"{where}: law_info.law_id")
    law_num = _text(info.get("law_num"))
    if asked is not None and asked != law_id and (LAW_ID.fullmatch(asked) or _plain(asked) != _plain(law_num)):
        raise AnswerRefused(f"{where}: the list is of another law: law_info.law_id is {law_id} ({law_num}), "
                            f"not {asked}")
    rows = data["revisions"]
    if not isinstance(rows, list):
        raise BadAnswer("`revisions` is not a list")
    revisions = []
    seen: set[str] = set()
    for position, row in enumerate(rows):
        entry = f"{where}: revisions[{position}]"
        if not isinstance(row, dict):
            raise AnswerRefused(f"{entry} is not an object")
        revision_id = check_revision_id(row.get("law_revision_id"), law_id, f"{entry}.law_revision_id")
        if revision_id in seen:
            raise AnswerRefused(f"{entry}.law_revision_id: {revision_id} is listed twice")
        seen.add(revision_id)
        entry = f"{where}: revision {revision_id}"
        revisions.append(ListedRevision(
            revision_id=revision_id, law_id=law_id, law_title=_text(row.get("law_title")),
            enforcement_date=_day(row.get("amendment_enforcement_date"), f"{entry}: amendment_enforcement_date"),
            enforcement_comment=_text(row.get("amendment_enforcement_comment")),
            promulgated=_day(row.get("amendment_promulgate_date"), f"{entry}: amendment_promulgate_date"),
            amendment_law_id=_text(row.get("amendment_law_id")),
            amendment_law_num=_text(row.get("amendment_law_num")),
            amendment_law_title=_text(row.get("amendment_law_title")),
            status=_text(row.get("current_revision_status")), repeal_status=_text(row.get("repeal_status")) or "None",
            repeal_date=_day(row.get("repeal_date"), f"{entry}: repeal_date"), updated=_text(row.get("updated")),
        ))
    # e-Gov lists newest first; in time order, a revision whose day is open goes last (it is not in force yet).
    revisions.sort(key=lambda r: (r.enforced_from is None, r.enforcement_date or date.max, r.revision_id))
    return RevisionList(law_id, law_num, _text(info.get("law_type")), tuple(revisions))
