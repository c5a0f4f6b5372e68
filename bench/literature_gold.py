"""Precedent and statute F1 on the literature gold, overall and per part (`origin`).

Why apart: the gold mixes real judgment sentences, lexgraph's own captions and literature forms derived from real
citations (tests/data/literature/README.md); a figure per part says which kind of text a change helps. The scoring is
`lexgraph eval citations`' own (judgments replayed whole, the rest read line by line):

    PYTHONPATH=$PWD python bench/literature_gold.py [--gold tests/data/literature/literature_gold.jsonl] [--misses]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from lexgraph.eval.citations import load_gold, score_extractor

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--gold", type=Path, default=ROOT / "tests" / "data" / "literature" / "literature_gold.jsonl")
    parser.add_argument("--misses", action="store_true", help="list every miss (target level)")
    args = parser.parse_args()
    lines = load_gold(args.gold)
    parts = {"all": lines}
    for line in lines:
        parts.setdefault(str(line.get("origin", "?")), []).append(line)
    for name, part in parts.items():
        scores = score_extractor(part)
        cells = []
        for kind in ("statute", "precedent"):
            for level in ("span", "target"):
                prf = getattr(getattr(scores, kind), level)
                cells.append(f"{kind} {level} {prf.f1:.4f} ({prf.tp}/{prf.tp + prf.fn})")
        figures = "  ".join(cells)
        print(f"{name:9} {len(part):4} lines  {figures}")
        if args.misses and name == "all":
            for miss in scores.misses:
                print(f"   {miss.side:8} {miss.kind:9} {miss.doc}@{miss.sentence_start} {miss.surface!r}")


if __name__ == "__main__":
    main()
