"""Pick the candidates of the context gold: citations whose law only the text around them decides, deterministically.

Why a script: the gold measures which law 同法, a bare article (（３条）, ３１３条２項) and a defined amending act
(改正法附則１７条３項) mean in judgments lexgraph was not tuned on. Choosing them with lexgraph's extractor would
bias the gold toward what it finds, and choosing them by hand toward what is interesting; this script draws them
with a fixed seed and broad regular expressions only, so that anyone can re-draw the same candidates. Each is then
read by a person, who writes the law it cites into ``tests/data/citations/context_gold.jsonl``.

Choice (seed ``SEED``): judgments of ``../shared/data/precedents/supreme_court`` that neither ``dev_gold.jsonl``
nor ``heldout_gold.jsonl`` uses; in each, the places that match ``CONTEXT_RE`` (同法 + an article; 改正法 / 新法 /
旧法 + an article; an article with no word, numeral or listed clause before it, whitespace apart); at most
``PER_DOC`` per judgment, drawn at random; judgments in random order until ``WANTED`` candidates. Offsets are into
the judgment file; the passage is the ``BEFORE`` characters before the candidate and ``AFTER`` after.

Usage::

    python scripts/pick_context_gold.py > /tmp/context_candidates.jsonl
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

SEED = 48
WANTED = 170
PER_DOC = 3
BEFORE, AFTER = 400, 40

ROOT = Path(__file__).resolve().parent.parent
JUDGMENTS = ROOT.parent / "shared" / "data" / "precedents" / "supreme_court"
GOLDS = [ROOT / "tests" / "data" / "citations" / name for name in ("dev_gold.jsonl", "heldout_gold.jsonl")]

NUM = r"[0-9０-９一二三四五六七八九十百千〇]"
SP = r"\s*"
ARTICLE = rf"第?{SP}{NUM}(?:{SP}{NUM})*{SP}条"
CONTEXT_RE = re.compile(
    rf"同{SP}法{SP}(?P<same>{ARTICLE})"  # 同法３２条
    rf"|(?:改{SP}正{SP}法|新{SP}法|旧{SP}法)(?:{SP}附{SP}則)?{SP}(?P<defined>{ARTICLE})"  # 改正法附則１７条
    rf"|(?<![一-龥ァ-ヴー々0-9０-９・．.])(?P<bare>{ARTICLE})"  # （３条）, ，７３９条
)


def _continues(text: str, start: int) -> bool:
    """Does the bare article at `start` continue something before it, whitespace apart: a number broken across
    lines (「２\n６条」, 「四〇\n五条」), a word (「法\n１条」), or a list after a clause (「４１４条，３９６条」:
    the list names its law)? Such an article is not one whose law the discourse decides."""
    before = re.sub(r"\s", "", text[max(0, start - 40):start])
    return bool(before) and (re.search(rf"(?:{NUM}|[一-龥ァ-ヴー々])\Z", before) is not None
                             or re.search(r"[条項号書段][，、,]\Z", before) is not None)


def main() -> int:
    used = {json.loads(line)["doc"] for gold in GOLDS for line in gold.read_text(encoding="utf-8").splitlines()}
    judgments = sorted(p for p in JUDGMENTS.glob("*.txt") if p.name not in used)
    rng = random.Random(SEED)
    rng.shuffle(judgments)
    picked = 0
    for path in judgments:
        text = path.read_text(encoding="utf-8")
        found = [m for m in CONTEXT_RE.finditer(text) if not (m["bare"] and _continues(text, m.start()))]
        for match in sorted(rng.sample(found, min(PER_DOC, len(found))), key=lambda m: m.start()):
            kind = next(name for name in ("same", "defined", "bare") if match[name])
            row = {"doc": path.name, "start": match.start(), "end": match.end(), "surface": match.group(),
                   "class": kind, "before": text[max(0, match.start() - BEFORE):match.start()],
                   "after": text[match.end():match.end() + AFTER]}
            print(json.dumps(row, ensure_ascii=False))
            picked += 1
        if picked >= WANTED:
            break
    print(f"{picked} candidates", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
