"""Smoke tests of the `lexgraph` entry point in a real subprocess (`python -m lexgraph`): the rest of the CLI tests
run in-process (tests/helpers.py), so these hold the two to the same output and exit codes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import SAMPLE, lexgraph


@pytest.mark.parametrize(("args", "code"), [
    (("--help",), 0),
    (("law", "show"), 2),  # a usage error
    (("law", "versions", "民法", "--json"), 3),  # no store there
    (("cite", str(SAMPLE / "precedents" / "91244.txt"), "--json"), 0),
])
def test_a_subprocess_and_the_in_process_runner_agree(tmp_path: Path, args: tuple[str, ...], code: int) -> None:
    store = tmp_path / "no-store" if args[0] != "--help" else None
    ran = lexgraph(*args, store=store, subprocess=True)
    inside = lexgraph(*args, store=store)
    assert ran.code == inside.code == code, (ran.stderr, inside.stderr)
    assert ran.stdout == inside.stdout
    assert ("Traceback" in ran.stderr) is ("Traceback" in inside.stderr) is False
    if code:
        assert ran.stderr.strip() and ran.stderr == inside.stderr


def test_a_failing_store_fails_alike_in_both(tmp_path: Path) -> None:
    """A subprocess prints the traceback of an exception nothing caught; the in-process runner adds it too, so a
    test that asserts none is there keeps its meaning."""
    bad = tmp_path / "store"
    bad.write_text("not a folder")  # a file where the store's folder should be
    inside = lexgraph("ingest", "statutes", str(SAMPLE / "403AC0000000090_snapshot20201118.xml"), store=bad)
    ran = lexgraph("ingest", "statutes", str(SAMPLE / "403AC0000000090_snapshot20201118.xml"), store=bad,
                   subprocess=True)
    assert inside.code == ran.code != 0
    assert ("Traceback" in inside.stderr) is ("Traceback" in ran.stderr)
