"""The statutes' anchor field built faster gives the field it always gave: the build's text work in worker
processes and each sentence tokenised once per process, against the one-pass build it replaced (kept here, as it
was, as the reference), byte for byte; and a build killed with SIGKILL half-way continues from the laws it
finished and saves the same file. The bundled sample store with its citations (tests/conftest.py); the 600-law
slice of the archive is held to the same reference in tests/test_read_paths_scale.py."""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import astuple
from pathlib import Path

import pytest

from lexgraph.citations.sentences import sentence_ends
from lexgraph.client import LexGraph
from lexgraph.index import anchors as anchors_module
from lexgraph.index.anchors import (
    FIELD_FILE,
    LAW_TYPE_KINDS,
    MAX_CHARS,
    OTHER_LAW_KIND,
    OWN_LAW_KIND,
    SPILL_PREFIX,
    Anchor,
    AnchorSpill,
    statute_anchors,
    statute_sentence,
)
from lexgraph.index.tokenize import tokenize
from lexgraph.index.units import article_path
from lexgraph.retrieve.anchor_field import field_arrays, write_field
from lexgraph.statutes.clauses import CITING_KINDS, stored_clause_text
from lexgraph.store.base import GraphStore
from lexgraph.store.rows import LAW_CITES_SPANS, LAW_PROVISION_SENTENCES, LAWS_ALL
from tests.helpers import ROOT, copy_store


def reference_statute_anchors(store: GraphStore, laws: set[str] | None = None) -> Iterator[Anchor]:
    """The statutes' anchors as the one-pass build made them (one process, a law at a time, a sentence tokenised
    once per law, its sentence found by a scan): what the faster build must reproduce."""
    types = {row.law_id: str(row.law_type or "") for row in store.rows(LAWS_ALL)}
    for law_id, law_type in sorted(types.items()):
        kind = LAW_TYPE_KINDS.get(law_type, OTHER_LAW_KIND)
        edges: dict[str, list[tuple[int, int, str, str]]] = {}
        for edge in store.rows(LAW_CITES_SPANS, law_id=law_id):
            if edge.to_law and edge.to_path and (laws is None or edge.to_law in laws):
                edges.setdefault(edge.from_uid, []).append((int(edge.char_start or 0), int(edge.char_end or 0),
                                                            edge.to_law, article_path(edge.to_path)))
        if not edges:
            continue
        tokens_of: dict[str, tuple[str, ...]] = {}
        for row in store.rows(LAW_PROVISION_SENTENCES, law_id=law_id):
            cites = edges.get(row.uid)
            if not cites or row.kind not in CITING_KINDS or not row.sentences:
                continue
            text = stored_clause_text(row.sentences)
            own = article_path(row.uid.partition("/")[2].split("@")[0])
            ends = [0, *sentence_ends(text)]
            if ends[-1] < len(text):
                ends.append(len(text))
            spans = sorted({(start, end) for start, end, _, _ in cites})
            for start, end, to_law, article in sorted(set(cites)):
                if to_law == law_id and article == own:
                    continue
                at = next((i for i in range(len(ends) - 1) if ends[i] <= start < ends[i + 1]), None)
                if at is None:
                    continue
                begin, stop = ends[at], ends[at + 1]
                if stop - begin > MAX_CHARS:
                    begin, stop = max(begin, start - MAX_CHARS // 2), min(stop, end + MAX_CHARS // 2)
                words = statute_sentence(text, begin, stop, spans)
                tokens = tokens_of.get(words)
                if tokens is None:
                    tokens = tokens_of[words] = tuple(tokenize(words))
                if tokens:
                    yield Anchor(to_law, article, OWN_LAW_KIND if to_law == law_id else kind, law_id, tokens)


def field_bytes(anchors: Iterator[Anchor], folder: Path) -> bytes:
    return write_field(folder, field_arrays(anchors, keep_sources=False), about={"graph": "g"}).read_bytes()


@pytest.fixture(scope="module")
def store(search_store_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_store(search_store_template, tmp_path_factory.mktemp("statute-build") / "store")


def test_the_faster_build_saves_the_field_the_one_pass_build_saved(store: Path, tmp_path: Path) -> None:
    with LexGraph.open(store, read_only=True) as lg:
        laws = {row.law_id for row in lg.store.rows(LAWS_ALL)}
        reference = list(reference_statute_anchors(lg.store, laws))
        assert len(reference) > 50
        want = field_bytes(iter(reference), tmp_path / "reference")
        alone = list(statute_anchors(lg.store, laws))
        pooled = list(statute_anchors(lg.store, laws, workers=2))
        # the same anchors (the store gives a law's rows in no set order; the field sorts them), the same file
        assert sorted(map(astuple, alone)) == sorted(map(astuple, pooled)) == sorted(map(astuple, reference))
        assert field_bytes(iter(pooled), tmp_path / "pooled") == want
        # a narrower set of cited laws: the spans taken out are the kept citations', as before
        some = set(sorted(laws)[:2])
        assert sorted(map(astuple, statute_anchors(lg.store, some, workers=2))) == sorted(
            map(astuple, reference_statute_anchors(lg.store, some)))


_KILLED_BUILD = """
import multiprocessing, os, signal, sys
from lexgraph.client import LexGraph
from lexgraph.index import anchors
anchors.AnchorSpill.LAWS_PER_FILE = 1  # a file per law, so that the kill leaves some laws finished
if __name__ == "__main__":
    with LexGraph.open(sys.argv[1], read_only=True) as lg:
        def on_law(stage, done, total):
            if done == int(sys.argv[2]):
                print(" ".join(str(p.pid) for p in multiprocessing.active_children()), flush=True)
                os.kill(os.getpid(), signal.SIGKILL)
        lg.build_statute_anchors(rebuild=True, progress=on_law)
"""


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def kill_half_way(location: str, laws: int, tmp_path: Path, *, read_only: bool = True,
                  env: dict[str, str] | None = None) -> None:
    """Run the statutes' anchor build of `location` in a child that SIGKILLs itself once half of its `laws` are
    kept, with two worker processes, and wait until those have ended too: a killed build's workers must end with
    it rather than wait for ever on their queue."""
    script = tmp_path / "killed_build.py"
    script.write_text(_KILLED_BUILD if read_only else _KILLED_BUILD.replace("read_only=True", "read_only=False"),
                      encoding="utf-8")
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "2", **(env or {})}
    killed = subprocess.run([sys.executable, str(script), location, str(max(2, laws // 2))], env=environment,
                            cwd=ROOT, capture_output=True, timeout=600)
    assert killed.returncode == -signal.SIGKILL, killed.stderr.decode()
    workers = [int(pid) for pid in killed.stdout.split()]
    assert workers  # the build ran in worker processes
    deadline = time.monotonic() + 60
    while any(map(_running, workers)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(map(_running, workers)), workers


def count_law_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The laws the next anchor build reads from the graph, in a list that fills as it reads them."""
    read: list[str] = []
    real = anchors_module._read_clauses

    def counted(store_: GraphStore, law_ids: list[str], laws_: set[str] | None) -> object:
        read.extend(law_ids)
        return real(store_, law_ids, laws_)

    monkeypatch.setattr(anchors_module, "_read_clauses", counted)
    return read


def test_a_build_killed_half_way_continues_and_saves_the_same_field(store: Path, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    whole = copy_store(store, tmp_path / "whole")
    with LexGraph.open(whole, read_only=True) as lg:
        assert (lg.build_statute_anchors(rebuild=True) or 0) > 50
        laws = len(lg.store.rows(LAWS_ALL))
    index = whole / "index"
    want = (index / FIELD_FILE).read_bytes()
    assert not list(index.glob(f"{SPILL_PREFIX}*"))  # the kept laws go once the field is saved

    resumed = copy_store(store, tmp_path / "resumed")
    (resumed / "index" / FIELD_FILE).unlink(missing_ok=True)
    kill_half_way(str(resumed), laws, tmp_path)
    spills = list((resumed / "index").glob(f"{SPILL_PREFIX}*"))
    assert len(spills) == 1 and not (resumed / "index" / FIELD_FILE).exists()
    kept = {law for law, _ in AnchorSpill(spills[0]).read()}
    assert 0 < len(kept) < laws

    read = count_law_reads(monkeypatch)
    with LexGraph.open(resumed, read_only=True) as lg:
        assert (lg.build_statute_anchors() or 0) > 50
    assert not kept & set(read) and len(read) == laws - len(kept)  # the finished laws were not read again
    assert (resumed / "index" / FIELD_FILE).read_bytes() == want
    assert not list((resumed / "index").glob(f"{SPILL_PREFIX}*"))


def test_a_torn_or_foreign_spill_file_is_built_again_not_trusted(tmp_path: Path) -> None:
    spill = AnchorSpill(tmp_path / "spill")
    spill.add("law-a", [("law-b", "a1", "act", ("損害", "賠償"))])
    spill.flush()
    (tmp_path / "spill" / "laws-000001.jsonl.gz").write_bytes(b"\x1f\x8b not gzip")
    (tmp_path / "spill" / "laws-000002.jsonl.gz").write_bytes(gzip.compress(json.dumps({"law": 3}).encode()))
    assert list(spill.read()) == [("law-a", [("law-b", "a1", "act", ("損害", "賠償"))])]


def test_the_python_client_indexes_with_the_statutes_field_as_the_cli_does(store: Path, tmp_path: Path) -> None:
    """`LexGraph.index()` is the one place an index is built: the field comes with it, as it does with `lexgraph
    index`, so a Python client's learned mode does not silently rank as the hybrid; `statute_anchors=False` is the
    CLI's `--no-statute-anchors`."""
    reference = copy_store(store, tmp_path / "reference")
    with LexGraph.open(reference, read_only=True) as lg:
        assert (lg.build_statute_anchors(rebuild=True) or 0) > 50
    want = (reference / "index" / FIELD_FILE).read_bytes()

    bare = copy_store(store, tmp_path / "bare")
    (bare / "index" / FIELD_FILE).unlink(missing_ok=True)
    with LexGraph.open(bare, read_only=True) as lg:
        skipped = lg.index(statute_anchors=False)
    assert skipped.statute_anchors is None and not (bare / "index" / FIELD_FILE).exists()
    assert "statute_anchors" not in skipped.to_json()
    with LexGraph.open(bare, read_only=True) as lg:
        built = lg.index()
        again = lg.index()  # up to date: nothing folded again
    assert (built.statute_anchors or 0) > 50 and built.to_json()["statute_anchors"] == built.statute_anchors
    assert again.statute_anchors is None
    assert (bare / "index" / FIELD_FILE).read_bytes() == want
