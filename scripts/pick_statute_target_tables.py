"""Pick, seeded, real statute strings that point at something other than an article (issue 31 §3) from the whole
2020 e-Gov archive, with the answer read from the string and the citing law's own structure, never from
lexgraph's extractor, and write them as a test table.

    python scripts/pick_statute_target_tables.py --archive-dir DIR [--seed 31] [--per-class 30]

DIR is the unpacked ``egov/lawhub-xml_2020-11-18_all.tar.xz`` of ../shared/data. Classes (one JSON line per string,
``tests/data/citations/statute_target_tables.jsonl``), each in the main provisions of the law that writes it:

- ``law_itself``: この法律 / この政令 / この府令 / この省令 / この規則 not followed by a clause (この法律の施行の日):
  the law being read; ``expect`` its law id.
- ``division``: 第三章, 第二章第三節, 第三章から第四章の二まで, written alone (no law name before it, no clause after
  it): a part of the law being read; ``expect`` the division path (``ch3/se2``: pt 編, ch 章, se 節, ss 款, dv 目,
  e-Gov Nums) and ``exists``, whether the law has a heading of that name (read from the articles' headings).
- ``appendix``: 別表第一, 別表第二の二, 別表 (alone), 様式第一号, 別記様式第二号: ``expect`` the e-Gov path of the
  appendix the law holds under that title (``appdx_table1``, ``appdx_style2``); strings whose title the law does not
  hold are left out.
- ``suppl_paragraph``: 附則第N項 in the main provisions of a law whose original 附則 has paragraphs and no
  articles: ``expect`` the path ``suppl/pN``.

Each line: ``class``, ``law_id``, ``law_title``, ``at`` (the clause path the sentence is in), ``text`` (the
sentence), ``surface`` and ``start``, and ``expect``. Statutes: 出典 e-Gov法令検索, no copyright (著作権法第13条).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from pick_statute_reference_tables import sentence_at  # noqa: E402

from lexgraph.ingest.corpus import CITING_KINDS, clause_text  # noqa: E402
from lexgraph.numerals import egov_num  # noqa: E402
from lexgraph.statutes.catalog import Catalog  # noqa: E402
from lexgraph.statutes.egov import parse_law_xml  # noqa: E402

_N = "[〇一二三四五六七八九十百千]+"
_NUM = rf"{_N}(?:の{_N})*"
_LEVELS = (("編", "pt"), ("章", "ch"), ("節", "se"), ("款", "ss"), ("目", "dv"))
_BRANCH = rf"(?:の{_N})*"  # 第二章の二: the branch is written after the level's word
_DIVISION = "".join(rf"(?:第(?P<{key}>{_N}){word}(?P<{key}_b>{_BRANCH}))?" for word, key in _LEVELS)
_BEFORE_FREE = r"(?<![一-龥ぁ-んァ-ヶ々〇」）])"  # written alone: no law name (民法第三編), no 同 / 前 / 附則 before it
CLASSES: dict[str, re.Pattern[str]] = {
    "law_itself": re.compile(r"この(?:法律|政令|府令|省令|規則)(?![第一-龥])"),
    "division": re.compile(rf"{_BEFORE_FREE}(?P<first>{_DIVISION})(?:から(?P<last>第{_N}[編章節款目]{_BRANCH})まで"
                           rf"|(?![第一-龥])(?!の{_N}))"),
    "appendix": re.compile(rf"{_BEFORE_FREE}(?P<word>別表|別記様式|様式)(?:第(?P<n>{_NUM})号?)?(?![一-龥ァ-ヶ])"),
    "suppl_paragraph": re.compile(rf"{_BEFORE_FREE}附則第(?P<p>{_N})項(?!第)"),
}
_QUICK: dict[str, tuple[bytes, ...]] = {
    "law_itself": ("この法律".encode(), "この政令".encode(), "この府令".encode(), "この省令".encode(),
                   "この規則".encode()),
    "division": ("章の規定".encode(), "節の規定".encode(), "章に".encode(), "節に".encode()),
    "appendix": ("別表".encode(), "様式第".encode()),
    "suppl_paragraph": ("附則第".encode(),),
}
_APPENDIX_KINDS = {"別表": "appdx_table", "別記様式": "appdx_style", "様式": "appdx_style"}


def division_path(match: re.Match[str]) -> str | None:
    """第二章第三節 → ``ch2/se3``; None when no level was written."""
    parts = [f"{key}{egov_num(match[key] + match[key + '_b'])}" for _, key in _LEVELS if match[key]]
    return "/".join(parts) or None


def _heading_divisions(heading: str) -> set[str]:
    """The division paths an article's heading ("第二章　総則 > 第一節　通則") places it in: ch2, ch2/se1."""
    out: set[str] = set()
    path: list[str] = []
    for title in heading.split(" > "):
        head = re.match(rf"第({_N})([編章節款目])({_BRANCH})", title)
        if head is None:
            continue
        key = dict(_LEVELS)[head.group(2)]
        path = [p for p in path if [k for _, k in _LEVELS].index(p[:2]) < [k for _, k in _LEVELS].index(key)]
        path.append(f"{key}{egov_num(head.group(1) + head.group(3))}")
        out.add("/".join(path))
        out.add(path[-1])  # a chapter written alone is also found as its last level
    return out


def expected(name: str, match: re.Match[str], law: object, law_id: str,
             structure: dict[str, object]) -> dict[str, object] | None:
    if name == "law_itself":
        return {"kind": "law", "law_id": law_id}
    if name == "division":
        path = division_path(match)
        if path is None:
            return None
        out: dict[str, object] = {"kind": "division", "law_id": law_id, "division": path}
        if match["last"]:
            last = re.match(rf"第({_N})([編章節款目])({_BRANCH})", match["last"])
            assert last is not None
            end = f"{dict(_LEVELS)[last.group(2)]}{egov_num(last.group(1) + last.group(3))}"
            # 第三章第一節から第三節まで: the end keeps the levels above its own (ch3/se3)
            above = [p for p in path.split("/") if [k for _, k in _LEVELS].index(p[:2])
                     < [k for _, k in _LEVELS].index(end[:2])]
            out["division_to"] = "/".join([*above, end])
        out["exists"] = path in structure["divisions"]  # type: ignore[operator]
        return out
    if name == "appendix":
        written = match.group()
        titles: dict[str, str] = structure["appendices"]  # type: ignore[assignment]
        path = titles.get(written)
        if path is None:
            return None
        return {"kind": "appendix", "law_id": law_id, "appendix": written, "path": path}
    if name == "suppl_paragraph":
        if not structure["suppl_paragraphs_only"]:
            return None
        return {"kind": "statute", "law_id": law_id, "path": f"suppl/p{egov_num(match['p'])}"}
    return None


def structure_of(law: object) -> dict[str, object]:
    """What the parsed law says about its divisions, its appendices (title → path) and its original 附則."""
    divisions: set[str] = set()
    appendices: dict[str, str] = {}
    suppl_articles = suppl_paragraphs = False
    for provision in law.provisions:  # type: ignore[attr-defined]
        if provision.kind == "article" and not provision.path.startswith("suppl"):
            divisions |= _heading_divisions(provision.heading)
        if provision.kind.startswith("appdx") and provision.title:
            title = re.sub(r"[（(].*$", "", provision.title).strip()
            appendices.setdefault(title, provision.path)
        if provision.path.startswith("suppl/"):
            rest = provision.path[len("suppl/"):]
            suppl_articles |= rest.startswith("a")
            suppl_paragraphs |= rest.startswith("p")
    return {"divisions": divisions, "appendices": appendices,
            "suppl_paragraphs_only": suppl_paragraphs and not suppl_articles}


def pick(name: str, pattern: re.Pattern[str], path: Path, catalog: Catalog,
         rng: random.Random) -> dict[str, object] | None:
    law = parse_law_xml(path.read_bytes(), str(path))
    entry = catalog.by_law_num(law.meta.law_num)
    if entry is None:
        return None
    structure = structure_of(law)
    found = []
    for provision in law.provisions:
        if provision.path.startswith(("suppl", "appdx", "preamble")) or provision.kind not in CITING_KINDS:
            continue
        text = clause_text((s.role, s.text) for s in provision.sentences)
        for match in pattern.finditer(text):
            if not match.group():
                continue
            sentence, start = sentence_at(text, match.start(), match.end())
            found.append((provision.path, sentence, start, match))
    rng.shuffle(found)
    for clause, sentence, start, match in found:
        expect = expected(name, match, law, entry.law_id, structure)
        if expect is None:
            continue
        return {"class": name, "law_id": entry.law_id, "law_title": entry.title, "at": clause, "text": sentence,
                "surface": match.group(), "start": start, "expect": expect}
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--archive-dir", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--per-class", type=int, default=30)
    parser.add_argument("--out", type=Path, default=ROOT / "tests" / "data" / "citations"
                        / "statute_target_tables.jsonl")
    args = parser.parse_args(argv)
    catalog = Catalog.bundled()
    candidates: dict[str, list[Path]] = defaultdict(list)
    for path in sorted(args.archive_dir.rglob("*.xml")):
        raw = path.read_bytes()
        for name, needles in _QUICK.items():
            if any(needle in raw for needle in needles):
                candidates[name].append(path)
    rng = random.Random(args.seed)
    rows: list[dict[str, object]] = []
    for name, pattern in CLASSES.items():
        pool = candidates[name]
        rng.shuffle(pool)
        taken = 0
        for path in pool:
            if taken >= args.per_class:
                break
            row = pick(name, pattern, path, catalog, rng)
            if row is not None:
                rows.append(row)
                taken += 1
        print(f"{name}: {taken} rows from {len(pool)} candidate files", file=sys.stderr)
    args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    print(f"{len(rows)} rows → {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
