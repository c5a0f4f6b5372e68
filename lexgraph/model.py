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
