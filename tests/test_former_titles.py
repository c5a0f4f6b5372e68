"""Former titles of renamed laws: from e-Gov's revision lists (a local server written from the spec,
tests/egov_api_server.py) through the sync cache to the bundled data file, and every bundled entry read back as a
citation of its law, with the rename noted."""

from __future__ import annotations

import importlib.util
import json
from datetime import date
from pathlib import Path

import pytest

from lexgraph.citations import CitationContext, extract
from lexgraph.errors import ConfigurationError
from lexgraph.statutes import former_titles
from lexgraph.statutes.catalog import Catalog, LawEntry
from lexgraph.statutes.egov_api import EgovApi, ResponseCache, cached_revision_lists
from lexgraph.statutes.former_titles import FormerTitle, from_revision_list, read_entries
from tests.egov_api_server import RENAMED_ON, RENAMED_TITLE, SUBCONTRACT, EgovApiServer, renamed_law

ROOT = Path(__file__).resolve().parents[1]


def test_a_revision_list_whose_title_changes_gives_the_former_title_and_its_day(tmp_path: Path) -> None:
    with EgovApiServer([renamed_law()]) as server:
        api = EgovApi(server.url, cache=ResponseCache(tmp_path / "cache"), pace=0)
        try:
            listed = api.revisions(SUBCONTRACT)
        finally:
            api.close()
    assert from_revision_list(SUBCONTRACT, listed.revisions) == [
        FormerTitle("下請代金支払遅延等防止法", SUBCONTRACT, RENAMED_TITLE, date.fromisoformat(RENAMED_ON),
                    "e-Gov /law_revisions")]
    # what the sync cache kept is read back, and the build script writes it into the data file's layout
    assert [r.law_id for r in cached_revision_lists(ResponseCache(tmp_path / "cache"))] == [SUBCONTRACT]
    spec = importlib.util.spec_from_file_location("build_former_titles", ROOT / "scripts" / "build_former_titles.py")
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    out = tmp_path / "former_titles.json"
    assert build.main(["--sync-cache", str(tmp_path / "cache"), "--out", str(out)]) == 0
    rows = json.loads(out.read_text(encoding="utf-8"))["former_titles"]
    assert rows == [{"title": "下請代金支払遅延等防止法", "law_id": SUBCONTRACT, "new_title": RENAMED_TITLE,
                     "renamed_on": RENAMED_ON, "source": "e-Gov /law_revisions"}]
    # with the new title in the store's catalogue, the old one names the law, dated
    catalog = Catalog.bundled().with_entries(
        [LawEntry(SUBCONTRACT, RENAMED_TITLE, "昭和三十一年法律第百二十号", "Act")], read_entries(rows, "test"))
    before, after = (extract("下請代金支払遅延等防止法第四条", CitationContext(catalog=catalog, as_of=day))[0]
                     for day in (date(2025, 12, 31), date(2026, 1, 1)))
    for citation in (before, after):
        assert (citation.law_id, citation.former_title, citation.renamed_on) == \
            (SUBCONTRACT, "下請代金支払遅延等防止法", RENAMED_ON)
    assert before.reason is not None and "out of date" not in before.reason
    assert after.reason is not None and "out of date on 2026-01-01" in after.reason


def test_every_bundled_former_title_cites_its_law_with_the_rename_noted() -> None:
    """The table is the data file itself: each entry a real string with its source (a file of the 2020 archive, or
    an e-Gov revision list), read back as 「TITLE第一条」."""
    rows = json.loads((ROOT / "lexgraph" / "data" / "former_titles.json").read_text(encoding="utf-8"))
    entries = read_entries(rows["former_titles"], "former_titles.json")
    assert entries == former_titles.bundled() and len(entries) >= 50
    catalog = Catalog.bundled()
    for entry in entries:
        assert entry.source and entry.title != entry.new_title
        assert catalog.by_id(entry.law_id) is not None
        assert catalog.lookup(entry.title) == [catalog.by_id(entry.law_id)], entry
        found = [c for c in extract(f"{entry.title}第一条", CitationContext(catalog=catalog, as_of=date(2020, 6, 1)))
                 if c.article == "1"]
        assert [(c.law_id, c.former_title) for c in found] == [(entry.law_id, entry.title)], entry
        assert found[0].reason is not None and entry.title in found[0].reason


def test_a_former_title_never_takes_a_name_some_law_bears_today() -> None:
    catalog = Catalog.bundled()
    civil = catalog.lookup("民法")[0]
    commerce = catalog.lookup("商法")[0]
    taken = catalog.with_entries((), [FormerTitle("商法", civil.law_id, "民法", None, "test")])
    assert taken.lookup("商法") == [commerce] and taken.former_titles("商法") == ()
    assert extract("商法第一条", CitationContext(catalog=taken))[0].former_title is None


def test_a_data_file_that_does_not_fit_is_a_configuration_error() -> None:
    with pytest.raises(ConfigurationError, match="entry 0 is not a former title"):
        read_entries([{"title": "旧法", "law_id": "x", "renamed_on": "2012-13-01"}], "former_titles.json")
