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


@dataclass(frozen=True)
class NamedLaw:
    """A law as the formula names it: the title as written (as of the ordinance's making) and its number, when
    the formula gives it."""

    title: str
    law_num: str | None = None
    basis: bool = True  # False for a law whose coming into force the ordinance follows (「…法律の施行に伴い」)


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
        found[title] = NamedLaw(title, match["num"], basis=not text.startswith("の施行", match.end()))
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
