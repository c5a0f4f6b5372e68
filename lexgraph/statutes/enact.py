"""The enacting formula of an ordinance (e-Gov ``EnactStatement``): which laws it says it is made under.

A 政令, 府令, 省令 or 規則 opens with 「金融商品取引法（昭和二十三年法律第二十五号）第二十四条第一項…の規定に基づき、
並びに同法を実施するため、…を次のように定める。」. Its bare 法 and 令 mean that Act and its Cabinet Order, and the
title rarely says so (企業内容等の開示に関する内閣府令), so a clause read alone (``cite --in-law … --at …``) needs
the formula. The catalogue build (``scripts/build_catalog.py``) reads it for every ordinance of the corpus.

The formula names laws by the title they had when the ordinance was made (証券取引法, since renamed), with the
law number in brackets the first time or not at all; the number is what identifies the law, so it is kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lexgraph.statutes.catalog import Catalog, LawEntry

_NUMERALS = "〇一二三四五六七八九十百千"
_LAW_NUM = rf"(?:明治|大正|昭和|平成|令和)(?:元|[{_NUMERALS}]+)年[^（）、。]{{0,20}}?第[{_NUMERALS}]+号"
# A law named in the formula: the name after a delimiter, up to its number in brackets, a clause of it, or the
# words that say the ordinance is made under it.
_NAMED = re.compile(
    rf"(?:^|[、。]|並びに|及び|又は|若しくは|基づき|ため)"
    rf"(?P<title>[^、。第（）「」]{{2,80}}?(?:法律|法|令|規則|省令|府令))"
    rf"(?:（(?P<num>{_LAW_NUM})[^（）]*）|(?=第[{_NUMERALS}]|附則|の規定|を実施|に基づ|の施行|の一部|（))"
)
# Words that join two names in a formula (「並びに同法及び不動産登記法」): the name is what follows the last of them,
# unless the whole run is a title (出入国管理及び難民認定法), which the catalogue decides (`title_candidates`).
_JOINERS = re.compile(r"並びに|及び|又は|若しくは")


# What follows a law the ordinance is not made under: one whose coming into force it follows, or the ordinance it
# replaces or amends (「…省令（昭和四十六年大蔵省令第三十二号）の全部を改正する省令を次のように定める」).
_NOT_BASIS = ("の施行", "の全部を改正", "の一部を改正")


@dataclass(frozen=True)
class NamedLaw:
    """A law as the formula names it: the title as written (as of the ordinance's making) and its number, when
    the formula gives it."""

    title: str
    law_num: str | None = None
    basis: bool = True  # False for a law whose coming into force it follows (「…法律の施行に伴い」) or that it amends


def laws_named(statement: str) -> tuple[NamedLaw, ...]:
    """The laws an enacting formula names, in order, each once (the first naming, which carries the number):
    「証券取引法（昭和二十三年法律第二十五号）第二十七条…並びに証券取引法施行令（昭和四十年政令第三百二十一号）第十四条…
    の規定に基づき、並びに同法を実施するため」 → 証券取引法 (昭和二十三年法律第二十五号), 証券取引法施行令 (…). 同法 /
    同令 refer back and are not new laws."""
    found: dict[str, NamedLaw] = {}
    text = statement.replace(" ", "").replace("\u3000", "")
    for match in _NAMED.finditer(text):
        title = match["title"]
        if title in found:
            continue
        found[title] = NamedLaw(title, match["num"], basis=not text.startswith(_NOT_BASIS, match.end()))
    return tuple(law for law in found.values() if not _refers_back(law.title))


def _refers_back(title: str) -> bool:
    last = title_candidates(title)[-1]
    return last.startswith(("同", "この", "これら", "当該"))


def title_candidates(title: str) -> tuple[str, ...]:
    """The names a run of the formula may be, longest first: 「並びに同法及び不動産登記法」 → itself, 「同法及び不動産
    登記法」, 「不動産登記法」. A run that is one title (出入国管理及び難民認定法) is found whole; the caller keeps the
    first candidate its catalogue knows."""
    cuts = [0, *(m.end() for m in _JOINERS.finditer(title))]
    return tuple(dict.fromkeys(title[cut:] for cut in cuts if title[cut:]))


ACT_TYPES = ("Act", "Constitution", "CabinetOrder", "ImperialOrder")  # Potsdam orders read as Acts (入管法 is a 政令)
ORDER_TYPES = ("CabinetOrder", "ImperialOrder")


def law_named(catalog: Catalog, name: str, law_num: str | None, types: tuple[str, ...]) -> LawEntry | None:
    """The law a formula or a definition names: by its number when given (titles change: 証券取引法 is now
    金融商品取引法 under the same number), else by the longest catalogue name ending the run (「並びに同法及び不動産
    登記法」 → 不動産登記法); one law of the wanted types, or none."""
    if law_num:
        entry = catalog.by_law_num(law_num)
        return entry if entry is not None and entry.law_type in types else None
    for candidate in title_candidates(name):
        for start in range(len(candidate) - 1):
            found = [e for e in catalog.lookup(candidate[start:]) if e.law_type in types]
            if found:
                return found[0] if len(found) == 1 else None
    return None


def formula_laws(catalog: Catalog, statement: str, own_law_id: str) -> list[LawEntry]:
    """The laws the formula says the ordinance is made under, as catalogue entries, in order."""
    named = [n for n in laws_named(statement) if n.basis]
    laws = [law_named(catalog, n.title, n.law_num, (*ACT_TYPES, "MinisterialOrdinance", "Rule")) for n in named]
    return [law for law in laws if law is not None and law.law_id != own_law_id]


def formula_parent(catalog: Catalog, statement: str, own_law_id: str, own_type: str) -> LawEntry | None:
    """The Act an enacting formula says the ordinance is made under: the first Act it names, else the Act of the
    first Cabinet Order it names (a 施行規則 made under a 施行令 only), else, for a Cabinet Order, a Potsdam order
    named like an Act."""
    laws = formula_laws(catalog, statement, own_law_id)
    for law in laws:
        if law.law_type in ("Act", "Constitution"):
            return law
    for law in laws:
        parent = catalog.parent_of(law.law_id) if law.law_type in ORDER_TYPES else None
        if parent is not None and parent.law_type == "Act":
            return parent
    if own_type == "CabinetOrder":
        return next((law for law in laws if law.law_type in ORDER_TYPES and law.title.endswith("法")), None)
    return None
