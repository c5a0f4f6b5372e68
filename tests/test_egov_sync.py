"""`lexgraph sync` against a local e-Gov 法令API v2 (tests/egov_api_server.py, written from the spec): every listed
revision stored with the period the list gives, scheduled and repealed laws, a second sync that fetches nothing,
a client that retries what it should and fails in one line otherwise, and a sync killed with SIGKILL that the next
one completes to the same store."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from lexgraph.client import LexGraph
from lexgraph.errors import EgovNotFound, SourceUnavailable
from lexgraph.statutes.egov_api import USER_AGENT, EgovApi, ResponseCache
from tests.egov_api_server import (
    BROKEN_PROCEDURE,
    CIVIL_CODE,
    OPEN_DAY_CIVIL,
    PROCEDURE,
    SCHEDULED_CIVIL,
    SUBCONTRACT,
    EgovApiServer,
    revision_info,
)
from tests.helpers import ROOT, SAMPLE, lexgraph


@pytest.fixture
def server() -> Any:
    with EgovApiServer() as api:
        yield api


def _sync(api: EgovApiServer, store: Path, *laws: str, extra: tuple[str, ...] = ()) -> Any:
    return lexgraph("sync", *laws, "--api", api.url, "--pace", "0", "--json", *extra, store=store)


def test_sync_stores_every_listed_revision_with_the_period_the_list_gives(server: EgovApiServer,
                                                                         tmp_path: Path) -> None:
    store = tmp_path / "store"
    run = _sync(server, store, "民法")
    assert run.code == 0, run.stderr
    today = date.today()
    assert run.json()["synced_on"] == today.isoformat()
    assert run.json()["revisions_listed"] == 5 and run.json()["scheduled"] == 2
    versions = lexgraph("law", "versions", "民法", "--json", store=store).json()["versions"]
    periods = {v["revision_id"]: (v["enforced_from"], v["enforced_until"]) for v in versions}
    assert periods == {
        f"{CIVIL_CODE}_20200401_501AC0000000034": ("2020-04-01", "2020-05-16"),
        f"{CIVIL_CODE}_20200516_501AC0000000002": ("2020-05-16", "2023-06-14"),
        f"{CIVIL_CODE}_20230614_505AC0000000053": ("2023-06-14", "2027-04-01"),
        SCHEDULED_CIVIL: ("2027-04-01", None),
        OPEN_DAY_CIVIL: (None, None),  # 政令で定める日: the upper bound e-Gov gives is not taken for the day
    }
    assert all(v["dated_by"] == "egov-api" for v in versions)
    # This list lacks the amendments the texts' 附則 name between its revisions: each is a gap naming both sources.
    assert all(a["conflict"] for v in versions for a in v["gap"]) and versions[1]["known_until"] == "2020-05-17"
    current = versions[2]
    assert current["known_up_to"] == today.isoformat() and not current["scheduled"]
    assert f"known up to {today.isoformat()}" in current["period"]
    assert [v["scheduled"] for v in versions] == [False, False, False, True, True]
    assert versions[3]["period"] == "scheduled (施行予定) from 2027-04-01; not known in force on any day"
    assert "day not fixed" in versions[4]["period"]
    table = lexgraph("law", "versions", "民法", store=store, env={"COLUMNS": "120"})
    assert table.stdout.count("施行予定") == 2 and "(known up to" in table.stdout and today.isoformat() in table.stdout

    for day, revision, wording in (("2020-05-16", f"{CIVIL_CODE}_20200516_501AC0000000002", "年齢二十歳"),
                                   ("2023-07-01", f"{CIVIL_CODE}_20230614_505AC0000000053", "年齢十八歳")):
        shown = lexgraph("law", "show", "民法", "第四条", "--as-of", day, "--json", store=store)
        assert shown.code == 0, shown.stderr
        assert shown.json()["revision_id"] == revision and shown.json()["version_dated_by"] == "egov-api"
        assert shown.json()["text"].startswith(f"第四条　{wording}")
        assert shown.stderr == ""  # no gap message, no warning

    # What the server was asked: the list once, each dated revision's text once, never the open-day one's.
    texts = server.requests("law_data")
    assert len(server.requests("law_revisions")) == 1 and len(texts) == 4
    assert not any(OPEN_DAY_CIVIL in line for line in texts)

    # A second sync fetches no text and changes no count.
    before = lexgraph("stats", "--json", store=store).json()
    again = _sync(server, store, "民法")
    assert again.code == 0, again.stderr
    assert again.json()["versions_added"] == 0 and again.json()["texts_fetched"] == 0
    assert again.json()["laws_linked"] == 0  # nothing changed: nothing relinked
    assert len(server.requests("law_data")) == 4
    assert lexgraph("stats", "--json", store=store).json() == before


def test_a_repealed_law_and_a_revision_that_does_not_parse(server: EgovApiServer, tmp_path: Path) -> None:
    store = tmp_path / "store"
    run = _sync(server, store, "下請代金支払遅延等防止法", "行政手続法", extra=("--no-link",))
    assert run.code == 1  # a revision was left out: reported, and the exit code says so
    failures = run.json()["failures"]
    assert [(f["law_id"], f["revision_id"]) for f in failures] == [(PROCEDURE, BROKEN_PROCEDURE)]
    assert "not well-formed" in failures[0]["reason"]

    procedure = lexgraph("law", "versions", "行政手続法", "--json", store=store).json()["versions"]
    assert [v["revision_id"] for v in procedure] == [f"{PROCEDURE}_20180401_429AC0000000004",
                                                     f"{PROCEDURE}_20240401_504AC0100000052"]
    # The wording before the missing revision is known only up to the day it should have taken effect.
    assert procedure[0]["known_until"] == "2022-04-01" and procedure[0]["enforced_until"] == "2024-04-01"

    repealed = lexgraph("law", "versions", SUBCONTRACT, "--json", store=store).json()
    assert repealed["repealed_on"] == "2026-01-01"
    assert [(v["enforced_from"], v["enforced_until"]) for v in repealed["versions"]] == [("2015-08-01", "2026-01-01")]
    shown = lexgraph("law", "show", SUBCONTRACT, "第一条", "--as-of", "2026-07-01", store=store)
    assert shown.code == 1 and "repealed" in shown.stderr and "2026-01-01" in shown.stderr
    assert lexgraph("law", "show", SUBCONTRACT, "第一条", "--as-of", "2025-12-31", store=store).code == 0
    # The repeal revision records an end, not a wording: its text is never asked for.
    assert not any("20260101" in line for line in server.requests("law_data"))


def test_refresh_asks_what_changed_since_the_last_sync(server: EgovApiServer, tmp_path: Path) -> None:
    store = tmp_path / "store"
    assert _sync(server, store, "下請代金支払遅延等防止法", extra=("--no-link",)).code == 0
    nothing = _sync(server, store)
    assert nothing.code == 0, nothing.stderr
    assert nothing.json()["unchanged"] == [SUBCONTRACT] and nothing.json()["texts_fetched"] == 0
    assert f"updated_from={date.today().isoformat()}" in server.requests("law_revisions")[-1]

    # e-Gov publishes a new revision: the refresh reads the list again and fetches only its text.
    law = server.laws[SUBCONTRACT]
    law.revisions.insert(1, type(law.revisions[0])(
        revision_info(f"{SUBCONTRACT}_20250601_507AC0000000300", "下請代金支払遅延等防止法", status="PreviousEnforced",
                      promulgated="2025-05-01", enforced="2025-06-01", amendment_num="令和七年法律第三百号",
                      updated=f"{date.today().isoformat()}T09:00:00+09:00"),
        law.revisions[0].xml))
    served = len(server.requests("law_data"))
    changed = _sync(server, store)
    assert changed.code == 0, changed.stderr
    assert changed.json()["laws"] == [SUBCONTRACT] and changed.json()["texts_fetched"] == 1
    assert len(server.requests("law_data")) == served + 1
    versions = lexgraph("law", "versions", SUBCONTRACT, "--json", store=store).json()["versions"]
    assert [(v["enforced_from"], v["enforced_until"]) for v in versions] == [
        ("2015-08-01", "2025-06-01"), ("2025-06-01", "2026-01-01")]


def test_the_cache_serves_a_new_store_without_the_network(server: EgovApiServer, tmp_path: Path) -> None:
    first = tmp_path / "first"
    assert _sync(server, first, "下請代金支払遅延等防止法", extra=("--no-link",)).code == 0
    second = tmp_path / "second"
    second.mkdir()
    shutil.copytree(first / "egov-cache", second / "egov-cache")
    served = len(server.requests("law_data"))
    run = _sync(server, second, "下請代金支払遅延等防止法", extra=("--no-link",))
    assert run.code == 0, run.stderr
    assert run.json()["texts_from_cache"] == 1 and run.json()["texts_fetched"] == 0
    assert len(server.requests("law_data")) == served


def test_unknown_law_is_not_found_and_an_unreachable_server_is_unavailable(server: EgovApiServer,
                                                                           tmp_path: Path) -> None:
    missing = lexgraph("sync", "999AC0000000999", "--api", server.url, "--pace", "0", store=tmp_path / "s")
    assert missing.code == 1
    assert "no such law" in missing.stderr and "999AC0000000999" in missing.stderr
    assert len(missing.stderr.strip().splitlines()) == 1

    with socket.socket() as probe:  # a port nobody listens on: connections are refused
        probe.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{probe.getsockname()[1]}/api/2"
    down = lexgraph("sync", "民法", "--api", url, "--pace", "0", store=tmp_path / "s", timeout=120)
    assert down.code == 3
    assert "after 5 tries" in down.stderr and len(down.stderr.strip().splitlines()) == 1


def test_the_client_retries_429_500_a_truncated_body_and_a_wrong_content_type(server: EgovApiServer,
                                                                               tmp_path: Path) -> None:
    api = EgovApi(server.url, cache=ResponseCache(tmp_path / "cache"), pace=0, backoff=0.05)
    server.fail_next("law_revisions", "429")
    started = time.monotonic()
    listed = api.revisions(CIVIL_CODE)
    assert time.monotonic() - started >= 1.0  # Retry-After: 1 honoured
    assert len(listed.revisions) == 5 and len(server.requests("law_revisions")) == 2

    revision = f"{CIVIL_CODE}_20200401_501AC0000000034"
    for fault in ("500", "truncated", "html"):
        server.fail_next(revision, fault)
    xml = api.law_xml(revision)
    assert xml.startswith(b"<Law") and xml == (SAMPLE / f"{revision}.xml").read_bytes().split(b"?>", 1)[1].lstrip()
    assert len(server.requests(f"law_data/{revision}")) == 4
    assert api.law_xml(revision) == xml and len(server.requests(f"law_data/{revision}")) == 4  # from the cache

    with pytest.raises(EgovNotFound):
        api.revisions("999AC0000000999")
    for _ in range(3):
        server.fail_next("law_revisions", "500")
    stubborn = EgovApi(server.url, pace=0, retries=2, backoff=0.01)
    with pytest.raises(SourceUnavailable, match="HTTP 500: 500001"):
        stubborn.revisions(CIVIL_CODE)
    api.close()
    stubborn.close()


def test_user_agent_pace_and_paging(tmp_path: Path) -> None:
    seen: list[str] = []
    with EgovApiServer() as server:
        original = server._handler()

        class Recording(original):  # type: ignore[misc, valid-type]
            def do_GET(self) -> None:
                seen.append(self.headers.get("User-Agent", ""))
                super().do_GET()

        server._server.RequestHandlerClass = Recording
        api = EgovApi(server.url, pace=0.2)
        started = time.monotonic()
        laws = list(api.laws({}, limit=1))
        assert time.monotonic() - started >= 0.4  # three pages, 0.2 s apart
        assert [law["law_info"]["law_id"] for law in laws] == sorted([CIVIL_CODE, SUBCONTRACT, PROCEDURE])
        assert len(server.requests("laws")) == 3
        api.close()
    assert seen and all(agent == USER_AGENT and agent.startswith("lexgraph/") for agent in seen)


def _store_state(store: Path) -> dict[str, Any]:
    """Everything a sync writes, read back: counts, each law's versions and clause spans."""
    with LexGraph.open(store, read_only=True) as lg:
        state: dict[str, Any] = {"counts": lg.store.counts().to_json()}
        for law_id in (CIVIL_CODE, PROCEDURE):
            state[law_id] = {
                "versions": [{k: v for k, v in row.items() if k != "source"}
                             for row in lg.store.query("law_versions", law_id=law_id)],
                "spans": sorted((r["uid"], str(r["valid_until"])) for r in
                                lg.store.query("law_provision_spans", law_id=law_id)),
            }
    return state


def _cached_texts(store: Path) -> set[str]:
    """The revision ids whose text the store's e-Gov cache holds."""
    found = set()
    for entry in (store / "egov-cache" / "requests").glob("*.json"):
        try:
            url = json.loads(entry.read_text(encoding="utf-8"))["url"]
        except (OSError, ValueError):
            continue
        if "/law_data/" in url:
            found.add(url.split("?")[0].split("/")[-1])
    return found


def test_a_sync_killed_with_sigkill_is_completed_by_the_next_one(tmp_path: Path) -> None:
    reference = tmp_path / "reference"
    with EgovApiServer() as server:
        # exit 1: the broken revision of 行政手続法, reported as always
        assert _sync(server, reference, "民法", "行政手続法", extra=("--no-link",)).code == 1
    killed = tmp_path / "killed"
    with EgovApiServer(delay=0.4) as slow:
        command = [sys.executable, "-m", "lexgraph", "sync", "民法", "行政手続法", "--api", slow.url, "--pace", "0",
                   "--store", str(killed), "--json", "--no-link"]
        process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   env={**os.environ, "PYTHONPATH": str(ROOT)})
        deadline = time.monotonic() + 120
        while len(_cached_texts(killed)) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        fetched_before = _cached_texts(killed)
        assert len(slow.requests("law_data")) < 6, "the sync ended before it was killed: the test proves nothing"
    assert fetched_before, "the sync was killed before it fetched anything: the test proves nothing"
    with EgovApiServer() as server:
        resumed = _sync(server, killed, "民法", "行政手続法", extra=("--no-link",))
        assert resumed.code == 1, resumed.stderr
        asked_again = {line.split("?")[0].split("/")[-1] for line in server.requests("law_data")}
    assert not fetched_before & asked_again  # what the killed sync had fetched came from the cache
    assert asked_again  # and the rest from the server
    assert _store_state(killed) == _store_state(reference)


def test_sync_all_starts_from_the_bulk_download(server: EgovApiServer, tmp_path: Path) -> None:
    store = tmp_path / "store"
    run = _sync(server, store, extra=("--all", "--no-link"))
    assert run.code == 1, run.stderr  # 行政手続法's broken revision, reported
    assert any("bulkdownload" in line for line in server.log)
    # The archive holds current laws only (not the repealed one): their revision lists are read.
    assert sorted(line.split("?")[0].split("/")[-1] for line in server.requests("law_revisions")) == [
        CIVIL_CODE, PROCEDURE]
    texts = {line.split("?")[0].split("/")[-1] for line in server.requests("law_data")}
    # The current texts came in the archive: only the other revisions were asked for.
    assert f"{CIVIL_CODE}_20230614_505AC0000000053" not in texts
    assert f"{CIVIL_CODE}_20200516_501AC0000000002" in texts
    versions = lexgraph("law", "versions", "民法", "--json", store=store).json()["versions"]
    assert len(versions) == 5 and all(v["dated_by"] == "egov-api" for v in versions)
    assert (store / "egov-cache" / "bulk" / "all_xml.zip").is_file()


def test_a_renamed_law_is_found_by_its_former_title_with_the_day_of_renaming(tmp_path: Path) -> None:
    """A revision list whose `law_title` changes (tests/egov_api_server.renamed_law): sync stores each version's
    title, and a citation by the former title resolves to the same law id, before the renaming with the rename
    noted, after it with a note that the name was out of date. The current title carries no note."""
    from tests.egov_api_server import RENAMED_ON, RENAMED_TITLE, renamed_law

    store = tmp_path / "store"
    with EgovApiServer([renamed_law()]) as api:
        run = _sync(api, store, SUBCONTRACT)
    assert run.code == 0, run.stderr
    text = tmp_path / "text.txt"
    text.write_text("下請代金支払遅延等防止法第四条第一項及び同法第二条", encoding="utf-8")
    before = lexgraph("cite", text, "--as-of", "2020-06-01", "--json", store=store).json()["citations"]
    after = lexgraph("cite", text, "--as-of", "2026-06-01", "--json", store=store).json()["citations"]
    for citations, out_of_date in ((before, False), (after, True)):
        first, same = citations
        assert first["law_id"] == SUBCONTRACT and first["status"] == "resolved" and first["article"] == "4"
        assert first["former_title"] == "下請代金支払遅延等防止法" and first["renamed_on"] == RENAMED_ON
        assert first["law_title"] == RENAMED_TITLE and RENAMED_TITLE in first["reason"]
        assert ("out of date" in first["reason"]) is out_of_date
        assert first["revision_id"] == (f"{SUBCONTRACT}_20150801_000000000000000" if not out_of_date
                                        else f"{SUBCONTRACT}_20260101_507AC0000000041")
        assert same["law_id"] == SUBCONTRACT and same["former_title"] is None  # 同法 names the law, not the old name
    text.write_text(f"{RENAMED_TITLE}第四条", encoding="utf-8")
    current = lexgraph("cite", text, "--as-of", "2026-06-01", "--json", store=store).json()["citations"]
    assert [(c["law_id"], c["former_title"], c["reason"]) for c in current] == [(SUBCONTRACT, None, None)]
