"""Build tests/data/citations/lawqa_relative_gold.jsonl from lawqa_jp and print the resolver's accuracy on it.

    python scripts/build_lawqa_citation_gold.py [--source PATH] [--out PATH]

The source is the Digital Agency's ``dev_with_resolved_references.json`` (PDL 1.0); see
lexgraph/eval/lawqa_gold.py for what the brackets mean and how lines are laid out.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from lexgraph.eval.lawqa_gold import evaluate, gold_lines
from lexgraph.statutes.catalog import Catalog

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SOURCE = ROOT.parent / "shared" / "data" / "lawqa_jp" / "dev_with_resolved_references.json"
DEFAULT_OUT = ROOT / "tests" / "data" / "citations" / "lawqa_relative_gold.jsonl"

SOURCE_HEADER = "# tests/data/citations\n"
SECTION_TITLE = "## lawqa_relative_gold.jsonl"
SECTION = f"""{SECTION_TITLE}

Gold citations for relative references inside statutes (前項, 次条, この号, 法第…, 令第…), made by
`scripts/build_lawqa_citation_gold.py` from `dev_with_resolved_references.json` of the lawqa_jp dataset, whose
bracketed annotations (「前項[第21条第1項]」) give the target of each reference.

出典：デジタル庁 日本の法令に関する多肢選択式QAデータセット
(https://github.com/digital-go-jp/lawqa_jp), 公共データ利用規約 第1.0版 (PDL 1.0),
https://www.digital.go.jp/resources/open_data/public_data_license_v1.0 — 加工して作成: brackets removed from the
text and turned into JSON entries; lexgraph added the clause context and provision paths.

Layout: one JSON object per line of each excerpt that has a bracket, in order:
`doc` (the sample's ファイル名), `sentence_start` / `sentence_end` (offsets of the line in the excerpt without
brackets), `sentence`, `annotated` (false for headings and lines without brackets, which are there only so that
a replay reads the excerpt in order), `context` (`in_law`, `in_law_id`, `at`: the clause the line belongs to,
from the `##` / `###` / `####` / `#####` headings) and `citations`. Each citation entry has the keys of
`lexgraph cite --json` plus `path` (provision path), `gold` (the bracket text) and, where the bracket cannot be a
statute clause, `disputed` with the reason. Offsets in entries are into `sentence`; `surface` is heuristic (the run
of reference words before the bracket; for a list or range, the whole of it).

A bracket inside a text that is no statute, naming one of that text's own sections (「本項[第4]」 in the notice
医薬品等適正広告基準の解説及び留意事項, which is not in e-Gov and has no clauses to address), is a real reference
but to no statute clause: its entry has `"status": "unresolved"`, `"expect": "unresolved"` and `why`, and it is
right when lexgraph resolves nothing there. (These were once `disputed` entries that expected a resolved
statute citation with no path, which no resolver could meet, and that would have asserted a statute clause in a
notice.)
"""


def write_source_note(path: Path) -> None:
    """Put this file's section into SOURCE.md, leaving the sections other gold files keep there untouched."""
    text = path.read_text(encoding="utf-8") if path.exists() else SOURCE_HEADER
    start = text.find(SECTION_TITLE)
    if start < 0:
        text = text.rstrip("\n") + "\n\n" + SECTION
    else:
        following = text.find("\n## ", start + len(SECTION_TITLE))
        text = text[:start] + SECTION + (text[following + 1:] if following >= 0 else "")
    path.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    if not args.source.exists():
        print(f"{args.source}: not found; pass --source PATH to dev_with_resolved_references.json", file=sys.stderr)
        return 1
    samples = json.loads(args.source.read_text(encoding="utf-8"))["samples"]
    catalog = Catalog.bundled()
    lines = list(gold_lines(samples, catalog))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as out:
        for line in lines:
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
    write_source_note(args.out.parent / "SOURCE.md")
    overall = evaluate(lines, catalog)
    clean = evaluate(lines, catalog, include_disputed=False)
    print(f"wrote {len(lines)} lines, {overall.total} bracketed references, to {args.out}")
    print(f"accuracy: {overall.correct}/{overall.total} = {overall.accuracy:.4f} "
          f"(undisputed: {clean.correct}/{clean.total} = {clean.accuracy:.4f})")
    for gold, found in overall.misses:
        got = "; ".join(f"{c['surface']} → {c['law_title']} {c['path']} ({c['status']})" for c in found) or "nothing"
        note = f" [disputed: {gold['disputed']}]" if gold.get("disputed") else ""
        print(f"  miss: {gold['surface']}[{gold['gold']}] in {gold['law_title']}: got {got}{note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
