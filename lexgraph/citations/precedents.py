"""Find citations of court decisions (判例) in Japanese legal text.

A judgment cites another decision in a few recurring shapes, for example

    最高裁昭和４８年（オ）第１００２号同５０年２月２５日第三小法廷判決・民集２９巻２号１４３頁
    大審院大正１５年５月２２日判決・民集５巻３８６頁
    東京高判平成４年１２月１８日・高民集４５巻３号２１２頁
    昭和５１年４月１４日大法廷判決
    大審院判決（昭和八年（れ）第一二七号同年四月一九日言渡、集一二巻四七一頁）

that is: an optional court, optional case numbers, a date, an optional court or bench, a decision type and an
optional reporter. Books, commentaries and briefs abbreviate the court with the type and the era, and
write the date with 「・」 or 「.」; lexgraph's own captions (`lexgraph.store.names.precedent_caption`) do the same:

    最判平23・12・16民集65巻9号3472頁        最二小判 令和4.6.17        大判大2・2・5民録19輯57頁
    最判昭58・3・31（民集37巻2号152頁）      東京高決平成4年12月18日判時1450号80頁
    最判令和2年3月24日裁判所ウェブサイト

Such a date is read only after a court (「平23・12・16」 alone cites nothing); a reporter may stand in parentheses;
the reporters and the court seats are data (`lexgraph/data/reporters.json`, `courts.json`, via
:mod:`lexgraph.citations.court_names`). :func:`find_precedents` matches that grammar and turns each match into a
:class:`PrecedentMention` with the court spelled out in full, the date in ISO form, the case numbers and the
reporter in ASCII digits.

Three things make real text harder than the grammar:

* Text extracted from PDFs has line breaks, spaces and page numbers (「- 9 -」) inside citations. The finder
  works on a *compact* copy of the text with those removed and maps every span back to the original offsets
  (:class:`_CompactText`).
* Dates lean on what came before: 「同５０年」 takes the era of the case number before it, 「同年」 the year,
  and a list 「…判決、同年１０月５日第一小法廷決定」 the court. The finder keeps that state while it reads.
* The court is often implicit. A bench (大法廷, 第一小法廷) means the Supreme Court; a label before an
  opening parenthesis (「大審院判決（…）」, 「当裁判所大法廷判例（…）」) names the court for the list inside
  it; a Supreme Court case code such as (オ) or (行ヒ) after 1947 names it too; and 「当裁判所」 or a citation
  with no court at all means the court that wrote the text, when the caller says which one that is
  (``citing_court``).

A citation that is found but lacks its court, date or decision type is still returned, with status
"unresolved" and a reason, so that nothing that looks like a citation is dropped silently. That includes a
court or bench with a reporter but no date (「第一小法廷判決、最高裁判所刑事判例集五巻六号一〇二六頁」).

Not recognised (known gaps): a reporter alone with neither date nor court, references back to a decision
through a name the text defined (「（以下「平成７年判決」という。）」… 「平成７年判決は」; 同判決 / 前掲最判 are
read apart, by `lexgraph.citations.back_references`), references
by year only (「昭和５８年大法廷判決」), and one type shared by two dated case numbers
(「同二五年二月一五日同二四年（れ）二三七号同二五年一〇月二五日各大法廷判決」: only the second is found).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import accumulate
from typing import Any

from lexgraph.citations.compact import CompactText
from lexgraph.citations.court_names import courts, reporters
from lexgraph.citations.dates import ERAS, EraDate, parse_era_date
from lexgraph.citations.model import fill_dict_init
from lexgraph.numerals import kanji_to_int

# ----------------------------------------------------------------------------------------------------
# The compact text: whitespace and page numbers removed, digits and parentheses folded, offsets kept.

# Whitespace (line breaks, 全角 spaces, form feeds) and page-number lines such as "- 12 -" that PDF extraction
# leaves in the middle of sentences. A run starts at whitespace, which lets the regex engine skip straight to the
# next whitespace character instead of trying a pattern at every position. A page-number line is always preceded
# by the line break that starts its run, except on the first line of the text: that one is matched apart
# (_LEADING_PAGE_RE).
_PAGE_LINE = r"[ \t\u3000\f]*-[ \t\u3000]*[0-9０-９]{1,4}[ \t\u3000]*-[ \t\u3000\f]*(?=\n|\Z)"
_RUN_REST = rf"(?:\s|(?m:^){_PAGE_LINE})*"
_REMOVABLE_RE = re.compile(rf"\s{_RUN_REST}")
_LEADING_PAGE_RE = re.compile(rf"{_PAGE_LINE}{_RUN_REST}")
_REMOVED_RUNS_RE = re.compile(f"({_REMOVABLE_RE.pattern})")  # the same runs, captured, for re.split
# Length-preserving folds, so that one regex covers ７０９ and 709, （オ） and (オ). A chain of str.replace is
# much faster than str.translate, which looks every character of a non-ASCII string up in a dict.
_FOLDS = tuple(zip("０１２３４５６７８９（）", "0123456789()", strict=True))
# A page number's opening dash after a space, tab, form feed or the like rather than a line break: where the
# statute finder's runs and these may differ (`_CompactText.of`). It starts with the dash, looking back at the space:
# the engine then skips from dash to dash (starting with the space class, it stopped at every full-width space of an
# indented text: 6 ms a MB against 0.3).
_PAGE_NUMBER_AFTER_SPACE = re.compile(r"-(?<=[^\S\n]-)[ \t\u3000]*[0-9０-９]{1,4}[ \t\u3000]*-")


class _CompactText:
    """A copy of `text` without whitespace and page numbers, which can map its offsets back to `text`.

    Citations in PDF-extracted judgments are broken by line breaks and page footers; matching on the compact
    copy lets one grammar handle them, and :meth:`to_original` keeps the reported spans honest. Built once per
    text, in one pass over the removable runs.
    """

    _run_at: Sequence[int]
    _removed: Sequence[int]

    def __init__(self, text: str) -> None:
        # The runs from one re.split (no match objects): kept text and removed runs alternate, and the offsets
        # follow from their lengths in C-level maps. A page number on the first line is a run of its own.
        leading = _LEADING_PAGE_RE.match(text) if text.startswith("-") else None
        lead = leading.end() if leading else 0
        parts = _REMOVED_RUNS_RE.split(text[lead:] if lead else text)
        kept = parts[0::2]
        run_lengths = [lead, *map(len, parts[1::2])] if lead else list(map(len, parts[1::2]))
        removed = list(accumulate(run_lengths))  # characters removed up to and including run k
        kept_before = accumulate(map(len, kept[:-1]))  # compact index at which the text after run k starts
        run_at = [0, *kept_before] if lead else list(kept_before)
        compact = "".join(kept)
        for wide, narrow in _FOLDS:
            if wide in compact:
                compact = compact.replace(wide, narrow)
        self._run_at = run_at
        self._removed = removed
        self.original = text
        self.text = compact

    @classmethod
    def of(cls, text: str) -> _CompactText:
        """The compact copy of `text`, from the statute finder's copy of it where that one removed the same runs.

        Both remove every run of whitespace; they differ only on a page number 「- 12 -」 that does not start a line
        right after its line break (one the statute finder's pattern removes after a space or at a run's end, this
        one only at a line's start, or on the text's first line). Where no page number is written so, the runs, and
        so the offsets, are the same, and only the folds are left to do."""
        shared = CompactText.last_of(text)
        if shared is None or text.startswith("-") or _PAGE_NUMBER_AFTER_SPACE.search(text):
            return cls(text)
        made = cls.__new__(cls)
        compact = shared.text
        for wide, narrow in _FOLDS:
            if wide in compact:
                compact = compact.replace(wide, narrow)
        made._run_at = shared.breaks
        made._removed = shared.shifts
        made.original = text
        made.text = compact
        return made

    def to_original(self, index: int) -> int:
        """Offset in the original text of the character at compact `index`."""
        k = bisect_right(self._run_at, index)
        return index + (self._removed[k - 1] if k else 0)

    def span(self, start: int, end: int) -> tuple[int, int]:
        """Original (start, end) of the compact span [start, end), without whitespace at either edge."""
        return self.to_original(start), self.to_original(end - 1) + 1


# ----------------------------------------------------------------------------------------------------
# The grammar, as regular-expression pieces over the compact text.

# Repetitions are bounded throughout, so that a pathological input (a run of 100,000 case numbers with no date)
# costs a constant amount per starting position and the scan stays linear.
_NUM = r"第?[0-9〇一二三四五六七八九十百千]{1,10}"
_N = r"[0-9〇一二三四五六七八九十百千]{1,10}"
_YN = rf"(?:{_N}|元)"
_ERA = "|".join(ERAS)
_YEAR = rf"(?:(?:{_ERA}){_YN}年|同{_YN}年|同年)"
_DATE = rf"(?:{_YEAR}(?:{_N}月|同月){_N}日|同月{_N}日|同日)"
# The literature's dates: the era abbreviated to its first character (or a letter), and the date
# written with 「・」 or 「.」: 最判平23・12・16, 最二小判 令和4.6.17 (lexgraph's own captions), 大判大2・2・5,
# 最判昭57年3月23日. The folded compact text has ASCII digits; a full-width 「．」 is read as 「.」. They are read only
# after an abbreviated court (最判, 東京高決 …) or a court named in full: a bare 「平23・12・16」 cites nothing.
# Briefs and practitioners also write the era as a Latin letter: 最判H23.12.16, 最決S48・4・25.
_ERA_LETTERS = {"明治": "MＭ", "大正": "TＴ", "昭和": "SＳ", "平成": "HＨ", "令和": "RＲ"}
_SHORT_ERAS = {era[0]: era for era in ERAS} | {
    letter: era for era, letters in _ERA_LETTERS.items() if era in ERAS for letter in letters}
_ANY_ERA = "|".join([*ERAS, *_SHORT_ERAS])
_DOT = "[・.．]"
_DN = "[0-9〇一二三四五六七八九十]"  # a month or day after 「・」: 12 or 一二 (old books: 最大判昭和四八・四・二五)
_SHORT_ERA = "|".join(_SHORT_ERAS)
_LIT_DATE = (
    rf"(?:(?:{_ANY_ERA}){_YN}{_DOT}{_DN}{{1,3}}{_DOT}{_DN}{{1,3}}(?!{_DN})"
    rf"|(?:{_SHORT_ERA}){_YN}年{_N}月{_N}日)"
)

# Court names. Places are listed so that 「原審東京高等裁判所」 does not turn 原審東京 into a city.
# The seats and the reporters are data (lexgraph/data/courts.json, reporters.json), read once here.
_COURTS = courts()


def _guarded(alternatives: Iterable[str]) -> str:
    """The alternation of `alternatives` (plain words, tried in the order given), behind a look at the next
    character: only a word that starts with it can match.

    Why: the engine tries such an alternation word by word at every position the grammar reaches (every kanji of
    a stretch that may hold a citation), and the seats and the reporters are dozens of words, several of them
    written more than once in the grammar. One test of the first character skips them all where none can start;
    where one can, the words are tried in the same order as before, so every match is the same."""
    words = list(alternatives)
    firsts = "".join(re.escape(c) for c in dict.fromkeys(w[0] for w in words))
    return f"(?=[{firsts}])(?:{'|'.join(words)})"


_HIGH_PLACES = _guarded(_COURTS.high_court_places)
_PLACES = _guarded(sorted(_COURTS.district_court_places, key=len, reverse=True))
_BRANCH = r"[一-龥々ヶ]{1,4}?"
_COURT_FULL = (
    rf"(?:最高裁判所|最高裁|大審院|当裁判所|同裁判所|同(?=(?:{_ERA}))|知的財産高等裁判所|知財高裁"
    rf"|(?:{_HIGH_PLACES})(?:高等裁判所|高裁)(?:{_BRANCH}支部)?"
    rf"|(?:{_PLACES})(?:地方裁判所|地裁|家庭裁判所|家裁)(?:{_BRANCH}支部)?"
    rf"|(?:(?:{_PLACES})|(?<![一-龥々ヶ])[一-龥々ヶ]{{1,4}}?)(?:簡易裁判所|簡裁)"
    rf"|(?:{_PLACES}|長崎)控訴院)"
)
# Abbreviations that also carry the decision type: 最判, 最一小判, 最大決, 大判, 東京高判, 岡山地津山支判 …
_COURT_ABBR = (
    r"(?:最(?:大|[一二三123]小?)?[判決]|大連?[判決]|知財高大?[判決]"
    rf"|(?:{_HIGH_PLACES})高(?:{_BRANCH}支)?[判決]"
    rf"|(?:{_PLACES})[地家](?:{_BRANCH}支)?[判決審]"
    rf"|(?:{_PLACES})簡[判決])"
)
_BENCH = (
    r"(?:大法廷|第[一二三123]小法廷|(?:民事|刑事)?連合部|大合議部?|特別部|\(大合議\)"
    r"|第[一二三四五六七八九十0-9]+(?:民事|刑事)部|(?:民事|刑事)第[一二三四五六七八九十0-9]+部)"
)
_CASE_CODE = r"\([ぁ-んァ-ヶ一-龥ー]{1,4}\)"
_CASE_NO = rf"第?{_N}号(?:の{_N})?"
_CASE = rf"{_YEAR}(?:{_CASE_CODE})?{_CASE_NO}(?:(?:[,，、・]|ないし|及び){_CASE_NO}){{0,12}}"
_CASES = rf"{_CASE}(?:[,，、]{_CASE}){{0,12}}"
# 言渡 and 宣告 end a citation without saying its type, unless the type follows the case number:
# 「昭和二十二年十二月十六日言渡昭和二十二年（れ）第十三六号事件判決」.
_TYPE = (
    r"(?:各?(?:判決|決定|命令|審判)"
    rf"|(?:言渡し?|宣告)(?:(?P<cases2>{_CASES})(?:事件)?(?P<type2>判決|決定|命令)|(?P<type3>判決|決定))?)"
)

_VOLUME = (
    rf"(?:(?:{_ERA}){_YN}年)?(?:{_NUM}輯)?(?:{_NUM}巻)?"
    rf"(?:{_NUM}(?:[・,，]{_N}){{0,4}}号(?:{_NUM}頁)?|{_NUM}頁)"
)
# Reporters known by name may follow the decision type directly, after 「・」 or 「、」, or in parentheses (the
# literature's 「最判昭58・3・31（民集37巻2号152頁）」); any other name ending in a volume/issue/page is accepted after
# 「・」, the separator the courts use before a reporter. An online source (裁判所ウェブサイト) takes no volume.
_KNOWN_REPORTERS = _guarded(reporters().forms)
_ONLINE = "|".join(sorted(reporters().online, key=len, reverse=True))
_REPORTER = (
    rf"(?:[・、，,]?(?P<rk>(?:{_KNOWN_REPORTERS}){_VOLUME}|{_ONLINE})"
    rf"|\((?P<rp>(?:{_KNOWN_REPORTERS}){_VOLUME}|{_ONLINE})\)"
    rf"|・(?P<rg>[一-龥ァ-ヴー]{{1,20}}?{_VOLUME}))"
)

_CITATION = (
    r"(?=[一-龥々ヶさ])"  # every citation starts with a kanji (or さいたま): skips kana and punctuation fast
    rf"(?P<court>{_COURT_ABBR}|{_COURT_FULL})?"
    rf"(?P<bench0>{_BENCH})?"
    rf"(?:(?P<cases>{_CASES})[,，、]?(?P<casename>[^,，、。()「」]{{1,40}}?事件について同裁判所が)?)?"
    rf"(?P<date>{_DATE}|(?P<litdate>{_LIT_DATE}))"
    r"(?:に言い渡した|言渡し?の)?"
    # A reporter named after a court (最高裁判所民事判例集, 大審院民事判決録) right after the date is the reporter,
    # not the court of the judgments' 「…日最高裁判所第三小法廷判決」.
    rf"(?:(?!{_KNOWN_REPORTERS})(?P<court2>{_COURT_FULL})(?:が言い渡した|の)?)?"
    rf"(?:[、，]?各?(?P<bench>{_BENCH}))?"
    rf"(?P<type>{_TYPE})?"
    rf"{_REPORTER}?"
)


# The three large patterns are compiled on first use, not at import: compiling them takes about 0.1 s (the court
# seats and reporters are long alternations), which every `lexgraph` command would pay at start-up, and a text
# without a date-and-decision stretch (a statute clause, a short question) never needs them.
@cache
def _citation_re() -> re.Pattern[str]:
    return re.compile(_CITATION)


# Anchors for _candidate_stretches: what ends every date of the grammar, the characters that stop a citation,
# and one character of every word that makes a date a citation (type, abbreviated court, reporter).
# One leading character class (a digit, 同 or a date separator) keeps the scan as fast as the 日 anchor alone: an
# alternation of two branches would be tried at every character (three times slower on 1 MB of judgments).
_DAY_RE = re.compile(
    rf"[0-9〇一二三四五六七八九十百千同・.．](?:(?<=[^・.．])日|(?<={_DN}[・.．]){_DN}{{1,3}}(?!{_DN}))")
_STRETCH_ENDS = "。「」"
_STRETCH_END_RE = re.compile(f"[{_STRETCH_ENDS}]")
_CITING_CHAR_RE = re.compile(r"[判決命審言宣号頁]")

# A citation without a date still names a decision when it gives the court or bench and a reporter:
# 「（第一小法廷判決、最高裁判所刑事判例集五巻六号一〇二六頁以下）」. It is reported, unresolved.
_DATELESS = (
    r"(?=[最大当第])(?P<court>最高裁判所|最高裁|大審院|当裁判所)?(?P<bench>大法廷|第[一二三123]小法廷)?"
    rf"(?P<type>判決|決定)?[・、，,]?(?P<reporter>(?:{_KNOWN_REPORTERS}){_VOLUME})"
)


@cache
def _dateless_re() -> re.Pattern[str]:
    return re.compile(_DATELESS)


# Every court and bench of _DATELESS holds one of these words (a kept match names one: `_dateless_matches`).
_DATELESS_ANCHOR_RE = re.compile("最高裁|大審院|当裁判所|法廷")


# A label just before an opening parenthesis names the court (and sometimes the type) of the citations inside:
# 「大審院判決（…」, 「当裁判所大法廷判例（…」, 「福岡高等裁判所判決（…」, 「前記各大法廷判決（…」.
_CONTEXT = (
    rf"(?:(?:(?P<court>{_COURT_ABBR}|{_COURT_FULL})の?(?P<bench>{_BENCH})?|(?P<bench2>{_BENCH}))"
    r"(?:の[^(),，、。]{0,12}?)?)?"
    r"(?P<kind>判決|決定|判例|裁判例)?\((?:前掲|前記|上記|右)?\Z"
)


@cache
def _context_re() -> re.Pattern[str]:
    return re.compile(_CONTEXT)


_CONTEXT_ENDINGS = ("(", "(前掲", "(前記", "(上記", "(右")  # how a _CONTEXT match ends (brackets are folded)
# What may stand between two citations of one list: 「、」, 「，」, 「及び」 and the like.
_LIST_GAP_RE = re.compile(r"(?:[,，、]|及び|並びに|又は)(?:前掲|前記|上記)?")
# _YEAR with every alternative spelled out from its first character (明治…, 同…), so that the regex engine can skip
# to the next 明/大/昭/平/令/同 instead of trying the pattern at every position of the text.
_YEAR_FIRST_CHAR = "|".join([*(rf"{era}{_YN}年" for era in ERAS), rf"同{_YN}年", "同年"])
_YEAR_MENTION_RE = re.compile(rf"(?:{_YEAR_FIRST_CHAR})(?:(?:{_N}|同)月)?(?:{_N}日)?")
_SC_CODES = _COURTS.supreme_court_case_codes
_SC_FOUNDED = _COURTS.supreme_court_founded
_OLD_CODES = _COURTS.great_court_case_codes  # codes the 大審院 used before the Supreme Court existed

_TYPE_BY_SUFFIX = {"判": "判決", "決": "決定", "審": "審判"}
_TYPE_WORD = {"判決": "判決", "決定": "決定", "命令": "命令", "審判": "審判"}
# A decision type followed by more kanji ending in 事件 is the start of a case name, as in a header.
_CASE_NAME_AFTER_RE = re.compile(r"[一-龥々ァ-ヶー]{1,40}?事件")
_BENCH_NUM = str.maketrans("123", "一二三")

SUPREME_COURT = "最高裁判所"
GREAT_COURT = "大審院"


# ----------------------------------------------------------------------------------------------------
# Values


@dataclass(frozen=True)
class PrecedentMention:
    """One citation of a court decision, with offsets into the text it was found in.

    `court` is the full name (最高裁判所第三小法廷, 東京高等裁判所, …), `date` is ISO (YYYY-MM-DD),
    `decision_type` is 判決, 決定, 命令 or 審判, `case_number` lists every case number the citation gives
    (「平成13年(行ツ)第82号、平成13年(行ツ)第83号」) and `reporter` is the first reporter cited
    (「民集29巻2号143頁」), all in ASCII digits. Fields the text does not give are None.
    """

    start: int
    end: int
    surface: str
    court: str | None
    date: str | None
    decision_type: str | None
    case_number: str | None
    reporter: str | None
    date_problem: str | None = None  # why a written date gave no day (「平23・2・30 is no day」), for the reason

    @property
    def missing(self) -> tuple[str, ...]:
        """The parts a citation needs to point at one decision (court, date, type) that this one lacks."""
        needed = (("court", self.court), ("date", self.date), ("decision_type", self.decision_type))
        return tuple(name for name, value in needed if value is None)

    @property
    def status(self) -> str:
        return "unresolved" if self.missing else "resolved"

    @property
    def reason(self) -> str | None:
        """Why the citation cannot point at one decision: the parts it lacks, and a written date that is no day."""
        missing = self.missing
        if not missing:
            return None
        why = f"missing {', '.join(missing)}"
        return f"{why} ({self.date_problem})" if self.date_problem and self.date is None else why

    def to_json(self) -> dict[str, Any]:
        """The cite entry of `lexgraph cite --json`: statute fields null, kind "precedent"."""
        return {
            "start": self.start,
            "end": self.end,
            "surface": self.surface,
            "kind": "precedent",
            "law_title": None,
            "law_id": None,
            "revision_id": None,
            "article": None,
            "article_to": None,
            "paragraph": None,
            "item": None,
            "subitem": None,
            "version_note": None,
            "status": self.status,
            "reason": self.reason,
            "court": self.court,
            "date": self.date,
            "decision_type": self.decision_type,
            "case_number": self.case_number,
            "reporter": self.reporter,
        }


fill_dict_init(PrecedentMention)


@dataclass(frozen=True)
class _Court:
    """A court as read from one token: its name, the bench, and a type when the token was an abbreviation."""

    name: str | None  # None: the token names no court by itself (当裁判所, 同裁判所, a bare bench)
    bench: str | None = None
    decision_type: str | None = None
    same_as_previous: bool = False
    this_court: bool = False


# ----------------------------------------------------------------------------------------------------
# Normalisation of the parts


_ABBR_SC_RE = re.compile(r"最(大|[一二三123])?小?([判決])")
_ABBR_LOWER_RE = re.compile(
    rf"(?P<place>{_HIGH_PLACES}|{_PLACES}|知財)(?P<kind>高|地|家|簡)(?:(?P<branch>{_BRANCH})支)?(?P<t>[判決審])"
)
_FULL_LOWER_RE = re.compile(
    r"(?P<place>.+?)(?P<kind>高等裁判所|高裁|地方裁判所|地裁|家庭裁判所|家裁|簡易裁判所|簡裁|控訴院)"
    r"(?:(?P<branch>.+)支部)?"
)
_KIND_NAMES = {
    "高": "高等裁判所", "高等裁判所": "高等裁判所", "高裁": "高等裁判所",
    "地": "地方裁判所", "地方裁判所": "地方裁判所", "地裁": "地方裁判所",
    "家": "家庭裁判所", "家庭裁判所": "家庭裁判所", "家裁": "家庭裁判所",
    "簡": "簡易裁判所", "簡易裁判所": "簡易裁判所", "簡裁": "簡易裁判所",
    "控訴院": "控訴院",
}  # fmt: skip


def _bench_name(bench: str | None) -> str | None:
    """Only the Supreme Court's benches, the 大審院's 連合部 and the special division of the IP High Court (its
    大合議, formally 特別部) are part of a court's name."""
    if bench is None:
        return None
    if bench == "大法廷" or bench.endswith("小法廷") or bench.endswith("連合部"):
        return bench.translate(_BENCH_NUM)
    if bench in _SPECIAL_DIVISION_WORDS:
        return SPECIAL_DIVISION
    return None


# 知財高裁 大合議 (知財高大判, 「知財高裁平成１７年９月３０日大合議判決」, 「知財高判（大合議）」): five judges
# instead of three, formally the court's 特別部; its decisions carry weight of their own, so the bench is kept in the
# court's name.
SPECIAL_DIVISION = "特別部"
_SPECIAL_DIVISION_WORDS = ("大合議", "大合議部", "特別部", "(大合議)")
IP_HIGH_COURT = "知的財産高等裁判所"


def _read_court(raw: str) -> _Court:
    """Spell out one court token: 最高裁 → 最高裁判所, 最三小判 → 最高裁判所 + 第三小法廷 + 判決, …"""
    if raw in ("最高裁判所", "最高裁"):
        return _Court(SUPREME_COURT)
    if raw == "大審院":
        return _Court(GREAT_COURT)
    if raw == "当裁判所":
        return _Court(None, this_court=True)
    if raw in ("同裁判所", "同"):  # 「同昭和四二年（オ）…」 in a list: the court of the item before
        return _Court(None, same_as_previous=True)
    if raw in ("知的財産高等裁判所", "知財高裁"):
        return _Court(IP_HIGH_COURT)
    if raw in ("知財高大判", "知財高大決"):
        return _Court(IP_HIGH_COURT, SPECIAL_DIVISION, _TYPE_BY_SUFFIX[raw[-1]])
    if raw in ("大判", "大決", "大連判", "大連決"):
        return _Court(GREAT_COURT, "連合部" if "連" in raw else None, _TYPE_BY_SUFFIX[raw[-1]])
    m = _ABBR_SC_RE.fullmatch(raw)
    if m:
        bench = None
        if m[1] == "大":
            bench = "大法廷"
        elif m[1]:
            bench = f"第{m[1].translate(_BENCH_NUM)}小法廷"
        return _Court(SUPREME_COURT, bench, _TYPE_BY_SUFFIX[m[2]])
    m = _ABBR_LOWER_RE.fullmatch(raw)
    if m:
        if m["place"] == "知財":
            return _Court("知的財産高等裁判所", None, _TYPE_BY_SUFFIX[m["t"]])
        branch = f"{m['branch']}支部" if m["branch"] else ""
        return _Court(f"{m['place']}{_KIND_NAMES[m['kind']]}{branch}", None, _TYPE_BY_SUFFIX[m["t"]])
    m = _FULL_LOWER_RE.fullmatch(raw)
    if m:
        branch = f"{m['branch']}支部" if m["branch"] else ""
        return _Court(f"{m['place']}{_KIND_NAMES[m['kind']]}{branch}")
    return _Court(None)


def _with_bench(court: str | None, bench: str | None) -> str | None:
    if bench is None:
        return court
    if bench.endswith("法廷") and court in (None, SUPREME_COURT):
        return SUPREME_COURT + bench
    if bench.endswith("連合部") and court == GREAT_COURT:
        return GREAT_COURT + bench
    if bench == SPECIAL_DIVISION and court == IP_HIGH_COURT:
        return IP_HIGH_COURT + bench
    return court


def _strip_bench(court: str | None) -> str | None:
    if court and court.startswith(SUPREME_COURT):
        return SUPREME_COURT
    if court and court.startswith(GREAT_COURT):
        return GREAT_COURT
    if court and court.startswith(IP_HIGH_COURT):
        return IP_HIGH_COURT
    return court


_NUMBER_RE = re.compile(_N)


def _ascii_numbers(text: str) -> str:
    """Rewrite every number in `text` (kanji or digits) in ASCII digits: 二九巻二号 → 29巻2号."""

    def repl(m: re.Match[str]) -> str:
        value = kanji_to_int(m.group(0))
        return m.group(0) if value is None else str(value)

    return _NUMBER_RE.sub(repl, text)


def _format_year(era_date: EraDate) -> str:
    return f"{era_date.year_text}年"


_CASE_PART_RE = re.compile(rf"(?P<year>{_YEAR})?(?P<code>{_CASE_CODE})?(?P<no>{_CASE_NO})(?P<sep>ないし)?")


def _case_numbers(raw: str, previous: EraDate | None) -> tuple[list[str], EraDate | None]:
    """Split 「平成１３年（行ツ）第８２号，第８３号，同年（行ヒ）第７６号」 into normalised case numbers.

    Each number gets its year and code written out (「平成13年(行ツ)第83号」), 同年 and 同N年 are resolved
    against `previous`, and a range 「第５３６号ないし第５４２号」 stays one entry. Returns the numbers and
    the last year read, which is what a following 「同５０年」 refers to.
    """
    out: list[str] = []
    year: EraDate | None = None
    code = ""
    pending_range: str | None = None
    for m in _CASE_PART_RE.finditer(raw):
        if m["year"]:
            year = parse_era_date(m["year"], previous)
            if year is not None:
                previous = year
            code = ""
        if m["code"]:
            code = m["code"]
        number = "第" + _ascii_numbers(m["no"]).removeprefix("第")
        if pending_range is not None:
            out[-1] = f"{pending_range}ないし{number}"
            pending_range = None
        else:
            prefix = _format_year(year) if year else ""
            out.append(f"{prefix}{code}{number}")
        if m["sep"]:
            pending_range = out[-1]
    return out, previous


_LIT_DATE_PARTS_RE = re.compile(
    rf"(?P<era>{_ANY_ERA})(?P<y>{_YN})(?:{_DOT}(?P<m>{_DN}+){_DOT}(?P<d>{_DN}+)|年(?P<rest>.+))"
)


def _long_date(raw: str) -> str:
    """A literature date written out as the judgments write it: 平23・12・16 → 平成23年12月16日, 昭57年3月23日 →
    昭和57年3月23日, 令和4.6.17 → 令和4年6月17日, so that one date parser reads both."""
    m = _LIT_DATE_PARTS_RE.fullmatch(raw)
    if m is None:
        return raw
    era = _SHORT_ERAS.get(m["era"], m["era"])
    if m["rest"]:
        return f"{era}{m['y']}年{m['rest']}"
    return f"{era}{m['y']}年{m['m']}月{m['d']}日"


def _reporter(raw: str) -> str:
    """ASCII digits, and no 第 before them: 裁判集民事第２５７号 → 裁判集民事257号."""
    return re.sub(r"第(?=[0-9])", "", _ascii_numbers(raw))


# ----------------------------------------------------------------------------------------------------
# The finder


@dataclass(frozen=True)
class _Found:
    """A match turned into a mention, plus what the next citation of a list may inherit from it."""

    mention: PrecedentMention
    compact_start: int
    compact_end: int
    court: str | None
    context: _Court | None
    context_type: str | None


class _YearMentions:
    """Every era year written in the text, in order, so that 「同年」 can find the one it refers to.

    Read lazily and only as far as asked: most texts resolve their dates without looking back, and citations are
    read in order, so the text after the last citation that says 同 is never parsed.
    """

    def __init__(self, compact: str) -> None:
        self._unread = _YEAR_MENTION_RE.finditer(compact)
        self._read_to = -1  # end of the last mention read; past the text once all are read
        self._past_end = len(compact) + 1
        self._ends: list[int] = []
        self._dates: list[EraDate] = []

    def before(self, index: int) -> EraDate | None:
        """The last year mention that ends at or before compact `index`, read against the ones before it."""
        while self._read_to <= index:
            m = next(self._unread, None)
            if m is None:
                self._read_to = self._past_end
                break
            self._read_to = m.end()
            parsed = parse_era_date(m.group(0), self._dates[-1] if self._dates else None)
            if parsed is not None:
                self._ends.append(m.end())
                self._dates.append(parsed)
        k = bisect_right(self._ends, index)
        return self._dates[k - 1] if k else None


def find_precedents(text: str, *, citing_court: str | None = None) -> list[PrecedentMention]:
    """Every citation of a court decision in `text`, in order, with offsets into `text` as given.

    `citing_court` is the court that wrote the text (e.g. "最高裁判所" for a Supreme Court judgment). It is
    what 「当裁判所」 means, and the court of a citation that names none and whose case code does not tell.
    Without it such citations come back unresolved with the reason "missing court".
    """
    if not isinstance(text, str) or not text:
        return []
    compact = _CompactText.of(text)
    ctext = compact.text
    years = _YearMentions(ctext)
    found: list[_Found] = []
    for lo, hi in _candidate_stretches(ctext):
        for m in _citation_re().finditer(ctext, lo, hi):
            previous = found[-1] if found else None
            result = _read_match(m, ctext, compact, years, previous, citing_court)
            if result is not None:
                found.append(result)
    mentions = [f.mention for f in found]
    starts = [f.compact_start for f in found]  # found citations are in order and do not overlap
    # Every reporter's volume ends in 号 or 頁: without either there is no dateless citation to look for.
    dateless = _dateless_matches(ctext) if "号" in ctext or "頁" in ctext else iter(())
    for m in dateless:
        k = bisect_right(starts, m.start())
        overlaps = (k and found[k - 1].compact_end > m.start()) or (k < len(found) and starts[k] < m.end())
        if (m["court"] or m["bench"]) and not overlaps:
            mentions.append(_dateless(m, compact, citing_court))
    return sorted(mentions, key=lambda x: x.start) if len(mentions) > len(found) else mentions


def _candidate_stretches(ctext: str) -> Iterator[tuple[int, int]]:
    """(start, end) of the stretches of `ctext` between sentence ends that can hold a citation, in order.

    The grammar is tried at every kanji, which is slow, and most sentences of a judgment cite nothing. Every
    citation contains a date ending in 「…N日」 or 「同日」 and, to be kept, a decision type (判決, 決定,
    命令, 審判, 言渡, 宣告), a court abbreviation ending in 判/決/審 or a reporter ending in 号/頁; and no
    part of the grammar matches 。, 「 or 」, so a citation never crosses them nor reads past them. Scanning
    only the stretches with both kinds of anchor therefore finds exactly the citations a scan of the whole
    text finds.
    """
    for lo, end in _stretches_around(_DAY_RE, ctext):
        if _CITING_CHAR_RE.search(ctext, lo, end):
            yield lo, end


def _stretches_around(anchor_re: re.Pattern[str], ctext: str) -> Iterator[tuple[int, int]]:
    """The stretches of `ctext` between sentence ends (。, 「, 」) that hold a match of `anchor_re`, each once, in
    order: where the date and dateless grammars can match, since no part of either crosses a sentence end."""
    end = 0
    for anchor in anchor_re.finditer(ctext):
        if anchor.start() < end:
            continue  # in the stretch just read
        at = anchor.start()  # the stretch starts after the last 。「」 before the anchor (three C-level rfinds)
        lo = max(end, ctext.rfind("。", end, at) + 1, ctext.rfind("「", end, at) + 1, ctext.rfind("」", end, at) + 1)
        stop = _STRETCH_END_RE.search(ctext, anchor.end())
        end = stop.start() if stop else len(ctext)
        yield lo, end


def _dateless_matches(ctext: str) -> Iterator[re.Match[str]]:
    """The matches of the dateless grammar in `ctext` that may be kept: those in a stretch between sentence ends
    (。, 「, 」) that names a court or bench the grammar reads (最高裁, 大審院, 当裁判所, …法廷), in order.

    Why: the grammar was tried at every position of the text (a twentieth of the precedent finder's time), and only
    a match naming a court or bench is kept. Such a match holds one of those words and no sentence end, so it lies
    in a stretch this reads whole, and a match elsewhere, never kept, cannot take text from it: the matches kept
    are those of a scan of the whole text."""
    for lo, end in _stretches_around(_DATELESS_ANCHOR_RE, ctext):
        yield from _dateless_re().finditer(ctext, lo, end)


def _dateless(m: re.Match[str], compact: _CompactText, citing_court: str | None) -> PrecedentMention:
    court = _read_court(m["court"]) if m["court"] else _Court(None)
    name = citing_court if court.this_court else court.name
    o_start, o_end = compact.span(m.start(), m.end())
    return PrecedentMention(
        start=o_start,
        end=o_end,
        surface=compact.original[o_start:o_end],
        court=_with_bench(name, _bench_name(m["bench"])),
        date=None,
        decision_type=m["type"],
        case_number=None,
        reporter=_reporter(m["reporter"]),
    )


def _context_before(ctext: str, start: int) -> tuple[_Court | None, str | None]:
    """The court (and type) named by a label such as 「大審院判決（」 just before `start`, if any."""
    window_start = max(0, start - 40)
    if not ctext.endswith(_CONTEXT_ENDINGS, window_start, start):
        return None, None  # no label ends here: not worth trying the pattern at forty places
    m = _context_re().search(ctext, window_start, start)
    if m is None or m.end() != start:
        return None, None
    court = _read_court(m["court"]) if m["court"] else None
    bench = _bench_name(m["bench"] or m["bench2"])
    kind = m["kind"]
    if court is None and bench is None and kind not in ("判例", "裁判例"):
        return None, None  # 「原判決（」 or 「判決（」 alone names nothing
    if court is None:
        court = _Court(None)
    if bench:
        court = _Court(court.name, bench, court.decision_type, court.same_as_previous, court.this_court)
    decision_type = kind if kind in ("判決", "決定") else court.decision_type
    return court, decision_type


def _is_header(ctext: str, end: int) -> bool:
    """True when the match is followed by 主文: it is the judgment's own header, not a citation."""
    if end >= len(ctext) or ctext[end] != "主":
        return False
    tail = ctext[end + 1 : end + 40]
    return "文" in tail.split("。")[0]


def _read_match(
    m: re.Match[str],
    ctext: str,
    compact: _CompactText,
    years: _YearMentions,
    previous: _Found | None,
    citing_court: str | None,
) -> _Found | None:
    """Turn one grammar match into a mention, or None when the match is not a citation after all."""
    start, end = m.start(), m.end()
    reporter_raw = m["rk"] or m["rp"] or m["rg"]
    court_tok = _read_court(m["court"]) if m["court"] else None
    court2_tok = _read_court(m["court2"]) if m["court2"] else None
    bench = _bench_name(m["bench"]) or _bench_name(m["bench0"])
    abbr_type = court_tok.decision_type if court_tok else None
    if m["casename"] and not (m["court"] and m["cases"]):
        return None
    if m["litdate"] and not m["court"]:
        return None  # 「平23・12・16」 with no court before it is a date, not a citation
    if not (m["type"] or abbr_type or reporter_raw):
        return None  # a date that is not a citation: 「平成２０年９月２６日，…」
    if m["type"] and not reporter_raw and _CASE_NAME_AFTER_RE.match(ctext, end):
        return None  # 「令和元年７月２２日命令服従義務不存在確認請求事件」: a header, the type is a case name

    context, context_type = _context_before(ctext, start)
    in_list = previous is not None and _LIST_GAP_RE.fullmatch(ctext, previous.compact_end, start) is not None
    if context is None and in_list and previous is not None:
        context, context_type = previous.context, previous.context_type

    named = court_tok or court2_tok
    if not (named or bench or m["cases"] or reporter_raw or context or in_list):
        return None  # 「…日判決」 with nothing to say it is a court's decision being cited
    if not (named or reporter_raw) and _is_header(ctext, end):
        return None

    # Dates: the case numbers come first and set the era for 「同５０年」.
    prev_year = years.before(start) if "同" in m.group(0) else None
    case_numbers: list[str] = []
    if m["cases"]:
        case_numbers, prev_year = _case_numbers(m["cases"], prev_year)
    era_date = parse_era_date(_long_date(m["litdate"]) if m["litdate"] else m["date"], prev_year)
    day = era_date.to_date() if era_date else None
    iso = day.isoformat() if day else None
    if m["cases2"]:
        case_numbers += _case_numbers(m["cases2"], era_date)[0]

    court = _decide_court(court_tok, court2_tok, bench, context, in_list, previous, case_numbers, iso, citing_court)
    type_word = (m["type"] or "").removeprefix("各")
    decision_type = m["type2"] or m["type3"] or _TYPE_WORD.get(type_word) or abbr_type or context_type
    if decision_type is None and type_word.startswith(("言渡", "宣告")):
        decision_type = "判決"  # judgments are pronounced (言渡し, 宣告); decisions are notified (告知)

    o_start, o_end = compact.span(start, end)
    mention = PrecedentMention(
        start=o_start,
        end=o_end,
        surface=compact.original[o_start:o_end],
        court=court,
        date=iso,
        decision_type=decision_type,
        case_number="、".join(case_numbers) or None,
        reporter=_reporter(reporter_raw) if reporter_raw else None,
        date_problem=None if iso else _date_problem(m["date"]),
    )
    return _Found(mention, start, end, court, context, context_type)


def _date_problem(written: str) -> str:
    if "同" in written:
        return f"{written}: no earlier date in the text to read 同 against"
    return f"{written} is no day"


def _decide_court(
    court_tok: _Court | None,
    court2_tok: _Court | None,
    bench: str | None,
    context: _Court | None,
    in_list: bool,
    previous: _Found | None,
    case_numbers: list[str],
    iso: str | None,
    citing_court: str | None,
) -> str | None:
    """The court, from the most to the least explicit evidence.

    Named here > a bench (only the Supreme Court has 法廷) > the label before the parenthesis > the previous
    item of the same list > the case code > the court that wrote the text.
    """
    court: str | None = None
    for tok in (court_tok, court2_tok):
        if tok is None:
            continue
        if tok.name:
            court = tok.name
            bench = bench or tok.bench
        elif tok.same_as_previous and previous is not None:
            court = _strip_bench(previous.court)
        elif tok.this_court:
            court = citing_court
        break
    if bench is None and context is not None and context.bench and court in (None, SUPREME_COURT):
        bench = context.bench  # 「当裁判所大法廷判決（最高裁昭和３５年…判決…）」: the label gives the bench
    if court is None and bench is None and context is not None:
        if context.this_court:
            court = citing_court
        elif context.same_as_previous and previous is not None:
            court = _strip_bench(previous.court)
        else:
            court = context.name
    if court is None and bench is None and in_list and previous is not None:
        court = previous.court if previous.context is not None else _strip_bench(previous.court)
    if court is None and bench is None and case_numbers:
        court = _court_from_code(case_numbers, iso)
    if court is None and bench is None:
        court = citing_court
    return _with_bench(court, bench)


_CODE_RE = re.compile(r"\(([^()]+)\)")


def _court_from_code(case_numbers: list[str], iso: str | None) -> str | None:
    """Supreme Court case codes ((オ), (行ヒ), (あ) …) name the court when the text does not.

    Reads the first code of the normalised case numbers, wherever the match found them: before the date
    (group `cases`) or after 言渡 (group `cases2`, 「…言渡昭和二十二年（れ）第十三六号事件判決」), so that
    neither group being absent can matter.
    """
    m = next((found for number in case_numbers if (found := _CODE_RE.search(number))), None)
    if m is None or iso is None:
        return None
    code = m.group(1)
    if iso >= _SC_FOUNDED.isoformat():
        return SUPREME_COURT if code in _SC_CODES else None
    return GREAT_COURT if code in _OLD_CODES else None
