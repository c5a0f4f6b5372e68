"""Parse one e-Gov 法令標準XML document into clauses with stable paths.

Both XML generations in circulation are read: the 2020 bulk download (``Num="89"``, ``DataInfo``, ``Delete``) and
the API v2 rendering (``Num="089"``, ``PromulgateMonth``, ``LawTitle Kana/Abbrev``). The parser walks only the
structural containers of the law (本則, 編章節款目, 条, 項, 号, 附則, 別表); everything else inside a clause
(tables, lists, figures, quoted amendment text) is kept as text of that clause. That matters for amending
provisions: articles quoted inside ``NewProvision`` belong to another law and must never become clauses of this
one.

Memory stays flat across files because each call parses one document and returns plain values; callers stream
files through it one at a time.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date

from lxml import etree

from lexgraph.dates import ERA_LATIN, ERAS
from lexgraph.errors import StatuteXmlError
from lexgraph.model import LawMeta, ParsedLaw, ParsedProvision, SentenceText
from lexgraph.numerals import appendix_label, int_to_kanji, kanji_to_int

_HEADING_TAGS = {
    "Part": "PartTitle",
    "Chapter": "ChapterTitle",
    "Section": "SectionTitle",
    "Subsection": "SubsectionTitle",
    "Division": "DivisionTitle",
}
#: A division's path segment (編 pt, 章 ch, 節 se, 款 ss, 目 dv), as citations write it (`TargetRef.path`).
_DIVISION_SEGMENTS = {"Part": "pt", "Chapter": "ch", "Section": "se", "Subsection": "ss", "Division": "dv"}
_SUBITEM_TAGS = tuple(f"Subitem{level}" for level in range(1, 11))
_APPENDIX_KINDS = {
    "AppdxTable": "appdx_table",
    "AppdxNote": "appdx_note",
    "AppdxStyle": "appdx_style",
    "AppdxFormat": "appdx_format",
    "AppdxFig": "appdx_fig",
    "Appdx": "appdx",
    "SupplProvisionAppdxTable": "appdx_table",
    "SupplProvisionAppdxStyle": "appdx_style",
    "SupplProvisionAppdx": "appdx",
}
_TITLE_TAGS = {
    "ArticleTitle", "ArticleCaption", "ParagraphNum", "ParagraphCaption", "ItemTitle", "SupplProvisionLabel",
    *(f"{tag}Title" for tag in _SUBITEM_TAGS),
}
_NUMERAL_RUN = re.compile(r"[〇一二三四五六七八九十百千]+")

PARSER_VERSION = 3
"""Raised whenever the text the parser reads from the same file changes, so that a store can tell a text read by
an older parser (stored on each LawVersion as ``parser``) from a new wording. 2: <Ruby> read as its base text.
3: divisions (編章節款目) become clauses of kind ``division`` (``ch3/se2``), and an appendix is numbered by its
title (別表第二 → ``appdx_table2``), which e-Gov's ``Num`` mostly leaves out."""

_PARSER = etree.XMLParser(
    resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False, remove_comments=True, recover=False
)


@dataclass
class _Walk:
    """Mutable state of one walk over a document; never escapes `parse_law_xml`."""

    provisions: list[ParsedProvision]
    seen_paths: dict[str, int]
    seq: int = 0

    def unique(self, path: str) -> str:
        """Paths must be unique within a version; real files occasionally repeat a number (two 附則 of one
        amending law, an unnumbered clause), so later repeats get ``#2``, ``#3`` in document order."""
        count = self.seen_paths.get(path, 0) + 1
        self.seen_paths[path] = count
        return path if count == 1 else f"{path}#{count}"


def parse_law_xml(data: bytes, source: str) -> ParsedLaw:
    """Parse the bytes of one e-Gov XML file. Raises `StatuteXmlError` for anything that is not a law."""
    if not data.strip():
        raise StatuteXmlError(source, "the file is empty; expected an e-Gov <Law> XML document")
    try:
        root = etree.fromstring(data, _PARSER)
    except etree.XMLSyntaxError as err:
        line = err.lineno if err.lineno else None
        raise StatuteXmlError(
            source, f"not well-formed XML ({err.msg}); the file may be truncated or not XML at all", line
        ) from None
    except ValueError as err:  # lxml refuses some inputs (e.g. unicode with encoding declarations) this way
        raise StatuteXmlError(source, f"unreadable XML: {err}") from None
    if not isinstance(root.tag, str) or root.tag != "Law":
        tag = root.tag if isinstance(root.tag, str) else "?"
        raise StatuteXmlError(
            source, f"root element is <{tag}>, expected <Law> (法令標準XML); is this an e-Gov law file?",
            root.sourceline,
        )
    meta = _read_meta(root, source)
    body = root.find("LawBody")
    if body is None:
        raise StatuteXmlError(source, "<Law> has no <LawBody>; the file is incomplete", root.sourceline)
    walk = _Walk(provisions=[], seen_paths={})
    for child in body:
        tag = child.tag
        if tag == "Preamble":
            _add_flat(walk, child, "preamble", "preamble", "", "前文", "", None)
        elif tag == "MainProvision":
            _walk_container(walk, child, prefix="", heading=())
        elif tag == "SupplProvision":
            _walk_suppl(walk, child, "")
        elif tag in _APPENDIX_KINDS:
            _add_appendix(walk, child, "")
    return ParsedLaw(meta=meta, provisions=tuple(walk.provisions), source=source)


def _read_meta(root: etree._Element, source: str) -> LawMeta:
    law_num_el = root.find("LawNum")
    title_el = root.find("LawBody/LawTitle")
    if law_num_el is None or title_el is None:
        missing = "LawNum" if law_num_el is None else "LawBody/LawTitle"
        raise StatuteXmlError(source, f"<{missing}> is missing; every e-Gov law has one", root.sourceline)
    era = root.get("Era", "")
    year_text = root.get("Year", "")
    year = int(year_text) if year_text.isdigit() else None
    num_attr = root.get("Num", "")
    api_v2 = root.get("PromulgateMonth") is not None or (num_attr.startswith("0") and len(num_attr) > 1)
    promulgated = _promulgation_date(era, year, root.get("PromulgateMonth"), root.get("PromulgateDay"))
    abbrev = tuple(a for a in (title_el.get("Abbrev") or "").split(",") if a)
    return LawMeta(
        law_num=_text(law_num_el).strip(),
        title=_text(title_el).strip(),
        law_type=root.get("LawType", ""),
        era=era,
        year=year,
        num=num_attr.lstrip("0") or num_attr,
        kana=title_el.get("Kana") or "",
        abbrev=abbrev,
        promulgated=promulgated,
        xml_format="api_v2" if api_v2 else "bulk2020",
        enact_statement="".join(_text(e).strip() for e in root.iterfind("LawBody/EnactStatement")),
        open_day=_open_day(root),
    )


def _open_day(root: etree._Element) -> str:
    """e-Gov's note that the day this text takes effect is not fixed. A fixed day is `EnforcementDate`; a text
    with only `ScheduledEnforcementDate` carries the latest day a 政令 may fix (「…を超えない範囲内において政令で
    定める日」) or a placeholder (2117-12-31: 「包括的核実験禁止条約が日本国について効力を生ずる日」), and the file's
    revision id repeats that day, so reading the id's day as the day it took effect would be a guess."""
    fixed = (root.get("EnforcementDate") or "").strip()
    scheduled = (root.get("ScheduledEnforcementDate") or "").strip().replace("/", "-")
    comment = (root.get("EnforcementComment") or "").strip()
    if fixed or not (scheduled or (comment and root.get("Status") == "UnEnforced")):
        return ""
    given = f"; e-Gov gives {scheduled}, not a day it took effect" if scheduled else ""
    return f"施行期日 not fixed: {comment or 'no day given'}{given}"


def _promulgation_date(era: str, year: int | None, month: str | None, day: str | None) -> date | None:
    name = ERA_LATIN.get(era)
    if name is None or year is None or not month or not day or not (month.isdigit() and day.isdigit()):
        return None
    try:
        return date(ERAS[name][0] + year, int(month), int(day))
    except ValueError:
        return None


def _walk_container(
    walk: _Walk, element: etree._Element, prefix: str, heading: tuple[str, ...], division: str | None = None
) -> None:
    """MainProvision, 編, 章, 節, 款, 目 and 附則 bodies: collect their divisions, articles and loose paragraphs.
    `division` is the path of the division being walked (``ch3``), None at the top of a body."""
    for child in element:
        tag = child.tag
        if tag in _HEADING_TAGS:
            title_el = child.find(_HEADING_TAGS[tag])
            title = _text(title_el).strip() if title_el is not None else ""
            path = _add_division(walk, child, title, prefix, heading, division)
            _walk_container(walk, child, prefix, (*heading, title) if title else heading, path)
        elif tag == "Article":
            _add_article(walk, child, prefix, heading)
        elif tag == "Paragraph":  # laws (and 附則) without articles hold paragraphs directly
            _add_paragraph(walk, child, prefix, heading, parent=None)


_DIVISION_TITLE = re.compile(rf"第({_NUMERAL_RUN.pattern})[編章節款目]((?:の{_NUMERAL_RUN.pattern})*)")


def _add_division(
    walk: _Walk, element: etree._Element, title: str, prefix: str, heading: tuple[str, ...], parent: str | None
) -> str:
    """A 編, 章, 節, 款 or 目 as a clause of kind ``division``: its path is the divisions above it and
    its own (``pt3/ch2``, ``ch3/se2``; e-Gov's Num, else the number its title writes), its text its title, so that
    a citation of 第三章 links to the chapter in force on the citing day, and a chapter retitled is a new wording.
    Its articles keep their own paths (``a709``): a division holds them by their heading, not by path."""
    num = _clean_num(element.get("Num") or "", walk.seq)
    if num.startswith("x") and (written := _DIVISION_TITLE.match(title)) is not None:
        num = _division_num(written)
    segment = f"{_DIVISION_SEGMENTS[element.tag]}{num}"
    path = walk.unique(f"{parent}/{segment}" if parent else f"{prefix}{segment}")
    index = _reserve(walk)
    walk.provisions[index] = ParsedProvision(
        path=path, kind="division", num=num, title=title, caption="", heading=" > ".join(heading), text=title,
        sentences=(), seq=index, parent_path=parent,
    )
    return path


def _division_num(written: re.Match[str]) -> str:
    """第四章の二 (matched by `_DIVISION_TITLE`) → "4_2"."""
    numbers = [kanji_to_int(written.group(1)) or 0]
    numbers += [kanji_to_int(b) or 0 for b in re.findall(_NUMERAL_RUN.pattern, written.group(2))]
    return "_".join(str(n) for n in numbers)


def _walk_suppl(walk: _Walk, element: etree._Element, _prefix: str) -> None:
    amend = element.get("AmendLawNum")
    segment = f"suppl[{normalize_amend_law_num(amend)}]" if amend else "suppl"
    segment = walk.unique(segment)
    label_el = element.find("SupplProvisionLabel")
    label = _text(label_el).strip() if label_el is not None else "附則"
    heading = (f"{label}（{amend}）",) if amend else (label,)
    for child in element:
        if child.tag in _APPENDIX_KINDS:
            _add_appendix(walk, child, f"{segment}/")
    _walk_container(walk, element, f"{segment}/", heading)


def normalize_amend_law_num(amend: str) -> str:
    """AmendLawNum writes numbers positionally in one generation (平成一一年) and not in another; turning every
    numeral run into ASCII digits gives both generations the same 附則 path."""
    return _NUMERAL_RUN.sub(lambda m: str(kanji_to_int(m.group()) or m.group()), amend.strip())


def _add_article(walk: _Walk, element: etree._Element, prefix: str, heading: tuple[str, ...]) -> None:
    num = element.get("Num") or ""
    collapsed = _COLLAPSED_RANGE.fullmatch(num)
    if collapsed and _flat_text(element).endswith("削除"):
        _add_deleted_range(walk, int(collapsed.group(1)), int(collapsed.group(2)), prefix, heading)
        return
    path = walk.unique(f"{prefix}a{_clean_num(num, walk.seq)}")
    title = _child_text(element, "ArticleTitle")
    caption = _child_text(element, "ArticleCaption")
    index = _reserve(walk)
    child_texts: list[str] = []
    for child in element:
        if child.tag == "Paragraph":
            child_texts.append(_add_paragraph(walk, child, f"{path}/", heading, parent=path))
        elif child.tag not in _TITLE_TAGS:
            child_texts.append(_flat_text(child))
    body = "\n".join(t for t in child_texts if t)
    text = f"{title}　{body}" if title and body else (title or body)
    walk.provisions[index] = ParsedProvision(
        path=path, kind="article", num=num, title=title, caption=caption, heading=" > ".join(heading),
        text=text, sentences=(), seq=index, parent_path=None,
    )


_COLLAPSED_RANGE = re.compile(r"(\d+):(\d+)")


def _add_deleted_range(walk: _Walk, first: int, last: int, prefix: str, heading: tuple[str, ...]) -> None:
    """One XML generation writes deleted articles one by one (第三十八条 削除 … 第八十四条 削除), the other
    collapses them (Num="38:84", 第三十八条から第八十四条まで 削除). Expanding the collapsed form gives both the
    same clauses, so that a change of XML generation is not mistaken for a change of law."""
    deleted = (SentenceText("本文", "削除"),)
    for number in range(first, last + 1):
        path = walk.unique(f"{prefix}a{number}")
        title = f"第{int_to_kanji(number)}条"
        article_index = _reserve(walk)
        paragraph_index = _reserve(walk)
        walk.provisions[article_index] = ParsedProvision(
            path=path, kind="article", num=str(number), title=title, caption="", heading=" > ".join(heading),
            text=f"{title}　削除", sentences=(), seq=article_index, parent_path=None,
        )
        walk.provisions[paragraph_index] = ParsedProvision(
            path=f"{path}/p1", kind="paragraph", num="1", title="第一項", caption="", heading=" > ".join(heading),
            text="削除", sentences=deleted, seq=paragraph_index, parent_path=path,
        )


def _add_paragraph(
    walk: _Walk, element: etree._Element, prefix: str, heading: tuple[str, ...], parent: str | None
) -> str:
    num = element.get("Num") or "1"
    path = walk.unique(f"{prefix}p{_clean_num(num, walk.seq)}")
    label = _child_text(element, "ParagraphNum")
    caption = _child_text(element, "ParagraphCaption")
    index = _reserve(walk)
    sentence_el = element.find("ParagraphSentence")
    items = [c for c in element if c.tag == "Item"]
    sentences = _sentences(sentence_el, has_items=bool(items))
    parts = [_join_sentences(sentences)]
    for child in element:
        if child.tag == "Item":
            parts.append(_add_item(walk, child, f"{path}/", heading, path, level=0))
        elif child.tag not in _TITLE_TAGS and child.tag != "ParagraphSentence":
            parts.append(_flat_text(child))
    own = "\n".join(p for p in parts if p)
    text = f"{label}　{own}" if label else own
    walk.provisions[index] = ParsedProvision(
        path=path, kind="paragraph", num=num, title=paragraph_title(path, label), caption=caption,
        heading=" > ".join(heading),
        text=text, sentences=sentences, seq=index, parent_path=parent,
    )
    return text


def _add_item(
    walk: _Walk, element: etree._Element, prefix: str, heading: tuple[str, ...], parent: str, level: int
) -> str:
    """Items (号) and their subitems (イロハ, (1)...) down to Subitem10; nesting depth gives the level."""
    num = element.get("Num") or ""
    segment = "i" if level == 0 else "s"
    path = walk.unique(f"{prefix}{segment}{_clean_num(num, walk.seq)}")
    tag = element.tag
    title = _child_text(element, f"{tag}Title")
    index = _reserve(walk)
    children = [c for c in element if c.tag in _SUBITEM_TAGS]
    sentences = _sentences(element.find(f"{tag}Sentence"), has_items=bool(children))
    parts = [_join_sentences(sentences)]
    for child in element:
        if child.tag in _SUBITEM_TAGS:
            parts.append(_add_item(walk, child, f"{path}/", heading, path, level + 1))
        elif child.tag not in _TITLE_TAGS and child.tag != f"{tag}Sentence":
            parts.append(_flat_text(child))
    own = "\n".join(p for p in parts if p)
    text = f"{title}　{own}" if title else own
    walk.provisions[index] = ParsedProvision(
        path=path, kind="item" if level == 0 else "subitem", num=num, title=title, caption="",
        heading=" > ".join(heading), text=text, sentences=sentences, seq=index, parent_path=parent,
    )
    return text


def _add_appendix(walk: _Walk, element: etree._Element, prefix: str) -> None:
    """An appendix, numbered as its title numbers it (別表第二（第三条関係） → ``appdx_table2``, 別表 →
    ``appdx_table``), the way a citation names it: e-Gov's Num is missing on most appendices of the 2020 archive,
    which left 別表第八 at ``appdx_table#8``. Without a numbered title, e-Gov's Num."""
    kind = _APPENDIX_KINDS[element.tag]
    title_el = next((c for c in element if isinstance(c.tag, str) and c.tag.endswith("Title")), None)
    title = _text(title_el).strip() if title_el is not None else ""
    label = appendix_label(title)
    num = label[1] if label is not None else element.get("Num") or ""
    path = walk.unique(f"{prefix}{kind}{num}")
    _add_flat(walk, element, path, kind, num, title, "", None)


def _add_flat(
    walk: _Walk, element: etree._Element, path: str, kind: str, num: str, title: str, caption: str,
    parent: str | None,
) -> None:
    index = _reserve(walk)
    walk.provisions[index] = ParsedProvision(
        path=path, kind=kind, num=num, title=title, caption=caption, heading="", text=_flat_text(element),
        sentences=(), seq=index, parent_path=parent,
    )


def _reserve(walk: _Walk) -> int:
    """Reserve the clause's place in document order before its children are walked, so parents precede them."""
    index = walk.seq
    walk.seq += 1
    walk.provisions.append(None)  # type: ignore[arg-type]  # filled in by the caller once children are known
    return index


def paragraph_title(path: str, printed: str) -> str:
    """A paragraph as a lawyer names it, 第二項, from its path, one style for every paragraph: e-Gov prints ２, and
    nothing for an article's first or only paragraph, which left most paragraphs without a title. The
    printed number stays in the text. A paragraph numbered otherwise (p2_2) keeps what e-Gov prints."""
    number = path.rsplit("/", 1)[-1].removeprefix("p")
    return f"第{int_to_kanji(int(number))}項" if number.isdigit() and int(number) > 0 else printed


def _clean_num(num: str, fallback: int) -> str:
    """Num attributes are ASCII in both generations but may be padded ("089") or missing."""
    if not num:
        return f"x{fallback}"
    parts = [p.lstrip("0") or "0" if p.isdigit() else p for p in re.split(r"([_:])", num)]
    return "".join(parts)


def _sentences(container: etree._Element | None, has_items: bool) -> tuple[SentenceText, ...]:
    """Sentence roles as the markup gives them: Function="main"/"proviso" → 本文/ただし書; a clause with items
    opens with its 柱書; two plain sentences are 前段/後段; table-like Columns are 列1, 列2, …"""
    if container is None:
        return ()
    result: list[SentenceText] = []
    columns = [c for c in container if c.tag == "Column"]
    if columns:
        for position, column in enumerate(columns, start=1):
            result.append(SentenceText(f"列{column.get('Num') or position}", _text(column).strip()))
        return tuple(result)
    plain = [s for s in container if s.tag == "Sentence"]
    functions = [s.get("Function") for s in plain]
    for position, sentence in enumerate(plain, start=1):
        function = sentence.get("Function")
        if function == "main":
            role = "本文"
        elif function == "proviso":
            role = "ただし書"
        elif len(plain) == 1:
            role = "柱書" if has_items else "本文"
        elif not any(functions):
            role = {1: "前段", 2: "後段"}.get(position, f"第{position}文")
        else:
            role = f"第{position}文"
        result.append(SentenceText(role, _text(sentence).strip()))
    others = [c for c in container if c.tag not in ("Sentence", "Column")]
    result.extend(SentenceText("", _flat_text(o)) for o in others)
    return tuple(result)


def _join_sentences(sentences: tuple[SentenceText, ...]) -> str:
    if any(s.role.startswith("列") for s in sentences):
        return "　".join(s.text for s in sentences)
    return "".join(s.text for s in sentences)


def _child_text(element: etree._Element, tag: str) -> str:
    child = element.find(tag)
    return _text(child).strip() if child is not None else ""


def _text(element: etree._Element | None) -> str:
    """Text content without ruby readings (<Rt>), which would otherwise double every glossed word."""
    if element is None:
        return ""
    return "".join(_iter_text(element))


def _iter_text(element: etree._Element) -> Iterator[str]:
    if element.tag == "Rt":
        return
    if element.tag == "Ruby":
        yield _ruby_base(element)
        return
    if element.text:
        yield element.text
    for child in element:
        if isinstance(child.tag, str):
            yield from _iter_text(child)
        if child.tail:
            # A line break right after </Ruby> (``<Ruby>瑕…</Ruby>⏎<Ruby>疵…``) is the file's layout, not text.
            yield _RUBY_TAIL_BREAK.sub("", child.tail) if child.tag == "Ruby" else child.tail


_RUBY_TAIL_BREAK = re.compile(r"^[ \t]*\n\s*")


def _ruby_base(ruby: etree._Element) -> str:
    """The glossed word of a <Ruby> without its reading (<Rt>). One XML generation breaks the line after </Rt>
    (``失<Ruby>踪<Rt>そう</Rt>⏎</Ruby>の宣告``); a ruby base is a word and never holds whitespace, so all of it is
    markup and is dropped, or 「（失踪⏎の宣告）」 would differ from 「（失踪の宣告）」 between generations."""
    pieces = [ruby.text or ""]
    for child in ruby:
        if isinstance(child.tag, str) and child.tag != "Rt":
            pieces.extend(_iter_text(child))
        pieces.append(child.tail or "")
    return "".join("".join(pieces).split())


def _flat_text(element: etree._Element) -> str:
    """Tables become tab-separated lines and other blocks one line per sentence-like element, so that 別表 and
    lists stay readable as text."""
    lines: list[str] = []
    _collect_lines(element, lines)
    return "\n".join(line for line in lines if line.strip())


_LINE_TAGS = {
    "Sentence", "ListSentence", "Sublist1Sentence", "Sublist2Sentence", "Sublist3Sentence", "AppdxTableTitle",
    "TableStructTitle", "RelatedArticleNum", "Remarks", "RemarksLabel", "ArithFormula", "Fig",
}


def _collect_lines(element: etree._Element, lines: list[str]) -> None:
    tag = element.tag
    if not isinstance(tag, str) or tag == "Rt":
        return
    if tag in ("TableRow", "TableHeaderRow"):
        cells = [" ".join(_text(cell).split()) for cell in element if isinstance(cell.tag, str)]
        lines.append("\t".join(cells))
        return
    if tag in _LINE_TAGS or tag in _TITLE_TAGS:
        lines.append(_text(element).strip())
        return
    if len(element) == 0:
        if element.text and element.text.strip():
            lines.append(element.text.strip())
        return
    for child in element:
        _collect_lines(child, lines)
