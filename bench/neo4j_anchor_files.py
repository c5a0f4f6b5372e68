"""What the anchor field's files cost to keep in Neo4j: writing one into the database (what `lexgraph copy --to
bolt://…` and `lexgraph index` on Neo4j do), carrying it back out (what `lexgraph copy --to DIR` from Neo4j does:
each chunk read, the whole checked against its record's SHA-256), and `lexgraph doctor`'s `anchor field` line
(the chunks' sizes read, the local cache hashed), each beside a baseline in the same run: the same bytes copied
and hashed on the local disk.

    python bench/neo4j_anchor_files.py --uri bolt://127.0.0.1:7687 --file DIR/index/anchor_field.bin \
        [--file DIR/index/anchors.jsonl.gz] [--rounds 3] [--json]

It REPLACES the files the database keeps under those names (and leaves them there, as a copy would): run it
against a scratch database. The figures are medians of ``--rounds``, with the 1-min load at the start and end.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lexgraph.index.neo4j_files import (
    ANCHOR_CACHE_ENV,
    FORMATS,
    fetch_files,
    fetch_into,
    file_sha256,
    put_file,
    stored_files,
)
from lexgraph.retrieve.anchor_health import anchor_field_finding
from lexgraph.store import open_store


def timed(work: Callable[[], object], rounds: int) -> float:
    seconds = []
    for _ in range(rounds):
        started = time.perf_counter()
        work()
        seconds.append(time.perf_counter() - started)
    return statistics.median(seconds)


def local_copy(source: Path, folder: Path) -> None:
    """The baseline: the file copied on the local disk and its copy hashed, as a fetch writes and checks it."""
    target = folder / source.name
    shutil.copyfile(source, target)
    file_sha256(target)
    target.unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--uri", required=True)
    parser.add_argument("--file", type=Path, action="append", required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    load_start = os.getloadavg()[0]
    store = open_store(args.uri)
    files: dict[str, dict[str, float | int]] = {}
    report: dict[str, object] = {"rounds": args.rounds, "files": files}
    with tempfile.TemporaryDirectory(prefix="bench-anchors-") as scratch:
        os.environ[ANCHOR_CACHE_ENV] = str(Path(scratch) / "cache")
        for path in args.file:
            name = path.name
            if name not in FORMATS:
                raise SystemExit(f"{path}: not an anchor field file ({', '.join(FORMATS)})")
            out = Path(scratch) / "out"
            out.mkdir(exist_ok=True)
            figures: dict[str, float | int] = {"bytes": path.stat().st_size}
            figures["local copy + hash s"] = timed(partial(local_copy, path, out), args.rounds)
            figures["put into Neo4j s"] = timed(partial(put_file, store, path, name=name,
                                                        format=FORMATS[name]), args.rounds)
            record = stored_files(store)[name]
            figures["fetch out of Neo4j, checked s"] = timed(partial(fetch_into, store, [record], out),
                                                             args.rounds)
            files[name] = figures
        kept = sorted(stored_files(store).values(), key=lambda r: r.name)
        report["doctor line, not cached s"] = timed(lambda: anchor_field_finding(store), args.rounds)
        fetch_files(store, kept)
        report["doctor line, cached s"] = timed(lambda: anchor_field_finding(store), args.rounds)
        report["doctor line"] = anchor_field_finding(store).detail
    store.close()
    report["load 1-min start, end"] = [round(load_start, 2), round(os.getloadavg()[0], 2)]
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=1))
        return
    for name, figures in files.items():
        print(name, ", ".join(f"{k}: {v:,.3f}" if isinstance(v, float) else f"{k}: {v:,}" for k, v in figures.items()))
    for key in ("doctor line, not cached s", "doctor line, cached s"):
        print(f"{key}: {report[key]:.3f}")
    print("doctor line:", report["doctor line"])
    print("load 1-min start, end:", report["load 1-min start, end"])


if __name__ == "__main__":
    main()
