"""The citation passes of the statute finder: small objects with one job each, run in a listed order.

`find_statutes` runs `STATUTE_PASSES` over one text. Each pass reads the text through the shared `StatuteScan`
(law names, clause chains: the grammar) and adds what it finds to the `StatuteFinding` of the call; a later pass
sees what the earlier ones took, and that is why the order is part of the list:

1. `LawNumbers`     law numbers (平成十五年法律第五十七号): the clause pass must not read 第五十七号 as an item;
2. `Definitions`    「（以下「振興会法」という。）」: the terms a later name or clause may use;
3. `Appendices`     別表第一 / 様式第一号 with the law written before it; its span is blocked for the
   clause pass (様式第二号 is no item);
4. `Divisions`      第三章 / 第二章第三節 / 第三章から第四章の二まで, likewise; `RelativeDivisions` 前章 / この節
                     / 次款, the law being read's, relative to the citing clause;
5. `ClauseChains`   every chain of clauses with the law before it (民法７０９条, 同項, 第三条から第五条まで);
6. `WholeLaws`      laws cited as a whole, by number or by name and number, outside the clauses;
7. `LawItself`      この法律 / この政令 with no clause after it (この法律第五条 was a chain's): the law being read;
8. `BareNames`      catalogue names standing alone (民法の規定), kept for a later 同法 only;
9. `BareTerms`      defined abbreviations standing alone (旧労基法は…), likewise;
10. `DefinitionMentions`  the definitions themselves, for the resolver.

This is eyecite's split: the passes *find* what is written (mentions, `lexgraph.citations.model`); which law and
clause a mention means is *resolved* later (`lexgraph.citations.resolve`). A pass never resolves, and the order of
the passes is the only coupling between them. docs/architecture.md ("Adding a citation pass") shows how one is
added.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_left, bisect_right, insort
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol

from lexgraph.citations.literals import places
from lexgraph.citations.model import (
    AbbreviationDefinition,
    LawRef,
    Mention,
    ProvisionRef,
    StatuteMention,
    Step,
    TargetRef,
    VersionPin,
)
from lexgraph.citations.statute_scan import (
    BARE_NAME_END,
    DEFINITIONS,
    LAW_NUMBER,
    LEVEL_ORDER,
    LIST_SEPARATOR,
    MAX_BRACKET,
    MAX_QUOTE,
    NOT_STATUTE_ENDINGS,
    PARALLEL_NOTE,
    PARTICLES,
    QUOTE_LEAD,
    SAME_YEAR_NUMBER,
    TOPIC_LEAD,
    UNIT,
    Element,
    LawBefore,
    StatuteScan,
    accepts_bare_start,
    anchors,
    closing_bracket,
    is_word_char,
    opening_bracket_before,
    pin_before,
    pin_of,
    read_bracket,
    step_of,
)
from lexgraph.numerals import DIVISION_KEYS, NUMERAL_CHARS, division_segment, egov_num


@dataclass
class StatuteFinding:
    """What the passes of one `find_statutes` call have found so far, in compact offsets. `taken` are the spans
    read as clauses or whole laws, which later passes stay out of; `blocked` the law numbers' spans, which the
    clause pass skips. It never escapes the call."""

    found: list[tuple[int, int, Mention]] = field(default_factory=list)
    taken: list[tuple[int, int]] = field(default_factory=list)
    blocked: list[tuple[int, int]] = field(default_factory=list)
    _spans: Spans | None = None

    def take(self, start: int, end: int) -> None:
        self.taken.append((start, end))
        self._spans = None

    def spans(self) -> Spans:
        """`taken`, indexed for overlap queries; built once until the next `take`."""
        if self._spans is None:
            self._spans = Spans(self.taken)
        return self._spans


class StatutePass(Protocol):
    """One job of the statute finder. `run` reads `scan` and adds to `finding`; a pass keeps no state of its own
    (one instance serves every call, in every thread)."""

    name: str

    def run(self, scan: StatuteScan, finding: StatuteFinding) -> None: ...


class LawNumbers:
    """Law numbers (昭和二十二年法律第六十七号): remembered by their end for the law-name reader, and blocked for the
    clause pass, whose 第六十七号 would otherwise be an item."""

    name = "law-numbers"

    def run(self, scan: StatuteScan, finding: StatuteFinding) -> None:
        numbers = list(LAW_NUMBER.finditer(scan.text))
        if "同年" in scan.text:
            numbers.extend(SAME_YEAR_NUMBER.finditer(scan.text))
            numbers.sort(key=lambda m: m.start())
        scan.law_numbers = {m.end(): m for m in numbers}
        finding.blocked = [m.span() for m in numbers]


class Definitions:
    """Abbreviations the text defines for a law; they take effect from the end of their bracket on."""

    name = "definitions"

    def run(self, scan: StatuteScan, finding: StatuteFinding) -> None:
        self.collect_definitions(scan)

    def collect_definitions(self, scan: StatuteScan) -> None:
        """「（以下「振興会法」という。）」 after a law name: remember the term from the end of the bracket on,
        so that 振興会法第三条 later on is found and resolved."""
        for match in DEFINITIONS.finditer(scan.text):
            law = self._defined_law(scan, match)
            if law is not None:
                scan.definitions.add(match.end(), match["term"] or match["bare"])
                # kept for `definition_mentions`: the law depends only on the text before the bracket and the terms
                # defined before it, which are known by now
                scan.defined_laws.append((match, law))
    def _defined_law(self, scan: StatuteScan, definition: re.Match[str]) -> LawBefore | None:
        """The law a definition names: the one whose bracket it sits in (「民法（以下「法」という。）」), with the
        bracket's number and pin (「成立し（平成２７年法律第６０号。以下「平成２７年改正法」という。）」)."""
        t = scan.text
        opening = opening_bracket_before(t, definition.start())
        if opening is None:
            return None
        closing = closing_bracket(t, opening)
        law = scan.law_before(closing + 1) if closing is not None else None
        return law if law is not None else scan.law_before(opening)

_MAX_SENTENCE = 600  # a sentence of a judgment is rarely longer; further back is taken as another sentence
_OPENERS, _CLOSERS = "（(「『", "）)」』"


class ClauseChains:
    """Every clause chain with the law written before it: one mention per element of a list."""

    name = "clause-chains"

    def run(self, scan: StatuteScan, finding: StatuteFinding) -> None:
        found = finding.found
        for start, end, mention in self.clause_mentions(scan, finding.blocked):
            finding.take(start, end)
            if mention is not None:
                found.append((start, end, mention))

    def clause_mentions(
        self, scan: StatuteScan, blocked: list[tuple[int, int]]
    ) -> Iterator[tuple[int, int, StatuteMention | None]]:
        """Every clause chain: yields (compact start, compact end, mention) per element; mention is None for a
        region that was read and rejected (so that its list is not read again from its second element)."""
        t = scan.text
        consumed = 0
        blocks = iter(blocked)
        block = next(blocks, None)
        continuations: dict[int, tuple[tuple[Step, ...], LawBefore | None, bool]] = {}
        for anchor in anchors(t):
            begin = anchor.start()
            if begin < consumed:
                continue
            while block is not None and block[1] <= begin:
                block = next(blocks, None)
            if block is not None and block[0] <= begin:
                continue
            continued = continuations.pop(begin, None) if continuations else None
            elements = scan.chain(begin, continued[0]) if continued is not None else scan.chain(begin)
            if not elements:
                continue
            consumed = elements[-1].end
            if continued is not None:
                yield from self._continued_mentions(scan, elements, continued[1], continued[2])
            else:
                yield from self._chain_mentions(scan, begin, anchor, elements)
            following = self._continuation(scan, elements)
            if following is not None and (continued is not None or scan.last_chain_end == elements[-1].end):
                law_and_suppl = continued[1:] if continued is not None else scan.chain_law
                continuations[following] = (elements[-1].provision.steps, *law_and_suppl)
    def _continuation(self, scan: StatuteScan, elements: list[Element]) -> int | None:
        """Where the list of a chain goes on after a bracketed aside: in 「第七条第一項（第九条において準用する場合を
        含む。）、第四項（…）及び第五項」 the 第四項 and 第五項 are 第七条's, not the citing article's. The
        element after the bracket must name a level below the first level of the one before it, so that it has
        something to inherit; the bracket itself is read as usual."""
        t = scan.text
        end = elements[-1].end
        if end >= len(t) or t[end] not in "（(":
            return None
        closing = closing_bracket(t, end)
        if closing is None:
            return None
        separator = LIST_SEPARATOR.match(t, closing + 1)
        if separator is None:
            return None
        unit = UNIT.match(t, separator.end())
        if unit is None or unit["abs"] is None:
            return None
        steps = elements[-1].provision.steps
        if LEVEL_ORDER[step_of(unit).level] <= LEVEL_ORDER[steps[0].level]:
            return None
        return separator.end()
    def _continued_mentions(self, scan: StatuteScan, elements: list[Element], law: LawBefore | None,
                            suppl: bool) -> Iterator[tuple[int, int, StatuteMention | None]]:
        """The mentions of a chain that continues a list after a bracketed aside: the law of the list's first
        element, each element with the steps it inherits (`chain` gave them)."""
        for element in elements:
            provision = element.provision
            if suppl:
                provision = ProvisionRef(provision.steps, provision.part, suppl=True)
            yield element.start, element.end, StatuteMention(
                start=element.start, end=element.end, surface="", law=law.law if law is not None else None,
                provision=provision, pin=law.pin if law is not None else None, inherited=law is not None)
        scan.chains.append((elements[-1].end, elements[-1].start))
        scan.last_chain_end = elements[-1].end
    def _chain_mentions(
        self, scan: StatuteScan, begin: int, anchor: re.Match[str], elements: list[Element]
    ) -> Iterator[tuple[int, int, StatuteMention | None]]:
        t = scan.text
        chain_end = elements[-1].end
        position = begin
        suppl = False
        if position >= 2 and t.startswith("附則", position - 2):
            suppl = True
            position -= 2
        law = scan.law_before(position)
        if (law is not None and law.law.kind == "name" and law.law.name.endswith(NOT_STATUTE_ENDINGS)
                and law.law.name not in scan.names):
            yield position, chain_end, None  # 同条約３２条, 管理規約１２条: not e-Gov law
            return
        if law is not None:
            title_end = scan.names.referencing_title_at(t, law.start)
            if title_end is not None and title_end > begin:  # 金融商品取引法第二条に規定する定義に関する内閣府令
                yield law.start, title_end, None
                return
            first = elements[0].provision.steps[0]
            if first.level == "item" and first.relation is None and law.law.kind in ("name", "number"):
                yield position, chain_end, None  # 労働省告示第７５号: a law number, not an item of a law
                return
        same_prefix: Step | None = None
        if law is None and anchor["abs"] and not anchor["itm"] and position > 0 and t[position - 1] == "同" and (
            position < 2 or not is_word_char(t[position - 2])
        ):
            # 同二九条 (= 同法二九条), 同２項 (= 同条２項)
            if anchor["art"]:
                law = LawBefore(position - 1, LawRef("same", "同法"))
            else:
                same_prefix = Step("article", relation="same")
                position -= 1
        # 「(イ)\n１項の特例」: a short bracket on a line of its own is a label, not something the number is glued
        # to; 「最高裁平成１８年（行ツ）\n第１７６号」 is a case number broken across lines.
        labelled = position > 0 and position in scan.breaks and (
            scan.label_before(position) or scan.letter_label_before(position))
        if law is None and same_prefix is None and not labelled and not accepts_bare_start(t, position, anchor):
            yield position, chain_end, None
            return
        qualifies = (law is None and position > 0 and t[position - 1] in "（(" and position - 1 == scan.last_chain_end
                     and elements[0].provision.steps[0].level != "article")
        relation = elements[0].provision.steps[0].relation
        quoted = self._topic_clause(scan, position) if law is None and relation not in (None, "same") else None
        scope_end = self._aside_end(scan, law.start) if law is not None and law.law.kind in ("name", "number") else None
        pin = law.pin if law is not None else None
        parallel = law is None and PARALLEL_NOTE.search(t, max(0, position - 8), position) is not None
        suffix_pin = self._pin_after(scan, chain_end)
        if suffix_pin is not None:
            pin = suffix_pin
        sentence = self._sentence_start(scan, position) if law is None and relation is None else None
        for index, element in enumerate(elements):
            provision = element.provision
            if same_prefix is not None and provision.steps[0].relation is None:
                provision = ProvisionRef((same_prefix, *provision.steps), provision.part)
            if suppl:
                provision = ProvisionRef(provision.steps, provision.part, suppl=True)
            start = element.start if index else (law.start if law is not None else position)
            mention = StatuteMention(
                start=start, end=element.end, surface="", law=law.law if law is not None else None,
                provision=provision, pin=pin, inherited=index > 0 and law is not None, qualifies_previous=qualifies,
                quoted_in=quoted, scope_end=scope_end, parallel=parallel, sentence_start=sentence,
            )
            yield start, element.end, mention
        scan.chains.append((chain_end, start))
        scan.last_chain_end = chain_end
        scan.chain_law = (law, suppl)
    def _sentence_start(self, scan: StatuteScan, position: int) -> int:
        """Where the sentence holding `position` starts: after the last 「。」 before it that is not inside a bracket
        or quote, i.e. that is not followed by a closing bracket before any opening one (「（以下「法」という。）」,
        「（…金額。２条１９号）の」 and 「…とする。」と」 end no sentence of the text). Found with str.find, not a
        walk over the characters: this runs for every clause written without its law."""
        t = scan.text
        limit = max(0, position - _MAX_SENTENCE)
        end = t.rfind("。", limit, position)
        while end >= 0:
            reach = end + _MAX_SENTENCE
            closing = min((found for c in _CLOSERS if (found := t.find(c, end + 1, reach)) >= 0), default=reach)
            opening = min((found for c in _OPENERS if (found := t.find(c, end + 1, reach)) >= 0), default=reach)
            if closing >= opening:
                return end + 1
            end = t.rfind("。", limit, end)
        return limit

    def _topic_clause(self, scan: StatuteScan, position: int) -> int | None:
        """The start of the clause citation whose words the relative reference at `position` repeats: the clause
        a quote is introduced by (「同条２項が「前項の協議が調わないとき…」」, 「１４条２項の「前項ただし書の場合
        における…」」), else the clause the sentence is about (「同条２項は，前項の政令においては，…旨規定し」,
        「救済法３条は，…前条２項の規定により…」). None when the sentence cites no clause as its subject, as in
        「前項で述べたとおり」."""
        t = scan.text
        chains = scan.chains
        index = bisect_right(chains, (position, -1))
        if index == 0:
            return None
        sentence = t.rfind("。", max(0, position - MAX_QUOTE), position)
        if sentence < 0:
            sentence = position - MAX_QUOTE
        opening = t.rfind("「", max(0, sentence), position)
        quoted = opening >= 0 and "」" not in t[opening:position]
        while index > 0:
            index -= 1
            end, start = chains[index]
            if end <= sentence:
                break
            if quoted and end <= opening and opening - end <= 8 and QUOTE_LEAD.fullmatch(t, end, opening):
                return start
            if TOPIC_LEAD.match(t, end):
                return start
        return None
    def _aside_end(self, scan: StatuteScan, position: int) -> int | None:
        """The end of the bracket `position` sits in, when the bracket is an aside with sentences of its own
        (「（地方自治法２５２条の１９第１項の…長。以下同じ。）」) rather than a list of citations
        (「（民法７０９条）」)."""
        t = scan.text
        near = max(0, position - 120)
        opening = max(t.rfind("（", near, position), t.rfind("(", near, position))
        if opening < 0:
            return None
        if "）" in t[opening:position] or ")" in t[opening:position]:  # a closed bracket on the way: count
            found = opening_bracket_before(t, position)
            if found is None:
                return None
            opening = found
        closing = t.find("）", position, opening + MAX_BRACKET)
        if closing < 0 or "（" in t[position:closing] or "(" in t[opening:position]:
            found = closing_bracket(t, opening)  # nested or ASCII brackets: count
            if found is None:
                return None
            closing = found
        return closing + 1 if "。" in t[position:closing] else None
    def _pin_after(self, scan: StatuteScan, end: int) -> VersionPin | None:
        """「（平成２９年法律第４４号による改正前のもの）」 right after a citation."""
        t = scan.text
        if end >= len(t) or t[end] not in "（(":
            return None
        closing = closing_bracket(t, end)
        bracket = read_bracket(t[end + 1:closing]) if closing is not None else None
        return bracket.pin if bracket is not None else None

class WholeLaws:
    """Laws cited as a whole, where no clause chain took the place: each kept one is taken."""

    name = "whole-laws"

    def run(self, scan: StatuteScan, finding: StatuteFinding) -> None:
        chained_laws = {m.start for _, _, m in finding.found if isinstance(m, StatuteMention)}
        clauses = finding.spans()
        whole_laws: list[tuple[int, int]] = []  # law-level spans kept: disjoint, so sorted by start and by end
        for start, end, mention in self.law_level_mentions(scan):
            if start not in chained_laws and not clauses.overlaps(start, end) and not overlaps_disjoint(
                    whole_laws, start, end):
                finding.found.append((start, end, mention))
                insort(whole_laws, (start, end))
                finding.take(start, end)

    def law_level_mentions(self, scan: StatuteScan) -> Iterator[tuple[int, int, StatuteMention]]:
        """Laws cited as a whole: 「…法律（平成十五年法律第五十七号）」 and a bare 平成十五年法律第五十七号. A
        number that is a version pin (…による改正前の) is part of another citation and is not reported."""
        t = scan.text
        for number in scan.law_numbers.values():
            start, end = number.span()
            if t.startswith(("による改正", "による廃止"), end):
                continue  # a version pin: part of the citation of the law it pins
            if start > 0 and t[start - 1] in "（(":
                closing = closing_bracket(t, start - 1)
                bracket = read_bracket(t[start:closing]) if closing is not None else None
                if closing is None or bracket is None or bracket.law_num is None:
                    continue
                law = scan.law_before(closing + 1)
                if law is None:
                    continue
                # 「…法律（平成十五年法律第五十七号）」 spans name and bracket; 「成立し（平成２７年法律第６０号。…）」,
                # a bracket after no name, just the number
                first, last = (law.start, closing + 1) if law.law.kind != "number" else (start, end)
                yield first, last, StatuteMention(
                    start=first, end=last, surface="", law=law.law, provision=None, pin=law.pin)
            else:
                law_num = scan.law_num_at(start, number.group())
                if law_num is None:
                    continue
                yield start, end, StatuteMention(
                    start=start, end=end, surface="", law=LawRef("number", law_num), provision=None)

_NUM = f"[{NUMERAL_CHARS}]+(?:[のノ][{NUMERAL_CHARS}]+)*"
_BRANCH = f"(?:[のノ][{NUMERAL_CHARS}]+)*"  # 第四章の二
_DIVISION = (rf"(?:第{_NUM}[編章節款目]{_BRANCH})+"
             rf"(?:から第(?P<to>{_NUM})(?P<to_level>[編章節款目])(?P<to_branch>{_BRANCH})まで)?")
_DIVISION_STEP = rf"第(?P<num>{_NUM})(?P<level>[編章節款目])(?P<branch>{_BRANCH})"
_DIVISION_CHARS = "編章節款目"  # the level words of a division (第三章, 第二節 …)
# NUMERAL_CHARS, spelt out
_NUMERALS = frozenset("0123456789０１２３４５６７８９〇零一二三四五六七八九十百千万壱弐参拾")
# The title ends where no word goes on (別表第二及び, 別表第一第三号: 及 / 第 start the next words; 別表第一表 does not)
_APPENDIX = rf"(?:別表|別記様式|様式(?=第))(?:第{_NUM}号?)?(?!(?![及並又若第])[一-龥ァ-ヶ])"


# The division and appendix patterns are compiled on first use, not at import: most texts name no division (第三章)
# and no appendix (別表, 様式), and compiling them was a share of every `lexgraph cite`'s start-up.
@functools.cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)
_LAW_ITSELF = re.compile(r"この(?:法律|政令|府令|省令|規則)(?![第一-龥])")


def _division_path(written: str) -> str | None:
    """第二章第三節 → ``ch2/se3`` (e-Gov Nums); None when the levels do not go down (第三節第二章) or a number
    cannot be read."""
    parts = []
    order = -1
    for step in _compiled(_DIVISION_STEP).finditer(written):
        level = list(DIVISION_KEYS).index(step["level"])
        segment = division_segment(step["num"].replace("ノ", "の"), step["level"], step["branch"].replace("ノ", "の"))
        if segment is None or level <= order:
            return None
        order = level
        parts.append(segment)
    return "/".join(parts) or None


class _PartPass:
    """A reference to something of a law that is no clause: it starts with the law written before it (民法第四編,
    同法別表第一, 法別表) or with nothing glued before it. It runs before the clause chains and blocks its span for
    them: 様式第二号 is no item 第二号, 別表第一第三号 no item of the law."""

    name = "part"

    def matches(self, scan: StatuteScan) -> Iterator[tuple[int, int, TargetRef]]:
        raise NotImplementedError

    def run(self, scan: StatuteScan, finding: StatuteFinding) -> None:
        taken = finding.spans()
        t = scan.text
        for start, end, target in self.matches(scan):
            if taken.overlaps(start, end):
                continue
            law = scan.law_before(start)
            if law is not None and law.law.kind == "name" and law.law.name.endswith(NOT_STATUTE_ENDINGS) and (
                    law.law.name not in scan.names):
                continue  # 規約第三章: not e-Gov law
            if law is not None and law.law.kind == "name" and _RELATIVE_DIVISION.fullmatch(law.law.name):
                continue  # 次章第二節: a relative chapter, no law's name (and not read with a level under it)
            if law is None and start > 0 and (is_word_char(t[start - 1]) or t[start - 1] in "」』"):
                continue  # 附則第二章, 前記別表, 「…」別表: glued to a word that is not a law the scanner can read
            first = law.start if law is not None else start
            if taken.overlaps(first, end):
                first = start
                law = None
            finding.found.append((first, end, StatuteMention(
                start=first, end=end, surface="", law=law.law if law is not None else None, provision=None,
                pin=law.pin if law is not None else None, target=target)))
            finding.take(first, end)
            insort(finding.blocked, (first, end))
            taken = finding.spans()


class Divisions(_PartPass):
    """第三章, 第二章第三節, 第三章から第四章の二まで: a division of a law."""

    name = "divisions"

    def matches(self, scan: StatuteScan) -> Iterator[tuple[int, int, TargetRef]]:
        t = scan.text
        consumed = 0
        # jump from one level word to the next (章 is common, 第 far more): a division has a numeral before it and
        # 第 before the numerals; only then is the pattern tried, from that 第. The level words are found with
        # str.find (`places`): a character class made the engine test every character of the text.
        for start in places(t, _DIVISION_CHARS):
            if start < consumed or start == 0 or t[start - 1] not in _NUMERALS:
                continue
            while start > 0 and t[start - 1] in _NUMERALS:
                start -= 1
            if start == 0 or t[start - 1] != "第":
                continue
            match = _compiled(_DIVISION).match(t, start - 1)
            if match is None:
                continue
            start, end = match.span()
            consumed = end
            if end < len(t) and (t[end] == "第" or (is_word_char(t[end]) and t[end] not in "及並又若")):
                continue  # 第三章第五条 (a clause), 第二章関係, 第三章中
            written = t[start:match.start("to") - 2] if match["to"] else t[start:end]
            path = _division_path(written)
            if path is None:
                continue
            path_to = None
            if match["to"]:
                to_num = egov_num((match["to"] + match["to_branch"]).replace("ノ", "の"))
                if to_num is None:
                    continue
                key = DIVISION_KEYS[match["to_level"]]
                # 第三章第一節から第三節まで: the end keeps the levels above its own (ch3/se3)
                keys = list(DIVISION_KEYS.values())
                above = [p for p in path.split("/") if keys.index(p[:2]) < keys.index(key)]
                path_to = "/".join([*above, f"{key}{to_num}"])
            yield start, end, TargetRef("division", t[start:end], path, path_to)


_RELATIVE_DIVISION = re.compile("(?:前|この|次)[編章節款目]")


class RelativeDivisions:
    """前章 / この章 / 次章, 前節 / この節 / 次節, 前款 / この款, 前編 / この編: a division of the law
    being read, relative to the division the citing clause sits in. Only the law being read: a law written right
    before it (民法前章) is no drafter's usage, so the words are taken only where nothing glues to them (同前章,
    前章第二節, 前章中 are left alone). Which division is meant is known only from the law's structure (the
    resolver and the linker read it from a store); the mention carries the words."""

    name = "relative-divisions"

    def run(self, scan: StatuteScan, finding: StatuteFinding) -> None:
        t = scan.text
        if "章" not in t and "節" not in t and "款" not in t and "編" not in t and "目" not in t:
            return
        taken = finding.spans()
        for match in _RELATIVE_DIVISION.finditer(t):
            start, end = match.span()
            if taken.overlaps(start, end):
                continue
            if start > 0 and (is_word_char(t[start - 1]) or t[start - 1] in "」』"):
                continue  # 同前章, 「…」前節: glued to a word
            if end < len(t) and (t[end] == "第" or (is_word_char(t[end]) and t[end] not in "及並又若")):
                continue  # 前章第二節, 前章中, 次節以下
            finding.found.append((start, end, StatuteMention(
                start=start, end=end, surface="", law=None, provision=None,
                target=TargetRef("division", match.group(), relative=True))))
            finding.take(start, end)
            insort(finding.blocked, (start, end))
            taken = finding.spans()


class Appendices(_PartPass):
    """別表第一, 別表, 様式第一号, 別記様式第二号: an appendix of a law."""

    name = "appendices"

    def matches(self, scan: StatuteScan) -> Iterator[tuple[int, int, TargetRef]]:
        t = scan.text
        if "別表" not in t and "様式" not in t:  # every appendix's name has one of them
            return
        for match in _compiled(_APPENDIX).finditer(t):
            yield match.start(), match.end(), TargetRef("appendix", match.group())


class LawItself:
    """この法律 / この政令 / この府令 / この省令 / この規則 with no clause after it: the law being read.
    この法律第五条 is a clause chain's, taken before this pass runs."""

    name = "law-itself"

    def run(self, scan: StatuteScan, finding: StatuteFinding) -> None:
        taken = finding.spans()
        for match in _LAW_ITSELF.finditer(scan.text):
            start, end = match.span()
            if taken.overlaps(start, end):
                continue
            finding.found.append((start, end, StatuteMention(
                start=start, end=end, surface="", law=LawRef("this", match.group()), provision=None,
                target=TargetRef("law", match.group()))))
            finding.take(start, end)


class BareNames:
    """Catalogue names standing alone, outside what was taken; they take nothing themselves."""

    name = "bare-names"

    def run(self, scan: StatuteScan, finding: StatuteFinding) -> None:
        outside = finding.spans()
        for start, end, mention in self.bare_names(scan, outside):
            if not outside.overlaps(start, end):
                finding.found.append((start, end, mention))

    def bare_names(self, scan: StatuteScan, taken: Spans) -> Iterator[tuple[int, int, StatuteMention]]:
        """Catalogue names standing alone (民法の規定, 民法上): not citations of a clause, but the law a later
        同法 refers to. A name whose last character is in a span already `taken` (民法 of 民法７０９条, most
        of them) is skipped at once: whatever it would be, its span overlaps that one."""
        t = scan.text
        for match in BARE_NAME_END.finditer(t):
            end = match.end()
            if taken.overlaps(end - 1, end):
                continue
            start = scan.names.longest_ending_at(t, end, max(0, end - 200))
            if start is None:
                continue
            first, pin = scan.glued_start(start, end)  # 右国公法, 旧民法; not 韓国民法
            if first < start and pin is None:
                continue
            if pin is not None and t[first:end] in scan.definitions:
                continue  # 「以下「旧労基法」という」: a term the text defines, whose definition says which version
            if pin is None:
                pin_match = pin_before(t, start)
                pin = pin_of(t, pin_match) if pin_match else None
            yield first, end, StatuteMention(
                start=first, end=end, surface="", law=LawRef("name", t[start:end]), provision=None, pin=pin,
                bare=True)

class BareTerms:
    """Defined abbreviations standing alone, outside what was taken; they take nothing themselves."""

    name = "bare-terms"

    def run(self, scan: StatuteScan, finding: StatuteFinding) -> None:
        outside = finding.spans()
        for start, end, mention in self.bare_terms(scan, outside):
            if not outside.overlaps(start, end):
                finding.found.append((start, end, mention))

    def bare_terms(self, scan: StatuteScan, taken: Spans) -> Iterator[tuple[int, int, StatuteMention]]:
        """Defined abbreviations standing alone (旧労基法は…, 「(1) 法は，…（１条）」): like bare names, they tell
        a later （１条） or 同法 which law the text is talking about. A one-character term (法) counts only as the
        subject or object of a phrase (法は, 法の, 法が), since the character is in so many words."""
        t = scan.text
        for position, term in scan.definitions.occurrences(t, single_before=PARTICLES):
            end = position + len(term)
            follows = t[end] if end < len(t) else ""
            if len(term) == 1:
                fits = follows != "" and follows in PARTICLES
            else:
                fits = not follows or not is_word_char(follows) or follows in "上等所第中"
            # The character after is looked at first: a one-character term (法) occurs thousands of times in a
            # judgment, mostly inside words, and that test is far cheaper than the search of the spans taken.
            if fits and not taken.overlaps(position, end) and not scan.inside_word(position):
                yield position, end, StatuteMention(
                    start=position, end=end, surface="", law=LawRef("name", term), provision=None, bare=True)

class DefinitionMentions:
    """The definitions `Definitions` collected, as mentions for the resolver."""

    name = "definition-mentions"

    def run(self, scan: StatuteScan, finding: StatuteFinding) -> None:
        finding.found.extend(self.definition_mentions(scan))

    def definition_mentions(self, scan: StatuteScan) -> Iterator[tuple[int, int, AbbreviationDefinition]]:
        for match, law in scan.defined_laws:
            yield match.start(), match.end(), AbbreviationDefinition(
                start=match.start(), end=match.end(), term=match["term"] or match["bare"], law=law.law, pin=law.pin)

#: The passes of `find_statutes`, in the order they run (see the module docstring for why this order).
STATUTE_PASSES: tuple[StatutePass, ...] = (
    LawNumbers(), Definitions(), Appendices(), Divisions(), RelativeDivisions(), ClauseChains(), WholeLaws(),
    LawItself(), BareNames(),
    BareTerms(), DefinitionMentions(),
)


def overlaps_disjoint(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    """Does start … end overlap one of `spans`, which are sorted and disjoint? Only the last span starting
    before `end` can: it ends last of those."""
    index = bisect_left(spans, (end, -1))
    return index > 0 and spans[index - 1][1] > start


class Spans:
    """Spans indexed for "does anything overlap start … end?" in log time: sorted by start, with the furthest
    end reached so far."""

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        ordered = sorted(spans)
        self._starts = [s for s, _ in ordered]
        self._reach: list[int] = []
        reach = -1
        for _, e in ordered:
            reach = max(reach, e)
            self._reach.append(reach)

    def overlaps(self, start: int, end: int) -> bool:
        index = bisect_left(self._starts, end)  # spans starting before `end`
        return index > 0 and self._reach[index - 1] > start
