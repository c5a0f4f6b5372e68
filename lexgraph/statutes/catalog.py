"""The law catalogue: which law a name, a law number or an e-Gov law id means.

Citations name laws in many ways: the official title (民法), a title without its 抄 mark, the descriptive name
of an untitled 太政官布告 (爆発物取締罰則), a 略称 (労基法), the law number in kanji or Arabic numerals
(平成15年法律第57号) or the e-Gov law id. The resolver and the statute ingest both need one answer to "which
law is this?", so every such name is indexed here, and a name that fits several laws returns all of them, most
likely first, instead of a silent guess.

The bundled catalogue (``lexgraph/data/catalog.json.gz``) is built by ``scripts/build_catalog.py`` from the
e-Gov law list and the jlawcite 略称 dictionaries; ``lexgraph/data/CATALOG_SOURCES.md`` says how.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import gzip
import hashlib
import json
import os
import re
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from importlib import resources
from pathlib import Path
from typing import Any, Protocol, Self, TypeVar

from lexgraph.errors import InputError
from lexgraph.statutes import former_titles
from lexgraph.statutes.former_titles import FormerTitle

FORMAT = 1

_ERAS = {"1": "明治", "2": "大正", "3": "昭和", "4": "平成", "5": "令和"}
_DIGITS = "〇一二三四五六七八九"
_SPACE = re.compile(r"\s+")
_FULLWIDTH_DIGITS = str.maketrans("０１２３４５６７８９", "0123456789")
_ARABIC = re.compile(r"\d+")
# 人事院規則 are numbered "series―number" with positional kanji (人事院規則一〇―一五), not with 十.
_JINJI = re.compile(r"人事院規則([\d〇一二三四五六七八九]+)[-－‐−―—ー]([\d〇一二三四五六七八九]+)")
_GANNEN = re.compile(r"(明治|大正|昭和|平成|令和)一年")
# A promulgation date inside a law number (昭和22年4月7日法律第49号) is not part of the e-Gov form, unless the
# date is the whole number (平成十二年八月二十一日内閣総理大臣決定).
_DATE_BEFORE_NUMBER = re.compile(r"(?<=年)[一二三四五六七八九十]+月[一二三四五六七八九十]+日(?=.*第.+号$)")

_NEEDS_WORK = re.compile(r"[\s\d０-９]|人事院規則|一年|月")

_SHO = re.compile(r"(?:抄|（抄）)$")
# The 抄 mark set apart from a title, as e-Gov prints it (「民法施行法　抄」) or in brackets; 「刑法抄」 run together
# is a name of its own (明治十三年太政官布告第三十六号（刑法抄）), not 刑法 marked.
_SHO_MARK = re.compile(r"(?:\s抄|（抄）)\s*$")
_TRAILING_PAREN = re.compile(r"^(.+?)（([^（）]+)）$")
_NUMBER_AS_TITLE = re.compile(r"^(明治|大正|昭和|平成|令和).+号$")
_PARENT_SUFFIXES = ("施行規則", "施行令", "施行法")
# What follows an Act's title at the start of an ordinance's title made under it: a clause of it, or its word.
_MADE_UNDER = ("第", "の規定", "に基づ", "による", "に規定")

# Most likely first: a bare name in a judgment or a book usually means the Act, not an ordinance of the same
# name.
_TYPE_RANK = {
    "Constitution": 0, "Act": 1, "CabinetOrder": 2, "ImperialOrder": 3, "MinisterialOrdinance": 4, "Rule": 5,
    "Misc": 6,
}
# Name tiers: a name that is some law's official title or number is never taken over by another law's derived
# name (the 旧刑法 布告 is titled "…（刑法抄）", which must not make 刑法 ambiguous), and a curated 略称 never
# displaces a title.
_OFFICIAL, _BARE, _ALIAS = 0, 1, 2
# A former title names its law only where no law bears it, nor a bare title or 略称 of one, today.
_FORMER = 3


@dataclass(frozen=True)
class LawEntry:
    """One law as e-Gov lists it, with the other names it is cited by."""

    law_id: str  # e-Gov law id, e.g. "129AC0000000089"
    title: str  # official title, e.g. "民法"
    law_num: str  # e.g. "明治二十九年法律第八十九号"
    law_type: str  # e-Gov LawType: Act, CabinetOrder, MinisterialOrdinance, ImperialOrder, Rule, ...
    aliases: tuple[str, ...] = ()
    parent_law_id: str | None = None  # for 施行令/施行規則/施行法, and an ordinance its title says is made under an Act


def kanji_number(n: int) -> str:
    """An integer in the kanji form e-Gov uses in law numbers: 57 → 五十七, 103 → 百三, 1200 → 千二百."""
    if n < 0:
        raise ValueError(f"law numbers are not negative: {n}")
    if n == 0:
        return "〇"
    if n >= 10000:
        high, low = divmod(n, 10000)
        return kanji_number(high) + "万" + (kanji_number(low) if low else "")
    out = []
    for unit, value in (("千", 1000), ("百", 100), ("十", 10)):
        digit = n // value % 10
        if digit:
            out.append(("" if digit == 1 else _DIGITS[digit]) + unit)
    if n % 10:
        out.append(_DIGITS[n % 10])
    return "".join(out)


def _positional(digits: str) -> str:
    return "".join(_DIGITS[int(c)] if c.isdigit() else c for c in digits)


def normalize_law_num(text: str) -> str:
    """A law number in any numeral style → e-Gov's kanji form, so that cited numbers match the catalogue.

    "平成15年法律第57号", "平成１５年法律第５７号" and "平成十五年 法律第五十七号" all give
    "平成十五年法律第五十七号"; "令和1年" gives "令和元年"; "人事院規則10-15" gives "人事院規則一〇―一五"; a
    promulgation date before the number (昭和22年4月7日法律第49号) is dropped. Kanji numbers pass through
    unchanged.
    """
    if not _NEEDS_WORK.search(text):
        return text  # already in e-Gov form: the common case when the catalogue indexes its own numbers
    text = _SPACE.sub("", text).translate(_FULLWIDTH_DIGITS)
    text = _JINJI.sub(lambda m: f"人事院規則{_positional(m[1])}―{_positional(m[2])}", text)
    text = _ARABIC.sub(lambda m: kanji_number(int(m[0])), text)
    text = _GANNEN.sub(r"\1元年", text)
    return _DATE_BEFORE_NUMBER.sub("", text)


def era_year_of(law_id: str) -> str | None:
    """The era and year a law id encodes, as law numbers write them: "129AC0000000089" → "明治二十九年".

    The first digit of an e-Gov law id is the era (1 明治 … 5 令和) and the next two the year of that era.
    """
    era = _ERAS.get(law_id[:1])
    if era is None or not law_id[1:3].isdigit() or int(law_id[1:3]) == 0:
        return None
    year = int(law_id[1:3])
    return f"{era}{'元' if year == 1 else kanji_number(year)}年"


_ERA_DIGITS = {era: digit for digit, era in _ERAS.items()}
_LAW_NUM_PARTS = re.compile(
    r"^(明治|大正|昭和|平成|令和)(元|[一二三四五六七八九十]+)年(.*?)(?:第([〇一二三四五六七八九十百千万]+)号)?$"
)
# The issuers whose e-Gov ids follow from the number alone: every 政令 and 勅令 of the e-Gov list has the id
# <era><year>CO|IO<ten-digit number>. An Act's id also holds the bill's origin (AC0… cabinet, AC1… members)
# and an ordinance's the ministry's code, which the number does not tell.
_CERTAIN_KINDS = {"政令": "CO", "勅令": "IO"}
_NUMERAL_RUN = re.compile(r"[〇一二三四五六七八九十百千]+")
_PROVISIONAL_KINDS = {"Act": "AC", "MinisterialOrdinance": "M", "Rule": "R", "Misc": "MS"}
PROVISIONAL_ID = re.compile(r"^\d{3}[A-Z]{1,2}X[0-9A-F]{4}\d{5}$")


def derived_law_id(law_num: str, law_type: str) -> str | None:
    """A stable id for a law that no e-Gov list at hand names, derived from its number.

    Where the number fixes the e-Gov id (日本国憲法, 政令, 勅令) this is that id. Otherwise it is a provisional id
    in lexgraph's own namespace, ``<era><year><kind>X<hash4><number>`` (昭和二十三年法律第百三十一号 →
    ``323ACX…00131``): an "X" never follows the kind code in an e-Gov id, so the two cannot collide, and the hash
    of the full number keeps two ministries' 省令 of the same year and number apart. None when the text is not a
    law number.
    """
    from lexgraph.numerals import kanji_to_int  # local: numerals imports nothing from here, but keep it light

    match = _LAW_NUM_PARTS.match(normalize_law_num(law_num))
    if match is None:
        return None
    era_name, year_text, issuer, number_text = match.groups()
    year = 1 if year_text == "元" else kanji_to_int(year_text)
    if year is None or year > 99:
        return None
    prefix = f"{_ERA_DIGITS[era_name]}{year:02d}"
    if law_type == "Constitution" or (issuer == "憲法" and number_text is None):
        return f"{prefix}CONSTITUTION"
    if number_text:
        number = kanji_to_int(number_text)
    else:
        # Numbers not of the 第…号 form: 人事院規則一五―一四 (series and number), 八月二十一日内閣総理大臣決定 (a
        # date). Their numerals, run together, stand in for the number; the hash keeps them apart anyway.
        numerals = [kanji_to_int(run) for run in _NUMERAL_RUN.findall(issuer)]
        number = int("".join(str(n) for n in numerals if n is not None) or "0") % 100_000
    if number is None or number > 99999:
        return None
    if issuer in _CERTAIN_KINDS and number_text:
        return f"{prefix}{_CERTAIN_KINDS[issuer]}{number:010d}"
    kind = _PROVISIONAL_KINDS.get(law_type, "AC" if issuer == "法律" else "MS")
    digest = hashlib.sha1(match.group(0).encode("utf-8")).hexdigest()[:4].upper()
    return f"{prefix}{kind}X{digest}{number:05d}"


def bare_titles(title: str) -> tuple[str, ...]:
    """Other names a title is cited by: without its 抄 mark, and for an untitled law written as its number
    with a name in brackets (明治十七年太政官布告第三十二号（爆発物取締罰則）), that name and the number."""
    if not title.rstrip().endswith(("抄", "）")):
        return ()  # the common case, checked first because the catalogue asks this of every title it loads
    title = _SPACE.sub("", title)
    core = _SHO.sub("", title)
    names = [core]
    match = _TRAILING_PAREN.match(core)
    if match:
        head, inner = match.groups()
        names.append(head)
        # Only a number-as-title has a name in brackets; elsewhere (人事院規則一―一（規則の分類）) the
        # brackets hold a subject line too generic to be a name.
        if _NUMBER_AS_TITLE.match(head):
            names.append(_SHO.sub("", inner))
    return tuple(dict.fromkeys(n for n in names if n and n != title))


def parent_title(title: str) -> str | None:
    """The title of the law a 施行令 / 施行規則 / 施行法 implements: "借地借家法施行令" → "借地借家法"."""
    for suffix in _PARENT_SUFFIXES:
        if title.endswith(suffix) and len(title) > len(suffix):
            return title[: -len(suffix)]
    return None


def _rank(entry: LawEntry) -> tuple[int, int, str]:
    """Sort key, most likely first: by law type, then newer first (an older law of the same name has usually
    been superseded), then by id so that the order is stable."""
    age = -int(entry.law_id[:3]) if entry.law_id[:3].isdigit() else 0
    return (_TYPE_RANK.get(entry.law_type, len(_TYPE_RANK)), age, entry.law_id)


_LOOKUPS_KEPT = 20_000  # names whose lookup is remembered: bounded, since a long text writes many names


class Catalog:
    """Laws by title, bare title, 略称, law number and law id.

    Immutable, so one catalogue can be shared by threads; ``with_entries`` returns a new one."""

    def __init__(self, entries: Iterable[LawEntry], duplicates: Mapping[str, str] | None = None,
                 aliases: Mapping[str, str] | None = None, parents: Mapping[str, str] | None = None,
                 orders: Mapping[str, str] | None = None, former: Iterable[FormerTitle] = ()) -> None:
        """``duplicates`` maps a law id e-Gov lists twice for one law number (430AC0000000074 beside
        430AC1000000074) to the id that stands for the law: the duplicate stays reachable by id but takes no
        name, so that it cannot make a citation ambiguous.

        ``aliases`` is a 略称 dictionary (略称 → official title). It is applied here, not baked into the
        entries, so that a law added later by ``with_entries`` (刑事訴訟法, say) picks up its 略称 (刑訴法)
        too.

        ``parents`` and ``orders`` map an ordinance to the Act and the Cabinet Order its bare 法 and 令 mean, as
        the build read them from the ordinance itself (its definitions 「以下「法」という」, its enacting formula):
        a stated parent wins over the one derived from the title.

        ``former`` are titles laws bore before they were renamed (`lexgraph.statutes.former_titles`): a former title
        names its law, below every other kind of name, and `former_titles` says which renaming it is."""
        self._given = {entry.law_id: entry for entry in entries}
        self._parents = dict(parents or {})
        self._orders = dict(orders or {})
        self._lookups: dict[str, tuple[LawEntry, ...]] = {}  # lookup's answers: a text names few laws, often
        known = self._given.keys()
        self._duplicates = {
            dup: main for dup, main in (duplicates or {}).items() if dup in known and main in known
        }
        self._aliases = dict(aliases or {})
        named = [e for e in self._given.values() if e.law_id not in self._duplicates]
        titles = {e.law_id: (_SPACE.sub("", e.title), *bare_titles(e.title)) for e in named}
        extra = self._dictionary_aliases(titles)

        claims: dict[str, dict[str, int]] = {}  # name → law id → best tier of that law's claim
        self._former = tuple(dict.fromkeys(f for f in former if f.law_id in self._given))
        for entry in named:
            official, *bare = titles[entry.law_id]
            surface = [(official, _OFFICIAL), (_SPACE.sub("", entry.law_num), _OFFICIAL)]
            surface += [(name, _BARE) for name in bare]
            surface += [(_SPACE.sub("", a), _ALIAS) for a in (*entry.aliases, *extra.get(entry.law_id, ()))]
            for name, tier in surface:  # best tier first, so the first claim of a law on a name is its best
                if name:
                    claims.setdefault(name, {}).setdefault(entry.law_id, tier)
        for renamed in self._former:
            if renamed.law_id not in self._duplicates:
                claims.setdefault(_SPACE.sub("", renamed.title), {}).setdefault(renamed.law_id, _FORMER)
        winners: dict[str, list[str]] = {}
        for name, by_law in claims.items():
            best = min(by_law.values())
            winners[name] = [law_id for law_id, tier in by_law.items() if tier == best]

        entries_by_id = dict(self._given)
        for entry in named:
            changes: dict[str, Any] = {}
            if entry.law_id in extra:
                changes["aliases"] = tuple(dict.fromkeys((*entry.aliases, *extra[entry.law_id])))
            if entry.parent_law_id is None and self._parents.get(entry.law_id) in known:
                changes["parent_law_id"] = self._parents[entry.law_id]
            elif entry.parent_law_id is None:
                parent = (self._find_parent(entry.law_id, titles[entry.law_id], claims, winners)
                          if "施行" in entry.title else None)
                if parent is None and entry.law_type not in ("Act", "Constitution"):
                    parent = self._act_in_title(entry.law_id, titles[entry.law_id][0], claims, winners)
                if parent is not None:
                    changes["parent_law_id"] = parent
            if changes:
                entries_by_id[entry.law_id] = replace(entry, **changes)
        self._by_id = entries_by_id

        ranks = {law_id: _rank(entry) for law_id, entry in entries_by_id.items()}
        by_num: dict[str, list[str]] = {}
        for entry in named:
            if entry.law_num.strip():
                by_num.setdefault(normalize_law_num(entry.law_num), []).append(entry.law_id)

        def ordered(ids: list[str]) -> tuple[LawEntry, ...]:
            ids = ids if len(ids) == 1 else sorted(ids, key=ranks.__getitem__)
            return tuple(entries_by_id[i] for i in ids)

        self._by_name = {name: ordered(ids) for name, ids in winners.items()}
        by_former: dict[str, list[FormerTitle]] = {}
        for renamed in self._former:
            name = _SPACE.sub("", renamed.title)
            if claims.get(name, {}).get(renamed.law_id) == _FORMER and renamed.law_id in winners[name]:
                by_former.setdefault(name, []).append(renamed)
        self._by_former = {name: tuple(found) for name, found in by_former.items()}
        self._by_num = {num: ordered(ids) for num, ids in by_num.items()}

    def _dictionary_aliases(self, titles: Mapping[str, tuple[str, ...]]) -> dict[str, list[str]]:
        """law id → the dictionary's 略称 naming its official title (or, failing that, its bare title)."""
        official: dict[str, list[str]] = {}
        bare: dict[str, list[str]] = {}
        for law_id, (title, *others) in titles.items():
            official.setdefault(title, []).append(law_id)
            for name in others:
                bare.setdefault(name, []).append(law_id)
        extra: dict[str, list[str]] = {}
        for alias, target in self._aliases.items():
            target = _SPACE.sub("", target)
            if _SPACE.sub("", alias) == target:
                continue
            for law_id in official.get(target) or bare.get(target) or ():
                extra.setdefault(law_id, []).append(alias)
        return extra

    def _find_parent(self, law_id: str, titles: tuple[str, ...], claims: dict[str, dict[str, int]],
                     winners: dict[str, list[str]]) -> str | None:
        """The law a 施行令 / 施行規則 / 施行法 implements: the one law whose title (or bare title) is this
        title without the suffix. An Act wins over an ordinance of the same name; a tie leaves the parent
        unknown rather than guessed. 略称 are not used: a title is evidence, a 略称 only a convention."""
        for title in titles:
            wanted = parent_title(title)
            if wanted is None or wanted not in claims:
                continue
            found = sorted(
                (_TYPE_RANK.get(self._given[i].law_type, len(_TYPE_RANK)), i)
                for i in winners[wanted]
                if i != law_id and claims[wanted][i] <= _BARE
            )
            if len(found) == 1 or (found and found[0][0] < found[1][0]):
                return found[0][1]
        return None

    def _act_in_title(self, law_id: str, title: str, claims: dict[str, dict[str, int]],
                      winners: dict[str, list[str]]) -> str | None:
        """The Act an ordinance's title says it was made under, which is what its bare 法 means:
        「出入国管理及び難民認定法第二十条の二第二項の基準を定める省令」, 「高齢者の医療の確保に関する法律による
        保険者の前期高齢者交付金等の額の算定等に関する省令」. The title must begin with the Act's title (or bare
        title), followed by a clause of it or by による / に基づく / に規定する; a title that mentions an Act later
        (「…の特例等に関する命令」) names none. The longest such title wins; a tie leaves the parent unknown."""
        for end in range(len(title) - 1, 1, -1):
            if title[end - 1] != "法" and title[end - 2:end] != "法律":
                continue
            if not title.startswith(_MADE_UNDER, end):
                continue
            name = title[:end]
            if name not in claims:
                continue
            # An Act, or a Potsdam order that reads as one (出入国管理及び難民認定法 is 昭和二十六年政令第三百十九号).
            found = [i for i in winners[name] if i != law_id and claims[name][i] <= _BARE
                     and self._given[i].law_type in ("Act", "CabinetOrder", "ImperialOrder")]
            if len(found) == 1:
                return found[0]
            if found:
                return None
        return None

    @classmethod
    def bundled(cls) -> Catalog:
        """The catalogue shipped in the package (the e-Gov law list of 2020-05-18 and the jlawcite 略称),
        loaded once per process because every ingest and every resolver needs it and it never changes at run
        time."""
        return _bundled()

    @classmethod
    def load(cls, path: str | Path) -> Catalog:
        """A catalogue file written by ``encode_catalog`` (gzip-compressed JSON)."""
        return cls.from_payload(json.loads(gzip.decompress(Path(path).read_bytes())))

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any], former: Iterable[FormerTitle] = ()) -> Catalog:
        """The decoded JSON of a catalogue file (``to_payload`` describes the layout), with `former` titles."""
        if payload.get("format") != FORMAT:
            raise InputError(f"catalogue format {payload.get('format')!r} is not {FORMAT}; "
                             "rebuild it with scripts/build_catalog.py")
        entries = {
            row[0]: LawEntry(law_id=row[0], title=row[1], law_num=row[2], law_type=row[3],
                             aliases=tuple(row[4]) if len(row) > 4 else ())
            for row in payload["laws"]
        }
        duplicates: dict[str, str] = payload.get("duplicates", {})
        for duplicate, primary in duplicates.items():
            entries[duplicate] = replace(entries[primary], law_id=duplicate, aliases=())
        return cls(entries.values(), duplicates, payload.get("aliases", {}), payload.get("parents", {}),
                   payload.get("orders", {}), former)

    def __len__(self) -> int:
        """Every law id known, duplicates included."""
        return len(self._by_id)

    def by_id(self, law_id: str) -> LawEntry | None:
        """The law with this e-Gov id; a duplicate id e-Gov also lists (430AC0000000074) is found too."""
        return self._by_id.get(law_id.strip())

    def by_law_num(self, law_num: str) -> LawEntry | None:
        """The law with this number, in any numeral style. None when unknown, and also when the number names
        more than one law (three 内閣総理大臣決定 of one day share one): ``lookup`` lists those."""
        found = self._by_num.get(normalize_law_num(law_num), ())
        return found[0] if len(found) == 1 else None

    def lookup(self, name: str) -> list[LawEntry]:
        """Every law this exact name can mean (title, bare title, 略称, law number in any numeral style, law
        id), most likely first. More than one entry means the name is ambiguous; none means it is unknown."""
        cached = self._lookups.get(name)
        if cached is not None:
            return list(cached)
        key = _SPACE.sub("", name)
        as_number = normalize_law_num(key)
        found = [*self._by_name.get(key, ()), *self._by_name.get(as_number, ())]
        found += self._by_num.get(as_number, ())
        if key in self._by_id:
            found.append(self._by_id[key])
        if not found and _SHO_MARK.search(name):  # 「財政法　抄」, 「民法施行法（抄）」: a mark, not part of the name
            found = [*self._by_name.get(_SHO.sub("", key), ())]
        unique = {entry.law_id: entry for entry in found}
        answer = sorted(unique.values(), key=_rank)
        if len(self._lookups) < _LOOKUPS_KEPT:
            self._lookups[name] = tuple(answer)
        return answer

    def former_titles(self, name: str) -> tuple[FormerTitle, ...]:
        """The renamings `name` is a former title of, when that is how it names a law (no law bears it today);
        empty otherwise. A lookup of such a name finds the law; this says that it was renamed, and when."""
        return self._by_former.get(_SPACE.sub("", name), ())

    def names(self) -> Iterator[tuple[str, LawEntry]]:
        """Every (surface name, entry) pair a text can cite a law by, for a longest-match automaton: titles,
        bare titles, 略称 and law numbers as e-Gov writes them. Law ids are left out: running text never uses
        them."""
        for name, entries in self._by_name.items():
            for entry in entries:
                yield name, entry

    def parent_of(self, law_id: str) -> LawEntry | None:
        """The law a 施行令 / 施行規則 / 施行法 implements, so that a citation of an ordinance can be read
        together with its Act; None when the law is not one of those or its Act is unknown."""
        entry = self.by_id(law_id)
        if entry is None or entry.parent_law_id is None:
            return None
        return self.by_id(entry.parent_law_id)

    def order_of(self, law_id: str) -> LawEntry | None:
        """The Cabinet Order an ordinance's bare 令 means when the ordinance says so (「…施行令（…。以下「令」
        という。）」, or the Order of its Act that its enacting formula names); None when it does not, in which case
        the Order is its Act's 施行令, found by title."""
        order = self._orders.get(law_id.strip())
        return self.by_id(order) if order is not None else None

    def with_entries(self, entries: Iterable[LawEntry], former: Iterable[FormerTitle] = ()) -> Catalog:
        """A new catalogue with these entries added, replacing any of the same law id (laws found in the store
        know better than a bundled list), and these former titles beside those it had. 略称 and parents are
        derived again, so an added Act gets its 略称 and adopts its 施行令."""
        given = dict(self._given)
        added = {entry.law_id: entry for entry in entries}
        # A law the store knows by its e-Gov id replaces the provisional id the bundled list derived for it.
        numbers = {normalize_law_num(e.law_num) for e in added.values() if not PROVISIONAL_ID.match(e.law_id)}
        for law_id, entry in list(given.items()):
            if PROVISIONAL_ID.match(law_id) and law_id not in added and normalize_law_num(entry.law_num) in numbers:
                del given[law_id]
        given.update(added)
        duplicates = {d: p for d, p in self._duplicates.items() if d not in added}
        return Catalog(given.values(), duplicates, self._aliases, self._parents, self._orders,
                       (*self._former, *former))

    def to_payload(self) -> dict[str, Any]:
        """The JSON layout of a catalogue file: ``laws``, rows ``[law_id, title, law_num, law_type,
        aliases?]`` sorted by id (aliases only where an entry carries its own); ``duplicates``, {duplicate id:
        id that stands for the law}; ``aliases``, the 略称 dictionary; ``parents`` and ``orders``, {ordinance
        id: Act id / Cabinet Order id} that the ordinances themselves state. Parents a title implies are not
        stored: they are derived on load, so that entries added later find theirs too."""
        rows: list[list[Any]] = []
        for law_id in sorted(self._given):
            if law_id in self._duplicates:
                continue
            entry = self._given[law_id]
            row: list[Any] = [entry.law_id, entry.title, entry.law_num, entry.law_type]
            if entry.aliases:
                row.append(list(entry.aliases))
            rows.append(row)
        return {
            "format": FORMAT,
            "laws": rows,
            "duplicates": dict(sorted(self._duplicates.items())),
            "aliases": dict(sorted(self._aliases.items())),
            "parents": dict(sorted(self._parents.items())),
            "orders": dict(sorted(self._orders.items())),
        }


    def to_cache(self) -> dict[str, Any]:
        """The built catalogue as plain data for the user's cache folder (`from_cache` reads it back), laid out for
        a fast read, in columns. Every entry of `_by_id` is one row, each field one string of all rows' values
        joined by U+E000 (a row's 略称 by `_SUB`; no parent is ""). An entry as given that the build changed (a
        略称 or a parent added) is a variant of its row, with only its own 略称 and parent. The indexes are row
        numbers, beside their names joined the same way, a name that is its row's title (or law number) written ""
        (most are: the file is then half as large, and read faster); a name that means several laws is listed in
        ``more`` and numbered after the rows. An entry shared by several names is so one object again when read
        back, and the names come back in their order."""
        entries = list(self._by_id.values())
        numbers = {id(entry): row for row, entry in enumerate(entries)}
        variants = [entry for entry in self._given.values() if id(entry) not in numbers]
        variant_of: list[int] = []
        for entry in variants:
            base = self._by_id[entry.law_id]
            if (base.title, base.law_num, base.law_type) != (entry.title, entry.law_num, entry.law_type):
                raise ValueError(f"{entry.law_id}: the built entry's title, number or type differs from the given")
            numbers[id(entry)] = len(entries) + len(variant_of)
            variant_of.append(numbers[id(base)])
        if any(_SUB in alias for entry in (*entries, *variants) for alias in entry.aliases):
            raise ValueError("a 略称 holds the separator U+E001")

        total = len(numbers)

        def index(mapping: Mapping[str, tuple[LawEntry, ...]], field: str) -> dict[str, Any]:
            if "" in mapping:
                raise ValueError("an empty name is indexed")
            names: list[str] = []
            rows: list[int] = []
            more: list[list[int]] = []
            for name, found in mapping.items():
                if len(found) == 1:
                    names.append("" if name == getattr(found[0], field) else name)
                    rows.append(numbers[id(found[0])])
                else:
                    names.append(name)
                    rows.append(total + len(more))
                    more.append([numbers[id(e)] for e in found])
            return {"names": joined_column(names), "rows": rows, "more": more}

        former_numbers = {f: i for i, f in enumerate(self._former)}
        return {
            "count": len(entries), "law_id": joined_column(e.law_id for e in entries),
            "title": joined_column(e.title for e in entries), "law_num": joined_column(e.law_num for e in entries),
            "law_type": joined_column(e.law_type for e in entries),
            "aliases": joined_column(_SUB.join(e.aliases) for e in entries),
            "parent": joined_column(e.parent_law_id or "" for e in entries),
            "variant_of": variant_of, "variant_aliases": joined_column(_SUB.join(e.aliases) for e in variants),
            "variant_parent": joined_column(e.parent_law_id or "" for e in variants),
            "given": [numbers[id(e)] for e in self._given.values()],
            "by_name": index(self._by_name, "title"), "by_num": index(self._by_num, "law_num"),
            "former": [[f.title, f.law_id, f.new_title, f.renamed_on.isoformat() if f.renamed_on else None,
                        f.source] for f in self._former],
            "by_former": {name: [former_numbers[f] for f in found] for name, found in self._by_former.items()},
            "parents": self._parents, "orders": self._orders, "duplicates": self._duplicates,
            "aliases_dictionary": self._aliases,
        }

    @classmethod
    def from_cache(cls, data: Any) -> Catalog:
        """A catalogue from `to_cache`'s data, checked as it is read: every column a string of as many values as
        there are rows, every row number an integer naming a row, every mapping of strings to strings. Anything
        else raises ValueError (the cache is then built again); nothing in the data can name a class or run code."""
        count = _checked(data, "count", int)
        columns: list[list[Any]] = [split_column(_checked(data, name, str), count) for name in
                                    ("law_id", "title", "law_num", "law_type", "aliases", "parent")]
        columns[4] = [tuple(aliases.split(_SUB)) if aliases else () for aliases in columns[4]]
        columns[5] = [parent or None for parent in columns[5]]
        entries = list(map(LawEntry, *columns))
        bases = _rows(_checked(data, "variant_of", list), entries)
        aliases = split_column(_checked(data, "variant_aliases", str), len(bases))
        parents = split_column(_checked(data, "variant_parent", str), len(bases))
        entries += [LawEntry(base.law_id, base.title, base.law_num, base.law_type,
                             tuple(alias.split(_SUB)) if alias else (), parent or None)
                    for base, alias, parent in zip(bases, aliases, parents, strict=True)]
        alone: list[tuple[LawEntry, ...]] = [(entry,) for entry in entries]
        former: list[FormerTitle] = []
        for row in _checked(data, "former", list):
            if (type(row) is not list or len(row) != 5 or not _strings(row[:3]) or type(row[4]) is not str
                    or not (row[3] is None or type(row[3]) is str)):
                raise ValueError(f"former title {len(former)} is not [title, law_id, new_title, renamed_on, source]")
            former.append(FormerTitle(row[0], row[1], row[2], date.fromisoformat(row[3]) if row[3] else None,
                                      row[4]))

        def index(name: str, column: list[str]) -> dict[str, tuple[LawEntry, ...]]:
            found = _checked(data, name, dict)
            more = _checked(found, "more", list)
            numbers = found.get("rows")
            values = _rows(numbers, [*alone, *(tuple(_rows(rows, entries)) for rows in more)])
            names = split_column(_checked(found, "names", str), len(values))
            return dict(zip([name or column[row] for name, row in zip(names, numbers, strict=True)], values,
                            strict=True))

        catalog = cls.__new__(cls)
        catalog._given = {e.law_id: e for e in _rows(_checked(data, "given", list), entries)}
        catalog._by_id = {e.law_id: e for e in entries[:count]}
        catalog._by_name = index("by_name", columns[1])
        catalog._by_num = index("by_num", columns[2])
        catalog._former = tuple(former)
        catalog._by_former = {name: tuple(_rows(numbers, former))
                              for name, numbers in _checked(data, "by_former", dict).items()}
        for name, key in (("parents", "parents"), ("orders", "orders"), ("duplicates", "duplicates"),
                          ("aliases", "aliases_dictionary")):
            mapping = _checked(data, key, dict)
            if not _strings(mapping.values()):
                raise ValueError(f"{key} maps a name to something other than a string")
            setattr(catalog, f"_{name}", mapping)
        catalog._lookups = {}
        return catalog


_Row = TypeVar("_Row")


def _rows(numbers: Any, table: Sequence[_Row]) -> list[_Row]:
    """The rows of `table` that `numbers` names: a list of integers each naming a row, or ValueError."""
    if type(numbers) is not list or not set(map(type, numbers)) <= {int} or (numbers and min(numbers) < 0):
        raise ValueError("a list of row numbers holds something else")
    try:
        return list(map(table.__getitem__, numbers))
    except IndexError:
        raise ValueError("a row number names a row that is not there") from None
# Separators of the cache's columns: private-use characters, which no law name or id holds (checked on writing),
# and which JSON writes as they are (a control character would be written as an escape, and read more slowly).
_SEP, _SUB = "\ue000", "\ue001"


def joined_column(values: Iterable[str]) -> str:
    """Strings as one cache column (`split_column` reads it back): joined by U+E000, which none may hold."""
    listed = list(values)
    if any(_SEP in value for value in listed):
        raise ValueError("a value holds the separator U+E000")
    return _SEP.join(listed)


def split_column(text: str, count: int) -> list[str]:
    """`count` values from a column `joined_column` wrote; ValueError when it holds another number."""
    values = text.split(_SEP) if count else []
    if len(values) != count or (not count and text):
        raise ValueError(f"a column holds {len(values)} values, not {count}")
    return values


def _checked(data: Any, name: str, kind: type) -> Any:
    """`data[name]`, which must be of type `kind`; ValueError naming the field otherwise (a JSON object's keys are
    strings by the format)."""
    value: Any = data.get(name) if type(data) is dict else None
    if type(value) is not kind:
        raise ValueError(f"{name} is not a {kind.__name__}")
    return value


def _strings(values: Iterable[Any]) -> bool:
    return set(map(type, values)) <= {str}


def encode_catalog(catalog: Catalog, meta: Mapping[str, Any] | None = None) -> bytes:
    """A catalogue file: compact JSON, gzip with a fixed timestamp so that an unchanged build is
    byte-identical."""
    payload = {**catalog.to_payload(), "meta": dict(meta or {})}
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)


# 略称 that judgments use and the jlawcite dictionaries lack, → the official title.
EXTRA_ALIASES: dict[str, str] = {
    "裁判員法": "裁判員の参加する刑事裁判に関する法律",
    "暴力団対策法": "暴力団員による不当な行為の防止等に関する法律",
    "暴対法": "暴力団員による不当な行為の防止等に関する法律",
    "刑事収容施設法": "刑事収容施設及び被収容者等の処遇に関する法律",
}

# Rules of the Supreme Court (最高裁判所規則): cited in judgments like laws, but not in e-Gov, so not in the
# catalogue. Name or 略称 → (title, law number). A citation of one keeps the title and number, with no law id.
COURT_RULES: dict[str, tuple[str, str]] = {
    "刑事訴訟規則": ("刑事訴訟規則", "昭和二十三年最高裁判所規則第三十二号"),
    "刑訴規則": ("刑事訴訟規則", "昭和二十三年最高裁判所規則第三十二号"),
    "少年審判規則": ("少年審判規則", "昭和二十三年最高裁判所規則第三十三号"),
    "民事訴訟規則": ("民事訴訟規則", "平成八年最高裁判所規則第五号"),
    "民訴規則": ("民事訴訟規則", "平成八年最高裁判所規則第五号"),
    "民事執行規則": ("民事執行規則", "昭和五十四年最高裁判所規則第五号"),
    "民事保全規則": ("民事保全規則", "平成二年最高裁判所規則第三号"),
    "破産規則": ("破産規則", "平成十六年最高裁判所規則第十四号"),
    "人事訴訟規則": ("人事訴訟規則", "平成十五年最高裁判所規則第二十四号"),
    "家事事件手続規則": ("家事事件手続規則", "平成二十四年最高裁判所規則第八号"),
    "裁判員の参加する刑事裁判に関する規則": ("裁判員の参加する刑事裁判に関する規則", "平成十九年最高裁判所規則第七号"),
}


#: The bundled catalogue once loaded, and its cache file (None where there is none): what `derived_from_bundled`
#: keys its files by.
_BUNDLED_CACHE: list[tuple[Catalog, Path | None]] = []


class Cached(Protocol):
    """What is kept in the cache folder: an object that is written as plain data and read back from it, checked."""

    def to_cache(self) -> Any: ...

    @classmethod
    def from_cache(cls, data: Any) -> Self: ...


_Derived = TypeVar("_Derived", bound=Cached)
#: The first line of every cache file: the format of what follows (a changed layout is a new format, and an old
#: file is built again instead of misread).
CACHE_FORMAT = "lexgraph-cache 1"


@functools.cache
def _bundled() -> Catalog:
    data = (resources.files("lexgraph") / "data" / "catalog.json.gz").read_bytes()
    cache = _cache_file(data)
    catalog = _read_cache(cache, Catalog, "catalogue")
    if catalog is None:
        payload = json.loads(gzip.decompress(data))
        payload["aliases"] = {**EXTRA_ALIASES, **payload.get("aliases", {})}
        catalog = Catalog.from_payload(payload, former_titles.bundled())
        _write_cache(cache, catalog)
    _BUNDLED_CACHE.append((catalog, cache))
    # The catalogue lives as long as the process and is never changed: its 40 000 objects (entries and their
    # index tuples) would only be walked again by every full run of the cyclic garbage collector, which was a
    # tenth of `lexgraph cite`'s time. Freezing moves them (and what the imports made) out of
    # its sight; they are still freed by reference counting, and nothing loaded later is affected.
    gc.freeze()
    return catalog


# Building the bundled catalogue's indexes (names, numbers, parents) from its 8 500 laws takes most of a short
# `lexgraph cite` (0.4-0.6 s); reading the built catalogue back takes a fraction of that. So the first process to
# build it keeps it in the user's cache folder, named by a hash of the data file, of this module's source and of
# the Python version, so that a changed catalogue, a changed builder or another interpreter builds afresh. The file
# is plain JSON, read back as data and checked (`Catalog.from_cache`): whoever can write it can make lexgraph's
# answers wrong until it is removed, never make it run code. It is the user's own (mode 600, in their cache
# folder), written whole or not at all; a cache folder that cannot be written only means the catalogue is built,
# as before, and a file that cannot be read back is reported in one line and built again.
def _cache_file(data: bytes) -> Path | None:
    try:
        source = Path(__file__).read_bytes()
    except OSError:
        return None
    key = hashlib.sha256(data + source + sys.version.encode() + repr(sorted(EXTRA_ALIASES.items())).encode()
                         + former_titles.bundled_bytes())
    root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return root / "lexgraph" / "catalog" / f"catalog-{key.hexdigest()[:24]}.json"


def derived_from_bundled(catalog: Catalog, kind: str, version: bytes,
                         build: Callable[[Catalog], _Derived], of_type: type[_Derived]) -> _Derived:
    """`build(catalog)`, kept beside the bundled catalogue's cache file when `catalog` is the bundled one: an index
    built from it alone (`citations.lawnames.LawNames`, a fifth of a short `cite` to build) is then
    read back as the catalogue is, under the same rules (the user's own private file of plain data, written whole,
    checked by `of_type.from_cache`; anything else is built). The file is named by the catalogue's file, `kind` and
    `version` (the builder's source), so that a changed catalogue or builder builds afresh; any other catalogue is
    built for each time."""
    held = next((cache for bundled, cache in _BUNDLED_CACHE if bundled is catalog), None)
    if held is None:
        return build(catalog)
    key = hashlib.sha256(held.name.encode() + b"\0" + kind.encode() + b"\0" + version).hexdigest()[:24]
    path = held.parent / f"{kind}-{key}.json"
    found = _read_cache(path, of_type, kind)
    if found is None:
        found = build(catalog)
        _write_cache(path, found)
    return found


#: A cache file larger than this is not read (the catalogue's is about 3 MB): a planted file cannot fill memory.
CACHE_MAX_BYTES = 64 * 1024 * 1024


def _read_cache(path: Path | None, of_type: type[_Derived], what: str) -> _Derived | None:
    """The object kept in `path`, or None when there is none to use (then it is built). A file that is there but
    not the user's private file, not of the cache's format, or whose data `of_type.from_cache` refuses is ignored
    with one line on stderr. Only JSON is parsed: nothing in the file can run code."""
    if path is None:
        return None
    try:
        with open(os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb") as file:
            status = os.fstat(file.fileno())
            if not _own_private_file(path, status):
                _ignored(path, what, "it is not a regular file of this user's that only they can write")
                return None
            if status.st_size > CACHE_MAX_BYTES:
                _ignored(path, what, f"it is larger than {CACHE_MAX_BYTES // 2 ** 20} MB")
                return None
            text = file.read(CACHE_MAX_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as error:
        _ignored(path, what, f"it cannot be read ({error.strerror})")
        return None
    head, _, body = text.partition(b"\n")
    if head.decode("ascii", "replace") != CACHE_FORMAT:
        _ignored(path, what, f"its first line is not {CACHE_FORMAT!r}")
        return None
    try:
        return of_type.from_cache(json.loads(body))
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as error:
        _ignored(path, what, f"its data is not a {what} ({str(error)[:120]})")
        return None


def _ignored(path: Path, what: str, why: str) -> None:
    """The one line a cache file that cannot be used is reported by; the cache is then built again."""
    print(f"lexgraph: ignoring the cached {what} {str(path)!r}: {why}; building it again", file=sys.stderr)


def _own_private_file(path: Path, status: os.stat_result) -> bool:
    """Whether the opened cache file (`status`) is a regular file this user owns and nobody else can write, in a
    folder likewise: anything else (a shared XDG_CACHE_HOME, a file planted by another user) may hold another's
    data, and the catalogue is built instead."""
    try:
        parent = path.parent.stat()
    except OSError:
        return False
    return stat.S_ISREG(status.st_mode) and all(
        checked.st_uid == os.getuid() and not checked.st_mode & 0o022 for checked in (status, parent))


def _write_cache(path: Path | None, value: Cached) -> None:
    if path is None:
        return
    written = None
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle, written = tempfile.mkstemp(dir=path.parent, prefix=".catalog-")  # mode 600
        with os.fdopen(handle, "wb") as file:
            file.write(CACHE_FORMAT.encode() + b"\n")
            file.write(json.dumps(value.to_cache(), ensure_ascii=False, separators=(",", ":")).encode())
        os.replace(written, path)
        written = None
    except (OSError, ValueError):
        pass  # a cache folder that cannot be written (or a value the format cannot hold): built by every process
    finally:
        if written is not None:
            with contextlib.suppress(OSError):
                os.unlink(written)
