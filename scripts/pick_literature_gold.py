"""Pick the passages of the literature gold: precedents as books, commentaries and briefs cite them.

Why a script: the gold must be picked blind and reproducibly (seed below), never by what lexgraph's extractor
finds. The material at hand holds few literature-style citations (``../shared/data``: Supreme Court judgments, the
tax_demo documents, none of them a book or a brief), so the gold has three parts, each line saying which
(`origin`), and `tests/data/literature/README.md` says what each is worth:

* ``judgment``: real sentences of the Supreme Court judgments of ``../shared/data/precedents/supreme_court`` that
  cite a decision the way the literature does: an abbreviated court with the date (最判昭和…, 大判, 東京地判,
  岡山地津山支判), a reporter of the literature (集民 / 裁判集民事, 判時, 判タ, 金判, 労判, 裁判所ウェブサイト) or a
  reporter in parentheses after the decision. Sentences already in dev_gold or heldout_gold are left out. Every
  match is kept up to ``--judgment-sentences``, then a seeded sample.
* ``caption``: lexgraph's own caption of a decision (「最大判 昭和44.12.24（京都府学連事件）」,
  `lexgraph.store.names.precedent_name`), which it writes as every Precedent node's ``name`` and which a user
  pastes back, made from the real records of ``../shared/data/precedents/landmarks.csv`` (court, date, type, name).
* ``derived``: literature forms (最判平23・12・16民集65巻9号3472頁, 最二小判平成23・12・16（…）, 最判平23.12.16,
  大判大正5年12月22日民録…, 東京高決…) **written by this script** from the hand-checked precedent entries of
  dev_gold and heldout_gold (real decisions, real reporters), one seeded form each, by the abbreviation rules
  of 「法律文献等の出典の表示方法」. They are not text anyone wrote; they test the grammar on forms the corpus
  lacks, and are scored apart.

Annotation is by hand afterwards (``judgment`` lines); ``caption`` and ``derived`` lines get their answer from the
record they are made from, here.

    python scripts/pick_literature_gold.py --out /tmp/literature_candidates.jsonl
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import re
from datetime import date
from pathlib import Path
from typing import Any

from lexgraph.citations.dates import EraDate
from lexgraph.store.names import precedent_name

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
JUDGMENTS = SHARED / "precedents" / "supreme_court"
LANDMARKS = SHARED / "precedents" / "landmarks.csv"
GOLDS = [ROOT / "tests" / "data" / "citations" / f"{name}.jsonl" for name in ("dev_gold", "heldout_gold")]
SEED = 20261127

_HIGH = "札幌|仙台|東京|名古屋|大阪|広島|高松|福岡"
# Broad patterns over the text with whitespace removed: never lexgraph's extractor.
PATTERNS = {
    "abbreviated court": re.compile(
        rf"(?:最(?:大|[一二三１２３123]小?)?[判決]|大連?[判決]|知財高[判決]|(?:{_HIGH})高(?:[一-龥]{{1,4}}支)?[判決]"
        r"|[一-龥]{1,4}[地家](?:[一-龥]{1,4}支)?[判決])(?:昭和|平成|令和|大正|明治|昭|平|令|大|明)"
    ),
    "literature reporter": re.compile(
        r"集民|判時|判例時報|判タ|判例タイムズ|金判|金融・商事判例|労判|労働判例|裁判所ウェブサイト"),
    "reporter in parentheses": re.compile(
        r"(?:判決|決定)[（(](?:民集|刑集|民録|刑録|集民|集刑|裁判集|判時|高民集|下民集|行集|集)"),
}
_SENTENCE_END = re.compile(r"。(?![」）)])")


def gold_sentences() -> set[tuple[str, int]]:
    seen: set[tuple[str, int]] = set()
    for path in GOLDS:
        for raw in path.read_text(encoding="utf-8").splitlines():
            line = json.loads(raw)
            seen.add((line["doc"], int(line["sentence_start"])))
    return seen


def judgment_lines(limit: int, rng: random.Random) -> list[dict[str, Any]]:
    """Sentences as the judgment golds cut them: after 「。」 unless a bracket closes; surrounding space left out."""
    taken = gold_sentences()
    found: list[dict[str, Any]] = []
    for path in sorted(JUDGMENTS.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        start = 0
        for m in _SENTENCE_END.finditer(text):
            raw_start, start = start, m.end()
            sentence = text[raw_start:start]
            lead = len(sentence) - len(sentence.lstrip())
            s0, s1 = raw_start + lead, start
            compact = re.sub(r"\s", "", sentence)
            why = [name for name, pattern in PATTERNS.items() if pattern.search(compact)]
            if why and (path.name, s0) not in taken:
                found.append({"origin": "judgment", "doc": path.name, "sentence_start": s0, "sentence_end": s1,
                              "sentence": text[s0:s1], "picked_for": why, "citations": []})
    if len(found) > limit:
        found = sorted(rng.sample(found, limit), key=lambda x: (x["doc"], x["sentence_start"]))
    return found


def caption_lines(limit: int, rng: random.Random) -> list[dict[str, Any]]:
    rows = [r for r in csv.DictReader(LANDMARKS.open(encoding="utf-8")) if r["date"].strip()]  # some lack one
    lines = []
    for row in sorted(rng.sample(rows, min(limit, len(rows))), key=lambda r: r["id"]):
        day = _era_to_iso(row["date"].strip())
        record = {"court": row["court"].strip(), "date": date.fromisoformat(day),
                  "decision_type": row["type"].strip(),
                  "case_name": row["name"].strip(), "uid": f"hanrei:{row['id']}"}
        sentence = precedent_name(record)
        surface = sentence.split("（", 1)[0]
        lines.append({"origin": "caption", "doc": f"landmarks.csv:{row['id']}", "sentence": sentence,
                      "citations": [_entry(0, surface, record["court"], day, record["decision_type"], None)]})
    return lines


def _era_to_iso(text: str) -> str:
    from lexgraph.citations.dates import parse_era_date

    era = parse_era_date(text)
    if era is None or era.to_date() is None:
        raise SystemExit(f"landmarks.csv: cannot read the date {text!r}")
    return str(era.to_date())


_ABBR = {"最高裁判所大法廷": "最大", "最高裁判所第一小法廷": "最一小", "最高裁判所第二小法廷": "最二小",
         "最高裁判所第三小法廷": "最三小", "最高裁判所": "最", "大審院": "大", "大審院民事連合部": "大連",
         "大審院刑事連合部": "大連"}
_ERA_SHORT = {"明治": "明", "大正": "大", "昭和": "昭", "平成": "平", "令和": "令"}
_WIDE = str.maketrans("0123456789", "０１２３４５６７８９")


def _court_abbr(court: str) -> str | None:
    if court in _ABBR:
        return _ABBR[court]
    m = re.fullmatch(r"(.+?)(高等|地方|家庭)裁判所(?:(.+)支部)?", court)
    if not m:
        return None
    kind = {"高等": "高", "地方": "地", "家庭": "家"}[m[2]]
    return f"{m[1]}{kind}{m[3] + '支' if m[3] else ''}"


def derived_line(entry: dict[str, Any], rng: random.Random, source: str) -> dict[str, Any] | None:
    """One literature form of a real citation: the court abbreviated, the date in one of the books' styles."""
    court, day, kind, reporter = entry["court"], entry["date"], entry["decision_type"], entry.get("reporter")
    abbr = _court_abbr(court or "")
    if abbr is None or day is None or kind not in ("判決", "決定"):
        return None
    drop_bench = abbr.startswith("最") and abbr not in ("最", "最大") and rng.random() < 0.5
    if drop_bench:
        abbr, court = "最", "最高裁判所"
    era = EraDate.from_date(date.fromisoformat(day))
    assert era is not None
    y = "元" if era.year == 1 else str(era.year)
    d = date.fromisoformat(day)
    style = rng.choice(["dot", "nakaguro", "nakaguro_full_era", "kanji_date", "short_kanji"])
    if style == "dot":
        when = f"{_ERA_SHORT[era.era]}{y}.{d.month}.{d.day}"
    elif style == "nakaguro":
        when = f"{_ERA_SHORT[era.era]}{y}・{d.month}・{d.day}"
    elif style == "nakaguro_full_era":
        when = f"{era.era}{y}・{d.month}・{d.day}"
    elif style == "short_kanji":
        when = f"{_ERA_SHORT[era.era]}{y}年{d.month}月{d.day}日"
    else:
        when = f"{era.era}{y}年{d.month}月{d.day}日"
    head = f"{abbr}{kind[0]}{rng.choice(['', ' '])}{when}" if style == "dot" else f"{abbr}{kind[0]}{when}"
    rep = rng.choice(["none", "after", "paren", "comma"]) if reporter else "none"
    if rep == "after":
        text = f"{head}{reporter}"
    elif rep == "paren":
        text = f"{head}（{reporter}）"
    elif rep == "comma":
        text = f"{head}、{reporter}" if style != "kanji_date" else f"{head}・{reporter}"
    else:
        text = head
    if rng.random() < 0.3:
        text = text.translate(_WIDE)
    return {"origin": "derived", "doc": source, "style": f"{style}/{rep}", "sentence": text,
            "citations": [_entry(0, text, court, day, kind, reporter if rep != "none" else None)]}


def _entry(start: int, surface: str, court: str, day: str, kind: str, reporter: str | None) -> dict[str, Any]:
    return {"start": start, "end": start + len(surface), "surface": surface, "kind": "precedent", "court": court,
            "date": day, "decision_type": kind, "case_number": None, "reporter": reporter}


def derived_lines(limit: int, rng: random.Random) -> list[dict[str, Any]]:
    entries = []
    for path in GOLDS:
        for raw in path.read_text(encoding="utf-8").splitlines():
            line = json.loads(raw)
            where = f"{path.stem}:{line['doc']}:{line['sentence_start']}"
            entries += [(f"{where}+{c['start']}", c) for c in line["citations"]
                        if c["kind"] == "precedent" and c.get("date") and c.get("court")]
    seen: set[tuple[str, str]] = set()
    unique = []
    for source, c in entries:
        if (c["court"], c["date"]) not in seen:
            seen.add((c["court"], c["date"]))
            unique.append((source, c))
    out = []
    for source, c in rng.sample(unique, len(unique)):
        made = derived_line(c, rng, source)
        if made is not None:
            out.append(made)
        if len(out) == limit:
            break
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--judgment-sentences", type=int, default=60)
    parser.add_argument("--captions", type=int, default=40)
    parser.add_argument("--derived", type=int, default=90)
    args = parser.parse_args()
    rng = random.Random(SEED)
    lines = judgment_lines(args.judgment_sentences, rng)
    lines += caption_lines(args.captions, rng)
    lines += derived_lines(args.derived, rng)
    with args.out.open("w", encoding="utf-8") as out:
        for line in lines:
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
    print(f"{len(lines)} lines → {args.out}")


if __name__ == "__main__":
    main()
