"""Pick the candidate sentences of the held-out citation gold, deterministically.

Why a script: the held-out gold must not be chosen by lexgraph's extractor (that would bias it toward what the
extractor finds) nor by hand (that would bias it toward what the annotator finds interesting). This script draws
judgments and sentences with a fixed seed, using only broad regular expressions, so that anyone can re-draw the
same candidates and see that the choice was blind. The candidates are then annotated by hand into
``tests/data/citations/heldout_gold.jsonl``.

Choice (seed ``SEED``):

* judgments of ``../shared/data/precedents/supreme_court`` that ``dev_gold.jsonl`` does not use (by doc id),
  ``N_OLD`` old ones (ids 5xxxx–7xxxx: kanji numerals) and ``N_RECENT`` recent ones (8xxxx, 9xxxx);
* sentences split as in dev_gold: a sentence ends after 「。」 unless a closing bracket follows, and is stripped of
  surrounding whitespace; offsets are into the judgment file, the text verbatim (PDF layout kept);
* up to ``PER_DOC`` *citation candidates* per judgment: sentences of ``MIN_LEN``–``MAX_LEN`` characters that match
  ``CITE_RE`` (a numeral before 条/項/号, 同法/同条/同項/前項, a reporter, a case number, 判決/決定 after a date);
* one *hard negative* per judgment (where one exists): the judgment header, or a sentence with a date, money, a
  contract's or 規約's clause, or 前項/前記 meaning a part of the judgment, that ``CITE_RE`` does not match except
  for those patterns.

Usage::

    python scripts/pick_heldout_gold.py > /tmp/heldout_candidates.jsonl
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

SEED = 20240914
N_OLD = 14
N_RECENT = 36
PER_DOC = 6
MIN_LEN = 25
MAX_LEN = 420
# Round 2 (added after round 1 was annotated and gave 179 sentences with citations, fewer than 200: many round-1
# candidates were judgment headers, whose case number matches CITE_RE). It draws further judgments with its own
# seed, so that round 1 stays as it was, and takes only sentences after the header that match STRONG_RE.
SEED_2 = 20240915
N_EXTRA = 10
PER_DOC_2 = 4

ROOT = Path(__file__).resolve().parent.parent
JUDGMENTS = ROOT.parent / "shared" / "data" / "precedents" / "supreme_court"
DEV_GOLD = ROOT / "tests" / "data" / "citations" / "dev_gold.jsonl"

NUM = r"[0-9０-９一二三四五六七八九十百千〇]"
SP = r"\s*"
CITE_RE = re.compile(
    "|".join(
        [
            rf"{NUM}{SP}条",  # 民法七〇九条, ３条の２, 第５条
            rf"{NUM}{SP}項",
            rf"{NUM}{SP}号",
            r"同\s*[法令条項号]|前\s*[項条号]|次\s*[項条]",
            r"(?:法|令|規則|規程|条例)(?:第|\s*[0-9０-９一二三四五六七八九十])",
            r"民\s*集|刑\s*集|判\s*時|判\s*タ|裁\s*判\s*集|集\s*民|集\s*刑|高\s*刑|高\s*民|下\s*民|行\s*集",
            r"(?:判決|決定)\s*[・，、]",
            r"年\s*（[^）]{1,4}）\s*第",
        ]
    )
)
STRONG_RE = re.compile(rf"{NUM}{SP}条|民\s*集|刑\s*集|裁\s*判\s*集|判\s*時")
NEG_RE = re.compile(r"円|年\s*\S{1,3}\s*月|契約書|規約|約款|前\s*項|前\s*記|条項")
SPLIT_RE = re.compile(r"。(?![）」』\)])")


def dev_docs() -> set[str]:
    """The judgments the first gold uses: the held-out gold must not share any."""
    with open(DEV_GOLD, encoding="utf-8") as fh:
        return {json.loads(line)["doc"] for line in fh if line.strip()}


def sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of every sentence: up to and including 「。」, surrounding whitespace left out."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in SPLIT_RE.finditer(text):
        spans.append((start, m.end()))
        start = m.end()
    spans.append((start, len(text)))
    out = []
    for s, e in spans:
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if e > s:
            out.append((s, e))
    return out


def is_old(doc: str) -> bool:
    """Judgments with ids 5xxxx–7xxxx are the old ones, written in kanji numerals."""
    return doc[:1] in "567" and len(doc.split(".")[0]) == 5


def pick() -> list[dict[str, object]]:
    rng = random.Random(SEED)
    used = dev_docs()
    docs = sorted(p.name for p in JUDGMENTS.glob("*.txt") if p.name not in used)
    old = [d for d in docs if is_old(d)]
    recent = [d for d in docs if not is_old(d) and d[:1] in "89"]
    chosen = sorted(rng.sample(old, N_OLD)) + sorted(rng.sample(recent, N_RECENT))
    out: list[dict[str, object]] = []
    for doc in chosen:
        text = (JUDGMENTS / doc).read_text(encoding="utf-8")
        spans = sentences(text)
        cites = [(s, e) for s, e in spans if MIN_LEN <= e - s <= MAX_LEN and CITE_RE.search(text[s:e])]
        negs = [spans[0]] + [
            (s, e) for s, e in spans[1:] if MIN_LEN <= e - s <= MAX_LEN and not CITE_RE.search(text[s:e])
            and NEG_RE.search(text[s:e])
        ]  # fmt: skip
        picked = sorted(rng.sample(cites, min(PER_DOC, len(cites))))
        neg = rng.choice(negs) if negs else None
        rows = [(s, e, "cite") for s, e in picked]
        if neg is not None and neg not in picked:
            rows.append((neg[0], neg[1], "negative"))
        for s, e, why in sorted(rows):
            out.append({"doc": doc, "sentence_start": s, "sentence_end": e, "sentence": text[s:e], "picked_as": why})
    rng2 = random.Random(SEED_2)
    rest = [d for d in docs if d not in chosen and d[:1] in "56789"]
    for doc in sorted(rng2.sample(rest, N_EXTRA)):
        text = (JUDGMENTS / doc).read_text(encoding="utf-8")
        spans = sentences(text)[1:]
        cites = [(s, e) for s, e in spans if MIN_LEN <= e - s <= MAX_LEN and STRONG_RE.search(text[s:e])]
        for s, e in sorted(rng2.sample(cites, min(PER_DOC_2, len(cites)))):
            out.append({"doc": doc, "sentence_start": s, "sentence_end": e, "sentence": text[s:e], "picked_as": "cite"})
    return out


def main() -> int:
    for row in pick():
        sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
