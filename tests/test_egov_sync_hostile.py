"""`lexgraph sync` against a hostile e-Gov server (tests/egov_api_server.py's hostile behaviours): an answer that
never ends or drips a byte a second, a redirect to another host, another law's text or list, ids that are no
e-Gov ids, a day that does not exist, a Retry-After of years. Each fails fast, names the law, the URL and the
check, exits with its code and stores nothing of what it refused; a sync that fails on its first answer leaves no
store and no cache behind. The same on Neo4j: tests/test_egov_sync_hostile_neo4j.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from lexgraph.errors import ConfigurationError
from lexgraph.statutes.egov_api import SyncLimits
from tests.egov_api_server import (
    PROCEDURE,
    SAMPLE,
    SUBCONTRACT,
    EgovApiServer,
    Law,
    impostor_text,
    listed_as,
    procedure_act_with_broken_revision,
    repealed_law,
    with_listed,
)
from tests.helpers import ROOT, lexgraph

OLD = f"{PROCEDURE}_20180401_429AC0000000004"
NEW = f"{PROCEDURE}_20240401_504AC0100000052"
CIVIL_TEXT = SAMPLE / "129AC0000000089_20230614_505AC0000000053.xml"


def procedure_act() -> Law:
    """行政手続法 with its two real revisions (2018, 2024), as e-Gov lists them."""
    law = procedure_act_with_broken_revision()
    law.revisions = [r for r in law.revisions if r.info["law_revision_id"] in (OLD, NEW)]
    return law


def sync(api: EgovApiServer, store: Path, *extra: str, env: dict[str, str] | None = None, timeout: float = 120,
         law: str = PROCEDURE) -> Any:
    """S: `lexgraph sync 405AC0000000088 --api URL --pace 0 --store X` in its own process, so that a sync that
    hangs fails the test by its timeout instead of hanging it."""
    return lexgraph("sync", law, "--api", api.url, "--pace", "0", "--no-link", *extra, store=store, env=env,
                    timeout=timeout, subprocess=True)


def one_line(run: Any) -> str:
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    return lines[0]


@pytest.mark.parametrize("fault", ["endless", "2gb"])
def test_an_endless_answer_is_cut_at_the_size_bound(fault: str, tmp_path: Path) -> None:
    with EgovApiServer([procedure_act()]) as api:
        api.fail_next(f"law_data/{OLD}", fault)
        started = time.monotonic()
        run = sync(api, tmp_path / "store", "--max-answer-mb", "8")
        took = time.monotonic() - started
    assert run.code == 3, run.stderr
    line = one_line(run)
    assert f"law {PROCEDURE}" in line and f"{api.url}/law_data/{OLD}" in line and "8 MB" in line
    assert ("announces 2,000,000,000 bytes, more than the bound" if fault == "2gb" else "goes on past the bound") \
        in line
    assert "--max-answer-mb" in line and took < 60
    assert not (tmp_path / "store").exists()  # the first answer failed: nothing left behind


def test_a_server_that_drips_a_byte_a_second_is_cut_at_the_time_bound(tmp_path: Path) -> None:
    with EgovApiServer([procedure_act()]) as api:
        api.fail_next(f"law_data/{OLD}", "drip")
        started = time.monotonic()
        run = sync(api, tmp_path / "store", env={"LEXGRAPH_SYNC_ANSWER_SECONDS": "3"})
        took = time.monotonic() - started
    assert run.code == 3, run.stderr
    line = one_line(run)
    assert f"law {PROCEDURE}" in line and f"/law_data/{OLD}" in line and "3 s in all" in line
    assert "LEXGRAPH_SYNC_ANSWER_SECONDS" in line
    assert took < 30  # the bound is on the whole answer, not on each read (60 s)


def test_headers_dripped_a_byte_at_a_time_are_cut_at_the_time_bound_too() -> None:
    """The bound holds before the body: a server that sends its status line and headers a byte every 0.2 s (each
    read well within the 60 s read timeout) is cut when the whole answer passes the bound."""
    from lexgraph.errors import AnswerRefused
    from lexgraph.statutes.egov_api import EgovApi

    with EgovApiServer([procedure_act()]) as api:
        api.drip = 0.2
        api.fail_next("law_revisions", "drip-headers")
        client = EgovApi(api.url, pace=0, limits=SyncLimits(answer_seconds=2))
        started = time.monotonic()
        with pytest.raises(AnswerRefused, match=f"law {PROCEDURE}: .*/law_revisions/.*bound of 2 s in all"):
            client.revisions(PROCEDURE)
        assert time.monotonic() - started < 10
        client.close()


def test_the_limits_are_set_by_option_environment_or_lexgraph_toml(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("MAX_ANSWER_MB", "ANSWER_SECONDS", "MAX_RETRY_AFTER"):
        monkeypatch.delenv(f"LEXGRAPH_SYNC_{name}", raising=False)
    assert SyncLimits.configured() == SyncLimits()
    (tmp_path / "lexgraph.toml").write_text("[sync]\nmax_answer_mb = 5\nmax_retry_after = 30\n", encoding="utf-8")
    monkeypatch.setenv("LEXGRAPH_SYNC_MAX_RETRY_AFTER", "20")
    limits = SyncLimits.configured({"answer_seconds": 7.0})
    assert (limits.max_answer_mb, limits.max_retry_after, limits.answer_seconds) == (5, 20, 7)
    monkeypatch.setenv("LEXGRAPH_SYNC_ANSWER_SECONDS", "soon")
    with pytest.raises(ConfigurationError, match="LEXGRAPH_SYNC_ANSWER_SECONDS = 'soon'"):
        SyncLimits.configured()
    (tmp_path / "lexgraph.toml").write_text("[sync]\nmax_answer_MB = 5\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="no setting max_answer_MB; the settings are max_answer_mb"):
        SyncLimits.configured({"answer_seconds": 7.0})
    refused = lexgraph("sync", PROCEDURE, "--max-answer-mb", "0", store=tmp_path / "store")
    assert refused.code == 2 and "--max-answer-mb" in refused.stderr and not (tmp_path / "store").exists()


def test_a_redirect_is_followed_on_the_api_host_only(tmp_path: Path) -> None:
    with EgovApiServer([procedure_act()]) as api, EgovApiServer([listed_as(PROCEDURE, procedure_act())]) as other:
        # On the same host and port: followed.
        api.fail_next(f"law_data/{OLD}", f"redirect:{api.url}/law_data/{OLD}?law_full_text_format=xml&"
                                         "response_format=json")
        assert sync(api, tmp_path / "store").code == 0
        # Anywhere else (here: the same machine, another port): refused, the target named, nothing asked there.
        target = f"{other.url}/law_revisions/{PROCEDURE}?response_format=json"
        api.fail_next("law_revisions", f"redirect:{target}")
        run = sync(api, tmp_path / "fresh")
        assert other.log == []
    assert run.code == 3, run.stderr
    line = one_line(run)
    assert f"law {PROCEDURE}" in line and f"redirected to '{target}'" in line and "not the API's host" in line
    assert not (tmp_path / "fresh").exists()


def test_a_text_of_another_law_is_reported_and_never_stored(tmp_path: Path) -> None:
    store = tmp_path / "store"
    with EgovApiServer([impostor_text(procedure_act(), NEW, CIVIL_TEXT)]) as api:
        run = sync(api, store, "--json")
    assert run.code == 1, run.stderr  # a revision left out: reported, as a revision that does not parse
    [failure] = json.loads(run.stdout)["failures"]
    assert failure["law_id"] == PROCEDURE and failure["revision_id"] == NEW
    assert f"/law_data/{NEW}" in failure["reason"] and "<LawNum> is 明治二十九年法律第八十九号" in failure["reason"]
    assert "平成五年法律第八十八号" in failure["reason"]
    versions = lexgraph("law", "versions", PROCEDURE, "--json", store=store).json()["versions"]
    assert [v["revision_id"] for v in versions] == [OLD]
    shown = lexgraph("law", "show", PROCEDURE, "第一条", "--as-of", "2020-01-01", "--json", store=store).json()
    assert shown["revision_id"] == OLD and "行政運営における公正の確保" in shown["text"]
    today = lexgraph("law", "show", PROCEDURE, "第一条", store=store)  # the refused text is shown on no day
    assert today.code == 1 and "does not know its wording" in today.stderr and "民法" not in today.stdout

    # Another law's whole answer (its law_info and revision_info) in place of the one asked.
    with EgovApiServer([procedure_act(), repealed_law()]) as api:
        api.fail_next(f"law_data/{NEW}", f"serve:{SUBCONTRACT}_20150801_000000000000000")
        run = sync(api, tmp_path / "second", "--json")
    assert run.code == 1, run.stderr
    [failure] = json.loads(run.stdout)["failures"]
    assert f"law_info.law_id is '{SUBCONTRACT}'" in failure["reason"] and failure["revision_id"] == NEW


def test_a_list_of_another_law_is_refused(tmp_path: Path) -> None:
    with EgovApiServer([listed_as(PROCEDURE, repealed_law())]) as api:
        run = sync(api, tmp_path / "store")
        assert api.requests("law_data") == []
    assert run.code == 3, run.stderr
    line = one_line(run)
    assert f"law {PROCEDURE}" in line and f"/law_revisions/{PROCEDURE}" in line
    assert f"law_info.law_id is {SUBCONTRACT}" in line and "another law" in line
    assert not (tmp_path / "store").exists()


@pytest.mark.parametrize(("change", "named"), [
    ({"law_info_law_id": "../../x/law\x00x"}, "law_info.law_id: '../../x/law\\x00x' is not an e-Gov law id"),
    ({"law_revision_id": f"../../x/{NEW}"}, f"law_revision_id: '../../x/{NEW}' is not an e-Gov revision id"),
    ({"law_revision_id": f"{NEW}\x00evil"}, f"law_revision_id: '{NEW}\\x00evil' is not an e-Gov revision id"),
    ({"law_revision_id": f"{SUBCONTRACT}_20240401_504AC0100000052"}, f"is a revision of {SUBCONTRACT}"),
    ({"law_revision_id": OLD}, f"{OLD} is listed twice"),
    ({"amendment_enforcement_date": "2024-02-30"},
     f"revision {NEW}: amendment_enforcement_date: '2024-02-30' is not a day"),
    ({"amendment_promulgate_date": "2022/05/25"}, "amendment_promulgate_date: '2022/05/25' is not a day"),
], ids=["law-id", "dot-dot", "nul", "other-law", "twice", "feb-30", "slashes"])
def test_a_list_entry_that_is_not_e_govs_is_refused_before_any_url(change: dict[str, str], named: str,
                                                                   tmp_path: Path) -> None:
    with EgovApiServer([with_listed(procedure_act(), NEW, **change)]) as api:
        run = sync(api, tmp_path / "store")
        asked = api.requests("law_data")
    assert run.code == 3, run.stderr
    line = one_line(run)
    assert named in line and f"law {PROCEDURE}" in line and f"/law_revisions/{PROCEDURE}" in line
    assert asked == []  # nothing of the list was put in a URL
    assert not (tmp_path / "store").exists()


@pytest.mark.parametrize("value", ["999999999", "Fri, 31 Dec 9999 23:59:59 GMT"])
def test_a_retry_after_beyond_the_bound_fails_naming_the_servers_wish(value: str, tmp_path: Path) -> None:
    with EgovApiServer([procedure_act()]) as api:
        api.fail_next("law_revisions", f"retry-after:{value}")
        started = time.monotonic()
        run = sync(api, tmp_path / "store", timeout=60)
        took = time.monotonic() - started
    assert run.code == 3, run.stderr
    line = one_line(run)
    assert f"Retry-After: {value}" in line and "years" in line and "bound of 600 s" in line
    assert f"law {PROCEDURE}" in line and "/law_revisions/" in line and took < 30


def test_a_retry_after_within_the_bound_is_waited(tmp_path: Path) -> None:
    with EgovApiServer([procedure_act()]) as api:
        api.fail_next("law_revisions", "retry-after:2")
        started = time.monotonic()
        run = sync(api, tmp_path / "store", "--max-retry-after", "5")
        assert time.monotonic() - started >= 2 and len(api.requests("law_revisions")) == 2
    assert run.code == 0, run.stderr
    assert one_line(run).endswith("HTTP 429 asks to wait 2 s (Retry-After: 2); waiting")  # said, not silent


def test_a_failed_first_answer_leaves_no_store_and_an_existing_store_as_it_was(tmp_path: Path) -> None:
    store = tmp_path / "store"
    with EgovApiServer([procedure_act()]) as api:
        api.fail_next(f"law_data/{NEW}", "endless")  # the list is good; the second text is not
        run = sync(api, store, "--max-answer-mb", "1")
        assert run.code == 3, run.stderr
        assert not store.exists()  # neither the store nor the cache (held in memory until a first law is good)

        assert sync(api, store).code == 0
        before = _state(store)
        api.laws[SUBCONTRACT] = listed_as(SUBCONTRACT, procedure_act())
        again = sync(api, store, law=SUBCONTRACT)
        assert again.code == 3 and "another law" in again.stderr
    assert _state(store) == before  # the store and its cache as they were


def test_nothing_is_created_on_disk_while_the_first_law_is_fetched(tmp_path: Path) -> None:
    """Watched from outside while the sync runs: the store folder appears only once the first law is good, not
    when the sync starts (and is then removed again)."""
    store = tmp_path / "store"
    with EgovApiServer([procedure_act()]) as api:
        api.fail_next(f"law_data/{NEW}", "drip")
        command = [sys.executable, "-m", "lexgraph", "sync", PROCEDURE, "--api", api.url, "--pace", "0",
                   "--no-link", "--answer-seconds", "4", "--store", str(store)]
        process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                   env={**os.environ, "PYTHONPATH": str(ROOT)})
        seen = False
        while process.poll() is None:
            seen = seen or store.exists()
            time.sleep(0.05)
        _, stderr = process.communicate()
        assert len(api.requests("law_data")) == 2, "the sync ended before the dripping answer: it proves nothing"
    assert process.returncode == 3 and "4 s in all" in stderr, stderr
    assert not seen and not store.exists()


def _state(store: Path) -> dict[str, Any]:
    """What a sync writes: the cache's files, the store's counts and each law's versions."""
    cache = store / "egov-cache"
    return {"cache": {str(p.relative_to(cache)): p.read_bytes() for p in sorted(cache.rglob("*")) if p.is_file()},
            "stats": lexgraph("stats", "--json", store=store).json(),
            "versions": lexgraph("law", "versions", PROCEDURE, "--json", store=store).json()}


def test_docs_security_lists_every_bound_with_its_default_and_its_settings() -> None:
    from lexgraph.statutes.egov_api import LIMIT_NAMES

    section = (Path(__file__).parents[1] / "docs" / "security.md").read_text(encoding="utf-8")
    section = section[section.index("# Sync: what an e-Gov server can make lexgraph do"):]
    defaults = SyncLimits()
    for name, (option, variable) in LIMIT_NAMES.items():
        row = next(line for line in section.splitlines() if f"`{option}`" in line)
        assert f"`{variable}`" in row and f"`{name}`" in row
        assert f"| {getattr(defaults, name):g} " in row.replace(",", ""), row


def test_laws_pages_refuse_an_id_that_is_not_e_govs_and_a_law_listed_twice() -> None:
    from lexgraph.errors import AnswerRefused
    from lexgraph.statutes.egov_api import EgovApi

    for laws, named in (([repealed_law(), listed_as("999AC0000000999", repealed_law())],
                         f"{SUBCONTRACT} is listed twice"),
                        ([with_listed(procedure_act(), NEW, law_info_law_id="../x")],
                         "law_info.law_id: '../x' is not an e-Gov law id")):
        with EgovApiServer(laws) as api:
            client = EgovApi(api.url, pace=0)
            with pytest.raises(AnswerRefused, match=named.replace(".", r"\.")):
                list(client.laws({}, limit=1))
            client.close()


def test_a_failure_naming_what_the_server_sent_stays_one_line(tmp_path: Path) -> None:
    """What a hostile server writes into a text (here its <LawNum>) reaches the failure line that names it, escaped:
    a line break in it cannot print a line of its own on the terminal."""
    forged = tmp_path / CIVIL_TEXT.name
    text = CIVIL_TEXT.read_text(encoding="utf-8")
    assert "<LawNum>明治二十九年法律第八十九号</LawNum>" in text
    forged.write_text(text.replace("<LawNum>明治二十九年法律第八十九号</LawNum>",
                                   "<LawNum>明治二十九年法律第八十九号\nFAKE-LINE: all revisions synced</LawNum>"),
                      encoding="utf-8")
    with EgovApiServer([impostor_text(procedure_act(), NEW, forged)]) as api:
        run = sync(api, tmp_path / "store")
    assert run.code == 1, run.stderr
    lines = run.stderr.splitlines()
    assert not [line for line in lines if line.startswith("FAKE-LINE")], run.stderr
    assert any("\\nFAKE-LINE: all revisions synced" in line for line in lines), run.stderr
