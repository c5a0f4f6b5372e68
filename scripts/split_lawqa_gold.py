"""Split the lawqa_jp bracketed-reference gold into dev and held-out by excerpt, seeded, and print the resolver's
accuracy on each.

    python scripts/split_lawqa_gold.py [--seed 31] [--heldout-share 0.34] [--write]

Why a script: the split must not be chosen by looking at what the resolver gets right. The unit is the excerpt
(``doc``, one lawqa_jp question's statute context), since a replay carries 同法 / 前条 from line to line within
one; excerpts are shuffled with the seed and the first ``heldout-share`` of them (rounded up) are held out. With
``--write`` the held-out excerpt names go to ``tests/data/citations/lawqa_relative_split.json`` (with the seed),
which `lexgraph.eval.lawqa_gold`'s callers may read; without it, the split is only printed.

Caveat, written down so it is not forgotten: lawqa_jp publishes 69 questions (dev only), and earlier work
fixed resolver classes while looking at all of them, so the held-out part is held out from
this split on, not unseen by the code. An unseen test needs questions the project has never read.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lexgraph.eval.lawqa_gold import evaluate  # noqa: E402
from lexgraph.statutes.catalog import Catalog  # noqa: E402

GOLD = ROOT / "tests" / "data" / "citations" / "lawqa_relative_gold.jsonl"
SPLIT = ROOT / "tests" / "data" / "citations" / "lawqa_relative_split.json"


def split(docs: list[str], seed: int, share: float) -> list[str]:
    """The held-out excerpts: `share` of `docs` (rounded up), drawn with `seed` from the sorted names."""
    ordered = sorted(docs)
    random.Random(seed).shuffle(ordered)
    return sorted(ordered[: math.ceil(len(ordered) * share)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--heldout-share", type=float, default=0.34)
    parser.add_argument("--gold", type=Path, default=GOLD)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    lines = [json.loads(line) for line in args.gold.read_text(encoding="utf-8").splitlines() if line.strip()]
    annotated = sorted({line["doc"] for line in lines if line.get("annotated")})
    heldout = set(split(annotated, args.seed, args.heldout_share))
    if args.write:
        SPLIT.write_text(json.dumps({"seed": args.seed, "heldout_share": args.heldout_share,
                                     "heldout": sorted(heldout)}, ensure_ascii=False, indent=1) + "\n",
                         encoding="utf-8")
    catalog = Catalog.bundled()
    for name, keep in (("dev", lambda doc: doc not in heldout), ("heldout", lambda doc: doc in heldout)):
        part = [line for line in lines if keep(line["doc"])]
        overall = evaluate(part, catalog)
        clean = evaluate(part, catalog, include_disputed=False)
        docs = len({line["doc"] for line in part if line.get("annotated")})
        print(f"{name}: {docs} excerpts, accuracy {overall.correct}/{overall.total} = {overall.accuracy:.4f} "
              f"(undisputed: {clean.correct}/{clean.total} = {clean.accuracy:.4f})")
        for gold, found in overall.misses:
            got = "; ".join(f"{c['surface']} → {c['law_title']} {c['path']}" for c in found) or "nothing"
            print(f"  miss: {gold['surface']}[{gold['gold']}] in {gold['law_title']}: got {got}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
