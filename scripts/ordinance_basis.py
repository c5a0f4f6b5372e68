"""Read, for every ordinance of the e-Gov archive, its enacting formula and the laws its text defines as 「法」 and
「令」: the input of the parents the catalogue stores (``scripts/build_catalog.py``) and of the test tables made
by ``scripts/pick_ordinance_references.py``.

The archive (``egov/lawhub-xml_2020-11-18_all.tar.xz``) is streamed, or an unpacked copy of it is read.
"""

from __future__ import annotations

import lzma
import re
import tarfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from lexgraph.statutes.catalog import Catalog
from lexgraph.statutes.enact import ACT_TYPES, ORDER_TYPES, formula_laws, formula_parent, law_named

_LAW_TYPE = re.compile(rb'<Law\b[^>]*\bLawType="([A-Za-z]+)"')
_LAW_NUM = re.compile(r"<LawNum>(.*?)</LawNum>", re.S)
_TITLE = re.compile(r"<LawTitle\b[^>]*>(.*?)</LawTitle>", re.S)
_ENACT = re.compile(r"<EnactStatement>(.*?)</EnactStatement>", re.S)
_RUBY_READING = re.compile(r"<Rt>.*?</Rt>", re.S)
_TAG = re.compile(r"<[^>]+>")
_NUMERALS = "〇一二三四五六七八九十百千"
# 「金融商品取引法（昭和二十三年法律第二十五号。以下「法」という。）」: the name before the bracket (cut by the caller
# against the catalogue), the number in it when given, and the term.
_DEFINES = re.compile(
    rf"(?P<name>[^、。「」（）\s]{{2,80}}?)（(?:(?P<num>(?:明治|大正|昭和|平成|令和)(?:元|[{_NUMERALS}]+)年"
    rf"[^（）、。]{{0,20}}?第[{_NUMERALS}]+号)[^（）]*?[。、])?以下「(?P<term>法|令)」という。?）"
)


@dataclass(frozen=True)
class OrdinanceText:
    """What one ordinance file says about the laws it is made under."""

    path: str  # inside the archive
    law_num: str
    title: str
    law_type: str
    enact_statement: str
    defines: dict[str, tuple[str, str | None]]  # 法 / 令 → (name run before the bracket, law number or None)


def plain(xml: str) -> str:
    return _TAG.sub("", _RUBY_READING.sub("", xml))


def read_ordinance(path: str, raw: bytes) -> OrdinanceText | None:
    found = _LAW_TYPE.search(raw[:2000])
    if found is None or found.group(1) in (b"Act", b"Constitution"):
        return None
    xml = raw.decode("utf-8")
    num, title = _LAW_NUM.search(xml), _TITLE.search(xml)
    if num is None or title is None:
        return None
    enact = _ENACT.search(xml)
    body = plain(xml[xml.find("<MainProvision"):xml.find("</MainProvision>")]) if "<MainProvision" in xml else ""
    defines: dict[str, tuple[str, str | None]] = {}
    for match in _DEFINES.finditer(body):
        defines.setdefault(match["term"], (match["name"], match["num"]))
    return OrdinanceText(path, plain(num.group(1)).strip(), re.sub(r"\s+", "", plain(title.group(1))),
                         found.group(1).decode(), plain(enact.group(1)) if enact else "", defines)


def iter_ordinances(source: Path) -> Iterator[OrdinanceText]:
    """Every ordinance (政令, 勅令, 府令, 省令, 規則, …) of the archive, or of its unpacked directory."""
    if source.is_dir():
        for path in sorted(source.rglob("*.xml")):
            found = read_ordinance(str(path.relative_to(source)), path.read_bytes())
            if found is not None:
                yield found
        return
    with lzma.open(source) as raw, tarfile.open(fileobj=raw, mode="r|") as tar:
        for member in tar:
            if not member.name.endswith(".xml"):
                continue
            handle = tar.extractfile(member)
            if handle is None:
                continue
            found = read_ordinance(member.name.split("/", 1)[-1], handle.read())
            if found is not None:
                yield found


@dataclass(frozen=True)
class Basis:
    """An ordinance's parent Act (what its bare 法 means) and Cabinet Order (令), with where each was read."""

    law_id: str
    parent: str | None
    parent_from: str  # "formula", "definition" or ""
    order: str | None
    formula_parent: str | None
    defined_parent: str | None


_law_of = law_named
_ORDERS = ORDER_TYPES


def basis_of(catalog: Catalog, ordinance: OrdinanceText) -> Basis | None:
    """Which Act the ordinance's 法 means: the first law its enacting formula says it is made under that is an Act
    (or, failing one, the Act of the first Cabinet Order it names); else the law its text defines as 「法」. 令 is
    the law it defines as 「令」, else the Cabinet Order of that Act named in the formula."""
    entry = catalog.by_law_num(ordinance.law_num)
    if entry is None:
        return None
    laws = formula_laws(catalog, ordinance.enact_statement, entry.law_id)
    found_parent = formula_parent(catalog, ordinance.enact_statement, entry.law_id, entry.law_type)
    formula_parent_id = found_parent.law_id if found_parent is not None else None
    defined = ordinance.defines.get("法")
    defined_law = _law_of(catalog, *defined, types=ACT_TYPES) if defined else None
    defined_parent = defined_law.law_id if defined_law is not None and defined_law.law_id != entry.law_id else None
    parent, source = (formula_parent_id, "formula") if formula_parent_id else (defined_parent, "definition")
    order: str | None = None
    defined_order = ordinance.defines.get("令")
    if defined_order:
        found = _law_of(catalog, *defined_order, types=_ORDERS)
        order = found.law_id if found is not None and found.law_id != entry.law_id else None
    if order is None and parent is not None:
        order = next((law.law_id for law in laws if law.law_type == "CabinetOrder"
                      and law.parent_law_id == parent and law.law_id != entry.law_id), None)
    return Basis(entry.law_id, parent, source if parent else "", order, formula_parent_id, defined_parent)
