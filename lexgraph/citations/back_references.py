"""Back references to a precedent cited before in the same document: 同判決, 同決定, 前掲最判,
前掲最大判, 前掲大判, 前掲最高裁判決, 前掲大法廷判決.

eyecite's "id." is the model: the words are *found* apart from the citations, then *resolved* against what the
document cited before them. A back reference comes out as a precedent citation with its antecedent's fields and a
reason saying it was read as a back reference, or unresolved with the reason when no antecedent can be pinned.

The resolver never guesses:

* 同判決 / 同決定 means the 判決 / 決定 the text named last. That is the precedent cited last only when no other
  判決 / 決定 was written after it (「…判決を受け、同判決は確定した」 names a judgment the text speaks of, no
  precedent cited: nothing is reported). With no 判決 / 決定 written before it at all, it is reported unresolved.
  A 同判決書 (the document) or 同判決理由 is no back reference of this kind: the words must not go on into a word.
* 前掲 with a court (前掲最判, 前掲大判, 前掲大法廷判決) means a decision of that court and type cited earlier; one
  such decision is the antecedent, several are a reason (the text does not say which), none is a reason too. A
  前掲 with a date (前掲最判平23・12・16) is a full citation, found by the precedent finder, not here.

`BackReferences` keeps what it needs of the text read so far (the precedents cited, the last 判決 / 決定 written),
so that a streamed read (`lexgraph.citations.stream`) carries it from one piece to the next as a whole read does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from lexgraph.citations.literals import finditer_at
from lexgraph.citations.model import Citation
from lexgraph.citations.statute_passes import Spans

_GAP = r"\s*"
# 同判決 / 同決定 not going on into a word (同判決書, 同決定書, 同判決理由 are other things)
_SAME = re.compile(rf"同{_GAP}(?P<type>判{_GAP}決|決{_GAP}定)(?![一-龥ァ-ヶ])")
_EARLIER = re.compile(
    r"前掲(?P<court>最高裁判所|最高裁|最|大審院|大(?=判|決))?"
    r"(?P<bench>大法廷|第[一二三１２３1-3]小法廷|[一二三１２３1-3]小|大(?=判|決))?"
    r"(?P<type>判決|決定|判|決)(?![一-龥ァ-ヶ])")
_WORD = re.compile(rf"判{_GAP}決|決{_GAP}定")
_BENCHES = {"一": "第一小法廷", "二": "第二小法廷", "三": "第三小法廷"}
_DIGIT = str.maketrans("１２３123", "一二三一二三")


@dataclass
class BackReferences:
    """The reading state of a document's back references: every precedent cited so far (for 前掲) and, per
    decision type, what the text named last (a precedent citation, or None for a 判決 / 決定 that is none)."""

    cited: list[Citation] = field(default_factory=list)
    last: dict[str, Citation | None] = field(default_factory=dict)

    def read(self, text: str, offset: int, start: int, end: int, citations: list[Citation]) -> list[Citation]:
        """The back references starting in start … end (offsets into the whole document) of `text` (a window of
        it starting at `offset`), resolved against what was read before them; `citations` are those of the same
        stretch, whose precedents become antecedents. Pieces must be read in order."""
        precedents = [c for c in citations if c.kind == "precedent" and start <= c.start < end]
        spans = Spans([(c.start, c.end) for c in citations])
        events: list[tuple[int, int, str, re.Match[str] | Citation | None]] = []
        for c in precedents:
            events.append((c.start, 1, "precedent", c))
        found: list[tuple[int, int, str, re.Match[str]]] = []
        for pattern, kind in ((_SAME, "same"), (_EARLIER, "earlier")):
            for match in pattern.finditer(text):
                first, last = match.start() + offset, match.end() + offset
                if start <= first < end and not spans.overlaps(first, last):
                    found.append((first, last, kind, match))
        taken = Spans([(f, la) for f, la, _, _ in found])
        for first, _, kind, match in found:
            events.append((first, 2, kind, match))
        for match in finditer_at(_WORD, text, "判決"):  # every match starts with 判 or 決: found with str.find
            first, last = match.start() + offset, match.end() + offset
            if start <= first < end and not spans.overlaps(first, last) and not taken.overlaps(first, last):
                events.append((first, 0, "word", match))
        out: list[Citation] = []
        for position, _, kind, item in sorted(events, key=lambda e: (e[0], e[1])):
            if kind == "precedent":
                assert isinstance(item, Citation)
                self.cited.append(item)
                if item.decision_type in ("判決", "決定"):
                    self.last[item.decision_type] = item
            elif kind == "word":
                assert isinstance(item, re.Match)
                self.last[_type(item.group())] = None
            else:
                assert isinstance(item, re.Match)
                citation = self._same(item, position) if kind == "same" else self._earlier(item, position)
                if citation is not None:
                    out.append(citation)
        return out

    def _same(self, match: re.Match[str], position: int) -> Citation | None:
        decision = _type(match["type"])
        surface = match.group()
        if decision not in self.last:
            return _unresolved(match, position, f"{surface}: no {decision} is written before it in the document, so "
                                                "it refers to none cited: not resolved")
        antecedent = self.last[decision]
        if antecedent is None:
            return None  # the 判決 / 決定 named last is none the document cites (原判決, …判決を受け): not a precedent
        return _back(match, position, antecedent)

    def _earlier(self, match: re.Match[str], position: int) -> Citation | None:
        decision = _type(match["type"])
        court = _court(match["court"], match["bench"])
        if court is None:
            return None
        fits = {(c.court, c.date, c.case_number): c for c in self.cited
                if c.status == "resolved" and c.decision_type == decision and c.court is not None
                and (c.court == court if court != "最高裁判所" else c.court.startswith(court))}
        surface = match.group()
        if not fits:
            return _unresolved(match, position, f"{surface}: no {court} {decision} is cited before it in the "
                                                "document: not resolved")
        if len(fits) > 1:
            return _unresolved(match, position, f"{surface}: {len(fits)} {court} {decision}s are cited before it "
                                                "in the document, and the text does not say which: not resolved")
        return _back(match, position, next(iter(fits.values())))


def _type(written: str) -> str:
    return "判決" if written.startswith("判") else "決定"


def _court(court: str | None, bench: str | None) -> str | None:
    """前掲最判 → 最高裁判所 (any bench), 前掲最大判 / 前掲大法廷判決 → 最高裁判所大法廷, 前掲最一小判 → 第一小法廷,
    前掲大判 → 大審院; None when no court or bench is written (前掲判決: which court is not said)."""
    if court in ("大審院",) or (court == "大" and bench is None):
        return "大審院"
    if bench is not None:
        if bench.startswith("大"):
            return "最高裁判所大法廷"
        digit = bench.translate(_DIGIT).removeprefix("第")[0]
        return f"最高裁判所{_BENCHES[digit]}"
    if court is not None:
        return "最高裁判所"
    return None


def _back(match: re.Match[str], position: int, antecedent: Citation) -> Citation:
    surface = match.group()
    why = (f"{surface} read as a back reference to the precedent cited before it (「{antecedent.surface}」 at "
           f"{antecedent.start})")
    return replace(antecedent, start=position, end=position + len(surface), surface=surface,
                   reason="; ".join(r for r in (why, antecedent.reason) if r))


def _unresolved(match: re.Match[str], position: int, reason: str) -> Citation:
    surface = match.group()
    return Citation(start=position, end=position + len(surface), surface=surface, kind="precedent",
                    status="unresolved", reason=reason,
                    decision_type=_type(match["type"]))
