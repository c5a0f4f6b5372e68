"""Memory a search takes for a judgments' anchors file (``anchors.jsonl.gz``): the bound it is read within
(`lexgraph.index.anchors.ANCHORS_MAX_MB`) is chosen from these figures.

    python bench/anchor_memory.py [--mb 50] [--anchors DIR ...]

Two planted files of ``--mb`` MB (decompressed) are written in a temporary folder: one of random one-character
words (few distinct words, many tokens) and one where every word is new (two-character words, never repeated: the
worst case for memory, since each needs its own string and its own entry in every term table). Each file, and each
``--anchors`` folder given (a real one: a store's ``index/``), is then read and built into the anchor field and its
citing sentences as a search does (`read_anchors`, `AnchorField.build`), in a process of its own; the peak RSS
(high-water mark) after the read and after the build are printed, with the build's peak per MB of the file.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

CJK = [chr(code) for code in range(0x4E00, 0x4E00 + 20_000)]
WORDS_PER_LINE = 2_000


def _lines(words: Iterator[str], megabytes: int) -> Iterator[str]:
    written = number = 0
    while written < megabytes << 20:
        line = json.dumps({"law_id": "129AC0000000089", "article": f"a{number % 1000 + 1}", "kind": "judgment",
                           "source": f"{number:06d}_hanrei",
                           "tokens": " ".join(itertools.islice(words, WORDS_PER_LINE))}, ensure_ascii=False) + "\n"
        written += len(line.encode())
        number += 1
        yield line


def plant(folder: Path, kind: str, megabytes: int) -> Path:
    """A planted anchors file of `kind` (``characters`` or ``new-words``) in `folder`; returns the folder."""
    folder.mkdir(parents=True)
    rng = random.Random(0)
    if kind == "characters":
        words: Iterator[str] = (rng.choice(CJK) for _ in itertools.count())
    else:
        words = (a + b for a, b in itertools.product(CJK, CJK))
    with gzip.open(folder / "anchors.jsonl.gz", "wt", encoding="utf-8") as out:
        out.writelines(_lines(words, megabytes))
    return folder


def measure(folder: str) -> None:
    """Read and build `folder`'s anchors here, printing one JSON line of figures (run in a process of its own)."""
    from lexgraph.index.anchors import read_anchors
    from lexgraph.retrieve.anchor_field import AnchorField

    def peak() -> float:
        # the memory map's high-water mark: a child's ru_maxrss keeps the parent's from before the exec
        status = Path("/proc/self/status").read_text()
        return int(next(line for line in status.splitlines() if line.startswith("VmHWM:")).split()[1]) / 1024

    start = time.perf_counter()
    anchors = read_anchors(Path(folder)) or []
    read_s, read_mb = time.perf_counter() - start, peak()
    AnchorField.build(anchors)
    print(json.dumps({"anchors": len(anchors), "read_s": read_s, "read_peak_mb": read_mb,
                      "build_s": time.perf_counter() - start - read_s, "build_peak_mb": peak()}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=int, default=50, help="size of each planted file, decompressed")
    parser.add_argument("--anchors", action="append", default=[], help="a folder holding a real anchors.jsonl.gz")
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        measure(args.measure)
        return
    with tempfile.TemporaryDirectory() as scratch:
        folders = [(kind, plant(Path(scratch) / kind, kind, args.mb)) for kind in ("characters", "new-words")]
        folders += [(folder, Path(folder)) for folder in args.anchors]
        # the planted files are larger than the default bound on purpose when --mb is: let the reader take them
        env = {**os.environ, "LEXGRAPH_DATA_MAX_MB": str(max(args.mb * 2, 1024))}
        print(f"load average {os.getloadavg()[0]:.2f}")
        print(f"{'file':<24} {'MB':>6} {'anchors':>8} {'read s':>7} {'read peak':>10} {'build s':>8} "
              f"{'build peak':>11} {'peak/MB':>8}")
        for name, folder in folders:
            size = len(gzip.decompress((folder / "anchors.jsonl.gz").read_bytes())) / (1 << 20)
            out = subprocess.run([sys.executable, __file__, "--measure", str(folder)], env=env, check=True,
                                 capture_output=True, text=True).stdout
            row = json.loads(out.strip().splitlines()[-1])
            print(f"{str(name)[-24:]:<24} {size:>6.1f} {row['anchors']:>8,} {row['read_s']:>7.1f} "
                  f"{row['read_peak_mb']:>8.0f}MB {row['build_s']:>8.1f} {row['build_peak_mb']:>9.0f}MB "
                  f"{row['build_peak_mb'] / size:>8.1f}")


if __name__ == "__main__":
    main()
