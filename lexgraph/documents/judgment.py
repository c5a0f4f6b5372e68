"""Supreme Court judgments as text: the header, the sections, and the metadata published beside them.

A judgment becomes a ``Precedent`` node (court, date, decision type, case number, case name) and the chunks of its
sections. Everything here reads text that was extracted from the courts' PDFs, so it is written for what that text
really looks like:

* The header (case number, date, case name, bench and type) comes in any order of lines, with the case name
  wrapped anywhere (「…特別抗告事」「件」), sometimes on the line of the case number or of the date, and the case
  numbers wrapped too (「第１３６」「号，第１４０号」). About one judgment in seven (the older ones) has no header
  at all and starts with 主文; their date, bench and type are then read from the closing lines (「昭和三二年六月
  二一日 最高裁判所第二小法廷」, 「主文のとおり判決する。」) when the text has them.
* Headings are spread over lines with other text between them: 「主」「１」「文」, 「理」「第１」「由」.
* The separate opinions (補足意見, 意見, 反対意見) start with 「裁判官…の補足意見は，次のとおりである。」, and
  the judges' names at the end (「(裁判長裁判官 …」) are a signature, not text.

Parsing never raises: what cannot be found is None and named in ``problems``, so that an ingest can load every
judgment and report the weak ones. The metadata records (``sample_supreme_court_metadata.jsonl``, from
japanese-law-analysis/data_set) and the list of landmark cases (``landmarks.csv``) are read here too, strictly:
a malformed record is an error that names its line and field.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import Any, cast

from lexgraph.citations.dates import ERAS, parse_japanese_date
from lexgraph.documents.chunking import PAGE_MARKER_RE
from lexgraph.documents.datafiles import open_regular
from lexgraph.documents.encoding import decode_text
from lexgraph.documents.jsonl import BadLine, line_where, read_records
from lexgraph.errors import InputError
from lexgraph.numerals import kanji_to_int

SUPREME_COURT = "最高裁判所"
BENCHES = ("大法廷", "第一小法廷", "第二小法廷", "第三小法廷")
DECISION_TYPES = ("判決", "決定")

_N = r"[0-9０-９〇一二三四五六七八九十百千]+"
_ERA = "|".join(ERAS)
_YEAR = rf"(?:{_ERA})(?:{_N}|元)年"
_CODE = r"[（(][^（）()\s]{1,6}[）)]"
_NUMBER = rf"第?{_N}号(?:の{_N})?"
_CASE = rf"{_YEAR}{_CODE}{_NUMBER}"
_SAME_YEAR = rf"同(?:{_N}|元)?年"  # 「第２２２号，同年（行ヒ）第２６２号」
_CASE_LIST_RE = re.compile(
    rf"(?:{SUPREME_COURT})?({_CASE}(?:[，,、](?:(?:{_YEAR}|{_SAME_YEAR})?(?:{_CODE})?{_NUMBER}))*)"
)
_CASE_PART_RE = re.compile(
    rf"(?P<year>{_YEAR}|{_SAME_YEAR})?(?P<code>{_CODE})?第?(?P<no>{_N})号(?:の(?P<branch>{_N}))?"
)
_DATE_RE = re.compile(rf"(?:{_ERA})(?:{_N}|元)年{_N}月{_N}日")
_BENCH_TYPE_RE = re.compile(r"(大法廷|第[一二三１２３123]小法廷)(判決|決定)")
_TYPE_ALONE_RE = re.compile(r"^(判決|決定)$")
_BENCH_DIGITS = str.maketrans("１２３123", "一二三一二三")
_SPACES_RE = re.compile(r"\s+")
_FOOTER_COURT_RE = re.compile(rf"{SUPREME_COURT}(大法廷|第[一二三]小法廷)")
_CLOSING_TYPE_RE = re.compile(r"(?:主文|次)の(?:とおり|通り|如く)(判決|決定)する")
_PRESIDING_RE = re.compile(r"裁\s*判\s*長\s*裁\s*判\s*官")
_OPINION_RE = re.compile(
    r"裁\s*判\s*官(?P<judges>[^。]{1,80}?)の\s*(?P<kind>補\s*足\s*意\s*見|反\s*対\s*意\s*見|意\s*見)\s*は\s*[，、,]"
    r"\s*次\s*の\s*と\s*お\s*り"
)
_ITEM_NUMBER_RE = re.compile(rf"^(?:第?{_N}|[(（]{_N}[)）]|[ア-ン])$")  # 「１」「第１」「(1)」「ア」 between 主 and 文
_HEADER_LINES = 25  # a header is short; 主文 further down means the text has none
_HEADING_GAP = 6  # lines between 主 and 文 (「主」「１」「文」)


# ----------------------------------------------------------------------------------------------------
# Values


@dataclass(frozen=True)
class Section:
    """A part of a judgment: 前文 (text between header and 主文), 主文, 理由, a separate opinion (補足意見, 意見,
    反対意見), or 別紙 (an appendix after the signature); 本文 when the text has neither 主文 nor 理由 headings.

    ``start``/``end`` are offsets into the judgment text, after the heading (the heading's characters and
    whatever the PDF put between them, such as the 「１」 of 「主」「１」「文」, are not part of the section).
    ``judges`` names the authors of an opinion (「須藤正彦」; 「山本庸幸」「大谷直人」 for a joint one).
    """

    name: str
    start: int
    end: int
    judges: tuple[str, ...] = ()


@dataclass(frozen=True)
class ParsedJudgment:
    """What could be read from one judgment's text; fields not found are None and listed in ``problems``.

    ``case_numbers`` are normalised to ASCII digits and half-width parentheses (「平成23年(受)第1833号」, as
    :mod:`lexgraph.citations.precedents` writes them); ``date`` is ISO. ``court`` is 最高裁判所 and ``bench`` the
    panel (大法廷, 第一小法廷 …); :attr:`full_court` joins them as precedent citations spell courts.
    """

    text: str
    source: str | None
    lawsuit_id: str | None
    case_numbers: tuple[str, ...]
    date: str | None
    case_name: str | None
    court: str | None
    bench: str | None
    decision_type: str | None
    sections: tuple[Section, ...]
    problems: tuple[str, ...]

    @property
    def case_number(self) -> str | None:
        """All case numbers joined with 、, or None."""
        return "、".join(self.case_numbers) or None

    @property
    def full_court(self) -> str | None:
        if self.court is None:
            return None
        return self.court + (self.bench or "")

    def section(self, name: str) -> Section | None:
        """The first section called ``name`` (主文, 理由, 補足意見 …), or None."""
        return next((s for s in self.sections if s.name == name), None)

    def section_text(self, name: str) -> str | None:
        found = self.section(name)
        return None if found is None else self.text[found.start:found.end]


# ----------------------------------------------------------------------------------------------------
# Lines


@dataclass(frozen=True)
class _Line:
    start: int  # of the line in the text
    end: int  # of the line, without its line break
    compact: str  # the line without whitespace


def _lines(text: str) -> list[_Line]:
    """The non-blank lines that are not page numbers, with their offsets."""
    out: list[_Line] = []
    pos = 0
    for raw in text.split("\n"):
        end = pos + len(raw)
        compact = _SPACES_RE.sub("", raw)
        if compact and not PAGE_MARKER_RE.match(raw):
            out.append(_Line(pos, end, compact))
        pos = end + 1
    return out


def _heading(lines: list[_Line], first: str, second: str, begin: int = 0) -> tuple[int, int] | None:
    """Index of the line holding the first character of a two-character heading (主文, 理由) and of the line
    holding the last; the characters may share one line or have up to a few lines between them."""
    for i in range(begin, len(lines)):
        if lines[i].compact == first + second:
            return i, i
        if lines[i].compact == first:
            for k in range(i + 1, min(i + 1 + _HEADING_GAP, len(lines))):
                if lines[k].compact == second:
                    return i, k
    return None


# ----------------------------------------------------------------------------------------------------
# Header fields


def _format_number(raw: str) -> str | None:
    value = kanji_to_int(raw)
    return None if value is None else str(value)


def _era_year(raw: str) -> str | None:
    m = re.match(rf"({_ERA})({_N}|元)年", raw)
    if m is None:
        return None
    year = kanji_to_int(m[2])
    if year is None or year < 1:
        return None
    return f"{m[1]}{'元' if year == 1 else year}年"


def normalise_case_numbers(raw: str) -> tuple[str, ...]:
    """「平成３０年（受）第４４号，第４５号」 → ("平成30年(受)第44号", "平成30年(受)第45号").

    Whitespace (line breaks) is ignored; a number without a year or code takes those of the one before it;
    同年 and 同N年 take the era (and year) of the number before; a branch number stays with its number
    (「第２９３号の２」 → 「第293号の2」). Pieces that are not case numbers are skipped.
    """
    compact = _SPACES_RE.sub("", raw)
    out: list[str] = []
    year: str | None = None
    code: str | None = None
    for m in _CASE_PART_RE.finditer(compact):
        if m["year"] and m["year"].startswith("同"):
            if year is not None and m["year"] != "同年":
                year = _era_year(year[:2] + m["year"][1:])
            code = None
        elif m["year"]:
            year = _era_year(m["year"])
            code = None
        if m["code"]:
            code = f"({m['code'][1:-1]})"
        number = _format_number(m["no"])
        if year is None or code is None or number is None:
            continue
        branch = _format_number(m["branch"]) if m["branch"] else None
        out.append(f"{year}{code}第{number}号" + (f"の{branch}" if branch else ""))
    return tuple(out)


def _iso(raw: str) -> str | None:
    day = parse_japanese_date(raw)
    return day.isoformat() if day else None


@dataclass(frozen=True)
class _Header:
    case_numbers: tuple[str, ...] = ()
    date: str | None = None
    case_name: str | None = None
    bench: str | None = None
    decision_type: str | None = None


def _read_header(lines: list[_Line]) -> _Header:
    """Read the header lines: case numbers at the start, the first full date, bench + type, and the rest of
    the text is the case name (its pieces joined in order, except that a piece ending in 事件 goes last: the
    PDF sometimes puts the end of a wrapped name before its beginning)."""
    joined = "".join(line.compact for line in lines)
    consumed = [False] * len(joined)

    def take(s: int, e: int) -> None:
        for i in range(s, e):
            consumed[i] = True

    case_numbers: tuple[str, ...] = ()
    m = _CASE_LIST_RE.match(joined)
    if m:
        case_numbers = normalise_case_numbers(m[1])
        take(m.start(), m.end())
    day: str | None = None
    for m in _DATE_RE.finditer(joined):
        if consumed[m.start()]:
            continue
        day = _iso(m.group())
        if day:
            take(m.start(), m.end())
            break
    bench = decision_type = None
    m = _BENCH_TYPE_RE.search(joined)
    if m:
        bench = m[1].translate(_BENCH_DIGITS)
        decision_type = m[2]
        take(m.start(), m.end())
    else:
        for line_start, line in _line_offsets(lines):
            t = _TYPE_ALONE_RE.match(line.compact)
            if t:
                decision_type = t[1]
                take(line_start, line_start + len(line.compact))
                break
    pieces = []
    for line_start, line in _line_offsets(lines):
        piece = "".join(ch for i, ch in enumerate(line.compact, line_start) if not consumed[i])
        if piece:
            pieces.append(piece)
    name = "".join([p for p in pieces if not p.endswith("事件")] + [p for p in pieces if p.endswith("事件")])
    return _Header(case_numbers, day, name.strip("，,、 ") or None, bench, decision_type)


def _line_offsets(lines: list[_Line]) -> Iterator[tuple[int, _Line]]:
    pos = 0
    for line in lines:
        yield pos, line
        pos += len(line.compact)


def _closing_fields(lines: list[_Line], text: str) -> tuple[str | None, str | None, str | None]:
    """Date, bench and decision type from the end of a judgment: a date line followed by 「最高裁判所第二小法廷」,
    the last such court line, and the last 「主文のとおり判決する」."""
    day = bench = None
    for i in range(len(lines) - 1, -1, -1):
        court = _FOOTER_COURT_RE.fullmatch(lines[i].compact)  # a line of its own, not a citation in the text
        if court is None:
            continue
        if bench is None:
            bench = court[1]
        if i > 0 and _DATE_RE.fullmatch(lines[i - 1].compact):
            day = _iso(lines[i - 1].compact)
            bench = court[1]
            break
    decision_type = None
    for m in _CLOSING_TYPE_RE.finditer(_SPACES_RE.sub("", text)):
        decision_type = m[1]
    return day, bench, decision_type


# ----------------------------------------------------------------------------------------------------
# Sections


def _opinions(text: str, begin: int) -> list[tuple[int, str, tuple[str, ...]]]:
    """Start offset, kind and judges of each separate opinion after ``begin``. An opinion starts with the
    sentence that announces it, so the start is moved back to just after the 。 before 「裁判官」."""
    out = []
    for m in _OPINION_RE.finditer(text, begin):
        start = m.start()
        before = text.rfind("。", max(begin, start - 60), start)
        if before >= 0:
            start = before + 1
            while start < m.start() and text[start].isspace():
                start += 1
        kind = _SPACES_RE.sub("", m["kind"])
        judges = tuple(
            name.removeprefix("裁判官").removeprefix("同")
            for name in re.split(r"(?:[，、,]|及び)+", _SPACES_RE.sub("", m["judges"]))
            if name.removeprefix("裁判官").removeprefix("同")
        )
        out.append((start, kind, judges))
    return out


def _signature_start(lines: list[_Line], text: str, begin: int) -> int | None:
    """Where the closing signature starts (「(裁判長裁判官 …」, or 「最高裁判所大法廷」「裁判長裁判官」 with the date
    and the prosecutor's attendance before it), if it comes after ``begin``."""
    index = None
    for i, line in enumerate(lines):  # the old style: the court on a line of its own, then the judges
        if line.start >= begin and _FOOTER_COURT_RE.fullmatch(line.compact):
            index = i
    if index is None:  # the new style: 「(裁判長裁判官 …」
        found = None
        for m in _PRESIDING_RE.finditer(text, begin):
            found = m.start()
        if found is None:
            return None
        index = next((i for i, line in enumerate(lines) if line.start <= found <= line.end), None)
        if index is None:
            return found
    first = index
    for k in range(index - 1, max(index - 5, -1), -1):
        compact = lines[k].compact
        if lines[k].start < begin:
            break
        if (_FOOTER_COURT_RE.match(compact) or _DATE_RE.fullmatch(compact) or compact in ("(", "（")
                or "出席" in compact or "関与" in compact or compact.startswith("検察官")):
            first = k
        else:
            break
    start = lines[first].start
    while start < len(text) and text[start].isspace():
        start += 1
    return max(start, begin)


def _appendix_start(lines: list[_Line], signature: int) -> int | None:
    """Where an appendix (別紙: lists of parties, claims, statutes) starts after the signature: the first line
    that is not part of the judges' names, i.e. is long or opens with 別紙 / 別表 / 目録, and is no note that
    a judge could not sign (「…は退官につき署名押印することができない。」)."""
    for line in lines:
        if line.end <= signature:
            continue
        compact = line.compact
        if "裁判官" in compact or "署名" in compact or "押印" in compact or "捺印" in compact:
            continue
        if len(compact) >= 15 or re.match(r"^[(（]?(?:別紙|別表|目録)", compact):
            return line.start
    return None


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    """Narrow [start, end) to its first and last visible characters: no whitespace, no page-number lines."""
    while True:
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        line_start = text.rfind("\n", start, end) + 1 if start < end else start
        if start < end and PAGE_MARKER_RE.match(text[max(line_start, start):end]):
            end = max(line_start, start)
            continue
        first_end = text.find("\n", start, end)
        first_end = end if first_end < 0 else first_end
        if start < end and PAGE_MARKER_RE.match(text[start:first_end]):
            start = first_end
            continue
        return start, end


# ----------------------------------------------------------------------------------------------------
# The parser


def parse_judgment(
    text: str, *, source: str | None = None, lawsuit_id: str | None = None, court: str | None = SUPREME_COURT,
) -> ParsedJudgment:
    """Read a judgment's header and sections. Never raises; see the module docstring.

    ``court`` is the court the text comes from when the text does not say (the folder of Supreme Court
    judgments); pass None to require it from the text.
    """
    problems: list[str] = []
    lines = _lines(text)
    main = _heading(lines, "主", "文")
    if main is None:
        problems.append("no 主文 heading")
        header_end = next((i + 1 for i, line in enumerate(lines[:_HEADER_LINES])
                           if _BENCH_TYPE_RE.search(line.compact)), 0)
        preamble_end = header_end
    elif main[0] == 0:
        header_end = preamble_end = 0
    else:
        preamble_end = main[0]
        bench_line = next((i for i in range(main[0]) if _BENCH_TYPE_RE.search(lines[i].compact)), None)
        header_end = bench_line + 1 if bench_line is not None else main[0]
        if header_end > _HEADER_LINES:
            header_end = 0
    header_lines = lines[:header_end]
    if header_end and main is not None and header_end == main[0]:
        # The PDF sometimes puts the case name or the bench between 主 and 文:
        # 「主」「保険金請求事件」「第一小法廷判決」「文」
        header_lines += [line for line in lines[main[0] + 1:main[1]] if not _ITEM_NUMBER_RE.match(line.compact)]
    header = _read_header(header_lines) if header_end else _Header()
    if not header_end:
        problems.append("no header (the text starts with 主文)" if main and main[0] == 0 else "no header")

    day, bench, decision_type = header.date, header.bench, header.decision_type
    if day is None or bench is None or decision_type is None:
        closing_day, closing_bench, closing_type = _closing_fields(lines, text)
        day = day or closing_day
        bench = bench or closing_bench
        decision_type = decision_type or closing_type
    if header_end and not header.case_numbers:
        problems.append("no case number in the header")
    elif not header_end:
        problems.append("no case number")
    if day is None:
        problems.append("no decision date (neither in the header nor in the closing lines)")
    if header.case_name is None:
        problems.append("no case name" + (" in the header" if header_end else ""))
    if bench is None:
        problems.append("no bench (大法廷 / 第一小法廷 / 第二小法廷 / 第三小法廷)")
    if decision_type is None:
        problems.append("no decision type (判決 / 決定)")
    if bench is not None:
        court = SUPREME_COURT
    if court is None:
        problems.append("no court")

    sections = _sections(text, lines, main, header_end, preamble_end, problems)
    return ParsedJudgment(
        text=text, source=source, lawsuit_id=lawsuit_id, case_numbers=header.case_numbers, date=day,
        case_name=header.case_name, court=court, bench=bench, decision_type=decision_type,
        sections=sections, problems=tuple(problems),
    )


def _sections(
    text: str, lines: list[_Line], main: tuple[int, int] | None, header_end: int, preamble_end: int,
    problems: list[str],
) -> tuple[Section, ...]:
    """前文, 主文, 理由 and the opinions, each running to where the next starts; the last stops at the signature."""
    starts: list[tuple[str, int, int | None, tuple[str, ...]]] = []  # name, start, explicit end, judges
    if header_end < preamble_end:
        starts.append(("前文", lines[header_end].start, lines[preamble_end].start, ()))
    body_start = lines[main[1]].end if main else (lines[header_end - 1].end if header_end else 0)
    reasons = _heading(lines, "理", "由", main[1] + 1 if main else header_end)
    if reasons is None:
        problems.append("no 理由 heading")
        starts.append(("主文" if main else "本文", body_start, None, ()))
        opinions_from = body_start
    else:
        if main:
            starts.append(("主文", body_start, lines[reasons[0]].start, ()))
        opinions_from = lines[reasons[1]].end
        starts.append(("理由", opinions_from, None, ()))
    for start, kind, judges in _opinions(text, opinions_from):
        starts.append((kind, start, None, judges))
    signature = _signature_start(lines, text, starts[-1][1]) or len(text)
    appendix = _appendix_start(lines, signature)
    if appendix is not None:
        starts.append(("別紙", appendix, len(text), ()))
    out: list[Section] = []
    for k, (name, start, stop, judges) in enumerate(starts):
        if stop is None:
            stop = starts[k + 1][1] if k + 1 < len(starts) and starts[k + 1][0] != "別紙" else signature
        s, e = _trim(text, start, stop)
        if s < e:
            out.append(Section(name, s, e, judges))
    return tuple(out)


_LAWSUIT_ID_RE = re.compile(r"^0*(\d+)(?:_hanrei)?$")


def judgment_key(name: str) -> str:
    """One judgment's name whichever copy of its file it came from: a judgment file's stem gives its lawsuit id
    (「085547_hanrei」 and 「85547」 → 「85547」); any other name (a law id) is returned as it is.

    Why: the courts' archive ships some judgments twice, under both names (five of the 742 here, byte for byte), and
    a judgment held apart from the anchors an evaluation or a training query is scored with must be held apart in
    both copies: its twin's sentences are its own."""
    m = _LAWSUIT_ID_RE.match(name)
    return m[1] if m else name


def read_judgment(path: str | Path, *, court: str | None = SUPREME_COURT) -> ParsedJudgment:
    """Read and parse one judgment file. The lawsuit id is the file name's number (「082820_hanrei.txt」 →
    「82820」). The encoding is detected (`encoding.decode_text`): a Shift_JIS or EUC-JP file is converted, and
    said so in ``problems``. Raises `EncodingError` for bytes no encoding certainly explains, OSError for I/O,
    `InputError` for a path that is not a regular file."""
    path = Path(path)
    with open_regular(path, "judgment text file (.txt)") as file:  # a FIFO is refused, not waited on
        decoded = decode_text(file.read(), str(path))
    m = _LAWSUIT_ID_RE.match(path.stem)
    parsed = parse_judgment(decoded.text, source=str(path), lawsuit_id=m[1] if m else None, court=court)
    if decoded.note:
        parsed = replace(parsed, problems=(decoded.note, *parsed.problems))
    return parsed


# ----------------------------------------------------------------------------------------------------
# Metadata records (japanese-law-analysis/data_set) and landmarks


_ERA_NAMES = {"Meiji": "明治", "Taisho": "大正", "Showa": "昭和", "Heisei": "平成", "Reiwa": "令和"}
_META_CASE_RE = re.compile(rf"^(?P<era>{_ERA})(?P<year>\d+|元)\((?P<code>[^()]+)\)(?P<no>\d+)$")


@dataclass(frozen=True)
class JudgmentMetadata:
    """One record of case metadata as the courts' site publishes it beside a judgment.

    ``holding`` is 判示事項 (what the court decided, as a heading), ``summary`` is 判決要旨, and
    ``referenced_laws`` are the entries of 参照法条 (``referenced_laws_raw`` is the field as written, which the
    citation extractor should read). ``case_number`` is normalised like :attr:`ParsedJudgment.case_numbers`
    (「平成10(オ)1037」 → 「平成10年(オ)第1037号」); ``reporter`` like precedent citations (「民集54巻2号582頁」).
    """

    lawsuit_id: str
    case_number: str | None
    case_number_raw: str | None
    case_name: str | None
    court: str
    bench: str | None
    date: str
    decision_type: str | None
    result: str | None
    reporter: str | None
    holding: str | None
    summary: str | None
    referenced_laws_raw: str | None
    referenced_laws: tuple[str, ...]
    original_court: str | None
    original_case_number: str | None
    original_date: str | None
    source_url: str | None
    pdf_url: str | None

    @property
    def full_court(self) -> str:
        return self.court + (self.bench or "")


def split_court(name: str) -> tuple[str, str | None]:
    """「最高裁判所第一小法廷」 → ("最高裁判所", "第一小法廷"); other courts have no bench."""
    name = _SPACES_RE.sub("", name)
    for bench in BENCHES:
        if name == SUPREME_COURT + bench:
            return SUPREME_COURT, bench
    return name, None


def _metadata_case_number(raw: str) -> str | None:
    m = _META_CASE_RE.match(_SPACES_RE.sub("", raw))
    if m is None:
        return None
    year = int(m["year"]) if m["year"] != "元" else 1
    return f"{m['era']}{'元' if year == 1 else year}年({m['code']})第{int(m['no'])}号"


def _reporter(raw: str) -> str:
    return re.sub(r"第(?=[0-9])", "", _SPACES_RE.sub("", raw))


def _split_laws(raw: str) -> tuple[str, ...]:
    """Entries of 参照法条: split at ，、・; a space splits only where a new law article follows it
    (「特許法123条　民法1条3項」), not inside 「特許法第4章第2節　権利侵害」."""
    out: list[str] = []
    for part in re.split(r"[，,、・]", raw):
        pieces = re.split(r"[\s\u3000]+", part.strip())
        current = ""
        for piece in pieces:
            if current and re.search(r"[法令則約]", piece) and re.search(r"[条條]", piece):
                out.append(current)
                current = piece
            else:
                current = f"{current} {piece}".strip()
        if current:
            out.append(current)
    return tuple(out)


class _Record:
    """Typed access to one JSON record, with errors that name the line and the field."""

    def __init__(self, data: Any, where: str) -> None:
        if not isinstance(data, dict):
            raise InputError(f"{where}: expected a JSON object, got {type(data).__name__}")
        self.data = data
        self.where = where

    def text(self, key: str, *, required: bool = False) -> str | None:
        value = self.data.get(key)
        if value is None or value == "":
            if required:
                raise InputError(f"{self.where}: field {key!r} is missing or empty")
            return None
        if not isinstance(value, str):
            raise InputError(f"{self.where}: field {key!r} must be a string, got {type(value).__name__}")
        return value.strip() or None

    def date(self, key: str, *, required: bool = False) -> str | None:
        value = self.data.get(key)
        if value is None:
            if required:
                raise InputError(f"{self.where}: field {key!r} is missing")
            return None
        if not isinstance(value, dict):
            raise InputError(f"{self.where}: field {key!r} must be an object with era, year, month and day")
        era = _ERA_NAMES.get(value.get("era"))  # type: ignore[arg-type]
        if era is None:
            raise InputError(f"{self.where}: field {key!r} has an unknown era {value.get('era')!r} "
                             f"(expected one of {', '.join(_ERA_NAMES)})")
        parts = [value.get(k) for k in ("year", "month", "day")]
        if not all(isinstance(p, int) and not isinstance(p, bool) for p in parts):
            raise InputError(f"{self.where}: field {key!r} needs whole numbers for year, month and day, got {value}")
        year, month, day = (cast(int, p) for p in parts)
        try:
            return date(ERAS[era][0] + year, month, day).isoformat()
        except ValueError as exc:
            raise InputError(f"{self.where}: field {key!r} is not a valid date ({era}{year}年{month}月{day}日: "
                             f"{exc})") from None


def parse_metadata_record(data: Any, *, where: str = "record") -> JudgmentMetadata:
    """One metadata record (a parsed JSON object) as a :class:`JudgmentMetadata`.

    ``lawsuit_id``, ``date`` and ``court_name`` are required; the other fields may be missing or empty.
    Raises `InputError` naming ``where`` (e.g. 「metadata.jsonl line 3」) and the field.
    """
    record = _Record(data, where)
    lawsuit_id = record.text("lawsuit_id", required=True)
    assert lawsuit_id is not None
    if not lawsuit_id.isdigit():
        raise InputError(f"{where}: field 'lawsuit_id' must be the site's numeric id, got {lawsuit_id!r}")
    court_name = record.text("court_name", required=True)
    assert court_name is not None
    court, bench = split_court(court_name)
    day = record.date("date", required=True)
    assert day is not None
    case_raw = record.text("case_number")
    original_case = record.text("original_case_number")
    laws_raw = record.text("ref_law")
    reporter = record.text("article_info")
    return JudgmentMetadata(
        lawsuit_id=lawsuit_id,
        case_number=_metadata_case_number(case_raw) if case_raw else None,
        case_number_raw=case_raw,
        case_name=record.text("case_name"),
        court=court,
        bench=bench,
        date=day,
        decision_type=record.text("result_type"),
        result=record.text("result"),
        reporter=_reporter(reporter) if reporter else None,
        holding=record.text("gist"),
        summary=record.text("case_gist"),
        referenced_laws_raw=laws_raw,
        referenced_laws=_split_laws(laws_raw) if laws_raw else (),
        original_court=record.text("original_court_name"),
        original_case_number=(_metadata_case_number(original_case) or original_case) if original_case else None,
        original_date=record.date("original_date"),
        source_url=record.text("detail_page_link"),
        pdf_url=record.text("full_pdf_link"),
    )


def load_metadata(path: str | Path, *, on_bad_line: BadLine | None = None) -> list[JudgmentMetadata]:
    """Every record of a metadata JSONL file; blank lines are skipped. A line that cannot be read or is not a
    valid record raises `InputError` naming the file and the line (「metadata.jsonl:3: field 'court_name' is
    missing or empty」), or, with `on_bad_line`, is reported to it while the other records are kept."""
    path = Path(path)
    records = []
    for number, data in read_records(path, on_bad_line=on_bad_line):
        try:
            records.append(parse_metadata_record(data, where=line_where(path, number)))
        except ValueError as err:
            if on_bad_line is None:
                raise
            on_bad_line(str(err))
    return records


@dataclass(frozen=True)
class Landmark:
    """A well-known case from ``landmarks.csv``: its popular name (「三菱樹脂事件」) and what identifies it.

    ``id`` is the courts' lawsuit id, or a label such as 「X1」 for a 大審院 case the site does not hold;
    :attr:`lawsuit_id` is the id when it is numeric. Date (ISO), court, bench and type are None when the list
    leaves them empty (it does for 32 cases, which are identified by id alone).
    """

    id: str
    name: str
    date: str | None
    court: str | None
    bench: str | None
    decision_type: str | None

    @property
    def lawsuit_id(self) -> str | None:
        return self.id if self.id.isdigit() else None


_LANDMARK_COLUMNS = ("id", "date", "court", "type", "name")


def load_landmarks(path: str | Path) -> list[Landmark]:
    """The landmark cases listed in a CSV with columns id, date, court, type, name (cells may carry spaces).

    Raises `InputError` naming the file, line and column for a missing column, an empty id or name, or a date
    that is not a full era date (「昭和44年12月24日」).
    """
    path = Path(path)
    out: list[Landmark] = []
    with path.open(encoding="utf-8-sig", newline="") as f:
        reader = csv.DictReader(f)
        missing = [c for c in _LANDMARK_COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise InputError(f"{path.name}: missing column(s) {', '.join(missing)} "
                             f"(expected {', '.join(_LANDMARK_COLUMNS)})")
        for row in reader:
            where = f"{path.name} line {reader.line_num}"
            cells = {k: (row.get(k) or "").strip() for k in _LANDMARK_COLUMNS}
            for key in ("id", "name"):
                if not cells[key]:
                    raise InputError(f"{where}: column {key!r} is empty")
            day = None
            if cells["date"]:
                day = _iso(cells["date"])
                if day is None:
                    raise InputError(f"{where}: column 'date' is not a date: {cells['date']!r}")
            court, bench = split_court(cells["court"]) if cells["court"] else (None, None)
            kind = cells["type"] or None
            if kind is not None and kind not in (*DECISION_TYPES, "命令"):
                raise InputError(f"{where}: column 'type' must be 判決 or 決定, got {kind!r}")
            out.append(Landmark(cells["id"], cells["name"], day, court, bench, kind))
    return out
