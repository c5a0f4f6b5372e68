"""Pick, seeded, real statute strings of the ordinance reference classes (docs/citations.md) from the whole
2020 e-Gov archive, with the answer each should resolve to read independently of lexgraph's extractor, and write
them as test tables.

    python scripts/pick_statute_reference_tables.py --archive-dir DIR [--seed 31] [--per-class 40]

DIR is the unpacked ``egov/lawhub-xml_2020-11-18_all.tar.xz`` of ../shared/data. Classes (one JSON line per
string, ``tests/data/citations/statute_reference_tables.jsonl``):

- ``ordinance_act``: 法第N条 in an ordinance (政令, 府令, 省令, 規則) whose text defines 「法」 in another sentence;
  the expected law is the one that definition names (its number, else its title), read here by a regex of the
  definition, not by the extractor or the catalogue's parents. The sentence itself defines nothing.
- ``ordinance_order``: 令第N条 likewise, with 「以下「令」という」.
- ``paragraph_range``: 第N条第X項から第Y項まで; ``item_range``: 第N条第M項第X号から第Y号まで.
- ``range_to_previous``: 第X項から前項まで / 第X号から前号まで; the end is the clause before the one the sentence is
  in, read from the parsed law's own structure.
- ``list_after_aside``: 第N条第X項（…）、第Y項: the member after the bracket is 第N条's.

Each line: ``class``, ``law_id``, ``law_title``, ``at`` (the clause path the sentence is in), ``text`` (the
sentence), ``surface`` and ``start`` (the string and where it is in ``text``), and ``expect`` (law id, or article /
paragraph / item numbers and range ends as e-Gov Nums). Statutes: 出典 e-Gov法令検索, no copyright (著作権法第13条).
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

from ordinance_basis import _ORDERS, _law_of, read_ordinance  # noqa: E402

from lexgraph.ingest.corpus import CITING_KINDS, clause_text  # noqa: E402
from lexgraph.numerals import egov_num  # noqa: E402
from lexgraph.statutes.catalog import Catalog  # noqa: E402
from lexgraph.statutes.egov import parse_law_xml  # noqa: E402

_N = "[〇一二三四五六七八九十百千]+"
_ART = rf"第{_N}条(?:の{_N})*"
_ASIDE = r"（[^（）]*(?:（[^（）]*）[^（）]*)*）"
_NOT_GLUED = r"(?<![一-龥ぁ-んァ-ヶ々〇])"  # 法第…, not 同法第… / 基本法第… / 施行法第…
CLASSES: dict[str, re.Pattern[str]] = {
    "ordinance_act": re.compile(rf"{_NOT_GLUED}法(?P<art>{_ART})"),
    "ordinance_order": re.compile(rf"{_NOT_GLUED}令(?P<art>{_ART})"),
    "paragraph_range": re.compile(rf"(?P<art>{_ART})第(?P<p>{_N})項から第(?P<p_to>{_N})項まで"),
    "item_range": re.compile(rf"(?P<art>{_ART})第(?P<p>{_N})項第(?P<i>{_N})号から第(?P<i_to>{_N})号まで"),
    "range_to_previous": re.compile(rf"(?<!条)(?<!項)第(?P<n>{_N})(?P<unit>[項号])から前(?P=unit)まで"),
    "list_after_aside": re.compile(
        rf"(?P<art>{_ART})第(?P<p>{_N})項{_ASIDE}(?:、|及び|並びに|又は|若しくは)第(?P<p2>{_N})項"),
}
# Cheap tests on a file's bytes, before a law is parsed and the patterns above are tried on its clauses.
_QUICK: dict[str, tuple[bytes, ...]] = {
    "paragraph_range": ("項から第".encode(),),
    "item_range": ("号から第".encode(),),
    "range_to_previous": ("から前項まで".encode(), "から前号まで".encode()),
    "list_after_aside": ("項（".encode(),),
}
_ORDINANCE_TERMS = {"ordinance_act": "法", "ordinance_order": "令"}


def _article(written: str) -> str | None:
    return egov_num(written.removeprefix("第").replace("条", ""))


def expected(name: str, match: re.Match[str], path: str,
             siblings: dict[str, list[str]]) -> dict[str, str | None] | None:
    """The answer of one match, from the match itself (and, for 前項 / 前号, the law's structure)."""
    if name == "paragraph_range":
        return {"article": _article(match["art"]), "paragraph": egov_num(match["p"]),
                "paragraph_to": egov_num(match["p_to"])}
    if name == "item_range":
        return {"article": _article(match["art"]), "paragraph": egov_num(match["p"]), "item": egov_num(match["i"]),
                "item_to": egov_num(match["i_to"])}
    if name == "list_after_aside":
        return {"article": _article(match["art"]), "paragraph": egov_num(match["p2"])}
    if name == "range_to_previous":
        level = "p" if match["unit"] == "項" else "i"
        parts = path.split("/")
        index = next((k for k, part in enumerate(parts) if part.startswith(level)), None)
        if index is None:
            return None
        parent, own = "/".join(parts[:index]), parts[index]
        order = siblings.get(f"{parent}|{level}", [])
        if own not in order or order.index(own) == 0:
            return None
        previous = order[order.index(own) - 1][1:]
        article = parts[0][1:] if parts[0].startswith("a") else None
        key = "paragraph" if level == "p" else "item"
        out = {"article": article, key: egov_num(match["n"]), f"{key}_to": previous}
        if level == "i":
            out["paragraph"] = parts[1][1:] if len(parts) > 1 and parts[1].startswith("p") else "1"
        return out
    return None


def sentence_at(text: str, start: int, end: int) -> tuple[str, int]:
    """The sentence around text[start:end] and where the match starts in it: cut at a 。 outside brackets (a 。
    inside one, 「（…をいう。以下同じ。）」, ends no sentence)."""
    ends = []
    depth = 0
    for position, ch in enumerate(text):
        if ch in "（(":
            depth += 1
        elif ch in "）)":
            depth = max(0, depth - 1)
        elif ch == "。" and depth == 0:
            ends.append(position)
    first = max((e for e in ends if e < start), default=-1) + 1
    last = min((e for e in ends if e >= end), default=len(text) - 1) + 1
    return text[first:last], start - first


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--archive-dir", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--per-class", type=int, default=40)
    parser.add_argument("--out", type=Path, default=ROOT / "tests" / "data" / "citations"
                        / "statute_reference_tables.jsonl")
    args = parser.parse_args(argv)
    catalog = Catalog.bundled()
    files = sorted(args.archive_dir.rglob("*.xml"))
    candidates: dict[str, list[tuple[Path, object]]] = defaultdict(list)
    for path in files:
        raw = path.read_bytes()
        for name, needles in _QUICK.items():
            if any(needle in raw for needle in needles):
                candidates[name].append((path, None))
        if b"\xe4\xbb\xa5\xe4\xb8\x8b\xe3\x80\x8c" not in raw:  # 以下「
            continue
        ordinance = read_ordinance(str(path), raw)
        if ordinance is None:
            continue
        for name, term in _ORDINANCE_TERMS.items():
            if term in ordinance.defines:
                candidates[name].append((path, ordinance))
    rng = random.Random(args.seed)
    rows: list[dict[str, object]] = []
    for name, pattern in CLASSES.items():
        pool = candidates[name]
        rng.shuffle(pool)
        taken = 0
        for path, ordinance in pool:
            if taken >= args.per_class:
                break
            row = pick(name, pattern, path, ordinance, catalog, rng)
            if row is not None:
                rows.append(row)
                taken += 1
        print(f"{name}: {taken} of {len(pool)} candidate files", file=sys.stderr)
    args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    print(f"{len(rows)} rows → {args.out}", file=sys.stderr)
    return 0


def pick(name: str, pattern: re.Pattern[str], path: Path, ordinance: object, catalog: Catalog,
         rng: random.Random) -> dict[str, object] | None:
    """One random match of `pattern` in the law at `path`, as a row; None when the law has none usable."""
    law = parse_law_xml(path.read_bytes(), str(path))
    entry = catalog.by_law_num(law.meta.law_num)
    if entry is None:
        return None
    expect_law: str | None = None
    if ordinance is not None:
        written, number = ordinance.defines[_ORDINANCE_TERMS[name]]  # type: ignore[attr-defined]
        types = _ORDERS if name == "ordinance_order" else ("Act", "Constitution", *_ORDERS)
        defined = _law_of(catalog, written, number, types)
        if defined is None or defined.law_id == entry.law_id:
            return None
        expect_law = defined.law_id
    siblings: dict[str, list[str]] = defaultdict(list)
    for provision in law.provisions:
        parts = provision.path.split("/")
        if parts[-1][:1] in ("p", "i"):
            siblings[f"{'/'.join(parts[:-1])}|{parts[-1][:1]}"].append(parts[-1])
    found = []
    for provision in law.provisions:
        if provision.path.startswith(("suppl", "appdx", "preamble")) or provision.kind not in CITING_KINDS:
            continue
        text = clause_text((s.role, s.text) for s in provision.sentences)  # as the linker reads a clause
        for match in pattern.finditer(text):
            sentence, start = sentence_at(text, match.start(), match.end())
            if "以下「" in sentence and ordinance is not None:
                continue  # the definition itself: the row must need the catalogue, not the text's own words
            found.append((provision.path, sentence, start, match))
    rng.shuffle(found)
    for clause, sentence, start, match in found:
        expect: dict[str, str | None] | None
        if name in _ORDINANCE_TERMS:
            expect = {"law_id": expect_law, "article": _article(match["art"])}
        else:
            expect = expected(name, match, clause, siblings)
        if expect is None or any(v is None for v in expect.values()):
            continue
        return {"class": name, "law_id": entry.law_id, "law_title": entry.title, "at": clause, "text": sentence,
                "surface": match.group(), "start": start, "expect": expect}
    return None


if __name__ == "__main__":
    raise SystemExit(main())
