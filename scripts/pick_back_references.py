"""Collect the back references to a precedent (同判決, 同決定, 前掲 + a court) of the Supreme Court judgments of
../shared into a test table, with a stretch of real text that holds the antecedent.

    python scripts/pick_back_references.py [--judgments DIR] [--list]

The search is a plain pattern over every judgment (no lexgraph extractor): ``--list`` prints every occurrence with
the text before it, for reading. Which occurrences are back references to a cited precedent, and which precedent,
was decided by reading them (``ANSWERS`` below: the document, the offset of the words, and the antecedent's court,
date and type as the judgment writes it; ``None`` for an occurrence that names no cited precedent: a judgment the
text speaks of, or 同判決書). The table keeps, per answer, the judgment's text from ``CONTEXT`` characters before
the antecedent (or the words) to the end of the sentence, so that a test reads it whole as `cite FILE` would.
Judgments: 裁判所ウェブサイト, no copyright (著作権法第13条), as tests/data/citations/SOURCE.md.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
JUDGMENTS = ROOT.parent / "shared" / "data" / "precedents" / "supreme_court"
OUT = ROOT / "tests" / "data" / "literature" / "back_references.jsonl"
PATTERN = re.compile(r"同\s*(?:判\s*決|決\s*定)"
                     r"|前掲(?:最高裁|最|大審院|大)?(?:大法廷|第[一二三１２３]小法廷)?(?:判決|決定)")
CONTEXT = 600
# (document, offset of the words, surface) → (antecedent's surface start in the document, court, date, type);
# None: the words name no cited precedent, so nothing is to be reported
ANSWERS: dict[tuple[str, int, str], tuple[str, str, str, str] | None] = {
    ("50906.txt", 24750, "同\n判決"): ("福岡高等裁判所", "福岡高等裁判所", "1968-04-18", "判決"),
    ("52665.txt", 326, "前掲大法廷判決"): ("最高裁判所大法廷", "最高裁判所大法廷", "1984-12-12", "判決"),
    ("83520.txt", 4784, "同判決"): ("最高裁", "最高裁判所大法廷", "2008-06-04", "判決"),
    ("85133.txt", 1686, "同判決"): ("最高裁平成１６年", "最高裁判所第二小法廷", "2006-01-13", "判決"),
    ("86652.txt", 2636, "同決定"): ("最高裁平成元年", "最高裁判所第一小法廷", "1989-05-01", "決定"),
    ("86652.txt", 2679, "同決定"): ("最高裁平成元年", "最高裁判所第一小法廷", "1989-05-01", "決定"),
    ("88903.txt", 3453, "同判決"): ("最高裁昭和５５年", "最高裁判所第三小法廷", "1983-09-06", "判決"),
    ("88979.txt", 6635, "前掲最高裁第二小法廷判決"): ("最高裁", "最高裁判所第二小法廷", "2016-07-15", "判決"),
}
NEGATIVES = {"84336.txt", "83048.txt", "82916.txt"}  # 同判決 after 「判決を受け」 / 「判決をした」: no precedent cited


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--judgments", type=Path, default=JUDGMENTS)
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args(argv)
    rows = []
    for path in sorted(args.judgments.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        for match in PATTERN.finditer(text):
            key = (path.name, match.start(), match.group())
            if args.list:
                print(path.name, match.start(), repr(match.group()), text[max(0, match.start() - 120):match.end()]
                      .replace("\n", ""))
            sentence_end = text.find("。", match.end())
            end = sentence_end + 1 if sentence_end >= 0 else len(text)
            if key in ANSWERS:
                answer = ANSWERS[key]
                assert answer is not None
                cue, court, day, kind = answer
                from_ = max(0, text.rfind(cue, 0, match.start()) - CONTEXT)
                rows.append({"origin": "judgment", "doc": path.name, "offset": from_, "text": text[from_:end],
                             "start": match.start() - from_, "surface": match.group(),
                             "expect": {"court": court, "date": day, "decision_type": kind}})
            elif path.name in NEGATIVES and match.group().startswith("同"):
                from_ = max(0, match.start() - CONTEXT)
                rows.append({"origin": "judgment", "doc": path.name, "offset": from_, "text": text[from_:end],
                             "start": match.start() - from_, "surface": match.group(), "expect": None})
    if not args.list:
        OUT.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        print(f"{len(rows)} rows → {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
