"""Pick, seeded, real statute strings that point at something other than an article from the whole
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
- ``relative_division``: 前章 / この章 / 次章, 前節 / この節 / 次節, 前款 / この款 / 次款, 前編 / この編 / 次編 with
  nothing glued to them: a division of the law being read, relative to the one the citing clause sits in;
  ``expect.relative_division`` the words, ``expect.nodes`` the division read from the clause's heading (この章 its
  own chapter, 前章 the chapter before it under the same 編), none when there is none (the row's ``divisions`` and
  ``within`` as for ``division``). The class comes last, so that the rows of the classes above are unchanged.
- ``suppl_paragraph``: 附則第N項 in the main provisions of a law whose original 附則 has paragraphs and no
  articles: ``expect`` the path ``suppl/pN``.
- ``each_item``: 第N条第M項各号 / 第N条各号 written alone: ``expect`` the paragraph path as written (``a9/p1``; an
  article's only paragraph when none is written) and ``items``, every item of that paragraph in the law's order;
  the row's ``members`` are the article's paragraphs and items, the structure a store would hold.

What the graph links, read from the law's own structure by this script: a ``division`` row's
``expect.nodes`` are the division nodes it names, read from the division the citing clause sits in (``within``,
from its heading) outwards, every member of a range, or none when the law has no such division or several fit
(the row's ``divisions`` are the law's division paths); an ``appendix`` row's ``appendices`` are the law's appendix
paths, ``expect.path`` the one of that title.

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
    "each_item": re.compile(rf"{_BEFORE_FREE}第(?P<a>{_N})条(?P<ab>{_BRANCH})(?:第(?P<p>{_N})項)?各号(?!列記)"),
    # added after the others, so that the seeded picks of the classes above stay as they were
    "relative_division": re.compile(r"(?<![一-龥ァ-ヶ々〇」』])(?P<step>前|この|次)(?P<level>[編章節款目])"
                                    r"(?![第一-龥ァ-ヶ])"),
}
_QUICK: dict[str, tuple[bytes, ...]] = {
    "law_itself": ("この法律".encode(), "この政令".encode(), "この府令".encode(), "この省令".encode(),
                   "この規則".encode()),
    "division": ("章の規定".encode(), "節の規定".encode(), "章に".encode(), "節に".encode()),
    "appendix": ("別表".encode(), "様式第".encode()),
    "suppl_paragraph": ("附則第".encode(),),
    "each_item": ("項各号".encode(), "条各号".encode()),
    "relative_division": tuple(f"{step}{level}".encode() for step in ("前", "この", "次") for level in "編章節款"),
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


def _within(heading: str) -> str | None:
    """The division a clause sits in, from its heading: ``pt2/ch3/se1``."""
    path: list[str] = []
    keys = [k for _, k in _LEVELS]
    for title in heading.split(" > "):
        head = re.match(rf"第({_N})([編章節款目])({_BRANCH})", title)
        if head is None:
            continue
        key = dict(_LEVELS)[head.group(2)]
        path = [p for p in path if keys.index(p[:2]) < keys.index(key)]
        path.append(f"{key}{egov_num(head.group(1) + head.group(3))}")
    return "/".join(path) or None


def _number_key(segment: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", segment))


def division_nodes(path: str, last: str | None, within: str | None, divisions: list[str]) -> list[str]:
    """The division nodes a citation names: read from `within` outwards (a drafter's 第一節 is its chapter's), else
    the one division of the main provisions whose path ends with it; every sibling up to `last` for a range."""
    enclosing = within.split("/") if within else []
    first = None
    for depth in range(len(enclosing), -1, -1):
        candidate = "/".join([*enclosing[:depth], path])
        if candidate in divisions:
            first = candidate
            break
    if first is None:
        fits = [d for d in divisions if d.endswith("/" + path)]
        if len(fits) != 1:
            return []
        first = fits[0]
    if last is None:
        return [first]
    parent, _, own = first.rpartition("/")
    end = f"{parent}/{last.rpartition('/')[2]}" if parent else last.rpartition("/")[2]
    level = own.rstrip("0123456789_")
    siblings = sorted((d for d in divisions if d.rpartition("/")[0] == parent
                       and d.rpartition("/")[2].rstrip("0123456789_") == level),
                      key=lambda d: _number_key(d.rpartition("/")[2]))
    if first not in siblings or end not in siblings:
        return []
    return siblings[siblings.index(first): siblings.index(end) + 1]


def relative_nodes(step: str, level: str, within: str | None, divisions: list[str]) -> list[str]:
    """前章 / この節 / 次款: the division of that level the clause sits in (from its heading), or the one before or
    after it under the same upper levels, in number order; none when the clause sits in no division of that level
    or there is no such neighbour."""
    key = dict(_LEVELS)[level]
    parts = (within or "").split("/")
    at = [i for i, part in enumerate(parts) if part.startswith(key)]
    if not at:
        return []
    own = "/".join(parts[: at[0] + 1])
    if step == "この":
        return [own] if own in divisions else []
    parent = own.rpartition("/")[0]
    siblings = sorted((d for d in divisions if d.rpartition("/")[0] == parent
                       and d.rpartition("/")[2].rstrip("0123456789_") == key),
                      key=lambda d: _number_key(d.rpartition("/")[2]))
    if own not in siblings:
        return []
    index = siblings.index(own) + (-1 if step == "前" else 1)
    return [siblings[index]] if 0 <= index < len(siblings) else []


def expected(name: str, match: re.Match[str], law: object, law_id: str,
             structure: dict[str, object], heading: str = "") -> dict[str, object] | None:
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
        divisions: list[str] = structure["division_paths"]  # type: ignore[assignment]
        out["nodes"] = division_nodes(path, out.get("division_to"), _within(heading),  # type: ignore[arg-type]
                                      divisions)
        return out
    if name == "relative_division":
        divisions = structure["division_paths"]  # type: ignore[assignment]
        return {"kind": "division", "law_id": law_id, "relative_division": match.group(),
                "nodes": relative_nodes(match["step"], match["level"], _within(heading), divisions)}
    if name == "appendix":
        written = match.group()
        titles: dict[str, str] = structure["appendices"]  # type: ignore[assignment]
        path = titles.get(written)
        if path is None:
            return None
        return {"kind": "appendix", "law_id": law_id, "appendix": written, "path": path}
    if name == "each_item":
        article = f"a{egov_num(match['a'] + match['ab'])}"
        members: dict[str, list[str]] = structure["members"]  # type: ignore[assignment]
        paragraphs = [m for m in members.get(article, []) if m.count("/") == 1]
        if match["p"]:
            paragraph = f"{article}/p{egov_num(match['p'])}"
        elif len(paragraphs) == 1:
            paragraph = paragraphs[0]
        else:
            return None
        items = sorted((m for m in members.get(article, []) if m.rpartition("/")[0] == paragraph
                        and m.rpartition("/")[2].startswith("i")), key=lambda m: _number_key(m.rpartition("/")[2]))
        if not items:
            return None
        written = paragraph if match["p"] else article
        return {"kind": "statute", "law_id": law_id, "path": written, "items": items}
    if name == "suppl_paragraph":
        if not structure["suppl_paragraphs_only"]:
            return None
        return {"kind": "statute", "law_id": law_id, "path": f"suppl/p{egov_num(match['p'])}"}
    return None


def structure_of(law: object) -> dict[str, object]:
    """What the parsed law says about its divisions, its appendices (title → path) and its original 附則."""
    divisions: set[str] = set()
    appendices: dict[str, str] = {}
    division_paths: list[str] = []
    members: dict[str, list[str]] = defaultdict(list)
    suppl_articles = suppl_paragraphs = False
    for provision in law.provisions:  # type: ignore[attr-defined]
        if provision.kind == "division" and not provision.path.startswith("suppl"):
            division_paths.append(provision.path)
        if provision.kind in ("paragraph", "item") and provision.path.startswith("a"):
            members[provision.path.split("/")[0]].append(provision.path)
        if provision.kind == "article" and not provision.path.startswith("suppl"):
            divisions |= _heading_divisions(provision.heading)
        if provision.kind.startswith("appdx") and provision.title:
            title = re.sub(r"[（(].*$", "", provision.title).strip()
            appendices.setdefault(title, provision.path)
        if provision.path.startswith("suppl/"):
            rest = provision.path[len("suppl/"):]
            suppl_articles |= rest.startswith("a")
            suppl_paragraphs |= rest.startswith("p")
    return {"divisions": divisions, "appendices": appendices, "division_paths": division_paths, "members": members,
            "appendix_paths": sorted(set(appendices.values())),
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
            found.append((provision.path, sentence, start, match, provision.heading))
    rng.shuffle(found)
    for clause, sentence, start, match, heading in found:
        expect = expected(name, match, law, entry.law_id, structure, heading)
        if expect is None:
            continue
        row: dict[str, object] = {"class": name, "law_id": entry.law_id, "law_title": entry.title, "at": clause,
                                  "text": sentence, "surface": match.group(), "start": start, "expect": expect}
        # the structure a store holding the law would give the linker, for the test to link against
        if name in ("division", "relative_division"):
            row["within"] = _within(heading)
            row["divisions"] = structure["division_paths"]
        elif name == "appendix":
            row["appendices"] = structure["appendix_paths"]
        elif name == "each_item":
            row["members"] = structure["members"][str(expect["path"]).split("/")[0]]  # type: ignore[index]
        return row
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
