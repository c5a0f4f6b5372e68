"""What encoding detection costs, and how often it refuses or misreads short texts.

Why: every judgment, book and `cite` input now goes through `lexgraph.documents.encoding.decode_text`
instead of a bare ``bytes.decode("utf-8")``. Detection must not slow an ingest or `cite` noticeably, and it must
never return wrong text. This script measures both on real judgments, in one process, so the ratio is meaningful
on a loaded machine.

    .venv/bin/python bench/decode_text.py [--corpus DIR] [--samples N] [--json]

* throughput: the best of 3 passes over every judgment of ``--corpus`` (default
  ../shared/data/precedents/supreme_court), in UTF-8, Shift_JIS (CP932) and EUC-JP (judgments holding a character
  the encoding lacks are left out of that encoding), against ``bytes.decode`` of the same bytes with the right
  codec. MB/s counts input bytes (1 MB = 10^6 bytes).
* short texts: ``--samples`` random stretches of 1–16 characters of those judgments (seeded), each encoded in the
  three encodings and decoded: how many come back as the text, are refused, or come back wrong (must be 0).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from pathlib import Path

from lexgraph.documents.encoding import decode_text
from lexgraph.errors import EncodingError

ROOT = Path(__file__).parents[1]
CODECS = ("utf-8", "cp932", "euc_jp")


def best_of(passes: int, run) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(passes):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "data" / "precedents" /
                        "supreme_court")
    parser.add_argument("--samples", type=int, default=20_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    texts = [p.read_text(encoding="utf-8") for p in sorted(args.corpus.rglob("*.txt"))]
    if not texts:
        raise SystemExit(f"no judgments under {args.corpus}")
    result: dict[str, object] = {"judgments": len(texts)}
    for codec in CODECS:
        data = []
        for text in texts:
            try:
                data.append(text.encode(codec))
            except UnicodeEncodeError:
                continue
        megabytes = sum(map(len, data)) / 1e6
        detected = best_of(3, lambda: [decode_text(d, "bench") for d in data])  # noqa: B023 - run at once
        plain = best_of(3, lambda: [d.decode(codec) for d in data])  # noqa: B023
        result[codec] = {"files": len(data), "mb": round(megabytes, 2),
                         "decode_text_mb_s": round(megabytes / detected, 1),
                         "bytes_decode_mb_s": round(megabytes / plain, 1), "ratio": round(detected / plain, 1)}
    rng = random.Random(15)
    outcomes: Counter[str] = Counter()
    for _ in range(args.samples):
        text = rng.choice(texts)
        size = rng.randint(1, 16)
        start = rng.randrange(0, max(1, len(text) - size))
        sample = text[start:start + size]
        for codec in CODECS:
            try:
                data = sample.encode(codec)
            except UnicodeEncodeError:
                continue
            try:
                outcomes[f"{codec} {'right' if decode_text(data, 'bench').text == sample else 'WRONG'}"] += 1
            except EncodingError:
                outcomes[f"{codec} refused"] += 1
    result["short_texts"] = dict(sorted(outcomes.items()))
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return
    print(f"{result['judgments']} judgments")
    for codec in CODECS:
        row = result[codec]
        assert isinstance(row, dict)
        print(f"{codec:7} {row['files']:4} files {row['mb']:6.2f} MB  decode_text {row['decode_text_mb_s']:6.1f} MB/s  "
              f"bytes.decode {row['bytes_decode_mb_s']:6.1f} MB/s  ({row['ratio']}x the time)")
    short_texts = result["short_texts"]
    assert isinstance(short_texts, dict)
    print("short texts (1-16 characters):", ", ".join(f"{k} {v}" for k, v in short_texts.items()))


if __name__ == "__main__":
    main()
