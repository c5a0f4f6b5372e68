"""The statute grammar and the reader of one text: where a law name ends, what a clause chain says.

`StatuteScan` holds the text of one `find_statutes` call (whitespace removed) and reads it on demand: the law named
before a position (`law_before`: a catalogue name by longest match, an abbreviation the text defined, 同法, この法律,
a bare 法 / 令, a law number, a name with its number in brackets, a version pin; a determiner glued to a name is not
part of it, and a heading on the line before never is) and the chain of clauses from an anchor on (`chain`:
第四条第一項本文、第二項本文若しくは第三項本文, 第一号から第五号まで, 第十三号ロからホまで). It decides nothing
about what to report: the citation passes (`lexgraph.citations.statute_passes`) walk the text in a listed order and
ask it. The regular expressions and the small readers below are the grammar the passes share.

Look-alikes are rejected by what precedes the anchor: a 号 or 項 glued to a word (民集６６巻２号, 判時１２３４号,
（受）第１８３３号, 法律第八十九号, ６号機) is not a clause, and 条件, 条約, 条例 are not articles.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from lexgraph.citations.compact import CompactText
from lexgraph.citations.lawnames import LawNames
from lexgraph.citations.layout import ends_line_as_written, is_word_char
from lexgraph.citations.literals import places
from lexgraph.citations.model import (
    LawRef,
    LawRefKind,
    Level,
    ProvisionRef,
    Relation,
    Step,
    VersionPin,
    fill_dict_init,
)
from lexgraph.citations.terms import DefinedTerms
from lexgraph.numerals import IROHA, NUMERAL_CHARS, egov_num, kanji_to_int, subitem_num
from lexgraph.statutes.catalog import kanji_number, normalize_law_num

_N = f"[{NUMERAL_CHARS}]+"
# A branch number: の二, の１４. Never の一 followed by a word (第二条の一部 is "a part of article 2").
# Old laws write ノ (刑法第二百三十条ノ二, 公有水面埋立法１３条ノ２).
_BRANCHES = rf"(?:[のノ](?!一(?![{NUMERAL_CHARS}]))[{NUMERAL_CHARS}]+)*"
_NOT_ARTICLE = "(?![件約例理規目々文項駅])"  # 三条件, 条約, 同条例, 条理, 条項, 五条駅
_NOT_PARAGRAPH = "(?!目)"  # 項目
# ６号機, ２６号俸, 甲第１号証, 号外, １号タンク, 第１号寄附金, ＩＬＯ九八号条約: numbered things, not items.
_NOT_ITEM = "(?![機俸証館線室車棟艦炉紙外表型店寄議])(?![ァ-ヴー]{2})(?!条約)"
UNIT = re.compile(
    rf"(?P<abs>第?(?P<n>{_N})(?:(?P<art>条){_NOT_ARTICLE}(?P<abr>{_BRANCHES})|(?P<par>項){_NOT_PARAGRAPH}"
    rf"|(?P<itm>号)(?P<ibr>{_BRANCHES}){_NOT_ITEM}))"
    rf"|(?P<rcp>(?:同|右)条項)"  # 同条項 = 同条 + 同項
    rf"|(?P<rel>(?P<rw>前各|前(?P<rc>[二三四五六七八九十2-9２-９])|前|次|同|右|本|この)"
    rf"(?:(?P<rart>条){_NOT_ARTICLE}|(?P<rpar>項){_NOT_PARAGRAPH}|(?P<ritm>号){_NOT_ITEM}))"
)
_SUBITEM = re.compile(rf"[{IROHA}](?![ァ-ヴー])|[(（][{NUMERAL_CHARS}]+[)）]|[⑴-⒇]")
_PART = re.compile(r"(?:各号列記以外の部分|本文|ただし書き?|但し?書き?|柱書き?)(?:前段|後段)?|前段|後段|各号|各項")
_PART_NAMES = {"ただし書き": "ただし書", "但書": "ただし書", "但し書": "ただし書", "但書き": "ただし書",
               "但し書き": "ただし書", "柱書き": "柱書", "各号列記以外の部分": "柱書"}
LIST_SEPARATOR = re.compile(r"[、，,・]|及び|並びに|又は|若しくは|及|並|又|若")
_NUMBER = re.compile(_N)
_SHARED_UNIT = re.compile(rf"(?:{_N}[、，,・])+(?P<last>{_N})(?P<unit>[項号]){_NOT_PARAGRAPH}")
_RANGE = re.compile(r"から|ないし|乃至|[～〜]")
_RANGE_END = re.compile(r"まで")

_ERA = "(?:明治|大正|昭和|平成|令和)"
_LAW_NUM = (
    rf"{_ERA}(?:元|{_N})年(?:{_N}月{_N}日)?"
    rf"(?:法律|政令|勅令|太政官布告|太政官達|[一-龥]{{0,12}}?(?:省令|府令|規則|告示|訓令|布告|条例))第?{_N}号"
)
# 「平成２５年６月２４日、同年法律第６８号（以下「平成２５年改正法」という。）」: the year of the date written before
# it (`StatuteScan.law_num_at`).
_SAME_YEAR_NUM = (rf"同年(?:{_N}月{_N}日)?(?:法律|政令|[一-龥]{{0,12}}?(?:省令|府令|規則|告示|条例))第?{_N}号")
LAW_NUMBER = re.compile(_LAW_NUM)
# Apart from LAW_NUMBER, whose literal start (an era's name) lets the engine skip through a text fast.
SAME_YEAR_NUMBER = re.compile(_SAME_YEAR_NUM)
_YEAR_BEFORE = re.compile(rf"{_ERA}(?:元|{_N})年")
_POSITIONAL = re.compile("[〇一二三四五六七八九]{2,}")  # 三一 (31), 二〇 (20): digits written in kanji
# What follows the number of an amending law: 「平成１８年法律第１１５号２条による」, 「…第９６号１条の規定による」.
_BY = rf"(?:{_N}条(?:の{_N})*(?:第?{_N}項)?)?(?:の規定)?による"
_AMENDED_BY = re.compile(_BY)
# 全部改正: the amending act replaced the law as a whole (a new law of the same title, under the act's own number).
_PIN_BEFORE = (rf"(?:(?P<num>{_LAW_NUM}){_BY}|(?P<year>{_ERA}(?:元|{_N})年)法?)?(?P<whole>全部)?改正(?P<dir>前|後)の"
               r"(?:もの)?\Z")


# The two version-pin patterns are compiled on first use: only a text that says 改正 needs them, and compiling
# them (two law-number alternations) was a share of every `lexgraph cite`'s start-up.
@functools.cache
def _pin_before_re() -> re.Pattern[str]:
    return re.compile(_PIN_BEFORE)


@functools.cache
def _pin_inside_re() -> re.Pattern[str]:
    return re.compile(_PIN_INSIDE)

# 「以下「新法」という」, and definitions for part of the text: 「次条において「新法」という」,
# 「附則第三条及び第五条において「旧法」という」 (common in 附則, where the old and new versions are named).
_DEFINITION = (
    r"(?:以下|において)(?:[^「」『』（）()。]{0,24}?[「『](?P<term>[^「」『』（）()。]{1,30}?)[」』]"
    r"|(?<=以下)[、，]?(?:単に)?(?P<bare>[^「」『』（）()。、，]{1,20}?))"
    r"と(?:いう|総称する|略称する|略す)"
)
DEFINITIONS = re.compile(_DEFINITION)
_PIN_INSIDE = rf"(?:(?P<num>{_LAW_NUM}){_BY})?(?P<whole>全部)?改正(?P<dir>前|後)のもの"
_SAME_AS_BEFORE = re.compile(r"以下同じ。?$")
MAX_BRACKET = 300
MAX_QUOTE = 200
# Between a citation and the quote of its words: 「同条２項が「」, 「九条二項においては、「」, 「１４条２項の「」.
QUOTE_LEAD = re.compile(r"(?:の規定)?(?:においては|において|には|では|は|が|も|で|に|の)?[、，,：:]?")
# After a citation that is the subject of its sentence: 「同条２項は，」, 「救済法３条は，」, 「同項において」.
TOPIC_LEAD = re.compile(r"(?:の規定)?(?:においては|において|には|では|は|が)")
# Words that name a law relative to the text: 同法 (the law cited last), この法律 (the law being read), and the
# bare 法 / 令 of a 施行令 or 施行規則 (its parent Act and Cabinet Order).
_LAW_WORDS = re.compile(
    r"(?:同法施行令|同法施行規則|同施行令|同施行規則|同法|同令|同規則|同条例|同規程"
    r"|本法|本令|本規則|この法律|この政令|この府令|この省令|この規則|この命令|法|令)\Z"
)
# How the name of a law ends, for names the catalogue does not know (本件条例, 韓国民法, 刑訴 of old judgments).
_LAW_SUFFIX = (
    "法", "律", "令", "則", "程", "条約", "規約", "例", "章", "綱", "達", "示", "協定", "刑訴", "民訴", "行訴",
)
_RUN_STOP = frozenset("第号項")
_NUMERAL_OR_ERA = frozenset("0123456789０１２３４５６７８９〇零一二三四五六七八九十百千元")
_MAX_NAME = 40
# The words an Act's title is made of (kanji, katakana, a few particles), ending in 法律: 「民法の一部を改正する法律」
_ACT_TITLE = re.compile(r"(?:[一-龥々ァ-ヴー・]|の(?!法律)|に関する|に対する|に伴う|を改正する|における|及び|並びに"
                        r"|のための)+の?(?<=[一-龥々ァ-ヴー・る])法律\Z")
_VERSION_PREFIX = re.compile(r"(?:[一-龥]{1,4})?(?:改正|廃止)(?:前|後)の")
_QUOTED_INSTRUMENTS = ("規程", "規則", "要綱", "条例")
_SAME_YEAR_REACH = 300  # how far back the year of a 同年 law number is looked for
PARTICLES = "はがのにをでともへや、，,"
# Words glued to a law name that are not part of it: determiners (右 "the aforesaid", 上記, 前記, 所論) and adverbs
# or conjunctions written without a comma (当然刑法３５条, それ故憲法３５条, 又憲法９８条).
_DETERMINERS = ("右", "上記", "前記", "前掲", "前示", "所論", "当該", "現行", "直接", "当然", "全然", "故", "又", "且",
                "以後")
# An amending law's 附則 names the article that amends another law: 「第一条中民法第八百二十二条を削り」,
# 「第六章中同法第百七十九条」. The name starts after 中.
_AMENDING_ARTICLE = re.compile(r"[条項号章節款](?:の[〇一二三四五六七八九十百千]+)*中\Z")


def _amends_at(text: str, position: int) -> bool:
    """Does `text` before `position` end an amending act's 「第一条中」 / 「第六章中」 (the words that say where the
    amendment applies), so that what follows is a law name of its own (「第七条中同法第三十条」)?"""
    return _AMENDING_ARTICLE.search(text, max(0, position - 12), position) is not None


# Words glued to 同法 / 同令 that are not part of a name: 以上同法１９７条ノ４, 各同法, その他同法.
_WORDS_BEFORE_SAME = ("以上", "各", "他", "及", "並", "又", "右")
# Words glued to a law name that pick a version of it: (word, before the amendment?).
_VERSION_WORDS = (("改正前", True), ("改正後", False), ("旧", True), ("新", False))
# A bare law name ends at 法/律/令/則 not followed by more of a word (民法の, 民法上; not 民法施行法).
BARE_NAME_END = re.compile(r"[法律令則](?=[^一-龥々ァ-ヴー]|[上等所第中]|\Z)")

LEVEL_ORDER: dict[Level, int] = {"article": 0, "paragraph": 1, "item": 2, "subitem": 3}
_RELATIONS: dict[str, Relation] = {"前各": "all_previous", "前": "previous", "次": "next", "同": "same",
                                   "右": "same", "本": "this", "この": "this"}
# Treaties and private instruments are not e-Gov law: 「同条約３２条」, 「上記条約」, 「管理規約」, 「本件契約」.
# Names with these endings that the catalogue does not know are not citations.
NOT_STATUTE_ENDINGS = ("条約", "規約", "協定", "契約", "約款", "定款")
# 「（平成６年法律第２号による改正前は７項）」: the same clause as numbered in another version, not a clause of
# its own that a later 同項 could mean.
PARALLEL_NOTE = re.compile(r"改正(?:前|後)(?:は|の)\Z|(?:旧|新)(?:法|規定)?では\Z")
# A generic type word standing for the law of that type named last: 「右規則四条」, 「規則四条」 after
# 「国民公園管理規則」.
_GENERIC_TYPES = ("規則", "条例", "省令", "府令", "政令")
_TYPE_PREFIX = re.compile(r"^(?:内閣府令|[一-龥]{1,6}?省令|政令|勅令)(?=[一-龥ァ-ヴー]{2})")
_TITLE_STOP = "、，,。「」『』（）()［］【】"
_TITLE_BREAKS = re.compile(r"[はが]")


def _glues(ch: str) -> bool:
    """A character that, right before a 第N号 / N項, shows the number belongs to something else (巻２号, （受）第
    １８３３号, Ａ２号)."""
    return is_word_char(ch) or _is_latin_or_digit(ch) or ch in "）)］]"


def _is_latin_or_digit(ch: str) -> bool:
    """ASCII or full-width letters and digits (Ａ２号, Ｍ０の２６号俸); not kana, which str.isalnum() also accepts."""
    return (ch.isascii() and ch.isalnum()) or "Ａ" <= ch <= "Ｚ" or "ａ" <= ch <= "ｚ" or "０" <= ch <= "９"



@dataclass(frozen=True)
class LawBefore:
    """The law named just before a clause reference, and where its words start."""

    start: int
    law: LawRef
    pin: VersionPin | None = None


fill_dict_init(LawBefore)  # one per law read before a clause


@dataclass(frozen=True)
class Element:
    """One element of a chain, in compact offsets: 第四条第一項本文 in 第四条第一項本文、第二項本文."""

    start: int
    end: int
    provision: ProvisionRef


fill_dict_init(Element)  # one per element of a chain


@dataclass
class StatuteScan:
    """The state of one call to `find_statutes`; it never escapes that call."""

    text: str
    names: LawNames
    breaks: frozenset[int] = frozenset()  # compact offsets where whitespace or a page number was removed
    law_numbers: dict[int, re.Match[str]] = field(default_factory=dict)  # by end offset
    defined_laws: list[tuple[re.Match[str], LawBefore]] = field(default_factory=list)  # definitions and their law
    definitions: DefinedTerms = field(default_factory=DefinedTerms)  # terms and where each takes effect
    last_chain_end: int = -1  # compact end of the last clause chain read as a citation
    compact: CompactText | None = None  # the original text, for the layout around a line break
    chains: list[tuple[int, int]] = field(default_factory=list)  # (compact end, start of its last element), in order
    chain_law: tuple[LawBefore | None, bool] = (None, False)  # the law and 附則 mark of the chain read last
    starts_line: bool = False  # the text starts a line (a whole text, not a window into one)
    heading_ends: dict[int, bool] = field(default_factory=dict)  # `_ends_heading`'s answers by position


    # --- law names ---------------------------------------------------------------------------------------------

    def law_num_at(self, position: int, written: str) -> str | None:
        """The law number `written` at `position`, in e-Gov's form; 同年法律第６８号 takes its year from the last
        year written before it (「平成２５年６月２４日、同年法律第６８号」), None when there is none near."""
        if not written.startswith("同年"):
            return law_num_of(written)
        years = list(_YEAR_BEFORE.finditer(self.text, max(0, position - _SAME_YEAR_REACH), position))
        if not years:
            return None
        return law_num_of(years[-1].group() + written[2:])

    def law_before(self, end: int) -> LawBefore | None:
        """The law reference ending at `end`, with a bracket of law number / version pin / definition after the
        name: 民法, 同法, 法, 個人情報の保護に関する法律（平成十五年法律第五十七号）, 平成十五年法律第五十七号."""
        t = self.text
        bracket: Bracket | None = None
        name_end = end
        if end > 0 and t[end - 1] in "）)":
            opening = opening_bracket(t, end - 1)
            bracket = read_bracket(t[opening + 1:end - 1]) if opening is not None else None
            if opening is None or bracket is None:
                return None
            name_end = opening
        law_num = bracket.law_num if bracket else None
        if law_num is not None and law_num.startswith("同年"):
            law_num = self.law_num_at(name_end, law_num)
        pin = bracket.pin if bracket else None
        named = self.name_ending_at(name_end)
        if (law_num is not None and (named is None or named[2] in _GENERIC_TYPES or named[2] == "法律"
                                     or (named[1] == "same" and named[2][-2:] in _GENERIC_TYPES))) or (
                named is not None and named[1] == "name" and named[2] == "法律"):
            # 「民法の一部を改正する法律（以下「改正法」という。）」, 「…を改正する法律第三条」: the title written in
            # full, not the word 法律 that ends it
            written = self._written_title(name_end) if law_num is not None else self._act_title(name_end)
            if written is not None:
                named = (written, "name", t[written:name_end].strip("「」『』"), None)
        elif named is None and name_end > 0 and t[name_end - 1] in "」』":
            # 「死刑確定者処遇規程」１６条: a 規程 / 規則 / 要綱 / 条例 whose title is in quotes is that instrument's
            # (outside the catalogue, as a rule), not the law named before it. Quoted 規約 and 条約 stay unread.
            written = self._written_title(name_end)
            if written is not None and t[written + 1:name_end - 1].endswith(_QUOTED_INSTRUMENTS):
                named = (written, "name", t[written:name_end].strip("「」『』"), None)
        if named is None:
            if law_num is None:
                return None
            return LawBefore(name_end, LawRef("number", law_num), pin)
        start, kind, name, glued_pin = named
        if pin is None:
            pin = glued_pin
        if pin is None:
            pin_match = pin_before(t, start)
            if pin_match is not None:
                pin = pin_of(t, pin_match)
        return LawBefore(start, LawRef(kind, name, law_num), pin)

    def name_ending_at(self, end: int) -> tuple[int, LawRefKind, str, VersionPin | None] | None:
        """(start, kind, name, pin) of the law name that ends at `end`: a defined abbreviation or a catalogue name
        by longest match, a law number, 同法 / この法律 / 法 / 令, or an unknown word that ends like a law name
        (本件条例, 韓国民法), which the resolver reports as not in the catalogue. `pin` is set when a word glued to
        a catalogue name says which version is meant (旧民法, 新薬事法)."""
        t = self.text
        if end <= 0:
            return None
        term_start = self._defined_term_ending_at(end)
        catalogue_start = self.names.longest_ending_at(t, end, max(0, end - 200))
        if term_start is not None and (catalogue_start is None or term_start <= catalogue_start):
            return term_start, "name", t[term_start:end], None
        if catalogue_start is not None:
            whole = self._title_after_amending_act(catalogue_start)
            if whole is not None and (term_start is None or whole < term_start):
                return whole, "name", t[whole:end], None
            start, pin = self.glued_start(catalogue_start, end)
            return start, "name", t[catalogue_start:end] if pin is not None else t[start:end], pin
        number = self.law_numbers.get(end)
        if number is not None:
            law_num = self.law_num_at(number.start(), number.group())
            return (number.start(), "number", law_num, None) if law_num is not None else None
        word = _LAW_WORDS.search(t, max(0, end - 6), end)
        if word is not None and (word.start() == 0 or not is_word_char(t[word.start() - 1])
                                 or self.starts_anew(word.start())
                                 or t.endswith(_WORDS_BEFORE_SAME, max(0, word.start() - 2), word.start())
                                 or _amends_at(t, word.start())):
            return word.start(), _law_word_kind(word.group()), word.group(), None
        run = self._run_start(end)
        name = t[run:end]
        if len(name) >= 2 and name.endswith(_LAW_SUFFIX):
            for determiner in _BARE_DETERMINERS:  # 右規則, 上記条例: the determiner is not part of the name
                if name.startswith(determiner) and name[len(determiner):] in _GENERIC_TYPES:
                    run += len(determiner)
                    name = name[len(determiner):]
            if name in _GENERIC_TYPES or (name.startswith("本件") and name[2:] in _GENERIC_TYPES):
                return run, "same", name, None  # 規則四条 after 国民公園管理規則: that 規則
            prefix = _TYPE_PREFIX.match(name)  # 厚生省令国民公園管理規則: the type word is not the title
            if prefix is not None:
                return run + prefix.end(), "name", name[prefix.end():], None
            return run, "name", name, None
        return None

    def _written_title(self, end: int) -> int | None:
        """Where the title of a law outside the catalogue starts, when the text writes it in full before its
        number: 「…から、公衆に著しく迷惑をかける暴力的不良行為等の防止に関する条例（昭和３７年東京都条例第１０３号）」,
        「「鳴門市…に関する条例」（平成２５年鳴門市条例第３２号。…）」. The title runs back to a punctuation mark
        or bracket (and past no は / が, which end a subject, not a title); it must read like a title (の or に関す
        る in it). None when no such title is there, so that the caller keeps what it found."""
        t = self.text
        if end > 0 and t[end - 1] in "」』":
            opening = t.rfind("「" if t[end - 1] == "」" else "『", max(0, end - 120), end - 1)
            if opening >= 0 and t[opening + 1:end - 1].endswith(_LAW_SUFFIX) and "」" not in t[opening + 1:end - 1]:
                return opening
            return None
        start = end
        limit = max(0, end - 80)
        while start > limit and t[start - 1] not in _TITLE_STOP and not (
                start in self.breaks and self._ends_heading(start)):
            start -= 1
        title = t[start:end]
        cut = max((m.end() for m in _TITLE_BREAKS.finditer(title)), default=0)
        title = title[cut:]
        for word in (*_BARE_DETERMINERS, "本件"):
            if title.startswith(word):
                title, cut = title[len(word):], cut + len(word)
        if len(title) < 4 or not title.endswith(_LAW_SUFFIX) or ("の" not in title and "関する" not in title):
            return None
        return start + cut

    def _title_after_amending_act(self, name_start: int) -> int | None:
        """Where the title starts when the text writes an amending act's number, による, then the whole
        title of the law it amended: 「平成１５年法律第５８号による行政機関の保有する
        電子計算機処理に係る個人情報の保護に関する法律（以下「旧法」という。）の全部改正」.
        What stands between による and the catalogue name the title ends in is part of that title (of a law
        no longer in force, which the catalogue does not hold), not prose before the name, so the law is the
        whole title and not the shorter law it ends in (個人情報の保護に関する法律, another law). None when
        nothing stands there, or a version word (改正前の), punctuation, a bracket or a subject's は / が:
        then the catalogue name is read as before."""
        t = self.text
        at = t.rfind("による", max(0, name_start - _MAX_NAME), name_start)
        if at < 0 or at + 3 >= name_start:
            return None
        between = t[at + 3:name_start]
        if (any(ch in _TITLE_STOP for ch in between) or _TITLE_BREAKS.search(between)
                or _VERSION_PREFIX.match(between) or between.startswith(("全部改正", "改正", "廃止"))):
            return None
        for number_end in range(max(0, at - 20), at + 1):  # the numbers are kept by their end offsets
            number = self.law_numbers.get(number_end)
            if number is None:
                continue
            by = _AMENDED_BY.match(t, number_end)
            if by is not None and by.end() == at + 3 and self.law_num_at(number.start(), number.group()):
                return at + 3
        return None

    def _act_title(self, end: int) -> int | None:
        """Where the title of an Act the catalogue does not know starts, written in full before its 法律 with no
        number after it (「民法の一部を改正する法律（以下「改正法」という。）」, 「国民年金法等の一部を改正する法律附則
        ２１条１項」): the longest run before `end` made only of the words titles are made of, so that the sentence
        before it (「しかも原判決において本件を暴力行為等処罰に関する法律」) and a version word (「…による廃止前の」)
        are not part of it."""
        title = _ACT_TITLE.search(self.text, max(0, end - 80), end)
        if title is None or title.end() != end:
            return None
        start = title.start()
        version = _VERSION_PREFIX.match(self.text, start, end)
        return version.end() if version is not None else start

    def glued_start(self, name_start: int, end: int) -> tuple[int, VersionPin | None]:
        """Where the citation of the catalogue name at `name_start` … `end` starts, when the name may be glued to
        the word before it. A determiner or an adverb is not part of the name (右国公法, 上記憲法, 当然刑法: the
        name starts after it); 旧 / 新 / 改正前 / 改正後 name a version of the law (旧民法: the citation starts at
        旧, with a pin); any other word makes a longer name that merely ends in a known one (韓国民法, 明治憲法,
        治安警察法), read as a whole. A heading or label on the line before is never glued (「当裁判所の判断\n\n
        刑訴法３８２条」)."""
        t = self.text
        if name_start == 0 or not is_word_char(t[name_start - 1]) or self.starts_anew(name_start):
            return name_start, None
        run = self._run_start(end)
        if run >= name_start:
            return name_start, None
        prefix = t[run:name_start]
        for word, before in _VERSION_WORDS:
            if prefix.endswith(word):
                rest = prefix[: -len(word)]
                if not rest or rest.endswith(_DETERMINERS):
                    return name_start - len(word), VersionPin(word, None, before)
        if prefix.endswith(_DETERMINERS) or _AMENDING_ARTICLE.search(prefix):
            return name_start, None
        return run, None

    def _defined_term_ending_at(self, end: int) -> int | None:
        return self.definitions.longest_ending_at(self.text, end)

    def _run_start(self, end: int) -> int:
        """Where the run of kanji / katakana ending at `end` starts (at most `_MAX_NAME` long, never across 年,
        第, 号 or 項, which end a law number or a clause rather than belong to a name, nor across the end of a
        heading)."""
        t = self.text
        start = end
        limit = max(0, end - _MAX_NAME)
        breaks = self.breaks
        while start > limit and (is_word_char(t[start - 1]) or t[start - 1] == "・"):
            ch = t[start - 1]
            if ch in _RUN_STOP or (ch == "年" and start >= 2 and t[start - 2] in _NUMERAL_OR_ERA):
                break
            if ch == "中" and _amends_at(t, start):  # 「第一条中雇用対策法第三十条」: the name starts after 中
                break
            if start in breaks and start < end and self._ends_heading(start):
                break
            start -= 1
        if start < end - 1 and self._after_label(start + 1):
            start += 1
        return start

    def _ends_heading(self, position: int) -> bool:
        """Does the whitespace removed before compact `position` end a heading, a label or a paragraph rather
        than merely wrap a line (`lexgraph.citations.layout`)? Read once per position: every name reader asks."""
        if position not in self.breaks:
            return False
        known = self.heading_ends.get(position)
        if known is None:
            compact = self.compact
            known = compact is not None and position > 0 and ends_line_as_written(
                compact.original, compact.to_original(position - 1), compact.to_original(position),
                self.starts_line)
            self.heading_ends[position] = known
        return known

    def starts_anew(self, position: int) -> bool:
        """Does the text at `position` start after a heading, a label or a paragraph end, so that nothing before
        it is part of the word or name that starts there (「判断\n同法３条」, 「ア\n地方税法」)?"""
        return position in self.breaks and (self._after_label(position) or self._ends_heading(position))

    def inside_word(self, position: int) -> bool:
        """Does the text at `position` continue a word (韓国|民法), rather than start one (、民法 / ア\n民法)?"""
        return position > 0 and is_word_char(self.text[position - 1]) and not self.starts_anew(position)

    def label_before(self, position: int) -> bool:
        """Is the text before `position` a bracketed label starting a line: 「(イ)」, 「（２）」?"""
        t = self.text
        if t[position - 1] not in "）)":
            return False
        opening = opening_bracket(t, position - 1, limit=6)
        return opening is not None and (opening == 0 or opening in self.breaks or t[opening - 1] in "。\n")

    def letter_label_before(self, position: int) -> bool:
        """Is the text before `position` a one-letter label that starts a line and is set off by a space: the
        choices of a question (「a 第23条の2の5第1項」), a numbered list (「1 第九条」)? Glued to the number (Ａ２号),
        or inside a line (「判時 2 第5条」), the letter is part of something else."""
        label = position - 1
        if not _is_latin_or_digit(self.text[label]) or (label > 0 and label not in self.breaks):
            return False
        if self.compact is None or label == 0:
            return True
        original = self.compact.original
        index = self.compact.to_original(label) - 1  # back over the spaces before the label, without a copy
        while index >= 0 and original[index] in " \t\u3000":
            index -= 1
        return index < 0 or original[index] == "\n"

    def _after_label(self, position: int) -> bool:
        """Is the character before `position` an enumeration label on a line of its own (「ア\n地方税法…」)? A
        single katakana followed by a line break, with no word before it."""
        t = self.text
        return (position in self.breaks and position >= 1 and "\u30a1" <= t[position - 1] <= "\u30fa"
                and (position < 2 or not is_word_char(t[position - 2]) or position - 1 in self.breaks))

    # --- clause chains -----------------------------------------------------------------------------------------

    def chain(self, start: int, previous: tuple[Step, ...] = ()) -> list[Element]:
        """The elements of the chain starting at `start`: 第五条及び第六条 → two; 第三条から第五条まで → one (a
        range); 第四条第一項本文、第二項本文 → two, the second inheriting 第四条. `previous` are the steps of the
        element a chain continues after a bracketed aside (`_continuation`)."""
        elements: list[Element] = []
        position = start
        while True:
            element = self._element(position, previous)
            if element is None:
                break
            elements.append(element)
            previous = element.provision.steps
            shared = self._shared_unit_list(element.end, previous)
            if shared:  # 六条一、三項 is 六条一項 and 六条三項, not 六条 as well
                elements.pop()
                head = shared[0]
                shared[0] = Element(element.start, head.end, head.provision)
                elements.extend(shared)
                previous = shared[-1].provision.steps
                element = shared[-1]
            separator = LIST_SEPARATOR.match(self.text, element.end)
            if separator is not None and self._starts_element(separator.end(), previous):
                position = separator.end()
            elif self._continues_without_separator(element.end, previous):
                position = element.end  # 本法二条三条: a list written without 、
            else:
                break
        return elements

    def _shared_unit_list(self, position: int, previous: tuple[Step, ...]) -> list[Element]:
        """「六条一、三項」, 「１条１２，１３項」: numbers that share the unit written after the last of them."""
        match = _SHARED_UNIT.match(self.text, position)
        if match is None:
            return []
        level: Level = "paragraph" if match["unit"] == "項" else "item"
        if previous[-1].level != "article" and not (level == "item" and previous[-1].level == "paragraph"):
            return []
        trunk = tuple(s for s in previous if LEVEL_ORDER[s.level] < LEVEL_ORDER[level])
        out = []
        for number in _NUMBER.finditer(self.text, match.start(), match.end()):
            end = match.end() if number.end() == match.end("last") else number.end()
            num = egov_num(number.group())
            if num is None:
                return []
            out.append(Element(number.start(), end, ProvisionRef((*trunk, Step(level, num)))))
        return out

    def _continues_without_separator(self, position: int, previous: tuple[Step, ...]) -> bool:
        unit = UNIT.match(self.text, position)
        return (unit is not None and unit["abs"] is not None and previous[0].relation is None
                and LEVEL_ORDER[step_of(unit).level] <= LEVEL_ORDER[previous[0].level])

    def _starts_element(self, position: int, previous: tuple[Step, ...]) -> bool:
        if UNIT.match(self.text, position) is not None:
            return True
        return previous[-1].level in ("item", "subitem") and _SUBITEM.match(self.text, position) is not None

    def _element(self, position: int, previous: tuple[Step, ...]) -> Element | None:
        t = self.text
        start = position
        steps: list[Step] = []
        while True:
            unit = UNIT.match(t, position)
            if unit is not None:
                step = step_of(unit)
                if steps and (step.relation is not None or LEVEL_ORDER[step.level] <= LEVEL_ORDER[steps[-1].level]):
                    break
                steps.append(step)
                if unit["rcp"]:
                    steps.append(Step("paragraph", relation="same"))
                position = unit.end()
                continue
            can_nest = (steps and steps[-1].level in ("item", "subitem")) or (
                not steps and previous and previous[-1].level in ("item", "subitem"))
            mark = _SUBITEM.match(t, position) if can_nest else None
            if mark is not None and (num := subitem_num(mark.group())) is not None:
                steps.append(Step("subitem", num))
                position = mark.end()
                continue
            break
        if not steps:
            return None
        position = self._range(position, steps)
        part = None
        part_match = _PART.match(t, position)
        if part_match is not None:
            part = _part_name(part_match.group())
            position = part_match.end()
        if previous and steps[0].relation is None:
            first = steps[0]
            if first.level == "subitem":
                inherited = previous[:-1] if previous[-1].level == "subitem" else previous
            else:
                inherited = tuple(s for s in previous if LEVEL_ORDER[s.level] < LEVEL_ORDER[first.level])
            steps = [*inherited, *steps]
        return Element(start, position, ProvisionRef(tuple(steps), part))

    def _range(self, position: int, steps: list[Step]) -> int:
        """第三条から第五条まで, ５９条ないし６１条, ロからホまで: set the last step's `num_to`, return the end."""
        t = self.text
        last = steps[-1]
        if last.relation is not None:
            return position
        joint = _RANGE.match(t, position)
        if joint is None:
            return position
        after = joint.end()
        end_num: str | None = None
        unit = UNIT.match(t, after)
        if last.level == "subitem":
            mark = _SUBITEM.match(t, after)
            if mark is not None and (end_num := subitem_num(mark.group())) is not None:
                after = mark.end()
        elif unit is not None and unit["abs"]:
            end_step = step_of(unit)
            if end_step.level == last.level:
                end_num = end_step.num
                after = unit.end()
        elif unit is not None and unit["rw"] == "前" and step_of(unit).level == last.level:
            # 第二項から前項まで: a range to the clause before the one being read, numbered by the resolver
            until = _RANGE_END.match(t, unit.end())
            if until is not None:
                steps[-1] = Step(last.level, last.num, to_relation="previous")
                return until.end()
        if end_num is None:
            return position
        steps[-1] = Step(last.level, last.num, end_num)
        until = _RANGE_END.match(t, after)
        return until.end() if until is not None else after


@dataclass(frozen=True)
class Bracket:
    """What a bracket right after a law name says about it: its number, a version pin, a name defined for it."""

    law_num: str | None
    pin: VersionPin | None
    term: str | None


def read_bracket(content: str) -> Bracket | None:
    """The bracket after a law name, or None if it says nothing about the law (民法（債権法）). Real brackets
    carry more than the parts read here (「（昭和４９年政令第２９５号。なお，同施行令の題名は，…に改められた。
    以下，改正の前後を問わず「公健法施行令」という。）」), so each part is looked for, not the whole matched:
    a law number at the start, a version pin, a definition or 以下同じ at the end."""
    if not content:
        return None
    number = LAW_NUMBER.match(content) or SAME_YEAR_NUMBER.match(content)
    pinned = _pin_inside_re().search(content) if "改正" in content else None
    definitions = list(DEFINITIONS.finditer(content))
    defined = definitions[-1] if definitions else None
    law_num = None
    # 「（平成２４年法律第２７号による改正前の…）」: a number followed by による is the amending law's
    if number is not None and not _AMENDED_BY.match(content, number.end()):
        law_num = law_num_of(number.group())
    pin = None
    if pinned is not None:
        pin = version_pin(content[pinned.start():pinned.end() - 3], pinned["num"], pinned["dir"],
                          whole=pinned["whole"] is not None)
    term = (defined["term"] or defined["bare"]) if defined is not None else None
    if law_num is None and pin is None and term is None and not _SAME_AS_BEFORE.search(content):
        return None
    return Bracket(law_num, pin, term)


# Every clause anchor holds 条, 項 or 号 (the unit), at most two characters after its start or after a run of
# numerals and 第 (第七百九条, 前各項, 同条項). The engine cannot skip to such places by itself (the pattern starts
# with an optional 第), and trying `UNIT` at every character took a fifth of the scan.
_UNIT_CHARS = "条項号"
_NUMBER_RUN = frozenset("0123456789０１２３４５６７８９〇零一二三四五六七八九十百千万壱弐参拾第")


def anchors(t: str) -> Iterator[re.Match[str]]:
    """The matches of `UNIT` in `t`, exactly as ``UNIT.finditer(t)`` gives them, found by jumping from one
    unit character to the next: no anchor can start before the run of numerals that leads to the next unit, nor
    after the unit without holding a later one.

    So the pattern is tried only at the few places from the start of that run to the unit. Where it fits at none
    (条件, 事項, 号外: a unit character of another word), the next unit character is looked for; searching on from
    there with the pattern instead tried it at every character up to the next anchor (a tenth of the finder's
    time on judgments, which hold far more words with 条 / 項 / 号 than citations)."""
    position = 0
    match = UNIT.match
    for at in places(t, _UNIT_CHARS):  # str.find: a character class tried every character of the text
        if at < position:
            continue  # inside the anchor just found
        start = at
        while start > position and t[start - 1] in _NUMBER_RUN:
            start -= 1
        for tried in range(max(position, min(start, at - 2)), at + 1):
            anchor = match(t, tried)
            if anchor is not None:
                yield anchor
                position = anchor.end()
                break
        else:
            position = at + 1


_PIN_ENDINGS = ("改正前の", "改正後の", "改正前のもの", "改正後のもの")


def pin_before(t: str, start: int) -> re.Match[str] | None:
    """「…による改正前の」 ending at `start`. Most names have none: the ending is checked before the pattern is
    tried at the forty places it could start."""
    if not t.endswith(_PIN_ENDINGS, max(0, start - 40), start):
        return None
    return _pin_before_re().search(t, max(0, start - 40), start)


_STEPS: dict[str, Step] = {}  # by the anchor's text, which decides its groups: a text repeats few anchors
_STEPS_KEPT = 20_000


def step_of(unit: re.Match[str]) -> Step:
    written = unit.group()
    step = _STEPS.get(written)
    if step is None:
        step = _read_step(unit)
        if len(_STEPS) < _STEPS_KEPT:
            _STEPS[written] = step
    return step


def _read_step(unit: re.Match[str]) -> Step:
    if unit["rcp"]:
        return Step("article", relation="same")
    if unit["abs"]:
        if unit["art"]:
            return Step("article", egov_num(unit["n"] + unit["abr"].replace("ノ", "の")))
        if unit["par"]:
            return Step("paragraph", egov_num(unit["n"]))
        return Step("item", egov_num(unit["n"] + unit["ibr"].replace("ノ", "の")))
    level: Level = "article" if unit["rart"] else "paragraph" if unit["rpar"] else "item"
    word = unit["rw"]
    if unit["rc"]:
        return Step(level, relation="previous", count=kanji_to_int(unit["rc"]) or 1)
    return Step(level, relation=_RELATIONS[word])


def accepts_bare_start(text: str, position: int, anchor: re.Match[str]) -> bool:
    """A chain with no law before it is a citation only if it does not continue another word: （２８条） and 、
    前項 are; 民集６６巻２号, 判時１２３４号, （受）第１８３３号, 契約書第５条, 資本条項 are not."""
    if position == 0:
        return True
    previous = text[position - 1]
    if anchor["itm"] and previous in "、，,・" and position >= 2 and text[position - 2] in _NUMERAL_OR_ERA:
        return False  # 甲５１，５２号: the tail of a list of numbers that are not clauses
    if anchor["rcp"]:
        return not is_word_char(previous) or previous in "下他及並又若"
    if anchor["rel"]:  # 以下本条, その他同条各号, 及同条
        if anchor["rw"] == "右":  # 左右項 is no reference
            return not is_word_char(previous)
        return anchor["rw"] == "この" or not is_word_char(previous) or previous in "下他及並又若"
    if previous in "．." and position >= 2 and _is_latin_or_digit(text[position - 2]):
        return False  # （１．３条）: a contract's section 1.3, not an article
    for word in _BARE_DETERMINERS:  # 右一五六条, 上記３条: the determiner points back at the law named before
        if text.endswith(word, 0, position) and (
                position == len(word) or not is_word_char(text[position - len(word) - 1])):
            return True
    return not _glues(previous)


_BARE_DETERMINERS = ("右", "上記", "前記", "前掲")


def _part_name(written: str) -> str:
    """ただし書き / 但書 → ただし書, 柱書き → 柱書, keeping a following 前段 / 後段 (ただし書前段)."""
    for suffix in ("前段", "後段"):
        if written.endswith(suffix) and written != suffix:
            return _PART_NAMES.get(written[:-2], written[:-2]) + suffix
    return _PART_NAMES.get(written, written)


def _law_word_kind(word: str) -> LawRefKind:
    if word.startswith("同"):
        return "same"
    if word == "法":
        return "act"
    if word == "令":
        return "order"
    return "this"


def law_num_of(written: str) -> str:
    """A law number as written → e-Gov's kanji form, positional kanji included: 昭和三一年文部省令第二八号 →
    昭和三十一年文部省令第二十八号."""
    if _POSITIONAL.search(written):
        written = _POSITIONAL.sub(lambda m: kanji_number(kanji_to_int(m.group()) or 0), written)
    return normalize_law_num(written)


def pin_note_of(written: str) -> str:
    """「平成１１年法律第１４９号による改正前の」 → 「平成１１年法律第１４９号による改正前」."""
    return written[: written.rindex("改正") + 3]


def version_pin(note: str, number: str | None, direction: str, whole: bool = False) -> VersionPin:
    return VersionPin(note=note, amending_law_num=law_num_of(number) if number else None,
                      before=direction == "前", whole=whole)


# 「改正法による改正前の」, 「平成２４年改正法による改正後の」: the word the text defined for an amending act
_BY_TERM = re.compile(r"([^「」『』（）()。、，,]{0,10}改正法)(?:の規定)?による\Z")


def pin_of(t: str, match: re.Match[str]) -> VersionPin:
    """The version pin `pin_before` found, with the defined word for the amending act written before it (none
    when the pin gives the amending law's number)."""
    pin = version_pin(pin_note_of(match.group()), match["num"], match["dir"], whole=match["whole"] is not None)
    if match["num"] is None and match["year"] is None:
        term = _BY_TERM.search(t, max(0, match.start() - 16), match.start())
        if term is not None:
            return VersionPin(pin.note, None, pin.before, term.group(1), pin.whole)
        numbered = _number_before_bracket(t, match.start())
        if numbered is not None:
            number, defined = numbered
            return VersionPin(pin.note, law_num_of(number), pin.before, defined, pin.whole)
    return pin


_BY_AFTER_BRACKET = re.compile(r"[）)](?:の規定)?による\Z")
_LAW_NUMBER_ENDING = re.compile(rf"(?:{_LAW_NUM})\Z")


def _number_before_bracket(t: str, end: int) -> tuple[str, str | None] | None:
    """The amending act's number (as written) and the word defined for it, where a bracket stands between the act
    and its による: 「平成２４年法律第９５号（以下「平成２４年改正法」という。）による改正前の」 (the number before the
    bracket), 「…の整備等に関する法律（平成１８年法律第５０号。以下「整備法」という。）による改正前の」 (the number
    that opens it). None where no number is written so."""
    by = _BY_AFTER_BRACKET.search(t, max(0, end - 8), end)
    if by is None:
        return None
    opening = opening_bracket(t, by.start())
    if opening is None:
        return None
    bracket = read_bracket(t[opening + 1:by.start()])
    if bracket is None:
        return None
    inside = LAW_NUMBER.match(t, opening + 1, by.start())
    if inside is not None and bracket.law_num is not None:
        return inside.group(), bracket.term
    before = _LAW_NUMBER_ENDING.search(t, max(0, opening - 40), opening)
    if before is not None and bracket.law_num is None and bracket.term is not None:
        return before.group(), bracket.term
    return None


def opening_bracket(text: str, closing: int, limit: int = MAX_BRACKET) -> int | None:
    """The （ matching the ） at `closing`, nesting respected, at most `limit` characters back."""
    depth = 0
    for position in range(closing, max(-1, closing - limit), -1):
        ch = text[position]
        if ch in "）)":
            depth += 1
        elif ch in "（(":
            depth -= 1
            if depth == 0:
                return position
    return None


def closing_bracket(text: str, opening: int, limit: int = MAX_BRACKET) -> int | None:
    depth = 0
    for position in range(opening, min(len(text), opening + limit)):
        ch = text[position]
        if ch in "（(":
            depth += 1
        elif ch in "）)":
            depth -= 1
            if depth == 0:
                return position
    return None


def opening_bracket_before(text: str, position: int, limit: int = 120) -> int | None:
    """The unclosed （ that `position` sits in, if it is near."""
    depth = 0
    for index in range(position - 1, max(-1, position - limit), -1):
        ch = text[index]
        if ch in "）)":
            depth += 1
        elif ch in "（(":
            if depth == 0:
                return index
            depth -= 1
    return None

