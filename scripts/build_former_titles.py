"""Write lexgraph/data/former_titles.json: titles laws bore before they were renamed.

    python scripts/build_former_titles.py [--sync-cache DIR ...] [--archive-dir DIR] [--out PATH]

Two sources, each entry naming its own:

* ``--sync-cache DIR`` (a store's ``egov-cache``, written by ``lexgraph sync``): every whole ``/law_revisions`` list
  in it. Each revision carries the law's title of that revision, so a title that a later revision no longer bears
  is a former title, with the day of renaming (the later revision's enforcement date).
* ``--archive-dir DIR`` (the unpacked ``egov/lawhub-xml_2020-11-18_all.tar.xz`` of ../shared/data), read by script:
  - 「NAME（LAW NUMBER）」 written in two laws of the archive at least, where the number is a law of the bundled
    catalogue whose
    2020 title is not NAME (nor a name of any law today), and NAME begins as that title does (two characters at
    least: 国家公務員等共済組合法（昭和三十三年法律第百二十八号） for 国家公務員共済組合法): the name the law bore
    when the citing clause was written. The day of renaming is not in such a text: `renamed_on` is null;
  - 「NAME（LAW NUMBER）の一部を次のように改正する。題名を次のように改める。NEW」 in an amending act, NEW the law's
    2020 title: `renamed_on` is the act's 施行期日 when its 附則 names one day for the whole act (「この法律は、公布の
    日から施行する。」 with the promulgation day the amended law's 附則 heading gives, or a date), else null.

A name found both ways keeps the dated entry. Titles are never typed by hand: every entry comes from a file read
here. Statutes: 出典 e-Gov法令検索, no copyright (著作権法第13条).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lexgraph.dates import era_day  # noqa: E402
from lexgraph.numerals import kanji_to_int  # noqa: E402
from lexgraph.statutes.catalog import Catalog  # noqa: E402
from lexgraph.statutes.egov_api import ResponseCache, cached_revision_lists  # noqa: E402
from lexgraph.statutes.former_titles import DATA_FILE, FormerTitle, from_revision_list  # noqa: E402

OUT = ROOT / "lexgraph" / "data" / DATA_FILE
ABOUT = ("Former titles of renamed laws, read by lexgraph.statutes.former_titles: each entry a title the "
         "law (law_id) bore until renamed_on (the first day of new_title; null when the source does not fix the day), "
         "and its source. Written by scripts/build_former_titles.py; do not edit by hand "
         "(lexgraph/data/CATALOG_SOURCES.md).")
_TAG = re.compile(r"<[^>]+>")
_SPACE = re.compile(r"\s+")
_ERA = "明治|大正|昭和|平成|令和"
_KANJI = "〇一二三四五六七八九十百千"
_NUMBERED = re.compile(rf"（((?:{_ERA})[{_KANJI}元]+年(?:法律|政令|勅令)第[{_KANJI}]+号)[。、）]")
_BOUNDARY = re.compile(r"[|。（）「」]|改正前の|改正後の|による|に基づく|旧")  # | : where an XML element ended
_CLAUSE = re.compile(r"第[〇一二三四五六七八九十百千]+[条項号]")
_RETITLE = re.compile(rf"（((?:{_ERA})[{_KANJI}元]+年法律第[{_KANJI}]+号)）\|*の一部を次のように改正する。\|*"
                      r"題名を次のように改める。\|*")
_RETITLE_MARK = "題名を次のように改める。"
_IN_FORCE = re.compile(rf"附則(?:（施行期日）)?(?:第一条)?この法律は、(公布の日|(?:{_ERA})[〇一二三四五六七八九十元]+年"
                       r"[〇一二三四五六七八九十]+月[〇一二三四五六七八九十]+日)から施行する。")
_AMEND_NUM = re.compile(rf'AmendLawNum="((?:{_ERA})([〇一二三四五六七八九十元]+)年([〇一二三四五六七八九十]+)月'
                        r'([〇一二三四五六七八九十]+)日(法律第[〇一二三四五六七八九十百千]+号))"')
_DAY = re.compile(rf"({_ERA})([〇一二三四五六七八九十元]+)年([〇一二三四五六七八九十]+)月([〇一二三四五六七八九十]+)日")


def _era_date(era: str, year: str, month: str, day: str) -> date | None:
    parts = [kanji_to_int(year), kanji_to_int(month), kanji_to_int(day)]
    if None in parts:
        return None
    try:
        return era_day(era, *(p for p in parts if p is not None))
    except ValueError:
        return None


def from_sync_caches(folders: list[Path]) -> Iterator[FormerTitle]:
    for folder in folders:
        for listed in cached_revision_lists(ResponseCache(folder)):
            yield from from_revision_list(listed.law_id, listed.revisions)


def _text(raw: str) -> str:
    """The text of a law's XML without spaces, each element's end marked by 「|」 (so that a title cell and the
    sentence after it never run into one name)."""
    return re.sub(r"\|+", "|", _SPACE.sub("", _TAG.sub("|", raw)))


def _candidate(before: str, title: str) -> str | None:
    """The name written right before a law number: the run after the last boundary, taking in 「、」 only where the
    law's title has one there too (児童買春、児童ポルノに係る…), and only if it begins as the law's title does."""
    run = _BOUNDARY.split(before)[-1]
    options = [run[k + 1:] for k, c in enumerate(run) if c == "、"] or [run]
    if "、" in title:
        options.append(run)
    best = max(options, key=lambda name: (_common_prefix(name, title), -len(name)))
    if _common_prefix(best, title) < 2 or len(best) < 4 or not best.endswith(("法", "法律", "令")):
        return None
    if best.endswith(title) or title.endswith(best) or _CLAUSE.search(best) or len(best) > len(title) + 20 or \
            ("、" in best and "、" not in title):
        return None  # the title with words before it, its tail (cut at による, 、), or a sentence: not a name
    return best


def _common_prefix(a: str, b: str) -> int:
    k = 0
    while k < min(len(a), len(b)) and a[k] == b[k]:
        k += 1
    return k


def from_archive(archive: Path, catalog: Catalog) -> Iterator[FormerTitle]:
    files = sorted(archive.glob("*/*.xml"))
    texts = {path: path.read_text(encoding="utf-8") for path in files}
    promulgated: dict[tuple[str, int | None, int | None], date] = {}  # (era, year, law number) → promulgation day
    for raw in texts.values():
        for match in _AMEND_NUM.finditer(raw):
            era = match.group(1)[:2]
            day = _era_date(era, *match.group(2, 3, 4))
            if day is not None:
                promulgated.setdefault((era, kanji_to_int(match.group(2)), kanji_to_int(match.group(5)[3:-1])), day)
    numbered: dict[tuple[str, str], list[FormerTitle]] = {}
    for path, raw in texts.items():
        text = _text(raw)
        where = f"2020 archive: {path.relative_to(archive)}"
        for match in _NUMBERED.finditer(text):
            entry = catalog.by_law_num(match.group(1))
            if entry is None:
                continue
            name = _candidate(text[max(0, match.start() - 160):match.start()], entry.title)
            if name is None or name == entry.title or (catalog.lookup(name) and not catalog.former_titles(name)):
                continue
            numbered.setdefault((name, entry.law_id), []).append(FormerTitle(
                name, entry.law_id, entry.title, None, f"{where} (「{name}（{match.group(1)}）」)"))
        if _RETITLE_MARK not in text:
            continue
        for match in _RETITLE.finditer(text):
            entry = catalog.by_law_num(match.group(1))
            name = _BOUNDARY.split(text[max(0, match.start() - 160):match.start()])[-1].split("、")[-1]
            following = text[match.end():match.end() + 200].replace("|", "")
            if entry is None or name == entry.title or not following.startswith(entry.title):
                continue
            yield FormerTitle(name, entry.law_id, entry.title, _act_in_force(raw, text.replace("|", ""), promulgated),
                              f"{where} (「{name}（{match.group(1)}）の一部を次のように改正する。"
                              f"題名を次のように改める。{entry.title}」)")
    for found in numbered.values():  # a name written so in two laws at least: a misprint is written once
        if len({f.source.split(" (")[0] for f in found}) >= 2:
            yield found[0]


def _act_in_force(raw: str, text: str, promulgated: dict[tuple[str, int | None, int | None], date]
                  ) -> date | None:
    """The 施行期日 of the amending act in `text`, when its 附則 names one day for the whole act."""
    found = _IN_FORCE.search(text)
    if found is None:
        return None
    after = text[found.end():found.end() + 40]
    if after.startswith("ただし") and not after.startswith("ただし、附則"):
        return None  # the main provisions (where the title is changed) in force on more than one day
    if found.group(1) != "公布の日":
        day = _DAY.fullmatch(found.group(1))
        return _era_date(*day.groups()) if day else None
    law_num = re.search(r"<LawNum>([^<]+)</LawNum>", raw)
    if law_num is None:
        return None
    own = re.fullmatch(rf"({_ERA})([{_KANJI}元]+)年(法律第[{_KANJI}]+号)", law_num.group(1))
    if own is None:
        return None
    return promulgated.get((own.group(1), kanji_to_int(own.group(2)), kanji_to_int(own.group(3)[3:-1])))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--sync-cache", type=Path, action="append", default=[])
    parser.add_argument("--archive-dir", type=Path)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    catalog = Catalog.bundled()
    found: dict[tuple[str, str], FormerTitle] = {}
    counts = {"sync": 0, "archive, named with its number": 0, "archive, 題名を次のように改める": 0}
    entries = list(from_sync_caches(args.sync_cache))
    counts["sync"] = len(entries)
    if args.archive_dir is not None:
        from_corpus = list(from_archive(args.archive_dir, catalog))
        counts["archive, 題名を次のように改める"] = sum("題名を次のように改める" in f.source for f in from_corpus)
        counts["archive, named with its number"] = len(from_corpus) - counts["archive, 題名を次のように改める"]
        entries += from_corpus
    for entry in entries:  # a dated entry wins; else the first source found (sync first, then files in order)
        key = (entry.title, entry.law_id)
        if key not in found or (found[key].renamed_on is None and entry.renamed_on is not None):
            found[key] = entry
    rows = [f.to_json() for f in sorted(found.values(), key=lambda f: (f.law_id, f.title))]
    args.out.write_text(json.dumps({"about": ABOUT, "former_titles": rows}, ensure_ascii=False, indent=1) + "\n",
                        encoding="utf-8")
    dated = sum(1 for f in found.values() if f.renamed_on is not None)
    print(f"wrote {len(rows)} former titles of {len({f.law_id for f in found.values()})} laws to {args.out} "
          f"({dated} with the day of renaming); found: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
