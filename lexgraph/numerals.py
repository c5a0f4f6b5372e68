"""Numbers as Japanese legal text writes them, and clause references as lexgraph's provision paths.

The same article is written 第七百九条 (statutes), 七〇九条 (positional kanji, older judgments), ７０９条 (full-width,
newer judgments) and 709条 (books, web pages). e-Gov identifies it by its ``Num`` attribute ("709", and "3_2" for
the branch article 第三条の二), and lexgraph's provision paths are built from those Nums (``a709/p1/i2``). Every
module that reads a number or a clause goes through this one, so that they all agree.

Pure functions only; nothing here imports lexgraph, so the tokenizer, the e-Gov parser and the citation extractor
can all use it without pulling each other in.
"""

from __future__ import annotations

import re
import sys
from functools import lru_cache

# 壱弐参拾 appear in old documents and deeds; 〇 and 零 both mean zero.
_DIGITS = {
    "〇": 0, "零": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9,
    "壱": 1, "弐": 2, "参": 3,
}
_UNITS = {"十": 10, "拾": 10, "百": 100, "千": 1000}
_MYRIADS = {"万": 10_000, "億": 100_000_000}
_FULLWIDTH = str.maketrans("０１２３４５６７８９", "0123456789")
_KANJI_FOR_DIGIT = "〇一二三四五六七八九"

#: Every character a number may be written with (ASCII, full-width and kanji digits, kanji units).
NUMERAL_CHARS = "0-9０-９〇零一二三四五六七八九十百千万壱弐参拾"

# イロハ order of subitems (Subitem1 Num="1" is イ); ヰ and ヱ keep their historical places.
IROHA = "イロハニホヘトチリヌルヲワカヨタレソツネナラムウヰノオクヤマケフコエテアサキユメミシヱヒモセス"
_IROHA_INDEX = {ch: i + 1 for i, ch in enumerate(IROHA)}
# Parenthesised numerals used for second-level subitems: ⑴ … ⒇.
_PAREN_DIGITS = {chr(0x2474 + i): i + 1 for i in range(20)}

_N = f"[{NUMERAL_CHARS}]+"
_WHITESPACE = re.compile(r"\s+")
_EGOV_NUM = re.compile(rf"第?({_N})[条項号]?((?:の{_N})*)")
_BRANCH = re.compile(rf"の({_N})")


@lru_cache(maxsize=4096)  # pure; a text writes the same few numbers again and again
def kanji_to_int(text: str) -> int | None:
    """An integer written in any of the numeral styles of legal text, or None if `text` is not one number.

    七百九 → 709 (units), 七〇九 / 七一五 → 709 / 715 (positional), ７０９ → 709 (full-width), 709, 千二百三十四 → 1234,
    元 (the first year of an era) → 1, 十 → 10, 二十 → 20. Mixed or malformed text (十十, 7百, 三x) gives None
    rather than a guess, because a wrong article number is worse than none.
    """
    s = text.strip().translate(_FULLWIDTH)
    if not s:
        return None
    if s.isascii():
        return int(s) if s.isdigit() else None
    if s == "元":
        return 1
    if all(c in _DIGITS for c in s):  # positional: 七〇九, 一九九八
        value = 0
        for c in s:
            value = value * 10 + _DIGITS[c]
        return value
    return _read_with_units(s)


def _read_with_units(s: str) -> int | None:
    """千二百三十四 style: digits multiply the unit after them; units must fall within each 万 section."""
    total = 0
    section = 0
    digit: int | None = None
    last_unit = 10_000
    last_myriad = 10**12
    for c in s:
        if c in _DIGITS:
            if digit is not None:  # 二三 inside a number with units is not a number
                return None
            digit = _DIGITS[c]
        elif c in _UNITS:
            unit = _UNITS[c]
            if unit >= last_unit or digit == 0:
                return None
            section += (1 if digit is None else digit) * unit
            last_unit, digit = unit, None
        elif c in _MYRIADS:
            myriad = _MYRIADS[c]
            section += digit or 0
            if myriad >= last_myriad or section == 0:
                return None
            total += section * myriad
            section, digit, last_unit, last_myriad = 0, None, 10_000, myriad
        else:
            return None
    return total + section + (digit or 0)


def int_to_kanji(n: int) -> str:
    """An integer in the kanji form statutes use: 709 → 七百九, 10 → 十, 1234 → 千二百三十四, 0 → 〇."""
    if n < 0:
        raise ValueError(f"no kanji form for a negative number: {n}")
    if n == 0:
        return "〇"
    parts = []
    for unit, value in (("億", 100_000_000), ("万", 10_000)):
        high, n = divmod(n, value)
        if high:
            parts.append(int_to_kanji(high) + unit)
    for unit, value in (("千", 1000), ("百", 100), ("十", 10)):
        digit, n = divmod(n, value)
        if digit:
            parts.append(("" if digit == 1 else _KANJI_FOR_DIGIT[digit]) + unit)
    if n:
        parts.append(_KANJI_FOR_DIGIT[n])
    return "".join(parts)


@lru_cache(maxsize=4096)  # pure, and called for every clause a text cites
def egov_num(text: str) -> str | None:
    """An article, paragraph or item number in e-Gov ``Num`` form: 第三条の二 → "3_2", ３条の２ → "3_2",
    第七百九条 → "709", 三条の二の三 → "3_2_3", 第十六号 → "16". None when `text` is not such a number."""
    match = _EGOV_NUM.fullmatch(_WHITESPACE.sub("", text))
    if match is None:
        return None
    numbers = [kanji_to_int(match.group(1))]
    numbers += [kanji_to_int(b) for b in _BRANCH.findall(match.group(2))]
    if any(n is None for n in numbers):
        return None
    return "_".join(str(n) for n in numbers)


def subitem_num(mark: str) -> str | None:
    """A subitem mark in e-Gov Num form: イ → "1", ハ → "3", (1) / （１） / ⑴ → "1". None for anything else."""
    mark = _WHITESPACE.sub("", mark)
    if mark in _IROHA_INDEX:
        return str(_IROHA_INDEX[mark])
    if mark in _PAREN_DIGITS:
        return str(_PAREN_DIGITS[mark])
    if len(mark) >= 3 and mark[0] in "(（" and mark[-1] in ")）":
        value = kanji_to_int(mark[1:-1])
        return str(value) if value is not None else None
    return None


# --- provision paths -------------------------------------------------------------------------------------------

_NUM_PATH = r"\d+(?:_\d+)*"
# suppl, suppl[平成11年法律第149号] (附則 of an amending law) and suppl#2 (a second 附則 without a law number).
_SUPPL_PATH = r"suppl(?:\[[^\]/]+\])?(?:#\d+)?/"
_PATH = re.compile(
    rf"(?P<suppl>{_SUPPL_PATH})?"
    rf"(?:a(?P<a>{_NUM_PATH}))?(?:/?p(?P<p>{_NUM_PATH}))?(?:/?i(?P<i>{_NUM_PATH}))?(?P<s>(?:/?s{_NUM_PATH})*)"
)
_SUBITEM_MARK = rf"[{IROHA}](?![ァ-ヴー])|[(（][{NUMERAL_CHARS}]+[)）]|[⑴-⒇]"
_CLAUSE = re.compile(
    rf"(?P<suppl>附則(?:[（(](?P<amend>[^（）()]+?)[）)])?)?"
    rf"(?:第?(?P<a>{_N})条(?P<ab>(?:の{_N})*))?"
    rf"(?:第?(?P<p>{_N})項)?"
    rf"(?:第?(?P<i>{_N})号(?P<ib>(?:の{_N})*))?"
    rf"(?P<s>(?:{_SUBITEM_MARK})*)"
    r"(?:本文|ただし書き?|但書|柱書き?|前段|後段|各号|各項)?"
)
_SUBITEM_MARKS = re.compile(_SUBITEM_MARK)
_ASCII_NUMERALS = re.compile(rf"[{NUMERAL_CHARS}]+")


def parse_clause(text: str) -> str | None:
    """A clause reference, Japanese or already a path, as lexgraph's provision path; None if it is not one.

    第三条の二第一項第二号 → "a3_2/p1/i2", 709条 → "a709", 七〇九条一項 → "a709/p1", 附則第二条 → "suppl/a2",
    第一号イ(1) → "p1/i1/s1/s1". An item always sits in a paragraph in e-Gov, so 第二条第一号 means paragraph 1:
    "a2/p1/i1". A trailing 本文 / ただし書 / 柱書 / 前段 / 後段 / 各号 is accepted and dropped, since a path
    names a clause and not a sentence of it. Paths (``a709/p1``) are validated and given back in canonical form.
    """
    compact = _WHITESPACE.sub("", text)
    if not compact:
        return None
    outside = _outside_articles(compact)
    if outside is not None:
        return outside
    path = _PATH.fullmatch(compact)
    if path is not None and (path["a"] or path["p"] or path["i"]):
        subitems = tuple(s for s in path["s"].split("/") if s)
        return build_path(path["suppl"][:-1] if path["suppl"] else None, path["a"], path["p"], path["i"],
                          tuple(s[1:] for s in subitems))
    clause = _CLAUSE.fullmatch(compact)
    if clause is None or not (clause["a"] or clause["p"] or clause["i"]):
        return None
    article = egov_num(clause["a"] + clause["ab"]) if clause["a"] else None
    paragraph = egov_num(clause["p"]) if clause["p"] else None
    item = egov_num(clause["i"] + clause["ib"]) if clause["i"] else None
    subitems = tuple(subitem_num(m) for m in _SUBITEM_MARKS.findall(clause["s"]))
    if (clause["a"] and article is None) or (clause["p"] and paragraph is None) or (clause["i"] and item is None):
        return None
    if any(s is None for s in subitems) or (subitems and item is None):
        return None
    suppl = None
    if clause["suppl"]:
        amend = clause["amend"]
        suppl = "suppl" if amend is None else f"suppl[{_ascii_numerals(amend)}]"
    return build_path(suppl, article, paragraph, item, tuple(s for s in subitems if s is not None))


_DIVISION_CHAIN = re.compile(rf"(?P<suppl>附則)?(?P<chain>(?:第{_N}[編章節款目](?:の{_N})*)+)")
_DIVISION_LINK = re.compile(rf"第({_N})([編章節款目])((?:の{_N})*)")
#: An appendix as `_outside_articles` paths it (``appdx_table1``, ``appdx_style2_2``, ``appdx``).
_APPENDIX_PATH = re.compile(r"(?:appdx_table|appdx_note|appdx_style|appdx_format|appdx_fig|appdx)(?:\d+(?:_\d+)*)?")
_DIVISION_PATH = re.compile(r"(?:suppl/)?(?:(?:pt|ch|se|ss|dv)\d+(?:_\d+)*/)*(?:pt|ch|se|ss|dv)\d+(?:_\d+)*")
#: The e-Gov kinds an appendix written with each word (`appendix_label`) may be stored as, the likeliest first:
#: 別記様式 is an AppdxStyle in one law and an AppdxNote or AppdxFormat in another (read.spans looks for each).
APPENDIX_PLACES = {
    "別表": ("appdx_table",), "様式": ("appdx_style", "appdx_format", "appdx_note"),
    "別記様式": ("appdx_style", "appdx_note", "appdx_format"),
    "別紙様式": ("appdx_style", "appdx_note", "appdx_format"),
    "別記": ("appdx_note", "appdx_style"),
    "書式": ("appdx_format", "appdx_style"), "別図": ("appdx_fig",), "付録": ("appdx",), "別紙": ("appdx",),
}
#: The e-Gov kind of an appendix by the word that names it, as a path is written without a store: the likeliest
#: place; 別紙 alone names no e-Gov kind of its own.
APPENDIX_KINDS = {word: kinds[0] for word, kinds in APPENDIX_PLACES.items() if word != "別紙"}


def division_path(written: str) -> str | None:
    """第二章第三節 → ``ch2/se3``, 第四編第二章の二 → ``pt4/ch2_2``: a division as statutes.egov paths it."""
    segments = []
    for number, word, branches in _DIVISION_LINK.findall(written):
        segment = division_segment(number, word, branches)
        if segment is None:
            return None
        segments.append(segment)
    return "/".join(segments) or None


def division_segment(number: str, word: str, branches: str) -> str | None:
    """One level of a division path: 第二章の二 (``二``, ``章``, ``の二``) → ``ch2_2``; None for a bad number."""
    num = egov_num(number + branches)
    return None if num is None else DIVISION_KEYS[word] + num


@lru_cache(maxsize=4096)  # a law's clauses share a few dozen headings
def division_of(heading: str) -> str | None:
    """The division a clause sits in, from its heading as statutes.egov writes it ("第二編　物権 > 第三章　所有権 >
    第一節　所有権の限界"): ``pt2/ch3/se1``; None outside any division. Interned: a corpus keeps one per clause."""
    segments = []
    for title in heading.split(" > "):
        found = _DIVISION_LINK.match(_WHITESPACE.sub("", title))
        if found is None:
            continue
        segment = division_segment(*found.groups())
        if segment is None:
            return None
        segments.append(segment)
    return sys.intern("/".join(segments)) if segments else None


def _outside_articles(compact: str) -> str | None:
    """A division (第三章第二節, ``ch3/se2``) or an appendix (別表第一, ``appdx_table1``) as its path; None for
    anything else. A path given back is accepted again as it is."""
    if _DIVISION_PATH.fullmatch(compact) or _APPENDIX_PATH.fullmatch(compact):
        return compact
    chain = _DIVISION_CHAIN.fullmatch(compact)
    if chain is not None:
        path = division_path(chain["chain"])
        return None if path is None else ("suppl/" if chain["suppl"] else "") + path
    label = appendix_label(compact)
    if label is not None and APPENDIX_KINDS.get(label[0]) and _APPENDIX_LABEL.fullmatch(compact):
        return APPENDIX_KINDS[label[0]] + label[1]
    return None


def build_path(
    suppl: str | None, article: str | None, paragraph: str | None, item: str | None,
    subitems: tuple[str, ...] = (),
) -> str | None:
    """Join e-Gov Nums into a path, adding paragraph 1 under an item that names none (e-Gov puts every item in a
    paragraph). None when nothing is given or subitems have no item."""
    if not (article or paragraph or item) or (subitems and not item):
        return None
    segments = [f"a{article}"] if article else []
    if paragraph or item:
        segments.append(f"p{paragraph or '1'}")
    if item:
        segments.append(f"i{item}")
    segments += [f"s{s}" for s in subitems]
    return (f"{suppl}/" if suppl else "") + "/".join(segments)


def _ascii_numerals(text: str) -> str:
    """平成十一年法律第百四十九号 → 平成11年法律第149号: the form e-Gov 附則 paths carry (see statutes.egov)."""
    return _ASCII_NUMERALS.sub(lambda m: str(kanji_to_int(m.group()) or m.group()), text)


# --- provision paths back to Japanese ---------------------------------------------------------------------------

#: What e-Gov calls the clauses outside articles, as a lawyer names them (statutes.egov gives these kinds).
_FLAT_LABELS = {
    "preamble": "前文", "appdx_table": "別表", "appdx_note": "別記", "appdx_style": "様式", "appdx_format": "書式",
    "appdx_fig": "別図", "appdx": "付録",
}
_FLAT_SEGMENT = re.compile(r"(?P<kind>preamble|appdx_table|appdx_note|appdx_style|appdx_format|appdx_fig|appdx)"
                           r"(?P<num>\d*(?:_\d+)*)")
_SUPPL_SEGMENT = re.compile(r"suppl(?:\[(?P<amend>[^\]]+)\])?")
_NUMBERED_SEGMENT = re.compile(r"(?P<kind>[apis])(?P<num>\d+(?:_\d+)*(?::\d+(?:_\d+)*)?)")
_REPEAT = re.compile(r"#(?P<n>\d+)$")
_LOWER_ROMAN = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii", "xiii", "xiv", "xv",
                "xvi", "xvii", "xviii", "xix", "xx")


def clause_label(path: str) -> str:
    """A provision path as a lawyer writes the clause: the inverse of `parse_clause`, for every human output.

    a709/p1 → 第七百九条第一項, a3_2/p1/i2 → 第三条の二第一項第二号, a465_9/p1/i2/s4 → 第四百六十五条の九第一項第二号ニ,
    suppl/a2 → 附則第二条, suppl[平成30年7月27日法律第80号]/a1 → 附則（平成30年7月27日法律第80号）第一条,
    appdx_table1 → 別表第一, ch3/se2 → 第三章第二節, pt4/ch2_2 → 第四編第二章の二,
    i2:3 (a collapsed range) → 第二号から第三号まで. A segment it cannot read is kept as
    it is, so that the label is never blank and never hides part of the path.
    """
    parts: list[str] = []
    subitem_level = 0
    for segment in (s for s in path.split("/") if s):
        repeat = _REPEAT.search(segment)
        core = segment[: repeat.start()] if repeat else segment
        label = _segment_label(core, subitem_level)
        if core.startswith("s") and _NUMBERED_SEGMENT.fullmatch(core):
            subitem_level += 1
        parts.append((label if label is not None else core) + (f"（その{repeat['n']}）" if repeat else ""))
    return "".join(parts) or path


#: An appendix as its title or a citation writes it: 別表第二, 別表第２, 別表第二の二, 様式第一号, 別記様式第三,
#: 別紙様式第１号, 第一号様式, 別記第一号様式, 別表 alone. The word, then the number in e-Gov Num form ("" when
#: none is written).
_APPENDIX_LABEL = re.compile(
    rf"(?:別記(?=第))?(?:第(?P<pre>{_N})号)?(?P<word>別記様式|別紙様式|別表|様式|書式|別記|別図|付録|別紙)"
    rf"(?:第(?P<n>{_N})(?P<b>(?:の{_N})*)号?(?P<b2>(?:の{_N})*))?"
)


def appendix_label(text: str) -> tuple[str, str] | None:
    """(word, number) of the appendix label `text` starts with: 別表第二（第三条関係） → ("別表", "2"), 様式第一号の二
    → ("様式", "1_2"), 別表 → ("別表", ""); None when it starts with none. One reading for the parser (which numbers
    an appendix by its title, ``appdx_table2``) and the resolver (which finds it from the citation's words)."""
    match = _APPENDIX_LABEL.match(_WHITESPACE.sub("", text))
    if match is None:
        return None
    first = match["pre"] or match["n"]
    if first is None:
        return match["word"], ""
    branches = _BRANCH.findall((match["b"] or "") + (match["b2"] or ""))
    numbers = [kanji_to_int(first)] + [kanji_to_int(b) for b in branches]
    if any(n is None for n in numbers):
        return None
    return match["word"], "_".join(str(n) for n in numbers)


#: A division's path segment (pt 編, ch 章, se 節, ss 款, dv 目) as a lawyer writes it.
_DIVISION_WORDS = {"pt": "編", "ch": "章", "se": "節", "ss": "款", "dv": "目"}
#: A division's level word → its path key, from the highest level (編) down.
DIVISION_KEYS = {word: key for key, word in _DIVISION_WORDS.items()}
_DIVISION_SEGMENT = re.compile(r"(?P<kind>pt|ch|se|ss|dv)(?P<num>\d+(?:_\d+)*)")


def _segment_label(segment: str, subitem_level: int) -> str | None:
    suppl = _SUPPL_SEGMENT.fullmatch(segment)
    if suppl is not None:
        return f"附則（{suppl['amend']}）" if suppl["amend"] else "附則"
    division = _DIVISION_SEGMENT.fullmatch(segment)
    if division is not None:
        return _numbered(division["num"], _DIVISION_WORDS[division["kind"]])
    flat = _FLAT_SEGMENT.fullmatch(segment)
    if flat is not None:
        number = _kanji_num(flat["num"]) if flat["num"] else ""
        return _FLAT_LABELS[flat["kind"]] + (f"第{number}" if number else "")
    numbered = _NUMBERED_SEGMENT.fullmatch(segment)
    if numbered is None:
        return None
    kind, nums = numbered["kind"], numbered["num"].split(":")
    if kind == "s":
        marks = [_subitem_mark(n, subitem_level) for n in nums]
        return "から".join(marks) + ("まで" if len(marks) > 1 else "")
    unit = {"a": "条", "p": "項", "i": "号"}[kind]
    numbers = [_numbered(n, unit) for n in nums]
    return "から".join(numbers) + ("まで" if len(numbers) > 1 else "")


def _numbered(num: str, unit: str) -> str:
    """3_2 with 条 → 第三条の二 (e-Gov's branch numbers follow the unit)."""
    main, *branches = num.split("_")
    return f"第{int_to_kanji(int(main))}{unit}" + "".join(f"の{int_to_kanji(int(b))}" for b in branches)


def _kanji_num(num: str) -> str:
    main, *branches = num.split("_")
    return int_to_kanji(int(main)) + "".join(f"の{int_to_kanji(int(b))}" for b in branches)


def _subitem_mark(num: str, level: int) -> str:
    """Subitems are marked イロハ at the first level, (1) at the second and (i) at the third, as e-Gov prints them."""
    n = int(num.split("_")[0])
    if level == 0 and 1 <= n <= len(IROHA):
        mark = IROHA[n - 1]
    elif level == 2 and 1 <= n <= len(_LOWER_ROMAN):
        mark = f"({_LOWER_ROMAN[n - 1]})"
    else:
        mark = f"({n})"
    return mark + "".join(f"の{int_to_kanji(int(b))}" for b in num.split("_")[1:])
