"""Domain values shared by every layer.

Everything here is a frozen dataclass so that values can be hashed, compared and passed between the parser, the
versioning logic and the stores without anyone mutating them behind another's back. This module imports nothing
of lexgraph's own: it is the innermost ring of the dependency graph.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import date
from typing import Final


class AnyWording(enum.Enum):
    """The type of `ANY_WORDING`: "every wording there ever was", as opposed to a day."""

    ANY_WORDING = "any wording"


ANY_WORDING: Final = AnyWording.ANY_WORDING
"""Passed as ``as_of``: every wording of a clause, no date filter (documents citing a clause in any version, a
search over every version, the whole graph). ``as_of=None`` never means this: it always means today."""

NOT_STORED_LABEL: Final = "本文未収録：他の判決の引用からのみ知られる判例です"
"""Said wherever a placeholder precedent (a stub: cited by stored judgments, its own text never ingested) is shown,
so that nobody takes an empty text for what the court said: `ask`, `search`, `precedent show`."""

AsOf = date | AnyWording | None
"""A day; None for today (`as_of_day`); or `ANY_WORDING`."""


def as_of_day(as_of: date | None) -> date:
    """The day an ``as_of`` names: None means today. The one place lexgraph chooses the default day."""
    return date.today() if as_of is None else as_of


def day_filter(as_of: AsOf) -> date | None:
    """A date filter from an ``as_of``: `ANY_WORDING` gives None (no filter); None gives today."""
    return None if isinstance(as_of, AnyWording) else as_of_day(as_of)


@dataclass(frozen=True)
class SentenceText:
    """One sentence of a clause with its role, so that 「ただし書」 or 「前段」 can be pointed at later.

    Roles: 本文 / ただし書 (Function="main"/"proviso"), 柱書 (the lead-in of a clause that has items),
    前段 / 後段 (two plain sentences in one clause), 第N文 beyond two, 列N for table-like columns.
    """

    role: str
    text: str


@dataclass(frozen=True)
class ParsedProvision:
    """A clause as it reads in one XML file, before it is placed in time.

    `path` is the clause's address inside the law and is stable across versions (``a709/p1/i2``); `text` is the
    full text of the clause including its sub-clauses, which is what a reader means by "the text of 709条".
    """

    path: str
    kind: str
    num: str
    title: str
    caption: str
    heading: str
    text: str
    sentences: tuple[SentenceText, ...]
    seq: int
    parent_path: str | None


@dataclass(frozen=True)
class LawMeta:
    """Law-level metadata read from the XML root and LawNum / LawTitle elements."""

    law_num: str
    title: str
    law_type: str
    era: str
    year: int | None
    num: str
    kana: str = ""
    abbrev: tuple[str, ...] = ()
    promulgated: date | None = None
    xml_format: str = "bulk2020"  # "bulk2020" (Num="89", DataInfo) or "api_v2" (Num="089", PromulgateMonth)
    # The enacting formula of an ordinance (e-Gov EnactStatement: 「…法（…）第…条の規定に基づき、…を次のように
    # 定める。」), which says the Act its bare 法 means (lexgraph.statutes.enact); "" for a law without one.
    enact_statement: str = ""
    # e-Gov's own note that this text's 施行期日 is not fixed (its <Law> gives only ScheduledEnforcementDate, the
    # latest possible or a placeholder day, or is UnEnforced with an EnforcementComment): what the note says, or "".
    open_day: str = ""


@dataclass(frozen=True)
class ParsedLaw:
    """One XML file: its metadata and its clauses in document order."""

    meta: LawMeta
    provisions: tuple[ParsedProvision, ...]
    source: str


@dataclass(frozen=True)
class RevisionId:
    """An e-Gov revision id, ``<law_id>_<YYYYMMDD>_<amending law id>``, or a snapshot we dated ourselves.

    A snapshot is a copy of a law known to be in force on `known_in_force_on` whose enforcement date is unknown;
    its id is ``<law_id>_snapshot<YYYYMMDD>`` so that it can never be mistaken for an e-Gov id.
    """

    law_id: str
    enforced_from: date | None
    amended_by: str | None
    known_in_force_on: date | None = None

    @property
    def text(self) -> str:
        if self.enforced_from is not None and self.amended_by is not None:
            return f"{self.law_id}_{self.enforced_from:%Y%m%d}_{self.amended_by}"
        assert self.known_in_force_on is not None
        return f"{self.law_id}_snapshot{self.known_in_force_on:%Y%m%d}"

    @property
    def is_snapshot(self) -> bool:
        return self.amended_by is None


@dataclass(frozen=True)
class KnownAmendment:
    """An amending law that a stored version's 附則 names, and its 施行期日 as far as the 附則 fix it.

    `enforced_from` is None when the text leaves the day to a 政令 or to another law's enforcement; `basis` says
    how it was read ("date": written out, "promulgation": 公布の日, "counted": 公布の日から起算してN月を経過した日,
    "unknown"). `earliest` is the first day on
    which an amendment of unknown date may have taken effect inside a gap between two stored versions.
    """

    law_num: str  # 平成三十年法律第五十九号
    promulgated: date | None
    enforced_from: date | None
    basis: str
    enforcement: str  # the 附則 sentence that fixes the day
    earliest: date | None = None
    latest: date | None = None  # the last day a 政令 could fix (「…一年を超えない範囲内において政令で定める日」)
    # Where two sources disagree about this amendment (the 附則 name it in force, e-Gov's revision list has no
    # revision for it): both sources, in words. Empty when none does; then it is left out of the JSON, so that a
    # store ingested before the cross-check reads back the same.
    conflict: str = ""

    def to_json(self) -> dict[str, str | None]:
        data = {"law_num": self.law_num, "promulgated": _iso(self.promulgated),
                "enforced_from": _iso(self.enforced_from), "basis": self.basis, "enforcement": self.enforcement,
                "earliest": _iso(self.earliest), "latest": _iso(self.latest)}
        return data | {"conflict": self.conflict} if self.conflict else data

    @classmethod
    def from_json(cls, data: dict[str, str | None]) -> KnownAmendment:
        return cls(law_num=data["law_num"] or "", promulgated=_day(data.get("promulgated")),
                   enforced_from=_day(data.get("enforced_from")), basis=data.get("basis") or "unknown",
                   enforcement=data.get("enforcement") or "", earliest=_day(data.get("earliest")),
                   latest=_day(data.get("latest")), conflict=data.get("conflict") or "")

    def describe(self) -> str:
        """「平成三十年法律第五十九号 (from 2022-04-01)」, or for a day the text leaves open, what fixes it; and where
        the sources disagree about it, both of them."""
        conflict = f"; sources disagree: {self.conflict}" if self.conflict else ""
        return self._describe_day()[:-1] + conflict + ")"

    def _describe_day(self) -> str:
        if self.enforced_from is not None:
            return f"{self.law_num} (from {self.enforced_from.isoformat()})"
        after = f", not before {self.earliest.isoformat()}" if self.earliest else ""
        if self.latest is not None:
            after += f"{',' if after else ''} not after {self.latest.isoformat()}"
        if "政令で定める日" in self.enforcement or "勅令" in self.enforcement:
            return f"{self.law_num} (from a day fixed by 政令{after})"
        return f"{self.law_num} (from a day the 附則 does not fix: 「{self.enforcement}」{after})"


def period_text(start: date | None, end: date | None, known_up_to: date | None) -> str:
    """A wording's period as lexgraph prints it: ``2020-04-01 – 2020-05-16`` (the end exclusive), and for an
    open end never "now" but how far the store knows it: ``2023-06-14 – (known up to 2023-06-14)``. The store
    cannot know that a stored text is current; the day its source was seen in force is the most it can say."""
    begin = start.isoformat() if start else "…"
    if end is not None:
        return f"{begin} – {end.isoformat()}"
    return f"{begin} – (known up to {known_up_to.isoformat()})" if known_up_to else f"{begin} – (end unknown)"


def scheduled_period(day: date | None, dated_by: str) -> str:
    """A scheduled (施行予定) version's period, in every reader's words: never "in force from" its day, since the
    store read it before that day and so does not know it ever was; and a day only its id gives (a file, not
    e-Gov's API: `dated_by`) is not a day it is known to take effect."""
    if day is None:
        when = ", day not fixed"
    elif dated_by != "egov-api":
        when = f", day not fixed (its id gives {day.isoformat()})"
    else:
        when = f" from {day.isoformat()}"
    return f"scheduled (施行予定){when}; not known in force on any day"


def _iso(day: date | None) -> str | None:
    return day.isoformat() if day is not None else None


def _day(text: str | None) -> date | None:
    return date.fromisoformat(text) if text else None


@dataclass(frozen=True)
class LawVersionInfo:
    """A stored version of a law and the period in which it was in force (`enforced_until` is exclusive)."""

    revision_id: str
    law_id: str
    enforced_from: date | None
    enforced_until: date | None
    amended_by: str | None
    source: str
    dated_by: str  # "revision_id" (e-Gov id) or "snapshot" (only a date on which it was known in force)
    known_in_force_on: date | None = None
    # The first day on which an amendment the store knows of but does not hold may have changed this version's
    # wording: from that day it is not known in force (docs/statutes.md); `gap` names those amendments. None: none
    # known before the next.
    known_until: date | None = None
    gap: tuple[KnownAmendment, ...] = ()
    amendments: tuple[KnownAmendment, ...] = ()  # every amending law its 附則 name (as read back from the store)
    # A revision promulgated but not in force on the last sync day (e-Gov `UnEnforced`): `enforced_from` is the day
    # it is to take effect, or None when e-Gov leaves it open (政令で定める日): then it is in force on no day.
    scheduled: bool = False

    @property
    def known_up_to(self) -> date | None:
        """For the newest version (no `enforced_until`), the last day on which the store knows its wording was in
        force: the day its source was seen in force, or else the day it took effect. The store never knows a
        version is in force "now"; for earlier versions None (their end is `known_until` / `enforced_until`).
        A synced version followed only by scheduled ones is known up to the sync day (`known_in_force_on`)."""
        if self.scheduled:
            return None
        if self.enforced_until is not None:
            if self.dated_by == "egov-api" and self.known_in_force_on is not None \
                    and self.known_in_force_on < self.enforced_until:
                return self.known_in_force_on
            return None
        days = [d for d in (self.enforced_from, self.known_in_force_on) if d is not None]
        return max(days) if days else None

    @property
    def period(self) -> str:
        """The version's period as every reader prints it (`law versions`, `law show`, a refusal's reason, MCP):
        ``2020-05-16 – 2023-06-14 (changed clauses known only until 2020-05-17: 7 amendments in between not
        stored)``. A scheduled (施行予定) version never reads as in force from its day: the store read it before
        that day, so does not know it ever was; and a day only its id gives (a file, not e-Gov's API) is not a
        day it is known to take effect."""
        if self.scheduled:
            return scheduled_period(self.enforced_from, self.dated_by)
        text = period_text(self.enforced_from, self.enforced_until, self.known_up_to)
        if self.enforced_until is not None and self.known_up_to is not None:
            text += f" (known up to {self.known_up_to.isoformat()}; then scheduled)"
        if self.known_until is not None and self.gap:
            text += (f" (changed clauses known only until {self.known_until.isoformat()}: {len(self.gap)} amendments "
                     "in between not stored)")
        return text

    def in_gap(self, day: date) -> bool:
        """Whether `day` falls after this version's wording is known in force but before the next stored one."""
        return self.known_until is not None and self.known_until <= day and (
            self.enforced_until is None or day < self.enforced_until)


@dataclass(frozen=True)
class ProvisionVersion:
    """One stored Provision node: one distinct text of a clause over one contiguous period.

    `valid_from` None means the start is unknown (the first version we hold is a snapshot); `valid_until` None
    means it is still in force as far as the store knows.
    """

    uid: str
    law_id: str
    path: str
    kind: str
    num: str
    title: str
    caption: str
    heading: str
    text: str
    sentences: tuple[SentenceText, ...]
    seq: int
    valid_from: date | None
    valid_until: date | None
    content_hash: str
    revision_ids: tuple[str, ...] = field(default=())

    def in_force_on(self, day: date) -> bool:
        starts_ok = self.valid_from is None or self.valid_from <= day
        ends_ok = self.valid_until is None or day < self.valid_until
        return starts_ok and ends_ok


@dataclass(frozen=True)
class LawInfo:
    """A law as the store knows it."""

    law_id: str
    title: str
    law_num: str
    law_type: str
    aliases: tuple[str, ...] = ()
    kana: str = ""
    promulgated: date | None = None
    repealed_on: date | None = None  # a synced law e-Gov lists as repealed: in force on no day from this one
