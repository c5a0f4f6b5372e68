"""The context gold's score: which law 同法, a bare article and a defined amending act mean, judged by hand.

Why: `tests/data/citations/context_gold.jsonl` holds citations whose law only the text around them decides, drawn
blind by ``scripts/pick_context_gold.py`` from Supreme Court judgments outside the other golds and annotated by
reading each passage (SOURCE.md beside it). This script reads each judgment whole, as ``lexgraph cite`` does (as
of the date in its header), and scores the citation found at each gold place:

* a gold law with an id: right when the citation has that id (its status may be `ambiguous`: the right reading
  given first, the other named in the reason; counted apart);
* a gold law without an id (not in the catalogue: an amending act, a repealed law): right when the citation has
  no id and that title, or the gold's law number;
* no law of the catalogue (an ordinance, a bar association's rule, a station called 五条): right when nothing
  there is resolved to a national law.

Usage::

    .venv/bin/python bench/context_gold.py [--gold PATH] [--judgments DIR] [--json] [--misses N]
"""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GOLD = ROOT / "tests" / "data" / "citations" / "context_gold.jsonl"
JUDGMENTS = ROOT.parent / "shared" / "data" / "precedents" / "supreme_court"


def _title(value: str | None) -> str:
    return "".join(unicodedata.normalize("NFKC", value or "").split()).replace(",", "、")


def judge(row: dict[str, Any], found: list[dict[str, Any]]) -> tuple[bool, str]:
    """Whether the citations found over the gold place read it right, and what was found."""
    at = [c for c in found if c["start"] < row["end"] and row["start"] < c["end"]]
    said = "; ".join(f"{c['law_title']} ({c['law_id'] or c.get('law_num')}, {c['status']})" for c in at) or "nothing"
    if row["law_title"] is None:
        return all(c["law_id"] is None and c["status"] != "resolved" for c in at), said
    if not at:
        return False, said
    first = at[0]
    if row["law_id"] is not None:
        return first["law_id"] == row["law_id"], said
    same_number = row.get("law_num") is not None and first.get("law_num") == row["law_num"]
    return first["law_id"] is None and (same_number or _title(first["law_title"]) == _title(row["law_title"])), said


def score(gold: Path, judgments: Path) -> dict[str, Any]:
    from lexgraph.citations import CitationContext, extract
    from lexgraph.citations.document import document_date

    rows = [json.loads(line) for line in gold.read_text(encoding="utf-8").splitlines() if line.strip()]
    by_doc: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_doc[row["doc"]].append(row)
    right, ambiguous, misses = 0, 0, []
    classes: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    context = CitationContext()
    for doc, doc_rows in sorted(by_doc.items()):
        text = (judgments / doc).read_text(encoding="utf-8")
        found = [c.to_dict() for c in extract(text, replace(context, as_of=document_date(text)))
                 if c.kind in ("statute", "law")]
        for row in doc_rows:
            ok, said = judge(row, found)
            classes[row["class"]][1] += 1
            if ok:
                right += 1
                classes[row["class"]][0] += 1
                ambiguous += "ambiguous" in said
            else:
                misses.append({"id": row["id"], "doc": doc, "surface": row["surface"], "gold": row["law_title"],
                               "found": said})
    return {"citations": len(rows), "right": right, "accuracy": round(right / len(rows), 4),
            "right_but_ambiguous": ambiguous, "by_class": {k: f"{v[0]}/{v[1]}" for k, v in sorted(classes.items())},
            "misses": misses}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--gold", type=Path, default=GOLD)
    parser.add_argument("--judgments", type=Path, default=JUDGMENTS)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--misses", type=int, default=30, help="how many misses to list")
    args = parser.parse_args(argv)
    if not args.judgments.is_dir():
        raise SystemExit(f"no judgments at {args.judgments}: give --judgments (../shared beside the checkout)")
    result = score(args.gold, args.judgments)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return 0
    print(f"{result['right']} / {result['citations']} = {result['accuracy']:.4f} "
          f"({result['right_but_ambiguous']} of the right ones ambiguous, the right law first); "
          f"by class {result['by_class']}")
    for miss in result["misses"][:args.misses]:
        print(f"  #{miss['id']} {miss['doc']} {miss['surface']!r}: gold {miss['gold']}, found {miss['found']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
