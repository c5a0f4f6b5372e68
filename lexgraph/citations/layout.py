"""The layout of a text as a reader sees it before looking for citations: which line ends are the writer's
(a heading, a label, a paragraph's end) and which merely wrap a full line.

Why: the finder removes whitespace (text from PDFs breaks lines anywhere, also inside 「民法７０\\n９条」), and
then reads a law's name backwards from its clause. Across the end of a heading that read glued the heading to
the name: 「令和４年６月１７日判決\\n民法第七百九条」 gave the law 「日判決民法」, 「事案の概要\\n大阪市ヘイトスピーチへ
の対処に関する条例（…）」 a title that began with the headings above it, and every 同法 after them inherited the
wrong law. A line the writer ended is structure: no name, title or word runs across it.

A line end is the writer's when

* the next line opens with an indent (a full-width space: a new paragraph);
* the line is a heading: short (judgments are set at 30 to 40 characters a line, so a short line ended where the
  writer ended it; not the text's first line, which may have been cut from a longer one), or a label with its
  title (第１　請求, １　事案の概要, (1) 本件の経緯, ア 争点), a date line (令和４年６月１７日判決), one of the
  words that head a judgment's parts (主文, 理由, 当裁判所の判断, 上告人の主張 …), or a line that ends
  「…について」 with no sentence in it (上告代理人…の上告理由第２について).

A blank line alone says nothing: text from PDFs has them inside sentences (「厚生\\n\\n年金基金令」,
「民集４９巻\\n\\n７号」). A short line that starts with punctuation is the rest of a line the extraction broke
(「）\\n，地方税法及び旭川市国民健\\n康保険条例」), not a heading.
"""

from __future__ import annotations

import re

# A line shorter than this ends where the writer ended it (a heading, a label), not where the page was full:
# judgments are set at 30 to 40 characters a line.
SHORT_LINE = 24
_LONGEST_HEADING = 60
_SPACES = " \t\u3000"
_NUMBER = r"[0-9０-９一二三四五六七八九十百]+"
# An enumeration label at the start of a line, alone or followed by a space and its title.
_LABEL = re.compile(
    rf"(?:第{_NUMBER}|{_NUMBER}|[（(](?:{_NUMBER}|[ア-ンａ-ｚa-zＡ-ＺA-Z])[）)]|[ア-ン]|[ａ-ｚa-z])(?:[ \t\u3000]|\Z)")
_DATE_LINE = re.compile(
    rf"(?:明治|大正|昭和|平成|令和)(?:元|{_NUMBER})年{_NUMBER}月{_NUMBER}日[^。，、,]{{0,16}}\Z")
# The words that head a judgment's parts, and what a heading line may end with.
HEADING_WORDS = frozenset({
    "判決", "決定", "命令", "主文", "理由", "事実", "事実及び理由", "事案の概要", "前提事実", "争点", "当事者の主張",
    "当裁判所の判断", "上告人の主張", "被上告人の主張", "原告の主張", "被告の主張", "控訴人の主張", "被控訴人の主張",
    "原判決", "原審の判断", "判断", "結論", "請求", "事実関係", "事案", "論旨", "検討",
})
_SENTENCE_MARKS = "。，、,"


def is_word_char(ch: str) -> bool:
    """Kanji and katakana: a character that continues a word (and so a name) in Japanese."""
    return ("\u4e00" <= ch <= "\u9fff") or ("\u30a1" <= ch <= "\u30fa") or ch in "々〆ヵヶー"


def heading_line(line: str, by_length: bool = True) -> bool:
    """Is `line` (one line of the text, without its line end) a heading or label, whose end the writer chose?
    Without `by_length` a short line is not taken for one by its length alone: the first line of a text may be
    the end of a line cut from a longer text (「少年\\n審判規則７条」)."""
    line = line.strip(_SPACES)
    if not line:
        return False
    label = _LABEL.match(line)
    if len(line) < SHORT_LINE and label is not None:
        return True
    if by_length and len(line) < SHORT_LINE and is_word_char(line[0]):
        return True
    if len(line) > _LONGEST_HEADING or "。" in line:
        return False
    if label is not None and not any(mark in line for mark in _SENTENCE_MARKS):
        return True  # 第２　上告代理人甲野太郎ほかの上告受理申立て理由第１について
    return (_DATE_LINE.match(line) is not None or line.replace("\u3000", "").replace(" ", "") in HEADING_WORDS
            or (line.endswith("について") and is_word_char(line[0])))


def ends_line_as_written(original: str, before: int, after: int, starts_line: bool) -> bool:
    """Does the whitespace between `original[before]` and `original[after]` (the last character kept before it
    and the first after it) end a line where the writer ended it, rather than wrap a full one? `starts_line`
    says that `original` starts at the start of a line (a whole text, not a window into one), so that the
    length of its first line is known."""
    removed = original[before + 1:after]
    if "\n" not in removed or "\f" in removed or "-" in removed:  # a page number between two pages' lines
        return False
    if removed.endswith("\u3000"):  # the next line is indented: a new paragraph
        return True
    line_start = original.rfind("\n", 0, before) + 1
    if line_start == 0 and not starts_line:  # a window that starts inside the line: what the line is, is not known
        return False
    # The first line of a text is a heading by what it says, not by its length: the text may be cut from another.
    return heading_line(original[line_start:before + 1], by_length=line_start > 0)


#: How far a heading's section reaches at most: a reader keeps the heading's law in mind over its section, and a
#: long text is read in windows (`lexgraph.citations.stream`, whose margin is at least this), so that a section is
#: found the same whether the text is read whole or piece by piece.
HEADING_REACH = 4_000
# A labelled heading line: its label, then a title with no sentence in it. The label's kind is its level, outermost
# first: 第１, １, (1) / （１）, ア, (ア), a.
# Each label is set off from its title by a space, or stands alone on its line (the 742 Supreme Court texts, set
# from PDF: 「第３」, then 「当裁判所の判断」 or 「放送法６４条１項の意義」 on a line of its own).
_LABELS = (r"第[0-9０-９一二三四五六七八九十百]+", r"[0-9０-９]+", r"[（(][0-9０-９]+[）)]", r"[ア-ン]",
           r"[（(][ア-ン][）)]", r"[ａ-ｚa-z]")
_AFTER_LABEL = (r"[ \t\u3000]", r"[ \t\u3000]", r"[ \t\u3000]?", r"[ \t\u3000]", r"[ \t\u3000]?", r"[ \t\u3000]")
_LEVELS = tuple(re.compile(rf"{label}(?:{after}|(?=\r?\n)|\Z)") for label, after in zip(_LABELS, _AFTER_LABEL,
                                                                                          strict=True))
_ANY_LEVEL = re.compile("|".join(f"(?P<l{level}>{pattern.pattern})" for level, pattern in enumerate(_LEVELS)))
_ALONE = re.compile("|".join(f"(?P<l{level}>{label})" for level, label in enumerate(_LABELS)))
_BLANK_LINES_UP = 3  # how many blank lines may stand between a label alone and its title
_LINE_START = re.compile(r"\n[ \t\u3000\f]*(?=\S)")  # a page break may stand before a line's label


def label_level(line: str) -> int | None:
    """The level of the label a heading line opens with (0: 第１, 1: １, 2: (1), 3: ア, 4: (ア), 5: a), or None."""
    found = _ANY_LEVEL.match(line.lstrip(_SPACES))  # one match for all levels: most lines open with no label
    return None if found is None else int((found.lastgroup or "l0")[1:])


def heading_sections(text: str, positions: list[int]) -> dict[int, int]:
    """For each of `positions` (offsets into `text`) that lies on a labelled heading line with no sentence in it
    (「第３　国家賠償法１条１項の解釈について」, 「２　民法７０９条の責任」), the offset where the heading's section
    ends: the label of the next line labelled at the same level or an outer one, at most `HEADING_REACH`
    characters after the heading, and never past the end of `text`."""
    out: dict[int, int] = {}
    lines: dict[int, int | None] = {}  # line start → its section's end (None: not a labelled heading)
    for position in positions:
        start = text.rfind("\n", 0, position) + 1
        if start not in lines:
            lines[start] = _section_end(text, start)
        end = lines[start]
        if end is not None:
            out[position] = end
    return out


def _section_end(text: str, start: int) -> int | None:
    line_end = text.find("\n", start)
    line = text[start:line_end if line_end >= 0 else len(text)]
    level = label_level(line)
    if level is None:
        level = _label_alone_above(text, start)  # 「第３⏎⏎国家賠償法１条１項の解釈について」: the title's own line
    title = line.strip(_SPACES)
    # a heading, not the first line of a labelled paragraph: short, or a title ending 「…について」, with no
    # sentence mark (「１　上告人の請求は国家賠償法１条１項に基づくものであり」 is a wrapped sentence)
    if (level is None or any(mark in title for mark in _SENTENCE_MARKS)
            or not (len(title) < SHORT_LINE or (title.endswith("について") and len(title) <= _LONGEST_HEADING))):
        return None
    limit = min(len(text), start + HEADING_REACH)
    if line_end < 0:
        return limit
    for found in _LINE_START.finditer(text, line_end, limit):
        other = label_level(text[found.end():found.end() + 12])
        if other is not None and other <= level:
            return found.end()
    return limit


def _label_alone_above(text: str, start: int) -> int | None:
    """The level of the label standing alone on the line above the one starting at `start` (blank lines between,
    at most `_BLANK_LINES_UP`), or None: the layout of judgments set from PDF, where 「第３」 or 「(1)」 has a line of
    its own and the heading's title the next."""
    end = start - 1  # the line break before the line
    for _ in range(_BLANK_LINES_UP + 1):
        if end < 0:
            return None
        above_start = text.rfind("\n", 0, end) + 1
        above = text[above_start:end].strip(_SPACES + "\f\r")
        if above:
            found = _ALONE.fullmatch(above)
            return None if found is None else int((found.lastgroup or "l0")[1:])
        end = above_start - 1
    return None
