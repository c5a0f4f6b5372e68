"""Build the bundled law catalogue lexgraph/data/catalog.json.gz and its note CATALOG_SOURCES.md.

    .venv/bin/python scripts/build_catalog.py [--data-dir ../shared/data] [--out-dir lexgraph/data]

Inputs, under --data-dir:
- egov/law_list_2020-05-18.csv: the e-Gov law list (id, number, title, type); the primary source.
- aliases/jp_law_aliases.json, aliases/jp_abbrev_kit.json: 略称 → official title (jlawcite,
  Apache-2.0).
- egov/lawhub-xml_2020-11-18_all.tar.xz (optional): only its index.tsv and
  SKIPPED_absent_in_snapshot.txt are read, to give a title and number to the 8 list rows whose XML
  was too large for the mirror (所得税法, 租税特別措置法, …), and to number the laws below.
- the same archive's ordinances (unless --no-archive; --archive-dir reads an unpacked copy faster): what
  each says its bare 法 and 令 mean, from its definitions (「以下「法」という」) and its enacting formula
  (EnactStatement), stored as the catalogue's ``parents`` and ``orders`` (scripts/ordinance_basis.py).
- lawqa_jp/law_list.json (optional): e-Gov ids of the laws the QA set cites. Those missing from the
  list (金融商品取引法, also too large for the mirror) are added when the archive index gives their
  number and that number agrees with the id.

The output is deterministic: the same inputs give the same bytes.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import lzma
import re
import sys
import tarfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ordinance_basis import basis_of, iter_ordinances  # noqa: E402

from lexgraph.statutes.catalog import (  # noqa: E402
    PROVISIONAL_ID,
    Catalog,
    LawEntry,
    bare_titles,
    derived_law_id,
    encode_catalog,
    era_year_of,
    kanji_number,
    normalize_law_num,
)

LAW_LIST = "egov/law_list_2020-05-18.csv"
ALIAS_FILES = ("aliases/jp_law_aliases.json", "aliases/jp_abbrev_kit.json")
ARCHIVE = "egov/lawhub-xml_2020-11-18_all.tar.xz"
LAWQA_LIST = "lawqa_jp/law_list.json"
# Names courts use constantly that the 略称 dictionaries lack ("憲法14条1項" is how judgments cite it), and
# former titles that judgments still cite a renamed law by (薬事法, renamed by 平成25年法律第84号).
CURATED_ALIASES = {
    "憲法": "日本国憲法",
    "国公法": "国家公務員法",
    "地公法": "地方公務員法",
    "公選法": "公職選挙法",
    "宅建業法": "宅地建物取引業法",
    "被爆者援護法": "原子爆弾被爆者に対する援護に関する法律",
    "国民審査法": "最高裁判所裁判官国民審査法",
    "行政機関個人情報保護法": "行政機関の保有する個人情報の保護に関する法律",
    "薬事法": "医薬品、医療機器等の品質、有効性及び安全性の確保等に関する法律",
    "薬事法施行令": "医薬品、医療機器等の品質、有効性及び安全性の確保等に関する法律施行令",
    "薬事法施行規則": "医薬品、医療機器等の品質、有効性及び安全性の確保等に関する法律施行規則",
}
_SPACE = re.compile(r"\s+")
_RUBY_READING = re.compile(r"<Rt>.*?</Rt>")
_TAG = re.compile(r"</?[A-Za-z][^>]*>")

Index = dict[str, dict[str, str]]  # normalised law number → row of the archive's index.tsv


@dataclass
class Report:
    """What the build did with every row it could not take as it stood, for CATALOG_SOURCES.md."""

    rows: int = 0
    filled: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    shared_numbers: list[str] = field(default_factory=list)
    supplemented: list[str] = field(default_factory=list)
    aliases_used: int = 0
    aliases_unresolved: list[str] = field(default_factory=list)
    aliases_shadowed: list[str] = field(default_factory=list)
    missing: dict[str, int] = field(default_factory=dict)
    missing_examples: list[str] = field(default_factory=list)
    ruby: int = 0
    basis: dict[str, int] = field(default_factory=dict)
    basis_conflicts: list[str] = field(default_factory=list)


def read_archive_index(path: Path) -> tuple[Index, list[str]]:
    """index.tsv and the list of law numbers whose XML the mirror lacks, streamed out of the archive
    without unpacking the 886 MB of XML."""
    index: Index = {}
    skipped: list[str] = []
    wanted = {"index.tsv", "SKIPPED_absent_in_snapshot.txt"}
    with lzma.open(path) as raw, tarfile.open(fileobj=raw, mode="r|") as tar:
        for member in tar:
            name = member.name.rsplit("/", 1)[-1]
            handle = tar.extractfile(member) if name in wanted else None
            if handle is None:
                continue
            text = handle.read().decode("utf-8")
            if name == "index.tsv":
                for row in csv.DictReader(io.StringIO(text), delimiter="\t"):
                    index[normalize_law_num(row["LawNum"])] = row
            else:
                skipped = [line.rsplit("/", 1)[-1].removesuffix(".xml") for line in text.splitlines()]
            wanted.discard(name)
            if not wanted:
                break
    return index, [name for name in skipped if name]


def number_pattern(law_id: str) -> re.Pattern[str] | None:
    """The law numbers a law id can stand for: its era and year, its kind (法律, 政令, 省令,
    人事院規則) and its number. The id spells a 省令's ministry in a code we have no table for, so any
    ministry matches."""
    era_year = era_year_of(law_id)
    if era_year is None:
        return None
    kind = law_id[3:5]
    if kind in ("AC", "CO"):
        number = kanji_number(int(law_id[-6:]))
        return re.compile(re.escape(era_year) + ("法律" if kind == "AC" else "政令") + f"第{number}号$")
    if kind.startswith("M"):
        return re.compile(re.escape(era_year) + f".+省令第{kanji_number(int(law_id[-3:]))}号$")
    if law_id[3:7] == "RJNJ":
        rule = normalize_law_num(f"人事院規則{int(law_id[7:9])}-{int(law_id[9:12])}")
        return re.compile(re.escape(era_year + rule) + "$")
    return None


def read_law_list(path: Path, index: Index, skipped: list[str],
                  report: Report) -> list[tuple[LawEntry, str]]:
    """(entry, enforcement date) for every usable row. A row without number and title (its XML was
    absent from the mirror) is completed from the archive index when exactly one absent law number
    fits its id."""
    out: list[tuple[LawEntry, str]] = []
    with path.open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            report.rows += 1
            law_id, law_num = row["law_id"].strip(), row["law_num"].strip()
            title, law_type = plain_title(row["law_title"], report), row["law_type"].strip()
            if not law_num:
                pattern = number_pattern(law_id)
                fits = [n for n in skipped if pattern and pattern.match(normalize_law_num(n))]
                found = index.get(normalize_law_num(fits[0])) if len(fits) == 1 else None
                if found is None:
                    report.dropped.append(f"{law_id} (empty row; no single fitting number in the archive)")
                    continue
                law_num, law_type = found["LawNum"], found["LawType"]
                title = _SPACE.sub("", found["LawTitle"])
                report.filled.append(f"{law_id} {law_num} {title}")
            out.append((LawEntry(law_id, title, law_num, law_type), row["enforcement_date"]))
    return out


def plain_title(title: str, report: Report) -> str:
    """The title as text. The list keeps e-Gov's ruby markup (…<Ruby>拿<Rt>だ</Rt></Ruby>捕…), which no
    citing text contains, so the reading is dropped and the base characters kept (…拿捕…)."""
    title = title.strip()
    if "<" not in title:
        return title
    report.ruby += 1
    return _TAG.sub("", _RUBY_READING.sub("", title))


def _bill_origin(law_id: str) -> str:
    """The digit after AC in an Act's id: 0 for a cabinet bill, 1 for a members' bill."""
    return law_id[5:6] if law_id[3:5] == "AC" else "0"


def split_duplicates(rows: list[tuple[LawEntry, str]], report: Report) -> dict[str, str]:
    """Duplicate id → the id that stands for the law.

    e-Gov lists 11 laws twice under one number and one title, with ids that differ only in the
    bill-origin digit (430AC0000000074 / 430AC1000000074). A law number names one law, so one id
    stands for it: the one with digit 1 (all 11 are members' bills, and the 357 other members' bills of
    the list carry only that id, so the 0 twin is the anomaly), then the later enforcement date, then
    the higher id. Rows that share a number but not a title (three 内閣総理大臣決定 of one day) are
    distinct laws and are all kept."""
    by_num: dict[str, list[tuple[LawEntry, str]]] = defaultdict(list)
    for entry, enforced in rows:
        by_num[normalize_law_num(entry.law_num)].append((entry, enforced))
    duplicates: dict[str, str] = {}
    for group in by_num.values():
        if len(group) < 2:
            continue
        if len({_SPACE.sub("", entry.title) for entry, _ in group}) > 1:
            laws = ", ".join(f"{entry.law_id} {entry.title}" for entry, _ in group)
            report.shared_numbers.append(f"{group[0][0].law_num}: {laws}")
            continue
        main, _ = max(group, key=lambda pair: (_bill_origin(pair[0].law_id), pair[1], pair[0].law_id))
        for entry, _ in group:
            if entry is not main:
                duplicates[entry.law_id] = main.law_id
                report.duplicates.append(f"{entry.law_id} → {main.law_id} ({main.law_num} {main.title})")
    return duplicates


def supplement(path: Path, known: set[str], index: Index, report: Report) -> list[LawEntry]:
    """Laws the QA set cites by e-Gov id but the list lacks, numbered from the archive index by their
    title and kept only when that number agrees with the id (era, year, kind, number)."""
    by_title: dict[str, list[dict[str, str]]] = defaultdict(list)
    for row in index.values():
        by_title[_SPACE.sub("", row["LawTitle"])].append(row)
    added: list[LawEntry] = []
    for item in json.loads(path.read_text(encoding="utf-8")):
        law_id = item["url"].rstrip("/").rsplit("/", 1)[-1]
        if law_id in known or not re.fullmatch(r"\d{3}[0-9A-Za-z]{12}", law_id):
            continue  # already listed, or not a law (the QA list also names guidelines)
        pattern = number_pattern(law_id)
        rows = [row for row in by_title.get(_SPACE.sub("", item["title"]), [])
                if pattern and pattern.match(normalize_law_num(row["LawNum"]))]
        if len(rows) != 1:
            report.dropped.append(f"{law_id} {item['title']} (QA list; no single fitting number)")
            continue
        row = rows[0]
        added.append(LawEntry(law_id, _SPACE.sub("", row["LawTitle"]), row["LawNum"], row["LawType"]))
        report.supplemented.append(f"{law_id} {row['LawNum']} {item['title']}")
    return added


def read_aliases(paths: list[Path], report: Report) -> dict[str, str]:
    """The 略称 dictionaries merged (keys starting with "_" are comments). All are kept, even those
    naming a law the list lacks: the catalogue applies them on load, so they work once a store adds
    that law. Should two files disagree on a 略称, the first wins and the clash is reported."""
    aliases: dict[str, str] = {}
    for path in paths:
        for alias, target in json.loads(path.read_text(encoding="utf-8")).items():
            alias, target = _SPACE.sub("", alias), _SPACE.sub("", target)
            if alias.startswith("_") or alias == target:
                continue
            if aliases.setdefault(alias, target) != target:
                report.aliases_shadowed.append(f"{alias} → {target} ({path.name}; kept {aliases[alias]})")
    return aliases


def check_aliases(catalog: Catalog, aliases: dict[str, str], report: Report) -> None:
    """Which 略称 name no law of the list yet, and which lose to another law's title."""
    for alias, target in sorted(aliases.items()):
        found = catalog.lookup(alias)
        names = {_SPACE.sub("", e.title) for e in found} | {b for e in found for b in bare_titles(e.title)}
        if not found:
            report.aliases_unresolved.append(f"{alias} → {target}")
        elif target not in names:
            report.aliases_shadowed.append(f"{alias} → {target} (title of {found[0].law_id})")
        else:
            report.aliases_used += 1


def add_uncatalogued(entries: dict[str, LawEntry], index: Index, aliases: dict[str, str],
                     report: Report) -> None:
    """Laws of the 2020-11-18 index that the list lacks (刑事訴訟法, 日本国憲法, …), added under ids derived
    from their numbers: e-Gov's own where the number fixes it (憲法, 政令, 勅令), otherwise a provisional id
    (``derived_law_id``). Without them the mirror's own files could not be ingested, nor these laws cited.
    The examples are those a 略称 names: the laws texts cite most."""
    counts: dict[str, int] = defaultdict(int)
    known = {normalize_law_num(entry.law_num) for entry in entries.values()}
    cited = set(aliases.values())
    for num, row in sorted(index.items()):
        law_id = derived_law_id(row["LawNum"], row["LawType"])
        if num in known or law_id is None or law_id in entries:
            continue
        title = _SPACE.sub("", row["LawTitle"])
        entries[law_id] = LawEntry(law_id, title, row["LawNum"], row["LawType"])
        counts[f"{row['LawType']}{' (provisional id)' if PROVISIONAL_ID.match(law_id) else ''}"] += 1
        if title in cited:
            report.missing_examples.append(f"{title} ({row['LawNum']}, {law_id})")
    report.missing = dict(sorted(counts.items(), key=lambda kv: -kv[1]))


def ordinance_parents(catalog: Catalog, source: Path, report: Report) -> tuple[dict[str, str], dict[str, str]]:
    """{ordinance id: Act id} and {ordinance id: Cabinet Order id} for what the ordinances' bare 法 and 令 mean.

    The parent is, in this order: the law the ordinance defines as 「法」 (its own word for what 法 means); the Act
    its title names (「…法施行規則」, 「…法第二十条の二第二項の基準を定める省令」), which the catalogue derives on
    load and so is not stored; the first Act its enacting formula says it is made under. Measured on the 2020
    archive, formula and definition agree on 96% of the ordinances that have both; where they differ the formula
    names a general Act first (独立行政法人通則法, 国家行政組織法, 不動産登記法) and the definition the one the text
    means."""
    parents: dict[str, str] = {}
    orders: dict[str, str] = {}
    counts: dict[str, int] = defaultdict(int)
    for ordinance in iter_ordinances(source):
        basis = basis_of(catalog, ordinance)
        if basis is None:
            continue
        counts["ordinances"] += 1
        derived = catalog.by_id(basis.law_id)
        title_parent = derived.parent_law_id if derived is not None else None
        if basis.defined_parent is not None:
            chosen, why = basis.defined_parent, "definition"
        elif title_parent is not None:
            chosen, why = None, "title"
        else:
            chosen, why = basis.formula_parent, "formula" if basis.formula_parent else "none"
        counts[why] += 1
        if basis.formula_parent and basis.defined_parent:
            counts["both"] += 1
            if basis.formula_parent != basis.defined_parent:
                counts["disagree"] += 1
                if len(report.basis_conflicts) < 12:
                    report.basis_conflicts.append(
                        f"{ordinance.title}: formula {catalog.by_id(basis.formula_parent).title}, "  # type: ignore[union-attr]
                        f"definition {catalog.by_id(basis.defined_parent).title}")  # type: ignore[union-attr]
        if chosen is not None and chosen != title_parent:
            parents[basis.law_id] = chosen
        if basis.order is not None:
            orders[basis.law_id] = basis.order
            counts["orders"] += 1
    report.basis = dict(counts)
    return parents, orders


def _items(lines: list[str]) -> str:
    return "\n".join(f"  - {line}" for line in lines) if lines else "  - (none)"


def sources_note(report: Report, catalog: Catalog, size: int, archive: bool, lawqa: bool) -> str:
    """CATALOG_SOURCES.md: where every part of the catalogue comes from, under which terms, and what
    the build did with the rows it could not take as they stood."""
    sources = [
        "- **e-Gov 法令データ**: 出典：e-Gov法令検索 (https://laws.e-gov.go.jp/). Statutes are not "
        "subject to copyright (著作権法第13条); e-Gov's terms ask that the source be named. The law "
        "list `law_list_2020-05-18.csv` was generated from the first snapshot (2020-05-18) of "
        "lwhb/lawhub-xml, a daily mirror of e-Gov's bulk download."
        + (" Its `index.tsv` and `SKIPPED_absent_in_snapshot.txt` of 2020-11-18 complete rows, see "
           "below." if archive else ""),
        "- **略称 dictionaries** `jp_law_aliases.json` and `jp_abbrev_kit.json`: from jlawcite, "
        "Apache License 2.0, Copyright 2026 The JLaw-CiteGraph authors "
        "(https://www.apache.org/licenses/LICENSE-2.0). Only the 略称 → title pairs are used.",
    ]
    if lawqa:
        sources.append(
            "- **lawqa_jp law list**: e-Gov ids and titles of the laws the Digital Agency's QA set "
            "cites. 出典：デジタル庁 日本の法令に関する多肢選択式QAデータセット (公共データ利用規約 PDL 1.0)."
        )
    handling = [
        f"- {report.rows:,} rows read. Titles are kept as e-Gov writes them, with marks such as 抄 or "
        "a name in brackets; the bare title is indexed too (民法施行法抄 → 民法施行法; "
        "明治十七年太政官布告第三十二号（爆発物取締罰則） → 爆発物取締罰則), unless it is another law's "
        "official title (明治十三年太政官布告第三十六号（刑法抄） does not make 刑法 ambiguous). "
        f"The ruby markup in {report.ruby} titles (<Ruby>拿<Rt>だ</Rt></Ruby>捕) is reduced to its base "
        "text (拿捕), as citing texts write it.",
        "- Rows with an empty law number and title (XML ≥ 4 MiB, absent from the mirror), completed "
        "from the archive index when exactly one absent law number fits the law id (era, year, kind, "
        "number):\n" + _items(report.filled),
        "- Rows dropped:\n" + _items(report.dropped),
        "- Laws added from the QA law list (not in the list; number from the archive index, checked "
        "against the id):\n" + _items(report.supplemented),
        "- One law number under two ids with the same title (members' bills listed as both AC0… and "
        "AC1…): the AC1 id, which the list gives every other members' bill, stands for the law; the "
        "other is found by id only and takes no name, so it never makes a citation ambiguous:\n"
        + _items(report.duplicates),
        "- Law numbers shared by distinct laws (different titles) are kept for every law; "
        "`by_law_num` returns None for such a number and `lookup` lists all of them:\n"
        + _items(report.shared_numbers),
        f"- 略称: {report.aliases_used} name a law of the list. The dictionary is stored whole and "
        "applied on load, so a 略称 of a law the list lacks works once a store adds that law "
        "(`Catalog.with_entries`). A 略称 never displaces another law's official title.\n"
        f"  - naming no law of the list yet: {', '.join(report.aliases_unresolved) or '(none)'}\n"
        f"  - displaced by a title, or clashing: {', '.join(report.aliases_shadowed) or '(none)'}",
    ]
    if report.basis:
        b = report.basis
        handling.append(
            f"- **What an ordinance's bare 法 and 令 mean**, read from the {b.get('ordinances', 0):,} "
            "ordinances of the 2020-11-18 archive (`scripts/ordinance_basis.py`): the law it defines as 「法」 "
            f"({b.get('definition', 0):,}), else the Act its title names (derived on load, {b.get('title', 0):,}), "
            f"else the first Act its enacting formula (EnactStatement) is made under ({b.get('formula', 0):,}); "
            f"none for {b.get('none', 0):,}. Formula and definition, where both are there "
            f"({b.get('both', 0):,}), disagree on {b.get('disagree', 0):,}; the definition is kept, e.g.:\n"
            + _items(report.basis_conflicts)
            + f"\n  - 令: {b.get('orders', 0):,} ordinances name their Cabinet Order (「以下「令」という」, or the "
            "Order of their Act in the formula); for the others 令 is their Act's 施行令, found by title."
        )
    if report.missing:
        kinds = ", ".join(f"{n} {kind}" for kind, n in report.missing.items())
        handling.append(
            f"- **Added from the archive index.** {sum(report.missing.values()):,} laws of the mirror's "
            f"2020-11-18 index are not in the 2020-05-18 list ({kinds}); among them, those a 略称 names: "
            f"{'; '.join(report.missing_examples)}. No source at hand gives their e-Gov ids. Where the "
            "number fixes the id (日本国憲法 321CONSTITUTION; 政令 CO and 勅令 IO + the number: all "
            "1,995 such laws of the list agree) it is used; otherwise the law gets a provisional id "
            "`<era><year><kind>X<hash4><number>` (`lexgraph.statutes.catalog.derived_law_id`), which "
            "cannot collide with an e-Gov id. Replace them when a fuller law list is at hand."
        )
    handling += [
        "- 施行令 / 施行規則 / 施行法 parents (and those of titles that begin with their Act) are not stored; "
        "the catalogue derives them from the titles on load.",
        "- The list has no repeal status: every law in it was in force on 2020-05-18.",
    ]
    return "\n".join([
        "# Sources of catalog.json.gz",
        "",
        f"`catalog.json.gz` ({size:,} bytes, {len(catalog):,} law ids) is the law catalogue of "
        "`lexgraph.statutes.catalog`: titles, law numbers, e-Gov law ids, law types and 略称. "
        "`scripts/build_catalog.py` generates it; do not edit it by hand.",
        "",
        "## Sources and licences",
        "",
        *sources,
        "",
        "## How rows were handled",
        "",
        *handling,
        "",
    ])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--data-dir", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--out-dir", type=Path, default=ROOT / "lexgraph" / "data")
    parser.add_argument("--no-archive", action="store_true", help="do not read the 2020-11-18 archive")
    parser.add_argument("--archive-dir", type=Path, default=None,
                        help="an unpacked copy of the archive, read instead of streaming it for the ordinances")
    args = parser.parse_args(argv)
    data: Path = args.data_dir
    if not (data / LAW_LIST).is_file():
        print(f"error: {data / LAW_LIST} not found; pass --data-dir with the shared data", file=sys.stderr)
        return 1

    report = Report()
    use_archive = not args.no_archive and (data / ARCHIVE).is_file()
    index, skipped = read_archive_index(data / ARCHIVE) if use_archive else ({}, [])
    rows = read_law_list(data / LAW_LIST, index, skipped, report)
    duplicates = split_duplicates(rows, report)
    entries = {entry.law_id: entry for entry, _ in rows}
    use_lawqa = use_archive and (data / LAWQA_LIST).is_file()
    if use_lawqa:
        entries.update({e.law_id: e for e in supplement(data / LAWQA_LIST, set(entries), index, report)})
    aliases = read_aliases([data / name for name in ALIAS_FILES], report)
    for alias, target in CURATED_ALIASES.items():
        aliases.setdefault(alias, target)

    add_uncatalogued(entries, index, aliases, report)
    catalog = Catalog(entries.values(), duplicates, aliases)
    if use_archive:
        parents, orders = ordinance_parents(catalog, args.archive_dir or data / ARCHIVE, report)
        catalog = Catalog(entries.values(), duplicates, aliases, parents, orders)
    check_aliases(catalog, aliases, report)
    blob = encode_catalog(catalog, {"law_list": LAW_LIST, "snapshot": "2020-05-18"})
    args.out_dir.mkdir(parents=True, exist_ok=True)
    (args.out_dir / "catalog.json.gz").write_bytes(blob)
    note = sources_note(report, catalog, len(blob), use_archive, use_lawqa)
    (args.out_dir / "CATALOG_SOURCES.md").write_text(note, encoding="utf-8")
    print(f"{len(catalog):,} law ids, {len(blob):,} bytes → {args.out_dir / 'catalog.json.gz'}; "
          f"filled {len(report.filled)}, dropped {len(report.dropped)}, "
          f"added {len(report.supplemented)}, duplicates {len(report.duplicates)}, "
          f"略称 {report.aliases_used} (+{len(report.aliases_unresolved)} for laws not listed), "
          f"derived ids {sum(report.missing.values()):,}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
