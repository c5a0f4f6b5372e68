"""The embedded store's buffer pool: sized from the machine by default, set by ``--buffer-pool``, the environment or
lexgraph.toml (in that order), read back as it was written, and named with the setting to change when a query
runs out of it. Real stores, the real CLI."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lexgraph import ConfigurationError, LexGraph
from lexgraph.config import (
    BUFFER_POOL_ENV,
    BUFFER_POOL_MAX,
    BUFFER_POOL_MIN,
    available_memory,
    buffer_pool,
    default_buffer_pool,
    format_size,
    parse_size,
)
from lexgraph.ingest.statutes import ingest_statutes
from lexgraph.store.base import GraphStore
from lexgraph.store.readonly import check_read_statement, with_row_limit
from tests.helpers import SAMPLE, lexgraph


@pytest.mark.parametrize(("text", "size"), [
    ("4GiB", 4 << 30), ("4G", 4 << 30), ("4g", 4 << 30), ("512MiB", 512 << 20), ("512 MB", 512 << 20),
    ("1.5GiB", 3 << 29), ("1073741824", 1 << 30), (" 2TiB ", 2 << 40), (1 << 30, 1 << 30),
])
def test_a_size_is_read_as_written(text: str | int, size: int) -> None:
    assert parse_size(text, named_by="--buffer-pool") == size


@pytest.mark.parametrize("text", ["", "lots", "4 GB RAM", "-1G", "4XiB", "1.2.3G"])
def test_a_size_that_is_not_one_names_the_setting_and_the_form(text: str) -> None:
    with pytest.raises(ConfigurationError, match=r"--buffer-pool .* 4GiB, 512MiB"):
        parse_size(text, named_by="--buffer-pool")


def test_a_size_too_small_for_the_engine_is_refused() -> None:
    with pytest.raises(ConfigurationError, match="below 16MiB"):
        parse_size("1MiB", named_by=BUFFER_POOL_ENV)


@given(st.integers(min_value=64 << 20, max_value=1 << 44))
def test_a_printed_size_reads_back_within_its_rounding(size: int) -> None:
    back = parse_size(format_size(size).replace(" ", ""), named_by="x")
    assert abs(back - size) <= size * 0.05 + 1


def test_the_default_is_a_quarter_of_the_memory_available_within_its_bounds() -> None:
    available = available_memory()
    assert available is not None and available > 0  # Linux says: MemAvailable
    assert BUFFER_POOL_MIN <= default_buffer_pool() <= BUFFER_POOL_MAX
    expected = max(BUFFER_POOL_MIN, min(BUFFER_POOL_MAX, available // 4))
    assert abs(default_buffer_pool() - expected) < 256 << 20  # memory moves between the two reads


def test_flag_then_environment_then_lexgraph_toml_then_the_machine(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(BUFFER_POOL_ENV, raising=False)
    assert buffer_pool().source.startswith("the default")
    (tmp_path / "lexgraph.toml").write_text('buffer_pool = "300MiB"\n', encoding="utf-8")
    assert buffer_pool() == buffer_pool(300 << 20, named_by="buffer_pool in lexgraph.toml")
    assert buffer_pool().source == "buffer_pool in lexgraph.toml"
    monkeypatch.setenv(BUFFER_POOL_ENV, "700MiB")
    assert (buffer_pool().size, buffer_pool().source) == (700 << 20, BUFFER_POOL_ENV)
    assert (buffer_pool("2GiB").size, buffer_pool("2GiB").source) == (2 << 30, "--buffer-pool")
    (tmp_path / "lexgraph.toml").write_text('buffer_pool = "a lot"\n', encoding="utf-8")
    monkeypatch.delenv(BUFFER_POOL_ENV)
    with pytest.raises(ConfigurationError, match=r"buffer_pool in lexgraph\.toml 'a lot' is not a size"):
        buffer_pool()


def test_the_store_is_opened_with_the_pool_asked_for(sample_store: Path) -> None:
    with LexGraph.open(sample_store, read_only=True, buffer_pool="300MiB") as lg:
        assert lg.store.buffer_pool.size == 300 << 20  # type: ignore[attr-defined]
        assert lg.show("民法", "第七百九条").provision.path == "a709"


def test_every_command_that_opens_a_store_takes_buffer_pool(sample_store: Path) -> None:
    run = lexgraph("law", "show", "民法", "第七百九条", "--as-of", "2021-01-01", "--buffer-pool", "512MiB",
                   store=sample_store)
    assert run.code == 0, run.stderr
    assert "故意又は過失によって" in run.stdout
    for command in (["law", "cited-by", "--help"], ["stats", "--help"], ["export", "rdf", "--help"],
                    ["query", "--help"], ["mcp", "--help"], ["graph", "neighbourhood", "--help"]):
        assert "--buffer-pool" in lexgraph(*command).stdout, command


def test_a_bad_size_is_a_usage_error_naming_where_it_was_written(sample_store: Path) -> None:
    run = lexgraph("stats", "--buffer-pool", "plenty", store=sample_store)
    assert run.code == 2
    assert "--buffer-pool 'plenty' is not a size" in run.stderr
    run = lexgraph("stats", store=sample_store, env={BUFFER_POOL_ENV: "12"})
    assert run.code == 2
    assert f"{BUFFER_POOL_ENV} '12' is below 16MiB" in run.stderr


def test_a_pool_larger_than_the_machine_is_refused_naming_its_memory(sample_store: Path) -> None:
    """9999 TiB: the engine itself fails with a bare "std::bad_alloc" that names no setting."""
    run = lexgraph("stats", store=sample_store, env={BUFFER_POOL_ENV: "9999T"})
    assert run.code == 2
    assert f"{BUFFER_POOL_ENV} '9999T' is more than this machine's" in run.stderr and "give at most" in run.stderr


def test_a_query_that_outgrows_the_pool_names_the_pool_and_the_settings(sample_store: Path) -> None:
    run = lexgraph("query", "UNWIND range(1, 8000000) AS x RETURN x % 1000003 AS k, collect(x) AS c ORDER BY k "
                   "LIMIT 1", "--buffer-pool", "64MiB", store=sample_store)
    assert run.code == 3
    message = " ".join(run.stderr.split())
    assert "ran out of its 64 MiB buffer pool (set by --buffer-pool)" in message
    assert f"--buffer-pool 4GiB, {BUFFER_POOL_ENV}=4GiB" in message


def test_query_reads_at_most_its_limit_and_says_there_is_more(sample_store: Path) -> None:
    run = lexgraph("query", "MATCH (p:Provision) RETURN p.uid AS uid", "--limit", "5", "--json", store=sample_store)
    assert run.code == 0, run.stderr
    assert len(run.json()) == 5
    assert "only the first 5 rows are shown; there are more" in run.stderr
    run = lexgraph("query", "MATCH (l:Law) RETURN l.law_id AS id", "--limit", "500", "--json", store=sample_store)
    assert run.code == 0 and run.stderr == ""
    assert 0 < len(run.json()) < 500
    assert lexgraph("query", "RETURN 1 AS x", "--limit", "0", store=sample_store).code == 2


def test_a_limited_user_query_stops_reading_at_the_limit_on_both_backends(store: GraphStore) -> None:
    ingest_statutes(store, [SAMPLE / "403AC0000000090_snapshot20201118.xml"], link=False)
    every = store.run_read_only("MATCH (p:Provision) RETURN p.uid AS uid ORDER BY uid")
    assert len(every) > 50
    assert store.run_read_only("MATCH (p:Provision) RETURN p.uid AS uid ORDER BY uid", limit=7) == every[:7]


def test_doctor_says_when_the_pool_is_too_small_for_the_store_and_which_setting_to_change(sample_store: Path
                                                                                          ) -> None:
    run = lexgraph("doctor", "--json", "--buffer-pool", "16MiB", store=sample_store)
    assert run.code == 1
    pool = [f for f in run.json()["findings"] if f["check"] == "buffer pool"]
    assert len(pool) == 1 and not pool[0]["ok"]
    assert pool[0]["detail"].startswith("16 MiB (set by --buffer-pool) is too small for this store")
    assert "--buffer-pool 64MiB" in pool[0]["fix"] and f"{BUFFER_POOL_ENV}=64MiB" in pool[0]["fix"]
    run = lexgraph("doctor", "--json", store=sample_store, env={BUFFER_POOL_ENV: "256MiB"})
    assert run.code == 0, run.stdout
    pool = [f for f in run.json()["findings"] if f["check"] == "buffer pool"]
    assert pool[0]["ok"] and pool[0]["detail"].startswith(f"256 MiB (set by {BUFFER_POOL_ENV}); the largest version")
    assert "129AC0000000089_20230614_505AC0000000053" in pool[0]["detail"]  # 民法 2023, the sample's largest


@pytest.mark.parametrize(("query", "limited"), [
    ("MATCH (p:Provision) RETURN p.uid AS u", "MATCH (p:Provision) RETURN p.uid AS u\nLIMIT 10"),
    ("MATCH (p) WITH p LIMIT 3 RETURN p", "MATCH (p) WITH p LIMIT 3 RETURN p\nLIMIT 10"),
    ("MATCH (p) WHERE EXISTS { MATCH (p)-->() RETURN 1 LIMIT 1 } RETURN p",
     "MATCH (p) WHERE EXISTS { MATCH (p)-->() RETURN 1 LIMIT 1 } RETURN p\nLIMIT 10"),
    ("MATCH (p) RETURN p ORDER BY p.uid SKIP 3 LIMIT 2;", "MATCH (p) RETURN p ORDER BY p.uid SKIP 3 LIMIT 2"),
    ("RETURN 1 AS x UNION RETURN 2 AS x", "RETURN 1 AS x UNION RETURN 2 AS x"),
])
def test_the_engine_is_told_the_limit_unless_the_query_ends_in_its_own(query: str, limited: str) -> None:
    # LadybugDB builds a query's whole result before the first row is read: the limit must be in the query
    assert with_row_limit(check_read_statement(query), 10) == limited


def test_a_user_query_over_every_clause_of_a_store_reads_within_a_small_pool(sample_store: Path) -> None:
    run = lexgraph("query", "MATCH (p:Provision) RETURN p.uid AS uid, p.text AS text, p.sentences AS s",
                   "--limit", "50", "--json", "--buffer-pool", "20MiB", store=sample_store)
    assert run.code == 0, run.stderr
    assert len(run.json()) == 50
