"""What a law's stored versions say about the amendments between them (docs/statutes.md).

A consolidated e-Gov text carries the 附則 of every amending law in force by then (``<SupplProvision
AmendLawNum="平成三〇年六月二〇日法律第五九号">``), and the first sentence of each fixes its 施行期日
(「この法律は、平成三十四年四月一日から施行する。」). So a later version tells the store which amendments took
effect between two versions it holds, and when. If any did, the earlier version's wording is known in force only
up to the first of them: after that day a clause whose wording differs at the next stored version may already
have changed, and lexgraph must not show the old wording as in force (`plan_gaps`).

The parser writes 附則 paths as ``suppl[平成30年6月20日法律第59号]`` (`normalize_amend_law_num`), so the amendments
are read back from clause paths and texts alone: freshly parsed versions and versions read back from the store give
the same answer, and the whole module is pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta

from lexgraph.dates import ERAS, era_day
from lexgraph.errors import DateFormatError
from lexgraph.model import KnownAmendment, ParsedProvision
from lexgraph.numerals import int_to_kanji, kanji_to_int

_SUPPL_SEGMENT = re.compile(
    r"^suppl\[(明治|大正|昭和|平成|令和)(\d+|元)年(?:(\d+)月(\d+)日)?(法律|政令|勅令|[^第\]]*?)第(\d+)号\]"
)
_KANJI_NUMBER = "[〇一二三四五六七八九十]+"
_ERA_DATE = rf"(明治|大正|昭和|平成|令和)([元〇一二三四五六七八九十]+)年({_KANJI_NUMBER})月({_KANJI_NUMBER})日"
# The day it takes effect is the date written right before から(、これを)施行する, possibly in brackets after the
# name of another law's enforcement day (「商業登記法の施行の日（昭和三十九年四月一日）から施行する」).
_ENFORCED_ON = re.compile(_ERA_DATE + r"）?から(?:、これを)?施行")
_ON_PROMULGATION = re.compile(r"公布の日から(?:、これを)?施行")
# 「公布の日から起算して六月を経過した日から施行する」 fixes the day; 「…一年を超えない範囲内において政令で定める日」
# only bounds it. A period of N months counted from the promulgation day ends the day before the same date N months
# on, so the day it has "passed" is that date, and the last day "within" it the day before.
_COUNTED = re.compile(rf"公布の日から起算して((?:{_KANJI_NUMBER}年)?(?:{_KANJI_NUMBER}月)?(?:{_KANJI_NUMBER}日)?)を"
                      r"(経過した日|超えない範囲内|こえない範囲内)")
_PERIOD_PART = re.compile(rf"({_KANJI_NUMBER})([年月日])")
_ERA_CODES = {"明治": "1", "大正": "2", "昭和": "3", "平成": "4", "令和": "5"}
_ACT_ID = re.compile(r"^(\d)(\d\d)AC\d(\d{9})$")


@dataclass(frozen=True)
class VersionAmendments:
    """One stored version as `plan_gaps` needs it: when it starts, which law starts it, what its 附則 name."""

    revision_id: str
    starts: date | None
    amended_by: str | None  # the e-Gov id of the amending law (501AC0000000034), None for a snapshot
    named: tuple[KnownAmendment, ...]


@dataclass(frozen=True)
class VersionPeriod:
    """`known_until`: the first day on which an amendment the store does not hold may have changed the wording
    (None when nothing is known to intervene before the next version); `gap`: those amendments, in date order."""

    revision_id: str
    known_until: date | None
    gap: tuple[KnownAmendment, ...]


def named_amendments(provisions: Iterable[ParsedProvision]) -> tuple[KnownAmendment, ...]:
    """The amending laws whose 附則 a version carries, each with the 施行期日 its first sentence fixes."""
    first_text: dict[str, tuple[int, str]] = {}
    for p in provisions:
        segment = p.path.split("/", 1)[0]
        if segment.startswith("suppl[") and p.text.strip() and (segment not in first_text
                                                                 or p.seq < first_text[segment][0]):
            first_text[segment] = (p.seq, p.text)
    found: dict[str, KnownAmendment] = {}
    for segment, (_, text) in first_text.items():
        amendment = _amendment(segment, text)
        if amendment is not None:
            found.setdefault(amendment.law_num, amendment)
    return tuple(sorted(found.values(), key=_order))


def _amendment(segment: str, text: str) -> KnownAmendment | None:
    match = _SUPPL_SEGMENT.match(segment)
    if match is None:
        return None
    era, year_text, month, day, kind, number = match.groups()
    year = 1 if year_text == "元" else int(year_text)
    law_num = f"{era}{'元' if year == 1 else int_to_kanji(year)}年{kind}第{int_to_kanji(int(number))}号"
    promulgated = _day(era, year, int(month), int(day)) if month and day else None
    first_sentence = text.split("。", 1)[0].split("\u3000", 1)[-1] if "。" in text else text
    enforced: date | None = None
    basis = "unknown"
    latest: date | None = None
    if m := _ENFORCED_ON.search(first_sentence):
        enforced = _day(m.group(1), *(kanji_to_int(g) or 1 for g in m.groups()[1:]))
        basis = "date" if enforced is not None else "unknown"
    elif _ON_PROMULGATION.search(first_sentence) and promulgated is not None:
        enforced, basis = promulgated, "promulgation"
    elif (m := _COUNTED.search(first_sentence)) and promulgated is not None and m.group(1):
        end = _after(promulgated, m.group(1))
        if m.group(2) == "経過した日":
            enforced, basis = end, "counted"
        elif end is not None:
            latest = end - timedelta(days=1)
    return KnownAmendment(law_num=law_num, promulgated=promulgated, enforced_from=enforced, basis=basis,
                          enforcement=first_sentence.strip() + ("。" if first_sentence.strip() else ""),
                          latest=latest)


def _after(start: date, period: str) -> date | None:
    """The same date a period (一年六月, 二十日) after `start`: where a period counted from `start` has passed."""
    years = months = days = 0
    for number, unit in _PERIOD_PART.findall(period):
        value = kanji_to_int(number) or 0
        if unit == "年":
            years = value
        elif unit == "月":
            months = value
        else:
            days = value
    total = start.month - 1 + months + 12 * years
    year, month = start.year + total // 12, total % 12 + 1
    for day in range(start.day, 27, -1) if start.day > 28 else (start.day,):  # 31 January + a month: end of Feb
        try:
            return date(year, month, day) + timedelta(days=days)
        except ValueError:
            continue
    return None


def _day(era: str, year: int, month: int, day: int) -> date | None:
    try:
        return era_day(era, year, month, day)
    except DateFormatError:
        return None


def _order(amendment: KnownAmendment) -> tuple[date, str]:
    return (amendment.enforced_from or amendment.promulgated or date.min, amendment.law_num)


def law_num_of_act_id(law_id: str) -> str | None:
    """The law number an e-Gov Act id stands for (``430AC0000000059`` → 平成三十年法律第五十九号), so that an
    amendment named in a 附則 is recognised as the one that starts a stored version."""
    match = _ACT_ID.match(law_id)
    if match is None:
        return None
    era = next((name for name, code in _ERA_CODES.items() if code == match.group(1)), None)
    if era is None or era not in ERAS:
        return None
    # The digits before the number mark who proposed the law (504AC0100000052: a member's bill, 令和四年法律第五十二号).
    year, number = int(match.group(2)), int(match.group(3)[-6:])
    return f"{era}{'元' if year == 1 else int_to_kanji(year)}年法律第{int_to_kanji(number)}号"


def plan_gaps(versions: Sequence[VersionAmendments], also_held: Iterable[str] = ()) -> tuple[VersionPeriod, ...]:
    """For versions in time order, how long each one's wording is known in force.

    Between version i and i+1, an amendment that does not start a stored version falls in the gap when its
    施行期日 lies strictly between their starts. One whose 施行期日 the text does not fix (政令で定める日, another
    law's enforcement day) falls in it when the window the text gives (「公布の日から起算して一年を超えない範囲内」)
    reaches past version i's start, or, with no window, when version i+1 names it and no version up to i does;
    it may have taken effect from the day after version i began (or its promulgation, if later), and that
    earliest day counts. The last version has no gap here: how far it is known is `LawVersionInfo.known_up_to`.
    `also_held`: law numbers of amendments another source accounts for (e-Gov's revision list names a revision
    of theirs), which therefore fall in no gap even though the store holds no text of theirs.
    """
    held = {num for v in versions if v.amended_by and (num := law_num_of_act_id(v.amended_by))} | set(also_held)
    periods: list[VersionPeriod] = []
    for i, version in enumerate(versions):
        following = versions[i + 1] if i + 1 < len(versions) else None
        if following is None or version.starts is None or following.starts is None:
            periods.append(VersionPeriod(version.revision_id, None, ()))
            continue
        already = {a.law_num for v in versions[: i + 1] for a in v.named}
        next_names = {a.law_num for a in following.named}
        later = {a.law_num: a for v in versions[i + 1 :] for a in v.named}
        candidates = {a.law_num: a for a in version.named} | later
        gap: list[KnownAmendment] = []
        for num, amendment in candidates.items():
            if num in held:
                continue
            if amendment.enforced_from is not None:
                if version.starts < amendment.enforced_from < following.starts:
                    gap.append(amendment)
            elif amendment.latest is not None:  # a 政令 fixes the day within a window the text gives
                earliest = max(version.starts + timedelta(days=1), amendment.promulgated or date.min)
                if earliest < following.starts and amendment.latest > version.starts:
                    gap.append(replace(amendment, earliest=earliest))
            elif num not in already and num in next_names:
                # No bound at all (another law's enforcement day): a version lists the 附則 of the amendments in
                # force by then, so one that the next version lists and this one does not came in between.
                earliest = max(version.starts + timedelta(days=1), amendment.promulgated or date.min)
                if earliest < following.starts:
                    gap.append(replace(amendment, earliest=earliest))
        gap.sort(key=lambda a: (a.enforced_from or a.earliest or date.min, a.law_num))
        starts = [a.enforced_from or a.earliest for a in gap]
        known_until = min((d for d in starts if d is not None), default=None)
        periods.append(VersionPeriod(version.revision_id, known_until, tuple(gap)))
    return tuple(periods)
